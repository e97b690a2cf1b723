//! Verification by the verifier's policy (spec 8.4.3).

use std::sync::Arc;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use a2a_types::{A2aError, AgentCard, AgentCardSignature, DecodeError, ErrorKind};

use crate::jcs::{JcsError, Node, MAX_INPUT_BYTES};
use crate::jwk::{Algorithm, Jwk, JwkSet, VerifyingKey};
use crate::jws::{
    card_payload, signing_input, verify_bytes, Checked, ProtectedHeader, SignatureError,
    MAX_SIGNATURE_LEN,
};

/// Where the verifier's trusted keys come from (spec 8.4.3 step 2: "from a
/// trusted key store"). The signature's `jku` is passed along so that a
/// resolver *may* use it, but nothing here fetches or trusts it by itself.
pub trait KeyResolver: Send + Sync {
    /// The trusted key for a signature's protected header, found by its
    /// `kid`, or `None`.
    fn resolve(&self, header: &ProtectedHeader) -> Option<Jwk>;
}

impl KeyResolver for JwkSet {
    fn resolve(&self, header: &ProtectedHeader) -> Option<Jwk> {
        self.find(&header.kid).cloned()
    }
}

impl<R: KeyResolver + ?Sized> KeyResolver for Arc<R> {
    fn resolve(&self, header: &ProtectedHeader) -> Option<Jwk> {
        (**self).resolve(header)
    }
}

impl<R: KeyResolver + ?Sized> KeyResolver for &R {
    fn resolve(&self, header: &ProtectedHeader) -> Option<Jwk> {
        (**self).resolve(header)
    }
}

/// How many of a card's signatures must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Require {
    /// At least one (spec 8.4.3: "SHOULD verify at least one"; several
    /// signatures support key rotation). The default.
    #[default]
    Any,
    /// Every signature on the card.
    All,
}

/// The verifier's policy (spec 8.4.3).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Policy {
    /// Algorithms accepted. Default: all of [`Algorithm::ALL`].
    pub algorithms: Vec<Algorithm>,
    /// How many signatures must hold. Default: [`Require::Any`].
    pub require: Require,
    /// Whether a signature over the *typed* re-encoding of a received card
    /// ([`card_payload`]) counts when the one over the received JSON does
    /// not: it covers only the fields this crate knows. Default: true; the
    /// result says which form held ([`PayloadForm`]).
    pub accept_typed_form: bool,
    /// Most signatures looked at on one card: 16. A card with more is
    /// refused ([`VerifyError::TooManySignatures`]).
    pub max_signatures: usize,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            algorithms: Algorithm::ALL.to_vec(),
            require: Require::Any,
            accept_typed_form: true,
            max_signatures: 16,
        }
    }
}

impl Policy {
    /// The same policy accepting only `algorithms`.
    pub fn with_algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Policy {
        self.algorithms = algorithms.into_iter().collect();
        self
    }

    /// The same policy requiring `require`.
    pub fn with_require(mut self, require: Require) -> Policy {
        self.require = require;
        self
    }

    /// The same policy accepting the typed form or not.
    pub fn with_typed_form(mut self, accept: bool) -> Policy {
        self.accept_typed_form = accept;
        self
    }
}

/// Which payload a valid signature covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PayloadForm {
    /// The card as received, without `signatures`: every member, known or
    /// not.
    Received,
    /// The card as this crate re-encodes it (spec 8.4.1 presence rules):
    /// members this crate does not know are not covered.
    Typed,
}

/// One signature's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SignatureReport {
    /// Its position in `signatures`.
    pub index: usize,
    /// `alg` as written (empty when the header did not decode).
    pub alg: String,
    /// `kid` as written (empty when the header did not decode).
    pub kid: String,
    /// `jku` as written.
    pub jku: Option<String>,
    /// The form it verified over, or why it does not hold.
    pub outcome: Result<PayloadForm, SignatureError>,
}

impl SignatureReport {
    /// Whether the signature holds.
    pub fn is_valid(&self) -> bool {
        self.outcome.is_ok()
    }
}

/// What verification found: one report per signature, in card order.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Verification {
    /// The reports.
    pub signatures: Vec<SignatureReport>,
}

impl Verification {
    /// The signatures that hold.
    pub fn valid(&self) -> impl Iterator<Item = &SignatureReport> + '_ {
        self.signatures.iter().filter(|s| s.is_valid())
    }

    /// The first failure, if any.
    pub fn first_failure(&self) -> Option<&SignatureError> {
        self.signatures
            .iter()
            .find_map(|s| s.outcome.as_ref().err())
    }

    /// One line: `ES256 kid=key-1 valid (received form); RS256 kid=old: ...`.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self
            .signatures
            .iter()
            .map(|s| match &s.outcome {
                Ok(form) => format!(
                    "{} kid={} valid ({} form)",
                    s.alg,
                    s.kid,
                    match form {
                        PayloadForm::Received => "received",
                        PayloadForm::Typed => "typed",
                    }
                ),
                Err(e) => format!("{} kid={}: {e}", s.alg, s.kid),
            })
            .collect();
        parts.join("; ")
    }
}

