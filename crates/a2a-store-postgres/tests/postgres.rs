//! What only a store on a shared database has to get right: fan-out
//! between two stores on one database, a lost listener, writers racing on
//! one task, migrations run again, tasks outliving the store, retention
//! in SQL, bounds and quotas that keep owners apart across replicas.

mod support;

use std::sync::Arc;
use std::time::Duration;

use a2a_agent::store::{changed, Change, LogRead, StoreError, View};
use a2a_agent::{Owner, TaskStore};
use a2a_store_postgres::{PgOptions, PgTaskStore, LISTENER_NAME};
use a2a_types::{
    Artifact, Message, Part, StreamResponse, Task, TaskArtifactUpdateEvent,
    TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent, Timestamp,
};

fn owner() -> Owner {
    Owner::new("tenant", Some("alice".to_owned()))
}

fn at(millis: i64) -> Timestamp {
    Timestamp::from_unix_millis(1_750_000_000_000 + millis).unwrap()
}

fn task(id: &str, millis: i64) -> Task {
    Task {
        id: id.to_owned(),
        context_id: "c".to_owned(),
        status: TaskStatus::new(TaskState::Submitted).with_timestamp(at(millis)),
        ..Task::default()
    }
}

fn status(id: &str, state: TaskState, millis: i64) -> StreamResponse {
    TaskStatusUpdateEvent::new(id, "c", TaskStatus::new(state).with_timestamp(at(millis))).into()
}

fn chunk(id: &str, text: &str) -> StreamResponse {
    TaskArtifactUpdateEvent::new(id, "c", Artifact::new("a", vec![Part::text(text)]))
        .with_append(true)
        .into()
}

/// Two stores on one schema: two replicas of an agent.
async fn replicas(label: &str, options: PgOptions) -> Option<(PgTaskStore, PgTaskStore)> {
    let cluster = support::cluster()?;
    let options = options.with_schema(support::schema(label));
    replicas_in(cluster, options).await
}

async fn replicas_in(
    cluster: &support::Cluster,
    options: PgOptions,
) -> Option<(PgTaskStore, PgTaskStore)> {
    let a = support::store(cluster, options.clone()).await;
    let b = support::store(cluster, options).await;
    Some((a, b))
}

