//! Client credentials (spec 4.5, 7.3): providers the client consults per
//! call, keyed by the security scheme the agent card declares.
//!
//! - [`Credentials`] holds the configured providers: a bearer token, an
//!   API key, an OAuth 2.0 client-credentials flow ([`ClientCredentials`])
//!   and any [`CredentialProvider`] of the host's, by scheme kind or by
//!   scheme name.
//! - [`Credentials::select`] picks what a card asks for: the **first** of
//!   the card's `securityRequirements` all of whose schemes have a
//!   provider configured (spec 4.4.1: any one requirement suffices, and
//!   every scheme of it is needed). A card without requirements needs no
//!   credentials, and none are sent. The result, [`CallCredentials`], is
//!   what a transport carries
//!   ([`HttpTransport::with_credentials`](crate::HttpTransport::with_credentials)).
//! - Each call asks every selected provider for its [`Credential`] and puts
//!   it where the scheme says: `Authorization: Bearer` for HTTP bearer,
//!   OAuth 2.0 and OpenID Connect schemes (RFC 6750 section 2.1), the
//!   header, query parameter or cookie an `APIKeySecurityScheme` names
//!   (spec 4.5.2). gRPC carries headers as metadata (spec 10.2); an API
//!   key the card puts in the query cannot travel over gRPC, and such a
//!   call fails before anything is sent.
//! - A call the agent refuses as unauthenticated (HTTP `401`, gRPC
//!   `UNAUTHENTICATED`) is sent once more when a provider says a fresh
//!   credential may differ ([`CredentialProvider::refused`]): the cached
//!   token is dropped and a new one fetched. At most one retry per call,
//!   and a stream only while it is being opened, never after its first
//!   event. A second refusal is the caller's error.
//!
//! Secrets are [`Secret`]s, whose `Debug` prints `[redacted]`; no
//! configuration, provider or credential here prints one.
//!
//! The client-credentials flow (RFC 6749 section 4.4) runs through the
//! host's [`HttpClient`] and reads time from a host [`Clock`] (this crate
//! reads no clock): the token is cached and fetched again once it is
//! within [`ClientCredentialsConfig::refresh_skew`] of its expiry.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};
use std::time::{Duration, SystemTime};

use a2a_types::{A2aError, AgentCard, ErrorKind, OAuthFlows, SecurityScheme};
use base64::Engine as _;
use bytes::Bytes;
use http::header::{HeaderName, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, COOKIE};
use http::{HeaderMap, Uri};

use a2a_wire::BoxFuture;
use a2a_wire::{read_body, HttpClient, ReadBody};

/// What `Debug` prints in place of a secret.
pub(crate) const REDACTED: &str = "[redacted]";

/// A secret string (a token, a key, a client secret): `Debug` prints
/// `[redacted]`, and only [`expose`](Secret::expose) gives the value.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Arc<str>);

impl Secret {
    /// Wraps `value`.
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(Arc::from(value.into()))
    }

    /// The secret itself, for the one place that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Secret {
        Secret::new(value)
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Secret {
        Secret::new(value)
    }
}

/// A credential a provider answers for one scheme; where it goes is the
/// scheme's business (module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Credential {
    /// A bearer token: `Authorization: Bearer <token>` (RFC 6750 section
    /// 2.1), for HTTP `bearer`, OAuth 2.0 and OpenID Connect schemes.
    Bearer(Secret),
    /// An API key, put where the card's `APIKeySecurityScheme` says
    /// (spec 4.5.2).
    ApiKey(Secret),
    /// `Authorization: <scheme> <credentials>` for another HTTP
    /// authentication scheme (RFC 9110 section 11.4), `Basic` say: the
    /// credentials as they are sent.
    Authorization {
        /// The authentication scheme (`Basic`).
        scheme: String,
        /// What follows it.
        credentials: Secret,
    },
}

/// What the client asks a provider for: one scheme of the selected
/// requirement.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct SchemeRequest<'a> {
    /// The scheme's name (its key in the card's `securitySchemes`).
    pub name: &'a str,
    /// The scheme as the card declares it.
    pub scheme: &'a SecurityScheme,
    /// The scopes the requirement names for it (spec 4.4.1).
    pub scopes: &'a [String],
}

/// A source of credentials, asked on every call (the custom provider is
/// this trait).
///
/// ```
/// use a2a_client::{Credential, CredentialProvider, SchemeRequest, Secret};
/// use a2a_client::BoxFuture;
/// use a2a_types::A2aError;
///
/// /// A token another part of the host keeps current.
/// #[derive(Debug)]
/// struct FromVault(std::sync::Mutex<Secret>);
/// impl CredentialProvider for FromVault {
///     fn credential<'a>(&'a self, _: SchemeRequest<'a>) -> BoxFuture<'a, Result<Credential, A2aError>> {
///         let token = self.0.lock().unwrap().clone();
///         Box::pin(async move { Ok(Credential::Bearer(token)) })
///     }
/// }
/// ```
pub trait CredentialProvider: Send + Sync + fmt::Debug {
    /// The credential for the scheme `request` names.
    fn credential<'a>(
        &'a self,
        request: SchemeRequest<'a>,
    ) -> BoxFuture<'a, Result<Credential, A2aError>>;

    /// The agent refused `credential` as unauthenticated: forget it if it
    /// is cached. True when the next [`credential`](Self::credential) may
    /// answer a different one, which is when the client retries the call
    /// (once). The default: a fixed credential, no retry.
    fn refused(&self, credential: &Credential) -> bool {
        let _ = credential;
        false
    }
}

/// A fixed credential (a `--bearer` token, an API key).
#[derive(Debug, Clone)]
pub struct StaticCredential(Credential);

impl StaticCredential {
    /// Answers `credential` for every scheme.
    pub fn new(credential: Credential) -> StaticCredential {
        StaticCredential(credential)
    }
}

impl CredentialProvider for StaticCredential {
    fn credential<'a>(
        &'a self,
        _: SchemeRequest<'a>,
    ) -> BoxFuture<'a, Result<Credential, A2aError>> {
        let c = self.0.clone();
        Box::pin(async move { Ok(c) })
    }
}

/// Where an API key goes (spec 4.5.2 `location` and `name`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ApiKeyLocation {
    /// A header of that name.
    Header(HeaderName),
    /// A query parameter of that name.
    Query(String),
    /// A cookie of that name.
    Cookie(String),
}

