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
//! - **Input modes** ([`check_input_modes`], on when the host asks): a
//!   message part must have a media type the card accepts, from
//!   `defaultInputModes` or any skill's `inputModes` (a message names no
//!   skill, so any skill's modes will do; spec 4.4.1, 4.4.5). A part with
//!   no `mediaType` has its content's: `text/plain` for text,
//!   `application/json` for data, `application/octet-stream` for raw bytes
//!   and URLs. Modes are media ranges (`image/*`, `*/*`), compared without
//!   parameters and ignoring case. A card that lists no mode accepts
//!   everything. The first part refused answers
//!   `ContentTypeNotSupportedError` (spec 3.3.2, 5.4) naming its path and
//!   type.

use a2a_jsonrpc::A2aRequest;
use a2a_types::{
    A2aError, AgentCard, BadRequest, ErrorDetail, ErrorKind, FieldViolation, Operation, Part,
    PartContent,
};

use a2a_wire::range_specificity;

use a2a_wire::Principal;

/// Checks that `card` declares what `request` needs (spec 3.3.4), and that
/// an extended card is asked for by an authenticated caller (spec 13.3).
///
/// ```
/// use a2a_jsonrpc::A2aRequest;
/// use a2a_server::check_capabilities;
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

/// Checks that every part of a `SendMessage` or `SendStreamingMessage`
/// has a media type `card` accepts (the module docs give the rules).
///
/// ```
/// use a2a_jsonrpc::A2aRequest;
/// use a2a_server::check_input_modes;
/// use a2a_types::{AgentCard, ErrorKind, Message, Part, SendMessageRequest};
///
/// let card = AgentCard { default_input_modes: vec!["text/plain".into()], ..Default::default() };
/// let mut video = Part::raw(vec![0]);
/// video.media_type = "video/mp4".into();
/// let text = Part::text("hi");
/// let send = |parts| A2aRequest::SendMessage(SendMessageRequest {
///     message: Message { parts, ..Default::default() },
///     ..Default::default()
/// });
/// assert!(check_input_modes(&card, &send(vec![text.clone()])).is_ok());
/// let err = check_input_modes(&card, &send(vec![text, video])).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::ContentTypeNotSupported);
/// assert!(err.message().contains("message.parts[1]"));
/// ```
pub fn check_input_modes(card: &AgentCard, request: &A2aRequest) -> Result<(), A2aError> {
    let (A2aRequest::SendMessage(r) | A2aRequest::SendStreamingMessage(r)) = request else {
        return Ok(());
    };
    let modes = || {
        card.default_input_modes
            .iter()
            .chain(card.skills.iter().flat_map(|s| s.input_modes.iter()))
    };
    if modes().next().is_none() {
        return Ok(());
    }
    for (i, part) in r.message.parts.iter().enumerate() {
        let media_type = part_media_type(part);
        if !modes().any(|m| media_range_covers(m, media_type)) {
            let field = format!("message.parts[{i}]");
            let accepted: Vec<&str> = modes().map(String::as_str).take(16).collect();
            let description = format!(
                "media type {:?} is not accepted by this agent (it accepts {})",
                media_type.chars().take(128).collect::<String>(),
                accepted.join(", ")
            );
            return Err(A2aError::new(
                ErrorKind::ContentTypeNotSupported,
                format!("{field}: {description}"),
            )
            .with_detail(ErrorDetail::BadRequest(BadRequest {
                field_violations: vec![FieldViolation { field, description }],
            })));
        }
    }
    Ok(())
}

/// The media type a part is checked under: its `mediaType`, or its
/// content's.
fn part_media_type(part: &Part) -> &str {
    if !part.media_type.is_empty() {
        return &part.media_type;
    }
    match part.content {
        PartContent::Text(_) => "text/plain",
        PartContent::Data(_) => "application/json",
        PartContent::Raw(_) | PartContent::Url(_) => "application/octet-stream",
    }
}

/// True if the media range `mode` (`text/plain`, `image/*`, `*/*`) covers
/// `media_type`, ignoring case and parameters: how a card's input modes
/// and a request's `acceptedOutputModes` are read.
///
/// ```
/// use a2a_server::media_range_covers;
///
/// assert!(media_range_covers("image/*", "image/png"));
/// assert!(media_range_covers("Text/Plain; charset=utf-8", "text/plain"));
/// assert!(!media_range_covers("text/plain", "application/json"));
/// ```
pub fn media_range_covers(mode: &str, media_type: &str) -> bool {
    fn essence(t: &str) -> &str {
        t.split(';').next().unwrap_or_default().trim()
    }
    range_specificity(essence(mode), essence(media_type)).is_some()
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
    fn input_modes_come_from_the_card_and_its_skills() {
        use a2a_types::AgentSkill;
        let part = |content, media_type: &str| {
            let mut p = Part::new(content);
            p.media_type = media_type.into();
            p
        };
        let send = |parts| {
            A2aRequest::SendStreamingMessage(SendMessageRequest {
                message: Message {
                    parts,
                    ..Default::default()
                },
                ..Default::default()
            })
        };
        let mut card = AgentCard {
            default_input_modes: vec!["text/plain".into()],
            ..Default::default()
        };
        let text = part(PartContent::Text("hi".into()), "");
        let png = part(PartContent::Raw(vec![1]), "IMAGE/PNG; x=y");
        let data = part(PartContent::Data(serde_json::json!({})), "");
        assert!(check_input_modes(&card, &send(vec![text.clone()])).is_ok());
        let err = check_input_modes(&card, &send(vec![text.clone(), png.clone()])).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ContentTypeNotSupported);
        assert_eq!(err.code().0, -32005);
        assert!(
            err.message().contains("message.parts[1]"),
            "{}",
            err.message()
        );
        assert!(err.message().contains("IMAGE/PNG"), "{}", err.message());
        assert!(check_input_modes(&card, &send(vec![data.clone()])).is_err());
        card.skills.push(AgentSkill {
            input_modes: vec!["image/*".into(), "application/json".into()],
            ..Default::default()
        });
        assert!(check_input_modes(&card, &send(vec![text, png, data])).is_ok());
        let url = part(PartContent::Url("https://x".into()), "");
        assert!(check_input_modes(&card, &send(vec![url.clone()])).is_err());
        // Other operations and cards without modes are not checked.
        assert!(check_input_modes(&AgentCard::default(), &send(vec![url])).is_ok());
        assert!(check_input_modes(&card, &A2aRequest::GetTask(Default::default())).is_ok());
    }

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
