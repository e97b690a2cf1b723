//! The rate limit through `serve` on loopback, on each binding: a burst
//! beyond the bucket is refused with 429 and `Retry-After` (gRPC:
//! `RESOURCE_EXHAUSTED` with a `RetryInfo` in `grpc-status-details-bin`),
//! while a second principal is unaffected; anonymous callers are keyed by
//! the peer address `serve` records.

use std::net::SocketAddr;
use std::time::Duration;

use a2a_hyper::{rate_limiter, server_config};
use a2a_transport::grpc::{self, GrpcCode, GrpcStatus};
use a2a_transport::server::{BearerAuth, RateLimit};
use a2a_transport::ServerConfig;
use a2a_types::{ErrorKind, Message, Operation, SendMessageRequest, RETRY_INFO_TYPE};
use bytes::Bytes;
use http::{HeaderMap, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpStream;

mod support;

use support::start;

/// Two calls per caller, then one a minute.
fn config() -> ServerConfig {
    let limit = RateLimit::every(Duration::from_secs(60)).with_burst(2);
    server_config()
        .with_authenticator(
            BearerAuth::new("bearer")
                .with_token("alice-token", "alice")
                .with_token("bob-token", "bob"),
        )
        .with_rate_limit(rate_limiter(limit))
}

fn send_params() -> serde_json::Value {
    serde_json::to_value(SendMessageRequest::new(Message::user_text("m-1", "hi"))).unwrap()
}

/// One HTTP/1.1 request over a fresh connection.
async fn http1(
    addr: SocketAddr,
    path: &str,
    token: Option<&str>,
    body: serde_json::Value,
) -> (StatusCode, HeaderMap, serde_json::Value) {
    let tcp = TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
        .await
        .unwrap();
    tokio::spawn(conn);
    let mut request = Request::post(format!("http://{addr}{path}"))
        .header("host", addr.to_string())
        .header("content-type", "application/json")
        .header("a2a-version", "1.0");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let request = request
        .body(Full::new(Bytes::from(serde_json::to_vec(&body).unwrap())))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    (parts.status, parts.headers, json)
}

fn retry_after(headers: &HeaderMap) -> Option<u64> {
    headers.get("retry-after")?.to_str().ok()?.parse().ok()
}

async fn jsonrpc(
    addr: SocketAddr,
    token: Option<&str>,
) -> (StatusCode, HeaderMap, serde_json::Value) {
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": send_params()
    });
    http1(addr, "/", token, body).await
}

#[tokio::test]
async fn jsonrpc_burst_is_refused_with_429_and_retry_after() {
    let agent = start(config()).await;
    for _ in 0..2 {
        let (status, _, body) = jsonrpc(agent.addr, Some("alice-token")).await;
        assert_eq!(status, 200, "{body}");
        assert!(body.get("result").is_some(), "{body}");
    }
    let (status, headers, body) = jsonrpc(agent.addr, Some("alice-token")).await;
    assert_eq!(status, 429);
    // 60 s less the few milliseconds since the burst, rounded up.
    assert_eq!(retry_after(&headers), Some(60));
    assert_eq!(body["error"]["code"], -32092);
    assert_eq!(body["error"]["data"][0]["reason"], "RATE_LIMITED");
    let retry = &body["error"]["data"][1];
    assert_eq!(retry["@type"], RETRY_INFO_TYPE);
    let delay = retry["retryDelay"].as_str().unwrap();
    let secs: f64 = delay.trim_end_matches('s').parse().unwrap();
    assert!(secs > 59.0 && secs <= 60.0, "{delay}");
    // Another principal has its own bucket.
    let (status, _, _) = jsonrpc(agent.addr, Some("bob-token")).await;
    assert_eq!(status, 200);
    // Anonymous callers are keyed by address: this one is fresh too.
    let (status, _, _) = jsonrpc(agent.addr, None).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn http_json_burst_is_refused_with_429_and_retry_after() {
    let agent = start(config()).await;
    for _ in 0..2 {
        let (status, _, body) = http1(
            agent.addr,
            "/message:send",
            Some("alice-token"),
            send_params(),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, headers, body) = http1(
        agent.addr,
        "/message:send",
        Some("alice-token"),
        send_params(),
    )
    .await;
    assert_eq!(status, 429);
    assert_eq!(retry_after(&headers), Some(60));
    assert_eq!(body["error"]["status"], "RESOURCE_EXHAUSTED");
    assert_eq!(body["error"]["details"][0]["reason"], "RATE_LIMITED");
    assert_eq!(body["error"]["details"][1]["@type"], RETRY_INFO_TYPE);
    let (status, _, _) = http1(
        agent.addr,
        "/message:send",
        Some("bob-token"),
        send_params(),
    )
    .await;
    assert_eq!(status, 200);
}

/// One h2c gRPC SendMessage: its HTTP status and its gRPC status.
async fn grpc_send(addr: SocketAddr, token: &str) -> (StatusCode, grpc::GrpcStatus) {
    let tcp = TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tcp))
            .await
            .unwrap();
    tokio::spawn(conn);
    let body =
        grpc::encode_message(&SendMessageRequest::new(Message::user_text("m-1", "hi"))).unwrap();
    let request = Request::post(format!(
        "http://{addr}{}",
        grpc::method_path(Operation::SendMessage)
    ))
    .header("content-type", "application/grpc")
    .header("te", "trailers")
    .header("a2a-version", "1.0")
    .header("authorization", format!("Bearer {token}"))
    .body(Full::new(body))
    .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let collected = body.collect().await.unwrap();
    let trailers = collected.trailers().cloned();
    let status =
        grpc::read_status(trailers.as_ref().unwrap_or(&parts.headers)).expect("grpc-status");
    (parts.status, status)
}

