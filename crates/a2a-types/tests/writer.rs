//! The crate's JSON writer against `serde_json`: byte for byte the same
//! output, for every generated document (typed and as a `Value`) and for
//! arbitrary `Value` trees. Without `fast-json` the writer is `serde_json`
//! itself, and there is nothing to compare.

#![cfg(feature = "fast-json")]

use a2a_types::json;
use a2a_types::testing::{check_writer, corpus, TYPE_NAMES};
use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::{Number, Value};

#[test]
fn generated_corpus_encodes_as_serde_json_does() {
    let docs = corpus(3_000);
    assert_eq!(docs.len(), 3_000);
    for (i, (name, json)) in docs.iter().enumerate() {
        if let Err(e) = check_writer(name, json) {
            panic!("doc {i} ({name}): {e}\n{json}");
        }
    }
}

#[test]
fn every_type_is_in_the_corpus() {
    let docs = corpus(TYPE_NAMES.len());
    let names: Vec<&str> = docs.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, TYPE_NAMES);
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Any character, weighted towards the ones that are escaped and the
/// non-ASCII ones written raw.
fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => (0x20u8..0x7f).prop_map(char::from),
        2 => (0u8..0x20).prop_map(char::from),
        1 => prop::sample::select(vec!['"', '\\', '\u{7f}', '\u{85}', '\u{2028}', '\u{feff}']),
        2 => any::<char>(),
    ]
}

/// Strings long enough to cross several of the scan's eight-byte words.
fn any_string() -> impl Strategy<Value = String> {
    vec(any_char(), 0..80).prop_map(String::from_iter)
}

fn any_number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        prop::sample::select(vec![u64::MAX, 1 << 53, (1 << 53) + 1, 0]).prop_map(Number::from),
        prop::sample::select(vec![i64::MIN, -1]).prop_map(Number::from),
        any::<f64>().prop_filter_map("finite", Number::from_f64),
        prop::sample::select(vec![
            -0.0,
            0.1,
            1e-7,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            1e21,
            123456789.0
        ])
        .prop_filter_map("finite", Number::from_f64),
    ]
}

fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any_number().prop_map(Value::Number),
        any_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            vec((any_string(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(config(2_000))]

    #[test]
    fn arbitrary_values_encode_as_serde_json_does(value in any_value()) {
        let ours = json::to_vec(&value).unwrap();
        let theirs = serde_json::to_vec(&value).unwrap();
        prop_assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&theirs));
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn arbitrary_strings_encode_as_serde_json_does(s in any_string(), prefix in 0usize..16) {
        // Appending after existing bytes: only the new bytes are written.
        let mut out = vec![b'x'; prefix];
        json::to_writer(&mut out, &s).unwrap();
        prop_assert_eq!(&out[..prefix], &vec![b'x'; prefix][..]);
        prop_assert_eq!(&out[prefix..], &serde_json::to_vec(&s).unwrap()[..]);
    }
}
