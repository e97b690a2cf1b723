//! The gRPC binding on the server (spec 10): a call framed from its
//! HTTP/2 request (the wire format of [`grpc_wire`](crate::grpc_wire)),
//! its one request message decoded into an [`A2aRequest`] through
//! `a2a-proto`, the answer encoded as messages and a status in trailers.
//!
//! # Decisions
//!
//! - **Which requests are gRPC.** A request whose `content-type` starts
//!   with `application/grpc`, or whose path is under
//!   `/lf.a2a.v1.A2AService/`, is this binding's (when it is on): the
//!   path is the service's, whatever the content type says, so a request
//!   there that is not gRPC at all gets gRPC's answers (405 for another
//!   method than `POST`, 415 for another content type, PROTOCOL-HTTP2).
//! - **Errors are HTTP 200** with the status in trailers, or in the head
//!   of a trailers-only response when no message went out; except 405 and
//!   415 above (the request is not a gRPC call, so it gets an HTTP
//!   answer, still with `grpc-status` for gRPC clients). The host
//!   answers a call over HTTP/1.x 505 the same way
//!   ([`GrpcError::HttpVersion`](a2a_wire::grpc::GrpcError::HttpVersion)): gRPC
//!   needs HTTP/2's trailers, and only the host knows the version.
//! - **Status codes** come from the error table's gRPC column (spec 5.4,
//!   10.6) for every A2A error, with `grpc-status-details-bin` (the
//!   `google.rpc.Status` with the `ErrorInfo` and any `BadRequest`). The
//!   framing's own failures keep gRPC's codes: a message over the limit
//!   ([`ServerConfig::max_body_size`](crate::ServerConfig::max_body_size),
//!   the same limit as a body on the other bindings, spec 5.1) is
//!   `RESOURCE_EXHAUSTED`; a compressed message without a
//!   `grpc-encoding`, a missing message, a second message, a body that
//!   stops inside a message are `INTERNAL`; a `grpc-encoding` other than
//!   `identity` is `UNIMPLEMENTED` with `grpc-accept-encoding: identity`
//!   (no compression is supported); an unknown method is
//!   `UNIMPLEMENTED`. Their details carry `InvalidRequestError`
//!   (`MethodNotFoundError` for a method).
//! - **`grpc-timeout`** is read into [`CallContext::timeout`](a2a_wire::CallContext::timeout)
//!   for the host's handler to enforce (the core reads no clock); a value
//!   that does not read is refused before the call with `INTERNAL`, as
//!   gRPC's own servers refuse a malformed `grpc-timeout`.
//! - **Metadata.** The service parameters and credentials are the
//!   request's headers (`a2a-version`, `a2a-extensions`,
//!   `authorization`, spec 10.2), read by the pipeline as on the other
//!   bindings ([`CallHead::new`]); the tenant is the request message's
//!   `tenant` field. An `UNAUTHENTICATED` answer carries the
//!   `www-authenticate` challenges as metadata.
//! - **Streams** (`SendStreamingMessage`, `SubscribeToTask`): one
//!   message per event, then `grpc-status: 0`; an error after the first
//!   event ends the stream with its status in the trailers. A stream that
//!   ends before any event is a trailers-only `grpc-status: 0`.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_proto::GrpcCode;
use a2a_types::{A2aError, A2aRequest, Operation, Reply, StreamResponse};
use bytes::Bytes;
use futures_core::Stream;
use http::header::{CONTENT_TYPE, WWW_AUTHENTICATE};
use http::request::Parts;
use http::{HeaderMap, HeaderValue, Response, StatusCode};

use crate::body::{Body, Chunk};
use crate::pipeline::{only_1_0, Answer, CallHead, Framed};
use crate::unwind::{panicked, poll_next_caught};
use a2a_wire::grpc::{
    check_request_head, decode_unary, encode_frame, error_response, ok_trailers, request_timeout,
    response_head, status_fields, GrpcError, SERVICE_NAME,
};
use a2a_wire::EventStream;
use a2a_wire::ProtocolVersion;

/// Whether a request is the gRPC binding's: a `content-type` starting
/// with `application/grpc`, or a path under `/lf.a2a.v1.A2AService/`.
pub(crate) fn is_grpc_request(head: &Parts) -> bool {
    let grpc_type = head.headers.get(CONTENT_TYPE).is_some_and(|v| {
        v.as_bytes()
            .get(..16)
            .is_some_and(|p| p.eq_ignore_ascii_case(b"application/grpc"))
    });
    grpc_type
        || head
            .uri
            .path()
            .strip_prefix('/')
            .and_then(|p| p.strip_prefix(SERVICE_NAME))
            .is_some_and(|rest| rest.starts_with('/'))
}

/// A gRPC call past the transport checks.
pub(crate) struct GrpcCall<'a> {
    head: &'a Parts,
    body: &'a Bytes,
    operation: Operation,
    max_message_size: usize,
    challenges: &'a [HeaderValue],
    timeout: Option<Duration>,
    /// The code of a framing failure found by `decode`, which is gRPC's,
    /// not the error table's.
    framing: Option<GrpcCode>,
}

