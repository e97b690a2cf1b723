//! `GetTask` (3.1.3), history length (3.2.4), `ListTasks` (3.1.4),
//! `CancelTask` (3.1.5) and its idempotency (3.3.1).

use std::collections::BTreeSet;
use std::time::Duration;

use a2a_types::{
    CancelTaskRequest, ErrorKind, GetTaskRequest, ListTasksRequest, ListTasksResponse, Operation,
    SendMessageRequest, Task, TaskState,
};

use crate::binding::Kind;
use crate::check::{ensure, fail, skip, Check};
use crate::context::{expect_error, immediately, state_name, with_history, Ctx};
use crate::contract::{Behaviour, Contract};
use crate::scenario;
use crate::scenario::Scenario;

pub(crate) fn list() -> Vec<Scenario> {
    vec![
        scenario!(
            "get.task",
            "3.1.3",
            Must,
            Kind::Behaviour,
            "GetTask answers the task's current state and artifacts",
            get_task,
            tck = ["CORE-GET-001"]
        ),
        scenario!(
            "get.unknown-task",
            "3.1.3",
            Must,
            Kind::Behaviour,
            "GetTask of an unknown id answers TaskNotFoundError",
            get_unknown,
            tck = ["CORE-GET-002"]
        ),
        scenario!(
            "history.limit",
            "3.2.4",
            Must,
            Kind::Behaviour,
            "historyLength n returns at most the n most recent messages",
            history_limit,
            tck = ["CORE-HIST-002"]
        ),
        scenario!(
            "history.zero",
            "3.2.4",
            Should,
            Kind::Behaviour,
            "historyLength 0 returns no history",
            history_zero,
            tck = ["CORE-HIST-001"]
        ),
        scenario!(
            "history.send",
            "3.2.4",
            Must,
            Kind::Behaviour,
            "SendMessage honours historyLength in its answer",
            history_send
        ),
        scenario!(
            "history.list",
            "3.2.4",
            Must,
            Kind::Behaviour,
            "ListTasks honours historyLength for each task",
            history_list
        ),
        scenario!(
            "history.negative",
            "3.2.4",
            Must,
            Kind::Behaviour,
            "a negative historyLength is refused with InvalidParamsError (3.3.2)",
            history_negative
        ),
        scenario!(
            "list.artifacts-omitted",
            "3.1.4",
            Must,
            Kind::Behaviour,
            "ListTasks omits artifacts unless includeArtifacts",
            artifacts_omitted,
            tck = ["CORE-LIST-005"]
        ),
        scenario!(
            "list.artifacts-included",
            "3.1.4",
            Should,
            Kind::Behaviour,
            "ListTasks with includeArtifacts includes them",
            artifacts_included
        ),
        scenario!(
            "list.pagination",
            "3.1.4",
            Must,
            Kind::Behaviour,
            "cursor pagination visits every task once; the last nextPageToken is empty",
            pagination,
            tck = ["CORE-LIST-002", "CORE-LIST-004"]
        ),
        scenario!(
            "list.total-size",
            "3.1.4",
            Must,
            Kind::Behaviour,
            "totalSize counts every matching task",
            total_size
        ),
        scenario!(
            "list.sorted",
            "3.1.4",
            Must,
            Kind::Behaviour,
            "tasks are sorted by status timestamp, newest first",
            sorted,
            tck = ["CORE-LIST-003"]
        ),
        scenario!(
            "list.context-filter",
            "3.1.4",
            Must,
            Kind::Behaviour,
            "the contextId filter keeps only that context's tasks",
            context_filter
        ),
        scenario!(
            "list.status-filter",
            "3.1.4",
            Must,
            Kind::Behaviour,
            "the status filter keeps only tasks in that state",
            status_filter
        ),
        scenario!(
            "list.timestamp-filter",
            "3.1.4",
            Must,
            Kind::Behaviour,
            "statusTimestampAfter keeps tasks updated at or after it",
            timestamp_filter
        ),
        scenario!(
            "list.page-size-bounds",
            "3.1.4",
            Should,
            Kind::Behaviour,
            "a pageSize outside 1..=100 is refused with InvalidParamsError (6.5)",
            page_size_bounds
        ),
        scenario!(
            "cancel.working",
            "3.1.5",
            Must,
            Kind::Behaviour,
            "CancelTask of a working task answers it CANCELED",
            cancel_working,
            tck = ["CORE-CANCEL-001"]
        ),
        scenario!(
            "cancel.idempotent",
            "3.3.1",
            Must,
            Kind::Behaviour,
            "canceling a canceled task again changes nothing",
            cancel_idempotent
        ),
        scenario!(
            "cancel.terminal",
            "3.1.5",
            Must,
            Kind::Behaviour,
            "CancelTask of a completed task answers TaskNotCancelableError",
            cancel_terminal,
            tck = ["CORE-CANCEL-002"]
        ),
        scenario!(
            "cancel.unknown-task",
            "3.1.5",
            Must,
            Kind::Behaviour,
            "CancelTask of an unknown id answers TaskNotFoundError",
            cancel_unknown,
            tck = ["CORE-CANCEL-003"]
        ),
    ]
}

