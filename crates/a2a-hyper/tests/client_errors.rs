//! Calls that never complete, over real sockets: each is a client error
//! (`ErrorKind::Client`, the client-local code `-32100`), not the agent's
//! `InternalError (-32603)`, and its `Display` and `{:?}` are one line with
//! the cause and a hint. Connection refused; gRPC (HTTP/2 with prior
//! knowledge) against a host that speaks only HTTP/1.1; an answer over
//! the response size limit.

use std::convert::Infallible;

use a2a_hyper::HyperClient;
use a2a_transport::client::ClientFailure;
use a2a_transport::{A2aService, Binding, CallContext, ClientConfig, HttpTransport};
use a2a_types::{A2aError, ErrorCode, ErrorKind, GetTaskRequest};
use bytes::Bytes;
use tokio::net::TcpListener;

/// Checks what every client error must be, and answers its `Display`.
fn client_error(e: &A2aError, failure: ClientFailure) -> String {
    assert_eq!(e.kind(), ErrorKind::Client, "{e:#?}");
    assert_eq!(e.code(), ErrorCode::CLIENT);
    assert!(e.is_client_failure());
    assert_eq!(ClientFailure::of(e), Some(failure), "{e:#?}");
    let shown = e.to_string();
    assert!(!shown.contains('\n'), "one line: {shown}");
    assert!(
        !shown.contains("InternalError") && !shown.contains("-32603"),
        "{shown}"
    );
    assert!(shown.contains("; hint: "), "{shown}");
    // What `?` in main prints: one line too.
    let debug = format!("{e:?}");
    assert_eq!(debug, format!("ClientError: {shown}"));
    shown
}

async fn get(transport: &HttpTransport<HyperClient>) -> A2aError {
    transport
        .get_task(&CallContext::new(), GetTaskRequest::new("t-1"))
        .await
        .expect_err("the call cannot complete")
}

/// Serves every connection with HTTP/1.1 only, answering `body` with 200.
async fn http1_only(body: &'static [u8]) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        loop {
            let (tcp, _) = listener.accept().await.unwrap();
            let service = hyper::service::service_fn(move |_r| async move {
                let response = http::Response::builder()
                    .header("content-type", "application/json")
                    .body(http_body_util::Full::new(Bytes::from_static(body)))
                    .unwrap();
                Ok::<_, Infallible>(response)
            });
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(tcp), service)
                    .await;
            });
        }
    });
    url
}

#[tokio::test]
async fn connection_refused_is_a_client_error() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let t = HttpTransport::new(HyperClient::new(), Binding::JsonRpc, &url).unwrap();
    let shown = client_error(&get(&t).await, ClientFailure::Connection);
    assert!(shown.starts_with("no answer from the agent: "), "{shown}");
    assert!(shown.contains("refused"), "{shown}");
    assert!(
        shown.ends_with("hint: is the agent running, and is this its URL?"),
        "{shown}"
    );
}

#[tokio::test]
async fn grpc_against_an_http1_host_is_a_client_error() {
    let url = http1_only(b"{}").await;
    let t = HttpTransport::new(HyperClient::new(), Binding::Grpc, &url).unwrap();
    let e = get(&t).await;
    assert!(e.is_client_failure(), "{e:#?}");
    let failure = ClientFailure::of(&e).unwrap();
    let shown = client_error(&e, failure);
    // hyper reports the HTTP/1.1 answer to its HTTP/2 preface as a
    // protocol error or a lost connection, depending on timing.
    assert!(
        matches!(
            failure,
            ClientFailure::HttpClient | ClientFailure::Connection
        ),
        "{failure:?}"
    );
    assert!(shown.contains("gRPC needs HTTP/2"), "{shown}");
    assert!(shown.contains("HTTP/1.1-only host"), "{shown}");
}

#[tokio::test]
async fn an_answer_over_the_size_limit_is_a_client_error() {
    let url = http1_only(br#"{"jsonrpc":"2.0","id":1,"result":{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING"},"metadata":{"padding":"0123456789012345678901234567890123456789"}}}"#).await;
    let t = HttpTransport::new(HyperClient::new(), Binding::JsonRpc, &url)
        .unwrap()
        .with_config(ClientConfig::new().with_max_response_body(64));
    let shown = client_error(&get(&t).await, ClientFailure::ResponseTooLarge);
    assert!(shown.contains("64"), "{shown}");
    assert!(shown.contains("max_response_body"), "{shown}");
}

#[tokio::test]
async fn the_agent_s_own_internal_error_stays_the_agent_s() {
    let url = http1_only(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"the database is down"}}"#,
    )
    .await;
    let t = HttpTransport::new(HyperClient::new(), Binding::JsonRpc, &url).unwrap();
    let e = get(&t).await;
    assert_eq!(e.kind(), ErrorKind::Internal);
    assert!(!e.is_client_failure());
    assert_eq!(
        e.to_string(),
        "InternalError (-32603): the database is down"
    );
}
