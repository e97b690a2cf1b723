//! The one conversion layer between the generated protobuf messages
//! ([`crate::pb`]) and the `a2a-types` model: one [`Protobuf`] impl per
//! message type of the proto, plus `google.protobuf.Struct`, `Value` and
//! `Timestamp`.
//!
//! The rules (also in `docs/decisions.md`):
//!
//! - Every field of the proto is carried both ways. REQUIRED message
//!   fields, which the model holds as plain values, are always written
//!   (as ProtoJSON writes them) and read as the default when absent.
//! - Unknown fields are skipped (proto3); unknown enum numbers and
//!   oneof-only messages with no member are errors, as in ProtoJSON
//!   decoding ([`ProtoErrorKind`]).
//! - Numbers in `Struct`/`Value` are doubles in the proto. A double that is
//!   a whole number in the range of `i64` or `u64` (and not `-0.0`) is read
//!   as that integer, any other as a float; so integers up to 2^53 and
//!   every float survive a round trip, and larger integers become the
//!   nearest double, as in every protobuf implementation.

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
use serde_json::{Number, Value};

use crate::error::{ProtoError, ProtoErrorKind};
use crate::pb;
use crate::reader::ProtoRead;
use crate::wire::ProtoWrite;

/// The largest input [`decode`](crate::decode) accepts: 16 MiB, the same default as the
/// JSON decoders ([`a2a_types::DEFAULT_MAX_INPUT_BYTES`]).
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// A model type with a protobuf form: the generated message it converts to
/// and from.
///
/// Encoding cannot fail; decoding fails on what the model refuses
/// ([`ProtoErrorKind`]), naming the field's JSON path.
///
/// Implemented by this crate for the model's types only: each also has a
/// writer of its wire bytes (`ProtoWrite`, sealed), which [`encode`]
/// uses instead of building [`Protobuf::to_message`], and a reader
/// (`ProtoRead`, sealed), which [`decode`] uses instead of prost's
/// decoding then [`Protobuf::from_message`], with the same result.
///
/// [`encode`]: crate::encode
/// [`decode`]: crate::decode
pub trait Protobuf: Sized + ProtoWrite + ProtoRead {
    /// The generated prost message.
    type Message: prost::Message + Default;

    /// The protobuf message holding this value.
    fn to_message(&self) -> Self::Message;

    /// The value a protobuf message holds.
    fn from_message(message: Self::Message) -> std::result::Result<Self, ProtoError>;
}

type Result<T> = std::result::Result<T, ProtoError>;

// ---------------------------------------------------------------------------
// Helpers: fields, lists, maps, enums.

fn opt<T: Protobuf>(message: Option<T::Message>, field: &'static str) -> Result<Option<T>> {
    message
        .map(|m| T::from_message(m).map_err(|e| e.in_field(field)))
        .transpose()
}

/// A REQUIRED message field, plain in the model: absent reads as default.
fn required<T: Protobuf + Default>(message: Option<T::Message>, field: &'static str) -> Result<T> {
    Ok(opt(message, field)?.unwrap_or_default())
}

fn list<T: Protobuf>(messages: Vec<T::Message>, field: &'static str) -> Result<Vec<T>> {
    messages
        .into_iter()
        .enumerate()
        .map(|(i, m)| T::from_message(m).map_err(|e| e.in_index(i).in_field(field)))
        .collect()
}

fn map<T: Protobuf>(
    messages: BTreeMap<String, T::Message>,
    field: &'static str,
) -> Result<BTreeMap<String, T>> {
    messages
        .into_iter()
        .map(|(k, m)| match T::from_message(m) {
            Ok(v) => Ok((k, v)),
            Err(e) => Err(e.in_key(&k).in_field(field)),
        })
        .collect()
}

fn to_list<T: Protobuf>(values: &[T]) -> Vec<T::Message> {
    values.iter().map(Protobuf::to_message).collect()
}

fn to_map<T: Protobuf>(values: &BTreeMap<String, T>) -> BTreeMap<String, T::Message> {
    values
        .iter()
        .map(|(k, v)| (k.clone(), v.to_message()))
        .collect()
}

fn to_opt<T: Protobuf>(value: Option<&T>) -> Option<T::Message> {
    value.map(Protobuf::to_message)
}

fn enum_value<E: TryFrom<i32, Error = UnknownEnumValue>>(
    number: i32,
    field: &'static str,
) -> Result<E> {
    E::try_from(number).map_err(|e| ProtoError::new(ProtoErrorKind::UnknownEnum(e)).in_field(field))
}

fn empty_oneof<T>(what: &'static str) -> Result<T> {
    Err(ProtoError::new(ProtoErrorKind::EmptyOneof(what)))
}

// ---------------------------------------------------------------------------
// google.protobuf: Struct, Value, Timestamp, Empty.

impl Protobuf for Struct {
    type Message = prost_types::Struct;

    fn to_message(&self) -> prost_types::Struct {
        prost_types::Struct {
            fields: self
                .iter()
                .map(|(k, v)| (k.clone(), v.to_message()))
                .collect(),
        }
    }

    fn from_message(message: prost_types::Struct) -> Result<Struct> {
        message
            .fields
            .into_iter()
            .map(|(k, v)| match Value::from_message(v) {
                Ok(v) => Ok((k, v)),
                Err(e) => Err(e.in_key(&k)),
            })
            .collect()
    }
}

/// `google.protobuf.Value` is any JSON value; see the module docs for
/// numbers. A `Value` with no kind set reads as `null`.
impl Protobuf for Value {
    type Message = prost_types::Value;

    fn to_message(&self) -> prost_types::Value {
        use prost_types::value::Kind;
        let kind = match self {
            Value::Null => Kind::NullValue(prost_types::NullValue::NullValue as i32),
            Value::Bool(b) => Kind::BoolValue(*b),
            Value::Number(n) => Kind::NumberValue(number_to_f64(n)),
            Value::String(s) => Kind::StringValue(s.clone()),
            Value::Array(items) => Kind::ListValue(prost_types::ListValue {
                values: items.iter().map(Protobuf::to_message).collect(),
            }),
            Value::Object(map) => Kind::StructValue(map.to_message()),
        };
        prost_types::Value { kind: Some(kind) }
    }

    fn from_message(message: prost_types::Value) -> Result<Value> {
        use prost_types::value::Kind;
        Ok(match message.kind {
            None | Some(Kind::NullValue(_)) => Value::Null,
            Some(Kind::BoolValue(b)) => Value::Bool(b),
            Some(Kind::NumberValue(f)) => Value::Number(number_from_f64(f)?),
            Some(Kind::StringValue(s)) => Value::String(s),
            Some(Kind::ListValue(list)) => Value::Array(
                list.values
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| Value::from_message(v).map_err(|e| e.in_index(i)))
                    .collect::<Result<_>>()?,
            ),
            Some(Kind::StructValue(s)) => Value::Object(Struct::from_message(s)?),
        })
    }
}

