//! The A2A JSON-RPC method table (spec 5.3, 9.4): one list from which the
//! typed request enum, the per-method marker types and the params decoder
//! are all generated.

use std::fmt;
use std::marker::PhantomData;

use a2a_types::v0_3::V03;
use a2a_types::{A2aRequest, Operation};
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

/// One A2A method: its operation, params type and result type.
///
/// Implemented by the marker types in [`methods`](crate::methods), so a
/// client can decode a response knowing which method it answers:
/// `decode_response::<methods::GetTask>(..)` yields a
/// [`Task`](a2a_types::Task).
pub trait Method {
    /// The operation (and so the method name, [`Operation::name`]).
    const OPERATION: Operation;
    /// The `params` type.
    type Params: Serialize + DeserializeOwned + Default + fmt::Debug;
    /// The `result` type; for streaming methods, the type of each event.
    type Result: Serialize + DeserializeOwned + fmt::Debug;
}

macro_rules! method_table {
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
        /// Marker types, one per A2A method, implementing [`Method`].
        pub mod methods {
            use super::*;
            $(
                #[doc = concat!("`", stringify!($name), "` (spec ", $section, "); its result type is the JSON-RPC `result`, each event's for a stream.")]
                #[derive(Debug, Clone, Copy, PartialEq, Eq)]
                pub struct $name;

                impl Method for $name {
                    const OPERATION: Operation = Operation::$name;
                    type Params = $params;
                    type Result = $item;
                }
            )*
        }

        /// The v1.0 method names (spec 5.3): the proto RPC names.
        const V1_ENTRIES: &[(&str, Operation)] = &[$((stringify!($name), Operation::$name)),*];

        /// The A2A 0.3 method names (0.3 spec 3.5.6, 7), the table's `v0_3`
        /// column. 0.3 has no `tasks/list`, so `ListTasks` is not here and
        /// its name is `MethodNotFoundError`.
        const V0_3_ENTRIES: &[(&str, Operation)] = &[$($(($v03, Operation::$name),)?)*];

        /// Test support: a generated request for `op`, drawn from `g`.
        #[cfg(feature = "testing")]
        #[doc(hidden)]
        pub fn generate_request(op: Operation, g: &mut a2a_types::testing::Gen) -> A2aRequest {
            use a2a_types::testing::Generate;
            match op {
                $( Operation::$name => A2aRequest::$name(<$params>::generate(g)), )*
            }
        }

        /// Decodes `params` for `op` in the table's form from a
        /// deserializer in one pass.
        pub(crate) struct ParamsSeed(pub(crate) Operation, pub(crate) Form);

        impl<'de> DeserializeSeed<'de> for ParamsSeed {
            type Value = A2aRequest;

            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<A2aRequest, D::Error> {
                match (self.0, self.1) {
                    $( (Operation::$name, Form::V1_0) => {
                        Option::<$params>::deserialize(d).map(|p| A2aRequest::$name(p.unwrap_or_default()))
                    }
                    (Operation::$name, Form::V0_3) => {
                        Option::<V03<$params>>::deserialize(d)
                            .map(|p| A2aRequest::$name(p.map(|p| p.0).unwrap_or_default()))
                    } )*
                }
            }
        }

        /// Decodes `params` for `op` from a deserializer straight into a
        /// slot: returned through the layers above, a request of hundreds
        /// of bytes would be copied at each.
        pub(crate) struct ParamsInto<'a>(
            pub(crate) Operation,
            pub(crate) Form,
            pub(crate) &'a mut Option<A2aRequest>,
        );

        impl<'de> DeserializeSeed<'de> for ParamsInto<'_> {
            type Value = ();

            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                match (self.0, self.1) {
                    $( (Operation::$name, Form::V1_0) => d.deserialize_option(SlotVisitor {
                        slot: self.2,
                        wrap: A2aRequest::$name,
                        params: PhantomData::<$params>,
                    }),
                    (Operation::$name, Form::V0_3) => d.deserialize_option(SlotVisitor {
                        slot: self.2,
                        wrap: |p: V03<$params>| A2aRequest::$name(p.0),
                        params: PhantomData::<V03<$params>>,
                    }), )*
                }
            }
        }

        /// Decodes `params` for `op` from its JSON text with the
        /// path-reporting decoder (the slow path, run only to explain a
        /// failure).
        pub(crate) fn params_error_path(op: Operation, form: Form, json: &[u8]) -> Option<a2a_types::DecodeError> {
            match (op, form) {
                $( (Operation::$name, Form::V1_0) => a2a_types::from_slice::<Option<$params>>(json).err(),
                (Operation::$name, Form::V0_3) => a2a_types::from_slice::<Option<V03<$params>>>(json).err(), )*
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

a2a_types::operation_table!(method_table);

/// The JSON form of params and results a [`MethodTable`] speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Form {
    /// ProtoJSON of the 1.0 proto (spec 5.5).
    #[default]
    V1_0,
    /// The 0.3 JSON Schema's shapes ([`a2a_types::v0_3`]).
    V0_3,
}

/// A table from method names to operations, with the JSON form of their
/// params. The decoder reads one of these: [`MethodTable::V1`] or the
/// compatibility table [`MethodTable::V0_3`] (`message/send`...).
#[derive(Debug, Clone, Copy)]
pub struct MethodTable {
    entries: &'static [(&'static str, Operation)],
    form: Form,
}

impl MethodTable {
    /// The A2A v1.0 method names (spec 5.3): the proto RPC names.
    pub const V1: MethodTable = MethodTable {
        entries: V1_ENTRIES,
        form: Form::V1_0,
    };

    /// The A2A 0.3 method names (0.3 spec 3.5.6), params in 0.3 form.
    pub const V0_3: MethodTable = MethodTable {
        entries: V0_3_ENTRIES,
        form: Form::V0_3,
    };

    /// A table over `entries` (method name, operation), params in 1.0 form.
    pub const fn new(entries: &'static [(&'static str, Operation)]) -> MethodTable {
        MethodTable {
            entries,
            form: Form::V1_0,
        }
    }

    /// The JSON form of this table's params and results.
    pub const fn form(&self) -> Form {
        self.form
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
    fn v0_3_table_has_every_operation_but_list_tasks() {
        for op in Operation::ALL {
            let name = MethodTable::V0_3.name_of(op);
            assert_eq!(name.is_none(), op == Operation::ListTasks, "{op:?}");
            if let Some(name) = name {
                assert_eq!(MethodTable::V0_3.lookup(name), Some(op));
                assert_eq!(MethodTable::V1.lookup(name), None);
            }
        }
        assert_eq!(MethodTable::V0_3.lookup("tasks/list"), None);
        assert_eq!(MethodTable::V0_3.lookup("SendMessage"), None);
        assert_eq!(MethodTable::V0_3.form(), Form::V0_3);
    }
}
