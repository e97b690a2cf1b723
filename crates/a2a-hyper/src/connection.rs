//! The connections [`serve`](crate::serve) holds: how many, which are
//! idle, and the task that runs each one until it ends, idles out, is
//! shed for a newer one, or the server shuts down.
//!
//! A connection is idle while it has no request in flight; a request is
//! in flight from the moment hyper hands it to the service until its
//! response body is dropped (written to the end, or abandoned), so an SSE
//! stream keeps its connection busy for as long as it runs.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_transport::Body;
use bytes::Bytes;
use http_body::{Frame, SizeHint};
use tokio::sync::{watch, Notify};
use tokio::time::Instant;

use crate::limits::{Count, ServeStats};

/// How long a connection asked to close gracefully (idle, shed) gets to
/// finish what it is writing before it is dropped.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// What the server asks of every connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Serving.
    Running,
    /// Shutting down: finish open requests, accept no new ones.
    Draining,
    /// The drain timeout passed: close now.
    Abort,
}

/// One connection's state, shared by its task and its requests.
#[derive(Debug)]
pub(crate) struct Conn {
    id: u64,
    in_flight: AtomicUsize,
    /// Microseconds since the registry's epoch of the last request start
    /// or end (or the accept).
    last_active: AtomicU64,
    closing: AtomicBool,
    close: Notify,
    epoch: Instant,
}

impl Conn {
    fn touch(&self) {
        let us = u64::try_from(self.epoch.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.last_active.store(us, Ordering::Release);
    }

    fn idle_since(&self) -> Option<Instant> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        Some(self.epoch + Duration::from_micros(self.last_active.load(Ordering::Acquire)))
    }

    /// Marks a request in flight until the guard is dropped.
    pub(crate) fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.touch();
        InFlight(Arc::clone(self))
    }
}

