//! `OtelRecorder` on the OpenTelemetry SDK with its in-memory exporter:
//! calls made through a real `A2aServer` show up as the instruments the
//! recorder documents, with the attributes from closed sets.
#![cfg(feature = "opentelemetry-metrics")]

use std::sync::Arc;
use std::time::Duration;

use a2a_server::metrics::{
    Metrics, MetricsRecorder, MonotonicClock, OtelRecorder, PushOutcome, PushRecord, StoreStats,
    StoreStatsSource,
};
use a2a_server::{A2aServer, A2aService, ServerConfig};
use a2a_types::TaskState;
use bytes::Bytes;
use opentelemetry::metrics::MeterProvider;
use opentelemetry::KeyValue;
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};

struct Agent;
impl A2aService for Agent {}

/// Each reading 2 ms after the last.
struct Steps(std::sync::Mutex<u64>);
impl MonotonicClock for Steps {
    fn now(&self) -> Duration {
        let mut t = self.0.lock().unwrap();
        *t += 2;
        Duration::from_millis(*t)
    }
}

struct Store;
impl StoreStatsSource for Store {
    fn store_stats(&self) -> StoreStats {
        let mut s = StoreStats::new();
        s.count(TaskState::Working);
        s.bytes = 512;
        s.budget_bytes = Some(1 << 20);
        s.subscribers = 2;
        s
    }
}

fn card() -> a2a_types::AgentCard {
    a2a_types::from_slice(
        br#"{
        "name": "Agent", "description": "d", "version": "1.0.0",
        "supportedInterfaces": [{"url": "http://127.0.0.1/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "http://127.0.0.1", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}],
        "capabilities": {},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "s", "description": "s", "tags": ["t"]}]
    }"#,
    )
    .unwrap()
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn attrs<'a>(it: impl Iterator<Item = &'a KeyValue>) -> Vec<(String, String)> {
    let mut v: Vec<_> = it
        .map(|kv| (kv.key.to_string(), kv.value.to_string()))
        .collect();
    v.sort();
    v
}

fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<_> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    v.sort();
    v
}

#[test]
fn calls_pushes_and_store_reach_the_sdk() {
    let exporter = InMemoryMetricExporter::default();
    let provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(exporter.clone()).build())
        .build();
    let meter = provider.meter("a2a-transport-test");
    let recorder = Arc::new(OtelRecorder::new(&meter).with_store(&meter, Arc::new(Store)));
    let metrics = Metrics::new(recorder.clone(), Arc::new(Steps(Default::default())));
    let server = A2aServer::new(Agent, card(), ServerConfig::new().with_metrics(metrics)).unwrap();

    // JSON-RPC GetTask twice (the default service answers
    // UnsupportedOperationError); HTTP+JSON GetTask once, for a task id
    // that must not become a label.
    for _ in 0..2 {
        let request = http::Request::post("/")
            .header("content-type", "application/json")
            .header("a2a-version", "1.0")
            .body(Bytes::from_static(
                br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"secret-task"}}"#,
            ))
            .unwrap();
        block_on(server.handle(request));
    }
    let request = http::Request::get("/tasks/secret-task")
        .header("a2a-version", "1.0")
        .body(Bytes::new())
        .unwrap();
    assert_eq!(block_on(server.handle(request)).status(), 400);
    recorder.record_push(&PushRecord {
        outcome: PushOutcome::Delivered,
        attempts: 3,
    });

    provider.force_flush().unwrap();
    let finished = exporter.get_finished_metrics().unwrap();
    let metrics: Vec<_> = finished
        .iter()
        .flat_map(|r| r.scope_metrics())
        .flat_map(|s| s.metrics())
        .collect();
    let find = |name: &str| {
        metrics
            .iter()
            .rev()
            .find(|m| m.name() == name)
            .unwrap_or_else(|| panic!("no {name}"))
    };

    let AggregatedMetrics::U64(MetricData::Sum(calls)) = find("a2a.server.calls").data() else {
        panic!("a2a.server.calls is not a u64 sum")
    };
    let mut seen: Vec<_> = calls
        .data_points()
        .map(|p| (attrs(p.attributes()), p.value()))
        .collect();
    seen.sort();
    let call = |binding: &str| {
        kv(&[
            ("rpc.system", "a2a"),
            ("rpc.method", "GetTask"),
            ("a2a.binding", binding),
            ("a2a.outcome", "UnsupportedOperationError"),
        ])
    };
    let mut want = vec![(call("HTTP+JSON"), 1), (call("JSONRPC"), 2)];
    want.sort();
    assert_eq!(seen, want);

    let duration = find("rpc.server.duration");
    assert_eq!(duration.unit(), "s");
    let AggregatedMetrics::F64(MetricData::Histogram(h)) = duration.data() else {
        panic!("rpc.server.duration is not an f64 histogram")
    };
    let jsonrpc = h
        .data_points()
        .find(|p| attrs(p.attributes()).iter().any(|(_, v)| v == "JSONRPC"))
        .unwrap();
    assert_eq!(jsonrpc.count(), 2);
    // Each call read the clock twice, 2 ms apart.
    assert!((jsonrpc.sum() - 0.004).abs() < 1e-9, "{}", jsonrpc.sum());

    let AggregatedMetrics::U64(MetricData::Sum(retries)) = find("a2a.push.retries").data() else {
        panic!("a2a.push.retries is not a u64 sum")
    };
    let p = retries.data_points().next().unwrap();
    assert_eq!(p.value(), 2);
    assert_eq!(attrs(p.attributes()), kv(&[("a2a.outcome", "delivered")]));

    let AggregatedMetrics::U64(MetricData::Gauge(tasks)) = find("a2a.store.tasks").data() else {
        panic!("a2a.store.tasks is not a u64 gauge")
    };
    let working = tasks
        .data_points()
        .find(|p| attrs(p.attributes()) == kv(&[("a2a.task.state", "TASK_STATE_WORKING")]))
        .unwrap();
    assert_eq!(working.value(), 1);
    assert_eq!(tasks.data_points().count(), TaskState::ALL.len());
    let AggregatedMetrics::U64(MetricData::Gauge(bytes)) = find("a2a.store.bytes").data() else {
        panic!("a2a.store.bytes is not a u64 gauge")
    };
    assert_eq!(bytes.data_points().next().unwrap().value(), 512);

    // No attribute value anywhere is the task id the caller sent.
    let debug = format!("{finished:?}");
    assert!(!debug.contains("secret-task"), "{debug}");
}
