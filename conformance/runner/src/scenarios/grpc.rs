//! The gRPC binding (10) on the wire: framing (5-byte length prefixes),
//! trailers and trailers-only answers, status codes with
//! `grpc-status-details-bin` from the error table (5.4, 10.6), service
//! parameters as metadata (10.2), the message size limit, and server
//! streaming. Raw gRPC calls through [`Ctx::grpc`].

use a2a_transport::grpc::{self, GrpcCode, GrpcStatus};
use a2a_types::{
    ErrorKind, GetTaskRequest, Operation, SendMessageRequest, SendMessageResponse, StreamResponse,
    ERROR_DOMAIN,
};
use base64::Engine as _;
use bytes::Bytes;
use http::Request;
use tokio::time::Instant;

use crate::binding::{Kind, GRPC};
use crate::check::{ensure, fail, skip, Check};
use crate::context::Ctx;
use crate::contract::Contract;
use crate::grpc::GrpcReply;
use crate::scenario;
use crate::scenario::Scenario;
use crate::scenarios::needs_streaming;

pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!("grpc.unary-trailers", "10", Must, Kind::Wire(GRPC),
            "a unary call answers one length-prefixed message, then grpc-status 0 in the trailers", unary_trailers),
        scenario!("grpc.trailers-only-error", "10.6", Must, Kind::Wire(GRPC),
            "an error before any message is trailers-only: HTTP 200, grpc-status in the head, no body", trailers_only_error),
        scenario!("grpc.status-details", "10.6", Must, Kind::Wire(GRPC),
            "TaskNotFoundError is NOT_FOUND with grpc-status-details-bin: google.rpc.Status with its ErrorInfo", status_details),
        scenario!("grpc.bad-length-prefix", "10", Must, Kind::Wire(GRPC),
            "a message whose length prefix runs past the body answers an error status, not a hang", bad_length_prefix),
        scenario!("grpc.version-metadata", "10.2", Must, Kind::Wire(GRPC),
            "a2a-version metadata is read: an unsupported version is VersionNotSupportedError's status", version_metadata),
        scenario!("grpc.size-limit", "10", Should, Kind::Wire(GRPC),
            "a message over the server's limit is RESOURCE_EXHAUSTED", size_limit),
        scenario!("grpc.streaming", "10", Must, Kind::Wire(GRPC),
            "SendStreamingMessage answers a message per event, then grpc-status 0", streaming),
        scenario!("grpc.status-bounded", "10.6", Should, Kind::Wire(GRPC),
            "an error about a 64 KiB task id keeps its metadata within 8 KiB (what gRPC clients accept), NOT_FOUND with its ErrorInfo", status_bounded),
        scenario!("grpc.deadline", "10", Should, Kind::Wire(GRPC),
            "a call still running when its grpc-timeout passes is answered DEADLINE_EXCEEDED then, not when the work ends", deadline),
    ]
}

/// A gRPC call of `op` with `body` as it is, the caller's credentials and
/// `a2a-version: version` (none when empty).
async fn call(cx: &Ctx<'_>, op: Operation, body: Bytes, version: &str) -> Check<GrpcReply> {
    call_with(cx, op, body, version, &[]).await
}

/// [`call`] with `metadata` added to the request's headers.
async fn call_with(
    cx: &Ctx<'_>,
    op: Operation,
    body: Bytes,
    version: &str,
    metadata: &[(&str, &str)],
) -> Check<GrpcReply> {
    let mut request = Request::post(grpc::method_path(op))
        .header("content-type", grpc::GRPC_CONTENT_TYPE)
        .header("te", "trailers");
    if !version.is_empty() {
        request = request.header("a2a-version", version);
    }
    for (name, value) in metadata {
        request = request.header(*name, *value);
    }
    for (name, value) in &cx.auth_headers() {
        request = request.header(name, value);
    }
    let request = request
        .body(body)
        .map_err(|e| fail("a gRPC request", e.to_string()))?;
    cx.grpc()?
        .call(request, cx.timing().call_timeout)
        .await
        .map_err(|e| fail("a gRPC answer", e))
}

fn framed<T: a2a_proto::Protobuf>(value: &T) -> Check<Bytes> {
    grpc::encode_message(value).map_err(|e| fail("a framed request", e.to_string()))
}

