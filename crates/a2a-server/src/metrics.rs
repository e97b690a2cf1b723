//! Metrics with bounded labels: what a server records of its calls, its
//! streams, its push deliveries and its store, through a host-supplied
//! [`MetricsRecorder`].
//!
//! Every label value comes from a closed set the code names: the
//! operation from the operation table ([`Operation::name`], or
//! `unknown` when the call failed before its request was read), the
//! binding ([`Binding::as_str`], or `custom` for a transport calling
//! [`A2aServer::serve`](crate::A2aServer::serve)), the outcome
//! (`ok`, or the error kind's fixed name from the error table,
//! [`ErrorKind::name`]), a task state's proto name. Tenants, task ids,
//! principals and anything else a caller writes are never labels, so a
//! caller cannot grow the number of series.
//!
//! The core reads no clock: the host gives a [`MonotonicClock`] with the
//! recorder ([`Metrics::new`]), and a call's latency is the difference of
//! two of its readings, from the call's admission to its answer (for a
//! stream, to its first event).
//!
//! Two recorders come with the crate: [`PrometheusRecorder`], which
//! renders the Prometheus text exposition format 0.0.4, and, behind the
//! `opentelemetry-metrics` feature, `OtelRecorder`, over an OpenTelemetry
//! `Meter`.
//!
//! ```
//! use std::sync::Arc;
//! use std::time::Duration;
//! use a2a_server::metrics::{
//!     CallLabels, CallRecord, Metrics, MetricsRecorder, MonotonicClock, Outcome,
//!     PrometheusRecorder,
//! };
//! use a2a_server::{Binding, ServerConfig};
//! use a2a_types::Operation;
//!
//! struct Fixed;
//! impl MonotonicClock for Fixed {
//!     fn now(&self) -> Duration { Duration::ZERO }
//! }
//! let prometheus = Arc::new(PrometheusRecorder::new());
//! let config = ServerConfig::new().with_metrics(Metrics::new(prometheus.clone(), Arc::new(Fixed)));
//! # let _ = config;
//! prometheus.record_call(&CallRecord {
//!     labels: CallLabels { operation: Some(Operation::GetTask), binding: Some(Binding::JsonRpc) },
//!     outcome: Outcome::Ok,
//!     duration: Duration::from_millis(3),
//! });
//! let text = prometheus.render();
//! assert!(text.contains(
//!     r#"a2a_server_calls_total{operation="GetTask",binding="JSONRPC",outcome="ok"} 1"#
//! ));
//! ```

use std::fmt;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_types::{
    A2aError, A2aRequest, ErrorKind, EventStream, Operation, StreamResponse, TaskState,
};
use futures_core::Stream;

use crate::pipeline::Answer;
use a2a_wire::Binding;

#[cfg(feature = "opentelemetry-metrics")]
mod otel;
mod prometheus;

#[cfg(feature = "opentelemetry-metrics")]
pub use otel::OtelRecorder;
pub use prometheus::{PrometheusRecorder, DEFAULT_LATENCY_BUCKETS, PROMETHEUS_CONTENT_TYPE};

/// The label value of a call whose request was never read (refused at
/// authentication or version negotiation).
pub const UNKNOWN_OPERATION: &str = "unknown";

/// The label value of the binding of a call a custom transport drove
/// through [`A2aServer::serve`](crate::A2aServer::serve).
pub const CUSTOM_BINDING: &str = "custom";

/// A host's monotonic clock: the time since an origin of its choosing,
/// which never goes back (`std::time::Instant` on a native host,
/// `performance.now()` in a browser). Only differences are used.
pub trait MonotonicClock: Send + Sync {
    /// The time since the clock's origin.
    fn now(&self) -> Duration;
}

/// The name of `binding` in labels and span attributes: its
/// `protocolBinding`, or [`CUSTOM_BINDING`] for a custom transport.
pub(crate) fn binding_label(binding: Option<Binding>) -> &'static str {
    binding.map_or(CUSTOM_BINDING, Binding::as_str)
}

/// What a call is counted under: operation and binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CallLabels {
    /// The operation; `None` when the call failed before its request was
    /// read ([`UNKNOWN_OPERATION`]).
    pub operation: Option<Operation>,
    /// The binding; `None` for a custom transport ([`CUSTOM_BINDING`]).
    pub binding: Option<Binding>,
}

