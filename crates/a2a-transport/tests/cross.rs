//! The client transport against the pure server (issue 5, "Evidence"): an
//! in-memory `HttpClient` hands every request to `A2aServer::handle` and
//! the response body back chunk by chunk (no sockets). Every operation is
//! driven over both bindings with one test agent and must give the same
//! results on both; every `ErrorKind` must decode back to the same kind;
//! discovery, authentication, caching, resumption and degradation are
//! exercised against the real server too.

// The client tests' scripted HttpClient and runtime-free helpers.
#[path = "../../a2a-client/tests/support/mod.rs"]
mod support;

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use a2a_transport::{
    client::{www_authenticate, RetryPolicy},
    client::{
        CardResolver, ClientFailure, Discovered, HttpError, Preferences, ResilientTransport,
        ResponseBody,
    },
    discover,
    server::BearerAuth,
    A2aServer, A2aService, Binding, Body, BoxFuture, CallContext, EventStream, HttpClient,
    HttpTransport, ServerConfig,
};
use a2a_types::{
    A2aError, AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Artifact,
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, ErrorKind,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    HTTPAuthSecurityScheme, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, Message,
    SendMessageRequest, SendMessageResponse, StreamResponse, Struct, SubscribeToTaskRequest, Task,
    TaskArtifactUpdateEvent, TaskPushNotificationConfig, TaskState, TaskStatusUpdateEvent,
    Timestamp,
};
use bytes::Bytes;
use futures_core::Stream;
use serde_json::{json, Value};
use support::{block_on, collect, Clock};

// ------------------------------------------------------------ the wire

/// An `HttpClient` that calls the server's pure `handle` function and
/// hands the body back in chunks of `chunk` bytes (SSE frames split at odd
/// places). It can cut the next streamed response after some frames, as a
/// dropped connection would.
struct InMemory<S> {
    server: Arc<A2aServer<S>>,
    chunk: usize,
    cut_next_stream_after: Mutex<Option<usize>>,
    requests: Mutex<Vec<http::Request<Bytes>>>,
}

impl<S: A2aService + 'static> InMemory<S> {
    fn new(server: A2aServer<S>, chunk: usize) -> Arc<InMemory<S>> {
        Arc::new(InMemory {
            server: Arc::new(server),
            chunk,
            cut_next_stream_after: Mutex::new(None),
            requests: Mutex::new(Vec::new()),
        })
    }

    fn requests(&self) -> Vec<http::Request<Bytes>> {
        self.requests.lock().unwrap().clone()
    }
}

impl<S: A2aService + 'static> HttpClient for InMemory<S> {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        self.requests.lock().unwrap().push(request.clone());
        Box::pin(async move {
            let response = self.server.handle(request).await;
            let (parts, body) = response.into_parts();
            let cut = if body.is_stream() {
                self.cut_next_stream_after.lock().unwrap().take()
            } else {
                None
            };
            let wire = Wire {
                body,
                pending: VecDeque::new(),
                chunk: self.chunk,
                frames_left: cut,
                ended: false,
            };
            Ok(http::Response::from_parts(parts, ResponseBody::new(wire)))
        })
    }
}

struct Wire {
    body: Body,
    pending: VecDeque<Bytes>,
    chunk: usize,
    frames_left: Option<usize>,
    ended: bool,
}

impl Stream for Wire {
    type Item = Result<Bytes, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            if let Some(piece) = self.pending.pop_front() {
                return Poll::Ready(Some(Ok(piece)));
            }
            if self.ended {
                return Poll::Ready(None);
            }
            if self.frames_left == Some(0) {
                self.ended = true;
                return Poll::Ready(Some(Err(HttpError::Connection("connection reset".into()))));
            }
            match Pin::new(&mut self.body).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => self.ended = true,
                Poll::Ready(Some(frame)) => {
                    if let Some(n) = &mut self.frames_left {
                        *n -= 1;
                    }
                    let n = self.chunk;
                    for piece in frame.chunks(n) {
                        let piece = Bytes::copy_from_slice(piece);
                        self.pending.push_back(piece);
                    }
                }
            }
        }
    }
}

