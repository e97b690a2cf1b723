//! Serve an A2A agent by writing one `execute` function: the task
//! lifecycle of A2A v1.0 as a library, on a store and a runtime the host
//! supplies.
//!
//! ```text
//!   A2aServer (a2a-transport: bindings, pipeline, auth, gates)
//!        │  A2aService
//!   AgentHandler ── the protocol's task rules: blocking, history, continuation,
//!        │          listing, subscriptions, cancel, push configs, owners
//!        ├── AgentExecutor::execute(context, updater)   ← the agent's logic
//!        ├── TaskStore (InMemoryTaskStore, or a durable one)
//!        ├── PushSender (the host's HTTP client)
//!        └── Runtime = Spawn + Clock (the host's executor and time)
//! ```
//!
//! Like the core crates, this one never opens a socket, starts a thread or
//! reads the clock: the host lends it a [`Runtime`] (tokio's is
//! `a2a_hyper::TokioRuntime`).
//!
//! # An agent
//!
//! ```
//! use a2a_agent::{AgentExecutor, AgentHandler, Execution, InMemoryTaskStore, RequestContext, TaskUpdater};
//!
//! struct Shout;
//!
//! impl AgentExecutor for Shout {
//!     fn execute<'a>(&'a self, cx: RequestContext, task: TaskUpdater) -> Execution<'a> {
//!         Box::pin(async move {
//!             task.start_work().await?;
//!             task.add_artifact(task.artifact("shout", cx.text().to_uppercase())).await?;
//!             task.complete().await?;
//!             Ok(())
//!         })
//!     }
//! }
//!
//! # fn serve<R: a2a_agent::Runtime>(runtime: R) {
//! let handler = AgentHandler::new(Shout, InMemoryTaskStore::default(), runtime);
//! // `handler` is an `A2aService`: hand it to `A2aServer` (a2a-transport)
//! // or `a2a_hyper::serve`.
//! # let _ = handler;
//! # }
//! ```
//!
//! # Where each rule lives
//!
//! - [`AgentHandler`] (`handler.rs`): every operation of spec 3.1 and its
//!   errors; which task a call may see ([`OwnerResolver`]).
//! - [`TaskUpdater`] (`updater.rs`): how a task moves; the first update
//!   creates it.
//! - [`TaskStore`] (`store/`): versions, the state machine, the event log
//!   and its positions, owner isolation, listing order; checked for any
//!   backend by [`contract::check`].
//! - `subscription.rs`: streams over the log and their SSE ids; `push.rs`:
//!   webhook delivery over the same log.
//!
//! # Budgets
//!
//! Running work is bounded: at most [`HandlerConfig::max_running_tasks`]
//! executor runs at once (default 256), and in the in-memory store
//! [`MemoryLimits::max_running_bytes`] (default 64 MiB) of what running
//! tasks gained and their logs keep. Stored tasks are bounded by
//! `max_tasks` and `max_store_bytes`, and per owner by
//! [`MemoryLimits::max_tasks_per_owner`] (2 500) and
//! [`MemoryLimits::max_bytes_per_owner`] (8 MiB); eviction never takes
//! another owner's unfinished task. A refusal is `RateLimitedError` with
//! a retry delay of one second.

#![deny(missing_docs)]

mod catch;
pub mod contract;
mod executor;
mod handler;
mod ids;
mod notify;
mod owner;
mod push;
mod runtime;
mod shared;
pub mod store;
mod subscription;
mod updater;

pub use executor::{AgentExecutor, ExecuteError, Execution, RequestContext};
pub use handler::{AgentHandler, HandlerBuilder, HandlerConfig};
pub use ids::IdGenerator;
pub use notify::{Signal, SignalWatch};
pub use owner::{Owner, OwnerResolver, PrincipalAndTenant};
pub use push::{
    is_retryable, push_request, DeliveryOutcome, PushError, PushObserver, PushSender,
    RecordingPushSender, A2A_JSON, NOTIFICATION_TOKEN_HEADER,
};
pub use runtime::{Clock, Runtime, Spawn};
pub use store::{InMemoryTaskStore, MemoryLimits, TaskStore};
pub use updater::{TaskUpdater, UpdateError};
