//! The command line: a small hand parser (the workspace's other binaries
//! parse theirs the same way; docs/decisions.md says why not `clap`).
//!
//! The grammar is the a2a-cli specification's (v0.2, §7): `a2a <command>
//! [arguments] [options]`, options anywhere on the line. The commands of
//! the previous release (`a2a card URL`, `a2a get URL ID`, `--json`, ...)
//! are still read, for one release, as aliases of the spec's names; each
//! use adds a note that [`Parsed::notes`] carries to standard error.

use crate::settings::Flags;

/// A message part given on `send` (§10.2), in command-line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PartSpec {
    /// What the part is made from.
    pub(crate) kind: PartKind,
    /// `--media-type` following the part flag.
    pub(crate) media_type: Option<String>,
}

/// The source of a message part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PartKind {
    /// `--text` or the positional message text.
    Text(String),
    /// `--file`: a local path (inline bytes) or an `http(s)` URL (a
    /// file-with-uri part).
    File(String),
    /// `--data`: a JSON file, or `-` for standard input.
    Data(String),
}

/// `auth login`'s OAuth flow (§12.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// RFC 8628 device authorization.
    DeviceCode,
    /// The client-credentials grant.
    ClientCredentials,
}

/// What to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Command {
    /// `card get`.
    CardGet {
        /// `--validate`.
        validate: bool,
        /// `--extended`.
        extended: bool,
        /// `--jwks`: trusted keys for the card's signatures.
        jwks: Option<String>,
    },
    /// `send`.
    Send {
        /// The parts, in order.
        parts: Vec<PartSpec>,
    },
    /// `task get ID`.
    TaskGet {
        /// The task.
        id: String,
        /// `--wait` / `--watch`: poll to a terminal or interrupted state.
        wait: bool,
    },
    /// `task cancel ID`.
    TaskCancel(String),
    /// `task list`.
    TaskList {
        /// `--status`.
        status: Option<a2a_types::TaskState>,
        /// `--page-size`.
        page_size: Option<i32>,
        /// `--page-token`.
        page_token: Option<String>,
    },
    /// `task subscribe ID`.
    TaskSubscribe(String),
    /// `task download ID`.
    TaskDownload {
        /// The task.
        id: String,
        /// `--dir` (default: the working directory).
        dir: Option<String>,
    },
    /// `task push-config create TASK_ID --url URL`.
    PushCreate {
        /// The task.
        task: String,
        /// The webhook.
        url: String,
        /// `--token`.
        token: Option<String>,
        /// `--config-id`.
        config_id: Option<String>,
    },
    /// `task push-config get TASK_ID CONFIG_ID`.
    PushGet {
        /// The task.
        task: String,
        /// The config.
        id: String,
    },
    /// `task push-config list TASK_ID`.
    PushList(String),
    /// `task push-config delete TASK_ID CONFIG_ID`.
    PushDelete {
        /// The task.
        task: String,
        /// The config.
        id: String,
    },
    /// `config show`.
    ConfigShow,
    /// `auth login`.
    AuthLogin {
        /// `--flow`; by default what the card's scheme offers.
        flow: Option<Flow>,
        /// `--client-id`.
        client_id: Option<String>,
        /// `--client-secret`.
        client_secret: Option<String>,
        /// `--scope` (repeatable).
        scopes: Vec<String>,
        /// `--scheme`: which of the card's security schemes.
        scheme: Option<String>,
    },
    /// `auth logout`.
    AuthLogout,
    /// `auth status`.
    AuthStatus,
    /// `chat`.
    Chat,
    /// `demo-server`.
    DemoServer {
        /// `--port` (default 8080; 0 picks a free one).
        port: u16,
        /// `--bearer` tokens the demo agent requires.
        bearer: Vec<String>,
    },
    /// `conformance [AGENT]`.
    Conformance {
        /// `--contract`.
        contract: Option<String>,
        /// `--binding` (repeatable).
        bindings: Vec<String>,
        /// `--only` (repeatable).
        only: Vec<String>,
        /// `--report-json`.
        json: Option<String>,
        /// `--report-html`.
        html: Option<String>,
        /// `--report-junit`.
        junit: Option<String>,
    },
    /// `completion SHELL`.
    Completion(String),
    /// `webhook serve`: a local push-notification receiver.
    WebhookServe {
        /// `--listen` (default 127.0.0.1:0).
        listen: String,
        /// `--token` the notifications must carry.
        token: Option<String>,
        /// `--count`: stop after this many notifications.
        count: Option<u32>,
    },
    /// `help [COMMAND...]` or `--help`.
    Help(Vec<String>),
    /// `-v` / `--version`.
    Version,
}

