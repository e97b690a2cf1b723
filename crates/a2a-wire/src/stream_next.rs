//! [`StreamNext`]: `stream.next().await` on an
//! [`EventStream`](crate::EventStream) (or any `Unpin` stream) without
//! adding `futures-util`.
//!
//! An `EventStream` is a `futures_core::Stream`, which has only
//! `poll_next`; the `next()` most code reaches for is `StreamExt` from
//! `futures-util`. This trait gives that one method. It is implemented for
//! every `Stream + Unpin`, so code that also imports
//! `futures_util::StreamExt` should call one of the two by path
//! (`StreamNext::next(&mut stream)`), as with any two traits sharing a
//! method name.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

/// `next()` for streams: the next item, or `None` once the stream ended.
///
/// ```
/// use a2a_wire::{EventStream, StreamNext};
/// use a2a_types::{StreamResponse, Task, TaskState};
///
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// # struct Two(u8);
/// # impl futures_core::Stream for Two {
/// #     type Item = Result<StreamResponse, a2a_types::A2aError>;
/// #     fn poll_next(mut self: std::pin::Pin<&mut Self>, _: &mut std::task::Context<'_>)
/// #         -> std::task::Poll<Option<Self::Item>> {
/// #         self.0 += 1;
/// #         std::task::Poll::Ready((self.0 <= 2).then(||
/// #             Ok(StreamResponse::Task(Task::new("t-1", "c-1", TaskState::Working)))))
/// #     }
/// # }
/// let mut events: EventStream = Box::pin(Two(0)); // what a streaming call answers
/// let mut seen = 0;
/// block_on(async {
///     while let Some(event) = events.next().await {
///         let _event: StreamResponse = event?;
///         seen += 1;
///     }
///     Ok::<(), a2a_types::A2aError>(())
/// })?;
/// assert_eq!(seen, 2);
/// # Ok::<(), a2a_types::A2aError>(())
/// ```
pub trait StreamNext: Stream + Unpin {
    /// A future of the stream's next item: `Some(item)`, or `None` when
    /// the stream has ended.
    fn next(&mut self) -> Next<'_, Self> {
        Next { stream: self }
    }
}

impl<S: Stream + Unpin + ?Sized> StreamNext for S {}

/// The future [`StreamNext::next`] answers.
#[derive(Debug)]
#[must_use = "futures do nothing unless awaited"]
pub struct Next<'a, S: ?Sized> {
    stream: &'a mut S,
}

impl<S: Stream + Unpin + ?Sized> Future for Next<'_, S> {
    type Output = Option<S::Item>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut *self.stream).poll_next(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Count(u8);

    impl Stream for Count {
        type Item = u8;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<u8>> {
            self.0 += 1;
            Poll::Ready((self.0 <= 3).then_some(self.0))
        }
    }

    fn now<F: Future>(f: F) -> F::Output {
        let mut f = std::pin::pin!(f);
        let mut cx = Context::from_waker(std::task::Waker::noop());
        match f.as_mut().poll(&mut cx) {
            Poll::Ready(v) => v,
            Poll::Pending => panic!("pending"),
        }
    }

    #[test]
    fn next_yields_each_item_then_none() {
        let mut s = Count(0);
        assert_eq!(now(s.next()), Some(1));
        assert_eq!(now(s.next()), Some(2));
        assert_eq!(now(s.next()), Some(3));
        assert_eq!(now(s.next()), None);
        // A boxed, pinned stream (what an EventStream is) too.
        let mut boxed: Pin<Box<dyn Stream<Item = u8> + Send>> = Box::pin(Count(2));
        assert_eq!(now(boxed.next()), Some(3));
        assert_eq!(now(boxed.next()), None);
    }
}
