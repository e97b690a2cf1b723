//! Deliberately faulty agents: the reference agent with one fault each,
//! put in by a wrapper around the service (an `A2aService` decorator),
//! around the HTTP exchange (a wrapper of the in-memory HTTP client that
//! rewrites what goes to or comes from the server), or around the push
//! sender. A suite that passes everything proves nothing; the mutation
//! test (`tests/mutation.rs`) runs the suite against each of these and
//! requires at least one failure per fault.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use a2a_reference_agent::{PushError, PushSender};
use a2a_transport::{
    client::{HttpError, ResponseBody},
    dispatch, A2aService, BoxFuture, CallContext, EventStream, Forward, HttpClient, Principal,
};
use a2a_types::{
    A2aError, A2aRequest, Empty, ErrorKind, GetTaskRequest, Operation, Part, PartContent, Reply,
    SendMessageRequest, StreamResponse, Task, TaskState,
};
use bytes::{Bytes, BytesMut};
use futures_core::Stream;
use http::StatusCode;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::embedded::Wrappers;
use crate::grpc::{GrpcReply, GrpcWire};

/// One deliberate fault.
#[derive(Debug, Clone, Copy)]
pub struct Fault {
    /// A short name.
    pub name: &'static str,
    /// What the agent does wrong.
    pub what: &'static str,
    kind: FaultKind,
}

#[derive(Debug, Clone, Copy)]
enum FaultKind {
    Service(ServiceFault),
    Http(HttpFault),
    Grpc(GrpcFault),
    Push(PushFault),
}

impl Fault {
    /// The protocol version whose run catches the fault: 0.3 for the
    /// faults of the 0.3 wire form (run against the embedded agent with
    /// `v0_3` on, at [`Target::at_version`](crate::Target::at_version)),
    /// 1.1 for the faults of the 1.1 draft (the `draft-1-1` feature; run
    /// against the embedded agent with `draft_1_1` on), else 1.0.
    pub fn version(&self) -> a2a_transport::ProtocolVersion {
        #[cfg(feature = "draft-1-1")]
        if draft::is_draft(self.kind) {
            return a2a_transport::ProtocolVersion::V1_1;
        }
        match self.kind {
            FaultKind::Http(
                HttpFault::V03ServedAs1_0
                | HttpFault::V03KindMissing
                | HttpFault::V03Enums1_0
                | HttpFault::V03StreamErrorAsJson
                | HttpFault::V03OriginalNamesRefused,
            )
            | FaultKind::Service(ServiceFault::DataPartRefused)
            | FaultKind::Push(PushFault::V03BodyAs1_0) => a2a_transport::ProtocolVersion::V0_3,
            _ => a2a_transport::ProtocolVersion::V1_0,
        }
    }

    /// The wrappers that put the fault into an embedded agent.
    pub fn wrappers(&self) -> Wrappers {
        let mut w = Wrappers::default();
        match self.kind {
            FaultKind::Service(fault) => {
                w.service = Some(Box::new(move |inner| {
                    Arc::new(FaultyService { inner, fault })
                }));
            }
            FaultKind::Http(fault) => {
                w.http = Some(Box::new(move |inner| Arc::new(FaultyHttp { inner, fault })));
            }
            FaultKind::Grpc(fault) => {
                w.grpc = Some(Box::new(move |inner| Arc::new(FaultyGrpc { inner, fault })));
            }
            FaultKind::Push(fault) => {
                w.push = Some(Box::new(move |inner| Arc::new(FaultyPush { inner, fault })));
            }
        }
        w
    }
}

