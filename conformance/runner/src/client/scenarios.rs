//! The client scenarios: what the peer answers (the legal-but-awkward
//! variants the spec and ProtoJSON allow), what the client is asked to
//! do, and what must hold.

use std::time::Duration;

use a2a_test_peer::{sse_event, Call, Chunk, Respond, Step, TestPeer, WireReply};
use a2a_types::{
    A2aError, A2aRequest, BadRequest, ErrorDetail, ErrorKind, FieldViolation, Operation, Reply,
    SendMessageResponse, StreamResponse, TaskState,
};
use http::StatusCode;
use serde_json::{json, Value};

use super::{call, ClientScenario, Observed};
use crate::binding::{Binding, BOTH, REST};
use crate::check::{ensure, fail, Check, Level};

/// Every client scenario, in the order of the spec.
pub fn all() -> Vec<ClientScenario> {
    vec![
        ClientScenario {
            id: "client.version-header",
            title: "every request carries A2A-Version 1.0",
            section: "3.6.1",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_version,
            check: check_version,
        },
        ClientScenario {
            id: "client.read.defaults-omitted",
            title: "a result with every default field omitted is read",
            section: "5.7",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_defaults_omitted,
            check: check_defaults_omitted,
        },
        ClientScenario {
            id: "client.read.defaults-present",
            title: "a result with default fields present (empty lists, null, {}) is read",
            section: "5.7",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_defaults_present,
            check: check_defaults_present,
        },
        ClientScenario {
            id: "client.read.unknown-fields",
            title: "unknown fields in a result are ignored",
            section: "5.7",
            level: Level::Should,
            bindings: BOTH,
            tenant: "",
            script: script_unknown_fields,
            check: check_unknown_fields,
        },
        ClientScenario {
            id: "client.read.proto-names",
            title: "proto field names (snake_case) and enum numbers, which ProtoJSON parsers accept, are read",
            section: "5.5",
            level: Level::Should,
            bindings: BOTH,
            tenant: "",
            script: script_proto_names,
            check: check_proto_names,
        },
        ClientScenario {
            id: "client.send.camel-case",
            title: "the request body is ProtoJSON: camelCase names, enums as names, a JSON media type",
            section: "5.5",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_camel_case,
            check: check_camel_case,
        },
        ClientScenario {
            id: "client.route",
            title: "GetTask goes to the interface URL as the binding says (JSON-RPC method, HTTP+JSON route and query)",
            section: "8.3.2",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_route,
            check: check_route,
        },
        ClientScenario {
            id: "client.tenant",
            title: "the interface's tenant is sent in every request",
            section: "8.3.2",
            level: Level::Must,
            bindings: BOTH,
            tenant: "acme",
            script: script_tenant,
            check: check_tenant,
        },
        ClientScenario {
            id: "client.error.kind",
            title: "an agent error is reported as its kind",
            section: "3.3.2",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_error_kind,
            check: check_error_kind,
        },
        ClientScenario {
            id: "client.error.details",
            title: "an error's ErrorInfo and BadRequest details reach the caller",
            section: "3.3.2",
            level: Level::Should,
            bindings: BOTH,
            tenant: "",
            script: script_error_details,
            check: check_error_details,
        },
        ClientScenario {
            id: "client.auth.challenge",
            title: "a 401 is reported as an authentication error with its WWW-Authenticate challenge",
            section: "7.3",
            level: Level::Should,
            bindings: BOTH,
            tenant: "",
            script: script_challenge,
            check: check_challenge,
        },
        ClientScenario {
            id: "client.list.pages",
            title: "ListTasks pages are followed with nextPageToken as pageToken",
            section: "3.1.4",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_pages,
            check: check_pages,
        },
        ClientScenario {
            id: "client.stream.order",
            title: "stream events are reported in the order sent, a status update between artifact chunks included",
            section: "3.5.2",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_order,
            check: check_order,
        },
        ClientScenario {
            id: "client.stream.keep-alive",
            title: "SSE comments and retry fields between events are not events",
            section: "3.1.2",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_keep_alive,
            check: check_keep_alive,
        },
        ClientScenario {
            id: "client.stream.error-frame",
            title: "an error sent inside a stream after its first event is reported as its kind",
            section: "3.1.2",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_error_frame,
            check: check_error_frame,
        },
        ClientScenario {
            id: "client.stream.message-only",
            title: "a stream that is one direct Message is read to its end",
            section: "3.1.2",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_message_only,
            check: check_message_only,
        },
        ClientScenario {
            id: "client.stream.resume",
            title: "a stream dropped before a terminal state is resumed with SubscribeToTask to the end",
            section: "3.1.6",
            level: Level::Should,
            bindings: BOTH,
            tenant: "",
            script: script_resume,
            check: check_resume,
        },
        ClientScenario {
            id: "client.stream.last-event-id",
            title: "the resubscription sends Last-Event-ID with the last event id received",
            section: "3.1.6",
            level: Level::Should,
            bindings: BOTH,
            tenant: "",
            script: script_resume,
            check: check_last_event_id,
        },
        ClientScenario {
            id: "client.stream.final-task",
            title: "a stream that ends with a Task snapshot is read to its end",
            section: "11.7",
            level: Level::Must,
            bindings: BOTH,
            tenant: "",
            script: script_final_task,
            check: check_final_task,
        },
        ClientScenario {
            id: "client.rest.created",
            title: "a 201 Created answer to CreateTaskPushNotificationConfig is a success",
            section: "11.4",
            level: Level::Should,
            bindings: REST,
            tenant: "",
            script: script_created,
            check: check_created,
        },
        ClientScenario {
            id: "client.rest.no-content",
            title: "a 204 No Content answer to DeleteTaskPushNotificationConfig is a success",
            section: "11.4",
            level: Level::Should,
            bindings: REST,
            tenant: "",
            script: script_no_content,
            check: check_no_content,
        },
    ]
}

