//! A fixed amount of JSON codec work, for instruction counts: decodes one
//! of the benchmark documents (`benches/fixtures`) `N` times, and with
//! `encode` also encodes each result. With `value` (or `value-encode`) it
//! does the same through `serde_json::Value` instead, the baseline the
//! benches' ratios are taken against. Unlike the timed benches it does the
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

/// [`run`] through `serde_json::Value`.
fn run_value(bytes: &[u8], times: usize, encode: bool) -> usize {
    let mut out = Vec::new();
    let mut written = 0;
    for _ in 0..times {
        let value: serde_json::Value = serde_json::from_slice(bytes).expect("the fixture parses");
        if encode {
            out.clear();
            serde_json::to_writer(&mut out, &value).expect("the fixture encodes");
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
        eprintln!("usage: codec_count small|50k|5m TIMES [encode|value|value-encode]");
        return ExitCode::FAILURE;
    };
    let mode = args.get(2).map_or("decode", String::as_str);
    let (value, encode) = match mode {
        "decode" => (false, false),
        "encode" => (false, true),
        "value" => (true, false),
        "value-encode" => (true, true),
        other => {
            eprintln!("unknown mode {other}: encode, value or value-encode");
            return ExitCode::FAILURE;
        }
    };
    let bytes = match document.as_str() {
        "small" => to_vec(&fixtures::small_message()),
        "50k" | "5m" => to_vec(&fixtures::task_of_size(if document == "50k" {
            50_000
        } else {
            5_000_000
        })),
        other => {
            eprintln!("unknown document {other}: small, 50k or 5m");
            return ExitCode::FAILURE;
        }
    };
    let written = match (value, document.as_str()) {
        (true, _) => run_value(&bytes, times, encode),
        (false, "small") => run::<Message>(&bytes, times, encode),
        (false, _) => run::<Task>(&bytes, times, encode),
    };
    println!("{written} bytes written");
    ExitCode::SUCCESS
}
