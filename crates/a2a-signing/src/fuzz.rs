//! Fuzz harnesses (feature `testing`): the verifier's input, card JSON and
//! signature fields, must never panic, and canonicalization must be
//! idempotent.

use crate::{canonicalize, Jwk, JwkSet, Policy, Verifier};

/// The ES256 public key the harness trusts (`tests/keys/es256.jwk.json`).
const TRUSTED: &str = r#"{"kty":"EC","crv":"P-256","kid":"test-es256","x":"7IiJROdD_tdUg1CwFamrai16qivFmjdB3vfBW2_gOHE","y":"r-mRbw6TR23N3fKY8Q-WP1uU7Mbhb_K4lVF6rUb437I"}"#;

/// Verifies `data` as a card's JSON, and checks that whatever
/// canonicalizes, canonicalizes to a fixed point.
pub fn verify_card_json(data: &[u8]) {
    if let Ok(canonical) = canonicalize(data) {
        assert_eq!(
            canonicalize(&canonical).as_ref(),
            Ok(&canonical),
            "canonicalization is not idempotent"
        );
    }
    let Ok(key) = Jwk::from_json(TRUSTED.as_bytes()) else {
        return;
    };
    let verifier = Verifier::new(JwkSet::new([key]), Policy::default());
    let _ = verifier.verify_json(data);
}
