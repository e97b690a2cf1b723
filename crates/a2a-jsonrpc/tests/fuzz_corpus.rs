//! Replays the committed seed corpus of the `jsonrpc_decode` fuzz target
//! (`fuzz/corpus/jsonrpc_decode/`) through its harness on stable Rust.

use std::path::Path;

#[test]
fn seed_corpus_replays_without_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/jsonrpc_decode");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus directory exists") {
        let path = entry.expect("readable entry").path();
        let data = std::fs::read(&path).expect("readable seed");
        a2a_jsonrpc::fuzz::fuzz_jsonrpc(&data);
        count += 1;
    }
    assert!(count >= 20, "expected the committed seeds, found {count}");
}
