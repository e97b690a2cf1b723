//! The params of the 0.3 methods (0.3 spec 7.1-7.10) as the 1.0 request
//! messages: `MessageSendParams`, `TaskQueryParams`, `TaskIdParams`, the
//! push configuration params; and `null`, the result of
//! `tasks/pushNotificationConfig/delete`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::message::Message;
use crate::operation::Empty;
use crate::protojson::{self, message_impls, Struct};
use crate::requests::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, ListTasksResponse, SendMessageConfiguration, SendMessageRequest,
    SubscribeToTaskRequest,
};
use crate::v0_3::push::WirePushConfig;
use crate::v0_3::{codec, sealed, via, Codec, Refusal};

/// `MessageSendParams`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireSendParams {
    #[serde(default, with = "via::opt")]
    message: Option<Message>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    configuration: Option<WireSendConfiguration>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
}

/// `MessageSendConfiguration`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireSendConfiguration {
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    accepted_output_modes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    blocking: Option<bool>,
    #[serde(
        default,
        deserialize_with = "protojson::optional_int32",
        skip_serializing_if = "Option::is_none"
    )]
    history_length: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    push_notification_config: Option<WirePushConfig>,
}

impl TryFrom<&SendMessageRequest> for WireSendParams {
    type Error = Refusal;

    fn try_from(r: &SendMessageRequest) -> Result<WireSendParams, Refusal> {
        Ok(WireSendParams {
            message: Some(r.message.clone()),
            configuration: r.configuration.as_ref().map(|c| WireSendConfiguration {
                accepted_output_modes: c.accepted_output_modes.clone(),
                blocking: Some(!c.return_immediately),
                history_length: c.history_length,
                push_notification_config: c
                    .task_push_notification_config
                    .as_deref()
                    .map(WirePushConfig::from_model),
            }),
            metadata: r.metadata.clone(),
        })
    }
}

impl TryFrom<WireSendParams> for SendMessageRequest {
    type Error = Refusal;

    fn try_from(w: WireSendParams) -> Result<SendMessageRequest, Refusal> {
        Ok(SendMessageRequest {
            tenant: String::new(),
            // A missing message reads as the empty one, which validation
            // reports as missing (as for 1.0).
            message: w.message.unwrap_or_default(),
            configuration: w.configuration.map(|c| SendMessageConfiguration {
                accepted_output_modes: c.accepted_output_modes,
                task_push_notification_config: c
                    .push_notification_config
                    .map(|p| Box::new(p.into_model(String::new()))),
                history_length: c.history_length,
                // 0.3 blocks unless told not to (0.3 spec 7.1).
                return_immediately: c.blocking == Some(false),
                ..Default::default()
            }),
            metadata: w.metadata,
        })
    }
}

/// `TaskQueryParams` (`tasks/get`).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireTaskQuery {
    #[serde(default, deserialize_with = "protojson::string")]
    id: String,
    #[serde(
        default,
        deserialize_with = "protojson::optional_int32",
        skip_serializing_if = "Option::is_none"
    )]
    history_length: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
}

impl From<&GetTaskRequest> for WireTaskQuery {
    fn from(r: &GetTaskRequest) -> WireTaskQuery {
        WireTaskQuery {
            id: r.id.clone(),
            history_length: r.history_length,
            metadata: None,
        }
    }
}

impl From<WireTaskQuery> for GetTaskRequest {
    fn from(w: WireTaskQuery) -> GetTaskRequest {
        GetTaskRequest {
            tenant: String::new(),
            id: w.id,
            history_length: w.history_length,
            ..Default::default()
        }
    }
}

/// `TaskIdParams` (`tasks/cancel`, `tasks/resubscribe`).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireTaskId {
    #[serde(default, deserialize_with = "protojson::string")]
    id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
}

impl From<&CancelTaskRequest> for WireTaskId {
    fn from(r: &CancelTaskRequest) -> WireTaskId {
        WireTaskId {
            id: r.id.clone(),
            metadata: r.metadata.clone(),
        }
    }
}

impl From<WireTaskId> for CancelTaskRequest {
    fn from(w: WireTaskId) -> CancelTaskRequest {
        CancelTaskRequest {
            tenant: String::new(),
            id: w.id,
            metadata: w.metadata,
        }
    }
}

/// The same `TaskIdParams`; `SubscribeToTaskRequest` has no metadata.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireResubscribe {
    #[serde(default, deserialize_with = "protojson::string")]
    id: String,
    #[serde(default, skip_serializing)]
    metadata: Option<serde::de::IgnoredAny>,
}

impl From<&SubscribeToTaskRequest> for WireResubscribe {
    fn from(r: &SubscribeToTaskRequest) -> WireResubscribe {
        WireResubscribe {
            id: r.id.clone(),
            metadata: None,
        }
    }
}

impl From<WireResubscribe> for SubscribeToTaskRequest {
    fn from(w: WireResubscribe) -> SubscribeToTaskRequest {
        SubscribeToTaskRequest {
            tenant: String::new(),
            id: w.id,
        }
    }
}

