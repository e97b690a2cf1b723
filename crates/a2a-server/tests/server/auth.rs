//! Authentication (spec 7.4, 3.3.2, 13.1): 401 with challenges, 403, and
//! the check before anything reveals whether a task exists.

use a2a_server::{
    A2aServer, AnyOf, ApiKeyAuth, AuthOutcome, AuthRequest, Authenticator, BasicAuth, BearerAuth,
    BoxFuture, Principal, ServerConfig,
};
use a2a_types::{APIKeySecurityScheme, AgentCard, HTTPAuthSecurityScheme, SecurityRequirement};
use bytes::Bytes;
use http::{Method, Request};
use serde_json::json;

use crate::support::*;

/// A card requiring one of three schemes.
fn secured_card() -> AgentCard {
    let mut card = full_card();
    card.security_schemes.insert(
        "apiKey".into(),
        APIKeySecurityScheme {
            location: "header".into(),
            name: "X-API-Key".into(),
            ..Default::default()
        }
        .into(),
    );
    card.security_schemes.insert(
        "basic".into(),
        HTTPAuthSecurityScheme {
            scheme: "basic".into(),
            ..Default::default()
        }
        .into(),
    );
    for scheme in ["bearer", "apiKey", "basic"] {
        let mut req = SecurityRequirement::default();
        req.schemes.insert(scheme.into(), Default::default());
        card.security_requirements.push(req);
    }
    card
}

/// Denies the principal `mallory`.
struct DenyMallory<A>(A);
impl<A: Authenticator> Authenticator for DenyMallory<A> {
    fn authenticate<'a>(&'a self, request: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        Box::pin(async move {
            match self.0.authenticate(request).await {
                AuthOutcome::Authenticated(p) if p.id == "mallory" => {
                    AuthOutcome::Forbidden("this caller may not use the agent".into())
                }
                other => other,
            }
        })
    }
}

fn secured_server() -> A2aServer<Memory> {
    let card = secured_card();
    let auth = AnyOf::new()
        .with(
            BearerAuth::new("bearer")
                .with_token("t0k3n", "alice")
                .with_token("evil", "mallory"),
        )
        .with(
            ApiKeyAuth::from_card(&card, "apiKey")
                .unwrap()
                .with_key("k-1", "build-bot"),
        )
        .with(BasicAuth::new("basic").with_user("bob", "hunter2"));
    let config = ServerConfig::new()
        .with_authenticator(DenyMallory(auth))
        .with_realm("Memory");
    A2aServer::new(Memory::default(), card, config).unwrap()
}

const CHALLENGES: [&str; 3] = [
    r#"ApiKey realm="Memory", in="header", name="X-API-Key""#,
    r#"Basic realm="Memory""#,
    r#"Bearer realm="Memory""#,
];

#[test]
fn unauthenticated_calls_get_401_with_one_challenge_per_scheme() {
    let server = secured_server();
    for creds in [
        &[][..],
        &[("authorization", "Bearer wrong")][..],
        &[("x-api-key", "nope")][..],
        &[("authorization", "Basic Ym9iOndyb25n")][..], // bob:wrong
        &[("authorization", "Basic %%%")][..],
    ] {
        let a = rpc(&server, "GetTask", json!({"id": "t"}), creds);
        assert_eq!(a.status, 401, "{creds:?}");
        assert_eq!(a.header_all("www-authenticate"), CHALLENGES);
        assert_eq!(rpc_error(&a), (-32090, "UNAUTHENTICATED".into()));
        assert_eq!(a.json()["id"], 7, "the JSON-RPC id is echoed");

        let b = rest(&server, Method::GET, "/tasks/t", None, creds);
        assert_eq!(b.status, 401, "{creds:?}");
        assert_eq!(b.header_all("www-authenticate"), CHALLENGES);
        assert_eq!(rest_error(&b), (401, "UNAUTHENTICATED".into()));
        assert_eq!(b.json()["error"]["status"], "UNAUTHENTICATED");
    }
    assert!(
        server.service().seen().is_empty(),
        "no call reached the handler"
    );
}

#[test]
fn every_builtin_scheme_authenticates() {
    let server = secured_server();
    for (creds, id, scheme) in [
        (("authorization", "Bearer t0k3n"), "alice", "bearer"),
        (("x-api-key", "k-1"), "build-bot", "apiKey"),
        (("authorization", "Basic Ym9iOmh1bnRlcjI="), "bob", "basic"), // bob:hunter2
    ] {
        let a = rpc(
            &server,
            "SendMessage",
            json!({"message": user_message("m", "hi")}),
            &[creds],
        );
        assert!(result(&a)["task"].is_object());
        let b = rest(&server, Method::GET, "/tasks", None, &[creds]);
        assert!(ok(&b)["tasks"].is_array());
        let seen = server.service().seen();
        let last = seen.last().unwrap();
        assert_eq!(last.principal, Some(Principal::new(id, scheme)));
    }
}

