//! The A2A 1.1 draft (`../shared/spec/draft-1.1/`, behind the `draft-1-1`
//! feature): task generation (draft spec 3.2.7), the timeline (3.2.8,
//! [`TimelineEntry`]) and the pure rules a host or client applies to
//! them. No clock and no I/O: the long-poll decision takes the host's
//! "the deadline passed" as an argument.
//!
//! The new fields live on the model types themselves ([`Task::generation`],
//! [`Task::timeline`], [`Artifact::start_generation`], ...), so that the
//! codecs carry them like any other field; [`DraftFields`] clears them
//! for a 1.0 caller, who must see pure 1.0 on its wire.
//!
//! **Server side.** A task starts at generation 1 ([`start`]); every
//! status or artifact update is stamped with the next generation
//! ([`stamp`]) before it is applied ([`crate::apply`] then moves the
//! task's generation, appends the status to the timeline and sets the
//! artifact's generations); a client message added to a task takes the
//! next generation too ([`record_message`]).
//!
//! **Client side.** [`GenerationTracker`] follows the generations of one
//! task's events and says when events were missed (re-fetch with
//! `GetTask`) or when the server does not keep generations at all.
//!
//! ```
//! use a2a_types::draft_1_1::{self, GenerationTracker, Observation};
//! use a2a_types::{apply, Message, StreamResponse, Task, TaskState, TaskStatusUpdateEvent};
//!
//! let mut task = Task::new("t1", "c1", TaskState::Submitted);
//! task.history.push(Message::user_text("m1", "hi"));
//! draft_1_1::start(&mut task);
//! assert_eq!(task.generation, 1);
//!
//! let mut event: StreamResponse =
//!     TaskStatusUpdateEvent::new("t1", "c1", TaskState::Working).into();
//! draft_1_1::stamp(&task, &mut event);
//! apply(&mut task, event.clone())?;
//! assert_eq!(task.generation, 2);
//! assert_eq!(task.timeline.last().map(|e| e.generation), Some(2));
//!
//! let mut tracker = GenerationTracker::new();
//! assert_eq!(tracker.observe(1), Observation::InOrder);
//! assert_eq!(tracker.observe(4), Observation::Gap { missed: 2..4 });
//! assert_eq!(tracker.observe(4), Observation::Unsupported);
//! # Ok::<(), a2a_types::ReconstructError>(())
//! ```

use std::ops::Range;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use crate::error::A2aError;
use crate::events::StreamResponse;
use crate::message::{Artifact, Message};
use crate::operation::{A2aRequest, EventStream, Reply};
use crate::requests::{ListTasksResponse, SendMessageConfiguration, SendMessageResponse};
use crate::rules::history_limit;
use crate::task::{Task, TaskStatus};

pub use crate::task::{TimelineContent, TimelineEntry};

// ---------------------------------------------------------------------------
// The server's rules.

/// Puts a new task at generation 1 (draft spec 3.2.7) with a timeline
/// of its messages so far and its first status, all at generation 1: the
/// creation is one mutation.
pub fn start(task: &mut Task) {
    task.generation = 1;
    task.timeline = task
        .history
        .iter()
        .cloned()
        .map(|m| TimelineEntry::message(m, 1))
        .chain([TimelineEntry::status(task.status.clone(), 1)])
        .collect();
}

/// The generation after `current`: one more (draft spec 3.2.7:
/// "incremented by exactly 1"), saturating rather than wrapping.
pub fn next_generation(current: i64) -> i64 {
    current.saturating_add(1)
}

/// Stamps a status or artifact update about to be applied to `task` with
/// the task's next generation, so that the one event of the mutation
/// carries the generation after it (draft spec 3.2.7). A `task` or
/// `message` item is left as it is.
pub fn stamp(task: &Task, event: &mut StreamResponse) {
    let next = next_generation(task.generation);
    match event {
        StreamResponse::StatusUpdate(update) => update.generation = next,
        StreamResponse::ArtifactUpdate(update) => update.generation = next,
        StreamResponse::Task(_) | StreamResponse::Message(_) => {}
    }
}

