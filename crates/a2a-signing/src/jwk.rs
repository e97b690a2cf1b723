//! Keys as JSON Web Keys (RFC 7517, RFC 7518 section 6, RFC 8037) and the
//! algorithms of spec 8.4.2 (RFC 7518 section 3, RFC 8037 section 3.1).

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use rsa::traits::{PrivateKeyParts, PublicKeyParts};
use rsa::BigUint;
use serde::{Deserialize, Serialize};

/// The signature algorithms this crate signs and verifies with (JWA names,
/// RFC 7518 section 3.1; RFC 8037 section 3.1 for `EdDSA`).
///
/// `none` and the HMAC algorithms (`HS256`...) are not among them: a card
/// signature is verified with a public key, and an HMAC "verified" with a
/// public key would accept anything signed with that public text as its
/// secret (the algorithm-confusion attack).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// ECDSA on P-256 with SHA-256.
    Es256,
    /// ECDSA on P-384 with SHA-384.
    Es384,
    /// Ed25519 (RFC 8037).
    EdDsa,
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    Rs256,
    /// RSASSA-PSS with SHA-256, MGF1 with SHA-256, a 32-byte salt.
    Ps256,
}

impl Algorithm {
    /// Every algorithm, in this order.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Es256,
        Algorithm::Es384,
        Algorithm::EdDsa,
        Algorithm::Rs256,
        Algorithm::Ps256,
    ];

    /// The JWA name (`"ES256"`...).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Es256 => "ES256",
            Algorithm::Es384 => "ES384",
            Algorithm::EdDsa => "EdDSA",
            Algorithm::Rs256 => "RS256",
            Algorithm::Ps256 => "PS256",
        }
    }

    /// The algorithm of a JWA name (case-sensitive, RFC 7515 section 4.1.1).
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Smallest RSA modulus accepted, in bits (RFC 7518 section 3.3: 2048 or
/// larger).
pub const MIN_RSA_BITS: usize = 2048;
/// Largest RSA modulus accepted, in bits: 4096, which bounds the work one
/// verification costs.
pub const MAX_RSA_BITS: usize = 4096;
/// Most keys read from one JWKS document.
pub const MAX_JWKS_KEYS: usize = 64;

/// A JSON Web Key (RFC 7517 section 4): the members of EC (`crv`, `x`,
/// `y`, `d`), OKP (`crv`, `x`, `d`) and RSA keys (`n`, `e`, `d`, `p`, `q`,
/// `dp`, `dq`, `qi`). Other members are ignored when read.
///
/// Its `Debug` leaves out the private members.
#[derive(Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Jwk {
    /// Key type: `EC`, `OKP` or `RSA`.
    pub kty: String,
    /// Key id, matched against a signature's `kid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kid: Option<String>,
    /// The algorithm the key is for; when set, a signature naming another
    /// is refused (RFC 7517 section 4.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alg: Option<String>,
    /// Intended use; when set it must be `sig` (RFC 7517 section 4.2).
    #[serde(default, rename = "use", skip_serializing_if = "Option::is_none")]
    pub use_: Option<String>,
    /// Curve: `P-256`, `P-384` (EC) or `Ed25519` (OKP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crv: Option<String>,
    /// EC x coordinate, or the OKP public key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
    /// EC y coordinate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<String>,
    /// RSA modulus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<String>,
    /// RSA public exponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub e: Option<String>,
    /// Private: EC or OKP private key, or RSA private exponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d: Option<String>,
    /// Private: RSA first prime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p: Option<String>,
    /// Private: RSA second prime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
    /// Private: RSA first CRT exponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dp: Option<String>,
    /// Private: RSA second CRT exponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dq: Option<String>,
    /// Private: RSA CRT coefficient.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qi: Option<String>,
}

impl fmt::Debug for Jwk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Jwk")
            .field("kty", &self.kty)
            .field("kid", &self.kid)
            .field("alg", &self.alg)
            .field("crv", &self.crv)
            .field("private", &self.d.is_some())
            .finish_non_exhaustive()
    }
}

