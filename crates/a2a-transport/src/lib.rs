//! The A2A v1.0 transport layer, as one name.
//!
//! This crate is a facade, kept for one release: the code lives in four
//! crates by role, and it re-exports each under the paths it has always
//! had (`docs/decisions.md`, "Crates by role"):
//!
//! | crate | its one job | here |
//! | --- | --- | --- |
//! | `a2a-wire` | what both ends agree on: the service trait, bindings, route, query, version and extension tables, gRPC framing, the `HttpClient` trait | the root, [`http_json`], [`service_params`], [`grpc`], [`trace`] |
//! | `a2a-server` | answering calls: the pipeline, the three bindings, auth, gates, the card | [`server`], [`A2aServer`](crate::A2aServer), [`metrics`], [`rate_limit`] |
//! | `a2a-client` | calling an agent: `HttpTransport`, streams, resilience, discovery, credentials | [`client`], [`HttpTransport`](crate::HttpTransport), [`discover`](crate::discover) |
//! | `a2a-push` | both ends of a webhook and its URL rules | [`push`], [`webhook`] |
//!
//! It turns on the gRPC binding of the server and the client (their
//! `grpc` feature), so a host on this crate serves and calls gRPC as
//! before; a host that wants no prost depends on the role crates instead.
//! Its features forward to them: `http-body`, `tower-service`, `testing`,
//! `opentelemetry-metrics`, `opentelemetry-trace`, `tracing`, `draft-1-1`.
//!
//! This crate owns the [`A2aService`](crate::A2aService) trait (one method per operation of
//! spec 3.1) and the HTTP side of A2A as pure functions over `http`
//! types: it never opens a socket, reads a clock or needs an executor.
//!
//! # The server side
//!
//! [`A2aServer`](crate::A2aServer) turns an `http::Request<Bytes>` into an
//! `http::Response<`[`Body`](crate::Body)`>` for one [`A2aService`](crate::A2aService): the public agent
//! card at [`AGENT_CARD_PATH`](crate::server::AGENT_CARD_PATH) with `ETag` and `Cache-Control` (spec 8.2,
//! 8.6), the JSON-RPC binding (spec 9) and the HTTP+JSON binding (spec 11).
//! On the way it negotiates `A2A-Version` (3.6), reads `A2A-Extensions`
//! (3.2.6), authenticates through an [`Authenticator`](crate::server::Authenticator) (7.4) and applies
//! the card's capability gates (3.3.4, 13.3). A [`Body`](crate::Body) is complete bytes
//! or a stream of SSE frames; plugging it into a host's HTTP stack is a
//! few lines (see [`Body`](crate::Body)).
//!
//! ```
//! use a2a_transport::{server::BearerAuth, A2aServer, A2aService, Body, ServerConfig};
//! use a2a_types::AgentCard;
//! use bytes::Bytes;
//!
//! struct Agent; // a real one implements the operations it offers
//! impl A2aService for Agent {}
//!
//! let card: AgentCard = a2a_types::from_slice(br#"{
//!     "name": "Agent", "description": "Answers questions", "version": "1.0.0",
//!     "supportedInterfaces": [{"url": "https://agent.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
//!         {"url": "https://agent.example/v1", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}],
//!     "capabilities": {},
//!     "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
//!     "skills": [{"id": "qa", "name": "Q&A", "description": "Answers", "tags": ["qa"]}]
//! }"#)?;
//! let config = ServerConfig::new()
//!     .with_rest_base_path("/v1")
//!     .with_authenticator(BearerAuth::new("bearer").with_token("t0k3n", "alice"));
//! let server = A2aServer::new(Agent, card, config)?;
//!
//! let request = http::Request::post("/")
//!     .header("content-type", "application/json")
//!     .header("a2a-version", "1.0")
//!     .body(Bytes::from_static(br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t-1"}}"#))?;
//! let response = block_on(server.handle(request));
//! assert_eq!(response.status(), 200); // JSON-RPC errors travel in the body
//! let body = response.into_body().into_bytes().unwrap();
//! assert!(std::str::from_utf8(&body)?.contains("-32004")); // UnsupportedOperationError
//! # fn block_on<F: std::future::Future>(f: F) -> F::Output {
//! #     let mut f = std::pin::pin!(f);
//! #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
//! #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The pieces
//!
//! Each is usable on its own, by the server or by a custom transport:
//!
//! - [`Router`](crate::http_json::Router) and [`Route`](crate::http_json::Route): the HTTP+JSON route table (spec 11.3 and
//!   the proto's `google.api.http` rules, with the `/{tenant}` prefix),
//!   matching requests to an `Operation` with
//!   their path parameters, and building paths for the client.
//! - [`QueryParams`](crate::http_json::QueryParams) and [`QueryBuilder`](crate::http_json::QueryBuilder): query strings (spec 11.5).
//! - [`ProtocolVersion`](crate::ProtocolVersion) and [`negotiate_version`](crate::service_params::negotiate_version): the `A2A-Version`
//!   service parameter (spec 3.6).
//! - [`RequestedExtensions`](crate::service_params::RequestedExtensions) and [`encode_extensions`](crate::service_params::encode_extensions): the
//!   `A2A-Extensions` service parameter (spec 3.2.6, 11.2).
//! - [`check_capabilities`](crate::server::check_capabilities) and [`required_extensions`](crate::server::required_extensions): capability gating
//!   from the card (spec 3.3.4, 13.3).
//! - [`Authenticator`](crate::server::Authenticator) with [`BearerAuth`](crate::server::BearerAuth), [`ApiKeyAuth`](crate::server::ApiKeyAuth), [`BasicAuth`](crate::server::BasicAuth)
//!   and [`AnyOf`](crate::server::AnyOf), and [`challenges`](crate::server::challenges) for a 401 (spec 7.4).
//! - [`AgentCardResource`](crate::server::AgentCardResource): the card's bytes, `ETag` and conditional
//!   answers (spec 8.6).
//! - [`check_webhook_url`](crate::webhook::check_webhook_url), [`check_socket_addr`](crate::webhook::check_socket_addr) and [`Allowlist`](crate::webhook::Allowlist):
//!   webhook address safety against SSRF (spec 13.2).
//! - [`push`](crate::push): push notifications for agents (the request,
//!   the retry schedule, the resolver check) and for clients (the webhook
//!   verifier), spec 4.3.3 and 13.2.
//!
//! # The client side
//!
//! The client side sends calls through an [`HttpClient`](crate::HttpClient) the host
//! implements (one method: a request in, a response with a streamed body
//! out), so it too never opens a socket or reads a clock:
//!
//! - [`HttpTransport`](crate::HttpTransport): an [`A2aService`](crate::A2aService) over JSON-RPC (spec 9) or
//!   HTTP+JSON (spec 11) for one interface ([`Binding`](crate::Binding)), with
//!   `A2A-Version: 1.0` on every request, typed results, and agent errors,
//!   proxy answers (`401` with its `WWW-Authenticate` challenges, `403`)
//!   and client failures ([`ClientFailure`](crate::client::ClientFailure)) all as `A2aError`s.
//!   Streams are [`SseStream`](crate::client::SseStream)s.
//! - [`ResilientTransport`](crate::client::ResilientTransport): the same, with streams that resubscribe after
//!   a dropped connection (spec 3.1.6; [`RetryPolicy`](crate::client::RetryPolicy), a host [`Timer`](crate::client::Timer))
//!   and streaming calls that degrade to unary ones for agents that do not
//!   stream.
//! - [`discover`](crate::discover), [`CardResolver`](crate::client::CardResolver) and [`select_interface`](crate::client::select_interface): the agent
//!   card fetched, validated and cached (spec 8.2, 8.6), and the interface
//!   chosen (spec 8.3.2) with its tenant.
//! - [`Credentials`](crate::client::Credentials): credential providers
//!   consulted per call by the card's security schemes (bearer, API key in
//!   a header, the query or a cookie, OAuth 2.0 client credentials with a
//!   cached token, [`ClientCredentials`](crate::client::ClientCredentials),
//!   or the host's own [`CredentialProvider`](crate::client::CredentialProvider)),
//!   with one retry on `401` with a fresh token
//!   ([`HttpTransport::with_credentials`](crate::HttpTransport::with_credentials)).
//!
//! A whole conversation: discovery, a message, then the same as a stream
//! read with [`StreamNext::next`](crate::StreamNext::next) (no
//! `futures-util` needed). The host's client is any [`HttpClient`](crate::HttpClient);
//! with the `a2a-hyper` crate, `talk(a2a_hyper::HyperClient::new(),
//! "http://localhost:9999")` inside a tokio runtime.
//!
//! ```
//! use a2a_transport::{client::Preferences, discover, A2aService, CallContext, HttpClient, StreamNext};
//! use a2a_types::{Message, SendMessageRequest, SendMessageResponse, StreamResponse};
//!
//! async fn talk<C: HttpClient>(client: C, url: &str) -> Result<(), Box<dyn std::error::Error>> {
//!     // The card at {url}/.well-known/agent-card.json, validated, and the
//!     // first interface this client speaks (spec 8.2, 8.3.2).
//!     let agent = discover(client, url, &Preferences::new()).await?;
//!     println!("{} over {}", agent.card.name, agent.interface.protocol_binding);
//!     let cx = CallContext::new(); // .with_headers(...) for credentials
//!
//!     // A message with a fresh id, answered by a task or a message.
//!     let request = SendMessageRequest::new(Message::user("hello"));
//!     match agent.transport.send_message(&cx, request).await? {
//!         SendMessageResponse::Task(task) => {
//!             let state = task.status.state.as_str_name();
//!             println!("task {} {state}", task.id);
//!             for artifact in &task.artifacts {
//!                 println!("  {}", artifact.text_content().unwrap_or_default());
//!             }
//!         }
//!         SendMessageResponse::Message(reply) => {
//!             println!("{}", reply.text_content().unwrap_or_default());
//!         }
//!     }
//!
//!     // The same as a stream, when the card declares streaming (spec 3.1.2).
//!     if agent.card.capabilities.streaming == Some(true) {
//!         let request = SendMessageRequest::new(Message::user("hello again"));
//!         let mut events = agent.transport.send_streaming_message(&cx, request).await?;
//!         while let Some(event) = events.next().await {
//!             match event? {
//!                 StreamResponse::Task(task) => println!("task {}", task.id),
//!                 StreamResponse::StatusUpdate(u) => println!("now {}", u.status.state.as_str_name()),
//!                 StreamResponse::ArtifactUpdate(u) => {
//!                     println!("artifact: {}", u.artifact.text_content().unwrap_or_default());
//!                 }
//!                 StreamResponse::Message(m) => println!("{}", m.text_content().unwrap_or_default()),
//!             }
//!         }
//!     }
//!     Ok(())
//! }
//! ```
//!
//! An error from a call is an `A2aError`: what the agent answered, or,
//! when the call never completed (a connection refused, a response over
//! the size limit), a client error ([`ClientFailure`](crate::client::ClientFailure)).
//!
//! It does not hold state (tasks, push configs), do I/O, or define the
//! data model, which belongs to `a2a-types`. Each module's documentation lists
//! the decisions a reader might question (tenant prefixes, `+` in
//! queries, patch versions, the HTTP status of JSON-RPC errors, path and
//! body conflicts, the API key challenge, the `ETag`, which address ranges
//! are refused).
//!
//! # Limits
//!
//! Every input is bounded before it is read, and exceeding a bound is an
//! error, never a truncation:
//!
//! | input | default | where |
//! | --- | --- | --- |
//! | request body | 16 MiB (413, by `Content-Length` first) | [`ServerConfig::max_body_size`](crate::ServerConfig::max_body_size) |
//! | body read and discarded before a 413 (HTTP/1.x, `TowerService`) | 64 MiB; 2 s with a timer | [`ServerConfig::linger`](crate::ServerConfig::linger) |
//! | JSON-RPC batch | 32 requests, 1 MiB (413, one `-32600`) | [`ServerConfig::batch_limits`](crate::ServerConfig::batch_limits) |
//! | `Accept` (HTTP+JSON) | 64 media ranges read | [`server`] ("Media types") |
//! | request path | 2048 bytes (414) | [`ServerConfig::max_path_len`](crate::ServerConfig::max_path_len), [`Router::with_max_path_len`](crate::http_json::Router::with_max_path_len) |
//! | query string | 4096 bytes, 64 parameters | [`QueryConfig`](crate::http_json::QueryConfig) |
//! | `A2A-Version` | 32 bytes | [`MAX_VERSION_LEN`](crate::service_params::MAX_VERSION_LEN) |
//! | `A2A-Extensions` | 32 URIs of 1024 bytes | [`ExtensionLimits`](crate::service_params::ExtensionLimits) |
//! | webhook URL | 4096 bytes | [`MAX_WEBHOOK_URL_LEN`](crate::webhook::MAX_WEBHOOK_URL_LEN) |
//! | addresses per webhook name | 32 | [`MAX_RESOLVED_ADDRS`](crate::push::MAX_RESOLVED_ADDRS) |
//! | notification body (webhook receiver) | 16 MiB | [`WebhookVerifier::with_max_size`](crate::push::WebhookVerifier::with_max_size) |
//! | remembered notifications (replay) | 4096 within 5 min | [`WebhookVerifier::with_replay_capacity`](crate::push::WebhookVerifier::with_replay_capacity) |
//! | response body (client) | 16 MiB | [`ClientConfig::max_response_body`](crate::ClientConfig::max_response_body) |
//! | error body read (client) | 64 KiB | [`ClientConfig::max_error_body`](crate::ClientConfig::max_error_body) |
//! | SSE line and event (client) | 16 MiB each | [`ClientConfig::sse`](crate::ClientConfig::sse) |
//! | agent card (client) | 1 MiB | [`CardResolver::with_max_card_size`](crate::client::CardResolver::with_max_card_size) |
//! | OAuth 2.0 token response (client) | 64 KiB | [`ClientCredentialsConfig::max_response`](crate::client::ClientCredentialsConfig::max_response) |
//!
//! ```
//! use a2a_transport::http_json::Router;
//! use a2a_types::Operation;
//! use http::Method;
//!
//! let router = Router::new();
//! let m = router.match_route(&Method::GET, "/acme/tasks/task-123")?;
//! assert_eq!(m.operation(), Operation::GetTask);
//! assert_eq!(m.params.tenant.as_deref(), Some("acme"));
//! assert_eq!(m.params.task_id.as_deref(), Some("task-123"));
//! # Ok::<(), a2a_transport::http_json::RouteError>(())
//! ```

