//! The store contract suite against the in-memory store (no violations)
//! and against deliberately broken stores: each fault must be caught, and
//! every rule must catch at least one fault (so no rule is vacuous).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_agent::contract::{self, Options, Violation, RULES};
use a2a_agent::store::{
    Appended, Change, LogRead, StoreError, StoreFuture, StoredTask, TaskPage, TaskQuery, TaskWatch,
    View,
};
use a2a_agent::{InMemoryTaskStore, MemoryLimits, Owner, TaskStore};
use a2a_types::{Message, StreamResponse, Task, TaskPushNotificationConfig, Timestamp};

const MAX_TASKS: usize = 7;
const OWNER_QUOTA: usize = 5;

fn limits() -> MemoryLimits {
    let mut l = MemoryLimits::default();
    l.max_tasks = MAX_TASKS;
    l.max_tasks_per_owner = OWNER_QUOTA;
    l
}

fn options() -> Options {
    Options::default()
        .with_max_tasks(MAX_TASKS)
        .with_owner_quota(OWNER_QUOTA)
}

/// Runs the suite with a bound, so a suite that hangs fails the test.
async fn run<S: TaskStore>(make: impl Fn() -> S) -> Vec<Violation> {
    tokio::time::timeout(Duration::from_secs(30), contract::check(make, options()))
        .await
        .expect("the contract suite did not finish within 30 s")
}

#[tokio::test]
async fn the_in_memory_store_keeps_every_rule() {
    let violations = run(|| InMemoryTaskStore::new(limits())).await;
    assert!(violations.is_empty(), "{violations:#?}");
}

#[tokio::test]
async fn the_eviction_rule_is_skipped_without_a_bound() {
    // A store declared to keep everything is not held to eviction; one
    // bounded to 7 but declared as 3 is (the oldest is still there).
    let none = contract::check(InMemoryTaskStore::default, Options::default()).await;
    assert!(none.is_empty(), "{none:#?}");
    let wrong = contract::check(
        || InMemoryTaskStore::new(limits()),
        Options::default().with_max_tasks(3),
    )
    .await;
    assert!(
        !wrong.is_empty() && wrong.iter().all(|v| v.rule == "eviction.oldest-first"),
        "{wrong:#?}"
    );
}

/// One broken behaviour of [`Broken`], aimed at one rule of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Fault {
    /// Every version it reports is one more than the true one.
    VersionsOffByOne,
    /// A second `create` of an id answers Ok (the stored task).
    DuplicateCreateOk,
    /// `append` reports the event's position one too high.
    AppendPositionOffByOne,
    /// `expected_version` is ignored: no write ever conflicts.
    IgnoresExpectedVersion,
    /// An event the state machine refuses answers Ok, storing nothing.
    RefusedAnsweredOk,
    /// Artifact chunks replace the artifact instead of extending it.
    ChunksReplace,
    /// A status timestamp is kept as given, even when earlier than the
    /// task's current one.
    TimestampsAsGiven,
    /// A message joins the history without the task's ids.
    HistoryIdsNotFilled,
    /// `get` answers another owner's task (as its creator sees it).
    LeaksOtherOwners,
    /// `list` answers each page oldest first.
    ReversedList,
    /// `list` ignores the contextId filter.
    IgnoresContextFilter,
    /// A page after a cursor starts with the cursor's task again.
    RepeatsCursorTask,
    /// `read` answers the event after the one asked for.
    ReadsNextPosition,
    /// A watch never reports anything.
    SilentWatch,
    /// `put_push_config` of a known id stores a second config instead of
    /// replacing the first.
    PushConfigNotReplaced,
    /// The watch of an evicted task never reports `Closed`.
    EvictionNotClosed,
    /// No quota per owner: one owner's tasks fill the whole store, and an
    /// owner past the quota is not refused.
    NoOwnerQuota,
}

