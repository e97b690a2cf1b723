//! The JSON-RPC binding on the server (spec 9): one endpoint, requests
//! framed and decoded for the server's pipeline, results and errors as
//! JSON-RPC responses, streams as SSE frames of JSON-RPC responses.
//!
//! # Decisions
//!
//! - **HTTP status of JSON-RPC errors: 200**, whatever the error (the
//!   JSON-RPC error object carries it, spec 9.5), as the official SDKs
//!   answer. Exceptions, each still with a JSON-RPC error body:
//!   - authentication: `UnauthenticatedError` is 401 with the
//!     `WWW-Authenticate` challenges and `PermissionDeniedError` 403, so
//!     that HTTP clients and proxies see the failure (spec 3.3.2, 7.4);
//!   - transport errors, before a JSON-RPC request exists: a method other
//!     than `POST` (405 with `Allow: POST`, `-32600`), a body over the
//!     limit (413), a path over the limit (414), a malformed
//!     `Content-Length` or query string (400), all `-32600`
//!     (`InvalidRequestError`) with id `null`; a `Content-Type` other than
//!     `application/json` or `application/a2a+json` is 415 with `-32005`
//!     (`ContentTypeNotSupportedError`, spec 3.3.2: "unsupported content
//!     type"), so that both the HTTP status and the A2A code name the
//!     condition.
//! - **Content types.** Responses are `application/json` (spec 9.1);
//!   requests may also say `application/a2a+json`, with any parameters.
//! - **Notifications** (a request without `id`, JSON-RPC 2.0 section 4.1)
//!   run through the pipeline like any request and are answered `204 No
//!   Content` with no body, whatever their outcome: 204 rather than 202
//!   because the call has run (for a streaming method, up to its first
//!   event) when the answer is sent. A notification refused before it is
//!   decoded (authentication, version) still gets its error, with id
//!   `null`: the refusal is the HTTP request's, not the call's.
//! - **Batches** (an array, JSON-RPC 2.0 section 6) are admitted once
//!   (authentication, version, extensions: they belong to the HTTP
//!   request, and an anonymous caller must not make the server read the
//!   batch), then split within [`BatchLimits`](a2a_jsonrpc::BatchLimits)
//!   and each element is decoded, validated, gated and run as a single
//!   request would be, all of them at once (JSON-RPC 2.0 section 6 lets a
//!   server run them as concurrent tasks; at most 32 by the default
//!   limits). The answer is the array of the elements' responses in the
//!   batch's order (notifications omitted), `204` if there are none; `[]`,
//!   a batch that is not JSON, or one over the limits is one error object
//!   with id `null`. A streaming method in a batch is not run: its element
//!   answers `UnsupportedOperationError` (`-32004`), since a stream cannot
//!   be one element of a JSON array.
//! - **Streams** answer `text/event-stream` with `Cache-Control:
//!   no-cache`; see the frames in [`Frames`](crate::frames).
//! - **A 0.3 streaming call that fails before its first event**
//!   (`message/stream`, `tasks/resubscribe`) is answered as a stream too:
//!   one SSE event whose data is the JSON-RPC error response (0.3 spec
//!   3.3.1, 7: "an SSE stream where each event's data is a
//!   JSONRPCResponse"), as both 0.3 SDK servers do; the 0.3 JavaScript
//!   client refuses an `application/json` answer to a streaming method.
//!   1.0 answers such an error with one JSON-RPC error body, as before.
//!   Errors before the request is decoded (authentication, version, a
//!   body that does not decode) stay JSON: the method is not known yet.

use a2a_jsonrpc::{
    decode_request, encode_batch, encode_error, is_batch, peek_id, split_batch, BatchLimits,
    DecodeConfig, Id,
};
use a2a_types::{A2aError, A2aRequest, ErrorKind};
use bytes::Bytes;
use http::header::{ALLOW, WWW_AUTHENTICATE};
use http::request::Parts;
use http::{HeaderValue, Method, Response, StatusCode};

use crate::body::Body;
use crate::frames::{sse_response, Frames};
use crate::keep_alive::KeepAlive;
use crate::pipeline::{query_error, status_of, Answer, CallHead, Framed};
use a2a_wire::http_json::{QueryError, QueryParams};
use a2a_wire::service_params::ProtocolVersion;
use a2a_wire::{check_json_content_type, Binding, JsonCodec, APPLICATION_JSON_VALUE};

/// A request to the JSON-RPC endpoint, past the transport checks.
pub(crate) struct JsonRpcCall<'a> {
    head: &'a Parts,
    body: &'a Bytes,
    query: &'a QueryParams<'a>,
    challenges: &'a [HeaderValue],
    keep_alive: Option<&'a KeepAlive>,
    /// The id every answer echoes: peeked before admission, then the one
    /// the decoder decided on.
    id: Id,
    /// Whether the decoder found a notification (answered with no body).
    notification: bool,
    /// Whether the decoded request is of a streaming operation.
    streaming: bool,
}

