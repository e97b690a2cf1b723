//! `server`: the reference agent on the smallest host there is.
//!
//! ```text
//! cargo run -p a2a-examples --bin server -- --port 8080
//! ```
//!
//! Binds a loopback port, puts the reference agent behind an `A2aServer`
//! whose card advertises that address, and serves it with
//! `a2a_hyper::serve` until Ctrl-C.

use std::process::ExitCode;

use a2a_examples::server::reference_agent;
use a2a_hyper::{serve, server_config, ServeOptions};
use tokio::net::TcpListener;

const USAGE: &str = "usage: server [--port N]   (default 8080; 0 picks a free port)";

#[tokio::main]
async fn main() -> ExitCode {
    let port = match parse_port(std::env::args().skip(1)) {
        Ok(Some(port)) => port,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("server: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let listener = match TcpListener::bind(("127.0.0.1", port)).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("server: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let base_url = match listener.local_addr() {
        Ok(addr) => format!("http://{addr}"),
        Err(e) => {
            eprintln!("server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let server = match reference_agent(&base_url, server_config()) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("server: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("serving the reference agent at {base_url} (card at {base_url}/.well-known/agent-card.json); Ctrl-C stops");
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    serve(listener, server, ServeOptions::default(), ctrl_c).await;
    println!("stopped");
    ExitCode::SUCCESS
}

/// `--port N`; `None` for `--help`.
fn parse_port(mut args: impl Iterator<Item = String>) -> Result<Option<u16>, String> {
    let mut port = 8080;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => {
                let value = args.next().ok_or("--port needs a value")?;
                port = value
                    .parse()
                    .map_err(|_| format!("--port {value:?} is not a port number"))?;
            }
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Some(port))
}
