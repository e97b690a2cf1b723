//! The A2A v1.0 transport layer.
//!
//! This crate owns the [`A2aService`] trait (one method per operation of
//! spec 3.1) and the HTTP side of A2A as pure functions over [`http`]
//! types: it never opens a socket, reads a clock or needs an executor.
//!
//! # The server side
//!
//! [`A2aServer`] turns an `http::Request<Bytes>` into an
//! `http::Response<`[`Body`]`>` for one [`A2aService`]: the public agent
//! card at [`AGENT_CARD_PATH`] with `ETag` and `Cache-Control` (spec 8.2,
//! 8.6), the JSON-RPC binding (spec 9) and the HTTP+JSON binding (spec 11).
//! On the way it negotiates `A2A-Version` (3.6), reads `A2A-Extensions`
//! (3.2.6), authenticates through an [`Authenticator`] (7.4) and applies
//! the card's capability gates (3.3.4, 13.3). A [`Body`] is complete bytes
//! or a stream of SSE frames; plugging it into a host's HTTP stack is a
//! few lines (see [`Body`]).
//!
//! ```
//! use a2a_transport::{A2aServer, A2aService, BearerAuth, Body, ServerConfig};
//! use a2a_types::AgentCard;
//! use bytes::Bytes;
//!
//! struct Agent; // a real one implements the operations it offers
//! impl A2aService for Agent {}
//!
//! let card = AgentCard { name: "Agent".into(), ..Default::default() };
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
//! - [`Router`] and [`Route`]: the HTTP+JSON route table (spec 11.3 and
//!   the proto's `google.api.http` rules, with the `/{tenant}` prefix),
//!   matching requests to an [`Operation`](a2a_types::Operation) with
//!   their path parameters, and building paths for the client.
//! - [`QueryParams`] and [`QueryBuilder`]: query strings (spec 11.5).
//! - [`ProtocolVersion`] and [`negotiate_version`]: the `A2A-Version`
//!   service parameter (spec 3.6).
//! - [`RequestedExtensions`] and [`encode_extensions`]: the
//!   `A2A-Extensions` service parameter (spec 3.2.6, 11.2).
//! - [`check_capabilities`] and [`required_extensions`]: capability gating
//!   from the card (spec 3.3.4, 13.3).
//! - [`Authenticator`] with [`BearerAuth`], [`ApiKeyAuth`], [`BasicAuth`]
//!   and [`AnyOf`], and [`challenges`] for a 401 (spec 7.4).
//! - [`AgentCardResource`]: the card's bytes, `ETag` and conditional
//!   answers (spec 8.6).
//! - [`check_webhook_url`], [`check_socket_addr`] and [`Allowlist`]:
//!   webhook address safety against SSRF (spec 13.2).
//!
//! # The client side
//!
//! The client side sends calls through an [`HttpClient`] the host
//! implements (one method: a request in, a response with a streamed body
//! out), so it too never opens a socket or reads a clock:
//!
//! - [`HttpTransport`]: an [`A2aService`] over JSON-RPC (spec 9) or
//!   HTTP+JSON (spec 11) for one interface ([`Binding`]), with
//!   `A2A-Version: 1.0` on every request, typed results, and agent errors,
//!   proxy answers (`401` with its `WWW-Authenticate` challenges, `403`)
//!   and client failures ([`ClientFailure`]) all as [`A2aError`](a2a_types::A2aError)s.
//!   Streams are [`SseStream`]s.
//! - [`ResilientTransport`]: the same, with streams that resubscribe after
//!   a dropped connection (spec 3.1.6; [`RetryPolicy`], a host [`Timer`])
//!   and streaming calls that degrade to unary ones for agents that do not
//!   stream.
//! - [`discover`], [`CardResolver`] and [`select_interface`]: the agent
//!   card fetched, validated and cached (spec 8.2, 8.6), and the interface
//!   chosen (spec 8.3.2) with its tenant.
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
//! | request body | 16 MiB (413, by `Content-Length` first) | [`ServerConfig::max_body_size`] |
//! | request path | 2048 bytes (414) | [`ServerConfig::max_path_len`], [`Router::with_max_path_len`] |
//! | query string | 4096 bytes, 64 parameters | [`QueryConfig`] |
//! | `A2A-Version` | 32 bytes | [`MAX_VERSION_LEN`] |
//! | `A2A-Extensions` | 32 URIs of 1024 bytes | [`ExtensionLimits`] |
//! | webhook URL | 4096 bytes | [`MAX_WEBHOOK_URL_LEN`] |
//! | response body (client) | 16 MiB | [`ClientConfig::max_response_body`] |
//! | error body read (client) | 64 KiB | [`ClientConfig::max_error_body`] |
//! | SSE line and event (client) | 16 MiB each | [`ClientConfig::sse`] |
//! | agent card (client) | 1 MiB | [`CardResolver::with_max_card_size`] |
//!
//! ```
//! use a2a_transport::Router;
//! use a2a_types::Operation;
//! use http::Method;
//!
//! let router = Router::new();
//! let m = router.match_route(&Method::GET, "/acme/tasks/task-123")?;
//! assert_eq!(m.operation(), Operation::GetTask);
//! assert_eq!(m.params.tenant.as_deref(), Some("acme"));
//! assert_eq!(m.params.task_id.as_deref(), Some("task-123"));
//! # Ok::<(), a2a_transport::RouteError>(())
//! ```