/// A JSON number as the proto's double: the nearest one. A number only
/// `serde_json/arbitrary_precision` can hold past the double range reads
/// as an infinity of its sign.
pub(crate) fn number_to_f64(n: &Number) -> f64 {
    if let Some(f) = n.as_f64() {
        return f;
    }
    let text = n.to_string();
    text.parse::<f64>().unwrap_or(if text.starts_with('-') {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    })
}

/// 2^63 and 2^64 as doubles (exact).
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

/// A double as a JSON number: whole numbers in the `i64`/`u64` range (but
/// not `-0.0`) as integers, the rest as floats; NaN and infinities fail.
pub(crate) fn number_from_f64(f: f64) -> Result<Number> {
    if !f.is_finite() {
        return Err(ProtoErrorKind::NonFiniteNumber(f).into());
    }
    let whole = f.fract() == 0.0 && !(f == 0.0 && f.is_sign_negative());
    if whole && (-TWO_POW_63..TWO_POW_63).contains(&f) {
        // In range and whole, so the cast is exact.
        return Ok(Number::from(f as i64));
    }
    if whole && (TWO_POW_63..TWO_POW_64).contains(&f) {
        return Ok(Number::from(f as u64));
    }
    Number::from_f64(f).ok_or_else(|| ProtoErrorKind::NonFiniteNumber(f).into())
}

impl Protobuf for Timestamp {
    type Message = prost_types::Timestamp;

    fn to_message(&self) -> prost_types::Timestamp {
        prost_types::Timestamp {
            seconds: self.seconds(),
            nanos: self.nanos(),
        }
    }

    fn from_message(message: prost_types::Timestamp) -> Result<Timestamp> {
        Timestamp::new(message.seconds, message.nanos)
            .map_err(|e| ProtoError::new(ProtoErrorKind::Timestamp(e)))
    }
}

/// `google.protobuf.Empty`, which prost generates as `()`.
impl Protobuf for Empty {
    type Message = ();

    fn to_message(&self) {}

    fn from_message((): ()) -> Result<Empty> {
        Ok(Empty)
    }
}

// ---------------------------------------------------------------------------
// Messages, in the order of the proto.

// `history_length` is deprecated in the 1.1 draft (for the timeline), and
// still carried.
#[cfg_attr(feature = "draft-1-1", allow(deprecated))]
impl Protobuf for SendMessageConfiguration {
    type Message = pb::SendMessageConfiguration;

    fn to_message(&self) -> pb::SendMessageConfiguration {
        pb::SendMessageConfiguration {
            accepted_output_modes: self.accepted_output_modes.clone(),
            task_push_notification_config: self
                .task_push_notification_config
                .as_deref()
                .map(Protobuf::to_message),
            history_length: self.history_length,
            #[cfg(feature = "draft-1-1")]
            timeline_length: self.timeline_length,
            return_immediately: self.return_immediately,
            #[cfg(feature = "draft-1-1")]
            if_generation_match: self.if_generation_match,
        }
    }

    fn from_message(m: pb::SendMessageConfiguration) -> Result<Self> {
        Ok(SendMessageConfiguration {
            accepted_output_modes: m.accepted_output_modes,
            task_push_notification_config: opt(
                m.task_push_notification_config,
                "taskPushNotificationConfig",
            )?
            .map(Box::new),
            history_length: m.history_length,
            return_immediately: m.return_immediately,
            #[cfg(feature = "draft-1-1")]
            timeline_length: m.timeline_length,
            #[cfg(feature = "draft-1-1")]
            if_generation_match: m.if_generation_match,
            ..Default::default()
        })
    }
}

// `history` is deprecated in the 1.1 draft (for the timeline), and still
// carried.
#[cfg_attr(feature = "draft-1-1", allow(deprecated))]
impl Protobuf for Task {
    type Message = pb::Task;

    fn to_message(&self) -> pb::Task {
        pb::Task {
            id: self.id.clone(),
            context_id: self.context_id.clone(),
            status: Some(self.status.to_message()),
            artifacts: to_list(&self.artifacts),
            history: to_list(&self.history),
            #[cfg(feature = "draft-1-1")]
            timeline: to_list(&self.timeline),
            metadata: to_opt(self.metadata.as_ref()),
            #[cfg(feature = "draft-1-1")]
            generation: self.generation,
        }
    }

    fn from_message(m: pb::Task) -> Result<Self> {
        Ok(Task {
            id: m.id,
            context_id: m.context_id,
            status: required(m.status, "status")?,
            artifacts: list(m.artifacts, "artifacts")?,
            history: list(m.history, "history")?,
            metadata: opt(m.metadata, "metadata")?,
            #[cfg(feature = "draft-1-1")]
            timeline: list(m.timeline, "timeline")?,
            #[cfg(feature = "draft-1-1")]
            generation: m.generation,
            ..Default::default()
        })
    }
}

impl Protobuf for TaskStatus {
    type Message = pb::TaskStatus;

    fn to_message(&self) -> pb::TaskStatus {
        pb::TaskStatus {
            state: self.state.number(),
            message: to_opt(self.message.as_ref()),
            timestamp: to_opt(self.timestamp.as_ref()),
        }
    }

    fn from_message(m: pb::TaskStatus) -> Result<Self> {
        Ok(TaskStatus {
            state: enum_value::<TaskState>(m.state, "state")?,
            message: opt(m.message, "message")?,
            timestamp: opt(m.timestamp, "timestamp")?,
        })
    }
}

pub(crate) const PART_ONEOF: &str =
    "a Part must have exactly one of `text`, `raw`, `url` or `data`";

impl Protobuf for Part {
    type Message = pb::Part;

    fn to_message(&self) -> pb::Part {
        use pb::part::Content;
        let content = match &self.content {
            PartContent::Text(text) => Content::Text(text.clone()),
            PartContent::Raw(bytes) => Content::Raw(bytes.clone()),
            PartContent::Url(url) => Content::Url(url.clone()),
            PartContent::Data(value) => Content::Data(value.to_message()),
        };
        pb::Part {
            content: Some(content),
            metadata: to_opt(self.metadata.as_ref()),
            filename: self.filename.clone(),
            media_type: self.media_type.clone(),
        }
    }

