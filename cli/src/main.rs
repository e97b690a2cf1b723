//! `a2a`: a command-line client for A2A v1.0 agents, on
//! `a2a_hyper::HyperClient` and `a2a_transport`'s typed client
//! (`HttpTransport`). See `a2a --help` and the crate README.
//!
//! Every command reads the agent card at `URL/.well-known/agent-card.json`
//! (spec 8.2), picks the card's first interface a2a speaks, or the one
//! `--binding` names (spec 8.3.2), and makes one call. Readable text goes
//! to standard output, errors and the progress line to standard error;
//! `--json` prints the answers as ProtoJSON instead.

mod args;
mod output;
mod progress;
mod term;

use std::process::ExitCode;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use a2a_hyper::HyperClient;
use a2a_transport::client::{CardResolver, Discovered, Preferences};
use a2a_transport::{A2aService, CallContext, EventStream, HttpTransport};
use a2a_types::{
    A2aError, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Message, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, TaskPushNotificationConfig,
};
use futures_util::StreamExt;
use http::HeaderMap;
use serde::Serialize;

use crate::args::{Args, Command, Parsed, USAGE};
use crate::progress::Progress;
use crate::term::{say, tell};

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args = match args::parse(std::env::args().skip(1)) {
        Ok(Parsed::Run(a)) => *a,
        Ok(Parsed::Help) => {
            say(USAGE);
            return ExitCode::SUCCESS;
        }
        Ok(Parsed::Version) => {
            say(&format!(
                "a2a {} (A2A protocol 1.0)",
                env!("CARGO_PKG_VERSION")
            ));
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            tell(&format!(
                "a2a: {e}\n\nUSAGE: a2a <COMMAND> <URL> [ARGS] [OPTIONS] (see a2a --help)"
            ));
            return ExitCode::from(2);
        }
    };
    match run(&args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::A2a(e)) => {
            if args.json {
                print_json(&e.to_jsonrpc_error());
            }
            for line in output::error(&e) {
                tell(&format!("a2a: {line}"));
            }
            ExitCode::FAILURE
        }
        Err(Failure::Other(e)) => {
            tell(&format!("a2a: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// Why a command failed.
enum Failure {
    /// The agent answered an A2A error (or the transport made one: an
    /// unreachable agent, an answer that does not decode).
    A2a(A2aError),
    /// Discovery failed before any A2A call.
    Other(String),
}

impl From<A2aError> for Failure {
    fn from(e: A2aError) -> Failure {
        Failure::A2a(e)
    }
}

fn print_json<T: Serialize>(value: &T) {
    match a2a_types::to_vec(value).map(String::from_utf8) {
        Ok(Ok(text)) => say(&text),
        _ => tell("a2a: the answer could not be written as JSON"),
    }
}

/// A fresh message id: the time and the process id keep it unique enough
/// for a client (spec 4.1.4 leaves the form to the sender).
fn message_id() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("a2a-cli-{}-{nanos:x}", std::process::id())
}

async fn connect(args: &Args) -> Result<(HttpTransport<HyperClient>, CallContext), Failure> {
    let client = HyperClient::new();
    let mut headers = HeaderMap::new();
    for (name, value) in &args.headers {
        headers.append(name.clone(), value.clone());
    }
    let mut resolver = CardResolver::new(&args.url)
        .map_err(|e| Failure::Other(format!("{}: {e}", args.url)))?
        .with_headers(headers.clone());
    let card = resolver
        .resolve(&client, Instant::now())
        .await
        .map_err(|e| Failure::Other(format!("cannot read the agent card: {e}")))?;
    let prefs = match args.binding {
        Some(b) => Preferences::new().with_bindings([b]),
        None => Preferences::new(),
    };
    // --tenant picks the card's interface for that tenant when the card
    // declares one (spec 8.3.2, multi-tenancy); otherwise the tenant is
    // sent on the interface chosen as usual.
    let mut card = card;
    if let Some(t) = &args.tenant {
        if card.supported_interfaces.iter().any(|i| i.tenant == *t) {
            card.supported_interfaces.retain(|i| i.tenant == *t);
        }
    }
    // A bare `host:port` gRPC interface takes the card URL's scheme.
    let found = Discovered::from_card_at(client, card, &prefs, resolver.url())
        .map_err(|e| Failure::Other(format!("{e}")))?;
    let mut transport = found.transport;
    if let Some(t) = &args.tenant {
        if transport.tenant() != Some(t.as_str()) {
            transport = transport.with_tenant(t.clone());
        }
    }
    Ok((transport, CallContext::new().with_headers(headers)))
}

async fn run(args: &Args) -> Result<(), Failure> {
    if args.command == Command::Card {
        return card(args).await;
    }
    let (agent, cx) = connect(args).await?;
    match &args.command {
        Command::Card => Ok(()),
        Command::Send(text) => send(args, &agent, &cx, text).await,
        Command::Stream(text) => {
            let events = agent
                .send_streaming_message(&cx, SendMessageRequest::new(new_message(args, text)))
                .await?;
            follow(args, events).await
        }
        Command::Subscribe(id) => {
            let request = SubscribeToTaskRequest {
                id: id.clone(),
                ..SubscribeToTaskRequest::default()
            };
            let events = agent.subscribe_to_task(&cx, request).await?;
            follow(args, events).await
        }
        Command::Get(id) => {
            let mut request = GetTaskRequest::new(id.clone());
            request.history_length = args.history;
            let task = agent.get_task(&cx, request).await?;
            show(args, &task, || output::task(&task, true));
            Ok(())
        }
        Command::Cancel(id) => {
            let task = agent
                .cancel_task(&cx, CancelTaskRequest::new(id.clone()))
                .await?;
            show(args, &task, || output::task(&task, false));
            Ok(())
        }
        Command::List => {
            let request = ListTasksRequest {
                context_id: args.context.clone().unwrap_or_default(),
                page_size: args.page_size,
                ..ListTasksRequest::default()
            };
            let page = agent.list_tasks(&cx, request).await?;
            show(args, &page, || {
                let mut lines: Vec<String> = page
                    .tasks
                    .iter()
                    .map(|t| {
                        format!(
                            "{}  {}  (context {})",
                            t.id,
                            output::state(t.status.state),
                            t.context_id
                        )
                    })
                    .collect();
                lines.push(format!(
                    "{} of {} tasks{}",
                    page.tasks.len(),
                    page.total_size,
                    if page.next_page_token.is_empty() {
                        String::new()
                    } else {
                        format!("; next page token {}", page.next_page_token)
                    }
                ));
                lines
            });
            Ok(())
        }
        Command::PushSet { task, url } => {
            let mut config = TaskPushNotificationConfig::new(url.clone());
            config.task_id.clone_from(task);
            config.token = args.token.clone().unwrap_or_default();
            config.id = args.config_id.clone().unwrap_or_default();
            let created = agent
                .create_task_push_notification_config(&cx, config)
                .await?;
            show(args, &created, || vec![output::push_config(&created)]);
            Ok(())
        }
        Command::PushGet { task, id } => {
            let request = GetTaskPushNotificationConfigRequest {
                task_id: task.clone(),
                id: id.clone(),
                ..GetTaskPushNotificationConfigRequest::default()
            };
            let config = agent
                .get_task_push_notification_config(&cx, request)
                .await?;
            show(args, &config, || vec![output::push_config(&config)]);
            Ok(())
        }
        Command::PushList(task) => {
            let request = ListTaskPushNotificationConfigsRequest {
                task_id: task.clone(),
                ..ListTaskPushNotificationConfigsRequest::default()
            };
            let list = agent
                .list_task_push_notification_configs(&cx, request)
                .await?;
            show(args, &list, || {
                let mut lines: Vec<String> = list.configs.iter().map(output::push_config).collect();
                lines.push(format!(
                    "{} push config(s) of task {task}",
                    list.configs.len()
                ));
                lines
            });
            Ok(())
        }
        Command::PushDelete { task, id } => {
            let request = DeleteTaskPushNotificationConfigRequest {
                task_id: task.clone(),
                id: id.clone(),
                ..DeleteTaskPushNotificationConfigRequest::default()
            };
            agent
                .delete_task_push_notification_config(&cx, request)
                .await?;
            // The answer is `google.protobuf.Empty`: `{}` under --json.
            show(args, &a2a_types::Empty, || {
                vec![format!("deleted push config {id} of task {task}")]
            });
            Ok(())
        }
    }
}

/// Prints `value` as ProtoJSON under `--json`, else the readable lines.
fn show<T: Serialize>(args: &Args, value: &T, lines: impl FnOnce() -> Vec<String>) {
    if args.json {
        print_json(value);
    } else {
        for line in lines() {
            say(&line);
        }
    }
}

async fn card(args: &Args) -> Result<(), Failure> {
    let client = HyperClient::new();
    let mut headers = HeaderMap::new();
    for (name, value) in &args.headers {
        headers.append(name.clone(), value.clone());
    }
    let mut resolver = CardResolver::new(&args.url)
        .map_err(|e| Failure::Other(format!("{}: {e}", args.url)))?
        .with_headers(headers);
    let card = resolver
        .resolve(&client, Instant::now())
        .await
        .map_err(|e| Failure::Other(format!("cannot read the agent card: {e}")))?;
    show(args, &card, || output::card(&card));
    Ok(())
}

fn new_message(args: &Args, text: &str) -> Message {
    let mut m = Message::user_text(message_id(), text);
    m.context_id = args.context.clone().unwrap_or_default();
    m.task_id = args.task.clone().unwrap_or_default();
    m
}

async fn send(
    args: &Args,
    agent: &HttpTransport<HyperClient>,
    cx: &CallContext,
    text: &str,
) -> Result<(), Failure> {
    let mut request = SendMessageRequest::new(new_message(args, text));
    if args.no_wait || args.history.is_some() {
        request.configuration = Some(SendMessageConfiguration {
            return_immediately: args.no_wait,
            history_length: args.history,
            ..SendMessageConfiguration::default()
        });
    }
    // A blocking send waits while the agent works (spec 3.2.2).
    let progress = (!args.no_wait && !args.json).then(|| Progress::start("waiting for the agent"));
    let answer = agent.send_message(cx, request).await;
    drop(progress);
    let answer = answer?;
    show(args, &answer, || match &answer {
        SendMessageResponse::Task(t) => output::task(t, false),
        SendMessageResponse::Message(m) => vec![output::message(m)],
    });
    Ok(())
}

/// Prints a stream's events as they arrive, with a progress line between
/// them while the task works.
async fn follow(args: &Args, mut events: EventStream) -> Result<(), Failure> {
    let progress = (!args.json).then(|| Progress::start("waiting for the first event"));
    while let Some(event) = events.next().await {
        let event = event?;
        if args.json {
            print_json(&event);
            continue;
        }
        if let Some(p) = &progress {
            p.println(&output::event(&event));
            p.set(working(&event));
        }
    }
    Ok(())
}

/// What the progress line says after `event`: the task's state while it
/// is not final, nothing once it is.
fn working(event: &StreamResponse) -> Option<String> {
    let state = match event {
        StreamResponse::Task(t) => t.status.state,
        StreamResponse::StatusUpdate(u) => u.status.state,
        StreamResponse::Message(_) => return None,
        StreamResponse::ArtifactUpdate(_) => a2a_types::TaskState::Working,
    };
    (!state.is_terminal() && !state.is_interrupted())
        .then(|| format!("task {}", output::state(state)))
}
