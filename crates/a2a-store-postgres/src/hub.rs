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
        {
            let mut known = lock(&self.known);
            if known.ids.remove(id) {
                known.order.retain(|k| k != id);
            }
        }
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
