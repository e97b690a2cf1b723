//! [`AgentHandler`]: every operation of spec 3.1 on an executor and a
//! store.
//!
//! The handler owns the protocol's rules above the store: validation,
//! blocking and `returnImmediately` (3.2.2), `historyLength` (3.2.4),
//! continuation (3.4.3), listing (3.1.4), subscriptions and
//! `Last-Event-ID` (3.1.6), cancellation (3.1.5), push configs and
//! delivery (3.1.7-3.1.10, 4.3, 13.2), the extended card (3.1.11, 13.3)
//! and owner scoping (13.1). The store keeps what must be atomic per task.

use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Waker};
use std::time::Duration;

use a2a_transport::metrics::MetricsRecorder;
use a2a_transport::push::RetrySchedule;
use a2a_transport::server::media_range_covers;
use a2a_transport::server::ConfigError;
use a2a_transport::trace::{Attribute, AttributeKey, SpanName, Tracer};
use a2a_transport::webhook::{check_webhook_url, Allowlist};
use a2a_transport::{
    A2aServer, A2aService, BoxFuture, CallContext, EventStream, ProtocolVersion, ServerConfig,
};
use a2a_types::{
    A2aError, AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, ErrorKind,
    FieldViolation, GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest,
    GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, Message,
    SendMessageRequest, SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task,
    TaskCursor, TaskPushNotificationConfig, TaskState, Validate,
};
use http::HeaderValue;

use crate::catch::{race, CatchUnwind};
use crate::executor::{AgentExecutor, ExecuteError, RequestContext};
use crate::ids::IdGenerator;
use crate::owner::{Owner, OwnerResolver, PrincipalAndTenant};
use crate::push::{PushHub, PushObserver, PushSender};
use crate::runtime::Runtime;
use crate::shared::{store_error, RunSlot, Shared};
use crate::store::{changed, Change, StoreError, TaskQuery, TaskStore, TaskWatch, View};
use crate::subscription::{once, Subscription, Until};
use crate::updater::{Birth, Failure, First, TaskUpdater, UpdaterInner};

/// How a handler behaves where the spec leaves the agent a choice.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct HandlerConfig {
    /// `capabilities.streaming`: without it, `SendStreamingMessage` and
    /// `SubscribeToTask` answer `UnsupportedOperationError` (3.3.4).
    pub streaming: bool,
    /// `capabilities.pushNotifications`: without it (or without a
    /// [`PushSender`]), the push operations answer
    /// `PushNotificationNotSupportedError`.
    pub push_notifications: bool,
    /// The media types the agent answers with (its card's
    /// `defaultOutputModes`): a request whose `acceptedOutputModes`
    /// covers none of them is `ContentTypeNotSupportedError` before any
    /// work (3.2.1, 3.3.2). Empty: no check.
    pub output_modes: Vec<String>,
    /// The webhook URL rules of spec 13.2 (`check_webhook_url`).
    pub push_allowlist: Allowlist,
    /// When and how often a notification is retried.
    pub push_schedule: RetrySchedule,
    /// How many events a webhook may fall behind its task (default 256):
    /// past that the oldest undelivered ones are skipped, so the latest
    /// state always gets through (13.2 asks agents to bound what they
    /// hold for a webhook).
    pub max_pending_notifications: usize,
    /// `ListTasks` page size when the request sets none (default 50).
    pub default_page_size: i32,
    /// The largest page `ListTasks` answers (default 100, the spec's).
    pub max_page_size: i32,
    /// The extended card (3.1.11), answered only to authenticated callers
    /// (13.3); `None`: the agent has none.
    pub extended_card: Option<AgentCard>,
    /// How long an INPUT_REQUIRED or AUTH_REQUIRED task waits for the
    /// client before it is released (ended FAILED with a status message
    /// saying so); `None` (the default): it waits until the store expires it.
    pub interrupted_timeout: Option<Duration>,
    /// How long a blocking `SendMessage` waits for its task to reach a
    /// terminal or interrupted state before it answers the task as it
    /// stands (still SUBMITTED or WORKING). `None` (the default) waits as
    /// long as the work takes, as spec 3.2.2 asks of 1.0 calls. A bound
    /// is what 0.3's `MessageSendConfiguration.blocking` allows ("the
    /// server may reject this if the task is long-running") and what a
    /// host behind proxies with request timeouts needs; the caller then
    /// polls, subscribes or is pushed the rest.
    pub max_blocking_wait: Option<Duration>,
    /// The most runs of the executor in flight at once (default 256): a
    /// message that would start one more (a new task, or an answer that
    /// resumes an interrupted one) is refused with `RateLimitedError` and
    /// a retry delay of one second, before anything is stored. Beside it,
    /// the store bounds the bytes running work holds
    /// ([`MemoryLimits::max_running_bytes`](crate::MemoryLimits::max_running_bytes)).
    pub max_running_tasks: usize,
    /// 1.1 draft: how long a long-poll `GetTask` (`currentGeneration`,
    /// draft spec 3.2.7) is held for its task to move before it is
    /// answered as the task stands (the spec's MAY). Default 30 s, below
    /// the idle timeouts of common proxies.
    #[cfg(feature = "draft-1-1")]
    pub max_long_poll: Duration,
}

impl Default for HandlerConfig {
    fn default() -> HandlerConfig {
        HandlerConfig {
            streaming: true,
            push_notifications: true,
            output_modes: Vec::new(),
            push_allowlist: Allowlist::new(),
            push_schedule: RetrySchedule::new(),
            max_pending_notifications: 256,
            default_page_size: 50,
            max_page_size: 100,
            extended_card: None,
            interrupted_timeout: None,
            max_blocking_wait: None,
            max_running_tasks: 256,
            #[cfg(feature = "draft-1-1")]
            max_long_poll: Duration::from_secs(30),
        }
    }
}

impl HandlerConfig {
    /// The defaults: streaming and push on, no output-mode check.
    pub fn new() -> HandlerConfig {
        HandlerConfig::default()
    }

