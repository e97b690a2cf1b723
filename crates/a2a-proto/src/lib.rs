//! The A2A v1.0 proto (`a2a-v1.0.proto`, package `lf.a2a.v1`) in its
//! binary protobuf form, for the gRPC binding (spec 10).
//!
//! # What this crate owns
//!
//! - **The generated messages** ([`pb`]): every message of the proto as a
//!   `prost` message, and `google.rpc.Status` with its details ([`rpc`]:
//!   `ErrorInfo`, `BadRequest`, ...). `google.protobuf.Struct`, `Value`,
//!   `Timestamp` and `Any` are `prost-types`'; `Empty` is `()`. The code is
//!   generated from the vendored `.proto` files in `proto/` by
//!   `scripts/gen-proto` (protox and prost-build: no system `protoc`) and
//!   checked in; a test of `a2a-proto-gen` fails when it is stale.
//! - **The one conversion layer** between those messages and the
//!   `a2a-types` model: [`Protobuf`], implemented for every message type of
//!   the proto (and for [`a2a_types::Struct`], `serde_json::Value`,
//!   [`a2a_types::Timestamp`] and [`a2a_types::Empty`]), with [`encode`]
//!   and [`decode`] over bytes. Lossless for every field of the proto;
//!   tests check value → bytes → value for all 44 types, and that Google's
//!   own protobuf library reads our bytes as the same message as our
//!   ProtoJSON of the same value.
//! - **A writer from the model straight to wire bytes**: [`encode`] (and
//!   [`encode_into`], which appends to a buffer) write each type's fields
//!   without building the prost message [`Protobuf::to_message`] returns,
//!   so no string is cloned; the bytes are exactly prost's for that
//!   message, which tests check byte for byte for all 44 types.
//! - **A reader from wire bytes straight into the model**: [`decode`]
//!   reads each type's fields into the model, with no prost message in
//!   between and nothing allocated but the model's own strings, vectors
//!   and maps. It reads as prost's generated code does (last value wins,
//!   a message field seen twice merges, a oneof keeps its last member,
//!   unknown fields and groups skipped) and refuses what
//!   [`Protobuf::from_message`] refuses, once the value is final (an enum
//!   written as 7 then 1 is 1): for every input the result is prost's
//!   decoding then `from_message`'s, the same value, or an error of the
//!   same kind at the same path (a wire error has its own text). Tests
//!   and the fuzz target check this against that path on mutated
//!   encodings of all 44 types.
//! - **`google.rpc.Status`** for errors: [`status_to_proto`] and
//!   [`status_from_proto`], and the canonical gRPC codes ([`GrpcCode`]),
//!   read for each error kind from the one error table (spec 5.4).
//!
//! # Features
//!
//! - `draft-1-1`: the A2A 1.1 draft's proto (`shared/spec/draft-1.1/a2a.proto`)
//!   instead of v1.0's: [`pb`] is generated from it, and the draft's fields
//!   (`Task.generation`, `Task.timeline`, ...) are carried both ways.
//!
//! # What it does not own
//!
//! gRPC framing, trailers and metadata are `a2a-transport`'s (`grpc`
//! module); this crate is bytes in, values out, without I/O.
//!
//! # Rules a reader may question
//!
//! - **Unknown fields are skipped** (proto3), as ProtoJSON input skips
//!   unknown members. **Unknown enum numbers are errors**, where proto3
//!   parsers keep them: the model's enums are closed
//!   (`docs/decisions.md`), as in ProtoJSON decoding. So is a oneof-only
//!   message with no member ([`ProtoErrorKind::EmptyOneof`]).
//! - **REQUIRED message fields** (`Task.status`,
//!   `SendMessageRequest.message`, ...) are plain values in the model: they
//!   are always written, and an absent one reads as the default, which
//!   validation then reports.
//! - **Numbers in `Struct`/`Value` are doubles** in the proto: a whole
//!   double in the `i64`/`u64` range reads as that integer (except `-0.0`),
//!   others as floats; integers past 2^53 become the nearest double.
//! - **[`Protobuf`] is implemented by this crate only**: it requires the
//!   writer [`encode`] uses, a sealed trait, so every type with a protobuf
//!   form has one, checked against prost's bytes.
//! - **Limits**: [`decode`] refuses input over 16 MiB
//!   ([`DEFAULT_MAX_MESSAGE_BYTES`]; [`decode_with_limit`] sets another)
//!   before parsing; nesting is bounded as prost bounds it (100 levels,
//!   a map entry or a group counting as one), so a hostile input cannot
//!   exhaust the stack.
//!
//! # Example
//!
//! ```
//! use a2a_types::{Message, SendMessageRequest};
//!
//! let request = SendMessageRequest::new(Message::user_text("msg-1", "What is the weather?"));
//! let bytes = a2a_proto::encode(&request);
//! let back: SendMessageRequest = a2a_proto::decode(&bytes)?;
//! assert_eq!(back, request);
//!
//! // An unknown enum number is refused with its path.
//! let mut message = a2a_proto::Protobuf::to_message(&request);
//! message.message.as_mut().unwrap().role = 7;
//! let err = a2a_proto::decode::<SendMessageRequest>(&a2a_proto::prost::Message::encode_to_vec(&message))
//!     .unwrap_err();
//! assert_eq!(err.path(), "message.role");
//! # Ok::<(), a2a_proto::ProtoError>(())
//! ```

mod convert;
mod error;
mod read;
mod reader;
mod status;
mod wire;
mod write;

#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod testing;

/// The generated messages of package `lf.a2a.v1` (`a2a-v1.0.proto`; with
/// the `draft-1-1` feature the 1.1 draft's `a2a.proto`, same package),
/// under prost's names (`ApiKeySecurityScheme` for `APIKeySecurityScheme`,
/// oneofs as enums in a module named after the message). The proto is
/// their documentation; convert to the model with [`Protobuf`].
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub mod pb {
    #[cfg(not(feature = "draft-1-1"))]
    include!("gen/lf.a2a.v1.rs");
    #[cfg(feature = "draft-1-1")]
    include!("gen/draft_1_1/lf.a2a.v1.rs");
}

/// The generated messages of package `google.rpc`: `Status` and the
/// standard error details (`google/rpc/status.proto`,
/// `google/rpc/error_details.proto`).
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub mod rpc {
    include!("gen/google.rpc.rs");
}

pub use convert::{Protobuf, DEFAULT_MAX_MESSAGE_BYTES};
pub use error::{ProtoError, ProtoErrorKind};
pub use read::{decode, decode_with_limit};
pub use status::{status_from_proto, status_to_proto, GrpcCode};
pub use write::{encode, encode_into};

/// The `prost` crate the generated messages implement `prost::Message` of.
pub use prost;
/// The `prost-types` crate: `google.protobuf.Struct`, `Value`, `Timestamp`,
/// `Any`.
pub use prost_types;
