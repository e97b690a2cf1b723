//! The one trait every way of reaching an agent implements (DESIGN.md,
//! "The one trait"), and the context each call carries.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use a2a_types::{
    A2aError, AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, Operation, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};
use futures_core::Stream;
use http::HeaderMap;

use crate::version::ProtocolVersion;

/// A boxed, `Send` future: what every [`A2aService`] method returns, so the
/// trait is usable as `dyn A2aService`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The events of a streaming operation (spec 3.1.2, 3.1.6): each item a
/// [`StreamResponse`] or the error that ended the stream.
pub type EventStream =
    Pin<Box<dyn Stream<Item = Result<StreamResponse, A2aError>> + Send + 'static>>;

/// Who made a call, as established by authentication (spec 7.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Principal {
    /// A stable identifier of the caller (a user or client id), used to
    /// scope tasks and push configs to their owner (spec 13.1).
    pub id: String,
    /// The name of the security scheme that authenticated it, as the agent
    /// card's `securitySchemes` names it.
    pub scheme: String,
}

impl Principal {
    /// A principal `id` authenticated by `scheme`.
    pub fn new(id: impl Into<String>, scheme: impl Into<String>) -> Principal {
        Principal {
            id: id.into(),
            scheme: scheme.into(),
        }
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
    pub headers: HeaderMap,
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
        }
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

/// One method per operation of spec 3.1, implemented alike by server-side
/// handlers (which do the work), client-side transports (which send the
/// request over a binding) and in-process adapters, so that code written
/// against it runs over any of them.
///
/// Methods take `&self` and return boxed futures, so the trait is object
/// safe (`Arc<dyn A2aService>`). Defaults answer the spec's errors for an
/// agent that does not offer the operation: `UnsupportedOperationError`,
/// `PushNotificationNotSupportedError` for the four push-config operations
/// (spec 3.1.7-3.1.10), and `ExtendedAgentCardNotConfiguredError` for
/// [`get_extended_agent_card`](A2aService::get_extended_agent_card)
/// (spec 3.1.11).
pub trait A2aService: Send + Sync {
    /// `SendMessage` (spec 3.1.1).
    fn send_message<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        let _ = (cx, request);
        unsupported(Operation::SendMessage)
    }

    /// `SendStreamingMessage` (spec 3.1.2).
    fn send_streaming_message<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        let _ = (cx, request);
        unsupported(Operation::SendStreamingMessage)
    }

    /// `GetTask` (spec 3.1.3).
    fn get_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        let _ = (cx, request);
        unsupported(Operation::GetTask)
    }

    /// `ListTasks` (spec 3.1.4).
    fn list_tasks<'a>(
        &'a self,
        cx: &'a CallContext,
        request: ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, A2aError>> {
        let _ = (cx, request);
        unsupported(Operation::ListTasks)
    }

    /// `CancelTask` (spec 3.1.5).
    fn cancel_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, A2aError>> {
        let _ = (cx, request);
        unsupported(Operation::CancelTask)
    }

    /// `SubscribeToTask` (spec 3.1.6).
    fn subscribe_to_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SubscribeToTaskRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        let _ = (cx, request);
        unsupported(Operation::SubscribeToTask)
    }

    /// `CreateTaskPushNotificationConfig` (spec 3.1.7).
    fn create_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        request: TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        let _ = (cx, request);
        push_unsupported()
    }

    /// `GetTaskPushNotificationConfig` (spec 3.1.8).
    fn get_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        request: GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> {
        let _ = (cx, request);
        push_unsupported()
    }

    /// `ListTaskPushNotificationConfigs` (spec 3.1.9).
    fn list_task_push_notification_configs<'a>(
        &'a self,
        cx: &'a CallContext,
        request: ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, A2aError>> {
        let _ = (cx, request);
        push_unsupported()
    }

    /// `DeleteTaskPushNotificationConfig` (spec 3.1.10).
    fn delete_task_push_notification_config<'a>(
        &'a self,
        cx: &'a CallContext,
        request: DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), A2aError>> {
        let _ = (cx, request);
        push_unsupported()
    }

    /// `GetExtendedAgentCard` (spec 3.1.11).
    fn get_extended_agent_card<'a>(
        &'a self,
        cx: &'a CallContext,
        request: GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, A2aError>> {
        let _ = (cx, request);
        Box::pin(std::future::ready(Err(A2aError::from_kind(
            a2a_types::ErrorKind::ExtendedAgentCardNotConfigured,
        ))))
    }
}

