//! The fuzz harnesses of a2a-server (feature `testing`), for the
//! workspace's fuzz targets and the stable tests that replay their seeds.
//!
//! [`fuzz_server`] (target `server_request`): arbitrary HTTP requests
//! through the server's entry point, the [`TowerService`], so that the
//! route table, query parsing, the version and extension headers, both
//! bindings and the whole pipeline see fuzzer-chosen input, with the body
//! split where the fuzzer says. [`fuzz_grpc_frames`] (target
//! `grpc_frames`): gRPC length-prefixed messages, whole and in chunks.
//! The client's harness, `fuzz_grpc_client`, is `a2a_client::fuzz`'s;
//! `a2a_transport::fuzz` gathers the three.
//!
//! [`fuzz_server`] reads its input as: one byte choosing the method, then the target
//! (path and query), the header block (`name: value` lines) and the body,
//! separated by `0xFF` bytes; `0xFE` bytes inside the body split it into
//! frames. Whatever the input, the server must answer without a panic, a
//! 5xx, or an answer it calls JSON that is not; a gRPC answer must carry
//! `grpc-status`, in its head or its trailers.

use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, Waker};

use a2a_types::{
    A2aError, AgentCapabilities, AgentCard, AgentInterface, AgentSkill, CancelTaskRequest,
    GetTaskRequest, ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState,
};
use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request};
use http_body::{Body as _, Frame};
use tower_service::Service as _;

use crate::a2a_server::{A2aServer, ServerConfig};
use crate::tower::TowerService;
use a2a_wire::{A2aService, BoxFuture, CallContext, EventStream};

use a2a_wire::grpc::{
    decode_unary, encode_frame, read_status, FrameDecoder, GrpcError, GRPC_STATUS,
    GRPC_STATUS_DETAILS,
};

/// The most polls a call may take: the agent answers at once and the
/// server reads no clock, so a call that is still pending is a bug.
const MAX_POLLS: usize = 64;
/// The most stream frames read from an answer.
const MAX_FRAMES: usize = 16;

/// An agent that answers every operation at once: task `t-1` exists,
/// everything else is not found.
struct Instant;

fn task() -> Task {
    Task::new("t-1", "c-1", TaskState::Working)
}

fn known(id: &str) -> Result<Task, A2aError> {
    match id {
        "t-1" => Ok(task()),
        other => Err(A2aError::task_not_found(other)),
    }
}

fn events() -> EventStream {
    let items = vec![
        Ok(StreamResponse::Task(task())),
        Ok(StreamResponse::Task(Task::new(
            "t-1",
            "c-1",
            TaskState::Completed,
        ))),
    ];
    Box::pin(Iter(items.into_iter()))
}

struct Iter(std::vec::IntoIter<Result<StreamResponse, A2aError>>);

impl futures_core::Stream for Iter {
    type Item = Result<StreamResponse, A2aError>;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(self.0.next())
    }
}

impl A2aService for Instant {
    fn send_message<'a>(
        &'a self,
        _: &'a CallContext,
        _: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        Box::pin(std::future::ready(Ok(task().into())))
    }

    fn send_streaming_message<'a>(
        &'a self,
        _: &'a CallContext,
        _: SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        Box::pin(std::future::ready(Ok(events())))
    }

    fn get_task<'a>(
        &'a self,
        _: &'a CallContext,
        request: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(std::future::ready(known(&request.id)))
    }

    fn list_tasks<'a>(
        &'a self,
        _: &'a CallContext,
        _: ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, A2aError>> {
        Box::pin(std::future::ready(Ok(ListTasksResponse::default())))
    }

    fn cancel_task<'a>(
        &'a self,
        _: &'a CallContext,
        request: CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(std::future::ready(known(&request.id)))
    }

    fn subscribe_to_task<'a>(
        &'a self,
        _: &'a CallContext,
        request: SubscribeToTaskRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        Box::pin(std::future::ready(known(&request.id).map(|_| events())))
    }

    fn create_task_push_notification_config<'a>(
        &'a self,
        _: &'a CallContext,
        request: TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        Box::pin(std::future::ready(Ok(request)))
    }
}

