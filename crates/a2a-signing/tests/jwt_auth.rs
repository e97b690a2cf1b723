//! `JwtAuth` (feature `jwt-auth`) against keys and tokens made here: each
//! check of RFC 7519 / RFC 8725, JWKS rotation and OpenID Connect discovery
//! over loopback HTTP (fetched with a2a-hyper's client), and the RFC 6750
//! challenges of a real `A2aServer` on loopback.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_hyper::HyperClient;
use a2a_signing::jwt::{
    satisfies, sign_jwt, skill_allows, JwksSource, JwtAuth, JwtConfig, JwtError, MAX_TOKEN_LEN,
};
use a2a_signing::{Algorithm, JwkSet, RemoteJwks, SigningKey};
use a2a_transport::client::HttpClient;
use a2a_transport::server::{AuthOutcome, AuthRequest, Authenticator};
use a2a_transport::{A2aServer, A2aService, Principal, ServerConfig};
use a2a_types::{AgentCard, HTTPAuthSecurityScheme, SecurityRequirement, StringList};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use bytes::Bytes;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const ISS: &str = "https://idp.example";
const AUD: &str = "https://agent.example";
const T0: u64 = 1_700_000_000;

fn rsa() -> &'static SigningKey {
    static KEY: OnceLock<SigningKey> = OnceLock::new();
    KEY.get_or_init(|| SigningKey::generate(Algorithm::Rs256).unwrap())
}

/// A clock the test moves.
#[derive(Clone)]
struct TestClock(Arc<AtomicU64>);

