//! Raw HTTP for the wire scenarios: requests built by hand (so they can be
//! malformed on purpose), answers read whole, SSE bodies decoded event by
//! event.

use std::future::poll_fn;
use std::pin::Pin;

use a2a_transport::{client::ResponseBody, server::AGENT_CARD_PATH};
use bytes::{Bytes, BytesMut};
use futures_core::Stream;
use http::header::{HeaderName, HeaderValue, CONTENT_TYPE};
use http::{HeaderMap, Method, StatusCode};
use serde_json::{json, Value};

use crate::binding::Binding;
use crate::check::{fail, skip, Check};
use crate::context::{abbreviate, Ctx};

/// The largest body the wire scenarios read.
const MAX_BODY: usize = 16 * 1024 * 1024;

/// A request being built.
#[derive(Debug, Clone)]
pub struct Req {
    method: Method,
    url: String,
    headers: HeaderMap,
    body: Bytes,
}

/// A whole answer.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: HeaderMap,
    /// The whole body.
    pub body: Bytes,
}

/// An answer read as Server-Sent Events.
#[derive(Debug, Clone)]
pub struct StreamReply {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: HeaderMap,
    /// The events' data, in order.
    pub events: Vec<Bytes>,
    /// Each event's last event ID when it was dispatched (its own `id:`,
    /// else the one before it; `""` before any), in order.
    pub ids: Vec<String>,
    /// Whether the body ended within the call timeout.
    pub closed: bool,
    /// The body when it is not an event stream (an error answer).
    pub body: Bytes,
}

impl Reply {
    /// The `Content-Type` without parameters, lowercased.
    pub fn media_type(&self) -> String {
        media_type(&self.headers)
    }

    /// The body as JSON, or a failure quoting it.
    pub fn json(&self) -> Check<Value> {
        serde_json::from_slice(&self.body).map_err(|e| {
            fail(
                "a JSON body",
                format!(
                    "{} with {}: {}",
                    self.status,
                    if self.body.is_empty() {
                        "an empty body".to_owned()
                    } else {
                        abbreviate(&String::from_utf8_lossy(&self.body))
                    },
                    e
                ),
            )
        })
    }

    /// A short description for failure messages.
    pub fn describe(&self) -> String {
        format!(
            "HTTP {} ({}) {}",
            self.status.as_u16(),
            self.media_type(),
            abbreviate(&String::from_utf8_lossy(&self.body))
        )
    }
}

impl StreamReply {
    /// The `Content-Type` without parameters, lowercased.
    pub fn media_type(&self) -> String {
        media_type(&self.headers)
    }

    /// The events of a successful stream (spec 9.4.2, 11.7): a 200
    /// `text/event-stream` answer that ended, each event's data one JSON
    /// value.
    pub fn sse_events(&self) -> Check<Vec<Value>> {
        let status = self.status.as_u16();
        if status != 200 || self.media_type() != "text/event-stream" {
            return Err(fail(
                "HTTP 200 with Content-Type text/event-stream",
                format!(
                    "HTTP {status} ({}) {}",
                    self.media_type(),
                    abbreviate(&String::from_utf8_lossy(&self.body))
                ),
            ));
        }
        if !self.closed {
            return Err(fail(
                "the stream to end after the final event",
                "still open",
            ));
        }
        self.json_events()
    }

    /// Each event's data as JSON, or a failure naming the event.
    pub fn json_events(&self) -> Check<Vec<Value>> {
        self.events
            .iter()
            .enumerate()
            .map(|(i, data)| {
                serde_json::from_slice(data).map_err(|e| {
                    fail(
                        "each SSE event's data to be one JSON object",
                        format!(
                            "event {i}: {e}: {}",
                            abbreviate(&String::from_utf8_lossy(data))
                        ),
                    )
                })
            })
            .collect()
    }
}

/// The media type of `headers`' `Content-Type`, lowercased, no parameters.
pub fn media_type(headers: &HeaderMap) -> String {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default()
}

