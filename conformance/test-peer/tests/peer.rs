//! The peer through the product's own client: scripts, defaults, errors,
//! streams with waits and drops, wire answers, the recording and its limit,
//! and shutdown on drop.

use std::time::Duration;

use a2a_hyper::HyperClient;
use a2a_test_peer::{sse_event, Chunk, Respond, Step, TestPeer, WireReply};
use a2a_transport::client::ClientFailure;
use a2a_transport::{A2aService, Binding, CallContext, HttpTransport};
use a2a_types::{
    A2aError, BadRequest, ErrorDetail, ErrorKind, FieldViolation, GetTaskRequest, Message,
    Operation, SendMessageRequest, SendMessageResponse, StreamResponse, Task, TaskState,
    TaskStatus, TaskStatusUpdateEvent,
};
use futures_util::StreamExt;

fn client(peer: &TestPeer, binding: Binding) -> HttpTransport<HyperClient> {
    let url = peer.url_of(binding).expect("served binding");
    HttpTransport::new(HyperClient::new(), binding, &url).expect("valid url")
}

fn get(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        id: id.into(),
        ..Default::default()
    }
}

fn status(task: &str, state: TaskState) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: task.into(),
        context_id: "c-1".into(),
        status: TaskStatus::new(state),
        ..Default::default()
    })
}

#[tokio::test]
async fn a_script_answers_on_both_bindings_and_every_request_is_recorded() {
    let peer = TestPeer::start().await.unwrap();
    peer.on(Operation::GetTask, |call| {
        Task::new(call.task_id().unwrap_or("?"), "c-1", TaskState::Working)
    });
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let task = client(&peer, binding)
            .get_task(&CallContext::new(), get("t-7"))
            .await
            .unwrap();
        assert_eq!(
            (task.id.as_str(), task.status.state),
            ("t-7", TaskState::Working)
        );
    }
    let got = peer.received_for(Operation::GetTask);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].path, "/jsonrpc");
    assert_eq!(got[0].json().unwrap()["method"], "GetTask");
    assert_eq!(got[1].method, http::Method::GET);
    assert_eq!(got[1].path_only(), "/rest/tasks/t-7");
    assert!(got.iter().all(|r| r.header("a2a-version") == Some("1.0")));
    assert!(got.iter().all(|r| r.status == Some(http::StatusCode::OK)));
    // The peer's own bookkeeping header never shows.
    assert!(got
        .iter()
        .all(|r| r.headers.keys().all(|k| !k.as_str().contains("test-peer"))));
}

#[tokio::test]
async fn unscripted_operations_answer_the_trait_default() {
    let peer = TestPeer::start().await.unwrap();
    let e = client(&peer, Binding::HttpJson)
        .get_task(&CallContext::new(), get("t-1"))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnsupportedOperation);
    peer.answer(
        Operation::GetTask,
        Task::new("t-1", "c", TaskState::Completed),
    );
    assert!(client(&peer, Binding::HttpJson)
        .get_task(&CallContext::new(), get("t-1"))
        .await
        .is_ok());
    peer.reset(Operation::GetTask);
    assert!(client(&peer, Binding::HttpJson)
        .get_task(&CallContext::new(), get("t-1"))
        .await
        .is_err());
}

#[tokio::test]
async fn an_error_keeps_its_details_on_both_bindings() {
    let peer = TestPeer::start().await.unwrap();
    let error = A2aError::new(ErrorKind::InvalidParams, "bad id").with_detail(
        ErrorDetail::BadRequest(BadRequest {
            field_violations: vec![FieldViolation {
                field: "id".into(),
                description: "too short".into(),
            }],
        }),
    );
    peer.answer(Operation::GetTask, error);
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let e = client(&peer, binding)
            .get_task(&CallContext::new(), get("t"))
            .await
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidParams, "{binding:?}");
        assert_eq!(e.field_violations().next().unwrap().field, "id");
        assert_eq!(e.error_info().unwrap().reason, "INVALID_PARAMS");
    }
}