impl Jwk {
    /// Reads a JWK from JSON.
    ///
    /// # Errors
    ///
    /// [`KeyError::Json`] when `json` is not a JWK object.
    pub fn from_json(json: &[u8]) -> Result<Jwk, KeyError> {
        serde_json::from_slice(json).map_err(|e| KeyError::Json(e.to_string()))
    }

    /// The JWK as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The same key without its private members.
    pub fn public(&self) -> Jwk {
        Jwk {
            d: None,
            p: None,
            q: None,
            dp: None,
            dq: None,
            qi: None,
            ..self.clone()
        }
    }

    /// The same key with `kid` as its key id.
    pub fn with_kid(mut self, kid: impl Into<String>) -> Jwk {
        self.kid = Some(kid.into());
        self
    }
}

/// A JWK Set (RFC 7517 section 5): `{"keys": [...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct JwkSet {
    /// The keys.
    pub keys: Vec<Jwk>,
}

impl JwkSet {
    /// A set of `keys`.
    pub fn new(keys: impl IntoIterator<Item = Jwk>) -> JwkSet {
        JwkSet {
            keys: keys.into_iter().collect(),
        }
    }

    /// Reads a JWKS document. Members of a key that this crate does not use
    /// are ignored; keys of other types stay in the set and simply never
    /// verify anything.
    ///
    /// # Errors
    ///
    /// [`KeyError::Json`] when it is not a JWK Set, [`KeyError::TooManyKeys`]
    /// over [`MAX_JWKS_KEYS`].
    pub fn from_json(json: &[u8]) -> Result<JwkSet, KeyError> {
        let set: JwkSet =
            serde_json::from_slice(json).map_err(|e| KeyError::Json(e.to_string()))?;
        if set.keys.len() > MAX_JWKS_KEYS {
            return Err(KeyError::TooManyKeys(set.keys.len()));
        }
        Ok(set)
    }

    /// The set as a JWKS document, every key without its private members:
    /// what an agent publishes.
    pub fn to_public_json(&self) -> String {
        let public = JwkSet::new(self.keys.iter().map(Jwk::public));
        serde_json::to_string(&public).unwrap_or_default()
    }

    /// The first key whose `kid` is `kid`.
    pub fn find(&self, kid: &str) -> Option<&Jwk> {
        self.keys.iter().find(|k| k.kid.as_deref() == Some(kid))
    }

    /// Adds the keys of `other`.
    pub fn extend(&mut self, other: JwkSet) {
        self.keys.extend(other.keys);
    }
}

/// Why a JWK is not a usable key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyError {
    /// Not JSON of a JWK or JWKS.
    #[error("not a JWK: {0}")]
    Json(String),
    /// A JWKS with more than [`MAX_JWKS_KEYS`] keys.
    #[error("a JWKS with {0} keys, over the limit of {MAX_JWKS_KEYS}")]
    TooManyKeys(usize),
    /// A key type or curve this crate does not use (`oct` keys included:
    /// symmetric keys have no place in card signing).
    #[error("unsupported key: {0}")]
    Unsupported(String),
    /// A member is missing, not base64url, or of the wrong length.
    #[error("the JWK member {member:?} is {problem}")]
    Member {
        /// The member.
        member: &'static str,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// The numbers do not form a key (a point off the curve, an RSA key
    /// that does not validate, a public part that does not match the
    /// private one).
    #[error("the JWK is not a valid key: {0}")]
    Invalid(String),
    /// An RSA modulus outside [`MIN_RSA_BITS`]..=[`MAX_RSA_BITS`].
    #[error("an RSA modulus of {0} bits; {MIN_RSA_BITS} to {MAX_RSA_BITS} are accepted")]
    RsaSize(usize),
    /// The key cannot sign or verify with the algorithm asked for.
    #[error("a {key} key cannot be used with {alg}")]
    WrongAlgorithm {
        /// The key's type and curve.
        key: String,
        /// The algorithm.
        alg: Algorithm,
    },
    /// A private key was needed and the JWK holds only the public part.
    #[error("the JWK holds no private key")]
    NotPrivate,
}

