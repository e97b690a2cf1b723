//! 0.3 `Task`, `TaskStatus`, `TaskState`, the stream events and the
//! results of `message/send` and `message/stream` (0.3 spec 6.1-6.3,
//! 7.1, 7.2).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::events::{StreamResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent};
use crate::message::{Artifact, Message, Part, Role};
use crate::protojson::{self, message_impls, Struct};
use crate::requests::SendMessageResponse;
use crate::task::{Task, TaskState, TaskStatus};
use crate::timestamp::Timestamp;
use crate::v0_3::message::{check_kind, WireMessage};
use crate::v0_3::{codec, sealed, via, Codec, Refusal};

/// The 0.3 spelling of every state (0.3 spec 6.3), as data.
/// `TASK_STATE_UNSPECIFIED` is 0.3's `unknown`.
const STATES: &[(TaskState, &str)] = &[
    (TaskState::Submitted, "submitted"),
    (TaskState::Working, "working"),
    (TaskState::InputRequired, "input-required"),
    (TaskState::Completed, "completed"),
    (TaskState::Canceled, "canceled"),
    (TaskState::Failed, "failed"),
    (TaskState::Rejected, "rejected"),
    (TaskState::AuthRequired, "auth-required"),
    (TaskState::Unspecified, "unknown"),
];

/// The 0.3 name of a state (`input-required`).
pub fn state_name(state: TaskState) -> &'static str {
    STATES
        .iter()
        .find(|(s, _)| *s == state)
        .map_or("unknown", |(_, name)| name)
}

/// The state a 0.3 name spells; `None` for anything else (1.0 names
/// included).
pub fn state_from_str(name: &str) -> Option<TaskState> {
    STATES.iter().find(|(_, n)| *n == name).map(|(s, _)| *s)
}

/// `state` in its 0.3 spelling; absent or `null` is unspecified, which
/// validation reports.
mod state {
    use serde::{de, Deserialize, Deserializer, Serializer};

    use crate::task::TaskState;

    pub(crate) fn serialize<S: Serializer>(v: &TaskState, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(super::state_name(*v))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TaskState, D::Error> {
        match Option::<String>::deserialize(d)? {
            Some(name) => super::state_from(&name).map_err(<D::Error as de::Error>::custom),
            None => Ok(TaskState::Unspecified),
        }
    }
}

fn state_from(name: &str) -> Result<TaskState, Refusal> {
    state_from_str(name).ok_or_else(|| {
        let names: Vec<&str> = STATES.iter().map(|(_, n)| *n).collect();
        format!(
            "unknown 0.3 task state {name:?}, expected one of {}",
            names.join(", ")
        )
    })
}

// ---------------------------------------------------------------------------
// TaskStatus

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireStatus {
    #[serde(default, with = "state")]
    state: TaskState,
    #[serde(default, with = "via::opt", skip_serializing_if = "Option::is_none")]
    message: Option<Message>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    timestamp: Option<Timestamp>,
}

impl TryFrom<&TaskStatus> for WireStatus {
    type Error = Refusal;

    fn try_from(s: &TaskStatus) -> Result<WireStatus, Refusal> {
        Ok(WireStatus {
            state: s.state,
            message: s.message.clone(),
            timestamp: s.timestamp,
        })
    }
}

impl TryFrom<WireStatus> for TaskStatus {
    type Error = Refusal;

    fn try_from(w: WireStatus) -> Result<TaskStatus, Refusal> {
        Ok(TaskStatus {
            state: w.state,
            message: w.message,
            timestamp: w.timestamp,
        })
    }
}

// ---------------------------------------------------------------------------
// Task

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireTask {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default, deserialize_with = "protojson::string")]
    id: String,
    #[serde(default, deserialize_with = "protojson::string")]
    context_id: String,
    #[serde(default, with = "via::one")]
    status: TaskStatus,
    #[serde(default, with = "via::list", skip_serializing_if = "Vec::is_empty")]
    artifacts: Vec<Artifact>,
    #[serde(default, with = "via::list", skip_serializing_if = "Vec::is_empty")]
    history: Vec<Message>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
}

impl TryFrom<&Task> for WireTask {
    type Error = Refusal;

