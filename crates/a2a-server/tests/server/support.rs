//! Test support: an in-memory A2A agent, cards, and helpers that drive
//! `A2aServer::handle` over either binding without a runtime or a socket.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

use a2a_server::{
    A2aServer, A2aService, Body, BoxFuture, CallContext, EventStream, Principal, ServerConfig,
};
use a2a_sse::{Decoder, Event};
use a2a_types::{
    A2aError, AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Artifact,
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, ErrorKind,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    HTTPAuthSecurityScheme, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, Message, Part,
    PartContent, Role, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskArtifactUpdateEvent, TaskPushNotificationConfig, TaskState,
    TaskStatus, TaskStatusUpdateEvent, Timestamp,
};
use bytes::Bytes;
use futures_core::Stream;
use http::{HeaderMap, Method, Request, Response, StatusCode};
use serde_json::{json, Value};

/// Keeps the panics the tests cause on purpose (their message says so)
/// out of the test output; every other panic is reported as usual.
pub fn quiet_intentional_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let text = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("");
            if !text.contains("on purpose") {
                previous(info);
            }
        }));
    });
}

/// Polls a future to completion with a no-op waker (everything here is
/// ready at once; a pending future is polled again).
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// Every chunk of a body, concatenated.
pub fn collect(body: Body) -> Bytes {
    let mut body = body;
    let mut cx = Context::from_waker(Waker::noop());
    let mut out = Vec::new();
    loop {
        match Pin::new(&mut body).poll_next(&mut cx) {
            Poll::Ready(Some(chunk)) => out.extend_from_slice(&chunk),
            Poll::Ready(None) => return out.into(),
            Poll::Pending => continue,
        }
    }
}

/// SSE events of a stream body, decoded with `a2a_sse::Decoder`.
pub fn sse_events(bytes: &[u8]) -> Vec<Event> {
    let mut decoder = Decoder::new();
    decoder.feed(Bytes::copy_from_slice(bytes));
    decoder.finish();
    let mut events = Vec::new();
    while let Some(event) = decoder.next_event().expect("valid SSE") {
        events.push(event);
    }
    events
}

/// A response, its body collected.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
    pub streamed: bool,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {:?}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn header_all(&self, name: &str) -> Vec<String> {
        self.headers
            .get_all(name)
            .iter()
            .map(|v| v.to_str().unwrap().to_owned())
            .collect()
    }

    pub fn events(&self) -> Vec<Event> {
        assert_eq!(self.header("content-type"), Some("text/event-stream"));
        sse_events(&self.body)
    }
}

pub fn send<S: A2aService>(server: &A2aServer<S>, request: Request<Bytes>) -> Answer {
    quiet_intentional_panics();
    let resp: Response<Body> = block_on(server.handle(request));
    let (parts, body) = resp.into_parts();
    let streamed = body.is_stream();
    Answer {
        status: parts.status,
        headers: parts.headers,
        body: collect(body),
        streamed,
    }
}

/// Extra request headers, e.g. `&[("authorization", "Bearer t")]`.
pub type Headers<'a> = &'a [(&'a str, &'a str)];

/// A JSON-RPC call to `/` with `A2A-Version: 1.0`.
pub fn rpc<S: A2aService>(
    server: &A2aServer<S>,
    method: &str,
    params: Value,
    headers: Headers<'_>,
) -> Answer {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    rpc_raw(server, serde_json::to_vec(&body).unwrap(), headers)
}

pub fn rpc_raw<S: A2aService>(
    server: &A2aServer<S>,
    body: Vec<u8>,
    headers: Headers<'_>,
) -> Answer {
    let mut req = Request::post("/")
        .header("content-type", "application/json")
        .header("a2a-version", "1.0");
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    send(server, req.body(Bytes::from(body)).unwrap())
}