impl ApiKeyLocation {
    /// The location an `APIKeySecurityScheme` declares: `header`, `query`
    /// or `cookie` (any case) and a non-empty name (a header name for a
    /// header). `None` when the card's scheme is unusable.
    pub fn of(scheme: &a2a_types::APIKeySecurityScheme) -> Option<ApiKeyLocation> {
        let name = scheme.name.trim();
        if name.is_empty() {
            return None;
        }
        let location = scheme.location.trim();
        if location.eq_ignore_ascii_case("header") {
            HeaderName::from_bytes(name.as_bytes())
                .ok()
                .map(ApiKeyLocation::Header)
        } else if location.eq_ignore_ascii_case("query") {
            Some(ApiKeyLocation::Query(name.to_owned()))
        } else if location.eq_ignore_ascii_case("cookie") {
            is_cookie_name(name).then(|| ApiKeyLocation::Cookie(name.to_owned()))
        } else {
            None
        }
    }
}

/// A cookie-name is an RFC 9110 token (RFC 6265 section 4.1.1).
fn is_cookie_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// The providers a client has, by scheme kind and by scheme name; see the
/// module documentation for how [`select`](Credentials::select) chooses.
///
/// ```
/// use a2a_client::Credentials;
/// use a2a_types::AgentCard;
///
/// let card: AgentCard = a2a_types::from_slice(br#"{
///     "name": "A", "description": "A", "version": "1", "capabilities": {},
///     "supportedInterfaces": [{"url": "https://a.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
///     "defaultInputModes": [], "defaultOutputModes": [], "skills": [],
///     "securitySchemes": {
///         "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}},
///         "jwt": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}},
///     "securityRequirements": [{"schemes": {"key": {}}}, {"schemes": {"jwt": {}}}]
/// }"#)?;
/// // Only a bearer token: the second requirement is the first one met.
/// let chosen = Credentials::new().with_bearer("t0k3n").select(&card)?;
/// assert_eq!(chosen.scheme_names().collect::<Vec<_>>(), ["jwt"]);
/// assert!(!format!("{chosen:?}").contains("t0k3n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Credentials {
    bearer: Option<Arc<dyn CredentialProvider>>,
    api_key: Option<Arc<dyn CredentialProvider>>,
    oauth2: Option<Arc<dyn CredentialProvider>>,
    named: BTreeMap<String, Arc<dyn CredentialProvider>>,
}

impl Credentials {
    /// No providers.
    pub fn new() -> Credentials {
        Credentials::default()
    }

    /// A bearer token for HTTP `bearer` schemes, and for OAuth 2.0 and
    /// OpenID Connect schemes when no OAuth 2.0 provider is configured (a
    /// token obtained elsewhere is presented the same way, RFC 6750).
    pub fn with_bearer(self, token: impl Into<Secret>) -> Credentials {
        self.with_bearer_provider(StaticCredential::new(Credential::Bearer(token.into())))
    }

    /// A provider for HTTP `bearer` schemes (as [`with_bearer`](Self::with_bearer)).
    pub fn with_bearer_provider(
        mut self,
        provider: impl CredentialProvider + 'static,
    ) -> Credentials {
        self.bearer = Some(Arc::new(provider));
        self
    }

    /// An API key for `APIKeySecurityScheme`s, sent where the scheme says.
    pub fn with_api_key(mut self, key: impl Into<Secret>) -> Credentials {
        self.api_key = Some(Arc::new(StaticCredential::new(Credential::ApiKey(
            key.into(),
        ))));
        self
    }

    /// A provider for OAuth 2.0 schemes, and OpenID Connect ones
    /// ([`ClientCredentials`] answers for those whose flow is
    /// `clientCredentials`, or for any when its token URL is given).
    pub fn with_oauth2(mut self, provider: impl CredentialProvider + 'static) -> Credentials {
        self.oauth2 = Some(Arc::new(provider));
        self
    }

    /// A provider for the scheme named `name` in the card, whatever its
    /// kind; it takes precedence over the providers by kind.
    pub fn with_scheme(
        mut self,
        name: impl Into<String>,
        provider: impl CredentialProvider + 'static,
    ) -> Credentials {
        self.named.insert(name.into(), Arc::new(provider));
        self
    }

    /// True when no provider is configured.
    pub fn is_empty(&self) -> bool {
        self.bearer.is_none()
            && self.api_key.is_none()
            && self.oauth2.is_none()
            && self.named.is_empty()
    }

    /// The provider for the scheme `name` declared as `scheme`, with the
    /// API key's location; `None` when none is configured for it.
    fn provider_for(
        &self,
        name: &str,
        scheme: &SecurityScheme,
    ) -> Option<(Arc<dyn CredentialProvider>, Option<ApiKeyLocation>)> {
        let key_location = match scheme {
            SecurityScheme::ApiKey(k) => Some(ApiKeyLocation::of(k)?),
            _ => None,
        };
        if let Some(p) = self.named.get(name) {
            return Some((Arc::clone(p), key_location));
        }
        let p = match scheme {
            SecurityScheme::ApiKey(_) => self.api_key.as_ref(),
            SecurityScheme::HttpAuth(h) if h.scheme.trim().eq_ignore_ascii_case("bearer") => {
                self.bearer.as_ref()
            }
            SecurityScheme::OAuth2(_) | SecurityScheme::OpenIdConnect(_) => {
                self.oauth2.as_ref().or(self.bearer.as_ref())
            }
            _ => None,
        }?;
        Some((Arc::clone(p), key_location))
    }

    /// What to send to the agent of `card`: the first of its
    /// `securityRequirements` all of whose schemes the card declares and
    /// have a provider here (an empty requirement is met by sending
    /// nothing). A card without requirements needs nothing: the result is
    /// empty.
    ///
    /// # Errors
    ///
    /// The card has requirements and none is met: [`NoRequirementMet`]
    /// names them (a call without credentials would be refused).
    pub fn select(&self, card: &AgentCard) -> Result<CallCredentials, NoRequirementMet> {
        if card.security_requirements.is_empty() {
            return Ok(CallCredentials::default());
        }
        'requirements: for requirement in &card.security_requirements {
            let mut slots = Vec::new();
            for (name, scopes) in &requirement.schemes {
                let Some(scheme) = card.security_schemes.get(name) else {
                    continue 'requirements;
                };
                let Some((provider, key_location)) = self.provider_for(name, scheme) else {
                    continue 'requirements;
                };
                slots.push(Slot {
                    name: name.clone(),
                    scheme: scheme.clone(),
                    scopes: scopes.list.clone(),
                    key_location,
                    provider,
                });
            }
            return Ok(CallCredentials { slots });
        }
        Err(NoRequirementMet {
            requirements: card
                .security_requirements
                .iter()
                .map(|r| r.schemes.keys().cloned().collect())
                .collect(),
        })
    }
}

/// None of the card's `securityRequirements` has a provider for each of
/// its schemes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no security requirement of the agent card can be met with the configured credentials (the card asks for one of: {})", describe(.requirements))]
pub struct NoRequirementMet {
    requirements: Vec<Vec<String>>,
}

