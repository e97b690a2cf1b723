//! The command line of the `a2a-reference-agent` binary, and the
//! assembly of agent, server and push sender it describes.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use a2a_hyper::{ServeOptions, TokioTimer};
use a2a_signing::{CardSigner, Jwk, JwkSet, SigningKey};
use a2a_transport::server::AnyOf;
use a2a_transport::server::AGENT_CARD_PATH;
use a2a_transport::{server::BearerAuth, webhook::Allowlist, A2aServer, ProtocolVersion};
use a2a_types::AgentInterface;

use crate::config::AgentConfig;
use crate::ReferenceAgent;
use a2a_agent::TaskStore;
use a2a_hyper::HttpPushSender;
use a2a_store_postgres::{PgOptions, PgTaskStore};

/// The usage text.
pub const USAGE: &str = "\
a2a-reference-agent: the a2a-core reference agent on HTTP (JSON-RPC, HTTP+JSON and gRPC
over h2c on the same port)

USAGE: a2a-reference-agent [OPTIONS]

  --port <n>             port to listen on (default 8080; 0 picks a free one)
  --listen <ip[:port]>   address to listen on (default 127.0.0.1)
  --host <name>          host name the agent card advertises (default: the listen address)
  --public-url <url>     base URL the agent card advertises (overrides --host and the port)
  --bearer <token>       require this bearer token (repeatable; the n-th token
                         authenticates principal `caller-<n>`)
  --jwt-issuer <url>     accept bearer JWTs (RFC 7519) whose `iss` is this issuer; without
                         --jwt-jwks their keys come from its OpenID Connect discovery
                         document (<url>/.well-known/openid-configuration, whose `jwks_uri`
                         must be at the issuer's origin or given with --jwt-allow); `sub`
                         is the caller. With --bearer, either kind of token is accepted
  --jwt-jwks <file|url>  the issuer's public JWKS: a file read at start, or an http(s) URL
                         fetched (cached 10 minutes; an unknown `kid` refetches it, at most
                         every 30 s)
  --jwt-audience <aud>   an `aud` the tokens must name (repeatable; needed with --jwt-issuer)
  --jwt-allow <url>      a `jwks_uri` a discovery document may name (repeatable)
  --push-allow <entry>   admit a webhook address, CIDR block or host name that the
                         SSRF rules would refuse (repeatable), e.g. 127.0.0.0/8; a name
                         is admitted by name, not by what it resolves to: 127.0.0.0/8
                         admits http://127.0.0.1/, add `--push-allow localhost` for
                         http://localhost/
  --max-tasks <n>        tasks kept in memory (default 10000)
  --max-store-mb <n>     MiB the stored tasks may weigh (default 32); past it the oldest
                         terminal tasks are evicted first
  --max-tasks-per-owner <n>
                         tasks one caller holds (default 2500); past it that caller's
                         oldest terminal task goes, and a caller whose tasks all run is
                         refused (RateLimitedError, Retry-After: 1); another caller's
                         unfinished task is never evicted
  --max-owner-mb <n>     MiB one caller's tasks may weigh (default 8), kept the same way
  --max-running <n>      executor runs in flight at once (default 256); past it new work
                         is refused (RateLimitedError, Retry-After: 1)
  --max-running-mb <n>   MiB running tasks may hold in artifacts gained and logged events
                         (default 64); once spent, new tasks are refused and the tasks
                         over their share get their artifacts refused (they fail)
  --task-ttl <secs>      seconds a task is kept after its creation (default 3600)
  --max-stream-events <n>
                         events one task keeps for streams that have not read them
                         (default 256); a stream further behind gets a Task snapshot
  --keep-alive <secs>    SSE keep-alive comment interval (default 15)
  --signing-key <file>   sign the agent card at start-up with this private JWK (EC P-256 or
                         P-384, Ed25519, RSA; its `kid` names it, its `alg` or the key type's
                         default is the algorithm) and serve the public key as a JWKS (spec 8.4),
                         derived from `d` when the JWK leaves out `x` and `y`
  --jwks-path <path>     where that JWKS is served and what the signature's `jku` names
                         (default /.well-known/jwks.json)
  --v0-3                 also serve A2A 0.3 on JSON-RPC and HTTP+JSON (requests without
                         A2A-Version; spec 3.6.2): JSONRPC and HTTP+JSON 0.3 interfaces on the
                         card, which is then the union card 0.3 clients read; off by default
                         (not with --signing-key)
  --draft-1-1            also serve the A2A 1.1 draft (builds with the draft-1-1 feature
                         only): JSONRPC, HTTP+JSON and GRPC 1.1 interfaces on the card, task
                         generations and timelines, long-poll GetTask (held up to 30 s),
                         ifGenerationMatch; 1.0 callers still see pure 1.0
  --store <url>          where tasks are kept: `memory` (default), or a PostgreSQL URL
                         (postgres://... or postgresql://...; host=/dir for a unix socket)
                         shared by every replica on it; tables are created at start.
                         --max-tasks and --max-store-mb bound memory only; --task-ttl
                         and --max-stream-events apply to both
  --lease <secs>         with --store: how long a replica's claim on a task it runs lasts
                         unrenewed (default 30); a task whose replica died FAILS after it
  --fire-and-forget      the official TCK 0.3.x branch's contract (the a2a-java TCK agent's)
                         instead of the text commands: every message leaves its task WORKING
                         (the message in its history) until it is canceled, and a blocking
                         send answers that WORKING task at once; `tck-*` messageId prefixes
                         (the 1.0 TCK's) are not read then
  --metrics              serve /metrics on the same port: the Prometheus text format
                         (calls by operation, binding and outcome, latencies, open
                         streams, push deliveries and retries, tasks by state, store
                         bytes against --max-store-mb); off by default (404 there)
  --rate-limit <n>       at most <n> calls per second per caller (its principal, or its
                         address when anonymous): over it, 429 with Retry-After
                         (gRPC RESOURCE_EXHAUSTED with RetryInfo); off by default
  --rate-limit-burst <n> with --rate-limit: calls a caller may make at once
                         (default: the --rate-limit value, one second's worth)
  --trace                a span per call, stream, executor run and push notification
                         (children of the caller's traceparent, W3C Trace Context),
                         each printed on stderr as it closes, with its W3C ids and
                         attributes; webhooks get the push span's traceparent
  --quiet                no request log
  -h, --help             this text

Send it messages such as `echo hi`, `stream 5`, `input`, `slow 3000`, `message hi`.";

/// The default `--jwks-path`.
pub const DEFAULT_JWKS_PATH: &str = "/.well-known/jwks.json";

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Options {
    /// The address to listen on.
    pub listen: SocketAddr,
    /// `--host`.
    pub host: Option<String>,
    /// `--public-url`.
    pub public_url: Option<String>,
    /// `--bearer`, in order.
    pub bearer_tokens: Vec<String>,
    /// `--push-allow`, in order.
    pub push_allow: Vec<String>,
    /// The `--jwt-*` flags.
    pub jwt: crate::jwt::JwtOptions,
    /// `--max-tasks`.
    pub max_tasks: usize,
    /// `--max-store-mb`, in bytes.
    pub max_store_bytes: usize,
    /// `--max-tasks-per-owner`.
    pub max_tasks_per_owner: usize,
    /// `--max-owner-mb`, in bytes.
    pub max_bytes_per_owner: usize,
    /// `--max-running`.
    pub max_running_tasks: usize,
    /// `--max-running-mb`, in bytes.
    pub max_running_bytes: usize,
    /// `--task-ttl`.
    pub task_ttl: Duration,
    /// `--max-stream-events` ([`Limits::max_events_per_task`](crate::Limits::max_events_per_task)).
    pub max_stream_events: usize,
    /// `--keep-alive`.
    pub keep_alive: Duration,
    /// Not `--quiet`.
    pub log: bool,
    /// `--signing-key`, read and checked.
    pub signing_key: Option<Jwk>,
    /// `--jwks-path`.
    pub jwks_path: String,
    /// `--v0-3`: serve A2A 0.3 too.
    pub v0_3: bool,
    /// `--store`: a PostgreSQL URL; `None` keeps tasks in memory.
    pub store: Option<String>,
    /// `--lease`: the PostgreSQL store's lease.
    pub lease: Duration,
    /// `--fire-and-forget`: the 0.3 TCK's contract.
    pub fire_and_forget: bool,
    /// `--metrics`: serve `/metrics`.
    pub metrics: bool,
    /// `--trace`: spans on stderr.
    pub trace: bool,
    /// `--rate-limit`: calls per second per caller.
    pub rate_limit: Option<u32>,
    /// `--rate-limit-burst`: the bucket size (default the rate).
    pub rate_limit_burst: Option<u32>,
    /// `--draft-1-1`: serve the A2A 1.1 draft too.
    #[cfg(feature = "draft-1-1")]
    pub draft_1_1: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            listen: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 8080),
            host: None,
            public_url: None,
            bearer_tokens: Vec::new(),
            push_allow: Vec::new(),
            jwt: Default::default(),
            max_tasks: 10_000,
            max_store_bytes: 32 << 20,
            max_tasks_per_owner: 2_500,
            max_bytes_per_owner: 8 << 20,
            max_running_tasks: 256,
            max_running_bytes: 64 << 20,
            task_ttl: Duration::from_secs(3600),
            max_stream_events: 256,
            keep_alive: Duration::from_secs(15),
            log: true,
            signing_key: None,
            jwks_path: DEFAULT_JWKS_PATH.to_owned(),
            v0_3: false,
            store: None,
            lease: Duration::from_secs(30),
            fire_and_forget: false,
            metrics: false,
            trace: false,
            rate_limit: None,
            rate_limit_burst: None,
            #[cfg(feature = "draft-1-1")]
            draft_1_1: false,
        }
    }
}

/// What parsing the command line gave.
#[derive(Debug, PartialEq)]
pub enum Parsed {
    /// Run with these options (boxed: they are large beside `Help`).
    Run(Box<Options>),
    /// Print [`USAGE`] and exit.
    Help,
}

impl Options {
    /// Parses the arguments (without the program name).
    pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Parsed, String> {
        let mut o = Options::default();
        let mut port = None;
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
            match flag.as_str() {
                "-h" | "--help" => return Ok(Parsed::Help),
                "--port" => port = Some(number::<u16>("--port", &value("--port")?)?),
                "--listen" => {
                    let v = value("--listen")?;
                    o.listen = match v.parse::<SocketAddr>() {
                        Ok(addr) => addr,
                        Err(_) => SocketAddr::new(
                            v.trim_start_matches('[')
                                .trim_end_matches(']')
                                .parse()
                                .map_err(|_| {
                                    format!("--listen {v:?} is not an IP address or IP:port")
                                })?,
                            o.listen.port(),
                        ),
                    };
                }
                "--host" => o.host = Some(value("--host")?),
                "--public-url" => {
                    o.public_url = Some(value("--public-url")?.trim_end_matches('/').to_owned())
                }
                "--bearer" => {
                    let token = value("--bearer")?;
                    if token.is_empty() {
                        return Err("--bearer needs a non-empty token".to_owned());
                    }
                    o.bearer_tokens.push(token);
                }
                f if crate::jwt::FLAGS.contains(&f) => {
                    let v = value(f)?;
                    o.jwt.set(f, v)?;
                }
                "--push-allow" => {
                    let entry = value("--push-allow")?;
                    Allowlist::new()
                        .allow(&entry)
                        .map_err(|e| format!("--push-allow: {e}"))?;
                    o.push_allow.push(entry);
                }
                "--max-tasks" => o.max_tasks = number("--max-tasks", &value("--max-tasks")?)?,
                "--max-store-mb" => {
                    let mb: usize = number("--max-store-mb", &value("--max-store-mb")?)?;
                    o.max_store_bytes = mb.saturating_mul(1 << 20);
                }
                "--max-tasks-per-owner" => {
                    o.max_tasks_per_owner =
                        number("--max-tasks-per-owner", &value("--max-tasks-per-owner")?)?
                }
                "--max-owner-mb" => {
                    let mb: usize = number("--max-owner-mb", &value("--max-owner-mb")?)?;
                    o.max_bytes_per_owner = mb.saturating_mul(1 << 20);
                }
                "--max-running" => {
                    o.max_running_tasks = number("--max-running", &value("--max-running")?)?
                }
                "--max-running-mb" => {
                    let mb: usize = number("--max-running-mb", &value("--max-running-mb")?)?;
                    o.max_running_bytes = mb.saturating_mul(1 << 20);
                }
                "--task-ttl" => {
                    o.task_ttl = Duration::from_secs(number("--task-ttl", &value("--task-ttl")?)?)
                }
                "--max-stream-events" => {
                    o.max_stream_events =
                        number("--max-stream-events", &value("--max-stream-events")?)?
                }
                "--keep-alive" => {
                    o.keep_alive =
                        Duration::from_secs(number("--keep-alive", &value("--keep-alive")?)?)
                }
                "--quiet" => o.log = false,
                "--v0-3" => o.v0_3 = true,
                "--fire-and-forget" => o.fire_and_forget = true,
                "--metrics" => o.metrics = true,
                "--trace" => o.trace = true,
                "--rate-limit" => {
                    let rate: u32 = number("--rate-limit", &value("--rate-limit")?)?;
                    if rate == 0 {
                        return Err("--rate-limit must be at least 1".to_owned());
                    }
                    o.rate_limit = Some(rate);
                }
                "--rate-limit-burst" => {
                    let burst: u32 = number("--rate-limit-burst", &value("--rate-limit-burst")?)?;
                    if burst == 0 {
                        return Err("--rate-limit-burst must be at least 1".to_owned());
                    }
                    o.rate_limit_burst = Some(burst);
                }
                #[cfg(feature = "draft-1-1")]
                "--draft-1-1" => o.draft_1_1 = true,
                "--lease" => {
                    o.lease = Duration::from_secs(number("--lease", &value("--lease")?)?);
                    if o.lease.is_zero() {
                        return Err("--lease must be at least 1".to_owned());
                    }
                }
                "--store" => {
                    let url = value("--store")?;
                    o.store = match url.as_str() {
                        "memory" => None,
                        u if u.starts_with("postgres://") || u.starts_with("postgresql://") => {
                            Some(url)
                        }
                        _ => {
                            return Err(format!("--store {url:?}: use memory or a postgres:// URL"))
                        }
                    };
                }
                "--signing-key" => {
                    let path = value("--signing-key")?;
                    let text =
                        std::fs::read(&path).map_err(|e| format!("--signing-key {path}: {e}"))?;
                    let jwk =
                        Jwk::from_json(&text).map_err(|e| format!("--signing-key {path}: {e}"))?;
                    if jwk.kid.as_deref().is_none_or(str::is_empty) {
                        return Err(format!(
                            "--signing-key {path}: the JWK needs a \"kid\" (spec 8.4.2)"
                        ));
                    }
                    let key = SigningKey::from_jwk(&jwk, None)
                        .map_err(|e| format!("--signing-key {path}: {e}"))?;
                    let jwk = with_public_members(jwk, &key);
                    o.signing_key = Some(jwk);
                }
                "--jwks-path" => {
                    let path = value("--jwks-path")?;
                    if !path.starts_with('/') || path == AGENT_CARD_PATH {
                        return Err(format!(
                            "--jwks-path {path:?} must start with '/' and not be the card's path"
                        ));
                    }
                    o.jwks_path = path;
                }
                other => return Err(format!("unknown argument {other:?} (see --help)")),
            }
        }
        if let Some(port) = port {
            o.listen.set_port(port);
        }
        o.jwt.check()?;
        if o.max_tasks == 0 {
            return Err("--max-tasks must be at least 1".to_owned());
        }
        if o.max_tasks_per_owner == 0 || o.max_running_tasks == 0 {
            return Err("--max-tasks-per-owner and --max-running must be at least 1".to_owned());
        }
        if o.max_stream_events == 0 {
            return Err("--max-stream-events must be at least 1".to_owned());
        }
        if o.v0_3 && o.signing_key.is_some() {
            // A signature covers the card's 1.0 form; the union card's 0.3
            // members would make every 1.0 verifier refuse it.
            return Err("--v0-3 cannot be combined with --signing-key".to_owned());
        }
        Ok(Parsed::Run(Box::new(o)))
    }

    /// The base URL the card advertises when the server listens on `bound`.
    pub fn base_url(&self, bound: SocketAddr) -> String {
        if let Some(url) = &self.public_url {
            return url.clone();
        }
        let host = match &self.host {
            Some(h) => h.clone(),
            None => match bound.ip() {
                ip if ip.is_unspecified() => "localhost".to_owned(),
                IpAddr::V6(v6) => format!("[{v6}]"),
                ip => ip.to_string(),
            },
        };
        format!("http://{host}:{}", bound.port())
    }

    /// The card signer `--signing-key` asks for, naming the JWKS at
    /// `--jwks-path` under the base URL as its `jku`.
    pub fn signer(&self, bound: SocketAddr) -> Result<Option<CardSigner>, String> {
        let Some(jwk) = &self.signing_key else {
            return Ok(None);
        };
        let key = SigningKey::from_jwk(jwk, None).map_err(|e| format!("--signing-key: {e}"))?;
        let kid = jwk.kid.clone().unwrap_or_default();
        let jku = format!("{}{}", self.base_url(bound), self.jwks_path);
        Ok(Some(CardSigner::new(key, kid).with_jku(jku)))
    }

    /// The public JWKS of `--signing-key`.
    pub fn jwks(&self) -> Option<JwkSet> {
        self.signing_key
            .as_ref()
            .map(|jwk| JwkSet::new([jwk.public()]))
    }

    /// The webhook allowlist.
    pub fn allowlist(&self) -> Allowlist {
        let mut allow = Allowlist::new();
        for entry in &self.push_allow {
            // Checked by `parse`.
            let _ = allow.allow(entry);
        }
        allow
    }

    /// The agent, behind the server, for a listener bound to `bound`:
    /// JSON-RPC at `/`, HTTP+JSON at the root of the base URL and gRPC
    /// (HTTP/2 with prior knowledge on the same port), the
    /// card at `/.well-known/agent-card.json`, bearer authentication when
    /// tokens were given, push delivery over HTTP, SSE keep-alive comments
    /// every `--keep-alive` of quiet.
    pub fn server(&self, bound: SocketAddr) -> Result<Arc<A2aServer<ReferenceAgent>>, String> {
        self.server_on(bound, None)
    }

    /// The store `--store` names, connected (its migrations applied):
    /// `None` for memory.
    pub async fn connect_store(&self) -> Result<Option<Arc<dyn TaskStore>>, String> {
        let Some(url) = &self.store else {
            return Ok(None);
        };
        let mut options = PgOptions::default()
            .with_task_ttl(Some(self.task_ttl))
            .with_lease(Some(self.lease));
        options.max_events_per_task = self.max_stream_events;
        let store = PgTaskStore::connect(url, options)
            .await
            .map_err(|e| format!("--store: {e}"))?;
        Ok(Some(Arc::new(store)))
    }

    /// [`server`](Self::server) with its tasks in `store` (`None`: in
    /// memory, bounded by the options).
    pub fn server_on(
        &self,
        bound: SocketAddr,
        store: Option<Arc<dyn TaskStore>>,
    ) -> Result<Arc<A2aServer<ReferenceAgent>>, String> {
        let base = self.base_url(bound);
        let mut interfaces = vec![
            AgentInterface::new(format!("{base}/"), "JSONRPC", "1.0"),
            AgentInterface::new(base.clone(), "HTTP+JSON", "1.0"),
            // gRPC clients dial the authority: h2c on the same port,
            // advertised as `host:port` (see `grpc_address`).
            AgentInterface::new(grpc_address(&base), "GRPC", "1.0"),
        ];
        if self.v0_3 {
            interfaces.extend(crate::card::v0_3_interfaces(&format!("{base}/"), &base));
        }
        #[cfg(feature = "draft-1-1")]
        if self.draft_1_1 {
            interfaces.extend(crate::card::v1_1_interfaces(
                &format!("{base}/"),
                &base,
                &grpc_address(&base),
            ));
        }
        let mut config = AgentConfig::default()
            .with_interfaces(interfaces)
            .with_push_allowlist(self.allowlist());
        config.limits.max_tasks = self.max_tasks;
        config.limits.max_store_bytes = self.max_store_bytes;
        config.limits.max_tasks_per_owner = self.max_tasks_per_owner;
        config.limits.max_bytes_per_owner = self.max_bytes_per_owner;
        config.limits.max_running_tasks = self.max_running_tasks;
        config.limits.max_running_bytes = self.max_running_bytes;
        config.limits.task_ttl = self.task_ttl;
        config.limits.max_events_per_task = self.max_stream_events;
        config.fire_and_forget = self.fire_and_forget;
        config.metrics = self.metrics;
        if self.trace {
            config.tracer = Some(Arc::new(a2a_transport::trace::TracingTracer::new()));
        }
        let mut auth = None;
        if !self.bearer_tokens.is_empty() || self.jwt.enabled() {
            config = config.with_bearer_scheme("bearer");
        }
        if self.jwt.enabled() {
            config.bearer_format = "JWT".to_owned();
        }
        if !self.bearer_tokens.is_empty() {
            let mut bearer = BearerAuth::new("bearer");
            for (i, token) in self.bearer_tokens.iter().enumerate() {
                bearer = bearer.with_token(token.clone(), format!("caller-{}", i + 1));
            }
            auth = Some(bearer);
        }
        let sender = Arc::new(HttpPushSender::new(self.allowlist()));
        let observer: Option<crate::push::PushObserver> = if self.log {
            Some(Arc::new(|config, outcome| {
                eprintln!(
                    "push {} for task {}: {outcome:?}",
                    config.url, config.task_id
                );
            }))
        } else {
            None
        };
        let agent = match (store, observer) {
            (Some(store), observer) => ReferenceAgent::on_store(config, sender, observer, store),
            (None, Some(observer)) => ReferenceAgent::with_push_observer(config, sender, observer),
            (None, None) => ReferenceAgent::new(config, sender),
        };
        let mut card = agent.agent_card().clone();
        if let Some(signer) = self.signer(bound)? {
            // Signed once, before the server serializes the card: the
            // card resource's ETag is computed over the signed bytes.
            card = signer
                .sign_card(card)
                .map_err(|e| format!("cannot sign the card: {e}"))?;
        }
        let mut server_config = agent
            .server_config()
            .with_keep_alive(self.keep_alive, TokioTimer);
        let mut versions = vec![ProtocolVersion::V1_0];
        if self.v0_3 {
            versions.push(ProtocolVersion::V0_3);
        }
        #[cfg(feature = "draft-1-1")]
        if self.draft_1_1 {
            versions.push(ProtocolVersion::V1_1);
        }
        if versions.len() > 1 {
            server_config = server_config.with_versions(versions);
        }
        if let Some(url) = &self.public_url {
            // A proxy forwards `{public url}/...` to this server's `/...`.
            let path = url.parse::<http::Uri>().map(|u| u.path().to_owned());
            server_config = server_config.with_public_path_prefix(path.unwrap_or_default());
        }
        if let Some(limit) = self.rate_limit() {
            server_config = server_config.with_rate_limit(a2a_hyper::rate_limiter(limit));
        }
        match (auth, self.jwt.authenticator("bearer", &card)) {
            (Some(b), Some(j)) => {
                server_config = server_config.with_authenticator(AnyOf::new().with(j).with(b))
            }
            (Some(b), None) => server_config = server_config.with_authenticator(b),
            (None, Some(j)) => server_config = server_config.with_authenticator(j),
            (None, None) => {}
        }
        A2aServer::new(agent, card, server_config)
            .map(Arc::new)
            .map_err(|e| format!("cannot configure the server: {e}"))
    }

    /// The rate limit `--rate-limit` and `--rate-limit-burst` ask for.
    pub fn rate_limit(&self) -> Option<a2a_transport::server::RateLimit> {
        let rate = self.rate_limit?;
        Some(
            a2a_transport::server::RateLimit::per_second(rate)
                .with_burst(self.rate_limit_burst.unwrap_or(rate)),
        )
    }

    /// How the server runs: a request log on stderr unless `--quiet`, and
    /// the JWKS of `--signing-key` at `--jwks-path`, answered before the A2A
    /// server (it belongs to the host, not to the protocol).
    pub fn serve_options(&self) -> Result<ServeOptions, String> {
        // Failed accepts (out of file descriptors) are logged even with
        // --quiet: serve reports them at most once a second.
        let mut options = ServeOptions::default().with_accept_log(|e, n| {
            eprintln!("a2a-reference-agent: accept failed ({n} since the last report): {e}");
        });
        if let Some(jwks) = self.jwks() {
            options = options.with_static(
                self.jwks_path.clone(),
                "application/jwk-set+json",
                jwks.to_public_json(),
            )?;
        }
        Ok(match self.log {
            true => options.with_log(|line| eprintln!("{line}")),
            false => options,
        })
    }
}