    fn try_from(t: &Task) -> Result<WireTask, Refusal> {
        Ok(WireTask {
            kind: Some("task".to_owned()),
            id: t.id.clone(),
            context_id: t.context_id.clone(),
            status: t.status.clone(),
            artifacts: t.artifacts.clone(),
            history: t.history.clone(),
            metadata: t.metadata.clone(),
        })
    }
}

impl TryFrom<WireTask> for Task {
    type Error = Refusal;

    fn try_from(w: WireTask) -> Result<Task, Refusal> {
        check_kind(&w.kind, "task")?;
        Ok(Task {
            id: w.id,
            context_id: w.context_id,
            status: w.status,
            artifacts: w.artifacts,
            history: w.history,
            metadata: w.metadata,
            ..Default::default()
        })
    }
}

// ---------------------------------------------------------------------------
// Stream events

/// `final` of a 0.3 status update: 1.0 dropped the field, and a 1.0
/// stream ends after a terminal or interrupted state (spec 3.1.2), which
/// is what 0.3 clients read `final` as.
pub(crate) fn is_final(state: TaskState) -> bool {
    state.is_terminal() || state.is_interrupted()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireStatusUpdate {
    kind: &'static str,
    task_id: String,
    context_id: String,
    #[serde(with = "via::one")]
    status: TaskStatus,
    #[serde(rename = "final")]
    is_final: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireArtifactUpdate {
    kind: &'static str,
    task_id: String,
    context_id: String,
    #[serde(with = "via::one")]
    artifact: Artifact,
    #[serde(skip_serializing_if = "protojson::is_false")]
    append: bool,
    #[serde(skip_serializing_if = "protojson::is_false")]
    last_chunk: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
}

fn status_update(e: &TaskStatusUpdateEvent) -> Result<WireStatusUpdate, Refusal> {
    Ok(WireStatusUpdate {
        kind: "status-update",
        task_id: e.task_id.clone(),
        context_id: e.context_id.clone(),
        status: e.status.clone(),
        is_final: is_final(e.status.state),
        metadata: e.metadata.clone(),
    })
}

fn artifact_update(e: &TaskArtifactUpdateEvent) -> Result<WireArtifactUpdate, Refusal> {
    Ok(WireArtifactUpdate {
        kind: "artifact-update",
        task_id: e.task_id.clone(),
        context_id: e.context_id.clone(),
        artifact: e.artifact.clone(),
        append: e.append,
        last_chunk: e.last_chunk,
        metadata: e.metadata.clone(),
    })
}

/// Every member any of the four 0.3 results may have (`Task`, `Message`,
/// `TaskStatusUpdateEvent`, `TaskArtifactUpdateEvent`), read in one pass
/// and sorted out by `kind`; members of another kind are ignored, as
/// unknown members are.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireResult {
    #[serde(default)]
    kind: Option<String>,
    // Task
    #[serde(default, deserialize_with = "protojson::string")]
    id: String,
    #[serde(default, with = "via::opt")]
    status: Option<TaskStatus>,
    #[serde(default, with = "via::list")]
    artifacts: Vec<Artifact>,
    #[serde(default, with = "via::list")]
    history: Vec<Message>,
    // Message
    #[serde(default, deserialize_with = "protojson::string")]
    message_id: String,
    #[serde(default, with = "crate::v0_3::message::role")]
    role: Role,
    #[serde(default, with = "via::list")]
    parts: Vec<Part>,
    #[serde(default, deserialize_with = "protojson::repeated")]
    extensions: Vec<String>,
    #[serde(default, deserialize_with = "protojson::repeated")]
    reference_task_ids: Vec<String>,
    // Events
    #[serde(default, deserialize_with = "protojson::string")]
    task_id: String,
    #[serde(default, with = "via::opt")]
    artifact: Option<Artifact>,
    #[serde(default, deserialize_with = "protojson::boolean")]
    append: bool,
    #[serde(default, deserialize_with = "protojson::boolean")]
    last_chunk: bool,
    #[serde(default, rename = "final", deserialize_with = "protojson::boolean")]
    _final: bool,
    // Shared
    #[serde(default, deserialize_with = "protojson::string")]
    context_id: String,
    #[serde(default)]
    metadata: Option<Struct>,
}

impl<'de> Deserialize<'de> for WireResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<WireResult, D::Error> {
        WireResult::deserialize(protojson::ObjectOnly(d))
    }
}

