//! The client side of the gRPC binding (spec 10): the HTTP/2 request of a
//! call, and its response read into a [`Reply`] or a stream of events.
//!
//! - **Request**: `POST {interface URL path}/lf.a2a.v1.A2AService/{Method}`
//!   as HTTP/2 (the host's [`HttpClient`](crate::HttpClient) must honour
//!   the request's version), `content-type: application/grpc+proto`,
//!   `te: trailers`, the service parameters and credentials as metadata
//!   (`a2a-version`, `a2a-extensions`, spec 10.2), `grpc-timeout` when
//!   [`ClientConfig::timeout`](crate::ClientConfig::timeout) is
//!   set, and the request message as one length-prefixed frame.
//! - **Response**: HTTP 200 with a gRPC content type; its messages are
//!   read with a [`FrameDecoder`] bounded by the client's body limit, and
//!   the call's outcome is the `grpc-status` of the trailers (or of the
//!   head of a trailers-only response). A non-zero status is the error of
//!   its `grpc-status-details-bin` (`google.rpc.Status`, whose `ErrorInfo`
//!   reason names the kind through the one error table, spec 10.6), else
//!   of its code alone. A response without `grpc-status` is a protocol
//!   error, never a success: a host client that drops trailers fails
//!   loudly.
//! - **Other HTTP statuses** (a proxy in front, a server that is not gRPC)
//!   map to codes as gRPC's HTTP-to-status table does (401
//!   `UNAUTHENTICATED`, 403 `PERMISSION_DENIED`, 404 `UNIMPLEMENTED`, 429
//!   and 502-504 `UNAVAILABLE`, others `UNKNOWN`), marked
//!   [`ClientFailure::HttpStatus`].

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_proto::{status_from_proto, GrpcCode, ProtoError};
use a2a_types::{A2aError, A2aRequest, Operation, Reply, StreamResponse};
use bytes::Bytes;
use futures_core::Stream;
use http::header::{CONTENT_TYPE, TE};
use http::{HeaderMap, HeaderValue, Method, Uri, Version};

use crate::client_error::{invalid_response, with_challenges, ClientFailure};
use a2a_wire::grpc::{
    encode_frame, encode_timeout, is_grpc_content_type, method_path, read_status, FrameDecoder,
    GrpcError, GrpcStatus, GRPC_PROTO_CONTENT_TYPE, GRPC_STATUS, GRPC_TIMEOUT,
};
use a2a_wire::{next_chunk, ResponseBody};

/// The URI of `op` at the interface `base`: the method path after the
/// URL's own path (a gRPC service behind a path prefix), without a query.
pub(crate) fn method_uri(base: &Uri, op: Operation) -> Result<Uri, A2aError> {
    let prefix = base.path().trim_end_matches('/');
    let mut parts = http::uri::Parts::default();
    parts.scheme = base.scheme().cloned();
    parts.authority = base.authority().cloned();
    parts.path_and_query = Some(
        format!("{prefix}{}", method_path(op))
            .parse()
            .map_err(|_| A2aError::internal("the gRPC method path is not a valid URI path"))?,
    );
    Uri::from_parts(parts)
        .map_err(|_| A2aError::internal("the gRPC request URI could not be built"))
}

/// The HTTP/2 request of `request` at `base`, with `metadata` (the
/// service parameters and the caller's headers) and the deadline.
pub(crate) fn build_request(
    base: &Uri,
    request: &A2aRequest,
    mut metadata: HeaderMap,
    timeout: Option<Duration>,
) -> Result<http::Request<Bytes>, A2aError> {
    let uri = method_uri(base, request.operation())?;
    let body = encode_frame(&encode_request(request))
        .map_err(|e| A2aError::internal(format!("request encoding: {e}")))?;
    // What the HTTP bindings negotiate has no meaning here.
    metadata.remove(http::header::ACCEPT);
    metadata.insert(
        CONTENT_TYPE,
        HeaderValue::from_static(GRPC_PROTO_CONTENT_TYPE),
    );
    metadata.insert(TE, HeaderValue::from_static("trailers"));
    match timeout {
        Some(t) => {
            metadata.insert(GRPC_TIMEOUT, encode_timeout(t));
        }
        None => {
            metadata.remove(GRPC_TIMEOUT);
        }
    }
    let mut http_request = http::Request::new(body);
    *http_request.method_mut() = Method::POST;
    *http_request.uri_mut() = uri;
    *http_request.version_mut() = Version::HTTP_2;
    *http_request.headers_mut() = metadata;
    Ok(http_request)
}

