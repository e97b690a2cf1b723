//! Bearer JWTs validated against a JWKS (feature `jwt-auth`): [`JwtAuth`],
//! an a2a-transport [`Authenticator`] for an agent whose card declares an
//! OAuth 2.0, OpenID Connect or HTTP `Bearer` scheme (spec 4.5.3-4.5.5,
//! 7.4).
//!
//! # What is checked
//!
//! - **The token** (RFC 7519 section 7.2, RFC 8725): `Authorization:
//!   Bearer <token>` (RFC 6750 section 2.1), a compact JWS of three
//!   base64url parts, at most [`MAX_TOKEN_LEN`] bytes; header and claims
//!   JSON objects without duplicate members; no `crit`. `typ` is not
//!   checked: identity providers write `JWT`, `at+jwt` (RFC 9068) or
//!   nothing, and the issuer and audience checks already keep tokens meant
//!   for others out.
//! - **The algorithm**: one of [`JwtConfig::algorithms`] (default every
//!   [`Algorithm`] this crate verifies: ES256, ES384, EdDSA, RS256, PS256).
//!   `none` and the HMAC algorithms are never accepted: a token "signed"
//!   with HS256 using the public key as the secret is refused before any
//!   key is looked at. The key's type must fit the algorithm (an RSA key
//!   never verifies ES256), and a JWK's `alg` or `use`, when set, must
//!   agree.
//! - **The key**: by `kid` (a token without one is accepted only when the
//!   set holds a single key). The header's `jku`, `jwk` and `x5u` are never
//!   followed: keys come only from the configured [`JwksSource`].
//! - **The claims**: `iss` equal to [`JwtConfig::issuer`]; `aud` (a string
//!   or an array) naming one of [`JwtConfig::audiences`]; `exp` required,
//!   `nbf` and `iat` when present, each with [`JwtConfig::leeway`]
//!   (default 60 s) against the host's [`Clock`]; `sub` required: it is the
//!   [`Principal`]'s id. Scopes come from `scope` (space-separated, RFC
//!   8693 section 4.2) or `scp` (an array, or a string).
//!
//! # Keys and rotation
//!
//! A [`JwksSource::Local`] set is used as it is. Fetched keys
//! ([`JwksSource::Remote`], [`JwksSource::Discovery`]) are cached for
//! [`JwtConfig::cache_ttl`] (default 10 minutes; past it they are not used
//! until fetched again). A `kid` the cache does not know triggers one
//! refetch, but fetches (of any cause) are at least
//! [`JwtConfig::refetch_interval`] apart (default 30 s): a flood of tokens
//! with made-up key ids costs one fetch per interval, not one per request.
//!
//! # Answers
//!
//! A request without a bearer token is [`AuthOutcome::Anonymous`] (the
//! server refuses it when the card requires security, RFC 6750 section
//! 3.1: no error code then). A token that does not validate is
//! [`AuthOutcome::Unauthenticated`], answered 401 with `Bearer realm="…",
//! error="invalid_token", error_description="…"`. A valid token lacking
//! the scopes of every alternative of the card's `securityRequirements`
//! that names this scheme is [`AuthOutcome::Forbidden`], answered 403 with
//! `error="insufficient_scope", scope="…"` (RFC 6750 section 3.1). Skills'
//! requirements are for the handler to check, with [`satisfies`] or
//! [`skill_allows`].

use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_transport::client::HttpClient;
use a2a_transport::server::{authorization, AuthOutcome, AuthRequest, Authenticator, BearerError};
use a2a_transport::{BoxFuture, Principal};
use a2a_types::{AgentCard, SecurityRequirement};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use http::HeaderMap;

use crate::client::{fetch_jwks, get_limited, RemoteJwks};
use crate::jcs::Node;
use crate::jwk::{Algorithm, Jwk, JwkSet, SigningKey, VerifyingKey};
use crate::jws::{sign_bytes, verify_bytes, Checked, SignError, MAX_PROTECTED_LEN};