impl TestClock {
    fn new() -> TestClock {
        TestClock(Arc::new(AtomicU64::new(T0)))
    }
    fn advance(&self, secs: u64) {
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
    fn now(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
    fn clock(&self) -> impl Fn() -> SystemTime + Send + Sync + 'static {
        let at = Arc::clone(&self.0);
        move || UNIX_EPOCH + Duration::from_secs(at.load(Ordering::SeqCst))
    }
}

fn claims(sub: &str, now: u64) -> Value {
    json!({"iss": ISS, "aud": AUD, "sub": sub, "iat": now, "exp": now + 300})
}

fn with(mut claims: Value, name: &str, value: Value) -> Value {
    claims[name] = value;
    claims
}

fn local(keys: JwkSet, clock: &TestClock) -> JwtAuth {
    JwtAuth::new(
        JwtConfig::new("oauth", ISS, AUD),
        JwksSource::Local(keys),
        clock.clock(),
    )
}

fn check(auth: &JwtAuth, token: &str) -> Result<Principal, JwtError> {
    block_on(auth.validate(token)).map(|v| v.principal)
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

/// A compact JWS with `header` as given and `signature` bytes.
fn raw_token(header: &Value, claims: &Value, signature: &[u8]) -> String {
    format!(
        "{}.{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string()),
        URL_SAFE_NO_PAD.encode(signature)
    )
}

/// HMAC-SHA256 (RFC 2104), to forge the algorithm-confusion token.
fn hmac_sha256(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |b: u8| k.iter().map(|x| x ^ b).collect::<Vec<u8>>();
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(data)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .to_vec()
}

#[test]
fn valid_tokens_of_each_algorithm() {
    let clock = TestClock::new();
    let es = SigningKey::generate(Algorithm::Es256).unwrap();
    let ed = SigningKey::generate(Algorithm::EdDsa).unwrap();
    let keys = JwkSet::new([
        rsa().public_jwk().with_kid("rs"),
        es.public_jwk().with_kid("es"),
        ed.public_jwk().with_kid("ed"),
    ]);
    let auth = local(keys, &clock);
    for (key, kid) in [(rsa(), "rs"), (&es, "es"), (&ed, "ed")] {
        let token = sign_jwt(key, kid, &claims(&format!("user-{kid}"), T0)).unwrap();
        let p = check(&auth, &token).unwrap();
        assert_eq!(p.id, format!("user-{kid}"), "{kid}");
        assert_eq!(p.scheme, "oauth");
        assert!(p.scopes.is_empty());
    }
    // Scopes: `scope` space-separated, `scp` an array; `aud` an array.
    let c = with(
        claims("alice", T0),
        "scope",
        json!("tasks:read  tasks:write"),
    );
    let c = with(c, "scp", json!(["admin"]));
    let c = with(c, "aud", json!(["other", AUD]));
    let p = check(&auth, &sign_jwt(&es, "es", &c).unwrap()).unwrap();
    assert_eq!(
        p.scopes.iter().map(String::as_str).collect::<Vec<_>>(),
        ["admin", "tasks:read", "tasks:write"]
    );
    // The claims come back as JSON.
    let v = block_on(auth.validate(&sign_jwt(&ed, "ed", &c).unwrap())).unwrap();
    assert_eq!(v.claims["sub"], "alice");
}

#[test]
fn time_claims_with_leeway() {
    let clock = TestClock::new();
    let key = SigningKey::generate(Algorithm::Es256).unwrap();
    let auth = local(JwkSet::new([key.public_jwk().with_kid("k")]), &clock);
    let token = |c: Value| sign_jwt(&key, "k", &c).unwrap();
    let now = T0;
    // Expired 61 s ago: past the 60 s leeway. 30 s ago: within it.
    let expired = with(claims("a", now), "exp", json!(now - 61));
    assert_eq!(check(&auth, &token(expired)), Err(JwtError::Expired));
    let lately = with(claims("a", now), "exp", json!(now - 30));
    assert!(check(&auth, &token(lately)).is_ok());
    // Not valid for another 2 minutes; 30 s is within the leeway.
    let early = with(claims("a", now), "nbf", json!(now + 120));
    assert_eq!(check(&auth, &token(early)), Err(JwtError::NotYetValid));
    let soon = with(claims("a", now), "nbf", json!(now + 30));
    assert!(check(&auth, &token(soon)).is_ok());
    let future = with(claims("a", now), "iat", json!(now + 600));
    assert_eq!(check(&auth, &token(future)), Err(JwtError::IssuedInFuture));
    // `exp` is required, and a number.
    let mut no_exp = claims("a", now);
    no_exp.as_object_mut().unwrap().remove("exp");
    assert_eq!(check(&auth, &token(no_exp)), Err(JwtError::Claim("exp")));
    let text_exp = with(claims("a", now), "exp", json!("tomorrow"));
    assert_eq!(check(&auth, &token(text_exp)), Err(JwtError::Claim("exp")));
    // The clock is the host's: the same token expires when it moves.
    let t = token(claims("a", now));
    assert!(check(&auth, &t).is_ok());
    clock.advance(300 + 60);
    assert_eq!(check(&auth, &t), Err(JwtError::Expired));
    // A leeway of zero.
    let strict = JwtAuth::new(
        JwtConfig::new("oauth", ISS, AUD).with_leeway(Duration::ZERO),
        JwksSource::Local(JwkSet::new([key.public_jwk().with_kid("k")])),
        clock.clock(),
    );
    let just = with(claims("a", clock.now()), "exp", json!(clock.now() - 1));
    assert_eq!(check(&strict, &token(just)), Err(JwtError::Expired));
}

#[test]
fn issuer_audience_and_subject() {
    let clock = TestClock::new();
    let key = SigningKey::generate(Algorithm::EdDsa).unwrap();
    let auth = local(JwkSet::new([key.public_jwk().with_kid("k")]), &clock);
    let token = |c: Value| sign_jwt(&key, "k", &c).unwrap();
    let c = claims("a", T0);
    assert_eq!(
        check(
            &auth,
            &token(with(c.clone(), "aud", json!("https://other.example")))
        ),
        Err(JwtError::WrongAudience)
    );
    assert_eq!(
        check(&auth, &token(with(c.clone(), "aud", json!(["x", "y"])))),
        Err(JwtError::WrongAudience)
    );
    assert_eq!(
        check(
            &auth,
            &token(with(c.clone(), "iss", json!("https://evil.example")))
        ),
        Err(JwtError::WrongIssuer)
    );
    // A prefix or a trailing slash is another issuer.
    assert_eq!(
        check(
            &auth,
            &token(with(c.clone(), "iss", json!(format!("{ISS}/"))))
        ),
        Err(JwtError::WrongIssuer)
    );
    assert_eq!(
        check(&auth, &token(with(c.clone(), "sub", json!("")))),
        Err(JwtError::Claim("sub"))
    );
    assert_eq!(
        check(&auth, &token(with(c.clone(), "scope", json!(["a"])))),
        Err(JwtError::Claim("scope"))
    );
    // A second configured audience is accepted.
    let two = JwtAuth::new(
        JwtConfig::new("oauth", ISS, AUD).with_audience("https://other.example"),
        JwksSource::Local(JwkSet::new([key.public_jwk().with_kid("k")])),
        clock.clock(),
    );
    assert!(check(&two, &token(with(c, "aud", json!("https://other.example")))).is_ok());
}

#[test]
fn alg_none_and_hmac_with_the_public_key_are_refused() {
    let clock = TestClock::new();
    let jwk = rsa().public_jwk().with_kid("rs");
    let auth = local(JwkSet::new([jwk.clone()]), &clock);
    let c = claims("mallory", T0);
    // `alg: none`, with and without a kid, empty signature.
    for header in [json!({"alg": "none"}), json!({"alg": "none", "kid": "rs"})] {
        let token = raw_token(&header, &c, b"");
        assert_eq!(
            check(&auth, &token),
            Err(JwtError::UnsupportedAlgorithm("none".into()))
        );
    }
    // HS256 "signed" with the public key's bytes as the secret: the
    // algorithm-confusion attack, over the JWK's JSON and over the modulus.
    let header = json!({"alg": "HS256", "typ": "JWT", "kid": "rs"});
    let secrets = [
        jwk.to_json().into_bytes(),
        URL_SAFE_NO_PAD.decode(jwk.n.as_deref().unwrap()).unwrap(),
    ];
    for secret in secrets {
        let unsigned = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(c.to_string())
        );
        let mac = hmac_sha256(&secret, unsigned.as_bytes());
        let token = format!("{unsigned}.{}", URL_SAFE_NO_PAD.encode(mac));
        let err = check(&auth, &token).unwrap_err();
        assert_eq!(err, JwtError::UnsupportedAlgorithm("HS256".into()));
        assert!(err.to_string().contains("HMAC is refused"), "{err}");
    }
    // An algorithm this crate verifies but the configuration excludes.
    let es = SigningKey::generate(Algorithm::Es256).unwrap();
    let only_rs = JwtAuth::new(
        JwtConfig::new("oauth", ISS, AUD).with_algorithms([Algorithm::Rs256]),
        JwksSource::Local(JwkSet::new([es.public_jwk().with_kid("es")])),
        clock.clock(),
    );
    let token = sign_jwt(&es, "es", &c).unwrap();
    assert_eq!(
        check(&only_rs, &token),
        Err(JwtError::AlgorithmNotAllowed(Algorithm::Es256))
    );
}

#[test]
fn keys_are_found_by_kid_and_must_fit_the_algorithm() {
    let clock = TestClock::new();
    let es = SigningKey::generate(Algorithm::Es256).unwrap();
    let other = SigningKey::generate(Algorithm::Es256).unwrap();
    let auth = local(
        JwkSet::new([
            es.public_jwk().with_kid("es"),
            rsa().public_jwk().with_kid("rs"),
        ]),
        &clock,
    );
    let c = claims("a", T0);
    // A kid not in the set.
    let token = sign_jwt(&es, "gone", &c).unwrap();
    assert_eq!(
        check(&auth, &token),
        Err(JwtError::UnknownKey("gone".into()))
    );
    // An ES256 token naming the RSA key: the key type must match the alg.
    let token = sign_jwt(&es, "rs", &c).unwrap();
    assert!(matches!(
        check(&auth, &token),
        Err(JwtError::KeyMismatch { ref kid, .. }) if kid == "rs"
    ));
    // Another key under the right kid: the signature does not verify.
    let token = sign_jwt(&other, "es", &c).unwrap();
    assert_eq!(check(&auth, &token), Err(JwtError::BadSignature));
    // A changed payload.
    let token = sign_jwt(&es, "es", &c).unwrap();
    let parts: Vec<&str> = token.split('.').collect();
    let forged = with(c.clone(), "sub", json!("admin"));
    let tampered = format!(
        "{}.{}.{}",
        parts[0],
        URL_SAFE_NO_PAD.encode(forged.to_string()),
        parts[2]
    );
    assert_eq!(check(&auth, &tampered), Err(JwtError::BadSignature));
    // Without a kid: accepted only when the set has one key.
    let header = json!({"alg": "ES256"});
    let unsigned = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(c.to_string())
    );
    let no_kid = sign_without_kid(&es, &unsigned);
    assert_eq!(
        check(&auth, &no_kid),
        Err(JwtError::UnknownKey(String::new()))
    );
    let single = local(JwkSet::new([es.public_jwk().with_kid("es")]), &clock);
    assert!(check(&single, &no_kid).is_ok());
}

