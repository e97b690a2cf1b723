//! The server entry point: one pure function from an
//! `http::Request<Bytes>` to an `http::Response<Body>`, serving the agent
//! card (spec 8.2), the JSON-RPC binding (spec 9) and the HTTP+JSON
//! binding (spec 11) over one [`A2aService`].
//!
//! # The order of checks
//!
//! Every A2A request goes through the same steps on both bindings, so that
//! the same request gets the same error whichever binding carries it:
//!
//! 1. **Transport**: path length (414), `Content-Length` and body size
//!    (413, before the body is parsed), route or JSON-RPC endpoint (404,
//!    405 with `Allow`), query string (400), `Content-Type` (415).
//! 2. **Authentication** (401 with challenges, 403): before anything that
//!    could reveal whether a task exists.
//! 3. **`A2A-Version`** (spec 3.6): `VersionNotSupportedError`, before the
//!    body is interpreted, so a 0.3 client (no header) learns that its
//!    version is the problem rather than that `message/send` is unknown.
//! 4. **`A2A-Extensions`** (spec 3.2.6, 3.3.4): malformed lists are
//!    `InvalidRequestError`; a required extension not requested is
//!    `ExtensionSupportRequiredError`.
//! 5. **Request decoding and validation**: JSON-RPC envelope and params
//!    (`-32700`, `-32600`, `-32601`, `-32602`), HTTP+JSON body, path and
//!    query (400 with `google.rpc.BadRequest`).
//! 6. **Capability gating** from the card (spec 3.3.4, 13.3).
//! 7. **The handler**, through [`dispatch`]. For a streaming operation the
//!    first event is awaited before answering, so that an error the handler
//!    reports before any event (an unknown task, say) is an ordinary error
//!    response with its HTTP status rather than a 200 stream holding one
//!    error frame (the official SDKs do the same).
//!
//! # Decisions
//!
//! - **Routing**: the card path first, then the JSON-RPC path (exact
//!   match), then the HTTP+JSON routes. An error before the binding is
//!   known (414, 413) uses the JSON-RPC error body on the JSON-RPC path
//!   (or when HTTP+JSON is off) and the `google.rpc.Status` body elsewhere.
//! - **Defaults**: JSON-RPC at `/`, HTTP+JSON at the root, bodies up to
//!   16 MiB, version 1.0 only. The two bindings can share the root: no
//!   HTTP+JSON route is `POST /`.
//! - **A `Principal` in the request's extensions** (put there by a host
//!   middleware) is taken as authenticated, without calling the
//!   [`Authenticator`].
//! - **Panics** in the handler, its streams or the authenticator are
//!   caught and answered as `InternalError` (500 / `-32603`), never
//!   unwound into the host.

use std::fmt;
use std::sync::Arc;

use a2a_jsonrpc::{A2aRequest, Empty};
use std::task::Poll;

use a2a_types::{A2aError, AgentCard, ErrorKind, FieldViolation, StreamResponse};
use bytes::Bytes;
use http::header::CONTENT_LENGTH;
use http::request::Parts;
use http::{HeaderValue, Method, Request, Response, StatusCode};
use serde::{Serialize, Serializer};

use crate::auth::{challenges, security_required, AuthOutcome, AuthRequest, Authenticator};
use crate::binding::Binding;
use crate::body::Body;
use crate::card::{AgentCardResource, AGENT_CARD_PATH, DEFAULT_CARD_CACHE_CONTROL};
use crate::extensions::{ExtensionLimits, RequestedExtensions};
use crate::gate::{check_capabilities, required_extensions};
use crate::keep_alive::KeepAlive;
use crate::query::{QueryConfig, QueryError, QueryParams};
use crate::resilient::Timer;
use crate::route::{BasePathError, RouteError, Router};
use crate::service::{dispatch, A2aService, BoxFuture, CallContext, EventStream, Principal, Reply};
use crate::unwind::{catch, panicked, poll_next_caught};
use crate::version::{negotiate_version, ProtocolVersion};
use crate::{jsonrpc_binding, rest_binding};

/// Default for [`ServerConfig::max_body_size`]: 16 MiB, the decoders'
/// default input limit (`a2a_types::DEFAULT_MAX_INPUT_BYTES`).
pub const DEFAULT_MAX_BODY_SIZE: usize = 16 * 1024 * 1024;

