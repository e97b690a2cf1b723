//! A server with the 1.1 draft (`--features draft-1-1`) serving 1.0 and
//! 1.1: `A2A-Version: 1.1` gets the draft's fields, a 1.0 caller of the
//! same server gets pure 1.0 (spec 3.6), in both directions.
#![cfg(feature = "draft-1-1")]

use std::sync::Mutex;

use a2a_server::{A2aServer, A2aService, BoxFuture, CallContext, ProtocolVersion, ServerConfig};
use a2a_types::draft_1_1::TimelineEntry;
use a2a_types::{A2aError, Artifact, GetTaskRequest, Message, Task, TaskState, TaskStatus};
use bytes::Bytes;
use http::Request;
use serde_json::json;

use crate::support::*;

/// Answers every GetTask with a task at generation 3 and remembers the
/// request it was handed.
#[derive(Default)]
struct Generations {
    seen: Mutex<Vec<GetTaskRequest>>,
}

impl A2aService for Generations {
    fn get_task<'a>(
        &'a self,
        _: &'a CallContext,
        request: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        self.seen.lock().unwrap().push(request.clone());
        Box::pin(async move {
            let mut task = Task::new(request.id, "c", TaskState::Working);
            task.generation = 3;
            task.timeline = vec![
                TimelineEntry::message(Message::user_text("m", "hi"), 1),
                TimelineEntry::status(TaskStatus::new(TaskState::Working), 2),
            ];
            let mut artifact = Artifact::text("a", "x");
            artifact.start_generation = 3;
            task.artifacts.push(artifact);
            Ok(task)
        })
    }
}

fn server() -> A2aServer<Generations> {
    let config = ServerConfig::new().with_versions([ProtocolVersion::V1_0, ProtocolVersion::V1_1]);
    let card = card_for(&config);
    A2aServer::new(Generations::default(), card, config).unwrap()
}

fn get_task(server: &A2aServer<Generations>, version: &str) -> Answer {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask",
        "params": {"id": "t-1", "currentGeneration": "2", "timelineLength": 1}});
    let req = Request::post("/")
        .header("content-type", "application/json")
        .header("a2a-version", version)
        .body(Bytes::from(serde_json::to_vec(&body).unwrap()))
        .unwrap();
    send(server, req)
}

#[test]
fn a_1_1_caller_gets_the_drafts_fields() {
    let server = server();
    let a = get_task(&server, "1.1");
    let task = &a.json()["result"];
    assert_eq!(task["generation"], "3", "{task}");
    assert_eq!(task["timeline"][1]["generation"], "2");
    assert_eq!(task["artifacts"][0]["startGeneration"], "3");
    let seen = server.service().seen.lock().unwrap().clone();
    assert_eq!(seen[0].current_generation, Some(2));
    assert_eq!(seen[0].timeline_length, Some(1));
}

#[test]
fn a_1_0_caller_of_the_same_server_sees_pure_1_0() {
    let server = server();
    let a = get_task(&server, "1.0");
    let text = String::from_utf8(a.body.to_vec()).unwrap();
    assert!(a.json()["result"]["id"] == "t-1", "{text}");
    for key in ["generation", "timeline", "startGeneration"] {
        assert!(!text.contains(key), "{key} in a 1.0 answer: {text}");
    }
    let seen = server.service().seen.lock().unwrap().clone();
    assert_eq!(
        seen[0],
        GetTaskRequest::new("t-1"),
        "1.1 fields cleared on the way in"
    );
}

#[test]
fn the_http_json_query_reads_current_generation() {
    let server = server();
    let req = Request::get("/tasks/t-1?currentGeneration=7&timelineLength=2")
        .header("a2a-version", "1.1")
        .body(Bytes::new())
        .unwrap();
    let a = send(&server, req);
    assert_eq!(a.status, 200, "{:?}", a.json());
    let seen = server.service().seen.lock().unwrap().clone();
    assert_eq!(seen[0].current_generation, Some(7));
    assert_eq!(seen[0].timeline_length, Some(2));
    let bad = send(
        &server,
        Request::get("/tasks/t-1?currentGeneration=soon")
            .header("a2a-version", "1.1")
            .body(Bytes::new())
            .unwrap(),
    );
    assert_eq!(bad.status, 400);
}

#[test]
fn version_1_1_is_refused_where_it_is_not_served() {
    let config = ServerConfig::new();
    let server = A2aServer::new(Generations::default(), card_for(&config), config).unwrap();
    let a = get_task(&server, "1.1");
    assert_eq!(rpc_error(&a).0, -32009, "{:?}", a.json());
}

#[test]
fn serving_1_1_needs_a_card_that_declares_it() {
    let config = ServerConfig::new().with_versions([ProtocolVersion::V1_0, ProtocolVersion::V1_1]);
    let only_1_0 = card_for(&ServerConfig::new());
    let err = A2aServer::new(Generations::default(), only_1_0, config).err();
    assert!(
        matches!(err, Some(a2a_server::ConfigError::UndeclaredVersion)),
        "{err:?}"
    );
}
