//! The servers `scripts/bench-agent` and `scripts/bench-floor` measure
//! beside the reference agent, on the same hyper host, to price the
//! library's pipeline:
//!
//! - `--mode floor --body FILE [--rest-body FILE] [--task FILE]`: hyper
//!   (hyper-util's auto builder, as `a2a_hyper::serve` runs it: HTTP/1.1
//!   and HTTP/2 with prior knowledge, `TCP_NODELAY`) answering every request with
//!   constant bytes after reading the request body; no A2A work at all
//!   (the HTTP floor). `POST /message:send` is answered the bytes of
//!   `--rest-body` as `application/a2a+json` (HTTP+JSON; default
//!   `--body`), a path under
//!   `/lf.a2a.v1.A2AService/` the gRPC-framed protobuf
//!   `SendMessageResponse` holding the Task in `--task` (ProtoJSON),
//!   encoded once at start by the library's own encoder (`a2a-proto`),
//!   with `content-type: application/grpc` and the trailer
//!   `grpc-status: 0`, and every other request the bytes of `--body` as
//!   `application/json` (the JSON-RPC answer). Without `--task`, gRPC
//!   paths get `--body` too.
//! - `--mode constant --task FILE`: [`constant_server`] answering the Task
//!   in FILE (ProtoJSON), served by `a2a_hyper::serve` on all three
//!   bindings; every other step is the library's (routing, version,
//!   decoding, validation, encoding). Its gRPC answer is byte for byte the
//!   floor's for the same FILE.
//! - `--mode grpc-request --text TEXT`: writes to stdout the gRPC-framed
//!   protobuf `SendMessageRequest` of a user message holding TEXT
//!   (`messageId` `bench-1`), the body `h2load -d` sends.
//!
//! ```text
//! pipeline-bench --mode floor --body answer.json --rest-body rest.json --task task.json --port 18181
//! pipeline-bench --mode constant --task task.json --port 18182
//! pipeline-bench --mode grpc-request --text 'echo hi' > send.grpc
//! ```

use std::convert::Infallible;
use std::io::Write;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use a2a_examples::constant::constant_server;
use a2a_hyper::{serve, ServeOptions};
use a2a_transport::grpc;
use a2a_types::{Message, SendMessageRequest, SendMessageResponse, Task};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue};
use http_body_util::BodyExt;
use hyper::body::{Frame, SizeHint};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;

fn usage() -> ! {
    eprintln!(
        "usage: pipeline-bench --mode floor --port N --body FILE [--rest-body FILE] [--task FILE]\n\
         \x20      pipeline-bench --mode constant --port N --task FILE\n\
         \x20      pipeline-bench --mode grpc-request --text TEXT > FILE"
    );
    std::process::exit(2)
}

/// The command line: every flag takes one value.
#[derive(Debug, Default)]
struct Options {
    mode: String,
    port: u16,
    body: Option<String>,
    rest_body: Option<String>,
    task: Option<String>,
    text: Option<String>,
}

impl Options {
    fn parse() -> Options {
        let mut o = Options::default();
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let value = args.next().unwrap_or_else(|| usage());
            match arg.as_str() {
                "--mode" => o.mode = value,
                "--port" => o.port = value.parse().unwrap_or_else(|_| usage()),
                "--body" => o.body = Some(value),
                "--rest-body" => o.rest_body = Some(value),
                "--task" => o.task = Some(value),
                "--text" => o.text = Some(value),
                _ => usage(),
            }
        }
        o
    }
}

