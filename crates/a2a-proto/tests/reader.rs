//! The reader behind `a2a_proto::decode` (issue 30) against the path it
//! replaced, prost's decoding then `Protobuf::from_message`
//! (`testing::decode_via_prost`): on every input here both give the same
//! value, or both refuse it alike: the same kind at the same path for a
//! value the model refuses, a wire error on both sides otherwise.
//!
//! The inputs are the generated values of all 44 types and mutations of
//! them: fields deleted, repeated (with the same or another value), moved,
//! given another wire type or out-of-range numbers (enums, timestamps,
//! NaN), invalid UTF-8 or unknown fields and groups at any depth, and at
//! the byte level truncations, flipped and inserted bytes, and two
//! encodings concatenated (protobuf's merge of two values).

use a2a_proto::prost::Message as _;
use a2a_proto::testing::{
    compare_decoders, compare_decoders_by_name, decode_via_prost, generated_bytes, Agreed,
    TYPE_NAMES,
};
use a2a_proto::{decode, encode, ProtoErrorKind};
use a2a_types::testing::Gen;
use a2a_types::*;
use proptest::prelude::*;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// A protobuf message as a tree of fields, to mutate at any depth.

#[derive(Debug, Clone)]
enum Wire {
    Varint(u64),
    I64(u64),
    I32(u32),
    /// A length-delimited field that does not parse as a message.
    Bytes(Vec<u8>),
    /// A length-delimited field that parses as a message (a string may
    /// too: mutating it as one is as good a test).
    Message(Vec<Field>),
    /// Raw bytes written as they are (groups, broken keys).
    Raw(Vec<u8>),
}

