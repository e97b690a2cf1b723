//! The data model on the wire (4), JSON naming (5.5), timestamps (5.6.1)
//! and the field-presence rules of `ListTasks` and `historyLength` that
//! only the raw JSON shows (3.1.4, 3.2.4).

use http::Method;
use serde_json::{json, Value};

use crate::binding::{Binding, Kind, BOTH};
use crate::check::{ensure, fail, skip, Check};
use crate::context::Ctx;
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::{list_req, needs_push, pct, send_req, str_at, stream_req, wire_result};
use crate::shape::{self, Msg, Rule, Violation};

pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!("model.objects", "4.1", Must, Kind::Wire(BOTH),
            "Task, Message, Part and Artifact objects carry their REQUIRED fields with the right types", objects),
        scenario!("model.stream-events", "4.2", Must, Kind::Wire(BOTH),
            "stream events carry their REQUIRED fields with the right types", stream_events),
        scenario!("model.push-config", "4.3", Must, Kind::Wire(BOTH),
            "a push notification config carries its REQUIRED fields", push_config),
        scenario!("model.agent-card", "4.4", Must, Kind::Card,
            "the agent card carries its REQUIRED fields with the right types", agent_card, tck = ["CARD-STRUCT-001"]),
        scenario!("naming.camel-case", "5.5", Must, Kind::Wire(BOTH),
            "JSON field names are camelCase", camel_case),
        scenario!("naming.enum-values", "5.5", Must, Kind::Wire(BOTH),
            "enum values are the proto's names (TASK_STATE_COMPLETED, ROLE_AGENT)", enum_values),
        scenario!("timestamps.utc", "5.6.1", Must, Kind::Wire(BOTH),
            "timestamps are ISO 8601 in UTC with a Z suffix", timestamps),
        scenario!("list.wire-artifacts-absent", "3.1.4", Must, Kind::Wire(BOTH),
            "without includeArtifacts the artifacts field is absent, not empty", wire_artifacts_absent, tck = ["CORE-LIST-005"]),
        scenario!("list.wire-next-page-token", "3.1.4", Must, Kind::Wire(BOTH),
            "nextPageToken is always present, empty on the last page", wire_next_page_token, tck = ["CORE-LIST-004"]),
        scenario!("history.wire-omitted", "3.2.4", Should, Kind::Wire(BOTH),
            "with historyLength 0 the history field is omitted", wire_history_omitted, tck = ["CORE-HIST-001"]),
    ]
}

/// A JSON document from the agent and the message it must be.
struct Sample {
    label: String,
    msg: &'static Msg,
    value: Value,
}

/// What the agent answers to a few ordinary requests on this binding:
/// `SendMessage` of two plain messages (a finished and an interrupted
/// task, from the reference agent), `GetTask` of the task it made,
/// `ListTasks` when the agent offers it, and a stream when the card
/// declares streaming. Nothing here needs a contract.
async fn samples(cx: &Ctx<'_>, with_stream: bool) -> Check<Vec<Sample>> {
    let mut out = Vec::new();
    let mut task_ids = Vec::new();
    for text in ["echo shape", "input"] {
        let reply = send_req(cx, text, json!({}))?.send(cx).await?;
        let result = wire_result(cx, &reply)?;
        if let Some(id) = result.pointer("/task/id").and_then(Value::as_str) {
            task_ids.push((
                id.to_owned(),
                result
                    .pointer("/task/contextId")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
            ));
        }
        out.push(Sample {
            label: format!("SendMessage({text:?})"),
            msg: &shape::SEND_MESSAGE_RESPONSE,
            value: result,
        });
    }
    if let Some((id, context)) = task_ids.first() {
        let req = cx.op("GetTask", json!({"id": id}), |cx| {
            cx.rest(Method::GET, &format!("/tasks/{}", pct(id)))
        })?;
        let result = wire_result(cx, &req.send(cx).await?)?;
        out.push(Sample {
            label: "GetTask".into(),
            msg: &shape::TASK,
            value: result,
        });
        let params = json!({"contextId": context, "includeArtifacts": true, "pageSize": 5});
        let query = format!(
            "contextId={}&includeArtifacts=true&pageSize=5",
            pct(context)
        );
        let reply = list_req(cx, params, &query)?.send(cx).await?;
        if !declines_list(cx, &reply) {
            out.push(Sample {
                label: "ListTasks".into(),
                msg: &shape::LIST_TASKS_RESPONSE,
                value: wire_result(cx, &reply)?,
            });
        }
    }
    if with_stream && cx.card().capabilities.streaming == Some(true) {
        let events = stream_req(cx, "stream 2")?.stream(cx).await?.sse_events()?;
        for (i, event) in events.into_iter().enumerate() {
            let item = match cx.binding() {
                Binding::JsonRpc => event.get("result").cloned().unwrap_or(Value::Null),
                _ => event,
            };
            out.push(Sample {
                label: format!("stream event {i}"),
                msg: &shape::STREAM_RESPONSE,
                value: item,
            });
        }
    }
    Ok(out)
}

