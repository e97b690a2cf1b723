//! Test-only bridge to the wire oracle: `../shared/tools/wire-oracle`, a
//! Python program that parses JSON with Google's own protobuf library
//! against the normative A2A v1.0 proto and checks REQUIRED fields.
//!
//! It shares no code with this workspace, which is the point: whatever our
//! encoders produce is judged by an independent referee. Tests hand it
//! documents and assert on its verdict.
//!
//! The oracle creates its own virtualenv on first use (see
//! `scripts/setup-oracle`); `WIRE_ORACLE_VENV` chooses where. When the
//! variable is unset this crate points it at `target/wire-oracle-venv`, the
//! same place `.ci/run` uses.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Mutex, PoisonError};

/// What one oracle run reported.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// True when the oracle exited 0 (every case passed).
    pub success: bool,
    /// Everything the oracle printed on stdout.
    pub stdout: String,
    /// Everything the oracle printed on stderr.
    pub stderr: String,
}

impl Verdict {
    /// The `(passed, failed)` counts from the closing `N passed, M failed`
    /// line that the `lines` and `jsonrpc` modes print, if present.
    pub fn counts(&self) -> Option<(usize, usize)> {
        let line = self
            .stdout
            .lines()
            .rev()
            .find(|l| l.contains(" passed, ") && l.contains(" failed"))?;
        let mut nums = line
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<usize>().ok());
        Some((nums.next()??, nums.next()??))
    }

    /// The lines of stdout that report a failing case.
    pub fn failures(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| l.starts_with("FAIL") || l.contains(": FAIL "))
            .collect()
    }
}

/// Path of the oracle launcher script.
///
/// `WIRE_ORACLE` names it explicitly; otherwise it is the first
/// `shared/tools/wire-oracle/wire-oracle` found beside this workspace or
/// beside one of its ancestors (a checkout in `/work/main` and a git
/// worktree in `/work/wt/<name>` both find `/work/shared`).
pub fn oracle_path() -> PathBuf {
    if let Some(explicit) = std::env::var_os("WIRE_ORACLE") {
        return PathBuf::from(explicit);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // testing/wire-oracle -> workspace root -> its ancestors may hold shared/.
    manifest
        .ancestors()
        .skip(2)
        .map(|dir| dir.join("shared/tools/wire-oracle/wire-oracle"))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| {
            panic!(
                "wire oracle not found in shared/tools/wire-oracle beside {} or its ancestors; \
                 set WIRE_ORACLE to its path",
                manifest.display()
            )
        })
}

/// The proto the oracle judges against: v1.0 (the oracle's default), or
/// with the `draft-1-1` feature the 1.1 draft's, found beside the oracle
/// (`shared/spec/draft-1.1/a2a.proto`). An explicit `WIRE_ORACLE_PROTO`
/// wins either way.
pub fn proto_path() -> Option<PathBuf> {
    if let Some(explicit) = std::env::var_os("WIRE_ORACLE_PROTO") {
        return Some(PathBuf::from(explicit));
    }
    if !cfg!(feature = "draft-1-1") {
        return None;
    }
    let oracle = oracle_path();
    // shared/tools/wire-oracle/wire-oracle -> shared/
    let shared = oracle.ancestors().nth(3)?;
    Some(shared.join("spec/draft-1.1/a2a.proto"))
}

fn venv_dir() -> PathBuf {
    match std::env::var_os("WIRE_ORACLE_VENV") {
        Some(v) => PathBuf::from(v),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/wire-oracle-venv"),
    }
}

/// Whether this process has run the launcher once already. The launcher
/// creates or completes the virtualenv on first use (`a2a-sdk`, and
/// `grpcio-tools` once `WIRE_ORACLE_PROTO` is set); tests that call it at
/// the same moment would run pip into the same folder, which fails. So the
/// first call of a process runs alone and the others wait for it.
/// (Separate processes sharing a fresh virtualenv are not covered:
/// `scripts/setup-oracle` creates it beforehand.)
static LAUNCHED: Mutex<bool> = Mutex::new(false);

/// Runs the oracle with `args`, feeding `input` on stdin.
///
/// Panics when the oracle cannot be started at all: a test that depends on
/// the referee must not pass without it.
pub fn run(args: &[&str], input: &[u8]) -> Verdict {
    let mut launched = LAUNCHED.lock().unwrap_or_else(PoisonError::into_inner);
    if *launched {
        drop(launched);
        return launch(args, input);
    }
    let verdict = launch(args, input);
    *launched = true;
    verdict
}

fn launch(args: &[&str], input: &[u8]) -> Verdict {
    let mut command = Command::new("bash");
    command
        .arg(oracle_path())
        .args(args)
        .env("WIRE_ORACLE_VENV", venv_dir());
    if let Some(proto) = proto_path() {
        command.env("WIRE_ORACLE_PROTO", proto);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start the wire oracle: {e}"));
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wire oracle failed to run: {e}"));
    let _ = writer.join();
    Verdict {
        success: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `wire-oracle check TYPE`: one JSON document of message type `type_name`.
pub fn check(type_name: &str, json: &str) -> Verdict {
    run(&["check", type_name], json.as_bytes())
}

/// `wire-oracle lines`: one `TYPE<TAB>JSON` case per line.
pub fn lines(input: &str) -> Verdict {
    run(&["lines"], input.as_bytes())
}

/// `wire-oracle jsonrpc`: one JSON-RPC envelope (or SSE `data:` line) per line.
pub fn jsonrpc(input: &str) -> Verdict {
    run(&["jsonrpc"], input.as_bytes())
}

/// `wire-oracle normalize TYPE`: the protobuf library's own JSON for a document.
pub fn normalize(type_name: &str, json: &str) -> Verdict {
    run(&["normalize", type_name], json.as_bytes())
}

/// The protobuf referee (`testing/wire-oracle/proto_check.py`, run with
/// the oracle's virtualenv, which it creates first if needed): one case per
/// line, `TYPE<TAB>JSON<TAB>BASE64`, our ProtoJSON and our protobuf bytes
/// of one value. Google's protobuf library parses both into the official
/// compiled proto's message (or [`proto_path`]'s, compiled with
/// `grpc_tools`, such as the 1.1 draft's) and compares them; for each
/// passing case it prints `ok <BASE64>`, its own encoding of the message.
pub fn protobuf_lines(input: &str) -> Verdict {
    // The launcher creates the virtualenv on first use.
    let ready = run(&["types"], b"");
    if !ready.success {
        return ready;
    }
    let python = venv_dir().join("bin/python");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("proto_check.py");
    let mut command = Command::new(&python);
    command.arg(&script);
    // The same proto as the oracle's (`run` above): the draft's under the
    // `draft-1-1` feature.
    if let Some(proto) = proto_path() {
        command.env("WIRE_ORACLE_PROTO", proto);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", python.display()));
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("protobuf referee failed to run: {e}"));
    let _ = writer.join();
    Verdict {
        success: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Asserts that the oracle accepted every case and returns the pass count.
pub fn assert_all_pass(verdict: &Verdict) -> usize {
    assert!(
        verdict.success,
        "wire oracle rejected output:\n{}\n{}",
        verdict.stdout, verdict.stderr
    );
    match verdict.counts() {
        Some((passed, 0)) => passed,
        Some((_, failed)) => panic!("wire oracle: {failed} failed\n{}", verdict.stdout),
        None => 1,
    }
}
