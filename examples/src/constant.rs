//! The constant-answer agent `scripts/bench-agent` and
//! `scripts/bench-floor` measure as (b): an
//! [`A2aServer`] whose `SendMessage` answers one stored Task without doing
//! any work, so that every cost left is the library's (routing, version
//! negotiation, decoding, validation, encoding). The `pipeline-bench`
//! binary serves it.

use a2a_transport::server::ConfigError;
use a2a_transport::{A2aServer, A2aService, BoxFuture, CallContext, ServerConfig};
use a2a_types::{A2aError, AgentInterface, SendMessageRequest, SendMessageResponse, Task};

/// An agent that answers one Task to every message.
#[derive(Debug, Clone)]
pub struct Constant(pub Task);

impl A2aService for Constant {
    fn send_message<'a>(
        &'a self,
        _: &'a CallContext,
        _: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        Box::pin(std::future::ready(Ok(SendMessageResponse::Task(
            self.0.clone(),
        ))))
    }
}

/// The server the bench runs: [`Constant`] answering `task`, behind the
/// reference agent's card (a valid card, JSON-RPC at `{base_url}/` and
/// HTTP+JSON at `base_url`), with the default [`ServerConfig`], which
/// serves gRPC too (at `/lf.a2a.v1.A2AService/{Method}`; the card does not
/// advertise it).
pub fn constant_server(task: Task, base_url: &str) -> Result<A2aServer<Constant>, ConfigError> {
    let config = a2a_reference_agent::AgentConfig::default().with_interfaces(vec![
        AgentInterface::new(format!("{base_url}/"), "JSONRPC", "1.0"),
        AgentInterface::new(base_url, "HTTP+JSON", "1.0"),
    ]);
    let reference = a2a_reference_agent::ReferenceAgent::new(
        config,
        std::sync::Arc::new(a2a_reference_agent::RecordingPushSender::new()),
    );
    A2aServer::new(
        Constant(task),
        reference.agent_card().clone(),
        ServerConfig::new(),
    )
}