#[tokio::test]
async fn answers_in_turn_repeat_the_last() {
    let peer = TestPeer::start().await.unwrap();
    peer.answer_in_turn(
        Operation::GetTask,
        vec![
            Task::new("t", "c", TaskState::Working).into(),
            Task::new("t", "c", TaskState::Completed).into(),
        ],
    );
    let c = client(&peer, Binding::JsonRpc);
    let mut states = Vec::new();
    for _ in 0..3 {
        states.push(
            c.get_task(&CallContext::new(), get("t"))
                .await
                .unwrap()
                .status
                .state,
        );
    }
    assert_eq!(
        states,
        [
            TaskState::Working,
            TaskState::Completed,
            TaskState::Completed
        ]
    );
}

#[tokio::test]
async fn a_stream_waits_and_then_drops_the_connection() {
    let peer = TestPeer::start().await.unwrap();
    peer.answer(
        Operation::SendStreamingMessage,
        Respond::Stream(vec![
            Step::Event(StreamResponse::Task(Task::new(
                "t",
                "c-1",
                TaskState::Submitted,
            ))),
            Step::Sleep(Duration::from_millis(50)),
            Step::Event(status("t", TaskState::Working)),
            Step::Drop,
            Step::Event(status("t", TaskState::Completed)),
        ]),
    );
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let c = client(&peer, binding);
        let mut stream = c
            .send_streaming_message(
                &CallContext::new(),
                SendMessageRequest::new(Message::user_text("m", "go")),
            )
            .await
            .unwrap();
        let mut events = Vec::new();
        while let Some(item) = stream.next().await {
            events.push(item);
        }
        assert_eq!(events.len(), 3, "{binding:?}: {events:?}");
        assert!(events[0].is_ok() && events[1].is_ok());
        let e = events[2].as_ref().unwrap_err();
        assert!(
            ClientFailure::of(e).is_some_and(ClientFailure::is_retryable),
            "{e:?}"
        );
    }
}

