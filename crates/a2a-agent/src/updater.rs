//! [`TaskUpdater`]: how an executor moves its task.
//!
//! Every update goes to the store first (which checks the state machine
//! and numbers the event in the task's log) and reaches streams and
//! webhooks from there, so nothing is announced that is not stored. A task
//! that a message starts is created by the executor's first update, in
//! SUBMITTED with the message in its history; a first act of
//! [`reply`](TaskUpdater::reply) answers a direct `Message` and creates
//! none. The handler learns which through [`FirstAct`].

use std::fmt;
use std::future::Future;
use std::pin::{pin, Pin};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use a2a_types::{
    A2aError, Artifact, Message, Part, StreamResponse, Task, TaskArtifactUpdateEvent, TaskState,
    TaskStatus, TaskStatusUpdateEvent,
};

use crate::catch::race;
use crate::owner::Owner;
use crate::runtime::timestamp;
use crate::shared::Shared;
use crate::store::{changed, Appended, Change, StoreError, TaskWatch, View};

/// Why an update was not made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UpdateError {
    /// The state machine forbids it from the task's current state (spec
    /// 3.1.1): the task was canceled meanwhile, or is already terminal.
    Refused {
        /// The task's state.
        state: TaskState,
    },
    /// The task is gone (evicted, or removed by the store).
    TaskGone,
    /// `reply` after the task was created, or an update after `reply`.
    AlreadyAnswered,
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for UpdateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateError::Refused { state } => {
                write!(f, "the task is {state}: the update is refused (spec 3.1.1)")
            }
            UpdateError::TaskGone => f.write_str("the task is gone"),
            UpdateError::AlreadyAnswered => f.write_str(
                "the call was already answered (a reply excludes a task, and a task a reply)",
            ),
            UpdateError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for UpdateError {}

impl From<StoreError> for UpdateError {
    fn from(e: StoreError) -> UpdateError {
        match e {
            StoreError::Refused { state } => UpdateError::Refused { state },
            StoreError::NotFound => UpdateError::TaskGone,
            e => UpdateError::Store(e),
        }
    }
}

/// What the executor did first, for the call that started it.
pub(crate) enum First {
    /// It created the task: as created (when the caller asked for it),
    /// and the watch the caller asked for.
    Created {
        task: Option<Box<Task>>,
        watch: Option<Box<dyn TaskWatch>>,
    },
    /// It answered a direct message.
    Reply(Message),
    /// It ended (or the store failed) before either.
    Failed(A2aError),
}

/// A one-shot slot for [`First`], with the waker of the call waiting on it.
#[derive(Default)]
pub(crate) struct FirstAct {
    state: Mutex<(Option<First>, Option<Waker>)>,
}

