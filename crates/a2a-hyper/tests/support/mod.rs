//! The agent the integration tests serve, and how they start it.

#![allow(dead_code)] // each test file uses part of it

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_hyper::{serve, RequestLog, ServeOptions};
use a2a_transport::{A2aServer, A2aService, BoxFuture, CallContext, EventStream, ServerConfig};
use a2a_types::{
    A2aError, AgentCapabilities, AgentCard, SendMessageRequest, SendMessageResponse,
    StreamResponse, Task, TaskState,
};
use futures_core::Stream;
use tokio::net::TcpListener;

/// Completes every message at once (a message `slow` after 3 s); streams
/// WORKING, then COMPLETED after a quiet 150 ms (a message `flood`: 8 KiB
/// events without end, as fast as they are taken).
pub(crate) struct Agent;

impl A2aService for Agent {
    fn send_message<'a>(
        &'a self,
        _: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, A2aError>> {
        Box::pin(async move {
            if request.message.text_content().as_deref() == Some("slow") {
                tokio::time::sleep(Duration::from_secs(3)).await;
            }
            Ok(Task::new("t-1", "c-1", TaskState::Completed).into())
        })
    }

    fn send_streaming_message<'a>(
        &'a self,
        _: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, A2aError>> {
        if request.message.text_content().as_deref() == Some("flood") {
            struct Flood;
            impl Stream for Flood {
                type Item = Result<StreamResponse, A2aError>;
                fn poll_next(
                    self: Pin<&mut Self>,
                    _: &mut Context<'_>,
                ) -> Poll<Option<Self::Item>> {
                    let id = "f".repeat(8192);
                    Poll::Ready(Some(Ok(StreamResponse::Task(Task::new(
                        id,
                        "c-1",
                        TaskState::Working,
                    )))))
                }
            }
            return Box::pin(async { Ok(Box::pin(Flood) as EventStream) });
        }
        struct Slow(u8, Pin<Box<tokio::time::Sleep>>);
        impl Stream for Slow {
            type Item = Result<StreamResponse, A2aError>;
            fn poll_next(
                mut self: Pin<&mut Self>,
                cx: &mut Context<'_>,
            ) -> Poll<Option<Self::Item>> {
                let task = |state| Some(Ok(StreamResponse::Task(Task::new("t-1", "c-1", state))));
                match self.0 {
                    0 => {
                        self.0 = 1;
                        Poll::Ready(task(TaskState::Working))
                    }
                    1 => match self.1.as_mut().poll(cx) {
                        Poll::Ready(()) => {
                            self.0 = 2;
                            Poll::Ready(task(TaskState::Completed))
                        }
                        Poll::Pending => Poll::Pending,
                    },
                    _ => Poll::Ready(None),
                }
            }
        }
        let sleep = Box::pin(tokio::time::sleep(Duration::from_millis(150)));
        Box::pin(async move { Ok(Box::pin(Slow(0, sleep)) as EventStream) })
    }
}

/// A valid card declaring both bindings where `ServerConfig::new()` serves
/// them (the server refuses anything else, spec 8.3.1).
pub(crate) fn card() -> AgentCard {
    let mut card: AgentCard = a2a_types::from_slice(
        br#"{
        "name": "Agent", "description": "Serves tests", "version": "1.0.0",
        "supportedInterfaces": [
            {"url": "http://agent.test/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "http://agent.test", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}],
        "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "t", "name": "T", "description": "Tests", "tags": ["t"]}]
    }"#,
    )
    .unwrap();
    card.capabilities = AgentCapabilities {
        streaming: Some(true),
        ..Default::default()
    };
    card
}

/// A served agent; dropping `stop` shuts it down.
pub(crate) struct Running {
    pub(crate) addr: SocketAddr,
    pub(crate) log: Arc<Mutex<Vec<RequestLog>>>,
    pub(crate) stop: tokio::sync::oneshot::Sender<()>,
    pub(crate) task: tokio::task::JoinHandle<()>,
}

/// The agent served with `config`, a 2 s drain timeout and a request log.
pub(crate) async fn start(config: ServerConfig) -> Running {
    start_with(config, ServeOptions::default()).await
}

/// [`start`] with `options` (their log replaced by the one kept).
pub(crate) async fn start_with(config: ServerConfig, options: ServeOptions) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = Arc::new(A2aServer::new(Agent, card(), config).unwrap());
    let log = Arc::new(Mutex::new(Vec::new()));
    let options = options
        .with_drain_timeout(Duration::from_secs(2))
        .with_log({
            let log = Arc::clone(&log);
            move |line| log.lock().unwrap().push(line.clone())
        });
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(serve(listener, server, options, async {
        let _ = stopped.await;
    }));
    Running {
        addr,
        log,
        stop,
        task,
    }
}
