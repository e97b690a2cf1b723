//! Issue 28, point 1, on loopback with the host's default limits: 1,030
//! `SubscribeToTask` streams on one long task (each busy for as long as
//! the task runs, kept so by keep-alive comments) and a fresh `echo hi` is
//! still served within a second. Before, a connection with a stream in
//! flight was never shed, so past the cap of 1,024 every new connection
//! was closed at once.
//!
//! The subscribers come from five loopback addresses (206 each, under the
//! per-peer cap of 256), so it is the global cap that sheds the stream
//! quiet longest; then 300 more from one address meet the per-peer cap,
//! which sheds that address's own, and its next caller is served too.

mod support;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use serde_json::json;
use support::wire::*;
use tokio::net::{TcpSocket, TcpStream};

/// Writes all of `bytes` (the tests' tokio has no `io-util`).
async fn write_all(stream: &TcpStream, mut bytes: &[u8]) -> std::io::Result<()> {
    while !bytes.is_empty() {
        stream.writable().await?;
        match stream.try_write(bytes) {
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Reads until `done` holds for what came, or the peer closes.
async fn read_until(stream: &TcpStream, done: impl Fn(&[u8]) -> bool) -> Vec<u8> {
    let mut got = Vec::new();
    let mut buf = [0; 4096];
    while !done(&got) {
        if stream.readable().await.is_err() {
            break;
        }
        match stream.try_read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(_) => break,
        }
    }
    got
}

async fn connect_from(from: Ipv4Addr, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(IpAddr::V4(from), 0)).unwrap();
    socket.connect(to).await.unwrap()
}

fn post(body: &serde_json::Value, extra: &str) -> Vec<u8> {
    let body = body.to_string();
    format!(
        "POST / HTTP/1.1\r\nhost: agent.test\r\ncontent-type: application/json\r\na2a-version: 1.0\r\n{extra}content-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A subscriber of `task` from `from`, once its first event (the task)
/// has arrived.
async fn subscribe(from: Ipv4Addr, to: SocketAddr, task: &str) -> TcpStream {
    let stream = connect_from(from, to).await;
    let request =
        json!({"jsonrpc": "2.0", "id": 1, "method": "SubscribeToTask", "params": {"id": task}});
    write_all(&stream, &post(&request, "accept: text/event-stream\r\n"))
        .await
        .unwrap();
    let first = read_until(&stream, |got| got.windows(2).any(|w| w == b"\n\n")).await;
    let text = String::from_utf8_lossy(&first);
    assert!(
        text.starts_with("HTTP/1.1 200") && text.contains("TASK_STATE_WORKING"),
        "{text}"
    );
    stream
}

/// `count` subscribers from `from`, one after another: a connection
/// that has not sent its request yet is idle, and at the cap an idle one
/// is shed before any stream, so concurrent newcomers would shed each
/// other.
async fn subscribers(from: Ipv4Addr, to: SocketAddr, task: &str, count: usize) -> Vec<TcpStream> {
    let mut streams = Vec::new();
    for _ in 0..count {
        streams.push(subscribe(from, to, task).await);
    }
    streams
}

/// `echo hi` from `from`: how long until the whole answer, and the answer.
async fn echo(from: Ipv4Addr, to: SocketAddr) -> (Duration, String) {
    let started = Instant::now();
    let stream = connect_from(from, to).await;
    let request =
        json!({"jsonrpc": "2.0", "id": 2, "method": "SendMessage", "params": user("e", "echo hi")});
    write_all(&stream, &post(&request, "connection: close\r\n"))
        .await
        .unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(5), read_until(&stream, |_| false))
        .await
        .unwrap_or_default();
    (
        started.elapsed(),
        String::from_utf8_lossy(&answer).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_and_thirty_subscribers_do_not_lock_out_a_new_caller() {
    // Client and server ends of every connection are this process's files.
    let files = a2a_hyper::raise_fd_limit().expect("the open-file limit");
    assert!(
        files >= 4096,
        "this test needs 4096 open files (ulimit -Hn), the system allows {files}"
    );
    let run = async {
        let server = Server::start(&[]).await;
        let addr = server.addr;
        let c = server.client();
        let long = json!({"message": {"messageId": "long", "role": "ROLE_USER",
            "parts": [{"text": "slow 60000"}]}, "configuration": {"returnImmediately": true}});
        let task = c.call(Binding::JsonRpc, "SendMessage", long).await.unwrap();
        let task = task["task"]["id"].as_str().unwrap().to_owned();
        // `returnImmediately` answers once the task exists; its work takes
        // it to WORKING soon after, on a loaded machine not at once.
        let started = Instant::now();
        loop {
            let now = c
                .call(Binding::JsonRpc, "GetTask", json!({"id": task}))
                .await
                .unwrap();
            if now["status"]["state"] == "TASK_STATE_WORKING" {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "{now}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }

        let mut held = Vec::new();
        for peer in 2..=6 {
            let from = Ipv4Addr::new(127, 0, 0, peer);
            held.extend(subscribers(from, addr, &task, 206).await);
        }
        assert_eq!(held.len(), 1030);
        let (took, answer) = echo(Ipv4Addr::LOCALHOST, addr).await;
        assert!(
            answer.starts_with("HTTP/1.1 200") && answer.contains("TASK_STATE_COMPLETED"),
            "echo hi after 1,030 subscribers: {answer:?} in {took:?}"
        );
        assert!(took < Duration::from_secs(1), "served in {took:?}");
        // The stream shed for it was the one quiet longest: the first.
        let first = tokio::time::timeout(Duration::from_secs(5), read_until(&held[0], |_| false))
            .await
            .expect("the first subscriber's connection was closed");
        assert!(
            !String::from_utf8_lossy(&first).contains("TASK_STATE_COMPLETED"),
            "cut, not finished"
        );

        // One address past its own cap sheds its own streams.
        let one = Ipv4Addr::new(127, 0, 0, 7);
        held.extend(subscribers(one, addr, &task, 300).await);
        let (took, answer) = echo(one, addr).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
        assert!(took < Duration::from_secs(1), "served in {took:?}");
        drop(held);
        drop(server);
    };
    tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the test ends within 120 s");
}
