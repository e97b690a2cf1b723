//! What flows through the server's pipeline, whatever the binding: the
//! head of a call going in ([`CallHead`]), the answer coming out
//! ([`Answer`]), and the interface a binding implements to be driven by
//! the server ([`Framed`]). The steps themselves are
//! [`A2aServer::serve`](crate::A2aServer::serve).

use std::sync::LazyLock;
use std::task::Poll;
use std::time::Duration;

use a2a_types::{A2aError, A2aRequest, ErrorKind, FieldViolation, Reply, StreamResponse};
use http::request::Parts;
use http::{Extensions, HeaderMap, Method, Response, StatusCode, Uri};

use crate::auth::AuthRequest;
use crate::body::Body;
use crate::unwind::poll_next_caught;
use a2a_wire::http_json::{QueryError, QueryParams};
use a2a_wire::service_params::ProtocolVersion;
use a2a_wire::{EventIds, EventStream};

/// What the pipeline reads of a call before its request message: the
/// service parameters (`A2A-Version`, `A2A-Extensions`, spec 3.2.6) and
/// the credentials (spec 7.4).
///
/// The HTTP bindings build it from the request head and query
/// ([`from_http`](CallHead::from_http)). A transport that is not HTTP
/// (a message bus, stdio, a WebSocket) carries the same parameters as
/// header-named metadata ([`new`](CallHead::new)), as gRPC does (spec
/// 10.2): its authenticator then sees a `POST /` with those headers.
///
/// ```
/// use a2a_server::CallHead;
/// use http::{Extensions, HeaderMap};
///
/// let mut metadata = HeaderMap::new();
/// metadata.insert("a2a-version", "1.0".parse()?);
/// metadata.insert("authorization", "Bearer t0k3n".parse()?);
/// let extensions = Extensions::new();
/// let head = CallHead::new(&metadata, &extensions);
/// assert_eq!(head.metadata()["a2a-version"], "1.0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct CallHead<'a> {
    auth: AuthRequest<'a>,
    query: Option<&'a QueryParams<'a>>,
    timeout: Option<Duration>,
}

impl<'a> CallHead<'a> {
    /// The head of a call on a transport that is not HTTP: its service
    /// parameters and credentials as header-named `metadata`, and the
    /// host's `extensions` (a [`Principal`](a2a_wire::Principal) there is
    /// taken as authenticated, without calling the authenticator).
    pub fn new(metadata: &'a HeaderMap, extensions: &'a Extensions) -> CallHead<'a> {
        static POST: Method = Method::POST;
        static ROOT: LazyLock<Uri> = LazyLock::new(|| Uri::from_static("/"));
        CallHead {
            auth: AuthRequest::new(&POST, &ROOT, metadata, extensions),
            query: None,
            timeout: None,
        }
    }

    /// The head of an HTTP request, with its parsed query string (whose
    /// `A2A-Version` and `A2A-Extensions` parameters count as service
    /// parameters, spec 11.5).
    pub fn from_http(parts: &'a Parts, query: Option<&'a QueryParams<'a>>) -> CallHead<'a> {
        CallHead {
            auth: AuthRequest::from_parts(parts),
            query,
            timeout: None,
        }
    }

    /// The same head with the time the caller gives the call (gRPC's
    /// `grpc-timeout`), which the pipeline hands to the handler as
    /// [`CallContext::timeout`](a2a_wire::CallContext::timeout).
    pub fn with_timeout(mut self, timeout: Duration) -> CallHead<'a> {
        self.timeout = Some(timeout);
        self
    }

    /// The time the caller gives the call, if it said.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// The header-named service parameters and credentials.
    pub fn metadata(&self) -> &'a HeaderMap {
        self.auth.headers
    }

    /// The query string's parameters, on the HTTP bindings.
    pub fn query(&self) -> Option<&'a QueryParams<'a>> {
        self.query
    }

    /// What the authenticator sees.
    pub fn auth_request(&self) -> AuthRequest<'a> {
        self.auth
    }
}

/// What the pipeline answered, ready for a binding to encode.
#[allow(clippy::large_enum_variant)]
#[non_exhaustive]
pub enum Answer {
    /// The result of a unary operation (never a streaming operation's
    /// [`Reply`] variant).
    Unary(Reply),
    /// The events of a streaming operation, the first already received:
    /// an error before it was answered as an ordinary error instead.
    Stream {
        /// The first event.
        first: StreamResponse,
        /// The events after it; an `Err` item ends the stream.
        rest: EventStream,
        /// The SSE ids the handler labels its events with (the first
        /// event's label, if any, is still in it): an encoder that writes
        /// SSE takes one after each event.
        ids: EventIds,
    },
    /// A stream that ended before its first event.
    EmptyStream,
}

