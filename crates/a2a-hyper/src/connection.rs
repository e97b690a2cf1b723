//! The connections [`serve`](crate::serve) holds: how many (in all and
//! per peer), which may be shed for a newcomer, and the task that runs
//! each one until it ends, idles out, is shed, cuts a response its client
//! stopped reading, or the server shuts down.
//!
//! A connection is idle while it has no request in flight; a request is
//! in flight from the moment hyper hands it to the service until its
//! response body is dropped (written to the end, or abandoned), so an SSE
//! stream keeps its connection busy for as long as it runs. A busy
//! connection whose requests all have their responses under way (streams,
//! answers being written) may still be shed at the cap, after every idle
//! one: the one whose last event is oldest.
//!
//! A response waits for its client when hyper has taken a frame from it
//! and not come back for the next: hyper stops polling a body while the
//! socket's buffer is full (HTTP/1.1) or the stream has no flow-control
//! window (HTTP/2). Such a response is cut after the write timeout. Over
//! HTTP/2 each stream runs in its own task, spawned through
//! [`StreamExecutor`], which lets the stream's body find its task and the
//! connection abort that task alone: h2 then resets the stream
//! (`RST_STREAM(CANCEL)`). Over HTTP/1.1 the connection is closed.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_transport::Body;
use bytes::Bytes;
use http_body::{Frame, SizeHint};
use tokio::sync::{watch, Notify};
use tokio::task::AbortHandle;
use tokio::time::Instant;

use crate::limits::{Count, HostLimits, ServeStats};

/// How long a connection asked to close gracefully (idle, shed) gets to
/// finish what it is writing before it is dropped.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// The SSE keep-alive comment (`a2a_transport::server::keep_alive_frame`):
/// not an event, so it does not count as a stream's progress.
const KEEP_ALIVE: &[u8] = b": keep-alive\n";

/// A response that is not waiting for its client.
const NOT_WAITING: u64 = u64::MAX;

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

/// What one peer (IP address) holds over all its connections.
#[derive(Debug, Default)]
pub(crate) struct Peer {
    /// Requests in flight.
    requests: AtomicUsize,
    /// Bytes of request bodies counted while they arrive.
    pub(crate) body_bytes: AtomicUsize,
}

/// One connection's state, shared by its task and its requests.
#[derive(Debug)]
pub(crate) struct Conn {
    id: u64,
    ip: IpAddr,
    peer: Arc<Peer>,
    in_flight: AtomicUsize,
    /// Requests in flight whose response body exists.
    responding: AtomicUsize,
    /// Microseconds since the registry's epoch of the last request start
    /// or end (or the accept).
    last_active: AtomicU64,
    /// Microseconds since the epoch of the last event a response of this
    /// connection gave (or a response's start).
    last_event: AtomicU64,
    /// The responses being written.
    responses: Mutex<Vec<Arc<Writing>>>,
    closing: AtomicBool,
    /// Close without the grace: a shed connection's streams never finish.
    close_now: AtomicBool,
    close: Notify,
    epoch: Instant,
}

impl Conn {
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_micros()).unwrap_or(u64::MAX - 1)
    }

    fn at(&self, us: u64) -> Instant {
        self.epoch + Duration::from_micros(us)
    }

    fn touch(&self) {
        self.last_active.store(self.now(), Ordering::Release);
    }

    fn idle_since(&self) -> Option<Instant> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        Some(self.at(self.last_active.load(Ordering::Acquire)))
    }

    /// When its last event was, if every request in flight has its
    /// response under way (so that shedding it cuts no answer being made).
    fn streaming_since(&self) -> Option<Instant> {
        let in_flight = self.in_flight.load(Ordering::Acquire);
        let responding = self.responding.load(Ordering::Acquire);
        (in_flight > 0 && responding >= in_flight)
            .then(|| self.at(self.last_event.load(Ordering::Acquire)))
    }

    /// Marks a request in flight until the guard is dropped.
    pub(crate) fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.peer.requests.fetch_add(1, Ordering::AcqRel);
        self.touch();
        InFlight(Arc::clone(self))
    }

    /// The peer's shared counters.
    pub(crate) fn peer(&self) -> &Arc<Peer> {
        &self.peer
    }

    fn lock_responses(&self) -> MutexGuard<'_, Vec<Arc<Writing>>> {
        self.responses.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A request in flight on its connection (see the module documentation).
#[derive(Debug)]
pub(crate) struct InFlight(Arc<Conn>);

