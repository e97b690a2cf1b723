//! The agent card: discovery (8.1, 8.2), interface declaration (8.3.1,
//! 5.2), caching (8.6), protocol version format (3.6) and signatures
//! (8.4).

use a2a_signing::{JwkSet, Policy, ProtectedHeader, Verification, Verifier};
use a2a_transport::A2aService;
use a2a_types::{AgentCard, AgentInterface, SendMessageRequest, Validate};
use http::Method;
use serde_json::json;

use crate::binding::Kind;
use crate::check::{ensure, fail, Check};
use crate::context::Ctx;
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::plain_send_params;
use crate::wire::Req;

pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!(
            "card.served",
            "8.2",
            Must,
            Kind::Card,
            "the card is served at /.well-known/agent-card.json and is a valid AgentCard",
            served, tck = ["CARD-DISC-001"]
        ),
        scenario!(
            "card.interfaces",
            "8.3.1",
            Must,
            Kind::Card,
            "each declared interface answers its binding at its URL",
            interfaces, tck = ["CARD-PROTO-001", "CARD-PROTO-002"]
        ),
        scenario!(
            "card.protocol-version",
            "3.6",
            Should,
            Kind::Card,
            "interfaces declare the protocol version as Major.Minor, without a patch",
            protocol_version, tck = ["VER-CLIENT-002"]
        ),
        scenario!(
            "card.media-type",
            "8.2",
            Should,
            Kind::Card,
            "the card is served as application/json",
            media_type
        ),
        scenario!(
            "card.cache-control",
            "8.6.1",
            Should,
            Kind::Card,
            "the card carries Cache-Control with max-age",
            cache_control, tck = ["CARD-CACHE-001"]
        ),
        scenario!(
            "card.last-modified",
            "8.6.1",
            May,
            Kind::Card,
            "when the card carries Last-Modified, If-Modified-Since answers 304 (without one: not offered)",
            last_modified, tck = ["CARD-CACHE-003"]
        ),
        scenario!(
            "card.extended-caching",
            "8.6",
            Should,
            Kind::Wire(crate::binding::REST),
            "the extended card carries ETag and Cache-Control, and If-None-Match answers 304",
            extended_caching
        ),
        scenario!(
            "card.signature-verifies",
            "8.4.3",
            Should,
            Kind::Card,
            "the card's signatures verify over its RFC 8785 form without `signatures`, under the trusted or `jku` keys",
            signature_verifies, tck = ["CARD-SIGN-001", "CARD-SIGN-002"]
        ),
        scenario!(
            "card.signature-required",
            "8.4",
            Must,
            Kind::Card,
            "when a signature is required (--require-signature), the card carries one that verifies",
            signature_required
        ),
        scenario!(
            "card.etag",
            "8.6.1",
            Should,
            Kind::Card,
            "the card carries an ETag and answers If-None-Match with 304",
            etag, tck = ["CARD-CACHE-002"]
        ),
    ]
}

async fn served(cx: &Ctx<'_>) -> Check {
    let reply = cx.card_request().send(cx).await?;
    ensure(
        reply.status.as_u16() == 200,
        "200 for the card",
        reply.describe(),
    )?;
    let card: AgentCard = a2a_types::from_slice(&reply.body)
        .map_err(|e| fail("a body that decodes as an AgentCard", e))?;
    card.validate().map_err(|v| {
        let v: Vec<String> = v
            .iter()
            .map(|v| format!("{}: {}", v.field, v.description))
            .collect();
        fail("a card with every REQUIRED field", v.join("; "))
    })
}

