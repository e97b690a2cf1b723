//! The one trait a host implements to let the client side reach the
//! network (DESIGN.md, "The one trait": the core never opens a socket).
//!
//! [`HttpClient::send`] takes a complete `http::Request<Bytes>` and answers
//! the status and headers with a body that arrives as a stream of chunks
//! ([`ResponseBody`]), so that Server-Sent Events (spec 9.4.2, 11.7) are
//! decoded as they arrive. Adapting hyper, reqwest or any other stack is a
//! few lines: convert the request, and wrap the response body's chunk
//! stream in [`ResponseBody::new`].
//!
//! Failures of the HTTP stack itself are an [`HttpError`]: the kind tells
//! the transport whether a dropped stream may be resumed (spec 3.1.6).
//!
//! The gRPC binding (spec 10) needs two more things of the same trait: a
//! request whose [`version`](http::Request::version) is HTTP/2 must go out
//! over HTTP/2 (h2c with prior knowledge for `http`, ALPN `h2` for
//! `https`), and the response's trailers, where gRPC puts its status, must
//! reach the transport: build the body with [`ResponseBody::with_trailers`]
//! from a stream of [`BodyChunk`]s. A client that cannot do either still
//! serves the JSON bindings; over gRPC its calls fail with a protocol error
//! (no `grpc-status`), never a false success.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;
use http::HeaderMap;

use crate::service::BoxFuture;

/// The body of a response: chunks of bytes as the HTTP stack delivers
/// them, or the error that ended the body (a connection lost mid-stream).
///
/// ```
/// use a2a_wire::ResponseBody;
/// let body = ResponseBody::full("{}");
/// # let _ = body;
/// ```
///
/// A body may end with HTTP trailers ([`ResponseBody::with_trailers`]):
/// as a [`Stream`] it yields the data alone, and once it has ended,
/// [`trailers`](ResponseBody::trailers) gives them.
pub struct ResponseBody {
    chunks: Pin<Box<dyn Stream<Item = Result<BodyChunk, HttpError>> + Send + 'static>>,
    trailers: Option<HeaderMap>,
    ended: bool,
}

/// One piece of a [`ResponseBody`] built with
/// [`ResponseBody::with_trailers`]: data, or the trailers that end it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum BodyChunk {
    /// Bytes of the body.
    Data(Bytes),
    /// The trailers (an HTTP/2 `HEADERS` frame after the data): the last
    /// piece; nothing after it is read.
    Trailers(HeaderMap),
}

impl ResponseBody {
    /// A body read from `stream` (for example a hyper or reqwest body's
    /// chunk stream with its error converted), without trailers.
    pub fn new<S>(stream: S) -> ResponseBody
    where
        S: Stream<Item = Result<Bytes, HttpError>> + Send + 'static,
    {
        ResponseBody::with_trailers(DataOnly(Box::pin(stream)))
    }

    /// A body read from `stream`: data chunks, then at most one trailers
    /// chunk, which ends the body (what an HTTP/2 client gives for a gRPC
    /// response, spec 10).
    ///
    /// ```
    /// use a2a_wire::{BodyChunk, ResponseBody};
    /// # use std::{pin::Pin, task::{Context, Poll, Waker}};
    /// # use futures_core::Stream;
    /// let mut trailers = http::HeaderMap::new();
    /// trailers.insert("grpc-status", "0".parse()?);
    /// let chunks = vec![Ok(BodyChunk::Data("msg".into())), Ok(BodyChunk::Trailers(trailers.clone()))];
    /// let mut body = ResponseBody::from_body_chunks(chunks);
    /// # let mut cx = Context::from_waker(Waker::noop());
    /// // Reading the data to its end ...
    /// # assert!(matches!(Pin::new(&mut body).poll_next(&mut cx), Poll::Ready(Some(Ok(_)))));
    /// # assert!(matches!(Pin::new(&mut body).poll_next(&mut cx), Poll::Ready(None)));
    /// // ... leaves the trailers.
    /// assert_eq!(body.trailers(), Some(&trailers));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_trailers<S>(stream: S) -> ResponseBody
    where
        S: Stream<Item = Result<BodyChunk, HttpError>> + Send + 'static,
    {
        ResponseBody {
            chunks: Box::pin(stream),
            trailers: None,
            ended: false,
        }
    }

