//! A host's integration test of its client against a scripted agent: our
//! `HttpTransport` and `ResilientTransport` talking to an
//! `a2a_test_peer::TestPeer`, found through its card like any agent, with
//! the peer's recording checked for what the client sent.

use std::time::Duration;

use a2a_hyper::HyperClient;
use a2a_test_peer::{Respond, Step, TestPeer};
use a2a_transport::client::{Preferences, ResilientTransport, RetryPolicy};
use a2a_transport::{discover, A2aService, Binding, BoxFuture, CallContext};
use a2a_types::{
    A2aError, A2aRequest, Artifact, ErrorKind, Message, Operation, Part, SendMessageRequest,
    SendMessageResponse, StreamResponse, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use futures_util::StreamExt;

fn update(state: TaskState) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: "t-1".into(),
        context_id: "c-1".into(),
        status: TaskStatus::new(state),
        ..Default::default()
    })
}

fn artifact(text: &str) -> StreamResponse {
    StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent {
        task_id: "t-1".into(),
        context_id: "c-1".into(),
        artifact: Artifact::new("a-1", vec![Part::text(text)]),
        ..Default::default()
    })
}

#[tokio::test]
async fn the_client_sends_what_the_spec_asks_on_both_bindings() {
    let peer = TestPeer::builder().tenant("acme").start().await.unwrap();
    peer.on(Operation::SendMessage, |call| {
        let mut task = Task::new("t-1", "c-1", TaskState::Completed);
        task.artifacts.push(Artifact::new(
            "a-1",
            vec![Part::text(call.text().to_uppercase())],
        ));
        task
    });
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let prefs = Preferences::new().with_bindings([binding]);
        let agent = discover(HyperClient::new(), peer.url(), &prefs)
            .await
            .unwrap();
        assert_eq!(agent.transport.binding(), binding);
        let request = SendMessageRequest::new(Message::user_text("m-1", "shout"));
        let SendMessageResponse::Task(task) = agent
            .transport
            .send_message(&CallContext::new(), request)
            .await
            .unwrap()
        else {
            panic!("the script answers a task")
        };
        assert_eq!(task.artifacts[0].text_content().as_deref(), Some("SHOUT"));

        let sent = peer.received_for(Operation::SendMessage).pop().unwrap();
        assert_eq!(sent.header("a2a-version"), Some("1.0"));
        // The interface's tenant travels as the spec's binding says:
        // in the params on JSON-RPC, as the path prefix on HTTP+JSON.
        match binding {
            Binding::JsonRpc => {
                assert_eq!(sent.path, "/jsonrpc");
                assert_eq!(sent.json().unwrap()["params"]["tenant"], "acme");
            }
            _ => assert_eq!(sent.path, "/rest/acme/message:send"),
        }
        let Some(A2aRequest::SendMessage(r)) = sent.request() else {
            panic!("a typed SendMessage")
        };
        assert_eq!(r.tenant, "acme");
    }
}

#[tokio::test]
async fn the_client_reports_an_agent_error_with_its_details() {
    let peer = TestPeer::start().await.unwrap();
    peer.answer(
        Operation::CancelTask,
        A2aError::task_not_cancelable("t-1", "completed"),
    );
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let agent = discover(
            HyperClient::new(),
            peer.url(),
            &Preferences::new().with_bindings([binding]),
        )
        .await
        .unwrap();
        let request = a2a_types::CancelTaskRequest {
            id: "t-1".into(),
            ..Default::default()
        };
        let e = agent
            .transport
            .cancel_task(&CallContext::new(), request)
            .await
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TaskNotCancelable, "{binding:?}");
        assert_eq!(e.error_info().unwrap().reason, "TASK_NOT_CANCELABLE");
    }
}

#[tokio::test]
async fn the_resilient_client_resumes_a_dropped_stream_with_subscribe() {
    let peer = TestPeer::start().await.unwrap();
    // The stream drops after the working update, before any terminal state.
    peer.answer(
        Operation::SendStreamingMessage,
        Respond::Stream(vec![
            Step::Labeled(
                "e1".into(),
                StreamResponse::Task(Task::new("t-1", "c-1", TaskState::Submitted)),
            ),
            Step::Labeled("e2".into(), update(TaskState::Working)),
            Step::Drop,
        ]),
    );
    // The resubscription resumes after the last event the client saw.
    peer.on(Operation::SubscribeToTask, |call| {
        if call.context.last_event_id() == Some("e2") {
            Respond::Stream(vec![
                Step::Sleep(Duration::from_millis(10)),
                Step::Labeled("e3".into(), artifact("done")),
                Step::Labeled("e4".into(), update(TaskState::Completed)),
            ])
        } else {
            Respond::Error(A2aError::internal("resumed without Last-Event-ID e2"))
        }
    });
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let agent = discover(
            HyperClient::new(),
            peer.url(),
            &Preferences::new().with_bindings([binding]),
        )
        .await
        .unwrap();
        let timer = |d: Duration| -> BoxFuture<'static, ()> { Box::pin(tokio::time::sleep(d)) };
        let client = ResilientTransport::new(agent.transport, timer).with_policy(
            RetryPolicy::new()
                .with_max_attempts(2)
                .with_initial_delay(Duration::from_millis(10)),
        );
        let request = SendMessageRequest::new(Message::user_text("m-1", "work"));
        let mut stream = client
            .stream_message(&CallContext::new(), request)
            .await
            .unwrap();
        let mut events = Vec::new();
        while let Some(event) = stream.next().await {
            events.push(event.unwrap());
        }
        assert_eq!(events.len(), 4, "{binding:?}: {events:?}");
        assert!(matches!(&events[2], StreamResponse::ArtifactUpdate(_)));
        assert!(
            matches!(&events[3], StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed)
        );
        let subscribed = peer.received_for(Operation::SubscribeToTask).pop().unwrap();
        assert_eq!(subscribed.header("last-event-id"), Some("e2"));
        let Some(A2aRequest::SubscribeToTask(r)) = subscribed.request() else {
            panic!("a typed SubscribeToTask")
        };
        assert_eq!(r.id, "t-1");
    }
    assert_eq!(peer.received_for(Operation::SubscribeToTask).len(), 2);
}

#[tokio::test]
async fn the_plain_client_reports_a_dropped_stream_as_a_retryable_failure() {
    let peer = TestPeer::start().await.unwrap();
    peer.answer(
        Operation::SendStreamingMessage,
        Respond::Stream(vec![
            Step::Event(StreamResponse::Task(Task::new(
                "t-1",
                "c-1",
                TaskState::Working,
            ))),
            Step::Drop,
        ]),
    );
    let agent = discover(HyperClient::new(), peer.url(), &Preferences::new())
        .await
        .unwrap();
    let mut stream = agent
        .transport
        .send_streaming_message(
            &CallContext::new(),
            SendMessageRequest::new(Message::user_text("m-1", "work")),
        )
        .await
        .unwrap();
    assert!(matches!(
        stream.next().await,
        Some(Ok(StreamResponse::Task(_)))
    ));
    let e = stream.next().await.unwrap().unwrap_err();
    let failure = a2a_transport::client::ClientFailure::of(&e);
    assert!(failure.is_some_and(|f| f.is_retryable()), "{e:?}");
}
