//! `conformance-client`: our client under `a2a-conformance client`.
//!
//! Reads the calls from the environment, makes them through
//! `HttpTransport` (or `ResilientTransport` with `--resilient`) on the
//! interface the peer's card offers, and prints what came back as the
//! runner's JSON lines (the contract is in `conformance/runner/README.md`).
//!
//! ```sh
//! cargo run -p a2a-conformance -- client -- target/debug/conformance-client --resilient
//! ```
//!
//! `--fault <name>` breaks the client on purpose, so that the runner's own
//! test can show each check catching it: `no-version-header`,
//! `no-last-event-id` and `snake-case-body` change what goes on the wire
//! (a wrapper around the HTTP client), `no-details` and `no-end` what is
//! printed.

use std::process::ExitCode;
use std::time::Duration;

use a2a_hyper::HyperClient;
use a2a_transport::client::{
    HttpError, Preferences, ResilientTransport, ResponseBody, RetryPolicy, SseStream,
};
use a2a_transport::{discover, dispatch, BoxFuture, CallContext, HttpClient, HttpTransport};
use a2a_types::{
    A2aError, A2aRequest, DecodeLimits, Operation, Reply, StreamResponse, SubscribeToTaskRequest,
    TaskSnapshot,
};
use futures_util::StreamExt;
use serde_json::{json, Value};

/// The deliberate fault (`--fault`), if any.
static FAULT: std::sync::OnceLock<String> = std::sync::OnceLock::new();

fn fault(name: &str) -> bool {
    FAULT.get().is_some_and(|f| f == name)
}

fn print(call: usize, key: &str, mut value: Value) {
    if key == "end" && fault("no-end") {
        return;
    }
    if key == "error" && fault("no-details") {
        if let Some(e) = value.as_object_mut() {
            e.remove("details");
        }
    }
    println!("{}", json!({ "call": call, key: value }));
}

/// `HyperClient`, with the wire faults applied to each request.
struct Client(HyperClient);

impl HttpClient for Client {
    fn send(
        &self,
        mut request: http::Request<bytes::Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        if fault("no-version-header") {
            request.headers_mut().remove("a2a-version");
        }
        if fault("no-last-event-id") {
            request.headers_mut().remove("last-event-id");
        }
        if fault("snake-case-body") {
            let body = String::from_utf8_lossy(request.body()).replace("messageId", "message_id");
            *request.body_mut() = bytes::Bytes::from(body);
        }
        self.0.send(request)
    }
}

