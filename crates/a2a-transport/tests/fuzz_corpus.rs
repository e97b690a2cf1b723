//! Replays the committed seed corpus of the `server_request` fuzz target
//! (`fuzz/corpus/server_request/`) through its harness on stable Rust.

use std::path::Path;

#[test]
fn seed_corpus_replays_without_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/server_request");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus directory exists") {
        let path = entry.expect("readable entry").path();
        let data = std::fs::read(&path).expect("readable seed");
        a2a_transport::fuzz::fuzz_server(&data);
        count += 1;
    }
    assert!(count >= 18, "expected the committed seeds, found {count}");
}
