//! The peer's server: a hyper HTTP/1.1 loop in front of the real
//! `A2aServer`, which records each request, hands it to the server, and
//! sends the server's answer or the script's raw one.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use a2a_transport::{dispatch, A2aServer, A2aService, Body, BoxFuture, CallContext, Forward};
use a2a_types::{A2aError, A2aRequest, Operation, Reply, SendMessageResponse, StreamResponse};
use bytes::Bytes;
use futures_core::Stream;
use http::{HeaderValue, Request, Response, StatusCode};
use http_body::Frame;
use http_body_util::BodyExt as _;
use hyper::body::Incoming;

use crate::record::Recording;
use crate::script::{Call, Chunk, Handler, Respond, Step, WireReply};

/// How long a drop waits for hyper to flush the bytes before it.
const FLUSH: std::time::Duration = std::time::Duration::from_millis(20);

/// The header that carries a request's sequence number from the HTTP
/// layer to the service, through the server's call context. Set by the
/// peer (a client's own value is replaced), never shown to scripts.
const SEQ_HEADER: &str = "x-a2a-test-peer-seq";

/// What one in-flight request shares between the HTTP layer, the service
/// and the response body.
#[derive(Debug, Default)]
pub(crate) struct Slot {
    wire: Mutex<Option<WireReply>>,
    jsonrpc_id: Option<String>,
    /// Set by a scripted [`Step::Drop`]: the body is cut where the event
    /// stream ended.
    drop: AtomicBool,
}

/// The state the peer, its service and its connections share.
pub(crate) struct Shared {
    pub(crate) scripts: Mutex<HashMap<Operation, Handler>>,
    pub(crate) recording: Recording,
    slots: Mutex<HashMap<u64, Arc<Slot>>>,
    pub(crate) max_body: usize,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("recording", &self.recording)
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section is one insert, remove or clone.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub(crate) fn new(max_records: usize, max_body: usize) -> Shared {
        Shared {
            scripts: Mutex::new(HashMap::new()),
            recording: Recording::new(max_records),
            slots: Mutex::new(HashMap::new()),
            max_body,
        }
    }

    pub(crate) fn set_script(&self, op: Operation, handler: Handler) {
        lock(&self.scripts).insert(op, handler);
    }

    pub(crate) fn clear_script(&self, op: Operation) {
        lock(&self.scripts).remove(&op);
    }

    fn script(&self, op: Operation) -> Option<Handler> {
        lock(&self.scripts).get(&op).cloned()
    }
}

/// The agent behind the server: every call recorded and answered by its
/// operation's script.
pub(crate) struct PeerService(pub(crate) Arc<Shared>);

/// The trait's defaults, for unscripted operations.
struct Unscripted;
impl A2aService for Unscripted {}

impl Forward for PeerService {
    fn forward<'a>(
        &'a self,
        cx: &'a CallContext,
        request: A2aRequest,
    ) -> BoxFuture<'a, Result<Reply, A2aError>> {
        Box::pin(async move {
            let seq = cx
                .headers
                .get(SEQ_HEADER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            let slot = seq.and_then(|s| lock(&self.0.slots).get(&s).cloned());
            if let Some(seq) = seq {
                self.0.recording.typed(seq, request.clone());
            }
            let op = request.operation();
            let Some(script) = self.0.script(op) else {
                return dispatch(&Unscripted, cx, request).await;
            };
            let mut context = cx.clone();
            context.headers.remove(SEQ_HEADER);
            let call = Call {
                seq: seq.unwrap_or_default(),
                request,
                context,
                jsonrpc_id: slot.as_ref().and_then(|s| s.jsonrpc_id.clone()),
            };
            let respond = script(&call);
            answer(op, respond, cx, slot, call).await
        })
    }
}

