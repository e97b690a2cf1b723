//! Hardening: every malformed or hostile request gets the binding's error
//! body, never a panic and never an empty 500.

use a2a_server::{A2aServer, ServerConfig};
use bytes::Bytes;
use http::header::CONTENT_LENGTH;
use http::{Method, Request};
use proptest::prelude::*;
use serde_json::json;

use crate::support::*;

fn small_server() -> A2aServer<Memory> {
    A2aServer::new(
        Memory::default(),
        full_card(),
        ServerConfig::new()
            .with_max_body_size(1024)
            .with_max_path_len(256),
    )
    .unwrap()
}

fn raw(server: &A2aServer<Memory>, req: http::request::Builder, body: impl Into<Bytes>) -> Answer {
    send(
        server,
        req.header("a2a-version", "1.0").body(body.into()).unwrap(),
    )
}

#[test]
fn body_over_the_limit_is_413_before_parsing() {
    let server = small_server();
    let big = vec![b'{'; 2048]; // not even JSON: never parsed
    let a = raw(
        &server,
        Request::post("/").header("content-type", "application/json"),
        big.clone(),
    );
    assert_eq!(a.status, 413);
    assert_eq!(a.json()["error"]["code"], -32600);
    assert_eq!(a.json()["id"], serde_json::Value::Null);
    let b = raw(
        &server,
        Request::post("/message:send").header("content-type", "application/json"),
        big,
    );
    assert_eq!(b.status, 413);
    assert_eq!(rest_error(&b), (413, "INVALID_REQUEST".into()));

    // By Content-Length alone: the host can refuse before reading the body.
    let head = Request::post("/message:send")
        .header(CONTENT_LENGTH, "1000000")
        .body(())
        .unwrap()
        .into_parts()
        .0;
    let refused = server.check_head(&head).expect("refused by its head");
    assert_eq!(refused.status(), 413);
    let c = raw(
        &server,
        Request::post("/").header(CONTENT_LENGTH, "1000000"),
        Bytes::new(),
    );
    assert_eq!(c.status, 413);
    assert_eq!(c.json()["error"]["code"], -32600);

    // A malformed Content-Length is a bad request.
    for bad in ["abc", "-1", "1, 2", "99999999999999999999999"] {
        let a = raw(
            &server,
            Request::post("/message:send").header(CONTENT_LENGTH, bad),
            Bytes::new(),
        );
        assert_eq!(a.status, 400, "{bad}");
        assert_eq!(rest_error(&a).1, "INVALID_REQUEST");
    }
    let ok_head = Request::get("/tasks")
        .header(CONTENT_LENGTH, "0, 0")
        .body(())
        .unwrap()
        .into_parts()
        .0;
    assert!(server.check_head(&ok_head).is_none());
}

#[test]
fn wrong_method_on_a_known_route_is_405_with_allow() {
    let server = memory_server();
    for (method, path, allow) in [
        (Method::DELETE, "/tasks/t", "GET"),
        (Method::PUT, "/message:send", "POST"),
        (Method::GET, "/message:send", "POST"),
        (Method::POST, "/tasks", "GET"),
        (
            Method::PATCH,
            "/tasks/t/pushNotificationConfigs",
            "GET, POST",
        ),
        (
            Method::POST,
            "/tasks/t/pushNotificationConfigs/c",
            "GET, DELETE",
        ),
        (Method::DELETE, "/tasks/t:subscribe", "GET, POST"),
    ] {
        let a = raw(
            &server,
            Request::builder().method(method.clone()).uri(path),
            Bytes::new(),
        );
        assert_eq!(a.status, 405, "{method} {path}");
        assert_eq!(a.header("allow"), Some(allow), "{method} {path}");
        assert_eq!(rest_error(&a), (405, "INVALID_REQUEST".into()));
        assert_eq!(a.json()["error"]["status"], "INVALID_ARGUMENT");
    }
    let a = raw(&server, Request::get("/"), Bytes::new());
    assert_eq!(a.status, 405);
    assert_eq!(a.header("allow"), Some("POST"));
    assert_eq!(rpc_error(&a).0, -32600);
}

