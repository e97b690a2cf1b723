//! `auth login|logout|status` (a2a-cli spec §12.2, §12.3): OAuth 2.1's
//! device-code (RFC 8628) and client-credentials grants against the
//! token endpoints of the card's `oauth2` scheme, or of an OpenID Connect
//! provider's discovery document; the token kept in a file of mode 0600
//! under the configuration directory, per agent origin, and attached to
//! later calls to that agent when no `--bearer`/`--api-key` is given.

use std::time::{Duration, Instant};

use a2a_transport::HttpClient;
use a2a_types::{AgentCard, OAuthFlows, SecurityScheme};
use bytes::Bytes;
use serde_json::{json, Value};

use crate::agent::resolve_card;
use crate::args::Flow;
use crate::failure::{code, Failure};
use crate::run::Run;
use crate::tokens::{login_hint, now, store_file, write_secret};
use crate::wire::{Wire, WireOptions};

fn form(pairs: &[(&str, &str)]) -> String {
    fn enc(s: &str) -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    (b as char).to_string()
                }
                b' ' => "+".to_owned(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    }
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The token endpoints of a scheme.
struct Endpoints {
    token: String,
    device: Option<String>,
    scopes: Vec<String>,
    client_credentials: bool,
}

/// POSTs a form (or GETs when `body` is `None`) on a client that never
/// logs the exchange: it carries the client secret and the token.
async fn exchange(run: &Run, url: &str, body: Option<String>) -> Result<(u16, Value), Failure> {
    let quiet = Wire::new(&WireOptions {
        insecure: run.insecure,
        ..WireOptions::default()
    })
    .map_err(|e| Failure::local(code::INTERNAL, e))?;
    let request = match &body {
        Some(b) => http::Request::post(url)
            .header(
                http::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .header(http::header::ACCEPT, "application/json")
            .body(Bytes::from(b.clone())),
        None => http::Request::get(url)
            .header(http::header::ACCEPT, "application/json")
            .body(Bytes::new()),
    }
    .map_err(|e| Failure::usage(format!("{url}: {e}")))?;
    run.debug(&format!(
        "> {} {url} (body not logged: it carries credentials)",
        if body.is_some() { "POST" } else { "GET" }
    ));
    let response = quiet
        .send(request)
        .await
        .map_err(|e| Failure::local(code::UNREACHABLE, format!("{url}: {e}")))?;
    let status = response.status().as_u16();
    let bytes = crate::agent::read_all(response.into_body())
        .await
        .map_err(|e| Failure::local(code::UNREACHABLE, format!("{url}: {e}")))?;
    run.debug(&format!("< {status} from {url} (body not logged)"));
    let doc = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok((status, doc))
}

async fn endpoints(
    run: &Run,
    card: &AgentCard,
    scheme: Option<&str>,
) -> Result<(String, Endpoints), Failure> {
    let found = card.security_schemes.iter().find(|(name, s)| {
        scheme.is_none_or(|want| want == name.as_str())
            && matches!(
                s,
                SecurityScheme::OAuth2(_) | SecurityScheme::OpenIdConnect(_)
            )
    });
    let Some((name, s)) = found else {
        return Err(Failure::local(
            code::CREDENTIALS_MISSING,
            match scheme {
                Some(n) => format!("the card has no OAuth 2 or OpenID Connect scheme named {n:?}"),
                None => "the card declares no OAuth 2 or OpenID Connect scheme to log in with"
                    .to_owned(),
            },
        )
        .with_hint(login_hint(card).unwrap_or_else(|| "this agent needs no login".to_owned())));
    };
    let e = match s {
        SecurityScheme::OAuth2(o) => match &o.flows {
            Some(OAuthFlows::DeviceCode(d)) => Endpoints {
                token: d.token_url.clone(),
                device: Some(d.device_authorization_url.clone()),
                scopes: d.scopes.keys().cloned().collect(),
                client_credentials: false,
            },
            Some(OAuthFlows::ClientCredentials(c)) => Endpoints {
                token: c.token_url.clone(),
                device: None,
                scopes: c.scopes.keys().cloned().collect(),
                client_credentials: true,
            },
            _ => return Err(Failure::local(code::CREDENTIALS_MISSING, format!("scheme {name}: only the device-code and client-credentials flows can be used from a command line"))),
        },
        SecurityScheme::OpenIdConnect(o) => {
            let (status, doc) = exchange(run, &o.open_id_connect_url, None).await?;
            let token = doc.get("token_endpoint").and_then(Value::as_str);
            let (200, Some(token)) = (status, token) else {
                return Err(Failure::local(code::AUTH_FAILED, format!("the OpenID Connect discovery document at {} has no token_endpoint (HTTP {status})", o.open_id_connect_url)));
            };
            Endpoints {
                token: token.to_owned(),
                device: doc.get("device_authorization_endpoint").and_then(Value::as_str).map(str::to_owned),
                scopes: vec!["openid".to_owned()],
                client_credentials: doc
                    .get("grant_types_supported")
                    .and_then(Value::as_array)
                    .is_some_and(|g| g.iter().any(|g| g == "client_credentials")),
            }
        }
        _ => return Err(Failure::local(code::INTERNAL, "not an OAuth 2 or OpenID Connect scheme")),
    };
    Ok((name.clone(), e))
}

fn token_failure(status: u16, doc: &Value) -> Failure {
    let err = doc
        .get("error")
        .and_then(Value::as_str)
        .unwrap_or("no error code");
    let desc = doc
        .get("error_description")
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut f = Failure::local(
        code::AUTH_FAILED,
        format!("the token endpoint refused: {err} {desc} (HTTP {status})"),
    );
    f.a2a_code = Some(json!(status));
    f
}

/// `auth login`.
pub(crate) async fn login(
    run: &Run,
    flow: Option<Flow>,
    client_id: Option<&str>,
    client_secret: Option<&str>,
    scopes: &[String],
    scheme: Option<&str>,
) -> Result<(), Failure> {
    let reference = run.agent_card()?;
    let card = resolve_card(&run.wire, &reference).await?;
    let origin = card.from.origin(&card.card);
    let (scheme_name, ends) = endpoints(run, &card.card, scheme).await?;
    let client_id = client_id
        .map(str::to_owned)
        .or_else(|| std::env::var("A2ACLI_CLIENT_ID").ok())
        .ok_or_else(|| Failure::usage("auth login needs --client-id (or A2ACLI_CLIENT_ID)"))?;
    let secret = client_secret
        .map(str::to_owned)
        .or_else(|| std::env::var("A2ACLI_CLIENT_SECRET").ok());
    let scope = if scopes.is_empty() {
        ends.scopes.join(" ")
    } else {
        scopes.join(" ")
    };
    let flow = match flow {
        Some(f) => f,
        None if ends.client_credentials && secret.is_some() => Flow::ClientCredentials,
        None if ends.device.is_some() => Flow::DeviceCode,
        None if ends.client_credentials => Flow::ClientCredentials,
        None => {
            return Err(Failure::usage(
                "the scheme offers no flow this client can use; give --flow",
            ))
        }
    };
    let deadline = run.timeout.map(|t| Instant::now() + t);
    let token = match flow {
        Flow::ClientCredentials => {
            let secret = secret.ok_or_else(|| Failure::usage("the client-credentials flow needs --client-secret (or A2ACLI_CLIENT_SECRET, which keeps it out of the process table)"))?;
            let mut pairs = vec![
                ("grant_type", "client_credentials"),
                ("client_id", client_id.as_str()),
                ("client_secret", secret.as_str()),
            ];
            if !scope.is_empty() {
                pairs.push(("scope", scope.as_str()));
            }
            let (status, doc) = exchange(run, &ends.token, Some(form(&pairs))).await?;
            if status != 200 || doc.get("access_token").is_none() {
                return Err(token_failure(status, &doc));
            }
            doc
        }
        Flow::DeviceCode => {
            let device = ends
                .device
                .clone()
                .ok_or_else(|| Failure::usage("the scheme has no device authorization endpoint"))?;
            let mut pairs = vec![("client_id", client_id.as_str())];
            if !scope.is_empty() {
                pairs.push(("scope", scope.as_str()));
            }
            let (status, doc) = exchange(run, &device, Some(form(&pairs))).await?;
            let (Some(device_code), Some(user_code)) = (
                doc.get("device_code").and_then(Value::as_str),
                doc.get("user_code").and_then(Value::as_str),
            ) else {
                return Err(token_failure(status, &doc));
            };
            let uri = doc
                .get("verification_uri_complete")
                .or_else(|| doc.get("verification_uri"))
                .and_then(Value::as_str)
                .unwrap_or("(the provider gave no address)");
            crate::term::tell(&format!(
                "a2a: to log in, open {uri} and enter the code {user_code}"
            ));
            let mut interval = Duration::from_secs(
                doc.get("interval")
                    .and_then(Value::as_u64)
                    .unwrap_or(5)
                    .max(1),
            );
            let expires = Instant::now()
                + Duration::from_secs(doc.get("expires_in").and_then(Value::as_u64).unwrap_or(600));
            loop {
                tokio::time::sleep(interval).await;
                if Instant::now() > expires || deadline.is_some_and(|d| Instant::now() > d) {
                    return Err(Failure::local(
                        code::TIMEOUT,
                        "the device code expired before the login was approved",
                    ));
                }
                let pairs = [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                    ("device_code", device_code),
                    ("client_id", client_id.as_str()),
                ];
                let (status, doc) = exchange(run, &ends.token, Some(form(&pairs))).await?;
                if status == 200 && doc.get("access_token").is_some() {
                    break doc;
                }
                match doc.get("error").and_then(Value::as_str) {
                    Some("authorization_pending") => {}
                    Some("slow_down") => interval += Duration::from_secs(5),
                    _ => return Err(token_failure(status, &doc)),
                }
            }
        }
    };
    let access = token
        .get("access_token")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let expires_at = token
        .get("expires_in")
        .and_then(Value::as_u64)
        .map(|s| now() + s);
    let path = store_file(&origin).ok_or_else(|| {
        Failure::local(
            code::INTERNAL,
            "no configuration directory (set HOME or XDG_CONFIG_HOME)",
        )
    })?;
    let doc = json!({
        "origin": origin,
        "scheme": scheme_name,
        "tokenType": token.get("token_type").and_then(Value::as_str).unwrap_or("Bearer"),
        "accessToken": access,
        "expiresAt": expires_at,
    });
    write_secret(&path, doc.to_string().as_bytes())?;
    let shown = json!({"origin": origin, "scheme": scheme_name, "expiresAt": expires_at, "stored": path.display().to_string()});
    run.show(&shown, || {
        let mut r = crate::output::Record::default();
        r.field("Logged-In", &origin);
        r.field("Scheme", &scheme_name);
        r.field(
            "Flow",
            match flow {
                Flow::DeviceCode => "device-code",
                Flow::ClientCredentials => "client-credentials",
            },
        );
        r.field(
            "Expires-At",
            &expires_at.map_or_else(|| "unknown".to_owned(), |e| e.to_string()),
        );
        r.field("Stored", &path.display().to_string());
        r.lines()
    });
    Ok(())
}

/// `auth logout`: removes the stored token of the agent.
pub(crate) async fn logout(run: &Run) -> Result<(), Failure> {
    let card = resolve_card(&run.wire, &run.agent_card()?).await?;
    let origin = card.from.origin(&card.card);
    let path = store_file(&origin)
        .ok_or_else(|| Failure::local(code::INTERNAL, "no configuration directory"))?;
    let removed = std::fs::remove_file(&path).is_ok();
    let shown = json!({"origin": origin, "removed": removed});
    run.show(&shown, || {
        let mut r = crate::output::Record::default();
        r.field("Logged-Out", &origin);
        r.field(
            "Removed",
            if removed {
                "yes"
            } else {
                "no (no stored token)"
            },
        );
        r.lines()
    });
    Ok(())
}

/// `auth status`: whether a token is stored for the agent (never the
/// token itself).
pub(crate) async fn status(run: &Run) -> Result<(), Failure> {
    let card = resolve_card(&run.wire, &run.agent_card()?).await?;
    let origin = card.from.origin(&card.card);
    let path = store_file(&origin);
    let doc = path
        .as_ref()
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
    let expires = doc
        .as_ref()
        .and_then(|d| d.get("expiresAt"))
        .and_then(Value::as_u64);
    let state = match (&doc, expires) {
        (None, _) => "none",
        (Some(_), Some(e)) if e <= now() => "expired",
        (Some(_), _) => "stored",
    };
    let shown = json!({"origin": origin, "token": state, "expiresAt": expires});
    run.show(&shown, || {
        let mut r = crate::output::Record::default();
        r.field("Agent", &origin);
        r.field("Token", state);
        if let Some(e) = expires {
            r.field("Expires-At", &e.to_string());
        }
        if let Some(h) = login_hint(&card.card) {
            r.field("Schemes", &h);
        }
        r.lines()
    });
    Ok(())
}
