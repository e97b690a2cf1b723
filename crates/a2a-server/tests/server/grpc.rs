//! The gRPC binding (spec 10) through `A2aServer::handle`: framing,
//! trailers, status codes with their details, metadata, limits, streams,
//! and the same pipeline as the other bindings.

use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use a2a_server::Chunk;
use a2a_server::{A2aServer, A2aService, Body, ServerConfig};
use a2a_types::{
    A2aError, AgentCard, AgentInterface, ErrorKind, GetExtendedAgentCardRequest, GetTaskRequest,
    Message, Operation, SendMessageRequest, SendMessageResponse, StreamResponse, Task,
    ERROR_DOMAIN,
};
use a2a_wire::grpc::{self, GrpcCode, GrpcStatus};
use base64::Engine as _;
use bytes::Bytes;
use http::{HeaderMap, Request, StatusCode};

use crate::support::{block_on, full_card, memory_server, quiet_intentional_panics, Failing};

/// A gRPC response read whole: head, messages, trailers.
#[derive(Debug)]
struct GrpcAnswer {
    status: StatusCode,
    headers: HeaderMap,
    messages: Vec<Bytes>,
    trailers: Option<HeaderMap>,
    /// Everything the body held, unframed.
    data: Bytes,
}

impl GrpcAnswer {
    /// The call's status: from the trailers, or from the head of a
    /// trailers-only answer.
    fn status(&self) -> GrpcStatus {
        let fields = self.trailers.as_ref().unwrap_or(&self.headers);
        grpc::read_status(fields).expect("a grpc-status")
    }

    fn code(&self) -> GrpcCode {
        match self.status() {
            GrpcStatus::Ok => GrpcCode::OK,
            GrpcStatus::Error(code, _) => code,
            other => panic!("{other:?}"),
        }
    }

    fn error(&self) -> A2aError {
        match self.status() {
            GrpcStatus::Error(_, e) => e,
            other => panic!("not an error: {other:?}"),
        }
    }

    fn trailers_only(&self) -> bool {
        self.trailers.is_none() && self.data.is_empty()
    }

    fn one<T: a2a_proto::Protobuf>(&self) -> T {
        assert_eq!(self.messages.len(), 1, "{self:?}");
        a2a_proto::decode(&self.messages[0]).unwrap()
    }
}

fn read(response: http::Response<Body>) -> GrpcAnswer {
    let (parts, mut body) = response.into_parts();
    let mut cx = Context::from_waker(Waker::noop());
    let (mut data, mut trailers) = (Vec::new(), None);
    loop {
        match Pin::new(&mut body).poll_chunk(&mut cx) {
            Poll::Ready(Some(Chunk::Data(bytes))) => data.extend_from_slice(&bytes),
            Poll::Ready(Some(Chunk::Trailers(t))) => trailers = Some(t),
            Poll::Ready(Some(other)) => panic!("an unknown chunk: {other:?}"),
            Poll::Ready(None) => break,
            Poll::Pending => continue,
        }
    }
    let mut decoder = grpc::FrameDecoder::new(1 << 24);
    decoder.push(&data);
    let mut messages = Vec::new();
    while let Some(m) = decoder.next_message().unwrap() {
        messages.push(m);
    }
    decoder.finish().unwrap();
    GrpcAnswer {
        status: parts.status,
        headers: parts.headers,
        messages,
        trailers,
        data: data.into(),
    }
}

/// A gRPC call of `op` with `body` as it is, `a2a-version: 1.0` and
/// `headers`.
fn call_raw<S: A2aService>(
    server: &A2aServer<S>,
    op: Operation,
    body: impl Into<Bytes>,
    headers: &[(&str, &str)],
) -> GrpcAnswer {
    quiet_intentional_panics();
    let mut request = Request::post(grpc::method_path(op))
        .header("content-type", "application/grpc")
        .header("te", "trailers");
    if !headers.iter().any(|(k, _)| *k == "a2a-version") {
        request = request.header("a2a-version", "1.0");
    }
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    read(block_on(server.handle(request.body(body.into()).unwrap())))
}

fn call<S: A2aService, T: a2a_proto::Protobuf>(
    server: &A2aServer<S>,
    op: Operation,
    message: &T,
    headers: &[(&str, &str)],
) -> GrpcAnswer {
    call_raw(server, op, grpc::encode_message(message).unwrap(), headers)
}

fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest::new(Message::user_text("m-1", text))
}

const AUTH: (&str, &str) = ("authorization", "Bearer t0k3n");

