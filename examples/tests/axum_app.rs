//! The axum example on loopback: the reference agent mounted at the root
//! and under `/a2a`, beside the app's own `/health`, reached with
//! `a2a_hyper::HyperClient`.

use std::net::SocketAddr;
use std::time::Duration;

use a2a_examples::axum_app::{app, app_under_prefix};
use a2a_examples::server::reference_agent;
use a2a_hyper::{server_config, HyperClient, TokioTimer};
use a2a_transport::{client::Preferences, discover, A2aService, Binding, CallContext, HttpClient};
use a2a_types::{Message, SendMessageRequest, SendMessageResponse, TaskState};
use bytes::Bytes;
use futures_util::StreamExt;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Serves `router` on a free loopback port.
async fn start(router: impl FnOnce(&str) -> axum::Router) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = router(&format!("http://{addr}"));
    tokio::spawn(async move { axum::serve(listener, router).await });
    addr
}

/// A GET through the client: status and body.
async fn get(url: &str) -> (u16, String) {
    let request = http::Request::get(url).body(Bytes::new()).unwrap();
    let response = HyperClient::new().send(request).await.unwrap();
    let status = response.status().as_u16();
    let mut body = response.into_body();
    let mut text = Vec::new();
    while let Some(chunk) = body.next().await {
        text.extend_from_slice(&chunk.unwrap());
    }
    (status, String::from_utf8(text).unwrap())
}

/// `echo <text>` over each binding the card at `base_url` offers; answers
/// the artifact texts.
async fn echo_over_both_bindings(base_url: &str, text: &str) -> Vec<String> {
    let mut echoed = Vec::new();
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let prefs = Preferences::new().with_bindings([binding]);
        let agent = discover(HyperClient::new(), base_url, &prefs)
            .await
            .unwrap();
        assert_eq!(agent.transport.binding(), binding);
        let request = SendMessageRequest::new(Message::user_text("m-1", format!("echo {text}")));
        let reply = agent
            .transport
            .send_message(&CallContext::new(), request)
            .await
            .unwrap();
        let SendMessageResponse::Task(task) = reply else {
            panic!("a task")
        };
        assert_eq!(task.status.state, TaskState::Completed);
        echoed.push(task.artifacts[0].text_content().unwrap_or_default());
    }
    echoed
}

