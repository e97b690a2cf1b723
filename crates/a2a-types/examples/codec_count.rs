//! A fixed amount of JSON codec work, for instruction counts: decodes one
//! of the benchmark documents (`benches/fixtures`) `N` times, and with
//! `encode` also encodes each result. Unlike the timed benches it does the
//! same work on every run, so callgrind's totals compare across commits
//! (copy this file into an older checkout to measure it there):
//!
//! ```sh
//! cargo build --release -p a2a-types --example codec_count
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!   target/release/examples/codec_count small 20000 encode
//! ```
//!
//! Documents: `small` (a Message), `50k`, `5m` (Tasks of about that size).
//! The fixtures are built before the loop and counted in the total, the
//! same at every commit.

#[path = "../benches/fixtures/mod.rs"]
mod fixtures;

use std::process::ExitCode;

use a2a_types::{from_slice, json, Message, Task};
use serde::{de::DeserializeOwned, Serialize};

fn run<T: DeserializeOwned + Serialize>(bytes: &[u8], times: usize, encode: bool) -> usize {
    let mut out = Vec::new();
    let mut written = 0;
    for _ in 0..times {
        let value: T = from_slice(bytes).expect("the fixture decodes");
        if encode {
            out.clear();
            json::to_writer(&mut out, &value).expect("the fixture encodes");
            written += out.len();
        }
    }
    written
}

fn to_vec(value: &impl Serialize) -> Vec<u8> {
    json::to_vec(value).expect("the fixture encodes")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(document), Some(Ok(times))) = (args.first(), args.get(1).map(|n| n.parse())) else {
        eprintln!("usage: codec_count small|50k|5m TIMES [encode]");
        return ExitCode::FAILURE;
    };
    let encode = args.get(2).map(String::as_str) == Some("encode");
    let written = match document.as_str() {
        "small" => run::<Message>(&to_vec(&fixtures::small_message()), times, encode),
        "50k" => run::<Task>(&to_vec(&fixtures::task_of_size(50_000)), times, encode),
        "5m" => run::<Task>(&to_vec(&fixtures::task_of_size(5_000_000)), times, encode),
        other => {
            eprintln!("unknown document {other}: small, 50k or 5m");
            return ExitCode::FAILURE;
        }
    };
    println!("{written} bytes written");
    ExitCode::SUCCESS
}
