//! The 0.3 proto's messages as typed wire structs, read and written in
//! their ProtoJSON form (0.3 spec 3.2.3, 3.5.6; proto3 JSON mapping).
//!
//! Each wire struct is the 0.3 proto message; a model value is converted
//! to it to be written and from it when read, as the JSON-RPC codec does
//! with its own wire structs (`v0_3::message`, `v0_3::task`). Nested
//! model values are held as they are and go through [`via`], so that a
//! decode error names its own JSON path (`message.content[1].file`).
//!
//! Input is ProtoJSON-lenient, as a proto3 JSON parser is: every field
//! under its JSON name or its original proto name (`message_id`,
//! `push_notification_config`), `null` for an absent field, an empty
//! object for a sub-message left at its default (`authentication: {}`).
//! Output writes only the 0.3 proto's fields, under their JSON names,
//! members in the order of their names: the bytes this codec has written
//! since it existed (`tests/v0_3_rest/`), which the strict 0.3 Python
//! client parses.

use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::events::{StreamResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent};
use crate::message::{Artifact, Message, Part, PartContent, Role};
use crate::protojson::{self, message_impls, oneof_message, ProtoEnum, Struct};
use crate::push::{AuthenticationInfo, TaskPushNotificationConfig};
use crate::requests::{SendMessageConfiguration, SendMessageRequest, SendMessageResponse};
use crate::task::{Task, TaskState, TaskStatus};
use crate::timestamp::Timestamp;
use crate::v0_3::Refusal;

// ---------------------------------------------------------------------------
// The model <-> wire seam.

/// A model type with a 0.3 HTTP+JSON form: the REST counterpart of
/// [`Codec`](crate::v0_3::Codec), kept apart because the two 0.3 wires
/// spell the same value differently (`kind`-tagged JSON for JSON-RPC, the
/// 0.3 proto's ProtoJSON here).
pub(super) trait RestCodec: Sized {
    /// Writes `self` as its 0.3 proto message.
    fn serialize_rest<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;

    /// Reads the 0.3 proto message into the model.
    fn deserialize_rest<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// A model value in its 0.3 HTTP+JSON form inside a serde document.
pub(super) struct Rest<T>(pub(super) T);

impl<T: RestCodec> Serialize for Rest<&T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_rest(s)
    }
}

impl<'de, T: RestCodec> Deserialize<'de> for Rest<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rest<T>, D::Error> {
        T::deserialize_rest(d).map(Rest)
    }
}

/// Implements [`RestCodec`] for a model type through its wire struct:
/// `TryFrom<&Model>` for the wire struct, `TryFrom<Wire>` for the model.
macro_rules! rest_codec {
    ($($model:ty => $wire:ty),+ $(,)?) => {
        $(
            impl super::wire::RestCodec for $model {
                fn serialize_rest<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let wire = <$wire>::try_from(self)
                        .map_err(<S::Error as ::serde::ser::Error>::custom)?;
                    ::serde::Serialize::serialize(&wire, s)
                }

                fn deserialize_rest<'de, D: ::serde::Deserializer<'de>>(
                    d: D,
                ) -> Result<Self, D::Error> {
                    let wire = <$wire as ::serde::Deserialize>::deserialize(d)?;
                    <$model>::try_from(wire).map_err(<D::Error as ::serde::de::Error>::custom)
                }
            }
        )+
    };
}
pub(super) use rest_codec;

/// `#[serde(with = ...)]` adapters: a model value held in a wire struct,
/// written and read in its 0.3 HTTP+JSON form where it lies.
pub(super) mod via {
    /// A sub-message held by value; `null` reads as its default.
    pub(crate) mod message {
        use super::super::{Rest, RestCodec};
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        pub(crate) fn serialize<S: Serializer, T: RestCodec>(
            v: &T,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            Rest(v).serialize(s)
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: RestCodec + Default>(
            d: D,
        ) -> Result<T, D::Error> {
            Ok(Option::<Rest<T>>::deserialize(d)?
                .map(|v| v.0)
                .unwrap_or_default())
        }
    }

