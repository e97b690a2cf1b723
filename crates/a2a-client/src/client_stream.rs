//! The events of a streamed response (spec 3.1.2, 3.1.6, 9.4.2, 11.7),
//! decoded as the body arrives.
//!
//! The body goes through the bounded SSE decoder of `a2a-sse`, whatever the
//! chunking; each event's `data` is then one frame of the binding:
//!
//! - **JSON-RPC** (spec 9.4.2): a JSON-RPC response carrying the request's
//!   id, decoded with [`a2a_jsonrpc::decode_response`] for
//!   `SendStreamingMessage` (the result type of both streaming methods). A
//!   frame with another id is `InvalidAgentResponseError`; an error frame is
//!   its error.
//! - **HTTP+JSON** (spec 11.7): a bare `StreamResponse`, or a
//!   `google.rpc.Status` error body (`{"error": {...}}`), which is read
//!   with its own `code` as the HTTP status.
//!
//! - **gRPC** (spec 10.4): no SSE; each length-prefixed message of the
//!   HTTP/2 body is a protobuf `StreamResponse`, and the trailers' status
//!   ends the stream (an error status is its last item; a missing
//!   `grpc-status` is `InvalidAgentResponseError`). Messages are bounded by
//!   [`ClientConfig::max_response_body`](crate::ClientConfig::max_response_body).
//!   There are no event IDs or `retry` hints: a resilient stream
//!   resubscribes with `SubscribeToTask` alone.
//!
//! - **At A2A 0.3** (0.3 spec 7.2, 3.2.3): the same frames, each event in
//!   its 0.3 form (`kind`-tagged, read with the `a2a_types::v0_3` codecs;
//!   `final` is not needed: the stream ends when the body does). A 0.3
//!   stream whose first event is an error is that error, returned by the
//!   call that opens it (0.3 servers answer a failing streaming call so).
//!
//! An error ends the stream: after the first `Err` item the stream yields
//! nothing more. A connection lost mid-stream is a [`ClientFailure`]
//! (`Connection` or `Timeout`), which a resilient stream resumes from
//! (spec 3.1.6); an SSE limit exceeded or an undecodable frame is
//! `InvalidAgentResponseError`. The event type (`event:`) is not
//! interpreted: A2A frames say what they are in their JSON.
//!
//! [`ClientFailure`]: crate::ClientFailure

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_jsonrpc::Id;
use a2a_sse::{Decoder, DecoderConfig, EventStream as SseEvents, StreamError};
use a2a_types::{A2aError, StreamResponse};
use futures_core::Stream;

use crate::client_error::invalid_response;
#[cfg(feature = "grpc")]
use crate::grpc_client::GrpcEvents;
use a2a_wire::ResponseBody;
use a2a_wire::{Binding, JsonCodec};

/// A stream of [`StreamResponse`]s read from a streamed response (see the
/// module documentation), with what a reconnection needs: the last event
/// ID and the server's `retry` hint. The name is the HTTP bindings'; over
/// gRPC the same type reads protobuf messages.
pub struct SseStream {
    events: Source,
    id: Id,
    /// An event read ahead (see [`SseStream::first_error`]), yielded first.
    first: Option<Box<StreamResponse>>,
    done: bool,
}

/// Where the events come from.
enum Source {
    /// A `text/event-stream` body (JSON-RPC, HTTP+JSON), each event's
    /// `data` read with the call's codec; boxed, as the SSE decoder is
    /// many times the size of the gRPC reader.
    Sse(Box<SseEvents<ResponseBody>>, JsonCodec),
    /// A gRPC server stream.
    #[cfg(feature = "grpc")]
    Grpc(GrpcEvents),
}

impl fmt::Debug for SseStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SseStream")
            .field("binding", &self.binding())
            .field("id", &self.id)
            .field("last_event_id", &self.last_event_id())
            .field("retry", &self.retry())
            .field("first", &self.first.is_some())
            .field("done", &self.done)
            .finish()
    }
}