macro_rules! faults {
    ($(#[$attr:meta])* fn $fn:ident; $($name:literal, $kind:ident($v:ident), $what:literal;)*) => {
        $(#[$attr])*
        fn $fn() -> Vec<Fault> {
            vec![$(Fault { name: $name, what: $what, kind: FaultKind::$kind($kind::$v) }),*]
        }
    };
}

/// Every fault (with the `draft-1-1` feature, the 1.1 draft's too, last).
pub fn all() -> Vec<Fault> {
    #[cfg_attr(not(feature = "draft-1-1"), allow(unused_mut))]
    let mut out = table();
    #[cfg(feature = "draft-1-1")]
    out.extend(draft_table());
    out
}

// `Service(X)` in the table below is `FaultKind::Service(ServiceFault::X)`.
type Service = ServiceFault;
type Http = HttpFault;
type Grpc = GrpcFault;
type Push = PushFault;

faults! {
    /// The faults of 1.0 and 0.3.
    fn table;
    "history-not-truncated", Service(HistoryIgnored), "ignores historyLength";
    "artifacts-in-list", Service(ArtifactsInList), "lists artifacts without includeArtifacts";
    "events-out-of-order", Service(EventsOutOfOrder), "swaps the second and third events of every stream";
    "stream-without-task", Service(NoInitialTask), "drops the Task that should start a stream";
    "stream-never-closes", Service(StreamNeverCloses), "keeps streams open after the final event";
    "stream-buffered", Service(StreamBuffered), "sends a stream's events only once the task has finished";
    "streaming-refused", Service(StreamingRefused), "declares streaming but refuses to stream";
    "push-refused", Service(PushRefused), "declares push notifications but refuses configs";
    "other-callers-tasks-visible", Service(ScopeIgnored), "ignores who is calling: every task is everyone's";
    "wrong-error-kind", Service(WrongNotFound), "answers InvalidParamsError for an unknown task";
    "cancel-terminal-accepted", Service(CancelTerminalAccepted), "answers a completed task to CancelTask instead of TaskNotCancelableError";
    "cancel-ignored", Service(CancelIgnored), "answers CancelTask without canceling";
    "cancel-as-unsupported", Service(CancelUnsupported), "answers UnsupportedOperationError to every CancelTask (the old trait default)";
    "data-part-refused", Service(DataPartRefused), "refuses a message with a data part (ContentTypeNotSupportedError) although it reads data parts";
    "not-blocking", Service(NotBlocking), "returns before the task finishes although the client blocks";
    "always-blocking", Service(AlwaysBlocking), "ignores returnImmediately";
    "context-mismatch-accepted", Service(ContextMismatchAccepted), "accepts a contextId that is not its task's";
    "unknown-task-starts-new", Service(UnknownTaskStartsNew), "starts a new task for a message naming an unknown task";
    "terminal-task-restarts", Service(TerminalTaskRestarts), "starts a new task for a message to a finished one";
    "list-unsorted", Service(ListUnsorted), "lists tasks oldest first";
    "page-size-ignored", Service(PageSizeIgnored), "ignores pageSize";
    "status-filter-ignored", Service(StatusFilterIgnored), "ignores the status filter";
    "timestamp-filter-ignored", Service(TimestampFilterIgnored), "ignores statusTimestampAfter";
    "subscribe-terminal-allowed", Service(SubscribeTerminalAllowed), "answers a stream when subscribing to a finished task";
    "subscription-cut-short", Service(SubscriptionCutShort), "ends subscriptions after their first event";
    "delete-keeps-config", Service(DeleteKeepsConfig), "answers DeleteTaskPushNotificationConfig without deleting";
    "subscription-ends-interrupted", Service(SubscriptionEndsInterrupted), "ends SubscribeToTask streams at an interrupted state";
    "push-client-id-dropped", Service(PushClientIdDropped), "stores push configs under a server-generated id, whatever id the client chose";
    "extended-card-anonymous", Service(ExtendedCardAnonymous), "gives the extended card to anonymous callers";
    "no-validation", Service(NoValidation), "accepts a message without parts";
    "output-modes-wrong-error", Service(OutputModesWrongError), "refuses acceptedOutputModes it cannot answer in with InvalidParamsError, not a reply or ContentTypeNotSupportedError";
    "lowercase-enums", Http(LowercaseEnums), "writes enum values in lowercase (\"completed\")";
    "missing-required-field", Http(MissingMessageId), "omits the REQUIRED Message.messageId";
    "missing-next-page-token", Http(MissingNextPageToken), "omits an empty nextPageToken";
    "artifacts-empty-array", Http(ArtifactsEmptyArray), "writes \"artifacts\": [] in ListTasks instead of omitting it";
    "wrong-jsonrpc-code", Http(WrongJsonRpcCode), "answers TaskNotFoundError with JSON-RPC code -32603";
    "wrong-http-status", Http(WrongHttpStatus), "answers 500 where the status is 404";
    "no-error-info", Http(NoErrorInfo), "leaves google.rpc.ErrorInfo out of HTTP+JSON errors";
    "wrong-stream-content-type", Http(WrongStreamContentType), "labels SSE streams application/json";
    "no-etag", Http(NoEtag), "serves the card without ETag and ignores If-None-Match";
    "version-ignored", Http(VersionIgnored), "serves any A2A-Version as 1.0";
    "snake-case-fields", Http(SnakeCaseFields), "writes context_id instead of contextId";
    "offset-timestamps", Http(OffsetTimestamps), "writes timestamps with +00:00 instead of Z";
    "id-not-echoed", Http(IdNotEchoed), "answers JSON-RPC requests with id null";
    "undeclared-streaming-served", Http(UndeclaredStreaming), "serves streaming although its card says it does not";
    "auth-not-enforced", Http(AuthNotEnforced), "serves callers without credentials";
    "challenge-error-dropped", Http(ChallengeErrorDropped), "answers a bearer token it does not accept with a bare Bearer challenge, no error=\"invalid_token\"";
    "notification-answered", Http(NotificationAnswered), "answers a JSON-RPC notification with a -32600 body";
    "batch-refused", Http(BatchRefused), "answers every JSON-RPC batch with one -32600";
    "batch-sequential", Http(BatchSequential), "runs the calls of a JSON-RPC batch one after another";
    "utf8-invalid-request", Http(Utf8InvalidRequest), "answers invalid UTF-8 with -32600 instead of -32700";
    "content-type-invalid-request", Http(ContentTypeInvalidRequest), "answers a non-JSON Content-Type with -32600 instead of -32005";
    "input-modes-ignored", Http(InputModesIgnored), "accepts message parts of media types its card does not accept";
    "a2a-json-always", Http(A2aJsonAlways), "answers application/a2a+json to a client accepting only application/json";
    "405-not-found", Http(MethodNotAllowedNotFound), "labels 405 answers with status NOT_FOUND";
    "v0_3-served-as-1_0", Http(V03ServedAs1_0), "serves a 0.3 request with 1.0 semantics and shapes (against spec 3.6.2)";
    "v0_3-kind-missing", Http(V03KindMissing), "leaves kind out of 0.3 tasks, messages, parts and events";
    "v0_3-enums-1_0", Http(V03Enums1_0), "spells 0.3 states and roles the 1.0 way (TASK_STATE_COMPLETED, ROLE_AGENT)";
    "v0_3-original-names-refused", Http(V03OriginalNamesRefused), "does not read the proto's original field names (push_notification_config) in a 0.3 HTTP+JSON push config body";
    "v0_3-stream-error-as-json", Http(V03StreamErrorAsJson), "answers a failing 0.3 streaming call with an application/json error, not a stream of one error event";
    "v0_3-push-body-1_0", Push(V03BodyAs1_0), "POSTs 0.3 push notifications as 1.0 StreamResponses";
    "last-modified-ignored", Http(LastModifiedIgnored), "serves the card with Last-Modified but ignores If-Modified-Since";
    "extended-card-uncached", Http(ExtendedCardUncached), "serves the extended card without ETag or Cache-Control";
    "field-rules-unchecked", Http(FieldRulesUnchecked), "answers a negative historyLength or an out-of-bounds pageSize as if it were unset";
    "card-interface-not-served", Http(CardInterfaceNotServed), "declares its interfaces at a path it does not serve";
    "sse-ids-missing", Http(SseIdsMissing), "writes SSE events without id lines";
    "last-event-id-ignored", Http(LastEventIdIgnored), "ignores Last-Event-ID on a resubscription";
    "card-unsigned", Http(CardUnsigned), "serves its card without the signature it was given";
    "signed-card-changed", Http(SignedCardChanged), "changes the card's description after signing it";
    "signature-wrong-kid", Http(SignatureWrongKid), "signs its card under a kid that is not its key's";
    "signature-covers-signatures", Http(SignatureCoversSignatures), "signs its card with \"signatures\": [] left in the payload";
    "wrong-grpc-status", Grpc(WrongStatus), "answers every gRPC error with grpc-status UNKNOWN";
    "no-grpc-status-details", Grpc(NoStatusDetails), "leaves grpc-status-details-bin out of gRPC errors";
    "grpc-frame-length-wrong", Grpc(WrongFrameLength), "writes a gRPC message whose length prefix is one byte too long";
    "grpc-version-ignored", Grpc(VersionIgnored), "serves any a2a-version metadata as 1.0";
    "grpc-status-unbounded", Grpc(StatusUnbounded), "echoes the whole request into grpc-message, however long";
    "grpc-deadline-ignored", Grpc(DeadlineIgnored), "ignores grpc-timeout: a call runs to its end whatever its deadline";
    "push-without-credentials", Push(NoCredentials), "sends webhooks without the config's Authorization";
    "push-wrong-media-type", Push(WrongMediaType), "sends webhooks as text/plain";
    "push-https-refused", Push(HttpsRefused), "refuses https webhooks (the sender without TLS)";
    "push-without-token", Push(NoToken), "sends webhooks without the config's token header";
}

faults! {
    /// The faults of the 1.1 draft, each caught by a 1.1 run.
    #[cfg(feature = "draft-1-1")]
    fn draft_table;
    "events-without-generation", Service(EventGenerationsCleared), "streams status and artifact updates without their generation (0)";
    "generation-repeated", Service(GenerationRepeated), "stamps each update with the generation of the item before it";
    "get-task-generation-behind", Service(GetTaskGenerationBehind), "answers GetTask with the generation before the last mutation";
    "long-poll-ignored", Service(LongPollIgnored), "answers a long-poll GetTask at once although the task has not moved";
    "long-poll-never-early", Service(LongPollAlwaysHolds), "holds a long-poll GetTask whose currentGeneration is below the task's";
    "generation-match-ignored", Service(GenerationMatchIgnored), "ignores ifGenerationMatch on a continuation";
    "generation-match-wrong-error", Service(GenerationMismatchWrongError), "refuses a stale ifGenerationMatch with InvalidParamsError, not TaskGenerationMismatchError";
    "generation-match-on-new-task", Service(GenerationMatchOnNewTask), "refuses a message creating a task because of its ifGenerationMatch";
    "timeline-dropped", Service(TimelineDropped), "answers tasks without their timeline";
    "artifact-generations-missing", Service(ArtifactGenerationsMissing), "answers artifacts without startGeneration and endGeneration";
    "v1_0-sees-generation", Http(V10SeesGeneration), "writes \"generation\": \"1\" into the tasks it answers a 1.0 caller";
    "current-generation-ignored", Http(CurrentGenerationQueryIgnored), "ignores ?currentGeneration= on GET /tasks/{id}";
}

/// Faults of the agent's behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ServiceFault {
    HistoryIgnored,
    ArtifactsInList,
    EventsOutOfOrder,
    NoInitialTask,
    StreamNeverCloses,
    StreamBuffered,
    StreamingRefused,
    PushRefused,
    ScopeIgnored,
    WrongNotFound,
    CancelTerminalAccepted,
    CancelIgnored,
    CancelUnsupported,
    DataPartRefused,
    NotBlocking,
    AlwaysBlocking,
    ContextMismatchAccepted,
    UnknownTaskStartsNew,
    TerminalTaskRestarts,
    ListUnsorted,
    PageSizeIgnored,
    StatusFilterIgnored,
    TimestampFilterIgnored,
    SubscribeTerminalAllowed,
    SubscriptionCutShort,
    SubscriptionEndsInterrupted,
    PushClientIdDropped,
    DeleteKeepsConfig,
    ExtendedCardAnonymous,
    NoValidation,
    OutputModesWrongError,
    #[cfg(feature = "draft-1-1")]
    EventGenerationsCleared,
    #[cfg(feature = "draft-1-1")]
    GenerationRepeated,
    #[cfg(feature = "draft-1-1")]
    GetTaskGenerationBehind,
    #[cfg(feature = "draft-1-1")]
    LongPollIgnored,
    #[cfg(feature = "draft-1-1")]
    LongPollAlwaysHolds,
    #[cfg(feature = "draft-1-1")]
    GenerationMatchIgnored,
    #[cfg(feature = "draft-1-1")]
    GenerationMismatchWrongError,
    #[cfg(feature = "draft-1-1")]
    GenerationMatchOnNewTask,
    #[cfg(feature = "draft-1-1")]
    TimelineDropped,
    #[cfg(feature = "draft-1-1")]
    ArtifactGenerationsMissing,
}

/// Faults of the gRPC binding's wire (spec 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GrpcFault {
    WrongStatus,
    NoStatusDetails,
    WrongFrameLength,
    VersionIgnored,
    DeadlineIgnored,
    StatusUnbounded,
}

