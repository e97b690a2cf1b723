//! Client conformance on our own clients, in CI: `a2a-conformance
//! client` against the `conformance-client` program on `HttpTransport`
//! and on `ResilientTransport`, every scenario passing; and each
//! deliberate fault of that program failing exactly the scenarios that
//! check it, so the checks are shown to bite.

use std::collections::BTreeSet;

use a2a_conformance::client::{all, run_client, ClientRun};
use a2a_conformance::{Outcome, Report};

const CLIENT: &str = env!("CARGO_BIN_EXE_conformance-client");

async fn run(args: &[&str]) -> Report {
    let mut command = vec![CLIENT.to_owned()];
    command.extend(args.iter().map(|a| (*a).to_owned()));
    run_client(&ClientRun::new(command), &all()).await
}

fn failed(report: &Report) -> BTreeSet<String> {
    report
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Fail)
        .map(|r| r.scenario.clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_clients_pass_every_scenario_on_both_bindings() {
    for args in [&[][..], &["--resilient"]] {
        let report = run(args).await;
        let expected: usize = all().iter().map(|s| s.bindings.len()).sum();
        assert_eq!(report.results.len(), expected, "{}", report.table());
        assert_eq!(report.totals.failed, 0, "{args:?}\n{}", report.table());
        assert_eq!(report.totals.skipped, 0, "{args:?}\n{}", report.table());
        assert!(report.target.contains("conformance-client"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_fault_fails_the_scenarios_that_check_it() {
    let cases: &[(&str, &[&str])] = &[
        ("no-last-event-id", &["client.stream.last-event-id"]),
        ("snake-case-body", &["client.send.camel-case"]),
        ("no-details", &["client.error.details"]),
        (
            "no-end",
            &[
                "client.stream.order",
                "client.stream.keep-alive",
                "client.stream.final-task",
                "client.stream.message-only",
            ],
        ),
    ];
    for (fault, expected) in cases {
        let report = run(&["--fault", fault]).await;
        let expected: BTreeSet<String> = expected.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(
            failed(&report),
            expected,
            "--fault {fault}\n{}",
            report.table()
        );
    }
    // Without the version header the agent refuses every call (spec
    // 3.6.1: no header means 0.3), so everything fails, and the version
    // scenario says why.
    let report = run(&["--fault", "no-version-header"]).await;
    let version = report
        .results
        .iter()
        .find(|r| r.scenario == "client.version-header" && r.outcome == Outcome::Fail)
        .expect("client.version-header failed");
    assert!(version.detail.contains("A2A-Version"), "{}", version.detail);
    assert!(report.must_failed());
}

#[tokio::test]
async fn a_client_that_prints_nothing_fails_every_scenario() {
    let report = run_client(&ClientRun::new(vec!["true".into()]), &all()).await;
    assert_eq!(report.totals.passed, 0, "{}", report.table());
    assert!(report.must_failed());
}
