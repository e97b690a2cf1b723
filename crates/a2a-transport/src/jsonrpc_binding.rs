//! The JSON-RPC binding on the server (spec 9): one endpoint, every method
//! through [`dispatch`](crate::dispatch), results and errors as JSON-RPC
//! responses, streams as SSE frames of JSON-RPC responses.
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

use a2a_jsonrpc::{decode_request, encode_error, encode_result, DecodeConfig, Id};
use a2a_types::{A2aError, ErrorKind};
use bytes::Bytes;
use http::header::{ALLOW, WWW_AUTHENTICATE};
use http::request::Parts;
use http::{HeaderValue, Method, Response, StatusCode};

use crate::body::Body;
use crate::frames::{sse_response, Frames, Framing};
use crate::media::{check_json_content_type, APPLICATION_JSON_VALUE};
use crate::query::QueryParams;
use crate::server::{query_error, status_of, A2aServer, Answer, ReplyJson};
use crate::service::A2aService;

/// Answers a request to the JSON-RPC endpoint.
pub(crate) async fn handle<S: A2aService>(
    server: &A2aServer<S>,
    head: Parts,
    body: Bytes,
) -> Response<Body> {
    if head.method != Method::POST {
        let err = A2aError::new(
            ErrorKind::InvalidRequest,
            format!("JSON-RPC requests use POST, not {}", head.method),
        )
        .with_http_status(405);
        let mut resp = error_response(
            server,
            &Id::Null,
            &err,
            Some(StatusCode::METHOD_NOT_ALLOWED),
        );
        resp.headers_mut()
            .insert(ALLOW, HeaderValue::from_static("POST"));
        return resp;
    }
    if let Err(e) = check_json_content_type(&head.headers) {
        let err = A2aError::new(ErrorKind::InvalidRequest, e.message()).with_http_status(415);
        return error_response(
            server,
            &Id::Null,
            &err,
            Some(StatusCode::UNSUPPORTED_MEDIA_TYPE),
        );
    }
    let query =
        match QueryParams::parse_with(head.uri.query().unwrap_or(""), &server.config().query) {
            Ok(q) => q,
            Err(e) => {
                let err = query_error(&e);
                let status = match err.http_status() {
                    414 => StatusCode::URI_TOO_LONG,
                    _ => StatusCode::BAD_REQUEST,
                };
                return error_response(server, &Id::Null, &err, Some(status));
            }
        };

    // Decoded now for the id, which every later error echoes; a decoding
    // error is answered only after authentication and version (step 5).
    let mut config = DecodeConfig::default();
    config.max_request_size = server.config().max_body_size;
    let decoded = decode_request(&body, &config);
    let id = match &decoded {
        Ok(r) => r.id.clone(),
        Err(e) => e.id.clone(),
    };
    let cx = match server.admit(&head, &query).await {
        Ok(cx) => cx,
        Err(err) => return error_response(server, &id, &err, None),
    };
    let request = match decoded {
        Ok(r) => r.request,
        Err(e) => return error_response(server, &e.id, &e.error, None),
    };
    match server.call(cx, request).await {
        Ok(Answer::Unary(reply)) => {
            json_response(StatusCode::OK, encode_result(&id, &ReplyJson(&reply)))
        }
        Ok(Answer::Stream { first, rest }) => sse_response(
            Body::stream(Frames::new(Framing::JsonRpc(id), Some(first), rest)),
            server.config().keep_alive.as_ref(),
        ),
        Ok(Answer::EmptyStream) => sse_response(Body::empty(), None),
        Err(err) => error_response(server, &id, &err, None),
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
/// challenges on a 401.
pub(crate) fn error_response<S: A2aService>(
    server: &A2aServer<S>,
    id: &Id,
    err: &A2aError,
    transport: Option<StatusCode>,
) -> Response<Body> {
    let status = status(err, transport);
    let mut resp = json_response(status, encode_error(id, err));
    if status == StatusCode::UNAUTHORIZED {
        for challenge in server.challenges() {
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