/// Longest bearer token read, in bytes: 8 KiB. A longer one is refused
/// before it is decoded.
pub const MAX_TOKEN_LEN: usize = 8 * 1024;
/// Largest OpenID Connect discovery document read: 64 KiB.
pub const MAX_DISCOVERY_BYTES: usize = 64 * 1024;
/// The default clock skew allowed on `exp`, `nbf` and `iat`: 60 s.
pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(60);
/// The default lifetime of fetched keys: 10 minutes.
pub const DEFAULT_CACHE_TTL: Duration = Duration::from_secs(600);
/// The default least time between two key fetches: 30 s.
pub const DEFAULT_REFETCH_INTERVAL: Duration = Duration::from_secs(30);
/// Where an issuer's discovery document is, under the issuer (OpenID
/// Connect Discovery 1.0 section 4).
pub const DISCOVERY_PATH: &str = "/.well-known/openid-configuration";

/// The time, as the host tells it: this crate reads no clock (it builds for
/// targets without one). A closure returning [`SystemTime`] is one.
pub trait Clock: Send + Sync {
    /// Now.
    fn now(&self) -> SystemTime;
}

impl<F: Fn() -> SystemTime + Send + Sync> Clock for F {
    fn now(&self) -> SystemTime {
        self()
    }
}

/// Where the keys that sign tokens come from.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum JwksSource {
    /// A key set the host holds (a file it read, a configuration).
    Local(JwkSet),
    /// The JWKS documents at these allow-listed URLs, every one fetched and
    /// merged.
    Remote(RemoteJwks),
    /// The issuer's OpenID Connect discovery document
    /// (`<issuer>/.well-known/openid-configuration`), whose `issuer` must
    /// equal [`JwtConfig::issuer`] (OpenID Connect Discovery 1.0 section
    /// 4.3), then the JWKS its `jwks_uri` names. That URL must be on this
    /// allow-list or, when the list is empty, at the issuer's origin
    /// (scheme, host and port).
    Discovery(RemoteJwks),
}

/// What a [`JwtAuth`] accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct JwtConfig {
    /// The security scheme name (a key of the card's `securitySchemes`) the
    /// principals it authenticates carry.
    pub scheme: String,
    /// The `iss` a token must carry, compared as an exact string.
    pub issuer: String,
    /// The audiences accepted: a token's `aud` must name one.
    pub audiences: Vec<String>,
    /// The algorithms accepted. Default: [`Algorithm::ALL`].
    pub algorithms: Vec<Algorithm>,
    /// Clock skew allowed on `exp`, `nbf` and `iat`. Default
    /// [`DEFAULT_LEEWAY`].
    pub leeway: Duration,
    /// Longest token read. Default [`MAX_TOKEN_LEN`].
    pub max_token_len: usize,
    /// How long fetched keys are used. Default [`DEFAULT_CACHE_TTL`].
    pub cache_ttl: Duration,
    /// Least time between two fetches. Default [`DEFAULT_REFETCH_INTERVAL`].
    pub refetch_interval: Duration,
    /// The card's `securityRequirements`: a token lacking the scopes of
    /// every alternative that names [`scheme`](Self::scheme) is refused with
    /// 403. Default: none.
    pub requirements: Vec<SecurityRequirement>,
}

impl JwtConfig {
    /// Tokens of `issuer` for `audience`, authenticating principals of
    /// `scheme`, with the defaults.
    pub fn new(
        scheme: impl Into<String>,
        issuer: impl Into<String>,
        audience: impl Into<String>,
    ) -> JwtConfig {
        JwtConfig {
            scheme: scheme.into(),
            issuer: issuer.into(),
            audiences: vec![audience.into()],
            algorithms: Algorithm::ALL.to_vec(),
            leeway: DEFAULT_LEEWAY,
            max_token_len: MAX_TOKEN_LEN,
            cache_ttl: DEFAULT_CACHE_TTL,
            refetch_interval: DEFAULT_REFETCH_INTERVAL,
            requirements: Vec::new(),
        }
    }

