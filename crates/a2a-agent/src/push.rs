//! Push notification delivery (spec 4.3.3, 13.2).
//!
//! Every push config attached to a task gets one delivery loop, a reader
//! of the task's event log like a stream's subscriber: it posts each
//! event in log order, retries as the [`RetrySchedule`] says, and ends
//! after the event that makes the task terminal, when the config is
//! deleted or replaced, or when the task is gone. Reading the log rather
//! than queueing bodies keeps one order for streams and webhooks, and a
//! store on another machine gives a webhook the events of every replica.
//! A webhook that falls further behind than the log keeps gets the task as
//! it now is (a `Task` notification) and goes on from there.
//!
//! The HTTP exchange itself is behind [`PushSender`], which the host
//! supplies (it must check the address it connects to, after DNS).

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use a2a_transport::client::HttpError;
use a2a_transport::metrics::{MetricsRecorder, PushOutcome, PushRecord};
use a2a_transport::push::{
    notification_request_with_body, AttemptResult, GiveUpReason, NextStep, RetrySchedule,
};
use a2a_transport::trace::{Attribute, AttributeKey, Span, SpanName, TraceContext, Tracer};
use a2a_transport::webhook::Allowlist;
use a2a_transport::{BoxFuture, ProtocolVersion};
use a2a_types::{apply, StreamResponse, Task, TaskPushNotificationConfig};
use bytes::Bytes;
use http::{Request, StatusCode};

use crate::catch::race;
use crate::runtime::Runtime;
use crate::store::{changed, Change, LogRead, StoreError, TaskStore, TaskWatch, View};

/// The media type of a push notification body (spec 4.3.3).
pub const A2A_JSON: &str = a2a_transport::A2A_JSON;
/// The header carrying a config's `token` (spec 4.3.1).
pub const NOTIFICATION_TOKEN_HEADER: &str = a2a_transport::push::NOTIFICATION_TOKEN_HEADER;

/// Sends one push notification: a single HTTP attempt, no retries (the
/// handler retries, per its [`RetrySchedule`]).
///
/// An implementation that connects over the network must check the
/// address it actually connects to, after DNS, with
/// [`a2a_transport::webhook::check_socket_addr`] (or an
/// [`SsrfResolver`](a2a_transport::push::SsrfResolver)), and refuse with
/// [`PushError::Refused`]: the URL was checked when the config was
/// created, but a name can resolve, or be rebound, anywhere.
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

/// What happened to one notification, reported to a [`PushObserver`].
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
    /// Events the webhook fell too far behind to receive were skipped: it
    /// receives the task as it now is instead.
    Dropped,
}

/// A hook told about every notification's fate (for logs and tests).
pub type PushObserver = Arc<dyn Fn(&TaskPushNotificationConfig, &DeliveryOutcome) + Send + Sync>;

impl DeliveryOutcome {
    /// The outcome as the metrics recorder counts it (outcome and attempts).
    pub fn record(&self) -> PushRecord {
        let (outcome, attempts) = match self {
            DeliveryOutcome::Delivered { attempts } => (PushOutcome::Delivered, *attempts),
            DeliveryOutcome::Failed { attempts, .. } => (PushOutcome::Failed, *attempts),
            DeliveryOutcome::Dropped => (PushOutcome::Dropped, 0),
        };
        PushRecord { outcome, attempts }
    }
}

/// An observer that records each notification's fate in `recorder`, then
/// tells `then`.
pub(crate) fn recording(
    recorder: Arc<dyn MetricsRecorder>,
    then: Option<PushObserver>,
) -> PushObserver {
    Arc::new(move |config, outcome| {
        recorder.record_push(&outcome.record());
        if let Some(then) = &then {
            then(config, outcome);
        }
    })
}

/// 408, 429 and 5xx are worth another attempt; other answers are final
/// ([`a2a_transport::push::is_retryable_status`]).
pub fn is_retryable(status: StatusCode) -> bool {
    a2a_transport::push::is_retryable_status(status)
}

/// The request of one notification (spec 4.3.3), built by
/// [`a2a_transport::push::notification_request_with_body`]: `POST` of the
/// body as `application/a2a+json`, the config's `authentication` as
/// `Authorization: <scheme> <credentials>` and its `token` as
/// `X-A2A-Notification-Token`; the URL checked against `allow`.
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

