//! A custom transport: A2A over line-delimited JSON-RPC on any byte
//! stream (stdin and stdout, a pipe, a socket), the shape of a stdio
//! binding. The server side calls the same public pipeline as HTTP,
//! [`A2aServer::serve`], so every check happens in the same order with
//! the same errors; the client side is a [`Forward`], so it is an
//! `A2aService` like the HTTP transports.
//!
//! # The binding (spec 12)
//!
//! - **Identifier** (spec 5.8, 12.7): [`BINDING`], declared in the card
//!   with the URL of the stream (`stdio:` for standard input and output).
//! - **Framing**: each message is one JSON object on one line, UTF-8,
//!   ended by `\n`; a line is at most [`LineConfig::max_line`] bytes (a
//!   longer one is answered with `-32600` and skipped). The JSON writers
//!   escape control characters, so a message never contains a raw
//!   newline.
//! - **Requests** are JSON-RPC 2.0 requests (spec 9.3) with one more
//!   member, [`SERVICE_PARAMETERS`]: an object of string values holding
//!   the service parameters (`A2A-Version`, `A2A-Extensions`, spec 3.2.6)
//!   and the credentials (`Authorization`, spec 12.6), named as the HTTP
//!   headers are (case-insensitive, at most
//!   [`LineConfig::max_service_parameters`] of them, each a valid header
//!   value). Without `A2A-Version` the caller speaks 0.3 (spec 3.6.2).
//! - **Responses** are JSON-RPC responses (spec 9.4, 9.5) with the
//!   request's id; requests are answered concurrently, so responses may
//!   come in any order. Errors are JSON-RPC error objects with the A2A
//!   codes and details of the HTTP binding, authentication included: there
//!   is no challenge header, the error's message says what is needed.
//! - **Streams** (spec 12.5): each event is a JSON-RPC response whose
//!   `result` is a `StreamResponse`, in the order the agent produced
//!   them; an error ends the stream as an error response; otherwise the
//!   stream ends with `{"jsonrpc":"2.0","id":…,"a2a-stream-end":true}`
//!   ([`STREAM_END`]). A dropped connection ends every stream; the client
//!   resumes with `SubscribeToTask`.
//!
//! ```text
//! > {"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{...},"a2a-service-parameters":{"A2A-Version":"1.0"}}
//! < {"jsonrpc":"2.0","id":1,"result":{"task":{...}}}
//! ```

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use a2a_jsonrpc::{
    decode_reply, decode_request, decode_response, encode_error, encode_request, encode_result,
    methods, peek_id, DecodeConfig, Id,
};
use a2a_transport::server::{Answer, CallHead};
use a2a_transport::service_params::{A2A_EXTENSIONS, A2A_VERSION};
use a2a_transport::{A2aServer, A2aService, BoxFuture, CallContext, EventStream, Forward};
use a2a_types::{A2aError, A2aRequest, ErrorKind, Reply, StreamResponse};
use futures_core::Stream;
use http::{Extensions, HeaderMap, HeaderName, HeaderValue};
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot, Semaphore};

/// The binding's identifier (spec 5.8).
pub const BINDING: &str = "urn:a2a-core:binding:json-lines:v1";

/// The request member holding the service parameters and credentials.
pub const SERVICE_PARAMETERS: &str = "a2a-service-parameters";

/// The member of the line that ends a stream.
pub const STREAM_END: &str = "a2a-stream-end";

/// The limits of one end of the transport.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct LineConfig {
    /// The longest line read, in bytes. Default 16 MiB, the HTTP
    /// bindings' body limit.
    pub max_line: usize,
    /// The most service parameters a request may carry. Default 64.
    pub max_service_parameters: usize,
    /// The most requests the server answers at once; further lines wait.
    /// Default 64.
    pub max_in_flight: usize,
}

