//! The embedded reference agent as a [`Target`]: over loopback HTTP with
//! a webhook receiver (what `a2a-conformance` runs with no arguments), or
//! in memory through the server's `handle` (what the tests and the
//! mutation test run), optionally wrapped in faults.

use std::sync::Arc;
use std::time::{Duration, Instant};

use a2a_examples::lines::{serve_lines, LineClient, LineConfig};
use a2a_hyper::{serve, ClientOptions, HyperClient, ServeOptions, TokioTimer, DEFAULT_KEEP_ALIVE};
use a2a_reference_agent::{AgentConfig, HttpPushSender, PushSender, ReferenceAgent};
use a2a_signing::{CardSigner, Jwk, JwkSet, SigningKey};
use a2a_transport::{
    client::CardResolver, push::Resolve, server::BearerAuth, webhook::Allowlist, A2aServer,
    A2aService, BoxFuture, HttpClient, Principal, ProtocolVersion, ServerConfig,
};
use a2a_types::{AgentCard, AgentInterface};
use tokio::sync::oneshot;

use crate::binding::Binding;
use crate::check::Level;
use crate::contract::Contract;
use crate::grpc::{GrpcWire, H2cGrpc, ServerGrpc};
use crate::memory::ServerClient;
use crate::net::{
    loopback_listener, self_signed_tls, serve_webhook, serve_webhook_tls, SECURE_HOOKS_HOST,
};
use crate::report::Record;
use crate::run::notice;
use crate::target::{Caller, Target, Timing};
use crate::webhook::{MemoryPushSender, Webhook};

/// The bearer tokens of the embedded agent's two callers.
pub const TOKENS: [&str; 2] = ["conformance-token-1", "conformance-token-2"];

/// The base URL of in-memory agents (never resolved).
pub const MEMORY_BASE: &str = "http://agent.a2a.test";
/// The webhook base URL of in-memory agents (never resolved).
pub const MEMORY_HOOKS: &str = "https://hooks.a2a.test/hooks";

/// The key the embedded agent signs its card with (spec 8.4): a test key
/// published on purpose, `kid` [`EMBEDDED_KID`], ES256. Never use it for
/// anything else.
pub const EMBEDDED_SIGNING_JWK: &str = r#"{"kty":"EC","crv":"P-256","x":"7IiJROdD_tdUg1CwFamrai16qivFmjdB3vfBW2_gOHE","y":"r-mRbw6TR23N3fKY8Q-WP1uU7Mbhb_K4lVF6rUb437I","d":"FK9-IPcNiOpj9LBXiuS7-CVB1Roz_8DCQeDa2IvWEZY","kid":"embedded-es256","alg":"ES256"}"#;

/// The key id of [`EMBEDDED_SIGNING_JWK`].
pub const EMBEDDED_KID: &str = "embedded-es256";

/// Where the embedded agent on loopback serves its JWKS (and where its
/// signature's `jku` points).
pub const EMBEDDED_JWKS_PATH: &str = "/.well-known/jwks.json";

/// The embedded agent's card signer, naming `jku`.
pub fn embedded_signer(jku: &str) -> Result<CardSigner, String> {
    let jwk = Jwk::from_json(EMBEDDED_SIGNING_JWK.as_bytes()).map_err(|e| e.to_string())?;
    let key = SigningKey::from_jwk(&jwk, None).map_err(|e| e.to_string())?;
    Ok(CardSigner::new(key, EMBEDDED_KID).with_jku(jku))
}

/// The public JWKS of the embedded agent.
pub fn embedded_jwks() -> JwkSet {
    let keys = Jwk::from_json(EMBEDDED_SIGNING_JWK.as_bytes())
        .map(|k| k.public())
        .into_iter();
    JwkSet::new(keys)
}

