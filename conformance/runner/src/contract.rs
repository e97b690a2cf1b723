//! Named contracts: how the runner asks an agent to reach a state the spec
//! leaves to the agent (input-required, a long-running task, failure, a
//! streamed artifact…), as data, in one place ([`Contract::ask`]).
//!
//! - `reference`: the reference agent's message text (`echo <x>`,
//!   `input`, `slow`, … in `a2a-reference-agent`'s `behaviour.rs`).
//! - `tck`: the official A2A TCK's `messageId` prefixes, as its system
//!   under test reads them (`a2aproject/a2a-tck`, `sut/a2a-python/sut_agent.py`):
//!   `tck-artifact-text`, `tck-input-required`, `tck-message-response`,
//!   `tck-reject-task`, `tck-stream-artifact-chunked` and
//!   `test-resubscribe-message-id` (working for 4 s).
//! - `none`: nothing is asked; only cooperation-free scenarios run.
//!
//! Each behaviour is probed on its own ([`Behaviour::expect`]): an agent
//! that completes a task has shown nothing about input-required.

use std::fmt;

use a2a_types::{SendMessageResponse, StreamResponse, TaskState};

use crate::describe::state_name;

/// The contract a target follows (`--contract`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Contract {
    /// The reference agent's message-text contract.
    Reference,
    /// The official A2A TCK's `messageId`-prefix contract.
    Tck,
    /// No contract: scenarios that need one skip, saying so.
    #[default]
    None,
}

/// A behaviour a scenario needs the agent to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Behaviour {
    /// A task that completes with an artifact.
    Complete,
    /// A direct `Message` answer, no task.
    DirectMessage,
    /// A task that stops in INPUT_REQUIRED (and resumes on a follow-up).
    InputRequired,
    /// A task that stops in AUTH_REQUIRED.
    AuthRequired,
    /// A task that works long enough to be canceled or subscribed to.
    LongRunning,
    /// A task that fails or is rejected, or a refused request.
    Failure,
    /// A streamed task whose artifact arrives in update events.
    Streamed,
}

/// How a contract asks for a behaviour: the `messageId` prefix and the
/// text of the user message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask {
    /// Prefix of the message id (the runner appends a nonce).
    pub message_id_prefix: &'static str,
    /// The message's one text part.
    pub text: &'static str,
}

const fn ask(message_id_prefix: &'static str, text: &'static str) -> Ask {
    Ask {
        message_id_prefix,
        text,
    }
}

/// The contracts' table: behaviour, then how `reference` and `tck` ask
/// for it (`None`: the contract has no way to).
const TABLE: [(Behaviour, Option<Ask>, Option<Ask>); 7] = [
    (
        Behaviour::Complete,
        Some(ask("m-", "echo probe")),
        Some(ask("tck-artifact-text-", "artifact")),
    ),
    (
        Behaviour::DirectMessage,
        Some(ask("m-", "message probe")),
        Some(ask("tck-message-response-", "message")),
    ),
    (
        Behaviour::InputRequired,
        Some(ask("m-", "input")),
        Some(ask("tck-input-required-", "input")),
    ),
    (Behaviour::AuthRequired, Some(ask("m-", "auth")), None),
    (
        Behaviour::LongRunning,
        Some(ask("m-", "slow")),
        Some(ask("test-resubscribe-message-id-", "work")),
    ),
    (
        Behaviour::Failure,
        Some(ask("m-", "fail")),
        Some(ask("tck-reject-task-", "reject")),
    ),
    (
        Behaviour::Streamed,
        Some(ask("m-", "stream 2 10")),
        Some(ask("tck-stream-artifact-chunked-", "stream")),
    ),
];

impl Contract {
    /// Reads a `--contract` value.
    pub fn parse(name: &str) -> Option<Contract> {
        match name {
            "reference" => Some(Contract::Reference),
            "tck" => Some(Contract::Tck),
            "none" => Some(Contract::None),
            _ => None,
        }
    }

