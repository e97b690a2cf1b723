//! The behaviour contract: what a message asks the agent to do, decided
//! by its `messageId` prefix (`tck-*`) or else by its first text part.
//! Pure functions; [`crate::worker`] carries the behaviours out.

use std::borrow::Cow;
use std::time::Duration;

use a2a_types::{Message, PartContent};

use crate::config::Limits;

/// The default pause of `slow`.
pub(crate) const DEFAULT_SLOW: Duration = Duration::from_millis(2000);
/// The default chunk count of a bare `stream`.
pub(crate) const DEFAULT_STREAM_CHUNKS: u32 = 3;
/// How long `test-resubscribe-message-id` works.
pub(crate) const RESUBSCRIBE_WORK: Duration = Duration::from_secs(4);

/// What one message asks for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Behaviour {
    /// A direct `Message` reply holding this text; no task.
    Reply(String),
    /// A task; see [`Work`].
    Task(Work),
}

/// The work of a task, from its creation (or resumption) to the state it
/// stops in.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Work {
    /// WORKING, one text artifact holding the text, COMPLETED.
    Echo(String),
    /// WORKING, `chunks` chunks of one artifact with `delay` between them,
    /// COMPLETED.
    Stream { chunks: u32, delay: Duration },
    /// INPUT_REQUIRED with the status message "need input".
    Input,
    /// AUTH_REQUIRED with a status message saying what is needed.
    Auth,
    /// WORKING for this long (cancelable at every step), then COMPLETED.
    Slow(Duration),
    /// FAILED.
    Fail,
    /// REJECTED.
    Reject,
    /// The answer to an interrupted task: WORKING, an artifact
    /// `got: <text>`, COMPLETED.
    Resume(String),
    /// A `tck-*` scenario.
    Tck(Tck),
}

/// The scenarios external test kits select by `messageId` prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tck {
    /// `tck-complete-task`: COMPLETED with the agent message "Hello from TCK".
    CompleteTask,
    /// `tck-artifact-text`: a text artifact, COMPLETED.
    ArtifactText,
    /// `tck-artifact-file-url`: a URL part artifact, COMPLETED.
    ArtifactFileUrl,
    /// `tck-artifact-file`: a raw part artifact, COMPLETED.
    ArtifactFile,
    /// `tck-artifact-data`: a data part artifact, COMPLETED.
    ArtifactData,
    /// `tck-input-required`: INPUT_REQUIRED.
    InputRequired,
    /// `tck-auth-required`: AUTH_REQUIRED.
    AuthRequired,
    /// `tck-reject-task`: REJECTED.
    RejectTask,
    /// `tck-task-failure`: FAILED.
    TaskFailure,
    /// `tck-stream-002`: COMPLETED at once.
    Stream002,
    /// WORKING, one artifact with this text, COMPLETED (`tck-stream-001`,
    /// `-003`, `-ordering-001`, `-artifact-text`).
    StreamText(&'static str),
    /// `tck-stream-artifact-file`: WORKING, a file artifact, COMPLETED.
    StreamArtifactFile,
    /// `tck-stream-artifact-chunked`: WORKING, "chunk-1 " then the last
    /// chunk "chunk-2", COMPLETED.
    StreamChunked,
    /// `test-resubscribe-message-id`: WORKING for 4 s, COMPLETED.
    Resubscribe,
}

/// The `messageId` prefixes, longest first wherever one prefix starts
/// another (`tck-artifact-file-url` before `tck-artifact-file`).
const PREFIXES: &[(&str, Behaviour)] = &[
    ("tck-stream-artifact-chunked", tck(Tck::StreamChunked)),
    (
        "tck-stream-artifact-text",
        tck(Tck::StreamText("Streamed text content")),
    ),
    ("tck-stream-artifact-file", tck(Tck::StreamArtifactFile)),
    (
        "tck-stream-ordering-001",
        tck(Tck::StreamText("Ordered output")),
    ),
    (
        "tck-stream-001",
        tck(Tck::StreamText("Stream hello from TCK")),
    ),
    ("tck-stream-002", tck(Tck::Stream002)),
    (
        "tck-stream-003",
        tck(Tck::StreamText("Stream task lifecycle")),
    ),
    ("tck-artifact-file-url", tck(Tck::ArtifactFileUrl)),
    ("tck-artifact-file", tck(Tck::ArtifactFile)),
    ("tck-artifact-text", tck(Tck::ArtifactText)),
    ("tck-artifact-data", tck(Tck::ArtifactData)),
    ("tck-complete-task", tck(Tck::CompleteTask)),
    ("tck-input-required", tck(Tck::InputRequired)),
    ("tck-auth-required", tck(Tck::AuthRequired)),
    ("tck-reject-task", tck(Tck::RejectTask)),
    ("tck-task-failure", tck(Tck::TaskFailure)),
    ("test-resubscribe-message-id", tck(Tck::Resubscribe)),
];

