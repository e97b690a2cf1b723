//! The agent over real loopback HTTP, every scenario on both bindings
//! (JSON-RPC and HTTP+JSON) with the same expected outcome.

mod support;

use std::time::Duration;

use a2a_types::ErrorKind;
use http::{Method, StatusCode};
use serde_json::{json, Value};
use support::eventually;
use support::webhook::Webhook;
use support::wire::*;

#[tokio::test]
async fn card_send_get_and_direct_reply_on_both_bindings() {
    let server = Server::start(&[]).await;
    let c = server.client();
    let card = c
        .request(Method::GET, "/.well-known/agent-card.json", None)
        .await;
    assert_eq!(card.status, StatusCode::OK);
    let card = card.json();
    let bindings: Vec<_> = card["supportedInterfaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["protocolBinding"].clone())
        .collect();
    assert_eq!(
        bindings,
        [json!("JSONRPC"), json!("HTTP+JSON"), json!("GRPC")]
    );
    assert_eq!(
        card["supportedInterfaces"][2]["url"],
        format!("http://{}", server.addr)
    );
    assert_eq!(
        card["supportedInterfaces"][0]["url"],
        format!("http://{}/", server.addr)
    );

    for b in BOTH {
        let r = c
            .call(b, "SendMessage", user("m1", "echo hello"))
            .await
            .unwrap();
        let task = &r["task"];
        assert_eq!(state(task), "TASK_STATE_COMPLETED", "{b:?}");
        assert_eq!(task["artifacts"][0]["parts"][0]["text"], "hello");
        let id = task["id"].as_str().unwrap();
        let got = c
            .call(b, "GetTask", json!({"id": id, "historyLength": 0}))
            .await
            .unwrap();
        assert_eq!(got["id"], id);
        assert!(
            got.get("history").is_none(),
            "{b:?}: historyLength 0 omits history"
        );
        let r = c
            .call(b, "SendMessage", user("m2", "message hi"))
            .await
            .unwrap();
        assert_eq!(r["message"]["parts"][0]["text"], "hi", "{b:?}");
        assert_eq!(r["message"]["role"], "ROLE_AGENT");
    }
}

#[tokio::test]
async fn errors_are_the_same_on_both_bindings() {
    let server = Server::start(&[]).await;
    let c = server.client();
    let mut outcomes = Vec::new();
    for b in BOTH {
        let done = c.call(b, "SendMessage", user("d", "echo x")).await.unwrap()["task"]["id"]
            .as_str()
            .unwrap()
            .to_owned();
        let mut follow = user("f", "more");
        follow["message"]["taskId"] = json!(done);
        let kinds = [
            kind(c.call(b, "GetTask", json!({"id": "no-such-task"})).await),
            kind(c.call(b, "CancelTask", json!({"id": done})).await),
            kind(c.call(b, "SendMessage", follow).await),
            kind(c.stream(b, "SubscribeToTask", json!({"id": done})).await),
            kind(c.call(b, "ListTasks", json!({"pageSize": 150})).await),
            kind(c.call(b, "SendMessage", user("s", "stream 0")).await),
            kind(c.call(b, "GetExtendedAgentCard", json!({})).await),
        ];
        outcomes.push(kinds);
    }
    assert_eq!(
        outcomes[0],
        [
            ErrorKind::TaskNotFound,
            ErrorKind::TaskNotCancelable,
            ErrorKind::UnsupportedOperation,
            ErrorKind::UnsupportedOperation,
            ErrorKind::InvalidParams,
            ErrorKind::InvalidParams,
            ErrorKind::UnsupportedOperation,
        ]
    );
    assert_eq!(outcomes[0], outcomes[1]);
    // The HTTP statuses of the HTTP+JSON binding (spec 11.6).
    let r = c
        .send(Binding::Rest, "GetTask", json!({"id": "nope"}))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = c
        .send(Binding::Rest, "ListTasks", json!({"pageSize": 0}))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(String::from_utf8_lossy(&r.body).contains("Must be between 1 and 100 inclusive, got 0"));
}

#[tokio::test]
async fn streams_in_order_and_close_at_the_end() {
    let server = Server::start(&[]).await;
    let c = server.client();
    for b in BOTH {
        let events = c
            .stream(b, "SendStreamingMessage", user("s", "stream 3"))
            .await
            .unwrap();
        let kinds: Vec<String> = events.iter().map(describe_json).collect();
        assert_eq!(
            kinds,
            [
                "task:TASK_STATE_SUBMITTED",
                "status:TASK_STATE_WORKING",
                "artifact",
                "artifact+",
                "artifact+!",
                "status:TASK_STATE_COMPLETED"
            ],
            "{b:?}"
        );
        let events = c
            .stream(b, "SendStreamingMessage", user("m", "message yo"))
            .await
            .unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0]["message"]["parts"][0]["text"], "yo");
    }
}

