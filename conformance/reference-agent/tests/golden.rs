//! Golden wire recordings: request -> response pairs of
//! [`A2aServer::handle`] over the reference agent, kept as text files in
//! `tests/golden/` (format in its `README.md`) and replayed byte for byte,
//! so that a change to the server pipeline that alters the wire shows up
//! as a named difference.
//!
//! - Replay (the default): every exchange of a file is sent again and its
//!   rendering compared with the file; a mismatch names the file and the
//!   exchange and shows what was expected and what came.
//! - Record: `A2A_GOLDEN_RECORD=1 cargo test -p a2a-reference-agent --test
//!   golden` rewrites the files.
//!
//! What is not deterministic is normalised the same way in both modes:
//! RFC 3339 timestamps become `<ts>`, and server-generated ids (tasks,
//! contexts, messages, artifacts, push configs; `ListTasks` page tokens,
//! which hold a timestamp and a task id) become `<id:1>`, `<id:2>`, ... by
//! first appearance within a file. The rest is made deterministic by the
//! requests: blocking sends of `echo`, `input`, `message`, streams of
//! `stream 3`; the stream that ends with an error is read event by event
//! and its task evicted after a known event, never by sleeping.

use std::future::poll_fn;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use a2a_reference_agent::{AgentConfig, RecordingPushSender, ReferenceAgent};
use a2a_transport::{
    grpc,
    server::{AuthOutcome, AuthRequest, Authenticator, BearerAuth},
    A2aServer, Body, BoxFuture, ServerConfig,
};
use a2a_types::{AgentExtension, AgentInterface};
use bytes::{Bytes, BytesMut};
use http::{HeaderMap, Method, Request, StatusCode};
use serde_json::{json, Value};

type Server = A2aServer<ReferenceAgent>;

/// The longest an exchange (a whole stream included) may take.
const EXCHANGE_TIMEOUT: Duration = Duration::from_secs(5);

// ---------------------------------------------------------------------------
// The recordings, one test and one file per group.

#[tokio::test]
async fn card() {
    let server = server(|_| {}, ServerConfig::new(), None);
    let etag = server
        .card_resource()
        .etag()
        .to_str()
        .unwrap_or_default()
        .to_owned();
    let mut g = Group::new("card", "The public agent card (spec 8.2, 8.6).");
    let card = || Req::new(Method::GET, "/.well-known/agent-card.json").without("a2a-version");
    g.call(&server, "get", card()).await;
    g.call(
        &server,
        "conditional-get-matching",
        card().header("if-none-match", &etag),
    )
    .await;
    g.call(
        &server,
        "conditional-get-star",
        card().header("if-none-match", "*"),
    )
    .await;
    g.call(
        &server,
        "conditional-get-stale",
        card().header("if-none-match", "\"0-0\""),
    )
    .await;
    let head = Req::new(Method::HEAD, "/.well-known/agent-card.json").without("a2a-version");
    g.call(&server, "head", head).await;
    let post = Req::new(Method::POST, "/.well-known/agent-card.json").json(&json!({}));
    g.call(&server, "post-is-405", post).await;
    g.call(
        &server,
        "if-modified-since-same",
        card().header("if-modified-since", "Tue, 14 Nov 2023 22:13:20 GMT"),
    )
    .await;
    g.call(
        &server,
        "if-modified-since-older",
        card().header("if-modified-since", "Tue, 14 Nov 2023 22:13:19 GMT"),
    )
    .await;
    g.finish();
}

#[tokio::test]
async fn exactness() {
    let server = server(|_| {}, ServerConfig::new(), None);
    let mut g = Group::new(
        "exactness",
        "JSON-RPC notifications and batches (JSON-RPC 2.0 4.1, 6), media types \
         (spec 3.3.2, 9.1, 11.1).",
    );
    let notification = json!({"jsonrpc": "2.0", "method": "SendMessage",
        "params": user("m-quiet", "echo quiet", None)});
    g.call(
        &server,
        "notification-is-204",
        Req::new(Method::POST, "/").json(&notification),
    )
    .await;
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": user("m-b1", "echo one", None)},
        notification,
        {"jsonrpc": "2.0", "id": 3, "method": "GetTask", "params": {"id": "no-such-task"}},
        {"jsonrpc": "2.0", "id": 4, "method": "SendStreamingMessage", "params": user("m-b4", "stream 3", None)},
        7,
    ]);
    g.call(&server, "batch", Req::new(Method::POST, "/").json(&batch))
        .await;
    g.call(
        &server,
        "empty-batch",
        Req::new(Method::POST, "/").json(&json!([])),
    )
    .await;
    g.call(
        &server,
        "text-plain-is-415",
        Req::new(Method::POST, "/").body(
            "text/plain",
            r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}"#,
        ),
    )
    .await;
    let mut video = user("m-video", "echo video", None);
    if let Some(parts) = video["message"]["parts"].as_array_mut() {
        parts.push(json!({"raw": "AAAA", "mediaType": "video/mp4"}));
    }
    for b in BOTH {
        let p = b.prefix();
        g.call(
            &server,
            &format!("{p}-video-part-is-32005"),
            op(b, "SendMessage", video.clone()),
        )
        .await;
    }
    g.call(
        &server,
        "rest-accept-json",
        Req::new(Method::GET, "/tasks?pageSize=1").header("accept", "application/json"),
    )
    .await;
    g.call(
        &server,
        "rest-405",
        Req::new(Method::PUT, "/message:send").header("accept", "application/json"),
    )
    .await;
    g.finish();
}

#[tokio::test]
async fn operations_jsonrpc() {
    operations(Binding::JsonRpc, "operations-jsonrpc").await;
}

#[tokio::test]
async fn operations_rest() {
    operations(Binding::Rest, "operations-rest").await;
}

