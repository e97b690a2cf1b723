//! [`ClientConfig`]: the limits of the client side.

use std::time::Duration;

/// Limits of the client side. Every response body is bounded before it is
/// kept (STYLE.md, "Limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClientConfig {
    /// Largest success body of a unary call (and of an agent card), in
    /// bytes. Default: 16 MiB, as [`a2a_types::DEFAULT_MAX_INPUT_BYTES`].
    /// Larger bodies answer a [`ClientFailure::ResponseTooLarge`](crate::ClientFailure::ResponseTooLarge) error.
    pub max_response_body: usize,
    /// Largest error body read to find the binding's error object, in
    /// bytes. Default: 64 KiB. A larger one is not read; the HTTP status
    /// alone decides the error.
    pub max_error_body: usize,
    /// Limits of the SSE decoder for streams (per line and per event).
    /// Default: [`a2a_sse::DecoderConfig::DEFAULT`] (16 MiB each).
    pub sse: a2a_sse::DecoderConfig,
    /// The call's deadline, sent over gRPC as `grpc-timeout` so that the
    /// agent can give up too (spec 10). The client does not enforce it:
    /// the host's HTTP client does (`HyperClient::with_timeout`, say).
    /// Default: none.
    pub timeout: Option<Duration>,
}

impl ClientConfig {
    /// Default [`max_error_body`](Self::max_error_body): 64 KiB.
    pub const DEFAULT_MAX_ERROR_BODY: usize = 64 * 1024;

    /// The defaults.
    pub const fn new() -> ClientConfig {
        ClientConfig {
            max_response_body: a2a_types::DEFAULT_MAX_INPUT_BYTES,
            max_error_body: ClientConfig::DEFAULT_MAX_ERROR_BODY,
            sse: a2a_sse::DecoderConfig::DEFAULT,
            timeout: None,
        }
    }

    /// Sets [`timeout`](Self::timeout).
    pub const fn with_timeout(mut self, timeout: Duration) -> ClientConfig {
        self.timeout = Some(timeout);
        self
    }

    /// Sets [`max_response_body`](Self::max_response_body).
    pub const fn with_max_response_body(mut self, bytes: usize) -> ClientConfig {
        self.max_response_body = bytes;
        self
    }

    /// Sets [`max_error_body`](Self::max_error_body).
    pub const fn with_max_error_body(mut self, bytes: usize) -> ClientConfig {
        self.max_error_body = bytes;
        self
    }

    /// Sets [`sse`](Self::sse).
    pub const fn with_sse(mut self, sse: a2a_sse::DecoderConfig) -> ClientConfig {
        self.sse = sse;
        self
    }
}

impl Default for ClientConfig {
    fn default() -> ClientConfig {
        ClientConfig::new()
    }
}
