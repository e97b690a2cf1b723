//! The A2A v1.0 transport layer.
//!
//! This crate owns the [`A2aService`](crate::A2aService) trait (one method per operation of
//! spec 3.1) and the HTTP side of A2A as pure functions over [`http`]
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
//!   matching requests to an [`Operation`](a2a_types::Operation) with
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
//!   and client failures ([`ClientFailure`](crate::client::ClientFailure)) all as [`A2aError`](a2a_types::A2aError)s.
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
//! An error from a call is an [`A2aError`](a2a_types::A2aError): what the agent answered, or,
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

#![allow(rustdoc::redundant_explicit_links)] // module pages name targets from the crate root
mod a2a_server;
mod auth;
mod binding;
mod body;
mod call_span;
mod card;
mod client_error;
mod client_stream;
mod credentials;
mod discovery;
mod extensions;
mod frames;
#[cfg(feature = "testing")]
pub mod fuzz;
mod gate;
mod grpc_binding;
mod grpc_client;
mod grpc_wire;
#[cfg(feature = "http-body")]
mod http_body;
mod http_client;
mod http_transport;
mod jsonrpc_binding;
mod keep_alive;
mod linger;
mod media;
pub mod metrics;
mod pct;
mod pipeline;
mod push_send;
mod push_verify;
mod query;
pub mod rate_limit;
mod resilient;
mod rest_binding;
mod route;
mod service;
mod stream_next;
#[cfg(feature = "tower-service")]
mod tower;
pub mod trace;
mod unwind;
mod version;
pub mod webhook;

