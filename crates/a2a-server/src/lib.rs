//! The A2A server: one job, answering calls. [`A2aServer`](crate::A2aServer)
//! turns an `http::Request<Bytes>` into an `http::Response<`[`Body`](crate::Body)`>`
//! for one [`A2aService`](a2a_wire::A2aService): the public agent card
//! (spec 8.2), the JSON-RPC binding (spec 9), the HTTP+JSON binding (spec
//! 11) and, with the `grpc` feature, the gRPC binding (spec 10); and
//! [`A2aServer::serve`](crate::A2aServer::serve) runs the same pipeline
//! for any other transport. It builds on `a2a-wire` and never depends on
//! the client or on push delivery; like them it never opens a socket,
//! reads a clock or needs an executor.
//!
//! # Features
//!
//! - `grpc`: the gRPC binding (a2a-proto and prost). Off by default: a
//!   host that does not serve gRPC compiles no prost. `a2a-transport`
//!   turns it on, so hosts on the facade serve gRPC as before.
//! - `http-body`: `impl http_body::Body for Body`.
//! - `tower-service`: `TowerService`, an `A2aServer` as a
//!   `tower::Service` over any `http_body::Body` request.
//! - `testing`: the fuzz harnesses (`a2a_server::fuzz`).
//! - `opentelemetry-metrics`: [`metrics`]' recorder on an OpenTelemetry
//!   `Meter`.
//! - `draft-1-1`: the A2A 1.1 draft served where configured.
//!
//! The server side: [`A2aServer`](crate::A2aServer), one pure function from an
//! `http::Request<Bytes>` to an `http::Response<Body>`, serving the agent
//! card (spec 8.2), the JSON-RPC binding (spec 9) and the HTTP+JSON
//! binding (spec 11) over one [`A2aService`](a2a_wire::A2aService), and
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
//! 7. **The handler**, through [`dispatch`](a2a_wire::dispatch). For a streaming operation the
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
//!   [`Authenticator`](crate::Authenticator).
//! - **The card is checked at construction** ([`A2aServer::new`](crate::A2aServer::new)): it
//!   must pass [`Validate`](a2a_types::Validate) (a card `discover`
//!   would reject is never served), and each `supportedInterfaces` entry
//!   must be a binding, path and version this server serves (spec 8.3.1,
//!   5.2). A mismatch is a [`ConfigError`](crate::ConfigError), not a silently wrong card.
//! - **Panics** in the handler, its streams or the authenticator are
//!   caught and answered as `InternalError` (500 / `-32603`), never
//!   unwound into the host.
//! - **SSE event ids**: every event frame of a stream carries an `id:`,
//!   the label the handler gave it through [`EventIds`](a2a_wire::EventIds), else its
//!   position in the stream (`1`, `2`, ...); error frames carry none. A
//!   reconnecting client's `Last-Event-ID` reaches the handler in the
//!   context ([`CallContext::last_event_id`](a2a_wire::CallContext::last_event_id)), which decides what it
//!   can resume (spec 3.1.6).

#![deny(missing_docs)]
#![allow(rustdoc::redundant_explicit_links)] // module pages name targets from the crate root
mod a2a_server;
mod auth;
mod body;
mod call_span;
mod card;
mod frames;
#[cfg(feature = "testing")]
pub mod fuzz;
mod gate;
#[cfg(feature = "grpc")]
mod grpc_binding;
#[cfg(feature = "http-body")]
mod http_body;
mod jsonrpc_binding;
mod keep_alive;
mod linger;
pub mod metrics;
mod pipeline;
pub mod rate_limit;
mod rest_binding;
#[cfg(feature = "tower-service")]
mod tower;
mod unwind;

// What a host serving an agent needs from the wire layer, so that serving
// takes no other import.
pub use a2a_wire::{
    A2aService, Binding, BoxFuture, CallContext, EventIds, EventStream, Principal, ProtocolVersion,
    Timer, AGENT_CARD_PATH,
};

pub use a2a_server::{A2aServer, ConfigError, ServerConfig, DEFAULT_MAX_BODY_SIZE};
pub use auth::{
    authorization, challenges, challenges_with_error, security_required, AnyOf, ApiKeyAuth,
    AuthConfigError, AuthOutcome, AuthRequest, Authenticator, BasicAuth, BearerAuth, BearerError,
    BearerErrorCode,
};
pub use body::{keep_alive_frame, Body, Chunk, ChunkStream, FrameStream, Trailed};
pub use card::{
    strong_etag, AgentCardResource, DEFAULT_CARD_CACHE_CONTROL, DEFAULT_EXTENDED_CARD_CACHE_CONTROL,
};
pub use gate::{check_capabilities, check_input_modes, media_range_covers, required_extensions};
pub use keep_alive::{KeepAlive, KeepAliveStream};
pub use linger::Linger;
pub use pipeline::{Answer, CallHead};
pub use rate_limit::{ClientAddress, PeerAddr, RateLimit, RateLimiter};
#[cfg(feature = "tower-service")]
pub use tower::{BodyFailure, TowerService};