impl FirstAct {
    fn set(&self, first: First) {
        let waker = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            state.0 = Some(first);
            state.1.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// Waits for the first act.
    pub(crate) fn wait(&self) -> impl Future<Output = First> + '_ {
        std::future::poll_fn(move |cx| {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            match state.0.take() {
                Some(first) => Poll::Ready(first),
                None => {
                    state.1 = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        })
    }
}

/// How `execute` failed: the error a caller still waiting for the first
/// act is answered, and the status message of a task it leaves.
pub(crate) struct Failure {
    pub(crate) answer: A2aError,
    pub(crate) why: String,
}

/// What creating the task needs, kept until the first update.
pub(crate) struct Birth {
    pub(crate) message: Message,
    /// A push config given inline, and whether a 0.3 caller gave it.
    pub(crate) push: Option<(
        a2a_types::TaskPushNotificationConfig,
        a2a_transport::ProtocolVersion,
    )>,
    /// The call's trace, the parent of the inline push config's spans.
    pub(crate) trace: Option<a2a_transport::trace::TraceContext>,
    /// Whether the caller follows the task (a stream, or a blocking call).
    pub(crate) watch: bool,
    /// Whether the caller answers with the task as created (a stream's
    /// first event, or `returnImmediately`).
    pub(crate) snapshot: bool,
    /// Whether the caller answers at once (`returnImmediately`): the work
    /// then yields once after creating the task, so the caller's answer
    /// (SUBMITTED) usually goes out before the first event, as it would if
    /// the task were created before the work started.
    pub(crate) yield_after_create: bool,
}

pub(crate) struct UpdaterInner {
    pub(crate) shared: Arc<Shared>,
    pub(crate) owner: Owner,
    pub(crate) task_id: String,
    pub(crate) context_id: String,
    birth: Mutex<Option<Birth>>,
    replied: std::sync::atomic::AtomicBool,
    /// The state the last update of this updater left the task in.
    last: Mutex<Option<TaskState>>,
    pub(crate) first: FirstAct,
}

/// Moves one task: status changes, artifacts, the interrupted states, the
/// end. Given to [`AgentExecutor::execute`](crate::AgentExecutor::execute)
/// and [`cancel`](crate::AgentExecutor::cancel).
pub struct TaskUpdater {
    inner: Arc<UpdaterInner>,
}

impl fmt::Debug for TaskUpdater {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskUpdater")
            .field("task_id", &self.inner.task_id)
            .field("context_id", &self.inner.context_id)
            .finish_non_exhaustive()
    }
}

impl TaskUpdater {
    /// An updater of a task to be created by its first update.
    pub(crate) fn for_new(
        shared: Arc<Shared>,
        owner: Owner,
        task_id: String,
        context_id: String,
        birth: Birth,
    ) -> (TaskUpdater, Arc<UpdaterInner>) {
        Self::make(shared, owner, task_id, context_id, Some(birth))
    }

    /// An updater of a stored task.
    pub(crate) fn for_existing(
        shared: Arc<Shared>,
        owner: Owner,
        task_id: String,
        context_id: String,
    ) -> (TaskUpdater, Arc<UpdaterInner>) {
        Self::make(shared, owner, task_id, context_id, None)
    }

    fn make(
        shared: Arc<Shared>,
        owner: Owner,
        task_id: String,
        context_id: String,
        birth: Option<Birth>,
    ) -> (TaskUpdater, Arc<UpdaterInner>) {
        let inner = Arc::new(UpdaterInner {
            shared,
            owner,
            task_id,
            context_id,
            birth: Mutex::new(birth),
            replied: Default::default(),
            last: Mutex::new(None),
            first: FirstAct::default(),
        });
        (
            TaskUpdater {
                inner: Arc::clone(&inner),
            },
            inner,
        )
    }

    /// The task's id.
    pub fn task_id(&self) -> &str {
        &self.inner.task_id
    }

    /// The task's context id.
    pub fn context_id(&self) -> &str {
        &self.inner.context_id
    }

    /// A fresh server-generated id of `kind` (`msg`, `artifact`, ...).
    pub fn new_id(&self, kind: &str) -> String {
        self.inner.shared.ids.next(kind)
    }

    /// An agent message of this task holding `text`, with a fresh id.
    pub fn message(&self, text: impl Into<String>) -> Message {
        Message::agent_text(self.new_id("msg"), text)
            .for_task(&self.inner.task_id, &self.inner.context_id)
    }

    /// A new artifact named `name` holding one text part, with a fresh id.
    pub fn artifact(&self, name: &str, text: impl Into<String>) -> Artifact {
        self.artifact_of(name, vec![Part::text(text)])
    }

    /// A new artifact named `name` holding `parts`, with a fresh id.
    pub fn artifact_of(&self, name: &str, parts: Vec<Part>) -> Artifact {
        Artifact::new(self.new_id("artifact"), parts).with_name(name)
    }

    /// WORKING, with no status message.
    pub async fn start_work(&self) -> Result<(), UpdateError> {
        self.status(TaskState::Working, None).await
    }

