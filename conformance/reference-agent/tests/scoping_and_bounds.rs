//! Authorization scoping (spec 13.1), the extended card (3.1.11, 13.3),
//! the memory bounds, and concurrency.

mod support;

use std::collections::HashSet;
use std::time::Duration;

use a2a_transport::{A2aService, CallContext, Principal};
use a2a_types::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, ErrorKind,
    GetTaskPushNotificationConfigRequest, ListTaskPushNotificationConfigsRequest, ListTasksRequest,
    SubscribeToTaskRequest, TaskPushNotificationConfig, TaskState,
};
use support::*;

fn as_user(id: &str) -> CallContext {
    CallContext::new().with_principal(Principal::new(id, "bearer"))
}

#[tokio::test]
async fn a_caller_sees_only_its_own_tasks_and_push_configs() {
    let agent = agent();
    let alice = as_user("alice");
    let task = send_task(&agent, &alice, request(msg("a", "input"))).await;
    let mut hook = TaskPushNotificationConfig::new("https://hooks.example.com/a");
    hook.task_id = task.id.clone();
    let config = agent
        .create_task_push_notification_config(&alice, hook.clone())
        .await
        .unwrap();

    for other in [
        as_user("bob"),
        CallContext::new(),
        CallContext::new().with_tenant("t1"),
    ] {
        // Exactly what a missing task answers.
        let err = get(&agent, &other, &task.id).await.unwrap_err();
        let missing = get(&agent, &other, "no-such-task").await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TaskNotFound);
        assert_eq!(
            err.message().replace(&task.id, "X"),
            missing.message().replace("no-such-task", "X")
        );
        assert_eq!(
            kind(
                agent
                    .cancel_task(&other, CancelTaskRequest::new(&task.id))
                    .await
            ),
            ErrorKind::TaskNotFound
        );
        let sub = SubscribeToTaskRequest {
            id: task.id.clone(),
            ..Default::default()
        };
        assert_eq!(
            agent
                .subscribe_to_task(&other, sub)
                .await
                .err()
                .unwrap()
                .kind(),
            ErrorKind::TaskNotFound
        );
        let mut follow = msg("b", "steal");
        follow.task_id = task.id.clone();
        assert_eq!(
            kind(agent.send_message(&other, request(follow)).await),
            ErrorKind::TaskNotFound
        );
        assert_eq!(
            kind(
                agent
                    .create_task_push_notification_config(&other, hook.clone())
                    .await
            ),
            ErrorKind::TaskNotFound
        );
        let g = GetTaskPushNotificationConfigRequest {
            task_id: task.id.clone(),
            id: config.id.clone(),
            ..Default::default()
        };
        assert_eq!(
            kind(agent.get_task_push_notification_config(&other, g).await),
            ErrorKind::TaskNotFound
        );
        let l = ListTaskPushNotificationConfigsRequest {
            task_id: task.id.clone(),
            ..Default::default()
        };
        assert_eq!(
            kind(agent.list_task_push_notification_configs(&other, l).await),
            ErrorKind::TaskNotFound
        );
        let d = DeleteTaskPushNotificationConfigRequest {
            task_id: task.id.clone(),
            id: config.id.clone(),
            ..Default::default()
        };
        assert_eq!(
            kind(agent.delete_task_push_notification_config(&other, d).await),
            ErrorKind::TaskNotFound
        );
        let listed = agent
            .list_tasks(&other, ListTasksRequest::default())
            .await
            .unwrap();
        assert!(listed.tasks.is_empty());
        assert_eq!(listed.total_size, 0);
    }
    // Alice still sees everything, untouched.
    assert_eq!(
        get(&agent, &alice, &task.id).await.unwrap().status.state,
        TaskState::InputRequired
    );
    assert_eq!(
        agent
            .list_tasks(&alice, ListTasksRequest::default())
            .await
            .unwrap()
            .total_size,
        1
    );
    let g = GetTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: config.id.clone(),
        ..Default::default()
    };
    assert!(agent
        .get_task_push_notification_config(&alice, g)
        .await
        .is_ok());
}