/// What every delivery loop shares: the sender, the retry schedule, the
/// webhook allowlist, the observer, and which loop serves which config.
pub(crate) struct PushHub {
    pub(crate) sender: Arc<dyn PushSender>,
    pub(crate) schedule: RetrySchedule,
    pub(crate) allowlist: Allowlist,
    pub(crate) observer: Option<PushObserver>,
    /// How many events a webhook may fall behind the task: past that, the
    /// oldest undelivered ones are skipped (each reported
    /// [`DeliveryOutcome::Dropped`]), so the latest state always gets
    /// through.
    pub(crate) max_pending: usize,
    /// The running loop of each (task, config) pair; setting its flag
    /// stops it before its next attempt.
    loops: Mutex<HashMap<(String, String), Arc<AtomicBool>>>,
}

impl fmt::Debug for PushHub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PushHub")
            .field("schedule", &self.schedule)
            .finish_non_exhaustive()
    }
}

/// Where a new delivery loop starts.
pub(crate) struct Attach {
    /// The owner of the task.
    pub(crate) owner: crate::owner::Owner,
    /// The config, as stored.
    pub(crate) config: TaskPushNotificationConfig,
    /// The version of the caller that set it, which decides the bodies'
    /// form: at 0.3 the 0.3 Task object, sent as `application/json` (0.3
    /// spec 9.5); below 1.1 (with the draft) no 1.1 field.
    pub(crate) version: ProtocolVersion,
    /// The task when the config was attached.
    pub(crate) task: Task,
    /// The log position to deliver from.
    pub(crate) position: u64,
    /// Whether the first notification is the task itself (a config given
    /// inline with the message that created the task).
    pub(crate) snapshot_first: bool,
    /// A watch of the task taken before `position` was read.
    pub(crate) watch: Box<dyn TaskWatch>,
    /// The trace of the call that set the config: each notification's
    /// span is its child, and the webhook receives the span's
    /// `traceparent` (this one as it is without a tracer).
    pub(crate) trace: Option<TraceContext>,
}

impl PushHub {
    pub(crate) fn new(
        sender: Arc<dyn PushSender>,
        schedule: RetrySchedule,
        allowlist: Allowlist,
        observer: Option<PushObserver>,
        max_pending: usize,
    ) -> PushHub {
        PushHub {
            sender,
            schedule,
            allowlist,
            observer,
            max_pending: max_pending.max(1),
            loops: Mutex::default(),
        }
    }

    fn loops(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), Arc<AtomicBool>>> {
        self.loops.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the loop of a config (deleted, or replaced by one with its id):
    /// it sends nothing more (spec 3.1.10).
    pub(crate) fn stop(&self, task_id: &str, config_id: &str) {
        if let Some(flag) = self
            .loops()
            .remove(&(task_id.to_owned(), config_id.to_owned()))
        {
            flag.store(true, Ordering::Release);
        }
    }

    /// Starts the delivery loop of a config, replacing any loop it had.
    pub(crate) fn start(
        self: &Arc<Self>,
        store: Arc<dyn TaskStore>,
        runtime: Arc<dyn Runtime>,
        tracer: Option<Arc<dyn Tracer>>,
        attach: Attach,
    ) {
        let key = (attach.config.task_id.clone(), attach.config.id.clone());
        let stopped = Arc::new(AtomicBool::new(false));
        if let Some(old) = self.loops().insert(key.clone(), Arc::clone(&stopped)) {
            old.store(true, Ordering::Release);
        }
        let hub = Arc::clone(self);
        let run = Arc::clone(&runtime);
        runtime.spawn(Box::pin(async move {
            let delivery = Delivery {
                hub: &hub,
                store: &*store,
                runtime: &*run,
                stopped: &stopped,
                owner: &attach.owner,
                config: &attach.config,
                version: attach.version,
                tracer: tracer.as_deref(),
                trace: attach.trace.as_ref(),
            };
            delivery
                .run(
                    attach.task,
                    attach.position,
                    attach.snapshot_first,
                    attach.watch,
                )
                .await;
            let mut loops = hub.loops();
            if loops.get(&key).is_some_and(|f| Arc::ptr_eq(f, &stopped)) {
                loops.remove(&key);
            }
        }));
    }
}

/// One config's delivery loop.
struct Delivery<'a> {
    hub: &'a PushHub,
    store: &'a dyn TaskStore,
    runtime: &'a dyn Runtime,
    stopped: &'a AtomicBool,
    owner: &'a crate::owner::Owner,
    config: &'a TaskPushNotificationConfig,
    version: ProtocolVersion,
    tracer: Option<&'a dyn Tracer>,
    trace: Option<&'a TraceContext>,
}