impl CallLabels {
    /// The operation's label value.
    pub fn operation_label(&self) -> &'static str {
        self.operation.map_or(UNKNOWN_OPERATION, Operation::name)
    }

    /// The binding's label value.
    pub fn binding_label(&self) -> &'static str {
        binding_label(self.binding)
    }
}

/// How a call ended: answered, or with an error of a kind of the error
/// table (spec 5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// Answered (a stream: its first event, or its end, came).
    Ok,
    /// Answered with an error of this kind.
    Error(ErrorKind),
}

impl Outcome {
    /// The outcome of `answer`.
    pub fn of<T>(answer: &Result<T, A2aError>) -> Outcome {
        match answer {
            Ok(_) => Outcome::Ok,
            Err(e) => Outcome::Error(e.kind()),
        }
    }

    /// The label value: `ok`, or the kind's name in the error table
    /// (`TaskNotFoundError`, `UnauthenticatedError`...).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Error(kind) => kind.name(),
        }
    }
}

/// One finished call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallRecord {
    /// Its operation and binding.
    pub labels: CallLabels,
    /// How it ended.
    pub outcome: Outcome,
    /// From its admission to its answer (a stream's first event).
    pub duration: Duration,
}

/// How one push notification ended (spec 4.3.3), after every attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PushOutcome {
    /// The webhook answered 2xx.
    Delivered,
    /// Given up: refused, rejected, or out of attempts.
    Failed,
    /// Skipped because the webhook fell too far behind the task.
    Dropped,
}

impl PushOutcome {
    /// Every outcome.
    pub const ALL: [PushOutcome; 3] = [
        PushOutcome::Delivered,
        PushOutcome::Failed,
        PushOutcome::Dropped,
    ];

    /// The label value: `delivered`, `failed` or `dropped`.
    pub fn as_str(self) -> &'static str {
        match self {
            PushOutcome::Delivered => "delivered",
            PushOutcome::Failed => "failed",
            PushOutcome::Dropped => "dropped",
        }
    }
}

/// One push notification, done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PushRecord {
    /// How it ended.
    pub outcome: PushOutcome,
    /// Attempts made (0 for a dropped one); all but the first are retries.
    pub attempts: u32,
}

impl PushRecord {
    /// The retries among its attempts.
    pub fn retries(&self) -> u32 {
        self.attempts.saturating_sub(1)
    }
}

/// What a task store holds, read when metrics are scraped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoreStats {
    /// Tasks per state, one entry per state of [`TaskState::ALL`].
    pub tasks_by_state: Vec<(TaskState, u64)>,
    /// The estimated bytes the stored tasks weigh.
    pub bytes: u64,
    /// The byte budget the store keeps to, if it has one.
    pub budget_bytes: Option<u64>,
    /// Readers watching a task's changes (streams and push loops).
    pub subscribers: u64,
}

impl StoreStats {
    /// Stats with every state at 0, to be counted into.
    pub fn new() -> StoreStats {
        StoreStats {
            tasks_by_state: TaskState::ALL.iter().map(|s| (*s, 0)).collect(),
            ..StoreStats::default()
        }
    }

    /// Counts one task in `state`.
    pub fn count(&mut self, state: TaskState) {
        if let Some(entry) = self.tasks_by_state.iter_mut().find(|(s, _)| *s == state) {
            entry.1 += 1;
        }
    }
}

/// A store that reports what it holds (the agent kit's in-memory store
/// does); a recorder reads it at scrape time, so the store pays nothing
/// between scrapes.
pub trait StoreStatsSource: Send + Sync {
    /// What it holds now.
    fn store_stats(&self) -> StoreStats;
}

/// Where a server's metrics go. Each method is called on the request's
/// path: an implementation updates counters and returns, without I/O.
pub trait MetricsRecorder: Send + Sync {
    /// A call finished.
    fn record_call(&self, call: &CallRecord);
    /// A streaming answer started (its first event went out).
    fn stream_opened(&self, labels: CallLabels);
    /// A streaming answer ended or was dropped; called once per
    /// [`stream_opened`](Self::stream_opened).
    fn stream_closed(&self, labels: CallLabels);
    /// A push notification is done with.
    fn record_push(&self, push: &PushRecord);
}

