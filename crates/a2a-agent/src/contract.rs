//! The store contract: every rule of a [`TaskStore`] (see the
//! [`store`](crate::store) module docs), checked against any backend.
//!
//! A backend calls [`check`] with a function that makes a fresh, empty
//! store, and asserts that nothing is violated:
//!
//! ```
//! # tokio_test_block_on(async {
//! use a2a_agent::{contract, InMemoryTaskStore, MemoryLimits};
//!
//! let violations = contract::check(
//!     || InMemoryTaskStore::new(MemoryLimits::default()),
//!     contract::Options::default(),
//! )
//! .await;
//! assert!(violations.is_empty(), "{violations:#?}");
//! # });
//! # fn tokio_test_block_on(f: impl std::future::Future<Output = ()>) {
//! #     let mut f = std::pin::pin!(f);
//! #     let waker = std::task::Waker::noop();
//! #     while f.as_mut().poll(&mut std::task::Context::from_waker(waker)).is_pending() {}
//! # }
//! ```
//!
//! Each rule runs on its own fresh store and reports what it found, so a
//! broken backend learns every rule it breaks, not only the first. The
//! suite is runtime-free: it awaits the store's futures and polls watches,
//! so it runs on whatever executor the backend needs.

use std::task::{Context, Poll, Waker};

use a2a_types::{
    Artifact, Message, Part, StreamResponse, Task, TaskArtifactUpdateEvent,
    TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent, Timestamp,
};

use crate::owner::Owner;
use crate::store::{Change, LogRead, StoreError, TaskQuery, TaskStore, View};

/// A rule a store broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule's name (one of [`RULES`]).
    pub rule: &'static str,
    /// What was expected and what the store did.
    pub detail: String,
}

/// What the suite may assume of the stores `make` builds.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Options {
    /// The store holds at most this many tasks and evicts the oldest
    /// first (the in-memory store's `max_tasks`); `None` skips the
    /// eviction rule (a durable store that keeps everything).
    pub max_tasks: Option<usize>,
    /// One owner holds at most this many tasks, and the store never
    /// evicts another owner's unfinished task to make room (the in-memory
    /// store's `max_tasks_per_owner`); `None` skips the quota rule (a
    /// store that evicts nothing, or by no owner). Needs `max_tasks` of at
    /// least the quota plus two; with it, the other rules create at most
    /// the quota's tasks per owner.
    pub owner_quota: Option<usize>,
}

impl Options {
    /// Checks the owners' quotas for a store holding at most `quota`
    /// tasks per owner.
    pub fn with_owner_quota(mut self, quota: usize) -> Options {
        self.owner_quota = Some(quota);
        self
    }

    /// Checks eviction order for a store bounded to `max_tasks`.
    pub fn with_max_tasks(mut self, max_tasks: usize) -> Options {
        self.max_tasks = Some(max_tasks);
        self
    }
}

/// The rules, in the order they run.
pub const RULES: &[&str] = &[
    "create.version-one",
    "create.duplicate-refused",
    "append.versions-and-positions",
    "append.version-conflict",
    "append.state-machine",
    "append.applies-events",
    "append.timestamps-never-decrease",
    "message.joins-history",
    "owner.isolation",
    "list.order",
    "list.filters",
    "list.paging-across-writes",
    "log.replay-from-position",
    "watch.reports-changes",
    "push.configs",
    "eviction.oldest-first",
    "eviction.owners-apart",
];