pub mod server {
    //! The server side: [`A2aServer`](crate::A2aServer), one pure function from an
    //! `http::Request<Bytes>` to an `http::Response<Body>`, serving the agent
    //! card (spec 8.2), the JSON-RPC binding (spec 9) and the HTTP+JSON
    //! binding (spec 11) over one [`A2aService`](crate::A2aService), and
    //! [`A2aServer::serve`](crate::A2aServer::serve), the same pipeline for any other transport.
    //!
    //! # The order of checks
    //!
    //! Every A2A request goes through the same steps on both bindings, so that
    //! the same request gets the same error whichever binding carries it:
    //!
    //! 1. **Transport**: path length (414), `Content-Length` and body size
    //!    (413, before the body is parsed), route or JSON-RPC endpoint (404,
    //!    405 with `Allow`), query string (400), `Content-Type` (415).
    //! 2. **Authentication** (401 with challenges, 403): before anything that
    //!    could reveal whether a task exists.
    //!    Then the **rate limit**, when configured
    //!    ([`ServerConfig::with_rate_limit`](crate::ServerConfig::with_rate_limit)):
    //!    `RateLimitedError`, 429 with `Retry-After` (spec 13.4, 3.3.2).
    //! 3. **`A2A-Version`** (spec 3.6): `VersionNotSupportedError`, before the
    //!    body is interpreted, so a 0.3 client (no header) learns that its
    //!    version is the problem rather than that `message/send` is unknown.
    //! 4. **`A2A-Extensions`** (spec 3.2.6, 3.3.4): malformed lists are
    //!    `InvalidRequestError`; a required extension not requested is
    //!    `ExtensionSupportRequiredError`.
    //! 5. **Request decoding and validation**: JSON-RPC envelope and params
    //!    (`-32700`, `-32600`, `-32601`, `-32602`), HTTP+JSON body, path and
    //!    query (400 with `google.rpc.BadRequest`); then the request's
    //!    REQUIRED fields ([`A2aRequest::validate`](a2a_types::A2aRequest::validate))
    //!    and the spec's field rules
    //!    ([`A2aRequest::check_rules`](a2a_types::A2aRequest::check_rules):
    //!    `historyLength` not negative, spec 3.2.4; `ListTasks.pageSize` 1 to
    //!    100), all violations in one `InvalidParamsError`, so no handler sees
    //!    `historyLength: -5`. The tenant then goes into the context.
    //! 6. **Capability gating** from the card (spec 3.3.4, 13.3).
    //! 7. **The handler**, through [`dispatch`](crate::dispatch). For a streaming operation the
    //!    first event is awaited before answering, so that an error the handler
    //!    reports before any event (an unknown task, say) is an ordinary error
    //!    response with its HTTP status rather than a 200 stream holding one
    //!    error frame (the official SDKs do the same).
    //!
    //! JSON-RPC notifications run through the same steps and are answered
    //! `204` with no body. A JSON-RPC batch is admitted once (steps 2-4,
    //! for the HTTP request), then each element goes through steps 5-7 in
    //! order; the `jsonrpc` binding's decisions below give the details.
    //!
    //! # Decisions
    //!
    //! - **Media types**: JSON-RPC answers `application/json` (spec 9.1);
    //!   HTTP+JSON answers `application/a2a+json` (spec 11.1) unless the
    //!   request's `Accept` rates `application/json` higher (RFC 9110
    //!   section 12.5.1), errors included. A request body must be one of the
    //!   two (415, `ContentTypeNotSupportedError`).
    //! - **Input modes**: with [`ServerConfig::check_input_modes`](crate::ServerConfig::check_input_modes), a message
    //!   part whose media type the card does not accept is refused with
    //!   `ContentTypeNotSupportedError` at step 6 ([`check_input_modes`]).
    //! - **Routing**: the card path first, then the JSON-RPC path (exact
    //!   match), then the HTTP+JSON routes. An error before the binding is
    //!   known (414, 413) uses the JSON-RPC error body on the JSON-RPC path
    //!   (or when HTTP+JSON is off) and the `google.rpc.Status` body elsewhere.
    //! - **Defaults**: JSON-RPC at `/`, HTTP+JSON at the root, bodies up to
    //!   16 MiB, version 1.0 only. The two bindings can share the root: no
    //!   HTTP+JSON route is `POST /`.
    //! - **A `Principal` in the request's extensions** (put there by a host
    //!   middleware) is taken as authenticated, without calling the
    //!   [`Authenticator`](crate::server::Authenticator).
    //! - **The card is checked at construction** ([`A2aServer::new`](crate::A2aServer::new)): it
    //!   must pass [`Validate`](a2a_types::Validate) (a card `discover`
    //!   would reject is never served), and each `supportedInterfaces` entry
    //!   must be a binding, path and version this server serves (spec 8.3.1,
    //!   5.2). A mismatch is a [`ConfigError`](crate::server::ConfigError), not a silently wrong card.
    //! - **Panics** in the handler, its streams or the authenticator are
    //!   caught and answered as `InternalError` (500 / `-32603`), never
    //!   unwound into the host.
    //! - **SSE event ids**: every event frame of a stream carries an `id:`,
    //!   the label the handler gave it through [`EventIds`](crate::EventIds), else its
    //!   position in the stream (`1`, `2`, ...); error frames carry none. A
    //!   reconnecting client's `Last-Event-ID` reaches the handler in the
    //!   context ([`CallContext::last_event_id`](crate::CallContext::last_event_id)), which decides what it
    //!   can resume (spec 3.1.6).

    pub use crate::a2a_server::{A2aServer, ConfigError, ServerConfig, DEFAULT_MAX_BODY_SIZE};
    pub use crate::auth::{
        authorization, challenges, challenges_with_error, security_required, AnyOf, ApiKeyAuth,
        AuthConfigError, AuthOutcome, AuthRequest, Authenticator, BasicAuth, BearerAuth,
        BearerError, BearerErrorCode,
    };
    pub use crate::body::{keep_alive_frame, Body, Chunk, ChunkStream, FrameStream, Trailed};
    pub use crate::card::{
        strong_etag, AgentCardResource, AGENT_CARD_PATH, DEFAULT_CARD_CACHE_CONTROL,
        DEFAULT_EXTENDED_CARD_CACHE_CONTROL,
    };
    pub use crate::gate::{
        check_capabilities, check_input_modes, media_range_covers, required_extensions,
    };
    pub use crate::keep_alive::{KeepAlive, KeepAliveStream};
    pub use crate::linger::Linger;
    pub use crate::pipeline::{Answer, CallHead};
    pub use crate::rate_limit::{ClientAddress, PeerAddr, RateLimit, RateLimiter};
    #[cfg(feature = "tower-service")]
    pub use crate::tower::{BodyFailure, TowerService};
}

