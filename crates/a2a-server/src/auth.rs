//! The authentication hook of the server (spec 7.3-7.5, 3.3.2, 13.3): a
//! trait mapping a request to a caller, built-ins for the schemes an agent
//! card can declare, and the `WWW-Authenticate` challenges of a 401.
//!
//! # Decisions
//!
//! - **Four outcomes.** [`AuthOutcome::Anonymous`] means *no credentials
//!   for this authenticator* and is refused only when the card requires
//!   security; [`AuthOutcome::Unauthenticated`] means credentials were sent
//!   and are wrong (or malformed), and is always refused with 401 (spec
//!   3.3.2: servers MUST reject invalid credentials);
//!   [`AuthOutcome::Forbidden`] is 403.
//! - **When security is required.** When the card's
//!   `securityRequirements` list is non-empty and none of its entries is
//!   the empty requirement (`{}`, which in OpenAPI, the model of these
//!   fields, means "anonymous is acceptable"). `GetExtendedAgentCard`
//!   always requires an authenticated caller (spec 13.3).
//! - **Which scheme satisfied which requirement** is not checked: an
//!   authenticator that accepts a credential vouches for it. A host that
//!   needs "API key AND bearer" writes an authenticator that checks both.
//! - **Challenges** (RFC 9110 section 11.6.1): one `WWW-Authenticate`
//!   field per distinct challenge, from every scheme of the card's
//!   `securitySchemes` in name order: an HTTP scheme gives
//!   `<Scheme> realm="<realm>"` (`bearer` and `basic` written `Bearer`,
//!   `Basic`); OAuth 2.0 and OpenID Connect give `Bearer realm="<realm>"`
//!   (RFC 6750); an API key gives the custom challenge
//!   `ApiKey realm="<realm>", in="<header|query|cookie>", name="<name>"`,
//!   which tells a client where the key goes (no registered scheme does);
//!   mutual TLS gives none (it is not an HTTP challenge). When that leaves
//!   nothing, `Bearer realm="<realm>"`, since RFC 9110 requires at least
//!   one challenge on a 401.
//! - **Secrets are compared in constant time** (for a given length):
//!   every configured secret is compared in full, so the time taken does
//!   not say which one matched nor how long a prefix did.
//! - **API key locations**: `header`, `query` and `cookie`, as the card's
//!   `APIKeySecurityScheme.location` says (case-insensitive). A key given
//!   more than once is refused as malformed.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use a2a_types::{AgentCard, SecurityScheme};
use base64::Engine as _;
use http::header::{AUTHORIZATION, COOKIE};
use http::{Extensions, HeaderMap, HeaderName, HeaderValue, Method, Uri};
use subtle::ConstantTimeEq;

use a2a_wire::http_json::QueryParams;
use a2a_wire::{BoxFuture, Principal};

/// What an [`Authenticator`] sees of a request: method, target, headers,
/// and the host's request extensions (where, for instance, a TLS layer can
/// leave the client certificate).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct AuthRequest<'a> {
    /// The request method.
    pub method: &'a Method,
    /// The request target (path and query).
    pub uri: &'a Uri,
    /// The request headers.
    pub headers: &'a HeaderMap,
    /// The request's extensions, as the host set them.
    pub extensions: &'a Extensions,
}

impl<'a> AuthRequest<'a> {
    /// A view of a request from its parts.
    pub fn new(
        method: &'a Method,
        uri: &'a Uri,
        headers: &'a HeaderMap,
        extensions: &'a Extensions,
    ) -> AuthRequest<'a> {
        AuthRequest {
            method,
            uri,
            headers,
            extensions,
        }
    }

    /// A view of `parts`.
    pub fn from_parts(parts: &'a http::request::Parts) -> AuthRequest<'a> {
        AuthRequest::new(&parts.method, &parts.uri, &parts.headers, &parts.extensions)
    }
}

/// What authentication concluded about a request (spec 7.4).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthOutcome {
    /// Valid credentials: the call is made as this principal.
    Authenticated(Principal),
    /// No credentials this authenticator understands. Refused with 401
    /// only when the card requires security (see the module docs).
    Anonymous,
    /// Credentials were presented but are invalid, expired or malformed:
    /// 401 with the challenges. The text says why (it is sent to the
    /// client, so it must not leak secrets).
    Unauthenticated(String),
    /// The caller is known but may not use this agent: 403 (spec 7.5).
    /// The text says why (sent to the client).
    Forbidden(String),
}

/// Maps a request to a caller (spec 7.4). The server calls it for every
/// A2A request (not for the public agent card) before anything that could
/// reveal whether a task exists.
///
/// Asynchronous, so that an implementation can look a token up remotely;
/// the built-ins answer at once. A [`Principal`] that a host middleware
/// put in the request's extensions is taken as authenticated without
/// calling the authenticator.
///
/// ```
/// use a2a_server::{AuthOutcome, Authenticator, AuthRequest, BoxFuture, Principal};
///
/// /// Callers named by a header that a trusted proxy sets.
/// struct FromProxy;
/// impl Authenticator for FromProxy {
///     fn authenticate<'a>(&'a self, req: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
///         let outcome = match req.headers.get("x-authenticated-user").and_then(|v| v.to_str().ok()) {
///             Some(user) => AuthOutcome::Authenticated(Principal::new(user, "proxy")),
///             None => AuthOutcome::Anonymous,
///         };
///         Box::pin(std::future::ready(outcome))
///     }
/// }
/// ```
pub trait Authenticator: Send + Sync {
    /// Authenticates `request`.
    fn authenticate<'a>(&'a self, request: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome>;

