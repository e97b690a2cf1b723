//! Errors on the wire: the mapping of each A2A error to each binding
//! (5.4), error details (3.3.2), and version negotiation (3.6).

use a2a_types::{ErrorKind, BAD_REQUEST_TYPE};
use http::Method;
use serde_json::{json, Value};

use crate::binding::{Binding, Kind, BOTH};
use crate::check::{ensure, fail, skip, Check};
use crate::context::Ctx;
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::{
    cancel_req, expect_wire_error, get_req, needs_streaming, pct, str_at, subscribe_req,
    wire_error, wire_task,
};

pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!(
            "errors.input-modes",
            "3.3.2",
            Should,
            Kind::Wire(BOTH),
            "a part whose media type the card does not accept answers ContentTypeNotSupportedError (-32005 / 400) naming the part",
            input_modes, tck = ["CORE-SEND-003"]
        ),
        scenario!(
            "errors.accepted-output-modes",
            "3.3.2",
            Should,
            Kind::Wire(BOTH),
            "acceptedOutputModes the card does not declare is a preference (3.2.2: the agent SHOULD tailor its output): the request is answered, or refused with ContentTypeNotSupportedError, not another error",
            accepted_output_modes
        ),
        scenario!(
            "errors.task-not-found",
            "5.4",
            Must,
            Kind::Wire(BOTH),
            "TaskNotFoundError maps to -32001 / HTTP 404 with reason TASK_NOT_FOUND",
            task_not_found, tck = ["HTTP_JSON-STATUS-001"]
        ),
        scenario!(
            "errors.task-not-cancelable",
            "5.4",
            Must,
            Kind::Wire(BOTH),
            "TaskNotCancelableError maps to -32002 / HTTP 400 with reason TASK_NOT_CANCELABLE",
            not_cancelable, tck = ["HTTP_JSON-STATUS-001"]
        ),
        scenario!(
            "errors.unsupported-operation",
            "5.4",
            Must,
            Kind::Wire(BOTH),
            "UnsupportedOperationError maps to -32004 / HTTP 400 with reason UNSUPPORTED_OPERATION",
            unsupported, tck = ["HTTP_JSON-STATUS-001"]
        ),
        scenario!(
            "errors.push-not-supported",
            "5.4",
            Must,
            Kind::Wire(BOTH),
            "PushNotificationNotSupportedError maps to -32003 / HTTP 400",
            push_not_supported, tck = ["HTTP_JSON-STATUS-001"]
        ),
        scenario!(
            "errors.invalid-params",
            "3.3.2",
            Must,
            Kind::Wire(BOTH),
            "parameters of the wrong type answer InvalidParamsError (-32602 / HTTP 400)",
            invalid_params, tck = ["CORE-ERR-002"]
        ),
        scenario!(
            "errors.field-violations",
            "3.3.2",
            Should,
            Kind::Wire(BOTH),
            "a validation error names the field (google.rpc.BadRequest)",
            field_violations, tck = ["CORE-ERR-001"]
        ),
        scenario!(
            "errors.typed-details",
            "3.3.2",
            Must,
            Kind::Wire(BOTH),
            "every error detail object carries an @type",
            typed_details
        ),
        scenario!(
            "capability.required-extension",
            "3.3.4",
            Must,
            Kind::Wire(BOTH),
            "a request not declaring a required extension answers ExtensionSupportRequiredError",
            required_extension, tck = ["CORE-CAP-004"]
        ),
        scenario!(
            "version.unsupported",
            "3.6.2",
            Must,
            Kind::Wire(BOTH),
            "an unsupported A2A-Version answers VersionNotSupportedError (-32009 / HTTP 400)",
            version_unsupported, tck = ["VER-SERVER-002"]
        ),
        scenario!(
            "version.missing-is-0.3",
            "3.6.2",
            Must,
            Kind::Wire(BOTH),
            "a request without A2A-Version is 0.3: refused by a 1.0-only agent",
            version_missing, tck = ["VER-SERVER-003"]
        ),
        scenario!(
            "version.patch-ignored",
            "3.6",
            Must,
            Kind::Wire(BOTH),
            "a patch version in A2A-Version is not considered",
            version_patch, tck = ["VER-CLIENT-002"]
        ),
        scenario!(
            "version.query-parameter",
            "3.6.1",
            Should,
            Kind::Wire(BOTH),
            "A2A-Version is accepted as a request parameter",
            version_query
        ),
    ]
}

