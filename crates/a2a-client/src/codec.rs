//! [`Codec`]: one value per wire the client speaks, a binding at a
//! protocol version. What differs between JSON-RPC, HTTP+JSON and gRPC, and
//! between 1.0 and 0.3 on each, is decided here, by matching on the codec;
//! the driver ([`HttpTransport`](crate::HttpTransport)) chooses the codec
//! once per call and then only sends and retries.

use a2a_jsonrpc::Id;
use a2a_types::{
    A2aError, A2aRequest, ErrorBody, ErrorKind, FieldViolation, Operation, Reply, RpcStatus,
};
use bytes::Bytes;
use http::header::{HeaderValue, ACCEPT, CONTENT_TYPE};
use http::{HeaderMap, Method as HttpMethod, Uri};
use serde::Deserialize;

use crate::client_error::{invalid_response, status_without_error, with_challenges};
use crate::client_stream::SseStream;
use crate::config::ClientConfig;
#[cfg(feature = "grpc")]
use crate::grpc_client::{self, GrpcEvents};
use a2a_wire::http_json::{
    BuildPathError, PathParam, PathParams, QueryBuilder, QueryKind, RequestBody, Route, Router,
};
use a2a_wire::service_params::ProtocolVersion;
use a2a_wire::{read_body, Binding, HttpError, JsonCodec, ReadBody, ResponseBody};
use a2a_wire::{APPLICATION_JSON, EVENT_STREAM};

/// The protocol versions the client side speaks, most preferred first:
/// discovery's default order (prefer 1.0, fall back to 0.3).
#[cfg(not(feature = "draft-1-1"))]
pub(crate) const SPOKEN_VERSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V1_0, ProtocolVersion::V0_3];

/// The protocol versions the client side speaks, most preferred first:
/// the 1.1 draft where an interface declares it, else 1.0, else 0.3.
#[cfg(feature = "draft-1-1")]
pub(crate) const SPOKEN_VERSIONS: [ProtocolVersion; 3] = [
    ProtocolVersion::V1_1,
    ProtocolVersion::V1_0,
    ProtocolVersion::V0_3,
];

/// Whether the client side speaks `binding` at all: JSON-RPC and
/// HTTP+JSON always, gRPC with the `grpc` feature.
pub(crate) fn speaks_binding(binding: Binding) -> bool {
    Codec::select(binding, ProtocolVersion::V1_0).is_some()
}

/// Whether the client side speaks `version` over `binding`, for
/// discovery's choice: whether it has a codec for that wire.
pub(crate) fn speaks(binding: Binding, version: ProtocolVersion) -> bool {
    Codec::select(binding, version).is_some()
}

/// Where an interface's calls go: its URL and, for HTTP+JSON, the router
/// holding its base path.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    /// The interface URL.
    pub(crate) url: Uri,
    /// HTTP+JSON's routes under the URL's path (empty for the others).
    pub(crate) router: Router,
}

/// One wire: a binding at a protocol version. The JSON wires' bodies are
/// [`JsonCodec`]'s, the one both ends share; gRPC's are the proto's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Codec {
    /// JSON-RPC or HTTP+JSON, at 1.0 (and the 1.1 draft) or 0.3.
    Json(JsonCodec),
    /// gRPC at 1.0 (spec 10); 0.3's gRPC is another proto package, not
    /// spoken.
    #[cfg(feature = "grpc")]
    Grpc,
}

impl Codec {
    /// The codec of `binding` at `version`, or `None` when this client
    /// does not speak that wire: the one place that decides, for
    /// discovery's choice and for each call.
    pub(crate) fn select(binding: Binding, version: ProtocolVersion) -> Option<Codec> {
        match binding {
            // gRPC speaks the versions JSON-RPC speaks on 1.0's bodies.
            #[cfg(feature = "grpc")]
            Binding::Grpc => JsonCodec::select(Binding::JsonRpc, version)
                .filter(|c| !c.is_v0_3())
                .map(|_| Codec::Grpc),
            _ => JsonCodec::select(binding, version).map(Codec::Json),
        }
    }

