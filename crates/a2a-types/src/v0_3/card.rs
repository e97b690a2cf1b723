//! The 0.3 `AgentCard` (0.3 spec 5.5-5.6): one main interface (`url`,
//! `preferredTransport`) plus `additionalInterfaces`, a card-wide
//! `protocolVersion`, security schemes in OpenAPI shape (`type`-tagged)
//! and requirements under `security`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::agent_card::{
    AgentCapabilities, AgentCard, AgentCardSignature, AgentExtension, AgentInterface,
    AgentProvider, AgentSkill,
};
use crate::protojson::{self, message_impls};
use crate::security::{
    APIKeySecurityScheme, AuthorizationCodeOAuthFlow, ClientCredentialsOAuthFlow,
    HTTPAuthSecurityScheme, ImplicitOAuthFlow, MutualTlsSecurityScheme, OAuth2SecurityScheme,
    OAuthFlows, OpenIdConnectSecurityScheme, PasswordOAuthFlow, SecurityRequirement,
    SecurityScheme, StringList,
};
use crate::v0_3::{codec, Refusal};

/// The `protocolVersion` a 0.3 card carries: the 0.3 schema's own
/// version. Patch numbers do not count (spec 3.6): a card saying
/// `0.3.x` reads as 0.3.
pub const V03_PROTOCOL_VERSION: &str = "0.3.0";

/// The binding 0.3 assumes when a card names no `preferredTransport`
/// (0.3 spec 5.6.1).
const DEFAULT_TRANSPORT: &str = "JSONRPC";

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireCard {
    #[serde(default, deserialize_with = "protojson::string")]
    name: String,
    #[serde(default, deserialize_with = "protojson::string")]
    description: String,
    #[serde(default, deserialize_with = "protojson::string")]
    url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    preferred_transport: Option<String>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    additional_interfaces: Vec<WireInterface>,
    #[serde(default, deserialize_with = "protojson::string")]
    protocol_version: String,
    #[serde(default, deserialize_with = "protojson::string")]
    version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    provider: Option<AgentProvider>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    documentation_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    icon_url: Option<String>,
    #[serde(default)]
    capabilities: WireCapabilities,
    #[serde(
        default,
        deserialize_with = "protojson::map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    security_schemes: BTreeMap<String, WireScheme>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    security: Vec<BTreeMap<String, Vec<String>>>,
    #[serde(default, deserialize_with = "protojson::repeated")]
    default_input_modes: Vec<String>,
    #[serde(default, deserialize_with = "protojson::repeated")]
    default_output_modes: Vec<String>,
    #[serde(default, deserialize_with = "protojson::repeated")]
    skills: Vec<WireSkill>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    supports_authenticated_extended_card: Option<bool>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    signatures: Vec<AgentCardSignature>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireInterface {
    #[serde(default, deserialize_with = "protojson::string")]
    url: String,
    #[serde(default, deserialize_with = "protojson::string")]
    transport: String,
}

#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireCapabilities {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    streaming: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    push_notifications: Option<bool>,
    #[serde(default, skip_serializing)]
    state_transition_history: Option<bool>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    extensions: Vec<WireExtension>,
}

/// 0.3's `AgentExtension`: 1.0's members, with `uri` REQUIRED (written
/// even when empty).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireExtension {
    #[serde(default, deserialize_with = "protojson::string")]
    uri: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    description: String,
    #[serde(
        default,
        deserialize_with = "protojson::boolean",
        skip_serializing_if = "protojson::is_false"
    )]
    required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    params: Option<crate::protojson::Struct>,
}

impl From<&AgentExtension> for WireExtension {
    fn from(e: &AgentExtension) -> WireExtension {
        WireExtension {
            uri: e.uri.clone(),
            description: e.description.clone(),
            required: e.required,
            params: e.params.clone(),
        }
    }
}

