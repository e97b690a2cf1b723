//! `a2a-conformance`: runs the A2A v1.0 conformance suite against the
//! embedded reference agent (no arguments) or a live agent (`--url`).
//! See `--help` and the crate README.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;

mod client_cli;

use a2a_conformance::{
    run, scenarios, serve_webhook, Binding, Caller, Contract, Embedded, Outcome, Progress, Remote,
    RunOptions, Target, Webhook,
};

const USAGE: &str = "\
a2a-conformance: the A2A v1.0 conformance suite

USAGE: a2a-conformance [OPTIONS]
       a2a-conformance client [OPTIONS] -- <command that runs the client>   (see client --help)

With no options, starts the reference agent on loopback HTTP (JSON-RPC,
HTTP+JSON and gRPC over h2c) and in process, and runs every scenario against it.

  --url <base URL>        test a live agent, found through <base URL>/.well-known/agent-card.json
                          (a URL ending in /.well-known/agent-card.json is taken as its base)
  --binding <jsonrpc|rest|grpc>
                          test only this binding of the card (repeatable; default: every one)
  --bearer <token>        send `Authorization: Bearer <token>` (repeat it: the second token is
                          another caller, for the authorization scoping scenarios)
  --header 'Name: value'  send this header with the main caller's requests (repeatable)
  --webhook <ip:port>     listen there for push notifications, so that the push delivery
                          scenarios can run against a live agent that can reach it
  --require-signature     the card must carry a signature that verifies (spec 8.4.3): a card
                          without one fails card.signature-required
  --jwks <file>           trust the keys of this JWKS file for the card's signatures; without it,
                          each signature's jku is fetched to report whether the card verifies
  --version <1.0|0.3>     the A2A version to test (default: 1.0, or 0.3 when the card offers
                          only 0.3 interfaces). At 0.3 the card's 0.3 interfaces are called in
                          0.3; 1.0 wire and card scenarios and ListTasks scenarios skip, and
                          the 0.3 wire scenarios run. Without --url, the embedded agent
                          serves 0.3 too (its --v0-3)
  --contract <reference|tck|none>
                          how to ask the agent for the behaviours some scenarios need
                          (input-required, a long-running task, failure, a streamed
                          artifact…): the reference agent's message text, the official
                          TCK's messageId prefixes, or nothing (the default with --url;
                          those scenarios skip). Each behaviour is probed on its own; one
                          the agent does not show is reported as not implemented (its
                          scenarios skip). A bare --contract is --contract reference
  --only <pattern>        run only scenarios whose id contains <pattern>, or whose section
                          starts with it (`3.1`), `*` globs allowed (repeatable)
  --json <file>           write the report as JSON (schema: report.schema.json)
  --html <file>           write the report as one self-contained HTML page, filterable by
                          status and binding
  --junit <file>          write the report as JUnit XML, for CI systems
  --jobs <n>              scenarios in flight at once (default 8)
  --quiet                 no progress line
  --list                  print the scenario library as a Markdown table (with the matching
                          TCK requirement ids) and exit
  -h, --help              this text

The last line is `N passed, M failed, K skipped`; the exit status is 1 when a
MUST scenario fails, 2 for a usage error.";

/// What `--help` adds when the runner is built with `draft-1-1`.
#[cfg(feature = "draft-1-1")]
const USAGE_DRAFT_1_1: &str = "\
Built with the draft-1-1 feature: --version 1.1 tests the A2A 1.1 draft on the
card's 1.1 interfaces (generations, long poll, ifGenerationMatch, the timeline;
the draft.* scenarios, provisional like the draft). Without --url, the embedded
agent serves 1.1 beside 1.0 (its --draft-1-1).";

#[derive(Debug, Default)]
struct Options {
    url: Option<String>,
    bindings: Vec<Binding>,
    bearers: Vec<String>,
    headers: Vec<(String, String)>,
    contract: Option<Contract>,
    require_signature: bool,
    jwks: Option<a2a_signing::JwkSet>,
    webhook: Option<std::net::SocketAddr>,
    only: Vec<String>,
    json: Option<String>,
    html: Option<String>,
    junit: Option<String>,
    jobs: Option<usize>,
    quiet: bool,
    version: Option<a2a_transport::ProtocolVersion>,
}

