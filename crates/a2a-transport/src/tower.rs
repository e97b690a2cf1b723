//! An [`A2aServer`] as a [`tower_service::Service`] (feature
//! `tower-service`), for any request body that is an [`http_body::Body`]:
//! axum mounts it with `Router::fallback_service`, `route_service` or
//! `nest_service`, hyper serves it through hyper-util's
//! `TowerToHyperService`.
//!
//! The service reads the body itself, under [`ServerConfig::max_body_size`]:
//! [`A2aServer::check_head`] first refuses a declared `Content-Length`
//! over the limit without reading anything; otherwise the body is read
//! until it ends or passes the limit by one byte, and
//! [`A2aServer::handle`] answers the latter with 413 and the binding's
//! error body. So the host's own body limits (axum's 2 MB default for its
//! `Bytes` extractor) do not apply, and none is silently lower than the
//! server's. A body that fails to arrive (the client went away) is 400
//! `InvalidRequestError`, unless its error is a [`BodyFailure`], which
//! names its own status: a host's body wrapper that enforces a read
//! timeout answers 408, one that enforces a memory budget 503
//! (`a2a-hyper`'s `serve` does both).
//!
//! It needs no runtime: the body's frames are polled in the service's own
//! future.
//!
//! [`ServerConfig::max_body_size`]: crate::ServerConfig::max_body_size

use std::convert::Infallible;
use std::fmt;
use std::future::poll_fn;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use a2a_types::{A2aError, ErrorKind};
use bytes::{Buf, Bytes, BytesMut};
use http::{Request, Response};

use crate::a2a_server::A2aServer;
use crate::body::Body;
use crate::service::{A2aService, BoxFuture};

/// A request body that could not be read, with the HTTP status the answer
/// carries (the body's error type, for a body wrapper of the host's; see
/// the module documentation). Its `Display` is the error message.
///
/// ```
/// let e = a2a_transport::server::BodyFailure::new(http::StatusCode::REQUEST_TIMEOUT, "no body byte for 10 s");
/// assert_eq!(e.status(), 408);
/// assert_eq!(e.to_string(), "no body byte for 10 s");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyFailure {
    status: http::StatusCode,
    message: String,
}

impl BodyFailure {
    /// A failure answered with `status` (a 4xx or 5xx) and `message`.
    pub fn new(status: http::StatusCode, message: impl Into<String>) -> BodyFailure {
        BodyFailure {
            status,
            message: message.into(),
        }
    }

    /// The status of the answer.
    pub fn status(&self) -> http::StatusCode {
        self.status
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
/// use a2a_transport::{server::TowerService, A2aServer, A2aService, ServerConfig};
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

/// Reads the body under the server's limit and hands the request on.
async fn respond<S, B>(server: &A2aServer<S>, request: Request<B>) -> Response<Body>
where
    S: A2aService,
    B: http_body::Body + Send,
    B::Error: fmt::Display + 'static,
{
    let (head, body) = request.into_parts();
    if let Some(refused) = server.check_head(&head) {
        return refused;
    }
    match read_limited(body, server.config().max_body_size).await {
        // One byte past the limit is enough for `handle` to answer 413.
        Ok(bytes) => server.handle(Request::from_parts(head, bytes)).await,
        Err(why) => {
            let (kind, status) = match why.status {
                Some(status) if status.is_server_error() => (ErrorKind::Internal, status),
                Some(status) if status.is_client_error() => (ErrorKind::InvalidRequest, status),
                _ => (ErrorKind::InvalidRequest, http::StatusCode::BAD_REQUEST),
            };
            let err = A2aError::new(
                kind,
                format!("cannot read the request body: {}", why.message),
            );
            server.transport_error(&head, server.binding_for(&head), &err, status)
        }
    }
}

/// Why [`read_limited`] stopped: the body's error as text, with the status
/// a [`BodyFailure`] names.
#[derive(Debug)]
struct ReadFailure {
    message: String,
    status: Option<http::StatusCode>,
}

impl ReadFailure {
    fn from_error<E: fmt::Display + 'static>(e: &E) -> ReadFailure {
        let status = (e as &dyn std::any::Any)
            .downcast_ref::<BodyFailure>()
            .map(BodyFailure::status);
        ReadFailure {
            message: e.to_string(),
            status,
        }
    }
}

/// The body's data, until it ends or holds more than `max` bytes (then
/// `max + 1` of them: the rest is never read). A body of one data frame
/// is not copied.
async fn read_limited<B>(body: B, max: usize) -> Result<Bytes, ReadFailure>
where
    B: http_body::Body,
    B::Error: fmt::Display + 'static,
{
    let mut body = pin!(body);
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
    use std::pin::Pin;
    use std::task::Waker;

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
        assert_eq!(block_on(read_limited(data(&[]), 4)).unwrap(), "");
        assert_eq!(
            block_on(read_limited(data(&["ab", "cd"]), 4)).unwrap(),
            "abcd"
        );
        let mut with_trailers = data(&["ab"]);
        with_trailers
            .0
            .push_back(Ok(Frame::trailers(http::HeaderMap::new())));
        assert_eq!(block_on(read_limited(with_trailers, 4)).unwrap(), "ab");
    }

    #[test]
    fn past_the_limit_one_byte_more_is_kept_and_the_rest_never_read() {
        let mut body = data(&["abc", "defgh"]);
        body.0.push_back(Err("must not be polled"));
        assert_eq!(block_on(read_limited(body, 4)).unwrap(), "abcde");
        assert_eq!(
            block_on(read_limited(data(&["abcdefgh"]), 4)).unwrap(),
            "abcde"
        );
        assert_eq!(block_on(read_limited(data(&["a"]), 0)).unwrap(), "a");
    }

    #[test]
    fn a_failing_body_is_an_error() {
        let body = Frames(VecDeque::from([
            Ok(Frame::data(Bytes::from_static(b"a"))),
            Err("connection reset"),
        ]));
        let failure = block_on(read_limited(body, 4)).unwrap_err();
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
        let failure = block_on(read_limited(Failing(Some(stalled)), 4)).unwrap_err();
        assert_eq!(failure.message, "stalled");
        assert_eq!(failure.status, Some(http::StatusCode::REQUEST_TIMEOUT));
    }
}
