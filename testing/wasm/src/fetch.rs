//! [`FetchClient`]: the client side's `HttpClient` on the platform's
//! `fetch`.
//!
//! `HttpClient` asks for `Send` futures and bodies, and JavaScript values
//! are not `Send`. So nothing of JavaScript crosses the trait: each request
//! runs as a local task on the JavaScript event loop
//! (`wasm_bindgen_futures::spawn_local`), which sends the response head
//! back over a oneshot channel. The body is pulled: every poll of the
//! [`ResponseBody`] that finds no chunk waiting asks the task for the next
//! one, and the task then makes one `read()` of the response's
//! `ReadableStream`, so nothing is read ahead of the consumer. Dropping the
//! request future aborts the fetch; dropping the body cancels the stream
//! (the connection is released), also while a read is waiting.

use std::future::{poll_fn, Future};
use std::pin::{pin, Pin};
use std::task::{Context, Poll};

use a2a_transport::client::{HttpError, ResponseBody};
use a2a_transport::{BoxFuture, HttpClient};
use bytes::Bytes;
use futures_channel::{mpsc, oneshot};
use futures_core::Stream;
use http::header::{HeaderName, HeaderValue};
use http::{Method, Request, Response, StatusCode, Version};
use js_sys::{Array, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{
    AbortController, Headers, ReadableStreamDefaultReader, RequestInit, RequestRedirect,
};

#[wasm_bindgen]
extern "C" {
    /// The global `fetch`: a window's, a worker's, Node's (18 and later),
    /// Deno's. Bound here rather than through `web_sys::Window`, which
    /// exists in browser windows only.
    #[wasm_bindgen(js_name = fetch)]
    fn global_fetch(request: &web_sys::Request) -> Promise;
}

/// An [`HttpClient`] on the platform's `fetch`, for agents and clients in
/// browsers, workers and Node.
///
/// ```ignore
/// use a2a_transport::{A2aService, Binding, CallContext, HttpTransport};
/// use a2a_types::{Message, SendMessageRequest};
/// use a2a_wasm::FetchClient;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let agent = HttpTransport::new(FetchClient::new(), Binding::JsonRpc, "https://agent.example/")?;
/// let reply = agent
///     .send_message(&CallContext::new(), SendMessageRequest::new(Message::user("hello")))
///     .await?;
/// # let _ = reply; Ok(()) }
/// ```
///
/// What `fetch` decides, and so this client:
///
/// - The HTTP version: a request marked HTTP/2 (what `HttpTransport` sends
///   over gRPC) is refused with [`HttpError::Other`], since `fetch` can
///   neither promise HTTP/2 nor give the response trailers where gRPC
///   puts its status. The JSON-RPC and HTTP+JSON bindings work.
/// - Redirects: followed for `GET`; for any other method a redirect fails
///   the request ([`HttpError::Other`]) instead of being followed silently.
/// - Headers the stack manages (`Host`, `Content-Length`, `Connection`
///   and the other hop-by-hop headers) are left to it; the rest go out as
///   given, non-ASCII bytes as Latin-1 (WebIDL `ByteString`). Repeated
///   response headers arrive joined by `", "`, as `fetch` reports them.
/// - A browser applies its CORS rules: an agent on another origin must
///   allow the `A2A-Version` and `A2A-Extensions` request headers.
/// - No timeout: `fetch` has none of its own; a host that needs one drops
///   the call's future (the fetch is then aborted).
///
/// A failed connection is [`HttpError::Connection`], a `TimeoutError` of
/// the platform [`HttpError::Timeout`], anything else [`HttpError::Other`].
#[derive(Debug, Clone, Copy, Default)]
pub struct FetchClient;

impl FetchClient {
    /// A client on the global `fetch`.
    pub fn new() -> FetchClient {
        FetchClient
    }
}

impl HttpClient for FetchClient {
    fn send(
        &self,
        request: Request<Bytes>,
    ) -> BoxFuture<'_, Result<Response<ResponseBody>, HttpError>> {
        Box::pin(async move {
            if request.version() == Version::HTTP_2 {
                return Err(HttpError::Other(
                    "fetch cannot make an HTTP/2 (gRPC) call: it chooses the HTTP version \
                     itself and gives no response trailers"
                        .into(),
                ));
            }
            let (head_tx, head_rx) = oneshot::channel();
            spawn_local(exchange(request, head_tx));
            head_rx.await.unwrap_or_else(|_| {
                Err(HttpError::Other(
                    "the fetch task ended without an answer".into(),
                ))
            })
        })
    }
}

