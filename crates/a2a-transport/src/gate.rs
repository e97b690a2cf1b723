//! Capability gating from the served agent card (spec 3.3.4, 13.3): what
//! the server refuses before a request reaches the handler, because the
//! card does not declare it.
//!
//! # Decisions
//!
//! - **Unset is false.** A capability flag that is absent counts as
//!   `false`, as spec 3.3.4 says ("`false` or not present").
//! - **Push notifications** gate the four config operations and also a
//!   `SendMessage`/`SendStreamingMessage` whose configuration carries a
//!   `taskPushNotificationConfig`: that is "using push notification
//!   features" too (spec 3.3.2), and silently dropping the config would
//!   leave the client waiting for notifications that never come.
//! - **Extended card**: undeclared answers `UnsupportedOperationError`;
//!   declared but asked anonymously answers `UnauthenticatedError` (401,
//!   spec 13.3 "MUST require authentication"); declared and authenticated
//!   goes to the handler, whose default answers
//!   `ExtendedAgentCardNotConfiguredError`.

use a2a_jsonrpc::A2aRequest;
use a2a_types::{A2aError, AgentCard, ErrorKind, Operation};

use crate::service::Principal;

/// Checks that `card` declares what `request` needs (spec 3.3.4), and that
/// an extended card is asked for by an authenticated caller (spec 13.3).
///
/// ```
/// use a2a_jsonrpc::A2aRequest;
/// use a2a_transport::server::check_capabilities;
/// use a2a_types::{AgentCard, ErrorKind};
///
/// let mut card = AgentCard::default();
/// let subscribe = A2aRequest::SubscribeToTask(Default::default());
/// let err = check_capabilities(&card, &subscribe, None).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::UnsupportedOperation);
///
/// card.capabilities.streaming = Some(true);
/// assert!(check_capabilities(&card, &subscribe, None).is_ok());
/// ```
pub fn check_capabilities(
    card: &AgentCard,
    request: &A2aRequest,
    principal: Option<&Principal>,
) -> Result<(), A2aError> {
    let caps = &card.capabilities;
    let op = request.operation();
    match op {
        Operation::SendStreamingMessage | Operation::SubscribeToTask
            if caps.streaming != Some(true) =>
        {
            return Err(A2aError::unsupported_operation(format!(
                "{op} is not supported: the agent card does not declare capabilities.streaming"
            )));
        }
        Operation::CreateTaskPushNotificationConfig
        | Operation::GetTaskPushNotificationConfig
        | Operation::ListTaskPushNotificationConfigs
        | Operation::DeleteTaskPushNotificationConfig
            if caps.push_notifications != Some(true) =>
        {
            return Err(push_not_declared());
        }
        Operation::GetExtendedAgentCard => {
            if caps.extended_agent_card != Some(true) {
                return Err(A2aError::unsupported_operation(
                    "GetExtendedAgentCard is not supported: the agent card does not declare \
                     capabilities.extendedAgentCard",
                ));
            }
            if principal.is_none() {
                return Err(A2aError::new(
                    ErrorKind::Unauthenticated,
                    "the extended agent card requires an authenticated caller",
                ));
            }
        }
        _ => {}
    }
    if let A2aRequest::SendMessage(r) | A2aRequest::SendStreamingMessage(r) = request {
        let inline = r
            .configuration
            .as_ref()
            .is_some_and(|c| c.task_push_notification_config.is_some());
        if inline && caps.push_notifications != Some(true) {
            return Err(push_not_declared());
        }
    }
    Ok(())
}

fn push_not_declared() -> A2aError {
    A2aError::new(
        ErrorKind::PushNotificationNotSupported,
        "Push notifications are not supported: the agent card does not declare \
         capabilities.pushNotifications",
    )
}