    /// The same, accepting `audience` too.
    pub fn with_audience(mut self, audience: impl Into<String>) -> JwtConfig {
        self.audiences.push(audience.into());
        self
    }

    /// The same, accepting only `algorithms`.
    pub fn with_algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> JwtConfig {
        self.algorithms = algorithms.into_iter().collect();
        self
    }

    /// The same with `leeway`.
    pub fn with_leeway(mut self, leeway: Duration) -> JwtConfig {
        self.leeway = leeway;
        self
    }

    /// The same with `cache_ttl` and `refetch_interval`.
    pub fn with_cache(mut self, cache_ttl: Duration, refetch_interval: Duration) -> JwtConfig {
        self.cache_ttl = cache_ttl;
        self.refetch_interval = refetch_interval;
        self
    }

    /// The same with the card's `securityRequirements`.
    pub fn with_card(mut self, card: &AgentCard) -> JwtConfig {
        self.requirements = card.security_requirements.clone();
        self
    }
}

/// Why a token was refused. Each variant is one condition; the text is
/// what the client is told (`error_description`), and holds no secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JwtError {
    /// Longer than [`JwtConfig::max_token_len`].
    #[error("the token has {0} bytes, over the limit")]
    TooLong(usize),
    /// Not a compact JWS of JSON objects.
    #[error("malformed token: {0}")]
    Malformed(String),
    /// `alg` is `none`, an HMAC algorithm, or one this crate does not
    /// verify.
    #[error("the algorithm {0:?} is not accepted{why}", why = refusal_why(.0))]
    UnsupportedAlgorithm(String),
    /// `alg` is one this crate verifies but the configuration does not
    /// accept.
    #[error("the algorithm {0} is not accepted")]
    AlgorithmNotAllowed(Algorithm),
    /// No key has the token's `kid` (after a refetch, when one was
    /// allowed).
    #[error("no trusted key has the kid {0:?}")]
    UnknownKey(String),
    /// The key found cannot verify the token's algorithm (its type, or its
    /// JWK `alg` or `use`, says otherwise), or is not a usable key.
    #[error("the key {kid:?} cannot verify this token: {why}")]
    KeyMismatch {
        /// The key id.
        kid: String,
        /// What does not fit.
        why: String,
    },
    /// The signature does not verify.
    #[error("the signature does not verify")]
    BadSignature,
    /// `exp` is past (beyond the leeway).
    #[error("the token has expired")]
    Expired,
    /// `nbf` is ahead (beyond the leeway).
    #[error("the token is not valid yet")]
    NotYetValid,
    /// `iat` is ahead (beyond the leeway).
    #[error("the token was issued in the future")]
    IssuedInFuture,
    /// `iss` is not the configured issuer.
    #[error("the token's issuer is not trusted")]
    WrongIssuer,
    /// `aud` names none of the configured audiences.
    #[error("the token is not for this audience")]
    WrongAudience,
    /// A claim that must be there is missing or of the wrong type.
    #[error("the claim {0:?} is missing or not of its type")]
    Claim(&'static str),
    /// The keys could not be fetched (or a fetch was not allowed yet).
    #[error("the signing keys are not available: {0}")]
    KeysUnavailable(String),
}

fn refusal_why(alg: &str) -> &'static str {
    if alg.eq_ignore_ascii_case("none") {
        ": an unsigned token is never accepted"
    } else if alg.starts_with("HS") {
        ": HMAC is refused, a public key is not a shared secret"
    } else {
        ""
    }
}

/// A validated token: the caller, and the claims it was read from.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Validated {
    /// `sub` as the id, the configured scheme, the scopes granted.
    pub principal: Principal,
    /// The claims (the payload, as JSON).
    pub claims: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Default)]
