//! Raw gRPC for the wire scenarios (spec 10): a request built by hand (so
//! it can be malformed on purpose), its answer read whole with the
//! trailers. In memory the server's `handle` answers, under the call's
//! `grpc-timeout` as `a2a_hyper::serve` enforces it; over the network
//! hyper's HTTP/2 client with prior knowledge (h2c).

use std::fmt;
use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use a2a_transport::grpc::{self, FrameDecoder, GrpcStatus};
use a2a_transport::server::Chunk;
use a2a_transport::{A2aServer, A2aService, BoxFuture};
use bytes::{Bytes, BytesMut};
use http::{HeaderMap, Request, StatusCode};
use http_body_util::BodyExt;

/// The largest answer the scenarios read.
const MAX_BODY: usize = 16 * 1024 * 1024;

/// A gRPC answer read whole.
#[derive(Debug, Clone)]
pub struct GrpcReply {
    /// The HTTP status.
    pub status: StatusCode,
    /// The response head.
    pub headers: HeaderMap,
    /// The body, unframed.
    pub data: Bytes,
    /// The trailers; `None` for a trailers-only answer (the status is in
    /// the head) or an answer that ended without them.
    pub trailers: Option<HeaderMap>,
}

impl GrpcReply {
    /// The fields the status is in: the trailers, or the head of a
    /// trailers-only answer.
    pub fn status_fields(&self) -> &HeaderMap {
        self.trailers.as_ref().unwrap_or(&self.headers)
    }

    /// The call's status, if the answer has one.
    pub fn grpc_status(&self) -> Option<GrpcStatus> {
        grpc::read_status(self.status_fields())
    }

    /// Whether the answer is trailers-only: no body, `grpc-status` in the
    /// head.
    pub fn trailers_only(&self) -> bool {
        self.data.is_empty() && self.trailers.is_none() && self.headers.contains_key("grpc-status")
    }

    /// The messages of the body, or why they do not read.
    pub fn messages(&self) -> Result<Vec<Bytes>, String> {
        let mut decoder = FrameDecoder::new(MAX_BODY);
        decoder.push(&self.data);
        let mut out = Vec::new();
        while let Some(m) = decoder.next_message().map_err(|e| e.to_string())? {
            out.push(m);
        }
        decoder.finish().map_err(|e| e.to_string())?;
        Ok(out)
    }

    /// A short description for failure messages.
    pub fn describe(&self) -> String {
        let status = match self.grpc_status() {
            Some(s) => s.to_string(),
            None => "no grpc-status".to_owned(),
        };
        format!(
            "HTTP {} ({}), {} body bytes, {}{}",
            self.status.as_u16(),
            self.headers
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("no content-type"),
            self.data.len(),
            status,
            if self.trailers.is_some() {
                " in trailers"
            } else {
                " in the head"
            }
        )
    }
}

/// What carries a raw gRPC call to the agent.
pub trait GrpcWire: Send + Sync {
    /// Sends `request` (its path `/lf.a2a.v1.A2AService/{Method}`) and
    /// reads the answer whole, within `timeout`.
    fn call(
        &self,
        request: Request<Bytes>,
        timeout: Duration,
    ) -> BoxFuture<'_, Result<GrpcReply, String>>;
}

/// gRPC answered by an in-memory server's `handle`.
pub struct ServerGrpc<S> {
    server: Arc<A2aServer<S>>,
}

impl<S> ServerGrpc<S> {
    /// Calls on `server`.
    pub fn new(server: Arc<A2aServer<S>>) -> ServerGrpc<S> {
        ServerGrpc { server }
    }
}

impl<S> fmt::Debug for ServerGrpc<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ServerGrpc(..)")
    }
}