/// Whether `reply` is the agent declining ListTasks, which the spec
/// allows (the rule in [`crate::offers`]).
fn declines_list(cx: &Ctx<'_>, reply: &crate::wire::Reply) -> bool {
    crate::scenarios::wire_declined(cx, reply, a2a_types::Operation::ListTasks).is_some()
}

fn violations(samples: &[Sample], rules: &[Rule]) -> Vec<String> {
    samples
        .iter()
        .flat_map(|s| {
            shape::check(s.msg, &s.value, "")
                .into_iter()
                .filter(|v| rules.contains(&v.rule))
                .map(move |v: Violation| format!("{}: {v}", s.label))
        })
        .collect()
}

fn none(found: Vec<String>, expected: &str) -> Check {
    if found.is_empty() {
        Ok(())
    } else {
        Err(fail(expected, found.join("; ")))
    }
}

const STRUCTURE: &[Rule] = &[Rule::Required, Rule::Type, Rule::Oneof];

async fn objects(cx: &Ctx<'_>) -> Check {
    let s = samples(cx, false).await?;
    none(
        violations(&s, STRUCTURE),
        "every REQUIRED field present and typed as the proto says",
    )
}

async fn stream_events(cx: &Ctx<'_>) -> Check {
    if cx.card().capabilities.streaming != Some(true) {
        return Err(skip("the card does not declare capabilities.streaming"));
    }
    let s: Vec<Sample> = samples(cx, true)
        .await?
        .into_iter()
        .filter(|s| s.label.starts_with("stream"))
        .collect();
    ensure(!s.is_empty(), "at least one stream event", "none")?;
    none(
        violations(&s, STRUCTURE),
        "every REQUIRED field of each event present and typed",
    )
}

async fn push_config(cx: &Ctx<'_>) -> Check {
    needs_push(cx)?;
    let reply = send_req(cx, "input", json!({}))?.send(cx).await?;
    let result = wire_result(cx, &reply)?;
    let Some(task) = result.get("task") else {
        return Err(skip(
            "needs a task to configure; `input` answered a message",
        ));
    };
    if task
        .pointer("/status/state")
        .and_then(Value::as_str)
        .is_some_and(|s| {
            matches!(
                s,
                "TASK_STATE_COMPLETED"
                    | "TASK_STATE_FAILED"
                    | "TASK_STATE_CANCELED"
                    | "TASK_STATE_REJECTED"
            )
        })
    {
        return Err(skip("needs a task still open; `input` finished"));
    }
    let id = str_at(task, "/id")?.to_owned();
    let config = json!({"taskId": id, "url": format!("https://push.conformance.invalid/hooks/{}", cx.nonce()), "token": "t"});
    let rest_config = config.clone();
    let reply = cx
        .op("CreateTaskPushNotificationConfig", config, |cx| {
            cx.rest_post(
                &format!("/tasks/{}/pushNotificationConfigs", pct(&id)),
                &rest_config,
            )
        })?
        .send(cx)
        .await?;
    let created = wire_result(cx, &reply)?;
    let mut found: Vec<String> = shape::check(&shape::PUSH_CONFIG, &created, "config")
        .into_iter()
        .map(|v| v.to_string())
        .collect();
    if created
        .get("id")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        found.push("config.id: the assigned id is missing".into());
    }
    none(
        found,
        "a config with its REQUIRED fields and its assigned id",
    )
}

async fn agent_card(cx: &Ctx<'_>) -> Check {
    let reply = cx.card_request().send(cx).await?;
    ensure(
        reply.status.is_success(),
        "the card with 200",
        reply.describe(),
    )?;
    let card = reply.json()?;
    let found: Vec<String> = shape::check(&shape::AGENT_CARD, &card, "card")
        .into_iter()
        .map(|v| v.to_string())
        .collect();
    none(
        found,
        "every REQUIRED field of the card present, typed and camelCase",
    )
}