impl NoRequirementMet {
    /// The card's requirements, each as its scheme names.
    pub fn requirements(&self) -> &[Vec<String>] {
        &self.requirements
    }
}

fn describe(requirements: &[Vec<String>]) -> String {
    requirements
        .iter()
        .map(|r| r.join(" + "))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One scheme of the selected requirement, with its provider.
#[derive(Debug, Clone)]
struct Slot {
    name: String,
    scheme: SecurityScheme,
    scopes: Vec<String>,
    key_location: Option<ApiKeyLocation>,
    provider: Arc<dyn CredentialProvider>,
}

/// The credentials of one agent: the schemes of the requirement
/// [`Credentials::select`] chose, each with its provider. Empty: nothing
/// is sent.
#[derive(Debug, Clone, Default)]
pub struct CallCredentials {
    slots: Vec<Slot>,
}

/// The credentials one attempt of a call carried, for [`CallCredentials::refused`].
#[derive(Debug, Default)]
pub(crate) struct Sent(Vec<(usize, Credential)>);

impl CallCredentials {
    /// Nothing to send.
    pub fn none() -> CallCredentials {
        CallCredentials::default()
    }

    /// True when nothing is sent.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The names of the selected schemes.
    pub fn scheme_names(&self) -> impl Iterator<Item = &str> {
        self.slots.iter().map(|s| s.name.as_str())
    }

    /// A copy of `request` with the credentials on it, and what was sent.
    /// Over gRPC (`grpc`) an API key for the query is refused: gRPC
    /// carries credentials as metadata only (spec 10.2), and servers do
    /// not see a query.
    pub(crate) async fn attach(
        &self,
        request: &http::Request<Bytes>,
        grpc: bool,
    ) -> Result<(http::Request<Bytes>, Sent), A2aError> {
        if grpc {
            if let Some(slot) = self
                .slots
                .iter()
                .find(|s| matches!(s.key_location, Some(ApiKeyLocation::Query(_))))
            {
                return Err(unusable(&format!(
                    "the scheme {:?} puts the API key in the query, which gRPC does not carry \
                     (spec 10.2: metadata only); use another interface of the card",
                    slot.name
                )));
            }
        }
        let mut copy = http::Request::new(request.body().clone());
        *copy.method_mut() = request.method().clone();
        *copy.uri_mut() = request.uri().clone();
        *copy.version_mut() = request.version();
        *copy.headers_mut() = request.headers().clone();
        let sent = self.apply(&mut copy).await?;
        Ok((copy, sent))
    }

    /// Whether `error`, the answer to a call that carried `sent`, is the
    /// agent refusing them (HTTP `401`, gRPC `UNAUTHENTICATED`) and a
    /// provider may answer a fresh one: then the call is worth sending
    /// once more. The providers forget the refused credentials either way.
    pub(crate) fn refused_by(&self, error: &A2aError, sent: &Sent) -> bool {
        error.kind() == ErrorKind::Unauthenticated && !sent.0.is_empty() && self.refused(sent)
    }

    /// Asks each provider and puts its credential on `request`.
    pub(crate) async fn apply(&self, request: &mut http::Request<Bytes>) -> Result<Sent, A2aError> {
        let mut sent = Vec::new();
        for (i, slot) in self.slots.iter().enumerate() {
            let credential = slot
                .provider
                .credential(SchemeRequest {
                    name: &slot.name,
                    scheme: &slot.scheme,
                    scopes: &slot.scopes,
                })
                .await?;
            place(request, slot, &credential)?;
            sent.push((i, credential));
        }
        Ok(Sent(sent))
    }

    /// The agent refused the credentials of `sent`: tells each provider;
    /// true when one of them may answer a fresh one (worth one retry).
    pub(crate) fn refused(&self, sent: &Sent) -> bool {
        let mut retry = false;
        for (i, credential) in &sent.0 {
            if let Some(slot) = self.slots.get(*i) {
                retry |= slot.provider.refused(credential);
            }
        }
        retry
    }
}

fn unusable(what: &str) -> A2aError {
    A2aError::new(
        ErrorKind::Unauthenticated,
        format!("the credential cannot be sent: {what}"),
    )
}

/// Puts `credential` where `slot`'s scheme says.
fn place(
    request: &mut http::Request<Bytes>,
    slot: &Slot,
    credential: &Credential,
) -> Result<(), A2aError> {
    let headers = request.headers_mut();
    match credential {
        Credential::Bearer(token) => {
            let mut v = HeaderValue::from_str(&format!("Bearer {}", token.expose()))
                .map_err(|_| unusable("the token is not a header value"))?;
            v.set_sensitive(true);
            headers.insert(AUTHORIZATION, v);
        }
        Credential::Authorization {
            scheme,
            credentials,
        } => {
            let mut v = HeaderValue::from_str(&format!("{scheme} {}", credentials.expose()))
                .map_err(|_| unusable("the credentials are not a header value"))?;
            v.set_sensitive(true);
            headers.insert(AUTHORIZATION, v);
        }
        Credential::ApiKey(key) => match &slot.key_location {
            Some(ApiKeyLocation::Header(name)) => {
                let mut v = HeaderValue::from_str(key.expose())
                    .map_err(|_| unusable("the API key is not a header value"))?;
                v.set_sensitive(true);
                headers.insert(name.clone(), v);
            }
            Some(ApiKeyLocation::Cookie(name)) => {
                if !key.expose().bytes().all(is_cookie_octet) {
                    return Err(unusable("the API key is not a cookie value (RFC 6265)"));
                }
                add_cookie(headers, name, key.expose())?;
            }
            Some(ApiKeyLocation::Query(name)) => add_query(request, name, key.expose())?,
            None => {
                return Err(unusable(&format!(
                    "the scheme {:?} is not an API key scheme",
                    slot.name
                )))
            }
        },
    }
    Ok(())
}

/// RFC 6265 section 4.1.1 `cookie-octet`.
fn is_cookie_octet(b: u8) -> bool {
    matches!(b, 0x21 | 0x23..=0x2B | 0x2D..=0x3A | 0x3C..=0x5B | 0x5D..=0x7E)
}

/// Adds `name=value` to the request's one `Cookie` header (RFC 6265
/// section 5.4: pairs joined by `"; "`).
fn add_cookie(headers: &mut HeaderMap, name: &str, value: &str) -> Result<(), A2aError> {
    let pair = format!("{name}={value}");
    let joined = match headers.get(COOKIE).and_then(|v| v.to_str().ok()) {
        Some(existing) if !existing.trim().is_empty() => format!("{existing}; {pair}"),
        _ => pair,
    };
    let mut v = HeaderValue::from_str(&joined).map_err(|_| unusable("the cookie header"))?;
    v.set_sensitive(true);
    headers.insert(COOKIE, v);
    Ok(())
}

/// Appends `name=value` to the request URI's query, percent-encoded.
fn add_query(request: &mut http::Request<Bytes>, name: &str, value: &str) -> Result<(), A2aError> {
    let uri = request.uri();
    let pq = uri.path_and_query().map_or("/", |p| p.as_str());
    let sep = if uri.query().is_some() { '&' } else { '?' };
    let with = format!("{pq}{sep}{}={}", form_encode(name), form_encode(value));
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(
        with.parse()
            .map_err(|_| unusable("the API key cannot go in the query"))?,
    );
    *request.uri_mut() = Uri::from_parts(parts).map_err(|_| unusable("the request URI"))?;
    Ok(())
}

/// `application/x-www-form-urlencoded` encoding of one name or value
/// (unreserved bytes kept, the rest percent-encoded).
fn form_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The host's clock, for token expiry: the core reads none. Any
/// `Fn() -> SystemTime` is one (`std::time::SystemTime::now`, or a test's
/// settable clock).
pub trait Clock: Send + Sync {
    /// The current time.
    fn now(&self) -> SystemTime;
}

impl<F: Fn() -> SystemTime + Send + Sync> Clock for F {
    fn now(&self) -> SystemTime {
        self()
    }
}

/// How the client authenticates to the token endpoint (RFC 6749 section
/// 2.3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ClientAuth {
    /// `Authorization: Basic` of the form-encoded id and secret (the
    /// method every authorization server MUST support). The default.
    #[default]
    Basic,
    /// `client_id` and `client_secret` in the form body.
    Body,
}

