//! The client over gRPC (spec 10) against a scripted server made of the
//! `grpc` wire functions: requests, unary answers, streams, errors from
//! trailers and trailers-only heads, limits, and resubscription.

#![cfg(feature = "grpc")]

mod support;

use std::sync::Arc;
use std::time::Duration;

use a2a_client::{
    A2aService, Binding, BodyChunk, CallContext, ClientConfig, ClientFailure, HttpError,
    HttpTransport, ResilientTransport, ResponseBody, RetryPolicy,
};
use a2a_types::{
    A2aError, ErrorKind, GetTaskRequest, Message, SendMessageRequest, StreamResponse, Task,
    TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use a2a_wire::grpc::{self, GrpcCode};
use bytes::Bytes;
use futures_core::Stream;
use http::HeaderMap;
use support::{block_on, collect, Clock, Scripted};

const URL: &str = "http://agent.example:50051";

fn transport() -> (Arc<Scripted>, HttpTransport<Arc<Scripted>>) {
    let client = Scripted::new();
    let t = HttpTransport::new(Arc::clone(&client), Binding::Grpc, URL).unwrap();
    (client, t)
}

fn task(state: TaskState) -> Task {
    Task::new("t1", "c1", state)
}

fn status_event(state: TaskState) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: "t1".into(),
        context_id: "c1".into(),
        status: TaskStatus::new(state),
        ..Default::default()
    })
}

/// A gRPC response: head, then `chunks` (data and trailers).
fn grpc_response(
    head: HeaderMap,
    chunks: Vec<Result<BodyChunk, HttpError>>,
) -> http::Response<ResponseBody> {
    let mut r = http::Response::new(ResponseBody::from_body_chunks(chunks));
    *r.headers_mut() = head;
    r
}

fn messages_then(
    messages: &[Bytes],
    trailers: Option<HeaderMap>,
    cut: usize,
) -> http::Response<ResponseBody> {
    let mut bytes = Vec::new();
    for m in messages {
        bytes.extend_from_slice(m);
    }
    let mut chunks: Vec<Result<BodyChunk, HttpError>> = bytes
        .chunks(cut.max(1))
        .map(|c| Ok(BodyChunk::Data(Bytes::copy_from_slice(c))))
        .collect();
    chunks.extend(trailers.map(|t| Ok(BodyChunk::Trailers(t))));
    grpc_response(grpc::response_head().into_parts().0.headers, chunks)
}

fn get(t: &HttpTransport<Arc<Scripted>>, cx: &CallContext) -> Result<Task, A2aError> {
    block_on(t.get_task(
        cx,
        GetTaskRequest {
            tenant: String::new(),
            id: "t1".into(),
            history_length: Some(2),
            ..Default::default()
        },
    ))
}

#[test]
fn a_unary_call_is_one_framed_message_over_http2_with_its_metadata() {
    let (client, t) = transport();
    let t = t.with_config(ClientConfig::new().with_timeout(Duration::from_millis(1500)));
    let answer = grpc::encode_message(&task(TaskState::Working)).unwrap();
    client.push_fn(move |_| Ok(messages_then(&[answer], Some(grpc::ok_trailers()), 3)));
    let mut h = HeaderMap::new();
    h.insert("authorization", "Bearer tok".parse().unwrap());
    let cx = CallContext::new()
        .with_headers(h)
        .with_extensions(vec!["https://ext.example/a".to_owned()]);
    assert_eq!(get(&t, &cx).unwrap(), task(TaskState::Working));

    let req = client.last();
    assert_eq!(req.method(), http::Method::POST);
    assert_eq!(req.version(), http::Version::HTTP_2);
    assert_eq!(
        req.uri(),
        "http://agent.example:50051/lf.a2a.v1.A2AService/GetTask"
    );
    let h = req.headers();
    assert_eq!(h["content-type"], "application/grpc+proto");
    assert_eq!(h["te"], "trailers");
    assert_eq!(h["a2a-version"], "1.0");
    assert_eq!(h["a2a-extensions"], "https://ext.example/a");
    assert_eq!(h["authorization"], "Bearer tok");
    assert_eq!(
        grpc::parse_timeout(h["grpc-timeout"].as_bytes()),
        Ok(Duration::from_millis(1500))
    );
    assert!(h.get("accept").is_none());
    let message = grpc::decode_unary(req.body(), grpc::DEFAULT_MAX_MESSAGE_SIZE).unwrap();
    let sent: GetTaskRequest = a2a_proto::decode(&message).unwrap();
    assert_eq!(sent.id, "t1");
    assert_eq!(sent.history_length, Some(2));
}