    /// The codec of a call at `version` over `binding`, or the
    /// `VersionNotSupportedError` naming the versions spoken over it.
    pub(crate) fn for_call(binding: Binding, version: ProtocolVersion) -> Result<Codec, A2aError> {
        Codec::select(binding, version).ok_or_else(|| {
            let spoken: Vec<String> = SPOKEN_VERSIONS
                .iter()
                .filter(|v| speaks(binding, **v))
                .map(|v| v.to_string())
                .collect();
            let spoken: Vec<&str> = spoken.iter().map(String::as_str).collect();
            A2aError::version_not_supported(&version.to_string(), &spoken)
        })
    }

    /// The binding this codec frames.
    pub(crate) fn binding(self) -> Binding {
        match self {
            Codec::Json(codec) => codec.binding(),
            #[cfg(feature = "grpc")]
            Codec::Grpc => Binding::Grpc,
        }
    }

    /// The HTTP request of `request`, with `headers` (the version,
    /// extensions and trace already in them) and, for JSON-RPC, the id
    /// `n`, which it answers.
    pub(crate) fn encode(
        self,
        endpoint: &Endpoint,
        request: &A2aRequest,
        n: u64,
        mut headers: HeaderMap,
        streaming: bool,
        config: &ClientConfig,
    ) -> Result<(http::Request<Bytes>, Id), A2aError> {
        // Without the `grpc` feature JSON is the one wire.
        #[cfg_attr(not(feature = "grpc"), allow(clippy::infallible_destructuring_match))]
        let codec = match self {
            Codec::Json(codec) => codec,
            #[cfg(feature = "grpc")]
            Codec::Grpc => {
                let grpc =
                    grpc_client::build_request(&endpoint.url, request, headers, config.timeout)?;
                return Ok((grpc, Id::Null));
            }
        };
        // Only gRPC reads the timeout (as `grpc-timeout`).
        let _ = config;
        if codec.is_v0_3() && request.operation() == Operation::ListTasks {
            return Err(no_v03_list_tasks());
        }
        let (method, uri, body, id) = match codec.binding() {
            Binding::JsonRpc => {
                let id = Id::number(n);
                let body = codec.encode_request(&id, request);
                (HttpMethod::POST, endpoint.url.clone(), Some(body), id)
            }
            _ => {
                let (method, uri, body) = rest_request(codec, endpoint, request)?;
                (method, uri, body, Id::Null)
            }
        };
        let accept = match (streaming, codec.binding()) {
            (true, _) => EVENT_STREAM,
            (false, Binding::JsonRpc) => APPLICATION_JSON,
            (false, _) => "application/a2a+json, application/json",
        };
        headers.insert(ACCEPT, HeaderValue::from_static(accept));
        match &body {
            Some(_) => {
                headers.insert(CONTENT_TYPE, HeaderValue::from_static(codec.media_type()));
            }
            None => {
                headers.remove(CONTENT_TYPE);
            }
        }

        let mut http_request = http::Request::new(body.map(Bytes::from).unwrap_or_default());
        *http_request.method_mut() = method;
        *http_request.uri_mut() = uri;
        *http_request.headers_mut() = headers;
        Ok((http_request, id))
    }

    /// A failure of the host's client as the call's error ([`ClientFailure`](crate::ClientFailure)),
    /// with the gRPC hint on gRPC.
    pub(crate) fn send_failed(self, e: HttpError) -> A2aError {
        match self {
            #[cfg(feature = "grpc")]
            Codec::Grpc => crate::client_error::grpc_send_failed(e),
            _ => e.into(),
        }
    }

    /// Reads the response of a unary call of `op` sent with `id`.
    pub(crate) async fn read_unary(
        self,
        op: Operation,
        id: &Id,
        response: http::Response<ResponseBody>,
        endpoint: &Endpoint,
        config: &ClientConfig,
    ) -> Result<Reply, A2aError> {
        match self {
            Codec::Json(codec) => read_json_unary(codec, op, id, response, endpoint, config).await,
            #[cfg(feature = "grpc")]
            Codec::Grpc => {
                let (parts, mut body) = response.into_parts();
                let head = grpc_client::read_head(&parts, &endpoint.url)?;
                grpc_client::read_unary(op, head, &mut body, config.max_response_body).await
            }
        }
    }