impl Req {
    /// A request with no headers and no body.
    pub fn new(method: Method, url: impl Into<String>) -> Req {
        Req {
            method,
            url: url.into(),
            headers: HeaderMap::new(),
            body: Bytes::new(),
        }
    }

    /// Sets a header (replacing one of the same name).
    pub fn header(mut self, name: &str, value: &str) -> Req {
        if let (Ok(n), Ok(v)) = (HeaderName::try_from(name), HeaderValue::from_str(value)) {
            self.headers.insert(n, v);
        }
        self
    }

    /// Removes a header.
    pub fn without(mut self, name: &str) -> Req {
        self.headers.remove(name);
        self
    }

    /// Adds `headers` (replacing same-named ones).
    pub fn headers(mut self, headers: &HeaderMap) -> Req {
        for (k, v) in headers {
            self.headers.insert(k.clone(), v.clone());
        }
        self
    }

    /// Sets the body.
    pub fn body(mut self, body: impl Into<Bytes>) -> Req {
        self.body = body.into();
        self
    }

    /// Sets a JSON body with `content_type`.
    pub fn json(self, value: &Value, content_type: &str) -> Req {
        self.header("content-type", content_type)
            .body(serde_json::to_vec(value).unwrap_or_default())
    }

    fn build(self) -> Check<http::Request<Bytes>> {
        let mut request = http::Request::new(self.body);
        *request.method_mut() = self.method;
        *request.uri_mut() = self
            .url
            .parse()
            .map_err(|e| fail("a valid request URL", format!("{}: {e}", self.url)))?;
        *request.headers_mut() = self.headers;
        Ok(request)
    }

    /// Sends the request and reads the whole answer.
    pub async fn send(self, cx: &Ctx<'_>) -> Check<Reply> {
        let what = format!("{} {}", self.method, self.url);
        let request = self.build()?;
        let response = cx
            .within(cx.http().send(request))
            .await?
            .map_err(|e| fail(format!("an answer to {what}"), e))?;
        let (parts, mut body) = response.into_parts();
        let mut buf = BytesMut::new();
        loop {
            match cx.within(next_chunk(&mut body)).await? {
                None => break,
                Some(Ok(chunk)) => {
                    buf.extend_from_slice(&chunk);
                    if buf.len() > MAX_BODY {
                        return Err(fail(
                            "a body under 16 MiB",
                            format!("a larger body to {what}"),
                        ));
                    }
                }
                Some(Err(e)) => return Err(fail(format!("the whole body of {what}"), e)),
            }
        }
        Ok(Reply {
            status: parts.status,
            headers: parts.headers,
            body: buf.freeze(),
        })
    }

    /// Sends the request and reads the answer as Server-Sent Events until
    /// it ends or the call timeout passes.
    pub async fn stream(self, cx: &Ctx<'_>) -> Check<StreamReply> {
        self.stream_events(cx, usize::MAX).await
    }