async fn camel_case(cx: &Ctx<'_>) -> Check {
    let s = samples(cx, true).await?;
    none(violations(&s, &[Rule::CamelCase]), "camelCase field names")
}

async fn enum_values(cx: &Ctx<'_>) -> Check {
    let s = samples(cx, true).await?;
    none(
        violations(&s, &[Rule::EnumName]),
        "enum values written as the proto's names",
    )
}

async fn timestamps(cx: &Ctx<'_>) -> Check {
    let s = samples(cx, true).await?;
    none(
        violations(&s, &[Rule::Timestamp]),
        "timestamps like 2025-10-28T10:30:00.000Z",
    )
}

/// A task created on this binding by a plain message (one with an
/// artifact from the reference agent), and its context; a skip when the
/// agent answers a direct Message.
async fn task_with_artifact(cx: &Ctx<'_>) -> Check<(String, String)> {
    let result = wire_result(cx, &send_req(cx, "echo listed", json!({}))?.send(cx).await?)?;
    if result.get("task").is_none() {
        return Err(skip(
            "needs --contract: a plain message was answered with a direct Message, \
             and the scenario needs a task",
        ));
    }
    let id = str_at(&result, "/task/id")?.to_owned();
    let context = str_at(&result, "/task/contextId")?.to_owned();
    Ok((id, context))
}

/// `ListTasks` over the raw binding; a skip when the agent declines it.
async fn wire_list(cx: &Ctx<'_>, params: Value, query: &str) -> Check<Value> {
    let reply = list_req(cx, params, query)?.send(cx).await?;
    if let Some(stop) = crate::scenarios::wire_declined(cx, &reply, a2a_types::Operation::ListTasks)
    {
        return Err(stop);
    }
    wire_result(cx, &reply)
}

async fn wire_artifacts_absent(cx: &Ctx<'_>) -> Check {
    let (id, context) = task_with_artifact(cx).await?;
    let params = json!({"contextId": context});
    let result = wire_list(cx, params, &format!("contextId={}", pct(&context))).await?;
    let tasks = result
        .get("tasks")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    ensure(
        tasks
            .iter()
            .any(|t| t.get("id").and_then(Value::as_str) == Some(&id)),
        format!("task {id:?} listed"),
        crate::abbreviate(&result.to_string()),
    )?;
    for t in &tasks {
        ensure(
            t.get("artifacts").is_none(),
            "no `artifacts` field at all without includeArtifacts",
            format!(
                "\"artifacts\": {}",
                crate::abbreviate(&t.get("artifacts").map(Value::to_string).unwrap_or_default())
            ),
        )?;
    }
    Ok(())
}

async fn wire_next_page_token(cx: &Ctx<'_>) -> Check {
    let context = format!("ctx-nothing-{}", cx.nonce());
    let params = json!({"contextId": context});
    let result = wire_list(cx, params, &format!("contextId={}", pct(&context))).await?;
    match result.get("nextPageToken") {
        Some(Value::String(s)) if s.is_empty() => Ok(()),
        Some(other) => Err(fail(
            "\"nextPageToken\": \"\" on the last page",
            other.to_string(),
        )),
        None => Err(fail(
            "a nextPageToken field, \"\" on the last page",
            crate::abbreviate(&result.to_string()),
        )),
    }
}

async fn wire_history_omitted(cx: &Ctx<'_>) -> Check {
    // Any task the agent makes of a plain message.
    let result = wire_result(cx, &send_req(cx, "input", json!({}))?.send(cx).await?)?;
    if result.get("task").is_none() {
        return Err(skip(
            "needs --contract: a plain message was answered with a direct Message, \
             and the scenario needs a task",
        ));
    }
    let id = str_at(&result, "/task/id")?.to_owned();
    let req = cx.op("GetTask", json!({"id": id, "historyLength": 0}), |cx| {
        cx.rest(Method::GET, &format!("/tasks/{}?historyLength=0", pct(&id)))
    })?;
    let task = wire_result(cx, &req.send(cx).await?)?;
    ensure(
        task.get("history").is_none(),
        "no `history` field for historyLength 0",
        crate::abbreviate(
            &task
                .get("history")
                .map(Value::to_string)
                .unwrap_or_default(),
        ),
    )
}
