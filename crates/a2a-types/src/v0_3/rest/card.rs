//! The 0.3 proto's `AgentCard` (`GET /v1/card`, 0.3 spec 5.5, 7.10) as
//! typed wire structs: 1.0's members where the two protos agree, 0.3's
//! interface members (`url`, `preferredTransport`,
//! `additionalInterfaces`, `protocolVersion`) and
//! `supportsAuthenticatedExtendedCard`, `security` for
//! `securityRequirements`, and OAuth flows without what 1.0 added
//! (`deviceCode`, `pkceRequired`). Same reading and writing rules as
//! [`wire`](super::wire).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::wire::{rest_codec, via};
use crate::agent_card::{
    AgentCapabilities, AgentCard, AgentCardSignature, AgentExtension, AgentInterface,
    AgentProvider, AgentSkill,
};
use crate::protojson::{self, message_impls, oneof_message, Struct};
use crate::security::{
    APIKeySecurityScheme, AuthorizationCodeOAuthFlow, ClientCredentialsOAuthFlow,
    HTTPAuthSecurityScheme, ImplicitOAuthFlow, MutualTlsSecurityScheme, OAuth2SecurityScheme,
    OAuthFlows, OpenIdConnectSecurityScheme, PasswordOAuthFlow, SecurityRequirement,
    SecurityScheme,
};
use crate::v0_3::card::{V03Interfaces, V03_PROTOCOL_VERSION};
use crate::v0_3::Refusal;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestCard {
    #[serde(
        default,
        alias = "additional_interfaces",
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    additional_interfaces: Vec<RestInterface>,
    #[serde(default, deserialize_with = "protojson::message")]
    capabilities: RestCapabilities,
    #[serde(
        default,
        alias = "default_input_modes",
        deserialize_with = "protojson::repeated"
    )]
    default_input_modes: Vec<String>,
    #[serde(
        default,
        alias = "default_output_modes",
        deserialize_with = "protojson::repeated"
    )]
    default_output_modes: Vec<String>,
    #[serde(default, deserialize_with = "protojson::string")]
    description: String,
    #[serde(
        default,
        alias = "documentation_url",
        skip_serializing_if = "Option::is_none"
    )]
    documentation_url: Option<String>,
    #[serde(default, alias = "icon_url", skip_serializing_if = "Option::is_none")]
    icon_url: Option<String>,
    #[serde(default, deserialize_with = "protojson::string")]
    name: String,
    #[serde(
        default,
        alias = "preferred_transport",
        skip_serializing_if = "Option::is_none"
    )]
    preferred_transport: Option<String>,
    #[serde(
        default,
        alias = "protocol_version",
        deserialize_with = "protojson::string"
    )]
    protocol_version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    provider: Option<RestProvider>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    security: Vec<SecurityRequirement>,
    #[serde(
        default,
        alias = "security_schemes",
        deserialize_with = "protojson::map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    security_schemes: BTreeMap<String, RestScheme>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    signatures: Vec<RestSignature>,
    #[serde(default, with = "via::list")]
    skills: Vec<AgentSkill>,
    /// A card that is both 1.0 and 0.3 ([`union_card`](crate::v0_3::union_card))
    /// names its interfaces here; they win over 0.3's. Never written.
    #[serde(
        default,
        alias = "supported_interfaces",
        deserialize_with = "protojson::repeated",
        skip_serializing
    )]
    supported_interfaces: Vec<AgentInterface>,
    #[serde(
        default,
        alias = "supports_authenticated_extended_card",
        skip_serializing_if = "Option::is_none"
    )]
    supports_authenticated_extended_card: Option<bool>,
    #[serde(default, deserialize_with = "protojson::string")]
    url: String,
    #[serde(default, deserialize_with = "protojson::string")]
    version: String,
}

/// `AgentInterface`: `{url, transport}`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestInterface {
    #[serde(default, deserialize_with = "protojson::string")]
    transport: String,
    #[serde(default, deserialize_with = "protojson::string")]
    url: String,
}

