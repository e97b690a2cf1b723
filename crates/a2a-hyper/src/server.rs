//! The server side: [`serve`] runs an [`A2aServer`] on a [`TcpListener`]
//! with hyper, HTTP/1.1 and HTTP/2 (hyper-util's auto builder tells them
//! apart by the connection preface), until a shutdown future completes.
//!
//! Each request goes through the transport's [`TowerService`], which
//! reads the body under [`ServerConfig::max_body_size`] (413 with the
//! binding's error body beyond it, whether `Content-Length` says so or a
//! chunked body grows past it) and answers with the server's own
//! [`Body`](a2a_transport::Body), which hyper writes as it is: complete
//! bytes, SSE frames as the agent produces them, with keep-alive
//! comments when the server's configuration asks for them
//! ([`server_config`] does, every [`DEFAULT_KEEP_ALIVE`]), or gRPC
//! messages followed by their trailers (the status, spec 10), which
//! HTTP/2 carries in a last `HEADERS` frame. gRPC clients connect with
//! HTTP/2 prior knowledge (h2c) or ALPN `h2` behind a TLS proxy, on the
//! same port as HTTP/1.1; the [`HostLimits`] hold for both versions
//! (the header-read timeout is HTTP/1.1's only; the idle timeout closes
//! an idle HTTP/2 connection too).

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use a2a_transport::server::{BodyFailure, Linger, PeerAddr, RateLimit, RateLimiter, TowerService};
use a2a_transport::{client::Timer, A2aServer, A2aService, BoxFuture, ServerConfig};
use http::{Method, Request, StatusCode, Version};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_service::Service as _;

use crate::connection::{self, Phase, Registry, StreamExecutor, TrackedBody};
use crate::deadline::{grpc_deadline, within_grpc_deadline};
use crate::limits::{Count, HostLimits, ServeStats};
use crate::request_body::{BodyBudget, LimitedBody};

/// The keep-alive interval [`server_config`] sets: 15 s, well under the
/// idle timeouts of common proxies and load balancers (30 to 60 s).
pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The transport's [`Timer`] on tokio's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioTimer;

impl Timer for TokioTimer {
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(duration))
    }
}

/// [`ServerConfig::new`] with SSE keep-alive comments every
/// [`DEFAULT_KEEP_ALIVE`] of quiet on tokio's clock, and a body refused
/// with 413 read on for at most [`Linger::DEFAULT_MAX_TIME`] (and
/// [`Linger::DEFAULT_MAX_BYTES`]) on that clock before the answer, so
/// that a client still writing reads it: the configuration a server on
/// this crate, or an axum app mounting the transport's `TowerService`,
/// starts from.
///
/// ```
/// use a2a_transport::server::Linger;
///
/// let config = a2a_hyper::server_config().with_max_body_size(1 << 20);
/// assert_eq!(config.keep_alive.map(|k| k.interval()), Some(a2a_hyper::DEFAULT_KEEP_ALIVE));
/// assert_eq!(config.linger.max_time(), Some(Linger::DEFAULT_MAX_TIME));
/// assert_eq!(config.linger.max_bytes(), Linger::DEFAULT_MAX_BYTES);
/// ```
pub fn server_config() -> ServerConfig {
    ServerConfig::new()
        .with_keep_alive(DEFAULT_KEEP_ALIVE, TokioTimer)
        .with_linger(Linger::new().with_max_time(Linger::DEFAULT_MAX_TIME, TokioTimer))
}

/// Tokio's `Instant` (std's monotonic clock) as the core's clock: the time since the
/// clock was made.
#[derive(Debug, Clone, Copy)]
pub struct InstantClock(Instant);

impl InstantClock {
    /// A clock whose origin is now.
    pub fn new() -> InstantClock {
        InstantClock(Instant::now())
    }
}

impl Default for InstantClock {
    fn default() -> InstantClock {
        InstantClock::new()
    }
}

impl a2a_transport::metrics::MonotonicClock for InstantClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
}

/// A [`RateLimiter`] applying `limit` on this host's clock, for
/// [`ServerConfig::with_rate_limit`]. [`serve`] puts each connection's
/// peer address in the request ([`PeerAddr`]), so anonymous callers are
/// limited by address; authenticated ones by principal.
///
/// ```
/// use a2a_transport::server::RateLimit;
///
/// let config = a2a_hyper::server_config()
///     .with_rate_limit(a2a_hyper::rate_limiter(RateLimit::per_second(20).with_burst(40)));
/// assert_eq!(config.rate_limit.map(|l| l.limit().burst()), Some(40));
/// ```
pub fn rate_limiter(limit: RateLimit) -> RateLimiter {
    RateLimiter::new(limit, Arc::new(InstantClock::new()))
}

