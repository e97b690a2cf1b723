//! The command line the kit agents' binaries share (`own-agent`,
//! `hello-agent`): `--port N` (default 8080, 0 picks a free one) and
//! `--axum` (mounted at the root of an axum app, see [`crate::axum_app`],
//! instead of on `a2a_hyper::serve` directly).

use std::process::ExitCode;
use std::sync::Arc;

use a2a_hyper::{serve, ServeOptions};
use a2a_transport::{server::ConfigError, A2aServer, A2aService};
use tokio::net::TcpListener;

/// Parses the arguments, binds 127.0.0.1, builds the server with
/// `make(base_url)` and serves it until Ctrl-C.
pub async fn serve_from_args<S: A2aService + 'static>(
    name: &str,
    make: impl FnOnce(&str) -> Result<A2aServer<S>, ConfigError>,
) -> ExitCode {
    let usage =
        format!("usage: {name} [--port N] [--axum]   (port 8080 by default; 0 picks a free one)");
    let mut args = std::env::args().skip(1);
    let (mut port, mut axum) = (8080u16, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => match args.next().and_then(|v| v.parse().ok()) {
                Some(p) => port = p,
                None => {
                    eprintln!("{name}: --port needs a port number\n{usage}");
                    return ExitCode::from(2);
                }
            },
            "--axum" => axum = true,
            "-h" | "--help" => {
                println!("{usage}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("{name}: unknown argument {other:?}\n{usage}");
                return ExitCode::from(2);
            }
        }
    }
    let listener = match TcpListener::bind(("127.0.0.1", port)).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("{name}: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let base_url = match listener.local_addr() {
        Ok(addr) => format!("http://{addr}"),
        Err(e) => {
            eprintln!("{name}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let server = match make(&base_url) {
        Ok(server) => Arc::new(server),
        Err(e) => {
            eprintln!("{name}: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("{name} at {base_url}; Ctrl-C stops");
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    if axum {
        let app = crate::axum_app::app(server);
        if let Err(e) = axum::serve(listener, app)
            .with_graceful_shutdown(ctrl_c)
            .await
        {
            eprintln!("{name}: {e}");
            return ExitCode::FAILURE;
        }
    } else {
        serve(listener, server, ServeOptions::default(), ctrl_c).await;
    }
    ExitCode::SUCCESS
}