/// `AgentCapabilities`: 0.3's has no `extendedAgentCard` (the card's
/// `supportsAuthenticatedExtendedCard` says it).
#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestCapabilities {
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    extensions: Vec<RestExtension>,
    #[serde(
        default,
        alias = "push_notifications",
        skip_serializing_if = "Option::is_none"
    )]
    push_notifications: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    streaming: Option<bool>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestExtension {
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    params: Option<Struct>,
    #[serde(
        default,
        deserialize_with = "protojson::boolean",
        skip_serializing_if = "protojson::is_false"
    )]
    required: bool,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    uri: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestProvider {
    #[serde(default, deserialize_with = "protojson::string")]
    organization: String,
    #[serde(default, deserialize_with = "protojson::string")]
    url: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestSignature {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    header: Option<Struct>,
    #[serde(default, deserialize_with = "protojson::string")]
    protected: String,
    #[serde(default, deserialize_with = "protojson::string")]
    signature: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestSkill {
    #[serde(default, deserialize_with = "protojson::string")]
    description: String,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    examples: Vec<String>,
    #[serde(default, deserialize_with = "protojson::string")]
    id: String,
    #[serde(
        default,
        alias = "input_modes",
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    input_modes: Vec<String>,
    #[serde(default, deserialize_with = "protojson::string")]
    name: String,
    #[serde(
        default,
        alias = "output_modes",
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    output_modes: Vec<String>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    security: Vec<SecurityRequirement>,
    #[serde(default, deserialize_with = "protojson::repeated")]
    tags: Vec<String>,
}

/// `SecurityScheme`: the same oneof as 1.0's; the members whose 1.0
/// form already has the 0.3 proto's fields are 1.0's own types.
pub(super) enum RestScheme {
    ApiKey(APIKeySecurityScheme),
    HttpAuth(RestHttpAuth),
    OAuth2(RestOAuth2),
    OpenIdConnect(OpenIdConnectSecurityScheme),
    MutualTls(MutualTlsSecurityScheme),
}

oneof_message!(
    RestScheme,
    "a 0.3 SecurityScheme must have exactly one of `apiKeySecurityScheme`, \
     `httpAuthSecurityScheme`, `oauth2SecurityScheme`, `openIdConnectSecurityScheme` or \
     `mtlsSecurityScheme`",
    [
        ApiKey(APIKeySecurityScheme) = "apiKeySecurityScheme" | "api_key_security_scheme",
        HttpAuth(RestHttpAuth) = "httpAuthSecurityScheme" | "http_auth_security_scheme",
        OAuth2(RestOAuth2) = "oauth2SecurityScheme" | "oauth2_security_scheme",
        OpenIdConnect(OpenIdConnectSecurityScheme) =
            "openIdConnectSecurityScheme" | "open_id_connect_security_scheme",
        MutualTls(MutualTlsSecurityScheme) = "mtlsSecurityScheme" | "mtls_security_scheme",
    ]
);

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestHttpAuth {
    #[serde(
        default,
        alias = "bearer_format",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    bearer_format: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    description: String,
    #[serde(default, deserialize_with = "protojson::string")]
    scheme: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestOAuth2 {
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    flows: Option<Box<RestFlows>>,
    #[serde(
        default,
        alias = "oauth2_metadata_url",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    oauth2_metadata_url: String,
}

/// `OAuthFlows`, a oneof in the 0.3 proto, read leniently: `{}` (no
/// flow, which 1.0's device-code flow becomes on the way out) is no
/// flow, and of several the first of authorizationCode,
/// clientCredentials, implicit and password is kept, as the JSON-RPC
/// form's reader does.
#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestFlows {
    #[serde(
        default,
        alias = "authorization_code",
        skip_serializing_if = "Option::is_none"
    )]
    authorization_code: Option<RestFlow>,
    #[serde(
        default,
        alias = "client_credentials",
        skip_serializing_if = "Option::is_none"
    )]
    client_credentials: Option<RestFlow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    implicit: Option<RestFlow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    password: Option<RestFlow>,
}

/// Any of the four flows: the members each writes are those 1.0 writes
/// for it, less `pkceRequired`.
#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestFlow {
    #[serde(
        default,
        alias = "authorization_url",
        skip_serializing_if = "Option::is_none"
    )]
    authorization_url: Option<String>,
    #[serde(
        default,
        alias = "refresh_url",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    refresh_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scopes: Option<BTreeMap<String, String>>,
    #[serde(default, alias = "token_url", skip_serializing_if = "Option::is_none")]
    token_url: Option<String>,
}

message_impls!(
    RestCard,
    RestInterface,
    RestCapabilities,
    RestExtension,
    RestProvider,
    RestSignature,
    RestSkill,
    RestHttpAuth,
    RestOAuth2,
    RestFlows,
    RestFlow,
);

// ---------------------------------------------------------------------------
// 1.0 -> 0.3

/// `Some` of a value 1.0 omits when empty, as 1.0 writes it.
fn unless_empty<T>(value: T, empty: bool) -> Option<T> {
    (!empty).then_some(value)
}

