//! The request-field rules every agent must apply beyond REQUIRED fields
//! (spec 3.2.4, 3.1.4 and the proto's field comments), and the helpers a
//! handler needs to answer by them.
//!
//! - [`A2aRequest::check_rules`] lists the violations of a request; the
//!   server pipeline calls it right after REQUIRED-field validation, so a
//!   handler never sees `historyLength: -5` or `pageSize: 0`. A handler
//!   called in process (not through the pipeline) can call it itself.
//! - [`history_limit`] and [`list_page_size`] read those fields as limits;
//!   [`Task::limit_history`] and [`Task::omit_artifacts`] shape a task the
//!   way `historyLength` and `includeArtifacts` ask.
//! - [`TaskCursor`] is the position in the order `ListTasks` MUST use
//!   (status timestamp, newest first) and its opaque page token.
//!
//! The descriptions match the official Python SDK's, so the same request
//! reads the same error whichever agent refused it.

use base64::Engine as _;

use crate::{A2aRequest, FieldViolation, Task, Timestamp};

/// `ListTasksRequest.pageSize` when unset: "If unspecified, at most 50
/// tasks will be returned" (proto `ListTasksRequest.page_size`).
pub const DEFAULT_LIST_PAGE_SIZE: usize = 50;

/// The largest `ListTasksRequest.pageSize`: "The maximum value is 100"
/// (the smallest is 1).
pub const MAX_LIST_PAGE_SIZE: usize = 100;

/// `historyLength` as a limit (spec 3.2.4): unset is no limit (`None`),
/// `n >= 0` at most `n` messages. A negative value is a violation of
/// `field` (the JSON path to report, e.g. `configuration.historyLength`).
///
/// ```
/// use a2a_types::history_limit;
/// assert_eq!(history_limit("historyLength", None), Ok(None));
/// assert_eq!(history_limit("historyLength", Some(2)), Ok(Some(2)));
/// assert!(history_limit("historyLength", Some(-5)).is_err());
/// ```
pub fn history_limit(field: &str, value: Option<i32>) -> Result<Option<usize>, FieldViolation> {
    match value {
        None => Ok(None),
        Some(n) => usize::try_from(n).map(Some).map_err(|_| FieldViolation {
            field: field.to_owned(),
            description: format!("Must be non-negative integer, got {n}"),
        }),
    }
}

/// `ListTasksRequest.pageSize` as a count: unset is
/// [`DEFAULT_LIST_PAGE_SIZE`], else it must lie in
/// `1..=`[`MAX_LIST_PAGE_SIZE`] (proto `ListTasksRequest.page_size`).
///
/// ```
/// use a2a_types::list_page_size;
/// assert_eq!(list_page_size(None), Ok(50));
/// assert_eq!(list_page_size(Some(100)), Ok(100));
/// assert!(list_page_size(Some(0)).is_err());
/// ```
pub fn list_page_size(value: Option<i32>) -> Result<usize, FieldViolation> {
    match value {
        None => Ok(DEFAULT_LIST_PAGE_SIZE),
        Some(n) => usize::try_from(n)
            .ok()
            .filter(|n| (1..=MAX_LIST_PAGE_SIZE).contains(n))
            .ok_or_else(|| FieldViolation {
                field: "pageSize".to_owned(),
                description: format!(
                    "Must be between 1 and {MAX_LIST_PAGE_SIZE} inclusive, got {n}"
                ),
            }),
    }
}

impl A2aRequest {
    /// Every violation of the spec's rules on the request's fields, beyond
    /// the REQUIRED ones of [`validate`](A2aRequest::validate); empty when
    /// it keeps them (spec 3.3.2: servers MUST validate all input
    /// parameters):
    ///
    /// - `historyLength` of `GetTask` and `ListTasks`, and
    ///   `configuration.historyLength` of `SendMessage` and
    ///   `SendStreamingMessage`, is not negative (spec 3.2.4);
    /// - `pageSize` of `ListTasks` is 1 to 100 when set (proto);
    /// - `pageSize` of `ListTaskPushNotificationConfigs` is not negative.
    ///
    /// ```
    /// use a2a_types::{A2aRequest, GetTaskRequest};
    /// let mut get = GetTaskRequest::new("t-1");
    /// get.history_length = Some(-5);
    /// let violations = A2aRequest::GetTask(get).check_rules();
    /// assert_eq!(violations[0].field, "historyLength");
    /// ```
    pub fn check_rules(&self) -> Vec<FieldViolation> {
        let mut violations = Vec::new();
        let mut history = |field: &str, value: Option<i32>| {
            if let Err(v) = history_limit(field, value) {
                violations.push(v);
            }
        };
        match self {
            A2aRequest::SendMessage(r) | A2aRequest::SendStreamingMessage(r) => history(
                "configuration.historyLength",
                r.configuration.as_ref().and_then(|c| c.history_length),
            ),
            A2aRequest::GetTask(r) => history("historyLength", r.history_length),
            A2aRequest::ListTasks(r) => {
                if let Err(v) = list_page_size(r.page_size) {
                    violations.push(v);
                }
                if let Err(v) = history_limit("historyLength", r.history_length) {
                    violations.push(v);
                }
            }
            A2aRequest::ListTaskPushNotificationConfigs(r) if r.page_size < 0 => {
                violations.push(FieldViolation {
                    field: "pageSize".to_owned(),
                    description: format!("Must be a non-negative integer, got {}", r.page_size),
                });
            }
            _ => {}
        }
        #[cfg(feature = "draft-1-1")]
        self.check_draft_rules(&mut violations);
        violations
    }

