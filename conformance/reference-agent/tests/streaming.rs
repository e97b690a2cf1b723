//! Streams (spec 3.1.2, 3.1.6, 3.5.2) and capability gating (3.3.4).

mod support;

use std::time::Duration;

use a2a_transport::A2aService;
use a2a_types::{ErrorKind, StreamResponse, SubscribeToTaskRequest, TaskState};
use support::*;

fn subscribe_req(id: &str) -> SubscribeToTaskRequest {
    SubscribeToTaskRequest {
        id: id.to_owned(),
        ..Default::default()
    }
}

#[tokio::test]
async fn a_task_stream_starts_with_the_task_and_closes_at_the_end() {
    let agent = agent();
    let stream = agent
        .send_streaming_message(&cx(), request(msg("s1", "stream 3")))
        .await
        .unwrap();
    let events: Vec<_> = collect(stream).await.iter().map(describe).collect();
    assert_eq!(
        events,
        [
            "task:SUBMITTED",
            "status:WORKING",
            "artifact:chunk 1 ",
            "artifact:chunk 2 +",
            "artifact:chunk 3 +!",
            "status:COMPLETED"
        ]
    );
    // Every event names the task and its context.
    let stream = agent
        .send_streaming_message(&cx(), request(msg("s2", "echo x")))
        .await
        .unwrap();
    let events = collect(stream).await;
    let StreamResponse::Task(task) = &events[0] else {
        panic!()
    };
    for e in &events {
        assert_eq!(e.task_id(), Some(task.id.as_str()));
    }
}

#[tokio::test]
async fn streams_close_at_interrupted_states_and_resume_on_a_new_stream() {
    let agent = agent();
    let stream = agent
        .send_streaming_message(&cx(), request(msg("i1", "input")))
        .await
        .unwrap();
    let events = collect(stream).await;
    assert_eq!(
        events.iter().map(describe).collect::<Vec<_>>(),
        ["task:SUBMITTED", "status:INPUT_REQUIRED"]
    );
    let id = events[0].task_id().unwrap().to_owned();

    let mut answer = msg("i2", "blue");
    answer.task_id = id.clone();
    let stream = agent
        .send_streaming_message(&cx(), request(answer))
        .await
        .unwrap();
    let events: Vec<_> = collect(stream).await.iter().map(describe).collect();
    assert_eq!(
        events,
        ["task:WORKING", "artifact:got: blue", "status:COMPLETED"]
    );
}

#[tokio::test]
async fn a_message_stream_is_exactly_one_message() {
    let agent = agent();
    let stream = agent
        .send_streaming_message(&cx(), request(msg("m", "message hi")))
        .await
        .unwrap();
    let events = collect(stream).await;
    assert_eq!(
        events.iter().map(describe).collect::<Vec<_>>(),
        ["message:hi"]
    );
    let stream = agent
        .send_streaming_message(&cx(), request(msg("tck-message-response-9", "x")))
        .await
        .unwrap();
    assert_eq!(collect(stream).await.len(), 1);
}

#[tokio::test]
async fn tck_stream_scenarios() {
    let agent = agent();
    let run = |id: &'static str| {
        let agent = agent.clone();
        async move {
            let s = agent
                .send_streaming_message(&cx(), request(msg(id, "echo")))
                .await
                .unwrap();
            collect(s).await.iter().map(describe).collect::<Vec<_>>()
        }
    };
    assert_eq!(
        run("tck-stream-002").await,
        ["task:SUBMITTED", "status:COMPLETED"]
    );
    assert_eq!(
        run("tck-stream-001").await,
        [
            "task:SUBMITTED",
            "status:WORKING",
            "artifact:Stream hello from TCK",
            "status:COMPLETED"
        ]
    );
    assert_eq!(
        run("tck-stream-artifact-chunked").await,
        [
            "task:SUBMITTED",
            "status:WORKING",
            "artifact:chunk-1 ",
            "artifact:chunk-2+!",
            "status:COMPLETED"
        ]
    );
}

#[tokio::test]
async fn subscribe_to_a_terminal_task_is_unsupported_and_unknown_is_not_found() {
    let agent = agent();
    let done = run(&agent, "echo x").await;
    let err = agent
        .subscribe_to_task(&cx(), subscribe_req(&done.id))
        .await
        .err()
        .unwrap();
    assert_eq!(err.kind(), ErrorKind::UnsupportedOperation);
    let err = agent
        .subscribe_to_task(&cx(), subscribe_req("missing"))
        .await
        .err()
        .unwrap();
    assert_eq!(err.kind(), ErrorKind::TaskNotFound);
}

