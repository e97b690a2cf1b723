//! A runtime-free change signal: the event seam of a store.
//!
//! A [`Signal`] counts changes and wakes the [`SignalWatch`]es taken from
//! it. A watch remembers the count it has seen, so a change between taking
//! the watch and polling it is never missed; it wakes only once per batch
//! of changes, however many there were (readers then read the log at their
//! own pace). The in-memory store keeps one per task; a store on another
//! machine implements [`TaskWatch`](crate::store::TaskWatch) with its own
//! notifications (and may use a `Signal` inside to fan them out locally).

use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use crate::store::{Change, TaskWatch};

/// A change counter with wakers.
#[derive(Debug, Default)]
pub struct Signal {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    count: u64,
    closed: bool,
    watchers: usize,
    next_id: u64,
    wakers: Vec<(u64, Waker)>,
}

impl Signal {
    /// A signal with no changes and no watchers.
    pub fn new() -> Arc<Signal> {
        Arc::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every change of the state is one assignment: a panic elsewhere
        // cannot leave it half-done.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records a change and wakes every waiting watch.
    pub fn notify(&self) {
        let wakers = {
            let mut state = self.lock();
            state.count += 1;
            std::mem::take(&mut state.wakers)
        };
        for (_, waker) in wakers {
            waker.wake();
        }
    }

    /// Ends the signal: every watch reports [`Change::Closed`] from now on.
    pub fn close(&self) {
        let wakers = {
            let mut state = self.lock();
            state.closed = true;
            std::mem::take(&mut state.wakers)
        };
        for (_, waker) in wakers {
            waker.wake();
        }
    }

    /// How many watches are alive.
    pub fn watchers(&self) -> usize {
        self.lock().watchers
    }

    /// A watch that reports the changes after this call.
    pub fn watch(self: &Arc<Self>) -> SignalWatch {
        let mut state = self.lock();
        state.watchers += 1;
        state.next_id += 1;
        SignalWatch {
            signal: Arc::clone(self),
            seen: state.count,
            id: state.next_id,
        }
    }
}

/// One reader's view of a [`Signal`].
#[derive(Debug)]
pub struct SignalWatch {
    signal: Arc<Signal>,
    seen: u64,
    id: u64,
}

impl TaskWatch for SignalWatch {
    fn poll_change(&mut self, cx: &mut Context<'_>) -> Poll<Change> {
        let mut state = self.signal.lock();
        if state.count != self.seen {
            self.seen = state.count;
            return Poll::Ready(Change::Changed);
        }
        if state.closed {
            return Poll::Ready(Change::Closed);
        }
        match state.wakers.iter_mut().find(|(id, _)| *id == self.id) {
            Some((_, waker)) => waker.clone_from(cx.waker()),
            None => state.wakers.push((self.id, cx.waker().clone())),
        }
        Poll::Pending
    }
}

impl Drop for SignalWatch {
    fn drop(&mut self) {
        let mut state = self.signal.lock();
        state.watchers -= 1;
        state.wakers.retain(|(id, _)| *id != self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    fn poll(watch: &mut SignalWatch) -> Poll<Change> {
        watch.poll_change(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn a_watch_sees_changes_after_it_was_taken_once_per_batch() {
        let signal = Signal::new();
        signal.notify();
        let mut watch = signal.watch();
        assert_eq!(
            poll(&mut watch),
            Poll::Pending,
            "an earlier change is not news"
        );
        signal.notify();
        signal.notify();
        assert_eq!(poll(&mut watch), Poll::Ready(Change::Changed));
        assert_eq!(poll(&mut watch), Poll::Pending);
        assert_eq!(signal.watchers(), 1);
        signal.close();
        assert_eq!(poll(&mut watch), Poll::Ready(Change::Closed));
        drop(watch);
        assert_eq!(signal.watchers(), 0);
        assert!(
            signal.lock().wakers.is_empty(),
            "a dropped watch leaves no waker"
        );
    }
}