/// The head of a response, or why there is none.
type Head = Result<Response<ResponseBody>, HttpError>;

/// One chunk of the body, `None` at its end.
type Piece = Option<Result<Bytes, HttpError>>;

/// The local task of one request: the fetch, then the body's reads, one
/// per demand of the [`FetchBody`].
async fn exchange(request: Request<Bytes>, mut head_tx: oneshot::Sender<Head>) {
    let abort = match AbortController::new() {
        Ok(abort) => abort,
        Err(e) => {
            let _ = head_tx.send(Err(HttpError::Other(describe(&e))));
            return;
        }
    };
    let js_request = match js_request(request, &abort) {
        Ok(r) => r,
        Err(e) => {
            let _ = head_tx.send(Err(e));
            return;
        }
    };
    let fetched = first(
        JsFuture::from(global_fetch(&js_request)),
        head_tx.cancellation(),
    )
    .await;
    let response: web_sys::Response = match fetched {
        Either::Right(()) => {
            // The caller dropped the request future.
            abort.abort();
            return;
        }
        Either::Left(Err(e)) => {
            let _ = head_tx.send(Err(fetch_error(&e)));
            return;
        }
        Either::Left(Ok(value)) => match value.dyn_into() {
            Ok(response) => response,
            Err(other) => {
                let _ = head_tx.send(Err(HttpError::Other(format!(
                    "fetch answered something other than a Response: {}",
                    describe(&other)
                ))));
                return;
            }
        },
    };
    let head = match response_head(&response) {
        Ok(head) => head,
        Err(e) => {
            abort.abort();
            let _ = head_tx.send(Err(e));
            return;
        }
    };
    let reader = match response.body() {
        None => None,
        Some(stream) => match ReadableStreamDefaultReader::new(&stream) {
            Ok(reader) => Some(reader),
            Err(e) => {
                abort.abort();
                let _ = head_tx.send(Err(HttpError::Other(describe(&e))));
                return;
            }
        },
    };
    let Some(reader) = reader else {
        let _ = head_tx.send(Ok(head.map(|()| ResponseBody::empty())));
        return;
    };
    let (demand_tx, demand_rx) = mpsc::unbounded();
    let body = ResponseBody::new(FetchBody {
        demands: demand_tx,
        waiting: None,
        ended: false,
    });
    if head_tx.send(Ok(head.map(|()| body))).is_err() {
        cancel(&reader);
        return;
    }
    pump(reader, demand_rx).await;
}

/// Answers each demand with one read of the body, until the body ends or
/// its reader is gone.
async fn pump(
    reader: ReadableStreamDefaultReader,
    mut demands: mpsc::UnboundedReceiver<oneshot::Sender<Piece>>,
) {
    loop {
        let Some(mut reply) = poll_fn(|cx| Pin::new(&mut demands).poll_next(cx)).await else {
            // The body was dropped between reads.
            cancel(&reader);
            return;
        };
        let read = first(JsFuture::from(reader.read()), reply.cancellation()).await;
        let piece = match read {
            Either::Right(()) => {
                // The body was dropped while a read was waiting.
                cancel(&reader);
                return;
            }
            Either::Left(Err(e)) => Some(Err(HttpError::Connection(format!(
                "the response body failed: {}",
                describe(&e)
            )))),
            Either::Left(Ok(result)) => read_result(&result),
        };
        let last = !matches!(piece, Some(Ok(_)));
        if reply.send(piece).is_err() && !last {
            cancel(&reader);
            return;
        }
        if last {
            return;
        }
    }
}

