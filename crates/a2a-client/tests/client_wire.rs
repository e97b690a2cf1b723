//! What the client sends, judged independently of the client: generated
//! requests for every operation go through both bindings, and
//! - every JSON-RPC envelope and every HTTP+JSON body passes the wire
//!   oracle (`../shared/tools/wire-oracle`: Google's ProtoJSON parser on
//!   the normative proto);
//! - every HTTP+JSON request routes back, with the server-side route table
//!   and query parser of this crate, to the same operation, path
//!   parameters and query fields.

mod support;

use std::sync::Arc;

use a2a_client::{Binding, CallContext, HttpTransport};
use a2a_jsonrpc::{generate_request, A2aRequest};
use a2a_types::testing::{line_safe, Gen};
use a2a_types::{A2aError, ErrorKind, Operation, TaskState};
use a2a_wire::dispatch;
use a2a_wire::http_json::{QueryParams, Router};
use support::{block_on, Scripted};

const ROUNDS: u64 = 25;

/// Every generated request (valid ones only: a client sends what it is
/// given, and the oracle checks REQUIRED fields).
fn requests() -> Vec<A2aRequest> {
    let mut g = Gen::new(7);
    let mut out = Vec::new();
    for _ in 0..ROUNDS {
        for op in Operation::ALL {
            let r = generate_request(op, &mut g);
            if r.validate().is_empty() {
                out.push(r);
            }
        }
    }
    out
}

/// Sends `request` over `transport`; the scripted client has no answer,
/// so the call fails after the request was recorded. Answers the local
/// refusal when nothing was sent.
fn send(
    client: &Scripted,
    transport: &HttpTransport<Arc<Scripted>>,
    request: A2aRequest,
) -> Option<A2aError> {
    let before = client.requests().len();
    let cx = CallContext::new();
    let result = block_on(dispatch(transport, &cx, request));
    (client.requests().len() == before).then(|| result.expect_err("nothing sent: an error"))
}

fn body_type(op: Operation) -> &'static str {
    match op {
        Operation::SendMessage | Operation::SendStreamingMessage => "SendMessageRequest",
        Operation::CancelTask => "CancelTaskRequest",
        Operation::CreateTaskPushNotificationConfig => "TaskPushNotificationConfig",
        other => panic!("{other} has no body"),
    }
}

fn oracle_ready() {
    let verdict = a2a_wire_oracle::run(&["types"], b"");
    assert!(
        verdict.success,
        "wire oracle unavailable:\n{}",
        verdict.stderr
    );
}

#[test]
fn jsonrpc_envelopes_pass_the_wire_oracle() {
    oracle_ready();
    let client = Scripted::new();
    let t = HttpTransport::new(
        Arc::clone(&client),
        Binding::JsonRpc,
        "https://a.example/rpc",
    )
    .unwrap();
    let all = requests();
    let mut ops = std::collections::BTreeSet::new();
    for r in &all {
        ops.insert(r.operation().name());
        assert!(
            send(&client, &t, r.clone()).is_none(),
            "JSON-RPC sends every valid request"
        );
    }
    assert_eq!(
        ops.len(),
        Operation::ALL.len(),
        "every operation is covered"
    );
    let lines: Vec<String> = client
        .requests()
        .iter()
        .map(|r| line_safe(String::from_utf8(r.body().to_vec()).unwrap()))
        .collect();
    let verdict = a2a_wire_oracle::jsonrpc(&lines.join("\n"));
    assert_eq!(a2a_wire_oracle::assert_all_pass(&verdict), all.len());
}

