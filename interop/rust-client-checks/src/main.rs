//! Interop checks driven by the a2a-core client: discovery, then
//! `HttpTransport` (through `A2aService`) on the binding asked for.
//!
//! ```text
//! a2a-interop-client-checks --url URL --binding jsonrpc|rest|grpc [--bearer TOKEN] [--only a,b]
//! ```
//!
//! The same checks, names and output as `python/client_checks.py` and
//! `node/client_checks.mjs`: `PASS name`, `FAIL name: why`, `SKIP name:
//! why`, then `N passed, M failed[, K skipped]`; exit status 1 on a
//! failure. The push checks start a webhook receiver on 127.0.0.1.
//!
//! With `--binding grpc` the card comes over HTTP from `--url` as always
//! and the calls go to its `GRPC` interface. A bare `host:port` there (the
//! proto's form, which the SDK agents use) is one the client reads as
//! `https`; when the card itself came over cleartext `http://`, this
//! program dials it cleartext (h2c), as the SDK check programs choose
//! insecure channels: the caller picks the credentials, not the card.

use std::collections::BTreeSet;
use std::future::Future;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2a_hyper::HyperClient;
use a2a_transport::{
    client::{Discovered, Preferences},
    discover, A2aService, Binding, CallContext, HttpTransport,
};
use a2a_types::{
    A2aError, AuthenticationInfo, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    ErrorKind, GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, Message, Part, PartContent, Role,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState,
};
use futures_util::StreamExt;
use http::header::{HeaderValue, AUTHORIZATION};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

const CHECK_TIMEOUT: Duration = Duration::from_secs(20);
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

const ORDER: &[&str] = &[
    "card",
    "send_blocking",
    "send_nonblocking_poll",
    "direct_message",
    "stream_chunks",
    "multi_turn",
    "auth_required",
    "get_history_length",
    "list_paging",
    "cancel",
    "subscribe",
    "push_create",
    "push_get",
    "push_list",
    "push_delivery",
    "push_token",
    "push_delete",
    "push_ids_distinct",
    "extended_card",
    "extended_card_unauthenticated",
    "error_unknown_task",
    "error_cancel_completed",
    "error_subscribe_terminal",
    "part_shapes",
];

/// Why a check did not pass.
enum Outcome {
    Fail(String),
    Skip(String),
}

type Res = Result<(), Outcome>;

impl From<A2aError> for Outcome {
    fn from(e: A2aError) -> Outcome {
        Outcome::Fail(format!("{:?}: {e}", e.kind()))
    }
}

macro_rules! ensure {
    ($cond:expr, $($why:tt)+) => {
        if !$cond {
            return Err(Outcome::Fail(format!($($why)+)));
        }
    };
}

fn skip(why: &str) -> Res {
    Err(Outcome::Skip(why.to_owned()))
}

/// One POST the webhook received.
#[derive(Debug, Clone)]
struct Post {
    path: String,
    headers: Vec<(String, String)>,
    body: serde_json::Value,
}

impl Post {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A loopback receiver that records every POST and answers 200.
struct Webhook {
    port: u16,
    posts: Arc<Mutex<Vec<Post>>>,
}

impl Webhook {
    async fn start() -> std::io::Result<Webhook> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        let posts = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&posts);
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let sink = Arc::clone(&sink);
                tokio::spawn(async move {
                    let _ = serve_connection(socket, sink).await;
                });
            }
        });
        Ok(Webhook { port, posts })
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn received(&self, path: &str) -> Vec<Post> {
        self.posts
            .lock()
            .map(|p| p.iter().filter(|p| p.path == path).cloned().collect())
            .unwrap_or_default()
    }
}

/// HTTP/1.1 requests on one connection: headers, a Content-Length or
/// chunked body, then `200` with no body.
async fn serve_connection(
    socket: tokio::net::TcpStream,
    sink: Arc<Mutex<Vec<Post>>>,
) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut reader = BufReader::new(read);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            reader.read_line(&mut h).await?;
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.push((k.trim().to_owned(), v.trim().to_owned()));
            }
        }
        let get = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let mut body = Vec::new();
        if get("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
            loop {
                let mut size = String::new();
                reader.read_line(&mut size).await?;
                let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)
                    .unwrap_or(0);
                let mut chunk = vec![0; size + 2];
                reader.read_exact(&mut chunk).await?;
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        } else if let Some(n) = get("content-length").and_then(|v| v.parse::<usize>().ok()) {
            body.resize(n, 0);
            reader.read_exact(&mut body).await?;
        }
        let body = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
        if let Ok(mut posts) = sink.lock() {
            posts.push(Post {
                path,
                headers,
                body,
            });
        }
        write
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
            .await?;
    }
}