fn unknown_task(cx: &Ctx<'_>) -> Check<Bytes> {
    framed(&GetTaskRequest {
        id: format!("no-such-task-{}", cx.nonce()),
        ..Default::default()
    })
}

/// The status of `reply`, which must be an error of `code`.
fn error_of(reply: &GrpcReply, code: GrpcCode, what: &str) -> Check<a2a_types::A2aError> {
    match reply.grpc_status() {
        Some(GrpcStatus::Error(got, error)) if got == code => Ok(error),
        _ => Err(fail(
            format!("{what}: grpc-status {} ({code})", code.0),
            reply.describe(),
        )),
    }
}

async fn unary_trailers(cx: &Ctx<'_>) -> Check {
    let body = framed(&SendMessageRequest::new(cx.msg("hello over gRPC")))?;
    let reply = call(cx, Operation::SendMessage, body, "1.0").await?;
    ensure(
        reply.status == 200
            && reply
                .headers
                .get("content-type")
                .is_some_and(grpc::is_grpc_content_type),
        "HTTP 200 with content-type application/grpc",
        reply.describe(),
    )?;
    let messages = reply
        .messages()
        .map_err(|e| fail("length-prefixed messages", e))?;
    ensure(
        messages.len() == 1,
        "exactly one message",
        format!("{} messages", messages.len()),
    )?;
    grpc_decode::<SendMessageResponse>(&messages[0])?;
    let status = reply
        .trailers
        .as_ref()
        .and_then(|t| t.get(grpc::GRPC_STATUS))
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    ensure(
        status.as_deref() == Some("0"),
        "grpc-status 0 in the trailers",
        reply.describe(),
    )
}

/// Decodes one message as `T`.
fn grpc_decode<T: a2a_proto::Protobuf>(message: &[u8]) -> Check<T> {
    a2a_proto::decode(message).map_err(|e| fail("a message of the answer's type", e.to_string()))
}

async fn trailers_only_error(cx: &Ctx<'_>) -> Check {
    let reply = call(cx, Operation::GetTask, unknown_task(cx)?, "1.0").await?;
    ensure(
        reply.status == 200 && reply.trailers_only(),
        "HTTP 200, grpc-status in the head, no body and no trailers",
        reply.describe(),
    )
}

async fn status_details(cx: &Ctx<'_>) -> Check {
    let reply = call(cx, Operation::GetTask, unknown_task(cx)?, "1.0").await?;
    let code = GrpcCode::of_kind(ErrorKind::TaskNotFound);
    error_of(&reply, code, "TaskNotFoundError")?;
    let fields = reply.status_fields();
    let details = fields
        .get(grpc::GRPC_STATUS_DETAILS)
        .ok_or_else(|| fail("grpc-status-details-bin", reply.describe()))?;
    // Base64 without padding (10.6); padding is tolerated here.
    let text = details.as_bytes();
    let text = text
        .strip_suffix(b"==")
        .or_else(|| text.strip_suffix(b"="))
        .unwrap_or(text);
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(text)
        .map_err(|e| fail("base64 grpc-status-details-bin", e.to_string()))?;
    let status: a2a_proto::rpc::Status = a2a_proto::prost::Message::decode(&bytes[..])
        .map_err(|e| fail("a google.rpc.Status", e.to_string()))?;
    let info = status
        .details
        .iter()
        .find(|d| d.type_url.ends_with("/google.rpc.ErrorInfo"))
        .ok_or_else(|| fail("a google.rpc.ErrorInfo among the details", "none"))?;
    let info: a2a_proto::rpc::ErrorInfo = a2a_proto::prost::Message::decode(&info.value[..])
        .map_err(|e| fail("a google.rpc.ErrorInfo", e.to_string()))?;
    ensure(
        info.reason == "TASK_NOT_FOUND" && info.domain == ERROR_DOMAIN,
        format!("ErrorInfo reason TASK_NOT_FOUND, domain {ERROR_DOMAIN}"),
        format!("reason {:?}, domain {:?}", info.reason, info.domain),
    )?;
    let status_code = status.code;
    ensure(
        status_code == code.0,
        format!("google.rpc.Status code {}", code.0),
        status_code,
    )
}

async fn bad_length_prefix(cx: &Ctx<'_>) -> Check {
    let mut body = unknown_task(cx)?.to_vec();
    // The prefix claims three bytes more than follow.
    body[4] = body[4].wrapping_add(3);
    let reply = call(cx, Operation::GetTask, body.into(), "1.0").await?;
    match reply.grpc_status() {
        Some(GrpcStatus::Error(..)) => Ok(()),
        _ => Err(fail("an error status", reply.describe())),
    }
}

