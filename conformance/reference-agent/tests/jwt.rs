//! `--jwt-issuer`, `--jwt-audience`, `--jwt-jwks <file>`: the agent takes
//! bearer JWTs signed by the JWKS's keys, each subject its own caller.

use std::time::{SystemTime, UNIX_EPOCH};

use a2a_reference_agent::cli::{Options, Parsed};
use a2a_signing::jwt::sign_jwt;
use a2a_signing::{Algorithm, JwkSet, SigningKey};
use bytes::Bytes;
use serde_json::{json, Value};

const ISS: &str = "https://idp.example";
const AUD: &str = "a2a-reference-agent";

async fn call(
    server: &a2a_transport::A2aServer<a2a_reference_agent::ReferenceAgent>,
    token: Option<&str>,
    method: &str,
    params: Value,
) -> (u16, Vec<String>, Value) {
    let mut b = http::Request::post("/")
        .header("content-type", "application/json")
        .header("a2a-version", "1.0");
    if let Some(t) = token {
        b = b.header("authorization", format!("Bearer {t}"));
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let response = server
        .handle(b.body(Bytes::from(body.to_string())).unwrap())
        .await;
    let status = response.status().as_u16();
    let challenges = response
        .headers()
        .get_all("www-authenticate")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    let json = response.into_body().into_bytes().unwrap();
    (status, challenges, serde_json::from_slice(&json).unwrap())
}

#[tokio::test]
async fn jwt_flags_authenticate_each_subject() {
    let dir = std::env::temp_dir().join(format!("a2a-ref-jwt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let key = SigningKey::generate(Algorithm::Es256).unwrap();
    let jwks = dir.join("jwks.json");
    std::fs::write(
        &jwks,
        JwkSet::new([key.public_jwk().with_kid("k1")]).to_public_json(),
    )
    .unwrap();
    let args = [
        "--jwt-issuer",
        ISS,
        "--jwt-audience",
        AUD,
        "--jwt-jwks",
        jwks.to_str().unwrap(),
    ];
    let Ok(Parsed::Run(options)) = Options::parse(args.iter().map(|s| (*s).to_owned())) else {
        panic!("the flags do not parse");
    };
    let server = options.server("127.0.0.1:9".parse().unwrap()).unwrap();
    // The card tells clients what the bearer token is (proto
    // HTTPAuthSecurityScheme.bearer_format).
    let card = server
        .handle(
            http::Request::get("/.well-known/agent-card.json")
                .body(Bytes::new())
                .unwrap(),
        )
        .await;
    let card: Value = serde_json::from_slice(&card.into_body().into_bytes().unwrap()).unwrap();
    let scheme = &card["securitySchemes"]["bearer"]["httpAuthSecurityScheme"];
    assert_eq!(scheme["bearerFormat"], "JWT", "{card}");
    assert!(
        scheme["description"]
            .as_str()
            .unwrap()
            .contains("--jwt-issuer"),
        "{card}"
    );
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let token = |sub: &str, exp: u64| {
        sign_jwt(
            &key,
            "k1",
            &json!({"iss": ISS, "aud": AUD, "sub": sub, "exp": exp}),
        )
        .unwrap()
    };
    let alice = token("alice", now + 600);
    let bob = token("bob", now + 600);

    let send = json!({"message": {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "echo hi"}]}});
    let (status, challenges, _) = call(&server, None, "SendMessage", send.clone()).await;
    assert_eq!(status, 401);
    assert_eq!(challenges, [r#"Bearer realm="A2A reference agent""#]);

    let (status, _, body) = call(&server, Some(&alice), "SendMessage", send.clone()).await;
    assert_eq!(status, 200, "{body}");
    let id = body["result"]["task"]["id"].as_str().unwrap().to_owned();
    // The subject is the caller: alice's task is not bob's.
    let (_, _, got) = call(&server, Some(&alice), "GetTask", json!({"id": id})).await;
    assert_eq!(got["result"]["id"], id.as_str(), "{got}");
    let (_, _, hidden) = call(&server, Some(&bob), "GetTask", json!({"id": id})).await;
    assert_eq!(hidden["error"]["code"], -32001, "{hidden}");

    let (status, challenges, _) = call(
        &server,
        Some(&token("alice", now - 3600)),
        "SendMessage",
        send,
    )
    .await;
    assert_eq!(status, 401);
    assert_eq!(
        challenges,
        [
            r#"Bearer realm="A2A reference agent", error="invalid_token", error_description="the token has expired""#
        ]
    );
    // A token file holding a private key is refused at start.
    let private = dir.join("private.json");
    std::fs::write(
        &private,
        format!("{{\"keys\":[{}]}}", key.private_jwk().to_json()),
    )
    .unwrap();
    let args = [
        "--jwt-issuer",
        ISS,
        "--jwt-audience",
        AUD,
        "--jwt-jwks",
        private.to_str().unwrap(),
    ];
    assert!(Options::parse(args.iter().map(|s| (*s).to_owned()))
        .unwrap_err()
        .contains("private key"));
    std::fs::remove_dir_all(&dir).unwrap();
}