fn timer(d: Duration) -> BoxFuture<'static, ()> {
    Box::pin(tokio::time::sleep(d))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let resilient = args.iter().any(|a| a == "--resilient");
    if let Some(at) = args.iter().position(|a| a == "--fault") {
        let _ = FAULT.set(args.get(at + 1).cloned().unwrap_or_default());
    }
    let (Ok(url), Ok(calls)) = (
        std::env::var("A2A_CONFORMANCE_URL"),
        std::env::var("A2A_CONFORMANCE_CALLS"),
    ) else {
        eprintln!("conformance-client: A2A_CONFORMANCE_URL and A2A_CONFORMANCE_CALLS must be set (run it under `a2a-conformance client`)");
        return ExitCode::from(2);
    };
    let Ok(Value::Array(calls)) = serde_json::from_str::<Value>(&calls) else {
        eprintln!("conformance-client: A2A_CONFORMANCE_CALLS is not a JSON array");
        return ExitCode::from(2);
    };
    let agent = match discover(Client(HyperClient::new()), &url, &Preferences::new()).await {
        Ok(agent) => agent,
        Err(e) => {
            eprintln!("conformance-client: discovery failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    let card = agent.card.clone();
    let plain = agent.transport;
    let resilient_transport = resilient.then(|| {
        ResilientTransport::new(
            match HttpTransport::for_interface(Client(HyperClient::new()), &agent.interface) {
                Some(Ok(t)) => t,
                _ => unreachable!("discovery chose an interface with a valid URL"),
            },
            timer,
        )
        .with_card(&card)
        .with_policy(RetryPolicy::new().with_initial_delay(Duration::from_millis(20)))
    });
    let cx = CallContext::new();
    for (i, c) in calls.iter().enumerate() {
        let Some(op) = c["operation"].as_str().and_then(Operation::from_name) else {
            print(
                i,
                "error",
                json!({"message": format!("unknown operation {}", c["operation"])}),
            );
            continue;
        };
        let body = serde_json::to_vec(&c["request"]).unwrap_or_default();
        let request = match A2aRequest::from_json(op, &body, &DecodeLimits::default()) {
            Ok(r) => r,
            Err(e) => {
                print(i, "error", json!({"message": format!("bad request: {e}")}));
                continue;
            }
        };
        let follow = c["follow"] == true;
        if op.is_streaming() {
            match &resilient_transport {
                Some(r) => {
                    let opened = match request {
                        A2aRequest::SendStreamingMessage(m) => r.stream_message(&cx, m).await,
                        A2aRequest::SubscribeToTask(s) => r.stream_task(&cx, s).await,
                        _ => unreachable!("only these two stream"),
                    };
                    match opened {
                        Ok(mut s) => {
                            while let Some(e) = s.next().await {
                                if !report_event(i, e) {
                                    break;
                                }
                            }
                            print(i, "end", json!(true));
                        }
                        Err(e) => print(i, "error", error_json(&e)),
                    }
                }
                None => stream_plain(&plain, &cx, i, request, follow).await,
            }
        } else if op == Operation::ListTasks && c["pages"] == true {
            let A2aRequest::ListTasks(mut list) = request else {
                unreachable!("op is ListTasks")
            };
            // Each nextPageToken becomes the next request's pageToken.
            loop {
                match dispatch(&plain, &cx, A2aRequest::ListTasks(list.clone())).await {
                    Ok(Reply::ListTasks(page)) => {
                        let next = page.next_page_token.clone();
                        print(i, "reply", serde_json::to_value(&page).unwrap_or_default());
                        if next.is_empty() {
                            break;
                        }
                        list.page_token = next;
                    }
                    Ok(_) => unreachable!("ListTasks answers ListTasks"),
                    Err(e) => {
                        print(i, "error", error_json(&e));
                        break;
                    }
                }
            }
        } else {
            match dispatch(&plain, &cx, request).await {
                Ok(reply) => print(i, "reply", serde_json::to_value(&reply).unwrap_or_default()),
                Err(e) => print(i, "error", error_json(&e)),
            }
        }
    }
    ExitCode::SUCCESS
}

/// The contract's `error` object: what a client on `a2a-transport` knows
/// of the error.
fn error_json(e: &A2aError) -> Value {
    let mut v = json!({
        "code": e.code().0,
        "message": e.message(),
        "details": e.details().iter().map(a2a_types::ErrorDetail::to_value).collect::<Vec<_>>(),
    });
    if let Some(info) = e.error_info() {
        v["reason"] = Value::String(info.reason.clone());
    }
    if let Some(status) = e.received_status() {
        v["httpStatus"] = json!(status);
    }
    if let Some(challenges) = a2a_transport::client::www_authenticate(e) {
        v["challenges"] = json!([challenges]);
    }
    v
}

/// Prints one event or error; false after an error.
fn report_event(call: usize, event: Result<StreamResponse, A2aError>) -> bool {
    match event {
        Ok(e) => {
            print(call, "event", serde_json::to_value(&e).unwrap_or_default());
            true
        }
        Err(e) => {
            print(call, "error", error_json(&e));
            false
        }
    }
}

/// A stream on the plain transport. With `follow`, a stream that ends or
/// drops before the task settles is resubscribed once per drop, with the
/// last event id received, as a host on `HttpTransport` would.
async fn stream_plain(
    transport: &HttpTransport<Client>,
    cx: &CallContext,
    call: usize,
    request: A2aRequest,
    follow: bool,
) {
    let opened = match request {
        A2aRequest::SendStreamingMessage(m) => transport.stream_message(cx, m).await,
        A2aRequest::SubscribeToTask(s) => transport.stream_task(cx, s).await,
        _ => unreachable!("only these two stream"),
    };
    let mut stream: SseStream = match opened {
        Ok(s) => s,
        Err(e) => return print(call, "error", error_json(&e)),
    };
    let mut snapshot: Option<TaskSnapshot> = None;
    let mut settled = false;
    let mut resumes = 0;
    loop {
        let mut failure = None;
        while let Some(item) = stream.next().await {
            match item {
                Ok(e) => {
                    settled |= matches!(e, StreamResponse::Message(_));
                    match &mut snapshot {
                        Some(s) => {
                            let _ = s.apply(e.clone());
                        }
                        None => snapshot = TaskSnapshot::from_first_event(e.clone()).ok(),
                    }
                    settled |= snapshot.as_ref().is_some_and(|s| {
                        s.task().is_terminal() || s.task().status.state.is_interrupted()
                    });
                    print(call, "event", serde_json::to_value(&e).unwrap_or_default());
                }
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        let task_id = snapshot.as_ref().map(|s| s.task().id.clone());
        let resumable = follow && !settled && resumes < 3 && task_id.is_some();
        match (failure, resumable) {
            (Some(e), false) => return print(call, "error", error_json(&e)),
            (None, false) => return print(call, "end", json!(true)),
            (_, true) => {
                resumes += 1;
                let last = stream.last_event_id().to_owned();
                let cx = if last.is_empty() {
                    cx.clone()
                } else {
                    cx.clone().with_last_event_id(&last)
                };
                let request = SubscribeToTaskRequest {
                    id: task_id.unwrap_or_default(),
                    ..Default::default()
                };
                stream = match transport.stream_task(&cx, request).await {
                    Ok(s) => s,
                    Err(e) => return print(call, "error", error_json(&e)),
                };
            }
        }
    }
}