/// Records a client message added to `task` (a continuation): the next
/// generation, the message in the history (still populated through 1.x,
/// draft spec 3.2.4) and in the timeline. Answers the new generation.
pub fn record_message(task: &mut Task, message: Message) -> i64 {
    let generation = next_generation(task.generation);
    task.generation = generation;
    task.history.push(message.clone());
    task.timeline
        .push(TimelineEntry::message(message, generation));
    generation
}

/// What [`crate::apply`] needs of an event's generation, taken before the
/// event is consumed: the task takes the generation, a status update is
/// appended to the timeline, an artifact update sets its artifact's start
/// (when the artifact is new or replaced) and end (on its last chunk)
/// generations. An event with generation 0 (a server without
/// generations) marks nothing, and neither does a status update the
/// timeline already holds, so applying an event twice changes nothing.
pub(crate) enum Mark {
    Nothing,
    Status(TaskStatus, i64),
    Artifact {
        artifact_id: String,
        last_chunk: bool,
        generation: i64,
    },
}

impl Mark {
    pub(crate) fn of(event: &StreamResponse) -> Mark {
        match event {
            StreamResponse::StatusUpdate(u) if u.generation > 0 => {
                Mark::Status(u.status.clone(), u.generation)
            }
            StreamResponse::ArtifactUpdate(u) if u.generation > 0 => Mark::Artifact {
                artifact_id: u.artifact.artifact_id.clone(),
                last_chunk: u.last_chunk,
                generation: u.generation,
            },
            _ => Mark::Nothing,
        }
    }

    pub(crate) fn applied(self, task: &mut Task, new_artifact: bool) {
        match self {
            Mark::Nothing => {}
            Mark::Status(status, g) => {
                task.generation = task.generation.max(g);
                if !task.timeline.iter().any(|e| e.generation == g) {
                    task.timeline.push(TimelineEntry::status(status, g));
                }
            }
            Mark::Artifact {
                artifact_id,
                last_chunk,
                generation: g,
            } => {
                task.generation = task.generation.max(g);
                if let Some(artifact) = task
                    .artifacts
                    .iter_mut()
                    .find(|a| a.artifact_id == artifact_id)
                {
                    if new_artifact || artifact.start_generation == 0 {
                        artifact.start_generation = g;
                        artifact.end_generation = 0;
                    }
                    if last_chunk {
                        artifact.end_generation = g;
                    }
                }
            }
        }
    }
}

/// The `ifGenerationMatch` check of a continuation (draft spec 3.2.2):
/// `Err(TaskGenerationMismatchError)` when the request names a
/// generation (`SendMessageConfiguration::if_generation_match`) and
/// `task` is at another. The caller applies it only to an existing task:
/// for a message that creates one the field is ignored.
pub fn check_generation_match(
    if_generation_match: Option<i64>,
    task: &Task,
) -> Result<(), A2aError> {
    match if_generation_match {
        Some(expected) if expected != task.generation => Err(A2aError::task_generation_mismatch(
            expected,
            task.generation,
        )),
        _ => Ok(()),
    }
}

/// What a long-poll `GetTask` does now (draft spec 3.2.7 "Long-Polling").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LongPoll {
    /// Answer with the task's current state.
    AnswerNow,
    /// Hold the request until the task's generation is greater than
    /// `after` (or the host's deadline passes; ask again then).
    Hold {
        /// The `currentGeneration` the caller sent.
        after: i64,
    },
}

/// The long-poll decision for a `GetTask` with `current_generation` on a
/// task at `generation`: at once when the field is unset (MUST) or the
/// task has moved past it (MUST), and when the host's own bound on
/// holding (`deadline_passed`) is reached (MAY); else hold (SHOULD).
///
/// ```
/// use a2a_types::draft_1_1::{long_poll, LongPoll};
/// assert_eq!(long_poll(None, 3, false), LongPoll::AnswerNow);
/// assert_eq!(long_poll(Some(2), 3, false), LongPoll::AnswerNow);
/// assert_eq!(long_poll(Some(3), 3, false), LongPoll::Hold { after: 3 });
/// assert_eq!(long_poll(Some(3), 3, true), LongPoll::AnswerNow);
/// ```
pub fn long_poll(
    current_generation: Option<i64>,
    generation: i64,
    deadline_passed: bool,
) -> LongPoll {
    match current_generation {
        Some(after) if generation <= after && !deadline_passed => LongPoll::Hold { after },
        _ => LongPoll::AnswerNow,
    }
}