    /// An optional sub-message; `null` reads as absent.
    pub(crate) mod opt {
        use super::super::{Rest, RestCodec};
        use serde::{Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer, T: RestCodec>(
            v: &Option<T>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match v {
                Some(v) => s.serialize_some(&Rest(v)),
                None => s.serialize_none(),
            }
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: RestCodec>(
            d: D,
        ) -> Result<Option<T>, D::Error> {
            Ok(Option::<Rest<T>>::deserialize(d)?.map(|v| v.0))
        }
    }

    /// A `repeated` message field; `null` reads as empty.
    pub(crate) mod list {
        use super::super::{Rest, RestCodec};
        use crate::protojson;
        use serde::{Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer, T: RestCodec>(
            v: &[T],
            s: S,
        ) -> Result<S::Ok, S::Error> {
            s.collect_seq(v.iter().map(Rest))
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: RestCodec>(
            d: D,
        ) -> Result<Vec<T>, D::Error> {
            let list: Vec<Rest<T>> = protojson::repeated(d)?;
            Ok(list.into_iter().map(|v| v.0).collect())
        }
    }
}

// ---------------------------------------------------------------------------
// TaskState: the 0.3 proto spells one state differently.

/// A task state as the 0.3 proto names it: `TASK_STATE_CANCELLED` where
/// 1.0 writes `TASK_STATE_CANCELED`; the numbers are the same. Input also
/// takes 1.0's spelling, and the number, as any proto enum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct RestState(pub(super) TaskState);

/// The 0.3 proto's name of `TASK_STATE_CANCELED`.
const CANCELLED: &str = "TASK_STATE_CANCELLED";

const REST_STATES: [RestState; 9] = [
    RestState(TaskState::Unspecified),
    RestState(TaskState::Submitted),
    RestState(TaskState::Working),
    RestState(TaskState::Completed),
    RestState(TaskState::Failed),
    RestState(TaskState::Canceled),
    RestState(TaskState::InputRequired),
    RestState(TaskState::Rejected),
    RestState(TaskState::AuthRequired),
];

impl ProtoEnum for RestState {
    const TYPE_NAME: &'static str = "TaskState";
    const VALUES: &'static [RestState] = &REST_STATES;

    fn proto_name(self) -> &'static str {
        match self.0 {
            TaskState::Canceled => CANCELLED,
            other => other.as_str_name(),
        }
    }

    fn from_proto_name(name: &str) -> Option<RestState> {
        if name == CANCELLED {
            return Some(RestState(TaskState::Canceled));
        }
        TaskState::from_str_name(name).map(RestState)
    }

    fn from_proto_number(number: i32) -> Option<RestState> {
        TaskState::from_number(number).map(RestState)
    }
}

impl Serialize for RestState {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.proto_name())
    }
}

impl<'de> Deserialize<'de> for RestState {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RestState, D::Error> {
        protojson::deserialize_enum(d)
    }
}

// ---------------------------------------------------------------------------
// Message, Part, Artifact (0.3 proto `Message`, `Part`, `FilePart`,
// `DataPart`, `Artifact`).

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestMessage {
    #[serde(default, with = "via::list")]
    content: Vec<Part>,
    #[serde(
        default,
        alias = "context_id",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    context_id: String,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    extensions: Vec<String>,
    #[serde(default, alias = "message_id", deserialize_with = "protojson::string")]
    message_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
    #[serde(default)]
    role: Role,
    #[serde(
        default,
        alias = "task_id",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    task_id: String,
}

impl TryFrom<&Message> for RestMessage {
    type Error = Refusal;

    /// `referenceTaskIds` has no place in the 0.3 proto: dropped.
    fn try_from(m: &Message) -> Result<RestMessage, Refusal> {
        Ok(RestMessage {
            content: m.parts.clone(),
            context_id: m.context_id.clone(),
            extensions: m.extensions.clone(),
            message_id: m.message_id.clone(),
            metadata: m.metadata.clone(),
            role: m.role,
            task_id: m.task_id.clone(),
        })
    }
}

impl TryFrom<RestMessage> for Message {
    type Error = Refusal;

    fn try_from(w: RestMessage) -> Result<Message, Refusal> {
        Ok(Message {
            message_id: w.message_id,
            context_id: w.context_id,
            task_id: w.task_id,
            role: w.role,
            parts: w.content,
            metadata: w.metadata,
            extensions: w.extensions,
            reference_task_ids: Vec::new(),
        })
    }
}

/// A part: one of `text`, `file` and `data` (the 0.3 proto's oneof),
/// read member by member and judged after.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestPart {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<RestData>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<RestFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
}

/// `FilePart`: `fileWithBytes` or `fileWithUri`, with its media type and
/// name.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestFile {
    #[serde(
        default,
        alias = "file_with_bytes",
        skip_serializing_if = "Option::is_none"
    )]
    file_with_bytes: Option<Bytes>,
    #[serde(
        default,
        alias = "file_with_uri",
        skip_serializing_if = "Option::is_none"
    )]
    file_with_uri: Option<String>,
    #[serde(
        default,
        alias = "mime_type",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    mime_type: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    name: String,
}