async fn get_task(cx: &Ctx<'_>) -> Check {
    let sent = cx.any_task("echo kept").await?;
    let got = cx.get(&sent.id, None).await?;
    ensure(
        got.id == sent.id,
        format!("task {:?}", sent.id),
        format!("task {:?}", got.id),
    )?;
    if cx.contract_name() == Contract::None {
        // The agent's own work: GetTask must find the task as it was left.
        if sent.status.state.is_terminal() {
            ensure(
                got.status.state == sent.status.state,
                format!("the task {}", state_name(sent.status.state)),
                state_name(got.status.state),
            )?;
        }
        cx.note("found");
        return Ok(());
    }
    ensure(
        got.status.state == TaskState::Completed,
        "COMPLETED",
        state_name(got.status.state),
    )?;
    let text = got.artifacts.first().and_then(|a| a.text_content());
    if cx.contract_name() == Contract::Reference {
        ensure(
            text.as_deref() == Some("kept"),
            "the artifact \"kept\"",
            format!("{text:?}"),
        )?;
    }
    ensure(
        got.artifacts == sent.artifacts,
        "the artifacts SendMessage answered",
        format!("{text:?}"),
    )?;
    cx.note(format!("{} {text:?}", state_name(got.status.state)));
    Ok(())
}

async fn get_unknown(cx: &Ctx<'_>) -> Check {
    let got = cx
        .within(cx.svc().get_task(
            &cx.cx(),
            GetTaskRequest::new(format!("no-such-task-{}", cx.nonce())),
        ))
        .await?;
    let e = expect_error(got, ErrorKind::TaskNotFound, "for an unknown task id")?;
    cx.note(e.kind().name());
    Ok(())
}

/// A two-turn task (`input`, then an answer): at least two messages of
/// history.
async fn task_with_history(cx: &Ctx<'_>) -> Check<Task> {
    cx.reference(Behaviour::InputRequired).await?;
    let task = cx.send_task("input").await?;
    let answer = cx.follow_up(&task.id, &task.context_id, "more");
    cx.send_task_with(SendMessageRequest::new(answer)).await?;
    let full = cx.get(&task.id, None).await?;
    if full.history.len() < 2 {
        return Err(fail(
            "two history messages after two turns",
            format!("{}", full.history.len()),
        ));
    }
    Ok(full)
}

async fn history_limit(cx: &Ctx<'_>) -> Check {
    let full = task_with_history(cx).await?;
    let one = cx.get(&full.id, Some(1)).await?;
    ensure(
        one.history.len() <= 1,
        "at most 1 history message for historyLength 1",
        format!("{} messages", one.history.len()),
    )?;
    if let (Some(got), Some(last)) = (one.history.first(), full.history.last()) {
        ensure(
            got.message_id == last.message_id,
            format!("the most recent message {:?}", last.message_id),
            format!("{:?}", got.message_id),
        )?;
    }
    cx.note(format!("{} message(s)", one.history.len()));
    Ok(())
}

