//! What scenarios share: the same operation as a JSON-RPC call or an
//! HTTP+JSON request, and A2A errors and results read off the wire for
//! either binding.

use a2a_types::{ErrorKind, ERROR_DOMAIN, ERROR_INFO_TYPE};
use http::Method;
use serde_json::{json, Value};

use crate::binding::Binding;
use crate::check::{fail, skip, Check};
use crate::context::Ctx;
use crate::wire::{Reply, Req};

/// An error as it came off the wire, on either binding.
#[derive(Debug, Clone)]
pub(crate) struct WireError {
    /// The HTTP status.
    pub(crate) status: u16,
    /// The JSON-RPC `error.code`, or the `google.rpc.Status` `error.code`.
    pub(crate) code: Option<i64>,
    /// `error.data` (JSON-RPC) or `error.details` (HTTP+JSON).
    pub(crate) details: Vec<Value>,
    /// The whole error object.
    pub(crate) error: Value,
}

impl WireError {
    /// The `google.rpc.ErrorInfo` detail, if any.
    pub(crate) fn error_info(&self) -> Option<&Value> {
        self.details
            .iter()
            .find(|d| d.get("@type").and_then(Value::as_str) == Some(ERROR_INFO_TYPE))
    }
}

/// Reads `reply` as an error answer of this binding: a JSON-RPC error
/// response, or an HTTP error status with a `google.rpc.Status` body.
pub(crate) fn wire_error(cx: &Ctx<'_>, reply: &Reply) -> Check<WireError> {
    let body = reply
        .json()
        .map_err(|_| fail("an A2A error answer with a JSON body", reply.describe()))?;
    let error = body.get("error").cloned().unwrap_or(Value::Null);
    if !error.is_object() {
        return Err(fail(
            "an error answer with an `error` object",
            reply.describe(),
        ));
    }
    let details_key = if cx.binding() == Binding::JsonRpc {
        "data"
    } else {
        "details"
    };
    let details = match error.get(details_key) {
        Some(Value::Array(items)) => items.clone(),
        _ => Vec::new(),
    };
    if cx.binding() == Binding::HttpJson && reply.status.is_success() {
        return Err(fail("an HTTP error status", reply.describe()));
    }
    Ok(WireError {
        status: reply.status.as_u16(),
        code: error.get("code").and_then(Value::as_i64),
        details,
        error,
    })
}

/// Expects `reply` to be the error `kind` as this binding maps it
/// (spec 5.4): the JSON-RPC code; or the HTTP status and, for A2A errors,
/// a `google.rpc.ErrorInfo` with the reason and the A2A domain (spec 11.6).
pub(crate) fn expect_wire_error(cx: &Ctx<'_>, reply: &Reply, kind: ErrorKind) -> Check<WireError> {
    let e = wire_error(cx, reply)?;
    match cx.binding() {
        Binding::JsonRpc => {
            if e.code != Some(kind.code().0) {
                return Err(fail(
                    format!("JSON-RPC error code {} ({})", kind.code(), kind.name()),
                    reply.describe(),
                ));
            }
        }
        _ => {
            if e.status != kind.http_status() {
                return Err(fail(
                    format!("HTTP {} for {}", kind.http_status(), kind.name()),
                    reply.describe(),
                ));
            }
            if kind.is_a2a_specific() {
                let info = e.error_info().ok_or_else(|| {
                    fail(
                        format!(
                            "a google.rpc.ErrorInfo detail with reason {}",
                            kind.reason()
                        ),
                        reply.describe(),
                    )
                })?;
                let reason = info.get("reason").and_then(Value::as_str);
                let domain = info.get("domain").and_then(Value::as_str);
                if reason != Some(kind.reason()) || domain != Some(ERROR_DOMAIN) {
                    return Err(fail(
                        format!(
                            "ErrorInfo reason {} in domain {ERROR_DOMAIN}",
                            kind.reason()
                        ),
                        format!("reason {reason:?}, domain {domain:?}"),
                    ));
                }
            }
        }
    }
    Ok(e)
}

/// `Some(skip)` when `reply` is the agent declining `operation` where the
/// spec allows it (the rule in [`crate::offers`]): `-32004`/`-32003`, or
/// an HTTP+JSON error whose ErrorInfo names that reason.
pub(crate) fn wire_declined(
    cx: &Ctx<'_>,
    reply: &Reply,
    operation: a2a_types::Operation,
) -> Option<crate::Stop> {
    let body = reply.json().ok()?;
    let error = body.get("error")?;
    let kind = match cx.binding() {
        Binding::JsonRpc => {
            let code = error.get("code").and_then(Value::as_i64)?;
            [
                ErrorKind::UnsupportedOperation,
                ErrorKind::PushNotificationNotSupported,
            ]
            .into_iter()
            .find(|k| k.code().0 == code)?
        }
        _ => {
            let reason = error
                .get("details")
                .and_then(Value::as_array)?
                .iter()
                .find(|d| d.get("@type").and_then(Value::as_str) == Some(ERROR_INFO_TYPE))?
                .get("reason")
                .and_then(Value::as_str)?;
            ErrorKind::from_reason(reason)?
        }
    };
    let error = a2a_types::A2aError::from_kind(kind);
    cx.declined(operation, &error)
}

