//! The handler under the 1.1 draft (`--features draft-1-1`): generations,
//! the timeline, `ifGenerationMatch`, the long-poll `GetTask`, and push
//! bodies in the form of the version that set the webhook.
#![cfg(feature = "draft-1-1")]

mod common;

use common::Tokio;
use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use a2a_agent::{
    AgentExecutor, AgentHandler, ExecuteError, HandlerConfig, InMemoryTaskStore, MemoryLimits,
    PushSender, RecordingPushSender, RequestContext, TaskUpdater,
};
use a2a_transport::{A2aService, BoxFuture, CallContext, EventStream, ProtocolVersion};
use a2a_types::draft_1_1::{GenerationTracker, Observation, TimelineContent};
use a2a_types::{
    Artifact, ErrorKind, GetTaskRequest, Message, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, StreamResponse, Task, TaskPushNotificationConfig, TaskState,
};
use futures_core::Stream;

/// WORKING, an artifact in two chunks, INPUT_REQUIRED; the answer
/// completes the task.
struct Asker;

impl AgentExecutor for Asker {
    fn execute<'a>(
        &'a self,
        cx: RequestContext,
        task: TaskUpdater,
    ) -> BoxFuture<'a, Result<(), ExecuteError>> {
        Box::pin(async move {
            if cx.task.is_some() {
                task.complete().await?;
                return Ok(());
            }
            task.start_work().await?;
            task.artifact_chunk(Artifact::text("a", "one"), false, false)
                .await?;
            task.artifact_chunk(Artifact::text("a", "two"), true, true)
                .await?;
            task.require_input("more?").await?;
            Ok(())
        })
    }
}

fn handler(hold: Duration) -> AgentHandler<Asker> {
    AgentHandler::builder(
        Asker,
        InMemoryTaskStore::new(MemoryLimits::default()),
        Tokio,
    )
    .config(HandlerConfig::new().with_max_long_poll(hold))
    .build()
}

async fn collect(mut events: EventStream) -> Vec<StreamResponse> {
    let mut out = Vec::new();
    while let Some(item) = poll_fn(|cx| Pin::new(&mut events).poll_next(cx)).await {
        out.push(item.expect("an event"));
    }
    out
}

async fn asked(h: &AgentHandler<Asker>) -> Task {
    let cx = CallContext::new();
    let reply = h
        .send_message(&cx, SendMessageRequest::new(Message::user_text("m1", "hi")))
        .await
        .unwrap();
    let SendMessageResponse::Task(task) = reply else {
        panic!("a task")
    };
    assert_eq!(task.status.state, TaskState::InputRequired);
    task
}

#[tokio::test]
async fn every_update_is_one_generation_in_order() {
    let h = handler(Duration::from_secs(5));
    let cx = CallContext::new();
    let events = h
        .send_streaming_message(&cx, SendMessageRequest::new(Message::user_text("m1", "hi")))
        .await
        .unwrap();
    let events = collect(events).await;
    let mut tracker = GenerationTracker::new();
    let mut last = 0;
    for event in &events {
        match event {
            StreamResponse::Task(t) => {
                assert_eq!(t.generation, 1, "created at 1");
                tracker.reconcile(t);
                last = t.generation;
            }
            StreamResponse::StatusUpdate(u) => {
                assert_eq!(tracker.observe(u.generation), Observation::InOrder);
                last = u.generation;
            }
            StreamResponse::ArtifactUpdate(u) => {
                assert_eq!(tracker.observe(u.generation), Observation::InOrder);
                last = u.generation;
            }
            StreamResponse::Message(_) => panic!("no message"),
        }
    }
    // Task(1), WORKING(2), two chunks (3, 4), INPUT_REQUIRED(5).
    assert_eq!(last, 5, "{events:?}");
    let id = events[0].task_id().unwrap().to_owned();
    let task = h.get_task(&cx, GetTaskRequest::new(&id)).await.unwrap();
    assert_eq!(task.generation, 5);
    let gens: Vec<i64> = task.timeline.iter().map(|e| e.generation).collect();
    assert_eq!(
        gens,
        [1, 1, 2, 5],
        "message, SUBMITTED, WORKING, INPUT_REQUIRED"
    );
    assert!(matches!(
        task.timeline[0].entry,
        Some(TimelineContent::Message(_))
    ));
    let a = &task.artifacts[0];
    assert_eq!((a.start_generation, a.end_generation), (3, 4));
    let last_two = h
        .get_task(
            &cx,
            GetTaskRequest {
                timeline_length: Some(2),
                ..GetTaskRequest::new(&id)
            },
        )
        .await
        .unwrap();
    assert_eq!(
        last_two
            .timeline
            .iter()
            .map(|e| e.generation)
            .collect::<Vec<_>>(),
        [2, 5]
    );
}

