//! The client side: [`HyperClient`], the transport's [`HttpClient`] on
//! hyper-util's pooled client.
//!
//! - **Versions**: HTTP/1.1 and HTTP/2. Over TLS the version is chosen by
//!   ALPN (`h2`, then `http/1.1`); over plain TCP it is HTTP/1.1 unless
//!   [`ClientOptions::http2_prior_knowledge`] asks for HTTP/2 from the
//!   first byte (h2c), for agents known to speak it.
//! - **gRPC** (spec 10): a request whose version is HTTP/2 (the
//!   transport's gRPC calls) goes through a second, HTTP/2-only pool: h2c
//!   with prior knowledge for `http://`, ALPN `h2` alone for `https://`.
//!   The response's trailers end its [`ResponseBody`]
//!   ([`ResponseBody::trailers`]), where the transport reads
//!   `grpc-status`.
//! - **TLS**: rustls with the `ring` provider (it builds with a C
//!   compiler alone, no cmake), TLS 1.2 and 1.3, trusting Mozilla's root
//!   certificates compiled in (`webpki-roots`): the same trust on every
//!   machine, whatever its certificate store holds. A host that needs its
//!   platform's store or a private CA passes its own rustls configuration
//!   ([`ClientOptions::tls`]).
//! - **Connections** are pooled and reused; redirects are never followed
//!   (an A2A client must not silently re-send a `POST` elsewhere).
//! - **Time**: connecting gives up after [`ClientOptions::connect_timeout`]
//!   (default 10 s); an optional [`ClientOptions::timeout`] bounds the wait
//!   for the response head. A body is never timed: a stream stays open
//!   as long as the agent keeps it open.
//! - **Names** are resolved by the system resolver, or by the host's
//!   [`Resolve`] ([`ClientOptions::resolver`]): an agent delivering push
//!   notifications passes an [`SsrfResolver`](a2a_transport::push::SsrfResolver) so that
//!   it connects only to addresses the webhook rules admit (spec 13.2),
//!   whatever a name resolves (or is rebound) to. Numeric hosts are not
//!   resolved: check them before sending
//!   ([`notification_request`](a2a_transport::push::notification_request) does).
//!   A refused lookup is [`HttpError::Other`], so it is not retried.
//! - **TLS failures** (an untrusted certificate, a failed handshake) are
//!   [`HttpError::Other`] too: another attempt meets the same certificate.
//! - **Errors** are sorted into the kinds the transport acts on: a
//!   connection that could not be opened or was lost (before the answer
//!   or in the middle of its body) is [`HttpError::Connection`], which a
//!   resilient stream may resume (spec 3.1.6); a timeout is
//!   [`HttpError::Timeout`]; anything else [`HttpError::Other`].

use std::fmt;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_transport::{
    client::{BodyChunk, HttpError, ResponseBody},
    push::{find_refusal, Resolve},
    BoxFuture, HttpClient,
};
use bytes::Bytes;
use futures_core::Stream;
use http_body_util::Full;
use hyper::body::{Body as _, Incoming};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::dns::{GaiResolver, Name};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

/// How a [`HyperClient`] connects (see the module documentation).
///
/// ```
/// use std::time::Duration;
/// use a2a_hyper::{ClientOptions, HyperClient};
///
/// let mut options = ClientOptions::default();
/// options.timeout = Some(Duration::from_secs(30));
/// options.http2_prior_knowledge = true;
/// # let _rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
/// # let _guard = _rt.enter();
/// let client = HyperClient::with_options(options);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ClientOptions {
    /// The longest wait for a response head, from the request's start;
    /// `None` waits as long as the connection lives. Default `None`.
    pub timeout: Option<Duration>,
    /// The longest wait for a TCP connection. Default 10 s.
    pub connect_timeout: Option<Duration>,
    /// HTTP/2 only: h2c from the first byte over plain TCP, and only `h2`
    /// offered in ALPN over TLS. Default false (HTTP/1.1 over TCP, ALPN's
    /// choice over TLS).
    pub http2_prior_knowledge: bool,
    /// The rustls configuration for `https`; `None`: TLS 1.2 and 1.3 on
    /// `ring`, trusting the `webpki-roots` certificates. Its ALPN list is
    /// replaced by the one the HTTP versions call for.
    pub tls: Option<Arc<rustls::ClientConfig>>,
    /// Resolves host names; `None`: the system resolver (`getaddrinfo`
    /// on a blocking thread). Default `None`.
    pub resolver: Option<Arc<dyn Resolve>>,
}

