//! A user's own agent on the agent kit, configured: [`ShoutAgent`]
//! answers each message with a completed task whose artifact is the
//! message's text in capitals. The kit's [`AgentHandler`] serves every
//! operation (streaming, subscriptions, cancel, listing, owners) on an
//! [`InMemoryTaskStore`] with bounds of its own; the server in front of it
//! does the protocol's part (bindings, version, validation, capability
//! gates from the card). `bin/own_agent.rs` serves it with
//! `a2a_hyper::serve`; the conformance runner's results against it are in
//! the crate README.
//!
//! A host that wants full control of every operation implements
//! [`A2aService`](a2a_transport::A2aService) itself instead (see
//! [`crate::constant`]); the trait's defaults then answer what the spec
//! requires of an agent that lacks an operation.

use std::time::Duration;

use a2a_agent::{
    AgentExecutor, AgentHandler, Execution, HandlerConfig, InMemoryTaskStore, MemoryLimits,
    RequestContext, TaskUpdater,
};
use a2a_hyper::TokioRuntime;
use a2a_transport::{server::ConfigError, A2aServer};

/// The most tasks [`ShoutAgent`] remembers; the oldest goes first.
pub const MAX_TASKS: usize = 1000;

/// An agent that shouts back (see the module documentation).
#[derive(Debug, Default, Clone, Copy)]
pub struct ShoutAgent;

impl AgentExecutor for ShoutAgent {
    fn execute<'a>(&'a self, cx: RequestContext, task: TaskUpdater) -> Execution<'a> {
        Box::pin(async move {
            task.start_work().await?;
            let shout = task.artifact("shout", cx.text().to_uppercase());
            task.add_artifact(shout).await?;
            task.complete().await?;
            Ok(())
        })
    }
}

/// The handler `ShoutAgent` runs on: at most [`MAX_TASKS`] tasks kept for
/// a day, answers only in `text/plain` (a client accepting none of it is
/// refused, spec 3.3.2), no push notifications (no sender given).
pub fn handler() -> AgentHandler<ShoutAgent> {
    let mut limits = MemoryLimits::default();
    limits.max_tasks = MAX_TASKS;
    limits.task_ttl = Duration::from_secs(24 * 3600);
    let config = HandlerConfig::new().with_output_modes(vec!["text/plain".to_owned()]);
    AgentHandler::builder(ShoutAgent, InMemoryTaskStore::new(limits), TokioRuntime)
        .config(config)
        .build()
}

/// `ShoutAgent` behind an [`A2aServer`], reached at `base_url` (JSON-RPC
/// at `{base_url}/`, HTTP+JSON at `{base_url}`).
pub fn server(base_url: &str) -> Result<A2aServer<AgentHandler<ShoutAgent>>, ConfigError> {
    let handler = handler();
    let card = handler.card(
        "Shout agent",
        "Answers every message with its text in capitals",
        base_url,
    );
    A2aServer::new(handler, card, server_config())
}

/// The server settings `ShoutAgent` is served with: a2a-hyper's defaults
/// (keep-alive), the media-type check of every message part against the
/// card's input modes (spec 3.3.2), and the card's `Last-Modified` (spec
/// 8.6): the time it was built.
pub fn server_config() -> a2a_transport::ServerConfig {
    a2a_hyper::server_config()
        .with_input_mode_check(true)
        .with_card_last_modified(std::time::SystemTime::now())
}
