//! The JSON report: a round trip through the Rust types, and the emitted
//! JSON checked against `report.schema.json` by a small validator of the
//! schema keywords that file uses. The JUnit report, parsed back by an XML
//! parser.

use a2a_conformance::{
    run, scenarios, Binding, Embedded, Level, Outcome, Record, Report, RunOptions, Timing,
};
use serde_json::{Map, Value};

async fn a_report() -> Report {
    let mut e = Embedded::default();
    e.timing = Timing::FAST;
    let target = e.in_memory(Default::default()).await;
    let options = RunOptions {
        only: vec![
            "card.".into(),
            "jsonrpc.envelope".into(),
            "capability.push".into(),
        ],
        ..RunOptions::default()
    };
    run(target, &scenarios::all(), &options).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_trip_and_schema() {
    let report = a_report().await;
    assert!(report.results.iter().any(|r| r.outcome == Outcome::Pass));
    assert!(report.results.iter().any(|r| r.outcome == Outcome::Skip));
    let json = serde_json::to_string_pretty(&report).unwrap();
    let back: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(back, report);

    let schema: Value = serde_json::from_str(include_str!("../report.schema.json")).unwrap();
    let value: Value = serde_json::from_str(&json).unwrap();
    let errors = validate(&schema, &schema, &value, "$");
    assert!(errors.is_empty(), "{errors:#?}");
    // The TCK ids travel with the records.
    let served = report
        .results
        .iter()
        .find(|r| r.scenario == "card.served")
        .unwrap();
    assert_eq!(served.tck, ["CARD-DISC-001"]);
    assert!(value["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["tck"] == serde_json::json!(["CARD-DISC-001"])));

    // The validator does reject what the schema forbids.
    let mut bad = value.clone();
    bad["results"][0]["outcome"] = Value::from("maybe");
    bad["totals"]["passed"] = Value::from(-1);
    bad["extra"] = Value::Null;
    bad["results"][1].as_object_mut().unwrap().remove("level");
    let errors = validate(&schema, &schema, &bad, "$");
    assert_eq!(errors.len(), 4, "{errors:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn junit_parses_back() {
    let mut report = a_report().await;
    // A failure quoting an answer full of markup and characters XML 1.0
    // cannot carry.
    let nasty = "<error code=\"-32001\"> & 'quoted'\u{0}\u{1b}]]>\nsecond line";
    report.results.push(Record {
        scenario: "x.nasty".into(),
        title: "a title with <markup> & \"quotes\"".into(),
        section: "3.1.1".into(),
        tck: vec!["CORE-SEND-001".into()],
        level: Level::Must,
        binding: Binding::HttpJson,
        outcome: Outcome::Fail,
        detail: Record::failure_detail(nasty, "nothing"),
        duration_ms: 1234,
    });
    let report = Report::new(report.target.clone(), report.agent.clone(), report.results);
    let xml = report.to_junit();
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let attr = |n: roxmltree::Node, a: &str| n.attribute(a).unwrap().to_owned();
    assert_eq!(attr(root, "tests"), report.results.len().to_string());
    assert_eq!(attr(root, "failures"), report.totals.failed.to_string());
    assert_eq!(attr(root, "skipped"), report.totals.skipped.to_string());
    let cases: Vec<_> = root
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), report.results.len());
    let failures = cases
        .iter()
        .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
        .count();
    let skipped = cases
        .iter()
        .filter(|c| c.children().any(|n| n.has_tag_name("skipped")))
        .count();
    assert_eq!(
        (failures, skipped),
        (report.totals.failed, report.totals.skipped)
    );
    // Each suite's counts add up.
    for suite in root.children().filter(|n| n.has_tag_name("testsuite")) {
        let n = suite
            .children()
            .filter(|c| c.has_tag_name("testcase"))
            .count();
        assert_eq!(attr(suite, "tests"), n.to_string());
    }
    let case = cases
        .iter()
        .find(|c| c.attribute("name") == Some("x.nasty [HTTP+JSON]"))
        .unwrap();
    assert_eq!(attr(*case, "classname"), "a2a-conformance.3.1.1");
    assert_eq!(attr(*case, "time"), "1.234");
    let failure = case.children().find(|n| n.has_tag_name("failure")).unwrap();
    let readable = "<error code=\"-32001\"> & 'quoted'\\u{0}\\u{1b}]]>\nsecond line";
    assert_eq!(
        failure.text(),
        Some(format!("expected {readable}; got nothing").as_str())
    );
    assert_eq!(
        failure.attribute("message"),
        Some("expected <error code=\"-32001\"> & 'quoted'\\u{0}\\u{1b}]]>")
    );
    assert_eq!(failure.attribute("type"), Some("MUST"));
    let props: Vec<(&str, &str)> = case
        .descendants()
        .filter(|n| n.has_tag_name("property"))
        .map(|p| (p.attribute("name").unwrap(), p.attribute("value").unwrap()))
        .collect();
    assert!(props.contains(&("tck", "CORE-SEND-001")), "{props:?}");
    assert!(props.contains(&("title", "a title with <markup> & \"quotes\"")));
    // A passing card scenario names its TCK requirement too.
    assert!(xml.contains("<property name=\"tck\" value=\"CARD-DISC-001\"/>"));
}

/// The keywords `report.schema.json` uses: `type`, `const`, `enum`,
/// `required`, `properties`, `additionalProperties: false`, `items`,
/// `minimum`, and `$ref` into `#/$defs`.
fn validate(root: &Value, schema: &Value, v: &Value, at: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let s = schema.as_object().cloned().unwrap_or_default();
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let target = root
            .pointer(r.trim_start_matches('#'))
            .expect("a $ref into the schema");
        return validate(root, target, v, at);
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        if !types.iter().any(|t| is_type(v, t)) {
            errors.push(format!("{at}: not {types:?}"));
        }
    }
    if let Some(c) = s.get("const") {
        if v != c {
            errors.push(format!("{at}: not {c}"));
        }
    }
    if let Some(Value::Array(options)) = s.get("enum") {
        if !options.contains(v) {
            errors.push(format!("{at}: {v} not in {options:?}"));
        }
    }
    if let (Some(min), Some(n)) = (s.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if n < min {
            errors.push(format!("{at}: {n} < {min}"));
        }
    }
    if let Some(obj) = v.as_object() {
        errors.extend(check_object(root, &s, obj, at));
    }
    if let (Some(items), Some(array)) = (s.get("items"), v.as_array()) {
        for (i, item) in array.iter().enumerate() {
            errors.extend(validate(root, items, item, &format!("{at}[{i}]")));
        }
    }
    errors
}

fn check_object(
    root: &Value,
    s: &Map<String, Value>,
    obj: &Map<String, Value>,
    at: &str,
) -> Vec<String> {
    let mut errors = Vec::new();
    for name in s
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = name.as_str().unwrap();
        if !obj.contains_key(name) {
            errors.push(format!("{at}: missing {name}"));
        }
    }
    let props = s.get("properties").and_then(Value::as_object);
    for (k, child) in obj {
        match props.and_then(|p| p.get(k)) {
            Some(sub) => errors.extend(validate(root, sub, child, &format!("{at}.{k}"))),
            None if s.get("additionalProperties") == Some(&Value::Bool(false)) => {
                errors.push(format!("{at}: unexpected {k}"))
            }
            None => {}
        }
    }
    errors
}

fn is_type(v: &Value, t: &str) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        _ => false,
    }
}
