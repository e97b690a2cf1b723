//! Running scenarios against a target: every selected scenario on every
//! binding it applies to, a few at a time, each within its timeout; then
//! the binding equivalence check (spec 5.1).

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::Semaphore;

use crate::binding::{Binding, Kind};
use crate::check::{Level, Stop};
use crate::context::{Ctx, Session};
use crate::report::{Outcome, Record, Report};
use crate::scenario::Scenario;
use crate::target::Target;

/// Called after each record, for a progress line.
pub type ProgressFn = Arc<dyn Fn(&Progress<'_>) + Send + Sync>;

/// What the progress callback learns.
#[derive(Debug)]
pub struct Progress<'a> {
    /// Records finished so far.
    pub done: usize,
    /// Records in the run.
    pub total: usize,
    /// The record just finished.
    pub record: &'a Record,
}

/// How to run.
#[derive(Clone)]
pub struct RunOptions {
    /// Run only scenarios matching one of these patterns
    /// ([`Scenario::matches`]); all when empty.
    pub only: Vec<String>,
    /// Scenario runs in flight at once (at least 1).
    pub jobs: usize,
    /// The progress callback.
    pub progress: Option<ProgressFn>,
}

impl fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunOptions")
            .field("only", &self.only)
            .field("jobs", &self.jobs)
            .finish_non_exhaustive()
    }
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            only: Vec::new(),
            jobs: 8,
            progress: None,
        }
    }
}

/// The result of one run of one scenario on one binding.
struct Done {
    index: usize,
    record: Record,
    notes: Vec<String>,
}

/// Runs `scenarios` against `target` and reports every result, the
/// target's notices first. Must be called within a tokio runtime.
pub async fn run(target: Target, scenarios: &[Scenario], options: &RunOptions) -> Report {
    let name = target.name.clone();
    let agent = Some(target.card.name.clone());
    let mut records = target.notices.clone();
    let (session, problems) = Session::new(target);
    for (binding, why) in problems {
        records.push(notice(
            "runner.binding",
            "5.2",
            Level::Must,
            binding,
            format!("the {binding} binding cannot be tested: {why}"),
        ));
    }
    let session = Arc::new(session);
    let runnable = session.runnable();
    // Without a card there is nothing to test: the one record saying why
    // (the agent cannot be reached, its card is unusable) is the report,
    // not that record and a failure of every card scenario after it.
    let no_card = records.iter().any(|r| {
        r.outcome == Outcome::Fail && matches!(r.scenario.as_str(), "runner.card" | "runner.target")
    });

    let mut jobs = Vec::new();
    for scenario in scenarios.iter().filter(|_| !no_card) {
        if !options.only.is_empty() && !options.only.iter().any(|p| scenario.matches(p)) {
            continue;
        }
        for binding in scenario.kind.bindings(&runnable) {
            jobs.push((*scenario, binding));
        }
    }
    let total = jobs.len();
    let limit = Arc::new(Semaphore::new(options.jobs.max(1)));
    let mut handles = Vec::with_capacity(total);
    for (index, (scenario, binding)) in jobs.iter().copied().enumerate() {
        let session = Arc::clone(&session);
        let limit = Arc::clone(&limit);
        handles.push(tokio::spawn(async move {
            let _permit = limit.acquire_owned().await;
            run_one(&session, scenario, binding, index).await
        }));
    }
    let mut done = Vec::with_capacity(total);
    for (index, handle) in handles.into_iter().enumerate() {
        let (scenario, binding) = jobs[index];
        let finished = match handle.await {
            Ok(d) => d,
            Err(e) => Done {
                index,
                record: record(
                    scenario,
                    binding,
                    Outcome::Fail,
                    format!("the scenario panicked: {e}"),
                    0,
                ),
                notes: Vec::new(),
            },
        };
        if let Some(progress) = &options.progress {
            progress(&Progress {
                done: index + 1,
                total,
                record: &finished.record,
            });
        }
        done.push(finished);
    }
    equivalence(&jobs, &mut done);
    done.sort_by_key(|d| d.index);
    records.extend(done.into_iter().map(|d| d.record));
    Report::new(name, agent, records)
}

async fn run_one(session: &Session, scenario: Scenario, binding: Binding, index: usize) -> Done {
    if let Some(why) = crate::scenarios::v0_3::skip_reason(session.target.version, &scenario) {
        return Done {
            index,
            record: record(scenario, binding, Outcome::Skip, why.to_owned(), 0),
            notes: Vec::new(),
        };
    }
    let started = Instant::now();
    let cx = Ctx::new(session, binding);
    let limit = session.target.timing.scenario_timeout;
    let result = tokio::time::timeout(limit, (scenario.run)(&cx)).await;
    let millis = started.elapsed().as_millis() as u64;
    let (outcome, detail) = match result {
        Ok(Ok(())) => (Outcome::Pass, String::new()),
        Ok(Err(Stop::Fail { expected, got })) => {
            (Outcome::Fail, Record::failure_detail(&expected, &got))
        }
        Ok(Err(Stop::Skip(why))) => (Outcome::Skip, why),
        Err(_) => (
            Outcome::Fail,
            format!("expected the scenario to finish within {limit:?}; it did not"),
        ),
    };
    let (notes, found) = cx.into_notes();
    let detail = match (outcome, found) {
        (Outcome::Pass, Some(found)) => found,
        _ => detail,
    };
    Done {
        index,
        record: record(scenario, binding, outcome, detail, millis),
        notes,
    }
}

