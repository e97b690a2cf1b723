//! The runner with `--contract tck` against a small agent written for the
//! official TCK's `messageId`-prefix contract (and nothing of the
//! reference agent's message text): each behaviour the scenarios ask for
//! is reached through its prefix, the reference-only scenarios skip
//! saying `--contract reference` would enable them, and one passed probe
//! does not stand in for another.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use a2a_conformance::{run, scenarios, Contract, Embedded, Outcome, Remote, RunOptions};
use a2a_hyper::{serve, ServeOptions};
use a2a_transport::{A2aServer, A2aService, BoxFuture, CallContext};
use a2a_types::{
    A2aError, AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Artifact,
    CancelTaskRequest, ErrorKind, GetTaskRequest, Message, Part, SendMessageRequest,
    SendMessageResponse, Task, TaskState, TaskStatus, Timestamp,
};
use tokio::net::TcpListener;

/// Follows the TCK SUT's prefixes: `tck-artifact-text` completes with an
/// artifact, `tck-message-response` answers a Message,
/// `tck-input-required` waits for input (a follow-up completes it),
/// `tck-reject-task` is rejected, `test-resubscribe-message-id` keeps
/// working until canceled; anything else completes without an artifact.
/// `with_input_required: false` is the same agent missing that one.
struct TckAgent {
    tasks: Mutex<HashMap<String, Task>>,
    next: AtomicU64,
    with_input_required: bool,
}

impl TckAgent {
    fn new(with_input_required: bool) -> TckAgent {
        TckAgent {
            tasks: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
            with_input_required,
        }
    }

    fn card(base: &str) -> AgentCard {
        AgentCard {
            name: "TCK-contract agent".into(),
            description: "Behaves as the TCK's messageId prefixes ask".into(),
            version: "1.0.0".into(),
            supported_interfaces: vec![
                AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
                AgentInterface::new(base, "HTTP+JSON", "1.0"),
            ],
            capabilities: AgentCapabilities {
                streaming: Some(false),
                push_notifications: Some(false),
                ..Default::default()
            },
            default_input_modes: vec!["text/plain".into()],
            default_output_modes: vec!["text/plain".into()],
            skills: vec![AgentSkill {
                id: "tck".into(),
                name: "TCK".into(),
                description: "TCK behaviours".into(),
                tags: vec!["tck".into()],
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    fn answer(&self, mut message: Message) -> Result<SendMessageResponse, A2aError> {
        let mut tasks = self.tasks.lock().unwrap();
        if !message.task_id.is_empty() {
            let task = tasks
                .get_mut(&message.task_id)
                .ok_or_else(|| A2aError::task_not_found(&message.task_id))?;
            if !message.context_id.is_empty() && message.context_id != task.context_id {
                return Err(A2aError::invalid_params(vec![]));
            }
            if task.status.state != TaskState::InputRequired {
                return Err(A2aError::new(
                    ErrorKind::UnsupportedOperation,
                    "the task takes no more messages",
                ));
            }
            message.context_id = task.context_id.clone();
            task.history.push(message);
            task.status = TaskStatus::new(TaskState::Completed).with_timestamp(now());
            task.artifacts = vec![Artifact::new("answer", vec![Part::text("thanks")])];
            return Ok(SendMessageResponse::Task(task.clone()));
        }
        let id = |kind: &str| format!("{kind}-{}", self.next.fetch_add(1, Ordering::Relaxed));
        let prefix = |p: &str| message.message_id.starts_with(p);
        if prefix("tck-message-response") {
            return Ok(SendMessageResponse::Message(Message::agent_text(
                id("reply"),
                "Direct message response",
            )));
        }
        let (state, artifact) = if prefix("tck-artifact-text") {
            (TaskState::Completed, Some("Generated text content"))
        } else if prefix("tck-input-required") && self.with_input_required {
            (TaskState::InputRequired, None)
        } else if prefix("tck-reject-task") {
            (TaskState::Rejected, None)
        } else if prefix("test-resubscribe-message-id") {
            (TaskState::Working, None)
        } else {
            (TaskState::Completed, None)
        };
        let context = match message.context_id.is_empty() {
            true => id("context"),
            false => message.context_id.clone(),
        };
        let mut task = Task::new(id("task"), context, state);
        task.status.timestamp = Some(now());
        task.artifacts = artifact
            .map(|text| vec![Artifact::new("result", vec![Part::text(text)])])
            .unwrap_or_default();
        message.task_id = task.id.clone();
        message.context_id = task.context_id.clone();
        task.history = vec![message];
        tasks.insert(task.id.clone(), task.clone());
        Ok(SendMessageResponse::Task(task))
    }
}

impl A2aService for TckAgent {
    fn send_message<'a>(
        &'a self,
        _: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        Box::pin(async move { self.answer(request.message) })
    }

    fn get_task<'a>(
        &'a self,
        _: &'a CallContext,
        request: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(async move {
            let tasks = self.tasks.lock().unwrap();
            tasks
                .get(&request.id)
                .cloned()
                .ok_or_else(|| A2aError::task_not_found(&request.id))
        })
    }

    fn cancel_task<'a>(
        &'a self,
        _: &'a CallContext,
        request: CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(async move {
            let mut tasks = self.tasks.lock().unwrap();
            let task = tasks
                .get_mut(&request.id)
                .ok_or_else(|| A2aError::task_not_found(&request.id))?;
            if task.status.state.is_terminal() {
                return Err(A2aError::from_kind(ErrorKind::TaskNotCancelable));
            }
            task.status = TaskStatus::new(TaskState::Canceled).with_timestamp(now());
            Ok(task.clone())
        })
    }
}

fn now() -> Timestamp {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    Timestamp::from_unix_millis(millis as i64).unwrap()
}

async fn run_against(agent: TckAgent, contract: Contract) -> a2a_conformance::Report {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = A2aServer::new(agent, TckAgent::card(&url), a2a_hyper::server_config()).unwrap();
    tokio::spawn(serve(
        listener,
        Arc::new(server),
        ServeOptions::default(),
        std::future::pending(),
    ));
    let mut remote = Remote::new(url);
    remote.contract = contract;
    run(
        remote.connect().await,
        &scenarios::all(),
        &RunOptions::default(),
    )
    .await
}

fn outcomes<'r>(
    report: &'r a2a_conformance::Report,
    scenario: &str,
) -> Vec<&'r a2a_conformance::Record> {
    let records: Vec<_> = report
        .results
        .iter()
        .filter(|r| r.scenario == scenario)
        .collect();
    assert!(!records.is_empty(), "no records of {scenario}");
    records
}

