//! One task's state, its event log and the fan-out to its subscribers.
//!
//! Every change of a task goes through [`TaskEntry::publish`], under the
//! task's lock: the event is checked against the transition table,
//! applied to the stored task with [`a2a_types::apply`] (the rule clients
//! use to rebuild a task from a stream, so `GetTask` and a reconstructed
//! stream agree), numbered, appended to the task's bounded event log,
//! queued for each webhook, and announced on a `watch` channel. A
//! subscriber takes a snapshot and the next sequence number under the
//! same lock, so it misses nothing and sees nothing twice; then it reads
//! the log at its own pace.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime};

use a2a_types::{
    apply, A2aError, Artifact, Message, StreamResponse, Task, TaskArtifactUpdateEvent,
    TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent, Timestamp,
};
use tokio::sync::watch;

use crate::push::{PushHub, PushQueue};

/// Who may see a task: the tenant and the authenticated principal that
/// created it (spec 13.1). Every lookup compares the caller's scope with
/// the task's; a task of another scope is reported missing.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Scope {
    pub(crate) tenant: String,
    pub(crate) principal: Option<String>,
}

/// The task is finished or evicted: the worker stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Gone;

/// The current time, at the millisecond precision of the wire (spec
/// 5.6.1), so that what clients see is what the agent sorts and filters on.
pub(crate) fn now() -> Timestamp {
    Timestamp::try_from(SystemTime::now())
        .unwrap_or(Timestamp::UNIX_EPOCH)
        .truncated_to_millis()
}

/// Where a stream ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Until {
    /// At a terminal or interrupted state: the stream of
    /// `SendStreamingMessage` (spec 3.1.2, 11.7; issue 6).
    Settled,
    /// At a terminal state only: `SubscribeToTask` (spec 3.1.6, "the
    /// stream MUST terminate when the task reaches a terminal state"; it
    /// "can be used with any task that is not in a terminal state"), so a
    /// subscriber of an input-required or auth-required task sees it
    /// resume and finish.
    Terminal,
}

/// Whether a stream that ends at `until` ends after this item.
pub(crate) fn ends_stream(event: &StreamResponse, until: Until) -> bool {
    let ends = |s: TaskState| match until {
        Until::Settled => s.is_terminal() || s.is_interrupted(),
        Until::Terminal => s.is_terminal(),
    };
    match event {
        StreamResponse::Task(t) => ends(t.status.state),
        StreamResponse::StatusUpdate(e) => ends(e.status.state),
        StreamResponse::Message(_) => true,
        StreamResponse::ArtifactUpdate(_) => false,
    }
}

/// The events a task keeps, for subscribers that have not read them yet
/// and for resubscriptions with `Last-Event-ID`: the last `cap`, numbered
/// from 0 in publication order. A finished task keeps them only while
/// someone reads them.
#[derive(Debug)]
struct EventLog {
    next_seq: u64,
    events: VecDeque<StreamResponse>,
    cap: usize,
}

impl EventLog {
    fn first_seq(&self) -> u64 {
        self.next_seq - self.events.len() as u64
    }

    /// Drops every event and the buffer that held them (`clear` would keep
    /// the buffer: 344 bytes an event, for every finished task).
    fn free(&mut self) {
        self.events = VecDeque::new();
    }

    /// Numbers the next event, keeping it when given (`None`: nobody can
    /// read it, and the log is emptied).
    fn push(&mut self, event: Option<StreamResponse>) {
        match event {
            Some(event) => {
                if self.events.len() >= self.cap {
                    self.events.pop_front();
                }
                self.events.push_back(event);
            }
            None => self.free(),
        }
        self.next_seq += 1;
    }
}

/// The body of a 0.3 notification: the 0.3 Task object (`kind: "task"`,
/// 0.3 spec 9.5).
fn v0_3_body(task: &Task) -> bytes::Bytes {
    bytes::Bytes::from(a2a_types::v0_3::to_vec(task).unwrap_or_default())
}

/// A webhook of the task and the queue of its notifications.
#[derive(Debug)]
pub(crate) struct PushTarget {
    pub(crate) config: TaskPushNotificationConfig,
    pub(crate) queue: Arc<PushQueue>,
}

#[derive(Debug)]
struct Inner {
    task: Task,
    log: EventLog,
    push: Vec<PushTarget>,
    evicted: bool,
}