/// The configuration of the client-credentials flow (RFC 6749 section
/// 4.4). `Debug` never shows the secret.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ClientCredentialsConfig {
    /// The client identifier.
    pub client_id: String,
    /// The client secret.
    pub client_secret: Secret,
    /// The token endpoint. `None`: the card's scheme's
    /// `clientCredentials.tokenUrl`, which must then be `https` unless
    /// [`allow_http_token_url`](Self::allow_http_token_url) (the secret
    /// goes wherever the card says: pin this for cards from untrusted
    /// sources).
    pub token_url: Option<String>,
    /// The scopes requested; empty: the requirement's scopes for the
    /// scheme (spec 4.4.1), and none at all if it names none.
    pub scopes: Vec<String>,
    /// How the client authenticates. Default: [`ClientAuth::Basic`].
    pub client_auth: ClientAuth,
    /// How long before its expiry a cached token is replaced. Default 30 s;
    /// at most half the token's lifetime is used, so a short-lived token
    /// still serves the call that fetched it.
    pub refresh_skew: Duration,
    /// The largest token response read, in bytes. Default 64 KiB; a larger
    /// one is refused.
    pub max_response: usize,
    /// Whether a card's token URL may be `http`. Default false.
    pub allow_http_token_url: bool,
}

impl ClientCredentialsConfig {
    /// Default [`refresh_skew`](Self::refresh_skew): 30 s.
    pub const DEFAULT_REFRESH_SKEW: Duration = Duration::from_secs(30);
    /// Default [`max_response`](Self::max_response): 64 KiB.
    pub const DEFAULT_MAX_RESPONSE: usize = 64 * 1024;

    /// The flow for `client_id` with `client_secret`, other fields at
    /// their defaults.
    pub fn new(client_id: impl Into<String>, client_secret: impl Into<Secret>) -> Self {
        ClientCredentialsConfig {
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            token_url: None,
            scopes: Vec::new(),
            client_auth: ClientAuth::Basic,
            refresh_skew: Self::DEFAULT_REFRESH_SKEW,
            max_response: Self::DEFAULT_MAX_RESPONSE,
            allow_http_token_url: false,
        }
    }

    /// Sets [`token_url`](Self::token_url).
    pub fn with_token_url(mut self, url: impl Into<String>) -> Self {
        self.token_url = Some(url.into());
        self
    }

    /// Sets [`scopes`](Self::scopes).
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets [`client_auth`](Self::client_auth).
    pub fn with_client_auth(mut self, auth: ClientAuth) -> Self {
        self.client_auth = auth;
        self
    }

    /// Sets [`refresh_skew`](Self::refresh_skew).
    pub fn with_refresh_skew(mut self, skew: Duration) -> Self {
        self.refresh_skew = skew;
        self
    }

    /// Sets [`max_response`](Self::max_response).
    pub fn with_max_response(mut self, bytes: usize) -> Self {
        self.max_response = bytes;
        self
    }

    /// Sets [`allow_http_token_url`](Self::allow_http_token_url).
    pub fn with_http_token_url_allowed(mut self, allowed: bool) -> Self {
        self.allow_http_token_url = allowed;
        self
    }
}

/// A cached access token.
#[derive(Clone)]
struct Token {
    access: Secret,
    /// When to fetch a new one; `None`: the response gave no lifetime, so
    /// the token is kept until the agent refuses it.
    refresh_at: Option<SystemTime>,
}

/// The cache: one token per (token URL, scope), and whether a fetch is
/// under way (the others wait for it rather than fetch too).
#[derive(Default)]
struct Cache {
    tokens: BTreeMap<(String, String), Token>,
    fetching: bool,
    waiters: Vec<Waker>,
}

/// At most this many tokens are cached (token URL and scope pairs).
const MAX_CACHED: usize = 16;

/// The OAuth 2.0 client-credentials flow (RFC 6749 section 4.4) as a
/// [`CredentialProvider`]: a token fetched through the host's
/// [`HttpClient`], cached, fetched again once within the refresh skew of
/// its expiry on the host's [`Clock`], and dropped when the agent refuses
/// it. Concurrent calls share one fetch.
///
/// ```
/// use a2a_client::{ClientCredentials, ClientCredentialsConfig, Credentials};
/// # use a2a_client::{BoxFuture, HttpClient, HttpError, ResponseBody};
/// # struct Host;
/// # impl HttpClient for Host {
/// #     fn send(&self, _: http::Request<bytes::Bytes>)
/// #         -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>>
/// #     { Box::pin(async { Err(HttpError::Other("offline".into())) }) }
/// # }
/// let config = ClientCredentialsConfig::new("my-client", "s3cr3t").with_scopes(["a2a"]);
/// let flow = ClientCredentials::new(Host, std::time::SystemTime::now, config);
/// assert!(!format!("{flow:?}").contains("s3cr3t"));
/// let credentials = Credentials::new().with_oauth2(flow);
/// # let _ = credentials;
/// ```
pub struct ClientCredentials<C, K> {
    client: C,
    clock: K,
    config: ClientCredentialsConfig,
    cache: Mutex<Cache>,
}

