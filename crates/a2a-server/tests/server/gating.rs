//! Capability gating (spec 3.3.4, 13.3), required extensions (3.3.4) and
//! version negotiation (3.6), over both bindings.

use a2a_server::{A2aServer, ProtocolVersion, ServerConfig};
use a2a_types::{AgentCapabilities, AgentExtension, ErrorKind};
use http::Method;
use serde_json::json;

use crate::errors::every_operation;
use crate::support::*;

fn bare_server() -> A2aServer<Memory> {
    let mut card = full_card();
    card.capabilities = AgentCapabilities::default();
    let config = ServerConfig::new()
        .with_authenticator(a2a_server::BearerAuth::new("bearer").with_token("t0k3n", "alice"));
    A2aServer::new(Memory::default(), card, config).unwrap()
}

/// The kind each operation is refused with by a card declaring nothing.
fn refusal(op: &str) -> Option<ErrorKind> {
    match op {
        "SendStreamingMessage" | "SubscribeToTask" | "GetExtendedAgentCard" => {
            Some(ErrorKind::UnsupportedOperation)
        }
        "CreateTaskPushNotificationConfig"
        | "GetTaskPushNotificationConfig"
        | "ListTaskPushNotificationConfigs"
        | "DeleteTaskPushNotificationConfig" => Some(ErrorKind::PushNotificationNotSupported),
        _ => None,
    }
}

#[test]
fn undeclared_capabilities_answer_their_exact_errors() {
    let server = bare_server();
    let auth: Headers<'_> = &[("authorization", "Bearer t0k3n")];
    for (method, params, rest_method, path, body) in every_operation() {
        let a = rpc(&server, method, params, auth);
        let b = rest(&server, rest_method, path, body, auth);
        match refusal(method) {
            Some(kind) => {
                assert_eq!(
                    rpc_error(&a),
                    (kind.code().0, kind.reason().to_owned()),
                    "{method}"
                );
                assert_eq!(b.status.as_u16(), kind.http_status(), "{method}");
                assert_eq!(rest_error(&b).1, kind.reason(), "{method}");
            }
            None => {
                // Not gated: they reach the handler (which knows no task `t`).
                assert!(
                    a.json().get("result").is_some() || rpc_error(&a).0 == -32001,
                    "{method}: {:?}",
                    a.json()
                );
            }
        }
    }
    assert!(
        server
            .service()
            .seen()
            .iter()
            .all(|s| s.principal.is_some()),
        "gated calls never reached the handler"
    );
    assert_eq!(
        server.service().seen().len(),
        2 * 4,
        "4 ungated operations, twice"
    );
}

#[test]
fn inline_push_config_is_gated_too() {
    let server = bare_server();
    let params = json!({
        "message": user_message("m", "hi"),
        "configuration": {"taskPushNotificationConfig": {"url": "https://h.example/"}}
    });
    let a = rpc(&server, "SendMessage", params.clone(), &[]);
    assert_eq!(rpc_error(&a).0, -32003);
    let b = rest(&server, Method::POST, "/message:send", Some(params), &[]);
    assert_eq!(
        rest_error(&b),
        (400, "PUSH_NOTIFICATION_NOT_SUPPORTED".into())
    );
}