/// `unsigned` (header and claims) signed with the P-256 key `key`, for a
/// header `sign_jwt` would not write.
fn sign_without_kid(key: &SigningKey, unsigned: &str) -> String {
    use p256::ecdsa::signature::Signer;
    let jwk = key.private_jwk();
    let d = URL_SAFE_NO_PAD.decode(jwk.d.as_deref().unwrap()).unwrap();
    let sk = p256::ecdsa::SigningKey::from_slice(&d).unwrap();
    let sig: p256::ecdsa::Signature = sk.sign(unsigned.as_bytes());
    format!("{unsigned}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()))
}

#[test]
fn malformed_and_oversized_tokens_are_refused_without_panicking() {
    let clock = TestClock::new();
    let key = SigningKey::generate(Algorithm::EdDsa).unwrap();
    let auth = local(JwkSet::new([key.public_jwk().with_kid("k")]), &clock);
    let long = "a".repeat(MAX_TOKEN_LEN + 1);
    assert_eq!(
        check(&auth, &long),
        Err(JwtError::TooLong(MAX_TOKEN_LEN + 1))
    );
    let dup = format!(
        "{}.{}.{}",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"EdDSA","kid":"k"}"#),
        URL_SAFE_NO_PAD.encode(r#"{"sub":"a","sub":"b"}"#),
        URL_SAFE_NO_PAD.encode([0u8; 64])
    );
    let crit = raw_token(
        &json!({"alg":"EdDSA","kid":"k","crit":["x"]}),
        &claims("a", T0),
        b"",
    );
    for bad in [
        "", "a", "a.b", "a.b.c.d", "!!.??.**", "e30.e30.", "W10.e30.", &dup, &crit,
    ] {
        assert!(
            matches!(check(&auth, bad), Err(JwtError::Malformed(_))),
            "{bad}: {:?}",
            check(&auth, bad)
        );
    }
    // Bytes of every kind never panic.
    let mut seed = 7u64;
    for len in 0..200 {
        let text: String = (0..len)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                b"ab.-_=+/{}\"e3"[(seed >> 33) as usize % 13] as char
            })
            .collect();
        let _ = check(&auth, &text);
    }
}

