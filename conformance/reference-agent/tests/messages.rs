//! SendMessage: ids, contexts, blocking, direct replies, the behaviour
//! contract and multi-turn (spec 3.1.1, 3.2.2, 3.4, 7.6).

mod support;

use std::time::{Duration, Instant};

use a2a_transport::A2aService;
use a2a_types::{
    CancelTaskRequest, ErrorKind, Message, Part, PartContent, Role, SendMessageResponse, TaskState,
};
use support::*;

#[tokio::test]
async fn ids_are_generated_and_a_given_context_is_kept() {
    let agent = agent();
    let a = run(&agent, "echo one").await;
    let b = run(&agent, "echo two").await;
    assert!(!a.id.is_empty() && !a.context_id.is_empty());
    assert_ne!(a.id, b.id);
    assert_ne!(
        a.context_id, b.context_id,
        "a new context for each message without one"
    );

    let mut m = msg("m-ctx", "echo three");
    m.context_id = "my-context".into();
    let c = send_task(&agent, &cx(), request(m)).await;
    assert_eq!(c.context_id, "my-context");
    // The user's message is in the history, bound to the task.
    let first = &c.history[0];
    assert_eq!(
        (first.task_id.as_str(), first.context_id.as_str()),
        (c.id.as_str(), "my-context")
    );
}

#[tokio::test]
async fn a_client_task_id_must_name_an_existing_task() {
    let agent = agent();
    let mut m = msg("m1", "echo x");
    m.task_id = "no-such-task".into();
    let err = agent.send_message(&cx(), request(m)).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TaskNotFound);
    assert!(err.message().contains("no-such-task"));
}

#[tokio::test]
async fn a_mismatched_context_is_rejected_and_a_bare_task_id_lands_in_the_task_context() {
    let agent = agent();
    let task = run(&agent, "input").await;
    assert_eq!(task.status.state, TaskState::InputRequired);

    let mut wrong = msg("m2", "blue");
    wrong.task_id = task.id.clone();
    wrong.context_id = "another-context".into();
    let err = agent.send_message(&cx(), request(wrong)).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidParams);
    assert_eq!(
        err.field_violations().next().unwrap().field,
        "message.contextId"
    );
    // The task did not move.
    assert_eq!(
        get(&agent, &cx(), &task.id).await.unwrap().status.state,
        TaskState::InputRequired
    );

    let mut bare = msg("m3", "blue");
    bare.task_id = task.id.clone();
    let done = send_task(&agent, &cx(), request(bare)).await;
    assert_eq!(done.status.state, TaskState::Completed);
    assert_eq!(done.context_id, task.context_id);
    let last_user = done
        .history
        .iter()
        .rev()
        .find(|m| m.role == Role::User)
        .unwrap();
    assert_eq!(last_user.context_id, task.context_id);
}

#[tokio::test]
async fn messages_to_terminal_tasks_are_unsupported() {
    let agent = agent();
    for text in ["echo x", "fail", "reject"] {
        let task = run(&agent, text).await;
        assert!(task.status.state.is_terminal());
        let mut m = msg("again", "more");
        m.task_id = task.id.clone();
        let err = agent
            .send_message(&cx(), request(m.clone()))
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnsupportedOperation, "{text}");
        let err = agent
            .send_streaming_message(&cx(), request(m))
            .await
            .err()
            .unwrap();
        assert_eq!(err.kind(), ErrorKind::UnsupportedOperation, "{text}");
    }
}

#[tokio::test]
async fn blocking_by_default_and_return_immediately_honoured() {
    let agent = agent();
    let started = Instant::now();
    let done = send_task(&agent, &cx(), request(msg("b1", "slow 150"))).await;
    assert_eq!(done.status.state, TaskState::Completed);
    assert!(started.elapsed() >= Duration::from_millis(150));

    let started = Instant::now();
    let task = send_task(&agent, &cx(), immediate(msg("b2", "slow 2000"))).await;
    assert!(started.elapsed() < Duration::from_millis(500));
    assert_eq!(task.status.state, TaskState::Submitted);
    assert!(task.status.timestamp.is_some());
    eventually_state(&agent, &task.id, TaskState::Working).await;
    agent
        .cancel_task(&cx(), CancelTaskRequest::new(&task.id))
        .await
        .unwrap();

    // Blocking returns at an interrupted state too.
    assert_eq!(
        run(&agent, "input").await.status.state,
        TaskState::InputRequired
    );
    assert_eq!(
        run(&agent, "auth").await.status.state,
        TaskState::AuthRequired
    );
}

