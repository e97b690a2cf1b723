//! The A2A v1.0 transport layer.
//!
//! This crate will own the `A2aService` trait (one method per operation
//! of spec 3.1) and both HTTP bindings, JSON-RPC (spec 9) and HTTP+JSON
//! (spec 11), as pure functions over [`http`] types: it never opens a
//! socket, reads a clock or needs an executor.
//!
//! What exists now is the first layer those bindings are assembled from:
//! small, I/O-free pieces, each with documented limits and precise errors.
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
//! - [`check_webhook_url`], [`check_socket_addr`] and [`Allowlist`]:
//!   webhook address safety against SSRF (spec 13.2).
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
//! data model, which is `a2a-types`'. Each module's documentation lists
//! the decisions a reader might question (tenant prefixes, `+` in
//! queries, patch versions, which address ranges are refused).
//!
//! # Limits
//!
//! Every input is bounded before it is read, and exceeding a bound is an
//! error, never a truncation:
//!
//! | input | default | where |
//! | --- | --- | --- |
//! | request path | 2048 bytes (414) | [`Router::with_max_path_len`] |
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

mod client;
mod client_error;
mod client_stream;
mod discovery;
mod extensions;
mod http_client;
mod pct;
mod query;
mod resilient;
mod route;
mod service;
mod ssrf;
mod version;

pub use client::{Binding, ClientConfig, HttpTransport, InterfaceUrlError};
pub use client_error::{
    www_authenticate, ClientFailure, CLIENT_ERROR_DOMAIN, WWW_AUTHENTICATE_KEY,
};
pub use client_stream::SseStream;
pub use discovery::{
    discover, select_interface, select_interfaces, CardResolver, Discovered, DiscoveryError,
    NoCompatibleInterface, Preferences, SelectionOrder, AGENT_CARD_PATH,
};
pub use extensions::{
    encode_extensions, ExtensionLimits, ExtensionsError, RequestedExtensions, A2A_EXTENSIONS,
    A2A_EXTENSIONS_PARAM,
};
pub use http_client::{HttpClient, HttpError, ResponseBody};
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
pub use version::{
    negotiate_version, requested_version, ProtocolVersion, RequestedVersionError, VersionError,
    A2A_VERSION, A2A_VERSION_PARAM, MAX_ECHO_LEN, MAX_VERSION_LEN,
};