fn answer(task: &Task, if_generation_match: Option<i64>) -> SendMessageRequest {
    let mut message = Message::user_text("m2", "yes");
    message.task_id.clone_from(&task.id);
    SendMessageRequest {
        configuration: Some(SendMessageConfiguration {
            if_generation_match,
            ..SendMessageConfiguration::default()
        }),
        ..SendMessageRequest::new(message)
    }
}

#[tokio::test]
async fn a_continuation_of_a_task_that_moved_on_is_refused() {
    let h = handler(Duration::from_secs(5));
    let cx = CallContext::new();
    let task = asked(&h).await;
    let err = h
        .send_message(&cx, answer(&task, Some(task.generation - 1)))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TaskGenerationMismatch);
    let unchanged = h
        .get_task(&cx, GetTaskRequest::new(&task.id))
        .await
        .unwrap();
    assert_eq!(unchanged.generation, task.generation, "nothing was written");
    let reply = h
        .send_message(&cx, answer(&task, Some(task.generation)))
        .await
        .unwrap();
    let SendMessageResponse::Task(done) = reply else {
        panic!("a task")
    };
    assert_eq!(done.status.state, TaskState::Completed);
    // The message (one generation), WORKING and COMPLETED.
    assert!(done.generation > task.generation + 1);
    assert!(done
        .timeline
        .iter()
        .any(|e| e.generation == task.generation + 1
            && matches!(&e.entry, Some(TimelineContent::Message(m)) if m.message_id == "m2")));
}

#[tokio::test]
async fn a_long_poll_answers_when_the_task_moves_or_the_hold_ends() {
    let h = handler(Duration::from_millis(300));
    let cx = CallContext::new();
    let task = asked(&h).await;
    let poll = |g| GetTaskRequest {
        current_generation: Some(g),
        ..GetTaskRequest::new(&task.id)
    };
    // Already past: at once.
    let started = Instant::now();
    let now = h.get_task(&cx, poll(task.generation - 1)).await.unwrap();
    assert_eq!(now.generation, task.generation);
    assert!(started.elapsed() < Duration::from_millis(250));
    // Not past and nothing happens: held, then answered as it stands.
    let started = Instant::now();
    let held = h.get_task(&cx, poll(task.generation)).await.unwrap();
    assert_eq!(held.generation, task.generation);
    assert!(started.elapsed() >= Duration::from_millis(300));
    // Not past, then the task moves: answered with the new generation.
    let h2 = handler(Duration::from_secs(10));
    let task = asked(&h2).await;
    let poller = {
        let h2 = h2.clone();
        let request = GetTaskRequest {
            current_generation: Some(task.generation),
            ..GetTaskRequest::new(&task.id)
        };
        tokio::spawn(async move { h2.get_task(&CallContext::new(), request).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    h2.send_message(&cx, answer(&task, None)).await.unwrap();
    let moved = poller.await.unwrap().unwrap();
    assert!(moved.generation > task.generation);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn a_webhook_set_at_1_0_gets_pure_1_0_bodies() {
    let recorder = Arc::new(RecordingPushSender::new());
    let sender: Arc<dyn PushSender> = recorder.clone();
    let h = AgentHandler::builder(
        Asker,
        InMemoryTaskStore::new(MemoryLimits::default()),
        Tokio,
    )
    .push_sender(sender)
    .build();
    let task = asked(&h).await;
    for (url, version) in [
        ("https://hooks.example.com/v1-0", ProtocolVersion::V1_0),
        ("https://hooks.example.com/v1-1", ProtocolVersion::V1_1),
    ] {
        let mut config = TaskPushNotificationConfig::new(url);
        config.task_id.clone_from(&task.id);
        let cx = CallContext::new().with_version(version);
        h.create_task_push_notification_config(&cx, config)
            .await
            .unwrap();
    }
    h.send_message(&CallContext::new(), answer(&task, None))
        .await
        .unwrap();
    let bodies = |url: &str| -> Vec<String> {
        recorder
            .requests()
            .iter()
            .filter(|r| r.uri() == url)
            .map(|r| String::from_utf8_lossy(r.body()).into_owned())
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while (bodies("https://hooks.example.com/v1-0").len() < 2
        || bodies("https://hooks.example.com/v1-1").len() < 2)
        && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let pure = bodies("https://hooks.example.com/v1-0");
    assert!(pure.len() >= 2, "{pure:?}");
    assert!(
        pure.iter()
            .all(|b| !b.contains("eneration") && !b.contains("timeline")),
        "{pure:?}"
    );
    let draft = bodies("https://hooks.example.com/v1-1");
    assert!(
        draft.iter().any(|b| b.contains("\"generation\"")),
        "{draft:?}"
    );
}
