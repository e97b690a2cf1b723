//! A per-caller token-bucket rate limiter (spec 13.4: agents SHOULD rate
//! limit all operations and answer an appropriate error when a limit is
//! exceeded; spec 3.3.2 "System Errors" allows retry guidance such as
//! `Retry-After`).
//!
//! The core reads no clock: the host gives a
//! [`MonotonicClock`](crate::metrics::MonotonicClock), or calls
//! [`RateLimiter::check_at`] with its own `now`.
//!
//! Each caller has a bucket of [`RateLimit::burst`] calls that refills at
//! one call per [`RateLimit::interval`]. The bucket is kept as the time at
//! which it is full again (the "theoretical arrival time" of GCRA, which is
//! the same limiter as a token bucket), in whole nanoseconds, so the delay
//! a refused caller is told is exact: the time until one call's worth has
//! refilled.
//!
//! Callers are keyed ([`RateKey`]) by their authenticated
//! [`Principal`](a2a_wire::Principal); an anonymous one by its address: the
//! peer address the host put in the request's extensions ([`PeerAddr`]),
//! or, only when configured ([`ClientAddress`], off by default), the
//! address a trusted proxy wrote in `X-Forwarded-For` or `Forwarded`.
//!
//! The table holds at most [`RateLimit::max_keys`] buckets. A bucket that
//! is full again says nothing a new one would not, so those go first;
//! if none is, the bucket that owes the least time goes. Evicting a bucket
//! grants its caller at most what it owes, so a flood of new keys (each
//! owing one interval) cannot reset a caller that is being limited (owing
//! more than `burst - 1` intervals) while any flood key owes less.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http::HeaderMap;

use crate::metrics::MonotonicClock;
use a2a_wire::Principal;

/// Default for [`RateLimit::max_keys`]: 10 000 callers tracked at once.
pub const DEFAULT_MAX_KEYS: usize = 10_000;

/// The peer address of the connection a request came on, put in the
/// request's `http::Extensions` by the host (`a2a_hyper::serve` does) for
/// the rate limiter to key anonymous callers by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PeerAddr(pub SocketAddr);

/// Where an anonymous caller's address comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ClientAddress {
    /// The connection's peer ([`PeerAddr`]); proxy headers are ignored,
    /// since any client can write them. The default.
    #[default]
    Peer,
    /// The `trusted_hops`-th address from the right of `X-Forwarded-For`
    /// (each trusted proxy appends the address it saw, so with one proxy
    /// in front the last entry is the client). Fewer entries than trusted
    /// hops, or an entry that is not an IP address: the peer.
    XForwardedFor {
        /// The number of proxies in front of the server that append to
        /// the header (at least 1 to have an effect).
        trusted_hops: usize,
    },
    /// The same rule over the `for=` parameters of `Forwarded` (RFC 7239).
    Forwarded {
        /// The number of proxies in front of the server that append to
        /// the header.
        trusted_hops: usize,
    },
}

/// A rate limit: how fast each caller's bucket refills, how many calls it
/// holds, and how many callers are tracked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    interval: Duration,
    burst: u32,
    max_keys: usize,
    client_address: ClientAddress,
}

impl RateLimit {
    /// `calls` per second per caller (at least 1), with a burst of the
    /// same number of calls (one second's worth), [`DEFAULT_MAX_KEYS`]
    /// callers and [`ClientAddress::Peer`].
    pub fn per_second(calls: u32) -> RateLimit {
        let calls = calls.max(1);
        RateLimit {
            interval: Duration::from_nanos(1_000_000_000 / u64::from(calls)),
            burst: calls,
            max_keys: DEFAULT_MAX_KEYS,
            client_address: ClientAddress::Peer,
        }
    }

    /// One call per `interval` per caller (at least 1 ns), burst 1.
    pub fn every(interval: Duration) -> RateLimit {
        RateLimit {
            interval: interval.max(Duration::from_nanos(1)),
            burst: 1,
            max_keys: DEFAULT_MAX_KEYS,
            client_address: ClientAddress::Peer,
        }
    }

    /// Sets how many calls a full bucket holds (at least 1).
    pub fn with_burst(mut self, burst: u32) -> RateLimit {
        self.burst = burst.max(1);
        self
    }