    fn from_message(m: pb::Part) -> Result<Self> {
        use pb::part::Content;
        let content = match m.content {
            Some(Content::Text(text)) => PartContent::Text(text),
            Some(Content::Raw(bytes)) => PartContent::Raw(bytes),
            Some(Content::Url(url)) => PartContent::Url(url),
            Some(Content::Data(value)) => {
                PartContent::Data(Value::from_message(value).map_err(|e| e.in_field("data"))?)
            }
            None => return empty_oneof(PART_ONEOF),
        };
        Ok(Part {
            content,
            metadata: opt(m.metadata, "metadata")?,
            filename: m.filename,
            media_type: m.media_type,
        })
    }
}

impl Protobuf for Message {
    type Message = pb::Message;

    fn to_message(&self) -> pb::Message {
        pb::Message {
            message_id: self.message_id.clone(),
            context_id: self.context_id.clone(),
            task_id: self.task_id.clone(),
            role: self.role.number(),
            parts: to_list(&self.parts),
            metadata: to_opt(self.metadata.as_ref()),
            extensions: self.extensions.clone(),
            reference_task_ids: self.reference_task_ids.clone(),
        }
    }

    fn from_message(m: pb::Message) -> Result<Self> {
        Ok(Message {
            message_id: m.message_id,
            context_id: m.context_id,
            task_id: m.task_id,
            role: enum_value::<Role>(m.role, "role")?,
            parts: list(m.parts, "parts")?,
            metadata: opt(m.metadata, "metadata")?,
            extensions: m.extensions,
            reference_task_ids: m.reference_task_ids,
        })
    }
}

impl Protobuf for Artifact {
    type Message = pb::Artifact;

    fn to_message(&self) -> pb::Artifact {
        pb::Artifact {
            artifact_id: self.artifact_id.clone(),
            name: self.name.clone(),
            description: self.description.clone(),
            parts: to_list(&self.parts),
            metadata: to_opt(self.metadata.as_ref()),
            extensions: self.extensions.clone(),
            #[cfg(feature = "draft-1-1")]
            start_generation: self.start_generation,
            #[cfg(feature = "draft-1-1")]
            end_generation: self.end_generation,
        }
    }

    fn from_message(m: pb::Artifact) -> Result<Self> {
        Ok(Artifact {
            artifact_id: m.artifact_id,
            name: m.name,
            description: m.description,
            parts: list(m.parts, "parts")?,
            metadata: opt(m.metadata, "metadata")?,
            extensions: m.extensions,
            #[cfg(feature = "draft-1-1")]
            start_generation: m.start_generation,
            #[cfg(feature = "draft-1-1")]
            end_generation: m.end_generation,
            ..Default::default()
        })
    }
}

/// A timeline entry (1.1 draft). The `entry` oneof is an extension point
/// (draft spec 3.2.8): an entry with no member, or with one a later version
/// adds (an unknown field to this proto), is an entry of unknown kind,
/// `entry: None`, kept with its generation rather than refused.
#[cfg(feature = "draft-1-1")]
impl Protobuf for a2a_types::draft_1_1::TimelineEntry {
    type Message = pb::TimelineEntry;

    fn to_message(&self) -> pb::TimelineEntry {
        use a2a_types::draft_1_1::TimelineContent;
        use pb::timeline_entry::Entry;
        pb::TimelineEntry {
            generation: self.generation,
            entry: self.entry.as_ref().map(|entry| match entry {
                TimelineContent::Message(m) => Entry::Message(m.to_message()),
                TimelineContent::Status(st) => Entry::Status(st.to_message()),
            }),
        }
    }

    fn from_message(m: pb::TimelineEntry) -> Result<Self> {
        use a2a_types::draft_1_1::TimelineContent;
        use pb::timeline_entry::Entry;
        let entry = match m.entry {
            Some(Entry::Message(message)) => Some(TimelineContent::Message(
                Protobuf::from_message(message).map_err(|e| e.in_field("message"))?,
            )),
            Some(Entry::Status(status)) => Some(TimelineContent::Status(
                Protobuf::from_message(status).map_err(|e| e.in_field("status"))?,
            )),
            None => None,
        };
        Ok(a2a_types::draft_1_1::TimelineEntry {
            entry,
            generation: m.generation,
        })
    }
}

impl Protobuf for TaskStatusUpdateEvent {
    type Message = pb::TaskStatusUpdateEvent;

    fn to_message(&self) -> pb::TaskStatusUpdateEvent {
        pb::TaskStatusUpdateEvent {
            task_id: self.task_id.clone(),
            context_id: self.context_id.clone(),
            status: Some(self.status.to_message()),
            metadata: to_opt(self.metadata.as_ref()),
            #[cfg(feature = "draft-1-1")]
            generation: self.generation,
        }
    }

    fn from_message(m: pb::TaskStatusUpdateEvent) -> Result<Self> {
        Ok(TaskStatusUpdateEvent {
            task_id: m.task_id,
            context_id: m.context_id,
            status: required(m.status, "status")?,
            metadata: opt(m.metadata, "metadata")?,
            #[cfg(feature = "draft-1-1")]
            generation: m.generation,
            ..Default::default()
        })
    }
}

impl Protobuf for TaskArtifactUpdateEvent {
    type Message = pb::TaskArtifactUpdateEvent;

    fn to_message(&self) -> pb::TaskArtifactUpdateEvent {
        pb::TaskArtifactUpdateEvent {
            task_id: self.task_id.clone(),
            context_id: self.context_id.clone(),
            artifact: Some(self.artifact.to_message()),
            append: self.append,
            last_chunk: self.last_chunk,
            metadata: to_opt(self.metadata.as_ref()),
            #[cfg(feature = "draft-1-1")]
            generation: self.generation,
        }
    }

    fn from_message(m: pb::TaskArtifactUpdateEvent) -> Result<Self> {
        Ok(TaskArtifactUpdateEvent {
            task_id: m.task_id,
            context_id: m.context_id,
            artifact: required(m.artifact, "artifact")?,
            append: m.append,
            last_chunk: m.last_chunk,
            metadata: opt(m.metadata, "metadata")?,
            #[cfg(feature = "draft-1-1")]
            generation: m.generation,
            ..Default::default()
        })
    }
}

impl Protobuf for AuthenticationInfo {
    type Message = pb::AuthenticationInfo;

    fn to_message(&self) -> pb::AuthenticationInfo {
        pb::AuthenticationInfo {
            scheme: self.scheme.clone(),
            credentials: self.credentials.clone(),
        }
    }

    fn from_message(m: pb::AuthenticationInfo) -> Result<Self> {
        Ok(AuthenticationInfo {
            scheme: m.scheme,
            credentials: m.credentials,
        })
    }
}