    /// [`authenticate`](Self::authenticate), with the RFC 6750 section 3
    /// error that the `Bearer` challenge of a refusal carries (`None`: the
    /// card's challenges as they are). What the server calls; the default
    /// adds no error, so authenticators that do not override it answer
    /// exactly as before.
    fn authenticate_with_challenge<'a>(
        &'a self,
        request: AuthRequest<'a>,
    ) -> BoxFuture<'a, (AuthOutcome, Option<BearerError>)> {
        Box::pin(async move { (self.authenticate(request).await, None) })
    }
}

impl<A: Authenticator + ?Sized> Authenticator for Arc<A> {
    fn authenticate<'a>(&'a self, request: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        (**self).authenticate(request)
    }

    fn authenticate_with_challenge<'a>(
        &'a self,
        request: AuthRequest<'a>,
    ) -> BoxFuture<'a, (AuthOutcome, Option<BearerError>)> {
        (**self).authenticate_with_challenge(request)
    }
}

impl<A: Authenticator + ?Sized> Authenticator for Box<A> {
    fn authenticate<'a>(&'a self, request: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        (**self).authenticate(request)
    }

    fn authenticate_with_challenge<'a>(
        &'a self,
        request: AuthRequest<'a>,
    ) -> BoxFuture<'a, (AuthOutcome, Option<BearerError>)> {
        (**self).authenticate_with_challenge(request)
    }
}

/// The `error` of a `Bearer` challenge (RFC 6750 section 3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BearerErrorCode {
    /// `invalid_request`: a malformed request (400 or 401).
    InvalidRequest,
    /// `invalid_token`: expired, revoked, malformed or otherwise invalid
    /// (401).
    InvalidToken,
    /// `insufficient_scope`: the token lacks the scopes needed (403).
    InsufficientScope,
}

impl BearerErrorCode {
    /// The code as RFC 6750 writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            BearerErrorCode::InvalidRequest => "invalid_request",
            BearerErrorCode::InvalidToken => "invalid_token",
            BearerErrorCode::InsufficientScope => "insufficient_scope",
        }
    }
}

/// The error attributes an authenticator adds to the server's `Bearer`
/// challenge (RFC 6750 section 3): `error`, `error_description`, `scope`.
/// The server writes the challenge itself (its realm is the server's).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BearerError {
    /// `error`.
    pub code: BearerErrorCode,
    /// `error_description`: for the developer, never a secret.
    pub description: Option<String>,
    /// `scope`: the scopes needed, space-separated (with
    /// [`BearerErrorCode::InsufficientScope`]).
    pub scope: Option<String>,
}

impl BearerError {
    /// `invalid_token` with `description`.
    pub fn invalid_token(description: impl Into<String>) -> BearerError {
        BearerError {
            code: BearerErrorCode::InvalidToken,
            description: Some(description.into()),
            scope: None,
        }
    }

    /// `invalid_request` (a malformed request: a repeated `Authorization`
    /// field, a token that is not text) with `description`.
    pub fn invalid_request(description: impl Into<String>) -> BearerError {
        BearerError {
            code: BearerErrorCode::InvalidRequest,
            description: Some(description.into()),
            scope: None,
        }
    }

    /// `insufficient_scope` naming the `scope` needed, with `description`.
    pub fn insufficient_scope(
        scope: impl Into<String>,
        description: impl Into<String>,
    ) -> BearerError {
        BearerError {
            code: BearerErrorCode::InsufficientScope,
            description: Some(description.into()),
            scope: Some(scope.into()),
        }
    }

    /// The attributes as they follow the realm: `, error="...", ...`.
    fn attributes(&self) -> String {
        let mut out = format!(", error={}", quoted(self.code.as_str()));
        if let Some(d) = &self.description {
            out.push_str(", error_description=");
            out.push_str(&quoted(d));
        }
        if let Some(s) = &self.scope {
            out.push_str(", scope=");
            out.push_str(&quoted(s));
        }
        out
    }
}

/// Why a built-in authenticator could not be configured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AuthConfigError {
    /// The card declares no security scheme of this name.
    #[error("the agent card declares no security scheme named {0:?}")]
    UnknownScheme(String),
    /// The named scheme is not of the kind the authenticator handles.
    #[error("security scheme {name:?} is not {expected}")]
    WrongKind {
        /// The scheme name.
        name: String,
        /// What it should have been.
        expected: &'static str,
    },
    /// An API key location other than `header`, `query` or `cookie`.
    #[error("API key location {0:?} is not header, query or cookie")]
    UnsupportedLocation(String),
    /// An API key name that cannot be a header name, or is empty.
    #[error("API key name {0:?} is not a valid parameter name")]
    InvalidName(String),
}

fn boxed<'a, T: Send + 'a>(outcome: T) -> BoxFuture<'a, T> {
    Box::pin(std::future::ready(outcome))
}

/// Compares two secrets in time that depends only on their lengths
/// (`subtle`, the RustCrypto crates' constant-time primitives).
fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.ct_eq(b).into()
}