impl WireResult {
    fn into_stream_response(self) -> Result<StreamResponse, Refusal> {
        let missing_status = || "`status` is missing".to_owned();
        match self.kind.as_deref() {
            Some("task") => Ok(StreamResponse::Task(Task::try_from(WireTask {
                kind: self.kind,
                id: self.id,
                context_id: self.context_id,
                status: self.status.ok_or_else(missing_status)?,
                artifacts: self.artifacts,
                history: self.history,
                metadata: self.metadata,
            })?)),
            Some("message") => Ok(StreamResponse::Message(Message::try_from(WireMessage {
                kind: self.kind,
                message_id: self.message_id,
                context_id: self.context_id,
                task_id: self.task_id,
                role: self.role,
                parts: self.parts,
                metadata: self.metadata,
                extensions: self.extensions,
                reference_task_ids: self.reference_task_ids,
            })?)),
            Some("status-update") => Ok(StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
                task_id: self.task_id,
                context_id: self.context_id,
                status: self.status.ok_or_else(missing_status)?,
                metadata: self.metadata,
                ..Default::default()
            })),
            Some("artifact-update") => {
                Ok(StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent {
                    task_id: self.task_id,
                    context_id: self.context_id,
                    artifact: self.artifact.ok_or("`artifact` is missing")?,
                    append: self.append,
                    last_chunk: self.last_chunk,
                    metadata: self.metadata,
                    ..Default::default()
                }))
            }
            Some(other) => Err(format!(
                "unknown result `kind` {other:?}, expected \"task\", \"message\", \
                 \"status-update\" or \"artifact-update\""
            )),
            None => Err(
                "a 0.3 result needs `kind` (\"task\", \"message\", \"status-update\" or \
                 \"artifact-update\")"
                    .to_owned(),
            ),
        }
    }
}

impl sealed::Sealed for StreamResponse {}

impl Codec for StreamResponse {
    fn serialize_v0_3<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        match self {
            StreamResponse::Task(t) => t.serialize_v0_3(s),
            StreamResponse::Message(m) => m.serialize_v0_3(s),
            StreamResponse::StatusUpdate(e) => {
                status_update(e).map_err(S::Error::custom)?.serialize(s)
            }
            StreamResponse::ArtifactUpdate(e) => {
                artifact_update(e).map_err(S::Error::custom)?.serialize(s)
            }
        }
    }

    fn deserialize_v0_3<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        WireResult::deserialize(d)?
            .into_stream_response()
            .map_err(D::Error::custom)
    }
}

impl sealed::Sealed for SendMessageResponse {}

impl Codec for SendMessageResponse {
    fn serialize_v0_3<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SendMessageResponse::Task(t) => t.serialize_v0_3(s),
            SendMessageResponse::Message(m) => m.serialize_v0_3(s),
        }
    }

    fn deserialize_v0_3<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match WireResult::deserialize(d)?
            .into_stream_response()
            .map_err(D::Error::custom)?
        {
            StreamResponse::Task(t) => Ok(SendMessageResponse::Task(t)),
            StreamResponse::Message(m) => Ok(SendMessageResponse::Message(m)),
            _ => Err(D::Error::custom(
                "a message/send result is a task or a message, not a stream event",
            )),
        }
    }
}

impl sealed::Sealed for TaskStatusUpdateEvent {}
impl Codec for TaskStatusUpdateEvent {
    fn serialize_v0_3<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        status_update(self).map_err(S::Error::custom)?.serialize(s)
    }

    fn deserialize_v0_3<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match StreamResponse::deserialize_v0_3(d)? {
            StreamResponse::StatusUpdate(e) => Ok(e),
            _ => Err(D::Error::custom("expected a `status-update`")),
        }
    }
}

impl sealed::Sealed for TaskArtifactUpdateEvent {}
impl Codec for TaskArtifactUpdateEvent {
    fn serialize_v0_3<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        artifact_update(self)
            .map_err(S::Error::custom)?
            .serialize(s)
    }

    fn deserialize_v0_3<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match StreamResponse::deserialize_v0_3(d)? {
            StreamResponse::ArtifactUpdate(e) => Ok(e),
            _ => Err(D::Error::custom("expected an `artifact-update`")),
        }
    }
}

message_impls!(WireStatus, WireTask);

codec!(Task => WireTask, TaskStatus => WireStatus);
