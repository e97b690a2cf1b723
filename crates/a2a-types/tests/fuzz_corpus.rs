//! Replays the committed fuzz seed corpus (`fuzz/corpus/types_decode/`)
//! through the fuzz harness on the stable toolchain.

use std::path::Path;

use a2a_types::testing::fuzz_decode;

#[test]
fn every_seed_of_the_fuzz_corpus_replays_without_panicking() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/types_decode");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        fuzz_decode(&bytes);
        seen += 1;
    }
    assert!(seen >= 36, "only {seen} seeds in {}", dir.display());
}
