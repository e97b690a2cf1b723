//! `TASK_LIST`: listing tasks (a2a-cli spec §7.1, Appendix A).

use crate::common::*;

/// `task list` pages with a cursor and filters by context and status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_task_list_001() {
    let url = agent(&[]).await;
    let first = cli().json(&["send", "-a", &url, "echo one"]).await;
    let context = at(&first, "/task/contextId").to_owned();
    cli()
        .json(&["send", "-a", &url, "echo two", "--context-id", &context])
        .await;
    let waiting = cli()
        .json(&["send", "-a", &url, "input", "--context-id", &context])
        .await;
    cli().json(&["send", "-a", &url, "echo elsewhere"]).await;
    let all = cli()
        .json(&["task", "list", "-a", &url, "--context-id", &context])
        .await;
    assert_eq!(all["tasks"].as_array().unwrap().len(), 3, "{all}");
    let page = cli()
        .json(&[
            "task",
            "list",
            "-a",
            &url,
            "--context-id",
            &context,
            "--page-size",
            "2",
        ])
        .await;
    assert_eq!(page["tasks"].as_array().unwrap().len(), 2);
    let token = at(&page, "/nextPageToken").to_owned();
    let rest = cli()
        .json(&[
            "task",
            "list",
            "-a",
            &url,
            "--context-id",
            &context,
            "--page-size",
            "2",
            "--page-token",
            &token,
        ])
        .await;
    assert_eq!(rest["tasks"].as_array().unwrap().len(), 1, "{rest}");
    let text = cli()
        .ok(&[
            "task",
            "list",
            "-a",
            &url,
            "--context-id",
            &context,
            "--page-size",
            "2",
        ])
        .await;
    assert_eq!(
        field(&text, "Next-Page-Token"),
        Some(token.as_str()),
        "{text}"
    );
    assert_eq!(fields(&text, "Task-ID").len(), 2);
    let filtered = cli()
        .json(&[
            "task",
            "list",
            "-a",
            &url,
            "--context-id",
            &context,
            "--status",
            "input-required",
        ])
        .await;
    let tasks = filtered["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 1, "{filtered}");
    assert_eq!(tasks[0]["id"], waiting["task"]["id"]);
    // -o json --stream: one Task per line.
    let lines = jsonl(
        &cli()
            .ok(&[
                "task",
                "list",
                "-a",
                &url,
                "--context-id",
                &context,
                "-o",
                "json",
                "--stream",
            ])
            .await,
    );
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|t| t["contextId"] == context.as_str()));
}
