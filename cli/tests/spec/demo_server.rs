//! `DEMO_SERVER`: the local demo agent (a2a-cli spec §7.1, §3).

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};

use crate::common::*;

/// `demo-server` serves the reference agent in process; the other
/// commands work against it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_demo_server_001() {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_a2a"))
        .args(["demo-server", "--port", "0", "--token", "demo-tok"])
        .env_clear()
        .env("HOME", temp_dir("demo-home"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let url = first
        .strip_prefix("Demo-Server: ")
        .unwrap_or_else(|| panic!("{first}"))
        .to_owned();
    let text = cli().ok(&["card", "get", "-a", &url]).await;
    assert_eq!(field(&text, "Name"), Some("A2A reference agent"));
    let sent = cli()
        .json(&["send", "-a", &url, "echo demo", "--bearer", "demo-tok"])
        .await;
    assert_eq!(at(&sent, "/task/artifacts/0/parts/0/text"), "demo");
    let o = a2a(&["send", "-a", &url, "echo demo"]).await;
    assert_eq!(
        o.status.code(),
        Some(4),
        "--token made it require the bearer token"
    );
    child.kill().await.unwrap();
}