/// Runs every rule, each on a fresh store from `make`; answers what was
/// violated (nothing, for a conforming store).
pub async fn check<S: TaskStore>(make: impl Fn() -> S, options: Options) -> Vec<Violation> {
    let mut found = Vec::new();
    for rule in RULES {
        let store = make();
        let mut cx = Checker {
            rule,
            found: &mut found,
        };
        match *rule {
            "create.version-one" => create_version_one(&store, &mut cx).await,
            "create.duplicate-refused" => create_duplicate(&store, &mut cx).await,
            "append.versions-and-positions" => versions_and_positions(&store, &mut cx).await,
            "append.version-conflict" => version_conflict(&store, &mut cx).await,
            "append.state-machine" => state_machine(&store, &mut cx).await,
            "append.applies-events" => applies_events(&store, &mut cx).await,
            "append.timestamps-never-decrease" => timestamps(&store, &mut cx).await,
            "message.joins-history" => joins_history(&store, &mut cx).await,
            "owner.isolation" => isolation(&store, &mut cx).await,
            "list.order" => list_order(&store, &mut cx).await,
            "list.filters" => list_filters(&store, &mut cx).await,
            "list.paging-across-writes" => {
                let bound = match (options.max_tasks, options.owner_quota) {
                    (Some(max), Some(quota)) => Some(max.min(quota)),
                    (max, quota) => max.or(quota),
                };
                paging(&store, &mut cx, bound).await
            }
            "log.replay-from-position" => replay(&store, &mut cx).await,
            "watch.reports-changes" => watches(&store, &mut cx).await,
            "push.configs" => push_configs(&store, &mut cx).await,
            "eviction.oldest-first" => {
                if let Some(max) = options.max_tasks {
                    eviction(&store, &mut cx, max).await;
                }
            }
            "eviction.owners-apart" => {
                if let (Some(max), Some(quota)) = (options.max_tasks, options.owner_quota) {
                    owners_apart(&store, &mut cx, max, quota).await;
                }
            }
            _ => {}
        }
    }
    found
}

struct Checker<'a> {
    rule: &'static str,
    found: &'a mut Vec<Violation>,
}

impl Checker<'_> {
    /// Records a violation unless `ok`; answers `ok`.
    fn expect(&mut self, ok: bool, detail: impl FnOnce() -> String) -> bool {
        if !ok {
            self.found.push(Violation {
                rule: self.rule,
                detail: detail(),
            });
        }
        ok
    }
}

fn owner() -> Owner {
    Owner::new("tenant-a", Some("alice".to_owned()))
}

fn bob() -> Owner {
    Owner::new("tenant-a", Some("bob".to_owned()))
}

/// The owner of seeded task number `i` of an eviction rule: alice and bob
/// in turn, so that no owner holds more than half the store plus one.
fn seeded_owner(i: usize) -> Owner {
    if i % 2 == 0 {
        owner()
    } else {
        bob()
    }
}

fn at(millis: i64) -> Timestamp {
    Timestamp::from_unix_millis(1_750_000_000_000 + millis).unwrap_or(Timestamp::UNIX_EPOCH)
}

fn task(id: &str, context: &str, millis: i64) -> Task {
    let mut message = Message::user_text(format!("m-{id}"), "hello");
    message.task_id = id.to_owned();
    message.context_id = context.to_owned();
    #[allow(unused_mut)]
    let mut task = Task {
        id: id.to_owned(),
        context_id: context.to_owned(),
        status: TaskStatus::new(TaskState::Submitted).with_timestamp(at(millis)),
        history: vec![message],
        ..Task::default()
    };
    // Created as the handler creates them: at generation 1.
    #[cfg(feature = "draft-1-1")]
    a2a_types::draft_1_1::start(&mut task);
    task
}

fn status(id: &str, context: &str, state: TaskState, millis: i64) -> StreamResponse {
    TaskStatusUpdateEvent::new(
        id,
        context,
        TaskStatus::new(state).with_timestamp(at(millis)),
    )
    .into()
}

fn chunk(id: &str, context: &str, text: &str, append: bool, last: bool) -> StreamResponse {
    TaskArtifactUpdateEvent::new(id, context, Artifact::new("art-1", vec![Part::text(text)]))
        .with_append(append)
        .with_last_chunk(last)
        .into()
}

/// Creates tasks `t-0`.. in context `c`, each a millisecond after the last.
async fn seed(store: &dyn TaskStore, cx: &mut Checker<'_>, n: usize) -> bool {
    for i in 0..n {
        let id = format!("t-{i}");
        let made = store.create(&owner(), task(&id, "c", i as i64)).await;
        if !cx.expect(made.is_ok(), || format!("create {id}: {made:?}")) {
            return false;
        }
    }
    true
}