/// A parsed command line.
#[derive(Debug, Clone)]
pub(crate) struct Parsed {
    /// The command.
    pub(crate) command: Command,
    /// The options given as flags, for the settings' precedence.
    pub(crate) flags: Flags,
    /// Notes for standard error (aliases of the previous release).
    pub(crate) notes: Vec<String>,
}

/// The commands, for `--help`, `completion` and the usage errors.
pub(crate) const COMMANDS: &[&str] = &[
    "auth login",
    "auth logout",
    "auth status",
    "card get",
    "chat",
    "completion",
    "config show",
    "conformance",
    "demo-server",
    "help",
    "send",
    "task cancel",
    "task download",
    "task get",
    "task list",
    "task push-config create",
    "task push-config delete",
    "task push-config get",
    "task push-config list",
    "task subscribe",
    "webhook serve",
];

/// Every long option, for `completion`.
pub(crate) const OPTIONS: &[&str] = &[
    "--a2a-version",
    "--agent-card",
    "--api-key",
    "--async",
    "--bearer",
    "--cert",
    "--client-id",
    "--client-secret",
    "--config",
    "--config-id",
    "--context-id",
    "--contract",
    "--count",
    "--data",
    "--debug",
    "--dir",
    "--extended",
    "--extension",
    "--file",
    "--flow",
    "--help",
    "--history",
    "--insecure",
    "--jwks",
    "--key",
    "--listen",
    "--media-type",
    "--message-id",
    "--metadata",
    "--no-wait",
    "--only",
    "--output",
    "--page-size",
    "--page-token",
    "--poll-interval",
    "--port",
    "--report-html",
    "--report-json",
    "--report-junit",
    "--return-immediately",
    "--scheme",
    "--scope",
    "--status",
    "--stream",
    "--svc-param",
    "--task-id",
    "--tenant",
    "--text",
    "--timeout",
    "--token",
    "--transport",
    "--url",
    "--validate",
    "--verbose",
    "--version",
    "--wait",
    "--watch",
];

/// Options that take a value and set a setting (§7.2), with the setting's
/// name.
const VALUED: &[(&str, &str)] = &[
    ("--a2a-version", "a2a-version"),
    ("--agent-card", "agent-card"),
    ("-a", "agent-card"),
    ("--api-key", "api-key"),
    ("--bearer", "bearer"),
    ("--cert", "cert"),
    ("--config", "config"),
    ("--context-id", "context-id"),
    ("--extension", "extension"),
    ("--key", "key"),
    ("--message-id", "message-id"),
    ("--metadata", "metadata"),
    ("--output", "output"),
    ("-o", "output"),
    ("--poll-interval", "poll-interval"),
    ("--svc-param", "svc-param"),
    ("--task-id", "task-id"),
    ("--tenant", "tenant"),
    ("--timeout", "timeout"),
    ("--transport", "transport"),
    ("--history", "history"),
];

/// Switches that set a setting to `true` (or `false`).
const SWITCHES: &[(&str, &str, &str)] = &[
    ("--async", "async", "true"),
    ("--no-wait", "async", "true"),
    ("--return-immediately", "async", "true"),
    ("--wait", "async", "false"),
    ("--watch", "async", "false"),
    ("--debug", "debug", "true"),
    ("--insecure", "insecure", "true"),
    ("--verbose", "verbose", "true"),
];

