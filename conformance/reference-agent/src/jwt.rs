//! The `--jwt-*` flags: bearer JWTs validated by a2a-signing's `JwtAuth`
//! against a JWKS file, an allow-listed JWKS URL, or the issuer's OpenID
//! Connect discovery document.

use std::time::SystemTime;

use a2a_hyper::HyperClient;
use a2a_signing::jwt::{JwksSource, JwtAuth, JwtConfig};
use a2a_signing::{JwkSet, RemoteJwks};
use a2a_types::AgentCard;

/// Where `--jwt-jwks` points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JwksArg {
    /// A file, read at start.
    File(JwkSet),
    /// An `http://` or `https://` URL, fetched (and so allow-listed).
    Url(String),
}

/// The `--jwt-*` flags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct JwtOptions {
    /// `--jwt-issuer`: the `iss` tokens must carry; without `--jwt-jwks`,
    /// where the keys are discovered.
    pub issuer: Option<String>,
    /// `--jwt-jwks`.
    pub jwks: Option<JwksArg>,
    /// `--jwt-audience`, in order.
    pub audiences: Vec<String>,
    /// `--jwt-allow`: URLs a discovery document's `jwks_uri` may name.
    pub allow: Vec<String>,
}

/// The flags [`JwtOptions::set`] reads.
pub const FLAGS: [&str; 4] = [
    "--jwt-issuer",
    "--jwt-jwks",
    "--jwt-audience",
    "--jwt-allow",
];

fn is_url(text: &str) -> bool {
    text.starts_with("http://") || text.starts_with("https://")
}

impl JwtOptions {
    /// Whether any `--jwt-*` flag was given.
    pub fn enabled(&self) -> bool {
        *self != JwtOptions::default()
    }

    /// Reads `value` of `flag` (one of [`FLAGS`]).
    pub fn set(&mut self, flag: &str, value: String) -> Result<(), String> {
        match flag {
            "--jwt-issuer" => {
                if !is_url(&value) {
                    return Err(format!("--jwt-issuer {value:?} is not an http(s) URL"));
                }
                self.issuer = Some(value);
            }
            "--jwt-jwks" if is_url(&value) => self.jwks = Some(JwksArg::Url(value)),
            "--jwt-jwks" => {
                let text = std::fs::read(&value).map_err(|e| format!("--jwt-jwks {value}: {e}"))?;
                let keys =
                    JwkSet::from_json(&text).map_err(|e| format!("--jwt-jwks {value}: {e}"))?;
                if keys.keys.iter().any(|k| k.d.is_some()) {
                    return Err(format!(
                        "--jwt-jwks {value}: holds a private key; give the public JWKS"
                    ));
                }
                self.jwks = Some(JwksArg::File(keys));
            }
            "--jwt-audience" if value.is_empty() => {
                return Err("--jwt-audience needs a non-empty value".to_owned())
            }
            "--jwt-audience" => self.audiences.push(value),
            "--jwt-allow" if !is_url(&value) => {
                return Err(format!("--jwt-allow {value:?} is not an http(s) URL"))
            }
            "--jwt-allow" => self.allow.push(value),
            other => return Err(format!("{other} is not a --jwt flag")),
        }
        Ok(())
    }

    /// Checks that the flags given make a configuration: an issuer and an
    /// audience whenever any is given.
    pub fn check(&self) -> Result<(), String> {
        if !self.enabled() {
            return Ok(());
        }
        if self.issuer.is_none() {
            return Err("the --jwt-* flags need --jwt-issuer".to_owned());
        }
        if self.audiences.is_empty() {
            return Err("the --jwt-* flags need --jwt-audience".to_owned());
        }
        Ok(())
    }

    /// The authenticator for `card` (whose `securityRequirements` name the
    /// scheme `scheme`), when the flags ask for one.
    pub fn authenticator(&self, scheme: &str, card: &AgentCard) -> Option<JwtAuth> {
        let issuer = self.issuer.clone()?;
        let mut audiences = self.audiences.iter();
        let mut config = JwtConfig::new(scheme, issuer, audiences.next()?.clone()).with_card(card);
        for aud in audiences {
            config = config.with_audience(aud.clone());
        }
        let source = match &self.jwks {
            Some(JwksArg::File(keys)) => JwksSource::Local(keys.clone()),
            Some(JwksArg::Url(url)) => JwksSource::Remote(RemoteJwks::new([url.clone()])),
            None => JwksSource::Discovery(RemoteJwks::new(self.allow.clone())),
        };
        let auth = JwtAuth::new(config, source, SystemTime::now);
        Some(match self.jwks {
            Some(JwksArg::File(_)) => auth,
            _ => auth.with_client(HyperClient::new()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_make_a_configuration() {
        let mut o = JwtOptions::default();
        assert!(!o.enabled());
        assert!(o.check().is_ok());
        o.set("--jwt-audience", "a2a".into()).unwrap();
        assert!(o.check().unwrap_err().contains("--jwt-issuer"));
        assert!(o.set("--jwt-issuer", "idp.example".into()).is_err());
        o.set("--jwt-issuer", "https://idp.example".into()).unwrap();
        assert!(o.check().is_ok());
        // No --jwt-jwks: discovery, with the allow-list.
        o.set("--jwt-allow", "https://keys.example/jwks".into())
            .unwrap();
        assert!(o.set("--jwt-allow", "keys".into()).is_err());
        let auth = o.authenticator("bearer", &AgentCard::default()).unwrap();
        assert!(format!("{auth:?}").contains("Discovery"), "{auth:?}");
        o.set("--jwt-jwks", "https://idp.example/jwks".into())
            .unwrap();
        let auth = o.authenticator("bearer", &AgentCard::default()).unwrap();
        assert!(format!("{auth:?}").contains("Remote"), "{auth:?}");
        assert!(o
            .set("--jwt-jwks", "/nonexistent/jwks.json".into())
            .is_err());
        assert!(o.set("--jwt-audience", String::new()).is_err());
    }
}
