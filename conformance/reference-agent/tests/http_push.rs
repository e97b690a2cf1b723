//! Push delivery over real loopback HTTP with [`HttpPushSender`]: order,
//! retries after 503, credentials, SSRF refusals at connect time, and
//! `https` webhooks.

mod support;

use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_reference_agent::{
    AgentConfig, DeliveryOutcome, HttpPushSender, PushError, PushSender, ReferenceAgent, Resolver,
};
use a2a_transport::{
    push::{Resolve, WebhookVerifier},
    webhook::Allowlist,
    A2aService, BoxFuture,
};
use a2a_types::{
    AuthenticationInfo, SendMessageConfiguration, SendMessageRequest, StreamResponse,
    TaskPushNotificationConfig,
};
use support::webhook::Webhook;
use support::*;

type Outcomes = Arc<Mutex<Vec<DeliveryOutcome>>>;

fn agent_over_http(allow: Allowlist, sender: HttpPushSender) -> (ReferenceAgent, Outcomes) {
    let mut config = AgentConfig::default().with_push_allowlist(allow);
    config.push.initial_backoff = Duration::from_millis(10);
    config.push.timeout = Duration::from_secs(2);
    let outcomes: Outcomes = Arc::default();
    let log = outcomes.clone();
    let agent = ReferenceAgent::with_push_observer(
        config,
        Arc::new(sender),
        Arc::new(move |_, o| log.lock().unwrap().push(o.clone())),
    );
    (agent, outcomes)
}

fn loopback() -> Allowlist {
    let mut allow = Allowlist::new();
    allow.allow("127.0.0.0/8").unwrap();
    allow
}

fn inline(text: &str, config: TaskPushNotificationConfig) -> SendMessageRequest {
    let mut r = SendMessageRequest::new(msg("push", text));
    r.configuration = Some(SendMessageConfiguration {
        task_push_notification_config: Some(Box::new(config)),
        ..Default::default()
    });
    r
}

#[tokio::test]
async fn delivered_in_order_with_credentials_after_503s() {
    let hook = Webhook::start().await;
    hook.script(&[503, 503]);
    let (agent, outcomes) = agent_over_http(loopback(), HttpPushSender::new(loopback()));
    let mut config = TaskPushNotificationConfig::new(hook.url("/hook?x=1"));
    config.token = "tok-9".into();
    config.authentication = Some(AuthenticationInfo::new("Bearer", "push-secret"));
    let task = send_task(&agent, &cx(), inline("stream 3", config)).await;
    eventually(|| outcomes.lock().unwrap().len() == 6).await;

    let received = hook.received();
    let events: Vec<String> = received
        .iter()
        .map(|(_, body)| describe(&serde_json::from_slice::<StreamResponse>(body).unwrap()))
        .collect();
    assert_eq!(
        events,
        [
            "task:SUBMITTED",
            "task:SUBMITTED",
            "task:SUBMITTED",
            "status:WORKING",
            "artifact:chunk 1 ",
            "artifact:chunk 2 +",
            "artifact:chunk 3 +!",
            "status:COMPLETED"
        ]
    );
    for (headers, body) in &received {
        assert_eq!(headers["content-type"], "application/a2a+json");
        assert_eq!(headers["authorization"], "Bearer push-secret");
        assert_eq!(headers["x-a2a-notification-token"], "tok-9");
        assert_eq!(headers["host"], hook.addr.to_string());
        let e: StreamResponse = serde_json::from_slice(body).unwrap();
        assert_eq!(e.task_id(), Some(task.id.as_str()));
    }
    assert_eq!(
        outcomes.lock().unwrap()[0],
        DeliveryOutcome::Delivered { attempts: 3 }
    );
}

/// Resolves every name to one address.
struct Rebinding(IpAddr);

impl Resolve for Rebinding {
    fn resolve<'a>(&'a self, _: &'a str) -> BoxFuture<'a, std::io::Result<Vec<IpAddr>>> {
        Box::pin(std::future::ready(Ok(vec![self.0])))
    }
}

fn rebinding(to: IpAddr) -> Resolver {
    Arc::new(Rebinding(to))
}

#[tokio::test]
async fn a_name_that_resolves_to_loopback_is_refused_at_connect_time() {
    let hook = Webhook::start().await;
    let url = format!("http://hooks.example.com:{}/hook", hook.addr.port());
    for to in [
        IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(Ipv4Addr::LOCALHOST.to_ipv6_mapped()),
    ] {
        // The URL names a public-looking host: creating the config passes.
        let sender = HttpPushSender::new(Allowlist::new()).with_resolver(rebinding(to));
        let (agent, outcomes) = agent_over_http(Allowlist::new(), sender.clone());
        send_task(
            &agent,
            &cx(),
            inline("echo x", TaskPushNotificationConfig::new(&url)),
        )
        .await;
        eventually(|| outcomes.lock().unwrap().len() == 4).await;
        for o in outcomes.lock().unwrap().iter() {
            assert!(
                matches!(o, DeliveryOutcome::Failed { attempts: 1, last } if last.contains("refused")),
                "{o:?}"
            );
        }
        // And directly:
        let req = http::Request::post(url.as_str())
            .body(bytes::Bytes::new())
            .unwrap();
        let err = sender.send(req).await.unwrap_err();
        assert!(
            matches!(err, PushError::Refused(ref why) if why.contains("127.0.0.1")),
            "{err:?}"
        );
    }
    assert!(
        hook.received().is_empty(),
        "nothing reached the loopback receiver"
    );
}

