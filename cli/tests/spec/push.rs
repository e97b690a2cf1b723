//! `PUSH`: push notifications (a2a-cli spec §9.2, §7.1, Appendix A).

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};

use crate::common::*;

/// `task push-config create | get | list | delete`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_push_001() {
    let url = agent(&["--push-allow", "127.0.0.0/8"]).await;
    let slow = cli()
        .json(&["send", "-a", &url, "slow 60000", "--async"])
        .await;
    let task = task_id(&slow);
    let hook = "http://127.0.0.1:9/hook";
    let made = cli()
        .json(&[
            "task",
            "push-config",
            "create",
            &task,
            "--url",
            hook,
            "--token",
            "tok-1",
            "--config-id",
            "c1",
            "-a",
            &url,
        ])
        .await;
    assert_eq!((at(&made, "/id"), at(&made, "/url")), ("c1", hook));
    let text = cli()
        .ok(&[
            "task",
            "push-config",
            "get",
            &task,
            "c1",
            "-a",
            &url,
            "--transport",
            "http+json",
        ])
        .await;
    assert_eq!(field(&text, "URL"), Some(hook));
    assert_eq!(
        field(&text, "Token"),
        Some("[REDACTED]"),
        "the token is a secret in text"
    );
    let got = cli()
        .json(&["task", "push-config", "get", &task, "c1", "-a", &url])
        .await;
    assert_eq!(at(&got, "/token"), "tok-1");
    let listed = cli()
        .ok(&["task", "push-config", "list", &task, "-a", &url])
        .await;
    assert_eq!(field(&listed, "Configs"), Some("1"), "{listed}");
    let gone = cli()
        .ok(&["task", "push-config", "delete", &task, "c1", "-a", &url])
        .await;
    assert_eq!(field(&gone, "Deleted"), Some("c1"));
    let listed = cli()
        .json(&["task", "push-config", "list", &task, "-a", &url])
        .await;
    assert!(
        listed["configs"].as_array().is_none_or(Vec::is_empty),
        "{listed}"
    );
    // The previous release's `push set` still works.
    let o = a2a(&["push", "set", &url, &task, hook]).await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    cli().ok(&["task", "cancel", &task, "-a", &url]).await;
}

/// `webhook serve` receives the agent's notifications, checks their
/// token, and prints each StreamResponse.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_push_002() {
    let url = agent(&["--push-allow", "127.0.0.0/8"]).await;
    let home = temp_dir("hook-home");
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args([
            "webhook", "serve", "--count", "2", "--token", "hook-tok", "-o", "json",
        ])
        .env_clear()
        .env("HOME", &home)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let hook = loop {
        let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        if let Some(u) = line.strip_prefix("Webhook-URL: ") {
            break u.to_owned();
        }
    };
    let slow = cli()
        .json(&["send", "-a", &url, "slow 1500", "--async"])
        .await;
    let task = task_id(&slow);
    cli()
        .ok(&[
            "task",
            "push-config",
            "create",
            &task,
            "--url",
            &hook,
            "--token",
            "hook-tok",
            "-a",
            &url,
        ])
        .await;
    let o = tokio::time::timeout(Duration::from_secs(30), child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let events = jsonl(&out(&o));
    assert_eq!(events.len(), 2, "{}", out(&o));
    for e in &events {
        let id = e
            .pointer("/statusUpdate/taskId")
            .or_else(|| e.pointer("/task/id"))
            .or_else(|| e.pointer("/artifactUpdate/taskId"))
            .and_then(|v| v.as_str());
        assert_eq!(id, Some(task.as_str()), "{e}");
    }
}
