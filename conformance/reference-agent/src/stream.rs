//! The [`EventStream`]s the agent returns: one subscriber's view of a
//! task's event log, or a single direct message.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use a2a_transport::{BoxFuture, EventStream};
use a2a_types::{A2aError, StreamResponse};
use futures_core::Stream;

use crate::task::{ends_stream, Read, Start, TaskEntry};

type Item = Result<StreamResponse, A2aError>;
/// The next item and the subscription to read on with.
type Next = BoxFuture<'static, Option<(Item, Option<Subscription>)>>;

/// One subscriber of one task.
pub(crate) struct Subscription {
    entry: Arc<TaskEntry>,
    rx: tokio::sync::watch::Receiver<u64>,
    next_seq: u64,
    first: Option<StreamResponse>,
    history: Option<usize>,
}

impl Subscription {
    /// A subscription that yields `start`'s snapshot, then the task's
    /// events from `start.next_seq` on.
    pub(crate) fn new(entry: Arc<TaskEntry>, start: Start, history: Option<usize>) -> Subscription {
        Subscription {
            entry,
            rx: start.rx,
            next_seq: start.next_seq,
            first: Some(StreamResponse::Task(start.snapshot)),
            history,
        }
    }

    /// The next item, and the subscription to read on with (`None` once
    /// the item ended the stream).
    async fn next(mut self) -> Option<(Item, Option<Subscription>)> {
        if let Some(first) = self.first.take() {
            return Some(self.deliver(first));
        }
        loop {
            // Mark the current announcement seen before reading, so an
            // event published after the read wakes `changed` below.
            self.rx.borrow_and_update();
            match self.entry.read(self.next_seq, self.history) {
                Read::Event(event) => {
                    self.next_seq += 1;
                    return Some(self.deliver(event));
                }
                Read::Resync(task, next_seq) => {
                    self.next_seq = next_seq;
                    return Some(self.deliver(StreamResponse::Task(task)));
                }
                Read::Evicted => {
                    let err = A2aError::task_not_found(&self.entry.id);
                    return Some((Err(err), None));
                }
                Read::Pending => {}
            }
            if self.rx.changed().await.is_err() {
                return None;
            }
        }
    }

    fn deliver(self, event: StreamResponse) -> (Item, Option<Subscription>) {
        // Dropping `self` when the stream ends releases the task's log.
        let more = !ends_stream(&event);
        (Ok(event), more.then_some(self))
    }

    /// The subscription as an [`EventStream`].
    pub(crate) fn into_stream(self) -> EventStream {
        Box::pin(SubscriptionStream {
            next: Some(Box::pin(self.next())),
        })
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.entry.release();
    }
}

struct SubscriptionStream {
    next: Option<Next>,
}

impl Stream for SubscriptionStream {
    type Item = Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Item>> {
        let Some(next) = self.next.as_mut() else {
            return Poll::Ready(None);
        };
        match next.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(None) => {
                self.next = None;
                Poll::Ready(None)
            }
            Poll::Ready(Some((item, sub))) => {
                self.next = sub.map(|s| Box::pin(s.next()) as Next);
                Poll::Ready(Some(item))
            }
        }
    }
}

/// A stream of exactly one item (spec 3.1.2, message-only stream).
pub(crate) fn once(event: StreamResponse) -> EventStream {
    Box::pin(Once(Some(Ok(event))))
}

struct Once(Option<Item>);

impl Stream for Once {
    type Item = Item;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Item>> {
        Poll::Ready(self.0.take())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::push::{PushHub, RecordingPushSender};
    use crate::task::Scope;
    use a2a_types::{Task, TaskState};

    fn entry(max_events: usize) -> Arc<TaskEntry> {
        let hub = Arc::new(PushHub {
            sender: Arc::new(RecordingPushSender::new()),
            policy: Default::default(),
            max_queue: 4,
            observer: None,
            allowlist: Default::default(),
        });
        let mut task = Task::new("t", "c", TaskState::Submitted);
        task.status.timestamp = Some(crate::task::now());
        let scope = Scope {
            tenant: String::new(),
            principal: None,
        };
        Arc::new(TaskEntry::new(task, scope, hub, 10, max_events))
    }

    #[tokio::test]
    async fn the_log_holds_events_only_while_someone_may_read_them() {
        let e = entry(3);
        // No subscriber: nothing is kept.
        e.set_status(TaskState::Working, None).unwrap();
        assert_eq!(e.logged(), 0);

        let sub = Subscription::new(e.clone(), e.start(None), None);
        for _ in 0..5 {
            e.set_status(TaskState::Working, None).unwrap();
        }
        assert_eq!(e.logged(), 3, "bounded by max_events_per_task");
        drop(sub);
        assert_eq!(e.logged(), 0, "freed when the last subscriber left");
    }
}