/// What [`serve`] reports of each request, when asked to
/// ([`ServeOptions::log`]). Its `Display` is one log line:
/// `127.0.0.1:50312 POST / 200 (stream) 1.2 ms`.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RequestLog {
    /// The client's address.
    pub peer: SocketAddr,
    /// The HTTP version the connection speaks.
    pub version: Version,
    /// The request method.
    pub method: Method,
    /// The request path.
    pub path: String,
    /// The response status.
    pub status: StatusCode,
    /// Whether the response is an SSE stream.
    pub streamed: bool,
    /// The time until the response head was ready (a stream's events
    /// come later).
    pub elapsed: Duration,
}

impl fmt::Display for RequestLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}{} {:.1} ms",
            self.peer,
            self.method,
            self.path,
            self.status.as_u16(),
            if self.streamed { " (stream)" } else { "" },
            self.elapsed.as_secs_f64() * 1000.0
        )
    }
}

/// A function given each [`RequestLog`].
pub type LogFn = Arc<dyn Fn(&RequestLog) + Send + Sync>;

/// A function given a failed accept and how many failures it stands for
/// (it is called at most once a second: the others are counted in).
pub type AcceptLogFn = Arc<dyn Fn(&std::io::Error, u64) + Send + Sync>;

/// A function given a line about what [`serve`] changed at start (a
/// connection cap lowered to the open-file limit).
pub type NoticeFn = Arc<dyn Fn(&str) + Send + Sync>;

/// How [`serve`] runs connections. The request limits are the
/// [`A2aServer`]'s own ([`ServerConfig`]); these are the connections'
/// ([`HostLimits`]), the shutdown and the logs.
///
/// ```
/// use std::time::Duration;
///
/// let options = a2a_hyper::ServeOptions::default()
///     .with_drain_timeout(Duration::from_secs(1))
///     .with_limits(a2a_hyper::HostLimits::default().with_max_connections(64))
///     .with_log(|line| eprintln!("{line}"));
/// assert_eq!(options.drain_timeout, Duration::from_secs(1));
/// assert_eq!(options.stats().refused(), 0);
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ServeOptions {
    /// How long shutdown waits for open requests (streams included) to
    /// finish before closing them. Default 5 s.
    pub drain_timeout: Duration,
    /// Called with each request's [`RequestLog`] once its response head
    /// is ready. Default `None`.
    pub log: Option<LogFn>,
    /// Called, at most once a second, with a failed accept. Default `None`.
    pub accept_log: Option<AcceptLogFn>,
    /// Called with a line about what `serve` changed at start: the
    /// connection cap lowered to fit the open-file limit. Default `None`.
    pub notice: Option<NoticeFn>,
    /// The connection limits. Default [`HostLimits::default`].
    pub limits: HostLimits,
    stats: Arc<ServeStats>,
    /// Fixed documents answered before the A2A server sees the request
    /// ([`with_static`](Self::with_static)). Default none.
    statics: Arc<Vec<StaticResource>>,
}

/// A fixed document `serve` answers itself: `GET` and `HEAD` of exactly
/// its path.
#[derive(Clone)]
struct StaticResource {
    path: String,
    content_type: http::HeaderValue,
    body: Document,
}

/// What a resource answers: fixed bytes, or bytes rendered per request.
#[derive(Clone)]
enum Document {
    Fixed(bytes::Bytes),
    Rendered(Arc<dyn Fn() -> bytes::Bytes + Send + Sync>),
}

impl ServeOptions {
    /// Sets the drain timeout.
    pub fn with_drain_timeout(mut self, timeout: Duration) -> ServeOptions {
        self.drain_timeout = timeout;
        self
    }

