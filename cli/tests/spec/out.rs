//! `OUT`: the output and error contract (a2a-cli spec §11.1-§11.5, §7.2).

use crate::common::*;

/// Every task answer names its context, task and state in each mode;
/// the payload is on stdout, diagnostics on stderr.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_out_001() {
    let url = agent(&[]).await;
    let sent = cli().json(&["send", "-a", &url, "input"]).await;
    let id = task_id(&sent);
    assert!(sent["task"]["contextId"].is_string() && sent["task"]["status"]["state"].is_string());
    for args in [
        vec!["task", "get", id.as_str()],
        vec!["task", "cancel", id.as_str()],
        vec!["send", "echo x"],
        vec!["send", "echo x", "--async"],
    ] {
        let mut with = args.clone();
        with.extend(["-a", url.as_str()]);
        let text = cli().ok(&with).await;
        for label in ["Task-ID", "Context-ID", "State"] {
            assert!(
                field(&text, label).is_some(),
                "{args:?} lacks {label}: {text}"
            );
        }
    }
    let lines = jsonl(
        &cli()
            .ok(&["send", "-a", &url, "stream 2", "--stream", "-o", "json"])
            .await,
    );
    for l in &lines[1..] {
        let e = l
            .get("statusUpdate")
            .or_else(|| l.get("artifactUpdate"))
            .unwrap();
        assert!(e["taskId"].is_string() && e["contextId"].is_string(), "{l}");
    }
    // Notes go to stderr, never into the JSON on stdout.
    let o = a2a(&["get", &url, &id, "--json"]).await;
    assert_eq!(o.status.code(), Some(0));
    assert!(err(&o).contains("note"), "{}", err(&o));
    let doc: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(at(&doc, "/id"), id);
}

/// `-o json` without `--stream` is one document, the terminal object, not
/// the event log, and never becomes JSONL on its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_out_002() {
    let url = agent(&[]).await;
    for c in [cli(), cli().env("A2ACLI_STREAM", "true")] {
        let text = c.ok(&["send", "-a", &url, "stream 3", "-o", "json"]).await;
        assert_eq!(text.trim().lines().count(), 1, "{text}");
        let doc: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(at(&doc, "/task/status/state"), "TASK_STATE_COMPLETED");
        let parts = doc["task"]["artifacts"][0]["parts"].as_array().unwrap();
        let text: String = parts.iter().filter_map(|p| p["text"].as_str()).collect();
        assert_eq!(
            text, "chunk 1 chunk 2 chunk 3 ",
            "the appended chunks, whole: {doc}"
        );
    }
    let doc = cli()
        .env("A2ACLI_OUTPUT", "json")
        .ok(&["card", "get", "-a", &url])
        .await;
    assert!(
        serde_json::from_str::<serde_json::Value>(doc.trim()).is_ok(),
        "{doc}"
    );
}

/// `-o json --stream`: one complete object per line, the terminal one
/// last; an error ending the stream is the last line, as an error object.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_out_003() {
    let url = agent(&[]).await;
    let text = cli()
        .ok(&["send", "-a", &url, "stream 4", "--stream", "-o", "json"])
        .await;
    assert!(text.ends_with('\n'));
    let lines = jsonl(&text);
    assert_eq!(lines.len(), 7, "{text}");
    assert_eq!(
        at(lines.last().unwrap(), "/statusUpdate/status/state"),
        "TASK_STATE_COMPLETED"
    );
    // Flushed as produced: the first line arrives well before the last
    // (three chunks 400 ms apart).
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args(["send", "-a", &url, "stream 3 400", "--stream", "-o", "json"])
        .env_clear()
        .env("HOME", temp_dir("flush-home"))
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines =
        tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(child.stdout.take().unwrap()));
    let started = std::time::Instant::now();
    let first = lines.next_line().await.unwrap().unwrap();
    let first_at = started.elapsed();
    assert!(first.starts_with("{\"task\":"), "{first}");
    while lines.next_line().await.unwrap().is_some() {}
    assert!(child.wait().await.unwrap().success());
    assert!(
        started.elapsed() - first_at >= std::time::Duration::from_millis(600),
        "first line at {first_at:?}"
    );
    let broken = breaking_stream_agent().await;
    let o = a2a(&[
        "send",
        "-a",
        &broken,
        "stream 3 100",
        "--stream",
        "-o",
        "json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let lines = jsonl(&out(&o));
    assert!(lines[0].get("task").is_some(), "{lines:?}");
    let last = lines.last().unwrap();
    assert_eq!(at(last, "/error/code"), "InternalError", "{last}");
    assert!(last["error"]["message"]
        .as_str()
        .unwrap()
        .contains("middle of the stream"));
}

/// Errors are machine-readable and the same on every transport: the A2A
/// error's name for protocol failures, an `A2ACLI_ERR_*` code for local
/// ones, with a hint.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_out_004() {
    let url = agent(&[]).await;
    let mut seen = Vec::new();
    for transport in ["jsonrpc", "http+json", "grpc"] {
        let o = a2a(&[
            "task",
            "get",
            "nope",
            "-a",
            &url,
            "--transport",
            transport,
            "-o",
            "json",
        ])
        .await;
        assert_eq!(o.status.code(), Some(1), "{transport}");
        let e: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
        let keys: Vec<&String> = e["error"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["a2aCode", "code", "hint", "message"]);
        assert!(e["error"]["hint"].is_string());
        seen.push((e["error"]["code"].clone(), e["error"]["a2aCode"].clone()));
    }
    assert!(seen.iter().all(|s| *s == seen[0]), "{seen:?}");
    assert_eq!(seen[0].0, "TaskNotFoundError");
    assert_eq!(seen[0].1, -32001);
    for (args, code) in [
        (
            vec!["card", "get", "-a", "http://127.0.0.1:1"],
            "A2ACLI_ERR_UNREACHABLE",
        ),
        (vec!["task", "get"], "A2ACLI_ERR_USAGE"),
        (vec!["send", "x"], "A2ACLI_ERR_USAGE"),
    ] {
        let mut with = args.clone();
        with.extend(["-o", "json"]);
        let o = a2a(&with).await;
        let e: serde_json::Value = serde_json::from_str(out(&o).trim())
            .unwrap_or_else(|_| panic!("{args:?}: {}", out(&o)));
        assert_eq!(at(&e, "/error/code"), code, "{args:?}");
        assert!(e["error"]["hint"].is_string(), "{e}");
    }
    let text = err(&a2a(&["task", "get", "nope", "-a", &url]).await);
    assert!(
        text.contains("Error: TaskNotFoundError") && text.contains("Hint: "),
        "{text}"
    );
}

