//! `HyperClient` carrying gRPC (spec 10) to a real HTTP/2 server on
//! loopback: h2c with prior knowledge for `http://`, h2 by ALPN over
//! rustls for `https://`, trailers delivered to the transport, a server
//! stream, and errors in trailers. The server is hyper's HTTP/2 server
//! answering with the `grpc` wire functions.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use a2a_hyper::{ClientOptions, HyperClient};
use a2a_transport::{grpc, A2aService, Binding, CallContext, HttpTransport};
use a2a_types::{
    A2aError, ErrorKind, GetTaskRequest, StreamResponse, SubscribeToTaskRequest, Task, TaskState,
    TaskStatus, TaskStatusUpdateEvent,
};
use bytes::Bytes;
use futures_core::Stream;
use http::{HeaderMap, Version};
use http_body::Frame;
use http_body_util::BodyExt;
use tokio::net::TcpListener;

/// A response body of frames known in advance: data, then trailers.
struct Frames(VecDeque<Frame<Bytes>>);

impl http_body::Body for Frames {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(self.0.pop_front().map(Ok))
    }
}

fn task(id: &str, state: TaskState) -> Task {
    Task::new(id, "c1", state)
}

fn update(state: TaskState) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: "t1".into(),
        context_id: "c1".into(),
        status: TaskStatus::new(state),
        ..Default::default()
    })
}

/// What the server saw of each request: version, path, content-type, te,
/// a2a-version.
type Seen = Arc<Mutex<Vec<(Version, String, String, String, String)>>>;

/// The gRPC answer of one request: GetTask answers the task asked for;
/// SubscribeToTask two events, then NOT_FOUND in the trailers.
async fn answer(
    request: http::Request<hyper::body::Incoming>,
    seen: Seen,
) -> Result<http::Response<Frames>, Infallible> {
    let h = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned()
    };
    seen.lock().unwrap().push((
        request.version(),
        request.uri().path().to_owned(),
        h("content-type"),
        h("te"),
        h("a2a-version"),
    ));
    let path = request.uri().path().to_owned();
    let body = request.into_body().collect().await.unwrap().to_bytes();
    let message = grpc::decode_unary(&body, 1 << 20).unwrap();
    let (head, ()) = grpc::response_head().into_parts();
    let mut frames = VecDeque::new();
    let trailers: HeaderMap = match grpc::operation_of_path(&path) {
        Some(a2a_types::Operation::GetTask) => {
            let asked: GetTaskRequest = a2a_proto::decode(&message).unwrap();
            let reply = grpc::encode_message(&task(&asked.id, TaskState::Working)).unwrap();
            frames.push_back(Frame::data(reply));
            grpc::ok_trailers()
        }
        Some(a2a_types::Operation::SubscribeToTask) => {
            let asked: SubscribeToTaskRequest = a2a_proto::decode(&message).unwrap();
            assert_eq!(asked.id, "t1");
            for state in [TaskState::Working, TaskState::InputRequired] {
                frames.push_back(Frame::data(grpc::encode_message(&update(state)).unwrap()));
            }
            grpc::error_trailers(&A2aError::task_not_found("t1"))
        }
        _ => grpc::error_trailers(&A2aError::new(ErrorKind::MethodNotFound, "no")),
    };
    frames.push_back(Frame::trailers(trailers));
    Ok(http::Response::from_parts(head, Frames(frames)))
}

/// Serves `answer` over HTTP/2 on `listener`, through `tls` if given.
fn serve(listener: TcpListener, tls: Option<tokio_rustls::TlsAcceptor>) -> Seen {
    let seen: Seen = Arc::default();
    let record = Arc::clone(&seen);
    tokio::spawn(async move {
        loop {
            let (tcp, _) = listener.accept().await.unwrap();
            let seen = Arc::clone(&record);
            let service = hyper::service::service_fn(move |r| answer(r, Arc::clone(&seen)));
            let tls = tls.clone();
            tokio::spawn(async move {
                let builder =
                    hyper::server::conn::http2::Builder::new(hyper_util::rt::TokioExecutor::new());
                match tls {
                    None => {
                        let _ = builder
                            .serve_connection(hyper_util::rt::TokioIo::new(tcp), service)
                            .await;
                    }
                    Some(acceptor) => {
                        let Ok(stream) = acceptor.accept(tcp).await else {
                            return;
                        };
                        let _ = builder
                            .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                            .await;
                    }
                }
            });
        }
    });
    seen
}

async fn collect<S: Stream + Unpin>(mut s: S) -> Vec<S::Item> {
    let mut out = Vec::new();
    while let Some(item) = std::future::poll_fn(|cx| Pin::new(&mut s).poll_next(cx)).await {
        out.push(item);
    }
    out
}

/// A unary call, then a stream ending in an error status, through `client`.
async fn calls(client: HyperClient, url: &str, seen: &Seen) {
    let transport = HttpTransport::new(client, Binding::Grpc, url).unwrap();
    let cx = CallContext::new();
    let got = transport
        .get_task(&cx, GetTaskRequest::new("t-42"))
        .await
        .unwrap();
    assert_eq!(got, task("t-42", TaskState::Working));

    let stream = transport
        .stream_task(
            &cx,
            SubscribeToTaskRequest {
                id: "t1".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let events = collect(stream).await;
    assert_eq!(events.len(), 3, "{events:?}");
    assert_eq!(events[0].as_ref().unwrap(), &update(TaskState::Working));
    assert_eq!(
        events[1].as_ref().unwrap(),
        &update(TaskState::InputRequired)
    );
    // The trailers reached the transport: the status is the error.
    assert_eq!(
        events[2].as_ref().unwrap_err().kind(),
        ErrorKind::TaskNotFound
    );

    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    for (version, _, content_type, te, a2a_version) in &seen {
        assert_eq!(*version, Version::HTTP_2);
        assert_eq!(content_type, "application/grpc+proto");
        assert_eq!(te, "trailers");
        assert_eq!(a2a_version, "1.0");
    }
    assert_eq!(seen[0].1, "/lf.a2a.v1.A2AService/GetTask");
    assert_eq!(seen[1].1, "/lf.a2a.v1.A2AService/SubscribeToTask");
}

#[tokio::test]
async fn h2c_with_prior_knowledge_for_http_urls() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = serve(listener, None);
    // The default client: HTTP/1.1 for the JSON bindings, h2c for gRPC.
    calls(
        HyperClient::new(),
        &format!("http://127.0.0.1:{port}"),
        &seen,
    )
    .await;
}

#[tokio::test]
async fn h2_by_alpn_over_rustls_for_https_urls() {
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
    // h2 only: a client offering only http/1.1 would fail the handshake.
    tls.alpn_protocols = vec![b"h2".to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(tls));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = serve(listener, Some(acceptor));

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
    // A bare host:port is https.
    calls(client, &format!("localhost:{port}"), &seen).await;
}
