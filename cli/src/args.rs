//! The command line: a small hand parser (the workspace's other binaries
//! parse theirs the same way; docs/decisions.md says why not `clap`).

use a2a_transport::Binding;
use http::{HeaderName, HeaderValue};

/// The usage text (`a2a --help`).
pub(crate) const USAGE: &str = "\
a2a: a command-line client for A2A v1.0 agents (JSON-RPC and HTTP+JSON)

USAGE: a2a <COMMAND> <URL> [ARGS] [OPTIONS]

URL is the agent's base URL: its card is read from URL/.well-known/agent-card.json
and the call goes to the first interface of the card that a2a speaks.

COMMANDS
  card URL                          print the agent card
  send URL TEXT                     SendMessage: send TEXT, wait for the task to finish or
                                    to need input, print the task (or the agent's message)
  stream URL TEXT                   SendStreamingMessage: print each event as it arrives
  get URL TASK_ID                   GetTask
  cancel URL TASK_ID                CancelTask
  subscribe URL TASK_ID             SubscribeToTask: print each event as it arrives
  list URL                          ListTasks, newest first (--context, --page-size)
  push set URL TASK_ID WEBHOOK_URL  CreateTaskPushNotificationConfig (--token, --config-id)
  push get URL TASK_ID CONFIG_ID    GetTaskPushNotificationConfig
  push list URL TASK_ID             ListTaskPushNotificationConfigs
  push delete URL TASK_ID CONFIG_ID DeleteTaskPushNotificationConfig

OPTIONS
  --binding jsonrpc|rest|grpc
                           use this binding of the card (default: the card's first one)
  --tenant <tenant>        call this tenant (multi-tenant agents): the card's interface for it
                           when the card declares one, else the tenant on the chosen interface
  --bearer <token>         send `Authorization: Bearer <token>`
  --header 'Name: value'   send this header too (repeatable)
  --json                   print the answer as ProtoJSON, one JSON object per line (a stream
                           prints one line per event; an error prints its JSON-RPC error object)
  --context <id>           send, stream: the contextId; list: only this context
  --task <id>              send, stream: continue this task (a follow-up message)
  --no-wait                send: returnImmediately, answer as soon as the task exists
  --history <n>            send, get: at most n history messages in the answer
  --page-size <n>          list: tasks per page (the agent's default otherwise)
  --token <token>          push set: the token the agent sends to the webhook
  --config-id <id>         push set: the config's id (the agent picks one otherwise)
  -h, --help               this text
  -V, --version            the version

Output is readable text unless --json; while a task works, a progress line is
shown on a terminal. The exit status is 0 on success, 1 when the agent answers an
error (printed with its code, message and details) or cannot be reached, 2 for a
usage error.

Try it on the reference agent: `cargo run -p a2a-reference-agent` (it listens on
http://127.0.0.1:8080), then `a2a send http://127.0.0.1:8080 \"echo hi\"` or
`a2a stream http://127.0.0.1:8080 \"stream 3\"`.";

/// What to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Command {
    /// `card URL`.
    Card,
    /// `send URL TEXT`.
    Send(String),
    /// `stream URL TEXT`.
    Stream(String),
    /// `get URL TASK_ID`.
    Get(String),
    /// `cancel URL TASK_ID`.
    Cancel(String),
    /// `subscribe URL TASK_ID`.
    Subscribe(String),
    /// `list URL`.
    List,
    /// `push set URL TASK_ID WEBHOOK_URL`.
    PushSet {
        /// The task.
        task: String,
        /// The webhook.
        url: String,
    },
    /// `push get URL TASK_ID CONFIG_ID`.
    PushGet {
        /// The task.
        task: String,
        /// The config.
        id: String,
    },
    /// `push list URL TASK_ID`.
    PushList(String),
    /// `push delete URL TASK_ID CONFIG_ID`.
    PushDelete {
        /// The task.
        task: String,
        /// The config.
        id: String,
    },
}

/// A parsed command line.
#[derive(Debug, Clone)]
pub(crate) struct Args {
    pub(crate) command: Command,
    pub(crate) url: String,
    pub(crate) binding: Option<Binding>,
    pub(crate) tenant: Option<String>,
    pub(crate) headers: Vec<(HeaderName, HeaderValue)>,
    pub(crate) json: bool,
    pub(crate) context: Option<String>,
    pub(crate) task: Option<String>,
    pub(crate) no_wait: bool,
    pub(crate) history: Option<i32>,
    pub(crate) page_size: Option<i32>,
    pub(crate) token: Option<String>,
    pub(crate) config_id: Option<String>,
}

/// What the command line asks for.
#[derive(Debug)]
pub(crate) enum Parsed {
    Run(Box<Args>),
    Help,
    Version,
}

/// Parses the arguments after the program name.
pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<Parsed, String> {
    let mut positional = Vec::new();
    let mut a = Args {
        command: Command::Card,
        url: String::new(),
        binding: None,
        tenant: None,
        headers: Vec::new(),
        json: false,
        context: None,
        task: None,
        no_wait: false,
        history: None,
        page_size: None,
        token: None,
        config_id: None,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "-V" | "--version" => return Ok(Parsed::Version),
            "--binding" => {
                let v = value("--binding")?;
                a.binding = Some(match v.to_ascii_lowercase().as_str() {
                    "jsonrpc" | "json-rpc" => Binding::JsonRpc,
                    "rest" | "http+json" | "httpjson" => Binding::HttpJson,
                    "grpc" => Binding::Grpc,
                    _ => return Err(format!("--binding {v:?}: say jsonrpc, rest or grpc")),
                });
            }
            "--tenant" => a.tenant = Some(value("--tenant")?),
            "--bearer" => {
                let token = value("--bearer")?;
                let v = HeaderValue::from_str(&format!("Bearer {token}"))
                    .ok()
                    .filter(|_| !token.is_empty())
                    .ok_or("--bearer needs a non-empty token that fits in a header")?;
                a.headers.push((http::header::AUTHORIZATION, v));
            }
            "--header" => {
                let h = value("--header")?;
                let (name, v) = h
                    .split_once(':')
                    .ok_or_else(|| format!("--header {h:?}: expected 'Name: value'"))?;
                let name = HeaderName::try_from(name.trim())
                    .map_err(|_| format!("--header {h:?}: not a header name"))?;
                let v = HeaderValue::from_str(v.trim())
                    .map_err(|_| format!("--header {h:?}: not a header value"))?;
                a.headers.push((name, v));
            }
            "--json" => a.json = true,
            "--context" => a.context = Some(value("--context")?),
            "--task" => a.task = Some(value("--task")?),
            "--no-wait" => a.no_wait = true,
            "--history" => a.history = Some(number("--history", &value("--history")?, 0)?),
            "--page-size" => a.page_size = Some(number("--page-size", &value("--page-size")?, 1)?),
            "--token" => a.token = Some(value("--token")?),
            "--config-id" => a.config_id = Some(value("--config-id")?),
            flag if flag.starts_with("--") || (flag.starts_with('-') && flag.len() > 1) => {
                return Err(format!("unknown option {flag:?} (see --help)"))
            }
            _ => positional.push(arg),
        }
    }
    let mut p = positional.into_iter();
    let name = p.next().ok_or("no command given (see --help)")?;
    let sub = if name == "push" {
        let sub = p.next().ok_or("push needs set, get, list or delete")?;
        if !matches!(sub.as_str(), "set" | "get" | "list" | "delete") {
            return Err(format!(
                "push {sub:?}: say push set, push get, push list or push delete"
            ));
        }
        Some(sub)
    } else {
        None
    };
    a.url = p
        .next()
        .ok_or_else(|| format!("{name}: the agent's URL is missing"))?
        .trim_end_matches('/')
        .to_owned();
    let rest: Vec<String> = p.collect();
    let want = |n: usize, what: &str| -> Result<(), String> {
        if rest.len() == n {
            Ok(())
        } else {
            Err(format!("{name}: expected {what} after the URL"))
        }
    };
    a.command = match (name.as_str(), sub.as_deref()) {
        ("card", None) => {
            want(0, "nothing")?;
            Command::Card
        }
        ("list", None) => {
            want(0, "nothing")?;
            Command::List
        }
        ("send" | "stream", None) => {
            want(1, "the message TEXT (quote it)")?;
            let text = rest[0].clone();
            if name == "send" {
                Command::Send(text)
            } else {
                Command::Stream(text)
            }
        }
        ("get" | "cancel" | "subscribe", None) => {
            want(1, "TASK_ID")?;
            let id = rest[0].clone();
            match name.as_str() {
                "get" => Command::Get(id),
                "cancel" => Command::Cancel(id),
                _ => Command::Subscribe(id),
            }
        }
        ("push", Some("set")) => {
            want(2, "TASK_ID WEBHOOK_URL")?;
            Command::PushSet {
                task: rest[0].clone(),
                url: rest[1].clone(),
            }
        }
        ("push", Some("get")) => {
            want(2, "TASK_ID CONFIG_ID")?;
            Command::PushGet {
                task: rest[0].clone(),
                id: rest[1].clone(),
            }
        }
        ("push", Some("list")) => {
            want(1, "TASK_ID")?;
            Command::PushList(rest[0].clone())
        }
        ("push", Some("delete")) => {
            want(2, "TASK_ID CONFIG_ID")?;
            Command::PushDelete {
                task: rest[0].clone(),
                id: rest[1].clone(),
            }
        }
        (other, _) => return Err(format!("unknown command {other:?} (see --help)")),
    };
    Ok(Parsed::Run(Box::new(a)))
}

fn number(flag: &str, v: &str, min: i32) -> Result<i32, String> {
    v.parse::<i32>()
        .ok()
        .filter(|n| *n >= min)
        .ok_or_else(|| format!("{flag} {v:?}: expected a number of at least {min}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Result<Args, String> {
        match parse(a.iter().map(|s| (*s).to_owned()))? {
            Parsed::Run(a) => Ok(*a),
            other => Err(format!("{other:?}")),
        }
    }

    #[test]
    fn commands_and_options_in_any_order() {
        let a = args(&["--json", "send", "http://h:1/", "echo hi", "--bearer", "t"]).unwrap();
        assert_eq!(a.command, Command::Send("echo hi".into()));
        assert_eq!(a.url, "http://h:1");
        assert!(a.json);
        assert_eq!(a.headers[0].0, http::header::AUTHORIZATION);
        assert_eq!(a.headers[0].1, "Bearer t");
        let a = args(&[
            "push",
            "set",
            "http://h",
            "t1",
            "http://hook",
            "--token",
            "k",
            "--binding",
            "rest",
            "--tenant",
            "x",
            "--header",
            "X-A: b",
        ])
        .unwrap();
        assert_eq!(
            a.command,
            Command::PushSet {
                task: "t1".into(),
                url: "http://hook".into()
            }
        );
        assert_eq!(a.binding, Some(Binding::HttpJson));
        assert_eq!(
            (a.token.as_deref(), a.tenant.as_deref()),
            (Some("k"), Some("x"))
        );
        assert_eq!(a.headers[0].0.as_str(), "x-a");
        assert_eq!(
            args(&["get", "u", "t"]).unwrap().command,
            Command::Get("t".into())
        );
        assert_eq!(
            args(&["push", "delete", "u", "t", "c"]).unwrap().command,
            Command::PushDelete {
                task: "t".into(),
                id: "c".into()
            }
        );
        assert_eq!(
            args(&["list", "u", "--page-size", "5"]).unwrap().page_size,
            Some(5)
        );
        assert!(matches!(parse(["--help".to_owned()]), Ok(Parsed::Help)));
        assert!(matches!(parse(["-V".to_owned()]), Ok(Parsed::Version)));
    }

    #[test]
    fn usage_errors_say_what_is_wrong() {
        for (bad, says) in [
            (&[][..], "no command"),
            (&["send", "u"], "TEXT"),
            (&["send", "u", "a", "b"], "TEXT"),
            (&["card"], "URL is missing"),
            (&["push", "u"], "push \"u\""),
            (&["push", "set", "u", "t"], "WEBHOOK_URL"),
            (&["fly", "u"], "unknown command"),
            (&["card", "u", "--binding", "soap"], "jsonrpc, rest or grpc"),
            (&["card", "u", "--header", "nocolon"], "Name: value"),
            (&["card", "u", "--bearer", ""], "non-empty"),
            (&["get", "u", "t", "--history", "-1"], "at least 0"),
            (&["card", "u", "--nope"], "unknown option"),
        ] {
            let e = args(bad).err().unwrap_or_default();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }
}
