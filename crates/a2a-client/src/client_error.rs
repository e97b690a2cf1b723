//! How the client side reports what is not an agent's answer (spec 3.3.2,
//! 7.4): failures of the HTTP stack, oversized or truncated responses, and
//! the authentication challenges of a `401`.
//!
//! Every client-side method answers [`A2aError`], the one error type of the
//! [`A2aService`](a2a_wire::A2aService) trait, so these failures travel in it
//! too, as a kind of their own so that a caller (or a resilient stream)
//! can tell "the call never completed" from "the agent said":
//!
//! - **Client failures** are [`ErrorKind::Client`] errors
//!   ([`A2aError::is_client_failure`]), whose code is the client-local
//!   [`ErrorCode::CLIENT`](a2a_types::ErrorCode::CLIENT) (`-32100`), never
//!   an agent's `InternalError (-32603)`. They carry a
//!   `google.rpc.ErrorInfo` detail in the domain [`CLIENT_ERROR_DOMAIN`]
//!   whose `reason` names the [`ClientFailure`]; [`ClientFailure::of`]
//!   reads it back. Their `Display` is one line: what happened, the cause
//!   and a hint (`no answer from the agent: connection failed: ...
//!   Connection refused (os error 111); hint: is the agent running, and is
//!   this its URL?`), and so is their `{:?}` (`ClientError: ...`), what
//!   `?` in `main` prints. An agent's own errors keep their kinds: code
//!   that matched `ErrorKind::Internal` for an agent's internal error still
//!   does, and no longer catches the client's failures with it.
//!   `docs/decisions.md` says why this shape was chosen.
//! - **Authentication challenges** (`WWW-Authenticate`, RFC 9110 section
//!   11.6.1) are kept in the metadata of the error's A2A `ErrorInfo` under
//!   [`WWW_AUTHENTICATE_KEY`]: several header fields are joined with `", "`,
//!   which RFC 9110 section 5.3 makes equivalent to one field.
//!   [`www_authenticate`] reads them back. Metadata was chosen over a new
//!   detail type because it survives both bindings' error conversions and
//!   any code that only looks at `ErrorInfo`.

use a2a_types::{A2aError, ErrorKind, RpcStatus};

pub use a2a_wire::ClientFailure;

pub use a2a_types::CLIENT_ERROR_DOMAIN;

/// The metadata key, in the A2A `ErrorInfo` of an
/// [`ErrorKind::Unauthenticated`] error, that holds the response's
/// `WWW-Authenticate` challenges (spec 3.3.2, 7.4).
pub const WWW_AUTHENTICATE_KEY: &str = "wwwAuthenticate";

/// The error of an HTTP error `status` whose body holds no A2A error,
/// from `from` (the URL asked): a [`ClientFailure::HttpStatus`], except
/// `401` and `403`, which are the authentication and authorization errors
/// of both bindings whoever sent them (spec 3.3.2).
pub(crate) fn status_without_error(status: u16, from: &str) -> A2aError {
    if matches!(status, 401 | 403) {
        return A2aError::from_status(status, None);
    }
    let reason = http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .map(|r| format!(" {r}"))
        .unwrap_or_default();
    let message = format!(
        "HTTP {status}{reason} from {from}, without a readable A2A error in the body: \
         is this the agent's URL?"
    );
    let status = RpcStatus {
        code: status,
        status: String::new(),
        message,
        details: Vec::new(),
    };
    ClientFailure::HttpStatus.mark(A2aError::from_status(status.code, Some(status)))
}

#[cfg(feature = "grpc")]
/// What to try when a gRPC call could not be sent: a host that speaks
/// only HTTP/1.1 drops or refuses HTTP/2 with prior knowledge, which the
/// HTTP client reports as a lost connection or a protocol error.
const GRPC_HINT: &str = "is the agent running, and does it serve gRPC there? gRPC needs HTTP/2 (h2c for http://, TLS with ALPN h2 for https://), and an HTTP/1.1-only host cannot answer it";

