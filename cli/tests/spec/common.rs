//! What the requirement tests share: the reference agent on a loopback
//! port (as it is, or behind a deliberate fault), the `a2a` binary run
//! in an empty home and working directory with a clean environment, a
//! proxy that cuts a stream, and a small OAuth provider.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use a2a_reference_agent::cli::{Options, Parsed};
use a2a_reference_agent::{AgentConfig, HttpPushSender, ReferenceAgent};
use a2a_transport::webhook::Allowlist;
use a2a_transport::{A2aServer, BoxFuture, CallContext, Forward};
use a2a_types::{A2aError, A2aRequest, AgentInterface, Reply};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The reference agent with these command-line flags on a free loopback
/// port; its base URL. It serves until the test's runtime ends.
pub(crate) async fn agent(flags: &[&str]) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let bound = listener.local_addr().unwrap();
    let mut args = vec!["--quiet".to_owned()];
    args.extend(flags.iter().map(|f| (*f).to_owned()));
    let Ok(Parsed::Run(options)) = Options::parse(args) else {
        panic!("agent options {flags:?}")
    };
    let server = options.server(bound).unwrap();
    let serve = options.serve_options().unwrap();
    tokio::spawn(a2a_hyper::serve(
        listener,
        server,
        serve,
        std::future::pending(),
    ));
    options.base_url(bound)
}

/// What a fault does to one request: `None` passes it to the agent.
pub(crate) type FaultFn =
    dyn Fn(&A2aRequest, usize) -> Option<Result<Reply, A2aError>> + Send + Sync;

/// The reference agent behind a fault (an `A2aService` decorator).
struct Faulty {
    inner: ReferenceAgent,
    fault: Arc<FaultFn>,
    calls: AtomicUsize,
    /// Streams end with an InternalError after their first event.
    break_streams: bool,
}

impl Forward for Faulty {
    fn forward<'a>(
        &'a self,
        cx: &'a CallContext,
        request: A2aRequest,
    ) -> BoxFuture<'a, Result<Reply, A2aError>> {
        let n = self.calls.fetch_add(1, Ordering::SeqCst);
        if let Some(answer) = (self.fault)(&request, n) {
            return Box::pin(async move { answer });
        }
        let streaming = matches!(request, A2aRequest::SendStreamingMessage(_));
        let reply = a2a_transport::dispatch(&self.inner, cx, request);
        if !(self.break_streams && streaming) {
            return reply;
        }
        Box::pin(async move {
            use futures_util::StreamExt;
            match reply.await? {
                Reply::SendStreamingMessage(events) => {
                    let failing = futures_util::stream::once(async {
                        Err(A2aError::internal(
                            "the agent failed in the middle of the stream",
                        ))
                    });
                    let broken: a2a_types::EventStream = Box::pin(events.take(1).chain(failing));
                    Ok(Reply::SendStreamingMessage(broken))
                }
                other => Ok(other),
            }
        })
    }
}

/// The reference agent (JSON-RPC and HTTP+JSON) behind `fault`; its base
/// URL. `streaming` sets the card's capability.
pub(crate) async fn faulty_agent(streaming: bool, fault: Arc<FaultFn>) -> String {
    serve_faulty(streaming, fault, false).await
}

/// The reference agent whose streams fail after their first event.
pub(crate) async fn breaking_stream_agent() -> String {
    serve_faulty(true, Arc::new(|_, _| None), true).await
}

async fn serve_faulty(streaming: bool, fault: Arc<FaultFn>, break_streams: bool) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let bound = listener.local_addr().unwrap();
    let base = format!("http://{bound}");
    let mut config = AgentConfig::default().with_interfaces(vec![
        AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
        AgentInterface::new(base.clone(), "HTTP+JSON", "1.0"),
    ]);
    config.streaming = streaming;
    let agent = ReferenceAgent::new(config, Arc::new(HttpPushSender::new(Allowlist::new())));
    let card = agent.agent_card().clone();
    let server_config = agent.server_config();
    let server = A2aServer::new(
        Faulty {
            inner: agent,
            fault,
            calls: AtomicUsize::new(0),
            break_streams,
        },
        card,
        server_config,
    )
    .unwrap();
    tokio::spawn(a2a_hyper::serve(
        listener,
        Arc::new(server),
        a2a_hyper::ServeOptions::default(),
        std::future::pending(),
    ));
    base
}

