//! [`JsonCodec`]: the bodies of one JSON wire, a binding at a protocol
//! version, for both ends. The server encodes answers and events with it,
//! the client requests' bodies and reads answers and events with it; what
//! differs between 1.0 and 0.3 is a `match` on the codec here, not a flag
//! threaded through either end.

use a2a_jsonrpc::{
    decode_reply, decode_reply_v0_3, decode_response, decode_response_as, encode_error,
    encode_request_with, encode_result, methods, Id, MethodTable,
};
use a2a_types::v0_3::{ReplyV03, V03};
use a2a_types::{
    A2aError, A2aRequest, DecodeError, DecodeLimits, ErrorBody, ErrorKind, JsonRpcError, Operation,
    Reply, StreamResponse,
};

use crate::binding::Binding;
use crate::media::{A2A_JSON, APPLICATION_JSON};
use crate::route::RouteTable;
use crate::version::ProtocolVersion;

/// The bodies of one JSON wire: JSON-RPC (spec 9) or HTTP+JSON (spec 11)
/// at 1.0, or at 0.3 (0.3 spec 3.2, 7: its method names and routes, its
/// `kind`-tagged or 0.3-proto bodies, no tenants). The 1.1 draft rides
/// 1.0's codecs: its fields are the model's. gRPC's bodies are the
/// proto's at every version it speaks (`a2a-proto`).
///
/// ```
/// use a2a_wire::{Binding, JsonCodec, ProtocolVersion};
///
/// let codec = JsonCodec::select(Binding::JsonRpc, ProtocolVersion::V0_3).unwrap();
/// assert_eq!(codec, JsonCodec::JsonRpcV0_3);
/// assert_eq!(codec.method_table().name_of(a2a_types::Operation::SendMessage), Some("message/send"));
/// assert_eq!(JsonCodec::select(Binding::Grpc, ProtocolVersion::V1_0), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JsonCodec {
    /// JSON-RPC 2.0 at 1.0 (spec 9).
    JsonRpc,
    /// JSON-RPC at 0.3 (0.3 spec 7).
    JsonRpcV0_3,
    /// HTTP+JSON at 1.0 (spec 11).
    HttpJson,
    /// HTTP+JSON at 0.3 (0.3 spec 3.2.3).
    HttpJsonV0_3,
}

impl JsonCodec {
    /// The codec of `binding` at `version`, or `None` when the binding is
    /// not a JSON one or the version is not spoken (2.0, say).
    pub fn select(binding: Binding, version: ProtocolVersion) -> Option<JsonCodec> {
        let v0_3 = if version == ProtocolVersion::V0_3 {
            true
        } else if version == ProtocolVersion::V1_0 || is_draft(version) {
            false
        } else {
            return None;
        };
        match (binding, v0_3) {
            (Binding::JsonRpc, false) => Some(JsonCodec::JsonRpc),
            (Binding::JsonRpc, true) => Some(JsonCodec::JsonRpcV0_3),
            (Binding::HttpJson, false) => Some(JsonCodec::HttpJson),
            (Binding::HttpJson, true) => Some(JsonCodec::HttpJsonV0_3),
            _ => None,
        }
    }

    /// The codec a server answers in over `binding` (a JSON one) when the
    /// call negotiated `version`: 0.3's for 0.3, else 1.0's (a call
    /// refused before or at negotiation is answered in 1.0's form).
    pub fn answering(binding: Binding, version: Option<ProtocolVersion>) -> JsonCodec {
        let v0_3 = version == Some(ProtocolVersion::V0_3);
        match (binding, v0_3) {
            (Binding::HttpJson, false) => JsonCodec::HttpJson,
            (Binding::HttpJson, true) => JsonCodec::HttpJsonV0_3,
            (_, false) => JsonCodec::JsonRpc,
            (_, true) => JsonCodec::JsonRpcV0_3,
        }
    }

