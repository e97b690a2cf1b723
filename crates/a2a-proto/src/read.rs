//! The protobuf reader: wire bytes straight into the `a2a-types` model,
//! with no intermediate prost message (issue 30). One [`Build`] impl per
//! type that has a [`Protobuf`] impl, as `write.rs` has one writer.
//!
//! Each reads its message's fields as prost's generated `merge` reads
//! them, then makes the value as [`Protobuf::from_message`] does, with
//! the same errors at the same paths (`reader.rs` has the shared rules).
//! A type the model never refuses is its own builder; the others hold
//! what is checked at the end raw: enum numbers, a timestamp's fields,
//! an unset oneof, a `Value`'s double, and non-repeated message fields as
//! builders, since a second occurrence merges into them.
//!
//! `tests/reader.rs` checks `decode` against prost + `from_message` on
//! the generated values of all 44 types and on many mutations of them
//! (truncations, flipped bytes, fields repeated with other values,
//! unknown fields, enum numbers out of range, invalid UTF-8), and the
//! fuzz target does on any input.

use std::collections::BTreeMap;

use a2a_types::{
    APIKeySecurityScheme, AgentCapabilities, AgentCard, AgentCardSignature, AgentExtension,
    AgentInterface, AgentProvider, AgentSkill, Artifact, AuthenticationInfo,
    AuthorizationCodeOAuthFlow, CancelTaskRequest, ClientCredentialsOAuthFlow,
    DeleteTaskPushNotificationConfigRequest, DeviceCodeOAuthFlow, Empty,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    HTTPAuthSecurityScheme, ImplicitOAuthFlow, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, Message,
    MutualTlsSecurityScheme, OAuth2SecurityScheme, OAuthFlows, OpenIdConnectSecurityScheme, Part,
    PartContent, PasswordOAuthFlow, Role, SecurityRequirement, SecurityScheme,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, StreamResponse, StringList,
    Struct, SubscribeToTaskRequest, Task, TaskArtifactUpdateEvent, TaskPushNotificationConfig,
    TaskState, TaskStatus, TaskStatusUpdateEvent, Timestamp, UnknownEnumValue,
};
use serde_json::Value;

use crate::convert::{
    number_from_f64, DEFAULT_MAX_MESSAGE_BYTES, FLOWS_ONEOF, PART_ONEOF, SCHEME_ONEOF,
    SEND_RESPONSE_ONEOF, STREAM_RESPONSE_ONEOF,
};
use crate::error::{ProtoError, ProtoErrorKind};
use crate::reader::{
    at, finish_in, finish_opt, member, Build, Error, Fields, Keyed, Reader, Result,
};
use crate::Protobuf;

/// Decodes protobuf bytes into the model, up to
/// [`DEFAULT_MAX_MESSAGE_BYTES`].
pub fn decode<T: Protobuf>(bytes: &[u8]) -> std::result::Result<T, ProtoError> {
    decode_with_limit(bytes, DEFAULT_MAX_MESSAGE_BYTES)
}

/// Decodes protobuf bytes into the model, refusing input longer than
/// `max_bytes` before parsing any of it. Nesting is bounded as prost
/// bounds it (100 levels), so a hostile input cannot exhaust the stack.
///
/// The bytes are read straight into the model, with no intermediate prost
/// message, and with prost's rules: the result is what prost's decoding
/// of [`Protobuf::Message`] then [`Protobuf::from_message`] gives, value
/// or error, for any input.
pub fn decode_with_limit<T: Protobuf>(
    bytes: &[u8],
    max_bytes: usize,
) -> std::result::Result<T, ProtoError> {
    if bytes.len() > max_bytes {
        return Err(ProtoErrorKind::TooLarge {
            len: bytes.len(),
            limit: max_bytes,
        }
        .into());
    }
    T::read_message(bytes)
}

/// Types the model never refuses: read into the value itself.
macro_rules! plain {
    ($($t:ty),+ $(,)?) => {
        $(
            impl Build for $t {
                type Builder = $t;

                #[inline]
                fn finish(builder: $t) -> Result<$t> {
                    Ok(builder)
                }
            }
        )+
    };
}

/// An enum number as the model's closed enum, refused at `field` when
/// the proto does not define it.
fn enumeration<E: TryFrom<i32, Error = UnknownEnumValue>>(
    number: i32,
    field: &'static str,
) -> Result<E> {
    E::try_from(number).map_err(|e| {
        let mut e = Box::new(ProtoError::new(ProtoErrorKind::UnknownEnum(e)));
        e.push_field(field);
        e
    })
}

/// A repeated field's elements, or the first one refused.
#[inline]
fn checked<T>(values: Vec<T>, error: Option<Error>) -> Result<Vec<T>> {
    match error {
        None => Ok(values),
        Some(e) => Err(e),
    }
}

#[cold]
fn empty_oneof<T>(what: &'static str) -> Result<T> {
    Err(Box::new(ProtoError::new(ProtoErrorKind::EmptyOneof(what))))
}

/// A `Struct` being read.
type StructBuilder = Keyed<Struct>;

// ---------------------------------------------------------------------------
// google.protobuf: Struct, Value, ListValue, Timestamp, Empty.

/// `google.protobuf.Struct`: `map<string, Value> fields = 1`. Each value
/// is made at the end of its entry: a later entry of the same key replaces
/// it whole.
impl Fields for StructBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => {
                let (key, value) = r.message_entry::<ValueBuilder>(wt, depth)?;
                self.put(key, Value::finish(value));
                Ok(())
            }
            _ => r.skip(wt, tag, depth),
        }
    }
}

impl Build for Struct {
    type Builder = StructBuilder;

    #[inline]
    fn finish(builder: StructBuilder) -> Result<Struct> {
        builder.finish()
    }
}

/// `google.protobuf.Value`: the `kind` oneof, the double raw until the end
/// (a NaN a later member replaces is no error).
#[derive(Debug, Default)]
pub(crate) enum ValueBuilder {
    #[default]
    Unset,
    Null,
    Number(f64),
    String(String),
    Bool(bool),
    Struct(StructBuilder),
    List(ListBuilder),
}