struct Cache {
    keys: JwkSet,
    fetched_at: Option<SystemTime>,
    last_attempt: Option<SystemTime>,
}

/// An [`Authenticator`] validating bearer JWTs (see the [module
/// docs](self) for every check).
///
/// ```
/// use a2a_signing::jwt::{sign_jwt, JwksSource, JwtAuth, JwtConfig};
/// use a2a_signing::{Algorithm, JwkSet, SigningKey};
/// use std::time::{Duration, SystemTime};
///
/// let key = SigningKey::generate(Algorithm::EdDsa)?;
/// let keys = JwkSet::new([key.public_jwk().with_kid("k1")]);
/// let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
/// let auth = JwtAuth::new(
///     JwtConfig::new("oauth", "https://idp.example", "https://agent.example"),
///     JwksSource::Local(keys),
///     move || now,
/// );
/// let token = sign_jwt(&key, "k1", &serde_json::json!({
///     "iss": "https://idp.example", "aud": "https://agent.example",
///     "sub": "alice", "exp": 1_700_000_600, "scope": "tasks:read",
/// }))?;
/// let validated = block_on(auth.validate(&token))?;
/// assert_eq!(validated.principal.id, "alice");
/// assert!(validated.principal.scopes.contains("tasks:read"));
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct JwtAuth {
    config: JwtConfig,
    source: JwksSource,
    clock: Arc<dyn Clock>,
    client: Option<Arc<dyn HttpClient>>,
    cache: Mutex<Cache>,
}