async fn create_version_one(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    let made = store.create(&owner(), task("t-1", "c", 0)).await;
    if !cx.expect(made.is_ok(), || format!("create failed: {made:?}")) {
        return;
    }
    let got = store.get(&owner(), "t-1", View::FULL).await;
    cx.expect(
        got.as_ref()
            .is_ok_and(|g| g.task == task("t-1", "c", 0) && g.version == 1 && g.position == 0),
        || format!("get after create: {got:?}, want the task at version 1, position 0"),
    );
    let missing = store.get(&owner(), "t-2", View::FULL).await;
    cx.expect(missing == Err(StoreError::NotFound), || {
        format!("get of a missing task: {missing:?}, want NotFound")
    });
}

async fn create_duplicate(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    let _ = store.create(&owner(), task("t-1", "c", 0)).await;
    let again = store.create(&owner(), task("t-1", "other", 5)).await;
    cx.expect(again == Err(StoreError::AlreadyExists), || {
        format!("a second create of t-1: {again:?}, want AlreadyExists")
    });
    let got = store.get(&owner(), "t-1", View::FULL).await;
    cx.expect(got.is_ok_and(|g| g.task.context_id == "c"), || {
        "the refused create changed the stored task".to_owned()
    });
}

async fn versions_and_positions(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 1).await {
        return;
    }
    let events = [
        status("t-0", "c", TaskState::Working, 1),
        chunk("t-0", "c", "a", false, false),
        status("t-0", "c", TaskState::Completed, 2),
    ];
    for (i, event) in events.into_iter().enumerate() {
        let done = store.append("t-0", event, None).await;
        let want = (i as u64 + 2, i as u64);
        cx.expect(
            done.as_ref().is_ok_and(|d| (d.version, d.position) == want),
            || {
                format!(
                    "append {i}: {done:?}, want version {} position {}",
                    want.0, want.1
                )
            },
        );
    }
    let got = store.get(&owner(), "t-0", View::STATUS).await;
    cx.expect(
        got.as_ref()
            .is_ok_and(|g| g.version == 4 && g.position == 3),
        || format!("after three appends: {got:?}, want version 4 position 3"),
    );
}

async fn version_conflict(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 1).await {
        return;
    }
    let stale = store
        .append("t-0", status("t-0", "c", TaskState::Working, 1), Some(7))
        .await;
    cx.expect(
        stale
            == Err(StoreError::Conflict {
                expected: 7,
                actual: 1,
            }),
        || format!("append expecting version 7 of a version-1 task: {stale:?}"),
    );
    let got = store.get(&owner(), "t-0", View::STATUS).await;
    cx.expect(
        got.as_ref()
            .is_ok_and(|g| g.version == 1 && g.task.status.state == TaskState::Submitted),
        || format!("a conflicting append changed the task: {got:?}"),
    );
    let fresh = store
        .append("t-0", status("t-0", "c", TaskState::Working, 1), Some(1))
        .await;
    cx.expect(fresh.is_ok_and(|d| d.version == 2), || {
        "append expecting the current version was refused".to_owned()
    });
    let message = store
        .add_message("t-0", Message::user_text("m-x", "x"), Some(1))
        .await;
    cx.expect(
        matches!(
            message,
            Err(StoreError::Conflict {
                expected: 1,
                actual: 2
            })
        ),
        || format!("add_message expecting a stale version: {message:?}"),
    );
}

async fn state_machine(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 1).await {
        return;
    }
    let _ = store
        .append("t-0", status("t-0", "c", TaskState::Completed, 1), None)
        .await;
    let back = store
        .append("t-0", status("t-0", "c", TaskState::Working, 2), None)
        .await;
    cx.expect(
        back == Err(StoreError::Refused {
            state: TaskState::Completed,
        }),
        || format!("COMPLETED -> WORKING: {back:?}, want Refused"),
    );
    let artifact = store
        .append("t-0", chunk("t-0", "c", "late", false, false), None)
        .await;
    cx.expect(
        artifact
            == Err(StoreError::Refused {
                state: TaskState::Completed,
            }),
        || format!("an artifact for a COMPLETED task: {artifact:?}, want Refused"),
    );
    let got = store.get(&owner(), "t-0", View::FULL).await;
    cx.expect(
        got.as_ref().is_ok_and(|g| {
            g.task.status.state == TaskState::Completed
                && g.task.artifacts.is_empty()
                && g.version == 2
        }),
        || format!("a refused event changed the task: {got:?}"),
    );
    let other = store
        .append("t-0", status("t-9", "c", TaskState::Working, 2), None)
        .await;
    cx.expect(other.is_err(), || {
        "an event naming another task was appended".to_owned()
    });
}

