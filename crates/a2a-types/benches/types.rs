//! Decode and encode throughput of the typed model against
//! `serde_json::Value` and against `serde_json` decoding and encoding the
//! same typed model, on the same bytes, with a `serde::de::IgnoredAny`
//! pass as the floor (the cost of scanning the JSON at all).
//!
//! Documents: a small `Message`, a ~50 KB `Task` and a ~5 MB `Task` shaped
//! like real traffic (a history of short messages, text artifacts, ids,
//! timestamps and a little metadata). Goals (issue 2): typed decode at
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

use a2a_bench_harness::Report;
use a2a_types::{
    from_slice, Artifact, Message, Part, Role, Task, TaskState, TaskStatus, Timestamp,
};
use serde::de::IgnoredAny;
use serde_json::{json, Value};

const WORDS: &[&str] = &[
    "the",
    "agent",
    "found",
    "three",
    "flights",
    "from",
    "San",
    "Francisco",
    "to",
    "New",
    "York",
    "leaving",
    "tomorrow",
    "morning",
    "prices",
    "start",
    "at",
    "USD",
    "and",
    "include",
    "one",
    "stop",
    "in",
    "Denver",
    "café",
    "naïve",
    "über",
];

/// Deterministic filler text of roughly `len` bytes.
fn sentence(seed: usize, len: usize) -> String {
    let mut s = String::with_capacity(len + 16);
    let mut i = seed;
    while s.len() < len {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(WORDS[i % WORDS.len()]);
        i = i.wrapping_mul(31).wrapping_add(7);
    }
    s
}

fn history_message(task: usize, i: usize) -> Message {
    let role = if i % 2 == 0 { Role::User } else { Role::Agent };
    let mut m = Message::new(
        role,
        format!("6dbc13b5-bd57-4c2b-b503-{task:06}{i:06}"),
        vec![Part::text(sentence(i, 120))],
    )
    .for_task(
        format!("43667960-d455-4453-b0cf-{task:012}"),
        "c295ea44-7543-4f78-b524-7a38915ad6e4",
    );
    if i % 4 == 1 {
        m.parts.push(
            Part::data(json!({"ticket": format!("REQ{i:05}"), "priority": i % 5, "open": true}))
                .with_media_type("application/json"),
        );
    }
    if i % 8 == 0 {
        m.metadata = Some(serde_json::Map::from_iter([(
            "source".to_owned(),
            json!("web"),
        )]));
    }
    m
}

/// A task with `turns` history messages and `turns / 4` artifacts.
fn task(id: usize, turns: usize) -> Task {
    let mut t = Task::new(
        format!("43667960-d455-4453-b0cf-{id:012}"),
        "c295ea44-7543-4f78-b524-7a38915ad6e4",
        TaskState::Completed,
    );
    t.status = TaskStatus::new(TaskState::Completed)
        .with_message(Message::agent_text(format!("done-{id}"), "All set."))
        .with_timestamp(Timestamp::from_unix_millis(1_710_497_100_250).unwrap());
    t.history = (0..turns).map(|i| history_message(id, i)).collect();
    t.artifacts = (0..turns / 4)
        .map(|i| {
            Artifact::new(
                format!("9b6934dd-37e3-4eb1-8766-{i:012}"),
                vec![
                    Part::text(sentence(i * 7, 200)),
                    Part::text(sentence(i * 3, 80)),
                ],
            )
            .with_name(format!("report-{i}.md"))
        })
        .collect();
    t
}

/// The smallest task with at least `bytes` of JSON.
fn task_of_size(bytes: usize) -> Task {
    let per_turn = serde_json::to_vec(&task(0, 40)).unwrap().len() / 40;
    let mut turns = bytes / per_turn;
    loop {
        let t = task(1, turns);
        if serde_json::to_vec(&t).unwrap().len() >= bytes {
            return t;
        }
        turns += turns / 50 + 1;
    }
}

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

fn main() {
    let heap = a2a_bench_harness::steady_heap();
    let mut report = Report::new("a2a-types");
    report.note(&heap);
    let small = {
        let mut m = Message::user_text(
            "6dbc13b5-bd57-4c2b-b503-24e381b6c8d6",
            "What is the weather today in Paris?",
        );
        m.context_id = "c295ea44-7543-4f78-b524-7a38915ad6e4".into();
        m
    };
    bench_type(&mut report, "small Message", &small);
    bench_type(&mut report, "~50 KB Task", &task_of_size(50_000));
    bench_type(&mut report, "~5 MB Task", &task_of_size(5_000_000));
    if let Err(e) = report.finish() {
        eprintln!("could not write the report: {e}");
    }
}
