//! The protocol commands (a2a-cli spec §10, Appendix A): `card get`,
//! `send`, `task get|cancel|list|subscribe|download`, `task push-config`,
//! with the waiting rules of §9.3 (poll to a terminal or interrupted
//! state, prefer the stream and fall back to polling when it fails,
//! `--timeout`, `--poll-interval` with bounded backoff) and the
//! resumption of §9.4 (resubscribe after a dropped stream).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use a2a_transport::client::ClientFailure;
use a2a_transport::{A2aService, EventStream};
use a2a_types::{
    A2aError, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, Message, Part, PartContent, Role,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskSnapshot, TaskState, Validate,
};
use futures_util::StreamExt;

use crate::agent::{connect, connect_to, resolve_card, Agent};
use crate::args::{PartKind, PartSpec};
use crate::failure::{code, Failure};
use crate::output::{self, settled, state};
use crate::run::Run;

/// A fresh message id: time and process id keep it unique for a client
/// (the form is the sender's, A2A §4.1.4). A client-assigned id, not a
/// server one (§4.1).
pub(crate) fn message_id() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("a2a-cli-{}-{nanos:x}", std::process::id())
}

/// The media type of a file, from its extension, when the caller gave
/// none (§10.2: inferred only then).
fn infer_media_type(path: &str) -> &'static str {
    let ext = path.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "txt" | "md" => "text/plain",
        "json" => "application/json",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "xml" => "application/xml",
        "zip" => "application/zip",
        _ => "application/octet-stream",
    }
}

/// The message parts, in order (§10.2).
pub(crate) fn build_parts(parts: &[PartSpec]) -> Result<Vec<Part>, Failure> {
    let mut out = Vec::new();
    let mut stdin_used = false;
    for p in parts {
        let part = match &p.kind {
            PartKind::Text(t) => {
                let part = Part::text(t.clone());
                match &p.media_type {
                    Some(m) => part.with_media_type(m.clone()),
                    None => part,
                }
            }
            PartKind::File(f) if f.starts_with("http://") || f.starts_with("https://") => {
                let name = f.rsplit('/').next().unwrap_or("").to_owned();
                let mut part = Part::url(f.clone());
                if !name.is_empty() {
                    part = part.with_filename(name);
                }
                if let Some(m) = &p.media_type {
                    part = part.with_media_type(m.clone());
                }
                part
            }
            PartKind::File(path) => {
                let bytes = std::fs::read(path)
                    .map_err(|e| Failure::usage(format!("--file {path}: {e}")))?;
                let name = std::path::Path::new(path)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let media = p
                    .media_type
                    .clone()
                    .unwrap_or_else(|| infer_media_type(path).to_owned());
                Part::raw(bytes).with_filename(name).with_media_type(media)
            }
            PartKind::Data(src) => {
                let text = if src == "-" {
                    if stdin_used {
                        return Err(Failure::usage("--data -: standard input can be read once"));
                    }
                    stdin_used = true;
                    let mut s = String::new();
                    std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
                        .map_err(|e| Failure::usage(format!("--data -: {e}")))?;
                    s
                } else {
                    std::fs::read_to_string(src)
                        .map_err(|e| Failure::usage(format!("--data {src}: {e}")))?
                };
                let value: serde_json::Value = serde_json::from_str(&text)
                    .map_err(|e| Failure::usage(format!("--data {src}: not JSON: {e}")))?;
                let part = Part::data(value);
                match &p.media_type {
                    Some(m) => part.with_media_type(m.clone()),
                    None => part,
                }
            }
        };
        out.push(part);
    }
    Ok(out)
}

/// `--metadata`: a JSON object.
fn metadata(run: &Run) -> Result<Option<serde_json::Map<String, serde_json::Value>>, Failure> {
    match run.settings.get("metadata") {
        None => Ok(None),
        Some(m) => match serde_json::from_str::<serde_json::Value>(m) {
            Ok(serde_json::Value::Object(o)) => Ok(Some(o)),
            _ => Err(Failure::usage(format!(
                "--metadata {m:?}: expected a JSON object such as '{{\"k\":\"v\"}}'"
            ))),
        },
    }
}

