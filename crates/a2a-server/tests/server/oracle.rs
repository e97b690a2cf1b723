//! Everything the server writes, judged by the independent wire oracle
//! (`../shared/tools/wire-oracle`: Google's protobuf parser against the
//! normative proto): JSON-RPC bodies and SSE data lines through `jsonrpc`,
//! HTTP+JSON bodies and stream frames through `lines` with their type.

use a2a_server::{A2aServer, ServerConfig};
use a2a_types::{AgentCapabilities, ErrorKind};
use http::Method;
use serde_json::{json, Value};

use crate::support::*;

const AUTH: Headers<'static> = &[("authorization", "Bearer t0k3n")];

/// The JSON-RPC lines (bodies, SSE data lines) of a session covering every
/// method, every streaming shape and a spread of errors.
fn jsonrpc_session() -> Vec<String> {
    let server = memory_server();
    let mut lines = Vec::new();
    let mut record = |a: Answer| {
        if a.streamed || a.header("content-type") == Some("text/event-stream") {
            for e in a.events() {
                lines.push(format!(
                    "data: {}",
                    String::from_utf8(e.data.to_vec()).unwrap()
                ));
            }
        } else {
            lines.push(String::from_utf8(a.body.to_vec()).unwrap());
        }
    };
    let msg = |text: &str| json!({"message": user_message("m", text)});
    for (method, params) in [
        ("SendMessage", msg("hello")),
        ("SendMessage", msg("reply")),
        ("SendMessage", msg("hold")),
        ("GetTask", json!({"id": "task-1", "historyLength": 1})),
        ("ListTasks", json!({"includeArtifacts": true})),
        ("ListTasks", json!({"contextId": "nothing"})),
        ("CancelTask", json!({"id": "task-2"})),
        ("CancelTask", json!({"id": "task-1"})),
        ("SendMessage", msg("hold")),
        ("SubscribeToTask", json!({"id": "task-3"})),
        ("SendStreamingMessage", msg("stream")),
        ("SendStreamingMessage", msg("fail-mid-stream")),
        ("SendStreamingMessage", msg("panic-mid-stream")),
        (
            "CreateTaskPushNotificationConfig",
            json!({"taskId": "task-1", "url": "https://h.example/", "authentication": {"scheme": "Bearer", "credentials": "c"}}),
        ),
        (
            "GetTaskPushNotificationConfig",
            json!({"taskId": "task-1", "id": "cfg-1"}),
        ),
        (
            "ListTaskPushNotificationConfigs",
            json!({"taskId": "task-1"}),
        ),
        (
            "DeleteTaskPushNotificationConfig",
            json!({"taskId": "task-1", "id": "cfg-1"}),
        ),
        ("GetExtendedAgentCard", json!({})),
        ("GetTask", json!({"id": "ghost"})),
        ("SendMessage", json!({})),
        ("NoSuchMethod", json!({})),
    ] {
        record(rpc(&server, method, params, AUTH));
    }
    record(rpc(&server, "GetExtendedAgentCard", json!({}), &[]));
    record(rpc_raw(&server, b"{not json".to_vec(), &[]));
    record(rpc_raw(
        &server,
        br#"{"jsonrpc":"2.0","method":"GetTask","id":5}"#.to_vec(),
        &[],
    ));
    for kind in ErrorKind::ALL {
        let s = A2aServer::new(Failing(kind), full_card(), ServerConfig::new()).unwrap();
        record(rpc(&s, "GetTask", json!({"id": "t"}), &[]));
    }
    lines
}

