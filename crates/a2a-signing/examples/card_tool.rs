//! Signs and verifies agent card files: the a2a-core side of the signing
//! interop matrix (`interop/run.sh --mode signing`), with the same interface
//! as `interop/python/signing.py` and `interop/node/signing.mjs`.
//!
//! ```text
//! card_tool sign   --key PRIVATE.jwk.json --card CARD.json   (signed card on stdout)
//! card_tool verify --key PUBLIC.jwk.json  --card SIGNED.json (exit 0 when it verifies)
//! ```
//!
//! The key's `kid` names it and its `alg` is the algorithm.

use std::process::ExitCode;

use a2a_signing::{CardSigner, Jwk, JwkSet, Policy, SigningKey, Verifier};

fn run(args: &[String]) -> Result<String, String> {
    let (mut key, mut card) = (None, None);
    let mut rest = args.iter().skip(1);
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--key" => key = Some(value.clone()),
            "--card" => card = Some(value.clone()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let key = key.ok_or("--key is required")?;
    let card = card.ok_or("--card is required")?;
    let jwk = Jwk::from_json(&std::fs::read(&key).map_err(|e| format!("{key}: {e}"))?)
        .map_err(|e| e.to_string())?;
    let card_json = std::fs::read(&card).map_err(|e| format!("{card}: {e}"))?;
    match args.first().map(String::as_str) {
        Some("sign") => {
            let signing = SigningKey::from_jwk(&jwk, None).map_err(|e| e.to_string())?;
            let kid = jwk.kid.clone().ok_or("the key has no kid")?;
            let parsed: a2a_types::AgentCard =
                a2a_types::from_slice(&card_json).map_err(|e| e.to_string())?;
            let signed = CardSigner::new(signing, kid)
                .sign_card(parsed)
                .map_err(|e| e.to_string())?;
            let out = a2a_types::json::to_vec(&signed).map_err(|e| e.to_string())?;
            String::from_utf8(out).map_err(|e| e.to_string())
        }
        Some("verify") => {
            let verifier = Verifier::new(JwkSet::new([jwk.public()]), Policy::default());
            let v = verifier
                .verify_json(&card_json)
                .map_err(|e| e.to_string())?;
            Ok(v.summary())
        }
        _ => Err("usage: card_tool sign|verify --key FILE --card FILE".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("card_tool: {e}");
            ExitCode::FAILURE
        }
    }
}
