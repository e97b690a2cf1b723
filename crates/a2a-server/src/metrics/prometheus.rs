//! [`PrometheusRecorder`]: the recorder as the Prometheus text exposition
//! format, version 0.0.4 (`# HELP` and `# TYPE` lines, escaped label
//! values, histograms as `_bucket{le=...}`, `_sum` and `_count`).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::{Arc, Mutex, MutexGuard};

use super::{CallLabels, CallRecord, MetricsRecorder, PushOutcome, PushRecord, StoreStatsSource};

/// The `Content-Type` of [`PrometheusRecorder::render`]'s output.
pub const PROMETHEUS_CONTENT_TYPE: &str = "text/plain; version=0.0.4";

/// The default upper bounds of the call latency histogram, in seconds:
/// 1 ms to 10 s (a streaming call is timed to its first event).
pub const DEFAULT_LATENCY_BUCKETS: [f64; 13] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// A [`MetricsRecorder`] that keeps counters in memory and renders them
/// in the Prometheus text format for a scrape; store stats are read from
/// its [`StoreStatsSource`] at each render.
///
/// The series it renders (label values from closed sets, see the
/// [`metrics`](crate::metrics) module):
///
/// | name | type | labels |
/// | --- | --- | --- |
/// | `a2a_server_calls_total` | counter | operation, binding, outcome |
/// | `a2a_server_call_duration_seconds` | histogram | operation, binding |
/// | `a2a_server_active_streams` | gauge | operation, binding |
/// | `a2a_push_deliveries_total` | counter | outcome |
/// | `a2a_push_retries_total` | counter | outcome |
/// | `a2a_store_tasks` | gauge | state |
/// | `a2a_store_bytes` | gauge | |
/// | `a2a_store_budget_bytes` | gauge | |
/// | `a2a_store_subscribers` | gauge | |
pub struct PrometheusRecorder {
    buckets: Vec<f64>,
    state: Mutex<State>,
    store: Option<Arc<dyn StoreStatsSource>>,
}

#[derive(Default)]
struct State {
    calls: BTreeMap<(&'static str, &'static str, &'static str), u64>,
    latency: BTreeMap<(&'static str, &'static str), Histogram>,
    streams: BTreeMap<(&'static str, &'static str), i64>,
    pushes: BTreeMap<&'static str, (u64, u64)>,
}

struct Histogram {
    /// Non-cumulative counts per bucket; one more for `+Inf`.
    counts: Vec<u64>,
    sum: f64,
}

impl PrometheusRecorder {
    /// A recorder with [`DEFAULT_LATENCY_BUCKETS`] and no store.
    pub fn new() -> PrometheusRecorder {
        PrometheusRecorder {
            buckets: DEFAULT_LATENCY_BUCKETS.to_vec(),
            state: Mutex::default(),
            store: None,
        }
    }

    /// The same with the latency histogram's upper bounds, in seconds
    /// (sorted, deduplicated; not-finite values dropped, `+Inf` is always
    /// there).
    pub fn with_buckets(mut self, bounds: impl IntoIterator<Item = f64>) -> PrometheusRecorder {
        let mut bounds: Vec<f64> = bounds.into_iter().filter(|b| b.is_finite()).collect();
        bounds.sort_by(f64::total_cmp);
        bounds.dedup();
        self.buckets = bounds;
        self
    }

