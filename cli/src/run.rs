//! One invocation's context: the effective settings read once, the
//! output format and delivery (a2a-cli spec §11: `text` or `json`,
//! JSONL under `--stream`), the HTTP client, the waiting controls
//! (§9.3), and the three ways of writing: the payload to standard output,
//! notes and debugging to standard error.

use std::time::Duration;

use serde::Serialize;

use crate::failure::{code, Failure};
use crate::settings::{duration, Settings};
use crate::term::{say, tell};
use crate::wire::{Redactor, Wire, WireOptions};

/// The invocation's context.
pub(crate) struct Run {
    /// The effective settings.
    pub(crate) settings: Settings,
    /// `-o json`.
    pub(crate) json: bool,
    /// `--stream` (explicit only).
    pub(crate) stream: bool,
    /// `--verbose`.
    pub(crate) verbose: bool,
    /// `--insecure`.
    pub(crate) insecure: bool,
    /// `--async`.
    pub(crate) no_wait: bool,
    /// `--timeout`.
    pub(crate) timeout: Option<Duration>,
    /// `--poll-interval`.
    pub(crate) poll_interval: Duration,
    /// The HTTP client.
    pub(crate) wire: Wire,
    /// What diagnostics redact.
    pub(crate) redactor: Redactor,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("json", &self.json)
            .finish_non_exhaustive()
    }
}

impl Run {
    /// The context for these settings.
    pub(crate) fn new(settings: Settings) -> Result<Run, Failure> {
        let json = match settings
            .get("output")
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            None | Some("text") => false,
            Some("json") => true,
            Some(other) => {
                return Err(Failure::usage(format!(
                    "--output {other:?}: expected text or json (JSON Lines is -o json --stream)"
                )))
            }
        };
        let timeout = settings
            .get("timeout")
            .map(|t| duration("timeout", t))
            .transpose()?;
        let poll_interval = duration(
            "poll-interval",
            settings.get("poll-interval").unwrap_or("2s"),
        )?;
        let debug = settings.flag("debug")?;
        let insecure = settings.flag("insecure")?;
        let mut redactor = Redactor::default();
        for secret in ["bearer", "api-key", "client-secret"] {
            if let Some(s) = settings.get(secret) {
                redactor.secret(s);
            }
        }
        for p in settings.all("svc-param") {
            if let Some((k, v)) = p.split_once(':') {
                let k = k.trim().to_ascii_lowercase();
                if [
                    "auth",
                    "token",
                    "key",
                    "secret",
                    "password",
                    "credential",
                    "cookie",
                    "session",
                ]
                .iter()
                .any(|w| k.contains(w))
                {
                    redactor.secret(v.trim());
                    redactor.header(&k);
                }
            }
        }
        if let Ok(Some(token)) = crate::tokens::any_stored_secret() {
            for t in token {
                redactor.secret(&t);
            }
        }
        let cert = settings.get("cert").map(str::to_owned);
        let key = settings.get("key").map(str::to_owned);
        let client_cert = match (cert, key) {
            (Some(c), Some(k)) => Some((c, k)),
            (None, None) => None,
            _ => return Err(Failure::usage("--cert and --key go together (PEM files)")),
        };
        let wire = Wire::new(&WireOptions {
            debug,
            insecure,
            client_cert,
            redactor: redactor.clone(),
        })
        .map_err(|e| Failure::local(code::USAGE, e))?;
        if insecure {
            tell("a2a: WARNING: --insecure: TLS certificates are NOT verified; use it for development only");
        }
        Ok(Run {
            json,
            stream: settings.stream,
            verbose: settings.flag("verbose")?,
            insecure,
            no_wait: settings.flag("async")?,
            timeout,
            poll_interval,
            wire,
            redactor,
            settings,
        })
    }

    /// `--agent-card`, required.
    pub(crate) fn agent_card(&self) -> Result<String, Failure> {
        self.settings.get("agent-card").map(str::to_owned).ok_or_else(|| {
            Failure::usage("no agent: give -a/--agent-card (a host, a card URL or a file), or set A2ACLI_AGENT_CARD")
                .with_hint("a2a card get -a http://127.0.0.1:8080")
        })
    }

    /// A note on standard error.
    pub(crate) fn note(&self, line: &str) {
        tell(&format!("a2a: note: {}", self.redactor.text(line)));
    }

    /// A warning on standard error.
    pub(crate) fn warn(&self, line: &str) {
        tell(&format!("a2a: warning: {}", self.redactor.text(line)));
    }

    /// A `--debug` line on standard error.
    pub(crate) fn debug(&self, line: &str) {
        self.wire.debug(line);
    }

    /// One JSON document (or one JSONL line) on standard output.
    pub(crate) fn json_line<T: Serialize + ?Sized>(&self, value: &T) {
        match a2a_types::to_vec(value).map(String::from_utf8) {
            Ok(Ok(text)) => say(&text),
            _ => tell("a2a: the answer could not be written as JSON"),
        }
    }

    /// `text` lines on standard output.
    pub(crate) fn lines(&self, lines: &[String]) {
        for l in lines {
            say(l);
        }
    }

    /// The payload: JSON under `-o json`, else the lines.
    pub(crate) fn show<T: Serialize + ?Sized>(
        &self,
        value: &T,
        lines: impl FnOnce() -> Vec<String>,
    ) {
        if self.json {
            self.json_line(value);
        } else {
            self.lines(&lines());
        }
    }
}
