//! The agent side of push notifications (spec 4.3.3, 13.2): the request
//! of one notification, the retry schedule as data, and the resolver
//! check that keeps deliveries out of the agent's own network.

use std::fmt;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use a2a_types::{StreamResponse, TaskPushNotificationConfig};
use bytes::Bytes;
use http::{HeaderValue, Request, StatusCode, Uri};

use crate::webhook::{check_ip, check_webhook_url, Allowlist, SsrfError, WebhookHost};
use a2a_wire::BoxFuture;
use a2a_wire::HttpError;
use a2a_wire::A2A_JSON;

/// The header carrying a config's `token` (`PushNotificationConfig.token`,
/// spec 4.3.1). The specification names no header; this is the one the
/// official SDKs send and read.
pub const NOTIFICATION_TOKEN_HEADER: &str = "x-a2a-notification-token";

/// Why the request of a notification could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PushRequestError {
    /// The webhook URL is refused (spec 13.2): checked again on every
    /// delivery, because the allowlist may have changed since the config
    /// was stored.
    #[error("{0}")]
    Refused(SsrfError),
    /// The URL passed the webhook checks but is not a request URI.
    #[error("webhook URL is not a valid request URI: {0}")]
    InvalidUri(String),
    /// `authentication.scheme` is empty or not a token (RFC 9110 section
    /// 11.1), or the credentials cannot be carried in a header.
    #[error("the config's authentication cannot be sent as an Authorization header: {0}")]
    InvalidAuthentication(String),
    /// The config's `token` cannot be carried in a header (control
    /// characters, say).
    #[error("the config's token cannot be sent in a header")]
    InvalidToken,
    /// The event could not be encoded.
    #[error("cannot encode the notification: {0}")]
    Encode(String),
}

/// The request of one notification (spec 4.3.3): `POST {url}` with the
/// `StreamResponse` as ProtoJSON, `Content-Type: application/a2a+json`,
/// `Authorization: {scheme} {credentials}` from the config's
/// `authentication` (spec 13.2: agents MUST include them) and the config's
/// `token` in [`NOTIFICATION_TOKEN_HEADER`] when it is not empty.
///
/// The URL is checked with [`check_webhook_url`] against `allow` first,
/// so a numeric host is refused here; a host name is checked when it is
/// resolved ([`SsrfResolver`]).
///
/// ```
/// use a2a_push::{notification_request, webhook::Allowlist};
/// use a2a_types::{AuthenticationInfo, StreamResponse, Task, TaskPushNotificationConfig, TaskState};
///
/// let mut config = TaskPushNotificationConfig::new("https://hooks.example.com/a2a");
/// config.token = "tok-1".into();
/// config.authentication = Some(AuthenticationInfo::new("Bearer", "s3cret"));
/// let event = StreamResponse::Task(Task::new("t-1", "c-1", TaskState::Working));
/// let request = notification_request(&config, &event, &Allowlist::new())?;
/// assert_eq!(request.headers()["authorization"], "Bearer s3cret");
/// assert_eq!(request.headers()["x-a2a-notification-token"], "tok-1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn notification_request(
    config: &TaskPushNotificationConfig,
    event: &StreamResponse,
    allow: &Allowlist,
) -> Result<Request<Bytes>, PushRequestError> {
    let body = a2a_types::to_vec(event).map_err(|e| PushRequestError::Encode(e.to_string()))?;
    notification_request_with_body(config, Bytes::from(body), allow)
}

/// [`notification_request`] with the event already encoded (an agent
/// encodes an event once for all the task's webhooks). `body` is sent as
/// it is.
pub fn notification_request_with_body(
    config: &TaskPushNotificationConfig,
    body: Bytes,
    allow: &Allowlist,
) -> Result<Request<Bytes>, PushRequestError> {
    check_webhook_url(&config.url, allow).map_err(PushRequestError::Refused)?;
    let uri: Uri = config
        .url
        .parse()
        .map_err(|e: http::uri::InvalidUri| PushRequestError::InvalidUri(e.to_string()))?;
    let mut request = Request::new(body);
    *request.method_mut() = http::Method::POST;
    *request.uri_mut() = uri;
    let headers = request.headers_mut();
    headers.insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static(A2A_JSON),
    );
    if let Some(auth) = &config.authentication {
        headers.insert(http::header::AUTHORIZATION, authorization_value(auth)?);
    }
    if !config.token.is_empty() {
        let token =
            HeaderValue::from_str(&config.token).map_err(|_| PushRequestError::InvalidToken)?;
        headers.insert(NOTIFICATION_TOKEN_HEADER, token);
    }
    Ok(request)
}