/// The gRPC carrier with one [`GrpcFault`].
struct FaultyGrpc {
    inner: Arc<dyn GrpcWire>,
    fault: GrpcFault,
}

impl GrpcWire for FaultyGrpc {
    fn call(
        &self,
        mut request: http::Request<Bytes>,
        timeout: std::time::Duration,
    ) -> BoxFuture<'_, Result<GrpcReply, String>> {
        Box::pin(async move {
            if self.fault == GrpcFault::VersionIgnored {
                request
                    .headers_mut()
                    .insert("a2a-version", http::HeaderValue::from_static("1.0"));
            }
            if self.fault == GrpcFault::DeadlineIgnored {
                // The host never sees the deadline, so nothing enforces it.
                request.headers_mut().remove("grpc-timeout");
            }
            // What an unbounded server would echo of the request.
            let echoed =
                a2a_transport::grpc::encode_grpc_message(&String::from_utf8_lossy(request.body()));
            let mut reply = self.inner.call(request, timeout).await?;
            let fields = match reply.trailers.as_mut() {
                Some(trailers) => trailers,
                None => &mut reply.headers,
            };
            match self.fault {
                GrpcFault::WrongStatus if fields.get("grpc-status").is_some_and(|v| v != "0") => {
                    fields.insert("grpc-status", http::HeaderValue::from_static("2"));
                }
                GrpcFault::StatusUnbounded
                    if fields.get("grpc-status").is_some_and(|v| v != "0") =>
                {
                    if let Ok(message) = http::HeaderValue::from_str(&echoed) {
                        fields.insert("grpc-message", message);
                    }
                }
                GrpcFault::NoStatusDetails => {
                    fields.remove("grpc-status-details-bin");
                }
                GrpcFault::WrongFrameLength if reply.data.len() >= 5 => {
                    let mut data = reply.data.to_vec();
                    let len = u32::from_be_bytes([data[1], data[2], data[3], data[4]]);
                    data[1..5].copy_from_slice(&len.wrapping_add(1).to_be_bytes());
                    reply.data = data.into();
                }
                _ => {}
            }
            Ok(reply)
        })
    }
}

/// Faults on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HttpFault {
    LowercaseEnums,
    MissingMessageId,
    MissingNextPageToken,
    ArtifactsEmptyArray,
    WrongJsonRpcCode,
    WrongHttpStatus,
    NoErrorInfo,
    WrongStreamContentType,
    NoEtag,
    VersionIgnored,
    SnakeCaseFields,
    OffsetTimestamps,
    IdNotEchoed,
    UndeclaredStreaming,
    AuthNotEnforced,
    ChallengeErrorDropped,
    NotificationAnswered,
    BatchRefused,
    BatchSequential,
    Utf8InvalidRequest,
    ContentTypeInvalidRequest,
    InputModesIgnored,
    A2aJsonAlways,
    MethodNotAllowedNotFound,
    LastModifiedIgnored,
    ExtendedCardUncached,
    FieldRulesUnchecked,
    CardInterfaceNotServed,
    SseIdsMissing,
    LastEventIdIgnored,
    CardUnsigned,
    SignedCardChanged,
    SignatureWrongKid,
    SignatureCoversSignatures,
    V03ServedAs1_0,
    V03KindMissing,
    V03Enums1_0,
    V03StreamErrorAsJson,
    V03OriginalNamesRefused,
    #[cfg(feature = "draft-1-1")]
    V10SeesGeneration,
    #[cfg(feature = "draft-1-1")]
    CurrentGenerationQueryIgnored,
}

/// Faults of push delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PushFault {
    NoCredentials,
    WrongMediaType,
    HttpsRefused,
    NoToken,
    V03BodyAs1_0,
}

// ---------------------------------------------------------------- service

struct FaultyService {
    inner: Arc<dyn A2aService>,
    fault: ServiceFault,
}

impl FaultyService {
    fn is(&self, f: ServiceFault) -> bool {
        self.fault == f
    }

    /// The context as the faulty agent sees it.
    fn scope(&self, cx: &CallContext) -> CallContext {
        let mut cx = cx.clone();
        if self.is(ServiceFault::ScopeIgnored) {
            cx.principal = None;
        }
        cx
    }

    fn events(&self, stream: EventStream) -> EventStream {
        match self.fault {
            ServiceFault::EventsOutOfOrder => rework(stream, |mut events| {
                if events.len() > 3 {
                    events.swap(1, 2);
                }
                (events, false)
            }),
            ServiceFault::NoInitialTask => rework(stream, |mut events| {
                if matches!(events.first(), Some(Ok(StreamResponse::Task(_)))) {
                    drop(events.remove(0));
                }
                (events, false)
            }),
            ServiceFault::StreamNeverCloses => rework(stream, |events| (events, true)),
            ServiceFault::StreamBuffered => rework(stream, |events| (events, false)),
            _ => stream,
        }
    }
}

