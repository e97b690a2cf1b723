//! Runnable examples of a2a-core on a real HTTP stack, and the small
//! pieces of glue they share.
//!
//! The core crates never open a socket. A host supplies the HTTP stack on
//! each side, and this crate shows how little that is:
//!
//! - [`HyperClient`] ([`http_client`]): the client side's one trait,
//!   [`HttpClient`](a2a_transport::HttpClient), on hyper-util's pooled
//!   client, in about forty lines. Reusable as it is by any tool that
//!   talks to agents over plain `http` (the conformance runner, say).
//! - [`server::serve`]: hyper's server around the pure
//!   [`A2aServer::handle`](a2a_transport::A2aServer::handle), in about
//!   forty lines; [`server::reference_agent`] puts the reference agent
//!   behind it.
//! - [`lines`]: a custom transport, A2A over line-delimited JSON-RPC on
//!   any byte stream, served through the same public pipeline as HTTP
//!   ([`A2aServer::serve`](a2a_transport::A2aServer::serve)).
//! - [`converse`] ([`conversation`]): send, stream, get, cancel and list,
//!   against any [`A2aService`](a2a_transport::A2aService), printing what
//!   happens.
//!
//! The binaries:
//!
//! ```text
//! cargo run -p a2a-examples --bin server -- --port 8080
//! cargo run -p a2a-examples --bin client -- http://127.0.0.1:8080 [--binding jsonrpc|rest] [--bearer TOKEN]
//! cargo run --release -p a2a-examples --bin stream-bench -- http://127.0.0.1:8080 [--streams N] [--chunks N]
//! ```
//!
//! `client` discovers the agent from its URL (the agent card, spec 8.2),
//! takes the interface the card prefers or the binding asked for (spec
//! 8.3.2) and runs the conversation; `server` serves the reference agent
//! on both bindings; `stream-bench` measures streamed events per second
//! (see `scripts/bench-agent`).

pub mod conversation;
pub mod http_client;
pub mod lines;
pub mod server;

pub use conversation::{converse, Transcript};
pub use http_client::HyperClient;