/// The message of `send`: the parts, the caller's ids (never invented).
pub(crate) fn build_message(run: &Run, parts: Vec<Part>) -> Result<Message, Failure> {
    let id = run
        .settings
        .get("message-id")
        .map(str::to_owned)
        .unwrap_or_else(message_id);
    let mut m = Message::new(Role::User, id, parts);
    m.context_id = run
        .settings
        .get("context-id")
        .unwrap_or_default()
        .to_owned();
    m.task_id = run.settings.get("task-id").unwrap_or_default().to_owned();
    m.metadata = metadata(run)?;
    Ok(m)
}

/// Runs `op` under `--timeout`.
async fn bounded<T>(
    run: &Run,
    what: &str,
    op: impl std::future::Future<Output = Result<T, Failure>>,
) -> Result<T, Failure> {
    match run.timeout {
        None => op.await,
        Some(t) => match tokio::time::timeout(t, op).await {
            Ok(r) => r,
            Err(_) => Err(Failure::local(
                code::TIMEOUT,
                format!("--timeout {t:?} expired {what}"),
            )),
        },
    }
}

fn a2a(agent: &Agent) -> impl Fn(A2aError) -> Failure + '_ {
    move |e| {
        let mut f = Failure::from_a2a(&e, agent.credentials);
        if f.code == code::CREDENTIALS_MISSING {
            if let Some(hint) = crate::tokens::login_hint(&agent.card.card) {
                f.hint = Some(hint);
            }
        }
        f
    }
}

/// Warns on standard error when the outcome is not success (§11.6: the
/// exit status stays 0, the outcome is in the state).
fn outcome_warning(run: &Run, t: &Task) {
    match t.status.state {
        TaskState::Completed => {}
        s if s.is_interrupted() => run.warn(&format!(
            "task {} is waiting: {}; {}",
            t.id,
            state(s),
            output::next_step(t).unwrap_or_default()
        )),
        s if s.is_terminal() => run.warn(&format!("task {} ended {}", t.id, state(s))),
        s => run.warn(&format!(
            "task {} is still {}; follow it with `a2a task get --wait {}`",
            t.id,
            state(s),
            t.id
        )),
    }
}

/// `card get`.
pub(crate) async fn card_get(
    run: &Run,
    validate: bool,
    extended: bool,
    jwks: Option<&str>,
) -> Result<(), Failure> {
    let reference = run.agent_card()?;
    let card = bounded(
        run,
        "fetching the card",
        resolve_card(&run.wire, &reference),
    )
    .await?;
    let signature = crate::signature::verify(run, &card, jwks).await;
    let from = card.from.describe();
    let mut problems: Vec<String> = Vec::new();
    if validate {
        if let Err(v) = card.card.validate() {
            problems = v
                .iter()
                .map(|v| format!("{}: {}", v.field, v.description))
                .collect();
        }
    }
    let shown = if extended {
        if card.card.capabilities.extended_agent_card != Some(true) {
            return Err(Failure::from_a2a(
                &A2aError::new(
                    a2a_types::ErrorKind::ExtendedAgentCardNotConfigured,
                    "the public card does not declare capabilities.extendedAgentCard",
                ),
                false,
            ));
        }
        if !crate::agent::accepts_credentials(&card.card) {
            return Err(Failure::local(code::CREDENTIALS_MISSING, "the public card declares no security scheme, so no credential is presented for the extended card")
                .with_hint("the extended card is fetched only with a scheme the public card advertises (§12.4)"));
        }
        let agent = connect_to(run, card.clone())?;
        if !agent.credentials {
            return Err(Failure::local(
                code::CREDENTIALS_MISSING,
                "the extended card needs the credentials of a scheme the card declares",
            )
            .with_hint(
                crate::tokens::login_hint(&card.card)
                    .unwrap_or_else(|| "pass --bearer TOKEN or --api-key KEY".to_owned()),
            ));
        }
        let ext = bounded(run, "fetching the extended card", async {
            agent
                .transport
                .get_extended_agent_card(&agent.cx, GetExtendedAgentCardRequest::default())
                .await
                .map_err(a2a(&agent))
        })
        .await?;
        Some(ext)
    } else {
        None
    };
    let selected = connect_to(run, card.clone());
    let c = shown.as_ref().unwrap_or(&card.card);
    run.show(c, || {
        let mut r = output::card(c, &from, run.verbose);
        if extended {
            r.field("Card-Kind", "extended (authenticated)");
        }
        match &selected {
            Ok(a) => r.field(
                "Selected-Transport",
                &format!(
                    "{} {} {}",
                    a.interface.protocol_binding, a.interface.protocol_version, a.interface.url
                ),
            ),
            Err(f) => r.field("Selected-Transport", &format!("none ({})", f.message)),
        }
        r.field("Signature", &signature);
        if validate {
            r.field(
                "Validation",
                if problems.is_empty() {
                    "valid"
                } else {
                    "invalid"
                },
            );
            for p in &problems {
                r.field("Violation", p);
            }
        }
        r.lines()
    });
    if !problems.is_empty() {
        return Err(Failure::local(
            code::CARD_INVALID,
            format!("the agent card is invalid: {}", problems.join("; ")),
        ));
    }
    Ok(())
}