fn member(value: &Option<String>, name: &'static str) -> Result<Vec<u8>, KeyError> {
    let text = value.as_deref().ok_or(KeyError::Member {
        member: name,
        problem: "missing",
    })?;
    URL_SAFE_NO_PAD.decode(text).map_err(|_| KeyError::Member {
        member: name,
        problem: "not base64url without padding",
    })
}

fn fixed<const N: usize>(value: &Option<String>, name: &'static str) -> Result<[u8; N], KeyError> {
    member(value, name)?
        .try_into()
        .map_err(|_| KeyError::Member {
            member: name,
            problem: "of the wrong length for its curve",
        })
}

fn b64(bytes: &[u8]) -> Option<String> {
    Some(URL_SAFE_NO_PAD.encode(bytes))
}

fn rsa_check(n: &BigUint) -> Result<(), KeyError> {
    let bits = n.bits();
    if !(MIN_RSA_BITS..=MAX_RSA_BITS).contains(&bits) {
        return Err(KeyError::RsaSize(bits));
    }
    Ok(())
}

/// A public key that verifies card signatures.
#[derive(Clone, PartialEq, Eq)]
pub struct VerifyingKey(pub(crate) PublicInner);

#[derive(Clone, PartialEq, Eq)]
pub(crate) enum PublicInner {
    P256(p256::ecdsa::VerifyingKey),
    P384(p384::ecdsa::VerifyingKey),
    Ed25519(ed25519_dalek::VerifyingKey),
    Rsa(rsa::RsaPublicKey),
}

impl fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VerifyingKey({})", self.kind())
    }
}

impl VerifyingKey {
    /// The key `jwk` holds, if it may verify `alg`: its `alg` (when
    /// named) is `alg`, its `use` (when named) is `sig` (RFC 7517 4.2,
    /// 4.4), and its type fits the algorithm. `signed` names what carries
    /// `alg` ("the token", "the signature") in the reason of a refusal.
    pub(crate) fn for_algorithm(
        jwk: &Jwk,
        alg: Algorithm,
        signed: &str,
    ) -> Result<VerifyingKey, String> {
        if let Some(named) = jwk.alg.as_deref() {
            if named != alg.name() {
                return Err(format!("the key is for {named}, {signed} says {alg}"));
            }
        }
        if let Some(use_) = jwk.use_.as_deref() {
            if use_ != "sig" {
                return Err(format!("the key's use is {use_:?}, not \"sig\""));
            }
        }
        let key = VerifyingKey::from_jwk(jwk).map_err(|e| e.to_string())?;
        if !key.supports(alg) {
            return Err(format!("a {} key cannot verify {alg}", key.kind()));
        }
        Ok(key)
    }