#[test]
fn urls_bare_host_port_and_path_prefixes() {
    let client = Scripted::new();
    for (url, want) in [
        (
            "agent.example:443",
            "https://agent.example:443/lf.a2a.v1.A2AService/GetTask",
        ),
        (
            "http://h:8080",
            "http://h:8080/lf.a2a.v1.A2AService/GetTask",
        ),
        (
            "https://h/a2a/grpc/",
            "https://h/a2a/grpc/lf.a2a.v1.A2AService/GetTask",
        ),
    ] {
        let t = HttpTransport::new(Arc::clone(&client), Binding::Grpc, url).unwrap();
        client.push_fn(|_| Err(HttpError::Other("offline".into())));
        let _ = get(&t, &CallContext::new());
        assert_eq!(client.last().uri().to_string(), want, "{url}");
    }
    // A card's bare host:port takes the scheme the card was fetched with.
    for (card_url, want) in [
        (
            "http://127.0.0.1:8080/.well-known/agent-card.json",
            "http://127.0.0.1:9000/lf.a2a.v1.A2AService/GetTask",
        ),
        (
            "https://h/.well-known/agent-card.json",
            "https://127.0.0.1:9000/lf.a2a.v1.A2AService/GetTask",
        ),
    ] {
        let iface = a2a_types::AgentInterface::new("127.0.0.1:9000", "GRPC", "1.0");
        let card_url: http::Uri = card_url.parse().unwrap();
        let t = HttpTransport::for_card_interface(Arc::clone(&client), &iface, &card_url)
            .unwrap()
            .unwrap();
        client.push_fn(|_| Err(HttpError::Other("offline".into())));
        let _ = get(&t, &CallContext::new());
        assert_eq!(client.last().uri().to_string(), want, "{card_url}");
    }
    for bad in ["agent.example", "ftp://h:1", "https://h/?q=1", "user@h:1"] {
        assert!(
            HttpTransport::new(Arc::clone(&client), Binding::Grpc, bad).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn errors_come_from_the_status_with_details_or_the_code_alone() {
    let (client, t) = transport();
    let cx = CallContext::new();
    // Trailers-only, with details: the ErrorInfo reason names the kind.
    let (head, ()) =
        grpc::error_response(GrpcCode::NOT_FOUND, &A2aError::task_not_found("t1")).into_parts();
    client.push_fn(move |_| Ok(grpc_response(head.headers, vec![])));
    let e = get(&t, &cx).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TaskNotFound);
    // In trailers after the head, details name another kind than the code's
    // default: the details win.
    let wrong_code = grpc::status_fields(
        GrpcCode::FAILED_PRECONDITION,
        &A2aError::new(ErrorKind::TaskNotCancelable, "done"),
    );
    client.push_fn(move |_| Ok(messages_then(&[], Some(wrong_code), 1)));
    assert_eq!(
        get(&t, &cx).unwrap_err().kind(),
        ErrorKind::TaskNotCancelable
    );
    // The code alone.
    let mut bare = HeaderMap::new();
    bare.insert("grpc-status", "16".parse().unwrap());
    bare.insert("grpc-message", "who%20are%20you".parse().unwrap());
    client.push_fn(move |_| Ok(messages_then(&[], Some(bare), 1)));
    let e = get(&t, &cx).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unauthenticated);
    assert!(e.message().contains("who are you"), "{e}");
    // An error status after a message is still the error.
    let one = grpc::encode_message(&task(TaskState::Working)).unwrap();
    let internal = grpc::error_trailers(&A2aError::internal("boom"));
    client.push_fn(move |_| Ok(messages_then(&[one], Some(internal), 2)));
    assert_eq!(get(&t, &cx).unwrap_err().kind(), ErrorKind::Internal);
}

#[test]
fn a_missing_status_or_bad_framing_is_a_protocol_error_not_success() {
    let (client, t) = transport();
    let cx = CallContext::new();
    let one = grpc::encode_message(&task(TaskState::Working)).unwrap();
    // No trailers at all (a client that drops them).
    let m = one.clone();
    client.push_fn(move |_| Ok(messages_then(&[m], None, 4)));
    // The client's own error: most often its HTTP client drops trailers.
    let e = get(&t, &cx).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Client, "{e}");
    assert_eq!(ClientFailure::of(&e), Some(ClientFailure::StreamIncomplete));
    assert!(e.message().contains("grpc-status"), "{e}");
    // Trailers without grpc-status.
    let m = one.clone();
    client.push_fn(move |_| Ok(messages_then(&[m], Some(HeaderMap::new()), 4)));
    assert_eq!(
        get(&t, &cx).unwrap_err().kind(),
        ErrorKind::InvalidAgentResponse
    );
    // OK without a message, two messages, a truncated message, a compressed one.
    let two = [one.clone(), one.clone()];
    let truncated = one.slice(..one.len() - 1);
    let mut compressed = one.to_vec();
    compressed[0] = 1;
    for messages in [
        vec![],
        two.to_vec(),
        vec![truncated],
        vec![Bytes::from(compressed)],
    ] {
        client.push_fn(move |_| Ok(messages_then(&messages, Some(grpc::ok_trailers()), 3)));
        assert_eq!(
            get(&t, &cx).unwrap_err().kind(),
            ErrorKind::InvalidAgentResponse
        );
    }
    // A message that is not the answer's protobuf.
    let junk = grpc::encode_frame(&[0xff, 0xff, 0xff]).unwrap();
    client.push_fn(move |_| Ok(messages_then(&[junk], Some(grpc::ok_trailers()), 3)));
    assert_eq!(
        get(&t, &cx).unwrap_err().kind(),
        ErrorKind::InvalidAgentResponse
    );
    // Not gRPC: another content type, another HTTP status.
    client.push_fn(|_| {
        let mut h = HeaderMap::new();
        h.insert("content-type", "text/html".parse().unwrap());
        Ok(grpc_response(h, vec![]))
    });
    assert_eq!(
        get(&t, &cx).unwrap_err().kind(),
        ErrorKind::InvalidAgentResponse
    );
    client.push_fn(|_| {
        let mut r = grpc_response(HeaderMap::new(), vec![]);
        *r.status_mut() = http::StatusCode::NOT_FOUND;
        Ok(r)
    });
    let e = get(&t, &cx).unwrap_err();
    assert_eq!(
        ClientFailure::of(&e),
        Some(ClientFailure::HttpStatus),
        "{e}"
    );
    assert!(e.message().contains("HTTP 404"), "{e}");
}

