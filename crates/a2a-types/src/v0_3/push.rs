//! 0.3 `PushNotificationConfig`, `PushNotificationAuthenticationInfo` and
//! `TaskPushNotificationConfig` (0.3 spec 6.8-6.10), and the result of
//! `tasks/pushNotificationConfig/list` (a bare array, 0.3 spec 7.7).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::protojson::{self, message_impls};
use crate::push::{AuthenticationInfo, TaskPushNotificationConfig};
use crate::requests::ListTaskPushNotificationConfigsResponse;
use crate::v0_3::{codec, sealed, Codec, Refusal, V03};

/// 0.3's `PushNotificationConfig`: the webhook without its task.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WirePushConfig {
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    id: String,
    #[serde(default, deserialize_with = "protojson::string")]
    url: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    authentication: Option<WireAuthentication>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireAuthentication {
    #[serde(default, deserialize_with = "protojson::repeated")]
    schemes: Vec<String>,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    credentials: String,
}

impl WirePushConfig {
    /// The 0.3 form of a 1.0 configuration (its task id goes elsewhere).
    pub(crate) fn from_model(c: &TaskPushNotificationConfig) -> WirePushConfig {
        WirePushConfig {
            id: c.id.clone(),
            url: c.url.clone(),
            token: c.token.clone(),
            authentication: c.authentication.as_ref().map(|a| WireAuthentication {
                schemes: if a.scheme.is_empty() {
                    Vec::new()
                } else {
                    vec![a.scheme.clone()]
                },
                credentials: a.credentials.clone(),
            }),
        }
    }

    /// The 1.0 configuration for `task_id`. 1.0 has one scheme; the first
    /// of 0.3's list is kept.
    pub(crate) fn into_model(self, task_id: String) -> TaskPushNotificationConfig {
        TaskPushNotificationConfig {
            tenant: String::new(),
            id: self.id,
            task_id,
            url: self.url,
            token: self.token,
            authentication: self.authentication.map(|a| AuthenticationInfo {
                scheme: a.schemes.into_iter().next().unwrap_or_default(),
                credentials: a.credentials,
            }),
        }
    }
}

/// 0.3's `TaskPushNotificationConfig`: `{taskId, pushNotificationConfig}`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireTaskPushConfig {
    #[serde(default, deserialize_with = "protojson::string")]
    task_id: String,
    #[serde(default)]
    push_notification_config: Option<WirePushConfig>,
}

impl From<&TaskPushNotificationConfig> for WireTaskPushConfig {
    fn from(c: &TaskPushNotificationConfig) -> WireTaskPushConfig {
        WireTaskPushConfig {
            task_id: c.task_id.clone(),
            push_notification_config: Some(WirePushConfig::from_model(c)),
        }
    }
}

impl TryFrom<WireTaskPushConfig> for TaskPushNotificationConfig {
    type Error = Refusal;

    fn try_from(w: WireTaskPushConfig) -> Result<TaskPushNotificationConfig, Refusal> {
        let config = w
            .push_notification_config
            .ok_or("`pushNotificationConfig` is missing")?;
        Ok(config.into_model(w.task_id))
    }
}

message_impls!(WirePushConfig, WireAuthentication, WireTaskPushConfig);

codec!(TaskPushNotificationConfig => WireTaskPushConfig);

impl sealed::Sealed for ListTaskPushNotificationConfigsResponse {}

/// 0.3 answers `tasks/pushNotificationConfig/list` with a bare array;
/// `nextPageToken` has no place there (0.3 does not page).
impl Codec for ListTaskPushNotificationConfigsResponse {
    fn serialize_v0_3<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.configs.len()))?;
        for config in &self.configs {
            seq.serialize_element(&V03(config))?;
        }
        seq.end()
    }

    fn deserialize_v0_3<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let configs: Vec<V03<TaskPushNotificationConfig>> = protojson::repeated(d)?;
        Ok(ListTaskPushNotificationConfigsResponse {
            configs: configs.into_iter().map(|c| c.0).collect(),
            next_page_token: String::new(),
        })
    }
}