/// The faults of the agent's behaviour, on the way in (the request) and
/// on the way out (the reply); everything else reaches the agent as it is.
impl Forward for FaultyService {
    fn forward<'a>(
        &'a self,
        cx: &'a CallContext,
        request: A2aRequest,
    ) -> BoxFuture<'a, Result<Reply, A2aError>> {
        Box::pin(async move {
            let mut cx = self.scope(cx);
            let op = request.operation();
            if op.is_streaming() && self.is(ServiceFault::StreamingRefused) {
                return Err(A2aError::unsupported_operation(
                    "streaming is not available",
                ));
            }
            if is_push_config(op) && self.is(ServiceFault::PushRefused) {
                return Err(A2aError::push_notification_not_supported());
            }
            let request = match request {
                A2aRequest::SendMessage(r)
                    if self.is(ServiceFault::DataPartRefused)
                        && r.message
                            .parts
                            .iter()
                            .any(|p| matches!(p.content, PartContent::Data(_))) =>
                {
                    return Err(A2aError::new(
                        ErrorKind::ContentTypeNotSupported,
                        "message.parts: media type \"application/json\" is not accepted by this agent",
                    ));
                }
                #[cfg(feature = "draft-1-1")]
                A2aRequest::SendMessage(r) if draft::refuses_new_task(self.fault, &r) => {
                    return Err(A2aError::task_generation_mismatch(
                        r.configuration
                            .and_then(|c| c.if_generation_match)
                            .unwrap_or_default(),
                        0,
                    ));
                }
                A2aRequest::SendMessage(r) => A2aRequest::SendMessage(self.send(&cx, r).await),
                A2aRequest::GetTask(mut r) => {
                    if self.is(ServiceFault::HistoryIgnored) {
                        r.history_length = None;
                    }
                    #[cfg(feature = "draft-1-1")]
                    draft::get_task(self, &cx, &mut r).await;
                    A2aRequest::GetTask(r)
                }
                A2aRequest::ListTasks(mut r) => {
                    match self.fault {
                        ServiceFault::HistoryIgnored => r.history_length = None,
                        ServiceFault::ArtifactsInList => r.include_artifacts = Some(true),
                        ServiceFault::PageSizeIgnored => r.page_size = None,
                        ServiceFault::StatusFilterIgnored => r.status = TaskState::Unspecified,
                        ServiceFault::TimestampFilterIgnored => r.status_timestamp_after = None,
                        _ => {}
                    }
                    A2aRequest::ListTasks(r)
                }
                A2aRequest::CancelTask(r) if self.is(ServiceFault::CancelIgnored) => {
                    return self.task(&cx, &r.id).await.map(Reply::CancelTask);
                }
                A2aRequest::CancelTask(_) if self.is(ServiceFault::CancelUnsupported) => {
                    return Err(A2aError::unsupported_operation(
                        "CancelTask is not supported by this agent",
                    ));
                }
                A2aRequest::CreateTaskPushNotificationConfig(mut r)
                    if self.is(ServiceFault::PushClientIdDropped) =>
                {
                    r.id.clear();
                    A2aRequest::CreateTaskPushNotificationConfig(r)
                }
                A2aRequest::DeleteTaskPushNotificationConfig(_)
                    if self.is(ServiceFault::DeleteKeepsConfig) =>
                {
                    return Ok(Reply::DeleteTaskPushNotificationConfig(Empty));
                }
                A2aRequest::GetExtendedAgentCard(r) => {
                    if self.is(ServiceFault::ExtendedCardAnonymous) && cx.principal.is_none() {
                        cx.principal = Some(Principal::new("anyone", "bearer"));
                    }
                    A2aRequest::GetExtendedAgentCard(r)
                }
                other => other,
            };
            let task_id = request.string_field("id").unwrap_or_default().to_owned();
            let reply = dispatch(&*self.inner, &cx, request).await;
            match (reply, self.fault) {
                (Err(e), ServiceFault::OutputModesWrongError)
                    if op == Operation::SendMessage
                        && e.kind() == ErrorKind::ContentTypeNotSupported =>
                {
                    Err(A2aError::new(
                        ErrorKind::InvalidParams,
                        "acceptedOutputModes: no mode this agent answers in",
                    ))
                }
                (Err(e), ServiceFault::WrongNotFound)
                    if op == Operation::GetTask && e.kind() == ErrorKind::TaskNotFound =>
                {
                    Err(A2aError::new(ErrorKind::InvalidParams, "no such task"))
                }
                (Err(e), ServiceFault::CancelTerminalAccepted)
                    if op == Operation::CancelTask && e.kind() == ErrorKind::TaskNotCancelable =>
                {
                    self.task(&cx, &task_id).await.map(Reply::CancelTask)
                }
                (Err(e), ServiceFault::SubscribeTerminalAllowed)
                    if op == Operation::SubscribeToTask
                        && e.kind() == ErrorKind::UnsupportedOperation =>
                {
                    let task = self.task(&cx, &task_id).await?;
                    Ok(Reply::SubscribeToTask(once(StreamResponse::Task(task))))
                }
                (Ok(Reply::ListTasks(mut page)), ServiceFault::ListUnsorted) => {
                    page.tasks.reverse();
                    Ok(Reply::ListTasks(page))
                }
                (Ok(Reply::SubscribeToTask(stream)), ServiceFault::SubscriptionCutShort) => {
                    Ok(Reply::SubscribeToTask(rework(stream, |mut events| {
                        events.truncate(1);
                        (events, false)
                    })))
                }
                (Ok(Reply::SubscribeToTask(stream)), ServiceFault::SubscriptionEndsInterrupted) => {
                    Ok(Reply::SubscribeToTask(Box::pin(EndsInterrupted(Some(
                        stream,
                    )))))
                }
                #[cfg(feature = "draft-1-1")]
                (Err(e), ServiceFault::GenerationMismatchWrongError)
                    if e.kind() == ErrorKind::TaskGenerationMismatch =>
                {
                    Err(A2aError::new(
                        ErrorKind::InvalidParams,
                        "configuration.ifGenerationMatch: not the task's generation",
                    ))
                }
                #[cfg(feature = "draft-1-1")]
                (Ok(reply), fault) if draft::rewrites_reply(fault) => {
                    Ok(draft::reply(fault, reply))
                }
                (Ok(Reply::SendStreamingMessage(stream)), _) => {
                    Ok(Reply::SendStreamingMessage(self.events(stream)))
                }
                (Ok(Reply::SubscribeToTask(stream)), _) => {
                    Ok(Reply::SubscribeToTask(self.events(stream)))
                }
                (other, _) => other,
            }
        })
    }
}

impl FaultyService {
    /// A `SendMessage` request as the faulty agent reads it.
    async fn send(&self, cx: &CallContext, mut r: SendMessageRequest) -> SendMessageRequest {
        let config = r.configuration.get_or_insert_with(Default::default);
        match self.fault {
            ServiceFault::HistoryIgnored => config.history_length = None,
            ServiceFault::NotBlocking => config.return_immediately = true,
            ServiceFault::AlwaysBlocking => config.return_immediately = false,
            ServiceFault::NoValidation if r.message.parts.is_empty() => {
                r.message.parts.push(Part::text("echo"))
            }
            ServiceFault::ContextMismatchAccepted if !r.message.task_id.is_empty() => {
                r.message.context_id.clear()
            }
            #[cfg(feature = "draft-1-1")]
            ServiceFault::GenerationMatchIgnored if !r.message.task_id.is_empty() => {
                config.if_generation_match = None
            }
            ServiceFault::UnknownTaskStartsNew | ServiceFault::TerminalTaskRestarts
                if !r.message.task_id.is_empty() =>
            {
                let restart = match self.task(cx, &r.message.task_id).await {
                    Err(e) => {
                        self.is(ServiceFault::UnknownTaskStartsNew)
                            && e.kind() == ErrorKind::TaskNotFound
                    }
                    Ok(t) => {
                        self.is(ServiceFault::TerminalTaskRestarts) && t.status.state.is_terminal()
                    }
                };
                if restart {
                    r.message.task_id.clear();
                    r.message.context_id.clear();
                }
            }
            _ => {}
        }
        r
    }

    async fn task(&self, cx: &CallContext, id: &str) -> Result<Task, A2aError> {
        self.inner.get_task(cx, GetTaskRequest::new(id)).await
    }
}

fn is_push_config(op: Operation) -> bool {
    matches!(
        op,
        Operation::CreateTaskPushNotificationConfig
            | Operation::GetTaskPushNotificationConfig
            | Operation::ListTaskPushNotificationConfigs
            | Operation::DeleteTaskPushNotificationConfig
    )
}

/// A stream of one event.
fn once(event: StreamResponse) -> EventStream {
    let (tx, rx) = mpsc::unbounded_channel();
    let _ = tx.send(Ok(event));
    Box::pin(Channel(rx))
}

/// Reads `stream` to its end, rewrites its items with `f` (which also says
/// whether to keep the stream open afterwards), and replays them. Buffering
/// the whole stream is fine for the short streams of the suite.
fn rework(
    mut stream: EventStream,
    f: impl FnOnce(
            Vec<Result<StreamResponse, A2aError>>,
        ) -> (Vec<Result<StreamResponse, A2aError>>, bool)
        + Send
        + 'static,
) -> EventStream {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut items = Vec::new();
        while let Some(item) = std::future::poll_fn(|c| stream.as_mut().poll_next(c)).await {
            items.push(item);
        }
        let (items, stay_open) = f(items);
        for item in items {
            let _ = tx.send(item);
        }
        if stay_open {
            tx.closed().await;
        }
    });
    Box::pin(Channel(rx))
}

/// A stream that ends after an item in an interrupted state, as
/// `SendStreamingMessage` streams do (spec 11.7), passing items through as
/// they come (so the handler's SSE ids stay with them).
struct EndsInterrupted(Option<EventStream>);

impl Stream for EndsInterrupted {
    type Item = Result<StreamResponse, A2aError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let Some(inner) = self.0.as_mut() else {
            return Poll::Ready(None);
        };
        let item = std::task::ready!(inner.as_mut().poll_next(cx));
        let interrupted = match &item {
            Some(Ok(StreamResponse::Task(t))) => t.status.state.is_interrupted(),
            Some(Ok(StreamResponse::StatusUpdate(e))) => e.status.state.is_interrupted(),
            _ => false,
        };
        if interrupted || item.is_none() {
            self.0 = None;
        }
        Poll::Ready(item)
    }
}

