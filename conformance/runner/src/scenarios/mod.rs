//! The scenario library, one module per area of the spec. [`all`] lists
//! every scenario in report order; what the scenarios share is `calls`
//! (re-exported here).

use crate::binding::Kind;
use crate::scenario::Scenario;

mod calls;
mod card;
#[cfg(feature = "draft-1-1")]
pub(crate) mod draft_1_1;
mod errors;
mod grpc;
mod jsonrpc;
mod messages;
mod model;
mod push;
mod rest;
mod security;
mod streaming;
mod tasks;
pub(crate) mod v0_3;

pub(crate) use calls::{
    cancel_req, check_stream_items, expect_wire_error, get_req, list_req, needs_push,
    needs_streaming, pct, plain_send_params, send_req, str_at, stream_req, subscribe_req,
    wire_declined, wire_error, wire_result, wire_task,
};

/// Every scenario, in report order.
pub fn all() -> Vec<Scenario> {
    let mut out = Vec::new();
    out.extend(messages::list());
    out.extend(tasks::list());
    out.extend(streaming::list());
    out.extend(push::list());
    out.extend(errors::list());
    out.extend(model::list());
    out.extend(card::list());
    out.extend(jsonrpc::list());
    out.extend(rest::list());
    out.extend(grpc::list());
    out.extend(security::list());
    out
}

/// The scenarios of a run at `version`: [`all`], and at 0.3 the 0.3 wire
/// scenarios too (`v0_3`; which of the others skip at 0.3 is
/// `v0_3::skip_reason`'s to say). With the `draft-1-1` feature, a run at
/// 1.1 adds the draft's scenarios (`draft.*`).
pub fn for_version(version: a2a_transport::ProtocolVersion) -> Vec<Scenario> {
    let mut out = all();
    if version == a2a_transport::ProtocolVersion::V0_3 {
        out.extend(v0_3::list());
    }
    #[cfg(feature = "draft-1-1")]
    if version == a2a_transport::ProtocolVersion::V1_1 {
        out.extend(draft_1_1::list());
    }
    out
}

/// The library as Markdown: a table of every scenario (section, the
/// matching TCK requirement ids, id, level, where it runs, requirement), then the count per section and
/// level. The crate README shows it.
pub fn markdown_table(scenarios: &[Scenario]) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;

    let key = |s: &str| -> Vec<u32> { s.split('.').filter_map(|p| p.parse().ok()).collect() };
    let mut sorted: Vec<&Scenario> = scenarios.iter().collect();
    sorted.sort_by_key(|s| key(s.section));
    let mut out = String::from(
        "| section | TCK | scenario | level | runs on | requirement |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    let mut counts: BTreeMap<Vec<u32>, (String, [usize; 3])> = BTreeMap::new();
    for s in &sorted {
        let on = match s.kind {
            Kind::Behaviour => "in-process, JSONRPC, HTTP+JSON, GRPC, json-lines".to_owned(),
            Kind::Wire(b) => b.iter().map(|b| b.as_str()).collect::<Vec<_>>().join(", "),
            Kind::Card => "HTTP (card)".to_owned(),
        };
        let tck = s.tck.join(", ");
        let _ = writeln!(
            out,
            "| {} | {} | `{}` | {} | {} | {} |",
            s.section, tck, s.id, s.level, on, s.title
        );
        let top = s
            .section
            .split('.')
            .take(if s.section.starts_with("13") { 2 } else { 1 })
            .collect::<Vec<_>>()
            .join(".");
        let entry = counts.entry(key(&top)).or_insert((top, [0; 3]));
        entry.1[s.level as usize] += 1;
    }
    out.push_str("\n| section | MUST | SHOULD | MAY | total |\n| --- | --- | --- | --- | --- |\n");
    let mut total = [0usize; 3];
    for (name, c) in counts.values() {
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {} |",
            c[0],
            c[1],
            c[2],
            c.iter().sum::<usize>()
        );
        for i in 0..3 {
            total[i] += c[i];
        }
    }
    let _ = writeln!(
        out,
        "| all | {} | {} | {} | {} |",
        total[0],
        total[1],
        total[2],
        total.iter().sum::<usize>()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_sections_covered() {
        let all = all();
        let mut ids: Vec<&str> = all.iter().map(|s| s.id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before, "duplicate scenario ids");
        for section in [
            "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "4", "5", "8", "9", "11", "13.1", "13.2",
            "13.3",
        ] {
            assert!(
                all.iter()
                    .any(|s| s.section == section || s.section.starts_with(&format!("{section}."))),
                "no scenario for section {section}"
            );
        }
        let table = markdown_table(&all);
        assert!(table.contains("| all | "));
    }
}
