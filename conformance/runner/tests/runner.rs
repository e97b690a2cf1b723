//! The runner against real sockets: the embedded agent tested as a live
//! agent through its URL (the `--url` path), and targets that cannot be
//! tested reported as failures rather than passed over.

use a2a_conformance::{
    loopback_listener, run, scenarios, serve_webhook, Binding, Caller, Contract, Embedded, Outcome,
    Remote, RunOptions, Timing, Webhook, TOKENS,
};

fn fast() -> Embedded {
    let mut e = Embedded::default();
    e.timing = Timing::FAST;
    e
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_agent_through_its_url() {
    let (embedded, _running) = fast().on_loopback().await.unwrap();
    let mut remote = Remote::new(embedded.base_url.clone());
    remote.callers = TOKENS.iter().map(|t| Caller::bearer(t, None)).collect();
    remote.contract = Contract::Reference;
    remote.timing = Timing::FAST;
    let target = remote.connect().await;
    assert_eq!(
        target.bindings,
        [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc]
    );
    let report = run(
        target,
        &scenarios::all(),
        &RunOptions {
            jobs: 16,
            ..RunOptions::default()
        },
    )
    .await;
    let failed: Vec<String> = report
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Fail)
        .map(|r| format!("{} [{}]: {}", r.scenario, r.binding, r.detail))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
    // No webhook receiver for a live agent: delivery is skipped, saying why.
    let delivery = report
        .results
        .iter()
        .find(|r| r.scenario == "push.delivery")
        .unwrap();
    assert_eq!(delivery.outcome, Outcome::Skip);
    assert!(delivery.detail.contains("webhook"), "{}", delivery.detail);
    assert!(!report
        .results
        .iter()
        .any(|r| r.binding == Binding::InProcess));
    // The card's GRPC interface is reached over h2c for the wire scenarios.
    let grpc: Vec<_> = report
        .results
        .iter()
        .filter(|r| r.binding == Binding::Grpc)
        .collect();
    assert!(grpc.len() >= 7, "{} gRPC records", grpc.len());
    // Every gRPC wire scenario passes; the behaviour scenarios over gRPC
    // pass or skip as on the other bindings (none failed, above).
    let wire: Vec<_> = grpc
        .iter()
        .filter(|r| r.scenario.starts_with("grpc."))
        .collect();
    assert!(wire.len() >= 7, "{} gRPC wire records", wire.len());
    assert!(wire.iter().all(|r| r.outcome == Outcome::Pass));
    assert!(grpc
        .iter()
        .any(|r| !r.scenario.starts_with("grpc.") && r.outcome == Outcome::Pass));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_binding_only() {
    let (embedded, _running) = fast().on_loopback().await.unwrap();
    let mut remote = Remote::new(embedded.base_url.clone());
    remote.callers = vec![Caller::bearer(TOKENS[0], None)];
    remote.bindings = vec![Binding::HttpJson];
    remote.timing = Timing::FAST;
    let options = RunOptions {
        only: vec!["3.1.3".into(), "scope.".into()],
        ..RunOptions::default()
    };
    let report = run(remote.connect().await, &scenarios::all(), &options).await;
    assert!(
        report
            .results
            .iter()
            .all(|r| r.binding == Binding::HttpJson),
        "{:?}",
        report.results
    );
    assert!(
        report.totals.passed > 0 && report.totals.failed == 0,
        "{}",
        report.table()
    );
    // One caller: the scoping scenarios cannot run, and say so.
    let scope = report
        .results
        .iter()
        .find(|r| r.scenario == "scope.get")
        .unwrap();
    assert_eq!(scope.outcome, Outcome::Skip);
    assert!(
        scope.detail.contains("two distinct callers"),
        "{}",
        scope.detail
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_agent_is_a_failure() {
    let (listener, addr) = loopback_listener().await.unwrap();
    drop(listener);
    let report = run(
        Remote::new(format!("http://{addr}")).connect().await,
        &scenarios::all(),
        &RunOptions::default(),
    )
    .await;
    let card = report
        .results
        .iter()
        .find(|r| r.scenario == "runner.card")
        .unwrap();
    assert_eq!(card.outcome, Outcome::Fail);
    assert!(card.detail.contains("connection"), "{}", card.detail);
    assert!(report.must_failed());
    assert_eq!(report.totals.passed, 0, "{}", report.table());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_card_is_a_failure() {
    // A server that answers every request 200 with an empty body.
    let (listener, addr) = loopback_listener().await.unwrap();
    let _server = serve_webhook(listener, Webhook::new("http://unused"));
    let report = run(
        Remote::new(format!("http://{addr}")).connect().await,
        &scenarios::all(),
        &RunOptions::default(),
    )
    .await;
    let card = report
        .results
        .iter()
        .find(|r| r.scenario == "runner.card")
        .unwrap();
    assert_eq!(card.outcome, Outcome::Fail);
    assert!(card.detail.contains("agent card"), "{}", card.detail);
    assert!(report.must_failed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undeclared_binding_is_a_failure() {
    let (embedded, _running) = fast().on_loopback().await.unwrap();
    let mut remote = Remote::new(embedded.base_url.clone());
    remote.bindings = vec![Binding::JsonRpc];
    let mut target = remote.connect().await;
    target
        .card
        .supported_interfaces
        .retain(|i| i.protocol_binding != "JSONRPC");
    let options = RunOptions {
        only: vec!["get.".into()],
        ..RunOptions::default()
    };
    let report = run(target, &scenarios::all(), &options).await;
    let notice = report
        .results
        .iter()
        .find(|r| r.scenario == "runner.binding")
        .unwrap();
    assert_eq!(notice.outcome, Outcome::Fail);
    assert!(notice.detail.contains("JSONRPC"), "{}", notice.detail);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_extension_is_enforced() {
    use std::sync::Arc;

    use a2a_conformance::{ServerClient, Target};
    use a2a_reference_agent::{AgentConfig, RecordingPushSender, ReferenceAgent};
    use a2a_transport::{A2aServer, ServerConfig};
    use a2a_types::{AgentExtension, AgentInterface};

    const URI: &str = "https://example.com/extensions/required/v1";
    let base = "http://ext.a2a.test";
    let config = AgentConfig::default().with_interfaces(vec![
        AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
        AgentInterface::new(base, "HTTP+JSON", "1.0"),
    ]);
    let agent = ReferenceAgent::new(config, Arc::new(RecordingPushSender::new()));
    let mut card = agent.agent_card().clone();
    card.capabilities.extensions.push(AgentExtension {
        uri: URI.into(),
        required: true,
        ..Default::default()
    });
    let server = A2aServer::new(agent, card.clone(), ServerConfig::new()).unwrap();
    let mut target = Target::new(
        "extension agent",
        base,
        Arc::new(ServerClient::new(Arc::new(server))),
        card,
    );
    target.timing = Timing::FAST;
    let mut caller = Caller::default();
    caller
        .headers
        .insert("a2a-extensions", URI.parse().unwrap());
    target.callers = vec![caller];
    let options = RunOptions {
        only: vec!["capability.required-extension".into(), "get.".into()],
        ..RunOptions::default()
    };
    let report = run(target, &scenarios::all(), &options).await;
    assert_eq!(report.totals.failed, 0, "{}", report.table());
    assert!(report
        .results
        .iter()
        .filter(|r| r.scenario == "capability.required-extension")
        .all(|r| r.outcome == Outcome::Pass));
}