/// `{scheme} {credentials}`, or the scheme alone when there are no
/// credentials; marked sensitive so that logs of the headers hide it.
pub(crate) fn authorization_value(
    auth: &a2a_types::AuthenticationInfo,
) -> Result<HeaderValue, PushRequestError> {
    let scheme = auth.scheme.as_str();
    let is_tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if scheme.is_empty() || !scheme.bytes().all(is_tchar) {
        return Err(PushRequestError::InvalidAuthentication(format!(
            "scheme {scheme:?} is not an HTTP authentication scheme"
        )));
    }
    let text = if auth.credentials.is_empty() {
        scheme.to_owned()
    } else {
        format!("{scheme} {}", auth.credentials)
    };
    let mut value = HeaderValue::from_str(&text).map_err(|_| {
        PushRequestError::InvalidAuthentication(
            "the credentials hold characters a header cannot carry".to_owned(),
        )
    })?;
    value.set_sensitive(true);
    Ok(value)
}

/// When to try a notification again (spec 4.3.3, 13.2: agents SHOULD
/// retry with exponential backoff and MAY give up after a number of
/// failures), as plain data: the host owns the clock and the timer.
///
/// The wait after failed attempt `n` (1 for the first) is
/// `initial_backoff * 2^(n-1)`, capped at `max_backoff`, then shortened by
/// up to `jitter` of itself according to a value in `[0, 1)` the host
/// draws ([`RetrySchedule::next`]), so that agents that failed together
/// do not retry together.
///
/// What is retried: `408`, `429` and `5xx` answers, and
/// [`HttpError::Connection`] and [`HttpError::Timeout`]. Every other
/// answer, and [`HttpError::Other`] (which is how a refused address comes
/// back from the adapter's client), is final. `2xx` is delivered (spec
/// 4.3.3: clients acknowledge with 2xx). Redirects are final too: a
/// notification is never re-sent elsewhere.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RetrySchedule {
    /// Attempts per notification, the first included. Default 5; 0 is
    /// taken as 1 (spec 4.3.3: at least one attempt).
    pub max_attempts: u32,
    /// The wait after the first failed attempt. Default 250 ms.
    pub initial_backoff: Duration,
    /// The longest wait. Default 8 s.
    pub max_backoff: Duration,
    /// The largest share of a wait that jitter removes, in `[0, 1]`.
    /// Default 0.5 (a wait falls between half and all of its backoff).
    pub jitter: f64,
    /// The timeout of one attempt, for the host to apply. Default 10 s
    /// (spec 4.3.3 recommends 10-30 s).
    pub attempt_timeout: Duration,
}

impl Default for RetrySchedule {
    fn default() -> RetrySchedule {
        RetrySchedule {
            max_attempts: 5,
            initial_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(8),
            jitter: 0.5,
            attempt_timeout: Duration::from_secs(10),
        }
    }
}

/// What an attempt came to, as [`RetrySchedule::next`] reads it.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum AttemptResult<'a> {
    /// The webhook answered with this status.
    Status(StatusCode),
    /// The HTTP stack failed.
    Failed(&'a HttpError),
    /// The attempt timed out (the host's [`RetrySchedule::attempt_timeout`]).
    TimedOut,
}

/// What to do after an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NextStep {
    /// The webhook acknowledged the notification (2xx).
    Delivered,
    /// Try again after this wait.
    RetryAfter(Duration),
    /// Stop: the answer is final, or the attempts are used up.
    GiveUp(GiveUpReason),
}