    /// The binding.
    pub fn binding(self) -> Binding {
        match self {
            JsonCodec::JsonRpc | JsonCodec::JsonRpcV0_3 => Binding::JsonRpc,
            JsonCodec::HttpJson | JsonCodec::HttpJsonV0_3 => Binding::HttpJson,
        }
    }

    /// Whether the wire is A2A 0.3's.
    pub fn is_v0_3(self) -> bool {
        matches!(self, JsonCodec::JsonRpcV0_3 | JsonCodec::HttpJsonV0_3)
    }

    /// The JSON-RPC method names at this codec's version (spec 9.4; 0.3
    /// spec 7): [`MethodTable::V0_3`] at 0.3, else [`MethodTable::V1`].
    pub fn method_table(self) -> &'static MethodTable {
        if self.is_v0_3() {
            &MethodTable::V0_3
        } else {
            &MethodTable::V1
        }
    }

    /// The HTTP+JSON routes at this codec's version (spec 11.3; 0.3 spec
    /// 3.2.3).
    pub fn route_table(self) -> RouteTable {
        if self.is_v0_3() {
            RouteTable::V0_3
        } else {
            RouteTable::V1_0
        }
    }

    /// The media type of a request body and of the answers whose type the
    /// caller's `Accept` does not pick: `application/a2a+json` for 1.0's
    /// HTTP+JSON (spec 11.2), `application/json` for JSON-RPC and for 0.3,
    /// which knows no other (0.3 spec 3.2.3).
    pub fn media_type(self) -> &'static str {
        match self {
            JsonCodec::HttpJson => A2A_JSON,
            _ => APPLICATION_JSON,
        }
    }

    /// A JSON-RPC request object of `request` with `id` (JSON-RPC codecs
    /// only; the HTTP+JSON request is its route plus
    /// [`request_body`](JsonCodec::request_body)).
    pub fn encode_request(self, id: &Id, request: &A2aRequest) -> Vec<u8> {
        encode_request_with(id, request, self.method_table())
    }

    /// The HTTP+JSON body of `request` (spec 11.4): the whole request
    /// message at 1.0; at 0.3 the 0.3 proto's ProtoJSON, what the 0.3 SDK
    /// REST clients send, or `{}` for a request with no 0.3 body (cancel,
    /// subscribe: the path names the task).
    pub fn request_body(self, request: &A2aRequest) -> Result<Vec<u8>, A2aError> {
        let encoded = if self.is_v0_3() {
            a2a_types::v0_3::request_to_rest(request).map(|b| b.unwrap_or_else(|| b"{}".to_vec()))
        } else {
            a2a_types::json::to_vec(request)
        };
        encoded.map_err(|e| A2aError::internal(format!("request encoding: {e}")))
    }

    /// An HTTP+JSON request body as the request of `op` (spec 11.4): the
    /// request message's ProtoJSON at 1.0, the 0.3 proto's at 0.3 (read
    /// leniently: original field names, `null`, empty sub-messages). The
    /// JSON-RPC request object is read by `a2a_jsonrpc::decode_request`
    /// with [`method_table`](JsonCodec::method_table).
    pub fn decode_request_body(
        self,
        op: Operation,
        body: &[u8],
        limits: &DecodeLimits,
    ) -> Result<A2aRequest, DecodeError> {
        if self.is_v0_3() {
            a2a_types::v0_3::request_from_rest(op, body, limits)
        } else {
            A2aRequest::from_json(op, body, limits)
        }
    }

    /// A unary answer's body: the JSON-RPC response with `id`, or the
    /// HTTP+JSON result message (`id` unused), in this codec's form.
    pub fn encode_reply(self, id: &Id, reply: &Reply) -> Result<Vec<u8>, A2aError> {
        let encoded = match self {
            JsonCodec::JsonRpc => return Ok(encode_result(id, reply)),
            JsonCodec::JsonRpcV0_3 => return Ok(encode_result(id, &ReplyV03(reply))),
            JsonCodec::HttpJson => a2a_types::json::to_vec(reply),
            JsonCodec::HttpJsonV0_3 => a2a_types::v0_3::reply_to_rest(reply),
        };
        encoded.map_err(|e| A2aError::internal(format!("the result could not be serialized: {e}")))
    }

    /// One stream event's `data` (spec 3.1.2): a JSON-RPC response with
    /// `id`, or the bare `StreamResponse`, in this codec's form.
    pub fn encode_event(self, id: &Id, event: &StreamResponse) -> Result<Vec<u8>, A2aError> {
        let encoded = match self {
            JsonCodec::JsonRpc => return Ok(encode_result(id, event)),
            JsonCodec::JsonRpcV0_3 => return Ok(encode_result(id, &V03(event))),
            JsonCodec::HttpJson => a2a_types::json::to_vec(event),
            JsonCodec::HttpJsonV0_3 => a2a_types::v0_3::event_to_rest(event),
        };
        encoded.map_err(|e| A2aError::internal(format!("the event could not be serialized: {e}")))
    }

    /// An error as this codec carries it in a body or a stream frame: the
    /// JSON-RPC error response with `id`; HTTP+JSON's `google.rpc.Status`
    /// body (spec 11.6) at 1.0; at 0.3 the JSON-RPC error object, what the
    /// 0.3 JavaScript client maps by `code`.
    pub fn encode_error(self, id: &Id, error: &A2aError) -> Vec<u8> {
        match self {
            JsonCodec::JsonRpc | JsonCodec::JsonRpcV0_3 => encode_error(id, error),
            JsonCodec::HttpJson => a2a_types::json::to_vec(&error.to_status()).unwrap_or_else(|_| {
                br#"{"error":{"code":500,"status":"INTERNAL","message":"the error could not be serialized"}}"#
                    .to_vec()
            }),
            JsonCodec::HttpJsonV0_3 => a2a_types::v0_3::error_to_rest(error),
        }
    }

    /// Whether a streaming call that fails is answered with a stream whose
    /// one event is the error: 0.3 JSON-RPC's form (0.3 spec 3.3.1, 7; both
    /// 0.3 SDK servers do), which a client reads as the call's error.
    pub fn errors_in_stream(self) -> bool {
        self.is_v0_3()
    }

    /// A unary answer's success body as the result of `op`, the JSON-RPC
    /// response matched against `id`. An HTTP+JSON body that is blank
    /// reads as `null`, which only `google.protobuf.Empty` accepts. A body
    /// that is not the result is an `InvalidAgentResponseError`; a JSON-RPC
    /// error response is its error.
    pub fn decode_reply(self, op: Operation, bytes: &[u8], id: &Id) -> Result<Reply, A2aError> {
        let limits = DecodeLimits::new().with_max_input_bytes(usize::MAX);
        let decoded = match self {
            JsonCodec::JsonRpc => return decode_reply(op, bytes, id),
            JsonCodec::JsonRpcV0_3 => return decode_reply_v0_3(op, bytes, id),
            JsonCodec::HttpJson => {
                let blank = bytes.iter().all(u8::is_ascii_whitespace);
                Reply::from_json(op, if blank { b"null" } else { bytes }, &limits)
            }
            JsonCodec::HttpJsonV0_3 => a2a_types::v0_3::reply_from_rest(op, bytes, &limits),
        };
        decoded.map_err(|e| invalid_response(&e.to_string()))
    }

    /// One stream event's `data` as a `StreamResponse`, or the error the
    /// frame carries; anything else is an `InvalidAgentResponseError`.
    pub fn decode_event(self, data: &[u8], id: &Id) -> Result<StreamResponse, A2aError> {
        let decoded = match self {
            JsonCodec::JsonRpc => {
                return decode_response::<methods::SendStreamingMessage>(data, id)
            }
            JsonCodec::JsonRpcV0_3 => {
                return decode_response_as::<V03<StreamResponse>>(data, id).map(|e| e.0)
            }
            JsonCodec::HttpJson => a2a_types::from_slice::<StreamResponse>(data),
            JsonCodec::HttpJsonV0_3 => a2a_types::v0_3::event_from_rest(data, &DecodeLimits::new()),
        };
        decoded.map_err(|not_event| {
            self.decode_error(data)
                .unwrap_or_else(|| invalid_response(&format!("stream event: {not_event}")))
        })
    }

    /// The error an error body carries, if it is one: the JSON-RPC error
    /// response's error; HTTP+JSON's `google.rpc.Status` body (spec 11.6),
    /// at 0.3 the JSON-RPC error object first (0.3 spec 8, what the
    /// reference agent and the JS 0.3 SDK answer).
    pub fn decode_error(self, bytes: &[u8]) -> Option<A2aError> {
        match self {
            JsonCodec::JsonRpc | JsonCodec::JsonRpcV0_3 => {
                #[derive(serde::Deserialize)]
                struct Envelope {
                    error: Option<JsonRpcError>,
                }
                serde_json::from_slice::<Envelope>(bytes)
                    .ok()?
                    .error
                    .map(A2aError::from_jsonrpc_error)
            }
            JsonCodec::HttpJsonV0_3 => match serde_json::from_slice::<JsonRpcError>(bytes) {
                Ok(e) => Some(A2aError::from_jsonrpc_error(e)),
                Err(_) => JsonCodec::HttpJson.decode_error(bytes),
            },
            JsonCodec::HttpJson => serde_json::from_slice::<ErrorBody>(bytes)
                .ok()
                .map(|b| A2aError::from_status(b.error.code, Some(b.error))),
        }
    }
}