fn record(
    scenario: Scenario,
    binding: Binding,
    outcome: Outcome,
    detail: String,
    ms: u64,
) -> Record {
    Record {
        scenario: scenario.id.to_owned(),
        title: scenario.title.to_owned(),
        section: scenario.section.to_owned(),
        tck: scenario.tck.iter().map(|t| (*t).to_owned()).collect(),
        level: scenario.level,
        binding,
        outcome,
        detail,
        duration_ms: ms,
    }
}

/// A record of the runner's own about a target.
pub(crate) fn notice(
    id: &str,
    section: &str,
    level: Level,
    binding: Binding,
    detail: String,
) -> Record {
    Record {
        scenario: id.to_owned(),
        title: "the runner can test the agent".to_owned(),
        section: section.to_owned(),
        tck: Vec::new(),
        level,
        binding,
        outcome: Outcome::Fail,
        detail,
        duration_ms: 0,
    }
}

/// Spec 5.1: a behaviour scenario must end the same way, with the same
/// observations, on every binding. A binding that differs from the first
/// one (in-process when present) fails.
fn equivalence(jobs: &[(Scenario, Binding)], done: &mut [Done]) {
    let mut by_scenario: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, (scenario, _)) in jobs.iter().enumerate() {
        if scenario.kind != Kind::Behaviour {
            continue;
        }
        match by_scenario.iter_mut().find(|(id, _)| *id == scenario.id) {
            Some((_, v)) => v.push(i),
            None => by_scenario.push((scenario.id, vec![i])),
        }
    }
    for (_, indices) in by_scenario {
        // `done` is in job order here.
        let Some((&first, rest)) = indices.split_first() else {
            continue;
        };
        let (reference, observed) = (done[first].record.outcome, done[first].notes.clone());
        let ref_binding = done[first].record.binding;
        let ref_detail = done[first].record.detail.clone();
        if reference == Outcome::Fail {
            continue;
        }
        for &i in rest {
            let d = &mut done[i];
            let why = match (reference, d.record.outcome) {
                (_, Outcome::Fail) => None,
                (a, b) if a != b => Some(format!(
                    "binding equivalence (5.1): {} here{} but {} on {ref_binding}{}",
                    word(b),
                    reason(&d.record.detail),
                    word(a),
                    reason(&ref_detail)
                )),
                (Outcome::Pass, Outcome::Pass) if d.notes != observed => Some(format!(
                    "binding equivalence (5.1): expected the observations of {ref_binding} {:?}; got {:?}",
                    observed, d.notes
                )),
                _ => None,
            };
            if let Some(why) = why {
                d.record.outcome = Outcome::Fail;
                d.record.detail = why;
            }
        }
    }
}

fn word(o: Outcome) -> &'static str {
    match o {
        Outcome::Pass => "passed",
        Outcome::Fail => "failed",
        Outcome::Skip => "skipped",
    }
}

fn reason(detail: &str) -> String {
    if detail.is_empty() {
        String::new()
    } else {
        format!(" ({detail})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Check;
    use crate::context::Ctx;

    async fn body(_: &Ctx<'_>) -> Check {
        Ok(())
    }

    fn done(index: usize, binding: Binding, outcome: Outcome, notes: &[&str]) -> Done {
        let s = crate::scenario!("x.y", "3.1", Must, Kind::Behaviour, "t", body);
        Done {
            index,
            record: record(s, binding, outcome, String::new(), 0),
            notes: notes.iter().map(|n| (*n).to_owned()).collect(),
        }
    }

    #[test]
    fn a_binding_that_differs_fails() {
        let s = crate::scenario!("x.y", "3.1", Must, Kind::Behaviour, "t", body);
        let jobs = [
            (s, Binding::InProcess),
            (s, Binding::JsonRpc),
            (s, Binding::HttpJson),
        ];
        let mut d = vec![
            done(0, Binding::InProcess, Outcome::Pass, &["COMPLETED"]),
            done(1, Binding::JsonRpc, Outcome::Pass, &["COMPLETED"]),
            done(2, Binding::HttpJson, Outcome::Pass, &["WORKING"]),
        ];
        equivalence(&jobs, &mut d);
        assert_eq!(d[1].record.outcome, Outcome::Pass);
        assert_eq!(d[2].record.outcome, Outcome::Fail);
        assert!(
            d[2].record.detail.contains("binding equivalence"),
            "{}",
            d[2].record.detail
        );

        let mut d = vec![
            done(0, Binding::InProcess, Outcome::Pass, &[]),
            done(1, Binding::JsonRpc, Outcome::Skip, &[]),
            done(2, Binding::HttpJson, Outcome::Pass, &[]),
        ];
        equivalence(&jobs, &mut d);
        assert_eq!(d[1].record.outcome, Outcome::Fail);
        assert_eq!(d[2].record.outcome, Outcome::Pass);
    }
}
