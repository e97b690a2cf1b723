//! An axum application with routes of its own that mounts an A2A agent:
//! the transport's [`TowerService`] (feature `tower-service`) is the whole
//! of the glue.
//!
//! - [`app`] mounts the agent at the root, as the fallback of the app's
//!   own routes: JSON-RPC at `/`, the HTTP+JSON routes (`/message:send`,
//!   `/tasks/{id}`, ...) and the card at `/.well-known/agent-card.json`.
//! - [`app_under_prefix`] mounts it under `/a2a` with `nest_service`.
//!   axum strips the prefix before the agent sees the path, so the agent's
//!   server is told the prefix it lost
//!   (`ServerConfig::with_public_path_prefix("/a2a")`, which
//!   `A2aServer::new` requires when the card's URLs carry a path the
//!   server does not see), and its card advertises the prefixed URLs
//!   (`http://host/a2a/` for JSON-RPC, `http://host/a2a` for HTTP+JSON).
//!   [`reference_app`] does both, as the `axum-app` binary runs it. The card is then at `/a2a/.well-known/agent-card.json`,
//!   where a client given `http://host/a2a` looks for it; spec 8.2 puts it
//!   at the origin's well-known URI, so the app routes
//!   `/.well-known/agent-card.json` to the agent as well.
//!
//! Bodies are read by the service under the agent's own
//! `ServerConfig::max_body_size` (16 MiB by default), answering 413 with
//! the binding's A2A error body beyond it. axum's 2 MB `DefaultBodyLimit`
//! applies to its extractors (`Bytes`, `Json`), not to a mounted service,
//! so nothing cuts a body earlier. A client still writing an oversized
//! body reads that 413 rather than a broken pipe: the service reads on
//! and discards the rest of the body before answering with
//! `Connection: close`, up to `ServerConfig::linger`'s bounds
//! (`a2a_hyper::server_config()`: 64 MiB or 2 s), and sends no
//! `100 Continue` to a declared length it refuses. SSE keep-alive comments come from the
//! agent's configuration (`a2a_hyper::server_config()`: every 15 s of
//! quiet), not from the app.

use std::sync::Arc;

use a2a_transport::server::{ConfigError, TowerService, AGENT_CARD_PATH};
use a2a_transport::{A2aServer, A2aService};

use crate::server::reference_agent;
use axum::routing::get;
use axum::Router;

/// The app with the agent at the root, beside its own `/health`.
pub fn app<S: A2aService + 'static>(agent: Arc<A2aServer<S>>) -> Router {
    Router::new()
        .route("/health", get(health))
        // Every request the app does not route itself goes to the agent.
        .fallback_service(TowerService::new(agent))
}

/// The app with the agent under `/a2a`, and its card also at the origin's
/// well-known URI. The agent's server is told the prefix axum strips
/// (`ServerConfig::with_public_path_prefix("/a2a")`), so that the card's
/// interface URLs under `/a2a` are what it serves.
pub fn app_under_prefix<S: A2aService + 'static>(agent: Arc<A2aServer<S>>) -> Router {
    let a2a = TowerService::new(agent);
    Router::new()
        .route("/health", get(health))
        .nest_service("/a2a", a2a.clone())
        .route_service(AGENT_CARD_PATH, a2a)
}

/// The reference agent in the app, reached at `origin` (`http://host:port`):
/// at the root, or under `/a2a` with `prefix`, its server then told the
/// prefix axum strips. What the `axum-app` binary serves.
pub fn reference_app(origin: &str, prefix: bool) -> Result<(Router, String), ConfigError> {
    if prefix {
        let base_url = format!("{origin}/a2a");
        let config = a2a_hyper::server_config().with_public_path_prefix("/a2a");
        Ok((
            app_under_prefix(reference_agent(&base_url, config)?),
            base_url,
        ))
    } else {
        let agent = reference_agent(origin, a2a_hyper::server_config())?;
        Ok((app(agent), origin.to_owned()))
    }
}

/// The app's own route.
async fn health() -> &'static str {
    "ok"
}