/// Parses the arguments after the program name.
pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<Parsed, String> {
    let mut flags = Flags::default();
    let mut notes = Vec::new();
    let mut positional: Vec<String> = Vec::new();
    let mut parts: Vec<PartSpec> = Vec::new();
    let mut local: Vec<(String, String)> = Vec::new();
    let mut switches: Vec<&'static str> = Vec::new();
    let mut help = false;
    let mut version = false;
    let mut explicit_wait = false;
    let mut args = args.into_iter().peekable();
    while let Some(arg) = args.next() {
        // `--flag=value` is `--flag value`.
        let (arg, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg, None),
        };
        let mut value = |name: &str| match &inline {
            Some(v) => Ok(v.clone()),
            None => args.next().ok_or_else(|| format!("{name} needs a value")),
        };
        if let Some((_, key)) = VALUED.iter().find(|(f, _)| *f == arg) {
            let v = value(&arg)?;
            flags.set(key, v);
            continue;
        }
        if let Some((_, key, v)) = SWITCHES.iter().find(|(f, _, _)| *f == arg) {
            if *key == "async" && *v == "false" {
                explicit_wait = true;
            }
            flags.set(key, (*v).to_owned());
            continue;
        }
        match arg.as_str() {
            "-h" | "--help" => help = true,
            "-v" | "--version" => version = true,
            "--stream" => flags.stream = true,
            "--text" => parts.push(part(PartKind::Text(value("--text")?))),
            "--file" => parts.push(part(PartKind::File(value("--file")?))),
            "--data" => parts.push(part(PartKind::Data(value("--data")?))),
            "--media-type" => {
                let v = value("--media-type")?;
                match parts.last_mut() {
                    Some(p) if p.media_type.is_none() => p.media_type = Some(v),
                    _ => {
                        return Err(
                            "--media-type binds to the part flag before it (--text, --file or --data); none precedes it"
                                .to_owned(),
                        )
                    }
                }
            }
            "--validate" | "--extended" => switches.push(if arg == "--validate" {
                "validate"
            } else {
                "extended"
            }),
            "--status" | "--page-size" | "--page-token" | "--dir" | "--url" | "--token"
            | "--jwks" | "--config-id" | "--flow" | "--client-id" | "--client-secret"
            | "--scope" | "--scheme" | "--port" | "--contract" | "--only" | "--report-json"
            | "--report-html" | "--report-junit" | "--listen" | "--count" | "--binding"
            | "--header" | "--context" | "--task" | "--json" => {
                // Command options (and the previous release's spellings,
                // which need translating).
                match arg.as_str() {
                    "--json" => {
                        notes.push(note("--json", "-o json"));
                        flags.set("output", "json".to_owned());
                    }
                    "--binding"
                        if positional.first().map(String::as_str) != Some("conformance") =>
                    {
                        notes.push(note("--binding", "--transport"));
                        flags.set("transport", value("--binding")?);
                    }
                    "--header" => {
                        notes.push(note("--header 'Name: value'", "--svc-param Name:value"));
                        let h = value("--header")?;
                        let (k, v) = h
                            .split_once(':')
                            .ok_or_else(|| format!("--header {h:?}: expected 'Name: value'"))?;
                        flags.set("svc-param", format!("{}:{}", k.trim(), v.trim()));
                    }
                    "--context" => {
                        notes.push(note("--context", "--context-id"));
                        flags.set("context-id", value("--context")?);
                    }
                    "--task" => {
                        notes.push(note("--task", "--task-id"));
                        flags.set("task-id", value("--task")?);
                    }
                    _ => local.push((arg.clone(), value(&arg)?)),
                }
            }
            "-V" => {
                notes.push(note("-V", "-v/--version"));
                version = true;
            }
            flag if flag.starts_with("--") || (flag.starts_with('-') && flag.len() > 1) => {
                return Err(format!("unknown option {flag:?} (see a2a --help)"))
            }
            _ => positional.push(arg),
        }
    }
    if version && !help {
        return Ok(Parsed {
            command: Command::Version,
            flags,
            notes,
        });
    }
    if help || positional.first().map(String::as_str) == Some("help") {
        let topic = positional
            .into_iter()
            .skip_while(|p| p == "help")
            .collect::<Vec<_>>();
        return Ok(Parsed {
            command: Command::Help(topic),
            flags,
            notes,
        });
    }
    let cmd = Cmd {
        local,
        switches,
        explicit_wait,
    };
    let command = command(&mut positional, parts, &cmd, &mut flags, &mut notes)?;
    Ok(Parsed {
        command,
        flags,
        notes,
    })
}

fn part(kind: PartKind) -> PartSpec {
    PartSpec {
        kind,
        media_type: None,
    }
}

/// The note for a spelling of the previous release.
fn note(old: &str, new: &str) -> String {
    format!("a2a: note: `{old}` is the previous release's name; the a2a-cli specification's is `{new}` (the old one is read for this release only)")
}

