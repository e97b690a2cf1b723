//! Push notification configuration (spec 4.3, 3.1.7-3.1.10).

use serde::{Deserialize, Serialize};

use crate::protojson::{self, message_impls};

/// A webhook that receives a task's updates (spec 4.3.1; the body of
/// `CreateTaskPushNotificationConfig`, spec 3.1.7).
///
/// `url` is REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct TaskPushNotificationConfig {
    /// Routing identifier of the selected interface (multi-tenancy).
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub tenant: String,
    /// Identifier of this configuration.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub id: String,
    /// The task the configuration belongs to (empty inside a
    /// `SendMessage` request, spec 3.2.2).
    #[serde(
        default,
        alias = "task_id",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub task_id: String,
    /// Where notifications are POSTed. REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub url: String,
    /// A token unique to the task or session, echoed to the webhook.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub token: String,
    /// How the agent authenticates to the webhook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authentication: Option<AuthenticationInfo>,
}

impl TaskPushNotificationConfig {
    /// A configuration posting to `url`.
    pub fn new(url: impl Into<String>) -> TaskPushNotificationConfig {
        TaskPushNotificationConfig {
            url: url.into(),
            ..TaskPushNotificationConfig::default()
        }
    }
}

/// Credentials the agent sends with each notification (spec 4.3.2).
///
/// `scheme` is REQUIRED.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct AuthenticationInfo {
    /// HTTP authentication scheme (`Bearer`, `Basic`, ...; case-insensitive
    /// per RFC 9110). REQUIRED.
    #[serde(default, deserialize_with = "protojson::string")]
    pub scheme: String,
    /// The credentials, in the scheme's format.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub credentials: String,
}

impl AuthenticationInfo {
    /// Authentication with a scheme and credentials.
    pub fn new(scheme: impl Into<String>, credentials: impl Into<String>) -> AuthenticationInfo {
        AuthenticationInfo {
            scheme: scheme.into(),
            credentials: credentials.into(),
        }
    }
}

message_impls!(TaskPushNotificationConfig, AuthenticationInfo);
