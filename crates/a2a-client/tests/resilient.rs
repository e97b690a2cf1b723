//! Resilient streams (spec 3.1.6): drops mid-stream followed by a
//! resubscription, the retry policy and the SSE hints, and the degradation
//! to unary calls for agents that do not stream.

mod support;

use std::sync::Arc;
use std::time::Duration;

use a2a_client::{
    A2aService, Binding, CallContext, ClientFailure, HttpError, HttpTransport, ResilientStream,
    ResilientTransport, RetryPolicy,
};
use a2a_types::{
    A2aError, AgentCard, ErrorKind, Message, SendMessageRequest, StreamResponse,
    SubscribeToTaskRequest, TaskState,
};
use bytes::Bytes;
use serde_json::{json, Value};
use support::{block_on, collect, header, request_json, response, split, Clock, Scripted};

fn resilient(
    binding: Binding,
    policy: RetryPolicy,
) -> (Arc<Scripted>, Clock, ResilientTransport<Arc<Scripted>>) {
    let client = Scripted::new();
    let url = match binding {
        Binding::JsonRpc => "https://agent.example/rpc",
        _ => "https://agent.example/a2a",
    };
    let t = HttpTransport::new(Arc::clone(&client), binding, url).unwrap();
    let clock = Clock::default();
    let r = ResilientTransport::new(t, clock.clone()).with_policy(policy);
    (client, clock, r)
}

fn cx() -> CallContext {
    let mut h = http::HeaderMap::new();
    h.insert("authorization", "Bearer tok".parse().unwrap());
    CallContext::new().with_headers(h)
}

fn send() -> SendMessageRequest {
    SendMessageRequest::new(Message::user_text("m1", "write a greeting"))
}

fn task(state: &str, artifact: Option<&str>) -> Value {
    let mut t = json!({"id": "t1", "contextId": "c1", "status": {"state": state}});
    if let Some(text) = artifact {
        t["artifacts"] = json!([{"artifactId": "a1", "parts": [{"text": text}]}]);
    }
    json!({"task": t})
}

fn status(state: &str) -> Value {
    json!({"statusUpdate": {"taskId": "t1", "contextId": "c1", "status": {"state": state}}})
}

fn chunk(text: &str, append: bool, last: bool) -> Value {
    json!({"artifactUpdate": {"taskId": "t1", "contextId": "c1", "append": append, "lastChunk": last,
           "artifact": {"artifactId": "a1", "parts": [{"text": text}]}}})
}

/// An SSE body of `frames` with ids `e1`, `e2`... from `first_id`, and a
/// `retry:` line when given; JSON-RPC frames echo the request's id.
fn push_stream(
    client: &Scripted,
    binding: Binding,
    frames: Vec<Value>,
    first_id: usize,
    retry_ms: Option<u64>,
    tail: Option<HttpError>,
) {
    client.push_fn(move |req| {
        let rpc_id = (binding == Binding::JsonRpc).then(|| request_json(req)["id"].clone());
        let mut text = String::new();
        if let Some(ms) = retry_ms {
            text.push_str(&format!("retry: {ms}\n\n"));
        }
        for (n, f) in frames.into_iter().enumerate() {
            let data = match &rpc_id {
                Some(id) => json!({"jsonrpc": "2.0", "id": id, "result": f}),
                None => f,
            };
            text.push_str(&format!("id: e{}\ndata: {data}\n\n", first_id + n));
        }
        Ok(response(
            200,
            &[("content-type", "text/event-stream")],
            split(&text, 7, tail),
        ))
    });
}

fn drop_conn() -> Option<HttpError> {
    Some(HttpError::Connection("connection reset by peer".into()))
}

fn open(r: &ResilientTransport<Arc<Scripted>>) -> ResilientStream {
    block_on(r.stream_message(&cx(), send())).unwrap()
}

fn drain(s: &mut ResilientStream) -> Vec<Result<StreamResponse, A2aError>> {
    collect(s)
}