/// An HTTP+JSON call with `A2A-Version: 1.0`.
pub fn rest<S: A2aService>(
    server: &A2aServer<S>,
    method: Method,
    path: &str,
    body: Option<Value>,
    headers: Headers<'_>,
) -> Answer {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header("a2a-version", "1.0");
    if body.is_some() {
        req = req.header("content-type", "application/a2a+json");
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let body = body.map_or_else(Bytes::new, |b| Bytes::from(serde_json::to_vec(&b).unwrap()));
    send(server, req.body(body).unwrap())
}

/// The `result` of a successful JSON-RPC answer (HTTP 200, id 7).
pub fn result(a: &Answer) -> Value {
    assert_eq!(a.status, 200, "{:?}", String::from_utf8_lossy(&a.body));
    assert_eq!(a.header("content-type"), Some("application/json"));
    let v = a.json();
    assert_eq!(v["id"], 7, "{v}");
    assert!(v.get("error").is_none(), "unexpected error {v}");
    v["result"].clone()
}

/// The body of a successful HTTP+JSON answer.
pub fn ok(a: &Answer) -> Value {
    assert_eq!(a.status, 200, "{:?}", String::from_utf8_lossy(&a.body));
    assert_eq!(a.header("content-type"), Some("application/a2a+json"));
    a.json()
}

/// `(code, reason)` of a JSON-RPC error answer.
pub fn rpc_error(a: &Answer) -> (i64, String) {
    let v = a.json();
    let err = &v["error"];
    assert!(err.is_object(), "not an error: {v}");
    let reason = err["data"]
        .as_array()
        .and_then(|d| {
            d.iter()
                .find(|x| x["@type"] == "type.googleapis.com/google.rpc.ErrorInfo")
        })
        .map(|i| i["reason"].as_str().unwrap().to_owned())
        .unwrap_or_default();
    (err["code"].as_i64().unwrap(), reason)
}

/// `(HTTP status in the body, reason)` of an HTTP+JSON error answer, after
/// checking the `google.rpc.Status` shape (spec 11.6).
pub fn rest_error(a: &Answer) -> (u16, String) {
    let v = a.json();
    let err = &v["error"];
    assert!(err.is_object(), "not an error: {v}");
    assert_eq!(
        err["code"].as_u64(),
        Some(u64::from(a.status.as_u16())),
        "{v}"
    );
    assert!(
        err["status"].is_string() && err["message"].is_string(),
        "{v}"
    );
    let details = err["details"].as_array().cloned().unwrap_or_default();
    for d in &details {
        assert!(d["@type"].is_string(), "detail without @type: {v}");
    }
    let reason = details
        .iter()
        .find(|x| x["@type"] == "type.googleapis.com/google.rpc.ErrorInfo")
        .map(|i| {
            assert_eq!(i["domain"], "a2a-protocol.org");
            i["reason"].as_str().unwrap().to_owned()
        })
        .unwrap_or_default();
    (err["code"].as_u64().unwrap() as u16, reason)
}

/// The field violations of an error's `BadRequest` detail, either binding.
pub fn violations(a: &Answer) -> Vec<String> {
    let v = a.json();
    let details = v["error"]["data"]
        .as_array()
        .or_else(|| v["error"]["details"].as_array())
        .cloned()
        .unwrap_or_default();
    details
        .iter()
        .filter(|d| d["@type"] == "type.googleapis.com/google.rpc.BadRequest")
        .flat_map(|d| d["fieldViolations"].as_array().cloned().unwrap_or_default())
        .map(|f| f["field"].as_str().unwrap().to_owned())
        .collect()
}

/// A card declaring every capability and a bearer scheme (not required).
pub fn full_card() -> AgentCard {
    let mut card = AgentCard {
        name: "Memory agent".into(),
        description: "Remembers tasks".into(),
        supported_interfaces: vec![
            AgentInterface::new("https://agent.example/", "JSONRPC", "1.0"),
            AgentInterface::new("https://agent.example/", "HTTP+JSON", "1.0"),
        ],
        version: "1.0.0".into(),
        capabilities: AgentCapabilities {
            streaming: Some(true),
            push_notifications: Some(true),
            extended_agent_card: Some(true),
            ..Default::default()
        },
        default_input_modes: vec!["text/plain".into()],
        default_output_modes: vec!["text/plain".into()],
        skills: vec![AgentSkill {
            id: "echo".into(),
            name: "Echo".into(),
            description: "Echoes".into(),
            tags: vec!["echo".into()],
            ..Default::default()
        }],
        ..Default::default()
    };
    card.security_schemes.insert(
        "bearer".into(),
        HTTPAuthSecurityScheme {
            scheme: "Bearer".into(),
            ..Default::default()
        }
        .into(),
    );
    card
}

/// The full card with its interfaces where `config` serves them, in the
/// versions it serves (`A2aServer::new` refuses a card that declares
/// anything else, spec 8.3.1).
pub fn card_for(config: &ServerConfig) -> AgentCard {
    let mut card = full_card();
    card.supported_interfaces.clear();
    for version in &config.versions {
        let version = version.to_string();
        if let Some(path) = &config.jsonrpc_path {
            let url = format!("https://agent.example{path}");
            card.supported_interfaces
                .push(AgentInterface::new(url, "JSONRPC", version.as_str()));
        }
        if let Some(base) = &config.rest_base_path {
            let url = format!("https://agent.example{base}");
            card.supported_interfaces
                .push(AgentInterface::new(url, "HTTP+JSON", version.as_str()));
        }
    }
    card
}

/// A server over a fresh [`Memory`] agent with the full card, accepting
/// the bearer token `t0k3n` as `alice`.
pub fn memory_server() -> A2aServer<Memory> {
    let config = ServerConfig::new()
        .with_authenticator(a2a_server::BearerAuth::new("bearer").with_token("t0k3n", "alice"));
    A2aServer::new(Memory::default(), full_card(), config).unwrap()
}

/// What a handler saw of its call context.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Seen {
    pub tenant: Option<String>,
    pub principal: Option<Principal>,
    pub extensions: Vec<String>,
    pub version: String,
    pub timeout: Option<std::time::Duration>,
}