// ---- helpers ---------------------------------------------------------

fn message(id: &str, text: &str) -> Value {
    json!({"message": {"messageId": id, "role": "ROLE_USER", "parts": [{"text": text}]}})
}

fn send(text: &str) -> Value {
    call(Operation::SendMessage, message("m-1", text))
}

fn stream(text: &str, follow: bool) -> Value {
    let mut c = call(Operation::SendStreamingMessage, message("m-1", text));
    if follow {
        c["follow"] = Value::Bool(true);
    }
    c
}

/// A unary wire answer whose result is `result` (JSON text), framed for
/// the call's binding.
fn wire_result(call: &Call, result: &str) -> WireReply {
    if call.jsonrpc_id.is_some() {
        WireReply::jsonrpc_result(call, result)
    } else {
        WireReply::json(result.to_owned())
    }
}

/// The `data:` of a stream event `event` (JSON text) for the call's binding.
fn stream_data(call: &Call, event: &str) -> String {
    match &call.jsonrpc_id {
        Some(id) => format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{event}}}"#),
        None => event.to_owned(),
    }
}

/// A stream event from its ProtoJSON; a literal that does not decode is
/// an error step naming it, so a typo shows in the report.
fn event(v: Value) -> StreamResponse {
    match serde_json::from_value::<StreamResponse>(v.clone()) {
        Ok(e) => e,
        Err(_) => StreamResponse::Message(a2a_types::Message::agent_text(
            "bad-literal",
            format!("not a StreamResponse: {v}"),
        )),
    }
}

fn step(v: Value) -> Step {
    Step::Event(event(v))
}

fn labeled(id: &str, v: Value) -> Step {
    Step::Labeled(id.to_owned(), event(v))
}

fn task(id: &str, state: &str) -> Value {
    json!({"task": {"id": id, "contextId": "c-1", "status": {"state": state}}})
}

fn status(id: &str, state: &str) -> Value {
    json!({"statusUpdate": {"taskId": id, "contextId": "c-1", "status": {"state": state}}})
}

