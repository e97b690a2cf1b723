//! The fast JSON reader (`a2a_types::json::try_from_slice` with the
//! `fast-json` feature) against `serde_json`, its referee.
//!
//! The guarantee is one-sided: whenever the reader returns a value,
//! `serde_json` returns an equal one from the same bytes (equal under `==`
//! and in its encoding, which tells `-0.0` from `0.0`). Declining is
//! always allowed, except for what the reader exists for: every document
//! this crate generates, and JSON written with any whitespace and any
//! escapes, must be accepted.

#![cfg(feature = "fast-json")]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Debug};
use std::path::{Path, PathBuf};

use a2a_types::json::{try_from_slice, Declined};
use a2a_types::testing::{
    corpus, fuzz_reader, reader_agrees, reader_check, reencode, Gen, READER_FUZZ_TYPES, TYPE_NAMES,
};
use a2a_types::{Message, PartContent, Task};
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use serde::de::{DeserializeOwned, IgnoredAny, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// How deep the reader reads containers itself; deeper is declined.
const MAX_DEPTH: usize = a2a_types::RECURSION_LIMIT - 1;

// ---------------------------------------------------------------------------
// Helpers.

fn show(json: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(json))
}

/// The one-sided guarantee for a type without `Serialize`: when the
/// reader reads a value, `serde_json` reads an equal one. Returns the
/// reader's value, or `None` when it declined.
fn read<T: DeserializeOwned + PartialEq + Debug>(json: &[u8]) -> Option<T> {
    let ours = try_from_slice::<T>(json).ok()?;
    match serde_json::from_slice::<T>(json) {
        Ok(theirs) => assert_eq!(ours, theirs, "{}", show(json)),
        Err(e) => panic!(
            "the reader read {ours:?} where serde_json says {e}: {}",
            show(json)
        ),
    }
    Some(ours)
}

/// [`reader_check`] for a `Value`, panicking on a broken guarantee.
fn value(json: &[u8]) -> Option<Value> {
    match reader_check::<Value>(json) {
        Ok(true) => try_from_slice(json).ok(),
        Ok(false) => None,
        Err(e) => panic!("{e}"),
    }
}

/// The reader must accept `json` and read what `serde_json` reads.
fn accepted<T: DeserializeOwned + PartialEq + Debug>(json: &[u8]) -> T {
    read(json).unwrap_or_else(|| panic!("declined: {}", show(json)))
}

/// The reader must decline `json`, and `serde_json` must refuse it.
fn refused<T: DeserializeOwned + Debug>(json: &[u8]) {
    assert_eq!(
        try_from_slice::<T>(json).map(|_| ()),
        Err(Declined),
        "{}",
        show(json)
    );
    if let Ok(v) = serde_json::from_slice::<T>(json) {
        panic!("serde_json reads {v:?} from {}", show(json));
    }
}

/// The reader must accept `json` as a value, as `serde_json` does.
fn accepted_value(json: &[u8]) -> Value {
    value(json).unwrap_or_else(|| panic!("declined: {}", show(json)))
}

fn checked(result: Result<bool, String>) -> bool {
    result.unwrap_or_else(|e| panic!("{e}"))
}

fn repo_dir(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The files of a directory, sorted, without dot files.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    out.sort();
    out
}

/// A byte string read through `deserialize_bytes` (no UTF-8 check; the
/// array form, which `serde_json` also reads, goes through `visit_seq`).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Bytes(Vec<u8>);

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Bytes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Bytes, A::Error> {
                let mut out = Vec::new();
                while let Some(b) = a.next_element()? {
                    out.push(b);
                }
                Ok(Bytes(out))
            }
        }
        d.deserialize_bytes(V)
    }
}

/// A struct that reads one field and ignores every other one.
#[derive(Debug, PartialEq, Deserialize)]
struct Known {
    #[serde(default)]
    k: Option<i64>,
}

fn nested_arrays(depth: usize, inner: &str) -> String {
    format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth))
}

fn nested_objects(depth: usize) -> String {
    format!(
        "{}{{}}{}",
        r#"{"a":"#.repeat(depth - 1),
        "}".repeat(depth - 1)
    )
}

/// Objects and arrays alternating, `depth` levels.
fn nested_mixed(depth: usize) -> String {
    let mut open = String::new();
    let mut close = String::new();
    for level in 0..depth {
        if level % 2 == 0 {
            open.push_str(r#"{"k":"#);
            close.insert(0, '}');
        } else {
            open.push('[');
            close.insert(0, ']');
        }
    }
    // The innermost level needs a value: an object takes `null`, an array
    // `1`.
    let inner = if depth % 2 == 1 { "null" } else { "1" };
    format!("{open}{inner}{close}")
}

// ---------------------------------------------------------------------------
// Valid documents: accepted, and read as serde_json reads them.

#[test]
fn every_generated_document_is_accepted_and_read_as_serde_json_reads_it() {
    let docs = corpus(3000);
    assert_eq!(docs.len(), 3000);
    let mut types = BTreeSet::new();
    for (name, json) in &docs {
        let pretty =
            serde_json::to_string_pretty(&serde_json::from_str::<Value>(json).unwrap()).unwrap();
        for text in [json, &pretty] {
            assert_eq!(
                reader_agrees(name, text.as_bytes()),
                Ok(true),
                "{name}: {text}"
            );
            let ours: Value = try_from_slice(text.as_bytes())
                .unwrap_or_else(|_| panic!("declined as a value: {text}"));
            let theirs: Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours, theirs, "{text}");
            assert_eq!(ours.to_string(), theirs.to_string(), "{text}");
        }
        types.insert(*name);
    }
    assert_eq!(types.len(), TYPE_NAMES.len());
    println!(
        "{} documents of {} types, compact and pretty: all accepted",
        docs.len(),
        types.len()
    );
}

#[test]
fn every_golden_vector_is_accepted_and_read_as_serde_json_reads_it() {
    let mut typed = 0;
    for dir in ["valid", "invalid"] {
        for path in files(&repo_dir("tests/vectors").join(dir)) {
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            if !name.ends_with(".json") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            accepted_value(&bytes);
            if name.ends_with(".violations.json") {
                continue;
            }
            let type_name = name.trim_end_matches(".json").rsplit('.').next().unwrap();
            // The invalid vectors lack REQUIRED fields but are well-formed
            // values of their type: the fast path must serve them too.
            assert_eq!(reader_agrees(type_name, &bytes), Ok(true), "{name}");
            typed += 1;
        }
    }
    assert_eq!(typed, 20);
}

