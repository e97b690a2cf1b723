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
    // On a terminal (script(1) gives it one) it prompts; off one (above) never.
    if std::path::Path::new("/usr/bin/script").exists() {
        let command = format!("{} chat -a {url}", env!("CARGO_BIN_EXE_a2a"));
        let mut child = tokio::process::Command::new("/usr/bin/script")
            .args(["-qec", &command, "/dev/null"])
            .env("HOME", temp_dir("tty-home"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        tokio::io::AsyncWriteExt::write_all(&mut input, b"echo on a tty\n/quit\n")
            .await
            .unwrap();
        drop(input);
        let o = tokio::time::timeout(std::time::Duration::from_secs(30), child.wait_with_output())
            .await
            .unwrap()
            .unwrap();
        let tty = String::from_utf8_lossy(&o.stdout).replace('\r', "");
        assert!(tty.contains("you> "), "{tty}");
        assert!(tty.contains("State: COMPLETED"), "{tty}");
    } else {
        eprintln!("note: no /usr/bin/script here; the terminal half of this test did not run");
    }
}