async fn eventually_state(agent: &a2a_reference_agent::ReferenceAgent, id: &str, state: TaskState) {
    for _ in 0..500 {
        if get(agent, &cx(), id).await.unwrap().status.state == state {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("task {id} never reached {state}");
}

#[tokio::test]
async fn direct_message_replies() {
    let agent = agent();
    let mut m = msg("d1", "message hello there");
    m.context_id = "ctx-d".into();
    let SendMessageResponse::Message(reply) = agent.send_message(&cx(), request(m)).await.unwrap()
    else {
        panic!("expected a message");
    };
    assert_eq!(reply.role, Role::Agent);
    assert_eq!(reply.text_content().as_deref(), Some("hello there"));
    assert_eq!(reply.context_id, "ctx-d");
    assert!(reply.task_id.is_empty() && !reply.message_id.is_empty());
    assert_eq!(agent.task_count(), 0, "a direct reply creates no task");

    let SendMessageResponse::Message(reply) = agent
        .send_message(&cx(), request(msg("d2", "message x")))
        .await
        .unwrap()
    else {
        panic!("expected a message");
    };
    assert!(
        !reply.context_id.is_empty(),
        "a generated context is returned (3.4.1)"
    );
}

#[tokio::test]
async fn the_text_contract() {
    let agent = agent();

    let t = run(&agent, "echo hello world").await;
    assert_eq!(t.status.state, TaskState::Completed);
    assert_eq!(t.artifacts.len(), 1);
    assert_eq!(
        t.artifacts[0].text_content().as_deref(),
        Some("hello world")
    );

    let t = run(&agent, "anything else").await;
    assert_eq!(t.status.state, TaskState::Completed);
    assert_eq!(
        t.artifacts[0].text_content().as_deref(),
        Some("anything else")
    );

    let t = run(&agent, "stream 4").await;
    assert_eq!(t.status.state, TaskState::Completed);
    assert_eq!(t.artifacts.len(), 1, "chunks of one artifact");
    assert_eq!(
        t.artifacts[0].text_content().as_deref(),
        Some("chunk 1 chunk 2 chunk 3 chunk 4 ")
    );

    let t = run(&agent, "input").await;
    assert_eq!(t.status.state, TaskState::InputRequired);
    assert_eq!(
        t.status.message.as_ref().unwrap().text_content().as_deref(),
        Some("need input")
    );

    let t = run(&agent, "auth").await;
    assert_eq!(t.status.state, TaskState::AuthRequired);
    assert!(
        t.status.message.is_some(),
        "spec 7.6.1: a status message explains it"
    );

    let t = run(&agent, "fail").await;
    assert_eq!(t.status.state, TaskState::Failed);
    let t = run(&agent, "reject").await;
    assert_eq!(t.status.state, TaskState::Rejected);

    let t = run(&agent, "slow 30").await;
    assert_eq!(t.status.state, TaskState::Completed);
}

#[tokio::test]
async fn bad_command_arguments_are_invalid_params() {
    let agent = agent();
    for text in ["stream 0", "stream 999999", "slow 99999999"] {
        let err = agent
            .send_message(&cx(), request(msg("x", text)))
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidParams, "{text}");
        assert_eq!(
            err.field_violations().next().unwrap().field,
            "message.parts[0].text"
        );
    }
    // REQUIRED fields are checked first.
    let mut empty = msg("x", "echo");
    empty.parts.clear();
    let err = agent.send_message(&cx(), request(empty)).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidParams);
    assert_eq!(
        err.field_violations().next().unwrap().field,
        "message.parts"
    );
    let err = agent
        .send_message(&cx(), with_history(msg("x", "echo"), -1))
        .await
        .unwrap_err();
    assert_eq!(
        err.field_violations().next().unwrap().field,
        "configuration.historyLength"
    );
}