/// Why a card is not verified.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The card has no signatures.
    #[error("the card has no signature")]
    NoSignature,
    /// More signatures than [`Policy::max_signatures`].
    #[error("the card has {0} signatures, more than the policy looks at")]
    TooManySignatures(usize),
    /// The card JSON has no canonical form (not JSON, a duplicate member,
    /// too large or deep).
    #[error("the card has no canonical form: {0}")]
    Card(JcsError),
    /// The card JSON is not an `AgentCard` (its `signatures` cannot be
    /// read).
    #[error("the card does not decode: {0}")]
    Decode(DecodeError),
    /// Not enough signatures hold for the policy; each one's report says
    /// why.
    #[error("the card's signatures do not satisfy the policy: {}", .0.summary())]
    Rejected(Verification),
}

impl VerifyError {
    /// The per-signature reports, when there are any.
    pub fn verification(&self) -> Option<&Verification> {
        match self {
            VerifyError::Rejected(v) => Some(v),
            _ => None,
        }
    }
}

/// A card that fails verification is an agent answer the client cannot
/// accept: `InvalidAgentResponseError` (spec 3.3.2), with the reason.
impl From<VerifyError> for A2aError {
    fn from(e: VerifyError) -> A2aError {
        A2aError::new(
            ErrorKind::InvalidAgentResponse,
            format!("agent card signature verification failed: {e}"),
        )
    }
}

/// Verifies card signatures with the keys of a [`KeyResolver`] under a
/// [`Policy`] (spec 8.4.3).
#[derive(Debug, Clone)]
pub struct Verifier<R> {
    resolver: R,
    policy: Policy,
}

