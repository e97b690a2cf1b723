//! `--fire-and-forget`: the contract of the official TCK's 0.3.x branch
//! (the a2a-java TCK agent's). Every message leaves its task WORKING with
//! the message in its history, a blocking send answers that task at once,
//! a follow-up joins the history, and a cancel ends it.

mod support;

use std::time::{Duration, Instant};

use a2a_hyper::HyperClient;
use a2a_transport::client::Preferences;
use a2a_transport::{discover, A2aService, Binding, ProtocolVersion};
use a2a_types::{CancelTaskRequest, ErrorKind, Message, SendMessageRequest, TaskState};
use support::wire::Server;
use support::*;

#[tokio::test]
async fn every_task_stays_working_until_it_is_canceled() {
    let (agent, _) = agent_with(|c| c.fire_and_forget = true);
    let started = Instant::now();
    // Blocking (no returnImmediately), and a text the other contract
    // would complete at once.
    let task = send_task(&agent, &cx(), request(msg("m-1", "echo hi"))).await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "a blocking send answers the WORKING task without waiting"
    );
    assert_eq!(task.status.state, TaskState::Working);
    assert_eq!(
        task.history[0].message_id, "m-1",
        "the message is in its history"
    );
    assert!(task.artifacts.is_empty());

    // The task is still working later, and a follow-up joins it.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let got = get(&agent, &cx(), &task.id).await.unwrap();
    assert_eq!(got.status.state, TaskState::Working);
    let mut more = msg("m-2", "more");
    more.task_id = task.id.clone();
    let after = send_task(&agent, &cx(), request(more)).await;
    assert_eq!(after.status.state, TaskState::Working);
    let ids: Vec<&str> = after
        .history
        .iter()
        .map(|m| m.message_id.as_str())
        .collect();
    assert_eq!(ids, ["m-1", "m-2"]);

    let canceled = agent
        .cancel_task(&cx(), CancelTaskRequest::new(task.id.clone()))
        .await
        .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);
    // Cancel is idempotent (spec 3.3.1).
    let again = agent
        .cancel_task(&cx(), CancelTaskRequest::new(task.id.clone()))
        .await
        .unwrap();
    assert_eq!(again.status.state, TaskState::Canceled);
    let mut late = msg("m-3", "too late");
    late.task_id = task.id.clone();
    let refused = agent.send_message(&cx(), request(late)).await;
    assert_eq!(kind(refused), ErrorKind::UnsupportedOperation);
    let got = get(&agent, &cx(), &task.id).await.unwrap();
    assert_eq!(got.status.state, TaskState::Canceled);
}

#[tokio::test]
async fn the_default_contract_still_completes() {
    let task = run(&agent(), "echo hi").await;
    assert_eq!(task.status.state, TaskState::Completed);
}

/// As the TCK meets it: 0.3 over both bindings of the binary.
#[tokio::test]
async fn over_0_3_on_both_bindings() {
    let server = Server::start(&["--v0-3", "--fire-and-forget"]).await;
    let base = format!("http://{}", server.addr);
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let prefs = Preferences::new()
            .with_versions([ProtocolVersion::V0_3])
            .with_bindings([binding]);
        let t = discover(HyperClient::new(), &base, &prefs)
            .await
            .unwrap()
            .transport;
        let request = SendMessageRequest::new(Message::user_text("tck-complete-task-1", "hi"));
        let a2a_types::SendMessageResponse::Task(task) =
            t.send_message(&cx(), request).await.unwrap()
        else {
            panic!("{binding}: a task")
        };
        assert_eq!(
            task.status.state,
            TaskState::Working,
            "{binding}: the 1.0 TCK's prefixes are not read in this contract"
        );
        let canceled = t
            .cancel_task(&cx(), CancelTaskRequest::new(task.id.clone()))
            .await
            .unwrap();
        assert_eq!(canceled.status.state, TaskState::Canceled, "{binding}");
    }
    server.shutdown().await;
}