/// Every operation succeeding, as an authenticated caller (so that the
/// extended card is served).
async fn operations(b: Binding, file: &str) {
    let server = bearer_server();
    let mut g = Group::new(
        file,
        "The 11 operations succeeding (spec 3.1), as the caller of token tok-a.",
    );
    let call =
        |method: &str, params: Value| op(b, method, params).header("authorization", "Bearer tok-a");

    let r = g
        .call(
            &server,
            "send-message-task",
            call("SendMessage", user("m-echo", "echo hello", None)),
        )
        .await;
    let t1 = text(&b.result(&r)["task"]["id"]);
    g.call(
        &server,
        "send-message-direct",
        call("SendMessage", user("m-direct", "message hi", None)),
    )
    .await;
    g.call(
        &server,
        "get-task-history-length",
        call("GetTask", json!({"id": t1, "historyLength": 1})),
    )
    .await;
    let r = g
        .call(
            &server,
            "send-message-input-required",
            call("SendMessage", user("m-input", "input", Some("golden-ctx"))),
        )
        .await;
    let t2 = text(&b.result(&r)["task"]["id"]);
    g.call(
        &server,
        "send-message-in-context",
        call(
            "SendMessage",
            user("m-ctx", "echo again", Some("golden-ctx")),
        ),
    )
    .await;
    let r = g
        .call(
            &server,
            "list-tasks-context-page-1",
            call(
                "ListTasks",
                json!({"contextId": "golden-ctx", "pageSize": 1}),
            ),
        )
        .await;
    let token = text(&b.result(&r)["nextPageToken"]);
    g.call(
        &server,
        "list-tasks-context-page-2",
        call(
            "ListTasks",
            json!({"contextId": "golden-ctx", "pageSize": 1, "pageToken": token}),
        ),
    )
    .await;
    g.call(
        &server,
        "list-tasks-status-and-timestamp",
        call(
            "ListTasks",
            json!({
                "status": "TASK_STATE_INPUT_REQUIRED",
                "statusTimestampAfter": "2020-01-01T00:00:00Z",
                "historyLength": 0
            }),
        ),
    )
    .await;
    g.call(
        &server,
        "list-tasks-include-artifacts",
        call(
            "ListTasks",
            json!({"includeArtifacts": true, "pageSize": 2}),
        ),
    )
    .await;
    g.call(
        &server,
        "send-streaming-message",
        call("SendStreamingMessage", user("m-stream", "stream 3", None)),
    )
    .await;
    g.call(
        &server,
        "send-streaming-message-direct",
        call(
            "SendStreamingMessage",
            user("m-stream-direct", "message streamed", None),
        ),
    )
    .await;
    // The subscription stays open until the task is terminal (spec
    // 3.1.6): the Task is recorded, then the client goes away.
    let mut open = g
        .open(&server, call("SubscribeToTask", json!({"id": t2})))
        .await;
    open.read_events(1).await;
    g.push("subscribe-input-required", open.done());
    let r = g
        .call(
            &server,
            "create-push-config",
            call(
                "CreateTaskPushNotificationConfig",
                json!({
                    "taskId": t2,
                    "url": "https://example.com/golden-hook",
                    "token": "tok-notify",
                    "authentication": {"scheme": "Bearer", "credentials": "cred-1"}
                }),
            ),
        )
        .await;
    let p1 = text(&b.result(&r)["id"]);
    g.call(
        &server,
        "get-push-config",
        call(
            "GetTaskPushNotificationConfig",
            json!({"taskId": t2, "id": p1}),
        ),
    )
    .await;
    g.call(
        &server,
        "list-push-configs",
        call("ListTaskPushNotificationConfigs", json!({"taskId": t2})),
    )
    .await;
    g.call(
        &server,
        "delete-push-config",
        call(
            "DeleteTaskPushNotificationConfig",
            json!({"taskId": t2, "id": p1}),
        ),
    )
    .await;
    g.call(
        &server,
        "list-push-configs-after-delete",
        call("ListTaskPushNotificationConfigs", json!({"taskId": t2})),
    )
    .await;
    g.call(
        &server,
        "cancel-input-required",
        call("CancelTask", json!({"id": t2})),
    )
    .await;
    g.call(
        &server,
        "cancel-again-is-idempotent",
        call("CancelTask", json!({"id": t2})),
    )
    .await;
    g.call(
        &server,
        "get-extended-agent-card",
        call("GetExtendedAgentCard", json!({})),
    )
    .await;
    g.finish();
}

