//! Streams that survive a dropped connection (spec 3.1.6, 3.5.2), and
//! streaming calls that degrade to unary ones for agents that do not
//! stream (spec 3.3.4).
//!
//! [`ResilientTransport`] wraps an [`HttpTransport`] and implements
//! [`A2aService`] like it, changing only the two streaming operations:
//!
//! - **Resumption.** When a stream ends or its connection fails (a
//!   retryable [`ClientFailure`]: `Connection` or `Timeout`) before the
//!   task reached a terminal or interrupted state, the stream calls
//!   `SubscribeToTask` for the task and goes on with the new stream. The
//!   new stream starts with the task's current state (spec 3.1.6: "This
//!   prevents a potential loss of information"), so nothing is lost;
//!   events already seen may come again, folded in as the task snapshot.
//!   Each stream is followed with [`TaskSnapshot`] ([`ResilientStream::snapshot`]),
//!   which decides when the task is settled and which task to resubscribe.
//! - **When to stop.** A stream is settled when it delivered a `Message`
//!   first (a message-only stream, spec 3.1.2) or when the task is
//!   terminal or interrupted (`input-required`, `auth-required`; spec
//!   11.7: the stream closes there); its end, or a failure after it, just
//!   ends the stream. A stream that failed before its first event names no
//!   task, so there is nothing to resume: its error is passed on (the
//!   message may or may not have been received; resending it is the
//!   caller's decision, not the transport's). Errors the agent sent
//!   (anything but a retryable client failure) are passed on and end the
//!   stream.
//! - **Attempts and delays** ([`RetryPolicy`]): at most
//!   [`max_attempts`](RetryPolicy::max_attempts) resubscriptions in a row
//!   without an event in between (the count starts again once a resumed
//!   stream delivers an event, so a long task behind a proxy that cuts
//!   connections every minute is followed to the end). Before each one the
//!   stream waits: the server's SSE `retry:` hint when it sent one, else
//!   [`initial_delay`](RetryPolicy::initial_delay), doubled at each
//!   consecutive attempt and capped at [`max_delay`](RetryPolicy::max_delay).
//!   When the attempts run out the stream ends with a
//!   [`ClientFailure::StreamIncomplete`] error naming the last failure.
//! - **`Last-Event-ID`**: the last event ID the server sent is sent back
//!   on the resubscription (SSE reconnection). A server may ignore it,
//!   which is safe since the first event is then the whole task; one that
//!   honours it (an a2a-core server whose handler labels its events, like
//!   the reference agent) sends the missed events instead, which the
//!   snapshot folds in the same way.
//! - **A task that finished while disconnected**: `SubscribeToTask` answers
//!   `UnsupportedOperationError` for a terminal task (spec 3.1.6); the
//!   stream then fetches the task once with `GetTask` and ends with it as
//!   its last event.
//! - **Time.** The core has no clock (STYLE.md): the host supplies a
//!   [`Timer`], a function from a duration to a future that completes after
//!   it (`tokio::time::sleep`, a browser timer, or an immediate future in
//!   tests).
//! - **Degradation.** Built [`with_card`](ResilientTransport::with_card)
//!   from a card whose `capabilities.streaming` is not `true`,
//!   `SendStreamingMessage` becomes one `SendMessage` (with the caller's
//!   configuration) and `SubscribeToTask` one `GetTask`, each answered as a
//!   stream of the one resulting event (the task, or the direct message).
//!   Nothing is resumed in that mode: there is no stream to resume.

use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_types::{
    A2aError, A2aRequest, AgentCard, ErrorKind, GetTaskRequest, Reply, SendMessageRequest,
    SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task, TaskSnapshot,
};
use futures_core::Stream;
use http::HeaderValue;

use crate::client_error::invalid_response;
use crate::client_error::ClientFailure;
use crate::client_stream::SseStream;
use crate::http_transport::HttpTransport;
use a2a_wire::HttpClient;
use a2a_wire::Timer;
use a2a_wire::{A2aService, BoxFuture, CallContext, EventStream, Forward, LAST_EVENT_ID};

/// How often and how soon a dropped stream is resubscribed (see the module
/// documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Resubscriptions in a row without an event in between. Default: 5;
    /// 0 never resubscribes.
    pub max_attempts: u32,
    /// The wait before the first resubscription when the server sent no
    /// `retry:` hint. Default: 1 s.
    pub initial_delay: Duration,
    /// The longest wait, whatever the hint or the doubling. Default: 30 s.
    pub max_delay: Duration,
}

