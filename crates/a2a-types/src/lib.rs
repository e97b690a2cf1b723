//! The A2A v1.0 data model (`a2a-v1.0.proto`) as Rust types, with serde in
//! ProtoJSON form.
//!
//! # What this crate owns
//!
//! - **Every message, enum and oneof of the proto** (spec 4), under the
//!   proto's names, at the crate root: [`Task`], [`Message`], [`Part`],
//!   [`AgentCard`], [`StreamResponse`], the request and response messages
//!   of every operation, the security schemes... Oneofs are Rust enums
//!   ([`PartContent`], [`SecurityScheme`], [`OAuthFlows`],
//!   [`SendMessageResponse`], [`StreamResponse`]), so a value with zero or
//!   two members cannot be built.
//! - **ProtoJSON** (spec 5.5-5.7, ADR-001). Output: camelCase keys; enums
//!   as proto names; REQUIRED fields always written; proto `optional`
//!   fields (`Option<T>`) written exactly when set; other scalars omitted
//!   when default, lists when empty, messages when absent; timestamps as
//!   `YYYY-MM-DDTHH:MM:SS.sssZ`; bytes as padded standard base64;
//!   `Struct` as a JSON object ([`Struct`]) and `Value` as any JSON value.
//!   Input, as Google's ProtoJSON parsers accept it: camelCase or proto
//!   field names; enum names or numbers; int32 as a number or a numeric
//!   string; standard or URL-safe base64, padded or not; timestamps with
//!   any offset; unknown fields ignored; `null` read as an absent field
//!   (except for `Part.data`, whose `null` is a JSON value). Messages are
//!   JSON objects only (not arrays of fields, which serde's derive would
//!   otherwise accept). Numbers inside `Struct`/`Value` are kept as
//!   `serde_json` reads them, exactly (the crate enables its
//!   `float_roundtrip` feature); the decoders also work when another crate
//!   of the build enables `serde_json/arbitrary_precision`.
//! - **Decoding with limits and located errors**: [`from_slice`] and
//!   [`from_str`] cap the input size ([`DecodeLimits`], 16 MiB by default)
//!   and nesting ([`RECURSION_LIMIT`]: 127 levels), and a [`DecodeError`] names
//!   the JSON path (`message.parts[2]`), line and column.
//! - **Encoding**: [`to_vec`] and [`to_writer`], the bytes
//!   `serde_json::to_vec` writes. Decoding and encoding go through the
//!   [`json`] module, whose own reader and writer (the default `fast-json`
//!   feature) are about twice as fast as `serde_json`.
//! - **Errors** (spec 3.3.2, 5.4, 9.5, 11.6): [`A2aError`] and one table
//!   giving each [`ErrorKind`] its JSON-RPC code, HTTP status, gRPC status
//!   and `ErrorInfo.reason`; conversions to and from the JSON-RPC error
//!   object ([`JsonRpcError`]) and the `google.rpc.Status` body
//!   ([`ErrorBody`]) that keep every detail.
//! - **The eleven operations** of spec 3.1 ([`Operation`]), the list both
//!   bindings map onto.
//! - **Validation** of REQUIRED fields ([`Validate`]), reported as
//!   [`FieldViolation`]s, the `google.rpc.BadRequest` shape.
//! - **The task lifecycle**: [`TaskState::is_terminal`],
//!   [`TaskState::is_interrupted`] and one transition table behind
//!   [`TaskState::can_transition_to`].
//! - **Client-side reconstruction** of a task from a stream: [`apply`]
//!   and [`TaskSnapshot`].
//! - **Checkpoint parts** (the A2aEngine `Parts` convention): [`checkpoint`]
//!   finds the data parts a producer tagged as its own state, so that a
//!   broker forwards each only to its owner.
//!
//! # What it does not own
//!
//! No I/O, no clock, no async runtime, no transport: JSON-RPC envelopes,
//! SSE framing and the HTTP bindings are other crates of the workspace.
//! Identifiers (task, message, artifact ids) and clock readings are the
//! caller's to supply.
//!
//! # Features
//!
//! - `fast-json` (default): the crate's own JSON reader and writer behind
//!   [`json`]; without it, `serde_json` does the same work, with the same
//!   results, more slowly.
//! - `draft-1-1`: the A2A 1.1 draft's fields and rules (`draft_1_1`:
//!   task generation, the timeline, `TaskGenerationMismatchError`).
//!   Without it the model is exactly 1.0's, byte for byte.
//! - `testing`: test and fuzz support for this workspace's own tests; not
//!   part of the API.
//!
//! # Decisions a reader may question
//!
//! - **Enums are closed.** An enum name or number the proto does not
//!   define is a decode error (naming the accepted names), not a hidden
//!   `Unknown(i32)` value: the state machine and the predicates must
//!   answer for every state, and spec 6.5 shows an unknown state name
//!   rejected.
//! - **Where input is stricter than protobuf's own parsers**: unknown
//!   enum numbers (proto3 parsers keep them); a oneof-only message
//!   (`Part`'s content, `SecurityScheme`, `OAuthFlows`,
//!   `SendMessageResponse`, `StreamResponse`) with no member, which has
//!   no meaning; base64 with embedded whitespace.
//! - **REQUIRED fields are judged on the typed value.** An empty REQUIRED
//!   string or list counts as missing ([`Validate`] documents the rules
//!   and the exceptions spec 3.1.4 makes for `ListTasksResponse`).
//! - **Timestamps are written with millisecond precision** (spec 5.6.1);
//!   [`Timestamp`] keeps nanoseconds, so sub-millisecond precision does
//!   not survive a round trip through the wire.
//! - **Artifact completion** (`lastChunk`) is reported by [`apply`] and
//!   tracked by [`TaskSnapshot`], not stored in the task.
//!
//! # Example
//!
//! ```
//! use a2a_types::{
//!     from_slice, Message, Part, SendMessageRequest, SendMessageResponse, TaskState, Validate,
//! };
//!
//! // A client builds a request; the server decodes and validates it.
//! let request = SendMessageRequest::new(Message::user_text("msg-1", "What is the weather?"));
//! let wire = serde_json::to_vec(&request).unwrap();
//! let received: SendMessageRequest = from_slice(&wire)?;
//! assert_eq!(received, request);
//! assert!(received.validate().is_ok());
//!
//! // The server answers with a task; the client decodes it.
//! let body = r#"{"task":{"id":"task-1","contextId":"ctx-1",
//!     "status":{"state":"TASK_STATE_COMPLETED","timestamp":"2024-03-15T12:05:00+02:00"},
//!     "artifacts":[{"artifactId":"a1","parts":[{"text":"Sunny, 24 °C"}]}]}}"#;
//! let SendMessageResponse::Task(task) = from_slice(body.as_bytes())? else { panic!("expected a task") };
//! assert_eq!(task.status.state, TaskState::Completed);
//! assert!(task.status.state.is_terminal());
//! assert_eq!(task.artifacts[0].parts[0], Part::text("Sunny, 24 °C"));
//! assert_eq!(
//!     serde_json::to_value(&task.status).unwrap()["timestamp"],
//!     "2024-03-15T10:05:00.000Z"
//! );
//!
//! // Errors say where.
//! let err = from_slice::<SendMessageRequest>(
//!     br#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a"},{"raw":"%%"}]}}"#,
//! )
//! .unwrap_err();
//! assert_eq!(err.path(), "message.parts[1].raw");
//! # Ok::<(), a2a_types::DecodeError>(())
//! ```

