//! Security objects of the agent card (spec 4.5), modeled on OpenAPI 3.2
//! security schemes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::protojson::{self, message_impls, oneof_message};

/// A list of strings (the scopes of a [`SecurityRequirement`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct StringList {
    /// The strings.
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub list: Vec<String>,
}

impl<S: Into<String>> FromIterator<S> for StringList {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> StringList {
        StringList {
            list: iter.into_iter().map(Into::into).collect(),
        }
    }
}

/// Security schemes a client must satisfy together, each with the scopes
/// it needs (spec 4.4.1 `securityRequirements`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct SecurityRequirement {
    /// Scheme name (a key of `AgentCard.securitySchemes`) to required scopes.
    #[serde(
        default,
        deserialize_with = "protojson::map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub schemes: BTreeMap<String, StringList>,
}

/// One way to authenticate with the agent (spec 4.5.1): the proto's
/// `scheme` oneof. On input, none or several members is a decode error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecurityScheme {
    /// An API key (`apiKeySecurityScheme`).
    ApiKey(APIKeySecurityScheme),
    /// HTTP authentication (`httpAuthSecurityScheme`).
    HttpAuth(HTTPAuthSecurityScheme),
    /// OAuth 2.0 (`oauth2SecurityScheme`).
    OAuth2(OAuth2SecurityScheme),
    /// OpenID Connect (`openIdConnectSecurityScheme`).
    OpenIdConnect(OpenIdConnectSecurityScheme),
    /// Mutual TLS (`mtlsSecurityScheme`).
    MutualTls(MutualTlsSecurityScheme),
}

oneof_message!(
    SecurityScheme,
    "a SecurityScheme must have exactly one of `apiKeySecurityScheme`, `httpAuthSecurityScheme`, \
     `oauth2SecurityScheme`, `openIdConnectSecurityScheme` or `mtlsSecurityScheme`",
    [
        ApiKey(APIKeySecurityScheme) = "apiKeySecurityScheme" | "api_key_security_scheme",
        HttpAuth(HTTPAuthSecurityScheme) = "httpAuthSecurityScheme" | "http_auth_security_scheme",
        OAuth2(OAuth2SecurityScheme) = "oauth2SecurityScheme" | "oauth2_security_scheme",
        OpenIdConnect(OpenIdConnectSecurityScheme) =
            "openIdConnectSecurityScheme" | "open_id_connect_security_scheme",
        MutualTls(MutualTlsSecurityScheme) = "mtlsSecurityScheme" | "mtls_security_scheme",
    ]
);

/// API key authentication (spec 4.5.2). `location` and `name` are REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct APIKeySecurityScheme {
    /// Description of the scheme.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub description: String,
    /// Where the key goes: `"query"`, `"header"` or `"cookie"`. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub location: String,
    /// Name of the header, query or cookie parameter. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub name: String,
}

/// HTTP authentication (spec 4.5.3). `scheme` is REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct HTTPAuthSecurityScheme {
    /// Description of the scheme.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub description: String,
    /// The HTTP authentication scheme, e.g. `"Bearer"` (RFC 7235). REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub scheme: String,
    /// Hint on the bearer token's format, e.g. `"JWT"`.
    #[serde(
        default,
        alias = "bearer_format",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub bearer_format: String,
}

/// OAuth 2.0 (spec 4.5.4). `flows` is REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct OAuth2SecurityScheme {
    /// Description of the scheme.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub description: String,
    /// The supported flow. REQUIRED; an `Option` because a flow has no
    /// meaningful default, so "absent" must be representable for
    /// validation to report it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flows: Option<OAuthFlows>,
    /// URL of the authorization server metadata (RFC 8414).
    #[serde(
        default,
        alias = "oauth2_metadata_url",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub oauth2_metadata_url: String,
}

/// OpenID Connect (spec 4.5.5). `openIdConnectUrl` is REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct OpenIdConnectSecurityScheme {
    /// Description of the scheme.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub description: String,
    /// The OpenID Connect discovery URL. REQUIRED.
    #[serde(
        default,
        alias = "open_id_connect_url",
        deserialize_with = "protojson::string"
    )]
    pub open_id_connect_url: String,
}

/// Mutual TLS (spec 4.5.6).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct MutualTlsSecurityScheme {
    /// Description of the scheme.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub description: String,
}

/// The OAuth 2.0 flow of an [`OAuth2SecurityScheme`] (spec 4.5.7): the
/// proto's `flow` oneof. On input, none or several members is a decode
/// error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OAuthFlows {
    /// Authorization code (`authorizationCode`).
    AuthorizationCode(AuthorizationCodeOAuthFlow),
    /// Client credentials (`clientCredentials`).
    ClientCredentials(ClientCredentialsOAuthFlow),
    /// Implicit (`implicit`); deprecated by the spec in favour of
    /// authorization code with PKCE, still accepted and written.
    Implicit(ImplicitOAuthFlow),
    /// Resource owner password (`password`); deprecated by the spec,
    /// still accepted and written.
    Password(PasswordOAuthFlow),
    /// Device code, RFC 8628 (`deviceCode`).
    DeviceCode(DeviceCodeOAuthFlow),
}

