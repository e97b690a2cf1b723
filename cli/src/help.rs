//! `a2a help`, `a2a --help` and `a2a <command> --help` (a2a-cli spec
//! §7.1, §7.2): the commands, the global options with their effective
//! defaults (§6.5), and each command's own options.

use crate::settings::{env_name, Settings, SETTINGS};

/// The tool's usage, with the effective value of each default.
pub(crate) fn usage(settings: Option<&Settings>) -> String {
    let mut s = String::from(
        "a2a: the a2a-cli command line for A2A v1.0 agents (a2a-cli specification v0.2)

USAGE: a2a <command> [arguments] [options]

COMMANDS
  card get                 fetch and render the agent card (--validate, --extended, --jwks FILE)
  send [TEXT]              send a message; waits for a terminal or interrupted state
                           (--text, --file, --data PATH|-, --media-type after a part flag)
  task get TASK_ID         a task's state, artifacts and (--history N) history; --wait polls
  task cancel TASK_ID      cancel a task; prints the resulting state
  task list                list tasks (--status, --context-id, --page-size, --page-token)
  task subscribe TASK_ID   (re)subscribe to a task's events (--stream prints each one)
  task push-config create TASK_ID --url URL [--token T] [--config-id ID]
  task push-config get|delete TASK_ID CONFIG_ID
  task push-config list TASK_ID
  task download TASK_ID    save the task's artifacts (--dir DIR)
  config show              the effective settings and where each came from (read-only)
  auth login               OAuth 2.1 device-code or client-credentials login (--client-id,
                           --client-secret, --scope, --flow, --scheme); auth logout; auth status
  chat                     interactive session carrying the context and task across turns
  demo-server              serve the reference agent locally to practise on (--port, --token)
  conformance [AGENT]      smoke-check an agent with this workspace's conformance suite
                           (--contract, --binding, --only, --report-json|html|junit FILE)
  completion SHELL         a completion script for bash, zsh or fish
  webhook serve            receive push notifications (--listen, --token, --count)
  help [COMMAND]           this text, or a command's

GLOBAL OPTIONS (flag > environment A2ACLI_<FLAG> > local .env or --config > ~/.config/a2a-cli/.env > default)
  -a, --agent-card <ref>   the agent: a host or origin (the well-known card path is appended),
                           a card URL (used as is), a file (file://... or a path), or a
                           catalog file's entry (CATALOG#NAME)
  -o, --output text|json   output format; json prints the protocol's own objects
      --stream             follow the live event stream (send, task subscribe); with -o json,
                           JSON Lines; never taken from the environment or a file
      --async              do not wait: print the task's ids at once (--no-wait and
                           --return-immediately are aliases)
      --wait               wait (the default for send); on task get, poll (--watch)
      --poll-interval <d>  between polls (bounded backoff up to 4x)
      --timeout <d>        give up waiting after this long (exit 5)
      --transport <b>      jsonrpc, http+json (rest) or grpc; repeatable, most preferred first
      --a2a-version <v>    the A2A-Version to signal (versions before 1.0 only when asked)
      --context-id <id>    start a task in this existing context
      --task-id <id>       continue this existing task (e.g. one in INPUT_REQUIRED)
      --message-id <id>    the message's id (reuse it when retrying a send)
      --metadata <json>    a JSON object sent as the message's metadata (in the payload)
      --svc-param <k:v>    a service parameter (HTTP header / gRPC metadata); repeatable;
                           general purpose, not an authentication option
      --extension <uri>    declare an A2A extension (A2A-Extensions); repeatable
      --tenant <t>         the tenant (default: the selected interface's)
      --bearer <token>     a bearer token (A2ACLI_BEARER keeps it out of the process table
                           and shell history, which a flag is exposed to)
      --api-key <key>      an API key, sent where the card's apiKey scheme says
                           (A2ACLI_API_KEY; same caution)
      --cert <pem> --key <pem>
                           a client certificate for mutual TLS
      --insecure           do not verify TLS certificates (development only; warns)
      --config <path>      read this .env file instead of the local one
      --debug              diagnostics on stderr: card, interface, version, the call's W3C
                           trace id (every call sends a traceparent), timing and the raw
                           protocol messages, credentials always redacted
      --verbose            the full breakdown of parts, metadata and history
  -h, --help               usage (a2a <command> --help for a command's)
  -v, --version            the tool version

Durations: 500ms, 2s, 1m. Exit status: 0 the command did its job (whatever the task's
outcome, which is in its state), 1 failure, 2 usage, 3 agent or card unreachable,
4 authentication, 5 timeout. Errors carry the A2A error name, or an A2ACLI_ERR_* code.

EFFECTIVE DEFAULTS
",
    );
    for setting in SETTINGS {
        let (value, source) = match settings {
            Some(st) => {
                let v = st.all(setting.name);
                let shown = if v.is_empty() {
                    setting.describe_default.to_owned()
                } else if setting.secret {
                    crate::wire::REDACTED.to_owned()
                } else {
                    v.join(",")
                };
                (shown, st.source(setting.name).describe(setting.name))
            }
            None => (
                setting.describe_default.to_owned(),
                "built-in default".to_owned(),
            ),
        };
        s.push_str(&format!(
            "  --{:<15} {value}  [{source}; env {}]\n",
            setting.name,
            env_name(setting.name)
        ));
    }
    s.push_str("\nTry it: `a2a demo-server` in one terminal, then `a2a send -a http://127.0.0.1:8080 \"echo hi\"`.");
    s
}

/// One command's usage, or `None` for an unknown command.
pub(crate) fn command(topic: &[String]) -> Option<String> {
    let t = topic.join(" ");
    let text = match t.as_str() {
        "card" | "card get" => "a2a card get [-a REF] [--validate] [--extended] [--jwks FILE]

Fetches the agent card (presenting no credential), prints its identity, capabilities,
interfaces, security schemes and skills, the interface that would be used, and whether
its signature is verified, unverifiable, invalid or absent. --validate checks the card
against the A2A schema's required fields (exit 1 when it fails). --extended fetches the
authenticated extended card with a credential for a scheme the public card declares.
-o json prints the AgentCard.",
        "send" => "a2a send [TEXT] [--text T] [--file PATH|URL] [--data PATH|-] [--media-type TYPE]
         [--context-id ID] [--task-id ID] [--message-id ID] [--metadata JSON]
         [--async | --stream] [--timeout D] [--poll-interval D] [--history N]

Sends one message; its parts in command-line order (TEXT first). --media-type binds to
the part flag before it. A path is sent inline (base64), a URL by reference. Waits until
the task is terminal or interrupted (INPUT_REQUIRED, AUTH_REQUIRED), over the stream when
the agent streams, else by polling. -o json prints the SendMessageResponse; with --stream,
one StreamResponse per line. Exit 0 whatever the task's outcome.",
        "task" | "task get" => "a2a task get TASK_ID [--history N] [--wait] [--timeout D] [--poll-interval D]

Prints the task's id, context, state and artifacts (and history with --history). --wait
polls until the task is terminal or interrupted. -o json prints the Task.",
        "task cancel" => "a2a task cancel TASK_ID

Cancels the task and prints its resulting state (-o json: the Task). A task already
finished answers TaskNotCancelableError.",
        "task list" => "a2a task list [--status STATE] [--context-id ID] [--page-size N] [--page-token T] [--history N]

Lists tasks, newest first, one record each, then the count and the next page's token.
-o json prints the ListTasksResponse; -o json --stream one Task per line.",
        "task subscribe" => "a2a task subscribe TASK_ID [--stream] [--timeout D]

Subscribes to the task's events (its first event is the task itself). Without --stream,
waits and prints the task once it is terminal or interrupted; with it, each event. A
dropped connection is resubscribed.",
        "task download" => "a2a task download TASK_ID [--dir DIR]

Saves every part of every artifact to DIR (default: here): files by their name, text as
.txt, data as .json; never overwrites (a number is prefixed).",
        "task push-config" | "task push-config create" | "task push-config get" | "task push-config list" | "task push-config delete" => "a2a task push-config create TASK_ID --url WEBHOOK_URL [--token T] [--config-id ID]
a2a task push-config get TASK_ID CONFIG_ID
a2a task push-config list TASK_ID
a2a task push-config delete TASK_ID CONFIG_ID

Manages the task's push notification configurations (when the card declares push
notifications). `a2a webhook serve` receives the notifications.",
        "config" | "config show" => "a2a config show

Prints every setting's effective value (secrets redacted) and where it came from: a flag,
an environment variable, a .env file, or the built-in default. Read-only: edit the
environment or the .env files (A2ACLI_<FLAG>=value lines) to change them.",
        "auth" | "auth login" | "auth logout" | "auth status" => "a2a auth login [-a REF] --client-id ID [--client-secret S] [--scope S]... [--flow device-code|client-credentials] [--scheme NAME]
a2a auth logout [-a REF]
a2a auth status [-a REF]

Logs in with the card's oauth2 (device code or client credentials) or openIdConnect
scheme and stores the token (mode 0600, per agent) under ~/.config/a2a-cli/credentials;
later calls to that agent attach it. A2ACLI_CLIENT_ID and A2ACLI_CLIENT_SECRET keep the
client credentials out of the process table.",
        "chat" => "a2a chat [-a REF]

Reads one message per line from standard input and sends each, carrying the context id
(and the task id while a task waits for input) from turn to turn. Prompts only when
standard input and output are terminals; otherwise prints the text records. `/quit` or
end of input ends it.",
        "demo-server" => "a2a demo-server [--port N] [--token T]...

Serves this workspace's reference agent on 127.0.0.1 (JSON-RPC, HTTP+JSON and gRPC),
to practise the commands on. --port 0 picks a free port; the URL is printed on stderr.
--token requires that bearer token. Send it `echo hi`, `stream 3`, `input`, `slow 3000`.",
        "conformance" => "a2a conformance [AGENT] [--contract reference|tck|none] [--binding jsonrpc|rest|grpc]...
                [--only PATTERN]... [--report-json FILE] [--report-html FILE] [--report-junit FILE]

Runs this workspace's A2A conformance suite (in process) against the agent (AGENT or
-a/--agent-card: its base URL). Prints the result table and the `N passed, M failed,
K skipped` summary; -o json prints the report. Exit 0 when no MUST check fails, 1 when
one does, 3 when the agent cannot be reached.",
        "completion" => "a2a completion bash|zsh|fish

Prints a completion script: `source <(a2a completion bash)`.",
        "webhook" | "webhook serve" => "a2a webhook serve [--listen ADDR] [--token T] [--count N]

Listens for push notifications (default 127.0.0.1 on a free port; the URL is printed on
stderr), answers each, and prints its StreamResponse (-o json: one per line). --token
refuses notifications without that X-A2A-Notification-Token; --count stops after N.",
        "help" => "a2a help [COMMAND]",
        _ => return None,
    };
    Some(text.to_owned())
}