/// Why a notification was given up.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GiveUpReason {
    /// The webhook answered a status that is not retried (4xx but 408 and
    /// 429, 3xx, 1xx).
    Rejected(StatusCode),
    /// The HTTP stack failed in a way that is not retried
    /// ([`HttpError::Other`]: a refused address, a TLS error).
    Failed(String),
    /// Every attempt failed; the last failure.
    Exhausted {
        /// Attempts made.
        attempts: u32,
        /// The last status or error.
        last: String,
    },
}

impl fmt::Display for GiveUpReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GiveUpReason::Rejected(status) => write!(f, "webhook answered HTTP {status}"),
            GiveUpReason::Failed(why) => f.write_str(why),
            GiveUpReason::Exhausted { attempts, last } => {
                write!(f, "gave up after {attempts} attempts: {last}")
            }
        }
    }
}

/// True for the answers worth another attempt: `408`, `429` and `5xx`.
pub fn is_retryable_status(status: StatusCode) -> bool {
    status == StatusCode::REQUEST_TIMEOUT
        || status == StatusCode::TOO_MANY_REQUESTS
        || status.is_server_error()
}

impl RetrySchedule {
    /// The default schedule (see the fields).
    pub fn new() -> RetrySchedule {
        RetrySchedule::default()
    }

    /// The wait after failed attempt `attempt` (1 for the first), before
    /// jitter: `initial_backoff * 2^(attempt-1)`, at most `max_backoff`.
    pub fn backoff(&self, attempt: u32) -> Duration {
        let factor = 1u32
            .checked_shl(attempt.saturating_sub(1))
            .unwrap_or(u32::MAX);
        self.initial_backoff
            .saturating_mul(factor)
            .min(self.max_backoff)
    }

    /// What to do after attempt number `attempt` (1 for the first) came
    /// to `result`. `random` is a value in `[0, 1)` the host draws for the
    /// jitter (outside that range, or not finite, it counts as 0: no
    /// jitter).
    pub fn next(&self, attempt: u32, result: AttemptResult<'_>, random: f64) -> NextStep {
        let last = match result {
            AttemptResult::Status(status) if status.is_success() => return NextStep::Delivered,
            AttemptResult::Status(status) if is_retryable_status(status) => {
                format!("HTTP {status}")
            }
            AttemptResult::Status(status) => {
                return NextStep::GiveUp(GiveUpReason::Rejected(status))
            }
            AttemptResult::Failed(e) if e.is_retryable() => e.to_string(),
            AttemptResult::Failed(e) => {
                return NextStep::GiveUp(GiveUpReason::Failed(e.to_string()))
            }
            AttemptResult::TimedOut => format!("timed out after {:?}", self.attempt_timeout),
        };
        if attempt >= self.max_attempts.max(1) {
            return NextStep::GiveUp(GiveUpReason::Exhausted {
                attempts: attempt,
                last,
            });
        }
        NextStep::RetryAfter(self.jittered(self.backoff(attempt), random))
    }

    fn jittered(&self, wait: Duration, random: f64) -> Duration {
        let unit = |x: f64| {
            if x.is_finite() {
                x.clamp(0.0, 1.0)
            } else {
                0.0
            }
        };
        let random = if (0.0..1.0).contains(&random) {
            random
        } else {
            0.0
        };
        // In [0, 1]: never negative, never more than the wait.
        let cut = unit(self.jitter) * random;
        wait.saturating_sub(wait.mul_f64(cut))
    }
}

/// The host's name resolution (DNS, or whatever the host uses): a host
/// name in, its addresses out. The core does no I/O; an adapter supplies
/// one (`a2a-hyper` wraps the system resolver), a test its own.
pub trait Resolve: Send + Sync {
    /// The addresses of `host` (a DNS name, never a numeric address).
    fn resolve<'a>(&'a self, host: &'a str) -> BoxFuture<'a, io::Result<Vec<IpAddr>>>;
}

impl<R: Resolve + ?Sized> Resolve for std::sync::Arc<R> {
    fn resolve<'a>(&'a self, host: &'a str) -> BoxFuture<'a, io::Result<Vec<IpAddr>>> {
        (**self).resolve(host)
    }
}

/// The most addresses [`SsrfResolver`] answers for one name: 32.
pub const MAX_RESOLVED_ADDRS: usize = 32;

