//! JWS (RFC 7515) as spec 8.4.2 uses it: the flattened serialization's
//! `protected`, `signature` and `header` members, over a detached payload
//! (the card's canonical form, spec 8.4.1).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::Serialize;
use sha2::Sha256;
use signature::{RandomizedSigner, SignatureEncoding, Signer, Verifier};

use a2a_types::{AgentCard, AgentCardSignature, Struct};

use crate::jcs::{JcsError, Node};
use crate::jwk::{Algorithm, PrivateInner, PublicInner, SigningKey, VerifyingKey};

/// Longest `protected` value accepted, in characters: 8 KiB.
pub const MAX_PROTECTED_LEN: usize = 8 * 1024;
/// Longest `signature` value accepted, in characters: 1 KiB (an RSA-4096
/// signature is 683).
pub const MAX_SIGNATURE_LEN: usize = 1024;

/// The JWS Protected Header of a card signature (spec 8.4.2), decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProtectedHeader {
    /// `alg`, as written (it may name an algorithm this crate refuses).
    pub alg: String,
    /// `kid`: the key id (spec 8.4.2: MUST be present).
    pub kid: String,
    /// `typ` (spec 8.4.2: SHOULD be `JOSE`).
    pub typ: Option<String>,
    /// `jku`: where the signer says its JWKS is. Never trusted because the
    /// card names it (spec 8.4.3: keys come from the verifier's policy).
    pub jku: Option<String>,
    /// Every member name, for the disjointness check against the
    /// unprotected header (RFC 7515 section 7.2.1).
    pub names: Vec<String>,
}

impl ProtectedHeader {
    /// Decodes a `protected` value: base64url without padding (RFC 7515
    /// section 2), a JSON object without duplicate members (section 4),
    /// string `alg` and `kid`, string `typ` and `jku` when present, and no
    /// `crit` (section 4.1.11: this crate understands no extension).
    ///
    /// # Errors
    ///
    /// [`SignatureError::MalformedHeader`] saying what is wrong.
    pub fn decode(protected: &str) -> Result<ProtectedHeader, SignatureError> {
        let bad = |why: String| SignatureError::MalformedHeader(why);
        if protected.len() > MAX_PROTECTED_LEN {
            return Err(bad(format!(
                "{} characters, over the limit of {MAX_PROTECTED_LEN}",
                protected.len()
            )));
        }
        let json = URL_SAFE_NO_PAD
            .decode(protected)
            .map_err(|_| bad("not base64url without padding".into()))?;
        let node = Node::parse(&json, MAX_PROTECTED_LEN).map_err(|e| bad(e.to_string()))?;
        let members = node
            .members()
            .ok_or_else(|| bad("not a JSON object".into()))?;
        // The canonical writer refuses duplicate members.
        node.canonical().map_err(|e| bad(e.to_string()))?;
        let text = |name: &str| -> Result<Option<String>, SignatureError> {
            match node.member(name) {
                None => Ok(None),
                Some(Node::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(SignatureError::MalformedHeader(format!(
                    "{name:?} is not a string"
                ))),
            }
        };
        if node.member("crit").is_some() {
            return Err(bad(
                "it has \"crit\": no JWS extension is understood (RFC 7515 section 4.1.11)".into(),
            ));
        }
        let alg = text("alg")?.ok_or_else(|| bad("no \"alg\"".into()))?;
        let kid = text("kid")?.ok_or_else(|| bad("no \"kid\" (spec 8.4.2: MUST)".into()))?;
        Ok(ProtectedHeader {
            alg,
            kid,
            typ: text("typ")?,
            jku: text("jku")?,
            names: members.iter().map(|(k, _)| k.clone()).collect(),
        })
    }
}

/// Why one signature does not hold (spec 8.4.3). Each variant is one
/// documented condition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SignatureError {
    /// The `protected` value is not base64url of a JSON object with `alg`
    /// and `kid`, or the unprotected `header` repeats one of its members.
    #[error("malformed protected header: {0}")]
    MalformedHeader(String),
    /// The `signature` value is not base64url without padding, or is too
    /// long.
    #[error("malformed signature encoding: {0}")]
    MalformedSignature(String),
    /// `alg` names no algorithm this crate verifies: `none`, an HMAC
    /// algorithm (refused: a public key is not a shared secret), or one it
    /// does not implement.
    #[error("unsupported algorithm {alg:?}{why}", alg = .0, why = unsupported_why(.0))]
    UnsupportedAlgorithm(String),
    /// `alg` is one this crate knows but the verifier's policy does not
    /// allow.
    #[error("the algorithm {0} is not allowed by the verification policy")]
    AlgorithmNotAllowed(Algorithm),
    /// The key resolver has no key for the signature's `kid`.
    #[error("no trusted key has the kid {0:?}")]
    UnknownKey(String),
    /// The key found for `kid` cannot verify `alg` (an RSA key for ES256,
    /// a key whose JWK `alg` or `use` says otherwise) or is not a usable
    /// key: the guard against algorithm confusion.
    #[error("the key {kid:?} cannot verify this signature: {why}")]
    KeyMismatch {
        /// The key id.
        kid: String,
        /// What does not fit.
        why: String,
    },
    /// The signature bytes cannot be a signature by this key at all: the
    /// wrong length for the curve or modulus, or numbers out of range. The
    /// key named by `kid` did not make it (a wrong `kid`), or the bytes were
    /// damaged.
    #[error("signature mismatch: the signature is not one the key {kid:?} can have made ({why})")]
    SignatureMismatch {
        /// The key id.
        kid: String,
        /// What does not fit.
        why: String,
    },
    /// A well-formed signature that does not verify over the card's
    /// payload: the card changed after it was signed (or the signature was
    /// made by another key of the same kind under the same `kid`, which no
    /// verifier can tell apart).
    #[error("the card changed after signing: the signature by {kid:?} does not verify over it")]
    CardChanged {
        /// The key id.
        kid: String,
    },
    /// The signature verifies over the card *with* its `signatures` member:
    /// the signer did not exclude it (spec 8.4.1 rule 3).
    #[error("the signature by {kid:?} covers the card with its signatures included, which spec 8.4.1 rule 3 excludes")]
    SignaturesIncluded {
        /// The key id.
        kid: String,
    },
    /// The card has no canonical form (RFC 8785).
    #[error("the card has no canonical form: {0}")]
    Canonicalization(JcsError),
}