#[tokio::test]
async fn a_subscription_to_an_interrupted_task_follows_it_to_the_end() {
    // Spec 3.1.6: any task that is not terminal; the stream ends at a
    // terminal state. Both interrupted states (7.6.1 for AUTH_REQUIRED).
    let agent = agent();
    for (text, state) in [("input", "INPUT_REQUIRED"), ("auth", "AUTH_REQUIRED")] {
        let parked = run(&agent, text).await;
        let mut s = agent
            .subscribe_to_task(&cx(), subscribe_req(&parked.id))
            .await
            .unwrap();
        let first = next(&mut s).await.unwrap().unwrap();
        assert_eq!(describe(&first), format!("task:{state}"));
        let mut answer = msg(&format!("{text}-answer"), "blue");
        answer.task_id = parked.id.clone();
        agent.send_message(&cx(), request(answer)).await.unwrap();
        let rest: Vec<_> = collect(s).await.iter().map(describe).collect();
        assert_eq!(
            rest,
            ["status:WORKING", "artifact:got: blue", "status:COMPLETED"],
            "{text}"
        );
    }
}

#[tokio::test]
async fn resubscribing_with_last_event_id_replays_the_missed_events() {
    let agent = agent();
    // Four chunks 300 ms apart: the task is still working when the client
    // comes back at once.
    let first_cx = cx();
    let mut s = agent
        .send_streaming_message(&first_cx, request(msg("resume", "stream 4 300")))
        .await
        .unwrap();
    let mut seen = Vec::new();
    let mut ids = Vec::new();
    while seen.last().map(describe).as_deref() != Some("artifact:chunk 1 ") {
        seen.push(next(&mut s).await.unwrap().unwrap());
        ids.push(first_cx.event_ids.take().expect("every item is labelled"));
    }
    let task_id = seen[0].task_id().unwrap().to_owned();
    drop(s); // the connection breaks
             // The client lost chunk 1 (it never arrived, say): it resumes after
             // WORKING, the second event.
    assert_eq!(describe(&seen[1]), "status:WORKING");
    let resumed_cx = cx().with_last_event_id(&ids[1]);
    let s = agent
        .subscribe_to_task(&resumed_cx, subscribe_req(&task_id))
        .await
        .unwrap();
    let events: Vec<_> = collect(s).await.iter().map(describe).collect();
    assert_eq!(
        events,
        [
            "artifact:chunk 1 ",
            "artifact:chunk 2 +",
            "artifact:chunk 3 +",
            "artifact:chunk 4 +!",
            "status:COMPLETED"
        ],
        "the missed events and the rest, no Task first"
    );
}

#[tokio::test]
async fn a_last_event_id_the_log_cannot_replay_starts_with_the_task() {
    let agent = agent();
    let parked = run(&agent, "input").await; // one event: INPUT_REQUIRED
                                             // Never written, not a position, and nothing missed after it.
    for id in ["999999", "not-a-position", "1"] {
        let cx = cx().with_last_event_id(id);
        let mut s = agent
            .subscribe_to_task(&cx, subscribe_req(&parked.id))
            .await
            .unwrap();
        let first = next(&mut s).await.unwrap().unwrap();
        assert_eq!(describe(&first), "task:INPUT_REQUIRED", "{id}");
    }
    // Nobody watched the task before, so nobody was given a position in
    // it and its log kept nothing: position 0 starts with the task too.
    let cx0 = cx().with_last_event_id("0");
    let mut s = agent
        .subscribe_to_task(&cx0, subscribe_req(&parked.id))
        .await
        .unwrap();
    let first = next(&mut s).await.unwrap().unwrap();
    assert_eq!(describe(&first), "task:INPUT_REQUIRED");
}

