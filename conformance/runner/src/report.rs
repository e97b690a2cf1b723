//! The results of a run: one [`Record`] per scenario and binding, the
//! machine-readable [`Report`] (`--json`, schema in `report.schema.json`)
//! and the table the runner prints.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::binding::Binding;
use crate::check::Level;

/// How one scenario ended on one binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The requirement held.
    Pass,
    /// The requirement did not hold (or the runner could not reach the
    /// agent, read its card, or speak its binding).
    Fail,
    /// The scenario did not apply; the detail says why.
    Skip,
}

/// One scenario on one binding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The scenario id.
    pub scenario: String,
    /// The requirement, in one line.
    pub title: String,
    /// The spec section.
    pub section: String,
    /// The ids of the matching requirements of the official A2A TCK
    /// ([`crate::tck`]), empty where it has none. Absent in reports of
    /// runners that predate it, hence the default.
    #[serde(default)]
    pub tck: Vec<String>,
    /// The requirement level.
    pub level: Level,
    /// The binding it ran on.
    pub binding: Binding,
    /// How it ended.
    pub outcome: Outcome,
    /// For a failure, what was expected and what came back; for a skip,
    /// why; for a pass, what the scenario found when it reports something
    /// (a card signature's algorithm and key id), else empty.
    pub detail: String,
    /// How long it took, in milliseconds.
    pub duration_ms: u64,
}

impl Record {
    /// A failure's detail as the runner writes it: `expected X; got Y`.
    pub fn failure_detail(expected: &str, got: &str) -> String {
        format!("expected {expected}; got {got}")
    }

    /// For a failure written by [`Record::failure_detail`], what was
    /// expected and what came back; `None` for other details.
    pub fn expected_got(&self) -> Option<(&str, &str)> {
        if self.outcome != Outcome::Fail {
            return None;
        }
        self.detail.strip_prefix("expected ")?.split_once("; got ")
    }
}

/// The totals of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Records that passed.
    pub passed: usize,
    /// Records that failed.
    pub failed: usize,
    /// Records that were skipped.
    pub skipped: usize,
    /// Failed records of `MUST` level.
    pub must_failed: usize,
}

/// A whole run, as `--json` writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The report format: [`Report::FORMAT`].
    pub format: String,
    /// What was tested: `embedded reference agent`, or the base URL.
    pub target: String,
    /// The agent's name from its card, when the card was read.
    pub agent: Option<String>,
    /// Every record, in the order of the scenario library.
    pub results: Vec<Record>,
    /// The totals.
    pub totals: Totals,
}

impl Report {
    /// The value of [`Report::format`] this crate writes.
    pub const FORMAT: &'static str = "a2a-conformance-report/1";

    /// A report of `results`, with totals computed.
    pub fn new(target: impl Into<String>, agent: Option<String>, results: Vec<Record>) -> Report {
        let totals = totals(&results);
        Report {
            format: Report::FORMAT.to_owned(),
            target: target.into(),
            agent,
            results,
            totals,
        }
    }

    /// True when a `MUST` scenario failed: the runner then exits non-zero.
    pub fn must_failed(&self) -> bool {
        self.totals.must_failed > 0
    }

    /// The closing line: `N passed, M failed, K skipped`.
    pub fn summary_line(&self) -> String {
        format!(
            "{} passed, {} failed, {} skipped",
            self.totals.passed, self.totals.failed, self.totals.skipped
        )
    }

