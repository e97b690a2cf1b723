//! What [`serve`](crate::serve) bounds about connections, with their
//! defaults, and the counters of what it refused or closed.
//!
//! The request limits (body size, path, query, headers the A2A server
//! reads) are the [`A2aServer`](a2a_transport::A2aServer)'s own
//! ([`ServerConfig`](a2a_transport::ServerConfig)); these are the host's:
//! how many connections it holds (in all and per peer, a peer being the
//! client's IP address), how many requests one peer may have in flight,
//! how long a connection may sit idle or take to send its head or body,
//! how long a response may wait for its client to read, and how many bytes
//! of request bodies it holds while they arrive (in all and per peer).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// The connection limits of [`serve`](crate::serve) (see the module
/// documentation). Every one has a default; [`HostLimits::default`]
/// gives them all.
///
/// ```
/// use std::time::Duration;
/// use a2a_hyper::HostLimits;
///
/// let limits = HostLimits::default()
///     .with_max_connections(256)
///     .with_idle_timeout(Duration::from_secs(30));
/// assert_eq!(limits.max_connections, 256);
/// assert_eq!(limits.header_read_timeout, HostLimits::DEFAULT_HEADER_READ_TIMEOUT);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct HostLimits {
    /// The most connections held at once. A connection accepted beyond it
    /// closes the connection that has been idle longest (no request in
    /// flight); when none is idle, the connection whose responses have
    /// all begun (streams, answers being written) and whose last event is
    /// oldest (keep-alive comments are not events); when every connection
    /// waits for an answer, the newcomer is closed at once. Default
    /// [`DEFAULT_MAX_CONNECTIONS`](HostLimits::DEFAULT_MAX_CONNECTIONS).
    pub max_connections: usize,
    /// The most connections held at once from one peer (IP address). A
    /// peer's connection beyond it closes one of that peer's by the same
    /// order as [`max_connections`](HostLimits::max_connections), or is
    /// closed at once. Default
    /// [`DEFAULT_MAX_CONNECTIONS_PER_PEER`](HostLimits::DEFAULT_MAX_CONNECTIONS_PER_PEER).
    pub max_connections_per_peer: usize,
    /// The most requests one peer may have in flight over all its
    /// connections (a stream counts until it ends; HTTP/2 multiplexes many
    /// on one connection). A request beyond it is answered 503 with
    /// `Retry-After` ([`budget_retry_after`](HostLimits::budget_retry_after))
    /// and the binding's error. Default
    /// [`DEFAULT_MAX_REQUESTS_PER_PEER`](HostLimits::DEFAULT_MAX_REQUESTS_PER_PEER).
    pub max_requests_per_peer: usize,
    /// How long a response may wait for its client to take the next bytes
    /// (the socket's buffer full, or HTTP/2's flow-control window closed)
    /// before it is cut: an HTTP/2 stream is reset (`RST_STREAM(CANCEL)`,
    /// which gRPC clients read as `CANCELLED`), an HTTP/1.1 connection
    /// closed. It is checked four times per timeout, so a response is cut
    /// between one and one and a quarter timeouts after it stopped. Default
    /// [`DEFAULT_WRITE_TIMEOUT`](HostLimits::DEFAULT_WRITE_TIMEOUT).
    pub write_timeout: Duration,
    /// How long an HTTP/1.1 client has to send a request's head (hyper's
    /// header-read timeout); the connection is closed after it. Default
    /// [`DEFAULT_HEADER_READ_TIMEOUT`](HostLimits::DEFAULT_HEADER_READ_TIMEOUT).
    pub header_read_timeout: Duration,
    /// How long a connection may hold no request in flight (a stream in
    /// progress counts as one) before it is closed. Default
    /// [`DEFAULT_IDLE_TIMEOUT`](HostLimits::DEFAULT_IDLE_TIMEOUT).
    pub idle_timeout: Duration,
    /// How long a request body may go without a byte; also the window over
    /// which [`min_body_rate`](HostLimits::min_body_rate) is measured. A
    /// body past either is answered 408. Default
    /// [`DEFAULT_BODY_STALL_TIMEOUT`](HostLimits::DEFAULT_BODY_STALL_TIMEOUT).
    pub body_stall_timeout: Duration,
    /// The slowest a request body may arrive, in bytes per second, measured
    /// over a sliding window of [`body_stall_timeout`](HostLimits::body_stall_timeout):
    /// each window must bring `min_body_rate` × window bytes (or the body's
    /// end), and the next window begins when it has. Bytes sent early give
    /// no credit for later, so a body cannot send most of itself at once and
    /// then trickle. Default [`DEFAULT_MIN_BODY_RATE`](HostLimits::DEFAULT_MIN_BODY_RATE).
    pub min_body_rate: u64,
    /// The most bytes of request bodies held while they arrive, over all
    /// connections; the body that would pass it is answered 503. Default
    /// [`DEFAULT_MAX_BODY_BYTES_IN_FLIGHT`](HostLimits::DEFAULT_MAX_BODY_BYTES_IN_FLIGHT).
    pub max_body_bytes_in_flight: usize,
    /// The most bytes of request bodies one peer may hold while they
    /// arrive, its share of [`max_body_bytes_in_flight`](HostLimits::max_body_bytes_in_flight);
    /// the body that would pass it is answered 503. Default
    /// [`DEFAULT_MAX_BODY_BYTES_PER_PEER`](HostLimits::DEFAULT_MAX_BODY_BYTES_PER_PEER).
    pub max_body_bytes_per_peer: usize,
    /// When the 503 for a spent [`max_body_bytes_in_flight`](HostLimits::max_body_bytes_in_flight)
    /// tells the client to try again (`Retry-After`, rounded up to whole
    /// seconds, and a `google.rpc.RetryInfo`). Default
    /// [`DEFAULT_BUDGET_RETRY_AFTER`](HostLimits::DEFAULT_BUDGET_RETRY_AFTER).
    pub budget_retry_after: Duration,
}