    /// The same, with the task store's stats rendered at each scrape.
    pub fn with_store(mut self, store: Arc<dyn StoreStatsSource>) -> PrometheusRecorder {
        self.store = Some(store);
        self
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every update is one assignment: a panic cannot leave it half-done.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The exposition, as [`PROMETHEUS_CONTENT_TYPE`].
    pub fn render(&self) -> String {
        let mut out = String::new();
        {
            let state = self.lock();
            header(
                &mut out,
                "a2a_server_calls_total",
                "counter",
                "A2A calls by operation, binding and outcome.",
            );
            for ((op, binding, outcome), n) in &state.calls {
                sample(
                    &mut out,
                    "a2a_server_calls_total",
                    &[
                        ("operation", op),
                        ("binding", binding),
                        ("outcome", outcome),
                    ],
                    *n as f64,
                );
            }
            header(
                &mut out,
                "a2a_server_call_duration_seconds",
                "histogram",
                "A2A call latency, from admission to the answer (a stream's first event).",
            );
            for ((op, binding), h) in &state.latency {
                let mut cumulative = 0;
                for (i, n) in h.counts.iter().enumerate() {
                    cumulative += n;
                    let le = match self.buckets.get(i) {
                        Some(b) => number(*b),
                        None => "+Inf".to_owned(),
                    };
                    sample(
                        &mut out,
                        "a2a_server_call_duration_seconds_bucket",
                        &[("operation", op), ("binding", binding), ("le", &le)],
                        cumulative as f64,
                    );
                }
                let labels = [("operation", *op), ("binding", *binding)];
                sample(
                    &mut out,
                    "a2a_server_call_duration_seconds_sum",
                    &labels,
                    h.sum,
                );
                sample(
                    &mut out,
                    "a2a_server_call_duration_seconds_count",
                    &labels,
                    cumulative as f64,
                );
            }
            header(
                &mut out,
                "a2a_server_active_streams",
                "gauge",
                "Streaming answers open now.",
            );
            for ((op, binding), n) in &state.streams {
                sample(
                    &mut out,
                    "a2a_server_active_streams",
                    &[("operation", op), ("binding", binding)],
                    *n as f64,
                );
            }
            header(
                &mut out,
                "a2a_push_deliveries_total",
                "counter",
                "Push notifications by how they ended.",
            );
            for outcome in PushOutcome::ALL {
                let n = state.pushes.get(outcome.as_str()).map_or(0, |p| p.0);
                sample(
                    &mut out,
                    "a2a_push_deliveries_total",
                    &[("outcome", outcome.as_str())],
                    n as f64,
                );
            }
            header(
                &mut out,
                "a2a_push_retries_total",
                "counter",
                "Push attempts after the first, by how the notification ended.",
            );
            for outcome in PushOutcome::ALL {
                let n = state.pushes.get(outcome.as_str()).map_or(0, |p| p.1);
                sample(
                    &mut out,
                    "a2a_push_retries_total",
                    &[("outcome", outcome.as_str())],
                    n as f64,
                );
            }
        }
        if let Some(store) = &self.store {
            // Read outside the recorder's lock: the store takes its own.
            let stats = store.store_stats();
            header(
                &mut out,
                "a2a_store_tasks",
                "gauge",
                "Stored tasks by state.",
            );
            for (state, n) in &stats.tasks_by_state {
                sample(
                    &mut out,
                    "a2a_store_tasks",
                    &[("state", state.as_str_name())],
                    *n as f64,
                );
            }
            header(
                &mut out,
                "a2a_store_bytes",
                "gauge",
                "Estimated bytes the stored tasks weigh.",
            );
            sample(&mut out, "a2a_store_bytes", &[], stats.bytes as f64);
            if let Some(budget) = stats.budget_bytes {
                header(
                    &mut out,
                    "a2a_store_budget_bytes",
                    "gauge",
                    "The byte budget of the task store.",
                );
                sample(&mut out, "a2a_store_budget_bytes", &[], budget as f64);
            }
            header(
                &mut out,
                "a2a_store_subscribers",
                "gauge",
                "Readers watching a task (streams and push loops).",
            );
            sample(
                &mut out,
                "a2a_store_subscribers",
                &[],
                stats.subscribers as f64,
            );
        }
        out
    }
}

impl Default for PrometheusRecorder {
    fn default() -> PrometheusRecorder {
        PrometheusRecorder::new()
    }
}

impl std::fmt::Debug for PrometheusRecorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PrometheusRecorder")
            .field("buckets", &self.buckets)
            .field("store", &self.store.is_some())
            .finish_non_exhaustive()
    }
}

impl MetricsRecorder for PrometheusRecorder {
    fn record_call(&self, call: &CallRecord) {
        let (op, binding) = (call.labels.operation_label(), call.labels.binding_label());
        let seconds = call.duration.as_secs_f64();
        let bucket = self
            .buckets
            .iter()
            .position(|b| seconds <= *b)
            .unwrap_or(self.buckets.len());
        let width = self.buckets.len() + 1;
        let mut state = self.lock();
        *state
            .calls
            .entry((op, binding, call.outcome.as_str()))
            .or_default() += 1;
        let h = state
            .latency
            .entry((op, binding))
            .or_insert_with(|| Histogram {
                counts: vec![0; width],
                sum: 0.0,
            });
        h.counts[bucket] += 1;
        h.sum += seconds;
    }

    fn stream_opened(&self, labels: CallLabels) {
        let key = (labels.operation_label(), labels.binding_label());
        *self.lock().streams.entry(key).or_default() += 1;
    }

    fn stream_closed(&self, labels: CallLabels) {
        let key = (labels.operation_label(), labels.binding_label());
        *self.lock().streams.entry(key).or_default() -= 1;
    }

    fn record_push(&self, push: &PushRecord) {
        let mut state = self.lock();
        let entry = state.pushes.entry(push.outcome.as_str()).or_default();
        entry.0 += 1;
        entry.1 += u64::from(push.retries());
    }
}

fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {}", escape_help(help));
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

fn sample(out: &mut String, name: &str, labels: &[(&str, &str)], value: f64) {
    out.push_str(name);
    if !labels.is_empty() {
        out.push('{');
        for (i, (k, v)) in labels.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{k}=\"{}\"", escape_label(v));
        }
        out.push('}');
    }
    let _ = writeln!(out, " {}", number(value));
}

