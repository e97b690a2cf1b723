//! [`HttpPushSender`]: the agent kit's push notifications over
//! [`HyperClient`] (HTTP/1.1 and HTTP/2, `https` through rustls), with
//! the webhook rules applied to every address it connects to (spec 13.2).

use std::fmt;
use std::sync::Arc;

use a2a_agent::{PushError, PushSender};
use a2a_transport::{
    client::HttpError,
    push::{Resolve, SsrfResolver},
    webhook::{check_webhook_url, Allowlist},
    BoxFuture, HttpClient,
};
use bytes::Bytes;
use http::{Request, StatusCode};

use crate::client::{ClientOptions, HyperClient, SystemResolver};

/// How `a2a-hyper` words a lookup the resolver refused.
const REFUSED: &str = "webhook refused: ";

/// Resolves host names to addresses (the system resolver by default;
/// tests substitute their own to play a rebinding attacker).
pub type Resolver = Arc<dyn Resolve>;

/// Delivers push notifications through a [`HyperClient`] whose names are
/// resolved through an [`SsrfResolver`]:
///
/// - the URL is checked again on each delivery ([`check_webhook_url`]), so
///   a numeric host outside the allowlist is refused before anything is
///   sent;
/// - a name is resolved by the host's resolver and every address it
///   answers is checked before the client connects (public, or
///   allowlisted; IPv4-mapped IPv6 addresses are judged as the IPv4
///   address they carry): a name that resolves, or is rebound, to
///   loopback or a private network is refused with
///   [`PushError::Refused`], whatever the URL said;
/// - `https` webhooks are delivered over rustls (Mozilla's roots, or the
///   configuration in [`HttpPushSender::with_options`]); a TLS failure is
///   [`PushError::Failed`] and not retried.
///
/// Connections are pooled per webhook origin; no redirects are followed.
#[derive(Clone)]
pub struct HttpPushSender {
    allowlist: Allowlist,
    client: HyperClient,
}

impl fmt::Debug for HttpPushSender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpPushSender")
            .field("allowlist", &self.allowlist)
            .finish_non_exhaustive()
    }
}

impl HttpPushSender {
    /// A sender that admits the targets of `allowlist` besides public
    /// addresses, resolving names with the system resolver, with the
    /// default [`ClientOptions`] (connect timeout 10 s, Mozilla's roots).
    pub fn new(allowlist: Allowlist) -> HttpPushSender {
        HttpPushSender::with_options(allowlist, ClientOptions::default())
    }

    /// A sender on a client with `options` (a TLS configuration trusting
    /// a private CA, say). Names are resolved by `options.resolver`, or the
    /// system resolver, always under an [`SsrfResolver`] on `allowlist`.
    pub fn with_options(allowlist: Allowlist, mut options: ClientOptions) -> HttpPushSender {
        let inner: Resolver = options
            .resolver
            .take()
            .unwrap_or_else(|| Arc::new(SystemResolver));
        options.resolver = Some(Arc::new(SsrfResolver::new(inner, allowlist.clone())));
        HttpPushSender {
            allowlist,
            client: HyperClient::with_options(options),
        }
    }

    /// The same allowlist, resolving names with `resolver` (checked by
    /// the allowlist all the same).
    pub fn with_resolver(self, resolver: Resolver) -> HttpPushSender {
        let options = ClientOptions {
            resolver: Some(resolver),
            ..ClientOptions::default()
        };
        HttpPushSender::with_options(self.allowlist, options)
    }

    async fn deliver(&self, request: Request<Bytes>) -> Result<StatusCode, PushError> {
        let url = request.uri().to_string();
        check_webhook_url(&url, &self.allowlist).map_err(|e| PushError::Refused(e.to_string()))?;
        let response = self.client.send(request).await.map_err(|e| match e {
            HttpError::Other(why) if why.starts_with(REFUSED) => {
                PushError::Refused(why.trim_start_matches(REFUSED).to_owned())
            }
            HttpError::Other(why) => PushError::Failed(why),
            HttpError::Connection(why) => PushError::Connection(why),
            HttpError::Timeout(why) => PushError::Connection(format!("timed out: {why}")),
            other => PushError::Connection(other.to_string()),
        })?;
        // The body is not read: the status is the acknowledgement (spec
        // 4.3.3); dropping it lets the pool close or reuse the connection.
        Ok(response.status())
    }
}

impl PushSender for HttpPushSender {
    fn send(&self, request: Request<Bytes>) -> BoxFuture<'_, Result<StatusCode, PushError>> {
        Box::pin(self.deliver(request))
    }
}