impl HostLimits {
    /// Default [`max_connections`](HostLimits::max_connections): 1024.
    pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
    /// Default [`max_connections_per_peer`](HostLimits::max_connections_per_peer):
    /// 256, a quarter of the connection cap, so that one address holds at
    /// most a quarter of the server (many clients behind one NAT still get
    /// that much).
    pub const DEFAULT_MAX_CONNECTIONS_PER_PEER: usize = 256;
    /// Default [`max_requests_per_peer`](HostLimits::max_requests_per_peer):
    /// 512, two per connection a peer may hold.
    pub const DEFAULT_MAX_REQUESTS_PER_PEER: usize = 512;
    /// Default [`write_timeout`](HostLimits::write_timeout): 30 s, two
    /// keep-alive intervals ([`DEFAULT_KEEP_ALIVE`](crate::DEFAULT_KEEP_ALIVE)).
    pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(30);
    /// Default [`header_read_timeout`](HostLimits::header_read_timeout): 10 s.
    pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
    /// Default [`idle_timeout`](HostLimits::idle_timeout): 60 s, longer
    /// than the idle timeouts of common proxies (so they close first).
    pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
    /// Default [`body_stall_timeout`](HostLimits::body_stall_timeout): 10 s.
    pub const DEFAULT_BODY_STALL_TIMEOUT: Duration = Duration::from_secs(10);
    /// Default [`min_body_rate`](HostLimits::min_body_rate): 4 KiB/s, so
    /// 40 KiB in every 10 s window (a 16 MiB body may take 68 minutes if it
    /// keeps that pace, a 1 MiB one 4 minutes).
    pub const DEFAULT_MIN_BODY_RATE: u64 = 4096;
    /// Default [`max_body_bytes_in_flight`](HostLimits::max_body_bytes_in_flight):
    /// 128 MiB, eight bodies of the server's default 16 MiB limit.
    pub const DEFAULT_MAX_BODY_BYTES_IN_FLIGHT: usize = 128 << 20;
    /// Default [`max_body_bytes_per_peer`](HostLimits::max_body_bytes_per_peer):
    /// 32 MiB, two bodies of the server's default limit, a quarter of the
    /// whole budget.
    pub const DEFAULT_MAX_BODY_BYTES_PER_PEER: usize = 32 << 20;
    /// Default [`budget_retry_after`](HostLimits::budget_retry_after): 1 s;
    /// bodies in flight arrive or time out within seconds, freeing the
    /// budget.
    pub const DEFAULT_BUDGET_RETRY_AFTER: Duration = Duration::from_secs(1);

