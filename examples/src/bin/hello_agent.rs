//! `hello-agent`: the README's "Serve an agent" (`a2a_examples::hello_agent`)
//! served with `a2a_hyper::serve`, or mounted in axum with `--axum`.
//!
//! ```text
//! cargo run -p a2a-examples --bin hello-agent -- --port 8080
//! cargo run -p a2a-cli -- send -a http://127.0.0.1:8080 "hi" --stream   # in another terminal
//! cargo run -p a2a-conformance -- --url http://127.0.0.1:8080
//! ```

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    a2a_examples::binary::serve_from_args("hello-agent", a2a_examples::hello_agent::server).await
}
