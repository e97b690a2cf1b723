//! Push notification configs (3.1.7-3.1.10), their capability gate
//! (3.3.4), delivery (4.3.3, 13.2) and webhook URL safety (13.2).

use std::time::{Duration, SystemTime};

use a2a_transport::push::WebhookVerifier;
use a2a_transport::ProtocolVersion;

use a2a_types::{
    AuthenticationInfo, DeleteTaskPushNotificationConfigRequest, ErrorKind,
    GetTaskPushNotificationConfigRequest, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, SendMessageConfiguration, SendMessageRequest,
    StreamResponse, Task, TaskPushNotificationConfig, TaskState,
};

use crate::binding::Kind;
use crate::check::{ensure, fail, skip, Check};
use crate::context::{describe_error, expect_error, state_name, Ctx};
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::needs_push;
use crate::webhook::Delivery;

pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!("push.create", "3.1.7", Must, Kind::Behaviour,
            "CreateTaskPushNotificationConfig answers the config with an assigned id", create),
        scenario!("push.client-id", "3.1.7", Should, Kind::Behaviour,
            "a config keeps the id the client chose; creating that id again replaces the config", client_id),
        scenario!("push.get", "3.1.8", Must, Kind::Behaviour,
            "GetTaskPushNotificationConfig answers the config's URL and token", get),
        scenario!("push.get-missing", "3.1.8", Must, Kind::Behaviour,
            "GetTaskPushNotificationConfig of an unknown config fails", get_missing),
        scenario!("push.list", "3.1.9", Must, Kind::Behaviour,
            "ListTaskPushNotificationConfigs answers every active config", list_configs),
        scenario!("push.delete", "3.1.10", Must, Kind::Behaviour,
            "a deleted config is gone, and deleting it again has the same effect", delete),
        scenario!("push.unknown-task", "3.1.7", Must, Kind::Behaviour,
            "a config for an unknown task answers TaskNotFoundError", unknown_task),
        scenario!("capability.push", "3.3.4", Must, Kind::Behaviour,
            "without capabilities.pushNotifications, config operations answer PushNotificationNotSupportedError", push_gate, tck = ["CORE-CAP-001"]),
        scenario!("push.delivery", "4.3.3", Must, Kind::Behaviour,
            "updates are POSTed to the webhook as StreamResponses, in order", delivery),
        scenario!("push.media-type", "4.3.3", Should, Kind::Behaviour,
            "webhook requests are application/a2a+json", media_type),
        scenario!("push.credentials", "13.2", Must, Kind::Behaviour,
            "webhook requests carry the config's authentication credentials", credentials),
        scenario!("push.inline-config", "3.2.2", Should, Kind::Behaviour,
            "a config given in SendMessage receives the task's updates", inline_config),
        scenario!("push.https", "13.2", Should, Kind::Behaviour,
            "an https webhook receives notifications its client can verify (token, task id, freshness)", https),
        scenario!("push.ssrf", "13.2", Should, Kind::Behaviour,
            "webhook URLs into private, loopback or link-local ranges are refused", ssrf),
    ]
}

/// A URL that passes any SSRF check and never resolves (RFC 2606).
fn unreachable_hook(cx: &Ctx<'_>) -> String {
    format!("https://push.conformance.invalid/hooks/{}", cx.nonce())
}

/// An input-required task: it stays alive for configs to be added.
async fn parked_task(cx: &Ctx<'_>) -> Check<Task> {
    needs_push(cx)?;
    let ask = cx
        .ask(crate::contract::Behaviour::InputRequired, "input")
        .await?;
    cx.send_task_with(SendMessageRequest::new(ask)).await
}

async fn create_config(
    cx: &Ctx<'_>,
    task: &Task,
    url: &str,
    token: &str,
) -> Check<TaskPushNotificationConfig> {
    let mut config = TaskPushNotificationConfig::new(url);
    config.task_id = task.id.clone();
    config.token = token.to_owned();
    create_exact(cx, config).await
}

