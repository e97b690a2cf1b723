//! [`ClientFailure`]: a call that never completed, told apart from an
//! agent's answer. It lives beside the [`HttpClient`](crate::HttpClient)
//! trait because it classifies that trait's [`HttpError`]s; the client's
//! module `client_error` (in `a2a-client`) says how the failures travel in
//! an [`A2aError`].

use std::collections::BTreeMap;

use a2a_types::{A2aError, ErrorDetail, ErrorInfo, CLIENT_ERROR_DOMAIN};

use crate::http_client::HttpError;

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
    /// The server answered an HTTP error status (a plain `404`, a proxy's
    /// `502`) without an A2A error in the body: what answered is not (or
    /// not only) the agent. The error keeps the status
    /// ([`A2aError::http_status`]).
    HttpStatus,
    /// A resilient stream gave up: the task had not reached a terminal or
    /// interrupted state when its retries ran out (spec 3.1.6).
    StreamIncomplete,
}

impl ClientFailure {
    /// Every failure, for tables and tests.
    pub const ALL: [ClientFailure; 6] = [
        ClientFailure::Connection,
        ClientFailure::Timeout,
        ClientFailure::HttpClient,
        ClientFailure::ResponseTooLarge,
        ClientFailure::HttpStatus,
        ClientFailure::StreamIncomplete,
    ];

    /// The `ErrorInfo.reason` that marks it, e.g. `CONNECTION_FAILED`.
    pub fn reason(self) -> &'static str {
        match self {
            ClientFailure::Connection => "CONNECTION_FAILED",
            ClientFailure::Timeout => "TIMEOUT",
            ClientFailure::HttpClient => "HTTP_CLIENT_FAILED",
            ClientFailure::ResponseTooLarge => "RESPONSE_TOO_LARGE",
            ClientFailure::HttpStatus => "HTTP_STATUS",
            ClientFailure::StreamIncomplete => "STREAM_INCOMPLETE",
        }
    }

    /// Whether retrying the call (or resubscribing) may succeed:
    /// [`ClientFailure::Connection`] and [`ClientFailure::Timeout`].
    pub fn is_retryable(self) -> bool {
        matches!(self, ClientFailure::Connection | ClientFailure::Timeout)
    }

    /// What a user can do about it, for the end of the error's message.
    pub fn hint(self) -> &'static str {
        match self {
            ClientFailure::Connection => "is the agent running, and is this its URL?",
            ClientFailure::Timeout => {
                "the agent did not answer in time: is it reachable, or does it need a longer ClientConfig::timeout?"
            }
            ClientFailure::HttpClient => {
                "the HTTP client could not talk to the host (TLS, the protocol): check the URL's scheme and that it is the agent's"
            }
            ClientFailure::ResponseTooLarge => {
                "raise ClientConfig::max_response_body if the agent's answers are this large"
            }
            ClientFailure::HttpStatus => "is this the agent's URL?",
            ClientFailure::StreamIncomplete => {
                "the task may still be running: SubscribeToTask or GetTask later, or allow more retries (RetryPolicy)"
            }
        }
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

    /// An [`ErrorKind::Client`](a2a_types::ErrorKind::Client) error with `message` and this failure's
    /// [`hint`](ClientFailure::hint), marked as this failure.
    pub fn error(self, message: impl Into<String>) -> A2aError {
        self.error_with_hint(message, self.hint())
    }

    /// As [`error`](ClientFailure::error), with another hint than this
    /// failure's own (a binding's more precise one).
    pub fn error_with_hint(self, message: impl Into<String>, hint: &str) -> A2aError {
        let message = format!("{}; hint: {hint}", message.into());
        self.mark(A2aError::client(message))
    }

    /// `error` as this failure: an [`ErrorKind::Client`](a2a_types::ErrorKind::Client) error (its
    /// details and received status kept) with the marker detail.
    pub fn mark(self, error: A2aError) -> A2aError {
        error
            .with_detail(ErrorDetail::ErrorInfo(ErrorInfo {
                reason: self.reason().to_owned(),
                domain: CLIENT_ERROR_DOMAIN.to_owned(),
                metadata: BTreeMap::new(),
            }))
            .into_client()
    }
}

impl ClientFailure {
    /// The failure an [`HttpError`] is, and what the error says of it.
    pub fn of_http_error(e: &HttpError) -> (ClientFailure, String) {
        match e {
            HttpError::Connection(_) => (
                ClientFailure::Connection,
                format!("no answer from the agent: {e}"),
            ),
            HttpError::Timeout(_) => (
                ClientFailure::Timeout,
                format!("no answer from the agent: {e}"),
            ),
            HttpError::Other(_) => (ClientFailure::HttpClient, e.to_string()),
        }
    }
}

impl From<HttpError> for A2aError {
    /// A failure of the host's HTTP client: an [`ErrorKind::Client`](a2a_types::ErrorKind::Client) error
    /// marked with its [`ClientFailure`], the cause, and its hint.
    fn from(e: HttpError) -> A2aError {
        let (failure, message) = ClientFailure::of_http_error(&e);
        failure.error(message)
    }
}
