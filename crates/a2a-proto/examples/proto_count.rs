//! A fixed amount of protobuf decode work, for instruction counts: decodes
//! one of the benchmark documents (`a2a-types/benches/fixtures`) `N` times
//! with the chosen decoder. Unlike the timed benches it does the same work
//! on every run, so callgrind's totals compare across commits and
//! decoders; run it with `N` and with `0` and divide the difference by `N`
//! for the cost of one decode:
//!
//! ```sh
//! cargo build --release -p a2a-proto --example proto_count
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!   target/release/examples/proto_count model small 20000
//! ```
//!
//! Decoders: `prost` (the generated message alone), `model`
//! (`a2a_proto::decode`), `old` (prost then `Protobuf::from_message`, the
//! path before the reader). Documents: `small` (a Message), `50k`, `5m`
//! (Tasks of about that size).
//!
//! `ab` instead of a decoder times `model` against `prost` in alternating
//! rounds of `TIMES` decodes (20 rounds each), so a machine busy with
//! other work slows both alike, and prints the speed ratio of the fastest
//! rounds and of the medians.

#[path = "../../a2a-types/benches/fixtures/mod.rs"]
mod fixtures;

use std::process::ExitCode;

use a2a_proto::prost::Message as _;
use a2a_proto::Protobuf;

fn run<T: Protobuf>(decoder: &str, bytes: &[u8], times: usize) -> Option<usize> {
    let mut total = 0;
    for _ in 0..times {
        match decoder {
            "prost" => {
                let message = T::Message::decode(bytes).expect("the fixture decodes");
                std::hint::black_box(&message);
                total += 1;
            }
            "model" => {
                let value: T = a2a_proto::decode(bytes).expect("the fixture decodes");
                std::hint::black_box(&value);
                total += 1;
            }
            "old" => {
                let message = T::Message::decode(bytes).expect("the fixture decodes");
                let value = T::from_message(message).expect("the fixture converts");
                std::hint::black_box(&value);
                total += 1;
            }
            _ => return None,
        }
    }
    Some(total)
}

/// Seconds per round of `times` decodes of `decoder`, for 20 rounds each,
/// `prost` and `model` alternating.
fn ab<T: Protobuf>(bytes: &[u8], times: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut prost, mut model) = (Vec::new(), Vec::new());
    for _ in 0..20 {
        for (decoder, out) in [("prost", &mut prost), ("model", &mut model)] {
            let start = std::time::Instant::now();
            run::<T>(decoder, bytes, times);
            out.push(start.elapsed().as_secs_f64());
        }
    }
    (prost, model)
}

fn report((mut prost, mut model): (Vec<f64>, Vec<f64>)) {
    prost.sort_by(f64::total_cmp);
    model.sort_by(f64::total_cmp);
    let mid = prost.len() / 2;
    println!(
        "model/prost speed: fastest rounds {:.2}x, medians {:.2}x",
        prost[0] / model[0],
        prost[mid] / model[mid]
    );
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(decoder), Some(document), Some(Ok(times))) = (
        args.first(),
        args.get(1),
        args.get(2).map(|n| n.parse::<usize>()),
    ) else {
        eprintln!("usage: proto_count prost|model|old small|50k|5m TIMES");
        return ExitCode::FAILURE;
    };
    if decoder == "ab" {
        match document.as_str() {
            "small" => report(ab::<a2a_types::Message>(
                &a2a_proto::encode(&fixtures::small_message()),
                times,
            )),
            "50k" => report(ab::<a2a_types::Task>(
                &a2a_proto::encode(&fixtures::task_of_size(50_000)),
                times,
            )),
            _ => report(ab::<a2a_types::Task>(
                &a2a_proto::encode(&fixtures::task_of_size(5_000_000)),
                times,
            )),
        }
        return ExitCode::SUCCESS;
    }
    let result = match document.as_str() {
        "small" => run::<a2a_types::Message>(
            decoder,
            &a2a_proto::encode(&fixtures::small_message()),
            times,
        ),
        "50k" => run::<a2a_types::Task>(
            decoder,
            &a2a_proto::encode(&fixtures::task_of_size(50_000)),
            times,
        ),
        "5m" => run::<a2a_types::Task>(
            decoder,
            &a2a_proto::encode(&fixtures::task_of_size(5_000_000)),
            times,
        ),
        other => {
            eprintln!("unknown document {other}: small, 50k or 5m");
            return ExitCode::FAILURE;
        }
    };
    match result {
        Some(n) => {
            println!("{n}");
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("unknown decoder {decoder}: prost, model or old");
            ExitCode::FAILURE
        }
    }
}