fn read_task(path: &str) -> std::io::Result<Task> {
    a2a_types::from_slice(&std::fs::read(path)?).map_err(std::io::Error::other)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let o = Options::parse();
    if o.mode == "grpc-request" {
        let text = o.text.unwrap_or_else(|| usage());
        let request = SendMessageRequest::new(Message::user_text("bench-1", text));
        let frame = grpc::encode_message(&request).map_err(std::io::Error::other)?;
        return std::io::stdout().lock().write_all(&frame);
    }
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], o.port))).await?;
    match o.mode.as_str() {
        "floor" => {
            let jsonrpc = Bytes::from(std::fs::read(o.body.unwrap_or_else(|| usage()))?);
            let rest = match &o.rest_body {
                Some(path) => Bytes::from(std::fs::read(path)?),
                None => jsonrpc.clone(),
            };
            let grpc = match &o.task {
                Some(path) => {
                    let answer = SendMessageResponse::Task(read_task(path)?);
                    Some(grpc::encode_message(&answer).map_err(std::io::Error::other)?)
                }
                None => None,
            };
            floor(
                listener,
                Arc::new(Answers {
                    jsonrpc,
                    rest,
                    grpc,
                    grpc_trailers: grpc::ok_trailers(),
                }),
            )
            .await
        }
        "constant" => {
            let task = read_task(&o.task.unwrap_or_else(|| usage()))?;
            let server = constant_server(task, &format!("http://127.0.0.1:{}", o.port))
                .map_err(std::io::Error::other)?;
            serve(
                listener,
                Arc::new(server),
                ServeOptions::default(),
                std::future::pending(),
            )
            .await;
            Ok(())
        }
        _ => usage(),
    }
}

/// What the floor answers, built once at start.
#[derive(Debug)]
struct Answers {
    /// Every request that is neither of the two below.
    jsonrpc: Bytes,
    /// `POST /message:send`.
    rest: Bytes,
    /// A path under `/lf.a2a.v1.A2AService/`: one framed message.
    grpc: Option<Bytes>,
    /// `grpc-status: 0`, after the gRPC message.
    grpc_trailers: HeaderMap,
}

/// A constant response body: its bytes in one frame, then any trailers.
#[derive(Debug)]
struct Fixed {
    data: Option<Bytes>,
    trailers: Option<HeaderMap>,
}

impl hyper::body::Body for Fixed {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if let Some(data) = this.data.take() {
            return Poll::Ready(Some(Ok(Frame::data(data))));
        }
        Poll::Ready(this.trailers.take().map(|t| Ok(Frame::trailers(t))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none() && self.trailers.is_none()
    }

    /// Exact without trailers (hyper then writes a `content-length`); a
    /// lower bound with them, as the library's own gRPC answer says, so
    /// that the floor's response head is the library's.
    fn size_hint(&self) -> SizeHint {
        let len = self.data.as_ref().map_or(0, |d| d.len() as u64);
        if self.trailers.is_some() {
            let mut hint = SizeHint::new();
            hint.set_lower(len);
            hint
        } else {
            SizeHint::with_exact(len)
        }
    }
}

/// The constant response to a request at `path`.
fn answer(answers: &Answers, path: &str) -> Response<Fixed> {
    let (data, trailers, content_type) = match &answers.grpc {
        Some(message) if path.starts_with("/lf.a2a.v1.A2AService/") => (
            message.clone(),
            Some(answers.grpc_trailers.clone()),
            grpc::GRPC_CONTENT_TYPE,
        ),
        _ if path == "/message:send" => (answers.rest.clone(), None, "application/a2a+json"),
        _ => (answers.jsonrpc.clone(), None, "application/json"),
    };
    let mut response = Response::new(Fixed {
        data: Some(data),
        trailers,
    });
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static(content_type),
    );
    response
}

async fn floor(listener: TcpListener, answers: Arc<Answers>) -> std::io::Result<()> {
    loop {
        let (stream, _) = listener.accept().await?;
        // As `a2a_hyper::serve` does: without it, Nagle's algorithm holds
        // back the HTTP/2 frames that follow a response's first write.
        let _ = stream.set_nodelay(true);
        let answers = Arc::clone(&answers);
        tokio::spawn(async move {
            let service = service_fn(move |request: Request<hyper::body::Incoming>| {
                let answers = Arc::clone(&answers);
                async move {
                    let (head, body) = request.into_parts();
                    // Read the request as the A2A servers do.
                    let _ = body.collect().await;
                    Ok::<_, Infallible>(answer(&answers, head.uri.path()))
                }
            });
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