/// `DataPart`: `{"data": Struct}`. An absent `data` is the empty struct.
///
/// The payload is the model's own (`PartContent::Data` holds a
/// `serde_json::Value`, the proto's `google.protobuf.Value`), read as it
/// is; no message is read through it. Like the JSON-RPC form's reader,
/// this one takes any JSON value, not only an object.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestData {
    #[serde(default = "empty_struct")]
    data: serde_json::Value,
}

fn empty_struct() -> serde_json::Value {
    serde_json::Value::Object(Struct::new())
}

/// A proto `bytes` field: standard base64 with padding out, any base64
/// in (ProtoJSON).
pub(super) struct Bytes(Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        protojson::serialize_bytes(&self.0, s)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
        protojson::Base64Bytes::deserialize(d).map(|b| Bytes(b.0))
    }
}

const PART_ONEOF: &str = "a 0.3 Part must have exactly one of `text`, `file` or `data`";

impl TryFrom<&Part> for RestPart {
    type Error = Refusal;

    /// A file part carries the name and media type; 0.3's text and data
    /// parts have no place for them. Data that is not a JSON object is
    /// wrapped as `{"value": v}`, as in the JSON-RPC form.
    fn try_from(p: &Part) -> Result<RestPart, Refusal> {
        let mut out = RestPart {
            data: None,
            file: None,
            metadata: p.metadata.clone(),
            text: None,
        };
        let file = |bytes: Option<Bytes>, uri: Option<String>| RestFile {
            file_with_bytes: bytes,
            file_with_uri: uri,
            mime_type: p.media_type.clone(),
            name: p.filename.clone(),
        };
        match &p.content {
            PartContent::Text(t) => out.text = Some(t.clone()),
            PartContent::Raw(b) => out.file = Some(file(Some(Bytes(b.clone())), None)),
            PartContent::Url(u) => out.file = Some(file(None, Some(u.clone()))),
            PartContent::Data(v) => {
                let data = match v {
                    serde_json::Value::Object(_) => v.clone(),
                    other => {
                        let mut wrapped = Struct::new();
                        wrapped
                            .insert(crate::v0_3::message::DATA_WRAPPER.to_owned(), other.clone());
                        serde_json::Value::Object(wrapped)
                    }
                };
                out.data = Some(RestData { data });
            }
        }
        Ok(out)
    }
}

impl TryFrom<RestPart> for Part {
    type Error = Refusal;

    fn try_from(w: RestPart) -> Result<Part, Refusal> {
        let members = usize::from(w.text.is_some())
            + usize::from(w.file.is_some())
            + usize::from(w.data.is_some());
        if members > 1 {
            let present: Vec<&str> = [
                ("text", w.text.is_some()),
                ("file", w.file.is_some()),
                ("data", w.data.is_some()),
            ]
            .iter()
            .filter(|(_, here)| *here)
            .map(|(name, _)| *name)
            .collect();
            return Err(protojson::several_members(
                PART_ONEOF,
                present.first().copied().unwrap_or_default(),
                present.get(1).copied().unwrap_or_default(),
            ));
        }
        let mut part =
            if let Some(text) = w.text {
                Part::text(text)
            } else if let Some(file) = w.file {
                let part =
                    match (file.file_with_bytes, file.file_with_uri) {
                        (Some(b), None) => Part::raw(b.0),
                        (None, Some(u)) => Part::url(u),
                        (Some(_), Some(_)) => return Err(protojson::several_members(
                            "a 0.3 file must have exactly one of `fileWithBytes` or `fileWithUri`",
                            "fileWithBytes",
                            "fileWithUri",
                        )),
                        (None, None) => return Err(protojson::no_member(
                            "a 0.3 file must have exactly one of `fileWithBytes` or `fileWithUri`",
                        )),
                    };
                part.with_media_type(file.mime_type)
                    .with_filename(file.name)
            } else if let Some(data) = w.data {
                Part::data(data.data)
            } else {
                return Err(protojson::no_member(PART_ONEOF));
            };
        part.metadata = w.metadata;
        Ok(part)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestArtifact {
    #[serde(default, alias = "artifact_id", deserialize_with = "protojson::string")]
    artifact_id: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    description: String,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    extensions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    name: String,
    #[serde(default, with = "via::list")]
    parts: Vec<Part>,
}

impl TryFrom<&Artifact> for RestArtifact {
    type Error = Refusal;

    fn try_from(a: &Artifact) -> Result<RestArtifact, Refusal> {
        Ok(RestArtifact {
            artifact_id: a.artifact_id.clone(),
            description: a.description.clone(),
            extensions: a.extensions.clone(),
            metadata: a.metadata.clone(),
            name: a.name.clone(),
            parts: a.parts.clone(),
        })
    }
}

impl TryFrom<RestArtifact> for Artifact {
    type Error = Refusal;

    fn try_from(w: RestArtifact) -> Result<Artifact, Refusal> {
        Ok(Artifact {
            artifact_id: w.artifact_id,
            name: w.name,
            description: w.description,
            parts: w.parts,
            metadata: w.metadata,
            extensions: w.extensions,
            ..Default::default()
        })
    }
}

// ---------------------------------------------------------------------------
// Task, TaskStatus and the stream events.

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestStatus {
    /// The proto field is `update`, its JSON name `message`.
    #[serde(
        default,
        alias = "update",
        with = "via::opt",
        skip_serializing_if = "Option::is_none"
    )]
    message: Option<Message>,
    #[serde(default)]
    state: RestState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    timestamp: Option<Timestamp>,
}

