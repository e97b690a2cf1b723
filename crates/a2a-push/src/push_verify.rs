//! The client side of push notifications: a webhook receiver's check
//! that a notification is authentic and new, and its decoding (spec
//! 4.3.3, 13.2: clients MUST validate webhook authenticity using the
//! credentials, SHOULD check the task id, SHOULD process duplicates
//! idempotently).

use std::collections::hash_map::RandomState;
use std::collections::VecDeque;
use std::fmt;
use std::hash::BuildHasher;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use a2a_types::{AuthenticationInfo, DecodeLimits, StreamResponse, TaskPushNotificationConfig};
use bytes::Bytes;
use http::{Method, Request, StatusCode};
use subtle::ConstantTimeEq;

use crate::push_send::{authorization_value, NOTIFICATION_TOKEN_HEADER};
use a2a_wire::is_json_media_type;

/// The largest notification body [`WebhookVerifier`] decodes by default:
/// 16 MiB, the server's default request body limit.
pub const DEFAULT_MAX_NOTIFICATION_SIZE: usize = 16 * 1024 * 1024;

/// The default replay window: 5 minutes.
pub const DEFAULT_REPLAY_WINDOW: Duration = Duration::from_secs(300);

/// The default number of notifications remembered for replay detection:
/// 4096.
pub const DEFAULT_REPLAY_CAPACITY: usize = 4096;

/// Why a notification was not accepted. [`VerifyError::status`] is the
/// answer to send back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// Not a `POST` (spec 4.3.3).
    #[error("a notification is a POST, not {0}")]
    Method(Method),
    /// The `Content-Type` is missing or not JSON (spec 4.3.3:
    /// `application/a2a+json`; `application/json` is accepted too).
    #[error("a notification is application/a2a+json, not {0:?}")]
    MediaType(Option<String>),
    /// The body is over the limit.
    #[error("the notification is {len} bytes, over the limit of {max}")]
    TooLarge {
        /// The body's length.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// The expected token header is missing.
    #[error("the notification has no {NOTIFICATION_TOKEN_HEADER} header")]
    MissingToken,
    /// The token header does not match the config's token.
    #[error("the notification's {NOTIFICATION_TOKEN_HEADER} does not match")]
    TokenMismatch,
    /// The expected `Authorization` header is missing.
    #[error("the notification has no Authorization header")]
    MissingAuthorization,
    /// The `Authorization` header does not match the config's
    /// authentication.
    #[error("the notification's Authorization does not match")]
    AuthorizationMismatch,
    /// The body is not a `StreamResponse`.
    #[error("the notification is not a StreamResponse: {0}")]
    Malformed(String),
    /// The notification is about a task this receiver does not expect
    /// (spec 13.2: clients SHOULD verify the task id).
    #[error("the notification is about task {got:?}, not {expected:?}")]
    UnexpectedTask {
        /// The expected task.
        expected: String,
        /// The payload's task (empty for a message bound to none).
        got: String,
    },
    /// The event's timestamp lies outside the replay window around now:
    /// an old notification sent again, or a clock far off.
    #[error("the notification is stamped {age_secs} s away from now, outside the replay window")]
    Stale {
        /// How far the timestamp is from now, in whole seconds.
        age_secs: u64,
    },
    /// The same notification (the same body) was accepted within the
    /// replay window.
    #[error("the notification was already received")]
    Replayed,
}

impl VerifyError {
    /// The HTTP status to answer: `405`, `415`, `413`, `401` for the
    /// credentials, `400` for a body that is not a notification of the
    /// expected task or is stale, and `200` for a replay: the agent may
    /// retry a delivery whose acknowledgement was lost (spec 4.3.3:
    /// duplicates may occur and get 2xx), so a replay is acknowledged but
    /// not processed again.
    pub fn status(&self) -> StatusCode {
        match self {
            VerifyError::Method(_) => StatusCode::METHOD_NOT_ALLOWED,
            VerifyError::MediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            VerifyError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            VerifyError::MissingToken
            | VerifyError::TokenMismatch
            | VerifyError::MissingAuthorization
            | VerifyError::AuthorizationMismatch => StatusCode::UNAUTHORIZED,
            VerifyError::Malformed(_)
            | VerifyError::UnexpectedTask { .. }
            | VerifyError::Stale { .. } => StatusCode::BAD_REQUEST,
            VerifyError::Replayed => StatusCode::OK,
        }
    }
}

