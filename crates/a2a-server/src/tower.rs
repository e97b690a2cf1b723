//! An [`A2aServer`] as a [`tower_service::Service`] (feature
//! `tower-service`), for any request body that is an [`http_body::Body`]:
//! axum mounts it with `Router::fallback_service`, `route_service` or
//! `nest_service`, hyper serves it through hyper-util's
//! `TowerToHyperService`.
//!
//! The service reads the body itself, under [`ServerConfig::max_body_size`]:
//! [`A2aServer::check_head`] first refuses a declared `Content-Length`
//! over the limit without keeping anything; otherwise the body is read
//! until it ends or passes the limit by one byte, and
//! [`A2aServer::handle`] answers the latter with 413 and the binding's
//! error body. So the host's own body limits (axum's 2 MB default for its
//! `Bytes` extractor) do not apply, and none is silently lower than the
//! server's. A body that fails to arrive (the client went away) is 400
//! `InvalidRequestError`, unless its error is a [`BodyFailure`], which
//! names its own status: a host's body wrapper that enforces a read
//! timeout answers 408, one that enforces a memory budget 503 with a
//! retry delay (`a2a-hyper`'s `serve` does both). A 5xx is
//! `InternalError` (spec 3.3.2 "System Errors" names `-32603` for 500 and
//! 503 alike), said `UNAVAILABLE` for a 503 in gRPC and in the HTTP+JSON
//! `google.rpc.Status`.
//!
//! # A 413 the client reads
//!
//! On HTTP/1.x a 413 closes the connection (it carries
//! `Connection: close`), since the rest of the body is not wanted. Closed
//! while the client still writes, the connection would be reset under
//! it: its write fails ("Broken pipe") and it never reads the answer
//! (issue 27). So before answering, the service reads the rest of the
//! body and throws it away (a "lingering close"), within
//! [`ServerConfig::linger`]: at most [`Linger::max_bytes`] bytes (64 MiB
//! by default) and, when the host gives a clock, at most
//! [`Linger::max_time`] (`a2a_hyper::server_config()`: 2 s); whichever
//! comes first ends it, as does the body's end or failure. None of it is
//! held: memory stays bounded by the limit. A declared length over the
//! limit is read this way only when it is within `max_bytes` (else the
//! 413 goes out at once), and never when the request carries
//! `Expect: 100-continue`: polling the body would make the host send
//! `100 Continue`, inviting the body the client would otherwise not send.
//! HTTP/2 and later refuse a request's stream without closing the
//! connection, so nothing more is read there and no `Connection` header
//! is sent.
//!
//! It needs no runtime: the body's frames are polled in the service's own
//! future, and the time bound is the host's [`Timer`](a2a_wire::Timer).
//!
//! [`ServerConfig::max_body_size`]: crate::ServerConfig::max_body_size
//! [`ServerConfig::linger`]: crate::ServerConfig::linger

use std::convert::Infallible;
use std::fmt;
use std::future::poll_fn;
use std::pin::{pin, Pin};
use std::sync::Arc;
use std::task::{Context, Poll};

use a2a_types::{A2aError, ErrorKind};
use bytes::{Buf, Bytes, BytesMut};
use http::header::{CONNECTION, EXPECT};
use http::request::Parts;
use http::{HeaderValue, Request, Response, StatusCode, Version};

use crate::a2a_server::{content_length, A2aServer};
use crate::body::Body;
use crate::linger::Linger;
use a2a_wire::{A2aService, BoxFuture};

/// A request body that could not be read, with the HTTP status the answer
/// carries (the body's error type, for a body wrapper of the host's; see
/// the module documentation). Its `Display` is the error message.
///
/// ```
/// let e = a2a_server::BodyFailure::new(http::StatusCode::REQUEST_TIMEOUT, "no body byte for 10 s");
/// assert_eq!(e.status(), 408);
/// assert_eq!(e.to_string(), "no body byte for 10 s");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyFailure {
    status: http::StatusCode,
    message: String,
    retry_after: Option<std::time::Duration>,
}