/// `GetTaskPushNotificationConfigParams`, `ListTaskPushNotificationConfigParams`
/// and `DeleteTaskPushNotificationConfigParams`: the task under `id`, the
/// configuration under `pushNotificationConfigId`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WirePushConfigParams {
    #[serde(default, deserialize_with = "protojson::string")]
    id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    push_notification_config_id: Option<String>,
    #[serde(default, skip_serializing)]
    metadata: Option<serde::de::IgnoredAny>,
}

impl From<&GetTaskPushNotificationConfigRequest> for WirePushConfigParams {
    fn from(r: &GetTaskPushNotificationConfigRequest) -> WirePushConfigParams {
        WirePushConfigParams {
            id: r.task_id.clone(),
            push_notification_config_id: Some(r.id.clone()),
            metadata: None,
        }
    }
}

/// Without a configuration id, 0.3 means the task's default
/// configuration, whose id is the task id (0.3 spec 7.6).
impl From<WirePushConfigParams> for GetTaskPushNotificationConfigRequest {
    fn from(w: WirePushConfigParams) -> GetTaskPushNotificationConfigRequest {
        GetTaskPushNotificationConfigRequest {
            tenant: String::new(),
            id: w
                .push_notification_config_id
                .unwrap_or_else(|| w.id.clone()),
            task_id: w.id,
        }
    }
}

impl From<&DeleteTaskPushNotificationConfigRequest> for WirePushConfigParams {
    fn from(r: &DeleteTaskPushNotificationConfigRequest) -> WirePushConfigParams {
        WirePushConfigParams {
            id: r.task_id.clone(),
            push_notification_config_id: Some(r.id.clone()),
            metadata: None,
        }
    }
}

impl From<WirePushConfigParams> for DeleteTaskPushNotificationConfigRequest {
    fn from(w: WirePushConfigParams) -> DeleteTaskPushNotificationConfigRequest {
        DeleteTaskPushNotificationConfigRequest {
            tenant: String::new(),
            task_id: w.id,
            // REQUIRED in 0.3; absent reads as empty, which validation reports.
            id: w.push_notification_config_id.unwrap_or_default(),
        }
    }
}

impl From<&ListTaskPushNotificationConfigsRequest> for WirePushConfigParams {
    fn from(r: &ListTaskPushNotificationConfigsRequest) -> WirePushConfigParams {
        WirePushConfigParams {
            id: r.task_id.clone(),
            push_notification_config_id: None,
            metadata: None,
        }
    }
}

impl From<WirePushConfigParams> for ListTaskPushNotificationConfigsRequest {
    fn from(w: WirePushConfigParams) -> ListTaskPushNotificationConfigsRequest {
        ListTaskPushNotificationConfigsRequest {
            tenant: String::new(),
            task_id: w.id,
            page_size: 0,
            page_token: String::new(),
        }
    }
}

/// `agent/getAuthenticatedExtendedCard` takes no params; whatever is
/// there (an object, `null`, nothing) is ignored.
#[derive(Serialize, Deserialize)]
#[serde(remote = "Self")]
pub(crate) struct WireNoParams {}

impl From<&GetExtendedAgentCardRequest> for WireNoParams {
    fn from(_: &GetExtendedAgentCardRequest) -> WireNoParams {
        WireNoParams {}
    }
}

impl From<WireNoParams> for GetExtendedAgentCardRequest {
    fn from(_: WireNoParams) -> GetExtendedAgentCardRequest {
        GetExtendedAgentCardRequest::default()
    }
}

message_impls!(
    WireSendParams,
    WireSendConfiguration,
    WireTaskQuery,
    WireTaskId,
    WireResubscribe,
    WirePushConfigParams,
    WireNoParams,
);

codec!(
    SendMessageRequest => WireSendParams,
    GetTaskRequest => WireTaskQuery,
    CancelTaskRequest => WireTaskId,
    SubscribeToTaskRequest => WireResubscribe,
    GetTaskPushNotificationConfigRequest => WirePushConfigParams,
    ListTaskPushNotificationConfigsRequest => WirePushConfigParams,
    DeleteTaskPushNotificationConfigRequest => WirePushConfigParams,
    GetExtendedAgentCardRequest => WireNoParams,
);

impl sealed::Sealed for ListTasksRequest {}
impl sealed::Sealed for ListTasksResponse {}

const NO_LIST_TASKS: &str = "0.3 has no tasks/list: ListTasks has no 0.3 form";

/// Refused both ways: 0.3 has no `tasks/list` (see `MAPPING`). The impl
/// exists so that tables over every operation can name it.
impl Codec for ListTasksRequest {
    fn serialize_v0_3<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom(NO_LIST_TASKS))
    }

    fn deserialize_v0_3<'de, D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(serde::de::Error::custom(NO_LIST_TASKS))
    }
}

/// Refused both ways, as [`ListTasksRequest`]'s form.
impl Codec for ListTasksResponse {
    fn serialize_v0_3<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom(NO_LIST_TASKS))
    }

    fn deserialize_v0_3<'de, D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(serde::de::Error::custom(NO_LIST_TASKS))
    }
}

impl sealed::Sealed for Empty {}

/// `null`, the result of `tasks/pushNotificationConfig/delete`.
impl Codec for Empty {
    fn serialize_v0_3<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit()
    }

    fn deserialize_v0_3<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Empty::deserialize(d)
    }
}