struct Channel(mpsc::UnboundedReceiver<Result<StreamResponse, A2aError>>);

impl Stream for Channel {
    type Item = Result<StreamResponse, A2aError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx)
    }
}

// ------------------------------------------------------------------- HTTP

struct FaultyHttp {
    inner: Arc<dyn HttpClient>,
    fault: HttpFault,
}

impl HttpClient for FaultyHttp {
    fn send(
        &self,
        mut request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        Box::pin(async move {
            match self.fault {
                HttpFault::NoEtag => {
                    request.headers_mut().remove(http::header::IF_NONE_MATCH);
                }
                HttpFault::VersionIgnored => {
                    request
                        .headers_mut()
                        .insert("a2a-version", http::HeaderValue::from_static("1.0"));
                }
                HttpFault::AuthNotEnforced
                    if !request.headers().contains_key(http::header::AUTHORIZATION) =>
                {
                    request
                        .extensions_mut()
                        .insert(Principal::new("caller-1", "bearer"));
                }
                HttpFault::InputModesIgnored => {
                    let body = strip_video_parts(request.body());
                    *request.body_mut() = body;
                }
                HttpFault::LastModifiedIgnored => {
                    request
                        .headers_mut()
                        .remove(http::header::IF_MODIFIED_SINCE);
                }
                HttpFault::ExtendedCardUncached
                    if request.uri().path().ends_with("/extendedAgentCard") =>
                {
                    request.headers_mut().remove(http::header::IF_NONE_MATCH);
                }
                HttpFault::LastEventIdIgnored => {
                    request.headers_mut().remove(a2a_transport::LAST_EVENT_ID);
                }
                HttpFault::V03ServedAs1_0 => {
                    request = as_1_0(request);
                }
                HttpFault::V03OriginalNamesRefused
                    if request.uri().path().ends_with("/pushNotificationConfigs") =>
                {
                    // What a reader of JSON names only sees: no config.
                    let body = String::from_utf8_lossy(request.body())
                        .replace("\"push_notification_config\"", "\"unread_field\"");
                    *request.body_mut() = Bytes::from(body);
                }
                #[cfg(feature = "draft-1-1")]
                HttpFault::CurrentGenerationQueryIgnored => {
                    request = draft::without_current_generation(request);
                }
                HttpFault::FieldRulesUnchecked => {
                    // The server's pipeline refuses these values, so the
                    // fault takes them out before it looks: what an agent
                    // that checks nothing answers (spec 3.2.4, 3.1.4).
                    request = unchecked_rules(request);
                }
                _ => {}
            }
            if self.fault == HttpFault::BatchSequential && a2a_jsonrpc::is_batch(request.body()) {
                return self.one_by_one(request).await;
            }
            let is_card = request.uri().path() == a2a_transport::server::AGENT_CARD_PATH;
            let is_extended_card = request.uri().path().ends_with("/extendedAgentCard");
            let batch = a2a_jsonrpc::is_batch(request.body()) && request.body().len() > 2;
            let not_utf8 = std::str::from_utf8(request.body()).is_err();
            #[cfg(feature = "draft-1-1")]
            let at_1_0 = request
                .headers()
                .get("a2a-version")
                .is_some_and(|v| v == "1.0");
            let response = self.inner.send(request).await?;
            let (mut parts, body) = response.into_parts();
            let fault = self.fault;
            match fault {
                HttpFault::NoEtag => {
                    parts.headers.remove(http::header::ETAG);
                }
                HttpFault::ChallengeErrorDropped => {
                    // Each challenge cut back to its scheme and realm.
                    let bare: Vec<http::HeaderValue> = parts
                        .headers
                        .get_all(http::header::WWW_AUTHENTICATE)
                        .iter()
                        .filter_map(|v| v.to_str().ok())
                        .filter_map(|v| v.split(", error=").next())
                        .filter_map(|v| http::HeaderValue::from_str(v).ok())
                        .collect();
                    parts.headers.remove(http::header::WWW_AUTHENTICATE);
                    for value in bare {
                        parts.headers.append(http::header::WWW_AUTHENTICATE, value);
                    }
                }
                HttpFault::WrongHttpStatus if parts.status == StatusCode::NOT_FOUND => {
                    parts.status = StatusCode::INTERNAL_SERVER_ERROR;
                }
                HttpFault::ExtendedCardUncached if is_extended_card => {
                    parts.headers.remove(http::header::ETAG);
                    parts.headers.remove(http::header::CACHE_CONTROL);
                }
                HttpFault::NotificationAnswered if parts.status == StatusCode::NO_CONTENT => {
                    parts.status = StatusCode::OK;
                    parts.headers.insert(
                        http::header::CONTENT_TYPE,
                        http::HeaderValue::from_static("application/json"),
                    );
                    let body = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"notifications are not supported"}}"#;
                    return Ok(http::Response::from_parts(
                        parts,
                        ResponseBody::full(Bytes::from_static(body)),
                    ));
                }
                HttpFault::A2aJsonAlways
                    if !is_card
                        && crate::wire::media_type(&parts.headers) == "application/json" =>
                {
                    parts.headers.insert(
                        http::header::CONTENT_TYPE,
                        http::HeaderValue::from_static("application/a2a+json"),
                    );
                }
                HttpFault::WrongStreamContentType
                    if crate::wire::media_type(&parts.headers) == "text/event-stream" =>
                {
                    parts.headers.insert(
                        http::header::CONTENT_TYPE,
                        http::HeaderValue::from_static("application/json"),
                    );
                }
                _ => {}
            }
            // gRPC answers pass through whole: the HTTP faults are of the
            // JSON bindings and the card (gRPC has its own), and reading
            // the body here would drop its trailers, failing every gRPC
            // call whatever the fault.
            if crate::wire::media_type(&parts.headers).starts_with("application/grpc") {
                return Ok(http::Response::from_parts(parts, body));
            }
            if fault == HttpFault::V03StreamErrorAsJson
                && crate::wire::media_type(&parts.headers) == "text/event-stream"
            {
                // A stream whose first event is an error, answered as that
                // error's JSON instead (what 1.0 does, not 0.3).
                let mut body = body;
                let first = std::future::poll_fn(|c| Pin::new(&mut body).poll_next(c)).await;
                let Some(first) = first.transpose()? else {
                    return Ok(http::Response::from_parts(
                        parts,
                        ResponseBody::full(Bytes::new()),
                    ));
                };
                let data: String = std::str::from_utf8(&first)
                    .unwrap_or_default()
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect();
                let is_error = serde_json::from_str::<Value>(&data)
                    .ok()
                    .is_some_and(|v| v.get("error").is_some());
                if is_error {
                    parts.headers.insert(
                        http::header::CONTENT_TYPE,
                        http::HeaderValue::from_static("application/json"),
                    );
                    parts.headers.remove(http::header::CONTENT_LENGTH);
                    return Ok(http::Response::from_parts(
                        parts,
                        ResponseBody::full(Bytes::from(data)),
                    ));
                }
                let rest = ResponseBody::new(Prepend {
                    first: Some(first),
                    body,
                });
                return Ok(http::Response::from_parts(parts, rest));
            }
            if crate::wire::media_type(&parts.headers) == "text/event-stream" {
                // Whole frames arrive one per chunk: rewrite each.
                let body = ResponseBody::new(MapChunks {
                    body,
                    f: move |b: Bytes| text_fault(fault, b),
                });
                return Ok(http::Response::from_parts(parts, body));
            }
            let bytes = read_all(body).await?;
            let bytes = if is_card {
                card_fault(fault, bytes)
            } else {
                json_fault(fault, text_fault(fault, bytes))
            };
            let bytes = request_fault(fault, parts.status, batch, not_utf8, bytes);
            #[cfg(feature = "draft-1-1")]
            let bytes = if fault == HttpFault::V10SeesGeneration && at_1_0 && !is_card {
                draft::with_generation(bytes)
            } else {
                bytes
            };
            parts.headers.remove(http::header::CONTENT_LENGTH);
            Ok(http::Response::from_parts(parts, ResponseBody::full(bytes)))
        })
    }
}