#[tokio::test]
async fn stream_items_are_labelled_with_increasing_positions() {
    let agent = agent();
    let call = cx();
    let mut s = agent
        .send_streaming_message(&call, request(msg("ids", "stream 3")))
        .await
        .unwrap();
    let mut ids = Vec::new();
    while let Some(item) = next(&mut s).await {
        item.unwrap();
        ids.push(call.event_ids.take().expect("every item is labelled"));
    }
    let positions: Vec<u64> = ids.iter().map(|id| id.parse().unwrap()).collect();
    assert_eq!(
        positions.len(),
        6,
        "task, working, 3 chunks, completed: {ids:?}"
    );
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_subscribers_get_the_same_events_in_the_same_order() {
    let agent = agent();
    let task = send_task(&agent, &cx(), immediate(msg("c", "stream 40 2"))).await;
    let mut handles = Vec::new();
    for _ in 0..8 {
        let s = agent
            .subscribe_to_task(&cx(), subscribe_req(&task.id))
            .await
            .unwrap();
        handles.push(tokio::spawn(collect(s)));
    }
    let mut runs = Vec::new();
    for h in handles {
        runs.push(h.await.unwrap());
    }
    // Subscribed at different points, each stream is a snapshot followed
    // by the rest of one sequence; rebuilt, they all end in the same task.
    let finals: Vec<_> = runs
        .iter()
        .map(|events| {
            let mut snapshot =
                a2a_types::TaskSnapshot::from_first_event(events[0].clone()).unwrap();
            for e in &events[1..] {
                snapshot.apply(e.clone()).unwrap();
            }
            assert_eq!(describe(events.last().unwrap()), "status:COMPLETED");
            snapshot.task().artifacts[0].text_content()
        })
        .collect();
    assert!(finals.windows(2).all(|w| w[0] == w[1]), "{finals:?}");
    // The events after the first are a suffix of the longest run.
    let longest = runs.iter().max_by_key(|r| r.len()).unwrap();
    for r in &runs {
        let tail: Vec<_> = r[1..].iter().map(describe).collect();
        let ref_tail: Vec<_> = longest[longest.len() - tail.len()..]
            .iter()
            .map(describe)
            .collect();
        assert_eq!(tail, ref_tail);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribers_from_the_start_see_identical_sequences_and_one_closing_affects_no_other() {
    let agent = agent();
    let task = send_task(&agent, &cx(), immediate(msg("p", "slow 20000"))).await;
    // The worker reaches WORKING on its own task: wait for it, so that
    // every subscriber starts from the same snapshot.
    for attempt in 0.. {
        let now = agent
            .get_task(&cx(), a2a_types::GetTaskRequest::new(&task.id))
            .await
            .unwrap();
        if now.status.state == TaskState::Working {
            break;
        }
        assert!(attempt < 2000, "the task never started working");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    // Three subscribers before any event of interest; one leaves early.
    let mut streams = Vec::new();
    for _ in 0..3 {
        streams.push(
            agent
                .subscribe_to_task(&cx(), subscribe_req(&task.id))
                .await
                .unwrap(),
        );
    }
    let mut leaver = streams.pop().unwrap();
    assert!(matches!(
        next(&mut leaver).await,
        Some(Ok(StreamResponse::Task(_)))
    ));
    drop(leaver);
    let a = tokio::spawn(collect(streams.pop().unwrap()));
    let b = tokio::spawn(collect(streams.pop().unwrap()));
    tokio::time::sleep(Duration::from_millis(30)).await;
    agent
        .cancel_task(&cx(), a2a_types::CancelTaskRequest::new(&task.id))
        .await
        .unwrap();
    let (a, b) = (a.await.unwrap(), b.await.unwrap());
    assert_eq!(a, b);
    assert_eq!(describe(a.last().unwrap()), "status:CANCELED");
}

#[tokio::test]
async fn a_subscriber_that_falls_behind_gets_a_fresh_snapshot() {
    let (agent, _) = agent_with(|c| c.limits.max_events_per_task = 4);
    // Subscribe to a working task, read nothing while 20 events happen.
    let t = send_task(&agent, &cx(), immediate(msg("lag2", "stream 20 5"))).await;
    let mut s = agent
        .subscribe_to_task(&cx(), subscribe_req(&t.id))
        .await
        .unwrap();
    assert!(matches!(
        next(&mut s).await,
        Some(Ok(StreamResponse::Task(_)))
    ));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut rest = Vec::new();
    while let Some(e) = next(&mut s).await {
        rest.push(e.unwrap());
    }
    assert!(
        matches!(rest[0], StreamResponse::Task(_)),
        "resynced with a snapshot: {:?}",
        rest.iter().map(describe).collect::<Vec<_>>()
    );
    let mut rest = rest.into_iter();
    let mut snapshot = a2a_types::TaskSnapshot::from_first_event(rest.next().unwrap()).unwrap();
    for e in rest {
        snapshot.apply(e).unwrap();
    }
    assert_eq!(snapshot.task().status.state, TaskState::Completed);
    assert_eq!(
        snapshot.task().artifacts[0].parts.len(),
        20,
        "nothing lost in the rebuilt task"
    );
}

#[tokio::test]
async fn capabilities_turned_off_are_refused() {
    let (agent, _) = agent_with(|c| {
        c.streaming = false;
        c.push_notifications = false;
    });
    let err = agent
        .send_streaming_message(&cx(), request(msg("x", "echo")))
        .await
        .err()
        .unwrap();
    assert_eq!(err.kind(), ErrorKind::UnsupportedOperation);
    let t = run(&agent, "input").await;
    let err = agent
        .subscribe_to_task(&cx(), subscribe_req(&t.id))
        .await
        .err()
        .unwrap();
    assert_eq!(err.kind(), ErrorKind::UnsupportedOperation);
    let card = agent.agent_card();
    assert_eq!(card.capabilities.streaming, Some(false));
    assert_eq!(card.capabilities.push_notifications, Some(false));
    let err = agent
        .list_task_push_notification_configs(
            &cx(),
            a2a_types::ListTaskPushNotificationConfigsRequest {
                task_id: t.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::PushNotificationNotSupported);
}
