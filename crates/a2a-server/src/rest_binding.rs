//! The HTTP+JSON binding on the server (spec 11): the routes of 11.3 (with
//! the `/{tenant}` prefix), requests read from path, query (11.5) and
//! body by each route's rule ([`Route::body`](crate::Route::body),
//! [`Route::query_fields`](crate::Route::query_fields),
//! [`Route::path_fields`](crate::Route::path_fields)), responses as `application/a2a+json`, errors as
//! `google.rpc.Status` bodies (11.6), streams as SSE frames of bare
//! `StreamResponse`s (11.7).
//!
//! # Decisions
//!
//! - **Path and body.** A path parameter (task id, config id, tenant) is
//!   written into the request's field. When the body (or, for `GET` and
//!   `DELETE`, the `tenant` query parameter) also sets that field, the two
//!   must agree: a different value is `InvalidParamsError` (400) naming the
//!   field, never a silent choice of one. An empty field is unset
//!   (proto3), so it never conflicts.
//! - **Bodies.** `POST` bodies are decoded with `a2a_types::from_slice`
//!   (ProtoJSON, unknown fields ignored, errors naming the JSON path); an
//!   empty body (only whitespace) is the empty request, so
//!   `POST /tasks/{id}:cancel` needs none. A non-empty body must say
//!   `application/json` or `application/a2a+json` (415 otherwise). `GET`
//!   and `DELETE` bodies are ignored.
//! - **Query parameters** (`GET`, `DELETE`): the camelCase names of the
//!   request's scalar fields (spec 11.5) – `historyLength`, `pageSize`,
//!   `pageToken`, `contextId`, `status` (a `TaskState` name),
//!   `statusTimestampAfter` (RFC 3339), `includeArtifacts`, `tenant`;
//!   unknown names are ignored, as unknown JSON fields are. On `POST`
//!   only the service parameters are read from the query.
//! - **`DeleteTaskPushNotificationConfig`** answers 200 with `{}` (the
//!   proto's `google.protobuf.Empty` in JSON), as the official Python SDK
//!   does, rather than 204: a client decodes every success the same way.
//! - **Errors** carry the kind's HTTP status (spec 5.4), except transport
//!   errors: 404 for an unknown route (`MethodNotFoundError`, `NOT_FOUND`:
//!   nothing is there); 405 (with `Allow`) for a known path with another
//!   method, `InvalidRequestError` (`INVALID_ARGUMENT`): the resource
//!   exists, the request's method is what is wrong, and the JSON-RPC
//!   endpoint's 405 is the same kind; 414 and 413 `InvalidRequestError`;
//!   415 `ContentTypeNotSupportedError` (spec 3.3.2).
//! - **Media type by negotiation.** Responses and errors are
//!   `application/a2a+json` (spec 11.1), unless the request's `Accept`
//!   prefers `application/json` (a client that accepts only that gets it;
//!   RFC 9110 section 12.5.1). Streams are `text/event-stream`.
//! - **A2A 0.3** (when the server serves it): a request that negotiates
//!   0.3 (no `A2A-Version`, spec 3.6.2) is routed by
//!   [`RouteTable::V0_3`](crate::RouteTable::V0_3) (`/v1/message:send`...;
//!   `GET` and `POST` both subscribe) under the same base path, its body
//!   read and its answer written in the 0.3 proto's ProtoJSON
//!   ([`a2a_types::v0_3::request_from_rest`]), the form both 0.3 SDK REST
//!   clients send and read; errors are the JSON-RPC error object
//!   `{code, message, data}` with the same HTTP statuses, and stream
//!   errors an `error` event of it. A path 0.3 lacks (`GET /v1/tasks`) is
//!   404 `MethodNotFoundError`. Routing comes before admission, so the
//!   table is picked by the version the request asks for; admission then
//!   negotiates the same version.

use std::str::FromStr;

