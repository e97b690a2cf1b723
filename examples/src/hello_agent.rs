//! The agent of the README's "Serve an agent", whole: one `execute`
//! that streams three chunks of an artifact and asks for input once; the
//! agent kit (`a2a-agent`) carries everything else (the README test keeps
//! the two texts equal).

use a2a_agent::{AgentExecutor, AgentHandler, Execution, InMemoryTaskStore};
use a2a_agent::{RequestContext, TaskUpdater};
use a2a_hyper::{server_config, TokioRuntime};
use a2a_transport::{server::ConfigError, A2aServer};
use a2a_types::{Artifact, Part};

/// Says hello in three chunks, asks the caller's name, then greets it.
#[derive(Debug)]
pub struct Hello;

impl AgentExecutor for Hello {
    fn execute<'a>(&'a self, cx: RequestContext, task: TaskUpdater) -> Execution<'a> {
        Box::pin(async move {
            if cx.task.is_some() {
                let greeting = format!("nice to meet you, {}", cx.text());
                return Ok(task.complete_with(&greeting).await?);
            }
            task.start_work().await?;
            let id = task.new_id("artifact");
            for (i, word) in ["hello ", "from ", "a2a-core"].into_iter().enumerate() {
                let chunk = Artifact::new(&id, vec![Part::text(word)]).with_name("greeting");
                task.artifact_chunk(chunk, i > 0, i == 2).await?;
            }
            Ok(task.require_input("what is your name?").await?)
        })
    }
}

/// The agent behind an [`A2aServer`], reached at `base_url`.
pub fn server(base_url: &str) -> Result<A2aServer<AgentHandler<Hello>>, ConfigError> {
    let handler = AgentHandler::new(Hello, InMemoryTaskStore::default(), TokioRuntime);
    handler.into_server("Hello agent", "Says hello", base_url, server_config())
}
