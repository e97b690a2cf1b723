#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| a2a_transport::fuzz::fuzz_grpc_client(data));