static DIRS: AtomicUsize = AtomicUsize::new(0);

/// A fresh empty directory.
pub(crate) fn temp_dir(what: &str) -> PathBuf {
    let n = DIRS.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("a2a-cli-spec-{}-{n}-{what}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// How to run `a2a`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cli {
    /// Extra environment variables.
    pub(crate) env: Vec<(String, String)>,
    /// The home directory (a fresh one when `None`).
    pub(crate) home: Option<PathBuf>,
    /// The working directory (a fresh one when `None`).
    pub(crate) cwd: Option<PathBuf>,
    /// Standard input.
    pub(crate) stdin: Option<Vec<u8>>,
}

impl Cli {
    /// With an environment variable.
    pub(crate) fn env(mut self, k: &str, v: &str) -> Cli {
        self.env.push((k.to_owned(), v.to_owned()));
        self
    }

    /// In this home.
    pub(crate) fn home(mut self, home: &Path) -> Cli {
        self.home = Some(home.to_owned());
        self
    }

    /// In this working directory.
    pub(crate) fn cwd(mut self, cwd: &Path) -> Cli {
        self.cwd = Some(cwd.to_owned());
        self
    }

    /// With this standard input.
    pub(crate) fn stdin(mut self, input: &[u8]) -> Cli {
        self.stdin = Some(input.to_vec());
        self
    }

    /// Runs `a2a args` to its end (at most 60 s).
    pub(crate) async fn run(&self, args: &[&str]) -> Output {
        let home = self.home.clone().unwrap_or_else(|| temp_dir("home"));
        let cwd = self.cwd.clone().unwrap_or_else(|| temp_dir("cwd"));
        let mut c = tokio::process::Command::new(env!("CARGO_BIN_EXE_a2a"));
        c.args(args)
            .env_clear()
            .env("HOME", &home)
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .current_dir(&cwd)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .stdin(if self.stdin.is_some() {
                std::process::Stdio::piped()
            } else {
                std::process::Stdio::null()
            })
            .kill_on_drop(true);
        for (k, v) in &self.env {
            c.env(k, v);
        }
        let mut child = c.spawn().unwrap();
        if let Some(input) = &self.stdin {
            let mut s = child.stdin.take().unwrap();
            s.write_all(input).await.unwrap();
            drop(s);
        }
        tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
            .await
            .unwrap_or_else(|_| panic!("a2a {args:?} did not finish within 60 s"))
            .unwrap()
    }

    /// Runs it, asserting exit 0; its standard output.
    pub(crate) async fn ok(&self, args: &[&str]) -> String {
        let o = self.run(args).await;
        assert_eq!(
            o.status.code(),
            Some(0),
            "a2a {args:?}\nstdout: {}\nstderr: {}",
            out(&o),
            err(&o)
        );
        out(&o)
    }

    /// Runs it with `-o json`, asserting exit 0: the one document.
    pub(crate) async fn json(&self, args: &[&str]) -> Value {
        let mut with = args.to_vec();
        with.extend(["-o", "json"]);
        let text = self.ok(&with).await;
        serde_json::from_str(text.trim())
            .unwrap_or_else(|e| panic!("a2a {with:?}: not one JSON document ({e}):\n{text}"))
    }
}

/// `a2a` with the defaults.
pub(crate) fn cli() -> Cli {
    Cli::default()
}

/// Runs `a2a args`.
pub(crate) async fn a2a(args: &[&str]) -> Output {
    cli().run(args).await
}

/// Standard output.
pub(crate) fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error.
pub(crate) fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The string at `pointer`.
pub(crate) fn at<'v>(v: &'v Value, pointer: &str) -> &'v str {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no {pointer} in {v}"))
}

/// The value of the first `Label: value` field with this label.
pub(crate) fn field<'t>(text: &'t str, label: &str) -> Option<&'t str> {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{label}: ")))
}

