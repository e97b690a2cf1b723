//! [`InMemoryTaskStore`]: the bounded store of one process.
//!
//! Tasks are kept in a map by id and in a queue by creation time (one for
//! the store, one per owner), each behind its own lock. Creating a task
//! (or a [`sweep`](TaskStore::sweep), which the host runs on a timer)
//! first evicts every task created longer ago than the time to live. Then
//! it makes room, never taking another owner's unfinished task:
//!
//! - within the creator's quota ([`MemoryLimits::max_tasks_per_owner`],
//!   [`MemoryLimits::max_bytes_per_owner`]) the creator's oldest terminal
//!   task goes; when all of the creator's tasks go on, the create is
//!   refused ([`StoreError::Quota`]);
//! - within the store's bounds (`max_tasks`, `max_store_bytes`) the oldest
//!   terminal task of any owner goes, else the creator's own oldest task;
//!   when neither exists, the create is refused ([`StoreError::Busy`]).
//!
//! Events are applied in place under the task's lock and kept in a
//! bounded ring only while someone may read them: a watch is alive, or
//! the task goes on and was watched (for a resubscription with
//! `Last-Event-ID`). What
//! running tasks gain and what their rings hold is their running weight,
//! against [`MemoryLimits::max_running_bytes`].

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use a2a_transport::metrics::{StoreStats, StoreStatsSource};
use a2a_types::{
    apply, Message, StreamResponse, Task, TaskCursor, TaskPushNotificationConfig, TaskState,
    Timestamp,
};

use super::{
    bound_history, record_message, weight, Appended, LogRead, StoreError, StoreFuture, StoredTask,
    TaskPage, TaskQuery, TaskStore, TaskWatch, View,
};
use crate::notify::Signal;
use crate::owner::Owner;

/// The bounds of an [`InMemoryTaskStore`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct MemoryLimits {
    /// The most tasks held at once (default 10 000). At the bound the
    /// oldest terminal task goes, else the creator's own oldest.
    pub max_tasks: usize,
    /// How long after its creation a task is kept at most (default an
    /// hour; spec 3.4.1 lets agents expire contexts).
    pub task_ttl: Duration,
    /// The estimated bytes the stored tasks may weigh (default 32 MiB).
    pub max_store_bytes: usize,
    /// The most tasks one owner holds at once (default 2 500, a quarter
    /// of `max_tasks`): at the quota the owner's oldest terminal task
    /// goes, and when all of them go on the owner's create is refused.
    pub max_tasks_per_owner: usize,
    /// The estimated bytes one owner's tasks may weigh (default 8 MiB, a
    /// quarter of `max_store_bytes`), kept the same way.
    pub max_bytes_per_owner: usize,
    /// The estimated bytes running work may hold (default 64 MiB): what
    /// unfinished tasks gained since they were last weighed and the
    /// events their logs keep. While it is spent no task is created, and
    /// a task holding more than its share (the budget over the tasks
    /// holding any) has its artifact updates refused.
    pub max_running_bytes: usize,
    /// The most messages of a task's history kept (default 100).
    pub max_history: usize,
    /// The most events of a task's log kept (default 256).
    pub max_events_per_task: usize,
    /// The most push configs per task (default 16).
    pub max_push_configs_per_task: usize,
}

impl Default for MemoryLimits {
    fn default() -> MemoryLimits {
        MemoryLimits {
            max_tasks: 10_000,
            task_ttl: Duration::from_secs(3600),
            max_store_bytes: 32 << 20,
            max_tasks_per_owner: 2_500,
            max_bytes_per_owner: 8 << 20,
            max_running_bytes: 64 << 20,
            max_history: 100,
            max_events_per_task: 256,
            max_push_configs_per_task: 16,
        }
    }
}

/// The bounded in-memory [`TaskStore`]. Cloning is cheap and shares the
/// tasks.
#[derive(Debug, Clone, Default)]
pub struct InMemoryTaskStore {
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    index: Mutex<Index>,
    limits: MemoryLimits,
    counters: Arc<Counters>,
}

/// What the tasks keep count of themselves, without the index's lock.
#[derive(Debug, Default)]
struct Counters {
    /// The weight of every stored task.
    bytes: AtomicUsize,
    /// The running weight of every task (see [`Entry::account`]).
    running_bytes: AtomicUsize,
    /// How many tasks have a running weight.
    running_tasks: AtomicUsize,
}

#[derive(Debug, Default)]
struct Index {
    /// The three lists share one allocation of each task id.
    map: HashMap<Arc<str>, Arc<Entry>, BuildHasherDefault<IdHasher>>,
    order: VecDeque<(Timestamp, Arc<str>)>,
    /// SipHash, unlike `map`: an owner's tenant comes from the request.
    owners: HashMap<Owner, Usage>,
}