    /// Sets `streaming`.
    pub fn with_streaming(mut self, on: bool) -> HandlerConfig {
        self.streaming = on;
        self
    }

    /// Sets `push_notifications`.
    pub fn with_push_notifications(mut self, on: bool) -> HandlerConfig {
        self.push_notifications = on;
        self
    }

    /// Sets `output_modes`.
    pub fn with_output_modes(mut self, modes: Vec<String>) -> HandlerConfig {
        self.output_modes = modes;
        self
    }

    /// Sets `push_allowlist`.
    pub fn with_push_allowlist(mut self, allowlist: Allowlist) -> HandlerConfig {
        self.push_allowlist = allowlist;
        self
    }

    /// Sets `push_schedule`.
    pub fn with_push_schedule(mut self, schedule: RetrySchedule) -> HandlerConfig {
        self.push_schedule = schedule;
        self
    }

    /// Sets `max_pending_notifications`.
    pub fn with_max_pending_notifications(mut self, max: usize) -> HandlerConfig {
        self.max_pending_notifications = max;
        self
    }

    /// Sets `default_page_size` and `max_page_size`.
    pub fn with_page_sizes(mut self, default: i32, max: i32) -> HandlerConfig {
        self.default_page_size = default;
        self.max_page_size = max;
        self
    }

    /// Sets `extended_card`.
    pub fn with_extended_card(mut self, card: AgentCard) -> HandlerConfig {
        self.extended_card = Some(card);
        self
    }

    /// Sets `interrupted_timeout`.
    pub fn with_interrupted_timeout(mut self, timeout: Duration) -> HandlerConfig {
        self.interrupted_timeout = Some(timeout);
        self
    }

    /// Sets [`max_long_poll`](HandlerConfig::max_long_poll).
    #[cfg(feature = "draft-1-1")]
    pub fn with_max_long_poll(mut self, hold: Duration) -> HandlerConfig {
        self.max_long_poll = hold;
        self
    }

    /// Sets `max_blocking_wait`.
    pub fn with_max_blocking_wait(mut self, wait: Duration) -> HandlerConfig {
        self.max_blocking_wait = Some(wait);
        self
    }

    /// Sets `max_running_tasks`.
    pub fn with_max_running_tasks(mut self, max: usize) -> HandlerConfig {
        self.max_running_tasks = max;
        self
    }
}

/// Builds an [`AgentHandler`].
pub struct HandlerBuilder<E> {
    executor: E,
    store: Arc<dyn TaskStore>,
    runtime: Arc<dyn Runtime>,
    config: HandlerConfig,
    sender: Option<Arc<dyn PushSender>>,
    observer: Option<PushObserver>,
    metrics: Option<Arc<dyn MetricsRecorder>>,
    tracer: Option<Arc<dyn Tracer>>,
    owners: Arc<dyn OwnerResolver>,
}

impl<E> std::fmt::Debug for HandlerBuilder<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HandlerBuilder")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl<E: AgentExecutor> HandlerBuilder<E> {
    /// Sets the configuration.
    pub fn config(mut self, config: HandlerConfig) -> Self {
        self.config = config;
        self
    }

    /// Delivers push notifications with `sender`; without one, the agent
    /// offers no push notifications.
    pub fn push_sender(mut self, sender: Arc<dyn PushSender>) -> Self {
        self.sender = Some(sender);
        self
    }

    /// Tells `observer` what happened to each notification.
    pub fn push_observer(mut self, observer: PushObserver) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Records each push notification's fate (deliveries and retries, by
    /// outcome) in `recorder` ([`a2a_transport::metrics`]).
    pub fn metrics(mut self, recorder: Arc<dyn MetricsRecorder>) -> Self {
        self.metrics = Some(recorder);
        self
    }

    /// Opens a span on `tracer` for each run of the executor
    /// ([`SpanName::Execute`]) and each push notification
    /// ([`SpanName::Push`], whose `traceparent` the webhook receives),
    /// children of the call that caused them ([`a2a_transport::trace`]).
    /// Give the server the same tracer
    /// ([`ServerConfig::with_tracer`](a2a_transport::ServerConfig::with_tracer)).
    pub fn tracer(mut self, tracer: Arc<dyn Tracer>) -> Self {
        self.tracer = Some(tracer);
        self
    }

    /// Decides owners with `resolver` instead of [`PrincipalAndTenant`].
    pub fn owner_resolver(mut self, resolver: impl OwnerResolver) -> Self {
        self.owners = Arc::new(resolver);
        self
    }

    /// The handler.
    pub fn build(self) -> AgentHandler<E> {
        let mut config = self.config;
        let sender = match self.sender {
            Some(sender) => sender,
            None => {
                config.push_notifications = false;
                Arc::new(crate::push::RecordingPushSender::new())
            }
        };
        let push = Arc::new(PushHub::new(
            sender,
            config.push_schedule.clone(),
            config.push_allowlist.clone(),
            match self.metrics {
                Some(recorder) => Some(crate::push::recording(recorder, self.observer)),
                None => self.observer,
            },
            config.max_pending_notifications,
        ));
        AgentHandler {
            executor: Arc::new(self.executor),
            shared: Arc::new(Shared {
                store: self.store,
                runtime: self.runtime,
                ids: IdGenerator::new(),
                push,
                tracer: self.tracer,
                running: Arc::default(),
                max_running: config.max_running_tasks,
            }),
            owners: self.owners,
            config: Arc::new(config),
        }
    }
}