/// `send`.
pub(crate) async fn send(run: &Run, parts: &[PartSpec]) -> Result<(), Failure> {
    let parts = build_parts(parts)?;
    let message = build_message(run, parts)?;
    let agent = connect(run).await?;
    let streams = agent.card.card.capabilities.streaming == Some(true);
    if run.stream {
        if !streams {
            run.note(
                "the agent's card does not declare streaming; sending without a stream (one line)",
            );
            let answer = bounded(
                run,
                "waiting for the answer",
                send_unary(run, &agent, message, run.no_wait),
            )
            .await?;
            let event = match answer {
                SendMessageResponse::Task(t) => StreamResponse::Task(t),
                SendMessageResponse::Message(m) => StreamResponse::Message(m),
            };
            print_event(run, &event);
            if let StreamResponse::Task(t) = &event {
                outcome_warning(run, t);
            }
            return Ok(());
        }
        let request = SendMessageRequest::new(message);
        let events = agent
            .transport
            .send_streaming_message(&agent.cx, request)
            .await
            .map_err(a2a(&agent))?;
        return follow(run, &agent, events, true).await;
    }
    if run.no_wait {
        let answer = bounded(
            run,
            "waiting for the answer",
            send_unary(run, &agent, message, true),
        )
        .await?;
        return show_answer(run, &answer, false);
    }
    let answer = bounded(
        run,
        "waiting for the task",
        wait_send(run, &agent, message, streams),
    )
    .await?;
    show_answer(run, &answer, true)
}

fn show_answer(run: &Run, answer: &SendMessageResponse, warn: bool) -> Result<(), Failure> {
    run.show(answer, || match answer {
        SendMessageResponse::Task(t) => output::task(t, false, run.verbose),
        SendMessageResponse::Message(m) => output::message(m, run.verbose),
    });
    if let (SendMessageResponse::Task(t), true) = (answer, warn) {
        outcome_warning(run, t);
    }
    Ok(())
}

async fn send_unary(
    run: &Run,
    agent: &Agent,
    message: Message,
    immediately: bool,
) -> Result<SendMessageResponse, Failure> {
    let mut request = SendMessageRequest::new(message);
    let history = history(run)?;
    if immediately || history.is_some() {
        request.configuration = Some(SendMessageConfiguration {
            return_immediately: immediately,
            history_length: history,
            ..SendMessageConfiguration::default()
        });
    }
    agent
        .transport
        .send_message(&agent.cx, request)
        .await
        .map_err(a2a(agent))
}

fn history(run: &Run) -> Result<Option<i32>, Failure> {
    run.settings
        .get("history")
        .map(|h| {
            h.parse::<i32>().ok().filter(|n| *n >= 0).ok_or_else(|| {
                Failure::usage(format!("--history {h:?}: expected a number of at least 0"))
            })
        })
        .transpose()
}

/// Says on standard error which task is being waited for, so that an
/// interrupted wait leaves the caller the id (§9.3).
fn waiting_for(run: &Run, t: &Task) {
    if !settled(t.status.state) {
        run.note(&format!(
            "waiting for task {} (context {}); interrupting leaves it running: a2a task get --wait {}",
            t.id, t.context_id, t.id
        ));
    }
}