impl InFlight {
    /// Requests the peer has in flight, this one included.
    pub(crate) fn peer_requests(&self) -> usize {
        self.0.peer.requests.load(Ordering::Acquire)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.peer.requests.fetch_sub(1, Ordering::AcqRel);
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A response being written: whether hyper took a frame and has not come
/// back for the next, and the HTTP/2 stream task that writes it.
#[derive(Debug)]
pub(crate) struct Writing {
    /// Microseconds since the epoch when hyper took the frame it is still
    /// writing, or [`NOT_WAITING`].
    handed_at: AtomicU64,
    task: Option<Arc<StreamTask>>,
}

/// A response body that keeps its request in flight until it is dropped
/// and tells its connection when it waits for the client.
pub(crate) struct TrackedBody {
    body: Body,
    writing: Arc<Writing>,
    /// Whether `writing.handed_at` is set.
    handed: bool,
    in_flight: InFlight,
}

impl TrackedBody {
    pub(crate) fn new(body: Body, in_flight: InFlight) -> TrackedBody {
        let conn = &in_flight.0;
        let writing = Arc::new(Writing {
            handed_at: AtomicU64::new(NOT_WAITING),
            // Set when this runs in an HTTP/2 stream's task.
            task: CURRENT_STREAM.with(|c| c.borrow().clone()),
        });
        conn.lock_responses().push(Arc::clone(&writing));
        conn.last_event.store(conn.now(), Ordering::Release);
        conn.responding.fetch_add(1, Ordering::AcqRel);
        TrackedBody {
            body,
            writing,
            handed: false,
            in_flight,
        }
    }
}

impl Drop for TrackedBody {
    fn drop(&mut self) {
        let conn = &self.in_flight.0;
        conn.lock_responses()
            .retain(|w| !Arc::ptr_eq(w, &self.writing));
        conn.responding.fetch_sub(1, Ordering::AcqRel);
    }
}

impl http_body::Body for TrackedBody {
    type Data = Bytes;
    type Error = <Body as http_body::Body>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        let polled = Pin::new(&mut this.body).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                // Hyper has it; until it polls again, the client holds it up.
                let conn = &this.in_flight.0;
                let now = conn.now();
                this.writing.handed_at.store(now, Ordering::Release);
                this.handed = true;
                if frame.data_ref().is_none_or(|d| &d[..] != KEEP_ALIVE) {
                    conn.last_event.store(now, Ordering::Release);
                }
            }
            _ if this.handed => {
                this.writing.handed_at.store(NOT_WAITING, Ordering::Release);
                this.handed = false;
            }
            _ => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The task of one HTTP/2 stream, so that a response stuck on its client
/// can be cut alone.
#[derive(Debug, Default)]
pub(crate) struct StreamTask(OnceLock<AbortHandle>);

thread_local! {
    /// The stream task being polled on this thread, if any.
    static CURRENT_STREAM: RefCell<Option<Arc<StreamTask>>> = const { RefCell::new(None) };
}

/// hyper's executor for HTTP/2 stream tasks: tokio's, each task knowing
/// its [`StreamTask`] while it runs (see the module documentation).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct StreamExecutor;

impl<F> hyper::rt::Executor<F> for StreamExecutor
where
    F: Future<Output = ()> + Send + 'static,
{
    fn execute(&self, future: F) {
        let task = Arc::new(StreamTask::default());
        let handle = tokio::spawn(InStream {
            future: Box::pin(future),
            task: Arc::clone(&task),
        });
        let _ = task.0.set(handle.abort_handle());
    }
}

/// A stream task's future, its [`StreamTask`] current while it is polled.
struct InStream<F> {
    future: Pin<Box<F>>,
    task: Arc<StreamTask>,
}

impl<F: Future<Output = ()>> Future for InStream<F> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        /// Puts the previous stream back, even through a panic.
        struct Restore(Option<Arc<StreamTask>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CURRENT_STREAM.with(|c| *c.borrow_mut() = previous);
            }
        }
        let current = Some(Arc::clone(&self.task));
        let _restore = Restore(CURRENT_STREAM.with(|c| c.replace(current)));
        self.future.as_mut().poll(cx)
    }
}

/// How many connections are open (not closing), in all and by peer.
#[derive(Debug, Default)]
struct Conns {
    map: HashMap<u64, Arc<Conn>>,
    open: usize,
    peers: HashMap<IpAddr, PeerEntry>,
}

#[derive(Debug)]
struct PeerEntry {
    /// Connections not closing.
    open: usize,
    /// Connections registered, closing or not.
    registered: usize,
    peer: Arc<Peer>,
}