enum Parsed {
    Run(Box<Options>),
    Help,
    List,
}

fn parse(args: impl IntoIterator<Item = String>) -> Result<Parsed, String> {
    let mut o = Options::default();
    let mut args = args.into_iter().peekable();
    while let Some(flag) = args.next() {
        if flag == "--contract" {
            // A bare `--contract` (the old flag) is `reference`.
            let named = args.peek().and_then(|v| Contract::parse(v));
            if named.is_some() {
                args.next();
            } else if args.peek().is_some_and(|v| !v.starts_with("--")) {
                let v = args.next().unwrap_or_default();
                return Err(format!("--contract {v:?}: expected reference, tck or none"));
            }
            o.contract = Some(named.unwrap_or(Contract::Reference));
            continue;
        }
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--url" => o.url = Some(value("--url")?.trim_end_matches('/').to_owned()),
            "--binding" => {
                o.bindings
                    .push(match value("--binding")?.to_ascii_lowercase().as_str() {
                        "jsonrpc" | "json-rpc" => Binding::JsonRpc,
                        "rest" | "http+json" | "httpjson" => Binding::HttpJson,
                        "grpc" => Binding::Grpc,
                        other => {
                            return Err(format!(
                                "--binding {other:?}: this runner speaks jsonrpc, rest and grpc"
                            ))
                        }
                    })
            }
            "--bearer" => {
                let t = value("--bearer")?;
                if t.is_empty() {
                    return Err("--bearer needs a non-empty token".into());
                }
                o.bearers.push(t);
            }
            "--header" => {
                let h = value("--header")?;
                let (name, v) = h
                    .split_once(':')
                    .ok_or_else(|| format!("--header {h:?}: expected 'Name: value'"))?;
                let (name, v) = (name.trim().to_owned(), v.trim().to_owned());
                if http::HeaderName::try_from(name.as_str()).is_err()
                    || http::HeaderValue::from_str(&v).is_err()
                {
                    return Err(format!("--header {h:?} is not a valid header"));
                }
                o.headers.push((name, v));
            }
            "--require-signature" => o.require_signature = true,
            "--jwks" => {
                let path = value("--jwks")?;
                let text = std::fs::read(&path).map_err(|e| format!("--jwks {path}: {e}"))?;
                o.jwks = Some(
                    a2a_signing::JwkSet::from_json(&text)
                        .map_err(|e| format!("--jwks {path}: {e}"))?,
                );
            }
            "--webhook" => {
                let v = value("--webhook")?;
                o.webhook = Some(
                    v.parse()
                        .map_err(|_| format!("--webhook {v:?}: expected ip:port"))?,
                );
            }
            "--only" => o.only.push(value("--only")?),
            "--json" => o.json = Some(value("--json")?),
            "--html" => o.html = Some(value("--html")?),
            "--junit" => o.junit = Some(value("--junit")?),
            "--jobs" => {
                let v = value("--jobs")?;
                o.jobs = Some(
                    v.parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| format!("--jobs {v:?}: expected a positive number"))?,
                );
            }
            "--quiet" => o.quiet = true,
            "--version" => {
                let v = value("--version")?;
                o.version = Some(match v.trim() {
                    "1.0" => a2a_transport::ProtocolVersion::V1_0,
                    "0.3" => a2a_transport::ProtocolVersion::V0_3,
                    #[cfg(feature = "draft-1-1")]
                    "1.1" => a2a_transport::ProtocolVersion::V1_1,
                    #[cfg(feature = "draft-1-1")]
                    other => {
                        return Err(format!(
                            "--version {other:?}: this runner tests 1.0, 0.3 and the 1.1 draft"
                        ))
                    }
                    #[cfg(not(feature = "draft-1-1"))]
                    other => {
                        return Err(format!(
                            "--version {other:?}: this runner tests 1.0 and 0.3"
                        ))
                    }
                });
            }
            "--list" => return Ok(Parsed::List),
            other => return Err(format!("unknown argument {other:?} (see --help)")),
        }
    }
    if o.url.is_none()
        && (!o.bindings.is_empty()
            || !o.bearers.is_empty()
            || !o.headers.is_empty()
            || o.jwks.is_some())
    {
        return Err("--binding, --bearer, --header and --jwks need --url".into());
    }
    Ok(Parsed::Run(Box::new(o)))
}

