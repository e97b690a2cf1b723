//! The HTTP client under every call: `a2a_hyper::HyperClient`, wrapped to
//! log each exchange on standard error under `--debug` (a2a-cli spec
//! §7.2: timing, and at Tier 2 the raw protocol messages), with every
//! credential redacted whatever the verbosity (§12.1), and the TLS
//! settings: `--insecure` (a warning, §6.5) and a client certificate for
//! mutual TLS (`--cert`/`--key`, §12.3).

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use a2a_hyper::{ClientOptions, HyperClient};
use a2a_transport::client::{BodyChunk, HttpError, ResponseBody};
use a2a_transport::{BoxFuture, HttpClient};
use bytes::Bytes;
use futures_util::Stream;

use a2a_transport::grpc::{operation_of_path, FrameDecoder, DEFAULT_MAX_MESSAGE_SIZE};
use a2a_types::Operation;

use crate::term::tell;

/// What replaces a credential in diagnostics.
pub(crate) const REDACTED: &str = "[REDACTED]";

/// Header names whose values are always credentials.
fn is_secret_header(name: &str, extra: &[String]) -> bool {
    let n = name.to_ascii_lowercase();
    matches!(
        n.as_str(),
        "authorization" | "proxy-authorization" | "cookie" | "set-cookie" | "x-api-key"
    ) || [
        "token",
        "secret",
        "key",
        "auth",
        "password",
        "credential",
        "session",
    ]
    .iter()
    .any(|w| n.contains(w))
        || extra.iter().any(|e| e.eq_ignore_ascii_case(&n))
}

/// Redacts credentials from diagnostic text.
#[derive(Debug, Clone, Default)]
pub(crate) struct Redactor {
    /// Literal secrets (tokens, keys, credential service parameters).
    secrets: Vec<String>,
    /// Header names that carry a credential here (an API key's header).
    headers: Vec<String>,
}

impl Redactor {
    /// Adds a literal secret.
    pub(crate) fn secret(&mut self, s: &str) {
        if s.len() >= 3 && !self.secrets.iter().any(|x| x == s) {
            self.secrets.push(s.to_owned());
            // Longest first, so that a secret containing another goes whole.
            self.secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        }
    }

    /// Marks a header name as carrying a credential.
    pub(crate) fn header(&mut self, name: &str) {
        self.headers.push(name.to_ascii_lowercase());
    }

    /// `text` with every known secret replaced.
    pub(crate) fn text(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for s in &self.secrets {
            out = out.replace(s.as_str(), REDACTED);
        }
        out
    }

    /// A header line, its value redacted when it is a credential.
    fn header_line(&self, name: &str, value: &[u8]) -> String {
        if is_secret_header(name, &self.headers) {
            format!("{name}: {REDACTED}")
        } else {
            self.text(&format!("{name}: {}", String::from_utf8_lossy(value)))
        }
    }
}

/// The TLS and logging set-up of the client.
#[derive(Debug, Clone, Default)]
pub(crate) struct WireOptions {
    /// `--debug`.
    pub(crate) debug: bool,
    /// `--insecure`.
    pub(crate) insecure: bool,
    /// `--cert` and `--key` (PEM files).
    pub(crate) client_cert: Option<(String, String)>,
    /// What to redact.
    pub(crate) redactor: Redactor,
}

/// The client: hyper underneath, logging on top when debugging.
#[derive(Clone)]
pub(crate) struct Wire {
    inner: HyperClient,
    debug: bool,
    redactor: Arc<Redactor>,
    /// An API key the card's scheme puts in the query: added to every
    /// request of the A2A calls (not to the card's).
    query: Option<(String, String)>,
}

impl std::fmt::Debug for Wire {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wire").field("debug", &self.debug).finish()
    }
}

impl Wire {
    /// A client with these options.
    pub(crate) fn new(options: &WireOptions) -> Result<Wire, String> {
        let mut hyper = ClientOptions::default();
        if options.insecure || options.client_cert.is_some() {
            hyper.tls = Some(Arc::new(tls_config(options)?));
        }
        Ok(Wire {
            inner: HyperClient::with_options(hyper),
            debug: options.debug,
            redactor: Arc::new(options.redactor.clone()),
            query: None,
        })
    }

    /// The same client (sharing its pool) adding `name=value` to the
    /// query of every request.
    pub(crate) fn with_query(&self, name: &str, value: &str) -> Wire {
        let mut w = self.clone();
        w.query = Some((name.to_owned(), value.to_owned()));
        w
    }