    /// The trailers, once the body has ended with them; `None` before,
    /// and for a body without trailers.
    pub fn trailers(&self) -> Option<&HeaderMap> {
        self.trailers.as_ref()
    }

    /// A body of one chunk.
    pub fn full(bytes: impl Into<Bytes>) -> ResponseBody {
        ResponseBody::from_chunks(vec![Ok(bytes.into())])
    }

    /// An empty body.
    pub fn empty() -> ResponseBody {
        ResponseBody::from_chunks(Vec::new())
    }

    /// A body that yields `chunks` in order, then ends: what an in-memory
    /// client (a test, or an adapter around a buffered response) returns.
    pub fn from_chunks(chunks: Vec<Result<Bytes, HttpError>>) -> ResponseBody {
        ResponseBody::new(Chunks(chunks.into_iter()))
    }

    /// A body that yields `chunks` in order (trailers last), then ends.
    pub fn from_body_chunks(chunks: Vec<Result<BodyChunk, HttpError>>) -> ResponseBody {
        ResponseBody::with_trailers(Chunks(chunks.into_iter()))
    }
}

impl Stream for ResponseBody {
    type Item = Result<Bytes, HttpError>;

    /// The next data chunk; `None` at the end of the body, trailers
    /// included (they are kept for [`trailers`](ResponseBody::trailers)).
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.ended {
            return Poll::Ready(None);
        }
        Poll::Ready(
            match std::task::ready!(this.chunks.as_mut().poll_next(cx)) {
                Some(Ok(BodyChunk::Data(bytes))) => Some(Ok(bytes)),
                Some(Ok(BodyChunk::Trailers(trailers))) => {
                    this.trailers = Some(trailers);
                    this.ended = true;
                    None
                }
                Some(Err(e)) => Some(Err(e)),
                None => {
                    this.ended = true;
                    None
                }
            },
        )
    }
}

/// Data chunks as body chunks.
struct DataOnly<S>(Pin<Box<S>>);

impl<S: Stream<Item = Result<Bytes, HttpError>>> Stream for DataOnly<S> {
    type Item = Result<BodyChunk, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0
            .as_mut()
            .poll_next(cx)
            .map(|item| item.map(|chunk| chunk.map(BodyChunk::Data)))
    }
}

impl fmt::Debug for ResponseBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ResponseBody(..)")
    }
}

/// A ready-made list of chunks as a stream.
struct Chunks<T>(std::vec::IntoIter<T>);

impl<T> Unpin for Chunks<T> {}

impl<T> Stream for Chunks<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(self.0.next())
    }
}

/// Why the HTTP stack could not deliver a request or its response.
///
/// The kind decides what a resilient stream does (spec 3.1.6):
/// [`Connection`](HttpError::Connection) and [`Timeout`](HttpError::Timeout)
/// are worth a retry, [`Other`](HttpError::Other) is not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The connection could not be opened, or was lost (before the
    /// response, or in the middle of its body).
    #[error("connection failed: {0}")]
    Connection(String),
    /// The host's deadline passed before the response (or the next chunk
    /// of its body) arrived.
    #[error("timed out: {0}")]
    Timeout(String),
    /// Anything else: a request the stack refused, a TLS configuration
    /// error, a protocol violation below HTTP semantics.
    #[error("HTTP client error: {0}")]
    Other(String),
}

impl HttpError {
    /// True for failures a retry may cure: [`HttpError::Connection`] and
    /// [`HttpError::Timeout`].
    pub fn is_retryable(&self) -> bool {
        matches!(self, HttpError::Connection(_) | HttpError::Timeout(_))
    }
}

/// The host's HTTP client: sends one request, answers its response with a
/// streamed body (DESIGN.md, "The one trait").
///
/// Object safe, so a transport can hold `Arc<dyn HttpClient>`. The request
/// is complete (method, absolute URI, headers, body); the client adds
/// what its stack manages itself (`Host`, `Content-Length`, connection
/// headers) and must not follow redirects silently for non-`GET` requests.
///
/// ```
/// use a2a_wire::{BoxFuture, HttpClient, HttpError, ResponseBody};
/// use bytes::Bytes;
///
/// /// Answers every request with an empty JSON object.
/// struct Fixed;
/// impl HttpClient for Fixed {
///     fn send(&self, _: http::Request<Bytes>)
///         -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>>
///     {
///         Box::pin(async { Ok(http::Response::new(ResponseBody::full("{}"))) })
///     }
/// }
/// ```
pub trait HttpClient: Send + Sync {
    /// Sends `request` and answers its response, whose body is read as it
    /// arrives.
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>>;
}

