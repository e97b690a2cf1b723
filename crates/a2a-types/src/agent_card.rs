//! The agent card and its parts (spec 4.4, 8).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::protojson::{self, message_impls, Struct};
use crate::security::{SecurityRequirement, SecurityScheme};

/// An agent's self-description (spec 4.4.1, 8): identity, interfaces,
/// capabilities, skills and security requirements.
///
/// REQUIRED: `name`, `description`, `supportedInterfaces`, `version`,
/// `capabilities`, `defaultInputModes`, `defaultOutputModes`, `skills`.
/// They are always written, even when empty, as the canonical form for
/// signing requires (spec 8.4.1); the `optional` fields (`documentationUrl`,
/// `iconUrl`, the capability flags) are written exactly when set.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct AgentCard {
    /// Human-readable name. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub name: String,
    /// Human-readable description. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub description: String,
    /// Interfaces, the preferred one first (spec 8.3.1). REQUIRED.
    #[serde(
        default,
        alias = "supported_interfaces",
        deserialize_with = "protojson::repeated"
    )]
    pub supported_interfaces: Vec<AgentInterface>,
    /// The service provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<AgentProvider>,
    /// The agent's version, e.g. `"1.0.0"`. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub version: String,
    /// Documentation URL (`optional`: written exactly when set).
    #[serde(
        default,
        alias = "documentation_url",
        skip_serializing_if = "Option::is_none"
    )]
    pub documentation_url: Option<String>,
    /// What the agent supports. REQUIRED.
    #[serde(default, deserialize_with = "protojson::message")]
    pub capabilities: AgentCapabilities,
    /// Security schemes by name (spec 7.3).
    #[serde(
        default,
        alias = "security_schemes",
        deserialize_with = "protojson::map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub security_schemes: BTreeMap<String, SecurityScheme>,
    /// Security requirements for contacting the agent.
    #[serde(
        default,
        alias = "security_requirements",
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub security_requirements: Vec<SecurityRequirement>,
    /// Media types accepted as input across all skills. REQUIRED.
    #[serde(
        default,
        alias = "default_input_modes",
        deserialize_with = "protojson::repeated"
    )]
    pub default_input_modes: Vec<String>,
    /// Media types produced as output across all skills. REQUIRED.
    #[serde(
        default,
        alias = "default_output_modes",
        deserialize_with = "protojson::repeated"
    )]
    pub default_output_modes: Vec<String>,
    /// What the agent can do. REQUIRED.
    #[serde(default, deserialize_with = "protojson::repeated")]
    pub skills: Vec<AgentSkill>,
    /// JWS signatures of the card (spec 8.4).
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub signatures: Vec<AgentCardSignature>,
    /// Icon URL (`optional`: written exactly when set).
    #[serde(default, alias = "icon_url", skip_serializing_if = "Option::is_none")]
    pub icon_url: Option<String>,
}

/// The service provider of an agent (spec 4.4.2). Both fields REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct AgentProvider {
    /// The provider's website or documentation. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub url: String,
    /// The provider's organization. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub organization: String,
}

/// Optional capabilities of an agent (spec 4.4.3). The flags are proto
/// `optional`: `None` (unset, not written) differs from `Some(false)`
/// (written), as card signing needs (spec 5.7, 8.4.1).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct AgentCapabilities {
    /// Streaming responses (spec 3.1.2, 3.3.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streaming: Option<bool>,
    /// Push notifications (spec 3.5, 3.3.4).
    #[serde(
        default,
        alias = "push_notifications",
        skip_serializing_if = "Option::is_none"
    )]
    pub push_notifications: Option<bool>,
    /// Supported protocol extensions (spec 4.6).
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub extensions: Vec<AgentExtension>,
    /// An extended card for authenticated clients (spec 3.1.11).
    #[serde(
        default,
        alias = "extended_agent_card",
        skip_serializing_if = "Option::is_none"
    )]
    pub extended_agent_card: Option<bool>,
}

/// A protocol extension the agent supports (spec 4.4.4, 4.6.1).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct AgentExtension {
    /// The extension's URI.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub uri: String,
    /// How the agent uses the extension.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub description: String,
    /// Whether clients must understand the extension.
    #[serde(
        default,
        deserialize_with = "protojson::boolean",
        skip_serializing_if = "protojson::is_false"
    )]
    pub required: bool,
    /// Extension-specific parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Struct>,
}

/// A capability of the agent (spec 4.4.5). REQUIRED: `id`, `name`,
/// `description`, `tags`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct AgentSkill {
    /// Unique identifier. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub id: String,
    /// Human-readable name. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub name: String,
    /// Description. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub description: String,
    /// Keywords. REQUIRED.
    #[serde(default, deserialize_with = "protojson::repeated")]
    pub tags: Vec<String>,
    /// Example prompts.
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub examples: Vec<String>,
    /// Accepted media types, overriding the card's defaults.
    #[serde(
        default,
        alias = "input_modes",
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub input_modes: Vec<String>,
    /// Produced media types, overriding the card's defaults.
    #[serde(
        default,
        alias = "output_modes",
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub output_modes: Vec<String>,
    /// Security requirements of this skill.
    #[serde(
        default,
        alias = "security_requirements",
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub security_requirements: Vec<SecurityRequirement>,
}

/// Where and how the agent is reachable (spec 4.4.6, 8.3). REQUIRED:
/// `url`, `protocolBinding`, `protocolVersion`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct AgentInterface {
    /// The interface's URL (or `host:port` for gRPC). REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub url: String,
    /// The protocol binding: `JSONRPC`, `GRPC`, `HTTP+JSON` or a URI
    /// (spec 5.8). REQUIRED.
    #[serde(
        default,
        alias = "protocol_binding",
        deserialize_with = "protojson::string"
    )]
    pub protocol_binding: String,
    /// Routing identifier clients must send as `tenant` on this interface.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
    /// The A2A version served, `Major.Minor` (spec 3.6). REQUIRED.
    #[serde(
        default,
        alias = "protocol_version",
        deserialize_with = "protojson::string"
    )]
    pub protocol_version: String,
}

impl AgentInterface {
    /// An interface at `url` for a binding and protocol version.
    pub fn new(
        url: impl Into<String>,
        protocol_binding: impl Into<String>,
        protocol_version: impl Into<String>,
    ) -> AgentInterface {
        AgentInterface {
            url: url.into(),
            protocol_binding: protocol_binding.into(),
            tenant: String::new(),
            protocol_version: protocol_version.into(),
        }
    }
}

/// A JWS signature of the card (spec 4.4.7, 8.4.2). `protected` and
/// `signature` are REQUIRED.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct AgentCardSignature {
    /// The protected JWS header, base64url. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub protected: String,
    /// The signature, base64url. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub signature: String,
    /// The unprotected JWS header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<Struct>,
}

message_impls!(
    AgentCard,
    AgentProvider,
    AgentCapabilities,
    AgentExtension,
    AgentSkill,
    AgentInterface,
    AgentCardSignature
);
