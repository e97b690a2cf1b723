#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    a2a_types::testing::fuzz_decode_v0_3(data);
});