async fn create(cx: &Ctx<'_>) -> Check {
    let task = parked_task(cx).await?;
    let url = unreachable_hook(cx);
    let made = create_config(cx, &task, &url, "tok-1").await?;
    ensure(
        !made.id.is_empty(),
        "a server-assigned config id",
        "an empty id",
    )?;
    ensure(
        made.url == url,
        format!("url {url:?}"),
        format!("{:?}", made.url),
    )?;
    ensure(
        made.task_id.is_empty() || made.task_id == task.id,
        format!("taskId {:?}", task.id),
        format!("{:?}", made.task_id),
    )?;
    cx.note("created");
    Ok(())
}

/// Creates `config` on `task`, failing the scenario if that fails.
async fn create_exact(
    cx: &Ctx<'_>,
    config: TaskPushNotificationConfig,
) -> Check<TaskPushNotificationConfig> {
    cx.within(
        cx.svc()
            .create_task_push_notification_config(&cx.cx(), config),
    )
    .await?
    .map_err(|e| {
        fail(
            "CreateTaskPushNotificationConfig to succeed",
            describe_error(&e),
        )
    })
}

/// Spec 3.1.7-3.1.8: the config is stored under the id the client gave
/// (the official SDKs keep it too; an id is generated only when none is
/// given), so `GetTaskPushNotificationConfig` finds it by that id; the
/// same id again updates that config rather than adding another.
async fn client_id(cx: &Ctx<'_>) -> Check {
    let task = parked_task(cx).await?;
    let chosen = format!("cfg-{}", cx.nonce());
    let first_url = unreachable_hook(cx);
    let mut config = TaskPushNotificationConfig::new(&first_url);
    config.task_id = task.id.clone();
    config.id = chosen.clone();
    config.token = "tok-first".into();
    let made = create_exact(cx, config.clone()).await?;
    ensure(
        made.id == chosen,
        format!("the config stored as {chosen:?}, the id the client chose"),
        format!("id {:?}", made.id),
    )?;
    let get = |id: &str| GetTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: id.to_owned(),
        ..Default::default()
    };
    let got = cx
        .within(
            cx.svc()
                .get_task_push_notification_config(&cx.cx(), get(&chosen)),
        )
        .await?
        .map_err(|e| {
            fail(
                format!("GetTaskPushNotificationConfig of {chosen:?} to find it"),
                describe_error(&e),
            )
        })?;
    ensure(
        got.url == first_url,
        format!("url {first_url:?}"),
        format!("{:?}", got.url),
    )?;
    // The same id again, with another URL and token: one config, updated.
    let second_url = format!("{first_url}/moved");
    config.url = second_url.clone();
    config.token = "tok-second".into();
    create_exact(cx, config).await?;
    let got = cx
        .within(
            cx.svc()
                .get_task_push_notification_config(&cx.cx(), get(&chosen)),
        )
        .await?
        .map_err(|e| {
            fail(
                "GetTaskPushNotificationConfig to succeed",
                describe_error(&e),
            )
        })?;
    ensure(
        got.url == second_url && got.token == "tok-second",
        format!(
            "the second create to replace the config: url {second_url:?}, token \"tok-second\""
        ),
        format!("url {:?}, token {:?}", got.url, got.token),
    )?;
    let listed = cx
        .within(cx.svc().list_task_push_notification_configs(
            &cx.cx(),
            ListTaskPushNotificationConfigsRequest {
                task_id: task.id.clone(),
                ..Default::default()
            },
        ))
        .await?
        .map_err(|e| {
            fail(
                "ListTaskPushNotificationConfigs to succeed",
                describe_error(&e),
            )
        })?;
    let ids: Vec<&str> = listed.configs.iter().map(|c| c.id.as_str()).collect();
    ensure(
        ids == [chosen.as_str()],
        format!("one config, {chosen:?}"),
        format!("{ids:?}"),
    )?;
    cx.note("kept, then replaced");
    Ok(())
}

