//! The a2a-agent store contract suite, unchanged, against PostgreSQL:
//! bounded to 5 tasks (so the eviction rule runs too), bounded to 7 tasks
//! with a quota of 5 per owner (so the owners-apart rule runs: another
//! owner's flood never evicts a running task), and unbounded (so paging
//! runs over ten tasks).

mod support;

use std::sync::Mutex;
use std::time::Duration;

use a2a_agent::contract::{self, Options, RULES};
use a2a_store_postgres::PgOptions;

/// The store-wide bound and the per-owner quota of the quota run. The
/// owners-apart rule needs the bound at least the quota plus two; the
/// oldest-first rule has alice hold half the bound plus one and create
/// one more, so the quota must let her (a quota of 3 in a store of 5
/// would refuse her, rightly, and keep the oldest).
const QUOTA_MAX_TASKS: usize = 7;
const OWNER_QUOTA: usize = 5;

async fn suite(
    cluster: &support::Cluster,
    max_tasks: Option<usize>,
    quota: Option<usize>,
) -> Vec<contract::Violation> {
    let label = match (max_tasks, quota) {
        (_, Some(_)) => "quota",
        (Some(_), None) => "bounded",
        (None, None) => "unbounded",
    };
    // `check` makes a fresh store per rule, synchronously: connect them
    // all first, each in a schema of its own.
    let mut stores = Vec::new();
    for _ in RULES {
        let options = PgOptions::default()
            .with_schema(support::schema(&format!("contract_{label}")))
            .with_max_tasks(max_tasks)
            .with_max_tasks_per_owner(quota);
        stores.push(support::store(cluster, options).await);
    }
    stores.reverse();
    let stores = Mutex::new(stores);
    let mut options = match max_tasks {
        Some(max) => Options::default().with_max_tasks(max),
        None => Options::default(),
    };
    if let Some(quota) = quota {
        options = options.with_owner_quota(quota);
    }
    let make = || stores.lock().unwrap().pop().expect("a store for each rule");
    tokio::time::timeout(Duration::from_secs(60), contract::check(make, options))
        .await
        .expect("the contract suite did not finish within 60 s")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_contract_suite_passes_against_postgres_with_a_task_bound() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    let violations = suite(cluster, Some(5), None).await;
    assert!(violations.is_empty(), "{violations:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_contract_suite_passes_against_postgres_with_a_bound_and_owner_quotas() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    let violations = suite(cluster, Some(QUOTA_MAX_TASKS), Some(OWNER_QUOTA)).await;
    assert!(violations.is_empty(), "{violations:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_contract_suite_passes_against_postgres_without_a_bound() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    let violations = suite(cluster, None, None).await;
    assert!(violations.is_empty(), "{violations:#?}");
}
