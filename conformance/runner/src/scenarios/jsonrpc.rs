//! The JSON-RPC binding (9): envelopes and ids (9.3), content types
//! (9.1), the standard errors and error objects (9.5), the method table
//! (5.3) and SSE framing (9.4.2).

use a2a_types::{ErrorKind, Operation};
use serde_json::{json, Value};
use tokio::time::Instant;

use crate::binding::{Kind, JSONRPC};
use crate::check::{ensure, fail, skip, Check};
use crate::context::Ctx;
use crate::contract::Contract;
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::{check_stream_items, needs_streaming, plain_send_params, stream_req};
use crate::wire::Reply;

pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!("jsonrpc.parse-error", "9.5", Must, Kind::Wire(JSONRPC),
            "a body that is not JSON answers -32700 with id null", parse_error),
        scenario!("jsonrpc.invalid-request", "9.5", Must, Kind::Wire(JSONRPC),
            "JSON that is not a request object answers -32600", invalid_request),
        scenario!("jsonrpc.method-not-found", "9.5", Must, Kind::Wire(JSONRPC),
            "an unknown method answers -32601, echoing the id", method_not_found),
        scenario!("jsonrpc.method-names", "9.1", Must, Kind::Wire(JSONRPC),
            "methods are the PascalCase names; 0.3 names are not 1.0 methods", method_names),
        scenario!("jsonrpc.invalid-params", "9.5", Must, Kind::Wire(JSONRPC),
            "parameters of the wrong type answer -32602", invalid_params),
        scenario!("jsonrpc.envelope", "9.3", Must, Kind::Wire(JSONRPC),
            "answers are JSON-RPC 2.0 responses echoing the id, with result or error", envelope),
        scenario!("jsonrpc.content-type", "9.1", Must, Kind::Wire(JSONRPC),
            "answers are application/json", content_type),
        scenario!("jsonrpc.error-object", "9.5", Must, Kind::Wire(JSONRPC),
            "an error is {code, message, data[]} with A2A details in data", error_object),
        scenario!("jsonrpc.methods", "5.3", Must, Kind::Wire(JSONRPC),
            "every A2A method name is served", methods),
        scenario!("jsonrpc.notification", "9.3", Must, Kind::Wire(JSONRPC),
            "a request without id is a notification: the server does not answer it (JSON-RPC 2.0 4.1)", notification),
        scenario!("jsonrpc.batch-concurrent", "9.3", May, Kind::Wire(JSONRPC),
            "a batch's calls run together: four slow calls take about one call's time, answered in the batch's order (JSON-RPC 2.0 6)", batch_concurrent),
        scenario!("jsonrpc.batch", "9.3", Should, Kind::Wire(JSONRPC),
            "a batch answers an array, one response per request, notifications left out, a stream its own error; [] is one -32600 (JSON-RPC 2.0 6)", batch),
        scenario!("jsonrpc.invalid-utf8", "9.5", Must, Kind::Wire(JSONRPC),
            "a body that is not UTF-8 is not JSON: -32700", invalid_utf8),
        scenario!("jsonrpc.unsupported-content-type", "3.3.2", Should, Kind::Wire(JSONRPC),
            "a body that is not JSON by Content-Type answers ContentTypeNotSupportedError (-32005)", unsupported_content_type),
        scenario!("jsonrpc.sse", "9.4.2", Must, Kind::Wire(JSONRPC),
            "SendStreamingMessage answers text/event-stream of JSON-RPC responses with the request id", sse),
    ]
}

fn error_code(reply: &Reply) -> Check<(Option<i64>, Value)> {
    let body = reply.json()?;
    let code = body.pointer("/error/code").and_then(Value::as_i64);
    Ok((code, body))
}

fn expect_code(reply: &Reply, code: i64) -> Check<Value> {
    let (got, body) = error_code(reply)?;
    ensure(
        got == Some(code),
        format!("JSON-RPC error {code}"),
        reply.describe(),
    )?;
    Ok(body)
}