async fn applies_events(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 1).await {
        return;
    }
    let mut working = TaskStatus::new(TaskState::Working).with_timestamp(at(1));
    working.message = Some(Message::agent_text("m-agent", "on it").for_task("t-0", "c"));
    let events = [
        TaskStatusUpdateEvent::new("t-0", "c", working).into(),
        chunk("t-0", "c", "a", false, false),
        chunk("t-0", "c", "b", true, true),
    ];
    for event in events {
        let _ = store.append("t-0", event, None).await;
    }
    let got = store.get(&owner(), "t-0", View::FULL).await;
    let Ok(got) = got else {
        cx.expect(false, || format!("get: {got:?}"));
        return;
    };
    let texts: Vec<String> = got
        .task
        .artifacts
        .iter()
        .flat_map(|a| a.parts.iter())
        .filter_map(|p| match &p.content {
            a2a_types::PartContent::Text(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    cx.expect(got.task.artifacts.len() == 1 && texts == ["a", "b"], || {
        format!(
            "an appended chunk joins its artifact: got {texts:?} in {} artifacts",
            got.task.artifacts.len()
        )
    });
    cx.expect(
        got.task.history.iter().any(|m| m.message_id == "m-agent"),
        || "a status message joins the history (a2a_types::apply)".to_owned(),
    );
    let view = store
        .get(
            &owner(),
            "t-0",
            View {
                history: Some(1),
                artifacts: false,
            },
        )
        .await;
    cx.expect(
        view.is_ok_and(|v| v.task.history.len() == 1 && v.task.artifacts.is_empty()),
        || "a view with history 1 and no artifacts".to_owned(),
    );
}

async fn timestamps(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 1).await {
        return;
    }
    let _ = store
        .append("t-0", status("t-0", "c", TaskState::Working, 50), None)
        .await;
    let _ = store
        .append("t-0", status("t-0", "c", TaskState::Completed, 10), None)
        .await;
    let got = store.get(&owner(), "t-0", View::STATUS).await;
    cx.expect(
        got.as_ref().is_ok_and(|g| g.task.status.timestamp == Some(at(50))),
        || format!("a status stamped earlier than the task's: {got:?}, want it raised to the current one"),
    );
}

async fn joins_history(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 1).await {
        return;
    }
    let version = store
        .add_message("t-0", Message::user_text("m-2", "more"), Some(1))
        .await;
    cx.expect(version == Ok(2), || {
        format!("add_message: {version:?}, want version 2")
    });
    let got = store.get(&owner(), "t-0", View::FULL).await;
    cx.expect(
        got.as_ref().is_ok_and(|g| {
            g.position == 0
                && g.task.history.last().is_some_and(|m| {
                    m.message_id == "m-2" && m.task_id == "t-0" && m.context_id == "c"
                })
        }),
        || format!("the message joins the history with the task's ids, not the log: {got:?}"),
    );
}

