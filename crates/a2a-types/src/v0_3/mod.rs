//! A2A 0.3 on the wire, over the 1.0 model (spec 3.6, Appendix A;
//! `specification-v0.3.md`, `a2a-v0.3.schema.json`).
//!
//! There is no second data model: a server or client holds the same
//! [`Task`](crate::Task), [`Message`](crate::Message),
//! [`AgentCard`](crate::AgentCard)... whichever version a peer speaks, and
//! this module only reads and writes their 0.3 JSON. A type that has a 0.3
//! form implements [`Codec`]; [`to_vec`] and [`from_slice`] encode and
//! decode it, and the [`V03`] wrapper lets a 0.3 value sit inside another
//! serde document (a JSON-RPC envelope, an SSE frame).
//!
//! - **Discriminators.** 0.3 tags parts (`kind: "text" | "file" | "data"`),
//!   messages (`"message"`), tasks (`"task"`) and stream events
//!   (`"status-update"`, `"artifact-update"`); 1.0 uses the member name.
//!   Output always writes `kind`; input requires it and rejects a wrong
//!   one, since it is the only thing that tells a 0.3 result apart.
//! - **Enums** are spelled the 0.3 way (`input-required`, `user`);
//!   decoding a 1.0 spelling in a 0.3 document is an error.
//! - **Limits** are the model's: [`from_slice_with_limits`] takes the same
//!   [`DecodeLimits`] and the same recursion limit applies, and errors name
//!   the JSON path as in [`crate::from_slice`].
//! - **What cannot cross** is data, not prose: [`MAPPING`] has one row per
//!   field that changes shape, name or meaning, with what happens in each
//!   direction. The table below is rendered from it (a test compares).
//!
//! # The mapping
//!
//! <!-- mapping table: rendered from MAPPING -->
//! | 1.0 (model) | 0.3 (wire) | 1.0 → 0.3 | 0.3 → 1.0 |
//! | --- | --- | --- | --- |
//! | `Part.text` | `TextPart` (`kind: "text"`) | kept | kept: `kind` REQUIRED |
//! | `Part.raw` | `FilePart.file.bytes` | kept | kept |
//! | `Part.url` | `FilePart.file.uri` | kept | kept |
//! | `Part.data` | `DataPart.data` | defaulted: an object as is; any other JSON value wrapped as `{"value": v}` | kept: must be an object |
//! | `Part.filename`, `Part.mediaType` | `file.name`, `file.mimeType` | lost: kept on file parts; 0.3 text and data parts have no place for them | kept |
//! | `Message` | `Message` (`kind: "message"`) | kept | kept: `kind` REQUIRED |
//! | `Role` (`ROLE_USER`, `ROLE_AGENT`) | `user`, `agent` | refused: `ROLE_UNSPECIFIED` has no spelling: encoding fails | kept: 1.0 spellings refused |
//! | `TaskState` (`TASK_STATE_INPUT_REQUIRED`...) | `TaskState` (`input-required`...) | kept: `TASK_STATE_UNSPECIFIED` is `unknown` | kept: `unknown` is `TASK_STATE_UNSPECIFIED`; 1.0 spellings refused |
//! | `Task` | `Task` (`kind: "task"`) | kept | kept: `kind` REQUIRED |
//! | `StreamResponse` (member name) | `kind` of the result | kept | kept |
//! | `TaskStatusUpdateEvent` | `kind: "status-update"`, `final` | defaulted: `final` is true for a terminal or interrupted state, where a 1.0 stream ends | lost: `final` dropped: 1.0 ends the stream instead |
//! | `TaskArtifactUpdateEvent` | `kind: "artifact-update"` | kept: `append`, `lastChunk` as is | kept |
//! | `tenant` (every request and push configuration) | - | lost: 0.3 has no tenants | defaulted: empty; the interface or path supplies it |
//! | `TaskPushNotificationConfig` (flat) | `TaskPushNotificationConfig` (`taskId`, `pushNotificationConfig`) | kept: `id`, `url`, `token`, `authentication` under `pushNotificationConfig` | kept |
//! | `AuthenticationInfo.scheme` | `PushNotificationAuthenticationInfo.schemes` | kept: a one-element list | lost: the first scheme kept, the others dropped |
//! | `SendMessageConfiguration.returnImmediately` | `MessageSendConfiguration.blocking` | kept: `blocking` is its negation, always written | defaulted: absent `blocking` blocks (0.3 spec 7.1) |
//! | - | `TaskQueryParams.metadata`, `TaskIdParams.metadata` (`tasks/resubscribe`), push config params' `metadata` | kept | lost: the 1.0 requests have no metadata |
//! | `GetTaskPushNotificationConfigRequest.id` | `pushNotificationConfigId` | kept | defaulted: absent means the task's default configuration, whose id is the task id |
//! | `ListTaskPushNotificationConfigsRequest.pageSize`, `pageToken`; response `nextPageToken` | - (the result is a bare array) | lost: 0.3 does not page | defaulted: no page size or token; empty next token |
//! | `ListTasks` | - | refused: 0.3 has no such method: `MethodNotFoundError` (`-32601`) | refused |
//! | `AgentCard.supportedInterfaces` | `url`, `preferredTransport`, `additionalInterfaces` | kept: the interfaces at 0.3 (all, when none is): the first is `url` and `preferredTransport`, all are in `additionalInterfaces`; `tenant` lost | kept: the main interface then the additional ones not repeating it; `JSONRPC` when no `preferredTransport` |
//! | `AgentInterface.protocolVersion` | `AgentCard.protocolVersion` | defaulted: `0.3.0` | kept: its major.minor, on every interface |
//! | `AgentCapabilities.extendedAgentCard` | `supportsAuthenticatedExtendedCard` | kept | kept |
//! | - | `AgentCapabilities.stateTransitionHistory` | kept: not written | lost: 1.0 removed it |
//! | `SecurityScheme` (oneof member name) | `SecurityScheme` (OpenAPI `type`: `apiKey`, `http`, `oauth2`, `openIdConnect`, `mutualTLS`) | kept: `location` is `in` | kept |
//! | `OAuthFlows` (one flow), `AuthorizationCodeOAuthFlow.pkceRequired` | `OAuthFlows` (several) | lost: `deviceCode` (0.3 has none) and `pkceRequired` dropped | lost: the first of authorizationCode, clientCredentials, implicit, password kept |
//! | `securityRequirements` (card, skill) | `security` (card, skill) | kept: lists of scopes per scheme | kept |
//! | errors `-32001`...`-32007` | the same codes | kept: `ExtendedAgentCardNotConfiguredError` is 0.3's `AuthenticatedExtendedCardNotConfiguredError` | kept |
//! | errors `-32008`, `-32009`, `-32090`, `-32091` | - (server-defined codes, 0.3 spec 8.2) | kept: sent with their codes, in the range 0.3 leaves to servers | kept |
//! | error details (`data`: an array of `google.rpc` details) | `data` (any JSON) | kept | kept: any `data` kept as is |
//! | `Message.parts` | HTTP+JSON: `Message.content` (the 0.3 proto's ProtoJSON) | kept | kept |
//! | `Part.raw`, `Part.url`, `Part.data`, `filename`, `mediaType` | HTTP+JSON: `file.fileWithBytes`, `file.fileWithUri`, `data.data`, `file.name`, `file.mimeType` | defaulted: as in the JSON-RPC form: non-object data wrapped as `{"value": v}`; name and media type only on file parts | kept |
//! | `Message.referenceTaskIds` | HTTP+JSON: - | lost: the 0.3 proto has no such field | defaulted: empty |
//! | `TASK_STATE_CANCELED` | HTTP+JSON: `TASK_STATE_CANCELLED` | kept | kept |
//! | `SendMessageConfiguration.returnImmediately` | HTTP+JSON: `configuration.blocking` (proto3 `bool`) | kept: its negation | defaulted: a configuration without `blocking` returns immediately (proto3 false, as the 0.3 SDK servers read it); no configuration blocks |
//! | `TaskPushNotificationConfig` (flat) | HTTP+JSON: `{name: "tasks/{id}/pushNotificationConfigs/{configId}", pushNotificationConfig}`; Python's create body `{parent, configId, config}` | kept | kept: both create bodies read; task and config ids from `parent`, `configId` or `name` when the configuration has none |
//! | `AgentCard` (`GET /v1/card`) | HTTP+JSON: the 0.3 proto's `AgentCard` | kept: the members the 0.3 proto shares (`securityRequirements` as `security`), the interfaces as in the JSON-RPC form | kept |
//! | errors (`google.rpc.Status` body) | HTTP+JSON: the JSON-RPC error object `{code, message, data}` | kept: with the error's HTTP status; stream errors as an SSE `error` event of it | kept |
//! <!-- end of mapping table -->
//!
//! # Example
//!
//! ```
//! use a2a_types::{v0_3, Message, Part, Role};
//!
//! let wire = br#"{"kind":"message","messageId":"m1","role":"user",
//!     "parts":[{"kind":"text","text":"hi"}]}"#;
//! let message: Message = v0_3::from_slice(wire)?;
//! assert_eq!(message.role, Role::User);
//! assert_eq!(message.parts[0], Part::text("hi"));
//! let out = String::from_utf8(v0_3::to_vec(&message).unwrap()).unwrap();
//! assert_eq!(out, r#"{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"hi"}]}"#);
//! # Ok::<(), a2a_types::DecodeError>(())
//! ```

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::decode::{DecodeError, DecodeLimits};

