//! `TASK_CANCEL`: canceling a task (a2a-cli spec §10.4).

use crate::common::*;

/// `task cancel` reports the resulting state; canceling again is
/// answered either way without the task changing (idempotent).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_task_cancel_001() {
    let url = agent(&[]).await;
    let sent = cli()
        .json(&["send", "-a", &url, "slow 60000", "--async"])
        .await;
    let id = task_id(&sent);
    let text = cli().ok(&["task", "cancel", &id, "-a", &url]).await;
    assert_eq!(field(&text, "State"), Some("CANCELED"), "{text}");
    assert_eq!(field(&text, "Task-ID"), Some(id.as_str()));
    let again = a2a(&["task", "cancel", &id, "-a", &url, "-o", "json"]).await;
    let doc: serde_json::Value = serde_json::from_str(out(&again).trim()).unwrap();
    match again.status.code() {
        Some(0) => assert_eq!(at(&doc, "/status/state"), "TASK_STATE_CANCELED"),
        Some(1) => assert_eq!(at(&doc, "/error/code"), "TaskNotCancelableError"),
        other => panic!("second cancel exited {other:?}: {doc}"),
    }
    let got = cli().json(&["task", "get", &id, "-a", &url]).await;
    assert_eq!(at(&got, "/status/state"), "TASK_STATE_CANCELED");
}
