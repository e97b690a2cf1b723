//! The client transport against an in-memory HTTP client: the exact
//! requests built for every operation on both bindings, and the results
//! and errors decoded from scripted responses.

mod support;

use std::sync::Arc;

use a2a_client::{
    www_authenticate, A2aService, Binding, CallContext, ClientConfig, ClientFailure, HttpError,
    HttpTransport, ProtocolVersion,
};
use a2a_types::{
    A2aError, AgentInterface, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    ErrorKind, GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, Message, Role, SendMessageRequest,
    SendMessageResponse, StreamResponse, SubscribeToTaskRequest, TaskPushNotificationConfig,
    TaskState, Timestamp,
};
use bytes::Bytes;
use futures_core::Stream as _;
use http::Method;
use serde_json::{json, Value};
use support::{block_on, collect, header, request_json, split, Scripted};

type Transport = HttpTransport<Arc<Scripted>>;

const REST_URL: &str = "https://agent.example/a2a";
const RPC_URL: &str = "https://agent.example/rpc";

fn transport(binding: Binding) -> (Arc<Scripted>, Transport) {
    let client = Scripted::new();
    let url = match binding {
        Binding::JsonRpc => RPC_URL,
        _ => REST_URL,
    };
    let t = HttpTransport::new(Arc::clone(&client), binding, url)
        .unwrap()
        .with_tenant("acme");
    (client, t)
}

fn cx() -> CallContext {
    let mut headers = http::HeaderMap::new();
    headers.insert("authorization", "Bearer tok-123".parse().unwrap());
    // Managed headers win over same-named extra headers.
    headers.insert("a2a-version", "9.9".parse().unwrap());
    CallContext::new()
        .with_extensions(["https://ext.example/geo/v1", "https://ext.example/cite/v1"])
        .with_headers(headers)
}

fn task_json(id: &str, state: &str) -> Value {
    json!({"id": id, "contextId": "c1", "status": {"state": state}})
}