impl TryFrom<&TaskStatus> for RestStatus {
    type Error = Refusal;

    fn try_from(s: &TaskStatus) -> Result<RestStatus, Refusal> {
        Ok(RestStatus {
            message: s.message.clone(),
            state: RestState(s.state),
            timestamp: s.timestamp,
        })
    }
}

impl TryFrom<RestStatus> for TaskStatus {
    type Error = Refusal;

    fn try_from(w: RestStatus) -> Result<TaskStatus, Refusal> {
        Ok(TaskStatus {
            state: w.state.0,
            message: w.message,
            timestamp: w.timestamp,
        })
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestTask {
    #[serde(default, with = "via::list", skip_serializing_if = "Vec::is_empty")]
    artifacts: Vec<Artifact>,
    #[serde(
        default,
        alias = "context_id",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    context_id: String,
    #[serde(default, with = "via::list", skip_serializing_if = "Vec::is_empty")]
    history: Vec<Message>,
    #[serde(default, deserialize_with = "protojson::string")]
    id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
    #[serde(default, with = "via::message")]
    status: TaskStatus,
}

impl TryFrom<&Task> for RestTask {
    type Error = Refusal;

    fn try_from(t: &Task) -> Result<RestTask, Refusal> {
        Ok(RestTask {
            artifacts: t.artifacts.clone(),
            context_id: t.context_id.clone(),
            history: t.history.clone(),
            id: t.id.clone(),
            metadata: t.metadata.clone(),
            status: t.status.clone(),
        })
    }
}

impl TryFrom<RestTask> for Task {
    type Error = Refusal;

    fn try_from(w: RestTask) -> Result<Task, Refusal> {
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

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestStatusUpdate {
    #[serde(default, alias = "context_id", deserialize_with = "protojson::string")]
    context_id: String,
    /// Written true where a 1.0 stream ends (terminal or interrupted
    /// state); read and dropped, since 1.0 ends the stream instead.
    #[serde(
        default,
        rename = "final",
        deserialize_with = "protojson::boolean",
        skip_serializing_if = "protojson::is_false"
    )]
    is_final: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
    #[serde(default, with = "via::message")]
    status: TaskStatus,
    #[serde(default, alias = "task_id", deserialize_with = "protojson::string")]
    task_id: String,
}

impl TryFrom<&TaskStatusUpdateEvent> for RestStatusUpdate {
    type Error = Refusal;

    fn try_from(e: &TaskStatusUpdateEvent) -> Result<RestStatusUpdate, Refusal> {
        Ok(RestStatusUpdate {
            context_id: e.context_id.clone(),
            is_final: crate::v0_3::task::is_final(e.status.state),
            metadata: e.metadata.clone(),
            status: e.status.clone(),
            task_id: e.task_id.clone(),
        })
    }
}

impl TryFrom<RestStatusUpdate> for TaskStatusUpdateEvent {
    type Error = Refusal;

    fn try_from(w: RestStatusUpdate) -> Result<TaskStatusUpdateEvent, Refusal> {
        Ok(TaskStatusUpdateEvent {
            task_id: w.task_id,
            context_id: w.context_id,
            status: w.status,
            metadata: w.metadata,
            ..Default::default()
        })
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestArtifactUpdate {
    #[serde(
        default,
        deserialize_with = "protojson::boolean",
        skip_serializing_if = "protojson::is_false"
    )]
    append: bool,
    #[serde(default, with = "via::message")]
    artifact: Artifact,
    #[serde(default, alias = "context_id", deserialize_with = "protojson::string")]
    context_id: String,
    #[serde(
        default,
        alias = "last_chunk",
        deserialize_with = "protojson::boolean",
        skip_serializing_if = "protojson::is_false"
    )]
    last_chunk: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
    #[serde(default, alias = "task_id", deserialize_with = "protojson::string")]
    task_id: String,
}

