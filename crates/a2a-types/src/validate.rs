//! REQUIRED-field validation (spec 5.7), reported as
//! `google.rpc.BadRequest.fieldViolations` (spec 3.3.2, 9.5, 11.6).
//!
//! The rules are documented on [`Validate`].

use std::collections::BTreeMap;
use std::fmt;

use crate::agent_card::{
    AgentCapabilities, AgentCard, AgentCardSignature, AgentExtension, AgentInterface,
    AgentProvider, AgentSkill,
};
use crate::error::FieldViolation;
use crate::events::{StreamResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent};
use crate::message::{Artifact, Message, Part, Role};
use crate::push::{AuthenticationInfo, TaskPushNotificationConfig};
use crate::requests::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, SubscribeToTaskRequest,
};
use crate::security::{
    APIKeySecurityScheme, AuthorizationCodeOAuthFlow, ClientCredentialsOAuthFlow,
    DeviceCodeOAuthFlow, HTTPAuthSecurityScheme, ImplicitOAuthFlow, MutualTlsSecurityScheme,
    OAuth2SecurityScheme, OAuthFlows, OpenIdConnectSecurityScheme, PasswordOAuthFlow,
    SecurityRequirement, SecurityScheme, StringList,
};
use crate::task::{Task, TaskState, TaskStatus};

/// Where a value sits in a document, built on the stack while validating;
/// it becomes a `String` only when a violation is reported.
#[derive(Debug, Clone, Copy)]
pub struct FieldPath<'a> {
    parent: Option<&'a FieldPath<'a>>,
    segment: Segment<'a>,
}

#[derive(Debug, Clone, Copy)]
enum Segment<'a> {
    Root,
    Field(&'a str),
    Index(usize),
    Key(&'a str),
}

impl<'a> FieldPath<'a> {
    /// The top of the document (renders as the empty string).
    pub const fn root() -> FieldPath<'static> {
        FieldPath {
            parent: None,
            segment: Segment::Root,
        }
    }

    /// The field `name` (its JSON name) of the value here.
    pub const fn field(&'a self, name: &'a str) -> FieldPath<'a> {
        FieldPath {
            parent: Some(self),
            segment: Segment::Field(name),
        }
    }

    /// Element `index` of the list here.
    pub const fn index(&'a self, index: usize) -> FieldPath<'a> {
        FieldPath {
            parent: Some(self),
            segment: Segment::Index(index),
        }
    }

    /// Entry `key` of the map here (rendered `["key"]`).
    pub const fn key(&'a self, key: &'a str) -> FieldPath<'a> {
        FieldPath {
            parent: Some(self),
            segment: Segment::Key(key),
        }
    }

    fn is_root(&self) -> bool {
        matches!(self.segment, Segment::Root)
    }
}

impl fmt::Display for FieldPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(parent) = self.parent {
            fmt::Display::fmt(parent, f)?;
        }
        match self.segment {
            Segment::Root => Ok(()),
            Segment::Field(name) => {
                if self.parent.is_some_and(|p| !p.is_root()) {
                    f.write_str(".")?;
                }
                f.write_str(name)
            }
            Segment::Index(i) => write!(f, "[{i}]"),
            Segment::Key(key) => {
                f.write_str("[")?;
                // A JSON string literal: quotes and escapes as in the input.
                match serde_json::to_string(key) {
                    Ok(quoted) => f.write_str(&quoted)?,
                    Err(_) => return Err(fmt::Error),
                }
                f.write_str("]")
            }
        }
    }
}