/// One unary operation: how to call it, what each binding must send, and
/// what the agent answers.
struct Case {
    name: &'static str,
    call: fn(&Transport, &CallContext) -> Result<Value, A2aError>,
    rest: (Method, &'static str, Option<Value>),
    rpc: (&'static str, Value),
    result: Value,
}

fn to_json<T: serde::Serialize>(r: Result<T, A2aError>) -> Result<Value, A2aError> {
    r.map(|v| serde_json::to_value(v).unwrap())
}

fn message() -> Message {
    Message::user_text("m1", "hello")
}

fn cases() -> Vec<Case> {
    let msg = json!({"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "hello"}]});
    let config = json!({"tenant": "acme", "id": "cfg1", "taskId": "t1", "url": "https://hook.example/a2a", "token": "tk"});
    vec![
        Case {
            name: "SendMessage",
            call: |t, cx| {
                to_json(block_on(
                    t.send_message(cx, SendMessageRequest::new(message())),
                ))
            },
            rest: (
                Method::POST,
                "/a2a/acme/message:send",
                Some(json!({"tenant": "acme", "message": msg})),
            ),
            rpc: ("SendMessage", json!({"tenant": "acme", "message": msg})),
            result: json!({"task": task_json("t1", "TASK_STATE_COMPLETED")}),
        },
        Case {
            name: "GetTask",
            call: |t, cx| {
                let r = GetTaskRequest {
                    id: "t/1".into(),
                    history_length: Some(3),
                    ..Default::default()
                };
                to_json(block_on(t.get_task(cx, r)))
            },
            rest: (Method::GET, "/a2a/acme/tasks/t%2F1?historyLength=3", None),
            rpc: (
                "GetTask",
                json!({"tenant": "acme", "id": "t/1", "historyLength": 3}),
            ),
            result: task_json("t/1", "TASK_STATE_WORKING"),
        },
        Case {
            name: "ListTasks",
            call: |t, cx| {
                let r = ListTasksRequest {
                    context_id: "c 1".into(),
                    status: TaskState::Working,
                    page_size: Some(10),
                    page_token: "tok+/=".into(),
                    history_length: Some(0),
                    status_timestamp_after: Some(
                        Timestamp::parse("2025-11-09T10:30:00+01:00").unwrap(),
                    ),
                    include_artifacts: Some(true),
                    ..Default::default()
                };
                to_json(block_on(t.list_tasks(cx, r)))
            },
            rest: (
                Method::GET,
                "/a2a/acme/tasks?contextId=c%201&status=TASK_STATE_WORKING&pageSize=10\
                 &pageToken=tok%2B%2F%3D&historyLength=0\
                 &statusTimestampAfter=2025-11-09T09%3A30%3A00.000Z&includeArtifacts=true",
                None,
            ),
            rpc: (
                "ListTasks",
                json!({"tenant": "acme", "contextId": "c 1", "status": "TASK_STATE_WORKING",
                       "pageSize": 10, "pageToken": "tok+/=", "historyLength": 0,
                       "statusTimestampAfter": "2025-11-09T09:30:00.000Z", "includeArtifacts": true}),
            ),
            result: json!({"tasks": [task_json("t1", "TASK_STATE_WORKING")],
                           "nextPageToken": "", "pageSize": 10, "totalSize": 1}),
        },
        Case {
            name: "CancelTask",
            call: |t, cx| to_json(block_on(t.cancel_task(cx, CancelTaskRequest::new("t1")))),
            rest: (
                Method::POST,
                "/a2a/acme/tasks/t1:cancel",
                Some(json!({"tenant": "acme", "id": "t1"})),
            ),
            rpc: ("CancelTask", json!({"tenant": "acme", "id": "t1"})),
            result: task_json("t1", "TASK_STATE_CANCELED"),
        },
        Case {
            name: "CreateTaskPushNotificationConfig",
            call: |t, cx| {
                let r = TaskPushNotificationConfig {
                    id: "cfg1".into(),
                    task_id: "t1".into(),
                    token: "tk".into(),
                    ..TaskPushNotificationConfig::new("https://hook.example/a2a")
                };
                to_json(block_on(t.create_task_push_notification_config(cx, r)))
            },
            rest: (
                Method::POST,
                "/a2a/acme/tasks/t1/pushNotificationConfigs",
                Some(config.clone()),
            ),
            rpc: ("CreateTaskPushNotificationConfig", config.clone()),
            result: config.clone(),
        },
        Case {
            name: "GetTaskPushNotificationConfig",
            call: |t, cx| {
                let r = GetTaskPushNotificationConfigRequest {
                    task_id: "t1".into(),
                    id: "cfg1".into(),
                    ..Default::default()
                };
                to_json(block_on(t.get_task_push_notification_config(cx, r)))
            },
            rest: (
                Method::GET,
                "/a2a/acme/tasks/t1/pushNotificationConfigs/cfg1",
                None,
            ),
            rpc: (
                "GetTaskPushNotificationConfig",
                json!({"tenant": "acme", "taskId": "t1", "id": "cfg1"}),
            ),
            result: config.clone(),
        },
        Case {
            name: "ListTaskPushNotificationConfigs",
            call: |t, cx| {
                let r = ListTaskPushNotificationConfigsRequest {
                    task_id: "t1".into(),
                    page_size: 5,
                    page_token: "p2".into(),
                    ..Default::default()
                };
                to_json(block_on(t.list_task_push_notification_configs(cx, r)))
            },
            rest: (
                Method::GET,
                "/a2a/acme/tasks/t1/pushNotificationConfigs?pageSize=5&pageToken=p2",
                None,
            ),
            rpc: (
                "ListTaskPushNotificationConfigs",
                json!({"tenant": "acme", "taskId": "t1", "pageSize": 5, "pageToken": "p2"}),
            ),
            result: json!({"configs": [config], "nextPageToken": "p3"}),
        },
        Case {
            name: "DeleteTaskPushNotificationConfig",
            call: |t, cx| {
                let r = DeleteTaskPushNotificationConfigRequest {
                    task_id: "t1".into(),
                    id: "cfg1".into(),
                    ..Default::default()
                };
                block_on(t.delete_task_push_notification_config(cx, r)).map(|()| json!({}))
            },
            rest: (
                Method::DELETE,
                "/a2a/acme/tasks/t1/pushNotificationConfigs/cfg1",
                None,
            ),
            rpc: (
                "DeleteTaskPushNotificationConfig",
                json!({"tenant": "acme", "taskId": "t1", "id": "cfg1"}),
            ),
            result: json!({}),
        },
        Case {
            name: "GetExtendedAgentCard",
            call: |t, cx| {
                to_json(block_on(t.get_extended_agent_card(
                    cx,
                    GetExtendedAgentCardRequest::default(),
                )))
            },
            rest: (Method::GET, "/a2a/acme/extendedAgentCard", None),
            rpc: ("GetExtendedAgentCard", json!({"tenant": "acme"})),
            result: json!({"name": "Agent", "description": "d", "supportedInterfaces": [],
                           "version": "1", "capabilities": {}, "defaultInputModes": [],
                           "defaultOutputModes": [], "skills": []}),
        },
    ]
}

fn check_common_headers(req: &http::Request<Bytes>, accept: &str) {
    assert_eq!(header(req, "a2a-version"), Some("1.0"));
    assert_eq!(req.headers().get_all("a2a-version").iter().count(), 1);
    assert_eq!(
        header(req, "a2a-extensions"),
        Some("https://ext.example/geo/v1,https://ext.example/cite/v1")
    );
    assert_eq!(header(req, "authorization"), Some("Bearer tok-123"));
    assert_eq!(header(req, "accept"), Some(accept));
}

#[test]
fn every_unary_operation_over_http_json() {
    let (client, t) = transport(Binding::HttpJson);
    let cx = cx();
    for case in cases() {
        client.push_body(
            200,
            &[("content-type", "application/a2a+json")],
            &case.result.to_string(),
        );
        let got = (case.call)(&t, &cx).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(got, case.result, "{}: decoded result", case.name);

        let req = client.last();
        let (method, path, body) = &case.rest;
        assert_eq!(req.method(), method, "{}", case.name);
        assert_eq!(req.uri().scheme_str(), Some("https"));
        assert_eq!(req.uri().authority().unwrap().as_str(), "agent.example");
        assert_eq!(
            req.uri().path_and_query().unwrap().as_str(),
            *path,
            "{}",
            case.name
        );
        check_common_headers(&req, "application/a2a+json, application/json");
        match body {
            Some(body) => {
                assert_eq!(&request_json(&req), body, "{}: body", case.name);
                assert_eq!(header(&req, "content-type"), Some("application/a2a+json"));
            }
            None => {
                assert!(req.body().is_empty(), "{}: no body", case.name);
                assert_eq!(header(&req, "content-type"), None);
            }
        }
    }
}

#[test]
fn every_unary_operation_over_jsonrpc() {
    let (client, t) = transport(Binding::JsonRpc);
    let cx = cx();
    for (n, case) in cases().into_iter().enumerate() {
        client.push_jsonrpc_result(case.result.clone());
        let got = (case.call)(&t, &cx).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(got, case.result, "{}: decoded result", case.name);

        let req = client.last();
        assert_eq!(req.method(), Method::POST);
        assert_eq!(req.uri(), RPC_URL);
        check_common_headers(&req, "application/json");
        assert_eq!(header(&req, "content-type"), Some("application/json"));
        let (method, params) = &case.rpc;
        assert_eq!(
            request_json(&req),
            json!({"jsonrpc": "2.0", "id": n + 1, "method": method, "params": params}),
            "{}: envelope with a fresh id",
            case.name
        );
    }
}

#[test]
fn empty_delete_answers_and_204_are_accepted() {
    let (client, t) = transport(Binding::HttpJson);
    client.push(204, &[], vec![]);
    let r = DeleteTaskPushNotificationConfigRequest {
        task_id: "t1".into(),
        id: "c".into(),
        ..Default::default()
    };
    block_on(t.delete_task_push_notification_config(&CallContext::new(), r.clone())).unwrap();
    // But an empty body is no task.
    client.push(200, &[], vec![]);
    let err = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidAgentResponse);
}

#[test]
fn the_selected_interfaces_tenant_is_sent_exactly() {
    // Spec 8.3.2 rule 4: the transport of an interface with tenant "acme"
    // sends "acme" on every request, and refuses to send another.
    let (client, t) = transport(Binding::HttpJson);
    let task = task_json("t1", "TASK_STATE_WORKING").to_string();
    let ct = [("content-type", "application/json")];
    client.push_body(200, &ct, &task);
    client.push_body(200, &ct, &task);
    let own = GetTaskRequest {
        tenant: "own".into(),
        id: "t1".into(),
        ..Default::default()
    };
    let err = block_on(t.get_task(&CallContext::new(), own)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidParams);
    assert_eq!(
        err.field_violations().next().map(|v| v.field.as_str()),
        Some("tenant")
    );
    assert!(err.message().contains("\"own\""), "{err}");
    let err = block_on(t.get_task(
        &CallContext::new().with_tenant("ctx"),
        GetTaskRequest::new("t1"),
    ))
    .unwrap_err();
    assert!(
        err.message().contains("context names tenant \"ctx\""),
        "{err}"
    );
    let same = GetTaskRequest {
        tenant: "acme".into(),
        id: "t1".into(),
        ..Default::default()
    };
    block_on(t.get_task(&CallContext::new(), same)).unwrap();
    block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap();
    let paths: Vec<String> = client
        .requests()
        .iter()
        .map(|r| r.uri().path().to_owned())
        .collect();
    assert_eq!(paths, ["/a2a/acme/tasks/t1", "/a2a/acme/tasks/t1"]);

    // An interface without a tenant: requests carry none.
    let client = Scripted::new();
    let none = AgentInterface::new("https://h.example", "HTTP+JSON", "1.0");
    let t = HttpTransport::for_interface(Arc::clone(&client), &none)
        .unwrap()
        .unwrap();
    assert_eq!(t.tenant(), None);
    client.push_body(200, &ct, &task);
    let err = block_on(t.get_task(&CallContext::new(), own_tenant("t1"))).unwrap_err();
    assert!(err.message().contains("declares none"), "{err}");
    block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap();
    assert_eq!(client.requests()[0].uri().path(), "/tasks/t1");
}

fn own_tenant(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        tenant: "own".into(),
        id: id.into(),
        ..Default::default()
    }
}

#[test]
fn without_an_interface_the_request_then_the_context_choose() {
    let task = task_json("t1", "TASK_STATE_WORKING").to_string();
    let ct = [("content-type", "application/json")];
    // Without any tenant there is no prefix, and a tenant that would read
    // as a route is escaped.
    let client = Scripted::new();
    let t =
        HttpTransport::new(Arc::clone(&client), Binding::HttpJson, "https://h.example").unwrap();
    client.push_body(200, &ct, &task);
    client.push_body(200, &ct, &task);
    block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap();
    block_on(t.get_task(
        &CallContext::new().with_tenant("tasks"),
        GetTaskRequest::new("t1"),
    ))
    .unwrap();
    let paths: Vec<String> = client
        .requests()
        .iter()
        .map(|r| r.uri().path().to_owned())
        .collect();
    assert_eq!(paths, ["/tasks/t1", "/%74asks/tasks/t1"]);
}

#[test]
fn local_refusals_send_nothing() {
    let (client, t) = transport(Binding::HttpJson);
    let v2 = CallContext::new().with_version(ProtocolVersion::new(2, 0));
    let err = block_on(t.get_task(&v2, GetTaskRequest::new("t1"))).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::VersionNotSupported);
    // 0.3 has no ListTasks: refused here with 0.3's method-not-found.
    let v03 = CallContext::new().with_version(ProtocolVersion::V0_3);
    let err = block_on(t.list_tasks(&v03, Default::default())).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MethodNotFound);
    assert!(err.message().contains("ListTasks has no A2A 0.3 form"));
    // gRPC speaks 1.0 only.
    #[cfg(feature = "grpc")]
    {
        let grpc = HttpTransport::new(Arc::clone(&client), Binding::Grpc, "grpc.example:443")
            .unwrap()
            .with_version(ProtocolVersion::V0_3);
        let err =
            block_on(grpc.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::VersionNotSupported);
        // 1.0 (after 1.1 with the draft-1-1 feature), never 0.3.
        assert!(
            err.message().contains("supported: ") && err.message().ends_with("1.0"),
            "{}",
            err.message()
        );
    }
    let err = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new(""))).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidParams);
    assert_eq!(err.field_violations().next().unwrap().field, "id");
    let r = GetTaskPushNotificationConfigRequest {
        task_id: "t1".into(),
        ..Default::default()
    };
    let err = block_on(t.get_task_push_notification_config(&CallContext::new(), r)).unwrap_err();
    assert_eq!(err.field_violations().next().unwrap().field, "id");
    let bad_ext = CallContext::new().with_extensions(["not a uri, really"]);
    let err = block_on(t.get_task(&bad_ext, GetTaskRequest::new("t1"))).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest);
    assert!(client.requests().is_empty());
}

