//! Issue 28, point 4: one caller cannot evict another's tasks. Two bearer
//! tokens are two owners; caller two's flood of finished tasks, then of
//! unfinished ones, never evicts caller one's WORKING task, and caller
//! two's own quota refuses caller two (429 with `Retry-After`), not
//! caller one.

mod support;

use http::{Method, StatusCode};
use serde_json::{json, Value};
use support::wire::{state, user, Binding, Server};

fn immediately(id: &str, text: &str) -> Value {
    let mut params = user(id, text);
    params["configuration"] = json!({"returnImmediately": true});
    params
}

#[tokio::test]
async fn caller_ones_running_task_survives_caller_twos_flood() {
    let server = Server::start(&[
        "--bearer",
        "t1",
        "--bearer",
        "t2",
        "--max-tasks",
        "40",
        "--max-tasks-per-owner",
        "20",
    ])
    .await;
    let one = server.client().with_token("t1");
    let two = server.client().with_token("t2");
    let running = one
        .call(
            Binding::Rest,
            "SendMessage",
            immediately("one-1", "slow 30000"),
        )
        .await
        .expect("caller one's task");
    let id = running["task"]["id"].as_str().unwrap().to_owned();

    // Finished tasks, five times what the store holds.
    for i in 0..200 {
        let done = two
            .call(
                Binding::Rest,
                "SendMessage",
                user(&format!("two-{i}"), "echo hi"),
            )
            .await
            .expect("caller two's echo is served");
        assert_eq!(state(&done["task"]), "TASK_STATE_COMPLETED");
    }
    let kept = one
        .call(Binding::Rest, "GetTask", json!({"id": id}))
        .await
        .expect("caller one's task after caller two's flood of finished tasks");
    assert_eq!(state(&kept), "TASK_STATE_WORKING");

    // Unfinished tasks: caller two's quota fills, and caller two is told
    // to come back later.
    let mut refused = None;
    for i in 0..25 {
        let reply = two
            .send(
                Binding::Rest,
                "SendMessage",
                immediately(&format!("two-slow-{i}"), "slow 30000"),
            )
            .await;
        if reply.status != StatusCode::OK {
            refused = Some((i, reply));
            break;
        }
    }
    let (at, reply) = refused.expect("caller two is refused past its quota");
    assert_eq!(at, 20, "refused at the quota of 20 unfinished tasks");
    assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS, "{reply:?}");
    assert_eq!(
        reply.headers.get("retry-after").map(|v| v.as_bytes()),
        Some(&b"1"[..])
    );
    let reply = two
        .send(
            Binding::JsonRpc,
            "SendMessage",
            immediately("two-jsonrpc", "slow 30000"),
        )
        .await;
    let body = reply.json();
    assert_eq!(body["error"]["code"], -32092, "RateLimitedError: {body}");
    assert_eq!(body["error"]["data"][1]["retryDelay"], "1s", "{body}");

    // Caller one is still served, and its task still runs.
    let kept = one
        .call(Binding::Rest, "GetTask", json!({"id": id}))
        .await
        .expect("caller one's task after caller two's flood of unfinished tasks");
    assert_eq!(state(&kept), "TASK_STATE_WORKING");
    let more = one
        .call(
            Binding::Rest,
            "SendMessage",
            user("one-2", "echo still here"),
        )
        .await
        .expect("caller one creates while caller two is refused");
    assert_eq!(state(&more["task"]), "TASK_STATE_COMPLETED");
    let _ = one
        .request(
            Method::POST,
            &format!("/tasks/{id}:cancel"),
            Some(json!({})),
        )
        .await;
}
