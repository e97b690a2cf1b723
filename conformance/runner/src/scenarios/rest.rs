//! The HTTP+JSON binding (11): routes (11.3, 5.3), media types (11.1),
//! request bodies (11.4), query parameters (11.5), error bodies (11.6)
//! and SSE framing (11.7).

use a2a_types::{ErrorKind, ERROR_DOMAIN, ERROR_INFO_TYPE};
use http::Method;
use serde_json::{json, Value};

use crate::binding::{Kind, REST};
use crate::check::{ensure, fail, skip, Check};
use crate::context::Ctx;
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::{
    check_stream_items, expect_wire_error, needs_streaming, pct, send_req, str_at, wire_result,
};
use crate::wire::Req;

pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!("rest.routes", "11.3", Must, Kind::Wire(REST),
            "every operation is served at its method and path", routes, tck = ["HTTP_JSON-URL-001", "HTTP_JSON-URL-002"]),
        scenario!("rest.subscribe-get", "11.3", Should, Kind::Wire(REST),
            "SubscribeToTask is also served as GET, as the proto binds it", subscribe_get),
        scenario!("rest.media-negotiation", "11.1", Should, Kind::Wire(REST),
            "a client accepting only application/json gets application/json, errors too", media_negotiation),
        scenario!("rest.method-not-allowed", "11.6", Should, Kind::Wire(REST),
            "a known path with another method is 405 with Allow, and its status is not NOT_FOUND", method_not_allowed),
        scenario!("rest.media-type", "11.1", Should, Kind::Wire(REST),
            "answers are application/a2a+json", media_type, tck = ["HTTP_JSON-SVC-001"]),
        scenario!("rest.request-media-types", "11.1", Must, Kind::Wire(REST),
            "request bodies in application/a2a+json and application/json are accepted", request_media_types),
        scenario!("rest.malformed-body", "11.4", Must, Kind::Wire(REST),
            "a body that is not JSON answers 400", malformed_body),
        scenario!("rest.query-parameters", "11.5", Must, Kind::Wire(REST),
            "ListTasks reads camelCase query parameters: strings, enums, numbers, booleans", query_parameters, tck = ["HTTP_JSON-QP-001"]),
        scenario!("rest.query-timestamp", "11.5", Must, Kind::Wire(REST),
            "statusTimestampAfter is read as an ISO 8601 query parameter", query_timestamp),
        scenario!("rest.query-history", "11.5", Must, Kind::Wire(REST),
            "GetTask reads historyLength from the query", query_history),
        scenario!("rest.invalid-query", "3.3.2", Must, Kind::Wire(REST),
            "an invalid query parameter answers 400", invalid_query),
        scenario!("rest.error-body", "11.6", Must, Kind::Wire(REST),
            "errors are google.rpc.Status bodies: code = HTTP status, message, details with ErrorInfo", error_body, tck = ["HTTP_JSON-ERR-001", "HTTP_JSON-ERR-002"]),
        scenario!("rest.sse", "11.7", Must, Kind::Wire(REST),
            "message:stream answers text/event-stream of StreamResponse objects", sse, tck = ["HTTP_JSON-SSE-001"]),
    ]
}

fn unknown(cx: &Ctx<'_>) -> String {
    format!("no-such-task-{}", cx.nonce())
}

/// The A2A answer of a route: a 2xx, or an error body with an ErrorInfo
/// (a route the server does not know answers neither).
fn is_a2a_answer(reply: &crate::wire::Reply) -> bool {
    if reply.status.is_success() {
        return true;
    }
    reply.json().ok().is_some_and(|v| {
        v.pointer("/error/details")
            .and_then(Value::as_array)
            .is_some_and(|d| {
                d.iter()
                    .any(|d| d.get("@type").and_then(Value::as_str) == Some(ERROR_INFO_TYPE))
            })
    })
}

