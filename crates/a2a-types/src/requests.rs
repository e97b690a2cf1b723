//! Request and response messages of the operations (spec 3.1, 3.2).

use serde::{Deserialize, Serialize};

use crate::message::Message;
use crate::protojson::{self, message_impls, oneof_message, Struct};
use crate::push::TaskPushNotificationConfig;
use crate::task::{Task, TaskState};
use crate::timestamp::Timestamp;

/// Options of a `SendMessage` request (spec 3.2.2).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct SendMessageConfiguration {
    /// Media types the client accepts for response parts.
    #[serde(
        default,
        alias = "accepted_output_modes",
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub accepted_output_modes: Vec<String>,
    /// Push notifications for the task this request creates (its `taskId`
    /// should be empty). Boxed: rarely set, and inline it would make every
    /// `SendMessageRequest` (moved several times per decode) 170 bytes
    /// larger.
    #[serde(
        default,
        alias = "task_push_notification_config",
        skip_serializing_if = "Option::is_none"
    )]
    pub task_push_notification_config: Option<Box<TaskPushNotificationConfig>>,
    /// History to include in the response (spec 3.2.4): unset means no
    /// limit, 0 means none.
    #[serde(
        default,
        alias = "history_length",
        deserialize_with = "protojson::optional_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
    /// Return as soon as the task exists instead of waiting for a terminal
    /// or interrupted state (spec 3.2.2 "Execution Mode").
    #[serde(
        default,
        alias = "return_immediately",
        deserialize_with = "protojson::boolean",
        skip_serializing_if = "protojson::is_false"
    )]
    pub return_immediately: bool,
    /// 1.1 draft: reject a continuation unless the task is at this
    /// generation (draft spec 3.2.2, `TaskGenerationMismatchError`);
    /// ignored when the message creates a task.
    #[cfg(feature = "draft-1-1")]
    #[serde(
        default,
        alias = "if_generation_match",
        deserialize_with = "protojson::optional_int64",
        serialize_with = "protojson::serialize_optional_int64",
        skip_serializing_if = "Option::is_none"
    )]
    pub if_generation_match: Option<i64>,
    /// 1.1 draft: at most this many of the most recent timeline entries
    /// (draft spec 3.2.8): unset means no limit, 0 means none.
    #[cfg(feature = "draft-1-1")]
    #[serde(
        default,
        alias = "timeline_length",
        deserialize_with = "protojson::optional_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub timeline_length: Option<i32>,
}

/// The request of `SendMessage` and `SendStreamingMessage` (spec 3.1.1,
/// 3.1.2, 3.2.1). `message` is REQUIRED.
///
/// ```
/// use a2a_types::{Message, SendMessageRequest};
///
/// let req = SendMessageRequest::new(Message::user_text("msg-1", "hello"));
/// assert_eq!(
///     serde_json::to_string(&req).unwrap(),
///     r#"{"message":{"messageId":"msg-1","role":"ROLE_USER","parts":[{"text":"hello"}]}}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct SendMessageRequest {
    /// Routing identifier of the selected interface.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
    /// The message. REQUIRED.
    #[serde(default, deserialize_with = "protojson::message")]
    pub message: Message,
    /// Options of the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<SendMessageConfiguration>,
    /// Custom metadata (spec 3.2.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl SendMessageRequest {
    /// A request carrying `message`, with no configuration.
    pub fn new(message: Message) -> SendMessageRequest {
        SendMessageRequest {
            message,
            ..SendMessageRequest::default()
        }
    }
}

impl From<Message> for SendMessageRequest {
    fn from(message: Message) -> SendMessageRequest {
        SendMessageRequest::new(message)
    }
}

/// The request of `GetTask` (spec 3.1.3). `id` is REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct GetTaskRequest {
    /// Routing identifier of the selected interface.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
    /// The task. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub id: String,
    /// History to include (spec 3.2.4).
    #[serde(
        default,
        alias = "history_length",
        deserialize_with = "protojson::optional_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
    /// 1.1 draft: long-poll: answer once the task's generation is greater
    /// than this (draft spec 3.2.7).
    #[cfg(feature = "draft-1-1")]
    #[serde(
        default,
        alias = "current_generation",
        deserialize_with = "protojson::optional_int64",
        serialize_with = "protojson::serialize_optional_int64",
        skip_serializing_if = "Option::is_none"
    )]
    pub current_generation: Option<i64>,
    /// 1.1 draft: at most this many of the most recent timeline entries
    /// (draft spec 3.2.8): unset means no limit, 0 means none.
    #[cfg(feature = "draft-1-1")]
    #[serde(
        default,
        alias = "timeline_length",
        deserialize_with = "protojson::optional_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub timeline_length: Option<i32>,
}

impl GetTaskRequest {
    /// A request for task `id`.
    pub fn new(id: impl Into<String>) -> GetTaskRequest {
        GetTaskRequest {
            id: id.into(),
            ..GetTaskRequest::default()
        }
    }
}

