//! `CHAT`: the interactive session (a2a-cli spec §8.1, §7.1).

use crate::common::*;

/// `chat` carries the context from turn to turn, and the task while it
/// waits for input, so that a reply continues it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_chat_001() {
    let url = agent(&[]).await;
    let text = cli()
        .stdin(b"echo hello\ninput\nmy reply\necho after\n/quit\necho never\n")
        .ok(&["chat", "-a", &url])
        .await;
    let tasks = fields(&text, "Task-ID");
    let contexts = fields(&text, "Context-ID");
    let states = fields(&text, "State");
    assert_eq!(
        states,
        ["COMPLETED", "INPUT_REQUIRED", "COMPLETED", "COMPLETED"],
        "{text}"
    );
    assert!(
        contexts.iter().all(|c| *c == contexts[0]),
        "one context: {text}"
    );
    assert_eq!(
        tasks[1], tasks[2],
        "the reply continues the waiting task: {text}"
    );
    assert_ne!(tasks[2], tasks[3], "after it finished, a new task: {text}");
    assert!(text.contains("got: my reply"), "{text}");
    assert!(!text.contains("never"), "/quit ends the session");
    let listed = cli()
        .json(&["task", "list", "-a", &url, "--context-id", contexts[0]])
        .await;
    assert_eq!(listed["tasks"].as_array().unwrap().len(), 3);
}