/// One owner's share of the store: its tasks, oldest first, and their
/// weight (kept by the tasks, like the store's).
#[derive(Debug, Default)]
struct Usage {
    order: VecDeque<Arc<str>>,
    bytes: Arc<AtomicUsize>,
}

impl Index {
    /// Takes task `id` out of the index (its queues and its owner's
    /// share) and its weight out of the counts; the caller evicts it.
    fn remove(&mut self, id: &str) -> Option<Arc<Entry>> {
        let entry = self.map.remove(id)?;
        if let Some(at) = self.order.iter().position(|(_, o)| **o == *id) {
            self.order.remove(at);
        }
        if let Some(usage) = self.owners.get_mut(&entry.owner) {
            if let Some(at) = usage.order.iter().position(|o| **o == *id) {
                usage.order.remove(at);
            }
            if usage.order.is_empty() {
                self.owners.remove(&entry.owner);
            }
        }
        entry.release_weight();
        Some(entry)
    }

    /// The oldest terminal task of `owner` (of anyone when `None`).
    fn oldest_terminal(&self, owner: Option<&Owner>) -> Option<Arc<str>> {
        let terminal = |id: &Arc<str>| self.map.get(id).is_some_and(|e| e.is_terminal());
        match owner {
            Some(owner) => self.owners.get(owner)?.order.iter().find(|id| terminal(id)),
            None => self.order.iter().map(|(_, id)| id).find(|id| terminal(id)),
        }
        .cloned()
    }

    fn owner_tasks(&self, owner: &Owner) -> usize {
        self.owners.get(owner).map_or(0, |u| u.order.len())
    }

    fn owner_bytes(&self, owner: &Owner) -> usize {
        self.owners
            .get(owner)
            .map_or(0, |u| u.bytes.load(Ordering::Acquire))
    }
}

/// The index's hasher: a word at a time, each mixed in by a folded
/// multiply (the high half of the 128-bit product folded onto the low, as
/// foldhash does), a fraction of SipHash's cost on every lookup. Flooding
/// needs colliding keys inserted, and the keys are task ids the handler
/// generates; a lookup of a caller's id only hashes it.
#[derive(Debug, Default, Clone, Copy)]
struct IdHasher(u64);

impl IdHasher {
    fn add(&mut self, word: u64) {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        const SEED: u64 = 0x243f_6a88_85a3_08d3;
        // Offset so that a zero word still moves the state.
        let product = u128::from(self.0.wrapping_add(word) ^ SEED) * u128::from(K);
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }
}

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(<[u8; 8]>::try_from(word).map_or(0, u64::from_le_bytes));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
}

#[derive(Debug)]
struct Entry {
    id: String,
    owner: Owner,
    state: Mutex<EntryState>,
    signal: Arc<Signal>,
    /// What the task was last weighed at, counted in the store's bytes
    /// and its owner's.
    weight: AtomicUsize,
    /// Its running weight, counted in the store's running bytes.
    running: AtomicUsize,
    counters: Arc<Counters>,
    owner_bytes: Arc<AtomicUsize>,
    /// Readable without the entry's lock (the index reads it under its
    /// own lock, which never waits for an entry's).
    terminal: AtomicBool,
    /// Whether the task was ever watched. Until it is, no reader holds a
    /// position in its log (subscribers and push loops watch before they
    /// read), so its events are not copied into it: a reader that comes
    /// later starts from the task itself.
    watched: AtomicBool,
    max_history: usize,
    max_running_bytes: usize,
}

#[derive(Debug)]
struct EntryState {
    task: Task,
    version: u64,
    /// What the task gained (artifacts, status messages) since it was
    /// last weighed.
    growth: usize,
    log: EventLog,
    push: Vec<TaskPushNotificationConfig>,
    evicted: bool,
}

/// The last `cap` events, numbered from 0 in append order.
#[derive(Debug)]
struct EventLog {
    next: u64,
    events: VecDeque<StreamResponse>,
    cap: usize,
    /// What the events kept weigh.
    bytes: usize,
}

impl EventLog {
    fn first(&self) -> u64 {
        self.next - self.events.len() as u64
    }

    /// Drops every event and the buffer that held them (`clear` would keep
    /// the buffer: 344 bytes an event, for every finished task).
    fn free(&mut self) {
        self.events = VecDeque::new();
        self.bytes = 0;
    }

