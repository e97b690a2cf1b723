//! The one trait every way of reaching an agent implements (DESIGN.md,
//! "The one trait"), and the context each call carries.

use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use a2a_types::{A2aError, A2aRequest, Operation, Reply};
use http::{HeaderMap, HeaderName};

use crate::trace::TraceContext;
use crate::version::ProtocolVersion;

/// A boxed, `Send` future: what every [`A2aService`] method returns, so the
/// trait is usable as `dyn A2aService`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub use a2a_types::EventStream;

/// Who made a call, as established by authentication (spec 7.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Principal {
    /// A stable identifier of the caller (a user or client id), used to
    /// scope tasks and push configs to their owner (spec 13.1).
    pub id: String,
    /// The name of the security scheme that authenticated it, as the agent
    /// card's `securitySchemes` names it.
    pub scheme: String,
    /// The scopes its credentials grant (an OAuth 2.0 token's `scope`),
    /// matched against the scopes the card's `securityRequirements` name
    /// (spec 4.4.1). Empty for schemes without scopes.
    pub scopes: BTreeSet<String>,
}

impl Principal {
    /// A principal `id` authenticated by `scheme`, with no scopes.
    pub fn new(id: impl Into<String>, scheme: impl Into<String>) -> Principal {
        Principal {
            id: id.into(),
            scheme: scheme.into(),
            scopes: BTreeSet::new(),
        }
    }

    /// The same principal granted `scopes`.
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Principal {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }
}

/// The SSE `Last-Event-ID` request header (HTML, "Server-sent events",
/// 9.2.4): the id of the last event a reconnecting client received.
pub const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

/// The SSE event ids of one streaming call: how a handler names the
/// events of its stream, so that a client reconnecting with
/// `Last-Event-ID` can be told where it left off (spec 3.1.6).
///
/// The server puts a fresh one in every call's [`CallContext`]
/// ([`CallContext::event_ids`]). A handler whose stream can resume clones
/// it into the stream and, each time the stream yields an item, first
/// [`label`](EventIds::label)s it; the server's SSE encoder takes the
/// label right after the item is polled and writes it as the frame's
/// `id:` line. Ids are the handler's: it decides what they mean and must
/// keep them increasing within a stream.
///
/// A stream that labels nothing gets the encoder's own ids, the frame's
/// position in its stream (`1`, `2`, ...). Once a stream has labelled an
/// item, an unlabelled item gets no `id:` line, so the client's last event
/// ID stays the previous label. Error frames carry no id. A wrapper that
/// buffers or reorders a stream between the handler and the server loses
/// the labels' positions (the encoder reads the label at each poll).
///
/// ```
/// use a2a_wire::EventIds;
///
/// let ids = EventIds::new();
/// assert!(ids.label("7"));
/// assert!(!ids.label("two\nlines"), "an id SSE cannot carry");
/// assert!(!ids.label(&"x".repeat(EventIds::MAX_LEN + 1)), "over the limit");
/// ```
#[derive(Debug, Clone, Default)]
pub struct EventIds {
    next: Arc<Mutex<Option<String>>>,
}

impl EventIds {
    /// The longest id a label may have, in bytes (256). A client sends the
    /// id back as a header, so it is kept well below header limits.
    pub const MAX_LEN: usize = 256;

    /// A handle with no label.
    pub fn new() -> EventIds {
        EventIds::default()
    }