impl Delivery<'_> {
    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }

    async fn run(
        &self,
        mut task: Task,
        mut position: u64,
        snapshot_first: bool,
        mut watch: Box<dyn TaskWatch>,
    ) {
        if snapshot_first {
            if !self.notify(&task, None).await {
                return;
            }
            position = self.skip_behind(position, &mut task).await;
        }
        let id = self.config.task_id.as_str();
        loop {
            if self.stopped() {
                return;
            }
            match self.store.read(id, position, View::FULL).await {
                Ok(LogRead::Event(event)) => {
                    position += 1;
                    let ends = ends(&event);
                    let _ = apply(&mut task, event.clone());
                    if !self.notify(&task, Some(event)).await || ends {
                        return;
                    }
                    position = self.skip_behind(position, &mut task).await;
                }
                Ok(LogRead::Behind(now, next)) => {
                    self.observe(DeliveryOutcome::Dropped);
                    position = next;
                    task = now;
                    let ends = task.is_terminal();
                    if !self.notify(&task, None).await || ends {
                        return;
                    }
                }
                Ok(LogRead::Pending) if task.is_terminal() => return,
                Ok(LogRead::Pending) => {
                    if changed(&mut *watch).await == Change::Closed {
                        // One more read finds what the last change left.
                        if !matches!(
                            self.store.read(id, position, View::STATUS).await,
                            Ok(LogRead::Event(_) | LogRead::Behind(..))
                        ) {
                            return;
                        }
                    }
                }
                Err(StoreError::NotFound) | Err(_) => return,
            }
        }
    }

    /// Skips, from `position`, the undelivered events beyond the most a
    /// webhook may fall behind (applying them to the local task so the 0.3
    /// bodies stay right); answers where to go on.
    async fn skip_behind(&self, position: u64, task: &mut Task) -> u64 {
        let Ok(now) = self
            .store
            .get(self.owner, &self.config.task_id, View::STATUS)
            .await
        else {
            return position;
        };
        let pending = now.position.saturating_sub(position);
        let max = self.hub.max_pending as u64;
        if pending <= max {
            return position;
        }
        let skip_to = now.position - max;
        for at in position..skip_to {
            if let Ok(LogRead::Event(event)) = self
                .store
                .read(&self.config.task_id, at, View::STATUS)
                .await
            {
                let _ = apply(task, event);
            }
            self.observe(DeliveryOutcome::Dropped);
        }
        skip_to
    }

    fn observe(&self, outcome: DeliveryOutcome) {
        if let Some(observer) = &self.hub.observer {
            observer(self.config, &outcome);
        }
    }

    /// Sends one notification (`event`, or the task itself when `None`);
    /// answers `false` when the loop must stop.
    async fn notify(&self, task: &Task, event: Option<StreamResponse>) -> bool {
        let body = if self.version == ProtocolVersion::V0_3 {
            a2a_types::v0_3::to_vec(task).unwrap_or_default()
        } else {
            #[allow(unused_mut)]
            let mut event = event.unwrap_or_else(|| StreamResponse::Task(task.clone()));
            #[cfg(feature = "draft-1-1")]
            if self.version < ProtocolVersion::V1_1 {
                a2a_types::draft_1_1::DraftFields::clear_draft_fields(&mut event);
            }
            a2a_types::json::to_vec(&event).unwrap_or_default()
        };
        let mut span = self.tracer.map(|tracer| {
            tracer.start(
                SpanName::Push,
                self.trace,
                &[
                    Attribute::str(AttributeKey::A2aTaskId, &self.config.task_id),
                    Attribute::str(AttributeKey::A2aPushConfigId, &self.config.id),
                ],
            )
        });
        let trace = match &span {
            Some(span) => span.context(),
            None => self.trace.cloned(),
        };
        let outcome = self.deliver(Bytes::from(body), trace.as_ref()).await;
        if let Some(span) = &mut span {
            end_push_span(&mut **span, outcome.as_ref());
        }
        match outcome {
            Some(outcome) => {
                self.observe(outcome);
                true
            }
            None => false,
        }
    }

    /// Delivers one notification with retries, as the schedule decides,
    /// each attempt carrying `trace` as its `traceparent`; `None` if the
    /// config was deleted meanwhile.
    async fn deliver(&self, body: Bytes, trace: Option<&TraceContext>) -> Option<DeliveryOutcome> {
        let schedule = &self.hub.schedule;
        let mut attempt = 0;
        loop {
            if self.stopped() {
                return None;
            }
            attempt += 1;
            let failed = |last: String| DeliveryOutcome::Failed {
                attempts: attempt,
                last,
            };
            let mut request = match push_request(self.config, body.clone(), &self.hub.allowlist) {
                Ok(request) => request,
                Err(why) => return Some(failed(why)),
            };
            if let Some(trace) = trace {
                trace.write_to(request.headers_mut());
            }
            if self.version == ProtocolVersion::V0_3 {
                request.headers_mut().insert(
                    http::header::CONTENT_TYPE,
                    http::HeaderValue::from_static("application/json"),
                );
            }
            let send = pin!(self.hub.sender.send(request));
            let timeout = pin!(self.runtime.sleep(schedule.attempt_timeout));
            let sent = race(send, timeout).await;
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
                Err(()) => AttemptResult::TimedOut,
            };
            match schedule.next(attempt, result, jitter()) {
                NextStep::Delivered => {
                    return Some(DeliveryOutcome::Delivered { attempts: attempt })
                }
                NextStep::RetryAfter(wait) => self.runtime.sleep(wait).await,
                NextStep::GiveUp(GiveUpReason::Rejected(status)) => {
                    return Some(failed(format!("HTTP {status}")))
                }
                NextStep::GiveUp(GiveUpReason::Exhausted { last, .. }) => {
                    return Some(failed(last))
                }
                NextStep::GiveUp(reason) => return Some(failed(reason.to_string())),
                // A step this kit does not know yet: stop rather than guess.
                other => return Some(failed(format!("{other:?}"))),
            }
        }
    }
}