/// A request to the JSON-RPC endpoint after the transport checks: one
/// request object, or a batch.
pub(crate) enum Frame<'a> {
    /// One request.
    Call(JsonRpcCall<'a>),
    /// An array of requests.
    Batch(JsonRpcBatch<'a>),
}

/// A batch (JSON-RPC 2.0 section 6), not yet split.
pub(crate) struct JsonRpcBatch<'a> {
    head: &'a Parts,
    body: &'a Bytes,
    query: &'a QueryParams<'a>,
    challenges: &'a [HeaderValue],
}

/// One element of a batch.
pub(crate) struct BatchElement<'a> {
    body: &'a [u8],
    id: Id,
    notification: bool,
}

/// The transport checks of a request to the JSON-RPC endpoint: `POST`
/// (405), a JSON `Content-Type` (415), a query string that parses (400,
/// 414). Then a batch is told from a single request, whose id is peeked,
/// so that errors answered before decoding (401, version) echo it.
// The refusal is the finished response, built once per request.
#[allow(clippy::result_large_err)]
pub(crate) fn frame<'a>(
    head: &'a Parts,
    body: &'a Bytes,
    query: &'a Result<QueryParams<'a>, QueryError>,
    challenges: &'a [HeaderValue],
    keep_alive: Option<&'a KeepAlive>,
) -> Result<Frame<'a>, Response<Body>> {
    if head.method != Method::POST {
        let err = A2aError::new(
            ErrorKind::InvalidRequest,
            format!("JSON-RPC requests use POST, not {}", head.method),
        );
        let mut resp = error_response(
            &Id::Null,
            &err,
            Some(StatusCode::METHOD_NOT_ALLOWED),
            challenges,
        );
        resp.headers_mut()
            .insert(ALLOW, HeaderValue::from_static("POST"));
        return Err(resp);
    }
    if let Err(e) = check_json_content_type(&head.headers) {
        let err = A2aError::new(ErrorKind::ContentTypeNotSupported, e.message());
        return Err(error_response(
            &Id::Null,
            &err,
            Some(StatusCode::UNSUPPORTED_MEDIA_TYPE),
            challenges,
        ));
    }
    let query = match query {
        Ok(q) => q,
        Err(e) => {
            let (err, status) = query_error(e);
            return Err(error_response(&Id::Null, &err, Some(status), challenges));
        }
    };
    if is_batch(body) {
        return Ok(Frame::Batch(JsonRpcBatch {
            head,
            body,
            query,
            challenges,
        }));
    }
    Ok(Frame::Call(JsonRpcCall {
        head,
        body,
        query,
        challenges,
        keep_alive,
        id: peek_id(body),
        notification: false,
        streaming: false,
    }))
}

/// The decode step shared by single requests and batch elements: the
/// decoder's id and notification flag are kept for the answer.
fn decode_into(
    body: &[u8],
    id: &mut Id,
    notification: &mut bool,
    version: ProtocolVersion,
) -> Result<A2aRequest, A2aError> {
    let mut config = DecodeConfig::default();
    // A 0.3 caller names 0.3 methods with 0.3 params (spec 3.6.2); its
    // `tasks/list` is then MethodNotFound, as 0.3 has none.
    config.methods = *JsonCodec::answering(Binding::JsonRpc, Some(version)).method_table();
    // The body is within the server's limit; REQUIRED fields are the
    // pipeline's to check.
    config.max_request_size = usize::MAX;
    config.validate = false;
    match decode_request(body, &config) {
        Ok(r) => {
            *id = r.id;
            *notification = r.notification;
            Ok(r.request)
        }
        Err(e) => {
            *id = e.id;
            *notification = e.notification;
            Err(e.error)
        }
    }
}

impl<'a> Framed<'a> for JsonRpcCall<'a> {
    fn head(&self) -> CallHead<'a> {
        CallHead::from_http(self.head, Some(self.query))
    }

    fn decode(&mut self, version: ProtocolVersion) -> Result<A2aRequest, A2aError> {
        let request = decode_into(self.body, &mut self.id, &mut self.notification, version)?;
        self.streaming = request.operation().is_streaming();
        Ok(request)
    }

    fn respond(
        self,
        answer: Result<Answer, A2aError>,
        version: Option<ProtocolVersion>,
    ) -> Response<Body> {
        if self.notification {
            return no_content();
        }
        let codec = JsonCodec::answering(Binding::JsonRpc, version);
        match answer {
            Ok(Answer::Unary(reply)) => {
                json_response(StatusCode::OK, encode_reply(codec, &self.id, &reply))
            }
            Ok(Answer::Stream { first, rest, ids }) => sse_response(
                Body::stream(Frames::new(codec, self.id, Some(first), rest, ids)),
                self.keep_alive,
            ),
            Ok(Answer::EmptyStream) => sse_response(Body::empty(), None),
            Err(err) if codec.errors_in_stream() && self.streaming => {
                let mut encoder = a2a_sse::Encoder::with_capacity(256);
                encoder.data(&encode_error(&self.id, &err));
                sse_response(Body::from(encoder.take()), None)
            }
            Err(err) => error_response(&self.id, &err, None, self.challenges),
        }
    }
}

