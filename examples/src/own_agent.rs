//! A user's own agent: two operations of the [`A2aService`] trait, and
//! nothing else to write. Every other operation keeps the trait's
//! default answer (`UnsupportedOperationError`, or
//! `PushNotificationNotSupportedError` for push configs), and the server
//! in front of it does the protocol's part: bindings, version, validation
//! of REQUIRED fields, capability gates from the card.
//!
//! [`ShoutAgent`] answers each message with a completed task whose
//! artifact is the message's text in capitals (`SendMessage`, spec
//! 3.1.1), and finds its tasks again by id (`GetTask`, 3.1.3) with the
//! `historyLength` rule of 3.2.4. It keeps the latest [`MAX_TASKS`] tasks
//! in memory. `bin/own_agent.rs` serves it with `a2a_hyper::serve`; the
//! conformance runner's results against it are in the crate README.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use a2a_transport::{A2aService, BoxFuture, CallContext};
use a2a_types::{
    A2aError, AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Artifact, ErrorKind,
    FieldViolation, GetTaskRequest, Message, Part, SendMessageRequest, SendMessageResponse, Task,
    TaskState, Timestamp,
};

/// The most tasks [`ShoutAgent`] remembers; the oldest goes first.
pub const MAX_TASKS: usize = 1000;

/// An agent that shouts back (see the module documentation).
#[derive(Debug, Default)]
pub struct ShoutAgent {
    tasks: Mutex<Tasks>,
    next_id: AtomicU64,
}

#[derive(Debug, Default)]
struct Tasks {
    by_id: HashMap<String, Task>,
    oldest_first: VecDeque<String>,
}

impl ShoutAgent {
    /// An agent with no tasks yet.
    pub fn new() -> ShoutAgent {
        ShoutAgent::default()
    }

    /// Its card, for an agent reached at `base_url` (JSON-RPC at
    /// `{base_url}/`, HTTP+JSON at `{base_url}`): no streaming, no push
    /// notifications, one skill.
    pub fn card(base_url: &str) -> AgentCard {
        let base = base_url.trim_end_matches('/');
        AgentCard {
            name: "Shout agent".into(),
            description: "Answers every message with its text in capitals".into(),
            version: "1.0.0".into(),
            supported_interfaces: vec![
                AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
                AgentInterface::new(base, "HTTP+JSON", "1.0"),
            ],
            capabilities: AgentCapabilities {
                streaming: Some(false),
                push_notifications: Some(false),
                ..Default::default()
            },
            default_input_modes: vec!["text/plain".into()],
            default_output_modes: vec!["text/plain".into()],
            skills: vec![AgentSkill {
                id: "shout".into(),
                name: "Shout".into(),
                description: "Repeats the message's text in capitals".into(),
                tags: vec!["text".into()],
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    fn new_id(&self, kind: &str) -> String {
        format!(
            "{kind}-{}",
            self.next_id.fetch_add(1, Ordering::Relaxed) + 1
        )
    }

    fn shout(&self, mut message: Message) -> Result<Task, A2aError> {
        if !message.task_id.is_empty() {
            // Every task of this agent is already complete (spec 3.4.3).
            let tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
            return Err(match tasks.by_id.contains_key(&message.task_id) {
                true => A2aError::new(
                    ErrorKind::UnsupportedOperation,
                    format!("task {} is already completed", message.task_id),
                ),
                false => A2aError::task_not_found(&message.task_id),
            });
        }
        let Some(text) = message.text() else {
            return Err(A2aError::invalid_params(vec![FieldViolation {
                field: "message.parts".into(),
                description: "needs a text part to shout".into(),
            }]));
        };
        let mut task = Task::new(self.new_id("task"), "", TaskState::Completed);
        task.context_id = match message.context_id.is_empty() {
            true => self.new_id("context"),
            false => message.context_id.clone(),
        };
        task.status.timestamp = Some(now());
        task.artifacts = vec![Artifact::new(
            "shout",
            vec![Part::text(text.to_uppercase())],
        )];
        message.task_id = task.id.clone();
        message.context_id = task.context_id.clone();
        task.history = vec![message];
        self.remember(task.clone());
        Ok(task)
    }

    fn remember(&self, task: Task) {
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        if tasks.oldest_first.len() == MAX_TASKS {
            if let Some(oldest) = tasks.oldest_first.pop_front() {
                tasks.by_id.remove(&oldest);
            }
        }
        tasks.oldest_first.push_back(task.id.clone());
        tasks.by_id.insert(task.id.clone(), task);
    }

    fn find(&self, id: &str, history_length: Option<i32>) -> Result<Task, A2aError> {
        let keep = history_limit("historyLength", history_length)?;
        let tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        let mut task = tasks
            .by_id
            .get(id)
            .cloned()
            .ok_or_else(|| A2aError::task_not_found(id))?;
        trim_history(&mut task, keep);
        Ok(task)
    }
}

impl A2aService for ShoutAgent {
    fn send_message<'a>(
        &'a self,
        _: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        Box::pin(async move {
            let history_length = request
                .configuration
                .as_ref()
                .and_then(|c| c.history_length);
            let keep = history_limit("configuration.historyLength", history_length)?;
            let mut task = self.shout(request.message)?;
            trim_history(&mut task, keep);
            Ok(SendMessageResponse::Task(task))
        })
    }

    fn get_task<'a>(
        &'a self,
        _: &'a CallContext,
        request: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        Box::pin(async move { self.find(&request.id, request.history_length) })
    }
}

/// `historyLength` (spec 3.2.4): unset is all, `n` the `n` latest,
/// negative an error naming `field`.
fn history_limit(field: &str, value: Option<i32>) -> Result<Option<usize>, A2aError> {
    value
        .map(|n| {
            usize::try_from(n).map_err(|_| {
                A2aError::invalid_params(vec![FieldViolation {
                    field: field.into(),
                    description: format!("must not be negative, got {n}"),
                }])
            })
        })
        .transpose()
}

fn trim_history(task: &mut Task, keep: Option<usize>) {
    if let Some(keep) = keep {
        let drop = task.history.len().saturating_sub(keep);
        task.history.drain(..drop);
    }
}

fn now() -> Timestamp {
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    Timestamp::from_unix_millis(millis).unwrap_or_default()
}

/// The server settings `ShoutAgent` is served with: a2a-hyper's defaults
/// (keep-alive), the media-type check of every message part against the
/// card's input modes (spec 3.3.2), and the card's `Last-Modified` (spec
/// 8.6): the time it was built.
pub fn server_config() -> a2a_transport::ServerConfig {
    a2a_hyper::server_config()
        .with_input_mode_check(true)
        .with_card_last_modified(std::time::SystemTime::now())
}