/// The URIs of the extensions `card` marks `required` (spec 3.3.4, 4.6.1).
pub fn required_extensions(card: &AgentCard) -> impl Iterator<Item = &str> + '_ {
    card.capabilities
        .extensions
        .iter()
        .filter(|e| e.required)
        .map(|e| e.uri.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::{
        AgentExtension, Message, SendMessageConfiguration, SendMessageRequest,
        TaskPushNotificationConfig,
    };

    #[test]
    fn each_capability_gates_its_operations() {
        let card = AgentCard::default();
        let p = Principal::new("u", "s");
        let cases = [
            (
                Operation::SendStreamingMessage,
                ErrorKind::UnsupportedOperation,
            ),
            (Operation::SubscribeToTask, ErrorKind::UnsupportedOperation),
            (
                Operation::CreateTaskPushNotificationConfig,
                ErrorKind::PushNotificationNotSupported,
            ),
            (
                Operation::GetTaskPushNotificationConfig,
                ErrorKind::PushNotificationNotSupported,
            ),
            (
                Operation::ListTaskPushNotificationConfigs,
                ErrorKind::PushNotificationNotSupported,
            ),
            (
                Operation::DeleteTaskPushNotificationConfig,
                ErrorKind::PushNotificationNotSupported,
            ),
            (
                Operation::GetExtendedAgentCard,
                ErrorKind::UnsupportedOperation,
            ),
        ];
        for (op, kind) in cases {
            let req = request(op);
            assert_eq!(
                check_capabilities(&card, &req, Some(&p))
                    .unwrap_err()
                    .kind(),
                kind,
                "{op}"
            );
        }
        for op in [
            Operation::SendMessage,
            Operation::GetTask,
            Operation::ListTasks,
            Operation::CancelTask,
        ] {
            assert!(check_capabilities(&card, &request(op), None).is_ok());
        }

        let mut all = AgentCard::default();
        all.capabilities.streaming = Some(true);
        all.capabilities.push_notifications = Some(true);
        all.capabilities.extended_agent_card = Some(true);
        for op in Operation::ALL {
            assert!(
                check_capabilities(&all, &request(op), Some(&p)).is_ok(),
                "{op}"
            );
        }
        let anon = check_capabilities(&all, &request(Operation::GetExtendedAgentCard), None);
        assert_eq!(anon.unwrap_err().kind(), ErrorKind::Unauthenticated);

        let mut off = all.clone();
        off.capabilities.streaming = Some(false);
        assert!(check_capabilities(&off, &request(Operation::SubscribeToTask), None).is_err());
    }

    #[test]
    fn inline_push_config_needs_push_capability() {
        let req = SendMessageRequest {
            configuration: Some(SendMessageConfiguration {
                task_push_notification_config: Some(Box::new(TaskPushNotificationConfig::new(
                    "https://x",
                ))),
                ..Default::default()
            }),
            ..SendMessageRequest::new(Message::user_text("m", "hi"))
        };
        let mut card = AgentCard::default();
        let err =
            check_capabilities(&card, &A2aRequest::SendMessage(req.clone()), None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PushNotificationNotSupported);
        card.capabilities.push_notifications = Some(true);
        assert!(check_capabilities(&card, &A2aRequest::SendMessage(req), None).is_ok());
    }

    #[test]
    fn required_extensions_lists_only_required() {
        let mut card = AgentCard::default();
        card.capabilities.extensions = vec![
            AgentExtension {
                uri: "urn:a".into(),
                required: true,
                ..Default::default()
            },
            AgentExtension {
                uri: "urn:b".into(),
                ..Default::default()
            },
        ];
        assert_eq!(required_extensions(&card).collect::<Vec<_>>(), ["urn:a"]);
    }

    fn request(op: Operation) -> A2aRequest {
        use A2aRequest as R;
        match op {
            Operation::SendMessage => R::SendMessage(Default::default()),
            Operation::SendStreamingMessage => R::SendStreamingMessage(Default::default()),
            Operation::GetTask => R::GetTask(Default::default()),
            Operation::ListTasks => R::ListTasks(Default::default()),
            Operation::CancelTask => R::CancelTask(Default::default()),
            Operation::SubscribeToTask => R::SubscribeToTask(Default::default()),
            Operation::CreateTaskPushNotificationConfig => {
                R::CreateTaskPushNotificationConfig(Default::default())
            }
            Operation::GetTaskPushNotificationConfig => {
                R::GetTaskPushNotificationConfig(Default::default())
            }
            Operation::ListTaskPushNotificationConfigs => {
                R::ListTaskPushNotificationConfigs(Default::default())
            }
            Operation::DeleteTaskPushNotificationConfig => {
                R::DeleteTaskPushNotificationConfig(Default::default())
            }
            Operation::GetExtendedAgentCard => R::GetExtendedAgentCard(Default::default()),
        }
    }
}
