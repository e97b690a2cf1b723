//! Property tests: decode(encode(x)) == x for every type, and decoding
//! arbitrary or damaged bytes never panics.

use a2a_types::testing::{check_roundtrip, corpus, fuzz_decode, reencode, Gen, TYPE_NAMES};
use a2a_types::*;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use serde_json::Value;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// The crate's generator, driven by proptest seeds, for all 44 types.
    #[test]
    fn every_type_round_trips(seed in any::<u64>()) {
        for name in TYPE_NAMES {
            if let Err(e) = check_roundtrip(name, seed) {
                prop_assert!(false, "{name}, seed {seed}: {e}");
            }
        }
    }
}

// Strategies over the whole value space (any Unicode, any bytes, any
// finite number), complementing the generator's curated pool.

fn json_number() -> impl Strategy<Value = serde_json::Number> {
    prop_oneof![
        any::<i64>().prop_map(serde_json::Number::from),
        any::<u64>().prop_map(serde_json::Number::from),
        any::<f64>().prop_filter_map("finite", serde_json::Number::from_f64),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        json_number().prop_map(Value::Number),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            btree_map(any::<String>(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn metadata() -> impl Strategy<Value = Option<Struct>> {
    proptest::option::of(
        btree_map(any::<String>(), json_value(), 0..3).prop_map(|m| m.into_iter().collect()),
    )
}

fn part() -> impl Strategy<Value = Part> {
    let content = prop_oneof![
        any::<String>().prop_map(PartContent::Text),
        vec(any::<u8>(), 0..64).prop_map(PartContent::Raw),
        any::<String>().prop_map(PartContent::Url),
        json_value().prop_map(PartContent::Data),
    ];
    (content, metadata(), any::<String>(), any::<String>()).prop_map(
        |(content, metadata, filename, media_type)| Part {
            content,
            metadata,
            filename,
            media_type,
        },
    )
}

fn role() -> impl Strategy<Value = Role> {
    proptest::sample::select(Role::ALL)
}

fn state() -> impl Strategy<Value = TaskState> {
    proptest::sample::select(TaskState::ALL)
}

fn message() -> impl Strategy<Value = Message> {
    (
        any::<String>(),
        any::<String>(),
        any::<String>(),
        role(),
        vec(part(), 0..3),
        metadata(),
        vec(any::<String>(), 0..2),
        vec(any::<String>(), 0..2),
    )
        .prop_map(
            |(message_id, context_id, task_id, role, parts, metadata, extensions, refs)| Message {
                message_id,
                context_id,
                task_id,
                role,
                parts,
                metadata,
                extensions,
                reference_task_ids: refs,
            },
        )
}

fn timestamp() -> impl Strategy<Value = Timestamp> {
    (Timestamp::MIN.unix_millis()..=Timestamp::MAX.unix_millis())
        .prop_map(|ms| Timestamp::from_unix_millis(ms).unwrap())
}

fn task() -> impl Strategy<Value = Task> {
    (
        any::<String>(),
        any::<String>(),
        state(),
        proptest::option::of(message()),
        proptest::option::of(timestamp()),
        vec(
            (any::<String>(), any::<String>(), vec(part(), 0..2)).prop_map(|(id, name, parts)| {
                Artifact {
                    name,
                    ..Artifact::new(id, parts)
                }
            }),
            0..2,
        ),
        vec(message(), 0..2),
        metadata(),
    )
        .prop_map(
            |(id, context_id, state, message, timestamp, artifacts, history, metadata)| Task {
                id,
                context_id,
                status: TaskStatus {
                    state,
                    message,
                    timestamp,
                },
                artifacts,
                history,
                metadata,
                ..Default::default()
            },
        )
}

fn round_trip<T>(value: &T) -> Result<(), TestCaseError>
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let json = serde_json::to_vec(value).unwrap();
    let back: T = from_slice(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, value);
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn any_part_round_trips(p in part()) {
        round_trip(&p)?;
    }

    #[test]
    fn any_task_round_trips(t in task()) {
        round_trip(&t)?;
        round_trip(&StreamResponse::Task(t.clone()))?;
        round_trip(&SendMessageResponse::Task(t))?;
    }

    #[test]
    fn any_timestamp_round_trips_through_text(t in timestamp()) {
        prop_assert_eq!(t.to_string().parse::<Timestamp>().unwrap(), t);
        prop_assert_eq!(t.to_string().len(), 24);
    }

    #[test]
    fn any_timestamp_text_with_an_offset_means_the_same_instant(
        t in timestamp(),
        offset_minutes in -(23 * 60 + 59)..=(23 * 60 + 59i64),
    ) {
        let local = Timestamp::new(t.seconds() + offset_minutes * 60, t.nanos());
        prop_assume!(local.is_ok());
        let local = local.unwrap().to_string();
        let sign = if offset_minutes < 0 { '-' } else { '+' };
        let m = offset_minutes.abs();
        let text = format!("{}{sign}{:02}:{:02}", &local[..23], m / 60, m % 60);
        match text.parse::<Timestamp>() {
            Ok(parsed) => prop_assert_eq!(parsed, t),
            Err(e) => prop_assert_eq!(e, TimestampError::OutOfRange),
        }
    }

    /// Arbitrary bytes: decoders return errors, never panic.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in vec(any::<u8>(), 0..256)) {
        fuzz_decode(&bytes);
    }

    /// Arbitrary text with JSON-ish structure.
    #[test]
    fn arbitrary_json_never_panics(v in json_value()) {
        let text = v.to_string();
        fuzz_decode(text.as_bytes());
        for name in TYPE_NAMES {
            let _ = reencode(name, &text);
        }
    }
}

/// Valid documents damaged by a few byte edits: the decoders must fail
/// cleanly or decode something that re-encodes stably, never panic.
#[test]
fn damaged_documents_never_panic() {
    let docs = corpus(TYPE_NAMES.len() * 4);
    let mut g = Gen::new(7);
    let mut decoded = 0usize;
    for round in 0..6_000 {
        let (name, json) = &docs[round % docs.len()];
        let mut bytes = json.clone().into_bytes();
        for _ in 0..1 + g.below(4) {
            if bytes.is_empty() {
                break;
            }
            let at = g.below(bytes.len());
            match g.below(5) {
                0 => bytes[at] = g.next_u64() as u8,
                1 => {
                    bytes.remove(at);
                }
                2 => bytes.insert(at, b"{}[]\",:0-e.n\\"[g.below(13)]),
                3 => bytes.truncate(at),
                _ => {
                    let end = (at + 1 + g.below(16)).min(bytes.len());
                    let chunk = bytes[at..end].to_vec();
                    let to = g.below(bytes.len());
                    bytes.splice(to..to, chunk);
                }
            }
        }
        fuzz_decode(&bytes);
        if let Ok(text) = std::str::from_utf8(&bytes) {
            if reencode(name, text).is_ok() {
                decoded += 1;
            }
        }
    }
    // Some damage leaves a valid document; most does not.
    assert!(decoded > 0 && decoded < 6_000, "{decoded}");
}
