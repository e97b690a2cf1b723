//! Failures and how they are reported (a2a-cli spec §11.4, §11.6,
//! Appendix B and D): a protocol failure carries the A2A error's name, a
//! CLI-local one an `A2ACLI_ERR_*` code, each with its exit status.

use a2a_transport::client::{www_authenticate, ClientFailure};
use a2a_types::{A2aError, ErrorKind};
use serde_json::{json, Value};

/// The CLI-local codes of Appendix D, with their exit statuses.
pub(crate) mod code {
    /// Invalid arguments, flags, or flag combination.
    pub(crate) const USAGE: &str = "A2ACLI_ERR_USAGE";
    /// The `--agent-card` reference could not be resolved to a card.
    pub(crate) const CARD_NOT_FOUND: &str = "A2ACLI_ERR_CARD_NOT_FOUND";
    /// A card fetched or read but malformed or schema-invalid.
    pub(crate) const CARD_INVALID: &str = "A2ACLI_ERR_CARD_INVALID";
    /// The agent could not be reached.
    pub(crate) const UNREACHABLE: &str = "A2ACLI_ERR_UNREACHABLE";
    /// Credentials the agent's scheme requires were not supplied.
    pub(crate) const CREDENTIALS_MISSING: &str = "A2ACLI_ERR_CREDENTIALS_MISSING";
    /// Credentials supplied but rejected.
    pub(crate) const AUTH_FAILED: &str = "A2ACLI_ERR_AUTH_FAILED";
    /// `--timeout` expired before a terminal state.
    pub(crate) const TIMEOUT: &str = "A2ACLI_ERR_TIMEOUT";
    /// Anything else the tool cannot classify.
    pub(crate) const INTERNAL: &str = "A2ACLI_ERR_INTERNAL";

    /// The exit status of a CLI-local code.
    pub(crate) fn exit(code: &str) -> u8 {
        match code {
            USAGE => 2,
            CARD_NOT_FOUND | UNREACHABLE => 3,
            CREDENTIALS_MISSING | AUTH_FAILED => 4,
            TIMEOUT => 5,
            _ => 1,
        }
    }
}

/// A failure of the invocation.
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    /// The A2A error name or an `A2ACLI_ERR_*` code.
    pub(crate) code: String,
    /// What happened.
    pub(crate) message: String,
    /// What to do about it.
    pub(crate) hint: Option<String>,
    /// The underlying code: the A2A error code, or the HTTP status of a
    /// plain HTTP error.
    pub(crate) a2a_code: Option<Value>,
    /// The exit status.
    pub(crate) exit: u8,
    /// The result was already printed (a conformance report): under
    /// `-o json` the envelope goes to stderr, keeping stdout one document.
    pub(crate) printed: bool,
}

impl Failure {
    /// A CLI-local failure.
    pub(crate) fn local(code: &str, message: impl Into<String>) -> Failure {
        Failure {
            code: code.to_owned(),
            message: message.into(),
            hint: None,
            a2a_code: None,
            exit: code::exit(code),
            printed: false,
        }
    }

    /// A usage error.
    pub(crate) fn usage(message: impl Into<String>) -> Failure {
        Failure::local(code::USAGE, message).with_hint("a2a --help")
    }

    /// The same with a hint.
    pub(crate) fn with_hint(mut self, hint: impl Into<String>) -> Failure {
        self.hint = Some(hint.into());
        self
    }