async fn interfaces(cx: &Ctx<'_>) -> Check {
    let card = cx.card().clone();
    ensure(
        !card.supported_interfaces.is_empty(),
        "at least one supported interface",
        "none",
    )?;
    let mut problems = Vec::new();
    for iface in &card.supported_interfaces {
        let Some(binding) = a2a_transport::Binding::from_protocol_binding(&iface.protocol_binding)
        else {
            continue;
        };
        if binding == a2a_transport::Binding::Grpc {
            // gRPC is not HTTP+JSON at another address: the interface
            // (often a bare `host:port`, dialled with the card's scheme)
            // is called over gRPC by the client transport.
            if let Err(why) = grpc_interface_answers(cx, iface).await {
                problems.push(format!("GRPC at {}: {why}", iface.url));
            }
            continue;
        }
        let req = match binding {
            a2a_transport::Binding::JsonRpc => Req::new(Method::POST, iface.url.clone())
                .headers(&cx.auth_headers())
                .header("a2a-version", "1.0")
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": plain_send_params(cx)}), "application/json"),
            _ => Req::new(Method::POST, format!("{}/message:send", iface.url.trim_end_matches('/')))
                .headers(&cx.auth_headers())
                .header("a2a-version", "1.0")
                .json(&plain_send_params(cx), "application/a2a+json"),
        };
        let reply = match req.send(cx).await {
            Ok(r) => r,
            Err(crate::Stop::Fail { got, .. }) => {
                problems.push(format!(
                    "{} at {}: {got}",
                    iface.protocol_binding, iface.url
                ));
                continue;
            }
            Err(other) => return Err(other),
        };
        let ok = match binding {
            a2a_transport::Binding::JsonRpc => reply.json().ok().is_some_and(|v| {
                v.get("jsonrpc").and_then(|j| j.as_str()) == Some("2.0")
                    && v.get("result").is_some()
            }),
            _ => {
                reply.status.is_success()
                    && reply
                        .json()
                        .ok()
                        .is_some_and(|v| v.get("task").is_some() || v.get("message").is_some())
            }
        };
        if !ok {
            problems.push(format!(
                "{} at {}: {}",
                iface.protocol_binding,
                iface.url,
                reply.describe()
            ));
        }
    }
    ensure(
        problems.is_empty(),
        "a SendMessage answer (a task or a message) from every declared interface",
        problems.join("; "),
    )
}

/// Whether the gRPC interface `iface` answers `SendMessage` with a task or
/// a message, through the client transport (HTTP/2, the card's scheme for
/// a bare `host:port`); else what went wrong.
async fn grpc_interface_answers(cx: &Ctx<'_>, iface: &AgentInterface) -> Result<(), String> {
    let card_url: http::Uri = cx.target().base_url.parse().unwrap_or_default();
    let transport = match a2a_transport::HttpTransport::for_card_interface(
        std::sync::Arc::clone(&cx.target().http),
        iface,
        &card_url,
    ) {
        Some(Ok(t)) => t,
        Some(Err(e)) => return Err(e.to_string()),
        None => return Err("not a gRPC interface the client speaks".to_owned()),
    };
    let request = SendMessageRequest::new(cx.msg("hello"));
    let call_cx = cx.cx();
    match cx.within(transport.send_message(&call_cx, request)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(crate::context::describe_error(&e)),
        Err(_) => Err(format!("nothing within {:?}", cx.timing().call_timeout)),
    }
}

async fn protocol_version(cx: &Ctx<'_>) -> Check {
    ensure(
        !cx.card().supported_interfaces.is_empty(),
        "interfaces to check",
        "no card interfaces",
    )?;
    let bad: Vec<String> = cx
        .card()
        .supported_interfaces
        .iter()
        .filter(|i| {
            let parts: Vec<&str> = i.protocol_version.split('.').collect();
            parts.len() != 2
                || parts
                    .iter()
                    .any(|p| p.is_empty() || !p.chars().all(|c| c.is_ascii_digit()))
        })
        .map(|i| format!("{} {:?}", i.protocol_binding, i.protocol_version))
        .collect();
    ensure(
        bad.is_empty(),
        "protocolVersion like \"1.0\"",
        bad.join(", "),
    )
}

async fn media_type(cx: &Ctx<'_>) -> Check {
    let reply = cx.card_request().send(cx).await?;
    let mt = reply.media_type();
    ensure(
        mt == "application/json",
        "Content-Type application/json",
        format!("{mt:?}"),
    )
}