#[test]
fn the_extended_card_needs_an_authenticated_caller() {
    let server = memory_server();
    let a = rpc(&server, "GetExtendedAgentCard", json!({}), &[]);
    assert_eq!(a.status, 401);
    assert_eq!(rpc_error(&a), (-32090, "UNAUTHENTICATED".into()));
    assert_eq!(
        a.header_all("www-authenticate"),
        [r#"Bearer realm="Memory agent""#]
    );
    let b = rest(&server, Method::GET, "/extendedAgentCard", None, &[]);
    assert_eq!(b.status, 401);
    assert_eq!(
        b.header_all("www-authenticate"),
        [r#"Bearer realm="Memory agent""#]
    );
    assert!(server.service().seen().is_empty());

    let auth: Headers<'_> = &[("authorization", "Bearer t0k3n")];
    assert!(result(&rpc(&server, "GetExtendedAgentCard", json!({}), auth))["skills"].is_array());

    // Declared and authenticated, but the handler has none configured.
    struct NoCard;
    impl a2a_server::A2aService for NoCard {}
    let config = ServerConfig::new()
        .with_authenticator(a2a_server::BearerAuth::new("bearer").with_token("t0k3n", "alice"));
    let server = A2aServer::new(NoCard, full_card(), config).unwrap();
    let a = rpc(&server, "GetExtendedAgentCard", json!({}), auth);
    assert_eq!(rpc_error(&a).0, -32007);
    let b = rest(&server, Method::GET, "/extendedAgentCard", None, auth);
    assert_eq!(
        rest_error(&b),
        (400, "EXTENDED_AGENT_CARD_NOT_CONFIGURED".into())
    );
}

#[test]
fn required_extensions_must_be_requested() {
    let mut card = full_card();
    card.capabilities.extensions = vec![
        AgentExtension {
            uri: "https://ext.example/geo/v1".into(),
            required: true,
            ..Default::default()
        },
        AgentExtension {
            uri: "https://ext.example/optional/v1".into(),
            ..Default::default()
        },
    ];
    let server = A2aServer::new(Memory::default(), card, ServerConfig::new()).unwrap();
    let params = json!({"message": user_message("m", "hi")});

    let a = rpc(&server, "SendMessage", params.clone(), &[]);
    assert_eq!(rpc_error(&a), (-32008, "EXTENSION_SUPPORT_REQUIRED".into()));
    assert_eq!(
        a.json()["error"]["data"][0]["metadata"]["extension"],
        "https://ext.example/geo/v1"
    );
    let b = rest(
        &server,
        Method::POST,
        "/message:send",
        Some(params.clone()),
        &[],
    );
    assert_eq!(rest_error(&b), (400, "EXTENSION_SUPPORT_REQUIRED".into()));

    let ext: Headers<'_> = &[("a2a-extensions", "https://ext.example/geo/v1")];
    assert!(result(&rpc(&server, "SendMessage", params.clone(), ext))["task"].is_object());
    assert_eq!(
        rest(
            &server,
            Method::POST,
            "/message:send",
            Some(params.clone()),
            ext
        )
        .status,
        200
    );
    let by_query = rest(
        &server,
        Method::POST,
        "/message:send?a2a-extensions=https%3A%2F%2Fext.example%2Fgeo%2Fv1",
        Some(params),
        &[],
    );
    assert_eq!(by_query.status, 200);

    let bad = rest(
        &server,
        Method::GET,
        "/tasks",
        None,
        &[("a2a-extensions", "not a uri")],
    );
    assert_eq!(rest_error(&bad), (400, "INVALID_REQUEST".into()));
}

#[test]
fn versions_are_negotiated() {
    let server = memory_server();
    let body = serde_json::to_vec(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t"}}),
    )
    .unwrap();
    let without = |body: Vec<u8>| {
        send(
            &server,
            http::Request::post("/")
                .header("content-type", "application/json")
                .body(body.into())
                .unwrap(),
        )
    };
    // No version means 0.3, which is not served.
    let a = without(body.clone());
    assert_eq!(a.status, 200);
    assert_eq!(rpc_error(&a), (-32009, "VERSION_NOT_SUPPORTED".into()));
    assert_eq!(a.json()["id"], 1);
    assert_eq!(
        a.json()["error"]["data"][0]["metadata"]["requestedVersion"],
        "0.3"
    );
    // A 0.3 method name still learns that the version is the problem.
    let old = serde_json::to_vec(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"id": "t"}}),
    )
    .unwrap();
    let a = without(old);
    assert_eq!(rpc_error(&a).0, -32009);
    assert_eq!(a.json()["id"], 2);

    for version in ["0.3", "2.0", "1", "abc", "", "1.0, 1.0", "v1.0"] {
        let req = http::Request::post("/")
            .header("content-type", "application/json")
            .header("a2a-version", version)
            .body(body.clone().into())
            .unwrap();
        assert_eq!(rpc_error(&send(&server, req)).0, -32009, "{version:?}");
    }
    // Two fields are refused too.
    let a = rpc(
        &server,
        "GetTask",
        json!({"id": "t"}),
        &[("a2a-version", "1.0")],
    );
    assert_eq!(rpc_error(&a).0, -32009);
    let b = send(
        &server,
        http::Request::get("/tasks/t?A2A-Version=2.0")
            .body(bytes::Bytes::new())
            .unwrap(),
    );
    assert_eq!(rest_error(&b), (400, "VERSION_NOT_SUPPORTED".into()));
    let b = send(
        &server,
        http::Request::get("/tasks/t?a2a-version=1.0")
            .body(bytes::Bytes::new())
            .unwrap(),
    );
    assert_eq!(
        rest_error(&b),
        (404, "TASK_NOT_FOUND".into()),
        "the query carries the version"
    );
    let b = send(
        &server,
        http::Request::get("/tasks/t")
            .header("a2a-version", "1.0.7")
            .body(bytes::Bytes::new())
            .unwrap(),
    );
    assert_eq!(b.status, 404, "patch versions are ignored");

    // A server configured for other versions names them.
    let config = ServerConfig::new().with_versions([ProtocolVersion::new(1, 1)]);
    let s = A2aServer::new(Memory::default(), card_for(&config), config).unwrap();
    let a = rpc(&s, "GetTask", json!({"id": "t"}), &[]);
    assert_eq!(
        a.json()["error"]["data"][0]["metadata"]["supportedVersions"],
        "1.1"
    );
    assert!(A2aServer::new(
        Memory::default(),
        full_card(),
        ServerConfig::new().with_versions([])
    )
    .is_err());
}
