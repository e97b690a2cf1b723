//! SSE keep-alive comments in a quiet stream (spec 9.4.2, 11.7 leave the
//! connection's upkeep to the server): after each interval in which the
//! agent sent nothing, one [`keep_alive_frame`] goes out, so that proxies
//! and load balancers do not close an idle connection. Receivers ignore
//! comments (HTML "event stream interpretation").
//!
//! Waiting needs a clock, which this crate never reads: the host supplies
//! a [`Timer`] (the same trait the resilient client uses), and
//! [`ServerConfig::with_keep_alive`](crate::ServerConfig::with_keep_alive)
//! turns it on for every stream the server answers.

use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_core::Stream;

use crate::body::keep_alive_frame;
use a2a_wire::BoxFuture;
use a2a_wire::Timer;

/// How often a quiet stream sends a keep-alive comment, and the host's
/// clock to measure it with.
///
/// ```
/// use std::time::Duration;
/// use a2a_server::{KeepAlive, BoxFuture};
///
/// // With tokio: |d| Box::pin(tokio::time::sleep(d)) as BoxFuture<'static, ()>
/// let timer = |_: Duration| -> BoxFuture<'static, ()> { Box::pin(async {}) };
/// let keep_alive = KeepAlive::new(Duration::from_secs(15), timer);
/// assert_eq!(keep_alive.interval(), Duration::from_secs(15));
/// assert_eq!(KeepAlive::new(Duration::ZERO, |_| -> BoxFuture<'static, ()> { Box::pin(async {}) })
///     .interval(), KeepAlive::MIN_INTERVAL);
/// ```
#[derive(Clone)]
pub struct KeepAlive {
    interval: Duration,
    timer: Arc<dyn Timer>,
}

impl KeepAlive {
    /// The shortest interval: shorter ones are raised to it, so that a
    /// zero interval cannot flood the connection with comments.
    pub const MIN_INTERVAL: Duration = Duration::from_millis(10);

    /// A comment after each `interval` (at least [`MIN_INTERVAL`](Self::MIN_INTERVAL))
    /// in which the stream sent nothing, timed by `timer`.
    pub fn new(interval: Duration, timer: impl Timer + 'static) -> KeepAlive {
        KeepAlive {
            interval: interval.max(Self::MIN_INTERVAL),
            timer: Arc::new(timer),
        }
    }

    /// The interval.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// `frames` with keep-alive comments in its quiet intervals.
    pub fn apply<S>(&self, frames: S) -> KeepAliveStream<S>
    where
        S: Stream<Item = Bytes> + Unpin,
    {
        KeepAliveStream {
            frames: Some(frames),
            keep_alive: self.clone(),
            sleep: None,
        }
    }
}

impl fmt::Debug for KeepAlive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeepAlive")
            .field("interval", &self.interval)
            .finish_non_exhaustive()
    }
}

/// A stream of SSE frames with a [`keep_alive_frame`] after each quiet
/// interval: the frames come through as they are, and the stream ends
/// when they end ([`KeepAlive::apply`]).
///
/// The timer is started when the frames have nothing to give and dropped
/// when they give something, so a comment follows a whole interval of
/// silence, and a busy stream gets none.
pub struct KeepAliveStream<S> {
    frames: Option<S>,
    keep_alive: KeepAlive,
    sleep: Option<BoxFuture<'static, ()>>,
}

impl<S> fmt::Debug for KeepAliveStream<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeepAliveStream")
            .field("keep_alive", &self.keep_alive)
            .field("ended", &self.frames.is_none())
            .finish_non_exhaustive()
    }
}