use a2a_types::{
    A2aError, A2aRequest, DecodeErrorKind, DecodeLimits, ErrorKind, FieldViolation, Operation,
    TaskState, Timestamp,
};
use bytes::Bytes;
use http::header::{ALLOW, CONTENT_TYPE, WWW_AUTHENTICATE};
use http::request::Parts;
use http::{HeaderValue, Method, Response, StatusCode};
use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use crate::body::Body;
use crate::frames::{sse_response, Frames};
use crate::keep_alive::KeepAlive;
use crate::pipeline::{query_error, status_of, Answer, CallHead, Framed};
use a2a_jsonrpc::Id;
use a2a_wire::http_json::{QueryError, QueryParams};
use a2a_wire::http_json::{QueryField, QueryKind, RequestBody, RouteError, RouteMatch, Router};
use a2a_wire::service_params::ProtocolVersion;
use a2a_wire::{check_json_content_type, response_json_type, Binding, JsonCodec};

/// The route tables the server reads, by version.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Routers<'a> {
    /// The 1.0 routes.
    pub(crate) v1_0: &'a Router,
    /// The 0.3 routes, when the server serves 0.3.
    pub(crate) v0_3: Option<&'a Router>,
    /// The version the request negotiated (the server negotiates it once,
    /// before framing); `None` when it negotiated none.
    pub(crate) asked: Option<ProtocolVersion>,
}

/// The server's settings the binding reads.
#[derive(Debug, Clone)]
pub(crate) struct Options<'a> {
    /// The largest body decoded, in bytes.
    pub(crate) max_body_size: usize,
    /// `Cache-Control` of the extended agent card (spec 8.6).
    pub(crate) extended_card_cache_control: HeaderValue,
    /// Keep-alive comments on streams, if the server sends them.
    pub(crate) keep_alive: Option<&'a KeepAlive>,
}

/// A request to an HTTP+JSON route, past the transport checks.
pub(crate) struct RestCall<'a> {
    head: &'a Parts,
    /// The version whose route table matched.
    version: ProtocolVersion,
    matched: RouteMatch<'a>,
    body: &'a Bytes,
    query: &'a QueryParams<'a>,
    challenges: &'a [HeaderValue],
    options: Options<'a>,
}

/// The transport checks of a request under the HTTP+JSON base path: the
/// route (404, 405 with `Allow`, 414, 400 for a path parameter that does
/// not decode), the query string (400, 414), and a JSON `Content-Type`
/// on a `POST` with a body (415).
// The refusal is the finished response, built once per request.
#[allow(clippy::result_large_err)]
pub(crate) fn frame<'a>(
    routers: Routers<'_>,
    head: &'a Parts,
    body: &'a Bytes,
    query: &'a Result<QueryParams<'a>, QueryError>,
    challenges: &'a [HeaderValue],
    options: Options<'a>,
) -> Result<RestCall<'a>, Response<Body>> {
    // The version the request asks for picks the table; a request whose
    // version does not negotiate is routed as 1.0 and refused at admission.
    let (router, version) = match (routers.v0_3, routers.asked) {
        (Some(v03), Some(ProtocolVersion::V0_3)) => (v03, ProtocolVersion::V0_3),
        #[cfg(feature = "draft-1-1")]
        (_, Some(ProtocolVersion::V1_1)) => (routers.v1_0, ProtocolVersion::V1_1),
        _ => (routers.v1_0, ProtocolVersion::V1_0),
    };
    let codec = JsonCodec::answering(Binding::HttpJson, Some(version));
    let matched = match router.match_route(&head.method, head.uri.path()) {
        Ok(m) => m,
        Err(e) => return Err(route_error(head, e, challenges, codec)),
    };
    let query = match query {
        Ok(q) => q,
        Err(e) => {
            let (err, status) = query_error(e);
            return Err(error_in(head, &err, status, challenges, codec));
        }
    };
    if matched.route.method() == Method::POST && !is_blank(body) {
        if let Err(e) = check_json_content_type(&head.headers) {
            let err = A2aError::new(ErrorKind::ContentTypeNotSupported, e.message());
            return Err(error_in(
                head,
                &err,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                challenges,
                codec,
            ));
        }
    }
    Ok(RestCall {
        head,
        version,
        matched,
        body,
        query,
        challenges,
        options,
    })
}