fn unsupported_why(alg: &str) -> &'static str {
    if alg.eq_ignore_ascii_case("none") {
        ": an unsigned card is never accepted as signed"
    } else if alg.starts_with("HS") {
        ": HMAC is refused, a public key is not a shared secret (algorithm confusion)"
    } else {
        ""
    }
}

/// Why signing failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SignError {
    /// The card has no canonical form (a number out of range in an
    /// extension's `params`, nesting too deep).
    #[error("the card has no canonical form: {0}")]
    Canonicalization(#[from] JcsError),
    /// The unprotected header repeats a protected member (RFC 7515 section
    /// 7.2.1), or the signing failed.
    #[error("cannot sign: {0}")]
    Signing(String),
}

/// Signs `input` with `key` (RFC 7518 section 3, RFC 8037 section 3.1): the
/// JWS signature bytes (ECDSA as `r || s`).
pub(crate) fn sign_bytes(key: &SigningKey, input: &[u8]) -> Result<Vec<u8>, SignError> {
    Ok(match (&key.inner, key.alg) {
        (PrivateInner::P256(k), Algorithm::Es256) => {
            let s: p256::ecdsa::Signature = k.sign(input);
            s.to_bytes().to_vec()
        }
        (PrivateInner::P384(k), Algorithm::Es384) => {
            let s: p384::ecdsa::Signature = k.sign(input);
            s.to_bytes().to_vec()
        }
        (PrivateInner::Ed25519(k), Algorithm::EdDsa) => k.sign(input).to_bytes().to_vec(),
        (PrivateInner::Rsa(k), Algorithm::Rs256) => {
            rsa::pkcs1v15::SigningKey::<Sha256>::new((**k).clone())
                .sign(input)
                .to_vec()
        }
        (PrivateInner::Rsa(k), Algorithm::Ps256) => {
            rsa::pss::SigningKey::<Sha256>::new((**k).clone())
                .sign_with_rng(&mut rand_core::OsRng, input)
                .to_vec()
        }
        (_, alg) => {
            return Err(SignError::Signing(format!(
                "the key cannot sign with {alg}"
            )))
        }
    })
}

/// What verifying bytes said.
pub(crate) enum Checked {
    Valid,
    /// Well-formed, does not verify.
    Invalid,
    /// Cannot be a signature of this key.
    Impossible(String),
}

