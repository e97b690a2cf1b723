//! The fuzz harness of a2a-client (feature `testing`), for the
//! workspace's fuzz target `grpc_client` and the stable test that replays
//! its seeds: [`fuzz_grpc_client`], a gRPC response body and its trailers
//! read by the client, as a unary answer and as a stream.

use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use a2a_types::{A2aError, GetTaskRequest, StreamResponse, SubscribeToTaskRequest, Task};
use a2a_wire::grpc::{ok_trailers, GRPC_STATUS, GRPC_STATUS_DETAILS};
use a2a_wire::{
    A2aService, Binding, BodyChunk, BoxFuture, CallContext, HttpClient, HttpError, ResponseBody,
};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Request};

use crate::config::ClientConfig;
use crate::http_transport::HttpTransport;

/// The most polls a call may take: the answer is ready at once and the
/// client reads no clock, so a call that is still pending is a bug.
const MAX_POLLS: usize = 64;
/// The most stream items read from an answer.
const MAX_FRAMES: usize = 16;

fn ready<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..MAX_POLLS {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
    }
    panic!("a call answered at once is still pending after {MAX_POLLS} polls");
}

/// An HTTP client answering every request with one gRPC response.
struct Answer {
    head: HeaderMap,
    chunks: Vec<BodyChunk>,
}

impl HttpClient for Answer {
    fn send(
        &self,
        _: Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        let mut response = http::Response::new(ResponseBody::from_body_chunks(
            self.chunks.iter().cloned().map(Ok).collect(),
        ));
        *response.headers_mut() = self.head.clone();
        Box::pin(async move { Ok(response) })
    }
}

/// What the client made of a response: a unary answer, and the items of
/// a stream (at most [`MAX_FRAMES`]).
fn client_outcome(
    answer: Answer,
    limit: usize,
) -> (
    Result<Task, A2aError>,
    Vec<Result<StreamResponse, A2aError>>,
) {
    let config = ClientConfig::new().with_max_response_body(limit);
    let transport = match HttpTransport::new(answer, Binding::Grpc, "http://fuzz.example:1") {
        Ok(t) => t.with_config(config),
        Err(e) => panic!("the fixed URL is usable: {e}"),
    };
    let cx = CallContext::new();
    let unary = ready(transport.get_task(&cx, GetTaskRequest::new("t-1")));
    let request = SubscribeToTaskRequest {
        id: "t-1".into(),
        ..Default::default()
    };
    let mut items = Vec::new();
    match ready(transport.stream_task(&cx, request)) {
        Err(e) => items.push(Err(e)),
        Ok(mut stream) => {
            let mut cx = Context::from_waker(Waker::noop());
            while items.len() < MAX_FRAMES {
                match futures_core::Stream::poll_next(Pin::new(&mut stream), &mut cx) {
                    Poll::Ready(Some(item)) => items.push(item),
                    Poll::Ready(None) => break,
                    Poll::Pending => panic!("a stream of ready chunks is pending"),
                }
            }
        }
    }
    (unary, items)
}

/// The gRPC client's response fuzz harness. The first byte chooses a
/// chunk size (1 to 8), the trailers (none, `grpc-status: 0`, an error
/// status (1 to 16, from the body's first byte) and the input after a
/// `0xFF` as `grpc-status-details-bin`, or a trailers-only OK head) and a
/// message limit (64 to 8192 bytes); the rest is the body. Reading it
/// whole and in chunks must give the same outcome, a response without an
/// OK status must never be a success, and nothing may panic.
pub fn fuzz_grpc_client(data: &[u8]) {
    let Some((&knob, rest)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(knob & 7) + 1;
    let limit = 64usize << ((knob >> 5) & 7);
    let (body, details) = match rest.iter().position(|&b| b == 0xFF) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    let mut head = HeaderMap::new();
    head.insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static("application/grpc"),
    );
    let mode = (knob >> 3) & 3;
    let trailers = match mode {
        0 => None,
        1 => Some(ok_trailers()),
        2 => {
            let mut t = HeaderMap::new();
            let code = 1 + body.first().copied().unwrap_or(1) % 16;
            t.insert(GRPC_STATUS, HeaderValue::from(u16::from(code)));
            if let Ok(v) = HeaderValue::from_bytes(details) {
                t.insert(GRPC_STATUS_DETAILS, v);
            }
            Some(t)
        }
        _ => {
            head.insert(GRPC_STATUS, HeaderValue::from_static("0"));
            None
        }
    };
    let answer = |chunks: Vec<&[u8]>| Answer {
        head: head.clone(),
        chunks: chunks
            .into_iter()
            .map(|c| BodyChunk::Data(Bytes::copy_from_slice(c)))
            .chain(trailers.clone().map(BodyChunk::Trailers))
            .collect(),
    };
    let whole = client_outcome(answer(vec![body]), limit);
    let split = client_outcome(answer(body.chunks(chunk).collect()), limit);
    assert_eq!(
        format!("{whole:?}"),
        format!("{split:?}"),
        "chunking changed the outcome"
    );
    // Only OK trailers after the messages make a unary answer; a
    // trailers-only OK is a stream without events (its body unread).
    if mode != 1 {
        assert!(
            whole.0.is_err(),
            "a unary answer without OK trailers: {whole:?}"
        );
    }
    if mode == 0 || mode == 2 {
        assert!(
            whole.1.last().is_some_and(Result::is_err) || whole.1.len() == MAX_FRAMES,
            "a stream without an OK status ended quietly: {whole:?}"
        );
    }
}

#[cfg(test)]
mod tests {
    use a2a_types::{Task, TaskState};

    use super::*;

    fn task() -> Task {
        Task::new("t-1", "c-1", TaskState::Working)
    }

    #[test]
    fn grpc_client_responses_are_read_alike_whole_and_in_chunks() {
        let task = a2a_wire::grpc::encode_message(&task()).unwrap();
        let mut ok = vec![0b0000_1011];
        ok.extend_from_slice(&task);
        fuzz_grpc_client(&ok);
        let mut missing = vec![0b0000_0011];
        missing.extend_from_slice(&task);
        fuzz_grpc_client(&missing);
        fuzz_grpc_client(b"\x10\x05\xff");
        fuzz_grpc_client(b"\x18");
        fuzz_grpc_client(b"\x18\x00\x00\x00\x00\x00");
        fuzz_grpc_client(b"");
    }
}
