//! Property tests: no input makes the decoders panic; every failure is a
//! response or a typed error.

use a2a_jsonrpc::fuzz::fuzz_jsonrpc;
use a2a_jsonrpc::{encode_request, generate_request, Id};
use a2a_types::testing::Gen;
use a2a_types::Operation;
use proptest::prelude::*;

/// A valid request envelope for a generated request.
fn envelope(seed: u64, op_index: usize) -> Vec<u8> {
    let mut g = Gen::new(seed);
    let op = Operation::ALL[op_index % Operation::ALL.len()];
    encode_request(
        &Id::number(seed as i64 & 0xffff),
        &generate_request(op, &mut g),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        fuzz_jsonrpc(&data);
    }

    #[test]
    fn json_like_text_never_panics(text in r#"[\{\}\[\]":,0-9a-zA-Z\\. -]{0,200}"#) {
        fuzz_jsonrpc(text.as_bytes());
    }

    #[test]
    fn mutated_envelopes_never_panic(
        seed in any::<u64>(),
        op in 0usize..11,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let mut body = envelope(seed, op);
        for (at, byte, how) in edits {
            if body.is_empty() { break; }
            let i = at.index(body.len());
            match how {
                0 => body[i] = byte,
                1 => { body.remove(i); }
                _ => body.insert(i, byte),
            }
        }
        fuzz_jsonrpc(&body);
    }

    #[test]
    fn truncated_envelopes_never_panic(seed in any::<u64>(), op in 0usize..11, cut in any::<prop::sample::Index>()) {
        let body = envelope(seed, op);
        let n = cut.index(body.len() + 1);
        fuzz_jsonrpc(&body[..n]);
    }
}