impl FaultyHttp {
    /// A batch sent as its elements, one request after the other's
    /// answer, and answered as the array of their answers: what a server
    /// running a batch's calls in turn gives back.
    async fn one_by_one(
        &self,
        request: http::Request<Bytes>,
    ) -> Result<http::Response<ResponseBody>, HttpError> {
        // Only a batch of unary calls with ids: what the server would
        // answer for the rest (streams, notifications, non-requests) is
        // not the fault's to change.
        let unary = |e: &Value| {
            e.get("id").is_some()
                && e.get("method")
                    .and_then(Value::as_str)
                    .is_some_and(|m| !m.contains("Streaming") && m != "SubscribeToTask")
        };
        let elements = match serde_json::from_slice::<Value>(request.body()) {
            Ok(Value::Array(elements)) if elements.len() > 1 && elements.iter().all(unary) => {
                elements
            }
            _ => return self.inner.send(request).await,
        };
        let (head, _) = request.into_parts();
        let mut answers = Vec::new();
        for element in elements {
            let mut single = http::Request::new(Bytes::from(element.to_string()));
            *single.method_mut() = head.method.clone();
            *single.uri_mut() = head.uri.clone();
            *single.version_mut() = head.version;
            *single.headers_mut() = head.headers.clone();
            single.headers_mut().remove(http::header::CONTENT_LENGTH);
            *single.extensions_mut() = head.extensions.clone();
            let body = read_all(self.inner.send(single).await?.into_body()).await?;
            if let Ok(answer) = serde_json::from_slice::<Value>(&body) {
                answers.push(answer);
            }
        }
        let mut response = http::Response::new(ResponseBody::full(Bytes::from(
            Value::Array(answers).to_string(),
        )));
        response.headers_mut().insert(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static("application/json"),
        );
        Ok(response)
    }
}

async fn read_all(mut body: ResponseBody) -> Result<Bytes, HttpError> {
    let mut buf = BytesMut::new();
    while let Some(chunk) = std::future::poll_fn(|c| Pin::new(&mut body).poll_next(c)).await {
        buf.extend_from_slice(&chunk?);
    }
    Ok(buf.freeze())
}

/// `body` after one chunk already read.
struct Prepend {
    first: Option<Bytes>,
    body: ResponseBody,
}

impl Stream for Prepend {
    type Item = Result<Bytes, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Some(first) = self.first.take() {
            return Poll::Ready(Some(Ok(first)));
        }
        Pin::new(&mut self.body).poll_next(cx)
    }
}

struct MapChunks<F> {
    body: ResponseBody,
    f: F,
}

impl<F: FnMut(Bytes) -> Bytes + Send + Unpin + 'static> Stream for MapChunks<F> {
    type Item = Result<Bytes, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        Pin::new(&mut this.body)
            .poll_next(cx)
            .map(|item| item.map(|chunk| chunk.map(&mut this.f)))
    }
}

/// A 0.3 JSON-RPC request turned into the 1.0 request it means (1.0
/// method name and params, `A2A-Version: 1.0`): the server then answers
/// in 1.0, as a server serving 0.3 requests with 1.0 semantics would.
fn as_1_0(mut request: http::Request<Bytes>) -> http::Request<Bytes> {
    let mut config = a2a_jsonrpc::DecodeConfig::default();
    config.methods = a2a_jsonrpc::MethodTable::V0_3;
    config.validate = false;
    if let Ok(decoded) = a2a_jsonrpc::decode_request(request.body(), &config) {
        *request.body_mut() =
            Bytes::from(a2a_jsonrpc::encode_request(&decoded.id, &decoded.request));
        request
            .headers_mut()
            .insert("a2a-version", http::HeaderValue::from_static("1.0"));
        request.headers_mut().remove(http::header::CONTENT_LENGTH);
    }
    request
}

/// The text without its `"kind":"..."` members (compact JSON).
fn without_kind(text: &str) -> String {
    let mut t = text.to_owned();
    while let Some(at) = t.find("\"kind\":\"") {
        let value = at + "\"kind\":\"".len();
        let mut end = t[value..].find('"').map_or(t.len(), |e| value + e + 1);
        if t[end..].starts_with(',') {
            end += 1;
        } else if at > 0 && t[..at].ends_with(',') {
            t.replace_range(at - 1..end, "");
            continue;
        }
        t.replace_range(at..end, "");
    }
    t
}

/// 0.3 `state` and `role` values spelled the 1.0 way.
fn enums_1_0(text: &str) -> String {
    let mut t = text.replace("\"role\":\"user\"", "\"role\":\"ROLE_USER\"");
    t = t.replace("\"role\":\"agent\"", "\"role\":\"ROLE_AGENT\"");
    let mut from = 0;
    while let Some(at) = t[from..].find("\"state\":\"").map(|i| from + i) {
        let start = at + "\"state\":\"".len();
        let end = t[start..].find('"').map_or(t.len(), |e| start + e);
        from = end;
        if let Some(state) = a2a_types::v0_3::state_from_str(&t[start..end]) {
            let name = state.as_str_name();
            t.replace_range(start..end, name);
            from = start + name.len();
        }
    }
    t
}

/// Rewrites of the body's text.
fn text_fault(fault: HttpFault, body: Bytes) -> Bytes {
    let Ok(text) = std::str::from_utf8(&body) else {
        return body;
    };
    let out = match fault {
        HttpFault::LowercaseEnums => {
            let mut t = text.to_owned();
            for prefix in ["\"TASK_STATE_", "\"ROLE_"] {
                while let Some(at) = t.find(prefix) {
                    let start = at + 1;
                    let end = t[start..].find('"').map_or(t.len(), |e| start + e);
                    let name = t[start..end]
                        .split('_')
                        .next_back()
                        .unwrap_or("")
                        .to_ascii_lowercase();
                    t.replace_range(start..end, &name);
                }
            }
            t
        }
        HttpFault::SnakeCaseFields => text.replace("\"contextId\":", "\"context_id\":"),
        HttpFault::V03KindMissing => without_kind(text),
        HttpFault::V03Enums1_0 => enums_1_0(text),
        HttpFault::SseIdsMissing => text
            .split_inclusive('\n')
            .filter(|line| !line.starts_with("id:"))
            .collect(),
        HttpFault::OffsetTimestamps => {
            let mut t = String::with_capacity(text.len() + 16);
            let bytes = text.as_bytes();
            let mut last = 0;
            for (i, w) in bytes.windows(2).enumerate() {
                if w == b"Z\"" && i > 0 && bytes[i - 1].is_ascii_digit() {
                    t.push_str(&text[last..i]);
                    t.push_str("+00:00");
                    last = i + 1;
                }
            }
            t.push_str(&text[last..]);
            t
        }
        _ => return body,
    };
    Bytes::from(out)
}

