//! `SEND`: sending messages (a2a-cli spec §10.2).

use std::time::{Duration, Instant};

use crate::common::*;

/// A message starts an interaction: a task (its ids and state), or a
/// direct reply message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_send_001() {
    let url = agent(&[]).await;
    let text = cli().ok(&["send", "-a", &url, "echo hello there"]).await;
    assert!(
        field(&text, "Task-ID").is_some_and(|t| t.starts_with("task-")),
        "{text}"
    );
    assert!(field(&text, "Context-ID").is_some(), "{text}");
    assert_eq!(field(&text, "State"), Some("COMPLETED"), "{text}");
    let sent = cli().json(&["send", "-a", &url, "echo json"]).await;
    assert_eq!(at(&sent, "/task/status/state"), "TASK_STATE_COMPLETED");
    assert_eq!(at(&sent, "/task/history/0/parts/0/text"), "echo json");
    let reply = cli().json(&["send", "-a", &url, "message hi you"]).await;
    assert!(reply.get("task").is_none(), "{reply}");
    assert_eq!(at(&reply, "/message/parts/0/text"), "hi you");
    let text = cli().ok(&["send", "-a", &url, "message hi you"]).await;
    assert_eq!(field(&text, "Role"), Some("agent"), "{text}");
    // --metadata travels in the message (the payload), as a JSON object.
    let tagged = cli()
        .json(&[
            "send",
            "-a",
            &url,
            "echo tagged",
            "--metadata",
            r#"{"tenant":"acme","n":1}"#,
        ])
        .await;
    assert_eq!(
        tagged["task"]["history"][0]["metadata"],
        serde_json::json!({"tenant": "acme", "n": 1})
    );
    let o = a2a(&["send", "-a", &url, "echo x", "--metadata", "[1]"]).await;
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

/// Blocking by default (the answer is the finished task); `--async` and
/// its aliases return the identifiers at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_send_002() {
    let url = agent(&[]).await;
    let done = cli().json(&["send", "-a", &url, "slow 400"]).await;
    assert_eq!(at(&done, "/task/status/state"), "TASK_STATE_COMPLETED");
    for flag in ["--async", "--no-wait", "--return-immediately"] {
        let started = Instant::now();
        let early = cli().json(&["send", "-a", &url, "slow 20000", flag]).await;
        assert!(started.elapsed() < Duration::from_secs(10), "{flag} waited");
        let state = at(&early, "/task/status/state");
        assert!(
            state == "TASK_STATE_SUBMITTED" || state == "TASK_STATE_WORKING",
            "{flag}: {state}"
        );
        let id = task_id(&early);
        cli().ok(&["task", "cancel", &id, "-a", &url]).await;
    }
    // A configured --async is overridden by an explicit --wait.
    let waited = cli()
        .env("A2ACLI_ASYNC", "true")
        .json(&["send", "-a", &url, "slow 300", "--wait"])
        .await;
    assert_eq!(at(&waited, "/task/status/state"), "TASK_STATE_COMPLETED");
}

/// `--stream` reads the live events; an agent without streaming gets one
/// line and no hang; a direct `Message` exits cleanly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_send_003() {
    let url = agent(&[]).await;
    let lines = jsonl(
        &cli()
            .ok(&["send", "-a", &url, "stream 3", "--stream", "-o", "json"])
            .await,
    );
    assert!(lines[0].get("task").is_some(), "{:?}", lines[0]);
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.get("artifactUpdate").is_some())
            .count(),
        3
    );
    assert_eq!(
        at(lines.last().unwrap(), "/statusUpdate/status/state"),
        "TASK_STATE_COMPLETED"
    );
    let lines = jsonl(
        &cli()
            .ok(&[
                "send",
                "-a",
                &url,
                "message only this",
                "--stream",
                "-o",
                "json",
            ])
            .await,
    );
    assert_eq!(lines.len(), 1);
    assert_eq!(at(&lines[0], "/message/parts/0/text"), "only this");
    let plain = faulty_agent(false, std::sync::Arc::new(|_, _| None)).await;
    let o = cli()
        .run(&[
            "send",
            "-a",
            &plain,
            "echo no stream",
            "--stream",
            "-o",
            "json",
        ])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let lines = jsonl(&out(&o));
    assert_eq!(lines.len(), 1, "{}", out(&o));
    assert_eq!(at(&lines[0], "/task/status/state"), "TASK_STATE_COMPLETED");
    assert!(
        err(&o).contains("does not declare streaming"),
        "{}",
        err(&o)
    );
}