/// The command options besides the settings.
struct Cmd {
    local: Vec<(String, String)>,
    switches: Vec<&'static str>,
    explicit_wait: bool,
}

impl Cmd {
    fn get(&self, flag: &str) -> Option<String> {
        self.local
            .iter()
            .rev()
            .find(|(f, _)| f == flag)
            .map(|(_, v)| v.clone())
    }

    fn all(&self, flag: &str) -> Vec<String> {
        self.local
            .iter()
            .filter(|(f, _)| f == flag)
            .map(|(_, v)| v.clone())
            .collect()
    }

    fn has(&self, switch: &str) -> bool {
        self.switches.contains(&switch)
    }

    /// Refuses command options that `name` does not take.
    fn only(&self, name: &str, allowed: &[&str]) -> Result<(), String> {
        for (flag, _) in &self.local {
            if !allowed.contains(&flag.as_str()) {
                return Err(format!(
                    "{name} does not take {flag} (see a2a {name} --help)"
                ));
            }
        }
        for s in &self.switches {
            if !allowed.contains(&format!("--{s}").as_str()) {
                return Err(format!("{name} does not take --{s}"));
            }
        }
        Ok(())
    }
}

fn command(
    positional: &mut Vec<String>,
    parts: Vec<PartSpec>,
    cmd: &Cmd,
    flags: &mut Flags,
    notes: &mut Vec<String>,
) -> Result<Command, String> {
    if positional.is_empty() {
        return Err("no command given (see a2a --help)".to_owned());
    }
    let first = positional.remove(0);
    // The previous release's commands: `a2a <command> <URL> ...`.
    let old = |new: &str, notes: &mut Vec<String>| notes.push(note(&first, new));
    let takes_parts = first == "send" || first == "stream";
    if !takes_parts && !parts.is_empty() {
        return Err("--text, --file and --data belong to send".to_owned());
    }
    let old_url = |positional: &mut Vec<String>, flags: &mut Flags| -> Result<(), String> {
        if positional.is_empty() {
            return Err(format!("{first}: the agent's URL is missing"));
        }
        let url = positional.remove(0);
        flags.set("agent-card", url);
        Ok(())
    };
    let want = |positional: &[String], n: usize, what: &str, name: &str| -> Result<(), String> {
        if positional.len() == n {
            Ok(())
        } else {
            Err(format!("{name}: expected {what} (see a2a {name} --help)"))
        }
    };
    let command = match first.as_str() {
        "card" => {
            if positional.first().map(String::as_str) == Some("get") {
                positional.remove(0);
            } else if !positional.is_empty() {
                old("card get --agent-card URL", notes);
                old_url(positional, flags)?;
            } else {
                return Err("card: say `card get` (see a2a card get --help)".to_owned());
            }
            want(positional, 0, "no arguments", "card get")?;
            cmd.only("card get", &["--validate", "--extended", "--jwks"])?;
            Command::CardGet {
                validate: cmd.has("validate"),
                extended: cmd.has("extended"),
                jwks: cmd.get("--jwks"),
            }
        }
        "send" | "stream" => {
            if first == "stream" {
                old("send --stream", notes);
                flags.stream = true;
                old_url(positional, flags)?;
            } else if positional.len() == 2
                && (positional[0].starts_with("http://") || positional[0].starts_with("https://"))
            {
                old("send --agent-card URL TEXT", notes);
                old_url(positional, flags)?;
            }
            cmd.only("send", &[])?;
            if positional.len() > 1 {
                return Err(
                    "send: one message text at most (quote it, or use --text for more parts)"
                        .to_owned(),
                );
            }
            let mut all = Vec::new();
            if let Some(text) = positional.pop() {
                all.push(part(PartKind::Text(text)));
            }
            all.extend(parts);
            if all.is_empty() {
                return Err("send: no message: give a TEXT, --text, --file or --data".to_owned());
            }
            Command::Send { parts: all }
        }
        "get" | "cancel" | "subscribe" => {
            old(&format!("task {first}"), notes);
            old_url(positional, flags)?;
            want(positional, 1, "TASK_ID", &format!("task {first}"))?;
            let id = positional.remove(0);
            cmd.only(&format!("task {first}"), &[])?;
            match first.as_str() {
                "get" => Command::TaskGet {
                    id,
                    wait: cmd.explicit_wait,
                },
                "cancel" => Command::TaskCancel(id),
                _ => Command::TaskSubscribe(id),
            }
        }
        "list" => {
            old("task list", notes);
            old_url(positional, flags)?;
            want(positional, 0, "no arguments", "task list")?;
            task_list(cmd)?
        }
        "push" => {
            let sub = if positional.is_empty() {
                return Err("push: say task push-config create|get|list|delete".to_owned());
            } else {
                positional.remove(0)
            };
            let new = if sub == "set" { "create" } else { sub.as_str() };
            old(&format!("task push-config {new}"), notes);
            old_url(positional, flags)?;
            if sub == "set" {
                want(
                    positional,
                    2,
                    "TASK_ID WEBHOOK_URL",
                    "task push-config create",
                )?;
                let url = positional.pop().unwrap_or_default();
                positional.push("--url".to_owned());
                positional.push(url);
            }
            push_config(new, positional, cmd)?
        }
        "task" => {
            if positional.is_empty() {
                return Err(
                    "task: say get, cancel, list, subscribe, download or push-config".to_owned(),
                );
            }
            let sub = positional.remove(0);
            let name = format!("task {sub}");
            match sub.as_str() {
                "get" => {
                    want(positional, 1, "TASK_ID", &name)?;
                    cmd.only(&name, &[])?;
                    Command::TaskGet {
                        id: positional.remove(0),
                        wait: cmd.explicit_wait,
                    }
                }
                "cancel" | "subscribe" => {
                    want(positional, 1, "TASK_ID", &name)?;
                    cmd.only(&name, &[])?;
                    let id = positional.remove(0);
                    if sub == "cancel" {
                        Command::TaskCancel(id)
                    } else {
                        Command::TaskSubscribe(id)
                    }
                }
                "list" => {
                    want(positional, 0, "no arguments", &name)?;
                    task_list(cmd)?
                }
                "download" => {
                    want(positional, 1, "TASK_ID", &name)?;
                    cmd.only(&name, &["--dir"])?;
                    Command::TaskDownload {
                        id: positional.remove(0),
                        dir: cmd.get("--dir"),
                    }
                }
                "push-config" => {
                    if positional.is_empty() {
                        return Err("task push-config: say create, get, list or delete".to_owned());
                    }
                    let op = positional.remove(0);
                    push_config(&op, positional, cmd)?
                }
                other => return Err(format!("unknown command `task {other}` (see a2a --help)")),
            }
        }
        "config" => {
            if positional.first().map(String::as_str) != Some("show") {
                return Err(
                    "config: say `config show` (configuration is read-only here)".to_owned(),
                );
            }
            positional.remove(0);
            want(positional, 0, "no arguments", "config show")?;
            cmd.only("config show", &[])?;
            Command::ConfigShow
        }
        "auth" => {
            let sub = if positional.is_empty() {
                String::new()
            } else {
                positional.remove(0)
            };
            let name = format!("auth {sub}");
            want(positional, 0, "no arguments", &name)?;
            match sub.as_str() {
                "login" => {
                    cmd.only(
                        &name,
                        &[
                            "--flow",
                            "--client-id",
                            "--client-secret",
                            "--scope",
                            "--scheme",
                        ],
                    )?;
                    let flow = match cmd.get("--flow").as_deref() {
                        None => None,
                        Some("device" | "device-code") => Some(Flow::DeviceCode),
                        Some("client-credentials") => Some(Flow::ClientCredentials),
                        Some(f) => {
                            return Err(format!(
                                "--flow {f:?}: expected device-code or client-credentials"
                            ))
                        }
                    };
                    Command::AuthLogin {
                        flow,
                        client_id: cmd.get("--client-id"),
                        client_secret: cmd.get("--client-secret"),
                        scopes: cmd.all("--scope"),
                        scheme: cmd.get("--scheme"),
                    }
                }
                "logout" => {
                    cmd.only(&name, &[])?;
                    Command::AuthLogout
                }
                "status" => {
                    cmd.only(&name, &[])?;
                    Command::AuthStatus
                }
                _ => return Err("auth: say login, logout or status".to_owned()),
            }
        }
        "chat" => {
            want(positional, 0, "no arguments", "chat")?;
            cmd.only("chat", &[])?;
            Command::Chat
        }
        "demo-server" => {
            want(positional, 0, "no arguments", "demo-server")?;
            cmd.only("demo-server", &["--port", "--token"])?;
            let port = match cmd.get("--port") {
                None => 8080,
                Some(p) => p
                    .parse()
                    .map_err(|_| format!("--port {p:?}: expected a port number"))?,
            };
            Command::DemoServer {
                port,
                bearer: cmd.all("--token"),
            }
        }
        "conformance" => {
            if positional.len() > 1 {
                return Err("conformance: expected at most one AGENT".to_owned());
            }
            if let Some(agent) = positional.pop() {
                flags.set("agent-card", agent);
            }
            cmd.only(
                "conformance",
                &[
                    "--contract",
                    "--binding",
                    "--only",
                    "--report-json",
                    "--report-html",
                    "--report-junit",
                ],
            )?;
            Command::Conformance {
                contract: cmd.get("--contract"),
                bindings: cmd.all("--binding"),
                only: cmd.all("--only"),
                json: cmd.get("--report-json"),
                html: cmd.get("--report-html"),
                junit: cmd.get("--report-junit"),
            }
        }
        "completion" => {
            want(positional, 1, "a SHELL (bash, zsh or fish)", "completion")?;
            cmd.only("completion", &[])?;
            let shell = positional.remove(0);
            if !matches!(shell.as_str(), "bash" | "zsh" | "fish") {
                return Err(format!("completion {shell:?}: expected bash, zsh or fish"));
            }
            Command::Completion(shell)
        }
        "webhook" => {
            if positional.first().map(String::as_str) != Some("serve") {
                return Err("webhook: say `webhook serve`".to_owned());
            }
            positional.remove(0);
            want(positional, 0, "no arguments", "webhook serve")?;
            cmd.only("webhook serve", &["--listen", "--token", "--count"])?;
            let count = match cmd.get("--count") {
                None => None,
                Some(c) => Some(
                    c.parse::<u32>()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| format!("--count {c:?}: expected a positive number"))?,
                ),
            };
            Command::WebhookServe {
                listen: cmd
                    .get("--listen")
                    .unwrap_or_else(|| "127.0.0.1:0".to_owned()),
                token: cmd.get("--token"),
                count,
            }
        }
        other => return Err(format!("unknown command {other:?} (see a2a --help)")),
    };
    Ok(command)
}

