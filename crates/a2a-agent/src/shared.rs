//! What the handler and every updater of its tasks share.

use std::sync::Arc;

use a2a_transport::trace::{TraceContext, Tracer};
use a2a_transport::ProtocolVersion;
use a2a_types::{A2aError, FieldViolation, TaskPushNotificationConfig};

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
}

impl Shared {
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

/// A store's answer about task `task_id` as the protocol's error.
pub(crate) fn store_error(e: StoreError, task_id: &str) -> A2aError {
    match e {
        StoreError::NotFound => A2aError::task_not_found(task_id),
        StoreError::Full(why) => A2aError::invalid_params(vec![FieldViolation {
            field: "taskId".to_owned(),
            description: why,
        }]),
        e => A2aError::internal(e.to_string()),
    }
}
