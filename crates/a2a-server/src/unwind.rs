//! Containing a panic in host code (the handler, its streams, the
//! authenticator), so that the server answers `InternalError` instead of
//! unwinding through the host's HTTP stack.
//!
//! With `panic = "abort"` nothing is caught, as usual. The panic hook
//! still runs (and prints) before the error is answered.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::task::{Context, Poll};

use a2a_types::A2aError;
use futures_core::Stream;

/// The error answered when host code panicked.
pub(crate) fn panicked(what: &str) -> A2aError {
    A2aError::internal(format!("internal error: the {what} panicked"))
}

/// Polls `fut`, turning a panic into `Err(())`. `fut` is not polled again
/// after it panicked (the returned future is then finished).
pub(crate) fn catch<'a, T: 'a>(
    mut fut: Pin<Box<dyn Future<Output = T> + Send + 'a>>,
) -> impl Future<Output = Result<T, ()>> + Send + 'a {
    std::future::poll_fn(move |cx: &mut Context<'_>| {
        match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(_) => Poll::Ready(Err(())),
        }
    })
}

/// Polls the next item of `stream`, turning a panic into `Err(())`.
pub(crate) fn poll_next_caught<S: Stream + Unpin + ?Sized>(
    stream: &mut S,
    cx: &mut Context<'_>,
) -> Result<Poll<Option<S::Item>>, ()> {
    catch_unwind(AssertUnwindSafe(|| Pin::new(stream).poll_next(cx))).map_err(|_| ())
}