/// The fuzz seed corpora, as values and as the fuzzed types; the JSON-RPC
/// envelopes' `params` and `result` also as every message type.
#[test]
fn fuzz_seed_corpora_keep_the_one_sided_guarantee() {
    let mut files_seen = 0;
    let mut json_files = 0;
    let mut readings = 0;
    for dir in ["types_decode", "jsonrpc_decode"] {
        for path in files(&repo_dir("../../fuzz/corpus").join(dir)) {
            let bytes = std::fs::read(&path).unwrap();
            readings += fuzz_reader(&bytes);
            files_seen += 1;
            let Ok(envelope) = serde_json::from_slice::<Value>(&bytes) else {
                assert_eq!(value(&bytes), None, "{}", path.display());
                continue;
            };
            json_files += 1;
            // Every seed that is JSON at all is within the reader's reach
            // (none nests deeper than the limit).
            assert!(value(&bytes).is_some(), "declined {}", path.display());
            for member in ["params", "result"] {
                if let Some(inner) = envelope.get(member) {
                    let text = inner.to_string();
                    for name in TYPE_NAMES {
                        checked(reader_agrees(name, text.as_bytes()));
                    }
                }
            }
        }
    }
    assert!(files_seen >= 85, "{files_seen}");
    assert!(json_files >= 80, "{json_files}");
    println!(
        "{files_seen} seed files ({json_files} JSON): {readings} readings accepted and agreed"
    );
}

/// Every proper prefix of a document is incomplete JSON: declined.
#[test]
fn every_prefix_of_a_document_is_declined() {
    let docs = corpus(TYPE_NAMES.len());
    let mut prefixes = 0;
    for (name, json) in &docs {
        let bytes = json.as_bytes();
        for end in 0..bytes.len() {
            let cut = &bytes[..end];
            assert_eq!(reader_agrees(name, cut), Ok(false), "{name}: {}", show(cut));
            assert_eq!(reader_check::<Value>(cut), Ok(false), "{}", show(cut));
            assert!(serde_json::from_slice::<IgnoredAny>(cut).is_err());
            assert_eq!(try_from_slice::<IgnoredAny>(cut).err(), Some(Declined));
            prefixes += 1;
        }
    }
    println!("{prefixes} prefixes declined");
}

// ---------------------------------------------------------------------------
// Property tests.

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn docs() -> &'static [(&'static str, String)] {
    static DOCS: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
    DOCS.get_or_init(|| corpus(TYPE_NAMES.len() * 3))
}

/// What damage inserts: quotes, escapes good and bad, control bytes,
/// invalid UTF-8, whitespace, separators, numbers serde_json refuses or
/// reads specially, structure, a BOM.
const INSERTS: &[&[u8]] = &[
    b"\"",
    b"\\",
    b"\\\"",
    b"\\u0000",
    b"\\u001f",
    b"\x00",
    b"\x01",
    b"\x1f",
    b"\\ud800",
    b"\\udc00",
    b"\\ud83d\\ude00",
    b"\\ud83d",
    b"\\ud800\\u0041",
    b"\\u12",
    b"\\x",
    b"\\/",
    b"\x80",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b" ",
    b"\t",
    b"\n",
    b"\r",
    b"\x0b",
    b"\x0c",
    b",",
    b":",
    b"-0",
    b"-0.0",
    b"1e400",
    b"-1e400",
    b"1e-400",
    b"01",
    b"1.",
    b".5",
    b"-",
    b"1e",
    b"18446744073709551616",
    b"[",
    b"]",
    b"{",
    b"}",
    b"null",
    b"true",
    b"nul",
    b"\"x\":1,",
    b"\xef\xbb\xbf",
];

/// One edit of a document: what, where (an index scaled to the length),
/// and a byte of argument.
type Edit = (u8, proptest::sample::Index, u8);

fn damage(doc: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut bytes = doc.to_vec();
    for (op, at, arg) in edits {
        if bytes.is_empty() {
            break;
        }
        let at = at.index(bytes.len());
        match op % 7 {
            0 => bytes[at] ^= 1 << (arg % 8),
            1 => bytes[at] = *arg,
            2 => bytes.truncate(at),
            3 => {
                bytes.remove(at);
            }
            4 => {
                let insert = INSERTS[usize::from(*arg) % INSERTS.len()];
                bytes.splice(at..at, insert.iter().copied());
            }
            5 => {
                let end = (at + 1 + usize::from(arg % 16)).min(bytes.len());
                let chunk = bytes[at..end].to_vec();
                let to = (at * 7 + usize::from(*arg)) % bytes.len();
                bytes.splice(to..to, chunk);
            }
            _ => {
                // A duplicated key: the object's first member again,
                // with its own value or another one, in front.
                if let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(&bytes) {
                    if let Some((k, v)) = map.iter().next() {
                        let again = if arg % 2 == 0 { v.clone() } else { Value::Null };
                        let member = format!("{}:{again},", Value::String(k.clone()));
                        bytes.splice(1..1, member.bytes());
                    }
                }
            }
        }
    }
    bytes
}

/// JSON text of a value with random whitespace between tokens and each
/// string character written raw or escaped at random (`\uXXXX` in either
/// case, surrogate pairs beyond the BMP, the short escapes including
/// `\/`).
struct Writer {
    g: Gen,
    out: Vec<u8>,
}

impl Writer {
    fn write(v: &Value, seed: u64) -> Vec<u8> {
        let mut w = Writer {
            g: Gen::new(seed),
            out: Vec::new(),
        };
        w.value(v);
        w.out
    }

    fn ws(&mut self) {
        if self.g.chance(30) {
            for _ in 0..1 + self.g.below(3) {
                self.out.push(b" \t\n\r"[self.g.below(4)]);
            }
        }
    }