    fn add_query(
        &self,
        mut request: http::Request<Bytes>,
    ) -> Result<http::Request<Bytes>, HttpError> {
        let Some((name, value)) = &self.query else {
            return Ok(request);
        };
        let enc = |s: &str| -> String {
            s.bytes()
                .map(|b| match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                        (b as char).to_string()
                    }
                    _ => format!("%{b:02X}"),
                })
                .collect()
        };
        let uri = request.uri().to_string();
        let sep = if request.uri().query().is_some() {
            '&'
        } else {
            '?'
        };
        let with = format!("{uri}{sep}{}={}", enc(name), enc(value));
        *request.uri_mut() = with
            .parse()
            .map_err(|e| HttpError::Other(format!("the API key cannot go in the query: {e}")))?;
        Ok(request)
    }

    /// Logs a line under `--debug`, redacted.
    pub(crate) fn debug(&self, line: &str) {
        if self.debug {
            tell(&format!("a2a: debug: {}", self.redactor.text(line)));
        }
    }
}

fn tls_config(options: &WireOptions) -> Result<rustls::ClientConfig, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?;
    let builder = if options.insecure {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(NoVerification(provider)))
    } else {
        let mut roots = rustls::RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        builder.with_root_certificates(roots)
    };
    match &options.client_cert {
        None => Ok(builder.with_no_client_auth()),
        Some((cert, key)) => {
            use rustls::pki_types::pem::PemObject;
            use rustls::pki_types::{CertificateDer, PrivateKeyDer};
            let certs = CertificateDer::pem_file_iter(cert)
                .map_err(|e| format!("--cert {cert}: {e}"))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("--cert {cert}: {e}"))?;
            if certs.is_empty() {
                return Err(format!("--cert {cert}: no certificate in the file"));
            }
            let key = PrivateKeyDer::from_pem_file(key).map_err(|e| format!("--key {key}: {e}"))?;
            builder
                .with_client_auth_cert(certs, key)
                .map_err(|e| format!("--cert/--key: {e}"))
        }
    }
}

/// `--insecure`: accepts any server certificate (the signatures of the
/// handshake are still checked).
#[derive(Debug)]
struct NoVerification(Arc<rustls::crypto::CryptoProvider>);

