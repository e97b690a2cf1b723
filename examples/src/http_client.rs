//! The client-side glue: an [`HttpClient`] on hyper-util's pooled client.
//!
//! `a2a-transport` never opens a socket; it hands each request to an
//! [`HttpClient`] the host implements. This is the whole of one: convert
//! the request body, send it, and pass the response body on as a stream of
//! chunks so that Server-Sent Events are read as they arrive.
//!
//! Plain `http` only (no TLS stack is compiled in), HTTP/1.1, keep-alive
//! connections reused from a pool, redirects never followed (an A2A client
//! must not silently re-send a `POST` elsewhere).

use std::time::Duration;

use a2a_transport::{
    client::{HttpError, ResponseBody},
    BoxFuture, HttpClient,
};
use bytes::Bytes;
use futures_util::StreamExt;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;

/// An [`HttpClient`] for `http://` agents, on hyper-util's connection-pooling
/// client. Cheap to clone: clones share the pool. Needs a tokio runtime.
///
/// ```no_run
/// use a2a_examples::HyperClient;
/// use a2a_transport::{client::Preferences, discover};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let agent = discover(HyperClient::new(), "http://127.0.0.1:8080", &Preferences::new()).await?;
/// println!("{} speaks {}", agent.card.name, agent.interface.protocol_binding);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct HyperClient {
    client: Client<HttpConnector, Full<Bytes>>,
    timeout: Option<Duration>,
}

impl HyperClient {
    /// A client with no timeout of its own.
    pub fn new() -> HyperClient {
        let mut connector = HttpConnector::new();
        // Small requests and SSE frames go out at once, not after Nagle's delay.
        connector.set_nodelay(true);
        HyperClient {
            client: Client::builder(TokioExecutor::new()).build(connector),
            timeout: None,
        }
    }

    /// The same client, giving up on a request whose response head has not
    /// arrived after `timeout` ([`HttpError::Timeout`]). The body is not
    /// timed: a stream may stay open as long as the agent keeps it open.
    pub fn with_timeout(mut self, timeout: Duration) -> HyperClient {
        self.timeout = Some(timeout);
        self
    }
}

impl Default for HyperClient {
    fn default() -> HyperClient {
        HyperClient::new()
    }
}

impl HttpClient for HyperClient {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        let response = self.client.request(request.map(Full::new));
        let timeout = self.timeout;
        Box::pin(async move {
            let response = match timeout {
                None => response.await,
                Some(limit) => tokio::time::timeout(limit, response)
                    .await
                    .map_err(|_| HttpError::Timeout(format!("no response after {limit:?}")))?,
            }
            .map_err(request_error)?;
            // The body as chunks; an error in the middle is a lost connection,
            // which a resilient stream may resume (spec 3.1.6).
            Ok(response.map(|body| {
                ResponseBody::new(
                    body.into_data_stream()
                        .map(|chunk| chunk.map_err(|e| HttpError::Connection(e.to_string()))),
                )
            }))
        })
    }
}

/// Sorts hyper-util's error into the kinds the transport acts on: a
/// connection that failed or was lost may be retried, anything else not.
fn request_error(e: hyper_util::client::legacy::Error) -> HttpError {
    let lost = e.is_connect()
        || std::error::Error::source(&e)
            .and_then(|s| s.downcast_ref::<hyper::Error>())
            .is_some_and(|h| h.is_closed() || h.is_incomplete_message() || h.is_canceled());
    // The whole chain: the cause a user needs ("Connection refused") is
    // the innermost error, two levels below hyper-util's "client error".
    let mut text = e.to_string();
    let mut next = std::error::Error::source(&e);
    while let Some(cause) = next {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        next = cause.source();
    }
    if lost {
        HttpError::Connection(text)
    } else {
        HttpError::Other(text)
    }
}
