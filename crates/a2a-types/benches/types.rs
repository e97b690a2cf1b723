//! Decode and encode throughput of the typed model against
//! `serde_json::Value` and against `serde_json` decoding and encoding the
//! same typed model, on the same bytes, with a `serde::de::IgnoredAny`
//! pass as the floor (the cost of scanning the JSON at all).
//!
//! Documents: a small `Message`, a ~50 KB `Task` and a ~5 MB `Task` shaped
//! like real traffic (a history of short messages, text artifacts, ids,
//! timestamps and a little metadata), and 10,000 `StreamResponse` events
//! decoded one document at a time, as a stream's SSE `data` arrives. Goals (issue 2): typed decode at
//! least 2x the `Value` parse; typed encode at least as fast as encoding
//! the equivalent `Value`. Typed encode uses the crate's own writer
//! (`a2a_types::json`), the `Value` row `serde_json`; both append to the
//! same reused buffer.
//!
//! `BENCH_SECONDS=0.5 cargo bench -p a2a-types`
//!
//! The run re-executes itself with a heap that keeps freed memory
//! (`a2a_bench_harness::steady_heap`: otherwise glibc returns the pages of
//! every dropped large document to the kernel and the large rows measure
//! page faults); `A2A_BENCH_HEAP=default` measures with glibc's defaults.

mod fixtures;

use a2a_bench_harness::Report;
use a2a_types::{from_slice, StreamResponse};
use fixtures::task_of_size;
use serde::de::IgnoredAny;
use serde_json::Value;

fn bench_type<T>(report: &mut Report, label: &str, value: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let bytes = serde_json::to_vec(value).unwrap();
    let len = bytes.len() as u64;
    assert_eq!(&from_slice::<T>(&bytes).unwrap(), value);
    let as_value: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(a2a_types::json::to_vec(value).unwrap(), bytes);
    report.note(&format!("## {label}: {len} bytes"));

    let typed_decode = report.measure(&format!("{label} decode typed"), len, 1, || {
        from_slice::<T>(&bytes).unwrap()
    });
    let value_decode = report.measure(&format!("{label} decode serde_json::Value"), len, 1, || {
        serde_json::from_slice::<Value>(&bytes).unwrap()
    });
    let serde_decode = report.measure(
        &format!("{label} decode typed by serde_json"),
        len,
        1,
        || serde_json::from_slice::<T>(&bytes).unwrap(),
    );
    report.measure(&format!("{label} scan IgnoredAny (floor)"), len, 1, || {
        serde_json::from_slice::<IgnoredAny>(&bytes).unwrap()
    });
    let mut out = Vec::with_capacity(bytes.len());
    let typed_encode = report.measure(&format!("{label} encode typed"), len, 1, || {
        out.clear();
        a2a_types::json::to_writer(&mut out, value).unwrap();
        out.len()
    });
    let value_encode = report.measure(&format!("{label} encode serde_json::Value"), len, 1, || {
        out.clear();
        serde_json::to_writer(&mut out, &as_value).unwrap();
        out.len()
    });
    let serde_encode = report.measure(
        &format!("{label} encode typed by serde_json"),
        len,
        1,
        || {
            out.clear();
            serde_json::to_writer(&mut out, value).unwrap();
            out.len()
        },
    );
    report.ratio(
        &format!("{label} decode typed/Value (goal >= 2)"),
        &typed_decode,
        &value_decode,
    );
    report.ratio(
        &format!("{label} encode typed/Value (goal >= 1)"),
        &typed_encode,
        &value_encode,
    );
    report.ratio(
        &format!("{label} decode typed/typed by serde_json"),
        &typed_decode,
        &serde_decode,
    );
    report.ratio(
        &format!("{label} encode typed/typed by serde_json"),
        &typed_encode,
        &serde_encode,
    );
}

/// 10,000 `StreamResponse` events, each its own JSON document (issue 30's
/// row): typed decode against `Value`, event by event.
fn bench_events(report: &mut Report) {
    const COUNT: usize = 10_000;
    let events: Vec<Vec<u8>> = (0..COUNT)
        .map(|i| serde_json::to_vec(&fixtures::stream_event(i)).unwrap())
        .collect();
    let len: u64 = events.iter().map(|e| e.len() as u64).sum();
    for (i, bytes) in events.iter().enumerate() {
        assert_eq!(
            from_slice::<StreamResponse>(bytes).unwrap(),
            fixtures::stream_event(i)
        );
    }
    let label = "10k StreamResponse events";
    report.note(&format!("## {label}: {len} bytes in {COUNT} documents"));
    let typed = report.measure(&format!("{label} decode typed"), len, COUNT as u64, || {
        events
            .iter()
            .map(|e| from_slice::<StreamResponse>(e).unwrap())
            .filter(|e| matches!(e, StreamResponse::ArtifactUpdate(_)))
            .count()
    });
    let value = report.measure(
        &format!("{label} decode serde_json::Value"),
        len,
        COUNT as u64,
        || {
            events
                .iter()
                .map(|e| serde_json::from_slice::<Value>(e).unwrap())
                .filter(|e| e.get("artifactUpdate").is_some())
                .count()
        },
    );
    report.ratio(
        &format!("{label} decode typed/Value (goal >= 2)"),
        &typed,
        &value,
    );
}

fn main() {
    let heap = a2a_bench_harness::steady_heap();
    let mut report = Report::new("a2a-types");
    report.note(&heap);
    let small = fixtures::small_message();
    bench_type(&mut report, "small Message", &small);
    bench_type(&mut report, "~50 KB Task", &task_of_size(50_000));
    bench_type(&mut report, "~5 MB Task", &task_of_size(5_000_000));
    bench_events(&mut report);
    if let Err(e) = report.finish() {
        eprintln!("could not write the report: {e}");
    }
}