/// A failure of the host's HTTP client on a gRPC call: as
/// `From<HttpError>` for `A2aError`, with the gRPC hint for a lost connection or a
/// protocol error.
#[cfg(feature = "grpc")]
pub(crate) fn grpc_send_failed(e: a2a_wire::HttpError) -> A2aError {
    let (failure, message) = ClientFailure::of_http_error(&e);
    match failure {
        ClientFailure::Connection | ClientFailure::HttpClient => {
            failure.error_with_hint(message, GRPC_HINT)
        }
        _ => failure.error(message),
    }
}

/// The `WWW-Authenticate` challenges an [`ErrorKind::Unauthenticated`]
/// error was answered with (joined with `", "`), if any.
///
/// ```
/// use a2a_client::www_authenticate;
/// use a2a_types::{A2aError, ErrorKind};
///
/// let err = A2aError::from_kind(ErrorKind::Unauthenticated)
///     .with_metadata("wwwAuthenticate", "Bearer realm=\"agent\"");
/// assert_eq!(www_authenticate(&err), Some("Bearer realm=\"agent\""));
/// ```
pub fn www_authenticate(error: &A2aError) -> Option<&str> {
    error
        .error_info()
        .and_then(|info| info.metadata.get(WWW_AUTHENTICATE_KEY))
        .map(String::as_str)
}

