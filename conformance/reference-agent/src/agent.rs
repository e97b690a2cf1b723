//! [`ReferenceAgent`]: the `A2aService` implementation.

use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Waker};

use a2a_transport::server::media_range_covers;
use a2a_transport::{
    webhook::check_webhook_url, A2aService, BoxFuture, CallContext, EventStream, ServerConfig,
};
use a2a_types::{
    A2aError, AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, ErrorKind,
    FieldViolation, GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest,
    GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, Message,
    PartContent, SendMessageRequest, SendMessageResponse, StreamResponse, SubscribeToTaskRequest,
    Task, TaskCursor, TaskPushNotificationConfig, TaskState, TaskStatus, Validate,
};
use http::HeaderValue;

use crate::behaviour::{self, Behaviour, Work};
use crate::card;
use crate::config::AgentConfig;
use crate::ids::IdGenerator;
use crate::push::{PushHub, PushObserver, PushQueue, PushSender};
use crate::store::{self, Filter, Store};
use crate::stream::{self, Subscription};
use crate::task::{now, PushTarget, Scope, Start, TaskEntry, Until};
use crate::worker::Worker;

/// The reference agent: an in-memory [`A2aService`] that honours every
/// server-side requirement of spec sections 3 and 13, driven by the
/// message (see the [crate documentation](crate) for the contract).
///
/// Cloning is cheap and shares the tasks. Methods must be called from
/// within a tokio runtime: tasks run on spawned tokio tasks.
#[derive(Clone)]
pub struct ReferenceAgent {
    inner: Arc<Inner>,
}

struct Inner {
    config: AgentConfig,
    store: Store,
    ids: Arc<IdGenerator>,
    hub: Arc<PushHub>,
    public_card: AgentCard,
    extended_card: AgentCard,
    /// When the card changed, for `Last-Modified`.
    card_changed: std::time::SystemTime,
}

impl std::fmt::Debug for ReferenceAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReferenceAgent")
            .field("config", &self.inner.config)
            .field("tasks", &self.inner.store.len())
            .finish_non_exhaustive()
    }
}

/// What `SendMessage` set in motion.
#[allow(clippy::large_enum_variant)] // one per call, never stored
enum Prepared {
    /// A direct reply.
    Reply(Message),
    /// A task: the entry, the task as it was when the call returned
    /// control (before any work ran), and the start of a subscription
    /// when one was asked for.
    Task {
        entry: Arc<TaskEntry>,
        snapshot: Task,
        start: Option<Start>,
    },
}

impl ReferenceAgent {
    /// An agent delivering push notifications with `sender`.
    pub fn new(config: AgentConfig, sender: Arc<dyn PushSender>) -> ReferenceAgent {
        ReferenceAgent::build(config, sender, None)
    }

    /// An agent delivering push notifications with `sender` and telling
    /// `observer` what happened to each one.
    pub fn with_push_observer(
        config: AgentConfig,
        sender: Arc<dyn PushSender>,
        observer: PushObserver,
    ) -> ReferenceAgent {
        ReferenceAgent::build(config, sender, Some(observer))
    }