    /// The public key of a JWK (its private members, if any, are ignored).
    ///
    /// # Errors
    ///
    /// [`KeyError`] for an unsupported type or curve, a missing or malformed
    /// member, a point off the curve, an RSA size out of bounds.
    pub fn from_jwk(jwk: &Jwk) -> Result<VerifyingKey, KeyError> {
        let inner = match (jwk.kty.as_str(), jwk.crv.as_deref()) {
            ("EC", Some("P-256")) => {
                let point = sec1(&fixed::<32>(&jwk.x, "x")?, &fixed::<32>(&jwk.y, "y")?);
                PublicInner::P256(
                    p256::ecdsa::VerifyingKey::from_sec1_bytes(&point)
                        .map_err(|_| KeyError::Invalid("the point is not on P-256".into()))?,
                )
            }
            ("EC", Some("P-384")) => {
                let point = sec1(&fixed::<48>(&jwk.x, "x")?, &fixed::<48>(&jwk.y, "y")?);
                PublicInner::P384(
                    p384::ecdsa::VerifyingKey::from_sec1_bytes(&point)
                        .map_err(|_| KeyError::Invalid("the point is not on P-384".into()))?,
                )
            }
            ("OKP", Some("Ed25519")) => PublicInner::Ed25519(
                ed25519_dalek::VerifyingKey::from_bytes(&fixed::<32>(&jwk.x, "x")?)
                    .map_err(|_| KeyError::Invalid("not an Ed25519 public key".into()))?,
            ),
            ("RSA", _) => {
                let n = BigUint::from_bytes_be(&member(&jwk.n, "n")?);
                let e = BigUint::from_bytes_be(&member(&jwk.e, "e")?);
                rsa_check(&n)?;
                PublicInner::Rsa(
                    rsa::RsaPublicKey::new(n, e).map_err(|e| KeyError::Invalid(e.to_string()))?,
                )
            }
            (kty, crv) => {
                return Err(KeyError::Unsupported(match crv {
                    Some(crv) => format!("{kty} {crv}"),
                    None => kty.to_owned(),
                }))
            }
        };
        Ok(VerifyingKey(inner))
    }

    /// The key as a public JWK (without `kid` or `alg`).
    pub fn to_jwk(&self) -> Jwk {
        match &self.0 {
            PublicInner::P256(k) => {
                let p = k.to_encoded_point(false);
                ec_jwk("P-256", p.x().map(|x| &x[..]), p.y().map(|y| &y[..]))
            }
            PublicInner::P384(k) => {
                let p = k.to_encoded_point(false);
                ec_jwk("P-384", p.x().map(|x| &x[..]), p.y().map(|y| &y[..]))
            }
            PublicInner::Ed25519(k) => Jwk {
                kty: "OKP".into(),
                crv: Some("Ed25519".into()),
                x: b64(k.as_bytes()),
                ..Jwk::default()
            },
            PublicInner::Rsa(k) => Jwk {
                kty: "RSA".into(),
                n: b64(&k.n().to_bytes_be()),
                e: b64(&k.e().to_bytes_be()),
                ..Jwk::default()
            },
        }
    }

    /// Whether the key verifies signatures of `alg`.
    pub fn supports(&self, alg: Algorithm) -> bool {
        matches!(
            (&self.0, alg),
            (PublicInner::P256(_), Algorithm::Es256)
                | (PublicInner::P384(_), Algorithm::Es384)
                | (PublicInner::Ed25519(_), Algorithm::EdDsa)
                | (PublicInner::Rsa(_), Algorithm::Rs256 | Algorithm::Ps256)
        )
    }

    /// The key type and curve, as a JWK names them (`EC P-256`).
    pub fn kind(&self) -> &'static str {
        match &self.0 {
            PublicInner::P256(_) => "EC P-256",
            PublicInner::P384(_) => "EC P-384",
            PublicInner::Ed25519(_) => "OKP Ed25519",
            PublicInner::Rsa(_) => "RSA",
        }
    }
}

fn sec1(x: &[u8], y: &[u8]) -> Vec<u8> {
    let mut point = Vec::with_capacity(1 + x.len() + y.len());
    point.push(0x04);
    point.extend_from_slice(x);
    point.extend_from_slice(y);
    point
}

fn ec_jwk(crv: &str, x: Option<&[u8]>, y: Option<&[u8]>) -> Jwk {
    Jwk {
        kty: "EC".into(),
        crv: Some(crv.into()),
        x: x.and_then(b64),
        y: y.and_then(b64),
        ..Jwk::default()
    }
}

/// A private key that signs cards, with the algorithm it signs with.
///
/// Its `Debug` shows the algorithm only.
#[derive(Clone)]
pub struct SigningKey {
    pub(crate) inner: PrivateInner,
    pub(crate) alg: Algorithm,
}

