//! What a scenario is: an id, the spec section and requirement level it
//! checks, the bindings it runs on, and a body that passes, fails (with
//! what was expected and what came back) or is skipped (with why).

use std::fmt;

use a2a_transport::BoxFuture;

use crate::binding::Kind;
use crate::check::{Check, Level};
use crate::context::Ctx;

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
    /// The ids of the matching requirements of the official A2A TCK
    /// (`CORE-SEND-001`), empty where the TCK has none; every id is one of
    /// [`crate::tck::REQUIREMENTS`].
    pub tck: &'static [&'static str],
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
            .field("tck", &self.tck)
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

/// Declares a scenario whose body is the `async fn` named after the
/// title; a trailing `tck = ["CORE-SEND-001", ...]` names the matching
/// requirements of the official TCK.
#[macro_export]
#[doc(hidden)]
macro_rules! scenario {
    ($id:literal, $section:literal, $level:ident, $kind:expr, $title:literal, $body:path $(,)?) => {
        $crate::scenario!($id, $section, $level, $kind, $title, $body, tck = [])
    };
    ($id:literal, $section:literal, $level:ident, $kind:expr, $title:literal, $body:path,
        tck = [$($tck:literal),* $(,)?] $(,)?) => {{
        fn run<'a>(cx: &'a $crate::Ctx<'a>) -> ::a2a_transport::BoxFuture<'a, $crate::Check> {
            ::std::boxed::Box::pin($body(cx))
        }
        $crate::Scenario {
            id: $id,
            section: $section,
            level: $crate::Level::$level,
            kind: $kind,
            title: $title,
            tck: &[$($tck),*],
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
