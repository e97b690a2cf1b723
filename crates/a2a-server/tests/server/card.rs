//! The public agent card at its well-known path, with caching (spec 8.2,
//! 8.6).

use a2a_server::{A2aServer, ServerConfig, AGENT_CARD_PATH};
use a2a_types::{AgentCard, SecurityRequirement};
use bytes::Bytes;
use http::{Method, Request};

use crate::support::*;

fn get(server: &A2aServer<Memory>, method: Method, headers: Headers<'_>) -> Answer {
    let mut req = Request::builder().method(method).uri(AGENT_CARD_PATH);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    send(server, req.body(Bytes::new()).unwrap())
}

#[test]
fn the_card_is_served_as_json_with_cache_headers() {
    let server = memory_server();
    let a = get(&server, Method::GET, &[]);
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("application/json"));
    assert_eq!(a.header("cache-control"), Some("public, max-age=300"));
    let etag = a.header("etag").unwrap().to_owned();
    assert!(
        etag.starts_with('"') && etag.ends_with('"') && !etag.starts_with("W/"),
        "strong: {etag}"
    );
    assert_eq!(etag, a2a_server::strong_etag(&a.body));
    let card: AgentCard = a2a_types::from_slice(&a.body).unwrap();
    assert_eq!(&card, server.card());
    // No version header is needed for discovery.
    assert_eq!(a.body, *server.card_resource().json());
}

#[test]
fn if_none_match_answers_304() {
    let server = memory_server();
    let etag = get(&server, Method::GET, &[])
        .header("etag")
        .unwrap()
        .to_owned();
    let weak = format!("W/{etag}");
    let list = format!("\"other\", {etag}");
    for header in [etag.as_str(), weak.as_str(), list.as_str(), "*"] {
        let a = get(&server, Method::GET, &[("if-none-match", header)]);
        assert_eq!(a.status, 304, "{header}");
        assert!(a.body.is_empty());
        assert_eq!(a.header("etag"), Some(etag.as_str()));
        assert_eq!(a.header("cache-control"), Some("public, max-age=300"));
    }
    for header in ["\"other\"", "garbage", "", "W/\"x\", \"y\""] {
        let a = get(&server, Method::GET, &[("if-none-match", header)]);
        assert_eq!(a.status, 200, "{header}");
        assert!(!a.body.is_empty());
    }
    // Several If-None-Match fields count together.
    let a = get(
        &server,
        Method::GET,
        &[("if-none-match", "\"a\""), ("if-none-match", etag.as_str())],
    );
    assert_eq!(a.status, 304);
}

#[test]
fn the_etag_follows_the_card() {
    let a = memory_server();
    let mut other = full_card();
    other.version = "1.0.1".into();
    let b = A2aServer::new(Memory::default(), other, ServerConfig::new()).unwrap();
    let ta = get(&a, Method::GET, &[]).header("etag").unwrap().to_owned();
    let tb = get(&b, Method::GET, &[]).header("etag").unwrap().to_owned();
    assert_ne!(ta, tb);
    assert_eq!(get(&b, Method::GET, &[("if-none-match", &ta)]).status, 200);
}

#[test]
fn head_other_methods_and_configuration() {
    let server = memory_server();
    let a = get(&server, Method::HEAD, &[]);
    assert_eq!(a.status, 200);
    assert!(a.body.is_empty());
    assert!(a.header("etag").is_some());

    let a = get(&server, Method::POST, &[]);
    assert_eq!(a.status, 405);
    assert_eq!(a.header("allow"), Some("GET, HEAD"));
    assert_eq!(a.json()["error"]["code"], 405);

    let config = ServerConfig::new().with_card_cache_control("no-cache");
    let s = A2aServer::new(Memory::default(), full_card(), config).unwrap();
    assert_eq!(
        get(&s, Method::GET, &[]).header("cache-control"),
        Some("no-cache")
    );

    let s = A2aServer::new(
        Memory::default(),
        full_card(),
        ServerConfig::new().without_card(),
    )
    .unwrap();
    assert_eq!(get(&s, Method::GET, &[]).status, 404);

    assert!(A2aServer::new(
        Memory::default(),
        full_card(),
        ServerConfig::new().with_card_cache_control("bad\nvalue")
    )
    .is_err());
}

#[test]
fn the_card_is_public_even_when_security_is_required() {
    let mut card = full_card();
    let mut req = SecurityRequirement::default();
    req.schemes.insert("bearer".into(), Default::default());
    card.security_requirements.push(req);
    let server = A2aServer::new(Memory::default(), card, ServerConfig::new()).unwrap();
    assert_eq!(get(&server, Method::GET, &[]).status, 200);
    let a = rest(&server, Method::GET, "/tasks", None, &[]);
    assert_eq!(a.status, 401);
}