    /// Sets how many callers are tracked at once (at least 1).
    pub fn with_max_keys(mut self, max_keys: usize) -> RateLimit {
        self.max_keys = max_keys.max(1);
        self
    }

    /// Sets where an anonymous caller's address comes from.
    pub fn with_client_address(mut self, rule: ClientAddress) -> RateLimit {
        self.client_address = rule;
        self
    }

    /// The time one call's worth takes to refill.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// The calls a full bucket holds.
    pub fn burst(&self) -> u32 {
        self.burst
    }

    /// The most callers tracked at once.
    pub fn max_keys(&self) -> usize {
        self.max_keys
    }

    /// Where an anonymous caller's address comes from.
    pub fn client_address(&self) -> ClientAddress {
        self.client_address
    }
}

/// Who a bucket belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RateKey {
    /// An authenticated caller: its scheme and id.
    Principal {
        /// The security scheme that authenticated it.
        scheme: String,
        /// Its id.
        id: String,
    },
    /// An anonymous caller at this address.
    Address(IpAddr),
    /// An anonymous caller with no known address (a host that gives no
    /// [`PeerAddr`]): all such callers share one bucket.
    Unknown,
}

/// A token-bucket limiter over a bounded table of callers (see the module
/// documentation). Share one across connections; it locks a mutex for
/// the time of one check.
pub struct RateLimiter {
    limit: RateLimit,
    clock: Arc<dyn MonotonicClock>,
    /// Each caller's time at which its bucket is full again.
    table: Mutex<HashMap<RateKey, Duration>>,
}

impl std::fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimiter")
            .field("limit", &self.limit)
            .field("keys", &self.len())
            .finish_non_exhaustive()
    }
}

impl RateLimiter {
    /// A limiter applying `limit`, timed by the host's `clock`.
    pub fn new(limit: RateLimit, clock: Arc<dyn MonotonicClock>) -> RateLimiter {
        RateLimiter {
            limit,
            clock,
            table: Mutex::new(HashMap::new()),
        }
    }

    /// The limit.
    pub fn limit(&self) -> &RateLimit {
        &self.limit
    }

    /// The number of callers tracked.
    pub fn len(&self) -> usize {
        self.table.lock().map_or(0, |t| t.len())
    }

    /// Whether no caller is tracked.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The key of a caller: its principal, else its address by the
    /// [`ClientAddress`] rule.
    pub fn key(
        &self,
        principal: Option<&Principal>,
        headers: &HeaderMap,
        peer: Option<&PeerAddr>,
    ) -> RateKey {
        if let Some(p) = principal {
            return RateKey::Principal {
                scheme: p.scheme.clone(),
                id: p.id.clone(),
            };
        }
        let peer = peer.map(|p| p.0.ip());
        let forwarded = match self.limit.client_address {
            ClientAddress::Peer => None,
            ClientAddress::XForwardedFor { trusted_hops } => {
                nth_from_right(x_forwarded_for(headers), trusted_hops)
            }
            ClientAddress::Forwarded { trusted_hops } => {
                nth_from_right(forwarded_for(headers), trusted_hops)
            }
        };
        match forwarded.or(peer) {
            Some(ip) => RateKey::Address(ip),
            None => RateKey::Unknown,
        }
    }

    /// Takes one call from `key`'s bucket at the clock's time; `Err` with
    /// the time until the bucket holds a call again.
    pub fn check(&self, key: &RateKey) -> Result<(), Duration> {
        self.check_at(key, self.clock.now())
    }

    /// [`check`](RateLimiter::check) at `now` (the time since the clock's
    /// origin).
    pub fn check_at(&self, key: &RateKey, now: Duration) -> Result<(), Duration> {
        let Ok(mut table) = self.table.lock() else {
            // A panic elsewhere poisoned the table: do not refuse everyone.
            return Ok(());
        };
        let interval = self.limit.interval;
        let span = interval.saturating_mul(self.limit.burst);
        let full_at = table.get(key).copied().unwrap_or(now).max(now);
        let next = full_at.saturating_add(interval);
        // Admitted when the debt after this call fits in the bucket.
        if next - now > span {
            return Err(next - now - span);
        }
        if !table.contains_key(key) && table.len() >= self.limit.max_keys {
            evict(&mut table, now, self.limit.max_keys);
        }
        table.insert(key.clone(), next);
        Ok(())
    }
}

