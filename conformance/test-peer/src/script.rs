//! What a scripted operation answers ([`Respond`]): a typed answer the
//! real server encodes, a stream of [`Step`]s, an error, or raw bytes on
//! the wire ([`WireReply`]) that bypass the encoder.

use std::sync::Arc;
use std::time::Duration;

use a2a_transport::CallContext;
use a2a_types::{A2aError, A2aRequest, Message, Operation, StreamResponse, Task};
use bytes::Bytes;
use http::{HeaderName, HeaderValue, StatusCode};
use serde::Serialize;

/// One call as a script sees it: the typed request the server decoded and
/// the call's context (version, extensions, tenant, headers).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Call {
    /// The position of the HTTP request among those the peer received
    /// (from 0), the same as its [`Received::seq`](crate::Received::seq).
    pub seq: u64,
    /// The typed request.
    pub request: A2aRequest,
    /// The call's context, as the server filled it.
    pub context: CallContext,
    /// For a JSON-RPC call, the request's `id` as its JSON text (`1`,
    /// `"abc"`), to echo in a [`WireReply`]; `None` on HTTP+JSON.
    pub jsonrpc_id: Option<String>,
}

impl Call {
    /// The operation called.
    pub fn operation(&self) -> Operation {
        self.request.operation()
    }

    /// The message of a `SendMessage` or `SendStreamingMessage` call.
    pub fn message(&self) -> Option<&Message> {
        match &self.request {
            A2aRequest::SendMessage(r) | A2aRequest::SendStreamingMessage(r) => Some(&r.message),
            _ => None,
        }
    }

    /// The text of the message's text parts, joined with spaces (empty for
    /// other operations).
    pub fn text(&self) -> String {
        let Some(message) = self.message() else {
            return String::new();
        };
        message
            .parts
            .iter()
            .filter_map(|p| match &p.content {
                a2a_types::PartContent::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The task id a call names (`GetTask`, `CancelTask`,
    /// `SubscribeToTask`, the push-config operations), if any.
    pub fn task_id(&self) -> Option<&str> {
        self.request
            .string_field("id")
            .filter(|_| !matches!(self.request, A2aRequest::GetTaskPushNotificationConfig(_)))
            .or_else(|| self.request.string_field("taskId"))
            .filter(|id| !id.is_empty())
    }
}

/// A script: the answer to each call of one operation.
pub(crate) type Handler = Arc<dyn Fn(&Call) -> Respond + Send + Sync>;

/// What a scripted operation answers.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Respond {
    /// What an unscripted operation answers: the `A2aService` trait's
    /// default (`UnsupportedOperationError`, or the push and card errors of
    /// spec 3.1.7-3.1.11).
    Default,
    /// A task: `SendMessage` answers it as its `task` member, `GetTask` and
    /// `CancelTask` as is, the streaming operations as a one-event stream.
    Task(Task),
    /// A direct message, for `SendMessage` and `SendStreamingMessage`.
    Message(Message),
    /// Any unary result as ProtoJSON (a `ListTasksResponse`, a push config,
    /// an `AgentCard`), decoded as the operation's result when answered; a
    /// value that does not decode is answered as `InternalError` naming why.
    Json(serde_json::Value),
    /// An error, with its details, encoded by the binding (spec 9.5, 11.6).
    Error(A2aError),
    /// A stream of events, waits, errors and a dropped connection, for the
    /// streaming operations.
    Stream(Vec<Step>),
    /// Bytes on the wire, in place of whatever the server would write.
    Wire(WireReply),
}

impl Respond {
    /// Any serializable result, as [`Respond::Json`]; a value that does not
    /// serialize is answered as `InternalError`.
    pub fn json(value: &impl Serialize) -> Respond {
        match serde_json::to_value(value) {
            Ok(v) => Respond::Json(v),
            Err(e) => Respond::Error(A2aError::internal(format!(
                "the script's JSON answer does not serialize: {e}"
            ))),
        }
    }

    /// A stream of these events, one after another with no wait.
    pub fn events(events: impl IntoIterator<Item = StreamResponse>) -> Respond {
        Respond::Stream(events.into_iter().map(Step::Event).collect())
    }
}

impl From<Task> for Respond {
    fn from(task: Task) -> Respond {
        Respond::Task(task)
    }
}

impl From<Message> for Respond {
    fn from(message: Message) -> Respond {
        Respond::Message(message)
    }
}

impl From<A2aError> for Respond {
    fn from(error: A2aError) -> Respond {
        Respond::Error(error)
    }
}

impl From<WireReply> for Respond {
    fn from(wire: WireReply) -> Respond {
        Respond::Wire(wire)
    }
}

/// One step of a scripted stream.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Step {
    /// An event, framed by the server (`id:` its position in the stream).
    Event(StreamResponse),
    /// An event with this SSE id (at most 256 visible ASCII bytes; another
    /// label is written as the event's position).
    Labeled(String, StreamResponse),
    /// A wait before the next step (the server's keep-alive comments, when
    /// [`Builder::keep_alive`](crate::Builder::keep_alive) set them, go out
    /// meanwhile).
    Sleep(Duration),
    /// An error frame, which ends the stream (spec 9.4.2, 11.7).
    Error(A2aError),
    /// The connection is cut here (after the events before it went out):
    /// no end of the chunked body, no error frame, as when a proxy or the
    /// network drops it.
    Drop,
}

/// A piece of a [`WireReply`] body.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Chunk {
    /// These bytes, as one write.
    Data(Bytes),
    /// A wait before the next chunk.
    Sleep(Duration),
    /// The connection is cut here (after the chunks before it went out).
    Drop,
}

/// A raw HTTP answer, sent as it is: for the legal-but-awkward variants
/// the server's encoder never writes (snake_case names, enum numbers,
/// unknown fields, `201`, keep-alive comments at chosen points).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct WireReply {
    /// The status.
    pub status: StatusCode,
    /// The headers, in order (repeated names are all sent).
    pub headers: Vec<(HeaderName, HeaderValue)>,
    /// The body, chunk by chunk.
    pub body: Vec<Chunk>,
}

