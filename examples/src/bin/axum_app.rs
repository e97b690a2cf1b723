//! `axum-app`: the reference agent mounted in an axum application that
//! has a route of its own (`/health`).
//!
//! ```text
//! cargo run -p a2a-examples --bin axum-app -- --port 8080            # the agent at the root
//! cargo run -p a2a-examples --bin axum-app -- --port 8080 --prefix   # the agent under /a2a
//! ```
//!
//! See `a2a_examples::axum_app` for the glue and where the card lives.

use std::process::ExitCode;

use a2a_examples::axum_app::reference_app;
use tokio::net::TcpListener;

const USAGE: &str =
    "usage: axum-app [--port N] [--prefix]   (port 8080 by default; 0 picks a free one)";

#[tokio::main]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut port, mut prefix) = (8080u16, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => match args.next().and_then(|v| v.parse().ok()) {
                Some(p) => port = p,
                None => {
                    eprintln!("axum-app: --port needs a port number\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "--prefix" => prefix = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("axum-app: unknown argument {other:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let listener = match TcpListener::bind(("127.0.0.1", port)).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("axum-app: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let origin = match listener.local_addr() {
        Ok(addr) => format!("http://{addr}"),
        Err(e) => {
            eprintln!("axum-app: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (router, base_url) = match reference_app(&origin, prefix) {
        Ok(built) => built,
        Err(e) => {
            eprintln!("axum-app: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("agent at {base_url} (card at {base_url}/.well-known/agent-card.json), health at {origin}/health; Ctrl-C stops");
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    if let Err(e) = axum::serve(listener, router)
        .with_graceful_shutdown(ctrl_c)
        .await
    {
        eprintln!("axum-app: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