    /// Numbers the next event, keeping it with its weight when given
    /// (`None`: nobody can read it, and the log is emptied).
    fn push(&mut self, event: Option<(StreamResponse, usize)>) {
        match event {
            Some((event, weight)) => {
                if self.events.len() >= self.cap {
                    if let Some(old) = self.events.pop_front() {
                        self.bytes = self.bytes.saturating_sub(weight::event(&old));
                    }
                }
                self.bytes += weight;
                self.events.push_back(event);
            }
            None => self.free(),
        }
        self.next += 1;
    }
}

impl InMemoryTaskStore {
    /// A store within `limits`.
    pub fn new(limits: MemoryLimits) -> InMemoryTaskStore {
        InMemoryTaskStore {
            shared: Arc::new(Shared {
                index: Mutex::default(),
                limits,
                counters: Arc::default(),
            }),
        }
    }

    /// The bounds it keeps.
    pub fn limits(&self) -> &MemoryLimits {
        &self.shared.limits
    }

    /// How many tasks it holds.
    pub fn len(&self) -> usize {
        self.index().map.len()
    }

    /// Whether it holds no task.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What the stored tasks weigh, in estimated bytes (at most about
    /// `max_store_bytes` after the next create or sweep).
    pub fn weight(&self) -> usize {
        self.shared.counters.bytes.load(Ordering::Acquire)
    }

    /// What running work holds, in estimated bytes: what unfinished tasks
    /// gained since they were last weighed and the events logs keep
    /// (against `max_running_bytes`).
    pub fn running_weight(&self) -> usize {
        self.shared.counters.running_bytes.load(Ordering::Acquire)
    }

    /// How many tasks `owner` holds now.
    pub fn owned_by(&self, owner: &Owner) -> usize {
        self.index().owner_tasks(owner)
    }

    /// How many events the log of task `id` holds now.
    pub fn logged(&self, id: &str) -> Option<usize> {
        self.entry(id).map(|e| e.lock().log.events.len())
    }

    /// What it holds now, for metrics: tasks by state, their weight
    /// against `max_store_bytes`, and the watches readers hold. Reads
    /// every task, so it is for a scrape, not the request path.
    pub fn stats(&self) -> StoreStats {
        // The index lock is not held while the tasks are read.
        let entries: Vec<Arc<Entry>> = self.index().map.values().cloned().collect();
        let mut stats = StoreStats::new();
        for entry in &entries {
            stats.count(entry.lock().task.status.state);
            stats.subscribers += entry.signal.watchers() as u64;
        }
        stats.bytes = self.weight() as u64;
        stats.budget_bytes = Some(self.shared.limits.max_store_bytes as u64);
        stats
    }

    fn index(&self) -> MutexGuard<'_, Index> {
        self.shared.index.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn entry(&self, id: &str) -> Option<Arc<Entry>> {
        self.index().map.get(id).cloned()
    }

    fn owned(&self, owner: &Owner, id: &str) -> Result<Arc<Entry>, StoreError> {
        self.index()
            .map
            .get(id)
            .filter(|e| e.owner == *owner)
            .cloned()
            .ok_or(StoreError::NotFound)
    }

    /// Takes out of the index, for the caller to evict, the tasks created
    /// longer ago than the time to live.
    fn expired(&self, index: &mut Index, now: Timestamp) -> Vec<Arc<Entry>> {
        let ttl = i64::try_from(self.shared.limits.task_ttl.as_millis()).unwrap_or(i64::MAX);
        let mut evicted = Vec::new();
        while let Some((created, id)) = index.order.front() {
            let age = now.unix_millis().saturating_sub(created.unix_millis());
            if age <= ttl {
                break;
            }
            let id = Arc::clone(id);
            evicted.extend(index.remove(&id));
        }
        evicted
    }

    /// Takes out of the index, oldest first, terminal tasks while the
    /// store or an owner weighs more than it may (tasks are weighed again
    /// when they settle, after they were let in). Unfinished tasks stay:
    /// their owners' next creates make room or are refused.
    fn overweight(&self, index: &mut Index) -> Vec<Arc<Entry>> {
        let limits = &self.shared.limits;
        let mut evicted = Vec::new();
        while self.weight() > limits.max_store_bytes {
            let Some(id) = index.oldest_terminal(None) else {
                break;
            };
            evicted.extend(index.remove(&id));
        }
        let heavy: Vec<Owner> = index
            .owners
            .iter()
            .filter(|(_, u)| u.bytes.load(Ordering::Acquire) > limits.max_bytes_per_owner)
            .map(|(owner, _)| owner.clone())
            .collect();
        for owner in heavy {
            while index.owner_bytes(&owner) > limits.max_bytes_per_owner {
                let Some(id) = index.oldest_terminal(Some(&owner)) else {
                    break;
                };
                evicted.extend(index.remove(&id));
            }
        }
        evicted
    }