/// Artifacts are rendered: text as text, data as formatted JSON, a file
/// by name, media type and size; none is dropped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_send_004() {
    let url = agent(&[]).await;
    let text = cli().ok(&["send", "-a", &url, "echo rendered words"]).await;
    let lines: Vec<&str> = text.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.starts_with("Artifact ") && l.ends_with("[text]:"))
        .expect(&text);
    assert_eq!(lines[i + 1], "rendered words");
    let text = cli()
        .ok(&[
            "send",
            "-a",
            &url,
            "x",
            "--message-id",
            "tck-artifact-data-1",
        ])
        .await;
    assert!(
        text.contains("[data]:\n{\n  \"count\": 42,\n  \"key\": \"value\"\n}\n"),
        "{text}"
    );
    let text = cli()
        .ok(&[
            "send",
            "-a",
            &url,
            "x",
            "--message-id",
            "tck-artifact-file-1",
        ])
        .await;
    assert!(
        text.contains("[file]:\nname: output.txt\nmedia-type: text/plain\nsize: 3 bytes"),
        "{text}"
    );
    let text = cli()
        .ok(&[
            "send",
            "-a",
            &url,
            "x",
            "--message-id",
            "tck-artifact-file-url-1",
        ])
        .await;
    assert!(
        text.contains("url: https://example.com/output.txt"),
        "{text}"
    );
    assert_eq!(field(&text, "Artifacts"), Some("1"));
}

/// `--media-type` sets the type of the part flag before it; otherwise a
/// file's type is inferred; `--media-type` with no part before it is a
/// usage error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_send_005() {
    let url = agent(&[]).await;
    let dir = temp_dir("parts");
    let bin = dir.join("report.bin");
    std::fs::write(&bin, [1u8, 2, 3]).unwrap();
    let txt = dir.join("notes.txt");
    std::fs::write(&txt, b"notes").unwrap();
    let pdf = dir.join("paper.pdf");
    std::fs::write(&pdf, b"%PDF").unwrap();
    // The agent accepts text/plain only: a .bin file passes when the
    // caller says text/plain; a .txt file passes on its inferred type.
    let sent = cli()
        .json(&[
            "send",
            "-a",
            &url,
            "echo typed",
            "--file",
            bin.to_str().unwrap(),
            "--media-type",
            "text/plain",
            "--file",
            txt.to_str().unwrap(),
        ])
        .await;
    let parts = &sent["task"]["history"][0]["parts"];
    assert_eq!(at(parts, "/1/mediaType"), "text/plain", "{parts}");
    assert_eq!(at(parts, "/1/filename"), "report.bin");
    assert_eq!(at(parts, "/1/raw"), "AQID");
    assert_eq!(
        at(parts, "/2/mediaType"),
        "text/plain",
        "inferred from .txt: {parts}"
    );
    // Inferred only when none is given: a .pdf is sent as application/pdf
    // (which this agent refuses, naming it), unless --media-type says otherwise.
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "--text",
        "echo p",
        "--file",
        pdf.to_str().unwrap(),
        "-o",
        "json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(1));
    let e: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(at(&e, "/error/code"), "ContentTypeNotSupportedError");
    assert!(at(&e, "/error/message").contains("application/pdf"), "{e}");
    let ok = cli()
        .json(&[
            "send",
            "-a",
            &url,
            "--text",
            "echo p",
            "--file",
            pdf.to_str().unwrap(),
            "--media-type",
            "text/plain",
        ])
        .await;
    assert_eq!(at(&ok, "/task/history/0/parts/1/mediaType"), "text/plain");
    // On a text part too.
    let typed = cli()
        .json(&[
            "send",
            "-a",
            &url,
            "--text",
            "echo t",
            "--media-type",
            "text/plain",
        ])
        .await;
    assert_eq!(
        at(&typed, "/task/history/0/parts/0/mediaType"),
        "text/plain"
    );
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "--media-type",
        "text/plain",
        "--text",
        "x",
    ])
    .await;
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("A2ACLI_ERR_USAGE"), "{}", err(&o));
}

/// `--text`, `--file` and `--data` repeat and keep their order in one
/// message; `--data -` reads standard input.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_send_006() {
    let url = agent(&[]).await;
    let dir = temp_dir("ordered");
    let data = dir.join("d.json");
    std::fs::write(&data, br#"{"n": 1}"#).unwrap();
    let file = dir.join("f.txt");
    std::fs::write(&file, b"file body").unwrap();
    let sent = cli()
        .stdin(br#"{"from": "stdin"}"#)
        .json(&[
            // (This agent accepts text/plain only, so the data parts say so.)
            "send",
            "-a",
            &url,
            "--text",
            "echo first",
            "--data",
            data.to_str().unwrap(),
            "--media-type",
            "text/plain",
            "--text",
            "second",
            "--file",
            file.to_str().unwrap(),
            "--data",
            "-",
            "--media-type",
            "text/plain",
        ])
        .await;
    let parts = sent["task"]["history"][0]["parts"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(parts.len(), 5, "{parts:?}");
    assert_eq!(parts[0]["text"], "echo first");
    assert_eq!(parts[1]["data"]["n"], 1);
    assert_eq!(parts[2]["text"], "second");
    assert_eq!(parts[3]["filename"], "f.txt");
    assert_eq!(parts[3]["mediaType"], "text/plain");
    assert_eq!(parts[4]["data"]["from"], "stdin");
}
