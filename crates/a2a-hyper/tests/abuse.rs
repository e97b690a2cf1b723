//! `serve` against clients that hold what others need (issue 28, points 1
//! and 3), on loopback: a response whose client stops reading is cut after
//! the write timeout (SSE over HTTP/1.1 and HTTP/2, a gRPC stream), bodies
//! that burst and then trickle no longer hold the body budget, one peer
//! cannot take all of it, and a peer's requests in flight are bounded.
//! Each of these failed on the host before: the streams ran for ever, the
//! budget stayed spent for the trickle's whole average, and one peer's
//! bodies or requests locked out everyone.

mod support;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use a2a_hyper::{server_config, HostLimits, ServeOptions};
use a2a_transport::grpc;
use a2a_types::{Message, Operation, SendMessageRequest};
use bytes::Bytes;
use http::Request;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use support::start_with;

const FLOOD: &str = r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"flood"}]}}}"#;

/// A connection from `from` (any 127.0.0.0/8 address is loopback), with a
/// small receive buffer so that a client that stops reading is felt soon.
async fn connect_from(from: Ipv4Addr, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(16 << 10).unwrap();
    socket.bind(SocketAddr::new(IpAddr::V4(from), 0)).unwrap();
    socket.connect(to).await.unwrap()
}

fn head(path: &str, extra: &str, length: usize) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nhost: agent.test\r\ncontent-type: application/json\r\na2a-version: 1.0\r\n{extra}content-length: {length}\r\n\r\n"
    )
}

/// Reads until the peer closes (a reset counts) or `limit` passes.
async fn read_to_close(stream: &mut TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    match tokio::time::timeout(limit, stream.read_to_end(&mut out)).await {
        Ok(_) => Some(out),
        Err(_) => None,
    }
}

fn status(answer: &[u8]) -> u16 {
    let text = String::from_utf8_lossy(answer);
    text.split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn an_sse_stream_whose_client_stops_reading_is_closed_after_the_write_timeout() {
    let limits = HostLimits::default().with_write_timeout(Duration::from_millis(400));
    let options = ServeOptions::default().with_limits(limits);
    let stats = options.stats();
    let agent = start_with(server_config(), options).await;
    let mut stream = connect_from(Ipv4Addr::LOCALHOST, agent.addr).await;
    let request = head("/", "accept: text/event-stream\r\n", FLOOD.len());
    stream.write_all(request.as_bytes()).await.unwrap();
    stream.write_all(FLOOD.as_bytes()).await.unwrap();
    let mut first = [0; 12];
    stream.read_exact(&mut first).await.unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    // The client reads nothing more: the socket's buffers fill, hyper
    // stops taking events, and after the timeout the connection closes.
    let started = Instant::now();
    while stats.writes_timed_out() == 0 && started.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let took = started.elapsed();
    assert_eq!(stats.writes_timed_out(), 1, "cut after {took:?}");
    // What was buffered can still be read, then the end: the stream is
    // over, not endless.
    let rest = read_to_close(&mut stream, Duration::from_secs(10)).await;
    assert!(rest.is_some(), "the connection was closed");
}

/// An h2c connection whose streams' windows are 64 KiB and opened only by
/// reading: a response body left unread keeps its window closed.
async fn h2c(addr: SocketAddr) -> hyper::client::conn::http2::SendRequest<Full<Bytes>> {
    let tcp = TcpStream::connect(addr).await.unwrap();
    let (sender, conn) = hyper::client::conn::http2::Builder::new(TokioExecutor::new())
        .initial_stream_window_size(65_535)
        .handshake(TokioIo::new(tcp))
        .await
        .unwrap();
    tokio::spawn(conn);
    sender
}

/// Sends `request` on a fresh h2c connection, leaves its body unread until
/// the server cut it, then reads it: the error h2 reports, and whether the
/// connection still serves another call (the reset was the stream's
/// alone).
async fn unread_over_h2(addr: SocketAddr, request: Request<Full<Bytes>>) -> (String, bool) {
    let mut sender = h2c(addr).await;
    let response = sender.send_request(request).await.unwrap();
    assert_eq!(response.status(), 200);
    let mut body = response.into_body();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let error = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match body.frame().await {
                Some(Ok(_)) => {}
                Some(Err(e)) => break format!("{e:?}"),
                None => break "ended".to_owned(),
            }
        }
    })
    .await
    .expect("the stream ends once read");
    let card = Request::get(format!("http://{addr}/.well-known/agent-card.json"))
        .body(Full::new(Bytes::new()))
        .unwrap();
    let still = matches!(sender.send_request(card).await, Ok(r) if r.status() == 200);
    (error, still)
}