impl fmt::Debug for JwtAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JwtAuth")
            .field("config", &self.config)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl JwtAuth {
    /// Validates tokens by `config` with the keys of `source`, the time
    /// from `clock`. A remote source needs [`with_client`](Self::with_client).
    pub fn new(config: JwtConfig, source: JwksSource, clock: impl Clock + 'static) -> JwtAuth {
        JwtAuth {
            config,
            source,
            clock: Arc::new(clock),
            client: None,
            cache: Mutex::new(Cache::default()),
        }
    }

    /// The same, fetching keys with `client`.
    pub fn with_client(mut self, client: impl HttpClient + 'static) -> JwtAuth {
        self.client = Some(Arc::new(client));
        self
    }

    /// The configuration.
    pub fn config(&self) -> &JwtConfig {
        &self.config
    }

    /// Validates `token` (the part after `Bearer `).
    ///
    /// # Errors
    ///
    /// The [`JwtError`] of the first check that fails.
    pub async fn validate(&self, token: &str) -> Result<Validated, JwtError> {
        if token.len() > self.config.max_token_len {
            return Err(JwtError::TooLong(token.len()));
        }
        let malformed = |why: &str| JwtError::Malformed(why.to_owned());
        let mut parts = token.split('.');
        let (Some(header_b64), Some(payload_b64), Some(sig_b64), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(malformed("not a compact JWS of three parts"));
        };
        let decode = |part: &str, what: &str| {
            URL_SAFE_NO_PAD
                .decode(part)
                .map_err(|_| JwtError::Malformed(format!("the {what} is not base64url")))
        };
        let header = object(&decode(header_b64, "header")?, MAX_PROTECTED_LEN, "header")?;
        if header.member("crit").is_some() {
            return Err(malformed(
                "the header has \"crit\": no extension is understood",
            ));
        }
        let alg_name = match header.member("alg") {
            Some(Node::String(a)) => a.as_str(),
            _ => return Err(malformed("the header has no \"alg\"")),
        };
        let alg = Algorithm::from_name(alg_name)
            .ok_or_else(|| JwtError::UnsupportedAlgorithm(alg_name.to_owned()))?;
        if !self.config.algorithms.contains(&alg) {
            return Err(JwtError::AlgorithmNotAllowed(alg));
        }
        let kid = match header.member("kid") {
            Some(Node::String(k)) => Some(k.as_str()),
            None => None,
            Some(_) => return Err(malformed("the header's \"kid\" is not a string")),
        };
        let sig = decode(sig_b64, "signature")?;
        let payload = decode(payload_b64, "payload")?;
        let claims = object(&payload, self.config.max_token_len, "claims")?;

        let jwk = self.key(kid).await?;
        let kid_text = || kid.unwrap_or_default().to_owned();
        let mismatch = |why: String| JwtError::KeyMismatch {
            kid: kid_text(),
            why,
        };
        let key = VerifyingKey::for_algorithm(&jwk, alg, "the token").map_err(mismatch)?;
        let input = &token.as_bytes()[..header_b64.len() + 1 + payload_b64.len()];
        match verify_bytes(&key, alg, input, &sig) {
            Checked::Valid => {}
            Checked::Invalid | Checked::Impossible(_) => return Err(JwtError::BadSignature),
        }
        let principal = self.check_claims(&claims)?;
        let claims = serde_json::from_slice(&payload)
            .map_err(|_| malformed("the claims are not a JSON object"))?;
        Ok(Validated { principal, claims })
    }

    fn check_claims(&self, claims: &Node) -> Result<Principal, JwtError> {
        let now = seconds(self.clock.now());
        let leeway = self.config.leeway.as_secs_f64();
        let number = |name: &'static str| match claims.member(name) {
            None => Ok(None),
            Some(Node::Number(n)) => Ok(Some(*n)),
            Some(_) => Err(JwtError::Claim(name)),
        };
        let exp = number("exp")?.ok_or(JwtError::Claim("exp"))?;
        if now >= exp + leeway {
            return Err(JwtError::Expired);
        }
        if number("nbf")?.is_some_and(|nbf| now + leeway < nbf) {
            return Err(JwtError::NotYetValid);
        }
        if number("iat")?.is_some_and(|iat| now + leeway < iat) {
            return Err(JwtError::IssuedInFuture);
        }
        match claims.member("iss") {
            Some(Node::String(iss)) if *iss == self.config.issuer => {}
            Some(Node::String(_)) => return Err(JwtError::WrongIssuer),
            _ => return Err(JwtError::Claim("iss")),
        }
        let accepted = |a: &String| self.config.audiences.contains(a);
        match claims.member("aud") {
            Some(Node::String(aud)) if accepted(aud) => {}
            Some(Node::Array(auds))
                if auds
                    .iter()
                    .any(|a| matches!(a, Node::String(a) if accepted(a))) => {}
            Some(Node::String(_) | Node::Array(_)) => return Err(JwtError::WrongAudience),
            _ => return Err(JwtError::Claim("aud")),
        }
        let sub = match claims.member("sub") {
            Some(Node::String(sub)) if !sub.is_empty() => sub.clone(),
            _ => return Err(JwtError::Claim("sub")),
        };
        let mut scopes = BTreeSet::new();
        match claims.member("scope") {
            None => {}
            Some(Node::String(s)) => scopes.extend(s.split_ascii_whitespace().map(str::to_owned)),
            Some(_) => return Err(JwtError::Claim("scope")),
        }
        match claims.member("scp") {
            None => {}
            Some(Node::String(s)) => scopes.extend(s.split_ascii_whitespace().map(str::to_owned)),
            Some(Node::Array(items)) => {
                for item in items {
                    match item {
                        Node::String(s) => {
                            scopes.insert(s.clone());
                        }
                        _ => return Err(JwtError::Claim("scp")),
                    }
                }
            }
            Some(_) => return Err(JwtError::Claim("scp")),
        }
        let mut principal = Principal::new(sub, self.config.scheme.clone());
        principal.scopes = scopes;
        Ok(principal)
    }

    /// The key for `kid`: from the local set, or from the cache, fetched
    /// when it is stale or does not know `kid` and a fetch is allowed.
    async fn key(&self, kid: Option<&str>) -> Result<Jwk, JwtError> {
        let unknown = || JwtError::UnknownKey(kid.unwrap_or_default().to_owned());
        if let JwksSource::Local(keys) = &self.source {
            return find(keys, kid).ok_or_else(unknown);
        }
        let now = self.clock.now();
        let since = |t: SystemTime| now.duration_since(t).unwrap_or(Duration::ZERO);
        {
            let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
            let fresh = cache
                .fetched_at
                .is_some_and(|t| since(t) < self.config.cache_ttl);
            if fresh {
                if let Some(jwk) = find(&cache.keys, kid) {
                    return Ok(jwk);
                }
            }
            if cache
                .last_attempt
                .is_some_and(|t| since(t) < self.config.refetch_interval)
            {
                return Err(if fresh {
                    unknown()
                } else {
                    JwtError::KeysUnavailable("the last fetch was too recent to try again".into())
                });
            }
            cache.last_attempt = Some(now);
        }
        let fetched = self.fetch().await;
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        match fetched {
            Ok(keys) => {
                cache.keys = keys;
                cache.fetched_at = Some(now);
                find(&cache.keys, kid).ok_or_else(unknown)
            }
            Err(why) => Err(JwtError::KeysUnavailable(why)),
        }
    }

    async fn fetch(&self) -> Result<JwkSet, String> {
        let client = self
            .client
            .as_deref()
            .ok_or("no HTTP client to fetch them with")?;
        match &self.source {
            JwksSource::Local(keys) => Ok(keys.clone()),
            JwksSource::Remote(remote) => {
                let mut keys = JwkSet::default();
                for url in remote.allowed() {
                    keys.extend(fetch_jwks(client, url).await.map_err(|e| e.to_string())?);
                }
                Ok(keys)
            }
            JwksSource::Discovery(allowed) => {
                let jwks_uri = self.discover(client, allowed).await?;
                fetch_jwks(client, &jwks_uri)
                    .await
                    .map_err(|e| e.to_string())
            }
        }
    }

    /// The `jwks_uri` of the issuer's discovery document.
    async fn discover(
        &self,
        client: &dyn HttpClient,
        allowed: &RemoteJwks,
    ) -> Result<String, String> {
        let issuer = &self.config.issuer;
        let url = format!("{}{DISCOVERY_PATH}", issuer.trim_end_matches('/'));
        let bytes = get_limited(client, &url, "application/json", MAX_DISCOVERY_BYTES)
            .await
            .map_err(|why| format!("the discovery document at {url}: {why}"))?;
        let doc = Node::parse(&bytes, MAX_DISCOVERY_BYTES)
            .map_err(|e| format!("the discovery document at {url}: {e}"))?;
        match doc.member("issuer") {
            Some(Node::String(named)) if named == issuer => {}
            _ => {
                return Err(format!(
                    "the discovery document at {url} does not name the issuer {issuer:?} \
                     (OpenID Connect Discovery 1.0 section 4.3)"
                ))
            }
        }
        let Some(Node::String(jwks_uri)) = doc.member("jwks_uri") else {
            return Err(format!("the discovery document at {url} has no jwks_uri"));
        };
        let trusted = if allowed.allowed().is_empty() {
            origin(jwks_uri).is_some() && origin(jwks_uri) == origin(issuer)
        } else {
            allowed.allowed().iter().any(|a| a == jwks_uri)
        };
        if !trusted {
            return Err(format!(
                "the jwks_uri {jwks_uri:?} is not allow-listed (nor at the issuer's origin)"
            ));
        }
        Ok(jwks_uri.clone())
    }

    /// What the authenticator concludes from `headers`.
    async fn outcome(&self, headers: &HeaderMap) -> (AuthOutcome, Option<BearerError>) {
        let token = match bearer(headers) {
            Ok(Some(token)) => token,
            Ok(None) => return (AuthOutcome::Anonymous, None),
            Err(why) => {
                return (
                    AuthOutcome::Unauthenticated(why.clone()),
                    Some(BearerError::invalid_request(why)),
                )
            }
        };
        let principal = match self.validate(token).await {
            Ok(v) => v.principal,
            Err(e) => {
                let why = e.to_string();
                return (
                    AuthOutcome::Unauthenticated(why.clone()),
                    Some(BearerError::invalid_token(why)),
                );
            }
        };
        let named: Vec<&SecurityRequirement> = self
            .config
            .requirements
            .iter()
            .filter(|r| r.schemes.contains_key(&self.config.scheme))
            .collect();
        // Alternatives naming other schemes only are other authenticators'
        // business: one that accepts a credential vouches for it.
        if named.is_empty() || satisfies(&principal, &self.config.requirements) {
            return (AuthOutcome::Authenticated(principal), None);
        }
        let scope = named[0].schemes[&self.config.scheme].list.join(" ");
        let why = format!("the token lacks the scopes the agent requires ({scope})");
        (
            AuthOutcome::Forbidden(why.clone()),
            Some(BearerError::insufficient_scope(scope, why)),
        )
    }
}