impl Conns {
    /// Marks `conn` closing (once), out of the counts.
    fn mark_closing(&mut self, conn: &Conn) -> bool {
        if conn.closing.swap(true, Ordering::AcqRel) {
            return false;
        }
        self.open -= 1;
        if let Some(entry) = self.peers.get_mut(&conn.ip) {
            entry.open -= 1;
        }
        true
    }

    /// The connection to shed (of `ip` only, if given): the idle longest,
    /// else the one streaming with the oldest last event; of equals, the
    /// one accepted first. The bool says whether it is streaming.
    fn victim(&self, ip: Option<IpAddr>) -> Option<(Arc<Conn>, bool)> {
        let candidates = || {
            self.map
                .values()
                .filter(move |c| ip.is_none_or(|ip| c.ip == ip))
                .filter(|c| !c.closing.load(Ordering::Acquire))
        };
        let idle = candidates()
            .filter_map(|c| c.idle_since().map(|t| (t, c)))
            .min_by_key(|(t, c)| (*t, c.id));
        if let Some((_, c)) = idle {
            return Some((Arc::clone(c), false));
        }
        candidates()
            .filter_map(|c| c.streaming_since().map(|t| (t, c)))
            .min_by_key(|(t, c)| (*t, c.id))
            .map(|(_, c)| (Arc::clone(c), true))
    }
}

/// Every open connection of one `serve`.
#[derive(Debug)]
pub(crate) struct Registry {
    conns: Mutex<Conns>,
    next_id: AtomicU64,
    epoch: Instant,
    /// Signalled when the last connection ends.
    empty: Notify,
}

