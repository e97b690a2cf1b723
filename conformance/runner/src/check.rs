//! What a scenario's checks conclude: the strength of the requirement
//! ([`Level`]) and how a body stops before passing ([`Stop`], [`Check`]).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The strength of the requirement a scenario checks (RFC 2119, spec 2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    /// An absolute requirement: a failure makes the runner exit non-zero.
    Must,
    /// A recommendation: a failure is reported, the exit status is kept.
    Should,
    /// An option: a failure is reported, the exit status is kept.
    May,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
            Level::May => "MAY",
        })
    }
}

/// Why a scenario body stopped before passing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The agent did not do what the requirement says.
    Fail {
        /// What the requirement asks for.
        expected: String,
        /// What came back.
        got: String,
    },
    /// The scenario does not apply: the card does not declare a
    /// capability, or the agent does not offer a behaviour the scenario
    /// needs. The text says which.
    Skip(String),
}

/// What a scenario body returns: `Ok` when it passed.
pub type Check<T = ()> = Result<T, Stop>;

/// A failure: `expected`, but `got`.
pub fn fail(expected: impl fmt::Display, got: impl fmt::Display) -> Stop {
    Stop::Fail {
        expected: expected.to_string(),
        got: got.to_string(),
    }
}

/// A skip, saying why.
pub fn skip(why: impl fmt::Display) -> Stop {
    Stop::Skip(why.to_string())
}

/// Fails with `expected` / `got` unless `condition` holds.
pub fn ensure(condition: bool, expected: impl fmt::Display, got: impl fmt::Display) -> Check {
    if condition {
        Ok(())
    } else {
        Err(fail(expected, got))
    }
}