impl Authenticator for JwtAuth {
    fn authenticate<'a>(&'a self, request: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        Box::pin(async move { self.outcome(request.headers).await.0 })
    }

    fn authenticate_with_challenge<'a>(
        &'a self,
        request: AuthRequest<'a>,
    ) -> BoxFuture<'a, (AuthOutcome, Option<BearerError>)> {
        Box::pin(self.outcome(request.headers))
    }
}

/// Whether `principal` satisfies `requirements` (a card's or a skill's
/// `securityRequirements`, spec 4.4.1, 4.4.5): true when there are none,
/// or when one alternative is the empty requirement (anonymous is
/// acceptable) or names the principal's scheme with scopes the principal
/// all holds. The other schemes an alternative names are not checked: a
/// principal carries one scheme, and the authenticator that accepted it
/// vouched for it.
///
/// ```
/// use a2a_signing::jwt::satisfies;
/// use a2a_transport::Principal;
/// use a2a_types::{SecurityRequirement, StringList};
///
/// let mut admin = SecurityRequirement::default();
/// admin.schemes.insert("oauth".into(), StringList::from_iter(["admin"]));
/// let alice = Principal::new("alice", "oauth").with_scopes(["admin", "read"]);
/// let bob = Principal::new("bob", "oauth").with_scopes(["read"]);
/// assert!(satisfies(&alice, &[admin.clone()]));
/// assert!(!satisfies(&bob, &[admin]));
/// ```
pub fn satisfies(principal: &Principal, requirements: &[SecurityRequirement]) -> bool {
    requirements.is_empty()
        || requirements.iter().any(|r| {
            r.schemes.is_empty()
                || r.schemes
                    .get(&principal.scheme)
                    .is_some_and(|scopes| scopes.list.iter().all(|s| principal.scopes.contains(s)))
        })
}