async fn parse_error(cx: &Ctx<'_>) -> Check {
    let reply = cx
        .rpc_raw(&b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "[..])?
        .send(cx)
        .await?;
    let body = expect_code(&reply, ErrorKind::JsonParse.code().0)?;
    ensure(
        body.get("id") == Some(&Value::Null),
        "\"id\": null",
        format!("{:?}", body.get("id")),
    )
}

async fn invalid_request(cx: &Ctx<'_>) -> Check {
    for body in [
        json!({"jsonrpc": "2.0", "id": 3}),
        json!({"jsonrpc": "1.0", "id": 3, "method": "GetTask", "params": {"id": "x"}}),
        json!([]),
    ] {
        let reply = cx
            .rpc_raw(serde_json::to_vec(&body).unwrap_or_default())?
            .send(cx)
            .await?;
        let (code, _) = error_code(&reply)?;
        ensure(
            code == Some(ErrorKind::InvalidRequest.code().0),
            format!("-32600 for {body}"),
            reply.describe(),
        )?;
    }
    Ok(())
}

async fn method_not_found(cx: &Ctx<'_>) -> Check {
    let id = format!("req-{}", cx.nonce());
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "NoSuchMethod", "params": {}});
    let reply = cx
        .rpc_raw(serde_json::to_vec(&body).unwrap_or_default())?
        .send(cx)
        .await?;
    let body = expect_code(&reply, ErrorKind::MethodNotFound.code().0)?;
    ensure(
        body.get("id") == Some(&json!(id)),
        format!("the id {id:?} echoed"),
        format!("{:?}", body.get("id")),
    )
}

async fn method_names(cx: &Ctx<'_>) -> Check {
    for old in ["message/send", "tasks/get"] {
        let reply = cx.rpc(old, json!({"id": "x"}))?.send(cx).await?;
        expect_code(&reply, ErrorKind::MethodNotFound.code().0)?;
    }
    Ok(())
}

async fn invalid_params(cx: &Ctx<'_>) -> Check {
    for params in [
        json!({"id": 42}),
        json!({"id": {"nested": true}}),
        json!({"id": ["a"]}),
    ] {
        let reply = cx.rpc("GetTask", params.clone())?.send(cx).await?;
        let (code, _) = error_code(&reply)?;
        ensure(
            code == Some(ErrorKind::InvalidParams.code().0),
            format!("-32602 for GetTask params {params}"),
            reply.describe(),
        )?;
    }
    Ok(())
}

fn check_envelope(reply: &Reply, id: &Value, want_result: bool) -> Check {
    let body = reply.json()?;
    ensure(
        body.get("jsonrpc") == Some(&json!("2.0")),
        "\"jsonrpc\": \"2.0\"",
        reply.describe(),
    )?;
    ensure(
        body.get("id") == Some(id),
        format!("the id {id} echoed exactly"),
        format!("{:?}", body.get("id")),
    )?;
    let (has_result, has_error) = (body.get("result").is_some(), body.get("error").is_some());
    ensure(
        has_result != has_error,
        "exactly one of result and error",
        reply.describe(),
    )?;
    ensure(
        has_result == want_result,
        if want_result { "a result" } else { "an error" },
        reply.describe(),
    )
}

async fn envelope(cx: &Ctx<'_>) -> Check {
    for id in [json!(7), json!(format!("id-{}", cx.nonce()))] {
        let ok = json!({"jsonrpc": "2.0", "id": id, "method": "SendMessage", "params": plain_send_params(cx)});
        let reply = cx
            .rpc_raw(serde_json::to_vec(&ok).unwrap_or_default())?
            .send(cx)
            .await?;
        check_envelope(&reply, &id, true)?;
        let err = json!({"jsonrpc": "2.0", "id": id, "method": "GetTask", "params": {"id": format!("no-such-task-{}", cx.nonce())}});
        let reply = cx
            .rpc_raw(serde_json::to_vec(&err).unwrap_or_default())?
            .send(cx)
            .await?;
        check_envelope(&reply, &id, false)?;
    }
    Ok(())
}

async fn content_type(cx: &Ctx<'_>) -> Check {
    let ok = cx
        .rpc("SendMessage", plain_send_params(cx))?
        .send(cx)
        .await?;
    let err = cx
        .rpc(
            "GetTask",
            json!({"id": format!("no-such-task-{}", cx.nonce())}),
        )?
        .send(cx)
        .await?;
    for reply in [ok, err] {
        ensure(
            reply.media_type() == "application/json",
            "Content-Type application/json",
            reply.describe(),
        )?;
    }
    Ok(())
}