async fn version_metadata(cx: &Ctx<'_>) -> Check {
    let reply = call(cx, Operation::GetTask, unknown_task(cx)?, "9.9").await?;
    let error = error_of(
        &reply,
        GrpcCode::of_kind(ErrorKind::VersionNotSupported),
        "VersionNotSupportedError",
    )?;
    ensure(
        error.kind() == ErrorKind::VersionNotSupported,
        "the ErrorInfo of VersionNotSupportedError",
        format!("{:?}", error.kind()),
    )
}

async fn size_limit(cx: &Ctx<'_>) -> Check {
    // Only the prefix: it declares a 2 GiB message, over any sane limit.
    let body = Bytes::from_static(&[0, 0x80, 0, 0, 0]);
    let reply = call(cx, Operation::SendMessage, body, "1.0").await?;
    error_of(
        &reply,
        GrpcCode::RESOURCE_EXHAUSTED,
        "a message over the limit",
    )
    .map(|_| ())
}

async fn streaming(cx: &Ctx<'_>) -> Check {
    needs_streaming(cx)?;
    let body = framed(&SendMessageRequest::new(cx.msg("hello over a gRPC stream")))?;
    let reply = call(cx, Operation::SendStreamingMessage, body, "1.0").await?;
    let messages = reply
        .messages()
        .map_err(|e| fail("length-prefixed messages", e))?;
    ensure(
        !messages.is_empty(),
        "at least one message",
        reply.describe(),
    )?;
    for m in &messages {
        grpc_decode::<StreamResponse>(m)?;
    }
    ensure(
        reply.grpc_status() == Some(GrpcStatus::Ok) && reply.trailers.is_some(),
        "grpc-status 0 in the trailers after the messages",
        reply.describe(),
    )
}

async fn deadline(cx: &Ctx<'_>) -> Check {
    // The reference agent's `slow <ms>` is the one way to ask for work of
    // a known length.
    if cx.contract_name() != Contract::Reference {
        return Err(skip(
            "needs --contract reference: the scenario asks for `slow <ms>` work",
        ));
    }
    let work = cx.timing().slow * 2;
    let text = format!("slow {}", work.as_millis());
    // Blocking (the default): the answer waits for the work, 2 x slow.
    let body = framed(&SendMessageRequest::new(cx.msg(&text)))?;
    let started = Instant::now();
    let reply = call_with(
        cx,
        Operation::SendMessage,
        body,
        "1.0",
        &[(grpc::GRPC_TIMEOUT, "50m")],
    )
    .await?;
    let took = started.elapsed();
    error_of(
        &reply,
        GrpcCode::DEADLINE_EXCEEDED,
        &format!("`{text}` with grpc-timeout 50m"),
    )?;
    ensure(
        took < cx.timing().slow,
        format!("the answer soon after the 50 ms deadline, well before the work ends ({work:?})"),
        format!("the answer after {took:?}"),
    )?;
    cx.note(format!("DEADLINE_EXCEEDED after {took:?}"));
    Ok(())
}

/// The metadata gRPC clients commonly accept (grpc-java's default); the
/// status of an error must fit in it, whatever the request echoed.
const CLIENT_METADATA_LIMIT: usize = 8 * 1024;

async fn status_bounded(cx: &Ctx<'_>) -> Check {
    let id = format!("no-such-task-{}-{}", cx.nonce(), "x".repeat(64 * 1024));
    let body = framed(&GetTaskRequest {
        id,
        ..Default::default()
    })?;
    let reply = call(cx, Operation::GetTask, body, "1.0").await?;
    let error = error_of(&reply, GrpcCode::NOT_FOUND, "TaskNotFoundError")?;
    ensure(
        error.kind() == ErrorKind::TaskNotFound,
        "the ErrorInfo of TaskNotFoundError",
        format!("{:?}", error.kind()),
    )?;
    let size: usize = reply
        .status_fields()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    ensure(
        size <= CLIENT_METADATA_LIMIT,
        format!("status metadata within {CLIENT_METADATA_LIMIT} bytes"),
        format!("{size} bytes"),
    )?;
    cx.note(format!("{size} bytes of status metadata"));
    Ok(())
}