/// Whether the caller may use the skill `skill_id` of `card`: the skill's
/// `securityRequirements` by [`satisfies`] (an anonymous caller only when
/// the skill has none or allows anonymous). A skill the card does not
/// list is refused.
pub fn skill_allows(principal: Option<&Principal>, card: &AgentCard, skill_id: &str) -> bool {
    let Some(skill) = card.skills.iter().find(|s| s.id == skill_id) else {
        return false;
    };
    let requirements = &skill.security_requirements;
    match principal {
        Some(p) => satisfies(p, requirements),
        None => requirements.is_empty() || requirements.iter().any(|r| r.schemes.is_empty()),
    }
}

/// Signs `claims` as a compact JWS (RFC 7519) with `key`, the header
/// `{"alg","typ":"JWT","kid"}`: for tests, and for hosts that issue tokens.
///
/// # Errors
///
/// [`SignError::Signing`] when `claims` is not a JSON object or the key
/// cannot sign.
pub fn sign_jwt(
    key: &SigningKey,
    kid: &str,
    claims: &serde_json::Value,
) -> Result<String, SignError> {
    if !claims.is_object() {
        return Err(SignError::Signing(
            "the claims are not a JSON object".into(),
        ));
    }
    let header = serde_json::json!({"alg": key.algorithm().name(), "typ": "JWT", "kid": kid});
    let mut token = URL_SAFE_NO_PAD.encode(header.to_string());
    token.push('.');
    token.push_str(&URL_SAFE_NO_PAD.encode(claims.to_string()));
    let signature = sign_bytes(key, token.as_bytes())?;
    token.push('.');
    token.push_str(&URL_SAFE_NO_PAD.encode(signature));
    Ok(token)
}