impl Protobuf for AgentInterface {
    type Message = pb::AgentInterface;

    fn to_message(&self) -> pb::AgentInterface {
        pb::AgentInterface {
            url: self.url.clone(),
            protocol_binding: self.protocol_binding.clone(),
            tenant: self.tenant.clone(),
            protocol_version: self.protocol_version.clone(),
        }
    }

    fn from_message(m: pb::AgentInterface) -> Result<Self> {
        Ok(AgentInterface {
            url: m.url,
            protocol_binding: m.protocol_binding,
            tenant: m.tenant,
            protocol_version: m.protocol_version,
        })
    }
}

impl Protobuf for AgentCard {
    type Message = pb::AgentCard;

    fn to_message(&self) -> pb::AgentCard {
        pb::AgentCard {
            name: self.name.clone(),
            description: self.description.clone(),
            supported_interfaces: to_list(&self.supported_interfaces),
            provider: to_opt(self.provider.as_ref()),
            version: self.version.clone(),
            documentation_url: self.documentation_url.clone(),
            capabilities: Some(self.capabilities.to_message()),
            security_schemes: to_map(&self.security_schemes),
            security_requirements: to_list(&self.security_requirements),
            default_input_modes: self.default_input_modes.clone(),
            default_output_modes: self.default_output_modes.clone(),
            skills: to_list(&self.skills),
            signatures: to_list(&self.signatures),
            icon_url: self.icon_url.clone(),
        }
    }

    fn from_message(m: pb::AgentCard) -> Result<Self> {
        Ok(AgentCard {
            name: m.name,
            description: m.description,
            supported_interfaces: list(m.supported_interfaces, "supportedInterfaces")?,
            provider: opt(m.provider, "provider")?,
            version: m.version,
            documentation_url: m.documentation_url,
            capabilities: required(m.capabilities, "capabilities")?,
            security_schemes: map(m.security_schemes, "securitySchemes")?,
            security_requirements: list(m.security_requirements, "securityRequirements")?,
            default_input_modes: m.default_input_modes,
            default_output_modes: m.default_output_modes,
            skills: list(m.skills, "skills")?,
            signatures: list(m.signatures, "signatures")?,
            icon_url: m.icon_url,
        })
    }
}

impl Protobuf for AgentProvider {
    type Message = pb::AgentProvider;

    fn to_message(&self) -> pb::AgentProvider {
        pb::AgentProvider {
            url: self.url.clone(),
            organization: self.organization.clone(),
        }
    }

    fn from_message(m: pb::AgentProvider) -> Result<Self> {
        Ok(AgentProvider {
            url: m.url,
            organization: m.organization,
        })
    }
}

impl Protobuf for AgentCapabilities {
    type Message = pb::AgentCapabilities;

    fn to_message(&self) -> pb::AgentCapabilities {
        pb::AgentCapabilities {
            streaming: self.streaming,
            push_notifications: self.push_notifications,
            extensions: to_list(&self.extensions),
            extended_agent_card: self.extended_agent_card,
        }
    }

    fn from_message(m: pb::AgentCapabilities) -> Result<Self> {
        Ok(AgentCapabilities {
            streaming: m.streaming,
            push_notifications: m.push_notifications,
            extensions: list(m.extensions, "extensions")?,
            extended_agent_card: m.extended_agent_card,
        })
    }
}

impl Protobuf for AgentExtension {
    type Message = pb::AgentExtension;

    fn to_message(&self) -> pb::AgentExtension {
        pb::AgentExtension {
            uri: self.uri.clone(),
            description: self.description.clone(),
            required: self.required,
            params: to_opt(self.params.as_ref()),
        }
    }

    fn from_message(m: pb::AgentExtension) -> Result<Self> {
        Ok(AgentExtension {
            uri: m.uri,
            description: m.description,
            required: m.required,
            params: opt(m.params, "params")?,
        })
    }
}

impl Protobuf for AgentSkill {
    type Message = pb::AgentSkill;

    fn to_message(&self) -> pb::AgentSkill {
        pb::AgentSkill {
            id: self.id.clone(),
            name: self.name.clone(),
            description: self.description.clone(),
            tags: self.tags.clone(),
            examples: self.examples.clone(),
            input_modes: self.input_modes.clone(),
            output_modes: self.output_modes.clone(),
            security_requirements: to_list(&self.security_requirements),
        }
    }

    fn from_message(m: pb::AgentSkill) -> Result<Self> {
        Ok(AgentSkill {
            id: m.id,
            name: m.name,
            description: m.description,
            tags: m.tags,
            examples: m.examples,
            input_modes: m.input_modes,
            output_modes: m.output_modes,
            security_requirements: list(m.security_requirements, "securityRequirements")?,
        })
    }
}

impl Protobuf for AgentCardSignature {
    type Message = pb::AgentCardSignature;

    fn to_message(&self) -> pb::AgentCardSignature {
        pb::AgentCardSignature {
            protected: self.protected.clone(),
            signature: self.signature.clone(),
            header: to_opt(self.header.as_ref()),
        }
    }

    fn from_message(m: pb::AgentCardSignature) -> Result<Self> {
        Ok(AgentCardSignature {
            protected: m.protected,
            signature: m.signature,
            header: opt(m.header, "header")?,
        })
    }
}

impl Protobuf for TaskPushNotificationConfig {
    type Message = pb::TaskPushNotificationConfig;

    fn to_message(&self) -> pb::TaskPushNotificationConfig {
        pb::TaskPushNotificationConfig {
            tenant: self.tenant.clone(),
            id: self.id.clone(),
            task_id: self.task_id.clone(),
            url: self.url.clone(),
            token: self.token.clone(),
            authentication: to_opt(self.authentication.as_ref()),
        }
    }

    fn from_message(m: pb::TaskPushNotificationConfig) -> Result<Self> {
        Ok(TaskPushNotificationConfig {
            tenant: m.tenant,
            id: m.id,
            task_id: m.task_id,
            url: m.url,
            token: m.token,
            authentication: opt(m.authentication, "authentication")?,
        })
    }
}

impl Protobuf for StringList {
    type Message = pb::StringList;

    fn to_message(&self) -> pb::StringList {
        pb::StringList {
            list: self.list.clone(),
        }
    }

    fn from_message(m: pb::StringList) -> Result<Self> {
        Ok(StringList { list: m.list })
    }
}

impl Protobuf for SecurityRequirement {
    type Message = pb::SecurityRequirement;

    fn to_message(&self) -> pb::SecurityRequirement {
        pb::SecurityRequirement {
            schemes: to_map(&self.schemes),
        }
    }

