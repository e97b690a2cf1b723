//! Streaming (3.1.2), subscriptions (3.1.6), event order and fan-out
//! (3.5.2), and the streaming capability gate (3.3.4).

use a2a_types::{
    ErrorKind, SendMessageRequest, StreamResponse, SubscribeToTaskRequest, TaskSnapshot, TaskState,
};

use serde_json::Value;

use crate::binding::{Binding, Kind, BOTH};
use crate::check::{ensure, fail, skip, Check};
use crate::context::{describe_event, describe_events, expect_error, immediately, state_name, Ctx};
use crate::contract::{Behaviour, Contract};
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::{needs_streaming, stream_req, subscribe_req};

pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!(
            "stream.starts-with-task",
            "3.1.2",
            Must,
            Kind::Behaviour,
            "a task stream begins with the Task",
            starts_with_task, tck = ["CORE-STREAM-001", "CORE-STREAM-003"]
        ),
        scenario!(
            "stream.message-only",
            "3.1.2",
            Must,
            Kind::Behaviour,
            "a message stream is exactly one Message, then closes",
            message_only, tck = ["CORE-STREAM-002"]
        ),
        scenario!(
            "stream.immediate-feedback",
            "3.1.2",
            Must,
            Kind::Behaviour,
            "the first event arrives while the task is still working",
            immediate_feedback
        ),
        scenario!(
            "stream.closes-on-terminal",
            "3.1.2",
            Must,
            Kind::Behaviour,
            "the stream closes when the task reaches a terminal state",
            closes_on_terminal, tck = ["CORE-STREAM-003"]
        ),
        scenario!(
            "stream.closes-on-interrupted",
            "11.7",
            Should,
            Kind::Behaviour,
            "the stream closes when the task reaches an interrupted state",
            closes_on_interrupted
        ),
        scenario!(
            "stream.order",
            "3.5.2",
            Must,
            Kind::Behaviour,
            "events arrive in the order they were generated",
            order, tck = ["STREAM-ORDER-001"]
        ),
        scenario!(
            "stream.adds-up",
            "3.5.2",
            Must,
            Kind::Behaviour,
            "a stream's events rebuild the task GetTask answers",
            adds_up
        ),
        scenario!(
            "subscribe.starts-with-task",
            "3.1.6",
            Must,
            Kind::Behaviour,
            "SubscribeToTask begins with the task's current state and follows it to the end",
            subscribe, tck = ["STREAM-SUB-001", "STREAM-SUB-002"]
        ),
        scenario!(
            "subscribe.through-interrupted",
            "3.1.6",
            Should,
            Kind::Behaviour,
            "SubscribeToTask of an input-required or auth-required task stays open until the task is terminal",
            subscribe_interrupted
        ),
        scenario!(
            "stream.event-ids",
            "3.1.6",
            May,
            Kind::Wire(BOTH),
            "every SSE event of a stream carries an id, a new one each time, for Last-Event-ID to name",
            event_ids
        ),
        scenario!(
            "subscribe.last-event-id",
            "3.1.6",
            May,
            Kind::Wire(BOTH),
            "SubscribeToTask with Last-Event-ID resumes with the events after that one",
            last_event_id
        ),
        scenario!(
            "subscribe.terminal-task",
            "3.1.6",
            Must,
            Kind::Behaviour,
            "SubscribeToTask of a terminal task answers UnsupportedOperationError",
            subscribe_terminal, tck = ["STREAM-SUB-003"]
        ),
        scenario!(
            "subscribe.unknown-task",
            "3.1.6",
            Must,
            Kind::Behaviour,
            "SubscribeToTask of an unknown id answers TaskNotFoundError",
            subscribe_unknown, tck = ["STREAM-SUB-004"]
        ),
        scenario!(
            "stream.fan-out",
            "3.5.2",
            Must,
            Kind::Behaviour,
            "concurrent subscribers receive the same events in the same order",
            fan_out, tck = ["STREAM-ORDER-002", "STREAM-ORDER-003"]
        ),
        scenario!(
            "stream.close-one",
            "3.5.2",
            Must,
            Kind::Behaviour,
            "closing one stream does not affect another on the same task",
            close_one, tck = ["STREAM-ORDER-004"]
        ),
        scenario!(
            "capability.streaming",
            "3.3.4",
            Must,
            Kind::Behaviour,
            "without capabilities.streaming, streaming operations answer UnsupportedOperationError",
            streaming_gate, tck = ["CORE-CAP-002"]
        ),
    ]
}

