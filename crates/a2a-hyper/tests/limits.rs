//! `serve` against idle, slow and greedy clients, on loopback: each
//! connection limit of `HostLimits` holds, the server keeps serving
//! everyone else, and what it refused or closed is counted.

mod support;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use a2a_hyper::{server_config, HostLimits, ServeOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use support::start_with;

const CARD: &str =
    "GET /.well-known/agent-card.json HTTP/1.1\r\nhost: agent.test\r\nconnection: close\r\n\r\n";

/// Reads until the peer closes (or `limit` passes), returning what came.
async fn read_to_close(stream: &mut TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let read = tokio::time::timeout(limit, stream.read_to_end(&mut out)).await;
    match read {
        Ok(Ok(_)) => Some(out),
        // A reset is a close too.
        Ok(Err(_)) => Some(out),
        Err(_) => None,
    }
}

async fn card_status(addr: SocketAddr) -> u16 {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(CARD.as_bytes()).await.unwrap();
    let answer = read_to_close(&mut stream, Duration::from_secs(1))
        .await
        .expect("answered within a second");
    let text = String::from_utf8_lossy(&answer);
    text.split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn more_idle_connections_than_the_cap_do_not_lock_out_a_request() {
    let options =
        ServeOptions::default().with_limits(HostLimits::default().with_max_connections(4));
    let stats = options.stats();
    let agent = start_with(server_config(), options).await;
    let mut idle = Vec::new();
    for _ in 0..12 {
        idle.push(TcpStream::connect(agent.addr).await.unwrap());
    }
    let started = Instant::now();
    assert_eq!(card_status(agent.addr).await, 200);
    assert!(started.elapsed() < Duration::from_secs(1));
    // Every connection past the fourth closed the one idle longest.
    assert!(stats.shed() >= 9, "shed {}", stats.shed());
    assert_eq!(stats.refused(), 0);
    // The oldest idle connection was closed by the server.
    let first = read_to_close(&mut idle[0], Duration::from_secs(2)).await;
    assert_eq!(first, Some(Vec::new()), "closed without a byte");
}

#[tokio::test]
async fn a_stalled_body_is_answered_408_within_its_timeout_and_released() {
    let limits = HostLimits::default().with_body_stall_timeout(Duration::from_millis(300));
    let options = ServeOptions::default().with_limits(limits);
    let stats = options.stats();
    let agent = start_with(server_config(), options).await;
    let mut stream = TcpStream::connect(agent.addr).await.unwrap();
    let head = "POST / HTTP/1.1\r\nhost: agent.test\r\ncontent-type: application/json\r\na2a-version: 1.0\r\ncontent-length: 1000\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(br#"{"jsonrpc":"2.0","#).await.unwrap();
    let started = Instant::now();
    let answer = read_to_close(&mut stream, Duration::from_secs(3))
        .await
        .expect("answered and closed");
    let elapsed = started.elapsed();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(
        text.contains(r#""jsonrpc":"2.0""#),
        "the binding's error body: {text}"
    );
    assert!(text.contains("stopped arriving"), "{text}");
    assert!(
        elapsed >= Duration::from_millis(250) && elapsed < Duration::from_secs(2),
        "{elapsed:?}"
    );
    assert_eq!(stats.bodies_timed_out(), 1);

    // HTTP+JSON names the status DEADLINE_EXCEEDED, not INVALID_ARGUMENT.
    let mut rest = TcpStream::connect(agent.addr).await.unwrap();
    rest.write_all(head.replace("POST / ", "POST /message:send ").as_bytes())
        .await
        .unwrap();
    rest.write_all(b"{").await.unwrap();
    let answer = read_to_close(&mut rest, Duration::from_secs(3))
        .await
        .expect("answered and closed");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains(r#""status":"DEADLINE_EXCEEDED""#), "{text}");
    // The server serves on.
    assert_eq!(card_status(agent.addr).await, 200);
}

#[tokio::test]
async fn idle_and_half_sent_connections_are_closed() {
    let limits = HostLimits::default()
        .with_idle_timeout(Duration::from_millis(200))
        .with_header_read_timeout(Duration::from_millis(300));
    let options = ServeOptions::default().with_limits(limits);
    let stats = options.stats();
    let agent = start_with(server_config(), options).await;

    let mut silent = TcpStream::connect(agent.addr).await.unwrap();
    let mut half_line = TcpStream::connect(agent.addr).await.unwrap();
    half_line
        .write_all(b"GET /.well-known/agent")
        .await
        .unwrap();
    let mut no_end = TcpStream::connect(agent.addr).await.unwrap();
    no_end
        .write_all(b"GET / HTTP/1.1\r\nhost: a\r\n")
        .await
        .unwrap();
    for stream in [&mut silent, &mut half_line, &mut no_end] {
        let closed = read_to_close(stream, Duration::from_secs(3)).await;
        assert!(closed.is_some(), "closed within its timeout");
    }
    // A kept-alive connection idles out after its request too.
    let mut kept = TcpStream::connect(agent.addr).await.unwrap();
    kept.write_all(CARD.replace("connection: close\r\n", "").as_bytes())
        .await
        .unwrap();
    let answer = read_to_close(&mut kept, Duration::from_secs(3))
        .await
        .unwrap();
    assert!(answer.starts_with(b"HTTP/1.1 200"));
    assert!(
        stats.idle_closed() >= 2,
        "idle closed {}",
        stats.idle_closed()
    );
}

#[tokio::test]
async fn a_stream_keeps_its_connection_past_the_idle_timeout() {
    // The test agent's stream is quiet for 150 ms between its two events.
    let limits = HostLimits::default().with_idle_timeout(Duration::from_millis(50));
    let agent = start_with(server_config(), ServeOptions::default().with_limits(limits)).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}"#;
    let head = format!(
        "POST / HTTP/1.1\r\nhost: agent.test\r\ncontent-type: application/json\r\naccept: text/event-stream\r\na2a-version: 1.0\r\nconnection: close\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    let mut stream = TcpStream::connect(agent.addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let answer = read_to_close(&mut stream, Duration::from_secs(3))
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.contains("TASK_STATE_WORKING"), "{text}");
    assert!(text.contains("TASK_STATE_COMPLETED"), "both events: {text}");
}

#[tokio::test]
async fn bodies_past_the_in_flight_budget_get_503() {
    let limits = HostLimits::default().with_max_body_bytes_in_flight(100);
    let options = ServeOptions::default().with_limits(limits);
    let stats = options.stats();
    let agent = start_with(server_config(), options).await;
    let head = "POST / HTTP/1.1\r\nhost: agent.test\r\ncontent-type: application/json\r\na2a-version: 1.0\r\ncontent-length: 1000\r\n\r\n";
    // The first holds 80 bytes of its body and waits.
    let mut first = TcpStream::connect(agent.addr).await.unwrap();
    first.write_all(head.as_bytes()).await.unwrap();
    first.write_all(&[b' '; 80]).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The second's 80 would make 160.
    let mut second = TcpStream::connect(agent.addr).await.unwrap();
    second.write_all(head.as_bytes()).await.unwrap();
    second.write_all(&[b' '; 80]).await.unwrap();
    let answer = read_to_close(&mut second, Duration::from_secs(2))
        .await
        .expect("answered at once");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains("budget"), "{text}");
    // A system error one may retry (spec 3.3.2): when, in the header and
    // in a RetryInfo; -32603 by the spec's JSON-RPC code for it.
    assert!(text.contains("\r\nretry-after: 1\r\n"), "{text}");
    assert!(text.contains(r#""code":-32603"#), "{text}");
    assert!(text.contains(r#""retryDelay":"1s""#), "{text}");
    assert_eq!(stats.bodies_over_budget(), 1);

    // HTTP+JSON says UNAVAILABLE in its google.rpc.Status, not INTERNAL.
    let rest = head.replace("POST / ", "POST /message:send ");
    let mut third = TcpStream::connect(agent.addr).await.unwrap();
    third.write_all(rest.as_bytes()).await.unwrap();
    third.write_all(&[b' '; 80]).await.unwrap();
    let answer = read_to_close(&mut third, Duration::from_secs(2))
        .await
        .expect("answered at once");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains("\r\nretry-after: 1\r\n"), "{text}");
    assert!(text.contains(r#""status":"UNAVAILABLE""#), "{text}");
    assert!(text.contains(r#""reason":"INTERNAL_ERROR""#), "{text}");
    drop(first);
}