#[tokio::test]
async fn errors_jsonrpc() {
    let server = server(|_| {}, ServerConfig::new(), None);
    let mut g = Group::new(
        "errors-jsonrpc",
        "JSON-RPC errors (spec 9.5, 5.4) and transport refusals at `/`.",
    );
    let b = Binding::JsonRpc;
    let raw = |body: &'static str| Req::new(Method::POST, "/").body("application/json", body);
    g.call(&server, "parse-error", raw(r#"{"jsonrpc":"2.0","id":1,"#))
        .await;
    g.call(
        &server,
        "invalid-request-batch",
        raw(r#"[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}]"#),
    )
    .await;
    g.call(
        &server,
        "invalid-request-notification",
        raw(r#"{"jsonrpc":"2.0","method":"GetTask","params":{"id":"x"}}"#),
    )
    .await;
    g.call(&server, "invalid-request-not-an-object", raw("42"))
        .await;
    g.call(
        &server,
        "invalid-request-wrong-jsonrpc-version",
        raw(r#"{"jsonrpc":"1.0","id":1,"method":"GetTask","params":{"id":"x"}}"#),
    )
    .await;
    g.call(
        &server,
        "method-not-found",
        raw(r#"{"jsonrpc":"2.0","id":"a","method":"tasks/get","params":{"id":"x"}}"#),
    )
    .await;
    common_errors(&mut g, &server, b).await;
    g.call(&server, "get-is-405", Req::new(Method::GET, "/"))
        .await;
    g.call(
        &server,
        "content-type-is-415",
        Req::new(Method::POST, "/").body(
            "text/plain",
            r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}"#,
        ),
    )
    .await;
    g.call(
        &server,
        "malformed-content-length",
        rpc("GetTask", json!({"id": "x"})).header("content-length", "12x"),
    )
    .await;
    g.call(
        &server,
        "disagreeing-content-lengths",
        rpc("GetTask", json!({"id": "x"}))
            .header("content-length", "10")
            .header("content-length", "11"),
    )
    .await;
    g.call(
        &server,
        "bad-query-string",
        rpc_at("/?%zz=1", "GetTask", json!({"id": "x"})),
    )
    .await;
    g.finish();
}

#[tokio::test]
async fn errors_rest() {
    let server = server(|_| {}, ServerConfig::new(), None);
    let mut g = Group::new(
        "errors-rest",
        "HTTP+JSON errors (spec 11.6, 5.4) and transport refusals.",
    );
    let b = Binding::Rest;
    let send =
        |body: &'static str| Req::new(Method::POST, "/message:send").body("application/json", body);
    g.call(&server, "parse-error", send(r#"{"message":"#)).await;
    g.call(&server, "body-not-an-object", send("[1]")).await;
    g.call(
        &server,
        "unknown-route-is-404",
        Req::new(Method::GET, "/no/such/route"),
    )
    .await;
    g.call(
        &server,
        "unknown-custom-method-on-a-task-path",
        Req::new(Method::POST, "/tasks/x:frobnicate"),
    )
    .await;
    g.call(
        &server,
        "wrong-method-is-405",
        Req::new(Method::GET, "/message:send"),
    )
    .await;
    g.call(
        &server,
        "wrong-method-on-tasks-is-405",
        Req::new(Method::PUT, "/tasks"),
    )
    .await;
    common_errors(&mut g, &server, b).await;
    g.call(
        &server,
        "bad-query-value-page-size",
        Req::new(Method::GET, "/tasks?pageSize=ten"),
    )
    .await;
    g.call(
        &server,
        "bad-query-value-status",
        Req::new(Method::GET, "/tasks?status=DONE"),
    )
    .await;
    g.call(
        &server,
        "bad-query-value-timestamp",
        Req::new(Method::GET, "/tasks?statusTimestampAfter=yesterday"),
    )
    .await;
    g.call(
        &server,
        "bad-query-value-include-artifacts",
        Req::new(Method::GET, "/tasks?includeArtifacts=maybe"),
    )
    .await;
    g.call(
        &server,
        "bad-query-string-escape",
        Req::new(Method::GET, "/tasks?pageSize=%zz"),
    )
    .await;
    g.call(
        &server,
        "bad-query-string-empty-name",
        Req::new(Method::GET, "/tasks?=1"),
    )
    .await;
    g.call(
        &server,
        "path-contradicts-body",
        Req::new(Method::POST, "/tasks/task-a:cancel").json(&json!({"id": "task-b"})),
    )
    .await;
    g.call(
        &server,
        "content-type-is-415",
        Req::new(Method::POST, "/message:send").body("text/plain", r#"{"message":{}}"#),
    )
    .await;
    g.call(
        &server,
        "malformed-content-length",
        Req::new(Method::GET, "/tasks").header("content-length", "-1"),
    )
    .await;
    g.finish();
}

/// The errors that read the same on both bindings: invalid params, the
/// task errors, the version (spec 3.6), a stream refused before its first
/// event.
async fn common_errors(g: &mut Group, server: &Server, b: Binding) {
    let mut no_message_id = user("", "hi", None);
    no_message_id["message"]
        .as_object_mut()
        .map(|m| m.remove("messageId"));
    g.call(
        server,
        "invalid-params-missing-message-id",
        op(b, "SendMessage", no_message_id),
    )
    .await;
    g.call(
        server,
        "invalid-params-missing-message",
        op(b, "SendMessage", json!({})),
    )
    .await;
    g.call(
        server,
        "invalid-params-page-size",
        op(b, "ListTasks", json!({"pageSize": 0})),
    )
    .await;
    g.call(
        server,
        "invalid-params-negative-history-length",
        op(b, "GetTask", json!({"id": "x", "historyLength": -1})),
    )
    .await;
    g.call(
        server,
        "invalid-params-stream-count",
        op(b, "SendStreamingMessage", user("m-bad", "stream 0", None)),
    )
    .await;
    g.call(
        server,
        "task-not-found",
        op(b, "GetTask", json!({"id": "no-such-task"})),
    )
    .await;
    let r = g
        .call(
            server,
            "completed-task",
            op(b, "SendMessage", user("m-done", "echo done", None)),
        )
        .await;
    let done = text(&b.result(&r)["task"]["id"]);
    g.call(
        server,
        "task-not-cancelable",
        op(b, "CancelTask", json!({"id": done})),
    )
    .await;
    let mut follow = user("m-follow", "more", None);
    follow["message"]["taskId"] = json!(done);
    g.call(
        server,
        "unsupported-operation-terminal-task",
        op(b, "SendMessage", follow),
    )
    .await;
    g.call(
        server,
        "unsupported-operation-subscribe-terminal",
        op(b, "SubscribeToTask", json!({"id": done})),
    )
    .await;
    g.call(
        server,
        "extended-card-not-configured",
        op(b, "GetExtendedAgentCard", json!({})),
    )
    .await;
    let get = || op(b, "GetTask", json!({"id": done}));
    g.call(server, "version-missing", get().without("a2a-version"))
        .await;
    g.call(server, "version-0.3", get().header("a2a-version", "0.3"))
        .await;
    g.call(server, "version-9.9", get().header("a2a-version", "9.9"))
        .await;
    g.call(
        server,
        "version-1.0.3-is-1.0",
        get().header("a2a-version", "1.0.3"),
    )
    .await;
}

#[tokio::test]
async fn capabilities() {
    let server = server(
        |c| {
            c.streaming = false;
            c.push_notifications = false;
        },
        ServerConfig::new(),
        None,
    );
    let mut g = Group::new(
        "capabilities",
        "Operations the card does not declare (spec 3.3.4): no streaming, no push, no extended card.",
    );
    for b in BOTH {
        let p = b.prefix();
        let r = g
            .call(
                &server,
                &format!("{p}-send-message-input"),
                op(b, "SendMessage", user("m-input", "input", None)),
            )
            .await;
        let t = text(&b.result(&r)["task"]["id"]);
        g.call(
            &server,
            &format!("{p}-streaming-unsupported"),
            op(b, "SendStreamingMessage", user("m-s", "stream 3", None)),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-subscribe-unsupported"),
            op(b, "SubscribeToTask", json!({"id": t})),
        )
        .await;
        let config = json!({"taskId": t, "url": "https://example.com/hook"});
        g.call(
            &server,
            &format!("{p}-create-push-not-supported"),
            op(b, "CreateTaskPushNotificationConfig", config),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-get-push-not-supported"),
            op(
                b,
                "GetTaskPushNotificationConfig",
                json!({"taskId": t, "id": "push-1"}),
            ),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-list-push-not-supported"),
            op(b, "ListTaskPushNotificationConfigs", json!({"taskId": t})),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-delete-push-not-supported"),
            op(
                b,
                "DeleteTaskPushNotificationConfig",
                json!({"taskId": t, "id": "push-1"}),
            ),
        )
        .await;
        let mut inline = user("m-inline", "echo x", None);
        inline["configuration"] =
            json!({"taskPushNotificationConfig": {"url": "https://example.com/hook"}});
        g.call(
            &server,
            &format!("{p}-inline-push-not-supported"),
            op(b, "SendMessage", inline),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-extended-card-not-configured"),
            op(b, "GetExtendedAgentCard", json!({})),
        )
        .await;
    }
    g.finish();
}

#[tokio::test]
async fn extensions() {
    const URI: &str = "https://golden.test/ext/required";
    let server = server(|_| {}, ServerConfig::new(), Some(URI));
    let mut g = Group::new(
        "extensions",
        "A card with a required extension (spec 3.2.6, 3.3.4).",
    );
    for b in BOTH {
        let p = b.prefix();
        let send = || op(b, "SendMessage", user("m-ext", "echo ext", None));
        g.call(&server, &format!("{p}-extension-not-requested"), send())
            .await;
        g.call(
            &server,
            &format!("{p}-other-extension-requested"),
            send().header("a2a-extensions", "https://golden.test/ext/other"),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-extension-requested"),
            send().header("a2a-extensions", URI),
        )
        .await;
    }
    g.finish();
}

#[tokio::test]
async fn auth() {
    let server = bearer_server();
    let mut g = Group::new(
        "auth",
        "Bearer authentication (spec 7.4, 7.5): 401 with WWW-Authenticate, 403.",
    );
    let card = Req::new(Method::GET, "/.well-known/agent-card.json").without("a2a-version");
    g.call(&server, "card-is-public", card).await;
    for b in BOTH {
        let p = b.prefix();
        let get = || op(b, "GetTask", json!({"id": "no-such-task"}));
        g.call(&server, &format!("{p}-no-credentials"), get()).await;
        g.call(
            &server,
            &format!("{p}-unknown-token"),
            get().header("authorization", "Bearer wrong"),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-empty-token"),
            get().header("authorization", "Bearer "),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-two-authorization-headers"),
            get()
                .header("authorization", "Bearer tok-a")
                .header("authorization", "Bearer tok-a"),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-forbidden"),
            get().header("authorization", "Bearer tok-banned"),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-authenticated"),
            get().header("authorization", "Bearer tok-a"),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-extended-card-anonymous"),
            op(b, "GetExtendedAgentCard", json!({})),
        )
        .await;
    }
    g.finish();
}

#[tokio::test]
async fn limits() {
    let limited = server(
        |_| {},
        ServerConfig::new()
            .with_max_body_size(256)
            .with_max_path_len(64),
        None,
    );
    let jsonrpc_only = server(
        |_| {},
        ServerConfig::new().without_rest().with_max_path_len(64),
        None,
    );
    let mut g = Group::new(
        "limits",
        "Request bounds: bodies over 256 bytes (413), paths over 64 bytes (414); \
         the last exchanges are on a server with JSON-RPC only.",
    );
    let big = "x".repeat(300);
    for b in BOTH {
        let p = b.prefix();
        let body = op(
            b,
            "SendMessage",
            user("m-big", &format!("echo {big}"), None),
        );
        g.call(&limited, &format!("{p}-body-too-large"), body).await;
        let declared = op(b, "SendMessage", user("m-small", "echo small", None))
            .header("content-length", "100000");
        g.call(&limited, &format!("{p}-content-length-too-large"), declared)
            .await;
        let fits = op(b, "SendMessage", user("m-fits", "echo fits", None));
        g.call(&limited, &format!("{p}-body-within-limit"), fits)
            .await;
    }
    let long = format!("/tasks/{}", "t".repeat(64));
    g.call(&limited, "rest-path-too-long", Req::new(Method::GET, &long))
        .await;
    g.call(
        &jsonrpc_only,
        "jsonrpc-only-path-too-long",
        Req::new(Method::POST, &long).json(&json!({})),
    )
    .await;
    g.call(
        &jsonrpc_only,
        "jsonrpc-only-unknown-path-is-404",
        Req::new(Method::GET, "/tasks"),
    )
    .await;
    g.finish();
}

#[tokio::test]
async fn grpc() {
    let served = server(|_| {}, ServerConfig::new(), None);
    let limited = server(|_| {}, ServerConfig::new().with_max_body_size(64), None);
    let mut g = Group::new(
        "grpc",
        "The gRPC binding (spec 10) over the same pipeline: bodies are 5-byte-prefixed \
         protobuf messages (shown escaped), `<t` lines the trailers; an error before any \
         message is trailers-only. Only answers without timestamps are recorded (a \
         protobuf timestamp is binary, so it cannot be normalised).",
    );
    let send = |text: &str| {
        let json = user("m-1", text, None).to_string();
        let request: a2a_types::SendMessageRequest =
            a2a_types::from_slice(json.as_bytes()).expect("a request");
        grpc::encode_message(&request).expect("a frame")
    };
    let get = |id: &str| {
        let request = a2a_types::GetTaskRequest {
            id: id.to_owned(),
            ..Default::default()
        };
        grpc::encode_message(&request).expect("a frame")
    };
    g.call(
        &served,
        "unary-message-then-ok-trailers",
        grpc_call("SendMessage", send("message hi")),
    )
    .await;
    g.call(
        &served,
        "stream-of-one-message-then-ok-trailers",
        grpc_call("SendStreamingMessage", send("message hi")),
    )
    .await;
    g.call(
        &served,
        "task-not-found-is-not-found",
        grpc_call("GetTask", get("task-missing")),
    )
    .await;
    g.call(
        &served,
        "missing-id-is-invalid-argument",
        grpc_call("GetTask", get("")),
    )
    .await;
    g.call(
        &served,
        "unsupported-version-is-failed-precondition",
        grpc_call("GetTask", get("t")).header("a2a-version", "9.9"),
    )
    .await;
    g.call(
        &served,
        "no-version-is-0.3-not-served",
        grpc_call("GetTask", get("t")).without("a2a-version"),
    )
    .await;
    let mut short = get("t").to_vec();
    short[4] += 3;
    g.call(
        &served,
        "length-prefix-past-the-body-is-internal",
        grpc_call("GetTask", short.into()),
    )
    .await;
    let mut compressed = get("t").to_vec();
    compressed[0] = 1;
    g.call(
        &served,
        "compressed-without-encoding-is-internal",
        grpc_call("GetTask", compressed.into()),
    )
    .await;
    g.call(
        &served,
        "gzip-encoding-is-unimplemented",
        grpc_call("GetTask", get("t")).header("grpc-encoding", "gzip"),
    )
    .await;
    g.call(
        &served,
        "unknown-method-is-unimplemented",
        grpc_call("Nope", get("t")),
    )
    .await;
    g.call(
        &served,
        "invalid-grpc-timeout-is-internal",
        grpc_call("GetTask", get("t")).header("grpc-timeout", "soon"),
    )
    .await;
    g.call(
        &served,
        "json-content-type-is-415",
        grpc_call("GetTask", get("t"))
            .without("content-type")
            .header("content-type", "application/json"),
    )
    .await;
    let mut not_post = grpc_call("GetTask", Bytes::new());
    not_post.method = Method::GET;
    g.call(&served, "get-is-405", not_post).await;
    g.call(
        &limited,
        "declared-length-over-the-limit-is-resource-exhausted",
        grpc_call("SendMessage", Bytes::from_static(&[0, 0, 0, 4, 0])),
    )
    .await;
    g.call(
        &limited,
        "body-over-the-limit-is-resource-exhausted",
        grpc_call("SendMessage", send(&"x".repeat(100))),
    )
    .await;
    g.finish();
}

#[tokio::test]
async fn streams() {
    // One task at most: creating a second evicts the first, which ends the
    // first one's streams with TaskNotFoundError.
    let server = server(|c| c.limits.max_tasks = 1, ServerConfig::new(), None);
    let mut g = Group::new(
        "streams",
        "Streams (spec 3.1.2, 3.1.6, 9.4.2, 11.7) on an agent that keeps one task: \
         a stream that ends with an error frame when its task is evicted.",
    );
    for b in BOTH {
        let p = b.prefix();
        let stream = op(
            b,
            "SendStreamingMessage",
            user("m-slow", "slow 30000", None),
        );
        let mut open = g.open(&server, stream).await;
        // The task, then WORKING: from here on the task sits still.
        open.read_events(2).await;
        let evict = g
            .fetch(
                &server,
                op(b, "SendMessage", user("m-evict", "echo evict", None)),
            )
            .await;
        open.read_to_end().await;
        g.push(&format!("{p}-stream-ends-with-error"), open.done());
        g.push(&format!("{p}-evicting-send"), evict);
        let r = g
            .call(
                &server,
                &format!("{p}-send-message-input"),
                op(b, "SendMessage", user("m-in", "input", None)),
            )
            .await;
        let t = text(&b.result(&r)["task"]["id"]);
        let mut answer = user("m-answer", "blue", None);
        answer["message"]["taskId"] = json!(t);
        g.call(
            &server,
            &format!("{p}-stream-resuming-input-required"),
            op(b, "SendStreamingMessage", answer),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-stream-fail"),
            op(b, "SendStreamingMessage", user("m-fail", "fail", None)),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-stream-reject"),
            op(b, "SendStreamingMessage", user("m-reject", "reject", None)),
        )
        .await;
        g.call(
            &server,
            &format!("{p}-subscribe-unknown-task"),
            op(b, "SubscribeToTask", json!({"id": "no-such-task"})),
        )
        .await;
    }
    g.finish();
}

/// A 0.3 HTTP+JSON request (no `A2A-Version`: spec 3.6.2) with a JSON
/// body in the 0.3 proto's ProtoJSON, as the 0.3 SDK REST clients send it.
fn v03(method: Method, target: &str, body: Option<Value>) -> Req {
    let r = Req::new(method, target).without("a2a-version");
    match body {
        Some(body) => r.json(&body),
        None => r,
    }
}

/// A 0.3 proto-form message.
fn v03_user(id: &str, text: &str) -> Value {
    json!({"messageId": id, "role": "ROLE_USER", "content": [{"text": text}]})
}

#[tokio::test]
async fn v0_3_rest() {
    let server = server(
        |c| {
            c.interfaces
                .push(AgentInterface::new("http://golden.test/", "JSONRPC", "0.3"));
            c.interfaces.push(AgentInterface::new(
                "http://golden.test",
                "HTTP+JSON",
                "0.3",
            ));
        },
        ServerConfig::new().with_versions([
            a2a_transport::ProtocolVersion::V1_0,
            a2a_transport::ProtocolVersion::V0_3,
        ]),
        None,
    );
    let mut g = Group::new(
        "v0_3-rest",
        "A2A 0.3 on HTTP+JSON (0.3 spec 3.2.3, 3.5.6, 7): requests without A2A-Version, \
         bodies and answers in the 0.3 proto's ProtoJSON, errors as JSON-RPC error objects.",
    );
    let sent = g
        .call(
            &server,
            "send-message-task",
            v03(
                Method::POST,
                "/v1/message:send",
                Some(json!({"message": v03_user("m-echo", "echo hello"),
                    "configuration": {"blocking": true}})),
            ),
        )
        .await;
    let task = text(&sent["task"]["id"]);
    g.call(
        &server,
        "send-message-direct",
        v03(
            Method::POST,
            "/v1/message:send",
            Some(json!({"message": v03_user("m-direct", "message hi")})),
        ),
    )
    .await;
    g.call(
        &server,
        "send-message-jsonrpc-shape",
        v03(
            Method::POST,
            "/v1/message:send",
            Some(
                json!({"message": {"kind": "message", "messageId": "m-rpc", "role": "user",
                "parts": [{"kind": "text", "text": "echo shape"}]}}),
            ),
        ),
    )
    .await;
    g.call(
        &server,
        "send-message-invalid",
        v03(
            Method::POST,
            "/v1/message:send",
            Some(json!({"message": {"messageId": "m-bad", "role": "ROLE_USER", "content": 7}})),
        ),
    )
    .await;
    g.call(
        &server,
        "get-task",
        v03(
            Method::GET,
            &format!("/v1/tasks/{task}?historyLength=1"),
            None,
        ),
    )
    .await;
    g.call(
        &server,
        "get-task-unknown",
        v03(Method::GET, "/v1/tasks/no-such-task", None),
    )
    .await;
    g.call(
        &server,
        "cancel-task-terminal",
        v03(Method::POST, &format!("/v1/tasks/{task}:cancel"), None),
    )
    .await;
    let input = g
        .call(
            &server,
            "send-message-input-required",
            v03(
                Method::POST,
                "/v1/message:send",
                Some(json!({"message": v03_user("m-input", "input")})),
            ),
        )
        .await;
    let waiting = text(&input["task"]["id"]);
    g.call(
        &server,
        "cancel-task",
        v03(
            Method::POST,
            &format!("/v1/tasks/{waiting}:cancel"),
            Some(json!({"name": format!("tasks/{waiting}")})),
        ),
    )
    .await;
    g.call(
        &server,
        "stream",
        v03(
            Method::POST,
            "/v1/message:stream",
            Some(json!({"message": v03_user("m-stream", "stream 3")})),
        ),
    )
    .await;
    g.call(
        &server,
        "stream-fail",
        v03(
            Method::POST,
            "/v1/message:stream",
            Some(json!({"message": v03_user("m-fail", "fail")})),
        ),
    )
    .await;
    for method in [Method::GET, Method::POST] {
        g.call(
            &server,
            &format!("subscribe-{}-unknown-task", method.as_str().to_lowercase()),
            v03(method, "/v1/tasks/no-such-task:subscribe", None),
        )
        .await;
    }
    let config = json!({"id": "c1", "url": "https://example.com/golden-hook", "token": "t",
        "authentication": {"schemes": ["Bearer"], "credentials": "secret"}});
    g.call(
        &server,
        "create-push-config-python-form",
        v03(
            Method::POST,
            &format!("/v1/tasks/{task}/pushNotificationConfigs"),
            Some(json!({"parent": format!("tasks/{task}"), "configId": "c1",
                "config": {"name": format!("tasks/{task}/pushNotificationConfigs/c1"),
                    "pushNotificationConfig": config}})),
        ),
    )
    .await;
    g.call(
        &server,
        "create-push-config-js-form",
        v03(
            Method::POST,
            &format!("/v1/tasks/{task}/pushNotificationConfigs"),
            Some(
                json!({"name": format!("tasks/{task}/pushNotificationConfigs/c2"),
                "pushNotificationConfig": {"id": "c2", "url": "https://example.com/golden-hook"}}),
            ),
        ),
    )
    .await;
    g.call(
        &server,
        "get-push-config",
        v03(
            Method::GET,
            &format!("/v1/tasks/{task}/pushNotificationConfigs/c1"),
            None,
        ),
    )
    .await;
    g.call(
        &server,
        "list-push-configs",
        v03(
            Method::GET,
            &format!("/v1/tasks/{task}/pushNotificationConfigs"),
            None,
        ),
    )
    .await;
    g.call(
        &server,
        "delete-push-config",
        v03(
            Method::DELETE,
            &format!("/v1/tasks/{task}/pushNotificationConfigs/c2"),
            None,
        ),
    )
    .await;
    g.call(
        &server,
        "get-push-config-unknown",
        v03(
            Method::GET,
            &format!("/v1/tasks/{task}/pushNotificationConfigs/c2"),
            None,
        ),
    )
    .await;
    g.call(&server, "extended-card", v03(Method::GET, "/v1/card", None))
        .await;
    // 0.3 has no tasks/list; and the 1.0 paths are not 0.3 routes.
    g.call(
        &server,
        "list-tasks-not-found",
        v03(Method::GET, "/v1/tasks", None),
    )
    .await;
    g.call(
        &server,
        "one-point-zero-path-not-found",
        v03(
            Method::POST,
            "/message:send",
            Some(json!({"message": v03_user("m-1", "echo hi")})),
        ),
    )
    .await;
    // A 1.0 caller on the same server is served 1.0: `/v1/...` is tenant `v1`.
    g.call(
        &server,
        "one-point-zero-caller-tenant-v1",
        Req::new(Method::POST, "/v1/message:send").json(&json!({"message": {
            "messageId": "m-10", "role": "ROLE_USER", "parts": [{"text": "echo ten"}]}})),
    )
    .await;
    g.finish();
}

// ---------------------------------------------------------------------------
// Servers.

/// The reference agent behind an [`A2aServer`], with a fixed card (its
/// interfaces and version do not depend on the machine or the release).
fn server(
    tune: impl FnOnce(&mut AgentConfig),
    config: ServerConfig,
    required_extension: Option<&str>,
) -> Server {
    let mut agent = AgentConfig::default().with_interfaces(vec![
        AgentInterface::new("http://golden.test/", "JSONRPC", "1.0"),
        AgentInterface::new("http://golden.test", "HTTP+JSON", "1.0"),
        AgentInterface::new("http://golden.test", "GRPC", "1.0"),
    ]);
    agent.version = "0.0.0-golden".to_owned();
    tune(&mut agent);
    let agent = ReferenceAgent::new(agent, Arc::new(RecordingPushSender::new()));
    let mut card = agent.agent_card().clone();
    // The card declares only what the server serves (spec 8.3.1).
    if config.rest_base_path.is_none() {
        card.supported_interfaces
            .retain(|i| i.protocol_binding != "HTTP+JSON");
    }
    if let Some(uri) = required_extension {
        card.capabilities.extensions.push(AgentExtension {
            uri: uri.to_owned(),
            description: "An extension every client must request".to_owned(),
            required: true,
            params: None,
        });
    }
    // The reference agent's own settings (`ReferenceAgent::server_config`),
    // with a fixed card time so that `Last-Modified` is deterministic.
    let config = config
        .with_input_mode_check(true)
        .with_card_last_modified(std::time::UNIX_EPOCH + Duration::from_secs(1_700_000_000));
    A2aServer::new(agent, card, config).expect("a valid server configuration")
}

/// A server whose card requires a bearer token: `tok-a` is the caller
/// `caller-a`, `tok-banned` a known caller who is refused.
fn bearer_server() -> Server {
    let auth = Gatekeeper(BearerAuth::new("bearer").with_token("tok-a", "caller-a"));
    server(
        |c| c.bearer_scheme = Some("bearer".to_owned()),
        ServerConfig::new().with_authenticator(auth),
        None,
    )
}

/// [`BearerAuth`] never refuses a caller it knows; this one refuses
/// `tok-banned` (403, spec 7.5), as a host's access policy would.
struct Gatekeeper(BearerAuth);

impl Authenticator for Gatekeeper {
    fn authenticate<'a>(&'a self, request: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        let banned = request
            .headers
            .get_all(http::header::AUTHORIZATION)
            .iter()
            .any(|v| v == "Bearer tok-banned");
        if banned {
            let outcome = AuthOutcome::Forbidden("caller-banned may not use this agent".to_owned());
            return Box::pin(std::future::ready(outcome));
        }
        self.0.authenticate(request)
    }
}

// ---------------------------------------------------------------------------
// Requests.

/// Which binding a call goes over.
#[derive(Debug, Clone, Copy)]
enum Binding {
    JsonRpc,
    Rest,
}

const BOTH: [Binding; 2] = [Binding::JsonRpc, Binding::Rest];

impl Binding {
    fn prefix(self) -> &'static str {
        match self {
            Binding::JsonRpc => "jsonrpc",
            Binding::Rest => "rest",
        }
    }

    /// The result in a decoded response body: JSON-RPC's `result`, or the
    /// bare body of HTTP+JSON.
    fn result(self, body: &Value) -> &Value {
        match self {
            Binding::JsonRpc => &body["result"],
            Binding::Rest => body,
        }
    }
}

/// A request: method, target (path and query), headers in order, body.
#[derive(Debug, Clone)]
struct Req {
    method: Method,
    target: String,
    headers: Vec<(&'static str, String)>,
    body: Bytes,
}

impl Req {
    /// A request with `A2A-Version: 1.0` and no body.
    fn new(method: Method, target: &str) -> Req {
        Req {
            method,
            target: target.to_owned(),
            headers: vec![("a2a-version", "1.0".to_owned())],
            body: Bytes::new(),
        }
    }

    /// Adds a header; a header named `a2a-version` replaces the default.
    fn header(mut self, name: &'static str, value: &str) -> Req {
        if name == "a2a-version" {
            self = self.without(name);
        }
        self.headers.push((name, value.to_owned()));
        self
    }

    fn without(mut self, name: &str) -> Req {
        self.headers.retain(|(n, _)| *n != name);
        self
    }

    fn body(mut self, content_type: &str, body: &str) -> Req {
        self.body = Bytes::from(body.to_owned());
        self.header("content-type", content_type)
    }

    fn json(self, v: &Value) -> Req {
        self.body("application/json", &v.to_string())
    }

    fn to_http(&self) -> Request<Bytes> {
        let mut builder = Request::builder()
            .method(self.method.clone())
            .uri(&self.target);
        for (name, value) in &self.headers {
            builder = builder.header(*name, value);
        }
        builder
            .body(self.body.clone())
            .unwrap_or_else(|e| panic!("cannot build {self:?}: {e}"))
    }
}

/// A gRPC call of `method` (`/lf.a2a.v1.A2AService/{method}`) whose body
/// is `frame`, as it is.
fn grpc_call(method: &str, frame: Bytes) -> Req {
    let mut r = Req::new(Method::POST, &format!("/{}/{method}", grpc::SERVICE_NAME))
        .header("content-type", "application/grpc")
        .header("te", "trailers");
    r.body = frame;
    r
}

/// A JSON-RPC call at `/`.
fn rpc(method: &str, params: Value) -> Req {
    rpc_at("/", method, params)
}

fn rpc_at(target: &str, method: &str, params: Value) -> Req {
    let envelope = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    Req::new(Method::POST, target).json(&envelope)
}

/// `method` (a JSON-RPC method name) with `params` over binding `b`: on
/// HTTP+JSON, its route (spec 11.3) with the path parameters taken out of
/// `params` and, for `GET` and `DELETE`, the rest as the query (11.5).
fn op(b: Binding, method: &str, params: Value) -> Req {
    match b {
        Binding::JsonRpc => rpc(method, params),
        Binding::Rest => rest(method, params),
    }
}

fn rest(method: &str, p: Value) -> Req {
    let id = p["id"].as_str().unwrap_or_default();
    let task_id = p["taskId"].as_str().unwrap_or_default();
    let configs = format!("/tasks/{task_id}/pushNotificationConfigs");
    match method {
        "SendMessage" => Req::new(Method::POST, "/message:send").json(&p),
        "SendStreamingMessage" => Req::new(Method::POST, "/message:stream").json(&p),
        "GetTask" => Req::new(Method::GET, &format!("/tasks/{id}{}", query(&p, &["id"]))),
        "ListTasks" => Req::new(Method::GET, &format!("/tasks{}", query(&p, &[]))),
        "CancelTask" => Req::new(Method::POST, &format!("/tasks/{id}:cancel")),
        "SubscribeToTask" => Req::new(Method::GET, &format!("/tasks/{id}:subscribe")),
        "CreateTaskPushNotificationConfig" => Req::new(Method::POST, &configs).json(&p),
        "GetTaskPushNotificationConfig" => Req::new(Method::GET, &format!("{configs}/{id}")),
        "ListTaskPushNotificationConfigs" => Req::new(Method::GET, &configs),
        "DeleteTaskPushNotificationConfig" => Req::new(Method::DELETE, &format!("{configs}/{id}")),
        "GetExtendedAgentCard" => Req::new(Method::GET, "/extendedAgentCard"),
        other => panic!("no HTTP+JSON route for {other}"),
    }
}

/// The members of `params` but `skip` as a query string (values are
/// URL-safe as the tests choose them).
fn query(params: &Value, skip: &[&str]) -> String {
    let pairs: Vec<String> = params
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !skip.contains(&k.as_str()))
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}={s}"),
            other => format!("{k}={other}"),
        })
        .collect();
    if pairs.is_empty() {
        String::new()
    } else {
        format!("?{}", pairs.join("&"))
    }
}

/// A `SendMessage` request of one user text part.
fn user(message_id: &str, text: &str, context_id: Option<&str>) -> Value {
    let mut message =
        json!({"messageId": message_id, "role": "ROLE_USER", "parts": [{"text": text}]});
    if let Some(c) = context_id {
        message["contextId"] = json!(c);
    }
    json!({ "message": message })
}

fn text(v: &Value) -> String {
    v.as_str()
        .unwrap_or_else(|| panic!("expected a string, got {v}"))
        .to_owned()
}

// ---------------------------------------------------------------------------
// Exchanges, their rendering and the files.

/// One request and the response it got, the body complete.
struct Exchange {
    request: Req,
    status: StatusCode,
    headers: HeaderMap,
    streamed: bool,
    body: Bytes,
    /// The trailers of a body that ends with them (gRPC).
    trailers: Option<HeaderMap>,
}

impl Exchange {
    /// The response body as JSON: the value, or for an SSE body the array
    /// of its `data:` payloads; `null` if it is neither.
    fn json(&self) -> Value {
        if self.streamed {
            let text = String::from_utf8_lossy(&self.body);
            let events = text
                .split("\n\n")
                .filter_map(|frame| frame.lines().find_map(|l| l.strip_prefix("data: ")))
                .filter_map(|data| serde_json::from_str(data).ok())
                .collect();
            return Value::Array(events);
        }
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// A streaming response being read.
struct Open {
    request: Req,
    status: StatusCode,
    headers: HeaderMap,
    streamed: bool,
    /// What is left to read of the body.
    frames: Body,
    body: BytesMut,
}

impl Open {
    /// Reads until the body holds `n` complete events.
    async fn read_events(&mut self, n: usize) {
        while count(&self.body, b"\n\n") < n {
            let chunk = next_chunk(&mut self.frames)
                .await
                .unwrap_or_else(|| panic!("the stream ended before {n} events: {:?}", self.body));
            self.body.extend_from_slice(&chunk);
        }
    }

    async fn read_to_end(&mut self) {
        while let Some(chunk) = next_chunk(&mut self.frames).await {
            self.body.extend_from_slice(&chunk);
        }
    }

    fn done(self) -> Exchange {
        Exchange {
            request: self.request,
            status: self.status,
            headers: self.headers,
            streamed: self.streamed,
            body: self.body.freeze(),
            trailers: self.frames.trailers().cloned(),
        }
    }
}

/// The next chunk of SSE frames, failing the test after
/// [`EXCHANGE_TIMEOUT`].
async fn next_chunk(frames: &mut Body) -> Option<Bytes> {
    tokio::time::timeout(
        EXCHANGE_TIMEOUT,
        poll_fn(|cx| futures_core::Stream::poll_next(std::pin::Pin::new(&mut *frames), cx)),
    )
    .await
    .expect("the stream produced nothing for 5 s")
}

fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

/// The exchanges of one file, rendered and normalised as they happen.
struct Group {
    file: String,
    text: String,
    names: Vec<String>,
    ids: Normaliser,
}

impl Group {
    fn new(file: &str, title: &str) -> Group {
        let text = format!(
            "# {title}\n\
             # Written by `A2A_GOLDEN_RECORD=1 cargo test -p a2a-reference-agent --test golden`;\n\
             # do not edit. Format: README.md in this directory.\n"
        );
        Group {
            file: file.to_owned(),
            text,
            names: Vec::new(),
            ids: Normaliser::default(),
        }
    }

    /// Sends `request`, records the exchange as `name` and answers the
    /// response body as JSON (see [`Exchange::json`]).
    async fn call(&mut self, server: &Server, name: &str, request: Req) -> Value {
        let exchange = self.fetch(server, request).await;
        let json = exchange.json();
        self.push(name, exchange);
        json
    }

    /// Sends `request` and reads the whole response, without recording it.
    async fn fetch(&self, server: &Server, request: Req) -> Exchange {
        let mut open = self.open(server, request).await;
        open.read_to_end().await;
        open.done()
    }

    /// Sends `request`; the body is read by the caller.
    async fn open(&self, server: &Server, request: Req) -> Open {
        let response = tokio::time::timeout(EXCHANGE_TIMEOUT, server.handle(request.to_http()))
            .await
            .unwrap_or_else(|_| panic!("no response within 5 s to {request:?}"));
        let (parts, body) = response.into_parts();
        let streamed = body.is_stream();
        let (frames, body) = match body {
            Body::Full(bytes) => (Body::empty(), BytesMut::from(&bytes[..])),
            other => (other, BytesMut::new()),
        };
        Open {
            request,
            status: parts.status,
            headers: parts.headers,
            streamed,
            frames,
            body,
        }
    }

    /// Records `exchange` as `name`.
    fn push(&mut self, name: &str, exchange: Exchange) {
        assert!(
            !self.names.iter().any(|n| n == name),
            "{}: two exchanges named {name}",
            self.file
        );
        self.names.push(name.to_owned());
        let rendered = render(name, &exchange);
        self.text.push_str(&self.ids.normalise(&rendered));
    }

    /// Writes the file (record mode) or compares it with what was recorded.
    fn finish(self) {
        let path = golden_dir().join(format!("{}.txt", self.file));
        if std::env::var_os("A2A_GOLDEN_RECORD").is_some_and(|v| v == "1") {
            std::fs::create_dir_all(golden_dir()).expect("create tests/golden");
            std::fs::write(&path, &self.text)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            return;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {}: {e}; record it with A2A_GOLDEN_RECORD=1",
                path.display()
            )
        });
        if expected != self.text {
            let shown = format!("tests/golden/{}.txt", self.file);
            panic!("{}", mismatch(&shown, &expected, &self.text));
        }
    }
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Says which exchange of `path` differs, with both versions of it.
fn mismatch(path: &str, expected: &str, actual: &str) -> String {
    let want = exchanges(expected);
    let got = exchanges(actual);
    for i in 0..want.len().max(got.len()) {
        let (w, g) = (want.get(i), got.get(i));
        if w != g {
            let name = g.or(w).map_or("?", |e| e.0);
            return format!(
                "{path}: exchange {} ({name}) differs from the recording \
                 (re-record with A2A_GOLDEN_RECORD=1 if the change is intended)\n\
                 --- expected\n{}\n--- actual\n{}",
                i + 1,
                w.map_or("(no such exchange)", |e| e.1),
                g.map_or("(no such exchange)", |e| e.1),
            );
        }
    }
    format!("{path}: the file header differs\n--- expected\n{expected}\n--- actual\n{actual}")
}

/// The exchanges of a rendered file: (name, text from its `###` line),
/// header excluded.
fn exchanges(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut starts: Vec<usize> = text.match_indices("\n### ").map(|(at, _)| at + 1).collect();
    starts.push(text.len() + 1);
    for pair in starts.windows(2) {
        let block = &text[pair[0]..pair[1] - 1];
        let name = block["### ".len()..].lines().next().unwrap_or_default();
        out.push((name, block));
    }
    out
}

/// One exchange as text: `### name`, then the request lines prefixed
/// `> ` and the response lines prefixed `< ` (see the README).
fn render(name: &str, e: &Exchange) -> String {
    let mut out = format!("\n### {name}\n");
    let r = &e.request;
    out.push_str(&format!("> {} {}\n", r.method, r.target));
    let mut headers: Vec<(&str, &[u8])> =
        r.headers.iter().map(|(n, v)| (*n, v.as_bytes())).collect();
    headers.sort_by_key(|(n, _)| *n);
    render_headers(&mut out, ">", &headers);
    render_body(&mut out, ">", &r.body);
    let reason = e.status.canonical_reason().unwrap_or("");
    let kind = if e.streamed { " (stream)" } else { "" };
    out.push_str(&format!("< {} {reason}{kind}\n", e.status.as_u16()));
    let mut headers: Vec<(&str, &[u8])> = e
        .headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_bytes()))
        .collect();
    headers.sort_by_key(|(n, _)| *n);
    render_headers(&mut out, "<", &headers);
    render_body(&mut out, "<", &e.body);
    if let Some(trailers) = &e.trailers {
        let mut fields: Vec<(&str, &[u8])> = trailers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_bytes()))
            .collect();
        fields.sort_by_key(|(n, _)| *n);
        out.push_str("<t (trailers)\n");
        render_headers(&mut out, "<t", &fields);
    }
    out
}

