//! The gRPC binding through `serve` on loopback, with hyper's own HTTP/2
//! client (prior knowledge, no TLS): messages in DATA frames, the status
//! in the trailing HEADERS frame, a trailers-only error in the head, on
//! the same port as HTTP/1.1; and the host limits on HTTP/2.

use std::net::SocketAddr;
use std::time::Duration;

use a2a_hyper::{server_config, HostLimits, ServeOptions};
use a2a_transport::grpc::{self, GrpcCode, GrpcStatus};
use a2a_types::{
    ErrorKind, GetTaskRequest, Message, Operation, SendMessageRequest, SendMessageResponse,
    StreamResponse, TaskState,
};
use bytes::Bytes;
use http::{HeaderMap, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

mod support;

use support::{start, start_with};

/// What an h2c gRPC call got back.
#[derive(Debug)]
struct Got {
    status: StatusCode,
    headers: HeaderMap,
    messages: Vec<Bytes>,
    trailers: Option<HeaderMap>,
}

impl Got {
    fn grpc_status(&self) -> GrpcStatus {
        grpc::read_status(self.trailers.as_ref().unwrap_or(&self.headers)).expect("grpc-status")
    }
}

/// One gRPC call of `op` with `body` over a fresh h2c connection.
async fn h2c(addr: SocketAddr, op: Operation, body: Bytes, version: &str) -> Got {
    h2c_with(addr, op, body, version, &[]).await
}

/// [`h2c`] with `metadata` added to the request's headers.
async fn h2c_with(
    addr: SocketAddr,
    op: Operation,
    body: Bytes,
    version: &str,
    metadata: &[(&str, &str)],
) -> Got {
    let tcp = TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tcp))
            .await
            .unwrap();
    tokio::spawn(conn);
    let mut request = Request::post(format!("http://{addr}{}", grpc::method_path(op)))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .header("a2a-version", version);
    for (name, value) in metadata {
        request = request.header(*name, *value);
    }
    let request = request.body(Full::new(body)).unwrap();
    let response = tokio::time::timeout(Duration::from_secs(5), sender.send_request(request))
        .await
        .expect("an answer within 5 s")
        .unwrap();
    let (parts, body) = response.into_parts();
    let collected = tokio::time::timeout(Duration::from_secs(5), body.collect())
        .await
        .expect("the body ends within 5 s")
        .unwrap();
    let trailers = collected.trailers().cloned();
    let data = collected.to_bytes();
    let mut decoder = grpc::FrameDecoder::default();
    decoder.push(&data);
    let mut messages = Vec::new();
    while let Some(m) = decoder.next_message().unwrap() {
        messages.push(m);
    }
    decoder.finish().unwrap();
    Got {
        status: parts.status,
        headers: parts.headers,
        messages,
        trailers,
    }
}

fn send() -> Bytes {
    send_text("hi")
}

fn send_text(text: &str) -> Bytes {
    grpc::encode_message(&SendMessageRequest::new(Message::user_text("m-1", text))).unwrap()
}

#[tokio::test]
async fn grpc_timeout_is_enforced_by_the_host() {
    let agent = start(server_config()).await;
    let timeout = [(grpc::GRPC_TIMEOUT, "1n")];

    // Work of 3 s under a 1 ns deadline: DEADLINE_EXCEEDED at once,
    // trailers-only, not OK after 3 s.
    let started = std::time::Instant::now();
    let got = h2c_with(
        agent.addr,
        Operation::SendMessage,
        send_text("slow"),
        "1.0",
        &timeout,
    )
    .await;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(1), "answered after {took:?}");
    assert!(got.messages.is_empty() && got.trailers.is_none(), "{got:?}");
    let GrpcStatus::Error(code, error) = got.grpc_status() else {
        panic!("an error: {got:?}")
    };
    assert_eq!(code, GrpcCode::DEADLINE_EXCEEDED);
    assert!(error.message().contains("deadline"), "{error}");

    // A stream past its deadline: its first message, then
    // DEADLINE_EXCEEDED in the trailers (the agent is quiet for 150 ms).
    let cut = [(grpc::GRPC_TIMEOUT, "50m")];
    let got = h2c_with(
        agent.addr,
        Operation::SendStreamingMessage,
        send(),
        "1.0",
        &cut,
    )
    .await;
    assert_eq!(got.messages.len(), 1, "{got:?}");
    assert_eq!(got.trailers.as_ref().unwrap()[grpc::GRPC_STATUS], "4");

    // Within its deadline a call is answered as ever.
    let ample = [(grpc::GRPC_TIMEOUT, "5S")];
    let got = h2c_with(
        agent.addr,
        Operation::SendStreamingMessage,
        send(),
        "1.0",
        &ample,
    )
    .await;
    assert_eq!(got.messages.len(), 2);
    assert_eq!(got.grpc_status(), GrpcStatus::Ok);
}