#[test]
fn forbidden_callers_get_403_without_challenges() {
    let server = secured_server();
    let creds: Headers<'_> = &[("authorization", "Bearer evil")];
    let a = rpc(&server, "GetTask", json!({"id": "t"}), creds);
    assert_eq!(a.status, 403);
    assert!(a.header("www-authenticate").is_none());
    assert_eq!(rpc_error(&a), (-32091, "PERMISSION_DENIED".into()));
    assert_eq!(
        a.json()["error"]["message"],
        "this caller may not use the agent"
    );
    let b = rest(&server, Method::GET, "/tasks/t", None, creds);
    assert_eq!(b.status, 403);
    assert_eq!(rest_error(&b), (403, "PERMISSION_DENIED".into()));
}

#[test]
fn authentication_runs_before_anything_reveals_a_task() {
    let server = secured_server();
    let alice: Headers<'_> = &[("authorization", "Bearer t0k3n")];
    let created = rpc(
        &server,
        "SendMessage",
        json!({"message": user_message("m", "hold")}),
        alice,
    );
    assert_eq!(result(&created)["task"]["id"], "task-1");

    // Unauthenticated: the existing task and a missing one answer alike.
    for (method, params, rest_method, path, body) in [
        (
            "GetTask",
            json!({"id": "task-1"}),
            Method::GET,
            "/tasks/task-1",
            None,
        ),
        (
            "GetTask",
            json!({"id": "ghost"}),
            Method::GET,
            "/tasks/ghost",
            None,
        ),
        (
            "CancelTask",
            json!({"id": "task-1"}),
            Method::POST,
            "/tasks/task-1:cancel",
            None,
        ),
        (
            "CancelTask",
            json!({"id": "ghost"}),
            Method::POST,
            "/tasks/ghost:cancel",
            None,
        ),
        (
            "SubscribeToTask",
            json!({"id": "task-1"}),
            Method::GET,
            "/tasks/task-1:subscribe",
            None,
        ),
        (
            "SubscribeToTask",
            json!({"id": "ghost"}),
            Method::GET,
            "/tasks/ghost:subscribe",
            None,
        ),
        (
            "ListTaskPushNotificationConfigs",
            json!({"taskId": "task-1"}),
            Method::GET,
            "/tasks/task-1/pushNotificationConfigs",
            None,
        ),
        (
            "ListTaskPushNotificationConfigs",
            json!({"taskId": "ghost"}),
            Method::GET,
            "/tasks/ghost/pushNotificationConfigs",
            None,
        ),
    ] {
        let a = rpc(&server, method, params, &[]);
        assert_eq!(a.status, 401, "{method}");
        assert_eq!(
            a.json()["error"]["message"],
            "authentication required",
            "{method}: nothing about the task"
        );
        let b = rest(&server, rest_method, path, body, &[]);
        assert_eq!(b.status, 401, "{path}");
        assert_eq!(b.json()["error"]["message"], "authentication required");
    }
    assert_eq!(
        server.service().seen().len(),
        1,
        "only alice's call reached the handler"
    );
}

#[test]
fn a_principal_from_host_middleware_is_trusted() {
    let server = secured_server();
    let mut req = Request::get("/tasks")
        .header("a2a-version", "1.0")
        .body(Bytes::new())
        .unwrap();
    req.extensions_mut().insert(Principal::new("carol", "sso"));
    let a = send(&server, req);
    assert_eq!(a.status, 200);
    assert_eq!(
        server.service().seen()[0].principal,
        Some(Principal::new("carol", "sso"))
    );
}

#[test]
fn without_an_authenticator_a_secured_card_refuses_everyone() {
    let server = A2aServer::new(Memory::default(), secured_card(), ServerConfig::new()).unwrap();
    let a = rest(
        &server,
        Method::GET,
        "/tasks",
        None,
        &[("authorization", "Bearer t0k3n")],
    );
    assert_eq!(a.status, 401);
    // The realm defaults to the card's name.
    assert!(a
        .header_all("www-authenticate")
        .contains(&r#"Basic realm="Memory agent""#.to_owned()));
}

#[test]
fn a_card_allowing_anonymous_lets_anonymous_in_but_refuses_bad_credentials() {
    let mut card = secured_card();
    card.security_requirements
        .push(SecurityRequirement::default());
    let config = ServerConfig::new()
        .with_authenticator(BearerAuth::new("bearer").with_token("t0k3n", "alice"));
    let server = A2aServer::new(Memory::default(), card, config).unwrap();
    assert_eq!(rest(&server, Method::GET, "/tasks", None, &[]).status, 200);
    assert_eq!(
        rest(
            &server,
            Method::GET,
            "/tasks",
            None,
            &[("authorization", "Bearer bad")]
        )
        .status,
        401
    );
}

/// An authenticator that panics.
struct Panicky;
impl Authenticator for Panicky {
    fn authenticate<'a>(&'a self, _: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        Box::pin(async { panic!("the test authenticator panics on purpose") })
    }
}

#[test]
fn a_panicking_authenticator_is_an_internal_error() {
    let config = ServerConfig::new().with_authenticator(Panicky);
    let server = A2aServer::new(Memory::default(), full_card(), config).unwrap();
    let b = rest(&server, Method::GET, "/tasks", None, &[]);
    assert_eq!(b.status, 500);
    assert_eq!(rest_error(&b).1, "INTERNAL_ERROR");
    let a = rpc(&server, "ListTasks", json!({}), &[]);
    assert_eq!(a.status, 200);
    assert_eq!(rpc_error(&a).0, -32603);
}