    /// Makes room for a task of `owner` weighing `weight`, taking out what
    /// goes into `evicted`: first within the owner's quota (only its own
    /// terminal tasks go), then within the store's bounds (anyone's
    /// terminal task, else the owner's own oldest). Another owner's
    /// unfinished task never goes.
    fn make_room(
        &self,
        index: &mut Index,
        owner: &Owner,
        weight: usize,
        evicted: &mut Vec<Arc<Entry>>,
    ) -> Result<(), StoreError> {
        let limits = &self.shared.limits;
        // The owner's share is looked up once (its map hashes with
        // SipHash): its queue gives the terminal task's position, so
        // taking it out needs no second search.
        let Index { map, order, owners } = index;
        if let Some(usage) = owners.get_mut(owner) {
            while usage.order.len() >= limits.max_tasks_per_owner.max(1)
                || usage.bytes.load(Ordering::Acquire) + weight > limits.max_bytes_per_owner
            {
                let terminal = usage
                    .order
                    .iter()
                    .position(|id| map.get(id).is_some_and(|e| e.is_terminal()));
                match terminal {
                    Some(at) => {
                        let Some(id) = usage.order.remove(at) else {
                            break;
                        };
                        if let Some(at) = order.iter().position(|(_, o)| *o == id) {
                            order.remove(at);
                        }
                        if let Some(entry) = map.remove(&id) {
                            entry.release_weight();
                            evicted.push(entry);
                        }
                    }
                    // A first task heavier than the quota is let in alone.
                    None if usage.order.is_empty() => break,
                    None => {
                        return Err(StoreError::Quota(format!(
                            "the caller's {} unfinished tasks fill its quota ({} tasks, {} bytes)",
                            usage.order.len(),
                            limits.max_tasks_per_owner,
                            limits.max_bytes_per_owner
                        )))
                    }
                }
            }
            if usage.order.is_empty() {
                owners.remove(owner);
            }
        }
        while index.map.len() >= limits.max_tasks.max(1)
            || self.weight() + weight > limits.max_store_bytes
        {
            let oldest_own = || index.owners.get(owner)?.order.front().cloned();
            match index.oldest_terminal(None).or_else(oldest_own) {
                Some(id) => evicted.extend(index.remove(&id)),
                None if index.map.is_empty() => break,
                None => {
                    return Err(StoreError::Busy(format!(
                        "the store is full of other callers' unfinished tasks ({} tasks)",
                        index.map.len()
                    )))
                }
            }
        }
        Ok(())
    }

    fn create_now(&self, owner: &Owner, mut task: Task) -> Result<(), StoreError> {
        let limits = &self.shared.limits;
        let counters = &self.shared.counters;
        let created = task.status.timestamp.unwrap_or(Timestamp::UNIX_EPOCH);
        task.limit_history(Some(limits.max_history));
        let weight = weight::task(&task);
        let mut index = self.index();
        let mut evicted = self.expired(&mut index, created);
        let running = counters.running_bytes.load(Ordering::Acquire);
        let made = if index.map.contains_key(task.id.as_str()) {
            Err(StoreError::AlreadyExists)
        } else if running >= limits.max_running_bytes {
            Err(StoreError::Busy(format!(
                "running work holds {running} bytes, its budget is {}",
                limits.max_running_bytes
            )))
        } else {
            self.make_room(&mut index, owner, weight, &mut evicted)
        };
        if made.is_ok() {
            let id: Arc<str> = Arc::from(task.id.as_str());
            // Looked up before it is added: most creates are by an owner
            // the index has, and `entry` would clone the owner to ask.
            let usage = match index.owners.get_mut(owner) {
                Some(usage) => usage,
                None => index.owners.entry(owner.clone()).or_default(),
            };
            usage.order.push_back(Arc::clone(&id));
            let owner_bytes = Arc::clone(&usage.bytes);
            owner_bytes.fetch_add(weight, Ordering::AcqRel);
            counters.bytes.fetch_add(weight, Ordering::AcqRel);
            let entry = Arc::new(Entry {
                id: task.id.clone(),
                owner: owner.clone(),
                terminal: AtomicBool::new(task.is_terminal()),
                watched: AtomicBool::new(false),
                state: Mutex::new(EntryState {
                    task,
                    version: 1,
                    growth: 0,
                    log: EventLog {
                        next: 0,
                        events: VecDeque::new(),
                        cap: limits.max_events_per_task.max(1),
                        bytes: 0,
                    },
                    push: Vec::new(),
                    evicted: false,
                }),
                signal: Signal::new(),
                weight: AtomicUsize::new(weight),
                running: AtomicUsize::new(0),
                counters: Arc::clone(counters),
                owner_bytes,
                max_history: limits.max_history,
                max_running_bytes: limits.max_running_bytes,
            });
            index.order.push_back((created, Arc::clone(&id)));
            index.map.insert(id, entry);
        }
        drop(index);
        // Outside the index's lock: an entry's lock is never taken while
        // holding the index's.
        for entry in evicted {
            entry.evict();
        }
        made
    }

