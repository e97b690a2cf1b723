//! `--metrics` (issue 31): the agent on loopback serves `/metrics` in the
//! Prometheus text format on its own port; calls over each binding move
//! the counters and histogram counts by exactly the calls made, a stream's
//! gauge is back to 0 once it ends, and the store's tasks by state and
//! bytes are there. The scrape is parsed by `prometheus-parse`.

mod support;

use a2a_transport::grpc;
use a2a_types::ErrorKind;
use http::{Method, StatusCode};
use http_body_util::BodyExt;
use prometheus_parse::{Scrape, Value};
use serde_json::json;
use support::wire::*;

async fn scrape(client: &Client) -> Scrape {
    let reply = client.request(Method::GET, "/metrics", None).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.headers["content-type"], "text/plain; version=0.0.4",
        "the exposition format's media type"
    );
    let text = String::from_utf8(reply.body.to_vec()).unwrap();
    Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).unwrap()
}

/// The value of the sample `metric` whose labels are exactly `labels`
/// (0 when there is none yet); a histogram's value is its count.
fn value(s: &Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    let found = s.samples.iter().find(|x| {
        x.metric == metric
            && labels.iter().all(|(k, v)| x.labels.get(k) == Some(*v))
            && x.labels.len() == labels.len()
    });
    match found.map(|x| &x.value) {
        None => 0.0,
        Some(Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v)) => *v,
        Some(Value::Histogram(buckets)) => {
            let inf = buckets.iter().find(|b| b.less_than == f64::INFINITY);
            inf.expect("a +Inf bucket").count
        }
        Some(other) => panic!("{metric}: {other:?}"),
    }
}

fn calls(s: &Scrape, op: &str, binding: &str, outcome: &str) -> f64 {
    value(
        s,
        "a2a_server_calls_total",
        &[
            ("operation", op),
            ("binding", binding),
            ("outcome", outcome),
        ],
    )
}

fn latency_count(s: &Scrape, op: &str, binding: &str) -> f64 {
    value(
        s,
        "a2a_server_call_duration_seconds",
        &[("operation", op), ("binding", binding)],
    )
}

async fn grpc_send(server: &Server, text: &str) {
    let tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(tcp),
    )
    .await
    .unwrap();
    tokio::spawn(conn);
    let request = a2a_types::SendMessageRequest::new(a2a_types::Message::user_text("g-1", text));
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
    let collected = response.into_body().collect().await.unwrap();
    assert_eq!(collected.trailers().unwrap()["grpc-status"], "0");
}

#[tokio::test]
async fn metrics_count_each_call_by_operation_binding_and_outcome() {
    let server = Server::start(&["--metrics"]).await;
    let client = server.client();
    let before = scrape(&client).await;

    // One SendMessage per binding, one failing GetTask, one stream.
    for binding in [Binding::JsonRpc, Binding::Rest] {
        let params = json!({"message": {"messageId": format!("m-{binding:?}"), "role": "ROLE_USER",
            "parts": [{"text": "echo hi"}]}});
        client.call(binding, "SendMessage", params).await.unwrap();
    }
    grpc_send(&server, "echo hi").await;
    let missing = client
        .call(Binding::JsonRpc, "GetTask", json!({"id": "no-such-task"}))
        .await
        .unwrap_err();
    assert_eq!(missing.kind(), ErrorKind::TaskNotFound);
    let params = json!({"message": {"messageId": "m-s", "role": "ROLE_USER",
        "parts": [{"text": "stream 3"}]}});
    let events = client
        .stream(Binding::Rest, "SendStreamingMessage", params)
        .await
        .unwrap();
    assert!(events.len() >= 3, "{events:?}");

    let after = scrape(&client).await;
    for (op, binding, outcome) in [
        ("SendMessage", "JSONRPC", "ok"),
        ("SendMessage", "HTTP+JSON", "ok"),
        ("SendMessage", "GRPC", "ok"),
        ("GetTask", "JSONRPC", "TaskNotFoundError"),
        ("SendStreamingMessage", "HTTP+JSON", "ok"),
    ] {
        assert_eq!(
            calls(&after, op, binding, outcome) - calls(&before, op, binding, outcome),
            1.0,
            "{op} {binding} {outcome}"
        );
        assert_eq!(
            latency_count(&after, op, binding) - latency_count(&before, op, binding),
            1.0,
            "latency of {op} {binding}"
        );
    }
    // Nothing else was counted: the scrapes are not A2A calls.
    let total = |s: &Scrape| {
        s.samples
            .iter()
            .filter(|x| x.metric == "a2a_server_calls_total")
            .map(|x| match x.value {
                Value::Counter(v) => v,
                _ => panic!("not a counter"),
            })
            .sum::<f64>()
    };
    assert_eq!(total(&after) - total(&before), 5.0);
    // The task id the failing call named is no label value.
    assert!(!after
        .samples
        .iter()
        .any(|x| x.labels.values().any(|v| v == "no-such-task")));

    // The stream ended: its gauge is back to 0.
    let streams = [
        ("operation", "SendStreamingMessage"),
        ("binding", "HTTP+JSON"),
    ];
    let mut now = after;
    for _ in 0..50 {
        if value(&now, "a2a_server_active_streams", &streams) == 0.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        now = scrape(&client).await;
    }
    assert!(now
        .samples
        .iter()
        .any(|x| x.metric == "a2a_server_active_streams"));
    assert_eq!(value(&now, "a2a_server_active_streams", &streams), 0.0);

    // The store, read at the scrape: four tasks, all completed.
    assert_eq!(
        value(
            &now,
            "a2a_store_tasks",
            &[("state", "TASK_STATE_COMPLETED")]
        ),
        4.0
    );
    assert_eq!(
        value(&now, "a2a_store_tasks", &[("state", "TASK_STATE_WORKING")]),
        0.0
    );
    assert!(value(&now, "a2a_store_bytes", &[]) > 0.0);
    assert_eq!(
        value(&now, "a2a_store_budget_bytes", &[]),
        (32u64 << 20) as f64
    );
    assert!(
        now.docs.contains_key("a2a_server_calls_total"),
        "HELP lines"
    );
}

