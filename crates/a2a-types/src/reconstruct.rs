//! Client-side reconstruction: following a stream (spec 3.1.2, 3.1.6) or
//! push notifications (spec 4.3.3) to hold the task `GetTask` would return.
//!
//! The rules are documented on [`apply`]; artifact completion on
//! [`TaskSnapshot`].

use std::collections::BTreeSet;

use crate::events::{StreamResponse, TaskArtifactUpdateEvent};
use crate::message::{Artifact, Message};
use crate::task::{Task, TaskState};

/// What [`apply`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Applied {
    /// A `task` event replaced the whole snapshot.
    Replaced,
    /// A `statusUpdate` replaced the status; `message_appended` tells
    /// whether its message was new to the history.
    Status {
        /// The new state.
        state: TaskState,
        /// Whether the status message was appended to the history.
        message_appended: bool,
    },
    /// An `artifactUpdate` changed an artifact.
    Artifact {
        /// The artifact's id.
        artifact_id: String,
        /// True when the chunk extended an existing artifact.
        appended: bool,
        /// True when the chunk was marked `lastChunk`.
        last_chunk: bool,
    },
    /// A `message` bound to the task was appended to the history
    /// (`false`: the history already held it).
    Message {
        /// Whether the message was new to the history.
        appended: bool,
    },
}

/// Why an event could not be applied to a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReconstructError {
    /// The event is about another task.
    #[error("event for task {found:?} cannot be applied to task {expected:?}")]
    TaskMismatch {
        /// The snapshot's task id.
        expected: String,
        /// The event's task id (empty for a message bound to no task).
        found: String,
    },
    /// The event names the task but another context.
    #[error("event for context {found:?} cannot be applied to a task of context {expected:?}")]
    ContextMismatch {
        /// The snapshot's context id.
        expected: String,
        /// The event's context id.
        found: String,
    },
}

fn check_ids(task: &Task, task_id: &str, context_id: &str) -> Result<(), ReconstructError> {
    if task_id != task.id {
        return Err(ReconstructError::TaskMismatch {
            expected: task.id.clone(),
            found: task_id.to_owned(),
        });
    }
    if !context_id.is_empty() && !task.context_id.is_empty() && context_id != task.context_id {
        return Err(ReconstructError::ContextMismatch {
            expected: task.context_id.clone(),
            found: context_id.to_owned(),
        });
    }
    Ok(())
}

/// Appends `message` to `history` unless it is already there (same
/// non-empty `messageId`, or an identical message).
fn push_history(history: &mut Vec<Message>, message: &Message) -> bool {
    let known = history.iter().any(|h| {
        if message.message_id.is_empty() {
            h == message
        } else {
            h.message_id == message.message_id
        }
    });
    if !known {
        history.push(message.clone());
    }
    !known
}

fn merge_chunk(existing: &mut Artifact, chunk: Artifact) {
    existing.parts.extend(chunk.parts);
    if !chunk.name.is_empty() {
        existing.name = chunk.name;
    }
    if !chunk.description.is_empty() {
        existing.description = chunk.description;
    }
    if let Some(metadata) = chunk.metadata {
        existing
            .metadata
            .get_or_insert_with(Default::default)
            .extend(metadata);
    }
    for extension in chunk.extensions {
        if !existing.extensions.contains(&extension) {
            existing.extensions.push(extension);
        }
    }
}

fn apply_artifact(task: &mut Task, event: TaskArtifactUpdateEvent) -> Applied {
    let artifact_id = event.artifact.artifact_id.clone();
    let slot = task
        .artifacts
        .iter_mut()
        .find(|a| a.artifact_id == event.artifact.artifact_id);
    let appended = match slot {
        Some(existing) if event.append => {
            merge_chunk(existing, event.artifact);
            true
        }
        Some(existing) => {
            *existing = event.artifact;
            false
        }
        None => {
            task.artifacts.push(event.artifact);
            false
        }
    };
    Applied::Artifact {
        artifact_id,
        appended,
        last_chunk: event.last_chunk,
    }
}

