//! Authentication (3.3.2), authorization scoping (13.1) and the extended
//! agent card (3.1.11, 3.3.4, 13.3).

use a2a_types::{
    CancelTaskRequest, ErrorKind, GetExtendedAgentCardRequest, GetTaskRequest, ListTasksRequest,
    SendMessageRequest, SubscribeToTaskRequest, TaskPushNotificationConfig, Validate,
};

use crate::binding::{Kind, BOTH};
use crate::check::{ensure, fail, skip, Check};
use crate::context::{describe_error, expect_error, Ctx};
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::{get_req, wire_error};

pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!("auth.missing-credentials", "3.3.2", Must, Kind::Wire(BOTH),
            "a request without the credentials the card requires is rejected", missing_credentials),
        scenario!("auth.invalid-credentials", "3.3.2", Must, Kind::Wire(BOTH),
            "a request with invalid credentials is rejected", invalid_credentials),
        scenario!("auth.challenge", "3.3.2", Should, Kind::Wire(BOTH),
            "a 401 says which scheme is required (WWW-Authenticate)", challenge),
        scenario!("auth.invalid-token-challenge", "3.3.2", Should, Kind::Wire(BOTH),
            "a 401 to a bearer token it does not accept says error=\"invalid_token\" (RFC 6750 section 3.1)",
            invalid_token_challenge),
        scenario!("scope.get", "13.1", Must, Kind::Behaviour,
            "another caller's task is not found by GetTask", scope_get, tck = ["CORE-GET-002"]),
        scenario!("scope.list", "13.1", Must, Kind::Behaviour,
            "ListTasks lists only the caller's own tasks", scope_list, tck = ["CORE-LIST-001"]),
        scenario!("scope.task-operations", "13.1", Must, Kind::Behaviour,
            "cancel, subscribe, push configs and messages cannot reach another caller's task", scope_operations),
        scenario!("extended-card.requires-auth", "13.3", Must, Kind::Behaviour,
            "GetExtendedAgentCard requires authentication", extended_requires_auth, tck = ["CARD-EXT-001"]),
        scenario!("extended-card.authenticated", "3.1.11", Must, Kind::Behaviour,
            "an authenticated caller receives a valid extended card", extended_authenticated, tck = ["CARD-EXT-001"]),
        scenario!("capability.extended-card", "3.3.4", Must, Kind::Behaviour,
            "without capabilities.extendedAgentCard, GetExtendedAgentCard answers UnsupportedOperationError", extended_gate, tck = ["CORE-CAP-003"]),
    ]
}

fn needs_auth(cx: &Ctx<'_>) -> Check {
    if cx.requires_auth() {
        Ok(())
    } else {
        Err(skip("the card requires no authentication"))
    }
}

fn is_auth_error(cx: &Ctx<'_>, reply: &crate::wire::Reply) -> Check {
    if matches!(reply.status.as_u16(), 401 | 403) {
        return Ok(());
    }
    let e = wire_error(cx, reply).map_err(|_| {
        fail(
            "a 401 or 403 answer, or an authentication error",
            reply.describe(),
        )
    })?;
    let kind = e.code.map(|c| a2a_types::ErrorCode(c).kind());
    ensure(
        matches!(
            kind,
            Some(ErrorKind::Unauthenticated | ErrorKind::PermissionDenied)
        ),
        "a 401 or 403 answer, or an authentication error",
        reply.describe(),
    )
}

async fn missing_credentials(cx: &Ctx<'_>) -> Check {
    needs_auth(cx)?;
    let mut req = get_req(cx, &format!("t-{}", cx.nonce()))?;
    for name in cx.auth_headers().keys() {
        req = req.without(name.as_str());
    }
    let reply = req.send(cx).await?;
    is_auth_error(cx, &reply)
}

/// A GetTask whose credentials are replaced by a bearer token no agent
/// issued.
async fn with_invalid_bearer(cx: &Ctx<'_>) -> Check<crate::wire::Reply> {
    needs_auth(cx)?;
    let mut req = get_req(cx, &format!("t-{}", cx.nonce()))?;
    for name in cx.auth_headers().keys() {
        req = req.without(name.as_str());
    }
    let reply = req
        .header("authorization", "Bearer certainly-not-a-valid-token")
        .send(cx)
        .await?;
    Ok(reply)
}