/// Why [`SsrfResolver`] answered no addresses.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// The name resolved to an address that is refused (spec 13.2): the
    /// whole answer is refused, not just that address, because a name
    /// that leads inside the network even once is not a public webhook.
    #[error("webhook host {host:?} resolves to a refused address: {error}")]
    Refused {
        /// The name.
        host: String,
        /// The refused address and why.
        error: SsrfError,
    },
    /// The name is `localhost` or a `.localhost` name.
    #[error("{0}")]
    Url(SsrfError),
    /// The lookup failed.
    #[error("cannot resolve {host:?}: {error}")]
    Lookup {
        /// The name.
        host: String,
        /// The resolver's error.
        error: io::Error,
    },
    /// The lookup answered no address.
    #[error("{host:?} has no address")]
    NoAddress {
        /// The name.
        host: String,
    },
}

impl ResolveError {
    /// True when the answer is a refusal (spec 13.2), which is final;
    /// false for a lookup that failed, which may be retried.
    pub fn is_refusal(&self) -> bool {
        matches!(self, ResolveError::Refused { .. } | ResolveError::Url(_))
    }
}

/// A [`Resolve`] whose answers are checked against the webhook rules:
/// the check at connect time that DNS names and rebinding cannot get
/// around (spec 13.2). Every address a name resolves to is checked with
/// [`check_ip`]; if any is refused, the lookup fails with
/// [`ResolveError::Refused`] and nothing is connected to. A name the
/// [`Allowlist`] admits ([`Allowlist::allows_host`]) resolves to whatever
/// it resolves to. At most [`MAX_RESOLVED_ADDRS`] addresses are answered.
///
/// An HTTP client that connects only to the addresses this answers, and
/// only after [`notification_request`] checked the URL (numeric hosts
/// are not resolved), reaches only admitted addresses.
///
/// As a [`Resolve`] itself, its errors are `io::Error`s of kind
/// `PermissionDenied` (a refusal) or `Other`, carrying the
/// [`ResolveError`] (`io::Error::get_ref`).
#[derive(Debug, Clone)]
pub struct SsrfResolver<R> {
    inner: R,
    allow: Allowlist,
}

impl<R: Resolve> SsrfResolver<R> {
    /// Checks what `inner` answers against `allow`.
    pub fn new(inner: R, allow: Allowlist) -> SsrfResolver<R> {
        SsrfResolver { inner, allow }
    }

    /// The allowlist.
    pub fn allowlist(&self) -> &Allowlist {
        &self.allow
    }

    /// Resolves `host` and checks every address.
    pub async fn resolve_checked(&self, host: &str) -> Result<Vec<IpAddr>, ResolveError> {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = bare.parse::<IpAddr>() {
            check_ip(ip, &self.allow).map_err(|error| ResolveError::Refused {
                host: host.to_owned(),
                error,
            })?;
            return Ok(vec![ip]);
        }
        // The same name rules as a URL: `localhost` is refused before any
        // lookup, a malformed name is not looked up.
        let url = format!("http://{host}/");
        let target = check_webhook_url(&url, &self.allow).map_err(ResolveError::Url)?;
        if let WebhookHost::Ip(ip) = target.host() {
            // A numeric form `IpAddr` does not read (`127.1`), already
            // checked by `check_webhook_url`.
            return Ok(vec![ip]);
        }
        let mut addrs = self
            .inner
            .resolve(host)
            .await
            .map_err(|error| ResolveError::Lookup {
                host: host.to_owned(),
                error,
            })?;
        addrs.truncate(MAX_RESOLVED_ADDRS);
        if addrs.is_empty() {
            return Err(ResolveError::NoAddress {
                host: host.to_owned(),
            });
        }
        if !target.is_host_allowlisted() {
            for ip in &addrs {
                target
                    .check_connect_addr(SocketAddr::new(*ip, target.port()), &self.allow)
                    .map_err(|error| ResolveError::Refused {
                        host: host.to_owned(),
                        error,
                    })?;
            }
        }
        Ok(addrs)
    }
}

