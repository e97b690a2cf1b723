//! [`Timer`]: the host's clock, reduced to a future that completes after
//! a duration. The client's resilient streams wait with it between
//! attempts; the server's keep-alive comments and its linger wait with it
//! too, which is why it lives below both.

use std::time::Duration;

use crate::service::BoxFuture;

/// The host's clock, reduced to what a resilient stream needs: a future
/// that completes after a duration.
///
/// Any `Fn(Duration) -> BoxFuture<'static, ()>` is a timer:
///
/// ```
/// use std::time::Duration;
/// use a2a_wire::{BoxFuture, Timer};
///
/// // With tokio: |d| Box::pin(tokio::time::sleep(d)) as BoxFuture<'static, ()>
/// let immediate = |_: Duration| -> BoxFuture<'static, ()> { Box::pin(async {}) };
/// fn takes(_: impl Timer) {}
/// takes(immediate);
/// ```
pub trait Timer: Send + Sync {
    /// A future that completes after `duration`.
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()>;
}

impl<F> Timer for F
where
    F: Fn(Duration) -> BoxFuture<'static, ()> + Send + Sync,
{
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        self(duration)
    }
}
