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
