//! `TestPeer`: a scriptable A2A agent on a real loopback HTTP server, for
//! a host's integration tests of its client, gateway or proxy.
//!
//! # What it owns
//!
//! - **A real server.** [`TestPeer::start`] binds `127.0.0.1:0` and serves
//!   the agent card (spec 8.2), JSON-RPC at [`jsonrpc_url`](TestPeer::jsonrpc_url)
//!   (spec 9) and HTTP+JSON at [`rest_url`](TestPeer::rest_url) (spec 11)
//!   through the product's own `A2aServer`, so requests are decoded and
//!   answers encoded exactly as an a2a-core agent does: version
//!   negotiation, validation, error bodies with details, SSE framing with
//!   `id:`s and keep-alive comments.
//! - **Scripts per operation.** [`on`](TestPeer::on) takes a closure from
//!   the [`Call`] (the typed request and its context) to a [`Respond`]: a
//!   task, a message, any result as JSON, an error with its details, a
//!   stream of [`Step`]s (events, waits, an error frame, a dropped
//!   connection), or raw bytes ([`WireReply`]) for the variants the
//!   encoder never writes. [`answer`](TestPeer::answer) is a canned
//!   reply, [`answer_in_turn`](TestPeer::answer_in_turn) a sequence.
//!   An unscripted operation answers the `A2aService` trait's default
//!   (`UnsupportedOperationError`, or the push and extended-card errors).
//! - **A recording** of every HTTP request ([`Received`]): method, path
//!   and query, headers, body, the typed requests the server decoded, and
//!   the status answered.
//!
//! It uses tokio (it spawns on the caller's runtime) and hyper, which a
//! host's `#[tokio::test]` already has. Dropping the peer stops its server
//! and closes its connections.
//!
//! # Limits
//!
//! | what | limit |
//! | --- | --- |
//! | requests recorded | the first 1000 ([`Builder::max_records`]); later ones are answered and counted ([`TestPeer::total_received`]), not kept |
//! | request body | 16 MiB ([`Builder::max_body`]); one over it is answered `413` and not recorded |
//! | connections | HTTP/1.1 on loopback, as many as the test opens, until the peer is dropped |
//!
//! # Example
//!
//! ```
//! use a2a_test_peer::TestPeer;
//! use a2a_transport::{A2aService, Binding, CallContext, HttpTransport};
//! use a2a_types::{Artifact, Message, Operation, Part, SendMessageRequest, SendMessageResponse, Task, TaskState};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // In a #[tokio::test]:
//! let peer = TestPeer::start().await?;
//! peer.on(Operation::SendMessage, |call| {
//!     let mut task = Task::new("t-1", "c-1", TaskState::Completed);
//!     task.artifacts.push(Artifact::new("a-1", vec![Part::text(call.text())]));
//!     task
//! });
//!
//! let client = HttpTransport::new(a2a_hyper::HyperClient::new(), Binding::JsonRpc, &peer.jsonrpc_url())?;
//! let request = SendMessageRequest::new(Message::user_text("m-1", "hello"));
//! let SendMessageResponse::Task(task) = client.send_message(&CallContext::new(), request).await? else {
//!     panic!("a task was scripted")
//! };
//! assert_eq!(task.status.state, TaskState::Completed);
//!
//! let received = peer.received();
//! assert_eq!(received[0].header("a2a-version"), Some("1.0"));
//! assert_eq!(received[0].operation(), Some(Operation::SendMessage));
//! # Ok(()) }
//! ```

mod record;
mod script;
mod server;

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use a2a_transport::{A2aServer, Binding, ServerConfig};
use a2a_types::{AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Operation};
use hyper_util::rt::TokioIo;

pub use record::Received;
pub use script::{sse_event, Call, Chunk, Respond, Step, WireReply};

use server::{PeerService, Shared};

/// The path of the JSON-RPC endpoint, under the peer's URL.
pub const JSONRPC_PATH: &str = "/jsonrpc";
/// The base path of the HTTP+JSON routes, under the peer's URL.
pub const REST_PATH: &str = "/rest";
/// Requests recorded in full by default.
pub const DEFAULT_MAX_RECORDS: usize = 1000;

/// An edit of the card, applied once at start.
type CardEdit = Box<dyn FnOnce(&mut AgentCard) + Send>;

/// How a [`TestPeer`] starts: its card and limits.
pub struct Builder {
    streaming: bool,
    push_notifications: bool,
    tenant: String,
    keep_alive: Option<Duration>,
    max_records: usize,
    max_body: usize,
    edit_card: Option<CardEdit>,
}