async fn within<T>(what: &str, f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(10), f)
        .await
        .unwrap_or_else(|_| panic!("{what}: nothing within 10 s"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_append_through_one_store_wakes_a_watch_on_the_other_and_replays_in_order() {
    let Some((a, b)) = replicas("fanout", PgOptions::default()).await else {
        return;
    };
    a.create(&owner(), task("t-1", 0)).await.unwrap();
    // B never saw t-1: its watch asks the database, which knows it.
    let mut watch = b.watch("t-1").expect("B watches a task created on A");
    assert!(b.watch("t-nobody").is_none(), "a task no store created");

    let reader = {
        let b = b.clone();
        tokio::spawn(async move {
            let mut got = Vec::new();
            let mut position = 0;
            loop {
                match b.read("t-1", position, View::FULL).await.unwrap() {
                    LogRead::Event(event) => {
                        got.push(event);
                        position += 1;
                    }
                    LogRead::Pending => {
                        if got.len() == 21 {
                            return got;
                        }
                        assert_eq!(changed(&mut *watch).await, Change::Changed);
                    }
                    other => panic!("a log of 21 events read {other:?}"),
                }
            }
        })
    };
    a.append("t-1", status("t-1", TaskState::Working, 1), None)
        .await
        .unwrap();
    for i in 0..19 {
        a.append("t-1", chunk("t-1", &format!("{i}")), None)
            .await
            .unwrap();
    }
    a.append("t-1", status("t-1", TaskState::Completed, 2), None)
        .await
        .unwrap();
    let got = within("B's reader", reader).await.unwrap();
    let texts: Vec<String> = got[1..20]
        .iter()
        .map(|e| match e {
            StreamResponse::ArtifactUpdate(u) => u.artifact.text_content().unwrap_or_default(),
            other => panic!("not a chunk: {other:?}"),
        })
        .collect();
    let want: Vec<String> = (0..19).map(|i| i.to_string()).collect();
    assert_eq!(texts, want, "B reads A's events in A's order");
    assert!(
        matches!(&got[20], StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed)
    );
    let seen = b.get(&owner(), "t-1", View::FULL).await.unwrap();
    assert_eq!((seen.version, seen.position), (22, 21));
    assert_eq!(
        seen.task.artifacts[0].text_content().unwrap(),
        want.concat()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_and_a_removal_on_one_store_reach_the_other_s_watches() {
    let options = PgOptions::default().with_task_ttl(Some(Duration::from_secs(60)));
    let Some((a, b)) = replicas("removal", options).await else {
        return;
    };
    a.create(&owner(), task("old", 0)).await.unwrap();
    a.create(&owner(), task("new", 120_000)).await.unwrap();
    let mut old = b.watch("old").unwrap();
    let mut new = b.watch("new").unwrap();
    a.add_message("new", Message::user_text("m", "more"), None)
        .await
        .unwrap();
    assert_eq!(
        within("a message", changed(&mut *new)).await,
        Change::Changed
    );
    // 61 s after "old" was made, 59 s before "new" was: only "old" expires.
    assert_eq!(a.sweep(at(61_000)), 1);
    assert_eq!(
        within("a removal", changed(&mut *old)).await,
        Change::Closed
    );
    assert_eq!(
        b.get(&owner(), "old", View::STATUS).await,
        Err(StoreError::NotFound)
    );
    assert!(b.get(&owner(), "new", View::STATUS).await.is_ok());
    assert!(b.watch("old").is_none(), "B forgot the removed task");
}

fn bob() -> Owner {
    Owner::new("tenant", Some("bob".to_owned()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_store_refuses_a_create_rather_than_evict_another_owner_s_running_task() {
    let options = PgOptions::default().with_max_tasks(Some(3));
    let Some((a, b)) = replicas("owners", options).await else {
        return;
    };
    for (i, id) in ["a-0", "a-1", "a-2"].into_iter().enumerate() {
        a.create(&owner(), task(id, i as i64)).await.unwrap();
        a.append(id, status(id, TaskState::Working, 10), None)
            .await
            .unwrap();
    }
    // Alice's running tasks fill the store: bob is refused, and his
    // refused task is not stored.
    let refused = b.create(&bob(), task("b-0", 20)).await;
    assert!(
        matches!(&refused, Err(StoreError::Busy(why)) if why.contains("other callers' unfinished")),
        "{refused:?}"
    );
    assert_eq!(
        b.get(&bob(), "b-0", View::STATUS).await,
        Err(StoreError::NotFound)
    );
    // One of hers finishes: that one makes room, and its removal reaches
    // the other replica's watch.
    let mut finished = b.watch("a-1").unwrap();
    a.append("a-1", status("a-1", TaskState::Completed, 30), None)
        .await
        .unwrap();
    b.create(&bob(), task("b-0", 40)).await.unwrap();
    // The completion may be reported first; the removal then closes it.
    while within("the removal of a finished task", changed(&mut *finished)).await != Change::Closed
    {
    }
    assert_eq!(
        a.get(&owner(), "a-1", View::STATUS).await,
        Err(StoreError::NotFound)
    );
    // Nothing else finished: bob's next create takes his own oldest task's
    // place, never alice's running ones.
    b.create(&bob(), task("b-1", 50)).await.unwrap();
    assert_eq!(
        b.get(&bob(), "b-0", View::STATUS).await,
        Err(StoreError::NotFound)
    );
    for id in ["a-0", "a-2"] {
        let kept = a.get(&owner(), id, View::STATUS).await.unwrap();
        assert_eq!(kept.task.status.state, TaskState::Working, "{id}");
    }
    assert!(b.get(&bob(), "b-1", View::STATUS).await.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sweep_removes_only_finished_tasks_beyond_the_bound() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    // An unbounded replica fills the schema; one bounded to 2 sweeps it.
    let schema = support::schema("sweep_bound");
    let open = support::store(cluster, PgOptions::default().with_schema(schema.clone())).await;
    let bounded = support::store(
        cluster,
        PgOptions::default()
            .with_schema(schema)
            .with_max_tasks(Some(2)),
    )
    .await;
    for i in 0..5 {
        let id = format!("t-{i}");
        open.create(&owner(), task(&id, i)).await.unwrap();
        let state = if i % 2 == 1 {
            TaskState::Completed
        } else {
            TaskState::Working
        };
        open.append(&id, status(&id, state, 10), None)
            .await
            .unwrap();
    }
    // Three beyond the bound, two of them finished: those two go.
    assert_eq!(bounded.sweep(at(100)), 2);
    for i in 0..5 {
        let id = format!("t-{i}");
        let got = open.get(&owner(), &id, View::STATUS).await;
        assert_eq!(got.is_ok(), i % 2 == 0, "{id}: {got:?}");
    }
    assert_eq!(bounded.sweep(at(100)), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_s_racing_creates_on_two_replicas_never_pass_its_quota() {
    let options = PgOptions::default().with_max_tasks_per_owner(Some(4));
    let Some((a, b)) = replicas("quota_race", options).await else {
        return;
    };
    let mut creates = Vec::new();
    for i in 0..16 {
        let store = if i % 2 == 0 { a.clone() } else { b.clone() };
        creates.push(tokio::spawn(async move {
            store.create(&owner(), task(&format!("t-{i}"), i)).await
        }));
    }
    let (mut made, mut refused) = (0, 0);
    for create in creates {
        match within("a racing create", create).await.unwrap() {
            Ok(()) => made += 1,
            Err(StoreError::Quota(why)) => {
                assert_eq!(
                    why,
                    "the caller's 4 unfinished tasks fill its quota (4 tasks)"
                );
                refused += 1;
            }
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!((made, refused), (4, 12));
    let query = a2a_agent::store::TaskQuery {
        context_id: String::new(),
        status: TaskState::Unspecified,
        status_timestamp_after: None,
        after: None,
        page_size: 100,
        view: View::STATUS,
    };
    assert_eq!(a.list(&owner(), &query).await.unwrap().total, 4);
    // Another owner is not held by alice's quota.
    b.create(&bob(), task("b-0", 0)).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_listener_reconnects_and_every_watch_reports_a_change() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    let schema = support::schema("reconnect");
    let options = PgOptions::default().with_schema(schema.clone());
    let (a, b) = replicas_in(cluster, options).await.unwrap();
    a.create(&owner(), task("t-1", 0)).await.unwrap();
    let mut watch = b.watch("t-1").unwrap();
    // Kill the listening connections of the schema's stores (A's too):
    // what is sent until they listen again is lost.
    let (admin, connection) = tokio_postgres::connect(&cluster.url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let killed = admin
        .query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
            &[&format!("{LISTENER_NAME} {schema}")],
        )
        .await
        .unwrap();
    assert_eq!(killed.len(), 2, "one listener per store");
    // No write at all: the reconnect alone wakes the watch, so a reader
    // catches up on whatever it missed.
    assert_eq!(
        within("the reconnect", changed(&mut *watch)).await,
        Change::Changed
    );
    assert!(b.reconnects() >= 1);
    // And live notifications flow again.
    a.append("t-1", status("t-1", TaskState::Working, 1), None)
        .await
        .unwrap();
    assert_eq!(
        within("a notification after the reconnect", changed(&mut *watch)).await,
        Change::Changed
    );
    #[allow(unused_mut)]
    let mut want = status("t-1", TaskState::Working, 1);
    // 1.1 draft: the store stamps the event with the task's next
    // generation (this test's task was made at 0).
    #[cfg(feature = "draft-1-1")]
    if let a2a_types::StreamResponse::StatusUpdate(update) = &mut want {
        update.generation = 1;
    }
    assert_eq!(
        b.read("t-1", 0, View::FULL).await.unwrap(),
        LogRead::Event(want)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_writers_on_two_stores_conflict_and_lose_nothing() {
    let Some((a, b)) = replicas("race", PgOptions::default()).await else {
        return;
    };
    a.create(&owner(), task("t-1", 0)).await.unwrap();
    let stores = [Arc::new(a), Arc::new(b)];
    // Sixteen writers add a message each, read-modify-write with the
    // version they read, retrying on a conflict.
    let mut writers = Vec::new();
    for w in 0..16 {
        let store = Arc::clone(&stores[w % 2]);
        writers.push(tokio::spawn(async move {
            let mut conflicts = 0;
            loop {
                let seen = store.get(&owner(), "t-1", View::STATUS).await.unwrap();
                let message = Message::user_text(format!("m-{w}"), "x");
                match store.add_message("t-1", message, Some(seen.version)).await {
                    Ok(_) => return conflicts,
                    Err(StoreError::Conflict { expected, actual }) => {
                        assert!(actual > expected, "a conflict names a newer version");
                        conflicts += 1;
                    }
                    Err(e) => panic!("{e}"),
                }
            }
        }));
    }
    let mut conflicts = 0;
    for w in writers {
        conflicts += within("a writer", w).await.unwrap();
    }
    let got = stores[0].get(&owner(), "t-1", View::FULL).await.unwrap();
    assert_eq!(got.version, 17, "one version per successful write");
    let mut ids: Vec<String> = got
        .task
        .history
        .iter()
        .map(|m| m.message_id.clone())
        .collect();
    ids.sort();
    let mut want: Vec<String> = (0..16).map(|w| format!("m-{w}")).collect();
    want.sort();
    assert_eq!(
        ids, want,
        "every message once ({conflicts} conflicts retried)"
    );

    // Appends without a version from both stores at once: the positions
    // are 0.. with no gap and no repeat.
    let mut appends = Vec::new();
    for w in 0..20 {
        let store = Arc::clone(&stores[w % 2]);
        appends.push(tokio::spawn(async move {
            store
                .append("t-1", chunk("t-1", "x"), None)
                .await
                .unwrap()
                .position
        }));
    }
    let mut positions = Vec::new();
    for a in appends {
        positions.push(within("an append", a).await.unwrap());
    }
    positions.sort();
    assert_eq!(positions, (0..20).collect::<Vec<u64>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn migrations_apply_once_however_many_stores_start_together() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    let options = PgOptions::default().with_schema(support::schema("migrate"));
    let mut starting = Vec::new();
    for _ in 0..4 {
        let options = options.clone();
        starting.push(tokio::spawn(async move {
            support::store(support::cluster().unwrap(), options).await
        }));
    }
    let mut stores = Vec::new();
    for s in starting {
        stores.push(within("a store", s).await.unwrap());
    }
    let again = support::store(cluster, options.clone()).await;
    let newest = a2a_store_postgres::schema::MIGRATIONS
        .last()
        .unwrap()
        .version;
    let want: Vec<i32> = (1..=newest).collect();
    assert_eq!(again.schema_versions().await.unwrap(), want);
    // The tables were created once and work for every store.
    stores[0].create(&owner(), task("t-1", 0)).await.unwrap();
    assert!(again.get(&owner(), "t-1", View::STATUS).await.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tasks_logs_and_push_configs_outlive_the_store() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    let options = PgOptions::default().with_schema(support::schema("restart"));
    {
        let store = support::store(cluster, options.clone()).await;
        store.create(&owner(), task("t-1", 0)).await.unwrap();
        store
            .append("t-1", status("t-1", TaskState::Completed, 1), None)
            .await
            .unwrap();
        let mut config = TaskPushNotificationConfig::new("https://hooks.example.com/x");
        config.task_id = "t-1".into();
        config.id = "p-1".into();
        store.put_push_config(&owner(), config).await.unwrap();
    }
    let store = support::store(cluster, options).await;
    let got = store.get(&owner(), "t-1", View::FULL).await.unwrap();
    assert_eq!(got.task.status.state, TaskState::Completed);
    assert_eq!((got.version, got.position), (2, 1));
    let config = store.get_push_config(&owner(), "t-1", "p-1").await.unwrap();
    assert_eq!(config.unwrap().url, "https://hooks.example.com/x");
    assert!(matches!(
        store.read("t-1", 0, View::FULL).await.unwrap(),
        LogRead::Event(StreamResponse::StatusUpdate(_))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_keeps_its_last_events_and_reads_behind_it_answer_the_task() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    let mut options = PgOptions::default().with_schema(support::schema("trim"));
    options.max_events_per_task = 4;
    let store = support::store(cluster, options).await;
    store.create(&owner(), task("t-1", 0)).await.unwrap();
    for i in 0..10 {
        store
            .append("t-1", chunk("t-1", &i.to_string()), None)
            .await
            .unwrap();
    }
    let got = store.get(&owner(), "t-1", View::STATUS).await.unwrap();
    assert_eq!((got.position, got.replayable_from), (10, 6));
    match store.read("t-1", 5, View::STATUS).await.unwrap() {
        LogRead::Behind(task, next) => assert_eq!((task.id.as_str(), next), ("t-1", 10)),
        other => panic!("read before the log: {other:?}"),
    }
    assert!(matches!(
        store.read("t-1", 6, View::FULL).await.unwrap(),
        LogRead::Event(_)
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_whose_replica_died_fails_when_its_lease_expires_and_a_live_one_does_not() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    let lease = Duration::from_millis(600);
    let options = PgOptions::default()
        .with_schema(support::schema("lease"))
        .with_lease(Some(lease));
    let dying = support::store(cluster, options.clone()).await;
    let (alive, other) = replicas_in(cluster, options).await.unwrap();
    for (store, id) in [(&dying, "orphan"), (&alive, "running")] {
        store.create(&owner(), task(id, 0)).await.unwrap();
        store
            .append(id, status(id, TaskState::Working, 1), None)
            .await
            .unwrap();
    }
    // Waiting on the client: nobody runs it, so no lease to expire.
    dying.create(&owner(), task("waiting", 0)).await.unwrap();
    dying
        .append(
            "waiting",
            status("waiting", TaskState::InputRequired, 1),
            None,
        )
        .await
        .unwrap();
    let mut watch = other.watch("orphan").unwrap();
    let started = std::time::Instant::now();
    // The replica dies: its runtime stops, nothing renews its leases.
    drop(dying);
    loop {
        assert_eq!(
            within("the orphan's failure", changed(&mut *watch)).await,
            Change::Changed
        );
        let got = other.get(&owner(), "orphan", View::FULL).await.unwrap();
        if got.task.status.state == TaskState::Failed {
            let why = got.task.status.message.expect("a status message says why");
            assert!(
                why.text_content().unwrap().contains("lease expired"),
                "{why:?}"
            );
            break;
        }
    }
    let took = started.elapsed();
    // Within one lease and one renewal period (a third of a lease).
    assert!(
        took <= lease + lease / 3 + Duration::from_millis(900),
        "took {took:?}"
    );
    // Three more leases later, the live replica's task still runs, and the
    // waiting one still waits.
    tokio::time::sleep(lease * 3).await;
    let running = other.get(&owner(), "running", View::STATUS).await.unwrap();
    assert_eq!(running.task.status.state, TaskState::Working);
    let waiting = other.get(&owner(), "waiting", View::STATUS).await.unwrap();
    assert_eq!(waiting.task.status.state, TaskState::InputRequired);
    // The expiry was an event of the log like any other.
    let orphan = other.get(&owner(), "orphan", View::STATUS).await.unwrap();
    assert_eq!(orphan.position, 2);
    drop(alive);
}

#[tokio::test]
async fn a_database_that_is_not_there_is_an_error_not_a_hang() {
    let started = std::time::Instant::now();
    let gone = PgTaskStore::connect(
        "postgresql:///a2a?host=/nonexistent-a2a-socket-dir",
        PgOptions::default(),
    )
    .await;
    assert!(matches!(gone, Err(StoreError::Backend(_))), "{gone:?}");
    let bad = PgTaskStore::connect(
        "postgresql:///a2a?host=/tmp",
        PgOptions::default().with_schema("Robert'); DROP TABLE students;--"),
    )
    .await;
    assert!(matches!(bad, Err(StoreError::Backend(why)) if why.contains("schema")));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_write_leaves_no_transaction_open_on_its_connection() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    // One connection: every call after the refusals reuses it.
    let mut options = PgOptions::default().with_schema(support::schema("refused"));
    options.pool_size = 1;
    let (a, b) = replicas_in(cluster, options).await.unwrap();
    a.create(&owner(), task("t-1", 0)).await.unwrap();
    a.append("t-1", status("t-1", TaskState::Completed, 1), None)
        .await
        .unwrap();
    let refused = a
        .append("t-1", status("t-1", TaskState::Working, 2), None)
        .await;
    assert_eq!(
        refused,
        Err(StoreError::Refused {
            state: TaskState::Completed
        })
    );
    let stale = a.append("t-1", chunk("t-1", "x"), Some(1)).await;
    assert!(
        matches!(stale, Err(StoreError::Conflict { .. })),
        "{stale:?}"
    );
    assert_eq!(
        a.append("t-9", chunk("t-9", "x"), None).await,
        Err(StoreError::NotFound)
    );
    // A write without a transaction of its own, on the same connection:
    // committed, so the other store sees it at once.
    a.create(&owner(), task("t-2", 5)).await.unwrap();
    assert!(b.get(&owner(), "t-2", View::STATUS).await.is_ok());
    let seen = b.get(&owner(), "t-1", View::FULL).await.unwrap();
    assert_eq!((seen.version, seen.position), (2, 1));
}