impl<'a> Framed<'a> for RestCall<'a> {
    fn head(&self) -> CallHead<'a> {
        CallHead::from_http(self.head, Some(self.query))
    }

    /// Reads the request by the route's rule: the message from the body or
    /// from the query, then the path parameters into their fields.
    fn decode(&mut self, version: ProtocolVersion) -> Result<A2aRequest, A2aError> {
        if version != self.version {
            // Routing and admission read the same parameters.
            return Err(A2aError::internal(format!(
                "routed as {} but negotiated {version}",
                self.version
            )));
        }
        let route = self.matched.route;
        let op = route.operation();
        let mut request = match route.body() {
            RequestBody::Message => {
                let codec = JsonCodec::answering(Binding::HttpJson, Some(version));
                read_body(op, self.body, self.options.max_body_size, codec)?
            }
            RequestBody::None => read_query(op, route.query_fields(), self.query)?,
        };
        for (param, field) in route.path_fields() {
            let Some(value) = self.matched.params.get(param) else {
                continue;
            };
            let Some(slot) = request.string_field_mut(field) else {
                return Err(A2aError::internal(format!(
                    "the route binds {field}, which {op} does not have"
                )));
            };
            bind(field, value, slot)?;
        }
        Ok(request)
    }

    fn respond(
        self,
        answer: Result<Answer, A2aError>,
        version: Option<ProtocolVersion>,
    ) -> Response<Body> {
        // Refused before negotiation: the form of the table that matched.
        let codec = JsonCodec::answering(Binding::HttpJson, Some(version.unwrap_or(self.version)));
        match answer {
            Ok(Answer::Unary(reply)) => match codec.encode_reply(&Id::Null, &reply) {
                Ok(json) => {
                    let card = matches!(reply, a2a_types::Reply::GetExtendedAgentCard(_));
                    let mut resp = json_response(self.head, StatusCode::OK, json, codec);
                    if card {
                        crate::card::cache_extended_card(
                            &mut resp,
                            &self.head.headers,
                            &self.options.extended_card_cache_control,
                        );
                    }
                    resp
                }
                Err(err) => error_in(self.head, &err, status_of(&err), self.challenges, codec),
            },
            Ok(Answer::Stream { first, rest, ids }) => {
                let frames = Frames::new(codec, Id::Null, Some(first), rest, ids);
                sse_response(Body::stream(frames), self.options.keep_alive)
            }
            Ok(Answer::EmptyStream) => sse_response(Body::empty(), None),
            Err(err) => error_in(self.head, &err, status_of(&err), self.challenges, codec),
        }
    }
}

