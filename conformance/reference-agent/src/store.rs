//! The bounded task store and `ListTasks` (spec 3.1.4).
//!
//! Tasks are kept in a map by id and in a queue by creation time. Adding
//! a task (or a [`Store::sweep`], which the agent's host runs on a timer)
//! evicts, oldest first, every task created longer ago than the time to
//! live and as many as needed to stay within the count bound: O(1)
//! amortized per task, whatever the store holds. Then, while the tasks'
//! weight ([`crate::weight`]) is over the byte budget, the oldest
//! terminal task goes, or the oldest of all when none is terminal.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use a2a_types::{TaskCursor, TaskState, Timestamp};

use crate::task::{Scope, TaskEntry};

#[derive(Debug, Default)]
struct Inner {
    map: HashMap<String, Arc<TaskEntry>>,
    order: VecDeque<(Instant, String)>,
}

/// The tasks of the agent.
#[derive(Debug)]
pub(crate) struct Store {
    inner: Mutex<Inner>,
    max_tasks: usize,
    ttl: Duration,
    max_bytes: usize,
    /// The weight of every stored task, kept by the tasks themselves.
    bytes: Arc<AtomicUsize>,
}

impl Store {
    pub(crate) fn new(max_tasks: usize, ttl: Duration, max_bytes: usize) -> Store {
        Store {
            inner: Mutex::new(Inner::default()),
            max_tasks: max_tasks.max(1),
            ttl,
            max_bytes,
            bytes: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The counter a new task's weight goes into.
    pub(crate) fn bytes(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.bytes)
    }

    /// The weight of the stored tasks.
    pub(crate) fn weight(&self) -> usize {
        self.bytes.load(Ordering::Acquire)
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a task, evicting what the bounds require.
    pub(crate) fn insert(&self, entry: Arc<TaskEntry>) {
        let evicted = {
            let mut inner = self.lock();
            inner.order.push_back((entry.created, entry.id.clone()));
            inner.map.insert(entry.id.clone(), entry);
            self.over_bounds(&mut inner)
        };
        // Outside the store's lock: an entry's lock is never taken while
        // holding the store's.
        for entry in evicted {
            entry.evict();
        }
    }

    /// Evicts what the bounds require without adding a task: expired
    /// tasks go even when none arrives. Returns how many went.
    pub(crate) fn sweep(&self) -> usize {
        let evicted = self.over_bounds(&mut self.lock());
        let n = evicted.len();
        for entry in evicted {
            entry.evict();
        }
        n
    }

    /// Takes out of the store, for the caller to evict, the expired tasks,
    /// the oldest beyond the count bound, then, oldest first, terminal
    /// tasks (or, when none is terminal, any but the newest) while the
    /// weight is over the byte budget. The weight is read before each
    /// eviction and each evicted task takes its weight off when the caller
    /// evicts it, so the loop counts what it has taken out already.
    fn over_bounds(&self, inner: &mut Inner) -> Vec<Arc<TaskEntry>> {
        let now = Instant::now();
        let mut evicted = Vec::new();
        while let Some((created, _)) = inner.order.front() {
            let expired = now.duration_since(*created) > self.ttl;
            if !expired && inner.map.len() <= self.max_tasks {
                break;
            }
            if let Some((_, id)) = inner.order.pop_front() {
                evicted.extend(inner.map.remove(&id));
            }
        }
        let mut weight = self
            .weight()
            .saturating_sub(evicted.iter().map(|e| e.weight()).sum());
        while weight > self.max_bytes && inner.map.len() > 1 {
            let terminal = inner
                .order
                .iter()
                .position(|(_, id)| inner.map.get(id).is_some_and(|e| e.is_terminal()));
            let Some((_, id)) = inner.order.remove(terminal.unwrap_or(0)) else {
                break;
            };
            if let Some(entry) = inner.map.remove(&id) {
                weight = weight.saturating_sub(entry.weight());
                evicted.push(entry);
            }
        }
        evicted
    }

    /// The task `id` if `scope` may see it (spec 13.1): another scope's
    /// task is as missing as one that never existed.
    pub(crate) fn get(&self, id: &str, scope: &Scope) -> Option<Arc<TaskEntry>> {
        self.lock()
            .map
            .get(id)
            .filter(|e| e.scope == *scope)
            .cloned()
    }

    /// Every task `scope` may see.
    pub(crate) fn visible(&self, scope: &Scope) -> Vec<Arc<TaskEntry>> {
        self.lock()
            .map
            .values()
            .filter(|e| e.scope == *scope)
            .cloned()
            .collect()
    }

    /// How many tasks are stored.
    pub(crate) fn len(&self) -> usize {
        self.lock().map.len()
    }
}

/// The filters of one `ListTasks` call.
#[derive(Debug)]
pub(crate) struct Filter<'a> {
    pub(crate) context_id: &'a str,
    pub(crate) status: TaskState,
    pub(crate) after: Option<Timestamp>,
}

impl Filter<'_> {
    pub(crate) fn admits(&self, state: TaskState, timestamp: Timestamp, context_id: &str) -> bool {
        (self.context_id.is_empty() || self.context_id == context_id)
            && (self.status == TaskState::Unspecified || self.status == state)
            && self.after.is_none_or(|after| timestamp >= after)
    }
}

/// One page: the entries in order, how many matched in all, and the
/// token of the next page (empty on the last).
pub(crate) struct Page {
    pub(crate) entries: Vec<Arc<TaskEntry>>,
    pub(crate) total: usize,
    pub(crate) next_token: String,
}

/// Selects, orders and pages `candidates`.
///
/// Keyset pagination: the order is a total order on (status timestamp,
/// id), and a page starts strictly after the cursor. So while tasks
/// change, no task is returned twice and no task that did not change is
/// skipped; a task updated meanwhile moves to the front of the order and
/// is seen by a new listing.
pub(crate) fn page(
    candidates: Vec<Arc<TaskEntry>>,
    filter: &Filter<'_>,
    after: Option<&TaskCursor>,
    size: usize,
) -> Page {
    let mut keyed: Vec<(TaskCursor, Arc<TaskEntry>)> = candidates
        .into_iter()
        .filter_map(|e| {
            let (state, timestamp, context_id) = e.status_key();
            filter
                .admits(state, timestamp, &context_id)
                .then(|| (TaskCursor::new(timestamp, e.id.clone()), e))
        })
        .collect();
    let total = keyed.len();
    keyed.sort_unstable_by(|a, b| b.0.cmp(&a.0));
    let start = match after {
        None => 0,
        Some(cursor) => keyed.partition_point(|(key, _)| key >= cursor),
    };
    let rest = &keyed[start..];
    let take = size.min(rest.len());
    let next_token = if rest.len() > take {
        rest[take - 1].0.encode()
    } else {
        String::new()
    };
    Page {
        entries: rest[..take].iter().map(|(_, e)| Arc::clone(e)).collect(),
        total,
        next_token,
    }
}
