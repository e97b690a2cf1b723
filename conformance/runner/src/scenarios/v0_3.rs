//! A2A 0.3 runs (`--version 0.3`; spec 3.6, Appendix A; the 0.3 spec and
//! schema): which scenarios do not apply at 0.3 and why ([`skip_reason`],
//! the one place that says so), and the 0.3 wire scenarios, which run in
//! 0.3 runs only: every part, message, task and event carries `kind`,
//! enums are spelled the 0.3 way, the last status update of a stream is
//! `final`, and a request without `A2A-Version` gets 0.3 semantics.

use a2a_transport::ProtocolVersion;
use serde_json::{json, Value};

use crate::binding::{Kind, JSONRPC, REST};
use crate::check::{ensure, fail, Check};
use crate::context::Ctx;
use crate::contract::Behaviour;
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::{needs_push, needs_streaming};

/// The behaviour scenarios that call `ListTasks`, which 0.3 lacks.
const USES_LIST_TASKS: &[&str] = &[
    "scope.list",
    "history.list",
    "history.negative",
    "list.artifacts-omitted",
    "list.artifacts-included",
    "list.total-size",
    "list.sorted",
    "list.context-filter",
    "list.status-filter",
    "list.timestamp-filter",
    "list.page-size-bounds",
    "list.pagination",
];

/// Why `scenario` is skipped in a run at `version`, if it is: at 0.3, the
/// 1.0 wire and card scenarios (they check 1.0 bytes) and the behaviour
/// scenarios that need `ListTasks`; at 1.0, nothing (the 0.3 wire
/// scenarios are not in a 1.0 run, see [`list`]); at the 1.1 draft
/// (the `draft-1-1` feature), nothing either: 1.1 keeps every 1.0
/// behaviour, and the 1.0 wire scenarios still speak 1.0 to the same
/// agent.
pub(crate) fn skip_reason(version: ProtocolVersion, scenario: &Scenario) -> Option<&'static str> {
    if version != ProtocolVersion::V0_3 || scenario.id.starts_with("v0_3.") {
        return None;
    }
    match scenario.kind {
        Kind::Wire(_) => Some("a 1.0 wire scenario: the run is at 0.3"),
        Kind::Card => Some("checks the 1.0 card: the run is at 0.3"),
        Kind::Behaviour if USES_LIST_TASKS.contains(&scenario.id) => Some("0.3 has no ListTasks"),
        Kind::Behaviour => None,
    }
}

/// The 0.3 wire scenarios (JSON-RPC, the binding 0.3 agents serve first).
pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!(
            "v0_3.kind",
            "A.2",
            Must,
            Kind::Wire(JSONRPC),
            "0.3: every task, message and part in a message/send answer carries its kind",
            kinds
        ),
        scenario!(
            "v0_3.enums",
            "A.2",
            Must,
            Kind::Wire(JSONRPC),
            "0.3: states and roles are spelled the 0.3 way (input-required, agent)",
            enums
        ),
        scenario!(
            "v0_3.final",
            "A.2",
            Must,
            Kind::Wire(JSONRPC),
            "0.3: every stream event carries kind, and the last status-update is final",
            finals
        ),
        scenario!(
            "v0_3.no-version-header",
            "3.6.2",
            Must,
            Kind::Wire(JSONRPC),
            "a request without A2A-Version is served as 0.3 (0.3 methods and shapes)",
            no_header
        ),
        scenario!(
            "v0_3.no-list-tasks",
            "A.2",
            Must,
            Kind::Wire(JSONRPC),
            "0.3 has no tasks/list: -32601",
            no_list_tasks
        ),
        scenario!(
            "v0_3.stream-error",
            "A.2",
            Must,
            Kind::Wire(JSONRPC),
            "0.3: a failing streaming call answers a stream whose one event is the JSON-RPC error",
            stream_error
        ),
        scenario!(
            "v0_3.push-config-original-names",
            "A.2",
            Must,
            Kind::Wire(REST),
            "0.3 HTTP+JSON: a push config body with the proto's original field names \
             (config_id, push_notification_config) and an empty authentication is accepted",
            push_config_original_names
        ),
        scenario!(
            "v0_3.data-part",
            "A.2",
            Must,
            Kind::Wire(JSONRPC),
            "0.3: a message whose one part is a data part is accepted (the reference \
             agent's card declares application/json input) and echoed",
            data_part
        ),
    ]
}