async fn get(cx: &Ctx<'_>) -> Check {
    let task = parked_task(cx).await?;
    let url = unreachable_hook(cx);
    let made = create_config(cx, &task, &url, "tok-get").await?;
    let got = cx
        .within(cx.svc().get_task_push_notification_config(
            &cx.cx(),
            GetTaskPushNotificationConfigRequest {
                task_id: task.id.clone(),
                id: made.id.clone(),
                ..Default::default()
            },
        ))
        .await?
        .map_err(|e| {
            fail(
                "GetTaskPushNotificationConfig to succeed",
                describe_error(&e),
            )
        })?;
    ensure(
        got.url == url && got.token == "tok-get" && got.id == made.id,
        format!(
            "the config {:?} with url {url:?} and token \"tok-get\"",
            made.id
        ),
        format!("id {:?}, url {:?}, token {:?}", got.id, got.url, got.token),
    )?;
    cx.note("same config");
    Ok(())
}

async fn get_missing(cx: &Ctx<'_>) -> Check {
    let task = parked_task(cx).await?;
    let got = cx
        .within(cx.svc().get_task_push_notification_config(
            &cx.cx(),
            GetTaskPushNotificationConfigRequest {
                task_id: task.id.clone(),
                id: format!("no-such-config-{}", cx.nonce()),
                ..Default::default()
            },
        ))
        .await?;
    match got {
        Err(e) => {
            cx.note(e.kind().name());
            Ok(())
        }
        Ok(c) => Err(fail(
            "an error for an unknown config id",
            format!("config {:?}", c.id),
        )),
    }
}

/// `ListTaskPushNotificationConfigs` of `task_id`, expected to succeed.
async fn configs_of(cx: &Ctx<'_>, task_id: &str) -> Check<ListTaskPushNotificationConfigsResponse> {
    cx.within(cx.svc().list_task_push_notification_configs(
        &cx.cx(),
        ListTaskPushNotificationConfigsRequest {
            task_id: task_id.to_owned(),
            ..Default::default()
        },
    ))
    .await?
    .map_err(|e| {
        fail(
            "ListTaskPushNotificationConfigs to succeed",
            describe_error(&e),
        )
    })
}

async fn list_configs(cx: &Ctx<'_>) -> Check {
    let task = parked_task(cx).await?;
    let a = create_config(cx, &task, &unreachable_hook(cx), "a").await?;
    let b = create_config(cx, &task, &unreachable_hook(cx), "b").await?;
    let listed = configs_of(cx, &task.id).await?;
    let ids: Vec<&str> = listed.configs.iter().map(|c| c.id.as_str()).collect();
    ensure(
        ids.contains(&a.id.as_str()) && ids.contains(&b.id.as_str()),
        format!("both configs {:?} and {:?}", a.id, b.id),
        format!("{ids:?}"),
    )?;
    cx.note(format!("{} configs", listed.configs.len()));
    Ok(())
}

async fn delete(cx: &Ctx<'_>) -> Check {
    let task = parked_task(cx).await?;
    let made = create_config(cx, &task, &unreachable_hook(cx), "gone").await?;
    let request = DeleteTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: made.id.clone(),
        ..Default::default()
    };
    cx.within(
        cx.svc()
            .delete_task_push_notification_config(&cx.cx(), request.clone()),
    )
    .await?
    .map_err(|e| {
        fail(
            "DeleteTaskPushNotificationConfig to succeed",
            describe_error(&e),
        )
    })?;
    // Idempotent (3.1.10): a second delete may answer success or an error,
    // but the config stays gone.
    let _ = cx
        .within(
            cx.svc()
                .delete_task_push_notification_config(&cx.cx(), request),
        )
        .await?;
    let got = cx
        .within(cx.svc().get_task_push_notification_config(
            &cx.cx(),
            GetTaskPushNotificationConfigRequest {
                task_id: task.id.clone(),
                id: made.id.clone(),
                ..Default::default()
            },
        ))
        .await?;
    ensure(
        got.is_err(),
        "the deleted config to be gone",
        format!("{got:?}"),
    )?;
    let listed = configs_of(cx, &task.id).await?;
    ensure(
        listed.configs.iter().all(|c| c.id != made.id),
        "the deleted config not listed",
        format!("{} configs", listed.configs.len()),
    )?;
    cx.note("gone");
    Ok(())
}

