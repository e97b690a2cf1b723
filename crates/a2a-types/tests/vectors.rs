//! The golden vectors: every JSON example of spec sections 6 and 8.5
//! (see `tests/vectors/README.md`).

mod common;

use std::path::{Path, PathBuf};

use a2a_types::testing::{reencode, validate_json};
use a2a_types::{FieldViolation, Timestamp};
use serde_json::Value;

struct Vector {
    name: String,
    type_name: String,
    text: String,
    path: PathBuf,
}

fn vectors(dir: &str) -> Vec<Vector> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(dir);
    let mut out: Vec<Vector> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.ends_with(".json") && !name.ends_with(".violations.json")
        })
        .map(|path| {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
            let (name, type_name) = stem.rsplit_once('.').expect("NAME.Type.json");
            Vector {
                name: name.to_owned(),
                type_name: type_name.to_owned(),
                text: std::fs::read_to_string(&path).unwrap(),
                path,
            }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn compact(text: &str) -> String {
    serde_json::to_string(&serde_json::from_str::<Value>(text).unwrap()).unwrap()
}

/// Whether a JSON value is what ProtoJSON omits (or a REQUIRED field
/// writes) for an unset field.
fn is_default(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty() || s.ends_with("_UNSPECIFIED"),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    }
}

/// Same JSON modulo key order, default omission and timestamp text.
fn same_json(original: &Value, ours: &Value, path: &str) -> Result<(), String> {
    match (original, ours) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, va) in a {
                let here = format!("{path}.{k}");
                match b.get(k) {
                    Some(vb) => same_json(va, vb, &here)?,
                    None if is_default(va) => {}
                    None => return Err(format!("{here}: dropped {va}")),
                }
            }
            for (k, vb) in b {
                if !a.contains_key(k) && !is_default(vb) {
                    return Err(format!("{path}.{k}: added {vb}"));
                }
            }
            Ok(())
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .try_for_each(|(i, (x, y))| same_json(x, y, &format!("{path}[{i}]"))),
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => Ok(()),
        (Value::String(a), Value::String(b)) if a == b => Ok(()),
        (Value::String(a), Value::String(b)) => {
            match (a.parse::<Timestamp>(), b.parse::<Timestamp>()) {
                (Ok(x), Ok(y)) if x.truncated_to_millis() == y => Ok(()),
                _ => Err(format!("{path}: {a:?} became {b:?}")),
            }
        }
        (a, b) if a == b => Ok(()),
        (a, b) => Err(format!("{path}: {a} became {b}")),
    }
}

#[test]
fn there_are_vectors() {
    assert_eq!(vectors("valid").len(), 17);
    assert_eq!(vectors("invalid").len(), 3);
}

#[test]
fn valid_examples_decode_validate_and_reencode_to_the_same_json() {
    for v in vectors("valid") {
        let encoded = reencode(&v.type_name, &v.text)
            .unwrap_or_else(|e| panic!("{}: does not decode: {e}", v.name));
        let original: Value = serde_json::from_str(&v.text).unwrap();
        let ours: Value = serde_json::from_str(&encoded).unwrap();
        if let Err(diff) = same_json(&original, &ours, "") {
            panic!("{}: re-encoding differs at {diff}\n{encoded}", v.name);
        }
        // Our output is a fixed point.
        assert_eq!(
            reencode(&v.type_name, &encoded).unwrap(),
            encoded,
            "{}",
            v.name
        );
        let violations = validate_json(&v.type_name, &v.text).unwrap();
        assert!(violations.is_empty(), "{}: {violations:?}", v.name);
    }
}

#[test]
fn valid_examples_and_their_reencodings_pass_the_wire_oracle() {
    common::oracle_ready();
    let mut lines = String::new();
    let all = vectors("valid");
    for v in &all {
        lines.push_str(&format!("{}\t{}\n", v.type_name, compact(&v.text)));
        let encoded = reencode(&v.type_name, &v.text).unwrap();
        lines.push_str(&format!("{}\t{}\n", v.type_name, encoded));
    }
    let verdict = a2a_wire_oracle::lines(&lines);
    assert_eq!(a2a_wire_oracle::assert_all_pass(&verdict), 2 * all.len());
}

#[test]
fn invalid_examples_decode_and_report_exactly_their_missing_fields() {
    common::oracle_ready();
    let all = vectors("invalid");
    let mut lines = String::new();
    for v in &all {
        let expected_path = v.path.with_extension("violations.json");
        let expected: Vec<FieldViolation> =
            serde_json::from_str(&std::fs::read_to_string(&expected_path).unwrap()).unwrap();
        let got = validate_json(&v.type_name, &v.text)
            .unwrap_or_else(|e| panic!("{}: does not decode: {e}", v.name));
        assert_eq!(got, expected, "{}", v.name);
        lines.push_str(&format!("{}\t{}\n", v.type_name, compact(&v.text)));
    }
    // The referee agrees that each one misses REQUIRED fields.
    let verdict = a2a_wire_oracle::lines(&lines);
    assert_eq!(verdict.counts(), Some((0, all.len())), "{}", verdict.stdout);
    assert!(verdict
        .failures()
        .iter()
        .all(|f| f.contains("missing REQUIRED")));
}