#[test]
fn a_unary_call_is_one_message_then_ok_trailers() {
    let server = memory_server();
    let a = call(&server, Operation::SendMessage, &send("hi"), &[AUTH]);
    assert_eq!(a.status, 200);
    assert_eq!(a.headers["content-type"], "application/grpc");
    assert_eq!(
        a.headers.get("grpc-status"),
        None,
        "status only in trailers"
    );
    assert_eq!(a.trailers.as_ref().unwrap()["grpc-status"], "0");
    let SendMessageResponse::Task(task) = a.one::<SendMessageResponse>() else {
        panic!("a task")
    };
    assert_eq!(task.id, "task-1");

    let got = call(
        &server,
        Operation::GetTask,
        &GetTaskRequest {
            id: "task-1".into(),
            ..Default::default()
        },
        &[AUTH],
    );
    assert_eq!(got.code(), GrpcCode::OK);
    assert_eq!(got.one::<Task>().id, "task-1");
}

#[test]
fn an_a2a_error_is_trailers_only_with_the_tables_code_and_details() {
    let server = memory_server();
    let a = call(
        &server,
        Operation::GetTask,
        &GetTaskRequest {
            id: "nope".into(),
            ..Default::default()
        },
        &[],
    );
    assert_eq!(a.status, 200);
    assert!(a.trailers_only(), "{a:?}");
    assert_eq!(a.headers["grpc-status"], "5", "TaskNotFound is NOT_FOUND");
    assert_eq!(a.error().kind(), ErrorKind::TaskNotFound);
    // The details: google.rpc.Status with the ErrorInfo, base64 without padding.
    let details = a.headers["grpc-status-details-bin"].to_str().unwrap();
    assert!(!details.ends_with('='));
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(details)
        .unwrap();
    let status: a2a_proto::rpc::Status = a2a_proto::prost::Message::decode(&bytes[..]).unwrap();
    assert_eq!(status.code, 5);
    let info = status
        .details
        .iter()
        .find(|d| d.type_url.ends_with("google.rpc.ErrorInfo"))
        .expect("an ErrorInfo");
    let info: a2a_proto::rpc::ErrorInfo =
        a2a_proto::prost::Message::decode(&info.value[..]).unwrap();
    assert_eq!(info.reason, "TASK_NOT_FOUND");
    assert_eq!(info.domain, ERROR_DOMAIN);

    // Every kind a handler answers carries the table's code.
    for kind in ErrorKind::ALL {
        let server = A2aServer::new(Failing(kind), full_card(), ServerConfig::new()).unwrap();
        let a = call(&server, Operation::GetTask, &get("t"), &[]);
        assert_eq!(a.code(), GrpcCode::of_kind(kind), "{kind:?}");
        assert_eq!(a.error().kind(), kind);
    }
}

fn get(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        id: id.into(),
        ..Default::default()
    }
}

#[test]
fn validation_errors_carry_bad_request_field_violations() {
    let server = memory_server();
    let a = call(&server, Operation::GetTask, &get(""), &[]);
    assert_eq!(a.code(), GrpcCode::INVALID_ARGUMENT);
    let err = a.error();
    assert_eq!(err.kind(), ErrorKind::InvalidParams);
    let fields: Vec<_> = err.field_violations().map(|v| v.field.clone()).collect();
    assert_eq!(fields, ["id"]);
    assert!(a.headers["grpc-message"].to_str().unwrap().len() > 3);
}

#[test]
fn streams_are_a_message_per_event_then_the_status() {
    let server = memory_server();
    let a = call(&server, Operation::SendStreamingMessage, &send("hi"), &[]);
    assert_eq!(a.status, 200);
    assert!(a.messages.len() >= 2, "{a:?}");
    let events: Vec<StreamResponse> = a
        .messages
        .iter()
        .map(|m| a2a_proto::decode(m).unwrap())
        .collect();
    assert!(matches!(events[0], StreamResponse::Task(_)));
    assert_eq!(a.trailers.as_ref().unwrap()["grpc-status"], "0");

    // An error after the first event: its status ends the stream.
    let a = call(
        &server,
        Operation::SendStreamingMessage,
        &send("fail-mid-stream"),
        &[],
    );
    assert_eq!(a.messages.len(), 1);
    assert_eq!(a.trailers.as_ref().unwrap()["grpc-status"], "13");
    assert_eq!(a.error().kind(), ErrorKind::Internal);
    // A panic after the first event too.
    let a = call(
        &server,
        Operation::SendStreamingMessage,
        &send("panic-mid-stream"),
        &[],
    );
    assert_eq!(a.messages.len(), 1);
    assert_eq!(a.code(), GrpcCode::INTERNAL);

    // An error before it: trailers-only.
    let a = call(&server, Operation::SendStreamingMessage, &send("fail"), &[]);
    assert!(a.trailers_only());
    assert_eq!(a.error().kind(), ErrorKind::InvalidAgentResponse);

    // No event at all: a trailers-only OK.
    let a = call(
        &server,
        Operation::SendStreamingMessage,
        &send("empty"),
        &[],
    );
    assert!(a.trailers_only());
    assert_eq!(a.headers["grpc-status"], "0");
}

