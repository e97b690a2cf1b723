//! Local fan-out: one [`Signal`] per watched task id, fed by this store's
//! own writes and by the notifications the listener receives from the
//! other stores on the database; and the bounded set of ids known to
//! exist, which lets `watch` answer without a round trip.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use a2a_agent::store::{Change, TaskWatch};
use a2a_agent::{Signal, SignalWatch};

/// The watched tasks of one store and the ids it knows exist.
#[derive(Debug)]
pub(crate) struct Hub {
    signals: Mutex<HashMap<String, Arc<Signal>>>,
    known: Mutex<Known>,
    /// How many times the listener connected again after losing its
    /// connection.
    pub(crate) reconnects: AtomicU64,
}

/// Ids seen to exist, oldest forgotten first beyond `cap`.
#[derive(Debug)]
struct Known {
    ids: HashSet<String>,
    order: VecDeque<String>,
    cap: usize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every change under these locks is a single insert or remove.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hub {
    pub(crate) fn new(known_cap: usize) -> Arc<Hub> {
        Arc::new(Hub {
            signals: Mutex::default(),
            known: Mutex::new(Known {
                ids: HashSet::new(),
                order: VecDeque::new(),
                cap: known_cap,
            }),
            reconnects: AtomicU64::new(0),
        })
    }

    /// Records that task `id` exists.
    pub(crate) fn known(&self, id: &str) {
        let mut known = lock(&self.known);
        if known.cap == 0 || known.ids.contains(id) {
            return;
        }
        while known.order.len() >= known.cap {
            if let Some(old) = known.order.pop_front() {
                known.ids.remove(&old);
            }
        }
        known.ids.insert(id.to_owned());
        known.order.push_back(id.to_owned());
    }

    /// Whether task `id` was seen to exist (and not seen to go since).
    pub(crate) fn is_known(&self, id: &str) -> bool {
        lock(&self.known).ids.contains(id)
    }

    /// Forgets every known id (after a reconnect, when removals may have
    /// been missed).
    pub(crate) fn forget_all(&self) {
        let mut known = lock(&self.known);
        known.ids.clear();
        known.order.clear();
    }

    /// A watch of task `id`, sharing the task's signal with its other
    /// watches in this store.
    pub(crate) fn watch(self: &Arc<Self>, id: &str) -> Box<dyn TaskWatch> {
        let mut signals = lock(&self.signals);
        let signal = Arc::clone(signals.entry(id.to_owned()).or_default());
        let inner = signal.watch();
        Box::new(PgWatch {
            inner,
            signal,
            id: id.to_owned(),
            hub: Arc::clone(self),
        })
    }

    /// Task `id` changed: its watches report it.
    pub(crate) fn changed(&self, id: &str) {
        let signal = lock(&self.signals).get(id).cloned();
        if let Some(signal) = signal {
            signal.notify();
        }
    }

    /// Task `id` is gone: its watches report `Closed`.
    pub(crate) fn removed(&self, id: &str) {
        // Its place in the order stays until it comes up (bounded by the
        // cap); if the id is known again meanwhile, that place only makes
        // it forgotten early: a round trip, never a wrong answer.
        lock(&self.known).ids.remove(id);
        let signal = lock(&self.signals).remove(id);
        if let Some(signal) = signal {
            signal.close();
        }
    }

    /// Every watched task may have changed (notifications were lost): all
    /// watches report `Changed`, and their readers catch up from the log.
    pub(crate) fn all_changed(&self) {
        let signals: Vec<Arc<Signal>> = lock(&self.signals).values().cloned().collect();
        for signal in signals {
            signal.notify();
        }
    }

    /// How many tasks have a live watch in this store.
    pub(crate) fn watched(&self) -> usize {
        lock(&self.signals).len()
    }

    pub(crate) fn reconnected(&self) {
        self.reconnects.fetch_add(1, Ordering::AcqRel);
        self.forget_all();
        self.all_changed();
    }
}

/// A watch of one task; the last one of a task takes the task's signal out
/// of the hub.
struct PgWatch {
    inner: SignalWatch,
    signal: Arc<Signal>,
    id: String,
    hub: Arc<Hub>,
}

impl TaskWatch for PgWatch {
    fn poll_change(&mut self, cx: &mut Context<'_>) -> Poll<Change> {
        self.inner.poll_change(cx)
    }
}

impl Drop for PgWatch {
    fn drop(&mut self) {
        let mut signals = lock(&self.hub.signals);
        // This watch is still counted; `Hub::watch` counts a new one under
        // the same lock, so none can join between this check and the
        // removal.
        if self.signal.watchers() <= 1
            && signals
                .get(&self.id)
                .is_some_and(|s| Arc::ptr_eq(s, &self.signal))
        {
            signals.remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    fn poll(watch: &mut Box<dyn TaskWatch>) -> Poll<Change> {
        watch.poll_change(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn known_ids_are_bounded_oldest_forgotten_first() {
        let hub = Hub::new(2);
        hub.known("a");
        hub.known("b");
        hub.known("a");
        hub.known("c");
        assert!(!hub.is_known("a") && hub.is_known("b") && hub.is_known("c"));
        hub.removed("b");
        assert!(!hub.is_known("b"));
        hub.forget_all();
        assert!(!hub.is_known("c"));
    }

    #[test]
    fn watches_of_a_task_share_its_signal_until_the_last_goes() {
        let hub = Hub::new(8);
        let mut one = hub.watch("t");
        let mut two = hub.watch("t");
        let mut other = hub.watch("u");
        assert_eq!(hub.watched(), 2);
        hub.changed("t");
        assert_eq!(poll(&mut one), Poll::Ready(Change::Changed));
        assert_eq!(poll(&mut two), Poll::Ready(Change::Changed));
        assert_eq!(poll(&mut other), Poll::Pending, "another task's change");
        drop(one);
        assert_eq!(hub.watched(), 2, "t still has a watch");
        drop(two);
        assert_eq!(hub.watched(), 1, "the last watch of t took its signal");
        hub.all_changed();
        assert_eq!(poll(&mut other), Poll::Ready(Change::Changed));
        hub.removed("u");
        assert_eq!(poll(&mut other), Poll::Ready(Change::Closed));
        assert_eq!(hub.watched(), 0);
        // A task made again after its removal gets a fresh signal.
        let mut again = hub.watch("u");
        assert_eq!(poll(&mut again), Poll::Pending);
    }
}
