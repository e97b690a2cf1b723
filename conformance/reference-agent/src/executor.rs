//! [`ReferenceExecutor`]: the behaviour contract as an
//! [`AgentExecutor`]. [`crate::behaviour`] decides what a message asks
//! for; this carries it out through the task's [`TaskUpdater`]. Work stops
//! at the first update the task refuses, which is how a cancel (or an
//! eviction) stops it.

use std::time::Duration;

use a2a_agent::{AgentExecutor, Execution, RequestContext, TaskUpdater, UpdateError};
use a2a_types::{A2aError, FieldViolation, Message, Part, PartContent};

use crate::behaviour::{self, Behaviour, Tck, Work, RESUBSCRIBE_WORK};
use crate::config::Limits;

/// The status message of an input-required task.
pub(crate) const NEED_INPUT: &str = "need input";
/// The status message of an auth-required task (spec 7.6.1 asks for one).
pub(crate) const NEED_AUTH: &str =
    "need authorization: send any message to this task to grant it and continue";

/// The reference agent's logic: the message-driven contract of the
/// [crate documentation](crate).
#[derive(Debug, Clone)]
pub struct ReferenceExecutor {
    limits: Limits,
    fire_and_forget: bool,
}

impl ReferenceExecutor {
    /// The contract within `limits` (`max_stream_chunks`, `max_delay`).
    pub fn new(limits: Limits) -> ReferenceExecutor {
        ReferenceExecutor {
            limits,
            fire_and_forget: false,
        }
    }

    /// The "fire and forget" contract instead (see the
    /// [crate documentation](crate)): every message leaves its task WORKING
    /// until it is canceled.
    pub fn fire_and_forget(limits: Limits) -> ReferenceExecutor {
        ReferenceExecutor {
            limits,
            fire_and_forget: true,
        }
    }
}

/// How long one wait of a fire-and-forget task lasts; it waits again until
/// the task is canceled or expires.
const FOREVER_STEP: Duration = Duration::from_secs(3600);
/// How long a fire-and-forget `test-resubscribe-message-id` message waits
/// before its task is created, as the TCK's own agent does.
const RESUBSCRIBE_DELAY: Duration = Duration::from_secs(3);

impl AgentExecutor for ReferenceExecutor {
    fn execute<'a>(&'a self, context: RequestContext, updater: TaskUpdater) -> Execution<'a> {
        Box::pin(async move {
            if self.fire_and_forget {
                fire_and_forget(&context, &updater).await;
                return Ok(());
            }
            let work = if context.task.is_some() {
                behaviour::for_follow_up(&context.message)
            } else {
                match behaviour::for_new_message(&context.message, &self.limits) {
                    Ok(Behaviour::Reply(text)) => {
                        let reply = Message::agent_text(updater.new_id("msg"), text);
                        updater.reply(reply).await?;
                        return Ok(());
                    }
                    Ok(Behaviour::Task(work)) => work,
                    Err(e) => {
                        return Err(A2aError::invalid_params(vec![FieldViolation {
                            field: text_path(&context.message),
                            description: e.0,
                        }])
                        .into())
                    }
                }
            };
            match run(&updater, work).await {
                // Refused: canceled (or evicted) meanwhile, which ends the work.
                Ok(()) | Err(UpdateError::Refused { .. } | UpdateError::TaskGone) => Ok(()),
                Err(e) => Err(e.into()),
            }
        })
    }
}

/// SUBMITTED with the message, WORKING, and nothing more until a cancel
/// (or the store's expiry) ends the task.
async fn fire_and_forget(context: &RequestContext, task: &TaskUpdater) {
    if context
        .message
        .message_id
        .starts_with("test-resubscribe-message-id")
    {
        let _ = task.pause(RESUBSCRIBE_DELAY).await;
    }
    if task.start_work().await.is_err() {
        return;
    }
    while task.pause(FOREVER_STEP).await.is_ok() {}
}