    /// Open files [`fit_to_fd_limit`](HostLimits::fit_to_fd_limit) leaves
    /// to all but connections: 64, for the listener, the runtime, standard
    /// streams and logs, a store's and the push client's connections.
    pub const FD_RESERVE: u64 = 64;

    /// Sets [`max_connections`](HostLimits::max_connections) (at least 1).
    pub fn with_max_connections(mut self, max: usize) -> HostLimits {
        self.max_connections = max.max(1);
        self
    }

    /// Sets [`max_connections_per_peer`](HostLimits::max_connections_per_peer)
    /// (at least 1).
    pub fn with_max_connections_per_peer(mut self, max: usize) -> HostLimits {
        self.max_connections_per_peer = max.max(1);
        self
    }

    /// Sets [`max_requests_per_peer`](HostLimits::max_requests_per_peer)
    /// (at least 1).
    pub fn with_max_requests_per_peer(mut self, max: usize) -> HostLimits {
        self.max_requests_per_peer = max.max(1);
        self
    }

    /// Sets [`write_timeout`](HostLimits::write_timeout) (at least 1 ms).
    pub fn with_write_timeout(mut self, timeout: Duration) -> HostLimits {
        self.write_timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// Sets [`max_body_bytes_per_peer`](HostLimits::max_body_bytes_per_peer).
    pub fn with_max_body_bytes_per_peer(mut self, max: usize) -> HostLimits {
        self.max_body_bytes_per_peer = max;
        self
    }

    /// These limits with [`max_connections`](HostLimits::max_connections)
    /// lowered, if need be, to what `fd_limit` open files hold beside
    /// [`FD_RESERVE`](HostLimits::FD_RESERVE) (at least 1): every
    /// connection is a file descriptor, and a cap the process cannot reach
    /// never sheds an idle connection, since accepting the one that would
    /// shed it fails first (`EMFILE`). [`serve`](crate::serve) applies it
    /// at start to the soft limit in force.
    ///
    /// ```
    /// use a2a_hyper::HostLimits;
    ///
    /// assert_eq!(HostLimits::default().fit_to_fd_limit(1024).max_connections, 960);
    /// assert_eq!(HostLimits::default().fit_to_fd_limit(1 << 20).max_connections, 1024);
    /// ```
    pub fn fit_to_fd_limit(mut self, fd_limit: u64) -> HostLimits {
        let room = fd_limit.saturating_sub(HostLimits::FD_RESERVE).max(1);
        let room = usize::try_from(room).unwrap_or(usize::MAX);
        self.max_connections = self.max_connections.min(room);
        self
    }

    /// Sets [`header_read_timeout`](HostLimits::header_read_timeout).
    pub fn with_header_read_timeout(mut self, timeout: Duration) -> HostLimits {
        self.header_read_timeout = timeout;
        self
    }

    /// Sets [`idle_timeout`](HostLimits::idle_timeout).
    pub fn with_idle_timeout(mut self, timeout: Duration) -> HostLimits {
        self.idle_timeout = timeout;
        self
    }

    /// Sets [`body_stall_timeout`](HostLimits::body_stall_timeout).
    pub fn with_body_stall_timeout(mut self, timeout: Duration) -> HostLimits {
        self.body_stall_timeout = timeout;
        self
    }

    /// Sets [`min_body_rate`](HostLimits::min_body_rate), in bytes per
    /// second (0: no rate, only the stall timeout).
    pub fn with_min_body_rate(mut self, bytes_per_second: u64) -> HostLimits {
        self.min_body_rate = bytes_per_second;
        self
    }

    /// Sets [`max_body_bytes_in_flight`](HostLimits::max_body_bytes_in_flight).
    pub fn with_max_body_bytes_in_flight(mut self, max: usize) -> HostLimits {
        self.max_body_bytes_in_flight = max;
        self
    }

    /// Sets [`budget_retry_after`](HostLimits::budget_retry_after).
    pub fn with_budget_retry_after(mut self, delay: Duration) -> HostLimits {
        self.budget_retry_after = delay;
        self
    }
}

impl Default for HostLimits {
    fn default() -> HostLimits {
        HostLimits {
            max_connections: HostLimits::DEFAULT_MAX_CONNECTIONS,
            max_connections_per_peer: HostLimits::DEFAULT_MAX_CONNECTIONS_PER_PEER,
            max_requests_per_peer: HostLimits::DEFAULT_MAX_REQUESTS_PER_PEER,
            write_timeout: HostLimits::DEFAULT_WRITE_TIMEOUT,
            header_read_timeout: HostLimits::DEFAULT_HEADER_READ_TIMEOUT,
            idle_timeout: HostLimits::DEFAULT_IDLE_TIMEOUT,
            body_stall_timeout: HostLimits::DEFAULT_BODY_STALL_TIMEOUT,
            min_body_rate: HostLimits::DEFAULT_MIN_BODY_RATE,
            max_body_bytes_in_flight: HostLimits::DEFAULT_MAX_BODY_BYTES_IN_FLIGHT,
            max_body_bytes_per_peer: HostLimits::DEFAULT_MAX_BODY_BYTES_PER_PEER,
            budget_retry_after: HostLimits::DEFAULT_BUDGET_RETRY_AFTER,
        }
    }
}

/// What [`serve`](crate::serve) refused, closed or failed, counted since
/// it started (see [`ServeOptions::stats`](crate::ServeOptions::stats)).
#[derive(Debug, Default)]
pub struct ServeStats {
    max_connections: AtomicUsize,
    accepted: AtomicU64,
    refused: AtomicU64,
    shed: AtomicU64,
    streams_shed: AtomicU64,
    idle_closed: AtomicU64,
    writes_timed_out: AtomicU64,
    requests_refused: AtomicU64,
    bodies_timed_out: AtomicU64,
    bodies_over_budget: AtomicU64,
    accept_errors: AtomicU64,
}

/// One of the counters of [`ServeStats`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Count {
    Accepted,
    Refused,
    Shed,
    StreamShed,
    IdleClosed,
    WriteTimedOut,
    RequestRefused,
    BodyTimedOut,
    BodyOverBudget,
    AcceptError,
}

