//! The `futures_core::Stream` adapter.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;

use crate::decoder::Decoder;
use crate::error::StreamError;
use crate::event::Event;

/// Decodes a stream of byte chunks (for example an HTTP response body) into
/// a stream of [`Event`]s.
///
/// The source yields `Result<B, E>` with any chunk type `B` that converts
/// into [`Bytes`] (`Bytes`, `Vec<u8>`, `String`, `&'static [u8]`...) and any
/// error type `E`. Items are `Ok(event)`, or [`StreamError::Decode`] when a
/// limit is exceeded (the stream goes on with the next event), or
/// [`StreamError::Source`] when the source fails (passed through; polling
/// again polls the source again, which decides whether it goes on). When the
/// source ends, the decoder is finished: an incomplete last event is
/// discarded, and the stream ends.
///
/// The source must be [`Unpin`]; pin a `!Unpin` one with `Box::pin` first.
/// [`decoder`](Self::decoder) gives the last event ID and retry value for a
/// reconnection.
///
/// ```
/// use std::pin::Pin;
/// use std::task::{Context, Poll, Waker};
/// use futures_core::Stream;
/// use a2a_sse::EventStream;
///
/// // A source that yields two chunks, then ends.
/// struct Chunks(Vec<&'static [u8]>);
/// impl Stream for Chunks {
///     type Item = Result<&'static [u8], std::io::Error>;
///     fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
///         Poll::Ready((!self.0.is_empty()).then(|| Ok(self.0.remove(0))))
///     }
/// }
///
/// let mut events = EventStream::new(Chunks(vec![b"id: 1\ndata: he", b"llo\n\ndata: cut off"]));
/// let mut cx = Context::from_waker(Waker::noop());
/// match Pin::new(&mut events).poll_next(&mut cx) {
///     Poll::Ready(Some(Ok(event))) => assert_eq!(&event.data[..], b"hello"),
///     other => panic!("unexpected {other:?}"),
/// }
/// assert!(matches!(Pin::new(&mut events).poll_next(&mut cx), Poll::Ready(None)));
/// assert_eq!(events.decoder().last_event_id(), "1");
/// ```
#[derive(Debug)]
pub struct EventStream<S> {
    source: S,
    decoder: Decoder,
    source_done: bool,
}

impl<S> EventStream<S> {
    /// Decodes `source` with a default [`Decoder`].
    pub fn new(source: S) -> EventStream<S> {
        EventStream::with_decoder(source, Decoder::new())
    }

    /// Decodes `source` with `decoder` (for its limits, or a last event ID
    /// to resume from).
    pub fn with_decoder(source: S, decoder: Decoder) -> EventStream<S> {
        EventStream {
            source,
            decoder,
            source_done: false,
        }
    }

    /// The decoder: [`Decoder::last_event_id`] and [`Decoder::retry`] for
    /// reconnecting.
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// The source stream.
    pub fn get_ref(&self) -> &S {
        &self.source
    }

    /// The source stream, mutably.
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.source
    }

    /// The source and the decoder (with whatever input it has not decoded
    /// yet).
    pub fn into_parts(self) -> (S, Decoder) {
        (self.source, self.decoder)
    }
}

impl<S, B, E> Stream for EventStream<S>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: Into<Bytes>,
{
    type Item = Result<Event, StreamError<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            match this.decoder.next_event() {
                Ok(Some(event)) => return Poll::Ready(Some(Ok(event))),
                Err(e) => return Poll::Ready(Some(Err(StreamError::Decode(e)))),
                Ok(None) => {}
            }
            if this.source_done {
                return Poll::Ready(None);
            }
            match Pin::new(&mut this.source).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => this.decoder.feed(chunk.into()),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(StreamError::Source(e)))),
                Poll::Ready(None) => {
                    this.source_done = true;
                    this.decoder.finish();
                }
            }
        }
    }
}
