//! The [`EventStream`]s the handler returns: one reader's view of a
//! task's event log, or a single direct message.
//!
//! # SSE event ids
//!
//! Every item of a task stream is labelled (through the call's
//! [`EventIds`]) with a position in the task's event log: the position of
//! the first event a subscriber has not seen once it has this item. The
//! `Task` that starts a stream is labelled with the position it was taken
//! at; the event at position `n` with `n + 1`; a resynchronising `Task`
//! with the position it jumps to. Positions count the task's events, so
//! they increase within every stream and go on across the streams of one
//! task: a `Last-Event-ID` sent back to `SubscribeToTask` is where to
//! resume (spec 3.1.6).

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use a2a_transport::{BoxFuture, EventIds, EventStream};
use a2a_types::{A2aError, StreamResponse, TaskState};
use futures_core::Stream;

use crate::store::{changed, Change, LogRead, StoreError, TaskStore, TaskWatch, View};

type Item = Result<StreamResponse, A2aError>;
/// The next item and the subscription to read on with.
type Next = BoxFuture<'static, Option<(Item, Option<Subscription>)>>;

/// Where a stream ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Until {
    /// At a terminal or interrupted state: the stream of
    /// `SendStreamingMessage` (spec 3.1.2, 11.7).
    Settled,
    /// At a terminal state only: `SubscribeToTask` (spec 3.1.6, "the
    /// stream MUST terminate when the task reaches a terminal state"), so a
    /// subscriber of an input-required task sees it resume and finish.
    Terminal,
}

impl Until {
    /// Whether a stream that ends here ends after `event`.
    pub(crate) fn ends_after(self, event: &StreamResponse) -> bool {
        let ends = |s: TaskState| match self {
            Until::Settled => s.is_terminal() || s.is_interrupted(),
            Until::Terminal => s.is_terminal(),
        };
        match event {
            StreamResponse::Task(t) => ends(t.status.state),
            StreamResponse::StatusUpdate(e) => ends(e.status.state),
            StreamResponse::Message(_) => true,
            StreamResponse::ArtifactUpdate(_) => false,
        }
    }
}

/// One reader of one task's log.
pub(crate) struct Subscription {
    store: Arc<dyn TaskStore>,
    id: String,
    watch: Box<dyn TaskWatch>,
    position: u64,
    first: Option<StreamResponse>,
    view: View,
    until: Until,
    ids: EventIds,
}

impl Subscription {
    /// A subscription that yields `first` (unless `None`: it resumes), then
    /// the task's events from `position` on, until the stream ends at
    /// `until`; each item labelled in `ids` with its position. `watch` was
    /// taken before `position` was read.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        store: Arc<dyn TaskStore>,
        id: String,
        watch: Box<dyn TaskWatch>,
        position: u64,
        first: Option<StreamResponse>,
        view: View,
        until: Until,
        ids: EventIds,
    ) -> Subscription {
        Subscription {
            store,
            id,
            watch,
            position,
            first,
            view,
            until,
            ids,
        }
    }

    async fn next(mut self) -> Option<(Item, Option<Subscription>)> {
        if let Some(first) = self.first.take() {
            return Some(self.deliver(first));
        }
        loop {
            let read = self.store.read(&self.id, self.position, self.view).await;
            if !matches!(read, Ok(LogRead::Pending)) {
                return Some(self.take(read));
            }
            if changed(&mut *self.watch).await == Change::Closed {
                // The task went: one more read says how (usually NotFound),
                // or finds what its last change left.
                return match self.store.read(&self.id, self.position, self.view).await {
                    Ok(LogRead::Pending) => None,
                    read => Some(self.take(read)),
                };
            }
        }
    }

    /// What a read that found something (or failed) hands out.
    fn take(mut self, read: Result<LogRead, StoreError>) -> (Item, Option<Subscription>) {
        match read {
            Ok(LogRead::Event(event)) => {
                self.position += 1;
                self.deliver(event)
            }
            Ok(LogRead::Behind(task, position)) => {
                self.position = position;
                self.deliver(StreamResponse::Task(task))
            }
            Ok(LogRead::Pending) => (Err(A2aError::internal("nothing to read")), None),
            Err(StoreError::NotFound) => (Err(A2aError::task_not_found(&self.id)), None),
            Err(e) => (Err(A2aError::internal(e.to_string())), None),
        }
    }

    /// Labels `event` with the position after it and hands it out.
    fn deliver(self, event: StreamResponse) -> (Item, Option<Subscription>) {
        self.ids.label(&self.position.to_string());
        // Dropping `self` when the stream ends drops its watch, which lets
        // the store free a finished task's log.
        let more = !self.until.ends_after(&event);
        (Ok(event), more.then_some(self))
    }

    /// The subscription as an [`EventStream`].
    pub(crate) fn into_stream(self) -> EventStream {
        Box::pin(SubscriptionStream {
            next: Some(Box::pin(self.next())),
        })
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
