//! The agent's public and extended cards (spec 4.4, 8, 13.3).

use std::collections::BTreeMap;

use a2a_types::{
    AgentCapabilities, AgentCard, AgentInterface, AgentSkill, HTTPAuthSecurityScheme,
    SecurityRequirement, SecurityScheme, StringList,
};

use crate::config::AgentConfig;

fn skill(id: &str, name: &str, description: &str, tags: &[&str], examples: &[&str]) -> AgentSkill {
    AgentSkill {
        id: id.to_owned(),
        name: name.to_owned(),
        description: description.to_owned(),
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        examples: examples.iter().map(|e| (*e).to_owned()).collect(),
        ..AgentSkill::default()
    }
}

/// The public card.
pub(crate) fn public_card(config: &AgentConfig) -> AgentCard {
    let mut card = AgentCard {
        name: config.name.clone(),
        description: config.description.clone(),
        supported_interfaces: config.interfaces.clone(),
        version: config.version.clone(),
        capabilities: AgentCapabilities {
            streaming: Some(config.streaming),
            push_notifications: Some(config.push_notifications),
            extensions: Vec::new(),
            extended_agent_card: Some(config.bearer_scheme.is_some()),
        },
        // Data parts are read too (as their JSON text): declare them, or the
        // input-mode check refuses what the agent handles.
        default_input_modes: vec!["text/plain".to_owned(), "application/json".to_owned()],
        default_output_modes: vec!["text/plain".to_owned(), "application/json".to_owned()],
        skills: vec![skill(
            "behaviour",
            "Scripted behaviour",
            "Does what the first text part says: `echo <x>`, `stream <n> [ms]`, `input`, \
             `auth`, `slow [ms]`, `fail`, `reject`, `message <x>`; anything else is echoed.",
            &["test", "echo", "conformance"],
            &["echo hello", "stream 5", "input", "slow 500", "message hi"],
        )],
        ..AgentCard::default()
    };
    if let Some(scheme) = &config.bearer_scheme {
        card.security_schemes.insert(
            scheme.clone(),
            SecurityScheme::HttpAuth(HTTPAuthSecurityScheme {
                description: if config.bearer_format == "JWT" {
                    "A bearer JWT (RFC 7519) from the issuer given to the agent with \
                     --jwt-issuer, or a token given with --bearer"
                } else {
                    "A bearer token given to the agent with --bearer"
                }
                .to_owned(),
                scheme: "Bearer".to_owned(),
                bearer_format: config.bearer_format.clone(),
            }),
        );
        let mut schemes = BTreeMap::new();
        schemes.insert(scheme.clone(), StringList::default());
        card.security_requirements = vec![SecurityRequirement { schemes }];
    }
    card
}

/// The extended card: the public one, plus the skill that documents the
/// `tck-*` message id prefixes (spec 3.1.11: it may hold skills the
/// public card does not).
pub(crate) fn extended_card(config: &AgentConfig) -> AgentCard {
    let mut card = public_card(config);
    card.description = format!(
        "{} (extended card for authenticated callers)",
        card.description
    );
    card.skills.push(skill(
        "tck",
        "Test-kit scenarios",
        "Selected by a messageId prefix, which wins over the text: tck-complete-task, \
         tck-artifact-text, tck-artifact-file, tck-artifact-file-url, tck-artifact-data, \
         tck-message-response, tck-input-required, tck-reject-task, tck-stream-001/002/003, \
         tck-stream-ordering-001, tck-stream-artifact-text/file/chunked, \
         test-resubscribe-message-id.",
        &["tck", "conformance"],
        &[],
    ));
    card
}

/// The interfaces the agent adds when it serves the A2A 1.1 draft too
/// (`--draft-1-1`): each binding at the same URL as its 1.0 twin, with
/// protocol version 1.1, so that a client choosing by version finds them
/// (the server accepts `A2A-Version: 1.1` only where the card declares it).
#[cfg(feature = "draft-1-1")]
pub fn v1_1_interfaces(jsonrpc_url: &str, rest_url: &str, grpc_url: &str) -> [AgentInterface; 3] {
    [
        AgentInterface::new(jsonrpc_url, "JSONRPC", "1.1"),
        AgentInterface::new(rest_url, "HTTP+JSON", "1.1"),
        AgentInterface::new(grpc_url, "GRPC", "1.1"),
    ]
}

/// The interfaces the agent adds when it serves A2A 0.3 too (`--v0-3`):
/// JSONRPC then HTTP+JSON, at the same URLs as their 1.0 twins. JSON-RPC
/// comes first: the union card's `url` and `preferredTransport` are the
/// first 0.3 interface (`a2a_types::v0_3::union_card`).
pub fn v0_3_interfaces(jsonrpc_url: &str, rest_url: &str) -> [AgentInterface; 2] {
    [
        AgentInterface::new(jsonrpc_url, "JSONRPC", "0.3"),
        AgentInterface::new(rest_url, "HTTP+JSON", "0.3"),
    ]
}