#[derive(Clone)]
pub(crate) enum PrivateInner {
    P256(p256::ecdsa::SigningKey),
    P384(p384::ecdsa::SigningKey),
    Ed25519(ed25519_dalek::SigningKey),
    Rsa(Box<rsa::RsaPrivateKey>),
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SigningKey({})", self.alg)
    }
}

impl SigningKey {
    /// The private key of a JWK, to sign with `alg` (`None`: the JWK's
    /// `alg`, else ES256 for P-256, ES384 for P-384, EdDSA for Ed25519 and
    /// RS256 for RSA).
    ///
    /// # Errors
    ///
    /// [`KeyError::NotPrivate`] without `d`; [`KeyError::WrongAlgorithm`]
    /// when the key cannot sign with `alg` or the JWK's `alg` differs; the
    /// errors of [`VerifyingKey::from_jwk`]; [`KeyError::Invalid`] when the
    /// public members do not match the private key.
    pub fn from_jwk(jwk: &Jwk, alg: Option<Algorithm>) -> Result<SigningKey, KeyError> {
        if jwk.d.is_none() {
            return Err(KeyError::NotPrivate);
        }
        let inner = match (jwk.kty.as_str(), jwk.crv.as_deref()) {
            ("EC", Some("P-256")) => PrivateInner::P256(
                p256::ecdsa::SigningKey::from_slice(&fixed::<32>(&jwk.d, "d")?)
                    .map_err(|_| KeyError::Invalid("not a P-256 private key".into()))?,
            ),
            ("EC", Some("P-384")) => PrivateInner::P384(
                p384::ecdsa::SigningKey::from_slice(&fixed::<48>(&jwk.d, "d")?)
                    .map_err(|_| KeyError::Invalid("not a P-384 private key".into()))?,
            ),
            ("OKP", Some("Ed25519")) => PrivateInner::Ed25519(
                ed25519_dalek::SigningKey::from_bytes(&fixed::<32>(&jwk.d, "d")?),
            ),
            ("RSA", _) => {
                let n = BigUint::from_bytes_be(&member(&jwk.n, "n")?);
                rsa_check(&n)?;
                let key = rsa::RsaPrivateKey::from_components(
                    n,
                    BigUint::from_bytes_be(&member(&jwk.e, "e")?),
                    BigUint::from_bytes_be(&member(&jwk.d, "d")?),
                    vec![
                        BigUint::from_bytes_be(&member(&jwk.p, "p")?),
                        BigUint::from_bytes_be(&member(&jwk.q, "q")?),
                    ],
                )
                .map_err(|e| KeyError::Invalid(e.to_string()))?;
                key.validate()
                    .map_err(|e| KeyError::Invalid(e.to_string()))?;
                PrivateInner::Rsa(Box::new(key))
            }
            (kty, crv) => {
                return Err(KeyError::Unsupported(match crv {
                    Some(crv) => format!("{kty} {crv}"),
                    None => kty.to_owned(),
                }))
            }
        };
        let default = match &inner {
            PrivateInner::P256(_) => Algorithm::Es256,
            PrivateInner::P384(_) => Algorithm::Es384,
            PrivateInner::Ed25519(_) => Algorithm::EdDsa,
            PrivateInner::Rsa(_) => Algorithm::Rs256,
        };
        let named = match jwk.alg.as_deref() {
            Some(name) => Some(
                Algorithm::from_name(name)
                    .ok_or_else(|| KeyError::Unsupported(format!("the JWK's alg {name:?}")))?,
            ),
            None => None,
        };
        let alg = match (alg, named) {
            (Some(a), Some(n)) if a != n => {
                return Err(KeyError::WrongAlgorithm {
                    key: format!("{} (alg {n})", jwk.kty),
                    alg: a,
                })
            }
            (Some(a), _) | (None, Some(a)) => a,
            (None, None) => default,
        };
        let key = SigningKey { inner, alg };
        let public = key.verifying_key();
        if !public.supports(alg) {
            return Err(KeyError::WrongAlgorithm {
                key: public.kind().to_owned(),
                alg,
            });
        }
        // The public members, when given, must be this key's.
        let derived = public.to_jwk();
        let given = [
            (&jwk.x, &derived.x),
            (&jwk.y, &derived.y),
            (&jwk.n, &derived.n),
        ];
        if given
            .iter()
            .any(|(g, d)| g.is_some() && d.is_some() && g != d)
        {
            return Err(KeyError::Invalid(
                "the public members do not belong to the private key".into(),
            ));
        }
        Ok(key)
    }