#[test]
fn requirements_and_skills() {
    let mut read = SecurityRequirement::default();
    read.schemes
        .insert("oauth".into(), StringList::from_iter(["tasks:read"]));
    let mut admin = SecurityRequirement::default();
    admin.schemes.insert(
        "oauth".into(),
        StringList::from_iter(["admin", "tasks:read"]),
    );
    let mut key = SecurityRequirement::default();
    key.schemes.insert("apiKey".into(), StringList::default());
    let reader = Principal::new("r", "oauth").with_scopes(["tasks:read"]);
    let nobody = Principal::new("n", "oauth");
    let bot = Principal::new("b", "apiKey");
    assert!(satisfies(&nobody, &[]));
    assert!(satisfies(&reader, &[read.clone()]));
    assert!(!satisfies(&nobody, &[read.clone()]));
    assert!(!satisfies(&reader, &[admin.clone()]));
    assert!(satisfies(&reader, &[admin.clone(), read.clone()]));
    assert!(satisfies(&bot, &[read.clone(), key.clone()]));
    assert!(!satisfies(&bot, &[read.clone()]));
    assert!(satisfies(
        &nobody,
        &[read.clone(), SecurityRequirement::default()]
    ));

    let mut card = card();
    card.skills[0].security_requirements = vec![admin];
    assert!(!skill_allows(Some(&reader), &card, "qa"));
    assert!(skill_allows(
        Some(&reader.clone().with_scopes(["admin", "tasks:read"])),
        &card,
        "qa"
    ));
    assert!(!skill_allows(None, &card, "qa"));
    assert!(!skill_allows(Some(&reader), &card, "no-such-skill"));
    card.skills[0].security_requirements.clear();
    assert!(skill_allows(None, &card, "qa"));
}

// ---- loopback HTTP ----

type Route = Arc<dyn Fn(&str) -> (u16, String) + Send + Sync>;

/// An HTTP/1.1 server on loopback answering each request by `route(path)`,
/// counting requests per path. Runs until the runtime ends.
async fn http_server(route: Route) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let route = Arc::clone(&route);
            let log = Arc::clone(&log);
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 1024];
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < 16 * 1024 {
                    match socket.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                let text = String::from_utf8_lossy(&buf);
                let path = text.split(' ').nth(1).unwrap_or("/").to_owned();
                log.lock().unwrap().push(path.clone());
                let (status, body) = route(&path);
                let reply = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(reply.as_bytes()).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    (base, seen)
}

