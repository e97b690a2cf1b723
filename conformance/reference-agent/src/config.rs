//! What the agent is told at start: its identity, its capabilities and
//! every bound on the memory it may use.

use std::time::{Duration, SystemTime};

use a2a_transport::webhook::Allowlist;
use a2a_types::AgentInterface;

/// The configuration of a [`ReferenceAgent`](crate::ReferenceAgent).
///
/// Fields are public so a host can adjust them after
/// [`AgentConfig::default`]; the type is `#[non_exhaustive]` so new
/// settings can be added without breaking it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AgentConfig {
    /// The card's `name`.
    pub name: String,
    /// The card's `description`.
    pub description: String,
    /// The card's `version` (of the agent, not of the protocol).
    pub version: String,
    /// The interfaces the card advertises, preferred first (spec 8.3.1).
    /// The in-process agent has none; the binary fills them from its
    /// listen address or `--public-url`.
    pub interfaces: Vec<AgentInterface>,
    /// `capabilities.streaming`: when false, `SendStreamingMessage` and
    /// `SubscribeToTask` answer `UnsupportedOperationError` (spec 3.3.4).
    pub streaming: bool,
    /// `capabilities.pushNotifications`: when false, the four push config
    /// operations and inline push configs answer
    /// `PushNotificationNotSupportedError` (spec 3.3.4).
    pub push_notifications: bool,
    /// The name of the HTTP bearer security scheme the card declares, when
    /// the host authenticates callers. Setting it also declares
    /// `capabilities.extendedAgentCard` (spec 3.1.11, 13.3).
    pub bearer_scheme: Option<String>,
    /// The bearer scheme's `bearerFormat` (proto `HTTPAuthSecurityScheme`):
    /// `JWT` when callers present JWTs (`--jwt-*`), empty when the tokens
    /// are opaque (`--bearer` only).
    pub bearer_format: String,
    /// Webhook targets admitted although they are not public addresses
    /// (spec 13.2), e.g. a receiver on loopback in tests.
    pub push_allowlist: Allowlist,
    /// Memory bounds and timings of tasks.
    pub limits: Limits,
    /// How push notifications are delivered and retried.
    pub push: PushPolicy,
    /// When the card last changed, served as `Last-Modified` (spec 8.6.1)
    /// by [`ReferenceAgent::server_config`](crate::ReferenceAgent::server_config).
    /// Default `None`: the time the agent is built.
    pub card_last_modified: Option<SystemTime>,
    /// The "fire and forget" contract of the official TCK's 0.3.x branch
    /// (the a2a-java TCK agent's) instead of the message-driven one: every
    /// message leaves its task WORKING until it is canceled, and a
    /// blocking send answers the WORKING task at once (see the
    /// [crate documentation](crate)). Default false.
    pub fire_and_forget: bool,
    /// Whether the agent records metrics (`--metrics`): its calls, streams
    /// and push deliveries, and its in-memory store at each scrape, in a
    /// [`PrometheusRecorder`](a2a_transport::metrics::PrometheusRecorder)
    /// ([`ReferenceAgent::prometheus`](crate::ReferenceAgent::prometheus)).
    /// Default false.
    pub metrics: bool,
    /// Where the agent's spans go: a span per call, stream, executor run
    /// and push notification, children of the caller's `traceparent`
    /// ([`a2a_transport::trace`]); `--trace` sets a
    /// [`TracingTracer`](a2a_transport::trace::TracingTracer). Default
    /// `None`: no spans (the caller's trace context is still passed on to
    /// webhooks).
    pub tracer: Option<std::sync::Arc<dyn a2a_transport::trace::Tracer>>,
}

impl Default for AgentConfig {
    fn default() -> AgentConfig {
        AgentConfig {
            name: "A2A reference agent".to_owned(),
            description: "The a2a-core reference agent: every server-side requirement of A2A \
                          v1.0, driven by the text of the message (see the crate docs)."
                .to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            interfaces: Vec::new(),
            streaming: true,
            push_notifications: true,
            bearer_scheme: None,
            bearer_format: String::new(),
            push_allowlist: Allowlist::new(),
            limits: Limits::default(),
            push: PushPolicy::default(),
            card_last_modified: None,
            fire_and_forget: false,
            metrics: false,
            tracer: None,
        }
    }
}

impl AgentConfig {
    /// The same configuration advertising `interfaces`.
    pub fn with_interfaces(mut self, interfaces: Vec<AgentInterface>) -> AgentConfig {
        self.interfaces = interfaces;
        self
    }

    /// The same configuration declaring a bearer scheme named `name`
    /// (and so the extended agent card).
    pub fn with_bearer_scheme(mut self, name: impl Into<String>) -> AgentConfig {
        self.bearer_scheme = Some(name.into());
        self
    }

    /// The same configuration with this webhook allowlist.
    pub fn with_push_allowlist(mut self, allowlist: Allowlist) -> AgentConfig {
        self.push_allowlist = allowlist;
        self
    }
}

