//! `CONFIG`: configuration (a2a-cli spec §8.3).

use crate::common::*;

fn setting<'t>(shown: &'t str, name: &str) -> &'t str {
    shown
        .lines()
        .find_map(|l| l.strip_prefix(&format!("Setting {name}: ")))
        .unwrap_or_else(|| panic!("no {name} in {shown}"))
}

/// Configuration lives in `~/.config/a2a-cli/.env` (hand-edited, never
/// written by the tool), secrets stay 0600, `config show` inspects it
/// read-only, and no session state is recorded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_config_001() {
    use std::os::unix::fs::PermissionsExt;
    let url = agent(&[]).await;
    let home = temp_dir("cfg-home");
    let dir = home.join(".config/a2a-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let global = dir.join(".env");
    std::fs::write(
        &global,
        format!("A2ACLI_AGENT_CARD={url}\nA2ACLI_OUTPUT=json\n"),
    )
    .unwrap();
    let before = std::fs::read(&global).unwrap();
    let c = cli().home(&home);
    let shown = c.ok(&["config", "show", "-o", "text"]).await;
    assert!(
        setting(&shown, "agent-card").contains(&format!("file {}", global.display())),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("Config-Dir: {}", dir.display())),
        "{shown}"
    );
    assert!(shown.contains("Session-State: none"), "{shown}");
    let sent = c.json(&["send", "echo configured"]).await;
    let id = task_id(&sent);
    assert_eq!(
        std::fs::read(&global).unwrap(),
        before,
        "config show and send never write the file"
    );
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        if entry.path().is_file() {
            assert!(!String::from_utf8_lossy(&std::fs::read(entry.path()).unwrap()).contains(&id));
        }
    }
    // The only thing the tool writes is a secret: 0600.
    let idp = oauth_provider("cfg-token").await;
    let card = card_file(&url, |c| {
        c["securitySchemes"] = serde_json::json!({"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": format!("{idp}/token"), "scopes": {}}}}}});
    })
    .await;
    c.ok(&[
        "auth",
        "login",
        "-a",
        card.to_str().unwrap(),
        "--client-id",
        "cli",
        "--client-secret",
        "s3cret",
    ])
    .await;
    for entry in std::fs::read_dir(dir.join("credentials"))
        .unwrap()
        .flatten()
    {
        assert_eq!(
            entry.metadata().unwrap().permissions().mode() & 0o077,
            0,
            "{}",
            entry.path().display()
        );
    }
    // Removing the file removes the configuration.
    std::fs::remove_file(&global).unwrap();
    let o = c.run(&["send", "echo x"]).await;
    assert_eq!(o.status.code(), Some(2), "no agent any more: {}", err(&o));
}

/// Precedence flag > environment > local `.env` (or `--config`) > global
/// `.env` > default, shown by `config show` with each source; a file per
/// agent scopes settings by `--config`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_config_002() {
    let home = temp_dir("prec-home");
    let dir = home.join(".config/a2a-cli");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(".env"), "A2ACLI_POLL_INTERVAL=9s\n").unwrap();
    let project = temp_dir("prec-project");
    let nested = project.join("sub/deeper");
    std::fs::create_dir_all(&nested).unwrap();
    let c = cli().home(&home).cwd(&nested);
    let poll = |shown: &str| setting(shown, "poll-interval").to_owned();
    let none = cli().home(&temp_dir("empty-home")).cwd(&nested);
    assert!(poll(&none.ok(&["config", "show"]).await).contains("2s [built-in default]"));
    assert!(poll(&c.ok(&["config", "show"]).await).contains("9s [file "));
    std::fs::write(project.join(".env"), "A2ACLI_POLL_INTERVAL=7s\n").unwrap();
    let shown = poll(&c.ok(&["config", "show"]).await);
    assert!(
        shown.contains("7s") && shown.contains(&project.join(".env").display().to_string()),
        "the local .env, found walking up: {shown}"
    );
    let c = c.env("A2ACLI_POLL_INTERVAL", "5s");
    assert!(
        poll(&c.ok(&["config", "show"]).await).contains("5s [environment A2ACLI_POLL_INTERVAL]")
    );
    assert!(
        poll(&c.ok(&["config", "show", "--poll-interval", "3s"]).await)
            .contains("3s [flag --poll-interval]")
    );
    let json = c.json(&["config", "show"]).await;
    let row = json["settings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "poll-interval")
        .unwrap()
        .clone();
    assert_eq!(row["source"], "environment A2ACLI_POLL_INTERVAL");
    // --stream is never read from configuration.
    std::fs::write(project.join(".env"), "A2ACLI_STREAM=true\n").unwrap();
    // Scoped by agent: one file per agent, picked with --config.
    let a = agent(&[]).await;
    let b = agent(&["--bearer", "b-token"]).await;
    let files = temp_dir("agents");
    std::fs::write(files.join("a.env"), format!("A2ACLI_AGENT_CARD={a}\n")).unwrap();
    std::fs::write(
        files.join("b.env"),
        format!("A2ACLI_AGENT_CARD={b}\nA2ACLI_BEARER=b-token\n"),
    )
    .unwrap();
    let fresh = cli().home(&temp_dir("scoped-home"));
    for f in ["a.env", "b.env"] {
        let path = files.join(f);
        let sent = fresh
            .json(&["send", "echo scoped", "--config", path.to_str().unwrap()])
            .await;
        assert_eq!(
            at(&sent, "/task/status/state"),
            "TASK_STATE_COMPLETED",
            "{f}"
        );
    }
    let shown = fresh
        .ok(&[
            "config",
            "show",
            "--config",
            files.join("b.env").to_str().unwrap(),
        ])
        .await;
    assert!(
        setting(&shown, "bearer").starts_with("[REDACTED] [file "),
        "{shown}"
    );
    let text = c.ok(&["send", "-a", &a, "stream 2"]).await;
    assert!(
        !text.contains("Event: "),
        "A2ACLI_STREAM in a file is ignored: {text}"
    );
}
