//! Client conformance: the runner plays an agent ([`a2a_test_peer::TestPeer`])
//! whose answers are the legal-but-awkward variants the spec allows, runs
//! the client under test as a command, and checks what the client sent
//! (the peer's recording) and what it reported (JSON lines on its stdout).
//!
//! # The contract with the client
//!
//! The client is a command (`a2a-conformance client -- <command>`), run
//! once per scenario and binding with these environment variables:
//!
//! | variable | value |
//! | --- | --- |
//! | `A2A_CONFORMANCE_URL` | the peer's base URL; its card is at `<url>/.well-known/agent-card.json` and offers exactly one interface, of the binding under test |
//! | `A2A_CONFORMANCE_SCENARIO` | the scenario id (for the client's logs) |
//! | `A2A_CONFORMANCE_BINDING` | `JSONRPC` or `HTTP+JSON` (the card's only interface) |
//! | `A2A_CONFORMANCE_CALLS` | a JSON array of calls to make in order: `{"operation": "<proto RPC name>", "request": {ProtoJSON request message}}`, with `"follow": true` on a streaming call (follow the task to a terminal or interrupted state: resubscribe with `SubscribeToTask` if the stream ends or drops before) and `"pages": true` on `ListTasks` (call again with `pageToken` set to each `nextPageToken` until it is empty) |
//!
//! For each call the client prints JSON objects, one per line, each with
//! `"call": <index>`:
//!
//! - `{"call": 0, "reply": <result as ProtoJSON>}` for a unary result
//!   (one per page with `pages`; `{}` for an empty result);
//! - `{"call": 0, "event": <StreamResponse as ProtoJSON>}` per stream
//!   event, then `{"call": 0, "end": true}` when the stream ended;
//! - `{"call": 0, "error": {...}}` when the call failed (also after
//!   events), with what the client knows of the error: `code` (the A2A
//!   JSON-RPC code), `reason` (the `ErrorInfo` reason), `message`,
//!   `details` (the error's details as ProtoJSON `Any` objects), `httpStatus`
//!   and `challenges` (the `WWW-Authenticate` values), each optional.
//!
//! Lines that do not start with `{` are ignored (logs). A client that
//! does not answer within [`ClientRun::timeout`] is stopped and the
//! scenario fails.

mod scenarios;

use std::collections::BTreeMap;
use std::process::Stdio;
use std::time::{Duration, Instant};

use a2a_test_peer::{Received, TestPeer};
use a2a_types::{ErrorKind, Operation, Reply, StreamResponse};
use serde_json::{json, Value};
use tokio::io::AsyncReadExt;

use crate::binding::Binding;
use crate::check::{fail, Check, Level, Stop};
use crate::report::{Outcome, Record, Report};

pub use scenarios::all;

/// One client scenario: what the peer answers, what the client is asked
/// to do, and what must hold afterwards.
#[derive(Clone, Copy)]
pub struct ClientScenario {
    /// A stable id, `client.<area>.<what>`.
    pub id: &'static str,
    /// The requirement, in one line.
    pub title: &'static str,
    /// The spec section it checks.
    pub section: &'static str,
    /// The requirement level.
    pub level: Level,
    /// The bindings it runs on.
    pub bindings: &'static [Binding],
    /// The `tenant` of the card's interface (empty: none).
    pub tenant: &'static str,
    /// Scripts the peer for `binding` and answers the calls the client is
    /// to make.
    pub script: fn(&TestPeer, Binding) -> Vec<Value>,
    /// Judges the run.
    pub check: fn(&Observed) -> Check,
}

impl std::fmt::Debug for ClientScenario {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientScenario")
            .field("id", &self.id)
            .field("section", &self.section)
            .finish_non_exhaustive()
    }
}

impl ClientScenario {
    /// Whether `--only pattern` selects this scenario: its id contains the
    /// pattern, or its section is or starts with it (`3.1`).
    pub fn matches(&self, pattern: &str) -> bool {
        self.id.contains(pattern)
            || self.section == pattern
            || self
                .section
                .strip_prefix(pattern)
                .is_some_and(|rest| rest.starts_with('.'))
    }
}

/// One line of the client's output.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// A unary result.
    Reply(Value),
    /// A stream event.
    Event(Value),
    /// A failure.
    Error(Value),
    /// The end of a stream.
    End,
}