impl std::fmt::Debug for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Unary(reply) => f.debug_tuple("Unary").field(reply).finish(),
            Answer::Stream { first, .. } => f
                .debug_struct("Stream")
                .field("first", first)
                .finish_non_exhaustive(),
            Answer::EmptyStream => f.write_str("EmptyStream"),
        }
    }
}

/// A request as a binding framed it, driven through the pipeline by the
/// server: the binding reads the head, decodes the typed request when the
/// server asks (after admission), and encodes the answer.
pub(crate) trait Framed<'a> {
    /// The service parameters and credentials.
    fn head(&self) -> CallHead<'a>;
    /// The typed request, read in the form of the negotiated `version`
    /// (spec 3.6.2; REQUIRED fields are the server's to check). A binding
    /// that speaks 1.0 only answers [`only_1_0`]'s error to another
    /// version rather than serve it with 1.0 semantics.
    fn decode(&mut self, version: ProtocolVersion) -> Result<A2aRequest, A2aError>;
    /// The binding's response for what the pipeline answered, in the
    /// caller's `version` (`None` when the call was refused before its
    /// version was known).
    fn respond(
        self,
        answer: Result<Answer, A2aError>,
        version: Option<ProtocolVersion>,
    ) -> Response<Body>;
}

/// `VersionNotSupportedError` for a version other than 1.0: what a
/// binding or transport that speaks only 1.0 answers a caller of another
/// version the server accepts (spec 3.6.2).
pub(crate) fn only_1_0(version: ProtocolVersion) -> Result<(), A2aError> {
    // The 1.1 draft adds fields and an error, not another wire form: the
    // 1.0 codecs carry it (the pipeline gives a 1.0 caller pure 1.0).
    #[cfg(feature = "draft-1-1")]
    if version == ProtocolVersion::V1_1 {
        return Ok(());
    }
    if version == ProtocolVersion::V1_0 {
        Ok(())
    } else {
        Err(A2aError::version_not_supported(
            &version.to_string(),
            &["1.0"],
        ))
    }
}

/// The next item of `events`, or `Err(())` if polling it panicked.
pub(crate) async fn next_event(
    events: &mut EventStream,
) -> Result<Option<Result<StreamResponse, A2aError>>, ()> {
    std::future::poll_fn(|cx| match poll_next_caught(events, cx) {
        Ok(Poll::Pending) => Poll::Pending,
        Ok(Poll::Ready(item)) => Poll::Ready(Ok(item)),
        Err(()) => Poll::Ready(Err(())),
    })
    .await
}

/// Writes `Retry-After` (RFC 9110 section 10.2.3: whole seconds, here
/// rounded up so the client never comes back early) on a 429 or 503
/// whose error carries a delay ([`A2aError::retry_delay`]): the retry
/// guidance spec 3.3.2 ("System Errors") allows on HTTP.
pub(crate) fn write_retry_after(resp: &mut Response<Body>, err: &A2aError) {
    let status = resp.status();
    if status != StatusCode::TOO_MANY_REQUESTS && status != StatusCode::SERVICE_UNAVAILABLE {
        return;
    }
    if let Some(delay) = err.retry_delay() {
        let secs = delay.as_secs() + u64::from(delay.subsec_nanos() > 0);
        resp.headers_mut()
            .insert(http::header::RETRY_AFTER, http::HeaderValue::from(secs));
    }
}

/// The HTTP status of `err` by the error table (500 if out of range).
pub(crate) fn status_of(err: &A2aError) -> StatusCode {
    StatusCode::from_u16(err.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The error for a query string that does not parse or a parameter that
/// does not read (spec 11.5), and its HTTP status: 414 for an over-long
/// query, 400 otherwise, with a `google.rpc.BadRequest` naming the
/// parameter where there is one.
pub(crate) fn query_error(err: &QueryError) -> (A2aError, StatusCode) {
    match err {
        QueryError::TooLong { .. } => (
            A2aError::new(ErrorKind::InvalidRequest, err.to_string()),
            StatusCode::URI_TOO_LONG,
        ),
        QueryError::TooManyParams { .. } | QueryError::EmptyName { .. } => (
            A2aError::new(ErrorKind::InvalidRequest, err.to_string()),
            StatusCode::BAD_REQUEST,
        ),
        _ => (
            A2aError::invalid_params(vec![FieldViolation {
                field: err.param().unwrap_or("(query)").to_owned(),
                description: err.to_string(),
            }]),
            StatusCode::BAD_REQUEST,
        ),
    }
}
