//! `DEFAULT`: the baseline defaults (a2a-cli spec §6.5).

use crate::common::*;

/// The six defaults ship and each yields to a flag; `--help` shows the
/// effective ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_default_001() {
    let url = agent(&[]).await;
    // Transport: the card's first (JSON-RPC); --transport overrides.
    let o = a2a(&["send", "-a", &url, "echo d", "--debug"]).await;
    assert!(err(&o).contains("interface JSONRPC 1.0"), "{}", err(&o));
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "echo d",
        "--debug",
        "--transport",
        "http+json",
    ])
    .await;
    assert!(err(&o).contains("interface HTTP+JSON 1.0"), "{}", err(&o));
    // Completion: wait; --async overrides.
    let text = cli().ok(&["send", "-a", &url, "slow 300"]).await;
    assert_eq!(field(&text, "State"), Some("COMPLETED"));
    let text = cli()
        .ok(&["send", "-a", &url, "slow 3000", "--async"])
        .await;
    assert_ne!(field(&text, "State"), Some("COMPLETED"));
    // Output: text; -o json overrides.
    assert!(field(&text, "Task-ID").is_some());
    assert!(serde_json::from_str::<serde_json::Value>(
        cli()
            .ok(&["card", "get", "-a", &url, "-o", "json"])
            .await
            .trim()
    )
    .is_ok());
    // Detail: concise; --verbose adds the history and the skill descriptions.
    let concise = cli().ok(&["card", "get", "-a", &url]).await;
    let verbose = cli().ok(&["card", "get", "-a", &url, "--verbose"]).await;
    assert!(
        !concise.contains("Skill behaviour:\n") && verbose.contains("Skill behaviour:\n"),
        "{verbose}"
    );
    let sent = cli().json(&["send", "-a", &url, "echo h"]).await;
    let plain = cli()
        .ok(&["task", "get", &task_id(&sent), "-a", &url])
        .await;
    let full = cli()
        .ok(&["task", "get", &task_id(&sent), "-a", &url, "--verbose"])
        .await;
    assert!(
        field(&plain, "History").is_none() && field(&full, "History").is_some(),
        "{full}"
    );
    // Version: 1.0 signalled; --a2a-version overrides.
    let o = a2a(&["send", "-a", &url, "echo v", "--debug"]).await;
    assert!(err(&o).contains("> a2a-version: 1.0"));
    let both = agent(&["--v0-3"]).await;
    let o = a2a(&[
        "send",
        "-a",
        &both,
        "echo v",
        "--a2a-version",
        "0.3",
        "--debug",
        "-o",
        "json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("interface JSONRPC 0.3"), "{}", err(&o));
    // TLS verification: on, no warning; --insecure turns it off, warning.
    assert!(!err(&a2a(&["card", "get", "-a", &url]).await).contains("WARNING"));
    assert!(err(&a2a(&["card", "get", "-a", &url, "--insecure"]).await).contains("WARNING"));
    // --help shows the effective defaults, and where a changed one came from.
    let help = cli().ok(&["--help"]).await;
    assert!(help.contains("EFFECTIVE DEFAULTS"), "{help}");
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("--poll-interval ") && l.contains("[built-in default"))
        .unwrap_or_else(|| panic!("{help}"));
    assert!(line.contains("2s"), "{line}");
    let help = cli()
        .env("A2ACLI_POLL_INTERVAL", "5s")
        .ok(&["--help"])
        .await;
    assert!(
        help.lines().any(|l| l.contains("--poll-interval")
            && l.contains("5s")
            && l.contains("environment A2ACLI_POLL_INTERVAL")),
        "{help}"
    );
}