fn count(seen: &Mutex<Vec<String>>, path: &str) -> usize {
    seen.lock().unwrap().iter().filter(|p| *p == path).count()
}

#[tokio::test]
async fn jwks_rotation_refetches_once_per_interval() {
    let k1 = SigningKey::generate(Algorithm::Es256).unwrap();
    let k2 = SigningKey::generate(Algorithm::EdDsa).unwrap();
    let published = Arc::new(Mutex::new(JwkSet::new([k1.public_jwk().with_kid("k1")])));
    let keys = Arc::clone(&published);
    let (base, seen) = http_server(Arc::new(move |path| match path {
        "/jwks.json" => (200, keys.lock().unwrap().to_public_json()),
        _ => (404, "{}".into()),
    }))
    .await;
    let url = format!("{base}/jwks.json");
    let clock = TestClock::new();
    let auth = JwtAuth::new(
        JwtConfig::new("oauth", ISS, AUD),
        JwksSource::Remote(RemoteJwks::new([url.clone()])),
        clock.clock(),
    )
    .with_client(HyperClient::new());
    let token =
        |key: &SigningKey, kid: &str| sign_jwt(key, kid, &claims("a", clock.now())).unwrap();
    let fetches = || count(&seen, "/jwks.json");

    // First use: one fetch, then the cache.
    assert!(auth.validate(&token(&k1, "k1")).await.is_ok());
    assert!(auth.validate(&token(&k1, "k1")).await.is_ok());
    assert_eq!(fetches(), 1);

    // The issuer rotates to k2. A k2 token right away: the refetch is not
    // due yet (30 s apart), so it is refused without a fetch.
    *published.lock().unwrap() = JwkSet::new([k2.public_jwk().with_kid("k2")]);
    assert_eq!(
        auth.validate(&token(&k2, "k2")).await,
        Err(JwtError::UnknownKey("k2".into()))
    );
    assert_eq!(fetches(), 1);
    // 31 s later the unknown kid triggers one refetch and validates.
    clock.advance(31);
    assert!(auth.validate(&token(&k2, "k2")).await.is_ok());
    assert_eq!(fetches(), 2);
    // The retired key is gone.
    assert_eq!(
        auth.validate(&token(&k1, "k1")).await,
        Err(JwtError::UnknownKey("k1".into()))
    );
    // A flood of made-up kids costs no fetch within the interval...
    for i in 0..50 {
        let kid = format!("bogus-{i}");
        assert_eq!(
            auth.validate(&token(&k2, &kid)).await,
            Err(JwtError::UnknownKey(kid))
        );
    }
    assert_eq!(fetches(), 2);
    // ...and one per interval after it.
    clock.advance(31);
    for i in 0..50 {
        let _ = auth.validate(&token(&k2, &format!("more-{i}"))).await;
    }
    assert_eq!(fetches(), 3);
    assert!(auth.validate(&token(&k2, "k2")).await.is_ok());
    assert_eq!(fetches(), 3);

    // The cache's lifetime is bounded: after 10 minutes the keys are
    // fetched again before use, even for a known kid.
    clock.advance(601);
    assert!(auth.validate(&token(&k2, "k2")).await.is_ok());
    assert_eq!(fetches(), 4);

    // The endpoint fails: the keys are unavailable, not a panic.
    let down = JwtAuth::new(
        JwtConfig::new("oauth", ISS, AUD),
        JwksSource::Remote(RemoteJwks::new([format!("{base}/missing")])),
        clock.clock(),
    )
    .with_client(HyperClient::new());
    assert!(matches!(
        down.validate(&token(&k2, "k2")).await,
        Err(JwtError::KeysUnavailable(_))
    ));
}