async fn history_zero(cx: &Ctx<'_>) -> Check {
    let full = task_with_history(cx).await?;
    let none = cx.get(&full.id, Some(0)).await?;
    ensure(
        none.history.is_empty(),
        "no history for historyLength 0",
        format!("{} messages", none.history.len()),
    )?;
    cx.note("no history");
    Ok(())
}

async fn history_negative(cx: &Ctx<'_>) -> Check {
    let task = cx.any_task("input").await?;
    let mut get = GetTaskRequest::new(&task.id);
    get.history_length = Some(-5);
    let got = cx.within(cx.svc().get_task(&cx.cx(), get)).await?;
    expect_error(
        got,
        ErrorKind::InvalidParams,
        "for GetTask historyLength -5",
    )?;
    let list = ListTasksRequest {
        context_id: task.context_id.clone(),
        history_length: Some(-1),
        ..Default::default()
    };
    let got = cx.within(cx.svc().list_tasks(&cx.cx(), list)).await?;
    if let Err(e) = &got {
        if cx.declined(Operation::ListTasks, e).is_some() {
            cx.found("GetTask refuses historyLength -5; the agent declines ListTasks");
            cx.note("refused");
            return Ok(());
        }
    }
    expect_error(
        got,
        ErrorKind::InvalidParams,
        "for ListTasks historyLength -1",
    )?;
    cx.note("refused");
    Ok(())
}

async fn history_send(cx: &Ctx<'_>) -> Check {
    cx.reference(Behaviour::InputRequired).await?;
    let task = cx.send_task("input").await?;
    let m = cx.follow_up(&task.id, &task.context_id, "input");
    let r = with_history(m, 1);
    let answer = cx.send_task_with(r).await?;
    ensure(
        answer.history.len() <= 1,
        "at most 1 history message in the answer for historyLength 1",
        format!("{} messages", answer.history.len()),
    )?;
    cx.note("truncated");
    Ok(())
}

async fn history_list(cx: &Ctx<'_>) -> Check {
    let full = task_with_history(cx).await?;
    let page = list_tasks(
        cx,
        ListTasksRequest {
            context_id: full.context_id.clone(),
            history_length: Some(1),
            ..Default::default()
        },
    )
    .await?;
    let listed = page.tasks.iter().find(|t| t.id == full.id).ok_or_else(|| {
        fail(
            format!("task {:?} in its context's list", full.id),
            ids(&page.tasks),
        )
    })?;
    ensure(
        listed.history.len() <= 1,
        "at most 1 history message per task for historyLength 1",
        format!("{} messages", listed.history.len()),
    )?;
    cx.note("truncated");
    Ok(())
}

pub(crate) async fn list_tasks(
    cx: &Ctx<'_>,
    request: ListTasksRequest,
) -> Check<ListTasksResponse> {
    let got = cx.within(cx.svc().list_tasks(&cx.cx(), request)).await?;
    cx.offered(Operation::ListTasks, got)?
        .map_err(|e| fail("ListTasks to succeed", crate::describe_error(&e)))
}

fn ids(tasks: &[Task]) -> String {
    let ids: Vec<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
    format!("tasks {ids:?}")
}

