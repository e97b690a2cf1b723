//! Reads fuzzer bytes with the fast JSON reader and with `serde_json`, as
//! a value and as the main message types: whatever the reader reads,
//! `serde_json` must read the same (see `a2a_types::testing::fuzz_reader`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    a2a_types::testing::fuzz_reader(data);
});