/// How the embedded agent is set up.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Embedded {
    /// `capabilities.streaming`.
    pub streaming: bool,
    /// `capabilities.pushNotifications`.
    pub push_notifications: bool,
    /// Bearer authentication with two callers (and so the extended card).
    pub auth: bool,
    /// The timings (the agent's work step follows them).
    pub timing: Timing,
    /// Serve A2A 0.3 too (the reference agent's `--v0-3`): JSONRPC and
    /// HTTP+JSON 0.3 interfaces beside the 1.0 ones, requests without
    /// `A2A-Version` served as 0.3. Off by default: it changes the card and what a
    /// request without `A2A-Version` gets, which the 1.0 run checks.
    pub v0_3: bool,
    /// Serve the A2A 1.1 draft too (the reference agent's `--draft-1-1`):
    /// JSONRPC, HTTP+JSON and GRPC 1.1 interfaces at the 1.0 URLs, and
    /// `A2A-Version: 1.1` accepted beside 1.0. Off by default: it changes
    /// the card, which the 1.0 run checks.
    #[cfg(feature = "draft-1-1")]
    pub draft_1_1: bool,
}

impl Default for Embedded {
    fn default() -> Embedded {
        Embedded {
            streaming: true,
            push_notifications: true,
            auth: true,
            timing: Timing::STANDARD,
            v0_3: false,
            #[cfg(feature = "draft-1-1")]
            draft_1_1: false,
        }
    }
}

/// Wrappers putting faults around the pieces of an in-memory agent.
#[derive(Default)]
#[allow(clippy::type_complexity)]
pub struct Wrappers {
    /// Around the agent, as a service.
    pub service: Option<Box<dyn FnOnce(Arc<dyn A2aService>) -> Arc<dyn A2aService> + Send>>,
    /// Around the server, as an HTTP client.
    pub http: Option<Box<dyn FnOnce(Arc<dyn HttpClient>) -> Arc<dyn HttpClient> + Send>>,
    /// Around the server, as a raw gRPC carrier.
    pub grpc: Option<Box<dyn FnOnce(Arc<dyn GrpcWire>) -> Arc<dyn GrpcWire> + Send>>,
    /// Around the push sender.
    pub push: Option<Box<dyn FnOnce(Arc<dyn PushSender>) -> Arc<dyn PushSender> + Send>>,
}

impl std::fmt::Debug for Wrappers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wrappers")
            .field("service", &self.service.is_some())
            .field("http", &self.http.is_some())
            .field("grpc", &self.grpc.is_some())
            .field("push", &self.push.is_some())
            .finish()
    }
}

impl Embedded {
    /// The agent's configuration, advertising `interfaces` and admitting
    /// webhooks on `allow`.
    fn config(&self, interfaces: Vec<AgentInterface>, allow: Allowlist) -> AgentConfig {
        let mut config = AgentConfig::default()
            .with_interfaces(interfaces)
            .with_push_allowlist(allow);
        config.streaming = self.streaming;
        config.push_notifications = self.push_notifications;
        if self.auth {
            config = config.with_bearer_scheme("bearer");
        }
        config.push.initial_backoff = Duration::from_millis(10);
        config.push.max_backoff = Duration::from_millis(50);
        config.push.timeout = Duration::from_secs(2);
        config
    }

    /// `interfaces`, plus JSONRPC and HTTP+JSON 0.3 interfaces at
    /// `jsonrpc_url` and `rest_url` when serving 0.3 (as the reference
    /// agent's `--v0-3` does), and the three 1.1 interfaces at the same
    /// URLs when serving the 1.1 draft (`--draft-1-1`).
    fn with_v0_3(
        &self,
        mut interfaces: Vec<AgentInterface>,
        jsonrpc_url: String,
        rest_url: &str,
    ) -> Vec<AgentInterface> {
        if self.v0_3 {
            interfaces.extend(a2a_reference_agent::v0_3_interfaces(&jsonrpc_url, rest_url));
        }
        // The gRPC interface is at the HTTP+JSON base URL (h2c on the
        // same port).
        #[cfg(feature = "draft-1-1")]
        if self.draft_1_1 {
            interfaces.extend(a2a_reference_agent::v1_1_interfaces(
                &jsonrpc_url,
                rest_url,
                rest_url,
            ));
        }
        interfaces
    }

