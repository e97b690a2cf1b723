#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| a2a_proto::testing::fuzz_decode(data));