async fn invalid_credentials(cx: &Ctx<'_>) -> Check {
    let reply = with_invalid_bearer(cx).await?;
    is_auth_error(cx, &reply)
}

async fn challenge(cx: &Ctx<'_>) -> Check {
    needs_auth(cx)?;
    let mut req = get_req(cx, &format!("t-{}", cx.nonce()))?;
    for name in cx.auth_headers().keys() {
        req = req.without(name.as_str());
    }
    let reply = req.send(cx).await?;
    if reply.status.as_u16() != 401 {
        return Err(skip(format!(
            "the agent answers {} rather than 401",
            reply.status.as_u16()
        )));
    }
    ensure(
        reply.headers.contains_key(http::header::WWW_AUTHENTICATE),
        "a WWW-Authenticate challenge with the 401",
        "none",
    )
}

/// RFC 6750 section 3.1: a `Bearer` challenge answering a token that was
/// sent carries `error="invalid_token"`, so that the client fetches a new
/// token instead of asking its user for one.
async fn invalid_token_challenge(cx: &Ctx<'_>) -> Check {
    let reply = with_invalid_bearer(cx).await?;
    if reply.status.as_u16() != 401 {
        return Err(skip(format!(
            "the agent answers {} rather than 401",
            reply.status.as_u16()
        )));
    }
    let bearer: Vec<&str> = reply
        .headers
        .get_all(http::header::WWW_AUTHENTICATE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter(|v| v.len() >= 6 && v[..6].eq_ignore_ascii_case("bearer"))
        .collect();
    if bearer.is_empty() {
        return Err(skip("the 401 carries no Bearer challenge"));
    }
    ensure(
        bearer
            .iter()
            .any(|c| c.contains(r#"error="invalid_token""#)),
        r#"a Bearer challenge with error="invalid_token""#,
        bearer.join(" | "),
    )
}

async fn scope_get(cx: &Ctx<'_>) -> Check {
    let other = cx.other_cx()?;
    let task = cx.any_task("echo private").await?;
    let got = cx
        .within(cx.svc().get_task(&other, GetTaskRequest::new(&task.id)))
        .await?;
    let e = expect_error(got, ErrorKind::TaskNotFound, "for another caller's task")?;
    cx.note(e.kind().name());
    Ok(())
}

async fn scope_list(cx: &Ctx<'_>) -> Check {
    let other = cx.other_cx()?;
    let task = cx.any_task("echo private").await?;
    for filter in [task.context_id.clone(), String::new()] {
        let page = cx
            .within(cx.svc().list_tasks(
                &other,
                ListTasksRequest {
                    context_id: filter.clone(),
                    page_size: Some(100),
                    ..Default::default()
                },
            ))
            .await?;
        let page = cx
            .offered(a2a_types::Operation::ListTasks, page)?
            .map_err(|e| {
                fail(
                    "ListTasks to succeed for the other caller",
                    describe_error(&e),
                )
            })?;
        ensure(
            page.tasks.iter().all(|t| t.id != task.id),
            "another caller's task not listed",
            format!("task {:?} listed (contextId filter {filter:?})", task.id),
        )?;
    }
    cx.note("not listed");
    Ok(())
}

async fn scope_operations(cx: &Ctx<'_>) -> Check {
    let other = cx.other_cx()?;
    let ask = cx
        .ask(crate::contract::Behaviour::InputRequired, "input")
        .await?;
    let task = cx.send_task_with(SendMessageRequest::new(ask)).await?;
    let got = cx
        .within(
            cx.svc()
                .cancel_task(&other, CancelTaskRequest::new(&task.id)),
        )
        .await?;
    expect_error(
        got,
        ErrorKind::TaskNotFound,
        "for CancelTask of another caller's task",
    )?;
    let mut m = cx.msg("answer");
    m.task_id = task.id.clone();
    let got = cx
        .within(cx.svc().send_message(&other, SendMessageRequest::new(m)))
        .await?;
    expect_error(
        got,
        ErrorKind::TaskNotFound,
        "for a message to another caller's task",
    )?;
    if cx.card().capabilities.streaming == Some(true) {
        let got = cx
            .within(cx.svc().subscribe_to_task(
                &other,
                SubscribeToTaskRequest {
                    id: task.id.clone(),
                    ..Default::default()
                },
            ))
            .await?;
        expect_error(
            got.map(|_| "a stream"),
            ErrorKind::TaskNotFound,
            "for SubscribeToTask of another caller's task",
        )?;
    }
    if cx.card().capabilities.push_notifications == Some(true) {
        let mut config = TaskPushNotificationConfig::new("https://push.conformance.invalid/hook");
        config.task_id = task.id.clone();
        let got = cx
            .within(
                cx.svc()
                    .create_task_push_notification_config(&other, config),
            )
            .await?;
        expect_error(
            got,
            ErrorKind::TaskNotFound,
            "for a push config on another caller's task",
        )?;
    }
    let mine = cx.get(&task.id, None).await?;
    ensure(
        mine.status.state == a2a_types::TaskState::InputRequired,
        "the owner's task untouched (INPUT_REQUIRED)",
        crate::state_name(mine.status.state),
    )?;
    cx.note("all not found");
    Ok(())
}

fn needs_extended(cx: &Ctx<'_>) -> Check {
    if cx.card().capabilities.extended_agent_card == Some(true) {
        Ok(())
    } else {
        Err(skip(
            "the card does not declare capabilities.extendedAgentCard",
        ))
    }
}

async fn extended_requires_auth(cx: &Ctx<'_>) -> Check {
    needs_extended(cx)?;
    let got = cx
        .within(
            cx.svc().get_extended_agent_card(
                &cx.anonymous_cx(),
                GetExtendedAgentCardRequest::default(),
            ),
        )
        .await?;
    match got {
        Err(e)
            // The JSON-RPC code of an authentication error is the agent's
            // choice (3.3.2: "JSON-RPC custom error"); its HTTP status is not.
            if matches!(
                e.kind(),
                ErrorKind::Unauthenticated | ErrorKind::PermissionDenied
            ) || matches!(e.http_status(), 401 | 403) =>
        {
            cx.note("refused");
            Ok(())
        }
        Err(e) => Err(fail(
            "an authentication error without credentials",
            describe_error(&e),
        )),
        Ok(card) => Err(fail(
            "an authentication error without credentials",
            format!("the card {:?}", card.name),
        )),
    }
}

async fn extended_authenticated(cx: &Ctx<'_>) -> Check {
    needs_extended(cx)?;
    if !cx.requires_auth() && cx.target().callers.iter().all(|c| c.headers.is_empty()) {
        return Err(skip(
            "needs credentials for the extended card (give --bearer or --header)",
        ));
    }
    let card = cx
        .within(
            cx.svc()
                .get_extended_agent_card(&cx.cx(), GetExtendedAgentCardRequest::default()),
        )
        .await?
        .map_err(|e| {
            fail(
                "the extended card for an authenticated caller",
                describe_error(&e),
            )
        })?;
    card.validate().map_err(|v| {
        let v: Vec<String> = v
            .iter()
            .map(|v| format!("{}: {}", v.field, v.description))
            .collect();
        fail("an extended card with every REQUIRED field", v.join("; "))
    })?;
    cx.note("valid card");
    Ok(())
}

async fn extended_gate(cx: &Ctx<'_>) -> Check {
    if cx.card().capabilities.extended_agent_card == Some(true) {
        return Err(skip("the card declares capabilities.extendedAgentCard"));
    }
    let got = cx
        .within(
            cx.svc()
                .get_extended_agent_card(&cx.cx(), GetExtendedAgentCardRequest::default()),
        )
        .await?;
    let e = expect_error(
        got,
        ErrorKind::UnsupportedOperation,
        "for GetExtendedAgentCard",
    )?;
    cx.note(e.kind().name());
    Ok(())
}