pub mod client {
    //! The client side: [`HttpTransport`](crate::HttpTransport) is an
    //! [`A2aService`](crate::A2aService) (through [`Forward`](crate::Forward))
    //! sending each call over one of the three bindings,
    //! JSON-RPC (spec 9), HTTP+JSON (spec 11) or gRPC (spec 10), through the
    //! host's [`HttpClient`](crate::HttpClient).
    //!
    //! # Requests
    //!
    //! - **gRPC** (spec 10): one length-prefixed protobuf message `POST`ed
    //!   as HTTP/2 to `/lf.a2a.v1.A2AService/{Method}` under the interface
    //!   URL's path (a bare `host:port` URL is `https://host:port`), with
    //!   `content-type: application/grpc+proto`, `te: trailers`, the same
    //!   metadata as the other bindings' headers, and `grpc-timeout` from
    //!   [`ClientConfig::timeout`](crate::ClientConfig::timeout). Its response is read by
    //!   `grpc-status` in the trailers (which the host client delivers with
    //!   [`ResponseBody::with_trailers`](crate::client::ResponseBody::with_trailers)) or in a trailers-only head:
    //!   the details' `ErrorInfo` names the error kind (spec 10.6), a
    //!   missing status is `InvalidAgentResponseError`, and a response with
    //!   no trailers at all a client error
    //!   ([`ClientFailure::StreamIncomplete`](crate::client::ClientFailure::StreamIncomplete)):
    //!   the usual cause is an HTTP client that drops them.
    //! - **JSON-RPC** (spec 9.3): `POST` to the interface URL, the envelope
    //!   written by [`a2a_jsonrpc::encode_request`] with a fresh numeric id per
    //!   call (a counter from 1), `Content-Type: application/json`.
    //! - **HTTP+JSON** (spec 11.3-11.5): method and path from the route table
    //!   ([`Router::build_path`](crate::http_json::Router::build_path), under the interface URL's path, with the
    //!   `/{tenant}` prefix); `GET` and `DELETE` carry their remaining fields in
    //!   the query (`historyLength`, `pageSize`, `pageToken`, `contextId`,
    //!   `status`, `statusTimestampAfter`, `includeArtifacts`), `POST` carries
    //!   the whole request message as `application/a2a+json` (fields bound in
    //!   the path are repeated in the body, which `google.api.http` transcoders
    //!   and the SDKs' servers accept, and which keeps servers that validate
    //!   the body alone working). `SubscribeToTask` is sent as the proto's
    //!   `GET` (DESIGN.md: follow the proto on output).
    //! - **Headers on every request**: `A2A-Version: 1.0` (spec 3.6.1; `0.3` at 0.3),
    //!   `A2A-Extensions` from [`CallContext::extensions`](crate::CallContext::extensions) (spec 3.2.6),
    //!   `Accept`, `Content-Type` when there is a body, and the context's
    //!   extra [`headers`](crate::CallContext::headers) (`Authorization`, say). The
    //!   headers the transport manages replace same-named extra headers.
    //! - **Tenant** (spec 8.3.2, multi-tenancy): a request's own non-empty
    //!   `tenant` is kept; otherwise it is [`CallContext::tenant`](crate::CallContext::tenant), otherwise
    //!   the transport's (the selected interface's) tenant.
    //! - **Version**: the transport speaks 1.0, and 0.3 over JSON-RPC and
    //!   HTTP+JSON ([`HttpTransport::with_version`](crate::client::HttpTransport::with_version); a transport for a card's
    //!   interface speaks the interface's version). A version it does not
    //!   speak over its binding fails locally with `VersionNotSupportedError`
    //!   rather than sending 1.0 payloads under another version's name.
    //!   With the `draft-1-1` feature it also speaks the A2A 1.1 draft,
    //!   preferred where an interface declares `1.1`; below 1.1 a request
    //!   carries none of the draft's fields. A long-poll `GetTask` is a
    //!   `GetTaskRequest` with `current_generation` set (the server holds
    //!   it, so [`ClientConfig::timeout`](crate::ClientConfig::timeout)
    //!   must outlast the agent's hold), and `a2a_types::draft_1_1::track`
    //!   around a stream reports missed generations.
    //!
    //! # Responses
    //!
    //! - Success bodies are read up to [`ClientConfig::max_response_body`](crate::ClientConfig::max_response_body)
    //!   and decoded into the typed result: JSON-RPC with
    //!   [`a2a_jsonrpc::decode_response`] (which checks the id), HTTP+JSON
    //!   straight into the result type. A body that does not decode, or a
    //!   non-JSON `Content-Type`, is `InvalidAgentResponseError`.
    //! - Error statuses are decoded from the binding's error body when it is
    //!   JSON (a JSON-RPC error object, or a `google.rpc.Status` body,
    //!   spec 9.5, 11.6), read up to [`ClientConfig::max_error_body`](crate::ClientConfig::max_error_body);
    //!   otherwise (an HTML page from a proxy, an empty body, a body too large)
    //!   the status alone decides ([`A2aError::from_status`](a2a_types::A2aError::from_status)): `401` is
    //!   `Unauthenticated`, `403` `PermissionDenied`, whatever the body.
    //!   `WWW-Authenticate` challenges are kept on authentication errors
    //!   ([`www_authenticate`](crate::client::www_authenticate)).
    //! - Streams ([`SseStream`](crate::client::SseStream)) must be `text/event-stream`; see there.
    //! - Failures of the HTTP stack are marked [`ClientFailure`](crate::client::ClientFailure)s.
    //!
    //! # Credentials
    //!
    //! [`Credentials::select`](crate::client::Credentials::select) takes the
    //! **first** of the card's `securityRequirements` all of whose schemes
    //! have a provider configured, and every call carries each of its
    //! credentials where the scheme says (module `credentials` docs on
    //! [`Credentials`](crate::client::Credentials)). A call refused as
    //! unauthenticated (`401`, gRPC `UNAUTHENTICATED`) is sent once more
    //! when a provider may answer a fresh credential (an OAuth 2.0 token
    //! is dropped from the cache and fetched again); a stream is re-sent
    //! only while being opened, never after its first event.