#[test]
fn metadata_is_read_by_the_pipeline() {
    let server = memory_server();
    // No a2a-version: the caller speaks 0.3, which is not served.
    let a = call(
        &server,
        Operation::GetTask,
        &get("t"),
        &[("a2a-version", "")],
    );
    assert_eq!(a.error().kind(), ErrorKind::VersionNotSupported);
    let a = call(
        &server,
        Operation::GetTask,
        &get("t"),
        &[("a2a-version", "9.9")],
    );
    assert_eq!(a.error().kind(), ErrorKind::VersionNotSupported);
    assert_eq!(a.code(), GrpcCode::of_kind(ErrorKind::VersionNotSupported));

    // Credentials, extensions and grpc-timeout reach the handler.
    let a = call(
        &server,
        Operation::SendMessage,
        &send("hi"),
        &[
            AUTH,
            ("a2a-extensions", "https://ext.example/a"),
            ("grpc-timeout", "250m"),
        ],
    );
    assert_eq!(a.code(), GrpcCode::OK);
    let seen = server.service().seen().pop().unwrap();
    assert_eq!(seen.principal.unwrap().id, "alice");
    assert_eq!(seen.extensions, ["https://ext.example/a"]);
    assert_eq!(seen.timeout, Some(Duration::from_millis(250)));
    assert_eq!(seen.version, "1.0");

    // A wrong token is UNAUTHENTICATED with the challenge as metadata.
    let a = call(
        &server,
        Operation::GetTask,
        &get("t"),
        &[("authorization", "Bearer wrong")],
    );
    assert_eq!(a.code(), GrpcCode::UNAUTHENTICATED);
    assert!(a.headers.contains_key("www-authenticate"));

    // A grpc-timeout that does not read is refused before the call.
    let calls = server.service().seen().len();
    let a = call(
        &server,
        Operation::SendMessage,
        &send("hi"),
        &[("grpc-timeout", "1x")],
    );
    assert_eq!(a.code(), GrpcCode::INTERNAL);
    assert_eq!(server.service().seen().len(), calls);
}

#[test]
fn the_tenant_travels_in_the_message() {
    let server = memory_server();
    let mut request = send("hi");
    request.tenant = "acme".into();
    let a = call(&server, Operation::SendMessage, &request, &[]);
    assert_eq!(a.code(), GrpcCode::OK);
    assert_eq!(
        server.service().seen().pop().unwrap().tenant.as_deref(),
        Some("acme")
    );
    // The task lives in the tenant: another tenant does not see it.
    let a = call(&server, Operation::GetTask, &get("task-1"), &[]);
    assert_eq!(a.error().kind(), ErrorKind::TaskNotFound);
    let mut scoped = get("task-1");
    scoped.tenant = "acme".into();
    assert_eq!(
        call(&server, Operation::GetTask, &scoped, &[]).code(),
        GrpcCode::OK
    );
}

#[test]
fn the_extended_card_is_an_operation_over_grpc() {
    let server = memory_server();
    let a = call(
        &server,
        Operation::GetExtendedAgentCard,
        &GetExtendedAgentCardRequest::default(),
        &[AUTH],
    );
    assert_eq!(a.code(), GrpcCode::OK, "{a:?}");
    let card: AgentCard = a.one();
    assert!(card.skills.iter().any(|s| s.id == "secret"));
}

#[test]
fn framing_failures_get_grpcs_codes() {
    let server = memory_server();
    let frame = grpc::encode_message(&get("t")).unwrap();
    // A prefix that claims more bytes than the body holds.
    let mut short = frame.to_vec();
    short[4] += 3;
    let a = call_raw(&server, Operation::GetTask, short, &[]);
    assert!(a.trailers_only());
    assert_eq!(a.code(), GrpcCode::INTERNAL);
    // One that claims fewer: a second, broken message follows.
    let mut long = frame.to_vec();
    long[4] -= 1;
    assert_eq!(
        call_raw(&server, Operation::GetTask, long, &[]).code(),
        GrpcCode::INTERNAL
    );
    // No message, two messages.
    assert_eq!(
        call_raw(&server, Operation::GetTask, Bytes::new(), &[]).code(),
        GrpcCode::INTERNAL
    );
    let two = [&frame[..], &frame[..]].concat();
    assert_eq!(
        call_raw(&server, Operation::GetTask, two, &[]).code(),
        GrpcCode::INTERNAL
    );
    // A compressed message without grpc-encoding.
    let mut compressed = frame.to_vec();
    compressed[0] = 1;
    assert_eq!(
        call_raw(&server, Operation::GetTask, compressed, &[]).code(),
        GrpcCode::INTERNAL
    );
    // An encoding this server does not speak.
    let a = call_raw(
        &server,
        Operation::GetTask,
        frame.clone(),
        &[("grpc-encoding", "gzip")],
    );
    assert_eq!(a.code(), GrpcCode::UNIMPLEMENTED);
    assert_eq!(a.headers["grpc-accept-encoding"], "identity");
    // Bytes that are not the request message.
    let garbage = grpc::encode_frame(&[0xff, 0xff, 0xff]).unwrap();
    let a = call_raw(&server, Operation::GetTask, garbage, &[]);
    assert_eq!(a.code(), GrpcCode::INVALID_ARGUMENT);
}