fn unknown(cx: &Ctx<'_>) -> String {
    format!("no-such-task-{}", cx.nonce())
}

async fn task_not_found(cx: &Ctx<'_>) -> Check {
    let reply = get_req(cx, &unknown(cx))?.send(cx).await?;
    expect_wire_error(cx, &reply, ErrorKind::TaskNotFound).map(drop)
}

async fn not_cancelable(cx: &Ctx<'_>) -> Check {
    cx.reference(crate::contract::Behaviour::Complete).await?;
    let task = wire_task(cx, "echo finished").await?;
    let id = str_at(&task, "/id")?;
    let reply = cancel_req(cx, id)?.send(cx).await?;
    expect_wire_error(cx, &reply, ErrorKind::TaskNotCancelable).map(drop)
}

async fn unsupported(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    cx.reference(crate::contract::Behaviour::Complete).await?;
    let task = wire_task(cx, "echo finished").await?;
    let id = str_at(&task, "/id")?;
    let reply = subscribe_req(cx, id)?.send(cx).await?;
    expect_wire_error(cx, &reply, ErrorKind::UnsupportedOperation).map(drop)
}

async fn push_not_supported(cx: &Ctx<'_>) -> Check {
    if cx.card().capabilities.push_notifications == Some(true) {
        return Err(skip("the card declares capabilities.pushNotifications"));
    }
    let id = unknown(cx);
    let config = json!({"taskId": id, "url": "https://push.conformance.invalid/hook"});
    let rest_config = config.clone();
    let reply = cx
        .op("CreateTaskPushNotificationConfig", config, |cx| {
            cx.rest_post(
                &format!("/tasks/{}/pushNotificationConfigs", pct(&id)),
                &rest_config,
            )
        })?
        .send(cx)
        .await?;
    expect_wire_error(cx, &reply, ErrorKind::PushNotificationNotSupported).map(drop)
}

/// A `SendMessage` whose `message` is not a Message but a number.
fn wrong_type(cx: &Ctx<'_>) -> Check<crate::wire::Req> {
    let params = json!({"message": 42});
    let rest = params.clone();
    cx.op("SendMessage", params, |cx| {
        cx.rest_post("/message:send", &rest)
    })
}

async fn invalid_params(cx: &Ctx<'_>) -> Check {
    let reply = wrong_type(cx)?.send(cx).await?;
    expect_wire_error(cx, &reply, ErrorKind::InvalidParams).map(drop)
}

async fn field_violations(cx: &Ctx<'_>) -> Check {
    let reply = wrong_type(cx)?.send(cx).await?;
    let e = expect_wire_error(cx, &reply, ErrorKind::InvalidParams)?;
    let fields: Vec<&str> = e
        .details
        .iter()
        .filter(|d| d.get("@type").and_then(Value::as_str) == Some(BAD_REQUEST_TYPE))
        .filter_map(|d| d.get("fieldViolations").and_then(Value::as_array))
        .flatten()
        .filter_map(|v| v.get("field").and_then(Value::as_str))
        .collect();
    ensure(
        fields.iter().any(|f| f.contains("message")),
        "a google.rpc.BadRequest field violation naming `message`",
        format!("fields {fields:?}"),
    )
}

