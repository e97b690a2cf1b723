//! The commands beside the protocol's operations (a2a-cli spec §7.1):
//! `config show`, `completion`, `demo-server`, `conformance`, `chat` and
//! `webhook serve`.

use std::io::{BufRead, IsTerminal, Write};

use a2a_conformance::{
    run as run_suite, scenarios, Binding, Caller, Contract, Remote, RunOptions, Target,
};
use a2a_transport::A2aService;
use a2a_types::{Part, SendMessageRequest, SendMessageResponse, StreamResponse};
use serde_json::json;

use crate::agent::{card_location, connect, resolve_card, CardFrom, WELL_KNOWN};
use crate::args::{COMMANDS, OPTIONS};
use crate::failure::{code, Failure};
use crate::output::{self, settled};
use crate::run::Run;
use crate::term::{say, tell};

/// `config show`: read-only (§8.3).
pub(crate) fn config_show(run: &Run) {
    let rows = run.settings.show();
    if run.json {
        let settings: Vec<_> = rows
            .iter()
            .map(|(name, default, value, source)| {
                json!({
                    "name": name,
                    "env": crate::settings::env_name(name),
                    "value": value,
                    "source": source.describe(name),
                    "default": default,
                })
            })
            .collect();
        let files: Vec<String> = run
            .settings
            .files
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        run.json_line(&json!({
            "settings": settings,
            "files": files,
            "configDir": crate::settings::config_dir().map(|d| d.display().to_string()),
        }));
        return;
    }
    let mut r = output::Record::default();
    for (name, default, value, source) in &rows {
        let v = value
            .clone()
            .unwrap_or_else(|| format!("(unset: {default})"));
        r.field(
            &format!("Setting {name}"),
            &format!("{v} [{}]", source.describe(name)),
        );
    }
    for f in &run.settings.files {
        r.field("File", &f.display().to_string());
    }
    if let Some(d) = crate::settings::config_dir() {
        r.field("Config-Dir", &d.display().to_string());
        r.field("Token-Store", &d.join("credentials").display().to_string());
    }
    r.field(
        "Session-State",
        "none (task and context ids are never stored)",
    );
    run.lines(&r.lines());
}