    /// The 1.1 draft's rules: `timelineLength` is a limit like
    /// `historyLength`, and a generation the caller names is not negative
    /// (generations start at 1, draft spec 3.2.7).
    #[cfg(feature = "draft-1-1")]
    fn check_draft_rules(&self, violations: &mut Vec<FieldViolation>) {
        let mut check = |field: &str, timeline: Option<i32>, generation: Option<i64>| {
            if let Err(v) = history_limit(field, timeline) {
                violations.push(v);
            }
            if let Some(g) = generation.filter(|g| *g < 0) {
                let name = match self {
                    A2aRequest::GetTask(_) => "currentGeneration",
                    _ => "configuration.ifGenerationMatch",
                };
                violations.push(FieldViolation {
                    field: name.to_owned(),
                    description: format!("Must be non-negative integer, got {g}"),
                });
            }
        };
        match self {
            A2aRequest::SendMessage(r) | A2aRequest::SendStreamingMessage(r) => {
                let c = r.configuration.as_ref();
                check(
                    "configuration.timelineLength",
                    c.and_then(|c| c.timeline_length),
                    c.and_then(|c| c.if_generation_match),
                )
            }
            A2aRequest::GetTask(r) => {
                check("timelineLength", r.timeline_length, r.current_generation)
            }
            A2aRequest::ListTasks(r) => check("timelineLength", r.timeline_length, None),
            _ => {}
        }
    }
}

impl Task {
    /// Keeps at most the `limit` most recent messages of the history (spec
    /// 3.2.4); `None` keeps all. With `Some(0)` the history is empty, and
    /// so omitted on the wire, as 3.2.4 asks.
    ///
    /// ```
    /// use a2a_types::{Message, Task};
    /// let mut task = Task::default();
    /// task.history = vec![Message::user_text("m1", "a"), Message::user_text("m2", "b")];
    /// task.limit_history(Some(1));
    /// assert_eq!(task.history[0].message_id, "m2");
    /// ```
    pub fn limit_history(&mut self, limit: Option<usize>) {
        if let Some(keep) = limit {
            let excess = self.history.len().saturating_sub(keep);
            self.history.drain(..excess);
        }
    }

    /// Drops the artifacts, as `ListTasks` without `includeArtifacts` must
    /// (spec 3.1.4: the field is then omitted, not an empty array; an empty
    /// list is never written).
    pub fn omit_artifacts(&mut self) {
        self.artifacts = Vec::new();
    }
}

/// A position in the order `ListTasks` MUST return (spec 3.1.4): newest
/// status timestamp first, ties broken by task id, descending. Its
/// [`Ord`] is ascending in that order's reverse, so sorting keys in
/// descending order (`b.cmp(a)`) gives the page order.
///
/// A page token ([`encode`](TaskCursor::encode)) names the last task of a
/// page; the next page starts strictly after it, so tasks that change
/// between calls are neither repeated nor skipped by position. The token is
/// opaque to clients: URL-safe base64 of `v1:<seconds>:<nanos>:<task id>`.
///
/// ```
/// use a2a_types::{TaskCursor, Timestamp};
/// let cursor = TaskCursor::new(Timestamp::new(1_700_000_000, 0)?, "task-7");
/// assert_eq!(TaskCursor::decode(&cursor.encode()), Some(cursor));
/// assert_eq!(TaskCursor::decode("not a token"), None);
/// # Ok::<(), a2a_types::TimestampError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TaskCursor {
    /// The task's status timestamp.
    pub timestamp: Timestamp,
    /// The task's id.
    pub id: String,
}

const TOKEN_VERSION: &str = "v1";

impl TaskCursor {
    /// The position of a task with status `timestamp` and `id`.
    pub fn new(timestamp: Timestamp, id: impl Into<String>) -> TaskCursor {
        TaskCursor {
            timestamp,
            id: id.into(),
        }
    }

    /// The position of `task` (a task without a status timestamp sorts as
    /// the Unix epoch, after every dated one).
    pub fn of(task: &Task) -> TaskCursor {
        TaskCursor::new(
            task.status.timestamp.unwrap_or(Timestamp::UNIX_EPOCH),
            task.id.clone(),
        )
    }