/// Tasks in one new context, oldest first (echo tasks under the
/// reference contract). Skips when the agent does not accept a client
/// contextId for the later ones.
async fn tasks_in_one_context(cx: &Ctx<'_>, n: usize) -> Check<Vec<Task>> {
    // Only an agent that offers ListTasks has tasks to list.
    let probe = ListTasksRequest {
        context_id: format!("ctx-probe-{}", cx.nonce()),
        page_size: Some(1),
        ..Default::default()
    };
    let got = cx.within(cx.svc().list_tasks(&cx.cx(), probe)).await?;
    cx.offered(Operation::ListTasks, got)?.ok();
    let first = cx.any_task("echo first").await?;
    let mut out = vec![first];
    for i in 1..n {
        tokio::time::sleep(Duration::from_millis(3)).await;
        let mut m = cx.asking(Behaviour::Complete, &format!("echo task {i}"));
        m.context_id = out[0].context_id.clone();
        let t = cx
            .send_task_with(SendMessageRequest::new(m))
            .await
            .map_err(|e| match e {
                crate::Stop::Fail { got, .. } => skip(format!(
                    "needs the agent to accept a known contextId on a new task ({got})"
                )),
                other => other,
            })?;
        if t.context_id != out[0].context_id {
            return Err(skip(
                "needs the agent to keep a known contextId on a new task",
            ));
        }
        out.push(t);
    }
    Ok(out)
}

async fn artifacts_omitted(cx: &Ctx<'_>) -> Check {
    let tasks = tasks_in_one_context(cx, 1).await?;
    let page = list_tasks(
        cx,
        ListTasksRequest {
            context_id: tasks[0].context_id.clone(),
            ..Default::default()
        },
    )
    .await?;
    ensure(
        !page.tasks.is_empty(),
        "the context's task listed",
        "no tasks",
    )?;
    for t in &page.tasks {
        ensure(
            t.artifacts.is_empty(),
            "no artifacts without includeArtifacts",
            format!("{} artifacts in task {:?}", t.artifacts.len(), t.id),
        )?;
    }
    cx.note("omitted");
    Ok(())
}

async fn artifacts_included(cx: &Ctx<'_>) -> Check {
    let tasks = tasks_in_one_context(cx, 1).await?;
    let page = list_tasks(
        cx,
        ListTasksRequest {
            context_id: tasks[0].context_id.clone(),
            include_artifacts: Some(true),
            ..Default::default()
        },
    )
    .await?;
    let t = page
        .tasks
        .iter()
        .find(|t| t.id == tasks[0].id)
        .ok_or_else(|| fail("the task listed", ids(&page.tasks)))?;
    ensure(
        t.artifacts == tasks[0].artifacts,
        "the artifacts SendMessage answered",
        format!("{} artifacts", t.artifacts.len()),
    )?;
    if cx.contract_name() == Contract::Reference {
        let text = t.artifacts.first().and_then(|a| a.text_content());
        ensure(
            text.as_deref() == Some("first"),
            "its artifact \"first\"",
            format!("{text:?}"),
        )?;
    }
    cx.note("included");
    Ok(())
}