async fn isolation(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 1).await {
        return;
    }
    let others = [
        Owner::new("tenant-a", Some("mallory".to_owned())),
        Owner::new("tenant-b", Some("alice".to_owned())),
        Owner::new("tenant-a", None),
    ];
    let mut config = TaskPushNotificationConfig::new("https://hooks.example.com/a");
    config.task_id = "t-0".into();
    config.id = "p-1".into();
    let _ = store.put_push_config(&owner(), config.clone()).await;
    for other in &others {
        let got = store.get(other, "t-0", View::FULL).await;
        cx.expect(got == Err(StoreError::NotFound), || {
            format!("{other:?} reads alice's task: {got:?}")
        });
        let page = store.list(other, &query(10)).await;
        cx.expect(
            page.as_ref()
                .is_ok_and(|p| p.tasks.is_empty() && p.total == 0),
            || format!("{other:?} lists alice's task: {page:?}"),
        );
        let push = store.get_push_config(other, "t-0", "p-1").await;
        cx.expect(push == Err(StoreError::NotFound), || {
            format!("{other:?} reads alice's push config: {push:?}")
        });
        let configs = store.list_push_configs(other, "t-0").await;
        cx.expect(configs == Err(StoreError::NotFound), || {
            format!("{other:?} lists alice's push configs: {configs:?}")
        });
        let put = store.put_push_config(other, config.clone()).await;
        cx.expect(put == Err(StoreError::NotFound), || {
            format!("{other:?} sets a push config on alice's task: {put:?}")
        });
        let deleted = store.delete_push_config(other, "t-0", "p-1").await;
        cx.expect(deleted == Err(StoreError::NotFound), || {
            format!("{other:?} deletes alice's push config: {deleted:?}")
        });
    }
    let still = store.get_push_config(&owner(), "t-0", "p-1").await;
    cx.expect(still.is_ok_and(|c| c.is_some()), || {
        "alice's push config survives the others' calls".to_owned()
    });
}

fn query(page_size: usize) -> TaskQuery {
    TaskQuery {
        context_id: String::new(),
        status: TaskState::Unspecified,
        status_timestamp_after: None,
        after: None,
        page_size,
        view: View::STATUS,
    }
}

fn ids(tasks: &[Task]) -> Vec<String> {
    tasks.iter().map(|t| t.id.clone()).collect()
}

async fn list_order(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 3).await {
        return;
    }
    // t-3 ties t-2's timestamp: the larger id comes first.
    let _ = store.create(&owner(), task("t-3", "c", 2)).await;
    let page = store.list(&owner(), &query(10)).await;
    cx.expect(
        page.as_ref().is_ok_and(|p| {
            ids(&p.tasks) == ["t-3", "t-2", "t-1", "t-0"] && p.total == 4 && p.next.is_none()
        }),
        || format!("newest first, ties by id descending, one page: {page:?}"),
    );
    let _ = store
        .append("t-0", status("t-0", "c", TaskState::Working, 100), None)
        .await;
    let page = store.list(&owner(), &query(10)).await;
    cx.expect(
        page.as_ref()
            .is_ok_and(|p| p.tasks.first().is_some_and(|t| t.id == "t-0")),
        || format!("an updated task moves to the front: {page:?}"),
    );
}

async fn list_filters(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 3).await {
        return;
    }
    let _ = store.create(&owner(), task("t-other", "c-2", 3)).await;
    let _ = store
        .append("t-1", status("t-1", "c", TaskState::Working, 10), None)
        .await;
    let mut q = query(10);
    q.context_id = "c-2".into();
    let page = store.list(&owner(), &q).await;
    cx.expect(
        page.as_ref()
            .is_ok_and(|p| ids(&p.tasks) == ["t-other"] && p.total == 1),
        || format!("contextId filter: {page:?}"),
    );
    let mut q = query(10);
    q.status = TaskState::Working;
    let page = store.list(&owner(), &q).await;
    cx.expect(
        page.as_ref().is_ok_and(|p| ids(&p.tasks) == ["t-1"]),
        || format!("status filter: {page:?}"),
    );
    let mut q = query(10);
    q.status_timestamp_after = Some(at(2));
    let page = store.list(&owner(), &q).await;
    cx.expect(
        page.as_ref()
            .is_ok_and(|p| ids(&p.tasks) == ["t-1", "t-other", "t-2"]),
        || format!("statusTimestampAfter is at or after: {page:?}"),
    );
    let mut q = query(10);
    q.view = View {
        history: None,
        artifacts: false,
    };
    let page = store.list(&owner(), &q).await;
    cx.expect(
        page.as_ref()
            .is_ok_and(|p| p.tasks.iter().all(|t| t.history.len() == 1)),
        || "the query's view: whole history".to_owned(),
    );
}

