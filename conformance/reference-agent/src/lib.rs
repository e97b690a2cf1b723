//! The a2a-core reference agent: an in-memory [`A2aService`] that honours
//! every server-side requirement of A2A v1.0 sections 3 and 13, driven by
//! the message it receives so that tests from outside can steer it.
//!
//! It is what a host builds with the agent kit (`a2a-agent`): its whole
//! logic is one [`AgentExecutor`](a2a_agent::AgentExecutor),
//! [`ReferenceExecutor`], and the kit's [`AgentHandler`](a2a_agent::AgentHandler)
//! carries the task lifecycle on an [`InMemoryTaskStore`](a2a_agent::InMemoryTaskStore)
//! with tokio as its runtime. The conformance runner embeds it as its
//! default target.
//!
//! # What it owns, what it does not
//!
//! This crate owns the behaviour contract below (`behaviour.rs` decides,
//! `executor.rs` carries out), the card, its configuration and the binary.
//! The kit owns the tasks, their streams, push delivery with retries and
//! owner scoping; the store owns the bounds. It does not parse HTTP,
//! authenticate callers or negotiate versions: a binding does that and
//! hands it a [`CallContext`] whose `principal` and `tenant` it trusts.
//! Webhooks are reached through a [`PushSender`] the host supplies
//! ([`HttpPushSender`] on hyper, [`RecordingPushSender`] in memory).
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//! use a2a_reference_agent::{AgentConfig, RecordingPushSender, ReferenceAgent};
//! use a2a_transport::{A2aService, CallContext};
//! use a2a_types::{Message, SendMessageRequest, SendMessageResponse, TaskState};
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let agent = ReferenceAgent::new(AgentConfig::default(), Arc::new(RecordingPushSender::new()));
//! let cx = CallContext::new();
//! let request = SendMessageRequest::new(Message::user_text("m-1", "echo hello"));
//! let SendMessageResponse::Task(task) = agent.send_message(&cx, request).await? else {
//!     unreachable!("echo creates a task")
//! };
//! assert_eq!(task.status.state, TaskState::Completed);
//! assert_eq!(task.artifacts[0].text_content().as_deref(), Some("hello"));
//! # Ok::<(), a2a_types::A2aError>(())
//! # }).unwrap();
//! ```
//!
//! # The behaviour contract
//!
//! A message that starts a task is read by its `messageId` first, then by
//! its first text part (the command is the first word, case-sensitive;
//! the argument is the rest, trimmed).
//!
//! | first text part | what happens |
//! | --- | --- |
//! | `echo <x>` | WORKING, an artifact `echo` holding `<x>`, COMPLETED |
//! | `stream <n> [ms]` | WORKING, `n` chunks (`chunk <i> `) of one artifact `stream` (`append` after the first, `lastChunk` on the last), `ms` apart (default 0), COMPLETED. Bare `stream` is 3 chunks |
//! | `input` | INPUT_REQUIRED, status message "need input" |
//! | `auth` | AUTH_REQUIRED, a status message saying what is needed (spec 7.6.1) |
//! | `slow [ms]` | WORKING for `ms` (default 2000) in small steps, then an artifact `slow` and COMPLETED; a cancel stops it at the next step |
//! | `fail` | WORKING, then FAILED with a status message |
//! | `reject` | REJECTED with a status message |
//! | `message <x>` | a direct `Message` holding `<x>`, no task |
//! | anything else | an echo task of the whole text |
//!
//! A message without a text part is read by its first data part, as
//! compact JSON text (so a data part is echoed as its JSON); the card
//! declares `text/plain` and `application/json` input for that reason.
//!
//! `stream` with `n` outside `1..=max_stream_chunks`, or a delay that is
//! not a number of milliseconds up to `max_delay` ([`Limits`]), answers
//! `InvalidParamsError` naming `message.parts[i].text`.
//!
//! A `messageId` starting with one of these prefixes chooses the
//! behaviour instead, whatever the text (the longest prefix wins:
//! `tck-artifact-file-url` is not `tck-artifact-file`):
//!
//! | `messageId` prefix | what happens |
//! | --- | --- |
//! | `tck-complete-task` | COMPLETED with the agent status message "Hello from TCK" |
//! | `tck-artifact-text` | a text artifact "Generated text content", COMPLETED |
//! | `tck-artifact-file-url` | an artifact with a url part `https://example.com/output.txt` (`output.txt`, `text/plain`), COMPLETED |
//! | `tck-artifact-file` | an artifact with a raw part `tck` (`output.txt`, `text/plain`), COMPLETED |
//! | `tck-artifact-data` | an artifact with the data part `{"key":"value","count":42}`, COMPLETED |
//! | `tck-message-response` | a direct `Message` "Direct message response" |
//! | `tck-input-required` | INPUT_REQUIRED |
//! | `tck-auth-required` | AUTH_REQUIRED |
//! | `tck-reject-task` | REJECTED |
//! | `tck-task-failure` | FAILED |
//! | `tck-stream-002` | COMPLETED at once |
//! | `tck-stream-001`, `tck-stream-003`, `tck-stream-ordering-001`, `tck-stream-artifact-text` | WORKING, one text artifact, COMPLETED |
//! | `tck-stream-artifact-file` | WORKING, one file artifact, COMPLETED |
//! | `tck-stream-artifact-chunked` | WORKING, "chunk-1 " then the last chunk "chunk-2" of one artifact, COMPLETED |
//! | `test-resubscribe-message-id` | WORKING for 4 s, COMPLETED |
//!
//! A message carrying a `taskId` continues that task (spec 3.4.3). It
//! lands in the task's context (a `contextId` that differs is
//! `InvalidParamsError`), joins the history, and:
//! - on an INPUT_REQUIRED or AUTH_REQUIRED task, resumes it: WORKING,
//!   then the `tck-*` scenario its `messageId` names if any, otherwise an
//!   artifact `answer` holding `got: <text>` and COMPLETED;
//! - on a SUBMITTED or WORKING task, is recorded and changes nothing else;
//! - on a terminal task, answers `UnsupportedOperationError`;
//! - on an unknown task (or another caller's), `TaskNotFoundError`.
//!
//! ## Fire and forget (the 0.3 TCK's contract)
//!
//! With `--fire-and-forget` ([`AgentConfig::fire_and_forget`]) the agent
//! follows the contract the official TCK's `0.3.x` branch expects of its
//! system under test (the a2a-java TCK agent's) instead of the tables
//! above, so that continuation, history and cancel tests meet a task that
//! is still running:
//!
//! | message | what happens |
//! | --- | --- |
//! | any new message | SUBMITTED with the message in its history, then WORKING, and nothing more |
//! | `messageId` starting `test-resubscribe-message-id` | the same, 3 s later |
//! | a message to its WORKING task | joins the history; the task stays WORKING |
//! | `CancelTask` | CANCELED (a second cancel answers it again: spec 3.3.1) |
//!
//! A blocking `SendMessage` answers the WORKING task at once
//! (`HandlerConfig::max_blocking_wait` of zero; 0.3's `blocking` lets a
//! server decline to wait on long-running work, 1.0's spec 3.2.2 asks it
//! to wait, so this contract is for 0.3 runs). Streams stay open until the
//! task is canceled or expires ([`Limits::task_ttl`]).
//!
//! # The protocol rules it follows
//!
//! - **Ids** (3.4): task, context, message and artifact ids are
//!   server-generated ([`IdGenerator`]); a client `contextId` is kept, and
//!   so is a client's push config `id` (3.1.7).
//!   Every task goes SUBMITTED first; every status carries a timestamp
//!   (millisecond precision, never decreasing within a task).
//! - **Blocking** (3.2.2): `SendMessage` waits for a terminal or
//!   interrupted state unless `returnImmediately`, in which case it
//!   answers the task as created (SUBMITTED) or resumed (WORKING).
//! - **`historyLength`** (3.2.4) in `SendMessage`, `SendStreamingMessage`
//!   (the first `Task` of the stream), `GetTask` and `ListTasks`: unset
//!   is the whole (bounded) history, 0 none (the field is omitted), `n`
//!   the `n` latest, negative `InvalidParamsError`. The history holds
//!   the client's messages and the agent's status messages, the way
//!   [`a2a_types::apply`] rebuilds it from a stream.
//! - **`ListTasks`** (3.1.4): filters `contextId`, `status`,
//!   `statusTimestampAfter` (at or after); newest status timestamp
//!   first, ties by task id descending; `pageSize` 1 to 100 (50 when
//!   unset), anything else `InvalidParamsError` saying the bounds;
//!   artifacts only with `includeArtifacts`; `nextPageToken` always set,
//!   `""` on the last page; `totalSize` counts every match. The page token
//!   is URL-safe base64 of `v1:<seconds>:<nanos>:<task id>`, the last
//!   task of the page: the next page starts strictly after it, so paging
//!   while tasks change never repeats a task and never skips one that did
//!   not change.
//! - **`CancelTask`** (3.1.5, 3.3.1): cancels any non-terminal task;
//!   again on a canceled task, answers the task unchanged (idempotent);
//!   on another terminal task, `TaskNotCancelableError`.
//! - **Streams** (3.1.2, 3.1.6, 3.5.2): a task stream starts with the
//!   `Task`, then its status and artifact updates in the order they
//!   happened, and closes after the event that makes the task terminal or
//!   interrupted; a reply stream is exactly one `Message`. Any number of
//!   subscribers may follow one task: each gets the same events in the
//!   same order from the task's event log, and dropping one affects no
//!   other. `SubscribeToTask` on a terminal task is
//!   `UnsupportedOperationError`; on any other, interrupted ones included,
//!   it follows the task until it is terminal (3.1.6), so a subscriber of
//!   an input-required task sees the answer resume it and finish. A
//!   subscriber that falls more than `max_events_per_task` events behind
//!   receives a fresh `Task` snapshot and goes on from there. An evicted
//!   task ends its streams with `TaskNotFoundError`.
//! - **Event ids and `Last-Event-ID`** (3.1.6): every item of a task
//!   stream carries an SSE id, its position in the task's event log (the
//!   number of the task's events it accounts for), so ids increase within
//!   a stream and across the streams of one task. `SubscribeToTask` with
//!   `Last-Event-ID` replays the events after that position when the
//!   bounded log still holds them all (and there is at least one), without
//!   a `Task` first: the client had it. Otherwise (the log moved on, an id
//!   this agent did not write, nothing missed) the stream starts with the
//!   `Task` as usual.
//! - **Push notifications** (3.1.7-3.1.10, 4.3, 13.2): a config keeps
//!   the `id` the client gave it and gets a server-generated one when it
//!   has none (as the official SDKs do); creating a config with the id of
//!   one the task has replaces it (the old webhook gets nothing more; the
//!   replacement does not count against the limit). Configs may be given
//!   inline in `SendMessage` (the
//!   webhook then receives the `Task` first), and deleting one is
//!   idempotent (an unknown config id is not an error; an unknown task
//!   is). Each webhook receives every later event as a `StreamResponse`
//!   POSTed as `application/a2a+json`, in order, with
//!   `Authorization: <scheme> <credentials>` and
//!   `X-A2A-Notification-Token: <token>`; retries follow [`PushPolicy`].
//!   Webhook URLs are checked with [`a2a_transport::webhook::check_webhook_url`]
//!   against [`AgentConfig::push_allowlist`] when a config is created
//!   (`InvalidParamsError` naming `url`); the [`PushSender`] checks the
//!   address it connects to.
//! - **Scoping** (13.1): a task belongs to the tenant and principal of the
//!   call that created it; a call from any other scope finds no such task
//!   (`TaskNotFoundError`, as for a missing task), and `ListTasks` lists
//!   only the caller's tasks.
//! - **Extended card** (3.1.11, 13.3): declared when
//!   [`AgentConfig::bearer_scheme`] is set; answered only to calls with a
//!   principal (else `UnauthenticatedError`), with one more skill.
//! - **Capabilities** (3.3.4): with `streaming` or `push_notifications`
//!   turned off in [`AgentConfig`], the corresponding operations answer
//!   `UnsupportedOperationError` or `PushNotificationNotSupportedError`.
//! - **Validation** (3.3.2): every request's REQUIRED fields are checked
//!   ([`a2a_types::Validate`]) before anything else happens.
//!
//! # Bounded memory
//!
//! See [`Limits`]: at most `max_tasks` tasks (default 10 000), each
//! evicted at the latest `task_ttl` (default an hour) after its creation,
//! the oldest first (3.4.1 lets agents expire contexts and asks them to
//! say so: this is that policy); per task at most `max_history` messages,
//! `max_events_per_task` logged events (kept while the task goes on, for
//! resubscriptions, and after it finishes only while someone reads them), `max_push_configs_per_task`
//! webhooks, each at most `max_push_queue` events behind its task (the
//! oldest undelivered are skipped first); `stream` and `slow` arguments are
//! bounded too. Requests themselves are bounded by the binding.
//!
//! # Decisions a reviewer may question
//!
//! - **Ids are counters, not random.** `task-<run>-<counter>`: unique,
//!   cheap, sortable. Access is decided by scope, never by secrecy of ids.
//! - **Eviction is by creation order**, not by last use: O(1) per task
//!   and predictable; a task parked in INPUT_REQUIRED for longer than the
//!   TTL is gone, as a context expiry policy allows.
//! - **Fan-out is a log, not a channel per subscriber.** Events are kept
//!   in one bounded ring per task and announced on the store's watch;
//!   subscribers and webhooks read the ring at their own pace, so a slow
//!   reader costs no memory beyond the ring and cannot slow the task down.
//!   A finished task keeps its events only while someone reads them.
//! - **`SendStreamingMessage` streams close on interrupted states**
//!   (issue 6, spec 11.7): the task will not move until the client
//!   answers, and the answer opens a new stream. **`SubscribeToTask`
//!   streams do not** (issue 14): 3.1.6 has them end at a terminal state
//!   only, which is what a subscriber waiting for the outcome needs.
//! - **A resumed stream starts with the missed events, not the `Task`**:
//!   3.1.6 asks for the `Task` first so that nothing is lost between
//!   `GetTask` and the subscription; a client resuming with
//!   `Last-Event-ID` lost nothing, and a `Task` would repeat what it has.
//! - **A second cancel succeeds** on a canceled task: 3.3.1 says cancel
//!   is idempotent; other terminal states are not cancelable (3.1.5).

mod agent;
mod behaviour;
mod card;
pub mod cli;
mod config;
mod executor;
pub mod jwt;
mod metrics;
mod push;

pub use a2a_agent::IdGenerator;
pub use a2a_hyper::{HttpPushSender, Resolver};
pub use agent::{ReferenceAgent, SWEEP_INTERVAL};
pub use card::v0_3_interfaces;
#[cfg(feature = "draft-1-1")]
pub use card::v1_1_interfaces;
pub use config::{AgentConfig, Limits, PushPolicy};
pub use executor::ReferenceExecutor;
pub use metrics::{InstantClock, METRICS_PATH};
pub use push::{
    is_retryable, push_request, DeliveryOutcome, PushError, PushObserver, PushSender,
    RecordingPushSender, A2A_JSON, NOTIFICATION_TOKEN_HEADER,
};

#[doc(no_inline)]
pub use a2a_transport::{A2aService, CallContext};