#[test]
fn a_dropped_stream_is_resumed_and_nothing_is_lost() {
    for binding in Binding::JSON {
        let (client, clock, r) = resilient(binding, RetryPolicy::new());
        push_stream(
            &client,
            binding,
            vec![
                task("TASK_STATE_SUBMITTED", None),
                status("TASK_STATE_WORKING"),
                chunk("Hello, ", false, false),
            ],
            1,
            Some(250),
            drop_conn(),
        );
        // While disconnected the agent produced the second chunk: the
        // resubscription starts with the task as it is now.
        push_stream(
            &client,
            binding,
            vec![
                task("TASK_STATE_WORKING", Some("Hello, world")),
                chunk("!", true, true),
                status("TASK_STATE_COMPLETED"),
            ],
            4,
            None,
            None,
        );
        let mut s = open(&r);
        let items = drain(&mut s);
        assert!(items.iter().all(Result::is_ok), "{binding}: {items:?}");
        assert_eq!(
            items.len(),
            6,
            "{binding}: 3 events, then the task and 2 more"
        );
        assert!(
            matches!(items[3], Ok(StreamResponse::Task(_))),
            "resumed stream starts with the task"
        );

        let snap = s.snapshot().unwrap();
        assert_eq!(snap.task().status.state, TaskState::Completed);
        assert_eq!(
            snap.task().artifacts[0].text_content().as_deref(),
            Some("Hello, world!")
        );
        assert!(snap.is_artifact_complete("a1"));
        assert_eq!(s.resumptions(), 1);
        assert!(s.is_settled());
        assert_eq!(s.task_id(), Some("t1"));

        // The server's retry hint was honoured, and the resubscription
        // carried Last-Event-ID, the version and the caller's credentials.
        assert_eq!(clock.waits(), [Duration::from_millis(250)], "{binding}");
        let reqs = client.requests();
        assert_eq!(reqs.len(), 2);
        let resume = &reqs[1];
        assert_eq!(header(resume, "last-event-id"), Some("e3"), "{binding}");
        assert_eq!(header(resume, "a2a-version"), Some("1.0"));
        assert_eq!(header(resume, "authorization"), Some("Bearer tok"));
        assert_eq!(header(resume, "accept"), Some("text/event-stream"));
        match binding {
            Binding::JsonRpc => {
                let body = request_json(resume);
                assert_eq!(body["method"], "SubscribeToTask");
                assert_eq!(body["params"], json!({"id": "t1"}));
            }
            _ => {
                assert_eq!(resume.method(), http::Method::GET);
                assert_eq!(resume.uri().path(), "/a2a/tasks/t1:subscribe");
            }
        }
    }
}

#[test]
fn the_tenant_of_the_call_goes_with_the_resubscription() {
    let (client, _, r) = resilient(Binding::HttpJson, RetryPolicy::new());
    push_stream(
        &client,
        Binding::HttpJson,
        vec![task("TASK_STATE_WORKING", None)],
        1,
        None,
        None,
    );
    push_stream(
        &client,
        Binding::HttpJson,
        vec![task("TASK_STATE_COMPLETED", None)],
        2,
        None,
        None,
    );
    let mut req = send();
    req.tenant = "acme".into();
    let mut s = block_on(r.stream_message(&cx(), req)).unwrap();
    assert_eq!(drain(&mut s).len(), 2);
    let paths: Vec<String> = client
        .requests()
        .iter()
        .map(|r| r.uri().path().to_owned())
        .collect();
    assert_eq!(
        paths,
        ["/a2a/acme/message:stream", "/a2a/acme/tasks/t1:subscribe"]
    );
}

#[test]
fn a_clean_end_before_a_terminal_state_is_resumed_too() {
    let (client, clock, r) = resilient(Binding::HttpJson, RetryPolicy::new());
    push_stream(
        &client,
        Binding::HttpJson,
        vec![task("TASK_STATE_WORKING", None)],
        1,
        None,
        None,
    );
    push_stream(
        &client,
        Binding::HttpJson,
        vec![task("TASK_STATE_COMPLETED", Some("done"))],
        2,
        None,
        None,
    );
    let mut s = open(&r);
    let items = drain(&mut s);
    assert_eq!(items.len(), 2);
    assert_eq!(
        s.snapshot().unwrap().task().status.state,
        TaskState::Completed
    );
    // No hint: the initial delay.
    assert_eq!(clock.waits(), [Duration::from_secs(1)]);
}