impl TryFrom<&TaskArtifactUpdateEvent> for RestArtifactUpdate {
    type Error = Refusal;

    fn try_from(e: &TaskArtifactUpdateEvent) -> Result<RestArtifactUpdate, Refusal> {
        Ok(RestArtifactUpdate {
            append: e.append,
            artifact: e.artifact.clone(),
            context_id: e.context_id.clone(),
            last_chunk: e.last_chunk,
            metadata: e.metadata.clone(),
            task_id: e.task_id.clone(),
        })
    }
}

impl TryFrom<RestArtifactUpdate> for TaskArtifactUpdateEvent {
    type Error = Refusal;

    fn try_from(w: RestArtifactUpdate) -> Result<TaskArtifactUpdateEvent, Refusal> {
        Ok(TaskArtifactUpdateEvent {
            task_id: w.task_id,
            context_id: w.context_id,
            artifact: w.artifact,
            append: w.append,
            last_chunk: w.last_chunk,
            metadata: w.metadata,
            ..Default::default()
        })
    }
}

/// The 0.3 proto's `StreamResponse` oneof (`msg` has the JSON name
/// `message`).
pub(super) enum RestStream {
    Task(RestTask),
    Message(RestMessage),
    StatusUpdate(RestStatusUpdate),
    ArtifactUpdate(RestArtifactUpdate),
}

oneof_message!(
    RestStream,
    "a 0.3 StreamResponse must have exactly one of `task`, `message`, `statusUpdate` or \
     `artifactUpdate`",
    [
        Task(RestTask) = "task",
        Message(RestMessage) = "message" | "msg",
        StatusUpdate(RestStatusUpdate) = "statusUpdate" | "status_update",
        ArtifactUpdate(RestArtifactUpdate) = "artifactUpdate" | "artifact_update",
    ]
);

impl TryFrom<&StreamResponse> for RestStream {
    type Error = Refusal;

    fn try_from(e: &StreamResponse) -> Result<RestStream, Refusal> {
        Ok(match e {
            StreamResponse::Task(t) => RestStream::Task(t.try_into()?),
            StreamResponse::Message(m) => RestStream::Message(m.try_into()?),
            StreamResponse::StatusUpdate(u) => RestStream::StatusUpdate(u.try_into()?),
            StreamResponse::ArtifactUpdate(u) => RestStream::ArtifactUpdate(u.try_into()?),
        })
    }
}

impl TryFrom<RestStream> for StreamResponse {
    type Error = Refusal;

    fn try_from(w: RestStream) -> Result<StreamResponse, Refusal> {
        Ok(match w {
            RestStream::Task(t) => StreamResponse::Task(t.try_into()?),
            RestStream::Message(m) => StreamResponse::Message(m.try_into()?),
            RestStream::StatusUpdate(u) => StreamResponse::StatusUpdate(u.try_into()?),
            RestStream::ArtifactUpdate(u) => StreamResponse::ArtifactUpdate(u.try_into()?),
        })
    }
}

/// The 0.3 proto's `SendMessageResponse` oneof.
pub(super) enum RestSendResponse {
    Task(RestTask),
    Message(RestMessage),
}

oneof_message!(
    RestSendResponse,
    "a 0.3 SendMessageResponse must have exactly one of `task` or `message`",
    [
        Task(RestTask) = "task",
        Message(RestMessage) = "message" | "msg",
    ]
);

impl TryFrom<&SendMessageResponse> for RestSendResponse {
    type Error = Refusal;

    fn try_from(r: &SendMessageResponse) -> Result<RestSendResponse, Refusal> {
        Ok(match r {
            SendMessageResponse::Task(t) => RestSendResponse::Task(t.try_into()?),
            SendMessageResponse::Message(m) => RestSendResponse::Message(m.try_into()?),
        })
    }
}