/// What runs beside the suite and stops with it.
enum Running {
    /// The embedded agent's servers.
    Embedded(a2a_conformance::Running),
    /// The webhook receiver for a live agent.
    Webhook(tokio::task::JoinHandle<()>),
}

impl Running {
    fn stop(self) {
        match self {
            Running::Embedded(servers) => drop(servers),
            Running::Webhook(receiver) => receiver.abort(),
        }
    }
}

fn callers(o: &Options) -> Vec<Caller> {
    let mut callers: Vec<Caller> = if o.bearers.is_empty() {
        vec![Caller::default()]
    } else {
        o.bearers.iter().map(|t| Caller::bearer(t, None)).collect()
    };
    for (name, value) in &o.headers {
        if let (Ok(n), Ok(v)) = (
            http::HeaderName::try_from(name.as_str()),
            http::HeaderValue::from_str(value),
        ) {
            callers[0].headers.insert(n, v);
        }
    }
    callers
}

fn progress(quiet: bool) -> Option<a2a_conformance::ProgressFn> {
    if quiet {
        return None;
    }
    let tty = std::io::stderr().is_terminal();
    Some(Arc::new(move |p: &Progress<'_>| {
        let r = p.record;
        let mark = match r.outcome {
            Outcome::Pass => "pass",
            Outcome::Fail => "FAIL",
            Outcome::Skip => "skip",
        };
        let mut err = std::io::stderr().lock();
        if tty {
            let _ = write!(
                err,
                "\r\x1b[2K[{:>3}/{}] {} {} ({}) {mark}",
                p.done, p.total, r.section, r.scenario, r.binding
            );
            if p.done == p.total {
                let _ = write!(err, "\r\x1b[2K");
            }
        } else if p.done % 25 == 0 || p.done == p.total {
            let _ = writeln!(err, "running: {}/{} done", p.done, p.total);
        }
        let _ = err.flush();
    }))
}

