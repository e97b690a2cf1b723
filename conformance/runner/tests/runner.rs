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
    assert!(card.detail.contains("cannot be reached"), "{}", card.detail);
    assert!(report.must_failed());
    assert_eq!(report.totals.passed, 0, "{}", report.table());
    // One record says why; the card scenarios do not each fail after it.
    assert_eq!(report.results.len(), 1, "{}", report.table());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_url_is_taken_as_its_base_url() {
    let (embedded, _running) = fast().on_loopback().await.unwrap();
    let card_url = format!("{}/.well-known/agent-card.json", embedded.base_url);
    let target = Remote::new(card_url).connect().await;
    assert!(target.notices.is_empty(), "{:?}", target.notices);
    assert_eq!(target.base_url, embedded.base_url);
    assert_eq!(
        target.bindings,
        [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_agent_binary_passes_through_its_url() {
    // The server `a2a-reference-agent` runs (its own option parsing and
    // card: a bare `host:port` gRPC interface), on a real socket.
    use a2a_reference_agent::cli::{Options, Parsed};
    let Ok(Parsed::Run(options)) = Options::parse(Vec::<String>::new()) else {
        panic!("default options")
    };
    let (listener, addr) = loopback_listener().await.unwrap();
    let server = options.server(addr).unwrap();
    let grpc = server
        .card()
        .supported_interfaces
        .iter()
        .find(|i| i.protocol_binding == "GRPC")
        .map(|i| i.url.clone())
        .unwrap();
    assert!(!grpc.contains("://"), "a bare host:port: {grpc}");
    tokio::spawn(a2a_hyper::serve(
        listener,
        server,
        options.serve_options().unwrap(),
        std::future::pending(),
    ));
    let mut remote = Remote::new(format!("http://{addr}"));
    remote.timing = Timing::FAST;
    let options = RunOptions {
        only: vec!["card.".into(), "get.".into()],
        ..RunOptions::default()
    };
    let report = run(remote.connect().await, &scenarios::all(), &options).await;
    assert_eq!(report.totals.failed, 0, "{}", report.table());
    let interfaces = report
        .results
        .iter()
        .find(|r| r.scenario == "card.interfaces")
        .unwrap();
    assert_eq!(interfaces.outcome, Outcome::Pass, "{interfaces:?}");
    assert!(report
        .results
        .iter()
        .any(|r| r.binding == Binding::Grpc && r.outcome == Outcome::Pass));
}

/// An agent that answers every message with a direct Message echoing its
/// text (in a context of its own unless the message names one), accepts
/// parts of any media type, and knows no task: it implements none of the
/// reference contract's behaviours, no push notifications, no streaming,
/// and no `Last-Modified` on its card (the server's default).
struct EchoAgent;

impl a2a_transport::A2aService for EchoAgent {
    fn send_message<'a>(
        &'a self,
        _: &'a a2a_transport::CallContext,
        request: a2a_types::SendMessageRequest,
    ) -> a2a_transport::BoxFuture<'a, Result<a2a_types::SendMessageResponse, a2a_types::A2aError>>
    {
        Box::pin(async move {
            let message = request.message;
            if !message.task_id.is_empty() {
                return Err(a2a_types::A2aError::task_not_found(&message.task_id));
            }
            let text = message.text_content().unwrap_or_default();
            let mut reply =
                a2a_types::Message::agent_text(format!("echo-{}", message.message_id), text);
            reply.context_id = match message.context_id.is_empty() {
                true => format!("context-{}", message.message_id),
                false => message.context_id,
            };
            Ok(a2a_types::SendMessageResponse::Message(reply))
        })
    }

    fn get_task<'a>(
        &'a self,
        _: &'a a2a_transport::CallContext,
        request: a2a_types::GetTaskRequest,
    ) -> a2a_transport::BoxFuture<'a, Result<a2a_types::Task, a2a_types::A2aError>> {
        Box::pin(async move { Err(a2a_types::A2aError::task_not_found(&request.id)) })
    }

    fn cancel_task<'a>(
        &'a self,
        _: &'a a2a_transport::CallContext,
        request: a2a_types::CancelTaskRequest,
    ) -> a2a_transport::BoxFuture<'a, Result<a2a_types::Task, a2a_types::A2aError>> {
        Box::pin(async move { Err(a2a_types::A2aError::task_not_found(&request.id)) })
    }
}

