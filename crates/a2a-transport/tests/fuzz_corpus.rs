//! Replays the committed seed corpora of the `server_request`,
//! `grpc_frames` and `grpc_client` fuzz targets (`fuzz/corpus/<target>/`) through their
//! harnesses on stable Rust.

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

#[test]
fn every_grpc_frames_seed_replays_without_panicking() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/grpc_frames");
    let mut seeds: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    seeds.sort();
    for path in &seeds {
        a2a_transport::fuzz::fuzz_grpc_frames(&std::fs::read(path).unwrap());
    }
    assert!(seeds.len() >= 10, "only {} seeds", seeds.len());
}

/// Arbitrary bytes never panic the harness (a cheap stand-in for the
/// fuzzer on the stable toolchain).
#[test]
fn generated_bodies_replay_without_panicking() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        let mut data = Vec::new();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = (state % 64) as usize;
        for _ in 0..len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Mostly small bytes, so prefixes declare short lengths.
            data.push(if state % 3 == 0 {
                (state >> 8) as u8
            } else {
                (state % 8) as u8
            });
        }
        a2a_transport::fuzz::fuzz_grpc_frames(&data);
    }
}

#[test]
fn every_grpc_client_seed_replays_without_panicking() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/grpc_client");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        a2a_transport::fuzz::fuzz_grpc_client(&std::fs::read(entry.unwrap().path()).unwrap());
        count += 1;
    }
    assert!(count >= 8, "only {count} seeds");
}

/// Arbitrary responses never panic the client's harness.
#[test]
fn generated_grpc_responses_replay_without_panicking() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..1000 {
        let mut data = Vec::new();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        for _ in 0..(state % 48) as usize {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            data.push(if state % 3 == 0 {
                (state >> 8) as u8
            } else {
                (state % 8) as u8
            });
        }
        a2a_transport::fuzz::fuzz_grpc_client(&data);
    }
}