// ------------------------------------------------------------ the agent

/// A deterministic test agent: what it answers depends only on the
/// request and the call context, and it writes what it saw of the context
/// (tenant, principal) into the tasks' metadata.
struct Agent;

fn seen(cx: &CallContext) -> Option<Struct> {
    let mut m = Struct::new();
    m.insert("tenant".into(), json!(cx.tenant));
    m.insert(
        "principal".into(),
        json!(cx.principal.as_ref().map(|p| p.id.clone())),
    );
    Some(m)
}

fn task(cx: &CallContext, id: &str, state: TaskState) -> Task {
    let mut t = Task::new(id, "ctx-1", state);
    t.status.timestamp = Some(Timestamp::parse("2025-01-01T00:00:00Z").unwrap());
    t.metadata = seen(cx);
    t
}

/// `error-<REASON>` names the error an operation must answer.
fn scripted_error(id: &str) -> Result<(), A2aError> {
    match id.strip_prefix("error-").and_then(ErrorKind::from_reason) {
        Some(kind) => {
            Err(A2aError::new(kind, format!("scripted {}", kind.name()))
                .with_metadata("taskId", id))
        }
        None => Ok(()),
    }
}

fn events(cx: &CallContext, id: &str) -> Vec<StreamResponse> {
    vec![
        task(cx, id, TaskState::Submitted).into(),
        TaskStatusUpdateEvent::new(id, "ctx-1", TaskState::Working).into(),
        TaskArtifactUpdateEvent::new(id, "ctx-1", Artifact::text("a1", "Hello, ")).into(),
        TaskArtifactUpdateEvent::new(id, "ctx-1", Artifact::text("a1", "world"))
            .with_append(true)
            .with_last_chunk(true)
            .into(),
        TaskStatusUpdateEvent::new(id, "ctx-1", TaskState::Completed).into(),
    ]
}

fn stream(items: Vec<StreamResponse>) -> EventStream {
    struct Items(VecDeque<StreamResponse>);
    impl Stream for Items {
        type Item = Result<StreamResponse, A2aError>;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            Poll::Ready(self.0.pop_front().map(Ok))
        }
    }
    Box::pin(Items(items.into()))
}

