//! SSE framing of an operation's event stream, for each binding (spec
//! 9.4.2, 11.7).
//!
//! - JSON-RPC: each event is `data: <JSON-RPC success response>`, whose id
//!   is the request's and whose result is the `StreamResponse`.
//! - HTTP+JSON: each event is `data: <StreamResponse>`.
//!
//! An error from the handler's stream (or a panic while polling it) is
//! written as one last event of type `error` (what the official SDKs
//! send), whose data is the binding's error body: a JSON-RPC error
//! response with the request id, or a `google.rpc.Status` body
//! `{"error": {...}}`; then the stream ends. A client that ignores event
//! types still sees the error, by its shape.

use std::pin::Pin;
use std::task::{Context, Poll};

use a2a_jsonrpc::{encode_error, encode_result, Id};
use a2a_sse::Encoder;
use a2a_types::{A2aError, StreamResponse};
use bytes::Bytes;
use futures_core::Stream;
use http::header::{CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderValue, Response};

use crate::body::Body;
use crate::keep_alive::KeepAlive;
use crate::media::EVENT_STREAM_VALUE;

use crate::service::EventStream;
use crate::unwind::{panicked, poll_next_caught};

/// Which binding's frames to write.
#[derive(Debug, Clone)]
pub(crate) enum Framing {
    /// JSON-RPC responses carrying this request id.
    JsonRpc(Id),
    /// Bare `StreamResponse` objects.
    Rest,
}

/// The frames of one streaming response.
pub(crate) struct Frames {
    framing: Framing,
    first: Option<StreamResponse>,
    events: Option<EventStream>,
    encoder: Encoder,
}

impl Frames {
    /// Frames for `first` (an event already taken from the stream, if
    /// any) followed by the rest of `events`.
    pub(crate) fn new(
        framing: Framing,
        first: Option<StreamResponse>,
        events: EventStream,
    ) -> Frames {
        Frames {
            framing,
            first,
            events: Some(events),
            encoder: Encoder::with_capacity(512),
        }
    }

    fn event(&mut self, event: &StreamResponse) -> Bytes {
        let json = match &self.framing {
            Framing::JsonRpc(id) => encode_result(id, event),
            Framing::Rest => match a2a_types::json::to_vec(event) {
                Ok(json) => json,
                Err(_) => {
                    self.events = None;
                    return self.error(&A2aError::internal("an event could not be serialized"));
                }
            },
        };
        self.encoder.data(&json);
        self.encoder.take()
    }

    fn error(&mut self, error: &A2aError) -> Bytes {
        let json = match &self.framing {
            Framing::JsonRpc(id) => encode_error(id, error),
            Framing::Rest => a2a_types::json::to_vec(&error.to_status()).unwrap_or_default(),
        };
        if self.encoder.event(Some("error"), None, &json).is_err() {
            self.encoder.data(&json);
        }
        self.encoder.take()
    }
}

impl Stream for Frames {
    type Item = Bytes;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Bytes>> {
        let this = self.get_mut();
        if let Some(first) = this.first.take() {
            return Poll::Ready(Some(this.event(&first)));
        }
        let Some(events) = this.events.as_mut() else {
            return Poll::Ready(None);
        };
        match poll_next_caught(events, cx) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(Some(Ok(event)))) => Poll::Ready(Some(this.event(&event))),
            Ok(Poll::Ready(Some(Err(error)))) => {
                this.events = None;
                Poll::Ready(Some(this.error(&error)))
            }
            Ok(Poll::Ready(None)) => {
                this.events = None;
                Poll::Ready(None)
            }
            Err(()) => {
                this.events = None;
                Poll::Ready(Some(this.error(&panicked("event stream"))))
            }
        }
    }
}

/// A 200 `text/event-stream` response with `Cache-Control: no-cache`,
/// its stream with keep-alive comments if the server sends them.
pub(crate) fn sse_response(body: Body, keep_alive: Option<&KeepAlive>) -> Response<Body> {
    let body = match (body, keep_alive) {
        (Body::Stream(frames), Some(keep_alive)) => Body::stream(keep_alive.apply(frames)),
        (body, _) => body,
    };
    let mut resp = Response::new(body);
    let h = resp.headers_mut();
    h.insert(CONTENT_TYPE, EVENT_STREAM_VALUE);
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    resp
}
