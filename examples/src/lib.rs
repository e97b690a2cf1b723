//! Runnable examples of a2a-core on a real HTTP stack.
//!
//! The core crates never open a socket; `a2a-hyper` is the adapter that
//! does (its `HyperClient` and `serve`), and the transport's
//! `tower-service` feature mounts an agent in any tower application.
//! These examples show what is left for a host to write, which is not
//! much:
//!
//! - [`axum_app`]: an axum application with its own routes that mounts an
//!   agent, at the root or under `/a2a`.
//! - [`hello_agent`]: the README's "Serve an agent": one `execute` on the
//!   agent kit (`a2a-agent`) that streams an artifact in three chunks and
//!   asks for input once, in under 30 lines.
//! - [`own_agent`]: a user's own agent, [`ShoutAgent`](own_agent::ShoutAgent),
//!   on a configured agent-kit handler.
//! - [`binary`]: the command line of the kit agents' binaries.
//! - [`server::reference_agent`]: the reference agent behind an
//!   [`A2aServer`](a2a_transport::A2aServer), for the other examples to
//!   serve.
//! - [`lines`]: a custom transport, A2A over line-delimited JSON-RPC on
//!   any byte stream, served through the same public pipeline as HTTP
//!   ([`A2aServer::serve`](a2a_transport::A2aServer::serve)).
//! - [`constant`]: the constant-answer agent the pipeline bench measures.
//! - [`converse`] ([`conversation`]): send, stream, get, cancel and list,
//!   against any [`A2aService`](a2a_transport::A2aService), printing what
//!   happens.
//!
//! The binaries:
//!
//! ```text
//! cargo run -p a2a-examples --bin server -- --port 8080
//! cargo run -p a2a-examples --bin axum-app -- --port 8080 [--prefix]
//! cargo run -p a2a-examples --bin hello-agent -- --port 8080 [--axum]
//! cargo run -p a2a-examples --bin own-agent -- --port 8080 [--axum]
//! cargo run -p a2a-examples --bin client -- http://127.0.0.1:8080 [--binding jsonrpc|rest] [--bearer TOKEN]
//! cargo run --release -p a2a-examples --bin stream-bench -- http://127.0.0.1:8080 [--streams N] [--chunks N]
//! ```
//!
//! `client` discovers the agent from its URL (the agent card, spec 8.2),
//! takes the interface the card prefers or the binding asked for (spec
//! 8.3.2) and runs the conversation; `server` serves the reference agent
//! on both bindings with `a2a_hyper::serve`, `axum-app` inside an axum
//! app; `own-agent` serves the shout agent; `stream-bench` measures
//! streamed events per second (see `scripts/bench-agent`).

pub mod axum_app;
pub mod binary;
pub mod constant;
pub mod conversation;
pub mod hello_agent;
pub mod lines;
pub mod own_agent;
pub mod server;

pub use conversation::{converse, Transcript};