#[test]
fn interface_urls_are_checked() {
    let c = Scripted::new();
    for (binding, url) in [
        (Binding::JsonRpc, "ftp://agent.example/rpc"),
        (Binding::JsonRpc, "/rpc"),
        (Binding::HttpJson, "https://agent.example/a2a?x=1"),
        (Binding::HttpJson, "https://agent.example//a2a"),
        (Binding::HttpJson, "not a url"),
    ] {
        let err = HttpTransport::new(Arc::clone(&c), binding, url).unwrap_err();
        assert!(!err.reason().is_empty(), "{url}");
    }
    // JSON-RPC keeps its URL verbatim, query included.
    let t = HttpTransport::new(
        Arc::clone(&c),
        Binding::JsonRpc,
        "http://h.example:8080/rpc?k=v",
    )
    .unwrap();
    c.push_jsonrpc_result(task_json("t1", "TASK_STATE_WORKING"));
    block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap();
    assert_eq!(c.last().uri(), "http://h.example:8080/rpc?k=v");
    // No extensions: no header.
    assert_eq!(header(&c.last(), "a2a-extensions"), None);
    assert_eq!(header(&c.last(), "a2a-version"), Some("1.0"));
}

// ---------------------------------------------------------------- errors

fn get_err(binding: Binding, status: u16, headers: &[(&str, &str)], body: &str) -> A2aError {
    let (client, t) = transport(binding);
    client.push_body(status, headers, body);
    block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap_err()
}