    /// Like [`stream`](Self::stream), but stops reading after `max`
    /// events and drops the connection (a client that goes away).
    pub async fn stream_events(self, cx: &Ctx<'_>, max: usize) -> Check<StreamReply> {
        let what = format!("{} {}", self.method, self.url);
        let request = self.build()?;
        let response = cx
            .within(cx.http().send(request))
            .await?
            .map_err(|e| fail(format!("an answer to {what}"), e))?;
        let (parts, mut body) = response.into_parts();
        let is_sse = media_type(&parts.headers) == "text/event-stream";
        let mut decoder = a2a_sse::Decoder::new();
        let mut events = Vec::new();
        let mut ids = Vec::new();
        let mut raw = BytesMut::new();
        let mut closed = false;
        let deadline = tokio::time::Instant::now() + cx.timing().call_timeout;
        while events.len() < max {
            let chunk = match tokio::time::timeout_at(deadline, next_chunk(&mut body)).await {
                Err(_) => break,
                Ok(None) => {
                    closed = true;
                    break;
                }
                Ok(Some(Ok(chunk))) => chunk,
                Ok(Some(Err(e))) => return Err(fail(format!("the whole body of {what}"), e)),
            };
            if !is_sse {
                raw.extend_from_slice(&chunk);
                continue;
            }
            decoder.feed(chunk);
            while let Some(event) = decoder
                .next_event()
                .map_err(|e| fail("a well-formed event stream", e))?
            {
                ids.push(event.id.to_string());
                events.push(event.data);
            }
        }
        if is_sse && closed {
            decoder.finish();
            while let Some(event) = decoder
                .next_event()
                .map_err(|e| fail("a well-formed event stream", e))?
            {
                ids.push(event.id.to_string());
                events.push(event.data);
            }
        }
        Ok(StreamReply {
            status: parts.status,
            headers: parts.headers,
            events,
            ids,
            closed,
            body: raw.freeze(),
        })
    }
}

async fn next_chunk(
    body: &mut ResponseBody,
) -> Option<Result<Bytes, a2a_transport::client::HttpError>> {
    poll_fn(|c| Pin::new(&mut *body).poll_next(c)).await
}

impl Ctx<'_> {
    /// The JSON-RPC endpoint URL.
    pub fn jsonrpc_url(&self) -> Check<String> {
        match self.binding() {
            Binding::JsonRpc => Ok(self.interface()?.url.clone()),
            other => Err(skip(format!("a JSON-RPC scenario run on {other}"))),
        }
    }

    /// A `POST` to the JSON-RPC endpoint with `body`, as a conforming
    /// client sends it: `Content-Type: application/json`,
    /// `A2A-Version: 1.0`, the main caller's headers.
    pub fn rpc_raw(&self, body: impl Into<Bytes>) -> Check<Req> {
        Ok(Req::new(Method::POST, self.jsonrpc_url()?)
            .headers(&self.auth_headers())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("a2a-version", "1.0")
            .body(body))
    }

    /// A JSON-RPC call of `method` with `params` and id 1.
    pub fn rpc(&self, method: &str, params: Value) -> Check<Req> {
        let envelope = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        self.rpc_raw(serde_json::to_vec(&envelope).unwrap_or_default())
    }

    /// An HTTP+JSON request: `path` (with its query) under the interface
    /// URL, `A2A-Version: 1.0`, the main caller's headers.
    pub fn rest(&self, method: Method, path: &str) -> Check<Req> {
        let base = match self.binding() {
            Binding::HttpJson => self.interface()?.url.trim_end_matches('/').to_owned(),
            other => return Err(skip(format!("an HTTP+JSON scenario run on {other}"))),
        };
        Ok(Req::new(method, format!("{base}{path}"))
            .headers(&self.auth_headers())
            .header(
                "accept",
                "application/a2a+json, application/json, text/event-stream",
            )
            .header("a2a-version", "1.0"))
    }

    /// An HTTP+JSON `POST` of a JSON body.
    pub fn rest_post(&self, path: &str, body: &Value) -> Check<Req> {
        Ok(self
            .rest(Method::POST, path)?
            .json(body, "application/a2a+json"))
    }

    /// A `GET` of the public agent card (spec 8.2).
    pub fn card_request(&self) -> Req {
        let base = self.target().base_url.trim_end_matches('/').to_owned();
        Req::new(Method::GET, format!("{base}{AGENT_CARD_PATH}"))
            .header("accept", "application/json")
    }

    /// The same operation on this binding: a JSON-RPC `method` with
    /// `params`, or the HTTP+JSON request `rest`.
    pub fn op(
        &self,
        method: &str,
        params: Value,
        rest: impl FnOnce(&Self) -> Check<Req>,
    ) -> Check<Req> {
        match self.binding() {
            Binding::JsonRpc => self.rpc(method, params),
            _ => rest(self),
        }
    }
}