/// Adds the challenges of `headers` to `error` when it is an
/// authentication error and the response carried any, and the delay of a
/// `Retry-After` in delta-seconds (RFC 9110 section 10.2.3; an HTTP-date
/// is not read, the core reads no clock) on a 429 or 503 as its
/// `RetryInfo` ([`A2aError::retry_delay`]), unless the body gave one.
pub(crate) fn with_challenges(error: A2aError, headers: &http::HeaderMap) -> A2aError {
    let retry_after = headers
        .get(http::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let error = match (retry_after, error.received_status()) {
        (Some(secs), Some(429 | 503)) if error.retry_delay().is_none() => {
            error.with_retry_delay(std::time::Duration::from_secs(secs))
        }
        _ => error,
    };
    if error.kind() != ErrorKind::Unauthenticated {
        return error;
    }
    let challenges: Vec<&str> = headers
        .get_all(http::header::WWW_AUTHENTICATE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect();
    if challenges.is_empty() {
        return error;
    }
    error.with_metadata(WWW_AUTHENTICATE_KEY, &challenges.join(", "))
}

/// `InvalidAgentResponseError`: what the agent sent is not an A2A
/// answer (spec 3.3.2).
pub(crate) fn invalid_response(why: &str) -> A2aError {
    A2aError::new(
        ErrorKind::InvalidAgentResponse,
        format!("Invalid agent response: {why}"),
    )
}

#[cfg(test)]
mod tests {
    use a2a_wire::HttpError;

    use super::*;

    #[test]
    fn failures_round_trip_through_the_error() {
        for f in ClientFailure::ALL {
            let err = f.error("x");
            assert_eq!(ClientFailure::of(&err), Some(f));
            // The client's own kind and code, not the agent's InternalError.
            assert_eq!(err.kind(), ErrorKind::Client);
            assert_eq!(err.code(), a2a_types::ErrorCode::CLIENT);
            assert!(err.is_client_failure());
            assert_eq!(err.to_string(), format!("x; hint: {}", f.hint()));
            // The A2A ErrorInfo stays the one `error_info` finds.
            assert_eq!(
                err.error_info().map(|i| i.reason.as_str()),
                Some("INTERNAL_ERROR")
            );
            // On the wire (a server forwarding it) it is an InternalError,
            // and the far side reads it as the agent's answer it then is;
            // the marker survives the JSON-RPC conversion.
            let wire = err.to_jsonrpc_error();
            assert_eq!(wire.code, a2a_types::ErrorCode::INTERNAL);
            let back = A2aError::from_jsonrpc_error(wire);
            assert_eq!(back.kind(), ErrorKind::Internal);
            assert!(!back.is_client_failure());
            assert_eq!(ClientFailure::of(&back), Some(f));
            assert_eq!(err.to_status().error.code, 500);
        }
        assert_eq!(ClientFailure::of(&A2aError::internal("agent")), None);
        assert!(!A2aError::internal("agent").is_client_failure());
    }

    #[test]
    fn http_errors_map_to_their_failure() {
        let e: A2aError = HttpError::Connection("refused".into()).into();
        assert_eq!(ClientFailure::of(&e), Some(ClientFailure::Connection));
        assert!(e.message().contains("refused"));
        let e: A2aError = HttpError::Timeout("10s".into()).into();
        assert!(ClientFailure::of(&e).is_some_and(ClientFailure::is_retryable));
        let e: A2aError = HttpError::Other("tls".into()).into();
        assert_eq!(ClientFailure::of(&e), Some(ClientFailure::HttpClient));
        assert!(!ClientFailure::HttpClient.is_retryable());
    }

    #[test]
    fn client_failures_say_what_happened() {
        // What a new user saw: an agent that is not running.
        let refused = HttpError::Connection(
            "client error (Connect): tcp connect error: Connection refused (os error 111)".into(),
        );
        let refused = A2aError::from(refused);
        let e = refused.to_string();
        assert_eq!(
            e,
            "no answer from the agent: connection failed: client error (Connect): \
             tcp connect error: Connection refused (os error 111); \
             hint: is the agent running, and is this its URL?"
        );
        assert!(!e.contains("InternalError") && !e.contains("-32603"), "{e}");
        // What `?` in main prints ({:?}) is the same one line.
        assert_eq!(format!("{refused:?}"), format!("ClientError: {e}"));
        assert!(format!("{refused:#?}").contains("client: true"));
        let e = A2aError::from(HttpError::Timeout("no response after 10s".into()));
        assert!(
            e.to_string()
                .starts_with("no answer from the agent: timed out: no response after 10s; hint: "),
            "{e}"
        );
        // A gRPC send that fails says gRPC needs HTTP/2.
        #[cfg(feature = "grpc")]
        {
            let e = grpc_send_failed(HttpError::Other("connection error: broken pipe".into()));
            assert_eq!(ClientFailure::of(&e), Some(ClientFailure::HttpClient));
            assert!(e.to_string().contains("gRPC needs HTTP/2"), "{e}");
            let e = grpc_send_failed(HttpError::Timeout("10s".into()));
            assert!(!e.to_string().contains("gRPC needs HTTP/2"), "{e}");
        }
        // A plain 404: not an A2A error, and not "error -32000".
        let e = status_without_error(404, "http://h.example/.well-known/agent-card.json");
        assert_eq!(ClientFailure::of(&e), Some(ClientFailure::HttpStatus));
        assert_eq!(e.kind(), ErrorKind::Client);
        assert_eq!(e.http_status(), 404);
        assert_eq!(
            e.to_string(),
            "HTTP 404 Not Found from http://h.example/.well-known/agent-card.json, \
             without a readable A2A error in the body: is this the agent's URL?"
        );
        let e = status_without_error(502, "http://h.example/");
        assert!(
            e.to_string().starts_with("HTTP 502 Bad Gateway from"),
            "{e}"
        );
        // 401 and 403 stay the authentication errors they are.
        let e = status_without_error(401, "http://h.example/");
        assert_eq!(e.kind(), ErrorKind::Unauthenticated);
        assert_eq!(ClientFailure::of(&e), None);
        // An agent's own error still reads as one.
        let agent = A2aError::internal("the database is down");
        assert_eq!(
            agent.to_string(),
            "InternalError (-32603): the database is down"
        );
    }

    #[test]
    fn challenges_are_joined_on_authentication_errors_only() {
        let mut h = http::HeaderMap::new();
        h.append(
            http::header::WWW_AUTHENTICATE,
            http::HeaderValue::from_static("Bearer realm=\"a2a\", error=\"invalid_token\""),
        );
        h.append(
            http::header::WWW_AUTHENTICATE,
            http::HeaderValue::from_static("Basic realm=\"a2a\""),
        );
        let err = with_challenges(A2aError::from_status(401, None), &h);
        assert_eq!(
            www_authenticate(&err),
            Some("Bearer realm=\"a2a\", error=\"invalid_token\", Basic realm=\"a2a\"")
        );
        assert_eq!(
            err.error_info().map(|i| i.reason.as_str()),
            Some("UNAUTHENTICATED")
        );
        let err = with_challenges(A2aError::from_status(403, None), &h);
        assert_eq!(www_authenticate(&err), None);
        let err = with_challenges(A2aError::from_status(401, None), &http::HeaderMap::new());
        assert_eq!(www_authenticate(&err), None);
    }
}