/// A sample value or `le` bound as the format writes it (Go's
/// `strconv.FormatFloat(v, 'g')` spelling of the specials).
fn number(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_owned()
    } else if v == f64::INFINITY {
        "+Inf".to_owned()
    } else if v == f64::NEG_INFINITY {
        "-Inf".to_owned()
    } else {
        format!("{v}")
    }
}

/// A label value: backslash, double quote and line feed escaped.
fn escape_label(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// A `# HELP` text: backslash and line feed escaped.
fn escape_help(v: &str) -> String {
    v.replace('\\', "\\\\").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{CallLabels, Outcome, StoreStats};
    use a2a_types::{ErrorKind, Operation, TaskState};
    use a2a_wire::Binding;
    use std::time::Duration;

    fn call(op: Operation, outcome: Outcome, ms: u64) -> CallRecord {
        CallRecord {
            labels: CallLabels {
                operation: Some(op),
                binding: Some(Binding::HttpJson),
            },
            outcome,
            duration: Duration::from_millis(ms),
        }
    }

    #[test]
    fn escapes_label_values_and_help() {
        assert_eq!(escape_label("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
        assert_eq!(escape_help("a\\b\nc\"d"), "a\\\\b\\nc\"d");
        let mut out = String::new();
        sample(&mut out, "m", &[("k", "x\"y")], 1.5);
        assert_eq!(out, "m{k=\"x\\\"y\"} 1.5\n");
        assert_eq!(number(f64::INFINITY), "+Inf");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(2.0), "2");
    }

    #[test]
    fn histogram_buckets_are_cumulative_and_end_at_inf() {
        let r = PrometheusRecorder::new().with_buckets([0.01, 0.1, f64::NAN, 0.01]);
        r.record_call(&call(Operation::GetTask, Outcome::Ok, 5));
        r.record_call(&call(Operation::GetTask, Outcome::Ok, 50));
        r.record_call(&call(
            Operation::GetTask,
            Outcome::Error(ErrorKind::TaskNotFound),
            500,
        ));
        let text = r.render();
        let l = r#"operation="GetTask",binding="HTTP+JSON""#;
        for want in [
            format!("a2a_server_call_duration_seconds_bucket{{{l},le=\"0.01\"}} 1"),
            format!("a2a_server_call_duration_seconds_bucket{{{l},le=\"0.1\"}} 2"),
            format!("a2a_server_call_duration_seconds_bucket{{{l},le=\"+Inf\"}} 3"),
            format!("a2a_server_call_duration_seconds_count{{{l}}} 3"),
            format!("a2a_server_call_duration_seconds_sum{{{l}}} 0.555"),
            format!("a2a_server_calls_total{{{l},outcome=\"ok\"}} 2"),
            format!("a2a_server_calls_total{{{l},outcome=\"TaskNotFoundError\"}} 1"),
            "# TYPE a2a_server_call_duration_seconds histogram".to_owned(),
        ] {
            assert!(text.lines().any(|line| line == want), "{want}\n{text}");
        }
    }

    #[test]
    fn gauges_pushes_and_store() {
        struct Store;
        impl StoreStatsSource for Store {
            fn store_stats(&self) -> StoreStats {
                let mut s = StoreStats::new();
                s.count(TaskState::Completed);
                s.count(TaskState::Completed);
                s.bytes = 1234;
                s.budget_bytes = Some(4096);
                s
            }
        }
        let r = PrometheusRecorder::new().with_store(Arc::new(Store));
        let labels = call(Operation::SendStreamingMessage, Outcome::Ok, 1).labels;
        r.stream_opened(labels);
        r.stream_opened(labels);
        r.stream_closed(labels);
        r.record_push(&PushRecord {
            outcome: PushOutcome::Delivered,
            attempts: 3,
        });
        let text = r.render();
        for want in [
            r#"a2a_server_active_streams{operation="SendStreamingMessage",binding="HTTP+JSON"} 1"#,
            r#"a2a_push_deliveries_total{outcome="delivered"} 1"#,
            r#"a2a_push_deliveries_total{outcome="failed"} 0"#,
            r#"a2a_push_retries_total{outcome="delivered"} 2"#,
            r#"a2a_store_tasks{state="TASK_STATE_COMPLETED"} 2"#,
            r#"a2a_store_tasks{state="TASK_STATE_WORKING"} 0"#,
            "a2a_store_bytes 1234",
            "a2a_store_budget_bytes 4096",
            "a2a_store_subscribers 0",
        ] {
            assert!(text.lines().any(|line| line == want), "{want}\n{text}");
        }
        // Every family has its HELP and TYPE before its samples.
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let name = line.split(['{', ' ']).next().unwrap();
            let family = ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|s| name.strip_suffix(s))
                .filter(|f| text.contains(&format!("# TYPE {f} histogram")))
                .unwrap_or(name);
            assert!(text.contains(&format!("# TYPE {family} ")), "{family}");
            assert!(text.contains(&format!("# HELP {family} ")), "{family}");
        }
    }
}
