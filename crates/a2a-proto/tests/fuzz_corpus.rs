//! Replays the committed seeds of `fuzz/corpus/proto_decode/` through the
//! fuzz harness on the stable toolchain.

use std::path::Path;

#[test]
fn every_seed_replays_without_panicking() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/proto_decode");
    let mut seeds: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    seeds.sort();
    for path in &seeds {
        a2a_proto::testing::fuzz_decode(&std::fs::read(path).unwrap());
    }
    assert!(seeds.len() >= 10, "only {} seeds", seeds.len());
}

/// Writes the seeds (run once with `--ignored`; the files are committed):
/// generated values of the harness's types, and edge cases.
#[test]
#[ignore = "writes fuzz/corpus/proto_decode"]
fn write_seeds() {
    use a2a_proto::prost::Message as _;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/proto_decode");
    std::fs::create_dir_all(&dir).unwrap();
    let mut n = 0;
    for (name, json) in a2a_types::testing::corpus(44 * 3) {
        if ![
            "Task",
            "Message",
            "AgentCard",
            "StreamResponse",
            "SendMessageRequest",
        ]
        .contains(&name)
        {
            continue;
        }
        let bytes = a2a_proto::testing::proto_of_json(name, &json).unwrap();
        std::fs::write(dir.join(format!("gen-{name}-{n}.bin")), bytes).unwrap();
        n += 1;
    }
    let mut deep = a2a_proto::prost_types::Value { kind: None };
    for _ in 0..150 {
        deep = a2a_proto::prost_types::Value {
            kind: Some(a2a_proto::prost_types::value::Kind::ListValue(
                a2a_proto::prost_types::ListValue { values: vec![deep] },
            )),
        };
    }
    let deep_part = a2a_proto::pb::Part {
        content: Some(a2a_proto::pb::part::Content::Data(deep)),
        ..Default::default()
    };
    let nan_part = a2a_proto::pb::Part {
        content: Some(a2a_proto::pb::part::Content::Data(
            a2a_proto::prost_types::Value {
                kind: Some(a2a_proto::prost_types::value::Kind::NumberValue(f64::NAN)),
            },
        )),
        ..Default::default()
    };
    let message = |part: a2a_proto::pb::Part| a2a_proto::pb::Message {
        message_id: "m".into(),
        role: 1,
        parts: vec![part],
        ..Default::default()
    };
    let edges: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("truncated-length", vec![0x0a, 0x05, b'a']),
        (
            "bad-varint",
            vec![
                0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
            ],
        ),
        ("invalid-utf8", vec![0x0a, 0x01, 0xff]),
        ("wire-type-7", vec![0x0f]),
        ("unknown-role", {
            let mut m = message(a2a_proto::pb::Part {
                content: Some(a2a_proto::pb::part::Content::Text("a".into())),
                ..Default::default()
            });
            m.role = 9;
            m.encode_to_vec()
        }),
        (
            "empty-part",
            message(a2a_proto::pb::Part::default()).encode_to_vec(),
        ),
        ("deep-value", message(deep_part).encode_to_vec()),
        ("nan-number", message(nan_part).encode_to_vec()),
        ("unknown-field", vec![0x0a, 0x01, b't', 0x98, 0x06, 0x07]),
    ];
    for (name, bytes) in edges {
        std::fs::write(dir.join(format!("edge-{name}.bin")), bytes).unwrap();
    }
}
