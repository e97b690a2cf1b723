//! Feeds fuzzer bytes to the SSE decoder in fuzzer-chosen chunkings and
//! checks its invariants (see `a2a_sse::fuzz_decode`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| a2a_sse::fuzz_decode(data));