async fn routes(cx: &Ctx<'_>) -> Check {
    let id = unknown(cx);
    let p = pct(&id);
    let message = json!({"message": {"messageId": format!("m-{}", cx.nonce()), "role": "ROLE_USER", "parts": [{"text": "echo routes"}]}});
    let mut requests: Vec<(String, Req)> = vec![
        (
            "POST /message:send".into(),
            cx.rest_post("/message:send", &message)?,
        ),
        (
            format!("GET /tasks/{id}"),
            cx.rest(Method::GET, &format!("/tasks/{p}"))?,
        ),
        (
            "GET /tasks".into(),
            cx.rest(Method::GET, "/tasks?pageSize=1")?,
        ),
        (
            format!("POST /tasks/{id}:cancel"),
            cx.rest_post(&format!("/tasks/{p}:cancel"), &json!({"id": id}))?,
        ),
        (
            format!("POST /tasks/{id}/pushNotificationConfigs"),
            cx.rest_post(
                &format!("/tasks/{p}/pushNotificationConfigs"),
                &json!({"taskId": id, "url": "https://push.conformance.invalid/h"}),
            )?,
        ),
        (
            format!("GET /tasks/{id}/pushNotificationConfigs/c"),
            cx.rest(
                Method::GET,
                &format!("/tasks/{p}/pushNotificationConfigs/c"),
            )?,
        ),
        (
            format!("GET /tasks/{id}/pushNotificationConfigs"),
            cx.rest(Method::GET, &format!("/tasks/{p}/pushNotificationConfigs"))?,
        ),
        (
            format!("DELETE /tasks/{id}/pushNotificationConfigs/c"),
            cx.rest(
                Method::DELETE,
                &format!("/tasks/{p}/pushNotificationConfigs/c"),
            )?,
        ),
        (
            "GET /extendedAgentCard".into(),
            cx.rest(Method::GET, "/extendedAgentCard")?,
        ),
    ];
    if cx.card().capabilities.streaming == Some(true) {
        requests.push((
            "POST /message:stream".into(),
            cx.rest_post("/message:stream", &message)?,
        ));
        requests.push((
            format!("POST /tasks/{id}:subscribe"),
            cx.rest_post(&format!("/tasks/{p}:subscribe"), &json!({"id": id}))?,
        ));
    }
    let mut missing = Vec::new();
    for (name, req) in requests {
        let reply = req.stream(cx).await?;
        let whole = crate::wire::Reply {
            status: reply.status,
            headers: reply.headers.clone(),
            body: reply.body.clone(),
        };
        if reply.media_type() == "text/event-stream" && reply.status.is_success() {
            continue;
        }
        if !is_a2a_answer(&whole) {
            missing.push(format!("{name}: {}", whole.describe()));
        }
    }
    ensure(
        missing.is_empty(),
        "an A2A answer (2xx, or an error with ErrorInfo) on every route",
        missing.join("; "),
    )
}

async fn subscribe_get(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let reply = cx
        .rest(
            Method::GET,
            &format!("/tasks/{}:subscribe", pct(&unknown(cx))),
        )?
        .send(cx)
        .await?;
    expect_wire_error(cx, &reply, ErrorKind::TaskNotFound).map(drop)
}

async fn media_type(cx: &Ctx<'_>) -> Check {
    let ok = cx.rest(Method::GET, "/tasks?pageSize=1")?.send(cx).await?;
    let err = cx
        .rest(Method::GET, &format!("/tasks/{}", pct(&unknown(cx))))?
        .send(cx)
        .await?;
    for reply in [ok, err] {
        ensure(
            reply.media_type() == "application/a2a+json",
            "Content-Type application/a2a+json",
            reply.describe(),
        )?;
    }
    Ok(())
}

async fn request_media_types(cx: &Ctx<'_>) -> Check {
    for ct in ["application/a2a+json", "application/json"] {
        let body = json!({"message": {"messageId": format!("m-{}", cx.nonce()), "role": "ROLE_USER", "parts": [{"text": "echo typed"}]}});
        let reply = cx
            .rest(Method::POST, "/message:send")?
            .json(&body, ct)
            .send(cx)
            .await?;
        ensure(
            reply.status.is_success(),
            format!("2xx for a {ct} body"),
            reply.describe(),
        )?;
    }
    Ok(())
}

async fn malformed_body(cx: &Ctx<'_>) -> Check {
    let reply = cx
        .rest(Method::POST, "/message:send")?
        .header("content-type", "application/a2a+json")
        .body(&b"{\"message\": {"[..])
        .send(cx)
        .await?;
    ensure(reply.status.as_u16() == 400, "HTTP 400", reply.describe())
}