    pub use crate::client_error::{
        www_authenticate, ClientFailure, CLIENT_ERROR_DOMAIN, WWW_AUTHENTICATE_KEY,
    };
    pub use crate::client_stream::SseStream;
    pub use crate::credentials::{
        ApiKeyLocation, CallCredentials, ClientAuth, ClientCredentials, ClientCredentialsConfig,
        Clock, Credential, CredentialProvider, Credentials, NoRequirementMet, SchemeRequest,
        Secret, StaticCredential,
    };
    pub use crate::discovery::{
        decode_card, discover, select_interface, select_interfaces, CardResolver, Discovered,
        DiscoveryError, NoCompatibleInterface, Preferences, SelectionOrder,
    };
    pub use crate::http_client::{BodyChunk, HttpClient, HttpError, ResponseBody};
    pub use crate::http_transport::{ClientConfig, HttpTransport, InterfaceUrlError};
    pub use crate::resilient::{ResilientStream, ResilientTransport, RetryPolicy, Timer};
}

pub mod http_json {
    //! The HTTP+JSON binding's tables and codecs, shared by the server and
    //! the client (spec 11): the route table with each route's rule for
    //! the path, query and body ([`Router`](crate::http_json::Router), [`Route`](crate::http_json::Route), spec 11.3 and the
    //! proto's `google.api.http` annotations), and query strings
    //! ([`QueryParams`](crate::http_json::QueryParams), [`QueryBuilder`](crate::http_json::QueryBuilder), spec 11.5).
    //!
    //! # The routes
    //!
    //! Every route also exists under a `/{tenant}` prefix of one segment.
    //! `POST` routes carry the whole request message as the JSON body;
    //! `GET` and `DELETE` routes carry the fields their path does not in
    //! the query, by ProtoJSON name.
    //!
    //! | operation | method and path | query |
    //! | --- | --- | --- |
    //! | `SendMessage` | `POST /message:send` | |
    //! | `SendStreamingMessage` | `POST /message:stream` | |
    //! | `GetTask` | `GET /tasks/{id}` | `historyLength`, `tenant` |
    //! | `ListTasks` | `GET /tasks` | `contextId`, `status`, `pageSize`, `pageToken`, `historyLength`, `statusTimestampAfter`, `includeArtifacts`, `tenant` |
    //! | `CancelTask` | `POST /tasks/{id}:cancel` | |
    //! | `SubscribeToTask` | `GET /tasks/{id}:subscribe` (also `POST`, spec 11.3) | `tenant` |
    //! | `CreateTaskPushNotificationConfig` | `POST /tasks/{task_id}/pushNotificationConfigs` | |
    //! | `GetTaskPushNotificationConfig` | `GET /tasks/{task_id}/pushNotificationConfigs/{id}` | `tenant` |
    //! | `ListTaskPushNotificationConfigs` | `GET /tasks/{task_id}/pushNotificationConfigs` | `pageSize`, `pageToken`, `tenant` |
    //! | `DeleteTaskPushNotificationConfig` | `DELETE /tasks/{task_id}/pushNotificationConfigs/{id}` | `tenant` |
    //! | `GetExtendedAgentCard` | `GET /extendedAgentCard` | `tenant` |
    //!
    //! The table is data ([`Route::all`](crate::http_json::Route::all)); a test checks this page against it.
    //!
    //! # The 0.3 routes
    //!
    //! [`RouteTable::V0_3`](crate::http_json::RouteTable::V0_3) (0.3 spec 3.5.6): under `/v1`, without
    //! tenants, and without `ListTasks` (0.3's JSON-RPC has no `tasks/list`).
    //! Beside each route, the JSON-RPC 0.3 method of the same operation.
    //!
    //! | JSON-RPC 0.3 method | operation | method and path |
    //! | --- | --- | --- |
    //! | `message/send` | `SendMessage` | `POST /v1/message:send` |
    //! | `message/stream` | `SendStreamingMessage` | `POST /v1/message:stream` |
    //! | `tasks/get` | `GetTask` | `GET /v1/tasks/{id}` |
    //! | `tasks/cancel` | `CancelTask` | `POST /v1/tasks/{id}:cancel` |
    //! | `tasks/resubscribe` | `SubscribeToTask` | `POST /v1/tasks/{id}:subscribe` (also `GET`) |
    //! | `tasks/pushNotificationConfig/set` | `CreateTaskPushNotificationConfig` | `POST /v1/tasks/{id}/pushNotificationConfigs` |
    //! | `tasks/pushNotificationConfig/get` | `GetTaskPushNotificationConfig` | `GET /v1/tasks/{id}/pushNotificationConfigs/{configId}` |
    //! | `tasks/pushNotificationConfig/list` | `ListTaskPushNotificationConfigs` | `GET /v1/tasks/{id}/pushNotificationConfigs` |
    //! | `tasks/pushNotificationConfig/delete` | `DeleteTaskPushNotificationConfig` | `DELETE /v1/tasks/{id}/pushNotificationConfigs/{configId}` |
    //! | `agent/getAuthenticatedExtendedCard` | `GetExtendedAgentCard` | `GET /v1/card` |
    pub use crate::pct::PercentDecodeError;
    pub use crate::query::{QueryBuilder, QueryConfig, QueryError, QueryParams};
    pub use crate::route::{
        AllowedMethods, BasePathError, BuildPathError, PathParam, PathParams, QueryField,
        QueryKind, RequestBody, Route, RouteError, RouteMatch, RouteTable, Router,
    };
}