#[derive(Default)]
struct State {
    next_task: u32,
    next_config: u32,
    tasks: BTreeMap<String, Task>,
    configs: BTreeMap<(String, String), TaskPushNotificationConfig>,
    seen: Vec<Seen>,
}

/// A small in-memory agent. Message texts steer it:
/// - `hold`: the task stays `TASK_STATE_WORKING`;
/// - `reply`: a direct message, no task;
/// - `fail`: `InvalidAgentResponseError` before any event;
/// - `fail-mid-stream`: streams one event, then `InternalError`;
/// - `panic`, `panic-mid-stream`: the handler or its stream panics;
/// - anything else: a completed task echoing the text as an artifact.
///
/// Task and config ids count up from 1, so two fresh agents given the same
/// calls answer the same.
#[derive(Default)]
pub struct Memory {
    state: Mutex<State>,
}

fn ts(n: u32) -> Timestamp {
    Timestamp::parse(&format!("2025-01-01T00:00:{:02}Z", n % 60)).unwrap()
}

fn text_of(m: &Message) -> String {
    m.parts
        .iter()
        .filter_map(|p| match &p.content {
            PartContent::Text(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

impl Memory {
    /// Every context the agent's handlers saw, in order.
    pub fn seen(&self) -> Vec<Seen> {
        self.state.lock().unwrap().seen.clone()
    }

    fn note(&self, cx: &CallContext) {
        self.state.lock().unwrap().seen.push(Seen {
            tenant: cx.tenant.clone(),
            principal: cx.principal.clone(),
            extensions: cx.extensions.clone(),
            version: cx.version.to_string(),
            timeout: cx.timeout,
        });
    }

    fn new_task(&self, cx: &CallContext, message: &Message, state: TaskState) -> Task {
        let mut st = self.state.lock().unwrap();
        st.next_task += 1;
        let n = st.next_task;
        let id = format!("task-{n}");
        let context_id = if message.context_id.is_empty() {
            format!("ctx-{n}")
        } else {
            message.context_id.clone()
        };
        let mut stored = message.clone();
        stored.task_id = id.clone();
        stored.context_id = context_id.clone();
        let mut task = Task::new(&id, &context_id, state);
        task.status.timestamp = Some(ts(n));
        task.history = vec![stored];
        if state == TaskState::Completed {
            task.artifacts = vec![Artifact {
                artifact_id: "echo".into(),
                parts: vec![Part::text(text_of(message))],
                ..Default::default()
            }];
        }
        let key = scoped(cx, &id);
        st.tasks.insert(key, task.clone());
        task
    }

    fn task(&self, cx: &CallContext, id: &str) -> Result<Task, A2aError> {
        self.state
            .lock()
            .unwrap()
            .tasks
            .get(&scoped(cx, id))
            .cloned()
            .ok_or_else(|| A2aError::task_not_found(id))
    }
}

/// Tasks are scoped to the tenant (spec 13.1).
fn scoped(cx: &CallContext, id: &str) -> String {
    format!("{}/{id}", cx.tenant.as_deref().unwrap_or(""))
}

fn truncate(mut task: Task, history_length: Option<i32>) -> Task {
    if let Some(n) = history_length {
        let keep = usize::try_from(n.max(0)).unwrap_or(0);
        let len = task.history.len();
        task.history.drain(..len.saturating_sub(keep));
    }
    task
}

/// A stream of the given items, then the end.
pub fn stream_of(items: Vec<Result<StreamResponse, A2aError>>) -> EventStream {
    struct Items(std::vec::IntoIter<Result<StreamResponse, A2aError>>);
    impl Stream for Items {
        type Item = Result<StreamResponse, A2aError>;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            Poll::Ready(self.0.next())
        }
    }
    Box::pin(Items(items.into_iter()))
}

/// Yields one event, then panics.
fn panicking_stream(first: StreamResponse) -> EventStream {
    struct P(Option<StreamResponse>);
    impl Stream for P {
        type Item = Result<StreamResponse, A2aError>;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            match self.0.take() {
                Some(first) => Poll::Ready(Some(Ok(first))),
                None => panic!("the test stream panics on purpose"),
            }
        }
    }
    Box::pin(P(Some(first)))
}

fn status_event(task: &Task, state: TaskState) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: task.id.clone(),
        context_id: task.context_id.clone(),
        status: TaskStatus {
            state,
            timestamp: Some(ts(30)),
            ..Default::default()
        },
        ..Default::default()
    })
}

