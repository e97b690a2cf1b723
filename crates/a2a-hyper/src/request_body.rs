//! A request body under the host's limits: it must keep arriving (no
//! stall longer than [`HostLimits::body_stall_timeout`], and at least
//! [`HostLimits::min_body_rate`] measured over a sliding window of that
//! length), and the bytes held by every body still arriving stay within
//! [`HostLimits::max_body_bytes_in_flight`], those of one peer's within
//! [`HostLimits::max_body_bytes_per_peer`]. A body past a limit fails
//! with a [`BodyFailure`] naming 408 or 503 (the latter with
//! [`HostLimits::budget_retry_after`]), which the transport's tower
//! service answers with the binding's error body. A request refused before
//! its body is read (its peer has too many in flight) fails the same way
//! at its first read ([`LimitedBody::refuse`]).
//!
//! The rate's window: the first begins with the body, and each must bring
//! `min_body_rate` × window bytes before it ends; once it has, the next
//! begins. Bytes sent early earn no credit for later windows, so a body
//! that sends nearly all of itself at once and then a byte now and then
//! is cut one window after the burst, not after the hours an average from
//! the start would allow.
//!
//! The budget counts what the tower service keeps: the body up to the
//! server's `max_body_size`. What arrives after that is read only to be
//! thrown away (the lingering before a 413, `ServerConfig::linger`), so
//! it does not count, while the stall and rate limits still apply to it.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_transport::server::BodyFailure;
use bytes::Bytes;
use http::StatusCode;
use http_body::{Body, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

use crate::connection::Peer;
use crate::limits::{Count, HostLimits, ServeStats};

/// The bytes of request bodies held while they arrive, shared by every
/// connection of one [`serve`](crate::serve).
#[derive(Debug, Default)]
pub(crate) struct BodyBudget(AtomicUsize);

/// `B` under the limits (see the module documentation).
pub(crate) struct LimitedBody<B> {
    inner: B,
    budget: Arc<BodyBudget>,
    peer: Arc<Peer>,
    stats: Arc<ServeStats>,
    max_in_flight: usize,
    max_per_peer: usize,
    retry_after: Duration,
    stall: Duration,
    min_rate: u64,
    started: Instant,
    /// When the current rate window began, and the bytes it has brought.
    window_at: Instant,
    window_bytes: u64,
    /// Bytes of this body counted in the budget.
    held: usize,
    /// Past this many bytes counted, frames are not counted: the consumer
    /// discards them.
    max_held: usize,
    /// Bytes of this body received, counted or not.
    received: usize,
    /// When the body fails if nothing more arrives.
    deadline: Instant,
    /// Armed at `deadline` the first time the body has to wait: a body that
    /// is ready whenever it is polled (most are, and every empty one) costs
    /// no timer.
    timer: Option<Pin<Box<Sleep>>>,
    /// The failure the first read answers ([`LimitedBody::refuse`]).
    refused: Option<BodyFailure>,
    failed: bool,
}

impl<B> LimitedBody<B> {
    /// `inner` under `limits`, counting at most about `max_held` bytes (a
    /// frame more) in `budget`.
    pub(crate) fn new(
        inner: B,
        limits: &HostLimits,
        max_held: usize,
        budget: Arc<BodyBudget>,
        peer: Arc<Peer>,
        stats: Arc<ServeStats>,
    ) -> LimitedBody<B> {
        let started = Instant::now();
        LimitedBody {
            inner,
            budget,
            peer,
            stats,
            max_in_flight: limits.max_body_bytes_in_flight,
            max_per_peer: limits.max_body_bytes_per_peer,
            retry_after: limits.budget_retry_after,
            stall: limits.body_stall_timeout,
            min_rate: limits.min_body_rate,
            started,
            window_at: started,
            window_bytes: 0,
            held: 0,
            max_held,
            received: 0,
            deadline: started + limits.body_stall_timeout,
            timer: None,
            refused: None,
            failed: false,
        }
    }

    /// This body answering `failure` at its first read, before any byte
    /// is taken.
    pub(crate) fn refuse(mut self, failure: BodyFailure) -> LimitedBody<B> {
        self.refused = Some(failure);
        self
    }

    /// Counts `len` bytes arrived at `now` and says when the body fails if
    /// nothing more arrives: a stall timeout after `now` without a minimum
    /// rate, else the end of the current window (see the module
    /// documentation), which is never later than a stall timeout after the
    /// last byte.
    fn arrived(&mut self, len: usize, now: Instant) -> Instant {
        if self.min_rate == 0 {
            return now + self.stall;
        }
        let quota = (self.min_rate as f64 * self.stall.as_secs_f64()).ceil() as u64;
        self.window_bytes = self.window_bytes.saturating_add(len as u64);
        if self.window_bytes >= quota.max(1) {
            self.window_at = now;
            self.window_bytes = 0;
        }
        self.window_at + self.stall
    }

    fn fail(&mut self, count: Count, status: StatusCode, message: String) -> BodyFailure {
        self.failed = true;
        self.stats.add(count);
        BodyFailure::new(status, message)
    }
}

impl<B> Body for LimitedBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: std::fmt::Display,
{
    type Data = Bytes;
    type Error = BodyFailure;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyFailure>>> {
        let this = &mut *self;
        if this.failed {
            return Poll::Ready(None);
        }
        if let Some(failure) = this.refused.take() {
            this.failed = true;
            return Poll::Ready(Some(Err(failure)));
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    let len = data.len();
                    this.received += len;
                    let counted = if this.held <= this.max_held { len } else { 0 };
                    this.held += counted;
                    let total = this.budget.0.fetch_add(counted, Ordering::AcqRel) + counted;
                    let of_peer =
                        this.peer.body_bytes.fetch_add(counted, Ordering::AcqRel) + counted;
                    if counted > 0 && of_peer > this.max_per_peer && total <= this.max_in_flight {
                        let (max, retry_after) = (this.max_per_peer, this.retry_after);
                        let failure = this.fail(
                            Count::BodyOverBudget,
                            StatusCode::SERVICE_UNAVAILABLE,
                            format!(
                                "the server holds at most {max} bytes of request bodies \
                                 from one client while they arrive, and this client's \
                                 share is spent; retry later"
                            ),
                        );
                        return Poll::Ready(Some(Err(failure.with_retry_after(retry_after))));
                    }
                    if counted > 0 && total > this.max_in_flight {
                        let (max, retry_after) = (this.max_in_flight, this.retry_after);
                        let failure = this.fail(
                            Count::BodyOverBudget,
                            StatusCode::SERVICE_UNAVAILABLE,
                            format!(
                                "the server holds at most {max} bytes of request bodies \
                                 while they arrive, and that budget is spent; retry later"
                            ),
                        );
                        // Bodies in flight end within seconds (they arrive
                        // or time out): a retry soon finds room.
                        return Poll::Ready(Some(Err(failure.with_retry_after(retry_after))));
                    }
                    this.deadline = this.arrived(len, Instant::now());
                    if let Some(timer) = &mut this.timer {
                        timer.as_mut().reset(this.deadline);
                    }
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => {
                this.failed = true;
                Poll::Ready(Some(Err(BodyFailure::new(
                    StatusCode::BAD_REQUEST,
                    e.to_string(),
                ))))
            }
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => match this
                .timer
                .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(this.deadline)))
                .as_mut()
                .poll(cx)
            {
                Poll::Ready(()) => {
                    let (stall, rate, held) = (this.stall, this.min_rate, this.received);
                    let elapsed = this.started.elapsed();
                    Poll::Ready(Some(Err(this.fail(
                        Count::BodyTimedOut,
                        StatusCode::REQUEST_TIMEOUT,
                        format!(
                            "the request body stopped arriving: {held} bytes in {:.1} s; \
                             the server waits {:.1} s for a byte and asks for at \
                             least {rate} bytes per second over every such window",
                            elapsed.as_secs_f64(),
                            stall.as_secs_f64()
                        ),
                    ))))
                }
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.failed || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl<B> Drop for LimitedBody<B> {
    fn drop(&mut self) {
        self.budget.0.fetch_sub(self.held, Ordering::AcqRel);
        self.peer.body_bytes.fetch_sub(self.held, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::convert::Infallible;
    use std::future::poll_fn;

    /// Scripted frames, then pending forever.
    struct Script(VecDeque<&'static str>);

    impl Body for Script {
        type Data = Bytes;
        type Error = Infallible;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            match self.0.pop_front() {
                Some(s) => Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(s.as_bytes()))))),
                None => Poll::Pending,
            }
        }
    }

    fn limited(
        frames: &[&'static str],
        limits: HostLimits,
        budget: &Arc<BodyBudget>,
    ) -> LimitedBody<Script> {
        LimitedBody::new(
            Script(frames.iter().copied().collect()),
            &limits,
            usize::MAX,
            Arc::clone(budget),
            Arc::default(),
            Arc::new(ServeStats::default()),
        )
    }

    async fn next(body: &mut LimitedBody<Script>) -> Option<Result<Frame<Bytes>, BodyFailure>> {
        poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx)).await
    }

    #[tokio::test(start_paused = true)]
    async fn a_stalled_body_fails_with_408_after_the_stall_timeout() {
        let limits = HostLimits::default().with_body_stall_timeout(Duration::from_secs(2));
        let budget = Arc::new(BodyBudget::default());
        let mut body = limited(&["abc"], limits, &budget);
        assert!(next(&mut body).await.unwrap().is_ok());
        assert_eq!(budget.0.load(Ordering::Acquire), 3);
        let started = Instant::now();
        let failure = next(&mut body).await.unwrap().unwrap_err();
        assert_eq!(failure.status(), StatusCode::REQUEST_TIMEOUT);
        assert_eq!(started.elapsed(), Duration::from_secs(2));
        assert!(failure.to_string().contains("3 bytes"), "{failure}");
        assert!(next(&mut body).await.is_none(), "nothing after the failure");
        drop(body);
        assert_eq!(
            budget.0.load(Ordering::Acquire),
            0,
            "the budget is given back"
        );
    }

    /// `burst` bytes at once, then ten bytes every `every`, forever.
    struct Dribble {
        burst: usize,
        every: Duration,
        next: Pin<Box<Sleep>>,
    }

    impl Dribble {
        fn new(burst: usize, every: Duration) -> Dribble {
            Dribble {
                burst,
                every,
                next: Box::pin(tokio::time::sleep(every)),
            }
        }
    }

    impl Body for Dribble {
        type Data = Bytes;
        type Error = Infallible;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            if self.burst > 0 {
                let burst = std::mem::take(&mut self.burst);
                return Poll::Ready(Some(Ok(Frame::data(Bytes::from(vec![b' '; burst])))));
            }
            match self.next.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    let at = Instant::now() + self.every;
                    self.next.as_mut().reset(at);
                    Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(b"0123456789")))))
                }
                Poll::Pending => Poll::Pending,
            }
        }
    }

    /// The 408 of `dribble` under `limits`: when it came (from the
    /// start) and how many frames arrived before it.
    async fn cut(dribble: Dribble, limits: HostLimits) -> (Duration, usize) {
        let started = Instant::now();
        let mut body = LimitedBody::new(
            dribble,
            &limits,
            usize::MAX,
            Arc::new(BodyBudget::default()),
            Arc::default(),
            Arc::new(ServeStats::default()),
        );
        let mut frames = 0;
        loop {
            match poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
                Some(Ok(_)) => frames += 1,
                Some(Err(e)) => {
                    assert_eq!(e.status(), StatusCode::REQUEST_TIMEOUT);
                    return (started.elapsed(), frames);
                }
                None => panic!("the body does not end"),
            }
        }
    }

    #[tokio::test(start_paused = true)]
    async fn the_minimum_rate_holds_in_every_window() {
        // Ten bytes every 5 s never stall for 10 s, but a 10 s window at
        // 100 bytes/s asks for 1000 bytes: cut when the first window ends.
        let limits = HostLimits::default()
            .with_body_stall_timeout(Duration::from_secs(10))
            .with_min_body_rate(100);
        let every = Duration::from_secs(5);
        assert_eq!(
            cut(Dribble::new(0, every), limits).await,
            (Duration::from_secs(10), 2)
        );
        // A burst meets the first window's quota and starts the next: the
        // trickle after it earns no credit from it (an average from the
        // start would allow 10 + 100,000 / 100 = 1010 s).
        assert_eq!(
            cut(Dribble::new(100_000, every), limits).await,
            (Duration::from_secs(10), 3)
        );
        // A body that keeps the pace is never cut.
        let steady = Dribble::new(0, Duration::from_millis(50));
        let ran = tokio::time::timeout(Duration::from_secs(60), cut(steady, limits)).await;
        assert!(ran.is_err(), "200 bytes/s in every window");
    }

    #[tokio::test]
    async fn a_peer_past_its_share_gets_503_while_others_are_served() {
        let limits = HostLimits::default()
            .with_max_body_bytes_in_flight(100)
            .with_max_body_bytes_per_peer(10);
        let budget = Arc::new(BodyBudget::default());
        let (greedy, other): (Arc<Peer>, Arc<Peer>) = (Arc::default(), Arc::default());
        let body = |frames: &[&'static str], peer: &Arc<Peer>| {
            LimitedBody::new(
                Script(frames.iter().copied().collect()),
                &limits,
                usize::MAX,
                Arc::clone(&budget),
                Arc::clone(peer),
                Arc::new(ServeStats::default()),
            )
        };
        let mut first = body(&["12345678"], &greedy);
        assert!(next(&mut first).await.unwrap().is_ok());
        let mut second = body(&["abcd"], &greedy);
        let failure = next(&mut second).await.unwrap().unwrap_err();
        assert_eq!(failure.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(failure.to_string().contains("share"), "{failure}");
        assert_eq!(failure.retry_after(), Some(Duration::from_secs(1)));
        let mut third = body(&["abcdefgh"], &other);
        assert!(
            next(&mut third).await.unwrap().is_ok(),
            "another peer's own share"
        );
        drop((second, first));
        assert_eq!(greedy.body_bytes.load(Ordering::Acquire), 0);
    }

    #[tokio::test]
    async fn a_refused_request_fails_at_its_first_read() {
        let budget = Arc::new(BodyBudget::default());
        let mut body = limited(&["abc"], HostLimits::default(), &budget).refuse(BodyFailure::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many",
        ));
        let failure = next(&mut body).await.unwrap().unwrap_err();
        assert_eq!(failure.to_string(), "too many");
        assert!(next(&mut body).await.is_none());
        assert_eq!(budget.0.load(Ordering::Acquire), 0);
    }

    #[tokio::test]
    async fn the_budget_is_shared_and_a_body_past_it_fails_with_503() {
        let limits = HostLimits::default().with_max_body_bytes_in_flight(5);
        let budget = Arc::new(BodyBudget::default());
        let mut first = limited(&["abcd"], limits, &budget);
        let mut second = limited(&["ef"], limits, &budget);
        assert!(next(&mut first).await.unwrap().is_ok());
        let failure = next(&mut second).await.unwrap().unwrap_err();
        assert_eq!(failure.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(failure.retry_after(), Some(Duration::from_secs(1)));
        drop(second);
        assert_eq!(budget.0.load(Ordering::Acquire), 4);
        drop(first);
        let mut third = limited(&["efgh"], limits, &budget);
        assert!(next(&mut third).await.unwrap().is_ok(), "room again");
    }

    #[tokio::test]
    async fn bytes_past_what_the_consumer_keeps_are_not_counted() {
        let limits = HostLimits::default().with_max_body_bytes_in_flight(6);
        let budget = Arc::new(BodyBudget::default());
        // The consumer keeps 4 bytes (a server limit of 3, and one more).
        let mut body = LimitedBody::new(
            Script(["abc", "de", "fghij", "klmno"].into_iter().collect()),
            &limits,
            4,
            Arc::clone(&budget),
            Arc::default(),
            Arc::new(ServeStats::default()),
        );
        for _ in 0..4 {
            assert!(next(&mut body).await.unwrap().is_ok(), "within the budget");
        }
        assert_eq!(budget.0.load(Ordering::Acquire), 5, "abc and de");
        assert_eq!(body.received, 15);
        drop(body);
        assert_eq!(budget.0.load(Ordering::Acquire), 0);
    }
}