/// `completion SHELL`.
pub(crate) fn completion(shell: &str) -> String {
    let words: Vec<&str> = {
        let mut w: Vec<&str> = COMMANDS.iter().flat_map(|c| c.split(' ')).collect();
        w.sort_unstable();
        w.dedup();
        w
    };
    let commands = words.join(" ");
    let options = OPTIONS.join(" ");
    match shell {
        "bash" => format!(
            "# bash completion for a2a: source <(a2a completion bash)
_a2a() {{
    local cur=\"${{COMP_WORDS[COMP_CWORD]}}\"
    local prev=\"${{COMP_WORDS[COMP_CWORD-1]}}\"
    case \"$prev\" in
        -o|--output) COMPREPLY=( $(compgen -W \"text json\" -- \"$cur\") ); return ;;
        --transport) COMPREPLY=( $(compgen -W \"jsonrpc http+json grpc\" -- \"$cur\") ); return ;;
        completion) COMPREPLY=( $(compgen -W \"bash zsh fish\" -- \"$cur\") ); return ;;
        --file|--data|--config|--dir|--cert|--key) COMPREPLY=( $(compgen -f -- \"$cur\") ); return ;;
    esac
    if [[ \"$cur\" == -* ]]; then
        COMPREPLY=( $(compgen -W \"{options} -a -o -h -v\" -- \"$cur\") )
    else
        COMPREPLY=( $(compgen -W \"{commands}\" -- \"$cur\") )
    fi
}}
complete -F _a2a a2a
"
        ),
        "zsh" => format!(
            "#compdef a2a
# zsh completion for a2a: a2a completion zsh > \"${{fpath[1]}}/_a2a\"
_a2a() {{
    local -a commands options
    commands=({commands})
    options=({options})
    if [[ \"$PREFIX\" == -* ]]; then
        compadd -- $options -a -o -h -v
    else
        compadd -- $commands
    fi
}}
compdef _a2a a2a
"
        ),
        _ => {
            let mut s = String::from("# fish completion for a2a: a2a completion fish | source\ncomplete -c a2a -f\n");
            for w in &words {
                s.push_str(&format!("complete -c a2a -n '__fish_use_subcommand' -a {w}\n"));
            }
            for o in OPTIONS {
                s.push_str(&format!("complete -c a2a -l {}\n", o.trim_start_matches("--")));
            }
            s.push_str("complete -c a2a -s a -r\ncomplete -c a2a -s o -x -a 'text json'\ncomplete -c a2a -s h\ncomplete -c a2a -s v\n");
            s
        }
    }
}

/// `demo-server`: the reference agent in process, until interrupted.
pub(crate) async fn demo_server(port: u16, tokens: &[String]) -> Result<(), Failure> {
    let mut args = vec!["--quiet".to_owned(), "--port".to_owned(), port.to_string()];
    for t in tokens {
        args.push("--bearer".to_owned());
        args.push(t.clone());
    }
    let options = match a2a_reference_agent::cli::Options::parse(args) {
        Ok(a2a_reference_agent::cli::Parsed::Run(o)) => o,
        Ok(_) => return Err(Failure::local(code::INTERNAL, "unexpected options")),
        Err(e) => return Err(Failure::usage(e)),
    };
    let listener = tokio::net::TcpListener::bind(options.listen)
        .await
        .map_err(|e| {
            Failure::local(
                code::INTERNAL,
                format!("cannot listen on {}: {e}", options.listen),
            )
        })?;
    let bound = listener
        .local_addr()
        .map_err(|e| Failure::local(code::INTERNAL, e.to_string()))?;
    let server = options
        .server(bound)
        .map_err(|e| Failure::local(code::INTERNAL, e))?;
    let serve = options
        .serve_options()
        .map_err(|e| Failure::local(code::INTERNAL, e))?;
    let url = options.base_url(bound);
    let mut r = output::Record::default();
    r.field("Demo-Server", &url);
    r.field("Agent-Card", &format!("{url}{WELL_KNOWN}"));
    r.field("Try", &format!("a2a send -a {url} \"echo hi\""));
    for line in r.lines() {
        say(&line);
    }
    tell("a2a: demo-server: the reference agent (JSON-RPC, HTTP+JSON, gRPC); Ctrl-C stops it");
    let swept = std::sync::Arc::clone(&server);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(a2a_reference_agent::SWEEP_INTERVAL);
        loop {
            every.tick().await;
            swept.service().sweep();
        }
    });
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    a2a_hyper::serve(listener, server, serve, shutdown).await;
    Ok(())
}

/// `conformance`: the workspace's suite in process (`a2a_conformance`).
pub(crate) async fn conformance(run: &Run, command: &crate::args::Command) -> Result<(), Failure> {
    let crate::args::Command::Conformance {
        contract,
        bindings,
        only,
        json,
        html,
        junit,
    } = command
    else {
        return Ok(());
    };
    let reference = run.agent_card()?;
    // The suite reads the card under a base URL.
    let base = match card_location(&reference) {
        CardFrom::Url(u) => u.strip_suffix(WELL_KNOWN).map(str::to_owned).ok_or_else(|| {
            Failure::usage(format!("conformance needs the agent's base URL (its card at BASE{WELL_KNOWN}), not {u}"))
        })?,
        CardFrom::File(f) => return Err(Failure::usage(format!("conformance needs the agent's base URL, not the file {f}"))),
    };
    // Reachable, with a card: else exit 3 before running anything.
    resolve_card(&run.wire, &reference).await?;
    let mut remote = Remote::new(base.clone());
    remote.contract = match contract.as_deref() {
        None | Some("none") => Contract::None,
        Some("reference") => Contract::Reference,
        Some("tck") => Contract::Tck,
        Some(other) => {
            return Err(Failure::usage(format!(
                "--contract {other:?}: expected reference, tck or none"
            )))
        }
    };
    for b in bindings {
        remote.bindings.push(match b.to_ascii_lowercase().as_str() {
            "jsonrpc" | "json-rpc" => Binding::JsonRpc,
            "rest" | "http+json" | "httpjson" => Binding::HttpJson,
            "grpc" => Binding::Grpc,
            other => {
                return Err(Failure::usage(format!(
                    "--binding {other:?}: expected jsonrpc, rest or grpc"
                )))
            }
        });
    }
    if let Some(token) = run.settings.get("bearer") {
        remote.callers = vec![Caller::bearer(token, None)];
    }
    let target = remote.connect().await;
    let version = Target::version_for(&target.card);
    let target = target.at_version(version);
    tell(&format!(
        "a2a: conformance: testing {} ({base}) at A2A {version}",
        target.name
    ));
    let options = RunOptions {
        only: only.clone(),
        jobs: 4,
        progress: None,
    };
    let report = run_suite(target, &scenarios::for_version(version), &options).await;
    let mut files: Vec<(&String, Vec<u8>)> = Vec::new();
    if let Some(p) = json {
        files.push((p, serde_json::to_vec_pretty(&report).unwrap_or_default()));
    }
    if let Some(p) = html {
        files.push((p, report.to_html().into_bytes()));
    }
    if let Some(p) = junit {
        files.push((p, report.to_junit().into_bytes()));
    }
    for (path, bytes) in files {
        std::fs::write(path, bytes)
            .map_err(|e| Failure::local(code::INTERNAL, format!("cannot write {path}: {e}")))?;
    }
    if run.json {
        run.json_line(&serde_json::to_value(&report).unwrap_or_default());
    } else {
        print!("{}", report.table());
        say(&report.summary_line());
    }
    if report.must_failed() {
        let mut f = Failure::local(code::INTERNAL, format!("the agent failed a MUST check: {}", report.summary_line()))
            .with_hint("the table shows each failed scenario with what it expected and got; --report-html FILE writes a browsable report");
        f.code = "A2ACORE_CONFORMANCE_FAILED".to_owned();
        f.exit = 1;
        f.printed = run.json;
        return Err(f);
    }
    Ok(())
}

/// `chat`: one message per line of standard input, carrying the context
/// and the interrupted task from turn to turn (§8.1). Prompts only on a
/// terminal (§6.1, §11.2).
pub(crate) async fn chat(run: &Run) -> Result<(), Failure> {
    let agent = connect(run).await?;
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let mut context = run
        .settings
        .get("context-id")
        .unwrap_or_default()
        .to_owned();
    let mut task = run.settings.get("task-id").unwrap_or_default().to_owned();
    if interactive {
        tell(&format!(
            "a2a chat with {} ({}); /quit ends it",
            agent.card.card.name, agent.interface.url
        ));
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if interactive {
            print!("you> ");
            let _ = std::io::stdout().flush();
        }
        let Some(line) = lines.next() else { break };
        let line = line
            .map_err(|e| Failure::local(code::INTERNAL, format!("reading standard input: {e}")))?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        if text == "/quit" || text == "/exit" {
            break;
        }
        let mut message = crate::cmd::build_message(run, vec![Part::text(text.to_owned())])?;
        message.context_id.clone_from(&context);
        message.task_id.clone_from(&task);
        let answer = agent
            .transport
            .send_message(&agent.cx, SendMessageRequest::new(message))
            .await
            .map_err(|e| Failure::from_a2a(&e, agent.credentials))?;
        match &answer {
            SendMessageResponse::Task(t) => {
                context.clone_from(&t.context_id);
                let t = if settled(t.status.state) {
                    t.clone()
                } else {
                    poll_task(run, &agent, &t.id).await?
                };
                // The task stays the active one while it waits for input.
                task = if t.status.state.is_interrupted() {
                    t.id.clone()
                } else {
                    String::new()
                };
                let shown = SendMessageResponse::Task(t);
                if let SendMessageResponse::Task(t) = &shown {
                    run.show(&shown, || output::task(t, false, run.verbose));
                }
            }
            SendMessageResponse::Message(m) => {
                if !m.context_id.is_empty() {
                    context.clone_from(&m.context_id);
                }
                run.show(&answer, || output::message(m, run.verbose));
            }
        }
    }
    Ok(())
}

async fn poll_task(
    run: &Run,
    agent: &crate::agent::Agent,
    id: &str,
) -> Result<a2a_types::Task, Failure> {
    let mut interval = run.poll_interval;
    loop {
        let t = agent
            .transport
            .get_task(&agent.cx, a2a_types::GetTaskRequest::new(id.to_owned()))
            .await
            .map_err(|e| Failure::from_a2a(&e, agent.credentials))?;
        if settled(t.status.state) {
            return Ok(t);
        }
        tokio::time::sleep(interval).await;
        interval = interval
            .mul_f64(1.5)
            .min(run.poll_interval.saturating_mul(4));
    }
}

/// `webhook serve`: a push-notification receiver (§9.2, Tier 3).
pub(crate) async fn webhook_serve(
    run: &Run,
    listen: &str,
    token: Option<&str>,
    count: Option<u32>,
) -> Result<(), Failure> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| Failure::usage(format!("--listen {listen}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::local(code::INTERNAL, e.to_string()))?;
    tell(&format!("a2a: webhook: listening on http://{addr}/ (give it to `a2a task push-config create --url`)"));
    tell(&format!("Webhook-URL: http://{addr}/"));
    let mut received = 0u32;
    while count.is_none_or(|c| received < c) {
        let (mut socket, _) = listener
            .accept()
            .await
            .map_err(|e| Failure::local(code::INTERNAL, e.to_string()))?;
        let mut buf = Vec::new();
        let mut chunk = [0u8; 8192];
        // Head, then the body by Content-Length (bounded at 1 MiB).
        let (head_end, length) = loop {
            let n = socket
                .read(&mut chunk)
                .await
                .map_err(|e| Failure::local(code::INTERNAL, e.to_string()))?;
            if n == 0 {
                break (None, 0);
            }
            buf.extend_from_slice(&chunk[..n]);
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..i]).to_ascii_lowercase();
                let length = head
                    .lines()
                    .find_map(|l| {
                        l.strip_prefix("content-length:")
                            .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                    })
                    .unwrap_or(0);
                break (Some(i + 4), length.min(1 << 20));
            }
            if buf.len() > 64 * 1024 {
                break (None, 0);
            }
        };
        let Some(start) = head_end else { continue };
        while buf.len() < start + length {
            let n = socket
                .read(&mut chunk)
                .await
                .map_err(|e| Failure::local(code::INTERNAL, e.to_string()))?;
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        let head = String::from_utf8_lossy(&buf[..start]).into_owned();
        let body = buf[start..(start + length).min(buf.len())].to_vec();
        let given = head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(a2a_transport::push::NOTIFICATION_TOKEN_HEADER)
                .then(|| v.trim().to_owned())
        });
        let refused = token.is_some_and(|t| given.as_deref() != Some(t));
        let status = if refused {
            "401 Unauthorized"
        } else {
            "200 OK"
        };
        let _ = socket
            .write_all(
                format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                    .as_bytes(),
            )
            .await;
        if refused {
            run.warn("a notification without the expected token was refused");
            continue;
        }
        match a2a_types::from_slice::<StreamResponse>(&body) {
            Ok(event) => {
                received += 1;
                run.show(&event, || output::event(&event, run.verbose));
            }
            Err(e) => run.warn(&format!("a notification that is not a StreamResponse: {e}")),
        }
    }
    Ok(())
}