/// A `{done, value}` of `ReadableStreamDefaultReader.read()` as a piece.
fn read_result(result: &JsValue) -> Piece {
    let done = Reflect::get(result, &JsValue::from_str("done"))
        .ok()
        .and_then(|d| d.as_bool())
        .unwrap_or(true);
    if done {
        return None;
    }
    match Reflect::get(result, &JsValue::from_str("value")).map(JsCast::dyn_into::<Uint8Array>) {
        Ok(Ok(bytes)) => Some(Ok(Bytes::from(bytes.to_vec()))),
        _ => Some(Err(HttpError::Other(
            "the response body gave something other than bytes".into(),
        ))),
    }
}

/// Cancels the body stream (releasing the connection); the promise's
/// outcome does not matter, but it is awaited so that a rejection is
/// handled.
fn cancel(reader: &ReadableStreamDefaultReader) {
    let done = JsFuture::from(reader.cancel());
    spawn_local(async move {
        let _ = done.await;
    });
}

/// The body as the transport reads it: each poll that finds no chunk
/// waiting sends the task a demand and waits for its answer.
struct FetchBody {
    demands: mpsc::UnboundedSender<oneshot::Sender<Piece>>,
    waiting: Option<oneshot::Receiver<Piece>>,
    ended: bool,
}

impl Stream for FetchBody {
    type Item = Result<Bytes, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.ended {
            return Poll::Ready(None);
        }
        let waiting = match &mut this.waiting {
            Some(waiting) => waiting,
            None => {
                let (tx, rx) = oneshot::channel();
                if this.demands.unbounded_send(tx).is_err() {
                    this.ended = true;
                    return Poll::Ready(Some(Err(HttpError::Connection(
                        "the fetch task ended before the body did".into(),
                    ))));
                }
                this.waiting.insert(rx)
            }
        };
        let piece = std::task::ready!(Pin::new(waiting).poll(cx));
        this.waiting = None;
        Poll::Ready(match piece {
            Ok(Some(Ok(bytes))) => Some(Ok(bytes)),
            Ok(Some(Err(e))) => {
                this.ended = true;
                Some(Err(e))
            }
            Ok(None) => {
                this.ended = true;
                None
            }
            Err(oneshot::Canceled) => {
                this.ended = true;
                Some(Err(HttpError::Connection(
                    "the fetch task ended before the body did".into(),
                )))
            }
        })
    }
}

/// Request and response headers the HTTP stack manages itself (the
/// `HttpClient` contract leaves them to it; some `fetch`es refuse them).
fn managed_by_the_stack(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "host"
            | "content-length"
            | "connection"
            | "keep-alive"
            | "proxy-connection"
            | "transfer-encoding"
            | "te"
            | "trailer"
            | "upgrade"
            | "expect"
    )
}

/// The `fetch` request for `request`, aborted through `abort`.
fn js_request(
    request: Request<Bytes>,
    abort: &AbortController,
) -> Result<web_sys::Request, HttpError> {
    let (parts, body) = request.into_parts();
    let refused =
        |e: JsValue| HttpError::Other(format!("fetch refused the request: {}", describe(&e)));
    let headers = Headers::new().map_err(refused)?;
    for (name, value) in &parts.headers {
        if managed_by_the_stack(name) {
            continue;
        }
        headers
            .append(name.as_str(), &latin1(value.as_bytes()))
            .map_err(refused)?;
    }
    let init = RequestInit::new();
    init.set_method(parts.method.as_str());
    init.set_headers(&headers);
    if !body.is_empty() {
        init.set_body(&Uint8Array::from(&body[..]));
    }
    init.set_redirect(if parts.method == Method::GET {
        RequestRedirect::Follow
    } else {
        RequestRedirect::Error
    });
    init.set_signal(Some(&abort.signal()));
    web_sys::Request::new_with_str_and_init(&parts.uri.to_string(), &init).map_err(refused)
}