    fn list_now(&self, owner: &Owner, query: &TaskQuery) -> TaskPage {
        let visible: Vec<Arc<Entry>> = self
            .index()
            .map
            .values()
            .filter(|e| e.owner == *owner)
            .cloned()
            .collect();
        let mut keyed: Vec<(TaskCursor, Arc<Entry>)> = visible
            .into_iter()
            .filter_map(|e| {
                let (state, timestamp, context_id) = e.status_key();
                query
                    .admits(state, timestamp, &context_id)
                    .then(|| (TaskCursor::new(timestamp, e.id.clone()), e))
            })
            .collect();
        let total = keyed.len();
        keyed.sort_unstable_by(|a, b| b.0.cmp(&a.0));
        let start = match &query.after {
            None => 0,
            Some(cursor) => keyed.partition_point(|(key, _)| key >= cursor),
        };
        let rest = &keyed[start..];
        let take = query.page_size.max(1).min(rest.len());
        let next = (rest.len() > take).then(|| rest[take - 1].0.clone());
        let mut tasks: Vec<Task> = rest[..take]
            .iter()
            .map(|(_, e)| View::of(query.view, &e.lock().task))
            .collect();
        // A task may have changed since it was ordered; keep the page in
        // order of what it returns.
        tasks.sort_by(|a, b| (b.status.timestamp, &b.id).cmp(&(a.status.timestamp, &a.id)));
        TaskPage { tasks, total, next }
    }
}

impl StoreStatsSource for InMemoryTaskStore {
    fn store_stats(&self) -> StoreStats {
        self.stats()
    }
}

