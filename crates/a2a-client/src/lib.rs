//! The A2A client: [`HttpTransport`](crate::HttpTransport) is an
//! [`A2aService`](a2a_wire::A2aService) sending each call over one of the
//! three bindings, JSON-RPC (spec 9), HTTP+JSON (spec 11) or, with the
//! `grpc` feature, gRPC (spec 10), through the host's
//! [`HttpClient`](crate::HttpClient); around it, resilient streams,
//! discovery and credentials. Its one job is calling an agent; it shares
//! only `a2a-wire` with the server and never depends on it.
//!
//! # Features
//!
//! - `grpc`: the gRPC binding (a2a-proto and prost). Off by default:
//!   without it a gRPC interface is not spoken (discovery passes it over,
//!   [`HttpTransport::new`](crate::HttpTransport::new) refuses it).
//! - `testing`: the fuzz harness of the gRPC client
//!   (`a2a_client::fuzz`).
//! - `draft-1-1`: the A2A 1.1 draft, spoken where an interface declares it.
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
//!   [`ResponseBody::with_trailers`](crate::ResponseBody::with_trailers)) or in a trailers-only head:
//!   the details' `ErrorInfo` names the error kind (spec 10.6), a
//!   missing status is `InvalidAgentResponseError`, and a response with
//!   no trailers at all a client error
//!   ([`ClientFailure::StreamIncomplete`](crate::ClientFailure::StreamIncomplete)):
//!   the usual cause is an HTTP client that drops them.
//! - **JSON-RPC** (spec 9.3): `POST` to the interface URL, the envelope
//!   written by [`a2a_jsonrpc::encode_request`] with a fresh numeric id per
//!   call (a counter from 1), `Content-Type: application/json`.
//! - **HTTP+JSON** (spec 11.3-11.5): method and path from the route table
//!   ([`Router::build_path`](a2a_wire::http_json::Router::build_path), under the interface URL's path, with the
//!   `/{tenant}` prefix); `GET` and `DELETE` carry their remaining fields in
//!   the query (`historyLength`, `pageSize`, `pageToken`, `contextId`,
//!   `status`, `statusTimestampAfter`, `includeArtifacts`), `POST` carries
//!   the whole request message as `application/a2a+json` (fields bound in
//!   the path are repeated in the body, which `google.api.http` transcoders
//!   and the SDKs' servers accept, and which keeps servers that validate
//!   the body alone working). `SubscribeToTask` is sent as the proto's
//!   `GET` (DESIGN.md: follow the proto on output).
//! - **Headers on every request**: `A2A-Version: 1.0` (spec 3.6.1; `0.3` at 0.3),
//!   `A2A-Extensions` from [`CallContext::extensions`](a2a_wire::CallContext::extensions) (spec 3.2.6),
//!   `Accept`, `Content-Type` when there is a body, and the context's
//!   extra [`headers`](a2a_wire::CallContext::headers) (`Authorization`, say). The
//!   headers the transport manages replace same-named extra headers.
//! - **Tenant** (spec 8.3.2, multi-tenancy): a request's own non-empty
//!   `tenant` is kept; otherwise it is [`CallContext::tenant`](a2a_wire::CallContext::tenant), otherwise
//!   the transport's (the selected interface's) tenant.
//! - **Version**: the transport speaks 1.0, and 0.3 over JSON-RPC and
//!   HTTP+JSON ([`HttpTransport::with_version`](crate::HttpTransport::with_version); a transport for a card's
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
//!   ([`www_authenticate`](crate::www_authenticate)).
//! - Streams ([`SseStream`](crate::SseStream)) must be `text/event-stream`; see there.
//! - Failures of the HTTP stack are marked [`ClientFailure`](crate::ClientFailure)s.
//!
//! # Credentials
//!
//! [`Credentials::select`](crate::Credentials::select) takes the
//! **first** of the card's `securityRequirements` all of whose schemes
//! have a provider configured, and every call carries each of its
//! credentials where the scheme says (module `credentials` docs on
//! [`Credentials`](crate::Credentials)). A call refused as
//! unauthenticated (`401`, gRPC `UNAUTHENTICATED`) is sent once more
//! when a provider may answer a fresh credential (an OAuth 2.0 token
//! is dropped from the cache and fetched again); a stream is re-sent
//! only while being opened, never after its first event.

#![deny(missing_docs)]
#![allow(rustdoc::redundant_explicit_links)] // module pages name targets from the crate root
mod client_error;
mod client_stream;
mod codec;
mod config;
mod credentials;
mod discovery;
#[cfg(feature = "testing")]
pub mod fuzz;
#[cfg(feature = "grpc")]
mod grpc_client;
mod http_transport;
mod resilient;

// What a caller of the client needs from the wire layer, so that using
// the client takes no other import.
pub use a2a_wire::{
    A2aService, Binding, BodyChunk, BoxFuture, CallContext, EventStream, HttpClient, HttpError,
    InterfaceUrlError, ProtocolVersion, ResponseBody, StreamNext, Timer,
};
pub use client_error::{
    www_authenticate, ClientFailure, CLIENT_ERROR_DOMAIN, WWW_AUTHENTICATE_KEY,
};
pub use client_stream::SseStream;
pub use config::ClientConfig;
pub use credentials::{
    ApiKeyLocation, CallCredentials, ClientAuth, ClientCredentials, ClientCredentialsConfig, Clock,
    Credential, CredentialProvider, Credentials, NoRequirementMet, SchemeRequest, Secret,
    StaticCredential,
};
pub use discovery::{
    decode_card, discover, select_interface, select_interfaces, CardResolver, Discovered,
    DiscoveryError, NoCompatibleInterface, Preferences, SelectionOrder,
};
pub use http_transport::HttpTransport;
pub use resilient::{ResilientStream, ResilientTransport, RetryPolicy};
