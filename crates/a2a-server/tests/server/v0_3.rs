//! A server that also serves 0.3 (`ServerConfig::with_versions([1.0, 0.3])`):
//! a request without `A2A-Version` is a 0.3 request (spec 3.6.2), decoded
//! and answered in 0.3 form through the same pipeline; 1.0 requests are
//! answered as before.

use a2a_schema_v03::{assert_valid, Case};
use a2a_server::{ProtocolVersion, ServerConfig};
use bytes::Bytes;
use http::{Method, Request};
use serde_json::{json, Value};

use crate::support::*;

fn server() -> a2a_server::A2aServer<Memory> {
    let config = ServerConfig::new().with_versions([ProtocolVersion::V1_0, ProtocolVersion::V0_3]);
    let card = card_for(&config);
    a2a_server::A2aServer::new(Memory::default(), card, config).unwrap()
}

/// A JSON-RPC call without `A2A-Version`: a 0.3 client.
fn rpc_03(server: &a2a_server::A2aServer<Memory>, method: &str, params: Value) -> Answer {
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": method, "params": params});
    let req = Request::post("/")
        .header("content-type", "application/json")
        .header("authorization", "Bearer t0k3n")
        .body(Bytes::from(serde_json::to_vec(&body).unwrap()))
        .unwrap();
    send(server, req)
}

fn message_03(text: &str) -> Value {
    json!({"message": {"kind": "message", "messageId": "m-1", "role": "user",
        "parts": [{"kind": "text", "text": text}]}})
}

#[test]
fn a_0_3_message_send_is_answered_in_0_3_form() {
    let server = server();
    let a = rpc_03(&server, "message/send", message_03("hello"));
    let body = a.json();
    assert_eq!(body["result"]["kind"], "task", "{body}");
    assert_eq!(body["result"]["status"]["state"], "completed", "{body}");
    let id = body["result"]["id"].as_str().unwrap().to_owned();
    let got = rpc_03(&server, "tasks/get", json!({"id": id}));
    assert_eq!(got.json()["result"]["kind"], "task");
    let reply = rpc_03(&server, "message/send", message_03("reply"));
    assert_eq!(reply.json()["result"]["kind"], "message");
    assert_eq!(reply.json()["result"]["role"], "agent");
    assert_valid(&[
        Case::new("send", "SendMessageSuccessResponse", &a.body),
        Case::new("get", "GetTaskSuccessResponse", &got.body),
        Case::new("reply", "SendMessageSuccessResponse", &reply.body),
    ]);
}

#[test]
fn a_0_3_stream_carries_kind_and_final() {
    let server = server();
    let a = rpc_03(&server, "message/stream", message_03("hello"));
    let events = a.events();
    assert!(events.len() >= 2, "{events:?}");
    let mut cases = Vec::new();
    let mut kinds = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let v: Value = serde_json::from_slice(&e.data).unwrap();
        kinds.push(v["result"]["kind"].as_str().unwrap_or("?").to_owned());
        cases.push(Case::new(
            format!("event {i}"),
            "SendStreamingMessageSuccessResponse",
            &e.data,
        ));
    }
    assert_eq!(kinds.first().map(String::as_str), Some("task"), "{kinds:?}");
    let last: Value = serde_json::from_slice(&events.last().unwrap().data).unwrap();
    assert_eq!(last["result"]["kind"], "status-update", "{last}");
    assert_eq!(last["result"]["final"], true, "{last}");
    assert_valid(&cases);
}

#[test]
fn a_1_0_shape_or_name_from_a_0_3_caller_is_refused() {
    let server = server();
    // 1.0 method names are not 0.3 methods; 0.3 has no tasks/list.
    for method in ["SendMessage", "tasks/list"] {
        let a = rpc_03(&server, method, json!({}));
        assert_eq!(rpc_error(&a).0, -32601, "{method}: {}", a.json());
    }
    // A 1.0 part (no `kind`) under a 0.3 method: invalid params, located.
    let a = rpc_03(
        &server,
        "message/send",
        json!({"message": {"kind": "message", "messageId": "m", "role": "user", "parts": [{"text": "a"}]}}),
    );
    let (code, _) = rpc_error(&a);
    assert_eq!(code, -32602, "{}", a.json());
    assert!(
        a.json().to_string().contains("params.message.parts"),
        "{}",
        a.json()
    );
}