/// The `result` of a JSON-RPC success answer, or the body of an HTTP+JSON
/// success answer.
pub(crate) fn wire_result(cx: &Ctx<'_>, reply: &Reply) -> Check<Value> {
    let body = reply.json()?;
    match cx.binding() {
        Binding::JsonRpc => match body.get("result") {
            Some(result) if body.get("error").is_none() => Ok(result.clone()),
            _ => Err(fail(
                "a JSON-RPC success answer with a result",
                reply.describe(),
            )),
        },
        _ if reply.status.is_success() => Ok(body),
        _ => Err(fail("a 2xx answer", reply.describe())),
    }
}

/// Checks the items of a stream (spec 3.1.2): each a StreamResponse with
/// exactly one member, the first a Task or a Message.
pub(crate) fn check_stream_items(items: &[Value]) -> Check {
    for (i, item) in items.iter().enumerate() {
        let members = ["task", "message", "statusUpdate", "artifactUpdate"]
            .iter()
            .filter(|k| item.get(**k).is_some())
            .count();
        if members != 1 {
            return Err(fail(
                "each event a StreamResponse with one member",
                format!("event {i}: {}", crate::abbreviate(&item.to_string())),
            ));
        }
    }
    let first = items
        .first()
        .ok_or_else(|| fail("at least one event", "none"))?;
    if first.get("task").is_none() && first.get("message").is_none() {
        return Err(fail(
            "a Task or a Message first",
            crate::abbreviate(&first.to_string()),
        ));
    }
    Ok(())
}

/// `SendMessage` of a user message with `text`.
pub(crate) fn send_req(cx: &Ctx<'_>, text: &str, configuration: Value) -> Check<Req> {
    let params = json!({
        "message": {"messageId": format!("m-{}", cx.nonce()), "role": "ROLE_USER", "parts": [{"text": text}]},
        "configuration": configuration,
    });
    let rest_params = params.clone();
    cx.op("SendMessage", params, |cx| {
        cx.rest_post("/message:send", &rest_params)
    })
}

/// The params of a `SendMessage` of a plain user message, which any agent
/// answers (the cooperation-free probes of the wire scenarios).
pub(crate) fn plain_send_params(cx: &Ctx<'_>) -> Value {
    json!({
        "message": {"messageId": format!("m-{}", cx.nonce()), "role": "ROLE_USER", "parts": [{"text": "hello"}]},
    })
}

/// `SendStreamingMessage` of a user message with `text`.
pub(crate) fn stream_req(cx: &Ctx<'_>, text: &str) -> Check<Req> {
    let params = json!({
        "message": {"messageId": format!("m-{}", cx.nonce()), "role": "ROLE_USER", "parts": [{"text": text}]},
    });
    let rest_params = params.clone();
    cx.op("SendStreamingMessage", params, |cx| {
        cx.rest_post("/message:stream", &rest_params)
    })
}

/// `GetTask` of `id`.
pub(crate) fn get_req(cx: &Ctx<'_>, id: &str) -> Check<Req> {
    cx.op("GetTask", json!({"id": id}), |cx| {
        cx.rest(Method::GET, &format!("/tasks/{}", pct(id)))
    })
}

/// `ListTasks` with `params` (JSON-RPC) / `query` (HTTP+JSON, without `?`).
pub(crate) fn list_req(cx: &Ctx<'_>, params: Value, query: &str) -> Check<Req> {
    cx.op("ListTasks", params, |cx| {
        cx.rest(
            Method::GET,
            &if query.is_empty() {
                "/tasks".to_owned()
            } else {
                format!("/tasks?{query}")
            },
        )
    })
}

/// `CancelTask` of `id`.
pub(crate) fn cancel_req(cx: &Ctx<'_>, id: &str) -> Check<Req> {
    cx.op("CancelTask", json!({"id": id}), |cx| {
        cx.rest_post(&format!("/tasks/{}:cancel", pct(id)), &json!({"id": id}))
    })
}

/// `SubscribeToTask` of `id` (HTTP+JSON: `POST`, spec 11.3).
pub(crate) fn subscribe_req(cx: &Ctx<'_>, id: &str) -> Check<Req> {
    cx.op("SubscribeToTask", json!({"id": id}), |cx| {
        cx.rest_post(&format!("/tasks/{}:subscribe", pct(id)), &json!({"id": id}))
    })
}

/// Sends `text` over the raw binding and answers the task it created.
pub(crate) async fn wire_task(cx: &Ctx<'_>, text: &str) -> Check<Value> {
    let reply = send_req(cx, text, json!({}))?.send(cx).await?;
    let result = wire_result(cx, &reply)?;
    result
        .get("task")
        .cloned()
        .ok_or_else(|| fail(format!("a task for {text:?}"), reply.describe()))
}

/// The string at `pointer` in `v`, or a failure.
pub(crate) fn str_at<'v>(v: &'v Value, pointer: &str) -> Check<&'v str> {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            fail(
                format!("a string at {pointer}"),
                crate::abbreviate(&v.to_string()),
            )
        })
}

/// Percent-encodes a path segment.
pub(crate) fn pct(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub(crate) use crate::context::needs_streaming;

/// Skips unless the card declares push notifications.
pub(crate) fn needs_push(cx: &Ctx<'_>) -> Check {
    if cx.card().capabilities.push_notifications == Some(true) {
        Ok(())
    } else {
        Err(skip(
            "the card does not declare capabilities.pushNotifications",
        ))
    }
}