#[test]
fn unknown_routes_are_404() {
    let server = memory_server();
    for path in [
        "/nope",
        "/tasks/",
        "/tasks/a/b",
        "/message:launch",
        "/a/b/c/d/e/f",
        "/tasks/./x",
    ] {
        let a = raw(&server, Request::get(path), Bytes::new());
        assert_eq!(a.status, 404, "{path}");
        assert_eq!(rest_error(&a), (404, "METHOD_NOT_FOUND".into()));
    }
    // With HTTP+JSON off, the JSON-RPC body answers.
    let config = ServerConfig::new().without_rest();
    let s = A2aServer::new(Memory::default(), card_for(&config), config).unwrap();
    let a = raw(&s, Request::get("/tasks"), Bytes::new());
    assert_eq!(a.status, 404);
    assert_eq!(rpc_error(&a).0, -32601);
    // Unknown JSON-RPC method: -32601 with HTTP 200.
    let a = rpc(&server, "NoSuchMethod", json!({}), &[]);
    assert_eq!(a.status, 200);
    assert_eq!(rpc_error(&a).0, -32601);
}

#[test]
fn unsupported_content_types_are_415() {
    let server = memory_server();
    let body = serde_json::to_vec(&json!({"message": user_message("m", "hi")})).unwrap();
    for ct in [
        Some("text/plain"),
        Some("application/xml"),
        Some("application/jsonx"),
        None,
    ] {
        let mut req = Request::post("/message:send");
        if let Some(ct) = ct {
            req = req.header("content-type", ct);
        }
        let a = raw(&server, req, body.clone());
        assert_eq!(a.status, 415, "{ct:?}");
        assert_eq!(rest_error(&a), (415, "CONTENT_TYPE_NOT_SUPPORTED".into()));

        let mut req = Request::post("/");
        if let Some(ct) = ct {
            req = req.header("content-type", ct);
        }
        let a = raw(&server, req, body.clone());
        assert_eq!(a.status, 415, "{ct:?}");
        assert_eq!(rpc_error(&a), (-32005, "CONTENT_TYPE_NOT_SUPPORTED".into()));
    }
    // Both JSON types, with parameters, are accepted on both bindings.
    for ct in ["application/json; charset=utf-8", "application/a2a+json"] {
        let a = raw(
            &server,
            Request::post("/message:send").header("content-type", ct),
            body.clone(),
        );
        assert_eq!(a.status, 200, "{ct}");
    }
    let rpc_body =
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "method": "ListTasks"})).unwrap();
    let a = raw(
        &server,
        Request::post("/").header("content-type", "application/a2a+json"),
        rpc_body,
    );
    assert_eq!(a.status, 200);
    assert!(a.json()["result"].is_object());
}

#[test]
fn malformed_json_is_400_or_parse_error() {
    let server = memory_server();
    for body in [
        &b"{"[..],
        b"not json",
        b"{\"message\": }",
        b"\xff\xfe",
        b"[1,2",
    ] {
        let a = raw(
            &server,
            Request::post("/message:send").header("content-type", "application/json"),
            body,
        );
        assert_eq!(a.status, 400, "{body:?}");
        assert_eq!(rest_error(&a), (400, "JSON_PARSE".into()));

        let a = raw(
            &server,
            Request::post("/").header("content-type", "application/json"),
            body,
        );
        assert_eq!(a.status, 200, "{body:?}");
        assert_eq!(rpc_error(&a), (-32700, "JSON_PARSE".into()));
        assert_eq!(a.json()["id"], serde_json::Value::Null);
    }
}

#[test]
fn invalid_params_name_the_field() {
    let server = memory_server();
    // REQUIRED fields missing.
    let b = rest(&server, Method::POST, "/message:send", Some(json!({})), &[]);
    assert_eq!(rest_error(&b), (400, "INVALID_PARAMS".into()));
    assert_eq!(violations(&b), ["message"]);
    let a = rpc(&server, "SendMessage", json!({}), &[]);
    assert_eq!(rpc_error(&a).0, -32602);
    assert_eq!(violations(&a), violations(&b));
    // A wrongly typed field names its JSON path.
    let b = rest(
        &server,
        Method::POST,
        "/message:send",
        Some(json!({"message": {"parts": 3}})),
        &[],
    );
    assert_eq!(violations(&b), ["message.parts"]);
    let b = rest(
        &server,
        Method::POST,
        "/tasks/t/pushNotificationConfigs",
        Some(json!({})),
        &[],
    );
    assert_eq!(violations(&b), ["url"]);
}