impl Entry {
    fn lock(&self) -> MutexGuard<'_, EntryState> {
        // Every change is applied at once: a panic elsewhere leaves a
        // consistent task, so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn is_terminal(&self) -> bool {
        self.terminal.load(Ordering::Acquire)
    }

    fn status_key(&self) -> (TaskState, Timestamp, String) {
        let state = self.lock();
        let t = &state.task;
        (
            t.status.state,
            t.status.timestamp.unwrap_or(Timestamp::UNIX_EPOCH),
            t.context_id.clone(),
        )
    }

    /// Weighs the task again and counts the difference in the store and
    /// its owner; what it gained since is no longer running weight.
    /// Called when it takes a message and settles, not on every event
    /// (a walk of the whole task): between those, [`account`](Self::account)
    /// estimates what it gains.
    fn reweigh(&self, state: &mut EntryState) {
        if state.evicted {
            return;
        }
        let now = weight::task(&state.task);
        let before = self.weight.swap(now, Ordering::AcqRel);
        let counters = [&self.counters.bytes, &*self.owner_bytes];
        for counter in counters {
            if now >= before {
                counter.fetch_add(now - before, Ordering::AcqRel);
            } else {
                counter.fetch_sub(before - now, Ordering::AcqRel);
            }
        }
        state.growth = 0;
    }

    /// Takes the task's weight out of the store's and its owner's (when it
    /// leaves the index; a later `reweigh` before `evict` is undone there).
    fn release_weight(&self) {
        let weight = self.weight.swap(0, Ordering::AcqRel);
        self.counters.bytes.fetch_sub(weight, Ordering::AcqRel);
        self.owner_bytes.fetch_sub(weight, Ordering::AcqRel);
    }

    /// Counts the task's running weight (what it gained since it was
    /// weighed, and what its log keeps) in the store's running bytes.
    fn account(&self, state: &EntryState) {
        let now = if state.evicted {
            0
        } else {
            state.growth + state.log.bytes
        };
        let before = self.running.swap(now, Ordering::AcqRel);
        let counters = &self.counters;
        if now >= before {
            counters
                .running_bytes
                .fetch_add(now - before, Ordering::AcqRel);
        } else {
            counters
                .running_bytes
                .fetch_sub(before - now, Ordering::AcqRel);
        }
        match (before, now) {
            (0, 1..) => counters.running_tasks.fetch_add(1, Ordering::AcqRel),
            (1.., 0) => counters.running_tasks.fetch_sub(1, Ordering::AcqRel),
            _ => 0,
        };
    }

    /// Whether an event gaining `gain` running bytes is over the budget:
    /// only once the budget is spent (the event that spends it passes, as
    /// creates are refused from then on), and then only for a task holding
    /// more than its share of it, so that one task's flood never stops
    /// another's work.
    fn over_budget(&self, gain: usize) -> bool {
        let counters = &self.counters;
        if counters.running_bytes.load(Ordering::Acquire) < self.max_running_bytes {
            return false;
        }
        let mine = self.running.load(Ordering::Acquire);
        let holders = counters.running_tasks.load(Ordering::Acquire) + usize::from(mine == 0);
        mine + gain > self.max_running_bytes / holders.max(1)
    }

    fn check_version(state: &EntryState, expected: Option<u64>) -> Result<(), StoreError> {
        match expected {
            Some(expected) if expected != state.version => Err(StoreError::Conflict {
                expected,
                actual: state.version,
            }),
            _ => Ok(()),
        }
    }

    fn append(
        &self,
        mut event: StreamResponse,
        expected: Option<u64>,
    ) -> Result<Appended, StoreError> {
        let mut state = self.lock();
        if state.evicted {
            return Err(StoreError::NotFound);
        }
        Self::check_version(&state, expected)?;
        let current = state.task.status.state;
        // Weighed once (the draft's generation stamp below is a number and
        // weighs nothing).
        let weight = weight::event(&event);
        let settles = match &mut event {
            StreamResponse::StatusUpdate(update) => {
                if !current.can_transition_to(update.status.state) {
                    return Err(StoreError::Refused { state: current });
                }
                let previous = state.task.status.timestamp;
                if let (Some(at), Some(previous)) = (update.status.timestamp, previous) {
                    update.status.timestamp = Some(at.max(previous));
                }
                update.status.state.is_terminal()
            }
            StreamResponse::ArtifactUpdate(_) if current.is_terminal() => {
                return Err(StoreError::Refused { state: current })
            }
            // Only artifacts are held back: a status, however late, ends
            // or moves the work, and is small.
            StreamResponse::ArtifactUpdate(_) => {
                if self.over_budget(2 * weight) {
                    return Err(StoreError::Busy(format!(
                        "task {} holds {} bytes of running work, over its share of the {}-byte budget",
                        self.id,
                        self.running.load(Ordering::Acquire),
                        self.max_running_bytes
                    )));
                }
                false
            }
            StreamResponse::Task(_) | StreamResponse::Message(_) => {
                return Err(StoreError::Refused { state: current })
            }
        };
        if !matches!(&event, StreamResponse::StatusUpdate(u) if u.task_id == self.id)
            && !matches!(&event, StreamResponse::ArtifactUpdate(u) if u.task_id == self.id)
        {
            return Err(StoreError::Refused { state: current });
        }
        // Keep the event while someone may read it: a watcher, or, while
        // the task goes on, one that watched and resumes with
        // `Last-Event-ID`; copy it only then.
        // The event carries the generation after it (1.1 draft 3.2.7).
        #[cfg(feature = "draft-1-1")]
        a2a_types::draft_1_1::stamp(&state.task, &mut event);
        let watched = self.signal.watchers() > 0;
        state.growth += weight;
        if watched || (!settles && self.watched.load(Ordering::Acquire)) {
            let _ = apply(&mut state.task, event.clone());
            state.log.push(Some((event, weight)));
        } else {
            let _ = apply(&mut state.task, event);
            state.log.push(None);
        }
        bound_history(&mut state.task, self.max_history);
        state.version += 1;
        let after = state.task.status.state;
        if after.is_terminal() || after.is_interrupted() {
            self.terminal.store(after.is_terminal(), Ordering::Release);
            self.reweigh(&mut state);
        }
        self.account(&state);
        let appended = Appended {
            version: state.version,
            position: state.log.next - 1,
            state: after,
        };
        drop(state);
        if watched {
            self.signal.notify();
        }
        Ok(appended)
    }

    fn add_message(&self, mut message: Message, expected: Option<u64>) -> Result<u64, StoreError> {
        let mut state = self.lock();
        if state.evicted {
            return Err(StoreError::NotFound);
        }
        Self::check_version(&state, expected)?;
        message.task_id.clone_from(&state.task.id);
        message.context_id.clone_from(&state.task.context_id);
        record_message(&mut state.task, message, self.max_history);
        state.version += 1;
        self.reweigh(&mut state);
        self.account(&state);
        let version = state.version;
        drop(state);
        self.signal.notify();
        Ok(version)
    }

    fn stored(&self, state: &EntryState, view: View) -> StoredTask {
        StoredTask {
            task: view.of(&state.task),
            version: state.version,
            position: state.log.next,
            replayable_from: state.log.first(),
        }
    }

    fn read(&self, position: u64, view: View) -> Result<LogRead, StoreError> {
        let state = self.lock();
        if state.evicted {
            return Err(StoreError::NotFound);
        }
        let log = &state.log;
        if position >= log.next {
            return Ok(LogRead::Pending);
        }
        if position >= log.first() {
            let index = (position - log.first()) as usize;
            if let Some(event) = log.events.get(index) {
                return Ok(LogRead::Event(event.clone()));
            }
        }
        Ok(LogRead::Behind(view.of(&state.task), log.next))
    }

    /// Marks the task evicted: its watches close, its reads answer
    /// `NotFound`.
    fn evict(&self) {
        let mut state = self.lock();
        state.evicted = true;
        self.release_weight();
        state.log.free();
        state.push.clear();
        state.growth = 0;
        self.account(&state);
        drop(state);
        self.signal.close();
    }
}