impl LineConfig {
    /// The defaults.
    pub const fn new() -> LineConfig {
        LineConfig {
            max_line: 16 * 1024 * 1024,
            max_service_parameters: 64,
            max_in_flight: 64,
        }
    }
}

impl Default for LineConfig {
    fn default() -> LineConfig {
        LineConfig::new()
    }
}

// ---------------------------------------------------------------- server

/// Serves `server` on one byte stream until `reader` ends: every line is
/// a request, answered through [`A2aServer::serve`].
///
/// # Errors
///
/// An I/O error of the stream.
pub async fn serve_lines<S, R, W>(
    server: Arc<A2aServer<S>>,
    reader: R,
    writer: W,
    config: LineConfig,
) -> io::Result<()>
where
    S: A2aService + 'static,
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (out, lines) = mpsc::channel::<Vec<u8>>(config.max_in_flight.max(1));
    let writing = tokio::spawn(write_lines(writer, lines));
    let in_flight = Arc::new(Semaphore::new(config.max_in_flight.max(1)));
    let mut reader = BufReader::new(reader);
    loop {
        let line = match read_line(&mut reader, config.max_line).await? {
            Line::End => break,
            Line::TooLong => {
                let err = A2aError::new(
                    ErrorKind::InvalidRequest,
                    format!("a line is limited to {} bytes", config.max_line),
                );
                let _ = out.send(encode_error(&Id::Null, &err)).await;
                continue;
            }
            Line::Complete(line) if line.iter().all(u8::is_ascii_whitespace) => continue,
            Line::Complete(line) => line,
        };
        let Ok(permit) = Arc::clone(&in_flight).acquire_owned().await else {
            break;
        };
        let server = Arc::clone(&server);
        let out = out.clone();
        tokio::spawn(async move {
            answer(&server, &line, &out, &config).await;
            drop(permit);
        });
    }
    drop(out);
    writing.await.map_err(io::Error::other)?
}

/// Answers one request line, writing every response line to `out`.
async fn answer<S: A2aService>(
    server: &A2aServer<S>,
    line: &[u8],
    out: &mpsc::Sender<Vec<u8>>,
    config: &LineConfig,
) {
    let mut id = peek_id(line);
    let extensions = Extensions::new();
    let metadata = match service_parameters(line, config.max_service_parameters) {
        Ok(m) => m,
        Err(err) => {
            let _ = out.send(encode_error(&id, &err)).await;
            return;
        }
    };
    let decode = || {
        let mut config = DecodeConfig::default();
        config.validate = false; // the pipeline validates, as for HTTP
        match decode_request(line, &config) {
            Ok(r) => {
                id = r.id;
                Ok(r.request)
            }
            Err(e) => {
                id = e.id;
                Err(e.error)
            }
        }
    };
    let answer = server
        .serve(CallHead::new(&metadata, &extensions), decode)
        .await;
    match answer {
        Ok(Answer::Unary(reply)) => {
            let _ = out.send(encode_result(&id, &reply)).await;
        }
        // Lines carry no event ids: a line client does not reconnect.
        Ok(Answer::Stream {
            first, mut rest, ..
        }) => {
            if out.send(encode_result(&id, &first)).await.is_err() {
                return;
            }
            while let Some(item) = std::future::poll_fn(|cx| rest.as_mut().poll_next(cx)).await {
                let line = match item {
                    Ok(event) => encode_result(&id, &event),
                    Err(err) => {
                        let _ = out.send(encode_error(&id, &err)).await;
                        return;
                    }
                };
                if out.send(line).await.is_err() {
                    return; // the peer is gone: stop reading the agent's stream
                }
            }
            let _ = out.send(stream_end(&id)).await;
        }
        Ok(Answer::EmptyStream) => {
            let _ = out.send(stream_end(&id)).await;
        }
        // `Answer` is non-exhaustive: an answer of a later release this
        // transport cannot carry is an error, not a silent drop.
        Ok(other) => {
            let err = A2aError::internal(format!("this transport cannot carry {other:?}"));
            let _ = out.send(encode_error(&id, &err)).await;
        }
        Err(err) => {
            let _ = out.send(encode_error(&id, &err)).await;
        }
    }
}