fn task_list(cmd: &Cmd) -> Result<Command, String> {
    cmd.only("task list", &["--status", "--page-size", "--page-token"])?;
    let status = match cmd.get("--status") {
        None => None,
        Some(s) => Some(parse_state(&s)?),
    };
    let page_size = match cmd.get("--page-size") {
        None => None,
        Some(n) => Some(
            n.parse::<i32>()
                .ok()
                .filter(|n| (1..=100).contains(n))
                .ok_or_else(|| format!("--page-size {n:?}: expected 1 to 100"))?,
        ),
    };
    Ok(Command::TaskList {
        status,
        page_size,
        page_token: cmd.get("--page-token"),
    })
}

/// A task state as `completed`, `COMPLETED`, `input-required` or
/// `TASK_STATE_COMPLETED`.
pub(crate) fn parse_state(s: &str) -> Result<a2a_types::TaskState, String> {
    let upper = s.to_ascii_uppercase().replace('-', "_");
    let name = if upper.starts_with("TASK_STATE_") {
        upper
    } else {
        format!("TASK_STATE_{upper}")
    };
    a2a_types::TaskState::from_str_name(&name)
        .filter(|s| *s != a2a_types::TaskState::Unspecified)
        .ok_or_else(|| {
            format!("--status {s:?}: expected a task state such as completed or input-required")
        })
}

