//! The requirement ids of the official A2A TCK (`a2aproject/a2a-tck`), so
//! that a scenario can name the TCK requirement it matches
//! ([`Scenario::tck`](crate::Scenario::tck)) and users can map our results
//! onto the TCK's.
//!
//! The table copies each requirement's id, spec section and level from the
//! TCK's `tck/requirements/*.py` (`core_operations.py`, `streaming.py`,
//! `agent_card.py`, `binding_http_json.py`, `versioning.py`). A scenario
//! names an id only when it checks the same requirement; scenarios with no
//! TCK counterpart (JSON-RPC binding details, push notifications, 13.x
//! security) name none, and so do TCK requirements that constrain a client
//! (`VER-CLIENT-001`).

use crate::check::Level;

/// Every TCK requirement id a scenario may name: `(id, spec section,
/// level)`, as the TCK defines them.
pub const REQUIREMENTS: &[(&str, &str, Level)] = &[
    // tck/requirements/core_operations.py
    ("CORE-SEND-001", "3.1.1", Level::Must),
    ("CORE-SEND-002", "3.1.1", Level::Must),
    ("CORE-SEND-003", "3.1.1", Level::Must),
    ("CORE-STREAM-001", "3.1.2", Level::Must),
    ("CORE-STREAM-002", "3.1.2", Level::Must),
    ("CORE-STREAM-003", "3.1.2", Level::Must),
    ("CORE-GET-001", "3.1.3", Level::Must),
    ("CORE-GET-002", "3.1.3", Level::Must),
    ("CORE-LIST-001", "3.1.4", Level::Must),
    ("CORE-LIST-002", "3.1.4", Level::Must),
    ("CORE-LIST-003", "3.1.4", Level::Must),
    ("CORE-LIST-004", "3.1.4", Level::Must),
    ("CORE-LIST-005", "3.1.4", Level::Must),
    ("CORE-CANCEL-001", "3.1.5", Level::Must),
    ("CORE-CANCEL-002", "3.1.5", Level::Must),
    ("CORE-CANCEL-003", "3.1.5", Level::Must),
    ("CORE-EXECUTION-MODE-001", "3.2.2", Level::Must),
    ("CORE-EXECUTION-MODE-002", "3.2.2", Level::Must),
    ("CORE-ERR-001", "3.3.2", Level::Must),
    ("CORE-ERR-002", "3.3.2", Level::Must),
    ("CORE-CAP-001", "3.3.4", Level::Must),
    ("CORE-CAP-002", "3.3.4", Level::Must),
    ("CORE-CAP-003", "3.3.4", Level::Must),
    ("CORE-CAP-004", "3.3.4", Level::Must),
    ("CORE-MULTI-001", "3.4.1", Level::May),
    ("CORE-MULTI-001a", "3.4.1", Level::Must),
    ("CORE-MULTI-002", "3.4.1", Level::May),
    ("CORE-MULTI-002a", "3.4.1", Level::Must),
    ("CORE-MULTI-003", "3.4.2", Level::Must),
    ("CORE-MULTI-004", "3.4.2", Level::Must),
    ("CORE-MULTI-005", "3.4.3", Level::Must),
    ("CORE-MULTI-006", "3.4.3", Level::Must),
    ("CORE-HIST-001", "3.2.4", Level::Should),
    ("CORE-HIST-002", "3.2.4", Level::Must),
    ("CORE-HIST-003", "3.2.4", Level::Should),
    ("CORE-HIST-004", "3.2.4", Level::May),
    ("CORE-HIST-005", "3.2.4", Level::Should),
    ("CORE-HIST-006", "3.2.4", Level::Should),
    // tck/requirements/streaming.py
    ("STREAM-ORDER-001", "3.5.2", Level::Must),
    ("STREAM-ORDER-002", "3.5.2", Level::Must),
    ("STREAM-ORDER-003", "3.5.2", Level::Must),
    ("STREAM-ORDER-004", "3.5.2", Level::Must),
    ("STREAM-SUB-001", "3.1.6", Level::Must),
    ("STREAM-SUB-002", "3.1.6", Level::Must),
    ("STREAM-SUB-003", "3.1.6", Level::Must),
    ("STREAM-SUB-004", "3.1.6", Level::Must),
    // tck/requirements/agent_card.py
    ("CARD-DISC-001", "8.1", Level::Must),
    ("CARD-PROTO-001", "8.3", Level::Must),
    ("CARD-PROTO-002", "8.3.1", Level::Must),
    ("CARD-STRUCT-001", "4.4.1", Level::Must),
    ("CARD-EXT-001", "3.1.11", Level::Must),
    ("CARD-EXT-002", "3.1.11", Level::Must),
    ("CARD-SIGN-001", "8.4.1", Level::Must),
    ("CARD-SIGN-002", "8.4.1", Level::Must),
    ("CARD-SIGN-003", "8.4.2", Level::Must),
    ("CARD-SIGN-004", "8.4.3", Level::Must),
    ("CARD-CACHE-001", "8.6.1", Level::Should),
    ("CARD-CACHE-002", "8.6.1", Level::Should),
    ("CARD-CACHE-003", "8.6.1", Level::May),
    // tck/requirements/binding_http_json.py
    ("HTTP_JSON-URL-001", "11.3", Level::Must),
    ("HTTP_JSON-URL-002", "11.3", Level::Must),
    ("HTTP_JSON-SVC-001", "11.1", Level::Should),
    ("HTTP_JSON-SVC-002", "11.2", Level::Must),
    ("HTTP_JSON-QP-001", "11.5", Level::Must),
    ("HTTP_JSON-ERR-001", "11.6", Level::Must),
    ("HTTP_JSON-ERR-002", "11.6", Level::Must),
    ("HTTP_JSON-STATUS-001", "5.4", Level::Must),
    ("HTTP_JSON-SSE-001", "11.7", Level::Must),
    // tck/requirements/versioning.py
    ("VER-CLIENT-001", "3.6.1", Level::Must),
    ("VER-SERVER-001", "3.6.2", Level::Must),
    ("VER-SERVER-002", "3.6.2", Level::Must),
    ("VER-SERVER-003", "3.6.2", Level::Must),
    ("VER-CLIENT-002", "3.6", Level::Must),
];

/// The TCK requirement `id`, when the table has it.
pub fn requirement(id: &str) -> Option<(&'static str, &'static str, Level)> {
    REQUIREMENTS.iter().copied().find(|(i, _, _)| *i == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_scenario_names_known_ids_once() {
        let ids: BTreeSet<&str> = REQUIREMENTS.iter().map(|r| r.0).collect();
        assert_eq!(ids.len(), REQUIREMENTS.len(), "an id listed twice");
        let mut named = BTreeSet::new();
        for s in crate::scenarios::all() {
            let mut own = BTreeSet::new();
            for id in s.tck {
                assert!(requirement(id).is_some(), "{}: {id} is not a TCK id", s.id);
                assert!(own.insert(*id), "{}: {id} twice", s.id);
                named.insert(*id);
            }
        }
        // The mapping covers most of the TCK's server requirements; this
        // breaks when the scenario fields are lost.
        assert!(named.len() >= 50, "only {} TCK ids named", named.len());
        assert_eq!(requirement("CORE-SEND-001").map(|r| r.1), Some("3.1.1"));
        assert_eq!(requirement("CORE-SEND-999"), None);
    }
}
