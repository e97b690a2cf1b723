//! The agent on a real HTTP stack: hyper's HTTP/1.1 server around the
//! pure [`A2aServer::handle`] of `a2a-transport`. This is all the glue a
//! host writes: read the body (bounded), call `handle`, write the answer
//! (interleaving SSE keep-alive comments in streams), log a line.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use a2a_transport::{
    server::{keep_alive_frame, FrameStream},
    A2aServer, A2aService, Body,
};
use bytes::{Bytes, BytesMut};
use futures_core::Stream;
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Either, Full, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;

/// The body hyper writes: complete bytes, or SSE frames as they come.
pub type ResponseBody = Either<Full<Bytes>, StreamBody<KeepAlive>>;

/// How [`serve`] behaves.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServeOptions {
    /// The interval of `: keep-alive` comments in an idle SSE stream.
    /// Default 15 s.
    pub keep_alive: Duration,
    /// Whether to log one line per request on stderr. Default true.
    pub log: bool,
    /// How long shutdown waits for open requests (streams included)
    /// before closing them. Default 5 s.
    pub drain_timeout: Duration,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            keep_alive: Duration::from_secs(15),
            log: true,
            drain_timeout: Duration::from_secs(5),
        }
    }
}

/// Serves `server` on `listener` until `shutdown` completes, then stops
/// accepting and lets open requests finish (up to
/// [`ServeOptions::drain_timeout`]).
pub async fn serve<S: A2aService + 'static>(
    listener: TcpListener,
    server: Arc<A2aServer<S>>,
    options: ServeOptions,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                // A failed accept (out of descriptors, a reset) affects one
                // connection, not the server.
                Err(e) => {
                    eprintln!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let (server, options) = (Arc::clone(&server), options.clone());
        let service = service_fn(move |request| {
            let (server, options) = (Arc::clone(&server), options.clone());
            async move { Ok::<_, Infallible>(respond(&server, request, peer, &options).await) }
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
    drop(listener);
    if tokio::time::timeout(options.drain_timeout, graceful.shutdown())
        .await
        .is_err()
    {
        eprintln!(
            "shutdown: closing requests still open after {:?}",
            options.drain_timeout
        );
    }
    Ok(())
}

/// One request: read the body, hand it to the server, convert the answer.
async fn respond<S: A2aService>(
    server: &A2aServer<S>,
    request: Request<Incoming>,
    peer: SocketAddr,
    options: &ServeOptions,
) -> Response<ResponseBody> {
    let started = Instant::now();
    let (head, body) = request.into_parts();
    let (method, path) = (head.method.clone(), head.uri.path().to_owned());
    let response = match server.check_head(&head) {
        Some(refused) => refused,
        None => match read_body(body, server.config().max_body_size).await {
            // Over the limit, the body is cut one byte past it, which
            // `handle` answers with the binding's 413.
            Ok(bytes) => server.handle(Request::from_parts(head, bytes)).await,
            Err(e) => Response::builder()
                .status(StatusCode::BAD_REQUEST)
                .body(Body::full(format!("cannot read the request body: {e}")))
                .unwrap_or_default(),
        },
    };
    if options.log {
        let kind = if response.body().is_stream() {
            " (stream)"
        } else {
            ""
        };
        eprintln!(
            "{peer} {method} {path} {}{kind} {:.1} ms",
            response.status().as_u16(),
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
    let (parts, body) = response.into_parts();
    let body = match body {
        Body::Full(bytes) => Either::Left(Full::new(bytes)),
        Body::Stream(frames) => {
            Either::Right(StreamBody::new(KeepAlive::new(frames, options.keep_alive)))
        }
    };
    Response::from_parts(parts, body)
}

/// The body, read until it ends or is one byte over `max`.
async fn read_body(mut body: Incoming, max: usize) -> Result<Bytes, hyper::Error> {
    let mut buf = BytesMut::new();
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame?.into_data() {
            let room = (max + 1).saturating_sub(buf.len());
            buf.extend_from_slice(&data[..data.len().min(room)]);
            if buf.len() > max {
                break;
            }
        }
    }
    Ok(buf.freeze())
}

/// SSE frames, with a keep-alive comment after each `interval` without one.
pub struct KeepAlive {
    frames: FrameStream,
    tick: tokio::time::Interval,
}

impl std::fmt::Debug for KeepAlive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeepAlive")
            .field("tick", &self.tick)
            .finish_non_exhaustive()
    }
}

impl KeepAlive {
    fn new(frames: FrameStream, interval: Duration) -> KeepAlive {
        let interval = interval.max(Duration::from_millis(10));
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        KeepAlive { frames, tick }
    }
}

impl Stream for KeepAlive {
    type Item = Result<Frame<Bytes>, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.frames.as_mut().poll_next(cx) {
            Poll::Ready(Some(bytes)) => {
                self.tick.reset();
                Poll::Ready(Some(Ok(Frame::data(bytes))))
            }
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => match self.tick.poll_tick(cx) {
                Poll::Ready(_) => Poll::Ready(Some(Ok(Frame::data(keep_alive_frame())))),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}