fn unsupported<'a, T: Send + 'a>(op: Operation) -> BoxFuture<'a, Result<T, A2aError>> {
    Box::pin(std::future::ready(Err(A2aError::unsupported_operation(
        format!("{op} is not supported by this agent"),
    ))))
}

fn push_unsupported<'a, T: Send + 'a>() -> BoxFuture<'a, Result<T, A2aError>> {
    Box::pin(std::future::ready(Err(
        A2aError::push_notification_not_supported(),
    )))
}

macro_rules! forward_service {
    ($($ty:ty),*) => {$(
        impl<S: A2aService + ?Sized> A2aService for $ty {
            fn send_message<'a>(&'a self, cx: &'a CallContext, r: SendMessageRequest) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> { (**self).send_message(cx, r) }
            fn send_streaming_message<'a>(&'a self, cx: &'a CallContext, r: SendMessageRequest) -> BoxFuture<'a, Result<EventStream, A2aError>> { (**self).send_streaming_message(cx, r) }
            fn get_task<'a>(&'a self, cx: &'a CallContext, r: GetTaskRequest) -> BoxFuture<'a, Result<Task, A2aError>> { (**self).get_task(cx, r) }
            fn list_tasks<'a>(&'a self, cx: &'a CallContext, r: ListTasksRequest) -> BoxFuture<'a, Result<ListTasksResponse, A2aError>> { (**self).list_tasks(cx, r) }
            fn cancel_task<'a>(&'a self, cx: &'a CallContext, r: CancelTaskRequest) -> BoxFuture<'a, Result<Task, A2aError>> { (**self).cancel_task(cx, r) }
            fn subscribe_to_task<'a>(&'a self, cx: &'a CallContext, r: SubscribeToTaskRequest) -> BoxFuture<'a, Result<EventStream, A2aError>> { (**self).subscribe_to_task(cx, r) }
            fn create_task_push_notification_config<'a>(&'a self, cx: &'a CallContext, r: TaskPushNotificationConfig) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> { (**self).create_task_push_notification_config(cx, r) }
            fn get_task_push_notification_config<'a>(&'a self, cx: &'a CallContext, r: GetTaskPushNotificationConfigRequest) -> BoxFuture<'a, Result<TaskPushNotificationConfig, A2aError>> { (**self).get_task_push_notification_config(cx, r) }
            fn list_task_push_notification_configs<'a>(&'a self, cx: &'a CallContext, r: ListTaskPushNotificationConfigsRequest) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, A2aError>> { (**self).list_task_push_notification_configs(cx, r) }
            fn delete_task_push_notification_config<'a>(&'a self, cx: &'a CallContext, r: DeleteTaskPushNotificationConfigRequest) -> BoxFuture<'a, Result<(), A2aError>> { (**self).delete_task_push_notification_config(cx, r) }
            fn get_extended_agent_card<'a>(&'a self, cx: &'a CallContext, r: GetExtendedAgentCardRequest) -> BoxFuture<'a, Result<AgentCard, A2aError>> { (**self).get_extended_agent_card(cx, r) }
        }
    )*};
}

forward_service!(Arc<S>, Box<S>, &S);