impl RetryPolicy {
    /// The defaults: 5 attempts, 1 s doubling up to 30 s.
    pub const DEFAULT: RetryPolicy = RetryPolicy {
        max_attempts: 5,
        initial_delay: Duration::from_secs(1),
        max_delay: Duration::from_secs(30),
    };

    /// Never resubscribe.
    pub const NEVER: RetryPolicy = RetryPolicy {
        max_attempts: 0,
        ..RetryPolicy::DEFAULT
    };

    /// The defaults.
    pub const fn new() -> RetryPolicy {
        RetryPolicy::DEFAULT
    }

    /// Sets [`max_attempts`](Self::max_attempts).
    pub const fn with_max_attempts(mut self, attempts: u32) -> RetryPolicy {
        self.max_attempts = attempts;
        self
    }

    /// Sets [`initial_delay`](Self::initial_delay).
    pub const fn with_initial_delay(mut self, delay: Duration) -> RetryPolicy {
        self.initial_delay = delay;
        self
    }

    /// Sets [`max_delay`](Self::max_delay).
    pub const fn with_max_delay(mut self, delay: Duration) -> RetryPolicy {
        self.max_delay = delay;
        self
    }

    /// The wait before consecutive attempt number `attempt` (from 1): the
    /// `hint` (the server's `retry:`) or the initial delay, doubled for
    /// every earlier attempt of the run, capped at the maximum.
    ///
    /// ```
    /// use std::time::Duration;
    /// use a2a_client::RetryPolicy;
    ///
    /// let p = RetryPolicy::new();
    /// assert_eq!(p.delay(1, None), Duration::from_secs(1));
    /// assert_eq!(p.delay(3, None), Duration::from_secs(4));
    /// assert_eq!(p.delay(1, Some(Duration::from_millis(250))), Duration::from_millis(250));
    /// assert_eq!(p.delay(40, None), Duration::from_secs(30));
    /// ```
    pub fn delay(&self, attempt: u32, hint: Option<Duration>) -> Duration {
        let base = hint.unwrap_or(self.initial_delay);
        let factor = 1u32
            .checked_shl(attempt.saturating_sub(1))
            .unwrap_or(u32::MAX);
        base.checked_mul(factor)
            .unwrap_or(self.max_delay)
            .min(self.max_delay)
    }
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy::DEFAULT
    }
}

/// What a resilient stream calls to resume: the transport, type-erased so
/// that [`ResilientStream`] is one type whatever the host's client.
trait Reconnect: Send + Sync {
    fn subscribe(
        &self,
        cx: CallContext,
        request: SubscribeToTaskRequest,
    ) -> BoxFuture<'static, Result<SseStream, A2aError>>;

    fn get_task(
        &self,
        cx: CallContext,
        request: GetTaskRequest,
    ) -> BoxFuture<'static, Result<Task, A2aError>>;
}

struct Handle<C>(Arc<HttpTransport<C>>);

impl<C: HttpClient + 'static> Reconnect for Handle<C> {
    fn subscribe(
        &self,
        cx: CallContext,
        request: SubscribeToTaskRequest,
    ) -> BoxFuture<'static, Result<SseStream, A2aError>> {
        let transport = Arc::clone(&self.0);
        Box::pin(async move { transport.stream_task(&cx, request).await })
    }

    fn get_task(
        &self,
        cx: CallContext,
        request: GetTaskRequest,
    ) -> BoxFuture<'static, Result<Task, A2aError>> {
        let transport = Arc::clone(&self.0);
        Box::pin(async move { transport.get_task(&cx, request).await })
    }
}

/// An [`HttpTransport`] whose streams resume after a dropped connection
/// and degrade to unary calls for agents that do not stream (see the
/// module documentation).
///
/// ```
/// use std::time::Duration;
/// use a2a_client::{Binding, BoxFuture, HttpClient, HttpError, HttpTransport, ResilientTransport, ResponseBody, RetryPolicy};
/// # struct Host;
/// # impl HttpClient for Host {
/// #     fn send(&self, _: http::Request<bytes::Bytes>)
/// #         -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>>
/// #     { Box::pin(async { Err(HttpError::Other("offline".into())) }) }
/// # }
/// let transport = HttpTransport::new(Host, Binding::JsonRpc, "https://agent.example/rpc")?;
/// let timer = |d: Duration| -> BoxFuture<'static, ()> { Box::pin(async move { let _ = d; }) };
/// let client = ResilientTransport::new(transport, timer)
///     .with_policy(RetryPolicy::new().with_max_attempts(3));
/// assert!(client.streams());
/// # Ok::<(), a2a_client::InterfaceUrlError>(())
/// ```
pub struct ResilientTransport<C> {
    transport: Arc<HttpTransport<C>>,
    timer: Arc<dyn Timer>,
    policy: RetryPolicy,
    streaming: bool,
    /// How unary idempotent calls honour a refusal's `Retry-After`.
    retry_after: RetryPolicy,
}