fn echo_card(base: &str) -> a2a_types::AgentCard {
    use a2a_types::{AgentCapabilities, AgentCard, AgentInterface, AgentSkill};
    AgentCard {
        name: "echo agent".into(),
        description: "Echoes every message".into(),
        version: "1.0.0".into(),
        supported_interfaces: vec![
            AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
            AgentInterface::new(base, "HTTP+JSON", "1.0"),
        ],
        capabilities: AgentCapabilities {
            streaming: Some(false),
            push_notifications: Some(false),
            ..Default::default()
        },
        default_input_modes: vec!["*/*".into()],
        default_output_modes: vec!["text/plain".into()],
        skills: vec![AgentSkill {
            id: "echo".into(),
            name: "echo".into(),
            description: "echoes".into(),
            tags: vec!["echo".into()],
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_echo_agent_is_judged_on_what_it_offers() {
    let (listener, addr) = loopback_listener().await.unwrap();
    let url = format!("http://{addr}");
    let server =
        a2a_transport::A2aServer::new(EchoAgent, echo_card(&url), a2a_hyper::server_config())
            .unwrap();
    tokio::spawn(a2a_hyper::serve(
        listener,
        std::sync::Arc::new(server),
        a2a_hyper::ServeOptions::default(),
        std::future::pending(),
    ));
    let mut remote = Remote::new(url);
    remote.contract = Contract::Reference;
    remote.timing = Timing::FAST;
    let report = run(
        remote.connect().await,
        &scenarios::all(),
        &RunOptions::default(),
    )
    .await;
    let table = report.table();
    let of = |id: &str| -> Vec<&a2a_conformance::Record> {
        let records: Vec<_> = report.results.iter().filter(|r| r.scenario == id).collect();
        assert!(!records.is_empty(), "no records of {id}\n{table}");
        records
    };
    // The contract's behaviours the agent does not implement are reported
    // as such: skips naming the behaviour, not MUST failures.
    assert!(!report.must_failed(), "{table}");
    for id in ["send.blocking-interrupted", "cancel.working", "send.task"] {
        for r in of(id) {
            assert_eq!(r.outcome, Outcome::Skip, "{r:?}");
            assert!(r.detail.contains("not implemented by the agent"), "{r:?}");
        }
    }
    // A MAY left out (Last-Modified, spec 8.6.1) is not offered, not failed.
    let last_modified = of("card.last-modified")[0];
    assert_eq!(last_modified.outcome, Outcome::Skip, "{last_modified:?}");
    assert!(
        last_modified.detail.starts_with("not offered"),
        "{last_modified:?}"
    );
    // acceptedOutputModes is a preference the agent tailors to (3.2.2): an
    // answer in text/plain to a request accepting only video/mp4 is one of
    // the answers the spec allows.
    for r in of("errors.accepted-output-modes") {
        assert_eq!(r.outcome, Outcome::Pass, "{r:?}");
    }
    // Push scenarios that need delivery skip for the capability the card
    // does not declare, not for a missing webhook receiver.
    for id in ["push.delivery", "push.credentials", "push.https"] {
        for r in of(id) {
            assert_eq!(r.outcome, Outcome::Skip, "{r:?}");
            assert!(
                r.detail
                    .starts_with("the card does not declare capabilities.pushNotifications"),
                "{r:?}"
            );
        }
    }
    // The one failure left is a real one: the reference contract's
    // `message <x>` answers the Message `x` (a parameter of that contract,
    // MAY), and an echo agent answers `message <x>`.
    let failed: Vec<&str> = report
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Fail)
        .map(|r| r.scenario.as_str())
        .collect();
    assert_eq!(failed, ["send.direct-message"; 2], "{table}");
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
