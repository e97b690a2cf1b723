//! The deadline of a gRPC call (`grpc-timeout`), enforced where the clock
//! is: the core reads the header into `CallContext::timeout` but owns no
//! timer, so [`serve`](crate::serve) races each gRPC call against it.
//!
//! gRPC's PROTOCOL-HTTP2 says a server "should" stop a call once its
//! deadline passes and answer `DEADLINE_EXCEEDED` (4). A call whose answer
//! is not ready in time gets a trailers-only `DEADLINE_EXCEEDED`; a stream
//! still running then ends with `DEADLINE_EXCEEDED` in its trailers after
//! the messages already sent. Either way the call's future (and with it
//! the agent's work for this caller) is dropped. The status carries no
//! A2A `ErrorInfo`: no row of the error table is a deadline, and gRPC's
//! own servers answer it without details (`docs/decisions.md`).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_transport::grpc::{self, GrpcCode};
use a2a_transport::server::Chunk;
use a2a_transport::Body;
use a2a_types::{A2aError, ErrorCode};
use futures_core::Stream;
use http::{HeaderMap, Response};
use tokio::time::{Instant, Sleep};

/// The deadline a request sets: its `grpc-timeout`, when it is a gRPC
/// call (a gRPC `content-type`) and the value reads. A value that does not
/// read is the core's to refuse (`INTERNAL`), so it sets none here.
///
/// ```
/// let request = http::Request::post("/lf.a2a.v1.A2AService/GetTask")
///     .header("content-type", "application/grpc")
///     .header("grpc-timeout", "250m")
///     .body(())?;
/// assert_eq!(a2a_hyper::grpc_deadline(request.headers()), Some(std::time::Duration::from_millis(250)));
/// # Ok::<(), http::Error>(())
/// ```
pub fn grpc_deadline(headers: &HeaderMap) -> Option<Duration> {
    // The timeout first: most requests have none, and the content type is
    // then not read at all (this runs for every request).
    let timeout = grpc::request_timeout(headers)?;
    let grpc = headers
        .get(http::header::CONTENT_TYPE)
        .is_some_and(grpc::is_grpc_content_type);
    match timeout {
        Ok(timeout) if grpc => Some(timeout),
        _ => None,
    }
}

/// The answer of `call` (a gRPC call's response) if it comes within
/// `timeout`, else a trailers-only `DEADLINE_EXCEEDED`; a streamed answer
/// is cut at the deadline, ending with `DEADLINE_EXCEEDED` in its
/// trailers (see the module documentation). What [`serve`](crate::serve)
/// does for every gRPC call with a [`grpc_deadline`]; a host serving
/// `A2aServer::handle` itself calls it the same way.
pub async fn within_grpc_deadline<F>(timeout: Duration, call: F) -> Response<Body>
where
    F: Future<Output = Response<Body>>,
{
    let deadline = Instant::now() + timeout;
    let response = match tokio::time::timeout_at(deadline, call).await {
        Ok(response) => response,
        Err(_) => {
            return grpc::error_response(GrpcCode::DEADLINE_EXCEEDED, &exceeded(timeout))
                .map(|()| Body::empty())
        }
    };
    if !response.body().has_trailers() {
        // A trailers-only answer (the status in the head) is complete.
        return response;
    }
    response.map(|body| {
        Body::trailed(Cut {
            body: Some(body),
            deadline: Box::pin(tokio::time::sleep_until(deadline)),
            timeout,
        })
    })
}

/// The error of a call past its deadline: no A2A error (code 0, no
/// details), only the status's message.
fn exceeded(timeout: Duration) -> A2aError {
    A2aError::with_code(
        ErrorCode(0),
        format!("the call's deadline (grpc-timeout {timeout:?}) passed before it finished"),
    )
}

/// A gRPC answer's chunks until the deadline, then `DEADLINE_EXCEEDED`.
struct Cut {
    /// `None` once the answer ended or was cut.
    body: Option<Body>,
    deadline: Pin<Box<Sleep>>,
    timeout: Duration,
}