/// A recorder and the clock that times calls, as the server takes them
/// ([`ServerConfig::with_metrics`](crate::ServerConfig::with_metrics)).
#[derive(Clone)]
pub struct Metrics {
    recorder: Arc<dyn MetricsRecorder>,
    clock: Arc<dyn MonotonicClock>,
}

impl Metrics {
    /// Metrics into `recorder`, calls timed on `clock`.
    pub fn new(recorder: Arc<dyn MetricsRecorder>, clock: Arc<dyn MonotonicClock>) -> Metrics {
        Metrics { recorder, clock }
    }

    /// The recorder.
    pub fn recorder(&self) -> &Arc<dyn MetricsRecorder> {
        &self.recorder
    }

    /// The clock.
    pub fn clock(&self) -> &Arc<dyn MonotonicClock> {
        &self.clock
    }
}

impl fmt::Debug for Metrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

/// One call being measured by the server: started at admission, told the
/// operation when the request is decoded, finished with the answer.
pub(crate) struct CallMeter<'m> {
    metrics: Option<&'m Metrics>,
    binding: Option<Binding>,
    started: Duration,
    operation: OnceLock<Operation>,
}

impl<'m> CallMeter<'m> {
    /// Starts measuring a call on `binding` (nothing without metrics).
    pub(crate) fn start(metrics: Option<&'m Metrics>, binding: Option<Binding>) -> CallMeter<'m> {
        CallMeter {
            metrics,
            binding,
            started: metrics.map_or(Duration::ZERO, |m| m.clock.now()),
            operation: OnceLock::new(),
        }
    }

    /// `decode`, noting the operation of the request it reads.
    pub(crate) fn decoding<'d, F>(
        &'d self,
        decode: F,
    ) -> impl FnOnce() -> Result<A2aRequest, A2aError> + 'd
    where
        F: FnOnce() -> Result<A2aRequest, A2aError> + 'd,
    {
        move || {
            let request = decode();
            if let Ok(r) = &request {
                let _ = self.operation.set(r.operation());
            }
            request
        }
    }

    /// Records the call and returns its answer, a stream's events counted
    /// in the active-streams gauge until they end or are dropped.
    pub(crate) fn finish(self, answer: Result<Answer, A2aError>) -> Result<Answer, A2aError> {
        let Some(metrics) = self.metrics else {
            return answer;
        };
        let labels = CallLabels {
            operation: self.operation.get().copied(),
            binding: self.binding,
        };
        let duration = metrics.clock.now().saturating_sub(self.started);
        metrics.recorder.record_call(&CallRecord {
            labels,
            outcome: Outcome::of(&answer),
            duration,
        });
        match answer {
            Ok(Answer::Stream { first, rest, ids }) => Ok(Answer::Stream {
                first,
                rest: Box::pin(GaugedStream::new(
                    rest,
                    Arc::clone(&metrics.recorder),
                    labels,
                )),
                ids,
            }),
            other => other,
        }
    }
}

/// A stream counted in the active-streams gauge from its creation until
/// it ends or is dropped, whichever comes first.
struct GaugedStream {
    inner: EventStream,
    open: Option<(Arc<dyn MetricsRecorder>, CallLabels)>,
}

impl GaugedStream {
    fn new(inner: EventStream, recorder: Arc<dyn MetricsRecorder>, labels: CallLabels) -> Self {
        recorder.stream_opened(labels);
        GaugedStream {
            inner,
            open: Some((recorder, labels)),
        }
    }

    fn close(&mut self) {
        if let Some((recorder, labels)) = self.open.take() {
            recorder.stream_closed(labels);
        }
    }
}

