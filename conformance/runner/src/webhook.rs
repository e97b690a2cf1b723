//! A webhook receiver for the push delivery scenarios (spec 4.3.3, 13.2):
//! it records every notification. The embedded agent reaches it over
//! loopback HTTP ([`crate::net::serve_webhook`]) or, in memory, through
//! [`MemoryPushSender`].

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_reference_agent::{PushError, PushSender};
use a2a_transport::BoxFuture;
use bytes::Bytes;
use http::{HeaderMap, Method, Request, StatusCode};
use tokio::sync::Notify;

/// One notification as received.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// The request method.
    pub method: Method,
    /// The request path.
    pub path: String,
    /// The request headers.
    pub headers: HeaderMap,
    /// The body.
    pub body: Bytes,
}

#[derive(Default)]
struct Inbox {
    items: Mutex<Vec<Delivery>>,
    arrived: Notify,
}

/// A receiver's base URL and what it has received.
#[derive(Clone)]
pub struct Webhook {
    base: String,
    inbox: Arc<Inbox>,
}

impl fmt::Debug for Webhook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Webhook")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl Webhook {
    /// A receiver whose URLs start with `base` (no trailing slash).
    pub fn new(base: impl Into<String>) -> Webhook {
        Webhook {
            base: base.into().trim_end_matches('/').to_owned(),
            inbox: Arc::default(),
        }
    }

    /// The base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The URL of the hook `name`: each scenario uses its own.
    pub fn url(&self, name: &str) -> String {
        format!("{}/{name}", self.base)
    }

    /// Records a delivery.
    pub fn record(&self, delivery: Delivery) {
        self.inbox
            .items
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(delivery);
        self.inbox.arrived.notify_waiters();
    }

    /// The deliveries to the hook `name` so far, oldest first.
    pub fn received(&self, name: &str) -> Vec<Delivery> {
        let suffix = format!("/{name}");
        self.inbox
            .items
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|d| d.path.ends_with(&suffix))
            .cloned()
            .collect()
    }

    /// Waits until `done` holds for the deliveries to `name`, or `limit`
    /// passes; answers the deliveries either way.
    pub async fn wait_until(
        &self,
        name: &str,
        limit: Duration,
        mut done: impl FnMut(&[Delivery]) -> bool,
    ) -> Vec<Delivery> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let arrived = self.inbox.arrived.notified();
            let got = self.received(name);
            if done(&got) || tokio::time::Instant::now() >= deadline {
                return got;
            }
            let _ = tokio::time::timeout_at(deadline, arrived).await;
        }
    }
}

/// A push sender that hands notifications for the webhook's URLs straight
/// to it, answering 200; any other URL is unreachable. For in-memory
/// agents.
#[derive(Debug, Clone)]
pub struct MemoryPushSender {
    webhook: Webhook,
}

impl MemoryPushSender {
    /// A sender delivering to `webhook`.
    pub fn new(webhook: Webhook) -> MemoryPushSender {
        MemoryPushSender { webhook }
    }
}

impl PushSender for MemoryPushSender {
    fn send(&self, request: Request<Bytes>) -> BoxFuture<'_, Result<StatusCode, PushError>> {
        let url = request.uri().to_string();
        let result = if url.starts_with(self.webhook.base()) {
            let (parts, body) = request.into_parts();
            self.webhook.record(Delivery {
                method: parts.method,
                path: parts.uri.path().to_owned(),
                headers: parts.headers,
                body,
            });
            Ok(StatusCode::OK)
        } else {
            Err(PushError::Connection(format!(
                "{url} is not reachable in memory"
            )))
        };
        Box::pin(std::future::ready(result))
    }
}
