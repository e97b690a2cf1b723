//! SSE framing of an operation's event stream, for each binding (spec
//! 9.4.2, 11.7).
//!
//! - JSON-RPC: each event is `data: <JSON-RPC success response>`, whose id
//!   is the request's and whose result is the `StreamResponse`.
//! - HTTP+JSON: each event is `data: <StreamResponse>` (for a 0.3 caller
//!   in the 0.3 proto's ProtoJSON, its error event the JSON-RPC error
//!   object).
//!
//! Every event frame carries an SSE `id:` (HTML "Server-sent events"
//! 9.2.6): the label the handler put on the item through the call's
//! [`EventIds`], else, when the handler labels nothing, the frame's
//! position in the stream, from `1`. Once a handler has labelled an item,
//! an unlabelled one gets no `id:` line (the client's last event ID stays
//! the previous label). Ids are per stream and increase, so a client's
//! `Last-Event-ID` names the last event it received.
//!
//! An error from the handler's stream (or a panic while polling it) is
//! written as one last event of type `error` (what the official SDKs
//! send), whose data is the binding's error body: a JSON-RPC error
//! response with the request id, or a `google.rpc.Status` body
//! `{"error": {...}}`; then the stream ends. A client that ignores event
//! types still sees the error, by its shape.

use std::pin::Pin;
use std::task::{Context, Poll};

use a2a_jsonrpc::Id;
use a2a_sse::Encoder;
use a2a_types::{A2aError, StreamResponse};
use bytes::Bytes;
use futures_core::Stream;
use http::header::{CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderValue, Response};

use crate::body::Body;
use crate::keep_alive::KeepAlive;
use a2a_wire::{JsonCodec, EVENT_STREAM_VALUE};

use crate::unwind::{panicked, poll_next_caught};
use a2a_wire::{EventIds, EventStream};

/// The frames of one streaming response.
pub(crate) struct Frames {
    /// The wire the frames are in: JSON-RPC responses carrying `request`
    /// as their id, or bare `StreamResponse`s, at 1.0 or 0.3 (for 0.3's
    /// HTTP+JSON, errors as the JSON-RPC error object the 0.3 REST
    /// clients read).
    codec: JsonCodec,
    /// The JSON-RPC request's id (unused by HTTP+JSON).
    request: Id,
    first: Option<StreamResponse>,
    events: Option<EventStream>,
    encoder: Encoder,
    /// Where the handler labels its items.
    ids: EventIds,
    /// Event frames written so far.
    written: u64,
    /// Whether the handler has labelled an item.
    labelled: bool,
}

impl Frames {
    /// Frames in `codec`'s form (JSON-RPC responses with the id
    /// `request`) for `first` (an event already taken from the stream, if
    /// any; its label, if it has one, is still in `ids`) followed by the
    /// rest of `events`.
    pub(crate) fn new(
        codec: JsonCodec,
        request: Id,
        first: Option<StreamResponse>,
        events: EventStream,
        ids: EventIds,
    ) -> Frames {
        Frames {
            codec,
            request,
            first,
            events: Some(events),
            encoder: Encoder::with_capacity(512),
            ids,
            written: 0,
            labelled: false,
        }
    }

    /// The id of the event frame being written.
    fn next_id(&mut self) -> Option<String> {
        self.written += 1;
        match self.ids.take() {
            Some(label) => {
                self.labelled = true;
                Some(label)
            }
            None if self.labelled => None,
            None => Some(self.written.to_string()),
        }
    }

    fn event(&mut self, event: &StreamResponse) -> Bytes {
        let id = self.next_id();
        let json = match self.codec.encode_event(&self.request, event) {
            Ok(json) => json,
            Err(_) => {
                self.events = None;
                return self.error(&A2aError::internal("an event could not be serialized"));
            }
        };
        // Labels were checked by `EventIds::label` and positions are
        // digits: the encoder accepts both.
        if self.encoder.event(None, id.as_deref(), &json).is_err() {
            self.encoder.data(&json);
        }
        self.encoder.take()
    }