    /// Labels the item the stream is about to yield with `id`, replacing
    /// an earlier label nobody took. Answers `false`, and labels nothing,
    /// when `id` is longer than [`MAX_LEN`](Self::MAX_LEN) or holds CR, LF
    /// or NUL, which an SSE `id:` line cannot carry.
    pub fn label(&self, id: &str) -> bool {
        if id.len() > Self::MAX_LEN || id.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0)) {
            return false;
        }
        *self.lock() = Some(id.to_owned());
        true
    }

    /// Takes the current label, leaving none: what the encoder calls after
    /// each item.
    pub fn take(&self) -> Option<String> {
        self.lock().take()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        // A label is one value, never half written: a poisoned lock is
        // still consistent.
        self.next.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a call carries besides its request message: the service
/// parameters (spec 3.2.6), the tenant, the caller and the raw headers.
///
/// On the server the binding fills it from the HTTP request; on the client
/// a transport reads it to build the HTTP request (version, extensions and
/// extra headers such as `Authorization`).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CallContext {
    /// The negotiated `A2A-Version` (spec 3.6).
    pub version: ProtocolVersion,
    /// Extension URIs the client asked to use (`A2A-Extensions`, spec 3.2.6).
    pub extensions: Vec<String>,
    /// The tenant from the HTTP+JSON path prefix or the request's `tenant`
    /// field, when there is one (proto `tenant` fields, multi-tenancy.md).
    pub tenant: Option<String>,
    /// The authenticated caller; `None` for anonymous calls.
    pub principal: Option<Principal>,
    /// The request headers (server), or extra headers to send (client).
    /// `Last-Event-ID` travels here too ([`last_event_id`](Self::last_event_id)).
    pub headers: HeaderMap,
    /// Where a streaming handler labels its events with SSE ids (see
    /// [`EventIds`]); the server makes a fresh one for every call. A clone
    /// of the context shares it.
    pub event_ids: EventIds,
    /// How long the caller gives the call, from when the request arrived
    /// (server: gRPC's `grpc-timeout`, spec 10); `None` when it did not
    /// say. The core reads no clock: the host's handler enforces it, for
    /// example by racing its work against a timer and answering a
    /// timeout error.
    pub timeout: Option<std::time::Duration>,
    /// Where the call stands in a distributed trace (W3C Trace Context,
    /// [`crate::trace`]). Server: the server's span of the call when a
    /// tracer is configured, else the caller's `traceparent`; the
    /// handler parents its own spans and its onward calls on it. Client:
    /// written as `traceparent` and `tracestate` on the call (replacing
    /// any in [`headers`](Self::headers)).
    pub trace: Option<TraceContext>,
}

impl CallContext {
    /// An anonymous A2A 1.0 call with no extensions, tenant or headers.
    pub fn new() -> CallContext {
        CallContext {
            version: ProtocolVersion::V1_0,
            extensions: Vec::new(),
            tenant: None,
            principal: None,
            headers: HeaderMap::new(),
            event_ids: EventIds::new(),
            timeout: None,
            trace: None,
        }
    }

    /// The `Last-Event-ID` the client sent (SSE reconnection): the id of
    /// the last event it received on an earlier stream, which a handler of
    /// `SubscribeToTask` may use to resume after it (spec 3.1.6). `None`
    /// when the header is absent, empty, or not visible ASCII (no id this
    /// server writes is). A transport that is not HTTP passes it as
    /// `last-event-id` metadata.
    pub fn last_event_id(&self) -> Option<&str> {
        self.headers
            .get(LAST_EVENT_ID)
            .and_then(|v| v.to_str().ok())
            .filter(|id| !id.is_empty())
    }

    /// The same context with `Last-Event-ID: id` among its headers (for a
    /// client, or an in-process caller); an id a header cannot carry is
    /// left out.
    pub fn with_last_event_id(mut self, id: &str) -> CallContext {
        if let Ok(value) = http::HeaderValue::from_str(id) {
            self.headers.insert(LAST_EVENT_ID, value);
        }
        self
    }

    /// The same context for `principal`.
    pub fn with_principal(mut self, principal: Principal) -> CallContext {
        self.principal = Some(principal);
        self
    }

    /// The same context for `tenant`.
    pub fn with_tenant(mut self, tenant: impl Into<String>) -> CallContext {
        self.tenant = Some(tenant.into());
        self
    }

    /// The same context asking for `extensions`.
    pub fn with_extensions<I, S>(mut self, extensions: I) -> CallContext
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.extensions = extensions.into_iter().map(Into::into).collect();
        self
    }

    /// The same context with `headers`.
    pub fn with_headers(mut self, headers: HeaderMap) -> CallContext {
        self.headers = headers;
        self
    }

    /// The same context in the trace `trace` (see [`trace`](Self::trace)).
    pub fn with_trace(mut self, trace: TraceContext) -> CallContext {
        self.trace = Some(trace);
        self
    }

    /// The same context with `version`.
    pub fn with_version(mut self, version: ProtocolVersion) -> CallContext {
        self.version = version;
        self
    }
}

impl Default for CallContext {
    fn default() -> CallContext {
        CallContext::new()
    }
}

/// The trait's methods, with their defaults, from the operation table.
macro_rules! service_methods {
    ($(
        $name:ident {
            method: $method:ident, section: $section:literal, answer: $answer:ident,
            params: $params:ty,
            result: $result:ty,
            reply: $reply:ty,
            item: $item:ty,
            default: $default:ident,
            fields: { $($json:literal => $field:ident),* $(,)? },
            v0_3: [$($v03:literal)?],
        }
    )*) => {$(
        #[doc = concat!("`", stringify!($name), "` (spec ", $section, ").")]
        fn $method<'a>(
            &'a self,
            cx: &'a CallContext,
            request: $params,
        ) -> BoxFuture<'a, Result<$result, A2aError>> {
            default_body!($default, self, cx, request, $name)
        }
    )*};
}