async fn starts_with_task(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let ask = cx.ask(Behaviour::Streamed, "stream 2").await?;
    let events = cx
        .collect(cx.stream(SendMessageRequest::new(ask)).await?)
        .await?;
    match events.first() {
        Some(StreamResponse::Task(t)) if !t.id.is_empty() => {
            cx.note("task first");
            Ok(())
        }
        _ => Err(fail(
            "the Task as the first event",
            describe_events(&events),
        )),
    }
}

async fn message_only(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let ask = cx.ask(Behaviour::DirectMessage, "message streamed").await?;
    let events = cx
        .collect(cx.stream(SendMessageRequest::new(ask)).await?)
        .await?;
    match events.as_slice() {
        [StreamResponse::Message(m)] => {
            if cx.contract_name() == Contract::Reference {
                ensure(
                    m.text_content().as_deref() == Some("streamed"),
                    "the message \"streamed\"",
                    format!("{:?}", m.text_content()),
                )?;
            }
            cx.note("one message");
            Ok(())
        }
        _ => Err(fail(
            "exactly one Message, then the end",
            describe_events(&events),
        )),
    }
}

async fn immediate_feedback(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    cx.reference(Behaviour::LongRunning).await?;
    let slow = cx.timing().slow * 2;
    let started = std::time::Instant::now();
    let mut stream = cx
        .stream(SendMessageRequest::new(
            cx.msg(&format!("slow {}", slow.as_millis())),
        ))
        .await?;
    let first = cx.next(&mut stream).await?;
    let took = started.elapsed();
    ensure(first.is_some(), "a first event", "the end of the stream")?;
    ensure(
        took < slow / 2,
        format!("the first event well before the work ends ({slow:?})"),
        format!("it after {took:?}"),
    )?;
    drop(stream);
    cx.note("early");
    Ok(())
}

async fn closes_on_terminal(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let ask = cx.ask(Behaviour::Streamed, "stream 2").await?;
    let mut stream = cx.stream(SendMessageRequest::new(ask)).await?;
    let mut seen = Vec::new();
    loop {
        let Some(event) = cx.next(&mut stream).await? else {
            return Err(fail(
                "a terminal state before the end",
                describe_events(&seen),
            ));
        };
        let terminal = event.is_final();
        seen.push(event);
        if terminal {
            break;
        }
    }
    cx.ended(&mut stream).await?;
    cx.note("closed");
    Ok(())
}

async fn closes_on_interrupted(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let ask = cx.ask(Behaviour::InputRequired, "input").await?;
    let mut stream = cx.stream(SendMessageRequest::new(ask)).await?;
    let mut seen = Vec::new();
    loop {
        let Some(event) = cx.next(&mut stream).await? else {
            return Err(fail(
                "INPUT_REQUIRED before the end",
                describe_events(&seen),
            ));
        };
        let state = match &event {
            StreamResponse::Task(t) => Some(t.status.state),
            StreamResponse::StatusUpdate(s) => Some(s.status.state),
            _ => None,
        };
        seen.push(event);
        if state == Some(TaskState::InputRequired) {
            break;
        }
    }
    cx.ended(&mut stream).await?;
    cx.note("closed");
    Ok(())
}

