//! `AgentHandler` over `InMemoryTaskStore` on a tokio-backed runtime,
//! called through `A2aService` as a binding would call it.

mod common;

use common::Tokio;
use std::collections::HashSet;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_agent::{
    AgentExecutor, AgentHandler, ExecuteError, HandlerConfig, InMemoryTaskStore, PushSender,
    RecordingPushSender, RequestContext, TaskUpdater, UpdateError,
};
use a2a_transport::{A2aService, BoxFuture, CallContext, EventStream, Principal};
use a2a_types::{
    A2aError, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, ErrorKind,
    FieldViolation, GetTaskRequest, ListTasksRequest, Message, SendMessageConfiguration,
    SendMessageRequest, SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task,
    TaskPushNotificationConfig, TaskState,
};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::Semaphore;
use tokio::time::timeout;

/// The bound of every wait: nothing here should take more than a fraction.
const WAIT: Duration = Duration::from_secs(5);

// -------------------------------------------------------------- executors

/// An agent whose behaviour the message's first word picks:
///
/// - `echo <text>`: WORKING, an artifact `echo` holding `<text>`, COMPLETED.
/// - `reply`: a direct message, no task.
/// - `invalid`: an `InvalidParams` error before any update.
/// - `panic`: WORKING, then a panic.
/// - `forget`: WORKING, then returns Ok.
/// - `ask`: WORKING, then INPUT_REQUIRED; the answer (any text, `slowly`
///   to take 300 ms first) completes it with an artifact `hello <answer>`.
/// - `slow`: WORKING, then a 30 s pause whose result goes to `paused`.
/// - `gated`: WORKING, then after each permit of `gate`: artifact `a`,
///   WORKING "half", artifact `b`, COMPLETED.
struct Agent {
    /// `RequestContext::task` of every call, in order.
    seen: Mutex<Vec<Option<Task>>>,
    paused: UnboundedSender<Result<(), UpdateError>>,
    gate: Semaphore,
    /// When false, `cancel` refuses (never calls `updater.cancel`).
    cancelable: bool,
}

impl Agent {
    fn new(cancelable: bool) -> (Agent, UnboundedReceiver<Result<(), UpdateError>>) {
        let (paused, rx) = unbounded_channel();
        let agent = Agent {
            seen: Mutex::default(),
            paused,
            gate: Semaphore::new(0),
            cancelable,
        };
        (agent, rx)
    }

    async fn pass(&self) {
        self.gate.acquire().await.expect("gate closed").forget();
    }
}

impl AgentExecutor for Agent {
    fn execute<'a>(
        &'a self,
        cx: RequestContext,
        task: TaskUpdater,
    ) -> BoxFuture<'a, Result<(), ExecuteError>> {
        Box::pin(async move {
            self.seen.lock().unwrap().push(cx.task.clone());
            let text = cx.text();
            if cx.task.is_some() {
                // The answer to `ask`.
                if text == "slowly" {
                    task.pause(Duration::from_millis(300)).await?;
                }
                task.add_artifact(task.artifact("greeting", format!("hello {text}")))
                    .await?;
                task.complete().await?;
                return Ok(());
            }
            let (command, rest) = text.split_once(' ').unwrap_or((text.as_str(), ""));
            match command {
                "echo" => {
                    task.start_work().await?;
                    task.add_artifact(task.artifact("echo", rest)).await?;
                    task.complete().await?;
                }
                "reply" => {
                    let answer = Message::agent_text(task.new_id("msg"), "just a reply");
                    task.reply(answer).await?;
                }
                "invalid" => {
                    let e = A2aError::invalid_params(vec![FieldViolation {
                        field: "message.parts".to_owned(),
                        description: "this agent wants a number".to_owned(),
                    }]);
                    return Err(e.into());
                }
                "panic" => {
                    task.start_work().await?;
                    panic!("the agent tripped over a wire");
                }
                "forget" => {
                    task.start_work().await?;
                }
                "ask" => {
                    task.start_work().await?;
                    task.require_input("what is your name?").await?;
                }
                "slow" => {
                    task.start_work().await?;
                    let paused = task.pause(Duration::from_secs(30)).await;
                    let _ = self.paused.send(paused);
                }
                "gated" => {
                    task.start_work().await?;
                    self.pass().await;
                    task.add_artifact(task.artifact("a", "first")).await?;
                    self.pass().await;
                    task.working("half").await?;
                    self.pass().await;
                    task.add_artifact(task.artifact("b", "second")).await?;
                    self.pass().await;
                    task.complete().await?;
                }
                other => return Err(format!("unknown command {other:?}").into()),
            }
            Ok(())
        })
    }

    fn cancel<'a>(
        &'a self,
        _task: Task,
        updater: TaskUpdater,
    ) -> BoxFuture<'a, Result<(), ExecuteError>> {
        Box::pin(async move {
            if self.cancelable {
                updater.cancel().await?;
            }
            Ok(())
        })
    }
}