    /// A fresh key for `alg` from the operating system's random source
    /// (RSA: 2048 bits, which takes a while in unoptimized builds).
    ///
    /// # Errors
    ///
    /// [`KeyError::Invalid`] if RSA key generation fails.
    pub fn generate(alg: Algorithm) -> Result<SigningKey, KeyError> {
        let mut rng = rand_core::OsRng;
        let inner = match alg {
            Algorithm::Es256 => PrivateInner::P256(p256::ecdsa::SigningKey::random(&mut rng)),
            Algorithm::Es384 => PrivateInner::P384(p384::ecdsa::SigningKey::random(&mut rng)),
            Algorithm::EdDsa => {
                PrivateInner::Ed25519(ed25519_dalek::SigningKey::generate(&mut rng))
            }
            Algorithm::Rs256 | Algorithm::Ps256 => PrivateInner::Rsa(Box::new(
                rsa::RsaPrivateKey::new(&mut rng, MIN_RSA_BITS)
                    .map_err(|e| KeyError::Invalid(e.to_string()))?,
            )),
        };
        Ok(SigningKey { inner, alg })
    }

    /// The algorithm it signs with.
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// Its public key.
    pub fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey(match &self.inner {
            PrivateInner::P256(k) => PublicInner::P256(*k.verifying_key()),
            PrivateInner::P384(k) => PublicInner::P384(*k.verifying_key()),
            PrivateInner::Ed25519(k) => PublicInner::Ed25519(k.verifying_key()),
            PrivateInner::Rsa(k) => PublicInner::Rsa(k.to_public_key()),
        })
    }

    /// The public JWK, with `alg` and `use: sig`: what goes into the JWKS.
    pub fn public_jwk(&self) -> Jwk {
        Jwk {
            alg: Some(self.alg.name().to_owned()),
            use_: Some("sig".to_owned()),
            ..self.verifying_key().to_jwk()
        }
    }

    /// The private JWK, with `alg` (keep it secret).
    pub fn private_jwk(&self) -> Jwk {
        let public = self.public_jwk();
        match &self.inner {
            PrivateInner::P256(k) => Jwk {
                d: b64(&k.to_bytes()),
                ..public
            },
            PrivateInner::P384(k) => Jwk {
                d: b64(&k.to_bytes()),
                ..public
            },
            PrivateInner::Ed25519(k) => Jwk {
                d: b64(&k.to_bytes()),
                ..public
            },
            PrivateInner::Rsa(k) => {
                let primes = k.primes();
                let (Some(p), Some(q)) = (primes.first(), primes.get(1)) else {
                    return public;
                };
                let one = BigUint::from(1u32);
                let two = BigUint::from(2u32);
                // RFC 7518 section 6.3.2: all CRT members or none. `qi` is
                // q^(p-2) mod p, the inverse of q modulo the prime p.
                let qi = q.modpow(&(p - &two), p);
                Jwk {
                    d: b64(&k.d().to_bytes_be()),
                    p: b64(&p.to_bytes_be()),
                    q: b64(&q.to_bytes_be()),
                    dp: b64(&(k.d() % (p - &one)).to_bytes_be()),
                    dq: b64(&(k.d() % (q - &one)).to_bytes_be()),
                    qi: b64(&qi.to_bytes_be()),
                    ..public
                }
            }
        }
    }
}