impl std::fmt::Debug for Builder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Builder")
            .field("streaming", &self.streaming)
            .field("push_notifications", &self.push_notifications)
            .field("tenant", &self.tenant)
            .field("keep_alive", &self.keep_alive)
            .field("max_records", &self.max_records)
            .field("max_body", &self.max_body)
            .finish_non_exhaustive()
    }
}

impl Default for Builder {
    fn default() -> Builder {
        Builder::new()
    }
}

impl Builder {
    /// The defaults: a card declaring streaming and push notifications,
    /// no tenant, no keep-alive comments, 1000 records, 16 MiB bodies.
    pub fn new() -> Builder {
        Builder {
            streaming: true,
            push_notifications: true,
            tenant: String::new(),
            keep_alive: None,
            max_records: DEFAULT_MAX_RECORDS,
            max_body: a2a_transport::server::DEFAULT_MAX_BODY_SIZE,
            edit_card: None,
        }
    }

    /// Whether the card declares `capabilities.streaming` (spec 4.4.3);
    /// without it the server refuses the streaming operations.
    pub fn streaming(mut self, on: bool) -> Builder {
        self.streaming = on;
        self
    }

    /// Whether the card declares `capabilities.pushNotifications`; without
    /// it the server refuses the push-config operations.
    pub fn push_notifications(mut self, on: bool) -> Builder {
        self.push_notifications = on;
        self
    }

    /// The `tenant` both interfaces of the card name (spec 8.3.2): clients
    /// must send it.
    pub fn tenant(mut self, tenant: impl Into<String>) -> Builder {
        self.tenant = tenant.into();
        self
    }

    /// A keep-alive comment in every stream after each `interval` without
    /// an event (the server's `KeepAlive`, on tokio's clock).
    pub fn keep_alive(mut self, interval: Duration) -> Builder {
        self.keep_alive = Some(interval);
        self
    }

    /// How many requests are recorded in full.
    pub fn max_records(mut self, max: usize) -> Builder {
        self.max_records = max;
        self
    }

    /// The largest request body accepted.
    pub fn max_body(mut self, max: usize) -> Builder {
        self.max_body = max;
        self
    }

    /// Edits the card after the peer filled in its interfaces (their URLs
    /// name the bound port). The server refuses a card that does not
    /// validate or whose interfaces it does not serve (start fails with
    /// `InvalidInput`).
    pub fn card(mut self, edit: impl FnOnce(&mut AgentCard) + Send + 'static) -> Builder {
        self.edit_card = Some(Box::new(edit));
        self
    }

    /// Binds a loopback port and starts serving on the current tokio
    /// runtime.
    ///
    /// # Errors
    ///
    /// The port could not be bound, or the server refused the card.
    pub async fn start(self) -> io::Result<TestPeer> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}", listener.local_addr()?);
        let mut card = default_card(&url, &self);
        if let Some(edit) = self.edit_card {
            edit(&mut card);
        }
        let mut config = ServerConfig::new()
            .with_jsonrpc_path(JSONRPC_PATH)
            .with_rest_base_path(REST_PATH)
            .with_max_body_size(self.max_body);
        if let Some(interval) = self.keep_alive {
            config = config.with_keep_alive(interval, a2a_hyper::TokioTimer);
        }
        let shared = Arc::new(Shared::new(self.max_records, self.max_body));
        let server = A2aServer::new(PeerService(Arc::clone(&shared)), card.clone(), config)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        let task = tokio::spawn(accept(listener, Arc::clone(&shared), Arc::new(server)));
        Ok(TestPeer {
            url,
            card,
            shared,
            task,
        })
    }
}

fn default_card(url: &str, b: &Builder) -> AgentCard {
    let mut jsonrpc = AgentInterface::new(format!("{url}{JSONRPC_PATH}"), "JSONRPC", "1.0");
    let mut rest = AgentInterface::new(format!("{url}{REST_PATH}"), "HTTP+JSON", "1.0");
    jsonrpc.tenant.clone_from(&b.tenant);
    rest.tenant.clone_from(&b.tenant);
    let capabilities = AgentCapabilities {
        streaming: Some(b.streaming),
        push_notifications: Some(b.push_notifications),
        ..AgentCapabilities::default()
    };
    let skill = AgentSkill {
        id: "script".into(),
        name: "Script".into(),
        description: "Answers as the test scripted".into(),
        tags: vec!["test".into()],
        ..AgentSkill::default()
    };
    AgentCard {
        name: "TestPeer".into(),
        description: "A scripted A2A agent for tests".into(),
        version: "1.0.0".into(),
        supported_interfaces: vec![jsonrpc, rest],
        capabilities,
        default_input_modes: vec!["text/plain".into()],
        default_output_modes: vec!["text/plain".into()],
        skills: vec![skill],
        ..AgentCard::default()
    }
}