/// How an [`A2aServer`] is set up: where each binding lives, the limits,
/// the versions served and the authentication hook.
///
/// ```
/// use a2a_transport::{BearerAuth, ServerConfig};
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
    /// Largest request body accepted, in bytes; larger ones answer 413
    /// before being parsed (by `Content-Length` when present). Default
    /// [`DEFAULT_MAX_BODY_SIZE`].
    pub max_body_size: usize,
    /// Longest request path accepted (414). Default
    /// [`Router::DEFAULT_MAX_PATH_LEN`].
    pub max_path_len: usize,
    /// Query string limits (spec 11.5).
    pub query: QueryConfig,
    /// `A2A-Extensions` limits (spec 3.2.6).
    pub extension_limits: ExtensionLimits,
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
            max_body_size: DEFAULT_MAX_BODY_SIZE,
            max_path_len: Router::DEFAULT_MAX_PATH_LEN,
            query: QueryConfig::new(),
            extension_limits: ExtensionLimits::new(),
            versions: vec![ProtocolVersion::V1_0],
            authenticator: None,
            realm: None,
            keep_alive: None,
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

    /// Sets the body size limit.
    pub fn with_max_body_size(mut self, max: usize) -> ServerConfig {
        self.max_body_size = max;
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
            .field("max_body_size", &self.max_body_size)
            .field("max_path_len", &self.max_path_len)
            .field("query", &self.query)
            .field("extension_limits", &self.extension_limits)
            .field("versions", &self.versions)
            .field("authenticator", &self.authenticator.as_ref().map(|_| ".."))
            .field("realm", &self.realm)
            .field("keep_alive", &self.keep_alive)
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
/// use a2a_transport::{A2aServer, A2aService, ServerConfig};
/// use a2a_types::{AgentCard, AgentInterface};
/// use bytes::Bytes;
///
/// struct Agent;
/// impl A2aService for Agent {}
///
/// let card = AgentCard { name: "Agent".into(), ..Default::default() };
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
    config: ServerConfig,
    router: Option<Router>,
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
    /// serve, an invalid `Cache-Control` value.
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
        if let (Some(path), Some(router)) = (&config.jsonrpc_path, &router) {
            // The JSON-RPC path is matched first: it must not hide a route.
            if !matches!(
                router.match_route(&Method::POST, path),
                Err(RouteError::NotFound | RouteError::PathTooLong { .. })
            ) {
                return Err(ConfigError::PathClash(path.clone()));
            }
        }
        if config.serve_card && config.jsonrpc_path.as_deref() == Some(AGENT_CARD_PATH) {
            return Err(ConfigError::PathClash(AGENT_CARD_PATH.to_owned()));
        }
        if config.versions.is_empty() {
            return Err(ConfigError::NoVersions);
        }
        let cache_control = HeaderValue::from_str(&config.card_cache_control)
            .map_err(|_| ConfigError::CacheControl(config.card_cache_control.clone()))?;
        let card_resource = AgentCardResource::new(&card)
            .map_err(|e| ConfigError::Card(e.to_string()))?
            .with_cache_control(cache_control);
        let realm = config.realm.clone().unwrap_or_else(|| card.name.clone());
        let challenges = challenges(&card, &realm);
        Ok(A2aServer {
            service,
            card,
            card_resource,
            config,
            router,
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
        let binding = self.binding_for(head.uri.path());
        let path_len = head.uri.path().len();
        if path_len > self.config.max_path_len {
            let err = A2aError::new(
                ErrorKind::InvalidRequest,
                format!(
                    "request path is {path_len} bytes, over the limit of {}",
                    self.config.max_path_len
                ),
            )
            .with_http_status(414);
            return Some(self.transport_error(binding, &err));
        }
        match content_length(head) {
            Ok(Some(len)) if len > self.config.max_body_size as u64 => {
                Some(self.transport_error(binding, &self.too_large(len)))
            }
            Ok(_) => None,
            Err(err) => Some(self.transport_error(binding, &err)),
        }
    }

    /// Answers one request. Never panics, and every error response carries
    /// the binding's error body. A streaming answer's body is a
    /// [`Body::Stream`] of SSE frames; the host writes them as they come
    /// (with keep-alive comments when [`ServerConfig::keep_alive`] is set).
    pub fn handle(&self, request: Request<Bytes>) -> BoxFuture<'_, Response<Body>> {
        Box::pin(async move {
            let (head, body) = request.into_parts();
            if let Some(refused) = self.check_head(&head) {
                return refused;
            }
            let path = head.uri.path();
            if body.len() > self.config.max_body_size {
                let err = self.too_large(body.len() as u64);
                return self.transport_error(self.binding_for(path), &err);
            }
            if self.config.serve_card && path == AGENT_CARD_PATH {
                return self.card_resource.respond(&head.method, &head.headers);
            }
            if self.config.jsonrpc_path.as_deref() == Some(path) {
                return jsonrpc_binding::handle(self, head, body).await;
            }
            match &self.router {
                Some(router) => rest_binding::handle(self, router, head, body).await,
                None => {
                    let err =
                        A2aError::new(ErrorKind::MethodNotFound, "no A2A endpoint at this path")
                            .with_http_status(404);
                    self.transport_error(Binding::JsonRpc, &err)
                }
            }
        })
    }

    pub(crate) fn binding_for(&self, path: &str) -> Binding {
        if self.config.jsonrpc_path.as_deref() == Some(path) || self.router.is_none() {
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
        .with_http_status(413)
    }

    /// A transport-level error (its HTTP status is the error's) in the
    /// body of `binding`.
    pub(crate) fn transport_error(&self, binding: Binding, err: &A2aError) -> Response<Body> {
        match binding {
            Binding::JsonRpc => jsonrpc_binding::error_response(
                self,
                &a2a_jsonrpc::Id::Null,
                err,
                Some(status_of(err)),
            ),
            Binding::HttpJson => rest_binding::error_response(self, err),
        }
    }

    /// Steps 2-4 of the module docs: authentication, version, extensions.
    /// The context it returns has everything but the tenant.
    pub(crate) async fn admit(
        &self,
        head: &Parts,
        query: &QueryParams<'_>,
    ) -> Result<CallContext, A2aError> {
        let principal = self.authenticate(head).await?;
        let version = negotiate_version(&self.config.versions, &head.headers, Some(query))?;
        let requested = RequestedExtensions::from_request(
            &head.headers,
            Some(query),
            &self.config.extension_limits,
        )
        .map_err(|e| A2aError::new(ErrorKind::InvalidRequest, e.to_string()))?;
        requested.require_all(required_extensions(&self.card))?;
        let mut cx = CallContext::new()
            .with_version(version)
            .with_extensions(requested.iter())
            .with_headers(head.headers.clone());
        cx.principal = principal;
        Ok(cx)
    }

    async fn authenticate(&self, head: &Parts) -> Result<Option<Principal>, A2aError> {
        let outcome = if let Some(p) = head.extensions.get::<Principal>() {
            AuthOutcome::Authenticated(p.clone())
        } else if let Some(auth) = &self.config.authenticator {
            catch(auth.authenticate(AuthRequest::from_parts(head)))
                .await
                .map_err(|()| panicked("authenticator"))?
        } else {
            AuthOutcome::Anonymous
        };
        match outcome {
            AuthOutcome::Authenticated(p) => Ok(Some(p)),
            AuthOutcome::Anonymous if security_required(&self.card) => Err(A2aError::new(
                ErrorKind::Unauthenticated,
                "authentication required",
            )),
            AuthOutcome::Anonymous => Ok(None),
            AuthOutcome::Unauthenticated(why) => {
                Err(A2aError::new(ErrorKind::Unauthenticated, why))
            }
            AuthOutcome::Forbidden(why) => Err(A2aError::new(ErrorKind::PermissionDenied, why)),
        }
    }

    /// Steps 6-7 of the module docs: capability gating, then the handler;
    /// for a stream, its first event is awaited.
    pub(crate) async fn call(
        &self,
        mut cx: CallContext,
        request: A2aRequest,
    ) -> Result<Answer, A2aError> {
        let tenant = request_tenant(&request);
        if !tenant.is_empty() {
            cx.tenant = Some(tenant.to_owned());
        }
        check_capabilities(&self.card, &request, cx.principal.as_ref())?;
        let reply = catch(dispatch(&self.service, &cx, request))
            .await
            .map_err(|()| panicked("handler"))??;
        match reply {
            Reply::Stream(mut events) => match next_event(&mut events).await {
                Ok(Some(Ok(first))) => Ok(Answer::Stream {
                    first,
                    rest: events,
                }),
                Ok(Some(Err(e))) => Err(e),
                Ok(None) => Ok(Answer::EmptyStream),
                Err(()) => Err(panicked("event stream")),
            },
            unary => Ok(Answer::Unary(unary)),
        }
    }
}

/// What a call answered, ready for a binding to encode.
pub(crate) enum Answer {
    /// A unary result (never [`Reply::Stream`]).
    Unary(Reply),
    /// A stream, with its first event already taken.
    Stream {
        first: StreamResponse,
        rest: EventStream,
    },
    /// A stream that ended before its first event.
    EmptyStream,
}

/// The next item of `events`, or `Err(())` if polling it panicked.
async fn next_event(
    events: &mut EventStream,
) -> Result<Option<Result<StreamResponse, A2aError>>, ()> {
    std::future::poll_fn(|cx| match poll_next_caught(events, cx) {
        Ok(Poll::Pending) => Poll::Pending,
        Ok(Poll::Ready(item)) => Poll::Ready(Ok(item)),
        Err(()) => Poll::Ready(Err(())),
    })
    .await
}

/// Serializes the result of a unary reply: the bare JSON of spec 11.4, or
/// the `result` of a JSON-RPC response (spec 9.4).
pub(crate) struct ReplyJson<'a>(pub(crate) &'a Reply);