fn stream_end(id: &Id) -> Vec<u8> {
    let mut line = encode_result(id, &());
    // `{"jsonrpc":"2.0","id":…,"result":null}` → the end marker.
    line.truncate(line.len() - br#","result":null}"#.len());
    line.extend_from_slice(format!(r#","{STREAM_END}":true}}"#).as_bytes());
    line
}

/// The [`SERVICE_PARAMETERS`] member of a request line as header-named
/// metadata. A line that is not an object has none (its decoding error
/// comes later, in the pipeline's order).
fn service_parameters(line: &[u8], max: usize) -> Result<HeaderMap, A2aError> {
    let mut found = Ok(HeaderMap::new());
    let mut de = serde_json::Deserializer::from_slice(line);
    let _ = de::Deserializer::deserialize_map(
        &mut de,
        ParamsMember {
            max,
            found: &mut found,
        },
    );
    found
}

struct ParamsMember<'a> {
    max: usize,
    found: &'a mut Result<HeaderMap, A2aError>,
}

impl<'de> Visitor<'de> for ParamsMember<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a request object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key != SERVICE_PARAMETERS {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let params: HashMap<String, String> = match map.next_value() {
                Ok(p) => p,
                Err(_) => {
                    *self.found = Err(invalid(format!(
                        "{SERVICE_PARAMETERS} must be an object of strings"
                    )));
                    return Ok(());
                }
            };
            *self.found = headers(params, self.max);
            return Err(de::Error::custom("found")); // the rest is the pipeline's
        }
        Ok(())
    }
}

fn headers(params: HashMap<String, String>, max: usize) -> Result<HeaderMap, A2aError> {
    if params.len() > max {
        return Err(invalid(format!(
            "{SERVICE_PARAMETERS} holds {} parameters, over the limit of {max}",
            params.len()
        )));
    }
    let mut map = HeaderMap::with_capacity(params.len());
    for (name, value) in params {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| invalid(format!("{name:?} is not a service parameter name")))?;
        let value = HeaderValue::from_str(&value).map_err(|_| {
            invalid(format!(
                "the value of {name} is not a valid parameter value"
            ))
        })?;
        map.append(name, value);
    }
    Ok(map)
}

fn invalid(message: String) -> A2aError {
    A2aError::new(ErrorKind::InvalidRequest, message)
}

// ---------------------------------------------------------------- client

/// The client side: every operation sent as one request line, answered by
/// the server at the other end of the stream.
///
/// ```no_run
/// use a2a_examples::lines::{LineClient, LineConfig};
/// use a2a_transport::{A2aService, CallContext};
/// use a2a_types::{Message, SendMessageRequest};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let mut agent = tokio::process::Command::new("lines-agent")
///     .stdin(std::process::Stdio::piped())
///     .stdout(std::process::Stdio::piped())
///     .spawn()?;
/// let (Some(to), Some(from)) = (agent.stdin.take(), agent.stdout.take()) else { return Ok(()) };
/// let client = LineClient::connect(from, to, LineConfig::new());
/// let request = SendMessageRequest::new(Message::user_text("m-1", "echo hi"));
/// let reply = client.send_message(&CallContext::new(), request).await?;
/// # let _ = reply; Ok(()) }
/// ```
pub struct LineClient {
    out: mpsc::Sender<Vec<u8>>,
    pending: Arc<Pending>,
    next_id: AtomicU64,
}

impl fmt::Debug for LineClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineClient").finish_non_exhaustive()
    }
}

/// Where each response line goes, by request id.
type Pending = Mutex<HashMap<Id, Waiting>>;

enum Waiting {
    Unary(oneshot::Sender<Vec<u8>>),
    Stream(mpsc::Sender<Vec<u8>>),
}