impl Stream for Cut {
    type Item = Chunk;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Chunk>> {
        let this = &mut *self;
        let Some(body) = this.body.as_mut() else {
            return Poll::Ready(None);
        };
        // What the answer has ready goes first: a unary reply's message
        // and status are never cut after they were made.
        if let Poll::Ready(chunk) = Pin::new(body).poll_chunk(cx) {
            if !matches!(chunk, Some(Chunk::Data(_))) {
                this.body = None;
            }
            return Poll::Ready(chunk);
        }
        match this.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                this.body = None;
                Poll::Ready(Some(Chunk::Trailers(grpc::status_fields(
                    GrpcCode::DEADLINE_EXCEEDED,
                    &exceeded(this.timeout),
                ))))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_transport::grpc::GrpcStatus;
    use std::future::poll_fn;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    http::HeaderName::from_static(k),
                    http::HeaderValue::from_static(v),
                )
            })
            .collect()
    }

    #[test]
    fn only_grpc_calls_with_a_timeout_that_reads_have_a_deadline() {
        let grpc = ("content-type", "application/grpc+proto");
        assert_eq!(
            grpc_deadline(&headers(&[grpc, ("grpc-timeout", "1n")])),
            Some(Duration::from_nanos(1))
        );
        assert_eq!(grpc_deadline(&headers(&[grpc])), None);
        assert_eq!(
            grpc_deadline(&headers(&[grpc, ("grpc-timeout", "soon")])),
            None
        );
        let json = ("content-type", "application/json");
        assert_eq!(
            grpc_deadline(&headers(&[json, ("grpc-timeout", "1S")])),
            None
        );
    }

    async fn chunks(response: Response<Body>) -> (HeaderMap, Vec<Chunk>) {
        let (parts, mut body) = response.into_parts();
        let mut out = Vec::new();
        while let Some(chunk) = poll_fn(|cx| Pin::new(&mut body).poll_chunk(cx)).await {
            out.push(chunk);
        }
        (parts.headers, out)
    }

    #[tokio::test(start_paused = true)]
    async fn a_late_answer_is_deadline_exceeded_at_the_deadline() {
        let started = Instant::now();
        let slow = async {
            tokio::time::sleep(Duration::from_secs(3)).await;
            grpc::response_head().map(|()| Body::full_with_trailers("m", grpc::ok_trailers()))
        };
        let (head, body) =
            chunks(within_grpc_deadline(Duration::from_millis(100), slow).await).await;
        assert_eq!(started.elapsed(), Duration::from_millis(100));
        assert!(body.is_empty(), "trailers-only");
        let Some(GrpcStatus::Error(code, error)) = grpc::read_status(&head) else {
            panic!("an error status: {head:?}");
        };
        assert_eq!(code, GrpcCode::DEADLINE_EXCEEDED);
        assert!(error.message().contains("deadline"), "{error}");
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_in_time_passes_whole() {
        let fast = async {
            grpc::response_head().map(|()| Body::full_with_trailers("m", grpc::ok_trailers()))
        };
        let (_, body) = chunks(within_grpc_deadline(Duration::from_secs(1), fast).await).await;
        assert_eq!(
            body,
            [
                Chunk::Data("m".into()),
                Chunk::Trailers(grpc::ok_trailers())
            ]
        );
    }

    /// One message now, then nothing for `quiet`, then OK.
    struct Slow(u8, Pin<Box<Sleep>>);

    impl Stream for Slow {
        type Item = Chunk;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Chunk>> {
            match self.0 {
                0 => {
                    self.0 = 1;
                    Poll::Ready(Some(Chunk::Data("first".into())))
                }
                1 => match self.1.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        self.0 = 2;
                        Poll::Ready(Some(Chunk::Trailers(grpc::ok_trailers())))
                    }
                    Poll::Pending => Poll::Pending,
                },
                _ => Poll::Ready(None),
            }
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_stream_past_its_deadline_ends_deadline_exceeded() {
        let started = Instant::now();
        let stream = async {
            let quiet = Box::pin(tokio::time::sleep(Duration::from_secs(5)));
            grpc::response_head().map(|()| Body::trailed(Slow(0, quiet)))
        };
        let (_, body) =
            chunks(within_grpc_deadline(Duration::from_millis(300), stream).await).await;
        assert_eq!(started.elapsed(), Duration::from_millis(300));
        assert_eq!(body.len(), 2, "{body:?}");
        assert_eq!(body[0], Chunk::Data("first".into()));
        let Chunk::Trailers(trailers) = &body[1] else {
            panic!("trailers last: {body:?}");
        };
        assert_eq!(trailers[grpc::GRPC_STATUS], "4");
    }
}