async fn paging(store: &dyn TaskStore, cx: &mut Checker<'_>, max_tasks: Option<usize>) {
    // Up to ten tasks and a new one, within the store's bound: this rule
    // is about paging, not eviction.
    let n = max_tasks.map_or(10, |max| max.saturating_sub(1).min(10));
    if !seed(store, cx, n).await {
        return;
    }
    let mut seen = Vec::new();
    let mut q = query(3);
    let mut pages = 0;
    loop {
        pages += 1;
        let page = store.list(&owner(), &q).await;
        let Ok(page) = page else {
            cx.expect(false, || format!("list: {page:?}"));
            return;
        };
        cx.expect(page.tasks.len() <= 3, || {
            format!("a page of {} for page size 3", page.tasks.len())
        });
        seen.extend(ids(&page.tasks));
        if pages == 1 {
            // Writes between pages: a new task, and an update that moves an
            // unseen task (the oldest) to the front.
            let _ = store.create(&owner(), task("t-new", "c", 50)).await;
            let _ = store
                .append("t-0", status("t-0", "c", TaskState::Working, 60), None)
                .await;
        }
        match page.next {
            Some(next) if pages < 20 => q.after = Some(next),
            _ => break,
        }
    }
    let mut unique = seen.clone();
    unique.sort();
    unique.dedup();
    cx.expect(unique.len() == seen.len(), || {
        format!("a task came twice while paging: {seen:?}")
    });
    let unchanged: Vec<String> = (1..n).map(|i| format!("t-{i}")).collect();
    cx.expect(unchanged.iter().all(|id| seen.contains(id)), || {
        format!("paging across writes skipped a task that did not change: {seen:?}")
    });
}

async fn replay(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 1).await {
        return;
    }
    let Some(watch) = store.watch("t-0") else {
        cx.expect(false, || "no watch of a stored task".to_owned());
        return;
    };
    let events = [
        status("t-0", "c", TaskState::Working, 1),
        chunk("t-0", "c", "a", false, false),
        chunk("t-0", "c", "b", true, true),
        status("t-0", "c", TaskState::Completed, 2),
    ];
    for event in events.clone() {
        let _ = store.append("t-0", event, None).await;
    }
    for (i, want) in events.into_iter().enumerate() {
        // 1.1 draft: each event carries the task's generation after it,
        // which is the store's version after the append.
        #[cfg(feature = "draft-1-1")]
        let want = {
            let mut want = want;
            let generation = i as i64 + 2;
            match &mut want {
                StreamResponse::StatusUpdate(u) => u.generation = generation,
                StreamResponse::ArtifactUpdate(u) => u.generation = generation,
                _ => {}
            }
            want
        };
        let got = store.read("t-0", i as u64, View::FULL).await;
        let ok = match (&got, &want) {
            (
                Ok(LogRead::Event(StreamResponse::StatusUpdate(g))),
                StreamResponse::StatusUpdate(w),
            ) => g.status.state == w.status.state,
            (Ok(LogRead::Event(g)), w) => g == w,
            _ => false,
        };
        cx.expect(ok, || format!("read at {i}: {got:?}, want {want:?}"));
    }
    let end = store.read("t-0", 4, View::FULL).await;
    cx.expect(end == Ok(LogRead::Pending), || {
        format!("read at the end: {end:?}, want Pending")
    });
    let got = store.get(&owner(), "t-0", View::STATUS).await;
    cx.expect(
        got.as_ref()
            .is_ok_and(|g| g.replayable_from == 0 && g.position == 4),
        || format!("a watched log replays from 0: {got:?}"),
    );
    drop(watch);
    let missing = store.read("t-9", 0, View::FULL).await;
    cx.expect(missing == Err(StoreError::NotFound), || {
        format!("read of a missing task: {missing:?}")
    });
}

fn poll(watch: &mut dyn crate::store::TaskWatch) -> Poll<Change> {
    watch.poll_change(&mut Context::from_waker(Waker::noop()))
}

