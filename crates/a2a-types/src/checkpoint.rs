//! Checkpoint parts: the A2aEngine `Parts` convention for state a producer
//! hands back through a broker.
//!
//! A checkpoint is a data part (spec 4.1.6, `Part.data`) whose metadata is
//! `{"type": "checkpoint", "owner": "<producer>"}`. A producer (an agent
//! behind a broker) puts its resumable state in one; the broker keeps it
//! in the conversation and, on the next turn, forwards each checkpoint
//! only to the producer that wrote it: another producer must not see (or
//! act on) state that is not its own.
//!
//! Two views serve a broker: [`checkpoints_of`] (only the owner's
//! checkpoints, e.g. to store them per producer) and [`for_owner`] (the
//! parts a producer is sent: every ordinary part, plus its own checkpoints
//! and no one else's). A part is a checkpoint only when it is a data part
//! with both metadata keys as strings; anything else (a text part with
//! that metadata, an `owner` that is not a string) is an ordinary part.
//!
//! ```
//! use a2a_types::{checkpoint, Part};
//! use serde_json::json;
//!
//! let parts = vec![
//!     Part::text("book a table for two"),
//!     checkpoint::part("planner", json!({"step": 3})),
//!     checkpoint::part("payments", json!({"cart": "c-17"})),
//! ];
//! // What the broker stores for the planner: its checkpoint only.
//! let mine: Vec<&Part> = checkpoint::checkpoints_of(&parts, "planner").collect();
//! assert_eq!(mine, [&parts[1]]);
//! // What the broker forwards to the planner: the text and its checkpoint.
//! let forwarded = checkpoint::for_owner(&parts, "planner");
//! assert_eq!(forwarded, [parts[0].clone(), parts[1].clone()]);
//! assert_eq!(checkpoint::owner(&parts[2]), Some("payments"));
//! ```

use serde_json::Value;

use crate::message::{Part, PartContent};
use crate::protojson::Struct;

/// The metadata key that marks a part's kind (`"type"`).
pub const TYPE_KEY: &str = "type";
/// The value of [`TYPE_KEY`] that marks a checkpoint (`"checkpoint"`).
pub const CHECKPOINT: &str = "checkpoint";
/// The metadata key naming the checkpoint's producer (`"owner"`).
pub const OWNER_KEY: &str = "owner";

/// A checkpoint part: `data` with metadata
/// `{"type": "checkpoint", "owner": owner}`.
pub fn part(owner: impl Into<String>, data: Value) -> Part {
    let mut metadata = Struct::new();
    metadata.insert(TYPE_KEY.to_owned(), Value::String(CHECKPOINT.to_owned()));
    metadata.insert(OWNER_KEY.to_owned(), Value::String(owner.into()));
    Part::data(data).with_metadata(metadata)
}

/// The owner of `part` when it is a checkpoint: a data part whose metadata
/// has `"type": "checkpoint"` and a string `"owner"`; else `None`.
pub fn owner(part: &Part) -> Option<&str> {
    if !matches!(part.content, PartContent::Data(_)) {
        return None;
    }
    let metadata = part.metadata.as_ref()?;
    if metadata.get(TYPE_KEY).and_then(Value::as_str) != Some(CHECKPOINT) {
        return None;
    }
    metadata.get(OWNER_KEY).and_then(Value::as_str)
}

/// Whether `part` is a checkpoint (of any owner).
pub fn is_checkpoint(part: &Part) -> bool {
    owner(part).is_some()
}

/// The checkpoints among `parts` that belong to `owner`, in order; every
/// other part (ordinary parts and other owners' checkpoints) is left out.
pub fn checkpoints_of<'a>(
    parts: &'a [Part],
    owner: &'a str,
) -> impl Iterator<Item = &'a Part> + 'a {
    parts.iter().filter(move |p| self::owner(p) == Some(owner))
}

/// The parts a broker forwards to `owner`: every part that is not a
/// checkpoint, and the checkpoints `owner` wrote, in their order; other
/// owners' checkpoints are dropped.
pub fn for_owner(parts: &[Part], owner: &str) -> Vec<Part> {
    parts
        .iter()
        .filter(|p| self::owner(p).is_none_or(|o| o == owner))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn meta(v: Value) -> Struct {
        match v {
            Value::Object(m) => m,
            _ => unreachable!("test metadata is an object"),
        }
    }

    #[test]
    fn owner_needs_a_data_part_with_both_keys_as_strings() {
        assert_eq!(owner(&part("a", json!(1))), Some("a"));
        let tagged = meta(json!({"type": "checkpoint", "owner": "a"}));
        // Only data parts are checkpoints.
        assert_eq!(owner(&Part::text("x").with_metadata(tagged.clone())), None);
        assert_eq!(owner(&Part::url("u").with_metadata(tagged)), None);
        for m in [
            json!({"owner": "a"}),
            json!({"type": "note", "owner": "a"}),
            json!({"type": "checkpoint"}),
            json!({"type": "checkpoint", "owner": 7}),
            json!({"type": ["checkpoint"], "owner": "a"}),
        ] {
            let p = Part::data(json!({})).with_metadata(meta(m.clone()));
            assert_eq!(owner(&p), None, "{m}");
            assert!(!is_checkpoint(&p));
        }
        assert_eq!(owner(&Part::data(json!({}))), None);
        // Other metadata keys do not matter.
        let extra = meta(json!({"type": "checkpoint", "owner": "b", "seq": 2}));
        assert_eq!(
            owner(&Part::data(json!(null)).with_metadata(extra)),
            Some("b")
        );
    }

    #[test]
    fn the_two_views() {
        let parts = vec![
            part("b", json!({"n": 1})),
            Part::text("hello"),
            part("a", json!({"n": 2})),
            Part::data(json!({"plain": true})),
            part("b", json!({"n": 3})),
            part("a", json!({"n": 4})),
        ];
        let of_a: Vec<&Part> = checkpoints_of(&parts, "a").collect();
        assert_eq!(of_a, [&parts[2], &parts[5]]);
        let of_b: Vec<&Part> = checkpoints_of(&parts, "b").collect();
        assert_eq!(of_b, [&parts[0], &parts[4]]);
        assert_eq!(checkpoints_of(&parts, "c").count(), 0);
        assert_eq!(
            for_owner(&parts, "a"),
            [
                parts[1].clone(),
                parts[2].clone(),
                parts[3].clone(),
                parts[5].clone()
            ]
        );
        // An owner with no checkpoints gets the ordinary parts only.
        assert_eq!(for_owner(&parts, "c"), [parts[1].clone(), parts[3].clone()]);
        // Owner names compare exactly.
        assert_eq!(checkpoints_of(&parts, "A").count(), 0);
        assert!(for_owner(&[], "a").is_empty());
    }

    #[test]
    fn a_checkpoint_survives_protojson() {
        let p = part("planner", json!({"step": 3}));
        let wire = crate::to_vec(&p).map(String::from_utf8);
        let Ok(Ok(wire)) = wire else {
            unreachable!("a part encodes")
        };
        assert_eq!(
            serde_json::from_str::<Value>(&wire).ok(),
            Some(
                json!({"data": {"step": 3}, "metadata": {"type": "checkpoint", "owner": "planner"}})
            )
        );
        let back: Part = crate::from_str(&wire).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(owner(&back), Some("planner"));
    }
}