async fn accept(
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    server: Arc<A2aServer<PeerService>>,
) {
    // Dropped with this task when the peer is, which aborts every
    // connection still open.
    let mut connections = tokio::task::JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let (shared, server) = (Arc::clone(&shared), Arc::clone(&server));
                    let service = hyper::service::service_fn(move |request| {
                        server::handle(Arc::clone(&shared), Arc::clone(&server), request)
                    });
                    connections.spawn(async move {
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                }
                // Out of descriptors, say: wait a moment and go on.
                Err(_) => tokio::time::sleep(Duration::from_millis(5)).await,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
}

/// A scriptable A2A agent on a loopback port (see the crate docs).
pub struct TestPeer {
    url: String,
    card: AgentCard,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for TestPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestPeer")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl Drop for TestPeer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl TestPeer {
    /// A peer with the default card ([`Builder::new`]).
    ///
    /// # Errors
    ///
    /// The port could not be bound.
    pub async fn start() -> io::Result<TestPeer> {
        Builder::new().start().await
    }

    /// A builder, to change the card or the limits.
    pub fn builder() -> Builder {
        Builder::new()
    }

    /// The base URL, `http://127.0.0.1:<port>`; the card is at
    /// `<url>/.well-known/agent-card.json`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The URL of the agent card (spec 8.2).
    pub fn card_url(&self) -> String {
        format!("{}{}", self.url, a2a_transport::server::AGENT_CARD_PATH)
    }

    /// The JSON-RPC interface's URL.
    pub fn jsonrpc_url(&self) -> String {
        format!("{}{JSONRPC_PATH}", self.url)
    }

    /// The HTTP+JSON interface's URL.
    pub fn rest_url(&self) -> String {
        format!("{}{REST_PATH}", self.url)
    }

    /// The URL of `binding`'s interface (`None` for a binding the peer
    /// does not serve).
    pub fn url_of(&self, binding: Binding) -> Option<String> {
        match binding {
            Binding::JsonRpc => Some(self.jsonrpc_url()),
            Binding::HttpJson => Some(self.rest_url()),
            _ => None,
        }
    }

    /// The card the peer serves.
    pub fn card(&self) -> &AgentCard {
        &self.card
    }

    /// Scripts `op`: each call is answered by `script`, replacing any
    /// earlier script of `op`. A script that panics is answered as
    /// `InternalError`, like any handler's panic.
    pub fn on<F, R>(&self, op: Operation, script: F)
    where
        F: Fn(&Call) -> R + Send + Sync + 'static,
        R: Into<Respond>,
    {
        self.shared
            .set_script(op, Arc::new(move |call: &Call| script(call).into()));
    }

    /// Answers every call of `op` with `respond`.
    pub fn answer(&self, op: Operation, respond: impl Into<Respond>) {
        let respond = respond.into();
        self.on(op, move |_| respond.clone());
    }

    /// Answers the calls of `op` with `answers` in turn, the last one
    /// again for every later call (none: the trait's default).
    pub fn answer_in_turn(&self, op: Operation, answers: Vec<Respond>) {
        let next = AtomicUsize::new(0);
        self.on(op, move |_| {
            let i = next.fetch_add(1, Ordering::SeqCst);
            answers
                .get(i)
                .or(answers.last())
                .cloned()
                .unwrap_or(Respond::Default)
        });
    }

    /// Removes the script of `op`: it answers the trait's default again.
    pub fn reset(&self, op: Operation) {
        self.shared.clear_script(op);
    }

    /// Every request recorded so far, in the order received.
    pub fn received(&self) -> Vec<Received> {
        self.shared.recording.all()
    }

    /// The recorded requests whose (first) typed request is of `op`.
    pub fn received_for(&self, op: Operation) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|r| r.operation() == Some(op))
            .collect()
    }

    /// How many requests arrived, recorded or not.
    pub fn total_received(&self) -> u64 {
        self.shared.recording.total()
    }
}