// ---------------------------------------------------------------- helpers

type Handler = AgentHandler<Agent>;

fn handler() -> (Handler, UnboundedReceiver<Result<(), UpdateError>>) {
    handler_with(HandlerConfig::default(), true)
}

fn handler_with(
    config: HandlerConfig,
    cancelable: bool,
) -> (Handler, UnboundedReceiver<Result<(), UpdateError>>) {
    let (agent, paused) = Agent::new(cancelable);
    let handler = AgentHandler::builder(agent, InMemoryTaskStore::default(), Tokio)
        .config(config)
        .build();
    (handler, paused)
}

fn cx() -> CallContext {
    CallContext::new()
}

fn as_user(id: &str) -> CallContext {
    CallContext::new().with_principal(Principal::new(id, "bearer"))
}

static MESSAGES: AtomicUsize = AtomicUsize::new(0);

fn message(text: &str) -> Message {
    let n = MESSAGES.fetch_add(1, Ordering::Relaxed);
    Message::user_text(format!("user-msg-{n}"), text)
}

fn request(text: &str) -> SendMessageRequest {
    SendMessageRequest::new(message(text))
}

fn immediately(text: &str) -> SendMessageRequest {
    let mut r = request(text);
    r.configuration = Some(SendMessageConfiguration {
        return_immediately: true,
        ..SendMessageConfiguration::default()
    });
    r
}

fn follow_up(task: &Task, text: &str) -> SendMessageRequest {
    SendMessageRequest::new(message(text).for_task(&task.id, &task.context_id))
}

async fn bounded<T>(what: &str, f: impl Future<Output = T>) -> T {
    timeout(WAIT, f)
        .await
        .unwrap_or_else(|_| panic!("timed out: {what}"))
}

async fn send(
    h: &Handler,
    cx: &CallContext,
    r: SendMessageRequest,
) -> Result<SendMessageResponse, A2aError> {
    bounded("SendMessage", h.send_message(cx, r)).await
}

async fn send_task(h: &Handler, cx: &CallContext, r: SendMessageRequest) -> Task {
    match send(h, cx, r).await {
        Ok(SendMessageResponse::Task(t)) => t,
        other => panic!("want a task, got {other:?}"),
    }
}

async fn get(h: &Handler, cx: &CallContext, id: &str) -> Result<Task, A2aError> {
    bounded("GetTask", h.get_task(cx, GetTaskRequest::new(id))).await
}

async fn cancel(h: &Handler, cx: &CallContext, id: &str) -> Result<Task, A2aError> {
    bounded("CancelTask", h.cancel_task(cx, CancelTaskRequest::new(id))).await
}

async fn subscribe(h: &Handler, cx: &CallContext, id: &str) -> Result<EventStream, A2aError> {
    let r = SubscribeToTaskRequest {
        id: id.to_owned(),
        ..SubscribeToTaskRequest::default()
    };
    bounded("SubscribeToTask", h.subscribe_to_task(cx, r)).await
}

async fn list(h: &Handler, cx: &CallContext, r: ListTasksRequest) -> a2a_types::ListTasksResponse {
    bounded("ListTasks", h.list_tasks(cx, r))
        .await
        .expect("ListTasks")
}

