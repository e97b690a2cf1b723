//! The body of a server response: complete bytes, a stream of
//! Server-Sent Events frames (spec 9.4.2, 11.7), or data chunks ended by
//! HTTP trailers (the gRPC binding's status, spec 10).

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;
use http::HeaderMap;

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
/// use a2a_server::Body;
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
/// `http_body::Body` (data frames, then the trailers frame of a
/// [`Trailed`](Body::Trailed) body; never an error), which hyper and axum
/// serve as it is; with `tower-service`, `TowerService` is the
/// whole server as a `tower::Service`. Without them, it is a `Stream` of
/// `Bytes` to forward, followed by its [`trailers`](Body::trailers), or
/// read chunk by chunk, trailers included, with
/// [`poll_chunk`](Body::poll_chunk).
#[non_exhaustive]
pub enum Body {
    /// The complete body (possibly empty).
    Full(Bytes),
    /// SSE frames (`text/event-stream`), produced as the events occur.
    Stream(FrameStream),
    /// Data chunks ended by HTTP trailers (the gRPC binding: messages,
    /// then the status, spec 10). The host must write the trailers: over
    /// HTTP/2 a `HEADERS` frame that ends the stream.
    Trailed(Trailed),
}

/// One piece of a [`Trailed`] body: data, or the trailers that end it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Chunk {
    /// Bytes of the body.
    Data(Bytes),
    /// The trailers: the last piece of the body.
    Trailers(HeaderMap),
}

/// A stream of [`Chunk`]s: data, then at most one trailers chunk, which
/// ends the body (chunks after it are never polled).
pub type ChunkStream = Pin<Box<dyn Stream<Item = Chunk> + Send + 'static>>;

/// The state of a [`Body::Trailed`]: its chunks, and the trailers once
/// they were read.
pub struct Trailed {
    chunks: ChunkStream,
    trailers: Option<HeaderMap>,
    ended: bool,
}

impl Trailed {
    /// The next chunk; `None` after the trailers or the end of the chunks.
    fn poll_chunk(&mut self, cx: &mut Context<'_>) -> Poll<Option<Chunk>> {
        if self.ended {
            return Poll::Ready(None);
        }
        let item = std::task::ready!(self.chunks.as_mut().poll_next(cx));
        match &item {
            Some(Chunk::Trailers(trailers)) => {
                self.ended = true;
                self.trailers = Some(trailers.clone());
            }
            Some(Chunk::Data(_)) => {}
            None => self.ended = true,
        }
        Poll::Ready(item)
    }
}

impl fmt::Debug for Trailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trailed")
            .field("trailers", &self.trailers)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

/// Chunks known in advance, as a stream.
struct Ready(std::vec::IntoIter<Chunk>);

impl Stream for Ready {
    type Item = Chunk;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Chunk>> {
        Poll::Ready(self.0.next())
    }
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

    /// A body of data `chunks` ended by a trailers chunk (see
    /// [`ChunkStream`]): a streamed gRPC response, whose status is known
    /// only when its last message has gone.
    pub fn trailed<S>(chunks: S) -> Body
    where
        S: Stream<Item = Chunk> + Send + 'static,
    {
        Body::Trailed(Trailed {
            chunks: Box::pin(chunks),
            trailers: None,
            ended: false,
        })
    }