#[tokio::test]
async fn tenants_are_scopes_too() {
    let agent = agent();
    let acme = CallContext::new().with_tenant("acme");
    let t = send_task(&agent, &acme, request(msg("t", "echo x"))).await;
    assert!(get(&agent, &acme, &t.id).await.is_ok());
    assert_eq!(
        kind(get(&agent, &CallContext::new().with_tenant("other"), &t.id).await),
        ErrorKind::TaskNotFound
    );
    // The request's own tenant field counts when the binding gives none.
    let mut req = a2a_types::GetTaskRequest::new(&t.id);
    req.tenant = "acme".into();
    assert!(agent.get_task(&CallContext::new(), req).await.is_ok());
}

#[tokio::test]
async fn the_extended_card_requires_authentication() {
    let agent = agent();
    assert_eq!(
        agent.agent_card().capabilities.extended_agent_card,
        Some(false)
    );
    assert_eq!(
        kind(
            agent
                .get_extended_agent_card(&as_user("alice"), Default::default())
                .await
        ),
        ErrorKind::UnsupportedOperation
    );

    let (agent, _) = agent_with(|c| c.bearer_scheme = Some("bearer".into()));
    let public = agent.agent_card().clone();
    assert_eq!(public.capabilities.extended_agent_card, Some(true));
    assert!(public.security_schemes.contains_key("bearer"));
    assert_eq!(public.security_requirements.len(), 1);
    assert_eq!(
        kind(
            agent
                .get_extended_agent_card(&CallContext::new(), Default::default())
                .await
        ),
        ErrorKind::Unauthenticated
    );
    let extended = agent
        .get_extended_agent_card(&as_user("alice"), Default::default())
        .await
        .unwrap();
    assert!(extended.skills.len() > public.skills.len());
}

#[tokio::test]
async fn the_store_is_bounded_by_count() {
    let (agent, _) = agent_with(|c| c.limits.max_tasks = 5);
    let mut ids = Vec::new();
    for i in 0..8 {
        ids.push(run(&agent, &format!("echo {i}")).await.id);
    }
    assert_eq!(agent.task_count(), 5);
    for old in &ids[..3] {
        assert_eq!(kind(get(&agent, &cx(), old).await), ErrorKind::TaskNotFound);
    }
    for new in &ids[3..] {
        assert!(get(&agent, &cx(), new).await.is_ok());
    }
}

#[tokio::test]
async fn the_store_is_bounded_by_bytes_terminal_tasks_first() {
    const BUDGET: usize = 1 << 20;
    let (agent, _) = agent_with(|c| c.limits.max_store_bytes = BUDGET);
    // A task that goes on, created first: the oldest, but not terminal.
    let running = send_task(&agent, &cx(), immediate(msg("r", "slow 20000"))).await;
    let big = "x".repeat(100_000);
    let mut ids = Vec::new();
    // A mix: echoes of 100 KB (their history and artifact hold it twice)
    // and streamed tasks of many small chunks.
    for i in 0..30 {
        let text = match i % 3 {
            2 => "stream 200".to_owned(),
            _ => format!("echo {big}"),
        };
        ids.push(run(&agent, &text).await.id);
        // Within the budget, give or take the task just added.
        assert!(
            agent.store_weight() <= BUDGET + 250_000,
            "{}",
            agent.store_weight()
        );
    }
    assert!(
        agent.store_weight() >= BUDGET / 2,
        "the budget is used, not emptied"
    );
    assert!(
        get(&agent, &cx(), &running.id).await.is_ok(),
        "terminal tasks went first"
    );
    assert_eq!(
        kind(get(&agent, &cx(), &ids[0]).await),
        ErrorKind::TaskNotFound
    );
    assert!(get(&agent, &cx(), ids.last().unwrap()).await.is_ok());
    assert!(agent.task_count() < 30);
}

