//! Responses: encoding on the server, one-pass typed decoding on the client.

use std::fmt;
use std::marker::PhantomData;

use a2a_types::{A2aError, ErrorKind, JsonRpcError};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor,
};
use serde::Serialize;
use serde_json::value::RawValue;

use crate::id::Id;
use crate::method::{Method, MethodTable};
use a2a_types::A2aRequest;

/// An error response ready to send: the id to echo and the error.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorResponse {
    /// The request id, or [`Id::Null`] when it could not be read.
    pub id: Id,
    /// The error.
    pub error: A2aError,
    /// True when the request was a notification (a valid request object
    /// without `id`): the server must not send this response (JSON-RPC
    /// 2.0 section 4.1).
    pub notification: bool,
    /// True when the input was refused for being over a size or count
    /// limit ([`split_batch`](crate::split_batch)): an HTTP server answers
    /// it with 413.
    pub over_limit: bool,
}

impl ErrorResponse {
    /// An error response for `id`.
    pub fn new(id: Id, error: A2aError) -> ErrorResponse {
        ErrorResponse {
            id,
            error,
            notification: false,
            over_limit: false,
        }
    }

    /// The response as JSON bytes (spec 9.5).
    pub fn to_bytes(&self) -> Vec<u8> {
        encode_error(&self.id, &self.error)
    }
}