#[tokio::test]
async fn grpc_over_h2c_carries_messages_and_trailers() {
    let agent = start(server_config()).await;

    // Unary: one message, then grpc-status 0 in the trailers.
    let got = h2c(agent.addr, Operation::SendMessage, send(), "1.0").await;
    assert_eq!(got.status, 200);
    assert_eq!(got.headers["content-type"], "application/grpc");
    assert_eq!(got.trailers.as_ref().unwrap()["grpc-status"], "0");
    let reply: SendMessageResponse = a2a_proto::decode(&got.messages[0]).unwrap();
    let SendMessageResponse::Task(task) = reply else {
        panic!("a task")
    };
    assert_eq!(task.status.state, TaskState::Completed);

    // Server streaming: a message per event, then OK.
    let got = h2c(agent.addr, Operation::SendStreamingMessage, send(), "1.0").await;
    let states: Vec<TaskState> = got
        .messages
        .iter()
        .map(|m| match a2a_proto::decode::<StreamResponse>(m).unwrap() {
            StreamResponse::Task(t) => t.status.state,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(states, [TaskState::Working, TaskState::Completed]);
    assert_eq!(got.grpc_status(), GrpcStatus::Ok);

    // An error before any message: trailers-only, the status in the head.
    let got = h2c(agent.addr, Operation::SendMessage, send(), "9.9").await;
    assert_eq!(got.status, 200);
    assert!(got.messages.is_empty());
    assert!(got.headers.contains_key("grpc-status"), "{got:?}");
    let GrpcStatus::Error(code, error) = got.grpc_status() else {
        panic!("an error")
    };
    assert_eq!(code, GrpcCode::of_kind(ErrorKind::VersionNotSupported));
    assert_eq!(error.kind(), ErrorKind::VersionNotSupported);

    // The default handler's answer, with its code from the error table.
    let get = GetTaskRequest {
        id: "t".into(),
        ..Default::default()
    };
    let got = h2c(
        agent.addr,
        Operation::GetTask,
        grpc::encode_message(&get).unwrap(),
        "1.0",
    )
    .await;
    let GrpcStatus::Error(code, error) = got.grpc_status() else {
        panic!("an error: {got:?}")
    };
    assert_eq!(code, GrpcCode::of_kind(ErrorKind::UnsupportedOperation));
    assert_eq!(error.kind(), ErrorKind::UnsupportedOperation);

    // HTTP/1.1 on the same port still answers.
    let mut tcp = TcpStream::connect(agent.addr).await.unwrap();
    tcp.write_all(
        b"GET /.well-known/agent-card.json HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n",
    )
    .await
    .unwrap();
    let mut head = vec![0; 12];
    tcp.read_exact(&mut head).await.unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
}

#[tokio::test]
async fn a_body_over_the_limit_is_resource_exhausted_on_h2() {
    let agent = start(server_config().with_max_body_size(32)).await;
    let big = grpc::encode_frame(&[0u8; 64]).unwrap();
    let got = h2c(agent.addr, Operation::SendMessage, big, "1.0").await;
    assert_eq!(got.status, 200);
    let GrpcStatus::Error(code, _) = got.grpc_status() else {
        panic!("an error: {got:?}")
    };
    assert_eq!(code, GrpcCode::RESOURCE_EXHAUSTED);
}

#[tokio::test]
async fn grpc_over_http1_is_refused_with_505_and_a_status() {
    let agent = start(server_config()).await;
    let body = send();
    let mut tcp = TcpStream::connect(agent.addr).await.unwrap();
    let head = format!(
        "POST {} HTTP/1.1\r\nhost: a\r\ncontent-type: application/grpc\r\nte: trailers\r\na2a-version: 1.0\r\ncontent-length: {}\r\n\r\n",
        grpc::method_path(Operation::SendMessage),
        body.len()
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    tcp.write_all(&body).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(3), tcp.read_to_end(&mut answer))
        .await
        .expect("answered and closed")
        .unwrap();
    let text = String::from_utf8_lossy(&answer);
    // Not a 200 whose status the lost trailers would have carried.
    assert!(text.starts_with("HTTP/1.1 505"), "{text}");
    assert!(text.contains("\r\ngrpc-status: 13\r\n"), "{text}");
    assert!(
        text.contains("\r\ngrpc-message: gRPC needs HTTP/2"),
        "{text}"
    );
    // The JSON bindings are served on HTTP/1.1 as ever.
    let mut tcp = TcpStream::connect(agent.addr).await.unwrap();
    tcp.write_all(
        b"GET /.well-known/agent-card.json HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n",
    )
    .await
    .unwrap();
    let mut head = vec![0; 12];
    tcp.read_exact(&mut head).await.unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
}

/// A request body that sends `first`, then nothing, ever.
struct Stalled(Option<Bytes>);

impl http_body::Body for Stalled {
    type Data = Bytes;
    type Error = std::convert::Infallible;
    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        match self.0.take() {
            Some(first) => std::task::Poll::Ready(Some(Ok(http_body::Frame::data(first)))),
            None => std::task::Poll::Pending,
        }
    }
}

#[tokio::test]
async fn a_stalled_body_is_deadline_exceeded_on_h2() {
    let limits = HostLimits::default().with_body_stall_timeout(Duration::from_millis(200));
    let agent = start_with(server_config(), ServeOptions::default().with_limits(limits)).await;
    let tcp = TcpStream::connect(agent.addr).await.unwrap();
    let (mut sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tcp))
            .await
            .unwrap();
    tokio::spawn(conn);
    let request = Request::post(format!(
        "http://{}{}",
        agent.addr,
        grpc::method_path(Operation::SendMessage)
    ))
    .header("content-type", "application/grpc")
    .header("a2a-version", "1.0")
    .body(Stalled(Some(Bytes::from_static(&[0, 0, 0, 1, 0]))))
    .unwrap();
    let response = tokio::time::timeout(Duration::from_secs(3), sender.send_request(request))
        .await
        .expect("answered within the stall timeout")
        .unwrap();
    let Some(GrpcStatus::Error(code, error)) = grpc::read_status(response.headers()) else {
        panic!("a trailers-only error: {response:?}")
    };
    assert_eq!(code, GrpcCode::DEADLINE_EXCEEDED);
    assert!(error.message().contains("stopped arriving"), "{error}");
}