impl A2aService for Memory {
    fn send_message<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        Box::pin(async move {
            self.note(cx);
            let text = text_of(&request.message);
            match text.as_str() {
                "panic" => panic!("the test handler panics on purpose"),
                "fail" => return Err(A2aError::from_kind(ErrorKind::InvalidAgentResponse)),
                "reply" => {
                    return Ok(SendMessageResponse::Message(Message {
                        message_id: "reply-1".into(),
                        role: Role::Agent,
                        parts: vec![Part::text("hello back")],
                        ..Default::default()
                    }))
                }
                _ => {}
            }
            let state = if text == "hold" {
                TaskState::Working
            } else {
                TaskState::Completed
            };
            let task = self.new_task(cx, &request.message, state);
            let history = request.configuration.and_then(|c| c.history_length);
            Ok(SendMessageResponse::Task(truncate(task, history)))
        })
    }

    fn send_streaming_message<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        Box::pin(async move {
            self.note(cx);
            let text = text_of(&request.message);
            if text == "fail" {
                return Ok(stream_of(vec![Err(A2aError::from_kind(
                    ErrorKind::InvalidAgentResponse,
                ))]));
            }
            let mut task = self.new_task(cx, &request.message, TaskState::Submitted);
            task.artifacts.clear();
            let first = StreamResponse::Task(task.clone());
            if text == "panic-mid-stream" {
                return Ok(panicking_stream(first));
            }
            if text == "fail-mid-stream" {
                return Ok(stream_of(vec![
                    Ok(first),
                    Err(A2aError::internal("the model went away")),
                ]));
            }
            if text == "empty" {
                return Ok(stream_of(Vec::new()));
            }
            let artifact = StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent {
                task_id: task.id.clone(),
                context_id: task.context_id.clone(),
                artifact: Artifact {
                    artifact_id: "echo".into(),
                    parts: vec![Part::text(text)],
                    ..Default::default()
                },
                last_chunk: true,
                ..Default::default()
            });
            Ok(stream_of(vec![
                Ok(first),
                Ok(status_event(&task, TaskState::Working)),
                Ok(artifact),
                Ok(status_event(&task, TaskState::Completed)),
            ]))
        })
    }

    fn get_task<'a>(
        &'a self,
        cx: &'a CallContext,
        r: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(async move {
            self.note(cx);
            Ok(truncate(self.task(cx, &r.id)?, r.history_length))
        })
    }

    fn list_tasks<'a>(
        &'a self,
        cx: &'a CallContext,
        r: ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, A2aError>> {
        Box::pin(async move {
            self.note(cx);
            let prefix = scoped(cx, "");
            let st = self.state.lock().unwrap();
            let mut tasks: Vec<Task> = st
                .tasks
                .iter()
                .filter(|(k, _)| k.starts_with(&prefix))
                .map(|(_, t)| t.clone())
                .filter(|t| r.context_id.is_empty() || t.context_id == r.context_id)
                .filter(|t| r.status == TaskState::Unspecified || t.status.state == r.status)
                .filter(|t| {
                    r.status_timestamp_after
                        .is_none_or(|after| t.status.timestamp.is_some_and(|at| at >= after))
                })
                .map(|t| truncate(t, r.history_length))
                .collect();
            if r.include_artifacts != Some(true) {
                for t in &mut tasks {
                    t.artifacts.clear();
                }
            }
            let total = tasks.len() as i32;
            let page_size = r.page_size.unwrap_or(50);
            tasks.truncate(usize::try_from(page_size).unwrap_or(0));
            Ok(ListTasksResponse {
                tasks,
                next_page_token: String::new(),
                page_size,
                total_size: total,
            })
        })
    }

    fn cancel_task<'a>(
        &'a self,
        cx: &'a CallContext,
        r: CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(async move {
            self.note(cx);
            let mut task = self.task(cx, &r.id)?;
            if task.status.state.is_terminal() {
                return Err(A2aError::task_not_cancelable(
                    &r.id,
                    task.status.state.as_str_name(),
                ));
            }
            task.status.state = TaskState::Canceled;
            self.state
                .lock()
                .unwrap()
                .tasks
                .insert(scoped(cx, &r.id), task.clone());
            Ok(task)
        })
    }

    fn subscribe_to_task<'a>(
        &'a self,
        cx: &'a CallContext,
        r: SubscribeToTaskRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        Box::pin(async move {
            self.note(cx);
            let task = match self.task(cx, &r.id) {
                Ok(t) => t,
                // Reported as the stream's first item, as a handler that
                // looks the task up lazily would.
                Err(e) => return Ok(stream_of(vec![Err(e)])),
            };
            if task.status.state.is_terminal() {
                return Err(A2aError::unsupported_operation(format!(
                    "task {} is in a terminal state",
                    r.id
                )));
            }
            Ok(stream_of(vec![
                Ok(StreamResponse::Task(task.clone())),
                Ok(status_event(&task, TaskState::Completed)),
            ]))
        })
    }

    fn create_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        mut r: TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        Box::pin(async move {
            self.note(cx);
            self.task(cx, &r.task_id)?;
            let mut st = self.state.lock().unwrap();
            if r.id.is_empty() {
                st.next_config += 1;
                r.id = format!("cfg-{}", st.next_config);
            }
            st.configs
                .insert((scoped(cx, &r.task_id), r.id.clone()), r.clone());
            Ok(r)
        })
    }

    fn get_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        r: GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        Box::pin(async move {
            self.note(cx);
            self.state
                .lock()
                .unwrap()
                .configs
                .get(&(scoped(cx, &r.task_id), r.id.clone()))
                .cloned()
                .ok_or_else(|| A2aError::task_not_found(&r.task_id))
        })
    }

    fn list_task_push_notification_configs<'a>(
        &'a self,
        cx: &'a CallContext,
        r: ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, A2aError>> {
        Box::pin(async move {
            self.note(cx);
            self.task(cx, &r.task_id)?;
            let key = scoped(cx, &r.task_id);
            let configs = self
                .state
                .lock()
                .unwrap()
                .configs
                .iter()
                .filter(|((t, _), _)| *t == key)
                .map(|(_, c)| c.clone())
                .collect();
            Ok(ListTaskPushNotificationConfigsResponse {
                configs,
                next_page_token: String::new(),
            })
        })
    }

    fn delete_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        r: DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), A2aError>> {
        Box::pin(async move {
            self.note(cx);
            self.state
                .lock()
                .unwrap()
                .configs
                .remove(&(scoped(cx, &r.task_id), r.id.clone()))
                .map(|_| ())
                .ok_or_else(|| A2aError::task_not_found(&r.task_id))
        })
    }

    fn get_extended_agent_card<'a>(
        &'a self,
        cx: &'a CallContext,
        _: GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, A2aError>> {
        Box::pin(async move {
            self.note(cx);
            let mut card = full_card();
            card.skills.push(AgentSkill {
                id: "secret".into(),
                name: "Secret".into(),
                description: "Only for callers we know".into(),
                tags: vec!["private".into()],
                ..Default::default()
            });
            Ok(card)
        })
    }
}