async fn typed_details(cx: &Ctx<'_>) -> Check {
    let mut checked = 0;
    for reply in [
        get_req(cx, &unknown(cx))?.send(cx).await?,
        wrong_type(cx)?.send(cx).await?,
    ] {
        let e = wire_error(cx, &reply)?;
        let key = if cx.binding() == Binding::JsonRpc {
            "data"
        } else {
            "details"
        };
        if let Some(d) = e.error.get(key) {
            if !d.is_null() && !d.is_array() {
                return Err(fail(
                    format!("error.{key} to be an array of objects"),
                    reply.describe(),
                ));
            }
        }
        for d in &e.details {
            checked += 1;
            ensure(
                d.get("@type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| !t.is_empty()),
                "an @type in every detail object",
                crate::abbreviate(&d.to_string()),
            )?;
        }
    }
    if checked == 0 {
        return Err(skip("the errors carried no details to check"));
    }
    Ok(())
}

async fn required_extension(cx: &Ctx<'_>) -> Check {
    let Some(ext) = cx
        .card()
        .capabilities
        .extensions
        .iter()
        .find(|e| e.required)
    else {
        return Err(skip("the card declares no required extension"));
    };
    let uri = ext.uri.clone();
    let reply = get_req(cx, &unknown(cx))?
        .without("a2a-extensions")
        .send(cx)
        .await?;
    expect_wire_error(cx, &reply, ErrorKind::ExtensionSupportRequired).map_err(|e| match e {
        crate::Stop::Fail { expected, got } => {
            crate::fail(format!("{expected} (the card requires {uri})"), got)
        }
        other => other,
    })?;
    let reply = get_req(cx, &unknown(cx))?
        .header("a2a-extensions", &uri)
        .send(cx)
        .await?;
    expect_wire_error(cx, &reply, ErrorKind::TaskNotFound).map(drop)
}

fn versioned(cx: &Ctx<'_>, version: Option<&str>) -> Check<crate::wire::Req> {
    let req = get_req(cx, &unknown(cx))?.without("a2a-version");
    Ok(match version {
        Some(v) => req.header("a2a-version", v),
        None => req,
    })
}

async fn version_unsupported(cx: &Ctx<'_>) -> Check {
    let reply = versioned(cx, Some("99.0"))?.send(cx).await?;
    expect_wire_error(cx, &reply, ErrorKind::VersionNotSupported).map(drop)
}

async fn version_missing(cx: &Ctx<'_>) -> Check {
    let serves_03 = cx
        .card()
        .supported_interfaces
        .iter()
        .any(|i| i.protocol_version.trim() == "0.3" || i.protocol_version.starts_with("0.3."));
    if serves_03 {
        return Err(skip("the card declares a 0.3 interface"));
    }
    let reply = versioned(cx, None)?.send(cx).await?;
    expect_wire_error(cx, &reply, ErrorKind::VersionNotSupported).map(drop)
}

async fn version_patch(cx: &Ctx<'_>) -> Check {
    let reply = versioned(cx, Some("1.0.7"))?.send(cx).await?;
    expect_wire_error(cx, &reply, ErrorKind::TaskNotFound).map(drop)
}

async fn version_query(cx: &Ctx<'_>) -> Check {
    let id = unknown(cx);
    let req = match cx.binding() {
        Binding::JsonRpc => {
            let url = format!("{}?A2A-Version=1.0", cx.jsonrpc_url()?);
            crate::wire::Req::new(Method::POST, url)
                .headers(&cx.auth_headers())
                .json(
                    &json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": id}}),
                    "application/json",
                )
        }
        _ => cx
            .rest(Method::GET, &format!("/tasks/{}?A2A-Version=1.0", pct(&id)))?
            .without("a2a-version"),
    };
    let reply = req.send(cx).await?;
    expect_wire_error(cx, &reply, ErrorKind::TaskNotFound).map(drop)?;
    Ok(())
}

/// A media type no mode of `modes` covers, if the suite knows one.
fn uncovered(modes: &[&str]) -> Option<&'static str> {
    ["video/mp4", "application/x-a2a-conformance"]
        .into_iter()
        .find(|t| {
            !modes
                .iter()
                .any(|m| a2a_transport::server::media_range_covers(m, t))
        })
}