    fn from_message(m: pb::SecurityRequirement) -> Result<Self> {
        Ok(SecurityRequirement {
            schemes: map(m.schemes, "schemes")?,
        })
    }
}

pub(crate) const SCHEME_ONEOF: &str =
    "a SecurityScheme must have exactly one of `apiKeySecurityScheme`, \
    `httpAuthSecurityScheme`, `oauth2SecurityScheme`, `openIdConnectSecurityScheme` or \
    `mtlsSecurityScheme`";

impl Protobuf for SecurityScheme {
    type Message = pb::SecurityScheme;

    fn to_message(&self) -> pb::SecurityScheme {
        use pb::security_scheme::Scheme;
        let scheme = match self {
            SecurityScheme::ApiKey(s) => Scheme::ApiKeySecurityScheme(s.to_message()),
            SecurityScheme::HttpAuth(s) => Scheme::HttpAuthSecurityScheme(s.to_message()),
            SecurityScheme::OAuth2(s) => Scheme::Oauth2SecurityScheme(s.to_message()),
            SecurityScheme::OpenIdConnect(s) => Scheme::OpenIdConnectSecurityScheme(s.to_message()),
            SecurityScheme::MutualTls(s) => Scheme::MtlsSecurityScheme(s.to_message()),
        };
        pb::SecurityScheme {
            scheme: Some(scheme),
        }
    }

    fn from_message(m: pb::SecurityScheme) -> Result<Self> {
        use pb::security_scheme::Scheme;
        Ok(match m.scheme {
            Some(Scheme::ApiKeySecurityScheme(s)) => SecurityScheme::ApiKey(
                Protobuf::from_message(s).map_err(|e| e.in_field("apiKeySecurityScheme"))?,
            ),
            Some(Scheme::HttpAuthSecurityScheme(s)) => SecurityScheme::HttpAuth(
                Protobuf::from_message(s).map_err(|e| e.in_field("httpAuthSecurityScheme"))?,
            ),
            Some(Scheme::Oauth2SecurityScheme(s)) => SecurityScheme::OAuth2(
                Protobuf::from_message(s).map_err(|e| e.in_field("oauth2SecurityScheme"))?,
            ),
            Some(Scheme::OpenIdConnectSecurityScheme(s)) => SecurityScheme::OpenIdConnect(
                Protobuf::from_message(s).map_err(|e| e.in_field("openIdConnectSecurityScheme"))?,
            ),
            Some(Scheme::MtlsSecurityScheme(s)) => SecurityScheme::MutualTls(
                Protobuf::from_message(s).map_err(|e| e.in_field("mtlsSecurityScheme"))?,
            ),
            None => return empty_oneof(SCHEME_ONEOF),
        })
    }
}

impl Protobuf for APIKeySecurityScheme {
    type Message = pb::ApiKeySecurityScheme;

    fn to_message(&self) -> pb::ApiKeySecurityScheme {
        pb::ApiKeySecurityScheme {
            description: self.description.clone(),
            location: self.location.clone(),
            name: self.name.clone(),
        }
    }

    fn from_message(m: pb::ApiKeySecurityScheme) -> Result<Self> {
        Ok(APIKeySecurityScheme {
            description: m.description,
            location: m.location,
            name: m.name,
        })
    }
}

impl Protobuf for HTTPAuthSecurityScheme {
    type Message = pb::HttpAuthSecurityScheme;

    fn to_message(&self) -> pb::HttpAuthSecurityScheme {
        pb::HttpAuthSecurityScheme {
            description: self.description.clone(),
            scheme: self.scheme.clone(),
            bearer_format: self.bearer_format.clone(),
        }
    }

    fn from_message(m: pb::HttpAuthSecurityScheme) -> Result<Self> {
        Ok(HTTPAuthSecurityScheme {
            description: m.description,
            scheme: m.scheme,
            bearer_format: m.bearer_format,
        })
    }
}

impl Protobuf for OAuth2SecurityScheme {
    type Message = pb::OAuth2SecurityScheme;

    fn to_message(&self) -> pb::OAuth2SecurityScheme {
        pb::OAuth2SecurityScheme {
            description: self.description.clone(),
            flows: to_opt(self.flows.as_ref()),
            oauth2_metadata_url: self.oauth2_metadata_url.clone(),
        }
    }

    fn from_message(m: pb::OAuth2SecurityScheme) -> Result<Self> {
        Ok(OAuth2SecurityScheme {
            description: m.description,
            flows: opt(m.flows, "flows")?,
            oauth2_metadata_url: m.oauth2_metadata_url,
        })
    }
}

impl Protobuf for OpenIdConnectSecurityScheme {
    type Message = pb::OpenIdConnectSecurityScheme;

    fn to_message(&self) -> pb::OpenIdConnectSecurityScheme {
        pb::OpenIdConnectSecurityScheme {
            description: self.description.clone(),
            open_id_connect_url: self.open_id_connect_url.clone(),
        }
    }

    fn from_message(m: pb::OpenIdConnectSecurityScheme) -> Result<Self> {
        Ok(OpenIdConnectSecurityScheme {
            description: m.description,
            open_id_connect_url: m.open_id_connect_url,
        })
    }
}

impl Protobuf for MutualTlsSecurityScheme {
    type Message = pb::MutualTlsSecurityScheme;

    fn to_message(&self) -> pb::MutualTlsSecurityScheme {
        pb::MutualTlsSecurityScheme {
            description: self.description.clone(),
        }
    }

    fn from_message(m: pb::MutualTlsSecurityScheme) -> Result<Self> {
        Ok(MutualTlsSecurityScheme {
            description: m.description,
        })
    }
}

pub(crate) const FLOWS_ONEOF: &str = "OAuthFlows must have exactly one of `authorizationCode`, \
    `clientCredentials`, `implicit`, `password` or `deviceCode`";

// `implicit` and `password` are deprecated in the proto, and still carried.
#[allow(deprecated)]
impl Protobuf for OAuthFlows {
    type Message = pb::OAuthFlows;

    fn to_message(&self) -> pb::OAuthFlows {
        use pb::o_auth_flows::Flow;
        let flow = match self {
            OAuthFlows::AuthorizationCode(f) => Flow::AuthorizationCode(f.to_message()),
            OAuthFlows::ClientCredentials(f) => Flow::ClientCredentials(f.to_message()),
            OAuthFlows::Implicit(f) => Flow::Implicit(f.to_message()),
            OAuthFlows::Password(f) => Flow::Password(f.to_message()),
            OAuthFlows::DeviceCode(f) => Flow::DeviceCode(f.to_message()),
        };
        pb::OAuthFlows { flow: Some(flow) }
    }