#[test]
fn path_and_body_must_agree() {
    let server = memory_server();
    let b = rest(
        &server,
        Method::POST,
        "/tasks/t1:cancel",
        Some(json!({"id": "t2"})),
        &[],
    );
    assert_eq!(rest_error(&b), (400, "INVALID_PARAMS".into()));
    assert_eq!(violations(&b), ["id"]);
    let b = rest(
        &server,
        Method::POST,
        "/tasks/t1:cancel",
        Some(json!({"id": "t1"})),
        &[],
    );
    assert_eq!(rest_error(&b).1, "TASK_NOT_FOUND", "an equal value is fine");
    let b = rest(
        &server,
        Method::POST,
        "/tasks/t1/pushNotificationConfigs",
        Some(json!({"taskId": "t2", "url": "https://h.example/"})),
        &[],
    );
    assert_eq!(violations(&b), ["taskId"]);
    let b = rest(
        &server,
        Method::POST,
        "/acme/message:send",
        Some(json!({"tenant": "other", "message": user_message("m", "hi")})),
        &[],
    );
    assert_eq!(violations(&b), ["tenant"]);
    let b = rest(
        &server,
        Method::GET,
        "/acme/tasks/t?tenant=other",
        None,
        &[],
    );
    assert_eq!(violations(&b), ["tenant"]);
    let b = rest(&server, Method::GET, "/acme/tasks/t?tenant=acme", None, &[]);
    assert_eq!(b.status, 404);
}

#[test]
fn query_parameters_are_checked_and_named() {
    let server = memory_server();
    for (query, field) in [
        ("pageSize=abc", "pageSize"),
        ("pageSize=99999999999", "pageSize"),
        ("status=WORKING", "status"),
        ("status=TASK_STATE_NOPE", "status"),
        ("statusTimestampAfter=yesterday", "statusTimestampAfter"),
        ("includeArtifacts=1", "includeArtifacts"),
        ("historyLength=1&historyLength=2", "historyLength"),
        ("contextId=%FF", "contextId"),
        ("contextId=%G1", "contextId"),
    ] {
        let b = rest(&server, Method::GET, &format!("/tasks?{query}"), None, &[]);
        assert_eq!(rest_error(&b), (400, "INVALID_PARAMS".into()), "{query}");
        assert_eq!(violations(&b), [field], "{query}");
    }
    let b = rest(&server, Method::GET, "/tasks?=x", None, &[]);
    assert_eq!(rest_error(&b), (400, "INVALID_REQUEST".into()));
    let b = rest(
        &server,
        Method::GET,
        "/tasks?unknownParam=1&status=TASK_STATE_WORKING",
        None,
        &[],
    );
    assert_eq!(b.status, 200, "unknown parameters are ignored");
}

#[test]
fn invalid_utf8_in_path_and_query() {
    let server = memory_server();
    let b = rest(&server, Method::GET, "/tasks/%FF%FE", None, &[]);
    assert_eq!(rest_error(&b), (400, "INVALID_PARAMS".into()));
    assert_eq!(violations(&b), ["id"]);
    let b = rest(&server, Method::GET, "/%C3%28/tasks/t", None, &[]);
    assert_eq!(violations(&b), ["tenant"]);
    let b = rest(
        &server,
        Method::GET,
        "/tasks/t?historyLength=%FF",
        None,
        &[],
    );
    assert_eq!(violations(&b), ["historyLength"]);
    let a = send(
        &server,
        Request::post("/?x=%FF")
            .header("content-type", "application/json")
            .header("a2a-version", "1.0")
            .body(Bytes::from_static(b"{}"))
            .unwrap(),
    );
    assert_eq!(a.status, 400);
    assert_eq!(rpc_error(&a).0, -32602);
    // Raw non-ASCII bytes cannot reach the server: `http` refuses them in a URI.
    assert!(http::Uri::try_from(&b"/tasks/\xff"[..]).is_err());
}

#[test]
fn over_long_paths_and_queries_are_414() {
    let server = small_server();
    let long = format!("/tasks/{}", "a".repeat(300));
    let b = raw(&server, Request::get(long.as_str()), Bytes::new());
    assert_eq!(b.status, 414);
    assert_eq!(rest_error(&b), (414, "INVALID_REQUEST".into()));
    let head = Request::get(long.as_str()).body(()).unwrap().into_parts().0;
    assert_eq!(
        server.check_head(&head).map(|r| r.status()),
        Some(http::StatusCode::URI_TOO_LONG)
    );

    let config = ServerConfig::new()
        .with_jsonrpc_path(format!("/{}", "r".repeat(300)))
        .with_max_path_len(256);
    let s = A2aServer::new(Memory::default(), card_for(&config), config).unwrap();
    let a = raw(
        &s,
        Request::post(format!("/{}", "r".repeat(300)).as_str()),
        Bytes::new(),
    );
    assert_eq!(a.status, 414);
    assert_eq!(
        rpc_error(&a).0,
        -32600,
        "the JSON-RPC path answers a JSON-RPC body"
    );

    let q = format!("/tasks?contextId={}", "c".repeat(5000));
    let b = raw(&memory_server(), Request::get(q.as_str()), Bytes::new());
    assert_eq!(b.status, 414);
}

