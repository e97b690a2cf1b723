//! [`TracingTracer`]: the spans as spans of the `tracing` crate.

use tracing::field::Empty;

use super::{Attribute, AttributeValue, Span, SpanKind, SpanName, TraceContext, Tracer};

/// A [`Tracer`] whose spans are `tracing` spans (target
/// `a2a_transport::trace`, level INFO), for a host that already collects
/// `tracing` output.
///
/// Each span carries its W3C ids as the fields `trace_id`, `span_id` and
/// `parent_id` (a call's parent is the caller's `traceparent`), every
/// [`AttributeKey`](super::AttributeKey) as a field of its name, and
/// `otel.name`, `otel.kind`, `otel.status_code` and `otel.status_message`
/// as `tracing-opentelemetry` reads them. Ids are made by
/// [`TraceContext::new_root`] and [`TraceContext::new_child`].
///
/// `tracing`'s own span tree knows nothing of the W3C parent: join spans
/// by `trace_id` and `parent_id`. A host exporting to OpenTelemetry gets
/// the tree as such from `OtelTracer` (feature
/// `opentelemetry-trace`).
#[derive(Debug, Clone, Copy, Default)]
pub struct TracingTracer;

impl TracingTracer {
    /// The tracer.
    pub fn new() -> TracingTracer {
        TracingTracer
    }
}

/// A `tracing` span with every field a2a-core may record declared empty
/// (`tracing` records only declared fields).
macro_rules! a2a_span {
    ($name:literal) => {
        tracing::info_span!(
            target: "a2a_transport::trace",
            $name,
            otel.name = $name,
            otel.kind = Empty,
            otel.status_code = Empty,
            otel.status_message = Empty,
            trace_id = Empty,
            span_id = Empty,
            parent_id = Empty,
            rpc.system = Empty,
            rpc.service = Empty,
            rpc.method = Empty,
            rpc.jsonrpc.version = Empty,
            rpc.jsonrpc.error_code = Empty,
            rpc.grpc.status_code = Empty,
            http.response.status_code = Empty,
            error.type = Empty,
            a2a.binding = Empty,
            a2a.protocol_version = Empty,
            a2a.tenant = Empty,
            a2a.task.id = Empty,
            a2a.context.id = Empty,
            a2a.outcome = Empty,
            a2a.stream.events = Empty,
            a2a.batch.size = Empty,
            a2a.push.config_id = Empty,
            a2a.push.attempts = Empty,
        )
    };
}

impl Tracer for TracingTracer {
    fn start(
        &self,
        name: SpanName,
        parent: Option<&TraceContext>,
        attributes: &[Attribute<'_>],
    ) -> Box<dyn Span> {
        let span = match name {
            SpanName::Call => a2a_span!("a2a.call"),
            SpanName::Stream => a2a_span!("a2a.stream"),
            SpanName::Execute => a2a_span!("a2a.execute"),
            SpanName::Push => a2a_span!("a2a.push"),
        };
        let context = Some(match parent {
            Some(parent) => parent.new_child(),
            None => TraceContext::new_root(true),
        });
        span.record(
            "otel.kind",
            match name.kind() {
                SpanKind::Server => "server",
                SpanKind::Client => "client",
                SpanKind::Internal => "internal",
            },
        );
        if let Some(context) = &context {
            span.record("trace_id", context.trace_id_hex().as_str());
            span.record("span_id", context.span_id_hex().as_str());
        }
        if let Some(parent) = parent {
            span.record("parent_id", parent.span_id_hex().as_str());
        }
        let mut span = TracingSpan {
            span: Some(span),
            context,
        };
        for attribute in attributes {
            span.set_attribute(*attribute);
        }
        Box::new(span)
    }
}

struct TracingSpan {
    span: Option<tracing::Span>,
    context: Option<TraceContext>,
}

impl Span for TracingSpan {
    fn context(&self) -> Option<TraceContext> {
        self.context.clone()
    }

    fn set_attribute(&mut self, attribute: Attribute<'_>) {
        let Some(span) = &self.span else { return };
        let key = attribute.key.as_str();
        match attribute.value {
            AttributeValue::Str(value) => span.record(key, value),
            AttributeValue::Int(value) => span.record(key, value),
        };
    }

    fn set_error(&mut self, message: &str) {
        if let Some(span) = &self.span {
            span.record("otel.status_code", "ERROR");
            span.record("otel.status_message", message);
        }
    }

    fn end(&mut self) {
        self.span = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::AttributeKey;

    #[test]
    fn every_attribute_key_is_a_declared_field() {
        // A span has metadata only under a subscriber that enables it.
        let metadata = {
            struct Any;
            impl tracing::Subscriber for Any {
                fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
                    true
                }
                fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
                    tracing::span::Id::from_u64(1)
                }
                fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
                fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
                fn event(&self, _: &tracing::Event<'_>) {}
                fn enter(&self, _: &tracing::span::Id) {}
                fn exit(&self, _: &tracing::span::Id) {}
            }
            tracing::subscriber::with_default(Any, || {
                a2a_span!("a2a.call").metadata().expect("enabled span")
            })
        };
        for key in AttributeKey::ALL {
            assert!(
                metadata.fields().field(key.as_str()).is_some(),
                "{} is not declared on the tracing span",
                key.as_str()
            );
        }
    }

    #[test]
    fn a_child_keeps_the_trace_and_a_root_gets_a_fresh_one() {
        let parent =
            TraceContext::parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01").unwrap();
        let tracer = TracingTracer::new();
        let child = tracer.start(SpanName::Call, Some(&parent), &[]);
        let context = child.context().expect("W3C ids");
        assert_eq!(context.trace_id(), parent.trace_id());
        assert_ne!(context.span_id(), parent.span_id());
        let a = tracer.start(SpanName::Call, None, &[]).context().unwrap();
        let b = tracer.start(SpanName::Call, None, &[]).context().unwrap();
        assert_ne!(a.trace_id(), b.trace_id());
        assert_ne!(a.span_id(), b.span_id());
    }
}
