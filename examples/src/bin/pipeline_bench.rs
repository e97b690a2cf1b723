//! The two servers `scripts/bench-agent` measures beside the reference
//! agent, on the same hyper host, to price the library's pipeline:
//!
//! - `--mode floor --body FILE`: hyper (hyper-util's auto builder, as
//!   `a2a_hyper::serve` runs it) answering every request with the bytes of
//!   FILE as `application/json`, after reading the request body; no A2A
//!   work at all (the HTTP floor).
//! - `--mode constant --task FILE`: an [`A2aServer`] over an agent whose
//!   `SendMessage` answers the Task in FILE (ProtoJSON) without doing
//!   anything, served by `a2a_hyper::serve`; every other step is the
//!   library's (routing, version, decoding, validation, encoding).
//!
//! ```text
//! pipeline-bench --mode floor --body answer.json --port 18181
//! pipeline-bench --mode constant --task task.json --port 18182
//! ```

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use a2a_hyper::{serve, ServeOptions};
use a2a_transport::{A2aServer, A2aService, BoxFuture, CallContext, ServerConfig};
use a2a_types::{A2aError, AgentCard, SendMessageRequest, SendMessageResponse, Task};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;

/// An agent that answers one Task to every message.
struct Constant(Task);

impl A2aService for Constant {
    fn send_message<'a>(
        &'a self,
        _: &'a CallContext,
        _: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        Box::pin(std::future::ready(Ok(SendMessageResponse::Task(
            self.0.clone(),
        ))))
    }
}

fn usage() -> ! {
    eprintln!("usage: pipeline-bench --mode floor|constant --port N (--body FILE | --task FILE)");
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut mode = String::new();
    let mut port = 0u16;
    let mut file = String::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--mode" => mode = value,
            "--port" => port = value.parse().unwrap_or_else(|_| usage()),
            "--body" | "--task" => file = value,
            _ => usage(),
        }
    }
    let bytes = std::fs::read(&file)?;
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await?;
    match mode.as_str() {
        "floor" => floor(listener, Bytes::from(bytes)).await,
        "constant" => {
            let task: Task = a2a_types::from_slice(&bytes).map_err(std::io::Error::other)?;
            // The reference agent's card: a valid card declaring what the
            // server serves (JSON-RPC at `/`, HTTP+JSON at the root).
            let reference = a2a_reference_agent::ReferenceAgent::new(
                a2a_reference_agent::AgentConfig::default(),
                Arc::new(a2a_reference_agent::RecordingPushSender::new()),
            );
            let card: AgentCard = reference.agent_card().clone();
            let server = A2aServer::new(Constant(task), card, ServerConfig::new())
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

async fn floor(listener: TcpListener, body: Bytes) -> std::io::Result<()> {
    loop {
        let (stream, _) = listener.accept().await?;
        let body = body.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request: Request<hyper::body::Incoming>| {
                let body = body.clone();
                async move {
                    // Read the request as the A2A servers do.
                    let _ = request.into_body().collect().await;
                    let mut response = Response::new(Full::new(body));
                    response.headers_mut().insert(
                        http::header::CONTENT_TYPE,
                        http::HeaderValue::from_static("application/json"),
                    );
                    Ok::<_, Infallible>(response)
                }
            });
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