/// The transport checks of a gRPC request: `POST` (405), a gRPC protobuf
/// content type (415), a method of the service and no compression
/// (`UNIMPLEMENTED`), a `grpc-timeout` that reads (`INTERNAL`).
#[allow(clippy::result_large_err)] // the refusal is the finished response
pub(crate) fn frame<'a>(
    head: &'a Parts,
    body: &'a Bytes,
    max_message_size: usize,
    challenges: &'a [HeaderValue],
) -> Result<GrpcCall<'a>, Response<Body>> {
    let operation = check_request_head(&head.method, head.uri.path(), &head.headers)
        .map_err(|e| refused(&e))?;
    let timeout = match request_timeout(&head.headers) {
        None => None,
        Some(Ok(timeout)) => Some(timeout),
        Some(Err(e)) => {
            let err = A2aError::new(a2a_types::ErrorKind::InvalidRequest, e.to_string());
            return Err(trailers_only(GrpcCode::INTERNAL, &err, &[]));
        }
    };
    Ok(GrpcCall {
        head,
        body,
        operation,
        max_message_size,
        challenges,
        timeout,
        framing: None,
    })
}

impl<'a> Framed<'a> for GrpcCall<'a> {
    fn head(&self) -> CallHead<'a> {
        let head = CallHead::new(&self.head.headers, &self.head.extensions);
        match self.timeout {
            Some(timeout) => head.with_timeout(timeout),
            None => head,
        }
    }

    fn decode(&mut self, version: ProtocolVersion) -> Result<A2aRequest, A2aError> {
        only_1_0(version)?;
        let message = decode_unary(self.body, self.max_message_size).map_err(|e| {
            self.framing = Some(e.grpc_code());
            e.to_a2a_error()
        })?;
        decode_request(self.operation, &message, self.max_message_size).map_err(A2aError::from)
    }

    fn respond(
        self,
        answer: Result<Answer, A2aError>,
        _version: Option<ProtocolVersion>,
    ) -> Response<Body> {
        match answer {
            Ok(Answer::Unary(reply)) => match encode_reply(&reply).map(|m| encode_frame(&m)) {
                Some(Ok(frame)) => with_body(Body::full_with_trailers(frame, ok_trailers())),
                Some(Err(e)) => trailers_only(e.grpc_code(), &e.to_a2a_error(), &[]),
                None => trailers_only(
                    GrpcCode::INTERNAL,
                    &A2aError::internal("a stream where one message was due"),
                    &[],
                ),
            },
            Ok(Answer::Stream { first, rest, .. }) => with_body(Body::trailed(Messages {
                first: Some(first),
                rest: Some(rest),
            })),
            Ok(Answer::EmptyStream) => {
                let mut response = response_head().map(|()| Body::empty());
                response.headers_mut().extend(ok_trailers());
                response
            }
            Err(err) => {
                let code = self
                    .framing
                    .unwrap_or_else(|| GrpcCode::of_kind(err.kind()));
                trailers_only(code, &err, self.challenges)
            }
        }
    }
}

/// A 200 gRPC response carrying `body` (messages, then trailers).
fn with_body(body: Body) -> Response<Body> {
    response_head().map(|()| body)
}

/// A trailers-only error response, with the `challenges` on
/// `UNAUTHENTICATED` (spec 7.4).
fn trailers_only(code: GrpcCode, err: &A2aError, challenges: &[HeaderValue]) -> Response<Body> {
    let mut response = error_response(code, err).map(|()| Body::empty());
    if code == GrpcCode::UNAUTHENTICATED {
        for challenge in challenges {
            response
                .headers_mut()
                .append(WWW_AUTHENTICATE, challenge.clone());
        }
    }
    response
}

/// The answer to a request refused on its head.
fn refused(e: &GrpcError) -> Response<Body> {
    e.to_response().map(|()| Body::empty())
}

/// A transport-level error (the server's checks before the binding: a
/// body over the limit, one that did not arrive, a path over the limit)
/// as a trailers-only gRPC response. The HTTP `status` the other bindings
/// would answer picks gRPC's code where it names one: 413 is
/// `RESOURCE_EXHAUSTED`, 408 `DEADLINE_EXCEEDED`, 503 `UNAVAILABLE`;
/// otherwise the error table's.
pub(crate) fn transport_error(
    err: &A2aError,
    status: StatusCode,
    challenges: &[HeaderValue],
) -> Response<Body> {
    let code = match status {
        StatusCode::PAYLOAD_TOO_LARGE => GrpcCode::RESOURCE_EXHAUSTED,
        StatusCode::REQUEST_TIMEOUT => GrpcCode::DEADLINE_EXCEEDED,
        StatusCode::SERVICE_UNAVAILABLE => GrpcCode::UNAVAILABLE,
        _ => GrpcCode::of_kind(err.kind()),
    };
    trailers_only(code, err, challenges)
}

/// The events of a stream as framed messages, then the status.
struct Messages {
    first: Option<StreamResponse>,
    /// `None` once the trailers went out.
    rest: Option<EventStream>,
}