impl BodyFailure {
    /// A failure answered with `status` (a 4xx or 5xx) and `message`.
    pub fn new(status: http::StatusCode, message: impl Into<String>) -> BodyFailure {
        BodyFailure {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The same failure, saying when to try again: the answer carries it
    /// as a `google.rpc.RetryInfo` detail and, on a 429 or 503,
    /// `Retry-After` (spec 3.3.2 "System Errors").
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let e = a2a_server::BodyFailure::new(http::StatusCode::SERVICE_UNAVAILABLE, "busy")
    ///     .with_retry_after(Duration::from_secs(1));
    /// assert_eq!(e.retry_after(), Some(Duration::from_secs(1)));
    /// ```
    pub fn with_retry_after(mut self, delay: std::time::Duration) -> BodyFailure {
        self.retry_after = Some(delay);
        self
    }

    /// The status of the answer.
    pub fn status(&self) -> http::StatusCode {
        self.status
    }

    /// When to try again, if the failure says.
    pub fn retry_after(&self) -> Option<std::time::Duration> {
        self.retry_after
    }
}

impl fmt::Display for BodyFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BodyFailure {}

/// An [`A2aServer`] shared as a `tower::Service<http::Request<B>>`
/// answering `http::Response<`[`Body`]`>` (see the module documentation).
/// Cloning it shares the server.
///
/// ```
/// use std::sync::Arc;
/// use a2a_server::{TowerService, A2aServer, A2aService, ServerConfig};
/// use a2a_types::AgentCard;
/// use tower_service::Service;
///
/// struct Agent;
/// impl A2aService for Agent {}
///
/// let card: AgentCard = a2a_types::from_slice(br#"{
///     "name": "Agent", "description": "Answers", "version": "1.0.0",
///     "supportedInterfaces": [{"url": "https://agent.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
///     "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
///     "skills": [{"id": "qa", "name": "Q&A", "description": "Answers", "tags": ["qa"]}]
/// }"#)?;
/// let server = A2aServer::new(Agent, card, ServerConfig::new().with_max_body_size(4))?;
/// let mut service = TowerService::new(Arc::new(server));
///
/// // Any http_body::Body will do; a String is one.
/// let request = http::Request::post("/").body(String::from("{\"too\":\"long\"}"))?;
/// let response = block_on(service.call(request))?;
/// assert_eq!(response.status(), 413);
/// let body = response.into_body().into_bytes().unwrap();
/// assert!(std::str::from_utf8(&body)?.contains("\"jsonrpc\":\"2.0\""));
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TowerService<S> {
    server: Arc<A2aServer<S>>,
}

impl<S> TowerService<S> {
    /// The service of `server`.
    pub fn new(server: Arc<A2aServer<S>>) -> TowerService<S> {
        TowerService { server }
    }

    /// The server.
    pub fn server(&self) -> &Arc<A2aServer<S>> {
        &self.server
    }
}

impl<S> Clone for TowerService<S> {
    fn clone(&self) -> TowerService<S> {
        TowerService {
            server: Arc::clone(&self.server),
        }
    }
}

impl<S> fmt::Debug for TowerService<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TowerService").field(&self.server).finish()
    }
}

impl<S> From<Arc<A2aServer<S>>> for TowerService<S> {
    fn from(server: Arc<A2aServer<S>>) -> TowerService<S> {
        TowerService::new(server)
    }
}

impl<S, B> tower_service::Service<Request<B>> for TowerService<S>
where
    S: A2aService + 'static,
    B: http_body::Body + Send + 'static,
    B::Error: fmt::Display + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<Body>, Infallible>>;

    /// Always ready: the server holds no per-call resource.
    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let server = Arc::clone(&self.server);
        Box::pin(async move { Ok(respond(&server, request).await) })
    }
}

