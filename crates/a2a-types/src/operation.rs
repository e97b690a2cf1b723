//! The eleven operations of the A2A service (spec 3.1, the proto's
//! `service A2AService`): the one list that the JSON-RPC method table and
//! the HTTP+JSON route table both map onto.

use std::fmt;

/// One operation of spec 3.1. Its [`name`](Operation::name) is the proto
/// RPC name, which is also the v1.0 JSON-RPC method name (spec 5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operation {
    /// `SendMessage` (spec 3.1.1).
    SendMessage,
    /// `SendStreamingMessage` (spec 3.1.2).
    SendStreamingMessage,
    /// `GetTask` (spec 3.1.3).
    GetTask,
    /// `ListTasks` (spec 3.1.4).
    ListTasks,
    /// `CancelTask` (spec 3.1.5).
    CancelTask,
    /// `SubscribeToTask` (spec 3.1.6).
    SubscribeToTask,
    /// `CreateTaskPushNotificationConfig` (spec 3.1.7).
    CreateTaskPushNotificationConfig,
    /// `GetTaskPushNotificationConfig` (spec 3.1.8).
    GetTaskPushNotificationConfig,
    /// `ListTaskPushNotificationConfigs` (spec 3.1.9).
    ListTaskPushNotificationConfigs,
    /// `DeleteTaskPushNotificationConfig` (spec 3.1.10).
    DeleteTaskPushNotificationConfig,
    /// `GetExtendedAgentCard` (spec 3.1.11).
    GetExtendedAgentCard,
}

/// `(operation, name, streams, spec section)`, in the order of spec 3.1.
const TABLE: [(Operation, &str, bool, &str); 11] = [
    (Operation::SendMessage, "SendMessage", false, "3.1.1"),
    (
        Operation::SendStreamingMessage,
        "SendStreamingMessage",
        true,
        "3.1.2",
    ),
    (Operation::GetTask, "GetTask", false, "3.1.3"),
    (Operation::ListTasks, "ListTasks", false, "3.1.4"),
    (Operation::CancelTask, "CancelTask", false, "3.1.5"),
    (Operation::SubscribeToTask, "SubscribeToTask", true, "3.1.6"),
    (
        Operation::CreateTaskPushNotificationConfig,
        "CreateTaskPushNotificationConfig",
        false,
        "3.1.7",
    ),
    (
        Operation::GetTaskPushNotificationConfig,
        "GetTaskPushNotificationConfig",
        false,
        "3.1.8",
    ),
    (
        Operation::ListTaskPushNotificationConfigs,
        "ListTaskPushNotificationConfigs",
        false,
        "3.1.9",
    ),
    (
        Operation::DeleteTaskPushNotificationConfig,
        "DeleteTaskPushNotificationConfig",
        false,
        "3.1.10",
    ),
    (
        Operation::GetExtendedAgentCard,
        "GetExtendedAgentCard",
        false,
        "3.1.11",
    ),
];

impl Operation {
    /// Every operation, in the order of spec 3.1.
    pub const ALL: [Operation; 11] = [
        Operation::SendMessage,
        Operation::SendStreamingMessage,
        Operation::GetTask,
        Operation::ListTasks,
        Operation::CancelTask,
        Operation::SubscribeToTask,
        Operation::CreateTaskPushNotificationConfig,
        Operation::GetTaskPushNotificationConfig,
        Operation::ListTaskPushNotificationConfigs,
        Operation::DeleteTaskPushNotificationConfig,
        Operation::GetExtendedAgentCard,
    ];

    fn row(self) -> &'static (Operation, &'static str, bool, &'static str) {
        // TABLE is in the same order as the enum.
        &TABLE[self as usize]
    }

    /// The proto RPC name, e.g. `SendMessage`.
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// True when the operation answers a stream of `StreamResponse`.
    pub fn is_streaming(self) -> bool {
        self.row().2
    }

    /// The spec section that defines it, e.g. `3.1.1`.
    pub fn spec_section(self) -> &'static str {
        self.row().3
    }

    /// The operation named `name` (exact, case-sensitive).
    pub fn from_name(name: &str) -> Option<Operation> {
        TABLE.iter().find(|r| r.1 == name).map(|r| r.0)
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_enum_order() {
        for (i, op) in Operation::ALL.into_iter().enumerate() {
            assert_eq!(TABLE[i].0, op);
            assert_eq!(Operation::from_name(op.name()), Some(op));
            assert_eq!(op.to_string(), op.name());
        }
        let streaming: Vec<_> = Operation::ALL
            .into_iter()
            .filter(|o| o.is_streaming())
            .collect();
        assert_eq!(
            streaming,
            [Operation::SendStreamingMessage, Operation::SubscribeToTask]
        );
        assert_eq!(Operation::from_name("sendMessage"), None);
        assert_eq!(Operation::from_name("message/send"), None);
    }
}
