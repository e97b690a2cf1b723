//! `a2a-conformance client` as a user runs it: the listing, a usage
//! error, and a run whose client sends nothing (every record fails, the
//! MUST failures set the exit status, the JSON report is written).

use std::process::Command;

const RUNNER: &str = env!("CARGO_BIN_EXE_a2a-conformance");

#[test]
fn list_usage_and_a_failing_client() {
    let list = Command::new(RUNNER)
        .args(["client", "--list"])
        .output()
        .unwrap();
    assert!(list.status.success());
    let table = String::from_utf8(list.stdout).unwrap();
    for s in a2a_conformance::client::all() {
        assert!(
            table.contains(&format!("`{}`", s.id)),
            "{} missing from --list",
            s.id
        );
    }

    let usage = Command::new(RUNNER)
        .args(["client", "--only", "x"])
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&usage.stderr).contains("no client command"));

    let dir = std::env::temp_dir().join(format!("a2a-client-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("report.json");
    // A client that only prints a reply it never asked for.
    let run = Command::new(RUNNER)
        .args(["client", "--only", "client.version-header", "--json"])
        .arg(&json)
        .args(["--", "sh", "-c", r#"echo 'starting'; echo '{"call":0,"reply":{"task":{"id":"t-v","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"}}}}'"#])
        .output()
        .unwrap();
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.trim_end().ends_with("0 passed, 2 failed, 0 skipped"),
        "{stdout}"
    );
    assert!(
        stdout.contains("expected: a SendMessage request"),
        "{stdout}"
    );
    let report: a2a_conformance::Report =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(report.format, a2a_conformance::Report::FORMAT);
    assert_eq!(report.results.len(), 2);
    assert!(report.results.iter().all(|r| r.section == "3.6.1"));
    let _ = std::fs::remove_dir_all(&dir);
}
