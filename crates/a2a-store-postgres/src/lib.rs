//! A durable [`TaskStore`] on PostgreSQL: tasks, their event logs and push
//! configs in tables, so tasks survive a restart and every replica of an
//! agent on one database serves every task; `LISTEN/NOTIFY` tells the
//! watches of one replica what another wrote.
//!
//! ```no_run
//! # async fn serve() -> Result<(), a2a_agent::store::StoreError> {
//! use a2a_store_postgres::{PgOptions, PgTaskStore};
//!
//! let store = PgTaskStore::connect("postgresql:///a2a?host=/run/postgresql", PgOptions::default()).await?;
//! // `store` is an `a2a_agent::TaskStore`: hand it to `AgentHandler::new`.
//! # let _ = store;
//! # Ok(())
//! # }
//! ```
//!
//! # How it keeps the store rules
//!
//! Every rule of [`a2a_agent::store`] that must hold per task holds in one
//! transaction that locks the task's row (`SELECT ... FOR UPDATE`): the
//! version check ([`StoreError::Conflict`]), the state machine
//! ([`TaskState::can_transition_to`](a2a_types::TaskState::can_transition_to); no artifact for a terminal task),
//! applying the event with [`a2a_types::apply`], the event's position, and
//! a status timestamp never earlier than the task's. Two replicas writing
//! one task serialize on that row lock. The tables are created by embedded,
//! versioned migrations ([`schema`]) applied at [`PgTaskStore::connect`].
//!
//! # Watches across replicas
//!
//! Each write that changes a task sends, in its transaction, a
//! notification on one channel naming the task, its position and the
//! writing store; PostgreSQL delivers it at commit to every store
//! listening. Each store has one listening connection and fans the
//! notifications out to its local watches, one [`a2a_agent::Signal`] per
//! watched task. Its own writes wake its watches directly, before the
//! write's future answers. A notification is a hint, not the data: a
//! reader that wakes reads the log, so duplicates cost a read and order
//! comes from the positions. While the listener is disconnected
//! notifications are lost; after it connects again every watch reports
//! `Changed`, and its reader catches up from the log.
//!
//! # `watch` is synchronous
//!
//! [`TaskStore::watch`] answers at once, and `None` means "no such task".
//! The store keeps a bounded set of ids it has seen exist (created, read
//! or written through it); for any other id it asks the database, and that
//! one round trip blocks the calling thread (the store's own runtime runs
//! the query, so it never waits on the caller's executor). So `None` is
//! only ever answered after the database said the task does not exist; a
//! task removed on another replica a moment ago may still get a watch,
//! which then reports `Closed` when that removal's notification arrives
//! (or, if it was lost, `Changed`, and its reader's next read answers
//! `NotFound`).
//!
//! # Runtime
//!
//! The store runs its connections on a small tokio runtime of its own, so
//! its futures can be awaited on any executor and its synchronous calls
//! ([`TaskStore::watch`] for an unknown id, [`TaskStore::sweep`]) never
//! deadlock. A call's work starts when its future is first polled and, once
//! started, completes even if that future is dropped.
//!
//! # Leases: a task whose replica died
//!
//! A task that is SUBMITTED or WORKING is being run by some replica's
//! executor, in that replica's memory. The store that writes such a state
//! (creates the task, or appends an event leaving it there) takes the
//! task's lease: `lease_holder` is that store, `lease_until_ms` the
//! database's clock plus [`PgOptions::lease`]. Every store renews all its
//! leases in one `UPDATE` every third of the lease; an event that leaves
//! the task terminal or interrupted (INPUT_REQUIRED, AUTH_REQUIRED: the
//! client has the next move, nobody runs it) clears the lease.
//!
//! When a lease expires, its replica stopped renewing it: it died, or lost
//! the database for longer than the lease. Then any store's lease loop
//! **fails the task**: it appends a FAILED status whose message says the
//! replica running the task stopped, through the same transaction as every
//! event, so subscribers on every replica see it and the task is final.
//! It is not handed to another replica's executor: the kit's `execute`
//! keeps its progress in memory and may have had effects (a webhook
//! called, a model billed) that running it again would repeat; a client
//! that wants the work done sends it again, knowingly. A task whose replica
//! died therefore ends FAILED within one lease and one renewal period
//! (40 s by default) of the replica's last renewal. Two stores expiring
//! one task race harmlessly: the second FAILED is refused by the state
//! machine. A replica that comes back after its tasks were failed finds
//! its further events refused, as after a cancel.
//!
//! # Bounds and quotas: who gets evicted
//!
//! The store is shared by every owner (tenant and principal), so its
//! bounds follow the kit's rule (the contract's `eviction.owners-apart`,
//! as the in-memory store keeps it): one owner's tasks never make another
//! owner's unfinished task go. With [`PgOptions::max_tasks_per_owner`] a
//! create by an owner at its quota first removes that owner's oldest
//! finished tasks, and is refused with [`StoreError::Quota`] when the
//! owner's unfinished tasks fill it. With [`PgOptions::max_tasks`] a
//! create beyond the bound removes the oldest finished tasks of anyone,
//! then the creating owner's own oldest tasks (whatever their state,
//! never the one being created), and is refused with [`StoreError::Busy`]
//! when other owners' unfinished tasks fill the store. Finished means a
//! terminal state ([`TaskState::is_terminal`](a2a_types::TaskState::is_terminal)).
//! A refused create changes nothing: the removals and the insert are one
//! transaction. Every removal is notified like any other, so watches on
//! every replica report `Closed`. [`TaskStore::sweep`] removes, beyond
//! `max_tasks`, finished tasks only (and, past the TTL, any).
//!
//! Under concurrent creates (one replica's or several) the quota is exact:
//! an owner's creates take a transaction-scoped advisory lock on the
//! owner, so they count and insert one at a time; other owners' creates
//! do not wait for it. The store-wide bound is approximate: it would need
//! one lock for every create of the store, so creates committing at the
//! same moment may each leave one task more than `max_tasks`, which the
//! next create or sweep removes. Racing creates never remove another
//! owner's unfinished task: they remove only rows they found finished (a
//! finished task never changes again), and skip rows another transaction
//! holds rather than wait for them.
//!
//! # What an operator protects
//!
//! Push configs are stored as the client gave them, credentials included
//! (the store must hand them to the push sender): `a2a_push_configs.config`
//! holds webhook tokens and authentication credentials in clear. Restrict
//! the database role, encrypt the disk and the backups, and treat a dump of
//! that table as a secret.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use a2a_agent::store::{
    bound_history, record_message, Appended, LogRead, StoreError, StoreFuture, StoredTask,
    TaskPage, TaskQuery, TaskWatch, View,
};
use a2a_agent::{Owner, TaskStore};
use a2a_types::{
    apply, Message, StreamResponse, Task, TaskCursor, TaskPushNotificationConfig, Timestamp,
};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::types::ToSql;
use tokio_postgres::NoTls;

mod hub;
mod listen;
pub mod schema;

