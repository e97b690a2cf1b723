//! The `text` output (a2a-cli spec §11.2): one `Label: value` field per
//! line, the same labels every time, no control sequences; content that
//! does not fit on a line (a text artifact, a data part) as a block: its
//! `Label:` line, the content, a blank line. A record's fields come
//! first, its blocks after them, so the two never interleave.

use a2a_types::{
    AgentCard, Artifact, Message, Part, PartContent, StreamResponse, Task,
    TaskPushNotificationConfig, TaskState,
};

/// A state in its short form: `COMPLETED`, `INPUT_REQUIRED`,
/// `UNSPECIFIED` (reported as received, §9.1).
pub(crate) fn state(s: TaskState) -> String {
    s.as_str_name().trim_start_matches("TASK_STATE_").to_owned()
}

/// Whether waiting stops at this state (terminal or interrupted; §9.1).
pub(crate) fn settled(s: TaskState) -> bool {
    s.is_terminal() || s.is_interrupted()
}

fn field(out: &mut Vec<String>, label: &str, value: &str) {
    out.push(format!("{label}: {}", crate::failure::one_line(value)));
}

/// A record: fields, then blocks.
#[derive(Debug, Default)]
pub(crate) struct Record {
    fields: Vec<String>,
    blocks: Vec<String>,
}

impl Record {
    /// Adds a field.
    pub(crate) fn field(&mut self, label: &str, value: &str) {
        field(&mut self.fields, label, value);
    }

    /// Adds a block.
    pub(crate) fn block(&mut self, label: &str, content: &str) {
        self.blocks.push(format!("{label}:"));
        for line in content.trim_end_matches('\n').lines() {
            // A blank line would close the block early.
            self.blocks.push(if line.trim().is_empty() {
                " ".to_owned()
            } else {
                line.to_owned()
            });
        }
        self.blocks.push(String::new());
    }

    /// The lines: fields, then blocks, then a blank line when there were
    /// no blocks (records are separated by one blank line).
    pub(crate) fn lines(self) -> Vec<String> {
        let mut out = self.fields;
        if self.blocks.is_empty() {
            out.push(String::new());
        } else {
            out.extend(self.blocks);
        }
        out
    }
}

/// A part's block label and content (§10.2: text as text, data as JSON, a
/// file by name, media type and size; never dropped).
pub(crate) fn part_block(p: &Part) -> (&'static str, String) {
    let media = if p.media_type.is_empty() {
        "unspecified"
    } else {
        &p.media_type
    };
    let name = if p.filename.is_empty() {
        "(none)"
    } else {
        &p.filename
    };
    match &p.content {
        PartContent::Text(t) => ("text", t.clone()),
        PartContent::Data(v) => (
            "data",
            serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string()),
        ),
        PartContent::Raw(bytes) => (
            "file",
            format!("name: {name}\nmedia-type: {media}\nsize: {} bytes\n(`a2a task download TASK_ID` saves it)", bytes.len()),
        ),
        PartContent::Url(url) => ("file", format!("name: {name}\nmedia-type: {media}\nurl: {url}")),
    }
}

