//! `--junit <file>`: the report as JUnit XML, the format CI systems
//! (GitLab, Jenkins, GitHub test reporters) read.
//!
//! One `<testsuite>` per spec section, one `<testcase>` per record, named
//! `scenario [binding]` with the section as its class name; a failure
//! carries `<failure>` (its message the first line of the detail, its
//! type the requirement level), a skip `<skipped>` with the reason. Each
//! test case lists its level and the matching TCK requirement ids as
//! `<property>` elements. Text is escaped for XML 1.0, and characters XML
//! cannot carry at all (control characters other than tab, newline and
//! carriage return) are written as `\u{..}`, so any agent answer quoted
//! in a detail keeps the file well-formed.

use std::fmt::Write as _;

use crate::report::{section_order, Outcome, Record, Report};

/// `text` escaped for XML element content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Attribute values normalise raw newlines and tabs to spaces;
            // character references keep them.
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if allowed(c) => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out
}

/// XML 1.0 `Char` (section 2.2).
fn allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

impl Report {
    /// The report as a JUnit XML document (`--junit`).
    pub fn to_junit(&self) -> String {
        let mut sections: Vec<(&str, Vec<&Record>)> = Vec::new();
        for r in &self.results {
            match sections.iter_mut().find(|(s, _)| *s == r.section) {
                Some((_, records)) => records.push(r),
                None => sections.push((&r.section, vec![r])),
            }
        }
        sections.sort_by(|a, b| section_order(a.0, b.0));
        let total_ms: u64 = self.results.iter().map(|r| r.duration_ms).sum();
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            out,
            "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{}\">",
            escape(&format!("a2a-conformance: {}", self.target)),
            self.results.len(),
            self.totals.failed,
            self.totals.skipped,
            seconds(total_ms)
        );
        for (section, records) in sections {
            let failures = records
                .iter()
                .filter(|r| r.outcome == Outcome::Fail)
                .count();
            let skipped = records
                .iter()
                .filter(|r| r.outcome == Outcome::Skip)
                .count();
            let ms: u64 = records.iter().map(|r| r.duration_ms).sum();
            let _ = writeln!(
                out,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{}\">",
                escape(section),
                records.len(),
                seconds(ms)
            );
            for r in records {
                let _ = writeln!(
                    out,
                    "    <testcase classname=\"{}\" name=\"{}\" time=\"{}\">",
                    escape(&format!("a2a-conformance.{}", r.section)),
                    escape(&format!("{} [{}]", r.scenario, r.binding)),
                    seconds(r.duration_ms)
                );
                let _ = writeln!(
                    out,
                    "      <properties>\n        <property name=\"level\" value=\"{}\"/>\n        \
                     <property name=\"title\" value=\"{}\"/>",
                    r.level,
                    escape(&r.title)
                );
                for id in &r.tck {
                    let _ = writeln!(
                        out,
                        "        <property name=\"tck\" value=\"{}\"/>",
                        escape(id)
                    );
                }
                out.push_str("      </properties>\n");
                match r.outcome {
                    Outcome::Pass => {}
                    Outcome::Fail => {
                        let first = r.detail.lines().next().unwrap_or_default();
                        let _ = writeln!(
                            out,
                            "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                            escape(first),
                            r.level,
                            escape(&r.detail)
                        );
                    }
                    Outcome::Skip => {
                        let _ = writeln!(out, "      <skipped message=\"{}\"/>", escape(&r.detail));
                    }
                }
                out.push_str("    </testcase>\n");
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_characters_xml_cannot_carry() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(
            escape("x\u{0}y\u{1b}z\u{fffe}"),
            "x\\u{0}y\\u{1b}z\\u{fffe}"
        );
        assert_eq!(escape("l1\nl2\tt"), "l1&#10;l2&#9;t");
        assert_eq!(escape("é😀"), "é😀");
        assert_eq!(seconds(1234), "1.234");
        assert_eq!(seconds(5), "0.005");
    }
}