/// The body of a default method. Most answer the error of an agent that
/// lacks the operation; `CancelTask` and `SubscribeToTask` first look the
/// task up with the agent's own `GetTask`, so that an unknown task is
/// `TaskNotFoundError` (spec 3.1.5, 3.1.6) and a task this agent cannot
/// cancel is `TaskNotCancelableError` (3.1.5): an agent that offers only
/// `SendMessage` and `GetTask` fails no MUST by omission.
macro_rules! default_body {
    (cancel, $self:ident, $cx:ident, $request:ident, $name:ident) => {
        Box::pin(async move {
            let task = lookup($self, $cx, &$request.tenant, &$request.id, Operation::$name).await?;
            Err(A2aError::task_not_cancelable(
                &$request.id,
                task.status.state.as_str_name(),
            ))
        })
    };
    (subscribe, $self:ident, $cx:ident, $request:ident, $name:ident) => {
        Box::pin(async move {
            let task = lookup($self, $cx, &$request.tenant, &$request.id, Operation::$name).await?;
            let state = task.status.state;
            if state.is_terminal() {
                return Err(A2aError::unsupported_operation(format!(
                    "task {} is in terminal state {state}; there is nothing to subscribe to (spec 3.1.6)",
                    $request.id
                )));
            }
            not_offered(Operation::$name).await
        })
    };
    ($default:ident, $self:ident, $cx:ident, $request:ident, $name:ident) => {{
        let _ = ($cx, $request);
        not_offered(Operation::$name)
    }};
}

/// The task `id` through the agent's `GetTask`, for the defaults of `op`:
/// an agent that lacks `GetTask` too answers that it lacks `op`.
async fn lookup<S: A2aService + ?Sized>(
    service: &S,
    cx: &CallContext,
    tenant: &str,
    id: &str,
    op: Operation,
) -> Result<a2a_types::Task, A2aError> {
    let request = a2a_types::GetTaskRequest {
        tenant: tenant.to_owned(),
        id: id.to_owned(),
        history_length: Some(0),
        ..Default::default()
    };
    match service.get_task(cx, request).await {
        Err(e) if e.kind() == a2a_types::ErrorKind::UnsupportedOperation => not_offered(op).await,
        other => other,
    }
}

/// The typed service of spec 3.1: one method per operation, for agent
/// authors. Server-side handlers implement it by doing the work; every
/// default answers the spec's error for an agent that does not offer the
/// operation: `UnsupportedOperationError`,
/// `PushNotificationNotSupportedError` for the four push-config operations
/// (spec 3.1.7-3.1.10), and `ExtendedAgentCardNotConfiguredError` for
/// [`get_extended_agent_card`](A2aService::get_extended_agent_card)
/// (spec 3.1.11).
///
/// Code that sits between a caller and an agent (a client transport, a
/// retrying or fault-injecting wrapper, a user's middleware) implements
/// [`Forward`] instead, one method for every operation, and is an
/// `A2aService` through it. Methods take `&self` and return boxed futures,
/// so the trait is object safe (`Arc<dyn A2aService>`).
pub trait A2aService: Send + Sync {
    a2a_types::operation_table!(service_methods);
}

/// The generic entry of spec 3.1: a typed request in, its reply out,
/// whatever the operation.
///
/// Wrappers implement this one method rather than eleven; every
/// `Forward` is an [`A2aService`] whose methods wrap their request into an
/// [`A2aRequest`] and unwrap the [`Reply`]. To reach an inner service,
/// call [`dispatch`]. A reply for another operation than the request's is
/// answered as `InternalError`.
///
/// ```
/// use a2a_wire::{dispatch, A2aService, BoxFuture, CallContext, Forward};
/// use a2a_types::{A2aError, A2aRequest, Reply};
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// /// Counts the calls that reach `inner`.
/// struct Counting<S> { inner: S, calls: AtomicUsize }
///
/// impl<S: A2aService> Forward for Counting<S> {
///     fn forward<'a>(&'a self, cx: &'a CallContext, request: A2aRequest)
///         -> BoxFuture<'a, Result<Reply, A2aError>> {
///         self.calls.fetch_add(1, Ordering::Relaxed);
///         dispatch(&self.inner, cx, request)
///     }
/// }
/// ```
pub trait Forward: Send + Sync {
    /// Answers `request`.
    fn forward<'a>(
        &'a self,
        cx: &'a CallContext,
        request: A2aRequest,
    ) -> BoxFuture<'a, Result<Reply, A2aError>>;
}

