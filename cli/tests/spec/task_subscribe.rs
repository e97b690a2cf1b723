//! `TASK_SUBSCRIBE`: subscription and stream resumption (a2a-cli spec
//! §9.2, §9.4).

use crate::common::*;

/// `task subscribe` follows a running task: the terminal task as one
/// document, or each event under `--stream`, the task first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_task_subscribe_001() {
    let url = agent(&[]).await;
    let sent = cli()
        .json(&["send", "-a", &url, "slow 800", "--async"])
        .await;
    let id = task_id(&sent);
    let done = cli().json(&["task", "subscribe", &id, "-a", &url]).await;
    assert_eq!(at(&done, "/id"), id);
    assert_eq!(at(&done, "/status/state"), "TASK_STATE_COMPLETED");
    let sent = cli()
        .json(&["send", "-a", &url, "stream 3 200", "--async"])
        .await;
    let id = task_id(&sent);
    let lines = jsonl(
        &cli()
            .ok(&[
                "task",
                "subscribe",
                &id,
                "-a",
                &url,
                "--stream",
                "-o",
                "json",
            ])
            .await,
    );
    assert_eq!(at(&lines[0], "/task/id"), id, "the first event is the task");
    assert_eq!(
        at(lines.last().unwrap(), "/statusUpdate/status/state"),
        "TASK_STATE_COMPLETED"
    );
    // A finished task: the agent refuses the subscription (A2A 3.1.6); the
    // error is the agent's.
    let o = a2a(&["task", "subscribe", &id, "-a", &url, "-o", "json"]).await;
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        at(
            &serde_json::from_str(out(&o).trim()).unwrap(),
            "/error/code"
        ),
        "UnsupportedOperationError"
    );
}

/// A dropped stream is resubscribed; the new stream's first event is the
/// full task, so the output carries on without a separate get.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_task_subscribe_002() {
    let url = agent(&[]).await;
    let (proxy, cut) = cutting_proxy(&url, "SendStreamingMessage").await;
    let card = card_file(&url, |c| repoint(c, &url, &proxy)).await;
    let o = cli()
        .run(&[
            "send",
            "-a",
            card.to_str().unwrap(),
            "slow 1500",
            "--stream",
            "-o",
            "json",
            "--transport",
            "jsonrpc",
        ])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        cut.load(std::sync::atomic::Ordering::SeqCst),
        "the proxy did not cut the stream"
    );
    assert!(err(&o).contains("resubscribing"), "{}", err(&o));
    let lines = jsonl(&out(&o));
    let tasks: Vec<_> = lines.iter().filter(|l| l.get("task").is_some()).collect();
    assert!(
        tasks.len() >= 2,
        "the resubscription re-delivers the task: {lines:?}"
    );
    assert_eq!(
        at(lines.last().unwrap(), "/statusUpdate/status/state"),
        "TASK_STATE_COMPLETED"
    );
    // The same for `task subscribe` itself.
    let sent = cli()
        .json(&["send", "-a", &url, "slow 1500", "--async"])
        .await;
    let id = task_id(&sent);
    let (proxy, cut) = cutting_proxy(&url, "SubscribeToTask").await;
    let card = card_file(&url, |c| repoint(c, &url, &proxy)).await;
    let o = cli()
        .run(&[
            "task",
            "subscribe",
            &id,
            "-a",
            card.to_str().unwrap(),
            "-o",
            "json",
            "--transport",
            "jsonrpc",
        ])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(cut.load(std::sync::atomic::Ordering::SeqCst));
    assert!(err(&o).contains("resubscribing"), "{}", err(&o));
    let done: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(at(&done, "/status/state"), "TASK_STATE_COMPLETED");
}