struct Checks {
    binding: Binding,
    bearer: Option<String>,
    agent: Discovered<HyperClient>,
    cx: CallContext,
    ids: std::sync::atomic::AtomicU64,
    completed: Option<Task>,
    multi_turn: Option<Task>,
    webhook: Option<Webhook>,
    push: Option<(Task, TaskPushNotificationConfig, TaskPushNotificationConfig)>,
}

fn state(s: TaskState) -> String {
    format!("{s:?}")
}

fn text(parts: &[Part]) -> String {
    parts.iter().filter_map(Part::text_content).collect()
}

fn returning(mut request: SendMessageRequest) -> SendMessageRequest {
    request.configuration = Some(SendMessageConfiguration {
        return_immediately: true,
        ..SendMessageConfiguration::default()
    });
    request
}

impl Checks {
    fn message(&self, text: &str) -> Message {
        let n = self.ids.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Message::user_text(format!("rs-{}-{n}", std::process::id()), text)
    }

    fn uniq(&self, prefix: &str) -> String {
        let n = self.ids.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        format!("{prefix}-rs-{}-{n}", std::process::id())
    }

    fn t(&self) -> &dyn A2aService {
        &self.agent.transport
    }

    async fn send_task(&self, request: SendMessageRequest) -> Result<Task, Outcome> {
        match self.t().send_message(&self.cx, request).await? {
            SendMessageResponse::Task(task) => Ok(task),
            other => Err(Outcome::Fail(format!("expected a Task, got {other:?}"))),
        }
    }

    async fn stream(
        &self,
        events: Result<a2a_transport::EventStream, A2aError>,
    ) -> Result<Vec<StreamResponse>, Outcome> {
        let mut events = events?;
        let mut out = Vec::new();
        while let Some(event) = events.next().await {
            out.push(event?);
        }
        Ok(out)
    }

    fn final_state(event: Option<&StreamResponse>) -> Option<TaskState> {
        match event? {
            StreamResponse::StatusUpdate(u) => Some(u.status.state),
            StreamResponse::Task(t) => Some(t.status.state),
            _ => None,
        }
    }

