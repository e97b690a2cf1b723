//! The reference agent behind an [`A2aServer`], for the examples to
//! serve: with [`a2a_hyper::serve`] (`bin/server.rs`) or mounted in an
//! axum application ([`crate::axum_app`]).

use std::sync::Arc;

use a2a_reference_agent::{AgentConfig, HttpPushSender, ReferenceAgent};
use a2a_transport::{server::ConfigError, webhook::Allowlist, A2aServer, ServerConfig};
use a2a_types::AgentInterface;

/// The reference agent behind an [`A2aServer`] with `config`, its card
/// advertising JSON-RPC at `{base_url}/` and HTTP+JSON at `{base_url}`,
/// as the `a2a-reference-agent` binary does (without authentication).
///
/// `base_url` is where clients reach the agent, e.g.
/// `http://127.0.0.1:8080`, or `http://127.0.0.1:8080/a2a` when it is
/// mounted under a prefix. [`a2a_hyper::server_config`] is the usual
/// `config`: the defaults, with SSE keep-alive comments on tokio's clock.
pub fn reference_agent(
    base_url: &str,
    config: ServerConfig,
) -> Result<Arc<A2aServer<ReferenceAgent>>, ConfigError> {
    let base = base_url.trim_end_matches('/');
    let agent_config = AgentConfig::default().with_interfaces(vec![
        AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
        AgentInterface::new(base, "HTTP+JSON", "1.0"),
    ]);
    // Webhooks are delivered over HTTP to public addresses only (spec 13.2).
    let agent = ReferenceAgent::new(
        agent_config,
        Arc::new(HttpPushSender::new(Allowlist::new())),
    );
    let card = agent.agent_card().clone();
    A2aServer::new(agent, card, config).map(Arc::new)
}