/// What a run of the client showed: the peer's recording and the client's
/// lines.
#[derive(Debug)]
pub struct Observed {
    /// The binding under test.
    pub binding: Binding,
    /// Every request the peer received.
    pub received: Vec<Received>,
    /// The client's lines, by call index.
    pub lines: BTreeMap<usize, Vec<Line>>,
    /// Output lines that start with `{` but are not in the contract's form.
    pub malformed: Vec<String>,
    /// The client's stderr, its last 2 KiB.
    pub stderr: String,
    /// The client's exit status (`None` when it was stopped).
    pub exit: Option<i32>,
}

impl Observed {
    fn of(&self, call: usize) -> &[Line] {
        self.lines.get(&call).map(Vec::as_slice).unwrap_or_default()
    }

    /// A short account of the run, for failure details.
    pub fn account(&self) -> String {
        let mut s = String::new();
        for (call, lines) in &self.lines {
            for l in lines {
                let text = match l {
                    Line::Reply(v) => format!("reply {}", crate::abbreviate(&v.to_string())),
                    Line::Event(v) => format!("event {}", crate::abbreviate(&v.to_string())),
                    Line::Error(v) => format!("error {}", crate::abbreviate(&v.to_string())),
                    Line::End => "end".to_owned(),
                };
                s.push_str(&format!("[{call}] {text}; "));
            }
        }
        if s.is_empty() {
            s.push_str("no output lines");
        }
        if let Some(code) = self.exit.filter(|c| *c != 0) {
            s.push_str(&format!(" (exit {code})"));
        }
        if !self.stderr.trim().is_empty() {
            s.push_str(&format!(
                " stderr: {}",
                crate::abbreviate(self.stderr.trim())
            ));
        }
        s
    }

    /// The results the client reported for `call`, decoded as `op`'s
    /// result type; a line that does not decode fails.
    pub fn replies(&self, call: usize, op: Operation) -> Check<Vec<Reply>> {
        let mut out = Vec::new();
        for line in self.of(call) {
            match line {
                Line::Reply(v) => {
                    let bytes = serde_json::to_vec(v).unwrap_or_default();
                    out.push(
                        Reply::from_json(op, &bytes, &a2a_types::DecodeLimits::default()).map_err(
                            |e| {
                                fail(
                                    format!("a {} result as ProtoJSON", op.name()),
                                    format!("{v}: {e}"),
                                )
                            },
                        )?,
                    );
                }
                Line::Error(_) => {
                    return Err(fail(
                        format!("the {} result reported", op.name()),
                        self.account(),
                    ))
                }
                _ => {}
            }
        }
        if out.is_empty() {
            return Err(fail(
                format!("the {} result reported", op.name()),
                self.account(),
            ));
        }
        Ok(out)
    }

    /// The one result reported for `call`.
    pub fn reply(&self, call: usize, op: Operation) -> Check<Reply> {
        let mut replies = self.replies(call, op)?;
        match replies.len() {
            1 => Ok(replies.remove(0)),
            n => Err(fail(
                "one result",
                format!("{n} results: {}", self.account()),
            )),
        }
    }

    /// The events the client reported for `call`, decoded, and whether it
    /// reported an end (else the error it reported, if any).
    pub fn events(&self, call: usize) -> Check<(Vec<StreamResponse>, Option<Value>)> {
        let mut events = Vec::new();
        let mut error = None;
        for line in self.of(call) {
            match line {
                Line::Event(v) => {
                    let bytes = serde_json::to_vec(v).unwrap_or_default();
                    events.push(
                        a2a_types::from_slice::<StreamResponse>(&bytes).map_err(|e| {
                            fail("a StreamResponse as ProtoJSON", format!("{v}: {e}"))
                        })?,
                    );
                }
                Line::Error(e) => error = Some(e.clone()),
                _ => {}
            }
        }
        Ok((events, error))
    }

    /// The error the client reported for `call`.
    pub fn error(&self, call: usize) -> Check<ReportedError> {
        self.of(call)
            .iter()
            .find_map(|l| match l {
                Line::Error(v) => Some(ReportedError(v.clone())),
                _ => None,
            })
            .ok_or_else(|| fail("an error reported", self.account()))
    }

    /// The requests the peer received for `op`.
    pub fn sent(&self, op: Operation) -> Vec<&Received> {
        self.received
            .iter()
            .filter(|r| r.operation() == Some(op))
            .collect()
    }

