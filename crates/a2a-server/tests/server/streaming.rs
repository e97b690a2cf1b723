//! Streaming over both bindings (spec 9.4.2, 11.7), decoded back with
//! `a2a_sse::Decoder`.

use a2a_types::{from_slice, StreamResponse, TaskState};
use http::Method;
use serde_json::{json, Value};

use crate::support::*;

fn stream_rpc(text: &str) -> Answer {
    let server = memory_server();
    rpc(
        &server,
        "SendStreamingMessage",
        json!({"message": user_message("m", text)}),
        &[],
    )
}

fn stream_rest(text: &str) -> Answer {
    let server = memory_server();
    rest(
        &server,
        Method::POST,
        "/message:stream",
        Some(json!({"message": user_message("m", text)})),
        &[],
    )
}

#[test]
fn jsonrpc_frames_are_responses_carrying_the_request_id() {
    let a = stream_rpc("hello");
    assert_eq!(a.status, 200);
    assert!(a.streamed);
    assert_eq!(a.header("cache-control"), Some("no-cache"));
    let events = a.events();
    assert_eq!(events.len(), 4);
    let mut states = Vec::new();
    for e in &events {
        assert_eq!(e.event_type, "message");
        let v: Value = serde_json::from_slice(&e.data).unwrap();
        assert_eq!(v["jsonrpc"], "2.0");
        assert_eq!(v["id"], 7);
        let event: StreamResponse = serde_json::from_value(v["result"].clone()).unwrap();
        states.push(event);
    }
    assert!(
        matches!(&states[0], StreamResponse::Task(t) if t.status.state == TaskState::Submitted)
    );
    assert!(
        matches!(&states[3], StreamResponse::StatusUpdate(s) if s.status.state == TaskState::Completed)
    );
}

#[test]
fn rest_frames_are_bare_stream_responses() {
    let a = stream_rest("hello");
    assert_eq!(a.status, 200);
    assert_eq!(a.header("cache-control"), Some("no-cache"));
    let events = a.events();
    assert_eq!(events.len(), 4);
    let decoded: Vec<StreamResponse> = events
        .iter()
        .map(|e| from_slice(&e.data).unwrap())
        .collect();
    assert!(matches!(&decoded[2], StreamResponse::ArtifactUpdate(u) if u.last_chunk));
}

#[test]
fn both_bindings_stream_the_same_events() {
    let a: Vec<Value> = stream_rpc("same")
        .events()
        .iter()
        .map(|e| serde_json::from_slice::<Value>(&e.data).unwrap()["result"].clone())
        .collect();
    let b: Vec<Value> = stream_rest("same")
        .events()
        .iter()
        .map(|e| serde_json::from_slice(&e.data).unwrap())
        .collect();
    assert_eq!(a, b);
}

#[test]
fn an_error_mid_stream_is_a_last_error_frame() {
    let a = stream_rpc("fail-mid-stream");
    assert_eq!(a.status, 200);
    let events = a.events();
    assert_eq!(events.len(), 2);
    assert_eq!(events[1].event_type, "error");
    let v: Value = serde_json::from_slice(&events[1].data).unwrap();
    assert_eq!(v["id"], 7);
    assert_eq!(v["error"]["code"], -32603);
    assert_eq!(v["error"]["message"], "the model went away");

    let b = stream_rest("fail-mid-stream");
    let events = b.events();
    assert_eq!(events.len(), 2);
    assert_eq!(events[1].event_type, "error");
    let v: Value = serde_json::from_slice(&events[1].data).unwrap();
    assert_eq!(v["error"]["code"], 500);
    assert_eq!(v["error"]["status"], "INTERNAL");
    assert_eq!(v["error"]["details"][0]["reason"], "INTERNAL_ERROR");
}

#[test]
fn a_panic_mid_stream_is_a_last_error_frame() {
    for a in [
        stream_rpc("panic-mid-stream"),
        stream_rest("panic-mid-stream"),
    ] {
        let events = a.events();
        assert_eq!(events.len(), 2);
        assert_eq!(events[1].event_type, "error");
        let text = String::from_utf8_lossy(&events[1].data).into_owned();
        assert!(text.contains("panicked"), "{text}");
    }
}

#[test]
fn an_error_before_the_first_event_is_an_ordinary_error_response() {
    let a = stream_rpc("fail");
    assert!(!a.streamed);
    assert_eq!(a.status, 200);
    assert_eq!(rpc_error(&a), (-32006, "INVALID_AGENT_RESPONSE".into()));
    let b = stream_rest("fail");
    assert!(!b.streamed);
    assert_eq!(b.status, 500);
    assert_eq!(rest_error(&b).1, "INVALID_AGENT_RESPONSE");

    // SubscribeToTask for an unknown task: the handler reports it as the
    // stream's first item, the binding answers 404 / -32001.
    let server = memory_server();
    let a = rpc(&server, "SubscribeToTask", json!({"id": "ghost"}), &[]);
    assert_eq!(rpc_error(&a).0, -32001);
    let b = rest(&server, Method::GET, "/tasks/ghost:subscribe", None, &[]);
    assert_eq!(b.status, 404);
}