impl<C> fmt::Debug for ResilientTransport<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResilientTransport")
            .field("transport", &self.transport)
            .field("policy", &self.policy)
            .field("streaming", &self.streaming)
            .field("retry_after", &self.retry_after)
            .finish_non_exhaustive()
    }
}

impl<C: HttpClient + 'static> ResilientTransport<C> {
    /// Wraps `transport`, waiting with `timer` between attempts, with the
    /// default [`RetryPolicy`], for an agent assumed to stream.
    pub fn new(transport: HttpTransport<C>, timer: impl Timer + 'static) -> ResilientTransport<C> {
        ResilientTransport {
            transport: Arc::new(transport),
            timer: Arc::new(timer),
            policy: RetryPolicy::DEFAULT,
            streaming: true,
            retry_after: RetryPolicy::NEVER,
        }
    }

    /// The same transport sending an idempotent unary call
    /// ([`Operation::is_idempotent`](a2a_types::Operation::is_idempotent))
    /// again when the agent refuses it with a retry delay: a 429 or 503
    /// with `Retry-After`, or `RateLimitedError` / gRPC
    /// `RESOURCE_EXHAUSTED` or `UNAVAILABLE` with a `RetryInfo` (spec 3.3.2
    /// "System Errors"). At most `policy.max_attempts` retries, each after
    /// the agent's delay; a delay over `policy.max_delay` is not waited,
    /// the refusal is returned. Default [`RetryPolicy::NEVER`]: no retry.
    pub fn with_retry_after(mut self, policy: RetryPolicy) -> ResilientTransport<C> {
        self.retry_after = policy;
        self
    }

    /// The delay to wait before sending again a call refused with `error`,
    /// if it may be sent again.
    fn retry_wait(&self, error: &A2aError, attempt: u32) -> Option<Duration> {
        let delay = error.retry_delay()?;
        let refused = error.kind() == a2a_types::ErrorKind::RateLimited
            || matches!(error.received_status(), Some(429 | 503));
        (refused && attempt < self.retry_after.max_attempts && delay <= self.retry_after.max_delay)
            .then_some(delay)
    }

    /// The same transport with `policy`.
    pub fn with_policy(mut self, policy: RetryPolicy) -> ResilientTransport<C> {
        self.policy = policy;
        self
    }

    /// The same transport for the agent of `card`: streaming calls degrade
    /// to unary ones unless `capabilities.streaming` is `true` (spec 3.3.4).
    pub fn with_card(self, card: &AgentCard) -> ResilientTransport<C> {
        self.with_streaming(card.capabilities.streaming == Some(true))
    }

    /// The same transport for an agent that streams (`true`) or not.
    pub fn with_streaming(mut self, streaming: bool) -> ResilientTransport<C> {
        self.streaming = streaming;
        self
    }

    /// Whether streaming calls are sent as streams (else they degrade).
    pub fn streams(&self) -> bool {
        self.streaming
    }

    /// The retry policy.
    pub fn policy(&self) -> &RetryPolicy {
        &self.policy
    }

    /// The wrapped transport.
    pub fn transport(&self) -> &HttpTransport<C> {
        &self.transport
    }

    fn stream(&self, cx: &CallContext, state: State, task_id: Option<String>) -> ResilientStream {
        ResilientStream {
            state,
            reconnect: Arc::new(Handle(Arc::clone(&self.transport))),
            timer: Arc::clone(&self.timer),
            policy: self.policy,
            cx: cx.clone(),
            tenant: String::new(),
            task_id,
            snapshot: None,
            settled_by_message: false,
            attempts: 0,
            resumptions: 0,
            fresh: false,
            last_event_id: String::new(),
            retry_hint: None,
            last_failure: None,
        }
    }

    /// `SendStreamingMessage` (spec 3.1.2), resumed with `SubscribeToTask`
    /// if it drops, or one `SendMessage` when the agent does not stream.
    /// Errors opening the stream are answered as they are: the message was
    /// not necessarily received, and sending it again is not idempotent.
    pub fn stream_message<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<ResilientStream, A2aError>> {
        Box::pin(async move {
            let tenant = request.tenant.clone();
            let mut stream = if self.streaming {
                let first = self.transport.stream_message(cx, request).await?;
                self.stream(cx, State::Streaming(first), None)
            } else {
                let event = match self.transport.send_message(cx, request).await? {
                    SendMessageResponse::Task(t) => StreamResponse::Task(t),
                    SendMessageResponse::Message(m) => StreamResponse::Message(m),
                };
                self.stream(cx, State::Once(Some(event)), None)
            };
            stream.tenant = tenant;
            Ok(stream)
        })
    }

    /// `SubscribeToTask` (spec 3.1.6), resumed if it drops (a first
    /// attempt that fails with a retryable client failure is retried too:
    /// subscribing is idempotent), or one `GetTask` when the agent does not
    /// stream.
    pub fn stream_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SubscribeToTaskRequest,
    ) -> BoxFuture<'a, Result<ResilientStream, A2aError>> {
        Box::pin(async move {
            let tenant = request.tenant.clone();
            let id = request.id.clone();
            let mut stream = if self.streaming {
                match self.transport.stream_task(cx, request).await {
                    Ok(first) => self.stream(cx, State::Streaming(first), Some(id)),
                    Err(e) if is_retryable(&e) => {
                        // Retried like a dropped stream, within the policy.
                        let mut s = self.stream(cx, State::Done, Some(id));
                        if let Some(Some(Err(e))) = s.interrupted(Some(e)) {
                            return Err(e);
                        }
                        s
                    }
                    Err(e) => return Err(e),
                }
            } else {
                let get = GetTaskRequest {
                    tenant: tenant.clone(),
                    id: id.clone(),
                    history_length: None,
                    ..Default::default()
                };
                let task = self.transport.get_task(cx, get).await?;
                self.stream(cx, State::Once(Some(StreamResponse::Task(task))), Some(id))
            };
            stream.tenant = tenant;
            Ok(stream)
        })
    }
}