    /// The name `--contract` takes.
    pub fn name(self) -> &'static str {
        match self {
            Contract::Reference => "reference",
            Contract::Tck => "tck",
            Contract::None => "none",
        }
    }

    /// How this contract asks for `behaviour`, if it can.
    pub fn ask(self, behaviour: Behaviour) -> Option<Ask> {
        let (_, reference, tck) = TABLE.iter().find(|(b, _, _)| *b == behaviour)?;
        match self {
            Contract::Reference => *reference,
            Contract::Tck => *tck,
            Contract::None => None,
        }
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Behaviour {
    /// Every behaviour, in the table's order.
    pub const ALL: [Behaviour; 7] = [
        Behaviour::Complete,
        Behaviour::DirectMessage,
        Behaviour::InputRequired,
        Behaviour::AuthRequired,
        Behaviour::LongRunning,
        Behaviour::Failure,
        Behaviour::Streamed,
    ];

    /// The behaviour's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Behaviour::Complete => "complete",
            Behaviour::DirectMessage => "direct-message",
            Behaviour::InputRequired => "input-required",
            Behaviour::AuthRequired => "auth-required",
            Behaviour::LongRunning => "long-running",
            Behaviour::Failure => "failure",
            Behaviour::Streamed => "streamed-artifact",
        }
    }

    /// Whether its probe is a `SendStreamingMessage` (else `SendMessage`).
    pub fn streams(self) -> bool {
        self == Behaviour::Streamed
    }

    /// Whether its probe asks `returnImmediately` (the task must still be
    /// at work when the answer comes).
    pub fn immediately(self) -> bool {
        self == Behaviour::LongRunning
    }

    /// Checks the answer to a `SendMessage` probe: `Ok` when it shows the
    /// behaviour, else what came back.
    pub fn expect(self, answer: &SendMessageResponse) -> Result<(), String> {
        let task = match answer {
            SendMessageResponse::Message(_) if self == Behaviour::DirectMessage => return Ok(()),
            SendMessageResponse::Message(m) => {
                return Err(format!(
                    "a Message {:?}",
                    crate::abbreviate(&m.text_content().unwrap_or_default())
                ))
            }
            SendMessageResponse::Task(t) => t,
        };
        let state = task.status.state;
        let ok = match self {
            Behaviour::Complete => state == TaskState::Completed && !task.artifacts.is_empty(),
            Behaviour::DirectMessage | Behaviour::Streamed => false,
            Behaviour::InputRequired => state == TaskState::InputRequired,
            Behaviour::AuthRequired => state == TaskState::AuthRequired,
            Behaviour::LongRunning => matches!(state, TaskState::Submitted | TaskState::Working),
            Behaviour::Failure => matches!(state, TaskState::Failed | TaskState::Rejected),
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "a task in {} with {} artifact(s)",
                state_name(state),
                task.artifacts.len()
            ))
        }
    }

    /// Checks the events of a streaming probe: an artifact update, and a
    /// completed task at the end.
    pub fn expect_stream(self, events: &[StreamResponse]) -> Result<(), String> {
        let artifact = events
            .iter()
            .any(|e| matches!(e, StreamResponse::ArtifactUpdate(_)));
        let completed = events.iter().rev().find_map(|e| match e {
            StreamResponse::Task(t) => Some(t.status.state),
            StreamResponse::StatusUpdate(s) => Some(s.status.state),
            _ => None,
        }) == Some(TaskState::Completed);
        if artifact && completed {
            Ok(())
        } else {
            Err(format!(
                "the events {}",
                crate::describe::describe_events(events)
            ))
        }
    }
}

impl fmt::Display for Behaviour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_behaviour_has_one_row_and_none_asks_nothing() {
        for b in Behaviour::ALL {
            assert_eq!(TABLE.iter().filter(|(r, _, _)| *r == b).count(), 1, "{b}");
            assert!(Contract::Reference.ask(b).is_some(), "{b}");
            assert_eq!(Contract::None.ask(b), None);
        }
        assert_eq!(Contract::Tck.ask(Behaviour::AuthRequired), None);
        assert_eq!(
            Contract::Tck
                .ask(Behaviour::InputRequired)
                .map(|a| a.message_id_prefix),
            Some("tck-input-required-")
        );
        for name in ["reference", "tck", "none"] {
            assert_eq!(Contract::parse(name).map(Contract::name), Some(name));
        }
        assert_eq!(Contract::parse("echo"), None);
    }

    #[test]
    fn a_probe_answer_shows_only_its_own_behaviour() {
        let completed = {
            let mut t = a2a_types::Task::new("t", "c", TaskState::Completed);
            t.artifacts = vec![a2a_types::Artifact::new(
                "a",
                vec![a2a_types::Part::text("x")],
            )];
            SendMessageResponse::Task(t)
        };
        assert_eq!(Behaviour::Complete.expect(&completed), Ok(()));
        for other in [
            Behaviour::InputRequired,
            Behaviour::LongRunning,
            Behaviour::Failure,
            Behaviour::DirectMessage,
        ] {
            assert!(other.expect(&completed).is_err(), "{other}");
        }
        let message = SendMessageResponse::Message(a2a_types::Message::user_text("m", "hi"));
        assert_eq!(Behaviour::DirectMessage.expect(&message), Ok(()));
        assert!(Behaviour::Complete.expect(&message).is_err());
    }
}