impl Default for ClientOptions {
    fn default() -> ClientOptions {
        ClientOptions {
            timeout: None,
            connect_timeout: Some(Duration::from_secs(10)),
            http2_prior_knowledge: false,
            tls: None,
            resolver: None,
        }
    }
}

impl fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientOptions")
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("http2_prior_knowledge", &self.http2_prior_knowledge)
            .field("tls", &self.tls.as_ref().map(|_| ".."))
            .field("resolver", &self.resolver.as_ref().map(|_| ".."))
            .finish()
    }
}

/// An [`HttpClient`] for `http://` and `https://` agents on hyper-util's
/// connection-pooling client (see the module documentation). Cheap to
/// clone: clones share the pool. Needs a tokio runtime.
///
/// ```no_run
/// use a2a_hyper::HyperClient;
/// use a2a_transport::{client::Preferences, discover};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let agent = discover(HyperClient::new(), "https://agent.example", &Preferences::new()).await?;
/// println!("{} speaks {}", agent.card.name, agent.interface.protocol_binding);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct HyperClient {
    client: Client<HttpsConnector<HttpConnector<HostResolver>>, Full<Bytes>>,
    /// HTTP/2 only, for requests that ask for HTTP/2 (gRPC).
    h2: Client<HttpsConnector<HttpConnector<HostResolver>>, Full<Bytes>>,
    timeout: Option<Duration>,
}

impl fmt::Debug for HyperClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HyperClient")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl HyperClient {
    /// A client with the default [`ClientOptions`].
    pub fn new() -> HyperClient {
        HyperClient::with_options(ClientOptions::default())
    }

    /// A client with these options.
    pub fn with_options(options: ClientOptions) -> HyperClient {
        let mut tcp = HttpConnector::new_with_resolver(HostResolver {
            custom: options.resolver,
            system: GaiResolver::new(),
        });
        // Small requests and SSE frames go out at once, not after Nagle's delay.
        tcp.set_nodelay(true);
        tcp.set_connect_timeout(options.connect_timeout);
        tcp.enforce_http(false);
        let tls = options.tls.map_or_else(default_tls, |tls| (*tls).clone());
        let builder = || {
            HttpsConnectorBuilder::new()
                .with_tls_config(tls.clone())
                .https_or_http()
        };
        let https = if options.http2_prior_knowledge {
            builder().enable_http2().wrap_connector(tcp.clone())
        } else {
            builder().enable_all_versions().wrap_connector(tcp.clone())
        };
        let client = Client::builder(TokioExecutor::new())
            .http2_only(options.http2_prior_knowledge)
            .build(https);
        let h2 = Client::builder(TokioExecutor::new())
            .http2_only(true)
            .build(builder().enable_http2().wrap_connector(tcp));
        HyperClient {
            client,
            h2,
            timeout: options.timeout,
        }
    }

    /// The same client (sharing its pool), giving up on a request whose
    /// response head has not arrived after `timeout`
    /// ([`HttpError::Timeout`]).
    pub fn with_timeout(mut self, timeout: Duration) -> HyperClient {
        self.timeout = Some(timeout);
        self
    }
}

impl Default for HyperClient {
    fn default() -> HyperClient {
        HyperClient::new()
    }
}

/// TLS 1.2 and 1.3 on `ring`, trusting Mozilla's roots.
fn default_tls() -> rustls::ClientConfig {
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        // Not an input: ring supports both default versions, always.
        .expect("the ring provider supports TLS 1.2 and 1.3")
        .with_root_certificates(roots)
        .with_no_client_auth()
}

impl HttpClient for HyperClient {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        let pool = if request.version() == http::Version::HTTP_2 {
            &self.h2
        } else {
            &self.client
        };
        let response = pool.request(request.map(Full::new));
        let timeout = self.timeout;
        Box::pin(async move {
            let response = match timeout {
                None => response.await,
                Some(limit) => tokio::time::timeout(limit, response)
                    .await
                    .map_err(|_| HttpError::Timeout(format!("no response after {limit:?}")))?,
            }
            .map_err(request_error)?;
            Ok(response.map(|body| ResponseBody::with_trailers(Chunks(body))))
        })
    }
}

/// The connector's resolver: the host's [`Resolve`], or the system's.
#[derive(Clone)]
struct HostResolver {
    custom: Option<Arc<dyn Resolve>>,
    system: GaiResolver,
}

