//! Real sockets: a loopback webhook receiver. The HTTP client is
//! `a2a_hyper::HyperClient` and the embedded agent is served with
//! [`a2a_hyper::serve`].

use std::convert::Infallible;
use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use crate::webhook::{Delivery, Webhook};

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