impl TryFrom<RestSendResponse> for SendMessageResponse {
    type Error = Refusal;

    fn try_from(w: RestSendResponse) -> Result<SendMessageResponse, Refusal> {
        Ok(match w {
            RestSendResponse::Task(t) => SendMessageResponse::Task(t.try_into()?),
            RestSendResponse::Message(m) => SendMessageResponse::Message(m.try_into()?),
        })
    }
}

// ---------------------------------------------------------------------------
// Push notification configurations (0.3 proto `PushNotificationConfig`,
// `AuthenticationInfo`, `TaskPushNotificationConfig`).

/// `PushNotificationConfig`: the webhook without its task.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestPushConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    authentication: Option<RestAuth>,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    id: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    token: String,
    #[serde(default, deserialize_with = "protojson::string")]
    url: String,
}

/// `AuthenticationInfo`: a list of schemes where 1.0 has one.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestAuth {
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    credentials: String,
    #[serde(default, deserialize_with = "protojson::repeated")]
    schemes: Vec<String>,
}

impl RestPushConfig {
    /// The 0.3 form of a 1.0 configuration; its task goes in the name.
    pub(super) fn from_model(c: &TaskPushNotificationConfig) -> RestPushConfig {
        RestPushConfig {
            authentication: c.authentication.as_ref().map(|a| RestAuth {
                credentials: a.credentials.clone(),
                schemes: vec![a.scheme.clone()],
            }),
            id: c.id.clone(),
            token: c.token.clone(),
            url: c.url.clone(),
        }
    }

    /// The 1.0 configuration of `task_id` (when known) and, when this one
    /// names none, the id `fallback_id`. The first of 0.3's schemes is
    /// kept; an `authentication` holding only defaults (`{}`) is the
    /// proto3 default message: no authentication.
    pub(super) fn into_model(
        self,
        task_id: Option<String>,
        fallback_id: Option<String>,
    ) -> TaskPushNotificationConfig {
        let authentication = self
            .authentication
            .filter(|a| !(a.schemes.iter().all(String::is_empty) && a.credentials.is_empty()))
            .map(|a| AuthenticationInfo {
                scheme: a.schemes.into_iter().next().unwrap_or_default(),
                credentials: a.credentials,
            });
        let id = match fallback_id {
            Some(fallback) if self.id.is_empty() => fallback,
            _ => self.id,
        };
        TaskPushNotificationConfig {
            id,
            task_id: task_id.unwrap_or_default(),
            url: self.url,
            token: self.token,
            authentication,
            ..Default::default()
        }
    }
}

/// `tasks/{task}` or `tasks/{task}/pushNotificationConfigs/{id}`: the
/// task id (and config id); nothing for any other name.
pub(super) fn resource_ids(name: &str) -> (Option<String>, Option<String>) {
    let mut segs = name.split('/');
    match (segs.next(), segs.next(), segs.next(), segs.next()) {
        (Some("tasks"), Some(task), None, _) => (Some(task.to_owned()), None),
        (Some("tasks"), Some(task), Some("pushNotificationConfigs"), Some(id)) => {
            (Some(task.to_owned()), Some(id.to_owned()))
        }
        _ => (None, None),
    }
}

/// `tasks/{task}/pushNotificationConfigs/{id}`.
fn config_name(c: &TaskPushNotificationConfig) -> String {
    format!("tasks/{}/pushNotificationConfigs/{}", c.task_id, c.id)
}

/// `TaskPushNotificationConfig`: `{name, pushNotificationConfig}`, the
/// form the JavaScript client sends too. Input also takes the JSON-RPC
/// form's `taskId` (`{taskId, pushNotificationConfig}`, 0.3 spec 6.10).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestTaskPushConfig {
    #[serde(default, deserialize_with = "protojson::string")]
    name: String,
    #[serde(
        default,
        alias = "push_notification_config",
        skip_serializing_if = "Option::is_none"
    )]
    push_notification_config: Option<RestPushConfig>,
    #[serde(
        default,
        alias = "task_id",
        deserialize_with = "protojson::string",
        skip_serializing
    )]
    task_id: String,
}