impl From<WireExtension> for AgentExtension {
    fn from(w: WireExtension) -> AgentExtension {
        AgentExtension {
            uri: w.uri,
            description: w.description,
            required: w.required,
            params: w.params,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireSkill {
    #[serde(default, deserialize_with = "protojson::string")]
    id: String,
    #[serde(default, deserialize_with = "protojson::string")]
    name: String,
    #[serde(default, deserialize_with = "protojson::string")]
    description: String,
    #[serde(default, deserialize_with = "protojson::repeated")]
    tags: Vec<String>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    examples: Vec<String>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    input_modes: Vec<String>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    output_modes: Vec<String>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    security: Vec<BTreeMap<String, Vec<String>>>,
}

/// A 0.3 security scheme: OpenAPI's shape, tagged by `type`, every
/// member of every kind read in one pass.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireScheme {
    #[serde(rename = "type", default, deserialize_with = "protojson::string")]
    kind: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    description: String,
    #[serde(
        rename = "in",
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    location: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    name: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    scheme: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    bearer_format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    flows: Option<WireFlows>,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    oauth2_metadata_url: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    open_id_connect_url: String,
}

#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireFlows {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    authorization_code: Option<WireFlow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    client_credentials: Option<WireFlow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    implicit: Option<WireFlow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    password: Option<WireFlow>,
}

#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireFlow {
    // REQUIRED in the flows that have them, so written even when empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    authorization_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    token_url: Option<String>,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    refresh_url: String,
    #[serde(default, deserialize_with = "protojson::map")]
    scopes: BTreeMap<String, String>,
}

message_impls!(
    WireCard,
    WireInterface,
    WireCapabilities,
    WireExtension,
    WireSkill,
    WireScheme,
    WireFlows,
    WireFlow
);

// ---------------------------------------------------------------------------
// 1.0 -> 0.3

fn requirements_out(list: &[SecurityRequirement]) -> Vec<BTreeMap<String, Vec<String>>> {
    list.iter()
        .map(|r| {
            r.schemes
                .iter()
                .map(|(k, v)| (k.clone(), v.list.clone()))
                .collect()
        })
        .collect()
}

fn requirements_in(list: Vec<BTreeMap<String, Vec<String>>>) -> Vec<SecurityRequirement> {
    list.into_iter()
        .map(|r| SecurityRequirement {
            schemes: r
                .into_iter()
                .map(|(k, list)| (k, StringList { list }))
                .collect(),
        })
        .collect()
}

fn scheme_out(s: &SecurityScheme) -> WireScheme {
    let mut w = WireScheme {
        kind: String::new(),
        description: String::new(),
        location: String::new(),
        name: String::new(),
        scheme: String::new(),
        bearer_format: String::new(),
        flows: None,
        oauth2_metadata_url: String::new(),
        open_id_connect_url: String::new(),
    };
    match s {
        SecurityScheme::ApiKey(k) => {
            w.kind = "apiKey".to_owned();
            w.description = k.description.clone();
            w.location = k.location.clone();
            w.name = k.name.clone();
        }
        SecurityScheme::HttpAuth(h) => {
            w.kind = "http".to_owned();
            w.description = h.description.clone();
            w.scheme = h.scheme.clone();
            w.bearer_format = h.bearer_format.clone();
        }
        SecurityScheme::OAuth2(o) => {
            w.kind = "oauth2".to_owned();
            w.description = o.description.clone();
            w.oauth2_metadata_url = o.oauth2_metadata_url.clone();
            let mut flows = WireFlows::default();
            match &o.flows {
                Some(OAuthFlows::AuthorizationCode(f)) => {
                    flows.authorization_code = Some(WireFlow {
                        authorization_url: Some(f.authorization_url.clone()),
                        token_url: Some(f.token_url.clone()),
                        refresh_url: f.refresh_url.clone(),
                        scopes: f.scopes.clone(),
                    })
                }
                Some(OAuthFlows::ClientCredentials(f)) => {
                    flows.client_credentials = Some(WireFlow {
                        token_url: Some(f.token_url.clone()),
                        refresh_url: f.refresh_url.clone(),
                        scopes: f.scopes.clone(),
                        ..WireFlow::default()
                    })
                }
                Some(OAuthFlows::Implicit(f)) => {
                    flows.implicit = Some(WireFlow {
                        authorization_url: Some(f.authorization_url.clone()),
                        refresh_url: f.refresh_url.clone(),
                        scopes: f.scopes.clone(),
                        ..WireFlow::default()
                    })
                }
                Some(OAuthFlows::Password(f)) => {
                    flows.password = Some(WireFlow {
                        token_url: Some(f.token_url.clone()),
                        refresh_url: f.refresh_url.clone(),
                        scopes: f.scopes.clone(),
                        ..WireFlow::default()
                    })
                }
                // 0.3 has no device code flow: the scheme goes out with
                // no flow (see MAPPING).
                Some(OAuthFlows::DeviceCode(_)) | None => {}
            }
            w.flows = Some(flows);
        }
        SecurityScheme::OpenIdConnect(o) => {
            w.kind = "openIdConnect".to_owned();
            w.description = o.description.clone();
            w.open_id_connect_url = o.open_id_connect_url.clone();
        }
        SecurityScheme::MutualTls(m) => {
            w.kind = "mutualTLS".to_owned();
            w.description = m.description.clone();
        }
    }
    w
}