async fn order(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    cx.reference(Behaviour::Streamed).await?;
    let text = format!("stream 3 {}", cx.timing().stream_gap.as_millis());
    let events = cx
        .collect(cx.stream(SendMessageRequest::new(cx.msg(&text))).await?)
        .await?;
    let chunks: Vec<String> = events
        .iter()
        .filter(|e| matches!(e, StreamResponse::ArtifactUpdate(_)))
        .map(describe_event)
        .collect();
    let want = [
        "artifact:chunk 1",
        "artifact:chunk 2+",
        "artifact:chunk 3+!",
    ];
    ensure(
        chunks == want,
        format!("the chunks in order {want:?}"),
        describe_events(&events),
    )?;
    // States only move forward along the state machine.
    let mut state: Option<TaskState> = None;
    for e in &events {
        let next = match e {
            StreamResponse::Task(t) => Some(t.status.state),
            StreamResponse::StatusUpdate(s) => Some(s.status.state),
            _ => None,
        };
        if let (Some(from), Some(to)) = (state, next) {
            if from != to && !from.can_transition_to(to) {
                return Err(fail(
                    "states in the order the task went through them",
                    format!(
                        "{} after {}: {}",
                        state_name(to),
                        state_name(from),
                        describe_events(&events)
                    ),
                ));
            }
        }
        state = next.or(state);
    }
    let last = events.last().map(describe_event).unwrap_or_default();
    ensure(
        last == "status:COMPLETED",
        "COMPLETED as the last event",
        describe_events(&events),
    )?;
    let working = events
        .iter()
        .position(|e| describe_event(e) == "status:WORKING");
    let first_chunk = events
        .iter()
        .position(|e| matches!(e, StreamResponse::ArtifactUpdate(_)));
    ensure(
        working.is_some() && working < first_chunk,
        "WORKING before the first chunk",
        describe_events(&events),
    )?;
    cx.note(format!("{chunks:?} then {last}"));
    Ok(())
}

async fn adds_up(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    cx.reference(Behaviour::Streamed).await?;
    let text = format!("stream 3 {}", cx.timing().stream_gap.as_millis());
    let events = cx
        .collect(cx.stream(SendMessageRequest::new(cx.msg(&text))).await?)
        .await?;
    let mut events = events.into_iter();
    let first = events
        .next()
        .ok_or_else(|| fail("a Task first", "an empty stream"))?;
    let mut snapshot = TaskSnapshot::from_first_event(first)
        .map_err(|e| fail("a Task first", describe_event(&e)))?;
    for e in events {
        let d = describe_event(&e);
        snapshot
            .apply(e)
            .map_err(|err| fail("events that apply to the task", format!("{d}: {err}")))?;
    }
    let built = snapshot.task();
    let got = cx.get(&built.id, None).await?;
    ensure(
        built.status.state == got.status.state,
        format!(
            "the final state {} of GetTask",
            state_name(got.status.state)
        ),
        state_name(built.status.state),
    )?;
    let texts = |t: &a2a_types::Task| -> Vec<Option<String>> {
        t.artifacts.iter().map(|a| a.text_content()).collect()
    };
    ensure(
        texts(built) == texts(&got),
        format!("the artifacts of GetTask {:?}", texts(&got)),
        format!("{:?}", texts(built)),
    )?;
    cx.note(format!("{:?}", texts(&got)));
    Ok(())
}

async fn subscribe(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let ask = cx
        .ask(
            Behaviour::LongRunning,
            &format!("slow {}", cx.timing().slow_ms()),
        )
        .await?;
    let task = cx.send_task_with(immediately(ask)).await?;
    let stream = cx
        .within(cx.svc().subscribe_to_task(
            &cx.cx(),
            SubscribeToTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            },
        ))
        .await?
        .map_err(|e| {
            fail(
                "SubscribeToTask of a working task to open a stream",
                crate::describe_error(&e),
            )
        })?;
    let events = cx.collect(stream).await?;
    match events.first() {
        Some(StreamResponse::Task(t)) if t.id == task.id && !t.status.state.is_terminal() => {}
        _ => {
            return Err(fail(
                "the working Task as the first event",
                describe_events(&events),
            ))
        }
    }
    let last = events.last().map(describe_event).unwrap_or_default();
    ensure(
        last == "status:COMPLETED",
        "COMPLETED as the last event",
        describe_events(&events),
    )?;
    cx.note("task first, COMPLETED last");
    Ok(())
}