#[tokio::test]
async fn a_sweep_evicts_expired_tasks_without_a_new_one() {
    let (agent, _) = agent_with(|c| c.limits.task_ttl = Duration::from_millis(30));
    run(&agent, "echo a").await;
    run(&agent, "echo b").await;
    assert_eq!(agent.sweep(), 0, "nothing expired yet");
    tokio::time::sleep(Duration::from_millis(60)).await;
    assert_eq!(agent.sweep(), 2);
    assert_eq!(agent.task_count(), 0);
    assert_eq!(
        agent.store_weight(),
        0,
        "evicted tasks take their weight with them"
    );
}

#[tokio::test]
async fn the_store_is_bounded_by_age_and_eviction_ends_streams() {
    let (agent, _) = agent_with(|c| c.limits.task_ttl = Duration::from_millis(60));
    let old = send_task(&agent, &cx(), immediate(msg("old", "slow 5000"))).await;
    let mut stream = agent
        .subscribe_to_task(
            &cx(),
            SubscribeToTaskRequest {
                id: old.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(next(&mut stream).await.unwrap().is_ok());
    tokio::time::sleep(Duration::from_millis(100)).await;
    run(&agent, "echo new").await;
    assert_eq!(
        kind(get(&agent, &cx(), &old.id).await),
        ErrorKind::TaskNotFound
    );
    // The stream sees WORKING at most, then the eviction.
    let mut last = None;
    while let Some(item) = next(&mut stream).await {
        last = Some(item);
    }
    assert_eq!(last.unwrap().unwrap_err().kind(), ErrorKind::TaskNotFound);
    assert_eq!(agent.task_count(), 1);
}

#[tokio::test]
async fn history_is_bounded() {
    let (agent, _) = agent_with(|c| c.limits.max_history = 3);
    let task = send_task(&agent, &cx(), immediate(msg("h", "slow 5000"))).await;
    for i in 0..6 {
        let mut m = msg(&format!("more-{i}"), "x");
        m.task_id = task.id.clone();
        send_task(&agent, &cx(), immediate(m)).await;
    }
    let t = get(&agent, &cx(), &task.id).await.unwrap();
    let ids: Vec<_> = t.history.iter().map(|m| m.message_id.as_str()).collect();
    assert_eq!(ids, ["more-3", "more-4", "more-5"]);
    agent
        .cancel_task(&cx(), CancelTaskRequest::new(&task.id))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_concurrent_calls() {
    let agent = agent();
    let mut handles = Vec::new();
    for i in 0..200 {
        let agent = agent.clone();
        handles.push(tokio::spawn(async move {
            let text = match i % 4 {
                0 => "echo hi".to_owned(),
                1 => "stream 5".to_owned(),
                2 => "slow 10".to_owned(),
                _ => "input".to_owned(),
            };
            if i % 2 == 0 {
                send_task(
                    &agent,
                    &as_user(&format!("u{}", i % 3)),
                    request(msg(&format!("c{i}"), &text)),
                )
                .await
            } else {
                let s = agent
                    .send_streaming_message(&cx(), request(msg(&format!("c{i}"), &text)))
                    .await
                    .unwrap();
                let events = collect(s).await;
                let a2a_types::StreamResponse::Task(t) = &events[0] else {
                    panic!()
                };
                get(&agent, &cx(), &t.id).await.unwrap()
            }
        }));
    }
    let mut ids = HashSet::new();
    for h in handles {
        let t = h.await.unwrap();
        assert!(
            t.status.state.is_terminal() || t.status.state.is_interrupted(),
            "{:?}",
            t.status.state
        );
        ids.insert(t.id);
    }
    assert_eq!(ids.len(), 200, "unique ids");
    let mine = agent
        .list_tasks(
            &as_user("u0"),
            ListTasksRequest {
                page_size: Some(100),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(mine.total_size > 0 && mine.total_size < 100);
}