fn scheme_in(w: WireScheme) -> Result<SecurityScheme, Refusal> {
    Ok(match w.kind.as_str() {
        "apiKey" => SecurityScheme::ApiKey(APIKeySecurityScheme {
            description: w.description,
            location: w.location,
            name: w.name,
        }),
        "http" => SecurityScheme::HttpAuth(HTTPAuthSecurityScheme {
            description: w.description,
            scheme: w.scheme,
            bearer_format: w.bearer_format,
        }),
        "oauth2" => {
            let flows = w.flows.unwrap_or_default();
            // 1.0 holds one flow; the first 0.3 declares, in this order.
            let flow = if let Some(f) = flows.authorization_code {
                Some(OAuthFlows::AuthorizationCode(AuthorizationCodeOAuthFlow {
                    authorization_url: f.authorization_url.unwrap_or_default(),
                    token_url: f.token_url.unwrap_or_default(),
                    refresh_url: f.refresh_url,
                    scopes: f.scopes,
                    pkce_required: false,
                }))
            } else if let Some(f) = flows.client_credentials {
                Some(OAuthFlows::ClientCredentials(ClientCredentialsOAuthFlow {
                    token_url: f.token_url.unwrap_or_default(),
                    refresh_url: f.refresh_url,
                    scopes: f.scopes,
                }))
            } else if let Some(f) = flows.implicit {
                Some(OAuthFlows::Implicit(ImplicitOAuthFlow {
                    authorization_url: f.authorization_url.unwrap_or_default(),
                    refresh_url: f.refresh_url,
                    scopes: f.scopes,
                }))
            } else {
                flows.password.map(|f| {
                    OAuthFlows::Password(PasswordOAuthFlow {
                        token_url: f.token_url.unwrap_or_default(),
                        refresh_url: f.refresh_url,
                        scopes: f.scopes,
                    })
                })
            };
            SecurityScheme::OAuth2(OAuth2SecurityScheme {
                description: w.description,
                flows: flow,
                oauth2_metadata_url: w.oauth2_metadata_url,
            })
        }
        "openIdConnect" => SecurityScheme::OpenIdConnect(OpenIdConnectSecurityScheme {
            description: w.description,
            open_id_connect_url: w.open_id_connect_url,
        }),
        "mutualTLS" => SecurityScheme::MutualTls(MutualTlsSecurityScheme {
            description: w.description,
        }),
        other => {
            return Err(format!(
                "unknown 0.3 security scheme `type` {other:?}, expected \"apiKey\", \"http\", \
                 \"oauth2\", \"openIdConnect\" or \"mutualTLS\""
            ))
        }
    })
}

/// The interfaces a 0.3 card declares: those of the 1.0 card at version
/// 0.3, or all of them when none is (a card written for 1.0 only).
fn interfaces_out(card: &AgentCard) -> Vec<&AgentInterface> {
    let v03: Vec<&AgentInterface> = card
        .supported_interfaces
        .iter()
        .filter(|i| is_v03(&i.protocol_version))
        .collect();
    if v03.is_empty() {
        card.supported_interfaces.iter().collect()
    } else {
        v03
    }
}

/// Whether a version string names 0.3 (`0.3`, `0.3.0`, ...; spec 3.6).
pub(crate) fn is_v03(version: &str) -> bool {
    version == "0.3" || version.starts_with("0.3.")
}

/// A 1.0 card's interfaces as 0.3 declares them (0.3 spec 5.6): the main
/// one (`url`, `preferredTransport`) and `additionalInterfaces` as
/// `(url, transport)`, the main one among them.
pub(crate) struct V03Interfaces {
    /// The main interface's URL (empty when the card has none).
    pub(crate) url: String,
    /// The main interface's binding.
    pub(crate) preferred_transport: Option<String>,
    /// Every interface at 0.3, as `(url, transport)`.
    pub(crate) additional: Vec<(String, String)>,
}

