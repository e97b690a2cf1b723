//! What [`serve`](crate::serve) bounds about connections, with their
//! defaults, and the counters of what it refused or closed.
//!
//! The request limits (body size, path, query, headers the A2A server
//! reads) are the [`A2aServer`](a2a_transport::A2aServer)'s own
//! ([`ServerConfig`](a2a_transport::ServerConfig)); these are the host's:
//! how many connections it holds, how long a connection may sit idle or
//! take to send its head or body, and how many bytes of request bodies it
//! holds while they arrive.

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
    /// flight), or, when every one is busy, is closed at once. Default
    /// [`DEFAULT_MAX_CONNECTIONS`](HostLimits::DEFAULT_MAX_CONNECTIONS).
    pub max_connections: usize,
    /// How long an HTTP/1.1 client has to send a request's head (hyper's
    /// header-read timeout); the connection is closed after it. Default
    /// [`DEFAULT_HEADER_READ_TIMEOUT`](HostLimits::DEFAULT_HEADER_READ_TIMEOUT).
    pub header_read_timeout: Duration,
    /// How long a connection may hold no request in flight (a stream in
    /// progress counts as one) before it is closed. Default
    /// [`DEFAULT_IDLE_TIMEOUT`](HostLimits::DEFAULT_IDLE_TIMEOUT).
    pub idle_timeout: Duration,
    /// How long a request body may go without a byte; also the grace
    /// before [`min_body_rate`](HostLimits::min_body_rate) applies. A body
    /// past either is answered 408. Default
    /// [`DEFAULT_BODY_STALL_TIMEOUT`](HostLimits::DEFAULT_BODY_STALL_TIMEOUT).
    pub body_stall_timeout: Duration,
    /// The slowest a request body may arrive on average, in bytes per
    /// second, after the first [`body_stall_timeout`](HostLimits::body_stall_timeout).
    /// Default [`DEFAULT_MIN_BODY_RATE`](HostLimits::DEFAULT_MIN_BODY_RATE).
    pub min_body_rate: u64,
    /// The most bytes of request bodies held while they arrive, over all
    /// connections; the body that would pass it is answered 503. Default
    /// [`DEFAULT_MAX_BODY_BYTES_IN_FLIGHT`](HostLimits::DEFAULT_MAX_BODY_BYTES_IN_FLIGHT).
    pub max_body_bytes_in_flight: usize,
    /// When the 503 for a spent [`max_body_bytes_in_flight`](HostLimits::max_body_bytes_in_flight)
    /// tells the client to try again (`Retry-After`, rounded up to whole
    /// seconds, and a `google.rpc.RetryInfo`). Default
    /// [`DEFAULT_BUDGET_RETRY_AFTER`](HostLimits::DEFAULT_BUDGET_RETRY_AFTER).
    pub budget_retry_after: Duration,
}

impl HostLimits {
    /// Default [`max_connections`](HostLimits::max_connections): 1024.
    pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
    /// Default [`header_read_timeout`](HostLimits::header_read_timeout): 10 s.
    pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
    /// Default [`idle_timeout`](HostLimits::idle_timeout): 60 s, longer
    /// than the idle timeouts of common proxies (so they close first).
    pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
    /// Default [`body_stall_timeout`](HostLimits::body_stall_timeout): 10 s.
    pub const DEFAULT_BODY_STALL_TIMEOUT: Duration = Duration::from_secs(10);
    /// Default [`min_body_rate`](HostLimits::min_body_rate): 4 KiB/s (a
    /// 16 MiB body may take 68 minutes, a 1 MiB one 4 minutes).
    pub const DEFAULT_MIN_BODY_RATE: u64 = 4096;
    /// Default [`max_body_bytes_in_flight`](HostLimits::max_body_bytes_in_flight):
    /// 128 MiB, eight bodies of the server's default 16 MiB limit.
    pub const DEFAULT_MAX_BODY_BYTES_IN_FLIGHT: usize = 128 << 20;
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
            header_read_timeout: HostLimits::DEFAULT_HEADER_READ_TIMEOUT,
            idle_timeout: HostLimits::DEFAULT_IDLE_TIMEOUT,
            body_stall_timeout: HostLimits::DEFAULT_BODY_STALL_TIMEOUT,
            min_body_rate: HostLimits::DEFAULT_MIN_BODY_RATE,
            max_body_bytes_in_flight: HostLimits::DEFAULT_MAX_BODY_BYTES_IN_FLIGHT,
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
    idle_closed: AtomicU64,
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
    IdleClosed,
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
            Count::IdleClosed => &self.idle_closed,
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
    /// [`max_connections`](HostLimits::max_connections) were busy.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// Idle connections closed to make room for a new one.
    pub fn shed(&self) -> u64 {
        self.shed.load(Ordering::Relaxed)
    }

    /// Connections closed after [`idle_timeout`](HostLimits::idle_timeout).
    pub fn idle_closed(&self) -> u64 {
        self.idle_closed.load(Ordering::Relaxed)
    }

    /// Request bodies answered 408 (stalled, or slower than the minimum rate).
    pub fn bodies_timed_out(&self) -> u64 {
        self.bodies_timed_out.load(Ordering::Relaxed)
    }

    /// Request bodies answered 503 (over the in-flight byte budget).
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