/// The watch's next report, or `None` when it has reported nothing after
/// `TURNS` turns of the executor: a watch that missed a change fails its
/// rule instead of hanging the suite.
async fn report(watch: &mut dyn crate::store::TaskWatch) -> Option<Change> {
    const TURNS: usize = 10_000;
    let mut turns = 0;
    std::future::poll_fn(|cx| match watch.poll_change(cx) {
        Poll::Ready(change) => Poll::Ready(Some(change)),
        Poll::Pending if turns >= TURNS => Poll::Ready(None),
        Poll::Pending => {
            turns += 1;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    })
    .await
}

async fn watches(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 1).await {
        return;
    }
    cx.expect(store.watch("t-missing").is_none(), || {
        "a watch of a task that does not exist".to_owned()
    });
    let Some(mut watch) = store.watch("t-0") else {
        cx.expect(false, || "no watch of a stored task".to_owned());
        return;
    };
    cx.expect(poll(&mut *watch).is_pending(), || {
        "a fresh watch reports a change that happened before it".to_owned()
    });
    let _ = store
        .append("t-0", status("t-0", "c", TaskState::Working, 1), None)
        .await;
    let change = report(&mut *watch).await;
    cx.expect(change == Some(Change::Changed), || {
        format!("after an append: {change:?}")
    });
    let _ = store
        .add_message("t-0", Message::user_text("m-3", "x"), None)
        .await;
    let change = report(&mut *watch).await;
    cx.expect(change == Some(Change::Changed), || {
        format!("after a message: {change:?}")
    });
}

async fn push_configs(store: &dyn TaskStore, cx: &mut Checker<'_>) {
    if !seed(store, cx, 1).await {
        return;
    }
    let config = |id: &str, url: &str| {
        let mut c = TaskPushNotificationConfig::new(url);
        c.task_id = "t-0".into();
        c.id = id.into();
        c
    };
    let first = store
        .put_push_config(&owner(), config("p-1", "https://a.example/"))
        .await;
    cx.expect(first == Ok(None), || format!("a new config: {first:?}"));
    let _ = store
        .put_push_config(&owner(), config("p-2", "https://b.example/"))
        .await;
    let replaced = store
        .put_push_config(&owner(), config("p-1", "https://c.example/"))
        .await;
    cx.expect(
        replaced
            .as_ref()
            .is_ok_and(|r| r.as_ref().is_some_and(|c| c.url == "https://a.example/")),
        || format!("the same id replaces and answers the old one: {replaced:?}"),
    );
    let all = store.list_push_configs(&owner(), "t-0").await;
    cx.expect(
        all.as_ref().is_ok_and(|all| {
            all.len() == 2
                && all
                    .iter()
                    .any(|c| c.id == "p-1" && c.url == "https://c.example/")
                && all.iter().any(|c| c.id == "p-2")
        }),
        || format!("list after a replace: {all:?}"),
    );
    let got = store.get_push_config(&owner(), "t-0", "p-9").await;
    cx.expect(got == Ok(None), || format!("an unknown config id: {got:?}"));
    let deleted = store.delete_push_config(&owner(), "t-0", "p-2").await;
    let again = store.delete_push_config(&owner(), "t-0", "p-2").await;
    cx.expect(deleted == Ok(true) && again == Ok(false), || {
        format!("delete, then delete again: {deleted:?}, {again:?}")
    });
    let missing = store.list_push_configs(&owner(), "t-9").await;
    cx.expect(missing == Err(StoreError::NotFound), || {
        format!("configs of a missing task: {missing:?}")
    });
}