fn server() -> &'static TowerService<Instant> {
    static SERVER: OnceLock<TowerService<Instant>> = OnceLock::new();
    SERVER.get_or_init(|| {
        let config = ServerConfig::new().with_max_body_size(1 << 16);
        let card = AgentCard {
            name: "Fuzz".into(),
            description: "Answers at once".into(),
            version: "1.0.0".into(),
            supported_interfaces: vec![
                AgentInterface::new("https://agent.example/", "JSONRPC", "1.0"),
                AgentInterface::new("https://agent.example", "HTTP+JSON", "1.0"),
            ],
            capabilities: AgentCapabilities {
                streaming: Some(true),
                push_notifications: Some(true),
                ..AgentCapabilities::default()
            },
            default_input_modes: vec!["text/plain".into()],
            default_output_modes: vec!["text/plain".into()],
            skills: vec![AgentSkill {
                id: "s".into(),
                name: "S".into(),
                description: "Answers".into(),
                tags: vec!["s".into()],
                ..AgentSkill::default()
            }],
            ..AgentCard::default()
        };
        match A2aServer::new(Instant, card, config) {
            Ok(server) => TowerService::new(Arc::new(server)),
            Err(e) => panic!("the fuzz server's card is valid: {e}"),
        }
    })
}

/// A body of the fuzzer's frames.
struct Frames(std::collections::VecDeque<Bytes>);

impl http_body::Body for Frames {
    type Data = Bytes;
    type Error = std::convert::Infallible;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        Poll::Ready(self.0.pop_front().map(|b| Ok(Frame::data(b))))
    }
}

const METHODS: [Method; 7] = [
    Method::GET,
    Method::POST,
    Method::PUT,
    Method::DELETE,
    Method::PATCH,
    Method::HEAD,
    Method::OPTIONS,
];

/// The request the input describes (see the module documentation), or
/// `None` when its target or a header is not valid in `http` (which a
/// host's HTTP parser would have refused).
fn request(data: &[u8]) -> Option<Request<Frames>> {
    let (&first, rest) = data.split_first()?;
    let method = METHODS[usize::from(first) % METHODS.len()].clone();
    let mut parts = rest.splitn(3, |&b| b == 0xFF);
    let target = parts.next().unwrap_or_default();
    let headers = parts.next().unwrap_or_default();
    let body = parts.next().unwrap_or_default();
    let target = if target.first() == Some(&b'/') {
        http::Uri::try_from(target).ok()?
    } else {
        let mut slash = b"/".to_vec();
        slash.extend_from_slice(target);
        http::Uri::try_from(slash).ok()?
    };
    let mut builder = Request::builder().method(method).uri(target);
    for line in headers.split(|&b| b == b'\n') {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let name = HeaderName::from_bytes(&line[..colon]).ok()?;
        let value = HeaderValue::from_bytes(line[colon + 1..].trim_ascii()).ok()?;
        builder = builder.header(name, value);
    }
    let frames = body
        .split(|&b| b == 0xFE)
        .map(Bytes::copy_from_slice)
        .collect();
    builder.body(Frames(frames)).ok()
}

fn ready<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..MAX_POLLS {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
    }
    panic!("a call to an agent that answers at once is still pending after {MAX_POLLS} polls");
}

/// Runs one fuzzer input (see the module documentation).
pub fn fuzz_server(data: &[u8]) {
    let Some(request) = request(data) else {
        return;
    };
    let mut service = server().clone();
    let response = match ready(service.call(request)) {
        Ok(response) => response,
        Err(never) => match never {},
    };
    let status = response.status();
    assert!(!status.is_server_error(), "{status} for {data:?}");
    let json = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("json"));
    let grpc = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .is_some_and(|v| v == "application/grpc");
    let mut status_seen = response.headers().contains_key("grpc-status");
    let mut body = std::pin::pin!(response.into_body());
    let mut cx = Context::from_waker(Waker::noop());
    let mut bytes = Vec::new();
    let mut ended = false;
    for _ in 0..MAX_FRAMES {
        match body.as_mut().poll_frame(&mut cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    bytes.extend_from_slice(data);
                }
                if let Some(trailers) = frame.trailers_ref() {
                    status_seen |= trailers.contains_key("grpc-status");
                }
            }
            Poll::Ready(Some(Err(e))) => panic!("the answer's body failed: {e}"),
            Poll::Ready(None) => {
                ended = true;
                break;
            }
            Poll::Pending => break,
        }
    }
    if grpc && ended {
        assert!(
            status_seen,
            "{status} gRPC answer without grpc-status for {data:?}"
        );
    }
    if json && !bytes.is_empty() {
        if let Err(e) = serde_json::from_slice::<serde_json::Value>(&bytes) {
            panic!("{status} answer says JSON but is not ({e}): {bytes:?}");
        }
    }
}

