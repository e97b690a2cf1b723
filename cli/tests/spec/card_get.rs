//! `CARD_GET`: resolving and presenting the Agent Card (a2a-cli spec §10.1).

use crate::common::*;

/// The card resolves from an origin, a bare host, a full card URL, a
/// plain path and a `file://` path, and selects a transport from it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_card_get_001() {
    let url = agent(&[]).await;
    let host = url.trim_start_matches("http://").to_owned();
    let file = card_file(&url, |_| {}).await;
    let file_url = format!("file://{}", file.display());
    let full = format!("{url}/.well-known/agent-card.json");
    for reference in [
        url.as_str(),
        host.as_str(),
        full.as_str(),
        file.to_str().unwrap(),
        file_url.as_str(),
    ] {
        let text = cli().ok(&["card", "get", "-a", reference]).await;
        assert_eq!(
            field(&text, "Name"),
            Some("A2A reference agent"),
            "{reference}: {text}"
        );
        assert_eq!(fields(&text, "Interface").len(), 3, "{text}");
        assert!(
            field(&text, "Selected-Transport")
                .unwrap()
                .starts_with("JSONRPC 1.0 "),
            "{text}"
        );
        assert_eq!(field(&text, "Streaming"), Some("yes"));
    }
    // The selected transport is used: a send over the card from a file works.
    let sent = cli()
        .json(&["send", "-a", file.to_str().unwrap(), "echo via file"])
        .await;
    assert_eq!(at(&sent, "/task/status/state"), "TASK_STATE_COMPLETED");
    let card = cli().json(&["card", "get", "-a", &url]).await;
    assert!(
        card["supportedInterfaces"].is_array() && card.get("name").is_some(),
        "{card}"
    );
    // No card at the reference: A2ACLI_ERR_CARD_NOT_FOUND, exit 3.
    let o = a2a(&["card", "get", "-a", "/no/such/card.json", "-o", "json"]).await;
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        at(
            &serde_json::from_str(out(&o).trim()).unwrap(),
            "/error/code"
        ),
        "A2ACLI_ERR_CARD_NOT_FOUND"
    );
}

/// `--validate` checks the card's required fields: a valid card passes,
/// an invalid one is reported with its violations and exits 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_card_get_002() {
    let url = agent(&[]).await;
    let text = cli().ok(&["card", "get", "-a", &url, "--validate"]).await;
    assert_eq!(field(&text, "Validation"), Some("valid"), "{text}");
    let bad = card_file(&url, |c| {
        c["name"] = serde_json::Value::String(String::new());
        c["version"] = serde_json::Value::String(String::new());
    })
    .await;
    let o = a2a(&["card", "get", "-a", bad.to_str().unwrap(), "--validate"]).await;
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let text = out(&o);
    assert_eq!(field(&text, "Validation"), Some("invalid"), "{text}");
    assert!(
        fields(&text, "Violation")
            .iter()
            .any(|v| v.starts_with("name")),
        "{text}"
    );
    assert!(err(&o).contains("A2ACLI_ERR_CARD_INVALID"), "{}", err(&o));
    // Without --validate nothing is checked beyond decoding.
    let text = cli()
        .ok(&["card", "get", "-a", bad.to_str().unwrap()])
        .await;
    assert_eq!(field(&text, "Validation"), None);
}

/// `--extended` fetches the authenticated extended card with a credential
/// for the scheme the public card declares; without one it does not try.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_card_get_003() {
    let url = agent(&["--bearer", "ext-secret"]).await;
    let text = cli()
        .ok(&[
            "card",
            "get",
            "-a",
            &url,
            "--extended",
            "--bearer",
            "ext-secret",
        ])
        .await;
    assert_eq!(
        field(&text, "Card-Kind"),
        Some("extended (authenticated)"),
        "{text}"
    );
    assert!(
        field(&text, "Description")
            .unwrap()
            .contains("extended card"),
        "{text}"
    );
    let ext = cli()
        .json(&[
            "card",
            "get",
            "-a",
            &url,
            "--extended",
            "--bearer",
            "ext-secret",
        ])
        .await;
    assert!(at(&ext, "/description").contains("extended card"), "{ext}");
    let public = cli().ok(&["card", "get", "-a", &url]).await;
    assert!(!field(&public, "Description")
        .unwrap()
        .contains("extended card"));
    let o = a2a(&["card", "get", "-a", &url, "--extended"]).await;
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    assert!(
        err(&o).contains("A2ACLI_ERR_CREDENTIALS_MISSING"),
        "{}",
        err(&o)
    );
    let o = a2a(&["card", "get", "-a", &url, "--extended", "--bearer", "wrong"]).await;
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    assert!(err(&o).contains("A2ACLI_ERR_AUTH_FAILED"), "{}", err(&o));
}