/// Rewrites of the body as JSON.
fn json_fault(fault: HttpFault, body: Bytes) -> Bytes {
    let Ok(mut v) = serde_json::from_slice::<Value>(&body) else {
        return body;
    };
    let changed = match fault {
        HttpFault::MissingMessageId => {
            strip_key(&mut v, "messageId");
            true
        }
        HttpFault::MissingNextPageToken => match v.as_object_mut() {
            Some(o) if o.get("nextPageToken") == Some(&Value::String(String::new())) => {
                o.remove("nextPageToken").is_some()
            }
            _ => match v.pointer_mut("/result").and_then(Value::as_object_mut) {
                Some(o) if o.get("nextPageToken") == Some(&Value::String(String::new())) => {
                    o.remove("nextPageToken").is_some()
                }
                _ => false,
            },
        },
        HttpFault::ArtifactsEmptyArray => {
            let at = if v.get("tasks").is_some() {
                "/tasks"
            } else {
                "/result/tasks"
            };
            match v.pointer_mut(at).and_then(Value::as_array_mut) {
                Some(tasks) => {
                    for t in tasks.iter_mut().filter_map(Value::as_object_mut) {
                        t.entry("artifacts")
                            .or_insert_with(|| Value::Array(Vec::new()));
                    }
                    true
                }
                None => false,
            }
        }
        HttpFault::WrongJsonRpcCode => {
            let jsonrpc = v.get("jsonrpc").is_some();
            match v.pointer_mut("/error/code") {
                Some(code) if jsonrpc && code.as_i64() == Some(-32001) => {
                    *code = Value::from(-32603);
                    true
                }
                _ => false,
            }
        }
        HttpFault::NoErrorInfo => match v.pointer_mut("/error").and_then(Value::as_object_mut) {
            Some(e) => e.remove("details").is_some(),
            None => false,
        },
        HttpFault::IdNotEchoed => match v.as_object_mut() {
            Some(o) if o.contains_key("jsonrpc") => {
                o.insert("id".into(), Value::Null);
                true
            }
            _ => false,
        },
        _ => false,
    };
    if changed {
        Bytes::from(serde_json::to_vec(&v).unwrap_or_default())
    } else {
        body
    }
}

/// Rewrites of an answer that depend on what was asked: a batch, a body
/// that is not UTF-8, a 415 or a 405.
fn request_fault(
    fault: HttpFault,
    status: StatusCode,
    batch: bool,
    not_utf8: bool,
    body: Bytes,
) -> Bytes {
    let Ok(mut v) = serde_json::from_slice::<Value>(&body) else {
        return body;
    };
    let changed = match fault {
        HttpFault::BatchRefused if batch && v.is_array() => {
            v = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
                "message": "batch requests are not supported"}});
            true
        }
        HttpFault::Utf8InvalidRequest if not_utf8 => match v.pointer_mut("/error/code") {
            Some(code) if code.as_i64() == Some(-32700) => {
                *code = Value::from(-32600);
                true
            }
            _ => false,
        },
        HttpFault::ContentTypeInvalidRequest if status == StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            match v.pointer_mut("/error/code") {
                Some(code) if code.as_i64() == Some(-32005) => {
                    *code = Value::from(-32600);
                    true
                }
                _ => false,
            }
        }
        HttpFault::MethodNotAllowedNotFound if status == StatusCode::METHOD_NOT_ALLOWED => {
            match v.pointer_mut("/error/status") {
                Some(s) => {
                    *s = Value::from("NOT_FOUND");
                    true
                }
                None => false,
            }
        }
        _ => false,
    };
    if changed {
        Bytes::from(serde_json::to_vec(&v).unwrap_or_default())
    } else {
        body
    }
}

/// A request body without its message's parts that are not text: what an
/// agent ignoring its input modes sees as acceptable.
fn strip_video_parts(body: &Bytes) -> Bytes {
    let Ok(mut v) = serde_json::from_slice::<Value>(body) else {
        return body.clone();
    };
    let path = if v.pointer("/params/message/parts").is_some() {
        "/params/message/parts"
    } else {
        "/message/parts"
    };
    match v.pointer_mut(path).and_then(Value::as_array_mut) {
        Some(parts) => {
            parts.retain(|p| p.get("mediaType").is_none());
            Bytes::from(serde_json::to_vec(&v).unwrap_or_default())
        }
        None => body.clone(),
    }
}

/// Rewrites of the agent card.
fn card_fault(fault: HttpFault, body: Bytes) -> Bytes {
    let Ok(mut v) = serde_json::from_slice::<Value>(&body) else {
        return body;
    };
    match fault {
        HttpFault::UndeclaredStreaming => {
            if let Some(caps) = v.get_mut("capabilities").and_then(Value::as_object_mut) {
                caps.insert("streaming".into(), Value::Bool(false));
            }
        }
        HttpFault::CardInterfaceNotServed => {
            // What `A2aServer::new` now refuses: a card whose URLs name a
            // path nothing is routed at (spec 8.3.1).
            let interfaces = v
                .get_mut("supportedInterfaces")
                .and_then(Value::as_array_mut);
            for i in interfaces.into_iter().flatten() {
                if let Some(Value::String(url)) = i.get_mut("url") {
                    *url = format!("{}/a2a/v2", url.trim_end_matches('/'));
                }
            }
        }
        HttpFault::CardUnsigned => {
            if let Some(card) = v.as_object_mut() {
                card.remove("signatures");
            }
        }
        HttpFault::SignedCardChanged => {
            if let Some(Value::String(d)) = v.get_mut("description") {
                d.push_str(" (changed after signing)");
            }
        }
        HttpFault::SignatureWrongKid => {
            // A correct signature by the agent's key, labelled with a kid
            // no JWKS of the agent's has.
            let Ok(payload) = a2a_signing::json_payload(&body) else {
                return body;
            };
            resign(&mut v, "embedded-es256-rotated", &payload);
        }
        HttpFault::SignatureCoversSignatures => {
            // What a signer that did not drop `signatures` signs (spec
            // 8.4.1 rule 3).
            if let Some(card) = v.as_object_mut() {
                card.insert("signatures".into(), Value::Array(Vec::new()));
            }
            let text = serde_json::to_vec(&v).unwrap_or_default();
            let Ok(payload) = a2a_signing::canonicalize(&text) else {
                return body;
            };
            resign(&mut v, crate::embedded::EMBEDDED_KID, &payload);
        }
        _ => return body,
    }
    Bytes::from(serde_json::to_vec(&v).unwrap_or_default())
}

/// Replaces the card's signatures with one over `payload` by the embedded
/// key under `kid`.
fn resign(card: &mut Value, kid: &str, payload: &[u8]) {
    let Ok(signer) = crate::embedded::embedded_signer("") else {
        return;
    };
    let signer = a2a_signing::CardSigner::new(signer.key().clone(), kid);
    let Ok(signature) = signer.sign_payload(payload) else {
        return;
    };
    if let (Some(obj), Ok(sig)) = (card.as_object_mut(), serde_json::to_value(&signature)) {
        obj.insert("signatures".into(), Value::Array(vec![sig]));
    }
}

/// `request` without a negative `historyLength` or an out-of-bounds
/// `ListTasks` `pageSize`, in its query or its JSON-RPC params.
fn unchecked_rules(mut request: http::Request<Bytes>) -> http::Request<Bytes> {
    let breaks_rule = |key: &str, n: i64| match key {
        "historyLength" => n < 0,
        "pageSize" => !(1..=100).contains(&n),
        _ => false,
    };
    if let Some(query) = request.uri().query() {
        let kept: Vec<&str> = query
            .split('&')
            .filter(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                !value.parse().is_ok_and(|n| breaks_rule(key, n))
            })
            .collect();
        let path = request.uri().path();
        let rewritten = if kept.is_empty() {
            path.to_owned()
        } else {
            format!("{path}?{}", kept.join("&"))
        };
        let mut parts = request.uri().clone().into_parts();
        parts.path_and_query = rewritten.parse().ok();
        if let Ok(uri) = http::Uri::from_parts(parts) {
            *request.uri_mut() = uri;
        }
    }
    let Ok(mut v) = serde_json::from_slice::<Value>(request.body()) else {
        return request;
    };
    let is_list_tasks = v.get("method").and_then(Value::as_str) == Some("ListTasks");
    let mut changed = false;
    for at in ["/params", "/params/configuration"] {
        if let Some(o) = v.pointer_mut(at).and_then(Value::as_object_mut) {
            for key in ["historyLength", "pageSize"] {
                let applies = key == "historyLength" || is_list_tasks;
                let n = o.get(key).and_then(Value::as_i64);
                if applies && n.is_some_and(|n| breaks_rule(key, n)) {
                    changed |= o.remove(key).is_some();
                }
            }
        }
    }
    if changed {
        *request.body_mut() = Bytes::from(serde_json::to_vec(&v).unwrap_or_default());
        request.headers_mut().remove(http::header::CONTENT_LENGTH);
    }
    request
}