/// Verifies `sig` over `input` with `key` for `alg` (the caller has checked
/// [`VerifyingKey::supports`]).
pub(crate) fn verify_bytes(
    key: &VerifyingKey,
    alg: Algorithm,
    input: &[u8],
    sig: &[u8],
) -> Checked {
    let verdict = |ok: bool| if ok { Checked::Valid } else { Checked::Invalid };
    match (&key.0, alg) {
        (PublicInner::P256(k), Algorithm::Es256) => match p256::ecdsa::Signature::from_slice(sig) {
            Ok(s) => verdict(k.verify(input, &s).is_ok()),
            Err(_) => Checked::Impossible(format!(
                "{} bytes where ES256 has 64 with r and s below the group order",
                sig.len()
            )),
        },
        (PublicInner::P384(k), Algorithm::Es384) => match p384::ecdsa::Signature::from_slice(sig) {
            Ok(s) => verdict(k.verify(input, &s).is_ok()),
            Err(_) => Checked::Impossible(format!(
                "{} bytes where ES384 has 96 with r and s below the group order",
                sig.len()
            )),
        },
        (PublicInner::Ed25519(k), Algorithm::EdDsa) => {
            match ed25519_dalek::Signature::from_slice(sig) {
                Ok(s) => verdict(k.verify_strict(input, &s).is_ok()),
                Err(_) => Checked::Impossible(format!("{} bytes where Ed25519 has 64", sig.len())),
            }
        }
        (PublicInner::Rsa(k), Algorithm::Rs256 | Algorithm::Ps256) => {
            use rsa::traits::PublicKeyParts;
            if sig.len() != k.size() {
                return Checked::Impossible(format!(
                    "{} bytes where the key's modulus has {}",
                    sig.len(),
                    k.size()
                ));
            }
            if alg == Algorithm::Rs256 {
                match rsa::pkcs1v15::Signature::try_from(sig) {
                    Ok(s) => verdict(
                        rsa::pkcs1v15::VerifyingKey::<Sha256>::new(k.clone())
                            .verify(input, &s)
                            .is_ok(),
                    ),
                    Err(_) => Checked::Impossible("not an RSA signature".into()),
                }
            } else {
                match rsa::pss::Signature::try_from(sig) {
                    Ok(s) => verdict(
                        rsa::pss::VerifyingKey::<Sha256>::new(k.clone())
                            .verify(input, &s)
                            .is_ok(),
                    ),
                    Err(_) => Checked::Impossible("not an RSA signature".into()),
                }
            }
        }
        _ => Checked::Impossible(format!("a {} key does not verify {alg}", key.kind())),
    }
}

/// The JWS Signing Input (RFC 7515 section 5.1 step 8): `protected || '.'
/// || BASE64URL(payload)`.
pub(crate) fn signing_input(protected: &str, payload: &[u8]) -> Vec<u8> {
    let mut input = Vec::with_capacity(protected.len() + 1 + payload.len() * 4 / 3 + 4);
    input.extend_from_slice(protected.as_bytes());
    input.push(b'.');
    input.extend_from_slice(URL_SAFE_NO_PAD.encode(payload).as_bytes());
    input
}

/// The payload of spec 8.4.1 from the typed card: the card as this crate
/// writes it (ProtoJSON with the field-presence rules of spec 5.7: REQUIRED
/// fields always, `optional` fields exactly when set, other fields only
/// when not their default), without `signatures`, canonicalized (RFC 8785).
///
/// Fields this crate does not know are not in an [`AgentCard`]; to verify a
/// received card that may carry them, use the received JSON
/// ([`Verifier::verify_json`](crate::Verifier::verify_json)).
///
/// # Errors
///
/// [`JcsError`] if the card has no canonical form.
pub fn card_payload(card: &AgentCard) -> Result<Vec<u8>, JcsError> {
    let mut card = card.clone();
    card.signatures.clear();
    let json = a2a_types::json::to_vec(&card).map_err(|e| JcsError::Syntax(e.to_string()))?;
    Node::parse(&json, usize::MAX)?.canonical()
}