/// The blocking `send`: the stream when the agent has one (falling back
/// to polling when it fails), else a send that returns at once and
/// polling.
async fn wait_send(
    run: &Run,
    agent: &Agent,
    message: Message,
    streams: bool,
) -> Result<SendMessageResponse, Failure> {
    if streams {
        let request = SendMessageRequest::new(message.clone());
        match agent
            .transport
            .send_streaming_message(&agent.cx, request)
            .await
        {
            Ok(mut events) => {
                let mut snapshot: Option<TaskSnapshot> = None;
                loop {
                    match events.next().await {
                        None => break,
                        Some(Ok(StreamResponse::Message(m))) if snapshot.is_none() => {
                            return Ok(SendMessageResponse::Message(m));
                        }
                        Some(Ok(event)) => {
                            match &mut snapshot {
                                None => {
                                    match TaskSnapshot::from_first_event(event) {
                                        Ok(s) => {
                                            waiting_for(run, s.task());
                                            snapshot = Some(s);
                                        }
                                        Err(other) => {
                                            return Err(Failure::from_a2a(&A2aError::new(a2a_types::ErrorKind::InvalidAgentResponse, format!("the stream did not start with the task: {}", serde_json::to_string(&*other).unwrap_or_default())), false));
                                        }
                                    }
                                }
                                Some(s) => {
                                    if let Err(e) = s.apply(event) {
                                        run.note(&format!("a stream event did not apply ({e}); polling the task instead"));
                                        break;
                                    }
                                }
                            }
                        }
                        Some(Err(e)) => {
                            if snapshot.is_none() {
                                return Err(a2a(agent)(e));
                            }
                            run.note(&format!(
                                "the stream failed ({}); polling the task instead",
                                e.message()
                            ));
                            break;
                        }
                    }
                    if let Some(s) = &snapshot {
                        if settled(s.task().status.state) {
                            return Ok(SendMessageResponse::Task(s.task().clone()));
                        }
                    }
                }
                match snapshot {
                    Some(s) => {
                        let task = poll(run, agent, &s.task().id).await?;
                        return Ok(SendMessageResponse::Task(task));
                    }
                    None => {
                        return Err(Failure::local(
                            code::INTERNAL,
                            "the stream ended before the agent answered",
                        ))
                    }
                }
            }
            Err(e)
                if ClientFailure::of(&e).is_some()
                    || e.kind() == a2a_types::ErrorKind::UnsupportedOperation =>
            {
                run.note(&format!(
                    "streaming failed ({}); sending without a stream and polling",
                    e.message()
                ));
            }
            Err(e) => return Err(a2a(agent)(e)),
        }
    }
    match send_unary(run, agent, message, true).await? {
        SendMessageResponse::Task(t) if !settled(t.status.state) => {
            waiting_for(run, &t);
            Ok(SendMessageResponse::Task(poll(run, agent, &t.id).await?))
        }
        other => Ok(other),
    }
}

/// Polls `GetTask` until the task is terminal or interrupted (§9.3):
/// every `--poll-interval`, growing by half each time up to four times
/// it (bounded backoff); `UNSPECIFIED` keeps polling.
async fn poll(run: &Run, agent: &Agent, id: &str) -> Result<Task, Failure> {
    let mut interval = run.poll_interval;
    let max = run.poll_interval.saturating_mul(4);
    let started = Instant::now();
    loop {
        let mut request = GetTaskRequest::new(id.to_owned());
        request.history_length = history(run)?;
        let task = agent
            .transport
            .get_task(&agent.cx, request)
            .await
            .map_err(a2a(agent))?;
        run.debug(&format!(
            "poll after {} ms: task {} is {}",
            started.elapsed().as_millis(),
            id,
            state(task.status.state)
        ));
        if settled(task.status.state) {
            return Ok(task);
        }
        tokio::time::sleep(interval).await;
        interval = interval
            .mul_f64(1.5)
            .min(max)
            .max(Duration::from_millis(10));
    }
}

/// Prints one stream event: a JSONL line, or a `text` record.
fn print_event(run: &Run, event: &StreamResponse) {
    run.show(event, || output::event(event, run.verbose));
}