#[test]
fn absurd_headers_are_refused_with_error_bodies() {
    let server = memory_server();
    let huge = "9".repeat(10_000);
    let many_uris = (0..100)
        .map(|i| format!("urn:x:{i}"))
        .collect::<Vec<_>>()
        .join(",");
    let long_uri = format!("urn:{}", "x".repeat(5000));
    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        (
            "a2a-version",
            huge.clone().into_bytes(),
            400,
            "VERSION_NOT_SUPPORTED",
        ),
        (
            "a2a-version",
            b"1.\xff".to_vec(),
            400,
            "VERSION_NOT_SUPPORTED",
        ),
        (
            "a2a-extensions",
            many_uris.into_bytes(),
            400,
            "INVALID_REQUEST",
        ),
        (
            "a2a-extensions",
            long_uri.into_bytes(),
            400,
            "INVALID_REQUEST",
        ),
        (
            "a2a-extensions",
            b"urn:\xff".to_vec(),
            400,
            "INVALID_REQUEST",
        ),
        (
            "authorization",
            format!("Bearer {huge}").into_bytes(),
            401,
            "UNAUTHENTICATED",
        ),
        (
            "authorization",
            b"Bearer \xff".to_vec(),
            401,
            "UNAUTHENTICATED",
        ),
        (
            "content-type",
            huge.clone().into_bytes(),
            415,
            "CONTENT_TYPE_NOT_SUPPORTED",
        ),
        (
            "content-type",
            b"application/\xffjson".to_vec(),
            415,
            "CONTENT_TYPE_NOT_SUPPORTED",
        ),
    ];
    for (name, value, status, reason) in cases {
        let value = http::HeaderValue::from_bytes(&value).unwrap();
        let mut req = Request::post("/message:send");
        if name != "a2a-version" {
            req = req.header("a2a-version", "1.0");
        }
        if name != "content-type" {
            req = req.header("content-type", "application/json");
        }
        let req = req
            .header(name, value.clone())
            .body(Bytes::from(
                serde_json::to_vec(&json!({"message": user_message("m", "hi")})).unwrap(),
            ))
            .unwrap();
        let b = send(&server, req);
        assert_eq!(rest_error(&b), (status, reason.into()), "{name}");
        let req = Request::post("/");
        let mut req = if name != "a2a-version" {
            req.header("a2a-version", "1.0")
        } else {
            req
        };
        if name != "content-type" {
            req = req.header("content-type", "application/json");
        }
        let req = req
            .header(name, value)
            .body(Bytes::from_static(
                br#"{"jsonrpc":"2.0","id":1,"method":"ListTasks"}"#,
            ))
            .unwrap();
        let a = send(&server, req);
        assert!(a.json()["error"].is_object(), "{name}");
    }
    // A thousand unrelated headers change nothing.
    let mut req = Request::get("/tasks").header("a2a-version", "1.0");
    for i in 0..1000 {
        req = req.header(format!("x-junk-{i}"), "y".repeat(100));
    }
    assert_eq!(send(&server, req.body(Bytes::new()).unwrap()).status, 200);
}

#[test]
fn handler_panics_are_internal_errors() {
    let server = memory_server();
    let params = json!({"message": user_message("m", "panic")});
    let a = rpc(&server, "SendMessage", params.clone(), &[]);
    assert_eq!(a.status, 200);
    assert_eq!(rpc_error(&a), (-32603, "INTERNAL_ERROR".into()));
    let b = rest(&server, Method::POST, "/message:send", Some(params), &[]);
    assert_eq!(rest_error(&b), (500, "INTERNAL_ERROR".into()));
    assert!(b.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("panicked"));
}