/// What a client makes of an answer that is not the binding's (spec
/// 3.3.2).
fn invalid_response(why: &str) -> A2aError {
    A2aError::new(
        ErrorKind::InvalidAgentResponse,
        format!("Invalid agent response: {why}"),
    )
}

/// Whether `version` is the 1.1 draft, spoken on 1.0's codecs.
fn is_draft(version: ProtocolVersion) -> bool {
    #[cfg(feature = "draft-1-1")]
    if version == ProtocolVersion::V1_1 {
        return true;
    }
    let _ = version;
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [JsonCodec; 4] = [
        JsonCodec::JsonRpc,
        JsonCodec::JsonRpcV0_3,
        JsonCodec::HttpJson,
        JsonCodec::HttpJsonV0_3,
    ];

    #[test]
    fn each_json_wire_has_one_codec() {
        for codec in ALL {
            let version = if codec.is_v0_3() {
                ProtocolVersion::V0_3
            } else {
                ProtocolVersion::V1_0
            };
            assert_eq!(JsonCodec::select(codec.binding(), version), Some(codec));
            assert_eq!(JsonCodec::answering(codec.binding(), Some(version)), codec);
        }
        assert_eq!(
            JsonCodec::select(Binding::Grpc, ProtocolVersion::V1_0),
            None
        );
        assert_eq!(
            JsonCodec::answering(Binding::HttpJson, None),
            JsonCodec::HttpJson
        );
    }

    #[test]
    fn what_one_end_encodes_the_other_decodes() {
        let task = a2a_types::Task::new("t-1", "c-1", a2a_types::TaskState::Working);
        let reply = Reply::GetTask(task.clone());
        let id = Id::number(3);
        for codec in ALL {
            let body = codec.encode_reply(&id, &reply).unwrap();
            match codec.decode_reply(Operation::GetTask, &body, &id) {
                Ok(Reply::GetTask(back)) => assert_eq!(back, task, "{codec:?}"),
                other => panic!("{codec:?}: {other:?}"),
            }
            let err = A2aError::new(ErrorKind::TaskNotFound, "no such task");
            let body = codec.encode_error(&id, &err);
            assert_eq!(
                codec.decode_error(&body).map(|e| e.kind()),
                Some(ErrorKind::TaskNotFound),
                "{codec:?}"
            );
            assert_eq!(
                codec
                    .decode_event(&body, &id)
                    .map_err(|e| e.kind())
                    .unwrap_err(),
                ErrorKind::TaskNotFound
            );
        }
    }
}
