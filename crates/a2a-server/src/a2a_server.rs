//! [`A2aServer`]: the server entry point and its pipeline (the `server`
//! module's documentation gives the order of checks).

use std::fmt;
use std::sync::Arc;
use std::time::SystemTime;

use a2a_jsonrpc::BatchLimits;
use a2a_types::{
    A2aError, A2aRequest, AgentCard, AgentInterface, ErrorKind, FieldViolation, Validate,
};
use bytes::Bytes;
use http::header::{CONTENT_LENGTH, WWW_AUTHENTICATE};
use http::request::Parts;
use http::{HeaderValue, Method, Request, Response, StatusCode};

use crate::auth::{
    challenges, challenges_with_error, security_required, AuthOutcome, Authenticator, BearerError,
    BearerErrorCode,
};
use crate::body::Body;
use crate::call_span::CallSpan;
use crate::card::{
    AgentCardResource, DEFAULT_CARD_CACHE_CONTROL, DEFAULT_EXTENDED_CARD_CACHE_CONTROL,
};
use crate::gate::{check_capabilities, check_input_modes, required_extensions};
#[cfg(feature = "grpc")]
use crate::grpc_binding;
use crate::keep_alive::KeepAlive;
use crate::linger::Linger;
use crate::metrics::{CallMeter, Metrics};
use crate::pipeline::{next_event, Answer, CallHead, Framed};
use crate::rate_limit::{PeerAddr, RateLimiter};
use crate::unwind::{catch, panicked};
use crate::{jsonrpc_binding, rest_binding};
#[cfg(feature = "grpc")]
use a2a_wire::grpc::SERVICE_NAME;
use a2a_wire::http_json::{BasePathError, RouteError, RouteTable, Router};
use a2a_wire::http_json::{QueryConfig, QueryParams};
use a2a_wire::service_params::{negotiate_version, ProtocolVersion};
use a2a_wire::service_params::{ExtensionLimits, RequestedExtensions};
use a2a_wire::trace::{TraceContext, Tracer};
use a2a_wire::Binding;
use a2a_wire::Timer;
use a2a_wire::AGENT_CARD_PATH;
use a2a_wire::{dispatch, A2aService, BoxFuture, CallContext, Principal};

/// Default for [`ServerConfig::max_body_size`]: 16 MiB, the decoders'
/// default input limit (`a2a_types::DEFAULT_MAX_INPUT_BYTES`).
pub const DEFAULT_MAX_BODY_SIZE: usize = 16 * 1024 * 1024;

/// How an [`A2aServer`] is set up: where each binding lives, the limits,
/// the versions served and the authentication hook.
///
/// ```
/// use a2a_server::{BearerAuth, ServerConfig};
///
/// let config = ServerConfig::new()
///     .with_jsonrpc_path("/rpc")
///     .with_rest_base_path("/v1")
///     .with_max_body_size(1 << 20)
///     .with_authenticator(BearerAuth::new("bearer").with_token("t0k3n", "alice"));
/// assert_eq!(config.max_body_size, 1 << 20);
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ServerConfig {
    /// Path of the JSON-RPC endpoint (spec 9), matched exactly; `None`
    /// turns the binding off. Default `/`.
    pub jsonrpc_path: Option<String>,
    /// Base path of the HTTP+JSON routes (spec 11.3), e.g. `/v1`; `None`
    /// turns the binding off. Default `""` (the root).
    pub rest_base_path: Option<String>,
    /// Whether to serve the card at [`AGENT_CARD_PATH`] (spec 8.2).
    /// Default true.
    pub serve_card: bool,
    /// `Cache-Control` of the card. Default [`DEFAULT_CARD_CACHE_CONTROL`].
    pub card_cache_control: String,
    /// When the card last changed, sent as `Last-Modified` and compared
    /// with `If-Modified-Since` (spec 8.6.1). The host gives it (the core
    /// reads no clock): the time the card was built or its file's
    /// modification time. Default `None`: no `Last-Modified`.
    pub card_last_modified: Option<SystemTime>,
    /// `Cache-Control` of the extended agent card on HTTP+JSON (spec 8.6,
    /// 3.1.11). Default [`DEFAULT_EXTENDED_CARD_CACHE_CONTROL`]: `private`,
    /// since the card depends on who asks.
    pub extended_card_cache_control: String,
    /// Whether a message part whose media type the card does not accept
    /// (`defaultInputModes` and the skills' `inputModes`) is refused with
    /// `ContentTypeNotSupportedError` (spec 3.3.2, 5.4) before the handler
    /// runs. Default false: the card's modes are advice unless the host
    /// asks for the check ([`check_input_modes`](crate::check_input_modes)).
    pub check_input_modes: bool,
    /// Largest request body accepted, in bytes; larger ones answer 413
    /// before being parsed (by `Content-Length` when present). Default
    /// [`DEFAULT_MAX_BODY_SIZE`].
    pub max_body_size: usize,
    /// How much of a body refused with 413 the
    /// `TowerService` still reads, and
    /// discards, before answering on HTTP/1.x, so that a client still
    /// writing reads the 413 instead of a reset. Default
    /// [`Linger::new`]: up to 64 MiB, no time bound (the core reads no
    /// clock; `a2a_hyper::server_config()` adds 2 s).
    pub linger: Linger,
    /// Bounds of a JSON-RPC batch (JSON-RPC 2.0 section 6): at most
    /// [`DEFAULT_MAX_BATCH_LEN`](a2a_jsonrpc::DEFAULT_MAX_BATCH_LEN)
    /// requests in at most
    /// [`DEFAULT_MAX_BATCH_SIZE`](a2a_jsonrpc::DEFAULT_MAX_BATCH_SIZE)
    /// bytes by default; a batch over either answers 413 with one
    /// `-32600`.
    pub batch_limits: BatchLimits,
    /// Longest request path accepted (414). Default
    /// [`Router::DEFAULT_MAX_PATH_LEN`].
    pub max_path_len: usize,
    /// Query string limits (spec 11.5).
    pub query: QueryConfig,
    /// `A2A-Extensions` limits (spec 3.2.6).
    pub extension_limits: ExtensionLimits,
    /// Whether to serve the gRPC binding (spec 10) at
    /// `/lf.a2a.v1.A2AService/{Method}`: requests with a gRPC
    /// `content-type` or under that path (the `grpc` binding's
    /// documentation). Default true with the `grpc` feature: its paths are
    /// the service's own, so it takes nothing from the other bindings; the
    /// host must still carry HTTP/2 and trailers for gRPC clients to reach
    /// it. Without the feature there is no gRPC binding: the default is
    /// false, and true serves nothing more.
    pub grpc: bool,
    /// The protocol versions served (spec 3.6). Default `[1.0]`.
    pub versions: Vec<ProtocolVersion>,
    /// The authentication hook (spec 7.4); `None`: every caller is
    /// anonymous, so a card that requires security refuses everyone.
    pub authenticator: Option<Arc<dyn Authenticator>>,
    /// The realm of `WWW-Authenticate` challenges. Default: the card's
    /// name.
    pub realm: Option<String>,
    /// SSE keep-alive comments in quiet streams ([`KeepAlive`]); `None`
    /// sends none. Default `None`: timing needs the host's clock.
    pub keep_alive: Option<KeepAlive>,
    /// `protocolBinding`s the host serves itself, outside
    /// [`handle`](A2aServer::handle): a custom transport calling
    /// [`serve`](A2aServer::serve) (spec 12), or gRPC. The card may declare
    /// them; their interfaces are not checked against this configuration.
    /// Default: none.
    pub external_bindings: Vec<String>,
    /// The path a proxy in front of the server strips before forwarding
    /// (`/a2a` when clients reach `https://host/a2a/` and the server sees
    /// `/`): the card's interface URLs carry it, the routes do not.
    /// Default `""`.
    pub public_path_prefix: String,
    /// Where the pipeline records its calls and streams
    /// ([`crate::metrics`]). Default `None`: nothing is recorded.
    pub metrics: Option<Metrics>,
    /// The per-caller rate limit, checked right after authentication and
    /// before the request body is decoded (spec 13.4); a caller over it is
    /// answered `RateLimitedError` with its retry delay (429 and
    /// `Retry-After` on HTTP, `RESOURCE_EXHAUSTED` with `RetryInfo` on
    /// gRPC). Default `None`: no limit.
    pub rate_limit: Option<Arc<RateLimiter>>,
    /// Where the pipeline opens a span per call, a child of the caller's
    /// `traceparent` ([`a2a_wire::trace`]). Default `None`: no span; the
    /// caller's trace context still reaches the handler in
    /// [`CallContext::trace`].
    pub tracer: Option<Arc<dyn Tracer>>,
}