    fn error(&mut self, error: &A2aError) -> Bytes {
        let json = self.codec.encode_error(&self.request, error);
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
                // A label put on the error is not written: error frames
                // carry no id.
                let _ = this.ids.take();
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

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::{TaskState, TaskStatus, TaskStatusUpdateEvent};
    use std::collections::VecDeque;
    use std::task::Waker;

    type Item = Result<StreamResponse, A2aError>;

    /// Yields its items, labelling each one that has a label first.
    struct Labelled {
        items: VecDeque<(Option<&'static str>, Item)>,
        ids: EventIds,
    }

    impl Stream for Labelled {
        type Item = Item;
        fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Item>> {
            let this = self.get_mut();
            Poll::Ready(this.items.pop_front().map(|(label, item)| {
                if let Some(label) = label {
                    assert!(this.ids.label(label));
                }
                item
            }))
        }
    }

    fn status(state: TaskState) -> Item {
        Ok(TaskStatusUpdateEvent::new("t", "c", TaskStatus::new(state)).into())
    }

    /// The `id:` line of each frame (`None` when it has none).
    fn ids_of(codec: JsonCodec, items: Vec<(Option<&'static str>, Item)>) -> Vec<Option<String>> {
        let ids = EventIds::new();
        let stream = Labelled {
            items: items.into(),
            ids: ids.clone(),
        };
        let mut frames = Frames::new(codec, Id::number(1), None, Box::pin(stream), ids);
        let mut cx = Context::from_waker(Waker::noop());
        let mut out = Vec::new();
        while let Poll::Ready(Some(frame)) = Pin::new(&mut frames).poll_next(&mut cx) {
            let text = String::from_utf8(frame.to_vec()).unwrap();
            assert!(
                text.ends_with("\n\n"),
                "one whole event per frame: {text:?}"
            );
            out.push(
                text.lines()
                    .find_map(|l| l.strip_prefix("id: "))
                    .map(str::to_owned),
            );
        }
        out
    }

    #[test]
    fn unlabelled_frames_are_numbered_from_one() {
        for codec in [JsonCodec::HttpJson, JsonCodec::JsonRpc] {
            let items = vec![
                (None, status(TaskState::Working)),
                (None, status(TaskState::Working)),
                (None, status(TaskState::Completed)),
            ];
            let want = ["1", "2", "3"].map(|s| Some(s.to_owned()));
            assert_eq!(ids_of(codec, items), want);
        }
    }

    #[test]
    fn labels_are_written_and_unlabelled_items_after_them_get_none() {
        let items = vec![
            (Some("7"), status(TaskState::Working)),
            (Some("9"), status(TaskState::Working)),
            (None, status(TaskState::Working)),
            (Some("10"), status(TaskState::Completed)),
        ];
        let got = ids_of(JsonCodec::HttpJson, items);
        assert_eq!(
            got,
            vec![Some("7".into()), Some("9".into()), None, Some("10".into())]
        );
    }

    #[test]
    fn error_frames_carry_no_id() {
        let items = vec![
            (None, status(TaskState::Working)),
            (Some("5"), Err(A2aError::task_not_found("t"))),
        ];
        assert_eq!(
            ids_of(JsonCodec::HttpJson, items),
            vec![Some("1".into()), None]
        );
    }

    #[test]
    fn the_first_event_takes_the_label_left_by_the_first_poll() {
        let ids = EventIds::new();
        assert!(ids.label("3"));
        let rest = Labelled {
            items: vec![(Some("4"), status(TaskState::Completed))].into(),
            ids: ids.clone(),
        };
        let first = status(TaskState::Working).unwrap();
        let mut frames = Frames::new(
            JsonCodec::HttpJson,
            Id::Null,
            Some(first),
            Box::pin(rest),
            ids,
        );
        let mut cx = Context::from_waker(Waker::noop());
        let mut got = Vec::new();
        while let Poll::Ready(Some(frame)) = Pin::new(&mut frames).poll_next(&mut cx) {
            got.push(String::from_utf8(frame.to_vec()).unwrap());
        }
        assert!(got[0].starts_with("id: 3\ndata: {"), "{got:?}");
        assert!(got[1].starts_with("id: 4\ndata: {"), "{got:?}");
    }
}
