//! Agent card signing and verification for A2A v1.0 (spec 8.4).
//!
//! A card may carry JWS signatures (RFC 7515) so that a client can tell it
//! was not changed and comes from its claimed provider. This crate makes
//! them and checks them, and nothing else: it holds no keys, reads no clock
//! and opens no socket (with the `client` feature, JWKS documents come
//! through the host's `HttpClient`). Hosts that neither sign nor verify do
//! not depend on it.
//!
//! - **Payload** (spec 8.4.1): the card with the field-presence rules of
//!   spec 5.7 applied, without `signatures`, canonicalized by RFC 8785
//!   ([`canonicalize`], [`card_payload`] from a typed card,
//!   [`json_payload`] from received JSON).
//! - **Signatures** (spec 8.4.2): [`CardSigner`] writes `protected` (base64url
//!   of `{"alg","typ":"JOSE","kid","jku"?}`) and `signature` over
//!   `BASE64URL(header) || '.' || BASE64URL(payload)`, with ES256, ES384,
//!   EdDSA (Ed25519), RS256 or PS256 ([`Algorithm`]) on RustCrypto; keys in
//!   and out as JWK ([`Jwk`], [`JwkSet`], [`SigningKey`], [`VerifyingKey`]).
//! - **Verification** (spec 8.4.3): [`Verifier`] with the host's
//!   [`KeyResolver`] (by `kid`; a [`JwkSet`] is one) and [`Policy`]
//!   (algorithms accepted, one valid signature or all). `jku` is never
//!   fetched or trusted because the card names it; `none` and HMAC are
//!   refused. Each signature's outcome is reported ([`Verification`]), with
//!   a distinct [`SignatureError`] per condition.
//! - **Client** (feature `client`): `discover_signed` verifies the card as
//!   received during discovery, and `RemoteJwks` fetches JWKS documents from
//!   an allow-list.
//! - **Bearer JWTs** (feature `jwt-auth`): `jwt::JwtAuth`, an
//!   a2a-transport `Authenticator` validating tokens against a JWKS (local,
//!   allow-listed URLs, or OpenID Connect discovery), with rotation, and
//!   `jwt::satisfies` for the card's and skills' `securityRequirements`.
//!
//! # Signing a card at start-up
//!
//! ```
//! use a2a_signing::{CardSigner, Jwk, SigningKey};
//! use a2a_types::AgentCard;
//!
//! # let jwk = SigningKey::generate(a2a_signing::Algorithm::Es256)?.private_jwk();
//! # let key_file = jwk.to_json();
//! let jwk = Jwk::from_json(key_file.as_bytes())?;
//! let signer = CardSigner::new(SigningKey::from_jwk(&jwk, None)?, "key-1")
//!     .with_jku("https://agent.example/.well-known/jwks.json");
//! let card = AgentCard { name: "Echo".into(), ..Default::default() };
//! let card = signer.sign_card(card)?;
//! // Hand `card` to `A2aServer::new`: the card resource serializes it once,
//! // and its ETag is computed over those signed bytes.
//! # assert_eq!(card.signatures.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Verifying a received card
//!
//! ```
//! use a2a_signing::{CardSigner, JwkSet, Policy, SigningKey, Algorithm, Verifier, VerifyError};
//! use a2a_types::AgentCard;
//!
//! let key = SigningKey::generate(Algorithm::EdDsa)?;
//! let card = CardSigner::new(key.clone(), "k").sign_card(AgentCard {
//!     name: "Echo".into(),
//!     ..Default::default()
//! })?;
//! let json = a2a_types::json::to_vec(&card)?;
//!
//! let trusted = JwkSet::new([key.public_jwk().with_kid("k")]);
//! let verifier = Verifier::new(trusted, Policy::default());
//! assert!(verifier.verify_json(&json).is_ok());
//!
//! let tampered = String::from_utf8(json)?.replace("Echo", "Evil");
//! assert!(matches!(verifier.verify_json(tampered.as_bytes()), Err(VerifyError::Rejected(_))));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![cfg_attr(docsrs, feature(doc_auto_cfg))]

mod jcs;
mod jwk;
mod jws;
mod verify;

#[cfg(feature = "client")]
mod client;

#[cfg(feature = "jwt-auth")]
pub mod jwt;

#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod fuzz;

pub use jcs::{
    canonicalize, canonicalize_value, format_number, JcsError, MAX_DEPTH, MAX_INPUT_BYTES,
};
pub use jwk::{
    Algorithm, Jwk, JwkSet, KeyError, SigningKey, VerifyingKey, MAX_JWKS_KEYS, MAX_RSA_BITS,
    MIN_RSA_BITS,
};
pub use jws::{
    card_payload, json_payload, CardSigner, ProtectedHeader, SignError, SignatureError,
    MAX_PROTECTED_LEN, MAX_SIGNATURE_LEN,
};
pub use verify::{
    KeyResolver, PayloadForm, Policy, Require, SignatureReport, Verification, Verifier, VerifyError,
};

#[cfg(feature = "client")]
pub use client::{
    discover_signed, fetch_jwks, KeySource, RemoteJwks, SignaturePolicy, SignedDiscovery,
    SignedDiscoveryError, MAX_JWKS_BYTES,
};