/// The payload of spec 8.4.1 from a received card's JSON: the object as
/// received, without its `signatures` member, canonicalized (RFC 8785).
/// Members this crate does not know are covered.
///
/// # Errors
///
/// [`JcsError`] if the text is not a JSON object with a canonical form.
pub fn json_payload(card_json: &[u8]) -> Result<Vec<u8>, JcsError> {
    let node = Node::parse(card_json, crate::jcs::MAX_INPUT_BYTES)?;
    if node.members().is_none() {
        return Err(JcsError::Syntax("the card is not a JSON object".into()));
    }
    node.canonical_without("signatures")
}

#[derive(Serialize)]
struct HeaderOut<'a> {
    alg: &'a str,
    typ: &'a str,
    kid: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    jku: Option<&'a str>,
}

/// Signs agent cards with one key (spec 8.4.2): the protected header holds
/// `alg`, `typ: "JOSE"`, `kid` and, when given, `jku`.
///
/// ```
/// use a2a_signing::{Algorithm, CardSigner, JwkSet, Policy, SigningKey, Verifier};
/// use a2a_types::AgentCard;
///
/// let key = SigningKey::generate(Algorithm::Es256)?;
/// let signer = CardSigner::new(key.clone(), "key-1")
///     .with_jku("https://agent.example/.well-known/jwks.json");
/// let card = AgentCard { name: "Echo".into(), ..Default::default() };
/// let signed = signer.sign_card(card)?;
/// assert_eq!(signed.signatures.len(), 1);
///
/// let keys = JwkSet::new([key.public_jwk().with_kid("key-1")]);
/// let verification = Verifier::new(keys, Policy::default()).verify_card(&signed)?;
/// assert_eq!(verification.valid().next().map(|s| s.kid.as_str()), Some("key-1"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct CardSigner {
    key: SigningKey,
    kid: String,
    jku: Option<String>,
    header: Option<Struct>,
}

impl CardSigner {
    /// A signer with `key`, naming it `kid`.
    pub fn new(key: SigningKey, kid: impl Into<String>) -> CardSigner {
        CardSigner {
            key,
            kid: kid.into(),
            jku: None,
            header: None,
        }
    }

    /// The same signer naming `jku` as where its JWKS is.
    pub fn with_jku(mut self, jku: impl Into<String>) -> CardSigner {
        self.jku = Some(jku.into());
        self
    }

    /// The same signer adding `header` as the unprotected JWS header. Its
    /// members must not repeat the protected ones (RFC 7515 section 7.2.1).
    pub fn with_unprotected_header(mut self, header: Struct) -> CardSigner {
        self.header = Some(header);
        self
    }

    /// The key id.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The key.
    pub fn key(&self) -> &SigningKey {
        &self.key
    }

    /// The signature of `card` (its existing `signatures` are not
    /// covered).
    ///
    /// # Errors
    ///
    /// [`SignError`]: no canonical form, or an unprotected header repeating
    /// a protected member.
    pub fn sign(&self, card: &AgentCard) -> Result<AgentCardSignature, SignError> {
        self.sign_payload(&card_payload(card)?)
    }

    /// `card` with its signature appended to `signatures`.
    ///
    /// # Errors
    ///
    /// As [`sign`](Self::sign).
    pub fn sign_card(&self, mut card: AgentCard) -> Result<AgentCard, SignError> {
        let signature = self.sign(&card)?;
        card.signatures.push(signature);
        Ok(card)
    }

    /// The signature of an already canonical payload.
    ///
    /// # Errors
    ///
    /// As [`sign`](Self::sign).
    pub fn sign_payload(&self, payload: &[u8]) -> Result<AgentCardSignature, SignError> {
        let header = HeaderOut {
            alg: self.key.alg.name(),
            typ: "JOSE",
            kid: &self.kid,
            jku: self.jku.as_deref(),
        };
        if let Some(extra) = &self.header {
            for name in ["alg", "typ", "kid", "jku"] {
                if extra.contains_key(name) {
                    return Err(SignError::Signing(format!(
                        "the unprotected header repeats {name:?} (RFC 7515 section 7.2.1)"
                    )));
                }
            }
        }
        let json = serde_json::to_vec(&header).map_err(|e| SignError::Signing(e.to_string()))?;
        let protected = URL_SAFE_NO_PAD.encode(json);
        let signature = sign_bytes(&self.key, &signing_input(&protected, payload))?;
        Ok(AgentCardSignature {
            protected,
            signature: URL_SAFE_NO_PAD.encode(signature),
            header: self.header.clone(),
        })
    }
}
