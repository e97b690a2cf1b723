//! The error matrix: every error kind a handler can return, from every
//! operation, through both bindings (spec 5.4, 9.5, 11.6).

use a2a_server::{A2aServer, Principal, ServerConfig};
use a2a_types::{A2aError, ErrorCode, ErrorKind};
use bytes::Bytes;
use http::{Method, Request};
use serde_json::{json, Value};

use crate::support::*;

/// A valid request of every operation: JSON-RPC method and params, and
/// the HTTP+JSON method, path and body.
pub fn every_operation() -> Vec<(&'static str, Value, Method, &'static str, Option<Value>)> {
    let send = json!({"message": user_message("m", "hi")});
    vec![
        (
            "SendMessage",
            send.clone(),
            Method::POST,
            "/message:send",
            Some(send.clone()),
        ),
        (
            "SendStreamingMessage",
            send.clone(),
            Method::POST,
            "/message:stream",
            Some(send),
        ),
        ("GetTask", json!({"id": "t"}), Method::GET, "/tasks/t", None),
        ("ListTasks", json!({}), Method::GET, "/tasks", None),
        (
            "CancelTask",
            json!({"id": "t"}),
            Method::POST,
            "/tasks/t:cancel",
            None,
        ),
        (
            "SubscribeToTask",
            json!({"id": "t"}),
            Method::GET,
            "/tasks/t:subscribe",
            None,
        ),
        (
            "CreateTaskPushNotificationConfig",
            json!({"taskId": "t", "url": "https://h.example/"}),
            Method::POST,
            "/tasks/t/pushNotificationConfigs",
            Some(json!({"url": "https://h.example/"})),
        ),
        (
            "GetTaskPushNotificationConfig",
            json!({"taskId": "t", "id": "c"}),
            Method::GET,
            "/tasks/t/pushNotificationConfigs/c",
            None,
        ),
        (
            "ListTaskPushNotificationConfigs",
            json!({"taskId": "t"}),
            Method::GET,
            "/tasks/t/pushNotificationConfigs",
            None,
        ),
        (
            "DeleteTaskPushNotificationConfig",
            json!({"taskId": "t", "id": "c"}),
            Method::DELETE,
            "/tasks/t/pushNotificationConfigs/c",
            None,
        ),
        (
            "GetExtendedAgentCard",
            json!({}),
            Method::GET,
            "/extendedAgentCard",
            None,
        ),
    ]
}

/// Sends with a `Principal` in the request extensions (as a host
/// middleware would), so the extended card's authentication gate passes.
fn as_alice(mut req: Request<Bytes>) -> Request<Bytes> {
    req.extensions_mut()
        .insert(Principal::new("alice", "bearer"));
    req
}

fn rpc_call<S: a2a_server::A2aService>(
    server: &A2aServer<S>,
    method: &str,
    params: &Value,
) -> Answer {
    let body = json!({"jsonrpc": "2.0", "id": "req-1", "method": method, "params": params});
    let req = Request::post("/")
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Bytes::from(serde_json::to_vec(&body).unwrap()))
        .unwrap();
    send(server, as_alice(req))
}

fn rest_call<S: a2a_server::A2aService>(
    server: &A2aServer<S>,
    method: &Method,
    path: &str,
    body: &Option<Value>,
) -> Answer {
    let mut req = Request::builder()
        .method(method.clone())
        .uri(path)
        .header("a2a-version", "1.0");
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let body = body
        .as_ref()
        .map_or_else(Bytes::new, |b| Bytes::from(serde_json::to_vec(b).unwrap()));
    send(server, as_alice(req.body(body).unwrap()))
}