/// Follows a stream to its end, printing each event under `--stream`
/// (else only the terminal task), resubscribing after a dropped
/// connection (§9.4: the first event of the new stream is the task).
async fn follow(
    run: &Run,
    agent: &Agent,
    mut events: EventStream,
    print: bool,
) -> Result<(), Failure> {
    let mut snapshot: Option<TaskSnapshot> = None;
    let mut last_had_state = false;
    let mut resumptions = 0u32;
    let deadline = run.timeout.map(|t| Instant::now() + t);
    loop {
        let next = match deadline {
            None => events.next().await,
            Some(d) => match tokio::time::timeout_at(d.into(), events.next()).await {
                Ok(n) => n,
                Err(_) => {
                    let f = Failure::local(
                        code::TIMEOUT,
                        format!(
                            "--timeout expired before the task {} settled",
                            snapshot
                                .as_ref()
                                .map(|s| s.task().id.clone())
                                .unwrap_or_default()
                        ),
                    )
                    .with_hint("a2a task subscribe TASK_ID resumes the stream");
                    return Err(f);
                }
            },
        };
        match next {
            None => break,
            Some(Ok(event)) => {
                if print {
                    print_event(run, &event);
                }
                last_had_state = matches!(
                    event,
                    StreamResponse::Task(_) | StreamResponse::StatusUpdate(_)
                );
                match event {
                    StreamResponse::Message(m) if snapshot.is_none() => {
                        if !print {
                            run.show(&m, || output::message(&m, run.verbose));
                        }
                        return Ok(());
                    }
                    StreamResponse::Task(t) => snapshot = Some(TaskSnapshot::new(t)),
                    other => {
                        if let Some(s) = &mut snapshot {
                            if let Err(e) = s.apply(other) {
                                run.warn(&format!("a stream event did not apply to the task: {e}"));
                            }
                        }
                    }
                }
                if let Some(s) = &snapshot {
                    if settled(s.task().status.state) {
                        break;
                    }
                }
            }
            Some(Err(e)) => {
                let retry = ClientFailure::of(&e).is_some_and(ClientFailure::is_retryable);
                match (&snapshot, retry && resumptions < 5) {
                    (Some(s), true) => {
                        resumptions += 1;
                        let id = s.task().id.clone();
                        run.note(&format!("the stream dropped ({}); resubscribing to task {id} (attempt {resumptions})", e.message()));
                        tokio::time::sleep(Duration::from_millis(100 * u64::from(resumptions)))
                            .await;
                        let request = SubscribeToTaskRequest {
                            id,
                            ..SubscribeToTaskRequest::default()
                        };
                        match agent.transport.subscribe_to_task(&agent.cx, request).await {
                            Ok(again) => {
                                events = again;
                                continue;
                            }
                            Err(e) => return Err(a2a(agent)(e)),
                        }
                    }
                    // Under `-o json --stream`, main prints the error as
                    // the last line (§11.4).
                    _ => return Err(a2a(agent)(e)),
                }
            }
        }
    }
    let Some(s) = snapshot else {
        return Err(Failure::local(
            code::INTERNAL,
            "the stream ended without an event",
        ));
    };
    let task = s.into_task();
    if print {
        if !last_had_state && !run.json {
            // The last record restates the identifiers and state (§11.2).
            let mut r = output::Record::default();
            r.field("Event", "end-of-stream");
            r.field("Task-ID", &task.id);
            r.field("Context-ID", &task.context_id);
            r.field("State", &state(task.status.state));
            run.lines(&r.lines());
        }
    } else {
        run.show(&task, || output::task(&task, false, run.verbose));
    }
    outcome_warning(run, &task);
    Ok(())
}

/// `task get ID [--wait]`.
pub(crate) async fn task_get(run: &Run, id: &str, wait: bool) -> Result<(), Failure> {
    let agent = connect(run).await?;
    let task = if wait {
        bounded(
            run,
            &format!("before task {id} settled"),
            poll(run, &agent, id),
        )
        .await?
    } else {
        let mut request = GetTaskRequest::new(id.to_owned());
        request.history_length = history(run)?;
        bounded(run, "getting the task", async {
            agent
                .transport
                .get_task(&agent.cx, request)
                .await
                .map_err(a2a(&agent))
        })
        .await?
    };
    let with_history = run.settings.get("history").is_some() || run.verbose;
    run.show(&task, || output::task(&task, with_history, run.verbose));
    if wait {
        outcome_warning(run, &task);
    }
    Ok(())
}

/// `task cancel ID`.
pub(crate) async fn task_cancel(run: &Run, id: &str) -> Result<(), Failure> {
    let agent = connect(run).await?;
    let task = bounded(run, "canceling", async {
        agent
            .transport
            .cancel_task(&agent.cx, CancelTaskRequest::new(id.to_owned()))
            .await
            .map_err(a2a(&agent))
    })
    .await?;
    run.show(&task, || output::task(&task, false, run.verbose));
    Ok(())
}

