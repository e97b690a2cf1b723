//! The [`EventStream`]s the agent returns: one subscriber's view of a
//! task's event log, or a single direct message.
//!
//! # SSE event ids
//!
//! Every item of a task stream is labelled (through the call's
//! [`EventIds`]) with a position in the task's event log: the sequence
//! number of the first event a subscriber has not seen once it has this
//! item. The `Task` that starts a stream is labelled with the position it
//! was taken at; an event with sequence number `n` with `n + 1`; a
//! resynchronising `Task` with the position it jumps to. Positions count
//! the task's events, so they increase within every stream and go on
//! across the streams of one task: a `Last-Event-ID` sent back to
//! `SubscribeToTask` is where to resume ([`TaskEntry::subscribe`]).

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use a2a_transport::{BoxFuture, EventIds, EventStream};
use a2a_types::{A2aError, StreamResponse};
use futures_core::Stream;

use crate::task::{ends_stream, Read, Start, TaskEntry, Until};

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
    until: Until,
    ids: EventIds,
}

impl Subscription {
    /// A subscription that yields `start`'s snapshot (unless it resumes),
    /// then the task's events from `start.next_seq` on, until the stream
    /// ends at `until`; each item labelled in `ids` with its position.
    pub(crate) fn new(
        entry: Arc<TaskEntry>,
        start: Start,
        history: Option<usize>,
        until: Until,
        ids: EventIds,
    ) -> Subscription {
        Subscription {
            entry,
            rx: start.rx,
            next_seq: start.next_seq,
            first: (!start.resumed).then_some(StreamResponse::Task(start.snapshot)),
            history,
            until,
            ids,
        }
    }

    /// The next item, and the subscription to read on with (`None` once
    /// the item ended the stream).
    async fn next(mut self) -> Option<(Item, Option<Subscription>)> {
        if let Some(first) = self.first.take() {
            // The position the snapshot was taken at.
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

    /// Labels `event` with the subscriber's position after it (already
    /// advanced) and hands it out.
    fn deliver(self, event: StreamResponse) -> (Item, Option<Subscription>) {
        self.ids.label(&self.next_seq.to_string());
        // Dropping `self` when the stream ends releases the task's log.
        let more = !ends_stream(&event, self.until);
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
        Arc::new(TaskEntry::new(
            task,
            scope,
            hub,
            10,
            max_events,
            Arc::default(),
        ))
    }

    async fn next(stream: &mut EventStream) -> Option<StreamResponse> {
        std::future::poll_fn(|c| stream.as_mut().poll_next(c))
            .await
            .map(|item| item.unwrap())
    }

    fn state(event: &StreamResponse) -> Option<TaskState> {
        match event {
            StreamResponse::Task(t) => Some(t.status.state),
            StreamResponse::StatusUpdate(s) => Some(s.status.state),
            _ => None,
        }
    }

    #[tokio::test]
    async fn a_working_task_keeps_its_last_events_and_a_finished_one_only_while_read() {
        let e = entry(3);
        e.set_status(TaskState::Working, None).unwrap();
        assert_eq!(e.logged(), 1, "kept for a resubscription");
        for _ in 0..4 {
            e.set_status(TaskState::Working, None).unwrap();
        }
        assert_eq!(e.logged(), 3, "bounded by max_events_per_task");
        let sub = Subscription::new(
            e.clone(),
            e.start(None),
            None,
            Until::Terminal,
            EventIds::new(),
        );
        e.set_status(TaskState::Completed, None).unwrap();
        assert_eq!(e.logged(), 3, "the subscriber has not read them");
        drop(sub);
        assert_eq!(e.logged(), 0, "freed when the last subscriber left");

        let done = entry(3);
        done.set_status(TaskState::Completed, None).unwrap();
        assert_eq!(
            done.logged(),
            0,
            "a finished task nobody reads keeps nothing"
        );
    }

    #[tokio::test]
    async fn items_are_labelled_with_log_positions() {
        let e = entry(8);
        e.set_status(TaskState::Working, None).unwrap(); // seq 0
        let ids = EventIds::new();
        let mut stream = Subscription::new(
            e.clone(),
            e.subscribe(None, None).unwrap(),
            None,
            Until::Terminal,
            ids.clone(),
        )
        .into_stream();
        assert!(matches!(
            next(&mut stream).await,
            Some(StreamResponse::Task(_))
        ));
        assert_eq!(ids.take().as_deref(), Some("1"), "the snapshot's position");
        e.set_status(TaskState::Completed, None).unwrap(); // seq 1
        assert_eq!(
            next(&mut stream).await.as_ref().and_then(state),
            Some(TaskState::Completed)
        );
        assert_eq!(ids.take().as_deref(), Some("2"));
        assert!(next(&mut stream).await.is_none());
    }

    #[tokio::test]
    async fn last_event_id_replays_what_the_log_still_holds() {
        let e = entry(3);
        for _ in 0..3 {
            e.set_status(TaskState::Working, None).unwrap(); // seqs 0, 1, 2
        }
        let start = e.subscribe(None, Some(1)).unwrap();
        assert!(start.resumed);
        let ids = EventIds::new();
        let mut stream =
            Subscription::new(e.clone(), start, None, Until::Terminal, ids.clone()).into_stream();
        for want in ["2", "3"] {
            let event = next(&mut stream).await.unwrap();
            assert!(
                matches!(event, StreamResponse::StatusUpdate(_)),
                "{event:?}"
            );
            assert_eq!(ids.take().as_deref(), Some(want));
        }
        e.set_status(TaskState::Completed, None).unwrap(); // seq 3
        assert_eq!(
            next(&mut stream).await.as_ref().and_then(state),
            Some(TaskState::Completed)
        );
        assert_eq!(ids.take().as_deref(), Some("4"));
        assert!(next(&mut stream).await.is_none());
    }

    #[tokio::test]
    async fn a_position_the_log_cannot_replay_starts_with_the_task() {
        let e = entry(2);
        for _ in 0..4 {
            e.set_status(TaskState::Working, None).unwrap(); // seqs 0-3, 2 and 3 kept
        }
        // Moved on, nothing missed, never issued.
        for at in [0, 1, 4, 99] {
            let start = e.subscribe(None, Some(at)).unwrap();
            assert!(!start.resumed, "{at}");
            assert_eq!(start.next_seq, 4, "{at}");
        }
        for at in [2, 3] {
            assert!(e.subscribe(None, Some(at)).unwrap().resumed, "{at}");
        }
    }

    #[tokio::test]
    async fn a_subscription_goes_on_past_an_interrupted_state_and_a_message_stream_does_not() {
        for (until, want) in [
            (
                Until::Terminal,
                vec![
                    TaskState::InputRequired,
                    TaskState::Working,
                    TaskState::Completed,
                ],
            ),
            (Until::Settled, vec![TaskState::InputRequired]),
        ] {
            let e = entry(8);
            e.set_status(TaskState::InputRequired, None).unwrap();
            let mut stream = Subscription::new(
                e.clone(),
                e.subscribe(None, None).unwrap(),
                None,
                until,
                EventIds::new(),
            )
            .into_stream();
            let first = next(&mut stream).await.unwrap();
            let mut got = vec![state(&first).unwrap()];
            e.set_status(TaskState::Working, None).unwrap();
            e.set_status(TaskState::Completed, None).unwrap();
            while let Some(event) = next(&mut stream).await {
                got.extend(state(&event));
            }
            assert_eq!(got, want, "{until:?}");
        }
    }
}