impl SseStream {
    /// Reads `body` as the stream of a request sent with `codec` and the
    /// JSON-RPC `id` (ignored for HTTP+JSON).
    pub(crate) fn new(
        body: ResponseBody,
        codec: JsonCodec,
        id: Id,
        config: DecoderConfig,
    ) -> SseStream {
        SseStream {
            events: Source::Sse(
                Box::new(SseEvents::with_decoder(body, Decoder::with_config(config))),
                codec,
            ),
            id,
            first: None,
            done: false,
        }
    }

    /// Reads the first event ahead: a 0.3 server answers a streaming
    /// call that fails with a stream whose one event is the error (0.3
    /// spec 3.3.1, 7; both 0.3 SDK servers do), which is the call's error,
    /// as a 1.0 server's error answer is. Any other first event is kept
    /// and yielded first.
    pub(crate) async fn first_error(mut self) -> Result<SseStream, A2aError> {
        match std::future::poll_fn(|c| Pin::new(&mut self).poll_next(c)).await {
            Some(Err(e)) => Err(e),
            Some(Ok(event)) => {
                self.first = Some(Box::new(event));
                Ok(self)
            }
            None => Ok(self),
        }
    }

    /// The events of a gRPC server stream.
    #[cfg(feature = "grpc")]
    pub(crate) fn grpc(events: GrpcEvents) -> SseStream {
        SseStream {
            events: Source::Grpc(events),
            id: Id::Null,
            first: None,
            done: false,
        }
    }

    /// The last event ID the server sent (`""` before any, and always
    /// over gRPC): what to send as `Last-Event-ID` when reconnecting.
    pub fn last_event_id(&self) -> &str {
        match &self.events {
            Source::Sse(events, _) => events.decoder().last_event_id(),
            #[cfg(feature = "grpc")]
            Source::Grpc(_) => "",
        }
    }

    /// The reconnection delay the server asked for with `retry:`, if it
    /// did (never over gRPC).
    pub fn retry(&self) -> Option<Duration> {
        match &self.events {
            Source::Sse(events, _) => events.decoder().retry(),
            #[cfg(feature = "grpc")]
            Source::Grpc(_) => None,
        }
    }

    /// The binding the frames are read with.
    pub fn binding(&self) -> Binding {
        match &self.events {
            Source::Sse(_, codec) => codec.binding(),
            #[cfg(feature = "grpc")]
            Source::Grpc(_) => Binding::Grpc,
        }
    }
}

impl Stream for SseStream {
    type Item = Result<StreamResponse, A2aError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if let Some(event) = this.first.take() {
            return Poll::Ready(Some(Ok(*event)));
        }
        if this.done {
            return Poll::Ready(None);
        }
        // Without the `grpc` feature SSE is the one source.
        #[cfg_attr(not(feature = "grpc"), allow(clippy::infallible_destructuring_match))]
        let (events, codec) = match &mut this.events {
            Source::Sse(events, codec) => (events, *codec),
            #[cfg(feature = "grpc")]
            Source::Grpc(events) => {
                let item = std::task::ready!(Pin::new(events).poll_next(cx));
                if !matches!(item, Some(Ok(_))) {
                    this.done = true;
                }
                return Poll::Ready(item);
            }
        };
        let item = match Pin::new(&mut **events).poll_next(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(None) => None,
            Poll::Ready(Some(Ok(event))) => Some(codec.decode_event(&event.data, &this.id)),
            Poll::Ready(Some(Err(StreamError::Decode(e)))) => {
                Some(Err(invalid_response(&format!("event stream: {e}"))))
            }
            Poll::Ready(Some(Err(StreamError::Source(e)))) => Some(Err(A2aError::from(e))),
            Poll::Ready(Some(Err(e))) => Some(Err(invalid_response(&format!("event stream: {e}")))),
        };
        if !matches!(item, Some(Ok(_))) {
            this.done = true;
        }
        Poll::Ready(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ClientFailure, HttpError};
    use a2a_types::{ErrorKind, TaskState};
    use bytes::Bytes;
    use std::task::Waker;

    fn collect(mut s: SseStream) -> Vec<Result<StreamResponse, A2aError>> {
        let mut cx = Context::from_waker(Waker::noop());
        let mut out = Vec::new();
        while let Poll::Ready(Some(item)) = Pin::new(&mut s).poll_next(&mut cx) {
            out.push(item);
        }
        out
    }