    /// WORKING, with an agent status message holding `text`.
    pub async fn working(&self, text: &str) -> Result<(), UpdateError> {
        let message = self.message(text);
        self.status(TaskState::Working, Some(message)).await
    }

    /// INPUT_REQUIRED with a status message saying what is needed: the
    /// client's next message to the task calls `execute` again.
    pub async fn require_input(&self, text: &str) -> Result<(), UpdateError> {
        let message = self.message(text);
        self.status(TaskState::InputRequired, Some(message)).await
    }

    /// AUTH_REQUIRED with a status message saying what is needed (spec
    /// 7.6.1 asks for one).
    pub async fn require_auth(&self, text: &str) -> Result<(), UpdateError> {
        let message = self.message(text);
        self.status(TaskState::AuthRequired, Some(message)).await
    }

    /// COMPLETED.
    pub async fn complete(&self) -> Result<(), UpdateError> {
        self.status(TaskState::Completed, None).await
    }

    /// COMPLETED with a status message holding `text`.
    pub async fn complete_with(&self, text: &str) -> Result<(), UpdateError> {
        let message = self.message(text);
        self.status(TaskState::Completed, Some(message)).await
    }

    /// FAILED with a status message saying why.
    pub async fn fail(&self, why: &str) -> Result<(), UpdateError> {
        let message = self.message(why);
        self.status(TaskState::Failed, Some(message)).await
    }

    /// REJECTED with a status message saying why.
    pub async fn reject(&self, why: &str) -> Result<(), UpdateError> {
        let message = self.message(why);
        self.status(TaskState::Rejected, Some(message)).await
    }

    /// CANCELED (what [`AgentExecutor::cancel`](crate::AgentExecutor::cancel)
    /// does by default).
    pub async fn cancel(&self) -> Result<(), UpdateError> {
        self.status(TaskState::Canceled, None).await
    }

    /// Any status change, with an optional status message (which joins the
    /// history). Its timestamp is the host clock's, never earlier than the
    /// task's current one.
    pub async fn status(
        &self,
        state: TaskState,
        message: Option<Message>,
    ) -> Result<(), UpdateError> {
        let status = TaskStatus {
            state,
            message,
            timestamp: Some(timestamp(&*self.inner.shared.runtime)),
        };
        let event = TaskStatusUpdateEvent::new(&self.inner.task_id, &self.inner.context_id, status);
        self.update(event.into()).await.map(|_| ())
    }

    /// A new artifact (spec 3.7.1).
    pub async fn add_artifact(&self, artifact: Artifact) -> Result<(), UpdateError> {
        self.artifact_chunk(artifact, false, false).await
    }

    /// A chunk of a streamed artifact (spec 3.7.1): `append` adds its parts
    /// to the artifact with the same id, `last_chunk` says it is the last.
    pub async fn artifact_chunk(
        &self,
        artifact: Artifact,
        append: bool,
        last_chunk: bool,
    ) -> Result<(), UpdateError> {
        let event =
            TaskArtifactUpdateEvent::new(&self.inner.task_id, &self.inner.context_id, artifact)
                .with_append(append)
                .with_last_chunk(last_chunk);
        self.update(event.into()).await.map(|_| ())
    }

    /// Answers the call with a direct `Message` instead of a task (spec
    /// 3.1.1); only as the first act of a message that starts a task.
    pub async fn reply(&self, mut message: Message) -> Result<(), UpdateError> {
        let birth = self.inner.take_birth();
        if birth.is_none() {
            return Err(UpdateError::AlreadyAnswered);
        }
        if message.context_id.is_empty() {
            message.context_id.clone_from(&self.inner.context_id);
        }
        self.inner
            .replied
            .store(true, std::sync::atomic::Ordering::Release);
        self.inner.first.set(First::Reply(message));
        Ok(())
    }

