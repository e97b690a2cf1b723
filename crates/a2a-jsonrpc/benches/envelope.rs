//! `cargo bench -p a2a-jsonrpc`: decoding a `SendMessage` request envelope
//! into the typed request, against `serde_json::Value` parsing of the same
//! bytes and against decoding the bare params object alone.
//!
//! Goals (issue 3): typed envelope decode at least 2x the throughput of
//! `Value` parsing, and within 10% of decoding the params alone (with the
//! same decoder: `a2a_types::from_slice`).
//!
//! The run re-executes itself with a heap that keeps freed memory
//! (`a2a_bench_harness::steady_heap`: otherwise glibc returns the pages of
//! every dropped large document to the kernel and the large rows measure
//! page faults); `A2A_BENCH_HEAP=default` measures with glibc's defaults.

use a2a_bench_harness::Report;
use a2a_jsonrpc::{decode_request, encode_request, A2aRequest, DecodeConfig, Id};
use a2a_types::{from_slice, Message, Part, SendMessageRequest};
use serde_json::Value;

fn request(text_parts: usize, part_len: usize) -> SendMessageRequest {
    let mut message = Message::user_text("msg-0001", "What is the weather in Paris tomorrow?");
    message.context_id = "ctx-12345678".into();
    for i in 0..text_parts {
        let text: String = (0..part_len)
            .map(|j| (b'a' + ((i + j) % 26) as u8) as char)
            .collect();
        message.parts.push(Part::text(text));
    }
    SendMessageRequest::new(message)
}

fn main() {
    let heap = a2a_bench_harness::steady_heap();
    let mut report = Report::new("a2a-jsonrpc");
    report.note(&heap);
    let config = DecodeConfig::default();
    // "~1.4 KB" is issue 30's row: a SendMessage with a few paragraphs.
    for (label, req) in [
        ("small", request(0, 0)),
        ("~1.4 KB", request(4, 280)),
        ("~1 MB", request(256, 4096)),
    ] {
        let params = serde_json::to_vec(&req).expect("params encode");
        let body = encode_request(&Id::number(1), &A2aRequest::SendMessage(req));
        report.note(&format!(
            "{label}: envelope {} bytes, params {} bytes",
            body.len(),
            params.len()
        ));
        let n = body.len() as u64;
        // Run every contender once before measuring any: glibc's malloc
        // adapts its mmap and trim thresholds to the first large frees, and
        // whichever row ran first would otherwise pay for that alone.
        for _ in 0..3 {
            std::hint::black_box(decode_request(&body, &config).is_ok());
            std::hint::black_box(serde_json::from_slice::<Value>(&body).is_ok());
            std::hint::black_box(from_slice::<SendMessageRequest>(&params).is_ok());
        }
        let typed = report.measure(&format!("{label} envelope -> typed request"), n, 1, || {
            decode_request(&body, &config).expect("decodes")
        });
        let value = report.measure(
            &format!("{label} envelope -> serde_json::Value"),
            n,
            1,
            || serde_json::from_slice::<Value>(&body).expect("parses"),
        );
        let serde_typed = report.measure(
            &format!("{label} envelope -> typed by serde_json"),
            n,
            1,
            || serde_json::from_slice::<SerdeEnvelope>(&body).expect("decodes"),
        );
        let bare = report.measure(
            &format!("{label} bare params -> SendMessageRequest"),
            params.len() as u64,
            1,
            || from_slice::<SendMessageRequest>(&params).expect("decodes"),
        );
        report.ratio(
            &format!("{label} typed envelope / Value (goal >= 2.0)"),
            &typed,
            &value,
        );
        report.ratio(
            &format!("{label} typed envelope / typed by serde_json"),
            &typed,
            &serde_typed,
        );
        report.ratio(
            &format!("{label} typed envelope / bare params (goal >= 0.9)"),
            &typed,
            &bare,
        );
    }
    if let Err(e) = report.finish() {
        eprintln!("could not write results: {e}");
    }
}

/// The same envelope as plain `serde_json` would decode it with a derived
/// struct: the typed baseline.
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct SerdeEnvelope {
    jsonrpc: String,
    id: Value,
    method: String,
    params: SendMessageRequest,
}