impl LineClient {
    /// A client writing requests to `writer` and reading responses from
    /// `reader`, with tasks on the current tokio runtime for both.
    pub fn connect<R, W>(reader: R, writer: W, config: LineConfig) -> LineClient
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (out, lines) = mpsc::channel::<Vec<u8>>(64);
        tokio::spawn(write_lines(writer, lines));
        let pending: Arc<Pending> = Arc::default();
        tokio::spawn(route_responses(reader, Arc::clone(&pending), config));
        LineClient {
            out,
            pending,
            next_id: AtomicU64::new(1),
        }
    }

    fn waiting(&self, id: Id, waiting: Waiting) {
        if let Ok(mut pending) = self.pending.lock() {
            pending.insert(id, waiting);
        }
    }
}

impl Forward for LineClient {
    fn forward<'a>(
        &'a self,
        cx: &'a CallContext,
        request: A2aRequest,
    ) -> BoxFuture<'a, Result<Reply, A2aError>> {
        Box::pin(async move {
            let op = request.operation();
            let id = Id::number(self.next_id.fetch_add(1, Ordering::Relaxed));
            let line = request_line(&id, &request, cx)?;
            if op.is_streaming() {
                let (tx, rx) = mpsc::channel(64);
                self.waiting(id.clone(), Waiting::Stream(tx));
                self.out.send(line).await.map_err(|_| closed())?;
                let mut events = LineEvents {
                    rx,
                    id,
                    done: false,
                };
                // The first line decides between a stream and an error, as
                // the HTTP bindings answer an error before the first event.
                let first = std::future::poll_fn(|cx| Pin::new(&mut events).poll_next(cx)).await;
                let events: EventStream = match first {
                    Some(Ok(event)) => Box::pin(Prepend(Some(event), events)),
                    Some(Err(e)) => return Err(e),
                    None => Box::pin(events),
                };
                return Reply::stream(op, events)
                    .map_err(|_| A2aError::internal(format!("{op} does not stream")));
            }
            let (tx, rx) = oneshot::channel();
            self.waiting(id.clone(), Waiting::Unary(tx));
            self.out.send(line).await.map_err(|_| closed())?;
            let response = rx.await.map_err(|_| closed())?;
            decode_reply(op, &response, &id)
        })
    }
}