impl Fields for ValueBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            // `NullValue` has one number, and any reads as null.
            1 => {
                r.int32(wt)?;
                *self = ValueBuilder::Null;
            }
            2 => *self = ValueBuilder::Number(r.double(wt)?),
            3 => *self = ValueBuilder::String(r.string(wt)?),
            4 => *self = ValueBuilder::Bool(r.bool(wt)?),
            5 => r.message(wt, member!(*self, ValueBuilder::Struct), depth)?,
            6 => r.message(wt, member!(*self, ValueBuilder::List), depth)?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// A `Value` with no kind reads as `null`; numbers as `from_message`
/// reads them (`number_from_f64`).
impl Build for Value {
    type Builder = ValueBuilder;

    fn finish(builder: ValueBuilder) -> Result<Value> {
        Ok(match builder {
            ValueBuilder::Unset | ValueBuilder::Null => Value::Null,
            ValueBuilder::Number(f) => Value::Number(number_from_f64(f).map_err(Box::new)?),
            ValueBuilder::String(s) => Value::String(s),
            ValueBuilder::Bool(b) => Value::Bool(b),
            ValueBuilder::Struct(s) => Value::Object(s.finish()?),
            ValueBuilder::List(list) => Value::Array(checked(list.values, list.error)?),
        })
    }
}

/// `google.protobuf.ListValue`: `repeated Value values = 1`.
#[derive(Debug, Default)]
pub(crate) struct ListBuilder {
    values: Vec<Value>,
    error: Option<Error>,
}

impl Fields for ListBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => r.element(wt, &mut self.values, &mut self.error, depth, None),
            _ => r.skip(wt, tag, depth),
        }
    }
}

/// `google.protobuf.Timestamp`, checked against the model's range at the
/// end: a later `seconds` may bring it back into range.
#[derive(Debug, Default)]
pub(crate) struct TimestampBuilder {
    seconds: i64,
    nanos: i32,
}