async fn error_object(cx: &Ctx<'_>) -> Check {
    let reply = cx
        .rpc(
            "GetTask",
            json!({"id": format!("no-such-task-{}", cx.nonce())}),
        )?
        .send(cx)
        .await?;
    let body = reply.json()?;
    let error = body
        .get("error")
        .ok_or_else(|| fail("an error object", reply.describe()))?;
    ensure(
        error.get("code").is_some_and(Value::is_i64),
        "an integer error.code",
        reply.describe(),
    )?;
    ensure(
        error.get("message").is_some_and(Value::is_string),
        "a string error.message",
        reply.describe(),
    )?;
    let data = error.get("data").and_then(Value::as_array).ok_or_else(|| {
        fail(
            "error.data: an array holding a google.rpc.ErrorInfo (spec 9.5)",
            reply.describe(),
        )
    })?;
    let info = data
        .iter()
        .find(|d| d.get("@type").and_then(Value::as_str) == Some(a2a_types::ERROR_INFO_TYPE));
    ensure(
        info.and_then(|i| i.get("reason")).and_then(Value::as_str) == Some("TASK_NOT_FOUND"),
        "an ErrorInfo with reason TASK_NOT_FOUND in error.data",
        reply.describe(),
    )
}

async fn methods(cx: &Ctx<'_>) -> Check {
    let unknown = format!("no-such-task-{}", cx.nonce());
    let mut missing = Vec::new();
    for op in Operation::ALL {
        let params = match op {
            Operation::SendMessage | Operation::SendStreamingMessage => json!({
                "message": {"messageId": format!("m-{}", cx.nonce()), "role": "ROLE_USER", "parts": [{"text": "echo methods"}]}
            }),
            Operation::ListTasks | Operation::GetExtendedAgentCard => json!({}),
            Operation::CreateTaskPushNotificationConfig => {
                json!({"taskId": unknown, "url": "https://push.conformance.invalid/h"})
            }
            Operation::GetTaskPushNotificationConfig
            | Operation::DeleteTaskPushNotificationConfig => {
                json!({"taskId": unknown, "id": "c"})
            }
            Operation::ListTaskPushNotificationConfigs => json!({"taskId": unknown}),
            _ => json!({"id": unknown}),
        };
        let reply = cx.rpc(op.name(), params)?.stream(cx).await?;
        if reply.media_type() == "text/event-stream" {
            continue;
        }
        let body: Value = serde_json::from_slice(&reply.body).unwrap_or(Value::Null);
        let code = body.pointer("/error/code").and_then(Value::as_i64);
        if body.get("jsonrpc") != Some(&json!("2.0"))
            || code == Some(ErrorKind::MethodNotFound.code().0)
        {
            missing.push(format!(
                "{}: {}",
                op.name(),
                crate::abbreviate(&String::from_utf8_lossy(&reply.body))
            ));
        }
    }
    ensure(
        missing.is_empty(),
        "a JSON-RPC answer other than -32601 for every method",
        missing.join("; "),
    )
}

async fn sse(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let events = stream_req(cx, "stream 2")?.stream(cx).await?.sse_events()?;
    let mut results = Vec::new();
    for (i, e) in events.iter().enumerate() {
        ensure(
            e.get("jsonrpc") == Some(&json!("2.0")) && e.get("id") == Some(&json!(1)),
            "each event a JSON-RPC response with the request's id 1",
            format!("event {i}: {}", crate::abbreviate(&e.to_string())),
        )?;
        let result = e
            .get("result")
            .ok_or_else(|| fail("a result in each event", format!("event {i}: {e}")))?;
        results.push(result.clone());
    }
    check_stream_items(&results)
}

async fn notification(cx: &Ctx<'_>) -> Check {
    let body = json!({"jsonrpc": "2.0", "method": "GetTask",
        "params": {"id": format!("no-such-task-{}", cx.nonce())}});
    let reply = cx
        .rpc_raw(serde_json::to_vec(&body).unwrap_or_default())?
        .send(cx)
        .await?;
    ensure(
        reply.status.is_success() && reply.body.iter().all(u8::is_ascii_whitespace),
        "a 2xx answer with no JSON-RPC body",
        reply.describe(),
    )
}

