//! The A2A JSON-RPC method table (spec 5.3, 9.4): one list from which the
//! typed request enum, the per-method marker types and the params decoder
//! are all generated.

use std::fmt;
use std::marker::PhantomData;

use a2a_types::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, Operation, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// `google.protobuf.Empty`: the result of `DeleteTaskPushNotificationConfig`.
///
/// Written as `{}`; read from `{}` (unknown members ignored) or `null`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Empty;

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

/// One A2A method: its operation, params type and result type.
///
/// Implemented by the marker types in [`methods`](crate::methods), so a
/// client can decode a response knowing which method it answers:
/// `decode_response::<methods::GetTask>(..)` yields a [`Task`].
pub trait Method {
    /// The operation (and so the method name, [`Operation::name`]).
    const OPERATION: Operation;
    /// The `params` type.
    type Params: Serialize + DeserializeOwned + Default + fmt::Debug;
    /// The `result` type; for streaming methods, the type of each event.
    type Result: Serialize + DeserializeOwned + fmt::Debug;
}

macro_rules! method_table {
    ($( $(#[$doc:meta])* $name:ident($params:ty) -> $result:ty; )*) => {
        /// Marker types, one per A2A method, implementing [`Method`].
        pub mod methods {
            use super::*;
            $(
                $(#[$doc])*
                #[derive(Debug, Clone, Copy, PartialEq, Eq)]
                pub struct $name;

                impl Method for $name {
                    const OPERATION: Operation = Operation::$name;
                    type Params = $params;
                    type Result = $result;
                }
            )*
        }

        /// A typed A2A request: one variant per method, holding its params.
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum A2aRequest {
            $( $(#[$doc])* $name($params), )*
        }

        impl A2aRequest {
            /// The operation this request invokes.
            pub fn operation(&self) -> Operation {
                match self {
                    $( A2aRequest::$name(_) => Operation::$name, )*
                }
            }

            /// Serializes the params object.
            pub(crate) fn serialize_params<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $( A2aRequest::$name(p) => p.serialize(s), )*
                }
            }

            /// Every REQUIRED field the params lack (spec 3.3.2: servers
            /// MUST validate all input parameters).
            pub fn validate(&self) -> Vec<a2a_types::FieldViolation> {
                match self {
                    $( A2aRequest::$name(p) => crate::validation::violations(p), )*
                }
            }
        }

        /// Test support: a generated request for `op`, drawn from `g`.
        #[cfg(feature = "testing")]
        #[doc(hidden)]
        pub fn generate_request(op: Operation, g: &mut a2a_types::testing::Gen) -> A2aRequest {
            use a2a_types::testing::Generate;
            match op {
                $( Operation::$name => A2aRequest::$name(<$params>::generate(g)), )*
            }
        }

        /// Test support: a generated result of `op`'s result type, encoded
        /// as JSON.
        #[cfg(feature = "testing")]
        #[doc(hidden)]
        pub fn generate_result_json(op: Operation, g: &mut a2a_types::testing::Gen, id: &crate::Id) -> Vec<u8> {
            match op {
                $( Operation::$name => crate::encode_result(id, &<$result as GenerateResult>::generate_result(g)), )*
            }
        }

        /// Decodes `params` for `op` from a deserializer in one pass.
        pub(crate) struct ParamsSeed(pub(crate) Operation);

        impl<'de> DeserializeSeed<'de> for ParamsSeed {
            type Value = A2aRequest;

            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<A2aRequest, D::Error> {
                match self.0 {
                    $( Operation::$name => {
                        Option::<$params>::deserialize(d).map(|p| A2aRequest::$name(p.unwrap_or_default()))
                    } )*
                }
            }
        }

        /// Decodes `params` for `op` from a deserializer straight into a
        /// slot: returned through the layers above, a request of hundreds
        /// of bytes would be copied at each.
        pub(crate) struct ParamsInto<'a>(pub(crate) Operation, pub(crate) &'a mut Option<A2aRequest>);

        impl<'de> DeserializeSeed<'de> for ParamsInto<'_> {
            type Value = ();

            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                match self.0 {
                    $( Operation::$name => d.deserialize_option(SlotVisitor {
                        slot: self.1,
                        wrap: A2aRequest::$name,
                        params: PhantomData::<$params>,
                    }), )*
                }
            }
        }

        /// Decodes `params` for `op` from its JSON text with the
        /// path-reporting decoder (the slow path, run only to explain a
        /// failure).
        pub(crate) fn params_error_path(op: Operation, json: &[u8]) -> Option<a2a_types::DecodeError> {
            match op {
                $( Operation::$name => a2a_types::from_slice::<Option<$params>>(json).err(), )*
            }
        }
    };
}

/// Reads one method's params into a slot; `null` is the empty params
/// object.
struct SlotVisitor<'a, T, W> {
    slot: &'a mut Option<A2aRequest>,
    /// The variant's constructor, as its own type so that it is inlined.
    wrap: W,
    params: PhantomData<T>,
}

