//! How a report describes what it saw: errors, states, stream events,
//! long text. Plain functions over the model, used by the scenarios and
//! the contract probes alike.

use a2a_types::{A2aError, ErrorKind, StreamResponse, TaskState};

/// An error as a report shows it: `TaskNotFoundError (-32001): message`.
pub fn describe_error(e: &A2aError) -> String {
    let name = match e.kind() {
        ErrorKind::Unknown => "unknown error".to_owned(),
        k => k.name().to_owned(),
    };
    let mut message = e.message().to_owned();
    if message.len() > 200 {
        let mut end = 200;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
        message.push('…');
    }
    format!("{name} ({}): {message}", e.code())
}

/// The state's name without its prefix: `COMPLETED`.
pub fn state_name(state: TaskState) -> &'static str {
    state.as_str_name().trim_start_matches("TASK_STATE_")
}

/// A compact description of a stream event: `task:SUBMITTED`,
/// `status:WORKING`, `artifact:<text>[+][!]`, `message:<text>`.
pub fn describe_event(e: &StreamResponse) -> String {
    match e {
        StreamResponse::Task(t) => format!("task:{}", state_name(t.status.state)),
        StreamResponse::StatusUpdate(s) => format!("status:{}", state_name(s.status.state)),
        StreamResponse::ArtifactUpdate(a) => format!(
            "artifact:{}{}{}",
            a.artifact.text_content().unwrap_or_default().trim(),
            if a.append { "+" } else { "" },
            if a.last_chunk { "!" } else { "" }
        ),
        StreamResponse::Message(m) => format!("message:{}", m.text_content().unwrap_or_default()),
    }
}

/// [`describe_event`] of each event, joined.
pub fn describe_events(events: &[StreamResponse]) -> String {
    let parts: Vec<String> = events.iter().map(describe_event).collect();
    format!("[{}]", parts.join(", "))
}

/// `text` cut to 300 bytes.
pub fn abbreviate(text: &str) -> String {
    if text.len() <= 300 {
        return text.to_owned();
    }
    let mut end = 300;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}
