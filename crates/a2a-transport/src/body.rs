//! The body of a server response: complete bytes, or a stream of
//! Server-Sent Events frames (spec 9.4.2, 11.7).

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;

/// A stream of SSE-framed chunks: each item is one or more complete
/// `text/event-stream` frames, ready to write to the connection.
pub type FrameStream = Pin<Box<dyn Stream<Item = Bytes> + Send + 'static>>;

/// The body of an [`http::Response`] produced by [`A2aServer`](crate::A2aServer).
///
/// Either the complete bytes of a JSON (or empty) body, or, for the
/// streaming operations, a stream of SSE frames whose end is the end of
/// the response. A stream never fails: an error after the first event is
/// written as a last frame (spec 9.4.2, 11.7) and the stream ends.
///
/// `Body` is itself a [`Stream`] of [`Bytes`] (a complete body yields its
/// bytes once, if not empty), so a host can forward any body the same way:
///
/// ```
/// use a2a_transport::Body;
/// use futures_core::Stream;
/// use std::pin::Pin;
/// use std::task::{Context, Poll, Waker};
///
/// let mut body = Body::from("{}");
/// let mut cx = Context::from_waker(Waker::noop());
/// assert_eq!(Pin::new(&mut body).poll_next(&mut cx), Poll::Ready(Some("{}".into())));
/// assert_eq!(Pin::new(&mut body).poll_next(&mut cx), Poll::Ready(None));
/// ```
///
/// Plugging it into a host: with the `http-body` feature, `Body` is an
/// `http_body::Body` (data frames, never an error), which hyper and axum
/// serve as it is; with `tower-service`, `TowerService` is the
/// whole server as a `tower::Service`. Without them, it is a `Stream` of
/// `Bytes` to forward.
pub enum Body {
    /// The complete body (possibly empty).
    Full(Bytes),
    /// SSE frames (`text/event-stream`), produced as the events occur.
    Stream(FrameStream),
}

impl Body {
    /// An empty body.
    pub fn empty() -> Body {
        Body::Full(Bytes::new())
    }

    /// A complete body.
    pub fn full(bytes: impl Into<Bytes>) -> Body {
        Body::Full(bytes.into())
    }

    /// A streaming body.
    pub fn stream<S>(frames: S) -> Body
    where
        S: Stream<Item = Bytes> + Send + 'static,
    {
        Body::Stream(Box::pin(frames))
    }

    /// True for a streaming body.
    pub fn is_stream(&self) -> bool {
        matches!(self, Body::Stream(_))
    }

    /// The bytes of a complete body; `None` for a stream.
    pub fn as_bytes(&self) -> Option<&Bytes> {
        match self {
            Body::Full(bytes) => Some(bytes),
            Body::Stream(_) => None,
        }
    }

    /// The bytes of a complete body, or the body back if it is a stream.
    pub fn into_bytes(self) -> Result<Bytes, Body> {
        match self {
            Body::Full(bytes) => Ok(bytes),
            stream => Err(stream),
        }
    }

    /// The length of a complete body, for a `Content-Length` header;
    /// `None` for a stream.
    pub fn len_hint(&self) -> Option<usize> {
        self.as_bytes().map(Bytes::len)
    }
}

impl Default for Body {
    fn default() -> Body {
        Body::empty()
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Body::Full(bytes) => f.debug_tuple("Full").field(bytes).finish(),
            Body::Stream(_) => f.write_str("Stream(..)"),
        }
    }
}

impl From<Bytes> for Body {
    fn from(bytes: Bytes) -> Body {
        Body::Full(bytes)
    }
}

impl From<Vec<u8>> for Body {
    fn from(bytes: Vec<u8>) -> Body {
        Body::Full(bytes.into())
    }
}

impl From<&'static str> for Body {
    fn from(text: &'static str) -> Body {
        Body::Full(Bytes::from_static(text.as_bytes()))
    }
}

impl From<String> for Body {
    fn from(text: String) -> Body {
        Body::Full(text.into())
    }
}

impl Stream for Body {
    type Item = Bytes;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Bytes>> {
        let this = self.get_mut();
        match this {
            Body::Full(bytes) => {
                let bytes = std::mem::take(bytes);
                Poll::Ready((!bytes.is_empty()).then_some(bytes))
            }
            Body::Stream(stream) => stream.as_mut().poll_next(cx),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Body::Full(bytes) => {
                let n = usize::from(!bytes.is_empty());
                (n, Some(n))
            }
            Body::Stream(stream) => stream.size_hint(),
        }
    }
}

/// One SSE comment line, `: keep-alive`, written into a streaming
/// response (spec 9.4.2, 11.7) while no event is due, so that proxies do
/// not close an idle connection. Receivers ignore comments (HTML "event
/// stream interpretation"). The server sends it when
/// [`ServerConfig::keep_alive`](crate::ServerConfig::keep_alive) is set,
/// timed by the host's clock: this crate never reads one.
///
/// ```
/// assert_eq!(&a2a_transport::server::keep_alive_frame()[..], b": keep-alive\n");
/// ```
pub fn keep_alive_frame() -> Bytes {
    let mut encoder = a2a_sse::Encoder::with_capacity(16);
    encoder.comment("keep-alive");
    encoder.take()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    struct Two(u8);
    impl Stream for Two {
        type Item = Bytes;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Bytes>> {
            self.0 += 1;
            Poll::Ready((self.0 <= 2).then(|| Bytes::from(vec![b'0' + self.0])))
        }
    }

    #[test]
    fn full_and_stream_bodies_poll_as_streams() {
        let mut cx = Context::from_waker(Waker::noop());
        let mut empty = Body::empty();
        assert_eq!(Pin::new(&mut empty).poll_next(&mut cx), Poll::Ready(None));
        assert_eq!(empty.len_hint(), Some(0));

        let mut s = Body::stream(Two(0));
        assert!(s.is_stream());
        assert_eq!(s.len_hint(), None);
        assert_eq!(format!("{s:?}"), "Stream(..)");
        assert_eq!(
            Pin::new(&mut s).poll_next(&mut cx),
            Poll::Ready(Some(Bytes::from_static(b"1")))
        );
        assert_eq!(
            Pin::new(&mut s).poll_next(&mut cx),
            Poll::Ready(Some(Bytes::from_static(b"2")))
        );
        assert_eq!(Pin::new(&mut s).poll_next(&mut cx), Poll::Ready(None));
        assert!(s.into_bytes().is_err());
        assert_eq!(
            Body::from(vec![1u8]).into_bytes().ok(),
            Some(Bytes::from_static(&[1]))
        );
    }
}