/// Every value of fields with this label.
pub(crate) fn fields<'t>(text: &'t str, label: &str) -> Vec<&'t str> {
    text.lines()
        .filter_map(|l| l.strip_prefix(&format!("{label}: ")))
        .collect()
}

/// The JSON lines of a `--stream -o json` output.
pub(crate) fn jsonl(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            serde_json::from_str::<Value>(l)
                .unwrap_or_else(|e| panic!("not a JSON line ({e}): {l:?}"))
        })
        .collect()
}

/// The card of the agent at `base`, with its interface URLs' `from`
/// replaced by `to` and `edit` applied; written to a file, whose path is
/// returned.
pub(crate) async fn card_file(base: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let o = a2a(&["card", "get", "-a", base, "-o", "json"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let mut card: Value = serde_json::from_str(out(&o).trim()).unwrap();
    edit(&mut card);
    let path = temp_dir("card").join("card.json");
    std::fs::write(&path, card.to_string()).unwrap();
    path
}

/// Points every interface of `card` from `from` at `to`.
pub(crate) fn repoint(card: &mut Value, from: &str, to: &str) {
    let from_host = from.trim_start_matches("http://");
    let to_host = to.trim_start_matches("http://");
    for i in card["supportedInterfaces"].as_array_mut().unwrap() {
        let url = i["url"].as_str().unwrap().replace(from_host, to_host);
        i["url"] = Value::String(url);
    }
}

/// A TCP proxy to `upstream` that cuts the first connection whose request
/// contains `needle`, right after its answer has carried a WORKING state
/// (so mid-task, whatever the machine's speed); its base URL, and whether
/// it has cut.
pub(crate) async fn cutting_proxy(
    upstream: &str,
    needle: &'static str,
) -> (String, Arc<AtomicBool>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let up: SocketAddr = upstream.trim_start_matches("http://").parse().unwrap();
    let armed = Arc::new(AtomicBool::new(false));
    let cut = Arc::new(AtomicBool::new(false));
    let has_cut = Arc::clone(&cut);
    tokio::spawn(async move {
        loop {
            let Ok((mut client, _)) = listener.accept().await else {
                return;
            };
            let armed = Arc::clone(&armed);
            let cut = Arc::clone(&cut);
            tokio::spawn(async move {
                let Ok(mut server) = tokio::net::TcpStream::connect(up).await else {
                    return;
                };
                let (mut cr, mut cw) = client.split();
                let (mut sr, mut sw) = server.split();
                let doomed = AtomicBool::new(false);
                let to_server = async {
                    let mut buf = [0u8; 16384];
                    loop {
                        let n = match cr.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => n,
                        };
                        if String::from_utf8_lossy(&buf[..n]).contains(needle)
                            && !armed.swap(true, Ordering::SeqCst)
                        {
                            doomed.store(true, Ordering::SeqCst);
                        }
                        if sw.write_all(&buf[..n]).await.is_err() {
                            return;
                        }
                    }
                };
                let to_client = async {
                    let mut buf = [0u8; 16384];
                    loop {
                        let n = match sr.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => n,
                        };
                        if cw.write_all(&buf[..n]).await.is_err() {
                            return;
                        }
                        if doomed.load(Ordering::SeqCst)
                            && String::from_utf8_lossy(&buf[..n]).contains("TASK_STATE_WORKING")
                        {
                            cut.store(true, Ordering::SeqCst);
                            return;
                        }
                    }
                };
                // Whichever direction ends first ends the connection: the
                // cut drops both halves.
                tokio::select! {
                    () = to_server => {}
                    () = to_client => {}
                }
            });
        }
    });
    (format!("http://{addr}"), has_cut)
}