/// `task list`.
pub(crate) async fn task_list(
    run: &Run,
    status: Option<TaskState>,
    page_size: Option<i32>,
    page_token: Option<&str>,
) -> Result<(), Failure> {
    let agent = connect(run).await?;
    let request = ListTasksRequest {
        context_id: run
            .settings
            .get("context-id")
            .unwrap_or_default()
            .to_owned(),
        status: status.unwrap_or_default(),
        page_size,
        page_token: page_token.unwrap_or_default().to_owned(),
        history_length: history(run)?,
        ..ListTasksRequest::default()
    };
    let page = bounded(run, "listing", async {
        agent
            .transport
            .list_tasks(&agent.cx, request)
            .await
            .map_err(a2a(&agent))
    })
    .await?;
    if run.json && run.stream {
        for t in &page.tasks {
            run.json_line(t);
        }
        return Ok(());
    }
    run.show(&page, || {
        let mut out = Vec::new();
        for t in &page.tasks {
            let mut r = output::Record::default();
            r.field("Task-ID", &t.id);
            r.field("Context-ID", &t.context_id);
            r.field("State", &state(t.status.state));
            out.extend(r.lines());
        }
        let mut r = output::Record::default();
        r.field("Tasks", &page.tasks.len().to_string());
        r.field("Total", &page.total_size.to_string());
        if !page.next_page_token.is_empty() {
            r.field("Next-Page-Token", &page.next_page_token);
            r.field(
                "Next-Page",
                &format!("a2a task list --page-token {}", page.next_page_token),
            );
        }
        out.extend(r.lines());
        out
    });
    Ok(())
}

/// `task subscribe ID`.
pub(crate) async fn task_subscribe(run: &Run, id: &str) -> Result<(), Failure> {
    let agent = connect(run).await?;
    if agent.card.card.capabilities.streaming != Some(true) {
        return Err(Failure::from_a2a(&A2aError::unsupported_operation("the agent's card does not declare streaming, so SubscribeToTask is not offered; poll with `a2a task get --wait`"), false)
            .with_hint(format!("a2a task get --wait {id}")));
    }
    let request = SubscribeToTaskRequest {
        id: id.to_owned(),
        ..SubscribeToTaskRequest::default()
    };
    let events = agent
        .transport
        .subscribe_to_task(&agent.cx, request)
        .await
        .map_err(a2a(&agent))?;
    follow(run, &agent, events, run.stream).await
}

/// A file name safe in the download directory.
fn safe_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let cleaned = cleaned.trim_start_matches('.').to_owned();
    if cleaned.is_empty() {
        "artifact".to_owned()
    } else {
        cleaned
    }
}

/// `task download ID`: every artifact part to a file (§7.1).
pub(crate) async fn task_download(run: &Run, id: &str, dir: Option<&str>) -> Result<(), Failure> {
    let agent = connect(run).await?;
    let task = bounded(run, "getting the task", async {
        agent
            .transport
            .get_task(&agent.cx, GetTaskRequest::new(id.to_owned()))
            .await
            .map_err(a2a(&agent))
    })
    .await?;
    let dir = std::path::PathBuf::from(dir.unwrap_or("."));
    std::fs::create_dir_all(&dir)
        .map_err(|e| Failure::local(code::INTERNAL, format!("{}: {e}", dir.display())))?;
    let mut saved: Vec<(String, usize, String)> = Vec::new();
    for a in &task.artifacts {
        for (i, p) in a.parts.iter().enumerate() {
            let base = if !p.filename.is_empty() {
                safe_name(&p.filename)
            } else {
                let ext = match &p.content {
                    PartContent::Text(_) => "txt",
                    PartContent::Data(_) => "json",
                    _ => "bin",
                };
                safe_name(&format!(
                    "{}-{}.{ext}",
                    if a.name.is_empty() {
                        &a.artifact_id
                    } else {
                        &a.name
                    },
                    i + 1
                ))
            };
            let bytes: Vec<u8> = match &p.content {
                PartContent::Text(t) => t.clone().into_bytes(),
                PartContent::Data(v) => serde_json::to_vec_pretty(v).unwrap_or_default(),
                PartContent::Raw(b) => b.clone(),
                PartContent::Url(u) => {
                    let request = http::Request::get(u.as_str())
                        .body(bytes::Bytes::new())
                        .map_err(|e| Failure::local(code::INTERNAL, format!("{u}: {e}")))?;
                    let response = a2a_transport::HttpClient::send(&run.wire, request)
                        .await
                        .map_err(|e| Failure::local(code::UNREACHABLE, format!("{u}: {e}")))?;
                    if !response.status().is_success() {
                        return Err(Failure::local(
                            code::INTERNAL,
                            format!("{u}: HTTP {}", response.status()),
                        ));
                    }
                    crate::agent::read_all(response.into_body())
                        .await
                        .map_err(|e| Failure::local(code::UNREACHABLE, format!("{u}: {e}")))?
                        .to_vec()
                }
            };
            let mut path = dir.join(&base);
            let mut n = 1;
            while path.exists() {
                n += 1;
                path = dir.join(format!("{n}-{base}"));
            }
            std::fs::write(&path, &bytes)
                .map_err(|e| Failure::local(code::INTERNAL, format!("{}: {e}", path.display())))?;
            saved.push((
                path.display().to_string(),
                bytes.len(),
                p.media_type.clone(),
            ));
        }
    }
    if run.json {
        run.json_line(&task);
        for (p, n, _) in &saved {
            run.note(&format!("saved {p} ({n} bytes)"));
        }
    } else {
        let mut r = output::Record::default();
        r.field("Task-ID", &task.id);
        r.field("Context-ID", &task.context_id);
        r.field("State", &state(task.status.state));
        r.field("Files", &saved.len().to_string());
        for (p, n, m) in &saved {
            r.field(
                "Saved",
                &format!(
                    "{p} ({n} bytes{})",
                    if m.is_empty() {
                        String::new()
                    } else {
                        format!(", {m}")
                    }
                ),
            );
        }
        run.lines(&r.lines());
    }
    Ok(())
}