/// A stored task.
#[derive(Debug)]
pub(crate) struct TaskEntry {
    pub(crate) id: String,
    context_id: String,
    pub(crate) scope: Scope,
    pub(crate) created: Instant,
    inner: Mutex<Inner>,
    /// The sequence number of the last event, announced to every waiter.
    changed: watch::Sender<u64>,
    hub: Arc<PushHub>,
    max_history: usize,
    /// What the task was last weighed at ([`crate::weight`]), counted in
    /// `store_bytes` until it is evicted.
    weight: AtomicUsize,
    store_bytes: Arc<AtomicUsize>,
    /// Whether the task is terminal, readable without its lock (the store
    /// reads it under its own lock, which never waits for a task's).
    terminal: AtomicBool,
}

/// What a subscriber reads next.
pub(crate) enum Read {
    /// The next event.
    Event(StreamResponse),
    /// The subscriber fell behind the log: a fresh snapshot, and the
    /// sequence number to go on from.
    Resync(Task, u64),
    /// Nothing new yet.
    Pending,
    /// The task was evicted.
    Evicted,
}

/// Where a new subscriber starts: the snapshot it receives first (unless
/// it resumes), the sequence number of the first event it has not seen,
/// and its receiver.
pub(crate) struct Start {
    pub(crate) snapshot: Task,
    pub(crate) next_seq: u64,
    pub(crate) rx: watch::Receiver<u64>,
    /// The subscriber resumes an earlier stream (`Last-Event-ID`): it
    /// starts with the logged events from `next_seq`, not the snapshot.
    pub(crate) resumed: bool,
}

impl TaskEntry {
    /// A new entry for `task`, which must have an id, a context id and a
    /// timestamped status.
    pub(crate) fn new(
        task: Task,
        scope: Scope,
        hub: Arc<PushHub>,
        max_history: usize,
        max_events: usize,
        store_bytes: Arc<AtomicUsize>,
    ) -> TaskEntry {
        let entry = TaskEntry {
            id: task.id.clone(),
            context_id: task.context_id.clone(),
            scope,
            created: Instant::now(),
            inner: Mutex::new(Inner {
                task,
                log: EventLog {
                    next_seq: 0,
                    events: VecDeque::new(),
                    cap: max_events.max(1),
                },
                push: Vec::new(),
                evicted: false,
            }),
            changed: watch::channel(0).0,
            hub,
            max_history,
            weight: AtomicUsize::new(0),
            store_bytes,
            terminal: AtomicBool::new(false),
        };
        entry.reweigh(&entry.lock());
        entry
    }

    /// Weighs the task again and counts the difference in the store.
    /// Called when it is created, takes a message and settles, not on
    /// every event: the weight is a budget, not a running account.
    fn reweigh(&self, inner: &Inner) {
        if inner.evicted {
            return;
        }
        let now = crate::weight::task(&inner.task);
        let before = self.weight.swap(now, Ordering::AcqRel);
        if now >= before {
            self.store_bytes.fetch_add(now - before, Ordering::AcqRel);
        } else {
            self.store_bytes.fetch_sub(before - now, Ordering::AcqRel);
        }
    }

    /// What the task was last weighed at.
    pub(crate) fn weight(&self) -> usize {
        self.weight.load(Ordering::Acquire)
    }

    /// True once the task is terminal (spec 3.1.1): the store evicts such
    /// tasks first when it is over its byte budget.
    pub(crate) fn is_terminal(&self) -> bool {
        self.terminal.load(Ordering::Acquire)
    }