/// Waits until task `id` is in `state`.
async fn reach(h: &Handler, cx: &CallContext, id: &str, state: TaskState) -> Task {
    bounded(&format!("task {id} to reach {state}"), async {
        loop {
            let t = get(h, cx, id).await.expect("GetTask");
            if t.status.state == state {
                return t;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
}

/// The next item of `stream`, within the bound.
async fn next(stream: &mut EventStream) -> Option<Result<StreamResponse, A2aError>> {
    bounded(
        "the next stream item",
        std::future::poll_fn(|c| stream.as_mut().poll_next(c)),
    )
    .await
}

/// Every item of `stream` up to its end.
async fn drain(stream: &mut EventStream) -> Vec<StreamResponse> {
    let mut items = Vec::new();
    while let Some(item) = next(stream).await {
        items.push(item.expect("a stream item"));
    }
    items
}

/// A stream item as a short description, for comparing sequences.
fn describe(item: &StreamResponse) -> String {
    match item {
        StreamResponse::Task(t) => format!("task {}", t.status.state.as_str_name()),
        StreamResponse::Message(m) => format!("message {}", m.text_content().unwrap_or_default()),
        StreamResponse::StatusUpdate(u) => {
            let text = u.status.message.as_ref().and_then(Message::text_content);
            match text {
                Some(text) => format!("status {} {text}", u.status.state.as_str_name()),
                None => format!("status {}", u.status.state.as_str_name()),
            }
        }
        StreamResponse::ArtifactUpdate(u) => {
            format!("artifact {}", u.artifact.text_content().unwrap_or_default())
        }
    }
}

fn describe_all(items: &[StreamResponse]) -> Vec<String> {
    items.iter().map(describe).collect()
}

fn status_text(task: &Task) -> String {
    task.status
        .message
        .as_ref()
        .and_then(Message::text_content)
        .unwrap_or_default()
}

fn artifact_texts(task: &Task) -> Vec<String> {
    task.artifacts
        .iter()
        .map(|a| a.text_content().unwrap_or_default())
        .collect()
}

fn kind<T: std::fmt::Debug>(result: Result<T, A2aError>) -> ErrorKind {
    match result {
        Err(e) => e.kind(),
        Ok(v) => panic!("want an error, got {v:?}"),
    }
}

// ------------------------------------------------------------------ tests

#[tokio::test]
async fn a_blocking_send_answers_the_completed_task_with_its_artifact() {
    let (h, _) = handler();
    let task = send_task(&h, &cx(), request("echo hello there")).await;
    assert_eq!(task.status.state, TaskState::Completed);
    assert_eq!(artifact_texts(&task), ["hello there"]);
    assert_eq!(task.artifacts[0].name, "echo");
    assert!(!task.id.is_empty() && !task.context_id.is_empty());
    assert!(
        task.history
            .iter()
            .any(|m| m.text_content().as_deref() == Some("echo hello there")),
        "the client's message joins the history: {:?}",
        task.history
    );
    assert_eq!(get(&h, &cx(), &task.id).await.unwrap(), task);
}

#[tokio::test]
async fn a_blocking_send_waits_for_the_work_unless_the_wait_is_bounded() {
    let (h, _) = handler();
    let waited = tokio::time::timeout(
        Duration::from_millis(300),
        h.send_message(&cx(), request("slow")),
    )
    .await;
    assert!(
        waited.is_err(),
        "unbounded (spec 3.2.2): still waiting on WORKING"
    );

    for wait in [Duration::ZERO, Duration::from_millis(100)] {
        let (h, mut paused) = handler_with(HandlerConfig::new().with_max_blocking_wait(wait), true);
        let task = send_task(&h, &cx(), request("slow")).await;
        assert_eq!(
            task.status.state,
            TaskState::Working,
            "{wait:?}: the task as it stands"
        );
        // The work goes on, and a cancel still reaches it.
        assert_eq!(
            cancel(&h, &cx(), &task.id).await.unwrap().status.state,
            TaskState::Canceled
        );
        let stopped = bounded("the pause to end", paused.recv()).await.unwrap();
        assert!(
            matches!(stopped, Err(UpdateError::Refused { .. })),
            "{stopped:?}"
        );
        // A bound changes nothing for work that settles in time.
        let done = send_task(&h, &cx(), request("echo quick")).await;
        assert_eq!(done.status.state, TaskState::Completed, "{wait:?}");
    }
}

#[tokio::test]
async fn return_immediately_answers_submitted_and_the_task_completes_later() {
    let (h, _) = handler();
    let task = send_task(&h, &cx(), immediately("echo later")).await;
    assert_eq!(task.status.state, TaskState::Submitted);
    let done = reach(&h, &cx(), &task.id, TaskState::Completed).await;
    assert_eq!(artifact_texts(&done), ["later"]);
}

#[tokio::test]
async fn a_reply_answers_a_message_and_creates_no_task() {
    let (h, _) = handler();
    match send(&h, &cx(), request("reply")).await {
        Ok(SendMessageResponse::Message(m)) => {
            assert_eq!(m.text_content().as_deref(), Some("just a reply"));
            assert!(!m.context_id.is_empty(), "the reply carries the context");
        }
        other => panic!("want a message, got {other:?}"),
    }
    let page = list(&h, &cx(), ListTasksRequest::default()).await;
    assert!(page.tasks.is_empty(), "{page:?}");
    assert_eq!(page.total_size, 0);
}

#[tokio::test]
async fn an_error_before_any_update_is_answered_to_the_caller() {
    let (h, _) = handler();
    let e = send(&h, &cx(), request("invalid")).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidParams, "{e:?}");
    assert!(
        e.field_violations()
            .any(|v| v.field == "message.parts" && v.description.contains("number")),
        "the executor's own violation: {e:?}"
    );
    let page = list(&h, &cx(), ListTasksRequest::default()).await;
    assert!(page.tasks.is_empty(), "no task was created: {page:?}");
}

#[tokio::test]
async fn a_panicking_executor_fails_its_task_and_the_handler_goes_on() {
    let (h, _) = handler();
    let task = send_task(&h, &cx(), request("panic")).await;
    assert_eq!(task.status.state, TaskState::Failed);
    assert!(
        status_text(&task).contains("the agent tripped over a wire"),
        "{:?}",
        task.status
    );
    assert_eq!(
        get(&h, &cx(), &task.id).await.unwrap().status.state,
        TaskState::Failed
    );
    let next = send_task(&h, &cx(), request("echo still here")).await;
    assert_eq!(next.status.state, TaskState::Completed);
    assert_eq!(artifact_texts(&next), ["still here"]);
}

#[tokio::test]
async fn an_executor_that_returns_while_working_fails_its_task() {
    let (h, _) = handler();
    let task = send_task(&h, &cx(), request("forget")).await;
    assert_eq!(task.status.state, TaskState::Failed);
    assert_eq!(
        status_text(&task),
        "the agent stopped without finishing the task"
    );
}

#[tokio::test]
async fn an_answer_to_input_required_resumes_the_executor_with_the_task() {
    let (h, _) = handler();
    let asked = send_task(&h, &cx(), request("ask")).await;
    assert_eq!(asked.status.state, TaskState::InputRequired);
    assert_eq!(status_text(&asked), "what is your name?");
    let done = send_task(&h, &cx(), follow_up(&asked, "Ada")).await;
    assert_eq!(done.id, asked.id);
    assert_eq!(done.status.state, TaskState::Completed);
    assert_eq!(artifact_texts(&done), ["hello Ada"]);
    let seen = h.executor().seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2, "execute ran twice");
    assert!(seen[0].is_none(), "the first call starts the task");
    let resumed = seen[1].as_ref().expect("the answer's call has the task");
    assert_eq!(resumed.id, asked.id);
    assert_eq!(
        resumed
            .history
            .last()
            .and_then(Message::text_content)
            .as_deref(),
        Some("Ada"),
        "the answer is in the task's history"
    );
}

#[tokio::test]
async fn follow_ups_that_do_not_fit_are_refused() {
    let (h, _) = handler();
    let asked = send_task(&h, &cx(), request("ask")).await;
    let mut wrong = follow_up(&asked, "Ada");
    wrong.message.context_id = "ctx-somewhere-else".to_owned();
    assert_eq!(kind(send(&h, &cx(), wrong).await), ErrorKind::InvalidParams);
    assert_eq!(
        get(&h, &cx(), &asked.id).await.unwrap().status.state,
        TaskState::InputRequired,
        "a refused follow-up changes nothing"
    );

    let done = send_task(&h, &cx(), request("echo done")).await;
    assert_eq!(
        kind(send(&h, &cx(), follow_up(&done, "more")).await),
        ErrorKind::UnsupportedOperation
    );

    let mut unknown = request("hello?");
    unknown.message.task_id = "task-that-never-was".to_owned();
    assert_eq!(
        kind(send(&h, &cx(), unknown).await),
        ErrorKind::TaskNotFound
    );
}

#[tokio::test]
async fn cancel_stops_a_running_task_promptly() {
    let (h, mut paused) = handler();
    let task = send_task(&h, &cx(), immediately("slow")).await;
    reach(&h, &cx(), &task.id, TaskState::Working).await;
    let started = std::time::Instant::now();
    let canceled = cancel(&h, &cx(), &task.id).await.expect("CancelTask");
    assert_eq!(canceled.status.state, TaskState::Canceled);
    let pause = bounded("the executor's pause to end", paused.recv())
        .await
        .expect("the executor reports its pause");
    assert!(
        matches!(
            pause,
            Err(UpdateError::Refused {
                state: TaskState::Canceled
            })
        ),
        "{pause:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "not a 30 s pause"
    );
    // Canceling a canceled task answers it again (spec 3.3.1).
    assert_eq!(
        cancel(&h, &cx(), &task.id).await.unwrap().status.state,
        TaskState::Canceled
    );
}

#[tokio::test]
async fn an_executor_that_refuses_to_cancel_makes_the_task_not_cancelable() {
    let (h, _) = handler_with(HandlerConfig::default(), false);
    let task = send_task(&h, &cx(), immediately("slow")).await;
    reach(&h, &cx(), &task.id, TaskState::Working).await;
    assert_eq!(
        kind(cancel(&h, &cx(), &task.id).await),
        ErrorKind::TaskNotCancelable
    );
    assert_eq!(
        get(&h, &cx(), &task.id).await.unwrap().status.state,
        TaskState::Working
    );
}

#[tokio::test]
async fn cancel_of_unknown_and_finished_tasks() {
    let (h, _) = handler();
    assert_eq!(
        kind(cancel(&h, &cx(), "task-that-never-was").await),
        ErrorKind::TaskNotFound
    );
    let done = send_task(&h, &cx(), request("echo done")).await;
    assert_eq!(
        kind(cancel(&h, &cx(), &done.id).await),
        ErrorKind::TaskNotCancelable
    );
    assert_eq!(
        get(&h, &cx(), &done.id).await.unwrap().status.state,
        TaskState::Completed
    );
}

#[tokio::test]
async fn another_principals_task_is_invisible() {
    let (h, _) = handler();
    let alice = as_user("alice");
    let asked = send_task(&h, &alice, request("ask")).await;
    assert_eq!(asked.status.state, TaskState::InputRequired);
    // Alice herself sees it everywhere.
    assert!(get(&h, &alice, &asked.id).await.is_ok());
    assert_eq!(
        list(&h, &alice, ListTasksRequest::default())
            .await
            .tasks
            .len(),
        1
    );
    assert!(subscribe(&h, &alice, &asked.id).await.is_ok());

    for other in [as_user("bob"), cx()] {
        assert_eq!(
            kind(get(&h, &other, &asked.id).await),
            ErrorKind::TaskNotFound
        );
        assert_eq!(
            kind(cancel(&h, &other, &asked.id).await),
            ErrorKind::TaskNotFound
        );
        assert_eq!(
            kind(subscribe(&h, &other, &asked.id).await.map(|_| ())),
            ErrorKind::TaskNotFound
        );
        let page = list(&h, &other, ListTasksRequest::default()).await;
        assert!(page.tasks.is_empty() && page.total_size == 0, "{page:?}");
        assert_eq!(
            kind(send(&h, &other, follow_up(&asked, "Mallory")).await),
            ErrorKind::TaskNotFound
        );
    }
    assert_eq!(
        get(&h, &alice, &asked.id).await.unwrap().status.state,
        TaskState::InputRequired,
        "nobody else moved it"
    );
}

#[tokio::test]
async fn a_streaming_send_yields_the_task_then_its_events_in_order() {
    let (h, _) = handler();
    let mut stream = bounded(
        "SendStreamingMessage",
        h.send_streaming_message(&cx(), request("echo streamed")),
    )
    .await
    .expect("SendStreamingMessage");
    let items = drain(&mut stream).await;
    assert_eq!(
        describe_all(&items),
        [
            "task TASK_STATE_SUBMITTED",
            "status TASK_STATE_WORKING",
            "artifact streamed",
            "status TASK_STATE_COMPLETED",
        ]
    );
    let StreamResponse::Task(first) = &items[0] else {
        unreachable!()
    };
    for item in &items[1..] {
        let (task_id, context_id) = match item {
            StreamResponse::StatusUpdate(u) => (&u.task_id, &u.context_id),
            StreamResponse::ArtifactUpdate(u) => (&u.task_id, &u.context_id),
            other => panic!("{other:?}"),
        };
        assert_eq!((task_id, context_id), (&first.id, &first.context_id));
    }
}

#[tokio::test]
async fn a_streaming_send_with_return_immediately_still_streams_every_event() {
    let (h, _) = handler();
    let mut stream = bounded(
        "SendStreamingMessage",
        h.send_streaming_message(&cx(), immediately("echo streamed")),
    )
    .await
    .expect("SendStreamingMessage with returnImmediately");
    let items = drain(&mut stream).await;
    assert_eq!(
        describe_all(&items),
        [
            "task TASK_STATE_SUBMITTED",
            "status TASK_STATE_WORKING",
            "artifact streamed",
            "status TASK_STATE_COMPLETED",
        ]
    );
}

#[tokio::test]
async fn a_subscription_gets_the_task_then_every_later_event_once() {
    let (h, _) = handler();
    let task = send_task(&h, &cx(), immediately("gated")).await;
    reach(&h, &cx(), &task.id, TaskState::Working).await;
    let mut stream = subscribe(&h, &cx(), &task.id)
        .await
        .expect("SubscribeToTask");
    match next(&mut stream).await {
        Some(Ok(StreamResponse::Task(t))) => {
            assert_eq!(t.id, task.id);
            assert_eq!(t.status.state, TaskState::Working);
        }
        other => panic!("want the task first, got {other:?}"),
    }
    h.executor().gate.add_permits(4);
    let items = drain(&mut stream).await;
    assert_eq!(
        describe_all(&items),
        [
            "artifact first",
            "status TASK_STATE_WORKING half",
            "artifact second",
            "status TASK_STATE_COMPLETED",
        ]
    );
    // A finished task has nothing to subscribe to.
    assert_eq!(
        kind(subscribe(&h, &cx(), &task.id).await.map(|_| ())),
        ErrorKind::UnsupportedOperation
    );
}

#[tokio::test]
async fn last_event_id_resumes_with_the_missed_events() {
    let (h, _) = handler();
    let task = send_task(&h, &cx(), immediately("gated")).await;
    reach(&h, &cx(), &task.id, TaskState::Working).await;

    let first_cx = cx();
    let mut stream = subscribe(&h, &first_cx, &task.id).await.unwrap();
    assert!(matches!(
        next(&mut stream).await,
        Some(Ok(StreamResponse::Task(_)))
    ));
    let after_task = first_cx.event_ids.take().expect("the task is labelled");
    h.executor().gate.add_permits(1);
    let item = next(&mut stream).await.unwrap().unwrap();
    assert_eq!(describe(&item), "artifact first");
    let last = first_cx.event_ids.take().expect("the event is labelled");
    assert_ne!(last, after_task, "labels move on with the log");
    // The client goes away; two events happen while it is gone.
    drop(stream);
    h.executor().gate.add_permits(2);
    bounded("the second artifact", async {
        while get(&h, &cx(), &task.id).await.unwrap().artifacts.len() < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;

    let mut again_cx = cx();
    again_cx
        .headers
        .insert("last-event-id", last.parse().expect("a header value"));
    assert_eq!(again_cx.last_event_id(), Some(last.as_str()));
    let mut stream = subscribe(&h, &again_cx, &task.id).await.unwrap();
    let missed = next(&mut stream).await.unwrap().unwrap();
    assert_eq!(
        describe(&missed),
        "status TASK_STATE_WORKING half",
        "no Task first"
    );
    let missed = next(&mut stream).await.unwrap().unwrap();
    assert_eq!(describe(&missed), "artifact second");
    h.executor().gate.add_permits(1);
    let rest = drain(&mut stream).await;
    assert_eq!(describe_all(&rest), ["status TASK_STATE_COMPLETED"]);

    // A Last-Event-ID the log cannot place starts with the task again.
    let task2 = send_task(&h, &cx(), immediately("gated")).await;
    reach(&h, &cx(), &task2.id, TaskState::Working).await;
    let stale = cx().with_last_event_id("999");
    let mut stream = subscribe(&h, &stale, &task2.id).await.unwrap();
    assert!(matches!(
        next(&mut stream).await,
        Some(Ok(StreamResponse::Task(_)))
    ));
    h.executor().gate.add_permits(4);
    assert_eq!(drain(&mut stream).await.len(), 4);
}

#[tokio::test]
async fn an_unanswered_input_request_is_released_after_the_timeout() {
    let config = HandlerConfig::new().with_interrupted_timeout(Duration::from_millis(100));
    let (h, _) = handler_with(config, true);
    let forgotten = send_task(&h, &cx(), request("ask")).await;
    let answered = send_task(&h, &cx(), request("ask")).await;
    assert_eq!(forgotten.status.state, TaskState::InputRequired);
    // Answered at once; the work then runs past the timeout (WORKING when
    // the timer fires) and completes.
    let done = send_task(&h, &cx(), follow_up(&answered, "slowly")).await;
    assert_eq!(done.status.state, TaskState::Completed);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let released = get(&h, &cx(), &forgotten.id).await.unwrap();
    assert_eq!(released.status.state, TaskState::Failed);
    assert!(
        status_text(&released).contains("released"),
        "{:?}",
        released.status
    );
    let kept = get(&h, &cx(), &answered.id).await.unwrap();
    assert_eq!(kept.status.state, TaskState::Completed);
    assert_eq!(artifact_texts(&kept), ["hello slowly"]);
}

fn push_handler() -> (Handler, Arc<RecordingPushSender>) {
    let (agent, _) = Agent::new(true);
    let recorder = Arc::new(RecordingPushSender::new());
    let sender: Arc<dyn PushSender> = recorder.clone();
    let handler = AgentHandler::builder(agent, InMemoryTaskStore::default(), Tokio)
        .push_sender(sender)
        .build();
    (handler, recorder)
}

/// The bodies posted to `url`, decoded, in order.
fn posted(recorder: &RecordingPushSender, url: &str) -> Vec<StreamResponse> {
    recorder
        .requests()
        .iter()
        .filter(|r| r.uri() == url)
        .map(|r| {
            assert_eq!(r.method(), http::Method::POST);
            assert_eq!(r.headers()["content-type"], a2a_agent::A2A_JSON);
            a2a_types::from_slice::<StreamResponse>(r.body()).expect("a StreamResponse body")
        })
        .collect()
}

async fn posted_at_least(recorder: &RecordingPushSender, url: &str, n: usize) {
    bounded(&format!("{n} notifications to {url}"), async {
        while posted(recorder, url).len() < n {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
}

#[tokio::test]
async fn push_configs_receive_the_events_in_order_until_deleted() {
    let (h, recorder) = push_handler();
    let task = send_task(&h, &cx(), immediately("gated")).await;
    reach(&h, &cx(), &task.id, TaskState::Working).await;
    let (kept, deleted) = ("https://hooks.example.com/x", "https://hooks.example.com/y");
    let mut ids = Vec::new();
    for url in [kept, deleted] {
        let mut config = TaskPushNotificationConfig::new(url);
        config.task_id = task.id.clone();
        let made = bounded(
            "CreateTaskPushNotificationConfig",
            h.create_task_push_notification_config(&cx(), config),
        )
        .await
        .expect("CreateTaskPushNotificationConfig");
        assert_eq!(
            (made.task_id.as_str(), made.url.as_str()),
            (task.id.as_str(), url)
        );
        assert!(!made.id.is_empty(), "the agent names the config");
        ids.push(made.id);
    }
    assert_ne!(ids[0], ids[1]);

    h.executor().gate.add_permits(1);
    posted_at_least(&recorder, kept, 1).await;
    posted_at_least(&recorder, deleted, 1).await;
    let delete = DeleteTaskPushNotificationConfigRequest {
        task_id: task.id.clone(),
        id: ids[1].clone(),
        ..DeleteTaskPushNotificationConfigRequest::default()
    };
    bounded(
        "DeleteTaskPushNotificationConfig",
        h.delete_task_push_notification_config(&cx(), delete),
    )
    .await
    .expect("DeleteTaskPushNotificationConfig");

    h.executor().gate.add_permits(3);
    reach(&h, &cx(), &task.id, TaskState::Completed).await;
    posted_at_least(&recorder, kept, 4).await;
    // Give a stray delivery the time to show up before counting.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        describe_all(&posted(&recorder, kept)),
        [
            "artifact first",
            "status TASK_STATE_WORKING half",
            "artifact second",
            "status TASK_STATE_COMPLETED",
        ],
        "from the next event after the config was made, in log order, once each"
    );
    assert_eq!(
        describe_all(&posted(&recorder, deleted)),
        ["artifact first"],
        "nothing after the delete"
    );
}

#[tokio::test]
async fn list_tasks_pages_through_every_task_once() {
    let (h, _) = handler();
    let mut made = HashSet::new();
    for i in 0..5 {
        made.insert(send_task(&h, &cx(), request(&format!("echo {i}"))).await.id);
    }
    let mut seen = Vec::new();
    let mut token = String::new();
    let mut pages = Vec::new();
    loop {
        let page = list(
            &h,
            &cx(),
            ListTasksRequest {
                page_size: Some(2),
                page_token: token.clone(),
                ..ListTasksRequest::default()
            },
        )
        .await;
        assert_eq!(page.total_size, 5);
        assert_eq!(page.page_size, 2);
        pages.push(page.tasks.len());
        seen.extend(page.tasks.iter().map(|t| t.id.clone()));
        if page.next_page_token.is_empty() {
            break;
        }
        assert!(pages.len() < 10, "paging does not end");
        token = page.next_page_token;
    }
    assert_eq!(pages, [2, 2, 1]);
    assert_eq!(seen.len(), 5);
    assert_eq!(seen.iter().cloned().collect::<HashSet<_>>(), made);
    // Newest first: the last task made comes first.
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.reverse();
    assert_eq!(seen, sorted, "ids of one run sort in creation order");
}

#[tokio::test]
async fn past_max_running_tasks_new_work_is_rate_limited_until_a_run_ends() {
    let (h, _paused) = handler_with(HandlerConfig::default().with_max_running_tasks(2), true);
    let first = send_task(&h, &cx(), immediately("slow")).await;
    let _second = send_task(&h, &cx(), immediately("slow")).await;
    let refused = send(&h, &cx(), immediately("echo third")).await;
    let err = refused.expect_err("a third run past max_running_tasks 2");
    assert_eq!(err.kind(), ErrorKind::RateLimited, "{err:?}");
    assert_eq!(err.retry_delay(), Some(Duration::from_secs(1)));
    // Nothing was stored for the refused message.
    let page = list(&h, &cx(), ListTasksRequest::default()).await;
    assert_eq!(page.tasks.len(), 2, "{page:?}");
    // A run that ends gives its slot back.
    cancel(&h, &cx(), &first.id).await.expect("CancelTask");
    let mut again = send(&h, &cx(), request("echo again")).await;
    for _ in 0..50 {
        if again.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        again = send(&h, &cx(), request("echo again")).await;
    }
    assert!(again.is_ok(), "{again:?}");
}

#[tokio::test]
async fn a_spent_running_budget_refuses_new_tasks_and_holds_back_the_heaviest() {
    let mut limits = a2a_agent::MemoryLimits::default();
    limits.max_running_bytes = 64 << 10;
    let store = InMemoryTaskStore::new(limits);
    let (agent, _paused) = Agent::new(true);
    let h = AgentHandler::builder(agent, store.clone(), Tokio).build();
    // A WORKING task whose log fills with artifacts past the budget.
    let task = send_task(&h, &cx(), immediately("slow")).await;
    reach(&h, &cx(), &task.id, TaskState::Working).await;
    let chunk = |i: usize| {
        a2a_types::TaskArtifactUpdateEvent::new(
            &task.id,
            &task.context_id,
            a2a_types::Artifact::new("big", vec![a2a_types::Part::text("x".repeat(1000))]),
        )
        .with_append(i > 0)
        .into()
    };
    let mut refused = None;
    for i in 0..200 {
        if let Err(e) = a2a_agent::TaskStore::append(&store, &task.id, chunk(i), None).await {
            refused = Some((i, e));
            break;
        }
    }
    let (at, why) = refused.expect("the store refuses artifacts past the running budget");
    assert!(at > 10, "refused too early, at chunk {at}");
    assert!(
        matches!(why, a2a_agent::store::StoreError::Busy(_)),
        "{why:?}"
    );
    assert!(store.running_weight() <= 2 * (64 << 10) + 8192);
    // While the budget is spent, new work is refused with a retry delay.
    let err = send(&h, &cx(), request("echo more"))
        .await
        .expect_err("a new task while the running budget is spent");
    assert_eq!(err.kind(), ErrorKind::RateLimited, "{err:?}");
    assert!(err.retry_delay().is_some());
    // A status still ends the work, and its log is given back once the
    // executor's watch (its pause) lets go.
    cancel(&h, &cx(), &task.id).await.expect("CancelTask");
    for _ in 0..100 {
        if store.running_weight() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(store.running_weight(), 0);
    assert!(send(&h, &cx(), request("echo after")).await.is_ok());
}