impl Messages {
    fn message(&mut self, event: &StreamResponse) -> Chunk {
        match encode_frame(&a2a_proto::encode(event)) {
            Ok(frame) => Chunk::Data(frame),
            Err(e) => self.end(status_fields(e.grpc_code(), &e.to_a2a_error())),
        }
    }

    fn end(&mut self, trailers: HeaderMap) -> Chunk {
        self.rest = None;
        Chunk::Trailers(trailers)
    }
}

impl Stream for Messages {
    type Item = Chunk;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Chunk>> {
        let this = self.get_mut();
        if let Some(first) = this.first.take() {
            return Poll::Ready(Some(this.message(&first)));
        }
        let Some(events) = this.rest.as_mut() else {
            return Poll::Ready(None);
        };
        Poll::Ready(Some(match poll_next_caught(events, cx) {
            Ok(Poll::Pending) => return Poll::Pending,
            Ok(Poll::Ready(Some(Ok(event)))) => this.message(&event),
            Ok(Poll::Ready(Some(Err(error)))) => {
                this.end(status_fields(GrpcCode::of_kind(error.kind()), &error))
            }
            Ok(Poll::Ready(None)) => this.end(ok_trailers()),
            Err(()) => {
                let error = panicked("event stream");
                this.end(status_fields(GrpcCode::of_kind(error.kind()), &error))
            }
        }))
    }
}

/// The request decoder and reply encoder of every operation, from the
/// operation table: its request message type and its unary result type.
macro_rules! grpc_codec {
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
        /// The request message of `op` from its protobuf bytes (at most
        /// `limit` of them).
        fn decode_request(
            op: Operation,
            bytes: &[u8],
            limit: usize,
        ) -> Result<A2aRequest, a2a_proto::ProtoError> {
            match op {
                $(Operation::$name => {
                    a2a_proto::decode_with_limit::<$params>(bytes, limit).map(A2aRequest::$name)
                })*
            }
        }

        /// The protobuf bytes of a unary reply; `None` for a stream.
        fn encode_reply(reply: &Reply) -> Option<Vec<u8>> {
            match reply {
                $(Reply::$name(value) => encode_unary!($answer, value),)*
            }
        }
    };
}

macro_rules! encode_unary {
    (unary, $value:ident) => {
        Some(a2a_proto::encode($value))
    };
    (stream, $value:ident) => {{
        let _ = $value;
        None
    }};
}

a2a_types::operation_table!(grpc_codec);

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::{GetTaskRequest, Task, TaskState};

    fn parts(method: &str, path: &str, content_type: Option<&str>) -> Parts {
        let mut builder = http::Request::builder().method(method).uri(path);
        if let Some(ct) = content_type {
            builder = builder.header(CONTENT_TYPE, ct);
        }
        builder.body(()).unwrap().into_parts().0
    }

    #[test]
    fn grpc_requests_are_told_by_content_type_or_path() {
        let grpc = |m, p, ct| is_grpc_request(&parts(m, p, ct));
        assert!(grpc("POST", "/x", Some("application/grpc")));
        assert!(grpc("POST", "/x", Some("Application/GRPC+json")));
        assert!(grpc("GET", "/lf.a2a.v1.A2AService/GetTask", None));
        assert!(grpc(
            "POST",
            "/lf.a2a.v1.A2AService/",
            Some("application/json")
        ));
        assert!(!grpc("POST", "/", Some("application/json")));
        assert!(!grpc("POST", "/lf.a2a.v1.A2AServiceX/GetTask", None));
        assert!(!grpc("POST", "/", Some("application/grp")));
    }

    #[test]
    fn requests_decode_for_every_operation_from_the_table() {
        for op in Operation::ALL {
            let empty = A2aRequest::empty(op);
            let bytes = match &empty {
                A2aRequest::GetTask(r) => a2a_proto::encode(r),
                _ => Vec::new(),
            };
            assert_eq!(decode_request(op, &bytes, 1 << 20).unwrap(), empty, "{op}");
        }
        let request = GetTaskRequest {
            tenant: "acme".into(),
            id: "t-1".into(),
            history_length: Some(3),
            ..Default::default()
        };
        let bytes = a2a_proto::encode(&request);
        assert_eq!(
            decode_request(Operation::GetTask, &bytes, 1 << 20).unwrap(),
            A2aRequest::GetTask(request)
        );
        assert!(decode_request(Operation::GetTask, &bytes, 2).is_err());
    }

    #[test]
    fn unary_replies_encode_and_streams_do_not() {
        let task = Task::new("t-1", "c-1", TaskState::Working);
        let bytes = encode_reply(&Reply::GetTask(task.clone())).unwrap();
        assert_eq!(a2a_proto::decode::<Task>(&bytes).unwrap(), task);
        let events: EventStream = Box::pin(Empty);
        assert!(encode_reply(&Reply::SubscribeToTask(events)).is_none());
    }

    struct Empty;
    impl Stream for Empty {
        type Item = Result<StreamResponse, A2aError>;
        fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            Poll::Ready(None)
        }
    }
}