#![deny(missing_docs)]
#![allow(rustdoc::redundant_explicit_links)] // module pages name targets from the crate root

pub use a2a_client as client;
pub use a2a_push as push;
pub use a2a_push::webhook;
pub use a2a_server as server;
pub use a2a_server::{metrics, rate_limit};
pub use a2a_wire::{http_json, service_params, trace};

pub mod grpc {
    //! [`a2a_wire::grpc`], the gRPC binding's wire format, with the names
    //! its errors had before they became one type, [`GrpcError`], kept
    //! for one release.
    pub use a2a_wire::grpc::*;

    /// The request head's errors are [`GrpcError`]'s head variants.
    #[deprecated(note = "use a2a_wire::grpc::GrpcError: the gRPC wire has one error type")]
    pub type HeadError = GrpcError;
    /// The framing errors are [`GrpcError`]'s frame variants.
    #[deprecated(note = "use a2a_wire::grpc::GrpcError: the gRPC wire has one error type")]
    pub type FrameError = GrpcError;
    /// A `grpc-timeout` that does not read is [`GrpcError::Timeout`].
    #[deprecated(note = "use a2a_wire::grpc::GrpcError: the gRPC wire has one error type")]
    pub type TimeoutError = GrpcError;
}

#[cfg(feature = "testing")]
pub mod fuzz {
    //! The fuzz harnesses of the server and the client (feature
    //! `testing`), for the workspace's fuzz targets and the tests that
    //! replay their seeds: [`fuzz_server`] (target `server_request`),
    //! [`fuzz_grpc_frames`] (`grpc_frames`) and [`fuzz_grpc_client`]
    //! (`grpc_client`). Each crate's module documents its input format.
    pub use a2a_client::fuzz::fuzz_grpc_client;
    pub use a2a_server::fuzz::{fuzz_grpc_frames, fuzz_server};
}

pub use a2a_client::{discover, ClientConfig, HttpClient, HttpTransport};
pub use a2a_server::{A2aServer, Body, ServerConfig};
pub use a2a_wire::{
    dispatch, is_json_media_type, A2aService, Binding, BoxFuture, CallContext, EventIds,
    EventStream, Forward, Next, Principal, ProtocolVersion, StreamNext, A2A_JSON, APPLICATION_JSON,
    EVENT_STREAM, LAST_EVENT_ID,
};