async fn unknown_task(cx: &Ctx<'_>) -> Check {
    needs_push(cx)?;
    let mut config = TaskPushNotificationConfig::new(unreachable_hook(cx));
    config.task_id = format!("no-such-task-{}", cx.nonce());
    let got = cx
        .within(
            cx.svc()
                .create_task_push_notification_config(&cx.cx(), config),
        )
        .await?;
    let e = expect_error(got, ErrorKind::TaskNotFound, "for an unknown task")?;
    cx.note(e.kind().name());
    Ok(())
}

async fn push_gate(cx: &Ctx<'_>) -> Check {
    if cx.card().capabilities.push_notifications == Some(true) {
        return Err(skip("the card declares capabilities.pushNotifications"));
    }
    let task_id = format!("t-{}", cx.nonce());
    let mut config = TaskPushNotificationConfig::new(unreachable_hook(cx));
    config.task_id = task_id.clone();
    let got = cx
        .within(
            cx.svc()
                .create_task_push_notification_config(&cx.cx(), config),
        )
        .await?;
    expect_error(got, ErrorKind::PushNotificationNotSupported, "for Create")?;
    let got = cx
        .within(cx.svc().list_task_push_notification_configs(
            &cx.cx(),
            ListTaskPushNotificationConfigsRequest {
                task_id: task_id.clone(),
                ..Default::default()
            },
        ))
        .await?;
    expect_error(got, ErrorKind::PushNotificationNotSupported, "for List")?;
    let got = cx
        .within(cx.svc().get_task_push_notification_config(
            &cx.cx(),
            GetTaskPushNotificationConfigRequest {
                task_id: task_id.clone(),
                id: "c".into(),
                ..Default::default()
            },
        ))
        .await?;
    expect_error(got, ErrorKind::PushNotificationNotSupported, "for Get")?;
    let got = cx
        .within(cx.svc().delete_task_push_notification_config(
            &cx.cx(),
            DeleteTaskPushNotificationConfigRequest {
                task_id,
                id: "c".into(),
                ..Default::default()
            },
        ))
        .await?;
    expect_error(got, ErrorKind::PushNotificationNotSupported, "for Delete")?;
    cx.note("refused");
    Ok(())
}

/// The state an item reports, if any.
fn state_of(item: &StreamResponse) -> Option<TaskState> {
    match item {
        StreamResponse::Task(t) => Some(t.status.state),
        StreamResponse::StatusUpdate(s) => Some(s.status.state),
        _ => None,
    }
}

/// A notification's body at `version`: a `StreamResponse` (spec 4.3.3),
/// at 0.3 the 0.3 `Task` (0.3 spec 9.5).
fn delivered(
    body: &[u8],
    version: ProtocolVersion,
) -> Result<StreamResponse, a2a_types::DecodeError> {
    if version == ProtocolVersion::V0_3 {
        a2a_types::v0_3::from_slice::<Task>(body).map(StreamResponse::Task)
    } else {
        a2a_types::from_slice(body)
    }
}

/// Checks each delivery (4.3.3): a POST whose body is a StreamResponse
/// (at 0.3 a 0.3 Task) about `task_id`; answers the decoded bodies.
fn check_deliveries(
    cx: &Ctx<'_>,
    deliveries: &[Delivery],
    task_id: &str,
) -> Check<Vec<StreamResponse>> {
    let version = cx.target().version;
    let mut items = Vec::new();
    for (i, d) in deliveries.iter().enumerate() {
        ensure(
            d.method == http::Method::POST,
            "each notification POSTed",
            format!("#{i}: {}", d.method),
        )?;
        let item = delivered(&d.body, version).map_err(|e| {
            fail(
                if version == ProtocolVersion::V0_3 {
                    "a 0.3 Task body"
                } else {
                    "a StreamResponse body"
                },
                format!(
                    "#{i}: {e}: {}",
                    crate::abbreviate(&String::from_utf8_lossy(&d.body))
                ),
            )
        })?;
        ensure(
            item.task_id() == Some(task_id),
            format!("a notification about task {task_id:?}"),
            format!("#{i}: {:?}", item.task_id()),
        )?;
        items.push(item);
    }
    Ok(items)
}

