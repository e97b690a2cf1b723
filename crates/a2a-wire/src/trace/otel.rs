//! [`OtelTracer`]: the spans on an OpenTelemetry `Tracer`.

use std::fmt;

use opentelemetry::trace::{
    SpanBuilder, SpanContext, SpanId, Status, TraceContextExt, TraceFlags, TraceId, TraceState,
};
use opentelemetry::{Context, KeyValue};

use super::{Attribute, AttributeValue, Span, SpanKind, SpanName, TraceContext, Tracer};

/// A [`Tracer`] on an OpenTelemetry tracer (`opentelemetry::trace::Tracer`,
/// for example the SDK's `SdkTracer`, or `global::tracer("a2a")`).
///
/// A span whose parent is a [`TraceContext`] is started under that
/// context as a remote span context (OpenTelemetry has no other way to
/// take a parent by its ids), so a caller's span and the call's span form
/// one trace, and the kit's spans hang below the call's.
pub struct OtelTracer<T> {
    tracer: T,
}

impl<T> OtelTracer<T> {
    /// Spans on `tracer`.
    pub fn new(tracer: T) -> OtelTracer<T> {
        OtelTracer { tracer }
    }
}

impl<T> fmt::Debug for OtelTracer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OtelTracer").finish_non_exhaustive()
    }
}

impl<T> Tracer for OtelTracer<T>
where
    T: opentelemetry::trace::Tracer + Send + Sync,
    T::Span: Send + Sync + 'static,
{
    fn start(
        &self,
        name: SpanName,
        parent: Option<&TraceContext>,
        attributes: &[Attribute<'_>],
    ) -> Box<dyn Span> {
        let parent_cx = match parent {
            Some(p) => Context::new().with_remote_span_context(SpanContext::new(
                TraceId::from_bytes(p.trace_id()),
                SpanId::from_bytes(p.span_id()),
                TraceFlags::new(p.flags()),
                true,
                p.tracestate()
                    .and_then(|s| s.parse::<TraceState>().ok())
                    .unwrap_or_default(),
            )),
            None => Context::new(),
        };
        let builder = SpanBuilder::from_name(name.as_str())
            .with_kind(match name.kind() {
                SpanKind::Server => opentelemetry::trace::SpanKind::Server,
                SpanKind::Client => opentelemetry::trace::SpanKind::Client,
                SpanKind::Internal => opentelemetry::trace::SpanKind::Internal,
            })
            .with_attributes(attributes.iter().map(key_value));
        Box::new(OtelSpan(
            self.tracer.build_with_context(builder, &parent_cx),
        ))
    }
}

fn key_value(attribute: &Attribute<'_>) -> KeyValue {
    let key = attribute.key.as_str();
    match attribute.value {
        AttributeValue::Str(value) => KeyValue::new(key, value.to_owned()),
        AttributeValue::Int(value) => KeyValue::new(key, value),
    }
}

struct OtelSpan<S>(S);

impl<S: opentelemetry::trace::Span + Send + Sync> Span for OtelSpan<S> {
    fn context(&self) -> Option<TraceContext> {
        let cx = self.0.span_context();
        if !cx.is_valid() {
            return None;
        }
        let context = TraceContext::new(
            cx.trace_id().to_bytes(),
            cx.span_id().to_bytes(),
            cx.is_sampled(),
        )?;
        let state = cx.trace_state().header();
        Some(if state.is_empty() {
            context
        } else {
            context.with_tracestate(&state)
        })
    }

    fn set_attribute(&mut self, attribute: Attribute<'_>) {
        self.0.set_attribute(key_value(&attribute));
    }

    fn set_error(&mut self, message: &str) {
        self.0.set_status(Status::error(message.to_owned()));
    }

    fn end(&mut self) {
        self.0.end();
    }
}
