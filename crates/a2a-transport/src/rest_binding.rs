//! The HTTP+JSON binding on the server (spec 11): the routes of 11.3 (with
//! the `/{tenant}` prefix), requests read from path, query (11.5) and
//! body, responses as `application/a2a+json`, errors as
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
//!   errors: 404 for an unknown route and 405 (with `Allow`) for a known
//!   path with another method, both `MethodNotFoundError`; 414, 413, 415,
//!   both `InvalidRequestError`.

use std::str::FromStr;

use a2a_jsonrpc::A2aRequest;
use a2a_types::{
    from_slice_with_limits, A2aError, CancelTaskRequest, DecodeErrorKind, DecodeLimits,
    DeleteTaskPushNotificationConfigRequest, ErrorKind, FieldViolation,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, Operation, SendMessageRequest,
    SubscribeToTaskRequest, TaskPushNotificationConfig, TaskState, Timestamp,
};
use bytes::Bytes;
use http::header::{ALLOW, CONTENT_TYPE, WWW_AUTHENTICATE};
use http::request::Parts;
use http::{Method, Response, StatusCode};
use serde::de::{DeserializeOwned, IgnoredAny};

use crate::body::Body;
use crate::frames::{sse_response, Frames, Framing};
use crate::media::{check_json_content_type, A2A_JSON_VALUE};
use crate::query::{QueryError, QueryParams};
use crate::route::{PathParam, RouteError, RouteMatch, Router};
use crate::server::{query_error, status_of, A2aServer, Answer, ReplyJson};
use crate::service::A2aService;

/// Answers a request under the HTTP+JSON base path.
pub(crate) async fn handle<S: A2aService>(
    server: &A2aServer<S>,
    router: &Router,
    head: Parts,
    body: Bytes,
) -> Response<Body> {
    let matched = match router.match_route(&head.method, head.uri.path()) {
        Ok(m) => m,
        Err(e) => return route_error(server, &head, e),
    };
    let query =
        match QueryParams::parse_with(head.uri.query().unwrap_or(""), &server.config().query) {
            Ok(q) => q,
            Err(e) => return error_response(server, &query_error(&e)),
        };
    if matched.route.method() == Method::POST && !is_blank(&body) {
        if let Err(e) = check_json_content_type(&head.headers) {
            let err = A2aError::new(ErrorKind::InvalidRequest, e.message()).with_http_status(415);
            return error_response(server, &err);
        }
    }
    let cx = match server.admit(&head, &query).await {
        Ok(cx) => cx,
        Err(err) => return error_response(server, &err),
    };
    let request = match decode(&matched, &query, &body, server.config().max_body_size) {
        Ok(r) => r,
        Err(err) => return error_response(server, &err),
    };
    match server.call(cx, request).await {
        Ok(Answer::Unary(reply)) => match a2a_types::writer::to_vec(&ReplyJson(&reply)) {
            Ok(json) => json_response(StatusCode::OK, json),
            Err(e) => error_response(
                server,
                &A2aError::internal(format!("the result could not be serialized: {e}")),
            ),
        },
        Ok(Answer::Stream { first, rest }) => {
            let frames = Frames::new(Framing::Rest, Some(first), rest);
            sse_response(Body::stream(frames), server.config().keep_alive.as_ref())
        }
        Ok(Answer::EmptyStream) => sse_response(Body::empty(), None),
        Err(err) => error_response(server, &err),
    }
}

