//! The core crates on `wasm32-unknown-unknown` (issue 27): an
//! [`HttpClient`](a2a_transport::HttpClient) on the platform's `fetch`, and
//! the tests that run the core in a JavaScript engine.
//!
//! `a2a-types`, `a2a-jsonrpc`, `a2a-sse`, `a2a-proto` and `a2a-transport`
//! never open a socket, read a clock or start a thread, so they build for
//! the target as they are, with no feature and no `cfg` of their own. What
//! a host on that target supplies is what every host supplies: the HTTP
//! stack (an `HttpClient` for the client side; for the server side, the
//! code that hands `A2aServer::handle` its requests) and, for resumable
//! streams and keep-alives, a `Timer`.
//!
//! # What is here
//!
//! - `FetchClient` (on `wasm32-unknown-unknown` only): the client side's
//!   `HttpClient` on the global `fetch` of browsers, workers (Cloudflare
//!   Workers, Deno) and Node 18 and later, through `web-sys`. It is the
//!   example a host copies or uses; it reads response bodies as they
//!   arrive, so Server-Sent Events streams work.
//! - `tests/core.rs`: the pure parts for real (ProtoJSON and protobuf round
//!   trips of all 44 message types, JSON-RPC, SSE, the server pipeline, the
//!   client over an in-memory `HttpClient`), run as ordinary tests natively
//!   and as `wasm-bindgen-test` tests in Node's WebAssembly engine.
//! - `tests/fetch.rs` (wasm only): `FetchClient` against a Node HTTP server
//!   on loopback whose answers come from an `A2aServer` in the same
//!   WebAssembly instance.
//!
//! `scripts/wasm-check` builds the crates for the target and runs both
//! test files under Node; `.ci/run` calls it.
//!
//! # What the target cannot do
//!
//! - **No clock.** `std::time::Instant::now` and `SystemTime::now` panic
//!   on `wasm32-unknown-unknown`. The core reads no clock, and
//!   `SystemTime` values a host builds from `Date.now()`
//!   (`UNIX_EPOCH + Duration::from_millis(..)`) work (the webhook
//!   verifier's `now`, a card's `Last-Modified`). The one API that needs
//!   an `Instant`, `CardResolver::card` (the card cache), cannot be called
//!   there, since no `Instant` can be made; `discover` (uncached) can.
//! - **Panics abort.** The target has no unwinding, so the server's
//!   containment of a panicking handler (answering `InternalError`) does
//!   not happen: a panic ends the WebAssembly instance.
//! - **No gRPC over fetch.** `fetch` chooses the HTTP version itself and
//!   gives no response trailers, where gRPC puts its status; `FetchClient`
//!   refuses an HTTP/2 request (what `HttpTransport` sends over gRPC) with
//!   `HttpError::Other`. The JSON-RPC and HTTP+JSON bindings work.
//! - **Message ids** from `a2a_types::new_message_id` are distinct within
//!   the instance only: the target gives `RandomState` no random keys.
//!
//! The crates that do not build for the target, and why, are listed in
//! `docs/decisions.md` ("The core on WebAssembly").
#![deny(missing_docs)]

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod fetch;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use fetch::FetchClient;