/// A notification that passed [`WebhookVerifier::verify`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Notification {
    /// The event (spec 4.3.3: the `StreamResponse` of a stream).
    pub event: StreamResponse,
}

/// Checks notifications arriving at one webhook (spec 4.3.3, 13.2), in
/// this order: `POST`, a JSON `Content-Type`, the body limit; the token
/// header ([`NOTIFICATION_TOKEN_HEADER`]) and the `Authorization` header
/// the config was created with, compared in constant time; the body
/// decoded as a `StreamResponse` (with the default decode limits) and its
/// task id; then replay detection.
///
/// **Replays.** A2A notifications carry no nonce, so a replay is
/// identified by what is there: a body byte-for-byte equal to one
/// accepted within the replay window is [`VerifyError::Replayed`], and a
/// task or status update stamped (`status.timestamp`) further than the
/// window from now, in either direction, is [`VerifyError::Stale`]. The
/// host supplies the clock (`now`). At most
/// [`with_replay_capacity`](WebhookVerifier::with_replay_capacity)
/// bodies are remembered (as keyed 64-bit digests); the oldest are
/// forgotten first. Replay detection runs after authentication, so an
/// unauthenticated sender cannot fill it.
///
/// ```
/// use std::time::SystemTime;
/// use a2a_push::WebhookVerifier;
///
/// let verifier = WebhookVerifier::new().with_token("tok-1").with_task("t-1");
/// let request = http::Request::post("/hook")
///     .header("content-type", "application/a2a+json")
///     .header("x-a2a-notification-token", "tok-1")
///     .body(bytes::Bytes::from_static(br#"{"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING"}}}"#))?;
/// let notification = verifier.verify(&request, SystemTime::now())?;
/// assert_eq!(notification.event.task_id(), Some("t-1"));
/// // The same bytes again are a replay, acknowledged but not processed.
/// let again = verifier.verify(&request, SystemTime::now()).unwrap_err();
/// assert_eq!(again.status(), 200);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct WebhookVerifier {
    token: Option<String>,
    authorization: Option<String>,
    task_id: Option<String>,
    max_size: usize,
    window: Duration,
    capacity: usize,
    keys: RandomState,
    seen: Mutex<VecDeque<(SystemTime, u64)>>,
}

impl fmt::Debug for WebhookVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The secrets are not printed.
        f.debug_struct("WebhookVerifier")
            .field("token", &self.token.as_ref().map(|_| ".."))
            .field("authorization", &self.authorization.as_ref().map(|_| ".."))
            .field("task_id", &self.task_id)
            .field("max_size", &self.max_size)
            .field("window", &self.window)
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

impl Default for WebhookVerifier {
    fn default() -> WebhookVerifier {
        WebhookVerifier::new()
    }
}

impl WebhookVerifier {
    /// A verifier that expects no credentials and any task, with the
    /// default limits.
    pub fn new() -> WebhookVerifier {
        WebhookVerifier {
            token: None,
            authorization: None,
            task_id: None,
            max_size: DEFAULT_MAX_NOTIFICATION_SIZE,
            window: DEFAULT_REPLAY_WINDOW,
            capacity: DEFAULT_REPLAY_CAPACITY,
            keys: RandomState::new(),
            seen: Mutex::new(VecDeque::new()),
        }
    }

    /// A verifier for what `config` asks the agent to send: its `token`
    /// (when not empty), its `authentication` and its `taskId` (when not
    /// empty).
    pub fn for_config(config: &TaskPushNotificationConfig) -> WebhookVerifier {
        let mut v = WebhookVerifier::new();
        if !config.token.is_empty() {
            v = v.with_token(config.token.clone());
        }
        if let Some(auth) = &config.authentication {
            v = v.with_authentication(auth);
        }
        if !config.task_id.is_empty() {
            v = v.with_task(config.task_id.clone());
        }
        v
    }

    /// Requires [`NOTIFICATION_TOKEN_HEADER`] to be `token`. When an
    /// `Authorization` is required too, a missing token header is
    /// accepted (the official JS SDK sends none then; `interop/FINDINGS.md`
    /// RS-5), a wrong one never.
    pub fn with_token(mut self, token: impl Into<String>) -> WebhookVerifier {
        self.token = Some(token.into());
        self
    }