#[test]
fn attempts_run_out_with_a_doubling_delay_and_a_clear_error() {
    let policy = RetryPolicy::new()
        .with_max_attempts(3)
        .with_initial_delay(Duration::from_millis(100))
        .with_max_delay(Duration::from_millis(300));
    let (client, clock, r) = resilient(Binding::JsonRpc, policy);
    push_stream(
        &client,
        Binding::JsonRpc,
        vec![task("TASK_STATE_WORKING", None)],
        1,
        None,
        drop_conn(),
    );
    for _ in 0..3 {
        client.push_err(HttpError::Connection("connection refused".into()));
    }
    let mut s = open(&r);
    let items = drain(&mut s);
    assert_eq!(items.len(), 2);
    let err = items[1].as_ref().unwrap_err();
    assert_eq!(
        ClientFailure::of(err),
        Some(ClientFailure::StreamIncomplete)
    );
    assert!(err.message().contains("gave up after 3"), "{err}");
    assert!(err.message().contains("connection refused"), "{err}");
    assert_eq!(err.error_info().unwrap().metadata["taskId"], "t1");
    assert_eq!(
        clock.waits(),
        [
            Duration::from_millis(100),
            Duration::from_millis(200),
            Duration::from_millis(300)
        ]
    );
    assert_eq!(client.requests().len(), 4);
    assert_eq!(s.resumptions(), 0);
}

#[test]
fn attempts_count_again_after_each_delivered_event() {
    let (client, clock, r) = resilient(Binding::HttpJson, RetryPolicy::new().with_max_attempts(1));
    push_stream(
        &client,
        Binding::HttpJson,
        vec![task("TASK_STATE_WORKING", None)],
        1,
        None,
        drop_conn(),
    );
    for n in 0..4 {
        push_stream(
            &client,
            Binding::HttpJson,
            vec![task("TASK_STATE_WORKING", None)],
            2 + n,
            None,
            drop_conn(),
        );
    }
    push_stream(
        &client,
        Binding::HttpJson,
        vec![task("TASK_STATE_COMPLETED", None)],
        9,
        None,
        None,
    );
    let mut s = open(&r);
    let items = drain(&mut s);
    assert!(items.iter().all(Result::is_ok));
    assert_eq!(items.len(), 6);
    assert_eq!(s.resumptions(), 5);
    assert_eq!(clock.waits().len(), 5);
    assert!(
        clock.waits().iter().all(|d| *d == Duration::from_secs(1)),
        "no doubling across successes"
    );
}

#[test]
fn a_task_finished_while_away_is_fetched_once() {
    for binding in Binding::JSON {
        let (client, _, r) = resilient(binding, RetryPolicy::new());
        push_stream(
            &client,
            binding,
            vec![task("TASK_STATE_WORKING", None)],
            1,
            None,
            drop_conn(),
        );
        // SubscribeToTask on a terminal task: UnsupportedOperationError.
        let unsupported = A2aError::unsupported_operation("task t1 is in a terminal state");
        match binding {
            Binding::JsonRpc => client.push_fn(move |req| {
                let id = request_json(req)["id"].clone();
                let body =
                    json!({"jsonrpc": "2.0", "id": id, "error": unsupported.to_jsonrpc_error()});
                Ok(response(
                    200,
                    &[("content-type", "application/json")],
                    vec![Ok(Bytes::from(body.to_string()))],
                ))
            }),
            _ => client.push_body(
                400,
                &[("content-type", "application/json")],
                &serde_json::to_string(&unsupported.to_status()).unwrap(),
            ),
        }
        let final_task = task("TASK_STATE_COMPLETED", Some("all done"))["task"].clone();
        match binding {
            Binding::JsonRpc => client.push_jsonrpc_result(final_task),
            _ => client.push_body(
                200,
                &[("content-type", "application/json")],
                &final_task.to_string(),
            ),
        }
        let mut s = open(&r);
        let items = drain(&mut s);
        assert_eq!(items.len(), 2, "{binding}: {items:?}");
        let Ok(StreamResponse::Task(t)) = &items[1] else {
            panic!("{items:?}")
        };
        assert_eq!(t.status.state, TaskState::Completed);
        assert_eq!(s.snapshot().unwrap().task().artifacts.len(), 1);
        let last = client.last();
        match binding {
            Binding::JsonRpc => assert_eq!(request_json(&last)["method"], "GetTask"),
            _ => assert_eq!(last.uri().path(), "/a2a/tasks/t1"),
        }
    }
}