    fn stream(binding: Binding, chunks: Vec<Result<&'static str, HttpError>>) -> SseStream {
        let body = ResponseBody::from_chunks(
            chunks
                .into_iter()
                .map(|c| c.map(|s| Bytes::from_static(s.as_bytes())))
                .collect(),
        );
        let codec = JsonCodec::select(binding, a2a_wire::ProtocolVersion::V1_0).unwrap();
        SseStream::new(body, codec, Id::number(7), DecoderConfig::DEFAULT)
    }

    const TASK: &str =
        r#"{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}"#;

    #[test]
    fn rest_frames_and_error_frames() {
        let s = stream(
            Binding::HttpJson,
            vec![
                Ok("id: 4\nretry: 250\ndata: "),
                Ok(TASK),
                Ok("\n\n: keep-alive\n\n"),
                Ok(
                    r#"data: {"error":{"code":404,"status":"NOT_FOUND","message":"gone","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}"#,
                ),
                Ok("\n\ndata: {}\n\n"),
            ],
        );
        let items = collect(s);
        assert_eq!(items.len(), 2, "the error frame ends the stream");
        let Ok(StreamResponse::Task(task)) = &items[0] else {
            panic!("{items:?}")
        };
        assert_eq!(task.status.state, TaskState::Working);
        let Err(e) = &items[1] else { panic!() };
        assert_eq!(e.kind(), ErrorKind::TaskNotFound);
        assert_eq!(e.http_status(), 404);
    }

    #[test]
    fn jsonrpc_frames_are_checked_against_the_request_id() {
        let good = format!(r#"data: {{"jsonrpc":"2.0","id":7,"result":{TASK}}}"#);
        let bad = format!(r#"data: {{"jsonrpc":"2.0","id":8,"result":{TASK}}}"#);
        let body = format!("{good}\n\n{bad}\n\n");
        let s = stream(Binding::JsonRpc, vec![Ok(Box::leak(body.into_boxed_str()))]);
        let items = collect(s);
        assert_eq!(items.len(), 2);
        assert!(matches!(items[0], Ok(StreamResponse::Task(_))));
        let Err(e) = &items[1] else { panic!() };
        assert_eq!(e.kind(), ErrorKind::InvalidAgentResponse);
        assert!(e.message().contains("does not match"), "{e}");
    }

    #[test]
    fn hints_and_a_dropped_connection() {
        let mut s = stream(
            Binding::HttpJson,
            vec![
                Ok("retry: 1500\nid: e1\ndata: "),
                Ok(TASK),
                Ok("\n\n"),
                Err(HttpError::Connection("reset".into())),
                Ok("data: {}\n\n"),
            ],
        );
        let mut cx = Context::from_waker(Waker::noop());
        assert!(matches!(
            Pin::new(&mut s).poll_next(&mut cx),
            Poll::Ready(Some(Ok(_)))
        ));
        assert_eq!(s.last_event_id(), "e1");
        assert_eq!(s.retry(), Some(Duration::from_millis(1500)));
        let Poll::Ready(Some(Err(e))) = Pin::new(&mut s).poll_next(&mut cx) else {
            panic!()
        };
        assert_eq!(ClientFailure::of(&e), Some(ClientFailure::Connection));
        assert!(matches!(
            Pin::new(&mut s).poll_next(&mut cx),
            Poll::Ready(None)
        ));
        assert!(format!("{s:?}").contains("e1"));
    }

    #[test]
    fn oversized_and_undecodable_events_are_invalid_responses() {
        let body = ResponseBody::full(format!("data: {TASK}\n\n"));
        let s = SseStream::new(
            body,
            JsonCodec::HttpJson,
            Id::Null,
            DecoderConfig::DEFAULT.with_max_event_data(16),
        );
        let items = collect(s);
        assert_eq!(items.len(), 1);
        assert_eq!(
            items[0].as_ref().unwrap_err().kind(),
            ErrorKind::InvalidAgentResponse
        );
        let items = collect(stream(Binding::HttpJson, vec![Ok("data: <html>\n\n")]));
        assert_eq!(
            items[0].as_ref().unwrap_err().kind(),
            ErrorKind::InvalidAgentResponse
        );
    }
}