/// The push-config commands.
pub(crate) async fn push(run: &Run, command: &crate::args::Command) -> Result<(), Failure> {
    use crate::args::Command as C;
    let agent = connect(run).await?;
    if agent.card.card.capabilities.push_notifications != Some(true) {
        return Err(Failure::from_a2a(&A2aError::push_notification_not_supported(), agent.credentials)
            .with_hint("the agent's card does not declare capabilities.pushNotifications; poll with `a2a task get --wait` instead"));
    }
    let e = a2a(&agent);
    match command {
        C::PushCreate {
            task,
            url,
            token,
            config_id,
        } => {
            let mut config = TaskPushNotificationConfig::new(url.clone());
            config.task_id.clone_from(task);
            config.token = token.clone().unwrap_or_default();
            config.id = config_id.clone().unwrap_or_default();
            let created = bounded(run, "creating", async {
                agent
                    .transport
                    .create_task_push_notification_config(&agent.cx, config)
                    .await
                    .map_err(&e)
            })
            .await?;
            run.show(&created, || output::push_config(&created));
        }
        C::PushGet { task, id } => {
            let request = GetTaskPushNotificationConfigRequest {
                task_id: task.clone(),
                id: id.clone(),
                ..GetTaskPushNotificationConfigRequest::default()
            };
            let config = bounded(run, "getting", async {
                agent
                    .transport
                    .get_task_push_notification_config(&agent.cx, request)
                    .await
                    .map_err(&e)
            })
            .await?;
            run.show(&config, || output::push_config(&config));
        }
        C::PushList(task) => {
            let request = ListTaskPushNotificationConfigsRequest {
                task_id: task.clone(),
                ..ListTaskPushNotificationConfigsRequest::default()
            };
            let list = bounded(run, "listing", async {
                agent
                    .transport
                    .list_task_push_notification_configs(&agent.cx, request)
                    .await
                    .map_err(&e)
            })
            .await?;
            run.show(&list, || {
                let mut out: Vec<String> =
                    list.configs.iter().flat_map(output::push_config).collect();
                let mut r = output::Record::default();
                r.field("Task-ID", task);
                r.field("Configs", &list.configs.len().to_string());
                out.extend(r.lines());
                out
            });
        }
        C::PushDelete { task, id } => {
            let request = DeleteTaskPushNotificationConfigRequest {
                task_id: task.clone(),
                id: id.clone(),
                ..DeleteTaskPushNotificationConfigRequest::default()
            };
            bounded(run, "deleting", async {
                agent
                    .transport
                    .delete_task_push_notification_config(&agent.cx, request)
                    .await
                    .map_err(&e)
            })
            .await?;
            run.show(&a2a_types::Empty, || {
                let mut r = output::Record::default();
                r.field("Deleted", id);
                r.field("Task-ID", task);
                r.lines()
            });
        }
        _ => {}
    }
    Ok(())
}