oneof_message!(
    OAuthFlows,
    "OAuthFlows must have exactly one of `authorizationCode`, `clientCredentials`, `implicit`, \
     `password` or `deviceCode`",
    [
        AuthorizationCode(AuthorizationCodeOAuthFlow) = "authorizationCode" | "authorization_code",
        ClientCredentials(ClientCredentialsOAuthFlow) = "clientCredentials" | "client_credentials",
        Implicit(ImplicitOAuthFlow) = "implicit",
        Password(PasswordOAuthFlow) = "password",
        DeviceCode(DeviceCodeOAuthFlow) = "deviceCode" | "device_code",
    ]
);

/// The authorization code flow (spec 4.5.8). `authorizationUrl`,
/// `tokenUrl` and `scopes` are REQUIRED (an empty scope map is valid).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct AuthorizationCodeOAuthFlow {
    /// The authorization URL. REQUIRED.
    #[serde(
        default,
        alias = "authorization_url",
        deserialize_with = "protojson::string"
    )]
    pub authorization_url: String,
    /// The token URL. REQUIRED.
    #[serde(default, alias = "token_url", deserialize_with = "protojson::string")]
    pub token_url: String,
    /// The refresh URL.
    #[serde(
        default,
        alias = "refresh_url",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub refresh_url: String,
    /// Scope name to description. REQUIRED (always written).
    #[serde(default, deserialize_with = "protojson::map")]
    pub scopes: BTreeMap<String, String>,
    /// Whether PKCE (RFC 7636) is required.
    #[serde(
        default,
        alias = "pkce_required",
        deserialize_with = "protojson::boolean",
        skip_serializing_if = "protojson::is_false"
    )]
    pub pkce_required: bool,
}

/// The client credentials flow (spec 4.5.9). `tokenUrl` and `scopes` are
/// REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct ClientCredentialsOAuthFlow {
    /// The token URL. REQUIRED.
    #[serde(default, alias = "token_url", deserialize_with = "protojson::string")]
    pub token_url: String,
    /// The refresh URL.
    #[serde(
        default,
        alias = "refresh_url",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub refresh_url: String,
    /// Scope name to description. REQUIRED (always written).
    #[serde(default, deserialize_with = "protojson::map")]
    pub scopes: BTreeMap<String, String>,
}

/// The implicit flow; deprecated by the spec.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct ImplicitOAuthFlow {
    /// The authorization URL.
    #[serde(
        default,
        alias = "authorization_url",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub authorization_url: String,
    /// The refresh URL.
    #[serde(
        default,
        alias = "refresh_url",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub refresh_url: String,
    /// Scope name to description (may be empty).
    #[serde(
        default,
        deserialize_with = "protojson::map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub scopes: BTreeMap<String, String>,
}

/// The resource owner password flow; deprecated by the spec.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct PasswordOAuthFlow {
    /// The token URL.
    #[serde(
        default,
        alias = "token_url",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub token_url: String,
    /// The refresh URL.
    #[serde(
        default,
        alias = "refresh_url",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub refresh_url: String,
    /// Scope name to description (may be empty).
    #[serde(
        default,
        deserialize_with = "protojson::map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub scopes: BTreeMap<String, String>,
}

/// The device code flow, RFC 8628 (spec 4.5.10).
/// `deviceAuthorizationUrl`, `tokenUrl` and `scopes` are REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct DeviceCodeOAuthFlow {
    /// The device authorization endpoint. REQUIRED.
    #[serde(
        default,
        alias = "device_authorization_url",
        deserialize_with = "protojson::string"
    )]
    pub device_authorization_url: String,
    /// The token URL. REQUIRED.
    #[serde(default, alias = "token_url", deserialize_with = "protojson::string")]
    pub token_url: String,
    /// The refresh URL.
    #[serde(
        default,
        alias = "refresh_url",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub refresh_url: String,
    /// Scope name to description. REQUIRED (always written).
    #[serde(default, deserialize_with = "protojson::map")]
    pub scopes: BTreeMap<String, String>,
}

message_impls!(
    StringList,
    SecurityRequirement,
    APIKeySecurityScheme,
    HTTPAuthSecurityScheme,
    OAuth2SecurityScheme,
    OpenIdConnectSecurityScheme,
    MutualTlsSecurityScheme,
    AuthorizationCodeOAuthFlow,
    ClientCredentialsOAuthFlow,
    ImplicitOAuthFlow,
    PasswordOAuthFlow,
    DeviceCodeOAuthFlow
);