/// The answer to a path that did not route.
fn route_error(
    head: &Parts,
    e: RouteError,
    challenges: &[HeaderValue],
    codec: JsonCodec,
) -> Response<Body> {
    let (err, status) = match &e {
        RouteError::PathTooLong { .. } => (
            A2aError::new(ErrorKind::InvalidRequest, e.to_string()),
            StatusCode::URI_TOO_LONG,
        ),
        RouteError::NotFound => (
            A2aError::new(
                ErrorKind::MethodNotFound,
                format!(
                    "no A2A route matches {} {}",
                    head.method,
                    echo(head.uri.path())
                ),
            ),
            StatusCode::NOT_FOUND,
        ),
        RouteError::MethodNotAllowed { allowed } => (
            A2aError::new(
                ErrorKind::InvalidRequest,
                format!("{} is not allowed here; allowed: {allowed}", head.method),
            ),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        RouteError::InvalidParam { field, error, .. } => {
            let err = invalid(field, error.to_string());
            let status = status_of(&err);
            (err, status)
        }
        _ => (
            A2aError::new(ErrorKind::InvalidRequest, e.to_string()),
            StatusCode::BAD_REQUEST,
        ),
    };
    let mut resp = error_in(head, &err, status, challenges, codec);
    if let RouteError::MethodNotAllowed { allowed } = e {
        resp.headers_mut().insert(ALLOW, allowed.header_value());
    }
    resp
}

/// At most 128 bytes of `text`, cut at a character boundary.
fn echo(text: &str) -> &str {
    let mut end = text.len().min(128);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

/// The `google.rpc.Status` name of an HTTP status no row of the error
/// table has, which the host's transport answers (as the gRPC binding's
/// `transport_error` does): 503, the server out of a resource for now,
/// is `UNAVAILABLE` (Google's HTTP mapping of that code), not the
/// `INTERNAL` of its `InternalError`; 408, a body that did not arrive in
/// the server's time, is `DEADLINE_EXCEEDED`, not the `INVALID_ARGUMENT`
/// of its `InvalidRequestError`: nothing was wrong with what did arrive.
fn transport_status_name(status: StatusCode) -> Option<&'static str> {
    match status {
        StatusCode::SERVICE_UNAVAILABLE => Some("UNAVAILABLE"),
        StatusCode::REQUEST_TIMEOUT => Some("DEADLINE_EXCEEDED"),
        _ => None,
    }
}

/// A `google.rpc.Status` error response (spec 11.6) to the request
/// `head` (whose `Accept` picks the media type) with `status` (also the
/// body's `code`), and the `WWW-Authenticate` `challenges` on a 401.
pub(crate) fn error_response(
    head: &Parts,
    err: &A2aError,
    status: StatusCode,
    challenges: &[HeaderValue],
) -> Response<Body> {
    let mut body = err.to_status();
    body.error.code = status.as_u16();
    if let Some(name) = transport_status_name(status) {
        body.error.status = name.to_owned();
    }
    let json = a2a_types::json::to_vec(&body).unwrap_or_else(|_| {
        br#"{"error":{"code":500,"status":"INTERNAL","message":"the error could not be serialized"}}"#
            .to_vec()
    });
    let mut resp = json_response(head, status, json, JsonCodec::HttpJson);
    crate::pipeline::write_retry_after(&mut resp, err);
    if status == StatusCode::UNAUTHORIZED {
        for challenge in challenges {
            resp.headers_mut()
                .append(WWW_AUTHENTICATE, challenge.clone());
        }
    }
    resp
}

/// An error response in `codec`'s form: a `google.rpc.Status` body for
/// 1.0, the JSON-RPC error object for 0.3 (what the 0.3 JavaScript client
/// maps by `code`), both with `status`.
fn error_in(
    head: &Parts,
    err: &A2aError,
    status: StatusCode,
    challenges: &[HeaderValue],
    codec: JsonCodec,
) -> Response<Body> {
    if codec == JsonCodec::HttpJson {
        return error_response(head, err, status, challenges);
    }
    let mut resp = json_response(head, status, codec.encode_error(&Id::Null, err), codec);
    crate::pipeline::write_retry_after(&mut resp, err);
    if status == StatusCode::UNAUTHORIZED {
        for challenge in challenges {
            resp.headers_mut()
                .append(WWW_AUTHENTICATE, challenge.clone());
        }
    }
    resp
}

/// A JSON response in `codec`'s media type: 1.0's the one the caller's
/// `Accept` picks (spec 11.2), 0.3's `application/json`, the one it knows
/// (0.3 spec 3.2.3).
fn json_response(
    head: &Parts,
    status: StatusCode,
    json: Vec<u8>,
    codec: JsonCodec,
) -> Response<Body> {
    let mut resp = Response::new(Body::from(json));
    *resp.status_mut() = status;
    let content_type = match codec {
        JsonCodec::HttpJson => response_json_type(&head.headers),
        _ => HeaderValue::from_static(codec.media_type()),
    };
    resp.headers_mut().insert(CONTENT_TYPE, content_type);
    resp
}

fn is_blank(body: &[u8]) -> bool {
    body.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// The request message of `op` from the body, in `codec`'s form;
/// the empty request when the body is blank, so `POST /tasks/{id}:cancel`
/// needs none.
fn read_body(
    op: Operation,
    body: &[u8],
    max: usize,
    codec: JsonCodec,
) -> Result<A2aRequest, A2aError> {
    if is_blank(body) {
        return Ok(A2aRequest::empty(op));
    }
    let limits = DecodeLimits::new().with_max_input_bytes(max);
    let decoded = codec.decode_request_body(op, body, &limits);
    decoded.map_err(|e| {
        // The typed decoder stops at the first type error, which can come
        // before a syntax error (`[1,2`): malformed JSON is JSONParseError
        // whatever the decoder met first, as on the JSON-RPC binding.
        let typed = e.kind() == DecodeErrorKind::Data;
        match serde_json::from_slice::<IgnoredAny>(body) {
            Err(syntax) if typed => A2aError::new(
                ErrorKind::JsonParse,
                format!("Invalid JSON payload: {syntax}"),
            ),
            _ => A2aError::from(e),
        }
    })
}

/// The request message of `op` from the route's query fields (spec 11.5),
/// each read by its kind. Unknown parameters are ignored, as unknown JSON
/// fields are.
fn read_query(
    op: Operation,
    fields: &[QueryField],
    query: &QueryParams<'_>,
) -> Result<A2aRequest, A2aError> {
    let read = |e: QueryError| query_error(&e).0;
    let mut message = Map::new();
    for field in fields {
        let value = match field.kind {
            QueryKind::String => query.get_str(field.name).map_err(read)?.map(Value::from),
            QueryKind::Int32 => query.get_i32(field.name).map_err(read)?.map(Value::from),
            // ProtoJSON's int64 is a string.
            #[cfg(feature = "draft-1-1")]
            QueryKind::Int64 => query
                .get_i64(field.name)
                .map_err(read)?
                .map(|n| Value::from(n.to_string())),
            QueryKind::Bool => query.get_bool(field.name).map_err(read)?.map(Value::from),
            QueryKind::TaskState => match query.get_str(field.name).map_err(read)? {
                Some(text) => {
                    let state = TaskState::from_str(text)
                        .map_err(|e| invalid(field.name, e.to_string()))?;
                    Some(Value::from(state.as_str_name()))
                }
                None => None,
            },
            QueryKind::Timestamp => match query.get_str(field.name).map_err(read)? {
                Some(text) => {
                    Timestamp::parse(text).map_err(|e| invalid(field.name, e.to_string()))?;
                    Some(Value::from(text))
                }
                None => None,
            },
        };
        if let Some(value) = value {
            message.insert(field.name.to_owned(), value);
        }
    }
    let json = serde_json::to_vec(&message)
        .map_err(|e| A2aError::internal(format!("query parameters: {e}")))?;
    A2aRequest::from_json(op, &json, &DecodeLimits::new()).map_err(A2aError::from)
}

fn invalid(field: &str, description: String) -> A2aError {
    A2aError::invalid_params(vec![FieldViolation {
        field: field.to_owned(),
        description,
    }])
}

/// Writes a path parameter's `value` into the request `field` it names. A
/// field already set to another value (by the body or the query) is a
/// conflict, never a silent choice of one.
fn bind(field: &str, value: &str, slot: &mut String) -> Result<(), A2aError> {
    if !slot.is_empty() && slot != value {
        return Err(invalid(
            field,
            format!(
                "the request says {:?} but the path says {:?}",
                echo(slot),
                echo(value)
            ),
        ));
    }
    value.clone_into(slot);
    Ok(())
}
