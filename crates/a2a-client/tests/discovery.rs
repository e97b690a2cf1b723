//! Discovery (spec 8.2, 8.3, 8.6): fetching, validating and caching the
//! agent card, and choosing the interface, against scripted responses.

// Most cards here offer gRPC, whose tests need the `grpc` feature; without
// it their helpers go unused.
#![cfg_attr(not(feature = "grpc"), allow(unused))]

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use a2a_client::{
    discover, www_authenticate, A2aService, Binding, CallContext, CardResolver, ClientFailure,
    Discovered, DiscoveryError, HttpError, Preferences, SelectionOrder,
};
use a2a_types::{AgentCard, ErrorKind, GetTaskRequest};
use serde_json::{json, Value};
use support::{block_on, header, request_json, Scripted};

/// The sample card of spec 8.5 (JSONRPC, GRPC, HTTP+JSON, in that order).
const SAMPLE: &str =
    include_str!("../../a2a-types/tests/vectors/valid/8.5-sample-agent-card.AgentCard.json");

fn card_with(interfaces: Value) -> Value {
    let mut card: Value = serde_json::from_str(SAMPLE).unwrap();
    card["supportedInterfaces"] = interfaces;
    card
}

const JSON: [(&str, &str); 1] = [("content-type", "application/json")];