/// An [`A2aService`] for all eleven operations on an [`AgentExecutor`] and
/// a [`TaskStore`], exactly as the spec says. Cloning is cheap and shares
/// everything.
///
/// Its choices where the spec leaves one (see `docs/decisions.md`):
/// - A message to a task that is SUBMITTED or WORKING joins its history
///   and changes nothing else: the running `execute` is not disturbed.
/// - A message to an INPUT_REQUIRED or AUTH_REQUIRED task moves it to
///   WORKING and calls `execute` with the task.
/// - `SendStreamingMessage` streams close at an interrupted state (the
///   next message opens a new one); `SubscribeToTask` streams only at a
///   terminal state (3.1.6).
/// - A resumed subscription (`Last-Event-ID` the log can still replay)
///   starts with the missed events, not the `Task`.
/// - `ListTasks` page tokens are `TaskCursor`s: URL-safe base64 of
///   `v1:<seconds>:<nanos>:<task id>`, the last task of the page.
pub struct AgentHandler<E> {
    executor: Arc<E>,
    shared: Arc<Shared>,
    owners: Arc<dyn OwnerResolver>,
    config: Arc<HandlerConfig>,
}

impl<E> Clone for AgentHandler<E> {
    fn clone(&self) -> Self {
        AgentHandler {
            executor: Arc::clone(&self.executor),
            shared: Arc::clone(&self.shared),
            owners: Arc::clone(&self.owners),
            config: Arc::clone(&self.config),
        }
    }
}

impl<E> std::fmt::Debug for AgentHandler<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentHandler")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// What `SendMessage` set in motion.
#[allow(clippy::large_enum_variant)] // one per call, never stored
enum Started {
    /// A direct reply.
    Reply(Message),
    /// A task: its id, as the call sees it first (created, or continued;
    /// `None` when the call waits for it to settle instead), the position
    /// to follow it from, and the watch to follow it with.
    Task {
        id: String,
        task: Option<Task>,
        position: u64,
        watch: Option<Box<dyn TaskWatch>>,
    },
}

impl<E: AgentExecutor> AgentHandler<E> {
    /// A builder of a handler running `executor` on `store`, with the
    /// host's `runtime` for background work and time.
    pub fn builder(executor: E, store: impl TaskStore, runtime: impl Runtime) -> HandlerBuilder<E> {
        HandlerBuilder {
            executor,
            store: Arc::new(store),
            runtime: Arc::new(runtime),
            config: HandlerConfig::default(),
            sender: None,
            observer: None,
            metrics: None,
            tracer: None,
            owners: Arc::new(PrincipalAndTenant),
        }
    }

    /// A handler with the default configuration and no push delivery.
    pub fn new(executor: E, store: impl TaskStore, runtime: impl Runtime) -> AgentHandler<E> {
        AgentHandler::builder(executor, store, runtime).build()
    }