mod agent_card;
pub mod calendar;
pub mod checkpoint;
mod decode;
#[cfg(feature = "draft-1-1")]
pub mod draft_1_1;
mod error;
mod events;
/// JSON in and out: the `a2a-json` crate (see there), under the name this
/// crate has always given it.
pub use a2a_json as json;
mod message;
mod operation;
mod protojson;
mod push;
mod reconstruct;
mod requests;
mod rules;
mod security;
mod task;
mod timestamp;
pub mod v0_3;
mod validate;

#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod testing;

pub use agent_card::{
    AgentCapabilities, AgentCard, AgentCardSignature, AgentExtension, AgentInterface,
    AgentProvider, AgentSkill,
};
pub use decode::{
    from_slice, from_slice_with_limits, from_str, from_str_with_limits, DecodeError,
    DecodeErrorKind, DecodeLimits, DEFAULT_MAX_INPUT_BYTES,
};
pub use error::{
    A2aError, BadRequest, ErrorBody, ErrorCode, ErrorDetail, ErrorInfo, ErrorKind, FieldViolation,
    JsonRpcError, RetryInfo, RpcStatus, BAD_REQUEST_TYPE, CLIENT_ERROR_DOMAIN, ERROR_DOMAIN,
    ERROR_INFO_TYPE, RETRY_INFO_TYPE,
};
pub use events::{StreamResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent};
pub use json::RECURSION_LIMIT;
pub use json::{to_vec, to_writer};
pub use message::{new_message_id, Artifact, Message, Part, PartContent, Role};
pub use operation::{A2aRequest, Empty, EventStream, Operation, Reply};
pub use protojson::{Struct, UnknownEnumValue};
pub use push::{AuthenticationInfo, TaskPushNotificationConfig};
pub use reconstruct::{apply, Applied, ReconstructError, TaskSnapshot};
pub use requests::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, SubscribeToTaskRequest,
};
pub use rules::{
    history_limit, list_page_size, TaskCursor, DEFAULT_LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE,
};
pub use security::{
    APIKeySecurityScheme, AuthorizationCodeOAuthFlow, ClientCredentialsOAuthFlow,
    DeviceCodeOAuthFlow, HTTPAuthSecurityScheme, ImplicitOAuthFlow, MutualTlsSecurityScheme,
    OAuth2SecurityScheme, OAuthFlows, OpenIdConnectSecurityScheme, PasswordOAuthFlow,
    SecurityRequirement, SecurityScheme, StringList,
};
pub use task::{InvalidTransition, Task, TaskState, TaskStatus};
pub use timestamp::{Timestamp, TimestampError};
pub use validate::{FieldPath, Validate};