/// Finds the principal of `secret` among `(secret, principal)` pairs,
/// comparing against every pair.
fn lookup<'s>(pairs: &'s [(String, String)], secret: &[u8]) -> Option<&'s str> {
    let mut found = None;
    for (candidate, principal) in pairs {
        if ct_eq(candidate.as_bytes(), secret) && found.is_none() {
            found = Some(principal.as_str());
        }
    }
    found
}

/// The credentials of the one `Authorization` field if it uses `scheme`
/// (case-insensitive, RFC 9110 section 11.6.2): `Ok(None)` when there is
/// no such field or it uses another scheme, `Err` with the reason when
/// there are several fields or the value is not text. For
/// authenticators outside this crate (a JWT validator, say) to read the
/// field by the same rule as [`BearerAuth`] and [`BasicAuth`].
pub fn authorization<'h>(headers: &'h HeaderMap, scheme: &str) -> Result<Option<&'h str>, String> {
    let mut values = headers.get_all(AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err("more than one Authorization header".to_owned());
    }
    let text = value
        .to_str()
        .map_err(|_| "the Authorization header is not visible ASCII".to_owned())?;
    let text = text.trim_matches(|c| c == ' ' || c == '\t');
    let (name, rest) = text.split_once(' ').unwrap_or((text, ""));
    if !name.eq_ignore_ascii_case(scheme) {
        return Ok(None);
    }
    Ok(Some(rest.trim_start_matches(' ')))
}

/// Bearer tokens (RFC 6750) from a fixed table: `Authorization: Bearer
/// <token>`. For an `httpAuthSecurityScheme` with scheme `Bearer` (spec
/// 4.5.3), or an OAuth 2.0 / OpenID Connect scheme (spec 4.5.4, 4.5.5)
/// whose tokens the host knows in advance.
///
/// ```
/// use a2a_server::{AuthOutcome, BearerAuth, AuthRequest, Authenticator};
/// use http::{Extensions, HeaderMap, Method, Uri};
///
/// let auth = BearerAuth::new("bearer").with_token("s3cret", "alice");
/// let mut headers = HeaderMap::new();
/// headers.insert(http::header::AUTHORIZATION, "Bearer s3cret".parse()?);
/// let (m, u, e) = (Method::POST, Uri::from_static("/"), Extensions::new());
/// let outcome = futures_lite_block_on(auth.authenticate(AuthRequest::new(&m, &u, &headers, &e)));
/// assert!(matches!(outcome, AuthOutcome::Authenticated(p) if p.id == "alice" && p.scheme == "bearer"));
/// # fn futures_lite_block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct BearerAuth {
    scheme: String,
    tokens: Vec<(String, String)>,
}

impl BearerAuth {
    /// No tokens yet; principals it authenticates name `scheme` (the key
    /// of the card's `securitySchemes`).
    pub fn new(scheme: impl Into<String>) -> BearerAuth {
        BearerAuth {
            scheme: scheme.into(),
            tokens: Vec::new(),
        }
    }

    /// Accepts `token` as the principal `principal_id`.
    pub fn with_token(
        mut self,
        token: impl Into<String>,
        principal_id: impl Into<String>,
    ) -> BearerAuth {
        self.tokens.push((token.into(), principal_id.into()));
        self
    }

    /// The outcome, and for a token that is sent but not accepted the
    /// `invalid_token` error its challenge carries (RFC 6750 section 3.1:
    /// the client then knows to get a new token rather than to send one).
    fn outcome(&self, headers: &HeaderMap) -> (AuthOutcome, Option<BearerError>) {
        let token = match authorization(headers, "Bearer") {
            Ok(Some(token)) => token,
            Ok(None) => return (AuthOutcome::Anonymous, None),
            Err(why) => return (AuthOutcome::Unauthenticated(why), None),
        };
        let why = if token.is_empty() {
            "the bearer token is empty"
        } else if let Some(id) = lookup(&self.tokens, token.as_bytes()) {
            let principal = Principal::new(id, self.scheme.clone());
            return (AuthOutcome::Authenticated(principal), None);
        } else {
            "the bearer token is not valid"
        };
        (
            AuthOutcome::Unauthenticated(why.to_owned()),
            Some(BearerError::invalid_token(why)),
        )
    }
}

impl fmt::Debug for BearerAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BearerAuth")
            .field("scheme", &self.scheme)
            .field("tokens", &self.tokens.len())
            .finish()
    }
}

impl Authenticator for BearerAuth {
    fn authenticate<'a>(&'a self, request: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        boxed(self.outcome(request.headers).0)
    }

    fn authenticate_with_challenge<'a>(
        &'a self,
        request: AuthRequest<'a>,
    ) -> BoxFuture<'a, (AuthOutcome, Option<BearerError>)> {
        boxed(self.outcome(request.headers))
    }
}

/// Where an API key travels (spec 4.5.2 `location`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum KeyLocation {
    Header(HeaderName),
    Query(String),
    Cookie(String),
}

/// API keys from a fixed table, read where the card's
/// `APIKeySecurityScheme` says (spec 4.5.2): a header, a query parameter
/// or a cookie, under the scheme's `name`.
#[derive(Clone)]
pub struct ApiKeyAuth {
    scheme: String,
    location: KeyLocation,
    keys: Vec<(String, String)>,
}