    /// The opaque page token.
    pub fn encode(&self) -> String {
        let raw = format!(
            "{TOKEN_VERSION}:{}:{}:{}",
            self.timestamp.seconds(),
            self.timestamp.nanos(),
            self.id
        );
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw)
    }

    /// Reads a token [`encode`](TaskCursor::encode) wrote; `None` for
    /// anything else (an agent answers `InvalidParamsError` naming
    /// `pageToken`). Never panics; tokens longer than 4 KiB are refused
    /// unread.
    pub fn decode(token: &str) -> Option<TaskCursor> {
        if token.len() > 4096 {
            return None;
        }
        let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(token)
            .ok()?;
        let raw = String::from_utf8(raw).ok()?;
        let mut fields = raw.splitn(4, ':');
        if fields.next()? != TOKEN_VERSION {
            return None;
        }
        let seconds = fields.next()?.parse().ok()?;
        let nanos = fields.next()?.parse().ok()?;
        let id = fields.next()?.to_owned();
        let timestamp = Timestamp::new(seconds, nanos).ok()?;
        Some(TaskCursor { timestamp, id })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        GetTaskRequest, ListTaskPushNotificationConfigsRequest, ListTasksRequest, Message,
        SendMessageConfiguration, SendMessageRequest,
    };

    fn fields(request: A2aRequest) -> Vec<String> {
        request.check_rules().into_iter().map(|v| v.field).collect()
    }

    #[test]
    fn negative_history_lengths_are_refused_everywhere() {
        let mut get = GetTaskRequest::new("t");
        get.history_length = Some(-5);
        assert_eq!(fields(A2aRequest::GetTask(get.clone())), ["historyLength"]);
        get.history_length = Some(0);
        assert!(fields(A2aRequest::GetTask(get)).is_empty());

        let send = SendMessageRequest {
            message: Message::user_text("m", "hi"),
            configuration: Some(SendMessageConfiguration {
                history_length: Some(-1),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert_eq!(
            fields(A2aRequest::SendStreamingMessage(send.clone())),
            ["configuration.historyLength"]
        );
        assert_eq!(
            fields(A2aRequest::SendMessage(send)),
            ["configuration.historyLength"]
        );
    }

    #[test]
    fn list_page_sizes_are_bounded() {
        for (size, ok) in [
            (None, true),
            (Some(1), true),
            (Some(100), true),
            (Some(0), false),
            (Some(101), false),
            (Some(-3), false),
        ] {
            let list = ListTasksRequest {
                page_size: size,
                history_length: Some(-1),
                ..Default::default()
            };
            let got = fields(A2aRequest::ListTasks(list));
            let want: &[&str] = if ok {
                &["historyLength"]
            } else {
                &["pageSize", "historyLength"]
            };
            assert_eq!(got, want, "{size:?}");
        }
        let configs = ListTaskPushNotificationConfigsRequest {
            task_id: "t".into(),
            page_size: -1,
            ..Default::default()
        };
        assert_eq!(
            fields(A2aRequest::ListTaskPushNotificationConfigs(configs)),
            ["pageSize"]
        );
    }

    #[test]
    fn history_is_trimmed_to_the_newest() {
        let mut task = Task {
            history: (0..4)
                .map(|i| Message::user_text(format!("m{i}"), "x"))
                .collect(),
            ..Task::default()
        };
        let mut all = task.clone();
        all.limit_history(None);
        assert_eq!(all.history.len(), 4);
        let mut big = task.clone();
        big.limit_history(Some(10));
        assert_eq!(big.history.len(), 4);
        task.limit_history(Some(2));
        let ids: Vec<&str> = task.history.iter().map(|m| m.message_id.as_str()).collect();
        assert_eq!(ids, ["m2", "m3"]);
        task.limit_history(Some(0));
        assert!(task.history.is_empty());
        let json = String::from_utf8(crate::to_vec(&task).unwrap_or_default()).unwrap_or_default();
        assert!(!json.contains("history"), "{json}");
    }

    #[test]
    fn cursors_order_newest_first_and_round_trip() {
        let old = TaskCursor::new(Timestamp::new(10, 0).unwrap_or_default(), "b");
        let new = TaskCursor::new(Timestamp::new(20, 0).unwrap_or_default(), "a");
        let tie = TaskCursor::new(Timestamp::new(20, 0).unwrap_or_default(), "c");
        let mut keys = vec![old.clone(), new.clone(), tie.clone()];
        keys.sort_by(|a, b| b.cmp(a));
        assert_eq!(keys, [tie, new, old.clone()]);
        let odd = TaskCursor::new(Timestamp::new(1, 123_000_000).unwrap_or_default(), "t:0:x");
        assert_eq!(TaskCursor::decode(&odd.encode()), Some(odd));
        for bad in [
            "",
            "abc",
            "djE6MTox",
            "!!!!",
            "djI6MToxOng",
            &"A".repeat(5000),
        ] {
            assert_eq!(TaskCursor::decode(bad), None, "{bad}");
        }
    }
}