async fn subscribe_terminal(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let task = cx.any_task("echo over").await?;
    if !task.status.state.is_terminal() {
        return Err(skip(format!(
            "needs a terminal task: the task answered is {}",
            state_name(task.status.state)
        )));
    }
    let got = cx
        .within(cx.svc().subscribe_to_task(
            &cx.cx(),
            SubscribeToTaskRequest {
                id: task.id,
                ..Default::default()
            },
        ))
        .await?;
    let e = expect_error(
        got.map(|_| "a stream"),
        ErrorKind::UnsupportedOperation,
        "for a COMPLETED task",
    )?;
    cx.note(e.kind().name());
    Ok(())
}

async fn subscribe_unknown(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let got = cx
        .within(cx.svc().subscribe_to_task(
            &cx.cx(),
            SubscribeToTaskRequest {
                id: format!("no-such-task-{}", cx.nonce()),
                ..Default::default()
            },
        ))
        .await?;
    let e = expect_error(
        got.map(|_| "a stream"),
        ErrorKind::TaskNotFound,
        "for an unknown task id",
    )?;
    cx.note(e.kind().name());
    Ok(())
}

async fn open_subscription(cx: &Ctx<'_>, id: &str) -> Check<a2a_transport::EventStream> {
    cx.within(cx.svc().subscribe_to_task(
        &cx.cx(),
        SubscribeToTaskRequest {
            id: id.to_owned(),
            ..Default::default()
        },
    ))
    .await?
    .map_err(|e| {
        fail(
            "SubscribeToTask of a working task to open a stream",
            crate::describe_error(&e),
        )
    })
}

async fn fan_out(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    cx.reference(Behaviour::Streamed).await?;
    let gap = cx.timing().stream_gap.as_millis().max(5) * 2;
    let task = cx.start_task(&format!("stream 6 {gap}")).await?;
    let a = open_subscription(cx, &task.id).await?;
    let b = open_subscription(cx, &task.id).await?;
    let (a, b) = tokio::join!(cx.collect(a), cx.collect(b));
    let (a, b) = (a?, b?);
    let rest = |events: &[StreamResponse]| -> Vec<String> {
        events.iter().skip(1).map(describe_event).collect()
    };
    let (ra, rb) = (rest(&a), rest(&b));
    for (name, events) in [("first", &a), ("second", &b)] {
        if !matches!(events.first(), Some(StreamResponse::Task(_))) {
            return Err(fail(
                format!("the {name} subscriber's stream to begin with the Task"),
                describe_events(events),
            ));
        }
        if events.last().map(describe_event).as_deref() != Some("status:COMPLETED") {
            return Err(fail(
                format!("the {name} subscriber to see COMPLETED last"),
                describe_events(events),
            ));
        }
    }
    let (long, short) = if ra.len() >= rb.len() {
        (&ra, &rb)
    } else {
        (&rb, &ra)
    };
    ensure(
        long.ends_with(short),
        "the later subscriber's events to be the tail of the earlier one's",
        format!("{ra:?} and {rb:?}"),
    )?;
    cx.note("same events");
    Ok(())
}

