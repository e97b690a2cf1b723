//! Our client against the agent's A2A 0.3 path (`--v0-3`) over real
//! loopback HTTP, on both bindings: discovery picks the card's 0.3
//! interface when asked for 0.3, and every operation 0.3 has goes through
//! `HttpTransport` in 0.3 (JSON-RPC: 0.3 method names and `kind`-tagged
//! shapes; HTTP+JSON: the 0.3 routes and the 0.3 proto's ProtoJSON;
//! `A2A-Version: 0.3` on both).

mod support;

use std::future::poll_fn;
use std::pin::Pin;

use a2a_hyper::HyperClient;
use a2a_transport::client::{HttpTransport, Preferences, SseStream};
use a2a_transport::{discover, A2aService, Binding, CallContext, ProtocolVersion};
use a2a_types::{
    DeleteTaskPushNotificationConfigRequest, ErrorKind, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    Message, Part, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState,
};
use futures_core::Stream;
use support::wire::Server;

const TOKEN: &str = "tok-03";

fn cx() -> CallContext {
    let mut headers = http::HeaderMap::new();
    headers.insert(
        http::header::AUTHORIZATION,
        format!("Bearer {TOKEN}").parse().unwrap(),
    );
    CallContext::new().with_headers(headers)
}

fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest::new(Message::user_text(format!("m-{text}"), text))
}

fn task(r: SendMessageResponse) -> Task {
    match r {
        SendMessageResponse::Task(t) => t,
        other => panic!("not a task: {other:?}"),
    }
}

async fn all(mut s: SseStream) -> Vec<StreamResponse> {
    let mut out = Vec::new();
    while let Some(item) = poll_fn(|c| Pin::new(&mut s).poll_next(c)).await {
        out.push(item.unwrap_or_else(|e| panic!("stream error {e}")));
    }
    out
}

fn last_state(events: &[StreamResponse]) -> Option<TaskState> {
    events.iter().rev().find_map(|e| match e {
        StreamResponse::StatusUpdate(u) => Some(u.status.state),
        StreamResponse::Task(t) => Some(t.status.state),
        _ => None,
    })
}

/// The agent, and our client for its 0.3 interface of `binding`.
async fn agent(binding: Binding) -> (Server, HttpTransport<HyperClient>) {
    let server = Server::start(&["--v0-3", "--bearer", TOKEN, "--push-allow", "127.0.0.0/8"]).await;
    let base = format!("http://{}", server.addr);
    // The default preferences pick 1.0; asked for 0.3, the 0.3 interface.
    let v10 = discover(HyperClient::new(), &base, &Preferences::new())
        .await
        .unwrap();
    assert_eq!(v10.interface.protocol_version, "1.0");
    let prefs = Preferences::new()
        .with_versions([ProtocolVersion::V0_3])
        .with_bindings([binding]);
    let v03 = discover(HyperClient::new(), &base, &prefs).await.unwrap();
    assert_eq!(
        (
            v03.interface.protocol_binding.as_str(),
            v03.interface.protocol_version.as_str()
        ),
        (binding.as_str(), "0.3")
    );
    assert_eq!(v03.transport.version(), Some(ProtocolVersion::V0_3));
    (server, v03.transport)
}

#[tokio::test]
async fn send_get_cancel_and_errors_at_0_3() {
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let (_server, t) = agent(binding).await;
        let done = task(t.send_message(&cx(), send("echo hello")).await.unwrap());
        assert_eq!(done.status.state, TaskState::Completed);
        assert_eq!(done.artifacts[0].parts[0], Part::text("hello"));
        let got = t
            .get_task(&cx(), GetTaskRequest::new(done.id.clone()))
            .await
            .unwrap();
        assert_eq!((got.id, got.status.state), (done.id, TaskState::Completed));

        let reply = t.send_message(&cx(), send("message hi")).await.unwrap();
        let SendMessageResponse::Message(m) = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(m.parts[0], Part::text("hi"));

        let waiting = task(t.send_message(&cx(), send("input")).await.unwrap());
        assert_eq!(waiting.status.state, TaskState::InputRequired);
        let canceled = t
            .cancel_task(&cx(), a2a_types::CancelTaskRequest::new(waiting.id))
            .await
            .unwrap();
        assert_eq!(canceled.status.state, TaskState::Canceled);

        // Errors keep their codes across versions.
        let err = t
            .get_task(&cx(), GetTaskRequest::new("no-such-task"))
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TaskNotFound);
        let err = t
            .cancel_task(&cx(), a2a_types::CancelTaskRequest::new(done_id(&t).await))
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TaskNotCancelable);
        // 0.3 has no ListTasks: refused before sending.
        let err = t.list_tasks(&cx(), Default::default()).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::MethodNotFound);
        // Without the token: the 0.3 call is refused as unauthenticated.
        let err = t
            .get_task(&CallContext::new(), GetTaskRequest::new("x"))
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unauthenticated);
    }
}