pub mod grpc {
    //! The gRPC binding's wire format (spec 10), as pure functions over
    //! `http` types, for the server and the client; the host's HTTP/2
    //! stack carries the bytes.
    //!
    //! - **Calls**: `POST /lf.a2a.v1.A2AService/{Method}`
    //!   ([`method_path`](crate::grpc::method_path), [`operation_of_path`](crate::grpc::operation_of_path)) with
    //!   `content-type: application/grpc` or `application/grpc+proto`
    //!   ([`check_request_head`](crate::grpc::check_request_head): 405 and 415 for requests that are not
    //!   gRPC, `UNIMPLEMENTED` for an unknown method or a compression).
    //! - **Messages**: a 5-byte prefix and the protobuf bytes
    //!   ([`encode_frame`](crate::grpc::encode_frame), [`encode_message`](crate::grpc::encode_message)); the push decoder
    //!   [`FrameDecoder`](crate::grpc::FrameDecoder) refuses a message over its limit on the prefix
    //!   (`RESOURCE_EXHAUSTED`) and a compressed one (`INTERNAL`: messages
    //!   are never compressed, `grpc-accept-encoding: identity`).
    //! - **Status** (spec 10.6): [`error_trailers`](crate::grpc::error_trailers) and [`ok_trailers`](crate::grpc::ok_trailers);
    //!   `grpc-status` from the error table's gRPC column (spec 5.4,
    //!   [`GrpcCode::of_kind`](crate::grpc::GrpcCode::of_kind)), `grpc-message` percent-encoded,
    //!   `grpc-status-details-bin` the `google.rpc.Status` with the A2A
    //!   `ErrorInfo` and any `BadRequest`, base64 without padding. An
    //!   error before any message is a trailers-only response
    //!   ([`error_response`](crate::grpc::error_response)). Clients read a status with
    //!   [`read_status`](crate::grpc::read_status).
    //! - **Metadata**: service parameters are headers (`a2a-version`,
    //!   `a2a-extensions`, spec 10.2), read by the same code as on the
    //!   other bindings; `grpc-timeout` is read as a [`Duration`](std::time::Duration) for the
    //!   host to enforce ([`request_timeout`](crate::grpc::request_timeout), [`encode_timeout`](crate::grpc::encode_timeout)).
    //!
    //! ```
    //! use a2a_transport::grpc::{self, GrpcStatus};
    //! use a2a_types::{A2aError, ErrorKind, GetTaskRequest, Operation};
    //!
    //! // A client frames a request...
    //! let request = GetTaskRequest::new("t-1");
    //! let body = grpc::encode_message(&request)?;
    //! assert_eq!(grpc::method_path(Operation::GetTask), "/lf.a2a.v1.A2AService/GetTask");
    //! // ...the server reads it back...
    //! let message = grpc::decode_unary(&body, grpc::DEFAULT_MAX_MESSAGE_SIZE)?;
    //! assert_eq!(a2a_proto::decode::<GetTaskRequest>(&message)?, request);
    //! // ...and answers an error in the trailers, which the client reads.
    //! let trailers = grpc::error_trailers(&A2aError::task_not_found("t-1"));
    //! assert_eq!(trailers["grpc-status"], "5"); // NOT_FOUND
    //! let Some(GrpcStatus::Error(_, error)) = grpc::read_status(&trailers) else { unreachable!() };
    //! assert_eq!(error.kind(), ErrorKind::TaskNotFound);
    //! # Ok::<(), Box<dyn std::error::Error>>(())
    //! ```
    pub use crate::grpc_wire::{
        check_request_head, decode_grpc_message, decode_unary, encode_frame, encode_grpc_message,
        encode_message, encode_timeout, error_response, error_trailers, is_grpc_content_type,
        method_path, ok_trailers, operation_of_path, parse_timeout, read_status, request_timeout,
        response_head, status_fields, FrameDecoder, FrameError, GrpcStatus, HeadError,
        TimeoutError, DEFAULT_MAX_MESSAGE_SIZE, GRPC_ACCEPT_ENCODING, GRPC_CONTENT_TYPE,
        GRPC_ENCODING, GRPC_MESSAGE, GRPC_PROTO_CONTENT_TYPE, GRPC_STATUS, GRPC_STATUS_DETAILS,
        GRPC_TIMEOUT, PREFIX_LEN, SERVICE_NAME,
    };
    pub use a2a_proto::GrpcCode;
}

