//! The task store: tasks with a version, their event log with positions,
//! push configs, every row with its owner; and the event seam through
//! which readers learn that a task changed.
//!
//! A store holds the rules that must hold atomically per task (the state
//! machine of spec 3.1.1 / `a2a_types::TaskState::can_transition_to`,
//! optimistic concurrency, log positions, owner isolation); the
//! [`AgentHandler`](crate::AgentHandler) holds every protocol rule above
//! them. [`InMemoryTaskStore`] is the bounded store of one process; a
//! durable one implements the same trait and proves it with the
//! [`contract`](crate::contract) suite, which checks every rule below.
//!
//! # The rules a store keeps
//!
//! - **Versions.** `create` stores version 1 at position 0; every successful `append`
//!   and `add_message` adds one. A write with an `expected_version` that
//!   is not the current one changes nothing and answers
//!   [`StoreError::Conflict`].
//! - **The state machine.** `append` of a status update the transition
//!   table forbids, or of an artifact to a terminal task, changes nothing
//!   and answers [`StoreError::Refused`]; a status timestamp earlier than
//!   the task's current one is raised to it (timestamps never decrease
//!   within a task).
//! - **The log.** Every appended event gets the next position, from 0;
//!   [`read`](TaskStore::read) at a position answers that event while the
//!   log holds it, [`LogRead::Behind`] with the task when the log has moved
//!   past it, [`LogRead::Pending`] at the end. What the log keeps is the
//!   store's choice (the in-memory store keeps the last
//!   `max_events_per_task` while the task goes on, and after it finishes
//!   only while it is watched), within one rule: an event appended while a
//!   watch is alive stays readable until the watch is dropped or the log
//!   holds `max_events_per_task` newer ones.
//! - **Owners.** `get`, `list` and the push-config calls see only the
//!   caller's tasks; another owner's task answers exactly as a missing one.
//! - **Listing** (spec 3.1.4): newest status timestamp first, ties by task
//!   id descending; a page starts strictly after its cursor, so paging
//!   while tasks change never repeats a task and never skips one that did
//!   not change.
//! - **Watches.** A [`TaskWatch`] taken before a change reports it; a
//!   watch of a task that is removed reports [`Change::Closed`].
//! - **Eviction** (a store that declares a bound of `max_tasks`): at the
//!   bound a create evicts the oldest task, so that a store of the
//!   creator's tasks alone evicts them oldest first; the evicted task's
//!   watches report [`Change::Closed`].
//! - **Owners apart** (a store that declares a per-owner quota): one
//!   owner holds at most its quota of tasks; eviction never removes a
//!   non-terminal task of one owner to make room for another's (only
//!   terminal tasks, or the creator's own); and when an owner's quota is
//!   full of its own unfinished tasks, that owner's create is refused
//!   ([`StoreError::Quota`]), not someone else's. A store that evicts
//!   nothing (a durable one without a bound) keeps this rule trivially
//!   and declares no quota.

mod memory;
pub(crate) mod weight;

use std::fmt;
use std::task::{Context, Poll};

use a2a_transport::BoxFuture;
use a2a_types::{
    Message, StreamResponse, Task, TaskCursor, TaskPushNotificationConfig, TaskState, Timestamp,
};

use crate::owner::Owner;

pub use memory::{InMemoryTaskStore, MemoryLimits};

/// What a store call answers.
pub type StoreFuture<'a, T> = BoxFuture<'a, Result<T, StoreError>>;

