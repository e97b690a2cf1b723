//! Push notification delivery (spec 4.3.3, 13.2): one ordered, bounded
//! queue per webhook, drained by one delivery task at a time, each
//! notification retried with exponential backoff; the HTTP exchange
//! itself is behind [`PushSender`].

use std::collections::hash_map::RandomState;
use std::collections::VecDeque;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex};

use a2a_transport::client::HttpError;
use a2a_transport::push::{notification_request_with_body, AttemptResult, GiveUpReason, NextStep};
use a2a_transport::webhook::Allowlist;
use a2a_transport::BoxFuture;
use a2a_types::TaskPushNotificationConfig;
use bytes::Bytes;
use http::{Request, StatusCode};

use crate::config::PushPolicy;

/// The media type of a push notification body (spec 4.3.3).
pub const A2A_JSON: &str = a2a_transport::A2A_JSON;
/// The header carrying a config's `token` (spec 4.3.1).
pub const NOTIFICATION_TOKEN_HEADER: &str = a2a_transport::push::NOTIFICATION_TOKEN_HEADER;

/// Sends one push notification: a single HTTP attempt, no retries (the
/// agent retries, per [`PushPolicy`]).
///
/// An implementation that connects over the network must check the
/// address it actually connects to, after DNS, with
/// [`a2a_transport::webhook::check_socket_addr`] (or
/// [`WebhookTarget::check_connect_addr`](a2a_transport::webhook::WebhookTarget::check_connect_addr)),
/// and refuse with [`PushError::Refused`]: the URL was checked when the
/// config was created, but a name can resolve, or be rebound, anywhere.
pub trait PushSender: Send + Sync + 'static {
    /// POSTs `request` (URL, headers and body are set) and answers the
    /// response status.
    fn send(&self, request: Request<Bytes>) -> BoxFuture<'_, Result<StatusCode, PushError>>;
}

/// Why a notification could not be delivered.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PushError {
    /// The target address is not allowed (spec 13.2). Not retried.
    Refused(String),
    /// No connection, or it broke before a response arrived. Retried.
    Connection(String),
    /// A failure another attempt would not cure (a TLS handshake that
    /// failed, a request the HTTP stack refused). Not retried.
    Failed(String),
}

impl fmt::Display for PushError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushError::Refused(why) => write!(f, "webhook refused: {why}"),
            PushError::Connection(why) => write!(f, "webhook unreachable: {why}"),
            PushError::Failed(why) => write!(f, "webhook delivery failed: {why}"),
        }
    }
}

impl std::error::Error for PushError {}

/// What happened to one notification, reported to the agent's
/// [`PushObserver`](crate::PushObserver) hook.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeliveryOutcome {
    /// Answered 2xx after `attempts` attempts.
    Delivered {
        /// Attempts made, the successful one included.
        attempts: u32,
    },
    /// Given up after `attempts` attempts; `last` says why.
    Failed {
        /// Attempts made.
        attempts: u32,
        /// The last status or error.
        last: String,
    },
    /// Dropped before delivery: the queue was full.
    Dropped,
}

/// A hook told about every notification's fate (for logs and tests).
pub type PushObserver = Arc<dyn Fn(&TaskPushNotificationConfig, &DeliveryOutcome) + Send + Sync>;

/// What every queue shares: the sender, the retry policy, the queue bound
/// and the observer.
pub(crate) struct PushHub {
    pub(crate) sender: Arc<dyn PushSender>,
    pub(crate) policy: PushPolicy,
    pub(crate) max_queue: usize,
    pub(crate) observer: Option<PushObserver>,
    /// The webhook allowlist, for the URL check on every delivery.
    pub(crate) allowlist: Allowlist,
}

impl fmt::Debug for PushHub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PushHub")
            .field("policy", &self.policy)
            .field("max_queue", &self.max_queue)
            .finish_non_exhaustive()
    }
}

impl PushHub {
    fn observe(&self, config: &TaskPushNotificationConfig, outcome: DeliveryOutcome) {
        if let Some(observer) = &self.observer {
            observer(config, &outcome);
        }
    }
}

#[derive(Debug, Default)]
struct QueueState {
    bodies: VecDeque<Bytes>,
    draining: bool,
    closed: bool,
}

