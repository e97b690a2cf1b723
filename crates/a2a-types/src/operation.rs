//! The eleven operations of the A2A service (spec 3.1, the proto's
//! `service A2AService`), written once in [`operation_table!`]: the
//! [`Operation`] enum, the binding-neutral typed request ([`A2aRequest`])
//! and reply ([`Reply`]) are generated here from it, and the JSON-RPC
//! method table, the service trait, its dispatch and forwarding impls are
//! generated from it in the crates that own them.

use std::fmt;
use std::pin::Pin;

use futures_core::Stream;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{A2aError, FieldViolation, StreamResponse, Validate};

/// The operation table: one row per operation of spec 3.1, in its order.
///
/// `operation_table!(callback)` expands to `callback! { rows }`, so every
/// list of operations in the workspace is generated from these rows and
/// adding an operation is one row here plus its handler. A row reads:
///
/// ```text
/// Name {
///     method: snake_case_name,      // the A2aService method
///     section: "3.1.n",             // where spec 3.1 defines it
///     answer: unary | stream,       // one result, or a stream of StreamResponse
///     params: RequestType,          // the proto request message
///     result: TraitResultType,      // what A2aService returns
///     reply: ReplyPayloadType,      // what Reply holds (the wire result)
///     item: JsonRpcResultType,      // a JSON-RPC result (each event, for streams)
///     default: unsupported | cancel | subscribe | push | card, // the answer of an agent that lacks it
///     fields: { "protoJsonName" => rust_field, ... }, // string fields a binding may set from the path
///     v0_3: ["method/name"],        // its A2A 0.3 JSON-RPC method; [] when 0.3 has none
/// }
/// ```
///
/// Types are written `$crate::Type`, so the rows can be expanded in any
/// crate.
#[doc(hidden)]
#[macro_export]
macro_rules! operation_table {
    ($callback:ident) => {
        $callback! {
            SendMessage {
                method: send_message, section: "3.1.1", answer: unary,
                params: $crate::SendMessageRequest,
                result: $crate::SendMessageResponse,
                reply: $crate::SendMessageResponse,
                item: $crate::SendMessageResponse,
                default: unsupported,
                fields: { "tenant" => tenant },
                v0_3: ["message/send"],
            }
            SendStreamingMessage {
                method: send_streaming_message, section: "3.1.2", answer: stream,
                params: $crate::SendMessageRequest,
                result: $crate::EventStream,
                reply: $crate::EventStream,
                item: $crate::StreamResponse,
                default: unsupported,
                fields: { "tenant" => tenant },
                v0_3: ["message/stream"],
            }
            GetTask {
                method: get_task, section: "3.1.3", answer: unary,
                params: $crate::GetTaskRequest,
                result: $crate::Task,
                reply: $crate::Task,
                item: $crate::Task,
                default: unsupported,
                fields: { "tenant" => tenant, "id" => id },
                v0_3: ["tasks/get"],
            }
            ListTasks {
                method: list_tasks, section: "3.1.4", answer: unary,
                params: $crate::ListTasksRequest,
                result: $crate::ListTasksResponse,
                reply: $crate::ListTasksResponse,
                item: $crate::ListTasksResponse,
                default: unsupported,
                fields: { "tenant" => tenant },
                v0_3: [],
            }
            CancelTask {
                method: cancel_task, section: "3.1.5", answer: unary,
                params: $crate::CancelTaskRequest,
                result: $crate::Task,
                reply: $crate::Task,
                item: $crate::Task,
                default: cancel,
                fields: { "tenant" => tenant, "id" => id },
                v0_3: ["tasks/cancel"],
            }
            SubscribeToTask {
                method: subscribe_to_task, section: "3.1.6", answer: stream,
                params: $crate::SubscribeToTaskRequest,
                result: $crate::EventStream,
                reply: $crate::EventStream,
                item: $crate::StreamResponse,
                default: subscribe,
                fields: { "tenant" => tenant, "id" => id },
                v0_3: ["tasks/resubscribe"],
            }
            CreateTaskPushNotificationConfig {
                method: create_task_push_notification_config, section: "3.1.7", answer: unary,
                params: $crate::TaskPushNotificationConfig,
                result: $crate::TaskPushNotificationConfig,
                reply: $crate::TaskPushNotificationConfig,
                item: $crate::TaskPushNotificationConfig,
                default: push,
                fields: { "tenant" => tenant, "taskId" => task_id },
                v0_3: ["tasks/pushNotificationConfig/set"],
            }
            GetTaskPushNotificationConfig {
                method: get_task_push_notification_config, section: "3.1.8", answer: unary,
                params: $crate::GetTaskPushNotificationConfigRequest,
                result: $crate::TaskPushNotificationConfig,
                reply: $crate::TaskPushNotificationConfig,
                item: $crate::TaskPushNotificationConfig,
                default: push,
                fields: { "tenant" => tenant, "taskId" => task_id, "id" => id },
                v0_3: ["tasks/pushNotificationConfig/get"],
            }
            ListTaskPushNotificationConfigs {
                method: list_task_push_notification_configs, section: "3.1.9", answer: unary,
                params: $crate::ListTaskPushNotificationConfigsRequest,
                result: $crate::ListTaskPushNotificationConfigsResponse,
                reply: $crate::ListTaskPushNotificationConfigsResponse,
                item: $crate::ListTaskPushNotificationConfigsResponse,
                default: push,
                fields: { "tenant" => tenant, "taskId" => task_id },
                v0_3: ["tasks/pushNotificationConfig/list"],
            }
            DeleteTaskPushNotificationConfig {
                method: delete_task_push_notification_config, section: "3.1.10", answer: unary,
                params: $crate::DeleteTaskPushNotificationConfigRequest,
                result: (),
                reply: $crate::Empty,
                item: $crate::Empty,
                default: push,
                fields: { "tenant" => tenant, "taskId" => task_id, "id" => id },
                v0_3: ["tasks/pushNotificationConfig/delete"],
            }
            GetExtendedAgentCard {
                method: get_extended_agent_card, section: "3.1.11", answer: unary,
                params: $crate::GetExtendedAgentCardRequest,
                result: $crate::AgentCard,
                reply: $crate::AgentCard,
                item: $crate::AgentCard,
                default: card,
                fields: { "tenant" => tenant },
                v0_3: ["agent/getAuthenticatedExtendedCard"],
            }
        }
    };
}