/// A request in flight on its connection (see the module documentation).
#[derive(Debug)]
pub(crate) struct InFlight(Arc<Conn>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A response body that keeps its request in flight until it is dropped.
pub(crate) struct TrackedBody {
    body: Body,
    _in_flight: InFlight,
}

impl TrackedBody {
    pub(crate) fn new(body: Body, in_flight: InFlight) -> TrackedBody {
        TrackedBody {
            body,
            _in_flight: in_flight,
        }
    }
}

impl http_body::Body for TrackedBody {
    type Data = Bytes;
    type Error = <Body as http_body::Body>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Every open connection of one `serve`.
#[derive(Debug)]
pub(crate) struct Registry {
    conns: Mutex<HashMap<u64, Arc<Conn>>>,
    next_id: AtomicU64,
    epoch: Instant,
    /// Signalled when the last connection ends.
    empty: Notify,
}

impl Registry {
    pub(crate) fn new() -> Registry {
        Registry {
            conns: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
            epoch: Instant::now(),
            empty: Notify::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<u64, Arc<Conn>>> {
        // The map stays consistent through a panic (one insert or remove).
        self.conns.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a new connection, within `max` open ones: when all are
    /// taken, the one idle longest is asked to close ([`Count::Shed`]);
    /// when none is idle, `None` ([`Count::Refused`]).
    pub(crate) fn admit(&self, max: usize, stats: &ServeStats) -> Option<Arc<Conn>> {
        let mut conns = self.lock();
        let open = conns
            .values()
            .filter(|c| !c.closing.load(Ordering::Acquire))
            .count();
        if open >= max {
            let oldest = conns
                .values()
                .filter(|c| !c.closing.load(Ordering::Acquire))
                .filter_map(|c| c.idle_since().map(|t| (t, c)))
                // Idle longest; of equals, accepted first.
                .min_by_key(|(t, c)| (*t, c.id))
                .map(|(_, c)| Arc::clone(c));
            match oldest {
                Some(idle) => {
                    idle.closing.store(true, Ordering::Release);
                    idle.close.notify_one();
                    stats.add(Count::Shed);
                }
                None => {
                    stats.add(Count::Refused);
                    return None;
                }
            }
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn {
            id,
            in_flight: AtomicUsize::new(0),
            last_active: AtomicU64::new(0),
            closing: AtomicBool::new(false),
            close: Notify::new(),
            epoch: self.epoch,
        });
        conn.touch();
        conns.insert(id, Arc::clone(&conn));
        stats.add(Count::Accepted);
        Some(conn)
    }

    fn remove(&self, id: u64) {
        let mut conns = self.lock();
        conns.remove(&id);
        if conns.is_empty() {
            self.empty.notify_waiters();
        }
    }

    /// Waits until no connection is open.
    pub(crate) async fn drained(&self) {
        loop {
            let empty = self.empty.notified();
            if self.lock().is_empty() {
                return;
            }
            empty.await;
        }
    }
}

/// Runs `connection` until it ends, closing it gracefully (with
/// `graceful_shutdown`, hyper's) when it idles past `idle_timeout`, is
/// shed, or the server drains, and dropping it [`CLOSE_GRACE`] after a
/// graceful close it does not finish (or at once when the server aborts).
pub(crate) async fn run<C: Future>(
    connection: C,
    mut graceful_shutdown: impl FnMut(Pin<&mut C>),
    conn: Arc<Conn>,
    registry: Arc<Registry>,
    idle_timeout: Duration,
    mut phase: watch::Receiver<Phase>,
    stats: Arc<ServeStats>,
) {
    let mut connection = std::pin::pin!(connection);
    // When a graceful close was asked for that is not the server's drain
    // (which has its own timeout).
    let mut force_at: Option<Instant> = None;
    let mut draining = false;
    loop {
        let next_idle_check = match conn.idle_since() {
            Some(since) => since + idle_timeout,
            None => Instant::now() + idle_timeout,
        };
        let wake_at = force_at.map_or(next_idle_check, |f| f.min(next_idle_check));
        tokio::select! {
            _ = connection.as_mut() => break,
            () = conn.close.notified(), if force_at.is_none() && !draining => {
                graceful_shutdown(connection.as_mut());
                force_at = Some(Instant::now() + CLOSE_GRACE);
            }
            changed = phase.changed() => {
                let now = if changed.is_ok() { *phase.borrow_and_update() } else { Phase::Abort };
                match now {
                    Phase::Running => {}
                    Phase::Draining if !draining => {
                        draining = true;
                        graceful_shutdown(connection.as_mut());
                    }
                    Phase::Draining => {}
                    Phase::Abort => break,
                }
            }
            () = tokio::time::sleep_until(wake_at) => {
                if force_at.is_some_and(|f| Instant::now() >= f) {
                    break;
                }
                let idled_out = conn
                    .idle_since()
                    .is_some_and(|since| since.elapsed() >= idle_timeout);
                if idled_out && force_at.is_none() && !draining {
                    conn.closing.store(true, Ordering::Release);
                    stats.add(Count::IdleClosed);
                    graceful_shutdown(connection.as_mut());
                    force_at = Some(Instant::now() + CLOSE_GRACE);
                }
            }
        }
    }
    registry.remove(conn.id);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_cap_sheds_the_longest_idle_connection_or_refuses() {
        let registry = Registry::new();
        let stats = ServeStats::default();
        let a = registry.admit(2, &stats).unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        let b = registry.admit(2, &stats).unwrap();
        // Both busy: a third is refused.
        let (ga, gb) = (a.begin(), b.begin());
        assert!(registry.admit(2, &stats).is_none());
        assert_eq!(stats.refused(), 1);
        // b idle, a busy: b is shed for the newcomer.
        drop(gb);
        let c = registry.admit(2, &stats).unwrap();
        assert!(b.closing.load(Ordering::Acquire) && !a.closing.load(Ordering::Acquire));
        assert_eq!(stats.shed(), 1);
        drop((ga, c));
        assert_eq!(stats.accepted(), 3);
    }

    #[test]
    fn a_request_keeps_its_connection_busy_until_its_guard_drops() {
        let registry = Registry::new();
        let conn = registry.admit(1, &ServeStats::default()).unwrap();
        assert!(conn.idle_since().is_some());
        let guard = conn.begin();
        let second = conn.begin();
        assert!(conn.idle_since().is_none());
        drop(guard);
        assert!(conn.idle_since().is_none(), "one still in flight");
        drop(second);
        assert!(conn.idle_since().is_some());
    }
}