impl<S> Stream for KeepAliveStream<S>
where
    S: Stream<Item = Bytes> + Unpin,
{
    type Item = Bytes;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Bytes>> {
        let this = self.get_mut();
        let Some(frames) = this.frames.as_mut() else {
            return Poll::Ready(None);
        };
        match Pin::new(frames).poll_next(cx) {
            Poll::Ready(Some(bytes)) => {
                this.sleep = None;
                Poll::Ready(Some(bytes))
            }
            Poll::Ready(None) => {
                this.frames = None;
                this.sleep = None;
                Poll::Ready(None)
            }
            Poll::Pending => {
                let KeepAlive { interval, timer } = &this.keep_alive;
                let sleep = this.sleep.get_or_insert_with(|| timer.sleep(*interval));
                match sleep.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        this.sleep = None;
                        Poll::Ready(Some(keep_alive_frame()))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::task::Waker;

    /// A timer whose sleeps complete when the test says so.
    #[derive(Default)]
    struct Manual {
        fired: Arc<AtomicBool>,
        started: Arc<AtomicUsize>,
    }

    impl Timer for Manual {
        fn sleep(&self, _: Duration) -> BoxFuture<'static, ()> {
            self.started.fetch_add(1, Ordering::SeqCst);
            let fired = Arc::clone(&self.fired);
            Box::pin(std::future::poll_fn(move |_| {
                if fired.swap(false, Ordering::SeqCst) {
                    Poll::Ready(())
                } else {
                    Poll::Pending
                }
            }))
        }
    }

    /// Frames the test hands out one poll at a time: `Some` gives a
    /// chunk, `None` is pending; the stream ends when the script does.
    struct Script(Vec<Option<&'static str>>);

    impl Stream for Script {
        type Item = Bytes;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Bytes>> {
            if self.0.is_empty() {
                return Poll::Ready(None);
            }
            match self.0.remove(0) {
                Some(chunk) => Poll::Ready(Some(Bytes::from_static(chunk.as_bytes()))),
                None => Poll::Pending,
            }
        }
    }

    #[test]
    fn a_comment_follows_a_quiet_interval_and_data_resets_the_timer() {
        let timer = Manual::default();
        let (fired, started) = (Arc::clone(&timer.fired), Arc::clone(&timer.started));
        let keep_alive = KeepAlive::new(Duration::from_secs(15), timer);
        let script = Script(vec![None, None, Some("data: 1\n\n"), None, None]);
        let mut stream = keep_alive.apply(script);
        let mut cx = Context::from_waker(Waker::noop());
        let mut poll = || Pin::new(&mut stream).poll_next(&mut cx);

        // Quiet, the interval not over: nothing.
        assert_eq!(poll(), Poll::Pending);
        assert_eq!(started.load(Ordering::SeqCst), 1);
        // Quiet for the whole interval: a comment.
        fired.store(true, Ordering::SeqCst);
        assert_eq!(poll(), Poll::Ready(Some(keep_alive_frame())));
        // Data passes through as it is, and drops the timer...
        assert_eq!(
            poll(),
            Poll::Ready(Some(Bytes::from_static(b"data: 1\n\n")))
        );
        // ...so the next quiet spell starts a fresh one.
        assert_eq!(poll(), Poll::Pending);
        assert_eq!(started.load(Ordering::SeqCst), 2);
        assert_eq!(poll(), Poll::Pending);
        assert_eq!(
            started.load(Ordering::SeqCst),
            2,
            "one timer per quiet spell"
        );
        // The frames end: so does the stream, for good.
        assert_eq!(poll(), Poll::Ready(None));
        assert_eq!(poll(), Poll::Ready(None));
    }

    #[test]
    fn a_busy_stream_starts_no_timer() {
        let timer = Manual::default();
        let started = Arc::clone(&timer.started);
        let keep_alive = KeepAlive::new(Duration::from_millis(1), timer);
        assert_eq!(keep_alive.interval(), KeepAlive::MIN_INTERVAL);
        let mut stream = keep_alive.apply(Script(vec![Some("a"), Some("b")]));
        let mut cx = Context::from_waker(Waker::noop());
        let mut got = Vec::new();
        while let Poll::Ready(Some(chunk)) = Pin::new(&mut stream).poll_next(&mut cx) {
            got.push(chunk);
        }
        assert_eq!(got, [Bytes::from_static(b"a"), Bytes::from_static(b"b")]);
        assert_eq!(started.load(Ordering::SeqCst), 0);
        assert!(format!("{stream:?}").contains("ended: true"));
    }
}