/// The answer to a path that did not route.
fn route_error<S: A2aService>(
    server: &A2aServer<S>,
    head: &Parts,
    e: RouteError,
) -> Response<Body> {
    let err = match &e {
        RouteError::PathTooLong { .. } => {
            A2aError::new(ErrorKind::InvalidRequest, e.to_string()).with_http_status(414)
        }
        RouteError::NotFound => A2aError::new(
            ErrorKind::MethodNotFound,
            format!(
                "no A2A route matches {} {}",
                head.method,
                echo(head.uri.path())
            ),
        )
        .with_http_status(404),
        RouteError::MethodNotAllowed { allowed } => A2aError::new(
            ErrorKind::MethodNotFound,
            format!("{} is not allowed here; allowed: {allowed}", head.method),
        )
        .with_http_status(405),
        RouteError::InvalidParam { field, error, .. } => {
            A2aError::invalid_params(vec![FieldViolation {
                field: (*field).to_owned(),
                description: error.to_string(),
            }])
        }
    };
    let mut resp = error_response(server, &err);
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

/// A `google.rpc.Status` error response (spec 11.6) with the error's HTTP
/// status, and the `WWW-Authenticate` challenges on a 401.
pub(crate) fn error_response<S: A2aService>(
    server: &A2aServer<S>,
    err: &A2aError,
) -> Response<Body> {
    let status = status_of(err);
    let json = a2a_types::writer::to_vec(&err.to_status()).unwrap_or_else(|_| {
        br#"{"error":{"code":500,"status":"INTERNAL","message":"the error could not be serialized"}}"#
            .to_vec()
    });
    let mut resp = json_response(status, json);
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
    resp.headers_mut().insert(CONTENT_TYPE, A2A_JSON_VALUE);
    resp
}

fn is_blank(body: &[u8]) -> bool {
    body.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// Reads the typed request of the matched route from its path, query and
/// body, and validates its REQUIRED fields.
fn decode(
    matched: &RouteMatch<'_>,
    query: &QueryParams<'_>,
    body: &[u8],
    max_body_size: usize,
) -> Result<A2aRequest, A2aError> {
    use A2aRequest as R;
    let p = Path(matched);
    let request = match matched.operation() {
        Operation::SendMessage | Operation::SendStreamingMessage => {
            let mut r: SendMessageRequest = read_body(body, max_body_size)?;
            p.bind(PathParam::Tenant, &mut r.tenant)?;
            if matched.operation() == Operation::SendMessage {
                R::SendMessage(r)
            } else {
                R::SendStreamingMessage(r)
            }
        }
        Operation::GetTask => {
            let mut r = GetTaskRequest {
                history_length: query
                    .get_i32("historyLength")
                    .map_err(|e| query_error(&e))?,
                ..GetTaskRequest::default()
            };
            p.bind(PathParam::TaskId, &mut r.id)?;
            p.bind_tenant_query(query, &mut r.tenant)?;
            R::GetTask(r)
        }
        Operation::ListTasks => {
            let mut r = list_tasks(query).map_err(|e| query_error(&e))?;
            let status = query.get_str("status").map_err(|e| query_error(&e))?;
            if let Some(status) = status {
                r.status =
                    TaskState::from_str(status).map_err(|e| invalid("status", e.to_string()))?;
            }
            let after = query
                .get_str("statusTimestampAfter")
                .map_err(|e| query_error(&e))?;
            if let Some(after) = after {
                r.status_timestamp_after = Some(
                    Timestamp::parse(after)
                        .map_err(|e| invalid("statusTimestampAfter", e.to_string()))?,
                );
            }
            p.bind_tenant_query(query, &mut r.tenant)?;
            R::ListTasks(r)
        }
        Operation::CancelTask => {
            let mut r: CancelTaskRequest = read_body(body, max_body_size)?;
            p.bind(PathParam::TaskId, &mut r.id)?;
            p.bind(PathParam::Tenant, &mut r.tenant)?;
            R::CancelTask(r)
        }
        Operation::SubscribeToTask => {
            let mut r: SubscribeToTaskRequest = if matched.route.method() == Method::POST {
                read_body(body, max_body_size)?
            } else {
                let mut r = SubscribeToTaskRequest::default();
                bind_query_str(query, "tenant", &mut r.tenant)?;
                r
            };
            p.bind(PathParam::TaskId, &mut r.id)?;
            p.bind(PathParam::Tenant, &mut r.tenant)?;
            R::SubscribeToTask(r)
        }
        Operation::CreateTaskPushNotificationConfig => {
            let mut r: TaskPushNotificationConfig = read_body(body, max_body_size)?;
            p.bind(PathParam::TaskId, &mut r.task_id)?;
            p.bind(PathParam::Tenant, &mut r.tenant)?;
            R::CreateTaskPushNotificationConfig(r)
        }
        Operation::GetTaskPushNotificationConfig => {
            let mut r = GetTaskPushNotificationConfigRequest::default();
            p.bind(PathParam::TaskId, &mut r.task_id)?;
            p.bind(PathParam::ConfigId, &mut r.id)?;
            p.bind_tenant_query(query, &mut r.tenant)?;
            R::GetTaskPushNotificationConfig(r)
        }
        Operation::ListTaskPushNotificationConfigs => {
            let mut r = ListTaskPushNotificationConfigsRequest {
                page_size: query
                    .get_i32("pageSize")
                    .map_err(|e| query_error(&e))?
                    .unwrap_or(0),
                ..ListTaskPushNotificationConfigsRequest::default()
            };
            bind_query_str(query, "pageToken", &mut r.page_token)?;
            p.bind(PathParam::TaskId, &mut r.task_id)?;
            p.bind_tenant_query(query, &mut r.tenant)?;
            R::ListTaskPushNotificationConfigs(r)
        }
        Operation::DeleteTaskPushNotificationConfig => {
            let mut r = DeleteTaskPushNotificationConfigRequest::default();
            p.bind(PathParam::TaskId, &mut r.task_id)?;
            p.bind(PathParam::ConfigId, &mut r.id)?;
            p.bind_tenant_query(query, &mut r.tenant)?;
            R::DeleteTaskPushNotificationConfig(r)
        }
        Operation::GetExtendedAgentCard => {
            let mut r = GetExtendedAgentCardRequest::default();
            p.bind_tenant_query(query, &mut r.tenant)?;
            R::GetExtendedAgentCard(r)
        }
    };
    let violations = request.validate();
    if violations.is_empty() {
        Ok(request)
    } else {
        Err(A2aError::invalid_params(violations))
    }
}

/// The scalar query parameters of `ListTasks` (spec 3.1.4, 11.5).
fn list_tasks(query: &QueryParams<'_>) -> Result<ListTasksRequest, QueryError> {
    Ok(ListTasksRequest {
        context_id: query.get_str("contextId")?.unwrap_or_default().to_owned(),
        page_size: query.get_i32("pageSize")?,
        page_token: query.get_str("pageToken")?.unwrap_or_default().to_owned(),
        history_length: query.get_i32("historyLength")?,
        include_artifacts: query.get_bool("includeArtifacts")?,
        ..ListTasksRequest::default()
    })
}

/// Sets `slot` from the query parameter `name`, if present.
fn bind_query_str(query: &QueryParams<'_>, name: &str, slot: &mut String) -> Result<(), A2aError> {
    if let Some(v) = query.get_str(name).map_err(|e| query_error(&e))? {
        v.clone_into(slot);
    }
    Ok(())
}

/// The body as `T`; the empty request when the body is blank.
fn read_body<T: DeserializeOwned + Default>(body: &[u8], max: usize) -> Result<T, A2aError> {
    if is_blank(body) {
        return Ok(T::default());
    }
    from_slice_with_limits(body, &DecodeLimits::new().with_max_input_bytes(max)).map_err(|e| {
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

fn invalid(field: &str, description: String) -> A2aError {
    A2aError::invalid_params(vec![FieldViolation {
        field: field.to_owned(),
        description,
    }])
}

/// The path parameters of a matched route, written into request fields.
struct Path<'m, 'p>(&'m RouteMatch<'p>);

impl Path<'_, '_> {
    /// Writes the path's `param` into `slot` (the request field the route
    /// names for it). A `slot` already set to another value (by the body
    /// or the query) is a conflict.
    fn bind(&self, param: PathParam, slot: &mut String) -> Result<(), A2aError> {
        let Some(value) = self.0.params.get(param) else {
            return Ok(());
        };
        if !slot.is_empty() && slot != value {
            let field = self.0.route.field_name(param).unwrap_or(param.name());
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

    /// The tenant of a `GET` or `DELETE`: the `tenant` query parameter,
    /// then the path's (which must agree).
    fn bind_tenant_query(
        &self,
        query: &QueryParams<'_>,
        slot: &mut String,
    ) -> Result<(), A2aError> {
        bind_query_str(query, "tenant", slot)?;
        self.bind(PathParam::Tenant, slot)
    }
}
