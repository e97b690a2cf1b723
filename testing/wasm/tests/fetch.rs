//! `FetchClient` for real, under Node: a Node HTTP server on loopback
//! whose every answer comes from an `A2aServer` in this same WebAssembly
//! instance, and `HttpTransport` on `FetchClient` calling it through
//! Node's `fetch`. Requests and responses cross a real socket; SSE bodies
//! are written in several pieces and read as they arrive.
#![cfg(all(target_arch = "wasm32", target_os = "unknown"))]

mod support;

use std::rc::Rc;

use a2a_transport::client::HttpError;
use a2a_transport::{A2aService, Binding, CallContext, HttpClient, HttpTransport, StreamNext};
use a2a_types::{ErrorKind, GetTaskRequest, Message, SendMessageRequest, SendMessageResponse};
use a2a_wasm::FetchClient;
use bytes::Bytes;
use js_sys::{Array, Function, Promise, Reflect, Uint8Array};
use support::{chunks, server, Echo};
use wasm_bindgen::prelude::{wasm_bindgen, Closure};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen(inline_js = r#"
export async function startServer(handle) {
  const http = await import('node:http');
  const server = http.createServer(async (req, res) => {
    try {
      const body = [];
      for await (const piece of req) body.push(piece);
      const answer = await handle(req.method, req.url, req.rawHeaders,
        new Uint8Array(Buffer.concat(body)));
      res.writeHead(answer.status, answer.headers);
      // Each chunk of the server's body on its own turn of the event
      // loop, so that the client sees an SSE stream in pieces.
      for (const chunk of answer.chunks) {
        res.write(chunk);
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    } catch (e) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(e && e.stack || e));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = startServer)]
    fn start_server(handle: &Function) -> Promise;
}

/// A running Node server in front of an `A2aServer<Echo>`.
struct Running {
    port: u16,
    close: Function,
    _handle: Closure<dyn FnMut(String, String, Array, Uint8Array) -> Promise>,
}

impl Running {
    async fn start() -> Running {
        // The card names the port only once it is known; the server's
        // answers do not depend on it.
        let a2a = Rc::new(server("http://127.0.0.1"));
        let handle = Closure::new(
            move |method: String, url: String, raw: Array, body: Uint8Array| -> Promise {
                let a2a = a2a.clone();
                future_to_promise(async move {
                    let mut request = http::Request::builder().method(method.as_str()).uri(url);
                    for pair in raw.to_vec().chunks(2) {
                        let (Some(name), Some(value)) = (pair[0].as_string(), pair[1].as_string())
                        else {
                            continue;
                        };
                        request = request.header(name, value);
                    }
                    let request = request
                        .body(Bytes::from(body.to_vec()))
                        .map_err(|e| JsValue::from_str(&e.to_string()))?;
                    let (head, body) = a2a.handle(request).await.into_parts();
                    let headers = Array::new();
                    for (name, value) in &head.headers {
                        headers.push(&JsValue::from_str(name.as_str()));
                        headers.push(&JsValue::from_str(value.to_str().unwrap_or("")));
                    }
                    let pieces = Array::new();
                    for chunk in chunks(body) {
                        if let a2a_transport::server::Chunk::Data(d) = chunk {
                            pieces.push(&Uint8Array::from(&d[..]));
                        }
                    }
                    let answer = js_sys::Object::new();
                    Reflect::set(&answer, &"status".into(), &head.status.as_u16().into())?;
                    Reflect::set(&answer, &"headers".into(), &headers)?;
                    Reflect::set(&answer, &"chunks".into(), &pieces)?;
                    Ok(answer.into())
                })
            },
        );
        let started = JsFuture::from(start_server(handle.as_ref().unchecked_ref()))
            .await
            .expect("the Node server starts");
        let port = Reflect::get(&started, &"port".into())
            .unwrap()
            .as_f64()
            .unwrap() as u16;
        let close = Reflect::get(&started, &"close".into())
            .unwrap()
            .unchecked_into();
        Running {
            port,
            close,
            _handle: handle,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    async fn stop(self) {
        let done: Promise = self.close.call0(&JsValue::NULL).unwrap().unchecked_into();
        JsFuture::from(done).await.unwrap();
    }
}

/// Every call of the client over both JSON bindings, through fetch and a
/// socket: a task, a stream read as it arrives, an agent's error.
#[wasm_bindgen_test]
async fn the_client_talks_to_an_agent_over_fetch() {
    let running = Running::start().await;
    for (binding, path) in [(Binding::JsonRpc, "/"), (Binding::HttpJson, "/v1")] {
        let agent = HttpTransport::new(FetchClient::new(), binding, &running.url(path)).unwrap();
        let cx = CallContext::new();
        let message = Message::user_text("m-1", "hi");

        let reply = agent
            .send_message(&cx, SendMessageRequest::new(message.clone()))
            .await
            .unwrap();
        assert_eq!(
            reply,
            SendMessageResponse::Task(Echo::task_for(&message)),
            "{binding:?}"
        );

        let mut stream = agent
            .send_streaming_message(&cx, SendMessageRequest::new(message.clone()))
            .await
            .unwrap();
        let mut events = Vec::new();
        while let Some(event) = stream.next().await {
            events.push(event.unwrap());
        }
        assert_eq!(events, Echo::events_for(&message), "{binding:?}");

        let err = agent
            .get_task(&cx, GetTaskRequest::new("task-nope"))
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TaskNotFound, "{binding:?}: {err}");
    }
    running.stop().await;
}

/// Bytes and headers as the client's `HttpClient` contract wants them: the
/// status, every header, a body read in pieces; and the card by `GET`.
#[wasm_bindgen_test]
async fn fetch_client_returns_status_headers_and_body() {
    let running = Running::start().await;
    let request = http::Request::post(running.url("/"))
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .header("connection", "keep-alive") // the stack's own: not forwarded
        .body(Bytes::from_static(
            br#"{"jsonrpc":"2.0","id":"s","method":"SendStreamingMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}}"#,
        ))
        .unwrap();
    let response = FetchClient::new().send(request).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut body = response.into_body();
    let mut pieces = Vec::new();
    while let Some(piece) = std::future::poll_fn(|cx| {
        futures_core::Stream::poll_next(std::pin::Pin::new(&mut body), cx)
    })
    .await
    {
        pieces.push(piece.unwrap());
    }
    let text = String::from_utf8(pieces.concat()).unwrap();
    assert_eq!(text.matches("\n\n").count(), 4, "{text}");
    assert!(
        text.starts_with(
            r#"id: 1
data: {"jsonrpc":"2.0","id":"s","result":{"task":{"id":"task-m-1","#
        ),
        "{text}"
    );

    // A body dropped after its first piece cancels the stream; the
    // client goes on working.
    let again = http::Request::post(running.url("/"))
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Bytes::from_static(
            br#"{"jsonrpc":"2.0","id":"t","method":"SendStreamingMessage","params":{"message":{"messageId":"m-2","role":"ROLE_USER","parts":[{"text":"hi"}]}}}"#,
        ))
        .unwrap();
    let mut body = FetchClient::new().send(again).await.unwrap().into_body();
    let first = std::future::poll_fn(|cx| {
        futures_core::Stream::poll_next(std::pin::Pin::new(&mut body), cx)
    })
    .await;
    assert!(
        matches!(first, Some(Ok(ref b)) if b.starts_with(b"id: 1\n")),
        "{first:?}"
    );
    drop(body);

    let card = http::Request::get(running.url("/.well-known/agent-card.json"))
        .body(Bytes::new())
        .unwrap();
    let response = FetchClient::new().send(card).await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers().contains_key("etag"));
    running.stop().await;
}

/// A refused connection is `HttpError::Connection` (retryable); a gRPC
/// (HTTP/2) request is refused before anything is sent.
#[wasm_bindgen_test]
async fn fetch_client_reports_failures_by_kind() {
    let running = Running::start().await;
    let url = running.url("/");
    running.stop().await;
    let request = http::Request::post(url)
        .body(Bytes::from_static(b"{}"))
        .unwrap();
    let err = FetchClient::new().send(request).await.unwrap_err();
    assert!(matches!(err, HttpError::Connection(_)), "{err:?}");
    assert!(err.is_retryable());

    let mut grpc = http::Request::post("http://127.0.0.1:9/lf.a2a.v1.A2AService/SendMessage")
        .body(Bytes::new())
        .unwrap();
    *grpc.version_mut() = http::Version::HTTP_2;
    let err = FetchClient::new().send(grpc).await.unwrap_err();
    assert!(matches!(err, HttpError::Other(_)), "{err:?}");
}
