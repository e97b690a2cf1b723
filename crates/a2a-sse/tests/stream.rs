//! The `futures_core::Stream` adapter, polled by hand with a no-op waker.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use a2a_sse::{DecodeError, Decoder, DecoderConfig, EventStream, StreamError};
use futures_core::Stream;

/// A scripted source: `None` entries return `Pending` once.
struct Script<T>(VecDeque<Option<Result<T, &'static str>>>);

impl<T: Unpin> Stream for Script<T> {
    type Item = Result<T, &'static str>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.0.pop_front() {
            None => Poll::Ready(None),
            Some(None) => {
                cx.waker().wake_by_ref();
                Poll::Pending
            }
            Some(Some(item)) => Poll::Ready(Some(item)),
        }
    }
}

fn poll<S: Stream + Unpin>(s: &mut S) -> Poll<Option<S::Item>> {
    Pin::new(s).poll_next(&mut Context::from_waker(Waker::noop()))
}

fn data<E>(item: Poll<Option<Result<a2a_sse::Event, E>>>) -> Vec<u8> {
    match item {
        Poll::Ready(Some(Ok(e))) => e.data.to_vec(),
        _ => panic!("expected an event"),
    }
}

#[test]
fn events_pending_and_end_of_stream() {
    let source = Script(VecDeque::from([
        Some(Ok(&b"data: o"[..])),
        None,
        Some(Ok(&b"ne\n\ndata: two\n\nda"[..])),
        None,
        Some(Ok(&b"ta: incomplete\n"[..])),
    ]));
    let mut s = EventStream::new(source);
    assert!(poll(&mut s).is_pending());
    assert_eq!(data(poll(&mut s)), b"one");
    assert_eq!(data(poll(&mut s)), b"two");
    assert!(poll(&mut s).is_pending());
    // The source ends without a blank line: the last event is discarded.
    assert!(matches!(poll(&mut s), Poll::Ready(None)));
    assert!(matches!(poll(&mut s), Poll::Ready(None)));
}

#[test]
fn source_errors_pass_through_and_the_stream_goes_on() {
    let source = Script(VecDeque::from([
        Some(Ok(b"data: a\n".to_vec())),
        Some(Err("connection reset")),
        Some(Ok(b"\n".to_vec())),
    ]));
    let mut s = EventStream::new(source);
    match poll(&mut s) {
        Poll::Ready(Some(Err(StreamError::Source(e)))) => assert_eq!(e, "connection reset"),
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(data(poll(&mut s)), b"a");
    assert!(matches!(poll(&mut s), Poll::Ready(None)));
}

#[test]
fn limit_errors_are_items_and_decoding_continues() {
    let decoder = Decoder::with_config(DecoderConfig::default().with_max_line_length(8));
    let source = Script(VecDeque::from([Some(Ok(String::from(
        "data: far too long\n\ndata: ok\n\n",
    )))]));
    let mut s = EventStream::with_decoder(source, decoder);
    match poll(&mut s) {
        Poll::Ready(Some(Err(StreamError::Decode(e)))) => {
            assert_eq!(
                e,
                DecodeError::LineTooLong {
                    limit: 8,
                    offset: 8
                }
            );
            let wrapped: StreamError<std::io::Error> = StreamError::from(e);
            assert!(std::error::Error::source(&wrapped).is_some());
            assert!(wrapped.to_string().contains("limit of 8 bytes"));
        }
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(data(poll(&mut s)), b"ok");
    assert!(matches!(poll(&mut s), Poll::Ready(None)));
}

#[test]
fn reconnection_state_and_parts_are_reachable() {
    let source = Script(VecDeque::from([Some(Ok(
        &b"retry: 10\nid: 4\ndata: x\n\n"[..],
    ))]));
    let mut s = EventStream::new(source);
    assert_eq!(s.get_ref().0.len(), 1);
    assert_eq!(data(poll(&mut s)), b"x");
    assert_eq!(s.decoder().last_event_id(), "4");
    assert_eq!(
        s.decoder().retry(),
        Some(std::time::Duration::from_millis(10))
    );
    assert!(s.get_mut().0.is_empty());
    let (_source, decoder) = s.into_parts();
    assert_eq!(decoder.last_event_id(), "4");
}

#[test]
fn a_boxed_unpin_source_works() {
    let source: Pin<Box<dyn Stream<Item = Result<bytes::Bytes, std::io::Error>>>> = Box::pin(
        Script(VecDeque::from([Some(Ok(bytes::Bytes::from_static(
            b"data: boxed\n\n",
        )))]))
        .map_err_io(),
    );
    let mut s = EventStream::new(source);
    assert_eq!(data(poll(&mut s)), b"boxed");
}

/// Adapts the scripted source's `&str` errors to `io::Error`.
trait MapErrIo: Sized {
    fn map_err_io(self) -> IoScript<Self>;
}

impl<S> MapErrIo for S {
    fn map_err_io(self) -> IoScript<S> {
        IoScript(self)
    }
}

struct IoScript<S>(S);

impl<S: Stream<Item = Result<bytes::Bytes, &'static str>> + Unpin> Stream for IoScript<S> {
    type Item = Result<bytes::Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.0)
            .poll_next(cx)
            .map(|o| o.map(|r| r.map_err(std::io::Error::other)))
    }
}