#[tokio::test]
async fn openid_connect_discovery() {
    let key = rsa().clone();
    let jwks = JwkSet::new([key.public_jwk().with_kid("rsa-1")]).to_public_json();
    let issuer_slot: Arc<OnceLock<String>> = Arc::new(OnceLock::new());
    let named = Arc::new(Mutex::new(None::<String>));
    let jwks_uri = Arc::new(Mutex::new(None::<String>));
    let (slot, n, j) = (
        Arc::clone(&issuer_slot),
        Arc::clone(&named),
        Arc::clone(&jwks_uri),
    );
    let (base, seen) = http_server(Arc::new(move |path| {
        let issuer = slot.get().cloned().unwrap_or_default();
        match path {
            "/.well-known/openid-configuration" => {
                let iss = n.lock().unwrap().clone().unwrap_or(issuer.clone());
                let uri = j
                    .lock()
                    .unwrap()
                    .clone()
                    .unwrap_or(format!("{issuer}/keys"));
                (
                    200,
                    json!({"issuer": iss, "jwks_uri": uri, "id_token_signing_alg_values_supported": ["RS256"]})
                        .to_string(),
                )
            }
            "/keys" => (200, jwks.clone()),
            _ => (404, "{}".into()),
        }
    }))
    .await;
    issuer_slot.set(base.clone()).unwrap();
    let clock = TestClock::new();
    let discovering = |allowed: RemoteJwks| {
        JwtAuth::new(
            JwtConfig::new("oidc", base.clone(), AUD),
            JwksSource::Discovery(allowed),
            clock.clock(),
        )
        .with_client(HyperClient::new())
    };
    let c = json!({"iss": base, "aud": AUD, "sub": "carol", "exp": T0 + 60});
    let token = sign_jwt(&key, "rsa-1", &c).unwrap();

    let auth = discovering(RemoteJwks::new(Vec::<String>::new()));
    let p = auth.validate(&token).await.unwrap().principal;
    assert_eq!((p.id.as_str(), p.scheme.as_str()), ("carol", "oidc"));
    assert_eq!(count(&seen, "/.well-known/openid-configuration"), 1);
    assert_eq!(count(&seen, "/keys"), 1);

    // The document names another issuer: refused (OIDC Discovery 4.3).
    *named.lock().unwrap() = Some("https://impostor.example".into());
    let err = discovering(RemoteJwks::new(Vec::<String>::new()))
        .validate(&token)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, JwtError::KeysUnavailable(why) if why.contains("does not name the issuer")),
        "{err}"
    );
    *named.lock().unwrap() = None;

    // A jwks_uri at another origin: refused unless allow-listed.
    let elsewhere = format!("{}/keys", base.replace("127.0.0.1", "localhost"));
    *jwks_uri.lock().unwrap() = Some(elsewhere.clone());
    let err = discovering(RemoteJwks::new(Vec::<String>::new()))
        .validate(&token)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, JwtError::KeysUnavailable(why) if why.contains("not allow-listed")),
        "{err}"
    );
    let err = discovering(RemoteJwks::new([format!("{base}/other")]))
        .validate(&token)
        .await
        .unwrap_err();
    assert!(matches!(err, JwtError::KeysUnavailable(_)), "{err}");
    let allowed = discovering(RemoteJwks::new([elsewhere]));
    assert_eq!(
        allowed.validate(&token).await.unwrap().principal.id,
        "carol"
    );

    // A remote source without an HTTP client cannot fetch.
    let no_client = JwtAuth::new(
        JwtConfig::new("oidc", base.clone(), AUD),
        JwksSource::Discovery(RemoteJwks::new(Vec::<String>::new())),
        clock.clock(),
    );
    assert!(matches!(
        no_client.validate(&token).await,
        Err(JwtError::KeysUnavailable(_))
    ));
}

// ---- the challenges of a real server ----

fn card() -> AgentCard {
    a2a_types::from_slice(
        br#"{
        "name": "Agent", "description": "Answers questions", "version": "1.0.0",
        "supportedInterfaces": [
            {"url": "http://127.0.0.1/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "http://127.0.0.1", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
        ],
        "capabilities": {},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "qa", "name": "Q&A", "description": "Answers", "tags": ["qa"]}]
    }"#,
    )
    .unwrap()
}

struct Agent;
impl A2aService for Agent {}