    /// Reads the head of a stream's response (and its error body if any);
    /// the events are then read with this codec.
    pub(crate) async fn read_stream(
        self,
        id: Id,
        response: http::Response<ResponseBody>,
        endpoint: &Endpoint,
        config: &ClientConfig,
    ) -> Result<SseStream, A2aError> {
        match self {
            Codec::Json(codec) => read_json_stream(codec, id, response, endpoint, config).await,
            #[cfg(feature = "grpc")]
            Codec::Grpc => {
                let (parts, body) = response.into_parts();
                let head = grpc_client::read_head(&parts, &endpoint.url)?;
                Ok(SseStream::grpc(GrpcEvents::new(
                    head,
                    body,
                    config.max_response_body,
                )))
            }
        }
    }
}

/// Reads a JSON wire's answer to a unary call.
async fn read_json_unary(
    codec: JsonCodec,
    op: Operation,
    id: &Id,
    response: http::Response<ResponseBody>,
    endpoint: &Endpoint,
    config: &ClientConfig,
) -> Result<Reply, A2aError> {
    let (parts, mut body) = response.into_parts();
    if !parts.status.is_success() {
        return Err(error_response(codec, &parts, &mut body, endpoint, config).await);
    }
    let bytes = match read_body(&parts.headers, &mut body, config.max_response_body).await? {
        ReadBody::Complete(b) => b,
        ReadBody::TooLarge => return Err(too_large(config.max_response_body)),
    };
    if !bytes.is_empty() {
        check_json(&parts.headers)?;
    }
    codec
        .decode_reply(op, &bytes, id)
        .map_err(|e| with_challenges(e, &parts.headers))
}

/// Reads the head of a JSON wire's stream, and its error body if any.
async fn read_json_stream(
    codec: JsonCodec,
    id: Id,
    response: http::Response<ResponseBody>,
    endpoint: &Endpoint,
    config: &ClientConfig,
) -> Result<SseStream, A2aError> {
    let (parts, mut body) = response.into_parts();
    if !parts.status.is_success() {
        return Err(error_response(codec, &parts, &mut body, endpoint, config).await);
    }
    match media_type(&parts.headers) {
        Some(m) if m.eq_ignore_ascii_case(EVENT_STREAM) => {
            let stream = SseStream::new(body, codec, id, config.sse);
            return if codec.errors_in_stream() {
                stream.first_error().await
            } else {
                Ok(stream)
            };
        }
        Some(m) if is_json(m) => {}
        other => {
            return Err(invalid_response(&format!(
                "a stream must be {EVENT_STREAM}, the response is {}",
                other.unwrap_or("without a Content-Type")
            )))
        }
    }
    // A JSON answer to a streaming call: the binding's error object is the
    // error; anything else is not a stream.
    let bytes = match read_body(&parts.headers, &mut body, config.max_error_body).await? {
        ReadBody::Complete(b) => b,
        ReadBody::TooLarge => return Err(too_large(config.max_error_body)),
    };
    Err(match codec.decode_error(&bytes) {
        Some(e) => with_challenges(e, &parts.headers),
        None => invalid_response(&format!(
            "a stream must be {EVENT_STREAM}, the response is JSON"
        )),
    })
}

/// The error of a non-2xx response (see the crate documentation).
async fn error_response(
    codec: JsonCodec,
    parts: &http::response::Parts,
    body: &mut ResponseBody,
    endpoint: &Endpoint,
    config: &ClientConfig,
) -> A2aError {
    let status = parts.status.as_u16();
    let json = match read_body(&parts.headers, body, config.max_error_body).await {
        Ok(ReadBody::Complete(b)) if !b.is_empty() && json_or_untyped(&parts.headers) => Some(b),
        _ => None,
    };
    let json = json.as_deref();
    let unexplained = || status_without_error(status, &endpoint.url.to_string());
    let error = match codec {
        JsonCodec::JsonRpc | JsonCodec::JsonRpcV0_3 => {
            match json.and_then(|b| codec.decode_error(b)) {
                // 401 and 403 are the authentication and authorization errors
                // of both HTTP bindings (spec 3.3.2), whatever code a
                // middleware in front of the agent put in its body.
                Some(e) if matches!(status, 401 | 403) && !is_auth_kind(e.kind()) => {
                    A2aError::from_status(
                        status,
                        Some(RpcStatus {
                            code: status,
                            status: String::new(),
                            message: e.message().to_owned(),
                            details: e.details().to_vec(),
                        }),
                    )
                }
                Some(e) => e.with_received_status(status),
                None => unexplained(),
            }
        }
        JsonCodec::HttpJsonV0_3 => match json.and_then(|b| codec.decode_error(b)) {
            Some(e) => e.with_received_status(status),
            // The Python 0.3 SDK's REST errors: `{"message"}` and the HTTP
            // status alone.
            None => match json.and_then(message_only) {
                Some(message) => A2aError::from_status(
                    status,
                    Some(RpcStatus {
                        code: status,
                        status: String::new(),
                        message,
                        details: Vec::new(),
                    }),
                ),
                None => unexplained(),
            },
        },
        // 1.0's `google.rpc.Status` (spec 11.6), under the status the
        // response was sent with.
        _ => match json.and_then(|b| serde_json::from_slice::<ErrorBody>(b).ok()) {
            Some(body) => A2aError::from_status(status, Some(body.error)),
            None => unexplained(),
        },
    };
    with_challenges(error, &parts.headers)
}