mod card;
mod message;
mod push;
mod requests;
mod rest;
mod table;
mod task;

pub use card::{card_from_v0_3, union_card, V03_CARD_MEMBERS, V03_PROTOCOL_VERSION};
pub use rest::{
    error_to_rest, event_from_rest, event_to_rest, reply_from_rest, reply_to_rest,
    request_from_rest, request_to_rest,
};
pub use table::{mapping_rows, Fate, Mapping, MAPPING};
pub use task::{state_from_str, state_name};

mod sealed {
    pub trait Sealed {}
}

/// A model type with a 0.3 wire form.
///
/// Implemented for the types an operation reads or writes; sealed, since
/// each implementation is a row set of [`MAPPING`].
pub trait Codec: Sized + sealed::Sealed {
    /// Writes `self` in its 0.3 form. Fails only for a value 0.3 cannot
    /// spell (a message with `ROLE_UNSPECIFIED`, which validation rejects
    /// anyway).
    fn serialize_v0_3<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;

    /// Reads the 0.3 form into the model.
    fn deserialize_v0_3<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// A value in its 0.3 form, for use inside another serde document:
/// `V03(&task)` serializes as a 0.3 task, and `V03<Task>` deserializes
/// from one.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct V03<T>(pub T);

impl<T: Codec> Serialize for V03<&T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_v0_3(serializer)
    }
}