impl<C: HttpClient + ?Sized> HttpClient for std::sync::Arc<C> {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        (**self).send(request)
    }
}

impl<C: HttpClient + ?Sized> HttpClient for Box<C> {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        (**self).send(request)
    }
}

impl<C: HttpClient + ?Sized> HttpClient for &C {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        (**self).send(request)
    }
}

/// The next chunk of a body.
pub async fn next_chunk(body: &mut ResponseBody) -> Option<Result<Bytes, HttpError>> {
    std::future::poll_fn(|cx| Pin::new(&mut *body).poll_next(cx)).await
}

/// How reading a whole body ended.
#[derive(Debug)]
pub enum ReadBody {
    /// The complete body.
    Complete(Bytes),
    /// The body is longer than the limit; reading stopped there.
    TooLarge,
}

/// Reads a whole body, refusing more than `max` bytes (checked against
/// `Content-Length` first, then before each chunk is kept).
pub async fn read_body(
    headers: &http::HeaderMap,
    body: &mut ResponseBody,
    max: usize,
) -> Result<ReadBody, HttpError> {
    let declared = headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Ok(ReadBody::TooLarge);
    }
    let mut first: Option<Bytes> = None;
    let mut rest: Vec<u8> = Vec::new();
    let mut total = 0usize;
    while let Some(chunk) = next_chunk(body).await {
        let chunk = chunk?;
        total = total.saturating_add(chunk.len());
        if total > max {
            return Ok(ReadBody::TooLarge);
        }
        match &first {
            None if rest.is_empty() => first = Some(chunk),
            _ => {
                if let Some(f) = first.take() {
                    rest.extend_from_slice(&f);
                }
                rest.extend_from_slice(&chunk);
            }
        }
    }
    Ok(ReadBody::Complete(match first {
        Some(one) => one,
        None => Bytes::from(rest),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::task::Waker;

    fn block_on<F: Future>(f: F) -> F::Output {
        let mut f = std::pin::pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    fn chunks(parts: &[&'static str]) -> ResponseBody {
        ResponseBody::from_chunks(
            parts
                .iter()
                .map(|p| Ok(Bytes::from_static(p.as_bytes())))
                .collect(),
        )
    }

    #[test]
    fn reads_whole_bodies_within_the_limit() {
        let h = http::HeaderMap::new();
        for (parts, want) in [
            (&["abc"][..], "abc"),
            (&["a", "b", "", "c"][..], "abc"),
            (&[][..], ""),
        ] {
            match block_on(read_body(&h, &mut chunks(parts), 3)) {
                Ok(ReadBody::Complete(b)) => assert_eq!(&b[..], want.as_bytes()),
                other => panic!("{parts:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn refuses_bodies_over_the_limit() {
        let h = http::HeaderMap::new();
        let got = block_on(read_body(&h, &mut chunks(&["ab", "cd"]), 3));
        assert!(matches!(got, Ok(ReadBody::TooLarge)));
        let mut h = http::HeaderMap::new();
        h.insert(
            http::header::CONTENT_LENGTH,
            http::HeaderValue::from_static("10"),
        );
        // Refused from the declared length, before reading anything.
        let got = block_on(read_body(&h, &mut chunks(&["a"]), 3));
        assert!(matches!(got, Ok(ReadBody::TooLarge)));
    }

    #[test]
    fn a_failing_body_is_an_error() {
        let h = http::HeaderMap::new();
        let mut body = ResponseBody::from_chunks(vec![
            Ok(Bytes::from_static(b"a")),
            Err(HttpError::Connection("reset".into())),
        ]);
        let got = block_on(read_body(&h, &mut body, 100));
        assert!(matches!(got, Err(HttpError::Connection(_))));
        assert!(HttpError::Timeout(String::new()).is_retryable());
        assert!(!HttpError::Other(String::new()).is_retryable());
    }
}