#[tokio::test]
async fn an_error_step_is_an_error_frame() {
    let peer = TestPeer::start().await.unwrap();
    peer.answer(
        Operation::SubscribeToTask,
        Respond::Stream(vec![
            Step::Labeled(
                "ev-9".into(),
                StreamResponse::Task(Task::new("t", "c", TaskState::Working)),
            ),
            Step::Error(A2aError::task_not_found("t")),
        ]),
    );
    let c = client(&peer, Binding::HttpJson);
    let mut stream = c
        .stream_task(
            &CallContext::new(),
            a2a_types::SubscribeToTaskRequest {
                id: "t".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(stream.next().await.unwrap().is_ok());
    assert_eq!(stream.last_event_id(), "ev-9");
    let e = stream.next().await.unwrap().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TaskNotFound);
    assert!(stream.next().await.is_none());
}

#[tokio::test]
async fn a_wire_answer_replaces_the_server_bytes() {
    let peer = TestPeer::start().await.unwrap();
    // snake_case names, an enum number and an unknown member, as ProtoJSON
    // readers must accept them.
    peer.on(Operation::GetTask, |call| {
        if call.jsonrpc_id.is_some() {
            WireReply::jsonrpc_result(
                call,
                r#"{"id":"t","context_id":"c","status":{"state":3},"future":1}"#,
            )
        } else {
            WireReply::json(r#"{"id":"t","context_id":"c","status":{"state":3},"future":1}"#)
        }
    });
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let task = client(&peer, binding)
            .get_task(&CallContext::new(), get("t"))
            .await
            .unwrap();
        assert_eq!(
            (task.context_id.as_str(), task.status.state),
            ("c", TaskState::Completed)
        );
    }
    peer.answer(
        Operation::SendStreamingMessage,
        WireReply::sse([
            Chunk::Data(": keep-alive\n\n".into()),
            sse_event(
                Some("1"),
                r#"{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}"#,
            ),
            Chunk::Sleep(Duration::from_millis(20)),
            Chunk::Drop,
        ]),
    );
    let c = client(&peer, Binding::HttpJson);
    let mut stream = c
        .stream_message(
            &CallContext::new(),
            SendMessageRequest::new(Message::user_text("m", "go")),
        )
        .await
        .unwrap();
    assert!(matches!(
        stream.next().await,
        Some(Ok(StreamResponse::Task(_)))
    ));
    assert!(matches!(stream.next().await, Some(Err(_))));
    assert_eq!(peer.received_for(Operation::SendStreamingMessage).len(), 1);
}

#[tokio::test]
async fn a_direct_message_answers_send_message() {
    let peer = TestPeer::start().await.unwrap();
    peer.answer(Operation::SendMessage, Message::agent_text("r-1", "hi"));
    let reply = client(&peer, Binding::JsonRpc)
        .send_message(
            &CallContext::new(),
            SendMessageRequest::new(Message::user_text("m", "hello")),
        )
        .await
        .unwrap();
    assert!(matches!(reply, SendMessageResponse::Message(m) if m.message_id == "r-1"));
    let sent = &peer.received_for(Operation::SendMessage)[0];
    let Some(a2a_types::A2aRequest::SendMessage(r)) = sent.request() else {
        panic!("typed request recorded")
    };
    assert_eq!(r.message.message_id, "m");
}

#[tokio::test]
async fn the_recording_keeps_the_first_requests_and_counts_the_rest() {
    let peer = TestPeer::builder().max_records(2).start().await.unwrap();
    let c = client(&peer, Binding::JsonRpc);
    for _ in 0..4 {
        let _ = c.get_task(&CallContext::new(), get("t")).await;
    }
    assert_eq!(peer.received().len(), 2);
    assert_eq!(peer.total_received(), 4);
}

#[tokio::test]
async fn keep_alive_comments_go_out_while_a_stream_waits() {
    let peer = TestPeer::builder()
        .keep_alive(Duration::from_millis(20))
        .start()
        .await
        .unwrap();
    peer.answer(
        Operation::SendStreamingMessage,
        Respond::Stream(vec![
            Step::Event(StreamResponse::Task(Task::new(
                "t",
                "c",
                TaskState::Working,
            ))),
            Step::Sleep(Duration::from_millis(120)),
            Step::Event(status("t", TaskState::Completed)),
        ]),
    );
    let request = http::Request::post(peer.rest_url() + "/message:stream")
        .header("a2a-version", "1.0")
        .header("content-type", "application/json")
        .body(bytes::Bytes::from_static(
            br#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}"#,
        ))
        .unwrap();
    let response = a2a_transport::HttpClient::send(&HyperClient::new(), request)
        .await
        .unwrap();
    let mut body = response.into_body();
    let mut text = Vec::new();
    while let Some(chunk) = std::future::poll_fn(|cx| {
        futures_util::Stream::poll_next(std::pin::Pin::new(&mut body), cx)
    })
    .await
    {
        text.extend_from_slice(&chunk.unwrap());
    }
    let text = String::from_utf8(text).unwrap();
    assert!(text.starts_with("id: 1\n"), "{text}");
    assert!(text.contains("\n:"), "a comment while waiting: {text}");
    assert!(text.contains("TASK_STATE_COMPLETED"), "{text}");
}

#[tokio::test]
async fn dropping_the_peer_stops_its_server() {
    let peer = TestPeer::start().await.unwrap();
    let url = peer.jsonrpc_url();
    drop(peer);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let c = HttpTransport::new(HyperClient::new(), Binding::JsonRpc, &url).unwrap();
    let e = c.get_task(&CallContext::new(), get("t")).await.unwrap_err();
    assert_eq!(
        ClientFailure::of(&e),
        Some(ClientFailure::Connection),
        "{e:?}"
    );
}

#[tokio::test]
async fn the_card_names_both_interfaces_and_the_tenant() {
    let peer = TestPeer::builder().tenant("acme").start().await.unwrap();
    let card = peer.card();
    assert_eq!(card.supported_interfaces.len(), 2);
    assert!(card.supported_interfaces.iter().all(|i| i.tenant == "acme"));
    let response = a2a_transport::HttpClient::send(
        &HyperClient::new(),
        http::Request::get(peer.card_url())
            .body(bytes::Bytes::new())
            .unwrap(),
    )
    .await
    .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(peer.received()[0].path, "/.well-known/agent-card.json");
    assert!(peer.received()[0].requests.is_empty());
}