    /// Serves `body` as `content_type` at exactly `path` (`GET` and
    /// `HEAD`; `Cache-Control: public, max-age=300`), before the A2A
    /// server sees the request: for documents that belong to the host, not
    /// to the protocol, such as the JWKS whose keys sign the agent card
    /// (spec 8.4.2 `jku`). A path the A2A server also serves is shadowed.
    ///
    /// # Errors
    ///
    /// The content type is not a valid header value, or the path does not
    /// start with `/`.
    pub fn with_static(
        self,
        path: impl Into<String>,
        content_type: &str,
        body: impl Into<bytes::Bytes>,
    ) -> Result<ServeOptions, String> {
        self.add_resource(path, content_type, Document::Fixed(body.into()))
    }

    /// Serves what `render` returns, as `content_type`, at exactly `path`
    /// (`GET` and `HEAD`; `Cache-Control: no-store`), rendered for each
    /// request before the A2A server sees it: for host documents that
    /// change, such as a metrics exposition. A path the A2A server also
    /// serves is shadowed.
    ///
    /// # Errors
    ///
    /// As [`with_static`](Self::with_static).
    pub fn with_rendered(
        self,
        path: impl Into<String>,
        content_type: &str,
        render: impl Fn() -> bytes::Bytes + Send + Sync + 'static,
    ) -> Result<ServeOptions, String> {
        self.add_resource(path, content_type, Document::Rendered(Arc::new(render)))
    }

    fn add_resource(
        mut self,
        path: impl Into<String>,
        content_type: &str,
        body: Document,
    ) -> Result<ServeOptions, String> {
        let path = path.into();
        if !path.starts_with('/') {
            return Err(format!("the static path {path:?} does not start with '/'"));
        }
        let content_type = http::HeaderValue::from_str(content_type)
            .map_err(|_| format!("{content_type:?} is not a header value"))?;
        let mut statics = (*self.statics).clone();
        statics.retain(|s| s.path != path);
        statics.push(StaticResource {
            path,
            content_type,
            body,
        });
        self.statics = Arc::new(statics);
        Ok(self)
    }

    /// Sets the request log.
    pub fn with_log(mut self, log: impl Fn(&RequestLog) + Send + Sync + 'static) -> ServeOptions {
        self.log = Some(Arc::new(log));
        self
    }

    /// Sets the accept-error log.
    pub fn with_accept_log(
        mut self,
        log: impl Fn(&std::io::Error, u64) + Send + Sync + 'static,
    ) -> ServeOptions {
        self.accept_log = Some(Arc::new(log));
        self
    }

    /// Sets the start-up notice log ([`ServeOptions::notice`]).
    pub fn with_notice(mut self, notice: impl Fn(&str) + Send + Sync + 'static) -> ServeOptions {
        self.notice = Some(Arc::new(notice));
        self
    }

    /// Sets the connection limits.
    pub fn with_limits(mut self, limits: HostLimits) -> ServeOptions {
        self.limits = limits;
        self
    }

    /// The counters of what [`serve`] refused, closed or failed; clones of
    /// these options share them.
    pub fn stats(&self) -> Arc<ServeStats> {
        Arc::clone(&self.stats)
    }
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            drain_timeout: Duration::from_secs(5),
            log: None,
            accept_log: None,
            notice: None,
            limits: HostLimits::default(),
            stats: Arc::default(),
            statics: Arc::new(Vec::new()),
        }
    }
}

