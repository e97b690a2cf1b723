//! The client side (feature `client`): discovery that verifies the card
//! (spec 8.2, 8.4.3), and trusted JWKS documents fetched through the host's
//! [`HttpClient`].

use std::pin::Pin;
use std::sync::Arc;

use a2a_transport::client::{
    discover, Discovered, DiscoveryError, HttpClient, Preferences, ResponseBody,
};
use a2a_types::{A2aError, AgentCard, ErrorKind};
use bytes::{Bytes, BytesMut};
use futures_core::Stream;
use http::{header, Method, StatusCode};

use crate::jwk::{JwkSet, KeyError};
use crate::jws::ProtectedHeader;
use crate::verify::{KeyResolver, Policy, Verification, Verifier, VerifyError};

/// Largest JWKS document read: 64 KiB.
pub const MAX_JWKS_BYTES: usize = 64 * 1024;

/// JWKS documents at URLs the verifier trusts, fetched when a card is
/// verified (spec 8.4.3 step 2, "retrieve the public key using the `kid`
/// and `jku`").
///
/// A signature's `jku` is only a hint: a URL is fetched only when it is on
/// the allow-list, compared as an exact string, because a card can name any
/// URL, an attacker's included. Signatures without a `jku`, or naming one
/// off the list, are looked up in every allow-listed document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteJwks {
    allowed: Vec<String>,
}

impl RemoteJwks {
    /// Trust the JWKS documents at `urls`.
    pub fn new(urls: impl IntoIterator<Item = impl Into<String>>) -> RemoteJwks {
        RemoteJwks {
            allowed: urls.into_iter().map(Into::into).collect(),
        }
    }

    /// The allow-list.
    pub fn allowed(&self) -> &[String] {
        &self.allowed
    }

    /// The allow-listed URLs to fetch for `card`: those its signatures name
    /// in `jku`, or every one when a signature names none on the list.
    pub fn urls_for(&self, card: &AgentCard) -> Vec<&str> {
        let mut named = Vec::new();
        let mut all = false;
        for s in &card.signatures {
            match ProtectedHeader::decode(&s.protected)
                .ok()
                .and_then(|h| h.jku)
                .filter(|jku| self.allowed.contains(jku))
            {
                Some(jku) => named.push(jku),
                None => all = true,
            }
        }
        self.allowed
            .iter()
            .filter(|u| all || named.contains(u))
            .map(String::as_str)
            .collect()
    }

    /// The keys of the documents [`urls_for`](Self::urls_for) `card` names,
    /// fetched with `client`.
    ///
    /// # Errors
    ///
    /// An [`A2aError`] when a document cannot be fetched, is not `200`, is
    /// larger than [`MAX_JWKS_BYTES`] or is not a JWK Set.
    pub async fn fetch<C: HttpClient + ?Sized>(
        &self,
        client: &C,
        card: &AgentCard,
    ) -> Result<JwkSet, A2aError> {
        let mut keys = JwkSet::default();
        for url in self.urls_for(card) {
            keys.extend(fetch_jwks(client, url).await?);
        }
        Ok(keys)
    }
}

fn jwks_error(url: &str, why: impl std::fmt::Display) -> A2aError {
    A2aError::new(
        ErrorKind::InvalidAgentResponse,
        format!("the JWKS at {url}: {why}"),
    )
}

/// Fetches and parses one JWKS document.
///
/// # Errors
///
/// As [`RemoteJwks::fetch`].
pub async fn fetch_jwks<C: HttpClient + ?Sized>(client: &C, url: &str) -> Result<JwkSet, A2aError> {
    let bytes = get_limited(
        client,
        url,
        "application/jwk-set+json, application/json",
        MAX_JWKS_BYTES,
    )
    .await
    .map_err(|why| jwks_error(url, why))?;
    JwkSet::from_json(&bytes).map_err(|e: KeyError| jwks_error(url, e))
}

/// GETs `url`, answering its body when the status is `200` and it has at
/// most `limit` bytes.
pub(crate) async fn get_limited<C: HttpClient + ?Sized>(
    client: &C,
    url: &str,
    accept: &'static str,
    limit: usize,
) -> Result<Bytes, String> {
    let uri: http::Uri = url.parse().map_err(|_| "not a URL".to_owned())?;
    let mut request = http::Request::new(Bytes::new());
    *request.method_mut() = Method::GET;
    *request.uri_mut() = uri;
    request
        .headers_mut()
        .insert(header::ACCEPT, http::HeaderValue::from_static(accept));
    let response = client
        .send(request)
        .await
        .map_err(|e| A2aError::from(e).to_string())?;
    let (parts, body) = response.into_parts();
    if parts.status != StatusCode::OK {
        return Err(format!("HTTP {}", parts.status));
    }
    read_limited(body, limit).await
}