    /// Requires `Authorization: {scheme} {credentials}` as the agent
    /// sends it; the scheme is compared ignoring ASCII case (RFC 9110
    /// section 11.1), the credentials exactly. An `auth` that cannot be a
    /// header value is required as written (so nothing matches it).
    pub fn with_authentication(mut self, auth: &AuthenticationInfo) -> WebhookVerifier {
        let expected = authorization_value(auth)
            .ok()
            .and_then(|v| v.to_str().ok().map(str::to_owned))
            .unwrap_or_else(|| format!("{} {}", auth.scheme, auth.credentials));
        self.authorization = Some(expected);
        self
    }

    /// Requires the payload to be about task `task_id`.
    pub fn with_task(mut self, task_id: impl Into<String>) -> WebhookVerifier {
        self.task_id = Some(task_id.into());
        self
    }

    /// The largest body decoded (default [`DEFAULT_MAX_NOTIFICATION_SIZE`]).
    pub fn with_max_size(mut self, bytes: usize) -> WebhookVerifier {
        self.max_size = bytes;
        self
    }

    /// The replay window (default [`DEFAULT_REPLAY_WINDOW`]).
    pub fn with_replay_window(mut self, window: Duration) -> WebhookVerifier {
        self.window = window;
        self
    }

    /// How many accepted bodies are remembered (default
    /// [`DEFAULT_REPLAY_CAPACITY`]); 0 turns duplicate detection off.
    pub fn with_replay_capacity(mut self, capacity: usize) -> WebhookVerifier {
        self.capacity = capacity;
        self
    }