/// The id of a freshly completed task.
async fn done_id(t: &HttpTransport<HyperClient>) -> String {
    task(t.send_message(&cx(), send("echo x")).await.unwrap()).id
}

#[tokio::test]
async fn streams_and_resubscription_at_0_3() {
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let (_server, t) = agent(binding).await;
        let events = all(t.stream_message(&cx(), send("stream 3 10")).await.unwrap()).await;
        assert_eq!(
            last_state(&events),
            Some(TaskState::Completed),
            "{events:?}"
        );
        let chunks = events
            .iter()
            .filter(|e| matches!(e, StreamResponse::ArtifactUpdate(_)))
            .count();
        assert_eq!(chunks, 3, "{events:?}");

        let mut quick = send("slow 400");
        quick.configuration = Some(SendMessageConfiguration {
            return_immediately: true,
            ..Default::default()
        });
        let working = task(t.send_message(&cx(), quick).await.unwrap());
        assert!(!working.status.state.is_terminal(), "{working:?}");
        let resub = SubscribeToTaskRequest {
            id: working.id.clone(),
            ..Default::default()
        };
        let events = all(t.stream_task(&cx(), resub).await.unwrap()).await;
        assert_eq!(
            last_state(&events),
            Some(TaskState::Completed),
            "{events:?}"
        );
    }
}

#[tokio::test]
async fn push_configs_and_extended_card_at_0_3() {
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let (_server, t) = agent(binding).await;
        let waiting = task(t.send_message(&cx(), send("input")).await.unwrap());
        let mut config = TaskPushNotificationConfig::new("http://127.0.0.1:9/hook");
        config.task_id = waiting.id.clone();
        config.id = "p1".into();
        config.token = "secret".into();
        let set = t
            .create_task_push_notification_config(&cx(), config)
            .await
            .unwrap();
        assert_eq!(
            (set.task_id.as_str(), set.id.as_str()),
            (waiting.id.as_str(), "p1")
        );
        let get = GetTaskPushNotificationConfigRequest {
            task_id: waiting.id.clone(),
            id: "p1".into(),
            ..Default::default()
        };
        let got = t
            .get_task_push_notification_config(&cx(), get.clone())
            .await
            .unwrap();
        assert_eq!(
            (got.url.as_str(), got.token.as_str()),
            ("http://127.0.0.1:9/hook", "secret")
        );
        let list = ListTaskPushNotificationConfigsRequest {
            task_id: waiting.id.clone(),
            ..Default::default()
        };
        let listed = t
            .list_task_push_notification_configs(&cx(), list.clone())
            .await
            .unwrap();
        assert_eq!(listed.configs.len(), 1);
        let delete = DeleteTaskPushNotificationConfigRequest {
            task_id: waiting.id.clone(),
            id: "p1".into(),
            ..Default::default()
        };
        t.delete_task_push_notification_config(&cx(), delete)
            .await
            .unwrap();
        let listed = t
            .list_task_push_notification_configs(&cx(), list)
            .await
            .unwrap();
        assert!(listed.configs.is_empty());
        let err = t
            .get_task_push_notification_config(&cx(), get)
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TaskNotFound, "{err}");

        let card = t
            .get_extended_agent_card(&cx(), GetExtendedAgentCardRequest::default())
            .await
            .unwrap();
        assert!(!card.name.is_empty());
        assert!(
            card.supported_interfaces
                .iter()
                .all(|i| i.protocol_version == "0.3"),
            "the 0.3 card names its interfaces at 0.3: {:?}",
            card.supported_interfaces
        );
    }
}