fn task_body() -> String {
    json!({"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}).to_string()
}

#[test]
fn discovers_the_sample_card_and_talks_to_its_first_interface() {
    let client = Scripted::new();
    client.push_body(200, &JSON, SAMPLE);
    let prefs = Preferences::new();
    let found = block_on(discover(
        Arc::clone(&client),
        "https://georoute-agent.example.com",
        &prefs,
    ))
    .unwrap();
    assert_eq!(found.card.name, "GeoSpatial Route Planner Agent");
    assert_eq!(found.interface.protocol_binding, "JSONRPC");
    assert_eq!(found.transport.binding(), Binding::JsonRpc);
    assert_eq!(
        found.transport.url(),
        "https://georoute-agent.example.com/a2a/v1"
    );
    assert!(format!("{found:?}").contains("GeoSpatial"));

    let req = client.last();
    assert_eq!(req.method(), http::Method::GET);
    assert_eq!(
        req.uri(),
        "https://georoute-agent.example.com/.well-known/agent-card.json"
    );
    assert_eq!(header(&req, "accept"), Some("application/json"));
    assert_eq!(header(&req, "a2a-version"), Some("1.0"));

    // HTTP+JSON only: the third entry.
    client.push_body(200, &JSON, SAMPLE);
    let rest = Preferences::new().with_bindings([Binding::HttpJson]);
    let found = block_on(discover(
        Arc::clone(&client),
        "https://georoute-agent.example.com",
        &rest,
    ))
    .unwrap();
    assert_eq!(
        found.transport.url(),
        "https://georoute-agent.example.com/a2a/json"
    );
}

// Its card offers gRPC, which only the `grpc` feature speaks.
#[test]
#[cfg(feature = "grpc")]
fn the_card_order_decides_and_the_tenant_goes_into_every_call() {
    let card = card_with(json!([
        {"url": "grpc.example:443", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
        {"url": "https://a.example/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": "acme"},
        {"url": "https://a.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0", "tenant": "acme-rpc"},
    ]))
    .to_string();

    let client = Scripted::new();
    client.push_body(200, &JSON, &card);
    let found = block_on(discover(
        Arc::clone(&client),
        "https://a.example/",
        &Preferences::new(),
    ))
    .unwrap();
    assert_eq!(found.transport.binding(), Binding::Grpc, "the card's first");
    assert_eq!(found.transport.url(), "https://grpc.example:443/");
    client.push_body(200, &JSON, &card);
    let found = block_on(discover(
        Arc::clone(&client),
        "https://a.example/",
        &Preferences::new().with_bindings(Binding::JSON),
    ))
    .unwrap();
    assert_eq!(
        found.transport.binding(),
        Binding::HttpJson,
        "first usable entry of the card"
    );
    assert_eq!(found.transport.tenant(), Some("acme"));
    client.push_body(200, &JSON, &task_body());
    block_on(
        found
            .transport
            .get_task(&CallContext::new(), GetTaskRequest::new("t1")),
    )
    .unwrap();
    assert_eq!(client.last().uri(), "https://a.example/rest/acme/tasks/t1");

    // The caller's order, on request.
    client.push_body(200, &JSON, &card);
    let prefs = Preferences::new().with_order(SelectionOrder::Caller);
    let found = block_on(discover(Arc::clone(&client), "https://a.example", &prefs)).unwrap();
    assert_eq!(found.transport.binding(), Binding::JsonRpc);
    client.push_jsonrpc_result(serde_json::from_str(&task_body()).unwrap());
    block_on(
        found
            .transport
            .get_task(&CallContext::new(), GetTaskRequest::new("t1")),
    )
    .unwrap();
    assert_eq!(
        request_json(&client.last())["params"],
        json!({"tenant": "acme-rpc", "id": "t1"})
    );
}

// Its card offers gRPC, which only the `grpc` feature speaks.
#[test]
#[cfg(feature = "grpc")]
fn a_card_offering_nothing_usable_fails_at_discovery() {
    let card = card_with(json!([
        {"url": "grpc.example", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
        {"url": "https://a.example/v03", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
        {"url": "wss://a.example/ws", "protocolBinding": "https://example.com/bindings/websocket/v1", "protocolVersion": "1.0"},
    ]))
    .to_string();
    let client = Scripted::new();
    client.push_body(200, &JSON, &card);
    // A caller accepting 1.0 only passes over the 0.3 interface.
    let prefs = Preferences::new().with_versions([a2a_client::ProtocolVersion::V1_0]);
    let err = block_on(discover(Arc::clone(&client), "https://a.example", &prefs)).unwrap_err();
    let DiscoveryError::NoCompatibleInterface(details) = &err else {
        panic!("{err}")
    };
    assert_eq!(details.offered().count(), 3);
    let text = err.to_string();
    for want in [
        "speaks JSONRPC, HTTP+JSON, GRPC at A2A 1.0",
        "GRPC 1.0 at grpc.example (a gRPC interface URL without a scheme must be host:port)",
        "JSONRPC 0.3 at https://a.example/v03 (protocol version not accepted)",
        "websocket/v1 1.0 at wss://a.example/ws (binding not spoken by this client)",
    ] {
        assert!(text.contains(want), "{want:?} not in {text}");
    }
    assert_eq!(
        client.requests().len(),
        1,
        "nothing but the card was fetched"
    );
}

/// The 0.3 spec's sample card (0.3 spec 5.7), with `protocolVersion`
/// `0.3.0` where the sample still says `0.2.9`: a pure 0.3 card, no
/// `supportedInterfaces`. It used to fail discovery as invalid.
const V03_SAMPLE: &str = include_str!("vectors/v0_3-sample-agent-card.json");

// Its card offers gRPC, which only the `grpc` feature speaks.
#[test]
#[cfg(feature = "grpc")]
fn a_0_3_card_is_discovered_and_its_interface_speaks_0_3() {
    let client = Scripted::new();
    client.push_body(200, &JSON, V03_SAMPLE);
    let found = block_on(discover(
        Arc::clone(&client),
        "https://georoute-agent.example.com",
        &Preferences::new(),
    ))
    .unwrap();
    let offered: Vec<(&str, &str, &str)> = found
        .card
        .supported_interfaces
        .iter()
        .map(|i| {
            (
                i.url.as_str(),
                i.protocol_binding.as_str(),
                i.protocol_version.as_str(),
            )
        })
        .collect();
    assert_eq!(
        offered,
        [
            (
                "https://georoute-agent.example.com/a2a/v1",
                "JSONRPC",
                "0.3"
            ),
            ("https://georoute-agent.example.com/a2a/grpc", "GRPC", "0.3"),
            (
                "https://georoute-agent.example.com/a2a/json",
                "HTTP+JSON",
                "0.3"
            ),
        ]
    );
    assert_eq!(found.card.name, "GeoSpatial Route Planner Agent");
    assert_eq!(found.interface.protocol_binding, "JSONRPC");
    assert_eq!(
        found.transport.version(),
        Some(a2a_client::ProtocolVersion::V0_3)
    );
    // The first call goes out in 0.3.
    client.push_body(
        200,
        &JSON,
        &json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "task", "id": "t1",
            "contextId": "c1", "status": {"state": "working"}}})
        .to_string(),
    );
    let task = block_on(
        found
            .transport
            .get_task(&CallContext::new(), GetTaskRequest::new("t1")),
    )
    .unwrap();
    assert_eq!(task.id, "t1");
    let req = client.last();
    assert_eq!(request_json(&req)["method"], "tasks/get");
    assert_eq!(header(&req, "a2a-version"), Some("0.3"));
    // gRPC at 0.3 is not spoken: a caller wanting gRPC only finds nothing.
    client.push_body(200, &JSON, V03_SAMPLE);
    let grpc = Preferences::new().with_bindings([Binding::Grpc]);
    let err = block_on(discover(
        Arc::clone(&client),
        "https://georoute-agent.example.com",
        &grpc,
    ))
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("protocol version not spoken over this binding"),
        "{err}"
    );
}

#[test]
fn bad_cards_and_failed_fetches_are_discovery_errors() {
    let prefs = Preferences::new();
    let run = |status: u16, headers: &[(&str, &str)], body: &str| {
        let client = Scripted::new();
        client.push_body(status, headers, body);
        block_on(discover(client, "https://a.example", &prefs)).unwrap_err()
    };

    let mut missing: Value = serde_json::from_str(SAMPLE).unwrap();
    missing.as_object_mut().unwrap().remove("name");
    missing["skills"] = json!([]);
    match run(200, &JSON, &missing.to_string()) {
        DiscoveryError::InvalidCard(v) => {
            let fields: Vec<&str> = v.iter().map(|v| v.field.as_str()).collect();
            assert_eq!(fields, ["name", "skills"]);
        }
        other => panic!("{other}"),
    }
    match run(200, &JSON, r#"{"name": 5}"#) {
        DiscoveryError::Decode(e) => assert_eq!(e.path(), "name"),
        other => panic!("{other}"),
    }
    match run(200, &[("content-type", "text/html")], "<html></html>") {
        DiscoveryError::Fetch(e) => assert_eq!(e.kind(), ErrorKind::InvalidAgentResponse),
        other => panic!("{other}"),
    }
    match run(
        404,
        &[("content-type", "text/html")],
        "<html>Not Found</html>",
    ) {
        DiscoveryError::Fetch(e) => assert_eq!(e.http_status(), 404),
        other => panic!("{other}"),
    }
    match run(401, &[("www-authenticate", "Bearer realm=\"cards\"")], "") {
        DiscoveryError::Fetch(e) => {
            assert_eq!(e.kind(), ErrorKind::Unauthenticated);
            assert_eq!(www_authenticate(&e), Some("Bearer realm=\"cards\""));
        }
        other => panic!("{other}"),
    }
    let client = Scripted::new();
    client.push_err(HttpError::Connection("refused".into()));
    match block_on(discover(client, "https://a.example", &prefs)).unwrap_err() {
        DiscoveryError::Fetch(e) => {
            assert_eq!(ClientFailure::of(&e), Some(ClientFailure::Connection))
        }
        other => panic!("{other}"),
    }
    assert!(matches!(
        block_on(discover(Scripted::new(), "agent.example", &prefs)).unwrap_err(),
        DiscoveryError::InvalidUrl(_)
    ));

    // Oversized cards are not read.
    let client = Scripted::new();
    client.push_body(200, &JSON, SAMPLE);
    let mut resolver = CardResolver::new("https://a.example")
        .unwrap()
        .with_max_card_size(100);
    match block_on(resolver.resolve(&*client, Instant::now())).unwrap_err() {
        DiscoveryError::Fetch(e) => {
            assert_eq!(ClientFailure::of(&e), Some(ClientFailure::ResponseTooLarge))
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_card_from_elsewhere_is_validated_and_selected_too() {
    let card: AgentCard = serde_json::from_str(SAMPLE).unwrap();
    let found = Discovered::from_card(Scripted::new(), card.clone(), &Preferences::new()).unwrap();
    assert_eq!(
        found.interface.url,
        "https://georoute-agent.example.com/a2a/v1"
    );
    let mut bad = card;
    bad.version.clear();
    assert!(matches!(
        Discovered::from_card(Scripted::new(), bad, &Preferences::new()),
        Err(DiscoveryError::InvalidCard(_))
    ));
}

#[test]
fn cards_are_cached_and_revalidated() {
    let client = Scripted::new();
    let t0 = Instant::now();
    let mut resolver = CardResolver::new("https://a.example").unwrap();
    assert!(resolver.cached().is_none());

    client.push_body(
        200,
        &[
            ("content-type", "application/json"),
            ("etag", "\"v1\""),
            ("cache-control", "max-age=60"),
        ],
        SAMPLE,
    );
    let card = block_on(resolver.resolve(&*client, t0)).unwrap();
    assert_eq!(card.version, "1.2.0");
    assert_eq!(header(&client.last(), "if-none-match"), None);

    // Fresh: no request.
    block_on(resolver.resolve(&*client, t0 + Duration::from_secs(30))).unwrap();
    assert_eq!(client.requests().len(), 1);

    // Stale: a conditional request; 304 keeps the card and its new lifetime.
    client.push(
        304,
        &[("cache-control", "max-age=120"), ("etag", "\"v1\"")],
        vec![],
    );
    let again = block_on(resolver.resolve(&*client, t0 + Duration::from_secs(61))).unwrap();
    assert_eq!(again, card);
    assert_eq!(client.requests().len(), 2);
    assert_eq!(header(&client.last(), "if-none-match"), Some("\"v1\""));
    block_on(resolver.resolve(&*client, t0 + Duration::from_secs(150))).unwrap();
    assert_eq!(client.requests().len(), 2, "fresh for 120 s after the 304");

    // A changed card replaces the held one.
    let mut changed: Value = serde_json::from_str(SAMPLE).unwrap();
    changed["version"] = json!("1.3.0");
    client.push_body(
        200,
        &[("content-type", "application/json"), ("etag", "\"v2\"")],
        &changed.to_string(),
    );
    let newer = block_on(resolver.resolve(&*client, t0 + Duration::from_secs(200))).unwrap();
    assert_eq!(newer.version, "1.3.0");
    // No Cache-Control: the default lifetime, zero, revalidates each time.
    client.push(304, &[], vec![]);
    block_on(resolver.resolve(&*client, t0 + Duration::from_secs(200))).unwrap();
    assert_eq!(header(&client.last(), "if-none-match"), Some("\"v2\""));
    // A 304 without validators keeps the held ones.
    client.push(304, &[], vec![]);
    block_on(resolver.resolve(&*client, t0 + Duration::from_secs(201))).unwrap();
    assert_eq!(header(&client.last(), "if-none-match"), Some("\"v2\""));

    // no-store keeps nothing; a default lifetime applies without headers.
    let client = Scripted::new();
    let mut resolver = CardResolver::new("https://a.example")
        .unwrap()
        .with_default_max_age(Duration::from_secs(10));
    client.push_body(
        200,
        &[
            ("content-type", "application/json"),
            ("cache-control", "no-store"),
        ],
        SAMPLE,
    );
    block_on(resolver.resolve(&*client, t0)).unwrap();
    assert!(resolver.cached().is_none());
    client.push_body(200, &JSON, SAMPLE);
    block_on(resolver.resolve(&*client, t0)).unwrap();
    block_on(resolver.resolve(&*client, t0 + Duration::from_secs(9))).unwrap();
    assert_eq!(client.requests().len(), 2);
    resolver.clear();
    assert!(resolver.cached().is_none());

    // Extra headers (credentials) go with the fetch.
    let client = Scripted::new();
    let mut h = http::HeaderMap::new();
    h.insert("authorization", "Bearer t".parse().unwrap());
    let mut resolver = CardResolver::for_card_url("https://registry.example/cards/geo.json")
        .unwrap()
        .with_headers(h);
    client.push_body(200, &JSON, SAMPLE);
    block_on(resolver.resolve(&*client, t0)).unwrap();
    assert_eq!(
        client.last().uri(),
        "https://registry.example/cards/geo.json"
    );
    assert_eq!(header(&client.last(), "authorization"), Some("Bearer t"));
}
