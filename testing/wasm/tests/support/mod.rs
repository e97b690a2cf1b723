//! What both test files share: a small agent, its server, a client that
//! reaches the server without a network, and a way to finish futures that
//! need no event loop.

#![allow(dead_code)] // each test file uses its own part

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use a2a_transport::client::{BodyChunk, HttpError, ResponseBody};
use a2a_transport::server::Chunk;
use a2a_transport::{
    A2aServer, A2aService, Body, BoxFuture, CallContext, EventStream, HttpClient, ServerConfig,
};
use a2a_types::{
    A2aError, AgentCard, Artifact, GetTaskRequest, Message, Role, SendMessageRequest,
    SendMessageResponse, StreamResponse, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent, Timestamp,
};
use bytes::Bytes;
use futures_core::Stream;

/// 2025-01-01T00:00:00Z: the one time of the agent (the target has no
/// clock, and the answers are compared byte for byte).
pub(crate) fn new_year() -> Timestamp {
    Timestamp::new(1_735_689_600, 0).unwrap()
}

/// An agent that answers each message with a completed task echoing its
/// text, keeps the tasks for `GetTask`, and streams the same work as four
/// events.
#[derive(Debug, Default)]
pub(crate) struct Echo {
    tasks: Mutex<BTreeMap<String, Task>>,
}

impl Echo {
    /// The task for `message`: `task-<messageId>` in `ctx-1`, completed,
    /// with the message as history and one artifact `echo: <text>`.
    pub(crate) fn task_for(message: &Message) -> Task {
        let text = message.text_content().unwrap_or_default();
        let mut task = Task::new(
            format!("task-{}", message.message_id),
            "ctx-1",
            TaskState::Completed,
        );
        task.status = TaskStatus::new(TaskState::Completed).with_timestamp(new_year());
        task.artifacts = vec![Artifact::text("a-1", format!("echo: {text}"))];
        task.history = vec![message.clone()];
        task
    }

    /// The events of the streamed work for `message`.
    pub(crate) fn events_for(message: &Message) -> Vec<StreamResponse> {
        let done = Echo::task_for(message);
        let mut submitted = done.clone();
        submitted.status = TaskStatus::new(TaskState::Submitted).with_timestamp(new_year());
        submitted.artifacts.clear();
        let status = |state| {
            StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
                done.id.clone(),
                "ctx-1",
                TaskStatus::new(state).with_timestamp(new_year()),
            ))
        };
        vec![
            StreamResponse::Task(submitted),
            status(TaskState::Working),
            StreamResponse::ArtifactUpdate(
                TaskArtifactUpdateEvent::new(done.id.clone(), "ctx-1", done.artifacts[0].clone())
                    .with_last_chunk(true),
            ),
            status(TaskState::Completed),
        ]
    }
}

impl A2aService for Echo {
    fn send_message<'a>(
        &'a self,
        _: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        Box::pin(async move {
            if request.message.text_content().as_deref() == Some("reply") {
                return Ok(SendMessageResponse::Message(Message::new(
                    Role::Agent,
                    "reply-1",
                    vec![a2a_types::Part::text("a message, not a task")],
                )));
            }
            let task = Echo::task_for(&request.message);
            self.tasks
                .lock()
                .unwrap()
                .insert(task.id.clone(), task.clone());
            Ok(SendMessageResponse::Task(task))
        })
    }

    fn send_streaming_message<'a>(
        &'a self,
        _: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        Box::pin(async move {
            let events = Echo::events_for(&request.message);
            Ok(Box::pin(Items(
                events.into_iter().map(Ok).collect::<Vec<_>>().into_iter(),
            )) as EventStream)
        })
    }

    fn get_task<'a>(
        &'a self,
        _: &'a CallContext,
        request: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(async move {
            self.tasks
                .lock()
                .unwrap()
                .get(&request.id)
                .cloned()
                .ok_or_else(|| A2aError::task_not_found(&request.id))
        })
    }
}

/// Items known in advance, as a stream.
struct Items<T>(std::vec::IntoIter<T>);

impl<T> Unpin for Items<T> {}

impl<T> Stream for Items<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<T>> {
        Poll::Ready(self.0.next())
    }
}

/// The agent's card: JSON-RPC at `/`, HTTP+JSON at `/v1`, gRPC, streaming.
pub(crate) fn card(base: &str) -> AgentCard {
    let json = format!(
        r#"{{
        "name": "Echo", "description": "Echoes", "version": "1.0.0",
        "supportedInterfaces": [
            {{"url": "{base}/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
            {{"url": "{base}/v1", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}},
            {{"url": "{base}", "protocolBinding": "GRPC", "protocolVersion": "1.0"}}],
        "capabilities": {{"streaming": true}},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{{"id": "echo", "name": "Echo", "description": "Echoes", "tags": ["echo"]}}]
    }}"#
    );
    a2a_types::from_slice(json.as_bytes()).unwrap()
}

/// The server of a fresh [`Echo`] with the card for `base`.
pub(crate) fn server(base: &str) -> A2aServer<Echo> {
    let config = ServerConfig::new().with_rest_base_path("/v1");
    A2aServer::new(Echo::default(), card(base), config).unwrap()
}

/// Polls `f` to its end with a waker that does nothing: for futures that
/// are ready at once (the server, the in-memory client), which need no
/// event loop.
pub(crate) fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..1_000_000 {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
    panic!("the future did not finish: it waits for something no one will do");
}

/// A body's chunks, in order (its data, then its trailers if any).
pub(crate) fn chunks(body: Body) -> Vec<Chunk> {
    let mut body = body;
    let mut out = Vec::new();
    block_on(std::future::poll_fn(|cx| loop {
        match Pin::new(&mut body).poll_chunk(cx) {
            Poll::Ready(Some(chunk)) => out.push(chunk),
            Poll::Ready(None) => return Poll::Ready(()),
            Poll::Pending => return Poll::Pending,
        }
    }));
    out
}

/// A body's data, concatenated.
pub(crate) fn data(body: Body) -> Vec<u8> {
    chunks(body)
        .into_iter()
        .filter_map(|c| match c {
            Chunk::Data(d) => Some(d),
            _ => None,
        })
        .flat_map(|d| d.to_vec())
        .collect()
}

/// An `HttpClient` that hands each request to the server's `handle` and
/// its body back chunk by chunk, trailers included: the client and the
/// server in one instance, without a network.
#[derive(Debug)]
pub(crate) struct Loopback<S> {
    pub(crate) server: Arc<A2aServer<S>>,
}

impl<S: A2aService + 'static> HttpClient for Loopback<S> {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        Box::pin(async move {
            let (head, body) = self.server.handle(request).await.into_parts();
            let chunks = ResponseBody::with_trailers(Wire(body));
            Ok(http::Response::from_parts(head, chunks))
        })
    }
}

/// A server body as a client body.
struct Wire(Body);

impl Stream for Wire {
    type Item = Result<BodyChunk, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.0).poll_chunk(cx).map(|chunk| {
            chunk.map(|c| match c {
                Chunk::Data(d) => Ok(BodyChunk::Data(d)),
                Chunk::Trailers(t) => Ok(BodyChunk::Trailers(t)),
                other => Err(HttpError::Connection(format!(
                    "unknown body chunk {other:?}"
                ))),
            })
        })
    }
}