/// Applies one stream item to a task snapshot, so that a client following
/// a stream (spec 3.1.2, 3.1.6) or push notifications (spec 4.3.3) holds
/// the task `GetTask` would return. On error the snapshot is unchanged.
///
/// The rules, a pure function of the snapshot and one event:
///
/// - `task`: the server's full current state; it replaces the snapshot.
/// - `statusUpdate`: the status replaces the snapshot's status; when it
///   carries a message, that message is appended to the history (unless
///   the history already holds it, so applying an event twice changes
///   nothing).
/// - `artifactUpdate` with `append`: its parts extend the artifact with the
///   same `artifactId` (its name and description, when set, replace the
///   old ones; metadata keys merge; new extensions are added). Without
///   `append`: it replaces that artifact. Either way an unknown
///   `artifactId` adds a new artifact, so a client that joined late still
///   sees what arrives.
/// - `message` bound to the task: appended to the history.
///
/// An event about another task (or another context) is an error and
/// leaves the snapshot as it was. The event's own `metadata` describes
/// the update, not the task, and is not copied into it.
///
/// ```
/// use a2a_types::{apply, Artifact, StreamResponse, Task, TaskArtifactUpdateEvent, TaskState,
///                 TaskStatusUpdateEvent};
///
/// let mut task = Task::new("t1", "c1", TaskState::Working);
/// apply(&mut task, TaskArtifactUpdateEvent::new("t1", "c1", Artifact::text("a1", "Hello, ")).into())?;
/// apply(
///     &mut task,
///     TaskArtifactUpdateEvent::new("t1", "c1", Artifact::text("a1", "world"))
///         .with_append(true)
///         .with_last_chunk(true)
///         .into(),
/// )?;
/// apply(&mut task, TaskStatusUpdateEvent::new("t1", "c1", TaskState::Completed).into())?;
/// assert_eq!(task.artifacts[0].text_content().as_deref(), Some("Hello, world"));
/// assert_eq!(task.status.state, TaskState::Completed);
/// # Ok::<(), a2a_types::ReconstructError>(())
/// ```
pub fn apply(task: &mut Task, event: StreamResponse) -> Result<Applied, ReconstructError> {
    #[cfg(feature = "draft-1-1")]
    {
        let mark = crate::draft_1_1::Mark::of(&event);
        let applied = apply_1_0(task, event)?;
        let new_artifact = matches!(
            applied,
            Applied::Artifact {
                appended: false,
                ..
            }
        );
        mark.applied(task, new_artifact);
        Ok(applied)
    }
    #[cfg(not(feature = "draft-1-1"))]
    apply_1_0(task, event)
}

/// [`apply`]'s 1.0 rules.
fn apply_1_0(task: &mut Task, event: StreamResponse) -> Result<Applied, ReconstructError> {
    match event {
        StreamResponse::Task(new) => {
            check_ids(task, &new.id, &new.context_id)?;
            *task = new;
            Ok(Applied::Replaced)
        }
        StreamResponse::StatusUpdate(update) => {
            check_ids(task, &update.task_id, &update.context_id)?;
            if task.context_id.is_empty() {
                task.context_id = update.context_id;
            }
            let message_appended = match &update.status.message {
                Some(message) => push_history(&mut task.history, message),
                None => false,
            };
            let state = update.status.state;
            task.status = update.status;
            Ok(Applied::Status {
                state,
                message_appended,
            })
        }
        StreamResponse::ArtifactUpdate(update) => {
            check_ids(task, &update.task_id, &update.context_id)?;
            if task.context_id.is_empty() {
                task.context_id.clone_from(&update.context_id);
            }
            Ok(apply_artifact(task, update))
        }
        StreamResponse::Message(message) => {
            check_ids(task, &message.task_id, &message.context_id)?;
            let appended = push_history(&mut task.history, &message);
            Ok(Applied::Message { appended })
        }
    }
}