fn is_retryable(e: &A2aError) -> bool {
    ClientFailure::of(e).is_some_and(ClientFailure::is_retryable)
}

// Without the `grpc` feature an `SseStream` is much smaller than the event
// `Once` holds, which clippy would box; with it (the facade's build) the
// sizes are close, and the layout is kept the same for both.
#[cfg_attr(not(feature = "grpc"), allow(clippy::large_enum_variant))]
enum State {
    Streaming(SseStream),
    Waiting(BoxFuture<'static, ()>),
    Connecting(BoxFuture<'static, Result<SseStream, A2aError>>),
    Fetching(BoxFuture<'static, Result<Task, A2aError>>),
    Once(Option<StreamResponse>),
    Done,
}

/// The stream of a [`ResilientTransport`] call: the events of one or more
/// successive streams of the same task, with the task as reconstructed so
/// far (see the module documentation).
pub struct ResilientStream {
    state: State,
    reconnect: Arc<dyn Reconnect>,
    timer: Arc<dyn Timer>,
    policy: RetryPolicy,
    cx: CallContext,
    tenant: String,
    task_id: Option<String>,
    snapshot: Option<TaskSnapshot>,
    settled_by_message: bool,
    attempts: u32,
    resumptions: u32,
    /// The current stream is a resubscription that has delivered nothing yet.
    fresh: bool,
    last_event_id: String,
    retry_hint: Option<Duration>,
    last_failure: Option<A2aError>,
}

impl fmt::Debug for ResilientStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match &self.state {
            State::Streaming(_) => "streaming",
            State::Waiting(_) => "waiting",
            State::Connecting(_) => "connecting",
            State::Fetching(_) => "fetching",
            State::Once(_) => "once",
            State::Done => "done",
        };
        f.debug_struct("ResilientStream")
            .field("state", &state)
            .field("task_id", &self.task_id)
            .field("attempts", &self.attempts)
            .field("resumptions", &self.resumptions)
            .field("last_event_id", &self.last_event_id)
            .field("retry_hint", &self.retry_hint)
            .finish_non_exhaustive()
    }
}

impl ResilientStream {
    /// The task as reconstructed from every event so far (spec 3.1.6);
    /// `None` before the first task event, and for a message-only stream.
    pub fn snapshot(&self) -> Option<&TaskSnapshot> {
        self.snapshot.as_ref()
    }