    fn server_config(&self, agent: &ReferenceAgent) -> ServerConfig {
        let mut config = agent.server_config();
        let mut versions = vec![ProtocolVersion::V1_0];
        if self.v0_3 {
            versions.push(ProtocolVersion::V0_3);
        }
        #[cfg(feature = "draft-1-1")]
        if self.draft_1_1 {
            versions.push(ProtocolVersion::V1_1);
        }
        if versions.len() > 1 {
            config = config.with_versions(versions);
        }
        if !self.auth {
            return config;
        }
        let mut auth = BearerAuth::new("bearer");
        for (i, token) in TOKENS.iter().enumerate() {
            auth = auth.with_token(*token, format!("caller-{}", i + 1));
        }
        config.with_authenticator(auth)
    }

    fn callers(&self) -> Vec<Caller> {
        if !self.auth {
            return vec![Caller::default()];
        }
        TOKENS
            .iter()
            .enumerate()
            .map(|(i, t)| {
                Caller::bearer(
                    t,
                    Some(Principal::new(format!("caller-{}", i + 1), "bearer")),
                )
            })
            .collect()
    }

    /// The agent in memory, behind `wrappers`: HTTP requests go straight
    /// to the server's `handle`, webhooks to a [`MemoryPushSender`].
    pub async fn in_memory(&self, wrappers: Wrappers) -> Target {
        let webhook = Webhook::new(MEMORY_HOOKS);
        let interfaces = self.with_v0_3(
            vec![
                AgentInterface::new(format!("{MEMORY_BASE}/"), "JSONRPC", "1.0"),
                AgentInterface::new(MEMORY_BASE, "HTTP+JSON", "1.0"),
                AgentInterface::new(MEMORY_BASE, "GRPC", "1.0"),
            ],
            format!("{MEMORY_BASE}/"),
            MEMORY_BASE,
        );
        let mut push: Arc<dyn PushSender> = Arc::new(MemoryPushSender::new(webhook.clone()));
        if let Some(wrap) = wrappers.push {
            push = wrap(push);
        }
        let agent = ReferenceAgent::new(self.config(interfaces, Allowlist::new()), push);
        let jku = format!("{MEMORY_BASE}{EMBEDDED_JWKS_PATH}");
        let card = match embedded_signer(&jku).and_then(|s| {
            s.sign_card(agent.agent_card().clone())
                .map_err(|e| e.to_string())
        }) {
            Ok(card) => card,
            Err(e) => {
                return broken(
                    "embedded agent (in memory)",
                    MEMORY_BASE,
                    format!("the card cannot be signed: {e}"),
                )
            }
        };
        let server_config = self.server_config(&agent);
        let mut service: Arc<dyn A2aService> = Arc::new(agent);
        if let Some(wrap) = wrappers.service {
            service = wrap(service);
        }
        let server = match A2aServer::new(Arc::clone(&service), card.clone(), server_config) {
            Ok(s) => Arc::new(s),
            Err(e) => {
                return broken(
                    "embedded agent (in memory)",
                    MEMORY_BASE,
                    format!("the server cannot be configured: {e}"),
                )
            }
        };
        let mut http: Arc<dyn HttpClient> = Arc::new(ServerClient::new(Arc::clone(&server)));
        if let Some(wrap) = wrappers.http {
            http = wrap(http);
        }
        let mut target = match fetch_card(&http, MEMORY_BASE).await {
            Ok(card) => Target::new(
                "embedded reference agent (in memory)",
                MEMORY_BASE,
                http,
                card,
            ),
            Err(problem) => {
                let mut t = Target::new(
                    "embedded reference agent (in memory)",
                    MEMORY_BASE,
                    http,
                    card,
                );
                t.notices.push(problem);
                t
            }
        };
        let mut grpc: Arc<dyn GrpcWire> = Arc::new(ServerGrpc::new(Arc::clone(&server)));
        if let Some(wrap) = wrappers.grpc {
            grpc = wrap(grpc);
        }
        target.grpc = Some(grpc);
        target.in_process = Some(service);
        target.bindings.insert(0, Binding::InProcess);
        target.lines = Some(over_lines(Arc::clone(&server)));
        target.bindings.push(Binding::Lines);
        target.callers = self.callers();
        // The in-memory webhook's URLs are https already.
        target.secure_webhook = Some(webhook.clone());
        target.webhook = Some(webhook);
        target.timing = self.timing;
        target.contract = Contract::Reference;
        // The signature's `jku` names no server in memory.
        target.trusted_keys = Some(embedded_jwks());
        target.require_signature = true;
        target
    }