impl ServerConfig {
    /// The defaults: JSON-RPC at `/`, HTTP+JSON at the root, the card
    /// served, version 1.0, no authenticator.
    pub fn new() -> ServerConfig {
        ServerConfig {
            jsonrpc_path: Some("/".to_owned()),
            rest_base_path: Some(String::new()),
            serve_card: true,
            card_cache_control: DEFAULT_CARD_CACHE_CONTROL.to_owned(),
            card_last_modified: None,
            extended_card_cache_control: DEFAULT_EXTENDED_CARD_CACHE_CONTROL.to_owned(),
            check_input_modes: false,
            max_body_size: DEFAULT_MAX_BODY_SIZE,
            linger: Linger::new(),
            batch_limits: BatchLimits::new(),
            max_path_len: Router::DEFAULT_MAX_PATH_LEN,
            query: QueryConfig::new(),
            extension_limits: ExtensionLimits::new(),
            grpc: cfg!(feature = "grpc"),
            versions: vec![ProtocolVersion::V1_0],
            authenticator: None,
            realm: None,
            keep_alive: None,
            external_bindings: Vec::new(),
            public_path_prefix: String::new(),
            metrics: None,
            rate_limit: None,
            tracer: None,
        }
    }

    /// Serves JSON-RPC at `path`.
    pub fn with_jsonrpc_path(mut self, path: impl Into<String>) -> ServerConfig {
        self.jsonrpc_path = Some(path.into());
        self
    }

    /// Turns the JSON-RPC binding off.
    pub fn without_jsonrpc(mut self) -> ServerConfig {
        self.jsonrpc_path = None;
        self
    }

    /// Serves HTTP+JSON under `base_path`.
    pub fn with_rest_base_path(mut self, base_path: impl Into<String>) -> ServerConfig {
        self.rest_base_path = Some(base_path.into());
        self
    }

    /// Turns the HTTP+JSON binding off.
    pub fn without_rest(mut self) -> ServerConfig {
        self.rest_base_path = None;
        self
    }

    /// Turns the gRPC binding off (requests to its paths then go to the
    /// other bindings, which answer 404 or 415).
    pub fn without_grpc(mut self) -> ServerConfig {
        self.grpc = false;
        self
    }

    /// Does not serve the card (the host serves it elsewhere).
    pub fn without_card(mut self) -> ServerConfig {
        self.serve_card = false;
        self
    }

    /// Sets the card's `Cache-Control`.
    pub fn with_card_cache_control(mut self, value: impl Into<String>) -> ServerConfig {
        self.card_cache_control = value.into();
        self
    }

    /// Sets when the card last changed (`Last-Modified`).
    pub fn with_card_last_modified(mut self, at: SystemTime) -> ServerConfig {
        self.card_last_modified = Some(at);
        self
    }

    /// Sets the extended card's `Cache-Control`.
    pub fn with_extended_card_cache_control(mut self, value: impl Into<String>) -> ServerConfig {
        self.extended_card_cache_control = value.into();
        self
    }

    /// Refuses message parts whose media type the card does not accept.
    pub fn with_input_mode_check(mut self, on: bool) -> ServerConfig {
        self.check_input_modes = on;
        self
    }

    /// Sets the body size limit.
    pub fn with_max_body_size(mut self, max: usize) -> ServerConfig {
        self.max_body_size = max;
        self
    }

    /// Sets how a body refused with 413 is read on (see
    /// [`linger`](ServerConfig::linger)).
    pub fn with_linger(mut self, linger: Linger) -> ServerConfig {
        self.linger = linger;
        self
    }

    /// Sets the JSON-RPC batch limits.
    pub fn with_batch_limits(mut self, limits: BatchLimits) -> ServerConfig {
        self.batch_limits = limits;
        self
    }

    /// Sets the path length limit.
    pub fn with_max_path_len(mut self, max: usize) -> ServerConfig {
        self.max_path_len = max;
        self
    }

    /// Sets the query string limits.
    pub fn with_query_config(mut self, query: QueryConfig) -> ServerConfig {
        self.query = query;
        self
    }

    /// Sets the `A2A-Extensions` limits.
    pub fn with_extension_limits(mut self, limits: ExtensionLimits) -> ServerConfig {
        self.extension_limits = limits;
        self
    }

    /// Sets the versions served.
    pub fn with_versions(
        mut self,
        versions: impl IntoIterator<Item = ProtocolVersion>,
    ) -> ServerConfig {
        self.versions = versions.into_iter().collect();
        self
    }

    /// Sets the authenticator.
    pub fn with_authenticator(
        mut self,
        authenticator: impl Authenticator + 'static,
    ) -> ServerConfig {
        self.authenticator = Some(Arc::new(authenticator));
        self
    }

    /// Sets the challenge realm.
    pub fn with_realm(mut self, realm: impl Into<String>) -> ServerConfig {
        self.realm = Some(realm.into());
        self
    }

