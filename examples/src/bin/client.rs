//! `client`: discovers an A2A agent from its URL and runs a conversation
//! with it over the binding its card offers.
//!
//! ```text
//! cargo run -p a2a-examples --bin client -- http://127.0.0.1:8080 [--binding jsonrpc|rest|grpc] [--bearer TOKEN]
//! ```
//!
//! Start an agent first, e.g. `cargo run -p a2a-examples --bin server`.

use std::process::ExitCode;

use a2a_examples::converse;
use a2a_hyper::HyperClient;
use a2a_transport::{client::Preferences, discover, Binding, CallContext};
use http::header::{HeaderValue, AUTHORIZATION};

const USAGE: &str =
    "usage: client <agent base URL> [--binding jsonrpc|rest|grpc] [--bearer TOKEN]\n\
     e.g.   client http://127.0.0.1:8080";

#[tokio::main]
async fn main() -> ExitCode {
    let args = match Args::parse(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("client: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };

    // Discovery: GET {url}/.well-known/agent-card.json, validate the card,
    // and take its first interface we speak (the agent's preference, spec
    // 8.3.2), or the first of the binding asked for.
    let prefs = match args.binding {
        Some(binding) => Preferences::new().with_bindings([binding]),
        None => Preferences::new(),
    };
    let agent = match discover(HyperClient::new(), &args.url, &prefs).await {
        Ok(agent) => agent,
        Err(e) => {
            eprintln!("client: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "agent   {:?} version {}",
        agent.card.name, agent.card.version
    );
    for offered in &agent.card.supported_interfaces {
        println!(
            "offers  {} {} at {}",
            offered.protocol_binding, offered.protocol_version, offered.url
        );
    }
    println!(
        "using   {} at {}",
        agent.interface.protocol_binding, agent.interface.url
    );
    if !agent.card.security_requirements.is_empty() && args.bearer.is_none() {
        let schemes: Vec<&str> = agent
            .card
            .security_schemes
            .keys()
            .map(String::as_str)
            .collect();
        println!(
            "note    the card asks callers to authenticate ({}); pass --bearer TOKEN",
            schemes.join(", ")
        );
    }

    // Every call carries the context: extra headers such as the bearer
    // token go here; `A2A-Version: 1.0` is added by the transport.
    let mut cx = CallContext::new();
    if let Some(token) = &args.bearer {
        let Ok(value) = HeaderValue::from_str(&format!("Bearer {token}")) else {
            eprintln!("client: the bearer token is not a valid header value");
            return ExitCode::from(2);
        };
        cx.headers.insert(AUTHORIZATION, value);
    }

    // The conversation: any `A2aService` will do, and the transport is one.
    match converse(&agent.transport, &cx, &mut |line| println!("{line}")).await {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("client: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The command line.
struct Args {
    url: String,
    binding: Option<Binding>,
    bearer: Option<String>,
}

impl Args {
    /// `None` for `--help`.
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
        let (mut url, mut binding, mut bearer) = (None, None, None);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--binding" => {
                    let value = args.next().ok_or("--binding needs a value")?;
                    binding = Some(match value.to_ascii_lowercase().as_str() {
                        "jsonrpc" | "json-rpc" => Binding::JsonRpc,
                        "rest" | "http+json" => Binding::HttpJson,
                        "grpc" => Binding::Grpc,
                        _ => return Err(format!("--binding {value:?}: say jsonrpc, rest or grpc")),
                    });
                }
                "--bearer" => bearer = Some(args.next().ok_or("--bearer needs a value")?),
                "-h" | "--help" => return Ok(None),
                flag if flag.starts_with('-') => return Err(format!("unknown flag {flag:?}")),
                _ if url.is_none() => url = Some(arg),
                _ => return Err(format!("unexpected argument {arg:?}")),
            }
        }
        let url = url.ok_or("the agent's base URL is missing")?;
        Ok(Some(Args {
            url,
            binding,
            bearer,
        }))
    }
}