#[derive(Debug, Clone)]
struct Field {
    tag: u32,
    value: Wire,
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for i in 0..10 {
        let (&b, rest) = bytes.split_first()?;
        *bytes = rest;
        v |= u64::from(b & 0x7f) << (7 * i);
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

/// The fields of `bytes`, or `None` if they are not a plain message.
fn parse(mut bytes: &[u8], depth: usize) -> Option<Vec<Field>> {
    let mut fields = Vec::new();
    while !bytes.is_empty() {
        let key = get_varint(&mut bytes)?;
        let tag = u32::try_from(key >> 3).ok().filter(|&t| t > 0)?;
        let value = match key & 7 {
            0 => Wire::Varint(get_varint(&mut bytes)?),
            1 => {
                let (b, rest) = bytes.split_first_chunk::<8>()?;
                bytes = rest;
                Wire::I64(u64::from_le_bytes(*b))
            }
            2 => {
                let len = usize::try_from(get_varint(&mut bytes)?).ok()?;
                if len > bytes.len() {
                    return None;
                }
                let (b, rest) = bytes.split_at(len);
                bytes = rest;
                match parse(b, depth + 1).filter(|f| !f.is_empty() && depth < 200) {
                    Some(inner) => Wire::Message(inner),
                    None => Wire::Bytes(b.to_vec()),
                }
            }
            5 => {
                let (b, rest) = bytes.split_first_chunk::<4>()?;
                bytes = rest;
                Wire::I32(u32::from_le_bytes(*b))
            }
            _ => return None,
        };
        fields.push(Field { tag, value });
    }
    Some(fields)
}

fn write(fields: &[Field], out: &mut Vec<u8>) {
    for f in fields {
        let key = |wt: u64, out: &mut Vec<u8>| put_varint(out, u64::from(f.tag) << 3 | wt);
        match &f.value {
            Wire::Varint(v) => {
                key(0, out);
                put_varint(out, *v);
            }
            Wire::I64(v) => {
                key(1, out);
                out.extend_from_slice(&v.to_le_bytes());
            }
            Wire::I32(v) => {
                key(5, out);
                out.extend_from_slice(&v.to_le_bytes());
            }
            Wire::Bytes(b) => {
                key(2, out);
                put_varint(out, b.len() as u64);
                out.extend_from_slice(b);
            }
            Wire::Message(inner) => {
                let mut body = Vec::new();
                write(inner, &mut body);
                key(2, out);
                put_varint(out, body.len() as u64);
                out.extend_from_slice(&body);
            }
            Wire::Raw(b) => out.extend_from_slice(b),
        }
    }
}

fn to_bytes(fields: &[Field]) -> Vec<u8> {
    let mut out = Vec::new();
    write(fields, &mut out);
    out
}

/// splitmix64, as `a2a_types::testing::Gen`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Numbers that matter to some field: enum ranges, negative int32s,
/// timestamps out of range, 64-bit edges.
const VARINTS: &[u64] = &[
    0,
    1,
    2,
    3,
    5,
    7,
    8,
    9,
    99,
    0x7fff_ffff,
    0x8000_0000,
    0x1_0000_0001,
    253_402_300_800,
    i64::MAX as u64,
    u64::MAX,
    u64::MAX - 6,
];

fn doubles() -> [u64; 9] {
    [
        f64::NAN.to_bits(),
        f64::INFINITY.to_bits(),
        f64::NEG_INFINITY.to_bits(),
        (-0.0f64).to_bits(),
        1.5f64.to_bits(),
        9_223_372_036_854_775_808.0f64.to_bits(),
        18_446_744_073_709_551_616.0f64.to_bits(),
        1e300f64.to_bits(),
        3.0f64.to_bits(),
    ]
}

/// An unknown field (or a broken group) to insert.
fn unknown(rng: &mut Rng) -> Field {
    let tag = rng.pick(&[15u32, 16, 99, 2047, 536_870_911]);
    let key = |wt: u64| {
        let mut b = Vec::new();
        put_varint(&mut b, u64::from(tag) << 3 | wt);
        b
    };
    let value = match rng.below(9) {
        0 => Wire::Varint(rng.pick(VARINTS)),
        1 => Wire::I64(rng.next()),
        2 => Wire::I32(rng.next() as u32),
        3 => Wire::Bytes(vec![0xff, 0x00, 0x80]),
        4 => {
            // A group holding a varint and a nested group.
            let mut b = key(3);
            b.extend_from_slice(&[0x08, 0x01, 0x13, 0x14]);
            b.extend(key(4));
            Wire::Raw(b)
        }
        5 => {
            // A group ended by another number's end.
            let mut b = key(3);
            b.extend_from_slice(&[0x08, 0x01, 0x0c]);
            Wire::Raw(b)
        }
        6 => Wire::Raw(key(4)),
        // Wire types 6 and 7, and field number 0.
        7 => Wire::Raw(vec![(tag as u8 & 0x0f) << 3 | rng.pick(&[6u8, 7]), 0x00]),
        _ => Wire::Raw(vec![0x00, 0x00]),
    };
    Field { tag, value }
}

/// One mutation somewhere in `fields`, at any depth.
fn mutate(fields: &mut Vec<Field>, rng: &mut Rng, depth: usize) {
    if fields.is_empty() || rng.below(8) == 0 {
        let at = rng.below(fields.len() + 1);
        fields.insert(at, unknown(rng));
        return;
    }
    let i = rng.below(fields.len());
    // Often go deeper first.
    if let Wire::Message(inner) = &mut fields[i].value {
        if depth < 12 && rng.below(3) > 0 {
            mutate(inner, rng, depth + 1);
            return;
        }
    }
    match rng.below(9) {
        0 => {
            fields.remove(i);
        }
        1 => {
            let copy = fields[i].clone();
            fields.insert(i + 1, copy);
        }
        2 | 3 => {
            // The field again with another value: merged or replacing.
            let mut copy = fields[i].clone();
            mutate_value(&mut copy, rng, depth);
            let at = if rng.below(2) == 0 {
                i + 1
            } else {
                fields.len()
            };
            fields.insert(at, copy);
        }
        4 => {
            let j = rng.below(fields.len());
            fields.swap(i, j);
        }
        5 => {
            // Another wire type for the same number.
            let f = &mut fields[i];
            f.value = match &f.value {
                Wire::Varint(v) => Wire::I64(*v),
                Wire::I64(v) => Wire::I32(*v as u32),
                Wire::I32(v) => Wire::Bytes(v.to_le_bytes().to_vec()),
                Wire::Bytes(b) => Wire::Varint(b.len() as u64),
                Wire::Message(_) => Wire::Varint(1),
                Wire::Raw(b) => Wire::Bytes(b.clone()),
            };
        }
        _ => mutate_value(&mut fields[i], rng, depth),
    }
}

fn mutate_value(field: &mut Field, rng: &mut Rng, depth: usize) {
    field.value = match &mut field.value {
        Wire::Varint(_) => Wire::Varint(rng.pick(VARINTS)),
        Wire::I64(_) => Wire::I64(rng.pick(&doubles())),
        Wire::I32(_) => Wire::I32(rng.next() as u32),
        Wire::Bytes(b) => {
            let mut b = b.clone();
            match rng.below(4) {
                0 => b.push(0xff),
                1 => {
                    // A lead byte without its continuation.
                    let at = rng.below(b.len() + 1);
                    b.insert(at, 0xc3);
                }
                2 => b.clear(),
                _ => b = "é ü".as_bytes().to_vec(),
            }
            Wire::Bytes(b)
        }
        Wire::Message(inner) => {
            let mut inner = inner.clone();
            if rng.below(4) == 0 {
                inner.clear();
            } else {
                mutate(&mut inner, rng, depth + 1);
            }
            Wire::Message(inner)
        }
        Wire::Raw(b) => Wire::Raw(b.clone()),
    };
}

/// A mutant of `bytes`, whose fields parse as `base`: tree mutations, then
/// sometimes a byte-level one.
fn mutant(base: &[Field], bytes: &[u8], other: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = match rng.below(10) {
        // Two values merged: every field of the second over the first.
        0 => [bytes, other].concat(),
        1 => [bytes, bytes].concat(),
        _ => {
            let mut fields = base.to_vec();
            for _ in 0..1 + rng.below(3) {
                mutate(&mut fields, rng, 0);
            }
            to_bytes(&fields)
        }
    };
    if !out.is_empty() && rng.below(4) == 0 {
        let at = rng.below(out.len());
        match rng.below(4) {
            0 => out.truncate(at),
            1 => out[at] ^= 1 << rng.below(8),
            2 => out[at] = rng.next() as u8,
            _ => out.insert(at, rng.next() as u8),
        }
    }
    out
}

fn agree(name: &str, bytes: &[u8]) -> Agreed {
    match compare_decoders_by_name(name, bytes) {
        Ok(agreed) => agreed,
        Err(e) => panic!("{name}: {e}\ninput: {bytes:02x?}"),
    }
}

#[derive(Debug, Default)]
struct Tally {
    value: usize,
    wire: usize,
    refused: usize,
}

impl Tally {
    fn add(&mut self, agreed: Agreed) {
        match agreed {
            Agreed::Value => self.value += 1,
            Agreed::Wire => self.wire += 1,
            Agreed::Refused => self.refused += 1,
        }
    }
}

/// The generated value of `seed`, then `mutants` mutations of it.
fn check_type(name: &str, seed: u64, mutants: usize, tally: &mut Tally) {
    let bytes = generated_bytes(name, seed).unwrap();
    assert_eq!(agree(name, &bytes), Agreed::Value, "{name} seed {seed}");
    tally.add(Agreed::Value);
    let other = generated_bytes(name, seed.wrapping_add(1_000)).unwrap();
    let base = parse(&bytes, 0).expect("our encoding parses");
    let mut rng = Rng(seed ^ 0x5eed);
    for _ in 0..mutants {
        let input = mutant(&base, &bytes, &other, &mut rng);
        tally.add(agree(name, &input));
    }
}

#[test]
fn every_type_agrees_on_generated_values_and_their_mutations() {
    assert_eq!(TYPE_NAMES.len(), 44);
    let mut tally = Tally::default();
    for name in TYPE_NAMES {
        for seed in 0..60 {
            check_type(name, seed, 100, &mut tally);
        }
    }
    // The mutations reach all three outcomes, each often.
    assert!(tally.value > 50_000, "{tally:?}");
    assert!(tally.wire > 50_000, "{tally:?}");
    assert!(tally.refused > 2_000, "{tally:?}");
    println!("{tally:?}");
}

#[test]
fn the_well_known_types_agree() {
    let mut tally = Tally::default();
    for seed in 0..400 {
        let g = &mut Gen::new(seed);
        let cases = [
            ("Value", encode(&g.value(5))),
            ("Struct", encode(&g.object(5))),
            ("Timestamp", encode(&g.timestamp())),
            ("Empty", encode(&g.object(2))),
        ];
        let mut rng = Rng(seed);
        for (name, bytes) in &cases {
            tally.add(agree(name, bytes));
            let base = parse(bytes, 0).unwrap_or_default();
            for _ in 0..30 {
                let input = mutant(&base, bytes, &cases[1].1, &mut rng);
                tally.add(agree(name, &input));
            }
        }
    }
    assert!(tally.refused > 100, "{tally:?}");
}

/// The 1.1 draft's timeline entries (inside `Task`s above too), whose
/// oneof may be empty: an entry of unknown kind.
#[cfg(feature = "draft-1-1")]
#[test]
fn timeline_entries_agree() {
    use a2a_types::draft_1_1::TimelineEntry;
    use a2a_types::testing::Generate;
    let mut tally = Tally::default();
    for seed in 0..300 {
        let bytes = encode(&TimelineEntry::generate(&mut Gen::new(seed)));
        let other = encode(&TimelineEntry::generate(&mut Gen::new(seed + 1)));
        assert_eq!(agree("TimelineEntry", &bytes), Agreed::Value);
        let base = parse(&bytes, 0).unwrap_or_default();
        let mut rng = Rng(seed);
        for _ in 0..40 {
            tally.add(agree(
                "TimelineEntry",
                &mutant(&base, &bytes, &other, &mut rng),
            ));
        }
    }
    assert!(tally.refused > 50 && tally.value > 1000, "{tally:?}");
    // A status then a message: the message, the status's bad state gone.
    let status = len_field(2, &varint_field(1, 42));
    let message = len_field(1, &len_field(1, b"m"));
    let entry = compare_decoders::<TimelineEntry>(&[status.clone(), message].concat())
        .unwrap()
        .unwrap();
    assert!(entry.entry.is_some());
    assert_eq!(
        decode::<TimelineEntry>(&status).unwrap_err().path(),
        "status.state"
    );
}

#[test]
fn every_truncation_agrees() {
    for name in ["Task", "AgentCard", "StreamResponse", "SendMessageRequest"] {
        for seed in 0..8 {
            let bytes = generated_bytes(name, seed).unwrap();
            for len in 0..bytes.len() {
                agree(name, &bytes[..len]);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn any_bytes_agree(index in 0..TYPE_NAMES.len(), bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let result = compare_decoders_by_name(TYPE_NAMES[index], &bytes);
        prop_assert!(result.is_ok(), "{}: {:?}", TYPE_NAMES[index], result);
    }

    #[test]
    fn any_mutant_of_any_seed_agrees(index in 0..TYPE_NAMES.len(), seed in any::<u64>(), mutation in any::<u64>()) {
        let name = TYPE_NAMES[index];
        let bytes = generated_bytes(name, seed).unwrap();
        let other = generated_bytes(name, mutation).unwrap();
        let base = parse(&bytes, 0).unwrap();
        let mut rng = Rng(mutation);
        for _ in 0..4 {
            let input = mutant(&base, &bytes, &other, &mut rng);
            let result = compare_decoders_by_name(name, &input);
            prop_assert!(result.is_ok(), "{}: {:?}\ninput: {:02x?}", name, result, input);
        }
    }
}

// ---------------------------------------------------------------------------
// Merge rules, each against prost too.

fn key(tag: u32, wt: u8) -> Vec<u8> {
    let mut b = Vec::new();
    put_varint(&mut b, u64::from(tag) << 3 | u64::from(wt));
    b
}

fn varint_field(tag: u32, v: u64) -> Vec<u8> {
    let mut b = key(tag, 0);
    put_varint(&mut b, v);
    b
}

fn len_field(tag: u32, body: &[u8]) -> Vec<u8> {
    let mut b = key(tag, 2);
    put_varint(&mut b, body.len() as u64);
    b.extend_from_slice(body);
    b
}

#[test]
fn only_the_final_enum_number_counts() {
    // role 7, then 1: valid, as prost + from_message read it.
    let bytes = [varint_field(4, 7), varint_field(4, 1)].concat();
    let message = compare_decoders::<Message>(&bytes).unwrap().unwrap();
    assert_eq!(message.role, Role::User);
    // 1 then 7: refused at `role`.
    let bytes = [varint_field(4, 1), varint_field(4, 7)].concat();
    assert_eq!(compare_decoders::<Message>(&bytes), Ok(None));
    let err = decode::<Message>(&bytes).unwrap_err();
    assert_eq!(err.path(), "role");
    assert!(matches!(err.kind(), ProtoErrorKind::UnknownEnum(_)));
    // The state of a status written twice, in a message merged twice.
    let status = |state| len_field(3, &varint_field(1, state));
    let bytes = [status(99), status(3)].concat();
    let task = compare_decoders::<Task>(&bytes).unwrap().unwrap();
    assert_eq!(task.status.state, TaskState::Completed);
    let bytes = [status(3), status(99)].concat();
    assert_eq!(decode::<Task>(&bytes).unwrap_err().path(), "status.state");
    assert_eq!(compare_decoders::<Task>(&bytes), Ok(None));
}

#[test]
fn a_message_field_seen_twice_merges() {
    // Task.status: state, then a message; both kept.
    let first = len_field(3, &varint_field(1, 2));
    let second = len_field(3, &len_field(2, &len_field(1, b"m-1")));
    let task = compare_decoders::<Task>(&[first, second].concat())
        .unwrap()
        .unwrap();
    assert_eq!(task.status.state, TaskState::Working);
    assert_eq!(task.status.message.unwrap().message_id, "m-1");
    // A timestamp out of range brought back by a later `seconds`.
    let ts = |s| len_field(3, &len_field(3, &varint_field(1, s)));
    let bytes = [ts(1 << 62), ts(1)].concat();
    let task = compare_decoders::<Task>(&bytes).unwrap().unwrap();
    assert_eq!(task.status.timestamp.unwrap().seconds(), 1);
    let bytes = [ts(1), ts(1 << 62)].concat();
    let err = decode::<Task>(&bytes).unwrap_err();
    assert_eq!(err.path(), "status.timestamp");
    assert_eq!(compare_decoders::<Task>(&bytes), Ok(None));
    // Repeated fields concatenate.
    let bytes = [len_field(7, b"a"), len_field(7, b"b")].concat();
    let message = compare_decoders::<Message>(&bytes).unwrap().unwrap();
    assert_eq!(message.extensions, ["a", "b"]);
}

#[test]
fn a_oneof_keeps_its_last_member_and_merges_a_repeated_one() {
    // Part: data with a NaN, then text: the NaN is gone with its member.
    let nan = len_field(
        4,
        &[key(2, 1), f64::NAN.to_bits().to_le_bytes().to_vec()].concat(),
    );
    let bytes = [nan.clone(), len_field(1, b"hi")].concat();
    let part = compare_decoders::<Part>(&bytes).unwrap().unwrap();
    assert_eq!(part.content, PartContent::Text("hi".into()));
    // Text, then data with a NaN: refused at `data`.
    let bytes = [len_field(1, b"hi"), nan.clone()].concat();
    let err = decode::<Part>(&bytes).unwrap_err();
    assert_eq!(err.path(), "data");
    assert!(matches!(err.kind(), ProtoErrorKind::NonFiniteNumber(_)));
    assert_eq!(compare_decoders::<Part>(&bytes), Ok(None));
    // Data twice: the second `Value` merges into the first, its number
    // replacing the NaN.
    let three = len_field(
        4,
        &[key(2, 1), 3.0f64.to_bits().to_le_bytes().to_vec()].concat(),
    );
    let part = compare_decoders::<Part>(&[nan, three].concat())
        .unwrap()
        .unwrap();
    assert_eq!(part.content, PartContent::Data(json!(3)));
    // A list in a `Value` twice: the values concatenate.
    let list = |v: u64| len_field(6, &len_field(1, &varint_field(4, v)));
    let value = compare_decoders::<Value>(&[list(1), list(0)].concat())
        .unwrap()
        .unwrap();
    assert_eq!(value, json!([true, false]));
    // StreamResponse: a task with a bad state, then a message: valid.
    let bad_task = len_field(1, &len_field(3, &varint_field(1, 42)));
    let bytes = [bad_task.clone(), len_field(2, &len_field(1, b"m"))].concat();
    assert!(matches!(
        compare_decoders::<StreamResponse>(&bytes).unwrap(),
        Some(StreamResponse::Message(_))
    ));
    let err = decode::<StreamResponse>(&bad_task).unwrap_err();
    assert_eq!(err.path(), "task.status.state");
    // No member at all.
    assert!(matches!(
        decode::<StreamResponse>(&[]).unwrap_err().kind(),
        ProtoErrorKind::EmptyOneof(_)
    ));
    assert_eq!(compare_decoders::<StreamResponse>(&[]), Ok(None));
}

#[test]
fn a_later_map_entry_of_the_same_key_replaces_the_earlier() {
    let entry = |k: &[u8], v: Vec<u8>| len_field(1, &[len_field(1, k), len_field(2, &v)].concat());
    let nan = [key(2, 1), f64::NAN.to_bits().to_le_bytes().to_vec()].concat();
    // Struct {"a": NaN, "a": true}: valid.
    let bytes = [entry(b"a", nan.clone()), entry(b"a", varint_field(4, 1))].concat();
    let s = compare_decoders::<Struct>(&bytes).unwrap().unwrap();
    assert_eq!(Value::Object(s), json!({"a": true}));
    // The other way round: refused at the key.
    let bytes = [entry(b"a", varint_field(4, 1)), entry(b"a", nan.clone())].concat();
    let err = decode::<Struct>(&bytes).unwrap_err();
    assert_eq!(err.path(), ".a");
    assert_eq!(compare_decoders::<Struct>(&bytes), Ok(None));
    // Two refused keys: the first in key order, as from_message meets them.
    let bytes = [entry(b"z", nan.clone()), entry(b"b", nan.clone())].concat();
    assert_eq!(decode::<Struct>(&bytes).unwrap_err().path(), ".b");
    assert_eq!(compare_decoders::<Struct>(&bytes), Ok(None));
    // An entry missing its value reads as null; missing its key, as "".
    let bytes = [
        len_field(1, &len_field(1, b"k")),
        len_field(1, &len_field(2, &varint_field(4, 1))),
    ]
    .concat();
    let s = compare_decoders::<Struct>(&bytes).unwrap().unwrap();
    assert_eq!(Value::Object(s), json!({"k": null, "": true}));
    // AgentCard.securitySchemes: an empty scheme replaced.
    let scheme = |body: &[u8]| len_field(8, &[len_field(1, b"s"), len_field(2, body)].concat());
    let mtls = len_field(5, &len_field(1, b"d"));
    let bytes = [scheme(&[]), scheme(&mtls)].concat();
    let card = compare_decoders::<AgentCard>(&bytes).unwrap().unwrap();
    assert_eq!(card.security_schemes.len(), 1);
    let bytes = [scheme(&mtls), scheme(&[])].concat();
    let err = decode::<AgentCard>(&bytes).unwrap_err();
    assert_eq!(err.path(), "securitySchemes.s");
    assert_eq!(compare_decoders::<AgentCard>(&bytes), Ok(None));
}

#[test]
fn unknown_fields_and_groups_are_skipped_and_broken_ones_refused() {
    let id = len_field(2, b"t-1");
    let group = [
        key(99, 3),
        varint_field(1, 5),
        key(2, 3),
        key(2, 4),
        key(99, 4),
    ]
    .concat();
    for extra in [
        varint_field(99, u64::MAX),
        [key(99, 1), vec![0; 8]].concat(),
        [key(99, 5), vec![0; 4]].concat(),
        len_field(99, b"\xff"),
        group,
    ] {
        let bytes = [id.clone(), extra].concat();
        let request = compare_decoders::<GetTaskRequest>(&bytes).unwrap().unwrap();
        assert_eq!(request.id, "t-1");
    }
    for broken in [
        key(99, 4),
        [key(99, 3), varint_field(1, 5)].concat(),
        [key(99, 3), key(98, 4)].concat(),
        vec![0x00],
        vec![0x0e, 0x00],
        vec![0x0f, 0x00],
        [key(99, 1), vec![0; 7]].concat(),
        varint_field(2, 1),
        len_field(2, b"\xc3"),
        vec![0x80; 11],
        [vec![0x08], vec![0xff; 9], vec![0x02]].concat(),
    ] {
        let bytes = [id.clone(), broken.clone()].concat();
        assert_eq!(
            compare_decoders_by_name("GetTaskRequest", &bytes),
            Ok(Agreed::Wire),
            "{broken:02x?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Nesting: prost's limit of 100, to the level.

/// A `Value` of lists of lists, `levels` deep, ending in null: `Value {
/// list_value: ListValue { values: [Value ...] } }`, two messages a
/// level. Written backwards, innermost first, so a deep one is quick.
fn nested_lists(levels: usize) -> Vec<u8> {
    let mut reversed = vec![0x00, 0x08];
    for _ in 0..levels {
        // ListValue.values (1), then Value.list_value (6).
        for key in [0x0a, 0x32] {
            let mut len = Vec::new();
            put_varint(&mut len, reversed.len() as u64);
            reversed.extend(len.iter().rev());
            reversed.push(key);
        }
    }
    reversed.reverse();
    reversed
}

/// A `Value` of structs of structs: a map entry is a level too.
fn nested_structs(levels: usize) -> Vec<u8> {
    let mut inner = varint_field(4, 1);
    for _ in 0..levels {
        inner = len_field(
            5,
            &len_field(1, &[len_field(1, b"k"), len_field(2, &inner)].concat()),
        );
    }
    inner
}

#[test]
fn nesting_is_bounded_where_prost_bounds_it() {
    let mut seen = Tally::default();
    for levels in 40..=60 {
        for (name, bytes) in [
            ("Value", nested_lists(levels)),
            ("Value", nested_structs(levels / 2 + 10)),
            ("Part", len_field(4, &nested_lists(levels))),
            (
                "StreamResponse",
                len_field(2, &len_field(5, &len_field(4, &nested_lists(levels)))),
            ),
        ] {
            seen.add(agree(name, &bytes));
        }
    }
    // Both sides of the limit were reached.
    assert!(seen.value > 10 && seen.wire > 10, "{seen:?}");
    // An unknown field needs a level left too, and so does a group's
    // content.
    for levels in 45..=52 {
        let mut inner = varint_field(99, 1);
        for _ in 0..levels {
            inner = len_field(6, &len_field(1, &inner));
        }
        agree("Value", &inner);
        let mut inner = [key(99, 3), key(98, 3), key(98, 4), key(99, 4)].concat();
        for _ in 0..levels {
            inner = len_field(6, &len_field(1, &inner));
        }
        agree("Value", &inner);
    }
}

#[test]
fn a_hostile_nesting_is_refused_without_exhausting_the_stack() {
    // 200,000 levels of lists: refused at level 100.
    let bytes = nested_lists(200_000);
    assert!(bytes.len() > 1_000_000);
    let err = decode::<Value>(&bytes).unwrap_err();
    assert!(matches!(err.kind(), ProtoErrorKind::Wire(_)), "{err}");
    assert!(decode_via_prost::<Value>(&bytes).is_err());
    // Groups within groups, skipped.
    let mut groups = key(99, 3).repeat(100_000);
    groups.extend(key(99, 4).repeat(100_000));
    agree("Task", &groups);
}

// ---------------------------------------------------------------------------
// Paths of the errors, as from_message names them.

// `history` is deprecated in the 1.1 draft, and still carried.
#[cfg_attr(feature = "draft-1-1", allow(deprecated))]
#[test]
fn errors_name_the_path_from_message_names() {
    let mut task = Task::new("t", "c", TaskState::Working);
    task.history.push(Message::user_text("m0", "a"));
    task.history.push(Message::user_text("m1", "b"));
    let mut message = a2a_proto::Protobuf::to_message(&task);
    message.history[1].role = 9;
    let bytes = message.encode_to_vec();
    let err = decode::<Task>(&bytes).unwrap_err();
    assert_eq!(err.path(), "history[1].role");
    assert_eq!(compare_decoders::<Task>(&bytes), Ok(None));
    // Wire errors carry the path where they were found, too.
    let mut bytes = encode(&task);
    let last = bytes.len() - 1;
    bytes[last] = 0xff;
    let err = decode::<Task>(&bytes).unwrap_err();
    assert!(matches!(err.kind(), ProtoErrorKind::Wire(_)));
    assert!(err.path().starts_with("history[1]"), "{}", err.path());
}