    /// Sends a keep-alive comment in every streaming response after each
    /// `interval` in which no event went out, timed by the host's `timer`
    /// (see [`KeepAlive`]).
    pub fn with_keep_alive(
        mut self,
        interval: std::time::Duration,
        timer: impl Timer + 'static,
    ) -> ServerConfig {
        self.keep_alive = Some(KeepAlive::new(interval, timer));
        self
    }

    /// Sets the path a proxy strips (see
    /// [`public_path_prefix`](ServerConfig::public_path_prefix)); a final
    /// `/` is ignored.
    pub fn with_public_path_prefix(mut self, prefix: impl Into<String>) -> ServerConfig {
        self.public_path_prefix = prefix.into().trim_end_matches('/').to_owned();
        self
    }

    /// Declares a `protocolBinding` the host serves itself (see
    /// [`external_bindings`](ServerConfig::external_bindings)).
    pub fn with_external_binding(mut self, protocol_binding: impl Into<String>) -> ServerConfig {
        self.external_bindings.push(protocol_binding.into());
        self
    }

    /// Records every call the pipeline runs, and its streams, in
    /// `metrics` (see [`crate::metrics`]).
    pub fn with_metrics(mut self, metrics: Metrics) -> ServerConfig {
        self.metrics = Some(metrics);
        self
    }

    /// Opens a span per call on `tracer` (see
    /// [`tracer`](ServerConfig::tracer)).
    pub fn with_tracer(mut self, tracer: Arc<dyn Tracer>) -> ServerConfig {
        self.tracer = Some(tracer);
        self
    }

    /// Limits each caller's calls with `limiter` (see
    /// [`rate_limit`](ServerConfig::rate_limit)).
    pub fn with_rate_limit(mut self, limiter: RateLimiter) -> ServerConfig {
        self.rate_limit = Some(Arc::new(limiter));
        self
    }
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig::new()
    }
}

impl fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerConfig")
            .field("jsonrpc_path", &self.jsonrpc_path)
            .field("rest_base_path", &self.rest_base_path)
            .field("serve_card", &self.serve_card)
            .field("card_cache_control", &self.card_cache_control)
            .field("card_last_modified", &self.card_last_modified)
            .field(
                "extended_card_cache_control",
                &self.extended_card_cache_control,
            )
            .field("check_input_modes", &self.check_input_modes)
            .field("max_body_size", &self.max_body_size)
            .field("linger", &self.linger)
            .field("batch_limits", &self.batch_limits)
            .field("max_path_len", &self.max_path_len)
            .field("query", &self.query)
            .field("extension_limits", &self.extension_limits)
            .field("grpc", &self.grpc)
            .field("versions", &self.versions)
            .field("authenticator", &self.authenticator.as_ref().map(|_| ".."))
            .field("realm", &self.realm)
            .field("keep_alive", &self.keep_alive)
            .field("external_bindings", &self.external_bindings)
            .field("public_path_prefix", &self.public_path_prefix)
            .field("metrics", &self.metrics)
            .field("rate_limit", &self.rate_limit)
            .field("tracer", &self.tracer.as_ref().map(|_| ".."))
            .finish()
    }
}