/// The scenarios that reach each behaviour through the TCK contract.
const REACHED: [(&str, &[&str]); 4] = [
    (
        "complete",
        &[
            "send.task",
            "get.task",
            "send.terminal-task",
            "cancel.terminal",
        ],
    ),
    ("direct-message", &["send.direct-message"]),
    (
        "input-required",
        &[
            "send.blocking-interrupted",
            "context.inferred-from-task",
            "context.mismatch-rejected",
        ],
    ),
    (
        "long-running",
        &[
            "send.return-immediately",
            "cancel.working",
            "cancel.idempotent",
        ],
    ),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tck_contract_reaches_each_behaviour_through_its_prefix() {
    let report = run_against(TckAgent::new(true), Contract::Tck).await;
    let table = report.table();
    for (behaviour, scenarios) in REACHED {
        for scenario in scenarios {
            for r in outcomes(&report, scenario) {
                assert_eq!(r.outcome, Outcome::Pass, "{behaviour}: {r:?}\n{table}");
            }
        }
    }
    // The scenarios relying on the reference agent's parameters skip,
    // saying what would enable them.
    for r in outcomes(&report, "multi-turn.input-required") {
        assert_eq!(r.outcome, Outcome::Skip, "{r:?}");
        assert!(r.detail.starts_with("needs --contract reference"), "{r:?}");
    }
    // The TCK contract has no way to ask for auth-required.
    for r in outcomes(&report, "multi-turn.auth-required") {
        assert_eq!(r.outcome, Outcome::Skip, "{r:?}");
        assert!(r.detail.contains("auth-required"), "{r:?}");
    }
    // A streamed artifact needs the streaming capability this card lacks.
    for r in outcomes(&report, "stream.starts-with-task") {
        assert_eq!(r.outcome, Outcome::Skip, "{r:?}");
        assert!(r.detail.contains("capabilities.streaming"), "{r:?}");
    }
    // It answers CancelTask, so nothing fails but the SHOULD it skips.
    let failed: Vec<_> = report
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Fail && r.level == a2a_conformance::Level::Must)
        .map(|r| format!("{} [{}]: {}", r.scenario, r.binding, r.detail))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}\n{table}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_agent_runs_under_the_tck_contract_too() {
    // The reference agent reads the TCK's prefixes, streaming included:
    // nothing fails, and the streamed-artifact and failure behaviours are
    // reached through `tck-stream-artifact-chunked` and `tck-reject-task`.
    // Standard timings: `test-resubscribe-message-id` works for 4 s,
    // longer than the fast call timeout.
    let (mut target, _running) = Embedded::default().on_loopback().await.unwrap();
    target.contract = Contract::Tck;
    let report = run(target, &scenarios::all(), &RunOptions::default()).await;
    let table = report.table();
    assert_eq!(report.totals.failed, 0, "{table}");
    for scenario in [
        "stream.starts-with-task",
        "stream.closes-on-terminal",
        "send.terminal-task",
    ] {
        for r in outcomes(&report, scenario) {
            assert_eq!(r.outcome, Outcome::Pass, "{r:?}\n{table}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_behaviour_missing_is_reported_not_implemented() {
    // The agent completes `tck-input-required` instead of waiting: the
    // input-required probe fails, and the scenarios that need it, and only
    // those, skip saying the behaviour is not implemented (an agent may
    // implement part of a contract); the other behaviours still pass.
    let report = run_against(TckAgent::new(false), Contract::Tck).await;
    let table = report.table();
    for scenario in REACHED[1].1 {
        for r in outcomes(&report, scenario) {
            assert_eq!(r.outcome, Outcome::Pass, "{r:?}\n{table}");
        }
    }
    for scenario in REACHED[2].1 {
        for r in outcomes(&report, scenario) {
            assert_eq!(r.outcome, Outcome::Skip, "{r:?}\n{table}");
            assert!(
                r.detail.starts_with(
                    "`input-required` not implemented by the agent (asked as the tck contract says"
                ),
                "{r:?}"
            );
            // What it answered instead is in the reason.
            assert!(r.detail.contains("COMPLETED"), "{r:?}");
        }
    }
    for scenario in REACHED[0].1.iter().chain(REACHED[3].1) {
        for r in outcomes(&report, scenario) {
            assert_eq!(r.outcome, Outcome::Pass, "{r:?}\n{table}");
        }
    }
    // No failure anywhere blames the missing behaviour.
    assert!(
        !report
            .results
            .iter()
            .any(|r| r.outcome == Outcome::Fail && r.detail.contains("input-required")),
        "{table}"
    );
    // Without a contract, none of them is asked for.
    let report = run_against(TckAgent::new(true), Contract::None).await;
    for r in outcomes(&report, "send.blocking-interrupted") {
        assert_eq!(r.outcome, Outcome::Skip, "{r:?}");
        assert!(r.detail.starts_with("needs --contract:"), "{r:?}");
    }
}