#[test]
fn configuration_errors_are_reported() {
    let bad = |c: ServerConfig| A2aServer::new(Memory::default(), card_for(&c), c).is_err();
    assert!(bad(ServerConfig::new().with_jsonrpc_path("rpc")));
    assert!(bad(ServerConfig::new().with_jsonrpc_path("/r pc")));
    assert!(bad(ServerConfig::new().with_rest_base_path("v1")));
    assert!(bad(ServerConfig::new().with_rest_base_path("/a//b")));
    assert!(!bad(ServerConfig::new()
        .with_jsonrpc_path("/rpc")
        .with_rest_base_path("/v1/")));
    let config = ServerConfig::new()
        .with_jsonrpc_path("/rpc")
        .with_rest_base_path("/v1");
    let s = A2aServer::new(Memory::default(), card_for(&config), config).unwrap();
    assert_eq!(raw(&s, Request::get("/v1/tasks"), Bytes::new()).status, 200);
    assert_eq!(raw(&s, Request::get("/tasks"), Bytes::new()).status, 404);
    let a = raw(
        &s,
        Request::post("/rpc").header("content-type", "application/json"),
        Bytes::from_static(br#"{"jsonrpc":"2.0","id":1,"method":"ListTasks"}"#),
    );
    assert!(a.json()["result"].is_object());
    assert!(format!("{s:?}").contains("A2aServer"));
}

#[test]
fn the_card_must_declare_what_is_served() {
    use a2a_server::ConfigError;
    use a2a_types::AgentInterface;
    let served = ServerConfig::new()
        .with_jsonrpc_path("/rpc")
        .with_rest_base_path("/v1");
    let refused = |interface: AgentInterface| {
        let mut card = card_for(&served);
        card.supported_interfaces.push(interface);
        match A2aServer::new(Memory::default(), card, served.clone()) {
            Err(e @ ConfigError::InterfaceNotServed { .. }) => e.to_string(),
            other => panic!("not refused: {other:?}"),
        }
    };
    // Spec 8.3.1: each interface names what is served, where.
    let e = refused(AgentInterface::new("https://a.example/", "JSONRPC", "1.0"));
    assert!(
        e.contains("JSON-RPC is served at \"/rpc\", not at \"/\""),
        "{e}"
    );
    let e = refused(AgentInterface::new(
        "https://a.example/v2",
        "HTTP+JSON",
        "1.0",
    ));
    assert!(e.contains("under \"/v1\", not under \"/v2\""), "{e}");
    let e = refused(AgentInterface::new(
        "https://a.example/rpc",
        "json-lines",
        "1.0",
    ));
    assert!(e.contains("serves JSONRPC, HTTP+JSON and GRPC only"), "{e}");
    // gRPC is served unless turned off, at any URL gRPC clients dial.
    let e = refused(AgentInterface::new("a.example:50051", "GRPC", "1.1"));
    assert!(e.contains("version 1.1 is not among"), "{e}");
    let mut card = card_for(&served);
    card.supported_interfaces
        .push(AgentInterface::new("http://a.example:50051", "GRPC", "1.0"));
    let no_grpc = served.clone().without_grpc();
    match A2aServer::new(Memory::default(), card.clone(), no_grpc.clone()) {
        Err(e) => assert!(e.to_string().contains("gRPC binding is turned off"), "{e}"),
        Ok(_) => panic!("a card declaring gRPC with gRPC off"),
    }
    // ... unless the host serves gRPC itself.
    assert!(A2aServer::new(
        Memory::default(),
        card,
        no_grpc.with_external_binding("GRPC")
    )
    .is_ok());
    // Unless the host serves it itself (a custom transport, spec 12).
    let mut card = card_for(&served);
    card.supported_interfaces
        .push(AgentInterface::new("stdio:", "json-lines", "1.0"));
    let external = served.clone().with_external_binding("json-lines");
    assert!(A2aServer::new(Memory::default(), card, external).is_ok());
    let e = refused(AgentInterface::new(
        "https://a.example/rpc",
        "JSONRPC",
        "1.1",
    ));
    assert!(
        e.contains("version 1.1 is not among the versions served"),
        "{e}"
    );
    let e = refused(AgentInterface::new("a.example/rpc", "JSONRPC", "1.0"));
    assert!(e.contains("\"a.example/rpc\""), "{e}");
    let off = ServerConfig::new().without_rest();
    let card = card_for(&ServerConfig::new());
    assert!(matches!(
        A2aServer::new(Memory::default(), card, off),
        Err(ConfigError::InterfaceNotServed { .. })
    ));
    // Host, scheme and a final `/` of the base path are not the server's.
    let mut card = card_for(&served);
    card.supported_interfaces = vec![
        AgentInterface::new("http://proxy.example:8080/rpc", "JSONRPC", "1.0.3"),
        AgentInterface::new("https://other.example/v1/", "HTTP+JSON", "1.0"),
    ];
    assert!(A2aServer::new(Memory::default(), card.clone(), served.clone()).is_ok());

    // Behind a proxy that strips a prefix, the URLs carry it.
    card.supported_interfaces = vec![
        AgentInterface::new("https://a.example/a2a/rpc", "JSONRPC", "1.0"),
        AgentInterface::new("https://a.example/a2a/v1", "HTTP+JSON", "1.0"),
    ];
    let behind = served.clone().with_public_path_prefix("/a2a/");
    assert!(A2aServer::new(Memory::default(), card.clone(), behind).is_ok());
    let e = A2aServer::new(Memory::default(), card, served.clone()).unwrap_err();
    assert!(e.to_string().contains("not at \"/a2a/rpc\""), "{e}");

    // A card discovery would reject is never served (spec 4.4.1).
    let mut card = card_for(&served);
    card.skills.clear();
    card.description.clear();
    match A2aServer::new(Memory::default(), card, served) {
        Err(ConfigError::InvalidCard(v)) => {
            let fields: Vec<&str> = v.iter().map(|v| v.field.as_str()).collect();
            assert_eq!(fields, ["description", "skills"]);
        }
        other => panic!("not refused: {other:?}"),
    }
}

fn arb_method() -> impl Strategy<Value = Method> {
    prop_oneof![
        Just(Method::GET),
        Just(Method::POST),
        Just(Method::DELETE),
        Just(Method::PUT),
        Just(Method::HEAD),
        Just(Method::OPTIONS),
    ]
}

fn arb_path() -> impl Strategy<Value = String> {
    let seg = prop_oneof![
        Just("tasks".to_owned()),
        Just("message:send".to_owned()),
        Just("message:stream".to_owned()),
        Just("pushNotificationConfigs".to_owned()),
        Just("extendedAgentCard".to_owned()),
        Just("t:cancel".to_owned()),
        Just("t:subscribe".to_owned()),
        Just("%FF".to_owned()),
        Just("%".to_owned()),
        Just(".well-known".to_owned()),
        "[a-z0-9:%.]{0,6}",
    ];
    (
        prop::collection::vec(seg, 0..6),
        prop::option::of("[a-zA-Z0-9=&%+,:-]{0,30}"),
    )
        .prop_map(|(segs, q)| {
            let mut p = format!("/{}", segs.join("/"));
            if let Some(q) = q {
                p.push('?');
                p.push_str(&q);
            }
            p
        })
}

fn arb_body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        Just(br#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}"#.to_vec()),
        Just(br#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hold"}]}}"#.to_vec()),
        Just(br#"{"jsonrpc":"2.0","id":[],"method":1}"#.to_vec()),
        prop::collection::vec(any::<u8>(), 0..64),
        "\\PC{0,64}".prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Whatever arrives, the answer is a response with a status, and every
    /// error has a non-empty JSON body in the binding's shape.
    #[test]
    fn any_request_gets_a_well_formed_answer(
        method in arb_method(),
        path in arb_path(),
        body in arb_body(),
        version in prop::option::of(prop_oneof![Just("1.0"), Just("0.3"), Just("x")]),
        ct in prop::option::of(prop_oneof![Just("application/json"), Just("text/plain")]),
    ) {
        let server = memory_server();
        let Ok(uri) = http::Uri::try_from(path.as_str()) else { return Ok(()); };
        let mut req = Request::builder().method(method.clone()).uri(uri);
        if let Some(v) = version { req = req.header("a2a-version", v); }
        if let Some(ct) = ct { req = req.header("content-type", ct); }
        let a = send(&server, req.body(Bytes::from(body)).unwrap());
        if a.status.is_success() || a.status == 304 {
            return Ok(());
        }
        prop_assert!(a.status.as_u16() >= 400, "{}", a.status);
        prop_assert!(!a.body.is_empty(), "empty error body for {method} {path}");
        let v: serde_json::Value = serde_json::from_slice(&a.body).unwrap();
        prop_assert!(v["error"].is_object(), "{v}");
        if v.get("jsonrpc").is_some() {
            prop_assert!(v["error"]["code"].is_i64());
        } else {
            prop_assert_eq!(v["error"]["code"].as_u64(), Some(u64::from(a.status.as_u16())));
        }
    }
}
