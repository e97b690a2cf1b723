//! The agent on loopback HTTP, and a small client speaking both bindings
//! so one scenario can run over each and the results be compared.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use a2a_reference_agent::cli::{Options, Parsed};
use a2a_types::{A2aError, ErrorBody, ErrorKind, JsonRpcError};
use bytes::Bytes;
use http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};

/// A running agent; dropping it shuts the server down.
pub struct Server {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    pub task: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

impl Server {
    /// Starts the agent with these command-line flags on 127.0.0.1:0.
    pub async fn start(flags: &[&str]) -> Server {
        Server::start_with(flags, |_| {}).await
    }

    /// Starts the agent with these flags, then `tune`'s changes to the
    /// parsed options (for values no flag can express).
    pub async fn start_with(flags: &[&str], tune: impl FnOnce(&mut Options)) -> Server {
        let mut args: Vec<String> = vec!["--listen".into(), "127.0.0.1:0".into(), "--quiet".into()];
        args.extend(flags.iter().map(|s| (*s).to_owned()));
        let Ok(Parsed::Run(mut options)) = Options::parse(args) else {
            panic!("bad flags {flags:?}")
        };
        tune(&mut options);
        let listener = tokio::net::TcpListener::bind(options.listen).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = options.server(addr).unwrap();
        let serve_options = options.serve_options_for(&server).unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = a2a_hyper::serve(listener, server, serve_options, async move {
            let _ = stopped.await;
        });
        let task = tokio::spawn(serving);
        Server {
            addr,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Stops accepting and waits for the server to return.
    pub async fn shutdown(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.task.take().unwrap().await.unwrap()
    }

    pub fn client(&self) -> Client {
        Client {
            addr: self.addr,
            token: None,
        }
    }
}

/// A response: status, headers and the whole body.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("{e}: {:?}", self.body))
    }

    /// The `data:` payloads of an SSE body.
    pub fn events(&self) -> Vec<Value> {
        std::str::from_utf8(&self.body)
            .unwrap()
            .split("\n\n")
            .filter_map(|frame| {
                let data: String = frame
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect();
                (!data.is_empty()).then(|| serde_json::from_str(&data).unwrap())
            })
            .collect()
    }
}

/// Which binding a call goes over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    JsonRpc,
    Rest,
}

pub const BOTH: [Binding; 2] = [Binding::JsonRpc, Binding::Rest];

#[derive(Clone)]
pub struct Client {
    addr: SocketAddr,
    token: Option<String>,
}

impl Client {
    /// A client of the agent at `addr` (another process, say).
    pub fn at(addr: SocketAddr) -> Client {
        Client { addr, token: None }
    }

    pub fn with_token(mut self, token: &str) -> Client {
        self.token = Some(token.to_owned());
        self
    }

    /// One HTTP request, the whole response read (with a 10 s limit).
    pub async fn request(&self, method: Method, path: &str, body: Option<Value>) -> Reply {
        let stream = tokio::net::TcpStream::connect(self.addr).await.unwrap();
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .unwrap();
        tokio::spawn(conn);
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header("host", self.addr.to_string())
            .header("a2a-version", "1.0");
        if let Some(token) = &self.token {
            req = req.header("authorization", format!("Bearer {token}"));
        }
        let body = match body {
            Some(v) => {
                req = req.header("content-type", "application/json");
                Bytes::from(serde_json::to_vec(&v).unwrap())
            }
            None => Bytes::new(),
        };
        let response = sender
            .send_request(req.body(Full::new(body)).unwrap())
            .await
            .unwrap();
        let (parts, body) = response.into_parts();
        let body = tokio::time::timeout(Duration::from_secs(10), body.collect())
            .await
            .expect("response body within 10 s")
            .unwrap()
            .to_bytes();
        Reply {
            status: parts.status,
            headers: parts.headers,
            body,
        }
    }

    /// Calls `method` (a JSON-RPC method name) over `binding`, answering
    /// the result or the error, decoded the same way for both bindings.
    pub async fn call(
        &self,
        binding: Binding,
        method: &str,
        params: Value,
    ) -> Result<Value, A2aError> {
        let reply = self.send(binding, method, params).await;
        decode(binding, &reply)
    }

