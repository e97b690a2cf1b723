//! Every operation over both bindings, with the same results.

use a2a_server::{CallContext, Principal};
use a2a_types::Reply;
use a2a_wire::dispatch;
use http::Method;
use serde_json::{json, Value};

use crate::support::*;

const AUTH: Headers<'static> = &[("authorization", "Bearer t0k3n")];

/// One step of a script: the JSON-RPC method and params, and the same call
/// over HTTP+JSON.
struct Step {
    method: &'static str,
    params: Value,
    rest: (Method, String, Option<Value>),
}

fn step(
    method: &'static str,
    params: Value,
    rest_method: Method,
    path: &str,
    body: Option<Value>,
) -> Step {
    Step {
        method,
        params,
        rest: (rest_method, path.to_owned(), body),
    }
}

/// What a step answered, in binding-neutral form: a result value, the
/// events of a stream, or an error's (JSON-RPC code, reason).
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Value(Value),
    Events(Vec<Value>),
    Error(i64, String),
}

fn script() -> Vec<Step> {
    let msg = |id: &str, text: &str| json!({ "message": user_message(id, text) });
    vec![
        step(
            "SendMessage",
            msg("m1", "hello"),
            Method::POST,
            "/message:send",
            Some(msg("m1", "hello")),
        ),
        step(
            "SendMessage",
            msg("m2", "reply"),
            Method::POST,
            "/message:send",
            Some(msg("m2", "reply")),
        ),
        step(
            "GetTask",
            json!({"id": "task-1", "historyLength": 0}),
            Method::GET,
            "/tasks/task-1?historyLength=0",
            None,
        ),
        step(
            "SendMessage",
            msg("m3", "hold"),
            Method::POST,
            "/message:send",
            Some(msg("m3", "hold")),
        ),
        step(
            "ListTasks",
            json!({"status": "TASK_STATE_WORKING", "pageSize": 10, "includeArtifacts": true}),
            Method::GET,
            "/tasks?status=TASK_STATE_WORKING&pageSize=10&includeArtifacts=true",
            None,
        ),
        step(
            "ListTasks",
            json!({"contextId": "ctx-1", "statusTimestampAfter": "2025-01-01T00:00:00Z", "historyLength": 1}),
            Method::GET,
            "/tasks?contextId=ctx-1&statusTimestampAfter=2025-01-01T00%3A00%3A00Z&historyLength=1",
            None,
        ),
        step(
            "CancelTask",
            json!({"id": "task-2"}),
            Method::POST,
            "/tasks/task-2:cancel",
            None,
        ),
        step(
            "CancelTask",
            json!({"id": "task-1"}),
            Method::POST,
            "/tasks/task-1:cancel",
            Some(json!({})),
        ),
        step(
            "SendMessage",
            msg("m4", "hold"),
            Method::POST,
            "/message:send",
            Some(msg("m4", "hold")),
        ),
        step(
            "SubscribeToTask",
            json!({"id": "task-3"}),
            Method::GET,
            "/tasks/task-3:subscribe",
            None,
        ),
        step(
            "SendStreamingMessage",
            msg("m5", "stream me"),
            Method::POST,
            "/message:stream",
            Some(msg("m5", "stream me")),
        ),
        step(
            "CreateTaskPushNotificationConfig",
            json!({"taskId": "task-1", "url": "https://hooks.example/a2a", "token": "tok"}),
            Method::POST,
            "/tasks/task-1/pushNotificationConfigs",
            Some(json!({"url": "https://hooks.example/a2a", "token": "tok"})),
        ),
        step(
            "GetTaskPushNotificationConfig",
            json!({"taskId": "task-1", "id": "cfg-1"}),
            Method::GET,
            "/tasks/task-1/pushNotificationConfigs/cfg-1",
            None,
        ),
        step(
            "ListTaskPushNotificationConfigs",
            json!({"taskId": "task-1"}),
            Method::GET,
            "/tasks/task-1/pushNotificationConfigs",
            None,
        ),
        step(
            "DeleteTaskPushNotificationConfig",
            json!({"taskId": "task-1", "id": "cfg-1"}),
            Method::DELETE,
            "/tasks/task-1/pushNotificationConfigs/cfg-1",
            None,
        ),
        step(
            "GetTaskPushNotificationConfig",
            json!({"taskId": "task-1", "id": "cfg-1"}),
            Method::GET,
            "/tasks/task-1/pushNotificationConfigs/cfg-1",
            None,
        ),
        step(
            "GetExtendedAgentCard",
            json!({}),
            Method::GET,
            "/extendedAgentCard",
            None,
        ),
        step(
            "SendMessage",
            json!({"tenant": "acme", "message": user_message("m6", "tenant hello")}),
            Method::POST,
            "/acme/message:send",
            Some(msg("m6", "tenant hello")),
        ),
        step(
            "GetTask",
            json!({"tenant": "acme", "id": "task-5"}),
            Method::GET,
            "/acme/tasks/task-5",
            None,
        ),
        step(
            "GetTask",
            json!({"id": "task-5"}),
            Method::GET,
            "/tasks/task-5",
            None,
        ),
        step(
            "GetTask",
            json!({"tenant": "acme", "id": "task-5"}),
            Method::GET,
            "/tasks/task-5?tenant=acme",
            None,
        ),
        step(
            "ListTasks",
            json!({"tenant": "acme"}),
            Method::GET,
            "/acme/tasks",
            None,
        ),
    ]
}