#[tokio::test]
async fn connection_errors_are_retried() {
    // A port with nothing listening.
    let port = {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        l.local_addr().unwrap().port()
    };
    let sender = HttpPushSender::new(loopback());
    let req = http::Request::post(format!("http://127.0.0.1:{port}/"))
        .body(bytes::Bytes::new())
        .unwrap();
    assert!(matches!(
        sender.send(req).await,
        Err(PushError::Connection(_))
    ));
    // A numeric host outside the allowlist is refused before connecting.
    let req = http::Request::post("http://10.9.9.9/")
        .body(bytes::Bytes::new())
        .unwrap();
    assert!(matches!(sender.send(req).await, Err(PushError::Refused(_))));

    let mut config = AgentConfig::default().with_push_allowlist(loopback());
    config.push.initial_backoff = Duration::from_millis(5);
    config.push.max_attempts = 3;
    let outcomes: Outcomes = Arc::default();
    let log = outcomes.clone();
    let agent = ReferenceAgent::with_push_observer(
        config,
        Arc::new(sender),
        Arc::new(move |_, o| log.lock().unwrap().push(o.clone())),
    );
    agent
        .send_message(
            &cx(),
            inline(
                "reject",
                TaskPushNotificationConfig::new(format!("http://127.0.0.1:{port}/")),
            ),
        )
        .await
        .unwrap();
    eventually(|| outcomes.lock().unwrap().len() == 2).await;
    assert!(matches!(
        &outcomes.lock().unwrap()[0],
        DeliveryOutcome::Failed { attempts: 3, .. }
    ));
}

/// The webhook's certificate as the only trusted root.
fn trusting(der: rustls::pki_types::CertificateDer<'static>) -> a2a_hyper::ClientOptions {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(der).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let mut options = a2a_hyper::ClientOptions::default();
    options.tls = Some(Arc::new(tls));
    options
}

#[tokio::test]
async fn https_webhooks_are_delivered_and_verify() {
    let (hook, der) = Webhook::start_tls("hooks.test").await;
    let url = format!("https://hooks.test:{}/hook", hook.addr.port());
    // The name resolves to loopback, which the allowlist admits.
    let mut options = trusting(der.clone());
    options.resolver = Some(rebinding(IpAddr::V4(Ipv4Addr::LOCALHOST)));
    let sender = HttpPushSender::with_options(loopback(), options);
    let (agent, outcomes) = agent_over_http(loopback(), sender);
    let mut config = TaskPushNotificationConfig::new(&url);
    config.token = "tok-tls".into();
    config.authentication = Some(AuthenticationInfo::new("Bearer", "tls-secret"));
    let task = send_task(&agent, &cx(), inline("echo over tls", config.clone())).await;
    eventually(|| outcomes.lock().unwrap().len() == 4).await;
    assert!(outcomes
        .lock()
        .unwrap()
        .iter()
        .all(|o| matches!(o, DeliveryOutcome::Delivered { attempts: 1 })));

    // What arrived passes the client-side verifier for that config.
    config.task_id = task.id.clone();
    let verifier = WebhookVerifier::for_config(&config);
    let received = hook.received();
    assert_eq!(received.len(), 4);
    for (headers, body) in received {
        let mut request = http::Request::post("/hook").body(body).unwrap();
        *request.headers_mut() = headers;
        let got = verifier
            .verify(&request, std::time::SystemTime::now())
            .unwrap();
        assert_eq!(got.event.task_id(), Some(task.id.as_str()));
    }

    // Without trusting the certificate, TLS fails, and is not retried.
    let mut options = a2a_hyper::ClientOptions::default();
    options.resolver = Some(rebinding(IpAddr::V4(Ipv4Addr::LOCALHOST)));
    let untrusting = HttpPushSender::with_options(loopback(), options);
    let req = http::Request::post(url.as_str())
        .body(bytes::Bytes::new())
        .unwrap();
    let err = untrusting.send(req).await.unwrap_err();
    assert!(matches!(err, PushError::Failed(_)), "{err:?}");

    // And a name rebound to loopback without the allowlist is refused,
    // over https as over http.
    let mut options = trusting(der);
    options.resolver = Some(rebinding(IpAddr::V4(Ipv4Addr::LOCALHOST)));
    let strict = HttpPushSender::with_options(Allowlist::new(), options);
    let req = http::Request::post(url.as_str())
        .body(bytes::Bytes::new())
        .unwrap();
    assert!(matches!(strict.send(req).await, Err(PushError::Refused(_))));
    assert_eq!(hook.received().len(), 4, "nothing more arrived");
}