/// A task followed through a stream, with the completion of its artifacts.
///
/// **Completion of artifacts.** The proto has no field for "this artifact
/// is complete", and writing one into the task (in metadata, say) would
/// make the snapshot differ from what `GetTask` returns. So completion is
/// reported, not stored in the task: [`apply`] returns
/// [`Applied::Artifact`] with `last_chunk`, and [`TaskSnapshot`] keeps the
/// set of completed artifact ids beside the task (`TaskSnapshot` itself). An artifact counts as
/// complete once a chunk with `lastChunk` arrived for it, and every
/// artifact counts as complete once the task is terminal (the stream ends
/// there, spec 3.1.2, so nothing more can arrive).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TaskSnapshot {
    task: Task,
    completed: BTreeSet<String>,
}

impl TaskSnapshot {
    /// Starts from a task (usually the first item of the stream).
    pub fn new(task: Task) -> TaskSnapshot {
        TaskSnapshot {
            task,
            completed: BTreeSet::new(),
        }
    }

    /// Starts from the first item of a stream, which must be a task
    /// (spec 3.1.2, 3.1.6); any other item is handed back as the error.
    pub fn from_first_event(event: StreamResponse) -> Result<TaskSnapshot, Box<StreamResponse>> {
        match event {
            StreamResponse::Task(task) => Ok(TaskSnapshot::new(task)),
            other => Err(Box::new(other)),
        }
    }

    /// Applies one item ([`apply`]) and records artifact completion.
    pub fn apply(&mut self, event: StreamResponse) -> Result<Applied, ReconstructError> {
        let applied = apply(&mut self.task, event)?;
        match &applied {
            Applied::Replaced => self
                .completed
                .retain(|id| self.task.artifacts.iter().any(|a| &a.artifact_id == id)),
            Applied::Artifact {
                artifact_id,
                last_chunk: true,
                ..
            } => {
                self.completed.insert(artifact_id.clone());
            }
            Applied::Artifact {
                artifact_id,
                appended: false,
                last_chunk: false,
            } => {
                // A replacement without `lastChunk` starts a new version
                // that may still grow.
                self.completed.remove(artifact_id);
            }
            _ => {}
        }
        Ok(applied)
    }

    /// The task as reconstructed so far.
    pub fn task(&self) -> &Task {
        &self.task
    }

    /// The task, giving up the completion record.
    pub fn into_task(self) -> Task {
        self.task
    }

