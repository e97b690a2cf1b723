//! What a stored task weighs: an estimate of the heap bytes its history,
//! artifacts and status hold, for the store's byte budget
//! ([`MemoryLimits::max_store_bytes`](crate::MemoryLimits::max_store_bytes)).
//!
//! The estimate counts each object's own size (`size_of`) and, for each
//! heap allocation (a string, a file, a list), its bytes rounded up the
//! way glibc's allocator rounds them plus its header, so it stays close to
//! what the allocator holds for a task; it is a budget, not an account.

use std::mem::size_of;

use a2a_types::{Artifact, Message, Part, PartContent, StreamResponse, Struct, Task};
use serde_json::Value;

/// What the allocator holds for an allocation of `len` bytes: nothing for
/// none, else `len` rounded up to 16 with a 16-byte header (glibc's
/// malloc on 64-bit).
fn heap(len: usize) -> usize {
    match len {
        0 => 0,
        n => n.div_ceil(16) * 16 + 16,
    }
}

fn text(s: &str) -> usize {
    heap(s.len())
}

/// A map's entries cost about a node each (serde_json's map is a BTreeMap
/// or, with `preserve_order`, an IndexMap: either holds key and value).
const MAP_ENTRY: usize = size_of::<String>() + size_of::<Value>() + 16;

/// The weight of `task` (without the `Task` value itself, which the entry
/// holds in place).
pub(crate) fn task(task: &Task) -> usize {
    let status = task
        .status
        .message
        .as_ref()
        .map_or(0, |m| size_of::<Message>() + message(m));
    text(&task.id)
        + text(&task.context_id)
        + status
        + heap(task.history.len() * size_of::<Message>())
        + task.history.iter().map(message).sum::<usize>()
        + heap(task.artifacts.len() * size_of::<Artifact>())
        + task.artifacts.iter().map(artifact).sum::<usize>()
        + task.metadata.as_ref().map_or(0, structure)
}

/// The weight of an event as a log keeps it, and about what applying it
/// adds to its task.
pub(crate) fn event(e: &StreamResponse) -> usize {
    size_of::<StreamResponse>()
        + match e {
            StreamResponse::ArtifactUpdate(u) => {
                text(&u.task_id)
                    + text(&u.context_id)
                    + artifact(&u.artifact)
                    + u.metadata.as_ref().map_or(0, structure)
            }
            StreamResponse::StatusUpdate(u) => {
                text(&u.task_id)
                    + text(&u.context_id)
                    + u.status
                        .message
                        .as_ref()
                        .map_or(0, |m| size_of::<Message>() + message(m))
                    + u.metadata.as_ref().map_or(0, structure)
            }
            StreamResponse::Task(t) => task(t),
            StreamResponse::Message(m) => message(m),
        }
}

/// What `m` holds on the heap.
fn message(m: &Message) -> usize {
    text(&m.message_id)
        + text(&m.context_id)
        + text(&m.task_id)
        + parts(&m.parts)
        + m.metadata.as_ref().map_or(0, structure)
        + m.extensions.iter().map(|e| text(e)).sum::<usize>()
        + m.reference_task_ids.iter().map(|e| text(e)).sum::<usize>()
}

/// What `a` holds on the heap.
fn artifact(a: &Artifact) -> usize {
    text(&a.artifact_id)
        + text(&a.name)
        + text(&a.description)
        + parts(&a.parts)
        + a.metadata.as_ref().map_or(0, structure)
}

fn parts(parts: &[Part]) -> usize {
    heap(std::mem::size_of_val(parts)) + parts.iter().map(part).sum::<usize>()
}

/// What `p` holds on the heap.
fn part(p: &Part) -> usize {
    let content = match &p.content {
        PartContent::Text(t) => text(t),
        PartContent::Raw(r) => heap(r.len()),
        PartContent::Url(u) => text(u),
        PartContent::Data(v) => value(v),
    };
    content + text(&p.filename) + text(&p.media_type) + p.metadata.as_ref().map_or(0, structure)
}

fn structure(s: &Struct) -> usize {
    s.iter().map(|(k, v)| MAP_ENTRY + text(k) + value(v)).sum()
}

/// What `v` holds on the heap. JSON values nest no deeper than the
/// decoder's recursion limit, so the walk is bounded.
fn value(v: &Value) -> usize {
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) => 0,
        Value::String(s) => text(s),
        Value::Array(items) => {
            heap(items.len() * size_of::<Value>()) + items.iter().map(value).sum::<usize>()
        }
        Value::Object(map) => structure(map),
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
        assert!(with_text >= empty + 10_000 && with_text < empty + 10_000 + 1024);
        t.artifacts
            .push(Artifact::new("a", vec![Part::raw(vec![0; 5000])]));
        assert!(task(&t) >= with_text + 5000 + size_of::<Part>());
        let data = Part::data(serde_json::json!({"k": ["v".repeat(300), 1, null]}));
        assert!(part(&data) >= 300 + 3 * size_of::<Value>());
        assert_eq!((heap(0), heap(1), heap(16), heap(17)), (0, 32, 32, 48));
    }
}