/// The events of a streaming operation (spec 3.1.2, 3.1.6): each item a
/// [`StreamResponse`] or the error that ended the stream.
pub type EventStream =
    Pin<Box<dyn Stream<Item = Result<StreamResponse, A2aError>> + Send + 'static>>;

/// `google.protobuf.Empty`: the result of `DeleteTaskPushNotificationConfig`.
///
/// Written as `{}`; read from `{}` (unknown members ignored) or `null`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Empty;

impl From<()> for Empty {
    fn from((): ()) -> Empty {
        Empty
    }
}

impl From<Empty> for () {
    fn from(Empty: Empty) {}
}

impl Serialize for Empty {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        s.serialize_map(Some(0))?.end()
    }
}

impl<'de> Deserialize<'de> for Empty {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct EmptyVisitor;
        impl<'de> serde::de::Visitor<'de> for EmptyVisitor {
            type Value = Empty;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an empty object or null")
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Empty, E> {
                Ok(Empty)
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<Empty, E> {
                Ok(Empty)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Empty, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Empty)
            }
        }
        d.deserialize_any(EmptyVisitor)
    }
}

/// Serializes one [`Reply`] payload; a stream has no single JSON value.
macro_rules! reply_json {
    (unary, $value:ident, $s:ident) => {
        $value.serialize($s)
    };
    (stream, $value:ident, $s:ident) => {{
        let _ = $value;
        Err(serde::ser::Error::custom(
            "a stream has no single JSON value",
        ))
    }};
}

/// `Debug` of one [`Reply`] payload; a stream shows no events.
macro_rules! reply_debug {
    (unary, $name:ident, $value:ident, $f:ident) => {
        $f.debug_tuple(stringify!($name)).field($value).finish()
    };
    (stream, $name:ident, $value:ident, $f:ident) => {{
        let _ = $value;
        $f.write_str(concat!(stringify!($name), "(..)"))
    }};
}

/// Decodes one unary [`Reply`] payload; a stream has no single JSON value.
macro_rules! reply_from_json {
    (unary, $name:ident, $reply:ty, $json:ident, $limits:ident) => {
        crate::from_slice_with_limits::<$reply>($json, $limits).map(Reply::$name)
    };
    (stream, $name:ident, $reply:ty, $json:ident, $limits:ident) => {{
        let _ = ($json, $limits);
        Err(crate::DecodeError::data(concat!(
            stringify!($name),
            " answers a stream, not one JSON value"
        )))
    }};
}