impl fmt::Debug for ServeOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServeOptions")
            .field("drain_timeout", &self.drain_timeout)
            .field("log", &self.log.as_ref().map(|_| ".."))
            .field("accept_log", &self.accept_log.as_ref().map(|_| ".."))
            .field("notice", &self.notice.as_ref().map(|_| ".."))
            .field("limits", &self.limits)
            .field("stats", &self.stats)
            .field(
                "statics",
                &self
                    .statics
                    .iter()
                    .map(|s| s.path.as_str())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// Raises this process's soft limit on open files to its hard limit, where
/// the system allows it, and returns the limit now in force: every
/// connection [`serve`] holds is a file descriptor, and the common soft
/// default (1024) is what [`HostLimits::DEFAULT_MAX_CONNECTIONS`] would
/// exhaust. A host calls it once at start.
pub fn raise_fd_limit() -> std::io::Result<u64> {
    rlimit::increase_nofile_limit(u64::MAX)
}

/// `limits` reconciled with the open-file limit at start: the soft limit
/// raised to the hard one where allowed ([`raise_fd_limit`]), then the
/// connection cap lowered to what it holds ([`HostLimits::fit_to_fd_limit`]),
/// said to `notice` when lowered or when the limit cannot be read.
fn fit_fd_limit(limits: HostLimits, notice: Option<&NoticeFn>) -> HostLimits {
    let say = |line: String| {
        if let Some(notice) = notice {
            notice(&line);
        }
    };
    let soft = match raise_fd_limit() {
        Ok(soft) => soft,
        Err(e) => {
            say(format!(
                "cannot read the open-file limit ({e}); at most {} connections",
                limits.max_connections
            ));
            return limits;
        }
    };
    let fitted = limits.fit_to_fd_limit(soft);
    if fitted.max_connections < limits.max_connections {
        say(format!(
            "the open-file limit is {soft}: at most {} connections at once, not {} \
             ({} files kept for the rest); raise the hard limit (ulimit -Hn) for more",
            fitted.max_connections,
            limits.max_connections,
            HostLimits::FD_RESERVE
        ));
    }
    fitted
}

/// The answer of a static resource for `request`, if one has its path.
fn static_response<B>(
    statics: &[StaticResource],
    request: &Request<B>,
) -> Option<http::Response<a2a_transport::Body>> {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return None;
    }
    let found = statics.iter().find(|s| s.path == request.uri().path())?;
    let (bytes, cache) = match &found.body {
        Document::Fixed(bytes) => (bytes.clone(), "public, max-age=300"),
        Document::Rendered(render) => (render(), "no-store"),
    };
    let body = match request.method() == Method::HEAD {
        true => a2a_transport::Body::empty(),
        false => a2a_transport::Body::Full(bytes),
    };
    let mut response = http::Response::new(body);
    let h = response.headers_mut();
    h.insert(http::header::CONTENT_TYPE, found.content_type.clone());
    h.insert(
        http::header::CACHE_CONTROL,
        http::HeaderValue::from_static(cache),
    );
    Some(response)
}

