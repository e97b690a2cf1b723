//! `historyLength` everywhere (spec 3.2.4) and `ListTasks` (spec 3.1.4).

mod support;

use std::collections::HashSet;
use std::time::Duration;

use a2a_transport::A2aService;
use a2a_types::{
    ErrorKind, GetTaskRequest, ListTasksRequest, ListTasksResponse, StreamResponse, TaskState,
    Timestamp,
};
use support::*;

/// A task with a history of `2 * turns + 1` messages: the question, then
/// the agent's "need input" and the answer, `turns` times... ending
/// completed after the last answer.
async fn conversation(agent: &a2a_reference_agent::ReferenceAgent) -> a2a_types::Task {
    let task = run(agent, "input").await; // history: [input, need input]
    let mut answer = msg("answer", "blue");
    answer.task_id = task.id.clone();
    send_task(agent, &cx(), request(answer)).await // + [blue]
}

#[tokio::test]
async fn history_length_in_get_task() {
    let agent = agent();
    let task = conversation(&agent).await;
    assert_eq!(task.history.len(), 3);
    let get = |n: Option<i32>| {
        let agent = agent.clone();
        let id = task.id.clone();
        async move {
            agent
                .get_task(
                    &cx(),
                    GetTaskRequest {
                        id,
                        history_length: n,
                        ..Default::default()
                    },
                )
                .await
        }
    };
    assert_eq!(get(None).await.unwrap().history.len(), 3, "unset: all");
    let none = get(Some(0)).await.unwrap();
    assert!(none.history.is_empty());
    assert!(
        serde_json::to_value(&none)
            .unwrap()
            .get("history")
            .is_none(),
        "0: omitted"
    );
    let one = get(Some(1)).await.unwrap();
    assert_eq!(one.history.len(), 1);
    assert_eq!(
        one.history[0].message_id, "answer",
        "the most recent messages"
    );
    assert_eq!(get(Some(2)).await.unwrap().history.len(), 2);
    assert_eq!(get(Some(50)).await.unwrap().history.len(), 3);
    let err = get(Some(-5)).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidParams);
    assert_eq!(
        err.field_violations().next().unwrap().description,
        "Must be non-negative integer, got -5"
    );
}

#[tokio::test]
async fn history_length_in_send_and_stream() {
    let agent = agent();
    let t = send_task(&agent, &cx(), with_history(msg("h0", "echo a"), 0)).await;
    assert!(t.history.is_empty());
    let t = send_task(&agent, &cx(), with_history(msg("h1", "input"), 1)).await;
    assert_eq!(t.history.len(), 1);
    assert_eq!(t.history[0].text_content().as_deref(), Some("need input"));

    let stream = agent
        .send_streaming_message(&cx(), with_history(msg("h2", "echo b"), 0))
        .await
        .unwrap();
    let events = collect(stream).await;
    let StreamResponse::Task(first) = &events[0] else {
        panic!("first is the task")
    };
    assert!(first.history.is_empty());
}

#[tokio::test]
async fn history_length_in_list_tasks() {
    let agent = agent();
    conversation(&agent).await;
    let list = |n: Option<i32>| {
        let agent = agent.clone();
        async move {
            agent
                .list_tasks(
                    &cx(),
                    ListTasksRequest {
                        history_length: n,
                        ..Default::default()
                    },
                )
                .await
        }
    };
    assert_eq!(list(None).await.unwrap().tasks[0].history.len(), 3);
    assert!(list(Some(0)).await.unwrap().tasks[0].history.is_empty());
    assert_eq!(list(Some(2)).await.unwrap().tasks[0].history.len(), 2);
    assert_eq!(kind(list(Some(-1)).await), ErrorKind::InvalidParams);
}

async fn list(
    agent: &a2a_reference_agent::ReferenceAgent,
    req: ListTasksRequest,
) -> ListTasksResponse {
    agent.list_tasks(&cx(), req).await.expect("ListTasks")
}

fn ids(r: &ListTasksResponse) -> Vec<String> {
    r.tasks.iter().map(|t| t.id.clone()).collect()
}