fn flows_out(flows: &OAuthFlows) -> RestFlows {
    let mut out = RestFlows::default();
    match flows {
        OAuthFlows::AuthorizationCode(f) => {
            out.authorization_code = Some(RestFlow {
                authorization_url: Some(f.authorization_url.clone()),
                refresh_url: f.refresh_url.clone(),
                scopes: Some(f.scopes.clone()),
                token_url: Some(f.token_url.clone()),
            })
        }
        OAuthFlows::ClientCredentials(f) => {
            out.client_credentials = Some(RestFlow {
                authorization_url: None,
                refresh_url: f.refresh_url.clone(),
                scopes: Some(f.scopes.clone()),
                token_url: Some(f.token_url.clone()),
            })
        }
        OAuthFlows::Implicit(f) => {
            out.implicit = Some(RestFlow {
                authorization_url: unless_empty(
                    f.authorization_url.clone(),
                    f.authorization_url.is_empty(),
                ),
                refresh_url: f.refresh_url.clone(),
                scopes: unless_empty(f.scopes.clone(), f.scopes.is_empty()),
                token_url: None,
            })
        }
        OAuthFlows::Password(f) => {
            out.password = Some(RestFlow {
                authorization_url: None,
                refresh_url: f.refresh_url.clone(),
                scopes: unless_empty(f.scopes.clone(), f.scopes.is_empty()),
                token_url: unless_empty(f.token_url.clone(), f.token_url.is_empty()),
            })
        }
        // 0.3 has no device code flow: the flows go out empty (MAPPING).
        OAuthFlows::DeviceCode(_) => {}
    }
    out
}

fn scheme_out(s: &SecurityScheme) -> RestScheme {
    match s {
        SecurityScheme::ApiKey(k) => RestScheme::ApiKey(k.clone()),
        SecurityScheme::HttpAuth(h) => RestScheme::HttpAuth(RestHttpAuth {
            bearer_format: h.bearer_format.clone(),
            description: h.description.clone(),
            scheme: h.scheme.clone(),
        }),
        SecurityScheme::OAuth2(o) => RestScheme::OAuth2(RestOAuth2 {
            description: o.description.clone(),
            flows: o.flows.as_ref().map(|f| Box::new(flows_out(f))),
            oauth2_metadata_url: o.oauth2_metadata_url.clone(),
        }),
        SecurityScheme::OpenIdConnect(o) => RestScheme::OpenIdConnect(o.clone()),
        SecurityScheme::MutualTls(m) => RestScheme::MutualTls(m.clone()),
    }
}

impl TryFrom<&AgentSkill> for RestSkill {
    type Error = Refusal;

    fn try_from(s: &AgentSkill) -> Result<RestSkill, Refusal> {
        Ok(RestSkill {
            description: s.description.clone(),
            examples: s.examples.clone(),
            id: s.id.clone(),
            input_modes: s.input_modes.clone(),
            name: s.name.clone(),
            output_modes: s.output_modes.clone(),
            security: s.security_requirements.clone(),
            tags: s.tags.clone(),
        })
    }
}

impl TryFrom<&AgentCard> for RestCard {
    type Error = Refusal;

    fn try_from(card: &AgentCard) -> Result<RestCard, Refusal> {
        let interfaces = V03Interfaces::of(card);
        let caps = &card.capabilities;
        Ok(RestCard {
            additional_interfaces: interfaces
                .additional
                .into_iter()
                .map(|(url, transport)| RestInterface { transport, url })
                .collect(),
            capabilities: RestCapabilities {
                extensions: caps
                    .extensions
                    .iter()
                    .map(|e| RestExtension {
                        description: e.description.clone(),
                        params: e.params.clone(),
                        required: e.required,
                        uri: e.uri.clone(),
                    })
                    .collect(),
                push_notifications: caps.push_notifications,
                streaming: caps.streaming,
            },
            default_input_modes: card.default_input_modes.clone(),
            default_output_modes: card.default_output_modes.clone(),
            description: card.description.clone(),
            documentation_url: card.documentation_url.clone(),
            icon_url: card.icon_url.clone(),
            name: card.name.clone(),
            preferred_transport: interfaces.preferred_transport,
            protocol_version: V03_PROTOCOL_VERSION.to_owned(),
            provider: card.provider.as_ref().map(|p| RestProvider {
                organization: p.organization.clone(),
                url: p.url.clone(),
            }),
            security: card.security_requirements.clone(),
            security_schemes: card
                .security_schemes
                .iter()
                .map(|(name, s)| (name.clone(), scheme_out(s)))
                .collect(),
            signatures: card
                .signatures
                .iter()
                .map(|s| RestSignature {
                    header: s.header.clone(),
                    protected: s.protected.clone(),
                    signature: s.signature.clone(),
                })
                .collect(),
            skills: card.skills.clone(),
            supported_interfaces: Vec::new(),
            supports_authenticated_extended_card: caps.extended_agent_card,
            url: interfaces.url,
            version: card.version.clone(),
        })
    }
}

// ---------------------------------------------------------------------------
// 0.3 -> 1.0