/// Serves `server` on every connection `listener` accepts until
/// `shutdown` completes; then stops accepting and lets open requests
/// finish, for up to [`ServeOptions::drain_timeout`], before it closes
/// what is left and returns.
///
/// Connections are held within [`ServeOptions::limits`]: at most
/// [`HostLimits::max_connections`], lowered at start to what the
/// open-file limit holds (after raising the soft limit to the hard one;
/// [`HostLimits::fit_to_fd_limit`], told to [`ServeOptions::notice`]),
/// and [`HostLimits::max_connections_per_peer`] from one IP address (a
/// new one beyond either closes the connection idle longest, else the one
/// whose streams have been quiet longest, or is closed itself when every
/// connection waits for an answer), each closed after
/// [`HostLimits::idle_timeout`] without a request in flight or
/// [`HostLimits::header_read_timeout`] into a request head it does not
/// finish; a response whose client takes nothing for
/// [`HostLimits::write_timeout`] is cut (its HTTP/2 stream reset, its
/// HTTP/1.1 connection closed); a peer's request beyond
/// [`HostLimits::max_requests_per_peer`] is answered 503; a request body
/// that stalls or crawls is answered 408, one that would pass the in-flight
/// byte budget or its peer's share of it 503, all with the binding's error
/// body. What was refused or closed is counted in
/// [`ServeOptions::stats`]. A gRPC call over HTTP/1.x is refused with 505
/// (gRPC needs HTTP/2's trailers). A gRPC call's `grpc-timeout` is enforced: past
/// it the call is dropped and answered `DEADLINE_EXCEEDED`
/// ([`within_grpc_deadline`]).
///
/// A failed accept (out of file descriptors, a connection reset before it
/// was accepted) concerns one connection, not the server: `serve` waits,
/// 5 ms after the first failure in a row and twice as long after each
/// next one up to a second, and accepts again; [`ServeOptions::accept_log`]
/// hears of failures at most once a second.
///
/// ```no_run
/// use std::sync::Arc;
/// use a2a_transport::{A2aServer, A2aService};
/// use a2a_types::AgentCard;
///
/// struct Agent;
/// impl A2aService for Agent {}
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let card = AgentCard { name: "Agent".into(), ..Default::default() };
/// let server = A2aServer::new(Agent, card, a2a_hyper::server_config())?;
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// let shutdown = async { let _ = tokio::signal::ctrl_c().await; };
/// a2a_hyper::serve(listener, Arc::new(server), a2a_hyper::ServeOptions::default(), shutdown).await;
/// # Ok(()) }
/// ```
pub async fn serve<S>(
    listener: TcpListener,
    server: Arc<A2aServer<S>>,
    options: ServeOptions,
    shutdown: impl Future<Output = ()>,
) where
    S: A2aService + 'static,
{
    let limits = fit_fd_limit(options.limits, options.notice.as_ref());
    options.stats().set_max_connections(limits.max_connections);
    // HTTP/2 streams run in tasks a stuck response can be cut from alone.
    let mut builder = auto::Builder::new(StreamExecutor);
    builder
        .http1()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    builder.http2().timer(hyper_util::rt::TokioTimer::new());
    let registry = Arc::new(Registry::new());
    let budget = Arc::new(BodyBudget::default());
    let stats = options.stats();
    let (phase, watch_phase) = watch::channel(Phase::Running);
    let mut accept_errors = AcceptErrors::default();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    stats.add(Count::AcceptError);
                    let wait = accept_errors.failed(&e, options.accept_log.as_ref());
                    tokio::time::sleep(wait).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        accept_errors.succeeded();
        let Some(conn) = registry.admit(peer.ip(), &limits, &stats) else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let tower = TowerService::new(Arc::clone(&server));
        // What the service keeps of a body: its limit, and one byte more.
        let max_held = server.config().max_body_size.saturating_add(1);
        let (log, budget, stats_for_body) =
            (options.log.clone(), Arc::clone(&budget), options.stats());
        let tracked = Arc::clone(&conn);
        let statics = Arc::clone(&options.statics);
        let grpc_served = server.config().grpc;
        let service = service_fn(move |mut request: Request<Incoming>| {
            // The rate limiter keys anonymous callers by it.
            request.extensions_mut().insert(PeerAddr(peer));
            let in_flight = tracked.begin();
            let (mut tower, log) = (tower.clone(), log.clone());
            let found = static_response(&statics, &request);
            let over = in_flight.peer_requests() > limits.max_requests_per_peer;
            let request = request.map(|body| {
                let body = LimitedBody::new(
                    body,
                    &limits,
                    max_held,
                    Arc::clone(&budget),
                    Arc::clone(tracked.peer()),
                    Arc::clone(&stats_for_body),
                );
                match over {
                    false => body,
                    // Answered with the binding's error when the service
                    // reads the body, before the agent sees the request.
                    true => body.refuse(too_many_requests(&limits, &stats_for_body)),
                }
            });
            let http1_grpc =
                grpc_served && request.version() < Version::HTTP_2 && is_grpc(&request);
            async move {
                if let Some(response) = found {
                    return Ok(response.map(|body| TrackedBody::new(body, in_flight)));
                }
                if http1_grpc {
                    return Ok(refuse_http1_grpc(request.version())
                        .map(|body| TrackedBody::new(body, in_flight)));
                }
                let started = Instant::now();
                let (version, method) = (request.version(), request.method().clone());
                let path = log.as_ref().map(|_| request.uri().path().to_owned());
                // The clock starts with the request head, as the client's did.
                let response = match grpc_deadline(request.headers()) {
                    Some(timeout) => {
                        let call = async move {
                            let Ok(response) = tower.call(request).await;
                            response
                        };
                        within_grpc_deadline(timeout, call).await
                    }
                    None => tower.call(request).await?,
                };
                if let (Some(log), Some(path)) = (log, path) {
                    log(&RequestLog {
                        peer,
                        version,
                        method,
                        path,
                        status: response.status(),
                        streamed: response.body().is_stream(),
                        elapsed: started.elapsed(),
                    });
                }
                Ok::<_, Infallible>(response.map(|body| TrackedBody::new(body, in_flight)))
            }
        });
        let connection = builder
            .serve_connection(TokioIo::new(stream), service)
            .into_owned();
        // A client that goes away mid-request is not the server's error.
        tokio::spawn(connection::run(
            connection,
            |c| c.graceful_shutdown(),
            conn,
            Arc::clone(&registry),
            limits,
            watch_phase.clone(),
            options.stats(),
        ));
    }
    drop(listener);
    let _ = phase.send(Phase::Draining);
    if tokio::time::timeout(options.drain_timeout, registry.drained())
        .await
        .is_err()
    {
        let _ = phase.send(Phase::Abort);
        // Each connection's task stops at once; give them a moment to go.
        let _ = tokio::time::timeout(Duration::from_millis(100), registry.drained()).await;
    }
}