#[test]
fn settled_streams_are_not_resumed() {
    // Interrupted: input required, then the server closes (or drops).
    let (client, clock, r) = resilient(Binding::HttpJson, RetryPolicy::new());
    push_stream(
        &client,
        Binding::HttpJson,
        vec![
            task("TASK_STATE_WORKING", None),
            status("TASK_STATE_INPUT_REQUIRED"),
        ],
        1,
        None,
        drop_conn(),
    );
    let mut s = open(&r);
    let items = drain(&mut s);
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(Result::is_ok));
    assert!(s.is_settled());
    assert!(clock.waits().is_empty());
    assert_eq!(client.requests().len(), 1);

    // A message-only stream.
    let (client, clock, r) = resilient(Binding::JsonRpc, RetryPolicy::new());
    let reply =
        json!({"message": {"messageId": "r1", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}});
    push_stream(&client, Binding::JsonRpc, vec![reply], 1, None, None);
    let mut s = open(&r);
    assert_eq!(drain(&mut s).len(), 1);
    assert!(s.is_settled());
    assert!(s.snapshot().is_none());
    assert!(clock.waits().is_empty());
}

#[test]
fn failures_that_cannot_be_resumed_are_passed_on() {
    // Dropped before the first event: no task to resubscribe to.
    let (client, clock, r) = resilient(Binding::HttpJson, RetryPolicy::new());
    push_stream(&client, Binding::HttpJson, vec![], 1, None, drop_conn());
    let mut s = open(&r);
    let items = drain(&mut s);
    assert_eq!(items.len(), 1);
    assert_eq!(
        ClientFailure::of(items[0].as_ref().unwrap_err()),
        Some(ClientFailure::Connection)
    );
    assert!(clock.waits().is_empty());

    // The agent's own error frame ends the stream.
    let (client, clock, r) = resilient(Binding::HttpJson, RetryPolicy::new());
    client.push_body(
        200,
        &[("content-type", "text/event-stream")],
        &format!(
            "data: {}\n\ndata: {}\n\n",
            task("TASK_STATE_WORKING", None),
            serde_json::to_string(&A2aError::internal("agent crashed").to_status()).unwrap()
        ),
    );
    let mut s = open(&r);
    let items = drain(&mut s);
    assert_eq!(items.len(), 2);
    assert_eq!(items[1].as_ref().unwrap_err().message(), "agent crashed");
    assert!(clock.waits().is_empty());

    // Opening SendStreamingMessage fails: answered as is, never re-sent.
    let (client, _, r) = resilient(Binding::HttpJson, RetryPolicy::new());
    client.push_err(HttpError::Connection("refused".into()));
    let err = block_on(r.stream_message(&cx(), send())).unwrap_err();
    assert_eq!(ClientFailure::of(&err), Some(ClientFailure::Connection));
    assert_eq!(client.requests().len(), 1);

    // An event of another task.
    let (client, _, r) = resilient(Binding::HttpJson, RetryPolicy::new());
    let other = json!({"statusUpdate": {"taskId": "t2", "contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}});
    push_stream(
        &client,
        Binding::HttpJson,
        vec![task("TASK_STATE_WORKING", None), other],
        1,
        None,
        None,
    );
    let mut s = open(&r);
    let items = drain(&mut s);
    assert_eq!(
        items[1].as_ref().unwrap_err().kind(),
        ErrorKind::InvalidAgentResponse
    );
}

#[test]
fn subscribing_retries_its_first_connection() {
    let (client, clock, r) = resilient(Binding::HttpJson, RetryPolicy::new());
    client.push_err(HttpError::Timeout("connect".into()));
    push_stream(
        &client,
        Binding::HttpJson,
        vec![task("TASK_STATE_COMPLETED", None)],
        1,
        None,
        None,
    );
    let req = SubscribeToTaskRequest {
        id: "t1".into(),
        ..Default::default()
    };
    let stream = block_on(r.subscribe_to_task(&cx(), req.clone())).unwrap();
    let items = collect(stream);
    assert_eq!(items.len(), 1);
    assert!(items[0].is_ok());
    assert_eq!(clock.waits(), [Duration::from_secs(1)]);

    // An agent error to the first subscription is the call's error.
    let (client, _, r) = resilient(Binding::HttpJson, RetryPolicy::new());
    client.push_body(
        404,
        &[("content-type", "application/json")],
        &serde_json::to_string(&A2aError::task_not_found("t1").to_status()).unwrap(),
    );
    let err = block_on(r.subscribe_to_task(&cx(), req)).err().unwrap();
    assert_eq!(err.kind(), ErrorKind::TaskNotFound);

    // With no attempts allowed, the first failure is the answer.
    let (client, _, r) = resilient(Binding::HttpJson, RetryPolicy::NEVER);
    client.push_err(HttpError::Timeout("connect".into()));
    let req = SubscribeToTaskRequest {
        id: "t1".into(),
        ..Default::default()
    };
    let err = block_on(r.stream_task(&cx(), req)).unwrap_err();
    assert_eq!(
        ClientFailure::of(&err),
        Some(ClientFailure::StreamIncomplete)
    );
}

fn card(streaming: Option<bool>) -> AgentCard {
    let mut card = AgentCard::default();
    card.capabilities.streaming = streaming;
    card
}

#[test]
fn agents_that_do_not_stream_get_one_unary_call() {
    for binding in Binding::JSON {
        for streaming in [None, Some(false)] {
            let (client, clock, r) = resilient(binding, RetryPolicy::new());
            let r = r.with_card(&card(streaming));
            assert!(!r.streams());
            let answer = task("TASK_STATE_COMPLETED", Some("done"));
            match binding {
                Binding::JsonRpc => client.push_jsonrpc_result(answer.clone()),
                _ => client.push_body(
                    200,
                    &[("content-type", "application/json")],
                    &answer.to_string(),
                ),
            }
            let items = collect(block_on(r.send_streaming_message(&cx(), send())).unwrap());
            assert_eq!(items.len(), 1);
            assert_eq!(
                serde_json::to_value(items[0].as_ref().unwrap()).unwrap(),
                answer
            );
            let req = client.last();
            match binding {
                Binding::JsonRpc => assert_eq!(request_json(&req)["method"], "SendMessage"),
                _ => assert_eq!(req.uri().path(), "/a2a/message:send"),
            }
            assert_ne!(header(&req, "accept"), Some("text/event-stream"));

            // A direct message reply is a one-message stream.
            let reply = json!({"message": {"messageId": "r1", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}});
            match binding {
                Binding::JsonRpc => client.push_jsonrpc_result(reply.clone()),
                _ => client.push_body(
                    200,
                    &[("content-type", "application/json")],
                    &reply.to_string(),
                ),
            }
            let items = collect(block_on(r.send_streaming_message(&cx(), send())).unwrap());
            assert!(matches!(items.as_slice(), [Ok(StreamResponse::Message(_))]));

            // Subscribe: one GetTask.
            let current = task("TASK_STATE_WORKING", None)["task"].clone();
            match binding {
                Binding::JsonRpc => client.push_jsonrpc_result(current),
                _ => client.push_body(
                    200,
                    &[("content-type", "application/json")],
                    &current.to_string(),
                ),
            }
            let req = SubscribeToTaskRequest {
                id: "t1".into(),
                ..Default::default()
            };
            let items = collect(block_on(r.subscribe_to_task(&cx(), req)).unwrap());
            assert!(matches!(items.as_slice(), [Ok(StreamResponse::Task(_))]));
            match binding {
                Binding::JsonRpc => assert_eq!(request_json(&client.last())["method"], "GetTask"),
                _ => assert_eq!(client.last().uri().path(), "/a2a/tasks/t1"),
            }
            assert!(clock.waits().is_empty());
        }
    }
    let (_, _, r) = resilient(Binding::JsonRpc, RetryPolicy::new());
    assert!(r.with_card(&card(Some(true))).streams());
}

#[test]
fn unary_calls_pass_through() {
    let (client, _, r) = resilient(Binding::HttpJson, RetryPolicy::new());
    let answer = task("TASK_STATE_WORKING", None)["task"].clone();
    client.push_body(
        200,
        &[("content-type", "application/json")],
        &answer.to_string(),
    );
    let t = block_on(r.get_task(&cx(), a2a_types::GetTaskRequest::new("t1"))).unwrap();
    assert_eq!(t.id, "t1");
    assert_eq!(r.transport().binding(), Binding::HttpJson);
    assert_eq!(r.policy().max_attempts, 5);
    assert!(format!("{r:?}").contains("ResilientTransport"));
}