impl Registry {
    pub(crate) fn new() -> Registry {
        Registry {
            conns: Mutex::new(Conns::default()),
            next_id: AtomicU64::new(0),
            epoch: Instant::now(),
            empty: Notify::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Conns> {
        // The counts stay consistent through a panic (no user code runs
        // under the lock).
        self.conns.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a new connection from `ip` within the limits'
    /// `max_connections_per_peer` and `max_connections`: when the peer's
    /// or all are taken, one (the peer's, or any) is asked to close, idle
    /// ones first ([`Count::Shed`]), then streaming ones
    /// ([`Count::StreamShed`]); when none may be shed, `None`
    /// ([`Count::Refused`]).
    pub(crate) fn admit(
        &self,
        ip: IpAddr,
        limits: &HostLimits,
        stats: &ServeStats,
    ) -> Option<Arc<Conn>> {
        let mut conns = self.lock();
        let peer_open = conns.peers.get(&ip).map_or(0, |e| e.open);
        let full = if peer_open >= limits.max_connections_per_peer {
            Some(Some(ip))
        } else if conns.open >= limits.max_connections {
            Some(None)
        } else {
            None
        };
        if let Some(among) = full {
            let Some((victim, streaming)) = conns.victim(among) else {
                stats.add(Count::Refused);
                return None;
            };
            conns.mark_closing(&victim);
            victim.close_now.store(streaming, Ordering::Release);
            victim.close.notify_one();
            stats.add(if streaming {
                Count::StreamShed
            } else {
                Count::Shed
            });
        }
        let entry = conns.peers.entry(ip).or_insert_with(|| PeerEntry {
            open: 0,
            registered: 0,
            peer: Arc::default(),
        });
        entry.open += 1;
        entry.registered += 1;
        let peer = Arc::clone(&entry.peer);
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn {
            id,
            ip,
            peer,
            in_flight: AtomicUsize::new(0),
            responding: AtomicUsize::new(0),
            last_active: AtomicU64::new(0),
            last_event: AtomicU64::new(0),
            responses: Mutex::new(Vec::new()),
            closing: AtomicBool::new(false),
            close_now: AtomicBool::new(false),
            close: Notify::new(),
            epoch: self.epoch,
        });
        conn.touch();
        conns.open += 1;
        conns.map.insert(id, Arc::clone(&conn));
        stats.add(Count::Accepted);
        Some(conn)
    }

    /// Marks `conn` closing, out of the caps' counts; false if it was.
    fn mark_closing(&self, conn: &Conn) -> bool {
        self.lock().mark_closing(conn)
    }

    fn remove(&self, conn: &Conn) {
        let mut conns = self.lock();
        conns.mark_closing(conn);
        conns.map.remove(&conn.id);
        if let Some(entry) = conns.peers.get_mut(&conn.ip) {
            entry.registered -= 1;
            if entry.registered == 0 {
                conns.peers.remove(&conn.ip);
            }
        }
        if conns.map.is_empty() {
            self.empty.notify_waiters();
        }
    }

    /// Waits until no connection is open.
    pub(crate) async fn drained(&self) {
        loop {
            let empty = self.empty.notified();
            if self.lock().map.is_empty() {
                return;
            }
            empty.await;
        }
    }
}

/// What the connection task found of the responses waiting for their
/// client: whether one must be cut by closing the connection, and when to
/// look again.
fn check_writes(conn: &Conn, write_timeout: Duration, stats: &ServeStats) -> (bool, Instant) {
    let now = Instant::now();
    let mut next = now + write_timeout / 4;
    let mut close = false;
    let mut responses = conn.lock_responses();
    responses.retain(|w| {
        let at = w.handed_at.load(Ordering::Acquire);
        if at == NOT_WAITING {
            return true;
        }
        let due = conn.at(at) + write_timeout;
        if due > now {
            next = next.min(due);
            return true;
        }
        stats.add(Count::WriteTimedOut);
        // An HTTP/2 stream is reset alone; else the connection goes.
        match w.task.as_ref().and_then(|t| t.0.get()) {
            Some(task) => task.abort(),
            None => close = true,
        }
        false
    });
    (close, next)
}

/// Runs `connection` until it ends, closing it gracefully (with
/// `graceful_shutdown`, hyper's) when it idles past the idle timeout, is
/// shed, or the server drains, and dropping it [`CLOSE_GRACE`] after a
/// graceful close it does not finish (or at once when the server aborts,
/// when it was shed with its streams, or when a response on it waited for
/// its client past the write timeout without a stream task to cut alone).
pub(crate) async fn run<C: Future>(
    connection: C,
    mut graceful_shutdown: impl FnMut(Pin<&mut C>),
    conn: Arc<Conn>,
    registry: Arc<Registry>,
    limits: HostLimits,
    mut phase: watch::Receiver<Phase>,
    stats: Arc<ServeStats>,
) {
    let (idle_timeout, write_timeout) = (limits.idle_timeout, limits.write_timeout);
    let mut connection = std::pin::pin!(connection);
    // When a graceful close was asked for that is not the server's drain
    // (which has its own timeout).
    let mut force_at: Option<Instant> = None;
    let mut draining = false;
    // Nothing wakes this task when a response begins (telling it would
    // cost every request a wake-up), so responses are looked at on a
    // steady tick, a quarter of the write timeout.
    let mut write_check = Instant::now() + write_timeout / 4;
    loop {
        let next_idle_check = match conn.idle_since() {
            Some(since) => since + idle_timeout,
            None => Instant::now() + idle_timeout,
        };
        let wake_at = force_at
            .map_or(next_idle_check, |f| f.min(next_idle_check))
            .min(write_check);
        tokio::select! {
            _ = connection.as_mut() => break,
            () = conn.close.notified(), if force_at.is_none() && !draining => {
                if conn.close_now.load(Ordering::Acquire) {
                    break;
                }
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
                if Instant::now() >= write_check {
                    let (close, next) = check_writes(&conn, write_timeout, &stats);
                    if close {
                        break;
                    }
                    write_check = next;
                }
                let idled_out = conn
                    .idle_since()
                    .is_some_and(|since| since.elapsed() >= idle_timeout);
                if idled_out && force_at.is_none() && !draining && registry.mark_closing(&conn) {
                    stats.add(Count::IdleClosed);
                    graceful_shutdown(connection.as_mut());
                    force_at = Some(Instant::now() + CLOSE_GRACE);
                }
            }
        }
    }
    registry.remove(&conn);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    const A: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1));
    const B: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

    fn cap(all: usize, per_peer: usize) -> HostLimits {
        HostLimits::default()
            .with_max_connections(all)
            .with_max_connections_per_peer(per_peer)
    }

    #[tokio::test]
    async fn the_cap_sheds_the_longest_idle_connection_or_refuses() {
        let registry = Registry::new();
        let stats = ServeStats::default();
        let limits = cap(2, 2);
        let a = registry.admit(A, &limits, &stats).unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        let b = registry.admit(A, &limits, &stats).unwrap();
        // Both waiting for answers: a third is refused.
        let (ga, gb) = (a.begin(), b.begin());
        assert!(registry.admit(A, &limits, &stats).is_none());
        assert_eq!(stats.refused(), 1);
        // b idle, a busy: b is shed for the newcomer.
        drop(gb);
        let c = registry.admit(A, &limits, &stats).unwrap();
        assert!(b.closing.load(Ordering::Acquire) && !a.closing.load(Ordering::Acquire));
        assert!(
            !b.close_now.load(Ordering::Acquire),
            "an idle one closes gracefully"
        );
        assert_eq!(stats.shed(), 1);
        drop((ga, c));
        assert_eq!(stats.accepted(), 3);
    }