    /// The task the stream follows, once known.
    pub fn task_id(&self) -> Option<&str> {
        self.task_id.as_deref()
    }

    /// How many times the stream was resubscribed successfully.
    pub fn resumptions(&self) -> u32 {
        self.resumptions
    }

    /// True once nothing more is expected: a message-only stream, or a
    /// task in a terminal or interrupted state.
    pub fn is_settled(&self) -> bool {
        self.settled_by_message
            || self.snapshot.as_ref().is_some_and(|s| {
                let state = s.task().status.state;
                state.is_terminal() || state.is_interrupted()
            })
    }

    /// Folds an event into the snapshot.
    fn track(&mut self, event: &StreamResponse) -> Result<(), A2aError> {
        if let Some(snapshot) = &mut self.snapshot {
            return snapshot
                .apply(event.clone())
                .map(drop)
                .map_err(|e| invalid_response(&e.to_string()));
        }
        let event_task = event.task_id().map(str::to_owned);
        if let (Some(expected), Some(found)) = (&self.task_id, &event_task) {
            if expected != found {
                return Err(invalid_response(&format!(
                    "the stream of task {expected:?} sent an event of task {found:?}"
                )));
            }
        }
        match event {
            StreamResponse::Task(task) => {
                self.snapshot = Some(TaskSnapshot::new(task.clone()));
            }
            StreamResponse::Message(_) if self.task_id.is_none() => {
                // A message-only stream (spec 3.1.2).
                self.settled_by_message = true;
                return Ok(());
            }
            _ => {
                // A stream that does not start with the task (not what spec
                // 3.1.2 asks, but the events still say which task): follow
                // it from a bare task.
                let Some(id) = event_task.clone().or_else(|| self.task_id.clone()) else {
                    return Err(invalid_response("a stream event names no task"));
                };
                let mut snapshot = TaskSnapshot::new(Task {
                    id,
                    ..Task::default()
                });
                snapshot
                    .apply(event.clone())
                    .map_err(|e| invalid_response(&e.to_string()))?;
                self.snapshot = Some(snapshot);
            }
        }
        if self.task_id.is_none() {
            self.task_id = event_task;
        }
        Ok(())
    }

    /// The context of a resubscription: the call's, with `Last-Event-ID`.
    fn resume_context(&self) -> CallContext {
        let mut cx = self.cx.clone();
        if let Ok(v) = HeaderValue::from_str(&self.last_event_id) {
            if !self.last_event_id.is_empty() {
                cx.headers.insert(LAST_EVENT_ID, v);
            }
        }
        cx
    }

    /// The current stream ended (`error: None`) or failed retryably.
    /// `Some(item)`: what to answer now; `None`: a retry was scheduled.
    fn interrupted(
        &mut self,
        error: Option<A2aError>,
    ) -> Option<Option<Result<StreamResponse, A2aError>>> {
        if self.is_settled() {
            self.state = State::Done;
            return Some(None);
        }
        let Some(task_id) = self.task_id.clone() else {
            self.state = State::Done;
            return Some(error.map(Err));
        };
        if error.is_some() {
            self.last_failure = error;
        }
        if self.attempts >= self.policy.max_attempts {
            self.state = State::Done;
            let why = match &self.last_failure {
                Some(e) => format!("; last failure: {}", e.message()),
                None => String::new(),
            };
            let err = ClientFailure::StreamIncomplete
                .error(format!(
                    "the stream of task {task_id} ended before the task settled; \
                     gave up after {} resubscription attempt(s){why}",
                    self.attempts
                ))
                .with_metadata("taskId", &task_id);
            return Some(Some(Err(err)));
        }
        self.attempts += 1;
        let delay = self.policy.delay(self.attempts, self.retry_hint);
        self.state = State::Waiting(self.timer.sleep(delay));
        None
    }