use hub::Hub;
pub use listen::LISTENER_NAME;

/// How a [`PgTaskStore`] connects and what it keeps.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PgOptions {
    /// The schema the tables live in (default `public`); created when
    /// missing. Letters, digits and `_` only. Stores in different schemas
    /// of one database are independent: each has its own notification
    /// channel.
    pub schema: String,
    /// The most connections the pool opens (default 16), besides the one
    /// listening connection.
    pub pool_size: usize,
    /// The threads of the store's own runtime (default 2): they run the
    /// queries and encode and decode the tasks.
    pub worker_threads: usize,
    /// How long after its creation a task is kept at most (default 7 days;
    /// `None`: forever). Applied by [`TaskStore::sweep`].
    pub task_ttl: Option<Duration>,
    /// The most tasks kept (default `None`: no bound). When set, a
    /// `create` that goes beyond it removes, in creation order, the oldest
    /// finished (terminal) tasks of any owner, then the creating owner's
    /// own oldest tasks whatever their state (never the one being
    /// created); when other owners' unfinished tasks fill the store, the
    /// create is refused with [`StoreError::Busy`] and changes nothing. It
    /// never removes another owner's unfinished task. `sweep` removes the
    /// oldest finished tasks beyond it. Each check reads `max_tasks`
    /// entries of an index, so keep it for modest bounds and use the TTL
    /// for large stores. Under concurrent creates the bound is
    /// approximate: creates committing at the same moment may each leave
    /// one task more, which the next create or `sweep` removes. See
    /// [the eviction policy](crate#bounds-and-quotas-who-gets-evicted).
    pub max_tasks: Option<usize>,
    /// The most tasks one owner keeps (default `None`: no quota). When
    /// set, a `create` by an owner that already holds this many removes
    /// that owner's own oldest finished tasks to make room, and when the
    /// owner's unfinished tasks fill the quota it is refused with
    /// [`StoreError::Quota`] and changes nothing: one owner's flood never
    /// removes another owner's tasks. Exact under concurrent creates (an
    /// owner's creates serialize on an advisory lock). With
    /// [`max_tasks`](Self::max_tasks), keep it below the bound, so that
    /// one owner alone cannot fill the store.
    pub max_tasks_per_owner: Option<usize>,
    /// The most messages of a task's history kept (default 100).
    pub max_history: usize,
    /// The most events of a task's log kept (default 256): older ones are
    /// deleted as new ones arrive. A finished task keeps its last ones
    /// until it is removed.
    pub max_events_per_task: usize,
    /// The most push configs per task (default 16).
    pub max_push_configs_per_task: usize,
    /// How many ids the store remembers to exist, so `watch` answers
    /// without a round trip (default 16 384).
    pub known_ids: usize,
    /// How often the listening connection proves it is alive with a
    /// query (default 5 s); a failure makes it connect again.
    pub listener_heartbeat: Duration,
    /// How long a call waits for a pooled connection, and a new
    /// connection for the server (default 10 s); past it the call answers
    /// [`StoreError::Backend`] (a `watch` of an unknown id, `Some`).
    pub connect_timeout: Duration,
    /// How long a replica's claim on the tasks it runs lasts without a
    /// renewal (default 30 s; `None`: no leases). See [the lease
    /// policy](crate#leases-a-task-whose-replica-died).
    pub lease: Option<Duration>,
}

impl Default for PgOptions {
    fn default() -> PgOptions {
        PgOptions {
            schema: "public".to_owned(),
            pool_size: 16,
            worker_threads: 2,
            task_ttl: Some(Duration::from_secs(7 * 24 * 3600)),
            max_tasks: None,
            max_tasks_per_owner: None,
            max_history: 100,
            max_events_per_task: 256,
            max_push_configs_per_task: 16,
            known_ids: 16_384,
            listener_heartbeat: Duration::from_secs(5),
            lease: Some(Duration::from_secs(30)),
            connect_timeout: Duration::from_secs(10),
        }
    }
}

impl PgOptions {
    /// These options in `schema`.
    pub fn with_schema(mut self, schema: impl Into<String>) -> PgOptions {
        self.schema = schema.into();
        self
    }

    /// These options with at most `max_tasks` tasks.
    pub fn with_max_tasks(mut self, max_tasks: Option<usize>) -> PgOptions {
        self.max_tasks = max_tasks;
        self
    }

    /// These options with at most `quota` tasks per owner (`None`: no
    /// quota).
    pub fn with_max_tasks_per_owner(mut self, quota: Option<usize>) -> PgOptions {
        self.max_tasks_per_owner = quota;
        self
    }

    /// These options with leases of `lease` (`None`: none).
    pub fn with_lease(mut self, lease: Option<Duration>) -> PgOptions {
        self.lease = lease;
        self
    }

    /// These options with tasks kept at most `ttl` after creation.
    pub fn with_task_ttl(mut self, ttl: Option<Duration>) -> PgOptions {
        self.task_ttl = ttl;
        self
    }
}

/// The [`TaskStore`] on PostgreSQL. Cloning is cheap and shares the pool,
/// the listener and the watches.
#[derive(Clone)]
pub struct PgTaskStore {
    inner: Arc<Inner>,
}

impl fmt::Debug for PgTaskStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PgTaskStore")
            .field("schema", &self.inner.db.options.schema)
            .field("origin", &self.inner.db.origin)
            .finish_non_exhaustive()
    }
}

struct Inner {
    runtime: Option<tokio::runtime::Runtime>,
    handle: tokio::runtime::Handle,
    db: Arc<Db>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Dropping a runtime blocks, which panics inside another runtime;
        // this stops its threads without waiting for them.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// What the store's runtime works with.
struct Db {
    pool: Pool,
    options: PgOptions,
    /// This store's name in its notifications (its own are not news).
    origin: String,
    /// The notification channel.
    channel: String,
    hub: Arc<Hub>,
}

fn backend(what: &str, e: impl fmt::Display) -> StoreError {
    StoreError::Backend(format!("{what}: {e}"))
}

fn valid_schema(schema: &str) -> bool {
    !schema.is_empty()
        && schema.len() <= 48
        && schema
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && !schema.as_bytes()[0].is_ascii_digit()
}

/// The channel of a schema's notifications.
fn channel_of(schema: &str) -> String {
    format!("a2a_task_events_{schema}")
}

impl PgTaskStore {
    /// Connects to the database at `url` (a libpq connection string or
    /// `postgresql://` URL, `host=/dir` for a unix socket), applies the
    /// migrations and starts listening; answers once notifications are
    /// being received, so no write after it is missed by its watches.
    pub async fn connect(url: &str, options: PgOptions) -> Result<PgTaskStore, StoreError> {
        if !valid_schema(&options.schema) {
            return Err(StoreError::Backend(format!(
                "schema {:?}: use lowercase letters, digits and _",
                options.schema
            )));
        }
        let mut config: tokio_postgres::Config =
            url.parse().map_err(|e| backend("connection string", e))?;
        config.options(format!("-c search_path={}", options.schema));
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(options.connect_timeout);
        }
        config.keepalives_idle(Duration::from_secs(30));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(options.worker_threads.max(1))
            .thread_name("a2a-store-postgres")
            .enable_all()
            .build()
            .map_err(|e| backend("starting the store's runtime", e))?;
        let handle = runtime.handle().clone();
        let setup = handle.spawn(Self::setup(config, options));
        let db = match setup.await {
            Ok(Ok(db)) => db,
            Ok(Err(e)) => {
                runtime.shutdown_background();
                return Err(e);
            }
            Err(e) => {
                runtime.shutdown_background();
                return Err(backend("connecting", e));
            }
        };
        Ok(PgTaskStore {
            inner: Arc::new(Inner {
                runtime: Some(runtime),
                handle,
                db,
            }),
        })
    }