#[test]
fn messages_over_the_limit_are_refused_on_their_prefix() {
    let (client, t) = transport();
    let t = t.with_config(ClientConfig::new().with_max_response_body(64));
    let mut big = task(TaskState::Working);
    big.id = "x".repeat(100);
    let m = grpc::encode_message(&big).unwrap();
    let prefix = m.slice(..5);
    // Only the prefix arrives before the error: nothing else is buffered.
    client.push_fn(move |_| Ok(messages_then(&[prefix], Some(grpc::ok_trailers()), 5)));
    let e = get(&t, &CallContext::new()).unwrap_err();
    assert_eq!(
        ClientFailure::of(&e),
        Some(ClientFailure::ResponseTooLarge),
        "{e}"
    );
}

#[test]
fn a_server_stream_gives_its_events_then_ends_with_the_status() {
    let (client, t) = transport();
    let cx = CallContext::new();
    let events = [
        StreamResponse::Task(task(TaskState::Submitted)),
        status_event(TaskState::Working),
        status_event(TaskState::Completed),
    ];
    let frames: Vec<Bytes> = events
        .iter()
        .map(|e| grpc::encode_message(e).unwrap())
        .collect();
    for cut in [1, 7, 1000] {
        let f = frames.clone();
        client.push_fn(move |_| Ok(messages_then(&f, Some(grpc::ok_trailers()), cut)));
        let stream = block_on(
            t.stream_message(&cx, SendMessageRequest::new(Message::user_text("m1", "hi"))),
        )
        .unwrap();
        assert_eq!(stream.binding(), Binding::Grpc);
        assert_eq!(stream.last_event_id(), "");
        let got: Vec<StreamResponse> = collect(stream).into_iter().map(Result::unwrap).collect();
        assert_eq!(got, events, "cut {cut}");
        assert_eq!(
            client.last().uri().path(),
            "/lf.a2a.v1.A2AService/SendStreamingMessage"
        );
    }
    // An error status after an event: the event, then the error, then the end.
    let f = frames[..1].to_vec();
    let trailers = grpc::error_trailers(&A2aError::new(ErrorKind::UnsupportedOperation, "no"));
    client.push_fn(move |_| Ok(messages_then(&f, Some(trailers), 3)));
    let got = collect(
        block_on(t.stream_message(&cx, SendMessageRequest::new(Message::user_text("m1", "hi"))))
            .unwrap(),
    );
    assert_eq!(got.len(), 2);
    assert_eq!(
        got[1].as_ref().unwrap_err().kind(),
        ErrorKind::UnsupportedOperation
    );
    // A trailers-only error refuses the stream itself.
    let (head, ()) =
        grpc::error_response(GrpcCode::NOT_FOUND, &A2aError::task_not_found("t1")).into_parts();
    client.push_fn(move |_| Ok(grpc_response(head.headers, vec![])));
    let e =
        block_on(t.stream_message(&cx, SendMessageRequest::new(Message::user_text("m1", "hi"))))
            .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TaskNotFound);
    // A stream without a status ends with a protocol error.
    let f = frames[..1].to_vec();
    client.push_fn(move |_| Ok(messages_then(&f, None, 3)));
    let got = collect(
        block_on(t.stream_message(&cx, SendMessageRequest::new(Message::user_text("m1", "hi"))))
            .unwrap(),
    );
    assert_eq!(
        got.last().unwrap().as_ref().unwrap_err().kind(),
        ErrorKind::Client
    );
}