fn flows_in(f: RestFlows) -> Option<OAuthFlows> {
    if let Some(f) = f.authorization_code {
        Some(OAuthFlows::AuthorizationCode(AuthorizationCodeOAuthFlow {
            authorization_url: f.authorization_url.unwrap_or_default(),
            token_url: f.token_url.unwrap_or_default(),
            refresh_url: f.refresh_url,
            scopes: f.scopes.unwrap_or_default(),
            pkce_required: false,
        }))
    } else if let Some(f) = f.client_credentials {
        Some(OAuthFlows::ClientCredentials(ClientCredentialsOAuthFlow {
            token_url: f.token_url.unwrap_or_default(),
            refresh_url: f.refresh_url,
            scopes: f.scopes.unwrap_or_default(),
        }))
    } else if let Some(f) = f.implicit {
        Some(OAuthFlows::Implicit(ImplicitOAuthFlow {
            authorization_url: f.authorization_url.unwrap_or_default(),
            refresh_url: f.refresh_url,
            scopes: f.scopes.unwrap_or_default(),
        }))
    } else {
        f.password.map(|f| {
            OAuthFlows::Password(PasswordOAuthFlow {
                token_url: f.token_url.unwrap_or_default(),
                refresh_url: f.refresh_url,
                scopes: f.scopes.unwrap_or_default(),
            })
        })
    }
}

fn scheme_in(s: RestScheme) -> SecurityScheme {
    match s {
        RestScheme::ApiKey(k) => SecurityScheme::ApiKey(k),
        RestScheme::HttpAuth(h) => SecurityScheme::HttpAuth(HTTPAuthSecurityScheme {
            description: h.description,
            scheme: h.scheme,
            bearer_format: h.bearer_format,
        }),
        RestScheme::OAuth2(o) => SecurityScheme::OAuth2(OAuth2SecurityScheme {
            description: o.description,
            flows: o.flows.and_then(|f| flows_in(*f)),
            oauth2_metadata_url: o.oauth2_metadata_url,
        }),
        RestScheme::OpenIdConnect(o) => SecurityScheme::OpenIdConnect(o),
        RestScheme::MutualTls(m) => SecurityScheme::MutualTls(m),
    }
}

impl TryFrom<RestSkill> for AgentSkill {
    type Error = Refusal;

    fn try_from(s: RestSkill) -> Result<AgentSkill, Refusal> {
        Ok(AgentSkill {
            id: s.id,
            name: s.name,
            description: s.description,
            tags: s.tags,
            examples: s.examples,
            input_modes: s.input_modes,
            output_modes: s.output_modes,
            security_requirements: s.security,
        })
    }
}

impl TryFrom<RestCard> for AgentCard {
    type Error = Refusal;

    /// The interfaces are 0.3's main and additional ones at the card's
    /// `protocolVersion`, as the JSON-RPC form reads them, unless the card
    /// names 1.0's `supportedInterfaces` too.
    fn try_from(w: RestCard) -> Result<AgentCard, Refusal> {
        let supported_interfaces = if w.supported_interfaces.is_empty() {
            V03Interfaces {
                url: w.url,
                preferred_transport: w.preferred_transport,
                additional: w
                    .additional_interfaces
                    .into_iter()
                    .map(|i| (i.url, i.transport))
                    .collect(),
            }
            .into_model(&w.protocol_version)
        } else {
            w.supported_interfaces
        };
        Ok(AgentCard {
            name: w.name,
            description: w.description,
            supported_interfaces,
            provider: w.provider.map(|p| AgentProvider {
                url: p.url,
                organization: p.organization,
            }),
            version: w.version,
            documentation_url: w.documentation_url,
            capabilities: AgentCapabilities {
                streaming: w.capabilities.streaming,
                push_notifications: w.capabilities.push_notifications,
                extensions: w
                    .capabilities
                    .extensions
                    .into_iter()
                    .map(|e| AgentExtension {
                        uri: e.uri,
                        description: e.description,
                        required: e.required,
                        params: e.params,
                    })
                    .collect(),
                extended_agent_card: w.supports_authenticated_extended_card,
            },
            security_schemes: w
                .security_schemes
                .into_iter()
                .map(|(name, s)| (name, scheme_in(s)))
                .collect(),
            security_requirements: w.security,
            default_input_modes: w.default_input_modes,
            default_output_modes: w.default_output_modes,
            skills: w.skills,
            signatures: w
                .signatures
                .into_iter()
                .map(|s| AgentCardSignature {
                    protected: s.protected,
                    signature: s.signature,
                    header: s.header,
                })
                .collect(),
            icon_url: w.icon_url,
        })
    }
}

rest_codec!(AgentCard => RestCard, AgentSkill => RestSkill);