fn push_config(op: &str, positional: &mut Vec<String>, cmd: &Cmd) -> Result<Command, String> {
    let name = format!("task push-config {op}");
    // `push set`'s URL arrives as a positional `--url` pair.
    let mut url = cmd.get("--url");
    if let Some(i) = positional.iter().position(|p| p == "--url") {
        positional.remove(i);
        if i < positional.len() {
            url = Some(positional.remove(i));
        }
    }
    let n = positional.len();
    let want = |k: usize, what: &str| -> Result<(), String> {
        if n == k {
            Ok(())
        } else {
            Err(format!("{name}: expected {what}"))
        }
    };
    Ok(match op {
        "create" => {
            want(1, "TASK_ID (and --url WEBHOOK_URL)")?;
            cmd.only(&name, &["--url", "--token", "--config-id"])?;
            Command::PushCreate {
                task: positional.remove(0),
                url: url.ok_or("task push-config create needs --url WEBHOOK_URL")?,
                token: cmd.get("--token"),
                config_id: cmd.get("--config-id"),
            }
        }
        "get" | "delete" => {
            want(2, "TASK_ID CONFIG_ID")?;
            cmd.only(&name, &[])?;
            let task = positional.remove(0);
            let id = positional.remove(0);
            if op == "get" {
                Command::PushGet { task, id }
            } else {
                Command::PushDelete { task, id }
            }
        }
        "list" => {
            want(1, "TASK_ID")?;
            cmd.only(&name, &[])?;
            Command::PushList(positional.remove(0))
        }
        other => {
            return Err(format!(
                "task push-config {other:?}: say create, get, list or delete"
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(a: &[&str]) -> Result<Parsed, String> {
        parse(a.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn spec_commands_and_options_in_any_order() {
        let p = parsed(&[
            "-o",
            "json",
            "send",
            "echo hi",
            "-a",
            "http://h:1",
            "--async",
        ])
        .unwrap();
        assert_eq!(
            p.command,
            Command::Send {
                parts: vec![part(PartKind::Text("echo hi".into()))]
            }
        );
        assert_eq!(p.flags.get("output"), Some("json"));
        assert_eq!(p.flags.get("agent-card"), Some("http://h:1"));
        assert_eq!(p.flags.get("async"), Some("true"));
        assert!(p.notes.is_empty());
        let p = parsed(&["task", "get", "t1", "--wait", "--history", "2"]).unwrap();
        assert_eq!(
            p.command,
            Command::TaskGet {
                id: "t1".into(),
                wait: true
            }
        );
        let p = parsed(&["task", "push-config", "create", "t", "--url", "http://w"]).unwrap();
        assert!(matches!(p.command, Command::PushCreate { ref url, .. } if url == "http://w"));
        let p = parsed(&[
            "send",
            "--file",
            "a.bin",
            "--media-type",
            "application/pdf",
            "--text",
            "x",
        ])
        .unwrap();
        let Command::Send { parts } = p.command else {
            panic!()
        };
        assert_eq!(parts[0].media_type.as_deref(), Some("application/pdf"));
        assert_eq!(parts[1], part(PartKind::Text("x".into())));
        assert!(parsed(&["send", "--media-type", "text/plain", "--text", "x"]).is_err());
    }

    #[test]
    fn old_names_are_aliases_with_a_note() {
        let p = parsed(&["get", "http://h", "t1", "--json"]).unwrap();
        assert_eq!(
            p.command,
            Command::TaskGet {
                id: "t1".into(),
                wait: false
            }
        );
        assert_eq!(p.flags.get("agent-card"), Some("http://h"));
        assert_eq!(p.notes.len(), 2, "{:?}", p.notes);
        assert!(
            p.notes.iter().any(|n| n.contains("`task get`")),
            "{:?}",
            p.notes
        );
        let p = parsed(&["push", "set", "http://h", "t", "http://w", "--token", "k"]).unwrap();
        assert!(
            matches!(p.command, Command::PushCreate { ref url, ref token, .. }
            if url == "http://w" && token.as_deref() == Some("k"))
        );
        let p = parsed(&["send", "http://h", "hi"]).unwrap();
        assert_eq!(p.flags.get("agent-card"), Some("http://h"));
        assert_eq!(p.notes.len(), 1);
    }

    #[test]
    fn usage_errors_say_what_is_wrong() {
        for (bad, says) in [
            (&[][..], "no command"),
            (&["send"], "no message"),
            (&["fly"], "unknown command"),
            (&["card", "get", "--nope"], "unknown option"),
            (&["task", "get"], "TASK_ID"),
            (&["task", "list", "--status", "done"], "task state"),
            (&["completion", "tcsh"], "bash, zsh or fish"),
            (&["card", "get", "--dir", "x"], "does not take"),
        ] {
            let e = parsed(bad).err().unwrap_or_default();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }
}