fn artifact(id: &str, text: &str, append: bool, last: bool) -> Value {
    json!({"artifactUpdate": {"taskId": id, "contextId": "c-1", "append": append, "lastChunk": last,
        "artifact": {"artifactId": "a-1", "parts": [{"text": text}]}}})
}

fn sent_task(o: &Observed, call: usize) -> Check<a2a_types::Task> {
    match o.reply(call, Operation::SendMessage)? {
        Reply::SendMessage(SendMessageResponse::Task(t)) => Ok(t),
        other => Err(fail("a task", format!("{other:?}"))),
    }
}

fn expect_task(t: &a2a_types::Task, id: &str, state: TaskState) -> Check {
    ensure(
        t.id == id && t.status.state == state,
        format!("task {id} in {state:?}"),
        format!("task {} in {:?}", t.id, t.status.state),
    )
}

fn kinds(events: &[StreamResponse]) -> Vec<String> {
    events.iter().map(crate::describe_event).collect()
}

/// Fails unless the client reported `events` exactly and an end.
fn expect_stream(o: &Observed, call: usize, expected: &[StreamResponse]) -> Check {
    let (events, error) = o.events(call)?;
    if let Some(e) = error {
        return Err(fail(
            format!("{} events and the end", expected.len()),
            format!("{} events, then the error {e}", events.len()),
        ));
    }
    ensure(
        events == expected,
        kinds(expected).join(", "),
        kinds(&events).join(", "),
    )?;
    ensure(
        o.lines
            .get(&call)
            .is_some_and(|l| l.last() == Some(&super::Line::End)),
        "the end of the stream reported",
        o.account(),
    )
}

// ---- 3.6.1 ------------------------------------------------------------

fn script_version(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.answer(
        Operation::SendMessage,
        Respond::Task(a2a_types::Task::new("t-v", "c-1", TaskState::Completed)),
    );
    vec![send("hello")]
}

fn check_version(o: &Observed) -> Check {
    // Every A2A request, whether or not the peer could decode it (without
    // the header it reads the request as 0.3 and refuses it).
    let calls: Vec<_> = o
        .received
        .iter()
        .filter(|r| r.path_only() != a2a_transport::server::AGENT_CARD_PATH)
        .collect();
    ensure(
        !calls.is_empty(),
        "a SendMessage request",
        o.requests_account(),
    )?;
    for sent in calls {
        let header = sent.header("a2a-version");
        let query = sent
            .query()
            .split('&')
            .any(|p| p.eq_ignore_ascii_case("A2A-Version=1.0"));
        ensure(
            header.is_some_and(|v| v.trim() == "1.0" || v.trim().starts_with("1.0.")) || query,
            "A2A-Version: 1.0 (header or query parameter)",
            format!("{header:?} on {} {}", sent.method, sent.path),
        )?;
    }
    expect_task(&sent_task(o, 0)?, "t-v", TaskState::Completed)
}

// ---- 5.7 and 5.5: reading -------------------------------------------------

fn script_defaults_omitted(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.on(Operation::SendMessage, |c| {
        wire_result(
            c,
            r#"{"task":{"id":"t-min","contextId":"c-1","status":{"state":"TASK_STATE_SUBMITTED"}}}"#,
        )
    });
    vec![send("hello")]
}

fn check_defaults_omitted(o: &Observed) -> Check {
    let t = sent_task(o, 0)?;
    expect_task(&t, "t-min", TaskState::Submitted)?;
    ensure(
        t.artifacts.is_empty() && t.history.is_empty(),
        "no artifacts, no history",
        format!("{t:?}"),
    )
}

fn script_defaults_present(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.on(Operation::SendMessage, |c| {
        wire_result(
            c,
            r#"{"task":{"id":"t-full","contextId":"c-1","status":{"state":"TASK_STATE_WORKING","message":null,"timestamp":"2025-10-28T10:30:00.000Z"},"artifacts":[],"history":[],"metadata":{}}}"#,
        )
    });
    vec![send("hello")]
}