/// Validation of REQUIRED fields (spec 5.7), implemented by every message
/// of the proto, reporting every missing field as a [`FieldViolation`].
///
/// Decoding fills absent fields with their defaults, so validation judges
/// the typed value. The rules, one per kind of REQUIRED field:
///
/// - **string**: empty is missing. Spec 5.7 asks REQUIRED fields to be
///   "present and set", and proto3 cannot tell an absent string from `""`
///   (the wire oracle, which looks at JSON keys, accepts `""`; this crate
///   follows the spec text). One exception: `ListTasksResponse.nextPageToken`,
///   which spec 3.1.4 requires to be `""` on the last page.
/// - **repeated**: empty is missing ("Arrays marked as required MUST
///   contain at least one element", spec 5.7; for parts the description is
///   the spec's own, "At least one part is required"). One exception:
///   `ListTasksResponse.tasks`, where an empty page is a valid answer.
/// - **map** (the OAuth flows' `scopes`): never missing; an empty scope
///   map is valid OAuth/OpenAPI and proto3 cannot tell it from an absent one.
/// - **enum**: the `*_UNSPECIFIED` zero value is missing.
/// - **int32** (`ListTasksResponse.pageSize`, `totalSize`): never missing;
///   zero is a valid count.
/// - **message** held by value: when it equals its default (it was absent,
///   `null` or `{}`), the field itself is reported once; otherwise its own
///   REQUIRED fields are checked. `AgentCard.capabilities` has no REQUIRED
///   field of its own, so it cannot be missing. `OAuth2SecurityScheme.flows`
///   is an `Option` (a oneof has no default) and is missing when `None`.
///
/// Nested messages are checked wherever they occur, with their JSON path
/// (`message.parts`, `tasks[0].status.state`,
/// `securitySchemes["oauth"].oauth2SecurityScheme.flows`).
///
/// ```
/// use a2a_types::{FieldViolation, Message, SendMessageRequest, Validate};
///
/// let req = SendMessageRequest::new(Message::user_text("", "hi"));
/// assert_eq!(
///     req.validate(),
///     Err(vec![FieldViolation {
///         field: "message.messageId".into(),
///         description: "Required field is missing".into(),
///     }])
/// );
/// ```
pub trait Validate {
    /// Appends a violation for every missing REQUIRED field of this value
    /// and of the messages it contains, with paths below `at`.
    fn validate_at(&self, at: &FieldPath<'_>, violations: &mut Vec<FieldViolation>);

    /// Every missing REQUIRED field, or `Ok(())` when there is none.
    fn validate(&self) -> Result<(), Vec<FieldViolation>> {
        let mut violations = Vec::new();
        self.validate_at(&FieldPath::root(), &mut violations);
        if violations.is_empty() {
            Ok(())
        } else {
            Err(violations)
        }
    }
}

impl<T: Validate + ?Sized> Validate for Box<T> {
    fn validate_at(&self, at: &FieldPath<'_>, violations: &mut Vec<FieldViolation>) {
        (**self).validate_at(at, violations);
    }
}

const MISSING: &str = "Required field is missing";
const EMPTY_LIST: &str = "At least one element is required";
const NO_PARTS: &str = "At least one part is required";

fn report(out: &mut Vec<FieldViolation>, at: &FieldPath<'_>, description: impl Into<String>) {
    out.push(FieldViolation {
        field: at.to_string(),
        description: description.into(),
    });
}

fn string(out: &mut Vec<FieldViolation>, at: &FieldPath<'_>, name: &str, value: &str) {
    if value.is_empty() {
        report(out, &at.field(name), MISSING);
    }
}

fn non_empty<T>(
    out: &mut Vec<FieldViolation>,
    at: &FieldPath<'_>,
    name: &str,
    list: &[T],
    description: &str,
) {
    if list.is_empty() {
        report(out, &at.field(name), description);
    }
}

fn each<T: Validate>(out: &mut Vec<FieldViolation>, at: &FieldPath<'_>, name: &str, list: &[T]) {
    let field = at.field(name);
    for (i, item) in list.iter().enumerate() {
        item.validate_at(&field.index(i), out);
    }
}

fn each_value<T: Validate>(
    out: &mut Vec<FieldViolation>,
    at: &FieldPath<'_>,
    name: &str,
    map: &BTreeMap<String, T>,
) {
    let field = at.field(name);
    for (key, item) in map {
        item.validate_at(&field.key(key), out);
    }
}

fn optional<T: Validate>(
    out: &mut Vec<FieldViolation>,
    at: &FieldPath<'_>,
    name: &str,
    value: &Option<T>,
) {
    if let Some(v) = value {
        v.validate_at(&at.field(name), out);
    }
}

/// A REQUIRED message held by value: reported once when it is the default
/// message, checked field by field otherwise.
///
/// The default of every message passed here lacks a REQUIRED field of its
/// own (`tests/validate.rs` checks it), so only a message with violations can be
/// the default one: a valid message is never compared with it.
fn required_message<T: Validate + Default + PartialEq>(
    out: &mut Vec<FieldViolation>,
    at: &FieldPath<'_>,
    name: &str,
    value: &T,
) {
    let before = out.len();
    value.validate_at(&at.field(name), out);
    if out.len() > before && *value == T::default() {
        out.truncate(before);
        report(out, &at.field(name), MISSING);
    }
}

fn role(out: &mut Vec<FieldViolation>, at: &FieldPath<'_>, value: Role) {
    if value == Role::Unspecified {
        report(
            out,
            &at.field("role"),
            "Required field is missing (ROLE_UNSPECIFIED is not a role)",
        );
    }
}

fn state(out: &mut Vec<FieldViolation>, at: &FieldPath<'_>, value: TaskState) {
    if value == TaskState::Unspecified {
        report(
            out,
            &at.field("state"),
            "Required field is missing (TASK_STATE_UNSPECIFIED is not a state)",
        );
    }
}

/// Implements `Validate` for messages without REQUIRED fields or nested
/// messages that have any.
macro_rules! nothing_required {
    ($($ty:ty),+ $(,)?) => {
        $(
            impl Validate for $ty {
                fn validate_at(&self, _: &FieldPath<'_>, _: &mut Vec<FieldViolation>) {}
            }
        )+
    };
}

nothing_required!(
    Part,
    AgentExtension,
    StringList,
    SecurityRequirement,
    MutualTlsSecurityScheme,
    ImplicitOAuthFlow,
    PasswordOAuthFlow,
    ListTasksRequest,
    GetExtendedAgentCardRequest,
);

impl Validate for SendMessageConfiguration {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        optional(
            out,
            at,
            "taskPushNotificationConfig",
            &self.task_push_notification_config,
        );
    }
}

impl Validate for Task {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "id", &self.id);
        required_message(out, at, "status", &self.status);
        each(out, at, "artifacts", &self.artifacts);
        each(out, at, "history", &self.history);
        #[cfg(feature = "draft-1-1")]
        each(out, at, "timeline", &self.timeline);
    }
}

