//! What the kit's integration tests share: the host's runtime.

use std::time::{Duration, SystemTime};

use a2a_agent::{Clock, Spawn};
use a2a_transport::BoxFuture;

/// The host's runtime: tokio's executor and the system clock.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tokio;

impl Spawn for Tokio {
    fn spawn(&self, future: BoxFuture<'static, ()>) {
        tokio::spawn(future);
    }
}

impl Clock for Tokio {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }

    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(duration))
    }
}