#[tokio::test]
async fn list_filters_and_order() {
    let agent = agent();
    let mut m = msg("c1", "echo one");
    m.context_id = "ctx-a".into();
    let a1 = send_task(&agent, &cx(), request(m)).await;
    let parked = run(&agent, "input").await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let mut m = msg("c2", "echo two");
    m.context_id = "ctx-a".into();
    let a2 = send_task(&agent, &cx(), request(m)).await;

    let all = list(&agent, ListTasksRequest::default()).await;
    assert_eq!(all.total_size, 3);
    assert_eq!(all.tasks.len(), 3);
    assert_eq!(all.next_page_token, "", "last page");
    assert_eq!(all.page_size, 50, "the default");
    let stamps: Vec<Timestamp> = all
        .tasks
        .iter()
        .map(|t| t.status.timestamp.unwrap())
        .collect();
    assert!(
        stamps.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {stamps:?}"
    );
    assert_eq!(all.tasks[0].id, a2.id);

    let by_ctx = list(
        &agent,
        ListTasksRequest {
            context_id: "ctx-a".into(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(ids(&by_ctx), [a2.id.clone(), a1.id.clone()]);
    assert_eq!(by_ctx.total_size, 2);

    let by_state = list(
        &agent,
        ListTasksRequest {
            status: TaskState::InputRequired,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(ids(&by_state), std::slice::from_ref(&parked.id));

    let after = a2.status.timestamp.unwrap();
    let recent = list(
        &agent,
        ListTasksRequest {
            status_timestamp_after: Some(after),
            ..Default::default()
        },
    )
    .await;
    assert!(ids(&recent).contains(&a2.id), "at or after");
    assert!(!ids(&recent).contains(&a1.id));

    let none = list(
        &agent,
        ListTasksRequest {
            context_id: "nope".into(),
            ..Default::default()
        },
    )
    .await;
    assert!(none.tasks.is_empty());
    assert_eq!((none.total_size, none.next_page_token.as_str()), (0, ""));
    let json = serde_json::to_value(&none).unwrap();
    assert_eq!(json["nextPageToken"], "", "always present");
}

#[tokio::test]
async fn artifacts_only_with_include_artifacts() {
    let agent = agent();
    run(&agent, "echo x").await;
    let plain = list(&agent, ListTasksRequest::default()).await;
    assert!(plain.tasks[0].artifacts.is_empty());
    let json = serde_json::to_value(&plain).unwrap();
    assert!(
        json["tasks"][0].get("artifacts").is_none(),
        "omitted entirely"
    );
    let explicit_false = list(
        &agent,
        ListTasksRequest {
            include_artifacts: Some(false),
            ..Default::default()
        },
    )
    .await;
    assert!(explicit_false.tasks[0].artifacts.is_empty());
    let with = list(
        &agent,
        ListTasksRequest {
            include_artifacts: Some(true),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(
        with.tasks[0].artifacts[0].text_content().as_deref(),
        Some("x")
    );
}

#[tokio::test]
async fn page_size_bounds() {
    let agent = agent();
    for bad in [0, -1, 101, 150] {
        let err = agent
            .list_tasks(
                &cx(),
                ListTasksRequest {
                    page_size: Some(bad),
                    ..Default::default()
                },
            )
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidParams, "{bad}");
        let v = err.field_violations().next().unwrap();
        assert_eq!(v.field, "pageSize");
        assert_eq!(
            v.description,
            format!("Must be between 1 and 100 inclusive, got {bad}")
        );
    }
    for good in [1, 100] {
        let r = list(
            &agent,
            ListTasksRequest {
                page_size: Some(good),
                ..Default::default()
            },
        )
        .await;
        assert_eq!(r.page_size, good);
    }
    // Every problem is reported at once.
    let err = agent
        .list_tasks(
            &cx(),
            ListTasksRequest {
                page_size: Some(150),
                history_length: Some(-5),
                page_token: "garbage".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    let fields: Vec<_> = err.field_violations().map(|v| v.field.as_str()).collect();
    assert_eq!(fields, ["pageSize", "historyLength", "pageToken"]);
}

#[tokio::test]
async fn pagination_walks_every_task_once() {
    let agent = agent();
    let mut created = HashSet::new();
    for i in 0..23 {
        created.insert(run(&agent, &format!("echo {i}")).await.id);
    }
    let mut seen = Vec::new();
    let mut token = String::new();
    loop {
        let page = list(
            &agent,
            ListTasksRequest {
                page_size: Some(5),
                page_token: token.clone(),
                ..Default::default()
            },
        )
        .await;
        assert_eq!(page.total_size, 23);
        assert!(page.tasks.len() <= 5);
        seen.extend(ids(&page));
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    assert_eq!(seen.len(), 23);
    assert_eq!(seen.iter().cloned().collect::<HashSet<_>>(), created);
}

#[tokio::test]
async fn pagination_stays_correct_while_tasks_change() {
    let agent = agent();
    // Ten parked tasks, then page through them while some are answered
    // (which moves them to the front) and new ones are created.
    let mut parked = Vec::new();
    for _ in 0..10 {
        parked.push(run(&agent, "input").await);
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let first = list(
        &agent,
        ListTasksRequest {
            page_size: Some(4),
            ..Default::default()
        },
    )
    .await;
    let mut seen = ids(&first);
    // Answer the oldest task (not yet seen) and one already seen; add one.
    for t in [&parked[0], &parked[9]] {
        let mut answer = msg("a", "ok");
        answer.task_id = t.id.clone();
        send_task(&agent, &cx(), request(answer)).await;
    }
    run(&agent, "echo new").await;
    let mut token = first.next_page_token;
    while !token.is_empty() {
        let page = list(
            &agent,
            ListTasksRequest {
                page_size: Some(4),
                page_token: token,
                ..Default::default()
            },
        )
        .await;
        seen.extend(ids(&page));
        token = page.next_page_token;
    }
    let unique: HashSet<_> = seen.iter().collect();
    assert_eq!(unique.len(), seen.len(), "no task twice: {seen:?}");
    // Every task that did not change since the listing began was seen.
    for t in &parked[1..9] {
        assert!(seen.contains(&t.id), "{} skipped", t.id);
    }
}