/// Why an [`A2aServer`] could not be built from its configuration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The HTTP+JSON base path is not a valid path prefix.
    #[error(transparent)]
    RestBasePath(#[from] BasePathError),
    /// The JSON-RPC path is not an absolute path.
    #[error("invalid JSON-RPC path {path:?}: {reason}")]
    JsonRpcPath {
        /// The path given.
        path: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The JSON-RPC path is also an HTTP+JSON route or the card path, which
    /// it would hide.
    #[error("the JSON-RPC path {0:?} is also an HTTP+JSON route or the agent card path")]
    PathClash(String),
    /// No protocol version to serve.
    #[error("the server must serve at least one protocol version")]
    NoVersions,
    /// The card's `Cache-Control` is not a valid header value.
    #[error("invalid Cache-Control value {0:?}")]
    CacheControl(String),
    /// The agent card could not be serialized.
    #[error("the agent card could not be serialized: {0}")]
    Card(String),
    /// The agent card lacks REQUIRED fields (spec 4.4.1): clients would
    /// refuse it at discovery.
    #[error("the agent card is invalid: {}", violations(.0))]
    InvalidCard(Vec<FieldViolation>),
    /// A `supportedInterfaces` entry declares what this server does not
    /// serve (spec 8.3.1: each interface MUST accurately declare its
    /// transport protocol and URL).
    #[error("the agent card declares {protocol_binding} {protocol_version} at {url:?}, which this server does not serve: {reason}")]
    InterfaceNotServed {
        /// The interface's `url`.
        url: String,
        /// Its `protocolBinding`.
        protocol_binding: String,
        /// Its `protocolVersion`.
        protocol_version: String,
        /// What does not match the configuration.
        reason: String,
    },
    /// The server is configured for the 1.1 draft but the card declares no
    /// 1.1 interface: 1.1 is accepted only where an interface declares it.
    #[cfg(feature = "draft-1-1")]
    #[error("the server serves A2A 1.1 but the agent card declares no interface at 1.1")]
    UndeclaredVersion,
}

fn violations(v: &[FieldViolation]) -> String {
    let parts: Vec<String> = v
        .iter()
        .map(|v| format!("{}: {}", v.field, v.description))
        .collect();
    parts.join("; ")
}

/// An A2A server over `service`: the pure function
/// [`handle`](A2aServer::handle) from a request to a response, for the
/// agent card (spec 8.2), JSON-RPC (spec 9) and HTTP+JSON (spec 11).
///
/// The module documentation gives the order of checks and the decisions.
/// The server holds no state besides its configuration; share it across
/// connections (`Arc<A2aServer<S>>`).
///
/// ```
/// use a2a_server::{A2aServer, A2aService, ServerConfig};
/// use a2a_types::{AgentCard, AgentInterface};
/// use bytes::Bytes;
///
/// struct Agent;
/// impl A2aService for Agent {}
///
/// let card: AgentCard = a2a_types::from_slice(br#"{
///     "name": "Agent", "description": "Answers questions", "version": "1.0.0",
///     "supportedInterfaces": [{"url": "https://agent.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
///         {"url": "https://agent.example/", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}],
///     "capabilities": {},
///     "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
///     "skills": [{"id": "qa", "name": "Q&A", "description": "Answers", "tags": ["qa"]}]
/// }"#)?;
/// let server = A2aServer::new(Agent, card, ServerConfig::new())?;
///
/// let request = http::Request::get("/.well-known/agent-card.json").body(Bytes::new())?;
/// let response = block_on(server.handle(request));
/// assert_eq!(response.status(), 200);
///
/// let request = http::Request::get("/tasks/t-1")
///     .header("a2a-version", "1.0")
///     .body(Bytes::new())?;
/// let response = block_on(server.handle(request));
/// // The default handler answers UnsupportedOperationError.
/// assert_eq!(response.status(), 400);
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct A2aServer<S> {
    service: S,
    card: AgentCard,
    card_resource: AgentCardResource,
    extended_card_cache_control: HeaderValue,
    config: ServerConfig,
    router: Option<Router>,
    /// The 0.3 routes (0.3 spec 3.5.6) under the same base path, when
    /// the server serves 0.3.
    router_v03: Option<Router>,
    challenges: Vec<HeaderValue>,
}

impl<S> fmt::Debug for A2aServer<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("A2aServer")
            .field("card", &self.card.name)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl<S: A2aService> A2aServer<S> {
    /// A server for `service`, publishing `card` (the public agent card,
    /// also the source of the capability gates, the required extensions
    /// and the authentication challenges).
    ///
    /// # Errors
    ///
    /// A base path or JSON-RPC path that is not a valid absolute path, a
    /// JSON-RPC path that would hide a route or the card, no version to
    /// serve, an invalid `Cache-Control` value; a card that lacks REQUIRED
    /// fields ([`ConfigError::InvalidCard`]) or declares an interface this
    /// server does not serve ([`ConfigError::InterfaceNotServed`]: each
    /// entry must name a binding this server serves, at the path it serves
    /// it, in a version it serves; scheme and host are not checked, a proxy
    /// may stand in front).
    pub fn new(
        service: S,
        card: AgentCard,
        config: ServerConfig,
    ) -> Result<A2aServer<S>, ConfigError> {
        if let Some(path) = &config.jsonrpc_path {
            check_jsonrpc_path(path)?;
        }
        let router = match &config.rest_base_path {
            Some(base) => {
                Some(Router::with_base_path(base)?.with_max_path_len(config.max_path_len))
            }
            None => None,
        };
        let router_v03 = router
            .as_ref()
            .filter(|_| config.versions.contains(&ProtocolVersion::V0_3))
            .map(|r| r.clone().with_table(RouteTable::V0_3));
        if let Some(path) = &config.jsonrpc_path {
            // The JSON-RPC path is matched first: it must not hide a route.
            for router in router.iter().chain(&router_v03) {
                if !matches!(
                    router.match_route(&Method::POST, path),
                    Err(RouteError::NotFound | RouteError::PathTooLong { .. })
                ) {
                    return Err(ConfigError::PathClash(path.clone()));
                }
            }
        }
        #[cfg(feature = "grpc")]
        if config.grpc {
            // The gRPC paths are matched first: they must not hide another binding.
            let service = format!("/{SERVICE_NAME}");
            let under = |p: &str| {
                p.strip_prefix(service.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            };
            for path in [&config.jsonrpc_path, &config.rest_base_path]
                .into_iter()
                .flatten()
            {
                if under(path) {
                    return Err(ConfigError::PathClash(path.clone()));
                }
            }
        }
        if config.serve_card && config.jsonrpc_path.as_deref() == Some(AGENT_CARD_PATH) {
            return Err(ConfigError::PathClash(AGENT_CARD_PATH.to_owned()));
        }
        if config.versions.is_empty() {
            return Err(ConfigError::NoVersions);
        }
        card.validate().map_err(ConfigError::InvalidCard)?;
        for interface in &card.supported_interfaces {
            check_interface(&config, interface)?;
        }
        #[cfg(feature = "draft-1-1")]
        if config.versions.contains(&ProtocolVersion::V1_1)
            && !card.supported_interfaces.iter().any(|i| {
                ProtocolVersion::parse(i.protocol_version.trim()) == Ok(ProtocolVersion::V1_1)
            })
        {
            return Err(ConfigError::UndeclaredVersion);
        }
        let cache_control = HeaderValue::from_str(&config.card_cache_control)
            .map_err(|_| ConfigError::CacheControl(config.card_cache_control.clone()))?;
        // Serving 0.3 too, the card is the union card 0.3 clients read.
        let card_resource = if config.versions.contains(&ProtocolVersion::V0_3) {
            AgentCardResource::new_with_v0_3(&card)
        } else {
            AgentCardResource::new(&card)
        };
        let mut card_resource = card_resource
            .map_err(|e| ConfigError::Card(e.to_string()))?
            .with_cache_control(cache_control);
        if let Some(at) = config.card_last_modified {
            card_resource = card_resource.with_last_modified(at);
        }
        let extended_card_cache_control =
            HeaderValue::from_str(&config.extended_card_cache_control).map_err(|_| {
                ConfigError::CacheControl(config.extended_card_cache_control.clone())
            })?;
        let challenges = challenges(&card, &realm(&config, &card));
        Ok(A2aServer {
            service,
            card,
            card_resource,
            extended_card_cache_control,
            config,
            router,
            router_v03,
            challenges,
        })
    }

    /// The handler.
    pub fn service(&self) -> &S {
        &self.service
    }

    /// The public agent card.
    pub fn card(&self) -> &AgentCard {
        &self.card
    }

    /// The served card resource (bytes and `ETag`).
    pub fn card_resource(&self) -> &AgentCardResource {
        &self.card_resource
    }

    /// The configuration.
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// The `WWW-Authenticate` challenges sent with a 401.
    pub fn challenges(&self) -> &[HeaderValue] {
        &self.challenges
    }

    /// Checks a request's head before its body is read: an over-long path
    /// (414), a `Content-Length` over [`ServerConfig::max_body_size`] (413)
    /// or a malformed one (400). A host calls it to refuse a body it would
    /// otherwise buffer; [`handle`](A2aServer::handle) calls it too.
    /// `None` when the request may go on.
    pub fn check_head(&self, head: &Parts) -> Option<Response<Body>> {
        let binding = self.binding_for(head);
        let path_len = head.uri.path().len();
        if path_len > self.config.max_path_len {
            let err = A2aError::new(
                ErrorKind::InvalidRequest,
                format!(
                    "request path is {path_len} bytes, over the limit of {}",
                    self.config.max_path_len
                ),
            );
            return Some(self.transport_error(head, binding, &err, StatusCode::URI_TOO_LONG));
        }
        match content_length(head) {
            Ok(Some(len)) if len > self.config.max_body_size as u64 => Some(self.transport_error(
                head,
                binding,
                &self.too_large(len),
                StatusCode::PAYLOAD_TOO_LARGE,
            )),
            Ok(_) => None,
            Err(err) => Some(self.transport_error(head, binding, &err, StatusCode::BAD_REQUEST)),
        }
    }

    /// Answers one HTTP request: the card, or a call on one of the
    /// bindings driven through [`serve`](A2aServer::serve). Never panics,
    /// and every error response carries the binding's error body. A
    /// streaming answer's body is a [`Body::Stream`] of SSE frames; the
    /// host writes them as they come (with keep-alive comments when
    /// [`ServerConfig::keep_alive`] is set).
    pub fn handle(&self, request: Request<Bytes>) -> BoxFuture<'_, Response<Body>> {
        Box::pin(async move {
            let (head, body) = request.into_parts();
            if let Some(refused) = self.check_head(&head) {
                return refused;
            }
            let path = head.uri.path();
            #[cfg(feature = "grpc")]
            if self.grpc_request(&head) {
                if body.len() > self.config.max_body_size {
                    let err = self.too_large(body.len() as u64);
                    return self.transport_error(
                        &head,
                        Binding::Grpc,
                        &err,
                        StatusCode::PAYLOAD_TOO_LARGE,
                    );
                }
                return match grpc_binding::frame(
                    &head,
                    &body,
                    self.config.max_body_size,
                    &self.challenges,
                ) {
                    Ok(call) => self.run(call, Binding::Grpc, None).await,
                    Err(refused) => refused,
                };
            }
            if body.len() > self.config.max_body_size {
                let err = self.too_large(body.len() as u64);
                return self.transport_error(
                    &head,
                    self.binding_for(&head),
                    &err,
                    StatusCode::PAYLOAD_TOO_LARGE,
                );
            }
            if self.config.serve_card && path == AGENT_CARD_PATH {
                return self.card_resource.respond(&head.method, &head.headers);
            }
            let query = QueryParams::parse_with(head.uri.query().unwrap_or(""), &self.config.query);
            if self.config.jsonrpc_path.as_deref() == Some(path) {
                return match jsonrpc_binding::frame(
                    &head,
                    &body,
                    &query,
                    &self.challenges,
                    self.config.keep_alive.as_ref(),
                ) {
                    Ok(jsonrpc_binding::Frame::Call(call)) => {
                        self.run(call, Binding::JsonRpc, None).await
                    }
                    Ok(jsonrpc_binding::Frame::Batch(batch)) => self.run_batch(batch).await,
                    Err(refused) => refused,
                };
            }
            match &self.router {
                Some(router) => {
                    let options = rest_binding::Options {
                        max_body_size: self.config.max_body_size,
                        keep_alive: self.config.keep_alive.as_ref(),
                        extended_card_cache_control: self.extended_card_cache_control.clone(),
                    };
                    // Negotiated here once: the result picks the route
                    // table and is what admission answers.
                    let negotiated = negotiate_version(
                        &self.config.versions,
                        &head.headers,
                        query.as_ref().ok(),
                    );
                    let routers = rest_binding::Routers {
                        v1_0: router,
                        v0_3: self.router_v03.as_ref(),
                        asked: negotiated.as_ref().ok().copied(),
                    };
                    match rest_binding::frame(
                        routers,
                        &head,
                        &body,
                        &query,
                        &self.challenges,
                        options,
                    ) {
                        Ok(call) => self.run(call, Binding::HttpJson, Some(negotiated)).await,
                        Err(refused) => refused,
                    }
                }
                None => {
                    let err =
                        A2aError::new(ErrorKind::MethodNotFound, "no A2A endpoint at this path");
                    self.transport_error(&head, Binding::JsonRpc, &err, StatusCode::NOT_FOUND)
                }
            }
        })
    }

    /// Drives one framed request through the pipeline; `negotiated` is the
    /// version negotiation's result when framing needed it first.
    async fn run<'a, F: Framed<'a> + Send>(
        &self,
        mut call: F,
        binding: Binding,
        negotiated: Option<Result<ProtocolVersion, A2aError>>,
    ) -> Response<Body> {
        let head = call.head();
        let meter = CallMeter::start(self.config.metrics.as_ref(), Some(binding));
        let span = self.span(Some(binding), &head);
        // The binding decodes and encodes in the version the caller asked
        // for (spec 3.6.2); the checks stay the pipeline's.
        let (answer, version, bearer) = match self.admit(head, &span, negotiated).await {
            Ok(cx) => {
                let version = cx.version;
                let decode = span.decoding(|| call.decode(version));
                (
                    self.proceed(cx, meter.decoding(decode)).await,
                    Some(version),
                    None,
                )
            }
            Err(refused) => (Err(refused.error), None, refused.bearer),
        };
        self.challenged(
            call.respond(span.finish(meter.finish(answer)), version),
            bearer.as_ref(),
        )
    }

    /// Drives a JSON-RPC batch: admitted once, then every element through
    /// steps 5-7 at once, the answers in the batch's order (the `jsonrpc`
    /// binding's docs give the reasons). At most
    /// [`BatchLimits::max_requests`](a2a_jsonrpc::BatchLimits) calls run
    /// together, since that many elements are all a batch may hold.
    async fn run_batch(&self, batch: jsonrpc_binding::JsonRpcBatch<'_>) -> Response<Body> {
        let meter = CallMeter::start(self.config.metrics.as_ref(), Some(Binding::JsonRpc));
        let head = batch.head();
        let span = self.span(Some(Binding::JsonRpc), &head);
        let cx = match self.admit(head, &span, None).await {
            Ok(cx) => cx,
            Err(refused) => {
                let error = span.finish(meter.finish(Err(refused.error))).unwrap_err();
                return self.challenged(batch.refuse(&error), refused.bearer.as_ref());
            }
        };
        drop(meter);
        let elements = match batch.split(&self.config.batch_limits) {
            Ok(elements) => elements,
            Err(refused) => return refused,
        };
        let version = cx.version;
        let (metrics, tracer) = (self.config.metrics.as_ref(), self.config.tracer.as_ref());
        // JSON-RPC 2.0 section 6: a server MAY run a batch's calls as
        // concurrent tasks; four `slow 1000` calls take one second, not four.
        let calls = elements.into_iter().map(|mut element| {
            let mut cx = cx.clone();
            async move {
                let meter = CallMeter::start(metrics, Some(Binding::JsonRpc));
                // Each element is a call of its own, its span a child of
                // the batch's.
                let span = CallSpan::start(tracer, Some(Binding::JsonRpc), cx.trace.clone());
                span.admitted(version);
                cx.trace = span.context();
                let decode = span.decoding(|| element.decode(version));
                let answer = self.proceed(cx, meter.decoding(decode)).await;
                let answer = span.finish(meter.finish(answer));
                element.respond(answer, version)
            }
        });
        let responses = JoinInOrder::new(calls).await;
        span.end_batch(responses.len());
        jsonrpc_binding::JsonRpcBatch::respond(responses)
    }

    /// The pipeline: steps 2-7 of the order of checks, the same for every
    /// binding and for any custom transport.
    ///
    /// `head` carries the service parameters and the credentials; `decode`
    /// reads the typed request, and is called only once the caller is
    /// admitted, so an anonymous caller never makes the server decode a
    /// body. Then the request's REQUIRED fields are validated, its tenant
    /// is put in the [`CallContext`], the card's capability gates are
    /// applied, and the handler is called; for a streaming operation its
    /// first event is awaited, so that an error before it is an ordinary
    /// error. Panics in the authenticator, the handler and the first poll
    /// of its stream are answered as `InternalError`.
    ///
    /// ```
    /// use a2a_server::{A2aServer, Answer, CallHead, ServerConfig};
    /// use a2a_server::A2aService;
    /// use a2a_types::{A2aRequest, AgentCard, ErrorKind, GetTaskRequest};
    /// use http::{Extensions, HeaderMap};
    ///
    /// struct Agent;
    /// impl A2aService for Agent {}
    /// let card: AgentCard = a2a_types::from_slice(br#"{
    ///     "name": "Agent", "description": "Answers questions", "version": "1.0.0",
    ///     "supportedInterfaces": [{"url": "https://agent.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
    ///     "capabilities": {},
    ///     "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
    ///     "skills": [{"id": "qa", "name": "Q&A", "description": "Answers", "tags": ["qa"]}]
    /// }"#)?;
    /// let server = A2aServer::new(Agent, card, ServerConfig::new())?;
    ///
    /// let mut metadata = HeaderMap::new();
    /// metadata.insert("a2a-version", "1.0".parse()?);
    /// let extensions = Extensions::new();
    /// let head = CallHead::new(&metadata, &extensions);
    /// let request = A2aRequest::GetTask(GetTaskRequest { id: "t-1".into(), ..Default::default() });
    /// let answer = block_on(server.serve(head, || Ok(request)));
    /// assert_eq!(answer.unwrap_err().kind(), ErrorKind::UnsupportedOperation);
    ///
    /// // Without A2A-Version the caller speaks 0.3, which is not served.
    /// let empty = HeaderMap::new();
    /// let answer = block_on(server.serve(CallHead::new(&empty, &extensions), || unreachable!()));
    /// assert_eq!(answer.unwrap_err().kind(), ErrorKind::VersionNotSupported);
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// `decode` reads a 1.0 request and its caller encodes a 1.0 answer:
    /// on a server that also accepts 0.3, a 0.3 caller (no `A2A-Version`)
    /// is answered `VersionNotSupportedError` here rather than served with
    /// 1.0 semantics (spec 3.6.2).
    pub async fn serve<F>(&self, head: CallHead<'_>, decode: F) -> Result<Answer, A2aError>
    where
        F: FnOnce() -> Result<A2aRequest, A2aError>,
    {
        let meter = CallMeter::start(self.config.metrics.as_ref(), None);
        let span = self.span(None, &head);
        let answer = match self.admit(head, &span, None).await {
            Ok(cx) => match crate::pipeline::only_1_0(cx.version) {
                Ok(()) => {
                    self.proceed(cx, meter.decoding(span.decoding(decode)))
                        .await
                }
                Err(err) => Err(err),
            },
            Err(refused) => Err(refused.error),
        };
        span.finish(meter.finish(answer))
    }

    /// Steps 5-7 for an admitted caller.
    async fn proceed<F>(&self, mut cx: CallContext, decode: F) -> Result<Answer, A2aError>
    where
        F: FnOnce() -> Result<A2aRequest, A2aError>,
    {
        #[allow(unused_mut)]
        let mut request = decode()?;
        // A 1.0 caller of a server with the 1.1 draft sees pure 1.0: what
        // it sends and what it gets carry no 1.1 field (spec 3.6).
        #[cfg(feature = "draft-1-1")]
        let pure_1_0 = cx.version < ProtocolVersion::V1_1;
        #[cfg(feature = "draft-1-1")]
        if pure_1_0 {
            a2a_types::draft_1_1::DraftFields::clear_draft_fields(&mut request);
        }
        let mut violations = request.validate();
        violations.extend(request.check_rules());
        if !violations.is_empty() {
            return Err(A2aError::invalid_params(violations));
        }
        let tenant = request.tenant();
        if !tenant.is_empty() {
            cx.tenant = Some(tenant.to_owned());
        }
        check_capabilities(&self.card, &request, cx.principal.as_ref())?;
        if self.config.check_input_modes {
            check_input_modes(&self.card, &request)?;
        }
        #[allow(unused_mut)]
        let mut reply = catch(dispatch(&self.service, &cx, request))
            .await
            .map_err(|()| panicked("handler"))??;
        #[cfg(feature = "draft-1-1")]
        if pure_1_0 {
            a2a_types::draft_1_1::DraftFields::clear_draft_fields(&mut reply);
        }
        match reply {
            a2a_types::Reply::SendStreamingMessage(mut events)
            | a2a_types::Reply::SubscribeToTask(mut events) => {
                match next_event(&mut events).await {
                    Ok(Some(Ok(first))) => Ok(Answer::Stream {
                        first,
                        rest: events,
                        ids: cx.event_ids.clone(),
                    }),
                    Ok(Some(Err(e))) => Err(e),
                    Ok(None) => Ok(Answer::EmptyStream),
                    Err(()) => Err(panicked("event stream")),
                }
            }
            unary => Ok(Answer::Unary(unary)),
        }
    }

    /// The span of a call on `binding` (see [`crate::trace`]).
    fn span(&self, binding: Option<Binding>, head: &CallHead<'_>) -> CallSpan {
        CallSpan::start(
            self.config.tracer.as_ref(),
            binding,
            TraceContext::from_headers(head.metadata()),
        )
    }

    /// Steps 2-4: authentication, version, extensions. The context it
    /// returns has everything but the tenant; its trace is `span`'s.
    async fn admit(
        &self,
        head: CallHead<'_>,
        span: &CallSpan,
        negotiated: Option<Result<ProtocolVersion, A2aError>>,
    ) -> Result<CallContext, Refusal> {
        let principal = self.authenticate(head).await?;
        if let Some(limiter) = &self.config.rate_limit {
            let request = head.auth_request();
            let key = limiter.key(
                principal.as_ref(),
                request.headers,
                request.extensions.get::<PeerAddr>(),
            );
            limiter.check(&key).map_err(A2aError::rate_limited)?;
        }
        let headers = head.metadata();
        let version = match negotiated {
            Some(negotiated) => negotiated?,
            None => negotiate_version(&self.config.versions, headers, head.query())?,
        };
        let requested = RequestedExtensions::from_request(
            headers,
            head.query(),
            &self.config.extension_limits,
        )?;
        requested.require_all(required_extensions(&self.card))?;
        let mut cx = CallContext::new()
            .with_version(version)
            .with_extensions(requested.iter())
            .with_headers(headers.clone());
        cx.principal = principal;
        cx.timeout = head.timeout();
        cx.trace = span.context();
        span.admitted(version);
        Ok(cx)
    }

    async fn authenticate(&self, head: CallHead<'_>) -> Result<Option<Principal>, Refusal> {
        let request = head.auth_request();
        let (outcome, bearer) = if let Some(p) = request.extensions.get::<Principal>() {
            (AuthOutcome::Authenticated(p.clone()), None)
        } else if let Some(auth) = &self.config.authenticator {
            catch(auth.authenticate_with_challenge(request))
                .await
                .map_err(|()| panicked("authenticator"))?
        } else {
            (AuthOutcome::Anonymous, None)
        };
        let refuse = |error: A2aError| Refusal { error, bearer };
        match outcome {
            AuthOutcome::Authenticated(p) => Ok(Some(p)),
            AuthOutcome::Anonymous if security_required(&self.card) => Err(refuse(A2aError::new(
                ErrorKind::Unauthenticated,
                "authentication required",
            ))),
            AuthOutcome::Anonymous => Ok(None),
            AuthOutcome::Unauthenticated(why) => {
                Err(refuse(A2aError::new(ErrorKind::Unauthenticated, why)))
            }
            AuthOutcome::Forbidden(why) => {
                Err(refuse(A2aError::new(ErrorKind::PermissionDenied, why)))
            }
        }
    }

    /// `response` with the RFC 6750 error of the authenticator's refusal in
    /// its `Bearer` challenge: on a 401 (which carries the card's
    /// challenges) for any code but `insufficient_scope`, on a 403 for that
    /// one. Without an error the response is unchanged.
    fn challenged(
        &self,
        mut response: Response<Body>,
        bearer: Option<&BearerError>,
    ) -> Response<Body> {
        let Some(error) = bearer else {
            return response;
        };
        let headers = response.headers_mut();
        let unauthorized = headers.contains_key(WWW_AUTHENTICATE);
        if unauthorized != (error.code != BearerErrorCode::InsufficientScope) {
            return response;
        }
        headers.remove(WWW_AUTHENTICATE);
        for c in challenges_with_error(&self.card, &realm(&self.config, &self.card), error) {
            headers.append(WWW_AUTHENTICATE, c);
        }
        response
    }

    /// Whether `head` is a request of the gRPC binding (when it is on).
    fn grpc_request(&self, head: &Parts) -> bool {
        #[cfg(feature = "grpc")]
        return self.config.grpc && grpc_binding::is_grpc_request(head);
        #[cfg(not(feature = "grpc"))]
        {
            let _ = head;
            false
        }
    }

    /// The binding whose error body answers `head` before its binding has
    /// framed it.
    pub(crate) fn binding_for(&self, head: &Parts) -> Binding {
        let path = head.uri.path();
        if self.grpc_request(head) {
            Binding::Grpc
        } else if self.config.jsonrpc_path.as_deref() == Some(path) || self.router.is_none() {
            Binding::JsonRpc
        } else {
            Binding::HttpJson
        }
    }

    fn too_large(&self, len: u64) -> A2aError {
        A2aError::new(
            ErrorKind::InvalidRequest,
            format!(
                "request body of {len} bytes exceeds the limit of {} bytes",
                self.config.max_body_size
            ),
        )
    }

    /// A transport-level error, answered with `status` in the body of
    /// `binding`.
    pub(crate) fn transport_error(
        &self,
        head: &Parts,
        binding: Binding,
        err: &A2aError,
        status: StatusCode,
    ) -> Response<Body> {
        match binding {
            Binding::JsonRpc => jsonrpc_binding::error_response(
                &a2a_jsonrpc::Id::Null,
                err,
                Some(status),
                &self.challenges,
            ),
            #[cfg(feature = "grpc")]
            Binding::Grpc => grpc_binding::transport_error(err, status, &self.challenges),
            // HTTP+JSON, and any other binding: the `google.rpc.Status` body.
            _ => rest_binding::error_response(head, err, status, &self.challenges),
        }
    }
}

/// Why admission failed: the error, and the RFC 6750 error the
/// authenticator gave for its `Bearer` challenge.
struct Refusal {
    error: A2aError,
    bearer: Option<BearerError>,
}

impl From<A2aError> for Refusal {
    fn from(error: A2aError) -> Refusal {
        Refusal {
            error,
            bearer: None,
        }
    }
}

/// The realm of the `WWW-Authenticate` challenges: the configured one, or
/// the card's name.
fn realm(config: &ServerConfig, card: &AgentCard) -> String {
    config.realm.clone().unwrap_or_else(|| card.name.clone())
}

/// Checks that the server serves `interface` as declared (spec 8.3.1, 5.2):
/// a binding it serves, at its path (the JSON-RPC path exactly, the
/// HTTP+JSON base path with or without a final `/`), in a protocol version
/// it serves. The URL's scheme and host are the host's business (a proxy
/// may stand in front); the path is what this server routes.
fn check_interface(config: &ServerConfig, interface: &AgentInterface) -> Result<(), ConfigError> {
    let refuse = |reason: String| ConfigError::InterfaceNotServed {
        url: interface.url.clone(),
        protocol_binding: interface.protocol_binding.clone(),
        protocol_version: interface.protocol_version.clone(),
        reason,
    };
    let binding = interface.protocol_binding.trim();
    let known = Binding::from_protocol_binding(binding);
    let external = config
        .external_bindings
        .iter()
        .any(|b| b.trim().eq_ignore_ascii_case(binding));
    if known == Some(Binding::Grpc) && !external {
        if !cfg!(feature = "grpc") {
            return Err(refuse(
                "the gRPC binding is not compiled in (a2a-server's `grpc` feature)".to_owned(),
            ));
        }
        if !config.grpc {
            return Err(refuse("the gRPC binding is turned off".to_owned()));
        }
        return check_grpc_interface(config, interface).map_err(refuse);
    }
    // A binding the host serves itself (gRPC too, when it says so).
    if matches!(known, None | Some(Binding::Grpc)) && external {
        return Ok(());
    }
    let uri =
        a2a_wire::parse_http_url(&interface.url).map_err(|e| refuse(e.reason().to_owned()))?;
    let version = ProtocolVersion::parse(interface.protocol_version.trim())
        .map_err(|e| refuse(format!("protocolVersion: {e}")))?;
    if !config.versions.contains(&version) {
        return Err(refuse(format!(
            "version {version} is not among the versions served"
        )));
    }
    let prefix = config.public_path_prefix.trim_end_matches('/');
    let path = match uri.path().strip_prefix(prefix) {
        Some("") => "/",
        Some(p) if p.starts_with('/') => p,
        _ => {
            return Err(refuse(format!(
                "the path is not under the public path prefix {prefix:?}"
            )))
        }
    };
    match Binding::from_protocol_binding(&interface.protocol_binding) {
        Some(Binding::JsonRpc) => match config.jsonrpc_path.as_deref() {
            Some(served) if served == path => Ok(()),
            Some(served) => Err(refuse(format!(
                "JSON-RPC is served at {served:?}, not at {path:?}"
            ))),
            None => Err(refuse("the JSON-RPC binding is turned off".to_owned())),
        },
        Some(Binding::HttpJson) => match config.rest_base_path.as_deref() {
            Some(base) if base.trim_end_matches('/') == path.trim_end_matches('/') => Ok(()),
            Some(base) => Err(refuse(format!(
                "HTTP+JSON is served under {base:?}, not under {path:?}"
            ))),
            None => Err(refuse("the HTTP+JSON binding is turned off".to_owned())),
        },
        // gRPC was checked above.
        _ => Err(refuse(format!(
            "this server serves {} and {} only (a binding the host serves itself goes in \
             ServerConfig::external_bindings)",
            Binding::JSON.map(Binding::as_str).join(", "),
            Binding::Grpc.as_str()
        ))),
    }
}

/// Checks a `GRPC` interface: a URL gRPC clients dial (an absolute
/// `http`/`https` URL, or `host:port`; its path is not routed, since gRPC
/// calls go to `/lf.a2a.v1.A2AService/{Method}` of the authority) and a
/// version served.
fn check_grpc_interface(config: &ServerConfig, interface: &AgentInterface) -> Result<(), String> {
    let url = interface.url.trim();
    if url.contains("://") {
        a2a_wire::parse_http_url(url).map_err(|e| e.reason().to_owned())?;
    } else {
        match url.parse::<http::uri::Authority>() {
            Ok(authority) if authority.port().is_some() => {}
            _ => return Err("a gRPC URL is an absolute http(s) URL or host:port".to_owned()),
        }
    }
    let version = ProtocolVersion::parse(interface.protocol_version.trim())
        .map_err(|e| format!("protocolVersion: {e}"))?;
    if !config.versions.contains(&version) {
        return Err(format!(
            "version {version} is not among the versions served"
        ));
    }
    Ok(())
}

/// The request's `Content-Length`, if any: every field must hold the same
/// decimal value (RFC 9110 section 8.6), else `InvalidRequestError` (400).
pub(crate) fn content_length(head: &Parts) -> Result<Option<u64>, A2aError> {
    let mut found: Option<u64> = None;
    for value in head.headers.get_all(CONTENT_LENGTH) {
        for item in value.as_bytes().split(|&b| b == b',') {
            let item = trim_ows(item);
            let parsed =
                (!item.is_empty() && item.len() <= 19 && item.iter().all(u8::is_ascii_digit))
                    .then(|| item.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0')));
            match (parsed, found) {
                (None, _) => {
                    return Err(A2aError::new(
                        ErrorKind::InvalidRequest,
                        "the Content-Length header is not a decimal length",
                    ))
                }
                (Some(n), Some(m)) if n != m => {
                    return Err(A2aError::new(
                        ErrorKind::InvalidRequest,
                        "the Content-Length headers disagree",
                    ))
                }
                (Some(n), _) => found = Some(n),
            }
        }
    }
    Ok(found)
}

fn trim_ows(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(start, |e| e + 1);
    s.get(start..end).unwrap_or_default()
}

fn check_jsonrpc_path(path: &str) -> Result<(), ConfigError> {
    let fail = |reason| {
        Err(ConfigError::JsonRpcPath {
            path: path.to_owned(),
            reason,
        })
    };
    if !path.starts_with('/') {
        return fail("must start with `/`");
    }
    if path
        .bytes()
        .any(|b| b == b'?' || b == b'#' || b.is_ascii_whitespace() || b.is_ascii_control())
    {
        return fail("must not contain `?`, `#`, whitespace or control characters");
    }
    Ok(())
}

/// Futures run together on the task that polls this one (no spawning: the
/// core has no runtime), their outputs in the order of the futures; for
/// [`A2aServer::run_batch`]. Each wake polls the calls not yet done, so a
/// batch's cost is the slowest call's, not the sum.
struct JoinInOrder<F: std::future::Future> {
    calls: Vec<Option<std::pin::Pin<Box<F>>>>,
    outputs: Vec<Option<F::Output>>,
}

impl<F: std::future::Future> JoinInOrder<F> {
    fn new(calls: impl IntoIterator<Item = F>) -> JoinInOrder<F> {
        let calls: Vec<_> = calls.into_iter().map(|f| Some(Box::pin(f))).collect();
        let outputs = calls.iter().map(|_| None).collect();
        JoinInOrder { calls, outputs }
    }
}

// The calls are boxed and the outputs never pinned: moving the join
// moves neither.
impl<F: std::future::Future> Unpin for JoinInOrder<F> {}

impl<F: std::future::Future> std::future::Future for JoinInOrder<F> {
    type Output = Vec<F::Output>;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Vec<F::Output>> {
        let this = self.get_mut();
        let mut pending = false;
        for (call, output) in this.calls.iter_mut().zip(this.outputs.iter_mut()) {
            let Some(future) = call else { continue };
            match future.as_mut().poll(cx) {
                std::task::Poll::Ready(value) => {
                    *output = Some(value);
                    *call = None;
                }
                std::task::Poll::Pending => pending = true,
            }
        }
        if pending {
            return std::task::Poll::Pending;
        }
        std::task::Poll::Ready(this.outputs.iter_mut().filter_map(Option::take).collect())
    }
}

#[cfg(test)]
mod join_tests {
    use super::JoinInOrder;
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};

    /// Ready after being polled `n` more times, then `value`.
    struct After(u32, u32);

    impl Future for After {
        type Output = u32;
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
            if self.0 == 0 {
                return Poll::Ready(self.1);
            }
            self.0 -= 1;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }

    #[test]
    fn calls_run_together_and_answer_in_their_order() {
        // The last call finishes first; all are polled on every round.
        let mut join = JoinInOrder::new([After(3, 1), After(2, 2), After(0, 3)]);
        let mut cx = Context::from_waker(Waker::noop());
        let mut rounds = 1;
        let out = loop {
            match Pin::new(&mut join).poll(&mut cx) {
                Poll::Ready(out) => break out,
                Poll::Pending => rounds += 1,
            }
        };
        assert_eq!(out, [1, 2, 3]);
        // Four rounds: the slowest call's, not the sum (3 + 2 + 0 + 3).
        assert_eq!(rounds, 4);
        let empty: JoinInOrder<After> = JoinInOrder::new([]);
        assert_eq!(
            Pin::new(&mut { empty }).poll(&mut cx),
            Poll::Ready(Vec::new())
        );
    }
}