fn render_headers(out: &mut String, prefix: &str, headers: &[(&str, &[u8])]) {
    for (name, value) in headers {
        out.push_str(&format!("{prefix} {name}: {}\n", printable(value)));
    }
}

/// A blank `>`/`<` line, then the body's lines each prefixed; a body
/// ending in a newline ends with a bare prefix line, so every byte shows.
/// Nothing at all for an empty body.
fn render_body(out: &mut String, prefix: &str, body: &[u8]) {
    if body.is_empty() {
        return;
    }
    out.push_str(prefix);
    out.push('\n');
    let text = match std::str::from_utf8(body) {
        Ok(t) if !t.chars().any(|c| c.is_control() && c != '\n') => t.to_owned(),
        _ => format!("(bytes) {}", body.escape_ascii()),
    };
    for line in text.split('\n') {
        out.push_str(prefix);
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line);
        }
        out.push('\n');
    }
}

/// Text as is when it is visible ASCII, else escaped.
fn printable(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(t) if t.bytes().all(|b| (b' '..=b'~').contains(&b)) => t.to_owned(),
        _ => format!("(bytes) {}", bytes.escape_ascii()),
    }
}

// ---------------------------------------------------------------------------
// Normalisation.

/// Replaces server-generated ids and page tokens by `<id:n>`, numbered by
/// first appearance across the exchanges of one file, and RFC 3339
/// timestamps by `<ts>`.
#[derive(Default)]
struct Normaliser {
    seen: Vec<String>,
}