impl<R: Resolve> Resolve for SsrfResolver<R> {
    fn resolve<'a>(&'a self, host: &'a str) -> BoxFuture<'a, io::Result<Vec<IpAddr>>> {
        Box::pin(async move {
            self.resolve_checked(host).await.map_err(|e| {
                let kind = if e.is_refusal() {
                    io::ErrorKind::PermissionDenied
                } else {
                    io::ErrorKind::Other
                };
                io::Error::new(kind, e)
            })
        })
    }
}

/// Finds a [`ResolveError`] refusal in an error's chain of sources (as an
/// HTTP client reports a failed connect), for adapters that map it to a
/// final [`HttpError::Other`].
pub fn find_refusal<'e>(error: &'e (dyn std::error::Error + 'static)) -> Option<&'e ResolveError> {
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(r) = e.downcast_ref::<ResolveError>() {
            return r.is_refusal().then_some(r);
        }
        // `io::Error::source` skips the error it carries: look inside.
        next = match e.downcast_ref::<io::Error>().and_then(io::Error::get_ref) {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => e.source(),
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::{AuthenticationInfo, Task, TaskState};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        let mut f = std::pin::pin!(f);
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        loop {
            if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    fn event() -> StreamResponse {
        StreamResponse::Task(Task::new("t-1", "c-1", TaskState::Working))
    }

    #[test]
    fn request_shape() {
        let mut config = TaskPushNotificationConfig::new("https://hooks.example.com/a2a?x=1");
        config.token = "tok-1".into();
        config.authentication = Some(AuthenticationInfo::new("Bearer", "s3cret"));
        let req = notification_request(&config, &event(), &Allowlist::new()).unwrap();
        assert_eq!(req.method(), http::Method::POST);
        assert_eq!(req.uri(), "https://hooks.example.com/a2a?x=1");
        assert_eq!(req.headers()["content-type"], "application/a2a+json");
        assert_eq!(req.headers()["authorization"], "Bearer s3cret");
        assert!(req.headers()["authorization"].is_sensitive());
        assert_eq!(req.headers()["x-a2a-notification-token"], "tok-1");
        let back: StreamResponse = a2a_types::from_slice(req.body()).unwrap();
        assert_eq!(back, event());
        assert!(std::str::from_utf8(req.body())
            .unwrap()
            .starts_with(r#"{"task":{"id":"t-1""#));

        let bare = notification_request_with_body(
            &TaskPushNotificationConfig::new("http://hooks.example.com/"),
            Bytes::from_static(b"{}"),
            &Allowlist::new(),
        )
        .unwrap();
        assert!(bare.headers().get("authorization").is_none());
        assert!(bare.headers().get("x-a2a-notification-token").is_none());
        assert_eq!(bare.body(), "{}");

        let mut scheme_only = config.clone();
        scheme_only.authentication = Some(AuthenticationInfo::new("Negotiate", ""));
        let req = notification_request(&scheme_only, &event(), &Allowlist::new()).unwrap();
        assert_eq!(req.headers()["authorization"], "Negotiate");
    }

    #[test]
    fn request_errors() {
        let allow = Allowlist::new();
        let refused = TaskPushNotificationConfig::new("http://127.0.0.1:8080/");
        assert!(matches!(
            notification_request(&refused, &event(), &allow),
            Err(PushRequestError::Refused(SsrfError::RefusedAddress { .. }))
        ));
        let mut loopback = Allowlist::new();
        loopback.allow("127.0.0.0/8").unwrap();
        assert!(notification_request(&refused, &event(), &loopback).is_ok());

        let mut bad = TaskPushNotificationConfig::new("https://hooks.example.com/");
        bad.authentication = Some(AuthenticationInfo::new("Bea rer", "x"));
        assert!(matches!(
            notification_request(&bad, &event(), &allow),
            Err(PushRequestError::InvalidAuthentication(_))
        ));
        bad.authentication = Some(AuthenticationInfo::new("", "x"));
        assert!(matches!(
            notification_request(&bad, &event(), &allow),
            Err(PushRequestError::InvalidAuthentication(_))
        ));
        bad.authentication = Some(AuthenticationInfo::new("Bearer", "a\r\nX-Evil: 1"));
        assert!(matches!(
            notification_request(&bad, &event(), &allow),
            Err(PushRequestError::InvalidAuthentication(_))
        ));
        bad.authentication = None;
        bad.token = "t\nX-Evil: 1".into();
        assert_eq!(
            notification_request(&bad, &event(), &allow).unwrap_err(),
            PushRequestError::InvalidToken
        );
    }

    #[test]
    fn schedule_backs_off_jitters_and_gives_up() {
        let s = RetrySchedule {
            max_attempts: 4,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(300),
            jitter: 0.5,
            attempt_timeout: Duration::from_secs(1),
        };
        let status = |n| AttemptResult::Status(StatusCode::from_u16(n).unwrap());
        assert_eq!(s.next(1, status(200), 0.0), NextStep::Delivered);
        assert_eq!(s.next(4, status(204), 0.9), NextStep::Delivered);
        assert_eq!(
            s.next(1, status(503), 0.0),
            NextStep::RetryAfter(Duration::from_millis(100))
        );
        assert_eq!(
            s.next(2, status(429), 0.0),
            NextStep::RetryAfter(Duration::from_millis(200))
        );
        assert_eq!(
            s.next(3, status(408), 0.0),
            NextStep::RetryAfter(Duration::from_millis(300)),
            "capped"
        );
        // Half of the jitter share of 200 ms.
        let near = |step: NextStep, want: Duration| match step {
            NextStep::RetryAfter(w) => w.abs_diff(want) < Duration::from_micros(1),
            _ => false,
        };
        assert!(near(
            s.next(2, status(500), 0.5),
            Duration::from_millis(150)
        ));
        // Out-of-range randomness means no jitter, never a panic.
        for r in [f64::NAN, f64::INFINITY, -1.0, 1.0, 7.5] {
            assert_eq!(
                s.next(2, status(500), r),
                NextStep::RetryAfter(Duration::from_millis(200)),
                "{r}"
            );
        }
        assert_eq!(
            s.next(4, status(503), 0.0),
            NextStep::GiveUp(GiveUpReason::Exhausted {
                attempts: 4,
                last: "HTTP 503 Service Unavailable".into()
            })
        );
        for final_status in [400, 401, 403, 404, 301, 410] {
            assert_eq!(
                s.next(1, status(final_status), 0.0),
                NextStep::GiveUp(GiveUpReason::Rejected(
                    StatusCode::from_u16(final_status).unwrap()
                ))
            );
        }
        let lost = HttpError::Connection("reset".into());
        assert!(matches!(
            s.next(1, AttemptResult::Failed(&lost), 0.0),
            NextStep::RetryAfter(_)
        ));
        assert!(matches!(
            s.next(1, AttemptResult::TimedOut, 0.0),
            NextStep::RetryAfter(_)
        ));
        let other = HttpError::Other("webhook refused".into());
        assert_eq!(
            s.next(1, AttemptResult::Failed(&other), 0.0),
            NextStep::GiveUp(GiveUpReason::Failed(
                "HTTP client error: webhook refused".into()
            ))
        );
        let once = RetrySchedule {
            max_attempts: 0,
            ..s.clone()
        };
        assert!(matches!(
            once.next(1, status(503), 0.0),
            NextStep::GiveUp(GiveUpReason::Exhausted { attempts: 1, .. })
        ));
        // Huge attempt numbers saturate at the cap.
        assert_eq!(s.backoff(u32::MAX), Duration::from_millis(300));
        let full = RetrySchedule {
            jitter: 9.0,
            ..s.clone()
        };
        assert!(near(full.next(1, status(503), 0.999_999_9), Duration::ZERO));
    }

    /// Answers fixed addresses for every name, counting lookups.
    struct Fixed(Vec<IpAddr>, AtomicUsize);

    impl Resolve for Fixed {
        fn resolve<'a>(&'a self, _: &'a str) -> BoxFuture<'a, io::Result<Vec<IpAddr>>> {
            self.1.fetch_add(1, Ordering::Relaxed);
            let addrs = self.0.clone();
            Box::pin(async move {
                if addrs.is_empty() {
                    Err(io::Error::new(io::ErrorKind::NotFound, "NXDOMAIN"))
                } else {
                    Ok(addrs)
                }
            })
        }
    }

    fn ips(list: &[&str]) -> Vec<IpAddr> {
        list.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn resolver_checks_every_address() {
        let public = SsrfResolver::new(Fixed(ips(&["93.184.216.34"]), 0.into()), Allowlist::new());
        assert_eq!(
            block_on(public.resolve_checked("hooks.example.com")).unwrap(),
            ips(&["93.184.216.34"])
        );
        // Rebinding: one inside address refuses the whole answer.
        for inside in [
            "127.0.0.1",
            "::ffff:127.0.0.1",
            "10.1.2.3",
            "169.254.169.254",
        ] {
            let r = SsrfResolver::new(
                Fixed(ips(&["93.184.216.34", inside]), 0.into()),
                Allowlist::new(),
            );
            let e = block_on(r.resolve_checked("rebind.example.com")).unwrap_err();
            assert!(e.is_refusal(), "{inside}: {e}");
            assert!(e.to_string().contains(inside), "{e}");
            let io = block_on(Resolve::resolve(&r, "rebind.example.com")).unwrap_err();
            assert_eq!(io.kind(), io::ErrorKind::PermissionDenied);
            assert!(find_refusal(&io).is_some());
            // Wrapped again, as TLS connectors do.
            let wrapped = io::Error::other(io);
            assert!(find_refusal(&wrapped).is_some());
        }
        // localhost is refused before any lookup.
        let r = SsrfResolver::new(Fixed(ips(&["93.184.216.34"]), 0.into()), Allowlist::new());
        assert!(matches!(
            block_on(r.resolve_checked("api.localhost")),
            Err(ResolveError::Url(SsrfError::LocalHostName { .. }))
        ));
        assert_eq!(r.inner.1.load(Ordering::Relaxed), 0);
        // Numeric hosts are checked, not looked up.
        assert!(block_on(r.resolve_checked("[::1]"))
            .unwrap_err()
            .is_refusal());
        assert!(block_on(r.resolve_checked("127.1"))
            .unwrap_err()
            .is_refusal());
        assert_eq!(
            block_on(r.resolve_checked("8.8.8.8")).unwrap(),
            ips(&["8.8.8.8"])
        );
        assert_eq!(r.inner.1.load(Ordering::Relaxed), 0);
        // Failed lookups are not refusals.
        let none = SsrfResolver::new(Fixed(Vec::new(), 0.into()), Allowlist::new());
        let e = block_on(none.resolve_checked("gone.example.com")).unwrap_err();
        assert!(matches!(e, ResolveError::Lookup { .. }) && !e.is_refusal());
        let io = block_on(Resolve::resolve(&none, "gone.example.com")).unwrap_err();
        assert_eq!(io.kind(), io::ErrorKind::Other);
        assert!(find_refusal(&io).is_none());
    }

    #[test]
    fn resolver_allowlist_and_limits() {
        let mut allow = Allowlist::new();
        allow
            .allow("10.0.0.0/8")
            .unwrap()
            .allow("hooks.internal")
            .unwrap();
        let r = SsrfResolver::new(
            Arc::new(Fixed(ips(&["10.0.0.5", "192.168.1.1"]), 0.into())),
            allow.clone(),
        );
        // An allowlisted name may resolve anywhere.
        assert_eq!(
            block_on(r.resolve_checked("HOOKS.internal")).unwrap().len(),
            2
        );
        // Another name: 10/8 is admitted, 192.168/16 is not.
        assert!(block_on(r.resolve_checked("other.example"))
            .unwrap_err()
            .is_refusal());
        let many: Vec<IpAddr> = (0..100u8)
            .map(|i| IpAddr::from([93, 184, 216, i]))
            .collect();
        let r = SsrfResolver::new(Fixed(many, 0.into()), Allowlist::new());
        assert_eq!(
            block_on(r.resolve_checked("many.example")).unwrap().len(),
            MAX_RESOLVED_ADDRS
        );
        assert!(matches!(
            block_on(r.resolve_checked("bad name")),
            Err(ResolveError::Url(SsrfError::MalformedUrl(_)))
        ));
    }
}