    fn value(&mut self, v: &Value) {
        self.ws();
        match v {
            Value::Null => self.out.extend_from_slice(b"null"),
            Value::Bool(b) => self.out.extend_from_slice(b.to_string().as_bytes()),
            Value::Number(n) => self.out.extend_from_slice(n.to_string().as_bytes()),
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.out.push(b'[');
                self.ws();
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    self.value(item);
                }
                self.out.push(b']');
            }
            Value::Object(map) => {
                self.out.push(b'{');
                self.ws();
                for (i, (k, item)) in map.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                        self.ws();
                    }
                    self.string(k);
                    self.ws();
                    self.out.push(b':');
                    self.value(item);
                }
                self.out.push(b'}');
            }
        }
        self.ws();
    }

    fn string(&mut self, s: &str) {
        self.out.push(b'"');
        for c in s.chars() {
            let short = match c {
                '"' => Some(b'"'),
                '\\' => Some(b'\\'),
                '/' => Some(b'/'),
                '\u{8}' => Some(b'b'),
                '\u{c}' => Some(b'f'),
                '\n' => Some(b'n'),
                '\r' => Some(b'r'),
                '\t' => Some(b't'),
                _ => None,
            };
            let must_escape = c == '"' || c == '\\' || c < ' ';
            match (self.g.below(4), short) {
                (0 | 1, _) if !must_escape => {
                    let mut buf = [0u8; 4];
                    self.out
                        .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                (2, Some(e)) => self.out.extend_from_slice(&[b'\\', e]),
                _ => {
                    let upper = self.g.chance(50);
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        let hex = if upper {
                            format!("\\u{unit:04X}")
                        } else {
                            format!("\\u{unit:04x}")
                        };
                        self.out.extend_from_slice(hex.as_bytes());
                    }
                }
            }
        }
        self.out.push(b'"');
    }
}

