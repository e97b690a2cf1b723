//! The reference agent on standard input and output, over the line
//! transport of [`a2a_examples::lines`]: one JSON-RPC request per line in,
//! one response (or stream event) per line out.
//!
//! ```text
//! printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"echo hi"}]}},"a2a-service-parameters":{"A2A-Version":"1.0"}}' \
//!   | cargo run -q -p a2a-examples --bin lines
//! ```

use std::sync::Arc;

use a2a_examples::lines::{serve_lines, LineConfig, BINDING};
use a2a_reference_agent::{AgentConfig, RecordingPushSender, ReferenceAgent};
use a2a_transport::{A2aServer, ServerConfig};
use a2a_types::AgentInterface;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    // The card declares the custom binding (spec 12.7).
    let config =
        AgentConfig::default().with_interfaces(vec![AgentInterface::new("stdio:", BINDING, "1.0")]);
    let agent = ReferenceAgent::new(config, Arc::new(RecordingPushSender::new()));
    let card = agent.agent_card().clone();
    let config = ServerConfig::new().with_external_binding(BINDING);
    let server = A2aServer::new(agent, card, config).map_err(std::io::Error::other)?;
    serve_lines(
        Arc::new(server),
        tokio::io::stdin(),
        tokio::io::stdout(),
        LineConfig::new(),
    )
    .await
}
