//! The server-side glue: hyper's HTTP/1.1 server around
//! [`A2aServer::handle`], which is a pure function from a request to a
//! response. A host reads the body (bounded), calls `handle`, and writes
//! the answer: complete bytes, or SSE frames as the agent produces them.
//!
//! That is all of it. The reference agent's own binary adds what a
//! production host also wants (SSE keep-alive comments, a request log,
//! graceful shutdown): see `a2a_reference_agent::serve`.

use std::convert::Infallible;
use std::io;
use std::sync::Arc;

use a2a_reference_agent::{AgentConfig, HttpPushSender, ReferenceAgent};
use a2a_transport::{
    server::ConfigError, webhook::Allowlist, A2aServer, A2aService, Body, ServerConfig,
};
use a2a_types::AgentInterface;
use bytes::Bytes;
use futures_util::StreamExt;
use http::{Request, Response, StatusCode};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

/// Serves `server` on every connection `listener` accepts, until the
/// future is dropped (or accepting fails).
pub async fn serve<S: A2aService + 'static>(
    listener: TcpListener,
    server: Arc<A2aServer<S>>,
) -> io::Result<()> {
    loop {
        let (socket, _peer) = listener.accept().await?;
        socket.set_nodelay(true)?;
        let server = Arc::clone(&server);
        // One task per connection; hyper calls the service per request.
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let server = Arc::clone(&server);
                async move { Ok::<_, Infallible>(respond(&server, request).await) }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(socket), service);
            // A client that goes away mid-request is not the server's error.
            let _ = connection.await;
        });
    }
}

/// One request: hyper's types in, `handle`, hyper's types out.
async fn respond<S: A2aService>(
    server: &A2aServer<S>,
    request: Request<Incoming>,
) -> Response<UnsyncBoxBody<Bytes, Infallible>> {
    let (head, body) = request.into_parts();
    // Refuse an oversized body by its Content-Length before reading it.
    if let Some(refused) = server.check_head(&head) {
        return to_hyper(refused);
    }
    let body = match Limited::new(body, server.config().max_body_size)
        .collect()
        .await
    {
        Ok(collected) => collected.to_bytes(),
        // Chunked and over the limit, or the client went away.
        Err(e) => {
            let status = match e.is::<LengthLimitError>() {
                true => StatusCode::PAYLOAD_TOO_LARGE,
                false => StatusCode::BAD_REQUEST,
            };
            let mut response = Response::new(Full::new(Bytes::new()).boxed_unsync());
            *response.status_mut() = status;
            return response;
        }
    };
    to_hyper(server.handle(Request::from_parts(head, body)).await)
}

/// A complete body as is; a stream as one data frame per SSE chunk.
fn to_hyper(response: Response<Body>) -> Response<UnsyncBoxBody<Bytes, Infallible>> {
    response.map(|body| match body {
        Body::Full(bytes) => Full::new(bytes).boxed_unsync(),
        Body::Stream(frames) => StreamBody::new(frames.map(|b| Ok(Frame::data(b)))).boxed_unsync(),
    })
}

/// The reference agent behind an [`A2aServer`], its card advertising
/// JSON-RPC at `{base_url}/` and HTTP+JSON at `{base_url}`, as the
/// `a2a-reference-agent` binary does (without authentication).
///
/// `base_url` is where clients reach the listener, e.g.
/// `http://127.0.0.1:8080`.
pub fn reference_agent(base_url: &str) -> Result<Arc<A2aServer<ReferenceAgent>>, ConfigError> {
    let base = base_url.trim_end_matches('/');
    let config = AgentConfig::default().with_interfaces(vec![
        AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
        AgentInterface::new(base, "HTTP+JSON", "1.0"),
    ]);
    // Webhooks are delivered over HTTP to public addresses only (spec 13.2).
    let agent = ReferenceAgent::new(config, Arc::new(HttpPushSender::new(Allowlist::new())));
    let card = agent.agent_card().clone();
    A2aServer::new(agent, card, ServerConfig::new()).map(Arc::new)
}