/// Ends a notification's span with how it went (`None`: the config was
/// deleted before it was delivered).
fn end_push_span(span: &mut dyn Span, outcome: Option<&DeliveryOutcome>) {
    let (label, attempts) = match outcome {
        Some(DeliveryOutcome::Delivered { attempts }) => ("delivered", *attempts),
        Some(DeliveryOutcome::Failed { attempts, last }) => {
            span.set_error(last);
            ("failed", *attempts)
        }
        Some(DeliveryOutcome::Dropped) => ("dropped", 0),
        None => ("stopped", 0),
    };
    span.set_attribute(Attribute::str(AttributeKey::A2aOutcome, label));
    span.set_attribute(Attribute::int(
        AttributeKey::A2aPushAttempts,
        i64::from(attempts),
    ));
    span.end();
}

/// Whether a webhook has received everything once it has `event`.
fn ends(event: &StreamResponse) -> bool {
    match event {
        StreamResponse::StatusUpdate(e) => e.status.state.is_terminal(),
        StreamResponse::Task(t) => t.is_terminal(),
        StreamResponse::ArtifactUpdate(_) | StreamResponse::Message(_) => false,
    }
}

/// A value in `[0, 1)` for the retry jitter, from the standard library's
/// randomly keyed hasher (no RNG dependency; not for cryptography).
fn jitter() -> f64 {
    let bits = RandomState::new().build_hasher().finish() >> 11;
    bits as f64 / (1u64 << 53) as f64
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
        assert!(push_request(
            &TaskPushNotificationConfig::new("http://127.0.0.1/"),
            Bytes::new(),
            &Allowlist::new(),
        )
        .unwrap_err()
        .contains("loopback"));
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
