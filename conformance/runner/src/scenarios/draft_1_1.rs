//! A2A 1.1 draft runs (`--version 1.1`, the `draft-1-1` feature; the
//! draft spec in `shared/spec/draft-1.1/`): the draft's scenarios, which
//! run in 1.1 runs only. Task generations (3.2.7: a new task at 1, each
//! event one more, GetTask at the last event's, long polling with
//! `currentGeneration`), the `ifGenerationMatch` guard (3.2.2), the
//! timeline (3.2.8), `?currentGeneration=` on HTTP+JSON (11.5), and that a
//! 1.0 caller of the same agent still sees pure 1.0 (3.6).
//!
//! Provisional like the draft: the ids are `draft.*` and every
//! description starts "1.1 draft:". Which 1.0 scenarios do not apply at
//! 1.1 is `v0_3::skip_reason`'s to say, with the 0.3 ones.

use std::time::{Duration, Instant};

use a2a_types::draft_1_1::{GenerationTracker, Observation, TimelineContent};
use a2a_types::{
    ErrorKind, GetTaskRequest, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    StreamResponse, Task, TaskState,
};
use http::Method;
use serde_json::{json, Value};

use crate::binding::{Kind, JSONRPC, REST};
use crate::check::{ensure, fail, Check};
use crate::context::{describe_error, describe_events, expect_error, Ctx};
use crate::contract::Behaviour;
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::{
    expect_wire_error, get_req, list_req, pct, send_req, str_at, stream_req, wire_result,
};

/// The keys the draft adds to the data model; a 1.0 caller sees none.
const DRAFT_KEYS: [&str; 4] = ["generation", "timeline", "startGeneration", "endGeneration"];

/// How long an answer the spec wants "immediately" may take.
const AT_ONCE: Duration = Duration::from_secs(2);

/// How long after a long poll starts the continuation that moves the
/// task is sent.
const CONTINUATION_AFTER: Duration = Duration::from_millis(300);

/// The draft's scenarios.
pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!(
            "draft.generation-initial",
            "3.2.7",
            Must,
            Kind::Behaviour,
            "1.1 draft: a new task has a generation of at least 1 (initialised to 1), and \
             GetTask answers the generation of the task's last event",
            generation_initial
        ),
        scenario!(
            "draft.generation-events",
            "3.2.7",
            Must,
            Kind::Behaviour,
            "1.1 draft: each status and artifact update of a stream carries a generation \
             exactly one more than the item before it, from the first Task's (no 0, no repeat, \
             no gap)",
            generation_events
        ),
        scenario!(
            "draft.long-poll-behind",
            "3.2.7",
            Must,
            Kind::Behaviour,
            "1.1 draft: GetTask with a currentGeneration below the task's answers at once \
             with the current task",
            long_poll_behind
        ),
        scenario!(
            "draft.long-poll-hold",
            "3.2.7",
            Should,
            Kind::Behaviour,
            "1.1 draft: GetTask with the task's own currentGeneration is held until a \
             continuation moves the task, then answers a greater generation",
            long_poll_hold
        ),
        scenario!(
            "draft.if-generation-match",
            "3.2.2",
            Must,
            Kind::Behaviour,
            "1.1 draft: a continuation with a stale ifGenerationMatch is refused with \
             TaskGenerationMismatchError and changes nothing; the matching value is accepted",
            if_generation_match
        ),
        scenario!(
            "draft.if-generation-match-new-task",
            "3.2.2",
            Must,
            Kind::Behaviour,
            "1.1 draft: ifGenerationMatch on a message that creates a task is ignored",
            if_generation_match_new_task
        ),
        scenario!(
            "draft.timeline",
            "3.2.8",
            Should,
            Kind::Behaviour,
            "1.1 draft: the timeline holds the client's messages and the agent's statuses in \
             generation order, each at generation 1 or more; artifacts carry startGeneration \
             and, once complete, endGeneration",
            timeline
        ),
        scenario!(
            "draft.pure-1-0-jsonrpc",
            "3.6",
            Must,
            Kind::Wire(JSONRPC),
            "1.1 draft: the same agent called with A2A-Version 1.0 over JSON-RPC answers pure \
             1.0 (no generation, timeline, startGeneration or endGeneration anywhere)",
            pure_1_0
        ),
        scenario!(
            "draft.pure-1-0-rest",
            "3.6",
            Must,
            Kind::Wire(REST),
            "1.1 draft: the same agent called with A2A-Version 1.0 over HTTP+JSON answers pure \
             1.0 (no generation, timeline, startGeneration or endGeneration anywhere)",
            pure_1_0
        ),
        scenario!(
            "draft.rest-current-generation",
            "11.5",
            Must,
            Kind::Wire(REST),
            "1.1 draft: GET /tasks/{id}?currentGeneration=N is read: an N below the task's \
             generation answers at once, a non-integer N is 400 INVALID_ARGUMENT",
            rest_current_generation
        ),
    ]
}

