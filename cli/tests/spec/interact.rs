//! `INTERACT`: interaction state (a2a-cli spec §8, §4.1).

use crate::common::*;

/// `--context-id` starts a new task in an existing context.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_interact_001() {
    let url = agent(&[]).await;
    let first = cli().json(&["send", "-a", &url, "echo one"]).await;
    let context = at(&first, "/task/contextId").to_owned();
    let second = cli()
        .json(&["send", "-a", &url, "echo two", "--context-id", &context])
        .await;
    assert_eq!(at(&second, "/task/contextId"), context);
    assert_ne!(at(&second, "/task/id"), at(&first, "/task/id"));
    let env = cli()
        .env("A2ACLI_CONTEXT_ID", &context)
        .json(&["send", "-a", &url, "echo three"])
        .await;
    assert_eq!(at(&env, "/task/contextId"), context);
}

/// `--task-id` continues a task with or without `--context-id`; a
/// mismatched or unknown id fails non-zero with the protocol error and
/// creates no task.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_interact_002() {
    let url = agent(&[]).await;
    for with_context in [false, true] {
        let waiting = cli().json(&["send", "-a", &url, "input"]).await;
        let id = task_id(&waiting);
        let context = at(&waiting, "/task/contextId").to_owned();
        let mut args = vec![
            "send",
            "-a",
            url.as_str(),
            "my answer",
            "--task-id",
            id.as_str(),
        ];
        if with_context {
            args.extend(["--context-id", context.as_str()]);
        }
        let done = cli().json(&args).await;
        assert_eq!(at(&done, "/task/id"), id);
        assert_eq!(at(&done, "/task/status/state"), "TASK_STATE_COMPLETED");
        assert_eq!(
            at(&done, "/task/artifacts/0/parts/0/text"),
            "got: my answer"
        );
    }
    let before = cli().json(&["task", "list", "-a", &url]).await["tasks"]
        .as_array()
        .unwrap()
        .len();
    let waiting = cli().json(&["send", "-a", &url, "input"]).await;
    let id = task_id(&waiting);
    let other = cli().json(&["send", "-a", &url, "echo elsewhere"]).await;
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "x",
        "--task-id",
        &id,
        "--context-id",
        at(&other, "/task/contextId"),
    ])
    .await;
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "x",
        "--task-id",
        "no-such-task",
        "-o",
        "json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(1));
    let e: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(at(&e, "/error/code"), "TaskNotFoundError");
    assert!(at(&e, "/error/hint").contains("--debug"), "{e}");
    let after = cli().json(&["task", "list", "-a", &url]).await["tasks"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(
        after,
        before + 2,
        "only the two sends that succeeded made tasks"
    );
}

/// The tool never invents server identifiers: a new message carries no
/// task or context id, and a context id starts a new task rather than
/// being taken for a session with a current task.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_interact_003() {
    let url = agent(&[]).await;
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "echo fresh",
        "--debug",
        "--transport",
        "jsonrpc",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0));
    let request = err(&o)
        .lines()
        .find(|l| {
            l.contains("\"method\":\"SendStreamingMessage\"")
                || l.contains("\"method\":\"SendMessage\"")
        })
        .expect("the request in --debug")
        .to_owned();
    assert!(request.contains("\"messageId\""), "{request}");
    assert!(
        !request.contains("\"taskId\"") && !request.contains("\"contextId\""),
        "{request}"
    );
    let waiting = cli().json(&["send", "-a", &url, "input"]).await;
    let context = at(&waiting, "/task/contextId").to_owned();
    let next = cli()
        .json(&[
            "send",
            "-a",
            &url,
            "echo new work",
            "--context-id",
            &context,
        ])
        .await;
    assert_ne!(
        at(&next, "/task/id"),
        at(&waiting, "/task/id"),
        "a context is not a session with a current task"
    );
    let still = cli()
        .json(&["task", "get", at(&waiting, "/task/id"), "-a", &url])
        .await;
    assert_eq!(at(&still, "/status/state"), "TASK_STATE_INPUT_REQUIRED");
}

/// The ids and state are reported on completion and interruption, and the
/// printed resume command works as printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_interact_004() {
    let url = agent(&[]).await;
    let text = cli().ok(&["send", "-a", &url, "input"]).await;
    let id = field(&text, "Task-ID").unwrap().to_owned();
    assert!(field(&text, "Context-ID").is_some());
    assert_eq!(field(&text, "State"), Some("INPUT_REQUIRED"));
    let resume = field(&text, "Resume").unwrap().to_owned();
    assert_eq!(resume, format!("a2a send --task-id {id} \"<reply>\""));
    let mut words: Vec<String> = resume
        .split_whitespace()
        .skip(1)
        .map(|w| w.replace("\"<reply>\"", "resumed"))
        .collect();
    words.extend(["-a".to_owned(), url.clone()]);
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let done = cli().ok(&args).await;
    assert_eq!(field(&done, "Task-ID"), Some(id.as_str()));
    assert_eq!(field(&done, "State"), Some("COMPLETED"));
    assert!(done.contains("got: resumed"), "{done}");
}

/// Stateless: nothing about a task is written anywhere, there is no
/// `--continue` and no implicit "last task".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_interact_005() {
    let url = agent(&[]).await;
    let home = temp_dir("stateless-home");
    let cwd = temp_dir("stateless-cwd");
    let c = cli().home(&home).cwd(&cwd);
    let sent = c.json(&["send", "-a", &url, "input"]).await;
    let id = task_id(&sent);
    for dir in [&home, &cwd] {
        for entry in walk(dir) {
            let content = std::fs::read(&entry).unwrap_or_default();
            assert!(
                !String::from_utf8_lossy(&content).contains(&id),
                "{} holds the task id",
                entry.display()
            );
        }
    }
    let o = c.run(&["send", "-a", &url, "answer", "--continue"]).await;
    assert_eq!(o.status.code(), Some(2));
    let o = c.run(&["task", "get", "-a", &url]).await;
    assert_eq!(
        o.status.code(),
        Some(2),
        "no implicit last task: {}",
        err(&o)
    );
    // A second send is a new task, not a continuation of the first.
    let again = c.json(&["send", "-a", &url, "input"]).await;
    assert_ne!(task_id(&again), id);
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}