async fn eviction(store: &dyn TaskStore, cx: &mut Checker<'_>, max: usize) {
    // Two owners in turn, within any quota of half the store plus one;
    // the newcomer is t-0's owner, so even a store that evicts only the
    // creator's own tasks evicts t-0.
    for i in 0..max {
        let id = format!("t-{i}");
        let made = store
            .create(&seeded_owner(i), task(&id, "c", i as i64))
            .await;
        if !cx.expect(made.is_ok(), || format!("create {id}: {made:?}")) {
            return;
        }
    }
    let Some(mut watch) = store.watch("t-0") else {
        cx.expect(false, || "no watch of a stored task".to_owned());
        return;
    };
    let _ = store
        .create(&owner(), task("t-last", "c", max as i64))
        .await;
    let first = store.get(&owner(), "t-0", View::STATUS).await;
    cx.expect(first == Err(StoreError::NotFound), || {
        format!(
            "{} tasks in a store of {max}: the oldest should be gone, got {first:?}",
            max + 1
        )
    });
    for (id, who) in (1..max)
        .map(|i| (format!("t-{i}"), seeded_owner(i)))
        .chain([("t-last".to_owned(), owner())])
    {
        let got = store.get(&who, &id, View::STATUS).await;
        cx.expect(got.is_ok(), || {
            format!("{id} was evicted instead of the oldest")
        });
    }
    cx.expect(poll(&mut *watch) == Poll::Ready(Change::Closed), || {
        "the watch of an evicted task does not report Closed".to_owned()
    });
}

/// Another owner's flood, of finished tasks and then of unfinished ones,
/// never evicts alice's running task; bob's quota full of his own
/// unfinished tasks refuses bob, and alice can still create.
async fn owners_apart(store: &dyn TaskStore, cx: &mut Checker<'_>, max: usize, quota: usize) {
    if !cx.expect(max >= quota + 2, || {
        format!("the rule needs max_tasks ({max}) of at least the quota ({quota}) plus two")
    }) {
        return;
    }
    let made = store.create(&owner(), task("a-0", "c", 0)).await;
    let working = store
        .append("a-0", status("a-0", "c", TaskState::Working, 1), None)
        .await;
    if !cx.expect(made.is_ok() && working.is_ok(), || {
        format!("alice's task: {made:?}, {working:?}")
    }) {
        return;
    }
    // Bob's finished tasks: more than the store holds.
    for i in 0..max + quota {
        let id = format!("b-{i}");
        let made = store.create(&bob(), task(&id, "c", 10 + i as i64)).await;
        let done = store
            .append(
                &id,
                status(&id, "c", TaskState::Completed, 10 + i as i64),
                None,
            )
            .await;
        if !cx.expect(made.is_ok() && done.is_ok(), || {
            format!("bob's finished task {id}: {made:?}, {done:?}")
        }) {
            return;
        }
    }
    let page = store.list(&bob(), &query(100)).await;
    cx.expect(page.as_ref().is_ok_and(|p| p.total <= quota), || {
        format!("bob holds more than his quota of {quota}: {page:?}")
    });
    // Bob's unfinished tasks: up to his quota, then he is refused.
    let base = 10 + (max + quota) as i64;
    for i in 0..quota {
        let id = format!("r-{i}");
        let made = store.create(&bob(), task(&id, "c", base + i as i64)).await;
        if !cx.expect(made.is_ok(), || {
            format!("bob's unfinished task {id} within his quota: {made:?}")
        }) {
            return;
        }
    }
    let over = store
        .create(&bob(), task("r-over", "c", base + quota as i64))
        .await;
    cx.expect(
        matches!(over, Err(StoreError::Quota(_) | StoreError::Busy(_))),
        || format!("bob's task past his quota of unfinished tasks: {over:?}, want Quota"),
    );
    let kept = store.get(&owner(), "a-0", View::STATUS).await;
    cx.expect(
        kept.as_ref()
            .is_ok_and(|k| k.task.status.state == TaskState::Working),
        || format!("alice's WORKING task after bob's flood: {kept:?}"),
    );
    for i in 0..quota {
        let id = format!("r-{i}");
        let got = store.get(&bob(), &id, View::STATUS).await;
        cx.expect(got.is_ok(), || {
            format!("bob's unfinished {id} was evicted by his own refused create: {got:?}")
        });
    }
    let again = store
        .create(&owner(), task("a-1", "c", base + quota as i64 + 1))
        .await;
    cx.expect(again.is_ok(), || {
        format!("alice's create while bob is refused: {again:?}")
    });
}