async fn close_one(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    cx.reference(Behaviour::Streamed).await?;
    let gap = cx.timing().stream_gap.as_millis().max(5) * 2;
    let task = cx.start_task(&format!("stream 5 {gap}")).await?;
    let mut a = open_subscription(cx, &task.id).await?;
    let b = open_subscription(cx, &task.id).await?;
    let first = cx.next(&mut a).await?;
    ensure(
        first.is_some(),
        "a first event on the first stream",
        "its end",
    )?;
    drop(a);
    let events = cx.collect(b).await?;
    let chunks = events
        .iter()
        .filter(|e| matches!(e, StreamResponse::ArtifactUpdate(_)))
        .count();
    let last = events.last().map(describe_event).unwrap_or_default();
    ensure(
        last == "status:COMPLETED",
        "the second stream to go on to COMPLETED",
        describe_events(&events),
    )?;
    let task = cx.get(&task.id, None).await?;
    ensure(
        task.artifacts.first().map(|a| a.parts.len()).unwrap_or(0) >= 1 && chunks <= 5,
        "the task's artifact complete",
        format!("{} artifacts", task.artifacts.len()),
    )?;
    cx.note("unaffected");
    Ok(())
}

async fn streaming_gate(cx: &Ctx<'_>) -> Check {
    if cx.card().capabilities.streaming == Some(true) {
        return Err(skip("the card declares capabilities.streaming"));
    }
    let got = cx
        .within(
            cx.svc()
                .send_streaming_message(&cx.cx(), immediately(cx.msg("echo hi"))),
        )
        .await?;
    expect_error(
        got.map(|_| "a stream"),
        ErrorKind::UnsupportedOperation,
        "for SendStreamingMessage",
    )?;
    let got = cx
        .within(cx.svc().subscribe_to_task(
            &cx.cx(),
            SubscribeToTaskRequest {
                id: format!("t-{}", cx.nonce()),
                ..Default::default()
            },
        ))
        .await?;
    expect_error(
        got.map(|_| "a stream"),
        ErrorKind::UnsupportedOperation,
        "for SubscribeToTask",
    )?;
    cx.note("refused");
    Ok(())
}

/// Spec 3.1.6: `SubscribeToTask` "can be used with any task that is not in
/// a terminal state" and its stream "MUST terminate when the task reaches a
/// terminal state"; that rule, not `SendStreamingMessage`'s close at an
/// interrupted state (11.7), governs subscriptions. So a subscriber of an
/// input-required (or auth-required, 7.6.1) task sees the answer resume it
/// and finish.
async fn subscribe_interrupted(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    cx.reference(Behaviour::InputRequired).await?;
    cx.reference(Behaviour::AuthRequired).await?;
    for (text, state) in [
        ("input", TaskState::InputRequired),
        ("auth", TaskState::AuthRequired),
    ] {
        let task = cx.send_task(text).await?;
        ensure(
            task.status.state == state,
            format!("`{text}` answered in {}", state_name(state)),
            state_name(task.status.state),
        )?;
        let mut stream = open_subscription(cx, &task.id).await?;
        match cx.next(&mut stream).await? {
            Some(StreamResponse::Task(t)) if t.status.state == state => {}
            other => {
                return Err(fail(
                    format!("the {} Task first", state_name(state)),
                    other
                        .as_ref()
                        .map_or_else(|| "the end".to_owned(), describe_event),
                ))
            }
        }
        let answer = cx.follow_up(&task.id, &task.context_id, "blue");
        cx.send(SendMessageRequest::new(answer)).await?;
        let rest = cx.collect(stream).await?;
        let last = rest.last().map(describe_event).unwrap_or_default();
        ensure(
            last == "status:COMPLETED",
            format!(
                "the subscription to a {} task to go on to COMPLETED after the answer",
                state_name(state)
            ),
            format!("after the Task: {}", describe_events(&rest)),
        )?;
    }
    cx.note("open until COMPLETED, both interrupted states");
    Ok(())
}

/// A stream item off the wire, without the JSON-RPC envelope.
fn wire_item(cx: &Ctx<'_>, event: Value) -> Value {
    match cx.binding() {
        Binding::JsonRpc => event.get("result").cloned().unwrap_or(Value::Null),
        _ => event,
    }
}