impl Normaliser {
    fn normalise(&mut self, text: &str) -> String {
        let mut found: Vec<(usize, &str)> = server_ids(text);
        found.extend(page_tokens(text));
        found.sort_by_key(|(at, _)| *at);
        for (_, value) in found {
            if !self.seen.iter().any(|s| s == value) {
                self.seen.push(value.to_owned());
            }
        }
        let mut out = text.to_owned();
        // Longest first, so a value inside another is not replaced first.
        let mut order: Vec<usize> = (0..self.seen.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.seen[i].len()));
        for i in order {
            out = out.replace(&self.seen[i], &format!("<id:{}>", i + 1));
        }
        replace_timestamps(&out)
    }
}

/// The reference agent's ids, `<kind>-<8 hex>-<12 hex>` (see its
/// `IdGenerator`), with their offsets.
fn server_ids(text: &str) -> Vec<(usize, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for kind in ["task-", "ctx-", "msg-", "artifact-", "push-"] {
        for (at, _) in text.match_indices(kind) {
            let start = at + kind.len();
            let end = start + 8 + 1 + 12;
            // After a byte escaped as `\xNN` (a protobuf body) too.
            let escaped = at >= 4
                && b[at - 4..at - 2] == *b"\\x"
                && b[at - 2..at].iter().all(u8::is_ascii_hexdigit);
            let boundary = at == 0 || !b[at - 1].is_ascii_alphanumeric() || escaped;
            let shaped = b.len() >= end
                && b[start..start + 8].iter().all(is_hex)
                && b[start + 8] == b'-'
                && b[start + 9..end].iter().all(is_hex)
                && b.get(end).is_none_or(|c| !c.is_ascii_alphanumeric());
            if boundary && shaped {
                out.push((at, &text[at..end]));
            }
        }
    }
    out
}