/// Status and headers of a `fetch` response, as an `http` response
/// without its body.
fn response_head(response: &web_sys::Response) -> Result<Response<()>, HttpError> {
    let status = StatusCode::from_u16(response.status()).map_err(|_| {
        HttpError::Other(format!(
            "fetch answered an opaque response (status {}): a cross-origin request \
             the agent's CORS rules refused",
            response.status()
        ))
    })?;
    let mut head = Response::new(());
    *head.status_mut() = status;
    let entries = js_sys::try_iter(&response.headers())
        .ok()
        .flatten()
        .ok_or_else(|| HttpError::Other("the response's headers are not iterable".into()))?;
    for entry in entries {
        let entry = Array::from(&entry.map_err(|e| HttpError::Other(describe(&e)))?);
        let (Some(name), Some(value)) = (entry.get(0).as_string(), entry.get(1).as_string()) else {
            continue;
        };
        let bad = || HttpError::Other(format!("fetch gave an invalid response header {name:?}"));
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| bad())?;
        let value =
            HeaderValue::from_bytes(&from_latin1(&value).ok_or_else(bad)?).map_err(|_| bad())?;
        head.headers_mut().append(name, value);
    }
    Ok(head)
}

/// Bytes as a WebIDL `ByteString`: each byte one character U+0000 to
/// U+00FF.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// A WebIDL `ByteString` back to its bytes; `None` if it is not one.
fn from_latin1(text: &str) -> Option<Vec<u8>> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).ok())
        .collect()
}

/// The kind of a rejected `fetch`: `TypeError` is a network error (the
/// Fetch standard's only failure), a `TimeoutError` a timeout.
fn fetch_error(error: &JsValue) -> HttpError {
    let name = Reflect::get(error, &JsValue::from_str("name"))
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default();
    let text = describe(error);
    match name.as_str() {
        "TypeError" => HttpError::Connection(text),
        "TimeoutError" => HttpError::Timeout(text),
        _ => HttpError::Other(text),
    }
}

/// A JavaScript error as text: its message, and its cause's (Node puts
/// the system error, `ECONNREFUSED` say, there).
fn describe(error: &JsValue) -> String {
    let field = |v: &JsValue, name: &str| {
        Reflect::get(v, &JsValue::from_str(name))
            .ok()
            .filter(|f| !f.is_undefined() && !f.is_null())
    };
    let text = |v: &JsValue| {
        field(v, "message")
            .and_then(|m| m.as_string())
            .or_else(|| v.as_string())
            .unwrap_or_else(|| format!("{v:?}"))
    };
    let mut out = text(error);
    if let Some(cause) = field(error, "cause") {
        out.push_str(": ");
        out.push_str(&text(&cause));
        if let Some(code) = field(&cause, "code").and_then(|c| c.as_string()) {
            if !out.contains(&code) {
                out.push_str(&format!(" ({code})"));
            }
        }
    }
    out
}

/// The output of whichever of two futures finishes first.
enum Either<A, B> {
    Left(A),
    Right(B),
}

/// Waits for `a` or `b`, polling `a` first.
async fn first<A: Future, B: Future>(a: A, b: B) -> Either<A::Output, B::Output> {
    let mut a = pin!(a);
    let mut b = pin!(b);
    poll_fn(|cx| {
        if let Poll::Ready(v) = a.as_mut().poll(cx) {
            return Poll::Ready(Either::Left(v));
        }
        if let Poll::Ready(v) = b.as_mut().poll(cx) {
            return Poll::Ready(Either::Right(v));
        }
        Poll::Pending
    })
    .await
}