fn run_jsonrpc(step: &Step, server: &a2a_server::A2aServer<Memory>) -> Outcome {
    let a = rpc(server, step.method, step.params.clone(), AUTH);
    if a.streamed {
        let events = a.events();
        return Outcome::Events(
            events
                .iter()
                .map(|e| {
                    let v: Value = serde_json::from_slice(&e.data).unwrap();
                    assert_eq!(v["jsonrpc"], "2.0");
                    assert_eq!(v["id"], 7);
                    v["result"].clone()
                })
                .collect(),
        );
    }
    let v = a.json();
    if v.get("error").is_some() {
        let (code, reason) = rpc_error(&a);
        return Outcome::Error(code, reason);
    }
    Outcome::Value(result(&a))
}

fn run_rest(step: &Step, server: &a2a_server::A2aServer<Memory>) -> Outcome {
    let (method, path, body) = &step.rest;
    let a = rest(server, method.clone(), path, body.clone(), AUTH);
    if a.streamed {
        return Outcome::Events(
            a.events()
                .iter()
                .map(|e| serde_json::from_slice(&e.data).unwrap())
                .collect(),
        );
    }
    if a.status != 200 {
        let (_, reason) = rest_error(&a);
        let kind = a2a_types::ErrorKind::from_reason(&reason).expect("a known reason");
        return Outcome::Error(kind.code().0, reason);
    }
    Outcome::Value(ok(&a))
}

/// The same step without any binding: the typed request handed to the
/// handler through `dispatch`, as an in-process transport would.
fn run_in_process(step: &Step, service: &Memory) -> Outcome {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": step.method, "params": step.params});
    let request =
        a2a_jsonrpc::decode_request(&serde_json::to_vec(&body).unwrap(), &Default::default())
            .unwrap()
            .request;
    let mut cx = CallContext::new().with_principal(Principal::new("alice", "bearer"));
    if let Some(tenant) = step.params["tenant"].as_str() {
        cx = cx.with_tenant(tenant);
    }
    let value = |v: Result<Value, serde_json::Error>| Outcome::Value(v.unwrap());
    match block_on(dispatch(service, &cx, request)) {
        Ok(Reply::SendStreamingMessage(mut events) | Reply::SubscribeToTask(mut events)) => {
            let mut out = Vec::new();
            let mut task_cx = std::task::Context::from_waker(std::task::Waker::noop());
            while let std::task::Poll::Ready(Some(item)) =
                futures_core::Stream::poll_next(events.as_mut(), &mut task_cx)
            {
                out.push(serde_json::to_value(item.unwrap()).unwrap());
            }
            Outcome::Events(out)
        }
        Ok(unary) => value(serde_json::to_value(&unary)),
        Err(e) => Outcome::Error(e.code().0, e.error_info().unwrap().reason.clone()),
    }
}

#[test]
fn every_operation_answers_the_same_over_both_bindings_and_in_process() {
    let over_rpc = memory_server();
    let over_rest = memory_server();
    let in_process = Memory::default();
    let steps = script();
    let mut ops = std::collections::BTreeSet::new();
    for (n, step) in steps.iter().enumerate() {
        let a = run_jsonrpc(step, &over_rpc);
        let b = run_rest(step, &over_rest);
        let c = run_in_process(step, &in_process);
        assert_eq!(
            a, b,
            "step {n} ({}) differs between the bindings",
            step.method
        );
        assert_eq!(
            a, c,
            "step {n} ({}) differs from the in-process call",
            step.method
        );
        ops.insert(step.method);
    }
    assert_eq!(ops.len(), 11, "every operation is exercised: {ops:?}");
    // The handlers saw the same contexts: tenant, principal, version.
    assert_eq!(over_rpc.service().seen(), over_rest.service().seen());
    assert_eq!(over_rpc.service().seen(), in_process.seen());
}