impl<C, K> fmt::Debug for ClientCredentials<C, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cached = self.cache.lock().map_or(0, |c| c.tokens.len());
        f.debug_struct("ClientCredentials")
            .field("config", &self.config)
            .field("cached_tokens", &cached)
            .finish_non_exhaustive()
    }
}

/// The parts of a token response (RFC 6749 section 5.1) read.
#[derive(serde::Deserialize)]
struct TokenResponse {
    access_token: String,
    token_type: String,
    #[serde(default)]
    expires_in: Option<serde_json::Value>,
}

/// An error response (RFC 6749 section 5.2).
#[derive(serde::Deserialize)]
struct TokenError {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// A token endpoint's failure, as the caller's error: the agent cannot be
/// called without the token.
fn token_failure(message: impl Into<String>) -> A2aError {
    A2aError::new(ErrorKind::Unauthenticated, message)
}

/// At most 256 characters of what a server said.
fn clip(s: &str) -> String {
    s.chars().take(256).collect()
}

impl<C: HttpClient, K: Clock> ClientCredentials<C, K> {
    /// The flow of `config`, fetching through `client` and reading time
    /// from `clock`.
    pub fn new(client: C, clock: K, config: ClientCredentialsConfig) -> ClientCredentials<C, K> {
        ClientCredentials {
            client,
            clock,
            config,
            cache: Mutex::new(Cache::default()),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ClientCredentialsConfig {
        &self.config
    }

    /// The token endpoint and the scope for `request`.
    fn target(&self, request: &SchemeRequest<'_>) -> Result<(String, String), A2aError> {
        let scopes = if self.config.scopes.is_empty() {
            request.scopes
        } else {
            &self.config.scopes[..]
        };
        let scope = scopes.join(" ");
        if let Some(url) = &self.config.token_url {
            return Ok((url.clone(), scope));
        }
        let url = match request.scheme {
            SecurityScheme::OAuth2(o) => match &o.flows {
                Some(OAuthFlows::ClientCredentials(c)) => c.token_url.trim(),
                _ => "",
            },
            _ => "",
        };
        if url.is_empty() {
            return Err(token_failure(format!(
                "the scheme {:?} declares no clientCredentials flow: give the token URL",
                request.name
            )));
        }
        let https = url.len() > 8 && url[..8].eq_ignore_ascii_case("https://");
        if !https && !self.config.allow_http_token_url {
            return Err(token_failure(format!(
                "the card's token URL {:?} is not https: the client secret is not sent there",
                clip(url)
            )));
        }
        Ok((url.to_owned(), scope))
    }

    /// Waits until no fetch is under way, then takes the fetch over (or
    /// answers the cached token, if it is still good).
    async fn cached_or_lead(&self, key: &(String, String)) -> Result<Option<Secret>, A2aError> {
        std::future::poll_fn(|cx| {
            let mut cache = match self.cache.lock() {
                Ok(c) => c,
                Err(_) => return Poll::Ready(Err(A2aError::internal("token cache poisoned"))),
            };
            let now = self.clock.now();
            if let Some(t) = cache.tokens.get(key) {
                if t.refresh_at.is_none_or(|at| now < at) {
                    return Poll::Ready(Ok(Some(t.access.clone())));
                }
            }
            if cache.fetching {
                cache.waiters.push(cx.waker().clone());
                return Poll::Pending;
            }
            cache.fetching = true;
            Poll::Ready(Ok(None))
        })
        .await
    }

    /// Ends a fetch: stores its token, wakes the waiters.
    fn finish(&self, key: (String, String), token: Option<Token>) {
        if let Ok(mut cache) = self.cache.lock() {
            if let Some(t) = token {
                if cache.tokens.len() >= MAX_CACHED && !cache.tokens.contains_key(&key) {
                    cache.tokens.clear();
                }
                cache.tokens.insert(key, t);
            }
            cache.fetching = false;
            for w in cache.waiters.drain(..) {
                w.wake();
            }
        }
    }

    /// One token request (RFC 6749 section 4.4.2) and its response (5.1).
    async fn fetch(&self, url: &str, scope: &str) -> Result<Token, A2aError> {
        let started = self.clock.now();
        let mut form = vec![("grant_type", "client_credentials")];
        if !scope.is_empty() {
            form.push(("scope", scope));
        }
        if self.config.client_auth == ClientAuth::Body {
            form.push(("client_id", &self.config.client_id));
            form.push(("client_secret", self.config.client_secret.expose()));
        }
        let body: String = form
            .iter()
            .map(|(k, v)| format!("{k}={}", form_encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let uri: Uri = url
            .parse()
            .map_err(|_| token_failure(format!("the token URL {:?} is not a URI", clip(url))))?;
        let mut request = http::Request::new(Bytes::from(body));
        *request.method_mut() = http::Method::POST;
        *request.uri_mut() = uri;
        let headers = request.headers_mut();
        headers.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        if self.config.client_auth == ClientAuth::Basic {
            // RFC 6749 section 2.3.1: each form-encoded, then Basic.
            let pair = format!(
                "{}:{}",
                form_encode(&self.config.client_id),
                form_encode(self.config.client_secret.expose())
            );
            let b64 = base64::engine::general_purpose::STANDARD.encode(pair);
            let mut v = HeaderValue::from_str(&format!("Basic {b64}"))
                .map_err(|_| token_failure("the client credentials are not a header value"))?;
            v.set_sensitive(true);
            headers.insert(AUTHORIZATION, v);
        }
        let response = self.client.send(request).await.map_err(A2aError::from)?;
        let (parts, mut body) = response.into_parts();
        let bytes = match read_body(&parts.headers, &mut body, self.config.max_response).await? {
            ReadBody::Complete(b) => b,
            ReadBody::TooLarge => {
                return Err(token_failure(format!(
                    "the token response exceeds the limit of {} bytes",
                    self.config.max_response
                )))
            }
        };
        if !parts.status.is_success() {
            let why = match serde_json::from_slice::<TokenError>(&bytes) {
                Ok(e) => format!(
                    "{}{}",
                    clip(&e.error),
                    e.error_description
                        .map(|d| format!(": {}", clip(&d)))
                        .unwrap_or_default()
                ),
                Err(_) => "no OAuth error in the body".to_owned(),
            };
            return Err(token_failure(format!(
                "the token endpoint answered HTTP {}: {why}",
                parts.status.as_u16()
            )));
        }
        let parsed: TokenResponse = serde_json::from_slice(&bytes).map_err(|e| {
            token_failure(format!(
                "the token response is not a token (RFC 6749 5.1): {e}"
            ))
        })?;
        // RFC 6749 section 7.1: a client must understand the type; A2A
        // agents take bearer tokens (RFC 6750).
        if !parsed.token_type.eq_ignore_ascii_case("bearer") {
            return Err(token_failure(format!(
                "the token endpoint issued a {:?} token; only Bearer is supported",
                clip(&parsed.token_type)
            )));
        }
        if parsed.access_token.is_empty() {
            return Err(token_failure("the token endpoint issued an empty token"));
        }
        let lifetime = match &parsed.expires_in {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Number(n)) => n.as_u64(),
            // Some servers write it as a string.
            Some(serde_json::Value::String(s)) => s.trim().parse::<u64>().ok(),
            Some(_) => None,
        }
        .map(Duration::from_secs);
        let refresh_at = lifetime.map(|life| {
            let skew = self.config.refresh_skew.min(life / 2);
            started + (life - skew)
        });
        Ok(Token {
            access: Secret::new(parsed.access_token),
            refresh_at,
        })
    }

    /// The token for `request`: the cached one, or a fresh one.
    async fn token(&self, request: &SchemeRequest<'_>) -> Result<Secret, A2aError> {
        let key = self.target(request)?;
        if let Some(t) = self.cached_or_lead(&key).await? {
            return Ok(t);
        }
        // Releases the lead even when this future is dropped mid-fetch
        // (a cancelled call), so the waiters do not wait forever.
        struct Lead<'f, C: HttpClient, K: Clock> {
            flow: &'f ClientCredentials<C, K>,
            key: Option<(String, String)>,
        }
        impl<C: HttpClient, K: Clock> Drop for Lead<'_, C, K> {
            fn drop(&mut self) {
                if let Some(key) = self.key.take() {
                    self.flow.finish(key, None);
                }
            }
        }
        let mut lead = Lead {
            flow: self,
            key: Some(key.clone()),
        };
        let fetched = self.fetch(&key.0, &key.1).await;
        lead.key = None;
        self.finish(key, fetched.as_ref().ok().cloned());
        fetched.map(|t| t.access)
    }
}

impl<C: HttpClient, K: Clock> CredentialProvider for ClientCredentials<C, K> {
    fn credential<'a>(
        &'a self,
        request: SchemeRequest<'a>,
    ) -> BoxFuture<'a, Result<Credential, A2aError>> {
        Box::pin(async move { self.token(&request).await.map(Credential::Bearer) })
    }