const fn tck(t: Tck) -> Behaviour {
    Behaviour::Task(Work::Tck(t))
}

/// The reply text of `tck-message-response`.
pub(crate) const TCK_DIRECT_MESSAGE: &str = "Direct message response";

/// The `tck-*` behaviour a `messageId` selects, if any.
fn by_prefix(message_id: &str) -> Option<Behaviour> {
    if message_id.starts_with("tck-message-response") {
        return Some(Behaviour::Reply(TCK_DIRECT_MESSAGE.to_owned()));
    }
    PREFIXES
        .iter()
        .find(|(prefix, _)| message_id.starts_with(prefix))
        .map(|(_, b)| b.clone())
}

/// The text of the first text part, else the first data part as JSON
/// text, else `""`.
pub(crate) fn first_text(message: &Message) -> Cow<'_, str> {
    let text = message.parts.iter().find_map(|p| match &p.content {
        PartContent::Text(t) => Some(t.as_str()),
        _ => None,
    });
    if let Some(text) = text {
        return Cow::Borrowed(text);
    }
    // No text part: the first data part, as compact JSON (the card
    // declares application/json input).
    message
        .parts
        .iter()
        .find_map(|p| match &p.content {
            PartContent::Data(v) => serde_json::to_string(v).ok(),
            _ => None,
        })
        .map_or(Cow::Borrowed(""), Cow::Owned)
}

/// Why a message's command cannot be carried out: the description of an
/// `InvalidParams` violation of `message.parts[i].text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CommandError(pub(crate) String);

/// What a message that starts a new task asks for.
pub(crate) fn for_new_message(
    message: &Message,
    limits: &Limits,
) -> Result<Behaviour, CommandError> {
    if let Some(b) = by_prefix(&message.message_id) {
        return Ok(b);
    }
    let text = first_text(message);
    let text = text.trim();
    let (command, rest) = match text.split_once(char::is_whitespace) {
        Some((c, r)) => (c, r.trim()),
        None => (text, ""),
    };
    let work = match command {
        "echo" if !rest.is_empty() => Work::Echo(rest.to_owned()),
        "stream" => {
            let mut args = rest.split_whitespace();
            let chunks = match args.next() {
                None => DEFAULT_STREAM_CHUNKS,
                Some(n) => match n.parse::<u32>() {
                    Ok(n) if (1..=limits.max_stream_chunks).contains(&n) => n,
                    _ => {
                        return Err(CommandError(format!(
                            "`stream <n>` needs n between 1 and {}, got {n:?}",
                            limits.max_stream_chunks
                        )))
                    }
                },
            };
            let delay = match args.next() {
                None => Duration::ZERO,
                Some(ms) => delay(ms, limits)?,
            };
            Work::Stream { chunks, delay }
        }
        "input" => Work::Input,
        "auth" => Work::Auth,
        "slow" => Work::Slow(match rest {
            "" => DEFAULT_SLOW,
            ms => delay(ms, limits)?,
        }),
        "fail" => Work::Fail,
        "reject" => Work::Reject,
        "message" => return Ok(Behaviour::Reply(rest.to_owned())),
        _ => Work::Echo(text.to_owned()),
    };
    Ok(Behaviour::Task(work))
}

