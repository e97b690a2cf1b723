//! The token store of `auth login` (a2a-cli spec §8.3, §12.2): one file
//! per agent origin under `~/.config/a2a-cli/credentials`, the directory
//! 0700 and each file 0600, holding the access token and its expiry.
//! Nothing else is ever written, and never a task or context id.

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use a2a_types::{AgentCard, SecurityScheme};
use serde_json::Value;

use crate::failure::{code, Failure};
use crate::settings::config_dir;

/// The token store's directory.
pub(crate) fn store_dir() -> Option<PathBuf> {
    config_dir().map(|d| d.join("credentials"))
}

pub(crate) fn store_file(origin: &str) -> Option<PathBuf> {
    let name: String = origin
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    store_dir().map(|d| d.join(format!("{name}.json")))
}

pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

/// A stored token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stored {
    /// Usable: the token, and the file it came from.
    Token(String, PathBuf),
    /// Past its expiry.
    Expired,
}

/// The stored token for `origin`, if any.
pub(crate) fn stored_token(origin: &str) -> Option<Stored> {
    let path = store_file(origin)?;
    let doc: Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    if doc
        .get("expiresAt")
        .and_then(Value::as_u64)
        .is_some_and(|exp| exp <= now())
    {
        return Some(Stored::Expired);
    }
    let token = doc.get("accessToken")?.as_str()?.to_owned();
    Some(Stored::Token(token, path))
}

/// Every stored token, so that diagnostics can redact them.
pub(crate) fn any_stored_secret() -> Result<Option<Vec<String>>, String> {
    let Some(dir) = store_dir() else {
        return Ok(None);
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for e in entries.flatten() {
        if let Ok(bytes) = std::fs::read(e.path()) {
            if let Ok(doc) = serde_json::from_slice::<Value>(&bytes) {
                if let Some(t) = doc.get("accessToken").and_then(Value::as_str) {
                    out.push(t.to_owned());
                }
            }
        }
    }
    Ok(Some(out))
}

/// The hint for an agent that wants credentials, from its schemes.
pub(crate) fn login_hint(card: &AgentCard) -> Option<String> {
    let mut hints = Vec::new();
    for (name, s) in &card.security_schemes {
        hints.push(match s {
            SecurityScheme::OAuth2(_) | SecurityScheme::OpenIdConnect(_) => {
                format!("a2a auth login -a <agent> --scheme {name}")
            }
            SecurityScheme::HttpAuth(_) => "--bearer <token> (or A2ACLI_BEARER)".to_owned(),
            SecurityScheme::ApiKey(_) => "--api-key <key> (or A2ACLI_API_KEY)".to_owned(),
            SecurityScheme::MutualTls(_) => "--cert <pem> --key <pem>".to_owned(),
        });
    }
    (!hints.is_empty()).then(|| format!("the agent's card asks for: {}", hints.join(" or ")))
}

/// Writes a secret file: the directory 0700, the file 0600 (§8.3).
pub(crate) fn write_secret(path: &std::path::Path, bytes: &[u8]) -> Result<(), Failure> {
    let fail =
        |e: std::io::Error| Failure::local(code::INTERNAL, format!("{}: {e}", path.display()));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(fail)?;
        }
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut f = options.open(path).map_err(fail)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(fail)?;
    }
    std::io::Write::write_all(&mut f, bytes).map_err(fail)
}