/// Makes room for one key: drops the buckets that are full again, else the
/// one that owes the least.
fn evict(table: &mut HashMap<RateKey, Duration>, now: Duration, max_keys: usize) {
    table.retain(|_, full_at| *full_at > now);
    if table.len() < max_keys {
        return;
    }
    if let Some(key) = table
        .iter()
        .min_by_key(|(_, full_at)| **full_at)
        .map(|(k, _)| k.clone())
    {
        table.remove(&key);
    }
}

fn nth_from_right(entries: Vec<String>, hops: usize) -> Option<IpAddr> {
    let index = entries.len().checked_sub(hops.max(1))?;
    parse_node(entries.get(index)?)
}

/// The entries of every `X-Forwarded-For` field, in order.
fn x_forwarded_for(headers: &HeaderMap) -> Vec<String> {
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_owned())
        .collect()
}

/// The `for=` values of every `Forwarded` element (RFC 7239 section 4),
/// in order; an element without one counts as an unknown entry.
fn forwarded_for(headers: &HeaderMap) -> Vec<String> {
    headers
        .get_all(http::header::FORWARDED)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|element| {
            element
                .split(';')
                .filter_map(|pair| pair.split_once('='))
                .find(|(k, _)| k.trim().eq_ignore_ascii_case("for"))
                .map(|(_, v)| v.trim().trim_matches('"').to_owned())
                .unwrap_or_default()
        })
        .collect()
}