    /// Whether the artifact is complete: a `lastChunk` arrived for it, or
    /// the task is terminal.
    pub fn is_artifact_complete(&self, artifact_id: &str) -> bool {
        self.task.artifact(artifact_id).is_some()
            && (self.task.is_terminal() || self.completed.contains(artifact_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::TaskStatusUpdateEvent;
    use crate::message::Part;
    use crate::task::TaskStatus;

    fn chunk(id: &str, text: &str, append: bool, last: bool) -> StreamResponse {
        TaskArtifactUpdateEvent::new("t", "c", Artifact::text(id, text))
            .with_append(append)
            .with_last_chunk(last)
            .into()
    }

    #[test]
    fn status_replaces_and_message_goes_to_history_once() {
        let mut task = Task::new("t", "c", TaskState::Submitted);
        let status = TaskStatus::new(TaskState::InputRequired)
            .with_message(Message::agent_text("m1", "Where to?"));
        let event: StreamResponse = TaskStatusUpdateEvent::new("t", "c", status.clone()).into();
        assert_eq!(
            apply(&mut task, event.clone()).unwrap(),
            Applied::Status {
                state: TaskState::InputRequired,
                message_appended: true
            }
        );
        assert_eq!(task.status, status);
        assert_eq!(task.history.len(), 1);
        // Idempotent.
        apply(&mut task, event).unwrap();
        assert_eq!(task.history.len(), 1);
        // A status without a message leaves the history alone.
        apply(
            &mut task,
            TaskStatusUpdateEvent::new("t", "c", TaskState::Working).into(),
        )
        .unwrap();
        assert_eq!(task.history.len(), 1);
        assert_eq!(task.status.message, None);
    }

    #[test]
    fn artifact_chunks_append_replace_and_complete() {
        let mut snap = TaskSnapshot::new(Task::new("t", "c", TaskState::Working));
        snap.apply(chunk("a", "one ", false, false)).unwrap();
        assert!(!snap.is_artifact_complete("a"));
        let applied = snap.apply(chunk("a", "two", true, true)).unwrap();
        assert_eq!(
            applied,
            Applied::Artifact {
                artifact_id: "a".into(),
                appended: true,
                last_chunk: true
            }
        );
        assert!(snap.is_artifact_complete("a"));
        assert_eq!(snap.task().artifacts.len(), 1);
        assert_eq!(
            snap.task().artifacts[0].parts,
            vec![Part::text("one "), Part::text("two")]
        );

        // Without append: replaces, and a new version is open again.
        snap.apply(chunk("a", "fresh", false, false)).unwrap();
        assert_eq!(snap.task().artifacts[0].parts, vec![Part::text("fresh")]);
        assert!(!snap.is_artifact_complete("a"));

        // A second artifact, then the task finishes: all complete.
        snap.apply(chunk("b", "x", true, false)).unwrap();
        assert_eq!(snap.task().artifacts.len(), 2);
        assert!(!snap.is_artifact_complete("b"));
        snap.apply(TaskStatusUpdateEvent::new("t", "c", TaskState::Completed).into())
            .unwrap();
        assert!(snap.is_artifact_complete("a") && snap.is_artifact_complete("b"));
        assert!(!snap.is_artifact_complete("missing"));
    }

    #[test]
    fn append_merges_descriptive_fields() {
        let mut task = Task::new("t", "c", TaskState::Working);
        let mut first = Artifact::text("a", "1").with_name("draft");
        first.extensions = vec!["urn:x".into()];
        apply(
            &mut task,
            TaskArtifactUpdateEvent::new("t", "c", first).into(),
        )
        .unwrap();
        let mut second = Artifact::text("a", "2");
        second.description = "final".into();
        second.extensions = vec!["urn:x".into(), "urn:y".into()];
        second.metadata = Some(serde_json::Map::from_iter([("k".to_owned(), 1.into())]));
        apply(
            &mut task,
            TaskArtifactUpdateEvent::new("t", "c", second)
                .with_append(true)
                .into(),
        )
        .unwrap();
        let a = &task.artifacts[0];
        assert_eq!(a.name, "draft");
        assert_eq!(a.description, "final");
        assert_eq!(a.extensions, ["urn:x", "urn:y"]);
        assert_eq!(a.metadata.as_ref().map(|m| m.len()), Some(1));
    }

    #[test]
    fn mismatches_are_errors_and_leave_the_snapshot() {
        let mut task = Task::new("t", "c", TaskState::Working);
        let before = task.clone();
        let wrong_task: StreamResponse =
            TaskStatusUpdateEvent::new("u", "c", TaskState::Completed).into();
        assert_eq!(
            apply(&mut task, wrong_task),
            Err(ReconstructError::TaskMismatch {
                expected: "t".into(),
                found: "u".into()
            })
        );
        let wrong_ctx: StreamResponse =
            TaskStatusUpdateEvent::new("t", "d", TaskState::Completed).into();
        assert!(matches!(
            apply(&mut task, wrong_ctx),
            Err(ReconstructError::ContextMismatch { .. })
        ));
        let unbound: StreamResponse = Message::agent_text("m", "hi").into();
        assert!(apply(&mut task, unbound).is_err());
        assert_eq!(task, before);
    }

    #[test]
    fn task_event_replaces_and_bound_message_is_history() {
        let mut snap = TaskSnapshot::new(Task::new("t", "c", TaskState::Submitted));
        snap.apply(chunk("a", "x", false, true)).unwrap();
        let mut fresh = Task::new("t", "c", TaskState::Working);
        fresh.artifacts.push(Artifact::text("a", "x"));
        assert_eq!(snap.apply(fresh.clone().into()).unwrap(), Applied::Replaced);
        assert_eq!(snap.task(), &fresh);
        assert!(snap.is_artifact_complete("a"));
        let m = Message::agent_text("m9", "note").for_task("t", "c");
        assert_eq!(
            snap.apply(m.into()).unwrap(),
            Applied::Message { appended: true }
        );
        assert_eq!(snap.into_task().history.len(), 1);
        assert!(TaskSnapshot::from_first_event(Message::agent_text("m", "x").into()).is_err());
    }
}