async fn cache_control(cx: &Ctx<'_>) -> Check {
    let reply = cx.card_request().send(cx).await?;
    let cc: Vec<&str> = reply
        .headers
        .get_all(http::header::CACHE_CONTROL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    ensure(
        cc.iter()
            .any(|v| v.to_ascii_lowercase().contains("max-age")),
        "Cache-Control with a max-age directive",
        format!("{cc:?}"),
    )
}

async fn etag(cx: &Ctx<'_>) -> Check {
    let reply = cx.card_request().send(cx).await?;
    let Some(tag) = reply
        .headers
        .get(http::header::ETAG)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
    else {
        return Err(fail("an ETag header on the card", "none"));
    };
    let again = cx
        .card_request()
        .header("if-none-match", &tag)
        .send(cx)
        .await?;
    ensure(
        again.status.as_u16() == 304,
        format!("304 Not Modified for If-None-Match: {tag}"),
        again.describe(),
    )?;
    ensure(again.body.is_empty(), "an empty 304 body", again.describe())?;
    let changed = cx
        .card_request()
        .header("if-none-match", "\"not-the-card\"")
        .send(cx)
        .await?;
    ensure(
        changed.status.as_u16() == 200,
        "200 with the card for a different ETag",
        changed.describe(),
    )
}

async fn last_modified(cx: &Ctx<'_>) -> Check {
    let reply = cx.card_request().send(cx).await?;
    let Some(at) = reply
        .headers
        .get(http::header::LAST_MODIFIED)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
    else {
        // Spec 8.6.1 makes Last-Modified a MAY: an agent that leaves it out
        // has not offered the feature, which is not a failure.
        return Err(crate::check::skip(
            "not offered: the card carries no Last-Modified (spec 8.6.1: MAY)",
        ));
    };
    let again = cx
        .card_request()
        .header("if-modified-since", &at)
        .send(cx)
        .await?;
    ensure(
        again.status.as_u16() == 304 && again.body.is_empty(),
        format!("an empty 304 for If-Modified-Since: {at}"),
        again.describe(),
    )?;
    let old = cx
        .card_request()
        .header("if-modified-since", "Thu, 01 Jan 1970 00:00:00 GMT")
        .send(cx)
        .await?;
    ensure(
        old.status.as_u16() == 200,
        "200 with the card for an older If-Modified-Since",
        old.describe(),
    )
}

async fn extended_caching(cx: &Ctx<'_>) -> Check {
    if cx.card().capabilities.extended_agent_card != Some(true) {
        return Err(crate::check::skip("the card declares no extended card"));
    }
    let reply = cx.rest(Method::GET, "/extendedAgentCard")?.send(cx).await?;
    ensure(
        reply.status.as_u16() == 200,
        "the extended card",
        reply.describe(),
    )?;
    let header = |name| {
        reply
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    ensure(
        header(http::header::CACHE_CONTROL).is_some_and(|c| c.contains("max-age")),
        "Cache-Control with max-age",
        reply.describe(),
    )?;
    let Some(tag) = header(http::header::ETAG) else {
        return Err(fail("an ETag on the extended card", reply.describe()));
    };
    let again = cx
        .rest(Method::GET, "/extendedAgentCard")?
        .header("if-none-match", &tag)
        .send(cx)
        .await?;
    ensure(
        again.status.as_u16() == 304,
        format!("304 for If-None-Match: {tag}"),
        again.describe(),
    )
}

/// The card's signatures checked under the target's trusted keys, or under
/// the JWKS each signature's `jku` names when the runner was given none
/// (a report of what the card claims, not a trust decision). `None` when
/// the card is unsigned.
async fn card_verification(
    cx: &Ctx<'_>,
) -> Check<Option<Result<Verification, a2a_signing::VerifyError>>> {
    let reply = cx.card_request().send(cx).await?;
    ensure(
        reply.status.as_u16() == 200,
        "200 for the card",
        reply.describe(),
    )?;
    let card: AgentCard = a2a_types::from_slice(&reply.body)
        .map_err(|e| fail("a body that decodes as an AgentCard", e))?;
    if card.signatures.is_empty() {
        return Ok(None);
    }
    let keys = match &cx.target().trusted_keys {
        Some(keys) => keys.clone(),
        None => {
            let mut keys = JwkSet::default();
            let mut problems = Vec::new();
            for s in &card.signatures {
                let Some(jku) = ProtectedHeader::decode(&s.protected)
                    .ok()
                    .and_then(|h| h.jku)
                else {
                    continue;
                };
                match a2a_signing::fetch_jwks(cx.http(), &jku).await {
                    Ok(found) => keys.extend(found),
                    Err(e) => problems.push(e.to_string()),
                }
            }
            if keys.keys.is_empty() && !problems.is_empty() {
                return Err(fail(
                    "the JWKS named by the signature's jku (or --jwks)",
                    problems.join("; "),
                ));
            }
            keys
        }
    };
    Ok(Some(
        Verifier::new(keys, Policy::default()).verify_json(&reply.body),
    ))
}

async fn signature_verifies(cx: &Ctx<'_>) -> Check {
    match card_verification(cx).await? {
        None => Err(crate::check::skip("the card is not signed (spec 8.4: MAY)")),
        Some(Ok(v)) => {
            cx.found(v.summary());
            Ok(())
        }
        Some(Err(e)) => Err(fail("a card signature that verifies (spec 8.4.3)", e)),
    }
}

async fn signature_required(cx: &Ctx<'_>) -> Check {
    if !cx.target().require_signature {
        return Err(crate::check::skip(
            "no signature required (--require-signature)",
        ));
    }
    match card_verification(cx).await? {
        None => Err(fail("a signed card", "a card without signatures")),
        Some(Ok(v)) => {
            cx.found(v.summary());
            Ok(())
        }
        Some(Err(e)) => Err(fail("a card signature that verifies (spec 8.4.3)", e)),
    }
}