impl A2aService for Agent {
    fn send_message<'a>(
        &'a self,
        cx: &'a CallContext,
        r: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        Box::pin(async move {
            let text = r.message.text_content().unwrap_or_default();
            scripted_error(&text)?;
            if text == "reply" {
                return Ok(Message::agent_text("r-1", "direct reply").into());
            }
            let mut t = task(
                cx,
                &format!("task-{}", r.message.message_id),
                TaskState::Completed,
            );
            t.artifacts = vec![Artifact::text("echo", text)];
            t.history = vec![r.message];
            Ok(t.into())
        })
    }

    fn send_streaming_message<'a>(
        &'a self,
        cx: &'a CallContext,
        r: SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        Box::pin(async move {
            let text = r.message.text_content().unwrap_or_default();
            scripted_error(&text)?;
            if text == "reply" {
                return Ok(stream(vec![
                    Message::agent_text("r-1", "direct reply").into()
                ]));
            }
            Ok(stream(events(
                cx,
                &format!("task-{}", r.message.message_id),
            )))
        })
    }

    fn get_task<'a>(
        &'a self,
        cx: &'a CallContext,
        r: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(async move {
            scripted_error(&r.id)?;
            if r.id == "missing" {
                return Err(A2aError::task_not_found(&r.id));
            }
            let mut t = task(cx, &r.id, TaskState::Working);
            let history: Vec<Message> = (1..=3)
                .map(|n| Message::user_text(format!("m{n}"), format!("turn {n}")))
                .collect();
            let keep = r.history_length.map_or(3, |n| n.clamp(0, 3) as usize);
            t.history = history[3 - keep..].to_vec();
            Ok(t)
        })
    }

    fn list_tasks<'a>(
        &'a self,
        cx: &'a CallContext,
        r: ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, A2aError>> {
        Box::pin(async move {
            let state = match r.status {
                TaskState::Unspecified => TaskState::Working,
                s => s,
            };
            let mut tasks = Vec::new();
            for n in 0..2 {
                let mut t = task(cx, &format!("{}-{n}", r.context_id), state);
                t.context_id.clone_from(&r.context_id);
                t.status.timestamp = r.status_timestamp_after;
                if r.include_artifacts == Some(true) {
                    t.artifacts = vec![Artifact::text("a", "x")];
                }
                tasks.push(t);
            }
            Ok(ListTasksResponse {
                tasks,
                next_page_token: format!("after-{}", r.page_token),
                page_size: r.page_size.unwrap_or(50),
                total_size: 7,
            })
        })
    }

    fn cancel_task<'a>(
        &'a self,
        cx: &'a CallContext,
        r: CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(async move {
            if r.id == "done" {
                return Err(A2aError::task_not_cancelable(&r.id, "TASK_STATE_COMPLETED"));
            }
            Ok(task(cx, &r.id, TaskState::Canceled))
        })
    }

    fn subscribe_to_task<'a>(
        &'a self,
        cx: &'a CallContext,
        r: SubscribeToTaskRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        Box::pin(async move {
            if r.id == "done" {
                return Err(A2aError::unsupported_operation(
                    "the task is in a terminal state",
                ));
            }
            // The task as it is now (spec 3.1.6), then the rest.
            let mut now = task(cx, &r.id, TaskState::Working);
            now.artifacts = vec![Artifact::text("a1", "Hello, world")];
            Ok(stream(vec![
                now.into(),
                TaskStatusUpdateEvent::new(&r.id, "ctx-1", TaskState::Completed).into(),
            ]))
        })
    }

    fn create_task_push_notification_config<'a>(
        &'a self,
        _: &'a CallContext,
        mut r: TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        Box::pin(async move {
            if r.id.is_empty() {
                r.id = "cfg-1".into();
            }
            Ok(r)
        })
    }

    fn get_task_push_notification_config<'a>(
        &'a self,
        _: &'a CallContext,
        r: GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        Box::pin(async move {
            Ok(TaskPushNotificationConfig {
                id: r.id.clone(),
                task_id: r.task_id,
                tenant: r.tenant,
                ..TaskPushNotificationConfig::new(format!("https://hook.example/{}", r.id))
            })
        })
    }

    fn list_task_push_notification_configs<'a>(
        &'a self,
        _: &'a CallContext,
        r: ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, A2aError>> {
        Box::pin(async move {
            let configs = (1..=2)
                .map(|n| TaskPushNotificationConfig {
                    id: format!("cfg-{n}"),
                    task_id: r.task_id.clone(),
                    ..TaskPushNotificationConfig::new("https://hook.example/a2a")
                })
                .collect();
            Ok(ListTaskPushNotificationConfigsResponse {
                configs,
                next_page_token: format!("p{}", r.page_size),
            })
        })
    }

    fn delete_task_push_notification_config<'a>(
        &'a self,
        _: &'a CallContext,
        r: DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), A2aError>> {
        Box::pin(async move {
            match r.id.as_str() {
                "missing" => Err(A2aError::task_not_found(&r.task_id)),
                _ => Ok(()),
            }
        })
    }

    fn get_extended_agent_card<'a>(
        &'a self,
        cx: &'a CallContext,
        _: GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, A2aError>> {
        Box::pin(async move {
            let mut c = card(true, "acme");
            c.name = format!(
                "Extended for {}",
                cx.principal.as_ref().map_or("?", |p| &p.id)
            );
            Ok(c)
        })
    }
}

const TOKEN: &str = "t0k3n";