/// Checks that each delivery carries `Authorization: <authorization>`.
fn check_credentials(deliveries: &[Delivery], authorization: &str) -> Check {
    for (i, d) in deliveries.iter().enumerate() {
        let auth = d
            .headers
            .get(http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        ensure(
            auth == Some(authorization),
            format!("Authorization: {authorization} (the config's authentication)"),
            format!("#{i}: {auth:?}"),
        )?;
    }
    Ok(())
}

/// Whether a delivery reports a terminal state, in either version's body.
fn ends_terminal(deliveries: &[Delivery]) -> bool {
    deliveries.iter().any(|d| {
        delivered(&d.body, ProtocolVersion::V1_0)
            .or_else(|_| delivered(&d.body, ProtocolVersion::V0_3))
            .ok()
            .and_then(|i| state_of(&i))
            .is_some_and(TaskState::is_terminal)
    })
}

fn check_order(items: &[StreamResponse]) -> Check {
    let states: Vec<TaskState> = items.iter().filter_map(state_of).collect();
    for w in states.windows(2) {
        if w[0] != w[1] && !w[0].can_transition_to(w[1]) {
            return Err(fail(
                "notifications in the order the task changed",
                format!("{} after {}", state_name(w[1]), state_name(w[0])),
            ));
        }
    }
    match states.last() {
        Some(s) if s.is_terminal() => Ok(()),
        other => Err(fail(
            "a last notification in a terminal state",
            format!("{other:?}"),
        )),
    }
}

/// Registers a webhook with credentials on an input-required task, lets
/// the task finish, and answers what the webhook received, the task id and
/// the expected `Authorization` value.
async fn deliver(cx: &Ctx<'_>) -> Check<(Vec<Delivery>, String, String)> {
    let webhook = cx.webhook()?.clone();
    let (got, config) = deliver_to(cx, &webhook, true).await?;
    let authorization = config
        .authentication
        .map(|a| format!("{} {}", a.scheme, a.credentials))
        .unwrap_or_default();
    Ok((got, config.task_id, authorization))
}

/// [`deliver`] to `webhook`, with a token, and with credentials when
/// `with_auth`; answers the deliveries and the config (with its task id).
async fn deliver_to(
    cx: &Ctx<'_>,
    webhook: &crate::webhook::Webhook,
    with_auth: bool,
) -> Check<(Vec<Delivery>, TaskPushNotificationConfig)> {
    let task = parked_task(cx).await?;
    let name = cx.nonce();
    let secret = format!("secret-{name}");
    let mut config = TaskPushNotificationConfig::new(webhook.url(&name));
    config.task_id = task.id.clone();
    config.token = format!("token-{name}");
    if with_auth {
        config.authentication = Some(AuthenticationInfo::new("Bearer", secret));
    }
    cx.within(
        cx.svc()
            .create_task_push_notification_config(&cx.cx(), config.clone()),
    )
    .await?
    .map_err(|e| {
        fail(
            "CreateTaskPushNotificationConfig to succeed",
            describe_error(&e),
        )
    })?;
    let m = cx.follow_up(&task.id, &task.context_id, "go on");
    let done = cx.send_task_with(SendMessageRequest::new(m)).await?;
    ensure(
        done.status.state == TaskState::Completed,
        "COMPLETED",
        state_name(done.status.state),
    )?;
    let wait = cx.timing().call_timeout.min(Duration::from_secs(5));
    let got = webhook.wait_until(&name, wait, ends_terminal).await;
    ensure(
        !got.is_empty(),
        "at least one notification at the webhook",
        "none",
    )?;
    Ok((got, config))
}

/// 13.2 (clients SHOULD use https webhooks; they MUST verify the
/// notifications): every notification at an https webhook passes the
/// client-side [`WebhookVerifier`] of its config.
async fn https(cx: &Ctx<'_>) -> Check {
    let webhook = cx.secure_webhook()?.clone();
    if !webhook.base().starts_with("https://") {
        return Err(skip("the secure webhook is not at an https URL"));
    }
    // A token and no credentials: the token is then what authenticates
    // a notification (the JS SDK sends no token header beside
    // credentials, interop/FINDINGS.md RS-5; push.credentials checks
    // those).
    let (got, config) = deliver_to(cx, &webhook, false).await?;
    // Each delivery is verified on its own: the agent may legitimately
    // send the same bytes twice (a state it reports again).
    for (i, d) in got.iter().enumerate() {
        if cx.target().version == ProtocolVersion::V0_3 {
            // The verifier reads 1.0 bodies; a 0.3 notification carries
            // the config's token the same way (0.3 spec 9.5), and its
            // body is checked below.
            let token = d
                .headers
                .get(a2a_transport::push::NOTIFICATION_TOKEN_HEADER)
                .and_then(|v| v.to_str().ok());
            ensure(
                token == Some(config.token.as_str()),
                "the config's token on each notification",
                format!("#{i}: {token:?}"),
            )?;
            continue;
        }
        let verifier = WebhookVerifier::for_config(&config);
        let mut request = http::Request::new(d.body.clone());
        *request.method_mut() = d.method.clone();
        *request.headers_mut() = d.headers.clone();
        verifier
            .verify(&request, SystemTime::now())
            .map_err(|e| fail("a notification its client can verify", format!("#{i}: {e}")))?;
    }
    let items = check_deliveries(cx, &got, &config.task_id)?;
    check_order(&items)?;
    cx.note("verified over https");
    Ok(())
}

async fn delivery(cx: &Ctx<'_>) -> Check {
    let (got, task_id, _) = deliver(cx).await?;
    let items = check_deliveries(cx, &got, &task_id)?;
    check_order(&items)?;
    cx.note("delivered in order");
    Ok(())
}

async fn media_type(cx: &Ctx<'_>) -> Check {
    let (got, _, _) = deliver(cx).await?;
    // 0.3 notifications are application/json (0.3 spec 9.5).
    let want = if cx.target().version == ProtocolVersion::V0_3 {
        "application/json"
    } else {
        "application/a2a+json"
    };
    for (i, d) in got.iter().enumerate() {
        let ct = crate::wire::media_type(&d.headers);
        ensure(
            ct == want,
            format!("Content-Type {want}"),
            format!("#{i}: {ct:?}"),
        )?;
    }
    cx.note("a2a+json");
    Ok(())
}

async fn credentials(cx: &Ctx<'_>) -> Check {
    let (got, _, authorization) = deliver(cx).await?;
    check_credentials(&got, &authorization)?;
    cx.note("credentials sent");
    Ok(())
}

async fn inline_config(cx: &Ctx<'_>) -> Check {
    needs_push(cx)?;
    let webhook = cx.webhook()?.clone();
    cx.reference(crate::contract::Behaviour::Complete).await?;
    let name = cx.nonce();
    let mut config = TaskPushNotificationConfig::new(webhook.url(&name));
    config.authentication = Some(AuthenticationInfo::new("Bearer", "inline"));
    let mut request = SendMessageRequest::new(cx.msg("echo pushed"));
    request.configuration = Some(SendMessageConfiguration {
        task_push_notification_config: Some(Box::new(config)),
        ..Default::default()
    });
    let task = cx.send_task_with(request).await?;
    let wait = cx.timing().call_timeout.min(Duration::from_secs(5));
    let got = webhook.wait_until(&name, wait, ends_terminal).await;
    ensure(
        !got.is_empty(),
        "notifications at the inline config's webhook",
        "none",
    )?;
    let items = check_deliveries(cx, &got, &task.id)?;
    check_order(&items)?;
    check_credentials(&got, "Bearer inline")?;
    cx.note("delivered");
    Ok(())
}

async fn ssrf(cx: &Ctx<'_>) -> Check {
    let task = parked_task(cx).await?;
    for url in [
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/hook",
        "http://[::1]/hook",
    ] {
        let mut config = TaskPushNotificationConfig::new(url);
        config.task_id = task.id.clone();
        let got = cx
            .within(
                cx.svc()
                    .create_task_push_notification_config(&cx.cx(), config),
            )
            .await?;
        if let Ok(c) = got {
            return Err(fail(
                format!("the webhook URL {url} refused"),
                format!("config {:?} created", c.id),
            ));
        }
    }
    cx.note("refused");
    Ok(())
}
