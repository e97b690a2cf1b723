//! Generated documents against the wire oracle (Google's ProtoJSON parser
//! on the normative proto), both ways: our output must parse there, and
//! the oracle's own output must decode here to the same values.

mod common;

use std::collections::BTreeSet;

use a2a_types::testing::{corpus, reencode, TYPE_NAMES};
use serde_json::Value;

const CORPUS_SIZE: usize = 2_000;

#[test]
fn generated_corpus_passes_the_wire_oracle_and_our_decoder() {
    common::oracle_ready();
    let docs = corpus(CORPUS_SIZE);
    assert_eq!(docs.len(), CORPUS_SIZE);

    // Our decoder reads back exactly what our encoder wrote.
    for (i, (name, json)) in docs.iter().enumerate() {
        let back = reencode(name, json).unwrap_or_else(|e| panic!("doc {i} ({name}): {e}\n{json}"));
        assert_eq!(
            a2a_types::testing::line_safe(back),
            *json,
            "doc {i} ({name}) changed on re-encoding"
        );
    }

    let input: String = docs
        .iter()
        .map(|(name, json)| format!("{name}\t{json}\n"))
        .collect();
    let verdict = a2a_wire_oracle::lines(&input);
    let passed = a2a_wire_oracle::assert_all_pass(&verdict);
    assert_eq!(passed, CORPUS_SIZE, "{}", verdict.stdout);
}

/// Every message type, every oneof member, and the awkward values the
/// corpus promises, do occur in it.
#[test]
fn corpus_covers_every_type_member_and_edge_value() {
    let docs = corpus(CORPUS_SIZE);
    let types: BTreeSet<&str> = docs.iter().map(|(name, _)| *name).collect();
    assert_eq!(types.len(), TYPE_NAMES.len());

    let all: String = docs.iter().map(|(_, json)| json.as_str()).collect();
    let members = [
        // Part.content
        "\"text\":",
        "\"raw\":",
        "\"url\":",
        "\"data\":",
        // SecurityScheme.scheme
        "\"apiKeySecurityScheme\":",
        "\"httpAuthSecurityScheme\":",
        "\"oauth2SecurityScheme\":",
        "\"openIdConnectSecurityScheme\":",
        "\"mtlsSecurityScheme\":",
        // OAuthFlows.flow
        "\"authorizationCode\":",
        "\"clientCredentials\":",
        "\"implicit\":",
        "\"password\":",
        "\"deviceCode\":",
        // SendMessageResponse.payload / StreamResponse.payload
        "{\"task\":",
        "{\"message\":",
        "{\"statusUpdate\":",
        "{\"artifactUpdate\":",
        // Edge values.
        "-0.0",
        "1e+308",
        "18446744073709551615",
        "-9223372036854775808",
        "5e-324",
        "日本語",
        "🚀",
        "\\u2028",
        // optional fields set to their defaults, and empty strings
        "\"historyLength\":0",
        "\"streaming\":false",
        "\"documentationUrl\":\"\"",
        "\"includeArtifacts\":false",
        "\"raw\":\"\"",
        "\"text\":\"\"",
        "\"data\":null",
        "\"metadata\":{}",
    ];
    for member in members {
        assert!(all.contains(member), "corpus never contains {member}");
    }
    for state in a2a_types::TaskState::ALL.iter().skip(1) {
        assert!(
            all.contains(state.as_str_name()),
            "corpus never has {state}"
        );
    }
}

/// Maps every number to f64: protobuf's `Value` holds doubles, so the
/// oracle's normalized output writes `1` as `1.0` and rounds integers
/// beyond 2^53, exactly as any double-based reader would.
fn as_doubles(v: Value) -> Value {
    match v {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        Value::Array(a) => Value::Array(a.into_iter().map(as_doubles).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, as_doubles(v))).collect()),
        other => other,
    }
}

#[test]
fn oracle_normalized_output_decodes_to_the_same_values() {
    common::oracle_ready();
    // Three documents of every type (one oracle process per document).
    let docs = corpus(3 * TYPE_NAMES.len());
    let chunks: Vec<Vec<(&str, String)>> = docs
        .chunks(docs.len().div_ceil(4))
        .map(<[_]>::to_vec)
        .collect();
    let results: Vec<Result<usize, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                s.spawn(move || {
                    for (name, json) in chunk {
                        let verdict = a2a_wire_oracle::normalize(name, json);
                        if !verdict.success {
                            return Err(format!("oracle could not normalize {name}: {}", verdict.stderr));
                        }
                        let back = reencode(name, &verdict.stdout)
                            .map_err(|e| format!("{name}: oracle output does not decode: {e}\n{}", verdict.stdout))?;
                        let ours = as_doubles(serde_json::from_str(json).unwrap());
                        let theirs = as_doubles(serde_json::from_str(&back).unwrap());
                        if ours != theirs {
                            return Err(format!(
                                "{name}: values differ after the oracle's normalization\nours:   {json}\n\
                                 oracle: {}\nback:   {back}",
                                verdict.stdout
                            ));
                        }
                    }
                    Ok(chunk.len())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut checked = 0;
    for r in results {
        checked += r.unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(checked, docs.len());
}

/// The 1.1 draft's new message, on its own (it occurs inside `Task` in
/// the corpus too), against the draft proto: every kind of entry,
/// including one of a kind a later version adds.
#[cfg(feature = "draft-1-1")]
#[test]
fn timeline_entries_pass_the_draft_oracle() {
    use a2a_types::draft_1_1::TimelineEntry;
    use a2a_types::testing::{Gen, Generate};
    common::oracle_ready();
    let mut g = Gen::new(11);
    let input: String = (0..200)
        .map(|_| {
            let entry = TimelineEntry::generate(&mut g);
            let json = a2a_types::testing::line_safe(serde_json::to_string(&entry).unwrap());
            format!("TimelineEntry\t{json}\n")
        })
        .collect();
    let verdict = a2a_wire_oracle::lines(&input);
    assert_eq!(
        a2a_wire_oracle::assert_all_pass(&verdict),
        200,
        "{}",
        verdict.stdout
    );
}
