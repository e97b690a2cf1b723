//! JSON-RPC 2.0 for A2A v1.0 (spec 9): envelopes, the method table, and
//! typed decoding in one pass.
//!
//! This crate owns the bytes of the JSON-RPC binding: it turns a request
//! body into a typed [`Request`] (or the exact error response to send),
//! typed results and errors into response bodies, and, for clients, typed
//! requests into bodies and response bodies into typed results or
//! [`A2aError`](a2a_types::A2aError)s. It does not own HTTP (status codes,
//! headers, SSE framing: see `a2a-transport` and `a2a-sse`) nor any I/O.
//!
//! - [`decode_request`] reads the envelope and the params in one pass over
//!   the input: no detour through `serde_json::Value`.
//! - Ids are echoed exactly as received ([`Id`]); notifications (no `id`)
//!   decode as such, and batches split into their elements
//!   ([`split_batch`], [`encode_batch`]; JSON-RPC 2.0 sections 4.1, 6).
//! - The method table ([`MethodTable`], [`Method`], [`methods`]) exists once;
//!   everything else reads it.
//!
//! Features: `fast-json` (default) makes the single pass and the encoders
//! use a2a-types' own JSON reader and writer ([`a2a_types::json`]);
//! without it they use `serde_json`, with the same results. `testing` is
//! test and fuzz support for this workspace, not part of the API.
//!
//! ```
//! use a2a_jsonrpc::{decode_request, encode_result, A2aRequest, DecodeConfig, Id};
//! use a2a_types::Task;
//!
//! let body = br#"{"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"task-1"}}"#;
//! let request = decode_request(body, &DecodeConfig::default()).unwrap();
//! let A2aRequest::GetTask(params) = &request.request else { unreachable!() };
//! assert_eq!(params.id, "task-1");
//! assert_eq!(request.id, Id::number(7));
//!
//! // Unknown method: the error response echoes the id.
//! let bad = br#"{"jsonrpc":"2.0","id":"x","method":"Nope"}"#;
//! let err = decode_request(bad, &DecodeConfig::default()).unwrap_err();
//! assert_eq!(err.error.code().0, -32601);
//! assert!(String::from_utf8(err.to_bytes()).unwrap().contains(r#""id":"x""#));
//! ```

mod batch;
#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod fuzz;
mod id;
mod method;
mod reply;
mod request;
mod response;

pub use a2a_types::{A2aRequest, Empty};
pub use batch::{
    encode_batch, is_batch, split_batch, BatchLimits, DEFAULT_MAX_BATCH_LEN, DEFAULT_MAX_BATCH_SIZE,
};
pub use id::{Id, NumberText};
pub use method::{methods, Form, Method, MethodTable};
pub use reply::{decode_reply, decode_reply_v0_3};

#[cfg(feature = "testing")]
#[doc(hidden)]
pub use method::generate_request;
#[cfg(feature = "testing")]
#[doc(hidden)]
pub use reply::generate_result_json;
pub use request::{decode_request, peek_id, DecodeConfig, Request, DEFAULT_MAX_REQUEST_SIZE};
pub use response::{
    decode_response, decode_response_as, encode_error, encode_request, encode_request_with,
    encode_result, ErrorResponse,
};