    /// Checks and decodes one notification received at `now` (see the
    /// type's documentation for the order of checks).
    pub fn verify(
        &self,
        request: &Request<Bytes>,
        now: SystemTime,
    ) -> Result<Notification, VerifyError> {
        if request.method() != Method::POST {
            return Err(VerifyError::Method(request.method().clone()));
        }
        let headers = request.headers();
        let content_type = headers
            .get(http::header::CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        if !content_type.as_deref().is_some_and(is_json_media_type) {
            return Err(VerifyError::MediaType(content_type));
        }
        let body = request.body();
        if body.len() > self.max_size {
            return Err(VerifyError::TooLarge {
                len: body.len(),
                max: self.max_size,
            });
        }
        if let Some(token) = &self.token {
            match headers.get(NOTIFICATION_TOKEN_HEADER) {
                Some(got) if !bool::from(got.as_bytes().ct_eq(token.as_bytes())) => {
                    return Err(VerifyError::TokenMismatch)
                }
                Some(_) => {}
                // The official JS SDK sends no token header when the config
                // has `authentication`; the Authorization check below
                // then authenticates the notification.
                None if self.authorization.is_some() => {}
                None => return Err(VerifyError::MissingToken),
            }
        }
        if let Some(expected) = &self.authorization {
            let got = headers
                .get(http::header::AUTHORIZATION)
                .ok_or(VerifyError::MissingAuthorization)?;
            if !authorization_matches(got.as_bytes(), expected.as_bytes()) {
                return Err(VerifyError::AuthorizationMismatch);
            }
        }
        let limits = DecodeLimits::new().with_max_input_bytes(self.max_size);
        let event: StreamResponse = a2a_types::from_slice_with_limits(body, &limits)
            .map_err(|e| VerifyError::Malformed(e.to_string()))?;
        if let Some(expected) = &self.task_id {
            let got = event.task_id().unwrap_or_default();
            if got != expected {
                return Err(VerifyError::UnexpectedTask {
                    expected: expected.clone(),
                    got: got.to_owned(),
                });
            }
        }
        if let Some(stamp) = event_time(&event) {
            let age = match now.duration_since(stamp) {
                Ok(age) => age,
                Err(ahead) => ahead.duration(),
            };
            if age > self.window {
                return Err(VerifyError::Stale {
                    age_secs: age.as_secs(),
                });
            }
        }
        self.remember(body, now)?;
        Ok(Notification { event })
    }

    /// Records the body's digest, or reports that it was seen within the
    /// window.
    fn remember(&self, body: &[u8], now: SystemTime) -> Result<(), VerifyError> {
        if self.capacity == 0 {
            return Ok(());
        }
        let digest = self.keys.hash_one(body);
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        // Forget what left the window (entries are in arrival order).
        while let Some((at, _)) = seen.front() {
            let expired = now.duration_since(*at).is_ok_and(|age| age > self.window);
            if !expired {
                break;
            }
            seen.pop_front();
        }
        if seen.iter().any(|(_, d)| *d == digest) {
            return Err(VerifyError::Replayed);
        }
        while seen.len() >= self.capacity {
            seen.pop_front();
        }
        seen.push_back((now, digest));
        Ok(())
    }
}

/// The scheme compared ignoring ASCII case, the rest exactly, all in
/// time that depends only on the lengths.
fn authorization_matches(got: &[u8], expected: &[u8]) -> bool {
    let split = |v: &[u8]| {
        let at = v.iter().position(|b| *b == b' ').unwrap_or(v.len());
        (v[..at].to_ascii_lowercase(), v[at..].to_vec())
    };
    let (gs, gr) = split(got);
    let (es, er) = split(expected);
    // Both comparisons always run.
    let scheme = gs.ct_eq(&es);
    let rest = gr.ct_eq(&er);
    (scheme & rest).into()
}

/// The time an event is stamped with: a task's or status update's
/// `status.timestamp`. Messages and artifact updates carry none.
fn event_time(event: &StreamResponse) -> Option<SystemTime> {
    let status = match event {
        StreamResponse::Task(t) => &t.status,
        StreamResponse::StatusUpdate(e) => &e.status,
        StreamResponse::Message(_) | StreamResponse::ArtifactUpdate(_) => return None,
    };
    status.timestamp.map(SystemTime::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::push_send::notification_request;
    use crate::webhook::Allowlist;
    use a2a_types::{Task, TaskState, TaskStatus, Timestamp};

    fn config() -> TaskPushNotificationConfig {
        let mut c = TaskPushNotificationConfig::new("https://hooks.example.com/a2a");
        c.task_id = "t-1".into();
        c.token = "tok-1".into();
        c.authentication = Some(AuthenticationInfo::new("Bearer", "s3cret"));
        c
    }

    fn event(id: &str, state: TaskState) -> StreamResponse {
        StreamResponse::Task(Task::new(id, "c-1", state))
    }

    fn request(config: &TaskPushNotificationConfig, event: &StreamResponse) -> Request<Bytes> {
        notification_request(config, event, &Allowlist::new()).unwrap()
    }

    fn with_header(mut r: Request<Bytes>, name: &'static str, value: &str) -> Request<Bytes> {
        r.headers_mut().insert(name, value.parse().unwrap());
        r
    }

    #[test]
    fn accepts_what_the_sender_builds() {
        let now = SystemTime::now();
        let v = WebhookVerifier::for_config(&config());
        let e = event("t-1", TaskState::Working);
        let got = v.verify(&request(&config(), &e), now).unwrap();
        assert_eq!(got.event, e);
        // The scheme is case-insensitive.
        let lower = with_header(
            request(&config(), &event("t-1", TaskState::Completed)),
            "authorization",
            "bearer s3cret",
        );
        assert!(v.verify(&lower, now).is_ok());
        // application/json is JSON too.
        let json = with_header(
            request(&config(), &event("t-1", TaskState::Failed)),
            "content-type",
            "application/json; charset=utf-8",
        );
        assert!(v.verify(&json, now).is_ok());
    }

    #[test]
    fn refuses_with_precise_errors() {
        let now = SystemTime::now();
        let v = WebhookVerifier::for_config(&config());
        let good = || request(&config(), &event("t-1", TaskState::Working));
        let mut get = good();
        *get.method_mut() = Method::GET;
        assert_eq!(
            v.verify(&get, now).unwrap_err(),
            VerifyError::Method(Method::GET)
        );
        let text = with_header(good(), "content-type", "text/plain");
        assert_eq!(
            v.verify(&text, now).unwrap_err(),
            VerifyError::MediaType(Some("text/plain".into()))
        );
        let mut none = good();
        none.headers_mut().remove("content-type");
        assert_eq!(v.verify(&none, now).unwrap_err().status(), 415);
        let mut no_token = request(&config(), &event("t-1", TaskState::Submitted));
        no_token.headers_mut().remove(NOTIFICATION_TOKEN_HEADER);
        assert!(
            v.verify(&no_token, now).is_ok(),
            "no token header beside a matching Authorization (the JS SDK)"
        );
        let token_only = WebhookVerifier::new().with_token("tok-1");
        assert_eq!(
            token_only.verify(&no_token, now).unwrap_err(),
            VerifyError::MissingToken
        );
        for wrong in ["tok-2", "tok-", "tok-11", ""] {
            let r = with_header(good(), "x-a2a-notification-token", wrong);
            assert_eq!(
                v.verify(&r, now).unwrap_err(),
                VerifyError::TokenMismatch,
                "{wrong:?}"
            );
        }
        let mut no_auth = good();
        no_auth.headers_mut().remove("authorization");
        assert_eq!(
            v.verify(&no_auth, now).unwrap_err(),
            VerifyError::MissingAuthorization
        );
        for wrong in ["Bearer S3cret", "Basic s3cret", "Bearer s3cret ", "Bearer"] {
            let r = with_header(good(), "authorization", wrong);
            let e = v.verify(&r, now).unwrap_err();
            assert_eq!(e, VerifyError::AuthorizationMismatch, "{wrong:?}");
            assert_eq!(e.status(), 401);
        }
        let other_task = request(&config(), &event("t-2", TaskState::Working));
        assert_eq!(
            v.verify(&other_task, now).unwrap_err(),
            VerifyError::UnexpectedTask {
                expected: "t-1".into(),
                got: "t-2".into()
            }
        );
        let mut bad = good();
        *bad.body_mut() = Bytes::from_static(br#"{"task":{"id":"t-1"},"message":{}}"#);
        let e = v.verify(&bad, now).unwrap_err();
        assert!(
            matches!(e, VerifyError::Malformed(_)) && e.status() == 400,
            "{e}"
        );
        *bad.body_mut() = Bytes::from_static(b"\xff{");
        assert!(matches!(
            v.verify(&bad, now),
            Err(VerifyError::Malformed(_))
        ));
        assert!(
            !format!("{v:?}").contains("s3cret"),
            "secrets stay out of Debug"
        );
        let small = WebhookVerifier::for_config(&config()).with_max_size(16);
        assert_eq!(
            small.verify(&good(), now).unwrap_err(),
            VerifyError::TooLarge {
                len: good().body().len(),
                max: 16
            }
        );
        // Failed attempts are not remembered: the genuine one still passes.
        assert!(v.verify(&good(), now).is_ok());
    }

    #[test]
    fn replays_within_the_window() {
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let v = WebhookVerifier::new().with_replay_window(Duration::from_secs(60));
        let r = request(&config(), &event("t-1", TaskState::Working));
        assert!(v.verify(&r, t0).is_ok());
        assert_eq!(
            v.verify(&r, t0 + Duration::from_secs(59)).unwrap_err(),
            VerifyError::Replayed
        );
        // A different notification is not a replay.
        let other = request(&config(), &event("t-1", TaskState::Completed));
        assert!(v.verify(&other, t0 + Duration::from_secs(59)).is_ok());
        // Outside the window the first is forgotten (it carries no stamp).
        assert!(v.verify(&r, t0 + Duration::from_secs(121)).is_ok());

        // Stamped events outside the window are stale, either way.
        let mut task = Task::new("t-1", "c-1", TaskState::Working);
        task.status =
            TaskStatus::new(TaskState::Working).with_timestamp(Timestamp::try_from(t0).unwrap());
        let stamped = request(&config(), &StreamResponse::Task(task));
        assert_eq!(
            v.verify(&stamped, t0 + Duration::from_secs(61))
                .unwrap_err(),
            VerifyError::Stale { age_secs: 61 }
        );
        assert_eq!(
            v.verify(&stamped, t0 - Duration::from_secs(90))
                .unwrap_err(),
            VerifyError::Stale { age_secs: 90 }
        );
        assert!(v.verify(&stamped, t0 + Duration::from_secs(30)).is_ok());

        // The capacity bounds memory; 0 turns duplicate detection off.
        let tiny = WebhookVerifier::new().with_replay_capacity(1);
        assert!(tiny.verify(&r, t0).is_ok());
        assert!(tiny.verify(&other, t0).is_ok());
        assert!(tiny.verify(&r, t0).is_ok(), "forgotten: capacity 1");
        assert_eq!(tiny.verify(&r, t0).unwrap_err(), VerifyError::Replayed);
        let off = WebhookVerifier::new().with_replay_capacity(0);
        assert!(off.verify(&r, t0).is_ok() && off.verify(&r, t0).is_ok());
    }
}