async fn answer(
    op: Operation,
    respond: Respond,
    cx: &CallContext,
    slot: Option<Arc<Slot>>,
    call: Call,
) -> Result<Reply, A2aError> {
    let mismatch = |what: &str| {
        A2aError::internal(format!(
            "the test peer's script answered {} with {what}",
            op.name()
        ))
    };
    match respond {
        Respond::Default => dispatch(&Unscripted, cx, call.request).await,
        Respond::Error(e) => Err(e),
        Respond::Wire(wire) => {
            let Some(slot) = slot else {
                return Err(A2aError::internal(
                    "a wire answer needs the peer's HTTP server",
                ));
            };
            *lock(&slot.wire) = Some(wire);
            // Replaced on the wire by the script's bytes.
            Err(A2aError::internal("answered on the wire"))
        }
        Respond::Task(task) => match op {
            Operation::SendMessage => Ok(Reply::SendMessage(SendMessageResponse::Task(task))),
            Operation::GetTask => Ok(Reply::GetTask(task)),
            Operation::CancelTask => Ok(Reply::CancelTask(task)),
            _ if op.is_streaming() => {
                stream_reply(op, vec![Step::Event(StreamResponse::Task(task))], cx, slot)
            }
            _ => Err(mismatch("a task")),
        },
        Respond::Message(m) => match op {
            Operation::SendMessage => Ok(Reply::SendMessage(SendMessageResponse::Message(m))),
            Operation::SendStreamingMessage => {
                stream_reply(op, vec![Step::Event(StreamResponse::Message(m))], cx, slot)
            }
            _ => Err(mismatch("a message")),
        },
        Respond::Json(value) => {
            if op.is_streaming() {
                return Err(mismatch("JSON (use Respond::Stream)"));
            }
            let bytes = serde_json::to_vec(&value).map_err(|e| mismatch(&e.to_string()))?;
            Reply::from_json(op, &bytes, &a2a_types::DecodeLimits::default())
                .map_err(|e| mismatch(&format!("JSON that is not its result: {e}")))
        }
        Respond::Stream(steps) => {
            if !op.is_streaming() {
                return Err(mismatch("a stream"));
            }
            stream_reply(op, steps, cx, slot)
        }
    }
}

fn stream_reply(
    op: Operation,
    steps: Vec<Step>,
    cx: &CallContext,
    slot: Option<Arc<Slot>>,
) -> Result<Reply, A2aError> {
    let events = Box::pin(Steps {
        steps: steps.into(),
        sleep: None,
        cutting: false,
        cx: cx.clone(),
        slot,
    });
    Reply::stream(op, events).map_err(|_| A2aError::internal("not a streaming operation"))
}

/// A scripted stream: its steps in order, waiting on tokio's clock.
struct Steps {
    steps: std::collections::VecDeque<Step>,
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
    /// A drop was reached: end (and cut) once the flush wait is over.
    cutting: bool,
    cx: CallContext,
    slot: Option<Arc<Slot>>,
}

impl Stream for Steps {
    type Item = Result<StreamResponse, A2aError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            if let Some(sleep) = self.sleep.as_mut() {
                if sleep.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                self.sleep = None;
            }
            if self.cutting {
                if let Some(slot) = &self.slot {
                    slot.drop.store(true, Ordering::SeqCst);
                }
                return Poll::Ready(None);
            }
            match self.steps.pop_front() {
                None => return Poll::Ready(None),
                Some(Step::Sleep(d)) => self.sleep = Some(Box::pin(tokio::time::sleep(d))),
                Some(Step::Event(e)) => return Poll::Ready(Some(Ok(e))),
                Some(Step::Labeled(id, e)) => {
                    self.cx.event_ids.label(&id);
                    return Poll::Ready(Some(Ok(e)));
                }
                Some(Step::Error(e)) => {
                    self.steps.clear();
                    return Poll::Ready(Some(Err(e)));
                }
                Some(Step::Drop) => {
                    // hyper discards what it has not flushed when a body
                    // fails: give it the events before this step first.
                    self.steps.clear();
                    self.cutting = true;
                    self.sleep = Some(Box::pin(tokio::time::sleep(FLUSH)));
                }
            }
        }
    }
}

/// The JSON text of a JSON-RPC request's id, for wire answers.
fn jsonrpc_id(body: &[u8]) -> Option<String> {
    match a2a_jsonrpc::peek_id(body) {
        a2a_jsonrpc::Id::Null => None,
        a2a_jsonrpc::Id::Number(n) => Some(n.as_str().to_owned()),
        a2a_jsonrpc::Id::String(s) => serde_json::to_string(&s).ok(),
    }
}

