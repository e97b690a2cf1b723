//! `own-agent`: a user's own agent (`a2a_examples::own_agent::ShoutAgent`,
//! two operations) served with `a2a_hyper::serve`.
//!
//! ```text
//! cargo run -p a2a-examples --bin own-agent -- --port 8080
//! cargo run -p a2a-conformance -- --url http://127.0.0.1:8080   # in another terminal
//! ```

use std::process::ExitCode;
use std::sync::Arc;

use a2a_examples::own_agent::ShoutAgent;
use a2a_hyper::{serve, ServeOptions};
use a2a_transport::A2aServer;
use tokio::net::TcpListener;

const USAGE: &str = "usage: own-agent [--port N]   (default 8080; 0 picks a free port)";

#[tokio::main]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut port = 8080u16;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => match args.next().and_then(|v| v.parse().ok()) {
                Some(p) => port = p,
                None => {
                    eprintln!("own-agent: --port needs a port number\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("own-agent: unknown argument {other:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let listener = match TcpListener::bind(("127.0.0.1", port)).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("own-agent: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let base_url = match listener.local_addr() {
        Ok(addr) => format!("http://{addr}"),
        Err(e) => {
            eprintln!("own-agent: {e}");
            return ExitCode::FAILURE;
        }
    };
    let card = ShoutAgent::card(&base_url);
    let server = match A2aServer::new(
        ShoutAgent::new(),
        card,
        a2a_examples::own_agent::server_config(),
    ) {
        Ok(server) => Arc::new(server),
        Err(e) => {
            eprintln!("own-agent: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("the shout agent at {base_url}; Ctrl-C stops");
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    serve(listener, server, ServeOptions::default(), ctrl_c).await;
    ExitCode::SUCCESS
}