impl WireReply {
    /// An answer with `status`, no headers and an empty body.
    pub fn new(status: StatusCode) -> WireReply {
        WireReply {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// A `200` JSON body (`application/json`).
    pub fn json(body: impl Into<Bytes>) -> WireReply {
        WireReply::new(StatusCode::OK)
            .header(http::header::CONTENT_TYPE, "application/json")
            .with_body(body)
    }

    /// A JSON-RPC success for `call` (its id echoed) whose `result` is the
    /// JSON text `result`, as written.
    pub fn jsonrpc_result(call: &Call, result: &str) -> WireReply {
        let id = call.jsonrpc_id.as_deref().unwrap_or("null");
        WireReply::json(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#
        ))
    }

    /// A JSON-RPC error for `call` whose `error` is the JSON text `error`.
    pub fn jsonrpc_error(call: &Call, error: &str) -> WireReply {
        let id = call.jsonrpc_id.as_deref().unwrap_or("null");
        WireReply::json(format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#))
    }

    /// A `200` `text/event-stream` whose body is these chunks.
    pub fn sse(chunks: impl IntoIterator<Item = Chunk>) -> WireReply {
        let mut reply = WireReply::new(StatusCode::OK)
            .header(http::header::CONTENT_TYPE, "text/event-stream")
            .header(http::header::CACHE_CONTROL, "no-cache");
        reply.body = chunks.into_iter().collect();
        reply
    }

    /// The same answer with one more header; a name or value that is not
    /// valid HTTP is left out.
    pub fn header(mut self, name: impl AsRef<str>, value: &str) -> WireReply {
        if let (Ok(n), Ok(v)) = (
            HeaderName::try_from(name.as_ref()),
            HeaderValue::from_str(value),
        ) {
            self.headers.push((n, v));
        }
        self
    }

    /// The same answer with `body` as its only chunk.
    pub fn with_body(mut self, body: impl Into<Bytes>) -> WireReply {
        self.body = vec![Chunk::Data(body.into())];
        self
    }
}

/// An SSE event frame of `data` (one `data:` line per line), with an
/// optional `id:`.
pub fn sse_event(id: Option<&str>, data: &str) -> Chunk {
    let mut frame = String::new();
    if let Some(id) = id {
        frame.push_str("id: ");
        frame.push_str(id);
        frame.push('\n');
    }
    for line in data.lines() {
        frame.push_str("data: ");
        frame.push_str(line);
        frame.push('\n');
    }
    frame.push('\n');
    Chunk::Data(Bytes::from(frame))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_event_frames_each_line() {
        let Chunk::Data(b) = sse_event(Some("7"), "{\"a\":\n1}") else {
            panic!("not data")
        };
        assert_eq!(&b[..], b"id: 7\ndata: {\"a\":\ndata: 1}\n\n");
    }

    #[test]
    fn jsonrpc_result_echoes_the_id() {
        let call = Call {
            seq: 0,
            request: A2aRequest::empty(Operation::GetTask),
            context: CallContext::new(),
            jsonrpc_id: Some("\"x\"".into()),
        };
        let Chunk::Data(b) = &WireReply::jsonrpc_result(&call, "{}").body[0] else {
            panic!("not data")
        };
        assert_eq!(&b[..], br#"{"jsonrpc":"2.0","id":"x","result":{}}"#);
    }
}