#[tokio::test]
async fn challenges_of_401_and_403_over_http() {
    let key = SigningKey::generate(Algorithm::Es256).unwrap();
    let clock = TestClock::new();
    let mut card = card();
    card.security_schemes.insert(
        "oauth".into(),
        HTTPAuthSecurityScheme {
            scheme: "Bearer".into(),
            bearer_format: "JWT".into(),
            ..Default::default()
        }
        .into(),
    );
    let mut req = SecurityRequirement::default();
    req.schemes
        .insert("oauth".into(), StringList::from_iter(["tasks:write"]));
    card.security_requirements = vec![req];
    let auth = JwtAuth::new(
        JwtConfig::new("oauth", ISS, AUD).with_card(&card),
        JwksSource::Local(JwkSet::new([key.public_jwk().with_kid("k")])),
        clock.clock(),
    );
    let server = Arc::new(
        A2aServer::new(Agent, card, ServerConfig::new().with_authenticator(auth)).unwrap(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(a2a_hyper::serve(
        listener,
        server,
        a2a_hyper::ServeOptions::default(),
        std::future::pending(),
    ));
    let client = HyperClient::new();
    let call = |path: &str, token: Option<String>| {
        let mut b = http::Request::builder()
            .method(if path == "/" { "POST" } else { "GET" })
            .uri(format!("{base}{path}"))
            .header("a2a-version", "1.0")
            .header("content-type", "application/json");
        if let Some(t) = token {
            b = b.header("authorization", format!("Bearer {t}"));
        }
        let body = if path == "/" {
            Bytes::from_static(
                br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t-1"}}"#,
            )
        } else {
            Bytes::new()
        };
        let request = b.body(body).unwrap();
        let client = client.clone();
        async move {
            let response = client.send(request).await.unwrap();
            let status = response.status().as_u16();
            let challenges: Vec<String> = response
                .headers()
                .get_all("www-authenticate")
                .iter()
                .map(|v| v.to_str().unwrap().to_owned())
                .collect();
            (status, challenges)
        }
    };
    let now = clock.now();
    let expired = sign_jwt(&key, "k", &with(claims("a", now), "exp", json!(now - 3600))).unwrap();
    let unscoped = sign_jwt(&key, "k", &claims("a", now)).unwrap();
    let scoped = sign_jwt(
        &key,
        "k",
        &with(claims("a", now), "scope", json!("tasks:write")),
    )
    .unwrap();
    for path in ["/", "/tasks/t-1"] {
        // No token: the card's challenge, no error (RFC 6750 section 3.1).
        assert_eq!(
            call(path, None).await,
            (401, vec![r#"Bearer realm="Agent""#.to_owned()]),
            "{path}"
        );
        assert_eq!(
            call(path, Some(expired.clone())).await,
            (
                401,
                vec![
                    r#"Bearer realm="Agent", error="invalid_token", error_description="the token has expired""#
                        .to_owned()
                ]
            ),
            "{path}"
        );
        let (status, challenges) = call(path, Some("not-a-jwt".into())).await;
        assert_eq!(status, 401);
        assert!(
            challenges[0].starts_with(
                r#"Bearer realm="Agent", error="invalid_token", error_description="malformed token"#
            ),
            "{challenges:?}"
        );
        assert_eq!(
            call(path, Some(unscoped.clone())).await,
            (
                403,
                vec![
                    r#"Bearer realm="Agent", error="insufficient_scope", error_description="the token lacks the scopes the agent requires (tasks:write)", scope="tasks:write""#
                        .to_owned()
                ]
            ),
            "{path}"
        );
        // With the scope: past authentication (the agent has no such task).
        let (status, challenges) = call(path, Some(scoped.clone())).await;
        assert!(status != 401 && status != 403, "{path}: {status}");
        assert!(challenges.is_empty());
    }
}

#[test]
fn the_authenticator_outcomes() {
    let clock = TestClock::new();
    let key = SigningKey::generate(Algorithm::EdDsa).unwrap();
    let auth = local(JwkSet::new([key.public_jwk().with_kid("k")]), &clock);
    let run = |value: Option<&str>| {
        let mut h = http::HeaderMap::new();
        if let Some(v) = value {
            h.insert("authorization", v.parse().unwrap());
        }
        let (m, u, e) = (
            http::Method::POST,
            http::Uri::from_static("/"),
            http::Extensions::new(),
        );
        block_on(auth.authenticate(AuthRequest::new(&m, &u, &h, &e)))
    };
    assert_eq!(run(None), AuthOutcome::Anonymous);
    assert_eq!(run(Some("Basic YTpi")), AuthOutcome::Anonymous);
    assert!(matches!(
        run(Some("Bearer x")),
        AuthOutcome::Unauthenticated(_)
    ));
    let token = sign_jwt(&key, "k", &claims("dave", T0)).unwrap();
    assert_eq!(
        run(Some(&format!("Bearer {token}"))),
        AuthOutcome::Authenticated(Principal::new("dave", "oauth"))
    );
}
