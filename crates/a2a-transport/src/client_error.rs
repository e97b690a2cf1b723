//! How the client side reports what is not an agent's answer (spec 3.3.2,
//! 7.4): failures of the HTTP stack, oversized or truncated responses, and
//! the authentication challenges of a `401`.
//!
//! Every client-side method answers [`A2aError`], the one error type of the
//! [`A2aService`](crate::A2aService) trait, so these failures travel in it
//! too, marked so that a caller (or a resilient stream) can tell them from
//! an agent's error:
//!
//! - **Client failures** are [`ErrorKind::Internal`] errors carrying a
//!   second `google.rpc.ErrorInfo` detail in the domain
//!   [`CLIENT_ERROR_DOMAIN`], whose `reason` names a [`ClientFailure`].
//!   [`ClientFailure::of`] reads it back. The A2A-domain `ErrorInfo`
//!   (reason `INTERNAL_ERROR`) stays first, so the error still reads as an A2A
//!   error everywhere else.
//! - **Authentication challenges** (`WWW-Authenticate`, RFC 9110 section
//!   11.6.1) are kept in the metadata of the error's A2A `ErrorInfo` under
//!   [`WWW_AUTHENTICATE_KEY`]: several header fields are joined with `", "`,
//!   which RFC 9110 section 5.3 makes equivalent to one field.
//!   [`www_authenticate`] reads them back. Metadata was chosen over a new
//!   detail type because it survives both bindings' error conversions and
//!   any code that only looks at `ErrorInfo`.

use std::collections::BTreeMap;

use a2a_types::{A2aError, ErrorDetail, ErrorInfo, ErrorKind};

use crate::http_client::HttpError;

/// `ErrorInfo.domain` of the details the client side adds to errors that
/// no agent produced ([`ClientFailure`]).
pub const CLIENT_ERROR_DOMAIN: &str = "client.a2a-transport";

/// The metadata key, in the A2A `ErrorInfo` of an
/// [`ErrorKind::Unauthenticated`] error, that holds the response's
/// `WWW-Authenticate` challenges (spec 3.3.2, 7.4).
pub const WWW_AUTHENTICATE_KEY: &str = "wwwAuthenticate";

/// A failure on the client's side of the wire, as marked on an
/// [`A2aError`] (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ClientFailure {
    /// The connection could not be opened or was lost
    /// ([`HttpError::Connection`]). Retryable.
    Connection,
    /// The host's deadline passed ([`HttpError::Timeout`]). Retryable.
    Timeout,
    /// The HTTP stack failed otherwise ([`HttpError::Other`]).
    HttpClient,
    /// A response body was larger than the configured limit.
    ResponseTooLarge,
    /// A resilient stream gave up: the task had not reached a terminal or
    /// interrupted state when its retries ran out (spec 3.1.6).
    StreamIncomplete,
}

impl ClientFailure {
    /// Every failure, for tables and tests.
    pub const ALL: [ClientFailure; 5] = [
        ClientFailure::Connection,
        ClientFailure::Timeout,
        ClientFailure::HttpClient,
        ClientFailure::ResponseTooLarge,
        ClientFailure::StreamIncomplete,
    ];

    /// The `ErrorInfo.reason` that marks it, e.g. `CONNECTION_FAILED`.
    pub fn reason(self) -> &'static str {
        match self {
            ClientFailure::Connection => "CONNECTION_FAILED",
            ClientFailure::Timeout => "TIMEOUT",
            ClientFailure::HttpClient => "HTTP_CLIENT_FAILED",
            ClientFailure::ResponseTooLarge => "RESPONSE_TOO_LARGE",
            ClientFailure::StreamIncomplete => "STREAM_INCOMPLETE",
        }
    }

    /// Whether retrying the call (or resubscribing) may succeed:
    /// [`ClientFailure::Connection`] and [`ClientFailure::Timeout`].
    pub fn is_retryable(self) -> bool {
        matches!(self, ClientFailure::Connection | ClientFailure::Timeout)
    }

    /// The failure `error` is marked with, if it is a client failure.
    pub fn of(error: &A2aError) -> Option<ClientFailure> {
        error.details().iter().find_map(|d| match d {
            ErrorDetail::ErrorInfo(info) if info.domain == CLIENT_ERROR_DOMAIN => {
                ClientFailure::ALL
                    .into_iter()
                    .find(|f| f.reason() == info.reason)
            }
            _ => None,
        })
    }

    /// An [`ErrorKind::Internal`] error with `message`, marked as this
    /// failure.
    pub fn error(self, message: impl Into<String>) -> A2aError {
        A2aError::new(ErrorKind::Internal, message).with_detail(ErrorDetail::ErrorInfo(ErrorInfo {
            reason: self.reason().to_owned(),
            domain: CLIENT_ERROR_DOMAIN.to_owned(),
            metadata: BTreeMap::new(),
        }))
    }
}

impl From<HttpError> for A2aError {
    /// A failure of the host's HTTP client, marked with its
    /// [`ClientFailure`].
    fn from(e: HttpError) -> A2aError {
        let failure = match &e {
            HttpError::Connection(_) => ClientFailure::Connection,
            HttpError::Timeout(_) => ClientFailure::Timeout,
            HttpError::Other(_) => ClientFailure::HttpClient,
        };
        failure.error(e.to_string())
    }
}

/// The `WWW-Authenticate` challenges an [`ErrorKind::Unauthenticated`]
/// error was answered with (joined with `", "`), if any.
///
/// ```
/// use a2a_transport::client::www_authenticate;
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
/// authentication error and the response carried any.
pub(crate) fn with_challenges(error: A2aError, headers: &http::HeaderMap) -> A2aError {
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
    use super::*;

    #[test]
    fn failures_round_trip_through_the_error() {
        for f in ClientFailure::ALL {
            let err = f.error("x");
            assert_eq!(ClientFailure::of(&err), Some(f));
            assert_eq!(err.kind(), ErrorKind::Internal);
            // The A2A ErrorInfo stays the one `error_info` finds.
            assert_eq!(
                err.error_info().map(|i| i.reason.as_str()),
                Some("INTERNAL_ERROR")
            );
            // And the marker survives the JSON-RPC conversion.
            let back = A2aError::from_jsonrpc_error(err.to_jsonrpc_error());
            assert_eq!(ClientFailure::of(&back), Some(f));
        }
        assert_eq!(ClientFailure::of(&A2aError::internal("agent")), None);
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