fn is_hex(b: &u8) -> bool {
    b.is_ascii_digit() || (b'a'..=b'f').contains(b)
}

/// The non-empty values of `"nextPageToken"` members, with their offsets.
fn page_tokens(text: &str) -> Vec<(usize, &str)> {
    const KEY: &str = "\"nextPageToken\":\"";
    text.match_indices(KEY)
        .filter_map(|(at, _)| {
            let start = at + KEY.len();
            let len = text[start..].find('"')?;
            (len > 0).then(|| (start, &text[start..start + len]))
        })
        .collect()
}

/// `<ts>` for every `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`.
fn replace_timestamps(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        match timestamp_len(&b[i..]) {
            Some(len) => {
                out.push_str(&text[copied..i]);
                out.push_str("<ts>");
                i += len;
                copied = i;
            }
            None => i += 1,
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The length of the RFC 3339 timestamp `b` starts with, if any.
fn timestamp_len(b: &[u8]) -> Option<usize> {
    let shape = b"dddd-dd-ddTdd:dd:dd";
    if b.len() < shape.len() {
        return None;
    }
    let fits = shape.iter().zip(b).all(|(s, c)| match s {
        b'd' => c.is_ascii_digit(),
        s => s == c,
    });
    if !fits {
        return None;
    }
    let mut i = shape.len();
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    match b.get(i) {
        Some(b'Z') => Some(i + 1),
        Some(b'+' | b'-') => {
            let offset = b.get(i + 1..i + 6)?;
            let ok = offset[0].is_ascii_digit()
                && offset[1].is_ascii_digit()
                && offset[2] == b':'
                && offset[3].is_ascii_digit()
                && offset[4].is_ascii_digit();
            ok.then_some(i + 6)
        }
        _ => None,
    }
}

#[test]
fn normalising_is_by_first_appearance_and_covers_ids_tokens_and_timestamps() {
    let mut n = Normaliser::default();
    let a = "task-0123abcd-000000000002";
    let c = "ctx-0123abcd-000000000001";
    let first = n.normalise(&format!(
        r#"{{"id":"{a}","contextId":"{c}","ts":"2026-12-01T19:00:00.123Z","nextPageToken":"djE6MTox"}}"#
    ));
    assert_eq!(
        first,
        r#"{"id":"<id:1>","contextId":"<id:2>","ts":"<ts>","nextPageToken":"<id:3>"}"#
    );
    let second = n.normalise(&format!(
        "GET /tasks?pageToken=djE6MTox {c} {a} 2026-12-01T19:00:00+01:00 \
         task-0123abcd-00000000000 xtask-0123abcd-000000000009 \"nextPageToken\":\"\""
    ));
    assert_eq!(
        second,
        "GET /tasks?pageToken=<id:3> <id:2> <id:1> <ts> \
         task-0123abcd-00000000000 xtask-0123abcd-000000000009 \"nextPageToken\":\"\""
    );
}

#[test]
fn a_mismatch_names_the_exchange() {
    let header = "# title\n";
    let one = "\n### a\n> GET /\n< 200 OK\n";
    let two = "\n### b\n> GET /x\n< 200 OK\n";
    let changed = "\n### b\n> GET /x\n< 404 Not Found\n";
    let expected = format!("{header}{one}{two}");
    let actual = format!("{header}{one}{changed}");
    assert_eq!(exchanges(&expected), [("a", &one[1..]), ("b", &two[1..])]);
    let report = mismatch("f.txt", &expected, &actual);
    assert!(
        report.starts_with("f.txt: exchange 2 (b) differs"),
        "{report}"
    );
    assert!(
        report.contains(&format!("--- expected\n{}", &two[1..])),
        "{report}"
    );
    assert!(
        report.contains(&format!("--- actual\n{}", &changed[1..])),
        "{report}"
    );
}

#[test]
fn bodies_render_every_byte() {
    let mut out = String::new();
    render_body(&mut out, "<", b"data: {}\n\n");
    assert_eq!(out, "<\n< data: {}\n<\n<\n");
    let mut out = String::new();
    render_body(&mut out, "<", b"{}");
    assert_eq!(out, "<\n< {}\n");
    let mut out = String::new();
    render_body(&mut out, "<", b"a\r\n");
    assert_eq!(out, "<\n< (bytes) a\\r\\n\n");
    let mut out = String::new();
    render_body(&mut out, "<", b"");
    assert_eq!(out, "");
}

#[test]
fn every_recording_belongs_to_a_test() {
    const FILES: [&str; 13] = [
        "auth",
        "capabilities",
        "card",
        "errors-jsonrpc",
        "errors-rest",
        "exactness",
        "extensions",
        "grpc",
        "limits",
        "operations-jsonrpc",
        "operations-rest",
        "streams",
        "v0_3-rest",
    ];
    let Ok(dir) = std::fs::read_dir(golden_dir()) else {
        return;
    };
    let mut stale: Vec<String> = dir
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt") && !FILES.contains(&n.trim_end_matches(".txt")))
        .collect();
    stale.sort();
    assert!(stale.is_empty(), "recordings no test writes: {stale:?}");
}