    /// The one request the client sent for `op`.
    pub fn sent_one(&self, op: Operation) -> Check<&Received> {
        let sent = self.sent(op);
        match sent.as_slice() {
            [one] => Ok(one),
            [] => Err(fail(
                format!("a {} request the peer could decode", op.name()),
                self.requests_account(),
            )),
            many => Err(fail(
                format!("one {} request", op.name()),
                format!("{} of them", many.len()),
            )),
        }
    }

    /// The requests received, in one line each.
    pub fn requests_account(&self) -> String {
        if self.received.is_empty() {
            return "no request".into();
        }
        self.received
            .iter()
            .map(|r| {
                format!(
                    "{} {} -> {}",
                    r.method,
                    r.path,
                    r.status.map(|s| s.as_u16()).unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// An error as the client reported it.
#[derive(Debug, Clone)]
pub struct ReportedError(pub Value);

impl ReportedError {
    /// The kind, from the reported `code` or `reason` (`None` when neither
    /// names a kind of the error table).
    pub fn kind(&self) -> Option<ErrorKind> {
        let by_code = self.0["code"]
            .as_i64()
            .map(|c| a2a_types::ErrorCode(c).kind())
            .filter(|k| *k != ErrorKind::Unknown);
        by_code.or_else(|| self.0["reason"].as_str().and_then(ErrorKind::from_reason))
    }

    /// The reported HTTP status.
    pub fn http_status(&self) -> Option<u64> {
        self.0["httpStatus"].as_u64()
    }

    /// The reported details, decoded.
    pub fn details(&self) -> Vec<a2a_types::ErrorDetail> {
        self.0["details"]
            .as_array()
            .map(|d| {
                d.iter()
                    .filter_map(|v| a2a_types::ErrorDetail::from_value(v.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Fails unless the reported kind is `kind`.
    pub fn expect_kind(&self, kind: ErrorKind) -> Check {
        match self.kind() {
            Some(k) if k == kind => Ok(()),
            _ => Err(fail(
                format!(
                    "{} (code {}, reason {})",
                    kind.name(),
                    kind.code().0,
                    kind.reason()
                ),
                self.0.to_string(),
            )),
        }
    }
}

/// How the client under test is run.
#[derive(Debug, Clone)]
pub struct ClientRun {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// How long one run may take. Default: 30 s.
    pub timeout: Duration,
    /// Scenario filters (`--only`).
    pub only: Vec<String>,
    /// Bindings to test (empty: both).
    pub bindings: Vec<Binding>,
}

impl ClientRun {
    /// Runs `command` with the defaults.
    pub fn new(command: Vec<String>) -> ClientRun {
        ClientRun {
            command,
            timeout: Duration::from_secs(30),
            only: Vec::new(),
            bindings: Vec::new(),
        }
    }
}

/// The most of the client's stdout read per run.
const MAX_STDOUT: u64 = 16 * 1024 * 1024;
/// The most of its stderr kept per run.
const MAX_STDERR: usize = 2048;

/// Runs every selected scenario on every selected binding, one at a time
/// (each on a fresh peer), into a report.
pub async fn run_client(run: &ClientRun, scenarios: &[ClientScenario]) -> Report {
    let mut records = Vec::new();
    for scenario in scenarios {
        if !run.only.is_empty() && !run.only.iter().any(|p| scenario.matches(p)) {
            continue;
        }
        for &binding in scenario.bindings {
            if !run.bindings.is_empty() && !run.bindings.contains(&binding) {
                continue;
            }
            records.push(run_one(run, scenario, binding).await);
        }
    }
    Report::new(format!("client: {}", run.command.join(" ")), None, records)
}

async fn run_one(run: &ClientRun, scenario: &ClientScenario, binding: Binding) -> Record {
    let started = Instant::now();
    let outcome = observe(run, scenario, binding)
        .await
        .and_then(|observed| (scenario.check)(&observed));
    let (outcome, detail) = match outcome {
        Ok(()) => (Outcome::Pass, String::new()),
        Err(Stop::Fail { expected, got }) => {
            (Outcome::Fail, format!("expected: {expected}\ngot: {got}"))
        }
        Err(Stop::Skip(why)) => (Outcome::Skip, why),
    };
    Record {
        scenario: scenario.id.to_owned(),
        title: scenario.title.to_owned(),
        section: scenario.section.to_owned(),
        level: scenario.level,
        binding,
        outcome,
        detail,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        // The official TCK has no client-side requirements to name.
        tck: Vec::new(),
    }
}

/// Starts the peer, scripts it, runs the client and collects what it did.
async fn observe(run: &ClientRun, scenario: &ClientScenario, binding: Binding) -> Check<Observed> {
    let Some(protocol) = binding.transport() else {
        return Err(crate::skip(format!("{binding} is not an HTTP binding")));
    };
    let name = protocol.as_str().to_owned();
    let peer = TestPeer::builder()
        .tenant(scenario.tenant)
        .card({
            let name = name.clone();
            move |card| {
                card.supported_interfaces
                    .retain(|i| i.protocol_binding == name)
            }
        })
        .start()
        .await
        .map_err(|e| fail("the test peer running", e))?;
    let calls = (scenario.script)(&peer, binding);
    let Some((program, args)) = run.command.split_first() else {
        return Err(fail("a client command", "none"));
    };
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .env("A2A_CONFORMANCE_URL", peer.url())
        .env("A2A_CONFORMANCE_SCENARIO", scenario.id)
        .env("A2A_CONFORMANCE_BINDING", &name)
        .env("A2A_CONFORMANCE_CALLS", Value::Array(calls).to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| fail(format!("the client started ({program})"), e))?;
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(fail("the client's output piped", "no pipe"));
    };
    let collect = async {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let mut stdout = stdout.take(MAX_STDOUT);
        let mut stderr = stderr.take(MAX_STDOUT);
        let _ = tokio::join!(stdout.read_to_end(&mut out), stderr.read_to_end(&mut err));
        let status = child.wait().await.ok();
        (out, err, status)
    };
    let (out, err, status) = match tokio::time::timeout(run.timeout, collect).await {
        Ok(v) => v,
        Err(_) => {
            return Err(fail(
                format!("the client finished within {:?}", run.timeout),
                "it was stopped",
            ))
        }
    };
    let mut lines: BTreeMap<usize, Vec<Line>> = BTreeMap::new();
    let mut malformed = Vec::new();
    for text in String::from_utf8_lossy(&out).lines() {
        let text = text.trim();
        if !text.starts_with('{') {
            continue;
        }
        match parse_line(text) {
            Some((call, line)) => lines.entry(call).or_default().push(line),
            None => malformed.push(text.to_owned()),
        }
    }
    let stderr = String::from_utf8_lossy(&err);
    let keep = stderr.len().saturating_sub(MAX_STDERR);
    let stderr = stderr
        .char_indices()
        .find(|(i, _)| *i >= keep)
        .map(|(i, _)| stderr[i..].to_owned())
        .unwrap_or_default();
    // Let the peer finish recording what arrived last.
    tokio::time::sleep(Duration::from_millis(10)).await;
    let observed = Observed {
        binding,
        received: peer.received(),
        lines,
        malformed,
        stderr,
        exit: status.and_then(|s| s.code()),
    };
    if let Some(bad) = observed.malformed.first() {
        return Err(fail(
            "output lines in the contract's form (call plus reply, event, error or end)",
            crate::abbreviate(bad),
        ));
    }
    Ok(observed)
}

fn parse_line(text: &str) -> Option<(usize, Line)> {
    let v: Value = serde_json::from_str(text).ok()?;
    let call = usize::try_from(v.get("call")?.as_u64()?).ok()?;
    let line = if let Some(r) = v.get("reply") {
        Line::Reply(r.clone())
    } else if let Some(e) = v.get("event") {
        Line::Event(e.clone())
    } else if let Some(e) = v.get("error") {
        Line::Error(e.clone())
    } else if v.get("end") == Some(&Value::Bool(true)) {
        Line::End
    } else {
        return None;
    };
    Some((call, line))
}

/// A call of the contract: `operation` with `request`.
pub fn call(op: Operation, request: Value) -> Value {
    json!({"operation": op.name(), "request": request})
}

/// The `--list` table of the client scenarios, in Markdown.
pub fn markdown_table(scenarios: &[ClientScenario]) -> String {
    let mut out = String::from(
        "| id | section | level | bindings | requirement |\n| --- | --- | --- | --- | --- |\n",
    );
    for s in scenarios {
        let bindings: Vec<&str> = s.bindings.iter().map(|b| b.as_str()).collect();
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            s.id,
            s.section,
            s.level,
            bindings.join(", "),
            s.title
        ));
    }
    out
}