    /// The agent on loopback HTTP (both bindings, a real webhook receiver,
    /// push delivery over HTTP), and in process. The server stops when the
    /// returned [`Running`] is dropped.
    pub async fn on_loopback(&self) -> std::io::Result<(Target, Running)> {
        let (hooks, hooks_addr) = loopback_listener().await?;
        let webhook = Webhook::new(format!("http://{hooks_addr}/hooks"));
        let receiver = serve_webhook(hooks, webhook.clone());
        let (secure_hooks, secure_addr) = loopback_listener().await?;
        let (acceptor, client_tls) = self_signed_tls()?;
        let secure = Webhook::new(format!(
            "https://{SECURE_HOOKS_HOST}:{}/hooks",
            secure_addr.port()
        ));
        let secure_receiver = serve_webhook_tls(secure_hooks, secure.clone(), acceptor);
        let (listener, addr) = loopback_listener().await?;
        let base = format!("http://{addr}");
        let interfaces = self.with_v0_3(
            vec![
                AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
                AgentInterface::new(base.clone(), "HTTP+JSON", "1.0"),
                // h2c on the same port (`a2a_hyper::serve`).
                AgentInterface::new(base.clone(), "GRPC", "1.0"),
            ],
            format!("{base}/"),
            &base,
        );
        let mut allow = Allowlist::new();
        allow
            .allow(&format!("{}/32", hooks_addr.ip()))
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        // The https receiver's name resolves to its loopback address (which
        // the allowlist admits) and its certificate is trusted: push
        // delivery runs the real TLS and resolver path.
        let mut push_options = ClientOptions::default();
        push_options.tls = Some(Arc::new(client_tls));
        push_options.resolver = Some(Arc::new(OneName(SECURE_HOOKS_HOST, secure_addr.ip())));
        let sender = Arc::new(HttpPushSender::with_options(allow.clone(), push_options));
        let agent = ReferenceAgent::new(self.config(interfaces, allow), sender);
        let card = embedded_signer(&format!("{base}{EMBEDDED_JWKS_PATH}"))
            .and_then(|s| {
                s.sign_card(agent.agent_card().clone())
                    .map_err(|e| e.to_string())
            })
            .map_err(std::io::Error::other)?;
        let config = self
            .server_config(&agent)
            .with_keep_alive(DEFAULT_KEEP_ALIVE, TokioTimer);
        let server = Arc::new(
            A2aServer::new(agent.clone(), card.clone(), config)
                .map_err(|e| std::io::Error::other(e.to_string()))?,
        );
        let lines = over_lines(Arc::clone(&server));
        let (stop, stopped) = oneshot::channel::<()>();
        // The JWKS is served beside the agent, so the card's `jku` is
        // fetched by `card.signature-verifies` as for a live agent.
        let options = ServeOptions::default()
            .with_drain_timeout(Duration::from_millis(200))
            .with_static(
                EMBEDDED_JWKS_PATH,
                "application/jwk-set+json",
                embedded_jwks().to_public_json(),
            )
            .map_err(std::io::Error::other)?;
        let server_task = tokio::spawn(serve(listener, server, options, async move {
            let _ = stopped.await;
        }));
        let http: Arc<dyn HttpClient> = Arc::new(HyperClient::new());
        let mut target = match fetch_card(&http, &base).await {
            Ok(card) => Target::new(
                "embedded reference agent (loopback HTTP and in process)",
                base.clone(),
                http,
                card,
            ),
            Err(problem) => {
                let mut t = Target::new("embedded reference agent", base.clone(), http, card);
                t.notices.push(problem);
                t
            }
        };
        target.grpc = H2cGrpc::for_url(&base).map(|g| Arc::new(g) as Arc<dyn GrpcWire>);
        target.in_process = Some(Arc::new(agent));
        target.bindings.insert(0, Binding::InProcess);
        target.lines = Some(lines);
        target.bindings.push(Binding::Lines);
        target.callers = self.callers();
        target.webhook = Some(webhook);
        target.secure_webhook = Some(secure);
        target.timing = self.timing;
        target.contract = Contract::Reference;
        target.require_signature = true;
        Ok((
            target,
            Running {
                stop: Some(stop),
                server: server_task,
                receiver,
                secure_receiver,
            },
        ))
    }
}

