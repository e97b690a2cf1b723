//! Feeds fuzzer bytes, read as an HTTP request, through the A2A server's
//! entry point (see `a2a_transport::fuzz::fuzz_server`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| a2a_transport::fuzz::fuzz_server(data));