/// Reads the body under the server's limit and hands the request on; a
/// body refused with 413 is read on within [`ServerConfig::linger`] first
/// (see the module documentation).
async fn respond<S, B>(server: &A2aServer<S>, request: Request<B>) -> Response<Body>
where
    S: A2aService,
    B: http_body::Body + Send,
    B::Error: fmt::Display + 'static,
{
    let (head, body) = request.into_parts();
    let mut body = pin!(body);
    let linger = &server.config().linger;
    // HTTP/2 and later end a request's stream early without closing the
    // connection; only HTTP/1.x needs the lingering close.
    let http1 = head.version <= Version::HTTP_11;
    if let Some(refused) = server.check_head(&head) {
        if refused.status() != StatusCode::PAYLOAD_TOO_LARGE {
            return refused;
        }
        // A declared length over the limit, read on only when within the
        // bound (else reading cannot save the client's write). Never when
        // the client waits for `100 Continue`: reading would make the host
        // send it, inviting the body the client would otherwise not send.
        let declared = content_length(&head).ok().flatten().unwrap_or(u64::MAX);
        if http1 && !expects_continue(&head) && declared <= linger.max_bytes() {
            discard(body.as_mut(), linger).await;
        }
        return closing(http1, refused);
    }
    match read_limited(body.as_mut(), server.config().max_body_size).await {
        // One byte past the limit is enough for `handle` to answer 413.
        Ok(bytes) if bytes.len() > server.config().max_body_size => {
            if http1 && !body.is_end_stream() {
                discard(body.as_mut(), linger).await;
            }
            closing(http1, server.handle(Request::from_parts(head, bytes)).await)
        }
        Ok(bytes) => server.handle(Request::from_parts(head, bytes)).await,
        Err(why) => {
            let (kind, status) = match why.status {
                Some(status) if status.is_server_error() => (ErrorKind::Internal, status),
                Some(status) if status.is_client_error() => (ErrorKind::InvalidRequest, status),
                _ => (ErrorKind::InvalidRequest, http::StatusCode::BAD_REQUEST),
            };
            let mut err = A2aError::new(
                kind,
                format!("cannot read the request body: {}", why.message),
            );
            if let Some(delay) = why.retry_after {
                err = err.with_retry_delay(delay);
            }
            server.transport_error(&head, server.binding_for(&head), &err, status)
        }
    }
}

/// Whether the request waits for `100 Continue` before sending its body.
fn expects_continue(head: &Parts) -> bool {
    head.headers
        .get_all(EXPECT)
        .iter()
        .any(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"))
}

/// `response` with `Connection: close` on HTTP/1.x: the rest of a refused
/// body may be unread, so the connection cannot carry another request.
fn closing(http1: bool, mut response: Response<Body>) -> Response<Body> {
    if http1 {
        response
            .headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// Why [`discard`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Discarded {
    /// The body ended: the client wrote all of it.
    Ended,
    /// The body failed (the client went away, a host's timeout).
    Failed,
    /// More than [`Linger::max_bytes`] arrived.
    TooMany,
    /// [`Linger::max_time`] passed.
    TimedOut,
}

/// Reads and drops the rest of `body` within `linger`'s bounds.
async fn discard<B>(mut body: Pin<&mut B>, linger: &Linger) -> Discarded
where
    B: http_body::Body,
{
    let mut left = linger.max_bytes();
    if left == 0 {
        return Discarded::TooMany;
    }
    let mut deadline = linger
        .timer()
        .map(|(max_time, timer)| timer.sleep(max_time));
    poll_fn(|cx| {
        if let Some(deadline) = &mut deadline {
            if deadline.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Discarded::TimedOut);
            }
        }
        loop {
            match body.as_mut().poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(Discarded::Ended),
                Poll::Ready(Some(Err(_))) => return Poll::Ready(Discarded::Failed),
                Poll::Ready(Some(Ok(frame))) => {
                    let len = frame.data_ref().map_or(0, |d| d.remaining() as u64);
                    if len > left {
                        return Poll::Ready(Discarded::TooMany);
                    }
                    left -= len;
                }
            }
        }
    })
    .await
}