// ---------------------------------------------------------------- helpers

/// The generation an item carries: a task's, an update's; none for a
/// message.
fn generation_of(item: &StreamResponse) -> Option<i64> {
    match item {
        StreamResponse::Task(t) => Some(t.generation),
        StreamResponse::StatusUpdate(u) => Some(u.generation),
        StreamResponse::ArtifactUpdate(u) => Some(u.generation),
        StreamResponse::Message(_) => None,
    }
}

/// The first item of a stream, which must be the new task.
fn first_task(events: &[StreamResponse]) -> Check<&Task> {
    match events.first() {
        Some(StreamResponse::Task(t)) => Ok(t),
        _ => Err(fail(
            "a stream starting with the Task",
            describe_events(events),
        )),
    }
}

/// Every event of a streamed task asked for with `text` (the reference
/// contract's `stream <n> <ms>`).
async fn streamed(cx: &Ctx<'_>, text: &str) -> Check<Vec<StreamResponse>> {
    let message = cx.ask(Behaviour::Streamed, text).await?;
    let stream = cx.stream(SendMessageRequest::new(message)).await?;
    cx.collect(stream).await
}

/// `GetTask` of `id` with `currentGeneration`, within the call timeout.
async fn long_poll(cx: &Ctx<'_>, id: &str, current_generation: i64) -> Check<Task> {
    let mut request = GetTaskRequest::new(id);
    request.current_generation = Some(current_generation);
    cx.within(cx.svc().get_task(&cx.cx(), request))
        .await?
        .map_err(|e| {
            fail(
                format!("GetTask with currentGeneration {current_generation} to succeed"),
                describe_error(&e),
            )
        })
}

/// A task waiting in INPUT_REQUIRED for a continuation, and its
/// generation as GetTask answers it.
async fn waiting_task(cx: &Ctx<'_>) -> Check<(Task, i64)> {
    let message = cx.ask(Behaviour::InputRequired, "input").await?;
    let task = cx.send_task_with(SendMessageRequest::new(message)).await?;
    ensure(
        task.status.state == TaskState::InputRequired,
        "a task in INPUT_REQUIRED",
        crate::context::state_name(task.status.state),
    )?;
    let generation = cx.get(&task.id, None).await?.generation;
    ensure(
        generation >= 1,
        "a task at generation 1 or more",
        format!("generation {generation}"),
    )?;
    Ok((task, generation))
}

/// A continuation of `task` guarded by `ifGenerationMatch`.
fn guarded(cx: &Ctx<'_>, task: &Task, text: &str, if_generation_match: i64) -> SendMessageRequest {
    let mut request = SendMessageRequest::new(cx.follow_up(&task.id, &task.context_id, text));
    request.configuration = Some(SendMessageConfiguration {
        if_generation_match: Some(if_generation_match),
        ..Default::default()
    });
    request
}

/// The JSON path of the first draft key in `v`, if any.
fn draft_key(v: &Value, at: &str) -> Option<String> {
    match v {
        Value::Object(o) => o.iter().find_map(|(k, child)| {
            let path = format!("{at}/{k}");
            if DRAFT_KEYS.contains(&k.as_str()) {
                Some(path)
            } else {
                draft_key(child, &path)
            }
        }),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, child)| draft_key(child, &format!("{at}/{i}"))),
        _ => None,
    }
}