const FAULTS: &[Fault] = &[
    Fault::VersionsOffByOne,
    Fault::DuplicateCreateOk,
    Fault::AppendPositionOffByOne,
    Fault::IgnoresExpectedVersion,
    Fault::RefusedAnsweredOk,
    Fault::ChunksReplace,
    Fault::TimestampsAsGiven,
    Fault::HistoryIdsNotFilled,
    Fault::LeaksOtherOwners,
    Fault::ReversedList,
    Fault::IgnoresContextFilter,
    Fault::RepeatsCursorTask,
    Fault::ReadsNextPosition,
    Fault::SilentWatch,
    Fault::PushConfigNotReplaced,
    Fault::EvictionNotClosed,
    Fault::NoOwnerQuota,
];

/// The rule each fault is aimed at: it must be among those it breaks.
fn aimed_at(fault: Fault) -> &'static str {
    match fault {
        Fault::VersionsOffByOne => "create.version-one",
        Fault::DuplicateCreateOk => "create.duplicate-refused",
        Fault::AppendPositionOffByOne => "append.versions-and-positions",
        Fault::IgnoresExpectedVersion => "append.version-conflict",
        Fault::RefusedAnsweredOk => "append.state-machine",
        Fault::ChunksReplace => "append.applies-events",
        Fault::TimestampsAsGiven => "append.timestamps-never-decrease",
        Fault::HistoryIdsNotFilled => "message.joins-history",
        Fault::LeaksOtherOwners => "owner.isolation",
        Fault::ReversedList => "list.order",
        Fault::IgnoresContextFilter => "list.filters",
        Fault::RepeatsCursorTask => "list.paging-across-writes",
        Fault::ReadsNextPosition => "log.replay-from-position",
        Fault::SilentWatch => "watch.reports-changes",
        Fault::PushConfigNotReplaced => "push.configs",
        Fault::EvictionNotClosed => "eviction.oldest-first",
        Fault::NoOwnerQuota => "eviction.owners-apart",
    }
}

/// What a broken store remembers to break things consistently.
#[derive(Default)]
struct Memory {
    /// The owner that created each task.
    creators: HashMap<String, Owner>,
    /// The timestamp of the last status update given for each task.
    given_timestamps: HashMap<String, Timestamp>,
    /// The ids of the messages added to each task's history.
    added_messages: HashMap<String, HashSet<String>>,
}

/// An in-memory store with one fault: everything else is delegated.
struct Broken {
    inner: InMemoryTaskStore,
    fault: Fault,
    memory: Mutex<Memory>,
}

impl Broken {
    fn new(fault: Fault) -> Broken {
        let mut limits = limits();
        if fault == Fault::NoOwnerQuota {
            limits.max_tasks_per_owner = usize::MAX;
        }
        Broken {
            inner: InMemoryTaskStore::new(limits),
            fault,
            memory: Mutex::default(),
        }
    }

    fn memory(&self) -> std::sync::MutexGuard<'_, Memory> {
        self.memory.lock().unwrap()
    }

    fn is(&self, fault: Fault) -> bool {
        self.fault == fault
    }

    /// `stored` as this store reports it.
    fn report(&self, id: &str, mut stored: StoredTask) -> StoredTask {
        if self.is(Fault::VersionsOffByOne) {
            stored.version += 1;
        }
        if self.is(Fault::TimestampsAsGiven) {
            if let Some(given) = self.memory().given_timestamps.get(id) {
                stored.task.status.timestamp = Some(*given);
            }
        }
        if self.is(Fault::HistoryIdsNotFilled) {
            if let Some(added) = self.memory().added_messages.get(id) {
                for m in &mut stored.task.history {
                    if added.contains(&m.message_id) {
                        m.task_id.clear();
                        m.context_id.clear();
                    }
                }
            }
        }
        stored
    }
}

/// A watch that never reports.
struct Silent {
    _inner: Box<dyn TaskWatch>,
}

impl TaskWatch for Silent {
    fn poll_change(&mut self, _: &mut Context<'_>) -> Poll<Change> {
        Poll::Pending
    }
}

/// A watch that reports changes but never `Closed`.
struct NeverClosed {
    inner: Box<dyn TaskWatch>,
}

impl TaskWatch for NeverClosed {
    fn poll_change(&mut self, cx: &mut Context<'_>) -> Poll<Change> {
        match self.inner.poll_change(cx) {
            Poll::Ready(Change::Closed) => Poll::Pending,
            other => other,
        }
    }
}