    /// Like [`call`](Client::call) for a streaming method: the events, or
    /// the error answered before any.
    pub async fn stream(
        &self,
        binding: Binding,
        method: &str,
        params: Value,
    ) -> Result<Vec<Value>, A2aError> {
        let reply = self.send(binding, method, params).await;
        if !reply
            .headers
            .get("content-type")
            .is_some_and(|v| v.to_str().unwrap().starts_with("text/event-stream"))
        {
            return Err(decode(binding, &reply).expect_err("a stream or an error"));
        }
        Ok(reply
            .events()
            .into_iter()
            .map(|e| match binding {
                Binding::JsonRpc => e["result"].clone(),
                Binding::Rest => e,
            })
            .collect())
    }

    pub async fn send(&self, binding: Binding, method: &str, params: Value) -> Reply {
        match binding {
            Binding::JsonRpc => {
                let envelope =
                    json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
                self.request(Method::POST, "/", Some(envelope)).await
            }
            Binding::Rest => {
                let (m, path, body) = rest_route(method, params);
                self.request(m, &path, body).await
            }
        }
    }
}

fn s(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or_default().to_owned()
}

fn query(params: &Value, skip: &[&str]) -> String {
    let pairs: Vec<String> = params
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(k, _)| !skip.contains(&k.as_str()))
                .map(|(k, v)| match v {
                    Value::String(s) => format!("{k}={s}"),
                    other => format!("{k}={other}"),
                })
                .collect()
        })
        .unwrap_or_default();
    if pairs.is_empty() {
        String::new()
    } else {
        format!("?{}", pairs.join("&"))
    }
}

/// The HTTP+JSON route of a JSON-RPC method (spec 11.3).
fn rest_route(method: &str, p: Value) -> (Method, String, Option<Value>) {
    match method {
        "SendMessage" => (Method::POST, "/message:send".into(), Some(p)),
        "SendStreamingMessage" => (Method::POST, "/message:stream".into(), Some(p)),
        "GetTask" => (
            Method::GET,
            format!("/tasks/{}{}", s(&p, "id"), query(&p, &["id"])),
            None,
        ),
        "ListTasks" => (Method::GET, format!("/tasks{}", query(&p, &[])), None),
        "CancelTask" => (
            Method::POST,
            format!("/tasks/{}:cancel", s(&p, "id")),
            Some(json!({})),
        ),
        "SubscribeToTask" => (
            Method::GET,
            format!("/tasks/{}:subscribe", s(&p, "id")),
            None,
        ),
        "CreateTaskPushNotificationConfig" => (
            Method::POST,
            format!("/tasks/{}/pushNotificationConfigs", s(&p, "taskId")),
            Some(p),
        ),
        "GetTaskPushNotificationConfig" => (
            Method::GET,
            format!(
                "/tasks/{}/pushNotificationConfigs/{}",
                s(&p, "taskId"),
                s(&p, "id")
            ),
            None,
        ),
        "ListTaskPushNotificationConfigs" => (
            Method::GET,
            format!("/tasks/{}/pushNotificationConfigs", s(&p, "taskId")),
            None,
        ),
        "DeleteTaskPushNotificationConfig" => (
            Method::DELETE,
            format!(
                "/tasks/{}/pushNotificationConfigs/{}",
                s(&p, "taskId"),
                s(&p, "id")
            ),
            None,
        ),
        "GetExtendedAgentCard" => (Method::GET, "/extendedAgentCard".into(), None),
        other => panic!("no route for {other}"),
    }
}

fn decode(binding: Binding, reply: &Reply) -> Result<Value, A2aError> {
    match binding {
        Binding::JsonRpc => {
            assert_eq!(
                reply.status,
                StatusCode::OK,
                "JSON-RPC answers 200: {reply:?}"
            );
            let v = reply.json();
            if let Some(err) = v.get("error") {
                let err: JsonRpcError = serde_json::from_value(err.clone()).unwrap();
                return Err(A2aError::from_jsonrpc_error(err));
            }
            Ok(v["result"].clone())
        }
        Binding::Rest => {
            if reply.status.is_success() {
                return Ok(if reply.body.is_empty() {
                    json!({})
                } else {
                    reply.json()
                });
            }
            let body: Option<ErrorBody> = serde_json::from_slice(&reply.body).ok();
            Err(A2aError::from_status(
                reply.status.as_u16(),
                body.map(|b| b.error),
            ))
        }
    }
}

pub fn user(id: &str, text: &str) -> Value {
    json!({"message": {"messageId": id, "role": "ROLE_USER", "parts": [{"text": text}]}})
}

pub fn kind(r: Result<impl std::fmt::Debug, A2aError>) -> ErrorKind {
    r.expect_err("an error").kind()
}

pub fn state(v: &Value) -> &str {
    v["status"]["state"].as_str().unwrap_or_default()
}

pub type Shared<T> = Arc<std::sync::Mutex<T>>;