impl tower_service::Service<Name> for HostResolver {
    type Response = std::vec::IntoIter<SocketAddr>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<Self::Response>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, name: Name) -> Self::Future {
        match &self.custom {
            Some(resolver) => {
                let resolver = Arc::clone(resolver);
                Box::pin(async move {
                    let ips = resolver.resolve(name.as_str()).await?;
                    // The connector sets the port.
                    let addrs: Vec<SocketAddr> =
                        ips.into_iter().map(|ip| SocketAddr::new(ip, 0)).collect();
                    Ok(addrs.into_iter())
                })
            }
            None => {
                let lookup = self.system.call(name);
                Box::pin(async move {
                    let addrs: Vec<SocketAddr> = lookup.await?.collect();
                    Ok(addrs.into_iter())
                })
            }
        }
    }
}

/// The system resolver as a [`Resolve`] (tokio's `lookup_host`), for an
/// [`SsrfResolver`](a2a_transport::push::SsrfResolver) to check:
///
/// ```
/// use std::sync::Arc;
/// use a2a_hyper::{ClientOptions, HyperClient, SystemResolver};
/// use a2a_transport::{push::SsrfResolver, webhook::Allowlist};
///
/// let mut options = ClientOptions::default();
/// options.resolver = Some(Arc::new(SsrfResolver::new(SystemResolver, Allowlist::new())));
/// # let _rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
/// # let _guard = _rt.enter();
/// let push_client = HyperClient::with_options(options);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn resolve<'a>(&'a self, host: &'a str) -> BoxFuture<'a, io::Result<Vec<std::net::IpAddr>>> {
        Box::pin(async move {
            Ok(tokio::net::lookup_host((host, 0))
                .await?
                .map(|addr| addr.ip())
                .collect())
        })
    }
}

/// Sorts hyper-util's error into the kinds the transport acts on: a
/// connection that failed or was lost may be retried, anything else not;
/// a lookup the host's resolver refused (spec 13.2) is final.
fn request_error(e: hyper_util::client::legacy::Error) -> HttpError {
    if let Some(refusal) = find_refusal(&e) {
        return HttpError::Other(format!("webhook refused: {refusal}"));
    }
    if is_tls_failure(&e) {
        // An untrusted certificate or a failed handshake: another attempt
        // meets the same certificate.
        return HttpError::Other(with_sources(&e));
    }
    let lost = e.is_connect()
        || std::error::Error::source(&e)
            .and_then(|s| s.downcast_ref::<hyper::Error>())
            .is_some_and(|h| h.is_closed() || h.is_incomplete_message() || h.is_canceled());
    let text = with_sources(&e);
    if lost {
        HttpError::Connection(text)
    } else {
        HttpError::Other(text)
    }
}

/// True if a rustls error is in the chain (tokio-rustls reports it as an
/// `io::Error` carrying it).
fn is_tls_failure(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(e);
    while let Some(e) = next {
        if e.downcast_ref::<rustls::Error>().is_some() {
            return true;
        }
        // hyper-rustls wraps tokio-rustls's `io::Error` in another, and
        // `io::Error::source` skips the error it carries: look inside.
        next = match e.downcast_ref::<io::Error>().and_then(io::Error::get_ref) {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => e.source(),
        };
    }
    false
}

/// The error and each of its sources, `: `-separated.
fn with_sources(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut next = e.source();
    while let Some(source) = next {
        text.push_str(": ");
        text.push_str(&source.to_string());
        next = source.source();
    }
    text
}

/// A hyper body as a stream of data chunks and its trailers; an error
/// mid-body is a lost connection.
struct Chunks(Incoming);

impl Stream for Chunks {
    type Item = Result<BodyChunk, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            return match Pin::new(&mut self.0).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) => Poll::Ready(Some(Ok(BodyChunk::Data(data)))),
                    Err(frame) => match frame.into_trailers() {
                        Ok(trailers) => Poll::Ready(Some(Ok(BodyChunk::Trailers(trailers)))),
                        // A frame kind hyper may add later: not body bytes.
                        Err(_) => continue,
                    },
                },
                Poll::Ready(Some(Err(e))) => {
                    Poll::Ready(Some(Err(HttpError::Connection(with_sources(&e)))))
                }
                Poll::Ready(None) => Poll::Ready(None),
                Poll::Pending => Poll::Pending,
            };
        }
    }
}