/// Keeps the most recent `timeline_length` entries of the timeline
/// (`timelineLength`, draft spec 3.2.8; unset keeps all, 0 none). A
/// negative value is the request's violation, checked with the other
/// rules; here it keeps all.
pub fn trim_timeline(task: &mut Task, timeline_length: Option<i32>) {
    if let Ok(Some(keep)) = history_limit("timelineLength", timeline_length) {
        let len = task.timeline.len();
        if keep < len {
            task.timeline.drain(..len - keep);
        }
    }
}

// ---------------------------------------------------------------------------
// The client's rule.

/// What one observed generation tells a client (draft spec 3.2.7 "Event
/// Ordering and Missed-Event Detection").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Observation {
    /// The first generation seen, or the one after the last.
    InOrder,
    /// Generations were skipped: the view is behind and SHOULD be
    /// reconciled with `GetTask`. `missed` are the skipped generations
    /// (mutations not delivered, such as a client message's entry).
    Gap {
        /// The generations between the last one seen and this one.
        missed: Range<i64>,
    },
    /// Older than the last one seen (an event from before a `GetTask`
    /// reconciliation): already reflected.
    Stale,
    /// The server does not keep generations: an event carried 0, or two
    /// consecutive events carried the same value. Final: the client MUST
    /// NOT use generations for the rest of the interaction.
    Unsupported,
}

/// Follows the generations of one task's events for a client.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenerationTracker {
    last: Option<i64>,
    unsupported: bool,
}

impl GenerationTracker {
    /// A tracker that has seen nothing.
    pub fn new() -> GenerationTracker {
        GenerationTracker::default()
    }

    /// Judges the generation of the next event.
    pub fn observe(&mut self, generation: i64) -> Observation {
        if self.unsupported {
            return Observation::Unsupported;
        }
        let observation = match self.last {
            _ if generation <= 0 => Observation::Unsupported,
            Some(last) if generation == last => Observation::Unsupported,
            Some(last) if generation < last => return Observation::Stale,
            Some(last) if generation > next_generation(last) => Observation::Gap {
                missed: next_generation(last)..generation,
            },
            _ => Observation::InOrder,
        };
        if observation == Observation::Unsupported {
            self.unsupported = true;
        } else {
            self.last = Some(generation);
        }
        observation
    }

    /// Takes a task fetched to reconcile (its generation is the new
    /// baseline); a task at generation 0 means the server keeps none.
    pub fn reconcile(&mut self, task: &Task) {
        if task.generation <= 0 {
            self.unsupported = true;
        } else if !self.unsupported {
            self.last = Some(
                self.last
                    .map_or(task.generation, |l| l.max(task.generation)),
            );
        }
    }

    /// The last generation seen, unless the server keeps none.
    pub fn last(&self) -> Option<i64> {
        self.last.filter(|_| !self.unsupported)
    }

    /// Whether the server was found not to keep generations.
    pub fn is_unsupported(&self) -> bool {
        self.unsupported
    }
}

/// One event of a [`Tracked`] stream with what its generation tells.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackedEvent {
    /// The event.
    pub event: StreamResponse,
    /// The judgement of its generation: `None` for an item that carries
    /// none (a message, or a task snapshot, which sets the baseline).
    pub observation: Option<Observation>,
}

/// A task's event stream that reports gaps (draft spec 3.2.7): each
/// status or artifact update is judged by a [`GenerationTracker`]; a task
/// snapshot (the first item of a subscription) sets the baseline. On
/// [`Observation::Gap`] the caller SHOULD re-fetch with `GetTask` and
/// hand the task to [`Tracked::reconcile`].
#[derive(Debug)]
pub struct Tracked<S> {
    events: S,
    tracker: GenerationTracker,
}

/// Tracks the generations of `events` ([`Tracked`]).
pub fn track<S>(events: S) -> Tracked<S> {
    Tracked {
        events,
        tracker: GenerationTracker::new(),
    }
}

impl<S> Tracked<S> {
    /// Takes a task fetched after a gap as the new baseline.
    pub fn reconcile(&mut self, task: &Task) {
        self.tracker.reconcile(task);
    }

    /// The tracker's state.
    pub fn tracker(&self) -> &GenerationTracker {
        &self.tracker
    }
}