/// Wraps an event stream as the [`Reply`] of a streaming operation.
macro_rules! reply_stream {
    (unary, $name:ident, $events:ident) => {
        Err($events)
    };
    (stream, $name:ident, $events:ident) => {
        Ok(Reply::$name($events))
    };
}

macro_rules! is_stream {
    (unary) => {
        false
    };
    (stream) => {
        true
    };
}

macro_rules! generate_operations {
    ($(
        $name:ident {
            method: $method:ident, section: $section:literal, answer: $answer:ident,
            params: $params:ty,
            result: $result:ty,
            reply: $reply:ty,
            item: $item:ty,
            default: $default:ident,
            fields: { $($json:literal => $field:ident),* $(,)? },
            v0_3: [$($v03:literal)?],
        }
    )*) => {
        /// One operation of spec 3.1. Its [`name`](Operation::name) is the
        /// proto RPC name, which is also the v1.0 JSON-RPC method name
        /// (spec 5.3).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Operation {
            $(
                #[doc = concat!("`", stringify!($name), "` (spec ", $section, ").")]
                $name,
            )*
        }

        impl Operation {
            /// Every operation, in the order of spec 3.1.
            pub const ALL: [Operation; 11] = [$(Operation::$name),*];

            /// The proto RPC name, e.g. `SendMessage`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Operation::$name => stringify!($name),)*
                }
            }

            /// True when the operation answers a stream of `StreamResponse`.
            pub fn is_streaming(self) -> bool {
                match self {
                    $(Operation::$name => is_stream!($answer),)*
                }
            }

            /// The spec section that defines it, e.g. `3.1.1`.
            pub fn spec_section(self) -> &'static str {
                match self {
                    $(Operation::$name => $section,)*
                }
            }

            /// The operation named `name` (exact, case-sensitive).
            pub fn from_name(name: &str) -> Option<Operation> {
                match name {
                    $(stringify!($name) => Some(Operation::$name),)*
                    _ => None,
                }
            }
        }

        /// A typed A2A request, whatever binding carried it: one variant
        /// per operation, holding its request message (spec 3.1).
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum A2aRequest {
            $(
                #[doc = concat!("`", stringify!($name), "` (spec ", $section, ").")]
                $name($params),
            )*
        }

        impl A2aRequest {
            /// The operation this request invokes.
            pub fn operation(&self) -> Operation {
                match self {
                    $(A2aRequest::$name(_) => Operation::$name,)*
                }
            }

            /// Every REQUIRED field the request lacks (spec 3.3.2: servers
            /// MUST validate all input parameters); empty when valid.
            pub fn validate(&self) -> Vec<FieldViolation> {
                match self {
                    $(A2aRequest::$name(r) => Validate::validate(r).err().unwrap_or_default(),)*
                }
            }

            /// The request's `tenant` field (empty when unset; proto
            /// `tenant`, multi-tenancy.md).
            pub fn tenant(&self) -> &str {
                match self {
                    $(A2aRequest::$name(r) => &r.tenant,)*
                }
            }

            /// The request's `tenant` field, to set it.
            pub fn tenant_mut(&mut self) -> &mut String {
                match self {
                    $(A2aRequest::$name(r) => &mut r.tenant,)*
                }
            }

            /// The string field whose ProtoJSON name is `name`, among those
            /// a binding may carry outside the message (path parameters:
            /// `tenant`, `id`, `taskId`); `None` when the request has no
            /// such field.
            pub fn string_field(&self, name: &str) -> Option<&str> {
                match self {
                    $(A2aRequest::$name(r) => match name {
                        $($json => Some(&r.$field),)*
                        _ => None,
                    },)*
                }
            }

            /// The string field whose ProtoJSON name is `name`, to set it
            /// (see [`string_field`](A2aRequest::string_field)).
            pub fn string_field_mut(&mut self, name: &str) -> Option<&mut String> {
                match self {
                    $(A2aRequest::$name(r) => match name {
                        $($json => Some(&mut r.$field),)*
                        _ => None,
                    },)*
                }
            }

            /// The empty request of `op`, every field at its default.
            pub fn empty(op: Operation) -> A2aRequest {
                match op {
                    $(Operation::$name => A2aRequest::$name(<$params>::default()),)*
                }
            }

            /// Decodes the request message of `op` from ProtoJSON (`null`
            /// is the empty request), with `limits`. REQUIRED fields are
            /// not checked here: see [`validate`](A2aRequest::validate).
            ///
            /// # Errors
            ///
            /// The [`DecodeError`](crate::DecodeError) naming the JSON path
            /// that does not decode.
            pub fn from_json(
                op: Operation,
                json: &[u8],
                limits: &crate::DecodeLimits,
            ) -> Result<A2aRequest, crate::DecodeError> {
                match op {
                    $(Operation::$name => crate::from_slice_with_limits::<Option<$params>>(json, limits)
                        .map(|r| A2aRequest::$name(r.unwrap_or_default())),)*
                }
            }
        }

        /// What an operation answered, whatever binding will carry it: one
        /// variant per operation, holding its result (a unary result, or
        /// for `SendStreamingMessage` and `SubscribeToTask` the event
        /// stream).
        #[allow(clippy::large_enum_variant)]
        pub enum Reply {
            $(
                #[doc = concat!("`", stringify!($name), "` (spec ", $section, ").")]
                $name($reply),
            )*
        }

        impl Reply {
            /// The operation this reply answers.
            pub fn operation(&self) -> Operation {
                match self {
                    $(Reply::$name(_) => Operation::$name,)*
                }
            }

            /// Decodes the result of the unary operation `op` from
            /// ProtoJSON, with `limits`.
            ///
            /// # Errors
            ///
            /// The [`DecodeError`](crate::DecodeError) naming the JSON path
            /// that does not decode; an error for a streaming `op`.
            pub fn from_json(
                op: Operation,
                json: &[u8],
                limits: &crate::DecodeLimits,
            ) -> Result<Reply, crate::DecodeError> {
                match op {
                    $(Operation::$name => reply_from_json!($answer, $name, $reply, json, limits),)*
                }
            }

            /// The reply of the streaming operation `op` carrying
            /// `events`; the stream back when `op` is unary.
            #[allow(clippy::result_large_err)]
            pub fn stream(op: Operation, events: EventStream) -> Result<Reply, EventStream> {
                match op {
                    $(Operation::$name => reply_stream!($answer, $name, events),)*
                }
            }
        }

        /// Serializes a request as its request message (ProtoJSON): the
        /// body of an HTTP+JSON request, the `params` of a JSON-RPC one.
        impl Serialize for A2aRequest {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $(A2aRequest::$name(r) => r.serialize(s),)*
                }
            }
        }

        impl fmt::Debug for Reply {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(Reply::$name(v) => reply_debug!($answer, $name, v, f),)*
                }
            }
        }

        /// Serializes a unary reply as its result message: the bare JSON
        /// of spec 11.4, or the `result` of a JSON-RPC response (spec
        /// 9.4). A stream is an error: its events are serialized one by
        /// one.
        impl Serialize for Reply {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $(Reply::$name(v) => reply_json!($answer, v, s),)*
                }
            }
        }
    };
}

