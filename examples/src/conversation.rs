//! A conversation with an agent through any [`A2aService`]: send, stream,
//! get, cancel and list, each step printed as a readable line.
//!
//! It is written against the trait, so the same code runs over an
//! [`HttpTransport`](a2a_transport::HttpTransport) on either binding (the
//! `client` example), a `ResilientTransport`, or an agent in-process. It
//! speaks the reference agent's commands (`echo`, `stream`, `slow`; see
//! `a2a_reference_agent`); any agent that answers them the same way can be
//! the other side.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use a2a_transport::{A2aService, CallContext};
use a2a_types::{
    A2aError, CancelTaskRequest, GetTaskRequest, ListTasksRequest, Message,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, StreamResponse, Task,
    TaskState,
};
use futures_util::StreamExt;

/// What the conversation got back, step by step, for a caller (or a test)
/// to look at after the lines were printed.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Transcript {
    /// The context every message of the conversation went to (the agent
    /// chose it on the first message; spec 3.4.1).
    pub context_id: String,
    /// `SendMessage` of `echo <text>`: the completed task.
    pub echo: Task,
    /// `SendStreamingMessage` of `stream 3`: every event, in order.
    pub stream: Vec<StreamResponse>,
    /// `GetTask` of the echo task with `historyLength` 1.
    pub fetched: Task,
    /// `SendMessage` of `slow 60000` with `returnImmediately`: the task
    /// as first answered.
    pub slow: Task,
    /// `CancelTask` of the slow task: the canceled task.
    pub canceled: Task,
    /// `ListTasks` of the context, two per page: the ids of each page.
    pub pages: Vec<Vec<String>>,
    /// `totalSize` of the listing.
    pub total_size: i32,
}

/// Runs the conversation with `agent`, sending `cx` with every call and
/// handing each line to `say` as soon as it happens.
///
/// The first error ends the conversation and is returned; so does an
/// answer the reference agent would not give (a direct message where a
/// task was due), as an `InternalError` naming the step.
pub async fn converse<A: A2aService + ?Sized>(
    agent: &A,
    cx: &CallContext,
    say: &mut dyn FnMut(String),
) -> Result<Transcript, A2aError> {
    let ids = MessageIds::new();

    // 1. SendMessage: blocking by default (spec 3.2.2), so the answer is
    //    the finished task. The agent picks the context; we keep it.
    let text = "hello from the example";
    let request = SendMessageRequest::new(Message::user_text(ids.next(), format!("echo {text}")));
    let echo = expect_task("send", agent.send_message(cx, request).await?)?;
    say(format!(
        "send    echo {text:?} -> task {} {}, artifact {:?}",
        echo.id,
        state(echo.status.state),
        artifact_text(&echo)
    ));
    let context_id = echo.context_id.clone();

    // 2. SendStreamingMessage in the same context: the task first, then
    //    its updates in order, until a terminal state (spec 3.1.2).
    let mut message = Message::user_text(ids.next(), "stream 3");
    message.context_id.clone_from(&context_id);
    let mut events = agent
        .send_streaming_message(cx, SendMessageRequest::new(message))
        .await?;
    let mut stream = Vec::new();
    while let Some(event) = events.next().await {
        let event = event?;
        say(format!("stream  {}", describe(&event)));
        stream.push(event);
    }

    // 3. GetTask, with only the latest history message (spec 3.2.4).
    let mut request = GetTaskRequest::new(echo.id.clone());
    request.history_length = Some(1);
    let fetched = agent.get_task(cx, request).await?;
    say(format!(
        "get     task {} {}, {} history message(s), {} artifact(s)",
        fetched.id,
        state(fetched.status.state),
        fetched.history.len(),
        fetched.artifacts.len()
    ));

    // 4. A long task started without waiting (`returnImmediately`), then
    //    canceled (spec 3.1.5).
    let mut message = Message::user_text(ids.next(), "slow 60000");
    message.context_id.clone_from(&context_id);
    let mut request = SendMessageRequest::new(message);
    request.configuration = Some(SendMessageConfiguration {
        return_immediately: true,
        ..SendMessageConfiguration::default()
    });
    let slow = expect_task("slow", agent.send_message(cx, request).await?)?;
    say(format!(
        "send    slow 60000 (returnImmediately) -> task {} {}",
        slow.id,
        state(slow.status.state)
    ));
    let canceled = agent
        .cancel_task(cx, CancelTaskRequest::new(slow.id.clone()))
        .await?;
    say(format!(
        "cancel  task {} -> {}",
        canceled.id,
        state(canceled.status.state)
    ));

    // 5. ListTasks of this context, newest first, two per page, following
    //    `nextPageToken` until it is empty (spec 3.1.4).
    let mut pages = Vec::new();
    let mut request = ListTasksRequest {
        context_id: context_id.clone(),
        page_size: Some(2),
        ..ListTasksRequest::default()
    };
    let total_size = loop {
        let page = agent.list_tasks(cx, request.clone()).await?;
        let listed: Vec<String> = page
            .tasks
            .iter()
            .map(|t| format!("{} {}", t.id, state(t.status.state)))
            .collect();
        say(format!(
            "list    page {}: {} (of {})",
            pages.len() + 1,
            listed.join(", "),
            page.total_size
        ));
        pages.push(page.tasks.into_iter().map(|t| t.id).collect());
        // A bound of our own, in case an agent's token never ends.
        if page.next_page_token.is_empty() || pages.len() >= 100 {
            break page.total_size;
        }
        request.page_token = page.next_page_token;
    };

    Ok(Transcript {
        context_id,
        echo,
        stream,
        fetched,
        slow,
        canceled,
        pages,
        total_size,
    })
}

