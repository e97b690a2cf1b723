//! [`OtelRecorder`]: the recorder on an OpenTelemetry
//! [`Meter`](opentelemetry::metrics::Meter) (feature
//! `opentelemetry-metrics`).

use std::sync::Arc;

use opentelemetry::metrics::{Counter, Histogram, Meter, UpDownCounter};
use opentelemetry::KeyValue;

use super::{CallLabels, CallRecord, MetricsRecorder, PushRecord, StoreStatsSource};

/// A [`MetricsRecorder`] over an OpenTelemetry `Meter`: counters,
/// a histogram and up/down counters, and observable gauges that read a
/// [`StoreStatsSource`] at each collection.
///
/// Instruments (attributes from closed sets, see the
/// [`metrics`](crate::metrics) module; `rpc.method` and `rpc.system`
/// after the OpenTelemetry semantic conventions for RPC, `rpc.system`
/// being `a2a`):
///
/// | name | instrument | unit | attributes |
/// | --- | --- | --- | --- |
/// | `a2a.server.calls` | counter | `{call}` | rpc.system, rpc.method, a2a.binding, a2a.outcome |
/// | `rpc.server.duration` | histogram | `s` | rpc.system, rpc.method, a2a.binding |
/// | `a2a.server.active_streams` | up/down counter | `{stream}` | rpc.system, rpc.method, a2a.binding |
/// | `a2a.push.deliveries` | counter | `{notification}` | a2a.outcome |
/// | `a2a.push.retries` | counter | `{attempt}` | a2a.outcome |
/// | `a2a.store.tasks` | observable gauge | `{task}` | a2a.task.state |
/// | `a2a.store.bytes` | observable gauge | `By` | |
/// | `a2a.store.budget` | observable gauge | `By` | |
/// | `a2a.store.subscribers` | observable gauge | `{subscriber}` | |
pub struct OtelRecorder {
    calls: Counter<u64>,
    duration: Histogram<f64>,
    streams: UpDownCounter<i64>,
    deliveries: Counter<u64>,
    retries: Counter<u64>,
}

impl OtelRecorder {
    /// The recorder's instruments, made on `meter`.
    pub fn new(meter: &Meter) -> OtelRecorder {
        OtelRecorder {
            calls: meter
                .u64_counter("a2a.server.calls")
                .with_description("A2A calls by operation, binding and outcome.")
                .with_unit("{call}")
                .build(),
            duration: meter
                .f64_histogram("rpc.server.duration")
                .with_description(
                    "A2A call latency, from admission to the answer (a stream's first event).",
                )
                .with_unit("s")
                .with_boundaries(super::DEFAULT_LATENCY_BUCKETS.to_vec())
                .build(),
            streams: meter
                .i64_up_down_counter("a2a.server.active_streams")
                .with_description("Streaming answers open now.")
                .with_unit("{stream}")
                .build(),
            deliveries: meter
                .u64_counter("a2a.push.deliveries")
                .with_description("Push notifications by how they ended.")
                .with_unit("{notification}")
                .build(),
            retries: meter
                .u64_counter("a2a.push.retries")
                .with_description("Push attempts after the first, by how the notification ended.")
                .with_unit("{attempt}")
                .build(),
        }
    }

    /// The same, with observable gauges on `meter` that read `store` at
    /// each collection.
    pub fn with_store(self, meter: &Meter, store: Arc<dyn StoreStatsSource>) -> OtelRecorder {
        let source = Arc::clone(&store);
        meter
            .u64_observable_gauge("a2a.store.tasks")
            .with_description("Stored tasks by state.")
            .with_unit("{task}")
            .with_callback(move |observer| {
                for (state, n) in source.store_stats().tasks_by_state {
                    observer.observe(n, &[KeyValue::new("a2a.task.state", state.as_str_name())]);
                }
            })
            .build();
        let source = Arc::clone(&store);
        meter
            .u64_observable_gauge("a2a.store.bytes")
            .with_description("Estimated bytes the stored tasks weigh.")
            .with_unit("By")
            .with_callback(move |observer| observer.observe(source.store_stats().bytes, &[]))
            .build();
        let source = Arc::clone(&store);
        meter
            .u64_observable_gauge("a2a.store.budget")
            .with_description("The byte budget of the task store.")
            .with_unit("By")
            .with_callback(move |observer| {
                if let Some(budget) = source.store_stats().budget_bytes {
                    observer.observe(budget, &[]);
                }
            })
            .build();
        meter
            .u64_observable_gauge("a2a.store.subscribers")
            .with_description("Readers watching a task (streams and push loops).")
            .with_unit("{subscriber}")
            .with_callback(move |observer| observer.observe(store.store_stats().subscribers, &[]))
            .build();
        self
    }
}

impl std::fmt::Debug for OtelRecorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OtelRecorder").finish_non_exhaustive()
    }
}

fn call_attributes(labels: CallLabels) -> [KeyValue; 3] {
    [
        KeyValue::new("rpc.system", "a2a"),
        KeyValue::new("rpc.method", labels.operation_label()),
        KeyValue::new("a2a.binding", labels.binding_label()),
    ]
}

impl MetricsRecorder for OtelRecorder {
    fn record_call(&self, call: &CallRecord) {
        let [system, method, binding] = call_attributes(call.labels);
        self.duration.record(
            call.duration.as_secs_f64(),
            &[system.clone(), method.clone(), binding.clone()],
        );
        self.calls.add(
            1,
            &[
                system,
                method,
                binding,
                KeyValue::new("a2a.outcome", call.outcome.as_str()),
            ],
        );
    }

    fn stream_opened(&self, labels: CallLabels) {
        self.streams.add(1, &call_attributes(labels));
    }

    fn stream_closed(&self, labels: CallLabels) {
        self.streams.add(-1, &call_attributes(labels));
    }

    fn record_push(&self, push: &PushRecord) {
        let outcome = [KeyValue::new("a2a.outcome", push.outcome.as_str())];
        self.deliveries.add(1, &outcome);
        self.retries.add(u64::from(push.retries()), &outcome);
    }
}
