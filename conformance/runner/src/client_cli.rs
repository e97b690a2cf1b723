//! `a2a-conformance client`: client conformance from the command line.

use std::process::ExitCode;

use a2a_conformance::client::{self, ClientRun};
use a2a_conformance::Binding;

const USAGE: &str = "\
a2a-conformance client: the A2A v1.0 client conformance suite

USAGE: a2a-conformance client [OPTIONS] -- <command that runs the client> [args...]

Plays a scripted agent on a loopback port for each scenario and binding, runs the
command with A2A_CONFORMANCE_URL, A2A_CONFORMANCE_SCENARIO, A2A_CONFORMANCE_BINDING
and A2A_CONFORMANCE_CALLS set, and checks what it sent and what it printed (JSON
lines; the contract is in the runner's README).

  --binding <jsonrpc|rest>  test only this binding (repeatable; default: both)
  --only <pattern>          run only scenarios whose id contains <pattern>, or whose
                            section starts with it (repeatable)
  --json <file>             write the report as JSON (the agent report's schema)
  --timeout <seconds>       the longest one run of the client may take (default 30)
  --list                    print the client scenarios as a Markdown table and exit
  -h, --help                this text

The last line is `N passed, M failed, K skipped`; the exit status is 1 when a
MUST scenario fails, 2 for a usage error.";

enum Parsed {
    Run(ClientRun, Option<String>),
    Help,
    List,
}

fn parse(args: &[String]) -> Result<Parsed, String> {
    let mut run = ClientRun::new(Vec::new());
    let mut json = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--list" => return Ok(Parsed::List),
            "--binding" => {
                run.bindings
                    .push(match value("--binding")?.to_ascii_lowercase().as_str() {
                        "jsonrpc" | "json-rpc" => Binding::JsonRpc,
                        "rest" | "http+json" | "httpjson" => Binding::HttpJson,
                        other => {
                            return Err(format!("--binding {other:?}: expected jsonrpc or rest"))
                        }
                    })
            }
            "--only" => run.only.push(value("--only")?),
            "--json" => json = Some(value("--json")?),
            "--timeout" => {
                let v = value("--timeout")?;
                let secs: u64 = v
                    .parse()
                    .ok()
                    .filter(|s| *s > 0)
                    .ok_or_else(|| format!("--timeout {v:?}: expected a positive number"))?;
                run.timeout = std::time::Duration::from_secs(secs);
            }
            "--" => {
                run.command = it.by_ref().cloned().collect();
                break;
            }
            other => return Err(format!("unknown argument {other:?} (see --help)")),
        }
    }
    if run.command.is_empty() {
        return Err("no client command: put it after `--`".into());
    }
    Ok(Parsed::Run(run, json))
}

/// The multi-threaded runtime both commands run on, or the exit status
/// after saying why `program` could not start one.
pub(crate) fn runtime(program: &str) -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            eprintln!("{program}: cannot start the runtime: {e}");
            ExitCode::FAILURE
        })
}

/// Runs the subcommand with the arguments after `client`.
pub(crate) fn main(args: &[String]) -> ExitCode {
    let (run, json) = match parse(args) {
        Ok(Parsed::Run(run, json)) => (run, json),
        Ok(Parsed::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Parsed::List) => {
            print!("{}", client::markdown_table(&client::all()));
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("a2a-conformance client: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match runtime("a2a-conformance client") {
        Ok(rt) => rt,
        Err(code) => return code,
    };
    let report = runtime.block_on(client::run_client(&run, &client::all()));
    print!("{}", report.table());
    if let Some(path) = &json {
        let written = serde_json::to_vec_pretty(&report)
            .map_err(|e| e.to_string())
            .and_then(|bytes| std::fs::write(path, bytes).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("a2a-conformance client: cannot write {path}: {e}");
        }
    }
    finish(&report)
}

/// Prints the summary line of `report`; the exit status is a failure
/// when a MUST scenario failed (both commands).
pub(crate) fn finish(report: &a2a_conformance::Report) -> ExitCode {
    println!("{}", report.summary_line());
    if report.must_failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Result<Parsed, String> {
        parse(&a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn flags_and_the_command() {
        let Ok(Parsed::Run(run, json)) = args(&[
            "--binding",
            "rest",
            "--only",
            "stream",
            "--json",
            "r.json",
            "--timeout",
            "5",
            "--",
            "python3",
            "client.py",
            "--only",
        ]) else {
            panic!("parse failed")
        };
        assert_eq!(run.command, ["python3", "client.py", "--only"]);
        assert_eq!(run.bindings, [Binding::HttpJson]);
        assert_eq!(run.only, ["stream"]);
        assert_eq!(run.timeout, std::time::Duration::from_secs(5));
        assert_eq!(json.as_deref(), Some("r.json"));
        for bad in [
            &["--"][..],
            &["x"],
            &["--binding", "grpc", "--", "c"],
            &["--timeout", "0", "--", "c"],
        ] {
            assert!(args(bad).is_err(), "{bad:?}");
        }
        assert!(matches!(args(&["--list"]), Ok(Parsed::List)));
    }
}