/// A handler answering every operation with an error of one kind.
pub struct Failing(pub ErrorKind);

impl Failing {
    fn err<'a, T: Send + 'a>(&self) -> BoxFuture<'a, Result<T, A2aError>> {
        let kind = self.0;
        Box::pin(async move { Err(A2aError::from_kind(kind)) })
    }
}

impl A2aService for Failing {
    fn send_message<'a>(
        &'a self,
        _: &'a CallContext,
        _: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        self.err()
    }
    fn send_streaming_message<'a>(
        &'a self,
        _: &'a CallContext,
        _: SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        self.err()
    }
    fn get_task<'a>(
        &'a self,
        _: &'a CallContext,
        _: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        self.err()
    }
    fn list_tasks<'a>(
        &'a self,
        _: &'a CallContext,
        _: ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, A2aError>> {
        self.err()
    }
    fn cancel_task<'a>(
        &'a self,
        _: &'a CallContext,
        _: CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        self.err()
    }
    fn subscribe_to_task<'a>(
        &'a self,
        _: &'a CallContext,
        _: SubscribeToTaskRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        self.err()
    }
    fn create_task_push_notification_config<'a>(
        &'a self,
        _: &'a CallContext,
        _: TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        self.err()
    }
    fn get_task_push_notification_config<'a>(
        &'a self,
        _: &'a CallContext,
        _: GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        self.err()
    }
    fn list_task_push_notification_configs<'a>(
        &'a self,
        _: &'a CallContext,
        _: ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, A2aError>> {
        self.err()
    }
    fn delete_task_push_notification_config<'a>(
        &'a self,
        _: &'a CallContext,
        _: DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), A2aError>> {
        self.err()
    }
    fn get_extended_agent_card<'a>(
        &'a self,
        _: &'a CallContext,
        _: GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, A2aError>> {
        self.err()
    }
}

/// A user message as JSON.
pub fn user_message(id: &str, text: &str) -> Value {
    json!({"messageId": id, "role": "ROLE_USER", "parts": [{"text": text}]})
}