/// An int64 of a ProtoJSON answer: a decimal string or a number.
fn int64_at(v: &Value, pointer: &str) -> Option<i64> {
    match v.pointer(pointer)? {
        Value::String(s) => s.parse().ok(),
        n => n.as_i64(),
    }
}

// -------------------------------------------------------------- scenarios

async fn generation_initial(cx: &Ctx<'_>) -> Check {
    let events = streamed(cx, "stream 2 10").await?;
    let first = first_task(&events)?;
    ensure(
        first.generation >= 1,
        "the new task at generation 1 or more (initialised to 1)",
        format!("generation {}", first.generation),
    )?;
    let last = events.iter().rev().find_map(generation_of).unwrap_or(0);
    let task = cx.get(&first.id, None).await?;
    ensure(
        task.generation == last,
        format!("GetTask at the last event's generation, {last}"),
        format!("generation {}", task.generation),
    )?;
    cx.note("the stream's last generation is GetTask's");
    Ok(())
}

async fn generation_events(cx: &Ctx<'_>) -> Check {
    let events = streamed(cx, "stream 3 10").await?;
    let first = first_task(&events)?;
    ensure(
        first.generation >= 1,
        "the first Task at generation 1 or more",
        format!("generation {}", first.generation),
    )?;
    let mut tracker = GenerationTracker::new();
    tracker.reconcile(first);
    let mut updates = 0;
    for (i, item) in events.iter().enumerate().skip(1) {
        let generation = match item {
            StreamResponse::StatusUpdate(u) => u.generation,
            StreamResponse::ArtifactUpdate(u) => u.generation,
            // A later snapshot carries no new mutation.
            StreamResponse::Task(_) | StreamResponse::Message(_) => continue,
        };
        updates += 1;
        let want = tracker.last().map_or(1, |g| g + 1);
        match tracker.observe(generation) {
            Observation::InOrder => {}
            seen => {
                return Err(fail(
                    format!("event {i} at generation {want} (one more than the item before)"),
                    format!(
                        "generation {generation} ({seen:?}); events: {}",
                        generations(&events)
                    ),
                ))
            }
        }
    }
    ensure(
        updates > 0,
        "status or artifact updates after the Task",
        describe_events(&events),
    )?;
    cx.note("every update one generation after the item before");
    Ok(())
}