/// Method, URI and body of an HTTP+JSON request (spec 11.3-11.5), by
/// the canonical route's rule: its path fields into the path, then the
/// whole message as the body, or its query fields into the query.
///
/// At 0.3 the route is the 0.3 table's and the body
/// [`JsonCodec::request_body`]'s 0.3 form; 0.3 has no tenants.
fn rest_request(
    codec: JsonCodec,
    endpoint: &Endpoint,
    request: &A2aRequest,
) -> Result<(HttpMethod, Uri, Option<Vec<u8>>), A2aError> {
    let op = request.operation();
    let v03 = codec.is_v0_3();
    let table = codec.route_table();
    let router = endpoint.router.clone().with_table(table);
    let route = table.canonical(op).ok_or_else(no_v03_list_tasks)?;
    let mut params = PathParams::new();
    for (param, field) in route.path_fields() {
        let value = request.string_field(field).unwrap_or_default();
        // 0.3 has no tenants (`a2a_types::v0_3::MAPPING`): its
        // interface URL says where the tenant's agent is.
        if param != PathParam::Tenant || !value.is_empty() && !v03 {
            params = params.with(param, value);
        }
    }
    let mut query = QueryBuilder::new();
    let body = match route.body() {
        RequestBody::Message => Some(codec.request_body(request)?),
        RequestBody::None => {
            write_query(route, request, &mut query)?;
            None
        }
    };
    let mut path = router
        .build_path(op, &params)
        .map_err(|e| path_error(op, e))?;
    query.append_to(&mut path);
    let mut parts = http::uri::Parts::default();
    parts.scheme = endpoint.url.scheme().cloned();
    parts.authority = endpoint.url.authority().cloned();
    parts.path_and_query = Some(
        path.parse()
            .map_err(|_| A2aError::internal("the request path is not a valid URI path"))?,
    );
    let uri = Uri::from_parts(parts)
        .map_err(|_| A2aError::internal("the request URI could not be built"))?;
    Ok((route.method(), uri, body))
}

/// Writes the fields of `request` that `route` carries in the query and
/// its path does not (the tenant travels as the path prefix), each as its
/// ProtoJSON value: fields at their default are absent from the message's
/// JSON, so they are not sent.
fn write_query(
    route: &Route,
    request: &A2aRequest,
    query: &mut QueryBuilder,
) -> Result<(), A2aError> {
    if route.query_fields().is_empty() {
        return Ok(());
    }
    let message = serde_json::to_value(request)
        .map_err(|e| A2aError::internal(format!("request encoding: {e}")))?;
    for field in route.query_fields() {
        if route.path_fields().any(|(_, f)| f == field.name) {
            continue;
        }
        match (field.kind, message.get(field.name)) {
            (_, None) => {}
            (QueryKind::Int32, Some(v)) => {
                if let Some(n) = v.as_i64() {
                    query.push_int(field.name, n);
                }
            }
            #[cfg(feature = "draft-1-1")]
            (QueryKind::Int64, Some(v)) => {
                if let Some(n) = v.as_str().and_then(|t| t.parse::<i64>().ok()) {
                    query.push_int(field.name, n);
                }
            }
            (QueryKind::Bool, Some(v)) => {
                if let Some(b) = v.as_bool() {
                    query.push_bool(field.name, b);
                }
            }
            (QueryKind::String | QueryKind::TaskState | QueryKind::Timestamp, Some(v)) => {
                if let Some(text) = v.as_str() {
                    query.push(field.name, text);
                }
            }
        }
    }
    Ok(())
}

