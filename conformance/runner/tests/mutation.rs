//! Keeping the suite honest: the unmodified reference agent passes every
//! scenario, and every deliberately faulty agent fails at least one.
//!
//! Everything runs in memory (the server's `handle` as the HTTP client)
//! with short timings, several agents at a time.

use std::sync::Arc;

use a2a_conformance::faults::{self, Fault};
use a2a_conformance::{run, scenarios, Embedded, Outcome, Report, RunOptions, Timing};
use a2a_transport::ProtocolVersion;
use tokio::sync::Semaphore;

fn fast(streaming: bool, push: bool, auth: bool) -> Embedded {
    let mut e = Embedded::default();
    e.streaming = streaming;
    e.push_notifications = push;
    e.auth = auth;
    e.timing = Timing::FAST;
    e
}

fn options() -> RunOptions {
    RunOptions {
        jobs: 24,
        ..RunOptions::default()
    }
}

fn failures(report: &Report) -> Vec<String> {
    report
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Fail)
        .map(|r| format!("{} [{}] {}: {}", r.scenario, r.binding, r.level, r.detail))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_agent_passes_everything() {
    for (name, config) in [
        ("full", fast(true, true, true)),
        ("minimal", fast(false, false, false)),
    ] {
        let target = config.in_memory(Default::default()).await;
        let report = run(target, &scenarios::all(), &options()).await;
        let failed = failures(&report);
        assert!(
            failed.is_empty(),
            "the {name} reference agent failed:\n{}",
            failed.join("\n")
        );
        let passed = report.totals.passed;
        assert!(
            passed > 200 || name == "minimal",
            "{name}: only {passed} passed"
        );
        println!("{name} reference agent: {}", report.summary_line());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_agent_passes_everything_at_0_3() {
    let mut agent = fast(true, true, true);
    agent.v0_3 = true;
    let target = agent
        .in_memory(Default::default())
        .await
        .at_version(ProtocolVersion::V0_3);
    let report = run(
        target,
        &scenarios::for_version(ProtocolVersion::V0_3),
        &options(),
    )
    .await;
    let failed = failures(&report);
    assert!(failed.is_empty(), "at 0.3:\n{}", failed.join("\n"));
    let v03 = report
        .results
        .iter()
        .filter(|r| r.scenario.starts_with("v0_3.") && r.outcome == Outcome::Pass)
        .count();
    assert_eq!(v03, 8, "the 0.3 wire scenarios pass");
    assert!(report.totals.passed > 40, "{}", report.summary_line());
    println!("reference agent at 0.3: {}", report.summary_line());
}

#[cfg(feature = "draft-1-1")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_agent_passes_everything_at_1_1() {
    let mut agent = fast(true, true, true);
    agent.draft_1_1 = true;
    let target = agent
        .in_memory(Default::default())
        .await
        .at_version(ProtocolVersion::V1_1);
    let report = run(
        target,
        &scenarios::for_version(ProtocolVersion::V1_1),
        &options(),
    )
    .await;
    let failed = failures(&report);
    assert!(failed.is_empty(), "at 1.1:\n{}", failed.join("\n"));
    let draft = report
        .results
        .iter()
        .filter(|r| r.scenario.starts_with("draft.") && r.outcome == Outcome::Pass)
        .count();
    // Seven behaviour scenarios on each of the three bindings, three wire
    // ones.
    assert_eq!(draft, 24, "the draft scenarios pass");
    println!("reference agent at 1.1: {}", report.summary_line());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_is_caught() {
    let all = faults::all();
    assert!(all.len() >= 25, "only {} faults", all.len());
    let limit = Arc::new(Semaphore::new(6));
    let mut handles = Vec::new();
    for fault in all.iter().copied() {
        let limit = Arc::clone(&limit);
        handles.push(tokio::spawn(async move {
            let _permit = limit.acquire_owned().await;
            // A 0.3 fault is run at 0.3, against the agent serving 0.3.
            let version = fault.version();
            let mut agent = fast(true, true, true);
            agent.v0_3 = version == ProtocolVersion::V0_3;
            // A 1.1 draft fault is run at 1.1, against the agent serving 1.1.
            #[cfg(feature = "draft-1-1")]
            {
                agent.draft_1_1 = version == ProtocolVersion::V1_1;
            }
            let target = agent.in_memory(fault.wrappers()).await.at_version(version);
            let report = run(target, &scenarios::for_version(version), &options()).await;
            (fault, report)
        }));
    }
    let mut missed: Vec<Fault> = Vec::new();
    println!("{:<30} {:>6}  first failing scenarios", "fault", "caught");
    for handle in handles {
        let (fault, report) = handle.await.expect("the run panicked");
        let mut ids: Vec<&str> = report
            .results
            .iter()
            .filter(|r| r.outcome == Outcome::Fail)
            .map(|r| r.scenario.as_str())
            .collect();
        ids.dedup();
        println!(
            "{:<30} {:>6}  {}",
            fault.name,
            ids.len(),
            ids.iter().take(4).copied().collect::<Vec<_>>().join(", ")
        );
        if ids.is_empty() {
            missed.push(fault);
        }
    }
    let caught = all.len() - missed.len();
    println!("mutation score: {caught}/{} faults caught", all.len());
    assert!(
        missed.is_empty(),
        "faults no scenario caught: {:?}",
        missed.iter().map(|f| f.name).collect::<Vec<_>>()
    );
}