/// Encodes a success response `{"jsonrpc":"2.0","id":..,"result":..}`.
///
/// Also the frame format of streaming methods: each SSE `data` is one such
/// response whose result is a `StreamResponse` (spec 9.4.2).
pub fn encode_result<T: Serialize + ?Sized>(id: &Id, result: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    id.write_json(&mut out);
    out.extend_from_slice(br#","result":"#);
    if a2a_types::json::to_writer(&mut out, result).is_err() {
        // The A2A types serialize infallibly; a host type that fails is
        // answered as an internal error rather than half-written JSON.
        return encode_error(id, &A2aError::internal("result could not be serialized"));
    }
    out.push(b'}');
    out
}

/// Encodes an error response `{"jsonrpc":"2.0","id":..,"error":{..}}` (spec 9.5).
pub fn encode_error(id: &Id, error: &A2aError) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    id.write_json(&mut out);
    out.extend_from_slice(br#","error":"#);
    let object = error.to_jsonrpc_error();
    if a2a_types::json::to_writer(&mut out, &object).is_err() {
        out.truncate(0);
        return encode_error(id, &A2aError::internal("error could not be serialized"));
    }
    out.push(b'}');
    out
}

/// Encodes a request with a caller-chosen id, using the v1.0 method names.
pub fn encode_request(id: &Id, request: &A2aRequest) -> Vec<u8> {
    encode_request_with(id, request, &MethodTable::V1)
}

/// Encodes a request using the method names of `table`.
pub fn encode_request_with(id: &Id, request: &A2aRequest, table: &MethodTable) -> Vec<u8> {
    let op = request.operation();
    let name = table.name_of(op).unwrap_or(op.name());
    let mut out = Vec::with_capacity(256);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    id.write_json(&mut out);
    out.extend_from_slice(br#","method":"#);
    crate::id::write_json_string(&mut out, name);
    out.extend_from_slice(br#","params":"#);
    let start = out.len();
    let written = match table.form() {
        crate::Form::V0_3 => a2a_types::v0_3::params_to_writer(&mut out, request),
        _ => a2a_types::json::to_writer(&mut out, request),
    };
    if written.is_err() {
        out.truncate(start);
        out.extend_from_slice(b"{}");
    }
    out.push(b'}');
    out
}

/// Decodes the response to a request of method `M` with id `expected`,
/// reading the result straight into `M::Result` in one pass.
///
/// An error response becomes its [`A2aError`] (code, message and `data`
/// kept, known or not). A response that is not valid JSON-RPC, whose id is
/// not `expected`, or whose result does not decode, is an
/// `InvalidAgentResponseError` saying what was wrong.
pub fn decode_response<M: Method>(input: &[u8], expected: &Id) -> Result<M::Result, A2aError> {
    decode_response_as::<M::Result>(input, expected)
}

/// [`decode_response`] for any result type `T`.
pub fn decode_response_as<T: DeserializeOwned>(input: &[u8], expected: &Id) -> Result<T, A2aError> {
    // The fast reader first; what it declines, serde_json reads or names.
    let response =
        match a2a_types::json::try_from_slice_seed(input, ResponseVisitor::<T>(PhantomData)) {
            Ok(r) => r,
            Err(_) => {
                let mut de = serde_json::Deserializer::from_slice(input);
                let parsed = ResponseVisitor::<T>(PhantomData)
                    .deserialize(&mut de)
                    .and_then(|r| de.end().map(|()| r));
                match parsed {
                    Ok(r) => r,
                    Err(e) => {
                        return Err(invalid_response(&format!("not a JSON-RPC response: {e}")))
                    }
                }
            }
        };
    if response.version.map(RawValue::get) != Some("\"2.0\"") {
        return Err(invalid_response("missing \"jsonrpc\": \"2.0\""));
    }
    let id = match response.id.map(Id::from_raw) {
        Some(Some(id)) => id,
        Some(None) => {
            return Err(invalid_response(
                "\"id\" must be a string, a number or null",
            ))
        }
        None => return Err(invalid_response("missing \"id\"")),
    };
    match (response.result, response.error) {
        (Some(_), Some(_)) => Err(invalid_response(
            "both \"result\" and \"error\" are present",
        )),
        (None, None) => Err(invalid_response(
            "neither \"result\" nor \"error\" is present",
        )),
        // An error about an unreadable request is answered with id null
        // (JSON-RPC 2.0 section 5): it still belongs to this request.
        (None, Some(error)) if id == *expected || id == Id::Null => {
            Err(A2aError::from_jsonrpc_error(error))
        }
        (Some(result), None) if id == *expected => Ok(result),
        _ => Err(invalid_response(&format!(
            "response id {id} does not match request id {expected}"
        ))),
    }
}

fn invalid_response(why: &str) -> A2aError {
    A2aError::new(
        ErrorKind::InvalidAgentResponse,
        format!("Invalid agent response: {why}"),
    )
}

struct ResponseEnvelope<'de, T> {
    version: Option<&'de RawValue>,
    id: Option<&'de RawValue>,
    result: Option<T>,
    error: Option<JsonRpcError>,
}

struct ResponseVisitor<T>(PhantomData<T>);

impl<'de, T: DeserializeOwned> DeserializeSeed<'de> for ResponseVisitor<T> {
    type Value = ResponseEnvelope<'de, T>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, T: DeserializeOwned> Visitor<'de> for ResponseVisitor<T> {
    type Value = ResponseEnvelope<'de, T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC response object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut env = ResponseEnvelope {
            version: None,
            id: None,
            result: None,
            error: None,
        };
        while let Some(key) = map.next_key::<ResponseKey>()? {
            match key {
                ResponseKey::Jsonrpc => env.version = Some(map.next_value()?),
                ResponseKey::Id => env.id = Some(map.next_value()?),
                ResponseKey::Result => env.result = Some(map.next_value()?),
                ResponseKey::Error => env.error = map.next_value()?,
                ResponseKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(env)
    }
}

enum ResponseKey {
    Jsonrpc,
    Id,
    Result,
    Error,
    Other,
}

impl<'de> de::Deserialize<'de> for ResponseKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ResponseKey, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = ResponseKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ResponseKey, E> {
                Ok(match s {
                    "jsonrpc" => ResponseKey::Jsonrpc,
                    "id" => ResponseKey::Id,
                    "result" => ResponseKey::Result,
                    "error" => ResponseKey::Error,
                    _ => ResponseKey::Other,
                })
            }
        }
        d.deserialize_identifier(KeyVisitor)
    }
}
