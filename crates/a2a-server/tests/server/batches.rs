//! JSON-RPC notifications (JSON-RPC 2.0 section 4.1) and batches (section
//! 6) through `A2aServer::handle`.

use a2a_jsonrpc::BatchLimits;
use a2a_server::{A2aServer, ServerConfig};
use serde_json::{json, Value};

use crate::support::*;

const AUTH: Headers<'static> = &[("authorization", "Bearer t0k3n")];
const WRONG: Headers<'static> = &[("authorization", "Bearer wrong")];

fn send_body(id: Option<u64>, text: &str) -> Value {
    let mut v = json!({"jsonrpc": "2.0", "method": "SendMessage",
        "params": {"message": user_message(&format!("m-{text}"), text)}});
    if let Some(id) = id {
        v["id"] = json!(id);
    }
    v
}

fn post(server: &A2aServer<Memory>, body: &Value, headers: Headers<'_>) -> Answer {
    rpc_raw(server, serde_json::to_vec(body).unwrap(), headers)
}

#[test]
fn a_notification_runs_and_gets_no_body() {
    let server = memory_server();
    let a = post(&server, &send_body(None, "hi"), AUTH);
    assert_eq!(a.status, 204);
    assert!(a.body.is_empty());
    assert_eq!(a.header("content-type"), None);
    assert_eq!(server.service().seen().len(), 1, "the notification ran");
    // Its error is not answered either.
    let a = post(&server, &json!({"jsonrpc": "2.0", "method": "Nope"}), AUTH);
    assert_eq!((a.status.as_u16(), a.body.len()), (204, 0));
    // `"id": null` is a request, answered.
    let a = post(
        &server,
        &json!({"jsonrpc": "2.0", "id": null, "method": "Nope"}),
        AUTH,
    );
    assert_eq!(a.status, 200);
    assert_eq!(rpc_error(&a).0, -32601);
    // Refused before decoding (bad credentials): the refusal is answered.
    let a = post(&server, &send_body(None, "hi"), WRONG);
    assert_eq!(a.status, 401);
    assert_eq!(a.json()["id"], Value::Null);
}

#[test]
fn a_batch_answers_an_array_without_its_notifications() {
    let server = memory_server();
    let batch = json!([
        send_body(Some(1), "one"),
        send_body(None, "quiet"),
        {"jsonrpc": "2.0", "id": "g", "method": "GetTask", "params": {"id": "ghost"}},
        {"jsonrpc": "2.0", "id": 4, "method": "SendStreamingMessage",
            "params": {"message": user_message("s", "stream")}},
        1,
        {"jsonrpc": "2.0", "id": 6, "method": "NoSuchMethod"},
    ]);
    let a = post(&server, &batch, AUTH);
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("application/json"));
    let answers = a.json();
    let answers = answers.as_array().unwrap();
    let ids: Vec<Value> = answers.iter().map(|r| r["id"].clone()).collect();
    assert_eq!(ids, [json!(1), json!("g"), json!(4), Value::Null, json!(6)]);
    assert_eq!(
        answers[0]["result"]["task"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    assert_eq!(answers[1]["error"]["code"], -32001);
    assert_eq!(answers[2]["error"]["code"], -32004, "a stream in a batch");
    assert_eq!(answers[3]["error"]["code"], -32600);
    assert_eq!(answers[4]["error"]["code"], -32601);
    // Both SendMessage elements ran, the streaming one did not.
    assert_eq!(
        server.service().seen().len(),
        3,
        "two sends and one get reached the handler"
    );
}

#[test]
fn batches_are_refused_whole_when_empty_unreadable_unauthenticated_or_too_big() {
    let server = memory_server();
    let a = rpc_raw(&server, b"[]".to_vec(), AUTH);
    assert_eq!(a.status, 200);
    assert!(a.json().is_object(), "one error object, not an array");
    assert_eq!(rpc_error(&a).0, -32600);
    let a = rpc_raw(&server, b"[{\"jsonrpc\":\"2.0\",".to_vec(), AUTH);
    assert_eq!(rpc_error(&a).0, -32700);
    let a = post(&server, &json!([send_body(Some(1), "x")]), WRONG);
    assert_eq!(a.status, 401);
    assert!(a.json().is_object());
    assert!(server.service().seen().is_empty(), "nothing ran");
    // Only notifications: nothing to answer.
    let a = post(
        &server,
        &json!([send_body(None, "a"), send_body(None, "b")]),
        AUTH,
    );
    assert_eq!((a.status.as_u16(), a.body.len()), (204, 0));

    let limits = BatchLimits::new().with_max_len(2).with_max_size(4096);
    let small = A2aServer::new(
        Memory::default(),
        full_card(),
        ServerConfig::new()
            .with_authenticator(a2a_server::BearerAuth::new("bearer").with_token("t0k3n", "alice"))
            .with_batch_limits(limits),
    )
    .unwrap();
    let three = json!([
        send_body(Some(1), "a"),
        send_body(Some(2), "b"),
        send_body(Some(3), "c")
    ]);
    let a = post(&small, &three, AUTH);
    assert_eq!(a.status, 413);
    assert_eq!(rpc_error(&a).0, -32600);
    let big = json!([send_body(Some(1), &"x".repeat(5000))]);
    let a = post(&small, &big, AUTH);
    assert_eq!(a.status, 413);
    assert!(small.service().seen().is_empty());
    let two = json!([send_body(Some(1), "a"), send_body(Some(2), "b")]);
    assert_eq!(
        post(&small, &two, AUTH).json().as_array().map(Vec::len),
        Some(2)
    );
}

#[test]
fn invalid_utf8_in_a_body_is_a_parse_error() {
    let server = memory_server();
    let a = rpc_raw(
        &server,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"\xff\"}}"
            .to_vec(),
        AUTH,
    );
    assert_eq!(a.status, 200);
    assert_eq!(rpc_error(&a).0, -32700);
}
