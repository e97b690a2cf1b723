//! Agent card signatures (a2a-cli spec §10.1, A2A §8.4.3): verified over
//! the card's JSON as received, with the keys of `--jwks FILE` or of the
//! JWKS a signature's `jku` names on the card's own origin. The outcome
//! is one of `verified`, `unverifiable` (no trusted key, or the keys could
//! not be fetched), `invalid` (a signature that does not verify) or
//! `absent` (the card is not signed, which is not a failure: signing is
//! optional). An unverified card is never reported as verified.

use a2a_signing::{JwkSet, Policy, ProtectedHeader, Verifier};

use crate::agent::{Card, CardFrom};
use crate::run::Run;

/// The outcome, for the `Signature:` field.
pub(crate) async fn verify(run: &Run, card: &Card, jwks: Option<&str>) -> String {
    if card.card.signatures.is_empty() {
        return "absent".to_owned();
    }
    let keys = match jwks {
        Some(path) => match std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| JwkSet::from_json(&b).map_err(|e| e.to_string()))
        {
            Ok(k) => k,
            Err(e) => return format!("unverifiable (--jwks {path}: {e})"),
        },
        None => match same_origin_keys(run, card).await {
            Ok(k) => k,
            Err(why) => return format!("unverifiable ({why})"),
        },
    };
    let verifier = Verifier::new(keys, Policy::default());
    match verifier.verify_json(&card.json) {
        Ok(v) => format!("verified ({})", v.summary()),
        Err(e) => match e.verification() {
            Some(v)
                if v.signatures.iter().all(|s| {
                    matches!(s.outcome, Err(a2a_signing::SignatureError::UnknownKey(_)))
                }) =>
            {
                format!("unverifiable (no trusted key: {})", v.summary())
            }
            _ => format!("invalid ({e})"),
        },
    }
}

/// The keys of each signature's `jku` that is on the card's own origin
/// (a `jku` elsewhere is only a hint and is not fetched).
async fn same_origin_keys(run: &Run, card: &Card) -> Result<JwkSet, String> {
    let CardFrom::Url(url) = &card.from else {
        return Err("a card read from a file needs --jwks FILE".to_owned());
    };
    let origin = card.from.origin(&card.card);
    let mut keys = JwkSet::new([]);
    let mut fetched = 0;
    for s in &card.card.signatures {
        let Some(jku) = ProtectedHeader::decode(&s.protected)
            .ok()
            .and_then(|h| h.jku)
        else {
            continue;
        };
        if !jku.starts_with(&format!("{origin}/")) {
            run.debug(&format!(
                "signature jku {jku} is not on the card's origin {origin}; not fetched"
            ));
            continue;
        }
        match a2a_signing::fetch_jwks(&run.wire, &jku).await {
            Ok(k) => {
                keys.extend(k);
                fetched += 1;
            }
            Err(e) => return Err(format!("fetching {jku}: {}", e.message())),
        }
    }
    if fetched == 0 {
        return Err(format!(
            "no signature names a JWKS on {origin} ({url}); pass --jwks FILE"
        ));
    }
    Ok(keys)
}
