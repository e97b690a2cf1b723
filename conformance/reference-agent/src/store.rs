//! The bounded task store and `ListTasks` (spec 3.1.4).
//!
//! Tasks are kept in a map by id and in a queue by creation time. Adding
//! a task evicts, oldest first, every task created longer ago than the
//! time to live and as many as needed to stay within the count bound:
//! O(1) amortized per task, whatever the store holds.

use std::collections::{HashMap, VecDeque};
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
}

impl Store {
    pub(crate) fn new(max_tasks: usize, ttl: Duration) -> Store {
        Store {
            inner: Mutex::new(Inner::default()),
            max_tasks: max_tasks.max(1),
            ttl,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a task, evicting what the bounds require.
    pub(crate) fn insert(&self, entry: Arc<TaskEntry>) {
        let evicted = {
            let mut inner = self.lock();
            let now = Instant::now();
            inner.order.push_back((entry.created, entry.id.clone()));
            inner.map.insert(entry.id.clone(), entry);
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
            evicted
        };
        // Outside the store's lock: an entry's lock is never taken while
        // holding the store's.
        for entry in evicted {
            entry.evict();
        }
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