/// The request line: the JSON-RPC request with the context's service
/// parameters and extra headers (credentials) in [`SERVICE_PARAMETERS`].
fn request_line(id: &Id, request: &A2aRequest, cx: &CallContext) -> Result<Vec<u8>, A2aError> {
    let mut params = serde_json::Map::new();
    for (name, value) in &cx.headers {
        if let Ok(v) = value.to_str() {
            params.insert(name.as_str().to_owned(), v.into());
        }
    }
    params.insert(
        A2A_VERSION.as_str().to_owned(),
        cx.version.to_string().into(),
    );
    if !cx.extensions.is_empty() {
        params.insert(
            A2A_EXTENSIONS.as_str().to_owned(),
            cx.extensions.join(", ").into(),
        );
    }
    let mut line = encode_request(id, request);
    let params = serde_json::to_vec(&params).map_err(|e| A2aError::internal(e.to_string()))?;
    // `{…}` → `{…,"a2a-service-parameters":{…}}`
    line.pop();
    line.extend_from_slice(format!(r#","{SERVICE_PARAMETERS}":"#).as_bytes());
    line.extend_from_slice(&params);
    line.push(b'}');
    Ok(line)
}

fn closed() -> A2aError {
    A2aError::internal("the line transport is closed")
}

/// Hands each response line to the request waiting for its id.
async fn route_responses<R: AsyncRead + Unpin>(
    reader: R,
    pending: Arc<Pending>,
    config: LineConfig,
) {
    let mut reader = BufReader::new(reader);
    while let Ok(line) = read_line(&mut reader, config.max_line).await {
        let line = match line {
            Line::End => break,
            Line::TooLong => continue,
            Line::Complete(line) => line,
        };
        let id = peek_id(&line);
        let stream = {
            let Ok(mut waiting) = pending.lock() else {
                break;
            };
            match waiting.remove(&id) {
                Some(Waiting::Unary(tx)) => {
                    let _ = tx.send(line);
                    continue;
                }
                Some(Waiting::Stream(tx)) => {
                    if classify(&line) == Kind::Event {
                        waiting.insert(id, Waiting::Stream(tx.clone()));
                    }
                    tx
                }
                None => continue,
            }
        };
        let _ = stream.send(line).await;
    }
    // The connection is gone: every waiting request ends.
    if let Ok(mut waiting) = pending.lock() {
        waiting.clear();
    }
}

/// What one line of a stream is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An event.
    Event,
    /// The error that ends the stream (or a line that is not a response).
    Error,
    /// The end marker.
    End,
}

fn classify(line: &[u8]) -> Kind {
    #[derive(serde::Deserialize)]
    struct Members {
        error: Option<IgnoredAny>,
        #[serde(rename = "a2a-stream-end")]
        end: Option<IgnoredAny>,
    }
    match serde_json::from_slice::<Members>(line) {
        Ok(Members { end: Some(_), .. }) => Kind::End,
        Ok(Members { error: None, .. }) => Kind::Event,
        _ => Kind::Error,
    }
}

/// A stream's events, decoded from its lines.
struct LineEvents {
    rx: mpsc::Receiver<Vec<u8>>,
    id: Id,
    done: bool,
}

impl Stream for LineEvents {
    type Item = Result<StreamResponse, A2aError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        let line = match self.rx.poll_recv(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(None) => {
                self.done = true;
                return Poll::Ready(Some(Err(closed())));
            }
            Poll::Ready(Some(line)) => line,
        };
        let event = decode_response::<methods::SubscribeToTask>(&line, &self.id);
        match classify(&line) {
            Kind::Event => Poll::Ready(Some(event)),
            Kind::End => {
                self.done = true;
                Poll::Ready(None)
            }
            Kind::Error => {
                self.done = true;
                Poll::Ready(Some(Err(event.err().unwrap_or_else(|| {
                    A2aError::new(
                        ErrorKind::InvalidAgentResponse,
                        "a stream line is not a response",
                    )
                }))))
            }
        }
    }
}

/// A stream with one event put back in front.
struct Prepend(Option<StreamResponse>, LineEvents);

impl Stream for Prepend {
    type Item = Result<StreamResponse, A2aError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Some(first) = self.0.take() {
            return Poll::Ready(Some(Ok(first)));
        }
        Pin::new(&mut self.1).poll_next(cx)
    }
}

// ---------------------------------------------------------------- framing

enum Line {
    Complete(Vec<u8>),
    TooLong,
    End,
}

/// One line of at most `max` bytes, without its `\n`. An over-long line is
/// skipped to its end without being kept.
async fn read_line<R: AsyncBufRead + Unpin>(reader: &mut R, max: usize) -> io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            return Ok(match (line.is_empty(), too_long) {
                (_, true) => Line::TooLong,
                (true, false) => Line::End,
                (false, false) => Line::Complete(line),
            });
        }
        let (chunk, done) = match memchr(buf) {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long && line.len() + chunk.len() <= max {
            line.extend_from_slice(chunk);
        } else {
            too_long = true;
            line = Vec::new();
        }
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Complete(line)
            });
        }
    }
}

fn memchr(buf: &[u8]) -> Option<usize> {
    buf.iter().position(|&b| b == b'\n')
}

async fn write_lines<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut lines: mpsc::Receiver<Vec<u8>>,
) -> io::Result<()> {
    while let Some(mut line) = lines.recv().await {
        line.push(b'\n');
        writer.write_all(&line).await?;
        writer.flush().await?;
    }
    writer.shutdown().await
}
