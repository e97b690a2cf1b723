//! Fuzz support for this workspace's fuzz targets and their replay tests;
//! not part of the API.

use a2a_types::StreamResponse;
use bytes::Bytes;
use http::{HeaderMap, HeaderValue};

use crate::grpc_wire::{
    decode_unary, encode_frame, read_status, FrameDecoder, FrameError, GRPC_STATUS,
    GRPC_STATUS_DETAILS,
};

/// Every message a decoder gives for `pieces`, and how it ended.
fn run(
    limit: usize,
    pieces: &mut dyn Iterator<Item = &[u8]>,
) -> (Vec<Bytes>, Result<(), FrameError>) {
    let mut decoder = FrameDecoder::new(limit);
    let mut messages = Vec::new();
    for piece in pieces {
        decoder.push(piece);
        loop {
            match decoder.next_message() {
                Ok(Some(m)) => messages.push(m),
                Ok(None) => break,
                Err(e) => return (messages, Err(e)),
            }
        }
    }
    (messages, decoder.finish())
}

/// The gRPC frame decoder's fuzz harness. The first byte chooses a chunk
/// size (1 to 16) and a message limit (0 to 960 bytes); the rest is a
/// body. Decoding it whole and in chunks must give the same messages and
/// the same ending; every message re-frames to its own bytes and is
/// decoded as a `StreamResponse` (without panicking); the unary reader
/// agrees with the decoder; and the body as `grpc-status-details-bin`
/// reads without panicking.
pub fn fuzz_grpc_frames(data: &[u8]) {
    let Some((&knob, body)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(knob % 16) + 1;
    let limit = usize::from(knob >> 4) * 64;
    let whole = run(limit, &mut std::iter::once(body));
    let split = run(limit, &mut body.chunks(chunk));
    assert_eq!(whole, split, "chunking changed the outcome");
    let mut reframed = Vec::new();
    for message in &whole.0 {
        match encode_frame(message) {
            Ok(frame) => reframed.extend_from_slice(&frame),
            Err(e) => panic!("a decoded message does not frame: {e}"),
        }
        let _ = a2a_proto::decode::<StreamResponse>(message);
    }
    assert_eq!(
        &body[..reframed.len()],
        &reframed[..],
        "frames are not their bytes"
    );
    match (decode_unary(body, limit), whole.0.as_slice(), &whole.1) {
        (Ok(m), [only], Ok(())) => assert_eq!(&m, only),
        (Ok(m), _, _) => panic!("the unary reader read {m:?} where the decoder did not"),
        (Err(_), _, _) => {}
    }
    if let Ok(value) = HeaderValue::from_bytes(body) {
        let mut fields = HeaderMap::new();
        fields.insert(GRPC_STATUS, HeaderValue::from_static("3"));
        fields.insert(GRPC_STATUS_DETAILS, value);
        let _ = read_status(&fields);
    }
}
