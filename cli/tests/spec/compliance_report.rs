//! The tool's compliance report (`cli/compliance-report.yaml`, from the
//! a2a-cli specification's template): every requirement of the registry
//! is there with a status from the closed vocabulary; each `pass` names
//! the test that shows it, which exists under that name; the summary is
//! recomputed from the statuses under the template's fail-closed rules
//! and must match; the tier claimed must be satisfied.

use std::collections::BTreeMap;
use std::path::Path;

use serde_yaml::Value;

/// The registry of `COMPLIANCE.md` (SPEC.md v0.2): every id and its tier.
const REGISTRY: &[(&str, u8)] = &[
    ("A2ACLI_CARD_GET_001", 1),
    ("A2ACLI_SEND_001", 1),
    ("A2ACLI_SEND_002", 1),
    ("A2ACLI_SEND_003", 1),
    ("A2ACLI_SEND_004", 1),
    ("A2ACLI_SEND_005", 1),
    ("A2ACLI_SEND_006", 1),
    ("A2ACLI_TASK_GET_001", 1),
    ("A2ACLI_TASK_CANCEL_001", 1),
    ("A2ACLI_INTERACT_001", 1),
    ("A2ACLI_INTERACT_002", 1),
    ("A2ACLI_INTERACT_003", 1),
    ("A2ACLI_INTERACT_004", 1),
    ("A2ACLI_INTERACT_005", 1),
    ("A2ACLI_TASK_POLL_001", 1),
    ("A2ACLI_TASK_POLL_002", 1),
    ("A2ACLI_TASK_POLL_003", 1),
    ("A2ACLI_TASK_POLL_004", 1),
    ("A2ACLI_OUT_001", 1),
    ("A2ACLI_OUT_002", 1),
    ("A2ACLI_OUT_003", 1),
    ("A2ACLI_OUT_004", 1),
    ("A2ACLI_OUT_005", 1),
    ("A2ACLI_OUT_006", 1),
    ("A2ACLI_EXIT_001", 1),
    ("A2ACLI_EXIT_002", 1),
    ("A2ACLI_AUTH_001", 1),
    ("A2ACLI_AUTH_002", 1),
    ("A2ACLI_AUTH_003", 1),
    ("A2ACLI_AUTH_004", 1),
    ("A2ACLI_TX_001", 1),
    ("A2ACLI_TX_002", 1),
    ("A2ACLI_TX_003", 1),
    ("A2ACLI_VER_001", 1),
    ("A2ACLI_DEFAULT_001", 1),
    ("A2ACLI_CONFIG_001", 1),
    ("A2ACLI_CLI_001", 1),
    ("A2ACLI_SKILL_001", 1),
    ("A2ACLI_SKILL_002", 1),
    ("A2ACLI_CARD_GET_002", 2),
    ("A2ACLI_TASK_LIST_001", 2),
    ("A2ACLI_TASK_SUBSCRIBE_001", 2),
    ("A2ACLI_TASK_SUBSCRIBE_002", 2),
    ("A2ACLI_AUTH_005", 2),
    ("A2ACLI_AUTH_006", 2),
    ("A2ACLI_AUTH_007", 2),
    ("A2ACLI_TX_004", 2),
    ("A2ACLI_VER_003", 2),
    ("A2ACLI_CONFIG_002", 2),
    ("A2ACLI_DOWNLOAD_001", 2),
    ("A2ACLI_OUT_007", 2),
    ("A2ACLI_CONFORM_001", 2),
    ("A2ACLI_CLI_002", 2),
    ("A2ACLI_PUSH_001", 2),
    ("A2ACLI_CARD_GET_003", 3),
    ("A2ACLI_CARD_GET_004", 3),
    ("A2ACLI_CARD_GET_005", 3),
    ("A2ACLI_PUSH_002", 3),
    ("A2ACLI_CHAT_001", 3),
    ("A2ACLI_TX_005", 3),
    ("A2ACLI_AUTH_008", 3),
    ("A2ACLI_AUTH_009", 3),
    ("A2ACLI_AUTH_010", 3),
    ("A2ACLI_AUTH_011", 3),
    ("A2ACLI_DEMO_SERVER_001", 3),
    ("A2ACLI_VER_002", 3),
];