    /// The table grouped by spec section, every failure with its detail,
    /// and the totals (without the closing line).
    pub fn table(&self) -> String {
        let mut sections: BTreeMap<SectionKey, Vec<&Record>> = BTreeMap::new();
        for r in &self.results {
            sections
                .entry(SectionKey::of(&r.section))
                .or_default()
                .push(r);
        }
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<9} {:<6} {:<40} {:<10} outcome",
            "section", "level", "scenario", "binding"
        );
        for (key, records) in &sections {
            let t = totals_of(records.iter().copied());
            let _ = writeln!(
                out,
                "-- {} ({} passed, {} failed, {} skipped)",
                key.text, t.passed, t.failed, t.skipped
            );
            for r in records {
                let outcome = match r.outcome {
                    Outcome::Pass if r.detail.is_empty() => "pass".to_owned(),
                    Outcome::Pass => format!("pass: {}", r.detail),
                    Outcome::Fail => "FAIL".to_owned(),
                    Outcome::Skip => format!("skip: {}", r.detail),
                };
                let _ = writeln!(
                    out,
                    "{:<9} {:<6} {:<40} {:<10} {}",
                    r.section,
                    r.level.to_string(),
                    r.scenario,
                    r.binding.as_str(),
                    outcome
                );
                if r.outcome == Outcome::Fail {
                    let _ = writeln!(out, "          {}", r.detail.replace('\n', "\n          "));
                }
            }
        }
        let _ = writeln!(
            out,
            "\n{} records: {} passed, {} failed ({} at MUST level), {} skipped",
            self.results.len(),
            self.totals.passed,
            self.totals.failed,
            self.totals.must_failed,
            self.totals.skipped
        );
        let causes = self.skip_causes();
        if !causes.is_empty() {
            let _ = writeln!(out, "skipped, by cause (what would enable them):");
            for (cause, n) in causes {
                let _ = writeln!(out, "{n:>6}  {cause}");
            }
        }
        out
    }

    /// The skipped records grouped by cause (a skip's detail up to its
    /// first `: ` or ` (`: "needs --contract", "agent declines ListTasks",
    /// "the card does not declare capabilities.streaming"…), most first.
    pub fn skip_causes(&self) -> Vec<(String, usize)> {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for r in self.results.iter().filter(|r| r.outcome == Outcome::Skip) {
            *counts.entry(skip_cause(&r.detail)).or_default() += 1;
        }
        let mut out: Vec<(String, usize)> =
            counts.into_iter().map(|(c, n)| (c.to_owned(), n)).collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out
    }
}

/// The cause of a skip: its detail up to the first `: ` or ` (`.
fn skip_cause(detail: &str) -> &str {
    let end = [detail.find(": "), detail.find(" (")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(detail.len());
    detail[..end].trim()
}

fn totals(records: &[Record]) -> Totals {
    totals_of(records.iter())
}

fn totals_of<'a>(records: impl Iterator<Item = &'a Record>) -> Totals {
    let mut t = Totals::default();
    for r in records {
        match r.outcome {
            Outcome::Pass => t.passed += 1,
            Outcome::Fail => {
                t.failed += 1;
                if r.level == Level::Must {
                    t.must_failed += 1;
                }
            }
            Outcome::Skip => t.skipped += 1,
        }
    }
    t
}

/// The order of two spec sections in reports: numerically (`3.2` before
/// `3.10`), sections that are not numbers (`runner`) first.
pub(crate) fn section_order(a: &str, b: &str) -> std::cmp::Ordering {
    SectionKey::of(a).cmp(&SectionKey::of(b))
}

/// A section number ordered numerically (`3.2` before `3.10`); sections
/// that are not numbers (`runner`) come first.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct SectionKey {
    numbers: Vec<u32>,
    text: String,
}

impl SectionKey {
    fn of(section: &str) -> SectionKey {
        SectionKey {
            numbers: section.split('.').map_while(|p| p.parse().ok()).collect(),
            text: section.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(section: &str, level: Level, outcome: Outcome) -> Record {
        Record {
            scenario: format!("s.{section}"),
            title: "t".into(),
            section: section.into(),
            tck: vec![],
            level,
            binding: Binding::JsonRpc,
            outcome,
            detail: "why".into(),
            duration_ms: 1,
        }
    }

    #[test]
    fn totals_and_table_order() {
        let report = Report::new(
            "x",
            None,
            vec![
                record("3.10", Level::Must, Outcome::Pass),
                record("3.2", Level::Should, Outcome::Fail),
                record("3.2", Level::Must, Outcome::Fail),
                record("8.6", Level::May, Outcome::Skip),
            ],
        );
        assert_eq!(report.summary_line(), "1 passed, 2 failed, 1 skipped");
        assert!(report.must_failed());
        let table = report.table();
        let at = |s: &str| table.find(s).unwrap();
        assert!(at("-- 3.2 ") < at("-- 3.10 "));
        assert!(at("-- 3.10 ") < at("-- 8.6 "));
    }

    #[test]
    fn skips_are_grouped_by_cause() {
        let skip = |detail: &str| Record {
            detail: detail.into(),
            ..record("3.1", Level::Must, Outcome::Skip)
        };
        let report = Report::new(
            "x",
            None,
            vec![
                skip("needs --contract: the scenario needs `input-required`"),
                skip("needs --contract: the scenario needs `long-running`"),
                skip("agent declines ListTasks (UnsupportedOperationError; spec 3.1.4)"),
                skip("the card does not declare capabilities.streaming"),
            ],
        );
        assert_eq!(
            report.skip_causes(),
            [
                ("needs --contract".to_owned(), 2),
                ("agent declines ListTasks".to_owned(), 1),
                (
                    "the card does not declare capabilities.streaming".to_owned(),
                    1
                ),
            ]
        );
        assert!(report.table().contains("     2  needs --contract\n"));
    }
}