/// What the head of a response says before its body is read.
pub(crate) enum Head {
    /// Messages follow, then trailers.
    Messages,
    /// A trailers-only response with `grpc-status: 0`: no message follows.
    TrailersOnly,
}

/// Checks the head of a response: HTTP 200 with a gRPC content type, or
/// a trailers-only status.
pub(crate) fn read_head(parts: &http::response::Parts, url: &Uri) -> Result<Head, A2aError> {
    let status = parts.status.as_u16();
    if status != 200 {
        return Err(with_challenges(
            http_status_error(status, url),
            &parts.headers,
        ));
    }
    if parts.headers.contains_key(GRPC_STATUS) {
        return match read_status(&parts.headers) {
            Some(GrpcStatus::Error(code, e)) => {
                Err(with_challenges(received(code, e), &parts.headers))
            }
            Some(GrpcStatus::Ok) => Ok(Head::TrailersOnly),
            _ => Err(invalid_response("unreadable grpc-status")),
        };
    }
    match parts.headers.get(CONTENT_TYPE) {
        Some(v) if is_grpc_content_type(v) => Ok(Head::Messages),
        other => Err(invalid_response(&format!(
            "a gRPC response must be application/grpc, the response is {}",
            other
                .and_then(|v| v.to_str().ok())
                .unwrap_or("without a Content-Type")
        ))),
    }
}

/// The error of a response whose HTTP status is not 200, by gRPC's
/// HTTP-to-status mapping.
fn http_status_error(status: u16, url: &Uri) -> A2aError {
    let code = match status {
        400 => GrpcCode::INTERNAL,
        401 => GrpcCode::UNAUTHENTICATED,
        403 => GrpcCode::PERMISSION_DENIED,
        404 => GrpcCode::UNIMPLEMENTED,
        429 | 502 | 503 | 504 => GrpcCode::UNAVAILABLE,
        _ => GrpcCode::UNKNOWN,
    };
    let error = status_from_proto(a2a_proto::rpc::Status {
        code: code.0,
        message: format!("HTTP {status} from the gRPC interface {url}, not a gRPC response"),
        details: Vec::new(),
    });
    ClientFailure::HttpStatus.mark(error)
}

/// `error`, received as gRPC status `code`: `UNAVAILABLE` is recorded as
/// the HTTP 503 gRPC's own status mapping pairs it with, so that one rule
/// reads a refusal to retry whatever the binding
/// ([`ResilientTransport::with_retry_after`](crate::ResilientTransport::with_retry_after)
/// waits out its `RetryInfo`).
fn received(code: GrpcCode, error: A2aError) -> A2aError {
    if code == GrpcCode::UNAVAILABLE && error.received_status().is_none() {
        error.with_received_status(503)
    } else {
        error
    }
}

/// A status in trailers as the call's outcome: `Ok` for `grpc-status: 0`.
fn outcome(trailers: Option<&HeaderMap>) -> Result<(), A2aError> {
    let Some(trailers) = trailers else {
        return Err(ClientFailure::StreamIncomplete.mark(invalid_response(
            "the gRPC response ended without trailers (grpc-status); \
             does the HTTP client deliver HTTP/2 trailers?",
        )));
    };
    match read_status(trailers) {
        Some(GrpcStatus::Ok) => Ok(()),
        Some(GrpcStatus::Error(code, e)) => Err(with_challenges(received(code, e), trailers)),
        _ => Err(invalid_response("the gRPC trailers carry no grpc-status")),
    }
}

/// A frame error of a response as the client's error.
fn frame_error(e: &GrpcError, max: usize) -> A2aError {
    match e {
        GrpcError::TooLarge { .. } => ClientFailure::ResponseTooLarge
            .error(format!("a gRPC message exceeds the limit of {max} bytes")),
        other => invalid_response(&format!("gRPC framing: {other}")),
    }
}

/// A protobuf message that does not decode as the operation's answer.
fn proto_error(e: &ProtoError) -> A2aError {
    invalid_response(&format!("protobuf: {e}"))
}