/// Requirements the specification allows to be `na`, and why.
const MAY_BE_NA: &[&str] = &[
    "A2ACLI_SKILL_001",
    "A2ACLI_SKILL_002",
    "A2ACLI_TX_003",
    "A2ACLI_CONFIG_001",
];

const STATUSES: &[&str] = &["pass", "partial", "fail", "not_measured", "na", "withdrawn"];

fn report() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("compliance-report.yaml");
    serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn s<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

/// One tier's rollup.
#[derive(Debug, Default, PartialEq, Eq)]
struct Rollup {
    total: u64,
    pass: u64,
    partial: u64,
    fail: u64,
    not_measured: u64,
    na: u64,
    satisfied: bool,
}

/// The summary the statuses give, fail-closed (template, Appendix A.3):
/// a missing id, an unknown status, anything but `pass` or `na` leaves
/// the tier unsatisfied, and so every tier above it; `DEFAULT_001` passes
/// only with its whole breakdown.
fn recompute(doc: &Value) -> BTreeMap<u8, Rollup> {
    let reqs = doc.get("requirements").and_then(Value::as_mapping);
    let breakdown_ok = doc
        .get("default_001_breakdown")
        .and_then(Value::as_mapping)
        .is_some_and(|m| {
            m.len() == 6
                && m.values().all(|row| {
                    row.get("shipped").and_then(Value::as_str) == Some("yes")
                        && row.get("overridable").and_then(Value::as_str) == Some("yes")
                })
        });
    let mut out: BTreeMap<u8, Rollup> = BTreeMap::new();
    for tier in 1..=3u8 {
        let mut r = Rollup {
            satisfied: true,
            ..Rollup::default()
        };
        for (id, t) in REGISTRY.iter().filter(|(_, t)| *t == tier) {
            let _ = t;
            r.total += 1;
            let status = reqs
                .and_then(|m| m.get(Value::String((*id).to_owned())))
                .and_then(|v| s(v, "status"));
            match status {
                Some("pass") if *id == "A2ACLI_DEFAULT_001" && !breakdown_ok => {
                    r.pass += 1;
                    r.satisfied = false;
                }
                Some("pass") => r.pass += 1,
                Some("na") if MAY_BE_NA.contains(id) => r.na += 1,
                Some("na") => {
                    r.na += 1;
                    r.satisfied = false;
                }
                Some("partial") => {
                    r.partial += 1;
                    r.satisfied = false;
                }
                Some("fail") => {
                    r.fail += 1;
                    r.satisfied = false;
                }
                Some("not_measured") | None => {
                    r.not_measured += 1;
                    r.satisfied = false;
                }
                Some(_) => {
                    r.not_measured += 1;
                    r.satisfied = false;
                }
            }
        }
        if tier > 1 && !out[&(tier - 1)].satisfied {
            r.satisfied = false;
        }
        out.insert(tier, r);
    }
    out
}

fn summary(doc: &Value) -> BTreeMap<u8, Rollup> {
    let mut out = BTreeMap::new();
    for tier in 1..=3u8 {
        let row = &doc["summary"][format!("tier_{tier}").as_str()];
        let n = |k: &str| row.get(k).and_then(Value::as_u64).unwrap_or(u64::MAX);
        out.insert(
            tier,
            Rollup {
                total: n("total"),
                pass: n("pass"),
                partial: n("partial"),
                fail: n("fail"),
                not_measured: n("not_measured"),
                na: n("na"),
                satisfied: row
                    .get("satisfied")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            },
        );
    }
    out
}

/// The report's summary is what its statuses give, and the tier claimed
/// is satisfied.
#[test]
fn compliance_report_summary_matches_the_statuses() {
    let doc = report();
    let computed = recompute(&doc);
    assert_eq!(
        summary(&doc),
        computed,
        "recompute the summary from the statuses"
    );
    let claimed = doc["report"]["tier_claimed"].as_u64().unwrap();
    let highest = (1..=3u8)
        .take_while(|t| computed[t].satisfied)
        .last()
        .map_or(0, u64::from);
    assert!(
        claimed <= highest,
        "tier {claimed} claimed, {highest} satisfied"
    );
    assert_eq!(s(&doc["report"], "spec_version"), Some("0.2"));
    assert_eq!(s(&doc["report"], "spec_revision"), Some("2026-08-17"));
    assert_eq!(
        s(&doc["report"], "tool_version"),
        Some(env!("CARGO_PKG_VERSION")),
        "the report is for this version"
    );
}

