//! The agent-kit examples under the conformance runner: each served with
//! `a2a_hyper::serve` on a loopback port, the whole suite run against its
//! URL (as `a2a-conformance --url` does). Neither fails anything: every
//! record passes or is a skip that says what would enable it.

use std::collections::BTreeSet;
use std::sync::Arc;

use a2a_conformance::{run, scenarios, Outcome, Remote, Report, RunOptions};
use a2a_hyper::{serve, ServeOptions};
use a2a_transport::{server::ConfigError, A2aServer, A2aService};
use tokio::net::TcpListener;

/// What a skip of a kit agent may say: the capability it does not
/// declare, or the cooperation the scenario needs (a behaviour contract,
/// a second caller, a webhook receiver, a signed card).
const SKIP_CAUSES: [&str; 14] = [
    "needs a terminal task",
    "the card declares capabilities.streaming",
    "the card does not declare capabilities.pushNotifications",
    "the card does not declare capabilities.extendedAgentCard",
    "needs --contract reference",
    "needs --contract",
    "needs a webhook receiver the agent can reach",
    "needs an https webhook receiver the agent trusts",
    "needs two distinct callers",
    "the card requires no authentication",
    "the card declares no required extension",
    "the card declares no extended card",
    "no signature required",
    "the card is not signed",
];

/// Serves `make(url)` on a free loopback port and runs every scenario.
async fn conformance<S: A2aService + 'static>(
    make: impl FnOnce(&str) -> Result<A2aServer<S>, ConfigError>,
) -> Report {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = Arc::new(make(&url).unwrap());
    tokio::spawn(serve(
        listener,
        server,
        ServeOptions::default(),
        std::future::pending(),
    ));
    let target = Remote::new(url).connect().await;
    run(target, &scenarios::all(), &RunOptions::default()).await
}

/// Nothing fails, every skip names one of the causes, and the scenarios
/// that need a task machinery (streams, subscriptions, cancel, listing)
/// ran and passed: the kit gives them, the author wrote none of them.
fn assert_conformant(report: &Report, also_passing: &[&str]) {
    let table = report.table();
    let failed: BTreeSet<&str> = report
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Fail)
        .map(|r| r.scenario.as_str())
        .collect();
    assert!(failed.is_empty(), "{failed:?}\n{table}");
    for (cause, _) in report.skip_causes() {
        assert!(SKIP_CAUSES.contains(&cause.as_str()), "{cause}\n{table}");
    }
    let always = [
        "send.task",
        "get.task",
        "cancel.unknown-task",
        "list.pagination",
        "list.sorted",
        "subscribe.unknown-task",
        "errors.accepted-output-modes",
        "card.interfaces",
    ];
    for passing in always.iter().chain(also_passing) {
        let records: Vec<_> = report
            .results
            .iter()
            .filter(|r| r.scenario == *passing)
            .collect();
        assert!(
            !records.is_empty() && records.iter().all(|r| r.outcome == Outcome::Pass),
            "{passing}: {records:?}\n{table}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_thirty_line_agent_fails_nothing() {
    let report = conformance(a2a_examples::hello_agent::server).await;
    println!("{}\n{:?}", report.summary_line(), report.skip_causes());
    // Its tasks end INPUT_REQUIRED, so the scenarios that need a terminal
    // task skip, saying so.
    assert_conformant(&report, &[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shout_agent_fails_nothing() {
    let report = conformance(a2a_examples::own_agent::server).await;
    println!("{}\n{:?}", report.summary_line(), report.skip_causes());
    assert_conformant(&report, &["cancel.terminal", "send.terminal-task"]);
}
