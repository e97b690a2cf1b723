//! The server's span of one call ([`CallSpan`]): what the pipeline tells
//! a host's [`Tracer`] of a call, kept apart from [`crate::trace`] (the
//! trace context and the tracer's interface) because it reads the
//! pipeline's answer, which the service layer below it must not.

use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use a2a_types::{A2aError, A2aRequest, EventStream, Reply, StreamResponse};
use futures_core::Stream;

use crate::metrics::binding_label;
use crate::pipeline::Answer;
use a2a_wire::service_params::ProtocolVersion;
use a2a_wire::trace::{Attribute, AttributeKey, Span, SpanName, TraceContext, Tracer, RPC_SERVICE};
use a2a_wire::Binding;

/// A [`Span`] ended when dropped, once.
struct Ending(Box<dyn Span>);

impl Drop for Ending {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// The `rpc.system` of a binding: the RPC conventions' value where one
/// exists.
fn rpc_system(binding: Option<Binding>) -> &'static str {
    match binding {
        Some(Binding::JsonRpc) => "jsonrpc",
        Some(Binding::Grpc) => "grpc",
        _ => "a2a",
    }
}

/// The task a request is about, when it names one.
pub(crate) fn request_task_id(request: &A2aRequest) -> Option<&str> {
    let id = match request {
        A2aRequest::SendMessage(r) | A2aRequest::SendStreamingMessage(r) => {
            Some(r.message.task_id.as_str())
        }
        other => other
            .string_field("taskId")
            .or_else(|| other.string_field("id")),
    };
    id.filter(|id| !id.is_empty())
}

fn event_task_id(event: &StreamResponse) -> &str {
    match event {
        StreamResponse::Task(t) => &t.id,
        StreamResponse::Message(m) => &m.task_id,
        StreamResponse::StatusUpdate(u) => &u.task_id,
        StreamResponse::ArtifactUpdate(u) => &u.task_id,
    }
}

/// What a call span learns of the request when it is decoded.
struct Decoded {
    operation: &'static str,
    task_id: Option<String>,
    tenant: Option<String>,
}

/// The server's span of one call: started with the call, told the
/// request and the version, ended with the answer; a streaming answer
/// gets a [`SpanName::Stream`] child that lives as long as its events.
pub(crate) struct CallSpan {
    /// The span, and the tracer that made it (for a stream's child).
    span: Option<(Box<dyn Span>, Arc<dyn Tracer>)>,
    binding: Option<Binding>,
    /// The caller's context, kept for the handler when no span is made.
    caller: Option<TraceContext>,
    decoded: OnceLock<Decoded>,
    version: OnceLock<ProtocolVersion>,
}

impl CallSpan {
    /// Starts the span of a call on `binding` from `caller` (its
    /// `traceparent`, or a JSON-RPC batch's span for an element).
    pub(crate) fn start(
        tracer: Option<&Arc<dyn Tracer>>,
        binding: Option<Binding>,
        caller: Option<TraceContext>,
    ) -> CallSpan {
        let span = tracer.map(|t| {
            let mut attributes = vec![
                Attribute::str(AttributeKey::RpcSystem, rpc_system(binding)),
                Attribute::str(AttributeKey::RpcService, RPC_SERVICE),
                Attribute::str(AttributeKey::A2aBinding, binding_label(binding)),
            ];
            if binding == Some(Binding::JsonRpc) {
                attributes.push(Attribute::str(AttributeKey::RpcJsonrpcVersion, "2.0"));
            }
            (
                t.start(SpanName::Call, caller.as_ref(), &attributes),
                Arc::clone(t),
            )
        });
        CallSpan {
            span,
            binding,
            caller,
            decoded: OnceLock::new(),
            version: OnceLock::new(),
        }
    }

    /// The context the handler sees: the call span's, else the caller's.
    pub(crate) fn context(&self) -> Option<TraceContext> {
        match &self.span {
            Some((span, _)) => span.context().or_else(|| self.caller.clone()),
            None => self.caller.clone(),
        }
    }

    /// Notes the negotiated version.
    pub(crate) fn admitted(&self, version: ProtocolVersion) {
        if self.span.is_some() {
            let _ = self.version.set(version);
        }
    }