#[tokio::test]
async fn multi_turn_input_and_auth_resume() {
    let agent = agent();
    for (text, parked) in [
        ("input", TaskState::InputRequired),
        ("auth", TaskState::AuthRequired),
    ] {
        let task = run(&agent, text).await;
        assert_eq!(task.status.state, parked);
        let mut answer = msg(&format!("answer-{text}"), "blue");
        answer.task_id = task.id.clone();
        answer.context_id = task.context_id.clone();
        let done = send_task(&agent, &cx(), request(answer)).await;
        assert_eq!(done.id, task.id);
        assert_eq!(done.status.state, TaskState::Completed);
        assert_eq!(
            done.artifacts.last().unwrap().text_content().as_deref(),
            Some("got: blue")
        );
        // History: the question, the agent's status message, the answer.
        let texts: Vec<_> = done
            .history
            .iter()
            .map(|m| (m.role, m.text_content().unwrap()))
            .collect();
        assert_eq!(texts[0], (Role::User, text.to_owned()));
        assert_eq!(texts[2], (Role::User, "blue".to_owned()));
        assert_eq!(texts[1].0, Role::Agent);
    }
}

#[tokio::test]
async fn a_message_to_a_working_task_is_recorded_and_waits_for_it() {
    let agent = agent();
    let task = send_task(&agent, &cx(), immediate(msg("w1", "slow 100"))).await;
    let mut more = msg("w2", "also this");
    more.task_id = task.id.clone();
    let done = send_task(&agent, &cx(), request(more)).await;
    assert_eq!(done.status.state, TaskState::Completed);
    assert!(done.history.iter().any(|m| m.message_id == "w2"));
}

#[tokio::test]
async fn slow_tasks_cancel_and_cancel_is_idempotent() {
    let agent = agent();
    let task = send_task(&agent, &cx(), immediate(msg("s1", "slow"))).await;
    let canceled = agent
        .cancel_task(&cx(), CancelTaskRequest::new(&task.id))
        .await
        .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);
    assert!(canceled.status.timestamp.is_some());
    let again = agent
        .cancel_task(&cx(), CancelTaskRequest::new(&task.id))
        .await
        .unwrap();
    assert_eq!(
        again.status, canceled.status,
        "a second cancel changes nothing"
    );
    // The worker stopped: no artifact ever appears.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let t = get(&agent, &cx(), &task.id).await.unwrap();
    assert_eq!(t.status.state, TaskState::Canceled);
    assert!(t.artifacts.is_empty());

    // Interrupted tasks are cancelable; completed ones are not.
    let parked = run(&agent, "input").await;
    let c = agent
        .cancel_task(&cx(), CancelTaskRequest::new(&parked.id))
        .await
        .unwrap();
    assert_eq!(c.status.state, TaskState::Canceled);
    let done = run(&agent, "echo x").await;
    let err = agent
        .cancel_task(&cx(), CancelTaskRequest::new(&done.id))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TaskNotCancelable);
    assert_eq!(
        kind(
            agent
                .cancel_task(&cx(), CancelTaskRequest::new("nope"))
                .await
        ),
        ErrorKind::TaskNotFound
    );
}

fn tck(id: &str) -> Message {
    // The text would ask for something else: the prefix must win.
    msg(id, "fail")
}