impl TaskStore for Broken {
    fn create<'a>(&'a self, owner: &'a Owner, task: Task) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let id = task.id.clone();
            match self.inner.create(owner, task).await {
                Ok(()) => {
                    self.memory().creators.insert(id.clone(), owner.clone());
                    Ok(())
                }
                Err(StoreError::AlreadyExists) if self.is(Fault::DuplicateCreateOk) => Ok(()),
                Err(e) => Err(e),
            }
        })
    }

    fn get<'a>(&'a self, owner: &'a Owner, id: &'a str, view: View) -> StoreFuture<'a, StoredTask> {
        Box::pin(async move {
            let creator = self.memory().creators.get(id).cloned();
            let owner = match creator {
                Some(creator) if self.is(Fault::LeaksOtherOwners) => creator,
                _ => owner.clone(),
            };
            let stored = self.inner.get(&owner, id, view).await?;
            Ok(self.report(id, stored))
        })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        mut event: StreamResponse,
        expected_version: Option<u64>,
    ) -> StoreFuture<'a, Appended> {
        Box::pin(async move {
            let expected = if self.is(Fault::IgnoresExpectedVersion) {
                None
            } else {
                expected_version
            };
            if self.is(Fault::ChunksReplace) {
                if let StreamResponse::ArtifactUpdate(update) = &mut event {
                    update.append = false;
                }
            }
            let given = match &event {
                StreamResponse::StatusUpdate(update) => update.status.timestamp,
                _ => None,
            };
            let mut appended = match self.inner.append(id, event, expected).await {
                Ok(appended) => appended,
                Err(StoreError::Refused { state }) if self.is(Fault::RefusedAnsweredOk) => {
                    return Ok(Appended {
                        version: 0,
                        position: 0,
                        state,
                    });
                }
                Err(e) => return Err(e),
            };
            if let Some(given) = given {
                self.memory().given_timestamps.insert(id.to_owned(), given);
            }
            if self.is(Fault::VersionsOffByOne) {
                appended.version += 1;
            }
            if self.is(Fault::AppendPositionOffByOne) {
                appended.position += 1;
            }
            Ok(appended)
        })
    }

    fn add_message<'a>(
        &'a self,
        id: &'a str,
        mut message: Message,
        expected_version: Option<u64>,
    ) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            let expected = if self.is(Fault::IgnoresExpectedVersion) {
                None
            } else {
                expected_version
            };
            if self.is(Fault::HistoryIdsNotFilled) {
                // Not enough on its own (the inner store fills the ids):
                // the ids are also stripped from what `get` answers.
                message.task_id.clear();
                message.context_id.clear();
            }
            let message_id = message.message_id.clone();
            let version = self.inner.add_message(id, message, expected).await?;
            self.memory()
                .added_messages
                .entry(id.to_owned())
                .or_default()
                .insert(message_id);
            Ok(if self.is(Fault::VersionsOffByOne) {
                version + 1
            } else {
                version
            })
        })
    }

    fn list<'a>(&'a self, owner: &'a Owner, query: &'a TaskQuery) -> StoreFuture<'a, TaskPage> {
        Box::pin(async move {
            let mut query = query.clone();
            if self.is(Fault::IgnoresContextFilter) {
                query.context_id.clear();
            }
            let mut page = self.inner.list(owner, &query).await?;
            if self.is(Fault::ReversedList) {
                page.tasks.reverse();
            }
            if self.is(Fault::RepeatsCursorTask) {
                if let Some(cursor) = &query.after {
                    if let Ok(at) = self.inner.get(owner, &cursor.id, query.view).await {
                        page.tasks.insert(0, at.task);
                        page.tasks.truncate(query.page_size);
                    }
                }
            }
            Ok(page)
        })
    }

    fn read<'a>(&'a self, id: &'a str, position: u64, view: View) -> StoreFuture<'a, LogRead> {
        let position = if self.is(Fault::ReadsNextPosition) {
            position + 1
        } else {
            position
        };
        self.inner.read(id, position, view)
    }

    fn watch(&self, id: &str) -> Option<Box<dyn TaskWatch>> {
        let inner = self.inner.watch(id)?;
        Some(match self.fault {
            // The inner watch stays alive, so the store keeps the log for
            // it as for any watch: only the reports are missing.
            Fault::SilentWatch => Box::new(Silent { _inner: inner }),
            Fault::EvictionNotClosed => Box::new(NeverClosed { inner }),
            _ => inner,
        })
    }

    fn put_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        mut config: TaskPushNotificationConfig,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        Box::pin(async move {
            if self.is(Fault::PushConfigNotReplaced) {
                let known = self
                    .inner
                    .get_push_config(owner, &config.task_id, &config.id)
                    .await;
                if matches!(known, Ok(Some(_))) {
                    config.id = format!("{}-again", config.id);
                }
            }
            self.inner.put_push_config(owner, config).await
        })
    }

    fn get_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        self.inner.get_push_config(owner, task_id, id)
    }

    fn list_push_configs<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>> {
        self.inner.list_push_configs(owner, task_id)
    }

    fn delete_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
        id: &'a str,
    ) -> StoreFuture<'a, bool> {
        self.inner.delete_push_config(owner, task_id, id)
    }

    fn sweep(&self, now: Timestamp) -> usize {
        self.inner.sweep(now)
    }
}

