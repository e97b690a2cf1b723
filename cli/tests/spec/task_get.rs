//! `TASK_GET`: retrieving a task (a2a-cli spec §10.3).

use crate::common::*;

/// `task get` reports id, context, state and artifacts (never stripped),
/// and the history with `--history`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_task_get_001() {
    let url = agent(&[]).await;
    for transport in ["jsonrpc", "http+json", "grpc"] {
        let sent = cli()
            .json(&["send", "-a", &url, "echo kept", "--transport", transport])
            .await;
        let id = task_id(&sent);
        let text = cli()
            .ok(&["task", "get", &id, "-a", &url, "--transport", transport])
            .await;
        assert_eq!(field(&text, "Task-ID"), Some(id.as_str()));
        assert_eq!(
            field(&text, "Context-ID"),
            Some(at(&sent, "/task/contextId"))
        );
        assert_eq!(field(&text, "State"), Some("COMPLETED"));
        assert_eq!(field(&text, "Artifacts"), Some("1"), "{text}");
        assert!(text.contains("[text]:\nkept\n"), "{text}");
        let got = cli()
            .json(&[
                "task",
                "get",
                &id,
                "-a",
                &url,
                "--history",
                "1",
                "--transport",
                transport,
            ])
            .await;
        assert_eq!(at(&got, "/id"), id);
        assert_eq!(at(&got, "/artifacts/0/parts/0/text"), "kept");
        assert!(got["history"].as_array().map_or(0, Vec::len) <= 1, "{got}");
        let text = cli()
            .ok(&[
                "task",
                "get",
                &id,
                "-a",
                &url,
                "--history",
                "5",
                "--transport",
                transport,
            ])
            .await;
        assert!(field(&text, "History").is_some_and(|n| n != "0"), "{text}");
        assert!(text.contains("user [text]:\necho kept\n"), "{text}");
    }
}