fn check_defaults_present(o: &Observed) -> Check {
    let t = sent_task(o, 0)?;
    expect_task(&t, "t-full", TaskState::Working)?;
    ensure(
        t.artifacts.is_empty() && t.status.message.is_none(),
        "empty artifacts, no status message",
        format!("{t:?}"),
    )
}

fn script_unknown_fields(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.on(Operation::SendMessage, |c| {
        wire_result(
            c,
            r#"{"task":{"id":"t-x","contextId":"c-1","kind":"task","futureField":{"a":[1,2]},"status":{"state":"TASK_STATE_COMPLETED","futureStatus":true},"artifacts":[{"artifactId":"a-1","parts":[{"text":"ok","futurePart":1}],"futureArtifact":"x"}]}}"#,
        )
    });
    vec![send("hello")]
}

fn check_unknown_fields(o: &Observed) -> Check {
    let t = sent_task(o, 0)?;
    expect_task(&t, "t-x", TaskState::Completed)?;
    ensure(
        t.artifacts
            .first()
            .and_then(|a| a.text_content())
            .as_deref()
            == Some("ok"),
        "the artifact's text `ok`",
        format!("{:?}", t.artifacts),
    )
}

fn script_proto_names(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.on(Operation::SendMessage, |c| {
        wire_result(
            c,
            r#"{"task":{"id":"t-s","context_id":"c-snake","status":{"state":3},"artifacts":[{"artifact_id":"a-1","parts":[{"text":"ok"}]}]}}"#,
        )
    });
    vec![send("hello")]
}

fn check_proto_names(o: &Observed) -> Check {
    let t = sent_task(o, 0)?;
    expect_task(&t, "t-s", TaskState::Completed)?;
    ensure(
        t.context_id == "c-snake" && t.artifacts.first().is_some_and(|a| a.artifact_id == "a-1"),
        "contextId c-snake and artifactId a-1 read from context_id and artifact_id",
        format!("{t:?}"),
    )
}

// ---- 5.5: what the client sends -------------------------------------------

fn script_camel_case(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.answer(
        Operation::SendMessage,
        Respond::Task(a2a_types::Task::new("t-c", "c-1", TaskState::Completed)),
    );
    let mut request = message("m-camel", "hello");
    request["message"]["contextId"] = json!("c-1");
    request["configuration"] = json!({"acceptedOutputModes": ["text/plain"], "historyLength": 1});
    vec![call(Operation::SendMessage, request)]
}

