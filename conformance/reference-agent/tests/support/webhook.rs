//! A real webhook receiver on loopback: records every request and
//! answers scripted statuses (200 once the script is used up).

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{HeaderMap, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;

#[derive(Default)]
struct State {
    received: Vec<(HeaderMap, Bytes)>,
    script: VecDeque<u16>,
}

/// The receiver; it stops when dropped.
pub struct Webhook {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Webhook {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Webhook {
    pub async fn start() -> Webhook {
        Webhook::start_with(None).await
    }

    /// A receiver behind TLS with a self-signed certificate for `name`;
    /// also answers the certificate, for the client to trust.
    #[allow(dead_code)] // not every test binary uses it
    pub async fn start_tls(name: &str) -> (Webhook, rustls::pki_types::CertificateDer<'static>) {
        let cert = rcgen::generate_simple_self_signed(vec![name.to_owned()]).unwrap();
        let der = cert.cert.der().clone();
        let key = rustls::pki_types::PrivatePkcs8KeyDer::from(cert.key_pair.serialize_der());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut tls = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![der.clone()], key.into())
            .unwrap();
        tls.alpn_protocols = vec![b"http/1.1".to_vec()];
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(tls));
        (Webhook::start_with(Some(acceptor)).await, der)
    }

    async fn start_with(tls: Option<tokio_rustls::TlsAcceptor>) -> Webhook {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(Mutex::new(State::default()));
        let shared = state.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let state = shared.clone();
                let service = service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                    let state = state.clone();
                    async move {
                        let (parts, body) = req.into_parts();
                        let body = body
                            .collect()
                            .await
                            .map(|b| b.to_bytes())
                            .unwrap_or_default();
                        let status = {
                            let mut s = state.lock().unwrap();
                            s.received.push((parts.headers, body));
                            s.script.pop_front().unwrap_or(200)
                        };
                        let mut resp = Response::new(Full::new(Bytes::new()));
                        *resp.status_mut() = StatusCode::from_u16(status).unwrap();
                        Ok::<_, Infallible>(resp)
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
        });
        Webhook { addr, state, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Answers the next requests with these statuses.
    pub fn script(&self, statuses: &[u16]) {
        self.state.lock().unwrap().script.extend(statuses);
    }

    pub fn received(&self) -> Vec<(HeaderMap, Bytes)> {
        self.state.lock().unwrap().received.clone()
    }
}