/// The answer of an operation, whatever it was: a unary result or a
/// stream. What [`dispatch`] returns, so a binding needs one match, not eleven.
#[allow(clippy::large_enum_variant)]
pub enum Reply {
    /// `SendMessage`.
    SendMessage(SendMessageResponse),
    /// A `Task` (`GetTask`, `CancelTask`).
    Task(Task),
    /// `ListTasks`.
    ListTasks(ListTasksResponse),
    /// A push config (create, get).
    PushConfig(TaskPushNotificationConfig),
    /// `ListTaskPushNotificationConfigs`.
    PushConfigs(ListTaskPushNotificationConfigsResponse),
    /// `DeleteTaskPushNotificationConfig`: nothing.
    Empty,
    /// `GetExtendedAgentCard`.
    AgentCard(AgentCard),
    /// `SendStreamingMessage` or `SubscribeToTask`.
    Stream(EventStream),
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reply::SendMessage(r) => f.debug_tuple("SendMessage").field(r).finish(),
            Reply::Task(r) => f.debug_tuple("Task").field(r).finish(),
            Reply::ListTasks(r) => f.debug_tuple("ListTasks").field(r).finish(),
            Reply::PushConfig(r) => f.debug_tuple("PushConfig").field(r).finish(),
            Reply::PushConfigs(r) => f.debug_tuple("PushConfigs").field(r).finish(),
            Reply::Empty => f.write_str("Empty"),
            Reply::AgentCard(r) => f.debug_tuple("AgentCard").field(r).finish(),
            Reply::Stream(_) => f.write_str("Stream(..)"),
        }
    }
}

/// Invokes the method of `service` that `request` names: the single place
/// where a typed request meets the trait.
pub fn dispatch<'a, S: A2aService + ?Sized>(
    service: &'a S,
    cx: &'a CallContext,
    request: a2a_jsonrpc::A2aRequest,
) -> BoxFuture<'a, Result<Reply, A2aError>> {
    use a2a_jsonrpc::A2aRequest as R;
    Box::pin(async move {
        Ok(match request {
            R::SendMessage(r) => Reply::SendMessage(service.send_message(cx, r).await?),
            R::SendStreamingMessage(r) => {
                Reply::Stream(service.send_streaming_message(cx, r).await?)
            }
            R::GetTask(r) => Reply::Task(service.get_task(cx, r).await?),
            R::ListTasks(r) => Reply::ListTasks(service.list_tasks(cx, r).await?),
            R::CancelTask(r) => Reply::Task(service.cancel_task(cx, r).await?),
            R::SubscribeToTask(r) => Reply::Stream(service.subscribe_to_task(cx, r).await?),
            R::CreateTaskPushNotificationConfig(r) => {
                Reply::PushConfig(service.create_task_push_notification_config(cx, r).await?)
            }
            R::GetTaskPushNotificationConfig(r) => {
                Reply::PushConfig(service.get_task_push_notification_config(cx, r).await?)
            }
            R::ListTaskPushNotificationConfigs(r) => {
                Reply::PushConfigs(service.list_task_push_notification_configs(cx, r).await?)
            }
            R::DeleteTaskPushNotificationConfig(r) => {
                service.delete_task_push_notification_config(cx, r).await?;
                Reply::Empty
            }
            R::GetExtendedAgentCard(r) => {
                Reply::AgentCard(service.get_extended_agent_card(cx, r).await?)
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::ErrorKind;
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
            a2a_jsonrpc::A2aRequest::SubscribeToTask(Default::default()),
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

    #[test]
    fn dispatch_routes_to_the_named_method() {
        let cx = CallContext::new().with_tenant("acme");
        let req = a2a_jsonrpc::A2aRequest::GetTask(GetTaskRequest {
            id: "t-9".into(),
            ..Default::default()
        });
        match block_on(dispatch(&Tasks, &cx, req)) {
            Ok(Reply::Task(t)) => assert_eq!(t.id, "t-9"),
            other => panic!("unexpected {other:?}"),
        }
    }
}