fn snake_keys(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                // Inside metadata and data parts, keys are the user's.
                if k.contains('_') {
                    out.push(format!("{path}.{k}"));
                }
                if k != "metadata" && k != "data" {
                    snake_keys(v, &format!("{path}.{k}"), out);
                }
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                snake_keys(v, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

fn check_camel_case(o: &Observed) -> Check {
    let sent = o.sent_one(Operation::SendMessage)?;
    let media = sent.header("content-type").unwrap_or_default();
    ensure(
        a2a_transport::is_json_media_type(media),
        "Content-Type application/json or application/a2a+json",
        format!("{media:?}"),
    )?;
    let body = sent.json().ok_or_else(|| {
        fail(
            "a JSON body",
            crate::abbreviate(&String::from_utf8_lossy(&sent.body)),
        )
    })?;
    let mut bad = Vec::new();
    snake_keys(&body, "$", &mut bad);
    ensure(bad.is_empty(), "camelCase member names", bad.join(", "))?;
    let message = if o.binding == Binding::JsonRpc {
        &body["params"]["message"]
    } else {
        &body["message"]
    };
    ensure(
        message["role"] == "ROLE_USER" && message["messageId"] == "m-camel",
        r#"message.role "ROLE_USER" and messageId "m-camel""#,
        crate::abbreviate(&message.to_string()),
    )
}

// ---- 8.3.2 ------------------------------------------------------------

fn script_route(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.on(Operation::GetTask, |c| {
        a2a_types::Task::new(c.task_id().unwrap_or("?"), "c-1", TaskState::Working)
    });
    vec![call(
        Operation::GetTask,
        json!({"id": "t-route", "historyLength": 2}),
    )]
}

fn check_route(o: &Observed) -> Check {
    let sent = o.sent_one(Operation::GetTask)?;
    match o.binding {
        Binding::JsonRpc => {
            let body = sent.json().unwrap_or_default();
            ensure(
                sent.method == http::Method::POST
                    && sent.path_only() == a2a_test_peer::JSONRPC_PATH
                    && body["jsonrpc"] == "2.0"
                    && body["method"] == "GetTask"
                    && !body["id"].is_null(),
                "POST /jsonrpc with a JSON-RPC 2.0 request of method GetTask and an id",
                format!(
                    "{} {} {}",
                    sent.method,
                    sent.path,
                    crate::abbreviate(&body.to_string())
                ),
            )?;
        }
        _ => ensure(
            sent.method == http::Method::GET
                && sent.path_only() == "/rest/tasks/t-route"
                && sent.query().split('&').any(|p| p == "historyLength=2"),
            "GET /rest/tasks/t-route?historyLength=2 (spec 11.3, 11.5)",
            format!("{} {}", sent.method, sent.path),
        )?,
    }
    let Some(A2aRequest::GetTask(r)) = sent.request() else {
        return Err(fail("a GetTask request", o.requests_account()));
    };
    ensure(
        r.id == "t-route" && r.history_length == Some(2),
        "id t-route, historyLength 2",
        format!("{r:?}"),
    )?;
    match o.reply(0, Operation::GetTask)? {
        Reply::GetTask(t) => expect_task(&t, "t-route", TaskState::Working),
        other => Err(fail("a task", format!("{other:?}"))),
    }
}

fn script_tenant(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.on(Operation::GetTask, |c| {
        a2a_types::Task::new(c.task_id().unwrap_or("?"), "c-1", TaskState::Working)
    });
    peer.answer(
        Operation::SendMessage,
        Respond::Task(a2a_types::Task::new("t-1", "c-1", TaskState::Completed)),
    );
    vec![
        send("hello"),
        call(Operation::GetTask, json!({"id": "t-1"})),
    ]
}

fn check_tenant(o: &Observed) -> Check {
    let mut seen = 0;
    for r in &o.received {
        let Some(request) = r.request() else {
            continue;
        };
        seen += 1;
        ensure(
            request.tenant() == "acme",
            format!("tenant acme in {}", request.operation().name()),
            format!("{:?} ({} {})", request.tenant(), r.method, r.path),
        )?;
    }
    ensure(
        seen == 2,
        "SendMessage and GetTask sent",
        o.requests_account(),
    )
}

// ---- 3.3.2 ------------------------------------------------------------

fn script_error_kind(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.answer(Operation::GetTask, A2aError::task_not_found("t-gone"));
    vec![call(Operation::GetTask, json!({"id": "t-gone"}))]
}

fn check_error_kind(o: &Observed) -> Check {
    o.error(0)?.expect_kind(ErrorKind::TaskNotFound)
}

fn script_error_details(peer: &TestPeer, _: Binding) -> Vec<Value> {
    let error = A2aError::new(
        ErrorKind::InvalidParams,
        "message.parts: the peer wants two",
    )
    .with_detail(ErrorDetail::BadRequest(BadRequest {
        field_violations: vec![FieldViolation {
            field: "message.parts".into(),
            description: "at least two parts".into(),
        }],
    }));
    peer.answer(Operation::SendMessage, error);
    vec![send("hello")]
}

fn check_error_details(o: &Observed) -> Check {
    let e = o.error(0)?;
    e.expect_kind(ErrorKind::InvalidParams)?;
    let details = e.details();
    ensure(
        details
            .iter()
            .any(|d| d.a2a_reason() == Some(ErrorKind::InvalidParams.reason()))
            || e.0["reason"] == ErrorKind::InvalidParams.reason(),
        "the ErrorInfo reason INVALID_PARAMS (as a detail or as `reason`)",
        e.0.to_string(),
    )?;
    ensure(
        details.iter().any(|d| {
            matches!(d, ErrorDetail::BadRequest(b)
                if b.field_violations.iter().any(|v| v.field == "message.parts"))
        }),
        "a BadRequest detail naming message.parts",
        e.0.to_string(),
    )
}

// ---- 7.3 --------------------------------------------------------------

const CHALLENGE: &str = r#"Bearer realm="test-peer", error="invalid_token""#;

fn script_challenge(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.answer(
        Operation::GetTask,
        WireReply::new(StatusCode::UNAUTHORIZED).header("www-authenticate", CHALLENGE),
    );
    vec![call(Operation::GetTask, json!({"id": "t-1"}))]
}

fn check_challenge(o: &Observed) -> Check {
    let e = o.error(0)?;
    ensure(
        e.kind() == Some(ErrorKind::Unauthenticated) || e.http_status() == Some(401),
        "an authentication error (UNAUTHENTICATED, or HTTP 401)",
        e.0.to_string(),
    )?;
    let challenges = e.0["challenges"].as_array().cloned().unwrap_or_default();
    ensure(
        challenges.iter().any(|c| {
            c.as_str()
                .is_some_and(|c| c.contains("realm=\"test-peer\""))
        }),
        format!("the challenge {CHALLENGE} reported"),
        e.0.to_string(),
    )
}

// ---- 3.1.4 ------------------------------------------------------------

fn script_pages(peer: &TestPeer, _: Binding) -> Vec<Value> {
    let page = |ids: &[&str], next: &str| {
        Respond::Json(json!({
            "tasks": ids.iter().map(|id| json!({"id": id, "contextId": "c-1",
                "status": {"state": "TASK_STATE_COMPLETED"}})).collect::<Vec<_>>(),
            "nextPageToken": next, "pageSize": 2, "totalSize": 3,
        }))
    };
    peer.on(Operation::ListTasks, move |c| match &c.request {
        A2aRequest::ListTasks(r) if r.page_token.is_empty() => page(&["t-a", "t-b"], "page-2"),
        A2aRequest::ListTasks(r) if r.page_token == "page-2" => page(&["t-c"], ""),
        _ => Respond::Error(A2aError::new(ErrorKind::InvalidParams, "unknown pageToken")),
    });
    let mut c = call(Operation::ListTasks, json!({"pageSize": 2}));
    c["pages"] = Value::Bool(true);
    vec![c]
}

fn check_pages(o: &Observed) -> Check {
    let sent = o.sent(Operation::ListTasks);
    let tokens: Vec<_> = sent
        .iter()
        .filter_map(|r| match r.request() {
            Some(A2aRequest::ListTasks(l)) => Some((l.page_token.clone(), l.page_size)),
            _ => None,
        })
        .collect();
    ensure(
        tokens == [(String::new(), Some(2)), ("page-2".to_owned(), Some(2))],
        "two ListTasks requests: pageSize 2, then pageSize 2 with pageToken page-2",
        format!("{tokens:?}"),
    )?;
    let ids: Vec<String> = o
        .replies(0, Operation::ListTasks)?
        .into_iter()
        .flat_map(|r| match r {
            Reply::ListTasks(l) => l.tasks.into_iter().map(|t| t.id).collect(),
            _ => Vec::new(),
        })
        .collect();
    ensure(
        ids == ["t-a", "t-b", "t-c"],
        "tasks t-a, t-b, t-c over two pages",
        ids.join(", "),
    )
}

// ---- streams ----------------------------------------------------------

fn order_events() -> Vec<Value> {
    vec![
        task("t-o", "TASK_STATE_WORKING"),
        artifact("t-o", "one ", false, false),
        status("t-o", "TASK_STATE_WORKING"),
        artifact("t-o", "two", true, true),
        status("t-o", "TASK_STATE_COMPLETED"),
    ]
}

fn script_order(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.answer(
        Operation::SendStreamingMessage,
        Respond::Stream(order_events().into_iter().map(step).collect()),
    );
    vec![stream("go", false)]
}

fn check_order(o: &Observed) -> Check {
    let expected: Vec<_> = order_events().into_iter().map(event).collect();
    expect_stream(o, 0, &expected)
}

fn script_keep_alive(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.on(Operation::SendStreamingMessage, |c| {
        WireReply::sse([
            Chunk::Data(": keep-alive\n\n".into()),
            sse_event(
                Some("1"),
                &stream_data(c, &task("t-k", "TASK_STATE_WORKING").to_string()),
            ),
            Chunk::Data(":\n\n".into()),
            Chunk::Data("retry: 1500\n\n".into()),
            Chunk::Sleep(Duration::from_millis(20)),
            Chunk::Data(": still working\n".into()),
            sse_event(
                Some("2"),
                &stream_data(c, &status("t-k", "TASK_STATE_COMPLETED").to_string()),
            ),
        ])
    });
    vec![stream("go", false)]
}

fn check_keep_alive(o: &Observed) -> Check {
    let expected = [
        event(task("t-k", "TASK_STATE_WORKING")),
        event(status("t-k", "TASK_STATE_COMPLETED")),
    ];
    expect_stream(o, 0, &expected)
}

fn script_error_frame(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.answer(
        Operation::SendStreamingMessage,
        Respond::Stream(vec![
            step(task("t-e", "TASK_STATE_WORKING")),
            Step::Error(A2aError::task_not_found("t-e")),
        ]),
    );
    vec![stream("go", false)]
}

fn check_error_frame(o: &Observed) -> Check {
    let (events, error) = o.events(0)?;
    ensure(
        events == [event(task("t-e", "TASK_STATE_WORKING"))],
        "the working task, then the error",
        kinds(&events).join(", "),
    )?;
    let Some(e) = error else {
        return Err(fail("the error reported", o.account()));
    };
    super::ReportedError(e).expect_kind(ErrorKind::TaskNotFound)
}

fn script_message_only(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.answer(
        Operation::SendStreamingMessage,
        Respond::Message(a2a_types::Message::agent_text("r-1", "hi")),
    );
    vec![stream("go", false)]
}

fn check_message_only(o: &Observed) -> Check {
    let (events, error) = o.events(0)?;
    if let Some(e) = error {
        return Err(fail("one message and the end", format!("the error {e}")));
    }
    ensure(
        matches!(events.as_slice(), [StreamResponse::Message(m)] if m.message_id == "r-1"),
        "one message r-1",
        kinds(&events).join(", "),
    )?;
    ensure(
        o.lines
            .get(&0)
            .is_some_and(|l| l.last() == Some(&super::Line::End)),
        "the end of the stream reported",
        o.account(),
    )
}

fn script_resume(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.answer(
        Operation::SendStreamingMessage,
        Respond::Stream(vec![
            labeled("e-1", task("t-r", "TASK_STATE_WORKING")),
            labeled("e-2", artifact("t-r", "part", false, true)),
            Step::Drop,
        ]),
    );
    let mut snapshot = task("t-r", "TASK_STATE_WORKING");
    snapshot["task"]["artifacts"] = json!([{"artifactId": "a-1", "parts": [{"text": "part"}]}]);
    peer.answer(
        Operation::SubscribeToTask,
        Respond::Stream(vec![
            labeled("e-2", snapshot),
            labeled("e-3", status("t-r", "TASK_STATE_COMPLETED")),
        ]),
    );
    vec![stream("go", true)]
}

fn check_resume(o: &Observed) -> Check {
    let subscribe = o.sent(Operation::SubscribeToTask);
    let Some(first) = subscribe.first() else {
        return Err(fail(
            "a SubscribeToTask request after the drop",
            o.requests_account(),
        ));
    };
    let Some(A2aRequest::SubscribeToTask(r)) = first.request() else {
        return Err(fail("a SubscribeToTask request", o.requests_account()));
    };
    ensure(
        r.id == "t-r",
        "SubscribeToTask of task t-r",
        format!("{r:?}"),
    )?;
    let (events, error) = o.events(0)?;
    if let Some(e) = error {
        return Err(fail(
            "the task followed to its end",
            format!("the error {e}"),
        ));
    }
    ensure(
        events.last().is_some_and(|e| {
            matches!(e, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed)
        }),
        "the completed status update as the last event",
        kinds(&events).join(", "),
    )
}

fn check_last_event_id(o: &Observed) -> Check {
    let subscribe = o.sent(Operation::SubscribeToTask);
    let Some(first) = subscribe.first() else {
        return Err(fail(
            "a SubscribeToTask request after the drop",
            o.requests_account(),
        ));
    };
    ensure(
        first.header("last-event-id") == Some("e-2"),
        "Last-Event-ID: e-2",
        format!("{:?}", first.header("last-event-id")),
    )
}

fn script_final_task(peer: &TestPeer, _: Binding) -> Vec<Value> {
    let mut last = task("t-f", "TASK_STATE_COMPLETED");
    last["task"]["artifacts"] = json!([{"artifactId": "a-1", "parts": [{"text": "done"}]}]);
    peer.answer(
        Operation::SendStreamingMessage,
        Respond::Stream(vec![
            step(task("t-f", "TASK_STATE_SUBMITTED")),
            step(status("t-f", "TASK_STATE_WORKING")),
            step(artifact("t-f", "done", false, true)),
            step(status("t-f", "TASK_STATE_COMPLETED")),
            step(last),
        ]),
    );
    vec![stream("go", false)]
}

fn check_final_task(o: &Observed) -> Check {
    let mut last = task("t-f", "TASK_STATE_COMPLETED");
    last["task"]["artifacts"] = json!([{"artifactId": "a-1", "parts": [{"text": "done"}]}]);
    let expected = [
        event(task("t-f", "TASK_STATE_SUBMITTED")),
        event(status("t-f", "TASK_STATE_WORKING")),
        event(artifact("t-f", "done", false, true)),
        event(status("t-f", "TASK_STATE_COMPLETED")),
        event(last),
    ];
    expect_stream(o, 0, &expected)
}

// ---- 11.4 -------------------------------------------------------------

fn script_created(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.answer(
        Operation::CreateTaskPushNotificationConfig,
        WireReply::new(StatusCode::CREATED)
            .header("content-type", "application/a2a+json")
            .header("location", "/rest/tasks/t-1/pushNotificationConfigs/p-1")
            .with_body(r#"{"id":"p-1","taskId":"t-1","url":"https://hooks.example.com/a2a"}"#),
    );
    vec![call(
        Operation::CreateTaskPushNotificationConfig,
        json!({"taskId": "t-1", "url": "https://hooks.example.com/a2a"}),
    )]
}

fn check_created(o: &Observed) -> Check {
    match o.reply(0, Operation::CreateTaskPushNotificationConfig)? {
        Reply::CreateTaskPushNotificationConfig(c) => {
            ensure(c.id == "p-1", "the created config p-1", format!("{c:?}"))
        }
        other => Err(fail("a push config", format!("{other:?}"))),
    }
}

fn script_no_content(peer: &TestPeer, _: Binding) -> Vec<Value> {
    peer.answer(
        Operation::DeleteTaskPushNotificationConfig,
        WireReply::new(StatusCode::NO_CONTENT),
    );
    vec![call(
        Operation::DeleteTaskPushNotificationConfig,
        json!({"taskId": "t-1", "id": "p-1"}),
    )]
}

fn check_no_content(o: &Observed) -> Check {
    o.reply(0, Operation::DeleteTaskPushNotificationConfig)
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_literals_decode() {
        let all = all();
        let mut ids: Vec<_> = all.iter().map(|s| s.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all.len());
        for v in order_events() {
            assert!(
                serde_json::from_value::<StreamResponse>(v.clone()).is_ok(),
                "{v}"
            );
        }
    }
}