    /// True once the task is terminal or gone: work on it can stop.
    pub async fn is_finished(&self) -> bool {
        if self.inner.has_birth() {
            return false;
        }
        let shared = &self.inner.shared;
        match shared
            .store
            .get(&self.inner.owner, &self.inner.task_id, View::STATUS)
            .await
        {
            Ok(stored) => stored.task.is_terminal(),
            Err(_) => true,
        }
    }

    /// Waits `duration` on the host's clock, ending early with
    /// [`UpdateError::Refused`] when the task is canceled (or ends some
    /// other way) meanwhile. A zero pause still yields to the executor, so
    /// a burst of chunks lets its readers run.
    pub async fn pause(&self, duration: Duration) -> Result<(), UpdateError> {
        if duration.is_zero() {
            YieldNow(false).await;
            return Ok(());
        }
        let shared = &self.inner.shared;
        let mut watch = if self.inner.has_birth() {
            None
        } else {
            shared.store.watch(&self.inner.task_id)
        };
        let mut sleep = pin!(shared.runtime.sleep(duration));
        loop {
            let Some(w) = watch.as_mut() else {
                sleep.as_mut().await;
                return Ok(());
            };
            let change = pin!(changed(&mut **w));
            match race(sleep.as_mut(), change).await {
                Ok(()) => return Ok(()),
                Err(Change::Closed) => return Err(UpdateError::TaskGone),
                Err(Change::Changed) => {
                    let stored = shared
                        .store
                        .get(&self.inner.owner, &self.inner.task_id, View::STATUS)
                        .await?;
                    if stored.task.is_terminal() {
                        return Err(UpdateError::Refused {
                            state: stored.task.status.state,
                        });
                    }
                }
            }
        }
    }

