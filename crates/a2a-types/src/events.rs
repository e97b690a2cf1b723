//! Streaming events (spec 4.2) and `StreamResponse` (spec 3.2.3), the
//! envelope of every streamed item and push notification (spec 4.3.3).

use serde::{Deserialize, Serialize};

use crate::message::{Artifact, Message};
use crate::protojson::{self, message_impls, oneof_message, Struct};
use crate::task::{Task, TaskStatus};

/// A change of a task's status (spec 4.2.1).
///
/// `taskId`, `contextId` and `status` are REQUIRED.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct TaskStatusUpdateEvent {
    /// The task that changed. REQUIRED.
    #[serde(default, alias = "task_id", deserialize_with = "protojson::string")]
    pub task_id: String,
    /// The task's context. REQUIRED.
    #[serde(default, alias = "context_id", deserialize_with = "protojson::string")]
    pub context_id: String,
    /// The new status. REQUIRED.
    #[serde(default, deserialize_with = "protojson::message")]
    pub status: TaskStatus,
    /// Metadata of the update.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
    /// 1.1 draft: the task's generation after this update (draft spec
    /// 3.2.7); 0 from a server that does not keep it.
    #[cfg(feature = "draft-1-1")]
    #[serde(
        default,
        deserialize_with = "protojson::int64",
        serialize_with = "protojson::serialize_int64",
        skip_serializing_if = "protojson::is_zero_i64"
    )]
    pub generation: i64,
}

impl TaskStatusUpdateEvent {
    /// A status update for a task.
    pub fn new(
        task_id: impl Into<String>,
        context_id: impl Into<String>,
        status: impl Into<TaskStatus>,
    ) -> TaskStatusUpdateEvent {
        TaskStatusUpdateEvent {
            task_id: task_id.into(),
            context_id: context_id.into(),
            status: status.into(),
            metadata: None,
            #[cfg(feature = "draft-1-1")]
            generation: 0,
        }
    }
}

/// An artifact generated or updated, possibly in chunks (spec 4.2.2).
///
/// `taskId`, `contextId` and `artifact` are REQUIRED.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct TaskArtifactUpdateEvent {
    /// The task of the artifact. REQUIRED.
    #[serde(default, alias = "task_id", deserialize_with = "protojson::string")]
    pub task_id: String,
    /// The task's context. REQUIRED.
    #[serde(default, alias = "context_id", deserialize_with = "protojson::string")]
    pub context_id: String,
    /// The artifact, or a chunk of it. REQUIRED.
    #[serde(default, deserialize_with = "protojson::message")]
    pub artifact: Artifact,
    /// When true, the parts extend the artifact with the same id sent
    /// before; when false, this artifact replaces it.
    #[serde(
        default,
        deserialize_with = "protojson::boolean",
        skip_serializing_if = "protojson::is_false"
    )]
    pub append: bool,
    /// When true, this is the artifact's last chunk.
    #[serde(
        default,
        alias = "last_chunk",
        deserialize_with = "protojson::boolean",
        skip_serializing_if = "protojson::is_false"
    )]
    pub last_chunk: bool,
    /// Metadata of the update.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
    /// 1.1 draft: the task's generation after this update (draft spec
    /// 3.2.7); 0 from a server that does not keep it.
    #[cfg(feature = "draft-1-1")]
    #[serde(
        default,
        deserialize_with = "protojson::int64",
        serialize_with = "protojson::serialize_int64",
        skip_serializing_if = "protojson::is_zero_i64"
    )]
    pub generation: i64,
}

impl TaskArtifactUpdateEvent {
    /// An artifact update carrying a whole artifact (neither `append` nor
    /// `lastChunk` set).
    pub fn new(
        task_id: impl Into<String>,
        context_id: impl Into<String>,
        artifact: Artifact,
    ) -> TaskArtifactUpdateEvent {
        TaskArtifactUpdateEvent {
            task_id: task_id.into(),
            context_id: context_id.into(),
            artifact,
            ..TaskArtifactUpdateEvent::default()
        }
    }

    /// The same event with `append` set as given.
    pub fn with_append(mut self, append: bool) -> TaskArtifactUpdateEvent {
        self.append = append;
        self
    }

    /// The same event with `lastChunk` set as given.
    pub fn with_last_chunk(mut self, last_chunk: bool) -> TaskArtifactUpdateEvent {
        self.last_chunk = last_chunk;
        self
    }
}

/// One item of a stream (spec 3.2.3) or one push notification body
/// (spec 4.3.3): exactly one of a task, a message, a status update or an
/// artifact update.
///
/// The proto's `payload` oneof is this enum. On input, an object with
/// none or several of `task`, `message`, `statusUpdate` and
/// `artifactUpdate` is a decode error.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamResponse {
    /// The task's current state (`task`).
    Task(Task),
    /// A message from the agent (`message`).
    Message(Message),
    /// A status update (`statusUpdate`).
    StatusUpdate(TaskStatusUpdateEvent),
    /// An artifact update (`artifactUpdate`).
    ArtifactUpdate(TaskArtifactUpdateEvent),
}

oneof_message!(
    StreamResponse,
    "a StreamResponse must have exactly one of `task`, `message`, `statusUpdate` or `artifactUpdate`",
    [
        Task(Task) = "task",
        Message(Message) = "message",
        StatusUpdate(TaskStatusUpdateEvent) = "statusUpdate" | "status_update",
        ArtifactUpdate(TaskArtifactUpdateEvent) = "artifactUpdate" | "artifact_update",
    ]
);

impl StreamResponse {
    /// The id of the task the item is about; `None` for a message that is
    /// not bound to a task.
    pub fn task_id(&self) -> Option<&str> {
        let id = match self {
            StreamResponse::Task(t) => &t.id,
            StreamResponse::Message(m) => &m.task_id,
            StreamResponse::StatusUpdate(e) => &e.task_id,
            StreamResponse::ArtifactUpdate(e) => &e.task_id,
        };
        (!id.is_empty()).then_some(id.as_str())
    }

    /// Whether this item ends a stream (spec 3.1.2): a message (a
    /// message-only stream carries exactly one) or a task or status in a
    /// terminal state.
    pub fn is_final(&self) -> bool {
        match self {
            StreamResponse::Task(t) => t.status.state.is_terminal(),
            StreamResponse::Message(_) => true,
            StreamResponse::StatusUpdate(e) => e.status.state.is_terminal(),
            StreamResponse::ArtifactUpdate(_) => false,
        }
    }
}

message_impls!(TaskStatusUpdateEvent, TaskArtifactUpdateEvent);