/// The text floor: `Label: value` fields, stable labels, no control
/// sequences, blocks under their own label closed by a blank line; chat
/// off a terminal prints the same records and never prompts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_out_005() {
    let url = agent(&[]).await;
    let a = cli().ok(&["send", "-a", &url, "echo first"]).await;
    let b = cli().ok(&["send", "-a", &url, "echo second"]).await;
    let labels = |t: &str| -> Vec<String> {
        t.lines()
            .filter_map(|l| l.split_once(": ").map(|(k, _)| k.to_owned()))
            .collect()
    };
    assert_eq!(labels(&a), labels(&b));
    for text in [
        &a,
        &b,
        &cli().ok(&["card", "get", "-a", &url]).await,
        &cli()
            .ok(&["send", "-a", &url, "stream 2", "--stream"])
            .await,
    ] {
        assert!(!text.contains('\x1b'), "{text:?}");
        let mut in_block = false;
        for line in text.lines() {
            if in_block {
                if line.is_empty() {
                    in_block = false;
                }
                continue;
            }
            if line.is_empty() {
                continue;
            }
            if line.ends_with(':') && !line.contains(": ") {
                in_block = true;
                continue;
            }
            let (label, _) = line
                .split_once(": ")
                .unwrap_or_else(|| panic!("not a field: {line:?} in\n{text}"));
            assert!(
                label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
                "label {label:?}"
            );
        }
        assert!(!in_block, "a block left open:\n{text}");
    }
    let chat = cli().stdin(b"echo hi\n").ok(&["chat", "-a", &url]).await;
    assert!(!chat.contains("you>"), "{chat}");
    assert_eq!(field(&chat, "State"), Some("COMPLETED"), "{chat}");
}

/// `--async` still prints a result with the task and context ids.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_out_006() {
    let url = agent(&[]).await;
    let sent = cli()
        .json(&["send", "-a", &url, "slow 5000", "--async"])
        .await;
    assert!(
        sent["task"]["id"].is_string() && sent["task"]["contextId"].is_string(),
        "{sent}"
    );
    let text = cli()
        .ok(&["send", "-a", &url, "slow 5000", "--async"])
        .await;
    let id = field(&text, "Task-ID").unwrap();
    assert!(field(&text, "Context-ID").is_some());
    assert_eq!(
        field(&text, "Follow"),
        Some(format!("a2a task get --wait {id}").as_str())
    );
    cli().ok(&["task", "cancel", id, "-a", &url]).await;
    cli()
        .ok(&["task", "cancel", &task_id(&sent), "-a", &url])
        .await;
}

/// `--debug` logs on stderr the exchange itself: requests, statuses,
/// timing and the raw protocol messages; stdout stays the payload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_out_007() {
    let url = agent(&[]).await;
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "echo wire",
        "--debug",
        "-o",
        "json",
        "--transport",
        "http+json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0));
    let log = err(&o);
    assert!(
        log.contains("a2a: debug: > GET ") && log.contains("agent-card.json"),
        "{log}"
    );
    assert!(
        log.contains("a2a: debug: > POST ") && log.contains("/message:stream"),
        "{log}"
    );
    assert!(
        log.contains("\"text\":\"echo wire\""),
        "the raw request: {log}"
    );
    assert!(log.contains("a2a: debug: < 200 OK ("), "{log}");
    assert!(
        log.contains("TASK_STATE_COMPLETED"),
        "the raw answer: {log}"
    );
    assert!(log.contains("interface HTTP+JSON 1.0"), "{log}");
    let doc: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(at(&doc, "/task/status/state"), "TASK_STATE_COMPLETED");
}