impl ApiKeyAuth {
    /// Keys sent in `location` (`header`, `query` or `cookie`, any case)
    /// under `name`; principals it authenticates name `scheme`.
    ///
    /// # Errors
    ///
    /// An unknown location, or a name that is empty (or, for a header,
    /// not a valid header name).
    pub fn new(
        scheme: impl Into<String>,
        location: &str,
        name: &str,
    ) -> Result<ApiKeyAuth, AuthConfigError> {
        if name.is_empty() {
            return Err(AuthConfigError::InvalidName(name.to_owned()));
        }
        let location = if location.eq_ignore_ascii_case("header") {
            KeyLocation::Header(
                HeaderName::from_bytes(name.as_bytes())
                    .map_err(|_| AuthConfigError::InvalidName(name.to_owned()))?,
            )
        } else if location.eq_ignore_ascii_case("query") {
            KeyLocation::Query(name.to_owned())
        } else if location.eq_ignore_ascii_case("cookie") {
            KeyLocation::Cookie(name.to_owned())
        } else {
            return Err(AuthConfigError::UnsupportedLocation(location.to_owned()));
        };
        Ok(ApiKeyAuth {
            scheme: scheme.into(),
            location,
            keys: Vec::new(),
        })
    }

    /// Reads location and name from the card's scheme named `scheme`,
    /// which must be an `apiKeySecurityScheme`.
    ///
    /// ```
    /// use a2a_server::ApiKeyAuth;
    /// use a2a_types::{APIKeySecurityScheme, AgentCard};
    ///
    /// let mut card = AgentCard::default();
    /// card.security_schemes.insert(
    ///     "key".into(),
    ///     APIKeySecurityScheme { location: "header".into(), name: "X-API-Key".into(), ..Default::default() }.into(),
    /// );
    /// let auth = ApiKeyAuth::from_card(&card, "key")?.with_key("k-123", "build-bot");
    /// # Ok::<(), a2a_server::AuthConfigError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// No such scheme, not an API key scheme, or as [`ApiKeyAuth::new`].
    pub fn from_card(card: &AgentCard, scheme: &str) -> Result<ApiKeyAuth, AuthConfigError> {
        match card.security_schemes.get(scheme) {
            Some(SecurityScheme::ApiKey(s)) => ApiKeyAuth::new(scheme, &s.location, &s.name),
            Some(_) => Err(AuthConfigError::WrongKind {
                name: scheme.to_owned(),
                expected: "an apiKeySecurityScheme",
            }),
            None => Err(AuthConfigError::UnknownScheme(scheme.to_owned())),
        }
    }

    /// Accepts `key` as the principal `principal_id`.
    pub fn with_key(
        mut self,
        key: impl Into<String>,
        principal_id: impl Into<String>,
    ) -> ApiKeyAuth {
        self.keys.push((key.into(), principal_id.into()));
        self
    }

    /// The key the request carries: `Ok(None)` if none.
    fn find_key<'r>(&self, request: &AuthRequest<'r>) -> Result<Option<String>, String> {
        match &self.location {
            KeyLocation::Header(name) => {
                let mut values = request.headers.get_all(name).iter();
                let Some(value) = values.next() else {
                    return Ok(None);
                };
                if values.next().is_some() {
                    return Err(format!("the {name} header is given more than once"));
                }
                value
                    .to_str()
                    .map(|v| Some(v.trim_matches(|c| c == ' ' || c == '\t').to_owned()))
                    .map_err(|_| format!("the {name} header is not visible ASCII"))
            }
            KeyLocation::Query(name) => {
                let Some(query) = request.uri.query() else {
                    return Ok(None);
                };
                let params = QueryParams::parse(query).map_err(|e| e.to_string())?;
                params
                    .get_str(name)
                    .map(|v| v.map(str::to_owned))
                    .map_err(|e| e.to_string())
            }
            KeyLocation::Cookie(name) => {
                let mut found: Option<String> = None;
                for value in request.headers.get_all(COOKIE) {
                    let text = value
                        .to_str()
                        .map_err(|_| "the Cookie header is not visible ASCII".to_owned())?;
                    for pair in text.split(';') {
                        let pair = pair.trim_matches(|c| c == ' ' || c == '\t');
                        let Some((n, v)) = pair.split_once('=') else {
                            continue;
                        };
                        if n != name {
                            continue;
                        }
                        if found.is_some() {
                            return Err(format!("the cookie {name} is given more than once"));
                        }
                        let v = v
                            .strip_prefix('"')
                            .and_then(|v| v.strip_suffix('"'))
                            .unwrap_or(v);
                        found = Some(v.to_owned());
                    }
                }
                Ok(found)
            }
        }
    }

    fn outcome(&self, request: &AuthRequest<'_>) -> AuthOutcome {
        match self.find_key(request) {
            Ok(None) => AuthOutcome::Anonymous,
            Ok(Some(key)) if key.is_empty() => {
                AuthOutcome::Unauthenticated("the API key is empty".to_owned())
            }
            Ok(Some(key)) => match lookup(&self.keys, key.as_bytes()) {
                Some(id) => AuthOutcome::Authenticated(Principal::new(id, self.scheme.clone())),
                None => AuthOutcome::Unauthenticated("the API key is not valid".to_owned()),
            },
            Err(why) => AuthOutcome::Unauthenticated(why),
        }
    }
}

impl fmt::Debug for ApiKeyAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiKeyAuth")
            .field("scheme", &self.scheme)
            .field("location", &self.location)
            .field("keys", &self.keys.len())
            .finish()
    }
}

