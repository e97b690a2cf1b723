//! What the host lends the kit: a way to run work in the background and a
//! clock. The kit never starts a thread, reads the system time or sleeps
//! on its own, so it runs on any executor (tokio through
//! `a2a_hyper::TokioRuntime`, or a host's own) and tests can drive time.

use std::time::{Duration, SystemTime};

use a2a_transport::BoxFuture;
use a2a_types::Timestamp;

/// Runs futures in the background: an executor's work, push deliveries
/// and timers the handler sets.
pub trait Spawn: Send + Sync + 'static {
    /// Starts `future`; it runs to its end without being awaited.
    fn spawn(&self, future: BoxFuture<'static, ()>);
}

/// The host's clock: wall time for status timestamps (spec 5.6.1) and
/// expiry, and timers for pauses, retries and timeouts.
pub trait Clock: Send + Sync + 'static {
    /// The current wall-clock time.
    fn now(&self) -> SystemTime;
    /// A future that completes after `duration`.
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()>;
}

/// A runtime is both: what [`AgentHandler`](crate::AgentHandler) takes.
pub trait Runtime: Spawn + Clock {}

impl<T: Spawn + Clock> Runtime for T {}

/// `clock`'s time at the millisecond precision of the wire (spec 5.6.1),
/// so that what clients see is what the store sorts and filters on.
pub(crate) fn timestamp(clock: &dyn Clock) -> Timestamp {
    Timestamp::try_from(clock.now())
        .unwrap_or(Timestamp::UNIX_EPOCH)
        .truncated_to_millis()
}
