//! Which operations an agent may decline, as data beside the operation
//! (one table, [`rule`]): an agent that answers `UnsupportedOperationError`
//! (or `PushNotificationNotSupportedError`) where the spec allows it has
//! *not offered* the operation, and the scenarios needing it skip; where
//! the spec names another answer, the decline is a failure.

use a2a_types::{A2aError, AgentCard, ErrorKind, Operation};

/// When the spec lets an agent decline an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decline {
    /// Never: the operation is core, and the spec names its answers.
    Never,
    /// Always: the spec names no requirement to offer it.
    Allowed,
    /// When the card does not declare `capabilities.streaming` (spec 3.3.4).
    WithoutStreaming,
    /// When the card does not declare `capabilities.pushNotifications`
    /// (spec 3.3.4).
    WithoutPush,
    /// When the card does not declare `capabilities.extendedAgentCard`
    /// (spec 3.3.4).
    WithoutExtendedCard,
}

/// The rule for one operation: when it may be declined, and the spec's
/// words for it.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The operation.
    pub operation: Operation,
    /// When it may be declined.
    pub decline: Decline,
    /// The spec section and what it says.
    pub spec: &'static str,
}

/// One row per operation, in the order of spec 3.1.
pub const RULES: [Rule; 11] = [
    Rule {
        operation: Operation::SendMessage,
        decline: Decline::Never,
        spec: "3.1.1: the core operation; a task or a message answers it",
    },
    Rule {
        operation: Operation::SendStreamingMessage,
        decline: Decline::WithoutStreaming,
        spec: "3.3.4: UnsupportedOperationError MUST answer it without capabilities.streaming",
    },
    Rule {
        operation: Operation::GetTask,
        decline: Decline::Never,
        spec: "3.1.3: an unknown or inaccessible id MUST answer TaskNotFoundError",
    },
    Rule {
        operation: Operation::ListTasks,
        decline: Decline::Allowed,
        spec: "3.1.4 names no capability for it; UnsupportedOperationError (3.3.2) is the answer for an operation the agent does not support",
    },
    Rule {
        operation: Operation::CancelTask,
        decline: Decline::Never,
        spec: "3.1.5: an unknown id answers TaskNotFoundError, a task that cannot be canceled TaskNotCancelableError",
    },
    Rule {
        operation: Operation::SubscribeToTask,
        decline: Decline::WithoutStreaming,
        spec: "3.3.4: UnsupportedOperationError MUST answer it without capabilities.streaming",
    },
    Rule {
        operation: Operation::CreateTaskPushNotificationConfig,
        decline: Decline::WithoutPush,
        spec: "3.3.4: PushNotificationNotSupportedError MUST answer it without capabilities.pushNotifications",
    },
    Rule {
        operation: Operation::GetTaskPushNotificationConfig,
        decline: Decline::WithoutPush,
        spec: "3.3.4: PushNotificationNotSupportedError MUST answer it without capabilities.pushNotifications",
    },
    Rule {
        operation: Operation::ListTaskPushNotificationConfigs,
        decline: Decline::WithoutPush,
        spec: "3.3.4: PushNotificationNotSupportedError MUST answer it without capabilities.pushNotifications",
    },
    Rule {
        operation: Operation::DeleteTaskPushNotificationConfig,
        decline: Decline::WithoutPush,
        spec: "3.3.4: PushNotificationNotSupportedError MUST answer it without capabilities.pushNotifications",
    },
    Rule {
        operation: Operation::GetExtendedAgentCard,
        decline: Decline::WithoutExtendedCard,
        spec: "3.3.4: UnsupportedOperationError MUST answer it without capabilities.extendedAgentCard; ExtendedAgentCardNotConfiguredError when declared but not configured",
    },
];

/// The rule of `operation`.
pub fn rule(operation: Operation) -> &'static Rule {
    RULES
        .iter()
        .find(|r| r.operation == operation)
        .unwrap_or(&RULES[0])
}

impl Rule {
    /// Whether `card` lets the agent decline the operation.
    pub fn may_decline(&self, card: &AgentCard) -> bool {
        let caps = &card.capabilities;
        match self.decline {
            Decline::Never => false,
            Decline::Allowed => true,
            Decline::WithoutStreaming => caps.streaming != Some(true),
            Decline::WithoutPush => caps.push_notifications != Some(true),
            Decline::WithoutExtendedCard => caps.extended_agent_card != Some(true),
        }
    }

    /// `Some(why)` when `error` declines the operation and `card` allows
    /// it: the operation is not offered, and the scenario skips.
    pub fn declined(&self, card: &AgentCard, error: &A2aError) -> Option<String> {
        declines(error.kind()).then_some(())?;
        self.may_decline(card).then(|| {
            format!(
                "agent declines {} ({}; spec {})",
                self.operation.name(),
                error.kind().name(),
                self.spec
            )
        })
    }
}

/// Whether an error of `kind` is an agent's "not offered".
pub fn declines(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::UnsupportedOperation | ErrorKind::PushNotificationNotSupported
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_per_operation() {
        for op in Operation::ALL {
            assert_eq!(
                RULES.iter().filter(|r| r.operation == op).count(),
                1,
                "{}",
                op.name()
            );
            assert_eq!(rule(op).operation, op);
        }
    }

    #[test]
    fn a_decline_is_allowed_only_where_the_spec_allows_it() {
        let card = AgentCard::default();
        let unsupported = A2aError::unsupported_operation("no");
        assert!(rule(Operation::ListTasks)
            .declined(&card, &unsupported)
            .is_some_and(|w| w.starts_with("agent declines ListTasks")));
        assert_eq!(
            rule(Operation::CancelTask).declined(&card, &unsupported),
            None
        );
        assert_eq!(rule(Operation::GetTask).declined(&card, &unsupported), None);
        assert!(rule(Operation::SubscribeToTask)
            .declined(&card, &unsupported)
            .is_some());
        let mut streaming = AgentCard::default();
        streaming.capabilities.streaming = Some(true);
        assert_eq!(
            rule(Operation::SubscribeToTask).declined(&streaming, &unsupported),
            None
        );
        let not_found = A2aError::task_not_found("x");
        assert_eq!(rule(Operation::ListTasks).declined(&card, &not_found), None);
    }
}