impl Serialize for ReplyJson<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        match self.0 {
            Reply::SendMessage(r) => r.serialize(s),
            Reply::Task(r) => r.serialize(s),
            Reply::ListTasks(r) => r.serialize(s),
            Reply::PushConfig(r) => r.serialize(s),
            Reply::PushConfigs(r) => r.serialize(s),
            Reply::Empty => Empty.serialize(s),
            Reply::AgentCard(r) => r.serialize(s),
            Reply::Stream(_) => Err(serde::ser::Error::custom(
                "a stream has no single JSON value",
            )),
        }
    }
}

/// The `tenant` field of a request (empty when unset).
fn request_tenant(request: &A2aRequest) -> &str {
    use A2aRequest as R;
    match request {
        R::SendMessage(r) | R::SendStreamingMessage(r) => &r.tenant,
        R::GetTask(r) => &r.tenant,
        R::ListTasks(r) => &r.tenant,
        R::CancelTask(r) => &r.tenant,
        R::SubscribeToTask(r) => &r.tenant,
        R::CreateTaskPushNotificationConfig(r) => &r.tenant,
        R::GetTaskPushNotificationConfig(r) => &r.tenant,
        R::ListTaskPushNotificationConfigs(r) => &r.tenant,
        R::DeleteTaskPushNotificationConfig(r) => &r.tenant,
        R::GetExtendedAgentCard(r) => &r.tenant,
    }
}