/// Why a store refused or failed a call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreError {
    /// No such task for this owner (or at all: the two are one answer).
    NotFound,
    /// `create` of an id the store already holds.
    AlreadyExists,
    /// The task is at another version than the write expected.
    Conflict {
        /// The version the write expected.
        expected: u64,
        /// The version the task is at.
        actual: u64,
    },
    /// The event breaks the state machine: a transition the table forbids,
    /// or an artifact for a terminal task.
    Refused {
        /// The task's state when the event arrived.
        state: TaskState,
    },
    /// A bound of the store on what a caller asked to add (push configs
    /// per task).
    Full(String),
    /// The caller's quota is full of its own unfinished tasks: nothing of
    /// another owner's was evicted to make room. Answered
    /// `RateLimitedError` with a retry delay.
    Quota(String),
    /// The store cannot take more work now: its running-work budget is
    /// spent, or its bounds are full of other owners' unfinished tasks.
    /// Answered `RateLimitedError` with a retry delay.
    Busy(String),
    /// The backend failed (a lost connection, a broken row).
    Backend(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotFound => f.write_str("no such task"),
            StoreError::AlreadyExists => f.write_str("a task with this id exists"),
            StoreError::Conflict { expected, actual } => {
                write!(
                    f,
                    "version conflict: expected {expected}, the task is at {actual}"
                )
            }
            StoreError::Refused { state } => {
                write!(
                    f,
                    "the task is {state}: the state machine refuses this event"
                )
            }
            StoreError::Full(why) => write!(f, "store bound reached: {why}"),
            StoreError::Quota(why) => write!(f, "quota reached: {why}"),
            StoreError::Busy(why) => write!(f, "the store is busy: {why}"),
            StoreError::Backend(why) => write!(f, "task store failed: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// How much of a task a read returns (spec 3.2.4): at most `history`
/// recent messages (`None`: all) and the artifacts only when `artifacts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    /// The most recent messages to keep; `None` for all.
    pub history: Option<usize>,
    /// Whether artifacts are included.
    pub artifacts: bool,
}

impl View {
    /// The whole task.
    pub const FULL: View = View {
        history: None,
        artifacts: true,
    };
    /// The status only: no history, no artifacts.
    pub const STATUS: View = View {
        history: Some(0),
        artifacts: false,
    };

    /// `task` as this view shows it, copying only what is kept.
    pub fn of(self, task: &Task) -> Task {
        let keep = self.history.unwrap_or(usize::MAX).min(task.history.len());
        Task {
            id: task.id.clone(),
            context_id: task.context_id.clone(),
            status: task.status.clone(),
            artifacts: if self.artifacts {
                task.artifacts.clone()
            } else {
                Vec::new()
            },
            history: task.history[task.history.len() - keep..].to_vec(),
            metadata: task.metadata.clone(),
            // 1.1 draft: the generation always; the timeline in every view
            // but the bare status (the handler trims it by
            // `timelineLength`).
            #[cfg(feature = "draft-1-1")]
            generation: task.generation,
            #[cfg(feature = "draft-1-1")]
            timeline: if self == View::STATUS {
                Vec::new()
            } else {
                task.timeline.clone()
            },
            ..Default::default()
        }
    }
}

/// A task as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredTask {
    /// The task, as the read's [`View`] shows it.
    pub task: Task,
    /// Its version (1 when created).
    pub version: u64,
    /// The position the next event will get (the number of events
    /// appended so far).
    pub position: u64,
    /// The first position the log can still replay (`position` when it
    /// holds nothing).
    pub replayable_from: u64,
}

/// What an `append` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// The task's version after it.
    pub version: u64,
    /// The event's position in the log.
    pub position: u64,
    /// The task's state after it.
    pub state: TaskState,
}

/// What a reader finds at a position of the log.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // one per read, never stored
#[non_exhaustive]
pub enum LogRead {
    /// The event at that position.
    Event(StreamResponse),
    /// The log no longer holds that position: the task now, and the
    /// position to read on from.
    Behind(Task, u64),
    /// Nothing there yet.
    Pending,
}

/// The filters and page of one `ListTasks` call (spec 3.1.4), already
/// checked by the handler.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskQuery {
    /// Only this context; empty for any.
    pub context_id: String,
    /// Only this state; `Unspecified` for any.
    pub status: TaskState,
    /// Only tasks whose status timestamp is at or after this.
    pub status_timestamp_after: Option<Timestamp>,
    /// Start strictly after this task of the order.
    pub after: Option<TaskCursor>,
    /// At most this many tasks (at least 1).
    pub page_size: usize,
    /// How much of each task.
    pub view: View,
}