#[tokio::test]
async fn a_spent_body_budget_is_unavailable_with_a_retry_delay() {
    let limits = HostLimits::default().with_max_body_bytes_in_flight(100);
    let agent = start_with(server_config(), ServeOptions::default().with_limits(limits)).await;
    // An HTTP/1.1 body holds 80 of the 100 bytes and waits.
    let mut holder = TcpStream::connect(agent.addr).await.unwrap();
    holder
        .write_all(b"POST / HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n")
        .await
        .unwrap();
    holder.write_all(&[b' '; 80]).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let big = grpc::encode_frame(&[0u8; 80]).unwrap();
    let got = h2c(agent.addr, Operation::SendMessage, big, "1.0").await;
    let GrpcStatus::Error(code, error) = got.grpc_status() else {
        panic!("an error: {got:?}")
    };
    assert_eq!(code, GrpcCode::UNAVAILABLE);
    assert_eq!(error.retry_delay(), Some(Duration::from_secs(1)));
    drop(holder);
}

#[tokio::test]
async fn an_idle_h2_connection_is_closed_by_the_host_limits() {
    let options = ServeOptions::default()
        .with_limits(HostLimits::default().with_idle_timeout(Duration::from_millis(200)));
    let agent = start_with(server_config(), options).await;
    let tcp = TcpStream::connect(agent.addr).await.unwrap();
    let (mut sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tcp))
            .await
            .unwrap();
    let conn = tokio::spawn(conn);
    let request = Request::post(format!(
        "http://{}{}",
        agent.addr,
        grpc::method_path(Operation::SendMessage)
    ))
    .header("content-type", "application/grpc")
    .header("a2a-version", "1.0")
    .body(Full::new(send()))
    .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let trailers = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .trailers()
        .cloned();
    assert_eq!(trailers.unwrap()["grpc-status"], "0");
    // Nothing in flight: the server closes the connection after 200 ms.
    tokio::time::timeout(Duration::from_secs(3), conn)
        .await
        .expect("the idle h2 connection is closed")
        .unwrap()
        .ok();
}