fn strip_key(v: &mut Value, key: &str) {
    match v {
        Value::Object(o) => {
            o.remove(key);
            for child in o.values_mut() {
                strip_key(child, key);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|c| strip_key(c, key)),
        _ => {}
    }
}

// ------------------------------------------------------------------- push

struct FaultyPush {
    inner: Arc<dyn PushSender>,
    fault: PushFault,
}

impl PushSender for FaultyPush {
    fn send(
        &self,
        mut request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<StatusCode, PushError>> {
        match self.fault {
            PushFault::NoCredentials => {
                request.headers_mut().remove(http::header::AUTHORIZATION);
            }
            PushFault::WrongMediaType => {
                request.headers_mut().insert(
                    http::header::CONTENT_TYPE,
                    http::HeaderValue::from_static("text/plain"),
                );
            }
            PushFault::HttpsRefused => {
                if request.uri().scheme_str() == Some("https") {
                    return Box::pin(std::future::ready(Err(PushError::Refused(
                        "https webhooks need TLS, which this sender does not include".to_owned(),
                    ))));
                }
            }
            PushFault::NoToken => {
                request
                    .headers_mut()
                    .remove(a2a_transport::push::NOTIFICATION_TOKEN_HEADER);
            }
            PushFault::V03BodyAs1_0 => {
                // A 0.3 Task body re-encoded as the 1.0 StreamResponse.
                if let Ok(task) = a2a_types::v0_3::from_slice::<Task>(request.body()) {
                    if let Ok(body) = a2a_types::json::to_vec(&StreamResponse::Task(task)) {
                        *request.body_mut() = Bytes::from(body);
                    }
                }
            }
        }
        self.inner.send(request)
    }
}

// ------------------------------------------------------------ 1.1 draft

/// The faults of the 1.1 draft's generations, long poll, guard and
/// timeline.
#[cfg(feature = "draft-1-1")]
mod draft {
    use a2a_types::draft_1_1::DraftFields as _;
    use a2a_types::SendMessageResponse;

    use super::*;

    /// Whether `kind` is a fault of the draft (run at 1.1).
    pub(super) fn is_draft(kind: FaultKind) -> bool {
        matches!(
            kind,
            FaultKind::Service(
                ServiceFault::EventGenerationsCleared
                    | ServiceFault::GenerationRepeated
                    | ServiceFault::GetTaskGenerationBehind
                    | ServiceFault::LongPollIgnored
                    | ServiceFault::LongPollAlwaysHolds
                    | ServiceFault::GenerationMatchIgnored
                    | ServiceFault::GenerationMismatchWrongError
                    | ServiceFault::GenerationMatchOnNewTask
                    | ServiceFault::TimelineDropped
                    | ServiceFault::ArtifactGenerationsMissing
            ) | FaultKind::Http(
                HttpFault::V10SeesGeneration | HttpFault::CurrentGenerationQueryIgnored
            )
        )
    }

    /// A `GetTask` as the faulty agent reads it: without its
    /// `currentGeneration`, or with one the task has not passed.
    pub(super) async fn get_task(
        service: &FaultyService,
        cx: &CallContext,
        r: &mut GetTaskRequest,
    ) {
        match service.fault {
            ServiceFault::LongPollIgnored => r.current_generation = None,
            ServiceFault::LongPollAlwaysHolds => {
                if let (Some(n), Ok(task)) = (r.current_generation, service.task(cx, &r.id).await) {
                    r.current_generation = Some(n.max(task.generation));
                }
            }
            _ => {}
        }
    }

    /// Whether the faulty agent refuses `r`: a message creating a task
    /// with `ifGenerationMatch` set.
    pub(super) fn refuses_new_task(fault: ServiceFault, r: &SendMessageRequest) -> bool {
        fault == ServiceFault::GenerationMatchOnNewTask
            && r.message.task_id.is_empty()
            && r.configuration
                .as_ref()
                .is_some_and(|c| c.if_generation_match.is_some())
    }

    /// Whether the fault rewrites replies (see [`reply`]).
    pub(super) fn rewrites_reply(fault: ServiceFault) -> bool {
        matches!(
            fault,
            ServiceFault::EventGenerationsCleared
                | ServiceFault::GenerationRepeated
                | ServiceFault::GetTaskGenerationBehind
                | ServiceFault::TimelineDropped
                | ServiceFault::ArtifactGenerationsMissing
        )
    }

    /// `reply` as the faulty agent answers it.
    pub(super) fn reply(fault: ServiceFault, reply: Reply) -> Reply {
        let task_fault = move |task: &mut Task| match fault {
            ServiceFault::TimelineDropped => task.timeline.clear(),
            ServiceFault::ArtifactGenerationsMissing => task
                .artifacts
                .iter_mut()
                .for_each(|a| a.clear_draft_fields()),
            _ => {}
        };
        match reply {
            Reply::GetTask(mut task) => {
                if fault == ServiceFault::GetTaskGenerationBehind {
                    task.generation -= 1;
                }
                task_fault(&mut task);
                Reply::GetTask(task)
            }
            Reply::SendMessage(SendMessageResponse::Task(mut task)) => {
                task_fault(&mut task);
                Reply::SendMessage(SendMessageResponse::Task(task))
            }
            Reply::SendStreamingMessage(stream) => {
                Reply::SendStreamingMessage(events(fault, stream))
            }
            Reply::SubscribeToTask(stream) => Reply::SubscribeToTask(events(fault, stream)),
            other => other,
        }
    }

    /// A stream's updates without their generation, or each with the one
    /// of the item before it; passed through as they come (so the
    /// handler's SSE ids and the stream's timing stay). Other faults
    /// leave streams alone.
    fn events(fault: ServiceFault, stream: EventStream) -> EventStream {
        let change: fn(&mut i64) = match fault {
            ServiceFault::EventGenerationsCleared => |g| *g = 0,
            ServiceFault::GenerationRepeated => |g| *g -= 1,
            _ => return stream,
        };
        Box::pin(Updates(stream, change))
    }

    /// A stream whose status and artifact updates' generations are changed.
    struct Updates(EventStream, fn(&mut i64));

    impl Stream for Updates {
        type Item = Result<StreamResponse, A2aError>;

        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            let change = self.1;
            let mut item = std::task::ready!(self.0.as_mut().poll_next(cx));
            match &mut item {
                Some(Ok(StreamResponse::StatusUpdate(u))) => change(&mut u.generation),
                Some(Ok(StreamResponse::ArtifactUpdate(u))) => change(&mut u.generation),
                _ => {}
            }
            Poll::Ready(item)
        }
    }

    /// `request` without `currentGeneration` in its query.
    pub(super) fn without_current_generation(
        mut request: http::Request<Bytes>,
    ) -> http::Request<Bytes> {
        let Some(query) = request.uri().query() else {
            return request;
        };
        let kept: Vec<&str> = query
            .split('&')
            .filter(|pair| !pair.starts_with("currentGeneration="))
            .collect();
        let path = request.uri().path();
        let rewritten = if kept.is_empty() {
            path.to_owned()
        } else {
            format!("{path}?{}", kept.join("&"))
        };
        let mut parts = request.uri().clone().into_parts();
        parts.path_and_query = rewritten.parse().ok();
        if let Ok(uri) = http::Uri::from_parts(parts) {
            *request.uri_mut() = uri;
        }
        request
    }

    /// The body with `"generation": "1"` in every task it holds (an
    /// object with `id`, `contextId` and `status`).
    pub(super) fn with_generation(body: Bytes) -> Bytes {
        fn mark(v: &mut Value) {
            match v {
                Value::Object(o) => {
                    if o.contains_key("id")
                        && o.contains_key("contextId")
                        && o.contains_key("status")
                    {
                        o.insert("generation".into(), Value::from("1"));
                    }
                    o.values_mut().for_each(mark);
                }
                Value::Array(items) => items.iter_mut().for_each(mark),
                _ => {}
            }
        }
        let Ok(mut v) = serde_json::from_slice::<Value>(&body) else {
            return body;
        };
        mark(&mut v);
        Bytes::from(serde_json::to_vec(&v).unwrap_or_default())
    }
}
