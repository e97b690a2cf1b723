//! `discover_signed` and `RemoteJwks` (feature `client`) against an
//! in-memory agent that serves a signed card and its JWKS.

use std::sync::{Arc, Mutex};

use a2a_signing::{
    discover_signed, CardSigner, Jwk, JwkSet, RemoteJwks, SignaturePolicy, SignedDiscoveryError,
    SigningKey, VerifyError,
};
use a2a_transport::client::{HttpClient, HttpError, Preferences, ResponseBody};
use a2a_transport::BoxFuture;
use a2a_types::{AgentCapabilities, AgentCard, AgentInterface, AgentSkill};
use bytes::Bytes;

const BASE: &str = "https://agent.example";
const JWKS: &str = "https://agent.example/.well-known/jwks.json";

fn key() -> SigningKey {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/keys/es256.jwk.json");
    SigningKey::from_jwk(
        &Jwk::from_json(&std::fs::read(path).unwrap()).unwrap(),
        None,
    )
    .unwrap()
}

fn card() -> AgentCard {
    AgentCard {
        name: "Agent".into(),
        description: "d".into(),
        supported_interfaces: vec![AgentInterface::new(format!("{BASE}/"), "JSONRPC", "1.0")],
        version: "1".into(),
        capabilities: AgentCapabilities::default(),
        default_input_modes: vec!["text/plain".into()],
        default_output_modes: vec!["text/plain".into()],
        skills: vec![AgentSkill {
            id: "s".into(),
            name: "s".into(),
            description: "s".into(),
            tags: vec!["t".into()],
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// Serves the card and the JWKS, recording the URLs asked for.
#[derive(Clone)]
struct Agent {
    card: Bytes,
    jwks: Bytes,
    asked: Arc<Mutex<Vec<String>>>,
}

impl HttpClient for Agent {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        let uri = request.uri().to_string();
        self.asked.lock().unwrap().push(uri.clone());
        let body = if uri.ends_with("/.well-known/agent-card.json") {
            Some(self.card.clone())
        } else if uri == JWKS {
            Some(self.jwks.clone())
        } else {
            None
        };
        Box::pin(async move {
            let mut response =
                http::Response::new(ResponseBody::full(body.clone().unwrap_or_default()));
            if body.is_none() {
                *response.status_mut() = http::StatusCode::NOT_FOUND;
            }
            response.headers_mut().insert(
                http::header::CONTENT_TYPE,
                http::HeaderValue::from_static("application/json"),
            );
            Ok(response)
        })
    }
}

fn agent(card: &AgentCard) -> Agent {
    Agent {
        card: Bytes::from(a2a_types::json::to_vec(card).unwrap()),
        jwks: Bytes::from(JwkSet::new([key().public_jwk().with_kid("k1")]).to_public_json()),
        asked: Arc::default(),
    }
}

fn signed(jku: &str) -> AgentCard {
    CardSigner::new(key(), "k1")
        .with_jku(jku)
        .sign_card(card())
        .unwrap()
}

#[tokio::test]
async fn a_required_signature_verifies_with_allow_listed_jwks() {
    let a = agent(&signed(JWKS));
    let policy = SignaturePolicy::require(RemoteJwks::new([JWKS]));
    let found = discover_signed(a.clone(), BASE, &Preferences::new(), &policy)
        .await
        .unwrap();
    let v = found.verification.unwrap();
    assert_eq!(v.valid().next().unwrap().kid, "k1");
    assert_eq!(found.discovered.card.name, "Agent");
    assert!(a.asked.lock().unwrap().contains(&JWKS.to_owned()));
}

#[tokio::test]
async fn a_jku_off_the_allow_list_is_never_fetched() {
    let evil = "https://evil.example/jwks.json";
    let a = agent(&signed(evil));
    let policy = SignaturePolicy::require(RemoteJwks::new([JWKS]));
    // The allow-listed document is consulted instead, and it has the key.
    let found = discover_signed(a.clone(), BASE, &Preferences::new(), &policy)
        .await
        .unwrap();
    assert!(found.verification.is_ok());
    assert!(!a.asked.lock().unwrap().iter().any(|u| u == evil));
    // With no allow-list, nothing is fetched and nothing verifies.
    let none = SignaturePolicy::require(RemoteJwks::new(Vec::<String>::new()));
    let err = discover_signed(a.clone(), BASE, &Preferences::new(), &none)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            SignedDiscoveryError::Signature(VerifyError::Rejected(_))
        ),
        "{err}"
    );
}

#[tokio::test]
async fn unsigned_cards_fail_when_required_and_are_reported_otherwise() {
    let a = agent(&card());
    let keys = JwkSet::new([key().public_jwk().with_kid("k1")]);
    let err = discover_signed(
        a.clone(),
        BASE,
        &Preferences::new(),
        &SignaturePolicy::require(keys.clone()),
    )
    .await
    .unwrap_err();
    assert!(matches!(
        err,
        SignedDiscoveryError::Signature(VerifyError::NoSignature)
    ));
    let found = discover_signed(a, BASE, &Preferences::new(), &SignaturePolicy::report(keys))
        .await
        .unwrap();
    assert_eq!(found.verification, Err(VerifyError::NoSignature));
}

#[tokio::test]
async fn a_tampered_card_is_refused() {
    let mut a = agent(&signed(JWKS));
    let text = String::from_utf8(a.card.to_vec())
        .unwrap()
        .replace("\"d\"", "\"e\"");
    a.card = Bytes::from(text);
    let policy = SignaturePolicy::require(RemoteJwks::new([JWKS]));
    let err = discover_signed(a, BASE, &Preferences::new(), &policy)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("changed after signing"), "{err}");
}