operation_table!(generate_operations);

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Operation {
    /// Whether repeating the call has the effect of making it once, so a
    /// client may send it again after a refusal that asks it to wait
    /// (`Retry-After`, spec 3.3.2 "System Errors"). The reads (`GetTask`,
    /// `ListTasks`, the push config reads, `GetExtendedAgentCard`,
    /// `SubscribeToTask`) and `DeleteTaskPushNotificationConfig` (deleting
    /// twice leaves the same state). Not `SendMessage` or
    /// `SendStreamingMessage` (a repeat is a second message),
    /// `CreateTaskPushNotificationConfig` (a second config), or
    /// `CancelTask` (the repeat may answer `TaskNotCancelableError` where
    /// the first succeeded). `docs/decisions.md` says why.
    pub fn is_idempotent(self) -> bool {
        match self {
            Operation::GetTask
            | Operation::ListTasks
            | Operation::SubscribeToTask
            | Operation::GetTaskPushNotificationConfig
            | Operation::ListTaskPushNotificationConfigs
            | Operation::DeleteTaskPushNotificationConfig
            | Operation::GetExtendedAgentCard => true,
            Operation::SendMessage
            | Operation::SendStreamingMessage
            | Operation::CancelTask
            | Operation::CreateTaskPushNotificationConfig => false,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn idempotent_operations() {
        use super::Operation;
        let yes: Vec<_> = Operation::ALL
            .into_iter()
            .filter(|o| o.is_idempotent())
            .map(Operation::name)
            .collect();
        assert_eq!(yes.len(), 7, "{yes:?}");
        assert!(!Operation::SendMessage.is_idempotent());
        assert!(Operation::GetTask.is_idempotent());
    }

    use super::*;
    use crate::{GetTaskRequest, Task, TaskPushNotificationConfig};

    #[test]
    fn table_matches_enum_order() {
        for (i, op) in Operation::ALL.into_iter().enumerate() {
            assert_eq!(op as usize, i);
            assert_eq!(Operation::from_name(op.name()), Some(op));
            assert_eq!(op.to_string(), op.name());
            assert_eq!(A2aRequest::empty(op).operation(), op);
        }
        let streaming: Vec<_> = Operation::ALL
            .into_iter()
            .filter(|o| o.is_streaming())
            .collect();
        assert_eq!(
            streaming,
            [Operation::SendStreamingMessage, Operation::SubscribeToTask]
        );
        assert_eq!(Operation::SendMessage.spec_section(), "3.1.1");
        assert_eq!(Operation::GetExtendedAgentCard.spec_section(), "3.1.11");
        assert_eq!(Operation::from_name("sendMessage"), None);
        assert_eq!(Operation::from_name("message/send"), None);
    }

    #[test]
    fn string_fields_by_protojson_name() {
        let mut r = A2aRequest::empty(Operation::GetTaskPushNotificationConfig);
        *r.string_field_mut("taskId").unwrap() = "t-1".into();
        *r.string_field_mut("id").unwrap() = "c-1".into();
        r.tenant_mut().push_str("acme");
        assert_eq!(r.string_field("taskId"), Some("t-1"));
        assert_eq!(r.string_field("id"), Some("c-1"));
        assert_eq!(r.string_field("tenant"), Some("acme"));
        assert_eq!(r.tenant(), "acme");
        assert_eq!(r.string_field("task_id"), None);
        let A2aRequest::GetTaskPushNotificationConfig(inner) = r else {
            panic!("wrong variant")
        };
        assert_eq!((inner.task_id.as_str(), inner.id.as_str()), ("t-1", "c-1"));

        let r = A2aRequest::empty(Operation::SendMessage);
        assert_eq!(r.string_field("id"), None);
        assert_eq!(r.string_field("tenant"), Some(""));
    }

    #[test]
    fn from_json_reads_null_as_the_empty_request() {
        let limits = crate::DecodeLimits::new();
        let r = A2aRequest::from_json(Operation::GetTask, b"null", &limits).unwrap();
        assert_eq!(r, A2aRequest::GetTask(GetTaskRequest::default()));
        let r = A2aRequest::from_json(
            Operation::GetTask,
            br#"{"id":"t","historyLength":"2"}"#,
            &limits,
        )
        .unwrap();
        let A2aRequest::GetTask(r) = r else {
            panic!("wrong variant")
        };
        assert_eq!((r.id.as_str(), r.history_length), ("t", Some(2)));
        let err = A2aRequest::from_json(Operation::GetTask, br#"{"id":1}"#, &limits).unwrap_err();
        assert_eq!(err.path(), "id");
        assert_eq!(
            A2aRequest::empty(Operation::GetTask).validate()[0].field,
            "id"
        );
    }

    #[test]
    fn reply_serializes_its_result() {
        let task = Reply::GetTask(Task {
            id: "t".into(),
            ..Task::default()
        });
        assert_eq!(task.operation(), Operation::GetTask);
        assert!(serde_json::to_string(&task)
            .unwrap()
            .starts_with(r#"{"id":"t""#));
        let empty = Reply::DeleteTaskPushNotificationConfig(Empty);
        assert_eq!(serde_json::to_string(&empty).unwrap(), "{}");
        let stream: EventStream = Box::pin(NoEvents);
        let stream = Reply::SubscribeToTask(stream);
        assert!(serde_json::to_string(&stream).is_err());
        assert_eq!(format!("{stream:?}"), "SubscribeToTask(..)");
        let config = Reply::CreateTaskPushNotificationConfig(TaskPushNotificationConfig::default());
        assert!(format!("{config:?}").starts_with("CreateTaskPushNotificationConfig("));
    }

    struct NoEvents;
    impl Stream for NoEvents {
        type Item = Result<StreamResponse, A2aError>;
        fn poll_next(
            self: Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Self::Item>> {
            std::task::Poll::Ready(None)
        }
    }

    #[test]
    fn empty_reads_object_or_null_and_writes_object() {
        assert_eq!(serde_json::to_string(&Empty).unwrap(), "{}");
        assert_eq!(serde_json::from_str::<Empty>("{}").unwrap(), Empty);
        assert_eq!(serde_json::from_str::<Empty>("null").unwrap(), Empty);
        assert_eq!(
            serde_json::from_str::<Empty>(r#"{"x":[1]}"#).unwrap(),
            Empty
        );
    }
}