impl<'a> JsonRpcBatch<'a> {
    /// The service parameters and credentials, shared by every element.
    pub(crate) fn head(&self) -> CallHead<'a> {
        CallHead::from_http(self.head, Some(self.query))
    }

    /// The answer to a batch refused as a whole (admission): one error
    /// object with id `null`.
    pub(crate) fn refuse(&self, err: &A2aError) -> Response<Body> {
        error_response(&Id::Null, err, None, self.challenges)
    }

    /// The elements, or the one error answering the whole batch (`[]`,
    /// not JSON, over `limits`: 413 for the limits).
    #[allow(clippy::result_large_err)] // the refusal is the finished response
    pub(crate) fn split(
        &self,
        limits: &BatchLimits,
    ) -> Result<Vec<BatchElement<'a>>, Response<Body>> {
        match split_batch(self.body, limits) {
            Ok(elements) => Ok(elements
                .into_iter()
                .map(|body| BatchElement {
                    body,
                    id: Id::Null,
                    notification: false,
                })
                .collect()),
            Err(e) => {
                let transport = e.over_limit.then_some(StatusCode::PAYLOAD_TOO_LARGE);
                Err(error_response(&e.id, &e.error, transport, self.challenges))
            }
        }
    }

    /// The array of the elements' `responses` (spec: notifications have
    /// none), or 204 when no element is answered.
    pub(crate) fn respond(responses: Vec<Option<Vec<u8>>>) -> Response<Body> {
        match encode_batch(responses.iter().flatten().map(Vec::as_slice)) {
            Some(json) => json_response(StatusCode::OK, json),
            None => no_content(),
        }
    }
}

impl BatchElement<'_> {
    /// The element's request; a streaming method is refused, since its
    /// stream cannot be an element of the answer array.
    pub(crate) fn decode(&mut self, version: ProtocolVersion) -> Result<A2aRequest, A2aError> {
        let request = decode_into(self.body, &mut self.id, &mut self.notification, version)?;
        if request.operation().is_streaming() {
            return Err(A2aError::new(
                ErrorKind::UnsupportedOperation,
                format!(
                    "{} streams, and a stream cannot be an element of a batch: send it alone",
                    request.operation()
                ),
            ));
        }
        Ok(request)
    }

    /// The element's response, `None` for a notification.
    pub(crate) fn respond(
        &self,
        answer: Result<Answer, A2aError>,
        version: ProtocolVersion,
    ) -> Option<Vec<u8>> {
        if self.notification {
            return None;
        }
        Some(match answer {
            Ok(Answer::Unary(reply)) => encode_reply(
                JsonCodec::answering(Binding::JsonRpc, Some(version)),
                &self.id,
                &reply,
            ),
            Ok(_) => encode_error(
                &self.id,
                &A2aError::internal("a streaming answer in a batch"),
            ),
            Err(err) => encode_error(&self.id, &err),
        })
    }
}

/// A unary result in the caller's form: 0.3 (`kind`-tagged, 0.3 spec 7)
/// or 1.0 ProtoJSON. JSON-RPC results always encode.
fn encode_reply(codec: JsonCodec, id: &Id, reply: &a2a_types::Reply) -> Vec<u8> {
    codec
        .encode_reply(id, reply)
        .unwrap_or_else(|e| encode_error(id, &e))
}

/// The answer to a notification, or to a batch of them: no body
/// (JSON-RPC 2.0 sections 4.1, 6).
fn no_content() -> Response<Body> {
    let mut resp = Response::new(Body::empty());
    *resp.status_mut() = StatusCode::NO_CONTENT;
    resp
}

/// The HTTP status of a JSON-RPC error answer: `transport` when the error
/// is a transport one, else 401 / 403 for authentication failures, 429 for
/// a rate-limit refusal (so that HTTP clients and proxies see it as one)
/// and 200 for everything else.
fn status(err: &A2aError, transport: Option<StatusCode>) -> StatusCode {
    if let Some(status) = transport {
        return status;
    }
    match err.kind() {
        ErrorKind::Unauthenticated | ErrorKind::PermissionDenied | ErrorKind::RateLimited => {
            status_of(err)
        }
        _ => StatusCode::OK,
    }
}

/// A JSON-RPC error response for `id`, with the `WWW-Authenticate`
/// `challenges` on a 401.
pub(crate) fn error_response(
    id: &Id,
    err: &A2aError,
    transport: Option<StatusCode>,
    challenges: &[HeaderValue],
) -> Response<Body> {
    let status = status(err, transport);
    let mut resp = json_response(status, encode_error(id, err));
    crate::pipeline::write_retry_after(&mut resp, err);
    if status == StatusCode::UNAUTHORIZED {
        for challenge in challenges {
            resp.headers_mut()
                .append(WWW_AUTHENTICATE, challenge.clone());
        }
    }
    resp
}

fn json_response(status: StatusCode, json: Vec<u8>) -> Response<Body> {
    let mut resp = Response::new(Body::from(json));
    *resp.status_mut() = status;
    resp.headers_mut()
        .insert(http::header::CONTENT_TYPE, APPLICATION_JSON_VALUE);
    resp
}
