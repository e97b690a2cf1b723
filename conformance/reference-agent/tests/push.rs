//! Push notification configs and delivery (spec 3.1.7-3.1.10, 4.3, 13.2),
//! with an in-memory sender.

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_reference_agent::{
    AgentConfig, DeliveryOutcome, PushError, PushSender, RecordingPushSender, ReferenceAgent,
};
use a2a_transport::{webhook::Allowlist, A2aService, BoxFuture};
use a2a_types::{
    AuthenticationInfo, DeleteTaskPushNotificationConfigRequest, ErrorKind,
    GetTaskPushNotificationConfigRequest, ListTaskPushNotificationConfigsRequest,
    SendMessageConfiguration, SendMessageRequest, StreamResponse, TaskPushNotificationConfig,
};
use bytes::Bytes;
use http::{Request, StatusCode};
use support::*;

const HOOK: &str = "https://hooks.example.com/a2a";

fn config_for(task_id: &str, url: &str) -> TaskPushNotificationConfig {
    let mut c = TaskPushNotificationConfig::new(url);
    c.task_id = task_id.to_owned();
    c
}

fn inline(message: a2a_types::Message, config: TaskPushNotificationConfig) -> SendMessageRequest {
    let mut r = SendMessageRequest::new(message);
    r.configuration = Some(SendMessageConfiguration {
        task_push_notification_config: Some(Box::new(config)),
        ..Default::default()
    });
    r
}

fn bodies(requests: &[Request<Bytes>]) -> Vec<String> {
    requests
        .iter()
        .map(|r| describe(&serde_json::from_slice::<StreamResponse>(r.body()).unwrap()))
        .collect()
}

#[tokio::test]
async fn config_crud_with_client_ids_kept_and_idempotent_delete() {
    let agent = agent();
    let task = run(&agent, "input").await;
    let mut asked = config_for(&task.id, HOOK);
    asked.id = "client-chosen".into();
    asked.token = "tok".into();
    let created = agent
        .create_task_push_notification_config(&cx(), asked)
        .await
        .unwrap();
    assert_eq!(
        created.id, "client-chosen",
        "spec 3.1.7: the client's id is kept"
    );
    assert_eq!(
        (
            created.task_id.as_str(),
            created.url.as_str(),
            created.token.as_str()
        ),
        (task.id.as_str(), HOOK, "tok")
    );
    let second = agent
        .create_task_push_notification_config(&cx(), config_for(&task.id, HOOK))
        .await
        .unwrap();
    assert_ne!(second.id, created.id);
    assert!(
        second.id.starts_with("push-"),
        "generated when none is given: {}",
        second.id
    );

    let get = |id: &str| GetTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: id.to_owned(),
        ..Default::default()
    };
    assert_eq!(
        agent
            .get_task_push_notification_config(&cx(), get(&created.id))
            .await
            .unwrap(),
        created
    );
    let list = agent
        .list_task_push_notification_configs(
            &cx(),
            ListTaskPushNotificationConfigsRequest {
                task_id: task.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(list.configs, [created.clone(), second.clone()]);
    assert_eq!(list.next_page_token, "");

    let del = DeleteTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: created.id.clone(),
        ..Default::default()
    };
    agent
        .delete_task_push_notification_config(&cx(), del.clone())
        .await
        .unwrap();
    agent
        .delete_task_push_notification_config(&cx(), del)
        .await
        .unwrap();
    assert_eq!(
        kind(
            agent
                .get_task_push_notification_config(&cx(), get(&created.id))
                .await
        ),
        ErrorKind::TaskNotFound
    );
    let del_missing_task = DeleteTaskPushNotificationConfigRequest {
        task_id: "nope".into(),
        id: "x".into(),
        ..Default::default()
    };
    assert_eq!(
        kind(
            agent
                .delete_task_push_notification_config(&cx(), del_missing_task)
                .await
        ),
        ErrorKind::TaskNotFound
    );
    assert_eq!(
        kind(
            agent
                .create_task_push_notification_config(&cx(), config_for("nope", HOOK))
                .await
        ),
        ErrorKind::TaskNotFound
    );
    // REQUIRED fields.
    let err = agent
        .create_task_push_notification_config(&cx(), config_for(&task.id, ""))
        .await
        .unwrap_err();
    assert_eq!(err.field_violations().next().unwrap().field, "url");
    let err = agent
        .create_task_push_notification_config(&cx(), config_for("", HOOK))
        .await
        .unwrap_err();
    assert_eq!(err.field_violations().next().unwrap().field, "taskId");
}