/// The failure of a request beyond [`HostLimits::max_requests_per_peer`]:
/// 503 with the budget's `Retry-After`, as for a spent body budget (the
/// server is busy for this client; its other requests end in time).
fn too_many_requests(limits: &HostLimits, stats: &ServeStats) -> BodyFailure {
    stats.add(Count::RequestRefused);
    BodyFailure::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "this client has {} requests in flight, the most the server holds for one \
             address; retry when one has ended",
            limits.max_requests_per_peer
        ),
    )
    .with_retry_after(limits.budget_retry_after)
}

/// Whether a request is a gRPC call, as the server tells (a `content-type`
/// starting `application/grpc`, or a path of the A2A service).
fn is_grpc<B>(request: &Request<B>) -> bool {
    let grpc_type = request
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.as_bytes().get(..16))
        .is_some_and(|p| p.eq_ignore_ascii_case(b"application/grpc"));
    let service = request
        .uri()
        .path()
        .strip_prefix('/')
        .and_then(|p| p.strip_prefix(a2a_transport::grpc::SERVICE_NAME))
        .is_some_and(|rest| rest.starts_with('/'));
    grpc_type || service
}

/// The answer to a gRPC call over HTTP/1.x: 505 with the gRPC status in
/// the head (gRPC needs HTTP/2's trailers; over HTTP/1.1 an answer would
/// lose its status). The body is not read, so the connection closes.
fn refuse_http1_grpc(version: Version) -> http::Response<a2a_transport::Body> {
    let mut response = a2a_transport::grpc::GrpcError::HttpVersion(version)
        .to_response()
        .map(|()| a2a_transport::Body::empty());
    response.headers_mut().insert(
        http::header::CONNECTION,
        http::HeaderValue::from_static("close"),
    );
    response
}

/// The backoff and rate-limited log of failed accepts.
#[derive(Debug, Default)]
struct AcceptErrors {
    /// Failures in a row.
    in_a_row: u32,
    /// Failures not logged yet, and when the log last spoke.
    unlogged: u64,
    last_logged: Option<Instant>,
}

impl AcceptErrors {
    const FIRST_WAIT: Duration = Duration::from_millis(5);
    const MAX_WAIT: Duration = Duration::from_secs(1);
    const LOG_EVERY: Duration = Duration::from_secs(1);

    /// Counts a failure, logs it if the log has been quiet for a second,
    /// and says how long to wait before the next accept.
    fn failed(&mut self, e: &std::io::Error, log: Option<&AcceptLogFn>) -> Duration {
        self.unlogged += 1;
        if let Some(log) = log {
            if self
                .last_logged
                .is_none_or(|t| t.elapsed() >= AcceptErrors::LOG_EVERY)
            {
                log(e, self.unlogged);
                self.unlogged = 0;
                self.last_logged = Some(Instant::now());
            }
        }
        let wait = AcceptErrors::FIRST_WAIT.saturating_mul(1 << self.in_a_row.min(16));
        self.in_a_row = self.in_a_row.saturating_add(1);
        wait.min(AcceptErrors::MAX_WAIT)
    }

    fn succeeded(&mut self) {
        self.in_a_row = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn accept_failures_back_off_and_log_once_a_second() {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&heard);
        let log: AcceptLogFn = Arc::new(move |e: &std::io::Error, n| {
            sink.lock().unwrap().push((e.to_string(), n));
        });
        let mut errors = AcceptErrors::default();
        let e = std::io::Error::other("too many open files");
        let waits: Vec<Duration> = (0..10).map(|_| errors.failed(&e, Some(&log))).collect();
        assert_eq!(waits[0], Duration::from_millis(5));
        assert_eq!(waits[1], Duration::from_millis(10));
        assert_eq!(waits[7], Duration::from_millis(640));
        assert_eq!(waits[9], Duration::from_secs(1), "capped");
        assert_eq!(
            *heard.lock().unwrap(),
            [("too many open files".to_owned(), 1)]
        );
        errors.succeeded();
        assert_eq!(errors.failed(&e, Some(&log)), Duration::from_millis(5));
        // The next log line, a second later, carries what it skipped.
        errors.last_logged = Some(Instant::now() - Duration::from_secs(2));
        errors.failed(&e, Some(&log));
        assert_eq!(heard.lock().unwrap()[1].1, 11);
    }
}