impl Stream for GaugedStream {
    type Item = Result<StreamResponse, A2aError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let next = self.inner.as_mut().poll_next(cx);
        if let Poll::Ready(None) = next {
            self.close();
        }
        next
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl Drop for GaugedStream {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Log(Mutex<Vec<String>>);

    impl MetricsRecorder for Log {
        fn record_call(&self, call: &CallRecord) {
            self.0.lock().unwrap().push(format!(
                "call {} {} {} {:?}",
                call.labels.operation_label(),
                call.labels.binding_label(),
                call.outcome.as_str(),
                call.duration
            ));
        }
        fn stream_opened(&self, labels: CallLabels) {
            self.0
                .lock()
                .unwrap()
                .push(format!("open {}", labels.operation_label()));
        }
        fn stream_closed(&self, labels: CallLabels) {
            self.0
                .lock()
                .unwrap()
                .push(format!("close {}", labels.operation_label()));
        }
        fn record_push(&self, _: &PushRecord) {}
    }

    struct Ticks(Mutex<u64>);
    impl MonotonicClock for Ticks {
        fn now(&self) -> Duration {
            let mut t = self.0.lock().unwrap();
            *t += 5;
            Duration::from_millis(*t)
        }
    }

    fn poll(s: &mut EventStream) -> Poll<Option<Result<StreamResponse, A2aError>>> {
        s.as_mut()
            .poll_next(&mut Context::from_waker(std::task::Waker::noop()))
    }

    #[test]
    fn a_call_is_timed_between_two_readings_and_labelled_from_the_tables() {
        let log = Arc::new(Log::default());
        let metrics = Metrics::new(log.clone(), Arc::new(Ticks(Mutex::new(0))));
        let meter = CallMeter::start(Some(&metrics), Some(Binding::Grpc));
        let decode = meter.decoding(|| {
            Ok(A2aRequest::GetTask(a2a_types::GetTaskRequest {
                id: "t-1".into(),
                ..Default::default()
            }))
        });
        decode().unwrap();
        let answer: Result<Answer, A2aError> =
            Err(A2aError::new(ErrorKind::TaskNotFound, "t-1 is not a task"));
        let _ = meter.finish(answer);
        // Started at 5 ms, finished at 10 ms; the task id is in no label.
        assert_eq!(
            *log.0.lock().unwrap(),
            ["call GetTask GRPC TaskNotFoundError 5ms"]
        );
    }

    #[test]
    fn a_call_refused_before_decoding_is_unknown_and_custom() {
        let log = Arc::new(Log::default());
        let metrics = Metrics::new(log.clone(), Arc::new(Ticks(Mutex::new(0))));
        let meter = CallMeter::start(Some(&metrics), None);
        let _ = meter.finish(Err(A2aError::new(ErrorKind::Unauthenticated, "who?")));
        assert_eq!(
            log.0.lock().unwrap()[0],
            "call unknown custom UnauthenticatedError 5ms"
        );
    }

    #[test]
    fn the_stream_gauge_closes_once_at_the_end_or_at_drop() {
        let log = Arc::new(Log::default());
        let metrics = Metrics::new(log.clone(), Arc::new(Ticks(Mutex::new(0))));
        let first = StreamResponse::Task(a2a_types::Task::new("t", "c", TaskState::Working));
        for drop_early in [false, true] {
            log.0.lock().unwrap().clear();
            let meter = CallMeter::start(Some(&metrics), Some(Binding::HttpJson));
            let rest: EventStream = Box::pin(Once(Some(Ok(first.clone()))));
            let answer = meter.finish(Ok(Answer::Stream {
                first: first.clone(),
                rest,
                ids: a2a_wire::EventIds::default(),
            }));
            let Ok(Answer::Stream { mut rest, .. }) = answer else {
                panic!("not a stream")
            };
            if !drop_early {
                assert!(matches!(poll(&mut rest), Poll::Ready(Some(Ok(_)))));
                assert_eq!(log.0.lock().unwrap().len(), 2, "open, not yet closed");
                assert!(matches!(poll(&mut rest), Poll::Ready(None)));
                assert!(matches!(poll(&mut rest), Poll::Ready(None)));
            }
            drop(rest);
            let log = log.0.lock().unwrap();
            assert_eq!(log.iter().filter(|l| l.starts_with("open")).count(), 1);
            assert_eq!(log.iter().filter(|l| l.starts_with("close")).count(), 1);
        }
    }

    #[test]
    fn without_metrics_nothing_is_read_or_wrapped() {
        let meter = CallMeter::start(None, Some(Binding::JsonRpc));
        let answer = meter.finish(Ok(Answer::EmptyStream));
        assert!(matches!(answer, Ok(Answer::EmptyStream)));
    }

    struct Once(Option<Result<StreamResponse, A2aError>>);
    impl Stream for Once {
        type Item = Result<StreamResponse, A2aError>;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            Poll::Ready(self.0.take())
        }
    }
}
