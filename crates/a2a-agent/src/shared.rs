//! What the handler and every updater of its tasks share.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use a2a_transport::trace::{TraceContext, Tracer};
use a2a_transport::ProtocolVersion;
use a2a_types::{A2aError, ErrorKind, FieldViolation, TaskPushNotificationConfig};

use crate::ids::IdGenerator;
use crate::owner::Owner;
use crate::push::{Attach, PushHub};
use crate::runtime::Runtime;
use crate::store::{StoreError, TaskStore, View};

pub(crate) struct Shared {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(crate) runtime: Arc<dyn Runtime>,
    pub(crate) ids: IdGenerator,
    pub(crate) push: Arc<PushHub>,
    /// Where the executor's and push delivery's spans go.
    pub(crate) tracer: Option<Arc<dyn Tracer>>,
    /// The executor runs in flight.
    pub(crate) running: Arc<AtomicUsize>,
    /// The most runs at once (`HandlerConfig::max_running_tasks`).
    pub(crate) max_running: usize,
}

/// A run of the executor counted against `max_running_tasks`, given back
/// when dropped (the run ended, or its future was dropped).
#[derive(Debug)]
pub(crate) struct RunSlot(Arc<AtomicUsize>);

impl Drop for RunSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// `RateLimitedError` saying `why`, retried after [`BUSY_RETRY_AFTER`].
pub(crate) fn busy(why: String) -> A2aError {
    A2aError::new(ErrorKind::RateLimited, why).with_retry_delay(BUSY_RETRY_AFTER)
}

impl Shared {
    /// A slot for one more run of the executor, or `RateLimitedError`
    /// when `max_running_tasks` runs are in flight.
    pub(crate) fn reserve_run(&self) -> Result<RunSlot, A2aError> {
        let max = self.max_running.max(1);
        self.running
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .map(|_| RunSlot(Arc::clone(&self.running)))
            .map_err(|n| {
                busy(format!(
                    "the agent runs {n} tasks, the most it runs at once; try again later"
                ))
            })
    }

    /// Stores a checked push config of a task of `owner` (spec 3.1.7) and
    /// starts its delivery loop from the task's next event (from the task
    /// itself when `snapshot_first`). A config with the id of one the task
    /// has replaces it: the old one's loop stops. Answers the config it
    /// replaced. Its notifications' spans are children of `trace`, the
    /// call that set it.
    pub(crate) async fn attach_push(
        &self,
        owner: &Owner,
        config: TaskPushNotificationConfig,
        version: ProtocolVersion,
        snapshot_first: bool,
        trace: Option<TraceContext>,
    ) -> Result<Option<TaskPushNotificationConfig>, A2aError> {
        let task_id = config.task_id.clone();
        let watch = self
            .store
            .watch(&task_id)
            .ok_or_else(|| A2aError::task_not_found(&task_id))?;
        let replaced = self
            .store
            .put_push_config(owner, config.clone())
            .await
            .map_err(|e| store_error(e, &task_id))?;
        let stored = self
            .store
            .get(owner, &task_id, View::FULL)
            .await
            .map_err(|e| store_error(e, &task_id))?;
        self.push.start(
            Arc::clone(&self.store),
            Arc::clone(&self.runtime),
            self.tracer.clone(),
            Attach {
                owner: owner.clone(),
                config,
                version,
                task: stored.task,
                position: stored.position,
                snapshot_first,
                watch,
                trace,
            },
        );
        Ok(replaced)
    }
}

/// How long a caller refused for a quota or a spent budget is told to
/// wait: running work ends, and quotas free, within seconds.
pub(crate) const BUSY_RETRY_AFTER: Duration = Duration::from_secs(1);

/// A store's answer about task `task_id` as the protocol's error. A full
/// quota or budget is `RateLimitedError` with a retry delay (spec 3.3.2
/// "System Errors", 13.4; `docs/decisions.md`).
pub(crate) fn store_error(e: StoreError, task_id: &str) -> A2aError {
    match e {
        StoreError::NotFound => A2aError::task_not_found(task_id),
        StoreError::Quota(why) | StoreError::Busy(why) => busy(why),
        StoreError::Full(why) => A2aError::invalid_params(vec![FieldViolation {
            field: "taskId".to_owned(),
            description: why,
        }]),
        e => A2aError::internal(e.to_string()),
    }
}