    fn build(
        config: AgentConfig,
        sender: Arc<dyn PushSender>,
        observer: Option<PushObserver>,
    ) -> ReferenceAgent {
        let hub = Arc::new(PushHub {
            sender,
            policy: config.push.clone(),
            max_queue: config.limits.max_push_queue,
            observer,
            allowlist: config.push_allowlist.clone(),
        });
        ReferenceAgent {
            inner: Arc::new(Inner {
                store: Store::new(
                    config.limits.max_tasks,
                    config.limits.task_ttl,
                    config.limits.max_store_bytes,
                ),
                ids: Arc::new(IdGenerator::new()),
                hub,
                public_card: card::public_card(&config),
                extended_card: card::extended_card(&config),
                card_changed: config
                    .card_last_modified
                    .unwrap_or_else(std::time::SystemTime::now),
                config,
            }),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &AgentConfig {
        &self.inner.config
    }

    /// The public agent card (spec 8), served at
    /// `/.well-known/agent-card.json` by the binary.
    pub fn agent_card(&self) -> &AgentCard {
        &self.inner.public_card
    }

    /// The server settings the agent is served with: `ServerConfig`'s
    /// defaults, with the input-mode check on (a part the card's
    /// `defaultInputModes` does not accept is `ContentTypeNotSupportedError`,
    /// spec 3.3.2) and the card's `Last-Modified` (spec 8.6.1).
    pub fn server_config(&self) -> ServerConfig {
        ServerConfig::new()
            .with_input_mode_check(true)
            .with_card_last_modified(self.inner.card_changed)
    }

    /// How many tasks the agent holds now (at most `limits.max_tasks`).
    pub fn task_count(&self) -> usize {
        self.inner.store.len()
    }

    /// What the stored tasks weigh, in estimated bytes (at most about
    /// `limits.max_store_bytes` after the next task or sweep).
    pub fn store_weight(&self) -> usize {
        self.inner.store.weight()
    }

    /// Evicts expired tasks and what the byte budget requires without
    /// waiting for a new task to arrive; returns how many went. The
    /// binary runs it every second ([`SWEEP_INTERVAL`]).
    pub fn sweep(&self) -> usize {
        self.inner.store.sweep()
    }

    /// Starts `work` on the task. `waited_on` says that the caller blocks
    /// until the task settles (a blocking SendMessage).
    fn spawn(&self, entry: Arc<TaskEntry>, work: Work, waited_on: bool) {
        let inline = waited_on && !entry.has_webhooks();
        let worker = Worker {
            entry,
            ids: Arc::clone(&self.inner.ids),
            step: self.inner.config.limits.work_step,
        };
        let mut run = Box::pin(worker.run(work));
        // Most work never waits (an echo, a failure, input-required). When
        // nobody can see the task before it settles (the caller blocks, no
        // webhook is told of each step) it runs here up to its first wait,
        // and only what is left becomes a tokio task: a blocking
        // SendMessage then finds its task settled without a wake-up from
        // another task. Polling with a no-op waker is sound: whatever the
        // future waits on registers the task's own waker when it is polled
        // again after the spawn.
        if inline
            && run
                .as_mut()
                .poll(&mut Context::from_waker(Waker::noop()))
                .is_ready()
        {
            return;
        }
        tokio::spawn(run);
    }

    fn task(&self, scope: &Scope, id: &str) -> Result<Arc<TaskEntry>, A2aError> {
        self.inner
            .store
            .get(id, scope)
            .ok_or_else(|| A2aError::task_not_found(id))
    }

    /// Checks a push config (REQUIRED fields, SSRF rules of spec 13.2,
    /// header-safe credentials); `at` is the path of the config in the
    /// request, for error messages.
    fn check_push_config(
        &self,
        config: &TaskPushNotificationConfig,
        at: &str,
    ) -> Result<(), A2aError> {
        if !self.inner.config.push_notifications {
            return Err(A2aError::push_notification_not_supported());
        }
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
            if let Err(e) = check_webhook_url(&config.url, &self.inner.config.push_allowlist) {
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

    /// Attaches a checked config to a task (spec 3.1.7): under the id the
    /// client chose, or a server-generated one when it chose none. A config
    /// with the id of one the task already has replaces it (its pending
    /// notifications are dropped; later ones go to the new config), and
    /// does not count against `max_push_configs_per_task`. Answers the
    /// config as stored and the one it replaced.
    ///
    /// A config set by a 0.3 caller (`v0_3`) gets 0.3 notifications: the
    /// 0.3 Task object (0.3 spec 9.5).
    fn attach_push(
        &self,
        entry: &TaskEntry,
        mut config: TaskPushNotificationConfig,
        v0_3: bool,
    ) -> Result<
        (
            TaskPushNotificationConfig,
            Option<TaskPushNotificationConfig>,
        ),
        A2aError,
    > {
        let max = self.inner.config.limits.max_push_configs_per_task;
        if config.id.is_empty() {
            config.id = self.inner.ids.next("push");
        }
        config.task_id.clone_from(&entry.id);
        let attached = entry.with_push(|targets| {
            let target = PushTarget {
                config: config.clone(),
                queue: Arc::new(PushQueue::new(v0_3)),
            };
            if let Some(old) = targets.iter_mut().find(|t| t.config.id == config.id) {
                let old = std::mem::replace(old, target);
                old.queue.close();
                return Ok((config, Some(old.config)));
            }
            if targets.len() >= max {
                return Err(A2aError::invalid_params(vec![violation(
                    "taskId",
                    format!(
                        "task {} already has {max} push configs, the most it may have",
                        entry.id
                    ),
                )]));
            }
            targets.push(target);
            Ok((config, None))
        });
        attached.unwrap_or_else(|| Err(A2aError::task_not_found(&entry.id)))
    }

    fn detach_push(entry: &TaskEntry, id: &str) {
        entry.with_push(|targets| {
            if let Some(i) = targets.iter().position(|t| t.config.id == id) {
                targets.remove(i).queue.close();
            }
        });
    }

    /// The common part of `SendMessage` and `SendStreamingMessage`.
    /// `acceptedOutputModes` (spec 3.2.1, 3.3.2): the agent answers only
    /// with parts of its card's `defaultOutputModes` (`text/plain`, and
    /// `application/json` for data), so a client that accepts none of them
    /// is refused with `ContentTypeNotSupportedError` before any work. An
    /// empty list accepts everything.
    fn check_output_modes(&self, accepted: &[String]) -> Result<(), A2aError> {
        let ours = &self.inner.public_card.default_output_modes;
        if accepted.is_empty()
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

    fn prepare(
        &self,
        cx: &CallContext,
        request: SendMessageRequest,
        subscribe: bool,
    ) -> Result<(Prepared, Option<usize>, bool), A2aError> {
        validated(&request)?;
        let configuration = request.configuration.unwrap_or_default();
        self.check_output_modes(&configuration.accepted_output_modes)?;
        let history = history_limit("configuration.historyLength", configuration.history_length)?;
        let push = configuration.task_push_notification_config;
        if let Some(config) = &push {
            self.check_push_config(config, "configuration.taskPushNotificationConfig")?;
        }
        let immediately = configuration.return_immediately;
        let scope = scope(cx, &request.tenant);
        let message = request.message;

        if !message.task_id.is_empty() {
            let entry = self.task(&scope, &message.task_id)?;
            let work = behaviour::for_follow_up(&message);
            let attached = match push {
                Some(config) => Some(self.attach_push(&entry, *config, v0_3(cx))?),
                None => None,
            };
            let (resumed, start) = match entry.follow_up(message, subscribe, history) {
                Ok(r) => r,
                Err(e) => {
                    // The message was refused: the task's configs are as
                    // they were.
                    match attached {
                        Some((_, Some(replaced))) => {
                            let _ = self.attach_push(&entry, replaced, v0_3(cx));
                        }
                        Some((config, None)) => Self::detach_push(&entry, &config.id),
                        None => {}
                    }
                    return Err(e);
                }
            };
            let snapshot = match &start {
                Some(s) => s.snapshot.clone(),
                None => entry.snapshot(history, true),
            };
            if resumed {
                self.spawn(Arc::clone(&entry), work, !subscribe && !immediately);
            }
            let prepared = Prepared::Task {
                entry,
                snapshot,
                start,
            };
            return Ok((prepared, history, immediately));
        }

        let behaviour = behaviour::for_new_message(&message, &self.inner.config.limits)
            .map_err(|e| A2aError::invalid_params(vec![violation(&text_path(&message), e.0)]))?;
        let ids = &self.inner.ids;
        let context_id = if message.context_id.is_empty() {
            ids.next("ctx")
        } else {
            message.context_id.clone()
        };
        let work = match behaviour {
            Behaviour::Reply(text) => {
                let mut reply = Message::agent_text(ids.next("msg"), text);
                reply.context_id = context_id;
                return Ok((Prepared::Reply(reply), history, immediately));
            }
            Behaviour::Task(work) => work,
        };
        let id = ids.next("task");
        let mut message = message;
        message.task_id.clone_from(&id);
        message.context_id.clone_from(&context_id);
        let task = Task {
            id,
            context_id,
            status: TaskStatus::new(TaskState::Submitted).with_timestamp(now()),
            history: vec![message],
            ..Task::default()
        };
        let limits = &self.inner.config.limits;
        let entry = Arc::new(TaskEntry::new(
            task,
            scope,
            Arc::clone(&self.inner.hub),
            limits.max_history,
            limits.max_events_per_task,
            self.inner.store.bytes(),
        ));
        if let Some(config) = push {
            let (config, _) = self.attach_push(&entry, *config, v0_3(cx))?;
            entry.push_snapshot(&config.id);
        }
        let start = subscribe.then(|| entry.start(history));
        let snapshot = match &start {
            Some(s) => s.snapshot.clone(),
            None => entry.snapshot(history, true),
        };
        self.inner.store.insert(Arc::clone(&entry));
        self.spawn(Arc::clone(&entry), work, !subscribe && !immediately);
        let prepared = Prepared::Task {
            entry,
            snapshot,
            start,
        };
        Ok((prepared, history, immediately))
    }

    async fn send(
        &self,
        cx: &CallContext,
        request: SendMessageRequest,
    ) -> Result<SendMessageResponse, A2aError> {
        match self.prepare(cx, request, false)? {
            (Prepared::Reply(message), _, _) => Ok(message.into()),
            (Prepared::Task { snapshot, .. }, _, true) => Ok(snapshot.into()),
            (Prepared::Task { entry, .. }, history, false) => {
                Ok(entry.settled(history).await?.into())
            }
        }
    }

    fn send_streaming(
        &self,
        cx: &CallContext,
        request: SendMessageRequest,
    ) -> Result<EventStream, A2aError> {
        self.require_streaming()?;
        match self.prepare(cx, request, true)? {
            (Prepared::Reply(message), _, _) => Ok(stream::once(StreamResponse::Message(message))),
            (Prepared::Task { entry, start, .. }, history, _) => {
                let start =
                    start.ok_or_else(|| A2aError::internal("no subscription was started"))?;
                let ids = cx.event_ids.clone();
                Ok(Subscription::new(entry, start, history, Until::Settled, ids).into_stream())
            }
        }
    }

    fn require_streaming(&self) -> Result<(), A2aError> {
        if self.inner.config.streaming {
            Ok(())
        } else {
            Err(A2aError::unsupported_operation(
                "streaming is not supported by this agent (capabilities.streaming is false)",
            ))
        }
    }

    fn require_push(&self) -> Result<(), A2aError> {
        if self.inner.config.push_notifications {
            Ok(())
        } else {
            Err(A2aError::push_notification_not_supported())
        }
    }

    fn get(&self, cx: &CallContext, request: GetTaskRequest) -> Result<Task, A2aError> {
        validated(&request)?;
        let history = history_limit("historyLength", request.history_length)?;
        let entry = self.task(&scope(cx, &request.tenant), &request.id)?;
        Ok(entry.snapshot(history, true))
    }

    fn list(
        &self,
        cx: &CallContext,
        request: ListTasksRequest,
    ) -> Result<ListTasksResponse, A2aError> {
        let limits = &self.inner.config.limits;
        let mut violations = Vec::new();
        // The spec's bounds (the pipeline checks them too, but a caller in
        // process has none), then this agent's own, which may be lower.
        let size = match a2a_types::list_page_size(request.page_size) {
            Ok(_) if request.page_size.is_none() => limits.default_page_size,
            Ok(n) => i32::try_from(n)
                .unwrap_or(i32::MAX)
                .min(limits.max_page_size),
            Err(v) => {
                violations.push(v);
                limits.default_page_size
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
        let filter = Filter {
            context_id: &request.context_id,
            status: request.status,
            after: request.status_timestamp_after,
        };
        let scope = scope(cx, &request.tenant);
        let size = usize::try_from(size).unwrap_or(1).max(1);
        let page = store::page(
            self.inner.store.visible(&scope),
            &filter,
            cursor.as_ref(),
            size,
        );
        let artifacts = request.include_artifacts.unwrap_or(false);
        let mut tasks: Vec<Task> = page
            .entries
            .iter()
            .map(|e| e.snapshot(history, artifacts))
            .collect();
        // A task may have changed since it was ordered; keep the page in
        // order of what it returns.
        tasks.sort_by(|a, b| (b.status.timestamp, &b.id).cmp(&(a.status.timestamp, &a.id)));
        Ok(ListTasksResponse {
            tasks,
            next_page_token: page.next_token,
            page_size: i32::try_from(size).unwrap_or(i32::MAX),
            total_size: i32::try_from(page.total).unwrap_or(i32::MAX),
        })
    }

    fn cancel(&self, cx: &CallContext, request: CancelTaskRequest) -> Result<Task, A2aError> {
        validated(&request)?;
        self.task(&scope(cx, &request.tenant), &request.id)?
            .cancel()
    }

    fn subscribe(
        &self,
        cx: &CallContext,
        request: SubscribeToTaskRequest,
    ) -> Result<EventStream, A2aError> {
        self.require_streaming()?;
        validated(&request)?;
        let entry = self.task(&scope(cx, &request.tenant), &request.id)?;
        // A reconnecting client's `Last-Event-ID` is a position this agent
        // labelled (see `stream`); anything else is no position at all.
        let resume_at = cx.last_event_id().and_then(|id| id.parse::<u64>().ok());
        let start = entry.subscribe(None, resume_at)?;
        let ids = cx.event_ids.clone();
        Ok(Subscription::new(entry, start, None, Until::Terminal, ids).into_stream())
    }

    fn create_push(
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
        let entry = self.task(&scope(cx, &request.tenant), &request.task_id)?;
        let tenant = std::mem::take(&mut request.tenant);
        let (mut created, _) = self.attach_push(&entry, request, v0_3(cx))?;
        created.tenant = tenant;
        Ok(created)
    }

    fn get_push(
        &self,
        cx: &CallContext,
        request: GetTaskPushNotificationConfigRequest,
    ) -> Result<TaskPushNotificationConfig, A2aError> {
        self.require_push()?;
        validated(&request)?;
        let entry = self.task(&scope(cx, &request.tenant), &request.task_id)?;
        entry
            .with_push(|targets| {
                targets
                    .iter()
                    .find(|t| t.config.id == request.id)
                    .map(|t| t.config.clone())
            })
            .flatten()
            .ok_or_else(|| push_config_not_found(&request.task_id, &request.id))
    }

    fn list_push(
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
        let entry = self.task(&scope(cx, &request.tenant), &request.task_id)?;
        let configs = entry
            .with_push(|targets| targets.iter().map(|t| t.config.clone()).collect())
            .unwrap_or_default();
        Ok(ListTaskPushNotificationConfigsResponse {
            configs,
            next_page_token: String::new(),
        })
    }

    fn delete_push(
        &self,
        cx: &CallContext,
        request: DeleteTaskPushNotificationConfigRequest,
    ) -> Result<(), A2aError> {
        self.require_push()?;
        validated(&request)?;
        let entry = self.task(&scope(cx, &request.tenant), &request.task_id)?;
        Self::detach_push(&entry, &request.id);
        Ok(())
    }

    fn extended_card(&self, cx: &CallContext) -> Result<AgentCard, A2aError> {
        if self.inner.config.bearer_scheme.is_none() {
            return Err(A2aError::unsupported_operation(
                "this agent has no extended agent card (capabilities.extendedAgentCard is false)",
            ));
        }
        if cx.principal.is_none() {
            return Err(A2aError::new(
                ErrorKind::Unauthenticated,
                "the extended agent card requires authentication (spec 13.3)",
            ));
        }
        Ok(self.inner.extended_card.clone())
    }
}

/// The scope of a call: its tenant (from the binding, else the request)
/// and its principal.
fn scope(cx: &CallContext, tenant: &str) -> Scope {
    Scope {
        tenant: cx.tenant.clone().unwrap_or_else(|| tenant.to_owned()),
        principal: cx.principal.as_ref().map(|p| p.id.clone()),
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

/// The path of the text part a command was read from.
fn text_path(message: &Message) -> String {
    let i = message
        .parts
        .iter()
        .position(|p| matches!(p.content, PartContent::Text(_)))
        .unwrap_or(0);
    format!("message.parts[{i}].text")
}

/// Whether the caller speaks 0.3 (spec 3.6.2).
fn v0_3(cx: &CallContext) -> bool {
    cx.version == a2a_transport::ProtocolVersion::V0_3
}

fn push_config_not_found(task_id: &str, id: &str) -> A2aError {
    A2aError::new(
        ErrorKind::TaskNotFound,
        format!("push notification config {id} not found for task {task_id}"),
    )
    .with_metadata("taskId", task_id)
    .with_metadata("configId", id)
}

/// How often the binary sweeps the store ([`ReferenceAgent::sweep`]).
pub const SWEEP_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

impl A2aService for ReferenceAgent {
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
        Box::pin(async move { self.send_streaming(cx, request) })
    }

    fn get_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(async move { self.get(cx, request) })
    }

    fn list_tasks<'a>(
        &'a self,
        cx: &'a CallContext,
        request: ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, A2aError>> {
        Box::pin(async move { self.list(cx, request) })
    }

    fn cancel_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(async move { self.cancel(cx, request) })
    }

    fn subscribe_to_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SubscribeToTaskRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        Box::pin(async move { self.subscribe(cx, request) })
    }

    fn create_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        request: TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        Box::pin(async move { self.create_push(cx, request) })
    }

    fn get_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        request: GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        Box::pin(async move { self.get_push(cx, request) })
    }

    fn list_task_push_notification_configs<'a>(
        &'a self,
        cx: &'a CallContext,
        request: ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, A2aError>> {
        Box::pin(async move { self.list_push(cx, request) })
    }

    fn delete_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        request: DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), A2aError>> {
        Box::pin(async move { self.delete_push(cx, request) })
    }

    fn get_extended_agent_card<'a>(
        &'a self,
        cx: &'a CallContext,
        _request: GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, A2aError>> {
        Box::pin(async move { self.extended_card(cx) })
    }
}