/// `message/send` (or `message/stream`) params of a 0.3 user message.
fn params(cx: &Ctx<'_>, text: &str) -> Value {
    json!({"message": {"kind": "message", "messageId": cx.nonce(), "role": "user",
        "parts": [{"kind": "text", "text": text}]}})
}

/// The `result` of a 0.3 call, sent with `A2A-Version: 0.3`.
async fn call(cx: &Ctx<'_>, method: &str, params: Value) -> Check<Value> {
    let reply = cx
        .rpc(method, params)?
        .header("a2a-version", "0.3")
        .send(cx)
        .await?;
    let body = reply.json()?;
    match body.get("result") {
        Some(result) => Ok(result.clone()),
        None => Err(fail(format!("a {method} result"), reply.describe())),
    }
}

fn kind_is(value: &Value, want: &str, what: &str) -> Check {
    ensure(
        value.get("kind").and_then(Value::as_str) == Some(want),
        format!("{what} with \"kind\": \"{want}\""),
        value.to_string(),
    )
}

/// Every part of a message or artifact has a known `kind`.
fn parts_have_kind(holder: &Value, what: &str) -> Check {
    for part in holder["parts"].as_array().into_iter().flatten() {
        let kind = part.get("kind").and_then(Value::as_str);
        ensure(
            matches!(kind, Some("text" | "file" | "data")),
            format!("every part of {what} with kind text, file or data"),
            part.to_string(),
        )?;
    }
    Ok(())
}

async fn kinds(cx: &Ctx<'_>) -> Check {
    cx.reference(Behaviour::Complete).await?;
    let task = call(cx, "message/send", params(cx, "echo hi")).await?;
    kind_is(&task, "task", "the result")?;
    ensure(
        task.pointer("/status/state") == Some(&json!("completed")),
        "status.state \"completed\"",
        task.to_string(),
    )?;
    for artifact in task["artifacts"].as_array().into_iter().flatten() {
        parts_have_kind(artifact, "an artifact")?;
    }
    for message in task["history"].as_array().into_iter().flatten() {
        kind_is(message, "message", "each history message")?;
        parts_have_kind(message, "a history message")?;
    }
    Ok(())
}

async fn enums(cx: &Ctx<'_>) -> Check {
    cx.reference(Behaviour::InputRequired).await?;
    cx.reference(Behaviour::DirectMessage).await?;
    let task = call(cx, "message/send", params(cx, "input")).await?;
    ensure(
        task.pointer("/status/state") == Some(&json!("input-required")),
        "status.state \"input-required\"",
        task.to_string(),
    )?;
    let reply = call(cx, "message/send", params(cx, "message hi")).await?;
    kind_is(&reply, "message", "a direct reply")?;
    ensure(
        reply.get("role") == Some(&json!("agent")),
        "role \"agent\"",
        reply.to_string(),
    )?;
    parts_have_kind(&reply, "the reply")
}

async fn finals(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    cx.reference(Behaviour::Streamed).await?;
    let events = cx
        .rpc("message/stream", params(cx, "stream 2"))?
        .header("a2a-version", "0.3")
        .stream(cx)
        .await?
        .sse_events()?;
    let results: Vec<&Value> = events.iter().filter_map(|e| e.get("result")).collect();
    ensure(
        !results.is_empty() && results.len() == events.len(),
        "a stream of JSON-RPC results",
        format!("{events:?}"),
    )?;
    for r in &results {
        let kind = r.get("kind").and_then(Value::as_str);
        ensure(
            matches!(
                kind,
                Some("task" | "message" | "status-update" | "artifact-update")
            ),
            "every event with kind task, message, status-update or artifact-update",
            r.to_string(),
        )?;
    }
    let updates: Vec<&&Value> = results
        .iter()
        .filter(|r| r.get("kind") == Some(&json!("status-update")))
        .collect();
    let Some((last, earlier)) = updates.split_last() else {
        return Err(fail("a status-update event", format!("{results:?}")));
    };
    ensure(
        last.get("final") == Some(&json!(true)),
        "the last status-update with \"final\": true",
        last.to_string(),
    )?;
    for u in earlier {
        ensure(
            u.get("final") != Some(&json!(true)),
            "only the last status-update final",
            u.to_string(),
        )?;
    }
    Ok(())
}