    fn from_message(m: pb::OAuthFlows) -> Result<Self> {
        use pb::o_auth_flows::Flow;
        Ok(match m.flow {
            Some(Flow::AuthorizationCode(f)) => OAuthFlows::AuthorizationCode(
                Protobuf::from_message(f).map_err(|e| e.in_field("authorizationCode"))?,
            ),
            Some(Flow::ClientCredentials(f)) => OAuthFlows::ClientCredentials(
                Protobuf::from_message(f).map_err(|e| e.in_field("clientCredentials"))?,
            ),
            Some(Flow::Implicit(f)) => {
                OAuthFlows::Implicit(Protobuf::from_message(f).map_err(|e| e.in_field("implicit"))?)
            }
            Some(Flow::Password(f)) => {
                OAuthFlows::Password(Protobuf::from_message(f).map_err(|e| e.in_field("password"))?)
            }
            Some(Flow::DeviceCode(f)) => OAuthFlows::DeviceCode(
                Protobuf::from_message(f).map_err(|e| e.in_field("deviceCode"))?,
            ),
            None => return empty_oneof(FLOWS_ONEOF),
        })
    }
}

impl Protobuf for AuthorizationCodeOAuthFlow {
    type Message = pb::AuthorizationCodeOAuthFlow;

    fn to_message(&self) -> pb::AuthorizationCodeOAuthFlow {
        pb::AuthorizationCodeOAuthFlow {
            authorization_url: self.authorization_url.clone(),
            token_url: self.token_url.clone(),
            refresh_url: self.refresh_url.clone(),
            scopes: self.scopes.clone(),
            pkce_required: self.pkce_required,
        }
    }

    fn from_message(m: pb::AuthorizationCodeOAuthFlow) -> Result<Self> {
        Ok(AuthorizationCodeOAuthFlow {
            authorization_url: m.authorization_url,
            token_url: m.token_url,
            refresh_url: m.refresh_url,
            scopes: m.scopes,
            pkce_required: m.pkce_required,
        })
    }
}

impl Protobuf for ClientCredentialsOAuthFlow {
    type Message = pb::ClientCredentialsOAuthFlow;

    fn to_message(&self) -> pb::ClientCredentialsOAuthFlow {
        pb::ClientCredentialsOAuthFlow {
            token_url: self.token_url.clone(),
            refresh_url: self.refresh_url.clone(),
            scopes: self.scopes.clone(),
        }
    }

    fn from_message(m: pb::ClientCredentialsOAuthFlow) -> Result<Self> {
        Ok(ClientCredentialsOAuthFlow {
            token_url: m.token_url,
            refresh_url: m.refresh_url,
            scopes: m.scopes,
        })
    }
}

impl Protobuf for ImplicitOAuthFlow {
    type Message = pb::ImplicitOAuthFlow;

    fn to_message(&self) -> pb::ImplicitOAuthFlow {
        pb::ImplicitOAuthFlow {
            authorization_url: self.authorization_url.clone(),
            refresh_url: self.refresh_url.clone(),
            scopes: self.scopes.clone(),
        }
    }

    fn from_message(m: pb::ImplicitOAuthFlow) -> Result<Self> {
        Ok(ImplicitOAuthFlow {
            authorization_url: m.authorization_url,
            refresh_url: m.refresh_url,
            scopes: m.scopes,
        })
    }
}

impl Protobuf for PasswordOAuthFlow {
    type Message = pb::PasswordOAuthFlow;

    fn to_message(&self) -> pb::PasswordOAuthFlow {
        pb::PasswordOAuthFlow {
            token_url: self.token_url.clone(),
            refresh_url: self.refresh_url.clone(),
            scopes: self.scopes.clone(),
        }
    }

    fn from_message(m: pb::PasswordOAuthFlow) -> Result<Self> {
        Ok(PasswordOAuthFlow {
            token_url: m.token_url,
            refresh_url: m.refresh_url,
            scopes: m.scopes,
        })
    }
}

impl Protobuf for DeviceCodeOAuthFlow {
    type Message = pb::DeviceCodeOAuthFlow;

    fn to_message(&self) -> pb::DeviceCodeOAuthFlow {
        pb::DeviceCodeOAuthFlow {
            device_authorization_url: self.device_authorization_url.clone(),
            token_url: self.token_url.clone(),
            refresh_url: self.refresh_url.clone(),
            scopes: self.scopes.clone(),
        }
    }

    fn from_message(m: pb::DeviceCodeOAuthFlow) -> Result<Self> {
        Ok(DeviceCodeOAuthFlow {
            device_authorization_url: m.device_authorization_url,
            token_url: m.token_url,
            refresh_url: m.refresh_url,
            scopes: m.scopes,
        })
    }
}

impl Protobuf for SendMessageRequest {
    type Message = pb::SendMessageRequest;

    fn to_message(&self) -> pb::SendMessageRequest {
        pb::SendMessageRequest {
            tenant: self.tenant.clone(),
            message: Some(self.message.to_message()),
            configuration: to_opt(self.configuration.as_ref()),
            metadata: to_opt(self.metadata.as_ref()),
        }
    }

    fn from_message(m: pb::SendMessageRequest) -> Result<Self> {
        Ok(SendMessageRequest {
            tenant: m.tenant,
            message: required(m.message, "message")?,
            configuration: opt(m.configuration, "configuration")?,
            metadata: opt(m.metadata, "metadata")?,
        })
    }
}

// `history_length` is deprecated in the 1.1 draft, and still carried.
#[cfg_attr(feature = "draft-1-1", allow(deprecated))]
impl Protobuf for GetTaskRequest {
    type Message = pb::GetTaskRequest;

    fn to_message(&self) -> pb::GetTaskRequest {
        pb::GetTaskRequest {
            tenant: self.tenant.clone(),
            id: self.id.clone(),
            history_length: self.history_length,
            #[cfg(feature = "draft-1-1")]
            timeline_length: self.timeline_length,
            #[cfg(feature = "draft-1-1")]
            current_generation: self.current_generation,
        }
    }

    fn from_message(m: pb::GetTaskRequest) -> Result<Self> {
        Ok(GetTaskRequest {
            tenant: m.tenant,
            id: m.id,
            history_length: m.history_length,
            #[cfg(feature = "draft-1-1")]
            timeline_length: m.timeline_length,
            #[cfg(feature = "draft-1-1")]
            current_generation: m.current_generation,
            ..Default::default()
        })
    }
}