impl Authenticator for ApiKeyAuth {
    fn authenticate<'a>(&'a self, request: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        boxed(self.outcome(&request))
    }
}

/// HTTP Basic authentication (RFC 7617; an `httpAuthSecurityScheme` with
/// scheme `Basic`, spec 4.5.3) from a fixed user table:
/// `Authorization: Basic base64(user:password)`. Passwords are compared in
/// constant time; the principal's id is the user name.
#[derive(Clone)]
pub struct BasicAuth {
    scheme: String,
    users: Vec<(String, String)>,
}

impl BasicAuth {
    /// No users yet; principals it authenticates name `scheme`.
    pub fn new(scheme: impl Into<String>) -> BasicAuth {
        BasicAuth {
            scheme: scheme.into(),
            users: Vec::new(),
        }
    }

    /// Accepts `user` with `password`.
    pub fn with_user(mut self, user: impl Into<String>, password: impl Into<String>) -> BasicAuth {
        self.users.push((user.into(), password.into()));
        self
    }

    fn outcome(&self, headers: &HeaderMap) -> AuthOutcome {
        let encoded = match authorization(headers, "Basic") {
            Ok(Some(c)) => c,
            Ok(None) => return AuthOutcome::Anonymous,
            Err(why) => return AuthOutcome::Unauthenticated(why),
        };
        let bad = || AuthOutcome::Unauthenticated("malformed Basic credentials".to_owned());
        let Ok(decoded) = base64::engine::general_purpose::STANDARD.decode(encoded.trim_end())
        else {
            return bad();
        };
        let Ok(text) = String::from_utf8(decoded) else {
            return bad();
        };
        let Some((user, password)) = text.split_once(':') else {
            return bad();
        };
        let mut found = None;
        for (u, p) in &self.users {
            // Both compared every time: no early exit on the user name.
            let user_ok = ct_eq(u.as_bytes(), user.as_bytes());
            let pass_ok = ct_eq(p.as_bytes(), password.as_bytes());
            if user_ok & pass_ok && found.is_none() {
                found = Some(u.as_str());
            }
        }
        match found {
            Some(u) => AuthOutcome::Authenticated(Principal::new(u, self.scheme.clone())),
            None => AuthOutcome::Unauthenticated("invalid user name or password".to_owned()),
        }
    }
}

impl fmt::Debug for BasicAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BasicAuth")
            .field("scheme", &self.scheme)
            .field("users", &self.users.len())
            .finish()
    }
}

impl Authenticator for BasicAuth {
    fn authenticate<'a>(&'a self, request: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        boxed(self.outcome(request.headers))
    }
}

/// Several authenticators, for a card that offers several schemes (spec
/// 4.4.1 `securityRequirements` lists alternatives): asked
/// in order, the first [`AuthOutcome::Authenticated`] or
/// [`AuthOutcome::Forbidden`] wins; otherwise the first
/// [`AuthOutcome::Unauthenticated`] (credentials were sent for some scheme
/// and were wrong); otherwise [`AuthOutcome::Anonymous`].
#[derive(Clone, Default)]
pub struct AnyOf {
    authenticators: Vec<Arc<dyn Authenticator>>,
}

impl AnyOf {
    /// No authenticators (everyone is anonymous).
    pub fn new() -> AnyOf {
        AnyOf::default()
    }

    /// Adds `authenticator` after the others.
    pub fn with(mut self, authenticator: impl Authenticator + 'static) -> AnyOf {
        self.authenticators.push(Arc::new(authenticator));
        self
    }
}

impl fmt::Debug for AnyOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyOf")
            .field("authenticators", &self.authenticators.len())
            .finish()
    }
}

impl Authenticator for AnyOf {
    fn authenticate<'a>(&'a self, request: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        Box::pin(async move { self.authenticate_with_challenge(request).await.0 })
    }

    /// The winner's outcome with its own challenge error.
    fn authenticate_with_challenge<'a>(
        &'a self,
        request: AuthRequest<'a>,
    ) -> BoxFuture<'a, (AuthOutcome, Option<BearerError>)> {
        Box::pin(async move {
            let mut refused = None;
            for auth in &self.authenticators {
                match auth.authenticate_with_challenge(request).await {
                    done @ (AuthOutcome::Authenticated(_) | AuthOutcome::Forbidden(_), _) => {
                        return done
                    }
                    (AuthOutcome::Unauthenticated(why), error) => {
                        refused.get_or_insert((AuthOutcome::Unauthenticated(why), error));
                    }
                    (AuthOutcome::Anonymous, _) => {}
                }
            }
            refused.unwrap_or((AuthOutcome::Anonymous, None))
        })
    }
}

/// True when the card requires every caller to authenticate (spec 4.4.1,
/// 7.3): its
/// `securityRequirements` is non-empty and holds no empty requirement.
pub fn security_required(card: &AgentCard) -> bool {
    !card.security_requirements.is_empty()
        && card
            .security_requirements
            .iter()
            .all(|r| !r.schemes.is_empty())
}

/// `realm` as the content of a quoted-string: `"` and `\` escaped,
/// anything but visible ASCII and space dropped.
fn quoted(realm: &str) -> String {
    let mut out = String::with_capacity(realm.len() + 2);
    out.push('"');
    for c in realm.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => {}
        }
    }
    out.push('"');
    out
}

fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// The `WWW-Authenticate` challenges of a 401 for `card` (see the module
/// docs for the form of each), in the order of the card's scheme names,
/// without duplicates, never empty.
///
/// ```
/// use a2a_server::challenges;
/// use a2a_types::{AgentCard, HTTPAuthSecurityScheme};
///
/// let mut card = AgentCard::default();
/// card.security_schemes.insert(
///     "basic".into(),
///     HTTPAuthSecurityScheme { scheme: "basic".into(), ..Default::default() }.into(),
/// );
/// let c = challenges(&card, "Echo agent");
/// assert_eq!(c, [r#"Basic realm="Echo agent""#]);
/// ```
pub fn challenges(card: &AgentCard, realm: &str) -> Vec<HeaderValue> {
    let realm = quoted(realm);
    let mut texts: Vec<String> = Vec::new();
    for scheme in card.security_schemes.values() {
        let text = match scheme {
            SecurityScheme::HttpAuth(h) => {
                let name = if h.scheme.eq_ignore_ascii_case("bearer") {
                    "Bearer"
                } else if h.scheme.eq_ignore_ascii_case("basic") {
                    "Basic"
                } else if h.scheme.eq_ignore_ascii_case("digest") {
                    "Digest"
                } else if is_token(&h.scheme) {
                    h.scheme.as_str()
                } else {
                    continue;
                };
                format!("{name} realm={realm}")
            }
            SecurityScheme::OAuth2(_) | SecurityScheme::OpenIdConnect(_) => {
                format!("Bearer realm={realm}")
            }
            SecurityScheme::ApiKey(k) => format!(
                "ApiKey realm={realm}, in={}, name={}",
                quoted(&k.location.to_ascii_lowercase()),
                quoted(&k.name)
            ),
            SecurityScheme::MutualTls(_) => continue,
        };
        texts.push(text);
    }
    if texts.is_empty() {
        texts.push(format!("Bearer realm={realm}"));
    }
    let mut seen = BTreeSet::new();
    texts
        .into_iter()
        .filter(|t| seen.insert(t.clone()))
        .filter_map(|t| HeaderValue::from_str(&t).ok())
        .collect()
}