/// The path of the text part a command was read from.
fn text_path(message: &Message) -> String {
    let i = message
        .parts
        .iter()
        .position(|p| matches!(p.content, PartContent::Text(_)))
        .unwrap_or(0);
    format!("message.parts[{i}].text")
}

async fn run(task: &TaskUpdater, work: Work) -> Result<(), UpdateError> {
    match work {
        Work::Echo(text) => {
            task.start_work().await?;
            task.add_artifact(task.artifact("echo", text)).await?;
            task.complete().await
        }
        Work::Stream { chunks, delay } => {
            task.start_work().await?;
            let id = task.new_id("artifact");
            for i in 1..=chunks {
                if i > 1 {
                    task.pause(delay).await?;
                }
                let artifact =
                    a2a_types::Artifact::new(&id, vec![Part::text(format!("chunk {i} "))])
                        .with_name("stream");
                task.artifact_chunk(artifact, i > 1, i == chunks).await?;
            }
            task.complete().await
        }
        Work::Input => task.require_input(NEED_INPUT).await,
        Work::Auth => task.require_auth(NEED_AUTH).await,
        Work::Slow(d) => {
            task.start_work().await?;
            task.pause(d).await?;
            let text = format!("worked {} ms", d.as_millis());
            task.add_artifact(task.artifact("slow", text)).await?;
            task.complete().await
        }
        Work::Fail => {
            task.start_work().await?;
            task.fail("failed, as the message asked").await
        }
        Work::Reject => task.reject("rejected, as the message asked").await,
        Work::Resume(text) => {
            task.add_artifact(task.artifact("answer", format!("got: {text}")))
                .await?;
            task.complete().await
        }
        Work::Tck(t) => tck(task, t).await,
    }
}

async fn tck(task: &TaskUpdater, t: Tck) -> Result<(), UpdateError> {
    let file = || {
        Part::raw(b"tck".to_vec())
            .with_filename("output.txt")
            .with_media_type("text/plain")
    };
    let output = |parts: Vec<Part>| task.artifact_of("output", parts);
    match t {
        Tck::CompleteTask => task.complete_with("Hello from TCK").await,
        Tck::ArtifactText => {
            task.add_artifact(output(vec![Part::text("Generated text content")]))
                .await?;
            task.complete().await
        }
        Tck::ArtifactFileUrl => {
            let part = Part::url("https://example.com/output.txt")
                .with_filename("output.txt")
                .with_media_type("text/plain");
            task.add_artifact(output(vec![part])).await?;
            task.complete().await
        }
        Tck::ArtifactFile => {
            task.add_artifact(output(vec![file()])).await?;
            task.complete().await
        }
        Tck::ArtifactData => {
            let data = serde_json::json!({"key": "value", "count": 42});
            task.add_artifact(output(vec![Part::data(data)])).await?;
            task.complete().await
        }
        Tck::InputRequired => task.require_input(NEED_INPUT).await,
        Tck::AuthRequired => task.require_auth(NEED_AUTH).await,
        Tck::RejectTask => task.reject("rejected").await,
        Tck::TaskFailure => task.fail("failed").await,
        Tck::Stream002 => task.complete().await,
        Tck::StreamText(text) => {
            task.start_work().await?;
            task.add_artifact(output(vec![Part::text(text)])).await?;
            task.complete().await
        }
        Tck::StreamArtifactFile => {
            task.start_work().await?;
            task.add_artifact(output(vec![file()])).await?;
            task.complete().await
        }
        Tck::StreamChunked => {
            task.start_work().await?;
            let id = task.new_id("artifact");
            let chunk = |text: &str| a2a_types::Artifact::new(&id, vec![Part::text(text)]);
            task.artifact_chunk(chunk("chunk-1 "), false, false).await?;
            task.artifact_chunk(chunk("chunk-2"), true, true).await?;
            task.complete().await
        }
        Tck::Resubscribe => {
            task.start_work().await?;
            task.pause(RESUBSCRIBE_WORK).await?;
            task.complete().await
        }
    }
}