    /// Drops the refused token from the cache; the next call fetches a
    /// new one.
    fn refused(&self, credential: &Credential) -> bool {
        let Credential::Bearer(refused) = credential else {
            return false;
        };
        if let Ok(mut cache) = self.cache.lock() {
            cache.tokens.retain(|_, t| t.access != *refused);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HttpError, ResponseBody};
    use std::future::Future;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::task::Context;

    fn block_on<F: Future>(f: F) -> F::Output {
        let mut f = std::pin::pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    fn card(schemes: &str, requirements: &str) -> AgentCard {
        a2a_types::from_slice(
            format!(
                r#"{{"name": "A", "description": "A", "version": "1", "capabilities": {{}},
                "supportedInterfaces": [{{"url": "https://a.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}}],
                "defaultInputModes": [], "defaultOutputModes": [], "skills": [],
                "securitySchemes": {schemes}, "securityRequirements": {requirements}}}"#
            )
            .as_bytes(),
        )
        .unwrap()
    }

    const SCHEMES: &str = r#"{
        "hdr": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}},
        "qry": {"apiKeySecurityScheme": {"location": "query", "name": "api_key"}},
        "cke": {"apiKeySecurityScheme": {"location": "cookie", "name": "sid"}},
        "jwt": {"httpAuthSecurityScheme": {"scheme": "bearer"}},
        "basic": {"httpAuthSecurityScheme": {"scheme": "basic"}},
        "oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "https://idp.example/token", "scopes": {}}}}}
    }"#;

    fn sent(creds: &CallCredentials, uri: &str) -> http::Request<Bytes> {
        let mut r = http::Request::new(Bytes::new());
        *r.uri_mut() = uri.parse().unwrap();
        r.headers_mut()
            .insert(COOKIE, HeaderValue::from_static("a=b"));
        block_on(creds.apply(&mut r)).unwrap();
        r
    }