impl TaskQuery {
    /// Whether a task in `state` at `timestamp` in `context_id` matches.
    pub fn admits(&self, state: TaskState, timestamp: Timestamp, context_id: &str) -> bool {
        (self.context_id.is_empty() || self.context_id == context_id)
            && (self.status == TaskState::Unspecified || self.status == state)
            && self
                .status_timestamp_after
                .is_none_or(|after| timestamp >= after)
    }
}

/// One page of tasks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TaskPage {
    /// The tasks, in list order.
    pub tasks: Vec<Task>,
    /// How many tasks matched in all pages.
    pub total: usize,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<TaskCursor>,
}

/// What a watch reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Change {
    /// The task changed (one or more events, or its history) since the
    /// last report.
    Changed,
    /// The task is gone (evicted, deleted): nothing more will change.
    Closed,
}

/// The event seam: tells one reader that a task changed. A store on
/// another machine implements it with its own notifications
/// (`LISTEN/NOTIFY`, a pub/sub channel) and, where those can be lost,
/// reports `Changed` after a reconnect so the reader catches up from the
/// log.
pub trait TaskWatch: Send {
    /// `Ready` when the task changed since the last `Ready` (or since the
    /// watch was taken), else registers `cx`'s waker.
    fn poll_change(&mut self, cx: &mut Context<'_>) -> Poll<Change>;
}

impl fmt::Debug for dyn TaskWatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TaskWatch")
    }
}

/// The next report of `watch`.
pub async fn changed(watch: &mut dyn TaskWatch) -> Change {
    std::future::poll_fn(|cx| watch.poll_change(cx)).await
}

/// Where the handler keeps tasks. See the [module docs](self) for the
/// rules every implementation keeps; [`contract::check`](crate::contract::check)
/// verifies them.
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new task of `owner` at version 1 with an empty log
    /// (position 0). It answers nothing more: the caller has the task.
    fn create<'a>(&'a self, owner: &'a Owner, task: Task) -> StoreFuture<'a, ()>;

    /// The task `id` of `owner`, as `view` shows it.
    fn get<'a>(&'a self, owner: &'a Owner, id: &'a str, view: View) -> StoreFuture<'a, StoredTask>;

    /// Appends a status or artifact update to the task's log and applies it
    /// to the task (with [`a2a_types::apply`], the rule clients rebuild
    /// tasks by), checking the state machine and, when given, the version.
    /// The caller has already checked who may write.
    fn append<'a>(
        &'a self,
        id: &'a str,
        event: StreamResponse,
        expected_version: Option<u64>,
    ) -> StoreFuture<'a, Appended>;

    /// Adds a client message to the task's history (with the task's ids
    /// filled in); not an event of the log. Answers the new version.
    fn add_message<'a>(
        &'a self,
        id: &'a str,
        message: Message,
        expected_version: Option<u64>,
    ) -> StoreFuture<'a, u64>;

    /// One page of `owner`'s tasks.
    fn list<'a>(&'a self, owner: &'a Owner, query: &'a TaskQuery) -> StoreFuture<'a, TaskPage>;

    /// The log of task `id` at `position`; a [`LogRead::Behind`] task as
    /// `view` shows it.
    fn read<'a>(&'a self, id: &'a str, position: u64, view: View) -> StoreFuture<'a, LogRead>;

    /// A watch of task `id`, reporting changes after this call; `None` when
    /// there is no such task.
    fn watch(&self, id: &str) -> Option<Box<dyn TaskWatch>>;

    /// Stores a push config of a task of `owner` under `config.id` (which
    /// the caller has set), replacing one with the same id; answers the
    /// one it replaced. A new id beyond the store's bound is
    /// [`StoreError::Full`].
    fn put_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        config: TaskPushNotificationConfig,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>>;

    /// The push config `id` of task `task_id`; `Ok(None)` when the task
    /// has no such config.
    fn get_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>>;

    /// Every push config of task `task_id`, in the order they were made.
    fn list_push_configs<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>>;

    /// Deletes the push config `id` of task `task_id`; answers whether
    /// there was one.
    fn delete_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
        id: &'a str,
    ) -> StoreFuture<'a, bool>;

    /// Removes what the store's retention rules say has expired at `now`;
    /// answers how many tasks went. The default keeps everything.
    fn sweep(&self, now: Timestamp) -> usize {
        let _ = now;
        0
    }
}