impl<'de, T: Codec> Deserialize<'de> for V03<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<V03<T>, D::Error> {
        T::deserialize_v0_3(deserializer).map(V03)
    }
}

/// The 0.3 JSON of `value`.
pub fn to_vec<T: Codec>(value: &T) -> Result<Vec<u8>, crate::json::Error> {
    crate::json::to_vec(&V03(value))
}

/// Decodes a 0.3 document into the model with the default
/// [`DecodeLimits`].
pub fn from_slice<T: Codec>(bytes: &[u8]) -> Result<T, DecodeError> {
    from_slice_with_limits(bytes, &DecodeLimits::new())
}

/// Decodes a 0.3 document into the model, refusing input over
/// `limits.max_input_bytes` before parsing; nesting is bounded by
/// [`RECURSION_LIMIT`](crate::RECURSION_LIMIT) as for 1.0 documents.
pub fn from_slice_with_limits<T: Codec>(
    bytes: &[u8],
    limits: &DecodeLimits,
) -> Result<T, DecodeError> {
    crate::decode::from_slice_with_limits::<V03<T>>(bytes, limits).map(|v| v.0)
}

/// Writes the `params` of `request` in their 0.3 form (0.3 spec 7). A
/// `ListTasks` request has none (0.3 has no `tasks/list`): an error.
pub fn params_to_writer(
    out: &mut Vec<u8>,
    request: &crate::A2aRequest,
) -> Result<(), crate::json::Error> {
    macro_rules! arms {
        ($($name:ident { $($rest:tt)* })*) => {
            match request {
                $( crate::A2aRequest::$name(r) => crate::json::to_writer(out, &V03(r)), )*
            }
        };
    }
    crate::operation_table!(arms)
}