#[tokio::test]
async fn inline_config_receives_the_task_then_every_event_in_order_with_credentials() {
    let (agent, sender) = agent_with(|_| {});
    let mut config = TaskPushNotificationConfig::new(HOOK);
    config.token = "tok-42".into();
    config.authentication = Some(AuthenticationInfo::new("Bearer", "s3cret"));
    let task = send_task(&agent, &cx(), inline(msg("p1", "stream 3"), config)).await;
    eventually(|| sender.requests().len() == 6).await;
    let requests = sender.requests();
    assert_eq!(
        bodies(&requests),
        [
            "task:SUBMITTED",
            "status:WORKING",
            "artifact:chunk 1 ",
            "artifact:chunk 2 +",
            "artifact:chunk 3 +!",
            "status:COMPLETED"
        ]
    );
    for r in &requests {
        assert_eq!(r.method(), http::Method::POST);
        assert_eq!(r.uri(), HOOK);
        assert_eq!(r.headers()["content-type"], "application/a2a+json");
        assert_eq!(r.headers()["authorization"], "Bearer s3cret");
        assert_eq!(r.headers()["x-a2a-notification-token"], "tok-42");
        let event: StreamResponse = serde_json::from_slice(r.body()).unwrap();
        assert_eq!(event.task_id(), Some(task.id.as_str()));
    }
    // The config is listed on the task with a server id.
    let list = agent
        .list_task_push_notification_configs(
            &cx(),
            ListTaskPushNotificationConfigsRequest {
                task_id: task.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(list.configs.len(), 1);
    assert!(!list.configs[0].id.is_empty());
}

fn observed(
    configure: impl FnOnce(&mut AgentConfig),
) -> (
    ReferenceAgent,
    Arc<RecordingPushSender>,
    Arc<Mutex<Vec<DeliveryOutcome>>>,
) {
    let mut config = AgentConfig::default();
    config.push.initial_backoff = Duration::from_millis(5);
    config.push.max_backoff = Duration::from_millis(20);
    config.push.timeout = Duration::from_millis(100);
    configure(&mut config);
    let sender = Arc::new(RecordingPushSender::new());
    let outcomes = Arc::new(Mutex::new(Vec::new()));
    let log = outcomes.clone();
    let agent = ReferenceAgent::with_push_observer(
        config,
        sender.clone(),
        Arc::new(move |_, o| log.lock().unwrap().push(o.clone())),
    );
    (agent, sender, outcomes)
}

#[tokio::test]
async fn retries_on_5xx_408_429_and_connection_errors_keep_the_order() {
    let (agent, sender, outcomes) = observed(|_| {});
    sender.script([
        Ok(StatusCode::SERVICE_UNAVAILABLE),
        Err(PushError::Connection("connection refused".into())),
        Ok(StatusCode::TOO_MANY_REQUESTS),
        Ok(StatusCode::REQUEST_TIMEOUT),
    ]);
    send_task(
        &agent,
        &cx(),
        inline(msg("r", "echo x"), TaskPushNotificationConfig::new(HOOK)),
    )
    .await;
    eventually(|| outcomes.lock().unwrap().len() == 4).await;
    let requests = sender.requests();
    // The first notification took five attempts, then the rest in order.
    assert_eq!(
        bodies(&requests),
        [
            "task:SUBMITTED",
            "task:SUBMITTED",
            "task:SUBMITTED",
            "task:SUBMITTED",
            "task:SUBMITTED",
            "status:WORKING",
            "artifact:x",
            "status:COMPLETED"
        ]
    );
    assert_eq!(
        outcomes.lock().unwrap()[0],
        DeliveryOutcome::Delivered { attempts: 5 }
    );
}

#[tokio::test]
async fn gives_up_after_max_attempts_or_a_final_answer() {
    let (agent, sender, outcomes) = observed(|c| c.push.max_attempts = 3);
    sender.script([
        Ok(StatusCode::BAD_GATEWAY),
        Ok(StatusCode::BAD_GATEWAY),
        Ok(StatusCode::BAD_GATEWAY),
        Ok(StatusCode::BAD_REQUEST),
        Err(PushError::Refused("resolved to 127.0.0.1".into())),
    ]);
    send_task(
        &agent,
        &cx(),
        inline(msg("g", "echo x"), TaskPushNotificationConfig::new(HOOK)),
    )
    .await;
    eventually(|| outcomes.lock().unwrap().len() == 4).await;
    let outcomes = outcomes.lock().unwrap().clone();
    assert_eq!(
        outcomes[0],
        DeliveryOutcome::Failed {
            attempts: 3,
            last: "HTTP 502 Bad Gateway".into()
        }
    );
    assert_eq!(
        outcomes[1],
        DeliveryOutcome::Failed {
            attempts: 1,
            last: "HTTP 400 Bad Request".into()
        }
    );
    assert!(
        matches!(&outcomes[2], DeliveryOutcome::Failed { attempts: 1, last } if last.contains("127.0.0.1"))
    );
    assert_eq!(outcomes[3], DeliveryOutcome::Delivered { attempts: 1 });
    assert_eq!(sender.requests().len(), 6);
}

/// A sender that never answers until released.
#[derive(Default)]
struct Gate {
    open: tokio::sync::Notify,
    seen: Mutex<Vec<Request<Bytes>>>,
}

impl PushSender for Gate {
    fn send(&self, request: Request<Bytes>) -> BoxFuture<'_, Result<StatusCode, PushError>> {
        self.seen.lock().unwrap().push(request);
        Box::pin(async move {
            self.open.notified().await;
            Ok(StatusCode::OK)
        })
    }
}

#[tokio::test]
async fn a_timeout_counts_as_a_failed_attempt() {
    let mut config = AgentConfig::default();
    config.push.timeout = Duration::from_millis(20);
    config.push.initial_backoff = Duration::from_millis(1);
    config.push.max_attempts = 2;
    let gate = Arc::new(Gate::default());
    let outcomes = Arc::new(Mutex::new(Vec::new()));
    let log = outcomes.clone();
    let agent = ReferenceAgent::with_push_observer(
        config,
        gate.clone(),
        Arc::new(move |_, o| log.lock().unwrap().push(o.clone())),
    );
    send_task(
        &agent,
        &cx(),
        inline(msg("t", "reject"), TaskPushNotificationConfig::new(HOOK)),
    )
    .await;
    eventually(|| outcomes.lock().unwrap().len() == 2).await;
    let first = outcomes.lock().unwrap()[0].clone();
    assert!(
        matches!(first, DeliveryOutcome::Failed { attempts: 2, ref last } if last.contains("timed out")),
        "{first:?}"
    );
}

#[tokio::test]
async fn a_full_queue_drops_the_oldest_and_keeps_the_latest() {
    let mut config = AgentConfig::default();
    config.limits.max_push_queue = 2;
    let gate = Arc::new(Gate::default());
    let outcomes = Arc::new(Mutex::new(Vec::new()));
    let log = outcomes.clone();
    let agent = ReferenceAgent::with_push_observer(
        config,
        gate.clone(),
        Arc::new(move |_, o| log.lock().unwrap().push(o.clone())),
    );
    // 1 task + WORKING + 10 chunks + COMPLETED = 13 notifications; the
    // first is in flight, two wait, ten are dropped.
    send_task(
        &agent,
        &cx(),
        inline(msg("q", "stream 10"), TaskPushNotificationConfig::new(HOOK)),
    )
    .await;
    eventually(|| gate.seen.lock().unwrap().len() == 1).await;
    for _ in 0..3 {
        gate.open.notify_one();
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    eventually(|| gate.seen.lock().unwrap().len() == 3).await;
    let seen = bodies(&gate.seen.lock().unwrap());
    assert_eq!(seen.first().map(String::as_str), Some("task:SUBMITTED"));
    assert_eq!(
        seen.last().map(String::as_str),
        Some("status:COMPLETED"),
        "{seen:?}"
    );
    let dropped = outcomes
        .lock()
        .unwrap()
        .iter()
        .filter(|o| **o == DeliveryOutcome::Dropped)
        .count();
    assert_eq!(dropped, 10);
}

#[tokio::test]
async fn deleting_a_config_stops_its_notifications() {
    let (agent, sender) = agent_with(|_| {});
    let task = send_task(&agent, &cx(), immediate(msg("d", "slow 20000"))).await;
    let created = agent
        .create_task_push_notification_config(&cx(), config_for(&task.id, HOOK))
        .await
        .unwrap();
    eventually(|| bodies(&sender.requests()).contains(&"status:WORKING".to_owned())).await;
    let del = DeleteTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: created.id,
        ..Default::default()
    };
    agent
        .delete_task_push_notification_config(&cx(), del)
        .await
        .unwrap();
    let before = sender.requests().len();
    agent
        .cancel_task(&cx(), a2a_types::CancelTaskRequest::new(&task.id))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(sender.requests().len(), before, "nothing after deletion");
}

#[tokio::test]
async fn webhook_urls_are_checked_against_ssrf_unless_allowlisted() {
    let agent = agent();
    let task = run(&agent, "input").await;
    for url in [
        "http://127.0.0.1/hook",
        "http://127.1/",
        "http://0x7f.0.0.1/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://10.0.0.5/",
        "http://192.168.1.1/",
        "http://172.16.0.1/",
        "http://169.254.169.254/latest/meta-data",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
        "http://localhost:8080/",
        "ftp://hooks.example.com/",
        "http://user@hooks.example.com/",
    ] {
        let err = agent
            .create_task_push_notification_config(&cx(), config_for(&task.id, url))
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidParams, "{url}");
        assert_eq!(err.field_violations().next().unwrap().field, "url", "{url}");
        // Inline configs are checked the same way, before any task exists.
        let err = agent
            .send_message(
                &cx(),
                inline(msg("x", "echo"), TaskPushNotificationConfig::new(url)),
            )
            .await
            .unwrap_err();
        assert_eq!(
            err.field_violations().next().unwrap().field,
            "configuration.taskPushNotificationConfig.url",
            "{url}"
        );
    }
    let tasks_before = agent.task_count();
    assert_eq!(tasks_before, 1, "refused inline configs created no task");

    let mut allow = Allowlist::new();
    allow.allow("127.0.0.0/8").unwrap();
    allow.allow("localhost").unwrap();
    let (agent, _) = agent_with(|c| c.push_allowlist = allow);
    let task = run(&agent, "input").await;
    for url in ["http://127.0.0.1:9/hook", "http://localhost:9/hook"] {
        agent
            .create_task_push_notification_config(&cx(), config_for(&task.id, url))
            .await
            .unwrap();
    }
    assert!(agent
        .create_task_push_notification_config(&cx(), config_for(&task.id, "http://10.0.0.1/"))
        .await
        .is_err());
}