/// Reads a unary response's body: exactly one message, then an OK status.
pub(crate) async fn read_unary(
    op: Operation,
    head: Head,
    body: &mut ResponseBody,
    max: usize,
) -> Result<Reply, A2aError> {
    if let Head::TrailersOnly = head {
        return Err(invalid_response(&format!(
            "{op}: a trailers-only OK response carries no message"
        )));
    }
    let mut decoder = FrameDecoder::new(max);
    let mut message: Option<Bytes> = None;
    let mut too_many = false;
    loop {
        while let Some(m) = decoder.next_message().map_err(|e| frame_error(&e, max))? {
            if message.is_some() {
                too_many = true;
            }
            message = Some(m);
        }
        match next_chunk(body).await {
            Some(chunk) => decoder.push(&chunk?),
            None => break,
        }
    }
    // The status first: an error status is the answer whatever came before.
    outcome(body.trailers())?;
    decoder.finish().map_err(|e| frame_error(&e, max))?;
    if too_many {
        return Err(frame_error(&GrpcError::TooMany, max));
    }
    let message = message.ok_or_else(|| frame_error(&GrpcError::Missing, max))?;
    decode_reply(op, &message, max)
}

/// The events of a server stream (spec 10.4): each message a
/// `StreamResponse`, the trailers' status its end.
pub(crate) struct GrpcEvents {
    body: Option<ResponseBody>,
    decoder: FrameDecoder,
    max: usize,
}

impl GrpcEvents {
    /// The events of a response whose head said `head`.
    pub(crate) fn new(head: Head, body: ResponseBody, max: usize) -> GrpcEvents {
        GrpcEvents {
            body: match head {
                Head::Messages => Some(body),
                // A trailers-only OK: a stream without events.
                Head::TrailersOnly => None,
            },
            decoder: FrameDecoder::new(max),
            max,
        }
    }
}

impl Stream for GrpcEvents {
    type Item = Result<StreamResponse, A2aError>;

    /// The next event; after an error the stream ends (the caller stops
    /// reading, see `SseStream`).
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            let Some(body) = this.body.as_mut() else {
                return Poll::Ready(None);
            };
            match this.decoder.next_message() {
                Ok(Some(message)) => {
                    return Poll::Ready(Some(
                        a2a_proto::decode_with_limit::<StreamResponse>(&message, this.max)
                            .map_err(|e| proto_error(&e)),
                    ))
                }
                Ok(None) => {}
                Err(e) => {
                    this.body = None;
                    return Poll::Ready(Some(Err(frame_error(&e, this.max))));
                }
            }
            match std::task::ready!(Pin::new(&mut *body).poll_next(cx)) {
                Some(Ok(chunk)) => this.decoder.push(&chunk),
                Some(Err(e)) => {
                    this.body = None;
                    return Poll::Ready(Some(Err(A2aError::from(e))));
                }
                None => {
                    let end = outcome(body.trailers()).and_then(|()| {
                        this.decoder.finish().map_err(|e| frame_error(&e, this.max))
                    });
                    this.body = None;
                    return Poll::Ready(end.err().map(Err));
                }
            }
        }
    }
}

macro_rules! decode_unary_reply {
    (unary, $name:ident, $reply:ty, $bytes:ident, $limit:ident) => {
        a2a_proto::decode_with_limit::<$reply>($bytes, $limit)
            .map(Reply::$name)
            .map_err(|e| proto_error(&e))
    };
    (stream, $name:ident, $reply:ty, $bytes:ident, $limit:ident) => {{
        let _ = ($bytes, $limit);
        Err(A2aError::internal(concat!(
            stringify!($name),
            " answers a stream, not one message"
        )))
    }};
}

macro_rules! grpc_client_codec {
    ($(
        $name:ident {
            method: $method:ident, section: $section:literal, answer: $answer:ident,
            params: $params:ty,
            result: $result:ty,
            reply: $reply:ty,
            item: $item:ty,
            default: $default:ident,
            fields: { $($json:literal => $field:ident),* $(,)? },
            v0_3: [$($v03:literal)?],
        }
    )*) => {
        /// The protobuf bytes of a request message.
        fn encode_request(request: &A2aRequest) -> Vec<u8> {
            match request {
                $(A2aRequest::$name(params) => a2a_proto::encode(params),)*
            }
        }

        /// A unary answer of `op` from its protobuf bytes (at most `limit`).
        fn decode_reply(op: Operation, bytes: &[u8], limit: usize) -> Result<Reply, A2aError> {
            match op {
                $(Operation::$name => decode_unary_reply!($answer, $name, $reply, bytes, limit),)*
            }
        }
    };
}

a2a_types::operation_table!(grpc_client_codec);