impl<S: A2aService + 'static> GrpcWire for ServerGrpc<S> {
    fn call(
        &self,
        request: Request<Bytes>,
        timeout: Duration,
    ) -> BoxFuture<'_, Result<GrpcReply, String>> {
        Box::pin(async move {
            let read = async {
                // As `a2a_hyper::serve` does: the core reads `grpc-timeout`,
                // the host, owning the clock, enforces it.
                let response = match a2a_hyper::grpc_deadline(request.headers()) {
                    Some(timeout) => {
                        a2a_hyper::within_grpc_deadline(timeout, self.server.handle(request)).await
                    }
                    None => self.server.handle(request).await,
                };
                let (parts, mut body) = response.into_parts();
                let (mut data, mut trailers) = (BytesMut::new(), None);
                while let Some(chunk) = poll_fn(|cx| Pin::new(&mut body).poll_chunk(cx)).await {
                    match chunk {
                        Chunk::Data(bytes) if data.len() + bytes.len() > MAX_BODY => {
                            return Err(format!("an answer over {MAX_BODY} bytes"))
                        }
                        Chunk::Data(bytes) => data.extend_from_slice(&bytes),
                        Chunk::Trailers(t) => trailers = Some(t),
                        other => {
                            return Err(format!("a body chunk the runner cannot read: {other:?}"))
                        }
                    }
                }
                Ok(GrpcReply {
                    status: parts.status,
                    headers: parts.headers,
                    data: data.freeze(),
                    trailers,
                })
            };
            tokio::time::timeout(timeout, read)
                .await
                .map_err(|_| format!("no whole answer within {timeout:?}"))?
        })
    }
}

/// gRPC over HTTP/2 with prior knowledge to `authority` (`host:port`):
/// a connection per call.
#[derive(Debug, Clone)]
pub struct H2cGrpc {
    authority: String,
}

impl H2cGrpc {
    /// Calls to the gRPC interface at `url`: `http://host:port[/...]` or
    /// `host:port`. `None` for `https` (the wire scenarios speak h2c only).
    pub fn for_url(url: &str) -> Option<H2cGrpc> {
        let rest = match url.split_once("://") {
            Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") => rest,
            Some(_) => return None,
            None => url,
        };
        let authority = rest.split('/').next()?.to_owned();
        let parsed: http::uri::Authority = authority.parse().ok()?;
        let authority = match parsed.port_u16() {
            Some(_) => authority,
            None => format!("{authority}:80"),
        };
        Some(H2cGrpc { authority })
    }
}

impl GrpcWire for H2cGrpc {
    fn call(
        &self,
        request: Request<Bytes>,
        timeout: Duration,
    ) -> BoxFuture<'_, Result<GrpcReply, String>> {
        Box::pin(async move {
            let exchange = async {
                let tcp = tokio::net::TcpStream::connect(&self.authority)
                    .await
                    .map_err(|e| format!("cannot connect to {}: {e}", self.authority))?;
                let _ = tcp.set_nodelay(true);
                let (mut sender, conn) = hyper::client::conn::http2::handshake(
                    hyper_util::rt::TokioExecutor::new(),
                    hyper_util::rt::TokioIo::new(tcp),
                )
                .await
                .map_err(|e| format!("no HTTP/2 with prior knowledge: {e}"))?;
                let driver = tokio::spawn(conn);
                let (mut parts, body) = request.into_parts();
                let uri = format!(
                    "http://{}{}",
                    self.authority,
                    parts.uri.path_and_query().map_or("/", |p| p.as_str())
                );
                parts.uri = uri.parse().map_err(|e| format!("{uri}: {e}"))?;
                let request = Request::from_parts(parts, http_body_util::Full::new(body));
                let response = sender
                    .send_request(request)
                    .await
                    .map_err(|e| format!("the call failed: {e}"))?;
                let (parts, mut body) = response.into_parts();
                let (mut data, mut trailers) = (BytesMut::new(), None);
                while let Some(frame) = body.frame().await {
                    let frame = frame.map_err(|e| format!("the answer broke off: {e}"))?;
                    match frame.into_data() {
                        Ok(bytes) if data.len() + bytes.len() > MAX_BODY => {
                            return Err(format!("an answer over {MAX_BODY} bytes"))
                        }
                        Ok(bytes) => data.extend_from_slice(&bytes),
                        Err(frame) => trailers = frame.into_trailers().ok(),
                    }
                }
                driver.abort();
                Ok(GrpcReply {
                    status: parts.status,
                    headers: parts.headers,
                    data: data.freeze(),
                    trailers,
                })
            };
            tokio::time::timeout(timeout, exchange)
                .await
                .map_err(|_| format!("no whole answer within {timeout:?}"))?
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interface_urls_name_an_authority() {
        let at = |url| H2cGrpc::for_url(url).map(|g| g.authority);
        assert_eq!(at("http://127.0.0.1:50051"), Some("127.0.0.1:50051".into()));
        assert_eq!(at("http://agent.test/a2a"), Some("agent.test:80".into()));
        assert_eq!(at("agent.test:8080"), Some("agent.test:8080".into()));
        assert_eq!(at("https://agent.test"), None);
    }
}