#[tokio::test]
async fn header_injection_and_config_count_are_bounded() {
    let (agent, _) = agent_with(|c| c.limits.max_push_configs_per_task = 2);
    let task = run(&agent, "input").await;
    let mut bad = config_for(&task.id, HOOK);
    bad.token = "a\r\nX-Injected: 1".into();
    let err = agent
        .create_task_push_notification_config(&cx(), bad)
        .await
        .unwrap_err();
    assert_eq!(err.field_violations().next().unwrap().field, "token");
    agent
        .create_task_push_notification_config(&cx(), config_for(&task.id, HOOK))
        .await
        .unwrap();
    agent
        .create_task_push_notification_config(&cx(), config_for(&task.id, HOOK))
        .await
        .unwrap();
    let err = agent
        .create_task_push_notification_config(&cx(), config_for(&task.id, HOOK))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidParams);
}

#[tokio::test]
async fn push_disabled_answers_push_not_supported_everywhere() {
    let (agent, _) = agent_with(|c| c.push_notifications = false);
    let task = run(&agent, "input").await;
    assert_eq!(
        kind(
            agent
                .create_task_push_notification_config(&cx(), config_for(&task.id, HOOK))
                .await
        ),
        ErrorKind::PushNotificationNotSupported
    );
    let get = GetTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: "x".into(),
        ..Default::default()
    };
    assert_eq!(
        kind(agent.get_task_push_notification_config(&cx(), get).await),
        ErrorKind::PushNotificationNotSupported
    );
    let del = DeleteTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: "x".into(),
        ..Default::default()
    };
    assert_eq!(
        kind(agent.delete_task_push_notification_config(&cx(), del).await),
        ErrorKind::PushNotificationNotSupported
    );
    assert_eq!(
        kind(
            agent
                .send_message(
                    &cx(),
                    inline(msg("x", "echo"), TaskPushNotificationConfig::new(HOOK))
                )
                .await
        ),
        ErrorKind::PushNotificationNotSupported
    );
}