#[tokio::test]
async fn http2_streams_whose_window_stays_closed_are_reset_alone() {
    let limits = HostLimits::default().with_write_timeout(Duration::from_millis(300));
    let options = ServeOptions::default().with_limits(limits);
    let stats = options.stats();
    let agent = start_with(server_config(), options).await;

    // gRPC: RST_STREAM(CANCEL), which gRPC clients read as CANCELLED.
    let message = SendMessageRequest::new(Message::user_text("m-1", "flood"));
    let call = Request::post(format!(
        "http://{}{}",
        agent.addr,
        grpc::method_path(Operation::SendStreamingMessage)
    ))
    .header("content-type", "application/grpc")
    .header("te", "trailers")
    .header("a2a-version", "1.0")
    .body(Full::new(grpc::encode_message(&message).unwrap()))
    .unwrap();
    let (error, still) = unread_over_h2(agent.addr, call).await;
    assert!(error.contains("CANCEL"), "{error}");
    assert!(still, "the connection serves on");
    assert_eq!(stats.writes_timed_out(), 1);

    // SSE over HTTP/2: the same reset.
    let sse = Request::post(format!("http://{}/", agent.addr))
        .header("content-type", "application/json")
        .header("accept", "text/event-stream")
        .header("a2a-version", "1.0")
        .body(Full::new(Bytes::from_static(FLOOD.as_bytes())))
        .unwrap();
    let (error, still) = unread_over_h2(agent.addr, sse).await;
    assert!(error.contains("CANCEL"), "{error}");
    assert!(still);
    assert_eq!(stats.writes_timed_out(), 2);
}

/// The issue's trickle, scaled down: a body of the server's limit less 30
/// bytes at once, then a byte every `every`, on its own connection; what
/// the server answered.
async fn trickle(addr: SocketAddr, from: Ipv4Addr, size: usize, every: Duration) -> Vec<u8> {
    let mut stream = connect_from(from, addr).await;
    stream
        .write_all(head("/", "", size).as_bytes())
        .await
        .unwrap();
    stream.write_all(&vec![b' '; size - 30]).await.unwrap();
    let mut answer = Vec::new();
    let mut buf = [0; 4096];
    loop {
        tokio::select! {
            read = stream.read(&mut buf) => match read {
                Ok(0) | Err(_) => return answer,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            },
            () = tokio::time::sleep(every) => {
                if stream.write_all(b" ").await.is_err() {
                    return answer;
                }
            }
        }
    }
}

/// A JSON-RPC `SendMessage` of about 1 KB from `from`: the answer's status.
async fn one_kilobyte(addr: SocketAddr, from: Ipv4Addr) -> u16 {
    let text = "a".repeat(900);
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{{"message":{{"messageId":"m","role":"ROLE_USER","parts":[{{"text":"{text}"}}]}}}}}}"#
    );
    let mut stream = connect_from(from, addr).await;
    let request = head("/", "connection: close\r\n", body.len()) + &body;
    stream.write_all(request.as_bytes()).await.unwrap();
    let answer = read_to_close(&mut stream, Duration::from_secs(5))
        .await
        .expect("answered");
    status(&answer)
}

const BODY: usize = 16 << 10;

