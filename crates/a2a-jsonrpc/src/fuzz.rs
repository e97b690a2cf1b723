//! Fuzzing harness, shared by the cargo-fuzz target and the corpus replay
//! test. Hidden from the docs; not part of the API.

use crate::{
    decode_request, decode_response, encode_request, methods, split_batch, BatchLimits,
    DecodeConfig, Id,
};

/// Feeds `data` to the request decoder and to the response decoder, and
/// checks the invariants that must hold for any input:
/// - the request decoder answers a request or an error response, and an
///   error response is itself valid JSON naming a code;
/// - a decoded request re-encodes and decodes to the same request (a
///   notification re-encodes with id `null`, so it comes back as a
///   request);
/// - [`peek_id`](crate::peek_id) finds the id `serde_json` alone finds;
/// - a batch splits within its limits or answers one error response;
/// - the response decoder answers a typed result or an `A2aError`.
pub fn fuzz_jsonrpc(data: &[u8]) {
    let config = DecodeConfig::default();
    match decode_request(data, &config) {
        Ok(request) => {
            let again = encode_request(&request.id, &request.request);
            match decode_request(&again, &config) {
                Ok(back) => {
                    assert_eq!(back.id, request.id, "re-encoded id differs");
                    assert_eq!(back.request, request.request, "re-encoded request differs");
                }
                Err(e) => panic!("re-encoded request fails: {:?}", e.error),
            }
        }
        Err(response) => {
            // Read without converting the echoed id: an id is kept as its
            // exact text, which may be a number beyond a double's range
            // (`2e752`, valid JSON that `serde_json::Value` refuses).
            #[derive(serde::Deserialize)]
            struct ErrorResponse {
                error: a2a_types::JsonRpcError,
            }
            let bytes = response.to_bytes();
            match serde_json::from_slice::<ErrorResponse>(&bytes) {
                Ok(read) => assert_eq!(
                    read.error.code,
                    response.error.to_jsonrpc_error().code,
                    "error response names another code"
                ),
                Err(e) => panic!("error response is not a JSON-RPC error object: {e}"),
            }
            assert_eq!(
                crate::peek_id(&bytes),
                response.id,
                "error response echoes another id"
            );
        }
    }
    assert_eq!(
        crate::peek_id(data),
        crate::request::peek_id_serde(data),
        "peek_id differs from serde_json's"
    );
    let limits = BatchLimits::new().with_max_len(8);
    if let Ok(elements) = split_batch(data, &limits) {
        assert!(!elements.is_empty() && elements.len() <= 8, "batch bounds");
        for element in elements {
            let _ = decode_request(element, &config);
        }
    }
    let _ = decode_response::<methods::SendMessage>(data, &Id::number(1));
    let _ = decode_response::<methods::SubscribeToTask>(data, &Id::Null);
    let _ = decode_response::<methods::ListTasks>(data, &Id::string("x"));
}