#[tokio::test]
async fn tck_message_id_prefixes_win_over_the_text() {
    let agent = agent();
    let task = |id: &'static str| {
        let agent = agent.clone();
        async move { send_task(&agent, &cx(), request(tck(id))).await }
    };

    let t = task("tck-complete-task-001").await;
    assert_eq!(t.status.state, TaskState::Completed);
    assert_eq!(
        t.status.message.as_ref().unwrap().text_content().as_deref(),
        Some("Hello from TCK")
    );

    let t = task("tck-artifact-text-1").await;
    assert_eq!(
        t.artifacts[0].parts[0],
        Part::text("Generated text content")
    );

    let t = task("tck-artifact-file-url-1").await;
    let p = &t.artifacts[0].parts[0];
    assert_eq!(
        p.content,
        PartContent::Url("https://example.com/output.txt".into())
    );
    assert_eq!(
        (p.filename.as_str(), p.media_type.as_str()),
        ("output.txt", "text/plain")
    );

    let t = task("tck-artifact-file-1").await;
    let p = &t.artifacts[0].parts[0];
    assert!(matches!(p.content, PartContent::Raw(_)));
    assert_eq!(
        (p.filename.as_str(), p.media_type.as_str()),
        ("output.txt", "text/plain")
    );

    let t = task("tck-artifact-data-1").await;
    assert_eq!(
        t.artifacts[0].parts[0].content,
        PartContent::Data(serde_json::json!({"key": "value", "count": 42}))
    );

    assert_eq!(
        task("tck-input-required-1").await.status.state,
        TaskState::InputRequired
    );
    assert_eq!(
        task("tck-reject-task-1").await.status.state,
        TaskState::Rejected
    );
    assert_eq!(
        task("tck-stream-002").await.status.state,
        TaskState::Completed
    );
    for (id, text) in [
        ("tck-stream-001", "Stream hello from TCK"),
        ("tck-stream-003", "Stream task lifecycle"),
        ("tck-stream-ordering-001", "Ordered output"),
        ("tck-stream-artifact-text", "Streamed text content"),
    ] {
        let t = task(id).await;
        assert_eq!(t.status.state, TaskState::Completed, "{id}");
        assert_eq!(t.artifacts[0].text_content().as_deref(), Some(text), "{id}");
    }
    let t = task("tck-stream-artifact-file").await;
    assert!(matches!(
        t.artifacts[0].parts[0].content,
        PartContent::Raw(_)
    ));
    let t = task("tck-stream-artifact-chunked").await;
    assert_eq!(t.artifacts.len(), 1);
    assert_eq!(
        t.artifacts[0].text_content().as_deref(),
        Some("chunk-1 chunk-2")
    );

    let SendMessageResponse::Message(m) = agent
        .send_message(&cx(), request(tck("tck-message-response-1")))
        .await
        .unwrap()
    else {
        panic!("expected a direct message");
    };
    assert_eq!(m.text_content().as_deref(), Some("Direct message response"));
}

#[tokio::test]
async fn resubscribe_scenario_works_four_seconds() {
    let agent = agent();
    let t = send_task(
        &agent,
        &cx(),
        immediate(tck("test-resubscribe-message-id-1")),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        get(&agent, &cx(), &t.id).await.unwrap().status.state,
        TaskState::Working
    );
    let done = agent
        .cancel_task(&cx(), CancelTaskRequest::new(&t.id))
        .await
        .unwrap();
    assert_eq!(done.status.state, TaskState::Canceled);
}

#[tokio::test]
async fn a_tck_follow_up_chooses_how_the_task_resumes() {
    let agent = agent();
    let t = send_task(&agent, &cx(), request(tck("tck-input-required-2"))).await;
    let mut follow = msg("tck-complete-task-2", "whatever");
    follow.task_id = t.id.clone();
    let done = send_task(&agent, &cx(), request(follow)).await;
    assert_eq!(done.status.state, TaskState::Completed);
    assert_eq!(
        done.status.message.unwrap().text_content().as_deref(),
        Some("Hello from TCK")
    );
}

#[tokio::test]
async fn status_timestamps_are_always_set_and_never_decrease() {
    let agent = agent();
    let t = send_task(&agent, &cx(), request(msg("ts", "stream 3"))).await;
    assert!(t.status.timestamp.is_some());
    let stream = agent
        .send_streaming_message(&cx(), request(msg("ts2", "stream 5")))
        .await
        .unwrap();
    let mut last = None;
    for e in collect(stream).await {
        let ts = match &e {
            a2a_types::StreamResponse::Task(t) => t.status.timestamp,
            a2a_types::StreamResponse::StatusUpdate(s) => s.status.timestamp,
            _ => continue,
        };
        let ts = ts.expect("every status has a timestamp");
        assert!(last.is_none_or(|l| ts >= l));
        last = Some(ts);
    }
}