impl Validate for TaskStatus {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        state(out, at, self.state);
        optional(out, at, "message", &self.message);
    }
}

impl Validate for Message {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "messageId", &self.message_id);
        role(out, at, self.role);
        non_empty(out, at, "parts", &self.parts, NO_PARTS);
        each(out, at, "parts", &self.parts);
    }
}

impl Validate for Artifact {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "artifactId", &self.artifact_id);
        non_empty(out, at, "parts", &self.parts, NO_PARTS);
        each(out, at, "parts", &self.parts);
    }
}

impl Validate for TaskStatusUpdateEvent {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "taskId", &self.task_id);
        string(out, at, "contextId", &self.context_id);
        required_message(out, at, "status", &self.status);
    }
}

impl Validate for TaskArtifactUpdateEvent {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "taskId", &self.task_id);
        string(out, at, "contextId", &self.context_id);
        required_message(out, at, "artifact", &self.artifact);
    }
}

impl Validate for AuthenticationInfo {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "scheme", &self.scheme);
    }
}

impl Validate for AgentInterface {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "url", &self.url);
        string(out, at, "protocolBinding", &self.protocol_binding);
        string(out, at, "protocolVersion", &self.protocol_version);
    }
}

impl Validate for AgentCard {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "name", &self.name);
        string(out, at, "description", &self.description);
        non_empty(
            out,
            at,
            "supportedInterfaces",
            &self.supported_interfaces,
            EMPTY_LIST,
        );
        each(out, at, "supportedInterfaces", &self.supported_interfaces);
        optional(out, at, "provider", &self.provider);
        string(out, at, "version", &self.version);
        self.capabilities
            .validate_at(&at.field("capabilities"), out);
        each_value(out, at, "securitySchemes", &self.security_schemes);
        each(out, at, "securityRequirements", &self.security_requirements);
        non_empty(
            out,
            at,
            "defaultInputModes",
            &self.default_input_modes,
            EMPTY_LIST,
        );
        non_empty(
            out,
            at,
            "defaultOutputModes",
            &self.default_output_modes,
            EMPTY_LIST,
        );
        non_empty(out, at, "skills", &self.skills, EMPTY_LIST);
        each(out, at, "skills", &self.skills);
        each(out, at, "signatures", &self.signatures);
    }
}

impl Validate for AgentProvider {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "url", &self.url);
        string(out, at, "organization", &self.organization);
    }
}

impl Validate for AgentCapabilities {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        each(out, at, "extensions", &self.extensions);
    }
}

impl Validate for AgentSkill {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "id", &self.id);
        string(out, at, "name", &self.name);
        string(out, at, "description", &self.description);
        non_empty(out, at, "tags", &self.tags, EMPTY_LIST);
        each(out, at, "securityRequirements", &self.security_requirements);
    }
}

impl Validate for AgentCardSignature {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "protected", &self.protected);
        string(out, at, "signature", &self.signature);
    }
}

impl Validate for TaskPushNotificationConfig {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "url", &self.url);
        optional(out, at, "authentication", &self.authentication);
    }
}