/// The generations of a stream's items, for a failure's detail.
fn generations(events: &[StreamResponse]) -> String {
    events
        .iter()
        .map(|e| generation_of(e).map_or_else(|| "-".to_owned(), |g| g.to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

async fn long_poll_behind(cx: &Ctx<'_>) -> Check {
    let task = cx.any_task("echo long poll").await?;
    let task = cx.settle(&task.id).await?;
    let generation = task.generation;
    ensure(
        generation >= 1,
        "a task at generation 1 or more",
        format!("generation {generation}"),
    )?;
    let limit = AT_ONCE.min(cx.timing().call_timeout);
    let started = Instant::now();
    let answer = tokio::time::timeout(limit, long_poll(cx, &task.id, generation - 1))
        .await
        .map_err(|_| {
            fail(
                format!(
                    "GetTask with currentGeneration {} on a task at {generation} answered at once",
                    generation - 1
                ),
                format!("nothing within {limit:?}: the request was held"),
            )
        })??;
    ensure(
        answer.id == task.id && answer.generation == generation,
        format!("the current task, at generation {generation}"),
        format!(
            "task {} at generation {} after {:?}",
            answer.id,
            answer.generation,
            started.elapsed()
        ),
    )
}

async fn long_poll_hold(cx: &Ctx<'_>) -> Check {
    let (task, generation) = waiting_task(cx).await?;
    let poll = async {
        let answer = long_poll(cx, &task.id, generation).await;
        (answer, Instant::now())
    };
    let continuation = async {
        tokio::time::sleep(CONTINUATION_AFTER).await;
        let sent = Instant::now();
        let message = cx.follow_up(&task.id, &task.context_id, "moves the task");
        (cx.send(SendMessageRequest::new(message)).await, sent)
    };
    let ((answer, answered), (sent_result, sent)) = tokio::join!(poll, continuation);
    sent_result?;
    let answer = answer?;
    ensure(
        answered >= sent,
        format!(
            "GetTask with currentGeneration {generation} held until the continuation \
             (sent {CONTINUATION_AFTER:?} later)"
        ),
        format!(
            "answered {:?} before it, at generation {}",
            sent.saturating_duration_since(answered),
            answer.generation
        ),
    )?;
    ensure(
        answer.generation > generation,
        format!("an answer at a generation above {generation}"),
        format!("generation {}", answer.generation),
    )
}

async fn if_generation_match(cx: &Ctx<'_>) -> Check {
    let (task, generation) = waiting_task(cx).await?;
    let before = cx.get(&task.id, None).await?;
    let stale = if generation > 1 {
        generation - 1
    } else {
        generation + 1
    };
    let refused = cx
        .within(
            cx.svc()
                .send_message(&cx.cx(), guarded(cx, &task, "stale", stale)),
        )
        .await?;
    expect_error(
        refused,
        ErrorKind::TaskGenerationMismatch,
        &format!("for ifGenerationMatch {stale} on a task at generation {generation}"),
    )?;
    let after = cx.get(&task.id, None).await?;
    ensure(
        after.generation == generation
            && after.status.state == TaskState::InputRequired
            && after.history.len() == before.history.len(),
        format!(
            "the refused continuation changed nothing: INPUT_REQUIRED at generation \
             {generation}, {} history messages",
            before.history.len()
        ),
        format!(
            "{} at generation {}, {} history messages",
            crate::context::state_name(after.status.state),
            after.generation,
            after.history.len()
        ),
    )?;
    let accepted = cx
        .within(
            cx.svc()
                .send_message(&cx.cx(), guarded(cx, &task, "matching", generation)),
        )
        .await?;
    match accepted {
        Ok(SendMessageResponse::Task(t)) if t.generation > generation => Ok(()),
        Ok(SendMessageResponse::Task(t)) => Err(fail(
            format!("the task moved past generation {generation}"),
            format!("generation {}", t.generation),
        )),
        Ok(SendMessageResponse::Message(_)) => Ok(()),
        Err(e) => Err(fail(
            format!("ifGenerationMatch {generation} (the task's) accepted"),
            describe_error(&e),
        )),
    }
}

async fn if_generation_match_new_task(cx: &Ctx<'_>) -> Check {
    let message = cx
        .ask(
            Behaviour::Complete,
            "echo a new task with ifGenerationMatch",
        )
        .await?;
    let mut request = SendMessageRequest::new(message);
    request.configuration = Some(SendMessageConfiguration {
        if_generation_match: Some(42),
        ..Default::default()
    });
    match cx.within(cx.svc().send_message(&cx.cx(), request)).await? {
        Ok(SendMessageResponse::Task(t)) => ensure(
            t.generation >= 1,
            "a new task at generation 1 or more",
            format!("generation {}", t.generation),
        ),
        Ok(SendMessageResponse::Message(_)) => {
            Err(fail("a new task", "a direct Message".to_owned()))
        }
        Err(e) => Err(fail(
            "the message accepted: ifGenerationMatch 42 is ignored when the message creates \
             the task",
            describe_error(&e),
        )),
    }
}

async fn timeline(cx: &Ctx<'_>) -> Check {
    let message = cx.ask(Behaviour::InputRequired, "input").await?;
    let first_id = message.message_id.clone();
    let task = cx.send_task_with(SendMessageRequest::new(message)).await?;
    let follow_up = cx.follow_up(&task.id, &task.context_id, "carry on");
    let follow_up_id = follow_up.message_id.clone();
    cx.send(SendMessageRequest::new(follow_up)).await?;
    let task = cx.settle(&task.id).await?;
    let entries = &task.timeline;
    let describe = || {
        entries
            .iter()
            .map(|e| {
                let what = match &e.entry {
                    Some(TimelineContent::Message(m)) => format!("message {}", m.message_id),
                    Some(TimelineContent::Status(s)) => {
                        format!("status {}", crate::context::state_name(s.state))
                    }
                    None => "unknown".to_owned(),
                };
                format!("{what} @{}", e.generation)
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    ensure(!entries.is_empty(), "a timeline", "none")?;
    let mut previous = 0;
    for e in entries {
        ensure(
            e.generation >= 1 && e.generation >= previous,
            "entries at generation 1 or more, in non-decreasing generation order",
            describe(),
        )?;
        previous = e.generation;
    }
    for id in [&first_id, &follow_up_id] {
        ensure(
            entries.iter().any(
                |e| matches!(&e.entry, Some(TimelineContent::Message(m)) if &m.message_id == id),
            ),
            format!("the client's message {id} as a timeline entry"),
            describe(),
        )?;
    }
    ensure(
        entries
            .iter()
            .any(|e| matches!(e.entry, Some(TimelineContent::Status(_)))),
        "the agent's statuses as timeline entries",
        describe(),
    )?;
    for a in &task.artifacts {
        ensure(
            a.start_generation >= 1
                && (a.end_generation == 0 || a.end_generation >= a.start_generation),
            format!(
                "artifact {} with a startGeneration (and an endGeneration, if any, not \
                 before it)",
                a.artifact_id
            ),
            format!(
                "startGeneration {}, endGeneration {}",
                a.start_generation, a.end_generation
            ),
        )?;
    }
    if cx.card().capabilities.streaming == Some(true) {
        artifact_generations(cx).await?;
    }
    cx.note("the timeline holds both messages and the statuses in order");
    Ok(())
}

/// A streamed artifact's startGeneration is its first chunk's
/// generation, its endGeneration the one of the chunk marked lastChunk.
async fn artifact_generations(cx: &Ctx<'_>) -> Check {
    let events = streamed(cx, "stream 2 10").await?;
    let first = first_task(&events)?;
    let mut chunks: Vec<(String, i64, i64)> = Vec::new();
    for e in &events {
        if let StreamResponse::ArtifactUpdate(u) = e {
            let id = &u.artifact.artifact_id;
            match chunks.iter_mut().find(|(a, _, _)| a == id) {
                Some(entry) if !u.append => *entry = (id.clone(), u.generation, 0),
                Some(_) => {}
                None => chunks.push((id.clone(), u.generation, 0)),
            }
            if u.last_chunk {
                if let Some(entry) = chunks.iter_mut().find(|(a, _, _)| a == id) {
                    entry.2 = u.generation;
                }
            }
        }
    }
    let task = cx.get(&first.id, None).await?;
    for (id, start, end) in chunks.iter().filter(|(_, _, end)| *end > 0) {
        let a = task.artifacts.iter().find(|a| &a.artifact_id == id);
        let got = a.map(|a| (a.start_generation, a.end_generation));
        ensure(
            got == Some((*start, *end)),
            format!(
                "streamed artifact {id} with startGeneration {start} (its first chunk's) and \
                 endGeneration {end} (its lastChunk's)"
            ),
            match got {
                Some((s, e)) => format!("startGeneration {s}, endGeneration {e}"),
                None => "no such artifact".to_owned(),
            },
        )?;
    }
    Ok(())
}

/// Over this binding with `A2A-Version: 1.0`: SendMessage, GetTask,
/// ListTasks and a stream answer no draft key.
async fn pure_1_0(cx: &Ctx<'_>) -> Check {
    cx.reference(Behaviour::Complete).await?;
    let mut answers: Vec<(&str, Value)> = Vec::new();
    let reply = send_req(cx, "echo pure 1.0", json!({}))?.send(cx).await?;
    let sent = wire_result(cx, &reply)?;
    let id = str_at(&sent, "/task/id")?.to_owned();
    answers.push(("SendMessage", sent));
    let reply = get_req(cx, &id)?.send(cx).await?;
    answers.push(("GetTask", wire_result(cx, &reply)?));
    let reply = list_req(
        cx,
        json!({"includeArtifacts": true}),
        "includeArtifacts=true",
    )?
    .send(cx)
    .await?;
    answers.push(("ListTasks", wire_result(cx, &reply)?));
    if cx.card().capabilities.streaming == Some(true) {
        cx.reference(Behaviour::Streamed).await?;
        let events = stream_req(cx, "stream 2 10")?
            .stream(cx)
            .await?
            .sse_events()?;
        answers.extend(events.into_iter().map(|e| ("SendStreamingMessage", e)));
    }
    for (what, answer) in &answers {
        if let Some(path) = draft_key(answer, "") {
            return Err(fail(
                format!("a pure 1.0 {what} answer to A2A-Version 1.0"),
                format!(
                    "the 1.1 field {path}: {}",
                    crate::abbreviate(&answer.to_string())
                ),
            ));
        }
    }
    Ok(())
}

async fn rest_current_generation(cx: &Ctx<'_>) -> Check {
    cx.reference(Behaviour::Complete).await?;
    let reply = send_req(cx, "echo current generation", json!({}))?
        .header("a2a-version", "1.1")
        .send(cx)
        .await?;
    let sent = wire_result(cx, &reply)?;
    let id = str_at(&sent, "/task/id")?.to_owned();
    let get = |query: String| -> Check<crate::wire::Req> {
        Ok(cx
            .rest(Method::GET, &format!("/tasks/{}{query}", pct(&id)))?
            .header("a2a-version", "1.1"))
    };
    let reply = get(String::new())?.send(cx).await?;
    let task = wire_result(cx, &reply)?;
    let generation = int64_at(&task, "/generation").unwrap_or(0);
    ensure(
        generation >= 1,
        "a 1.1 GetTask answer with a generation of 1 or more",
        crate::abbreviate(&task.to_string()),
    )?;
    let below = generation - 1;
    let limit = AT_ONCE.min(cx.timing().call_timeout);
    let reply = tokio::time::timeout(limit, get(format!("?currentGeneration={below}"))?.send(cx))
        .await
        .map_err(|_| {
            fail(
                format!("?currentGeneration={below} on a task at {generation} answered at once"),
                format!("nothing within {limit:?}: the request was held"),
            )
        })??;
    let answer = wire_result(cx, &reply)?;
    ensure(
        int64_at(&answer, "/generation") == Some(generation),
        format!("the current task at generation {generation}"),
        crate::abbreviate(&answer.to_string()),
    )?;
    let reply = get("?currentGeneration=soon".to_owned())?.send(cx).await?;
    let e = expect_wire_error(cx, &reply, ErrorKind::InvalidParams)?;
    ensure(
        e.error.get("status").and_then(Value::as_str) == Some("INVALID_ARGUMENT"),
        "?currentGeneration=soon refused with status INVALID_ARGUMENT",
        reply.describe(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draft_keys_are_found_anywhere() {
        assert_eq!(draft_key(&json!({"task": {"id": "t"}}), ""), None);
        assert_eq!(
            draft_key(
                &json!({"task": {"artifacts": [{"endGeneration": "2"}]}}),
                ""
            ),
            Some("/task/artifacts/0/endGeneration".to_owned())
        );
        assert_eq!(
            draft_key(&json!([{"statusUpdate": {"generation": "3"}}]), ""),
            Some("/0/statusUpdate/generation".to_owned())
        );
        assert_eq!(int64_at(&json!({"g": "7"}), "/g"), Some(7));
        assert_eq!(int64_at(&json!({"g": 7}), "/g"), Some(7));
    }

    #[test]
    fn ids_and_titles_say_draft() {
        for s in list() {
            assert!(s.id.starts_with("draft."), "{}", s.id);
            assert!(s.title.starts_with("1.1 draft:"), "{}", s.id);
        }
    }
}
