//! An [`HttpClient`] that answers from an [`A2aServer`] in memory: the
//! server's pure `handle` function, no sockets. The wire scenarios see the
//! same bytes, statuses and headers as over loopback, only faster.

use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use a2a_transport::{
    client::{BodyChunk, HttpError, ResponseBody},
    server::{Chunk, FrameStream},
    A2aServer, A2aService, Body, BoxFuture, HttpClient,
};
use bytes::Bytes;
use futures_core::Stream;

/// An HTTP client whose every request is answered by `server.handle`.
pub struct ServerClient<S> {
    server: Arc<A2aServer<S>>,
}

impl<S> fmt::Debug for ServerClient<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ServerClient(..)")
    }
}

impl<S> ServerClient<S> {
    /// A client of `server`.
    pub fn new(server: Arc<A2aServer<S>>) -> ServerClient<S> {
        ServerClient { server }
    }
}

impl<S: A2aService + 'static> HttpClient for ServerClient<S> {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        Box::pin(async move {
            let response = self.server.handle(request).await;
            Ok(response_body(response))
        })
    }
}

/// A server response as a client response.
pub fn response_body(response: http::Response<Body>) -> http::Response<ResponseBody> {
    let (parts, body) = response.into_parts();
    let body = match body {
        Body::Full(bytes) => ResponseBody::full(bytes),
        Body::Stream(frames) => ResponseBody::new(Frames(frames)),
        // The data, then the trailers (the gRPC status); any other body is
        // read the same way, chunk by chunk.
        other => ResponseBody::with_trailers(WithTrailers(other)),
    };
    http::Response::from_parts(parts, body)
}

/// SSE frames as body chunks.
struct Frames(FrameStream);

impl Stream for Frames {
    type Item = Result<Bytes, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.as_mut().poll_next(cx).map(|item| item.map(Ok))
    }
}

/// A trailed body's chunks as the client's: data, then the trailers.
struct WithTrailers(Body);

impl Stream for WithTrailers {
    type Item = Result<BodyChunk, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.0).poll_chunk(cx).map(|chunk| {
            chunk.map(|c| match c {
                Chunk::Data(bytes) => Ok(BodyChunk::Data(bytes)),
                Chunk::Trailers(trailers) => Ok(BodyChunk::Trailers(trailers)),
                other => Err(HttpError::Connection(format!(
                    "a body chunk the runner cannot read: {other:?}"
                ))),
            })
        })
    }
}
