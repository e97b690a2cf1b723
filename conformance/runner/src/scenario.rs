//! What a scenario is: an id, the spec section and requirement level it
//! checks, the bindings it runs on, and a body that passes, fails (with
//! what was expected and what came back) or is skipped (with why).

use std::fmt;

use a2a_transport::BoxFuture;
use serde::{Deserialize, Serialize};

use crate::context::Ctx;

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

/// The way a scenario reaches the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Binding {
    /// Calls on the `A2aService` trait of an embedded agent, in process.
    #[serde(rename = "in-process")]
    InProcess,
    /// The JSON-RPC binding (spec 9).
    #[serde(rename = "JSONRPC")]
    JsonRpc,
    /// The HTTP+JSON binding (spec 11).
    #[serde(rename = "HTTP+JSON")]
    HttpJson,
    /// A custom binding: line-delimited JSON-RPC on a byte stream
    /// (`a2a_examples::lines`), the server side through the same public
    /// pipeline as HTTP (spec 12).
    #[serde(rename = "json-lines")]
    Lines,
    /// Plain HTTP that belongs to no binding: the agent card endpoint
    /// (spec 8.2), and the runner's own checks of the target.
    #[serde(rename = "HTTP")]
    Http,
}

impl Binding {
    /// The name used in reports and on the command line's output.
    pub const fn as_str(self) -> &'static str {
        match self {
            Binding::InProcess => "in-process",
            Binding::JsonRpc => "JSONRPC",
            Binding::HttpJson => "HTTP+JSON",
            Binding::Lines => "json-lines",
            Binding::Http => "HTTP",
        }
    }

    /// The transport crate's binding for the two HTTP bindings.
    pub fn transport(self) -> Option<a2a_transport::Binding> {
        match self {
            Binding::JsonRpc => Some(a2a_transport::Binding::JsonRpc),
            Binding::HttpJson => Some(a2a_transport::Binding::HttpJson),
            Binding::InProcess | Binding::Lines | Binding::Http => None,
        }
    }
}

impl fmt::Display for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a scenario runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Over the `A2aService` trait: in process (for an embedded agent),
    /// then over JSON-RPC and HTTP+JSON through the client transport, and
    /// over the line transport (for an embedded agent). The
    /// runs must give equivalent results (spec 5.1): each run's
    /// observations ([`Ctx::note`]) are compared.
    Behaviour,
    /// Raw HTTP on these bindings (a subset of JSON-RPC and HTTP+JSON).
    Wire(&'static [Binding]),
    /// Raw HTTP independent of any binding (the agent card), run once.
    Card,
}

/// Both HTTP bindings, for [`Kind::Wire`].
pub const BOTH: &[Binding] = &[Binding::JsonRpc, Binding::HttpJson];
/// JSON-RPC only, for [`Kind::Wire`].
pub const JSONRPC: &[Binding] = &[Binding::JsonRpc];
/// HTTP+JSON only, for [`Kind::Wire`].
pub const REST: &[Binding] = &[Binding::HttpJson];

impl Kind {
    /// The bindings this kind runs on, among those of a target.
    pub fn bindings(self, available: &[Binding]) -> Vec<Binding> {
        match self {
            Kind::Behaviour => [
                Binding::InProcess,
                Binding::JsonRpc,
                Binding::HttpJson,
                Binding::Lines,
            ]
            .into_iter()
            .filter(|b| available.contains(b))
            .collect(),
            Kind::Wire(on) => on
                .iter()
                .copied()
                .filter(|b| available.contains(b))
                .collect(),
            Kind::Card => vec![Binding::Http],
        }
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

/// The body of a scenario.
pub type RunFn = for<'a> fn(&'a Ctx<'a>) -> BoxFuture<'a, Check>;

/// One conformance scenario.
#[derive(Clone, Copy)]
pub struct Scenario {
    /// A stable id, `area.what` (e.g. `list.next-page-token`).
    pub id: &'static str,
    /// The spec section it checks (e.g. `3.1.4`).
    pub section: &'static str,
    /// The level of the requirement.
    pub level: Level,
    /// Where it runs.
    pub kind: Kind,
    /// The requirement, in one line.
    pub title: &'static str,
    /// The body.
    pub run: RunFn,
}

impl fmt::Debug for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scenario")
            .field("id", &self.id)
            .field("section", &self.section)
            .field("level", &self.level)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl Scenario {
    /// Whether `pattern` selects this scenario (`--only`): a `*` glob or a
    /// substring of the id, or a section prefix (`3.1` selects `3.1.4`).
    pub fn matches(&self, pattern: &str) -> bool {
        if pattern.contains('*') {
            return glob(pattern, self.id) || glob(pattern, self.section);
        }
        self.id.contains(pattern)
            || self.section == pattern
            || self
                .section
                .strip_prefix(pattern)
                .is_some_and(|rest| rest.starts_with('.'))
    }
}

/// `*` matches any run of characters; everything else matches itself.
fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, rest) = parts.split_first().unwrap_or((&"", &[]));
    let Some(mut text) = text.strip_prefix(first) else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        return text.is_empty();
    };
    for part in middle {
        match text.find(part) {
            Some(at) => text = &text[at + part.len()..],
            None => return false,
        }
    }
    text.len() >= last.len() && text.ends_with(last)
}

/// Declares a scenario whose body is the `async fn` named last.
#[macro_export]
#[doc(hidden)]
macro_rules! scenario {
    ($id:literal, $section:literal, $level:ident, $kind:expr, $title:literal, $body:path) => {{
        fn run<'a>(cx: &'a $crate::Ctx<'a>) -> ::a2a_transport::BoxFuture<'a, $crate::Check> {
            ::std::boxed::Box::pin($body(cx))
        }
        $crate::Scenario {
            id: $id,
            section: $section,
            level: $crate::Level::$level,
            kind: $kind,
            title: $title,
            run,
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("list.*", "list.pagination"));
        assert!(glob("*pagin*", "list.pagination"));
        assert!(glob("*", ""));
        assert!(!glob("list.*", "stream.order"));
        assert!(glob("a*b*c", "axxbyyc"));
        assert!(!glob("a*b*c", "axxbyy"));
        assert!(!glob("ab", "abc"));
    }
}
