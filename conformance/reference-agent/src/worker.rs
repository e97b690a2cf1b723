//! Carries out a task's [`Work`]: status changes, artifacts and pauses,
//! each published on the task. Work stops at the first change the task
//! refuses, which is how a cancel (or an eviction) stops it.

use std::sync::Arc;
use std::time::Duration;

use a2a_types::{Artifact, Message, Part, TaskState};

use crate::behaviour::{Tck, Work, RESUBSCRIBE_WORK};
use crate::ids::IdGenerator;
use crate::task::{Gone, TaskEntry};

/// The status message of an input-required task.
pub(crate) const NEED_INPUT: &str = "need input";
/// The status message of an auth-required task (spec 7.6.1 asks for one).
pub(crate) const NEED_AUTH: &str =
    "need authorization: send any message to this task to grant it and continue";

/// What a worker needs besides the task.
pub(crate) struct Worker {
    pub(crate) entry: Arc<TaskEntry>,
    pub(crate) ids: Arc<IdGenerator>,
    pub(crate) step: Duration,
}

impl Worker {
    /// Runs `work` to its end (or until the task refuses a change).
    pub(crate) async fn run(self, work: Work) {
        let _ = self.execute(work).await;
    }

    async fn execute(&self, work: Work) -> Result<(), Gone> {
        use TaskState::{AuthRequired, Completed, Failed, InputRequired, Rejected, Working};
        match work {
            Work::Echo(text) => {
                self.status(Working)?;
                self.artifact("echo", vec![Part::text(text)])?;
                self.status(Completed)
            }
            Work::Stream { chunks, delay } => {
                self.status(Working)?;
                let id = self.ids.next("artifact");
                for i in 1..=chunks {
                    if i > 1 {
                        self.pause(delay).await?;
                    }
                    let artifact = Artifact::new(&id, vec![Part::text(format!("chunk {i} "))])
                        .with_name("stream");
                    self.entry.add_artifact(artifact, i > 1, i == chunks)?;
                }
                self.status(Completed)
            }
            Work::Input => self.status_with(InputRequired, NEED_INPUT),
            Work::Auth => self.status_with(AuthRequired, NEED_AUTH),
            Work::Slow(d) => {
                self.status(Working)?;
                self.pause(d).await?;
                self.artifact(
                    "slow",
                    vec![Part::text(format!("worked {} ms", d.as_millis()))],
                )?;
                self.status(Completed)
            }
            Work::Fail => {
                self.status(Working)?;
                self.status_with(Failed, "failed, as the message asked")
            }
            Work::Reject => self.status_with(Rejected, "rejected, as the message asked"),
            Work::Resume(text) => {
                self.artifact("answer", vec![Part::text(format!("got: {text}"))])?;
                self.status(Completed)
            }
            Work::Tck(t) => self.tck(t).await,
        }
    }

    async fn tck(&self, t: Tck) -> Result<(), Gone> {
        use TaskState::{AuthRequired, Completed, Failed, InputRequired, Rejected, Working};
        let file = || {
            Part::raw(b"tck".to_vec())
                .with_filename("output.txt")
                .with_media_type("text/plain")
        };
        match t {
            Tck::CompleteTask => self.status_with(Completed, "Hello from TCK"),
            Tck::ArtifactText => {
                self.artifact("output", vec![Part::text("Generated text content")])?;
                self.status(Completed)
            }
            Tck::ArtifactFileUrl => {
                let part = Part::url("https://example.com/output.txt")
                    .with_filename("output.txt")
                    .with_media_type("text/plain");
                self.artifact("output", vec![part])?;
                self.status(Completed)
            }
            Tck::ArtifactFile => {
                self.artifact("output", vec![file()])?;
                self.status(Completed)
            }
            Tck::ArtifactData => {
                let data = serde_json::json!({"key": "value", "count": 42});
                self.artifact("output", vec![Part::data(data)])?;
                self.status(Completed)
            }
            Tck::InputRequired => self.status_with(InputRequired, NEED_INPUT),
            Tck::AuthRequired => self.status_with(AuthRequired, NEED_AUTH),
            Tck::RejectTask => self.status_with(Rejected, "rejected"),
            Tck::TaskFailure => self.status_with(Failed, "failed"),
            Tck::Stream002 => self.status(Completed),
            Tck::StreamText(text) => {
                self.status(Working)?;
                self.artifact("output", vec![Part::text(text)])?;
                self.status(Completed)
            }
            Tck::StreamArtifactFile => {
                self.status(Working)?;
                self.artifact("output", vec![file()])?;
                self.status(Completed)
            }
            Tck::StreamChunked => {
                self.status(Working)?;
                let id = self.ids.next("artifact");
                let chunk = |text: &str| Artifact::new(&id, vec![Part::text(text)]);
                self.entry.add_artifact(chunk("chunk-1 "), false, false)?;
                self.entry.add_artifact(chunk("chunk-2"), true, true)?;
                self.status(Completed)
            }
            Tck::Resubscribe => {
                self.status(Working)?;
                self.pause(RESUBSCRIBE_WORK).await?;
                self.status(Completed)
            }
        }
    }

    fn status(&self, state: TaskState) -> Result<(), Gone> {
        self.entry.set_status(state, None)
    }

    /// A status carrying an agent message (which also joins the history).
    fn status_with(&self, state: TaskState, text: &str) -> Result<(), Gone> {
        let message = Message::agent_text(self.ids.next("msg"), text);
        // The ids of the task are filled in by `for_task` through the entry.
        let message = message.for_task(&self.entry.id, self.entry.context_id());
        self.entry.set_status(state, Some(message))
    }

    fn artifact(&self, name: &str, parts: Vec<Part>) -> Result<(), Gone> {
        let artifact = Artifact::new(self.ids.next("artifact"), parts).with_name(name);
        self.entry.add_artifact(artifact, false, false)
    }

    /// Waits `d` in steps, stopping early when the task is finished. A zero
    /// wait still yields to the runtime, so a burst of chunks (`stream n 0`)
    /// lets its subscribers' streams run instead of holding the thread.
    async fn pause(&self, d: Duration) -> Result<(), Gone> {
        if d.is_zero() {
            tokio::task::yield_now().await;
        }
        let mut left = d;
        while !left.is_zero() {
            if self.entry.is_finished() {
                return Err(Gone);
            }
            let step = left.min(self.step.max(Duration::from_millis(1)));
            tokio::time::sleep(step).await;
            left -= step;
        }
        if self.entry.is_finished() {
            Err(Gone)
        } else {
            Ok(())
        }
    }
}