mod auth;
mod binding;
mod body;
mod card;
mod client;
mod client_error;
mod client_stream;
mod discovery;
mod extensions;
mod frames;
mod gate;
#[cfg(feature = "http-body")]
mod http_body;
mod http_client;
mod jsonrpc_binding;
mod keep_alive;
mod media;
mod pct;
mod query;
mod resilient;
mod rest_binding;
mod route;
mod server;
mod service;
mod ssrf;
#[cfg(feature = "tower-service")]
mod tower;
mod unwind;
mod version;

pub use auth::{
    challenges, security_required, AnyOf, ApiKeyAuth, AuthConfigError, AuthOutcome, AuthRequest,
    Authenticator, BasicAuth, BearerAuth,
};
pub use binding::Binding;
pub use body::{keep_alive_frame, Body, FrameStream};
pub use card::{strong_etag, AgentCardResource, AGENT_CARD_PATH, DEFAULT_CARD_CACHE_CONTROL};
pub use client::{ClientConfig, HttpTransport, InterfaceUrlError};
pub use client_error::{
    www_authenticate, ClientFailure, CLIENT_ERROR_DOMAIN, WWW_AUTHENTICATE_KEY,
};
pub use client_stream::SseStream;
pub use discovery::{
    discover, select_interface, select_interfaces, CardResolver, Discovered, DiscoveryError,
    NoCompatibleInterface, Preferences, SelectionOrder,
};
pub use gate::{check_capabilities, required_extensions};
pub use media::{is_json_media_type, A2A_JSON, APPLICATION_JSON, EVENT_STREAM};
pub use server::{A2aServer, ConfigError, ServerConfig, DEFAULT_MAX_BODY_SIZE};

pub use extensions::{
    encode_extensions, ExtensionLimits, ExtensionsError, RequestedExtensions, A2A_EXTENSIONS,
    A2A_EXTENSIONS_PARAM,
};
pub use http_client::{HttpClient, HttpError, ResponseBody};
pub use keep_alive::{KeepAlive, KeepAliveStream};
pub use pct::PercentDecodeError;
pub use query::{QueryBuilder, QueryConfig, QueryError, QueryParams};
pub use resilient::{ResilientStream, ResilientTransport, RetryPolicy, Timer};
pub use route::{
    AllowedMethods, BasePathError, BuildPathError, PathParam, PathParams, Route, RouteError,
    RouteMatch, Router,
};
pub use service::{dispatch, A2aService, BoxFuture, CallContext, EventStream, Principal, Reply};
pub use ssrf::{
    canonical_ip, check_ip, check_socket_addr, check_webhook_url, ip_refusal, Allowlist,
    AllowlistError, RefusalReason, SsrfError, UrlError, WebhookHost, WebhookTarget,
    MAX_WEBHOOK_URL_LEN,
};
#[cfg(feature = "tower-service")]
pub use tower::TowerService;
pub use version::{
    negotiate_version, requested_version, ProtocolVersion, RequestedVersionError, VersionError,
    A2A_VERSION, A2A_VERSION_PARAM, MAX_ECHO_LEN, MAX_VERSION_LEN,
};