/// What a message to an interrupted task asks for: a task-producing
/// `tck-*` scenario when its `messageId` names one, otherwise to resume
/// with `got: <text>`.
pub(crate) fn for_follow_up(message: &Message) -> Work {
    match by_prefix(&message.message_id) {
        Some(Behaviour::Task(work)) => work,
        _ => Work::Resume(first_text(message).into_owned()),
    }
}

fn delay(ms: &str, limits: &Limits) -> Result<Duration, CommandError> {
    let max = limits.max_delay.as_millis();
    match ms.parse::<u64>() {
        Ok(v) if u128::from(v) <= max => Ok(Duration::from_millis(v)),
        _ => Err(CommandError(format!(
            "a delay must be a whole number of milliseconds up to {max}, got {ms:?}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(id: &str, text: &str) -> Result<Behaviour, CommandError> {
        for_new_message(&Message::user_text(id, text), &Limits::default())
    }

    fn work(text: &str) -> Work {
        match parse("m", text) {
            Ok(Behaviour::Task(w)) => w,
            other => panic!("{text:?}: {other:?}"),
        }
    }

    #[test]
    fn text_commands() {
        assert_eq!(work("echo hi there"), Work::Echo("hi there".into()));
        assert_eq!(work("  echo   x "), Work::Echo("x".into()));
        assert_eq!(work("echo"), Work::Echo("echo".into()));
        assert_eq!(
            work("stream 5"),
            Work::Stream {
                chunks: 5,
                delay: Duration::ZERO
            }
        );
        assert_eq!(
            work("stream 2 30"),
            Work::Stream {
                chunks: 2,
                delay: Duration::from_millis(30)
            }
        );
        assert_eq!(
            work("stream"),
            Work::Stream {
                chunks: 3,
                delay: Duration::ZERO
            }
        );
        assert_eq!(work("input"), Work::Input);
        assert_eq!(work("auth"), Work::Auth);
        assert_eq!(work("slow"), Work::Slow(DEFAULT_SLOW));
        assert_eq!(work("slow 150"), Work::Slow(Duration::from_millis(150)));
        assert_eq!(work("fail"), Work::Fail);
        assert_eq!(work("reject"), Work::Reject);
        assert_eq!(work("hello world"), Work::Echo("hello world".into()));
        assert_eq!(work("Echo x"), Work::Echo("Echo x".into()));
        assert_eq!(
            parse("m", "message hi you"),
            Ok(Behaviour::Reply("hi you".into()))
        );
    }

    #[test]
    fn bad_arguments_are_errors() {
        for text in [
            "stream 0",
            "stream 10001",
            "stream x",
            "slow forever",
            "slow 600001",
            "stream 2 -1",
        ] {
            assert!(parse("m", text).is_err(), "{text}");
        }
    }

    #[test]
    fn prefix_wins_over_text_and_longest_prefix_wins() {
        assert_eq!(
            parse("tck-artifact-file-url-1", "fail"),
            Ok(tck(Tck::ArtifactFileUrl))
        );
        assert_eq!(
            parse("tck-artifact-file-9", "echo"),
            Ok(tck(Tck::ArtifactFile))
        );
        assert_eq!(
            parse("tck-message-response-1", "input"),
            Ok(Behaviour::Reply(TCK_DIRECT_MESSAGE.into()))
        );
        assert_eq!(
            parse("tck-stream-artifact-chunked", "x"),
            Ok(tck(Tck::StreamChunked))
        );
        assert_eq!(
            parse("test-resubscribe-message-id-7", "x"),
            Ok(tck(Tck::Resubscribe))
        );
        // Every listed prefix selects its own entry, not an earlier one.
        for (prefix, b) in PREFIXES {
            assert_eq!(by_prefix(prefix).as_ref(), Some(b), "{prefix}");
        }
    }

    #[test]
    fn follow_ups_resume_unless_a_prefix_names_a_scenario() {
        let m = Message::user_text("m2", "blue");
        assert_eq!(for_follow_up(&m), Work::Resume("blue".into()));
        let m = Message::user_text("tck-complete-task-2", "blue");
        assert_eq!(for_follow_up(&m), Work::Tck(Tck::CompleteTask));
        let m = Message::user_text("tck-message-response-2", "blue");
        assert_eq!(for_follow_up(&m), Work::Resume("blue".into()));
    }
}