    #[tokio::test]
    async fn streams_are_shed_after_idle_connections_the_quietest_first() {
        let registry = Registry::new();
        let stats = ServeStats::default();
        let limits = cap(3, 3);
        let quiet = registry.admit(A, &limits, &stats).unwrap();
        let lively = registry.admit(A, &limits, &stats).unwrap();
        let waiting = registry.admit(A, &limits, &stats).unwrap();
        let _quiet = TrackedBody::new(Body::empty(), quiet.begin());
        tokio::time::sleep(Duration::from_millis(5)).await;
        let _lively = TrackedBody::new(Body::empty(), lively.begin());
        // A request whose answer is still being made is never shed.
        let _waiting = waiting.begin();
        let d = registry.admit(A, &limits, &stats).unwrap();
        assert!(quiet.closing.load(Ordering::Acquire) && quiet.close_now.load(Ordering::Acquire));
        assert_eq!((stats.streams_shed(), stats.shed()), (1, 0));
        // An idle connection goes before any stream.
        let e = {
            let _busy = d.begin();
            drop(_busy);
            registry.admit(A, &limits, &stats).unwrap()
        };
        assert!(d.closing.load(Ordering::Acquire) && !lively.closing.load(Ordering::Acquire));
        assert_eq!(stats.shed(), 1);
        let _e = TrackedBody::new(Body::empty(), e.begin());
        assert!(registry.admit(A, &limits, &stats).is_some());
        assert!(lively.closing.load(Ordering::Acquire));
        assert!(!waiting.closing.load(Ordering::Acquire));
    }

    #[test]
    fn a_peer_at_its_cap_sheds_its_own_connections_not_anothers() {
        let registry = Registry::new();
        let stats = ServeStats::default();
        let limits = cap(10, 2);
        let b1 = registry.admit(B, &limits, &stats).unwrap();
        let a1 = registry.admit(A, &limits, &stats).unwrap();
        let _a2 = registry.admit(A, &limits, &stats).unwrap();
        let _a3 = registry.admit(A, &limits, &stats).unwrap();
        assert!(a1.closing.load(Ordering::Acquire), "A's own idle one");
        assert!(!b1.closing.load(Ordering::Acquire));
        // Both of A's wait for answers: A's next is refused, B's admitted.
        let _g = (_a2.begin(), _a3.begin());
        assert!(registry.admit(A, &limits, &stats).is_none());
        assert!(registry.admit(B, &limits, &stats).is_some());
        // A closed connection leaves the counts.
        registry.remove(&a1);
        assert_eq!(registry.lock().peers[&A].registered, 2);
    }

    #[test]
    fn a_request_keeps_its_connection_busy_until_its_guard_drops() {
        let registry = Registry::new();
        let conn = registry
            .admit(A, &cap(1, 1), &ServeStats::default())
            .unwrap();
        assert!(conn.idle_since().is_some());
        let guard = conn.begin();
        let second = conn.begin();
        assert!(conn.idle_since().is_none());
        assert_eq!(guard.peer_requests(), 2);
        drop(guard);
        assert!(conn.idle_since().is_none(), "one still in flight");
        drop(second);
        assert!(conn.idle_since().is_some());
        assert_eq!(conn.peer.requests.load(Ordering::Acquire), 0);
    }

    #[test]
    fn the_keep_alive_comment_is_the_transports() {
        assert_eq!(&a2a_transport::server::keep_alive_frame()[..], KEEP_ALIVE);
    }

    #[tokio::test(start_paused = true)]
    async fn a_response_its_client_does_not_take_is_found_after_the_write_timeout() {
        let registry = Registry::new();
        let stats = ServeStats::default();
        let conn = registry.admit(A, &cap(1, 1), &stats).unwrap();
        let mut body = TrackedBody::new(Body::Full(Bytes::from_static(b"x")), conn.begin());
        let frame =
            std::future::poll_fn(|cx| http_body::Body::poll_frame(Pin::new(&mut body), cx)).await;
        assert!(frame.is_some());
        let timeout = Duration::from_secs(4);
        let (close, next) = check_writes(&conn, timeout, &stats);
        assert!(!close);
        assert_eq!(next, Instant::now() + Duration::from_secs(1), "a quarter");
        tokio::time::advance(timeout).await;
        // No stream task (HTTP/1.1): the connection must close.
        assert!(check_writes(&conn, timeout, &stats).0);
        assert_eq!(stats.writes_timed_out(), 1);
    }
}
