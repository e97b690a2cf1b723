//! Decoding throughput of `a2a-sse`, against the physical baseline of
//! finding every line end with `memchr`, and side by side with other Rust
//! SSE crates (`eventsource-stream`, `sse-stream`) on the same bytes and
//! chunks.
//!
//! Workloads:
//! - (a) 50,000 A2A-like events (`id`, `event: status-update`, ~330 bytes of
//!   JSON-RPC `TaskStatusUpdateEvent` data each), fed in chunks of 1460 B
//!   (one TCP segment), 16 KiB and 256 KiB;
//! - (b) 100 events of 1 MB of data each, fed in 16 KiB and 256 KiB chunks;
//! - (c) `memchr2` counting CR and LF over the same bytes.
//!
//! Run with `cargo bench -p a2a-sse` (`BENCH_SECONDS=0.5` for a shorter
//! run); results go to `target/bench-results/a2a-sse.txt`.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use a2a_bench_harness::{Measurement, Report};
use a2a_sse::Decoder;
use bytes::Bytes;
use futures_core::Stream;

/// A ready-at-once stream over prepared chunks.
struct Chunks(VecDeque<Bytes>);

impl Stream for Chunks {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(self.0.pop_front().map(Ok))
    }
}

/// Drains a stream whose source never returns `Pending`, counting items.
fn drain<S: Stream + Unpin>(mut stream: S, mut ok: impl FnMut(&S::Item) -> bool) -> u64 {
    let mut cx = Context::from_waker(Waker::noop());
    let mut n = 0;
    loop {
        match Pin::new(&mut stream).poll_next(&mut cx) {
            Poll::Ready(Some(item)) => {
                assert!(ok(&item), "decode error");
                n += 1;
            }
            Poll::Ready(None) => return n,
            Poll::Pending => unreachable!("the source is always ready"),
        }
    }
}

fn a2a_events(count: usize) -> Bytes {
    let mut out = String::new();
    for i in 0..count {
        let data = format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":"req-{:08}","result":{{"statusUpdate":{{"#,
                r#""taskId":"3f0c2a9e-5b7d-4e21-9a8c-{:012x}","#,
                r#""contextId":"c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f","#,
                r#""status":{{"state":"TASK_STATE_WORKING","message":{{"#,
                r#""messageId":"m-{:08}","role":"ROLE_AGENT","parts":[{{"text":"step {} done"}}]}},"#,
                r#""timestamp":"2025-06-01T12:00:00.000Z"}},"final":false}}}}}}"#
            ),
            i, i, i, i
        );
        out.push_str(&format!("id: {i}\nevent: status-update\ndata: {data}\n\n"));
    }
    Bytes::from(out)
}

fn big_events(count: usize, size: usize) -> Bytes {
    let mut out = Vec::with_capacity(count * (size + 8));
    let payload: Vec<u8> = (0..size)
        .map(|i| b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[i % 64])
        .collect();
    for _ in 0..count {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(&payload);
        out.extend_from_slice(b"\n\n");
    }
    Bytes::from(out)
}

fn chunks(bytes: &Bytes, size: usize) -> Vec<Bytes> {
    (0..bytes.len())
        .step_by(size)
        .map(|at| bytes.slice(at..(at + size).min(bytes.len())))
        .collect()
}

fn decode_a2a_sse(chunks: &[Bytes]) -> u64 {
    let mut decoder = Decoder::new();
    let mut n = 0u64;
    let mut len = 0usize;
    for chunk in chunks {
        decoder.feed(chunk.clone());
        while let Ok(Some(event)) = decoder.next_event() {
            n += 1;
            len += event.data.len();
        }
    }
    decoder.finish();
    assert!(matches!(decoder.next_event(), Ok(None)));
    std::hint::black_box(len);
    n
}

fn decode_a2a_sse_slices(chunks: &[Bytes]) -> u64 {
    let mut decoder = Decoder::new();
    let mut n = 0u64;
    for chunk in chunks {
        decoder.feed_slice(chunk);
        while let Ok(Some(_)) = decoder.next_event() {
            n += 1;
        }
    }
    n
}

fn decode_a2a_sse_stream(chunks: &[Bytes]) -> u64 {
    drain(
        a2a_sse::EventStream::new(Chunks(chunks.iter().cloned().collect())),
        Result::is_ok,
    )
}

fn decode_eventsource_stream(chunks: &[Bytes]) -> u64 {
    use eventsource_stream::Eventsource;
    drain(
        Chunks(chunks.iter().cloned().collect()).eventsource(),
        Result::is_ok,
    )
}

fn decode_sse_stream(chunks: &[Bytes]) -> u64 {
    drain(
        sse_stream::SseByteStream::new(Chunks(chunks.iter().cloned().collect())),
        |item| item.as_ref().is_ok_and(|sse| sse.data.is_some()),
    )
}

fn baseline(bytes: &[u8]) -> u64 {
    memchr::memchr2_iter(b'\n', b'\r', bytes).count() as u64
}

fn workload(report: &mut Report, label: &str, bytes: &Bytes, events: u64, sizes: &[(usize, &str)]) {
    let len = bytes.len() as u64;
    let base = report.measure(
        &format!("{label}: baseline memchr2 line-end count"),
        len,
        0,
        || baseline(bytes),
    );
    let mut rows: Vec<(String, Measurement)> = Vec::new();
    for &(size, size_label) in sizes {
        let split = chunks(bytes, size);
        type Decode = fn(&[Bytes]) -> u64;
        let decoders: [(&str, Decode); 5] = [
            ("a2a-sse Decoder::feed(Bytes)", decode_a2a_sse),
            ("a2a-sse Decoder::feed_slice", decode_a2a_sse_slices),
            ("a2a-sse EventStream", decode_a2a_sse_stream),
            ("eventsource-stream 0.2", decode_eventsource_stream),
            ("sse-stream 0.3", decode_sse_stream),
        ];
        for (name, decode) in decoders {
            assert_eq!(
                decode(&split),
                events,
                "{name} decoded a wrong number of events"
            );
            let m = report.measure(
                &format!("{label} @{size_label}: {name}"),
                len,
                events,
                || decode(&split),
            );
            rows.push((format!("{size_label} {name}"), m));
        }
    }
    for (name, m) in &rows {
        report.ratio(&format!("{label} {name} / baseline"), m, &base);
    }
}

fn main() {
    let mut report = Report::new("a2a-sse");
    let a = a2a_events(50_000);
    let first = a.iter().position(|&b| b == b'\n').unwrap_or(0);
    let data_len = a[first + 1..]
        .split(|&b| b == b'\n')
        .nth(1)
        .map_or(0, |l| l.len() - "data: ".len());
    report.note(&format!(
        "(a) 50,000 A2A-like events, {} bytes ({} bytes of data per event)",
        a.len(),
        data_len
    ));
    workload(
        &mut report,
        "(a) 50k A2A events",
        &a,
        50_000,
        &[
            (1460, "1460B"),
            (16 * 1024, "16KiB"),
            (256 * 1024, "256KiB"),
        ],
    );
    let b = big_events(100, 1_000_000);
    report.note(&format!("(b) 100 events of 1 MB data, {} bytes", b.len()));
    workload(
        &mut report,
        "(b) 100 x 1MB events",
        &b,
        100,
        &[(16 * 1024, "16KiB"), (256 * 1024, "256KiB")],
    );
    report
        .note("goal: >= 1000 MB/s on (a)@16KiB and (b); faster than the other crates on every row");
    if let Err(e) = report.finish() {
        eprintln!("could not write the results: {e}");
    }
}