const PROXY_HTML: &str = "<html><body><h1>401 Authorization Required</h1></body></html>";

#[test]
fn proxy_answers_without_a2a_bodies_are_authentication_and_authorization_errors() {
    for binding in Binding::JSON {
        let challenge = [
            ("content-type", "text/html"),
            (
                "www-authenticate",
                "Bearer realm=\"agent\", error=\"invalid_token\"",
            ),
            ("www-authenticate", "Basic realm=\"agent\""),
        ];
        let err = get_err(binding, 401, &challenge, PROXY_HTML);
        assert_eq!(err.kind(), ErrorKind::Unauthenticated, "{binding}");
        assert_eq!(err.http_status(), 401);
        assert_eq!(
            www_authenticate(&err),
            Some("Bearer realm=\"agent\", error=\"invalid_token\", Basic realm=\"agent\""),
            "{binding}"
        );
        // Empty, wrong content type, JSON that is no A2A error: still 401/403.
        let err = get_err(binding, 401, &[("www-authenticate", "ApiKey")], "");
        assert_eq!(err.kind(), ErrorKind::Unauthenticated);
        assert_eq!(www_authenticate(&err), Some("ApiKey"));
        let err = get_err(binding, 403, &[], "");
        assert_eq!(err.kind(), ErrorKind::PermissionDenied, "{binding}");
        let err = get_err(binding, 403, &[("content-type", "text/plain")], "Forbidden");
        assert_eq!(err.kind(), ErrorKind::PermissionDenied);
        let err = get_err(
            binding,
            403,
            &[("content-type", "application/json")],
            r#"{"message":"Forbidden"}"#,
        );
        assert_eq!(err.kind(), ErrorKind::PermissionDenied);
        assert_eq!(www_authenticate(&err), None);
        // Middleware in front of an SDK agent answering with a JSON-RPC-like
        // error of its own code (interop finding RS-11): the status decides,
        // the message is kept.
        let err = get_err(
            binding,
            401,
            &[("content-type", "application/json")],
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":401,"message":"bearer token required"}}"#,
        );
        assert_eq!(err.kind(), ErrorKind::Unauthenticated, "{binding}");
        assert_eq!(err.message(), "bearer token required", "{binding}");
        // A gateway error page.
        let err = get_err(
            binding,
            502,
            &[("content-type", "text/html")],
            "<html>Bad Gateway</html>",
        );
        // Not the agent's InternalError: the client's own error, keeping
        // the status it received.
        assert_eq!(err.kind(), ErrorKind::Client);
        assert_eq!(ClientFailure::of(&err), Some(ClientFailure::HttpStatus));
        assert_eq!(err.http_status(), 502);
    }
}

