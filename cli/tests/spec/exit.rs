//! `EXIT`: exit statuses (a2a-cli spec §11.6, Appendix D).

use crate::common::*;

/// 0, 1 and 2, and the reserved 3, 4 and 5, each agreeing with the code
/// reported.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_exit_001() {
    let url = agent(&[]).await;
    let locked = agent(&["--bearer", "right"]).await;
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["card", "get", "-a", &url], 0, ""),
        (vec!["send", "-a", &url, "--bogus"], 2, "A2ACLI_ERR_USAGE"),
        (
            vec!["task", "get", "nope", "-a", &url],
            1,
            "TaskNotFoundError",
        ),
        (
            vec!["card", "get", "-a", "http://127.0.0.1:1"],
            3,
            "A2ACLI_ERR_UNREACHABLE",
        ),
        (
            vec!["send", "-a", &locked, "echo x"],
            4,
            "A2ACLI_ERR_CREDENTIALS_MISSING",
        ),
        (
            vec!["send", "-a", &locked, "echo x", "--bearer", "wrong"],
            4,
            "A2ACLI_ERR_AUTH_FAILED",
        ),
        (
            vec!["send", "-a", &url, "slow 60000", "--timeout", "300ms"],
            5,
            "A2ACLI_ERR_TIMEOUT",
        ),
    ];
    for (args, exit, code) in cases {
        let mut with = args.clone();
        with.extend(["-o", "json"]);
        let o = a2a(&with).await;
        assert_eq!(o.status.code(), Some(exit), "{args:?}: {}", err(&o));
        if !code.is_empty() {
            let e: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
            assert_eq!(at(&e, "/error/code"), code, "{args:?}");
        }
    }
}

/// A conducted turn exits 0 whatever the task's outcome; the outcome is
/// in the state, and a non-success one is named on stderr.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_exit_002() {
    let url = agent(&[]).await;
    for (text, state, says) in [
        ("fail", "TASK_STATE_FAILED", "ended FAILED"),
        ("reject", "TASK_STATE_REJECTED", "ended REJECTED"),
        (
            "input",
            "TASK_STATE_INPUT_REQUIRED",
            "is waiting: INPUT_REQUIRED",
        ),
        (
            "auth",
            "TASK_STATE_AUTH_REQUIRED",
            "is waiting: AUTH_REQUIRED",
        ),
    ] {
        let o = a2a(&["send", "-a", &url, text, "-o", "json"]).await;
        assert_eq!(o.status.code(), Some(0), "{text}: {}", err(&o));
        let doc: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
        assert_eq!(at(&doc, "/task/status/state"), state);
        assert!(
            err(&o).contains("warning") && err(&o).contains(says),
            "{text}: {}",
            err(&o)
        );
    }
    let o = a2a(&["send", "-a", &url, "echo fine"]).await;
    assert!(!err(&o).contains("warning"), "{}", err(&o));
}