#[test]
fn a_dropped_stream_resubscribes_over_grpc() {
    let (client, t) = transport();
    let r = ResilientTransport::new(t, Clock::default())
        .with_policy(RetryPolicy::new().with_max_attempts(3));
    let first = [
        grpc::encode_message(&StreamResponse::Task(task(TaskState::Submitted))).unwrap(),
        grpc::encode_message(&status_event(TaskState::Working)).unwrap(),
    ];
    client.push_fn(move |_| {
        let mut r = messages_then(&first, None, 1000);
        // The connection drops after the messages, before any trailers.
        let (parts, mut body) = r.into_parts();
        let mut chunks = Vec::new();
        while let Some(c) = block_on(std::future::poll_fn(|cx| {
            std::pin::Pin::new(&mut body).poll_next(cx)
        })) {
            chunks.push(c.map(BodyChunk::Data));
        }
        chunks.push(Err(HttpError::Connection("reset".into())));
        r = http::Response::from_parts(parts, ResponseBody::from_body_chunks(chunks));
        Ok(r)
    });
    let rest = [
        grpc::encode_message(&StreamResponse::Task(task(TaskState::Working))).unwrap(),
        grpc::encode_message(&status_event(TaskState::Completed)).unwrap(),
    ];
    client.push_fn(move |_| Ok(messages_then(&rest, Some(grpc::ok_trailers()), 1000)));
    let stream = block_on(r.stream_message(
        &CallContext::new(),
        SendMessageRequest::new(Message::user_text("m1", "hi")),
    ))
    .unwrap();
    let got = collect(stream);
    assert!(got.iter().all(Result::is_ok), "{got:?}");
    let last = got.last().unwrap().as_ref().unwrap();
    assert_eq!(last, &status_event(TaskState::Completed));
    let reqs = client.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(
        reqs[1].uri().path(),
        "/lf.a2a.v1.A2AService/SubscribeToTask"
    );
    let sub = grpc::decode_unary(reqs[1].body(), 1 << 20).unwrap();
    let sub: a2a_types::SubscribeToTaskRequest = a2a_proto::decode(&sub).unwrap();
    assert_eq!(sub.id, "t1");
    assert!(reqs[1].headers().get("last-event-id").is_none());
}

/// gRPC `UNAVAILABLE` with a `RetryInfo` (an overloaded server, or a
/// proxy): an idempotent call waits the delay and is sent again, a
/// SendMessage is not (issue 31).
#[test]
fn unavailable_with_retry_info_is_waited_out_for_idempotent_calls() {
    let unavailable = || {
        let error = A2aError::internal("overloaded").with_retry_delay(Duration::from_millis(300));
        let (head, ()) = grpc::error_response(GrpcCode::UNAVAILABLE, &error).into_parts();
        Ok(grpc_response(head.headers, Vec::new()))
    };
    let (client, t) = transport();
    let clock = Clock::default();
    let r = ResilientTransport::new(t, clock.clone())
        .with_retry_after(RetryPolicy::new().with_max_attempts(2));
    client.push_fn(move |_| unavailable());
    let answer = grpc::encode_message(&task(TaskState::Working)).unwrap();
    client.push_fn(move |_| Ok(messages_then(&[answer], Some(grpc::ok_trailers()), 3)));
    let got = block_on(r.get_task(&CallContext::new(), GetTaskRequest::new("t1"))).unwrap();
    assert_eq!(got, task(TaskState::Working));
    assert_eq!(clock.waits(), [Duration::from_millis(300)]);
    assert_eq!(client.requests().len(), 2);

    client.push_fn(move |_| unavailable());
    let err = block_on(r.send_message(
        &CallContext::new(),
        SendMessageRequest::new(Message::user_text("m1", "hi")),
    ))
    .unwrap_err();
    assert_eq!(err.received_status(), Some(503), "UNAVAILABLE reads as 503");
    assert_eq!(client.requests().len(), 3, "SendMessage is not sent again");
}