/// `json` as an object of unique members, at most `limit` bytes.
fn object(json: &[u8], limit: usize, what: &str) -> Result<Node, JwtError> {
    let bad = |why: String| JwtError::Malformed(format!("the {what}: {why}"));
    let node = Node::parse(json, limit).map_err(|e| bad(e.to_string()))?;
    if node.members().is_none() {
        return Err(bad("not a JSON object".into()));
    }
    // The canonical writer refuses duplicate members (RFC 7519 section 4).
    node.canonical().map_err(|e| bad(e.to_string()))?;
    Ok(node)
}

fn find(keys: &JwkSet, kid: Option<&str>) -> Option<Jwk> {
    match kid {
        Some(kid) => keys.find(kid).cloned(),
        None if keys.keys.len() == 1 => keys.keys.first().cloned(),
        None => None,
    }
}

/// Seconds since the epoch (negative before it).
fn seconds(t: SystemTime) -> f64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs_f64(),
        Err(e) => -e.duration().as_secs_f64(),
    }
}

/// `scheme://authority` of an absolute URL.
fn origin(url: &str) -> Option<(String, String)> {
    let uri: http::Uri = url.parse().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let port = uri
        .port_u16()
        .unwrap_or(if scheme == "https" { 443 } else { 80 });
    let host = uri.host()?.to_ascii_lowercase();
    Some((scheme, format!("{host}:{port}")))
}

/// The token of the one `Authorization: Bearer` field (RFC 6750 section
/// 2.1): `Ok(None)` without one (or with another scheme), `Err` when the
/// field is repeated or not text.
fn bearer(headers: &HeaderMap) -> Result<Option<&str>, String> {
    match authorization(headers, "Bearer")? {
        Some("") => Err("the bearer token is empty".to_owned()),
        token => Ok(token),
    }
}

#[cfg(test)]
mod tests {
    use http::header::AUTHORIZATION;

    use super::*;

    #[test]
    fn origins_compare_scheme_host_and_port() {
        assert_eq!(
            origin("https://idp.example/keys"),
            origin("https://IDP.example:443/")
        );
        assert_ne!(
            origin("https://idp.example/keys"),
            origin("http://idp.example/")
        );
        assert_ne!(origin("http://127.0.0.1:1/"), origin("http://127.0.0.1:2/"));
        assert_eq!(origin("not a url"), None);
    }

    #[test]
    fn bearer_field() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), Ok(None));
        h.insert(AUTHORIZATION, "Basic abc".parse().unwrap());
        assert_eq!(bearer(&h), Ok(None));
        h.insert(AUTHORIZATION, "bearer  a.b.c".parse().unwrap());
        assert_eq!(bearer(&h), Ok(Some("a.b.c")));
        h.insert(AUTHORIZATION, "Bearer".parse().unwrap());
        assert!(bearer(&h).is_err());
        h.append(AUTHORIZATION, "Bearer x".parse().unwrap());
        assert!(bearer(&h).is_err());
    }

    #[test]
    fn seconds_before_and_after_the_epoch() {
        assert_eq!(seconds(UNIX_EPOCH + Duration::from_secs(5)), 5.0);
        assert_eq!(seconds(UNIX_EPOCH - Duration::from_secs(5)), -5.0);
    }
}