    async fn setup(
        config: tokio_postgres::Config,
        options: PgOptions,
    ) -> Result<Arc<Db>, StoreError> {
        let (mut client, connection) = config
            .connect(NoTls)
            .await
            .map_err(|e| backend("connecting", e))?;
        let driver = tokio::spawn(connection);
        let migrated = schema::migrate(&mut client, &options.schema).await;
        drop(client);
        let _ = driver.await;
        let versions = migrated.map_err(|e| backend("migrating", e))?;
        if let Some(newer) = versions.iter().find(|v| **v > schema::newest()) {
            return Err(StoreError::Backend(format!(
                "the database is at schema version {newer}, newer than this build's {}",
                schema::newest()
            )));
        }
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.pool_size.max(1))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(options.connect_timeout))
            .create_timeout(Some(options.connect_timeout))
            .recycle_timeout(Some(options.connect_timeout))
            .build()
            .map_err(|e| backend("building the pool", e))?;
        let hub = Hub::new(options.known_ids);
        let origin = format!("{:016x}", origin_id());
        let channel = channel_of(&options.schema);
        listen::start(
            config,
            options.schema.clone(),
            channel.clone(),
            origin.clone(),
            Arc::clone(&hub),
            options.listener_heartbeat,
        )
        .await?;
        let db = Arc::new(Db {
            pool,
            options,
            origin,
            channel,
            hub,
        });
        if let Some(lease) = db.options.lease {
            let every = (lease / 3).max(Duration::from_millis(100));
            let db = Arc::clone(&db);
            // Ends with the store's runtime.
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(every);
                loop {
                    tick.tick().await;
                    let _ = Arc::clone(&db).leases().await;
                }
            });
        }
        Ok(db)
    }

    /// The options it was connected with.
    pub fn options(&self) -> &PgOptions {
        &self.inner.db.options
    }

    /// How many times its listening connection was lost and made again
    /// (each time, every watch reported `Changed`).
    pub fn reconnects(&self) -> u64 {
        self.inner
            .db
            .hub
            .reconnects
            .load(std::sync::atomic::Ordering::Acquire)
    }

    /// The migration versions recorded in the database, oldest first.
    pub async fn schema_versions(&self) -> Result<Vec<i32>, StoreError> {
        self.run(|db| async move {
            let client = db.client().await?;
            let rows = client
                .query(
                    "SELECT version FROM schema_migrations ORDER BY version",
                    &[],
                )
                .await
                .map_err(|e| backend("schema_migrations", e))?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
        .await
    }

    /// How many tasks have a live watch in this store.
    pub fn watched(&self) -> usize {
        self.inner.db.hub.watched()
    }

    /// Runs `work` on the store's runtime when first polled.
    fn run<'a, T, F>(&'a self, work: impl FnOnce(Arc<Db>) -> F + Send + 'a) -> StoreFuture<'a, T>
    where
        T: Send + 'static,
        F: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        Box::pin(async move {
            let task = self.inner.handle.spawn(work(Arc::clone(&self.inner.db)));
            task.await.map_err(|e| backend("store task", e))?
        })
    }

    /// Runs `work` on the store's runtime and waits for it, blocking this
    /// thread (never the store's runtime).
    fn block<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.inner.handle.spawn(async move {
            let _ = tx.send(work.await);
        });
        rx.recv()
            .map_err(|_| StoreError::Backend("the store's runtime stopped".to_owned()))?
    }
}

/// A name for this store in its notifications: the process, the time and
/// a counter, so two stores (in one process or not) differ.
fn origin_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    nanos ^ (u64::from(std::process::id()) << 32) ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The system clock as a timestamp (the epoch if it is before it).
fn now() -> Timestamp {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    Timestamp::from_unix_millis(millis).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// The owner as one key: `[tenant, principal]` in JSON.
fn owner_key(owner: &Owner) -> String {
    serde_json::to_string(&(&owner.tenant, &owner.principal)).unwrap_or_default()
}

fn encode<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    let bytes = a2a_types::to_vec(value).map_err(|e| backend("encoding", e))?;
    String::from_utf8(bytes).map_err(|e| backend("encoding", e))
}

fn decode<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, StoreError> {
    // The store wrote these rows: no bound on what it reads back.
    let mut limits = a2a_types::DecodeLimits::new();
    limits.max_input_bytes = usize::MAX;
    a2a_types::from_slice_with_limits(text.as_bytes(), &limits)
        .map_err(|e| backend("a stored row does not decode", e))
}

/// The status timestamp as stored: seconds and nanoseconds (the epoch for
/// none, which lists after every dated task).
fn status_key(task: &Task) -> (i64, i32) {
    let at = task.status.timestamp.unwrap_or(Timestamp::UNIX_EPOCH);
    (at.seconds(), at.nanos())
}

fn u64_of(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

fn i64_of(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The longest task id stored: its notifications must fit PostgreSQL's
/// 8000-byte payload.
const MAX_ID_BYTES: usize = 4096;

/// The first key of the advisory locks an owner's creates take under a
/// quota (any constant; this one is "a2aq" in ASCII); the second is a
/// hash of the schema and the owner. A collision of two owners' hashes
/// only makes their creates wait for each other.
const OWNER_LOCK_CLASS: i32 = 0x6132_6171;

/// A task's row: the store's lease is taken when `$11` (the holder) is
/// not null.
const INSERT_TASK: &str =
    "INSERT INTO a2a_tasks (id, owner_key, tenant, principal, version, task, state,
         status_s, status_ns, context_id, created_ms, lease_holder, lease_until_ms)
     VALUES ($1, $2, $3, $4, 1, $5::text::json, $6, $7, $8, $9, $10, $11,
         CASE WHEN $11::text IS NULL THEN NULL ELSE
             (extract(epoch FROM clock_timestamp()) * 1000)::bigint + $12 END)
     ON CONFLICT (id) DO NOTHING";

/// The `state` column's values of the terminal states: the names
/// `a2a_types` gives every [`TaskState`](a2a_types::TaskState) it
/// defines, kept where [`is_terminal`](a2a_types::TaskState::is_terminal)
/// says so. Only finished tasks are ever removed to make room for another
/// owner's.
fn terminal_states() -> &'static [&'static str] {
    static TERMINAL: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    TERMINAL.get_or_init(|| {
        a2a_types::TaskState::ALL
            .iter()
            .filter(|state| state.is_terminal())
            .map(|state| state.as_str_name())
            .collect()
    })
}