async fn batch(cx: &Ctx<'_>) -> Check {
    let unknown = format!("no-such-task-{}", cx.nonce());
    let body = json!([
        {"jsonrpc": "2.0", "id": "b-1", "method": "GetTask", "params": {"id": unknown}},
        {"jsonrpc": "2.0", "method": "GetTask", "params": {"id": unknown}},
        {"jsonrpc": "2.0", "id": "b-3", "method": "NoSuchMethod", "params": {}},
        {"jsonrpc": "2.0", "id": "b-4", "method": "SendStreamingMessage",
            "params": {"message": cx.msg("echo batch")}},
    ]);
    let reply = cx
        .rpc_raw(serde_json::to_vec(&body).unwrap_or_default())?
        .send(cx)
        .await?;
    let answers = reply.json()?;
    let Some(answers) = answers.as_array() else {
        return Err(fail("an array of responses", reply.describe()));
    };
    let ids: Vec<&Value> = answers.iter().filter_map(|a| a.get("id")).collect();
    ensure(
        ids == [&json!("b-1"), &json!("b-3"), &json!("b-4")],
        "responses for b-1, b-3 and b-4 only, in order",
        reply.describe(),
    )?;
    let code = |i: usize| answers[i].pointer("/error/code").and_then(Value::as_i64);
    ensure(
        code(0) == Some(ErrorKind::TaskNotFound.code().0)
            && code(1) == Some(ErrorKind::MethodNotFound.code().0)
            && code(2).is_some(),
        "-32001, -32601 and an error for the stream",
        reply.describe(),
    )?;
    let empty = cx.rpc_raw(&b"[]"[..])?.send(cx).await?;
    let single = empty.json()?;
    ensure(
        single.is_object()
            && single.pointer("/error/code").and_then(Value::as_i64)
                == Some(ErrorKind::InvalidRequest.code().0),
        "one -32600 object for []",
        empty.describe(),
    )
}

async fn invalid_utf8(cx: &Ctx<'_>) -> Check {
    let body =
        &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"\xff\xfe\"}}"
            [..];
    let reply = cx.rpc_raw(body)?.send(cx).await?;
    expect_code(&reply, ErrorKind::JsonParse.code().0).map(drop)
}

async fn unsupported_content_type(cx: &Ctx<'_>) -> Check {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "x"}});
    let reply = cx
        .rpc_raw(serde_json::to_vec(&body).unwrap_or_default())?
        .header("content-type", "text/plain")
        .send(cx)
        .await?;
    ensure(
        reply.status.is_client_error() || reply.status.is_success(),
        "an error answer",
        reply.describe(),
    )?;
    expect_code(&reply, ErrorKind::ContentTypeNotSupported.code().0).map(drop)
}

async fn batch_concurrent(cx: &Ctx<'_>) -> Check {
    // `slow <ms>` is the reference agent's way to ask for work of a
    // known length.
    if cx.contract_name() != Contract::Reference {
        return Err(skip(
            "needs --contract reference: the scenario asks for `slow <ms>` work",
        ));
    }
    let slow = cx.timing().slow;
    let text = format!("slow {}", slow.as_millis());
    let calls: Vec<Value> = (1..=4)
        .map(|i| {
            json!({"jsonrpc": "2.0", "id": format!("c-{i}"), "method": "SendMessage",
                "params": {"message": cx.msg(&text)}})
        })
        .collect();
    let started = Instant::now();
    let reply = cx
        .rpc_raw(serde_json::to_vec(&calls).unwrap_or_default())?
        .send(cx)
        .await?;
    let took = started.elapsed();
    let answers = reply.json()?;
    let ids: Vec<&Value> = answers
        .as_array()
        .map(|a| a.iter().filter_map(|a| a.get("id")).collect())
        .unwrap_or_default();
    ensure(
        ids == [&json!("c-1"), &json!("c-2"), &json!("c-3"), &json!("c-4")],
        "responses for c-1 to c-4, in the batch's order",
        reply.describe(),
    )?;
    ensure(
        answers
            .as_array()
            .is_some_and(|a| a.iter().all(|a| a.get("result").is_some())),
        "four results",
        reply.describe(),
    )?;
    // One by one they take four times `slow`; together about once.
    ensure(
        took < slow * 2,
        format!(
            "the batch answered within {:?} (four `{text}` run together)",
            slow * 2
        ),
        format!("the answer after {took:?}"),
    )?;
    cx.note(format!("four `{text}` in {took:?}"));
    Ok(())
}
