//! [`Body`] as an [`http_body::Body`] (feature `http-body`), so that hyper
//! and axum serve an `http::Response<Body>` as it is.
//!
//! A complete body is one data frame with an exact size hint (hyper then
//! writes `Content-Length`); a stream is one data frame per chunk of SSE
//! frames, and ends the response when it ends; a body with trailers is a
//! data frame per chunk then one trailers frame (over HTTP/2, the
//! `HEADERS` frame that ends the stream: the gRPC status, spec 10). None
//! ever fails: an error in a stream was already written into it as a last
//! frame (spec 9.4.2, 11.7) or into its trailers.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;
use http_body::{Frame, SizeHint};

use crate::body::{Body, Chunk};

impl http_body::Body for Body {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        // A complete body comes once, and no empty chunk.
        Body::poll_chunk(self, cx).map(|chunk| {
            chunk.map(|chunk| {
                Ok(match chunk {
                    Chunk::Data(bytes) => Frame::data(bytes),
                    Chunk::Trailers(trailers) => Frame::trailers(trailers),
                })
            })
        })
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Body::Trailed(_) => Stream::size_hint(self) == (0, Some(0)),
            _ => self.as_bytes().is_some_and(Bytes::is_empty),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self.as_bytes() {
            Some(bytes) => SizeHint::with_exact(bytes.len() as u64),
            None => SizeHint::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body as _;
    use std::task::Waker;

    fn frames(mut body: Body) -> Vec<Bytes> {
        let mut cx = Context::from_waker(Waker::noop());
        let mut out = Vec::new();
        while let Poll::Ready(Some(frame)) = Pin::new(&mut body).poll_frame(&mut cx) {
            let Ok(frame) = frame;
            out.push(frame.into_data().unwrap_or_default());
        }
        assert!(body.is_end_stream() || body.is_stream());
        out
    }

    #[test]
    fn a_full_body_is_one_frame_of_exact_size() {
        let body = Body::from("{\"a\":1}");
        assert_eq!(http_body::Body::size_hint(&body).exact(), Some(7));
        assert!(!body.is_end_stream());
        assert_eq!(frames(body), [Bytes::from_static(b"{\"a\":1}")]);

        let empty = Body::empty();
        assert!(empty.is_end_stream());
        assert_eq!(http_body::Body::size_hint(&empty).exact(), Some(0));
        assert!(frames(empty).is_empty());
    }

    #[test]
    fn a_stream_is_one_frame_per_chunk_without_a_size() {
        let chunks = [
            Bytes::from_static(b"data: 1\n\n"),
            Bytes::from_static(b"data: 2\n\n"),
        ];
        let body = Body::stream(Chunks(chunks.to_vec()));
        assert_eq!(http_body::Body::size_hint(&body).exact(), None);
        assert!(!body.is_end_stream());
        assert_eq!(frames(body), chunks);
    }

    #[test]
    fn trailers_are_the_last_frame() {
        let mut trailers = http::HeaderMap::new();
        trailers.insert("grpc-status", http::HeaderValue::from_static("0"));
        let mut body = Body::full_with_trailers("m", trailers.clone());
        assert_eq!(http_body::Body::size_hint(&body).exact(), None);
        assert!(!body.is_end_stream());
        let mut cx = Context::from_waker(Waker::noop());
        let mut got = Vec::new();
        while let Poll::Ready(Some(Ok(frame))) = Pin::new(&mut body).poll_frame(&mut cx) {
            got.push(frame);
        }
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].data_ref(), Some(&Bytes::from_static(b"m")));
        assert_eq!(got[1].trailers_ref(), Some(&trailers));
        assert!(body.is_end_stream());
    }

    struct Chunks(Vec<Bytes>);
    impl Stream for Chunks {
        type Item = Bytes;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Bytes>> {
            Poll::Ready((!self.0.is_empty()).then(|| self.0.remove(0)))
        }
    }
}
