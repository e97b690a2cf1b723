//! Replays the committed seed corpus of the `sse_decode` fuzz target
//! (`fuzz/corpus/sse_decode/`) through the same harness, on stable, so that
//! every input the fuzzer kept stays a passing test.

use std::path::Path;

#[test]
fn sse_decode_corpus_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/sse_decode");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let result = std::panic::catch_unwind(|| a2a_sse::fuzz_decode(&bytes));
        assert!(result.is_ok(), "corpus input {} fails", path.display());
        count += 1;
    }
    println!("replayed {count} corpus inputs");
    assert!(
        count >= 20,
        "only {count} corpus inputs in {}",
        dir.display()
    );
}