/// One raw HTTP/1.1 exchange; the server closes after answering.
async fn raw(addr: SocketAddr, head: &str, body: &[u8]) -> (u16, Value) {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    tcp.write_all(head.as_bytes()).await.unwrap();
    let _ = tcp.write_all(body).await;
    // Until the server closes (a reset after the answer ends it too).
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(Ok(n @ 1..)) =
        tokio::time::timeout(Duration::from_secs(5), tcp.read(&mut buf)).await
    {
        answer.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8(answer).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (
        head[9..12].parse().unwrap(),
        serde_json::from_str(body).unwrap_or(Value::Null),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_root_beside_the_apps_own_route() {
    let addr = start(|origin| app(reference_agent(origin, server_config()).unwrap())).await;
    let origin = format!("http://{addr}");

    assert_eq!(
        get(&format!("{origin}/health")).await,
        (200, "ok".to_owned())
    );
    let (status, card) = get(&format!("{origin}/.well-known/agent-card.json")).await;
    assert_eq!(status, 200);
    assert!(card.contains("\"A2A reference agent\""), "{card}");
    assert_eq!(echo_over_both_bindings(&origin, "hi").await, ["hi", "hi"]);

    // 3 MB: past axum's 2 MB extractor default, within the agent's 16 MiB.
    let big = "x".repeat(3 << 20);
    assert_eq!(
        echo_over_both_bindings(&origin, &big).await,
        [big.clone(), big]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_a_prefix_with_the_agents_own_limit_and_keep_alive() {
    let addr = start(|origin| {
        let config = server_config()
            .with_max_body_size(4096)
            .with_keep_alive(Duration::from_millis(50), TokioTimer)
            .with_public_path_prefix("/a2a");
        app_under_prefix(reference_agent(&format!("{origin}/a2a"), config).unwrap())
    })
    .await;
    let origin = format!("http://{addr}");
    let base_url = format!("{origin}/a2a");

    assert_eq!(
        get(&format!("{origin}/health")).await,
        (200, "ok".to_owned())
    );
    // The card under the prefix and at the origin's well-known URI, the
    // same, advertising the prefixed interfaces.
    let (status, card) = get(&format!("{base_url}/.well-known/agent-card.json")).await;
    assert_eq!(status, 200);
    assert_eq!(
        get(&format!("{origin}/.well-known/agent-card.json")).await,
        (200, card.clone())
    );
    assert!(card.contains(&format!("\"url\":\"{base_url}/\"")), "{card}");
    assert_eq!(echo_over_both_bindings(&base_url, "hi").await, ["hi", "hi"]);

    // Over the agent's limit: 413 with the binding's A2A error body,
    // whether the length is declared or the body is chunked.
    let head = "POST /a2a/ HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n\
                a2a-version: 1.0\r\nconnection: close\r\ntransfer-encoding: chunked\r\n\r\n";
    let chunk = format!("400\r\n{}\r\n", " ".repeat(0x400));
    let (status, body) = raw(
        addr,
        head,
        format!("{}0\r\n\r\n", chunk.repeat(5)).as_bytes(),
    )
    .await;
    assert_eq!(status, 413);
    assert_eq!(body["jsonrpc"], "2.0", "{body}");
    assert_eq!(body["error"]["code"], -32600, "{body}");
    let head = "POST /a2a/message:send HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n\
                a2a-version: 1.0\r\nconnection: close\r\ncontent-length: 100000\r\n\r\n";
    let (status, body) = raw(addr, head, b"").await;
    assert_eq!(status, 413);
    assert_eq!(body["error"]["code"], 413, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("limit of 4096 bytes"),
        "{body}"
    );

    // A quiet stream (`slow 300` says nothing for 300 ms) gets keep-alive
    // comments from the agent's configuration.
    let request = http::Request::post(format!("{base_url}/message:stream"))
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Bytes::from_static(
            br#"{"message":{"messageId":"k","role":"ROLE_USER","parts":[{"text":"slow 300"}]}}"#,
        ))
        .unwrap();
    let response = HyperClient::new().send(request).await.unwrap();
    assert_eq!(response.status(), 200);
    let mut body = response.into_body();
    let mut text = Vec::new();
    while let Some(chunk) = body.next().await {
        text.extend_from_slice(&chunk.unwrap());
    }
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains(": keep-alive\n"), "{text}");
    assert!(text.contains("TASK_STATE_COMPLETED"), "{text}");
}

/// What the `axum-app` binary serves builds, at the root and under `/a2a`
/// (issue 27: `--prefix` failed at start, the agent's server not told the
/// prefix its card's URLs carry), and answers under the prefix.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binarys_app_starts_at_the_root_and_under_a_prefix() {
    use a2a_examples::axum_app::reference_app;
    for prefix in [false, true] {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let (router, base_url) =
            reference_app(&origin, prefix).unwrap_or_else(|e| panic!("prefix {prefix}: {e}"));
        assert_eq!(base_url.ends_with("/a2a"), prefix);
        tokio::spawn(async move { axum::serve(listener, router).await });
        let (status, card) = get(&format!("{base_url}/.well-known/agent-card.json")).await;
        assert_eq!(status, 200, "{card}");
        assert!(card.contains(&format!("\"{base_url}/\"")), "{card}");
    }
}

/// The `axum-app` binary's app (the reference agent at the root) on a
/// loopback listener whose accepted sockets have small receive buffers,
/// with the agent's body limit at `max_body_size`.
async fn start_small_buffered(max_body_size: usize) -> SocketAddr {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    // Accepted sockets inherit it; a fixed buffer also turns autotuning
    // off, so a body several times larger cannot fit in flight.
    socket.set_recv_buffer_size(64 << 10).unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let listener = socket.listen(64).unwrap();
    let addr = listener.local_addr().unwrap();
    let config = server_config().with_max_body_size(max_body_size);
    let router = app(reference_agent(&format!("http://{addr}"), config).unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    addr
}

/// One request of `len` body bytes to JSON-RPC at `/`, declared with
/// `Content-Length` or chunked, written whole before the answer is read
/// (as simple clients do), from a socket with a small send buffer. The
/// answer until the server closes, or what failed: the write or the read.
async fn post_oversized(addr: SocketAddr, len: usize, chunked: bool) -> Result<String, String> {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_send_buffer_size(64 << 10).unwrap();
    let mut tcp = socket
        .connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let framing = if chunked {
        "transfer-encoding: chunked".to_owned()
    } else {
        format!("content-length: {len}")
    };
    let head = format!(
        "POST / HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n\
         a2a-version: 1.0\r\n{framing}\r\n\r\n"
    );
    let piece = vec![b' '; 64 << 10];
    let write = async {
        tcp.write_all(head.as_bytes()).await?;
        let mut left = len;
        while left > 0 {
            let n = left.min(piece.len());
            if chunked {
                tcp.write_all(format!("{n:x}\r\n").as_bytes()).await?;
            }
            tcp.write_all(&piece[..n]).await?;
            if chunked {
                tcp.write_all(b"\r\n").await?;
            }
            left -= n;
        }
        if chunked {
            tcp.write_all(b"0\r\n\r\n").await?;
        }
        Ok::<_, std::io::Error>(())
    };
    // A generous bound against a hang, not a timing assertion.
    match tokio::time::timeout(Duration::from_secs(60), write).await {
        Err(_) => return Err("writing the body: no progress in 60 s".to_owned()),
        Ok(Err(e)) => return Err(format!("writing the body: {e}")),
        Ok(Ok(())) => {}
    }
    let mut answer = Vec::new();
    match tokio::time::timeout(Duration::from_secs(60), tcp.read_to_end(&mut answer)).await {
        Err(_) => Err("reading the answer: no end in 60 s".to_owned()),
        Ok(Err(e)) => Err(format!(
            "reading the answer after {} bytes: {e}",
            answer.len()
        )),
        Ok(Ok(_)) => Ok(String::from_utf8_lossy(&answer).into_owned()),
    }
}

/// Issue 27: an oversized body got "Broken pipe" instead of 413 when the
/// server answered and closed while the client was still writing. Every
/// try, declared or chunked, must write its whole body and read a 413
/// with the JSON-RPC error body, the connection then closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_body_always_reads_413_never_a_broken_pipe() {
    const LIMIT: usize = 64 << 10;
    const TRIES: usize = 20;
    let addr = start_small_buffered(LIMIT).await;
    let mut failures = Vec::new();
    for try_ in 0..TRIES {
        for chunked in [false, true] {
            // 4 MiB: 64 times the limit, many times what the buffers of
            // both ends hold.
            let outcome = post_oversized(addr, 4 << 20, chunked).await;
            let form = if chunked { "chunked" } else { "content-length" };
            match outcome {
                Ok(answer) if answer.starts_with("HTTP/1.1 413 ") => {
                    let lower = answer.to_ascii_lowercase();
                    assert!(lower.contains("\r\nconnection: close\r\n"), "{answer}");
                    assert!(
                        answer.contains(&format!("exceeds the limit of {LIMIT} bytes")),
                        "{answer}"
                    );
                    assert!(answer.contains("\"jsonrpc\":\"2.0\""), "{answer}");
                }
                Ok(answer) => {
                    failures.push(format!("try {try_} {form}: {:?}", answer.lines().next()))
                }
                Err(why) => failures.push(format!("try {try_} {form}: {why}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} tries did not read a 413:\n{}",
        failures.len(),
        2 * TRIES,
        failures.join("\n")
    );
}

/// A declared oversized body sent with `Expect: 100-continue` is refused
/// at once: no `100 Continue` invites the body, the 413 is the first and
/// only answer, and the connection closes without waiting for a body.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_body_awaiting_100_continue_is_refused_without_it() {
    let addr = start_small_buffered(64 << 10).await;
    for _ in 0..5 {
        let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
        let head = "POST / HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n\
                    a2a-version: 1.0\r\nexpect: 100-continue\r\ncontent-length: 4194304\r\n\r\n";
        tcp.write_all(head.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(60), tcp.read_to_end(&mut answer))
            .await
            .expect("the server closes after the 413")
            .unwrap();
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 413 "), "{answer}");
        assert!(!answer.contains("100 Continue"), "{answer}");
    }
}

/// What the `axum-app` binary serves, with its default 16 MiB limit: a
/// 20 MiB body, declared and chunked, reads a 413 every time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binarys_app_answers_a_20_mib_body_with_413() {
    use a2a_examples::axum_app::reference_app;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (router, _) = reference_app(&format!("http://{addr}"), false).unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let mut failures = Vec::new();
    for try_ in 0..3 {
        for chunked in [false, true] {
            match post_oversized(addr, 20 << 20, chunked).await {
                Ok(answer) if answer.starts_with("HTTP/1.1 413 ") => {}
                Ok(answer) => failures.push(format!("try {try_}: {:?}", answer.lines().next())),
                Err(why) => failures.push(format!("try {try_} chunked {chunked}: {why}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
