//! Feeds fuzzer bytes to the JSON-RPC request and response decoders (see
//! `a2a_jsonrpc::fuzz::fuzz_jsonrpc`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| a2a_jsonrpc::fuzz::fuzz_jsonrpc(data));
