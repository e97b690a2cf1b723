//! A2A v1.0 on hyper and tokio: the adapter a host picks up so that it
//! writes no glue of its own.
//!
//! The core crates (`a2a-types`, `a2a-jsonrpc`, `a2a-sse`,
//! `a2a-transport`) never open a socket or read a clock. This crate is the
//! one place where tokio and hyper meet them:
//!
//! - [`HyperClient`]: the transport's [`HttpClient`](a2a_transport::HttpClient)
//!   on hyper-util's pooled client: HTTP/1.1 and HTTP/2, `https` through
//!   rustls (Mozilla's roots), an optional response timeout, and the
//!   host's name resolution ([`ClientOptions`]; [`SystemResolver`] under
//!   an `SsrfResolver` for push delivery, spec 13.2).
//! - [`serve`]: an [`A2aServer`](a2a_transport::A2aServer) on a
//!   `TcpListener`, HTTP/1.1 and HTTP/2, with the body read under the
//!   server's limit, graceful shutdown and an optional request log
//!   ([`ServeOptions`]), within connection limits that survive idle and
//!   slow clients ([`HostLimits`], counted in [`ServeStats`]);
//!   [`raise_fd_limit`] for the file descriptors they need.
//! - [`server_config`] and [`TokioTimer`]: SSE keep-alive comments on
//!   tokio's clock, every [`DEFAULT_KEEP_ALIVE`] of quiet.
//! - For the agent kit (`a2a-agent`): [`TokioRuntime`], its `Spawn` and
//!   `Clock` on tokio, and [`HttpPushSender`], its webhook deliveries on
//!   [`HyperClient`] with every connected address checked (spec 13.2).
//!
//! To mount an agent in an existing axum (or any tower) application
//! instead, the transport's `tower-service` feature is all it takes:
//! `Router::new().nest_service("/a2a", TowerService::new(server))` (see
//! the `a2a-examples` crate's `axum_app`).
//!
//! # Limits
//!
//! What [`serve`] bounds (the A2A server's own request limits are listed
//! in the `a2a-transport` crate docs):
//!
//! | limit | default | set with |
//! | --- | --- | --- |
//! | connections at once (for a newcomer: the idle longest closed, else the stream quiet longest) | 1024 | [`HostLimits::max_connections`] |
//! | connections at once from one IP address (the same order, among its own) | 256 | [`HostLimits::max_connections_per_peer`] |
//! | requests in flight from one IP address, streams included (503) | 512 | [`HostLimits::max_requests_per_peer`] |
//! | time a response may wait for its client to read (HTTP/2 stream reset, HTTP/1.1 connection closed) | 30 s | [`HostLimits::write_timeout`] |
//! | time to send a request head (HTTP/1.1) | 10 s | [`HostLimits::header_read_timeout`] |
//! | time without a request in flight | 60 s | [`HostLimits::idle_timeout`] |
//! | time without a request body byte (408); the rate's window | 10 s | [`HostLimits::body_stall_timeout`] |
//! | slowest request body in every window (408) | 4 KiB/s | [`HostLimits::min_body_rate`] |
//! | bytes of request bodies arriving at once (503) | 128 MiB | [`HostLimits::max_body_bytes_in_flight`] |
//! | of those, from one IP address (503) | 32 MiB | [`HostLimits::max_body_bytes_per_peer`] |
//! | wait after a failed accept | 5 ms doubling to 1 s | (fixed) |
//! | shutdown drain | 5 s | [`ServeOptions::drain_timeout`] |
//!
//! # Example
//!
//! An agent served on a loopback port, and called through the client:
//!
//! ```
//! use std::pin::Pin;
//! use std::sync::Arc;
//! use futures_core::Stream;
//! use a2a_hyper::{serve, server_config, HyperClient, ServeOptions};
//! use a2a_transport::{A2aServer, A2aService, HttpClient};
//! use a2a_types::{AgentCard, AgentInterface};
//!
//! struct Agent; // a real one implements the operations it offers
//! impl A2aService for Agent {}
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let url = format!("http://{}", listener.local_addr()?);
//! let mut card: AgentCard = a2a_types::from_slice(br#"{
//!     "name": "Agent", "description": "Answers", "version": "1.0.0", "capabilities": {},
//!     "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
//!     "skills": [{"id": "qa", "name": "Q&A", "description": "Answers", "tags": ["qa"]}]
//! }"#)?;
//! card.supported_interfaces = vec![AgentInterface::new(format!("{url}/"), "JSONRPC", "1.0")];
//! let server = Arc::new(A2aServer::new(Agent, card, server_config())?);
//! let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
//! let running = tokio::spawn(serve(listener, server, ServeOptions::default(), async {
//!     let _ = stopped.await;
//! }));
//!
//! let request = http::Request::get(format!("{url}/.well-known/agent-card.json"))
//!     .body(bytes::Bytes::new())?;
//! let response = HyperClient::new().send(request).await?;
//! assert_eq!(response.status(), 200);
//! let mut body = response.into_body();
//! let mut card = Vec::new();
//! while let Some(chunk) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_next(cx)).await {
//!     card.extend_from_slice(&chunk?);
//! }
//! assert!(std::str::from_utf8(&card)?.contains(r#""name":"Agent""#));
//!
//! let _ = stop.send(());
//! running.await?;
//! # Ok(()) }
//! ```

mod client;
mod connection;
mod deadline;
mod limits;
mod push;
mod request_body;
mod runtime;
mod server;

pub use client::{ClientOptions, HyperClient, SystemResolver};
pub use deadline::{grpc_deadline, within_grpc_deadline};
pub use limits::{HostLimits, ServeStats};
pub use push::{HttpPushSender, Resolver};
pub use runtime::TokioRuntime;
pub use server::{
    raise_fd_limit, rate_limiter, serve, server_config, AcceptLogFn, InstantClock, LogFn, NoticeFn,
    RequestLog, ServeOptions, TokioTimer, DEFAULT_KEEP_ALIVE,
};