    /// A body of `data` (one chunk, none if empty) ended by `trailers`: a
    /// unary gRPC response.
    ///
    /// ```
    /// use a2a_server::{Chunk, Body};
    /// use std::pin::Pin;
    /// use std::task::{Context, Poll, Waker};
    ///
    /// let mut trailers = http::HeaderMap::new();
    /// trailers.insert("grpc-status", "0".parse()?);
    /// let mut body = Body::full_with_trailers("msg", trailers.clone());
    /// let mut cx = Context::from_waker(Waker::noop());
    /// assert_eq!(Pin::new(&mut body).poll_chunk(&mut cx), Poll::Ready(Some(Chunk::Data("msg".into()))));
    /// assert_eq!(Pin::new(&mut body).poll_chunk(&mut cx), Poll::Ready(Some(Chunk::Trailers(trailers.clone()))));
    /// assert_eq!(Pin::new(&mut body).poll_chunk(&mut cx), Poll::Ready(None));
    /// assert_eq!(body.trailers(), Some(&trailers));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn full_with_trailers(data: impl Into<Bytes>, trailers: HeaderMap) -> Body {
        let data = data.into();
        let mut chunks = Vec::with_capacity(2);
        if !data.is_empty() {
            chunks.push(Chunk::Data(data));
        }
        chunks.push(Chunk::Trailers(trailers));
        Body::trailed(Ready(chunks.into_iter()))
    }

    /// True for a body that is not complete bytes: SSE frames, or data
    /// with trailers.
    pub fn is_stream(&self) -> bool {
        !matches!(self, Body::Full(_))
    }

    /// True for a body that ends with trailers ([`Body::Trailed`]).
    pub fn has_trailers(&self) -> bool {
        matches!(self, Body::Trailed(_))
    }

    /// The trailers of a [`Trailed`](Body::Trailed) body once they were
    /// read (by [`poll_chunk`](Body::poll_chunk), the `Stream` of
    /// `Bytes`, or `http_body::Body`); `None` before, and for other bodies.
    pub fn trailers(&self) -> Option<&HeaderMap> {
        match self {
            Body::Trailed(t) => t.trailers.as_ref(),
            _ => None,
        }
    }

    /// The next piece of the body, trailers included: what a host that
    /// does not use `http_body` reads to write the response. A complete
    /// body is one data chunk (none if empty); a stream of SSE frames is a
    /// data chunk per item; a [`Trailed`](Body::Trailed) body is its data
    /// chunks, then its trailers.
    pub fn poll_chunk(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Chunk>> {
        match self.get_mut() {
            Body::Trailed(t) => t.poll_chunk(cx),
            other => Pin::new(other)
                .poll_next(cx)
                .map(|bytes| bytes.map(Chunk::Data)),
        }
    }

    /// The bytes of a complete body; `None` for a stream or a body with
    /// trailers.
    pub fn as_bytes(&self) -> Option<&Bytes> {
        match self {
            Body::Full(bytes) => Some(bytes),
            Body::Stream(_) | Body::Trailed(_) => None,
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
            Body::Trailed(t) => f.debug_tuple("Trailed").field(t).finish(),
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

/// The data of the body; a [`Trailed`](Body::Trailed) body ends at its
/// trailers, which [`Body::trailers`] then returns.
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
            Body::Trailed(t) => loop {
                match std::task::ready!(t.poll_chunk(cx)) {
                    Some(Chunk::Data(bytes)) if bytes.is_empty() => continue,
                    Some(Chunk::Data(bytes)) => return Poll::Ready(Some(bytes)),
                    Some(Chunk::Trailers(_)) | None => return Poll::Ready(None),
                }
            },
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Body::Full(bytes) => {
                let n = usize::from(!bytes.is_empty());
                (n, Some(n))
            }
            Body::Stream(stream) => stream.size_hint(),
            Body::Trailed(t) if t.ended => (0, Some(0)),
            Body::Trailed(_) => (0, None),
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
/// assert_eq!(&a2a_server::keep_alive_frame()[..], b": keep-alive\n");
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

    fn status(code: &'static str) -> HeaderMap {
        let mut trailers = HeaderMap::new();
        trailers.insert("grpc-status", http::HeaderValue::from_static(code));
        trailers
    }

    #[test]
    fn a_trailed_body_streams_its_data_then_keeps_its_trailers() {
        let mut cx = Context::from_waker(Waker::noop());
        let chunks = vec![
            Chunk::Data(Bytes::from_static(b"a")),
            Chunk::Data(Bytes::new()),
            Chunk::Data(Bytes::from_static(b"b")),
            Chunk::Trailers(status("0")),
            // Never read: the trailers end the body.
            Chunk::Data(Bytes::from_static(b"late")),
        ];
        let mut body = Body::trailed(Ready(chunks.into_iter()));
        assert!(body.is_stream() && body.has_trailers());
        assert_eq!(body.as_bytes(), None);
        assert_eq!(body.trailers(), None);
        let mut data = Vec::new();
        while let Poll::Ready(Some(bytes)) = Pin::new(&mut body).poll_next(&mut cx) {
            data.push(bytes);
        }
        assert_eq!(data, [Bytes::from_static(b"a"), Bytes::from_static(b"b")]);
        assert_eq!(body.trailers(), Some(&status("0")));
        assert_eq!(Pin::new(&mut body).poll_chunk(&mut cx), Poll::Ready(None));
        assert_eq!(Stream::size_hint(&body), (0, Some(0)));
        assert!(format!("{body:?}").starts_with("Trailed"));
    }

    #[test]
    fn poll_chunk_reads_every_kind_of_body() {
        let mut cx = Context::from_waker(Waker::noop());
        let mut all = |mut body: Body| {
            let mut out = Vec::new();
            while let Poll::Ready(Some(chunk)) = Pin::new(&mut body).poll_chunk(&mut cx) {
                out.push(chunk);
            }
            out
        };
        assert_eq!(all(Body::from("x")), [Chunk::Data("x".into())]);
        assert_eq!(all(Body::empty()), []);
        assert_eq!(
            all(Body::stream(Two(0))),
            [Chunk::Data("1".into()), Chunk::Data("2".into())]
        );
        // A trailers-only body: no data, the trailers.
        assert_eq!(
            all(Body::full_with_trailers(Bytes::new(), status("5"))),
            [Chunk::Trailers(status("5"))]
        );
        // Chunks that end without trailers end the body all the same.
        let none = Body::trailed(Ready(vec![Chunk::Data("d".into())].into_iter()));
        assert_eq!(all(none), [Chunk::Data("d".into())]);
    }
}