impl<R: KeyResolver> Verifier<R> {
    /// A verifier trusting the keys `resolver` gives.
    pub fn new(resolver: R, policy: Policy) -> Verifier<R> {
        Verifier { resolver, policy }
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Verifies a card as received (its JSON, at most
    /// [`MAX_INPUT_BYTES`]): each signature over the received object without
    /// `signatures` (so members this crate does not know, from a newer
    /// spec, are covered), and, when the policy accepts it, over the typed
    /// re-encoding.
    ///
    /// # Errors
    ///
    /// [`VerifyError`]: no signature, too many, a card without canonical
    /// form or that does not decode, or signatures that do not satisfy the
    /// policy (each with its [`SignatureError`]).
    pub fn verify_json(&self, card_json: &[u8]) -> Result<Verification, VerifyError> {
        let node = Node::parse(card_json, MAX_INPUT_BYTES).map_err(VerifyError::Card)?;
        if node.members().is_none() {
            return Err(VerifyError::Card(JcsError::Syntax(
                "the card is not a JSON object".into(),
            )));
        }
        let card: AgentCard = a2a_types::from_slice(card_json).map_err(VerifyError::Decode)?;
        self.check_count(&card)?;
        let received = node
            .canonical_without("signatures")
            .map_err(VerifyError::Card)?;
        let typed = match self.policy.accept_typed_form {
            true => card_payload(&card).ok().filter(|t| *t != received),
            false => None,
        };
        let mut forms = vec![(PayloadForm::Received, received)];
        if let Some(typed) = typed {
            forms.push((PayloadForm::Typed, typed));
        }
        self.judge(&card.signatures, &forms, Some(&node))
    }

    /// Verifies a typed card (one obtained without its JSON): each
    /// signature over [`card_payload`]. Members the card's JSON may have had
    /// beyond this crate's types are not covered.
    ///
    /// # Errors
    ///
    /// As [`verify_json`](Self::verify_json).
    pub fn verify_card(&self, card: &AgentCard) -> Result<Verification, VerifyError> {
        self.check_count(card)?;
        let payload = card_payload(card).map_err(VerifyError::Card)?;
        let whole = a2a_types::json::to_vec(card)
            .ok()
            .and_then(|j| Node::parse(&j, usize::MAX).ok());
        self.judge(
            &card.signatures,
            &[(PayloadForm::Typed, payload)],
            whole.as_ref(),
        )
    }

    fn check_count(&self, card: &AgentCard) -> Result<(), VerifyError> {
        match card.signatures.len() {
            0 => Err(VerifyError::NoSignature),
            n if n > self.policy.max_signatures => Err(VerifyError::TooManySignatures(n)),
            _ => Ok(()),
        }
    }

    fn judge(
        &self,
        signatures: &[AgentCardSignature],
        forms: &[(PayloadForm, Vec<u8>)],
        whole: Option<&Node>,
    ) -> Result<Verification, VerifyError> {
        let reports: Vec<SignatureReport> = signatures
            .iter()
            .enumerate()
            .map(|(index, s)| self.check(index, s, forms, whole))
            .collect();
        let verification = Verification {
            signatures: reports,
        };
        let valid = verification.valid().count();
        let ok = match self.policy.require {
            Require::Any => valid > 0,
            Require::All => valid == verification.signatures.len(),
        };
        match ok {
            true => Ok(verification),
            false => Err(VerifyError::Rejected(verification)),
        }
    }

    fn check(
        &self,
        index: usize,
        s: &AgentCardSignature,
        forms: &[(PayloadForm, Vec<u8>)],
        whole: Option<&Node>,
    ) -> SignatureReport {
        let mut report = SignatureReport {
            index,
            alg: String::new(),
            kid: String::new(),
            jku: None,
            outcome: Err(SignatureError::MalformedHeader(String::new())),
        };
        let header = match ProtectedHeader::decode(&s.protected) {
            Ok(h) => h,
            Err(e) => {
                report.outcome = Err(e);
                return report;
            }
        };
        report.alg.clone_from(&header.alg);
        report.kid.clone_from(&header.kid);
        report.jku.clone_from(&header.jku);
        report.outcome = self.check_header(index, &header, s, forms, whole);
        report
    }

    fn check_header(
        &self,
        index: usize,
        header: &ProtectedHeader,
        s: &AgentCardSignature,
        forms: &[(PayloadForm, Vec<u8>)],
        whole: Option<&Node>,
    ) -> Result<PayloadForm, SignatureError> {
        let kid = || header.kid.clone();
        let alg = Algorithm::from_name(&header.alg)
            .ok_or_else(|| SignatureError::UnsupportedAlgorithm(header.alg.clone()))?;
        if !self.policy.algorithms.contains(&alg) {
            return Err(SignatureError::AlgorithmNotAllowed(alg));
        }
        if let Some(unprotected) = &s.header {
            if let Some(name) = header.names.iter().find(|n| unprotected.contains_key(*n)) {
                return Err(SignatureError::MalformedHeader(format!(
                    "{name:?} is in both the protected and the unprotected header (RFC 7515 section 7.2.1)"
                )));
            }
        }
        if s.signature.len() > MAX_SIGNATURE_LEN {
            return Err(SignatureError::MalformedSignature(format!(
                "{} characters, over the limit of {MAX_SIGNATURE_LEN}",
                s.signature.len()
            )));
        }
        let sig = URL_SAFE_NO_PAD.decode(&s.signature).map_err(|_| {
            SignatureError::MalformedSignature("not base64url without padding".into())
        })?;
        let jwk = self
            .resolver
            .resolve(header)
            .ok_or_else(|| SignatureError::UnknownKey(kid()))?;
        let mismatch = |why: String| SignatureError::KeyMismatch { kid: kid(), why };
        let key = VerifyingKey::for_algorithm(&jwk, alg, "the signature").map_err(mismatch)?;
        for (form, payload) in forms {
            match verify_bytes(&key, alg, &signing_input(&s.protected, payload), &sig) {
                Checked::Valid => return Ok(*form),
                Checked::Invalid => {}
                Checked::Impossible(why) => {
                    return Err(SignatureError::SignatureMismatch { kid: kid(), why })
                }
            }
        }
        if let Some(included) = whole.and_then(|w| with_earlier_signatures(w, index)) {
            if let Checked::Valid =
                verify_bytes(&key, alg, &signing_input(&s.protected, &included), &sig)
            {
                return Err(SignatureError::SignaturesIncluded { kid: kid() });
            }
        }
        Err(SignatureError::CardChanged { kid: kid() })
    }
}

/// The diagnosis of spec 8.4.1 rule 3 broken: the canonical card with its
/// `signatures` member holding the signatures before `index` (an empty
/// array for the first), which is what a signer that did not exclude the
/// member signed.
fn with_earlier_signatures(card: &Node, index: usize) -> Option<Vec<u8>> {
    let earlier = match card.member("signatures") {
        Some(Node::Array(items)) => items.iter().take(index).cloned().collect(),
        _ => Vec::new(),
    };
    let mut members: Vec<(String, Node)> = card
        .members()?
        .iter()
        .filter(|(k, _)| k != "signatures")
        .cloned()
        .collect();
    members.push(("signatures".to_owned(), Node::Array(earlier)));
    Node::Object(members).canonical().ok()
}