#[test]
fn agent_error_bodies_decode_on_both_bindings() {
    let rest = json!({"error": {"code": 404, "status": "NOT_FOUND", "message": "no t1",
        "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND",
                     "domain": "a2a-protocol.org", "metadata": {"taskId": "t1"}}]}});
    let err = get_err(
        Binding::HttpJson,
        404,
        &[("content-type", "application/json")],
        &rest.to_string(),
    );
    assert_eq!(err.kind(), ErrorKind::TaskNotFound);
    assert_eq!(err.message(), "no t1");
    assert_eq!(err.error_info().unwrap().metadata["taskId"], "t1");

    // The reason decides between kinds that share a status.
    let rest = json!({"error": {"code": 400, "status": "FAILED_PRECONDITION", "message": "m",
        "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                     "reason": "PUSH_NOTIFICATION_NOT_SUPPORTED", "domain": "a2a-protocol.org"}]}});
    let err = get_err(
        Binding::HttpJson,
        400,
        &[("content-type", "application/a2a+json")],
        &rest.to_string(),
    );
    assert_eq!(err.kind(), ErrorKind::PushNotificationNotSupported);

    // A 401 with an A2A body keeps its details and gains the challenges.
    let rest = A2aError::from_kind(ErrorKind::Unauthenticated).to_status();
    let err = get_err(
        Binding::HttpJson,
        401,
        &[
            ("content-type", "application/json"),
            ("www-authenticate", "Bearer"),
        ],
        &serde_json::to_string(&rest).unwrap(),
    );
    assert_eq!(err.kind(), ErrorKind::Unauthenticated);
    assert_eq!(www_authenticate(&err), Some("Bearer"));

    // JSON-RPC: errors in 200 answers, and in error statuses.
    let (client, t) = transport(Binding::JsonRpc);
    client.push_fn(|req| {
        let id = request_json(req)["id"].clone();
        let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32002, "message": "done already"}});
        Ok(support::response(200, &[("content-type", "application/json")], vec![Ok(Bytes::from(body.to_string()))]))
    });
    let err =
        block_on(t.cancel_task(&CallContext::new(), CancelTaskRequest::new("t1"))).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TaskNotCancelable);
    assert_eq!(err.message(), "done already");

    let body =
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32090, "message": "who are you"}});
    let err = get_err(
        Binding::JsonRpc,
        401,
        &[
            ("content-type", "application/json"),
            ("www-authenticate", "Bearer realm=\"x\""),
        ],
        &body.to_string(),
    );
    assert_eq!(err.kind(), ErrorKind::Unauthenticated);
    assert_eq!(err.message(), "who are you");
    assert_eq!(err.http_status(), 401);
    assert_eq!(www_authenticate(&err), Some("Bearer realm=\"x\""));
}

#[test]
fn malformed_success_answers_are_invalid_agent_responses() {
    for binding in Binding::JSON {
        let err = get_err(
            binding,
            200,
            &[("content-type", "text/html")],
            "<html>hi</html>",
        );
        assert_eq!(err.kind(), ErrorKind::InvalidAgentResponse, "{binding}");
        assert!(err.message().contains("text/html"), "{err}");
        let err = get_err(
            binding,
            200,
            &[("content-type", "application/json")],
            "{\"id\": 5",
        );
        assert_eq!(err.kind(), ErrorKind::InvalidAgentResponse, "{binding}");
    }
    // A JSON-RPC answer for another request.
    let (client, t) = transport(Binding::JsonRpc);
    let body = json!({"jsonrpc": "2.0", "id": 99, "result": task_json("t1", "TASK_STATE_WORKING")});
    client.push_body(
        200,
        &[("content-type", "application/json")],
        &body.to_string(),
    );
    let err = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidAgentResponse);
    assert!(err.message().contains("does not match"), "{err}");
}

#[test]
fn response_bodies_are_bounded() {
    for binding in Binding::JSON {
        let (client, t) = transport(binding);
        let t = t.with_config(ClientConfig::new().with_max_response_body(64));
        let big = format!("{{\"id\":\"{}\"}}", "x".repeat(100));
        client.push(
            200,
            &[("content-type", "application/json")],
            split(&big, 10, None),
        );
        let err = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap_err();
        assert_eq!(
            ClientFailure::of(&err),
            Some(ClientFailure::ResponseTooLarge),
            "{binding}"
        );
        // An oversized error body is not read: the status decides.
        let t = t.with_config(ClientConfig::new().with_max_error_body(16));
        let rest = A2aError::task_not_found("t1").to_status();
        client.push_body(
            404,
            &[("content-type", "application/json")],
            &serde_json::to_string(&rest).unwrap(),
        );
        let err = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap_err();
        assert_eq!(err.http_status(), 404);
        assert_eq!(ClientFailure::of(&err), Some(ClientFailure::HttpStatus));
        assert!(
            err.message()
                .starts_with("HTTP 404 Not Found from https://"),
            "{err}"
        );
    }
}

#[test]
fn http_client_failures_are_marked() {
    let (client, t) = transport(Binding::HttpJson);
    client.push_err(HttpError::Connection("connection refused".into()));
    let err = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap_err();
    assert_eq!(ClientFailure::of(&err), Some(ClientFailure::Connection));
    assert!(err.message().contains("connection refused"));
    // The body failing half-way.
    client.push(
        200,
        &[("content-type", "application/json")],
        vec![
            Ok(Bytes::from_static(b"{\"id\":")),
            Err(HttpError::Timeout("read".into())),
        ],
    );
    let err = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap_err();
    assert_eq!(ClientFailure::of(&err), Some(ClientFailure::Timeout));
}

// ------------------------------------------------------------- streaming