/// An address as a proxy writes it: `192.0.2.1`, `192.0.2.1:80`,
/// `2001:db8::1`, `[2001:db8::1]:80`.
fn parse_node(node: &str) -> Option<IpAddr> {
    if let Ok(ip) = node.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(sa) = node.parse::<SocketAddr>() {
        return Some(sa.ip());
    }
    node.strip_prefix('[')?.strip_suffix(']')?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoClock;
    impl MonotonicClock for NoClock {
        fn now(&self) -> Duration {
            Duration::ZERO
        }
    }

    fn limiter(limit: RateLimit) -> RateLimiter {
        RateLimiter::new(limit, Arc::new(NoClock))
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn who(id: &str) -> RateKey {
        RateKey::Principal {
            scheme: "bearer".into(),
            id: id.into(),
        }
    }

    #[test]
    fn burst_then_exact_delay_then_refill() {
        // 4 per second: one call per 250 ms, 3 in a burst.
        let l = limiter(RateLimit::per_second(4).with_burst(3));
        let k = who("alice");
        for _ in 0..3 {
            assert_eq!(l.check_at(&k, ms(1000)), Ok(()));
        }
        // Empty: the next call's worth refills 250 ms after the burst.
        assert_eq!(l.check_at(&k, ms(1000)), Err(ms(250)));
        assert_eq!(l.check_at(&k, ms(1100)), Err(ms(150)));
        assert_eq!(l.check_at(&k, ms(1250)), Ok(()));
        assert_eq!(l.check_at(&k, ms(1250)), Err(ms(250)));
        // A long pause fills the bucket to its burst, not beyond.
        for _ in 0..3 {
            assert_eq!(l.check_at(&k, ms(60_000)), Ok(()));
        }
        assert_eq!(l.check_at(&k, ms(60_000)), Err(ms(250)));
    }

    #[test]
    fn refused_calls_take_nothing() {
        let l = limiter(RateLimit::every(Duration::from_secs(2)));
        let k = who("bob");
        assert_eq!(l.check_at(&k, ms(0)), Ok(()));
        for t in [0, 500, 1000] {
            assert_eq!(l.check_at(&k, ms(t)), Err(ms(2000 - t)));
        }
        assert_eq!(l.check_at(&k, ms(2000)), Ok(()));
    }

    #[test]
    fn callers_have_their_own_buckets() {
        let l = limiter(RateLimit::per_second(1));
        assert_eq!(l.check_at(&who("a"), ms(0)), Ok(()));
        assert!(l.check_at(&who("a"), ms(0)).is_err());
        assert_eq!(l.check_at(&who("b"), ms(0)), Ok(()));
        assert_eq!(l.len(), 2);
    }

    #[test]
    fn the_table_is_bounded_and_a_flood_does_not_reset_a_limited_caller() {
        let l = limiter(RateLimit::per_second(10).with_burst(5).with_max_keys(3));
        let victim = who("victim");
        for _ in 0..5 {
            l.check_at(&victim, ms(0)).unwrap();
        }
        assert!(l.check_at(&victim, ms(0)).is_err());
        // A thousand new keys, each one call, at the same instant.
        for i in 0..1000u32 {
            let ip = IpAddr::from([10, 0, (i >> 8) as u8, i as u8]);
            assert_eq!(l.check_at(&RateKey::Address(ip), ms(0)), Ok(()));
            assert!(l.len() <= 3, "bounded at {}", l.len());
        }
        // The victim's bucket survived: still limited, same delay.
        assert_eq!(l.check_at(&victim, ms(0)), Err(ms(100)));
        // Buckets that are full again go first: after a pause the flood
        // keys are full and evicted before the still-owing victim.
        l.check_at(&who("late"), ms(200)).unwrap();
        assert_eq!(l.len(), 2, "the full flood buckets went, the victim stayed");
        // The victim owes 300 ms more at 200 ms: two calls' worth refilled.
        assert_eq!(l.check_at(&victim, ms(200)), Ok(()));
        assert_eq!(l.check_at(&victim, ms(200)), Ok(()));
        assert_eq!(l.check_at(&victim, ms(200)), Err(ms(100)));
    }

    #[test]
    fn anonymous_callers_are_keyed_by_peer_and_proxy_headers_are_off_by_default() {
        let l = limiter(RateLimit::per_second(1));
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", "203.0.113.9".parse().unwrap());
        let peer = PeerAddr("192.0.2.1:5555".parse().unwrap());
        assert_eq!(
            l.key(None, &h, Some(&peer)),
            RateKey::Address("192.0.2.1".parse().unwrap())
        );
        assert_eq!(l.key(None, &h, None), RateKey::Unknown);
        let p = Principal::new("alice", "bearer");
        assert_eq!(l.key(Some(&p), &h, Some(&peer)), who("alice"));
    }

    #[test]
    fn trusted_hops_pick_the_entry_the_last_trusted_proxy_saw() {
        let peer = PeerAddr("10.0.0.1:80".parse().unwrap());
        let mut h = HeaderMap::new();
        h.append("x-forwarded-for", "1.1.1.1, 2.2.2.2".parse().unwrap());
        h.append("x-forwarded-for", "3.3.3.3".parse().unwrap());
        let xff = |hops| {
            limiter(
                RateLimit::per_second(1)
                    .with_client_address(ClientAddress::XForwardedFor { trusted_hops: hops }),
            )
            .key(None, &h, Some(&peer))
        };
        let ip = |s: &str| RateKey::Address(s.parse().unwrap());
        assert_eq!(xff(1), ip("3.3.3.3"));
        assert_eq!(xff(2), ip("2.2.2.2"));
        assert_eq!(xff(3), ip("1.1.1.1"));
        // Fewer entries than trusted proxies: the header is not trusted.
        assert_eq!(xff(4), ip("10.0.0.1"));

        let mut h = HeaderMap::new();
        h.insert(
            http::header::FORWARDED,
            r#"for=192.0.2.43, for="[2001:db8:cafe::17]:4711";proto=https, by=x"#
                .parse()
                .unwrap(),
        );
        let fwd = |hops| {
            limiter(
                RateLimit::per_second(1)
                    .with_client_address(ClientAddress::Forwarded { trusted_hops: hops }),
            )
            .key(None, &h, Some(&peer))
        };
        // The last element has no for=: not an address, so the peer.
        assert_eq!(fwd(1), ip("10.0.0.1"));
        assert_eq!(fwd(2), ip("2001:db8:cafe::17"));
        assert_eq!(fwd(3), ip("192.0.2.43"));
    }

    #[test]
    fn the_host_clock_is_read_by_check() {
        struct At(Duration);
        impl MonotonicClock for At {
            fn now(&self) -> Duration {
                self.0
            }
        }
        let l = RateLimiter::new(RateLimit::every(ms(100)), Arc::new(At(ms(5))));
        assert_eq!(l.check(&who("a")), Ok(()));
        assert_eq!(l.check_at(&who("a"), ms(5)), Err(ms(100)));
    }
}
