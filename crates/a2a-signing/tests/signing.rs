//! Signing and verification (spec 8.4.2, 8.4.3) with the checked-in test
//! keys (`keys/*.jwk.json`, made for these tests only).

use std::path::Path;

use a2a_signing::{
    canonicalize, Algorithm, CardSigner, Jwk, JwkSet, PayloadForm, Policy, Require, SignatureError,
    SigningKey, Verifier, VerifyError,
};
use a2a_types::{AgentCapabilities, AgentCard, AgentCardSignature, AgentInterface, AgentSkill};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

fn jwk(name: &str) -> Jwk {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/keys/{name}.jwk.json"));
    Jwk::from_json(&std::fs::read(path).unwrap()).unwrap()
}

fn key(name: &str) -> SigningKey {
    SigningKey::from_jwk(&jwk(name), None).unwrap()
}

fn card() -> AgentCard {
    AgentCard {
        name: "Signed agent".into(),
        description: "Signs its card; caf\u{e9} \u{1f600}".into(),
        supported_interfaces: vec![AgentInterface::new("https://a.example/", "JSONRPC", "1.0")],
        version: "1.0.0".into(),
        capabilities: AgentCapabilities {
            streaming: Some(false),
            ..Default::default()
        },
        default_input_modes: vec!["text/plain".into()],
        default_output_modes: vec!["text/plain".into()],
        skills: vec![AgentSkill {
            id: "s".into(),
            name: "S".into(),
            description: "d".into(),
            tags: vec!["t".into()],
            ..Default::default()
        }],
        ..Default::default()
    }
}

fn trusted(names: &[&str]) -> JwkSet {
    JwkSet::new(names.iter().map(|n| jwk(n).public()))
}

fn verifier(names: &[&str]) -> Verifier<JwkSet> {
    Verifier::new(trusted(names), Policy::default())
}

fn sign(name: &str) -> AgentCard {
    let jwk = jwk(name);
    CardSigner::new(key(name), jwk.kid.clone().unwrap())
        .sign_card(card())
        .unwrap()
}

fn json(card: &AgentCard) -> Vec<u8> {
    a2a_types::json::to_vec(card).unwrap()
}

fn only_error(e: VerifyError) -> SignatureError {
    match e {
        VerifyError::Rejected(v) => v.signatures[0].outcome.clone().unwrap_err(),
        other => panic!("{other:?}"),
    }
}

const ALL: [&str; 5] = ["es256", "es384", "eddsa", "rs256", "ps256"];

#[test]
fn every_algorithm_signs_and_verifies() {
    for name in ALL {
        let signed = sign(name);
        let header = a2a_signing::ProtectedHeader::decode(&signed.signatures[0].protected).unwrap();
        assert_eq!(header.typ.as_deref(), Some("JOSE"), "{name}");
        assert_eq!(header.kid, format!("test-{name}"));
        let v = verifier(&ALL).verify_json(&json(&signed)).unwrap();
        assert_eq!(v.signatures[0].outcome, Ok(PayloadForm::Received), "{name}");
        assert_eq!(
            v.signatures[0].alg,
            Algorithm::from_name(&header.alg).unwrap().name()
        );
        assert!(verifier(&ALL).verify_card(&signed).is_ok(), "{name}");
    }
}

#[test]
fn the_protected_header_is_the_spec_example_shape() {
    let signer =
        CardSigner::new(key("es256"), "key-1").with_jku("https://example.com/agent/jwks.json");
    let s = signer.sign(&card()).unwrap();
    let header = URL_SAFE_NO_PAD.decode(&s.protected).unwrap();
    assert_eq!(
        String::from_utf8(header).unwrap(),
        r#"{"alg":"ES256","typ":"JOSE","kid":"key-1","jku":"https://example.com/agent/jwks.json"}"#
    );
    // ES256 signatures are r || s, 64 bytes.
    assert_eq!(URL_SAFE_NO_PAD.decode(&s.signature).unwrap().len(), 64);
}