/// Text rich in what strings make hard: quotes, backslashes, control
/// characters, non-ASCII of every UTF-8 length, characters beyond the BMP.
fn text() -> impl Strategy<Value = String> {
    let special = proptest::sample::select(vec![
        '"',
        '\\',
        '/',
        '\u{0}',
        '\u{8}',
        '\u{c}',
        '\n',
        '\r',
        '\t',
        '\u{1f}',
        '\u{7f}',
        'a',
        'é',
        '€',
        '😀',
        '\u{ffff}',
        '\u{fffd}',
        '\u{2028}',
        '\u{10ffff}',
        '\u{10000}',
    ]);
    vec(prop_oneof![3 => any::<char>(), 2 => special], 0..24)
        .prop_map(|chars| chars.into_iter().collect())
}

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
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            btree_map(text(), inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Bytes drawn from JSON's own alphabet, so that the reader gets past the
/// first byte more often than with arbitrary bytes.
fn json_soup() -> impl Strategy<Value = Vec<u8>> {
    const PIECES: &[&[u8]] = &[
        b"{",
        b"}",
        b"[",
        b"]",
        b",",
        b":",
        b"\"",
        b"\"a\"",
        b"\"k\":",
        b"\\",
        b"\\u00",
        b"\\n",
        b"0",
        b"1",
        b"-",
        b".",
        b"e",
        b"+",
        b"9",
        b"null",
        b"true",
        b"false",
        b" ",
        b"\n",
        b"\x01",
        b"\xc3\xa9",
        b"\xff",
        b"\"text\":",
        b"\"parts\":",
        b"\"messageId\":",
    ];
    vec(proptest::sample::select(PIECES), 0..40).prop_map(|ps| ps.concat())
}

proptest! {
    #![proptest_config(config(1000))]

    /// Arbitrary bytes: the one-sided guarantee for every reading.
    #[test]
    fn arbitrary_bytes_keep_the_one_sided_guarantee(bytes in vec(any::<u8>(), 0..256)) {
        fuzz_reader(&bytes);
    }

    /// Bytes from JSON's alphabet: the one-sided guarantee.
    #[test]
    fn json_soup_keeps_the_one_sided_guarantee(bytes in json_soup()) {
        fuzz_reader(&bytes);
    }

    /// Valid documents after a few edits (byte flips, truncation, bad
    /// escapes, invalid UTF-8, control bytes, odd numbers, duplicated
    /// keys): the one-sided guarantee, as values, as the fuzzed types and
    /// as the document's own type.
    #[test]
    fn damaged_documents_keep_the_one_sided_guarantee(
        doc in 0..TYPE_NAMES.len() * 3,
        edits in vec((any::<u8>(), any::<proptest::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let (name, json) = &docs()[doc];
        let bytes = damage(json.as_bytes(), &edits);
        fuzz_reader(&bytes);
        if let Err(e) = reader_agrees(name, &bytes) {
            prop_assert!(false, "{name}: {e}");
        }
    }
}

proptest! {
    #![proptest_config(config(500))]

    /// Any JSON value written with random whitespace and escapes is
    /// accepted, read as serde_json reads it, and is the value written.
    #[test]
    fn values_written_any_way_are_accepted(v in json_value(), seed in any::<u64>()) {
        let bytes = Writer::write(&v, seed);
        let ours = value(&bytes);
        prop_assert!(ours.is_some(), "declined {}", show(&bytes));
        let ours = ours.unwrap();
        prop_assert_eq!(&ours, &v);
        prop_assert_eq!(ours.to_string(), v.to_string());
        fuzz_reader(&bytes);
    }

    /// Generated documents rewritten with random whitespace and escapes
    /// (in keys too) are accepted as their type and mean the same.
    #[test]
    fn documents_written_any_way_are_accepted(doc in 0..TYPE_NAMES.len() * 3, seed in any::<u64>()) {
        let (name, json) = &docs()[doc];
        let bytes = Writer::write(&serde_json::from_str(json).unwrap(), seed);
        prop_assert_eq!(reader_agrees(name, &bytes), Ok(true), "{}: {}", name, show(&bytes));
        let text = std::str::from_utf8(&bytes).unwrap();
        prop_assert_eq!(reencode(name, text), reencode(name, json));
    }
}

// ---------------------------------------------------------------------------
// Hand-picked cases.

const GOOD_ESCAPES: &[(&str, &str)] = &[
    (r#"\""#, "\""),
    (r"\\", "\\"),
    (r"\/", "/"),
    (r"\b", "\u{8}"),
    (r"\f", "\u{c}"),
    (r"\n", "\n"),
    (r"\r", "\r"),
    (r"\t", "\t"),
    (r"\u0000", "\0"),
    (r"\u001f", "\u{1f}"),
    (r"\u0041", "A"),
    (r"\u00e9", "é"),
    (r"\u00E9", "é"),
    (r"\u20ac", "€"),
    (r"\ud7ff", "\u{d7ff}"),
    (r"\ue000", "\u{e000}"),
    (r"\uFFFF", "\u{ffff}"),
    (r"\ud800\udc00", "\u{10000}"),
    (r"\ud83d\ude00", "😀"),
    (r"\uD83D\uDE00", "😀"),
    (r"\udbff\udfff", "\u{10ffff}"),
];

/// Not escapes, or lone surrogates (which `serde_json` refuses in text).
const BAD_ESCAPES: &[&str] = &[
    r"\x",
    r"\'",
    r"\a",
    r"\0",
    r"\U0041",
    r"\u",
    r"\u12",
    r"\u12G4",
    r"\u-123",
    r"\ud800",
    r"\udc00",
    r"\udfff",
    r"\ud800\u0041",
    r"\ud800\ud800",
    r"\ud800x",
    r"\ud800\n",
    r"\ud800\",
    "\\\u{1}",
];

#[test]
fn every_escape_reads_as_serde_json_reads_it() {
    for (escape, expected) in GOOD_ESCAPES {
        let json = format!(r#""{escape}""#);
        assert_eq!(accepted::<String>(json.as_bytes()), *expected, "{json}");
        assert_eq!(accepted_value(json.as_bytes()), Value::from(*expected));
        assert_eq!(accepted::<Bytes>(json.as_bytes()).0, expected.as_bytes());
        // In a key, in an ignored value, in raw text.
        let object = format!(r#"{{"{escape}":"{escape}","k":1}}"#);
        let v = accepted_value(object.as_bytes());
        assert_eq!(v[*expected], Value::from(*expected), "{object}");
        assert_eq!(accepted::<Known>(object.as_bytes()), Known { k: Some(1) });
        assert_eq!(
            accepted::<BTreeMap<Bytes, Value>>(object.as_bytes()).len(),
            2
        );
        let raw: Box<RawValue> = try_from_slice(json.as_bytes()).unwrap();
        assert_eq!(raw.get(), json);
    }
    for escape in BAD_ESCAPES {
        let json = format!(r#""{escape}""#);
        refused::<String>(json.as_bytes());
        refused::<Value>(json.as_bytes());
        let object = format!(r#"{{"{escape}":1}}"#);
        refused::<Value>(object.as_bytes());
        // serde_json reads lone surrogates as bytes (WTF-8) and skips
        // them unchecked; the reader leaves all of that to it.
        assert_eq!(read::<Bytes>(json.as_bytes()), None, "{json}");
        assert_eq!(read::<IgnoredAny>(json.as_bytes()), None, "{json}");
        let ignored = format!(r#"{{"x":"{escape}","k":1}}"#);
        assert_eq!(read::<Known>(ignored.as_bytes()), None, "{ignored}");
    }
}

/// `scan` looks at 16 bytes at a time: a special character (quote,
/// backslash, control, non-ASCII, invalid UTF-8) at every offset of
/// strings of every length up to 40, and after an escape (where scanning
/// restarts).
#[test]
fn special_characters_at_every_offset_of_a_string_are_found() {
    // (raw bytes in the JSON string, the text they mean or None if the
    // string is not valid JSON text)
    let specials: &[(&[u8], Option<&str>)] = &[
        (b"\\\"", Some("\"")),
        (b"\\\\", Some("\\")),
        (b"\\n", Some("\n")),
        (b"\\/", Some("/")),
        (b"\\u00e9", Some("é")),
        (b"\\ud83d\\ude00", Some("😀")),
        ("é".as_bytes(), Some("é")),
        ("€".as_bytes(), Some("€")),
        ("😀".as_bytes(), Some("😀")),
        (b"\x7f", Some("\u{7f}")),
        (b"\x00", None),
        (b"\x1f", None),
        (b"\n", None),
        (b"\\ud800", None),
        (b"\\udc00", None),
        (b"\\ud83d\\u0041", None),
        (b"\\q", None),
        (b"\xff", None),
        (b"\xc3", None),
        (b"\xed\xa0\x80", None),
    ];
    let mut strings = 0;
    for len in 0..40 {
        for at in 0..=len {
            for (special, meaning) in specials {
                for lead in ["", "\\t"] {
                    let mut body = lead.as_bytes().to_vec();
                    body.extend(std::iter::repeat_n(b'a', at));
                    body.extend_from_slice(special);
                    body.extend(std::iter::repeat_n(b'b', len - at));
                    let json = [b"\"".as_slice(), &body, b"\""].concat();
                    let ignored = [br#"{"x":"#.as_slice(), &json, br#","k":7}"#].concat();
                    let keyed = [br#"{"#.as_slice(), &json, br#":1}"#].concat();
                    match meaning {
                        Some(text) => {
                            let expected = format!(
                                "{}{}{text}{}",
                                if lead.is_empty() { "" } else { "\t" },
                                "a".repeat(at),
                                "b".repeat(len - at)
                            );
                            assert_eq!(accepted::<String>(&json), expected, "{}", show(&json));
                            assert_eq!(accepted_value(&json), Value::from(expected.clone()));
                            assert_eq!(accepted::<Bytes>(&json).0, expected.as_bytes());
                            assert_eq!(accepted::<Known>(&ignored), Known { k: Some(7) });
                            assert_eq!(accepted_value(&keyed)[&expected], 1);
                            let raw: &RawValue = try_from_slice(&json).unwrap();
                            assert_eq!(raw.get().as_bytes(), json);
                        }
                        None => {
                            refused::<String>(&json);
                            refused::<Value>(&json);
                            refused::<Value>(&keyed);
                            // Bytes and skipped strings: serde_json reads
                            // some of these; the reader may decline all.
                            read::<Bytes>(&json);
                            read::<Known>(&ignored);
                            read::<IgnoredAny>(&json);
                        }
                    }
                    strings += 1;
                }
            }
        }
    }
    println!("{strings} strings");
}

#[test]
fn nesting_at_the_limit_is_read_and_one_level_deeper_declined() {
    let nests: [fn(usize) -> String; 4] = [
        |d| nested_arrays(d, ""),
        |d| nested_arrays(d, "1"),
        nested_objects,
        nested_mixed,
    ];
    for nest in nests {
        for depth in [1, 2, MAX_DEPTH - 1, MAX_DEPTH] {
            let json = nest(depth);
            accepted_value(json.as_bytes());
            accepted::<IgnoredAny>(json.as_bytes());
            let raw: &RawValue = try_from_slice(json.as_bytes()).unwrap();
            assert_eq!(raw.get(), json);
        }
        for depth in [MAX_DEPTH + 1, MAX_DEPTH + 2] {
            refused::<Value>(nest(depth).as_bytes());
        }
    }
    // Deep input is declined without recursing (no stack overflow).
    for json in [nested_arrays(100_000, ""), r#"{"a":"#.repeat(100_000)] {
        refused::<Value>(json.as_bytes());
        assert_eq!(read::<IgnoredAny>(json.as_bytes()), None);
    }

    // Inside the crate's messages every level counts: `Part.data` starts
    // three levels down (the message, its parts, the part).
    let message = |data_depth: usize| {
        format!(
            r#"{{"messageId":"m","role":"ROLE_USER","parts":[{{"data":{}}}]}}"#,
            nested_arrays(data_depth, "")
        )
    };
    let at_limit = message(MAX_DEPTH - 3);
    let m: Message = accepted(at_limit.as_bytes());
    assert!(checked(reader_check::<Message>(at_limit.as_bytes())));
    assert!(matches!(m.parts[0].content, PartContent::Data(_)));
    refused::<Message>(message(MAX_DEPTH - 2).as_bytes());
    // As metadata (`Struct`), one level less deep.
    let metadata = |depth: usize| {
        format!(
            r#"{{"messageId":"m","role":"ROLE_USER","parts":[],"metadata":{{"k":{}}}}}"#,
            nested_arrays(depth, "")
        )
    };
    accepted::<Message>(metadata(MAX_DEPTH - 2).as_bytes());
    refused::<Message>(metadata(MAX_DEPTH - 1).as_bytes());
}

/// Unknown fields are skipped, without serde_json's recursion limit (its
/// skipping does not recurse): the reader reads what it skips up to
/// `MAX_DEPTH` levels of its own, then leaves the rest to serde_json.
#[test]
fn deep_values_in_ignored_fields() {
    let message = |unknown: &str| {
        format!(
            r#"{{"messageId":"m","role":"ROLE_USER","parts":[{{"text":"a","x":{unknown}}}],"y":{unknown}}}"#
        )
    };
    for depth in [1, MAX_DEPTH - 1, MAX_DEPTH] {
        for unknown in [
            nested_arrays(depth, ""),
            nested_objects(depth),
            nested_mixed(depth),
        ] {
            let json = message(&unknown);
            // Deeper than the limit overall, yet accepted, as serde_json
            // accepts it.
            assert!(checked(reader_check::<Message>(json.as_bytes())), "{json}");
            let known = format!(r#"{{"x":{unknown},"k":3}}"#);
            assert_eq!(accepted::<Known>(known.as_bytes()), Known { k: Some(3) });
        }
    }
    for unknown in [
        nested_arrays(MAX_DEPTH + 1, ""),
        nested_objects(MAX_DEPTH + 1),
        nested_arrays(100_000, ""),
    ] {
        let json = message(&unknown);
        assert_eq!(reader_check::<Message>(json.as_bytes()), Ok(false));
        // serde_json reads it, so the crate does.
        let m: Message = a2a_types::from_slice(json.as_bytes()).unwrap();
        assert_eq!(m.message_id, "m");
    }
    // Skipped malformed values are declined, as serde_json refuses them.
    for unknown in [
        "[1,]",
        "{\"a\"}",
        "{\"a\":1,}",
        "[1 2]",
        "01",
        "1.",
        "-",
        "nul",
        "tru",
        "\"\\x\"",
        "[\"\x01\"]",
        "{1:2}",
        "[",
        "]",
    ] {
        refused::<Known>(format!(r#"{{"x":{unknown},"k":1}}"#).as_bytes());
    }
    // What serde_json accepts while skipping: huge numbers, any UTF-8.
    for unknown in [
        "1e400",
        "-1e99999",
        "123456789012345678901234567890",
        "\"\u{fffd}\"",
    ] {
        let json = format!(r#"{{"x":{unknown},"k":1}}"#);
        assert_eq!(accepted::<Known>(json.as_bytes()), Known { k: Some(1) });
    }
    let invalid_utf8 = b"{\"x\":\"\xff\",\"k\":1}";
    assert_eq!(accepted::<Known>(invalid_utf8), Known { k: Some(1) });
}

#[test]
fn raw_values_get_the_exact_text() {
    #[derive(Debug, Deserialize)]
    struct Raws<'a> {
        #[serde(borrow)]
        a: &'a RawValue,
        b: Box<RawValue>,
        #[serde(default)]
        c: Option<Box<RawValue>>,
    }
    let mut count = 0;
    for raw in [
        "1",
        "-1.50e+3",
        "1e400",
        "null",
        "true",
        "\"\"",
        r#""x\u00e9\"\\ \ud83d\ude00""#,
        "\"é😀\"",
        "[]",
        "{}",
        r#"[ 1 , { "k" : null } ,"s" ]"#,
        "{\n\t\"a\" :\r\n[ ]\n}",
        &nested_arrays(MAX_DEPTH, "0"),
    ] {
        for ws in ["", " ", "\n\t "] {
            let json = format!(r#"{{ "a" :{ws}{raw}{ws}, "b":{raw}{ws}, "c" : {ws}{raw} }}"#);
            let ours: Raws =
                try_from_slice(json.as_bytes()).unwrap_or_else(|_| panic!("declined {json}"));
            let theirs: Raws = serde_json::from_str(&json).unwrap();
            for (o, t) in [(ours.a, theirs.a), (&*ours.b, &*theirs.b)] {
                assert_eq!(o.get(), t.get());
                assert_eq!(o.get(), raw);
            }
            let expected_c = (raw != "null").then_some(raw);
            assert_eq!(ours.c.as_deref().map(RawValue::get), expected_c);
            assert_eq!(theirs.c.as_deref().map(RawValue::get), expected_c);
            // At the top level, surrounded by whitespace.
            let top = format!("{ws}{raw}{ws}");
            let ours: &RawValue = try_from_slice(top.as_bytes()).unwrap();
            let theirs: &RawValue = serde_json::from_str(&top).unwrap();
            assert_eq!(ours.get(), theirs.get());
            let ours: Box<RawValue> = try_from_slice(top.as_bytes()).unwrap();
            assert_eq!(ours.get(), raw);
            count += 1;
        }
    }
    // Raw text must be UTF-8; lone surrogates and depth beyond the limit
    // are left to serde_json (which reads them).
    for raw in [
        b"\"\xff\"".as_slice(),
        b"[\"\xc3\"]",
        br#""\ud800""#,
        nested_arrays(MAX_DEPTH + 1, "").as_bytes(),
        b"[1,]",
        b"",
    ] {
        assert!(try_from_slice::<&RawValue>(raw).is_err(), "{}", show(raw));
        let json = [br#"{"a":"#.as_slice(), raw, br#","b":1}"#].concat();
        assert!(try_from_slice::<Raws>(&json).is_err(), "{}", show(&json));
    }
    // `serde_json::Value` reads the raw-value token as a raw value, by
    // either reader.
    let token = br#"{"$serde_json::private::RawValue":"[1,{\"a\":2}]"}"#;
    assert_eq!(accepted_value(token), serde_json::json!([1, {"a": 2}]));
    println!("{count} raw values");
}

#[test]
fn enums_are_read_as_unit_variants_only() {
    #[derive(Debug, PartialEq, Deserialize)]
    enum E {
        A,
        #[serde(rename = "bé")]
        B,
        N(i32),
        S {
            x: i32,
        },
        T(i32, i32),
    }
    for (json, expected) in [
        (r#""A""#, E::A),
        (" \"A\"\n", E::A),
        (r#""\u0041""#, E::A),
        (r#""bé""#, E::B),
        (r#""b\u00e9""#, E::B),
        (r#""\u0062\u00E9""#, E::B),
    ] {
        assert_eq!(accepted::<E>(json.as_bytes()), expected);
    }
    assert_eq!(
        accepted::<Vec<E>>(br#"["A", "b\u00e9","A"]"#),
        vec![E::A, E::B, E::A]
    );
    // Unit form of a variant with content, unknown or malformed names,
    // other JSON types.
    for json in [
        r#""N""#,
        r#""S""#,
        r#""T""#,
        r#""Z""#,
        r#""""#,
        r#""a""#,
        r#""\u0041 ""#,
        r#""\ud800""#,
        "1",
        "null",
        "[]",
        "true",
        r#""A"x"#,
    ] {
        refused::<E>(json.as_bytes());
    }
    assert_eq!(read::<E>(b"\"\xff\""), None);
    // Enums written as objects are left to serde_json.
    for json in [
        r#"{"N":1}"#,
        r#"{"S":{"x":1}}"#,
        r#"{"T":[1,2]}"#,
        r#"{"A":null}"#,
    ] {
        assert_eq!(read::<E>(json.as_bytes()), None, "{json}");
        assert!(serde_json::from_str::<E>(json).is_ok(), "{json}");
    }
}

#[test]
fn options_and_null() {
    assert_eq!(accepted::<Option<i32>>(b"null"), None);
    assert_eq!(accepted::<Option<i32>>(b" null\n"), None);
    assert_eq!(accepted::<Option<i32>>(b"7"), Some(7));
    assert_eq!(accepted::<Option<Option<i32>>>(b"null"), None);
    assert_eq!(accepted::<Option<String>>(br#""x""#), Some("x".into()));
    assert_eq!(
        accepted::<Option<Vec<Option<u8>>>>(b"[null,1]"),
        Some(vec![None, Some(1)])
    );
    accepted::<()>(b"null");
    assert_eq!(accepted_value(b"null"), Value::Null);
    for json in ["nul", "nulll", "Null", "NULL", "n", "null,", "[null", "nil"] {
        refused::<Option<i32>>(json.as_bytes());
        refused::<Value>(json.as_bytes());
        refused::<()>(json.as_bytes());
    }
    refused::<()>(b"[]");
    refused::<()>(b"0");
    // ProtoJSON: `null` is an absent field, for every kind of field.
    let m: Message = accepted(
        br#"{"messageId":"m","contextId":null,"taskId":null,"role":null,"parts":null,
            "metadata":null,"extensions":null,"referenceTaskIds":null}"#,
    );
    assert_eq!(m.message_id, "m");
    let t: Task = accepted(
        br#"{"id":"t","status":{"state":"TASK_STATE_WORKING","timestamp":null,"message":null},
            "artifacts":null,"history":[],"metadata":{"k":null}}"#,
    );
    assert_eq!(t.metadata.unwrap()["k"], Value::Null);
}

#[test]
fn numbers_are_read_as_serde_json_reads_them() {
    let numbers = [
        "0",
        "-0",
        "1",
        "-1",
        "0.0",
        "-0.0",
        "0e0",
        "-0E-0",
        "1E5",
        "1e+5",
        "1e-5",
        "2.5e-324",
        "4.9e-324",
        "1e-400",
        "-1e-400",
        "1e400",
        "-1e400",
        "0e400",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "255",
        "256",
        "-128",
        "-129",
        "2147483647",
        "2147483648",
        "-2147483648",
        "-2147483649",
        "9007199254740993",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "170141183460469231731687303715884105727",
        "340282366920938463463374607431768211456",
        "123456789012345678901234567890",
        "0.1",
        "3.141592653589793238462643383279",
        "100000000000000000000e-20",
        "1.5",
        "3.4028235e38",
        "3.5e38",
    ];
    for n in numbers {
        let bytes = n.as_bytes();
        // The reader hands number tokens to serde_json: it never declines
        // one serde_json reads.
        let ours = value(bytes);
        assert_eq!(
            ours.is_some(),
            serde_json::from_str::<Value>(n).is_ok(),
            "{n}"
        );
        read::<f64>(bytes);
        read::<f32>(bytes);
        read::<i8>(bytes);
        read::<i32>(bytes);
        read::<i64>(bytes);
        read::<i128>(bytes);
        read::<u8>(bytes);
        read::<u32>(bytes);
        read::<u64>(bytes);
        read::<u128>(bytes);
        for wrapped in [
            format!("[{n}]"),
            format!(r#"{{"a": {n} }}"#),
            format!(r#"{{"messageId":"m","metadata":{{"n":{n}}},"x":{n}}}"#),
            format!(r#"{{"id":"g","historyLength":{n}}}"#),
            format!(r#"{{"id":"g","historyLength":"{n}"}}"#),
        ] {
            let ours = value(wrapped.as_bytes());
            assert_eq!(
                ours.is_some(),
                serde_json::from_str::<Value>(&wrapped).is_ok()
            );
            for name in ["Message", "GetTaskRequest"] {
                checked(reader_agrees(name, wrapped.as_bytes()));
            }
        }
        // An int32 field takes what serde_json hands it: the reader
        // serves every number the crate decodes there.
        let request = format!(r#"{{"id":"g","historyLength":{n}}}"#);
        assert_eq!(
            checked(reader_agrees("GetTaskRequest", request.as_bytes())),
            reencode("GetTaskRequest", &request).is_ok(),
            "{request}"
        );
    }
    // Negative zero stays negative.
    assert_eq!(accepted_value(b"-0.0").to_string(), "-0.0");
    assert_eq!(accepted::<f64>(b"-0").to_bits(), (-0.0f64).to_bits());
    // Not JSON numbers.
    for n in [
        "01",
        "-01",
        "00",
        "1.",
        "-1.",
        ".5",
        "+1",
        "1e",
        "1e+",
        "1E-",
        "-",
        "--1",
        "1.e5",
        "0x10",
        "NaN",
        "Infinity",
        "-Infinity",
        "1_000",
        "1.5.5",
        "1e5e5",
        "١",
    ] {
        refused::<Value>(n.as_bytes());
        refused::<f64>(n.as_bytes());
        refused::<i64>(n.as_bytes());
        refused::<Value>(format!("[{n}]").as_bytes());
        refused::<Known>(format!(r#"{{"x":{n},"k":1}}"#).as_bytes());
    }
}

#[test]
fn trailing_characters_empty_input_and_bom_are_declined() {
    for json in [
        "",
        " ",
        "\n\t\r ",
        "{}x",
        "{} {}",
        "[1]]",
        "1 2",
        "\"a\"\"b\"",
        "{}\0",
        "{},",
        "null null",
        "\u{feff}{}",
        "{}\u{feff}",
        "\u{feff}",
        "\u{b}{}",
        "{}\u{c}",
        "\u{a0}{}",
        "{}\u{2028}",
    ] {
        refused::<Value>(json.as_bytes());
        refused::<IgnoredAny>(json.as_bytes());
        refused::<Message>(json.as_bytes());
        refused::<Box<RawValue>>(json.as_bytes());
    }
    for json in ["{} ", " \n{}\t\r\n", "\r\n[\r\n]\r\n", "\t\"s\" "] {
        accepted_value(json.as_bytes());
        accepted::<IgnoredAny>(json.as_bytes());
    }
}

#[test]
fn keys_are_read_as_serde_json_reads_them() {
    // Duplicates: the last one wins in a value, is an error in a message.
    assert_eq!(
        accepted_value(br#"{"a":1,"a":2}"#),
        serde_json::json!({"a": 2})
    );
    refused::<Message>(br#"{"messageId":"a","messageId":"b"}"#);
    refused::<Message>(br#"{"messageId":"a","message_id":"b"}"#);
    // Escaped field names, proto names.
    let m: Message = accepted(br#"{"message\u0049d":"m","\u0072ole":"ROLE_AGENT","parts":[]}"#);
    assert_eq!(m.message_id, "m");
    let m: Message = accepted(br#"{"message_id":"m","reference_task_ids":["t"]}"#);
    assert_eq!(m.reference_task_ids, ["t"]);
    // Unknown keys are not UTF-8 checked when matched as field names, as
    // in serde_json; in a value they are text and must be UTF-8.
    let m: Message = accepted(b"{\"\xff\":1,\"messageId\":\"m\"}");
    assert_eq!(m.message_id, "m");
    refused::<Value>(b"{\"\xff\":1}");
    // Keys must be strings; objects need their colon and commas.
    for json in [
        r#"{1:2}"#,
        r#"{a:1}"#,
        r#"{"a" 1}"#,
        r#"{"a":1 "b":2}"#,
        r#"{,"a":1}"#,
        r#"{"a":1,,"b":2}"#,
    ] {
        refused::<Value>(json.as_bytes());
        refused::<Message>(json.as_bytes());
    }
    // Keys read as numbers are left to serde_json (which reads "1" as 1).
    assert_eq!(read::<BTreeMap<i32, i32>>(br#"{"1":2}"#), None);
    assert!(serde_json::from_slice::<BTreeMap<i32, i32>>(br#"{"1":2}"#).is_ok());
    // Bytes keys.
    assert_eq!(
        accepted::<BTreeMap<Bytes, u8>>(b"{\"a\\n\":1,\"\xff\":2}").len(),
        2
    );
}

/// The fuzz harness reads a valid document every way serde_json reads
/// it: as a value, as each fuzzed type it is one of, skipped, raw.
#[test]
fn the_fuzz_harness_accepts_what_serde_json_reads() {
    let json = br#"{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}"#;
    let mut typed = 0;
    for name in READER_FUZZ_TYPES {
        assert!(TYPE_NAMES.contains(name), "{name}");
        typed += usize::from(reencode(name, std::str::from_utf8(json).unwrap()).is_ok());
    }
    // A message also reads as a task, a card and a request (unknown
    // fields ignored, REQUIRED ones left to validation), not as a oneof.
    assert_eq!(typed, 4);
    assert_eq!(fuzz_reader(json), 1 + typed + 2);
}

/// serde's buffered forms (untagged and internally tagged enums, flatten)
/// and borrowed strings, which exist only where the input has no escape.
#[test]
fn derived_forms_and_borrowed_strings_read_as_serde_json_reads_them() {
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(untagged)]
    enum Untagged {
        Int(i64),
        Float(f64),
        Text(String),
        List(Vec<Untagged>),
        Map(BTreeMap<String, Untagged>),
        Null(()),
    }
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(tag = "t")]
    enum Tagged {
        A { x: i32 },
        B { s: String },
    }
    #[derive(Debug, PartialEq, Deserialize)]
    struct Flat {
        a: i32,
        #[serde(flatten)]
        rest: BTreeMap<String, Value>,
    }
    for json in [
        "1",
        "-1",
        "1.5",
        "-0.0",
        "18446744073709551616",
        r#""s\u00e9""#,
        "null",
        r#"[1,"a",[null],{"k":{"\u006b":2.5}}]"#,
    ] {
        accepted::<Untagged>(json.as_bytes());
    }
    accepted::<Tagged>(br#"{"t":"A","x":1}"#);
    accepted::<Tagged>(br#"{"x":1,"t":"A"}"#);
    accepted::<Tagged>(br#"{"\u0074":"B","s":"\n"}"#);
    refused::<Tagged>(br#"{"t":"C"}"#);
    refused::<Tagged>(br#"{"x":1}"#);
    let flat: Flat = accepted(br#"{"b":[1,{"c":null}],"a":2,"d":"\ud83d\ude00"}"#);
    assert_eq!(flat.rest.len(), 2);
    refused::<Flat>(br#"{"b":1}"#);

    // `&str` borrows, so an escaped string fails in both readers.
    assert_eq!(try_from_slice::<&str>(br#""ab""#), Ok("ab"));
    assert_eq!(serde_json::from_slice::<&str>(br#""ab""#).ok(), Some("ab"));
    assert!(try_from_slice::<&str>(br#""a\nb""#).is_err());
    assert!(serde_json::from_slice::<&str>(br#""a\nb""#).is_err());
    let keys: BTreeMap<&str, u8> = try_from_slice(br#"{"a":1,"b":2}"#).unwrap();
    assert_eq!(keys.len(), 2);
    assert!(try_from_slice::<BTreeMap<&str, u8>>(br#"{"\u0061":1}"#).is_err());
    assert!(serde_json::from_slice::<BTreeMap<&str, u8>>(br#"{"\u0061":1}"#).is_err());
}

// ---------------------------------------------------------------------------
// Regressions: inputs the reader once read where serde_json refused them.

/// A visitor that reads keys as `IgnoredAny` (serde's own `IgnoredAny`
/// visitor does, for a map it is asked to skip through `deserialize_map`).
/// serde_json reads such a key as text, so it must be UTF-8.
#[test]
fn keys_read_as_ignored_must_be_utf8() {
    #[derive(Debug, PartialEq)]
    struct SkippedMap;
    impl<'de> Deserialize<'de> for SkippedMap {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SkippedMap, D::Error> {
            d.deserialize_map(IgnoredAny).map(|_| SkippedMap)
        }
    }
    assert!(serde_json::from_slice::<SkippedMap>(b"{\"\xff\":1}").is_err());
    refused::<SkippedMap>(b"{\"\xff\":1}");
    refused::<SkippedMap>(b"{\"a\":1,\"\xc3\":2}");
    accepted::<SkippedMap>(br#"{"a":1,"\u00e9":[2],"\ud83d\ude00":{"b":null}}"#);
}
/// An enum whose variant is read by a seed asking for a number (a variant
/// index): serde_json hands the seed its own deserializer, positioned on
/// the string, and so refuses; the reader must not hand it something that
/// reads a string as anything.
#[test]
fn enum_variants_are_read_from_the_input_itself() {
    #[derive(Debug, PartialEq)]
    struct Pick(u64);
    struct Index;
    impl<'de> Visitor<'de> for Index {
        type Value = u64;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a variant index or name")
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<u64, E> {
            match v {
                "A" => Ok(0),
                _ => Err(E::unknown_variant(v, &["A"])),
            }
        }
    }
    impl<'de> serde::de::DeserializeSeed<'de> for Index {
        type Value = u64;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
            d.deserialize_u64(self)
        }
    }
    impl<'de> Deserialize<'de> for Pick {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pick, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Pick;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an enum")
                }
                fn visit_enum<A: serde::de::EnumAccess<'de>>(self, a: A) -> Result<Pick, A::Error> {
                    use serde::de::VariantAccess;
                    let (index, variant) = a.variant_seed(Index)?;
                    variant.unit_variant()?;
                    Ok(Pick(index))
                }
            }
            d.deserialize_enum("Pick", &["A"], V)
        }
    }
    assert!(serde_json::from_slice::<Pick>(br#""A""#).is_err());
    refused::<Pick>(br#""A""#);
    refused::<Pick>(br#""\u0041""#);
}

/// A type whose `Deserialize` reads nothing (as a `deserialize_with`
/// returning a default does). serde_json fails wherever such a value
/// stands for a list element or a key, the input then having a token too
/// many; the reader must not read past it.
#[test]
fn elements_and_keys_that_read_nothing_are_declined() {
    #[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
    struct Nothing;
    impl<'de> Deserialize<'de> for Nothing {
        fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Nothing, D::Error> {
            Ok(Nothing)
        }
    }
    for json in ["[,]", "[ , ]", "[1]", "[,1]", "[1,]"] {
        refused::<Vec<Nothing>>(json.as_bytes());
    }
    for json in [r#"{":"x"}"#, r#"{"a":"b"}"#, r#"{"":1}"#] {
        refused::<BTreeMap<Nothing, String>>(json.as_bytes());
    }
    // What serde_json reads with it: no element, no key, or a value that
    // reads nothing (the colon is all there is).
    assert_eq!(accepted::<Vec<Nothing>>(b"[ ]"), []);
    assert!(accepted::<BTreeMap<Nothing, u8>>(b"{}").is_empty());
    assert_eq!(accepted::<BTreeMap<String, Nothing>>(br#"{"a":}"#).len(), 1);
    assert_eq!(accepted::<Option<Nothing>>(b"null"), None);
}
