//! The `a2a` binary against the reference agent, started in process on a
//! loopback port: every subcommand, `--json` output, and the exit status
//! of an A2A error and of a usage error; `--tenant`, `--bearer`, `--header`.

use std::process::Output;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, BufReader};

use a2a_reference_agent::cli::{Options, Parsed};
use serde_json::Value;

/// The reference agent on a free loopback port, with these options; its
/// base URL. It serves until the test's runtime ends.
async fn agent(flags: &[&str]) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let bound = listener.local_addr().unwrap();
    let mut args = vec!["--quiet".to_owned()];
    args.extend(flags.iter().map(|f| (*f).to_owned()));
    let Ok(Parsed::Run(options)) = Options::parse(args) else {
        panic!("agent options")
    };
    let server = options.server(bound).unwrap();
    let serve = options.serve_options().unwrap();
    tokio::spawn(a2a_hyper::serve(
        listener,
        server,
        serve,
        std::future::pending(),
    ));
    options.base_url(bound)
}

async fn a2a(args: &[&str]) -> Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args(args)
        .output()
        .await
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `a2a`, asserting it succeeded; its standard output.
async fn ok(args: &[&str]) -> String {
    let o = a2a(args).await;
    assert!(
        o.status.success(),
        "a2a {args:?}: {:?}\n{}\n{}",
        o.status,
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

/// Runs `a2a --json`, asserting success; each line of output as JSON.
async fn json(args: &[&str]) -> Vec<Value> {
    let mut with = args.to_vec();
    with.push("--json");
    ok(&with)
        .await
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn str_at<'v>(v: &'v Value, pointer: &str) -> &'v str {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no {pointer} in {v}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_and_usage_errors() {
    let help = ok(&["--help"]).await;
    for word in ["USAGE", "card URL", "push set", "--binding", "--json"] {
        assert!(help.contains(word), "{word}");
    }
    let o = a2a(&["send", "http://127.0.0.1:1"]).await;
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("TEXT"), "{}", stderr(&o));
    let o = a2a(&["fly"]).await;
    assert_eq!(o.status.code(), Some(2));
}