/// Every [`Forward`] is an [`A2aService`], and dispatch is the one place
/// where a typed request meets the trait: both from the operation table.
macro_rules! forwarding {
    ($(
        $name:ident {
            method: $method:ident, section: $section:literal, answer: $answer:ident,
            params: $params:ty,
            result: $result:ty,
            reply: $reply:ty,
            item: $item:ty,
            default: $default:ident,
            fields: { $($json:literal => $field:ident),* $(,)? },
            v0_3: [$($v03:literal)?],
        }
    )*) => {
        impl<F: Forward + ?Sized> A2aService for F {
            $(
                fn $method<'a>(
                    &'a self,
                    cx: &'a CallContext,
                    request: $params,
                ) -> BoxFuture<'a, Result<$result, A2aError>> {
                    Box::pin(async move {
                        match self.forward(cx, A2aRequest::$name(request)).await? {
                            Reply::$name(result) => Ok(result.into()),
                            other => Err(wrong_reply(Operation::$name, &other)),
                        }
                    })
                }
            )*
        }

        /// Invokes the method of `service` that `request` names: the single
        /// place where a typed request meets the trait.
        pub fn dispatch<'a, S: A2aService + ?Sized>(
            service: &'a S,
            cx: &'a CallContext,
            request: A2aRequest,
        ) -> BoxFuture<'a, Result<Reply, A2aError>> {
            match request {
                $(A2aRequest::$name(r) => {
                    let call = service.$method(cx, r);
                    Box::pin(async move { Ok(Reply::$name(call.await?.into())) })
                })*
            }
        }

        /// The answer of an agent that does not offer `op` (spec 3.1).
        fn not_offered<'a, T: Send + 'a>(op: Operation) -> BoxFuture<'a, Result<T, A2aError>> {
            let err = match op {
                $(Operation::$name => default_error!($default, op),)*
            };
            Box::pin(std::future::ready(Err(err)))
        }
    };
}

macro_rules! default_error {
    (unsupported, $op:ident) => {
        A2aError::unsupported_operation(format!("{} is not supported by this agent", $op))
    };
    (cancel, $op:ident) => {
        A2aError::unsupported_operation(format!("{} is not supported by this agent", $op))
    };
    (subscribe, $op:ident) => {
        A2aError::unsupported_operation(format!("{} is not supported by this agent", $op))
    };
    (push, $op:ident) => {
        A2aError::push_notification_not_supported()
    };
    (card, $op:ident) => {
        A2aError::from_kind(a2a_types::ErrorKind::ExtendedAgentCardNotConfigured)
    };
}

a2a_types::operation_table!(forwarding);

/// A reply for another operation than the one asked: a wrapper's bug,
/// answered rather than panicked on.
#[cold]
fn wrong_reply(asked: Operation, reply: &Reply) -> A2aError {
    A2aError::internal(format!(
        "{asked} was answered with a {} reply",
        reply.operation()
    ))
}

/// Pointers to a service are services, through [`dispatch`].
macro_rules! forward_pointers {
    ($($ty:ty),*) => {$(
        impl<S: A2aService + ?Sized> Forward for $ty {
            fn forward<'a>(
                &'a self,
                cx: &'a CallContext,
                request: A2aRequest,
            ) -> BoxFuture<'a, Result<Reply, A2aError>> {
                dispatch(&**self, cx, request)
            }
        }
    )*};
}

