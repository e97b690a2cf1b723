//! Tracing end to end (issue 31): a client span → the reference agent on
//! loopback → its push webhook, all recorded by the OpenTelemetry SDK's
//! in-memory exporter. One trace: the call's span is a child of the
//! client's across the HTTP hop, the executor's and the notification's
//! spans are children of the call's, and the webhook receives the
//! notification span's `traceparent`. Each binding, and a stream.

mod support;

use std::sync::Arc;
use std::time::Duration;

use a2a_hyper::{HttpPushSender, HyperClient, ServeOptions};
use a2a_reference_agent::{AgentConfig, ReferenceAgent};
use a2a_transport::server::A2aServer;
use a2a_transport::trace::{OtelTracer, TraceContext, Tracer, TRACEPARENT};
use a2a_transport::webhook::Allowlist;
use a2a_transport::{A2aService, Binding, CallContext, HttpTransport};
use a2a_types::{
    AgentInterface, Message, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    TaskPushNotificationConfig, TaskState,
};
use opentelemetry::trace::{SpanId, SpanKind, Status, TraceId, Tracer as _, TracerProvider as _};
use opentelemetry::Value;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use support::webhook::Webhook;

struct Traced {
    exporter: InMemorySpanExporter,
    provider: SdkTracerProvider,
    addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Traced {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// The reference agent on loopback with an OpenTelemetry tracer whose
/// spans go to an in-memory exporter.
async fn traced_agent() -> Traced {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let tracer: Arc<dyn Tracer> = Arc::new(OtelTracer::new(provider.tracer("a2a-reference-agent")));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let base = format!("http://{addr}");
    let mut allow = Allowlist::new();
    allow.allow("127.0.0.0/8").unwrap();
    let mut config = AgentConfig::default()
        .with_interfaces(vec![
            AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
            AgentInterface::new(base.clone(), "HTTP+JSON", "1.0"),
            AgentInterface::new(addr.to_string(), "GRPC", "1.0"),
        ])
        .with_push_allowlist(allow.clone());
    config.tracer = Some(tracer);
    let agent = ReferenceAgent::new(config, Arc::new(HttpPushSender::new(allow)));
    let card = agent.agent_card().clone();
    let server_config = agent.server_config();
    let server = Arc::new(A2aServer::new(agent, card, server_config).unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(a2a_hyper::serve(
        listener,
        server,
        ServeOptions::default(),
        async move {
            let _ = stopped.await;
        },
    ));
    Traced {
        exporter,
        provider,
        addr,
        stop: Some(stop),
    }
}

fn attr<'s>(span: &'s SpanData, key: &str) -> Option<&'s Value> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| &kv.value)
}

fn text(span: &SpanData, key: &str) -> String {
    match attr(span, key) {
        Some(v) => v.as_str().into_owned(),
        None => panic!("{} has no {key}: {:?}", span.name, span.attributes),
    }
}

/// The finished spans once `done` holds of them (bounded wait: the
/// executor's and the push's spans end after the call is answered).
async fn spans_when(
    exporter: &InMemorySpanExporter,
    done: impl Fn(&[SpanData]) -> bool,
) -> Vec<SpanData> {
    for _ in 0..200 {
        let spans = exporter.get_finished_spans().unwrap();
        if done(&spans) {
            return spans;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let spans = exporter.get_finished_spans().unwrap();
    panic!(
        "spans did not arrive: {:?}",
        spans.iter().map(|s| s.name.as_ref()).collect::<Vec<_>>()
    )
}

fn named<'s>(spans: &'s [SpanData], name: &str) -> &'s SpanData {
    spans
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no {name} span"))
}

/// A client span of the test's own, as a `TraceContext` for the call.
fn client_span(provider: &SdkTracerProvider) -> (opentelemetry_sdk::trace::Span, TraceContext) {
    let span = provider.tracer("client").start("client.call");
    let cx = opentelemetry::trace::Span::span_context(&span).clone();
    let trace = TraceContext::new(cx.trace_id().to_bytes(), cx.span_id().to_bytes(), true).unwrap();
    (span, trace)
}

fn interface(addr: std::net::SocketAddr, binding: Binding) -> String {
    match binding {
        Binding::JsonRpc => format!("http://{addr}/"),
        Binding::Grpc => format!("http://{addr}"),
        _ => format!("http://{addr}"),
    }
}

#[tokio::test]
async fn one_trace_from_the_client_through_the_agent_to_the_webhook() {
    for (binding, system) in [
        (Binding::JsonRpc, "jsonrpc"),
        (Binding::HttpJson, "a2a"),
        (Binding::Grpc, "grpc"),
    ] {
        let agent = traced_agent().await;
        let webhook = Webhook::start().await;
        let (client, trace) = client_span(&agent.provider);
        let transport =
            HttpTransport::new(HyperClient::new(), binding, &interface(agent.addr, binding))
                .unwrap();
        let mut request = SendMessageRequest::new(Message::user_text("m-1", "echo traced"));
        request.configuration = Some(SendMessageConfiguration {
            task_push_notification_config: Some(Box::new(TaskPushNotificationConfig {
                url: format!("http://{}/hook", webhook.addr),
                ..Default::default()
            })),
            ..Default::default()
        });
        let cx = CallContext::new().with_trace(trace.clone());
        let SendMessageResponse::Task(task) = transport.send_message(&cx, request).await.unwrap()
        else {
            panic!("{binding}: a task, not a message")
        };
        assert_eq!(task.status.state, TaskState::Completed, "{binding}");
        drop(client);

        let spans = spans_when(&agent.exporter, |s| {
            ["a2a.call", "a2a.execute", "a2a.push", "client.call"]
                .iter()
                .all(|n| s.iter().any(|x| x.name == *n))
        })
        .await;
        let trace_id = TraceId::from_bytes(trace.trace_id());
        for span in &spans {
            assert_eq!(
                span.span_context.trace_id(),
                trace_id,
                "{binding}: {} is in another trace",
                span.name
            );
        }
        let call = named(&spans, "a2a.call");
        let execute = named(&spans, "a2a.execute");
        let push = named(&spans, "a2a.push");
        // Across the HTTP hop: the call's parent is the client's span.
        assert_eq!(
            call.parent_span_id,
            SpanId::from_bytes(trace.span_id()),
            "{binding}"
        );
        assert!(call.parent_span_is_remote);
        assert_eq!(call.span_kind, SpanKind::Server);
        assert_eq!(
            execute.parent_span_id,
            call.span_context.span_id(),
            "{binding}"
        );
        assert_eq!(
            push.parent_span_id,
            call.span_context.span_id(),
            "{binding}"
        );
        assert_eq!(push.span_kind, SpanKind::Client);

        for (key, value) in [
            ("rpc.system", system),
            ("rpc.service", "lf.a2a.v1.A2AService"),
            ("rpc.method", "SendMessage"),
            ("a2a.binding", binding.as_str()),
            ("a2a.protocol_version", "1.0"),
            ("a2a.task.id", task.id.as_str()),
            ("a2a.outcome", "ok"),
        ] {
            assert_eq!(text(call, key), value, "{binding}: a2a.call {key}");
        }
        assert_eq!(text(execute, "a2a.task.id"), task.id);
        assert_eq!(text(execute, "a2a.outcome"), "ok");
        assert_eq!(text(push, "a2a.task.id"), task.id);
        assert_eq!(text(push, "a2a.outcome"), "delivered");

        // The webhook got the notification span's traceparent.
        let received = webhook.received();
        assert!(
            !received.is_empty(),
            "{binding}: nothing reached the webhook"
        );
        let sent = TraceContext::from_headers(&received[0].0)
            .unwrap_or_else(|| panic!("{binding}: no traceparent at the webhook"));
        assert_eq!(sent.trace_id(), trace.trace_id());
        let pushes: Vec<SpanId> = spans
            .iter()
            .filter(|s| s.name == "a2a.push")
            .map(|s| s.span_context.span_id())
            .collect();
        assert!(
            pushes.contains(&SpanId::from_bytes(sent.span_id())),
            "{binding}: the webhook's parent {} is no push span",
            received[0].0[TRACEPARENT].to_str().unwrap()
        );
    }
}

#[tokio::test]
async fn a_stream_has_its_own_span_and_an_error_says_its_code() {
    let agent = traced_agent().await;
    let transport = HttpTransport::new(
        HyperClient::new(),
        Binding::JsonRpc,
        &interface(agent.addr, Binding::JsonRpc),
    )
    .unwrap();
    let (_client, trace) = client_span(&agent.provider);
    let cx = CallContext::new().with_trace(trace.clone());
    let mut events = transport
        .send_streaming_message(
            &cx,
            SendMessageRequest::new(Message::user_text("m-s", "stream 3")),
        )
        .await
        .unwrap();
    let mut n = 0;
    while let Some(event) = std::future::poll_fn(|c| events.as_mut().poll_next(c)).await {
        event.unwrap();
        n += 1;
    }
    assert!(n >= 3);
    let missing = transport
        .get_task(&cx, a2a_types::GetTaskRequest::new("no-such-task"))
        .await
        .unwrap_err();
    assert_eq!(missing.kind(), a2a_types::ErrorKind::TaskNotFound);

    let spans = spans_when(&agent.exporter, |s| {
        s.iter().any(|x| x.name == "a2a.stream")
            && s.iter()
                .any(|x| x.name == "a2a.call" && attr(x, "error.type").is_some())
    })
    .await;
    let stream = named(&spans, "a2a.stream");
    let call = spans
        .iter()
        .find(|s| s.name == "a2a.call" && text(s, "rpc.method") == "SendStreamingMessage")
        .unwrap();
    assert_eq!(stream.parent_span_id, call.span_context.span_id());
    assert_eq!(text(stream, "a2a.outcome"), "ok");
    let events = match attr(stream, "a2a.stream.events") {
        Some(Value::I64(n)) => *n,
        other => panic!("{other:?}"),
    };
    assert_eq!(events, n as i64);

    let failed = spans
        .iter()
        .find(|s| s.name == "a2a.call" && text(s, "rpc.method") == "GetTask")
        .unwrap();
    assert_eq!(text(failed, "error.type"), "TaskNotFoundError");
    assert_eq!(
        attr(failed, "rpc.jsonrpc.error_code"),
        Some(&Value::I64(-32001))
    );
    assert!(matches!(failed.status, Status::Error { .. }));
    assert_eq!(text(failed, "a2a.task.id"), "no-such-task");
}

#[tokio::test]
async fn without_a_tracer_the_caller_s_trace_still_reaches_the_webhook() {
    let webhook = Webhook::start().await;
    let server = support::wire::Server::start(&["--push-allow", "127.0.0.0/8"]).await;
    let transport = HttpTransport::new(
        HyperClient::new(),
        Binding::JsonRpc,
        &format!("http://{}/", server.addr),
    )
    .unwrap();
    let trace =
        TraceContext::parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01").unwrap();
    let mut request = SendMessageRequest::new(Message::user_text("m-2", "echo hi"));
    request.configuration = Some(SendMessageConfiguration {
        task_push_notification_config: Some(Box::new(TaskPushNotificationConfig {
            url: format!("http://{}/hook", webhook.addr),
            ..Default::default()
        })),
        ..Default::default()
    });
    transport
        .send_message(&CallContext::new().with_trace(trace.clone()), request)
        .await
        .unwrap();
    for _ in 0..200 {
        if !webhook.received().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let received = webhook.received();
    assert_eq!(
        received[0].0[TRACEPARENT],
        trace.traceparent(),
        "passed on as it came"
    );
}