fn card(streaming: bool, tenant: &str) -> AgentCard {
    let mut card = AgentCard {
        name: "Cross agent".into(),
        description: "Answers the client's cross test".into(),
        supported_interfaces: vec![
            AgentInterface {
                tenant: tenant.into(),
                ..AgentInterface::new("https://agent.example/", "JSONRPC", "1.0")
            },
            AgentInterface {
                tenant: tenant.into(),
                ..AgentInterface::new("https://agent.example/", "HTTP+JSON", "1.0")
            },
        ],
        version: "1.0.0".into(),
        capabilities: AgentCapabilities {
            streaming: Some(streaming),
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

fn server(streaming: bool) -> A2aServer<Agent> {
    let config = ServerConfig::new()
        .with_authenticator(BearerAuth::new("bearer").with_token(TOKEN, "alice"));
    A2aServer::new(Agent, card(streaming, "acme"), config).unwrap()
}

fn authed() -> CallContext {
    let mut h = http::HeaderMap::new();
    h.insert("authorization", format!("Bearer {TOKEN}").parse().unwrap());
    CallContext::new().with_headers(h)
}

/// Discovers the server's card and picks `binding`.
fn connect(
    binding: Binding,
    chunk: usize,
) -> (Arc<InMemory<Agent>>, Discovered<Arc<InMemory<Agent>>>) {
    let wire = InMemory::new(server(true), chunk);
    let prefs = Preferences::new().with_bindings([binding]);
    let found = block_on(discover(Arc::clone(&wire), "https://agent.example", &prefs)).unwrap();
    assert_eq!(found.transport.binding(), binding);
    assert_eq!(found.transport.tenant(), Some("acme"));
    (wire, found)
}

// ------------------------------------------------------------ the tests

fn val<T: serde::Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap()
}

fn outcome<T: serde::Serialize>(r: Result<T, A2aError>) -> Value {
    match r {
        Ok(v) => json!({"ok": val(v)}),
        Err(e) => {
            json!({"err": {"kind": e.kind().name(), "code": e.code().0, "message": e.message(),
                                 "reason": e.error_info().map(|i| i.reason.clone())}})
        }
    }
}

fn stream_outcome(r: Result<EventStream, A2aError>) -> Value {
    match r {
        Ok(s) => Value::Array(collect(s).into_iter().map(outcome).collect()),
        Err(e) => outcome::<()>(Err(e)),
    }
}

/// Every operation, successes and errors, as JSON.
fn scenario(t: &dyn A2aService) -> Vec<(&'static str, Value)> {
    let cx = authed();
    let send = |text: &str| SendMessageRequest::new(Message::user_text("m-1", text));
    let push = TaskPushNotificationConfig {
        task_id: "task-1".into(),
        token: "tk".into(),
        ..TaskPushNotificationConfig::new("https://hook.example/a2a")
    };
    let get_push = GetTaskPushNotificationConfigRequest {
        task_id: "task-1".into(),
        id: "cfg-9".into(),
        ..Default::default()
    };
    let list_push = ListTaskPushNotificationConfigsRequest {
        task_id: "task-1".into(),
        page_size: 2,
        page_token: "p1".into(),
        ..Default::default()
    };
    let delete = |id: &str| DeleteTaskPushNotificationConfigRequest {
        task_id: "task-1".into(),
        id: id.into(),
        ..Default::default()
    };
    let list = ListTasksRequest {
        context_id: "ctx 1/ü".into(),
        status: TaskState::InputRequired,
        page_size: Some(2),
        page_token: "tok+/=".into(),
        history_length: Some(1),
        status_timestamp_after: Some(Timestamp::parse("2025-11-09T10:30:00+01:00").unwrap()),
        include_artifacts: Some(true),
        ..Default::default()
    };
    let get = |id: &str, h: Option<i32>| GetTaskRequest {
        id: id.into(),
        history_length: h,
        ..Default::default()
    };
    let subscribe = |id: &str| SubscribeToTaskRequest {
        id: id.into(),
        ..Default::default()
    };
    vec![
        (
            "send task",
            outcome(block_on(t.send_message(&cx, send("hello")))),
        ),
        (
            "send reply",
            outcome(block_on(t.send_message(&cx, send("reply")))),
        ),
        (
            "send error",
            outcome(block_on(
                t.send_message(&cx, send("error-CONTENT_TYPE_NOT_SUPPORTED")),
            )),
        ),
        (
            "stream",
            stream_outcome(block_on(t.send_streaming_message(&cx, send("hello")))),
        ),
        (
            "stream reply",
            stream_outcome(block_on(t.send_streaming_message(&cx, send("reply")))),
        ),
        (
            "stream error",
            stream_outcome(block_on(
                t.send_streaming_message(&cx, send("error-TASK_NOT_FOUND")),
            )),
        ),
        (
            "get",
            outcome(block_on(t.get_task(&cx, get("task/1 ü", Some(2))))),
        ),
        (
            "get no history",
            outcome(block_on(t.get_task(&cx, get("task-1", Some(0))))),
        ),
        (
            "get missing",
            outcome(block_on(t.get_task(&cx, get("missing", None)))),
        ),
        ("list", outcome(block_on(t.list_tasks(&cx, list.clone())))),
        (
            "list default",
            outcome(block_on(t.list_tasks(&cx, ListTasksRequest::default()))),
        ),
        (
            "cancel",
            outcome(block_on(
                t.cancel_task(&cx, CancelTaskRequest::new("task-1")),
            )),
        ),
        (
            "cancel done",
            outcome(block_on(t.cancel_task(&cx, CancelTaskRequest::new("done")))),
        ),
        (
            "subscribe",
            stream_outcome(block_on(t.subscribe_to_task(&cx, subscribe("task-1")))),
        ),
        (
            "subscribe done",
            stream_outcome(block_on(t.subscribe_to_task(&cx, subscribe("done")))),
        ),
        (
            "push create",
            outcome(block_on(t.create_task_push_notification_config(&cx, push))),
        ),
        (
            "push get",
            outcome(block_on(t.get_task_push_notification_config(&cx, get_push))),
        ),
        (
            "push list",
            outcome(block_on(
                t.list_task_push_notification_configs(&cx, list_push),
            )),
        ),
        (
            "push delete",
            outcome(block_on(
                t.delete_task_push_notification_config(&cx, delete("cfg-1")),
            )),
        ),
        (
            "push delete missing",
            outcome(block_on(
                t.delete_task_push_notification_config(&cx, delete("missing")),
            )),
        ),
        (
            "extended card",
            outcome(block_on(t.get_extended_agent_card(&cx, Default::default()))),
        ),
        (
            "extended card anonymous",
            outcome(block_on(t.get_extended_agent_card(
                &CallContext::new(),
                Default::default(),
            ))),
        ),
    ]
}

#[test]
fn every_operation_gives_the_same_results_on_both_bindings() {
    let (rpc_wire, rpc) = connect(Binding::JsonRpc, 5);
    let (rest_wire, rest) = connect(Binding::HttpJson, 3);
    let over_rpc = scenario(&rpc.transport);
    let over_rest = scenario(&rest.transport);
    for ((name, a), (_, b)) in over_rpc.iter().zip(&over_rest) {
        assert_eq!(a, b, "{name}: JSON-RPC and HTTP+JSON differ");
    }
    let results: std::collections::BTreeMap<_, _> = over_rpc.into_iter().collect();

    // Spot checks of what the results must be.
    let ok = |name: &str| results[name]["ok"].clone();
    let err = |name: &str| results[name]["err"]["kind"].clone();
    assert_eq!(
        ok("send task")["task"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    assert_eq!(
        ok("send task")["task"]["metadata"],
        json!({"tenant": "acme", "principal": "alice"}),
        "the interface's tenant and the token's principal reached the agent"
    );
    assert_eq!(
        ok("send reply")["message"]["parts"][0]["text"],
        "direct reply"
    );
    assert_eq!(err("send error"), "ContentTypeNotSupportedError");
    assert_eq!(results["stream"].as_array().unwrap().len(), 5);
    assert_eq!(results["stream reply"].as_array().unwrap().len(), 1);
    assert_eq!(results["stream error"]["err"]["kind"], "TaskNotFoundError");
    assert_eq!(ok("get")["id"], "task/1 ü");
    assert_eq!(ok("get")["history"].as_array().unwrap().len(), 2);
    assert!(ok("get no history").get("history").is_none());
    assert_eq!(err("get missing"), "TaskNotFoundError");
    let list = ok("list");
    assert_eq!(list["tasks"][0]["contextId"], "ctx 1/ü");
    assert_eq!(
        list["tasks"][0]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
    assert_eq!(
        list["tasks"][0]["status"]["timestamp"],
        "2025-11-09T09:30:00.000Z"
    );
    assert_eq!(list["tasks"][0]["artifacts"][0]["artifactId"], "a");
    assert_eq!(list["nextPageToken"], "after-tok+/=");
    assert_eq!(list["pageSize"], 2);
    assert_eq!(ok("list default")["pageSize"], 50);
    assert_eq!(ok("cancel")["status"]["state"], "TASK_STATE_CANCELED");
    assert_eq!(err("cancel done"), "TaskNotCancelableError");
    assert_eq!(results["subscribe"].as_array().unwrap().len(), 2);
    assert_eq!(
        results["subscribe done"]["err"]["kind"],
        "UnsupportedOperationError"
    );
    assert_eq!(ok("push create")["id"], "cfg-1");
    assert_eq!(ok("push create")["tenant"], "acme");
    assert_eq!(ok("push get")["url"], "https://hook.example/cfg-9");
    assert_eq!(ok("push list")["nextPageToken"], "p2");
    assert_eq!(ok("push delete"), json!(null));
    assert_eq!(err("push delete missing"), "TaskNotFoundError");
    assert_eq!(ok("extended card")["name"], "Extended for alice");
    assert_eq!(err("extended card anonymous"), "UnauthenticatedError");

    // Every request carried A2A-Version: 1.0, on both bindings.
    for wire in [rpc_wire.requests(), rest_wire.requests()] {
        assert!(wire.len() > 20);
        for r in wire {
            assert_eq!(
                r.headers()["a2a-version"],
                "1.0",
                "{} {}",
                r.method(),
                r.uri()
            );
        }
    }
}

#[test]
fn every_error_kind_decodes_back_to_itself_on_both_bindings() {
    for binding in Binding::JSON {
        let (_, found) = connect(binding, 7);
        for kind in ErrorKind::ALL {
            let id = format!("error-{}", kind.reason());
            let err = block_on(
                found
                    .transport
                    .get_task(&authed(), GetTaskRequest::new(id.as_str())),
            )
            .expect_err("a scripted error");
            assert_eq!(err.kind(), kind, "{binding}: {kind}");
            assert_eq!(err.code(), kind.code(), "{binding}: {kind}");
            assert_eq!(
                err.message(),
                format!("scripted {}", kind.name()),
                "{binding}: {kind}"
            );
            let info = err
                .error_info()
                .unwrap_or_else(|| panic!("{binding}: {kind}: no ErrorInfo"));
            assert_eq!(info.reason, kind.reason(), "{binding}: {kind}");
            assert_eq!(info.metadata["taskId"], id, "{binding}: {kind}");
            if binding == Binding::HttpJson {
                assert_eq!(
                    err.http_status(),
                    kind.http_status(),
                    "{kind}: spec 5.4 status"
                );
            }
            assert_eq!(
                ClientFailure::of(&err),
                None,
                "an agent error, not a client failure"
            );
        }
    }
}

#[test]
fn authentication_and_authorization_from_the_clients_view() {
    for binding in Binding::JSON {
        let (_, found) = connect(binding, 11);
        // No credentials for the extended card: 401 with the card's
        // challenge, kept on the error.
        let err = block_on(
            found
                .transport
                .get_extended_agent_card(&CallContext::new(), Default::default()),
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unauthenticated, "{binding}");
        let challenge = www_authenticate(&err).unwrap_or_else(|| panic!("{binding}: no challenge"));
        assert!(challenge.starts_with("Bearer"), "{binding}: {challenge}");

        // A wrong token anywhere.
        let mut h = http::HeaderMap::new();
        h.insert("authorization", "Bearer wrong".parse().unwrap());
        let bad = CallContext::new().with_headers(h);
        let err = block_on(
            found
                .transport
                .get_task(&bad, GetTaskRequest::new("task-1")),
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unauthenticated, "{binding}");
        assert!(www_authenticate(&err).is_some());
    }
}

#[test]
fn the_card_is_revalidated_against_the_servers_etag() {
    let wire = InMemory::new(server(true), 64);
    let mut resolver = CardResolver::new("https://agent.example").unwrap();
    let t0 = Instant::now();
    let card = block_on(resolver.resolve(&*wire, t0)).unwrap();
    assert_eq!(card.name, "Cross agent");
    // Much later: a conditional request, answered 304 by the server.
    let again =
        block_on(resolver.resolve(&*wire, t0 + Duration::from_secs(365 * 24 * 3600))).unwrap();
    assert_eq!(again, card);
    let reqs = wire.requests();
    assert_eq!(reqs.len(), 2);
    assert!(
        reqs[1].headers().contains_key("if-none-match"),
        "{:?}",
        reqs[1].headers()
    );
}

#[test]
fn a_stream_cut_by_the_network_is_resumed_through_the_server() {
    for binding in Binding::JSON {
        let (wire, found) = connect(binding, 4);
        let clock = Clock::default();
        let client = ResilientTransport::new(found.transport, clock.clone())
            .with_card(&found.card)
            .with_policy(RetryPolicy::new().with_max_attempts(2));
        assert!(client.streams());
        *wire.cut_next_stream_after.lock().unwrap() = Some(3);
        let mut s = block_on(client.stream_message(
            &authed(),
            SendMessageRequest::new(Message::user_text("m-7", "hello")),
        ))
        .unwrap();
        let items = collect(&mut s);
        assert!(items.iter().all(Result::is_ok), "{binding}: {items:?}");
        // 3 events, the drop, then the subscription's task and completion.
        assert_eq!(items.len(), 5, "{binding}");
        let snap = s.snapshot().unwrap();
        assert_eq!(snap.task().status.state, TaskState::Completed);
        assert_eq!(
            snap.task().artifacts[0].text_content().as_deref(),
            Some("Hello, world")
        );
        assert_eq!(s.resumptions(), 1);
        assert_eq!(clock.waits(), [Duration::from_secs(1)]);
    }
}

#[test]
fn an_agent_that_does_not_stream_is_served_by_one_unary_call() {
    for binding in Binding::JSON {
        let wire = InMemory::new(server(false), 9);
        let prefs = Preferences::new().with_bindings([binding]);
        let found = block_on(discover(Arc::clone(&wire), "https://agent.example", &prefs)).unwrap();
        let card = found.card.clone();

        // The plain transport gets the server's refusal (spec 3.3.4)...
        let err = block_on(found.transport.send_streaming_message(
            &authed(),
            SendMessageRequest::new(Message::user_text("m-1", "hello")),
        ))
        .err()
        .unwrap();
        assert_eq!(err.kind(), ErrorKind::UnsupportedOperation, "{binding}");

        // ...the resilient one, built from the card, degrades.
        let client = ResilientTransport::new(found.transport, Clock::default()).with_card(&card);
        let items = collect(
            block_on(client.send_streaming_message(
                &authed(),
                SendMessageRequest::new(Message::user_text("m-1", "hello")),
            ))
            .unwrap(),
        );
        assert_eq!(items.len(), 1, "{binding}");
        let Ok(StreamResponse::Task(t)) = &items[0] else {
            panic!("{items:?}")
        };
        assert_eq!(t.status.state, TaskState::Completed);
        let req = SubscribeToTaskRequest {
            id: "task-1".into(),
            ..Default::default()
        };
        let items = collect(block_on(client.subscribe_to_task(&authed(), req)).unwrap());
        assert!(
            matches!(items.as_slice(), [Ok(StreamResponse::Task(_))]),
            "{binding}"
        );
    }
}

#[test]
fn transports_built_by_hand_reach_the_same_server() {
    // No discovery: the tenant comes from the call context instead.
    let wire = InMemory::new(server(true), 1);
    let t = HttpTransport::new(
        Arc::clone(&wire),
        Binding::HttpJson,
        "https://agent.example",
    )
    .unwrap();
    let cx = authed().with_tenant("beta");
    let got = block_on(t.get_task(&cx, GetTaskRequest::new("task-1"))).unwrap();
    assert_eq!(got.metadata.unwrap()["tenant"], "beta");
    assert_eq!(wire.requests()[0].uri().path(), "/beta/tasks/task-1");
}
