//! Push notifications as a library: the one job of this crate is both
//! ends of a webhook (spec 4.3.3, 13.2), and the rules for the URL it
//! is sent to ([`webhook`]). It shares only `a2a-wire` with the server and
//! the client (the [`HttpClient`](a2a_wire::HttpClient) a notification is
//! sent through), and depends on neither.
//!
//! It does no I/O and reads no clock:
//!
//! - **Agents** build the request of a notification with
//!   [`notification_request`](crate::notification_request) (the `StreamResponse` as ProtoJSON,
//!   `application/a2a+json`, the config's `Authorization` and token
//!   header, the URL checked against the [`Allowlist`](crate::webhook::Allowlist)), send it
//!   through any [`HttpClient`](a2a_wire::HttpClient) and ask a [`RetrySchedule`](crate::RetrySchedule) what to do
//!   next (backoff, the host's jitter, give-up). An HTTP client that
//!   resolves names through an [`SsrfResolver`](crate::SsrfResolver) connects only to
//!   admitted addresses: the check after DNS that rebinding cannot get
//!   around (`a2a-hyper`'s `ClientOptions::resolver`).
//! - **Clients** receiving notifications check them with a
//!   [`WebhookVerifier`](crate::WebhookVerifier): the token and `Authorization` the config
//!   asked for (constant-time), the task id, a replay window on the
//!   host's clock, and the body decoded under a size limit.
//!
//! ```
//! use std::time::SystemTime;
//! use a2a_push::{notification_request, WebhookVerifier};
//! use a2a_push::webhook::Allowlist;
//! use a2a_types::{StreamResponse, Task, TaskPushNotificationConfig, TaskState};
//!
//! let mut config = TaskPushNotificationConfig::new("https://hooks.example.com/a2a");
//! config.task_id = "t-1".into();
//! config.token = "per-config-secret".into();
//! // The agent:
//! let event = StreamResponse::Task(Task::new("t-1", "c-1", TaskState::Completed));
//! let request = notification_request(&config, &event, &Allowlist::new())?;
//! // ... sent through the host's HttpClient; the client's webhook:
//! let verifier = WebhookVerifier::for_config(&config);
//! let got = verifier.verify(&request, SystemTime::now())?;
//! assert_eq!(got.event, event);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]
#![allow(rustdoc::redundant_explicit_links)] // the page names targets from the crate root, as the facade did
mod push_send;
mod push_verify;
pub mod webhook;

pub use push_send::{
    find_refusal, is_retryable_status, notification_request, notification_request_with_body,
    AttemptResult, GiveUpReason, NextStep, PushRequestError, Resolve, ResolveError, RetrySchedule,
    SsrfResolver, MAX_RESOLVED_ADDRS, NOTIFICATION_TOKEN_HEADER,
};
pub use push_verify::{
    Notification, VerifyError, WebhookVerifier, DEFAULT_MAX_NOTIFICATION_SIZE,
    DEFAULT_REPLAY_CAPACITY, DEFAULT_REPLAY_WINDOW,
};
