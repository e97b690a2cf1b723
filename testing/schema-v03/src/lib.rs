//! Test-only check of documents against the A2A 0.3 JSON Schema
//! (`a2a-v0.3.schema.json`, copied here from `../shared/spec`), judged by
//! Python's `jsonschema` package in `check.py`: an independent referee
//! for the 0.3 codecs, as the wire oracle is for 1.0.
//!
//! The package lives in a virtualenv made by `scripts/setup-schema-v03`
//! (which `.ci/run` calls); `SCHEMA_V03_VENV` chooses where, by default
//! `target/schema-v03-venv`. When the virtualenv is missing, the first
//! check runs the script itself.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// One document to check: a name for the report, the schema definition
/// it must satisfy (`"Task"`, `"SendMessageSuccessResponse"`) and the
/// document.
#[derive(Debug, Clone)]
pub struct Case {
    /// Shown in the report.
    pub name: String,
    /// A key of the schema's `definitions`.
    pub definition: String,
    /// The JSON document.
    pub document: serde_json::Value,
}

impl Case {
    /// A case from JSON bytes (which must parse).
    pub fn new(name: impl Into<String>, definition: &str, json: &[u8]) -> Case {
        let name = name.into();
        let document = serde_json::from_slice(json).unwrap_or_else(|e| {
            panic!("{name}: not JSON ({e}): {}", String::from_utf8_lossy(json))
        });
        Case {
            name,
            definition: definition.to_owned(),
            document,
        }
    }
}

/// What the checker reported.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// Exit status 0: every case passed.
    pub success: bool,
    /// The `FAIL name: ...` lines.
    pub failures: Vec<String>,
    /// How many cases passed.
    pub passed: usize,
    /// Everything on stderr.
    pub stderr: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn venv() -> PathBuf {
    std::env::var_os("SCHEMA_V03_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/schema-v03-venv"))
}

/// Makes the virtualenv once per test binary.
fn ready() {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        let status = Command::new("bash")
            .arg(root().join("scripts/setup-schema-v03"))
            .env("SCHEMA_V03_VENV", venv())
            .stdout(Stdio::null())
            .status()
            .expect("run scripts/setup-schema-v03");
        assert!(status.success(), "scripts/setup-schema-v03 failed");
    });
}

/// Checks every case.
pub fn check(cases: &[Case]) -> Verdict {
    ready();
    let mut input = Vec::new();
    for case in cases {
        let line = serde_json::json!({
            "name": case.name,
            "definition": case.definition,
            "document": case.document,
        });
        serde_json::to_writer(&mut input, &line).expect("a JSON value serializes");
        input.push(b'\n');
    }
    let mut child = Command::new(venv().join("bin/python"))
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("check.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start check.py");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("check.py runs");
    writer
        .join()
        .expect("the writer thread")
        .expect("write to check.py");
    let stdout = String::from_utf8_lossy(&output.stdout);
    Verdict {
        success: output.status.success(),
        failures: stdout
            .lines()
            .filter(|l| l.starts_with("FAIL"))
            .map(str::to_owned)
            .collect(),
        passed: stdout.lines().filter(|l| l.starts_with("PASS")).count(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Checks every case and panics with the failures unless all pass.
pub fn assert_valid(cases: &[Case]) {
    let verdict = check(cases);
    assert!(
        verdict.success && verdict.passed == cases.len(),
        "{} of {} documents fail the 0.3 schema:\n{}\n{}",
        verdict.failures.len(),
        cases.len(),
        verdict.failures.join("\n"),
        verdict.stderr
    );
}