/// One stream event as a line.
pub fn describe(event: &StreamResponse) -> String {
    match event {
        StreamResponse::Task(t) => format!("task {} {}", t.id, state(t.status.state)),
        StreamResponse::Message(m) => format!("message {:?}", m.text_content().unwrap_or_default()),
        StreamResponse::StatusUpdate(s) => format!("status {}", state(s.status.state)),
        StreamResponse::ArtifactUpdate(a) => {
            let how = match (a.append, a.last_chunk) {
                (false, _) => "new",
                (true, false) => "append",
                (true, true) => "append, last chunk",
            };
            format!(
                "artifact {:?} {:?} ({how})",
                a.artifact.name,
                a.artifact.text_content().unwrap_or_default()
            )
        }
    }
}

/// `COMPLETED` for `TASK_STATE_COMPLETED`.
fn state(state: TaskState) -> &'static str {
    let name = state.as_str_name();
    name.strip_prefix("TASK_STATE_").unwrap_or(name)
}

/// The text of a task's first artifact.
fn artifact_text(task: &Task) -> String {
    task.artifacts
        .first()
        .and_then(|a| a.text_content())
        .unwrap_or_default()
}

/// The task of a `SendMessage` answer; the reference agent answers these
/// commands with a task, never a direct message.
fn expect_task(step: &str, response: SendMessageResponse) -> Result<Task, A2aError> {
    match response {
        SendMessageResponse::Task(task) => Ok(task),
        SendMessageResponse::Message(m) => Err(A2aError::internal(format!(
            "{step}: expected a task, the agent replied with a message {:?}",
            m.text_content().unwrap_or_default()
        ))),
    }
}

/// Message ids unique to this run: the start time and a counter.
struct MessageIds {
    run: u128,
    next: AtomicU64,
}

impl MessageIds {
    fn new() -> MessageIds {
        let run = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        MessageIds {
            run,
            next: AtomicU64::new(1),
        }
    }

    fn next(&self) -> String {
        format!(
            "example-{:x}-{}",
            self.run,
            self.next.fetch_add(1, Ordering::Relaxed)
        )
    }
}
