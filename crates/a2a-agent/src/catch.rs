//! A future that turns a panic into a value, so that a panicking
//! executor ends its task FAILED instead of taking the server down.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::task::{Context, Poll};

/// Polls `F`, answering `Err(message)` if a poll panicked.
pub(crate) struct CatchUnwind<F: ?Sized>(pub(crate) Pin<Box<F>>);

impl<F: Future + ?Sized> Future for CatchUnwind<F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.0.as_mut();
        // The future is dropped right after a panic, never polled again:
        // whatever state the panic left it in is not observed.
        match catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Err(payload) => Poll::Ready(Err(panic_message(payload.as_ref()))),
        }
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

/// Polls two futures until the first is ready: `Ok` for `a`, `Err` for `b`.
pub(crate) async fn race<A: Future, B: Future>(
    a: Pin<&mut A>,
    b: Pin<&mut B>,
) -> Result<A::Output, B::Output> {
    let (mut a, mut b) = (a, b);
    std::future::poll_fn(move |cx| {
        if let Poll::Ready(v) = a.as_mut().poll(cx) {
            return Poll::Ready(Ok(v));
        }
        if let Poll::Ready(v) = b.as_mut().poll(cx) {
            return Poll::Ready(Err(v));
        }
        Poll::Pending
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    #[test]
    fn a_panic_becomes_its_message() {
        let mut f = CatchUnwind(Box::pin(async { panic!("boom") }));
        let got = Pin::new(&mut f).poll(&mut Context::from_waker(Waker::noop()));
        assert_eq!(got, Poll::Ready(Err::<(), _>("boom".to_owned())));
        let mut ok = CatchUnwind(Box::pin(async { 7 }));
        let got = Pin::new(&mut ok).poll(&mut Context::from_waker(Waker::noop()));
        assert_eq!(got, Poll::Ready(Ok(7)));
    }
}