forward_pointers!(Arc<S>, Box<S>, &S);

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::{ErrorKind, GetTaskRequest, Task};
    use std::task::{Context, Poll, Waker};

    fn block_on<F: Future>(f: F) -> F::Output {
        let mut f = std::pin::pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    struct Nothing;
    impl A2aService for Nothing {}

    #[test]
    fn defaults_answer_the_spec_errors() {
        let cx = CallContext::new();
        let svc: Arc<dyn A2aService> = Arc::new(Nothing);
        let err = block_on(svc.get_task(&cx, GetTaskRequest::default())).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnsupportedOperation);
        assert!(err.message().contains("GetTask"));
        let err =
            block_on(svc.list_task_push_notification_configs(&cx, Default::default())).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PushNotificationNotSupported);
        let err = block_on(svc.get_extended_agent_card(&cx, Default::default())).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ExtendedAgentCardNotConfigured);
        let err = block_on(dispatch(
            &*svc,
            &cx,
            A2aRequest::SubscribeToTask(Default::default()),
        ))
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnsupportedOperation);
    }

    struct Tasks;
    impl A2aService for Tasks {
        fn get_task<'a>(
            &'a self,
            _: &'a CallContext,
            r: GetTaskRequest,
        ) -> BoxFuture<'a, Result<Task, A2aError>> {
            Box::pin(async move {
                Ok(Task {
                    id: r.id,
                    ..Default::default()
                })
            })
        }
    }

    /// An agent with SendMessage and GetTask only: one completed task
    /// `done`, one working task `busy`, nothing else.
    struct GetOnly;
    impl A2aService for GetOnly {
        fn get_task<'a>(
            &'a self,
            _: &'a CallContext,
            r: GetTaskRequest,
        ) -> BoxFuture<'a, Result<Task, A2aError>> {
            let state = match r.id.as_str() {
                "done" => Some(a2a_types::TaskState::Completed),
                "busy" => Some(a2a_types::TaskState::Working),
                _ => None,
            };
            Box::pin(async move {
                match state {
                    Some(state) => Ok(Task::new(&r.id, "c", state)),
                    None => Err(A2aError::task_not_found(&r.id)),
                }
            })
        }
    }

    #[test]
    fn cancel_and_subscribe_defaults_answer_what_3_1_5_and_3_1_6_require() {
        let cx = CallContext::new();
        let cancel = |id: &str| {
            block_on(GetOnly.cancel_task(&cx, a2a_types::CancelTaskRequest::new(id)))
                .unwrap_err()
                .kind()
        };
        assert_eq!(cancel("missing"), ErrorKind::TaskNotFound);
        assert_eq!(cancel("done"), ErrorKind::TaskNotCancelable);
        assert_eq!(cancel("busy"), ErrorKind::TaskNotCancelable);
        let subscribe = |id: &str| {
            let request = a2a_types::SubscribeToTaskRequest {
                id: id.to_owned(),
                ..Default::default()
            };
            match block_on(GetOnly.subscribe_to_task(&cx, request)) {
                Err(e) => (e.kind(), e.message().to_owned()),
                Ok(_) => panic!("the default has no stream"),
            }
        };
        assert_eq!(subscribe("missing").0, ErrorKind::TaskNotFound);
        let (kind, message) = subscribe("done");
        assert_eq!(kind, ErrorKind::UnsupportedOperation);
        assert!(message.contains("terminal"), "{message}");
        let (kind, message) = subscribe("busy");
        assert_eq!(kind, ErrorKind::UnsupportedOperation);
        assert!(message.contains("SubscribeToTask"), "{message}");
        // Without GetTask either, the agent lacks CancelTask.
        let err =
            block_on(Nothing.cancel_task(&cx, a2a_types::CancelTaskRequest::new("x"))).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnsupportedOperation);
        assert!(err.message().contains("CancelTask"), "{}", err.message());
    }

    #[test]
    fn event_ids_hold_one_label_until_taken() {
        let ids = EventIds::new();
        assert_eq!(ids.take(), None);
        assert!(ids.label("1"));
        assert!(ids.label("2"), "a later label replaces one nobody took");
        let shared = ids.clone();
        assert_eq!(shared.take().as_deref(), Some("2"), "clones share the slot");
        assert_eq!(ids.take(), None);
        for bad in ["a\rb", "a\nb", "a\0b"] {
            assert!(!ids.label(bad), "{bad:?}");
        }
        assert!(ids.label(&"x".repeat(EventIds::MAX_LEN)));
        assert!(!ids.label(&"x".repeat(EventIds::MAX_LEN + 1)));
        assert_eq!(ids.take().map(|s| s.len()), Some(EventIds::MAX_LEN));
    }

    #[test]
    fn last_event_id_is_read_from_the_headers() {
        assert_eq!(CallContext::new().last_event_id(), None);
        let cx = CallContext::new().with_last_event_id("41");
        assert_eq!(cx.last_event_id(), Some("41"));
        assert_eq!(
            CallContext::new().with_last_event_id("").last_event_id(),
            None
        );
        let mut headers = HeaderMap::new();
        headers.insert(
            LAST_EVENT_ID,
            http::HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap(),
        );
        assert_eq!(
            CallContext::new().with_headers(headers).last_event_id(),
            None,
            "not visible ASCII"
        );
    }

    #[test]
    fn dispatch_routes_to_the_named_method() {
        let cx = CallContext::new().with_tenant("acme");
        let req = A2aRequest::GetTask(GetTaskRequest {
            id: "t-9".into(),
            ..Default::default()
        });
        match block_on(dispatch(&Tasks, &cx, req)) {
            Ok(Reply::GetTask(t)) => assert_eq!(t.id, "t-9"),
            other => panic!("unexpected {other:?}"),
        }
    }
}
