//! The a2a-agent store contract suite, unchanged, against PostgreSQL:
//! once bounded to 5 tasks (so the eviction rule runs too) and once
//! unbounded (so paging runs over ten tasks).

mod support;

use std::sync::Mutex;
use std::time::Duration;

use a2a_agent::contract::{self, Options, RULES};
use a2a_store_postgres::PgOptions;

async fn suite(cluster: &support::Cluster, max_tasks: Option<usize>) -> Vec<contract::Violation> {
    let label = if max_tasks.is_some() {
        "bounded"
    } else {
        "unbounded"
    };
    // `check` makes a fresh store per rule, synchronously: connect them
    // all first, each in a schema of its own.
    let mut stores = Vec::new();
    for _ in RULES {
        let options = PgOptions::default()
            .with_schema(support::schema(&format!("contract_{label}")))
            .with_max_tasks(max_tasks);
        stores.push(support::store(cluster, options).await);
    }
    stores.reverse();
    let stores = Mutex::new(stores);
    let options = match max_tasks {
        Some(max) => Options::default().with_max_tasks(max),
        None => Options::default(),
    };
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
    let violations = suite(cluster, Some(5)).await;
    assert!(violations.is_empty(), "{violations:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_contract_suite_passes_against_postgres_without_a_bound() {
    let Some(cluster) = support::cluster() else {
        return;
    };
    let violations = suite(cluster, None).await;
    assert!(violations.is_empty(), "{violations:#?}");
}