/// The request of `ListTasks` (spec 3.1.4): filters and pagination.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct ListTasksRequest {
    /// Routing identifier of the selected interface.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
    /// Only tasks of this context.
    #[serde(
        default,
        alias = "context_id",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub context_id: String,
    /// Only tasks in this state (`UNSPECIFIED`: no filter).
    #[serde(default, skip_serializing_if = "is_unspecified")]
    pub status: TaskState,
    /// Maximum tasks to return (1..=100; 50 when unset).
    #[serde(
        default,
        alias = "page_size",
        deserialize_with = "protojson::optional_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub page_size: Option<i32>,
    /// The `nextPageToken` of a previous response.
    #[serde(
        default,
        alias = "page_token",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub page_token: String,
    /// History to include in each task (spec 3.2.4).
    #[serde(
        default,
        alias = "history_length",
        deserialize_with = "protojson::optional_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
    /// Only tasks whose status timestamp is at or after this instant.
    #[serde(
        default,
        alias = "status_timestamp_after",
        skip_serializing_if = "Option::is_none"
    )]
    pub status_timestamp_after: Option<Timestamp>,
    /// Whether to include artifacts (false when unset).
    #[serde(
        default,
        alias = "include_artifacts",
        skip_serializing_if = "Option::is_none"
    )]
    pub include_artifacts: Option<bool>,
    /// 1.1 draft: at most this many of the most recent timeline entries of each task
    /// (draft spec 3.2.8): unset means no limit, 0 means none.
    #[cfg(feature = "draft-1-1")]
    #[serde(
        default,
        alias = "timeline_length",
        deserialize_with = "protojson::optional_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub timeline_length: Option<i32>,
}

fn is_unspecified(state: &TaskState) -> bool {
    *state == TaskState::Unspecified
}

/// The response of `ListTasks` (spec 3.1.4). All four fields are REQUIRED
/// and always written; an empty `tasks` list and an empty `nextPageToken`
/// (the last page) are valid.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct ListTasksResponse {
    /// The tasks of this page. REQUIRED.
    #[serde(default, deserialize_with = "protojson::repeated")]
    pub tasks: Vec<Task>,
    /// Token of the next page; empty on the last page. REQUIRED.
    #[serde(
        default,
        alias = "next_page_token",
        deserialize_with = "protojson::string"
    )]
    pub next_page_token: String,
    /// The page size used. REQUIRED.
    #[serde(default, alias = "page_size", deserialize_with = "protojson::int32")]
    pub page_size: i32,
    /// Tasks available before pagination. REQUIRED.
    #[serde(default, alias = "total_size", deserialize_with = "protojson::int32")]
    pub total_size: i32,
}

/// The request of `CancelTask` (spec 3.1.5). `id` is REQUIRED.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct CancelTaskRequest {
    /// Routing identifier of the selected interface.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
    /// The task. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub id: String,
    /// Custom metadata (spec 3.2.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl CancelTaskRequest {
    /// A request to cancel task `id`.
    pub fn new(id: impl Into<String>) -> CancelTaskRequest {
        CancelTaskRequest {
            id: id.into(),
            ..CancelTaskRequest::default()
        }
    }
}

/// The request of `GetTaskPushNotificationConfig` (spec 3.1.8). `taskId`
/// and `id` are REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct GetTaskPushNotificationConfigRequest {
    /// Routing identifier of the selected interface.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
    /// The task. REQUIRED.
    #[serde(default, alias = "task_id", deserialize_with = "protojson::string")]
    pub task_id: String,
    /// The configuration. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub id: String,
}

/// The request of `DeleteTaskPushNotificationConfig` (spec 3.1.10).
/// `taskId` and `id` are REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct DeleteTaskPushNotificationConfigRequest {
    /// Routing identifier of the selected interface.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
    /// The task. REQUIRED.
    #[serde(default, alias = "task_id", deserialize_with = "protojson::string")]
    pub task_id: String,
    /// The configuration. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub id: String,
}

/// The request of `SubscribeToTask` (spec 3.1.6). `id` is REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct SubscribeToTaskRequest {
    /// Routing identifier of the selected interface.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
    /// The task. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub id: String,
}

/// The request of `ListTaskPushNotificationConfigs` (spec 3.1.9). `taskId`
/// is REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct ListTaskPushNotificationConfigsRequest {
    /// Routing identifier of the selected interface.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
    /// The task. REQUIRED.
    #[serde(default, alias = "task_id", deserialize_with = "protojson::string")]
    pub task_id: String,
    /// Maximum configurations to return (0: the server's default).
    #[serde(
        default,
        alias = "page_size",
        deserialize_with = "protojson::int32",
        skip_serializing_if = "protojson::is_zero"
    )]
    pub page_size: i32,
    /// The `nextPageToken` of a previous response.
    #[serde(
        default,
        alias = "page_token",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub page_token: String,
}

/// The request of `GetExtendedAgentCard` (spec 3.1.11).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct GetExtendedAgentCardRequest {
    /// Routing identifier of the selected interface.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
}

/// The response of `SendMessage` (spec 3.1.1): a task or a direct message,
/// the proto's `payload` oneof. On input, none or both is a decode error.
#[derive(Debug, Clone, PartialEq)]
pub enum SendMessageResponse {
    /// The task created or updated (`task`).
    Task(Task),
    /// A direct reply (`message`).
    Message(Message),
}

oneof_message!(
    SendMessageResponse,
    "a SendMessageResponse must have exactly one of `task` or `message`",
    [Task(Task) = "task", Message(Message) = "message"]
);

/// The response of `ListTaskPushNotificationConfigs` (spec 3.1.9).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct ListTaskPushNotificationConfigsResponse {
    /// The configurations of this page.
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub configs: Vec<TaskPushNotificationConfig>,
    /// Token of the next page; empty on the last page.
    #[serde(
        default,
        alias = "next_page_token",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub next_page_token: String,
}

message_impls!(
    SendMessageConfiguration,
    SendMessageRequest,
    GetTaskRequest,
    ListTasksRequest,
    ListTasksResponse,
    CancelTaskRequest,
    GetTaskPushNotificationConfigRequest,
    DeleteTaskPushNotificationConfigRequest,
    SubscribeToTaskRequest,
    ListTaskPushNotificationConfigsRequest,
    GetExtendedAgentCardRequest,
    ListTaskPushNotificationConfigsResponse
);
