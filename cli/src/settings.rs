//! Settings and where each came from (a2a-cli spec §6.5, §7.2, §8.3):
//! an explicit flag, then the environment (`A2ACLI_<FLAG>`), then a local
//! `.env` (the first found walking up from the working directory, or the
//! file `--config` names), then the global `~/.config/a2a-cli/.env`, then
//! the built-in default. `--stream`, `--help` and `--version` are
//! flags only. Nothing here is ever written: configuration is edited by
//! hand, and session state (task and context ids) is never stored.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The options given as flags: setting name to values, in order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Flags {
    values: BTreeMap<&'static str, Vec<String>>,
    /// `--stream` (never from the environment or a file, §11.3).
    pub(crate) stream: bool,
}

impl Flags {
    /// Records `--<key> value`.
    pub(crate) fn set(&mut self, key: &str, value: String) {
        if let Some(s) = SETTINGS.iter().find(|s| s.name == key) {
            self.values.entry(s.name).or_default().push(value);
        }
    }

    /// The last value given for `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.values
            .get(key)
            .and_then(|v| v.last())
            .map(String::as_str)
    }
}

/// One setting: its name (the long flag without `--`), its environment
/// variable, whether it repeats, whether it is a secret, and its built-in
/// default as `config show` and `--help` describe it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setting {
    pub(crate) name: &'static str,
    pub(crate) repeats: bool,
    pub(crate) secret: bool,
    pub(crate) default: Option<&'static str>,
    pub(crate) describe_default: &'static str,
}

const fn setting(
    name: &'static str,
    default: Option<&'static str>,
    about: &'static str,
) -> Setting {
    Setting {
        name,
        repeats: false,
        secret: false,
        default,
        describe_default: about,
    }
}

/// Every setting, alphabetically.
pub(crate) const SETTINGS: &[Setting] = &[
    setting(
        "a2a-version",
        None,
        "the highest version both speak, never below 1.0",
    ),
    setting(
        "agent-card",
        None,
        "none (required by commands that talk to an agent)",
    ),
    Setting {
        secret: true,
        ..setting("api-key", None, "none")
    },
    setting(
        "async",
        Some("false"),
        "false: wait for a terminal or interrupted state",
    ),
    Setting {
        secret: true,
        ..setting("bearer", None, "none")
    },
    setting("cert", None, "none (no client certificate)"),
    setting(
        "client-id",
        None,
        "none (OAuth 2 client credentials: with client-secret)",
    ),
    Setting {
        secret: true,
        ..setting("client-secret", None, "none")
    },
    setting(
        "config",
        None,
        "the local .env found walking up from the working directory",
    ),
    setting("context-id", None, "none"),
    setting("debug", Some("false"), "false"),
    Setting {
        repeats: true,
        ..setting("extension", None, "none")
    },
    setting("history", None, "the agent's default"),
    setting(
        "insecure",
        Some("false"),
        "false: TLS certificates are verified",
    ),
    Setting {
        secret: true,
        ..setting("key", None, "none")
    },
    setting("message-id", None, "a fresh id per invocation"),
    setting("metadata", None, "none"),
    setting("output", Some("text"), "text"),
    setting("poll-interval", Some("2s"), "2s"),
    Setting {
        repeats: true,
        secret: true,
        ..setting("svc-param", None, "none")
    },
    setting("task-id", None, "none"),
    setting("tenant", None, "the selected interface's tenant"),
    setting("timeout", None, "none: wait as long as the task runs"),
    setting("token-url", None, "the card's clientCredentials tokenUrl"),
    Setting {
        repeats: true,
        ..setting("transport", None, "the card's supportedInterfaces order")
    },
    setting("verbose", Some("false"), "false: concise"),
];

/// The environment variable of a setting: `A2ACLI_` and the flag in
/// upper snake case.
pub(crate) fn env_name(name: &str) -> String {
    format!("A2ACLI_{}", name.to_ascii_uppercase().replace('-', "_"))
}

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// `--<name>` on the command line.
    Flag,
    /// The environment variable.
    Env,
    /// A `.env` file.
    File(PathBuf),
    /// The built-in default.
    Default,
}