/// `task:STATE`, `status:STATE`, `artifact:<text>` or the member's name.
fn wire_label(item: &Value) -> String {
    let state = |v: &Value| {
        v.pointer("/status/state")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .trim_start_matches("TASK_STATE_")
            .to_owned()
    };
    if let Some(t) = item.get("task") {
        format!("task:{}", state(t))
    } else if let Some(s) = item.get("statusUpdate") {
        format!("status:{}", state(s))
    } else if let Some(a) = item.get("artifactUpdate") {
        let text: String = a
            .pointer("/artifact/parts")
            .and_then(Value::as_array)
            .map(|parts| {
                parts
                    .iter()
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default();
        format!("artifact:{text}")
    } else {
        crate::abbreviate(&item.to_string())
    }
}

/// Every event carries an SSE `id:` (HTML, "Server-sent events"), and each
/// one differs from the one before: a client reconnecting with
/// `Last-Event-ID` (3.1.6) names where it left off.
async fn event_ids(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let reply = stream_req(cx, "stream 3")?.stream(cx).await?;
    let events = reply.sse_events()?;
    ensure(!events.is_empty(), "a stream of events", "an empty stream")?;
    let mut previous: Option<&str> = None;
    for (i, id) in reply.ids.iter().enumerate() {
        ensure(
            !id.is_empty(),
            "an SSE id on every event",
            format!("event {i} without one: ids {:?}", reply.ids),
        )?;
        ensure(
            previous != Some(id.as_str()),
            "a new SSE id on every event",
            format!("event {i} repeats the last event ID: ids {:?}", reply.ids),
        )?;
        previous = Some(id);
    }
    cx.note(format!("ids {:?}", reply.ids));
    Ok(())
}

/// A client that read a stream up to some event, lost the connection and
/// calls `SubscribeToTask` with that event's id as `Last-Event-ID` gets
/// the events after it, not a Task it already has. The stream is read up
/// to the first chunk and resumed from the event before it (WORKING), so
/// the outcome does not depend on timing: the chunk is then the first
/// event the agent owes.
async fn last_event_id(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    cx.reference(Behaviour::Streamed).await?;
    let gap = (cx.timing().slow.as_millis() / 2).max(50);
    let first = stream_req(cx, &format!("stream 4 {gap}"))?
        .stream_events(cx, 3)
        .await?;
    let items: Vec<Value> = first
        .json_events()?
        .into_iter()
        .map(|e| wire_item(cx, e))
        .collect();
    let labels: Vec<String> = items.iter().map(wire_label).collect();
    ensure(
        labels == ["task:SUBMITTED", "status:WORKING", "artifact:chunk 1 "],
        "the Task, WORKING and the first chunk of `stream 4`",
        format!("{labels:?}"),
    )?;
    let task_id = items[0]
        .pointer("/task/id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let working_id = first.ids.get(1).cloned().unwrap_or_default();
    ensure(
        !working_id.is_empty() && first.ids.first() != Some(&working_id),
        "an SSE id of its own on the WORKING event",
        format!("ids {:?}", first.ids),
    )?;
    let resumed = subscribe_req(cx, &task_id)?
        .header("last-event-id", &working_id)
        .stream(cx)
        .await?;
    let labels: Vec<String> = resumed
        .sse_events()?
        .into_iter()
        .map(|e| wire_label(&wire_item(cx, e)))
        .collect();
    let want = [
        "artifact:chunk 1 ",
        "artifact:chunk 2 ",
        "artifact:chunk 3 ",
        "artifact:chunk 4 ",
        "status:COMPLETED",
    ];
    ensure(
        labels == want,
        format!("the events after WORKING ({working_id:?}): {want:?}"),
        format!("{labels:?}"),
    )?;
    cx.note(format!("resumed after {working_id:?}"));
    Ok(())
}