async fn input_modes(cx: &Ctx<'_>) -> Check {
    let card = cx.card();
    let modes: Vec<&str> = card
        .default_input_modes
        .iter()
        .chain(card.skills.iter().flat_map(|s| s.input_modes.iter()))
        .map(String::as_str)
        .collect();
    if modes.is_empty() {
        return Err(skip("the card declares no input modes"));
    }
    let Some(media_type) = uncovered(&modes) else {
        return Err(skip("the card accepts every media type the suite knows"));
    };
    let params = json!({"message": {"messageId": format!("m-{}", cx.nonce()), "role": "ROLE_USER",
        "parts": [{"text": "echo modes"}, {"raw": "AAAA", "mediaType": media_type}]}});
    let rest_params = params.clone();
    let reply = cx
        .op("SendMessage", params, |cx| {
            cx.rest_post("/message:send", &rest_params)
        })?
        .send(cx)
        .await?;
    expect_wire_error(cx, &reply, ErrorKind::ContentTypeNotSupported)?;
    let text = String::from_utf8_lossy(&reply.body).into_owned();
    ensure(
        text.contains("parts[1]") || text.contains(media_type),
        format!("an error naming parts[1] or {media_type}"),
        reply.describe(),
    )
}

/// What the spec requires of `acceptedOutputModes` (3.2.1
/// `SendMessageRequest.configuration`, 3.2.2 `SendMessageConfiguration`):
/// "the media types the client is prepared to accept for response parts.
/// Agents SHOULD use this to tailor their output". It is a preference, and
/// nothing in 3.2 or 3.3.2 says a request naming modes the agent cannot
/// produce is an error. The one error 3.3.2 has for media types,
/// ContentTypeNotSupportedError ("a Media Type provided in the request's
/// message parts or implied for an artifact is not supported"), is an
/// answer the agent MAY choose. So the request is a valid one: it is
/// answered (a task or a message) or refused with
/// ContentTypeNotSupportedError; any other error (InvalidParamsError, an
/// InternalError) treats a valid request as a broken one and fails.
async fn accepted_output_modes(cx: &Ctx<'_>) -> Check {
    let outputs: Vec<&str> = cx
        .card()
        .default_output_modes
        .iter()
        .map(String::as_str)
        .collect();
    if outputs.is_empty() {
        return Err(skip("the card declares no output modes"));
    }
    let Some(media_type) = uncovered(&outputs) else {
        return Err(skip("the card answers in every media type the suite knows"));
    };
    let reply = crate::scenarios::send_req(
        cx,
        "echo modes",
        json!({"acceptedOutputModes": [media_type]}),
    )?
    .send(cx)
    .await?;
    let answered = match cx.binding() {
        Binding::JsonRpc => reply
            .json()
            .ok()
            .is_some_and(|v| v.get("result").is_some() && v.get("error").is_none()),
        _ => reply.status.is_success(),
    };
    if answered {
        let result = crate::scenarios::wire_result(cx, &reply)?;
        ensure(
            result.get("task").is_some() || result.get("message").is_some(),
            "a SendMessageResponse (a task or a message)",
            reply.describe(),
        )?;
        cx.found(format!(
            "answered acceptedOutputModes [{media_type}] with a reply"
        ));
        return Ok(());
    }
    expect_wire_error(cx, &reply, ErrorKind::ContentTypeNotSupported).map_err(
        |stop| match stop {
            crate::Stop::Fail { got, .. } => fail(
                format!(
                "a reply, or ContentTypeNotSupportedError, for acceptedOutputModes [{media_type}]"
            ),
                got,
            ),
            other => other,
        },
    )?;
    cx.found("refused with ContentTypeNotSupportedError");
    Ok(())
}