impl<S> Stream for Tracked<S>
where
    S: Stream<Item = Result<StreamResponse, A2aError>> + Unpin,
{
    type Item = Result<TrackedEvent, A2aError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        Pin::new(&mut this.events).poll_next(cx).map(|item| {
            item.map(|event| {
                event.map(|event| {
                    let observation = match &event {
                        StreamResponse::Task(task) => {
                            this.tracker.reconcile(task);
                            None
                        }
                        StreamResponse::StatusUpdate(u) => Some(this.tracker.observe(u.generation)),
                        StreamResponse::ArtifactUpdate(u) => {
                            Some(this.tracker.observe(u.generation))
                        }
                        StreamResponse::Message(_) => None,
                    };
                    TrackedEvent { event, observation }
                })
            })
        })
    }
}

// ---------------------------------------------------------------------------
// A 1.0 caller's view.

/// Clears every 1.1 field, so that a value built by a 1.1 server reads as
/// 1.0 (spec 3.6: a 1.0 caller of the same agent sees pure 1.0).
pub trait DraftFields {
    /// Clears the 1.1 fields of `self` and of everything it holds.
    fn clear_draft_fields(&mut self);
}

impl DraftFields for Artifact {
    fn clear_draft_fields(&mut self) {
        self.start_generation = 0;
        self.end_generation = 0;
    }
}

impl DraftFields for Task {
    fn clear_draft_fields(&mut self) {
        self.generation = 0;
        self.timeline = Vec::new();
        self.artifacts
            .iter_mut()
            .for_each(DraftFields::clear_draft_fields);
    }
}

impl DraftFields for StreamResponse {
    fn clear_draft_fields(&mut self) {
        match self {
            StreamResponse::Task(task) => task.clear_draft_fields(),
            StreamResponse::Message(_) => {}
            StreamResponse::StatusUpdate(update) => update.generation = 0,
            StreamResponse::ArtifactUpdate(update) => {
                update.generation = 0;
                update.artifact.clear_draft_fields();
            }
        }
    }
}

impl DraftFields for SendMessageConfiguration {
    fn clear_draft_fields(&mut self) {
        self.if_generation_match = None;
        self.timeline_length = None;
    }
}

impl DraftFields for A2aRequest {
    fn clear_draft_fields(&mut self) {
        match self {
            A2aRequest::SendMessage(r) | A2aRequest::SendStreamingMessage(r) => {
                if let Some(c) = &mut r.configuration {
                    c.clear_draft_fields();
                }
            }
            A2aRequest::GetTask(r) => {
                r.current_generation = None;
                r.timeline_length = None;
            }
            A2aRequest::ListTasks(r) => r.timeline_length = None,
            _ => {}
        }
    }
}

impl DraftFields for Reply {
    /// Clears a unary reply; a stream's events are cleared one by one as
    /// they pass.
    fn clear_draft_fields(&mut self) {
        match self {
            Reply::SendStreamingMessage(events) | Reply::SubscribeToTask(events) => {
                let inner = std::mem::replace(events, Box::pin(Cleared(None)));
                *events = Box::pin(Cleared(Some(inner)));
            }
            Reply::SendMessage(SendMessageResponse::Task(task))
            | Reply::GetTask(task)
            | Reply::CancelTask(task) => task.clear_draft_fields(),
            Reply::ListTasks(ListTasksResponse { tasks, .. }) => {
                tasks.iter_mut().for_each(DraftFields::clear_draft_fields)
            }
            _ => {}
        }
    }
}

/// A stream whose events pass with their 1.1 fields cleared (`None`: ended).
struct Cleared(Option<EventStream>);

