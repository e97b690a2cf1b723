//! `--html <file>`: the report as one self-contained page (inline CSS and
//! script, no network resource), for people.
//!
//! The page shows the totals, a table of outcomes by requirement level,
//! an index of the spec sections (each linked, marked by its worst
//! outcome), then one table per spec section with every record: level, scenario,
//! the matching TCK requirement ids, binding, outcome and detail (a
//! failure's expected and actual side by side). Two rows of buttons filter
//! the records by status and by binding; the script only hides rows, so
//! without it the page shows everything. Element ids and `data-*`
//! attributes (`#count-passed`, `tr.result[data-status]`,
//! `button[data-filter-status]`...) are stable: the Chromium test
//! (`tests/html.rs`, `tests/html/check.mjs`) drives the page by them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::binding::Binding;
use crate::check::Level;
use crate::report::{section_order, Outcome, Record, Report};

/// Text made safe for HTML element content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = r#"
:root { --pass: #1a7f37; --fail: #cf222e; --skip: #9a6700; --line: #d0d7de; --dim: #57606a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
header { background: #fff; border-bottom: 1px solid var(--line); padding: 16px 24px; }
h1 { font-size: 20px; margin: 0 0 4px; }
.target { color: var(--dim); margin: 0 0 12px; }
.counts { display: flex; gap: 12px; flex-wrap: wrap; }
.count { border: 1px solid var(--line); border-radius: 6px; padding: 6px 14px; background: #fff; min-width: 96px; }
.count b { display: block; font-size: 22px; }
.count.pass b { color: var(--pass); } .count.fail b { color: var(--fail); } .count.skip b { color: var(--skip); }
main { padding: 16px 24px 48px; }
.filters { display: flex; gap: 24px; flex-wrap: wrap; margin: 0 0 16px; align-items: center; }
.filters span { color: var(--dim); margin-right: 6px; }
button { font: inherit; border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 3px 10px; cursor: pointer; }
button[aria-pressed="true"] { background: #0969da; border-color: #0969da; color: #fff; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: 4px 8px; border-top: 1px solid var(--line); vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
section.spec { margin: 0 0 18px; }
section.spec h2 { font-size: 15px; margin: 12px 0 6px; }
section.spec h2 small { color: var(--dim); font-weight: 400; margin-left: 8px; }
.outcome { font-weight: 600; text-transform: uppercase; font-size: 12px; }
tr[data-status="pass"] .outcome { color: var(--pass); }
tr[data-status="fail"] .outcome { color: var(--fail); }
tr[data-status="skip"] .outcome { color: var(--skip); }
tr[data-status="fail"] { background: #fff5f5; }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.detail { white-space: pre-wrap; word-break: break-word; color: #1f2328; }
.expected, .actual { display: block; white-space: pre-wrap; word-break: break-word; }
.expected::before { content: "expected: "; color: var(--dim); }
.actual::before { content: "actual: "; color: var(--dim); }
.tck { color: var(--dim); }
.tck span { white-space: nowrap; display: inline-block; margin-right: 6px; }
#shown { color: var(--dim); }
.levels { width: auto; margin: 0 0 16px; }
.index { display: flex; flex-wrap: wrap; gap: 4px; margin: 0 0 16px; align-items: center; }
.index span { color: var(--dim); margin-right: 6px; }
.chip { font-size: 12px; padding: 1px 8px; border-radius: 10px; text-decoration: none; border: 1px solid var(--line); background: #fff; }
.chip.pass { color: var(--pass); } .chip.fail { color: #fff; background: var(--fail); border-color: var(--fail); } .chip.skip { color: var(--skip); }
"#;

const SCRIPT: &str = r#"
(function () {
  var state = { status: "all", binding: "all" };
  function apply() {
    var shown = 0;
    document.querySelectorAll("tr.result").forEach(function (row) {
      var ok = (state.status === "all" || row.dataset.status === state.status) &&
               (state.binding === "all" || row.dataset.binding === state.binding);
      row.hidden = !ok;
      if (ok) shown++;
    });
    document.querySelectorAll("section.spec").forEach(function (s) {
      s.hidden = s.querySelector("tr.result:not([hidden])") === null;
    });
    document.getElementById("shown").textContent = shown + " shown";
  }
  function group(attr, key) {
    document.querySelectorAll("button[" + attr + "]").forEach(function (b) {
      b.addEventListener("click", function () {
        state[key] = b.getAttribute(attr);
        document.querySelectorAll("button[" + attr + "]").forEach(function (o) {
          o.setAttribute("aria-pressed", o === b ? "true" : "false");
        });
        apply();
      });
    });
  }
  group("data-filter-status", "status");
  group("data-filter-binding", "binding");
  apply();
})();
"#;

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Pass => "pass",
        Outcome::Fail => "fail",
        Outcome::Skip => "skip",
    }
}

impl Report {
    /// The report as one self-contained HTML page (`--html`).
    pub fn to_html(&self) -> String {
        let mut out = String::new();
        let title = format!(
            "A2A conformance: {}",
            self.agent.as_deref().unwrap_or(&self.target)
        );
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n\
             <p class=\"target\">target: {} &middot; format {}</p>\n<div class=\"counts\">\n",
            escape(&title),
            escape(&title),
            escape(&self.target),
            escape(&self.format)
        );
        let t = &self.totals;
        for (class, id, label, n) in [
            ("total", "count-total", "records", self.results.len()),
            ("pass", "count-passed", "passed", t.passed),
            ("fail", "count-failed", "failed", t.failed),
            ("fail", "count-must-failed", "MUST failed", t.must_failed),
            ("skip", "count-skipped", "skipped", t.skipped),
        ] {
            let _ = writeln!(
                out,
                "<div class=\"count {class}\"><b id=\"{id}\">{n}</b>{label}</div>"
            );
        }
        out.push_str("</div>\n</header>\n<main>\n");
        self.level_table(&mut out);
        self.filters(&mut out);
        self.sections(&mut out);
        let _ = write!(
            out,
            "</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
        );
        out
    }

    fn level_table(&self, out: &mut String) {
        let mut by_level: BTreeMap<Level, [usize; 3]> = BTreeMap::new();
        for r in &self.results {
            by_level.entry(r.level).or_default()[r.outcome as usize] += 1;
        }
        out.push_str(
            "<table class=\"levels\" id=\"by-level\">\n<tr><th>level</th><th>passed</th>\
             <th>failed</th><th>skipped</th></tr>\n",
        );
        for (level, c) in &by_level {
            let _ = writeln!(
                out,
                "<tr data-level=\"{level}\"><td>{level}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                c[0], c[1], c[2]
            );
        }
        out.push_str("</table>\n");
    }

    fn filters(&self, out: &mut String) {
        let mut bindings: Vec<Binding> = self.results.iter().map(|r| r.binding).collect();
        bindings.sort();
        bindings.dedup();
        out.push_str("<div class=\"filters\">\n<div><span>status</span>");
        for s in ["all", "pass", "fail", "skip"] {
            let _ = write!(
                out,
                "<button type=\"button\" data-filter-status=\"{s}\" aria-pressed=\"{}\">{s}</button> ",
                s == "all"
            );
        }
        out.push_str("</div>\n<div><span>binding</span>");
        let _ = write!(
            out,
            "<button type=\"button\" data-filter-binding=\"all\" aria-pressed=\"true\">all</button> "
        );
        for b in bindings {
            let _ = write!(
                out,
                "<button type=\"button\" data-filter-binding=\"{0}\" aria-pressed=\"false\">{0}</button> ",
                escape(b.as_str())
            );
        }
        let _ = writeln!(
            out,
            "</div>\n<div id=\"shown\">{} shown</div>\n</div>",
            self.results.len()
        );
    }

    fn sections(&self, out: &mut String) {
        let mut sections: Vec<(&str, Vec<&Record>)> = Vec::new();
        for r in &self.results {
            match sections.iter_mut().find(|(s, _)| *s == r.section) {
                Some((_, records)) => records.push(r),
                None => sections.push((&r.section, vec![r])),
            }
        }
        sections.sort_by(|a, b| section_order(a.0, b.0));
        let counts = |records: &[&Record]| {
            let mut c = [0usize; 3];
            for r in records {
                c[r.outcome as usize] += 1;
            }
            c
        };
        // An index of the sections, each marked by its worst outcome.
        out.push_str("<nav class=\"index\" id=\"sections\"><span>sections</span>");
        for (section, records) in &sections {
            let c = counts(records);
            let worst = if c[1] > 0 {
                "fail"
            } else if c[0] > 0 {
                "pass"
            } else {
                "skip"
            };
            let _ = write!(
                out,
                "<a class=\"chip {worst}\" href=\"#s-{0}\" title=\"{1} passed, {2} failed, {3} skipped\">{0}</a>",
                escape(section),
                c[0],
                c[1],
                c[2]
            );
        }
        out.push_str("</nav>\n");
        for (section, records) in sections {
            let c = counts(&records);
            let _ = writeln!(
                out,
                "<section class=\"spec\" id=\"s-{0}\" data-section=\"{0}\">\n<h2>{0}<small>{1} passed, {2} failed, \
                 {3} skipped</small></h2>\n<table>\n<tr><th>level</th><th>scenario</th><th>TCK</th>\
                 <th>binding</th><th>outcome</th><th>detail</th></tr>",
                escape(section),
                c[0],
                c[1],
                c[2]
            );
            for r in records {
                let detail = match r.expected_got() {
                    Some((expected, got)) => format!(
                        "<span class=\"expected\">{}</span><span class=\"actual\">{}</span>",
                        escape(expected),
                        escape(got)
                    ),
                    None => format!("<span class=\"detail\">{}</span>", escape(&r.detail)),
                };
                let _ = writeln!(
                    out,
                    "<tr class=\"result\" data-status=\"{status}\" data-binding=\"{binding}\" \
                     data-level=\"{level}\" data-scenario=\"{id}\"><td>{level}</td>\
                     <td><code>{id}</code><br>{title}</td><td class=\"tck\">{tck}</td>\
                     <td>{binding}</td><td class=\"outcome\">{status}</td><td>{detail}</td></tr>",
                    status = outcome_name(r.outcome),
                    binding = escape(r.binding.as_str()),
                    level = r.level,
                    id = escape(&r.scenario),
                    title = escape(&r.title),
                    tck = r
                        .tck
                        .iter()
                        .map(|id| format!("<span>{}</span>", escape(id)))
                        .collect::<String>(),
                );
            }
            out.push_str("</table>\n</section>\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(section: &str, binding: Binding, outcome: Outcome, detail: &str) -> Record {
        Record {
            scenario: format!("s.{section}"),
            title: "a <title> & more".into(),
            section: section.into(),
            tck: vec!["CORE-SEND-001".into()],
            level: Level::Must,
            binding,
            outcome,
            detail: detail.into(),
            duration_ms: 1,
        }
    }

    #[test]
    fn page_is_self_contained_escaped_and_ordered() {
        let report = Report::new(
            "http://h/<x>",
            Some("Agent \"A\"".into()),
            vec![
                record("3.10", Binding::JsonRpc, Outcome::Pass, ""),
                record(
                    "3.2",
                    Binding::HttpJson,
                    Outcome::Fail,
                    &Record::failure_detail("<b>200</b>", "404 & 'x'"),
                ),
                record("3.2", Binding::JsonRpc, Outcome::Skip, "no <streaming>"),
            ],
        );
        let page = report.to_html();
        assert!(page.starts_with("<!DOCTYPE html>"));
        for forbidden in ["http://", "https://", "<link", "src="] {
            // The target appears escaped in text, never as a resource.
            let hits: Vec<_> = page.match_indices(forbidden).collect();
            assert!(
                forbidden == "http://" && hits.len() == 1 || hits.is_empty(),
                "{forbidden}: {hits:?}"
            );
        }
        assert!(page.contains("http://h/&lt;x&gt;"));
        assert!(page.contains("Agent &quot;A&quot;"));
        assert!(page.contains("<span class=\"expected\">&lt;b&gt;200&lt;/b&gt;</span>"));
        assert!(page.contains("<span class=\"actual\">404 &amp; &#39;x&#39;</span>"));
        assert!(page.contains("no &lt;streaming&gt;"));
        assert!(!page.contains("<title> &"));
        assert!(page.contains("<b id=\"count-failed\">1</b>"));
        assert!(page.contains("<b id=\"count-passed\">1</b>"));
        assert!(page.contains("data-filter-binding=\"HTTP+JSON\""));
        assert!(page.contains("CORE-SEND-001"));
        let at = |s: &str| page.find(s).unwrap();
        assert!(at("data-section=\"3.2\"") < at("data-section=\"3.10\""));
        assert_eq!(page.matches("<tr class=\"result\"").count(), 3);
        // The index links each section, marked by its worst outcome.
        assert!(page.contains("<a class=\"chip fail\" href=\"#s-3.2\""));
        assert!(page.contains("<a class=\"chip pass\" href=\"#s-3.10\""));
        assert!(page.contains("id=\"s-3.2\""));
    }
}