impl<'de, T, W> Visitor<'de> for SlotVisitor<'_, T, W>
where
    T: Deserialize<'de> + Default,
    W: FnOnce(T) -> A2aRequest,
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a params object")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        *self.slot = Some((self.wrap)(T::default()));
        Ok(())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        // Matched rather than `?`: one copy of the params, not two.
        match T::deserialize(d) {
            Ok(params) => {
                *self.slot = Some((self.wrap)(params));
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}

method_table! {
    /// `SendMessage` (spec 9.4.1).
    SendMessage(SendMessageRequest) -> SendMessageResponse;
    /// `SendStreamingMessage` (spec 9.4.2); each event is a [`StreamResponse`].
    SendStreamingMessage(SendMessageRequest) -> StreamResponse;
    /// `GetTask` (spec 9.4.3).
    GetTask(GetTaskRequest) -> Task;
    /// `ListTasks` (spec 9.4.4).
    ListTasks(ListTasksRequest) -> ListTasksResponse;
    /// `CancelTask` (spec 9.4.5).
    CancelTask(CancelTaskRequest) -> Task;
    /// `SubscribeToTask` (spec 9.4.6); each event is a [`StreamResponse`].
    SubscribeToTask(SubscribeToTaskRequest) -> StreamResponse;
    /// `CreateTaskPushNotificationConfig` (spec 9.4.7).
    CreateTaskPushNotificationConfig(TaskPushNotificationConfig) -> TaskPushNotificationConfig;
    /// `GetTaskPushNotificationConfig` (spec 9.4.7).
    GetTaskPushNotificationConfig(GetTaskPushNotificationConfigRequest) -> TaskPushNotificationConfig;
    /// `ListTaskPushNotificationConfigs` (spec 9.4.7).
    ListTaskPushNotificationConfigs(ListTaskPushNotificationConfigsRequest) -> ListTaskPushNotificationConfigsResponse;
    /// `DeleteTaskPushNotificationConfig` (spec 9.4.7); answers [`Empty`].
    DeleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest) -> Empty;
    /// `GetExtendedAgentCard` (spec 9.4.8).
    GetExtendedAgentCard(GetExtendedAgentCardRequest) -> AgentCard;
}

/// Result types the test generator can make (`Empty` has nothing to draw).
#[cfg(feature = "testing")]
#[doc(hidden)]
pub trait GenerateResult {
    /// A value drawn from `g`.
    fn generate_result(g: &mut a2a_types::testing::Gen) -> Self;
}

#[cfg(feature = "testing")]
impl<T: a2a_types::testing::Generate> GenerateResult for T {
    fn generate_result(g: &mut a2a_types::testing::Gen) -> T {
        T::generate(g)
    }
}

#[cfg(feature = "testing")]
impl GenerateResult for Empty {
    fn generate_result(_: &mut a2a_types::testing::Gen) -> Empty {
        Empty
    }
}

/// A table from method names to operations. The decoder reads one of
/// these, so a compatibility table (the 0.3 names such as `message/send`)
/// can be offered without touching the decoder.
#[derive(Debug, Clone, Copy)]
pub struct MethodTable {
    entries: &'static [(&'static str, Operation)],
}

impl MethodTable {
    /// The A2A v1.0 method names (spec 5.3): the proto RPC names.
    pub const V1: MethodTable = MethodTable {
        entries: &[
            ("SendMessage", Operation::SendMessage),
            ("SendStreamingMessage", Operation::SendStreamingMessage),
            ("GetTask", Operation::GetTask),
            ("ListTasks", Operation::ListTasks),
            ("CancelTask", Operation::CancelTask),
            ("SubscribeToTask", Operation::SubscribeToTask),
            (
                "CreateTaskPushNotificationConfig",
                Operation::CreateTaskPushNotificationConfig,
            ),
            (
                "GetTaskPushNotificationConfig",
                Operation::GetTaskPushNotificationConfig,
            ),
            (
                "ListTaskPushNotificationConfigs",
                Operation::ListTaskPushNotificationConfigs,
            ),
            (
                "DeleteTaskPushNotificationConfig",
                Operation::DeleteTaskPushNotificationConfig,
            ),
            ("GetExtendedAgentCard", Operation::GetExtendedAgentCard),
        ],
    };

    /// A table over `entries` (method name, operation).
    pub const fn new(entries: &'static [(&'static str, Operation)]) -> MethodTable {
        MethodTable { entries }
    }

    /// The operation a method name invokes (exact, case-sensitive).
    pub fn lookup(&self, name: &str) -> Option<Operation> {
        self.entries
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, op)| *op)
    }

    /// The method name of `op` in this table.
    pub fn name_of(&self, op: Operation) -> Option<&'static str> {
        self.entries.iter().find(|(_, o)| *o == op).map(|(n, _)| *n)
    }
}

impl Default for MethodTable {
    fn default() -> MethodTable {
        MethodTable::V1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_table_uses_proto_names() {
        for op in Operation::ALL {
            assert_eq!(MethodTable::V1.lookup(op.name()), Some(op));
            assert_eq!(MethodTable::V1.name_of(op), Some(op.name()));
        }
        assert_eq!(MethodTable::V1.lookup("message/send"), None);
        assert_eq!(MethodTable::V1.lookup("getTask"), None);
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