/// The embedded agent, serving 0.3 too for a 0.3 run (and the 1.1 draft
/// too for a 1.1 run).
fn embedded(version: Option<a2a_transport::ProtocolVersion>) -> Embedded {
    let mut e = Embedded::default();
    e.v0_3 = version == Some(a2a_transport::ProtocolVersion::V0_3);
    #[cfg(feature = "draft-1-1")]
    {
        e.draft_1_1 = version == Some(a2a_transport::ProtocolVersion::V1_1);
    }
    e
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("client") {
        return client_cli::main(&args[1..]);
    }
    let options = match parse(args) {
        Ok(Parsed::Run(o)) => *o,
        Ok(Parsed::Help) => {
            println!("{USAGE}");
            #[cfg(feature = "draft-1-1")]
            println!("{USAGE_DRAFT_1_1}");
            return ExitCode::SUCCESS;
        }
        Ok(Parsed::List) => {
            print!("{}", scenarios::markdown_table(&scenarios::all()));
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("a2a-conformance: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match client_cli::runtime("a2a-conformance") {
        Ok(rt) => rt,
        Err(code) => return code,
    };
    runtime.block_on(async move {
        let (target, running) = match &options.url {
            None => match embedded(options.version).on_loopback().await {
                Ok((mut t, r)) => {
                    // The reference agent also reads the TCK's prefixes.
                    t.contract = options.contract.unwrap_or(Contract::Reference);
                    (t, Some(Running::Embedded(r)))
                }
                Err(e) => {
                    eprintln!("a2a-conformance: cannot start the embedded agent on loopback: {e}");
                    return ExitCode::FAILURE;
                }
            },
            Some(url) => {
                if let Some(base) = a2a_conformance::base_url_of(url) {
                    eprintln!(
                        "a2a-conformance: --url {url} names the agent card; \
                         testing the agent under its base URL {base}"
                    );
                }
                let mut remote = Remote::new(url.clone());
                remote.bindings = options.bindings.clone();
                remote.callers = callers(&options);
                remote.contract = options.contract.unwrap_or(Contract::None);
                remote.require_signature = options.require_signature;
                remote.trusted_keys.clone_from(&options.jwks);
                let mut target = remote.connect().await;
                let mut receiver = None;
                if let Some(addr) = options.webhook {
                    match tokio::net::TcpListener::bind(addr)
                        .await
                        .and_then(|l| Ok((l.local_addr()?, l)))
                    {
                        Ok((bound, listener)) => {
                            let webhook = Webhook::new(format!("http://{bound}/hooks"));
                            receiver = Some(serve_webhook(listener, webhook.clone()));
                            target.webhook = Some(webhook);
                        }
                        Err(e) => {
                            eprintln!("a2a-conformance: cannot listen for webhooks on {addr}: {e}");
                            return ExitCode::FAILURE;
                        }
                    }
                }
                (target, receiver.map(Running::Webhook))
            }
        };
        let version = options
            .version
            .unwrap_or_else(|| Target::version_for(&target.card));
        let target = target.at_version(version);
        eprintln!(
            "a2a-conformance: testing {} ({}) at A2A {version}",
            target.name, target.base_url
        );
        let run_options = RunOptions {
            only: options.only.clone(),
            jobs: options.jobs.unwrap_or(8),
            progress: progress(options.quiet),
        };
        let all = scenarios::for_version(version);
        let report = run(target, &all, &run_options).await;
        if let Some(running) = running {
            running.stop();
        }
        print!("{}", report.table());
        let mut files: Vec<(&String, Vec<u8>)> = Vec::new();
        if let Some(path) = &options.json {
            match serde_json::to_vec_pretty(&report) {
                Ok(bytes) => files.push((path, bytes)),
                Err(e) => eprintln!("a2a-conformance: cannot write {path}: {e}"),
            }
        }
        if let Some(path) = &options.html {
            files.push((path, report.to_html().into_bytes()));
        }
        if let Some(path) = &options.junit {
            files.push((path, report.to_junit().into_bytes()));
        }
        for (path, bytes) in files {
            if let Err(e) = std::fs::write(path, bytes) {
                eprintln!("a2a-conformance: cannot write {path}: {e}");
            }
        }
        client_cli::finish(&report)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Result<Parsed, String> {
        parse(a.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn flags() {
        let Ok(Parsed::Run(o)) = args(&[
            "--url",
            "http://h:1/",
            "--binding",
            "rest",
            "--bearer",
            "a",
            "--bearer",
            "b",
            "--header",
            "X-Api-Key: k",
            "--only",
            "3.1",
            "--json",
            "r.json",
            "--html",
            "r.html",
            "--junit",
            "r.xml",
            "--jobs",
            "2",
            "--contract",
            "--webhook",
            "127.0.0.1:0",
        ]) else {
            panic!("parse failed")
        };
        assert_eq!(o.url.as_deref(), Some("http://h:1"));
        assert_eq!(o.bindings, [Binding::HttpJson]);
        let c = callers(&o);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].headers["authorization"], "Bearer a");
        assert_eq!(c[0].headers["x-api-key"], "k");
        assert!(c[1].headers.get("x-api-key").is_none());
        assert_eq!((o.jobs, o.contract), (Some(2), Some(Contract::Reference)));
        for (given, want) in [("tck", Contract::Tck), ("none", Contract::None)] {
            let Ok(Parsed::Run(n)) = args(&["--url", "x", "--contract", given]) else {
                panic!("--contract {given}")
            };
            assert_eq!(n.contract, Some(want));
        }
        assert_eq!(
            (o.html.as_deref(), o.junit.as_deref()),
            (Some("r.html"), Some("r.xml"))
        );
        assert_eq!(o.webhook, Some("127.0.0.1:0".parse().unwrap()));
        assert!(matches!(args(&["--help"]), Ok(Parsed::Help)));
        let Ok(Parsed::Run(g)) = args(&["--binding", "grpc", "--url", "x"]) else {
            panic!("--binding grpc")
        };
        assert_eq!(g.bindings, [Binding::Grpc]);
        for bad in [
            &["--binding", "soap", "--url", "x"][..],
            &["--header", "novalue", "--url", "x"],
            &["--bearer", "t"],
            &["--jobs", "0"],
            &["--url", "x", "--contract", "echo"],
            &["--nope"],
        ] {
            assert!(args(bad).is_err(), "{bad:?}");
        }
    }
}