impl Options {
    /// [`serve_options`](Self::serve_options) for `server`, with
    /// `/metrics` when `--metrics` asked for it.
    pub fn serve_options_for(
        &self,
        server: &A2aServer<ReferenceAgent>,
    ) -> Result<ServeOptions, String> {
        crate::metrics::endpoint(self.serve_options()?, server.service().prometheus())
    }
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag} {text:?} is not a valid number"))
}

/// The gRPC interface's address for the base URL `base`: its authority
/// as `host:port`, the port explicit (443 for `https`, 80 for `http` when
/// the URL names none). The proto asks for this form ("For gRPC, the
/// address should be in the format `hostname:port`", `AgentInterface.url`),
/// and both official SDK clients hand the URL to their gRPC library as a
/// channel target, which refuses an absolute URL (interop/FINDINGS.md G-1).
/// A base that does not parse is advertised as it is.
pub fn grpc_address(base: &str) -> String {
    let Ok(uri) = base.parse::<http::Uri>() else {
        return base.to_owned();
    };
    let Some(host) = uri.host() else {
        return base.to_owned();
    };
    let port = uri
        .port_u16()
        .unwrap_or(if uri.scheme_str() == Some("https") {
            443
        } else {
            80
        });
    format!("{host}:{port}")
}

/// `jwk` with the public members its private key implies, filled in from
/// `d` where the JWK leaves them out (`x`, `y`; RSA cannot be read without
/// `n` and `e`), so the JWKS published from it holds the key that verifies
/// the card's signature: a JWK of `d` alone published a key nobody could
/// verify with. Members that name another key were refused already by
/// [`SigningKey::from_jwk`].
fn with_public_members(mut jwk: Jwk, key: &SigningKey) -> Jwk {
    let derived = key.verifying_key().to_jwk();
    jwk.x = jwk.x.or(derived.x);
    jwk.y = jwk.y.or(derived.y);
    jwk
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Parsed, String> {
        Options::parse(args.iter().map(|s| (*s).to_owned()))
    }

    fn run(args: &[&str]) -> Options {
        match parse(args) {
            Ok(Parsed::Run(o)) => *o,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn store_is_memory_unless_a_postgres_url_is_given() {
        assert_eq!(run(&[]).store, None);
        assert_eq!(run(&["--store", "memory"]).store, None);
        let url = "postgresql:///a2a?host=/tmp/pg";
        assert_eq!(run(&["--store", url]).store.as_deref(), Some(url));
        assert_eq!(
            run(&["--store", "postgres://u@db/a2a"]).store.as_deref(),
            Some("postgres://u@db/a2a")
        );
        assert!(parse(&["--store", "redis://x"]).is_err());
        assert_eq!(run(&["--lease", "2"]).lease, Duration::from_secs(2));
        assert!(run(&["--fire-and-forget"]).fire_and_forget);
        assert!(!run(&[]).fire_and_forget);
        assert!(parse(&["--lease", "0"]).is_err());
        assert!(parse(&["--store"]).is_err());
    }

    #[test]
    fn rate_limit_is_off_unless_asked_and_the_burst_defaults_to_the_rate() {
        assert_eq!(run(&[]).rate_limit(), None);
        let limit = run(&["--rate-limit", "4"]).rate_limit().unwrap();
        assert_eq!(limit.interval(), Duration::from_millis(250));
        assert_eq!(limit.burst(), 4);
        let limit = run(&["--rate-limit", "4", "--rate-limit-burst", "10"])
            .rate_limit()
            .unwrap();
        assert_eq!(limit.burst(), 10);
        assert!(parse(&["--rate-limit", "0"]).is_err());
        assert!(parse(&["--rate-limit", "x"]).is_err());
        assert!(parse(&["--rate-limit-burst", "0"]).is_err());
        assert!(USAGE.contains("--rate-limit <n>"));
    }

    #[test]
    fn flags() {
        assert_eq!(run(&[]), Options::default());
        let o = run(&[
            "--port",
            "9000",
            "--listen",
            "0.0.0.0",
            "--bearer",
            "t1",
            "--bearer",
            "t2",
            "--push-allow",
            "127.0.0.0/8",
            "--push-allow",
            "hooks.internal",
            "--quiet",
            "--max-tasks",
            "5",
            "--task-ttl",
            "60",
            "--keep-alive",
            "2",
            "--max-stream-events",
            "20000",
        ]);
        assert_eq!(o.listen, "0.0.0.0:9000".parse().unwrap());
        assert_eq!(o.bearer_tokens, ["t1", "t2"]);
        assert_eq!(o.push_allow, ["127.0.0.0/8", "hooks.internal"]);
        assert!(!o.log);
        assert_eq!(
            (o.max_tasks, o.task_ttl, o.keep_alive),
            (5, Duration::from_secs(60), Duration::from_secs(2))
        );
        assert_eq!(o.max_stream_events, 20_000);
        assert_eq!(
            o.server(o.listen)
                .unwrap()
                .service()
                .config()
                .limits
                .max_events_per_task,
            20_000
        );
        assert!(o.allowlist().allows_ip("127.0.0.1".parse().unwrap()));
        assert_eq!(
            run(&["--listen", "[::1]:7000"]).listen,
            "[::1]:7000".parse().unwrap()
        );
        assert_eq!(
            run(&["--listen", "::1", "--port", "1"]).listen,
            "[::1]:1".parse().unwrap()
        );
        assert_eq!(parse(&["--help"]), Ok(Parsed::Help));
    }

    #[test]
    fn errors_name_the_flag() {
        for (args, needle) in [
            (&["--port"][..], "--port needs a value"),
            (&["--port", "99999"][..], "--port"),
            (&["--listen", "nowhere"][..], "--listen"),
            (&["--push-allow", "10.0.0.1/8"][..], "--push-allow"),
            (&["--bearer", ""][..], "--bearer"),
            (&["--max-tasks", "0"][..], "--max-tasks"),
            (&["--max-stream-events", "0"][..], "--max-stream-events"),
            (&["--frobnicate"][..], "unknown argument"),
        ] {
            let err = parse(args).unwrap_err();
            assert!(err.contains(needle), "{args:?}: {err}");
        }
    }

    #[test]
    fn signing_key_signs_the_card_and_serves_the_jwks() {
        let dir = std::env::temp_dir().join(format!("a2a-ref-signing-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let key = SigningKey::generate(a2a_signing::Algorithm::Es256).unwrap();
        let path = dir.join("key.jwk.json");
        std::fs::write(&path, key.private_jwk().with_kid("ref-1").to_json()).unwrap();
        let o = run(&[
            "--signing-key",
            path.to_str().unwrap(),
            "--jwks-path",
            "/keys.json",
        ]);
        let bound: SocketAddr = "127.0.0.1:9".parse().unwrap();
        let server = o.server(bound).unwrap();
        let card = server.card().clone();
        assert_eq!(card.signatures.len(), 1);
        let header = a2a_signing::ProtectedHeader::decode(&card.signatures[0].protected).unwrap();
        assert_eq!(header.kid, "ref-1");
        assert_eq!(header.jku.as_deref(), Some("http://127.0.0.1:9/keys.json"));
        let verifier = a2a_signing::Verifier::new(o.jwks().unwrap(), Default::default());
        let json = a2a_types::json::to_vec(&card).unwrap();
        assert!(verifier.verify_json(&json).is_ok());
        assert!(!o.jwks().unwrap().to_public_json().contains("\"d\""));
        assert!(format!("{:?}", o.serve_options().unwrap()).contains("/keys.json"));
        // A key without kid, an unreadable file, a bad path.
        std::fs::write(&path, key.private_jwk().to_json()).unwrap();
        assert!(parse(&["--signing-key", path.to_str().unwrap()])
            .unwrap_err()
            .contains("kid"));
        assert!(parse(&["--signing-key", "/nonexistent/key"]).is_err());
        assert!(parse(&["--jwks-path", "keys"]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_private_key_alone_publishes_its_derived_public_key() {
        let dir = std::env::temp_dir().join(format!("a2a-ref-d-only-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("key.jwk.json");
        for alg in [
            a2a_signing::Algorithm::Es256,
            a2a_signing::Algorithm::Es384,
            a2a_signing::Algorithm::EdDsa,
        ] {
            let key = SigningKey::generate(alg).unwrap();
            let full = key.private_jwk().with_kid("ref-d");
            // Only d (and what names the key type): no public coordinates.
            let mut d_only = full.clone();
            d_only.x = None;
            d_only.y = None;
            std::fs::write(&path, d_only.to_json()).unwrap();
            let o = run(&["--signing-key", path.to_str().unwrap()]);
            let published = o.jwks().unwrap();
            assert_eq!(published, JwkSet::new([full.public()]), "{alg:?}");
            // The card the agent signs verifies under what it publishes.
            let server = o.server("127.0.0.1:9".parse().unwrap()).unwrap();
            let json = a2a_types::json::to_vec(server.card()).unwrap();
            let verifier = a2a_signing::Verifier::new(published, Default::default());
            assert!(verifier.verify_json(&json).is_ok(), "{alg:?}");
        }
        // Public members of another key are refused at start.
        let key = SigningKey::generate(a2a_signing::Algorithm::Es256).unwrap();
        let other = SigningKey::generate(a2a_signing::Algorithm::Es256).unwrap();
        let mut mixed = key.private_jwk().with_kid("ref-mixed");
        mixed.x = other.public_jwk().x;
        mixed.y = other.public_jwk().y;
        std::fs::write(&path, mixed.to_json()).unwrap();
        let refused = parse(&["--signing-key", path.to_str().unwrap()]).unwrap_err();
        assert!(refused.contains("do not belong"), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn help_names_every_binding_served_and_how_names_are_admitted() {
        // Issue 27 point 9: `--help` said "JSON-RPC and HTTP+JSON" while
        // the agent serves gRPC too, and did not say that a CIDR block
        // admits no name.
        assert!(USAGE.contains("gRPC"), "{USAGE}");
        assert!(USAGE.contains("--push-allow localhost"), "{USAGE}");
    }

    #[test]
    fn advertised_url() {
        let bound: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        assert_eq!(Options::default().base_url(bound), "http://localhost:8080");
        assert_eq!(
            Options::default().base_url("127.0.0.1:1".parse().unwrap()),
            "http://127.0.0.1:1"
        );
        let o = run(&["--host", "agent.example.com"]);
        assert_eq!(o.base_url(bound), "http://agent.example.com:8080");
        let o = run(&["--public-url", "https://agents.example.com/a2a/"]);
        assert_eq!(o.base_url(bound), "https://agents.example.com/a2a");
        let card = o.server(bound).unwrap().card().clone();
        assert_eq!(
            card.supported_interfaces[0].url,
            "https://agents.example.com/a2a/"
        );
        assert_eq!(card.supported_interfaces[1].protocol_binding, "HTTP+JSON");
        assert_eq!(card.supported_interfaces[2].protocol_binding, "GRPC");
        assert_eq!(card.supported_interfaces[2].url, "agents.example.com:443");
        assert_eq!(grpc_address("http://127.0.0.1:8080"), "127.0.0.1:8080");
        assert_eq!(grpc_address("http://[::1]:9"), "[::1]:9");
        assert_eq!(
            grpc_address("http://agent.example.com"),
            "agent.example.com:80"
        );
    }

    #[tokio::test]
    async fn v0_3_serves_0_3_json_rpc_beside_1_0() {
        let bound: SocketAddr = "127.0.0.1:9".parse().unwrap();
        // Off by default: a request without A2A-Version is refused.
        let plain = run(&[]).server(bound).unwrap();
        assert!(plain
            .card()
            .supported_interfaces
            .iter()
            .all(|i| i.protocol_version == "1.0"));
        let o = run(&["--v0-3"]);
        assert!(o.v0_3);
        let server = o.server(bound).unwrap();
        let v03: Vec<&str> = server
            .card()
            .supported_interfaces
            .iter()
            .filter(|i| i.protocol_version == "0.3")
            .map(|i| i.protocol_binding.as_str())
            .collect();
        assert_eq!(v03, ["JSONRPC", "HTTP+JSON"]);
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"echo hi"}]}}}"#;
        let call = || {
            http::Request::post("/")
                .header("content-type", "application/json")
                .body(bytes::Bytes::from_static(body))
                .unwrap()
        };
        let resp = server.handle(call()).await;
        let json = resp.into_body().into_bytes().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(v["result"]["kind"], "task", "{v}");
        let resp = plain.handle(call()).await;
        let json = resp.into_body().into_bytes().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(v["error"]["code"], -32009, "{v}");
        // HTTP+JSON at 0.3: the 0.3 proto's ProtoJSON (`content`).
        let rest = http::Request::post("/v1/message:send")
            .header("content-type", "application/json")
            .body(bytes::Bytes::from_static(
                br#"{"message":{"messageId":"m2","role":"ROLE_USER","content":[{"text":"echo hi"}]},"configuration":{"blocking":true}}"#,
            ))
            .unwrap();
        let resp = server.handle(rest).await;
        assert_eq!(resp.status(), 200);
        let json = resp.into_body().into_bytes().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(v["task"]["status"]["state"], "TASK_STATE_COMPLETED", "{v}");
        assert_eq!(
            v["task"]["history"][0]["content"][0]["text"], "echo hi",
            "{v}"
        );
        // Not with a signed card: the signature would not cover the union card.
        assert!(parse(&["--v0-3", "--signing-key", "/nonexistent"]).is_err());
    }
}
