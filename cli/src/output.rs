//! The readable output: one function per kind of answer, each returning
//! the lines to print (so that tests read them without a terminal).

use a2a_types::{
    A2aError, AgentCard, Artifact, Message, Part, PartContent, StreamResponse, Task,
    TaskPushNotificationConfig, TaskState,
};

/// `TASK_STATE_INPUT_REQUIRED` as `input-required`.
pub(crate) fn state(s: TaskState) -> String {
    s.as_str_name()
        .trim_start_matches("TASK_STATE_")
        .to_ascii_lowercase()
        .replace('_', "-")
}

/// One part, in a line: text as is, data as JSON, files by name and type.
pub(crate) fn part(p: &Part) -> String {
    match &p.content {
        PartContent::Text(t) => t.clone(),
        PartContent::Data(v) => v.to_string(),
        PartContent::Raw(bytes) => {
            format!("[file {}{} bytes{}]", name_of(p), bytes.len(), media_of(p))
        }
        PartContent::Url(url) => format!("[file {}at {url}{}]", name_of(p), media_of(p)),
    }
}

fn name_of(p: &Part) -> String {
    if p.filename.is_empty() {
        String::new()
    } else {
        format!("{:?}, ", p.filename)
    }
}

fn media_of(p: &Part) -> String {
    if p.media_type.is_empty() {
        String::new()
    } else {
        format!(", {}", p.media_type)
    }
}

fn parts(ps: &[Part]) -> String {
    ps.iter().map(part).collect::<Vec<_>>().join(" ")
}

/// A message from the agent (or the user, in a history).
pub(crate) fn message(m: &Message) -> String {
    let who = match m.role.as_str_name() {
        "ROLE_USER" => "user",
        _ => "agent",
    };
    format!("{who}: {}", parts(&m.parts))
}

fn artifact(a: &Artifact) -> String {
    let name = if a.name.is_empty() {
        &a.artifact_id
    } else {
        &a.name
    };
    format!("artifact {name}: {}", parts(&a.parts))
}

/// A task: its id and state, then its status message and artifacts, and
/// its history when `history` (the user asked for it: `get`).
pub(crate) fn task(t: &Task, history: bool) -> Vec<String> {
    let mut out = vec![format!(
        "task {}  {}  (context {})",
        t.id,
        state(t.status.state),
        t.context_id
    )];
    if let Some(m) = &t.status.message {
        out.push(format!("  {}", message(m)));
    }
    for a in &t.artifacts {
        out.push(format!("  {}", artifact(a)));
    }
    if history && !t.history.is_empty() {
        let n = t.history.len();
        out.push(format!(
            "  history ({n} message{}):",
            if n == 1 { "" } else { "s" }
        ));
        for m in &t.history {
            out.push(format!("    {}", message(m)));
        }
    }
    out
}

/// A stream event, in a line.
pub(crate) fn event(e: &StreamResponse) -> String {
    match e {
        StreamResponse::Task(t) => task(t, false).join("\n"),
        StreamResponse::Message(m) => message(m),
        StreamResponse::StatusUpdate(u) => {
            let mut line = format!("status {}", state(u.status.state));
            if let Some(m) = &u.status.message {
                line.push_str(&format!("  {}", message(m)));
            }
            line
        }
        StreamResponse::ArtifactUpdate(u) => {
            let mut line = artifact(&u.artifact);
            if u.append {
                line.push_str("  (appended)");
            }
            if u.last_chunk {
                line.push_str("  (last chunk)");
            }
            line
        }
    }
}

/// The agent card, in a few lines.
pub(crate) fn card(c: &AgentCard) -> Vec<String> {
    let mut out = vec![format!("{} (version {})", c.name, c.version)];
    if !c.description.is_empty() {
        out.push(format!("  {}", c.description));
    }
    for i in &c.supported_interfaces {
        let tenant = if i.tenant.is_empty() {
            String::new()
        } else {
            format!(" (tenant {})", i.tenant)
        };
        out.push(format!(
            "  interface {} {} at {}{tenant}",
            i.protocol_binding, i.protocol_version, i.url
        ));
    }
    let yes = |b: Option<bool>| if b == Some(true) { "yes" } else { "no" };
    out.push(format!(
        "  streaming {}, push notifications {}, extended card {}",
        yes(c.capabilities.streaming),
        yes(c.capabilities.push_notifications),
        yes(c.capabilities.extended_agent_card)
    ));
    if !c.security_schemes.is_empty() {
        let schemes: Vec<&str> = c.security_schemes.keys().map(String::as_str).collect();
        out.push(format!("  security schemes: {}", schemes.join(", ")));
    }
    for s in &c.skills {
        out.push(format!("  skill {}: {}", s.id, s.description));
    }
    out
}

/// A push notification config, in a line.
pub(crate) fn push_config(c: &TaskPushNotificationConfig) -> String {
    let mut line = format!("push config {} of task {} -> {}", c.id, c.task_id, c.url);
    if !c.token.is_empty() {
        line.push_str(&format!("  (token {})", c.token));
    }
    line
}

/// An A2A error: its kind, codes and message, then each detail as JSON.
pub(crate) fn error(e: &A2aError) -> Vec<String> {
    // The HTTP status only when one came with the error: a JSON-RPC error
    // travels in a 200 answer (spec 9.5).
    let status = match e.received_status() {
        Some(s) => format!(", HTTP {s}"),
        None => String::new(),
    };
    let mut out = vec![format!(
        "error: {} (code {}{status}): {}",
        e.kind().name(),
        e.code(),
        e.message()
    )];
    for d in e.details() {
        out.push(format!("  detail: {}", d.to_value()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::{ErrorKind, Role, TaskStatus};

    #[test]
    fn tasks_events_and_errors_read_well() {
        assert_eq!(state(TaskState::InputRequired), "input-required");
        let mut t = Task::new("t1", "c1", TaskState::Completed);
        t.artifacts.push(Artifact::text("a1", "hi"));
        t.status.message = Some(Message::new(Role::Agent, "m", vec![Part::text("done")]));
        t.history.push(Message::user_text("u", "hello"));
        assert_eq!(
            task(&t, true).last().map(String::as_str),
            Some("    user: hello")
        );
        t.history.clear();
        assert_eq!(
            task(&t, false),
            [
                "task t1  completed  (context c1)",
                "  agent: done",
                "  artifact a1: hi"
            ]
        );
        let file = Part::raw(vec![1, 2, 3])
            .with_filename("a.bin")
            .with_media_type("application/octet-stream");
        assert_eq!(
            part(&file),
            "[file \"a.bin\", 3 bytes, application/octet-stream]"
        );
        assert_eq!(part(&Part::data(serde_json::json!({"k": 1}))), "{\"k\":1}");
        let e = A2aError::task_not_found("nope");
        let lines = error(&e);
        assert!(
            lines[0].starts_with("error: TaskNotFoundError (code -32001): "),
            "{lines:?}"
        );
        assert!(lines[1].contains("TASK_NOT_FOUND"), "{lines:?}");
        assert_eq!(e.kind(), ErrorKind::TaskNotFound);
        let e = e.with_received_status(404);
        assert!(error(&e)[0].contains("(code -32001, HTTP 404)"));
        let u = StreamResponse::StatusUpdate(a2a_types::TaskStatusUpdateEvent::new(
            "t1",
            "c1",
            TaskStatus::new(TaskState::Working),
        ));
        assert_eq!(event(&u), "status working");
    }
}