/// A unary operation's [`Reply`](crate::Reply) in its 0.3 form, the
/// `result` of a 0.3 JSON-RPC response. A streaming reply has no single
/// form (its events are each a [`StreamResponse`](crate::StreamResponse)),
/// nor has `ListTasks`: both fail to serialize.
#[derive(Debug, Clone, Copy)]
pub struct ReplyV03<'a>(pub &'a crate::Reply);

impl Serialize for ReplyV03<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        macro_rules! reply_v03 {
            (unary, $v:ident, $s:ident) => {
                $v.serialize_v0_3($s)
            };
            (stream, $v:ident, $s:ident) => {{
                let _ = $v;
                Err(<S::Error as serde::ser::Error>::custom(
                    "a stream has no single 0.3 result",
                ))
            }};
        }
        macro_rules! arms {
            ($($name:ident { method: $m:ident, section: $sec:literal, answer: $answer:ident, $($rest:tt)* })*) => {
                match self.0 {
                    $( crate::Reply::$name(v) => reply_v03!($answer, v, s), )*
                }
            };
        }
        crate::operation_table!(arms)
    }
}

/// Implements [`Codec`] for a model type through its wire struct: `From<&Model>`
/// for the wire struct, `TryFrom<Wire>` for the model (the error a message).
macro_rules! codec {
    ($($model:ty => $wire:ty),+ $(,)?) => {
        $(
            impl crate::v0_3::sealed::Sealed for $model {}

            impl crate::v0_3::Codec for $model {
                fn serialize_v0_3<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let wire = <$wire>::try_from(self).map_err(<S::Error as ::serde::ser::Error>::custom)?;
                    ::serde::Serialize::serialize(&wire, s)
                }

                fn deserialize_v0_3<'de, D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    let wire = <$wire as ::serde::Deserialize>::deserialize(d)?;
                    <$model>::try_from(wire).map_err(<D::Error as ::serde::de::Error>::custom)
                }
            }
        )+
    };
}
pub(crate) use codec;

/// The error of a conversion that cannot be made: a 0.3 value with no 1.0
/// meaning, or the reverse. Serde turns it into a located decode error.
pub(crate) type Refusal = String;

/// `#[serde(with = ...)]` adapters: a model value held in a wire struct,
/// written and read in its 0.3 form where it lies, so that a decode error
/// names its own JSON path (`parts[1]`), not the enclosing document's.
pub(crate) mod via {
    /// One value.
    pub(crate) mod one {
        use crate::v0_3::{Codec, V03};
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        pub(crate) fn serialize<S: Serializer, T: Codec>(v: &T, s: S) -> Result<S::Ok, S::Error> {
            V03(v).serialize(s)
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: Codec>(
            d: D,
        ) -> Result<T, D::Error> {
            V03::<T>::deserialize(d).map(|v| v.0)
        }
    }

    /// An optional value; `null` reads as absent.
    pub(crate) mod opt {
        use crate::v0_3::{Codec, V03};
        use serde::{Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer, T: Codec>(
            v: &Option<T>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match v {
                Some(v) => s.serialize_some(&V03(v)),
                None => s.serialize_none(),
            }
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: Codec>(
            d: D,
        ) -> Result<Option<T>, D::Error> {
            Ok(Option::<V03<T>>::deserialize(d)?.map(|v| v.0))
        }
    }

    /// A list; `null` reads as empty.
    pub(crate) mod list {
        use crate::protojson;
        use crate::v0_3::{Codec, V03};
        use serde::{Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer, T: Codec>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(v.iter().map(V03))
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: Codec>(
            d: D,
        ) -> Result<Vec<T>, D::Error> {
            let list: Vec<V03<T>> = protojson::repeated(d)?;
            Ok(list.into_iter().map(|v| v.0).collect())
        }
    }
}
