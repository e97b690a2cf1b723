//! The user's own agent under the conformance runner: `ShoutAgent` served
//! with `a2a_hyper::serve` on a loopback port, the whole suite run
//! against its URL (as `a2a-conformance --url` does), and the results the
//! README documents asserted.

use std::collections::BTreeSet;
use std::sync::Arc;

use a2a_conformance::{run, scenarios, Outcome, Remote, RunOptions};
use a2a_examples::own_agent::ShoutAgent;
use a2a_hyper::{serve, ServeOptions};
use a2a_transport::A2aServer;
use tokio::net::TcpListener;

/// The scenarios that fail: real failures of the operations the agent
/// leaves to the trait's default. CancelTask's default answers
/// UnsupportedOperationError, where spec 3.1.5 names TaskNotFoundError
/// for an unknown id and TaskNotCancelableError for a completed task;
/// refusing an acceptedOutputModes list it cannot serve is a SHOULD
/// (3.3.2) that ShoutAgent does not do.
const FAILING: [&str; 3] = [
    "cancel.terminal",
    "cancel.unknown-task",
    "errors.accepted-output-modes",
];

/// What each skip may say: the cause, which says what would enable it.
const SKIP_CAUSES: [&str; 14] = [
    "the card does not declare capabilities.streaming",
    "the card does not declare capabilities.pushNotifications",
    "the card does not declare capabilities.extendedAgentCard",
    "needs --contract reference",
    "needs --contract",
    "agent declines ListTasks",
    "needs a webhook receiver the agent can reach",
    "needs an https webhook receiver the agent trusts",
    "needs two distinct callers",
    "the card requires no authentication",
    "the card declares no required extension",
    "the card declares no extended card",
    "no signature required",
    "the card is not signed",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_conformance_runner_passes_fails_or_explains_every_record() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let card = ShoutAgent::card(&url);
    let server = A2aServer::new(
        ShoutAgent::new(),
        card,
        a2a_examples::own_agent::server_config(),
    )
    .unwrap();
    let forever = std::future::pending();
    tokio::spawn(serve(
        listener,
        Arc::new(server),
        ServeOptions::default(),
        forever,
    ));

    let target = Remote::new(url).connect().await;
    let report = run(target, &scenarios::all(), &RunOptions::default()).await;
    let table = report.table();

    let failed: BTreeSet<&str> = report
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Fail)
        .map(|r| r.scenario.as_str())
        .collect();
    assert_eq!(failed, BTreeSet::from(FAILING), "{table}");
    for r in report.results.iter().filter(|r| r.outcome == Outcome::Fail) {
        if r.scenario.starts_with("cancel.") {
            assert!(r.detail.contains("CancelTask is not supported"), "{r:?}");
        }
    }
    // Every skip is explained by one of the causes, and the summary
    // groups them so.
    let causes: Vec<String> = report.skip_causes().into_iter().map(|(c, _)| c).collect();
    for cause in &causes {
        assert!(SKIP_CAUSES.contains(&cause.as_str()), "{cause}\n{table}");
    }
    // The cooperation-free checks run on it and pass: they probe through
    // SendMessage, GetTask and errors, not through ListTasks.
    for passing in [
        "send.task",
        "get.task",
        "get.unknown-task",
        "send.unknown-task",
        "version.unsupported",
        "model.objects",
        "naming.camel-case",
        "naming.enum-values",
        "timestamps.utc",
        "card.interfaces",
        "jsonrpc.envelope",
        "history.wire-omitted",
    ] {
        let records: Vec<_> = report
            .results
            .iter()
            .filter(|r| r.scenario == passing)
            .collect();
        assert!(
            !records.is_empty() && records.iter().all(|r| r.outcome == Outcome::Pass),
            "{passing}\n{table}"
        );
    }
    // ListTasks is not offered (spec 3.1.4 names no requirement to): its
    // scenarios skip, saying so, rather than fail (or, for one that needs
    // an input-required task first, say that it needs a contract).
    for r in report
        .results
        .iter()
        .filter(|r| r.scenario.starts_with("list.") && r.scenario != "list.page-size-bounds")
    {
        assert_eq!(r.outcome, Outcome::Skip, "{r:?}");
        assert!(
            r.detail.starts_with("agent declines ListTasks")
                || r.detail.starts_with("needs --contract"),
            "{r:?}"
        );
    }
    // The totals are the README's.
    let totals = (
        report.totals.passed,
        report.totals.failed,
        report.totals.skipped,
    );
    assert_eq!(totals, (87, 6, 139), "{table}");
}