/// The pending notifications of one webhook, in publication order.
#[derive(Debug, Default)]
pub(crate) struct PushQueue {
    state: Mutex<QueueState>,
    /// Whether its config was set by a 0.3 caller: its bodies are 0.3
    /// Task objects, sent as `application/json` (0.3 spec 9.5).
    pub(crate) v0_3: bool,
}

impl PushQueue {
    /// An empty queue, for a config set at 0.3 or not.
    pub(crate) fn new(v0_3: bool) -> PushQueue {
        PushQueue {
            state: Mutex::default(),
            v0_3,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues a notification and makes sure a delivery task drains the
    /// queue. When the queue is full the oldest pending notification is
    /// dropped, so the latest state always gets through.
    pub(crate) fn enqueue(
        self: &Arc<Self>,
        body: Bytes,
        config: &TaskPushNotificationConfig,
        hub: &Arc<PushHub>,
    ) {
        let mut state = self.lock();
        if state.closed {
            return;
        }
        if state.bodies.len() >= hub.max_queue.max(1) {
            state.bodies.pop_front();
            hub.observe(config, DeliveryOutcome::Dropped);
        }
        state.bodies.push_back(body);
        if !state.draining {
            state.draining = true;
            let (queue, config, hub) = (Arc::clone(self), config.clone(), Arc::clone(hub));
            tokio::spawn(async move { queue.drain(config, hub).await });
        }
    }

    /// Stops delivery: nothing queued or queued later is sent (spec
    /// 3.1.10: "No further notifications will be sent ... after deletion").
    pub(crate) fn close(&self) {
        let mut state = self.lock();
        state.closed = true;
        state.bodies.clear();
    }

    fn is_closed(&self) -> bool {
        self.lock().closed
    }

    async fn drain(self: Arc<Self>, config: TaskPushNotificationConfig, hub: Arc<PushHub>) {
        loop {
            let body = {
                let mut state = self.lock();
                match (state.closed, state.bodies.pop_front()) {
                    (false, Some(body)) => body,
                    _ => {
                        state.draining = false;
                        return;
                    }
                }
            };
            let outcome = self.deliver(&config, &hub, body).await;
            if let Some(outcome) = outcome {
                hub.observe(&config, outcome);
            }
        }
    }

    /// Delivers one notification with retries, as the library's
    /// [`RetrySchedule`](a2a_transport::push::RetrySchedule) decides; `None` if the config was deleted
    /// meanwhile.
    async fn deliver(
        &self,
        config: &TaskPushNotificationConfig,
        hub: &PushHub,
        body: Bytes,
    ) -> Option<DeliveryOutcome> {
        let schedule = hub.policy.schedule();
        let mut attempt = 0;
        loop {
            if self.is_closed() {
                return None;
            }
            attempt += 1;
            let failed = |last: String| DeliveryOutcome::Failed {
                attempts: attempt,
                last,
            };
            let mut request = match push_request(config, body.clone(), &hub.allowlist) {
                Ok(request) => request,
                Err(why) => return Some(failed(why)),
            };
            if self.v0_3 {
                request.headers_mut().insert(
                    http::header::CONTENT_TYPE,
                    http::HeaderValue::from_static("application/json"),
                );
            }
            let sent =
                tokio::time::timeout(schedule.attempt_timeout, hub.sender.send(request)).await;
            let lost;
            let result = match &sent {
                Ok(Ok(status)) => AttemptResult::Status(*status),
                Ok(Err(e @ (PushError::Refused(_) | PushError::Failed(_)))) => {
                    return Some(failed(e.to_string()))
                }
                Ok(Err(PushError::Connection(why))) => {
                    lost = HttpError::Connection(why.clone());
                    AttemptResult::Failed(&lost)
                }
                Err(_) => AttemptResult::TimedOut,
            };
            match schedule.next(attempt, result, jitter()) {
                NextStep::Delivered => {
                    return Some(DeliveryOutcome::Delivered { attempts: attempt })
                }
                NextStep::RetryAfter(wait) => tokio::time::sleep(wait).await,
                NextStep::GiveUp(GiveUpReason::Rejected(status)) => {
                    return Some(failed(format!("HTTP {status}")))
                }
                NextStep::GiveUp(GiveUpReason::Exhausted { last, .. }) => {
                    return Some(failed(last))
                }
                NextStep::GiveUp(reason) => return Some(failed(reason.to_string())),
            }
        }
    }
}

/// A value in `[0, 1)` for the retry jitter, from the standard library's
/// randomly keyed hasher (no RNG dependency; not for cryptography).
fn jitter() -> f64 {
    let bits = RandomState::new().build_hasher().finish() >> 11;
    bits as f64 / (1u64 << 53) as f64
}

/// 408, 429 and 5xx are worth another attempt; other answers are final
/// ([`a2a_transport::push::is_retryable_status`]).
pub fn is_retryable(status: StatusCode) -> bool {
    a2a_transport::push::is_retryable_status(status)
}

/// The request of one notification (spec 4.3.3), built by
/// [`a2a_transport::push::notification_request_with_body`]: `POST` of the
/// `StreamResponse` as `application/a2a+json`, the config's
/// `authentication` as `Authorization: <scheme> <credentials>` and its
/// `token` as `X-A2A-Notification-Token`; the URL checked against `allow`.
pub fn push_request(
    config: &TaskPushNotificationConfig,
    body: Bytes,
    allow: &Allowlist,
) -> Result<Request<Bytes>, String> {
    notification_request_with_body(config, body, allow).map_err(|e| e.to_string())
}

/// A [`PushSender`] that records requests instead of sending them, and
/// answers each with the next scripted result (200 when none is left):
/// for tests of delivery, order and retries without a network.
#[derive(Debug, Default)]
pub struct RecordingPushSender {
    state: Mutex<Recorded>,
}

#[derive(Debug, Default)]
struct Recorded {
    requests: Vec<Request<Bytes>>,
    script: VecDeque<Result<StatusCode, PushError>>,
}

impl RecordingPushSender {
    /// A sender that answers 200 to everything.
    pub fn new() -> RecordingPushSender {
        RecordingPushSender::default()
    }

    /// Answers the next requests with these results, in order, before
    /// going back to 200.
    pub fn script(&self, results: impl IntoIterator<Item = Result<StatusCode, PushError>>) {
        self.lock().script.extend(results);
    }

    /// Every request received so far (retries included), oldest first.
    pub fn requests(&self) -> Vec<Request<Bytes>> {
        self.lock().requests.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Recorded> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl PushSender for RecordingPushSender {
    fn send(&self, request: Request<Bytes>) -> BoxFuture<'_, Result<StatusCode, PushError>> {
        let mut state = self.lock();
        state.requests.push(request);
        let result = state.script.pop_front().unwrap_or(Ok(StatusCode::OK));
        Box::pin(std::future::ready(result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::AuthenticationInfo;

    #[test]
    fn request_carries_auth_and_token() {
        let mut config = TaskPushNotificationConfig::new("https://hooks.example.com/a2a");
        config.token = "tok-1".into();
        config.authentication = Some(AuthenticationInfo::new("Bearer", "s3cret"));
        let req = push_request(&config, Bytes::from_static(b"{}"), &Allowlist::new()).unwrap();
        assert_eq!(req.method(), http::Method::POST);
        assert_eq!(req.uri(), "https://hooks.example.com/a2a");
        assert_eq!(req.headers()["content-type"], A2A_JSON);
        assert_eq!(req.headers()["authorization"], "Bearer s3cret");
        assert_eq!(req.headers()["x-a2a-notification-token"], "tok-1");

        let bare = push_request(
            &TaskPushNotificationConfig::new("http://hooks.example.com/"),
            Bytes::new(),
            &Allowlist::new(),
        )
        .unwrap();
        assert!(push_request(
            &TaskPushNotificationConfig::new("http://127.0.0.1/"),
            Bytes::new(),
            &Allowlist::new(),
        )
        .unwrap_err()
        .contains("loopback"));
        assert!(bare.headers().get("authorization").is_none());
        assert!(bare.headers().get("x-a2a-notification-token").is_none());
    }

    #[test]
    fn jitter_is_a_unit_fraction() {
        let draws: Vec<f64> = (0..64).map(|_| jitter()).collect();
        assert!(draws.iter().all(|j| (0.0..1.0).contains(j)));
        assert!(draws.windows(2).any(|w| w[0] != w[1]), "not constant");
    }

    #[test]
    fn retryable_statuses() {
        for s in [408, 429, 500, 502, 503, 504] {
            assert!(is_retryable(StatusCode::from_u16(s).unwrap()), "{s}");
        }
        for s in [200, 301, 400, 401, 403, 404, 410] {
            assert!(!is_retryable(StatusCode::from_u16(s).unwrap()), "{s}");
        }
    }
}
