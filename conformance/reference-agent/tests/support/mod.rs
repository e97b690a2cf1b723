//! Helpers shared by the tests.
#![allow(dead_code, unreachable_pub)]

pub mod webhook;
pub mod wire;

use std::future::poll_fn;
use std::sync::Arc;
use std::time::Duration;

use a2a_reference_agent::{AgentConfig, RecordingPushSender, ReferenceAgent};
use a2a_transport::{A2aService, CallContext, EventStream};
use a2a_types::{
    A2aError, ErrorKind, GetTaskRequest, Message, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, StreamResponse, Task,
};

/// A test agent with fast push retries, and its recording sender.
pub fn agent_with(
    configure: impl FnOnce(&mut AgentConfig),
) -> (ReferenceAgent, Arc<RecordingPushSender>) {
    let mut config = AgentConfig::default();
    config.push.initial_backoff = Duration::from_millis(5);
    config.push.max_backoff = Duration::from_millis(20);
    config.push.timeout = Duration::from_millis(500);
    configure(&mut config);
    let sender = Arc::new(RecordingPushSender::new());
    (ReferenceAgent::new(config, sender.clone()), sender)
}

pub fn agent() -> ReferenceAgent {
    agent_with(|_| {}).0
}

pub fn cx() -> CallContext {
    CallContext::new()
}

pub fn msg(id: &str, text: &str) -> Message {
    Message::user_text(id, text)
}

pub fn request(message: Message) -> SendMessageRequest {
    SendMessageRequest::new(message)
}

pub fn immediate(message: Message) -> SendMessageRequest {
    let mut r = SendMessageRequest::new(message);
    r.configuration = Some(SendMessageConfiguration {
        return_immediately: true,
        ..Default::default()
    });
    r
}

pub fn with_history(message: Message, n: i32) -> SendMessageRequest {
    let mut r = SendMessageRequest::new(message);
    r.configuration = Some(SendMessageConfiguration {
        history_length: Some(n),
        ..Default::default()
    });
    r
}

/// Sends and expects a task.
pub async fn send_task(agent: &ReferenceAgent, cx: &CallContext, req: SendMessageRequest) -> Task {
    match agent.send_message(cx, req).await {
        Ok(SendMessageResponse::Task(t)) => t,
        other => panic!("expected a task, got {other:?}"),
    }
}

/// Sends `text` with a fresh message id, blocking, and expects a task.
pub async fn run(agent: &ReferenceAgent, text: &str) -> Task {
    send_task(agent, &cx(), request(msg(&format!("m-{text}"), text))).await
}

pub async fn get(agent: &ReferenceAgent, cx: &CallContext, id: &str) -> Result<Task, A2aError> {
    agent.get_task(cx, GetTaskRequest::new(id)).await
}

/// The next item of a stream, failing the test after 5 s.
pub async fn next(stream: &mut EventStream) -> Option<Result<StreamResponse, A2aError>> {
    tokio::time::timeout(
        Duration::from_secs(5),
        poll_fn(|c| stream.as_mut().poll_next(c)),
    )
    .await
    .expect("the stream produced nothing for 5 s")
}

/// Every item of a stream until it ends, each expected to be `Ok`.
pub async fn collect(mut stream: EventStream) -> Vec<StreamResponse> {
    let mut out = Vec::new();
    while let Some(item) = next(&mut stream).await {
        out.push(item.expect("stream item"));
    }
    out
}

pub fn kind<T: std::fmt::Debug>(r: Result<T, A2aError>) -> ErrorKind {
    match r {
        Err(e) => e.kind(),
        Ok(v) => panic!("expected an error, got {v:?}"),
    }
}

/// A compact description of an event: `task:SUBMITTED`, `status:WORKING`,
/// `artifact:<text>[+][!]`, `message:<text>`.
pub fn describe(e: &StreamResponse) -> String {
    match e {
        StreamResponse::Task(t) => format!("task:{}", short(t.status.state)),
        StreamResponse::StatusUpdate(s) => format!("status:{}", short(s.status.state)),
        StreamResponse::ArtifactUpdate(a) => format!(
            "artifact:{}{}{}",
            a.artifact.text_content().unwrap_or_default(),
            if a.append { "+" } else { "" },
            if a.last_chunk { "!" } else { "" }
        ),
        StreamResponse::Message(m) => format!("message:{}", m.text_content().unwrap_or_default()),
    }
}

fn short(s: a2a_types::TaskState) -> &'static str {
    s.as_str_name().trim_start_matches("TASK_STATE_")
}

/// Polls `f` until it returns true, failing after 5 s.
pub async fn eventually(mut f: impl FnMut() -> bool) {
    for _ in 0..500 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("condition not met within 5 s");
}