    /// Stores `event` (creating the task first if this is the first
    /// update) and announces it.
    async fn update(&self, event: StreamResponse) -> Result<Appended, UpdateError> {
        if self
            .inner
            .replied
            .load(std::sync::atomic::Ordering::Acquire)
        {
            return Err(UpdateError::AlreadyAnswered);
        }
        if self.inner.has_birth() {
            // Once per task, and large: boxed so that every update's state
            // does not carry it.
            Box::pin(self.inner.create()).await?;
        }
        let shared = &self.inner.shared;
        Ok(shared
            .store
            .append(&self.inner.task_id, event, None)
            .await?)
    }
}

impl UpdaterInner {
    fn take_birth(&self) -> Option<Birth> {
        self.birth.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    fn has_birth(&self) -> bool {
        self.birth
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// Creates the task, if it is still to be: SUBMITTED with the client's
    /// message, the caller's watch taken before any event, the inline push
    /// config attached; then tells the waiting call.
    async fn create(&self) -> Result<(), UpdateError> {
        let Some(birth) = self.take_birth() else {
            return Ok(());
        };
        let shared = &self.shared;
        #[allow(unused_mut)]
        let mut task = Task {
            id: self.task_id.clone(),
            context_id: self.context_id.clone(),
            status: TaskStatus::new(TaskState::Submitted)
                .with_timestamp(timestamp(&*shared.runtime)),
            history: vec![birth.message],
            ..Task::default()
        };
        // Generation 1, the message and the first status in the timeline
        // (1.1 draft 3.2.7, 3.2.8); the store moves it from there.
        #[cfg(feature = "draft-1-1")]
        a2a_types::draft_1_1::start(&mut task);
        let snapshot = birth.snapshot.then(|| task.clone());
        match shared.store.create(&self.owner, task).await {
            Ok(()) => {}
            Err(e) => {
                self.first.set(First::Failed(crate::shared::store_error(
                    e.clone(),
                    &self.task_id,
                )));
                return Err(e.into());
            }
        };
        let watch = if birth.watch {
            shared.store.watch(&self.task_id)
        } else {
            None
        };
        if let Some((config, version)) = birth.push {
            let attached = Box::pin(shared.attach_push(
                &self.owner,
                config,
                version,
                true,
                birth.trace.clone(),
            ));
            if let Err(e) = attached.await {
                self.first.set(First::Failed(e));
                return Err(UpdateError::TaskGone);
            }
        }
        self.first.set(First::Created {
            task: snapshot.map(Box::new),
            watch,
        });
        if birth.yield_after_create {
            YieldNow(false).await;
        }
        Ok(())
    }

    /// What happens when `execute` ends: a call still waiting for the first
    /// act gets the error (or `InternalError`); a task left SUBMITTED or
    /// WORKING ends FAILED with a status message.
    ///
    /// With `release`, a task left INPUT_REQUIRED or AUTH_REQUIRED that is
    /// not answered within that time ends FAILED with a status message
    /// saying so (the interrupted-task timeout of
    /// [`HandlerConfig`](crate::HandlerConfig)).
    pub(crate) async fn finish(&self, failure: Option<Failure>, release: Option<Duration>) {
        if self.take_birth().is_some() {
            let error = match failure {
                None => A2aError::internal("the agent answered neither a task nor a message"),
                Some(f) => f.answer,
            };
            self.first.set(First::Failed(error));
            return;
        }
        if self.replied.load(std::sync::atomic::Ordering::Acquire) {
            return;
        }
        // The common end: the work's own last update settled the task, and
        // no release timer is asked for; nothing to read.
        let last = *self.last.lock().unwrap_or_else(|e| e.into_inner());
        if failure.is_none()
            && last.is_some_and(|s| s.is_terminal() || (s.is_interrupted() && release.is_none()))
        {
            return;
        }
        let shared = &self.shared;
        let Ok(stored) = shared
            .store
            .get(&self.owner, &self.task_id, View::STATUS)
            .await
        else {
            return;
        };
        let state = stored.task.status.state;
        if state.is_interrupted() && failure.is_none() {
            if let Some(after) = release {
                self.release_later(stored.version, after);
            }
            return;
        }
        if !matches!(state, TaskState::Submitted | TaskState::Working) {
            return;
        }
        let why = match failure {
            None => "the agent stopped without finishing the task".to_owned(),
            Some(f) => f.why,
        };
        let message = Message::agent_text(shared.ids.next("msg"), why)
            .for_task(&self.task_id, &self.context_id);
        let status = TaskStatus {
            state: TaskState::Failed,
            message: Some(message),
            timestamp: Some(timestamp(&*shared.runtime)),
        };
        let event = TaskStatusUpdateEvent::new(&self.task_id, &self.context_id, status);
        let _ = shared.store.append(&self.task_id, event.into(), None).await;
    }
}

impl UpdaterInner {
    /// Ends the task FAILED after `after` unless it moved on (its version
    /// changed) meanwhile.
    fn release_later(&self, version: u64, after: Duration) {
        let shared = Arc::clone(&self.shared);
        let (owner, id, context) = (
            self.owner.clone(),
            self.task_id.clone(),
            self.context_id.clone(),
        );
        let sleep = shared.runtime.sleep(after);
        let run = Arc::clone(&shared.runtime);
        run.spawn(Box::pin(async move {
            sleep.await;
            let Ok(stored) = shared.store.get(&owner, &id, View::STATUS).await else {
                return;
            };
            if stored.version != version || !stored.task.status.state.is_interrupted() {
                return;
            }
            let why = format!(
                "no answer came within {} s: the task was released",
                after.as_secs()
            );
            let message = Message::agent_text(shared.ids.next("msg"), why).for_task(&id, &context);
            let status = TaskStatus {
                state: TaskState::Failed,
                message: Some(message),
                timestamp: Some(timestamp(&*shared.runtime)),
            };
            let event = TaskStatusUpdateEvent::new(&id, &context, status);
            // Only if nothing happened since: the version is the guard.
            let _ = shared.store.append(&id, event.into(), Some(version)).await;
        }));
    }
}

/// Pending once, so the executor runs something else first.
struct YieldNow(bool);

impl Future for YieldNow {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}