/// The request's `Content-Length`, if any: every field must hold the same
/// decimal value (RFC 9110 section 8.6), else `InvalidRequestError` (400).
fn content_length(head: &Parts) -> Result<Option<u64>, A2aError> {
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
                    )
                    .with_http_status(400))
                }
                (Some(n), Some(m)) if n != m => {
                    return Err(A2aError::new(
                        ErrorKind::InvalidRequest,
                        "the Content-Length headers disagree",
                    )
                    .with_http_status(400))
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

/// The HTTP status of `err` as a `StatusCode` (500 if out of range).
pub(crate) fn status_of(err: &A2aError) -> StatusCode {
    StatusCode::from_u16(err.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The `google.rpc.BadRequest`-carrying error for a query string that
/// does not parse or a parameter that does not read (spec 11.5): 414 for
/// an over-long query, else 400.
pub(crate) fn query_error(err: &QueryError) -> A2aError {
    match err {
        QueryError::TooLong { .. } => {
            A2aError::new(ErrorKind::InvalidRequest, err.to_string()).with_http_status(414)
        }
        QueryError::TooManyParams { .. } | QueryError::EmptyName { .. } => {
            A2aError::new(ErrorKind::InvalidRequest, err.to_string()).with_http_status(400)
        }
        _ => A2aError::invalid_params(vec![FieldViolation {
            field: err.param().unwrap_or("(query)").to_owned(),
            description: err.to_string(),
        }]),
    }
}