fn events() -> Vec<Value> {
    vec![
        json!({"task": task_json("t1", "TASK_STATE_SUBMITTED")}),
        json!({"statusUpdate": {"taskId": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}}),
        json!({"artifactUpdate": {"taskId": "t1", "contextId": "c1",
               "artifact": {"artifactId": "a1", "parts": [{"text": "Grüße, "}]}}}),
        json!({"artifactUpdate": {"taskId": "t1", "contextId": "c1", "append": true, "lastChunk": true,
               "artifact": {"artifactId": "a1", "parts": [{"text": "wörld ✓"}]}}}),
        json!({"statusUpdate": {"taskId": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_COMPLETED"}}}),
    ]
}

fn as_json(items: Vec<Result<StreamResponse, A2aError>>) -> Vec<Value> {
    items
        .into_iter()
        .map(|i| serde_json::to_value(i.unwrap()).unwrap())
        .collect()
}

#[test]
fn streams_decode_whatever_the_chunking_on_both_bindings() {
    for chunk in [1, 2, 3, 5, 7, 64, 10_000] {
        let (client, t) = transport(Binding::HttpJson);
        client.push_rest_stream(events(), chunk, None);
        let stream =
            block_on(t.send_streaming_message(&cx(), SendMessageRequest::new(message()))).unwrap();
        assert_eq!(
            as_json(collect(stream)),
            events(),
            "REST, chunks of {chunk}"
        );
        let req = client.last();
        assert_eq!(req.method(), Method::POST);
        assert_eq!(req.uri().path(), "/a2a/acme/message:stream");
        check_common_headers(&req, "text/event-stream");
        assert_eq!(request_json(&req)["message"]["messageId"], "m1");

        let (client, t) = transport(Binding::JsonRpc);
        client.push_jsonrpc_stream(events(), chunk, None);
        let stream =
            block_on(t.send_streaming_message(&cx(), SendMessageRequest::new(message()))).unwrap();
        assert_eq!(
            as_json(collect(stream)),
            events(),
            "JSON-RPC, chunks of {chunk}"
        );
        let req = client.last();
        check_common_headers(&req, "text/event-stream");
        assert_eq!(request_json(&req)["method"], "SendStreamingMessage");
    }
}

#[test]
fn subscribe_requests_on_both_bindings() {
    let (client, t) = transport(Binding::HttpJson);
    client.push_rest_stream(events(), 9, None);
    let s = block_on(t.subscribe_to_task(
        &cx(),
        SubscribeToTaskRequest {
            id: "t1".into(),
            ..Default::default()
        },
    ))
    .unwrap();
    assert_eq!(collect(s).len(), 5);
    let req = client.last();
    assert_eq!(req.method(), Method::GET, "the proto's GET");
    assert_eq!(req.uri().path(), "/a2a/acme/tasks/t1:subscribe");
    assert!(req.body().is_empty());
    check_common_headers(&req, "text/event-stream");

    let (client, t) = transport(Binding::JsonRpc);
    client.push_jsonrpc_stream(events(), 9, None);
    let s = block_on(t.subscribe_to_task(
        &cx(),
        SubscribeToTaskRequest {
            id: "t1".into(),
            ..Default::default()
        },
    ))
    .unwrap();
    assert_eq!(collect(s).len(), 5);
    assert_eq!(
        request_json(&client.last()),
        json!({"jsonrpc": "2.0", "id": 1, "method": "SubscribeToTask", "params": {"tenant": "acme", "id": "t1"}})
    );
}

#[test]
fn stream_errors_before_and_during_the_stream() {
    for binding in Binding::JSON {
        // A proxy's 401 instead of a stream.
        let (client, t) = transport(binding);
        client.push_body(
            401,
            &[
                ("content-type", "text/html"),
                ("www-authenticate", "Bearer"),
            ],
            PROXY_HTML,
        );
        let err = block_on(t.send_streaming_message(&cx(), SendMessageRequest::new(message())))
            .err()
            .unwrap();
        assert_eq!(err.kind(), ErrorKind::Unauthenticated, "{binding}");
        assert_eq!(www_authenticate(&err), Some("Bearer"));

        // HTML with 200 is not a stream.
        client.push_body(200, &[("content-type", "text/html")], "<html></html>");
        let err = block_on(t.send_streaming_message(&cx(), SendMessageRequest::new(message())))
            .err()
            .unwrap();
        assert_eq!(err.kind(), ErrorKind::InvalidAgentResponse, "{binding}");
        assert!(err.message().contains("text/event-stream"));

        // No content type at all.
        client.push_body(200, &[], "data: {}\n\n");
        let err = block_on(t.subscribe_to_task(
            &cx(),
            SubscribeToTaskRequest {
                id: "t1".into(),
                ..Default::default()
            },
        ))
        .err()
        .unwrap();
        assert_eq!(err.kind(), ErrorKind::InvalidAgentResponse);
    }

    // A JSON error answered to a streaming call.
    let (client, t) = transport(Binding::JsonRpc);
    client.push_fn(|req| {
        let id = request_json(req)["id"].clone();
        let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32004, "message": "no streaming"}});
        Ok(support::response(200, &[("content-type", "application/json")], vec![Ok(Bytes::from(body.to_string()))]))
    });
    let err = block_on(t.send_streaming_message(&cx(), SendMessageRequest::new(message())))
        .err()
        .unwrap();
    assert_eq!(err.kind(), ErrorKind::UnsupportedOperation);
    let (client, t) = transport(Binding::HttpJson);
    let body = serde_json::to_string(&A2aError::unsupported_operation("no streaming").to_status())
        .unwrap();
    client.push_body(200, &[("content-type", "application/json")], &body);
    let err = block_on(t.send_streaming_message(&cx(), SendMessageRequest::new(message())))
        .err()
        .unwrap();
    assert_eq!(err.kind(), ErrorKind::UnsupportedOperation);

    // An error frame in the middle of a JSON-RPC stream ends it.
    let (client, t) = transport(Binding::JsonRpc);
    client.push_fn(|req| {
        let id = request_json(req)["id"].clone();
        let first = json!({"jsonrpc": "2.0", "id": id, "result": {"task": task_json("t1", "TASK_STATE_WORKING")}});
        let error = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": "boom"}});
        let text = format!("data: {first}\n\ndata: {error}\n\ndata: {first}\n\n");
        Ok(support::response(200, &[("content-type", "text/event-stream; charset=utf-8")], split(&text, 11, None)))
    });
    let s = block_on(t.send_streaming_message(&cx(), SendMessageRequest::new(message()))).unwrap();
    let items = collect(s);
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    assert_eq!(items[1].as_ref().unwrap_err().kind(), ErrorKind::Internal);
    assert_eq!(items[1].as_ref().unwrap_err().message(), "boom");

    // A connection lost mid-stream is a retryable client failure.
    let (client, t) = transport(Binding::HttpJson);
    client.push_rest_stream(
        events()[..2].to_vec(),
        13,
        Some(HttpError::Connection("reset by peer".into())),
    );
    let s = block_on(t.send_streaming_message(&cx(), SendMessageRequest::new(message()))).unwrap();
    let items = collect(s);
    assert_eq!(items.len(), 3);
    let err = items[2].as_ref().unwrap_err();
    assert!(ClientFailure::of(err).is_some_and(ClientFailure::is_retryable));
}