#[test]
fn http_json_requests_pass_the_oracle_and_route_back() {
    oracle_ready();
    let client = Scripted::new();
    let t = HttpTransport::new(
        Arc::clone(&client),
        Binding::HttpJson,
        "https://a.example/api/v1",
    )
    .unwrap();
    let router = Router::with_base_path("/api/v1").unwrap();
    let all = requests();
    let mut bodies = String::new();
    let mut with_body = 0;
    let mut refused = 0;
    for request in &all {
        let op = request.operation();
        if let Some(e) = send(&client, &t, request.clone()) {
            // A path parameter the proto does not mark REQUIRED (a push
            // config's `taskId`) but the route needs: refused locally, as
            // the server would refuse it.
            assert_eq!(e.kind(), ErrorKind::InvalidParams, "{op}: {e}");
            assert_eq!(op, Operation::CreateTaskPushNotificationConfig, "{e}");
            refused += 1;
            continue;
        }
        let sent = client.last();
        let m = router
            .match_route(sent.method(), sent.uri().path())
            .unwrap_or_else(|e| {
                panic!("{op}: {} {} does not route: {e}", sent.method(), sent.uri())
            });
        assert_eq!(m.operation(), op, "{}", sent.uri());
        let q = QueryParams::parse(sent.uri().query().unwrap_or("")).unwrap();
        let tenant = m.params.tenant.as_deref().unwrap_or("");
        let task = m.params.task_id.as_deref();
        let config = m.params.config_id.as_deref();
        match request {
            A2aRequest::SendMessage(r) | A2aRequest::SendStreamingMessage(r) => {
                assert_eq!(tenant, r.tenant);
            }
            A2aRequest::GetTask(r) => {
                assert_eq!((tenant, task), (r.tenant.as_str(), Some(r.id.as_str())));
                assert_eq!(q.get_i32("historyLength").unwrap(), r.history_length);
                assert_eq!(q.len(), usize::from(r.history_length.is_some()));
            }
            A2aRequest::ListTasks(r) => {
                assert_eq!(tenant, r.tenant);
                assert_eq!(q.get_str("contextId").unwrap().unwrap_or(""), r.context_id);
                let status = q.get_str("status").unwrap().map(TaskState::from_str_name);
                let want = (r.status != TaskState::Unspecified).then_some(Some(r.status));
                assert_eq!(status, want);
                assert_eq!(q.get_i32("pageSize").unwrap(), r.page_size);
                assert_eq!(q.get_str("pageToken").unwrap().unwrap_or(""), r.page_token);
                assert_eq!(q.get_i32("historyLength").unwrap(), r.history_length);
                let after = q
                    .get_str("statusTimestampAfter")
                    .unwrap()
                    .map(|t| a2a_types::Timestamp::parse(t).unwrap());
                assert_eq!(
                    after,
                    r.status_timestamp_after.map(|t| t.truncated_to_millis())
                );
                assert_eq!(q.get_bool("includeArtifacts").unwrap(), r.include_artifacts);
            }
            A2aRequest::CancelTask(r) => {
                assert_eq!((tenant, task), (r.tenant.as_str(), Some(r.id.as_str())));
            }
            A2aRequest::SubscribeToTask(r) => {
                assert_eq!((tenant, task), (r.tenant.as_str(), Some(r.id.as_str())));
            }
            A2aRequest::CreateTaskPushNotificationConfig(r) => {
                assert_eq!(
                    (tenant, task),
                    (r.tenant.as_str(), Some(r.task_id.as_str()))
                );
            }
            A2aRequest::GetTaskPushNotificationConfig(r) => {
                assert_eq!(
                    (tenant, task, config),
                    (
                        r.tenant.as_str(),
                        Some(r.task_id.as_str()),
                        Some(r.id.as_str())
                    )
                );
            }
            A2aRequest::DeleteTaskPushNotificationConfig(r) => {
                assert_eq!(
                    (tenant, task, config),
                    (
                        r.tenant.as_str(),
                        Some(r.task_id.as_str()),
                        Some(r.id.as_str())
                    )
                );
            }
            A2aRequest::ListTaskPushNotificationConfigs(r) => {
                assert_eq!(
                    (tenant, task),
                    (r.tenant.as_str(), Some(r.task_id.as_str()))
                );
                assert_eq!(q.get_i32("pageSize").unwrap().unwrap_or(0), r.page_size);
                assert_eq!(q.get_str("pageToken").unwrap().unwrap_or(""), r.page_token);
            }
            A2aRequest::GetExtendedAgentCard(r) => assert_eq!(tenant, r.tenant),
        }
        if sent.body().is_empty() {
            assert!(sent.method() == http::Method::GET || sent.method() == http::Method::DELETE);
        } else {
            with_body += 1;
            let json = line_safe(String::from_utf8(sent.body().to_vec()).unwrap());
            bodies.push_str(&format!("{}\t{json}\n", body_type(op)));
        }
    }
    let verdict = a2a_wire_oracle::lines(&bodies);
    assert_eq!(a2a_wire_oracle::assert_all_pass(&verdict), with_body);
    assert!(with_body > 50, "a meaningful corpus: {with_body}");
    assert!(refused < all.len() / 10, "{refused} refused");
}