/// Every id is present, with its tier and area; statuses are from the
/// closed vocabulary; anything but `pass` says why; `na` only where the
/// spec allows it; each `pass` names an existing test named after its id.
#[test]
fn compliance_report_passes_name_existing_tests() {
    let doc = report();
    let reqs = doc["requirements"].as_mapping().unwrap();
    assert_eq!(reqs.len(), REGISTRY.len(), "exactly the registry's ids");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    for (id, tier) in REGISTRY {
        let r = reqs
            .get(Value::String((*id).to_owned()))
            .unwrap_or_else(|| panic!("{id} missing"));
        assert_eq!(r["tier"].as_u64(), Some(u64::from(*tier)), "{id}");
        let area = id.trim_start_matches("A2ACLI_").rsplit_once('_').unwrap().0;
        assert_eq!(s(r, "area"), Some(area), "{id}");
        let status = s(r, "status").unwrap_or_else(|| panic!("{id}: no status"));
        assert!(STATUSES.contains(&status), "{id}: {status}");
        if status != "pass" {
            let note = s(r, "note").unwrap_or_default();
            assert!(
                !note.is_empty() && !note.contains('<'),
                "{id} is {status} and needs a note"
            );
        }
        if status == "na" {
            assert!(
                MAY_BE_NA.contains(id),
                "{id}: the spec allows na only for requirements that do not apply to the tool"
            );
        }
        if status == "pass" {
            let test = r["evidence"]["test"]
                .as_str()
                .unwrap_or_else(|| panic!("{id} passes without naming a test"));
            let (file, name) = test
                .split_once("::")
                .unwrap_or_else(|| panic!("{id}: {test} is not path::test"));
            assert_eq!(
                name,
                id.to_ascii_lowercase(),
                "{id}: the test is named after the id"
            );
            let source = std::fs::read_to_string(root.join(file))
                .unwrap_or_else(|e| panic!("{id}: {file}: {e}"));
            assert!(
                source.contains(&format!("fn {name}()")),
                "{id}: {file} has no fn {name}()"
            );
        }
    }
    let codes = doc["error_codes"].as_mapping().unwrap();
    for code in [
        "USAGE",
        "CARD_NOT_FOUND",
        "CARD_INVALID",
        "UNREACHABLE",
        "CREDENTIALS_MISSING",
        "AUTH_FAILED",
        "TIMEOUT",
        "INTERNAL",
    ] {
        assert!(
            codes.contains_key(Value::String(format!("A2ACLI_ERR_{code}"))),
            "{code}"
        );
    }
}

/// The recomputation fails closed: a missing id, an unknown status, an
/// `na` the spec does not allow, or a `DEFAULT_001` pass without its
/// breakdown all leave the tier (and the ones above) unsatisfied.
#[test]
fn compliance_report_is_fail_closed() {
    let doc = report();
    let mut missing = doc.clone();
    missing["requirements"]
        .as_mapping_mut()
        .unwrap()
        .remove(Value::String("A2ACLI_SEND_001".to_owned()));
    let r = recompute(&missing);
    assert!(!r[&1].satisfied && !r[&2].satisfied && !r[&3].satisfied);
    assert_eq!(r[&1].not_measured, recompute(&doc)[&1].not_measured + 1);
    let mut odd = doc.clone();
    odd["requirements"]["A2ACLI_PUSH_001"]["status"] = Value::String("passing".to_owned());
    assert!(!recompute(&odd)[&2].satisfied);
    let mut na = doc.clone();
    na["requirements"]["A2ACLI_SEND_002"]["status"] = Value::String("na".to_owned());
    assert!(!recompute(&na)[&1].satisfied);
    let mut breakdown = doc.clone();
    breakdown["default_001_breakdown"]["detail_level_concise"]["overridable"] =
        Value::String("no".to_owned());
    assert!(!recompute(&breakdown)[&1].satisfied);
    let empty: Value = serde_yaml::from_str("requirements: {}").unwrap();
    assert!(recompute(&empty).values().all(|r| !r.satisfied));
}
