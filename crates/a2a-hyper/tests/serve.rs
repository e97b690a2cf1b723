//! `serve` and `HyperClient` against each other on loopback: both HTTP
//! versions, https with ALPN, the body limit, keep-alive comments,
//! graceful shutdown, and the client's errors.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_hyper::{serve, server_config, ClientOptions, HyperClient, ServeOptions};
use a2a_transport::server::TowerService;
use a2a_transport::{
    client::HttpError, A2aServer, A2aService, Binding, CallContext, HttpClient, HttpTransport,
    ServerConfig,
};
use a2a_types::{Message, SendMessageRequest, SendMessageResponse, TaskState};
use bytes::Bytes;
use futures_core::Stream;
use http::Version;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tower_service::Service as _;

mod support;

use support::{card, start, Agent};

fn message() -> SendMessageRequest {
    SendMessageRequest::new(Message::user_text("m-1", "hi"))
}

#[tokio::test]
async fn http1_and_h2c_reach_the_agent_on_both_bindings() {
    let agent = start(server_config()).await;
    let base = format!("http://{}", agent.addr);
    let h2c = HyperClient::with_options({
        let mut o = ClientOptions::default();
        o.http2_prior_knowledge = true;
        o
    });
    for client in [HyperClient::new(), h2c] {
        for (binding, url) in [
            (Binding::JsonRpc, format!("{base}/")),
            (Binding::HttpJson, base.clone()),
        ] {
            let transport = HttpTransport::new(client.clone(), binding, &url).unwrap();
            let cx = CallContext::new();
            let SendMessageResponse::Task(task) =
                transport.send_message(&cx, message()).await.unwrap()
            else {
                panic!("a task")
            };
            assert_eq!(task.status.state, TaskState::Completed);
        }
    }
    let versions: Vec<Version> = agent
        .log
        .lock()
        .unwrap()
        .iter()
        .map(|l| l.version)
        .collect();
    assert_eq!(
        versions,
        [
            Version::HTTP_11,
            Version::HTTP_11,
            Version::HTTP_2,
            Version::HTTP_2
        ]
    );
    let line = agent.log.lock().unwrap()[1].to_string();
    assert!(
        line.starts_with("127.0.0.1:") && line.contains(" POST /message:send 200 "),
        "{line}"
    );
}

/// One raw HTTP/1.1 exchange; the server closes after answering.
async fn raw(addr: SocketAddr, head: &str, body: &[u8]) -> (u16, String) {
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
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

#[tokio::test]
async fn bodies_over_the_servers_limit_get_413_with_the_bindings_error_body() {
    let agent = start(server_config().with_max_body_size(1024)).await;
    // Declared too long: refused before reading, JSON-RPC error body.
    let head = "POST / HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n\
                a2a-version: 1.0\r\nconnection: close\r\ncontent-length: 2048\r\n\r\n";
    let (status, body) = raw(agent.addr, head, &[b' '; 2048]).await;
    assert_eq!(status, 413);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["jsonrpc"], "2.0");
    assert_eq!(v["error"]["code"], -32600, "{v}");

    // Chunked, growing past the limit: read up to it, google.rpc.Status body.
    let head = "POST /message:send HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n\
                a2a-version: 1.0\r\nconnection: close\r\ntransfer-encoding: chunked\r\n\r\n";
    let chunk = format!("200\r\n{}\r\n", " ".repeat(512));
    let chunked = format!("{}0\r\n\r\n", chunk.repeat(4));
    let (status, body) = raw(agent.addr, head, chunked.as_bytes()).await;
    assert_eq!(status, 413);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"]["code"], 413, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("limit of 1024 bytes"),
        "{v}"
    );

    // Within the limit, chunked too: the request goes through.
    let small = r#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#;
    let chunked = format!("{:x}\r\n{small}\r\n0\r\n\r\n", small.len());
    let (status, body) = raw(agent.addr, head, chunked.as_bytes()).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn quiet_streams_carry_keep_alive_comments_and_shutdown_lets_them_finish() {
    let config =
        ServerConfig::new().with_keep_alive(Duration::from_millis(30), a2a_hyper::TokioTimer);
    let agent = start(config).await;
    let transport = HttpTransport::new(
        HyperClient::new(),
        Binding::HttpJson,
        &format!("http://{}", agent.addr),
    )
    .unwrap();
    let request = http::Request::post(format!("http://{}/message:stream", agent.addr))
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Bytes::from_static(
            br#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#,
        ))
        .unwrap();
    let response = transport.client().send(request).await.unwrap();
    assert_eq!(response.status(), 200);
    // Shut down while the stream is open: it still runs to its end.
    let _ = agent.stop.send(());
    let text = String::from_utf8(collect(response.into_body()).await).unwrap();
    assert!(text.contains(": keep-alive\n"), "{text}");
    assert!(
        text.contains("WORKING") && text.contains("COMPLETED"),
        "{text}"
    );
    tokio::time::timeout(Duration::from_secs(5), agent.task)
        .await
        .unwrap()
        .unwrap();
    assert!(
        tokio::net::TcpStream::connect(agent.addr).await.is_err(),
        "no longer listening"
    );
}

async fn collect(mut body: a2a_transport::client::ResponseBody) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(chunk) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_next(cx)).await {
        out.extend_from_slice(&chunk.unwrap());
    }
    out
}