#[tokio::test]
async fn recreating_a_config_id_replaces_the_config_and_its_webhook() {
    let (agent, sender) = agent_with(|c| c.limits.max_push_configs_per_task = 2);
    let task = run(&agent, "input").await;
    let with_id = |id: &str, url: &str| {
        let mut c = config_for(&task.id, url);
        c.id = id.to_owned();
        c
    };
    let old_hook = "https://old.example.com/hook";
    agent
        .create_task_push_notification_config(&cx(), with_id("mine", old_hook))
        .await
        .unwrap();
    agent
        .create_task_push_notification_config(&cx(), with_id("other", HOOK))
        .await
        .unwrap();
    // At the limit of 2: the same id again replaces, it does not add.
    let mut replacement = with_id("mine", "https://new.example.com/hook");
    replacement.token = "new-token".into();
    let replaced = agent
        .create_task_push_notification_config(&cx(), replacement)
        .await
        .unwrap();
    assert_eq!(replaced.id, "mine");
    let got = agent
        .get_task_push_notification_config(
            &cx(),
            GetTaskPushNotificationConfigRequest {
                task_id: task.id.clone(),
                id: "mine".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (got.url.as_str(), got.token.as_str()),
        ("https://new.example.com/hook", "new-token")
    );
    let list = agent
        .list_task_push_notification_configs(
            &cx(),
            ListTaskPushNotificationConfigsRequest {
                task_id: task.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let ids: Vec<&str> = list.configs.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["mine", "other"], "replaced in place");
    // A third id is over the limit.
    let err = agent
        .create_task_push_notification_config(&cx(), with_id("third", HOOK))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidParams);

    // The task's next events go to the new webhook, never the old one.
    let mut answer = msg("m-2", "go on");
    answer.task_id = task.id.clone();
    agent.send_message(&cx(), request(answer)).await.unwrap();
    eventually(|| {
        sender
            .requests()
            .iter()
            .filter(|r| r.uri() == "https://new.example.com/hook")
            .count()
            >= 3
    })
    .await;
    assert!(sender.requests().iter().all(|r| r.uri() != old_hook));
}

/// CORE03-1 (0.3 spec 9.5): a config set by a 0.3 caller gets the 0.3
/// Task object (`kind: "task"`, 0.3 states) as `application/json`, for
/// every change; a 1.0 config of the same task still gets StreamResponses.
#[tokio::test]
async fn a_config_set_at_0_3_gets_0_3_task_objects() {
    let (agent, sender, outcomes) = observed(|_| {});
    let cx03 = cx().with_version(a2a_transport::ProtocolVersion::V0_3);
    let task = run(&agent, "input").await;
    let mut old = config_for(&task.id, "https://hooks.example.com/v03");
    old.id = "v03".into();
    agent
        .create_task_push_notification_config(&cx03, old)
        .await
        .unwrap();
    let mut new = config_for(&task.id, HOOK);
    new.id = "v10".into();
    agent
        .create_task_push_notification_config(&cx(), new)
        .await
        .unwrap();
    let mut answer = msg("a", "blue");
    answer.task_id = task.id.clone();
    send_task(&agent, &cx(), SendMessageRequest::new(answer)).await;
    eventually(|| {
        let o = outcomes.lock().unwrap();
        o.len() >= 4
    })
    .await;
    let requests = sender.requests();
    let (v03, v10): (Vec<_>, Vec<_>) = requests.iter().partition(|r| r.uri().path() == "/v03");
    assert!(!v03.is_empty() && !v10.is_empty(), "{requests:?}");
    for r in &v03 {
        assert_eq!(r.headers()["content-type"], "application/json");
        let body: serde_json::Value = serde_json::from_slice(r.body()).unwrap();
        assert_eq!(body["kind"], "task", "{body}");
        assert_eq!(body["id"], task.id.as_str());
    }
    let last: serde_json::Value = serde_json::from_slice(v03.last().unwrap().body()).unwrap();
    assert_eq!(last["status"]["state"], "completed", "{last}");
    for r in &v10 {
        assert_eq!(r.headers()["content-type"], "application/a2a+json");
        serde_json::from_slice::<StreamResponse>(r.body()).unwrap();
    }
}