impl Fields for TimestampBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.seconds = r.int64(wt).map_err(at("seconds"))?,
            2 => self.nanos = r.int32(wt).map_err(at("nanos"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for Timestamp {
    type Builder = TimestampBuilder;

    fn finish(builder: TimestampBuilder) -> Result<Timestamp> {
        Timestamp::new(builder.seconds, builder.nanos)
            .map_err(|e| Box::new(ProtoError::new(ProtoErrorKind::Timestamp(e))))
    }
}

/// `google.protobuf.Empty`: every field unknown.
impl Fields for Empty {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        r.skip(wt, tag, depth)
    }
}

plain!(Empty);

// ---------------------------------------------------------------------------
// Messages, in the order of the proto.

// `history_length` is deprecated in the 1.1 draft, and still carried.
#[cfg_attr(feature = "draft-1-1", allow(deprecated))]
impl Fields for SendMessageConfiguration {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self
                .accepted_output_modes
                .push(r.string(wt).map_err(at("acceptedOutputModes"))?),
            2 => r
                .message(
                    wt,
                    &mut **self
                        .task_push_notification_config
                        .get_or_insert_with(Box::default),
                    depth,
                )
                .map_err(at("taskPushNotificationConfig"))?,
            3 => self.history_length = Some(r.int32(wt).map_err(at("historyLength"))?),
            4 => self.return_immediately = r.bool(wt).map_err(at("returnImmediately"))?,
            #[cfg(feature = "draft-1-1")]
            5 => self.if_generation_match = Some(r.int64(wt).map_err(at("ifGenerationMatch"))?),
            #[cfg(feature = "draft-1-1")]
            6 => self.timeline_length = Some(r.int32(wt).map_err(at("timelineLength"))?),
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// A `Task` being read.
#[derive(Debug, Default)]
pub(crate) struct TaskBuilder {
    id: String,
    context_id: String,
    status: TaskStatusBuilder,
    artifacts: Vec<Artifact>,
    history: Vec<Message>,
    metadata: Option<StructBuilder>,
    #[cfg(feature = "draft-1-1")]
    generation: i64,
    #[cfg(feature = "draft-1-1")]
    timeline: Vec<a2a_types::draft_1_1::TimelineEntry>,
    // One per list, so a value with several refused parts fails on the
    // one `from_message` meets first.
    artifacts_error: Option<Error>,
    history_error: Option<Error>,
    #[cfg(feature = "draft-1-1")]
    timeline_error: Option<Error>,
}

impl Fields for TaskBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.id = r.string(wt).map_err(at("id"))?,
            2 => self.context_id = r.string(wt).map_err(at("contextId"))?,
            3 => r
                .message(wt, &mut self.status, depth)
                .map_err(at("status"))?,
            4 => r.element(
                wt,
                &mut self.artifacts,
                &mut self.artifacts_error,
                depth,
                Some("artifacts"),
            )?,
            5 => r.element(
                wt,
                &mut self.history,
                &mut self.history_error,
                depth,
                Some("history"),
            )?,
            6 => r
                .opt_message(wt, &mut self.metadata, depth)
                .map_err(at("metadata"))?,
            #[cfg(feature = "draft-1-1")]
            7 => self.generation = r.int64(wt).map_err(at("generation"))?,
            #[cfg(feature = "draft-1-1")]
            8 => r.element(
                wt,
                &mut self.timeline,
                &mut self.timeline_error,
                depth,
                Some("timeline"),
            )?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

// `history` is deprecated in the 1.1 draft, and still carried.
#[cfg_attr(feature = "draft-1-1", allow(deprecated))]
impl Build for Task {
    type Builder = TaskBuilder;

    fn finish(b: TaskBuilder) -> Result<Task> {
        Ok(Task {
            id: b.id,
            context_id: b.context_id,
            status: finish_in(b.status, "status")?,
            artifacts: checked(b.artifacts, b.artifacts_error)?,
            history: checked(b.history, b.history_error)?,
            metadata: finish_opt(b.metadata, "metadata")?,
            #[cfg(feature = "draft-1-1")]
            timeline: checked(b.timeline, b.timeline_error)?,
            #[cfg(feature = "draft-1-1")]
            generation: b.generation,
            ..Default::default()
        })
    }
}

/// A `TaskStatus` being read: the state's number raw.
#[derive(Debug, Default)]
pub(crate) struct TaskStatusBuilder {
    state: i32,
    message: Option<MessageBuilder>,
    timestamp: Option<TimestampBuilder>,
}

impl Fields for TaskStatusBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.state = r.int32(wt).map_err(at("state"))?,
            2 => r
                .opt_message(wt, &mut self.message, depth)
                .map_err(at("message"))?,
            3 => r
                .opt_message(wt, &mut self.timestamp, depth)
                .map_err(at("timestamp"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for TaskStatus {
    type Builder = TaskStatusBuilder;

    fn finish(b: TaskStatusBuilder) -> Result<TaskStatus> {
        Ok(TaskStatus {
            state: enumeration::<TaskState>(b.state, "state")?,
            message: finish_opt(b.message, "message")?,
            timestamp: finish_opt(b.timestamp, "timestamp")?,
        })
    }
}

/// A `Part` being read: the `content` oneof, unset until a member comes.
#[derive(Debug, Default)]
pub(crate) struct PartBuilder {
    content: ContentBuilder,
    metadata: Option<StructBuilder>,
    filename: String,
    media_type: String,
}

#[derive(Debug, Default)]
pub(crate) enum ContentBuilder {
    #[default]
    Unset,
    Text(String),
    Raw(Vec<u8>),
    Url(String),
    Data(ValueBuilder),
}

impl Fields for PartBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.content = ContentBuilder::Text(r.string(wt).map_err(at("text"))?),
            2 => self.content = ContentBuilder::Raw(r.bytes(wt).map_err(at("raw"))?),
            3 => self.content = ContentBuilder::Url(r.string(wt).map_err(at("url"))?),
            4 => r
                .message(wt, member!(self.content, ContentBuilder::Data), depth)
                .map_err(at("data"))?,
            5 => r
                .opt_message(wt, &mut self.metadata, depth)
                .map_err(at("metadata"))?,
            6 => self.filename = r.string(wt).map_err(at("filename"))?,
            7 => self.media_type = r.string(wt).map_err(at("mediaType"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for Part {
    type Builder = PartBuilder;

    fn finish(b: PartBuilder) -> Result<Part> {
        let content = match b.content {
            ContentBuilder::Text(text) => PartContent::Text(text),
            ContentBuilder::Raw(bytes) => PartContent::Raw(bytes),
            ContentBuilder::Url(url) => PartContent::Url(url),
            ContentBuilder::Data(value) => PartContent::Data(finish_in(value, "data")?),
            ContentBuilder::Unset => return empty_oneof(PART_ONEOF),
        };
        Ok(Part {
            content,
            metadata: finish_opt(b.metadata, "metadata")?,
            filename: b.filename,
            media_type: b.media_type,
        })
    }
}

/// A `Message` being read: the role's number raw.
#[derive(Debug, Default)]
pub(crate) struct MessageBuilder {
    message_id: String,
    context_id: String,
    task_id: String,
    role: i32,
    parts: Vec<Part>,
    metadata: Option<StructBuilder>,
    extensions: Vec<String>,
    reference_task_ids: Vec<String>,
    error: Option<Error>,
}

impl Fields for MessageBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.message_id = r.string(wt).map_err(at("messageId"))?,
            2 => self.context_id = r.string(wt).map_err(at("contextId"))?,
            3 => self.task_id = r.string(wt).map_err(at("taskId"))?,
            4 => self.role = r.int32(wt).map_err(at("role"))?,
            5 => r.element(wt, &mut self.parts, &mut self.error, depth, Some("parts"))?,
            6 => r
                .opt_message(wt, &mut self.metadata, depth)
                .map_err(at("metadata"))?,
            7 => self
                .extensions
                .push(r.string(wt).map_err(at("extensions"))?),
            8 => self
                .reference_task_ids
                .push(r.string(wt).map_err(at("referenceTaskIds"))?),
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for Message {
    type Builder = MessageBuilder;

    fn finish(b: MessageBuilder) -> Result<Message> {
        Ok(Message {
            message_id: b.message_id,
            context_id: b.context_id,
            task_id: b.task_id,
            role: enumeration::<Role>(b.role, "role")?,
            parts: checked(b.parts, b.error)?,
            metadata: finish_opt(b.metadata, "metadata")?,
            extensions: b.extensions,
            reference_task_ids: b.reference_task_ids,
        })
    }
}

/// An `Artifact` being read.
#[derive(Debug, Default)]
pub(crate) struct ArtifactBuilder {
    artifact_id: String,
    name: String,
    description: String,
    parts: Vec<Part>,
    metadata: Option<StructBuilder>,
    extensions: Vec<String>,
    #[cfg(feature = "draft-1-1")]
    start_generation: i64,
    #[cfg(feature = "draft-1-1")]
    end_generation: i64,
    error: Option<Error>,
}

impl Fields for ArtifactBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.artifact_id = r.string(wt).map_err(at("artifactId"))?,
            2 => self.name = r.string(wt).map_err(at("name"))?,
            3 => self.description = r.string(wt).map_err(at("description"))?,
            4 => r.element(wt, &mut self.parts, &mut self.error, depth, Some("parts"))?,
            5 => r
                .opt_message(wt, &mut self.metadata, depth)
                .map_err(at("metadata"))?,
            6 => self
                .extensions
                .push(r.string(wt).map_err(at("extensions"))?),
            #[cfg(feature = "draft-1-1")]
            7 => self.start_generation = r.int64(wt).map_err(at("startGeneration"))?,
            #[cfg(feature = "draft-1-1")]
            8 => self.end_generation = r.int64(wt).map_err(at("endGeneration"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for Artifact {
    type Builder = ArtifactBuilder;

    fn finish(b: ArtifactBuilder) -> Result<Artifact> {
        Ok(Artifact {
            artifact_id: b.artifact_id,
            name: b.name,
            description: b.description,
            parts: checked(b.parts, b.error)?,
            metadata: finish_opt(b.metadata, "metadata")?,
            extensions: b.extensions,
            #[cfg(feature = "draft-1-1")]
            start_generation: b.start_generation,
            #[cfg(feature = "draft-1-1")]
            end_generation: b.end_generation,
            ..Default::default()
        })
    }
}

/// A timeline entry being read (1.1 draft). With no member, or one this
/// proto does not know, it is an entry of unknown kind, as
/// `from_message` reads it.
#[cfg(feature = "draft-1-1")]
#[derive(Debug, Default)]
pub(crate) struct TimelineEntryBuilder {
    entry: EntryBuilder,
    generation: i64,
}

#[cfg(feature = "draft-1-1")]
#[derive(Debug, Default)]
pub(crate) enum EntryBuilder {
    #[default]
    Unset,
    Message(MessageBuilder),
    Status(TaskStatusBuilder),
}

#[cfg(feature = "draft-1-1")]
impl Fields for TimelineEntryBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => r
                .message(wt, member!(self.entry, EntryBuilder::Message), depth)
                .map_err(at("message"))?,
            2 => r
                .message(wt, member!(self.entry, EntryBuilder::Status), depth)
                .map_err(at("status"))?,
            3 => self.generation = r.int64(wt).map_err(at("generation"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

#[cfg(feature = "draft-1-1")]
impl Build for a2a_types::draft_1_1::TimelineEntry {
    type Builder = TimelineEntryBuilder;

    fn finish(b: TimelineEntryBuilder) -> Result<Self> {
        use a2a_types::draft_1_1::TimelineContent;
        let entry = match b.entry {
            EntryBuilder::Message(m) => Some(TimelineContent::Message(finish_in(m, "message")?)),
            EntryBuilder::Status(s) => Some(TimelineContent::Status(finish_in(s, "status")?)),
            EntryBuilder::Unset => None,
        };
        Ok(a2a_types::draft_1_1::TimelineEntry {
            entry,
            generation: b.generation,
        })
    }
}

/// A `TaskStatusUpdateEvent` being read.
#[derive(Debug, Default)]
pub(crate) struct StatusUpdateBuilder {
    task_id: String,
    context_id: String,
    status: TaskStatusBuilder,
    metadata: Option<StructBuilder>,
    #[cfg(feature = "draft-1-1")]
    generation: i64,
}

impl Fields for StatusUpdateBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.task_id = r.string(wt).map_err(at("taskId"))?,
            2 => self.context_id = r.string(wt).map_err(at("contextId"))?,
            3 => r
                .message(wt, &mut self.status, depth)
                .map_err(at("status"))?,
            4 => r
                .opt_message(wt, &mut self.metadata, depth)
                .map_err(at("metadata"))?,
            #[cfg(feature = "draft-1-1")]
            5 => self.generation = r.int64(wt).map_err(at("generation"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for TaskStatusUpdateEvent {
    type Builder = StatusUpdateBuilder;

    fn finish(b: StatusUpdateBuilder) -> Result<TaskStatusUpdateEvent> {
        Ok(TaskStatusUpdateEvent {
            task_id: b.task_id,
            context_id: b.context_id,
            status: finish_in(b.status, "status")?,
            metadata: finish_opt(b.metadata, "metadata")?,
            #[cfg(feature = "draft-1-1")]
            generation: b.generation,
            ..Default::default()
        })
    }
}

/// A `TaskArtifactUpdateEvent` being read.
#[derive(Debug, Default)]
pub(crate) struct ArtifactUpdateBuilder {
    task_id: String,
    context_id: String,
    artifact: ArtifactBuilder,
    append: bool,
    last_chunk: bool,
    metadata: Option<StructBuilder>,
    #[cfg(feature = "draft-1-1")]
    generation: i64,
}

impl Fields for ArtifactUpdateBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.task_id = r.string(wt).map_err(at("taskId"))?,
            2 => self.context_id = r.string(wt).map_err(at("contextId"))?,
            3 => r
                .message(wt, &mut self.artifact, depth)
                .map_err(at("artifact"))?,
            4 => self.append = r.bool(wt).map_err(at("append"))?,
            5 => self.last_chunk = r.bool(wt).map_err(at("lastChunk"))?,
            6 => r
                .opt_message(wt, &mut self.metadata, depth)
                .map_err(at("metadata"))?,
            #[cfg(feature = "draft-1-1")]
            7 => self.generation = r.int64(wt).map_err(at("generation"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for TaskArtifactUpdateEvent {
    type Builder = ArtifactUpdateBuilder;

    fn finish(b: ArtifactUpdateBuilder) -> Result<TaskArtifactUpdateEvent> {
        Ok(TaskArtifactUpdateEvent {
            task_id: b.task_id,
            context_id: b.context_id,
            artifact: finish_in(b.artifact, "artifact")?,
            append: b.append,
            last_chunk: b.last_chunk,
            metadata: finish_opt(b.metadata, "metadata")?,
            #[cfg(feature = "draft-1-1")]
            generation: b.generation,
            ..Default::default()
        })
    }
}

impl Fields for AuthenticationInfo {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.scheme = r.string(wt).map_err(at("scheme"))?,
            2 => self.credentials = r.string(wt).map_err(at("credentials"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for AgentInterface {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.url = r.string(wt).map_err(at("url"))?,
            2 => self.protocol_binding = r.string(wt).map_err(at("protocolBinding"))?,
            3 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            4 => self.protocol_version = r.string(wt).map_err(at("protocolVersion"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// An `AgentCard` being read.
#[derive(Debug, Default)]
pub(crate) struct AgentCardBuilder {
    name: String,
    description: String,
    supported_interfaces: Vec<AgentInterface>,
    provider: Option<AgentProvider>,
    version: String,
    documentation_url: Option<String>,
    capabilities: CapabilitiesBuilder,
    security_schemes: Keyed<BTreeMap<String, SecurityScheme>>,
    security_requirements: Vec<SecurityRequirement>,
    default_input_modes: Vec<String>,
    default_output_modes: Vec<String>,
    skills: Vec<AgentSkill>,
    signatures: Vec<AgentCardSignature>,
    icon_url: Option<String>,
    /// The other lists' elements are never refused.
    signatures_error: Option<Error>,
}

impl Fields for AgentCardBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.name = r.string(wt).map_err(at("name"))?,
            2 => self.description = r.string(wt).map_err(at("description"))?,
            3 => r.element(
                wt,
                &mut self.supported_interfaces,
                &mut None,
                depth,
                Some("supportedInterfaces"),
            )?,
            4 => r
                .opt_message(wt, &mut self.provider, depth)
                .map_err(at("provider"))?,
            5 => self.version = r.string(wt).map_err(at("version"))?,
            6 => self.documentation_url = Some(r.string(wt).map_err(at("documentationUrl"))?),
            7 => r
                .message(wt, &mut self.capabilities, depth)
                .map_err(at("capabilities"))?,
            8 => {
                let (key, scheme) = r
                    .message_entry::<SchemeBuilder>(wt, depth)
                    .map_err(at("securitySchemes"))?;
                self.security_schemes
                    .put(key, SecurityScheme::finish(scheme));
            }
            9 => r.element(
                wt,
                &mut self.security_requirements,
                &mut None,
                depth,
                Some("securityRequirements"),
            )?,
            10 => self
                .default_input_modes
                .push(r.string(wt).map_err(at("defaultInputModes"))?),
            11 => self
                .default_output_modes
                .push(r.string(wt).map_err(at("defaultOutputModes"))?),
            12 => r.element(wt, &mut self.skills, &mut None, depth, Some("skills"))?,
            13 => r.element(
                wt,
                &mut self.signatures,
                &mut self.signatures_error,
                depth,
                Some("signatures"),
            )?,
            14 => self.icon_url = Some(r.string(wt).map_err(at("iconUrl"))?),
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for AgentCard {
    type Builder = AgentCardBuilder;

    fn finish(b: AgentCardBuilder) -> Result<AgentCard> {
        Ok(AgentCard {
            name: b.name,
            description: b.description,
            supported_interfaces: b.supported_interfaces,
            provider: b.provider,
            version: b.version,
            documentation_url: b.documentation_url,
            capabilities: finish_in(b.capabilities, "capabilities")?,
            security_schemes: b.security_schemes.finish().map_err(at("securitySchemes"))?,
            security_requirements: b.security_requirements,
            default_input_modes: b.default_input_modes,
            default_output_modes: b.default_output_modes,
            skills: b.skills,
            signatures: checked(b.signatures, b.signatures_error)?,
            icon_url: b.icon_url,
        })
    }
}

impl Fields for AgentProvider {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.url = r.string(wt).map_err(at("url"))?,
            2 => self.organization = r.string(wt).map_err(at("organization"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// `AgentCapabilities` being read.
#[derive(Debug, Default)]
pub(crate) struct CapabilitiesBuilder {
    streaming: Option<bool>,
    push_notifications: Option<bool>,
    extensions: Vec<AgentExtension>,
    extended_agent_card: Option<bool>,
    error: Option<Error>,
}

impl Fields for CapabilitiesBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.streaming = Some(r.bool(wt).map_err(at("streaming"))?),
            2 => self.push_notifications = Some(r.bool(wt).map_err(at("pushNotifications"))?),
            3 => r.element(
                wt,
                &mut self.extensions,
                &mut self.error,
                depth,
                Some("extensions"),
            )?,
            4 => self.extended_agent_card = Some(r.bool(wt).map_err(at("extendedAgentCard"))?),
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for AgentCapabilities {
    type Builder = CapabilitiesBuilder;

    fn finish(b: CapabilitiesBuilder) -> Result<AgentCapabilities> {
        Ok(AgentCapabilities {
            streaming: b.streaming,
            push_notifications: b.push_notifications,
            extensions: checked(b.extensions, b.error)?,
            extended_agent_card: b.extended_agent_card,
        })
    }
}

/// An `AgentExtension` being read.
#[derive(Debug, Default)]
pub(crate) struct ExtensionBuilder {
    uri: String,
    description: String,
    required: bool,
    params: Option<StructBuilder>,
}

impl Fields for ExtensionBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.uri = r.string(wt).map_err(at("uri"))?,
            2 => self.description = r.string(wt).map_err(at("description"))?,
            3 => self.required = r.bool(wt).map_err(at("required"))?,
            4 => r
                .opt_message(wt, &mut self.params, depth)
                .map_err(at("params"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for AgentExtension {
    type Builder = ExtensionBuilder;

    fn finish(b: ExtensionBuilder) -> Result<AgentExtension> {
        Ok(AgentExtension {
            uri: b.uri,
            description: b.description,
            required: b.required,
            params: finish_opt(b.params, "params")?,
        })
    }
}

impl Fields for AgentSkill {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.id = r.string(wt).map_err(at("id"))?,
            2 => self.name = r.string(wt).map_err(at("name"))?,
            3 => self.description = r.string(wt).map_err(at("description"))?,
            4 => self.tags.push(r.string(wt).map_err(at("tags"))?),
            5 => self.examples.push(r.string(wt).map_err(at("examples"))?),
            6 => self
                .input_modes
                .push(r.string(wt).map_err(at("inputModes"))?),
            7 => self
                .output_modes
                .push(r.string(wt).map_err(at("outputModes"))?),
            8 => {
                // Its elements are never refused: no error to keep.
                r.element(
                    wt,
                    &mut self.security_requirements,
                    &mut None,
                    depth,
                    Some("securityRequirements"),
                )?;
            }
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// An `AgentCardSignature` being read.
#[derive(Debug, Default)]
pub(crate) struct SignatureBuilder {
    protected: String,
    signature: String,
    header: Option<StructBuilder>,
}

impl Fields for SignatureBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.protected = r.string(wt).map_err(at("protected"))?,
            2 => self.signature = r.string(wt).map_err(at("signature"))?,
            3 => r
                .opt_message(wt, &mut self.header, depth)
                .map_err(at("header"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for AgentCardSignature {
    type Builder = SignatureBuilder;

    fn finish(b: SignatureBuilder) -> Result<AgentCardSignature> {
        Ok(AgentCardSignature {
            protected: b.protected,
            signature: b.signature,
            header: finish_opt(b.header, "header")?,
        })
    }
}

impl Fields for TaskPushNotificationConfig {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            2 => self.id = r.string(wt).map_err(at("id"))?,
            3 => self.task_id = r.string(wt).map_err(at("taskId"))?,
            4 => self.url = r.string(wt).map_err(at("url"))?,
            5 => self.token = r.string(wt).map_err(at("token"))?,
            6 => r
                .opt_message(wt, &mut self.authentication, depth)
                .map_err(at("authentication"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for StringList {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.list.push(r.string(wt).map_err(at("list"))?),
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for SecurityRequirement {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => {
                let (key, list) = r
                    .message_entry::<StringList>(wt, depth)
                    .map_err(at("schemes"))?;
                self.schemes.insert(key, list);
            }
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// A `SecurityScheme` being read: the `scheme` oneof.
#[derive(Debug, Default)]
pub(crate) enum SchemeBuilder {
    #[default]
    Unset,
    ApiKey(APIKeySecurityScheme),
    HttpAuth(HTTPAuthSecurityScheme),
    OAuth2(OAuth2Builder),
    OpenIdConnect(OpenIdConnectSecurityScheme),
    MutualTls(MutualTlsSecurityScheme),
}

impl Fields for SchemeBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => r
                .message(wt, member!(*self, SchemeBuilder::ApiKey), depth)
                .map_err(at("apiKeySecurityScheme"))?,
            2 => r
                .message(wt, member!(*self, SchemeBuilder::HttpAuth), depth)
                .map_err(at("httpAuthSecurityScheme"))?,
            3 => r
                .message(wt, member!(*self, SchemeBuilder::OAuth2), depth)
                .map_err(at("oauth2SecurityScheme"))?,
            4 => r
                .message(wt, member!(*self, SchemeBuilder::OpenIdConnect), depth)
                .map_err(at("openIdConnectSecurityScheme"))?,
            5 => r
                .message(wt, member!(*self, SchemeBuilder::MutualTls), depth)
                .map_err(at("mtlsSecurityScheme"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for SecurityScheme {
    type Builder = SchemeBuilder;

    fn finish(b: SchemeBuilder) -> Result<SecurityScheme> {
        Ok(match b {
            SchemeBuilder::ApiKey(s) => SecurityScheme::ApiKey(s),
            SchemeBuilder::HttpAuth(s) => SecurityScheme::HttpAuth(s),
            SchemeBuilder::OAuth2(s) => {
                SecurityScheme::OAuth2(finish_in(s, "oauth2SecurityScheme")?)
            }
            SchemeBuilder::OpenIdConnect(s) => SecurityScheme::OpenIdConnect(s),
            SchemeBuilder::MutualTls(s) => SecurityScheme::MutualTls(s),
            SchemeBuilder::Unset => return empty_oneof(SCHEME_ONEOF),
        })
    }
}

impl Fields for APIKeySecurityScheme {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.description = r.string(wt).map_err(at("description"))?,
            2 => self.location = r.string(wt).map_err(at("location"))?,
            3 => self.name = r.string(wt).map_err(at("name"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for HTTPAuthSecurityScheme {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.description = r.string(wt).map_err(at("description"))?,
            2 => self.scheme = r.string(wt).map_err(at("scheme"))?,
            3 => self.bearer_format = r.string(wt).map_err(at("bearerFormat"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// An `OAuth2SecurityScheme` being read.
#[derive(Debug, Default)]
pub(crate) struct OAuth2Builder {
    description: String,
    flows: Option<FlowsBuilder>,
    oauth2_metadata_url: String,
}

impl Fields for OAuth2Builder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.description = r.string(wt).map_err(at("description"))?,
            2 => r
                .opt_message(wt, &mut self.flows, depth)
                .map_err(at("flows"))?,
            3 => self.oauth2_metadata_url = r.string(wt).map_err(at("oauth2MetadataUrl"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for OAuth2SecurityScheme {
    type Builder = OAuth2Builder;

    fn finish(b: OAuth2Builder) -> Result<OAuth2SecurityScheme> {
        Ok(OAuth2SecurityScheme {
            description: b.description,
            flows: finish_opt(b.flows, "flows")?,
            oauth2_metadata_url: b.oauth2_metadata_url,
        })
    }
}

impl Fields for OpenIdConnectSecurityScheme {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.description = r.string(wt).map_err(at("description"))?,
            2 => self.open_id_connect_url = r.string(wt).map_err(at("openIdConnectUrl"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for MutualTlsSecurityScheme {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.description = r.string(wt).map_err(at("description"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// `OAuthFlows` being read: the `flow` oneof.
#[derive(Debug, Default)]
pub(crate) enum FlowsBuilder {
    #[default]
    Unset,
    AuthorizationCode(AuthorizationCodeOAuthFlow),
    ClientCredentials(ClientCredentialsOAuthFlow),
    Implicit(ImplicitOAuthFlow),
    Password(PasswordOAuthFlow),
    DeviceCode(DeviceCodeOAuthFlow),
}

impl Fields for FlowsBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => r
                .message(wt, member!(*self, FlowsBuilder::AuthorizationCode), depth)
                .map_err(at("authorizationCode"))?,
            2 => r
                .message(wt, member!(*self, FlowsBuilder::ClientCredentials), depth)
                .map_err(at("clientCredentials"))?,
            3 => r
                .message(wt, member!(*self, FlowsBuilder::Implicit), depth)
                .map_err(at("implicit"))?,
            4 => r
                .message(wt, member!(*self, FlowsBuilder::Password), depth)
                .map_err(at("password"))?,
            5 => r
                .message(wt, member!(*self, FlowsBuilder::DeviceCode), depth)
                .map_err(at("deviceCode"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

// `implicit` and `password` are deprecated in the proto, and still carried.
#[allow(deprecated)]
impl Build for OAuthFlows {
    type Builder = FlowsBuilder;

    fn finish(b: FlowsBuilder) -> Result<OAuthFlows> {
        Ok(match b {
            FlowsBuilder::AuthorizationCode(f) => OAuthFlows::AuthorizationCode(f),
            FlowsBuilder::ClientCredentials(f) => OAuthFlows::ClientCredentials(f),
            FlowsBuilder::Implicit(f) => OAuthFlows::Implicit(f),
            FlowsBuilder::Password(f) => OAuthFlows::Password(f),
            FlowsBuilder::DeviceCode(f) => OAuthFlows::DeviceCode(f),
            FlowsBuilder::Unset => return empty_oneof(FLOWS_ONEOF),
        })
    }
}

/// A `map<string, string> scopes` entry.
#[inline]
fn scope(
    scopes: &mut BTreeMap<String, String>,
    wt: u8,
    r: &mut Reader<'_>,
    depth: u32,
) -> Result<()> {
    let (key, value) = r.string_entry(wt, depth).map_err(at("scopes"))?;
    scopes.insert(key, value);
    Ok(())
}

impl Fields for AuthorizationCodeOAuthFlow {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.authorization_url = r.string(wt).map_err(at("authorizationUrl"))?,
            2 => self.token_url = r.string(wt).map_err(at("tokenUrl"))?,
            3 => self.refresh_url = r.string(wt).map_err(at("refreshUrl"))?,
            4 => scope(&mut self.scopes, wt, r, depth)?,
            5 => self.pkce_required = r.bool(wt).map_err(at("pkceRequired"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for ClientCredentialsOAuthFlow {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.token_url = r.string(wt).map_err(at("tokenUrl"))?,
            2 => self.refresh_url = r.string(wt).map_err(at("refreshUrl"))?,
            3 => scope(&mut self.scopes, wt, r, depth)?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for ImplicitOAuthFlow {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.authorization_url = r.string(wt).map_err(at("authorizationUrl"))?,
            2 => self.refresh_url = r.string(wt).map_err(at("refreshUrl"))?,
            3 => scope(&mut self.scopes, wt, r, depth)?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for PasswordOAuthFlow {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.token_url = r.string(wt).map_err(at("tokenUrl"))?,
            2 => self.refresh_url = r.string(wt).map_err(at("refreshUrl"))?,
            3 => scope(&mut self.scopes, wt, r, depth)?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for DeviceCodeOAuthFlow {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => {
                self.device_authorization_url =
                    r.string(wt).map_err(at("deviceAuthorizationUrl"))?;
            }
            2 => self.token_url = r.string(wt).map_err(at("tokenUrl"))?,
            3 => self.refresh_url = r.string(wt).map_err(at("refreshUrl"))?,
            4 => scope(&mut self.scopes, wt, r, depth)?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// A `SendMessageRequest` being read.
#[derive(Debug, Default)]
pub(crate) struct SendRequestBuilder {
    tenant: String,
    message: MessageBuilder,
    configuration: Option<SendMessageConfiguration>,
    metadata: Option<StructBuilder>,
}

impl Fields for SendRequestBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            2 => r
                .message(wt, &mut self.message, depth)
                .map_err(at("message"))?,
            3 => r
                .opt_message(wt, &mut self.configuration, depth)
                .map_err(at("configuration"))?,
            4 => r
                .opt_message(wt, &mut self.metadata, depth)
                .map_err(at("metadata"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for SendMessageRequest {
    type Builder = SendRequestBuilder;

    fn finish(b: SendRequestBuilder) -> Result<SendMessageRequest> {
        Ok(SendMessageRequest {
            tenant: b.tenant,
            message: finish_in(b.message, "message")?,
            configuration: b.configuration,
            metadata: finish_opt(b.metadata, "metadata")?,
        })
    }
}

// `history_length` is deprecated in the 1.1 draft, and still carried.
#[cfg_attr(feature = "draft-1-1", allow(deprecated))]
impl Fields for GetTaskRequest {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            2 => self.id = r.string(wt).map_err(at("id"))?,
            3 => self.history_length = Some(r.int32(wt).map_err(at("historyLength"))?),
            #[cfg(feature = "draft-1-1")]
            4 => self.current_generation = Some(r.int64(wt).map_err(at("currentGeneration"))?),
            #[cfg(feature = "draft-1-1")]
            5 => self.timeline_length = Some(r.int32(wt).map_err(at("timelineLength"))?),
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// A `ListTasksRequest` being read: the status filter's number raw.
#[derive(Debug, Default)]
pub(crate) struct ListTasksBuilder {
    tenant: String,
    context_id: String,
    status: i32,
    page_size: Option<i32>,
    page_token: String,
    history_length: Option<i32>,
    status_timestamp_after: Option<TimestampBuilder>,
    include_artifacts: Option<bool>,
    #[cfg(feature = "draft-1-1")]
    timeline_length: Option<i32>,
}

impl Fields for ListTasksBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            2 => self.context_id = r.string(wt).map_err(at("contextId"))?,
            3 => self.status = r.int32(wt).map_err(at("status"))?,
            4 => self.page_size = Some(r.int32(wt).map_err(at("pageSize"))?),
            5 => self.page_token = r.string(wt).map_err(at("pageToken"))?,
            6 => self.history_length = Some(r.int32(wt).map_err(at("historyLength"))?),
            7 => r
                .opt_message(wt, &mut self.status_timestamp_after, depth)
                .map_err(at("statusTimestampAfter"))?,
            8 => self.include_artifacts = Some(r.bool(wt).map_err(at("includeArtifacts"))?),
            #[cfg(feature = "draft-1-1")]
            9 => self.timeline_length = Some(r.int32(wt).map_err(at("timelineLength"))?),
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

// `history_length` is deprecated in the 1.1 draft, and still carried.
#[cfg_attr(feature = "draft-1-1", allow(deprecated))]
impl Build for ListTasksRequest {
    type Builder = ListTasksBuilder;

    fn finish(b: ListTasksBuilder) -> Result<ListTasksRequest> {
        Ok(ListTasksRequest {
            tenant: b.tenant,
            context_id: b.context_id,
            status: enumeration::<TaskState>(b.status, "status")?,
            page_size: b.page_size,
            page_token: b.page_token,
            history_length: b.history_length,
            status_timestamp_after: finish_opt(b.status_timestamp_after, "statusTimestampAfter")?,
            include_artifacts: b.include_artifacts,
            #[cfg(feature = "draft-1-1")]
            timeline_length: b.timeline_length,
            ..Default::default()
        })
    }
}

/// A `ListTasksResponse` being read.
#[derive(Debug, Default)]
pub(crate) struct ListTasksResponseBuilder {
    tasks: Vec<Task>,
    next_page_token: String,
    page_size: i32,
    total_size: i32,
    error: Option<Error>,
}

impl Fields for ListTasksResponseBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => r.element(wt, &mut self.tasks, &mut self.error, depth, Some("tasks"))?,
            2 => self.next_page_token = r.string(wt).map_err(at("nextPageToken"))?,
            3 => self.page_size = r.int32(wt).map_err(at("pageSize"))?,
            4 => self.total_size = r.int32(wt).map_err(at("totalSize"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for ListTasksResponse {
    type Builder = ListTasksResponseBuilder;

    fn finish(b: ListTasksResponseBuilder) -> Result<ListTasksResponse> {
        Ok(ListTasksResponse {
            tasks: checked(b.tasks, b.error)?,
            next_page_token: b.next_page_token,
            page_size: b.page_size,
            total_size: b.total_size,
        })
    }
}

/// A `CancelTaskRequest` being read.
#[derive(Debug, Default)]
pub(crate) struct CancelBuilder {
    tenant: String,
    id: String,
    metadata: Option<StructBuilder>,
}

impl Fields for CancelBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            2 => self.id = r.string(wt).map_err(at("id"))?,
            3 => r
                .opt_message(wt, &mut self.metadata, depth)
                .map_err(at("metadata"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for CancelTaskRequest {
    type Builder = CancelBuilder;

    fn finish(b: CancelBuilder) -> Result<CancelTaskRequest> {
        Ok(CancelTaskRequest {
            tenant: b.tenant,
            id: b.id,
            metadata: finish_opt(b.metadata, "metadata")?,
        })
    }
}

impl Fields for GetTaskPushNotificationConfigRequest {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            2 => self.task_id = r.string(wt).map_err(at("taskId"))?,
            3 => self.id = r.string(wt).map_err(at("id"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for DeleteTaskPushNotificationConfigRequest {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            2 => self.task_id = r.string(wt).map_err(at("taskId"))?,
            3 => self.id = r.string(wt).map_err(at("id"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for SubscribeToTaskRequest {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            2 => self.id = r.string(wt).map_err(at("id"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// `tenant` is field 4 here, added after the others.
impl Fields for ListTaskPushNotificationConfigsRequest {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.task_id = r.string(wt).map_err(at("taskId"))?,
            2 => self.page_size = r.int32(wt).map_err(at("pageSize"))?,
            3 => self.page_token = r.string(wt).map_err(at("pageToken"))?,
            4 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Fields for GetExtendedAgentCardRequest {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => self.tenant = r.string(wt).map_err(at("tenant"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

/// A `SendMessageResponse` being read: the `payload` oneof.
// Unboxed, as the model's enum is: it lives only while its message is
// read, and boxing would allocate.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Default)]
pub(crate) enum SendResponseBuilder {
    #[default]
    Unset,
    Task(TaskBuilder),
    Message(MessageBuilder),
}

impl Fields for SendResponseBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => r
                .message(wt, member!(*self, SendResponseBuilder::Task), depth)
                .map_err(at("task"))?,
            2 => r
                .message(wt, member!(*self, SendResponseBuilder::Message), depth)
                .map_err(at("message"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for SendMessageResponse {
    type Builder = SendResponseBuilder;

    fn finish(b: SendResponseBuilder) -> Result<SendMessageResponse> {
        Ok(match b {
            SendResponseBuilder::Task(t) => SendMessageResponse::Task(finish_in(t, "task")?),
            SendResponseBuilder::Message(m) => {
                SendMessageResponse::Message(finish_in(m, "message")?)
            }
            SendResponseBuilder::Unset => return empty_oneof(SEND_RESPONSE_ONEOF),
        })
    }
}

/// A `StreamResponse` being read: the `payload` oneof.
#[derive(Debug, Default)]
pub(crate) enum StreamResponseBuilder {
    #[default]
    Unset,
    Task(TaskBuilder),
    Message(MessageBuilder),
    StatusUpdate(StatusUpdateBuilder),
    ArtifactUpdate(ArtifactUpdateBuilder),
}

impl Fields for StreamResponseBuilder {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => r
                .message(wt, member!(*self, StreamResponseBuilder::Task), depth)
                .map_err(at("task"))?,
            2 => r
                .message(wt, member!(*self, StreamResponseBuilder::Message), depth)
                .map_err(at("message"))?,
            3 => r
                .message(
                    wt,
                    member!(*self, StreamResponseBuilder::StatusUpdate),
                    depth,
                )
                .map_err(at("statusUpdate"))?,
            4 => r
                .message(
                    wt,
                    member!(*self, StreamResponseBuilder::ArtifactUpdate),
                    depth,
                )
                .map_err(at("artifactUpdate"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

impl Build for StreamResponse {
    type Builder = StreamResponseBuilder;

    fn finish(b: StreamResponseBuilder) -> Result<StreamResponse> {
        Ok(match b {
            StreamResponseBuilder::Task(t) => StreamResponse::Task(finish_in(t, "task")?),
            StreamResponseBuilder::Message(m) => StreamResponse::Message(finish_in(m, "message")?),
            StreamResponseBuilder::StatusUpdate(u) => {
                StreamResponse::StatusUpdate(finish_in(u, "statusUpdate")?)
            }
            StreamResponseBuilder::ArtifactUpdate(u) => {
                StreamResponse::ArtifactUpdate(finish_in(u, "artifactUpdate")?)
            }
            StreamResponseBuilder::Unset => return empty_oneof(STREAM_RESPONSE_ONEOF),
        })
    }
}

impl Fields for ListTaskPushNotificationConfigsResponse {
    fn merge_field(&mut self, tag: u32, wt: u8, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        match tag {
            1 => {
                // Its elements are never refused: no error to keep.
                r.element(wt, &mut self.configs, &mut None, depth, Some("configs"))?;
            }
            2 => self.next_page_token = r.string(wt).map_err(at("nextPageToken"))?,
            _ => r.skip(wt, tag, depth)?,
        }
        Ok(())
    }
}

plain!(
    SendMessageConfiguration,
    AuthenticationInfo,
    AgentInterface,
    AgentProvider,
    AgentSkill,
    TaskPushNotificationConfig,
    StringList,
    SecurityRequirement,
    APIKeySecurityScheme,
    HTTPAuthSecurityScheme,
    OpenIdConnectSecurityScheme,
    MutualTlsSecurityScheme,
    AuthorizationCodeOAuthFlow,
    ClientCredentialsOAuthFlow,
    ImplicitOAuthFlow,
    PasswordOAuthFlow,
    DeviceCodeOAuthFlow,
    GetTaskRequest,
    GetTaskPushNotificationConfigRequest,
    DeleteTaskPushNotificationConfigRequest,
    SubscribeToTaskRequest,
    ListTaskPushNotificationConfigsRequest,
    GetExtendedAgentCardRequest,
    ListTaskPushNotificationConfigsResponse,
);