    /// A card for this handler served at `base_url` (spec 8): JSON-RPC at
    /// `{base_url}/`, HTTP+JSON at `{base_url}`, the capabilities as the
    /// configuration has them, `text/plain` in and the configured output
    /// modes (else `text/plain`) out, and one skill named after the
    /// agent. A host with more to say (gRPC, security schemes, skills)
    /// edits the card or writes its own.
    pub fn card(&self, name: &str, description: &str, base_url: &str) -> AgentCard {
        let base = base_url.trim_end_matches('/');
        let config = &self.config;
        let output = if config.output_modes.is_empty() {
            vec!["text/plain".to_owned()]
        } else {
            config.output_modes.clone()
        };
        AgentCard {
            name: name.to_owned(),
            description: description.to_owned(),
            version: "1.0.0".to_owned(),
            supported_interfaces: vec![
                a2a_types::AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
                a2a_types::AgentInterface::new(base, "HTTP+JSON", "1.0"),
            ],
            capabilities: a2a_types::AgentCapabilities {
                streaming: Some(config.streaming),
                push_notifications: Some(config.push_notifications),
                extended_agent_card: Some(config.extended_card.is_some()),
                ..Default::default()
            },
            default_input_modes: vec!["text/plain".to_owned()],
            default_output_modes: output,
            skills: vec![a2a_types::AgentSkill {
                id: "main".to_owned(),
                name: name.to_owned(),
                description: description.to_owned(),
                tags: vec!["a2a-agent".to_owned()],
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    /// This handler behind an [`A2aServer`] at `base_url`, with the
    /// [`card`](Self::card) it implies and what that card promises turned
    /// on: `config` with the input-mode check (a part the card's input
    /// modes do not cover is `ContentTypeNotSupportedError`, spec 3.3.2)
    /// and the card's `Last-Modified` (8.6.1) at the runtime's now; the
    /// output-mode check against the card's output modes unless the
    /// handler's configuration names its own.
    pub fn into_server(
        mut self,
        name: &str,
        description: &str,
        base_url: &str,
        config: ServerConfig,
    ) -> Result<A2aServer<AgentHandler<E>>, ConfigError> {
        let card = self.card(name, description, base_url);
        if self.config.output_modes.is_empty() {
            Arc::make_mut(&mut self.config).output_modes = card.default_output_modes.clone();
        }
        let config = config
            .with_input_mode_check(true)
            .with_card_last_modified(self.shared.runtime.now());
        A2aServer::new(self, card, config)
    }

    /// The configuration.
    pub fn config(&self) -> &HandlerConfig {
        &self.config
    }

    /// The executor.
    pub fn executor(&self) -> &E {
        &self.executor
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn TaskStore> {
        &self.shared.store
    }

    /// Runs the store's retention rules now ([`TaskStore::sweep`] at the
    /// runtime's time); answers how many tasks went. A host calls it on a
    /// timer (the reference agent, every second).
    pub fn sweep(&self) -> usize {
        let now = crate::runtime::timestamp(&*self.shared.runtime);
        self.shared.store.sweep(now)
    }

    fn owner(&self, cx: &CallContext, tenant: &str) -> Owner {
        self.owners.owner(cx, tenant)
    }

    fn require_streaming(&self) -> Result<(), A2aError> {
        if self.config.streaming {
            Ok(())
        } else {
            Err(A2aError::unsupported_operation(
                "streaming is not supported by this agent (capabilities.streaming is false)",
            ))
        }
    }

    fn require_push(&self) -> Result<(), A2aError> {
        if self.config.push_notifications {
            Ok(())
        } else {
            Err(A2aError::push_notification_not_supported())
        }
    }

    /// `acceptedOutputModes` (spec 3.2.1, 3.3.2): a client that accepts
    /// none of the agent's output modes is refused before any work. An
    /// empty list accepts everything.
    fn check_output_modes(&self, accepted: &[String]) -> Result<(), A2aError> {
        let ours = &self.config.output_modes;
        if accepted.is_empty()
            || ours.is_empty()
            || accepted
                .iter()
                .any(|a| ours.iter().any(|o| media_range_covers(a, o)))
        {
            return Ok(());
        }
        Err(A2aError::new(
            ErrorKind::ContentTypeNotSupported,
            format!(
                "configuration.acceptedOutputModes: this agent answers only with {}",
                ours.join(", ")
            ),
        ))
    }

    /// Checks a push config (REQUIRED fields, SSRF rules of spec 13.2,
    /// header-safe credentials); `at` is the path of the config in the
    /// request, for error messages.
    fn check_push_config(
        &self,
        config: &TaskPushNotificationConfig,
        at: &str,
    ) -> Result<(), A2aError> {
        self.require_push()?;
        let path = |field: &str| {
            if at.is_empty() {
                field.to_owned()
            } else {
                format!("{at}.{field}")
            }
        };
        let mut violations: Vec<FieldViolation> = match config.validate() {
            Ok(()) => Vec::new(),
            Err(v) => v
                .into_iter()
                .map(|v| FieldViolation {
                    field: path(&v.field),
                    description: v.description,
                })
                .collect(),
        };
        if !config.url.is_empty() {
            if let Err(e) = check_webhook_url(&config.url, &self.config.push_allowlist) {
                violations.push(violation(&path("url"), e.to_string()));
            }
        }
        if let Some(auth) = &config.authentication {
            let value = format!("{} {}", auth.scheme, auth.credentials);
            if HeaderValue::from_str(value.trim_end()).is_err() {
                violations.push(violation(
                    &path("authentication"),
                    "scheme and credentials must be valid in an HTTP header",
                ));
            }
        }
        if HeaderValue::from_str(&config.token).is_err() {
            violations.push(violation(&path("token"), "must be valid in an HTTP header"));
        }
        if violations.is_empty() {
            Ok(())
        } else {
            Err(A2aError::invalid_params(violations))
        }
    }

    /// Runs `execute` in the background. `inline`: the work runs here up to
    /// its first wait, and only what is left is spawned (a blocking
    /// SendMessage then finds its task settled without a wake-up from
    /// another thread).
    fn run(
        &self,
        mut context: RequestContext,
        updater: TaskUpdater,
        inner: Arc<UpdaterInner>,
        inline: bool,
        slot: RunSlot,
    ) {
        let executor = Arc::clone(&self.executor);
        let release = self.config.interrupted_timeout;
        let mut span = self.shared.tracer.as_ref().map(|tracer| {
            let span = tracer.start(
                SpanName::Execute,
                context.trace.as_ref(),
                &[
                    Attribute::str(AttributeKey::A2aTaskId, &context.task_id),
                    Attribute::str(AttributeKey::A2aContextId, &context.context_id),
                ],
            );
            if let Some(trace) = span.context() {
                context.trace = Some(trace);
            }
            span
        });
        let work = async move {
            let outcome = CatchUnwind(Box::pin(executor.execute(context, updater))).await;
            let failure = failure(outcome);
            if let Some(span) = &mut span {
                match &failure {
                    None => span.set_attribute(Attribute::str(AttributeKey::A2aOutcome, "ok")),
                    Some(f) => {
                        span.set_attribute(Attribute::str(AttributeKey::A2aOutcome, "failed"));
                        span.set_attribute(Attribute::str(
                            AttributeKey::ErrorType,
                            f.answer.kind().name(),
                        ));
                        span.set_error(&f.why);
                    }
                }
                span.end();
            }
            inner.finish(failure, release).await;
            drop(slot);
        };
        let mut work: BoxFuture<'static, ()> = Box::pin(work);
        // Polling with a no-op waker is sound: whatever the future waits on
        // registers the real waker when it is polled again after the spawn.
        if inline
            && work
                .as_mut()
                .poll(&mut Context::from_waker(Waker::noop()))
                .is_ready()
        {
            return;
        }
        self.shared.runtime.spawn(work);
    }

    fn context(
        &self,
        cx: &CallContext,
        owner: &Owner,
        message: Message,
        task: Option<Task>,
        accepted: Vec<String>,
        metadata: Option<a2a_types::Struct>,
    ) -> RequestContext {
        RequestContext {
            task_id: message.task_id.clone(),
            context_id: message.context_id.clone(),
            message,
            task,
            principal: cx.principal.clone(),
            owner: owner.clone(),
            extensions: cx.extensions.clone(),
            accepted_output_modes: accepted,
            metadata,
            trace: cx.trace.clone(),
        }
    }

    /// The common part of `SendMessage` and `SendStreamingMessage`.
    async fn start(
        &self,
        cx: &CallContext,
        request: SendMessageRequest,
        subscribe: bool,
    ) -> Result<(Started, View, bool), A2aError> {
        validated(&request)?;
        let configuration = request.configuration.unwrap_or_default();
        self.check_output_modes(&configuration.accepted_output_modes)?;
        let history = history_limit("configuration.historyLength", configuration.history_length)?;
        let view = View {
            history,
            artifacts: true,
        };
        let push = configuration.task_push_notification_config;
        if let Some(config) = &push {
            self.check_push_config(config, "configuration.taskPushNotificationConfig")?;
        }
        let immediately = configuration.return_immediately;
        let waited_on = !subscribe && !immediately;
        let owner = self.owner(cx, &request.tenant);
        #[cfg(feature = "draft-1-1")]
        let expected_generation = configuration.if_generation_match;
        #[cfg(not(feature = "draft-1-1"))]
        let expected_generation = None;
        let accepted = configuration.accepted_output_modes;
        let mut message = request.message;
        // The version a push config is set at decides its bodies' form.
        let version = cx.version;

        if !message.task_id.is_empty() {
            // Boxed: the continuation's state is large and rare beside a
            // new message's.
            let started = Box::pin(self.continue_task(
                cx,
                &owner,
                message,
                expected_generation,
                push.map(|c| *c),
                version,
                view,
                subscribe,
                waited_on,
                accepted,
                request.metadata,
            ))
            .await?;
            return Ok((started, view, immediately));
        }

        let slot = self.shared.reserve_run()?;
        let ids = &self.shared.ids;
        if message.context_id.is_empty() {
            message.context_id = ids.next("ctx");
        }
        message.task_id = ids.next("task");
        let push = push.map(|config| {
            let mut config = *config;
            if config.id.is_empty() {
                config.id = ids.next("push");
            }
            config.task_id.clone_from(&message.task_id);
            (config, version)
        });
        let context = self.context(
            cx,
            &owner,
            message.clone(),
            None,
            accepted,
            request.metadata,
        );
        let id = message.task_id.clone();
        let (updater, inner) = TaskUpdater::for_new(
            Arc::clone(&self.shared),
            owner,
            message.task_id.clone(),
            message.context_id.clone(),
            Birth {
                message,
                push,
                watch: subscribe,
                trace: cx.trace.clone(),
                snapshot: subscribe || immediately,
                yield_after_create: immediately && !subscribe,
            },
        );
        // Run here up to the first wait: a blocking call's task usually
        // settles at once, and a `returnImmediately` one is created (the
        // work yields right after) before its answer goes out.
        self.run(context, updater, Arc::clone(&inner), !subscribe, slot);
        match inner.first.wait().await {
            First::Reply(message) => Ok((Started::Reply(message), view, immediately)),
            First::Failed(e) => Err(e),
            First::Created { task, watch } => Ok((
                Started::Task {
                    id,
                    task: task.map(|t| view.of(&t)),
                    position: 0,
                    watch,
                },
                view,
                immediately,
            )),
        }
    }

    /// A message to an existing task (spec 3.4.3).
    #[allow(clippy::too_many_arguments)]
    async fn continue_task(
        &self,
        cx: &CallContext,
        owner: &Owner,
        message: Message,
        expected_generation: Option<i64>,
        push: Option<TaskPushNotificationConfig>,
        version: ProtocolVersion,
        view: View,
        subscribe: bool,
        waited_on: bool,
        accepted: Vec<String>,
        metadata: Option<a2a_types::Struct>,
    ) -> Result<Started, A2aError> {
        let store = &self.shared.store;
        let id = message.task_id.clone();
        let mut attempts = 0;
        let (stored, slot) = loop {
            attempts += 1;
            let stored = store
                .get(owner, &id, View::STATUS)
                .await
                .map_err(|e| store_error(e, &id))?;
            let task = &stored.task;
            if !message.context_id.is_empty() && message.context_id != task.context_id {
                return Err(A2aError::invalid_params(vec![violation(
                    "message.contextId",
                    format!(
                        "contextId {:?} does not match the context of task {id} (spec 3.4.3)",
                        message.context_id
                    ),
                )]));
            }
            let state = task.status.state;
            if state.is_terminal() {
                return Err(A2aError::unsupported_operation(format!(
                    "task {id} is in terminal state {state} and accepts no more messages (spec 3.1.1)"
                ))
                .with_metadata("taskId", &id)
                .with_metadata("state", state.as_str_name()));
            }
            check_generation(expected_generation, task)?;
            // An answer to an interrupted task runs the executor again:
            // it needs a slot before it changes anything.
            let slot = match state.is_interrupted() {
                true => Some(self.shared.reserve_run()?),
                false => None,
            };
            match store
                .add_message(&id, message.clone(), Some(stored.version))
                .await
            {
                Ok(_) => break (stored, slot),
                // The version is the generation: a task that moved since
                // the check fails the request, not a retry.
                Err(StoreError::Conflict { actual, .. }) if expected_generation.is_some() => {
                    return Err(generation_mismatch(expected_generation, actual))
                }
                Err(StoreError::Conflict { .. }) if attempts < 16 => continue,
                Err(e) => return Err(store_error(e, &id)),
            }
        };
        if let Some(mut config) = push {
            if config.id.is_empty() {
                config.id = self.shared.ids.next("push");
            }
            config.task_id.clone_from(&id);
            self.shared
                .attach_push(owner, config, version, false, cx.trace.clone())
                .await?;
        }
        if slot.is_some() {
            // Interrupted states may always move to WORKING; a cancel that
            // came first wins, and the work then stops at its first update.
            let (updater, _) = TaskUpdater::for_existing(
                Arc::clone(&self.shared),
                owner.clone(),
                id.clone(),
                stored.task.context_id.clone(),
            );
            let _ = updater.start_work().await;
        }
        let watch = if !waited_on && !subscribe {
            None
        } else {
            store.watch(&id)
        };
        let now = store
            .get(owner, &id, view)
            .await
            .map_err(|e| store_error(e, &id))?;
        if let Some(slot) = slot {
            let mut message = message;
            message.context_id.clone_from(&now.task.context_id);
            let full = store
                .get(owner, &id, View::FULL)
                .await
                .map_err(|e| store_error(e, &id))?;
            let context = self.context(cx, owner, message, Some(full.task), accepted, metadata);
            let (updater, inner) = TaskUpdater::for_existing(
                Arc::clone(&self.shared),
                owner.clone(),
                id.clone(),
                now.task.context_id.clone(),
            );
            self.run(context, updater, inner, waited_on, slot);
        }
        Ok(Started::Task {
            id,
            task: Some(now.task),
            position: now.position,
            watch,
        })
    }

    async fn send(
        &self,
        cx: &CallContext,
        request: SendMessageRequest,
    ) -> Result<SendMessageResponse, A2aError> {
        let tenant = request.tenant.clone();
        match self.start(cx, request, false).await? {
            (Started::Reply(message), _, _) => Ok(message.into()),
            (
                Started::Task {
                    task: Some(task), ..
                },
                _,
                true,
            ) => Ok(task.into()),
            (Started::Task { id, watch, .. }, view, _) => {
                let owner = self.owner(cx, &tenant);
                Ok(self.settled(&owner, id, watch, view).await?.into())
            }
        }
    }

    /// The task once it is terminal or interrupted (spec 3.2.2, blocking
    /// mode), or as it stands after `max_blocking_wait`, or
    /// `TaskNotFoundError` if it goes first.
    async fn settled(
        &self,
        owner: &Owner,
        id: String,
        watch: Option<Box<dyn TaskWatch>>,
        view: View,
    ) -> Result<Task, A2aError> {
        let store = &self.shared.store;
        let mut watch = watch;
        let mut deadline = self
            .config
            .max_blocking_wait
            .map(|wait| Box::pin(self.shared.runtime.sleep(wait)));
        loop {
            let now = store
                .get(owner, &id, view)
                .await
                .map_err(|e| store_error(e, &id))?
                .task;
            let s = now.status.state;
            if s.is_terminal() || s.is_interrupted() {
                return Ok(now);
            }
            match watch.as_mut() {
                Some(w) => {
                    let change = match deadline.as_mut() {
                        None => changed(&mut **w).await,
                        Some(sleep) => {
                            let change = pin!(changed(&mut **w));
                            match race(sleep.as_mut(), change).await {
                                Ok(()) => return Ok(now),
                                Err(change) => change,
                            }
                        }
                    };
                    if change == Change::Closed {
                        return Err(A2aError::task_not_found(&id));
                    }
                }
                // Most blocking calls find their task settled at the first
                // read (the work ran inline); the others take a watch now
                // and read again, so no change between the two is missed.
                None => {
                    if self.config.max_blocking_wait == Some(Duration::ZERO) {
                        return Ok(now);
                    }
                    watch = Some(
                        store
                            .watch(&id)
                            .ok_or_else(|| A2aError::task_not_found(&id))?,
                    );
                }
            }
        }
    }

    async fn send_streaming(
        &self,
        cx: &CallContext,
        request: SendMessageRequest,
    ) -> Result<EventStream, A2aError> {
        self.require_streaming()?;
        match self.start(cx, request, true).await? {
            (Started::Reply(message), _, _) => Ok(once(StreamResponse::Message(message))),
            (
                Started::Task {
                    id,
                    task,
                    position,
                    watch,
                },
                view,
                _,
            ) => {
                let (Some(watch), Some(task)) = (watch, task) else {
                    return Err(A2aError::internal("no subscription was started"));
                };
                Ok(Subscription::new(
                    Arc::clone(&self.shared.store),
                    id,
                    watch,
                    position,
                    Some(StreamResponse::Task(task)),
                    view,
                    Until::Settled,
                    cx.event_ids.clone(),
                )
                .into_stream())
            }
        }
    }

    async fn get(&self, cx: &CallContext, request: GetTaskRequest) -> Result<Task, A2aError> {
        validated(&request)?;
        let history = history_limit("historyLength", request.history_length)?;
        let owner = self.owner(cx, &request.tenant);
        let view = View {
            history,
            artifacts: true,
        };
        #[cfg(feature = "draft-1-1")]
        if request.current_generation.is_some() {
            let mut task = self.long_poll(&owner, &request, view).await?;
            a2a_types::draft_1_1::trim_timeline(&mut task, request.timeline_length);
            return Ok(task);
        }
        #[allow(unused_mut)]
        let mut task = self
            .shared
            .store
            .get(&owner, &request.id, view)
            .await
            .map(|s| s.task)
            .map_err(|e| store_error(e, &request.id))?;
        #[cfg(feature = "draft-1-1")]
        a2a_types::draft_1_1::trim_timeline(&mut task, request.timeline_length);
        Ok(task)
    }

    /// A long-poll `GetTask` (1.1 draft 3.2.7): the task once its
    /// generation passes `currentGeneration`, or as it stands after
    /// [`max_long_poll`](HandlerConfig::max_long_poll).
    #[cfg(feature = "draft-1-1")]
    async fn long_poll(
        &self,
        owner: &Owner,
        request: &GetTaskRequest,
        view: View,
    ) -> Result<Task, A2aError> {
        use a2a_types::draft_1_1::{long_poll, LongPoll};
        let store = &self.shared.store;
        let id = &request.id;
        let mut deadline = Box::pin(self.shared.runtime.sleep(self.config.max_long_poll));
        let mut watch: Option<Box<dyn TaskWatch>> = None;
        let mut passed = self.config.max_long_poll.is_zero();
        loop {
            let now = store
                .get(owner, id, view)
                .await
                .map_err(|e| store_error(e, id))?
                .task;
            if long_poll(request.current_generation, now.generation, passed) == LongPoll::AnswerNow
            {
                return Ok(now);
            }
            // Take the watch, then read again, so that no change between
            // the read and the watch is missed.
            let Some(w) = watch.as_mut() else {
                watch = Some(
                    store
                        .watch(id)
                        .ok_or_else(|| A2aError::task_not_found(id))?,
                );
                continue;
            };
            let change = pin!(changed(&mut **w));
            match race(deadline.as_mut(), change).await {
                Ok(()) => passed = true,
                Err(Change::Closed) => return Err(A2aError::task_not_found(id)),
                Err(Change::Changed) => {}
            }
        }
    }

    async fn list(
        &self,
        cx: &CallContext,
        request: ListTasksRequest,
    ) -> Result<ListTasksResponse, A2aError> {
        let config = &self.config;
        let mut violations = Vec::new();
        // The spec's bounds (the pipeline checks them too, but a caller in
        // process has none), then this agent's own, which may be lower.
        let size = match a2a_types::list_page_size(request.page_size) {
            Ok(_) if request.page_size.is_none() => config.default_page_size,
            Ok(n) => i32::try_from(n)
                .unwrap_or(i32::MAX)
                .min(config.max_page_size),
            Err(v) => {
                violations.push(v);
                config.default_page_size
            }
        };
        let history = match history_limit("historyLength", request.history_length) {
            Ok(h) => h,
            Err(e) => {
                violations.extend(e.field_violations().cloned());
                None
            }
        };
        let cursor = if request.page_token.is_empty() {
            None
        } else {
            let cursor = TaskCursor::decode(&request.page_token);
            if cursor.is_none() {
                violations.push(violation(
                    "pageToken",
                    "is not a nextPageToken issued by this agent",
                ));
            }
            cursor
        };
        if !violations.is_empty() {
            return Err(A2aError::invalid_params(violations));
        }
        let owner = self.owner(cx, &request.tenant);
        let size = usize::try_from(size).unwrap_or(1).max(1);
        let query = TaskQuery {
            context_id: request.context_id,
            status: request.status,
            status_timestamp_after: request.status_timestamp_after,
            after: cursor,
            page_size: size,
            view: View {
                history,
                artifacts: request.include_artifacts.unwrap_or(false),
            },
        };
        let page = self
            .shared
            .store
            .list(&owner, &query)
            .await
            .map_err(|e| A2aError::internal(e.to_string()))?;
        #[allow(unused_mut)]
        let mut tasks = page.tasks;
        #[cfg(feature = "draft-1-1")]
        for task in &mut tasks {
            a2a_types::draft_1_1::trim_timeline(task, request.timeline_length);
        }
        Ok(ListTasksResponse {
            tasks,
            next_page_token: page.next.map(|c| c.encode()).unwrap_or_default(),
            page_size: i32::try_from(size).unwrap_or(i32::MAX),
            total_size: i32::try_from(page.total).unwrap_or(i32::MAX),
        })
    }

    /// Cancels the task (spec 3.1.5) through the executor. Canceling a
    /// canceled task changes nothing and answers the task again (spec
    /// 3.3.1, idempotent); any other terminal task is not cancelable.
    async fn cancel(&self, cx: &CallContext, request: CancelTaskRequest) -> Result<Task, A2aError> {
        validated(&request)?;
        let owner = self.owner(cx, &request.tenant);
        let id = &request.id;
        let store = &self.shared.store;
        let stored = store
            .get(&owner, id, View::FULL)
            .await
            .map_err(|e| store_error(e, id))?;
        let state = stored.task.status.state;
        if state == TaskState::Canceled {
            return Ok(stored.task);
        }
        if state.is_terminal() {
            return Err(A2aError::task_not_cancelable(id, state.as_str_name()));
        }
        let (updater, _) = TaskUpdater::for_existing(
            Arc::clone(&self.shared),
            owner.clone(),
            id.clone(),
            stored.task.context_id.clone(),
        );
        let _ = CatchUnwind(Box::pin(self.executor.cancel(stored.task, updater))).await;
        let now = store
            .get(&owner, id, View::FULL)
            .await
            .map_err(|e| store_error(e, id))?;
        match now.task.status.state {
            TaskState::Canceled => Ok(now.task),
            state => Err(A2aError::task_not_cancelable(id, state.as_str_name())),
        }
    }

    async fn subscribe(
        &self,
        cx: &CallContext,
        request: SubscribeToTaskRequest,
    ) -> Result<EventStream, A2aError> {
        self.require_streaming()?;
        validated(&request)?;
        let owner = self.owner(cx, &request.tenant);
        let id = &request.id;
        let store = &self.shared.store;
        let watch = store
            .watch(id)
            .ok_or_else(|| A2aError::task_not_found(id))?;
        let stored = store
            .get(&owner, id, View::FULL)
            .await
            .map_err(|e| store_error(e, id))?;
        let state = stored.task.status.state;
        if state.is_terminal() {
            return Err(A2aError::unsupported_operation(format!(
                "task {id} is in terminal state {state}; there is nothing to subscribe to (spec 3.1.6)"
            ))
            .with_metadata("taskId", id)
            .with_metadata("state", state.as_str_name()));
        }
        // A reconnecting client's `Last-Event-ID` is a position this agent
        // labelled; it resumes there when the log still holds it and there
        // is something to replay. Anything else starts with the task.
        let resume_at = cx
            .last_event_id()
            .and_then(|id| id.parse::<u64>().ok())
            .filter(|at| *at >= stored.replayable_from && *at < stored.position);
        let (position, first) = match resume_at {
            Some(at) => (at, None),
            None => (stored.position, Some(StreamResponse::Task(stored.task))),
        };
        Ok(Subscription::new(
            Arc::clone(store),
            id.clone(),
            watch,
            position,
            first,
            View::FULL,
            Until::Terminal,
            cx.event_ids.clone(),
        )
        .into_stream())
    }

    async fn create_push(
        &self,
        cx: &CallContext,
        mut request: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, A2aError> {
        self.require_push()?;
        if request.task_id.is_empty() {
            return Err(A2aError::invalid_params(vec![violation(
                "taskId",
                "Required field is missing",
            )]));
        }
        self.check_push_config(&request, "")?;
        let owner = self.owner(cx, &request.tenant);
        // The task must be the caller's before anything is stored.
        self.shared
            .store
            .get(&owner, &request.task_id, View::STATUS)
            .await
            .map_err(|e| store_error(e, &request.task_id))?;
        let tenant = std::mem::take(&mut request.tenant);
        if request.id.is_empty() {
            request.id = self.shared.ids.next("push");
        }
        let version = cx.version;
        self.shared
            .attach_push(&owner, request.clone(), version, false, cx.trace.clone())
            .await?;
        request.tenant = tenant;
        Ok(request)
    }

    async fn get_push(
        &self,
        cx: &CallContext,
        request: GetTaskPushNotificationConfigRequest,
    ) -> Result<TaskPushNotificationConfig, A2aError> {
        self.require_push()?;
        validated(&request)?;
        let owner = self.owner(cx, &request.tenant);
        self.shared
            .store
            .get_push_config(&owner, &request.task_id, &request.id)
            .await
            .map_err(|e| store_error(e, &request.task_id))?
            .ok_or_else(|| push_config_not_found(&request.task_id, &request.id))
    }

    async fn list_push(
        &self,
        cx: &CallContext,
        request: ListTaskPushNotificationConfigsRequest,
    ) -> Result<ListTaskPushNotificationConfigsResponse, A2aError> {
        self.require_push()?;
        validated(&request)?;
        let mut violations = Vec::new();
        if request.page_size < 0 {
            violations.push(violation(
                "pageSize",
                format!("Must be a non-negative integer, got {}", request.page_size),
            ));
        }
        if !request.page_token.is_empty() {
            violations.push(violation(
                "pageToken",
                "is not a nextPageToken issued by this agent (it lists every config in one page)",
            ));
        }
        if !violations.is_empty() {
            return Err(A2aError::invalid_params(violations));
        }
        let owner = self.owner(cx, &request.tenant);
        let configs = self
            .shared
            .store
            .list_push_configs(&owner, &request.task_id)
            .await
            .map_err(|e| store_error(e, &request.task_id))?;
        Ok(ListTaskPushNotificationConfigsResponse {
            configs,
            next_page_token: String::new(),
        })
    }

    async fn delete_push(
        &self,
        cx: &CallContext,
        request: DeleteTaskPushNotificationConfigRequest,
    ) -> Result<(), A2aError> {
        self.require_push()?;
        validated(&request)?;
        let owner = self.owner(cx, &request.tenant);
        // Idempotent: an unknown config id is not an error (an unknown
        // task is).
        self.shared
            .store
            .delete_push_config(&owner, &request.task_id, &request.id)
            .await
            .map_err(|e| store_error(e, &request.task_id))?;
        self.shared.push.stop(&request.task_id, &request.id);
        Ok(())
    }

    fn extended_card(&self, cx: &CallContext) -> Result<AgentCard, A2aError> {
        let Some(card) = &self.config.extended_card else {
            return Err(A2aError::unsupported_operation(
                "this agent has no extended agent card (capabilities.extendedAgentCard is false)",
            ));
        };
        if cx.principal.is_none() {
            return Err(A2aError::new(
                ErrorKind::Unauthenticated,
                "the extended agent card requires authentication (spec 13.3)",
            ));
        }
        Ok(card.clone())
    }
}

/// How an `execute` ended, as the updater reports it: an error or a panic
/// is a [`Failure`]; an [`A2aError`] is answered as it is.
fn failure(outcome: Result<Result<(), ExecuteError>, String>) -> Option<Failure> {
    match outcome {
        Ok(Ok(())) => None,
        Ok(Err(e)) => {
            let why = format!("the agent failed: {e}");
            let answer = match e.downcast::<A2aError>() {
                Ok(e) => *e,
                Err(_) => A2aError::internal(why.clone()),
            };
            Some(Failure { answer, why })
        }
        Err(panic) => {
            let why = format!("the agent failed: {panic}");
            Some(Failure {
                answer: A2aError::internal(why.clone()),
                why,
            })
        }
    }
}

fn violation(field: &str, description: impl Into<String>) -> FieldViolation {
    FieldViolation {
        field: field.to_owned(),
        description: description.into(),
    }
}

fn validated<T: Validate>(value: &T) -> Result<(), A2aError> {
    value.validate().map_err(A2aError::invalid_params)
}

/// `historyLength` (spec 3.2.4) as a limit, or `InvalidParamsError`.
fn history_limit(field: &str, value: Option<i32>) -> Result<Option<usize>, A2aError> {
    a2a_types::history_limit(field, value).map_err(|v| A2aError::invalid_params(vec![v]))
}

/// The `ifGenerationMatch` check of a continuation (1.1 draft 3.2.2).
#[cfg(feature = "draft-1-1")]
use a2a_types::draft_1_1::check_generation_match as check_generation;

#[cfg(not(feature = "draft-1-1"))]
fn check_generation(_: Option<i64>, _: &Task) -> Result<(), A2aError> {
    Ok(())
}

/// The task moved between the check and the write: at version `actual`.
#[cfg(feature = "draft-1-1")]
fn generation_mismatch(expected: Option<i64>, actual: u64) -> A2aError {
    A2aError::task_generation_mismatch(
        expected.unwrap_or_default(),
        i64::try_from(actual).unwrap_or(i64::MAX),
    )
}

#[cfg(not(feature = "draft-1-1"))]
fn generation_mismatch(_: Option<i64>, actual: u64) -> A2aError {
    A2aError::internal(format!("version conflict at {actual}"))
}

fn push_config_not_found(task_id: &str, id: &str) -> A2aError {
    A2aError::new(
        ErrorKind::TaskNotFound,
        format!("push notification config {id} not found for task {task_id}"),
    )
    .with_metadata("taskId", task_id)
    .with_metadata("configId", id)
}

impl<E: AgentExecutor> A2aService for AgentHandler<E> {
    fn send_message<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        Box::pin(self.send(cx, request))
    }

    fn send_streaming_message<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        Box::pin(self.send_streaming(cx, request))
    }

    fn get_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(self.get(cx, request))
    }

    fn list_tasks<'a>(
        &'a self,
        cx: &'a CallContext,
        request: ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, A2aError>> {
        Box::pin(self.list(cx, request))
    }

    fn cancel_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(self.cancel(cx, request))
    }

    fn subscribe_to_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SubscribeToTaskRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        Box::pin(self.subscribe(cx, request))
    }

    fn create_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        request: TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        Box::pin(self.create_push(cx, request))
    }

    fn get_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        request: GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        Box::pin(self.get_push(cx, request))
    }

    fn list_task_push_notification_configs<'a>(
        &'a self,
        cx: &'a CallContext,
        request: ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, A2aError>> {
        Box::pin(self.list_push(cx, request))
    }

    fn delete_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        request: DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), A2aError>> {
        Box::pin(self.delete_push(cx, request))
    }

    fn get_extended_agent_card<'a>(
        &'a self,
        cx: &'a CallContext,
        _request: GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, A2aError>> {
        Box::pin(async move { self.extended_card(cx) })
    }
}