/// Pointers to a store are stores.
macro_rules! forward_store {
    ($($ptr:ty),*) => {$(
        impl<S: TaskStore + ?Sized> TaskStore for $ptr {
            fn create<'a>(&'a self, owner: &'a Owner, task: Task) -> StoreFuture<'a, ()> {
                (**self).create(owner, task)
            }
            fn get<'a>(&'a self, owner: &'a Owner, id: &'a str, view: View) -> StoreFuture<'a, StoredTask> {
                (**self).get(owner, id, view)
            }
            fn append<'a>(&'a self, id: &'a str, event: StreamResponse, expected_version: Option<u64>) -> StoreFuture<'a, Appended> {
                (**self).append(id, event, expected_version)
            }
            fn add_message<'a>(&'a self, id: &'a str, message: Message, expected_version: Option<u64>) -> StoreFuture<'a, u64> {
                (**self).add_message(id, message, expected_version)
            }
            fn list<'a>(&'a self, owner: &'a Owner, query: &'a TaskQuery) -> StoreFuture<'a, TaskPage> {
                (**self).list(owner, query)
            }
            fn read<'a>(&'a self, id: &'a str, position: u64, view: View) -> StoreFuture<'a, LogRead> {
                (**self).read(id, position, view)
            }
            fn watch(&self, id: &str) -> Option<Box<dyn TaskWatch>> {
                (**self).watch(id)
            }
            fn put_push_config<'a>(&'a self, owner: &'a Owner, config: TaskPushNotificationConfig) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
                (**self).put_push_config(owner, config)
            }
            fn get_push_config<'a>(&'a self, owner: &'a Owner, task_id: &'a str, id: &'a str) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
                (**self).get_push_config(owner, task_id, id)
            }
            fn list_push_configs<'a>(&'a self, owner: &'a Owner, task_id: &'a str) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>> {
                (**self).list_push_configs(owner, task_id)
            }
            fn delete_push_config<'a>(&'a self, owner: &'a Owner, task_id: &'a str, id: &'a str) -> StoreFuture<'a, bool> {
                (**self).delete_push_config(owner, task_id, id)
            }
            fn sweep(&self, now: Timestamp) -> usize {
                (**self).sweep(now)
            }
        }
    )*};
}

forward_store!(std::sync::Arc<S>, Box<S>);

/// What `add_message` does to the task, the same in every store: the
/// message joins the history (and, with the 1.1 draft, takes the next
/// generation in the timeline, draft spec 3.2.8), both bounded by
/// `max_history` entries. The caller has set the message's ids.
pub fn record_message(task: &mut Task, message: Message, max_history: usize) {
    #[cfg(not(feature = "draft-1-1"))]
    task.history.push(message);
    #[cfg(feature = "draft-1-1")]
    a2a_types::draft_1_1::record_message(task, message);
    bound_history(task, max_history);
}

/// Keeps the `max_history` most recent messages (and timeline entries).
pub fn bound_history(task: &mut Task, max_history: usize) {
    task.limit_history(Some(max_history));
    #[cfg(feature = "draft-1-1")]
    a2a_types::draft_1_1::trim_timeline(task, Some(i32::try_from(max_history).unwrap_or(i32::MAX)));
}
