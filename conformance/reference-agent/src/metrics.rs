//! `--metrics`: the agent's Prometheus recorder, the host clock that times
//! its calls, and the `/metrics` endpoint on the agent's own port.

use std::sync::Arc;
use std::time::{Duration, Instant};

use a2a_agent::InMemoryTaskStore;
use a2a_hyper::ServeOptions;
use a2a_transport::metrics::{PrometheusRecorder, PROMETHEUS_CONTENT_TYPE};

/// Where `--metrics` serves the Prometheus text exposition.
pub const METRICS_PATH: &str = "/metrics";

/// The host's monotonic clock for call latencies: the time since it was
/// made, on `std::time::Instant` (the core reads no clock).
#[derive(Debug, Clone, Copy)]
pub struct InstantClock {
    origin: Instant,
}

impl InstantClock {
    /// A clock whose origin is now.
    pub fn new() -> InstantClock {
        InstantClock {
            origin: Instant::now(),
        }
    }
}

impl Default for InstantClock {
    fn default() -> InstantClock {
        InstantClock::new()
    }
}

impl a2a_transport::metrics::MonotonicClock for InstantClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// The agent's recorder, reading `memory`'s stats at each scrape (a
/// database store reports none: its size is the database's to watch).
pub(crate) fn recorder(memory: Option<&InMemoryTaskStore>) -> PrometheusRecorder {
    let recorder = PrometheusRecorder::new();
    match memory {
        Some(store) => recorder.with_store(Arc::new(store.clone())),
        None => recorder,
    }
}

/// `options` with [`METRICS_PATH`] rendering the agent's `recorder`
/// ([`ReferenceAgent::prometheus`](crate::ReferenceAgent::prometheus)), when
/// it has one; unchanged otherwise (the path then reaches the A2A server,
/// which answers 404).
pub(crate) fn endpoint(
    options: ServeOptions,
    recorder: Option<&Arc<PrometheusRecorder>>,
) -> Result<ServeOptions, String> {
    match recorder {
        Some(recorder) => {
            let recorder = Arc::clone(recorder);
            options.with_rendered(METRICS_PATH, PROMETHEUS_CONTENT_TYPE, move || {
                recorder.render().into()
            })
        }
        None => Ok(options),
    }
}