#[test]
fn the_concrete_stream_exposes_reconnection_hints() {
    let (client, t) = transport(Binding::HttpJson);
    let frame = json!({"task": task_json("t1", "TASK_STATE_WORKING")});
    client.push_body(
        200,
        &[("content-type", "text/event-stream")],
        &format!("retry: 2500\nid: ev-7\ndata: {frame}\n\n"),
    );
    let s = block_on(t.stream_task(
        &cx(),
        SubscribeToTaskRequest {
            id: "t1".into(),
            ..Default::default()
        },
    ))
    .unwrap();
    let mut s = s;
    let first = block_on(std::future::poll_fn(|c| {
        std::pin::Pin::new(&mut s).poll_next(c)
    }));
    assert!(matches!(first, Some(Ok(StreamResponse::Task(_)))));
    assert_eq!(s.last_event_id(), "ev-7");
    assert_eq!(s.retry(), Some(std::time::Duration::from_millis(2500)));
    assert_eq!(s.binding(), Binding::HttpJson);
}

/// A 0.3 task as a 0.3 agent answers it.
fn task_v03(id: &str, state: &str) -> Value {
    json!({"kind": "task", "id": id, "contextId": "c1", "status": {"state": state}})
}

#[test]
fn json_rpc_at_0_3_speaks_the_0_3_methods_and_shapes() {
    let (client, t) = transport(Binding::JsonRpc);
    let t = t.with_version(ProtocolVersion::V0_3);
    assert_eq!(t.version(), Some(ProtocolVersion::V0_3));
    client.push_jsonrpc_result(task_v03("t1", "input-required"));
    let task = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap();
    assert_eq!(task.status.state, TaskState::InputRequired);
    let req = client.last();
    assert_eq!(header(&req, "a2a-version"), Some("0.3"));
    let body = request_json(&req);
    assert_eq!(body["method"], "tasks/get");
    assert_eq!(body["params"], json!({"id": "t1"}), "no tenant at 0.3");

    client.push_jsonrpc_result(
        json!({"kind": "message", "messageId": "a1", "role": "agent",
        "parts": [{"kind": "text", "text": "hi"}]}),
    );
    let sent = SendMessageRequest::new(Message::user_text("m1", "hello"));
    let reply = block_on(t.send_message(&CallContext::new(), sent.clone())).unwrap();
    assert!(matches!(reply, SendMessageResponse::Message(m) if m.role == Role::Agent));
    let body = request_json(&client.last());
    assert_eq!(body["method"], "message/send");
    assert_eq!(body["params"]["message"]["kind"], "message");
    assert_eq!(body["params"]["message"]["role"], "user");
    assert_eq!(
        body["params"]["message"]["parts"][0],
        json!({"kind": "text", "text": "hello"})
    );

    // A 1.0-shaped answer to a 0.3 request is not a 0.3 result.
    client.push_jsonrpc_result(json!({"id": "t1", "contextId": "c1",
        "status": {"state": "TASK_STATE_COMPLETED"}}));
    let err = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidAgentResponse);

    // Streams: each event read in its 0.3 form.
    client.push_jsonrpc_stream(
        vec![
            task_v03("t1", "working"),
            json!({"kind": "status-update", "taskId": "t1", "contextId": "c1",
                   "status": {"state": "completed"}, "final": true}),
        ],
        7,
        None,
    );
    let events = collect(block_on(t.stream_message(&CallContext::new(), sent)).unwrap());
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    assert_eq!(request_json(&client.last())["method"], "message/stream");

    // A 0.3 server answers a failing streaming call with a stream of one
    // error event: that is the call's error.
    client.push_fn(|req| {
        let id = request_json(req)["id"].clone();
        let frame = json!({"jsonrpc": "2.0", "id": id,
                           "error": {"code": -32001, "message": "Task not found"}});
        Ok(support::response(
            200,
            &[("content-type", "text/event-stream")],
            vec![Ok(Bytes::from(format!("data: {frame}\n\n")))],
        ))
    });
    let resub = SubscribeToTaskRequest {
        id: "nope".into(),
        ..Default::default()
    };
    let err = block_on(t.stream_task(&CallContext::new(), resub)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TaskNotFound);
}