impl Source {
    /// For `config show` and `--debug`.
    pub(crate) fn describe(&self, name: &str) -> String {
        match self {
            Source::Flag => format!("flag --{name}"),
            Source::Env => format!("environment {}", env_name(name)),
            Source::File(p) => format!("file {}", p.display()),
            Source::Default => "built-in default".to_owned(),
        }
    }
}

/// A resolved value.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub(crate) values: Vec<String>,
    pub(crate) source: Source,
}

/// The effective settings.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    resolved: BTreeMap<&'static str, Resolved>,
    /// `--stream`.
    pub(crate) stream: bool,
    /// The files read, in precedence order (local first).
    pub(crate) files: Vec<PathBuf>,
}

/// The directory of the global configuration and the token store:
/// `$XDG_CONFIG_HOME/a2a-cli`, else `~/.config/a2a-cli`.
pub(crate) fn config_dir() -> Option<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CONFIG_HOME").filter(|x| !x.is_empty()) {
        return Some(PathBuf::from(x).join("a2a-cli"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".config").join("a2a-cli"))
}

/// Reads a dotenv file: `KEY=value` lines, `#` comments, optional
/// `export `, values optionally in single or double quotes.
pub(crate) fn read_dotenv(path: &Path) -> Result<BTreeMap<String, String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| format!("{}:{}: expected KEY=value", path.display(), n + 1))?;
        let v = v.trim();
        let v = if v.len() >= 2
            && ((v.starts_with('"') && v.ends_with('"'))
                || (v.starts_with('\'') && v.ends_with('\'')))
        {
            &v[1..v.len() - 1]
        } else {
            v
        };
        out.insert(k.trim().to_owned(), v.to_owned());
    }
    Ok(out)
}

/// The local `.env`: the first found walking up from `dir`.
fn find_local(dir: &Path) -> Option<PathBuf> {
    let mut here = Some(dir);
    while let Some(d) = here {
        let candidate = d.join(".env");
        if candidate.is_file() {
            return Some(candidate);
        }
        here = d.parent();
    }
    None
}

impl Settings {
    /// Resolves every setting from the flags, the environment and the
    /// files.
    pub(crate) fn resolve(flags: &Flags) -> Result<Settings, String> {
        let env = |name: &str| std::env::var(env_name(name)).ok().filter(|v| !v.is_empty());
        // `--config` itself: flag, then environment.
        let explicit = flags
            .get("config")
            .map(str::to_owned)
            .or_else(|| env("config"));
        let local = match &explicit {
            Some(p) => {
                let p = PathBuf::from(p);
                if !p.is_file() {
                    return Err(format!("--config {}: no such file", p.display()));
                }
                Some(p)
            }
            None => std::env::current_dir().ok().and_then(|d| find_local(&d)),
        };
        let global = config_dir().map(|d| d.join(".env")).filter(|p| p.is_file());
        let mut files = Vec::new();
        let mut tables = Vec::new();
        for path in local.into_iter().chain(global) {
            tables.push((path.clone(), read_dotenv(&path)?));
            files.push(path);
        }
        let mut resolved = BTreeMap::new();
        for s in SETTINGS {
            let split = |v: &str| -> Vec<String> {
                if s.repeats {
                    v.split(',')
                        .map(str::trim)
                        .filter(|x| !x.is_empty())
                        .map(str::to_owned)
                        .collect()
                } else {
                    vec![v.to_owned()]
                }
            };
            let r = if let Some(v) = flags.values.get(s.name) {
                Resolved {
                    values: if s.repeats {
                        v.clone()
                    } else {
                        v.last().cloned().into_iter().collect()
                    },
                    source: Source::Flag,
                }
            } else if let Some(v) = env(s.name) {
                Resolved {
                    values: split(&v),
                    source: Source::Env,
                }
            } else if let Some((path, v)) = tables
                .iter()
                .find_map(|(p, t)| t.get(&env_name(s.name)).map(|v| (p, v)))
            {
                Resolved {
                    values: split(v),
                    source: Source::File(path.clone()),
                }
            } else {
                Resolved {
                    values: s.default.map(str::to_owned).into_iter().collect(),
                    source: Source::Default,
                }
            };
            resolved.insert(s.name, r);
        }
        if let Some(p) = &explicit {
            resolved.insert(
                "config",
                Resolved {
                    values: vec![p.clone()],
                    source: if flags.get("config").is_some() {
                        Source::Flag
                    } else {
                        Source::Env
                    },
                },
            );
        } else if let Some(p) = files
            .first()
            .filter(|p| Some(*p) != config_dir().map(|d| d.join(".env")).as_ref())
        {
            resolved.insert(
                "config",
                Resolved {
                    values: vec![p.display().to_string()],
                    source: Source::Default,
                },
            );
        }
        Ok(Settings {
            resolved,
            stream: flags.stream,
            files,
        })
    }

