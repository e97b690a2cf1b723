//! An in-memory `HttpClient` answering scripted responses, and helpers to
//! drive futures and streams without a runtime.

#![allow(dead_code, unreachable_pub)]

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use a2a_client::{BoxFuture, HttpClient, HttpError, ResponseBody};
use bytes::Bytes;
use futures_core::Stream;
use serde_json::Value;

type Responder = Box<
    dyn FnOnce(&http::Request<Bytes>) -> Result<http::Response<ResponseBody>, HttpError> + Send,
>;

/// Answers each request with the next scripted responder, and records
/// every request it was sent.
#[derive(Default)]
pub struct Scripted {
    queue: Mutex<VecDeque<Responder>>,
    seen: Mutex<Vec<http::Request<Bytes>>>,
}

impl Scripted {
    pub fn new() -> Arc<Scripted> {
        Arc::new(Scripted::default())
    }

    /// Adds a responder computing the response from the request.
    pub fn push_fn(
        &self,
        f: impl FnOnce(&http::Request<Bytes>) -> Result<http::Response<ResponseBody>, HttpError>
            + Send
            + 'static,
    ) {
        self.queue.lock().unwrap().push_back(Box::new(f));
    }

    /// Adds a fixed response: status, headers, body chunks.
    pub fn push(
        &self,
        status: u16,
        headers: &[(&str, &str)],
        chunks: Vec<Result<Bytes, HttpError>>,
    ) {
        let response = response(status, headers, chunks);
        self.push_fn(move |_| Ok(response));
    }

    /// Adds a response with one body chunk.
    pub fn push_body(&self, status: u16, headers: &[(&str, &str)], body: &str) {
        self.push(status, headers, vec![Ok(Bytes::from(body.to_owned()))]);
    }

    /// Adds a failure of the HTTP client itself.
    pub fn push_err(&self, e: HttpError) {
        self.push_fn(move |_| Err(e));
    }

    /// Adds a JSON-RPC success echoing the request's id.
    pub fn push_jsonrpc_result(&self, result: Value) {
        self.push_fn(move |req| {
            let id = request_json(req)["id"].clone();
            let body = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
            Ok(response(
                200,
                &[("content-type", "application/json")],
                vec![Ok(Bytes::from(body.to_string()))],
            ))
        });
    }

    /// Adds a JSON-RPC SSE stream echoing the request's id in every frame,
    /// split into chunks of `chunk` bytes, optionally ended by `tail`.
    pub fn push_jsonrpc_stream(&self, results: Vec<Value>, chunk: usize, tail: Option<HttpError>) {
        self.push_fn(move |req| {
            let id = request_json(req)["id"].clone();
            let mut text = String::new();
            for r in results {
                let frame = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": r});
                text.push_str(&format!("data: {frame}\n\n"));
            }
            Ok(response(
                200,
                &[("content-type", "text/event-stream")],
                split(&text, chunk, tail),
            ))
        });
    }

    /// Adds an HTTP+JSON SSE stream of `frames` (each one `data`), split
    /// into chunks of `chunk` bytes, optionally ended by `tail`.
    pub fn push_rest_stream(&self, frames: Vec<Value>, chunk: usize, tail: Option<HttpError>) {
        let mut text = String::new();
        for f in frames {
            text.push_str(&format!("data: {f}\n\n"));
        }
        self.push(
            200,
            &[("content-type", "text/event-stream")],
            split(&text, chunk, tail),
        );
    }

    /// Every request sent so far.
    pub fn requests(&self) -> Vec<http::Request<Bytes>> {
        self.seen.lock().unwrap().clone()
    }

    /// The last request sent.
    pub fn last(&self) -> http::Request<Bytes> {
        self.seen
            .lock()
            .unwrap()
            .last()
            .cloned()
            .expect("a request was sent")
    }

    /// How many responders are left.
    pub fn remaining(&self) -> usize {
        self.queue.lock().unwrap().len()
    }
}

impl HttpClient for Scripted {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        let responder = self.queue.lock().unwrap().pop_front();
        let answer = match responder {
            Some(f) => f(&request),
            None => Err(HttpError::Other(format!(
                "no scripted response for {}",
                request.uri()
            ))),
        };
        self.seen.lock().unwrap().push(request);
        Box::pin(async move { answer })
    }
}

/// A response with `status`, `headers` and body `chunks`.
pub fn response(
    status: u16,
    headers: &[(&str, &str)],
    chunks: Vec<Result<Bytes, HttpError>>,
) -> http::Response<ResponseBody> {
    let mut r = http::Response::new(ResponseBody::from_chunks(chunks));
    *r.status_mut() = http::StatusCode::from_u16(status).unwrap();
    for (k, v) in headers {
        r.headers_mut().append(
            http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
            http::HeaderValue::from_str(v).unwrap(),
        );
    }
    r
}

/// `text` cut into chunks of `n` bytes (splitting UTF-8 characters and
/// line endings wherever they fall), then `tail` as a final error.
pub fn split(text: &str, n: usize, tail: Option<HttpError>) -> Vec<Result<Bytes, HttpError>> {
    let mut out: Vec<Result<Bytes, HttpError>> = text
        .as_bytes()
        .chunks(n.max(1))
        .map(|c| Ok(Bytes::copy_from_slice(c)))
        .collect();
    out.extend(tail.map(Err));
    out
}

/// The JSON body of a request.
pub fn request_json(req: &http::Request<Bytes>) -> Value {
    serde_json::from_slice(req.body()).expect("a JSON body")
}

/// A header of a request, as text.
pub fn header<'a>(req: &'a http::Request<Bytes>, name: &str) -> Option<&'a str> {
    req.headers().get(name).map(|v| v.to_str().unwrap())
}

/// Runs a future to completion with a no-op waker: everything here is
/// ready at once.
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..1_000_000 {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
    panic!("future never completed");
}

/// Every item of a stream.
pub fn collect<S: Stream + Unpin>(mut s: S) -> Vec<S::Item> {
    let mut cx = Context::from_waker(Waker::noop());
    let mut out = Vec::new();
    for _ in 0..1_000_000 {
        match Pin::new(&mut s).poll_next(&mut cx) {
            Poll::Ready(Some(item)) => out.push(item),
            Poll::Ready(None) => return out,
            Poll::Pending => {}
        }
    }
    panic!("stream never ended");
}

/// A timer that completes at once and records what it was asked to wait.
#[derive(Clone, Default)]
pub struct Clock(pub Arc<Mutex<Vec<Duration>>>);

impl Clock {
    pub fn waits(&self) -> Vec<Duration> {
        self.0.lock().unwrap().clone()
    }
}

impl a2a_client::Timer for Clock {
    fn sleep(&self, d: Duration) -> BoxFuture<'static, ()> {
        self.0.lock().unwrap().push(d);
        Box::pin(async {})
    }
}