#[tokio::test]
async fn https_negotiates_h2_by_alpn() {
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    let der = cert.cert.der().clone();
    let key = rustls::pki_types::PrivatePkcs8KeyDer::from(cert.key_pair.serialize_der());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut tls = rustls::ServerConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![der.clone()], key.into())
        .unwrap();
    tls.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(tls));

    // The transport's TowerService behind a TLS listener.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = Arc::new(A2aServer::new(Agent, card(), ServerConfig::new()).unwrap());
    let versions = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&versions);
    tokio::spawn(async move {
        loop {
            let (tcp, _) = listener.accept().await.unwrap();
            let Ok(stream) = acceptor.accept(tcp).await else {
                continue;
            };
            let (service, seen) = (TowerService::new(Arc::clone(&server)), Arc::clone(&seen));
            let service =
                hyper::service::service_fn(move |request: http::Request<hyper::body::Incoming>| {
                    seen.lock().unwrap().push(request.version());
                    service.clone().call(request)
                });
            tokio::spawn(
                hyper_util::server::conn::auto::Builder::new(hyper_util::rt::TokioExecutor::new())
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .into_owned(),
            );
        }
    });

    let mut roots = rustls::RootCertStore::empty();
    roots.add(der).unwrap();
    let client_tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let mut options = ClientOptions::default();
    options.tls = Some(Arc::new(client_tls));
    let client = HyperClient::with_options(options);
    let url = format!("https://localhost:{port}/");
    let transport = HttpTransport::new(client, Binding::JsonRpc, &url).unwrap();
    let reply = transport
        .send_message(&CallContext::new(), message())
        .await
        .unwrap();
    assert!(
        matches!(reply, SendMessageResponse::Task(t) if t.status.state == TaskState::Completed)
    );
    assert_eq!(*versions.lock().unwrap(), [Version::HTTP_2]);

    // The default roots do not trust a self-signed certificate.
    let request = http::Request::get(url).body(Bytes::new()).unwrap();
    let err = HyperClient::new().send(request).await.unwrap_err();
    assert!(
        err.to_string().to_lowercase().contains("certificate"),
        "{err}"
    );
    assert!(
        matches!(err, HttpError::Other(_)) && !err.is_retryable(),
        "a TLS failure is final: {err:?}"
    );
}

#[tokio::test]
async fn client_failures_say_what_happened() {
    // Nothing listens on a port just released: a retryable connection failure.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let closed = format!("http://{}/", listener.local_addr().unwrap());
    drop(listener);
    let err = HyperClient::new()
        .send(http::Request::get(closed).body(Bytes::new()).unwrap())
        .await
        .unwrap_err();
    assert!(
        matches!(err, HttpError::Connection(_)) && err.is_retryable(),
        "{err:?}"
    );

    // A server that accepts but never answers: the response timeout.
    let silent = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", silent.local_addr().unwrap());
    tokio::spawn(async move {
        let _held = silent.accept().await;
        tokio::time::sleep(Duration::from_secs(30)).await;
    });
    let client = HyperClient::new().with_timeout(Duration::from_millis(200));
    let err = client
        .send(http::Request::get(url).body(Bytes::new()).unwrap())
        .await
        .unwrap_err();
    assert!(matches!(err, HttpError::Timeout(_)), "{err:?}");
}

#[tokio::test]
async fn static_documents_are_answered_before_the_agent() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = Arc::new(A2aServer::new(Agent, card(), server_config()).unwrap());
    let jwks = r#"{"keys":[]}"#;
    let options = ServeOptions::default()
        .with_static("/.well-known/jwks.json", "application/jwk-set+json", jwks)
        .unwrap();
    assert!(ServeOptions::default()
        .with_static("jwks.json", "application/json", "")
        .is_err());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(serve(listener, server, options, async {
        let _ = stopped.await;
    }));
    let get = |path: &str, method: &str| {
        format!("{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    };
    let (status, body) = raw(addr, &get("/.well-known/jwks.json", "GET"), b"").await;
    assert_eq!((status, body.as_str()), (200, jwks));
    let (status, body) = raw(addr, &get("/.well-known/jwks.json", "HEAD"), b"").await;
    assert_eq!((status, body.as_str()), (200, ""));
    // Other paths still reach the agent: the card, and 404 for nothing.
    let (status, body) = raw(addr, &get("/.well-known/agent-card.json", "GET"), b"").await;
    assert_eq!(status, 200);
    assert!(body.contains("supportedInterfaces"), "{body}");
    let (status, _) = raw(addr, &get("/.well-known/jwks.json", "POST"), b"").await;
    assert_ne!(status, 200);
    let _ = stop.send(());
    task.await.unwrap();
}

#[tokio::test]
async fn rendered_documents_are_rendered_for_each_request() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = Arc::new(A2aServer::new(Agent, card(), server_config()).unwrap());
    let scrapes = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = Arc::clone(&scrapes);
    let options = ServeOptions::default()
        .with_rendered("/metrics", "text/plain; version=0.0.4", move || {
            let n = counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            Bytes::from(format!("scrapes {n}\n"))
        })
        .unwrap();
    assert!(ServeOptions::default()
        .with_rendered("metrics", "text/plain", Bytes::new)
        .is_err());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(serve(listener, server, options, async {
        let _ = stopped.await;
    }));
    let get = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    assert_eq!(raw(addr, get, b"").await, (200, "scrapes 1\n".to_owned()));
    assert_eq!(raw(addr, get, b"").await, (200, "scrapes 2\n".to_owned()));
    let _ = stop.send(());
    task.await.unwrap();
}
