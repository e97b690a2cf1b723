//! The embedded, versioned migrations and how they are applied.
//!
//! Each migration is one SQL file compiled into the crate and numbered
//! from 1. At connect the store takes a transaction-scoped advisory lock
//! (so replicas starting together apply each migration once), creates
//! `schema_migrations` if needed, and applies, in order and in that same
//! transaction, every migration whose version is not recorded there. A
//! database already at the newest version is left as it is; one at a
//! version newer than this build knows is refused, so an old replica never
//! writes rows a newer schema reads differently.

use tokio_postgres::Client;

/// One migration: its version and its SQL.
#[derive(Debug, Clone, Copy)]
pub struct Migration {
    /// Its number, from 1, in the order they apply.
    pub version: i32,
    /// What it is for, recorded beside its version.
    pub name: &'static str,
    /// The statements.
    pub sql: &'static str,
}

/// Every migration this build knows, oldest first.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "tasks, events and push configs",
        sql: include_str!("../migrations/0001_tasks.sql"),
    },
    Migration {
        version: 2,
        name: "an owner's tasks in creation order",
        sql: include_str!("../migrations/0002_owner_order.sql"),
    },
];

/// The advisory lock key migrations run under (any constant; this one is
/// "a2a-mig" in ASCII).
const LOCK_KEY: i64 = 0x0061_3261_2d6d_6967;

/// Creates `schema` if needed and applies the missing migrations in it;
/// answers every version the database records (applied before or now).
pub(crate) async fn migrate(
    client: &mut Client,
    schema: &str,
) -> Result<Vec<i32>, tokio_postgres::Error> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK_KEY])
        .await?;
    tx.batch_execute(&format!(
        "CREATE SCHEMA IF NOT EXISTS {schema};
         SET LOCAL search_path = {schema};
         CREATE TABLE IF NOT EXISTS schema_migrations (
             version    integer PRIMARY KEY,
             name       text NOT NULL,
             applied_at timestamptz NOT NULL DEFAULT now()
         );"
    ))
    .await?;
    let applied: Vec<i32> = tx
        .query(
            "SELECT version FROM schema_migrations ORDER BY version",
            &[],
        )
        .await?
        .iter()
        .map(|row| row.get(0))
        .collect();
    let mut now = applied.clone();
    for migration in MIGRATIONS {
        if applied.contains(&migration.version) {
            continue;
        }
        tx.batch_execute(migration.sql).await?;
        tx.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
            &[&migration.version, &migration.name],
        )
        .await?;
        now.push(migration.version);
    }
    tx.commit().await?;
    Ok(now)
}

/// The newest version this build knows.
pub(crate) fn newest() -> i32 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}
