//! `TASK_POLL`: task status polling (a2a-cli spec §9.1, §9.3).

use std::sync::Arc;
use std::time::{Duration, Instant};

use a2a_types::{A2aRequest, Reply, Task, TaskState};

use crate::common::*;

/// One-shot `task get`, and `task get --wait` (and `--watch`) polling to a
/// terminal state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_task_poll_001() {
    let url = agent(&[]).await;
    for flag in ["--wait", "--watch"] {
        let sent = cli()
            .json(&["send", "-a", &url, "slow 1200", "--async"])
            .await;
        let id = task_id(&sent);
        let now = cli().json(&["task", "get", &id, "-a", &url]).await;
        assert_ne!(
            at(&now, "/status/state"),
            "TASK_STATE_COMPLETED",
            "one-shot does not wait"
        );
        let done = cli()
            .json(&[
                "task",
                "get",
                &id,
                "-a",
                &url,
                flag,
                "--poll-interval",
                "100ms",
            ])
            .await;
        assert_eq!(at(&done, "/status/state"), "TASK_STATE_COMPLETED");
    }
}

/// `--poll-interval` and `--timeout` are honoured, with bounded backoff and
/// no busy loop; the task id is printed before waiting, so an interrupted
/// wait does not lose it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_task_poll_002() {
    let url = agent(&[]).await;
    let sent = cli()
        .json(&["send", "-a", &url, "slow 60000", "--async"])
        .await;
    let id = task_id(&sent);
    let started = Instant::now();
    let o = a2a(&[
        "task",
        "get",
        &id,
        "-a",
        &url,
        "--wait",
        "--poll-interval",
        "100ms",
        "--timeout",
        "1500ms",
        "--debug",
    ])
    .await;
    let took = started.elapsed();
    assert_eq!(o.status.code(), Some(5), "{}", err(&o));
    assert!(err(&o).contains("A2ACLI_ERR_TIMEOUT"), "{}", err(&o));
    assert!(
        took >= Duration::from_millis(1400) && took < Duration::from_secs(15),
        "{took:?}"
    );
    let polls = err(&o).matches("poll after").count();
    // 100 ms growing by half to 400 ms: about 6 polls in 1.5 s, never hundreds.
    assert!((3..=15).contains(&polls), "{polls} polls:\n{}", err(&o));
    // A blocking send names its task on stderr before it waits.
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "slow 60000",
        "--timeout",
        "800ms",
        "--transport",
        "http+json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(5), "{}", err(&o));
    let note = err(&o)
        .lines()
        .find(|l| l.contains("waiting for task"))
        .map(str::to_owned)
        .expect("a waiting note");
    let waited = note.split_whitespace().nth(5).unwrap().to_owned();
    let still = cli().json(&["task", "get", &waited, "-a", &url]).await;
    assert_eq!(at(&still, "/status/state"), "TASK_STATE_WORKING", "{note}");
    cli().ok(&["task", "cancel", &id, "-a", &url]).await;
    cli().ok(&["task", "cancel", &waited, "-a", &url]).await;
    // Interrupted (SIGINT) while waiting: the id is already on stderr.
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args(["send", "-a", &url, "slow 60000"])
        .env_clear()
        .env("HOME", temp_dir("sigint-home"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines =
        tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(child.stderr.take().unwrap()));
    let note = loop {
        let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        if line.contains("waiting for task") {
            break line;
        }
    };
    let pid = child.id().unwrap().to_string();
    // The shell's own `kill`: there on every system with a shell.
    assert!(std::process::Command::new("sh")
        .args(["-c", &format!("kill -INT {pid}")])
        .status()
        .unwrap()
        .success());
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(!status.success(), "interrupted");
    let printed = note.split_whitespace().nth(5).unwrap().to_owned();
    let still = cli().json(&["task", "get", &printed, "-a", &url]).await;
    assert_eq!(at(&still, "/status/state"), "TASK_STATE_WORKING");
    cli().ok(&["task", "cancel", &printed, "-a", &url]).await;
}

/// Waiting stops at once on INPUT_REQUIRED and AUTH_REQUIRED; an
/// UNSPECIFIED state is reported as received and keeps the poll going
/// until `--timeout`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_task_poll_003() {
    let url = agent(&[]).await;
    for (text, state) in [
        ("input", "TASK_STATE_INPUT_REQUIRED"),
        ("auth", "TASK_STATE_AUTH_REQUIRED"),
    ] {
        let started = Instant::now();
        let sent = cli().json(&["send", "-a", &url, text]).await;
        assert_eq!(at(&sent, "/task/status/state"), state);
        let id = task_id(&sent);
        let got = cli()
            .json(&["task", "get", &id, "-a", &url, "--wait"])
            .await;
        assert_eq!(at(&got, "/status/state"), state);
        assert!(started.elapsed() < Duration::from_secs(10));
    }
    let unspecified: Arc<FaultFn> = Arc::new(|r, _| match r {
        A2aRequest::GetTask(g) => Some(Ok(Reply::GetTask(Task::new(
            g.id.clone(),
            "ctx-u",
            TaskState::Unspecified,
        )))),
        _ => None,
    });
    let odd = faulty_agent(true, unspecified).await;
    let text = cli().ok(&["task", "get", "t-1", "-a", &odd]).await;
    assert_eq!(field(&text, "State"), Some("UNSPECIFIED"), "{text}");
    let o = a2a(&[
        "task",
        "get",
        "t-1",
        "-a",
        &odd,
        "--wait",
        "--poll-interval",
        "100ms",
        "--timeout",
        "700ms",
    ])
    .await;
    assert_eq!(
        o.status.code(),
        Some(5),
        "UNSPECIFIED is neither terminal nor interrupted: {}",
        err(&o)
    );
}

/// A blocking send that prefers the stream falls back to polling when the
/// stream fails, and still ends at the terminal state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_task_poll_004() {
    let url = agent(&[]).await;
    let (proxy, cut) = cutting_proxy(&url, "SendStreamingMessage").await;
    let card = card_file(&url, |c| repoint(c, &url, &proxy)).await;
    let o = cli()
        .run(&[
            "send",
            "-a",
            card.to_str().unwrap(),
            "slow 1200",
            "-o",
            "json",
            "--transport",
            "jsonrpc",
            "--poll-interval",
            "100ms",
        ])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(cut.load(std::sync::atomic::Ordering::SeqCst));
    assert!(err(&o).contains("polling the task instead"), "{}", err(&o));
    let done: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(at(&done, "/task/status/state"), "TASK_STATE_COMPLETED");
    // An agent whose stream errors after its first event: the same.
    let broken = breaking_stream_agent().await;
    let o = cli()
        .run(&[
            "send",
            "-a",
            &broken,
            "slow 500",
            "-o",
            "json",
            "--poll-interval",
            "100ms",
        ])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("polling the task instead"), "{}", err(&o));
    let done: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(at(&done, "/task/status/state"), "TASK_STATE_COMPLETED");
}