/// Every message a decoder gives for `pieces`, and how it ended.
fn run(
    limit: usize,
    pieces: &mut dyn Iterator<Item = &[u8]>,
) -> (Vec<Bytes>, Result<(), GrpcError>) {
    let mut decoder = FrameDecoder::new(limit);
    let mut messages = Vec::new();
    for piece in pieces {
        decoder.push(piece);
        loop {
            match decoder.next_message() {
                Ok(Some(m)) => messages.push(m),
                Ok(None) => break,
                Err(e) => return (messages, Err(e)),
            }
        }
    }
    (messages, decoder.finish())
}

/// The gRPC frame decoder's fuzz harness. The first byte chooses a chunk
/// size (1 to 16) and a message limit (0 to 960 bytes); the rest is a
/// body. Decoding it whole and in chunks must give the same messages and
/// the same ending; every message re-frames to its own bytes and is
/// decoded as a `StreamResponse` (without panicking); the unary reader
/// agrees with the decoder; and the body as `grpc-status-details-bin`
/// reads without panicking.
pub fn fuzz_grpc_frames(data: &[u8]) {
    let Some((&knob, body)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(knob % 16) + 1;
    let limit = usize::from(knob >> 4) * 64;
    let whole = run(limit, &mut std::iter::once(body));
    let split = run(limit, &mut body.chunks(chunk));
    assert_eq!(whole, split, "chunking changed the outcome");
    let mut reframed = Vec::new();
    for message in &whole.0 {
        match encode_frame(message) {
            Ok(frame) => reframed.extend_from_slice(&frame),
            Err(e) => panic!("a decoded message does not frame: {e}"),
        }
        let _ = a2a_proto::decode::<StreamResponse>(message);
    }
    assert_eq!(
        &body[..reframed.len()],
        &reframed[..],
        "frames are not their bytes"
    );
    match (decode_unary(body, limit), whole.0.as_slice(), &whole.1) {
        (Ok(m), [only], Ok(())) => assert_eq!(&m, only),
        (Ok(m), _, _) => panic!("the unary reader read {m:?} where the decoder did not"),
        (Err(_), _, _) => {}
    }
    if let Ok(value) = HeaderValue::from_bytes(body) {
        let mut fields = HeaderMap::new();
        fields.insert(GRPC_STATUS, HeaderValue::from_static("3"));
        fields.insert(GRPC_STATUS_DETAILS, value);
        let _ = read_status(&fields);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_described_request_reaches_the_agent_and_garbage_is_answered() {
        let send = b"\x01/\xFFcontent-type: application/json\na2a-version: 1.0\xFF{\"jsonrpc\":\"2.0\",\xFE\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t-1\"}}";
        let described = request(send).unwrap();
        assert_eq!(described.method(), Method::POST);
        assert_eq!(described.body().0.len(), 2, "split at 0xFE");
        fuzz_server(send);
        fuzz_server(b"\x00tasks/t-1:subscribe?a2a-version=1.0\xFFaccept: text/event-stream");
        fuzz_server(b"");
        fuzz_server(b"\x02\xFF\xFF\xFF\xFF");
        assert!(
            request(b"\x00/\xFFbad header\xFF").is_some(),
            "a line without a colon is skipped"
        );
        assert!(
            request(b"\x00/\xFF\x01name: v\xFF").is_none(),
            "an invalid name is not a request"
        );
    }
}
