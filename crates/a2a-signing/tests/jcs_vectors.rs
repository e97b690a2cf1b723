//! RFC 8785 vectors as data files (`vectors/`), driven as a table: every
//! `input/NAME.json` canonicalizes to exactly `output/NAME.json`, and every
//! line of `numbers-appendix-b.txt` (RFC 8785 Appendix B) formats as
//! written. The outputs were produced by an ECMAScript engine
//! (`vectors/oracle.mjs`), which defines the serialization RFC 8785 uses.

use std::fs;
use std::path::Path;

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors")
}

#[test]
fn input_output_pairs() {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir().join("input")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let input = fs::read(&path).unwrap();
        let want = fs::read(dir().join("output").join(&name)).unwrap();
        let got = a2a_signing::canonicalize(&input).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want),
            "{name}"
        );
        // Canonical text is its own canonical form.
        assert_eq!(a2a_signing::canonicalize(&got).unwrap(), got, "{name}");
        // The serde_json value path agrees.
        let value: serde_json::Value = serde_json::from_slice(&input).unwrap();
        assert_eq!(
            a2a_signing::canonicalize_value(&value).unwrap(),
            want,
            "{name}"
        );
        names.push(name);
    }
    names.sort();
    assert_eq!(
        names,
        [
            "escaping.json",
            "key-order.json",
            "nesting.json",
            "numbers.json",
            "rfc8785-section-3.2.2.json",
            "rfc8785-section-3.2.3.json",
            "spec-8.4.1-example.json",
            "whitespace.json"
        ]
    );
}

#[test]
fn appendix_b_numbers() {
    let text = fs::read_to_string(dir().join("numbers-appendix-b.txt")).unwrap();
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (hex, want) = line.split_once(' ').unwrap();
        let value = f64::from_bits(u64::from_str_radix(hex, 16).unwrap());
        match (a2a_signing::format_number(value), want) {
            (Err(_), "error") => {}
            (Ok(got), want) => assert_eq!(got, want, "{hex}"),
            (Err(e), want) => panic!("{hex}: {e}, expected {want}"),
        }
        n += 1;
    }
    assert_eq!(n, 26);
}

#[test]
fn every_double_round_trips_through_its_text() {
    // A deterministic sweep of bit patterns: the text reads back as the
    // same double (the shortest-digits property RFC 8785 relies on).
    let mut bits: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..20_000 {
        bits ^= bits << 13;
        bits ^= bits >> 7;
        bits ^= bits << 17;
        let v = f64::from_bits(bits);
        if !v.is_finite() {
            continue;
        }
        let text = a2a_signing::format_number(v).unwrap();
        let back: f64 = text.parse().unwrap();
        assert!(back == v || (v == 0.0 && back == 0.0), "{v:e} -> {text}");
    }
}