// `history_length` is deprecated in the 1.1 draft, and still carried.
#[cfg_attr(feature = "draft-1-1", allow(deprecated))]
impl Protobuf for ListTasksRequest {
    type Message = pb::ListTasksRequest;

    fn to_message(&self) -> pb::ListTasksRequest {
        pb::ListTasksRequest {
            tenant: self.tenant.clone(),
            context_id: self.context_id.clone(),
            status: self.status.number(),
            page_size: self.page_size,
            page_token: self.page_token.clone(),
            history_length: self.history_length,
            #[cfg(feature = "draft-1-1")]
            timeline_length: self.timeline_length,
            status_timestamp_after: to_opt(self.status_timestamp_after.as_ref()),
            include_artifacts: self.include_artifacts,
        }
    }

    fn from_message(m: pb::ListTasksRequest) -> Result<Self> {
        Ok(ListTasksRequest {
            tenant: m.tenant,
            context_id: m.context_id,
            status: enum_value::<TaskState>(m.status, "status")?,
            page_size: m.page_size,
            page_token: m.page_token,
            history_length: m.history_length,
            status_timestamp_after: opt(m.status_timestamp_after, "statusTimestampAfter")?,
            include_artifacts: m.include_artifacts,
            #[cfg(feature = "draft-1-1")]
            timeline_length: m.timeline_length,
            ..Default::default()
        })
    }
}

impl Protobuf for ListTasksResponse {
    type Message = pb::ListTasksResponse;

    fn to_message(&self) -> pb::ListTasksResponse {
        pb::ListTasksResponse {
            tasks: to_list(&self.tasks),
            next_page_token: self.next_page_token.clone(),
            page_size: self.page_size,
            total_size: self.total_size,
        }
    }

    fn from_message(m: pb::ListTasksResponse) -> Result<Self> {
        Ok(ListTasksResponse {
            tasks: list(m.tasks, "tasks")?,
            next_page_token: m.next_page_token,
            page_size: m.page_size,
            total_size: m.total_size,
        })
    }
}

impl Protobuf for CancelTaskRequest {
    type Message = pb::CancelTaskRequest;

    fn to_message(&self) -> pb::CancelTaskRequest {
        pb::CancelTaskRequest {
            tenant: self.tenant.clone(),
            id: self.id.clone(),
            metadata: to_opt(self.metadata.as_ref()),
        }
    }

    fn from_message(m: pb::CancelTaskRequest) -> Result<Self> {
        Ok(CancelTaskRequest {
            tenant: m.tenant,
            id: m.id,
            metadata: opt(m.metadata, "metadata")?,
        })
    }
}

impl Protobuf for GetTaskPushNotificationConfigRequest {
    type Message = pb::GetTaskPushNotificationConfigRequest;

    fn to_message(&self) -> pb::GetTaskPushNotificationConfigRequest {
        pb::GetTaskPushNotificationConfigRequest {
            tenant: self.tenant.clone(),
            task_id: self.task_id.clone(),
            id: self.id.clone(),
        }
    }

    fn from_message(m: pb::GetTaskPushNotificationConfigRequest) -> Result<Self> {
        Ok(GetTaskPushNotificationConfigRequest {
            tenant: m.tenant,
            task_id: m.task_id,
            id: m.id,
        })
    }
}

impl Protobuf for DeleteTaskPushNotificationConfigRequest {
    type Message = pb::DeleteTaskPushNotificationConfigRequest;

    fn to_message(&self) -> pb::DeleteTaskPushNotificationConfigRequest {
        pb::DeleteTaskPushNotificationConfigRequest {
            tenant: self.tenant.clone(),
            task_id: self.task_id.clone(),
            id: self.id.clone(),
        }
    }

    fn from_message(m: pb::DeleteTaskPushNotificationConfigRequest) -> Result<Self> {
        Ok(DeleteTaskPushNotificationConfigRequest {
            tenant: m.tenant,
            task_id: m.task_id,
            id: m.id,
        })
    }
}

impl Protobuf for SubscribeToTaskRequest {
    type Message = pb::SubscribeToTaskRequest;

    fn to_message(&self) -> pb::SubscribeToTaskRequest {
        pb::SubscribeToTaskRequest {
            tenant: self.tenant.clone(),
            id: self.id.clone(),
        }
    }

    fn from_message(m: pb::SubscribeToTaskRequest) -> Result<Self> {
        Ok(SubscribeToTaskRequest {
            tenant: m.tenant,
            id: m.id,
        })
    }
}

impl Protobuf for ListTaskPushNotificationConfigsRequest {
    type Message = pb::ListTaskPushNotificationConfigsRequest;

    fn to_message(&self) -> pb::ListTaskPushNotificationConfigsRequest {
        pb::ListTaskPushNotificationConfigsRequest {
            tenant: self.tenant.clone(),
            task_id: self.task_id.clone(),
            page_size: self.page_size,
            page_token: self.page_token.clone(),
        }
    }

    fn from_message(m: pb::ListTaskPushNotificationConfigsRequest) -> Result<Self> {
        Ok(ListTaskPushNotificationConfigsRequest {
            tenant: m.tenant,
            task_id: m.task_id,
            page_size: m.page_size,
            page_token: m.page_token,
        })
    }
}

impl Protobuf for GetExtendedAgentCardRequest {
    type Message = pb::GetExtendedAgentCardRequest;

    fn to_message(&self) -> pb::GetExtendedAgentCardRequest {
        pb::GetExtendedAgentCardRequest {
            tenant: self.tenant.clone(),
        }
    }

    fn from_message(m: pb::GetExtendedAgentCardRequest) -> Result<Self> {
        Ok(GetExtendedAgentCardRequest { tenant: m.tenant })
    }
}

pub(crate) const SEND_RESPONSE_ONEOF: &str =
    "a SendMessageResponse must have exactly one of `task` or `message`";

impl Protobuf for SendMessageResponse {
    type Message = pb::SendMessageResponse;

    fn to_message(&self) -> pb::SendMessageResponse {
        use pb::send_message_response::Payload;
        let payload = match self {
            SendMessageResponse::Task(t) => Payload::Task(t.to_message()),
            SendMessageResponse::Message(m) => Payload::Message(m.to_message()),
        };
        pb::SendMessageResponse {
            payload: Some(payload),
        }
    }

    fn from_message(m: pb::SendMessageResponse) -> Result<Self> {
        use pb::send_message_response::Payload;
        Ok(match m.payload {
            Some(Payload::Task(t)) => SendMessageResponse::Task(
                Protobuf::from_message(t).map_err(|e| e.in_field("task"))?,
            ),
            Some(Payload::Message(m)) => SendMessageResponse::Message(
                Protobuf::from_message(m).map_err(|e| e.in_field("message"))?,
            ),
            None => return empty_oneof(SEND_RESPONSE_ONEOF),
        })
    }
}