#[tokio::test]
async fn an_open_stream_is_counted_until_it_ends() {
    let server = Server::start(&["--metrics"]).await;
    let client = server.client();
    let stream = tokio::spawn({
        let client = client.clone();
        async move {
            let params = json!({"message": {"messageId": "m-slow", "role": "ROLE_USER",
                "parts": [{"text": "slow 1500"}]}});
            client
                .stream(Binding::JsonRpc, "SendStreamingMessage", params)
                .await
        }
    });
    let labels = [
        ("operation", "SendStreamingMessage"),
        ("binding", "JSONRPC"),
    ];
    let mut open = 0.0;
    for _ in 0..50 {
        open = value(&scrape(&client).await, "a2a_server_active_streams", &labels);
        if open == 1.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(open, 1.0, "the stream is open");
    stream.await.unwrap().unwrap();
    for _ in 0..50 {
        open = value(&scrape(&client).await, "a2a_server_active_streams", &labels);
        if open == 0.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(open, 0.0, "the stream ended");
}

#[tokio::test]
async fn without_the_flag_there_is_no_metrics_endpoint() {
    let server = Server::start(&[]).await;
    let reply = server.client().request(Method::GET, "/metrics", None).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn push_deliveries_and_retries_are_counted_by_outcome() {
    let hook = support::webhook::Webhook::start().await;
    // The first notification's first attempt is answered 503, then retried.
    hook.script(&[503]);
    let server = Server::start(&["--metrics", "--push-allow", "127.0.0.0/8"]).await;
    let client = server.client();
    let params = json!({
        "message": {"messageId": "m-push", "role": "ROLE_USER", "parts": [{"text": "echo hi"}]},
        "configuration": {"taskPushNotificationConfig": {"url": hook.url("/hook")}}
    });
    client
        .call(Binding::JsonRpc, "SendMessage", params)
        .await
        .unwrap();
    let delivered = [("outcome", "delivered")];
    let mut settled = None;
    for _ in 0..100 {
        let s = scrape(&client).await;
        let (n, retries) = (
            value(&s, "a2a_push_deliveries_total", &delivered),
            value(&s, "a2a_push_retries_total", &delivered),
        );
        // Every answer the webhook gave but the 503 is one delivery.
        let received = hook.received().len() as f64;
        if n >= 1.0 && retries == 1.0 && n == received - 1.0 {
            settled = Some(s);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let s =
        settled.unwrap_or_else(|| panic!("deliveries never matched {:?}", hook.received().len()));
    assert_eq!(
        value(&s, "a2a_push_deliveries_total", &[("outcome", "failed")]),
        0.0
    );
    assert_eq!(
        value(&s, "a2a_push_retries_total", &[("outcome", "failed")]),
        0.0
    );
}
