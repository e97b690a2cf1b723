//! [`TokioRuntime`]: the agent kit's runtime on tokio.

use std::time::{Duration, SystemTime};

use a2a_agent::{Clock, Spawn};
use a2a_transport::BoxFuture;

/// The [`a2a_agent::Runtime`] of a tokio host: work spawned on the current
/// tokio runtime, the system clock, tokio's timers.
///
/// Spawning needs a runtime: the handler spawns from within the calls it
/// serves, which run on one.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioRuntime;

impl Spawn for TokioRuntime {
    fn spawn(&self, future: BoxFuture<'static, ()>) {
        tokio::spawn(future);
    }
}

impl Clock for TokioRuntime {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }

    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(duration))
    }
}