/// On a terminal (`script` gives the command one), a blocking send shows
/// a progress line on standard error while the agent works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_line_on_a_terminal() {
    if !std::path::Path::new("/usr/bin/script").exists() {
        eprintln!("SKIPPED: no /usr/bin/script (util-linux) to give a2a a terminal");
        return;
    }
    let url = agent(&[]).await;
    let command = format!("{} send {url} 'slow 500'", env!("CARGO_BIN_EXE_a2a"));
    let o = tokio::process::Command::new("/usr/bin/script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .await
        .unwrap();
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("waiting for the agent"), "{out:?}");
    // The line is cleared before the answer is printed.
    let answer = out.find("task ").unwrap();
    assert!(out[..answer].ends_with("\r\x1b[2K"), "{out:?}");
    assert!(out.contains("completed"), "{out:?}");
    // Without a terminal there is no progress line.
    let plain = ok(&["send", &url, "slow 300"]).await;
    assert!(
        plain.starts_with("task ") && !plain.contains('\x1b'),
        "{plain:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn card_send_get_on_every_binding() {
    let url = agent(&[]).await;
    let card = ok(&["card", &url]).await;
    assert!(card.contains("interface JSONRPC 1.0"), "{card}");
    assert!(card.contains("interface HTTP+JSON 1.0"), "{card}");
    assert!(card.contains("interface GRPC 1.0"), "{card}");
    assert!(card.contains("streaming yes"), "{card}");
    let raw = json(&["card", &url]).await;
    assert_eq!(raw.len(), 1);
    assert!(raw[0]["supportedInterfaces"].is_array(), "{}", raw[0]);

    for binding in ["jsonrpc", "rest", "grpc"] {
        let out = ok(&["send", &url, "echo hi there", "--binding", binding]).await;
        assert!(out.starts_with("task "), "{out}");
        assert!(out.contains("completed"), "{out}");
        assert!(out.contains("hi there"), "{out}");

        let sent = json(&["send", &url, "echo json", "--binding", binding]).await;
        assert_eq!(
            str_at(&sent[0], "/task/status/state"),
            "TASK_STATE_COMPLETED"
        );
        let id = str_at(&sent[0], "/task/id").to_owned();
        let got = ok(&["get", &url, &id, "--binding", binding]).await;
        assert!(got.contains(&id) && got.contains("completed"), "{got}");
        assert!(got.contains("user: echo json"), "{got}");
        let got = json(&["get", &url, &id, "--history", "1", "--binding", binding]).await;
        assert_eq!(str_at(&got[0], "/id"), id);
        assert!(got[0]["history"].as_array().map_or(0, Vec::len) <= 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_subscribe_cancel_and_list() {
    let url = agent(&[]).await;
    // A stream prints each event on its own line, the task first.
    let out = ok(&["stream", &url, "stream 3"]).await;
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("task "), "{out}");
    assert!(lines.len() >= 4, "{out}");
    assert!(out.contains("artifact"), "{out}");
    assert!(lines.last().unwrap().contains("completed"), "{out}");
    let events = json(&["stream", &url, "stream 3", "--binding", "rest"]).await;
    assert!(events[0].get("task").is_some(), "{}", events[0]);
    assert!(events.iter().any(|e| e.get("artifactUpdate").is_some()));
    let last = events.last().unwrap();
    assert_eq!(
        str_at(last, "/statusUpdate/status/state"),
        "TASK_STATE_COMPLETED"
    );

    // Events print as they arrive: the task line comes well before the
    // last chunk (three chunks 400 ms apart).
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args(["stream", &url, "stream 3 400"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let started = Instant::now();
    let first = lines.next_line().await.unwrap().unwrap();
    let first_at = started.elapsed();
    assert!(first.starts_with("task "), "{first}");
    while lines.next_line().await.unwrap().is_some() {}
    assert!(child.wait().await.unwrap().success());
    let done_at = started.elapsed();
    assert!(
        done_at - first_at >= Duration::from_millis(600),
        "first line at {first_at:?}, done at {done_at:?}"
    );

    // A reader that stops early (`| head -1`) ends a2a quietly.
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args(["stream", &url, "stream 20 50"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(lines.next_line().await.unwrap().is_some());
    drop(lines);
    let o = child.wait_with_output().await.unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));

    // A slow task, not waited for: subscribe follows it to the end.
    let slow = json(&["send", &url, "slow 700", "--no-wait"]).await;
    let id = str_at(&slow[0], "/task/id").to_owned();
    let context = str_at(&slow[0], "/task/contextId").to_owned();
    let followed = json(&["subscribe", &url, &id]).await;
    assert_eq!(str_at(&followed[0], "/task/id"), id);
    let last = followed.last().unwrap();
    assert_eq!(
        str_at(last, "/statusUpdate/status/state"),
        "TASK_STATE_COMPLETED"
    );

    // Cancel a long one.
    let long = json(&[
        "send",
        &url,
        "slow 60000",
        "--no-wait",
        "--context",
        &context,
    ])
    .await;
    let id = str_at(&long[0], "/task/id").to_owned();
    let out = ok(&["cancel", &url, &id]).await;
    assert!(out.contains("canceled"), "{out}");

    // Both tasks are in the context, newest first.
    let listed = ok(&["list", &url, "--context", &context]).await;
    assert!(listed.contains(&id), "{listed}");
    assert!(listed.contains("2 of 2 tasks"), "{listed}");
    let page = json(&["list", &url, "--context", &context, "--page-size", "1"]).await;
    assert_eq!(page[0]["tasks"].as_array().map(Vec::len), Some(1));
    assert_eq!(str_at(&page[0], "/tasks/0/id"), id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tenant_reaches_the_agent_on_both_bindings() {
    let url = agent(&[]).await;
    let sent = json(&["send", &url, "echo t", "--tenant", "acme"]).await;
    let id = str_at(&sent[0], "/task/id").to_owned();
    // The agent keeps the tenant's tasks apart: found under it only.
    let got = json(&["get", &url, &id, "--tenant", "acme", "--binding", "rest"]).await;
    assert_eq!(str_at(&got[0], "/id"), id);
    for other in [&["--tenant", "other"][..], &[]] {
        let mut args = vec!["get", url.as_str(), id.as_str()];
        args.extend_from_slice(other);
        let o = a2a(&args).await;
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains("TaskNotFoundError"), "{}", stderr(&o));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_configs() {
    let url = agent(&["--push-allow", "127.0.0.0/8"]).await;
    let slow = json(&["send", &url, "slow 60000", "--no-wait"]).await;
    let task = str_at(&slow[0], "/task/id").to_owned();
    let hook = "http://127.0.0.1:9/hook";
    let set = ok(&[
        "push",
        "set",
        &url,
        &task,
        hook,
        "--token",
        "tok-1",
        "--config-id",
        "c1",
    ])
    .await;
    assert!(
        set.contains("push config c1") && set.contains(hook),
        "{set}"
    );
    let got = json(&["push", "get", &url, &task, "c1", "--binding", "rest"]).await;
    assert_eq!(str_at(&got[0], "/url"), hook);
    assert_eq!(str_at(&got[0], "/token"), "tok-1");
    let listed = ok(&["push", "list", &url, &task]).await;
    assert!(listed.contains("1 push config(s)"), "{listed}");
    let deleted = ok(&["push", "delete", &url, &task, "c1"]).await;
    assert!(deleted.contains("deleted push config c1"), "{deleted}");
    let listed = json(&["push", "list", &url, &task]).await;
    assert!(
        listed[0]["configs"].as_array().is_none_or(Vec::is_empty),
        "{}",
        listed[0]
    );
    ok(&["cancel", &url, &task]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_exit_non_zero_with_code_message_and_details() {
    let url = agent(&["--bearer", "secret"]).await;
    // No credentials: the agent refuses, the error is printed.
    let o = a2a(&["get", &url, "no-such-task"]).await;
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("HTTP 401"), "{}", stderr(&o));

    // With them, an unknown task is TaskNotFoundError with its ErrorInfo.
    for (auth, binding, says) in [
        (
            ["--bearer", "secret"],
            "jsonrpc",
            "TaskNotFoundError (code -32001)",
        ),
        (
            ["--header", "Authorization: Bearer secret"],
            "rest",
            "TaskNotFoundError (code -32001, HTTP 404)",
        ),
    ] {
        let mut args = vec!["get", &url, "no-such-task", "--binding", binding];
        args.extend_from_slice(&auth);
        let o = a2a(&args).await;
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        assert!(err.contains(says), "{err}");
        assert!(
            err.contains("detail:") && err.contains("TASK_NOT_FOUND"),
            "{err}"
        );
        assert!(stdout(&o).is_empty());
    }
    let o = a2a(&[
        "get",
        &url,
        "no-such-task",
        "--bearer",
        "secret",
        "--json",
        "--binding",
        "rest",
    ])
    .await;
    assert_eq!(o.status.code(), Some(1));
    let e: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(e["code"], -32001);
    assert!(e["data"].as_array().is_some_and(|d| !d.is_empty()), "{e}");

    // An agent that is not there.
    let o = a2a(&["card", "http://127.0.0.1:1"]).await;
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot read the agent card"),
        "{}",
        stderr(&o)
    );
}