    /// The value of a single-valued setting.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.resolved
            .get(name)
            .and_then(|r| r.values.last())
            .map(String::as_str)
    }

    /// Every value of a repeatable setting, in order.
    pub(crate) fn all(&self, name: &str) -> &[String] {
        self.resolved
            .get(name)
            .map(|r| r.values.as_slice())
            .unwrap_or_default()
    }

    /// Where the setting came from.
    pub(crate) fn source(&self, name: &str) -> Source {
        self.resolved
            .get(name)
            .map(|r| r.source.clone())
            .unwrap_or(Source::Default)
    }

    /// A boolean setting (`true`, `1`, `yes` are true).
    pub(crate) fn flag(&self, name: &str) -> Result<bool, String> {
        match self.get(name).map(str::to_ascii_lowercase).as_deref() {
            None | Some("false" | "0" | "no" | "off") => Ok(false),
            Some("true" | "1" | "yes" | "on") => Ok(true),
            Some(other) => Err(format!(
                "{}: {other:?} is not a boolean (true or false; from {})",
                name,
                self.source(name).describe(name)
            )),
        }
    }

    /// Every setting with its value (secrets redacted) and source, for
    /// `config show`.
    pub(crate) fn show(&self) -> Vec<(&'static str, String, Option<String>, Source)> {
        SETTINGS
            .iter()
            .map(|s| {
                let r = self.resolved.get(s.name);
                let values = r.map(|r| r.values.clone()).unwrap_or_default();
                let value = if values.is_empty() {
                    None
                } else if s.secret {
                    Some(crate::wire::REDACTED.to_owned())
                } else {
                    Some(values.join(","))
                };
                let source = r.map(|r| r.source.clone()).unwrap_or(Source::Default);
                (s.name, env_name(s.name), value, source)
            })
            .map(|(n, _, v, s)| (n, describe(n), v, s))
            .collect()
    }
}

fn describe(name: &str) -> String {
    SETTINGS
        .iter()
        .find(|s| s.name == name)
        .map(|s| s.describe_default.to_owned())
        .unwrap_or_default()
}

/// A duration: `500ms`, `2s`, `1.5s`, `3m`, or a bare number of seconds.
pub(crate) fn duration(name: &str, text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let (num, unit) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    };
    num.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0 && *v * unit < 1.0e9)
        .map(|v| std::time::Duration::from_secs_f64(v * unit))
        .ok_or_else(|| {
            format!("--{name} {text:?}: expected a positive duration such as 500ms, 2s or 1m")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_dotenv() {
        assert_eq!(duration("t", "500ms").unwrap().as_millis(), 500);
        assert_eq!(duration("t", "2").unwrap().as_secs(), 2);
        assert_eq!(duration("t", "1m").unwrap().as_secs(), 60);
        assert!(duration("t", "0s").is_err());
        assert!(duration("t", "soon").is_err());
        let dir = std::env::temp_dir().join(format!("a2a-cli-dotenv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(".env");
        std::fs::write(
            &p,
            "# c\nexport A2ACLI_OUTPUT=json\nA2ACLI_BEARER=\"t k\"\n\n",
        )
        .unwrap();
        let t = read_dotenv(&p).unwrap();
        assert_eq!(t["A2ACLI_OUTPUT"], "json");
        assert_eq!(t["A2ACLI_BEARER"], "t k");
        std::fs::write(&p, "nonsense\n").unwrap();
        assert!(read_dotenv(&p).is_err());
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(env_name("agent-card"), "A2ACLI_AGENT_CARD");
    }
}
