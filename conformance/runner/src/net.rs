//! Real sockets: the transport's [`HttpClient`] on hyper's client, and a
//! loopback webhook receiver. The embedded agent is served with the
//! reference agent's own [`serve`](a2a_reference_agent::serve::serve).

use std::convert::Infallible;
use std::fmt;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};

use a2a_transport::{
    client::{HttpError, ResponseBody},
    BoxFuture, HttpClient,
};
use bytes::Bytes;
use futures_core::Stream;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body as _, Incoming};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;

use crate::webhook::{Delivery, Webhook};

/// The host's HTTP client for the transport: hyper over plain TCP
/// (`http://` URLs; this runner builds in no TLS).
#[derive(Clone)]
pub struct HyperClient {
    client: Client<HttpConnector, Full<Bytes>>,
}

impl fmt::Debug for HyperClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HyperClient(..)")
    }
}

impl HyperClient {
    /// A client with a connection pool.
    pub fn new() -> HyperClient {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(std::time::Duration::from_secs(10)));
        HyperClient {
            client: Client::builder(TokioExecutor::new()).build(connector),
        }
    }
}

impl Default for HyperClient {
    fn default() -> HyperClient {
        HyperClient::new()
    }
}

impl HttpClient for HyperClient {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        Box::pin(async move {
            if request.uri().scheme_str() != Some("http") {
                return Err(HttpError::Other(format!(
                    "{}: this runner speaks plain http only (no TLS built in)",
                    request.uri()
                )));
            }
            let response = self
                .client
                .request(request.map(Full::new))
                .await
                .map_err(|e| {
                    if e.is_connect() {
                        HttpError::Connection(format!("{e}: {}", source_chain(&e)))
                    } else {
                        HttpError::Other(format!("{e}: {}", source_chain(&e)))
                    }
                })?;
            let (parts, body) = response.into_parts();
            Ok(http::Response::from_parts(
                parts,
                ResponseBody::new(Chunks(body)),
            ))
        })
    }
}

fn source_chain(e: &dyn std::error::Error) -> String {
    let mut out = Vec::new();
    let mut next = e.source();
    while let Some(s) = next {
        out.push(s.to_string());
        next = s.source();
    }
    out.join(": ")
}

/// A hyper body as a stream of data chunks.
struct Chunks(Incoming);

impl Stream for Chunks {
    type Item = Result<Bytes, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            return match Pin::new(&mut self.0).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) => Poll::Ready(Some(Ok(data))),
                    // Trailers carry no body bytes.
                    Err(_) => continue,
                },
                Poll::Ready(Some(Err(e))) => {
                    Poll::Ready(Some(Err(HttpError::Connection(e.to_string()))))
                }
                Poll::Ready(None) => Poll::Ready(None),
                Poll::Pending => Poll::Pending,
            };
        }
    }
}

/// Serves a webhook receiver on `listener` until dropped: every request
/// is recorded in `webhook` and answered `200`.
pub fn serve_webhook(listener: TcpListener, webhook: Webhook) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let webhook = webhook.clone();
            let service = hyper::service::service_fn(move |request: http::Request<Incoming>| {
                let webhook = webhook.clone();
                async move {
                    let (parts, body) = request.into_parts();
                    let body = body
                        .collect()
                        .await
                        .map(|b| b.to_bytes())
                        .unwrap_or_default();
                    webhook.record(Delivery {
                        method: parts.method,
                        path: parts.uri.path().to_owned(),
                        headers: parts.headers,
                        body,
                    });
                    Ok::<_, Infallible>(http::Response::new(Full::new(Bytes::new())))
                }
            });
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    })
}

/// Binds a listener on an ephemeral loopback port.
pub async fn loopback_listener() -> std::io::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    Ok((listener, addr))
}
