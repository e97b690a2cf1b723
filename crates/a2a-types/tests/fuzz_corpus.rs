//! Replays the committed fuzz seed corpora (`fuzz/corpus/types_decode/`,
//! `fuzz/corpus/reader_differential/`) through the fuzz harnesses on the
//! stable toolchain.

use std::path::{Path, PathBuf};

use a2a_types::testing::fuzz_decode;

/// The seeds of `fuzz/corpus/<target>/`, without dot files.
fn seeds(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            !path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_seed_of_the_fuzz_corpus_replays_without_panicking() {
    let seeds = seeds("types_decode");
    for path in &seeds {
        fuzz_decode(&std::fs::read(path).unwrap());
    }
    assert!(seeds.len() >= 36, "only {} seeds", seeds.len());
}

/// The reader's differential harness over its own seeds and the decoding
/// seeds: it panics if the reader accepts anything serde_json reads
/// otherwise. Most seeds are valid JSON, which it must also accept.
#[cfg(feature = "fast-json")]
#[test]
fn every_seed_of_the_reader_corpus_keeps_the_one_sided_guarantee() {
    let mut accepted = 0;
    let mut json = 0;
    for target in ["reader_differential", "types_decode"] {
        for path in seeds(target) {
            let bytes = std::fs::read(&path).unwrap();
            accepted += a2a_types::testing::fuzz_reader(&bytes);
            if serde_json::from_slice::<serde_json::Value>(&bytes).is_ok() {
                assert!(
                    a2a_types::json::try_from_slice::<serde_json::Value>(&bytes).is_ok(),
                    "declined {}",
                    path.display()
                );
                json += 1;
            }
        }
    }
    let own = seeds("reader_differential").len();
    assert!(own >= 30, "only {own} reader_differential seeds");
    assert!(
        json >= 70 && accepted > json,
        "{accepted} readings of {json} JSON seeds"
    );
}

/// The 0.3 seeds through the 0.3 harness; most of them must decode as
/// something (they are our own 0.3 output plus hand-written edge cases).
#[test]
fn every_seed_of_the_0_3_corpus_replays_without_panicking() {
    let own = seeds("v0_3_decode");
    let mut decoded = 0;
    for path in &own {
        if a2a_types::testing::fuzz_decode_v0_3(&std::fs::read(path).unwrap()) > 0 {
            decoded += 1;
        }
    }
    assert!(own.len() >= 40, "only {} seeds", own.len());
    assert!(
        decoded * 4 >= own.len() * 3,
        "{decoded} of {} decode",
        own.len()
    );
    // The 1.0 seeds must not panic the 0.3 harness either.
    for path in seeds("types_decode") {
        a2a_types::testing::fuzz_decode_v0_3(&std::fs::read(path).unwrap());
    }
}