impl V03Interfaces {
    /// The interfaces `card` declares at 0.3 (all of them when none is).
    pub(crate) fn of(card: &AgentCard) -> V03Interfaces {
        let interfaces = interfaces_out(card);
        let (url, preferred_transport) = interfaces
            .first()
            .map(|i| (i.url.clone(), Some(i.protocol_binding.clone())))
            .unwrap_or_default();
        V03Interfaces {
            url,
            preferred_transport,
            additional: interfaces
                .iter()
                .map(|i| (i.url.clone(), i.protocol_binding.clone()))
                .collect(),
        }
    }

    /// The 1.0 interfaces: the main one, then the additional ones not
    /// repeating it, each at `protocol_version`'s major.minor; `JSONRPC`
    /// when no `preferredTransport` is named (0.3 spec 5.6.1).
    pub(crate) fn into_model(self, protocol_version: &str) -> Vec<AgentInterface> {
        let version = major_minor(protocol_version);
        let mut interfaces = Vec::new();
        if !self.url.is_empty() {
            interfaces.push(AgentInterface::new(
                self.url,
                self.preferred_transport
                    .unwrap_or_else(|| DEFAULT_TRANSPORT.to_owned()),
                version.clone(),
            ));
        }
        for (url, transport) in self.additional {
            let duplicate = interfaces.iter().any(|known: &AgentInterface| {
                known.url == url && known.protocol_binding == transport
            });
            if !duplicate {
                interfaces.push(AgentInterface::new(url, transport, version.clone()));
            }
        }
        interfaces
    }
}

impl From<&AgentCard> for WireCard {
    fn from(card: &AgentCard) -> WireCard {
        let interfaces = V03Interfaces::of(card);
        WireCard {
            name: card.name.clone(),
            description: card.description.clone(),
            url: interfaces.url,
            preferred_transport: interfaces.preferred_transport,
            additional_interfaces: interfaces
                .additional
                .into_iter()
                .map(|(url, transport)| WireInterface { url, transport })
                .collect(),
            protocol_version: V03_PROTOCOL_VERSION.to_owned(),
            version: card.version.clone(),
            provider: card.provider.clone(),
            documentation_url: card.documentation_url.clone(),
            icon_url: card.icon_url.clone(),
            capabilities: WireCapabilities {
                streaming: card.capabilities.streaming,
                push_notifications: card.capabilities.push_notifications,
                state_transition_history: None,
                extensions: card
                    .capabilities
                    .extensions
                    .iter()
                    .map(WireExtension::from)
                    .collect(),
            },
            security_schemes: card
                .security_schemes
                .iter()
                .map(|(k, s)| (k.clone(), scheme_out(s)))
                .collect(),
            security: requirements_out(&card.security_requirements),
            default_input_modes: card.default_input_modes.clone(),
            default_output_modes: card.default_output_modes.clone(),
            skills: card
                .skills
                .iter()
                .map(|s| WireSkill {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    description: s.description.clone(),
                    tags: s.tags.clone(),
                    examples: s.examples.clone(),
                    input_modes: s.input_modes.clone(),
                    output_modes: s.output_modes.clone(),
                    security: requirements_out(&s.security_requirements),
                })
                .collect(),
            supports_authenticated_extended_card: card.capabilities.extended_agent_card,
            signatures: card.signatures.clone(),
        }
    }
}

impl TryFrom<WireCard> for AgentCard {
    type Error = Refusal;