/// The rules each fault breaks, running the suite once per fault.
async fn caught() -> BTreeMap<Fault, BTreeSet<&'static str>> {
    let mut table = BTreeMap::new();
    for &fault in FAULTS {
        let violations = run(move || Broken::new(fault)).await;
        table.insert(fault, violations.iter().map(|v| v.rule).collect());
    }
    table
}

fn print_table(table: &BTreeMap<Fault, BTreeSet<&'static str>>) {
    println!("{:<24} -> rules violated", "fault");
    for (fault, rules) in table {
        let rules: Vec<&str> = rules.iter().copied().collect();
        println!("{:<24} -> {}", format!("{fault:?}"), rules.join(", "));
    }
}

#[tokio::test]
async fn every_fault_is_caught_by_the_rule_it_breaks() {
    let table = caught().await;
    print_table(&table);
    for (fault, rules) in &table {
        assert!(!rules.is_empty(), "{fault:?} broke no rule of the contract");
        assert!(
            rules.contains(aimed_at(*fault)),
            "{fault:?} should break {}, broke {rules:?}",
            aimed_at(*fault)
        );
    }
}

#[tokio::test]
async fn every_rule_catches_some_fault() {
    // Every rule of the contract has a fault aimed at it (none needed to be
    // left out: each could be broken at the wrapper level).
    let table = caught().await;
    let hit: BTreeSet<&str> = table.values().flatten().copied().collect();
    let missed: Vec<&str> = RULES.iter().copied().filter(|r| !hit.contains(r)).collect();
    assert!(missed.is_empty(), "rules no fault breaks: {missed:?}");
    let aimed: BTreeSet<&str> = FAULTS.iter().map(|f| aimed_at(*f)).collect();
    assert_eq!(aimed.len(), RULES.len(), "one fault per rule");
    assert!(aimed.iter().all(|r| RULES.contains(r)), "{aimed:?}");
}

#[tokio::test]
async fn read_side_faults_break_only_their_own_rules() {
    // The wrapper's own plumbing (the remembered owners, timestamps and
    // messages) must not break anything by itself: for a fault aimed at
    // one rule, the rules it has nothing to do with still hold. Checked
    // on the faults whose effect is confined to reads of one kind.
    for (fault, allowed) in [
        (Fault::ReversedList, &["list.order", "list.filters"][..]),
        (Fault::ReadsNextPosition, &["log.replay-from-position"][..]),
        (
            Fault::SilentWatch,
            &["watch.reports-changes", "eviction.oldest-first"][..],
        ),
        (Fault::EvictionNotClosed, &["eviction.oldest-first"][..]),
        (Fault::LeaksOtherOwners, &["owner.isolation"][..]),
    ] {
        let violations = run(move || Broken::new(fault)).await;
        let extra: Vec<&Violation> = violations
            .iter()
            .filter(|v| !allowed.contains(&v.rule))
            .collect();
        assert!(extra.is_empty(), "{fault:?} also broke: {extra:#?}");
    }
}