async fn read_limited(mut body: ResponseBody, limit: usize) -> Result<Bytes, String> {
    let mut buf = BytesMut::new();
    while let Some(chunk) = std::future::poll_fn(|c| Pin::new(&mut body).poll_next(c)).await {
        let chunk = chunk.map_err(|e| e.to_string())?;
        if buf.len() + chunk.len() > limit {
            return Err(format!("over the limit of {limit} bytes"));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf.freeze())
}

/// Where [`discover_signed`] gets its trusted keys.
#[derive(Clone)]
#[non_exhaustive]
pub enum KeySource {
    /// A resolver the host supplies (a local JWKS, a key store).
    Resolver(Arc<dyn KeyResolver>),
    /// JWKS documents at allow-listed URLs, fetched with the discovery's
    /// client.
    Remote(RemoteJwks),
}

impl std::fmt::Debug for KeySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeySource::Resolver(_) => f.write_str("KeySource::Resolver(..)"),
            KeySource::Remote(r) => f.debug_tuple("KeySource::Remote").field(r).finish(),
        }
    }
}

impl From<JwkSet> for KeySource {
    fn from(keys: JwkSet) -> KeySource {
        KeySource::Resolver(Arc::new(keys))
    }
}

impl From<RemoteJwks> for KeySource {
    fn from(remote: RemoteJwks) -> KeySource {
        KeySource::Remote(remote)
    }
}

/// What [`discover_signed`] asks of the card's signatures.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SignaturePolicy {
    /// The verification policy.
    pub policy: Policy,
    /// The trusted keys.
    pub keys: KeySource,
    /// Whether a card without a valid signature fails discovery (`true`) or
    /// is returned with the failure reported (`false`).
    pub required: bool,
}

impl SignaturePolicy {
    /// Require a valid signature under `keys` with the default [`Policy`].
    pub fn require(keys: impl Into<KeySource>) -> SignaturePolicy {
        SignaturePolicy {
            policy: Policy::default(),
            keys: keys.into(),
            required: true,
        }
    }

    /// Verify under `keys` and report, without refusing the card.
    pub fn report(keys: impl Into<KeySource>) -> SignaturePolicy {
        SignaturePolicy {
            required: false,
            ..SignaturePolicy::require(keys)
        }
    }

    /// The same with `policy`.
    pub fn with_policy(mut self, policy: Policy) -> SignaturePolicy {
        self.policy = policy;
        self
    }
}

/// A discovered agent and what its card's signatures said.
#[non_exhaustive]
pub struct SignedDiscovery<C> {
    /// The discovery (card, interface, transport).
    pub discovered: Discovered<C>,
    /// The verification result: always `Ok` when the policy required it.
    pub verification: Result<Verification, VerifyError>,
}

impl<C> std::fmt::Debug for SignedDiscovery<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignedDiscovery")
            .field("discovered", &self.discovered)
            .field("verification", &self.verification)
            .finish()
    }
}

/// Why [`discover_signed`] failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SignedDiscoveryError {
    /// Discovery itself failed.
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    /// The trusted keys could not be fetched.
    #[error("fetching the trusted keys failed: {0}")]
    Keys(A2aError),
    /// A signature was required and the card's do not satisfy the policy.
    #[error(transparent)]
    Signature(VerifyError),
}

/// [`discover`], then verification of the card's signatures over the JSON
/// as received (spec 8.4.3), with the result reported next to the card; a
/// card that fails is refused when `signatures.required`.
///
/// # Errors
///
/// [`SignedDiscoveryError`]: discovery, the keys, or (when required) the
/// signatures.
pub async fn discover_signed<C: HttpClient>(
    client: C,
    base_url: &str,
    prefs: &Preferences,
    signatures: &SignaturePolicy,
) -> Result<SignedDiscovery<C>, SignedDiscoveryError> {
    let discovered = discover(client, base_url, prefs).await?;
    let resolver: Arc<dyn KeyResolver> = match &signatures.keys {
        KeySource::Resolver(r) => Arc::clone(r),
        KeySource::Remote(remote) => {
            let keys = match remote
                .fetch(discovered.transport.client(), &discovered.card)
                .await
            {
                Ok(keys) => keys,
                Err(e) if signatures.required => return Err(SignedDiscoveryError::Keys(e)),
                Err(_) => JwkSet::default(),
            };
            Arc::new(keys)
        }
    };
    let verifier = Verifier::new(resolver, signatures.policy.clone());
    let verification = match &discovered.card_json {
        Some(json) => verifier.verify_json(json),
        None => verifier.verify_card(&discovered.card),
    };
    match verification {
        Err(e) if signatures.required => Err(SignedDiscoveryError::Signature(e)),
        verification => Ok(SignedDiscovery {
            discovered,
            verification,
        }),
    }
}