pub(crate) const STREAM_RESPONSE_ONEOF: &str =
    "a StreamResponse must have exactly one of `task`, `message`, \
    `statusUpdate` or `artifactUpdate`";

impl Protobuf for StreamResponse {
    type Message = pb::StreamResponse;

    fn to_message(&self) -> pb::StreamResponse {
        use pb::stream_response::Payload;
        let payload = match self {
            StreamResponse::Task(t) => Payload::Task(t.to_message()),
            StreamResponse::Message(m) => Payload::Message(m.to_message()),
            StreamResponse::StatusUpdate(u) => Payload::StatusUpdate(u.to_message()),
            StreamResponse::ArtifactUpdate(u) => Payload::ArtifactUpdate(u.to_message()),
        };
        pb::StreamResponse {
            payload: Some(payload),
        }
    }

    fn from_message(m: pb::StreamResponse) -> Result<Self> {
        use pb::stream_response::Payload;
        Ok(match m.payload {
            Some(Payload::Task(t)) => {
                StreamResponse::Task(Protobuf::from_message(t).map_err(|e| e.in_field("task"))?)
            }
            Some(Payload::Message(m)) => StreamResponse::Message(
                Protobuf::from_message(m).map_err(|e| e.in_field("message"))?,
            ),
            Some(Payload::StatusUpdate(u)) => StreamResponse::StatusUpdate(
                Protobuf::from_message(u).map_err(|e| e.in_field("statusUpdate"))?,
            ),
            Some(Payload::ArtifactUpdate(u)) => StreamResponse::ArtifactUpdate(
                Protobuf::from_message(u).map_err(|e| e.in_field("artifactUpdate"))?,
            ),
            None => return empty_oneof(STREAM_RESPONSE_ONEOF),
        })
    }
}

impl Protobuf for ListTaskPushNotificationConfigsResponse {
    type Message = pb::ListTaskPushNotificationConfigsResponse;

    fn to_message(&self) -> pb::ListTaskPushNotificationConfigsResponse {
        pb::ListTaskPushNotificationConfigsResponse {
            configs: to_list(&self.configs),
            next_page_token: self.next_page_token.clone(),
        }
    }

    fn from_message(m: pb::ListTaskPushNotificationConfigsResponse) -> Result<Self> {
        Ok(ListTaskPushNotificationConfigsResponse {
            configs: list(m.configs, "configs")?,
            next_page_token: m.next_page_token,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{decode, decode_with_limit, encode};
    use prost::Message as _;

    #[test]
    fn doubles_become_integers_only_when_whole_and_in_range() {
        let n = |f: f64| number_from_f64(f).map(|n| n.to_string());
        assert_eq!(n(3.0).as_deref(), Ok("3"));
        assert_eq!(n(-3.0).as_deref(), Ok("-3"));
        assert_eq!(n(0.5).as_deref(), Ok("0.5"));
        assert_eq!(n(-0.0).as_deref(), Ok("-0.0"));
        assert_eq!(n(-TWO_POW_63).as_deref(), Ok("-9223372036854775808"));
        assert_eq!(n(TWO_POW_63).as_deref(), Ok("9223372036854775808"));
        assert_eq!(n(TWO_POW_64).as_deref(), Ok("1.8446744073709552e+19"));
        assert!(number_from_f64(f64::NAN).is_err());
        assert!(number_from_f64(f64::INFINITY).is_err());
    }

    #[test]
    fn a_part_without_content_names_the_oneof() {
        let bytes = pb::Part {
            filename: "a.txt".into(),
            ..Default::default()
        }
        .encode_to_vec();
        let err = decode::<Part>(&bytes).unwrap_err();
        assert!(matches!(err.kind(), ProtoErrorKind::EmptyOneof(_)), "{err}");
    }

    #[test]
    fn unknown_enum_numbers_are_refused_with_their_path() {
        let bytes = pb::Task {
            id: "t".into(),
            status: Some(pb::TaskStatus {
                state: 99,
                ..Default::default()
            }),
            ..Default::default()
        }
        .encode_to_vec();
        let err = decode::<Task>(&bytes).unwrap_err();
        assert_eq!(err.path(), "status.state");
        assert!(err.to_string().contains("99"), "{err}");
    }

    #[test]
    fn unknown_fields_are_skipped() {
        let mut bytes = encode(&GetTaskRequest {
            tenant: String::new(),
            id: "t-1".into(),
            history_length: Some(2),
            ..Default::default()
        });
        // Field 99, varint 7: not in the proto.
        bytes.extend_from_slice(&[0x98, 0x06, 0x07]);
        let back: GetTaskRequest = decode(&bytes).unwrap();
        assert_eq!(back.id, "t-1");
        assert_eq!(back.history_length, Some(2));
    }

    #[test]
    fn limits_and_garbage_are_errors_not_panics() {
        let err = decode_with_limit::<Task>(&[0; 11], 10).unwrap_err();
        assert!(matches!(
            err.kind(),
            ProtoErrorKind::TooLarge { len: 11, limit: 10 }
        ));
        let err = decode::<Task>(&[0x0a, 0x05, b'a']).unwrap_err();
        assert!(matches!(err.kind(), ProtoErrorKind::Wire(_)), "{err}");
        // Invalid UTF-8 in a string field.
        let err = decode::<Task>(&[0x0a, 0x01, 0xff]).unwrap_err();
        assert!(matches!(err.kind(), ProtoErrorKind::Wire(_)), "{err}");
    }

    #[test]
    fn timestamps_out_of_range_are_refused() {
        let bytes = pb::TaskStatus {
            state: 1,
            timestamp: Some(prost_types::Timestamp {
                seconds: i64::MAX,
                nanos: 0,
            }),
            ..Default::default()
        }
        .encode_to_vec();
        let err = decode::<TaskStatus>(&bytes).unwrap_err();
        assert_eq!(err.path(), "timestamp");
        assert!(matches!(err.kind(), ProtoErrorKind::Timestamp(_)));
    }

    #[test]
    fn required_messages_are_written_even_when_default() {
        let task = Task::default();
        let message = task.to_message();
        assert!(message.status.is_some());
        let back: Task = decode(&encode(&task)).unwrap();
        assert_eq!(back, task);
        // And read as the default when a peer leaves them out.
        let bare = pb::Task {
            id: "t".into(),
            ..Default::default()
        };
        let back: Task = decode(&bare.encode_to_vec()).unwrap();
        assert_eq!(back.status, TaskStatus::default());
    }
}