impl Stream for Cleared {
    type Item = Result<StreamResponse, A2aError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let Some(inner) = self.0.as_mut() else {
            return Poll::Ready(None);
        };
        inner.as_mut().poll_next(cx).map(|item| {
            item.map(|event| {
                event.map(|mut event| {
                    event.clear_draft_fields();
                    event
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        apply, from_str, ErrorKind, GetTaskRequest, TaskArtifactUpdateEvent, TaskState,
        TaskStatusUpdateEvent,
    };

    #[test]
    fn a_timeline_entry_reads_each_kind_and_keeps_an_unknown_one() {
        let e: TimelineEntry = from_str(
            r#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a"}]},"generation":"3"}"#,
        )
        .unwrap();
        assert!(matches!(e.entry, Some(TimelineContent::Message(_))));
        assert_eq!(e.generation, 3);
        let e: TimelineEntry =
            from_str(r#"{"status":{"state":"TASK_STATE_WORKING"},"generation":4}"#).unwrap();
        assert!(matches!(e.entry, Some(TimelineContent::Status(_))));
        assert_eq!(e.generation, 4);
        // A kind a later version adds: skipped, its generation kept.
        let e: TimelineEntry = from_str(r#"{"artifactRef":{"id":"x"},"generation":"9"}"#).unwrap();
        assert_eq!(
            e,
            TimelineEntry {
                entry: None,
                generation: 9
            }
        );
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"generation":"9"}"#);
        let two = from_str::<TimelineEntry>(
            r#"{"status":{"state":"TASK_STATE_WORKING"},"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a"}]}}"#,
        )
        .unwrap_err();
        assert!(two.to_string().contains("at most one"), "{two}");
        assert!(from_str::<TimelineEntry>(r#"{"generation":"x"}"#).is_err());
    }

    #[test]
    fn generations_are_int64_strings_on_the_wire() {
        let mut task = Task::new("t", "c", TaskState::Working);
        task.generation = i64::MAX;
        let json = serde_json::to_value(&task).unwrap();
        assert_eq!(json["generation"], i64::MAX.to_string());
        let back: Task = from_str(&json.to_string()).unwrap();
        assert_eq!(back.generation, i64::MAX);
        let r: GetTaskRequest = from_str(r#"{"id":"t","currentGeneration":5}"#).unwrap();
        assert_eq!(r.current_generation, Some(5));
        assert!(from_str::<GetTaskRequest>(r#"{"id":"t","currentGeneration":1.5}"#).is_err());
        assert!(from_str::<GetTaskRequest>(
            r#"{"id":"t","currentGeneration":"9223372036854775808"}"#
        )
        .is_err());
    }

    fn started() -> Task {
        let mut task = Task::new("t", "c", TaskState::Submitted);
        task.history.push(Message::user_text("m1", "hi"));
        start(&mut task);
        task
    }

    fn stamped(task: &Task, event: impl Into<StreamResponse>) -> StreamResponse {
        let mut event = event.into();
        stamp(task, &mut event);
        event
    }

    #[test]
    fn each_mutation_is_one_generation_and_one_event() {
        let mut task = started();
        assert_eq!(task.generation, 1);
        assert_eq!(task.timeline.len(), 2, "the message and the first status");
        let working = stamped(
            &task,
            TaskStatusUpdateEvent::new("t", "c", TaskState::Working),
        );
        apply(&mut task, working.clone()).unwrap();
        assert_eq!(task.generation, 2);
        let chunk = TaskArtifactUpdateEvent::new("t", "c", Artifact::text("a1", "x"));
        let first = stamped(&task, chunk.clone());
        apply(&mut task, first).unwrap();
        assert_eq!(task.generation, 3);
        assert_eq!(
            (
                task.artifacts[0].start_generation,
                task.artifacts[0].end_generation
            ),
            (3, 0)
        );
        let last = stamped(&task, chunk.with_append(true).with_last_chunk(true));
        apply(&mut task, last).unwrap();
        assert_eq!(
            (
                task.artifacts[0].start_generation,
                task.artifacts[0].end_generation
            ),
            (3, 4)
        );
        assert_eq!(
            record_message(&mut task, Message::user_text("m2", "more")),
            5
        );
        let gens: Vec<i64> = task.timeline.iter().map(|e| e.generation).collect();
        assert_eq!(
            gens,
            [1, 1, 2, 5],
            "artifacts advance the generation, not the timeline"
        );
        // Applying an event twice changes nothing.
        let before = task.clone();
        apply(&mut task, working).unwrap();
        assert_eq!(task.timeline, before.timeline);
        assert_eq!(task.generation, before.generation);
    }

    #[test]
    fn an_event_without_generation_leaves_the_1_0_rules_alone() {
        let mut task = Task::new("t", "c", TaskState::Submitted);
        apply(
            &mut task,
            TaskStatusUpdateEvent::new("t", "c", TaskState::Working).into(),
        )
        .unwrap();
        assert_eq!((task.generation, task.timeline.len()), (0, 0));
    }

    #[test]
    fn if_generation_match_compares_with_the_task() {
        let task = started();
        assert!(check_generation_match(None, &task).is_ok());
        assert!(check_generation_match(Some(1), &task).is_ok());
        let err = check_generation_match(Some(0), &task).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TaskGenerationMismatch);
        assert_eq!(
            err.message(),
            "Task generation mismatch: expected 0 but current generation is 1"
        );
    }

    #[test]
    fn the_tracker_reports_gaps_and_stays_unsupported() {
        let mut t = GenerationTracker::new();
        assert_eq!(t.observe(3), Observation::InOrder);
        assert_eq!(t.observe(4), Observation::InOrder);
        assert_eq!(t.observe(7), Observation::Gap { missed: 5..7 });
        assert_eq!(t.observe(6), Observation::Stale);
        assert_eq!(t.last(), Some(7));
        let mut task = started();
        task.generation = 9;
        t.reconcile(&task);
        assert_eq!(t.observe(10), Observation::InOrder);
        assert_eq!(t.observe(10), Observation::Unsupported);
        assert_eq!(
            t.observe(11),
            Observation::Unsupported,
            "final for the interaction"
        );
        assert_eq!(t.last(), None);
        let mut zero = GenerationTracker::new();
        assert_eq!(zero.observe(0), Observation::Unsupported);
        assert!(zero.is_unsupported());
    }

    #[test]
    fn a_1_0_caller_sees_none_of_it() {
        let mut task = started();
        let event = stamped(
            &task,
            TaskArtifactUpdateEvent::new("t", "c", Artifact::text("a", "x")),
        );
        apply(&mut task, event.clone()).unwrap();
        let mut pure = task.clone();
        pure.clear_draft_fields();
        let json = serde_json::to_string(&pure).unwrap();
        assert!(
            !json.contains("eneration") && !json.contains("timeline"),
            "{json}"
        );
        let mut event = event;
        event.clear_draft_fields();
        assert!(!serde_json::to_string(&event).unwrap().contains("eneration"));
        let mut request = A2aRequest::GetTask(GetTaskRequest {
            id: "t".into(),
            current_generation: Some(3),
            timeline_length: Some(1),
            ..GetTaskRequest::default()
        });
        request.clear_draft_fields();
        assert_eq!(request, A2aRequest::GetTask(GetTaskRequest::new("t")));
    }

    #[test]
    fn a_tracked_stream_reports_the_gap() {
        let task = started();
        let mut working = TaskStatusUpdateEvent::new("t", "c", TaskState::Working);
        working.generation = 3;
        let items: Vec<Result<StreamResponse, A2aError>> =
            vec![Ok(task.into()), Ok(working.into())];
        let mut tracked = track(Box::pin(Iter(items.into_iter())));
        let mut cx = Context::from_waker(std::task::Waker::noop());
        let Poll::Ready(Some(Ok(first))) = Pin::new(&mut tracked).poll_next(&mut cx) else {
            panic!("a task first")
        };
        assert_eq!(first.observation, None);
        let Poll::Ready(Some(Ok(second))) = Pin::new(&mut tracked).poll_next(&mut cx) else {
            panic!("an update second")
        };
        assert_eq!(second.observation, Some(Observation::Gap { missed: 2..3 }));
    }

    struct Iter<I>(I);

    impl<I: Iterator<Item = Result<StreamResponse, A2aError>> + Unpin> Stream for Iter<I> {
        type Item = Result<StreamResponse, A2aError>;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            Poll::Ready(self.0.next())
        }
    }

    #[test]
    fn timeline_length_keeps_the_latest_entries() {
        let mut task = started();
        record_message(&mut task, Message::user_text("m2", "b"));
        trim_timeline(&mut task, None);
        assert_eq!(task.timeline.len(), 3);
        trim_timeline(&mut task, Some(1));
        assert_eq!(
            task.timeline
                .iter()
                .map(|e| e.generation)
                .collect::<Vec<_>>(),
            [2]
        );
        trim_timeline(&mut task, Some(0));
        assert!(task.timeline.is_empty());
    }
}