#[tokio::test]
async fn grpc_burst_is_resource_exhausted_with_retry_info() {
    let agent = start(config()).await;
    for _ in 0..2 {
        let (_, status) = grpc_send(agent.addr, "alice-token").await;
        assert!(matches!(status, GrpcStatus::Ok), "{status:?}");
    }
    let (http, status) = grpc_send(agent.addr, "alice-token").await;
    assert_eq!(http, 200, "gRPC answers its errors with HTTP 200");
    let GrpcStatus::Error(code, err) = status else {
        panic!("refused: {status:?}")
    };
    assert_eq!(code, GrpcCode::RESOURCE_EXHAUSTED);
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    let delay = err
        .retry_delay()
        .expect("a RetryInfo in grpc-status-details-bin");
    assert!(delay > Duration::from_secs(59) && delay <= Duration::from_secs(60));
    let (_, status) = grpc_send(agent.addr, "bob-token").await;
    assert!(matches!(status, GrpcStatus::Ok), "{status:?}");
}

/// Answers GetTask and SendMessage.
struct Tasks;

impl a2a_transport::A2aService for Tasks {
    fn get_task<'a>(
        &'a self,
        _: &'a a2a_transport::CallContext,
        request: a2a_types::GetTaskRequest,
    ) -> a2a_transport::BoxFuture<'a, Result<a2a_types::Task, a2a_types::A2aError>> {
        Box::pin(async move {
            Ok(a2a_types::Task::new(
                request.id,
                "c-1",
                a2a_types::TaskState::Completed,
            ))
        })
    }

    fn send_message<'a>(
        &'a self,
        _: &'a a2a_transport::CallContext,
        _: SendMessageRequest,
    ) -> a2a_transport::BoxFuture<'a, Result<a2a_types::SendMessageResponse, a2a_types::A2aError>>
    {
        Box::pin(async {
            Ok(a2a_types::Task::new("t-1", "c-1", a2a_types::TaskState::Completed).into())
        })
    }
}

/// Our client, with `with_retry_after` on, waits out the agent's delay
/// and succeeds on an idempotent GetTask, returns a non-idempotent
/// SendMessage's refusal at once, and returns a refusal whose delay is
/// over its maximum instead of waiting.
#[tokio::test]
async fn the_client_waits_out_retry_after_for_idempotent_calls_only() {
    use a2a_transport::client::{ResilientTransport, RetryPolicy};
    use a2a_transport::{A2aServer, A2aService, Binding, CallContext, HttpTransport};
    use std::sync::Arc;
    use std::time::Instant;

    let limit = RateLimit::every(Duration::from_millis(800));
    let config = server_config().with_rate_limit(rate_limiter(limit));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut card = support::card();
    card.capabilities = Default::default();
    let server = Arc::new(A2aServer::new(Tasks, card, config).unwrap());
    let (_stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(a2a_hyper::serve(
        listener,
        server,
        a2a_hyper::ServeOptions::default(),
        async {
            let _ = stopped.await;
        },
    ));
    let url = format!("http://{addr}/");
    let client = |max_delay| {
        let transport =
            HttpTransport::new(a2a_hyper::HyperClient::new(), Binding::JsonRpc, &url).unwrap();
        ResilientTransport::new(transport, a2a_hyper::TokioTimer).with_retry_after(
            RetryPolicy::new()
                .with_max_attempts(2)
                .with_max_delay(max_delay),
        )
    };
    let patient = client(Duration::from_secs(5));
    let cx = CallContext::new();
    let get = a2a_types::GetTaskRequest {
        id: "t-9".into(),
        ..Default::default()
    };
    patient.get_task(&cx, get.clone()).await.unwrap();

    // Refused (the bucket is empty for 800 ms), waited, then answered.
    let started = Instant::now();
    let task = patient.get_task(&cx, get.clone()).await.unwrap();
    assert_eq!(task.id, "t-9");
    // Retry-After is whole seconds (rounded up), the body's RetryInfo
    // exact: the client waits the exact delay, most of 800 ms.
    assert!(
        started.elapsed() >= Duration::from_millis(600),
        "{:?}",
        started.elapsed()
    );

    // SendMessage is not idempotent: the refusal comes back at once.
    let started = Instant::now();
    let err = patient
        .send_message(
            &cx,
            SendMessageRequest::new(Message::user_text("m-1", "hi")),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    assert_eq!(err.received_status(), Some(429));
    assert!(err.retry_delay().is_some());
    assert!(started.elapsed() < Duration::from_millis(400));

    // A delay over the client's maximum is returned, not waited.
    let hasty = client(Duration::from_millis(10));
    let started = Instant::now();
    let err = hasty.get_task(&cx, get).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    assert!(started.elapsed() < Duration::from_millis(400));
}
