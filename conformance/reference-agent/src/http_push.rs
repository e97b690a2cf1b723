//! [`HttpPushSender`]: push notifications over HTTP/1.1, checking the
//! socket address each delivery actually connects to (spec 13.2).

use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use a2a_transport::{
    webhook::Allowlist,
    webhook::{check_webhook_url, WebhookHost},
    BoxFuture,
};
use bytes::Bytes;
use http::{HeaderValue, Request, StatusCode, Uri};
use http_body_util::Full;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use crate::push::{PushError, PushSender};

/// Resolves a host name and port to socket addresses (DNS by default;
/// tests substitute their own to play a rebinding attacker).
pub type Resolver =
    Arc<dyn Fn(String, u16) -> BoxFuture<'static, io::Result<Vec<SocketAddr>>> + Send + Sync>;

/// Delivers push notifications with a plain HTTP/1.1 client on tokio.
///
/// For each notification it checks the URL again
/// ([`check_webhook_url`]), resolves the host itself, and connects only
/// to an address that [`WebhookTarget::check_connect_addr`](a2a_transport::webhook::WebhookTarget::check_connect_addr)
/// admits (public, or allowlisted; IPv4-mapped IPv6 addresses are judged
/// as the IPv4 address they carry); then it checks the peer address of
/// the connected socket once more. A name that resolves, or is rebound,
/// to loopback or a private network is refused with
/// [`PushError::Refused`], whatever the URL said. One connection per
/// notification; no redirects are followed.
///
/// `https` webhooks are refused: this sender carries no TLS stack (put a
/// TLS-terminating proxy on an allowlisted address in front, or supply a
/// [`PushSender`] that speaks TLS).
#[derive(Clone)]
pub struct HttpPushSender {
    allowlist: Allowlist,
    connect_timeout: Duration,
    resolver: Resolver,
}

impl fmt::Debug for HttpPushSender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpPushSender")
            .field("allowlist", &self.allowlist)
            .field("connect_timeout", &self.connect_timeout)
            .finish_non_exhaustive()
    }
}

impl HttpPushSender {
    /// A sender that admits the targets of `allowlist` besides public
    /// addresses, resolving names with the system resolver.
    pub fn new(allowlist: Allowlist) -> HttpPushSender {
        HttpPushSender {
            allowlist,
            connect_timeout: Duration::from_secs(5),
            resolver: Arc::new(|host, port| {
                Box::pin(async move {
                    Ok(tokio::net::lookup_host((host.as_str(), port))
                        .await?
                        .collect())
                })
            }),
        }
    }

    /// The same sender resolving names with `resolver`.
    pub fn with_resolver(mut self, resolver: Resolver) -> HttpPushSender {
        self.resolver = resolver;
        self
    }

    /// The same sender giving up connecting after `timeout` (default 5 s).
    pub fn with_connect_timeout(mut self, timeout: Duration) -> HttpPushSender {
        self.connect_timeout = timeout;
        self
    }

    async fn deliver(&self, request: Request<Bytes>) -> Result<StatusCode, PushError> {
        let url = request.uri().to_string();
        let refused = |e: &dyn fmt::Display| PushError::Refused(e.to_string());
        let target = check_webhook_url(&url, &self.allowlist).map_err(|e| refused(&e))?;
        if target.is_https() {
            return Err(PushError::Refused(
                "https webhooks need TLS, which this sender does not include".to_owned(),
            ));
        }
        let port = target.port();
        let addrs = match target.host() {
            WebhookHost::Ip(ip) => vec![SocketAddr::new(ip, port)],
            WebhookHost::Name(name) => (self.resolver)(name.to_owned(), port)
                .await
                .map_err(|e| PushError::Connection(format!("cannot resolve {name}: {e}")))?,
        };
        let mut refusal = None;
        let mut failure = None;
        for addr in addrs {
            if let Err(e) = target.check_connect_addr(addr, &self.allowlist) {
                refusal = Some(e.to_string());
                continue;
            }
            match tokio::time::timeout(self.connect_timeout, TcpStream::connect(addr)).await {
                Ok(Ok(stream)) => {
                    // The address the socket is connected to, not the one
                    // asked for, is what must be allowed.
                    let peer = stream.peer_addr().map_err(connection)?;
                    target
                        .check_connect_addr(peer, &self.allowlist)
                        .map_err(|e| refused(&e))?;
                    return exchange(stream, request).await;
                }
                Ok(Err(e)) => failure = Some(format!("{addr}: {e}")),
                Err(_) => failure = Some(format!("{addr}: connect timed out")),
            }
        }
        Err(match (failure, refusal) {
            (Some(f), _) => PushError::Connection(f),
            (None, Some(r)) => PushError::Refused(r),
            (None, None) => PushError::Connection(format!("{url}: no address to connect to")),
        })
    }
}

fn connection(e: impl fmt::Display) -> PushError {
    PushError::Connection(e.to_string())
}

/// One HTTP/1.1 exchange on a connected socket.
async fn exchange(stream: TcpStream, request: Request<Bytes>) -> Result<StatusCode, PushError> {
    let (mut parts, body) = request.into_parts();
    let authority = parts
        .uri
        .authority()
        .map(|a| a.as_str().to_owned())
        .unwrap_or_default();
    let host = HeaderValue::from_str(&authority).map_err(connection)?;
    parts.headers.insert(http::header::HOST, host);
    let path = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/");
    parts.uri = path.parse::<Uri>().map_err(connection)?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(connection)?;
    let driver = tokio::spawn(conn);
    let response = sender
        .send_request(Request::from_parts(parts, Full::new(body)))
        .await
        .map_err(connection);
    drop(sender);
    driver.abort();
    Ok(response?.status())
}

impl PushSender for HttpPushSender {
    fn send(&self, request: Request<Bytes>) -> BoxFuture<'_, Result<StatusCode, PushError>> {
        Box::pin(self.deliver(request))
    }
}
