//! Media types (spec 9.1, 11.1) by negotiation, the input-mode check
//! (spec 3.3.2) and the caching headers of both cards (spec 8.6).

use std::time::{Duration, UNIX_EPOCH};

use a2a_server::{A2aServer, ServerConfig};
use bytes::Bytes;
use http::{Method, Request};
use serde_json::json;

use crate::support::*;

const AUTH: Headers<'static> = &[("authorization", "Bearer t0k3n")];

fn server_with(config: ServerConfig) -> A2aServer<Memory> {
    let config = config
        .with_authenticator(a2a_server::BearerAuth::new("bearer").with_token("t0k3n", "alice"));
    A2aServer::new(Memory::default(), full_card(), config).unwrap()
}

#[test]
fn http_json_answers_the_media_type_the_client_accepts() {
    let server = memory_server();
    let accept_json: Headers<'_> = &[
        ("authorization", "Bearer t0k3n"),
        ("accept", "application/json"),
    ];
    let a = rest(&server, Method::GET, "/tasks", None, accept_json);
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("application/json"));
    // Errors too.
    let a = rest(&server, Method::GET, "/tasks/ghost", None, accept_json);
    assert_eq!(a.status, 404);
    assert_eq!(a.header("content-type"), Some("application/json"));
    let a = rest(&server, Method::PUT, "/tasks/ghost", None, accept_json);
    assert_eq!(a.status, 405);
    assert_eq!(a.header("content-type"), Some("application/json"));
    // Otherwise application/a2a+json (spec 11.1).
    for accept in [
        None,
        Some("*/*"),
        Some("application/a2a+json, application/json"),
    ] {
        let mut h = vec![("authorization", "Bearer t0k3n")];
        h.extend(accept.map(|a| ("accept", a)));
        let a = rest(&server, Method::GET, "/tasks", None, &h);
        assert_eq!(
            a.header("content-type"),
            Some("application/a2a+json"),
            "{accept:?}"
        );
    }
}

#[test]
fn parts_the_card_does_not_accept_are_refused_when_asked() {
    let mut video = user_message("m-1", "hi");
    video["parts"]
        .as_array_mut()
        .unwrap()
        .push(json!({"raw": "AAAA", "mediaType": "video/mp4"}));
    let params = json!({"message": video});
    // Off by default: the handler sees it.
    let a = rpc(&memory_server(), "SendMessage", params.clone(), AUTH);
    assert!(a.json().get("result").is_some(), "{}", a.json());

    let server = server_with(ServerConfig::new().with_input_mode_check(true));
    let a = rpc(&server, "SendMessage", params.clone(), AUTH);
    assert_eq!(rpc_error(&a), (-32005, "CONTENT_TYPE_NOT_SUPPORTED".into()));
    let message = a.json()["error"]["message"].as_str().unwrap().to_owned();
    assert!(
        message.contains("message.parts[1]") && message.contains("video/mp4"),
        "{message}"
    );
    assert_eq!(violations(&a), ["message.parts[1]"]);
    assert!(server.service().seen().is_empty());
    let a = rest(&server, Method::POST, "/message:send", Some(params), AUTH);
    assert_eq!(rest_error(&a), (400, "CONTENT_TYPE_NOT_SUPPORTED".into()));
    let a = rpc(
        &server,
        "SendMessage",
        json!({"message": user_message("m-2", "hi")}),
        AUTH,
    );
    assert!(a.json().get("result").is_some());
}

#[test]
fn the_card_has_last_modified_and_answers_if_modified_since() {
    let at = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    let server = server_with(ServerConfig::new().with_card_last_modified(at));
    let get = |h: Option<&str>| {
        let mut req = Request::get("/.well-known/agent-card.json");
        if let Some(h) = h {
            req = req.header("if-modified-since", h);
        }
        send(&server, req.body(Bytes::new()).unwrap())
    };
    let a = get(None);
    assert_eq!(a.status, 200);
    assert_eq!(
        a.header("last-modified"),
        Some("Tue, 14 Nov 2023 22:13:20 GMT")
    );
    let a = get(Some("Tue, 14 Nov 2023 22:13:20 GMT"));
    assert_eq!(a.status, 304);
    assert!(a.body.is_empty());
    assert_eq!(get(Some("Tue, 14 Nov 2023 22:13:19 GMT")).status, 200);
    // The 405 is InvalidRequestError, not NOT_FOUND.
    let a = send(
        &server,
        Request::post("/.well-known/agent-card.json")
            .body(Bytes::new())
            .unwrap(),
    );
    assert_eq!(a.status, 405);
    assert_eq!(a.json()["error"]["status"], "INVALID_ARGUMENT");
}

#[test]
fn the_extended_card_has_caching_headers() {
    let server = memory_server();
    let a = rest(&server, Method::GET, "/extendedAgentCard", None, AUTH);
    assert_eq!(a.status, 200, "{:?}", a.body);
    let etag = a.header("etag").unwrap().to_owned();
    assert_eq!(a.header("cache-control"), Some("private, max-age=300"));
    assert_eq!(a.header("vary"), Some("Authorization"));
    let h: Headers<'_> = &[("authorization", "Bearer t0k3n"), ("if-none-match", &etag)];
    let a = rest(&server, Method::GET, "/extendedAgentCard", None, h);
    assert_eq!(a.status, 304);
    assert!(a.body.is_empty());
}
