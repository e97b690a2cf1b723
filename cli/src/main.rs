//! `a2a`: the command-line client for A2A v1.0 agents, following the
//! a2a-cli specification v0.2 (`cli/README.md`, `cli/compliance-report.yaml`),
//! on `a2a_hyper::HyperClient` and `a2a_transport`'s typed client
//! (`HttpTransport`). See `a2a --help`.
//!
//! The payload goes to standard output (`text` records, or the
//! protocol's own JSON objects under `-o json`, JSON Lines with
//! `--stream`); notes, warnings and `--debug` to standard error. The exit
//! status says whether the command did its job (0), and otherwise why
//! not: 1 failure, 2 usage, 3 unreachable, 4 authentication, 5 timeout.

mod agent;
mod args;
mod auth;
mod cmd;
mod extra;
mod failure;
mod help;
mod output;
mod run;
mod settings;
mod signature;
mod term;
mod tokens;
mod wire;

use std::process::ExitCode;

use crate::args::Command;
use crate::failure::Failure;
use crate::run::Run;
use crate::settings::Settings;
use crate::term::{say, tell};

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            tell(&format!("a2a: cannot start the runtime: {e}"));
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(start(argv));
    // A stream's connections may still be open: do not wait for them.
    runtime.shutdown_background();
    ExitCode::from(code)
}

/// Whether `-o json` was asked for, read before the arguments parse (for
/// a usage error's envelope).
fn wants_json(argv: &[String]) -> bool {
    let mut it = argv.iter().peekable();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" | "--output" => return it.peek().is_some_and(|v| *v == "json"),
            "--output=json" | "--json" => return true,
            _ => {}
        }
    }
    std::env::var("A2ACLI_OUTPUT").is_ok_and(|v| v == "json")
}

fn report(json: bool, f: &Failure) -> u8 {
    if json && !f.printed {
        match serde_json::to_string(&f.envelope()) {
            Ok(s) => say(&s),
            Err(_) => tell("a2a: the error could not be written as JSON"),
        }
    } else {
        for line in f.lines() {
            tell(&format!("a2a: {line}"));
        }
    }
    f.exit
}

async fn start(argv: Vec<String>) -> u8 {
    let parsed = match args::parse(argv.clone()) {
        Ok(p) => p,
        Err(e) => {
            let command = argv
                .iter()
                .find(|a| !a.starts_with('-'))
                .cloned()
                .unwrap_or_default();
            return report(
                wants_json(&argv),
                &Failure::usage(e).with_hint(
                    format!("a2a {command} --help")
                        .trim()
                        .replace("a2a  ", "a2a "),
                ),
            );
        }
    };
    for n in &parsed.notes {
        tell(n);
    }
    let settings = match Settings::resolve(&parsed.flags) {
        Ok(s) => s,
        Err(e) => return report(wants_json(&argv), &Failure::usage(e)),
    };
    match &parsed.command {
        Command::Version => {
            say(&format!(
                "a2a {} (a2a-cli specification 0.2; A2A protocol 1.0)",
                env!("CARGO_PKG_VERSION")
            ));
            return 0;
        }
        Command::Help(topic) => {
            if topic.is_empty() {
                say(&help::usage(Some(&settings)));
                return 0;
            }
            return match help::command(topic) {
                Some(text) => {
                    say(&text);
                    0
                }
                None => report(
                    false,
                    &Failure::usage(format!("no help for {:?}", topic.join(" "))),
                ),
            };
        }
        Command::Completion(shell) => {
            print!("{}", extra::completion(shell));
            return 0;
        }
        _ => {}
    }
    let run = match Run::new(settings) {
        Ok(r) => r,
        Err(f) => return report(wants_json(&argv), &f),
    };
    match dispatch(&run, &parsed.command).await {
        Ok(()) => 0,
        Err(f) => report(run.json, &f),
    }
}

async fn dispatch(run: &Run, command: &Command) -> Result<(), Failure> {
    match command {
        Command::CardGet {
            validate,
            extended,
            jwks,
        } => cmd::card_get(run, *validate, *extended, jwks.as_deref()).await,
        Command::Send { parts } => cmd::send(run, parts).await,
        Command::TaskGet { id, wait } => cmd::task_get(run, id, *wait).await,
        Command::TaskCancel(id) => cmd::task_cancel(run, id).await,
        Command::TaskList {
            status,
            page_size,
            page_token,
        } => cmd::task_list(run, *status, *page_size, page_token.as_deref()).await,
        Command::TaskSubscribe(id) => cmd::task_subscribe(run, id).await,
        Command::TaskDownload { id, dir } => cmd::task_download(run, id, dir.as_deref()).await,
        Command::PushCreate { .. }
        | Command::PushGet { .. }
        | Command::PushList(_)
        | Command::PushDelete { .. } => cmd::push(run, command).await,
        Command::ConfigShow => {
            extra::config_show(run);
            Ok(())
        }
        Command::AuthLogin {
            flow,
            client_id,
            client_secret,
            scopes,
            scheme,
        } => {
            auth::login(
                run,
                *flow,
                client_id.as_deref(),
                client_secret.as_deref(),
                scopes,
                scheme.as_deref(),
            )
            .await
        }
        Command::AuthLogout => auth::logout(run).await,
        Command::AuthStatus => auth::status(run).await,
        Command::Chat => extra::chat(run).await,
        Command::DemoServer { port, bearer } => extra::demo_server(*port, bearer).await,
        Command::Conformance { .. } => extra::conformance(run, command).await,
        Command::WebhookServe {
            listen,
            token,
            count,
        } => extra::webhook_serve(run, listen, token.as_deref(), *count).await,
        Command::Completion(_) | Command::Help(_) | Command::Version => Ok(()),
    }
}