#[test]
fn a_message_over_the_limit_is_resource_exhausted() {
    let config = ServerConfig::new().with_max_body_size(64);
    let server = A2aServer::new(crate::support::Memory::default(), full_card(), config).unwrap();
    // The prefix alone names a length over the limit.
    let a = call_raw(&server, Operation::GetTask, vec![0, 0, 0, 0, 65], &[]);
    assert_eq!(a.code(), GrpcCode::RESOURCE_EXHAUSTED);
    assert_eq!(a.status, 200);
    // A body over the limit.
    let big = grpc::encode_message(&get(&"x".repeat(100))).unwrap();
    let a = call_raw(&server, Operation::GetTask, big, &[]);
    assert_eq!(a.code(), GrpcCode::RESOURCE_EXHAUSTED);
    assert!(a.trailers_only());
}

#[test]
fn requests_that_are_not_grpc_calls() {
    let server = memory_server();
    // Another content type on the service's path: 415.
    let request = Request::post(grpc::method_path(Operation::GetTask))
        .header("content-type", "application/json")
        .body(Bytes::new())
        .unwrap();
    let a = read(block_on(server.handle(request)));
    assert_eq!(a.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Another method: 405.
    let request = Request::get(grpc::method_path(Operation::GetTask))
        .header("content-type", "application/grpc")
        .body(Bytes::new())
        .unwrap();
    let a = read(block_on(server.handle(request)));
    assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(a.headers["allow"], "POST");
    // An unknown method: UNIMPLEMENTED.
    let request = Request::post("/lf.a2a.v1.A2AService/Nope")
        .header("content-type", "application/grpc+proto")
        .body(Bytes::new())
        .unwrap();
    let a = read(block_on(server.handle(request)));
    assert_eq!(a.status, 200);
    assert_eq!(a.code(), GrpcCode::UNIMPLEMENTED);
    assert_eq!(a.error().kind(), ErrorKind::MethodNotFound);
}

#[test]
fn grpc_can_be_turned_off_and_the_card_may_declare_it() {
    let mut card = full_card();
    card.supported_interfaces.push(AgentInterface::new(
        "http://agent.example:50051",
        "GRPC",
        "1.0",
    ));
    let server = A2aServer::new(
        crate::support::Memory::default(),
        card.clone(),
        ServerConfig::new(),
    )
    .unwrap();
    assert_eq!(
        call(&server, Operation::GetTask, &get("t"), &[]).code(),
        GrpcCode::NOT_FOUND
    );
    let mut bare = card.clone();
    bare.supported_interfaces[2].url = "agent.example:50051".into();
    assert!(A2aServer::new(crate::support::Memory::default(), bare, ServerConfig::new()).is_ok());
    let mut bad = card.clone();
    bad.supported_interfaces[2].url = "agent.example".into();
    assert!(A2aServer::new(crate::support::Memory::default(), bad, ServerConfig::new()).is_err());

    // Off: the card may not declare it, and its paths are no endpoint.
    let off = ServerConfig::new().without_grpc();
    assert!(A2aServer::new(crate::support::Memory::default(), card, off.clone()).is_err());
    let server = A2aServer::new(crate::support::Memory::default(), full_card(), off).unwrap();
    let request = Request::post(grpc::method_path(Operation::GetTask))
        .header("content-type", "application/grpc")
        .header("a2a-version", "1.0")
        .body(grpc::encode_message(&get("t")).unwrap())
        .unwrap();
    let response = block_on(server.handle(request));
    assert_ne!(
        response.headers().get("content-type").unwrap(),
        "application/grpc"
    );

    // A JSON-RPC path under the service's would be hidden by it.
    let clash = ServerConfig::new().with_jsonrpc_path("/lf.a2a.v1.A2AService/x");
    assert!(A2aServer::new(crate::support::Memory::default(), full_card(), clash).is_err());
}