/// A path parameter the request lacks, as the `InvalidParamsError` a
/// server would answer.
fn path_error(op: Operation, e: BuildPathError) -> A2aError {
    let param = match e {
        BuildPathError::MissingParam { param, .. }
        | BuildPathError::UnexpectedParam { param, .. }
        | BuildPathError::EmptyParam { param } => param,
        // Only a 0.3 table lacks a route; the caller's version has no
        // such operation.
        BuildPathError::NoRoute { .. } => {
            return A2aError::new(a2a_types::ErrorKind::MethodNotFound, e.to_string())
        }
        _ => return A2aError::internal(e.to_string()),
    };
    let field = Route::canonical(op)
        .field_name(param)
        .unwrap_or(param.name());
    A2aError::invalid_params(vec![FieldViolation {
        field: field.to_owned(),
        description: "Required field is missing".to_owned(),
    }])
}

/// The error of a body over the configured limit.
pub(crate) fn too_large(max: usize) -> A2aError {
    crate::ClientFailure::ResponseTooLarge.error(format!(
        "the response body exceeds the limit of {max} bytes"
    ))
}

/// The media type of `Content-Type`, without parameters.
pub(crate) fn media_type(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    Some(value.split(';').next().unwrap_or_default().trim())
}

/// `application/json`, `application/a2a+json` or any `+json` type: what a
/// client accepts as JSON, a little wider than what a server accepts in a
/// request ([`is_json_media_type`](a2a_wire::is_json_media_type)).
pub(crate) fn is_json(media: &str) -> bool {
    let media = media.to_ascii_lowercase();
    media == APPLICATION_JSON || media.starts_with("application/") && media.ends_with("+json")
}

/// True when the body may be JSON: a JSON type, or no `Content-Type`.
fn json_or_untyped(headers: &HeaderMap) -> bool {
    media_type(headers).is_none_or(is_json)
}

/// A success body must be JSON when it says what it is.
fn check_json(headers: &HeaderMap) -> Result<(), A2aError> {
    match media_type(headers) {
        Some(m) if !is_json(m) => Err(invalid_response(&format!(
            "expected a JSON body, the response is {m}"
        ))),
        _ => Ok(()),
    }
}

/// The `message` of a `{"message": "..."}` body (at most 1 KiB kept).
fn message_only(bytes: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Body {
        message: String,
    }
    let mut message = serde_json::from_slice::<Body>(bytes).ok()?.message;
    if message.len() > 1024 {
        let mut end = 1024;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
    }
    Some(message)
}

/// `ListTasks` at 0.3: the 0.3 method-not-found error (0.3 has no
/// `tasks/list`; `a2a_types::v0_3::MAPPING`).
fn no_v03_list_tasks() -> A2aError {
    A2aError::new(
        ErrorKind::MethodNotFound,
        "ListTasks has no A2A 0.3 form (0.3 has no tasks/list): not sent",
    )
}

fn is_auth_kind(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::Unauthenticated | ErrorKind::PermissionDenied
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_wire_has_one_codec_and_0_3_has_no_grpc() {
        for binding in [Binding::JsonRpc, Binding::HttpJson] {
            let v1 = Codec::select(binding, ProtocolVersion::V1_0).unwrap();
            let v03 = Codec::select(binding, ProtocolVersion::V0_3).unwrap();
            assert_ne!(v1, v03);
            assert_eq!((v1.binding(), v03.binding()), (binding, binding));
        }
        assert_eq!(Codec::select(Binding::Grpc, ProtocolVersion::V0_3), None);
        assert_eq!(
            Codec::select(Binding::Grpc, ProtocolVersion::V1_0).is_some(),
            cfg!(feature = "grpc")
        );
        let err = Codec::for_call(Binding::Grpc, ProtocolVersion::V0_3).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::VersionNotSupported);
    }
}