/// Every bound on what the agent keeps, so that a long run cannot exhaust
/// memory. Exceeding a bound evicts or drops the oldest item, as each
/// field says; nothing grows without limit.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Limits {
    /// Tasks kept at most; creating one more evicts the oldest terminal
    /// task, else the creator's own oldest. Default 10 000.
    pub max_tasks: usize,
    /// Tasks one owner (tenant and caller) keeps at most: past it that
    /// owner's oldest terminal task goes, and an owner whose tasks all go
    /// on is refused (`RateLimitedError`, retry after 1 s). Another
    /// owner's unfinished task is never evicted. Default 2 500.
    pub max_tasks_per_owner: usize,
    /// The bytes one owner's stored tasks may weigh, kept the same way.
    /// Default 8 MiB.
    pub max_bytes_per_owner: usize,
    /// Executor runs in flight at once; past it new work is refused
    /// (`RateLimitedError`, retry after 1 s). Default 256.
    pub max_running_tasks: usize,
    /// The bytes running work may hold (artifacts gained since a task was
    /// last weighed, events its log keeps): once spent, new tasks are
    /// refused and a task over its share has its artifact updates refused
    /// (the reference executor then fails it). Default 64 MiB.
    pub max_running_bytes: usize,
    /// A task created longer ago than this is evicted when the next task
    /// is created or at the next sweep ([`ReferenceAgent::sweep`](crate::ReferenceAgent::sweep)).
    /// Default one hour.
    pub task_ttl: Duration,
    /// The bytes the stored tasks may weigh (their history, artifacts and
    /// status, estimated by the agent kit's in-memory store when a task is
    /// created, takes a message and settles). Past it, creating a task or a sweep evicts
    /// the oldest terminal tasks first, then the creator's own oldest. Default 32 MiB.
    pub max_store_bytes: usize,
    /// Messages kept in one task's history; older ones are dropped.
    /// Default 100.
    pub max_history: usize,
    /// Events one task keeps: for its subscribers that have not read them
    /// yet and, while the task is not finished, for a client that
    /// resubscribes with `Last-Event-ID` (spec 3.1.6). A subscriber that
    /// falls further behind, or resumes from further back, receives a
    /// fresh `Task` snapshot and continues from there. A finished task
    /// keeps its events only while someone reads them. Default 256.
    pub max_events_per_task: usize,
    /// Push configs per task. Default 16.
    pub max_push_configs_per_task: usize,
    /// How many events one webhook may fall behind its task; past that the
    /// oldest undelivered ones are skipped (`DeliveryOutcome::Dropped`), so
    /// the latest state always gets through. Default 256.
    pub max_push_queue: usize,
    /// The largest `n` of `stream <n>`. Default 10 000.
    pub max_stream_chunks: u32,
    /// The longest `slow <ms>` or `stream <n> <ms>` pause. Default ten minutes.
    pub max_delay: Duration,
    /// `ListTasks` page size when unset (spec: 50).
    pub default_page_size: i32,
    /// The largest `ListTasks` page size (spec: 100).
    pub max_page_size: i32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_tasks: 10_000,
            task_ttl: Duration::from_secs(3600),
            max_store_bytes: 32 << 20,
            max_tasks_per_owner: 2_500,
            max_bytes_per_owner: 8 << 20,
            max_running_tasks: 256,
            max_running_bytes: 64 << 20,
            max_history: 100,
            max_events_per_task: 256,
            max_push_configs_per_task: 16,
            max_push_queue: 256,
            max_stream_chunks: 10_000,
            max_delay: Duration::from_secs(600),
            default_page_size: 50,
            max_page_size: 100,
        }
    }
}

/// Push delivery: one timeout per attempt and an exponential backoff
/// between attempts (spec 4.3.3, 13.2).
///
/// An attempt is retried when it could not connect, timed out, or was
/// answered 408, 429 or 5xx; any other answer ends the delivery of that
/// notification. With the defaults the waits are 250 ms, 500 ms, 1 s
/// and 2 s, each shortened by a random share of up to half (jitter): five
/// attempts over at most about four seconds, then the notification is
/// given up and the next one is delivered. The decisions are the
/// library's [`RetrySchedule`](a2a_transport::push::RetrySchedule)
/// ([`PushPolicy::schedule`]).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PushPolicy {
    /// The timeout of one attempt. Default 10 s (the spec recommends 10-30 s).
    pub timeout: Duration,
    /// Attempts per notification, the first included. Default 5.
    pub max_attempts: u32,
    /// The wait before the second attempt; each later wait doubles.
    /// Default 250 ms.
    pub initial_backoff: Duration,
    /// The longest wait between attempts. Default 8 s.
    pub max_backoff: Duration,
}

impl Default for PushPolicy {
    fn default() -> PushPolicy {
        PushPolicy {
            timeout: Duration::from_secs(10),
            max_attempts: 5,
            initial_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(8),
        }
    }
}

impl PushPolicy {
    /// The library's retry schedule for this policy (jitter 0.5: a wait
    /// falls between half and all of [`PushPolicy::backoff`]).
    pub fn schedule(&self) -> a2a_transport::push::RetrySchedule {
        let mut schedule = a2a_transport::push::RetrySchedule::new();
        schedule.max_attempts = self.max_attempts;
        schedule.initial_backoff = self.initial_backoff;
        schedule.max_backoff = self.max_backoff;
        schedule.attempt_timeout = self.timeout;
        schedule
    }

    /// The wait after failed attempt number `attempt` (1 for the first),
    /// before jitter ([`RetrySchedule::backoff`](a2a_transport::push::RetrySchedule::backoff)).
    pub fn backoff(&self, attempt: u32) -> Duration {
        self.schedule().backoff(attempt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_is_capped() {
        let p = PushPolicy::default();
        let waits: Vec<_> = (1..=7).map(|a| p.backoff(a).as_millis()).collect();
        assert_eq!(waits, [250, 500, 1000, 2000, 4000, 8000, 8000]);
        assert_eq!(p.backoff(200), p.max_backoff);
    }
}