    /// `decode`, noting what the span says of the request it reads.
    pub(crate) fn decoding<'d, F>(
        &'d self,
        decode: F,
    ) -> impl FnOnce() -> Result<A2aRequest, A2aError> + 'd
    where
        F: FnOnce() -> Result<A2aRequest, A2aError> + 'd,
    {
        move || {
            let request = decode();
            if let (Some(_), Ok(r)) = (&self.span, &request) {
                let tenant = r.tenant();
                let _ = self.decoded.set(Decoded {
                    operation: r.operation().name(),
                    task_id: request_task_id(r).map(str::to_owned),
                    tenant: (!tenant.is_empty()).then(|| tenant.to_owned()),
                });
            }
            request
        }
    }

    /// Ends the span of a JSON-RPC batch of `elements` calls, each of
    /// which had a span of its own below it.
    pub(crate) fn end_batch(self, elements: usize) {
        if let Some((mut span, _)) = self.span {
            span.set_attribute(Attribute::int(
                AttributeKey::A2aBatchSize,
                i64::try_from(elements).unwrap_or(i64::MAX),
            ));
            span.set_attribute(Attribute::str(AttributeKey::A2aOutcome, "ok"));
            span.end();
        }
    }

    /// Ends the span with `answer`, which it returns (a stream's events
    /// then carried by the stream span).
    pub(crate) fn finish(self, answer: Result<Answer, A2aError>) -> Result<Answer, A2aError> {
        let Some((mut span, tracer)) = self.span else {
            return answer;
        };
        let decoded = self.decoded.get();
        if let Some(d) = decoded {
            span.set_attribute(Attribute::str(AttributeKey::RpcMethod, d.operation));
            if let Some(tenant) = &d.tenant {
                span.set_attribute(Attribute::str(AttributeKey::A2aTenant, tenant));
            }
        }
        if let Some(version) = self.version.get() {
            let version = version.to_string();
            span.set_attribute(Attribute::str(AttributeKey::A2aProtocolVersion, &version));
        }
        let task_id = decoded
            .and_then(|d| d.task_id.as_deref())
            .or_else(|| answer_task_id(&answer))
            .filter(|id| !id.is_empty());
        if let Some(id) = task_id {
            span.set_attribute(Attribute::str(AttributeKey::A2aTaskId, id));
        }
        match &answer {
            Ok(_) => {
                span.set_attribute(Attribute::str(AttributeKey::A2aOutcome, "ok"));
                if self.binding == Some(Binding::Grpc) {
                    span.set_attribute(Attribute::int(AttributeKey::RpcGrpcStatusCode, 0));
                }
                if self.binding == Some(Binding::HttpJson) {
                    span.set_attribute(Attribute::int(AttributeKey::HttpResponseStatusCode, 200));
                }
            }
            Err(e) => {
                let kind = e.kind();
                span.set_attribute(Attribute::str(AttributeKey::A2aOutcome, kind.name()));
                span.set_attribute(Attribute::str(AttributeKey::ErrorType, kind.name()));
                match self.binding {
                    Some(Binding::JsonRpc) => span.set_attribute(Attribute::int(
                        AttributeKey::RpcJsonrpcErrorCode,
                        e.code().0,
                    )),
                    #[cfg(feature = "grpc")]
                    Some(Binding::Grpc) => span.set_attribute(Attribute::int(
                        AttributeKey::RpcGrpcStatusCode,
                        a2a_proto::GrpcCode::of_kind(kind).0.into(),
                    )),
                    Some(Binding::HttpJson) => span.set_attribute(Attribute::int(
                        AttributeKey::HttpResponseStatusCode,
                        kind.http_status().into(),
                    )),
                    _ => {}
                }
                span.set_error(e.message());
            }
        }
        let answer = match answer {
            Ok(Answer::Stream { first, rest, ids }) => {
                let parent = span.context();
                let mut attributes = vec![Attribute::str(
                    AttributeKey::A2aBinding,
                    binding_label(self.binding),
                )];
                if let Some(d) = decoded {
                    attributes.push(Attribute::str(AttributeKey::RpcMethod, d.operation));
                }
                let task = event_task_id(&first);
                if !task.is_empty() {
                    attributes.push(Attribute::str(AttributeKey::A2aTaskId, task));
                }
                let child = tracer.start(SpanName::Stream, parent.as_ref(), &attributes);
                Ok(Answer::Stream {
                    first,
                    rest: Box::pin(TracedStream {
                        inner: rest,
                        span: Some(Ending(child)),
                        events: 1,
                    }),
                    ids,
                })
            }
            other => other,
        };
        span.end();
        answer
    }
}

/// The task id an answer names.
fn answer_task_id(answer: &Result<Answer, A2aError>) -> Option<&str> {
    match answer {
        Ok(Answer::Unary(Reply::SendMessage(response))) => match response {
            a2a_types::SendMessageResponse::Task(t) => Some(t.id.as_str()),
            a2a_types::SendMessageResponse::Message(m) => Some(m.task_id.as_str()),
        },
        Ok(Answer::Unary(Reply::GetTask(t) | Reply::CancelTask(t))) => Some(t.id.as_str()),
        Ok(Answer::Stream { first, .. }) => Some(event_task_id(first)),
        _ => None,
    }
}

/// A stream whose span ends when its events do, or when it is dropped.
struct TracedStream {
    inner: EventStream,
    span: Option<Ending>,
    events: i64,
}

/// The outcome of a stream that was dropped before its end (the client
/// went away, or the host stopped it).
const DROPPED: &str = "dropped";

impl TracedStream {
    /// Ends the span: the stream ended with `error`, or without one, or it
    /// was `dropped` unfinished.
    fn close(&mut self, error: Option<&A2aError>, dropped: bool) {
        if let Some(mut ending) = self.span.take() {
            ending
                .0
                .set_attribute(Attribute::int(AttributeKey::A2aStreamEvents, self.events));
            let outcome = match error {
                Some(e) => e.kind().name(),
                None if dropped => DROPPED,
                None => "ok",
            };
            ending
                .0
                .set_attribute(Attribute::str(AttributeKey::A2aOutcome, outcome));
            if let Some(e) = error {
                ending
                    .0
                    .set_attribute(Attribute::str(AttributeKey::ErrorType, e.kind().name()));
                ending.0.set_error(e.message());
            }
        }
    }
}

impl Stream for TracedStream {
    type Item = Result<StreamResponse, A2aError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let next = self.inner.as_mut().poll_next(cx);
        match &next {
            Poll::Ready(Some(Ok(_))) => self.events += 1,
            Poll::Ready(Some(Err(e))) => self.close(Some(e), false),
            Poll::Ready(None) => self.close(None, false),
            Poll::Pending => {}
        }
        next
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl Drop for TracedStream {
    fn drop(&mut self) {
        self.close(None, true);
    }
}

#[cfg(test)]
mod tests;
