//! Feeds fuzzer bytes to the card signature verifier as a card's JSON (see
//! `a2a_signing::fuzz::verify_card_json`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| a2a_signing::fuzz::verify_card_json(data));