/// Answers one HTTP request.
pub(crate) async fn handle(
    shared: Arc<Shared>,
    server: Arc<A2aServer<PeerService>>,
    request: Request<Incoming>,
) -> Result<Response<PeerBody>, Infallible> {
    let (mut parts, incoming) = request.into_parts();
    let body = match http_body_util::Limited::new(incoming, shared.max_body.saturating_add(1))
        .collect()
        .await
    {
        Ok(collected) => collected.to_bytes(),
        Err(_) => {
            // Over the limit, or the client went away: nothing to record.
            let mut response = Response::new(PeerBody::Bytes(Some(Bytes::new())));
            *response.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
            return Ok(response);
        }
    };
    let path = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "/".to_owned());
    let seq = shared.recording.start(
        parts.method.clone(),
        path,
        parts.headers.clone(),
        body.clone(),
    );
    let slot = Arc::new(Slot {
        jsonrpc_id: jsonrpc_id(&body),
        ..Slot::default()
    });
    lock(&shared.slots).insert(seq, Arc::clone(&slot));
    parts.headers.insert(SEQ_HEADER, HeaderValue::from(seq));
    let response = server.handle(Request::from_parts(parts, body)).await;
    lock(&shared.slots).remove(&seq);
    let wire = lock(&slot.wire).take();
    let response = match wire {
        Some(wire) => {
            let mut response = Response::new(PeerBody::Wire(WireBody {
                chunks: wire.body.into(),
                sleep: None,
                cutting: false,
            }));
            *response.status_mut() = wire.status;
            for (name, value) in wire.headers {
                response.headers_mut().append(name, value);
            }
            response
        }
        None => response.map(|body| PeerBody::Server { body, slot }),
    };
    shared.recording.status(seq, response.status());
    Ok(response)
}

/// The peer's response body: the server's, cut when a script dropped the
/// connection, or a wire answer's chunks.
pub(crate) enum PeerBody {
    /// Fixed bytes, sent once.
    Bytes(Option<Bytes>),
    /// The server's body.
    Server { body: Body, slot: Arc<Slot> },
    /// A scripted raw body.
    Wire(WireBody),
}

pub(crate) struct WireBody {
    chunks: std::collections::VecDeque<Chunk>,
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
    /// A drop was reached: fail the body once the flush wait is over.
    cutting: bool,
}

/// The error that makes hyper cut the connection (a scripted drop).
#[derive(Debug)]
pub(crate) struct Dropped;

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection dropped by the test peer's script")
    }
}

impl std::error::Error for Dropped {}

impl http_body::Body for PeerBody {
    type Data = Bytes;
    type Error = Dropped;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Dropped>>> {
        match self.get_mut() {
            PeerBody::Bytes(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            PeerBody::Server { body, slot } => {
                match http_body::Body::poll_frame(Pin::new(body), cx) {
                    Poll::Pending => Poll::Pending,
                    Poll::Ready(Some(Ok(frame))) => Poll::Ready(Some(Ok(frame))),
                    Poll::Ready(Some(Err(never))) => match never {},
                    Poll::Ready(None) if slot.drop.load(Ordering::SeqCst) => {
                        Poll::Ready(Some(Err(Dropped)))
                    }
                    Poll::Ready(None) => Poll::Ready(None),
                }
            }
            PeerBody::Wire(w) => loop {
                if let Some(sleep) = w.sleep.as_mut() {
                    if sleep.as_mut().poll(cx).is_pending() {
                        return Poll::Pending;
                    }
                    w.sleep = None;
                }
                if w.cutting {
                    return Poll::Ready(Some(Err(Dropped)));
                }
                match w.chunks.pop_front() {
                    None => return Poll::Ready(None),
                    Some(Chunk::Data(b)) => return Poll::Ready(Some(Ok(Frame::data(b)))),
                    Some(Chunk::Sleep(d)) => w.sleep = Some(Box::pin(tokio::time::sleep(d))),
                    Some(Chunk::Drop) => {
                        // As for a stream's drop: flush what went before.
                        w.chunks.clear();
                        w.cutting = true;
                        w.sleep = Some(Box::pin(tokio::time::sleep(FLUSH)));
                    }
                }
            },
        }
    }

    fn size_hint(&self) -> http_body::SizeHint {
        match self {
            PeerBody::Bytes(Some(b)) => http_body::SizeHint::with_exact(b.len() as u64),
            PeerBody::Bytes(None) => http_body::SizeHint::with_exact(0),
            PeerBody::Server { body, .. } => http_body::Body::size_hint(body),
            PeerBody::Wire(w) => match w.chunks.iter().collect::<Vec<_>>().as_slice() {
                [] => http_body::SizeHint::with_exact(0),
                [Chunk::Data(b)] => http_body::SizeHint::with_exact(b.len() as u64),
                _ => http_body::SizeHint::default(),
            },
        }
    }
}