impl rustls::client::danger::ServerCertVerifier for NoVerification {
    fn verify_server_cert(
        &self,
        _end_entity: &rustls::pki_types::CertificateDer<'_>,
        _intermediates: &[rustls::pki_types::CertificateDer<'_>],
        _server_name: &rustls::pki_types::ServerName<'_>,
        _ocsp_response: &[u8],
        _now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// One gRPC message (without its 5-byte prefix) as ProtoJSON: the
/// operation's request, or its reply (`reply`), or `None` when it does not
/// decode.
fn grpc_json(op: Operation, reply: bool, message: &[u8]) -> Option<String> {
    fn json<T: a2a_proto::Protobuf + serde::Serialize>(m: &[u8]) -> Option<String> {
        let v: T = a2a_proto::decode(m).ok()?;
        a2a_types::to_vec(&v)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
    }
    use a2a_types as t;
    use Operation as O;
    match (op, reply) {
        (O::SendMessage | O::SendStreamingMessage, false) => json::<t::SendMessageRequest>(message),
        (O::SendMessage, true) => json::<t::SendMessageResponse>(message),
        (O::SendStreamingMessage | O::SubscribeToTask, true) => json::<t::StreamResponse>(message),
        (O::GetTask, false) => json::<t::GetTaskRequest>(message),
        (O::GetTask | O::CancelTask, true) => json::<t::Task>(message),
        (O::ListTasks, false) => json::<t::ListTasksRequest>(message),
        (O::ListTasks, true) => json::<t::ListTasksResponse>(message),
        (O::CancelTask, false) => json::<t::CancelTaskRequest>(message),
        (O::SubscribeToTask, false) => json::<t::SubscribeToTaskRequest>(message),
        (O::CreateTaskPushNotificationConfig, _) | (O::GetTaskPushNotificationConfig, true) => {
            json::<t::TaskPushNotificationConfig>(message)
        }
        (O::GetTaskPushNotificationConfig, false) => {
            json::<t::GetTaskPushNotificationConfigRequest>(message)
        }
        (O::ListTaskPushNotificationConfigs, false) => {
            json::<t::ListTaskPushNotificationConfigsRequest>(message)
        }
        (O::ListTaskPushNotificationConfigs, true) => {
            json::<t::ListTaskPushNotificationConfigsResponse>(message)
        }
        (O::DeleteTaskPushNotificationConfig, false) => {
            json::<t::DeleteTaskPushNotificationConfigRequest>(message)
        }
        (O::GetExtendedAgentCard, false) => json::<t::GetExtendedAgentCardRequest>(message),
        (O::GetExtendedAgentCard, true) => json::<t::AgentCard>(message),
        _ => None,
    }
}

/// The gRPC messages of a body (whole frames; a partial one waits in
/// `decoder`), each as ProtoJSON or its size.
fn grpc_lines(op: Operation, reply: bool, decoder: &mut FrameDecoder, chunk: &[u8]) -> Vec<String> {
    decoder.push(chunk);
    let mut out = Vec::new();
    while let Ok(Some(m)) = decoder.next_message() {
        out.push(match grpc_json(op, reply, &m) {
            Some(j) => format!("[gRPC message] {j}"),
            None => format!("[gRPC message of {} bytes]", m.len()),
        });
    }
    out
}

/// A body for the log: text when it reads as UTF-8, else its size.
fn body_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(t) => t.trim_end().to_owned(),
        Err(_) => format!("<{} bytes of binary (protobuf)>", bytes.len()),
    }
}

impl HttpClient for Wire {
    fn send(
        &self,
        request: http::Request<Bytes>,
    ) -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>> {
        let request = match self.add_query(request) {
            Ok(r) => r,
            Err(e) => return Box::pin(std::future::ready(Err(e))),
        };
        if !self.debug {
            return self.inner.send(request);
        }
        let started = Instant::now();
        let r = &self.redactor;
        let mut lines = vec![format!(
            "> {} {} {:?}",
            request.method(),
            request.uri(),
            request.version()
        )];
        for (name, value) in request.headers() {
            lines.push(format!(
                "> {}",
                r.header_line(name.as_str(), value.as_bytes())
            ));
        }
        let grpc = (request.version() == http::Version::HTTP_2)
            .then(|| operation_of_path(request.uri().path()))
            .flatten();
        if let Some(op) = grpc {
            let mut decoder = FrameDecoder::new(DEFAULT_MAX_MESSAGE_SIZE);
            for l in grpc_lines(op, false, &mut decoder, request.body()) {
                lines.push(format!("> {l}"));
            }
        } else if !request.body().is_empty() {
            lines.push(format!("> {}", body_text(request.body())));
        }
        for l in &lines {
            self.debug(l);
        }
        let sent = self.inner.send(request);
        let me = self.clone();
        Box::pin(async move {
            let response = sent.await;
            let ms = started.elapsed().as_millis();
            match response {
                Err(e) => {
                    me.debug(&format!("< failed after {ms} ms: {e}"));
                    Err(e)
                }
                Ok(response) => {
                    me.debug(&format!("< {} ({ms} ms)", response.status()));
                    for (name, value) in response.headers() {
                        me.debug(&format!(
                            "< {}",
                            me.redactor.header_line(name.as_str(), value.as_bytes())
                        ));
                    }
                    Ok(response.map(|body| {
                        ResponseBody::with_trailers(Logged {
                            body,
                            wire: me.clone(),
                            done: false,
                            grpc: grpc.map(|op| (op, FrameDecoder::new(DEFAULT_MAX_MESSAGE_SIZE))),
                        })
                    }))
                }
            }
        })
    }
}

/// A response body logged chunk by chunk as it arrives.
struct Logged {
    body: ResponseBody,
    wire: Wire,
    done: bool,
    /// A gRPC call's operation, and the frames read so far.
    grpc: Option<(Operation, FrameDecoder)>,
}

impl Stream for Logged {
    type Item = Result<BodyChunk, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.body).poll_next(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Some(Ok(bytes))) => {
                let this = &mut *self;
                match &mut this.grpc {
                    Some((op, decoder)) => {
                        for l in grpc_lines(*op, true, decoder, &bytes) {
                            this.wire.debug(&format!("< {l}"));
                        }
                    }
                    None => this.wire.debug(&format!("< {}", body_text(&bytes))),
                }
                Poll::Ready(Some(Ok(BodyChunk::Data(bytes))))
            }
            Poll::Ready(Some(Err(e))) => {
                self.wire.debug(&format!("< body failed: {e}"));
                Poll::Ready(Some(Err(e)))
            }
            Poll::Ready(None) => {
                self.done = true;
                match self.body.trailers().cloned() {
                    Some(t) => {
                        for (name, value) in &t {
                            self.wire.debug(&format!(
                                "< (trailer) {}",
                                self.wire
                                    .redactor
                                    .header_line(name.as_str(), value.as_bytes())
                            ));
                        }
                        Poll::Ready(Some(Ok(BodyChunk::Trailers(t))))
                    }
                    None => Poll::Ready(None),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_never_reach_the_log() {
        let mut r = Redactor::default();
        r.secret("s3cr3t-token");
        r.header("x-my-key");
        assert_eq!(
            r.header_line("Authorization", b"Bearer s3cr3t-token"),
            "Authorization: [REDACTED]"
        );
        assert_eq!(r.header_line("x-my-key", b"abc"), "x-my-key: [REDACTED]");
        assert_eq!(r.header_line("x-trace", b"abc"), "x-trace: abc");
        assert_eq!(r.text("url?k=s3cr3t-token&x=1"), "url?k=[REDACTED]&x=1");
    }
}