#[test]
fn every_kind_from_every_operation_over_both_bindings() {
    let mut checked = 0;
    for kind in ErrorKind::ALL {
        let server = A2aServer::new(Failing(kind), full_card(), ServerConfig::new()).unwrap();
        for (method, params, rest_method, path, body) in every_operation() {
            let what = format!("{kind} from {method}");

            let a = rpc_call(&server, method, &params);
            let expected_status = match kind {
                ErrorKind::Unauthenticated => 401,
                ErrorKind::PermissionDenied => 403,
                // A rate-limit refusal is a 429 on JSON-RPC too, so HTTP
                // clients and proxies see it as one.
                ErrorKind::RateLimited => 429,
                _ => 200,
            };
            assert_eq!(a.status, expected_status, "JSON-RPC status of {what}");
            assert!(
                !a.streamed,
                "{what}: an error before any event is not a stream"
            );
            assert_eq!(a.header("content-type"), Some("application/json"));
            let v = a.json();
            assert_eq!(v["id"], "req-1", "{what}: the id is echoed");
            assert_eq!(v["error"]["code"], kind.code().0, "{what}");
            assert_eq!(v["error"]["message"], kind.default_message(), "{what}");
            assert_eq!(rpc_error(&a).1, kind.reason(), "{what}");

            let b = rest_call(&server, &rest_method, path, &body);
            assert_eq!(
                b.status.as_u16(),
                kind.http_status(),
                "HTTP+JSON status of {what}"
            );
            assert_eq!(b.header("content-type"), Some("application/a2a+json"));
            let (code, reason) = rest_error(&b);
            assert_eq!(code, kind.http_status());
            assert_eq!(reason, kind.reason(), "{what}");
            assert_eq!(b.json()["error"]["status"], kind.grpc_status(), "{what}");

            // Both bindings say the same, and decode back to the same kind.
            let from_rpc =
                A2aError::from_jsonrpc_error(serde_json::from_value(v["error"].clone()).unwrap());
            let from_rest = A2aError::from_status(
                b.status.as_u16(),
                Some(serde_json::from_value(b.json()["error"].clone()).unwrap()),
            );
            assert_eq!(from_rpc.kind(), kind, "{what}");
            assert_eq!(from_rest.kind(), kind, "{what}");
            assert_eq!(from_rpc.message(), from_rest.message());

            let challenged = kind == ErrorKind::Unauthenticated;
            assert_eq!(
                a.headers.contains_key("www-authenticate"),
                challenged,
                "{what}"
            );
            assert_eq!(
                b.headers.contains_key("www-authenticate"),
                challenged,
                "{what}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, ErrorKind::ALL.len() * 11);
}

/// A handler answering an error code the table does not know.
struct Custom;
impl a2a_server::A2aService for Custom {
    fn get_task<'a>(
        &'a self,
        _: &'a a2a_server::CallContext,
        _: a2a_types::GetTaskRequest,
    ) -> a2a_server::BoxFuture<'a, Result<a2a_types::Task, A2aError>> {
        Box::pin(async {
            Err(
                A2aError::with_code(ErrorCode(-32050), "quota exceeded").with_detail(
                    a2a_types::ErrorDetail::Other(
                        serde_json::from_value(json!({"@type": "type.example/Quota", "left": 0}))
                            .unwrap(),
                    ),
                ),
            )
        })
    }
}

#[test]
fn unknown_codes_and_custom_details_pass_through() {
    let server = A2aServer::new(Custom, full_card(), ServerConfig::new()).unwrap();
    let a = rpc(&server, "GetTask", json!({"id": "t"}), &[]);
    assert_eq!(a.status, 200);
    let v = a.json();
    assert_eq!(v["error"]["code"], -32050);
    assert_eq!(v["error"]["data"][0]["left"], 0);
    let b = rest(&server, Method::GET, "/tasks/t", None, &[]);
    assert_eq!(b.status, 500);
    let v = b.json();
    assert_eq!(v["error"]["message"], "quota exceeded");
    assert_eq!(v["error"]["details"][0]["@type"], "type.example/Quota");
}

#[test]
fn task_not_found_carries_the_task_id() {
    let server = memory_server();
    let a = rpc(&server, "GetTask", json!({"id": "ghost"}), &[]);
    let v = a.json();
    assert_eq!(v["error"]["data"][0]["metadata"]["taskId"], "ghost");
    let b = rest(&server, Method::GET, "/tasks/ghost", None, &[]);
    assert_eq!(b.status, 404);
    assert_eq!(
        b.json()["error"]["details"][0]["metadata"]["taskId"],
        "ghost"
    );
}

#[test]
fn field_rules_are_checked_before_the_handler() {
    // A handler that checks nothing still never sees these values: the
    // pipeline refuses them with the spec's error (3.2.4, 3.1.4, 3.3.2).
    let server = memory_server();
    let alice: Headers<'_> = &[("authorization", "Bearer t0k3n")];
    let a = rest(
        &server,
        Method::GET,
        "/tasks/t-1?historyLength=-5",
        None,
        alice,
    );
    assert_eq!(rest_error(&a), (400, "INVALID_PARAMS".into()));
    assert_eq!(violations(&a), ["historyLength"]);
    let a = rest(&server, Method::GET, "/tasks?pageSize=0", None, alice);
    assert_eq!(violations(&a), ["pageSize"]);
    let a = rpc(
        &server,
        "ListTasks",
        json!({"pageSize": 101, "historyLength": -1}),
        alice,
    );
    assert_eq!(rpc_error(&a).0, -32602);
    assert_eq!(violations(&a), ["pageSize", "historyLength"]);
    let a = rpc(
        &server,
        "SendMessage",
        json!({"message": user_message("m1", "hi"), "configuration": {"historyLength": -2}}),
        alice,
    );
    assert_eq!(violations(&a), ["configuration.historyLength"]);
    // REQUIRED fields and rules are reported together.
    let a = rpc(&server, "GetTask", json!({"historyLength": -1}), alice);
    assert_eq!(violations(&a), ["id", "historyLength"]);
    assert!(server.service().seen().is_empty(), "the handler ran");
    // The bounds themselves pass.
    let a = rpc(
        &server,
        "ListTasks",
        json!({"pageSize": 100, "historyLength": 0}),
        alice,
    );
    assert!(result(&a)["tasks"].is_array());
}