impl ServeStats {
    pub(crate) fn add(&self, count: Count) {
        let counter = match count {
            Count::Accepted => &self.accepted,
            Count::Refused => &self.refused,
            Count::Shed => &self.shed,
            Count::StreamShed => &self.streams_shed,
            Count::IdleClosed => &self.idle_closed,
            Count::WriteTimedOut => &self.writes_timed_out,
            Count::RequestRefused => &self.requests_refused,
            Count::BodyTimedOut => &self.bodies_timed_out,
            Count::BodyOverBudget => &self.bodies_over_budget,
            Count::AcceptError => &self.accept_errors,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn set_max_connections(&self, max: usize) {
        self.max_connections.store(max, Ordering::Relaxed);
    }

    /// The connection cap in force: [`HostLimits::max_connections`], lowered
    /// at start to what the open-file limit holds
    /// ([`HostLimits::fit_to_fd_limit`]); 0 before `serve` starts.
    pub fn max_connections(&self) -> usize {
        self.max_connections.load(Ordering::Relaxed)
    }

    /// Connections accepted and served.
    pub fn accepted(&self) -> u64 {
        self.accepted.load(Ordering::Relaxed)
    }

    /// Connections closed at once because
    /// [`max_connections`](HostLimits::max_connections) (or the peer's
    /// [`max_connections_per_peer`](HostLimits::max_connections_per_peer))
    /// were all waiting for answers.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// Idle connections closed to make room for a new one.
    pub fn shed(&self) -> u64 {
        self.shed.load(Ordering::Relaxed)
    }

    /// Connections whose responses had all begun (streams) closed to make
    /// room for a new one, the one with the oldest last event first.
    pub fn streams_shed(&self) -> u64 {
        self.streams_shed.load(Ordering::Relaxed)
    }

    /// Responses cut after [`write_timeout`](HostLimits::write_timeout)
    /// without their client reading (an HTTP/2 stream reset, or an
    /// HTTP/1.1 connection closed).
    pub fn writes_timed_out(&self) -> u64 {
        self.writes_timed_out.load(Ordering::Relaxed)
    }

    /// Requests answered 503 because their peer had
    /// [`max_requests_per_peer`](HostLimits::max_requests_per_peer) in flight.
    pub fn requests_refused(&self) -> u64 {
        self.requests_refused.load(Ordering::Relaxed)
    }

    /// Connections closed after [`idle_timeout`](HostLimits::idle_timeout).
    pub fn idle_closed(&self) -> u64 {
        self.idle_closed.load(Ordering::Relaxed)
    }

    /// Request bodies answered 408 (stalled, or slower than the minimum rate).
    pub fn bodies_timed_out(&self) -> u64 {
        self.bodies_timed_out.load(Ordering::Relaxed)
    }

    /// Request bodies answered 503 (over the in-flight byte budget, or
    /// their peer's share of it).
    pub fn bodies_over_budget(&self) -> u64 {
        self.bodies_over_budget.load(Ordering::Relaxed)
    }

    /// Failed accepts (out of file descriptors, a reset before accept).
    pub fn accept_errors(&self) -> u64 {
        self.accept_errors.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_setters() {
        let d = HostLimits::default();
        assert_eq!(d.max_connections, 1024);
        assert_eq!(d.max_body_bytes_in_flight, 128 << 20);
        assert_eq!(
            (
                d.max_connections_per_peer,
                d.max_requests_per_peer,
                d.max_body_bytes_per_peer,
                d.write_timeout
            ),
            (256, 512, 32 << 20, Duration::from_secs(30))
        );
        let p = d
            .with_max_connections_per_peer(0)
            .with_max_requests_per_peer(0)
            .with_max_body_bytes_per_peer(9)
            .with_write_timeout(Duration::ZERO);
        assert_eq!(
            (
                p.max_connections_per_peer,
                p.max_requests_per_peer,
                p.max_body_bytes_per_peer,
                p.write_timeout
            ),
            (1, 1, 9, Duration::from_millis(1))
        );
        assert_eq!(d.budget_retry_after, Duration::from_secs(1));
        assert_eq!(
            d.with_budget_retry_after(Duration::from_secs(3))
                .budget_retry_after,
            Duration::from_secs(3)
        );
        assert_eq!(
            HostLimits::default()
                .with_max_connections(0)
                .max_connections,
            1
        );
        let l = d
            .with_header_read_timeout(Duration::from_secs(1))
            .with_body_stall_timeout(Duration::from_secs(2))
            .with_min_body_rate(0)
            .with_max_body_bytes_in_flight(7);
        assert_eq!(
            (
                l.header_read_timeout,
                l.body_stall_timeout,
                l.min_body_rate,
                l.max_body_bytes_in_flight
            ),
            (Duration::from_secs(1), Duration::from_secs(2), 0, 7)
        );
    }

    #[test]
    fn the_connection_cap_fits_the_open_file_limit() {
        let d = HostLimits::default();
        // The common hard limit: the cap leaves the reserve free.
        assert_eq!(d.fit_to_fd_limit(1024).max_connections, 1024 - 64);
        assert_eq!(d.fit_to_fd_limit(1024 + 64).max_connections, 1024);
        assert_eq!(d.fit_to_fd_limit(u64::MAX).max_connections, 1024);
        let small = d.with_max_connections(10);
        assert_eq!(
            small.fit_to_fd_limit(256).max_connections,
            10,
            "never raised"
        );
        assert_eq!(d.fit_to_fd_limit(64).max_connections, 1, "at least one");
        assert_eq!(d.fit_to_fd_limit(0).max_connections, 1);
    }

    #[test]
    fn counters_count_each_kind_apart() {
        let s = ServeStats::default();
        s.add(Count::Shed);
        s.add(Count::Shed);
        s.add(Count::BodyOverBudget);
        assert_eq!((s.shed(), s.bodies_over_budget(), s.refused()), (2, 1, 0));
    }
}
