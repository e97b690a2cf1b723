//! What the kit reports to metrics: the in-memory store's stats at
//! scrape time, and each push notification's fate as a `PushRecord`.

use a2a_agent::{DeliveryOutcome, InMemoryTaskStore, MemoryLimits, Owner, TaskStore};
use a2a_transport::metrics::{PushOutcome, PushRecord, StoreStatsSource};
use a2a_types::{Task, TaskState};

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

#[test]
fn store_stats_count_tasks_by_state_weight_budget_and_watches() {
    let mut limits = MemoryLimits::default();
    limits.max_store_bytes = 1 << 20;
    let store = InMemoryTaskStore::new(limits);
    let owner = Owner::new("", None);
    for (id, state) in [
        ("t-1", TaskState::Working),
        ("t-2", TaskState::Working),
        ("t-3", TaskState::Completed),
    ] {
        block_on(store.create(&owner, Task::new(id, "c", state))).unwrap();
    }
    let watch = store.watch("t-1").unwrap();
    let stats = store.store_stats();
    let count = |s: TaskState| {
        stats
            .tasks_by_state
            .iter()
            .find(|(state, _)| *state == s)
            .map(|(_, n)| *n)
    };
    assert_eq!(count(TaskState::Working), Some(2));
    assert_eq!(count(TaskState::Completed), Some(1));
    assert_eq!(count(TaskState::Failed), Some(0), "every state is listed");
    assert_eq!(stats.tasks_by_state.len(), TaskState::ALL.len());
    assert_eq!(stats.bytes, store.weight() as u64);
    assert!(stats.bytes > 0);
    assert_eq!(stats.budget_bytes, Some(1 << 20));
    assert_eq!(stats.subscribers, 1);
    drop(watch);
    assert_eq!(store.stats().subscribers, 0);
}

#[test]
fn delivery_outcomes_count_retries_after_the_first_attempt() {
    let delivered = DeliveryOutcome::Delivered { attempts: 3 }.record();
    assert_eq!(
        delivered,
        PushRecord {
            outcome: PushOutcome::Delivered,
            attempts: 3
        }
    );
    assert_eq!(delivered.retries(), 2);
    assert_eq!(DeliveryOutcome::Dropped.record().retries(), 0);
}
