//! Makes signing keys and bearer JWTs from the command line, for trying
//! `JwtAuth` (the reference agent's `--jwt-jwks`, `scripts/jwt-conformance`).
//!
//! ```text
//! mint_jwt keygen --alg ES256 --kid k1 --out KEY.jwk.json --jwks JWKS.json
//! mint_jwt token  --key KEY.jwk.json --iss ISSUER --aud AUDIENCE --sub SUBJECT
//!                 [--scope "a b"] [--ttl SECONDS (default 3600)]
//! ```
//!
//! `keygen` writes the private JWK (with `kid`) and a JWKS of its public
//! part; `token` prints a token signed with the key, `iat` now and `exp`
//! `--ttl` seconds later.
//!
//! ```text
//! cargo run -p a2a-signing --features jwt-auth --example mint_jwt -- keygen ...
//! ```

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use a2a_signing::jwt::sign_jwt;
use a2a_signing::{Algorithm, Jwk, JwkSet, SigningKey};

fn flags(args: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or(format!("{flag} needs a value"))?;
        let name = flag
            .strip_prefix("--")
            .ok_or(format!("unknown argument {flag}"))?;
        out.insert(name.to_owned(), value.clone());
    }
    Ok(out)
}

fn run(args: &[String]) -> Result<String, String> {
    let Some((command, rest)) = args.split_first() else {
        return Err("keygen or token".into());
    };
    let f = flags(rest)?;
    let need = |name: &str| f.get(name).cloned().ok_or(format!("--{name} is required"));
    match command.as_str() {
        "keygen" => {
            let alg = need("alg")?;
            let alg = Algorithm::from_name(&alg).ok_or(format!("--alg {alg}: not an algorithm"))?;
            let kid = need("kid")?;
            let key = SigningKey::generate(alg).map_err(|e| e.to_string())?;
            let private = key.private_jwk().with_kid(kid.clone());
            let out = need("out")?;
            std::fs::write(&out, private.to_json()).map_err(|e| format!("{out}: {e}"))?;
            let jwks = need("jwks")?;
            let set = JwkSet::new([key.public_jwk().with_kid(kid)]);
            std::fs::write(&jwks, set.to_public_json()).map_err(|e| format!("{jwks}: {e}"))?;
            Ok(format!("wrote {out} and {jwks}"))
        }
        "token" => {
            let path = need("key")?;
            let jwk = Jwk::from_json(&std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?)
                .map_err(|e| e.to_string())?;
            let kid = jwk.kid.clone().ok_or("the key has no kid")?;
            let key = SigningKey::from_jwk(&jwk, None).map_err(|e| e.to_string())?;
            let ttl: u64 = match f.get("ttl") {
                Some(t) => t.parse().map_err(|_| format!("--ttl {t}: not a number"))?,
                None => 3600,
            };
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_err(|e| e.to_string())?
                .as_secs();
            let mut claims = serde_json::json!({
                "iss": need("iss")?,
                "aud": need("aud")?,
                "sub": need("sub")?,
                "iat": now,
                "exp": now + ttl,
            });
            if let Some(scope) = f.get("scope") {
                claims["scope"] = scope.clone().into();
            }
            sign_jwt(&key, &kid, &claims).map_err(|e| e.to_string())
        }
        other => Err(format!("unknown command {other}: keygen or token")),
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
            eprintln!("mint_jwt: {e}");
            ExitCode::FAILURE
        }
    }
}
