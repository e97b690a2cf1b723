//! Replays the fuzz seeds of `fuzz/corpus/signing_verify/` through the
//! harness, so a stable `cargo test` runs what the fuzzer starts from.

#[test]
fn corpus_replays() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/signing_verify");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        a2a_signing::fuzz::verify_card_json(&data);
        n += 1;
    }
    assert!(n >= 3, "only {n} seeds");
}
