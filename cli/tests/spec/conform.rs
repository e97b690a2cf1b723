//! `CONFORM`: the `conformance` command (a2a-cli spec §7.1).

use std::sync::Arc;

use a2a_types::{A2aError, A2aRequest, FieldViolation};

use crate::common::*;

/// `conformance` runs the workspace's suite in process: against the
/// reference agent it prints the summary and exits 0; against an agent
/// with a fault, the failed check exits 1; an unreachable agent exits 3.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_conform_001() {
    let url = agent(&[]).await;
    let dir = temp_dir("conformance");
    let report = dir.join("report.json");
    let o = a2a(&[
        "conformance",
        &url,
        "--contract",
        "reference",
        "--report-json",
        report.to_str().unwrap(),
    ])
    .await;
    let text = out(&o);
    assert_eq!(o.status.code(), Some(0), "{text}\n{}", err(&o));
    let summary = text.lines().last().unwrap();
    assert!(summary.contains(" passed, 0 failed, "), "{summary}");
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert!(saved.is_object());
    let wrong_error: Arc<FaultFn> = Arc::new(|r, _| match r {
        A2aRequest::GetTask(g) if !g.id.starts_with("task-") => {
            Some(Err(A2aError::invalid_params(vec![FieldViolation {
                field: "id".to_owned(),
                description: "a deliberately wrong error".to_owned(),
            }])))
        }
        _ => None,
    });
    let faulty = faulty_agent(true, wrong_error).await;
    let o = a2a(&[
        "conformance",
        &faulty,
        "--only",
        "errors.task-not-found",
        "--binding",
        "jsonrpc",
    ])
    .await;
    assert_eq!(o.status.code(), Some(1), "{}\n{}", out(&o), err(&o));
    assert!(
        !out(&o).lines().last().unwrap().contains(" 0 failed"),
        "{}",
        out(&o)
    );
    assert!(
        err(&o).contains("A2ACORE_CONFORMANCE_FAILED"),
        "{}",
        err(&o)
    );
    let o = a2a(&[
        "conformance",
        &faulty,
        "--only",
        "errors.task-not-found",
        "-o",
        "json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        out(&o).trim().lines().count(),
        1,
        "one document: the report"
    );
    let doc: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert!(doc.is_object(), "{doc}");
    assert!(
        err(&o).contains("A2ACORE_CONFORMANCE_FAILED"),
        "{}",
        err(&o)
    );
    let o = a2a(&["conformance", "http://127.0.0.1:1"]).await;
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
}