impl RestTaskPushConfig {
    /// The 1.0 configuration: the task from the name (else `taskId`, else
    /// `outer_task`), the id from the configuration (else `outer_id`, else
    /// the name). Without a `pushNotificationConfig` there is nothing to
    /// read: the empty configuration, which validation refuses.
    pub(super) fn into_model(
        self,
        outer_task: Option<String>,
        outer_id: Option<String>,
    ) -> TaskPushNotificationConfig {
        let (named_task, named_id) = resource_ids(&self.name);
        let task = named_task.or_else(|| Some(self.task_id).filter(|t| !t.is_empty()));
        match self.push_notification_config {
            Some(config) => config.into_model(outer_task.or(task), outer_id.or(named_id)),
            None => TaskPushNotificationConfig::default(),
        }
    }
}

impl TryFrom<&TaskPushNotificationConfig> for RestTaskPushConfig {
    type Error = Refusal;

    fn try_from(c: &TaskPushNotificationConfig) -> Result<RestTaskPushConfig, Refusal> {
        Ok(RestTaskPushConfig {
            name: config_name(c),
            push_notification_config: Some(RestPushConfig::from_model(c)),
            task_id: String::new(),
        })
    }
}

impl TryFrom<RestTaskPushConfig> for TaskPushNotificationConfig {
    type Error = Refusal;

    fn try_from(w: RestTaskPushConfig) -> Result<TaskPushNotificationConfig, Refusal> {
        Ok(w.into_model(None, None))
    }
}

/// `CreateTaskPushNotificationConfigRequest` as the Python client sends
/// it: `{parent, configId, config}`. The JavaScript and JSON-RPC forms
/// (the configuration itself, not wrapped) are read by the same struct:
/// their members sit beside `config`'s, which is absent.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestCreatePushIn {
    #[serde(default)]
    config: Option<RestTaskPushConfig>,
    #[serde(default, alias = "config_id", deserialize_with = "protojson::string")]
    config_id: String,
    #[serde(default, deserialize_with = "protojson::string")]
    parent: String,
    #[serde(default, deserialize_with = "protojson::string")]
    name: String,
    #[serde(default, alias = "push_notification_config")]
    push_notification_config: Option<RestPushConfig>,
    #[serde(default, alias = "task_id", deserialize_with = "protojson::string")]
    task_id: String,
}

impl<'de> Deserialize<'de> for RestCreatePushIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RestCreatePushIn, D::Error> {
        RestCreatePushIn::deserialize(protojson::ObjectOnly(d))
    }
}

impl From<RestCreatePushIn> for TaskPushNotificationConfig {
    fn from(w: RestCreatePushIn) -> TaskPushNotificationConfig {
        match w.config {
            Some(config) => config.into_model(
                resource_ids(&w.parent).0,
                Some(w.config_id).filter(|id| !id.is_empty()),
            ),
            None => RestTaskPushConfig {
                name: w.name,
                push_notification_config: w.push_notification_config,
                task_id: w.task_id,
            }
            .into_model(None, None),
        }
    }
}

/// What the client sends: `{config, configId, parent}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct RestCreatePushOut {
    config: RestTaskPushConfig,
    config_id: String,
    parent: String,
}

impl RestCreatePushOut {
    pub(super) fn from_model(c: &TaskPushNotificationConfig) -> RestCreatePushOut {
        RestCreatePushOut {
            config: RestTaskPushConfig {
                name: config_name(c),
                push_notification_config: Some(RestPushConfig::from_model(c)),
                task_id: String::new(),
            },
            config_id: c.id.clone(),
            parent: format!("tasks/{}", c.task_id),
        }
    }
}

/// `ListTaskPushNotificationConfigResponse` out: `{configs}` (0.3 does
/// not page).
#[derive(Serialize)]
pub(super) struct RestPushListOut {
    pub(super) configs: Vec<RestTaskPushConfig>,
}

/// The list in: `{configs}`, or a bare list as some servers answer.
pub(super) struct RestPushListIn(pub(super) Vec<TaskPushNotificationConfig>);

impl<'de> Deserialize<'de> for RestPushListIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RestPushListIn, D::Error> {
        struct ListVisitor;

        impl<'de> Visitor<'de> for ListVisitor {
            type Value = RestPushListIn;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a ListTaskPushNotificationConfigResponse object or a list")
            }