fn describe_json(e: &Value) -> String {
    if let Some(t) = e.get("task") {
        format!("task:{}", state(t))
    } else if let Some(s) = e.get("statusUpdate") {
        format!("status:{}", state(s))
    } else if let Some(a) = e.get("artifactUpdate") {
        format!(
            "artifact{}{}",
            if a["append"] == true { "+" } else { "" },
            if a["lastChunk"] == true { "!" } else { "" }
        )
    } else {
        "message".into()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_subscribers_over_both_bindings_see_the_same_events() {
    let server = Server::start(&[]).await;
    let c = server.client();
    let mut req = user("sub", "stream 10 30");
    req["configuration"] = json!({"returnImmediately": true});
    let task = c.call(Binding::Rest, "SendMessage", req).await.unwrap();
    let id = task["task"]["id"].as_str().unwrap().to_owned();
    let mut handles = Vec::new();
    for i in 0..6 {
        let (c, id) = (c.clone(), id.clone());
        let b = BOTH[i % 2];
        handles.push(tokio::spawn(async move {
            c.stream(b, "SubscribeToTask", json!({"id": id}))
                .await
                .unwrap()
        }));
    }
    let mut runs = Vec::new();
    for h in handles {
        runs.push(h.await.unwrap());
    }
    for events in &runs {
        assert!(events[0].get("task").is_some(), "first the task");
        assert_eq!(
            describe_json(events.last().unwrap()),
            "status:TASK_STATE_COMPLETED"
        );
    }
    // After its snapshot, each stream is a suffix of the same sequence.
    let longest = runs.iter().max_by_key(|r| r.len()).unwrap().clone();
    for r in &runs {
        let tail = &r[1..];
        assert_eq!(tail, &longest[longest.len() - tail.len()..]);
    }
}

#[tokio::test]
async fn cancel_list_and_multi_turn_over_both_bindings() {
    let server = Server::start(&[]).await;
    let c = server.client();
    for b in BOTH {
        let mut req = user("slow", "slow 5000");
        req["configuration"] = json!({"returnImmediately": true});
        let t = c.call(b, "SendMessage", req).await.unwrap();
        let id = t["task"]["id"].as_str().unwrap();
        let canceled = c.call(b, "CancelTask", json!({"id": id})).await.unwrap();
        assert_eq!(state(&canceled), "TASK_STATE_CANCELED", "{b:?}");
        let again = c.call(b, "CancelTask", json!({"id": id})).await.unwrap();
        assert_eq!(state(&again), "TASK_STATE_CANCELED", "{b:?}: idempotent");

        let parked = c.call(b, "SendMessage", user("in", "input")).await.unwrap();
        assert_eq!(state(&parked["task"]), "TASK_STATE_INPUT_REQUIRED");
        let mut answer = user("ans", "blue");
        answer["message"]["taskId"] = parked["task"]["id"].clone();
        let done = c.call(b, "SendMessage", answer).await.unwrap();
        assert_eq!(state(&done["task"]), "TASK_STATE_COMPLETED");
        assert_eq!(
            done["task"]["artifacts"][0]["parts"][0]["text"],
            "got: blue"
        );
        assert_eq!(done["task"]["contextId"], parked["task"]["contextId"]);
    }
    for b in BOTH {
        let page = c
            .call(b, "ListTasks", json!({"pageSize": 2}))
            .await
            .unwrap();
        assert_eq!(page["tasks"].as_array().unwrap().len(), 2);
        assert_eq!(page["totalSize"], 4);
        assert_eq!(page["pageSize"], 2);
        assert!(page["tasks"][0].get("artifacts").is_none());
        let token = page["nextPageToken"].as_str().unwrap();
        assert!(!token.is_empty());
        let rest = c
            .call(
                b,
                "ListTasks",
                json!({"pageSize": 2, "pageToken": token, "includeArtifacts": true}),
            )
            .await
            .unwrap();
        assert_eq!(rest["tasks"].as_array().unwrap().len(), 2);
        assert_eq!(
            rest["nextPageToken"], "",
            "{b:?}: present and empty on the last page"
        );
        let canceled = c
            .call(b, "ListTasks", json!({"status": "TASK_STATE_CANCELED"}))
            .await
            .unwrap();
        assert_eq!(canceled["totalSize"], 2);
    }
}

#[tokio::test]
async fn bearer_auth_scoping_and_the_extended_card() {
    let server = Server::start(&["--bearer", "tok-a", "--bearer", "tok-b"]).await;
    let anonymous = server.client();
    let a = server.client().with_token("tok-a");
    let b_client = server.client().with_token("tok-b");
    let card = anonymous
        .request(Method::GET, "/.well-known/agent-card.json", None)
        .await
        .json();
    assert_eq!(card["capabilities"]["extendedAgentCard"], true);
    assert!(card["securitySchemes"]["bearer"].is_object());
    for b in BOTH {
        let r = anonymous.send(b, "SendMessage", user("x", "echo")).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{b:?}");
        assert!(r.headers.contains_key("www-authenticate"));
        let bad = server
            .client()
            .with_token("wrong")
            .send(b, "GetTask", json!({"id": "x"}))
            .await;
        assert_eq!(bad.status, StatusCode::UNAUTHORIZED);

        let t = a.call(b, "SendMessage", user("a1", "input")).await.unwrap();
        let id = t["task"]["id"].as_str().unwrap();
        assert_eq!(
            kind(b_client.call(b, "GetTask", json!({"id": id})).await),
            ErrorKind::TaskNotFound,
            "{b:?}"
        );
        assert_eq!(
            kind(b_client.call(b, "CancelTask", json!({"id": id})).await),
            ErrorKind::TaskNotFound
        );
        let listed = b_client.call(b, "ListTasks", json!({})).await.unwrap();
        assert!(listed["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["id"] != id));
        assert!(a.call(b, "GetTask", json!({"id": id})).await.is_ok());

        let extended = a.call(b, "GetExtendedAgentCard", json!({})).await.unwrap();
        assert!(
            extended["skills"].as_array().unwrap().len() > card["skills"].as_array().unwrap().len()
        );
    }
}

#[tokio::test]
async fn push_over_both_bindings_to_a_real_webhook() {
    let hook = Webhook::start().await;
    hook.script(&[503]);
    let server = Server::start(&["--push-allow", "127.0.0.0/8"]).await;
    let c = server.client();
    // JSON-RPC, inline config.
    let mut req = user("p", "stream 2");
    req["configuration"] = json!({"taskPushNotificationConfig": {
        "url": hook.url("/rpc"), "token": "tok-rpc",
        "authentication": {"scheme": "Bearer", "credentials": "c-rpc"}
    }});
    c.call(Binding::JsonRpc, "SendMessage", req).await.unwrap();
    // HTTP+JSON, config created on a parked task, then the task resumed.
    let parked = c
        .call(Binding::Rest, "SendMessage", user("q", "input"))
        .await
        .unwrap();
    let id = parked["task"]["id"].as_str().unwrap().to_owned();
    let created = c
        .call(
            Binding::Rest,
            "CreateTaskPushNotificationConfig",
            json!({"taskId": id, "url": hook.url("/rest"), "token": "tok-rest"}),
        )
        .await
        .unwrap();
    assert!(created["id"].as_str().unwrap().starts_with("push-"));
    let listed = c
        .call(
            Binding::JsonRpc,
            "ListTaskPushNotificationConfigs",
            json!({"taskId": id}),
        )
        .await
        .unwrap();
    assert_eq!(listed["configs"][0]["id"], created["id"]);
    let mut answer = user("a", "ok");
    answer["message"]["taskId"] = json!(id);
    c.call(Binding::Rest, "SendMessage", answer).await.unwrap();

    // The first task: one 503, then 5 notifications; the second: 3.
    eventually(|| hook.received().len() == 9).await;
    let received = hook.received();
    let rpc: Vec<_> = received
        .iter()
        .filter(|(h, _)| h["x-a2a-notification-token"] == "tok-rpc")
        .collect();
    let rest: Vec<_> = received
        .iter()
        .filter(|(h, _)| h["x-a2a-notification-token"] == "tok-rest")
        .collect();
    assert_eq!(rpc.len(), 6);
    assert!(rpc.iter().all(|(h, _)| h["authorization"] == "Bearer c-rpc"
        && h["content-type"] == "application/a2a+json"));
    let order: Vec<String> = rpc
        .iter()
        .map(|(_, body)| describe_json(&serde_json::from_slice(body).unwrap()))
        .collect();
    assert_eq!(
        order,
        [
            "task:TASK_STATE_SUBMITTED",
            "task:TASK_STATE_SUBMITTED",
            "status:TASK_STATE_WORKING",
            "artifact",
            "artifact+!",
            "status:TASK_STATE_COMPLETED"
        ]
    );
    let rest_order: Vec<String> = rest
        .iter()
        .map(|(_, body)| describe_json(&serde_json::from_slice(body).unwrap()))
        .collect();
    assert_eq!(
        rest_order,
        [
            "status:TASK_STATE_WORKING",
            "artifact",
            "status:TASK_STATE_COMPLETED"
        ]
    );
    assert!(rest.iter().all(|(h, _)| !h.contains_key("authorization")));

    // SSRF: a private address not on the allowlist is refused at creation.
    for b in BOTH {
        let err = c
            .call(
                b,
                "CreateTaskPushNotificationConfig",
                json!({"taskId": id, "url": "http://10.1.2.3/hook"}),
            )
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidParams, "{b:?}");
    }
}

#[tokio::test]
async fn ssrf_refusals_without_an_allowlist() {
    let server = Server::start(&[]).await;
    let c = server.client();
    for b in BOTH {
        for url in [
            "http://127.0.0.1:9/x",
            "http://0x7f.1/",
            "http://[::ffff:7f00:1]/",
            "http://169.254.169.254/",
        ] {
            let mut req = user("x", "echo");
            req["configuration"] = json!({"taskPushNotificationConfig": {"url": url}});
            let err = c.call(b, "SendMessage", req).await.unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidParams, "{b:?} {url}");
            assert_eq!(
                err.field_violations().next().unwrap().field,
                "configuration.taskPushNotificationConfig.url"
            );
        }
    }
}

#[tokio::test]
async fn keep_alive_comments_in_idle_streams_and_graceful_shutdown() {
    let server = Server::start_with(&[], |o| o.keep_alive = Duration::from_millis(40)).await;
    let c = server.client();
    let reply = c
        .send(Binding::Rest, "SendStreamingMessage", user("k", "slow 300"))
        .await;
    let text = String::from_utf8_lossy(&reply.body);
    assert!(text.contains(": keep-alive\n"), "{text}");
    assert_eq!(reply.events().len(), 4);

    // A stream open at shutdown is allowed to finish.
    let streaming = tokio::spawn({
        let c = c.clone();
        async move {
            c.stream(
                Binding::JsonRpc,
                "SendStreamingMessage",
                user("z", "slow 200"),
            )
            .await
        }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    server.shutdown().await;
    let events = streaming.await.unwrap().unwrap();
    assert_eq!(
        describe_json(events.last().unwrap()),
        "status:TASK_STATE_COMPLETED"
    );
}

/// gRPC on the agent's port: HTTP/2 with prior knowledge, the status in
/// the trailers.
#[tokio::test]
async fn grpc_over_h2c_on_the_same_port() {
    use a2a_transport::grpc;
    use http_body_util::BodyExt;

    let server = Server::start(&[]).await;
    let tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(tcp),
    )
    .await
    .unwrap();
    tokio::spawn(conn);
    let request =
        a2a_types::SendMessageRequest::new(a2a_types::Message::user_text("m-1", "echo hi"));
    let call = http::Request::post(format!(
        "http://{}{}",
        server.addr,
        grpc::method_path(a2a_types::Operation::SendMessage)
    ))
    .header("content-type", "application/grpc")
    .header("te", "trailers")
    .header("a2a-version", "1.0")
    .body(http_body_util::Full::new(
        grpc::encode_message(&request).unwrap(),
    ))
    .unwrap();
    let response = sender.send_request(call).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let collected = response.into_body().collect().await.unwrap();
    assert_eq!(collected.trailers().unwrap()["grpc-status"], "0");
    let message = grpc::decode_unary(&collected.to_bytes(), 1 << 20).unwrap();
    let a2a_types::SendMessageResponse::Task(task) = a2a_proto::decode(&message).unwrap() else {
        panic!("a task")
    };
    assert_eq!(
        task.artifacts[0].parts[0].content,
        a2a_types::PartContent::Text("hi".into())
    );
}