#[test]
fn http_json_at_0_3_uses_the_0_3_routes_and_proto_bodies() {
    let (client, t) = transport(Binding::HttpJson);
    let t = t.with_version(ProtocolVersion::V0_3);
    let ct = [("content-type", "application/json")];
    // The 0.3 proto's ProtoJSON, as the 0.3 SDK servers answer.
    let task = |id: &str, state: &str| {
        json!({"id": id, "contextId": "c1", "status": {"state": state},
               "history": [{"messageId": "m0", "role": "ROLE_USER", "content": [{"text": "hi"}]}]})
        .to_string()
    };
    client.push_body(200, &ct, &task("t/1", "TASK_STATE_CANCELLED"));
    let r = GetTaskRequest {
        history_length: Some(2),
        ..GetTaskRequest::new("t/1")
    };
    let got = block_on(t.get_task(&CallContext::new(), r)).unwrap();
    assert_eq!(got.status.state, TaskState::Canceled);
    assert_eq!(got.history[0].parts[0], a2a_types::Part::text("hi"));
    let req = client.last();
    assert_eq!(req.method(), Method::GET);
    assert_eq!(
        req.uri().path_and_query().unwrap().as_str(),
        "/a2a/v1/tasks/t%2F1?historyLength=2",
        "0.3 routes under /v1, no tenant"
    );
    assert_eq!(header(&req, "a2a-version"), Some("0.3"));

    client.push_body(200, &ct, &json!({"task": serde_json::from_str::<Value>(&task("t2", "TASK_STATE_SUBMITTED")).unwrap()}).to_string());
    let sent = SendMessageRequest::new(Message::user_text("m1", "hello"));
    block_on(t.send_message(&CallContext::new(), sent)).unwrap();
    let req = client.last();
    assert_eq!(req.uri().path(), "/a2a/v1/message:send");
    assert_eq!(header(&req, "content-type"), Some("application/json"));
    assert_eq!(
        request_json(&req),
        json!({"message": {"messageId": "m1", "role": "ROLE_USER", "content": [{"text": "hello"}]},
               "configuration": {"blocking": true}}),
        "the 0.3 proto's SendMessageRequest"
    );

    client.push_body(200, &ct, "{}");
    let d = DeleteTaskPushNotificationConfigRequest {
        task_id: "t2".into(),
        id: "p1".into(),
        ..Default::default()
    };
    block_on(t.delete_task_push_notification_config(&CallContext::new(), d)).unwrap();
    let req = client.last();
    assert_eq!(req.method(), Method::DELETE);
    assert_eq!(
        req.uri().path(),
        "/a2a/v1/tasks/t2/pushNotificationConfigs/p1"
    );

    let mut config = TaskPushNotificationConfig::new("https://hook.example/h");
    config.task_id = "t2".into();
    config.id = "p1".into();
    client.push_body(
        200,
        &ct,
        &json!({"name": "tasks/t2/pushNotificationConfigs/p1",
                "pushNotificationConfig": {"url": "https://hook.example/h"}})
        .to_string(),
    );
    let set =
        block_on(t.create_task_push_notification_config(&CallContext::new(), config)).unwrap();
    assert_eq!((set.task_id.as_str(), set.id.as_str()), ("t2", "p1"));
    assert_eq!(
        request_json(&client.last()),
        json!({"parent": "tasks/t2", "configId": "p1", "config": {
            "name": "tasks/t2/pushNotificationConfigs/p1",
            "pushNotificationConfig": {"id": "p1", "url": "https://hook.example/h"}}})
    );

    // Errors: the JSON-RPC error object, with the HTTP status.
    client.push_body(404, &ct, r#"{"code":-32001,"message":"Task not found"}"#);
    let err = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("x"))).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TaskNotFound);
    // The Python 0.3 SDK's: a message and the status.
    client.push_body(404, &ct, r#"{"message":"Task not found"}"#);
    let err = block_on(t.get_task(&CallContext::new(), GetTaskRequest::new("x"))).unwrap_err();
    assert_eq!(
        (err.message(), err.received_status()),
        ("Task not found", Some(404))
    );

    client.push_rest_stream(
        vec![
            json!({"artifactUpdate": {"taskId": "t2", "contextId": "c1",
                    "artifact": {"artifactId": "a1", "parts": [{"text": "x"}]}}}),
            json!({"statusUpdate": {"taskId": "t2", "contextId": "c1",
                    "status": {"state": "TASK_STATE_COMPLETED"}, "final": true}}),
        ],
        5,
        None,
    );
    let resub = SubscribeToTaskRequest {
        id: "t2".into(),
        ..Default::default()
    };
    let events = collect(block_on(t.stream_task(&CallContext::new(), resub)).unwrap());
    assert!(
        matches!(
            &events[..],
            [
                Ok(StreamResponse::ArtifactUpdate(_)),
                Ok(StreamResponse::StatusUpdate(_))
            ]
        ),
        "{events:?}"
    );
    let req = client.last();
    assert_eq!(
        (req.method(), req.uri().path()),
        (&Method::POST, "/a2a/v1/tasks/t2:subscribe")
    );
    assert_eq!(req.body().as_ref(), b"{}");
}