#[test]
fn a_changed_card_fails() {
    let signed = sign("es256");
    let tampered = String::from_utf8(json(&signed))
        .unwrap()
        .replace("Signed agent", "Other agent");
    let err = verifier(&ALL).verify_json(tampered.as_bytes()).unwrap_err();
    assert_eq!(
        only_error(err),
        SignatureError::CardChanged {
            kid: "test-es256".into()
        }
    );
}

#[test]
fn distinct_errors() {
    let signed = sign("es256");
    let v = verifier(&ALL);
    // No signature.
    assert_eq!(v.verify_card(&card()), Err(VerifyError::NoSignature));
    // Unknown key.
    assert_eq!(
        only_error(
            verifier(&["es384"])
                .verify_json(&json(&signed))
                .unwrap_err()
        ),
        SignatureError::UnknownKey("test-es256".into())
    );
    // Malformed header and signature encodings.
    let with = |f: &dyn Fn(&mut AgentCardSignature)| {
        let mut c = signed.clone();
        f(&mut c.signatures[0]);
        only_error(v.verify_json(&json(&c)).unwrap_err())
    };
    assert!(matches!(
        with(&|s| s.protected = "!!".into()),
        SignatureError::MalformedHeader(_)
    ));
    assert!(matches!(
        with(&|s| s.protected = URL_SAFE_NO_PAD.encode(r#"{"alg":"ES256"}"#)),
        SignatureError::MalformedHeader(m) if m.contains("kid")
    ));
    assert!(matches!(
        with(&|s| s.protected = URL_SAFE_NO_PAD.encode(r#"{"alg":"ES256","kid":"a","kid":"b"}"#)),
        SignatureError::MalformedHeader(m) if m.contains("twice")
    ));
    assert!(matches!(
        with(&|s| s.protected = URL_SAFE_NO_PAD.encode(r#"{"alg":"ES256","kid":"test-es256","crit":["x"]}"#)),
        SignatureError::MalformedHeader(m) if m.contains("crit")
    ));
    assert!(matches!(
        with(&|s| s.signature.push('=')),
        SignatureError::MalformedSignature(_)
    ));
    // A signature that cannot be ES256 at all (wrong length).
    assert!(matches!(
        with(&|s| s.signature = URL_SAFE_NO_PAD.encode([1u8; 63])),
        SignatureError::SignatureMismatch { .. }
    ));
    // A well-formed signature over something else.
    assert!(matches!(
        with(&|s| s.signature = URL_SAFE_NO_PAD.encode([1u8; 64])),
        SignatureError::CardChanged { .. }
    ));
    // The unprotected header may not repeat protected members.
    assert!(matches!(
        with(&|s| {
            let mut h = a2a_types::Struct::new();
            h.insert("kid".into(), "x".into());
            s.header = Some(h);
        }),
        SignatureError::MalformedHeader(m) if m.contains("7.2.1")
    ));
}

#[test]
fn none_hmac_and_algorithm_confusion_are_refused() {
    let signed = sign("es256");
    let payload = a2a_signing::card_payload(&card()).unwrap();
    for alg in ["none", "HS256", "HS512", "ES512", "es256"] {
        let protected = URL_SAFE_NO_PAD.encode(format!(
            r#"{{"alg":"{alg}","typ":"JOSE","kid":"test-es256"}}"#
        ));
        let mut c = signed.clone();
        c.signatures[0] = AgentCardSignature {
            protected,
            signature: if alg == "none" {
                String::new()
            } else {
                URL_SAFE_NO_PAD.encode(&payload)
            },
            header: None,
        };
        assert_eq!(
            only_error(verifier(&ALL).verify_json(&json(&c)).unwrap_err()),
            SignatureError::UnsupportedAlgorithm(alg.into()),
            "{alg}"
        );
    }
    // An RS256 signature checked against the EC key under the same kid.
    let rsa = CardSigner::new(key("rs256"), "test-es256")
        .sign(&card())
        .unwrap();
    let mut c = card();
    c.signatures.push(rsa);
    assert!(matches!(
        only_error(verifier(&ALL).verify_json(&json(&c)).unwrap_err()),
        SignatureError::KeyMismatch { .. }
    ));
    // A key whose JWK names another algorithm.
    let mut keys = trusted(&["rs256"]);
    keys.keys[0].kid = Some("test-ps256".into());
    let ps = sign("ps256");
    assert!(matches!(
        only_error(
            Verifier::new(keys, Policy::default())
                .verify_json(&json(&ps))
                .unwrap_err()
        ),
        SignatureError::KeyMismatch { .. }
    ));
    // An algorithm the policy does not allow.
    let es256_only = Verifier::new(
        trusted(&ALL),
        Policy::default().with_algorithms([Algorithm::Es256]),
    );
    assert_eq!(
        only_error(es256_only.verify_json(&json(&sign("eddsa"))).unwrap_err()),
        SignatureError::AlgorithmNotAllowed(Algorithm::EdDsa)
    );
}

#[test]
fn signatures_included_is_diagnosed() {
    // A signer that left `"signatures": []` in the payload (spec 8.4.1 rule 3).
    let mut value: serde_json::Value = serde_json::from_slice(&json(&card())).unwrap();
    value["signatures"] = serde_json::json!([]);
    let payload = canonicalize(&serde_json::to_vec(&value).unwrap()).unwrap();
    let s = CardSigner::new(key("es256"), "test-es256")
        .sign_payload(&payload)
        .unwrap();
    let mut c = card();
    c.signatures.push(s);
    assert_eq!(
        only_error(verifier(&ALL).verify_json(&json(&c)).unwrap_err()),
        SignatureError::SignaturesIncluded {
            kid: "test-es256".into()
        }
    );
}

#[test]
fn several_signatures_under_the_policy() {
    let mut c = sign("es256");
    let bad = CardSigner::new(key("eddsa"), "test-eddsa")
        .sign(&AgentCard::default())
        .unwrap();
    c.signatures.push(bad);
    let any = verifier(&ALL).verify_json(&json(&c)).unwrap();
    assert_eq!(any.valid().count(), 1);
    assert!(
        any.summary().contains("ES256 kid=test-es256 valid"),
        "{}",
        any.summary()
    );
    let all = Verifier::new(trusted(&ALL), Policy::default().with_require(Require::All));
    let err = all.verify_json(&json(&c)).unwrap_err();
    assert_eq!(err.verification().unwrap().valid().count(), 1);
    // Key rotation: two valid signatures.
    let mut rotated = sign("es256");
    rotated.signatures.push(
        CardSigner::new(key("es384"), "test-es384")
            .sign(&card())
            .unwrap(),
    );
    assert_eq!(all.verify_json(&json(&rotated)).unwrap().valid().count(), 2);
    // More than the policy looks at.
    let mut many = sign("es256");
    many.signatures = vec![many.signatures[0].clone(); 17];
    assert_eq!(
        verifier(&ALL).verify_card(&many),
        Err(VerifyError::TooManySignatures(17))
    );
}

#[test]
fn unknown_members_are_covered_by_the_received_form() {
    // A newer signer's card with a member this crate does not know.
    let mut value: serde_json::Value = serde_json::from_slice(&json(&card())).unwrap();
    value["futureField"] = serde_json::json!({"x": 1});
    let payload = canonicalize(&serde_json::to_vec(&value).unwrap()).unwrap();
    let s = CardSigner::new(key("es256"), "test-es256")
        .sign_payload(&payload)
        .unwrap();
    value["signatures"] = serde_json::to_value(vec![s]).unwrap();
    let text = serde_json::to_vec(&value).unwrap();
    let v = verifier(&ALL).verify_json(&text).unwrap();
    assert_eq!(v.signatures[0].outcome, Ok(PayloadForm::Received));
    // The typed card lost the member, so its re-encoding does not verify.
    let typed: AgentCard = a2a_types::from_slice(&text).unwrap();
    assert!(verifier(&ALL).verify_card(&typed).is_err());
    // Changing the unknown member is caught.
    let changed = String::from_utf8(text)
        .unwrap()
        .replace("\"x\":1", "\"x\":2");
    assert!(verifier(&ALL).verify_json(changed.as_bytes()).is_err());
}

#[test]
fn the_typed_form_covers_a_card_served_with_defaults_written() {
    // A server that writes `"tenant": ""` (a default the signer omitted).
    let signed = sign("es256");
    let text = String::from_utf8(json(&signed))
        .unwrap()
        .replace("\"protocolBinding\"", "\"tenant\":\"\",\"protocolBinding\"");
    let v = verifier(&ALL).verify_json(text.as_bytes()).unwrap();
    assert_eq!(v.signatures[0].outcome, Ok(PayloadForm::Typed));
    let strict = Verifier::new(trusted(&ALL), Policy::default().with_typed_form(false));
    assert!(strict.verify_json(text.as_bytes()).is_err());
}

#[test]
fn jwk_round_trips_and_refusals() {
    for name in ALL {
        let k = key(name);
        let private = k.private_jwk();
        let again = SigningKey::from_jwk(&private, None).unwrap();
        assert_eq!(again.public_jwk(), k.public_jwk(), "{name}");
        assert!(k.public_jwk().d.is_none());
        assert!(!format!("{:?}", jwk(name)).contains(jwk(name).d.as_deref().unwrap()));
    }
    for alg in [Algorithm::Es256, Algorithm::Es384, Algorithm::EdDsa] {
        let k = SigningKey::generate(alg).unwrap();
        let c = CardSigner::new(k.clone(), "g").sign_card(card()).unwrap();
        let keys = JwkSet::new([k.public_jwk().with_kid("g")]);
        assert!(Verifier::new(keys, Policy::default())
            .verify_card(&c)
            .is_ok());
    }
    // Public keys cannot sign; symmetric keys are not keys here.
    assert!(SigningKey::from_jwk(&jwk("es256").public(), None).is_err());
    let oct = Jwk::from_json(br#"{"kty":"oct","k":"c2VjcmV0","d":"x"}"#).unwrap();
    assert!(SigningKey::from_jwk(&oct, None).is_err());
    assert!(a2a_signing::VerifyingKey::from_jwk(&oct).is_err());
    // A key refuses an algorithm its JWK does not name.
    assert!(SigningKey::from_jwk(&jwk("rs256"), Some(Algorithm::Ps256)).is_err());
    // A point off the curve.
    let mut off = jwk("es256").public();
    off.y = off.x.clone();
    assert!(a2a_signing::VerifyingKey::from_jwk(&off).is_err());
    // JWKS documents: published without private members, bounded.
    let published = JwkSet::new([jwk("es256"), jwk("rs256")]).to_public_json();
    assert!(!published.contains("\"d\""));
    assert_eq!(
        JwkSet::from_json(published.as_bytes()).unwrap().keys.len(),
        2
    );
    let many = format!(r#"{{"keys":[{}]}}"#, vec![r#"{"kty":"EC"}"#; 65].join(","));
    assert!(JwkSet::from_json(many.as_bytes()).is_err());
}

#[test]
fn verification_errors_map_to_invalid_agent_response() {
    let e: a2a_types::A2aError = VerifyError::NoSignature.into();
    assert_eq!(e.kind(), a2a_types::ErrorKind::InvalidAgentResponse);
}

#[test]
fn bad_card_json_is_refused_not_panicked_on() {
    let v = verifier(&ALL);
    for input in [
        &b""[..],
        b"[]",
        b"{\"name\":1}",
        b"{\"a\":1,\"a\":2}",
        b"nul",
    ] {
        assert!(v.verify_json(input).is_err());
    }
}