impl Db {
    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool
            .get()
            .await
            .map_err(|e| backend("connection pool", e))
    }

    /// Who holds the lease of `task` after this store wrote it: this store
    /// while someone runs it, nobody once it is terminal or waits on the
    /// client (or without leases).
    fn lease_holder(&self, task: &Task) -> Option<&str> {
        let state = task.status.state;
        (self.options.lease.is_some() && !state.is_terminal() && !state.is_interrupted())
            .then_some(self.origin.as_str())
    }

    fn lease_millis(&self) -> i64 {
        self.options
            .lease
            .map_or(0, |l| i64::try_from(l.as_millis()).unwrap_or(i64::MAX))
    }

    /// Renews this store's leases, then fails the tasks whose lease
    /// expired; answers how many it failed.
    async fn leases(self: Arc<Self>) -> Result<usize, StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE a2a_tasks SET lease_until_ms =
                     (extract(epoch FROM clock_timestamp()) * 1000)::bigint + $2
                 WHERE lease_holder = $1",
                &[&self.origin, &self.lease_millis()],
            )
            .await
            .map_err(|e| backend("renewing leases", e))?;
        let expired: Vec<(String, String)> = client
            .query(
                "SELECT id, context_id FROM a2a_tasks
                 WHERE lease_until_ms < (extract(epoch FROM clock_timestamp()) * 1000)::bigint
                 ORDER BY lease_until_ms LIMIT 100",
                &[],
            )
            .await
            .map_err(|e| backend("expired leases", e))?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        drop(client);
        let mut failed = 0;
        for (id, context_id) in expired {
            let message = Message::agent_text(
                format!("lease-expired-{id}"),
                "the replica running this task stopped (its lease expired); send the work again",
            )
            .for_task(&id, &context_id);
            let mut status =
                a2a_types::TaskStatus::new(a2a_types::TaskState::Failed).with_timestamp(now());
            status.message = Some(message);
            let event = a2a_types::TaskStatusUpdateEvent::new(&id, &context_id, status).into();
            match Arc::clone(&self).append(id, event, None).await {
                Ok(_) => failed += 1,
                // Finished meanwhile, or failed by another store.
                Err(StoreError::Refused { .. } | StoreError::NotFound) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(failed)
    }

    fn payload(&self, kind: char, position: u64, id: &str) -> String {
        format!("{} {kind} {position} {id}", self.origin)
    }

    async fn create(self: Arc<Self>, owner: Owner, mut task: Task) -> Result<(), StoreError> {
        if task.id.len() > MAX_ID_BYTES {
            return Err(StoreError::Backend(format!(
                "task ids longer than {MAX_ID_BYTES} bytes are not stored"
            )));
        }
        task.limit_history(Some(self.options.max_history));
        let json = encode(&task)?;
        let (s, ns) = status_key(&task);
        let created = task
            .status
            .timestamp
            .unwrap_or(Timestamp::UNIX_EPOCH)
            .unix_millis();
        let key = owner_key(&owner);
        let holder = self.lease_holder(&task);
        let lease = self.lease_millis();
        let state = task.status.state.as_str_name();
        let params: [&(dyn ToSql + Sync); 12] = [
            &task.id,
            &key,
            &owner.tenant,
            &owner.principal,
            &json,
            &state,
            &s,
            &ns,
            &task.context_id,
            &created,
            &holder,
            &lease,
        ];
        let mut client = self.client().await?;
        if self.options.max_tasks.is_none() && self.options.max_tasks_per_owner.is_none() {
            // Unbounded: the INSERT alone, no transaction.
            let insert = client
                .prepare_cached(INSERT_TASK)
                .await
                .map_err(|e| backend("create", e))?;
            let inserted = client
                .execute(&insert, &params)
                .await
                .map_err(|e| backend("create", e))?;
            if inserted == 0 {
                return Err(StoreError::AlreadyExists);
            }
            self.hub.known(&task.id);
            return Ok(());
        }
        // Bounded: the room is made and the task inserted in one
        // transaction, so a refused create (dropping `tx` rolls it back)
        // removes nothing and stores nothing, and the removals are
        // notified at commit.
        let tx = client
            .transaction()
            .await
            .map_err(|e| backend("create", e))?;
        let mut gone = Vec::new();
        if let Some(quota) = self.options.max_tasks_per_owner {
            self.owner_room(&tx, &key, &task.id, quota, &mut gone)
                .await?;
        }
        let insert = tx
            .prepare_cached(INSERT_TASK)
            .await
            .map_err(|e| backend("create", e))?;
        let inserted = tx
            .execute(&insert, &params)
            .await
            .map_err(|e| backend("create", e))?;
        if inserted == 0 {
            return Err(StoreError::AlreadyExists);
        }
        if let Some(max) = self.options.max_tasks {
            self.store_room(&tx, &key, &task.id, max, &mut gone).await?;
        }
        self.notify_removed(&tx, &gone).await?;
        tx.commit().await.map_err(|e| backend("create", e))?;
        self.hub.known(&task.id);
        self.forget(&gone);
        Ok(())
    }

    /// Makes room for one more task of the owner `key` under its quota,
    /// before `id` is inserted: while the owner holds `quota` tasks or
    /// more, removes its own oldest finished ones; refuses with
    /// [`StoreError::Quota`] when its unfinished ones fill the quota
    /// (and with [`StoreError::AlreadyExists`] when `id` is taken, as a
    /// create of a stored id is answered whatever the quota). Holds the
    /// owner's advisory lock until `tx` ends, so the owner's creates
    /// check the quota one at a time.
    async fn owner_room(
        &self,
        tx: &deadpool_postgres::Transaction<'_>,
        key: &str,
        id: &str,
        quota: usize,
        gone: &mut Vec<String>,
    ) -> Result<(), StoreError> {
        let quota = quota.max(1);
        let lock_key = format!("{}/{key}", self.options.schema);
        tx.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2))",
            &[&OWNER_LOCK_CLASS, &lock_key],
        )
        .await
        .map_err(|e| backend("the owner's quota", e))?;
        let terminal = terminal_states();
        loop {
            let row = tx
                .query_one(
                    "SELECT count(*), count(*) FILTER (WHERE state <> ALL($2)),
                         EXISTS (SELECT 1 FROM a2a_tasks WHERE id = $3)
                     FROM a2a_tasks WHERE owner_key = $1",
                    &[&key, &terminal, &id],
                )
                .await
                .map_err(|e| backend("the owner's quota", e))?;
            if row.get::<_, bool>(2) {
                return Err(StoreError::AlreadyExists);
            }
            let held = u64_of(row.get(0));
            let unfinished = u64_of(row.get(1));
            if held < quota as u64 {
                return Ok(());
            }
            // Exact: under the lock no task of the owner's appears, and a
            // finished task never becomes unfinished again.
            if unfinished >= quota as u64 {
                return Err(StoreError::Quota(format!(
                    "the caller's {unfinished} unfinished tasks fill its quota ({quota} tasks)"
                )));
            }
            let need = held + 1 - quota as u64;
            // Not SKIP LOCKED: a finished task locked a moment (a push
            // config being put, a refused append) is waited for, not
            // skipped for a refusal.
            let removed: Vec<String> = tx
                .query(
                    "DELETE FROM a2a_tasks WHERE id IN (
                         SELECT id FROM a2a_tasks WHERE owner_key = $1 AND state = ANY($2)
                         ORDER BY seq LIMIT $3 FOR UPDATE)
                     RETURNING id",
                    &[&key, &terminal, &i64_of(need)],
                )
                .await
                .map_err(|e| backend("the owner's quota", e))?
                .iter()
                .map(|r| r.get(0))
                .collect();
            let got = removed.len() as u64;
            gone.extend(removed);
            if got >= need {
                return Ok(());
            }
            // Some of the finished ones went meanwhile (another owner's
            // create evicting for the store-wide bound): the owner holds
            // fewer now; count again.
        }
    }

    /// Brings the store back to `max` tasks after `id` (of the owner
    /// `key`) was inserted in `tx`: removes the oldest finished tasks of
    /// any owner, then the owner's own oldest tasks whatever their state
    /// (never `id`); refuses with [`StoreError::Busy`] when other owners'
    /// unfinished tasks fill the store. Never removes another owner's
    /// unfinished task.
    async fn store_room(
        &self,
        tx: &deadpool_postgres::Transaction<'_>,
        key: &str,
        id: &str,
        max: usize,
        gone: &mut Vec<String>,
    ) -> Result<(), StoreError> {
        let max = max.max(1);
        let mut excess = self.excess(tx, max, "evicting").await?;
        for own in [false, true] {
            if excess == 0 {
                return Ok(());
            }
            let removed = if own {
                self.delete_own_oldest(tx, key, id, excess).await?
            } else {
                self.delete_oldest_terminal(tx, Some(id), excess, "evicting")
                    .await?
            };
            let got = removed.len() as u64;
            gone.extend(removed);
            if got >= excess {
                return Ok(());
            }
            // Fewer than asked: another create may have made room
            // meanwhile; count again.
            excess = self.excess(tx, max, "evicting").await?;
        }
        if excess == 0 {
            return Ok(());
        }
        Err(StoreError::Busy(format!(
            "the store is full of other callers' unfinished tasks ({} tasks)",
            (max as u64 + excess).saturating_sub(1)
        )))
    }

    /// How many tasks the store holds beyond `max` (reading at most
    /// `max` plus that many entries of the creation-order index).
    async fn excess(
        &self,
        tx: &deadpool_postgres::Transaction<'_>,
        max: usize,
        what: &str,
    ) -> Result<u64, StoreError> {
        let row = tx
            .query_one(
                "SELECT count(*) FROM a2a_tasks WHERE seq <=
                     (SELECT seq FROM a2a_tasks ORDER BY seq DESC OFFSET $1 LIMIT 1)",
                &[&i64_of(max as u64)],
            )
            .await
            .map_err(|e| backend(what, e))?;
        Ok(u64_of(row.get(0)))
    }

    /// Deletes up to `n` of the oldest finished tasks of any owner, except
    /// `keep`; answers their ids. Rows another transaction holds (another
    /// create evicting, a write) are skipped, not waited for.
    async fn delete_oldest_terminal(
        &self,
        tx: &deadpool_postgres::Transaction<'_>,
        keep: Option<&str>,
        n: u64,
        what: &str,
    ) -> Result<Vec<String>, StoreError> {
        let rows = tx
            .query(
                "DELETE FROM a2a_tasks WHERE id IN (
                     SELECT id FROM a2a_tasks
                     WHERE state = ANY($1) AND id IS DISTINCT FROM $2
                     ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED)
                 RETURNING id",
                &[&terminal_states(), &keep, &i64_of(n)],
            )
            .await
            .map_err(|e| backend(what, e))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Deletes up to `n` of the owner `key`'s oldest tasks, whatever their
    /// state, except `keep`; answers their ids.
    async fn delete_own_oldest(
        &self,
        tx: &deadpool_postgres::Transaction<'_>,
        key: &str,
        keep: &str,
        n: u64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = tx
            .query(
                "DELETE FROM a2a_tasks WHERE id IN (
                     SELECT id FROM a2a_tasks WHERE owner_key = $1 AND id <> $2
                     ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED)
                 RETURNING id",
                &[&key, &keep, &i64_of(n)],
            )
            .await
            .map_err(|e| backend("evicting", e))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Tells every store, at `tx`'s commit, that the tasks `ids` went.
    async fn notify_removed(
        &self,
        tx: &deadpool_postgres::Transaction<'_>,
        ids: &[String],
    ) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        let payloads: Vec<String> = ids.iter().map(|id| self.payload('x', 0, id)).collect();
        tx.execute(
            "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p",
            &[&self.channel, &payloads],
        )
        .await
        .map_err(|e| backend("notifying removals", e))?;
        Ok(())
    }

    /// Closes this store's watches of the tasks `ids`, once their removal
    /// is committed.
    fn forget(&self, ids: &[String]) {
        for id in ids {
            self.hub.removed(id);
        }
    }

    async fn get(
        self: Arc<Self>,
        owner: Owner,
        id: String,
        view: View,
    ) -> Result<StoredTask, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT version, task::text, next_position, log_first FROM a2a_tasks
                 WHERE id = $1 AND owner_key = $2",
            )
            .await
            .map_err(|e| backend("get", e))?;
        let row = client
            .query_opt(&stmt, &[&id, &owner_key(&owner)])
            .await
            .map_err(|e| backend("get", e))?
            .ok_or(StoreError::NotFound)?;
        let task: Task = decode(row.get::<_, &str>(1))?;
        self.hub.known(&id);
        Ok(StoredTask {
            task: view.of(&task),
            version: u64_of(row.get(0)),
            position: u64_of(row.get(2)),
            replayable_from: u64_of(row.get(3)),
        })
    }

    async fn append(
        self: Arc<Self>,
        id: String,
        mut event: StreamResponse,
        expected: Option<u64>,
    ) -> Result<Appended, StoreError> {
        let client = self.client().await?;
        let prepare = |sql: &'static str| client.prepare_cached(sql);
        let (lock, update, insert, notify, trim_log) = tokio::try_join!(
            prepare(
                "SELECT version, task::text, next_position, log_first FROM a2a_tasks
                 WHERE id = $1 FOR UPDATE"
            ),
            prepare(
                "UPDATE a2a_tasks SET version = $2, task = $3::text::json, state = $4,
                     status_s = $5, status_ns = $6, context_id = $7, next_position = $8,
                     log_first = $9, lease_holder = $10,
                     lease_until_ms = CASE WHEN $10::text IS NULL THEN NULL ELSE
                         (extract(epoch FROM clock_timestamp()) * 1000)::bigint + $11 END
                 WHERE id = $1"
            ),
            prepare(
                "INSERT INTO a2a_events (task_id, position, event) VALUES ($1, $2, $3::text::json)"
            ),
            prepare("SELECT pg_notify($1, $2)"),
            prepare("DELETE FROM a2a_events WHERE task_id = $1 AND position < $2"),
        )
        .map_err(|e| backend("append", e))?;
        // Two round trips: BEGIN with the row's lock, then the writes with
        // COMMIT (pipelined; a failed write turns the COMMIT into a
        // rollback). Any other way out rolls back before the connection
        // goes back to the pool.
        let lock_params: [&(dyn ToSql + Sync); 1] = [&id];
        let (begun, row) = tokio::join!(
            client.batch_execute("BEGIN"),
            client.query_opt(&lock, &lock_params)
        );
        let outcome = async {
            begun.map_err(|e| backend("append", e))?;
            let row = row
                .map_err(|e| backend("append", e))?
                .ok_or(StoreError::NotFound)?;
            let version = u64_of(row.get(0));
            check_version(version, expected)?;
            let mut task: Task = decode(row.get::<_, &str>(1))?;
            let position = u64_of(row.get(2));
            let mut first = u64_of(row.get(3));
            let current = task.status.state;
            match &mut event {
                StreamResponse::StatusUpdate(update) if update.task_id == id => {
                    if !current.can_transition_to(update.status.state) {
                        return Err(StoreError::Refused { state: current });
                    }
                    if let (Some(at), Some(previous)) =
                        (update.status.timestamp, task.status.timestamp)
                    {
                        update.status.timestamp = Some(at.max(previous));
                    }
                }
                StreamResponse::ArtifactUpdate(update) if update.task_id == id => {
                    if current.is_terminal() {
                        return Err(StoreError::Refused { state: current });
                    }
                }
                _ => return Err(StoreError::Refused { state: current }),
            }
            // The event carries the generation after it (1.1 draft 3.2.7).
            #[cfg(feature = "draft-1-1")]
            a2a_types::draft_1_1::stamp(&task, &mut event);
            let event_json = encode(&event)?;
            apply(&mut task, event).map_err(|_| StoreError::Refused { state: current })?;
            bound_history(&mut task, self.options.max_history);
            let task_json = encode(&task)?;
            let (s, ns) = status_key(&task);
            let cap = self.options.max_events_per_task.max(1) as u64;
            let trim = position + 1 > first + cap;
            if trim {
                first = position + 1 - cap;
            }
            let new_version = i64_of(version + 1);
            let next = i64_of(position + 1);
            let first_i = i64_of(first);
            let at = i64_of(position);
            let state = task.status.state.as_str_name();
            let payload = self.payload('e', position, &id);
            let holder = self.lease_holder(&task);
            let lease = self.lease_millis();
            let update_params: [&(dyn ToSql + Sync); 11] = [
                &id,
                &new_version,
                &task_json,
                &state,
                &s,
                &ns,
                &task.context_id,
                &next,
                &first_i,
                &holder,
                &lease,
            ];
            let insert_params: [&(dyn ToSql + Sync); 3] = [&id, &at, &event_json];
            let notify_params: [&(dyn ToSql + Sync); 2] = [&self.channel, &payload];
            let trim_params: [&(dyn ToSql + Sync); 2] = [&id, &first_i];
            let (updated, inserted, notified, trimmed, committed) = tokio::join!(
                client.execute(&update, &update_params),
                client.execute(&insert, &insert_params),
                client.execute(&notify, &notify_params),
                async {
                    match trim {
                        true => client.execute(&trim_log, &trim_params).await,
                        false => Ok(0),
                    }
                },
                client.batch_execute("COMMIT"),
            );
            updated
                .and(inserted)
                .and(notified)
                .and(trimmed)
                .map_err(|e| backend("append", e))?;
            committed.map_err(|e| backend("append", e))?;
            Ok(Appended {
                version: version + 1,
                position,
                state: task.status.state,
            })
        }
        .await;
        match outcome {
            Ok(appended) => {
                self.hub.known(&id);
                self.hub.changed(&id);
                Ok(appended)
            }
            Err(e) => {
                let _ = client.batch_execute("ROLLBACK").await;
                Err(e)
            }
        }
    }

    async fn add_message(
        self: Arc<Self>,
        id: String,
        mut message: Message,
        expected: Option<u64>,
    ) -> Result<u64, StoreError> {
        let mut client = self.client().await?;
        let tx = client
            .transaction()
            .await
            .map_err(|e| backend("add_message", e))?;
        let row = tx
            .query_opt(
                "SELECT version, task::text, next_position FROM a2a_tasks WHERE id = $1 FOR UPDATE",
                &[&id],
            )
            .await
            .map_err(|e| backend("add_message", e))?
            .ok_or(StoreError::NotFound)?;
        let version = u64_of(row.get(0));
        check_version(version, expected)?;
        let mut task: Task = decode(row.get::<_, &str>(1))?;
        let position = u64_of(row.get(2));
        message.task_id.clone_from(&task.id);
        message.context_id.clone_from(&task.context_id);
        record_message(&mut task, message, self.options.max_history);
        let json = encode(&task)?;
        let new_version = i64_of(version + 1);
        let payload = self.payload('m', position, &id);
        let update_params: [&(dyn ToSql + Sync); 3] = [&id, &new_version, &json];
        let notify_params: [&(dyn ToSql + Sync); 2] = [&self.channel, &payload];
        let (updated, notified) = tokio::join!(
            tx.execute(
                "UPDATE a2a_tasks SET version = $2, task = $3::text::json WHERE id = $1",
                &update_params,
            ),
            tx.execute("SELECT pg_notify($1, $2)", &notify_params),
        );
        updated
            .and(notified)
            .map_err(|e| backend("add_message", e))?;
        tx.commit().await.map_err(|e| backend("add_message", e))?;
        self.hub.known(&id);
        self.hub.changed(&id);
        Ok(version + 1)
    }

    async fn list(self: Arc<Self>, owner: Owner, query: TaskQuery) -> Result<TaskPage, StoreError> {
        let key = owner_key(&owner);
        let state = query.status.as_str_name();
        let after = query
            .status_timestamp_after
            .map(|t| (t.seconds(), t.nanos()));
        let cursor = query
            .after
            .as_ref()
            .map(|c| (c.timestamp.seconds(), c.timestamp.nanos(), c.id.clone()));
        let mut filters = String::from("owner_key = $1");
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&key];
        if !query.context_id.is_empty() {
            params.push(&query.context_id);
            filters.push_str(&format!(" AND context_id = ${}", params.len()));
        }
        if query.status != a2a_types::TaskState::Unspecified {
            params.push(&state);
            filters.push_str(&format!(" AND state = ${}", params.len()));
        }
        if let Some((s, ns)) = &after {
            params.push(s);
            params.push(ns);
            let n = params.len();
            filters.push_str(&format!(" AND (status_s, status_ns) >= (${}, ${n})", n - 1));
        }
        let counted = params.len();
        let mut page_filters = filters.clone();
        if let Some((s, ns, id)) = &cursor {
            params.push(s);
            params.push(ns);
            params.push(id);
            let n = params.len();
            page_filters.push_str(&format!(
                " AND (status_s, status_ns, id) < (${}, ${}, ${n})",
                n - 2,
                n - 1
            ));
        }
        let limit = i64_of(query.page_size.max(1) as u64 + 1);
        params.push(&limit);
        let page_sql = format!(
            "SELECT task::text, status_s, status_ns, id FROM a2a_tasks WHERE {page_filters}
             ORDER BY status_s DESC, status_ns DESC, id DESC LIMIT ${}",
            params.len()
        );
        let count_sql = format!("SELECT count(*) FROM a2a_tasks WHERE {filters}");
        let client = self.client().await?;
        let (page, total) = tokio::join!(
            client.query(page_sql.as_str(), &params),
            client.query_one(count_sql.as_str(), &params[..counted]),
        );
        let rows = page.map_err(|e| backend("list", e))?;
        let total: i64 = total.map_err(|e| backend("list", e))?.get(0);
        let take = query.page_size.max(1).min(rows.len());
        let next = (rows.len() > take).then(|| {
            let last = &rows[take - 1];
            TaskCursor::new(
                Timestamp::new(last.get(1), last.get(2)).unwrap_or(Timestamp::UNIX_EPOCH),
                last.get::<_, String>(3),
            )
        });
        let tasks = rows[..take]
            .iter()
            .map(|row| decode::<Task>(row.get::<_, &str>(0)).map(|t| query.view.of(&t)))
            .collect::<Result<Vec<Task>, StoreError>>()?;
        Ok(TaskPage {
            tasks,
            total: usize::try_from(total).unwrap_or(0),
            next,
        })
    }

    async fn read(
        self: Arc<Self>,
        id: String,
        position: u64,
        view: View,
    ) -> Result<LogRead, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT t.next_position, e.event::text FROM a2a_tasks t
                 LEFT JOIN a2a_events e ON e.task_id = t.id AND e.position = $2
                 WHERE t.id = $1",
            )
            .await
            .map_err(|e| backend("read", e))?;
        let at = i64_of(position);
        let row = client
            .query_opt(&stmt, &[&id, &at])
            .await
            .map_err(|e| backend("read", e))?
            .ok_or(StoreError::NotFound)?;
        let next = u64_of(row.get(0));
        if position >= next {
            return Ok(LogRead::Pending);
        }
        if let Some(event) = row.get::<_, Option<&str>>(1) {
            return Ok(LogRead::Event(decode(event)?));
        }
        let row = client
            .query_opt(
                "SELECT task::text, next_position FROM a2a_tasks WHERE id = $1",
                &[&id],
            )
            .await
            .map_err(|e| backend("read", e))?
            .ok_or(StoreError::NotFound)?;
        let task: Task = decode(row.get::<_, &str>(0))?;
        Ok(LogRead::Behind(view.of(&task), u64_of(row.get(1))))
    }

    async fn exists(self: Arc<Self>, id: String) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let found = client
            .query_opt("SELECT 1 FROM a2a_tasks WHERE id = $1", &[&id])
            .await
            .map_err(|e| backend("watch", e))?
            .is_some();
        if found {
            self.hub.known(&id);
        }
        Ok(found)
    }

    async fn put_push_config(
        self: Arc<Self>,
        owner: Owner,
        config: TaskPushNotificationConfig,
    ) -> Result<Option<TaskPushNotificationConfig>, StoreError> {
        let key = owner_key(&owner);
        let json = encode(&config)?;
        let mut client = self.client().await?;
        let tx = client
            .transaction()
            .await
            .map_err(|e| backend("push config", e))?;
        // The task's row lock serializes the bound's check per task.
        tx.query_opt(
            "SELECT 1 FROM a2a_tasks WHERE id = $1 AND owner_key = $2 FOR UPDATE",
            &[&config.task_id, &key],
        )
        .await
        .map_err(|e| backend("push config", e))?
        .ok_or(StoreError::NotFound)?;
        let old = tx
            .query_opt(
                "SELECT config::text FROM a2a_push_configs WHERE task_id = $1 AND config_id = $2",
                &[&config.task_id, &config.id],
            )
            .await
            .map_err(|e| backend("push config", e))?;
        let replaced = match old {
            Some(row) => {
                let old: TaskPushNotificationConfig = decode(row.get::<_, &str>(0))?;
                tx.execute(
                    "UPDATE a2a_push_configs SET config = $3::text::json
                     WHERE task_id = $1 AND config_id = $2",
                    &[&config.task_id, &config.id, &json],
                )
                .await
                .map_err(|e| backend("push config", e))?;
                Some(old)
            }
            None => {
                let count: i64 = tx
                    .query_one(
                        "SELECT count(*) FROM a2a_push_configs WHERE task_id = $1",
                        &[&config.task_id],
                    )
                    .await
                    .map_err(|e| backend("push config", e))?
                    .get(0);
                let max = self.options.max_push_configs_per_task;
                if u64_of(count) >= max as u64 {
                    return Err(StoreError::Full(format!(
                        "task {} already has {max} push configs, the most it may have",
                        config.task_id
                    )));
                }
                tx.execute(
                    "INSERT INTO a2a_push_configs (task_id, config_id, owner_key, config)
                     VALUES ($1, $2, $3, $4::text::json)",
                    &[&config.task_id, &config.id, &key, &json],
                )
                .await
                .map_err(|e| backend("push config", e))?;
                None
            }
        };
        tx.commit().await.map_err(|e| backend("push config", e))?;
        Ok(replaced)
    }

    async fn get_push_config(
        self: Arc<Self>,
        owner: Owner,
        task_id: String,
        id: String,
    ) -> Result<Option<TaskPushNotificationConfig>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT p.config::text FROM a2a_tasks t
                 LEFT JOIN a2a_push_configs p ON p.task_id = t.id AND p.config_id = $3
                 WHERE t.id = $1 AND t.owner_key = $2",
                &[&task_id, &owner_key(&owner), &id],
            )
            .await
            .map_err(|e| backend("push config", e))?
            .ok_or(StoreError::NotFound)?;
        row.get::<_, Option<&str>>(0).map(decode).transpose()
    }

    async fn list_push_configs(
        self: Arc<Self>,
        owner: Owner,
        task_id: String,
    ) -> Result<Vec<TaskPushNotificationConfig>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT p.config::text FROM a2a_tasks t
                 LEFT JOIN a2a_push_configs p ON p.task_id = t.id
                 WHERE t.id = $1 AND t.owner_key = $2 ORDER BY p.seq",
                &[&task_id, &owner_key(&owner)],
            )
            .await
            .map_err(|e| backend("push configs", e))?;
        if rows.is_empty() {
            return Err(StoreError::NotFound);
        }
        rows.iter()
            .filter_map(|row| row.get::<_, Option<&str>>(0))
            .map(decode)
            .collect()
    }

    async fn delete_push_config(
        self: Arc<Self>,
        owner: Owner,
        task_id: String,
        id: String,
    ) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_one(
                "WITH t AS (SELECT id FROM a2a_tasks WHERE id = $1 AND owner_key = $2),
                      d AS (DELETE FROM a2a_push_configs p USING t
                            WHERE p.task_id = t.id AND p.config_id = $3 RETURNING 1)
                 SELECT (SELECT count(*) FROM t), (SELECT count(*) FROM d)",
                &[&task_id, &owner_key(&owner), &id],
            )
            .await
            .map_err(|e| backend("push config", e))?;
        if row.get::<_, i64>(0) == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(row.get::<_, i64>(1) > 0)
    }

    async fn sweep(self: Arc<Self>, now: Timestamp) -> Result<usize, StoreError> {
        let mut client = self.client().await?;
        let tx = client
            .transaction()
            .await
            .map_err(|e| backend("sweep", e))?;
        let mut gone: Vec<String> = Vec::new();
        if let Some(ttl) = self.options.task_ttl {
            let ttl = i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX);
            let oldest = now.unix_millis().saturating_sub(ttl);
            let rows = tx
                .query(
                    "DELETE FROM a2a_tasks WHERE created_ms < $1 RETURNING id",
                    &[&oldest],
                )
                .await
                .map_err(|e| backend("sweep", e))?;
            gone.extend(rows.iter().map(|r| r.get::<_, String>(0)));
        }
        if let Some(max) = self.options.max_tasks {
            // Finished tasks only: an unfinished one goes by its TTL, or
            // to make room for its own owner's create.
            let excess = self.excess(&tx, max.max(1), "sweep").await?;
            if excess > 0 {
                let removed = self
                    .delete_oldest_terminal(&tx, None, excess, "sweep")
                    .await?;
                gone.extend(removed);
            }
        }
        self.notify_removed(&tx, &gone).await?;
        tx.commit().await.map_err(|e| backend("sweep", e))?;
        self.forget(&gone);
        Ok(gone.len())
    }
}