/// Why [`read_limited`] stopped: the body's error as text, with the status
/// a [`BodyFailure`] names.
#[derive(Debug)]
struct ReadFailure {
    message: String,
    status: Option<http::StatusCode>,
    retry_after: Option<std::time::Duration>,
}

impl ReadFailure {
    fn from_error<E: fmt::Display + 'static>(e: &E) -> ReadFailure {
        let failure = (e as &dyn std::any::Any).downcast_ref::<BodyFailure>();
        ReadFailure {
            message: e.to_string(),
            status: failure.map(BodyFailure::status),
            retry_after: failure.and_then(BodyFailure::retry_after),
        }
    }
}

/// The body's data, until it ends or holds more than `max` bytes (then
/// `max + 1` of them: the rest is not read here). A body of one data frame
/// is not copied.
async fn read_limited<B>(mut body: Pin<&mut B>, max: usize) -> Result<Bytes, ReadFailure>
where
    B: http_body::Body,
    B::Error: fmt::Display + 'static,
{
    let mut first: Option<Bytes> = None;
    let mut rest = BytesMut::new();
    poll_fn(|cx| loop {
        let held = first.as_ref().map_or(0, Bytes::len) + rest.len();
        if held > max {
            return Poll::Ready(Ok(()));
        }
        let mut data = match body.as_mut().poll_frame(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(None) => return Poll::Ready(Ok(())),
            Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(ReadFailure::from_error(&e))),
            Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                Ok(data) => data,
                // Trailers carry no body bytes.
                Err(_) => continue,
            },
        };
        let take = data.remaining().min(max + 1 - held);
        match &first {
            None => first = Some(data.copy_to_bytes(take)),
            Some(_) => rest.extend_from_slice(&data.copy_to_bytes(take)),
        }
    })
    .await?;
    Ok(match first {
        None => Bytes::new(),
        Some(first) if rest.is_empty() => first,
        Some(first) => {
            let mut all = BytesMut::with_capacity(first.len() + rest.len());
            all.extend_from_slice(&first);
            all.extend_from_slice(&rest);
            all.freeze()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::Waker;
    use std::time::Duration;

    use http_body::Frame;

    /// A body of scripted frames; `Err` fails the body.
    struct Frames(VecDeque<Result<Frame<Bytes>, &'static str>>);

    impl http_body::Body for Frames {
        type Data = Bytes;
        type Error = &'static str;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, &'static str>>> {
            Poll::Ready(self.0.pop_front())
        }
    }

    fn data(chunks: &[&'static str]) -> Frames {
        Frames(
            chunks
                .iter()
                .map(|c| Ok(Frame::data(Bytes::from_static(c.as_bytes()))))
                .collect(),
        )
    }

    fn read<B>(body: B, max: usize) -> Result<Bytes, ReadFailure>
    where
        B: http_body::Body,
        B::Error: fmt::Display + 'static,
    {
        block_on(read_limited(pin!(body), max))
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        let mut f = pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    #[test]
    fn the_body_is_read_whole_up_to_the_limit() {
        assert_eq!(read(data(&[]), 4).unwrap(), "");
        assert_eq!(read(data(&["ab", "cd"]), 4).unwrap(), "abcd");
        let mut with_trailers = data(&["ab"]);
        with_trailers
            .0
            .push_back(Ok(Frame::trailers(http::HeaderMap::new())));
        assert_eq!(read(with_trailers, 4).unwrap(), "ab");
    }

    #[test]
    fn past_the_limit_one_byte_more_is_kept_and_the_rest_never_read() {
        let mut body = data(&["abc", "defgh"]);
        body.0.push_back(Err("must not be polled"));
        assert_eq!(read(body, 4).unwrap(), "abcde");
        assert_eq!(read(data(&["abcdefgh"]), 4).unwrap(), "abcde");
        assert_eq!(read(data(&["a"]), 0).unwrap(), "a");
    }

    #[test]
    fn a_failing_body_is_an_error() {
        let body = Frames(VecDeque::from([
            Ok(Frame::data(Bytes::from_static(b"a"))),
            Err("connection reset"),
        ]));
        let failure = read(body, 4).unwrap_err();
        assert_eq!(
            (failure.message.as_str(), failure.status),
            ("connection reset", None)
        );
    }

    /// A body whose error is a `BodyFailure` names the status.
    struct Failing(Option<BodyFailure>);

    impl http_body::Body for Failing {
        type Data = Bytes;
        type Error = BodyFailure;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, BodyFailure>>> {
            Poll::Ready(self.0.take().map(Err))
        }
    }

    #[test]
    fn a_body_failure_keeps_its_status() {
        let stalled = BodyFailure::new(http::StatusCode::REQUEST_TIMEOUT, "stalled");
        let failure = read(Failing(Some(stalled)), 4).unwrap_err();
        assert_eq!(failure.message, "stalled");
        assert_eq!(failure.status, Some(http::StatusCode::REQUEST_TIMEOUT));
    }

    #[test]
    fn discarding_reads_to_the_end_within_the_bounds() {
        let linger = Linger::new();
        let mut body = pin!(data(&["ab", "cd"]));
        assert_eq!(block_on(discard(body.as_mut(), &linger)), Discarded::Ended);
        assert!(body.0.is_empty());

        let linger = Linger::new().with_max_bytes(5);
        let mut body = pin!(data(&["abc", "defgh", "i"]));
        assert_eq!(
            block_on(discard(body.as_mut(), &linger)),
            Discarded::TooMany
        );
        assert_eq!(body.0.len(), 1, "nothing after the bound is read");
        let mut body = pin!(data(&["abcde"]));
        assert_eq!(block_on(discard(body.as_mut(), &linger)), Discarded::Ended);

        let mut body = pin!(data(&["a"]));
        assert_eq!(
            block_on(discard(body.as_mut(), &Linger::off())),
            Discarded::TooMany
        );
        assert_eq!(body.0.len(), 1, "off reads nothing");

        let mut body = pin!(Frames(VecDeque::from([Err("reset")])));
        assert_eq!(block_on(discard(body.as_mut(), &linger)), Discarded::Failed);
    }

    /// Never ready.
    struct Silent;

    impl http_body::Body for Silent {
        type Data = Bytes;
        type Error = &'static str;
        fn poll_frame(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, &'static str>>> {
            Poll::Pending
        }
    }

    #[test]
    fn discarding_stops_at_the_time_bound() {
        let asked = Arc::new(AtomicUsize::new(0));
        let heard = Arc::clone(&asked);
        // A clock on which the time is always up; it records what it was
        // asked to wait.
        let timer = move |d: Duration| -> BoxFuture<'static, ()> {
            heard.store(d.as_millis() as usize, Ordering::SeqCst);
            Box::pin(async {})
        };
        let linger = Linger::new().with_max_time(Duration::from_millis(1500), timer);
        assert_eq!(
            block_on(discard(pin!(Silent), &linger)),
            Discarded::TimedOut
        );
        assert_eq!(asked.load(Ordering::SeqCst), 1500);
    }

    /// Scripted frames that count how many times they were polled.
    struct Counted {
        frames: VecDeque<&'static str>,
        polls: Arc<AtomicUsize>,
    }

    impl http_body::Body for Counted {
        type Data = Bytes;
        type Error = &'static str;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, &'static str>>> {
            self.polls.fetch_add(1, Ordering::SeqCst);
            Poll::Ready(
                self.frames
                    .pop_front()
                    .map(|c| Ok(Frame::data(Bytes::from_static(c.as_bytes())))),
            )
        }
    }

    struct Agent;
    impl A2aService for Agent {}

    fn server_with(max_body_size: usize, linger: Linger) -> TowerService<Agent> {
        let card: a2a_types::AgentCard = a2a_types::from_slice(
            br#"{
            "name": "Agent", "description": "Answers", "version": "1.0.0",
            "supportedInterfaces": [{"url": "https://agent.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "qa", "name": "Q&A", "description": "Answers", "tags": ["qa"]}]
        }"#,
        )
        .unwrap();
        let config = crate::ServerConfig::new()
            .with_max_body_size(max_body_size)
            .with_linger(linger);
        TowerService::new(Arc::new(A2aServer::new(Agent, card, config).unwrap()))
    }

    /// Calls the service with a body of `frames`: the status, the
    /// `Connection` header, and how many frames are left unread.
    fn call(
        service: &mut TowerService<Agent>,
        request: http::request::Builder,
        frames: &[&'static str],
    ) -> (u16, Option<String>, usize) {
        use tower_service::Service;
        let polls = Arc::new(AtomicUsize::new(0));
        let body = Counted {
            frames: frames.iter().copied().collect(),
            polls: Arc::clone(&polls),
        };
        let request = request
            .method("POST")
            .uri("/")
            .header("content-type", "application/json")
            .body(body)
            .unwrap();
        let response = block_on(service.call(request)).unwrap();
        let connection = response
            .headers()
            .get(CONNECTION)
            .map(|v| v.to_str().unwrap().to_owned());
        // Each frame took one poll, the end one more.
        let read = polls.load(Ordering::SeqCst).min(frames.len());
        (response.status().as_u16(), connection, frames.len() - read)
    }

    #[test]
    fn a_body_growing_past_the_limit_is_read_to_its_end_before_the_413() {
        let frames = ["{\"to", "o\":", "\"long\"", "}"];
        let close = Some("close".to_owned());
        let mut service = server_with(4, Linger::new());
        assert_eq!(
            call(&mut service, http::Request::builder(), &frames),
            (413, close.clone(), 0)
        );
        // Within its byte bound only; the rest is left to the closing
        // connection.
        let mut bounded = server_with(4, Linger::new().with_max_bytes(4));
        assert_eq!(
            call(&mut bounded, http::Request::builder(), &frames),
            (413, close, 1)
        );
        // HTTP/2 ends the stream, not the connection: nothing more is read
        // and no `Connection` header is sent.
        let h2 = http::Request::builder().version(Version::HTTP_2);
        assert_eq!(call(&mut service, h2, &frames), (413, None, 2));
        // Within the limit nothing changes.
        let (status, connection, left) = call(&mut service, http::Request::builder(), &["{}"]);
        assert_ne!(status, 413);
        assert_eq!((connection, left), (None, 0));
    }

    #[test]
    fn a_declared_length_over_the_limit_is_read_unless_the_client_awaits_100_continue() {
        let frames = ["{\"to", "o\":", "\"long\"", "}"];
        let close = Some("close".to_owned());
        let mut service = server_with(4, Linger::new());
        let declared = || http::Request::builder().header("content-length", "14");
        assert_eq!(
            call(&mut service, declared(), &frames),
            (413, close.clone(), 0)
        );
        // Reading would have the host invite the body with `100 Continue`.
        let expecting = declared().header("expect", "100-Continue");
        assert_eq!(
            call(&mut service, expecting, &frames),
            (413, close.clone(), 4)
        );
        // Longer than the linger would read: answered at once.
        let mut bounded = server_with(4, Linger::new().with_max_bytes(13));
        assert_eq!(call(&mut bounded, declared(), &frames), (413, close, 4));
        let h2 = declared().version(Version::HTTP_2);
        assert_eq!(call(&mut service, h2, &frames), (413, None, 4));
    }
}
