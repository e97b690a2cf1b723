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
//!     than `POST` (405 with `Allow: POST`), a `Content-Type` other than
//!     `application/json` or `application/a2a+json` (415), a body over the
//!     limit (413), a path over the limit (414), a malformed
//!     `Content-Length` or query string (400). Their code is `-32600`
//!     (`InvalidRequestError`) with id `null`.
//! - **Content types.** Responses are `application/json` (spec 9.1);
//!   requests may also say `application/a2a+json`, with any parameters.
//! - **Streams** answer `text/event-stream` with `Cache-Control:
//!   no-cache`; see the frames in [`Frames`](crate::frames).

use a2a_jsonrpc::{decode_request, encode_error, encode_result, peek_id, DecodeConfig, Id};
use a2a_types::{A2aError, A2aRequest, ErrorKind};
use bytes::Bytes;
use http::header::{ALLOW, WWW_AUTHENTICATE};
use http::request::Parts;
use http::{HeaderValue, Method, Response, StatusCode};

use crate::body::Body;
use crate::frames::{sse_response, Frames, Framing};
use crate::keep_alive::KeepAlive;
use crate::media::{check_json_content_type, APPLICATION_JSON_VALUE};
use crate::pipeline::{query_error, status_of, Answer, CallHead, Framed};
use crate::query::{QueryError, QueryParams};

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
}

/// The transport checks of a request to the JSON-RPC endpoint: `POST`
/// (405), a JSON `Content-Type` (415), a query string that parses (400,
/// 414). Then the id is peeked, so errors answered before decoding (401,
/// version) echo it.
// The refusal is the finished response, built once and returned at once.
#[allow(clippy::result_large_err)]
pub(crate) fn frame<'a>(
    head: &'a Parts,
    body: &'a Bytes,
    query: &'a Result<QueryParams<'a>, QueryError>,
    challenges: &'a [HeaderValue],
    keep_alive: Option<&'a KeepAlive>,
) -> Result<JsonRpcCall<'a>, Response<Body>> {
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
        let err = A2aError::new(ErrorKind::InvalidRequest, e.message());
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
    Ok(JsonRpcCall {
        head,
        body,
        query,
        challenges,
        keep_alive,
        id: peek_id(body),
    })
}

impl<'a> Framed<'a> for JsonRpcCall<'a> {
    fn head(&self) -> CallHead<'a> {
        CallHead::from_http(self.head, Some(self.query))
    }

    fn decode(&mut self) -> Result<A2aRequest, A2aError> {
        let mut config = DecodeConfig::default();
        // The body is within the server's limit; REQUIRED fields are the
        // pipeline's to check.
        config.max_request_size = usize::MAX;
        config.validate = false;
        match decode_request(self.body, &config) {
            Ok(r) => {
                self.id = r.id;
                Ok(r.request)
            }
            Err(e) => {
                self.id = e.id;
                Err(e.error)
            }
        }
    }

    fn respond(self, answer: Result<Answer, A2aError>) -> Response<Body> {
        match answer {
            Ok(Answer::Unary(reply)) => {
                json_response(StatusCode::OK, encode_result(&self.id, &reply))
            }
            Ok(Answer::Stream { first, rest }) => sse_response(
                Body::stream(Frames::new(Framing::JsonRpc(self.id), Some(first), rest)),
                self.keep_alive,
            ),
            Ok(Answer::EmptyStream) => sse_response(Body::empty(), None),
            Err(err) => error_response(&self.id, &err, None, self.challenges),
        }
    }
}

/// The HTTP status of a JSON-RPC error answer: `transport` when the error
/// is a transport one, else 401 / 403 for authentication failures and 200
/// for everything else.
fn status(err: &A2aError, transport: Option<StatusCode>) -> StatusCode {
    if let Some(status) = transport {
        return status;
    }
    match err.kind() {
        ErrorKind::Unauthenticated | ErrorKind::PermissionDenied => status_of(err),
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