    fn kinds(events: &[StreamResponse]) -> Vec<&'static str> {
        events
            .iter()
            .map(|e| match e {
                StreamResponse::Task(_) => "task",
                StreamResponse::Message(_) => "message",
                StreamResponse::StatusUpdate(_) => "statusUpdate",
                StreamResponse::ArtifactUpdate(_) => "artifactUpdate",
            })
            .collect()
    }

    /// The interface discovery chose speaks A2A 0.3 (interop/run.sh
    /// --mode v0_3), where a few 1.0 rules the checks assert do not exist.
    fn v03(&self) -> bool {
        self.agent.interface.protocol_version.starts_with("0.3")
    }

    async fn card(&mut self) -> Res {
        let card = &self.agent.card;
        ensure!(!card.name.is_empty(), "card has no name");
        let wanted = self.binding.as_str();
        let offered = card
            .supported_interfaces
            .iter()
            .find(|i| i.protocol_binding == wanted);
        ensure!(offered.is_some(), "card does not offer {wanted}");
        // A 0.3 agent (interop/run.sh --mode v0_3) offers its bindings as 0.3;
        // the interface discovery chose must then be the 0.3 one.
        let version = self.agent.interface.protocol_version.as_str();
        ensure!(
            version == "1.0" || version.starts_with("0.3"),
            "discovery chose a {wanted} interface of version {version:?}"
        );
        ensure!(
            offered.is_some_and(|i| i.protocol_version == "1.0") || version.starts_with("0.3"),
            "{wanted} interface is not 1.0"
        );
        ensure!(
            card.capabilities.streaming == Some(true),
            "card does not declare streaming"
        );
        ensure!(
            card.capabilities.push_notifications == Some(true),
            "card does not declare push notifications"
        );
        ensure!(
            self.agent.interface.protocol_binding == wanted,
            "discovery chose {}",
            self.agent.interface.protocol_binding
        );
        Ok(())
    }

    async fn send_blocking(&mut self) -> Res {
        let task = self
            .send_task(SendMessageRequest::new(self.message("echo hello interop")))
            .await?;
        ensure!(
            task.status.state == TaskState::Completed,
            "{}",
            state(task.status.state)
        );
        let texts: Vec<String> = task.artifacts.iter().map(|a| text(&a.parts)).collect();
        ensure!(texts == ["hello interop"], "artifacts {texts:?}");
        // 0.3's TaskStatus.timestamp is optional (0.3 schema); 1.0 sets it.
        ensure!(
            self.v03() || task.status.timestamp.is_some(),
            "status has no timestamp"
        );
        self.completed = Some(task);
        Ok(())
    }

    async fn send_nonblocking_poll(&mut self) -> Res {
        let task = self
            .send_task(returning(SendMessageRequest::new(self.message("slow 800"))))
            .await?;
        ensure!(
            matches!(task.status.state, TaskState::Submitted | TaskState::Working),
            "returnImmediately answered {}",
            state(task.status.state)
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut got = task.clone();
        while Instant::now() < deadline && !got.status.state.is_terminal() {
            tokio::time::sleep(Duration::from_millis(100)).await;
            got = self
                .t()
                .get_task(&self.cx, GetTaskRequest::new(task.id.clone()))
                .await?;
        }
        ensure!(
            got.status.state == TaskState::Completed,
            "ended {}",
            state(got.status.state)
        );
        let names: Vec<&str> = got.artifacts.iter().map(|a| a.name.as_str()).collect();
        ensure!(names == ["slow"], "artifacts {names:?}");
        Ok(())
    }

    async fn direct_message(&mut self) -> Res {
        let answer = self
            .t()
            .send_message(
                &self.cx,
                SendMessageRequest::new(self.message("message hi there")),
            )
            .await?;
        let SendMessageResponse::Message(msg) = answer else {
            return Err(Outcome::Fail(format!("expected a Message, got {answer:?}")));
        };
        ensure!(msg.role == Role::Agent, "role {:?}", msg.role);
        ensure!(
            text(&msg.parts) == "hi there",
            "text {:?}",
            text(&msg.parts)
        );
        ensure!(!msg.message_id.is_empty(), "message has no messageId");
        Ok(())
    }

    async fn stream_chunks(&mut self) -> Res {
        let events = self
            .stream(
                self.t()
                    .send_streaming_message(
                        &self.cx,
                        SendMessageRequest::new(self.message("stream 3")),
                    )
                    .await,
            )
            .await?;
        let kinds = Self::kinds(&events);
        ensure!(
            kinds.first() == Some(&"task"),
            "stream starts with {:?}",
            kinds.first()
        );
        let chunks: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                StreamResponse::ArtifactUpdate(u) => Some(u),
                _ => None,
            })
            .collect();
        ensure!(chunks.len() == 3, "{} artifact updates", chunks.len());
        let append: Vec<bool> = chunks.iter().map(|c| c.append).collect();
        let last: Vec<bool> = chunks.iter().map(|c| c.last_chunk).collect();
        ensure!(append == [false, true, true], "append {append:?}");
        ensure!(last == [false, false, true], "lastChunk {last:?}");
        let ids: BTreeSet<&str> = chunks
            .iter()
            .map(|c| c.artifact.artifact_id.as_str())
            .collect();
        ensure!(ids.len() == 1, "chunks of different artifacts");
        let all: String = chunks.iter().map(|c| text(&c.artifact.parts)).collect();
        ensure!(all == "chunk 1 chunk 2 chunk 3 ", "text {all:?}");
        ensure!(
            Self::final_state(events.last()) == Some(TaskState::Completed),
            "stream ends with {:?}",
            kinds.last()
        );
        Ok(())
    }

    async fn multi_turn(&mut self) -> Res {
        let task = self
            .send_task(SendMessageRequest::new(self.message("input")))
            .await?;
        ensure!(
            task.status.state == TaskState::InputRequired,
            "{}",
            state(task.status.state)
        );
        let said = task.status.message.as_ref().map(|m| text(&m.parts));
        ensure!(
            said.as_deref() == Some("need input"),
            "status message {said:?}"
        );
        let mut follow = self.message("more please");
        follow.task_id.clone_from(&task.id);
        let done = self.send_task(SendMessageRequest::new(follow)).await?;
        ensure!(done.id == task.id, "follow-up landed in another task");
        ensure!(
            done.context_id == task.context_id,
            "follow-up changed the context"
        );
        ensure!(
            done.status.state == TaskState::Completed,
            "{}",
            state(done.status.state)
        );
        let texts: Vec<String> = done.artifacts.iter().map(|a| text(&a.parts)).collect();
        ensure!(
            texts.iter().any(|t| t == "got: more please"),
            "artifacts {texts:?}"
        );
        self.multi_turn = Some(done);
        Ok(())
    }

    async fn auth_required(&mut self) -> Res {
        let task = self
            .send_task(SendMessageRequest::new(self.message("auth")))
            .await?;
        ensure!(
            task.status.state == TaskState::AuthRequired,
            "{}",
            state(task.status.state)
        );
        ensure!(
            task.status
                .message
                .as_ref()
                .is_some_and(|m| !text(&m.parts).is_empty()),
            "AUTH_REQUIRED without a status message (spec 7.6.1)"
        );
        let mut follow = self.message("here are my credentials");
        follow.task_id.clone_from(&task.id);
        let done = self.send_task(SendMessageRequest::new(follow)).await?;
        ensure!(
            done.id == task.id && done.status.state == TaskState::Completed,
            "follow-up answered {}",
            state(done.status.state)
        );
        let texts: Vec<String> = done.artifacts.iter().map(|a| text(&a.parts)).collect();
        ensure!(
            texts.iter().any(|t| t == "got: here are my credentials"),
            "artifacts {texts:?}"
        );
        Ok(())
    }

    async fn get_history_length(&mut self) -> Res {
        let Some(task) = self.multi_turn.clone() else {
            return skip("needs multi_turn");
        };
        let get = |n: Option<i32>| {
            let mut r = GetTaskRequest::new(task.id.clone());
            r.history_length = n;
            self.t().get_task(&self.cx, r)
        };
        let full = get(None).await?;
        let users = full.history.iter().filter(|m| m.role == Role::User).count();
        ensure!(users >= 2, "full history has {users} user messages");
        let one = get(Some(1)).await?;
        ensure!(
            one.history.len() == 1,
            "historyLength=1 gave {}",
            one.history.len()
        );
        ensure!(
            one.history.first() == full.history.last(),
            "historyLength=1 is not the latest message"
        );
        if self.v03() {
            // 0.3 gives historyLength 0 no meaning of its own (7.3)
            return Ok(());
        }
        let none = get(Some(0)).await?;
        ensure!(
            none.history.is_empty(),
            "historyLength=0 gave {}",
            none.history.len()
        );
        Ok(())
    }

    async fn list_paging(&mut self) -> Res {
        if self.v03() {
            return skip("ListTasks has no A2A 0.3 method (tasks/list is 1.0 only)");
        }
        let context_id = self.uniq("ctx");
        let mut created = Vec::new();
        for i in 0..3 {
            let mut m = self.message(&format!("echo list {i}"));
            m.context_id.clone_from(&context_id);
            created.push(self.send_task(SendMessageRequest::new(m)).await?.id);
        }
        let list = |token: String| {
            let r = ListTasksRequest {
                context_id: context_id.clone(),
                page_size: Some(2),
                page_token: token,
                ..ListTasksRequest::default()
            };
            self.t().list_tasks(&self.cx, r)
        };
        let page1 = list(String::new()).await?;
        ensure!(
            page1.tasks.len() == 2,
            "page 1 has {} tasks",
            page1.tasks.len()
        );
        ensure!(
            !page1.next_page_token.is_empty(),
            "page 1 has no nextPageToken"
        );
        ensure!(page1.total_size == 3, "totalSize {}", page1.total_size);
        let page2 = list(page1.next_page_token.clone()).await?;
        ensure!(
            page2.tasks.len() == 1,
            "page 2 has {} tasks",
            page2.tasks.len()
        );
        ensure!(
            page2.next_page_token.is_empty(),
            "last page nextPageToken {:?}",
            page2.next_page_token
        );
        let mut listed: Vec<String> = page1
            .tasks
            .iter()
            .chain(&page2.tasks)
            .map(|t| t.id.clone())
            .collect();
        listed.sort();
        created.sort();
        ensure!(listed == created, "listed {listed:?}, created {created:?}");
        ensure!(
            page1.tasks.iter().all(|t| t.artifacts.is_empty()),
            "artifacts listed without includeArtifacts"
        );
        let stamps: Vec<(i64, i32)> = page1
            .tasks
            .iter()
            .chain(&page2.tasks)
            .filter_map(|t| t.status.timestamp.map(|s| (s.seconds(), s.nanos())))
            .collect();
        ensure!(
            stamps.windows(2).all(|w| w[0] >= w[1]),
            "not newest status timestamp first"
        );
        Ok(())
    }

    async fn cancel(&mut self) -> Res {
        let task = self
            .send_task(returning(SendMessageRequest::new(
                self.message("slow 5000"),
            )))
            .await?;
        let canceled = self
            .t()
            .cancel_task(&self.cx, CancelTaskRequest::new(task.id.clone()))
            .await?;
        ensure!(canceled.id == task.id, "cancel answered another task");
        ensure!(
            canceled.status.state == TaskState::Canceled,
            "{}",
            state(canceled.status.state)
        );
        let got = self
            .t()
            .get_task(&self.cx, GetTaskRequest::new(task.id.clone()))
            .await?;
        ensure!(
            got.status.state == TaskState::Canceled,
            "get after cancel: {}",
            state(got.status.state)
        );
        Ok(())
    }

    async fn subscribe(&mut self) -> Res {
        let task = self
            .send_task(returning(SendMessageRequest::new(
                self.message("slow 1500"),
            )))
            .await?;
        let request = SubscribeToTaskRequest {
            id: task.id.clone(),
            ..SubscribeToTaskRequest::default()
        };
        let events = self
            .stream(self.t().subscribe_to_task(&self.cx, request).await)
            .await?;
        let kinds = Self::kinds(&events);
        ensure!(
            self.v03() || kinds.first() == Some(&"task"),
            "subscription starts with {:?} (spec 3.1.6)",
            kinds.first()
        );
        ensure!(
            Self::final_state(events.last()) == Some(TaskState::Completed),
            "ends with {:?}",
            kinds.last()
        );
        Ok(())
    }

    fn push_config(
        &self,
        task_id: &str,
        path: &str,
    ) -> Result<TaskPushNotificationConfig, Outcome> {
        let Some(hook) = &self.webhook else {
            return Err(Outcome::Skip("needs push_create".to_owned()));
        };
        Ok(TaskPushNotificationConfig {
            task_id: task_id.to_owned(),
            url: hook.url(path),
            ..TaskPushNotificationConfig::default()
        })
    }

    async fn push_create(&mut self) -> Res {
        self.webhook = Some(
            Webhook::start()
                .await
                .map_err(|e| Outcome::Fail(format!("webhook: {e}")))?,
        );
        let task = self
            .send_task(returning(SendMessageRequest::new(
                self.message("slow 2000"),
            )))
            .await?;
        let mut a = self.push_config(&task.id, "/hook/a")?;
        a.token = "tok-a".to_owned();
        a.authentication = Some(AuthenticationInfo {
            scheme: "Bearer".to_owned(),
            credentials: "push-secret".to_owned(),
        });
        let mut b = self.push_config(&task.id, "/hook/b")?;
        b.token = "tok-b".to_owned();
        // B names its own id, which the agent keeps (spec 3.1.7-3.1.8), so
        // an agent which defaults the id cannot make B replace A;
        // push_ids_distinct checks that separately.
        b.id = self.uniq("cfg-b");
        let chosen = b.id.clone();
        let (want_a, want_b) = (a.url.clone(), b.url.clone());
        let a = self
            .t()
            .create_task_push_notification_config(&self.cx, a)
            .await?;
        let b = self
            .t()
            .create_task_push_notification_config(&self.cx, b)
            .await?;
        for (cfg, url) in [(&a, &want_a), (&b, &want_b)] {
            ensure!(!cfg.id.is_empty(), "no server-assigned config id");
            ensure!(cfg.task_id == task.id, "config taskId {:?}", cfg.task_id);
            ensure!(&cfg.url == url, "config url {:?}", cfg.url);
        }
        ensure!(a.id != b.id, "two configs got the same id");
        ensure!(
            b.id == chosen,
            "config created with id {chosen:?} came back as {:?} (spec 3.1.7)",
            b.id
        );
        self.push = Some((task, a, b));
        Ok(())
    }

    async fn push_get(&mut self) -> Res {
        let Some((task, a, _)) = self.push.clone() else {
            return skip("needs push_create");
        };
        let request = GetTaskPushNotificationConfigRequest {
            task_id: task.id.clone(),
            id: a.id.clone(),
            ..GetTaskPushNotificationConfigRequest::default()
        };
        let got = self
            .t()
            .get_task_push_notification_config(&self.cx, request)
            .await?;
        ensure!(
            got.id == a.id && got.url == a.url && got.token == "tok-a",
            "got {got:?}"
        );
        ensure!(
            got.authentication
                .as_ref()
                .is_some_and(|auth| auth.scheme.eq_ignore_ascii_case("bearer")),
            "authentication {:?}",
            got.authentication
        );
        Ok(())
    }

    async fn listed_ids(&self, task_id: &str) -> Result<Vec<String>, Outcome> {
        let request = ListTaskPushNotificationConfigsRequest {
            task_id: task_id.to_owned(),
            ..ListTaskPushNotificationConfigsRequest::default()
        };
        let listed = self
            .t()
            .list_task_push_notification_configs(&self.cx, request)
            .await?;
        let mut ids: Vec<String> = listed.configs.into_iter().map(|c| c.id).collect();
        ids.sort();
        Ok(ids)
    }

    async fn push_list(&mut self) -> Res {
        let Some((task, a, b)) = self.push.clone() else {
            return skip("needs push_create");
        };
        let ids = self.listed_ids(&task.id).await?;
        let mut want = vec![a.id, b.id];
        want.sort();
        ensure!(ids == want, "listed {ids:?}");
        Ok(())
    }

    async fn wait_for_completion(&self, path: &str) -> Result<Vec<Post>, Outcome> {
        let Some(hook) = &self.webhook else {
            return Err(Outcome::Skip("needs push_create".to_owned()));
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            let posts = hook.received(path);
            let done = posts.iter().any(|p| {
                if self.v03() {
                    // spec 0.3 9.5: the Task itself, 0.3 state names
                    return p.body.pointer("/status/state").and_then(|s| s.as_str())
                        == Some("completed");
                }
                let event = p.body.get("statusUpdate").or_else(|| p.body.get("task"));
                event
                    .and_then(|e| e.pointer("/status/state"))
                    .and_then(|s| s.as_str())
                    == Some("TASK_STATE_COMPLETED")
            });
            if done {
                return Ok(posts);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(Outcome::Fail(format!(
            "no COMPLETED notification at {path} in 10 s ({} POSTs)",
            hook.received(path).len()
        )))
    }

    async fn push_delivery(&mut self) -> Res {
        let Some((task, _, _)) = self.push.clone() else {
            return skip("needs push_create");
        };
        for post in self.wait_for_completion("/hook/a").await? {
            if self.v03() {
                // spec 0.3 9.5: the body is the Task; 0.3 does not make the
                // agent send the config's credentials
                ensure!(
                    post.body.get("id").and_then(|t| t.as_str()) == Some(task.id.as_str())
                        && post.body.get("kind").and_then(|k| k.as_str()) == Some("task"),
                    "notification body {}",
                    post.body
                );
                continue;
            }
            let auth = post.header("authorization");
            ensure!(
                auth == Some("Bearer push-secret"),
                "Authorization {auth:?} (spec 4.3.3)"
            );
            let Some(body) = post.body.as_object() else {
                return Err(Outcome::Fail("body is not a JSON object".to_owned()));
            };
            ensure!(
                body.len() == 1,
                "not one StreamResponse member: {:?}",
                body.keys()
            );
            let (kind, event) = body
                .iter()
                .next()
                .map(|(k, v)| (k.as_str(), v))
                .unwrap_or(("", &serde_json::Value::Null));
            let tid = if kind == "task" {
                event.get("id")
            } else {
                event.get("taskId")
            };
            ensure!(
                tid.and_then(|t| t.as_str()) == Some(task.id.as_str()),
                "notification for task {tid:?}"
            );
            let ctype = post.header("content-type").unwrap_or("");
            ensure!(ctype.contains("json"), "Content-Type {ctype:?}");
        }
        Ok(())
    }

    async fn push_token(&mut self) -> Res {
        if self.push.is_none() {
            return skip("needs push_create");
        }
        for post in self.wait_for_completion("/hook/b").await? {
            let token = post.header("x-a2a-notification-token");
            ensure!(token == Some("tok-b"), "X-A2A-Notification-Token {token:?}");
        }
        Ok(())
    }

    async fn push_delete(&mut self) -> Res {
        let Some((task, a, b)) = self.push.clone() else {
            return skip("needs push_create");
        };
        let request = DeleteTaskPushNotificationConfigRequest {
            task_id: task.id.clone(),
            id: a.id.clone(),
            ..DeleteTaskPushNotificationConfigRequest::default()
        };
        self.t()
            .delete_task_push_notification_config(&self.cx, request.clone())
            .await?;
        let ids = self.listed_ids(&task.id).await?;
        ensure!(
            !ids.contains(&a.id) && ids.contains(&b.id),
            "after delete, listed {ids:?}"
        );
        // spec 3.1.10: deletion MUST be idempotent
        self.t()
            .delete_task_push_notification_config(&self.cx, request)
            .await?;
        Ok(())
    }

    async fn push_ids_distinct(&mut self) -> Res {
        if self.webhook.is_none() {
            return skip("needs push_create");
        }
        let task = self
            .send_task(returning(SendMessageRequest::new(
                self.message("slow 2000"),
            )))
            .await?;
        let mut ids = Vec::new();
        for i in 1..=2 {
            let cfg = self.push_config(&task.id, &format!("/hook/c{i}"))?;
            ids.push(
                self.t()
                    .create_task_push_notification_config(&self.cx, cfg)
                    .await?
                    .id,
            );
        }
        ensure!(
            ids.iter().all(|i| !i.is_empty()) && ids[0] != ids[1],
            "two configs created without ids got ids {ids:?} (spec 3.1.7)"
        );
        ids.sort();
        let listed = self.listed_ids(&task.id).await?;
        ensure!(listed == ids, "listed {listed:?}");
        Ok(())
    }

    async fn extended_card(&mut self) -> Res {
        if self.bearer.is_none() {
            return skip("no --bearer given");
        }
        let public = &self.agent.card;
        ensure!(
            public.capabilities.extended_agent_card == Some(true),
            "public card does not declare extendedAgentCard"
        );
        let ext = self
            .t()
            .get_extended_agent_card(&self.cx, GetExtendedAgentCardRequest::default())
            .await?;
        ensure!(!ext.name.is_empty(), "extended card has no name");
        ensure!(
            ext.skills.len() > public.skills.len(),
            "extended card has {} skills, the public one {}",
            ext.skills.len(),
            public.skills.len()
        );
        Ok(())
    }

    async fn extended_card_unauthenticated(&mut self) -> Res {
        if self.bearer.is_none() {
            return skip("no --bearer given");
        }
        match self
            .t()
            .get_extended_agent_card(&CallContext::new(), GetExtendedAgentCardRequest::default())
            .await
        {
            Err(_) => Ok(()),
            Ok(card) => Err(Outcome::Fail(format!(
                "extended card served without credentials ({} skills)",
                card.skills.len()
            ))),
        }
    }

    fn expect_kind<T: std::fmt::Debug>(got: Result<T, A2aError>, kind: ErrorKind) -> Res {
        match got {
            Err(e) if e.kind() == kind => Ok(()),
            Err(e) => Err(Outcome::Fail(format!("{:?}: {e}, not {kind:?}", e.kind()))),
            Ok(v) => Err(Outcome::Fail(format!("succeeded: {v:?}"))),
        }
    }

    async fn completed_task(&mut self) -> Result<Task, Outcome> {
        match &self.completed {
            Some(t) => Ok(t.clone()),
            None => {
                self.send_task(SendMessageRequest::new(self.message("echo done")))
                    .await
            }
        }
    }

    async fn error_unknown_task(&mut self) -> Res {
        let id = self.uniq("no-such-task");
        let got = self.t().get_task(&self.cx, GetTaskRequest::new(id)).await;
        Self::expect_kind(got.map(|t| t.id), ErrorKind::TaskNotFound)
    }

    async fn error_cancel_completed(&mut self) -> Res {
        let task = self.completed_task().await?;
        let got = self
            .t()
            .cancel_task(&self.cx, CancelTaskRequest::new(task.id))
            .await;
        Self::expect_kind(got.map(|t| t.status.state), ErrorKind::TaskNotCancelable)
    }

    async fn error_subscribe_terminal(&mut self) -> Res {
        let task = self.completed_task().await?;
        let request = SubscribeToTaskRequest {
            id: task.id,
            ..SubscribeToTaskRequest::default()
        };
        if self.v03() {
            // 0.3 leaves the answer open (7.9): an A2A error, or a stream
            // whose events end in the terminal state.
            return match self.t().subscribe_to_task(&self.cx, request).await {
                Err(_) => Ok(()),
                Ok(events) => {
                    let events = self.stream(Ok(events)).await;
                    match events {
                        Err(_) => Ok(()),
                        Ok(events) => {
                            ensure!(
                                Self::final_state(events.last()) == Some(TaskState::Completed),
                                "resubscribe to a completed task streamed {:?}",
                                Self::kinds(&events)
                            );
                            Ok(())
                        }
                    }
                }
            };
        }
        // The error may come as the answer or as the stream's first item.
        let got = match self.t().subscribe_to_task(&self.cx, request).await {
            Err(e) => Err(e),
            Ok(mut events) => match events.next().await {
                Some(Err(e)) => Err(e),
                other => Ok(format!("streamed {other:?}")),
            },
        };
        Self::expect_kind(got, ErrorKind::UnsupportedOperation)
    }

    async fn part_shapes(&mut self) -> Res {
        let mut parts = Vec::new();
        for prefix in [
            "tck-artifact-data",
            "tck-artifact-file",
            "tck-artifact-file-url",
        ] {
            let m = Message::user_text(self.uniq(prefix), "x");
            let task = self.send_task(SendMessageRequest::new(m)).await?;
            ensure!(
                task.status.state == TaskState::Completed,
                "{prefix}: {}",
                state(task.status.state)
            );
            let mut all: Vec<Part> = task.artifacts.into_iter().flat_map(|a| a.parts).collect();
            ensure!(all.len() == 1, "{prefix}: {} parts", all.len());
            parts.push(all.remove(0));
        }
        let expected = serde_json::json!({"key": "value", "count": 42});
        match &parts[0].content {
            PartContent::Data(v) => {
                let count = v.get("count").and_then(serde_json::Value::as_f64);
                ensure!(
                    v.get("key") == expected.get("key") && count == Some(42.0),
                    "data {v}"
                );
            }
            other => return Err(Outcome::Fail(format!("data part is {other:?}"))),
        }
        ensure!(
            parts[1].content == PartContent::Raw(b"tck".to_vec())
                && parts[1].filename == "output.txt"
                && parts[1].media_type == "text/plain",
            "raw part {:?}",
            parts[1]
        );
        ensure!(
            parts[2].content == PartContent::Url("https://example.com/output.txt".to_owned())
                && parts[2].filename == "output.txt"
                && parts[2].media_type == "text/plain",
            "url part {:?}",
            parts[2]
        );
        Ok(())
    }

    async fn run(&mut self, name: &str) -> Res {
        match name {
            "card" => self.card().await,
            "send_blocking" => self.send_blocking().await,
            "send_nonblocking_poll" => self.send_nonblocking_poll().await,
            "direct_message" => self.direct_message().await,
            "stream_chunks" => self.stream_chunks().await,
            "multi_turn" => self.multi_turn().await,
            "auth_required" => self.auth_required().await,
            "get_history_length" => self.get_history_length().await,
            "list_paging" => self.list_paging().await,
            "cancel" => self.cancel().await,
            "subscribe" => self.subscribe().await,
            "push_create" => self.push_create().await,
            "push_get" => self.push_get().await,
            "push_list" => self.push_list().await,
            "push_delivery" => self.push_delivery().await,
            "push_token" => self.push_token().await,
            "push_delete" => self.push_delete().await,
            "push_ids_distinct" => self.push_ids_distinct().await,
            "extended_card" => self.extended_card().await,
            "extended_card_unauthenticated" => self.extended_card_unauthenticated().await,
            "error_unknown_task" => self.error_unknown_task().await,
            "error_cancel_completed" => self.error_cancel_completed().await,
            "error_subscribe_terminal" => self.error_subscribe_terminal().await,
            "part_shapes" => self.part_shapes().await,
            other => Err(Outcome::Fail(format!("no check named {other}"))),
        }
    }
}

async fn bounded<F: Future<Output = Res>>(f: F) -> Res {
    tokio::time::timeout(CHECK_TIMEOUT, f)
        .await
        .unwrap_or_else(|_| {
            Err(Outcome::Fail(format!(
                "timed out after {} s",
                CHECK_TIMEOUT.as_secs()
            )))
        })
}

struct Args {
    url: String,
    binding: Binding,
    bearer: Option<String>,
    only: Option<Vec<String>>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let (mut url, mut binding, mut bearer, mut only) = (None, None, None, None);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--url" => url = Some(value()?.trim_end_matches('/').to_owned()),
            "--binding" => {
                binding = Some(match value()?.as_str() {
                    "jsonrpc" => Binding::JsonRpc,
                    "rest" => Binding::HttpJson,
                    "grpc" => Binding::Grpc,
                    other => return Err(format!("--binding {other:?}: say jsonrpc, rest or grpc")),
                })
            }
            "--bearer" => bearer = Some(value()?),
            "--only" => only = Some(value()?.split(',').map(str::to_owned).collect()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Args {
        url: url.ok_or("--url is required")?,
        binding: binding.ok_or("--binding is required")?,
        bearer,
        only,
    })
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("a2a-interop-client-checks: {e}\nusage: --url URL --binding jsonrpc|rest|grpc [--bearer TOKEN] [--only a,b]");
            return ExitCode::from(2);
        }
    };
    let prefs = Preferences::new().with_bindings([args.binding]);
    let client = HyperClient::new().with_timeout(REQUEST_TIMEOUT);
    let agent = match tokio::time::timeout(
        CHECK_TIMEOUT,
        discover(client.clone(), &args.url, &prefs),
    )
    .await
    {
        Ok(Ok(agent)) => agent,
        Ok(Err(e)) => {
            println!("FAIL card: could not discover {}: {e}", args.url);
            println!("0 passed, 1 failed");
            return ExitCode::FAILURE;
        }
        Err(_) => {
            println!("FAIL card: discovery of {} timed out", args.url);
            println!("0 passed, 1 failed");
            return ExitCode::FAILURE;
        }
    };
    let mut agent = agent;
    if args.binding == Binding::Grpc
        && !agent.interface.url.contains("://")
        && args.url.starts_with("http://")
    {
        let url = format!("http://{}", agent.interface.url);
        match HttpTransport::new(client, Binding::Grpc, &url) {
            Ok(t) => agent.transport = t.with_tenant(agent.interface.tenant.clone()),
            Err(e) => {
                println!("FAIL card: the GRPC interface {url}: {e}");
                println!("0 passed, 1 failed");
                return ExitCode::FAILURE;
            }
        }
    }
    let mut cx = CallContext::new();
    if let Some(token) = &args.bearer {
        match HeaderValue::from_str(&format!("Bearer {token}")) {
            Ok(v) => {
                cx.headers.insert(AUTHORIZATION, v);
            }
            Err(_) => {
                eprintln!("a2a-interop-client-checks: the bearer token is not a header value");
                return ExitCode::from(2);
            }
        }
    }
    let mut checks = Checks {
        binding: args.binding,
        bearer: args.bearer,
        agent,
        cx,
        ids: std::sync::atomic::AtomicU64::new(1),
        completed: None,
        multi_turn: None,
        webhook: None,
        push: None,
    };
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for name in ORDER {
        if args
            .only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|n| n == name))
        {
            continue;
        }
        match bounded(checks.run(name)).await {
            Ok(()) => {
                passed += 1;
                println!("PASS {name}");
            }
            Err(Outcome::Skip(why)) => {
                skipped += 1;
                println!("SKIP {name}: {why}");
            }
            Err(Outcome::Fail(why)) => {
                failed += 1;
                println!("FAIL {name}: {why}");
            }
        }
    }
    let tail = if skipped > 0 {
        format!(", {skipped} skipped")
    } else {
        String::new()
    };
    println!("{passed} passed, {failed} failed{tail}");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