/// Two tasks in one context on this binding: (finished id, input-required id, context).
async fn two_tasks(cx: &Ctx<'_>) -> Check<(String, String, String)> {
    cx.reference(crate::contract::Behaviour::Complete).await?;
    cx.reference(crate::contract::Behaviour::InputRequired)
        .await?;
    let first = wire_result(cx, &send_req(cx, "echo query", json!({}))?.send(cx).await?)?;
    let done = str_at(&first, "/task/id")?.to_owned();
    let context = str_at(&first, "/task/contextId")?.to_owned();
    // Apart by more than the millisecond precision of timestamps.
    tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    let body = json!({"message": {"messageId": format!("m-{}", cx.nonce()), "contextId": context, "role": "ROLE_USER", "parts": [{"text": "input"}]}});
    let second = wire_result(cx, &cx.rest_post("/message:send", &body)?.send(cx).await?)?;
    let waiting = str_at(&second, "/task/id")?.to_owned();
    if str_at(&second, "/task/contextId")? != context {
        return Err(skip(
            "needs the agent to keep a known contextId on a new task",
        ));
    }
    Ok((done, waiting, context))
}

fn listed(result: &Value) -> Vec<Value> {
    result
        .get("tasks")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn ids(tasks: &[Value]) -> Vec<String> {
    tasks
        .iter()
        .filter_map(|t| t.get("id").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

async fn query_parameters(cx: &Ctx<'_>) -> Check {
    let (done, waiting, context) = two_tasks(cx).await?;
    let q = format!(
        "/tasks?contextId={}&status=TASK_STATE_COMPLETED&pageSize=5&includeArtifacts=true",
        pct(&context)
    );
    let result = wire_result(cx, &cx.rest(Method::GET, &q)?.send(cx).await?)?;
    let tasks = listed(&result);
    ensure(
        ids(&tasks) == [done.clone()],
        format!("only the COMPLETED task {done:?}"),
        format!("{:?}", ids(&tasks)),
    )?;
    ensure(
        tasks[0]
            .get("artifacts")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty()),
        "its artifacts, for includeArtifacts=true",
        crate::abbreviate(&tasks[0].to_string()),
    )?;
    let q = format!("/tasks?contextId={}&pageSize=1", pct(&context));
    let result = wire_result(cx, &cx.rest(Method::GET, &q)?.send(cx).await?)?;
    let page = ids(&listed(&result));
    ensure(
        page.len() == 1 && page[0] == waiting,
        format!("one task, the newest {waiting:?}, for pageSize=1"),
        format!("{page:?}"),
    )?;
    let token = result
        .get("nextPageToken")
        .and_then(Value::as_str)
        .unwrap_or("");
    ensure(
        !token.is_empty(),
        "a nextPageToken for the second page",
        "an empty one",
    )?;
    let q = format!(
        "/tasks?contextId={}&pageSize=1&pageToken={}",
        pct(&context),
        pct(token)
    );
    let result = wire_result(cx, &cx.rest(Method::GET, &q)?.send(cx).await?)?;
    ensure(
        ids(&listed(&result)) == [done.clone()],
        format!("the second page {done:?} for pageToken"),
        format!("{:?}", ids(&listed(&result))),
    )
}

async fn query_timestamp(cx: &Ctx<'_>) -> Check {
    let (done, waiting, context) = two_tasks(cx).await?;
    let get = |id: String| async move {
        wire_result(
            cx,
            &cx.rest(Method::GET, &format!("/tasks/{}", pct(&id)))?
                .send(cx)
                .await?,
        )
    };
    let (a, b) = (get(done.clone()).await?, get(waiting.clone()).await?);
    let (ta, tb) = (
        str_at(&a, "/status/timestamp")?.to_owned(),
        str_at(&b, "/status/timestamp")?.to_owned(),
    );
    if ta >= tb {
        return Err(skip("the two tasks share a status timestamp"));
    }
    let q = format!(
        "/tasks?contextId={}&statusTimestampAfter={}",
        pct(&context),
        pct(&tb)
    );
    let result = wire_result(cx, &cx.rest(Method::GET, &q)?.send(cx).await?)?;
    ensure(
        ids(&listed(&result)) == [waiting.clone()],
        format!("only the task updated at {tb}"),
        format!("{:?}", ids(&listed(&result))),
    )
}

async fn query_history(cx: &Ctx<'_>) -> Check {
    let (_, waiting, context) = two_tasks(cx).await?;
    // A second turn: the task then has at least two history messages.
    let body = json!({"message": {"messageId": format!("m-{}", cx.nonce()), "taskId": waiting,
        "contextId": context, "role": "ROLE_USER", "parts": [{"text": "more"}]}});
    wire_result(cx, &cx.rest_post("/message:send", &body)?.send(cx).await?)?;
    let full = wire_result(
        cx,
        &cx.rest(Method::GET, &format!("/tasks/{}", pct(&waiting)))?
            .send(cx)
            .await?,
    )?;
    let n = full
        .get("history")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    ensure(n >= 2, "two history messages after two turns", n)?;
    let one = wire_result(
        cx,
        &cx.rest(
            Method::GET,
            &format!("/tasks/{}?historyLength=1", pct(&waiting)),
        )?
        .send(cx)
        .await?,
    )?;
    let got = one
        .get("history")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    ensure(
        got <= 1,
        "at most 1 history message for historyLength=1",
        format!("{got}"),
    )
}

async fn invalid_query(cx: &Ctx<'_>) -> Check {
    for q in [
        "/tasks?status=TASK_STATE_RUNNING",
        "/tasks?pageSize=many",
        "/tasks?includeArtifacts=perhaps",
    ] {
        let reply = cx.rest(Method::GET, q)?.send(cx).await?;
        ensure(
            reply.status.as_u16() == 400,
            format!("HTTP 400 for GET {q}"),
            reply.describe(),
        )?;
    }
    Ok(())
}

async fn error_body(cx: &Ctx<'_>) -> Check {
    let reply = cx
        .rest(Method::GET, &format!("/tasks/{}", pct(&unknown(cx))))?
        .send(cx)
        .await?;
    ensure(reply.status.as_u16() == 404, "HTTP 404", reply.describe())?;
    let body = reply.json()?;
    let error = body
        .get("error")
        .ok_or_else(|| fail("a body {\"error\": {...}}", reply.describe()))?;
    ensure(
        error.get("code").and_then(Value::as_i64) == Some(404),
        "error.code 404, the HTTP status",
        reply.describe(),
    )?;
    ensure(
        error.get("message").is_some_and(Value::is_string),
        "a string error.message",
        reply.describe(),
    )?;
    let details = error
        .get("details")
        .and_then(Value::as_array)
        .ok_or_else(|| fail("an error.details array", reply.describe()))?;
    let info = details
        .iter()
        .find(|d| d.get("@type").and_then(Value::as_str) == Some(ERROR_INFO_TYPE))
        .ok_or_else(|| fail("a google.rpc.ErrorInfo in error.details", reply.describe()))?;
    ensure(
        info.get("reason").and_then(Value::as_str) == Some("TASK_NOT_FOUND")
            && info.get("domain").and_then(Value::as_str) == Some(ERROR_DOMAIN),
        format!("reason TASK_NOT_FOUND, domain {ERROR_DOMAIN}"),
        info.to_string(),
    )
}

async fn sse(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let body = json!({"message": {"messageId": format!("m-{}", cx.nonce()), "role": "ROLE_USER", "parts": [{"text": "stream 2"}]}});
    let events = cx
        .rest_post("/message:stream", &body)?
        .stream(cx)
        .await?
        .sse_events()?;
    for (i, e) in events.iter().enumerate() {
        ensure(
            e.get("jsonrpc").is_none(),
            "StreamResponse objects, not JSON-RPC envelopes",
            format!("event {i}: {}", crate::abbreviate(&e.to_string())),
        )?;
    }
    check_stream_items(&events)
}

async fn media_negotiation(cx: &Ctx<'_>) -> Check {
    for path in [
        "/tasks".to_owned(),
        format!("/tasks/no-such-task-{}", cx.nonce()),
    ] {
        let reply = cx
            .rest(Method::GET, &path)?
            .header("accept", "application/json")
            .send(cx)
            .await?;
        ensure(
            reply.media_type() == "application/json",
            format!("Content-Type application/json for GET {path} with Accept: application/json"),
            reply.describe(),
        )?;
    }
    Ok(())
}

async fn method_not_allowed(cx: &Ctx<'_>) -> Check {
    let reply = cx.rest(Method::PUT, "/message:send")?.send(cx).await?;
    ensure(reply.status.as_u16() == 405, "405", reply.describe())?;
    ensure(
        reply.headers.contains_key(http::header::ALLOW),
        "an Allow header",
        reply.describe(),
    )?;
    let body = reply.json()?;
    let status = body.pointer("/error/status").and_then(Value::as_str);
    ensure(
        status.is_some() && status != Some("NOT_FOUND"),
        "an error status naming the condition (not NOT_FOUND: the route exists)",
        reply.describe(),
    )
}