fn parts_summary(ps: &[Part]) -> String {
    ps.iter()
        .map(|p| match &p.content {
            PartContent::Text(t) => t.clone(),
            PartContent::Data(v) => v.to_string(),
            PartContent::Raw(b) => format!("[file {}, {} bytes]", p.filename, b.len()),
            PartContent::Url(u) => format!("[file {u}]"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn artifact_blocks(r: &mut Record, a: &Artifact, verbose: bool) {
    let name = if a.name.is_empty() {
        a.artifact_id.clone()
    } else {
        format!("{} ({})", a.name, a.artifact_id)
    };
    let n = a.parts.len();
    for (i, p) in a.parts.iter().enumerate() {
        let (kind, content) = part_block(p);
        let of = if n > 1 {
            format!(" part {}/{n}", i + 1)
        } else {
            String::new()
        };
        r.block(&format!("Artifact {name}{of} [{kind}]"), &content);
    }
    if verbose {
        if let Some(m) = &a.metadata {
            r.block(
                &format!("Artifact {name} [metadata]"),
                &serde_json::to_string_pretty(m).unwrap_or_default(),
            );
        }
    }
}

/// How to act on a task in this state (§8.2: the exact command).
pub(crate) fn next_step(t: &Task) -> Option<String> {
    match t.status.state {
        TaskState::InputRequired => Some(format!("a2a send --task-id {} \"<reply>\"", t.id)),
        TaskState::AuthRequired => Some(format!(
            "a2a send --task-id {} --bearer <token> \"<reply>\" (or a2a auth login, then the same send)",
            t.id
        )),
        s if !s.is_terminal() => Some(format!("a2a task get --wait {}", t.id)),
        _ => None,
    }
}

/// A task: its identifiers and state, the status message, then artifacts
/// (always) and history messages (when it has any and `history`).
pub(crate) fn task(t: &Task, history: bool, verbose: bool) -> Vec<String> {
    let mut r = Record::default();
    r.field("Task-ID", &t.id);
    r.field("Context-ID", &t.context_id);
    r.field("State", &state(t.status.state));
    if let Some(m) = &t.status.message {
        r.field("Status-Message", &parts_summary(&m.parts));
    }
    if verbose {
        if let Some(ts) = &t.status.timestamp {
            r.field(
                "Status-Time",
                &serde_json::to_value(ts)
                    .map(|v| v.as_str().unwrap_or_default().to_owned())
                    .unwrap_or_default(),
            );
        }
    }
    r.field("Artifacts", &t.artifacts.len().to_string());
    if history {
        r.field("History", &t.history.len().to_string());
    }
    if let Some(step) = next_step(t) {
        let label = if t.status.state.is_interrupted() {
            "Resume"
        } else {
            "Follow"
        };
        r.field(label, &step);
    }
    for a in &t.artifacts {
        artifact_blocks(&mut r, a, verbose);
    }
    if history {
        for (i, m) in t.history.iter().enumerate() {
            for p in &m.parts {
                let (kind, content) = part_block(p);
                r.block(&format!("History {} {} [{kind}]", i + 1, role(m)), &content);
            }
        }
    }
    r.lines()
}

fn role(m: &Message) -> &'static str {
    match m.role.as_str_name() {
        "ROLE_USER" => "user",
        "ROLE_AGENT" => "agent",
        _ => "unspecified",
    }
}

/// A message (a direct reply: no task was created).
pub(crate) fn message(m: &Message, verbose: bool) -> Vec<String> {
    let mut r = Record::default();
    r.field("Message-ID", &m.message_id);
    if !m.context_id.is_empty() {
        r.field("Context-ID", &m.context_id);
    }
    if !m.task_id.is_empty() {
        r.field("Task-ID", &m.task_id);
    }
    r.field("Role", role(m));
    for p in &m.parts {
        let (kind, content) = part_block(p);
        r.block(&format!("Message [{kind}]"), &content);
    }
    if verbose {
        if let Some(md) = &m.metadata {
            r.block(
                "Message [metadata]",
                &serde_json::to_string_pretty(md).unwrap_or_default(),
            );
        }
    }
    r.lines()
}

/// One stream event.
pub(crate) fn event(e: &StreamResponse, verbose: bool) -> Vec<String> {
    match e {
        StreamResponse::Task(t) => {
            let mut out = vec!["Event: task".to_owned()];
            out.extend(task(t, false, verbose));
            out
        }
        StreamResponse::Message(m) => {
            let mut out = vec!["Event: message".to_owned()];
            out.extend(message(m, verbose));
            out
        }
        StreamResponse::StatusUpdate(u) => {
            let mut r = Record::default();
            r.field("Event", "status-update");
            r.field("Task-ID", &u.task_id);
            r.field("Context-ID", &u.context_id);
            r.field("State", &state(u.status.state));
            if let Some(m) = &u.status.message {
                r.field("Status-Message", &parts_summary(&m.parts));
            }
            r.lines()
        }
        StreamResponse::ArtifactUpdate(u) => {
            let mut r = Record::default();
            r.field("Event", "artifact-update");
            r.field("Task-ID", &u.task_id);
            r.field("Context-ID", &u.context_id);
            r.field("Artifact-ID", &u.artifact.artifact_id);
            r.field("Append", if u.append { "yes" } else { "no" });
            r.field("Last-Chunk", if u.last_chunk { "yes" } else { "no" });
            artifact_blocks(&mut r, &u.artifact, verbose);
            r.lines()
        }
    }
}

/// A push notification config.
pub(crate) fn push_config(c: &TaskPushNotificationConfig) -> Vec<String> {
    let mut r = Record::default();
    r.field("Config-ID", &c.id);
    r.field("Task-ID", &c.task_id);
    r.field("URL", &c.url);
    r.field(
        "Token",
        if c.token.is_empty() {
            "(none)"
        } else {
            crate::wire::REDACTED
        },
    );
    if let Some(a) = &c.authentication {
        r.field("Authentication", &a.scheme);
    }
    r.lines()
}

/// The card (§10.1: identity, capabilities, interfaces, schemes, skills).
pub(crate) fn card(c: &AgentCard, from: &str, verbose: bool) -> Record {
    let mut r = Record::default();
    r.field("Name", &c.name);
    r.field("Description", &c.description);
    r.field("Version", &c.version);
    r.field("Card-Source", from);
    for i in &c.supported_interfaces {
        let tenant = if i.tenant.is_empty() {
            String::new()
        } else {
            format!(" tenant={}", i.tenant)
        };
        r.field(
            "Interface",
            &format!(
                "{} {} {}{tenant}",
                i.protocol_binding, i.protocol_version, i.url
            ),
        );
    }
    let yes = |b: Option<bool>| if b == Some(true) { "yes" } else { "no" };
    r.field("Streaming", yes(c.capabilities.streaming));
    r.field("Push-Notifications", yes(c.capabilities.push_notifications));
    r.field("Extended-Card", yes(c.capabilities.extended_agent_card));
    for e in &c.capabilities.extensions {
        r.field(
            "Extension",
            &format!("{}{}", e.uri, if e.required { " (required)" } else { "" }),
        );
    }
    for (name, s) in &c.security_schemes {
        let what = match s {
            a2a_types::SecurityScheme::ApiKey(k) => {
                format!("apiKey in {} {:?}", k.location, k.name)
            }
            a2a_types::SecurityScheme::HttpAuth(h) => format!("http {}", h.scheme),
            a2a_types::SecurityScheme::OAuth2(_) => "oauth2".to_owned(),
            a2a_types::SecurityScheme::OpenIdConnect(o) => {
                format!("openIdConnect {}", o.open_id_connect_url)
            }
            a2a_types::SecurityScheme::MutualTls(_) => "mutualTLS".to_owned(),
        };
        r.field("Security-Scheme", &format!("{name}: {what}"));
    }
    for s in &c.skills {
        r.field("Skill", &format!("{}: {}", s.id, s.name));
    }
    if verbose {
        for s in &c.skills {
            r.block(&format!("Skill {}", s.id), &s.description);
        }
    }
    r
}