async fn pagination(cx: &Ctx<'_>) -> Check {
    let tasks = tasks_in_one_context(cx, 3).await?;
    let mut seen = Vec::new();
    let mut token = String::new();
    for _ in 0..10 {
        let page = list_tasks(
            cx,
            ListTasksRequest {
                context_id: tasks[0].context_id.clone(),
                page_size: Some(1),
                page_token: token.clone(),
                ..Default::default()
            },
        )
        .await?;
        ensure(
            page.tasks.len() <= 1,
            "at most 1 task per page for pageSize 1",
            format!("{} tasks", page.tasks.len()),
        )?;
        seen.extend(page.tasks.iter().map(|t| t.id.clone()));
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    let want: BTreeSet<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
    let got: BTreeSet<&str> = seen.iter().map(String::as_str).collect();
    ensure(
        got == want && seen.len() == want.len(),
        format!("each of {want:?} exactly once, then an empty nextPageToken"),
        format!("{seen:?}"),
    )?;
    cx.note(format!("{} pages", seen.len()));
    Ok(())
}

async fn total_size(cx: &Ctx<'_>) -> Check {
    let tasks = tasks_in_one_context(cx, 3).await?;
    let page = list_tasks(
        cx,
        ListTasksRequest {
            context_id: tasks[0].context_id.clone(),
            page_size: Some(2),
            ..Default::default()
        },
    )
    .await?;
    ensure(page.total_size == 3, "totalSize 3", page.total_size)?;
    ensure(
        !page.next_page_token.is_empty(),
        "a nextPageToken on the first of two pages",
        "an empty one",
    )?;
    cx.note("3");
    Ok(())
}

async fn sorted(cx: &Ctx<'_>) -> Check {
    let tasks = tasks_in_one_context(cx, 3).await?;
    let page = list_tasks(
        cx,
        ListTasksRequest {
            context_id: tasks[0].context_id.clone(),
            ..Default::default()
        },
    )
    .await?;
    let got: Vec<&str> = page.tasks.iter().map(|t| t.id.as_str()).collect();
    let want: Vec<&str> = tasks.iter().rev().map(|t| t.id.as_str()).collect();
    ensure(
        got == want,
        format!("newest first: {want:?}"),
        format!("{got:?}"),
    )?;
    let stamps: Vec<_> = page.tasks.iter().map(|t| t.status.timestamp).collect();
    ensure(
        stamps.windows(2).all(|w| w[0] >= w[1]),
        "status timestamps in descending order",
        format!("{stamps:?}"),
    )?;
    cx.note("newest first");
    Ok(())
}

async fn context_filter(cx: &Ctx<'_>) -> Check {
    let mine = tasks_in_one_context(cx, 2).await?;
    let other = cx.any_task("echo elsewhere").await?;
    let page = list_tasks(
        cx,
        ListTasksRequest {
            context_id: mine[0].context_id.clone(),
            ..Default::default()
        },
    )
    .await?;
    ensure(
        page.tasks
            .iter()
            .all(|t| t.context_id == mine[0].context_id),
        format!("only tasks of context {:?}", mine[0].context_id),
        ids(&page.tasks),
    )?;
    ensure(
        !page.tasks.iter().any(|t| t.id == other.id) && page.tasks.len() == 2,
        "the context's 2 tasks",
        ids(&page.tasks),
    )?;
    cx.note("2 tasks");
    Ok(())
}

async fn status_filter(cx: &Ctx<'_>) -> Check {
    let mut m = cx.ask(Behaviour::InputRequired, "input").await?;
    let tasks = tasks_in_one_context(cx, 1).await?;
    m.context_id = tasks[0].context_id.clone();
    let waiting = cx.send_task_with(SendMessageRequest::new(m)).await?;
    let page = list_tasks(
        cx,
        ListTasksRequest {
            context_id: tasks[0].context_id.clone(),
            status: TaskState::InputRequired,
            ..Default::default()
        },
    )
    .await?;
    let got: Vec<&str> = page.tasks.iter().map(|t| t.id.as_str()).collect();
    ensure(
        got == [waiting.id.as_str()],
        format!("only the INPUT_REQUIRED task {:?}", waiting.id),
        format!("{got:?}"),
    )?;
    cx.note("1 task");
    Ok(())
}

async fn timestamp_filter(cx: &Ctx<'_>) -> Check {
    let tasks = tasks_in_one_context(cx, 2).await?;
    let Some(after) = tasks[1].status.timestamp else {
        return Err(fail(
            "a status timestamp on every task",
            "none on the second task",
        ));
    };
    let older = tasks[0].status.timestamp;
    if older.is_some_and(|t| t >= after) {
        return Err(skip("the two tasks share a status timestamp"));
    }
    let page = list_tasks(
        cx,
        ListTasksRequest {
            context_id: tasks[0].context_id.clone(),
            status_timestamp_after: Some(after),
            ..Default::default()
        },
    )
    .await?;
    let got: Vec<&str> = page.tasks.iter().map(|t| t.id.as_str()).collect();
    ensure(
        got == [tasks[1].id.as_str()],
        format!("only the later task {:?}", tasks[1].id),
        format!("{got:?}"),
    )?;
    cx.note("1 task");
    Ok(())
}

async fn page_size_bounds(cx: &Ctx<'_>) -> Check {
    for size in [0, 101] {
        let got = cx
            .within(cx.svc().list_tasks(
                &cx.cx(),
                ListTasksRequest {
                    page_size: Some(size),
                    ..Default::default()
                },
            ))
            .await?;
        expect_error(
            cx.offered(Operation::ListTasks, got)?,
            ErrorKind::InvalidParams,
            &format!("for pageSize {size}"),
        )?;
    }
    cx.note("refused");
    Ok(())
}

/// `CancelTask` of `id`, within the call timeout.
async fn cancel(cx: &Ctx<'_>, id: &str) -> Check<Result<Task, a2a_types::A2aError>> {
    cx.within(cx.svc().cancel_task(&cx.cx(), CancelTaskRequest::new(id)))
        .await
}

async fn cancel_working(cx: &Ctx<'_>) -> Check {
    let ask = cx
        .ask(
            Behaviour::LongRunning,
            &format!("slow {}", cx.timing().slow_ms() * 3),
        )
        .await?;
    let task = cx.send_task_with(immediately(ask)).await?;
    let canceled = cancel(cx, &task.id).await?.map_err(|e| {
        fail(
            "CancelTask of a working task to succeed",
            crate::describe_error(&e),
        )
    })?;
    ensure(
        canceled.status.state == TaskState::Canceled,
        "the task answered CANCELED",
        state_name(canceled.status.state),
    )?;
    let later = cx.get(&task.id, None).await?;
    ensure(
        later.status.state == TaskState::Canceled,
        "GetTask to show it CANCELED",
        state_name(later.status.state),
    )?;
    cx.note("CANCELED");
    Ok(())
}

async fn cancel_idempotent(cx: &Ctx<'_>) -> Check {
    let ask = cx
        .ask(
            Behaviour::LongRunning,
            &format!("slow {}", cx.timing().slow_ms() * 3),
        )
        .await?;
    let task = cx.send_task_with(immediately(ask)).await?;
    let first = cancel(cx, &task.id).await?;
    ensure(
        first.is_ok(),
        "the first cancel to succeed",
        format!("{first:?}"),
    )?;
    let again = cancel(cx, &task.id).await?;
    match &again {
        Ok(t) => ensure(
            t.status.state == TaskState::Canceled,
            "the task still CANCELED",
            state_name(t.status.state),
        )?,
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::TaskNotCancelable | ErrorKind::TaskNotFound
            ) => {}
        Err(e) => {
            return Err(fail(
                "the canceled task again, TaskNotCancelableError or TaskNotFoundError",
                crate::describe_error(e),
            ))
        }
    }
    let later = cx
        .within(cx.svc().get_task(&cx.cx(), GetTaskRequest::new(&task.id)))
        .await?;
    if let Ok(t) = later {
        ensure(
            t.status.state == TaskState::Canceled,
            "the task to stay CANCELED",
            state_name(t.status.state),
        )?;
    }
    cx.note("unchanged");
    Ok(())
}

async fn cancel_terminal(cx: &Ctx<'_>) -> Check {
    let task = cx.any_task("echo finished").await?;
    if !task.status.state.is_terminal() {
        return Err(skip(format!(
            "needs a terminal task: the task answered is {}",
            state_name(task.status.state)
        )));
    }
    let got = cancel(cx, &task.id).await?;
    let e = expect_error(got, ErrorKind::TaskNotCancelable, "for a COMPLETED task")?;
    cx.note(e.kind().name());
    Ok(())
}

async fn cancel_unknown(cx: &Ctx<'_>) -> Check {
    let got = cx
        .within(cx.svc().cancel_task(
            &cx.cx(),
            CancelTaskRequest::new(format!("no-such-task-{}", cx.nonce())),
        ))
        .await?;
    let e = expect_error(got, ErrorKind::TaskNotFound, "for an unknown task id")?;
    cx.note(e.kind().name());
    Ok(())
}