#[test]
fn the_script_answers_what_the_agent_did() {
    let server = memory_server();
    let steps = script();
    let outcomes: Vec<Outcome> = steps.iter().map(|s| run_rest(s, &server)).collect();
    let value = |n: usize| match &outcomes[n] {
        Outcome::Value(v) => v.clone(),
        other => panic!("step {n}: {other:?}"),
    };
    assert_eq!(value(0)["task"]["id"], "task-1");
    assert_eq!(value(0)["task"]["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(value(1)["message"]["messageId"], "reply-1");
    assert_eq!(value(2)["id"], "task-1");
    assert!(
        value(2).get("history").is_none(),
        "historyLength=0 drops the history"
    );
    let working = value(4);
    assert_eq!(working["tasks"].as_array().unwrap().len(), 1);
    assert_eq!(working["tasks"][0]["id"], "task-2");
    assert_eq!(working["pageSize"], 10);
    assert_eq!(value(5)["tasks"][0]["id"], "task-1");
    assert_eq!(value(5)["tasks"][0]["history"].as_array().unwrap().len(), 1);
    assert_eq!(value(6)["status"]["state"], "TASK_STATE_CANCELED");
    assert_eq!(
        outcomes[7],
        Outcome::Error(-32002, "TASK_NOT_CANCELABLE".into())
    );
    match &outcomes[9] {
        Outcome::Events(e) => {
            assert_eq!(e.len(), 2);
            assert_eq!(e[0]["task"]["id"], "task-3");
            assert_eq!(
                e[1]["statusUpdate"]["status"]["state"],
                "TASK_STATE_COMPLETED"
            );
        }
        other => panic!("{other:?}"),
    }
    match &outcomes[10] {
        Outcome::Events(e) => {
            assert_eq!(e.len(), 4);
            assert_eq!(e[0]["task"]["id"], "task-4");
            assert_eq!(
                e[2]["artifactUpdate"]["artifact"]["parts"][0]["text"],
                "stream me"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(value(11)["id"], "cfg-1");
    assert_eq!(
        value(11)["taskId"],
        "task-1",
        "the path's task id is in the request"
    );
    assert_eq!(value(12)["url"], "https://hooks.example/a2a");
    assert_eq!(value(13)["configs"].as_array().unwrap().len(), 1);
    assert_eq!(value(14), json!({}), "delete answers 200 {{}}");
    assert_eq!(
        outcomes[15],
        Outcome::Error(-32001, "TASK_NOT_FOUND".into())
    );
    assert_eq!(value(16)["skills"].as_array().unwrap().len(), 2);
    assert_eq!(value(17)["task"]["id"], "task-5");
    assert_eq!(value(18)["id"], "task-5");
    assert_eq!(
        outcomes[19],
        Outcome::Error(-32001, "TASK_NOT_FOUND".into()),
        "tasks are scoped to their tenant"
    );
    assert_eq!(value(20)["id"], "task-5", "tenant from the query");
    assert_eq!(value(21)["tasks"].as_array().unwrap().len(), 1);

    let seen = server.service().seen();
    assert!(seen.iter().all(|s| s.version == "1.0"));
    assert!(seen
        .iter()
        .all(|s| s.principal == Some(a2a_server::Principal::new("alice", "bearer"))));
    assert_eq!(seen[17].tenant.as_deref(), Some("acme"));
    assert_eq!(seen[0].tenant, None);
}

#[test]
fn subscribe_is_also_accepted_as_post() {
    let server = memory_server();
    let created = rest(
        &server,
        Method::POST,
        "/message:send",
        Some(json!({"message": user_message("m", "hold")})),
        AUTH,
    );
    assert_eq!(ok(&created)["task"]["id"], "task-1");
    for (method, body) in [
        (Method::POST, None),
        (Method::POST, Some(json!({"id": "task-1"}))),
    ] {
        let a = rest(&server, method, "/tasks/task-1:subscribe", body, AUTH);
        assert_eq!(a.status, 200);
        assert_eq!(a.events().len(), 2);
    }
}

#[test]
fn extensions_reach_the_handler_from_header_or_query() {
    let server = memory_server();
    let a = rpc(
        &server,
        "GetTask",
        json!({"id": "nope"}),
        &[
            ("a2a-extensions", "urn:a, urn:b,urn:a"),
            ("authorization", "Bearer t0k3n"),
        ],
    );
    assert_eq!(rpc_error(&a).0, -32001);
    let a = rest(
        &server,
        Method::GET,
        "/tasks/nope?A2A-Extensions=urn:c",
        None,
        &[("a2a-extensions", "urn:a")],
    );
    assert_eq!(a.status, 404);
    let seen = server.service().seen();
    assert_eq!(seen[0].extensions, ["urn:a", "urn:b"]);
    assert_eq!(seen[1].extensions, ["urn:a", "urn:c"]);
    assert_eq!(seen[1].principal, None, "anonymous is allowed by this card");
}