/// A watch of an in-memory task that frees the task's finished log when
/// the last watch goes away.
struct MemoryWatch {
    inner: crate::notify::SignalWatch,
    entry: Arc<Entry>,
}

impl TaskWatch for MemoryWatch {
    fn poll_change(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<super::Change> {
        self.inner.poll_change(cx)
    }
}

impl Drop for MemoryWatch {
    fn drop(&mut self) {
        let mut state = self.entry.lock();
        // This watch is still counted. A task that goes on keeps its
        // events for resubscriptions.
        if self.entry.signal.watchers() <= 1 && state.task.is_terminal() {
            state.log.free();
            self.entry.account(&state);
        }
    }
}

fn ready<'a, T: Send + 'a>(value: Result<T, StoreError>) -> StoreFuture<'a, T> {
    Box::pin(std::future::ready(value))
}

impl TaskStore for InMemoryTaskStore {
    fn create<'a>(&'a self, owner: &'a Owner, task: Task) -> StoreFuture<'a, ()> {
        ready(self.create_now(owner, task))
    }

    fn get<'a>(&'a self, owner: &'a Owner, id: &'a str, view: View) -> StoreFuture<'a, StoredTask> {
        ready(self.owned(owner, id).and_then(|e| {
            let state = e.lock();
            if state.evicted {
                return Err(StoreError::NotFound);
            }
            Ok(e.stored(&state, view))
        }))
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        event: StreamResponse,
        expected_version: Option<u64>,
    ) -> StoreFuture<'a, Appended> {
        ready(
            self.entry(id)
                .ok_or(StoreError::NotFound)
                .and_then(|e| e.append(event, expected_version)),
        )
    }

    fn add_message<'a>(
        &'a self,
        id: &'a str,
        message: Message,
        expected_version: Option<u64>,
    ) -> StoreFuture<'a, u64> {
        ready(
            self.entry(id)
                .ok_or(StoreError::NotFound)
                .and_then(|e| e.add_message(message, expected_version)),
        )
    }

    fn list<'a>(&'a self, owner: &'a Owner, query: &'a TaskQuery) -> StoreFuture<'a, TaskPage> {
        ready(Ok(self.list_now(owner, query)))
    }

    fn read<'a>(&'a self, id: &'a str, position: u64, view: View) -> StoreFuture<'a, LogRead> {
        ready(
            self.entry(id)
                .ok_or(StoreError::NotFound)
                .and_then(|e| e.read(position, view)),
        )
    }

    fn watch(&self, id: &str) -> Option<Box<dyn TaskWatch>> {
        let entry = self.entry(id)?;
        entry.watched.store(true, Ordering::Release);
        let inner = entry.signal.watch();
        Some(Box::new(MemoryWatch { inner, entry }))
    }

    fn put_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        config: TaskPushNotificationConfig,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        let max = self.shared.limits.max_push_configs_per_task;
        ready(self.owned(owner, &config.task_id).and_then(|e| {
            let mut state = e.lock();
            if state.evicted {
                return Err(StoreError::NotFound);
            }
            if let Some(old) = state.push.iter_mut().find(|c| c.id == config.id) {
                return Ok(Some(std::mem::replace(old, config)));
            }
            if state.push.len() >= max {
                return Err(StoreError::Full(format!(
                    "task {} already has {max} push configs, the most it may have",
                    e.id
                )));
            }
            state.push.push(config);
            Ok(None)
        }))
    }

    fn get_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        ready(self.owned(owner, task_id).and_then(|e| {
            let state = e.lock();
            if state.evicted {
                return Err(StoreError::NotFound);
            }
            Ok(state.push.iter().find(|c| c.id == id).cloned())
        }))
    }

    fn list_push_configs<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>> {
        ready(self.owned(owner, task_id).and_then(|e| {
            let state = e.lock();
            if state.evicted {
                return Err(StoreError::NotFound);
            }
            Ok(state.push.clone())
        }))
    }

    fn delete_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
        id: &'a str,
    ) -> StoreFuture<'a, bool> {
        ready(self.owned(owner, task_id).and_then(|e| {
            let mut state = e.lock();
            if state.evicted {
                return Err(StoreError::NotFound);
            }
            let before = state.push.len();
            state.push.retain(|c| c.id != id);
            Ok(state.push.len() != before)
        }))
    }

    fn sweep(&self, now: Timestamp) -> usize {
        let evicted = {
            let mut index = self.index();
            let mut evicted = self.expired(&mut index, now);
            evicted.extend(self.overweight(&mut index));
            evicted
        };
        let n = evicted.len();
        for entry in evicted {
            entry.evict();
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::hash::Hash;

    fn hash(id: &str) -> u64 {
        let mut h = IdHasher::default();
        id.hash(&mut h);
        h.finish()
    }

    /// The handler's ids, which differ in their last digits, spread over
    /// the buckets a table picks with the hash's low bits.
    #[test]
    fn id_hashes_spread_over_the_low_bits() {
        let ids = crate::ids::IdGenerator::new();
        let hashes: Vec<u64> = (0..100_000).map(|_| hash(&ids.next("task"))).collect();
        assert_eq!(hashes.iter().collect::<HashSet<_>>().len(), hashes.len());
        let mut buckets = vec![0u32; 4096];
        for h in &hashes {
            buckets[(h & 4095) as usize] += 1;
        }
        // 24.4 a bucket on average; a poor spread piles ids into a few.
        let fullest = buckets.iter().max().copied().unwrap_or(0);
        assert!(fullest < 60, "fullest bucket holds {fullest}");
        // The top 7 bits (hashbrown's tag) vary too.
        let tags: HashSet<u64> = hashes.iter().map(|h| h >> 57).collect();
        assert_eq!(tags.len(), 128);
    }

    #[test]
    fn id_hashes_tell_lengths_and_words_apart() {
        let ids = [
            "",
            "a",
            "a\0",
            "\0\0\0\0\0\0\0\0",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefghi",
            "bacdefgh",
        ];
        let hashes: HashSet<u64> = ids.iter().map(|id| hash(id)).collect();
        assert_eq!(hashes.len(), ids.len());
    }

    /// Store futures of this store are ready at once.
    fn now<T>(mut future: StoreFuture<'_, T>) -> Result<T, StoreError> {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(value) => value,
            std::task::Poll::Pending => panic!("an in-memory store future was pending"),
        }
    }

    /// Events of a task nobody watched are not copied into its log (a
    /// reader that comes later starts from the task); once it was watched,
    /// those of the running task are kept for `Last-Event-ID`.
    #[test]
    fn the_log_keeps_events_only_once_the_task_was_watched() {
        use a2a_types::{
            Artifact, Part, TaskArtifactUpdateEvent, TaskStatus, TaskStatusUpdateEvent,
        };
        let store = InMemoryTaskStore::default();
        let owner = Owner::new("", None);
        let task = Task {
            id: "t-1".into(),
            context_id: "c".into(),
            status: TaskStatus::new(TaskState::Submitted),
            ..Task::default()
        };
        now(store.create(&owner, task)).unwrap();
        let working: StreamResponse =
            TaskStatusUpdateEvent::new("t-1", "c", TaskStatus::new(TaskState::Working)).into();
        let chunk = |text: &str| -> StreamResponse {
            TaskArtifactUpdateEvent::new("t-1", "c", Artifact::new("a", vec![Part::text(text)]))
                .into()
        };
        now(store.append("t-1", working, None)).unwrap();
        now(store.append("t-1", chunk("one"), None)).unwrap();
        assert_eq!(store.logged("t-1"), Some(0));
        let Ok(LogRead::Behind(task, 2)) = now(store.read("t-1", 0, View::FULL)) else {
            panic!("an unkept position is read as the task");
        };
        assert_eq!(task.artifacts.len(), 1);

        drop(store.watch("t-1"));
        now(store.append("t-1", chunk("two"), None)).unwrap();
        assert_eq!(store.logged("t-1"), Some(1));
        assert!(matches!(
            now(store.read("t-1", 2, View::FULL)),
            Ok(LogRead::Event(StreamResponse::ArtifactUpdate(_)))
        ));
    }
}