    /// The task's context.
    pub(crate) fn context_id(&self) -> &str {
        &self.context_id
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves a consistent task (every
        // change is applied at once), so a poisoned lock is still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The task as a client sees it: `history` most recent messages
    /// (spec 3.2.4; `None` for all) and, unless `artifacts`, no artifacts.
    pub(crate) fn snapshot(&self, history: Option<usize>, artifacts: bool) -> Task {
        view(&self.lock().task, history, artifacts)
    }

    /// The task's state and status timestamp.
    pub(crate) fn status_key(&self) -> (TaskState, Timestamp, String) {
        let inner = self.lock();
        let t = &inner.task;
        (
            t.status.state,
            t.status.timestamp.unwrap_or(Timestamp::UNIX_EPOCH),
            t.context_id.clone(),
        )
    }

    /// True once the task is terminal or evicted: work on it stops.
    pub(crate) fn is_finished(&self) -> bool {
        let inner = self.lock();
        inner.evicted || inner.task.is_terminal()
    }

    /// Publishes a status change with a fresh timestamp.
    pub(crate) fn set_status(
        &self,
        state: TaskState,
        message: Option<Message>,
    ) -> Result<(), Gone> {
        let mut inner = self.lock();
        self.set_status_locked(&mut inner, state, message)
    }

    fn set_status_locked(
        &self,
        inner: &mut Inner,
        state: TaskState,
        message: Option<Message>,
    ) -> Result<(), Gone> {
        if inner.evicted || !inner.task.status.state.can_transition_to(state) {
            return Err(Gone);
        }
        // Status timestamps never go backwards, even if the clock does.
        let previous = inner.task.status.timestamp.unwrap_or(Timestamp::UNIX_EPOCH);
        let status = TaskStatus {
            state,
            message,
            timestamp: Some(now().max(previous)),
        };
        let event = TaskStatusUpdateEvent::new(&inner.task.id, &inner.task.context_id, status);
        self.publish(inner, event.into());
        Ok(())
    }

    /// Publishes an artifact (or a chunk of one).
    pub(crate) fn add_artifact(
        &self,
        artifact: Artifact,
        append: bool,
        last_chunk: bool,
    ) -> Result<(), Gone> {
        let mut inner = self.lock();
        if inner.evicted || inner.task.is_terminal() {
            return Err(Gone);
        }
        let event = TaskArtifactUpdateEvent::new(&inner.task.id, &inner.task.context_id, artifact)
            .with_append(append)
            .with_last_chunk(last_chunk);
        self.publish(&mut inner, event.into());
        Ok(())
    }

    /// The one place a task changes: apply, log, queue, announce.
    fn publish(&self, inner: &mut Inner, event: StreamResponse) {
        if inner.push.iter().any(|t| !t.queue.v0_3) {
            let body = bytes::Bytes::from(a2a_types::json::to_vec(&event).unwrap_or_default());
            for target in inner.push.iter().filter(|t| !t.queue.v0_3) {
                target
                    .queue
                    .enqueue(body.clone(), &target.config, &self.hub);
            }
        }
        // Keep the event while someone may read it: a subscriber, or one
        // that resumes with `Last-Event-ID` while the task goes on; copy it
        // only then. The event names this task, so `apply` cannot fail;
        // were it to, the task would simply stay as it was.
        let watched = self.changed.receiver_count() > 0;
        let settles = match &event {
            StreamResponse::Task(t) => t.status.state.is_terminal(),
            StreamResponse::StatusUpdate(e) => e.status.state.is_terminal(),
            StreamResponse::Message(_) | StreamResponse::ArtifactUpdate(_) => {
                inner.task.is_terminal()
            }
        };
        if watched || !settles {
            let _ = apply(&mut inner.task, event.clone());
            inner.log.push(Some(event));
        } else {
            let _ = apply(&mut inner.task, event);
            inner.log.push(None);
        }
        inner.task.limit_history(Some(self.max_history));
        // 0.3 webhooks get the task as it now is (0.3 spec 9.5).
        if inner.push.iter().any(|t| t.queue.v0_3) {
            let body = v0_3_body(&inner.task);
            for target in inner.push.iter().filter(|t| t.queue.v0_3) {
                target
                    .queue
                    .enqueue(body.clone(), &target.config, &self.hub);
            }
        }
        let state = inner.task.status.state;
        if state.is_terminal() || state.is_interrupted() {
            self.terminal.store(state.is_terminal(), Ordering::Release);
            self.reweigh(inner);
        }
        let seq = inner.log.next_seq;
        // Nobody to wake when nobody watches: a receiver made later reads
        // the value, and subscribing happens under this same lock or
        // checks the task under it afterwards.
        self.changed.send_if_modified(|v| {
            *v = seq;
            watched
        });
    }

    /// Records a message of the client on the task (with the task's ids
    /// filled in).
    fn record_message(&self, inner: &mut Inner, mut message: Message) {
        message.task_id.clone_from(&inner.task.id);
        message.context_id.clone_from(&inner.task.context_id);
        inner.task.history.push(message);
        inner.task.limit_history(Some(self.max_history));
    }

    /// Accepts a follow-up message (spec 3.4.3): checks it names this
    /// task's context and that the task is not terminal, records it, and
    /// resumes an interrupted task in WORKING. Returns whether the task
    /// was resumed, and, when `subscribe`, the start of a subscription
    /// taken after that change.
    pub(crate) fn follow_up(
        &self,
        message: Message,
        subscribe: bool,
        history: Option<usize>,
    ) -> Result<(bool, Option<Start>), A2aError> {
        let mut inner = self.lock();
        if inner.evicted {
            return Err(A2aError::task_not_found(&self.id));
        }
        if !message.context_id.is_empty() && message.context_id != inner.task.context_id {
            return Err(A2aError::invalid_params(vec![a2a_types::FieldViolation {
                field: "message.contextId".to_owned(),
                description: format!(
                    "contextId {:?} does not match the context of task {} (spec 3.4.3)",
                    message.context_id, self.id
                ),
            }]));
        }
        let state = inner.task.status.state;
        if state.is_terminal() {
            return Err(A2aError::unsupported_operation(format!(
                "task {} is in terminal state {state} and accepts no more messages (spec 3.1.1)",
                self.id
            ))
            .with_metadata("taskId", &self.id)
            .with_metadata("state", state.as_str_name()));
        }
        self.record_message(&mut inner, message);
        self.reweigh(&inner);
        let resumed = state.is_interrupted();
        if resumed {
            // Interrupted states may always move to WORKING.
            let _ = self.set_status_locked(&mut inner, TaskState::Working, None);
        }
        let start = subscribe.then(|| self.start_locked(&inner, history));
        Ok((resumed, start))
    }

    /// Starts a subscription (spec 3.1.6): the current task first, then
    /// every later event. A terminal task has nothing more to send.
    ///
    /// `resume_at` is the position a reconnecting client names with
    /// `Last-Event-ID` (the sequence number of the first event it has not
    /// seen, see [`Subscription`](crate::stream::Subscription)). When the
    /// log still holds every event from there, and there is at least one,
    /// the subscription replays them instead of starting with the task;
    /// otherwise (the log moved on, the position was never issued, nothing
    /// was missed) it starts with the task as usual.
    pub(crate) fn subscribe(
        &self,
        history: Option<usize>,
        resume_at: Option<u64>,
    ) -> Result<Start, A2aError> {
        let inner = self.lock();
        if inner.evicted {
            return Err(A2aError::task_not_found(&self.id));
        }
        let state = inner.task.status.state;
        if state.is_terminal() {
            return Err(A2aError::unsupported_operation(format!(
                "task {} is in terminal state {state}; there is nothing to subscribe to (spec 3.1.6)",
                self.id
            ))
            .with_metadata("taskId", &self.id)
            .with_metadata("state", state.as_str_name()));
        }
        let mut start = self.start_locked(&inner, history);
        if let Some(at) = resume_at {
            let log = &inner.log;
            if at >= log.first_seq() && at < log.next_seq {
                start.next_seq = at;
                start.resumed = true;
            }
        }
        Ok(start)
    }

    /// The start of a subscription to a task that was just created.
    pub(crate) fn start(&self, history: Option<usize>) -> Start {
        let inner = self.lock();
        self.start_locked(&inner, history)
    }

    fn start_locked(&self, inner: &Inner, history: Option<usize>) -> Start {
        Start {
            snapshot: view(&inner.task, history, true),
            next_seq: inner.log.next_seq,
            rx: self.changed.subscribe(),
            resumed: false,
        }
    }

    /// What a subscriber at `next_seq` reads next.
    pub(crate) fn read(&self, next_seq: u64, history: Option<usize>) -> Read {
        let inner = self.lock();
        if inner.evicted {
            return Read::Evicted;
        }
        let log = &inner.log;
        if next_seq >= log.next_seq {
            return Read::Pending;
        }
        if next_seq < log.first_seq() {
            return Read::Resync(view(&inner.task, history, true), log.next_seq);
        }
        let index = (next_seq - log.first_seq()) as usize;
        match log.events.get(index) {
            Some(event) => Read::Event(event.clone()),
            None => Read::Resync(view(&inner.task, history, true), log.next_seq),
        }
    }

    /// Called by a subscriber that goes away: when it was the last one and
    /// the task is finished, the events kept for subscribers are freed at
    /// once.
    pub(crate) fn release(&self) {
        let mut inner = self.lock();
        // The departing subscriber's own receiver is still counted. A task
        // that goes on keeps its events for resubscriptions.
        if self.changed.receiver_count() <= 1 && inner.task.is_terminal() {
            inner.log.free();
        }
    }

    /// How many events the log holds now.
    #[cfg(test)]
    pub(crate) fn logged(&self) -> usize {
        self.lock().log.events.len()
    }

    /// A receiver of change announcements.
    pub(crate) fn watch(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The task once it is terminal or interrupted (spec 3.2.2, blocking
    /// mode), or `TaskNotFoundError` if it is evicted first.
    pub(crate) async fn settled(&self, history: Option<usize>) -> Result<Task, A2aError> {
        let mut rx = self.watch();
        loop {
            rx.borrow_and_update();
            {
                let inner = self.lock();
                if inner.evicted {
                    return Err(A2aError::task_not_found(&self.id));
                }
                let s = inner.task.status.state;
                if s.is_terminal() || s.is_interrupted() {
                    return Ok(view(&inner.task, history, true));
                }
            }
            if rx.changed().await.is_err() {
                return Err(A2aError::task_not_found(&self.id));
            }
        }
    }

    /// Cancels the task (spec 3.1.5). Canceling a canceled task changes
    /// nothing and answers the task again (spec 3.3.1, idempotent); any
    /// other terminal task is not cancelable.
    pub(crate) fn cancel(&self) -> Result<Task, A2aError> {
        let mut inner = self.lock();
        if inner.evicted {
            return Err(A2aError::task_not_found(&self.id));
        }
        let state = inner.task.status.state;
        if state != TaskState::Canceled
            && self
                .set_status_locked(&mut inner, TaskState::Canceled, None)
                .is_err()
        {
            return Err(A2aError::task_not_cancelable(&self.id, state.as_str_name()));
        }
        Ok(view(&inner.task, None, true))
    }

    /// True if the task has a webhook.
    pub(crate) fn has_webhooks(&self) -> bool {
        !self.lock().push.is_empty()
    }

    /// Marks the task evicted: its work stops, its streams end with
    /// `TaskNotFoundError`, its webhooks receive nothing more.
    pub(crate) fn evict(&self) {
        let mut inner = self.lock();
        if !inner.evicted {
            let weight = self.weight.swap(0, Ordering::AcqRel);
            self.store_bytes.fetch_sub(weight, Ordering::AcqRel);
        }
        inner.evicted = true;
        inner.log.free();
        for target in inner.push.drain(..) {
            target.queue.close();
        }
        if self.changed.receiver_count() > 0 {
            self.changed.send_modify(|_| {});
        }
    }

    /// Runs `f` on the task's push targets, under the task's lock; `None`
    /// when the task was evicted meanwhile.
    pub(crate) fn with_push<R>(&self, f: impl FnOnce(&mut Vec<PushTarget>) -> R) -> Option<R> {
        let mut inner = self.lock();
        if inner.evicted {
            return None;
        }
        Some(f(&mut inner.push))
    }

    /// Queues the current task to one webhook, as the first notification
    /// of a config given inline with the message that created the task.
    pub(crate) fn push_snapshot(&self, config_id: &str) {
        let inner = self.lock();
        if let Some(target) = inner.push.iter().find(|t| t.config.id == config_id) {
            let body = if target.queue.v0_3 {
                v0_3_body(&inner.task)
            } else {
                let event = StreamResponse::Task(inner.task.clone());
                bytes::Bytes::from(a2a_types::json::to_vec(&event).unwrap_or_default())
            };
            target.queue.enqueue(body, &target.config, &self.hub);
        }
    }
}

/// `task` with at most `history` recent messages and, unless `artifacts`,
/// no artifacts.
pub(crate) fn view(task: &Task, history: Option<usize>, artifacts: bool) -> Task {
    // Copies only what is kept: the same result as `Task::limit_history`
    // and `Task::omit_artifacts` on a clone.
    let keep = history.unwrap_or(usize::MAX).min(task.history.len());
    Task {
        id: task.id.clone(),
        context_id: task.context_id.clone(),
        status: task.status.clone(),
        artifacts: if artifacts {
            task.artifacts.clone()
        } else {
            Vec::new()
        },
        history: task.history[task.history.len() - keep..].to_vec(),
        metadata: task.metadata.clone(),
    }
}