/// Signatures are verified and the outcome reported: verified with the
/// agent's key, not verified under another key, absent on an unsigned
/// card (which is not a failure).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_card_get_004() {
    let dir = temp_dir("keys");
    let key = a2a_signing::SigningKey::generate(a2a_signing::Algorithm::Es256).unwrap();
    let jwk = key.private_jwk().with_kid("cli-test-1");
    let key_file = dir.join("key.jwk");
    std::fs::write(&key_file, jwk.to_json()).unwrap();
    let other = a2a_signing::SigningKey::generate(a2a_signing::Algorithm::Es256).unwrap();
    let other_jwks = dir.join("other.jwks");
    std::fs::write(
        &other_jwks,
        a2a_signing::JwkSet::new([other.public_jwk().with_kid("cli-test-1")]).to_public_json(),
    )
    .unwrap();
    let signed = agent(&["--signing-key", key_file.to_str().unwrap()]).await;
    let text = cli().ok(&["card", "get", "-a", &signed]).await;
    assert!(
        field(&text, "Signature").unwrap().starts_with("verified"),
        "{text}"
    );
    let o = a2a(&[
        "card",
        "get",
        "-a",
        &signed,
        "--jwks",
        other_jwks.to_str().unwrap(),
    ])
    .await;
    let sig = field(&out(&o), "Signature").unwrap_or_default().to_owned();
    assert!(
        !sig.starts_with("verified")
            && (sig.starts_with("invalid") || sig.starts_with("unverifiable")),
        "{sig}"
    );
    // A signed card read from a file, with no trusted key: unverifiable.
    let file = card_file(&signed, |_| {}).await;
    let text = cli()
        .ok(&["card", "get", "-a", file.to_str().unwrap()])
        .await;
    assert!(
        field(&text, "Signature")
            .unwrap()
            .starts_with("unverifiable"),
        "{text}"
    );
    let unsigned = agent(&[]).await;
    let text = cli().ok(&["card", "get", "-a", &unsigned]).await;
    assert_eq!(field(&text, "Signature"), Some("absent"));
}

/// A catalog entry (`CATALOG#NAME`) resolves to its agent's card before
/// anything else, wherever `--agent-card` is accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_card_get_005() {
    let url = agent(&[]).await;
    let inline = card_file(&url, |_| {}).await;
    let card: serde_json::Value = serde_json::from_slice(&std::fs::read(&inline).unwrap()).unwrap();
    let catalog = temp_dir("catalog").join("agents.json");
    std::fs::write(
        &catalog,
        serde_json::json!({"agents": [
            {"name": "reference", "url": url},
            {"name": "inline", "card": card},
            {"name": "nowhere", "url": "http://127.0.0.1:1"},
        ]})
        .to_string(),
    )
    .unwrap();
    let c = catalog.to_str().unwrap();
    let text = cli()
        .ok(&["card", "get", "-a", &format!("{c}#reference")])
        .await;
    assert_eq!(field(&text, "Name"), Some("A2A reference agent"), "{text}");
    let sent = cli()
        .json(&[
            "send",
            "-a",
            &format!("{c}#inline"),
            "echo from the catalog",
        ])
        .await;
    assert_eq!(
        at(&sent, "/task/artifacts/0/parts/0/text"),
        "from the catalog"
    );
    let o = a2a(&["card", "get", "-a", &format!("{c}#missing")]).await;
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    let o = a2a(&["card", "get", "-a", c]).await;
    assert_eq!(
        o.status.code(),
        Some(3),
        "several entries need a name: {}",
        err(&o)
    );
    assert!(err(&o).contains("CATALOG#NAME"), "{}", err(&o));
}