/// `server` behind the line transport, on an in-memory pipe: the client
/// end as a service. The server task ends when the client is dropped.
fn over_lines<S: A2aService + 'static>(server: Arc<A2aServer<S>>) -> Arc<dyn A2aService> {
    const PIPE: usize = 256 * 1024;
    let (client_end, server_end) = tokio::io::duplex(PIPE);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(serve_lines(
        server,
        server_read,
        server_write,
        LineConfig::new(),
    ));
    let (client_read, client_write) = tokio::io::split(client_end);
    Arc::new(LineClient::connect(
        client_read,
        client_write,
        LineConfig::new(),
    ))
}

/// The embedded agent's servers; dropping this stops them.
#[derive(Debug)]
pub struct Running {
    stop: Option<oneshot::Sender<()>>,
    server: tokio::task::JoinHandle<()>,
    receiver: tokio::task::JoinHandle<()>,
    secure_receiver: tokio::task::JoinHandle<()>,
}

/// Resolves one name to one address; every other name is unknown.
struct OneName(&'static str, std::net::IpAddr);

impl Resolve for OneName {
    fn resolve<'a>(
        &'a self,
        host: &'a str,
    ) -> BoxFuture<'a, std::io::Result<Vec<std::net::IpAddr>>> {
        let found = if host.eq_ignore_ascii_case(self.0) {
            Ok(vec![self.1])
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("{host} is not known to the conformance runner"),
            ))
        };
        Box::pin(std::future::ready(found))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.server.abort();
        self.receiver.abort();
        self.secure_receiver.abort();
    }
}

/// Fetches, decodes and validates the public card under `base_url`
/// (spec 8.2); a problem is a failed `runner.card` record.
pub async fn fetch_card(http: &Arc<dyn HttpClient>, base_url: &str) -> Result<AgentCard, Record> {
    fetch_card_with(http, base_url, http::HeaderMap::new()).await
}

/// [`fetch_card`], sending `headers` with the request.
pub async fn fetch_card_with(
    http: &Arc<dyn HttpClient>,
    base_url: &str,
    headers: http::HeaderMap,
) -> Result<AgentCard, Record> {
    let problem = |why: String| notice("runner.card", "8.2", Level::Must, Binding::Http, why);
    let mut resolver = CardResolver::new(base_url)
        .map_err(|e| problem(format!("the base URL cannot be used: {e}")))?
        .with_headers(headers);
    let url = resolver.url().to_string();
    match tokio::time::timeout(
        Duration::from_secs(15),
        resolver.resolve(&**http, Instant::now()),
    )
    .await
    {
        Ok(Ok(card)) => Ok(card),
        Ok(Err(e)) if unreachable(&e) => Err(problem(format!(
            "the agent cannot be reached at {base_url} (its card, {url}, did not arrive): {e}"
        ))),
        Ok(Err(e)) => Err(problem(format!(
            "the agent card at {url} cannot be used: {e}"
        ))),
        Err(_) => Err(problem(format!(
            "the agent card at {url} did not arrive within 15 s"
        ))),
    }
}

/// Whether the card fetch failed because nothing answered: a connection
/// refused or lost, or a timeout (not an answer the agent gave).
fn unreachable(e: &a2a_transport::client::DiscoveryError) -> bool {
    use a2a_transport::client::{ClientFailure, DiscoveryError};
    matches!(e, DiscoveryError::Fetch(err)
        if ClientFailure::of(err).is_some_and(ClientFailure::is_retryable))
}

/// A target that cannot be tested, carrying the reason as a notice.
pub(crate) fn broken(name: &str, base: &str, why: String) -> Target {
    let mut t = Target::new(
        name,
        base,
        Arc::new(HyperClient::new()),
        AgentCard::default(),
    );
    t.bindings.clear();
    t.notices.push(notice(
        "runner.target",
        "8.2",
        Level::Must,
        Binding::Http,
        why,
    ));
    t
}