    /// The failure an A2A call ended in. `credentials` says whether the
    /// caller supplied any, to tell missing from rejected ones apart.
    pub(crate) fn from_a2a(e: &A2aError, credentials: bool) -> Failure {
        match ClientFailure::of(e) {
            Some(ClientFailure::Connection) => {
                return Failure::local(code::UNREACHABLE, e.message().to_owned()).with_hint(
                    "check the agent's address and that it is running; --debug shows each request",
                );
            }
            Some(ClientFailure::Timeout) => {
                return Failure::local(code::TIMEOUT, e.message().to_owned()).with_hint(
                    "raise --timeout, or use --async and poll with `a2a task get --wait TASK_ID`",
                );
            }
            _ => {}
        }
        if e.kind() == ErrorKind::Unauthenticated || e.received_status() == Some(401) {
            let challenge = www_authenticate(e)
                .map(|c| format!(" (challenge: {c})"))
                .unwrap_or_default();
            let mut f = if credentials {
                Failure::local(
                    code::AUTH_FAILED,
                    format!(
                        "the agent rejected the credentials: {}{challenge}",
                        e.message()
                    ),
                )
                .with_hint("check the token or key; `a2a auth login` obtains a new OAuth token")
            } else {
                Failure::local(code::CREDENTIALS_MISSING, format!("the agent requires credentials: {}{challenge}", e.message()))
                    .with_hint("pass --bearer TOKEN or --api-key KEY (or A2ACLI_BEARER / A2ACLI_API_KEY), or run `a2a auth login`")
            };
            f.a2a_code = Some(json!(401));
            return f;
        }
        if e.kind() == ErrorKind::PermissionDenied || e.received_status() == Some(403) {
            let mut f = Failure::local(
                code::AUTH_FAILED,
                format!("the agent refused access: {}", e.message()),
            );
            f.a2a_code = Some(json!(403));
            return f;
        }
        if ClientFailure::of(e) == Some(ClientFailure::HttpStatus) {
            let mut f = Failure::local(code::INTERNAL, e.message().to_owned());
            f.a2a_code = e.received_status().map(|s| json!(s));
            return f
                .with_hint("the server answered without an A2A error; --debug shows the exchange");
        }
        if e.is_client_failure() {
            return Failure::local(code::INTERNAL, e.message().to_owned())
                .with_hint("--debug shows the exchange");
        }
        let name = match e.kind() {
            ErrorKind::Unknown => format!("A2AError({})", e.code()),
            k => k.name().to_owned(),
        };
        let hint = match e.kind() {
            ErrorKind::TaskNotFound => Some(
                "list the tasks you can see with `a2a task list`; --debug shows the protocol error"
                    .to_owned(),
            ),
            ErrorKind::TaskNotCancelable => Some(
                "the task has already finished; `a2a task get TASK_ID` shows its state".to_owned(),
            ),
            ErrorKind::VersionNotSupported => {
                Some("pick a version the agent's card lists with --a2a-version".to_owned())
            }
            ErrorKind::PushNotificationNotSupported => {
                Some("the agent's card does not declare push notifications".to_owned())
            }
            _ => Some("--debug shows the protocol exchange".to_owned()),
        };
        Failure {
            code: name,
            message: e.message().to_owned(),
            hint,
            a2a_code: Some(json!(e.code().0)),
            exit: 1,
            printed: false,
        }
    }

    /// The Appendix B envelope.
    pub(crate) fn envelope(&self) -> Value {
        json!({
            "error": {
                "code": self.code,
                "message": self.message,
                "hint": self.hint,
                "a2aCode": self.a2a_code,
            }
        })
    }

    /// The `text` form: labeled fields, for standard error.
    pub(crate) fn lines(&self) -> Vec<String> {
        let mut out = vec![
            format!("Error: {}", self.code),
            format!("Message: {}", one_line(&self.message)),
        ];
        if let Some(h) = &self.hint {
            out.push(format!("Hint: {}", one_line(h)));
        }
        if let Some(c) = &self.a2a_code {
            out.push(format!("A2A-Code: {c}"));
        }
        out
    }
}

/// `text` keeps one field per line.
pub(crate) fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::usage(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_errors_keep_their_name_and_local_ones_their_code() {
        let f = Failure::from_a2a(&A2aError::task_not_found("t"), false);
        assert_eq!(f.code, "TaskNotFoundError");
        assert_eq!(f.exit, 1);
        assert_eq!(f.envelope()["error"]["a2aCode"], -32001);
        let f = Failure::from_a2a(&ClientFailure::Connection.error("refused"), false);
        assert_eq!((f.code.as_str(), f.exit), (code::UNREACHABLE, 3));
        let f = Failure::from_a2a(&ClientFailure::Timeout.error("slow"), false);
        assert_eq!((f.code.as_str(), f.exit), (code::TIMEOUT, 5));
        assert_eq!(code::exit(code::CREDENTIALS_MISSING), 4);
        assert_eq!(Failure::usage("x").exit, 2);
        let lines = Failure::usage("a\nb").lines();
        assert_eq!(lines[1], "Message: a b");
    }
}