    #[test]
    fn the_first_requirement_met_is_used() {
        let c = card(
            SCHEMES,
            r#"[{"schemes": {"basic": {}}}, {"schemes": {"hdr": {}, "jwt": {}}}, {"schemes": {"jwt": {}}}]"#,
        );
        let only_bearer = Credentials::new().with_bearer("tok");
        let got = only_bearer.select(&c).unwrap();
        assert_eq!(got.scheme_names().collect::<Vec<_>>(), ["jwt"]);
        let both = only_bearer.clone().with_api_key("key");
        let got = both.select(&c).unwrap();
        assert_eq!(got.scheme_names().collect::<Vec<_>>(), ["hdr", "jwt"]);
        let r = sent(&got, "https://a.example/");
        assert_eq!(r.headers()["x-key"], "key");
        assert_eq!(r.headers()[AUTHORIZATION], "Bearer tok");
        // A provider by name wins over a provider by kind.
        let named = both.with_scheme(
            "basic",
            StaticCredential::new(Credential::Authorization {
                scheme: "Basic".into(),
                credentials: "dTpw".into(),
            }),
        );
        let got = named.select(&c).unwrap();
        assert_eq!(got.scheme_names().collect::<Vec<_>>(), ["basic"]);
        assert_eq!(
            sent(&got, "https://a.example/").headers()[AUTHORIZATION],
            "Basic dTpw"
        );
        // None met: an error naming the requirements.
        let e = Credentials::new()
            .with_api_key("k")
            .select(&card(SCHEMES, r#"[{"schemes": {"jwt": {}}}]"#));
        let e = e.unwrap_err();
        assert_eq!(e.requirements(), [vec!["jwt".to_owned()]]);
        assert!(e.to_string().contains("jwt"), "{e}");
        // No requirements: nothing is sent.
        let none = Credentials::new()
            .with_bearer("t")
            .select(&card(SCHEMES, "[]"))
            .unwrap();
        assert!(none.is_empty());
        // An undeclared scheme cannot be met.
        let undeclared = card(SCHEMES, r#"[{"schemes": {"ghost": {}}}, {"schemes": {}}]"#);
        assert!(Credentials::new()
            .with_bearer("t")
            .select(&undeclared)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn api_keys_go_where_the_scheme_says() {
        for (scheme, check) in [
            (
                "hdr",
                &(|r: &http::Request<Bytes>| assert_eq!(r.headers()["x-key"], "k&1"))
                    as &dyn Fn(&http::Request<Bytes>),
            ),
            ("qry", &|r: &http::Request<Bytes>| {
                assert_eq!(r.uri().query(), Some("x=1&api_key=k%261"))
            }),
            ("cke", &|r: &http::Request<Bytes>| {
                assert_eq!(r.headers()[COOKIE], "a=b; sid=k&1")
            }),
        ] {
            let c = card(
                SCHEMES,
                &format!(r#"[{{"schemes": {{"{scheme}": {{}}}}}}]"#),
            );
            let got = Credentials::new().with_api_key("k&1").select(&c).unwrap();
            check(&sent(&got, "https://a.example/p?x=1"));
        }
        // A key that is no cookie value is refused, not mangled.
        let c = card(SCHEMES, r#"[{"schemes": {"cke": {}}}]"#);
        let got = Credentials::new().with_api_key("a;b").select(&c).unwrap();
        let mut r = http::Request::new(Bytes::new());
        let e = block_on(got.apply(&mut r)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unauthenticated);
        // An unusable API key scheme has no provider.
        let bad = card(
            r#"{"k": {"apiKeySecurityScheme": {"location": "body", "name": "k"}}}"#,
            r#"[{"schemes": {"k": {}}}]"#,
        );
        assert!(Credentials::new().with_api_key("k").select(&bad).is_err());
    }

    /// Answers token requests from a list; counts them; keeps the last.
    struct Idp {
        count: AtomicUsize,
        answers: Mutex<Vec<(u16, String)>>,
        last: Mutex<Option<http::Request<Bytes>>>,
    }

    impl Idp {
        fn new(answers: &[(u16, &str)]) -> Idp {
            Idp {
                count: AtomicUsize::new(0),
                answers: Mutex::new(
                    answers
                        .iter()
                        .rev()
                        .map(|(s, b)| (*s, (*b).to_owned()))
                        .collect(),
                ),
                last: Mutex::new(None),
            }
        }
    }

    impl HttpClient for Idp {
        fn send(
            &self,
            request: http::Request<Bytes>,
        ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
            self.count.fetch_add(1, Ordering::SeqCst);
            *self.last.lock().unwrap() = Some(request);
            let (status, body) = self
                .answers
                .lock()
                .unwrap()
                .pop()
                .unwrap_or((500, String::new()));
            Box::pin(async move {
                let mut r = http::Response::new(ResponseBody::full(body));
                *r.status_mut() = http::StatusCode::from_u16(status).unwrap();
                Ok(r)
            })
        }
    }

    fn oauth_request<'a>(scheme: &'a SecurityScheme, scopes: &'a [String]) -> SchemeRequest<'a> {
        SchemeRequest {
            name: "oauth",
            scheme,
            scopes,
        }
    }

    #[test]
    fn client_credentials_cache_refresh_and_refusal() {
        let c = card(SCHEMES, "[]");
        let scheme = c.security_schemes["oauth"].clone();
        let idp = Idp::new(&[
            (
                200,
                r#"{"access_token": "t1", "token_type": "Bearer", "expires_in": 100}"#,
            ),
            (
                200,
                r#"{"access_token": "t2", "token_type": "bearer", "expires_in": "100"}"#,
            ),
            (200, r#"{"access_token": "t3", "token_type": "Bearer"}"#),
        ]);
        let now = Arc::new(AtomicU64::new(1_000_000));
        let clock = {
            let now = Arc::clone(&now);
            move || SystemTime::UNIX_EPOCH + Duration::from_secs(now.load(Ordering::SeqCst))
        };
        let config = ClientCredentialsConfig::new("id:1", "se cret")
            .with_refresh_skew(Duration::from_secs(10));
        let flow = ClientCredentials::new(&idp, clock, config);
        let scopes = ["a2a".to_owned(), "read".to_owned()];
        let ask = || block_on(flow.credential(oauth_request(&scheme, &scopes))).unwrap();
        assert_eq!(ask(), Credential::Bearer("t1".into()));
        assert_eq!(ask(), Credential::Bearer("t1".into()));
        assert_eq!(idp.count.load(Ordering::SeqCst), 1);
        let req = idp.last.lock().unwrap().take().unwrap();
        assert_eq!(req.uri(), "https://idp.example/token");
        assert_eq!(req.method(), http::Method::POST);
        assert_eq!(
            req.headers()[CONTENT_TYPE],
            "application/x-www-form-urlencoded"
        );
        assert_eq!(
            &req.body()[..],
            b"grant_type=client_credentials&scope=a2a%20read"
        );
        // RFC 6749 2.3.1: form-encoded, then Basic: "id%3A1:se%20cret".
        let b64 = base64::engine::general_purpose::STANDARD.encode("id%3A1:se%20cret");
        assert_eq!(
            req.headers()[AUTHORIZATION],
            format!("Basic {b64}").as_str()
        );
        // Just before expiry minus skew: still cached; at it: one fetch.
        now.fetch_add(89, Ordering::SeqCst);
        assert_eq!(ask(), Credential::Bearer("t1".into()));
        now.fetch_add(1, Ordering::SeqCst);
        assert_eq!(ask(), Credential::Bearer("t2".into()));
        assert_eq!(ask(), Credential::Bearer("t2".into()));
        assert_eq!(idp.count.load(Ordering::SeqCst), 2);
        // Refused: dropped, and worth a retry; without expires_in, kept.
        assert!(flow.refused(&Credential::Bearer("t2".into())));
        assert_eq!(ask(), Credential::Bearer("t3".into()));
        now.fetch_add(1_000_000, Ordering::SeqCst);
        assert_eq!(ask(), Credential::Bearer("t3".into()));
        assert_eq!(idp.count.load(Ordering::SeqCst), 3);
    }

    /// Answers one token once `open` is set; counts requests.
    struct Gated {
        open: Arc<std::sync::atomic::AtomicBool>,
        count: AtomicUsize,
    }

    impl HttpClient for Gated {
        fn send(
            &self,
            _: http::Request<Bytes>,
        ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
            self.count.fetch_add(1, Ordering::SeqCst);
            let open = Arc::clone(&self.open);
            Box::pin(std::future::poll_fn(move |_| {
                if !open.load(Ordering::SeqCst) {
                    return Poll::Pending;
                }
                let body = r#"{"access_token": "one", "token_type": "Bearer", "expires_in": 600}"#;
                Poll::Ready(Ok(http::Response::new(ResponseBody::full(body))))
            }))
        }
    }

    #[test]
    fn concurrent_calls_share_one_fetch() {
        let c = card(SCHEMES, "[]");
        let scheme = c.security_schemes["oauth"].clone();
        let open = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let idp = Gated {
            open: Arc::clone(&open),
            count: AtomicUsize::new(0),
        };
        let flow =
            ClientCredentials::new(idp, SystemTime::now, ClientCredentialsConfig::new("i", "s"));
        let mut cx = Context::from_waker(Waker::noop());
        let mut first = flow.credential(oauth_request(&scheme, &[]));
        let mut second = flow.credential(oauth_request(&scheme, &[]));
        assert!(first.as_mut().poll(&mut cx).is_pending());
        assert!(second.as_mut().poll(&mut cx).is_pending());
        open.store(true, Ordering::SeqCst);
        assert!(
            second.as_mut().poll(&mut cx).is_pending(),
            "waits for the leader"
        );
        let Poll::Ready(Ok(a)) = first.as_mut().poll(&mut cx) else {
            panic!("first")
        };
        let Poll::Ready(Ok(b)) = second.as_mut().poll(&mut cx) else {
            panic!("second")
        };
        assert_eq!(a, b);
        assert_eq!(flow.client.count.load(Ordering::SeqCst), 1);
        // A leader dropped mid-fetch hands the lead on.
        flow.refused(&a);
        open.store(false, Ordering::SeqCst);
        let mut leader = flow.credential(oauth_request(&scheme, &[]));
        let mut waiter = flow.credential(oauth_request(&scheme, &[]));
        assert!(leader.as_mut().poll(&mut cx).is_pending());
        assert!(waiter.as_mut().poll(&mut cx).is_pending());
        drop(leader);
        open.store(true, Ordering::SeqCst);
        assert!(matches!(waiter.as_mut().poll(&mut cx), Poll::Ready(Ok(_))));
        assert_eq!(flow.client.count.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn token_endpoint_failures_are_errors() {
        let c = card(SCHEMES, "[]");
        let scheme = c.security_schemes["oauth"].clone();
        let big = format!(
            r#"{{"access_token": "{}", "token_type": "Bearer"}}"#,
            "x".repeat(70_000)
        );
        let idp = Idp::new(&[
            (
                400,
                r#"{"error": "invalid_client", "error_description": "who are you"}"#,
            ),
            (200, r#"{"access_token": "t", "token_type": "mac"}"#),
            (200, "not json"),
            (200, &big),
            (200, r#"{"access_token": "", "token_type": "Bearer"}"#),
        ]);
        let flow = ClientCredentials::new(
            &idp,
            SystemTime::now,
            ClientCredentialsConfig::new("id", "secret").with_client_auth(ClientAuth::Body),
        );
        let ask = || block_on(flow.credential(oauth_request(&scheme, &[]))).unwrap_err();
        let e = ask();
        assert_eq!(e.kind(), ErrorKind::Unauthenticated);
        assert!(e.message().contains("invalid_client: who are you"), "{e}");
        let req = idp.last.lock().unwrap().take().unwrap();
        assert_eq!(
            &req.body()[..],
            b"grant_type=client_credentials&client_id=id&client_secret=secret"
        );
        assert!(req.headers().get(AUTHORIZATION).is_none());
        assert!(ask().message().contains("only Bearer"));
        assert!(ask().message().contains("not a token"));
        assert!(ask().message().contains("exceeds the limit of 65536 bytes"));
        assert!(ask().message().contains("empty token"));
        // A failed fetch leaves no one waiting: the next call fetches.
        assert_eq!(idp.count.load(Ordering::SeqCst), 5);
    }

    #[test]
    fn a_card_token_url_must_be_https_unless_allowed_or_given() {
        let c = card(
            r#"{"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "http://idp.example/token", "scopes": {}}}}},
                "code": {"oauth2SecurityScheme": {"flows": {"authorizationCode": {"authorizationUrl": "https://idp.example/a", "tokenUrl": "https://idp.example/t", "scopes": {}}}}}}"#,
            "[]",
        );
        let idp = Idp::new(&[(200, r#"{"access_token": "t", "token_type": "Bearer"}"#)]);
        let config = ClientCredentialsConfig::new("id", "secret");
        let flow = ClientCredentials::new(&idp, SystemTime::now, config.clone());
        let o = &c.security_schemes["o"];
        let e = block_on(flow.credential(oauth_request(o, &[]))).unwrap_err();
        assert!(e.message().contains("not https"), "{e}");
        let code = &c.security_schemes["code"];
        let e = block_on(flow.credential(oauth_request(code, &[]))).unwrap_err();
        assert!(e.message().contains("no clientCredentials flow"), "{e}");
        assert_eq!(idp.count.load(Ordering::SeqCst), 0);
        let given = ClientCredentials::new(
            &idp,
            SystemTime::now,
            config.with_token_url("http://localhost:1/t"),
        );
        assert!(block_on(given.credential(oauth_request(code, &[]))).is_ok());
        assert_eq!(
            idp.last.lock().unwrap().as_ref().unwrap().uri(),
            "http://localhost:1/t"
        );
    }

    #[test]
    fn no_debug_output_holds_a_secret() {
        let secret = "s3cr3t-v4lue";
        let c = card(
            SCHEMES,
            r#"[{"schemes": {"hdr": {}, "jwt": {}, "oauth": {}}}]"#,
        );
        let idp = Arc::new(Idp::new(&[(
            200,
            r#"{"access_token": "s3cr3t-v4lue", "token_type": "Bearer", "expires_in": 60}"#,
        )]));
        let config =
            ClientCredentialsConfig::new("id", secret).with_token_url("https://idp.example/t");
        let flow = ClientCredentials::new(Arc::clone(&idp), SystemTime::now, config.clone());
        let scheme = c.security_schemes["oauth"].clone();
        let token = block_on(flow.credential(oauth_request(&scheme, &[]))).unwrap();
        let creds = Credentials::new()
            .with_bearer(secret)
            .with_api_key(secret)
            .with_scheme(
                "x",
                StaticCredential::new(Credential::Authorization {
                    scheme: "Basic".into(),
                    credentials: secret.into(),
                }),
            )
            .with_oauth2(flow);
        let selected = creds.select(&c).unwrap();
        let printed = [
            format!("{:?}", Secret::new(secret)),
            format!("{token:?}"),
            format!("{config:?}"),
            format!("{creds:?}"),
            format!("{selected:?}"),
            format!("{:?}", Credential::ApiKey(secret.into())),
            format!(
                "{:?}",
                StaticCredential::new(Credential::Bearer(secret.into()))
            ),
            format!("{:?}", sent(&selected, "https://a.example/").headers()),
        ];
        for p in &printed {
            assert!(!p.contains(secret), "{p}");
        }
        assert!(printed[0] == REDACTED && printed[2].contains(REDACTED));
    }
}