/// `TYPE<TAB>JSON` lines for every HTTP+JSON success body and stream frame
/// of a session covering every route.
fn rest_session() -> (Vec<String>, Vec<Value>) {
    let server = memory_server();
    let mut typed = Vec::new();
    let mut errors = Vec::new();
    let mut record = |ty: &str, a: Answer| {
        if a.streamed {
            for e in a.events() {
                let v: Value = serde_json::from_slice(&e.data).unwrap();
                if e.event_type == "error" {
                    errors.push(v);
                } else {
                    typed.push(format!("StreamResponse\t{v}"));
                }
            }
        } else if a.status == 200 {
            typed.push(format!(
                "{ty}\t{}",
                String::from_utf8(a.body.to_vec()).unwrap()
            ));
        } else {
            errors.push(a.json());
        }
    };
    let msg = |text: &str| Some(json!({"message": user_message("m", text)}));
    let calls: Vec<(&str, Method, &str, Option<Value>)> = vec![
        (
            "SendMessageResponse",
            Method::POST,
            "/message:send",
            msg("hello"),
        ),
        (
            "SendMessageResponse",
            Method::POST,
            "/message:send",
            msg("reply"),
        ),
        (
            "SendMessageResponse",
            Method::POST,
            "/message:send",
            msg("hold"),
        ),
        ("Task", Method::GET, "/tasks/task-1?historyLength=1", None),
        (
            "ListTasksResponse",
            Method::GET,
            "/tasks?includeArtifacts=true",
            None,
        ),
        (
            "ListTasksResponse",
            Method::GET,
            "/tasks?contextId=nothing",
            None,
        ),
        ("Task", Method::POST, "/tasks/task-2:cancel", None),
        ("Task", Method::POST, "/tasks/task-1:cancel", None),
        (
            "SendMessageResponse",
            Method::POST,
            "/message:send",
            msg("hold"),
        ),
        (
            "StreamResponse",
            Method::GET,
            "/tasks/task-3:subscribe",
            None,
        ),
        (
            "StreamResponse",
            Method::POST,
            "/message:stream",
            msg("stream"),
        ),
        (
            "StreamResponse",
            Method::POST,
            "/message:stream",
            msg("fail-mid-stream"),
        ),
        (
            "TaskPushNotificationConfig",
            Method::POST,
            "/tasks/task-1/pushNotificationConfigs",
            Some(json!({"url": "https://h.example/", "authentication": {"scheme": "Bearer"}})),
        ),
        (
            "TaskPushNotificationConfig",
            Method::GET,
            "/tasks/task-1/pushNotificationConfigs/cfg-1",
            None,
        ),
        (
            "ListTaskPushNotificationConfigsResponse",
            Method::GET,
            "/tasks/task-1/pushNotificationConfigs",
            None,
        ),
        ("AgentCard", Method::GET, "/extendedAgentCard", None),
        (
            "AgentCard",
            Method::GET,
            "/.well-known/agent-card.json",
            None,
        ),
        ("Task", Method::GET, "/tasks/ghost", None),
        (
            "SendMessageResponse",
            Method::POST,
            "/message:send",
            Some(json!({})),
        ),
        ("Task", Method::GET, "/nowhere", None),
    ];
    for (ty, method, path, body) in calls {
        record(ty, rest(&server, method, path, body, AUTH));
    }
    let deleted = rest(
        &server,
        Method::DELETE,
        "/tasks/task-1/pushNotificationConfigs/cfg-1",
        None,
        AUTH,
    );
    assert_eq!(ok(&deleted), json!({}), "google.protobuf.Empty");
    (typed, errors)
}

#[test]
fn the_wire_oracle_accepts_everything_the_server_writes() {
    let rpc_lines = jsonrpc_session();
    assert!(rpc_lines.len() > 40, "{}", rpc_lines.len());
    let verdict = a2a_wire_oracle::jsonrpc(&rpc_lines.join("\n"));
    let passed = a2a_wire_oracle::assert_all_pass(&verdict);
    assert_eq!(passed, rpc_lines.len());

    let (typed, errors) = rest_session();
    let verdict = a2a_wire_oracle::lines(&typed.join("\n"));
    let passed = a2a_wire_oracle::assert_all_pass(&verdict);
    assert_eq!(passed, typed.len());
    assert!(passed >= 20, "{passed}");

    // google.rpc.Status is not an A2A message: its shape is checked here
    // (spec 11.6), every detail an ErrorInfo or BadRequest in ProtoJSON.
    assert!(errors.len() >= 4);
    for e in &errors {
        let err = &e["error"];
        assert!(
            err["code"].is_u64() && err["status"].is_string() && err["message"].is_string(),
            "{e}"
        );
        for d in err["details"].as_array().unwrap() {
            match d["@type"].as_str().unwrap() {
                "type.googleapis.com/google.rpc.ErrorInfo" => {
                    assert!(
                        d["reason"].is_string() && d["domain"] == "a2a-protocol.org",
                        "{d}"
                    );
                }
                "type.googleapis.com/google.rpc.BadRequest" => {
                    assert!(d["fieldViolations"].is_array(), "{d}");
                }
                other => panic!("unexpected detail type {other}"),
            }
        }
    }
}

#[test]
fn the_served_card_passes_the_oracle_even_when_minimal() {
    let mut card = full_card();
    card.capabilities = AgentCapabilities::default();
    card.security_schemes.clear();
    let server = A2aServer::new(Memory::default(), card, ServerConfig::new()).unwrap();
    let a = send(
        &server,
        http::Request::get("/.well-known/agent-card.json")
            .body(bytes::Bytes::new())
            .unwrap(),
    );
    let verdict = a2a_wire_oracle::check("AgentCard", std::str::from_utf8(&a.body).unwrap());
    a2a_wire_oracle::assert_all_pass(&verdict);
}