pub mod push {
    //! Push notifications as a library (spec 4.3.3, 13.2), for both ends
    //! of a webhook, with no I/O and no clock:
    //!
    //! - **Agents** build the request of a notification with
    //!   [`notification_request`](crate::push::notification_request) (the `StreamResponse` as ProtoJSON,
    //!   `application/a2a+json`, the config's `Authorization` and token
    //!   header, the URL checked against the [`Allowlist`](crate::webhook::Allowlist)), send it
    //!   through any [`HttpClient`](crate::HttpClient) and ask a [`RetrySchedule`](crate::push::RetrySchedule) what to do
    //!   next (backoff, the host's jitter, give-up). An HTTP client that
    //!   resolves names through an [`SsrfResolver`](crate::push::SsrfResolver) connects only to
    //!   admitted addresses: the check after DNS that rebinding cannot get
    //!   around (`a2a-hyper`'s `ClientOptions::resolver`).
    //! - **Clients** receiving notifications check them with a
    //!   [`WebhookVerifier`](crate::push::WebhookVerifier): the token and `Authorization` the config
    //!   asked for (constant-time), the task id, a replay window on the
    //!   host's clock, and the body decoded under a size limit.
    //!
    //! ```
    //! use std::time::SystemTime;
    //! use a2a_transport::push::{notification_request, WebhookVerifier};
    //! use a2a_transport::webhook::Allowlist;
    //! use a2a_types::{StreamResponse, Task, TaskPushNotificationConfig, TaskState};
    //!
    //! let mut config = TaskPushNotificationConfig::new("https://hooks.example.com/a2a");
    //! config.task_id = "t-1".into();
    //! config.token = "per-config-secret".into();
    //! // The agent:
    //! let event = StreamResponse::Task(Task::new("t-1", "c-1", TaskState::Completed));
    //! let request = notification_request(&config, &event, &Allowlist::new())?;
    //! // ... sent through the host's HttpClient; the client's webhook:
    //! let verifier = WebhookVerifier::for_config(&config);
    //! let got = verifier.verify(&request, SystemTime::now())?;
    //! assert_eq!(got.event, event);
    //! # Ok::<(), Box<dyn std::error::Error>>(())
    //! ```
    pub use crate::push_send::{
        find_refusal, is_retryable_status, notification_request, notification_request_with_body,
        AttemptResult, GiveUpReason, NextStep, PushRequestError, Resolve, ResolveError,
        RetrySchedule, SsrfResolver, MAX_RESOLVED_ADDRS, NOTIFICATION_TOKEN_HEADER,
    };
    pub use crate::push_verify::{
        Notification, VerifyError, WebhookVerifier, DEFAULT_MAX_NOTIFICATION_SIZE,
        DEFAULT_REPLAY_CAPACITY, DEFAULT_REPLAY_WINDOW,
    };
}

pub mod service_params {
    //! The service parameters every binding carries beside the request
    //! message (spec 3.2.6): `A2A-Version` with its negotiation (spec 3.6)
    //! and `A2A-Extensions` (spec 3.2.6, 11.2).
    pub use crate::extensions::{
        encode_extensions, ExtensionLimits, RequestedExtensions, A2A_EXTENSIONS,
        A2A_EXTENSIONS_PARAM,
    };
    pub use crate::version::{
        negotiate_version, ProtocolVersion, VersionError, A2A_VERSION, A2A_VERSION_PARAM,
        MAX_ECHO_LEN, MAX_VERSION_LEN,
    };
}

pub use binding::Binding;
pub use body::Body;
pub use client::{ClientConfig, HttpClient, HttpTransport};
pub use discovery::discover;
pub use media::{is_json_media_type, A2A_JSON, APPLICATION_JSON, EVENT_STREAM};
pub use server::{A2aServer, ServerConfig};
pub use service::{
    dispatch, A2aService, BoxFuture, CallContext, EventIds, EventStream, Forward, Principal,
    LAST_EVENT_ID,
};
pub use stream_next::{Next, StreamNext};
pub use version::ProtocolVersion;