async fn no_header(cx: &Ctx<'_>) -> Check {
    cx.reference(Behaviour::DirectMessage).await?;
    let reply = cx
        .rpc("message/send", params(cx, "message hi"))?
        .without("a2a-version")
        .send(cx)
        .await?;
    let body = reply.json()?;
    let result = body
        .get("result")
        .ok_or_else(|| fail("a message/send result (0.3 semantics)", reply.describe()))?;
    kind_is(result, "message", "the result")
}

async fn no_list_tasks(cx: &Ctx<'_>) -> Check {
    let reply = cx
        .rpc("tasks/list", json!({}))?
        .header("a2a-version", "0.3")
        .send(cx)
        .await?;
    let body = reply.json()?;
    ensure(
        body.pointer("/error/code") == Some(&json!(-32601)),
        "JSON-RPC error -32601",
        reply.describe(),
    )
}

async fn stream_error(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let events = cx
        .rpc("tasks/resubscribe", json!({"id": cx.nonce()}))?
        .header("a2a-version", "0.3")
        .stream(cx)
        .await?
        .sse_events()?;
    ensure(
        events.len() == 1 && events[0].pointer("/error/code") == Some(&json!(-32001)),
        "one event: the JSON-RPC error -32001",
        format!("{events:?}"),
    )
}

/// The body the 0.3 TCK writes (ProtoJSON parsers accept the original
/// field names; proto3 has no required sub-message, so `{}` is no
/// authentication).
async fn push_config_original_names(cx: &Ctx<'_>) -> Check {
    needs_push(cx)?;
    cx.reference(Behaviour::InputRequired).await?;
    let webhook = cx.webhook()?.clone();
    let task = cx.send_task("input").await?;
    let config_id = cx.nonce();
    let url = webhook.url(&config_id);
    let name = format!("tasks/{}/pushNotificationConfigs/{config_id}", task.id);
    let body = json!({"parent": format!("tasks/{}", task.id), "config_id": config_id,
        "config": {"name": name,
            "push_notification_config": {"url": url, "token": "t", "authentication": {}}}});
    let reply = cx
        .rest_post(
            &format!("/v1/tasks/{}/pushNotificationConfigs", task.id),
            &body,
        )?
        .header("a2a-version", "0.3")
        .send(cx)
        .await?;
    ensure(
        reply.status.is_success(),
        "a 2xx answer to the TCK's push config body",
        reply.describe(),
    )?;
    let answer = reply.json()?;
    ensure(
        answer.pointer("/pushNotificationConfig/url") == Some(&json!(url))
            && answer.get("name") == Some(&json!(name)),
        format!("the stored config {name} with url {url}"),
        answer.to_string(),
    )
}

async fn data_part(cx: &Ctx<'_>) -> Check {
    cx.reference(Behaviour::Complete).await?;
    let data = json!({"city": "Lisbon", "days": 3});
    let task = call(
        cx,
        "message/send",
        json!({"message": {"kind": "message", "messageId": cx.nonce(), "role": "user",
            "parts": [{"kind": "data", "data": data}]}}),
    )
    .await?;
    ensure(
        task.pointer("/status/state") == Some(&json!("completed")),
        "a completed echo task",
        task.to_string(),
    )?;
    let echoed = task
        .pointer("/artifacts/0/parts/0/text")
        .and_then(Value::as_str)
        .and_then(|t| serde_json::from_str::<Value>(t).ok());
    ensure(
        echoed.as_ref() == Some(&data),
        format!("an artifact echoing the data {data} as JSON text"),
        task.to_string(),
    )
}
