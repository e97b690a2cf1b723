//! `own-agent`: a user's own agent (`a2a_examples::own_agent::ShoutAgent`,
//! one `execute` on the agent kit) served with `a2a_hyper::serve`, or
//! mounted in axum with `--axum`.
//!
//! ```text
//! cargo run -p a2a-examples --bin own-agent -- --port 8080
//! cargo run -p a2a-conformance -- --url http://127.0.0.1:8080   # in another terminal
//! ```

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    a2a_examples::binary::serve_from_args("own-agent", a2a_examples::own_agent::server).await
}