#[tokio::test]
async fn bodies_that_burst_then_trickle_no_longer_hold_the_budget() {
    // The issue's numbers over 1024: 16 KiB bodies, 128 KiB in flight, a
    // byte every 250 ms; 500 ms windows at 1 KiB/s (512 bytes each).
    let limits = HostLimits::default()
        .with_max_body_bytes_in_flight(8 * BODY)
        .with_max_body_bytes_per_peer(8 * BODY)
        .with_body_stall_timeout(Duration::from_millis(500))
        .with_min_body_rate(1024);
    let options = ServeOptions::default().with_limits(limits);
    let stats = options.stats();
    let agent = start_with(server_config().with_max_body_size(BODY), options).await;
    let every = Duration::from_millis(250);
    let tricklers: Vec<_> = (0..8)
        .map(|_| tokio::spawn(trickle(agent.addr, Ipv4Addr::LOCALHOST, BODY, every)))
        .collect();
    // Averaged from the start, they would hold the budget for
    // 0.5 + 16 s; measured per window, for one window after the burst.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let started = Instant::now();
    assert_eq!(one_kilobyte(agent.addr, Ipv4Addr::LOCALHOST).await, 200);
    assert!(started.elapsed() < Duration::from_secs(1));
    for trickler in tricklers {
        let answer = tokio::time::timeout(Duration::from_secs(5), trickler)
            .await
            .expect("answered")
            .unwrap();
        assert_eq!(status(&answer), 408, "{}", String::from_utf8_lossy(&answer));
    }
    assert_eq!(stats.bodies_timed_out(), 8);
}

#[tokio::test]
async fn one_peer_cannot_take_the_whole_body_budget() {
    // The default share: a quarter of the budget, two whole bodies.
    let limits = HostLimits::default()
        .with_max_body_bytes_in_flight(8 * BODY)
        .with_max_body_bytes_per_peer(2 * BODY)
        .with_body_stall_timeout(Duration::from_secs(5));
    let options = ServeOptions::default().with_limits(limits);
    let stats = options.stats();
    let agent = start_with(server_config().with_max_body_size(BODY), options).await;
    let greedy = Ipv4Addr::new(127, 0, 0, 2);
    let hogs: Vec<_> = (0..8)
        .map(|_| {
            tokio::spawn(trickle(
                agent.addr,
                greedy,
                BODY,
                Duration::from_millis(100),
            ))
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    // Six of the eight are over the share at once.
    assert_eq!(stats.bodies_over_budget(), 6);
    assert_eq!(one_kilobyte(agent.addr, Ipv4Addr::LOCALHOST).await, 200);
    for hog in hogs {
        hog.abort();
    }
}

#[tokio::test]
async fn a_peer_past_its_requests_in_flight_gets_503_and_others_are_served() {
    let limits = HostLimits::default().with_max_requests_per_peer(2);
    let options = ServeOptions::default().with_limits(limits);
    let stats = options.stats();
    let agent = start_with(server_config(), options).await;
    let slow = r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"slow"}]}}}"#;
    let busy = Ipv4Addr::new(127, 0, 0, 3);
    let mut waiting = Vec::new();
    for _ in 0..2 {
        let mut stream = connect_from(busy, agent.addr).await;
        let request = head("/", "", slow.len()) + slow;
        stream.write_all(request.as_bytes()).await.unwrap();
        waiting.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut third = connect_from(busy, agent.addr).await;
    let request = head("/", "connection: close\r\n", slow.len()) + slow;
    third.write_all(request.as_bytes()).await.unwrap();
    let answer = read_to_close(&mut third, Duration::from_secs(2))
        .await
        .expect("answered at once");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains("\r\nretry-after: 1\r\n"), "{text}");
    assert!(text.contains("requests in flight"), "{text}");
    assert_eq!(stats.requests_refused(), 1);
    // Another address is not held to this one's count.
    assert_eq!(one_kilobyte(agent.addr, Ipv4Addr::LOCALHOST).await, 200);
}