/// A minimal OAuth 2.1 / OpenID Connect provider on loopback: client
/// `cli` with secret `s3cret` gets `token` from the client-credentials
/// grant; the device flow answers `authorization_pending` once, then the
/// token. Its base URL.
pub(crate) async fn oauth_provider(token: &'static str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let me = base.clone();
    let polls = Arc::new(AtomicUsize::new(0));
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let me = me.clone();
            let polls = Arc::clone(&polls);
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                let (head, body) = loop {
                    let Ok(n) = socket.read(&mut chunk).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    let text = String::from_utf8_lossy(&buf).into_owned();
                    if let Some((head, body)) = text.split_once("\r\n\r\n") {
                        let len = head
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        if body.len() >= len {
                            break (head.to_owned(), body.to_owned());
                        }
                    }
                };
                let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
                let (status, doc) = match path.as_str() {
                    "/.well-known/openid-configuration" => (
                        200,
                        serde_json::json!({
                            "issuer": me,
                            "token_endpoint": format!("{me}/token"),
                            "device_authorization_endpoint": format!("{me}/device"),
                            "grant_types_supported": ["client_credentials", "urn:ietf:params:oauth:grant-type:device_code"],
                        }),
                    ),
                    "/device" => (
                        200,
                        serde_json::json!({
                            "device_code": "dev-code-1", "user_code": "WDJB-MJHT",
                            "verification_uri": format!("{me}/activate"), "expires_in": 60, "interval": 1,
                        }),
                    ),
                    "/token" if body.contains("grant_type=client_credentials") => {
                        if body.contains("client_id=cli") && body.contains("client_secret=s3cret") {
                            (
                                200,
                                serde_json::json!({"access_token": token, "token_type": "Bearer", "expires_in": 3600}),
                            )
                        } else {
                            (401, serde_json::json!({"error": "invalid_client"}))
                        }
                    }
                    "/token" if body.contains("device_code=dev-code-1") => {
                        if polls.fetch_add(1, Ordering::SeqCst) == 0 {
                            (400, serde_json::json!({"error": "authorization_pending"}))
                        } else {
                            (
                                200,
                                serde_json::json!({"access_token": token, "token_type": "Bearer", "expires_in": 3600}),
                            )
                        }
                    }
                    _ => (404, serde_json::json!({"error": "not_found"})),
                };
                let body = doc.to_string();
                let reply = format!("HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len());
                let _ = socket.write_all(reply.as_bytes()).await;
            });
        }
    });
    base
}

/// The id of the task a `-o json` send answered.
pub(crate) fn task_id(sent: &Value) -> String {
    at(sent, "/task/id").to_owned()
}

/// A TLS front for the agent at `upstream` that requires a client
/// certificate issued by its own CA.
#[derive(Debug)]
pub(crate) struct Mtls {
    /// `https://127.0.0.1:PORT`.
    pub(crate) addr: String,
    /// A client certificate the front accepts (PEM).
    pub(crate) client_cert: PathBuf,
    /// Its private key (PEM).
    pub(crate) client_key: PathBuf,
}

/// Starts an [`Mtls`] front.
pub(crate) async fn mtls_proxy(upstream: &str) -> Mtls {
    use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let client_key = rcgen::KeyPair::generate().unwrap();
    let client = rcgen::CertificateParams::new(vec!["a2a-cli-test-client".to_owned()])
        .unwrap()
        .signed_by(&client_key, &ca, &ca_key)
        .unwrap();
    let server =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
            .unwrap();
    let dir = temp_dir("mtls");
    let client_cert = dir.join("client.pem");
    let client_key_file = dir.join("client.key");
    std::fs::write(&client_cert, pem("CERTIFICATE", client.der())).unwrap();
    std::fs::write(
        &client_key_file,
        pem("PRIVATE KEY", &client_key.serialize_der()),
    )
    .unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    roots.add(ca.der().clone()).unwrap();
    let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
        Arc::new(roots),
        Arc::clone(&provider),
    )
    .build()
    .unwrap();
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_client_cert_verifier(verifier)
        .with_single_cert(
            vec![server.cert.der().clone()],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(server.key_pair.serialize_der())),
        )
        .unwrap();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = format!("https://{}", listener.local_addr().unwrap());
    let up: SocketAddr = upstream.trim_start_matches("http://").parse().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(socket).await else {
                    return;
                };
                let Ok(mut plain) = tokio::net::TcpStream::connect(up).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    Mtls {
        addr,
        client_cert,
        client_key: client_key_file,
    }
}

/// DER as PEM.
fn pem(label: &str, der: &[u8]) -> String {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for chunk in b64.as_bytes().chunks(64) {
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}
