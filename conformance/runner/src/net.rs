//! Real sockets: loopback webhook receivers (plain and TLS). The HTTP client is
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
    serve_webhook_with(listener, webhook, None)
}

/// The name the TLS receiver's certificate is made for; the embedded
/// agent's push client resolves it to the receiver's loopback address.
pub(crate) const SECURE_HOOKS_HOST: &str = "hooks.conformance.test";

/// A TLS acceptor with a self-signed certificate for
/// [`SECURE_HOOKS_HOST`], and a client configuration trusting exactly
/// that certificate.
pub(crate) fn self_signed_tls() -> std::io::Result<(tokio_rustls::TlsAcceptor, rustls::ClientConfig)>
{
    let other = |e: &dyn std::fmt::Display| std::io::Error::other(e.to_string());
    let cert = rcgen::generate_simple_self_signed(vec![SECURE_HOOKS_HOST.to_owned()])
        .map_err(|e| other(&e))?;
    let der = cert.cert.der().clone();
    let key = rustls::pki_types::PrivatePkcs8KeyDer::from(cert.key_pair.serialize_der());
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let mut server = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| other(&e))?
        .with_no_client_auth()
        .with_single_cert(vec![der.clone()], key.into())
        .map_err(|e| other(&e))?;
    server.alpn_protocols = vec![b"http/1.1".to_vec()];
    let mut roots = rustls::RootCertStore::empty();
    roots.add(der).map_err(|e| other(&e))?;
    let client = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| other(&e))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok((
        tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(server)),
        client,
    ))
}

/// [`serve_webhook`] behind TLS.
pub(crate) fn serve_webhook_tls(
    listener: TcpListener,
    webhook: Webhook,
    acceptor: tokio_rustls::TlsAcceptor,
) -> tokio::task::JoinHandle<()> {
    serve_webhook_with(listener, webhook, Some(acceptor))
}

fn serve_webhook_with(
    listener: TcpListener,
    webhook: Webhook,
    tls: Option<tokio_rustls::TlsAcceptor>,
) -> tokio::task::JoinHandle<()> {
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
            let tls = tls.clone();
            tokio::spawn(async move {
                let http1 = hyper::server::conn::http1::Builder::new();
                match tls {
                    None => {
                        let _ = http1.serve_connection(TokioIo::new(stream), service).await;
                    }
                    Some(acceptor) => {
                        if let Ok(stream) = acceptor.accept(stream).await {
                            let _ = http1.serve_connection(TokioIo::new(stream), service).await;
                        }
                    }
                }
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