/// The challenges of a refusal that carries `error` (RFC 6750 section
/// 3): for `insufficient_scope` (a 403) the `Bearer` challenge alone,
/// otherwise those of [`challenges`]; either way the `Bearer` challenge
/// with `error`'s attributes after its realm (added when the card gives
/// none).
///
/// ```
/// use a2a_server::{challenges_with_error, BearerError};
/// use a2a_types::AgentCard;
///
/// let c = challenges_with_error(&AgentCard::default(), "Agent", &BearerError::invalid_token("expired"));
/// assert_eq!(c, [r#"Bearer realm="Agent", error="invalid_token", error_description="expired""#]);
/// ```
pub fn challenges_with_error(
    card: &AgentCard,
    realm: &str,
    error: &BearerError,
) -> Vec<HeaderValue> {
    let bearer = format!("Bearer realm={}", quoted(realm));
    let with_error = || HeaderValue::from_str(&format!("{bearer}{}", error.attributes())).ok();
    let mut out = Vec::new();
    let mut found = false;
    for c in challenges(card, realm) {
        if c.as_bytes() == bearer.as_bytes() {
            found = true;
            out.extend(with_error());
        } else if error.code != BearerErrorCode::InsufficientScope {
            out.push(c);
        }
    }
    if !found {
        out.extend(with_error());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::{
        APIKeySecurityScheme, HTTPAuthSecurityScheme, MutualTlsSecurityScheme,
        OAuth2SecurityScheme, SecurityRequirement,
    };

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        let mut f = std::pin::pin!(f);
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        loop {
            if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    fn run(auth: &dyn Authenticator, uri: &str, headers: &[(&str, &str)]) -> AuthOutcome {
        let mut h = HeaderMap::new();
        for (k, v) in headers {
            h.append(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        let uri: Uri = uri.parse().unwrap();
        let e = Extensions::new();
        block_on(auth.authenticate(AuthRequest::new(&Method::GET, &uri, &h, &e)))
    }

    fn authed(id: &str, scheme: &str) -> AuthOutcome {
        AuthOutcome::Authenticated(Principal::new(id, scheme))
    }

    #[test]
    fn constant_time_compare() {
        assert!(ct_eq(b"", b""));
        assert!(ct_eq(b"abc", b"abc"));
        assert!(!ct_eq(b"abc", b"abd"));
        assert!(!ct_eq(b"abc", b"abcd"));
        assert!(!ct_eq(b"abc\0", b"abc"));
        assert!(!ct_eq(b"", b"\0"));
    }

    #[test]
    fn bearer() {
        let a = BearerAuth::new("bearer").with_token("t1", "alice");
        assert_eq!(run(&a, "/", &[]), AuthOutcome::Anonymous);
        assert_eq!(
            run(&a, "/", &[("authorization", "Bearer t1")]),
            authed("alice", "bearer")
        );
        assert_eq!(
            run(&a, "/", &[("authorization", "bearer   t1")]),
            authed("alice", "bearer")
        );
        assert!(matches!(
            run(&a, "/", &[("authorization", "Bearer t2")]),
            AuthOutcome::Unauthenticated(_)
        ));
        assert!(matches!(
            run(&a, "/", &[("authorization", "Bearer")]),
            AuthOutcome::Unauthenticated(_)
        ));
        assert_eq!(
            run(&a, "/", &[("authorization", "Basic dDE=")]),
            AuthOutcome::Anonymous
        );
        assert!(matches!(
            run(
                &a,
                "/",
                &[
                    ("authorization", "Bearer t1"),
                    ("authorization", "Bearer t1")
                ]
            ),
            AuthOutcome::Unauthenticated(_)
        ));
        assert!(format!("{a:?}").contains("tokens: 1"));
    }

    #[test]
    fn basic() {
        let a = BasicAuth::new("basic").with_user("bob", "pa:ss");
        // "bob:pa:ss"
        assert_eq!(
            run(&a, "/", &[("authorization", "Basic Ym9iOnBhOnNz")]),
            authed("bob", "basic")
        );
        // "bob:wrong"
        assert!(matches!(
            run(&a, "/", &[("authorization", "Basic Ym9iOndyb25n")]),
            AuthOutcome::Unauthenticated(_)
        ));
        assert!(matches!(
            run(&a, "/", &[("authorization", "Basic !!!")]),
            AuthOutcome::Unauthenticated(_)
        ));
        // "bob" (no colon)
        assert!(matches!(
            run(&a, "/", &[("authorization", "Basic Ym9i")]),
            AuthOutcome::Unauthenticated(_)
        ));
        assert_eq!(
            run(&a, "/", &[("authorization", "Bearer x")]),
            AuthOutcome::Anonymous
        );
    }

    #[test]
    fn api_keys_in_each_location() {
        let h = ApiKeyAuth::new("key", "header", "X-API-Key")
            .unwrap()
            .with_key("k1", "bot");
        assert_eq!(run(&h, "/", &[("x-api-key", "k1")]), authed("bot", "key"));
        assert!(matches!(
            run(&h, "/", &[("x-api-key", "k2")]),
            AuthOutcome::Unauthenticated(_)
        ));
        assert!(matches!(
            run(&h, "/", &[("x-api-key", "k1"), ("x-api-key", "k1")]),
            AuthOutcome::Unauthenticated(_)
        ));
        assert_eq!(run(&h, "/", &[]), AuthOutcome::Anonymous);

        let q = ApiKeyAuth::new("key", "Query", "api_key")
            .unwrap()
            .with_key("k 1", "bot");
        assert_eq!(run(&q, "/tasks?api_key=k%201", &[]), authed("bot", "key"));
        assert_eq!(run(&q, "/tasks?other=1", &[]), AuthOutcome::Anonymous);
        assert!(matches!(
            run(&q, "/tasks?api_key=a&api_key=b", &[]),
            AuthOutcome::Unauthenticated(_)
        ));
        assert!(matches!(
            run(&q, "/tasks?api_key=%ZZ", &[]),
            AuthOutcome::Unauthenticated(_)
        ));

        let c = ApiKeyAuth::new("key", "cookie", "sid")
            .unwrap()
            .with_key("k1", "bot");
        assert_eq!(
            run(&c, "/", &[("cookie", "a=1; sid=\"k1\"")]),
            authed("bot", "key")
        );
        assert_eq!(run(&c, "/", &[("cookie", "a=1")]), AuthOutcome::Anonymous);
        assert!(matches!(
            run(&c, "/", &[("cookie", "sid=k1"), ("cookie", "sid=k1")]),
            AuthOutcome::Unauthenticated(_)
        ));

        assert_eq!(
            ApiKeyAuth::new("key", "body", "x").unwrap_err(),
            AuthConfigError::UnsupportedLocation("body".into())
        );
        assert!(ApiKeyAuth::new("key", "header", "bad name").is_err());
        assert!(ApiKeyAuth::new("key", "query", "").is_err());
    }

    #[test]
    fn api_key_from_card() {
        let mut card = AgentCard::default();
        card.security_schemes.insert(
            "k".into(),
            APIKeySecurityScheme {
                location: "header".into(),
                name: "X-Key".into(),
                ..Default::default()
            }
            .into(),
        );
        card.security_schemes.insert(
            "h".into(),
            HTTPAuthSecurityScheme {
                scheme: "Bearer".into(),
                ..Default::default()
            }
            .into(),
        );
        assert!(ApiKeyAuth::from_card(&card, "k").is_ok());
        assert!(matches!(
            ApiKeyAuth::from_card(&card, "h"),
            Err(AuthConfigError::WrongKind { .. })
        ));
        assert!(matches!(
            ApiKeyAuth::from_card(&card, "x"),
            Err(AuthConfigError::UnknownScheme(_))
        ));
    }

    #[test]
    fn any_of_prefers_success_then_refusal() {
        let any = AnyOf::new()
            .with(BearerAuth::new("bearer").with_token("t", "alice"))
            .with(
                ApiKeyAuth::new("key", "header", "x-api-key")
                    .unwrap()
                    .with_key("k", "bot"),
            );
        assert_eq!(run(&any, "/", &[("x-api-key", "k")]), authed("bot", "key"));
        assert_eq!(
            run(&any, "/", &[("authorization", "Bearer t")]),
            authed("alice", "bearer")
        );
        assert!(matches!(
            run(&any, "/", &[("authorization", "Bearer nope")]),
            AuthOutcome::Unauthenticated(_)
        ));
        assert_eq!(run(&any, "/", &[]), AuthOutcome::Anonymous);
        assert_eq!(run(&AnyOf::new(), "/", &[]), AuthOutcome::Anonymous);
    }

    #[test]
    fn challenges_per_scheme() {
        let mut card = AgentCard::default();
        assert_eq!(challenges(&card, "r\"x"), [r#"Bearer realm="r\"x""#]);
        card.security_schemes.insert(
            "a".into(),
            HTTPAuthSecurityScheme {
                scheme: "bearer".into(),
                ..Default::default()
            }
            .into(),
        );
        card.security_schemes.insert(
            "b".into(),
            HTTPAuthSecurityScheme {
                scheme: "Basic".into(),
                ..Default::default()
            }
            .into(),
        );
        card.security_schemes
            .insert("c".into(), OAuth2SecurityScheme::default().into());
        card.security_schemes.insert(
            "d".into(),
            APIKeySecurityScheme {
                location: "Header".into(),
                name: "X-Key".into(),
                ..Default::default()
            }
            .into(),
        );
        card.security_schemes
            .insert("e".into(), MutualTlsSecurityScheme::default().into());
        card.security_schemes.insert(
            "f".into(),
            HTTPAuthSecurityScheme {
                scheme: "bad scheme".into(),
                ..Default::default()
            }
            .into(),
        );
        assert_eq!(
            challenges(&card, "Agent"),
            [
                r#"Bearer realm="Agent""#,
                r#"Basic realm="Agent""#,
                r#"ApiKey realm="Agent", in="header", name="X-Key""#,
            ]
        );
    }

    #[test]
    fn bearer_errors_extend_the_bearer_challenge_only() {
        let mut card = AgentCard::default();
        card.security_schemes.insert(
            "a".into(),
            HTTPAuthSecurityScheme {
                scheme: "Bearer".into(),
                ..Default::default()
            }
            .into(),
        );
        card.security_schemes.insert(
            "k".into(),
            APIKeySecurityScheme {
                location: "header".into(),
                name: "X-Key".into(),
                ..Default::default()
            }
            .into(),
        );
        let expired = BearerError::invalid_token("the token \"expired\"");
        assert_eq!(
            challenges_with_error(&card, "R", &expired),
            [
                r#"Bearer realm="R", error="invalid_token", error_description="the token \"expired\"""#,
                r#"ApiKey realm="R", in="header", name="X-Key""#,
            ]
        );
        let scope = BearerError::insufficient_scope("read write", "needs read write");
        assert_eq!(
            challenges_with_error(&card, "R", &scope),
            [
                r#"Bearer realm="R", error="insufficient_scope", error_description="needs read write", scope="read write""#
            ]
        );
        // A card without a Bearer challenge gets one.
        card.security_schemes.remove("a");
        assert_eq!(challenges_with_error(&card, "R", &expired).len(), 2);
    }

    #[test]
    fn any_of_keeps_the_winners_challenge_error() {
        struct Jwtish;
        impl Authenticator for Jwtish {
            fn authenticate<'a>(&'a self, r: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
                Box::pin(async move { self.authenticate_with_challenge(r).await.0 })
            }
            fn authenticate_with_challenge<'a>(
                &'a self,
                r: AuthRequest<'a>,
            ) -> BoxFuture<'a, (AuthOutcome, Option<BearerError>)> {
                let sent = r.headers.contains_key("x-jwt");
                Box::pin(async move {
                    if sent {
                        (
                            AuthOutcome::Unauthenticated("bad".into()),
                            Some(BearerError::invalid_token("bad")),
                        )
                    } else {
                        (AuthOutcome::Anonymous, None)
                    }
                })
            }
        }
        let any = AnyOf::new()
            .with(BearerAuth::new("b").with_token("t", "alice"))
            .with(Jwtish);
        let run2 = |headers: &[(&str, &str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in headers {
                h.append(
                    HeaderName::from_bytes(k.as_bytes()).unwrap(),
                    HeaderValue::from_str(v).unwrap(),
                );
            }
            let (m, u, e) = (Method::GET, Uri::from_static("/"), Extensions::new());
            block_on(any.authenticate_with_challenge(AuthRequest::new(&m, &u, &h, &e)))
        };
        assert_eq!(
            run2(&[("x-jwt", "1")]).1,
            Some(BearerError::invalid_token("bad"))
        );
        // BearerAuth refused first: its refusal wins, with its own error.
        let (outcome, error) = run2(&[("authorization", "Bearer nope"), ("x-jwt", "1")]);
        assert!(matches!(outcome, AuthOutcome::Unauthenticated(_)));
        assert_eq!(
            error,
            Some(BearerError::invalid_token("the bearer token is not valid"))
        );
        // No token: no error (RFC 6750 section 3.1).
        let (m, u, e) = (Method::GET, Uri::from_static("/"), Extensions::new());
        let h = HeaderMap::new();
        let b = BearerAuth::new("b");
        assert_eq!(
            block_on(b.authenticate_with_challenge(AuthRequest::new(&m, &u, &h, &e))),
            (AuthOutcome::Anonymous, None)
        );
    }

    #[test]
    fn security_required_reads_requirements() {
        let mut card = AgentCard::default();
        assert!(!security_required(&card));
        let mut req = SecurityRequirement::default();
        req.schemes.insert("a".into(), Default::default());
        card.security_requirements.push(req);
        assert!(security_required(&card));
        card.security_requirements
            .push(SecurityRequirement::default());
        assert!(!security_required(&card));
    }
}