fn check_version(version: u64, expected: Option<u64>) -> Result<(), StoreError> {
    match expected {
        Some(expected) if expected != version => Err(StoreError::Conflict {
            expected,
            actual: version,
        }),
        _ => Ok(()),
    }
}

impl TaskStore for PgTaskStore {
    fn create<'a>(&'a self, owner: &'a Owner, task: Task) -> StoreFuture<'a, ()> {
        let owner = owner.clone();
        self.run(move |db| db.create(owner, task))
    }

    fn get<'a>(&'a self, owner: &'a Owner, id: &'a str, view: View) -> StoreFuture<'a, StoredTask> {
        let (owner, id) = (owner.clone(), id.to_owned());
        self.run(move |db| db.get(owner, id, view))
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        event: StreamResponse,
        expected_version: Option<u64>,
    ) -> StoreFuture<'a, Appended> {
        let id = id.to_owned();
        self.run(move |db| db.append(id, event, expected_version))
    }

    fn add_message<'a>(
        &'a self,
        id: &'a str,
        message: Message,
        expected_version: Option<u64>,
    ) -> StoreFuture<'a, u64> {
        let id = id.to_owned();
        self.run(move |db| db.add_message(id, message, expected_version))
    }

    fn list<'a>(&'a self, owner: &'a Owner, query: &'a TaskQuery) -> StoreFuture<'a, TaskPage> {
        let (owner, query) = (owner.clone(), query.clone());
        self.run(move |db| db.list(owner, query))
    }

    fn read<'a>(&'a self, id: &'a str, position: u64, view: View) -> StoreFuture<'a, LogRead> {
        let id = id.to_owned();
        self.run(move |db| db.read(id, position, view))
    }

    fn watch(&self, id: &str) -> Option<Box<dyn TaskWatch>> {
        let hub = &self.inner.db.hub;
        // The watch is taken before the existence check, so a change
        // committed while the check runs is not missed.
        let watch = hub.watch(id);
        if hub.is_known(id) {
            return Some(watch);
        }
        let db = Arc::clone(&self.inner.db);
        match self.block(db.exists(id.to_owned())) {
            Ok(true) => Some(watch),
            // A database that cannot answer cannot say the task is
            // missing: the watch's reader learns of the failure from its
            // first read.
            Ok(false) => None,
            Err(_) => Some(watch),
        }
    }

    fn put_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        config: TaskPushNotificationConfig,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        let owner = owner.clone();
        self.run(move |db| db.put_push_config(owner, config))
    }

    fn get_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        let (owner, task_id, id) = (owner.clone(), task_id.to_owned(), id.to_owned());
        self.run(move |db| db.get_push_config(owner, task_id, id))
    }

    fn list_push_configs<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>> {
        let (owner, task_id) = (owner.clone(), task_id.to_owned());
        self.run(move |db| db.list_push_configs(owner, task_id))
    }

    fn delete_push_config<'a>(
        &'a self,
        owner: &'a Owner,
        task_id: &'a str,
        id: &'a str,
    ) -> StoreFuture<'a, bool> {
        let (owner, task_id, id) = (owner.clone(), task_id.to_owned(), id.to_owned());
        self.run(move |db| db.delete_push_config(owner, task_id, id))
    }

    /// Deletes, in SQL and one transaction, the tasks created longer than
    /// [`PgOptions::task_ttl`] before `now` and the oldest finished tasks
    /// beyond [`PgOptions::max_tasks`] (their events and push configs go
    /// with them; unfinished tasks are never removed for the bound), and
    /// tells every store's watches. Blocks the calling thread for those
    /// statements; answers 0 when the database fails.
    fn sweep(&self, now: Timestamp) -> usize {
        let options = &self.inner.db.options;
        if options.task_ttl.is_none() && options.max_tasks.is_none() {
            return 0;
        }
        let db = Arc::clone(&self.inner.db);
        self.block(db.sweep(now)).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use a2a_types::TaskState;

    use super::terminal_states;

    #[test]
    fn the_terminal_names_are_those_of_the_terminal_states_and_only_those() {
        let names = terminal_states();
        for state in TaskState::ALL {
            assert_eq!(
                names.contains(&state.as_str_name()),
                state.is_terminal(),
                "{state:?}"
            );
        }
        // The names are what `create` and `append` store in `state`.
        for name in names {
            let state = TaskState::from_str_name(name);
            assert!(state.is_some_and(TaskState::is_terminal), "{name}");
        }
        for state in [
            TaskState::Completed,
            TaskState::Failed,
            TaskState::Canceled,
            TaskState::Rejected,
        ] {
            assert!(names.contains(&state.as_str_name()), "{state:?}");
        }
        assert_eq!(names.len(), 4, "{names:?}");
    }
}