#[test]
fn a_stream_that_ends_at_once_is_an_empty_event_stream() {
    for a in [stream_rpc("empty"), stream_rest("empty")] {
        assert_eq!(a.status, 200);
        assert_eq!(a.header("content-type"), Some("text/event-stream"));
        assert!(a.body.is_empty());
    }
}

#[test]
fn subscribing_to_a_terminal_task_is_unsupported() {
    let server = memory_server();
    let sent = rpc(
        &server,
        "SendMessage",
        json!({"message": user_message("m", "done")}),
        &[],
    );
    assert_eq!(
        result(&sent)["task"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    let a = rpc(&server, "SubscribeToTask", json!({"id": "task-1"}), &[]);
    assert_eq!(rpc_error(&a), (-32004, "UNSUPPORTED_OPERATION".into()));
    let b = rest(&server, Method::GET, "/tasks/task-1:subscribe", None, &[]);
    assert_eq!(b.status, 400);
    assert_eq!(rest_error(&b).1, "UNSUPPORTED_OPERATION");
}

#[test]
fn keep_alive_frames_are_ignored_by_decoders() {
    let mut wire = a2a_server::keep_alive_frame().to_vec();
    wire.extend_from_slice(&stream_rest("x").body);
    wire.extend_from_slice(&a2a_server::keep_alive_frame());
    assert_eq!(sse_events(&wire).len(), 4);
}

/// An agent whose stream is quiet (pending once) between its two events.
struct Quiet;

impl a2a_server::A2aService for Quiet {
    fn send_streaming_message<'a>(
        &'a self,
        _: &'a a2a_server::CallContext,
        _: a2a_types::SendMessageRequest,
    ) -> a2a_server::BoxFuture<'a, Result<a2a_server::EventStream, a2a_types::A2aError>> {
        use std::pin::Pin;
        use std::task::{Context, Poll};
        struct Events(u8);
        impl futures_core::Stream for Events {
            type Item = Result<StreamResponse, a2a_types::A2aError>;
            fn poll_next(
                mut self: Pin<&mut Self>,
                _: &mut Context<'_>,
            ) -> Poll<Option<Self::Item>> {
                self.0 += 1;
                let task = |state| {
                    Some(Ok(StreamResponse::Task(a2a_types::Task::new(
                        "t-1", "c-1", state,
                    ))))
                };
                match self.0 {
                    1 => Poll::Ready(task(TaskState::Working)),
                    2 => Poll::Pending,
                    3 => Poll::Ready(task(TaskState::Completed)),
                    _ => Poll::Ready(None),
                }
            }
        }
        Box::pin(async { Ok(Box::pin(Events(0)) as a2a_server::EventStream) })
    }
}

fn quiet_server(keep_alive: bool) -> a2a_server::A2aServer<Quiet> {
    let mut config = a2a_server::ServerConfig::new();
    if keep_alive {
        // A timer that is always due: every quiet spell earns a comment.
        let due = |_| -> a2a_server::BoxFuture<'static, ()> { Box::pin(async {}) };
        config = config.with_keep_alive(std::time::Duration::from_secs(15), due);
    }
    let mut card = full_card();
    card.security_schemes.clear();
    a2a_server::A2aServer::new(Quiet, card, config).unwrap()
}

#[test]
fn the_server_sends_keep_alives_in_quiet_streams_when_configured() {
    let params = json!({"message": user_message("m", "hi")});
    for keep_alive in [true, false] {
        let server = quiet_server(keep_alive);
        let answers = [
            rpc(&server, "SendStreamingMessage", params.clone(), &[]),
            rest(
                &server,
                Method::POST,
                "/message:stream",
                Some(params.clone()),
                &[],
            ),
        ];
        for a in answers {
            assert_eq!(a.status, 200);
            let text = String::from_utf8(a.body.to_vec()).unwrap();
            let comments = text.matches(": keep-alive\n").count();
            assert_eq!(comments, usize::from(keep_alive), "{text}");
            if keep_alive {
                // Between the two events, where the stream was quiet.
                let at = text.find(": keep-alive").unwrap();
                assert!(text[..at].contains("WORKING") && text[at..].contains("COMPLETED"));
            }
            assert_eq!(a.events().len(), 2);
        }
    }
}