    fn task_request(&self) -> (String, String) {
        (
            self.tenant.clone(),
            self.task_id.clone().unwrap_or_default(),
        )
    }
}

impl Stream for ResilientStream {
    type Item = Result<StreamResponse, A2aError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            match &mut this.state {
                State::Done => return Poll::Ready(None),
                State::Once(event) => {
                    let event = event.take();
                    this.state = State::Done;
                    let Some(event) = event else {
                        return Poll::Ready(None);
                    };
                    return Poll::Ready(Some(this.track(&event).map(|()| event)));
                }
                State::Streaming(stream) => {
                    let polled = Pin::new(&mut *stream).poll_next(cx);
                    if polled.is_ready() {
                        if !stream.last_event_id().is_empty() {
                            stream.last_event_id().clone_into(&mut this.last_event_id);
                        }
                        if let Some(retry) = stream.retry() {
                            this.retry_hint = Some(retry);
                        }
                    }
                    match polled {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(Some(Ok(event))) => {
                            if let Err(e) = this.track(&event) {
                                this.state = State::Done;
                                return Poll::Ready(Some(Err(e)));
                            }
                            if this.fresh {
                                this.fresh = false;
                                this.attempts = 0;
                            }
                            return Poll::Ready(Some(Ok(event)));
                        }
                        Poll::Ready(Some(Err(e))) if is_retryable(&e) => {
                            if let Some(item) = this.interrupted(Some(e)) {
                                return Poll::Ready(item);
                            }
                        }
                        Poll::Ready(Some(Err(e))) => {
                            this.state = State::Done;
                            return Poll::Ready(Some(Err(e)));
                        }
                        Poll::Ready(None) => {
                            if let Some(item) = this.interrupted(None) {
                                return Poll::Ready(item);
                            }
                        }
                    }
                }
                State::Waiting(sleep) => match sleep.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(()) => {
                        let (tenant, id) = this.task_request();
                        let request = SubscribeToTaskRequest { tenant, id };
                        this.state = State::Connecting(
                            this.reconnect.subscribe(this.resume_context(), request),
                        );
                    }
                },
                State::Connecting(connect) => match connect.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Ok(stream)) => {
                        this.resumptions += 1;
                        this.fresh = true;
                        this.state = State::Streaming(stream);
                    }
                    Poll::Ready(Err(e)) if is_retryable(&e) => {
                        if let Some(item) = this.interrupted(Some(e)) {
                            return Poll::Ready(item);
                        }
                    }
                    Poll::Ready(Err(e)) if e.kind() == ErrorKind::UnsupportedOperation => {
                        // The task settled while we were away (spec 3.1.6).
                        let (tenant, id) = this.task_request();
                        let request = GetTaskRequest {
                            tenant,
                            id,
                            history_length: None,
                            ..Default::default()
                        };
                        this.state =
                            State::Fetching(this.reconnect.get_task(this.cx.clone(), request));
                    }
                    Poll::Ready(Err(e)) => {
                        this.state = State::Done;
                        return Poll::Ready(Some(Err(e)));
                    }
                },
                State::Fetching(fetch) => match fetch.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(result) => {
                        this.state = State::Done;
                        let item = result.and_then(|task| {
                            let event = StreamResponse::Task(task);
                            this.track(&event).map(|()| event)
                        });
                        return Poll::Ready(Some(item));
                    }
                },
            }
        }
    }
}

/// Unary calls go to the inner transport as they are; the two streaming
/// calls become resumable [`ResilientStream`]s.
impl<C: HttpClient + 'static> Forward for ResilientTransport<C> {
    fn forward<'a>(
        &'a self,
        cx: &'a CallContext,
        request: A2aRequest,
    ) -> BoxFuture<'a, Result<Reply, A2aError>> {
        match request {
            A2aRequest::SendStreamingMessage(r) => Box::pin(async move {
                let events: EventStream = Box::pin(self.stream_message(cx, r).await?);
                Ok(Reply::SendStreamingMessage(events))
            }),
            A2aRequest::SubscribeToTask(r) => Box::pin(async move {
                let events: EventStream = Box::pin(self.stream_task(cx, r).await?);
                Ok(Reply::SubscribeToTask(events))
            }),
            unary if unary.operation().is_idempotent() && self.retry_after.max_attempts > 0 => {
                Box::pin(async move {
                    let mut attempt = 0;
                    loop {
                        match self.transport.forward(cx, unary.clone()).await {
                            Err(e) => match self.retry_wait(&e, attempt) {
                                Some(delay) => {
                                    attempt += 1;
                                    self.timer.sleep(delay).await;
                                }
                                None => return Err(e),
                            },
                            ok => return ok,
                        }
                    }
                })
            }
            unary => self.transport.forward(cx, unary),
        }
    }
}
