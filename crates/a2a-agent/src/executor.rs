//! The one thing an agent author writes: [`AgentExecutor::execute`].

use a2a_transport::trace::TraceContext;
use a2a_transport::{BoxFuture, Principal};
use a2a_types::{Message, Struct, Task};

use crate::owner::Owner;
use crate::updater::TaskUpdater;

/// What `execute` and `cancel` may fail with: any error. It ends the task
/// FAILED with its text as the status message; before a task exists, an
/// [`A2aError`](a2a_types::A2aError) is answered to the caller as it is
/// (any other error as `InternalError`).
pub type ExecuteError = Box<dyn std::error::Error + Send + Sync>;

/// What [`AgentExecutor::execute`] and [`AgentExecutor::cancel`] return.
pub type Execution<'a> = BoxFuture<'a, Result<(), ExecuteError>>;

/// An agent's logic. The [`AgentHandler`](crate::AgentHandler) calls
/// `execute` for every message that starts a task and for every message
/// that resumes an interrupted one, and carries everything else of the
/// task lifecycle: the store, streams, subscriptions, push delivery,
/// cancellation, listing, owners.
///
/// ```
/// use a2a_agent::{AgentExecutor, Execution, RequestContext, TaskUpdater};
///
/// struct Echo;
///
/// impl AgentExecutor for Echo {
///     fn execute<'a>(&'a self, cx: RequestContext, task: TaskUpdater) -> Execution<'a> {
///         Box::pin(async move {
///             let text = cx.text();
///             task.start_work().await?;
///             task.add_artifact(task.artifact("echo", text)).await?;
///             task.complete().await?;
///             Ok(())
///         })
///     }
/// }
/// ```
pub trait AgentExecutor: Send + Sync + 'static {
    /// Does the work the message asks for, moving the task with `updater`:
    /// every update is stored before it is announced, and the updater
    /// refuses transitions the state machine forbids (spec 3.1.1). The
    /// task is created by the first update; `updater.reply(message)` as
    /// the first act answers a direct `Message` and creates no task.
    ///
    /// Returning while the task is still SUBMITTED or WORKING ends it
    /// FAILED ("the agent stopped without finishing the task"); an error
    /// or a panic ends it FAILED with the error's text. Leave the task
    /// INPUT_REQUIRED or AUTH_REQUIRED to wait for the client: its answer
    /// calls `execute` again, with [`RequestContext::task`] set.
    fn execute<'a>(&'a self, context: RequestContext, updater: TaskUpdater) -> Execution<'a>;

    /// Asked to cancel `task` (spec 3.1.5). The default moves it to
    /// CANCELED, which stops a running `execute` at its next update; an
    /// executor that must stop outside work first does so, then calls
    /// [`TaskUpdater::cancel`]. Not calling it refuses the cancel
    /// (`TaskNotCancelableError`).
    fn cancel<'a>(&'a self, task: Task, updater: TaskUpdater) -> Execution<'a> {
        let _ = task;
        Box::pin(async move {
            updater.cancel().await?;
            Ok(())
        })
    }
}

impl<E: AgentExecutor + ?Sized> AgentExecutor for std::sync::Arc<E> {
    fn execute<'a>(
        &'a self,
        context: RequestContext,
        updater: TaskUpdater,
    ) -> BoxFuture<'a, Result<(), ExecuteError>> {
        (**self).execute(context, updater)
    }

    fn cancel<'a>(
        &'a self,
        task: Task,
        updater: TaskUpdater,
    ) -> BoxFuture<'a, Result<(), ExecuteError>> {
        (**self).cancel(task, updater)
    }
}

/// What `execute` is asked to do, and by whom.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RequestContext {
    /// The client's message, with the task's and context's ids filled in.
    pub message: Message,
    /// The task it continues (spec 3.4.3), as stored after the message
    /// joined its history; `None` for a message that starts a task.
    pub task: Option<Task>,
    /// The id the task has (or will have, once the first update creates it).
    pub task_id: String,
    /// The task's context id: the client's, or a fresh one.
    pub context_id: String,
    /// The authenticated caller; `None` for anonymous calls.
    pub principal: Option<Principal>,
    /// The owner the task is stored under (tenant and principal by default).
    pub owner: Owner,
    /// The extension URIs the client asked for (`A2A-Extensions`).
    pub extensions: Vec<String>,
    /// The output media types the client accepts (empty: any).
    pub accepted_output_modes: Vec<String>,
    /// The request's `metadata`.
    pub metadata: Option<Struct>,
    /// Where this run stands in the caller's distributed trace: the
    /// executor's span with a tracer
    /// ([`HandlerBuilder::tracer`](crate::HandlerBuilder::tracer)), else
    /// the call's. Put it in the
    /// [`CallContext`](a2a_transport::CallContext) of a call this agent
    /// makes to another, so that call joins the trace.
    pub trace: Option<TraceContext>,
}

impl RequestContext {
    /// The text of the message's text parts, joined by newlines.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .message
            .parts
            .iter()
            .filter_map(|p| match &p.content {
                a2a_types::PartContent::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        texts.join("\n")
    }
}
