//! `CLI`: the tool's own surface, `help`, `--version`, `completion` (a2a-cli
//! spec §7.1, §7.2).

use crate::common::*;

/// `help`, `--help` and `<command> --help` print usage and exit 0;
/// `-v`/`--version` the version; the help lists the spec's commands and
/// the effective defaults. The previous release's names still work, with
/// a note naming the spec's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_cli_001() {
    for args in [&["help"][..], &["--help"], &["-h"]] {
        let help = cli().ok(args).await;
        for name in [
            "card get",
            "send",
            "task get",
            "task cancel",
            "task list",
            "task subscribe",
            "task push-config",
            "task download",
            "config show",
            "auth login",
            "chat",
            "demo-server",
            "conformance",
            "completion",
            "EFFECTIVE DEFAULTS",
        ] {
            assert!(help.contains(name), "{args:?} lacks {name}");
        }
    }
    for args in [
        &["send", "--help"][..],
        &["help", "send"],
        &["task", "get", "--help"],
        &["help", "task", "push-config"],
        &["card", "get", "-h"],
    ] {
        let text = cli().ok(args).await;
        assert!(text.starts_with("a2a "), "{args:?}: {text}");
    }
    for flag in ["-v", "--version"] {
        let v = cli().ok(&[flag]).await;
        assert_eq!(
            v.trim(),
            format!(
                "a2a {} (a2a-cli specification 0.2; A2A protocol 1.0)",
                env!("CARGO_PKG_VERSION")
            )
        );
    }
    let url = agent(&[]).await;
    for (old, new) in [
        (vec!["card", url.as_str()], "card get"),
        (vec!["send", url.as_str(), "echo old"], "send --agent-card"),
        (vec!["stream", url.as_str(), "stream 2"], "send --stream"),
        (vec!["list", url.as_str()], "task list"),
    ] {
        let o = a2a(&old).await;
        assert_eq!(o.status.code(), Some(0), "{old:?}: {}", err(&o));
        assert!(
            err(&o).contains(&format!("the a2a-cli specification's is `{new}")),
            "{old:?}: {}",
            err(&o)
        );
    }
}

/// `completion SHELL` prints a script for bash, zsh and fish naming the
/// commands; bash accepts its syntax.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_cli_002() {
    for shell in ["bash", "zsh", "fish"] {
        let script = cli().ok(&["completion", shell]).await;
        for word in ["push-config", "subscribe", "agent-card", "transport"] {
            assert!(script.contains(word), "{shell} lacks {word}");
        }
    }
    let bash = cli().ok(&["completion", "bash"]).await;
    assert!(bash.contains("complete -F _a2a a2a"));
    if std::path::Path::new("/bin/bash").exists() {
        let file = temp_dir("completion").join("a2a.bash");
        std::fs::write(&file, &bash).unwrap();
        let checked = std::process::Command::new("/bin/bash")
            .arg("-n")
            .arg(&file)
            .status()
            .unwrap();
        assert!(checked.success(), "bash -n refused the script");
    }
    let o = a2a(&["completion", "tcsh"]).await;
    assert_eq!(o.status.code(), Some(2));
}