    fn try_from(w: WireCard) -> Result<AgentCard, Refusal> {
        let interfaces = V03Interfaces {
            url: w.url,
            preferred_transport: w.preferred_transport,
            additional: w
                .additional_interfaces
                .into_iter()
                .map(|i| (i.url, i.transport))
                .collect(),
        }
        .into_model(&w.protocol_version);
        Ok(AgentCard {
            name: w.name,
            description: w.description,
            supported_interfaces: interfaces,
            provider: w.provider,
            version: w.version,
            documentation_url: w.documentation_url,
            capabilities: AgentCapabilities {
                streaming: w.capabilities.streaming,
                push_notifications: w.capabilities.push_notifications,
                extensions: w
                    .capabilities
                    .extensions
                    .into_iter()
                    .map(AgentExtension::from)
                    .collect(),
                extended_agent_card: w.supports_authenticated_extended_card,
            },
            security_schemes: w
                .security_schemes
                .into_iter()
                .map(|(k, s)| scheme_in(s).map(|s| (k, s)))
                .collect::<Result<_, _>>()?,
            security_requirements: requirements_in(w.security),
            default_input_modes: w.default_input_modes,
            default_output_modes: w.default_output_modes,
            skills: w
                .skills
                .into_iter()
                .map(|s| AgentSkill {
                    id: s.id,
                    name: s.name,
                    description: s.description,
                    tags: s.tags,
                    examples: s.examples,
                    input_modes: s.input_modes,
                    output_modes: s.output_modes,
                    security_requirements: requirements_in(s.security),
                })
                .collect(),
            signatures: w.signatures,
            icon_url: w.icon_url,
        })
    }
}

/// `0.3.0` -> `0.3`; a version without a minor part stays as it is.
fn major_minor(version: &str) -> String {
    let mut parts = version.splitn(3, '.');
    match (parts.next(), parts.next()) {
        (Some(major), Some(minor)) => format!("{major}.{minor}"),
        _ => version.to_owned(),
    }
}

/// Reads a 0.3 agent card (0.3 spec 5.5) into the model: its main
/// interface and `additionalInterfaces` become `supportedInterfaces` at
/// the card's `protocolVersion` (major.minor), and the rest as
/// [`MAPPING`](crate::v0_3::MAPPING) says.
pub fn card_from_v0_3(bytes: &[u8]) -> Result<AgentCard, crate::DecodeError> {
    crate::v0_3::from_slice(bytes)
}

codec!(AgentCard => WireCard);

/// The card both 0.3 and 1.0 clients read, as the SDKs with a 0.3
/// compatibility layer serve it: the 1.0 card (ProtoJSON) with the 0.3
/// members beside its own. Where both versions use the same key with
/// different shapes, the objects are merged member by member: each
/// security scheme holds its 1.0 oneof member and the 0.3 `type`, `in`...;
/// each skill its `securityRequirements` and 0.3 `security`. Neither
/// version's readers mind the other's members (1.0 ignores unknown
/// fields, 0.3's schema allows them).
///
/// A signed card's signatures cover its 1.0 form only (spec 8.4 signs the
/// canonical card), which the added members change: a verifier must
/// remove the 0.3 members ([`V03_CARD_MEMBERS`]) first.
pub fn union_card(card: &AgentCard) -> Result<serde_json::Value, crate::json::Error> {
    use serde_json::Value;

    let mut out = serde_json::to_value(card)?;
    let v03 = serde_json::to_value(crate::v0_3::V03(card))?;
    let (Value::Object(out_map), Value::Object(v03_map)) = (&mut out, v03) else {
        return Ok(out);
    };
    for (key, value) in v03_map {
        match (out_map.get_mut(&key), value) {
            (None, value) => {
                out_map.insert(key, value);
            }
            // securitySchemes: merge each scheme's members.
            (Some(Value::Object(ours)), Value::Object(theirs)) if key == "securitySchemes" => {
                for (name, scheme) in theirs {
                    if let (Some(Value::Object(o)), Value::Object(t)) =
                        (ours.get_mut(&name), scheme)
                    {
                        for (k, v) in t {
                            o.entry(k).or_insert(v);
                        }
                    }
                }
            }
            // skills: the same skills in the same order; add `security`.
            (Some(Value::Array(ours)), Value::Array(theirs)) if key == "skills" => {
                for (o, t) in ours.iter_mut().zip(theirs) {
                    if let (Value::Object(o), Value::Object(t)) = (o, t) {
                        for (k, v) in t {
                            o.entry(k).or_insert(v);
                        }
                    }
                }
            }
            // Same key, same meaning (name, version, capabilities...):
            // the 1.0 member stays.
            _ => {}
        }
    }
    Ok(out)
}

/// The top-level members [`union_card`] adds to a 1.0 card (besides the
/// members it merges into security schemes and skills).
pub const V03_CARD_MEMBERS: &[&str] = &[
    "url",
    "preferredTransport",
    "additionalInterfaces",
    "protocolVersion",
    "security",
    "supportsAuthenticatedExtendedCard",
];