#[test]
fn a_1_0_caller_of_the_same_server_is_answered_as_before() {
    let server = server();
    let a = rpc(
        &server,
        "SendMessage",
        json!({"message": user_message("m-1", "hello")}),
        &[("authorization", "Bearer t0k3n")],
    );
    let body = result(&a);
    assert!(body.get("task").is_some(), "{body}");
    assert!(body["task"].get("kind").is_none(), "{body}");
    assert_eq!(body["task"]["status"]["state"], "TASK_STATE_COMPLETED");
}

#[test]
fn the_card_is_readable_by_0_3_clients_next_to_its_1_0_members() {
    let server = server();
    let req = Request::get("/.well-known/agent-card.json")
        .body(Bytes::new())
        .unwrap();
    let a = send(&server, req);
    let card = a.json();
    assert!(card["supportedInterfaces"].is_array(), "{card}");
    assert_eq!(card["protocolVersion"], "0.3.0");
    assert!(card["url"]
        .as_str()
        .is_some_and(|u| u.starts_with("https://agent.example")));
    assert_eq!(card["securitySchemes"]["bearer"]["type"], "http");
    assert!(card["securitySchemes"]["bearer"]
        .get("httpAuthSecurityScheme")
        .is_some());
    // 0.3 interfaces only, each declared per binding.
    let transports: Vec<&str> = card["additionalInterfaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["transport"].as_str().unwrap())
        .collect();
    assert_eq!(transports, ["JSONRPC", "HTTP+JSON"]);
    assert_valid(&[Case::new("union card", "AgentCard", &a.body)]);
    // And a 1.0 reader still reads it as the same card.
    let read: a2a_types::AgentCard = a2a_types::from_slice(&a.body).unwrap();
    assert_eq!(
        read,
        card_for(
            &ServerConfig::new().with_versions([ProtocolVersion::V1_0, ProtocolVersion::V0_3])
        )
    );
}

/// An HTTP+JSON request without `A2A-Version`: a 0.3 REST client.
fn rest_03(
    server: &a2a_server::A2aServer<Memory>,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> Answer {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("authorization", "Bearer t0k3n")
        .header("content-type", "application/json");
    let body = body.map_or_else(Bytes::new, |b| Bytes::from(b.to_string()));
    send(server, req.body(body).unwrap())
}

#[test]
fn a_0_3_rest_caller_is_routed_read_and_answered_in_the_0_3_proto_form() {
    let server = server();
    let body = json!({"message": {"messageId": "m-1", "role": "ROLE_USER",
        "content": [{"text": "hello"}]}, "configuration": {"blocking": true}});
    let a = rest_03(&server, Method::POST, "/v1/message:send", Some(body));
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    assert_eq!(a.headers["content-type"], "application/json");
    let task = &a.json()["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{task}");
    assert_eq!(task["history"][0]["content"][0]["text"], "hello", "{task}");
    let id = task["id"].as_str().unwrap().to_owned();
    let got = rest_03(&server, Method::GET, &format!("/v1/tasks/{id}"), None);
    assert_eq!(got.json()["id"], id.as_str());
    // Both methods subscribe (0.3 spec 3.5.6 and its method section).
    for method in [Method::GET, Method::POST] {
        let a = rest_03(&server, method, "/v1/tasks/nope:subscribe", None);
        assert_eq!(a.status, 404);
        assert_eq!(a.json()["code"], -32001);
    }
}

#[test]
fn a_0_3_rest_stream_is_0_3_stream_responses_with_final() {
    let server = server();
    let body = json!({"message": {"messageId": "m-1", "role": "ROLE_USER",
        "content": [{"text": "hello"}]}});
    let a = rest_03(&server, Method::POST, "/v1/message:stream", Some(body));
    let events: Vec<Value> = a
        .events()
        .iter()
        .map(|e| serde_json::from_slice(&e.data).unwrap())
        .collect();
    let last = events.last().unwrap();
    assert_eq!(last["statusUpdate"]["final"], true, "{events:?}");
    for e in &events {
        let members: Vec<&String> = e.as_object().unwrap().keys().collect();
        assert!(
            matches!(members[..], [m] if ["task", "statusUpdate", "artifactUpdate"].contains(&m.as_str())),
            "{e}"
        );
    }
}

#[test]
fn a_0_3_rest_error_is_a_jsonrpc_error_object_and_list_tasks_is_not_found() {
    let server = server();
    let unknown = rest_03(&server, Method::GET, "/v1/tasks/nope", None);
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.json()["code"], -32001);
    let list = rest_03(&server, Method::GET, "/v1/tasks", None);
    assert_eq!(list.status, 404);
    assert_eq!(list.json()["code"], -32601);
    // The 1.0 paths are not 0.3 routes.
    let old = rest_03(&server, Method::GET, "/tasks/t-1", None);
    assert_eq!(old.json()["code"], -32601);
    assert_valid(&[
        Case::new("not found", "TaskNotFoundError", &unknown.body),
        Case::new("no tasks/list", "MethodNotFoundError", &list.body),
    ]);
}

#[test]
fn a_1_0_rest_caller_of_the_same_server_reads_v1_as_a_tenant() {
    let server = server();
    let req = Request::post("/v1/message:send")
        .header("authorization", "Bearer t0k3n")
        .header("a2a-version", "1.0")
        .header("content-type", "application/json")
        .body(Bytes::from_static(
            br#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}"#,
        ))
        .unwrap();
    let a = send(&server, req);
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    assert!(a.json()["task"]["history"][0]["parts"].is_array());
}

/// `serve` (custom transports) reads and answers 1.0 only: a 0.3 caller
/// is told so instead of being served 1.0 semantics.
#[test]
fn serve_tells_a_0_3_caller_it_speaks_1_0() {
    let server = server();
    let mut metadata = http::HeaderMap::new();
    metadata.insert("authorization", "Bearer t0k3n".parse().unwrap());
    let extensions = http::Extensions::new();
    let head = a2a_server::CallHead::new(&metadata, &extensions);
    let answer = block_on(server.serve(head, || panic!("not decoded")));
    assert_eq!(
        answer.unwrap_err().kind(),
        a2a_types::ErrorKind::VersionNotSupported
    );
    metadata.insert("a2a-version", "1.0".parse().unwrap());
    let head = a2a_server::CallHead::new(&metadata, &extensions);
    let request = a2a_types::A2aRequest::GetTask(a2a_types::GetTaskRequest {
        id: "nope".into(),
        ..Default::default()
    });
    let answer = block_on(server.serve(head, || Ok(request)));
    assert_eq!(
        answer.unwrap_err().kind(),
        a2a_types::ErrorKind::TaskNotFound
    );
}

/// 0.3 spec 3.3.1, 7: a streaming method answers an SSE stream whatever
/// happens, so its error is the stream's one event.
#[test]
fn a_0_3_streaming_error_is_one_sse_event_of_the_jsonrpc_error() {
    let server = server();
    let a = rpc_03(&server, "tasks/resubscribe", json!({"id": "nope"}));
    assert_eq!(a.status, 200);
    assert_eq!(a.headers["content-type"], "text/event-stream");
    let events = a.events();
    assert_eq!(events.len(), 1, "{events:?}");
    let v: Value = serde_json::from_slice(&events[0].data).unwrap();
    assert_eq!(v["id"], 3);
    assert_eq!(v["error"]["code"], -32001, "{v}");
    assert_valid(&[Case::new(
        "stream error",
        "JSONRPCErrorResponse",
        &events[0].data,
    )]);
    // A unary method's error stays one JSON body.
    let a = rpc_03(&server, "tasks/get", json!({"id": "nope"}));
    assert_eq!(a.headers["content-type"], "application/json");
}