            fn visit_unit<E: de::Error>(self) -> Result<RestPushListIn, E> {
                Ok(RestPushListIn(Vec::new()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RestPushListIn, A::Error> {
                let mut out = Vec::new();
                while let Some(c) = seq.next_element::<Rest<TaskPushNotificationConfig>>()? {
                    out.push(c.0);
                }
                Ok(RestPushListIn(out))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RestPushListIn, A::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<Key>()? {
                    if key.0 {
                        let list: Vec<Rest<TaskPushNotificationConfig>> =
                            map.next_value_seed(Repeated(std::marker::PhantomData))?;
                        out = list.into_iter().map(|c| c.0).collect();
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(RestPushListIn(out))
            }
        }

        /// Whether an object key is `configs`.
        struct Key(bool);

        impl<'de> Deserialize<'de> for Key {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
                struct KeyVisitor;

                impl Visitor<'_> for KeyVisitor {
                    type Value = Key;

                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("a field name")
                    }

                    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
                        Ok(Key(v == "configs"))
                    }

                    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Key, E> {
                        Ok(Key(v == b"configs"))
                    }
                }

                protojson::identifier(d, KeyVisitor)
            }
        }

        /// A `repeated` field's value (`null` is empty).
        struct Repeated<T>(std::marker::PhantomData<T>);

        impl<'de, T: Deserialize<'de>> de::DeserializeSeed<'de> for Repeated<T> {
            type Value = Vec<T>;

            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
                protojson::repeated(d)
            }
        }

        d.deserialize_any(ListVisitor)
    }
}

// ---------------------------------------------------------------------------
// SendMessageRequest (0.3 proto `SendMessageRequest`,
// `SendMessageConfiguration`).

/// `SendMessageRequest`: the proto field `request` has the JSON name
/// `message`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestSendRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    configuration: Option<RestSendConfig>,
    #[serde(default, alias = "request", with = "via::message")]
    message: Message,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
}

/// `SendMessageConfiguration`: `blocking` where 1.0 has
/// `returnImmediately`, the webhook as a bare `PushNotificationConfig`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(super) struct RestSendConfig {
    #[serde(
        default,
        alias = "accepted_output_modes",
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    accepted_output_modes: Vec<String>,
    #[serde(default, deserialize_with = "protojson::boolean")]
    blocking: bool,
    #[serde(
        default,
        alias = "history_length",
        deserialize_with = "protojson::optional_int32",
        skip_serializing_if = "Option::is_none"
    )]
    history_length: Option<i32>,
    #[serde(
        default,
        alias = "push_notification",
        skip_serializing_if = "Option::is_none"
    )]
    push_notification: Option<RestPushConfig>,
}

impl From<&SendMessageRequest> for RestSendRequest {
    /// The configuration is always written, with `blocking` (the Python
    /// server reads an absent one as proto3 `false`: return at once).
    fn from(r: &SendMessageRequest) -> RestSendRequest {
        let config = r.configuration.as_ref();
        RestSendRequest {
            configuration: Some(RestSendConfig {
                accepted_output_modes: config
                    .map(|c| c.accepted_output_modes.clone())
                    .unwrap_or_default(),
                blocking: !config.is_some_and(|c| c.return_immediately),
                history_length: config.and_then(|c| c.history_length),
                push_notification: config
                    .and_then(|c| c.task_push_notification_config.as_deref())
                    .map(RestPushConfig::from_model),
            }),
            message: r.message.clone(),
            metadata: r.metadata.clone(),
        }
    }
}

impl From<RestSendRequest> for SendMessageRequest {
    /// A configuration without `blocking` returns at once (proto3
    /// `false`, as the 0.3 SDK servers read it); no configuration blocks
    /// (0.3 spec 7.1).
    fn from(w: RestSendRequest) -> SendMessageRequest {
        SendMessageRequest {
            message: w.message,
            configuration: w.configuration.map(|c| SendMessageConfiguration {
                accepted_output_modes: c.accepted_output_modes,
                task_push_notification_config: c
                    .push_notification
                    .map(|p| Box::new(p.into_model(None, None))),
                history_length: c.history_length,
                return_immediately: !c.blocking,
                ..Default::default()
            }),
            metadata: w.metadata,
            ..Default::default()
        }
    }
}

message_impls!(
    RestMessage,
    RestPart,
    RestFile,
    RestData,
    RestArtifact,
    RestStatus,
    RestTask,
    RestStatusUpdate,
    RestArtifactUpdate,
    RestPushConfig,
    RestAuth,
    RestTaskPushConfig,
    RestSendRequest,
    RestSendConfig,
);

rest_codec!(
    Message => RestMessage,
    Part => RestPart,
    Artifact => RestArtifact,
    TaskStatus => RestStatus,
    Task => RestTask,
    TaskPushNotificationConfig => RestTaskPushConfig,
    StreamResponse => RestStream,
    SendMessageResponse => RestSendResponse,
);
