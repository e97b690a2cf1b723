//! What a stored task weighs: an estimate of the heap bytes its history,
//! artifacts and status hold, for the store's byte budget
//! ([`Limits::max_store_bytes`](crate::Limits::max_store_bytes)).
//!
//! The estimate counts the bytes of every string, file and data value
//! and a fixed overhead per object, so it tracks what a task holds
//! within a small factor; it is a budget, not an allocator's account.

use a2a_types::{Artifact, Message, Part, PartContent, Struct, Task};
use serde_json::Value;

/// The fixed cost counted per object (a message, a part, a JSON node).
const OBJECT: usize = 64;

/// The weight of `task`.
pub(crate) fn task(task: &Task) -> usize {
    let status = task.status.message.as_ref().map_or(0, message);
    OBJECT * 2
        + task.id.len()
        + task.context_id.len()
        + status
        + task.history.iter().map(message).sum::<usize>()
        + task.artifacts.iter().map(artifact).sum::<usize>()
        + task.metadata.as_ref().map_or(0, structure)
}

fn message(m: &Message) -> usize {
    OBJECT
        + m.message_id.len()
        + m.context_id.len()
        + m.task_id.len()
        + m.parts.iter().map(part).sum::<usize>()
        + m.metadata.as_ref().map_or(0, structure)
        + m.extensions.iter().map(String::len).sum::<usize>()
        + m.reference_task_ids.iter().map(String::len).sum::<usize>()
}

fn artifact(a: &Artifact) -> usize {
    OBJECT
        + a.artifact_id.len()
        + a.name.len()
        + a.description.len()
        + a.parts.iter().map(part).sum::<usize>()
        + a.metadata.as_ref().map_or(0, structure)
}

fn part(p: &Part) -> usize {
    let content = match &p.content {
        PartContent::Text(t) => t.len(),
        PartContent::Raw(r) => r.len(),
        PartContent::Url(u) => u.len(),
        PartContent::Data(v) => value(v),
    };
    OBJECT
        + content
        + p.filename.len()
        + p.media_type.len()
        + p.metadata.as_ref().map_or(0, structure)
}

fn structure(s: &Struct) -> usize {
    OBJECT + s.iter().map(|(k, v)| k.len() + value(v)).sum::<usize>()
}

/// JSON values nest no deeper than the decoder's recursion limit, so the
/// walk is bounded.
fn value(v: &Value) -> usize {
    OBJECT
        + match v {
            Value::Null | Value::Bool(_) | Value::Number(_) => 0,
            Value::String(s) => s.len(),
            Value::Array(items) => items.iter().map(value).sum(),
            Value::Object(map) => map.iter().map(|(k, v)| k.len() + value(v)).sum(),
        }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::TaskState;

    #[test]
    fn weight_grows_with_what_the_task_holds() {
        let mut t = Task::new("t", "c", TaskState::Completed);
        let empty = task(&t);
        t.history.push(Message::user_text("m", "x".repeat(10_000)));
        let with_text = task(&t);
        assert!(with_text >= empty + 10_000 && with_text < empty + 10_000 + 4 * OBJECT);
        t.artifacts
            .push(Artifact::new("a", vec![Part::raw(vec![0; 5000])]));
        assert!(task(&t) >= with_text + 5000);
        let data = Part::data(serde_json::json!({"k": ["v".repeat(300), 1, null]}));
        assert!(part(&data) >= 300 + 4 * OBJECT);
    }
}