impl Validate for SecurityScheme {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        match self {
            SecurityScheme::ApiKey(s) => s.validate_at(&at.field("apiKeySecurityScheme"), out),
            SecurityScheme::HttpAuth(s) => s.validate_at(&at.field("httpAuthSecurityScheme"), out),
            SecurityScheme::OAuth2(s) => s.validate_at(&at.field("oauth2SecurityScheme"), out),
            SecurityScheme::OpenIdConnect(s) => {
                s.validate_at(&at.field("openIdConnectSecurityScheme"), out)
            }
            SecurityScheme::MutualTls(s) => s.validate_at(&at.field("mtlsSecurityScheme"), out),
        }
    }
}

impl Validate for APIKeySecurityScheme {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "location", &self.location);
        string(out, at, "name", &self.name);
    }
}

impl Validate for HTTPAuthSecurityScheme {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "scheme", &self.scheme);
    }
}

impl Validate for OAuth2SecurityScheme {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        match &self.flows {
            None => report(out, &at.field("flows"), MISSING),
            Some(flows) => flows.validate_at(&at.field("flows"), out),
        }
    }
}

impl Validate for OpenIdConnectSecurityScheme {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "openIdConnectUrl", &self.open_id_connect_url);
    }
}

impl Validate for OAuthFlows {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        match self {
            OAuthFlows::AuthorizationCode(f) => f.validate_at(&at.field("authorizationCode"), out),
            OAuthFlows::ClientCredentials(f) => f.validate_at(&at.field("clientCredentials"), out),
            OAuthFlows::Implicit(f) => f.validate_at(&at.field("implicit"), out),
            OAuthFlows::Password(f) => f.validate_at(&at.field("password"), out),
            OAuthFlows::DeviceCode(f) => f.validate_at(&at.field("deviceCode"), out),
        }
    }
}

impl Validate for AuthorizationCodeOAuthFlow {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "authorizationUrl", &self.authorization_url);
        string(out, at, "tokenUrl", &self.token_url);
    }
}

impl Validate for ClientCredentialsOAuthFlow {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "tokenUrl", &self.token_url);
    }
}

impl Validate for DeviceCodeOAuthFlow {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(
            out,
            at,
            "deviceAuthorizationUrl",
            &self.device_authorization_url,
        );
        string(out, at, "tokenUrl", &self.token_url);
    }
}

impl Validate for SendMessageRequest {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        required_message(out, at, "message", &self.message);
        optional(out, at, "configuration", &self.configuration);
    }
}

impl Validate for GetTaskRequest {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "id", &self.id);
    }
}

impl Validate for ListTasksResponse {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        // `tasks` may be empty and `nextPageToken` is "" on the last page
        // (spec 3.1.4); the two counts are plain numbers.
        each(out, at, "tasks", &self.tasks);
    }
}

impl Validate for CancelTaskRequest {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "id", &self.id);
    }
}

impl Validate for GetTaskPushNotificationConfigRequest {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "taskId", &self.task_id);
        string(out, at, "id", &self.id);
    }
}

impl Validate for DeleteTaskPushNotificationConfigRequest {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "taskId", &self.task_id);
        string(out, at, "id", &self.id);
    }
}

impl Validate for SubscribeToTaskRequest {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "id", &self.id);
    }
}

impl Validate for ListTaskPushNotificationConfigsRequest {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        string(out, at, "taskId", &self.task_id);
    }
}

impl Validate for SendMessageResponse {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        match self {
            SendMessageResponse::Task(t) => t.validate_at(&at.field("task"), out),
            SendMessageResponse::Message(m) => m.validate_at(&at.field("message"), out),
        }
    }
}

impl Validate for StreamResponse {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        match self {
            StreamResponse::Task(t) => t.validate_at(&at.field("task"), out),
            StreamResponse::Message(m) => m.validate_at(&at.field("message"), out),
            StreamResponse::StatusUpdate(e) => e.validate_at(&at.field("statusUpdate"), out),
            StreamResponse::ArtifactUpdate(e) => e.validate_at(&at.field("artifactUpdate"), out),
        }
    }
}

impl Validate for ListTaskPushNotificationConfigsResponse {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        each(out, at, "configs", &self.configs);
    }
}

impl<T: Validate + ?Sized> Validate for &T {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        (**self).validate_at(at, out);
    }
}

#[cfg(feature = "draft-1-1")]
impl Validate for crate::task::TimelineEntry {
    fn validate_at(&self, at: &FieldPath<'_>, out: &mut Vec<FieldViolation>) {
        match &self.entry {
            Some(crate::task::TimelineContent::Message(m)) => {
                m.validate_at(&at.field("message"), out)
            }
            Some(crate::task::TimelineContent::Status(s)) => {
                s.validate_at(&at.field("status"), out)
            }
            None => {}
        }
    }
}
