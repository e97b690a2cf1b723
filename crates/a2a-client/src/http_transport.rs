//! [`HttpTransport`]: the client side of both HTTP bindings (the `client`
//! module's documentation gives its exact requests).

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use a2a_jsonrpc::{decode_reply, decode_reply_v0_3, encode_request_with, Id, MethodTable};
use a2a_types::{
    A2aError, A2aRequest, AgentInterface, DecodeLimits, ErrorBody, ErrorKind, FieldViolation,
    JsonRpcError, Operation, Reply, RpcStatus, SendMessageRequest, SubscribeToTaskRequest,
};
use bytes::Bytes;
use http::header::{HeaderValue, ACCEPT, CONTENT_TYPE};
use http::{HeaderMap, Method as HttpMethod, Uri};
use serde::Deserialize;

use crate::client_error::{
    invalid_response, rest_error, status_without_error, with_challenges, ClientFailure,
};
use crate::client_stream::SseStream;
use crate::credentials::CallCredentials;
#[cfg(feature = "grpc")]
use crate::grpc_client::{self, GrpcEvents};
use a2a_wire::http_json::QueryBuilder;
use a2a_wire::http_json::{
    BuildPathError, PathParam, PathParams, QueryKind, RequestBody, Route, RouteTable, Router,
};
use a2a_wire::service_params::{encode_extensions, A2A_EXTENSIONS};
use a2a_wire::service_params::{ProtocolVersion, A2A_VERSION};
use a2a_wire::Binding;
use a2a_wire::{parse_interface_url, InterfaceUrlError};
use a2a_wire::{read_body, HttpClient, ReadBody, ResponseBody};
use a2a_wire::{BoxFuture, CallContext, EventStream, Forward};
use a2a_wire::{A2A_JSON, APPLICATION_JSON, EVENT_STREAM};

/// Limits of the client side. Every response body is bounded before it is
/// kept (STYLE.md, "Limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClientConfig {
    /// Largest success body of a unary call (and of an agent card), in
    /// bytes. Default: 16 MiB, as [`a2a_types::DEFAULT_MAX_INPUT_BYTES`].
    /// Larger bodies answer a [`ClientFailure::ResponseTooLarge`] error.
    pub max_response_body: usize,
    /// Largest error body read to find the binding's error object, in
    /// bytes. Default: 64 KiB. A larger one is not read; the HTTP status
    /// alone decides the error.
    pub max_error_body: usize,
    /// Limits of the SSE decoder for streams (per line and per event).
    /// Default: [`a2a_sse::DecoderConfig::DEFAULT`] (16 MiB each).
    pub sse: a2a_sse::DecoderConfig,
    /// The call's deadline, sent over gRPC as `grpc-timeout` so that the
    /// agent can give up too (spec 10). The client does not enforce it:
    /// the host's HTTP client does (`HyperClient::with_timeout`, say).
    /// Default: none.
    pub timeout: Option<Duration>,
}

impl ClientConfig {
    /// Default [`max_error_body`](Self::max_error_body): 64 KiB.
    pub const DEFAULT_MAX_ERROR_BODY: usize = 64 * 1024;

    /// The defaults.
    pub const fn new() -> ClientConfig {
        ClientConfig {
            max_response_body: a2a_types::DEFAULT_MAX_INPUT_BYTES,
            max_error_body: ClientConfig::DEFAULT_MAX_ERROR_BODY,
            sse: a2a_sse::DecoderConfig::DEFAULT,
            timeout: None,
        }
    }

    /// Sets [`timeout`](Self::timeout).
    pub const fn with_timeout(mut self, timeout: Duration) -> ClientConfig {
        self.timeout = Some(timeout);
        self
    }

    /// Sets [`max_response_body`](Self::max_response_body).
    pub const fn with_max_response_body(mut self, bytes: usize) -> ClientConfig {
        self.max_response_body = bytes;
        self
    }

    /// Sets [`max_error_body`](Self::max_error_body).
    pub const fn with_max_error_body(mut self, bytes: usize) -> ClientConfig {
        self.max_error_body = bytes;
        self
    }

    /// Sets [`sse`](Self::sse).
    pub const fn with_sse(mut self, sse: a2a_sse::DecoderConfig) -> ClientConfig {
        self.sse = sse;
        self
    }
}

impl Default for ClientConfig {
    fn default() -> ClientConfig {
        ClientConfig::new()
    }
}

/// A client-side [`A2aService`](a2a_wire::A2aService): each call is sent over one HTTP binding to
/// one interface URL through the host's [`HttpClient`] (see the module
/// documentation for the exact requests and how responses are read).
///
/// ```
/// use a2a_client::{Binding, BoxFuture, HttpClient, HttpError, HttpTransport, ResponseBody};
/// # struct Host;
/// # impl HttpClient for Host {
/// #     fn send(&self, _: http::Request<bytes::Bytes>)
/// #         -> BoxFuture<'_, Result<http::Response<ResponseBody>, HttpError>>
/// #     { Box::pin(async { Err(HttpError::Other("offline".into())) }) }
/// # }
/// let transport = HttpTransport::new(Host, Binding::HttpJson, "https://agent.example/a2a")?
///     .with_tenant("acme");
/// assert_eq!(transport.binding(), Binding::HttpJson);
/// # Ok::<(), a2a_client::InterfaceUrlError>(())
/// ```
pub struct HttpTransport<C> {
    client: C,
    binding: Binding,
    url: Uri,
    router: Router,
    /// `Some` once an interface (or the caller) fixed the tenant: exactly
    /// that one is sent, `""` meaning none (spec 8.3.2 rule 4).
    tenant: Option<String>,
    /// `Some` once an interface (or the caller) fixed the protocol
    /// version; `None`: each call's [`CallContext::version`].
    version: Option<ProtocolVersion>,
    config: ClientConfig,
    next_id: AtomicU64,
    /// What each call carries for the card's security requirement.
    credentials: CallCredentials,
}

impl<C> fmt::Debug for HttpTransport<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpTransport")
            .field("binding", &self.binding)
            .field("url", &self.url)
            .field("tenant", &self.tenant)
            .field("version", &self.version)
            .field("config", &self.config)
            .field("credentials", &self.credentials)
            .finish_non_exhaustive()
    }
}

/// The protocol versions the client side speaks, most preferred first:
/// discovery's default order (prefer 1.0, fall back to 0.3).
#[cfg(not(feature = "draft-1-1"))]
pub(crate) const SPOKEN_VERSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V1_0, ProtocolVersion::V0_3];

/// The protocol versions the client side speaks, most preferred first:
/// the 1.1 draft where an interface declares it, else 1.0, else 0.3.
#[cfg(feature = "draft-1-1")]
pub(crate) const SPOKEN_VERSIONS: [ProtocolVersion; 3] = [
    ProtocolVersion::V1_1,
    ProtocolVersion::V1_0,
    ProtocolVersion::V0_3,
];

/// Whether the client side speaks `binding` at all: JSON-RPC and
/// HTTP+JSON always, gRPC with the `grpc` feature.
pub(crate) fn speaks_binding(binding: Binding) -> bool {
    matches!(binding, Binding::JsonRpc | Binding::HttpJson)
        || binding == Binding::Grpc && cfg!(feature = "grpc")
}

/// Whether the client side speaks `version` over `binding`: 1.0 (and the
/// 1.1 draft, on the same codecs) over all three, 0.3 over the two HTTP
/// bindings (gRPC at 0.3 is another proto package, not spoken). The one
/// place that decides, for discovery's choice and for each call.
pub(crate) fn speaks(binding: Binding, version: ProtocolVersion) -> bool {
    if !speaks_binding(binding) {
        return false;
    }
    #[cfg(feature = "draft-1-1")]
    if version == ProtocolVersion::V1_1 {
        return true;
    }
    version == ProtocolVersion::V1_0 || version == ProtocolVersion::V0_3 && binding != Binding::Grpc
}

impl<C> HttpTransport<C> {
    /// The versions this transport speaks (spec 3.6): 1.0, and 0.3 over
    /// JSON-RPC and HTTP+JSON (the `a2a_types::v0_3` codecs); with the
    /// `draft-1-1` feature, 1.1 first.
    pub const SUPPORTED_VERSIONS: [ProtocolVersion; SPOKEN_VERSIONS.len()] = SPOKEN_VERSIONS;
}

impl<C: HttpClient> HttpTransport<C> {
    /// A transport for `binding` at the interface `url`, which must be an
    /// absolute `http` or `https` URL. For HTTP+JSON the URL's path is the
    /// base path of every route, and it may not carry a query. For gRPC it
    /// may also be a bare `host:port`, read as `https://host:port`; the
    /// method path (`/lf.a2a.v1.A2AService/{Method}`) follows the URL's
    /// own path, and calls go out as HTTP/2 (spec 10).
    pub fn new(
        client: C,
        binding: Binding,
        url: &str,
    ) -> Result<HttpTransport<C>, InterfaceUrlError> {
        let uri = parse_interface_url(binding, url)?;
        let router = match binding {
            #[cfg(feature = "grpc")]
            Binding::Grpc => Router::new(),
            Binding::JsonRpc => Router::new(),
            Binding::HttpJson => {
                if uri.query().is_some() {
                    return Err(InterfaceUrlError::new(
                        url,
                        "an HTTP+JSON base URL cannot carry a query",
                    ));
                }
                Router::with_base_path(uri.path())
                    .map_err(|e| InterfaceUrlError::new(url, e.reason()))?
            }
            #[cfg(not(feature = "grpc"))]
            Binding::Grpc => {
                return Err(InterfaceUrlError::new(
                    url,
                    "gRPC is not compiled into this client (a2a-client's `grpc` feature)",
                ))
            }
            _ => {
                return Err(InterfaceUrlError::new(
                    url,
                    "this client does not speak the interface's binding",
                ))
            }
        };
        Ok(HttpTransport {
            client,
            binding,
            url: uri,
            router,
            tenant: None,
            version: None,
            config: ClientConfig::new(),
            next_id: AtomicU64::new(1),
            credentials: CallCredentials::none(),
        })
    }

    /// A transport for a card's interface: its binding, URL and tenant
    /// (spec 8.3.2). `None` when the interface names a binding this client
    /// does not speak; an error when its URL is unusable.
    pub fn for_interface(
        client: C,
        interface: &AgentInterface,
    ) -> Option<Result<HttpTransport<C>, InterfaceUrlError>> {
        let binding = Binding::from_protocol_binding(&interface.protocol_binding)?;
        Some(
            HttpTransport::new(client, binding, &interface.url)
                .map(|t| t.for_interface_of(interface)),
        )
    }

    /// A transport for an interface of a card fetched from `card_url`: as
    /// [`for_interface`](HttpTransport::for_interface), except that a gRPC
    /// interface at a bare `host:port` is dialled with the card URL's
    /// scheme (a card served over `http://` names an h2c agent, one over
    /// `https://` an h2 agent over TLS). The card and the agent are one
    /// origin's: this never downgrades a card fetched over TLS.
    pub fn for_card_interface(
        client: C,
        interface: &AgentInterface,
        card_url: &Uri,
    ) -> Option<Result<HttpTransport<C>, InterfaceUrlError>> {
        let binding = Binding::from_protocol_binding(&interface.protocol_binding)?;
        let url = interface.url.trim();
        let url = match (binding, card_url.scheme_str()) {
            (Binding::Grpc, Some(scheme)) if !url.contains("://") => format!("{scheme}://{url}"),
            _ => url.to_owned(),
        };
        Some(HttpTransport::new(client, binding, &url).map(|t| t.for_interface_of(interface)))
    }

    /// The interface's tenant, and its protocol version when it names one
    /// this client speaks (one it does not is refused at each call).
    fn for_interface_of(self, interface: &AgentInterface) -> HttpTransport<C> {
        let t = self.with_tenant(interface.tenant.clone());
        match ProtocolVersion::parse(interface.protocol_version.trim()) {
            Ok(v) => t.with_version(v),
            Err(_) => t,
        }
    }

    /// The same transport sending exactly `tenant` on every request, as
    /// the selected interface declares it (spec 8.3.2 rule 4: set the
    /// `tenant` field of every request to exactly that value, and omit it
    /// when the interface has none; an empty `tenant` means none). A
    /// request or [`CallContext::tenant`] naming another tenant is refused
    /// with `InvalidParamsError` naming `tenant`, and nothing is sent.
    ///
    /// A transport built with [`new`](HttpTransport::new) and without this
    /// call selected no interface: it sends the request's own tenant, else
    /// the context's.
    pub fn with_tenant(mut self, tenant: impl Into<String>) -> HttpTransport<C> {
        self.tenant = Some(tenant.into());
        self
    }

    /// The same transport speaking `version` on every call, whatever the
    /// call's [`CallContext::version`] says: an interface is at one
    /// version (spec 8.3.2), so the transport built for it speaks that
    /// one. At 0.3 (0.3 spec 3, 7): the 0.3 method names
    /// ([`MethodTable::V0_3`]) or routes ([`RouteTable::V0_3`]), params,
    /// results and events through the `a2a_types::v0_3` codecs, and
    /// `A2A-Version: 0.3` (what the 1.0 SDKs' 0.3 layers key on; 0.3
    /// servers ignore it). `ListTasks` has no 0.3 form: it fails locally
    /// with `MethodNotFoundError`, what a 0.3 server answers. A version
    /// this transport does not speak over its binding (0.3 over gRPC, 2.0)
    /// fails each call with `VersionNotSupportedError`, sending nothing.
    pub fn with_version(mut self, version: ProtocolVersion) -> HttpTransport<C> {
        self.version = Some(version);
        self
    }

    /// The protocol version calls are sent at: the fixed one
    /// ([`with_version`](HttpTransport::with_version)), else `None`
    /// (each call's context decides).
    pub fn version(&self) -> Option<ProtocolVersion> {
        self.version
    }

    /// The version a call with `cx` is sent at.
    fn version_for(&self, cx: &CallContext) -> ProtocolVersion {
        self.version.unwrap_or(cx.version)
    }

    /// The same transport with `config`.
    pub fn with_config(mut self, config: ClientConfig) -> HttpTransport<C> {
        self.config = config;
        self
    }

    /// The same transport sending `credentials` on every call, over each
    /// binding (gRPC as metadata): what [`Credentials::select`](crate::Credentials::select)
    /// chose for the agent's card. A call the agent refuses as
    /// unauthenticated is sent once more when a provider may answer a
    /// fresh credential (the `client` module's "Credentials").
    pub fn with_credentials(mut self, credentials: CallCredentials) -> HttpTransport<C> {
        self.credentials = credentials;
        self
    }

    /// The credentials every call carries.
    pub fn credentials(&self) -> &CallCredentials {
        &self.credentials
    }

    /// The binding.
    pub fn binding(&self) -> Binding {
        self.binding
    }

    /// The interface URL.
    pub fn url(&self) -> &Uri {
        &self.url
    }

    /// The tenant every request carries, when one is fixed and not empty.
    pub fn tenant(&self) -> Option<&str> {
        self.tenant.as_deref().filter(|t| !t.is_empty())
    }

    /// The limits.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// The host's HTTP client.
    pub fn client(&self) -> &C {
        &self.client
    }

    /// Opens a `SendStreamingMessage` stream (spec 3.1.2), giving the
    /// concrete [`SseStream`] (with its `Last-Event-ID` and `retry` hint).
    pub fn stream_message<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SendMessageRequest,
    ) -> BoxFuture<'a, Result<SseStream, A2aError>> {
        Box::pin(self.open_stream(cx, A2aRequest::SendStreamingMessage(request)))
    }

    /// Opens a `SubscribeToTask` stream (spec 3.1.6), giving the concrete
    /// [`SseStream`].
    pub fn stream_task<'a>(
        &'a self,
        cx: &'a CallContext,
        request: SubscribeToTaskRequest,
    ) -> BoxFuture<'a, Result<SseStream, A2aError>> {
        Box::pin(self.open_stream(cx, A2aRequest::SubscribeToTask(request)))
    }

    /// Builds the HTTP request of `request` and, for JSON-RPC, its id.
    fn build(
        &self,
        cx: &CallContext,
        mut request: A2aRequest,
        streaming: bool,
    ) -> Result<(http::Request<Bytes>, Id), A2aError> {
        let version = self.version_for(cx);
        if !speaks(self.binding, version) {
            let spoken: Vec<String> = SPOKEN_VERSIONS
                .iter()
                .filter(|v| speaks(self.binding, **v))
                .map(|v| v.to_string())
                .collect();
            let spoken: Vec<&str> = spoken.iter().map(String::as_str).collect();
            return Err(A2aError::version_not_supported(
                &version.to_string(),
                &spoken,
            ));
        }
        // Below 1.1 the request carries no 1.1 field: a 1.0 agent sees a
        // 1.0 request whatever the host set.
        #[cfg(feature = "draft-1-1")]
        if version < ProtocolVersion::V1_1 {
            a2a_types::draft_1_1::DraftFields::clear_draft_fields(&mut request);
        }
        let v03 = version == ProtocolVersion::V0_3;
        if v03 && request.operation() == Operation::ListTasks {
            return Err(no_v03_list_tasks());
        }
        self.set_tenant(cx, request.tenant_mut())?;
        let mut headers = cx.headers.clone();
        if let Some(trace) = &cx.trace {
            trace.write_to(&mut headers);
        }
        headers.insert(A2A_VERSION, version_value(version));
        if let Some(v) = encode_extensions(cx.extensions.iter().map(String::as_str))? {
            headers.insert(A2A_EXTENSIONS, v);
        }
        let (method, uri, body, id) = match self.binding {
            Binding::JsonRpc => {
                let n = self.next_id.fetch_add(1, Ordering::Relaxed);
                let id = Id::number(n);
                let table = if v03 {
                    &MethodTable::V0_3
                } else {
                    &MethodTable::V1
                };
                let body = encode_request_with(&id, &request, table);
                (HttpMethod::POST, self.url.clone(), Some(body), id)
            }
            Binding::HttpJson => {
                let (method, uri, body) = self.rest_request(&request, v03)?;
                (method, uri, body, Id::Null)
            }
            #[cfg(feature = "grpc")]
            Binding::Grpc => {
                let grpc =
                    grpc_client::build_request(&self.url, &request, headers, self.config.timeout)?;
                return Ok((grpc, Id::Null));
            }
            // `new` refuses a binding this client does not speak.
            _ => return Err(unspoken(self.binding)),
        };

        let accept = match (streaming, self.binding) {
            (true, _) => EVENT_STREAM,
            (false, Binding::JsonRpc) => APPLICATION_JSON,
            (false, _) => "application/a2a+json, application/json",
        };
        headers.insert(ACCEPT, HeaderValue::from_static(accept));
        match &body {
            Some(_) => {
                // 0.3's HTTP+JSON is application/json (0.3 spec 3.2.3).
                let ct = match self.binding {
                    Binding::HttpJson if !v03 => A2A_JSON,
                    _ => APPLICATION_JSON,
                };
                headers.insert(CONTENT_TYPE, HeaderValue::from_static(ct));
            }
            None => {
                headers.remove(CONTENT_TYPE);
            }
        }

        let mut http_request = http::Request::new(body.map(Bytes::from).unwrap_or_default());
        *http_request.method_mut() = method;
        *http_request.uri_mut() = uri;
        *http_request.headers_mut() = headers;
        Ok((http_request, id))
    }

    /// Puts the tenant to send into the request's field: the fixed one
    /// (see [`with_tenant`](HttpTransport::with_tenant)), refusing another;
    /// else the request's own, else the context's.
    fn set_tenant(&self, cx: &CallContext, tenant: &mut String) -> Result<(), A2aError> {
        let Some(fixed) = self.tenant.as_deref() else {
            if tenant.is_empty() {
                if let Some(t) = cx.tenant.as_deref() {
                    t.clone_into(tenant);
                }
            }
            return Ok(());
        };
        for (whose, asked) in [
            ("request", tenant.as_str()),
            ("context", cx.tenant.as_deref().unwrap_or("")),
        ] {
            if !asked.is_empty() && asked != fixed {
                return Err(A2aError::invalid_params(vec![FieldViolation {
                    field: "tenant".to_owned(),
                    description: format!(
                        "the {whose} names tenant {asked:?}, but the selected interface \
                         declares {} (spec 8.3.2: every request carries exactly that)",
                        if fixed.is_empty() {
                            "none".to_owned()
                        } else {
                            format!("{fixed:?}")
                        }
                    ),
                }]));
            }
        }
        fixed.clone_into(tenant);
        Ok(())
    }

    /// Method, URI and body of an HTTP+JSON request (spec 11.3-11.5), by
    /// the canonical route's rule: its path fields into the path, then the
    /// whole message as the body, or its query fields into the query.
    ///
    /// At 0.3 the route is [`RouteTable::V0_3`]'s and the body the 0.3
    /// proto's ProtoJSON, what the 0.3 SDK REST clients send
    /// (`a2a_types::v0_3::request_to_rest`); a route with a body whose
    /// request has none in 0.3 (cancel, subscribe: the path names the
    /// task) sends `{}`.
    fn rest_request(
        &self,
        request: &A2aRequest,
        v03: bool,
    ) -> Result<(HttpMethod, Uri, Option<Vec<u8>>), A2aError> {
        let op = request.operation();
        let (table, router) = if v03 {
            (
                RouteTable::V0_3,
                self.router.clone().with_table(RouteTable::V0_3),
            )
        } else {
            (RouteTable::V1_0, self.router.clone())
        };
        let route = table.canonical(op).ok_or_else(no_v03_list_tasks)?;
        let mut params = PathParams::new();
        for (param, field) in route.path_fields() {
            let value = request.string_field(field).unwrap_or_default();
            // 0.3 has no tenants (`a2a_types::v0_3::MAPPING`): its
            // interface URL says where the tenant's agent is.
            if param != PathParam::Tenant || !value.is_empty() && !v03 {
                params = params.with(param, value);
            }
        }
        let mut query = QueryBuilder::new();
        let body = match route.body() {
            RequestBody::Message if v03 => Some(
                a2a_types::v0_3::request_to_rest(request)
                    .map_err(|e| A2aError::internal(format!("request encoding: {e}")))?
                    .unwrap_or_else(|| b"{}".to_vec()),
            ),
            RequestBody::Message => Some(to_json(request)?),
            RequestBody::None => {
                write_query(route, request, &mut query)?;
                None
            }
        };
        let mut path = router
            .build_path(op, &params)
            .map_err(|e| path_error(op, e))?;
        query.append_to(&mut path);
        let mut parts = http::uri::Parts::default();
        parts.scheme = self.url.scheme().cloned();
        parts.authority = self.url.authority().cloned();
        parts.path_and_query = Some(
            path.parse()
                .map_err(|_| A2aError::internal("the request path is not a valid URI path"))?,
        );
        let uri = Uri::from_parts(parts)
            .map_err(|_| A2aError::internal("the request URI could not be built"))?;
        Ok((route.method(), uri, body))
    }

    /// Sends `request` through the host's client; a failure of the client
    /// is a client error ([`ClientFailure`]), with the gRPC hint on gRPC.
    async fn send_http(
        &self,
        request: http::Request<Bytes>,
    ) -> Result<http::Response<ResponseBody>, A2aError> {
        match self.client.send(request).await {
            Ok(response) => Ok(response),
            #[cfg(feature = "grpc")]
            Err(e) if self.binding == Binding::Grpc => {
                Err(crate::client_error::grpc_send_failed(e))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Sends a unary call and decodes its result.
    async fn unary(&self, cx: &CallContext, request: A2aRequest) -> Result<Reply, A2aError> {
        let op = request.operation();
        let v03 = self.version_for(cx) == ProtocolVersion::V0_3;
        let (http_request, id) = self.build(cx, request, false)?;
        let mut retried = false;
        loop {
            let (attempt, sent) = self
                .credentials
                .attach(&http_request, self.binding == Binding::Grpc)
                .await?;
            let response = self.send_http(attempt).await?;
            match self.read_unary(op, v03, &id, response).await {
                Err(e) if self.credentials.refused_by(&e, &sent) && !retried => retried = true,
                result => return result,
            }
        }
    }

    /// Reads the response of a unary call.
    async fn read_unary(
        &self,
        op: Operation,
        v03: bool,
        id: &Id,
        response: http::Response<ResponseBody>,
    ) -> Result<Reply, A2aError> {
        let (parts, mut body) = response.into_parts();
        #[cfg(feature = "grpc")]
        if self.binding == Binding::Grpc {
            let head = grpc_client::read_head(&parts, &self.url)?;
            return grpc_client::read_unary(op, head, &mut body, self.config.max_response_body)
                .await;
        }
        if !parts.status.is_success() {
            return Err(self.error_response(&parts, &mut body, v03).await);
        }
        let bytes =
            match read_body(&parts.headers, &mut body, self.config.max_response_body).await? {
                ReadBody::Complete(b) => b,
                ReadBody::TooLarge => return Err(too_large(self.config.max_response_body)),
            };
        if !bytes.is_empty() {
            check_json(&parts.headers)?;
        }
        let result = match (self.binding, v03) {
            (Binding::JsonRpc, false) => decode_reply(op, &bytes, id),
            (Binding::JsonRpc, true) => decode_reply_v0_3(op, &bytes, id),
            (_, false) => decode_rest(op, &bytes),
            (_, true) => a2a_types::v0_3::reply_from_rest(
                op,
                &bytes,
                &DecodeLimits::new().with_max_input_bytes(usize::MAX),
            )
            .map_err(|e| invalid_response(&e.to_string())),
        };
        result.map_err(|e| with_challenges(e, &parts.headers))
    }

    /// Opens a stream: checks the response and hands its body to an
    /// [`SseStream`].
    async fn open_stream(
        &self,
        cx: &CallContext,
        request: A2aRequest,
    ) -> Result<SseStream, A2aError> {
        let v03 = self.version_for(cx) == ProtocolVersion::V0_3;
        let (http_request, id) = self.build(cx, request, true)?;
        let mut retried = false;
        loop {
            let (attempt, sent) = self
                .credentials
                .attach(&http_request, self.binding == Binding::Grpc)
                .await?;
            let response = self.send_http(attempt).await?;
            // Only an error opening the stream comes here: once an event
            // has arrived, the stream is the caller's and is not re-sent.
            match self.read_stream(v03, id.clone(), response).await {
                Err(e) if self.credentials.refused_by(&e, &sent) && !retried => retried = true,
                result => return result,
            }
        }
    }

    /// Reads the head of a stream's response, and its error body if any.
    async fn read_stream(
        &self,
        v03: bool,
        id: Id,
        response: http::Response<ResponseBody>,
    ) -> Result<SseStream, A2aError> {
        let (parts, mut body) = response.into_parts();
        #[cfg(feature = "grpc")]
        if self.binding == Binding::Grpc {
            let head = grpc_client::read_head(&parts, &self.url)?;
            return Ok(SseStream::grpc(GrpcEvents::new(
                head,
                body,
                self.config.max_response_body,
            )));
        }
        if !parts.status.is_success() {
            return Err(self.error_response(&parts, &mut body, v03).await);
        }
        match media_type(&parts.headers) {
            Some(m) if m.eq_ignore_ascii_case(EVENT_STREAM) => {
                let stream = SseStream::new(body, self.binding, id, self.config.sse);
                return if v03 {
                    stream.v0_3().first_error().await
                } else {
                    Ok(stream)
                };
            }
            Some(m) if is_json(m) => {}
            other => {
                return Err(invalid_response(&format!(
                    "a stream must be {EVENT_STREAM}, the response is {}",
                    other.unwrap_or("without a Content-Type")
                )))
            }
        }
        // A JSON answer to a streaming call: the binding's error object is
        // the error; anything else is not a stream.
        let bytes = match read_body(&parts.headers, &mut body, self.config.max_error_body).await? {
            ReadBody::Complete(b) => b,
            ReadBody::TooLarge => return Err(too_large(self.config.max_error_body)),
        };
        let error = match self.binding {
            Binding::JsonRpc => jsonrpc_error(&bytes),
            Binding::HttpJson => rest_error(&bytes, v03),
            // gRPC is read by grpc_client before this point.
            _ => None,
        };
        Err(match error {
            Some(e) => with_challenges(e, &parts.headers),
            None => invalid_response(&format!(
                "a stream must be {EVENT_STREAM}, the response is JSON"
            )),
        })
    }

    /// The error of a non-2xx response (see the module documentation).
    async fn error_response(
        &self,
        parts: &http::response::Parts,
        body: &mut ResponseBody,
        v03: bool,
    ) -> A2aError {
        let status = parts.status.as_u16();
        let json = match read_body(&parts.headers, body, self.config.max_error_body).await {
            Ok(ReadBody::Complete(b)) if !b.is_empty() && json_or_untyped(&parts.headers) => {
                Some(b)
            }
            _ => None,
        };
        let error = match self.binding {
            Binding::JsonRpc => match json.and_then(|b| jsonrpc_error(&b)) {
                // 401 and 403 are the authentication and authorization
                // errors of both HTTP bindings (spec 3.3.2), whatever code a
                // middleware in front of the agent put in its body.
                Some(e) if matches!(status, 401 | 403) && !is_auth_kind(e.kind()) => {
                    A2aError::from_status(
                        status,
                        Some(RpcStatus {
                            code: status,
                            status: String::new(),
                            message: e.message().to_owned(),
                            details: e.details().to_vec(),
                        }),
                    )
                }
                Some(e) => e.with_received_status(status),
                None => status_without_error(status, &self.url.to_string()),
            },
            Binding::HttpJson if v03 => {
                let json = json.as_deref();
                match json.and_then(|b| rest_error(b, true)) {
                    Some(e) => e.with_received_status(status),
                    // The Python 0.3 SDK's REST errors: `{"message"}` and
                    // the HTTP status alone.
                    None => match json.and_then(message_only) {
                        Some(message) => A2aError::from_status(
                            status,
                            Some(RpcStatus {
                                code: status,
                                status: String::new(),
                                message,
                                details: Vec::new(),
                            }),
                        ),
                        None => status_without_error(status, &self.url.to_string()),
                    },
                }
            }
            _ => match json.and_then(|b| serde_json::from_slice::<ErrorBody>(&b).ok()) {
                Some(body) => A2aError::from_status(status, Some(body.error)),
                None => status_without_error(status, &self.url.to_string()),
            },
        };
        with_challenges(error, &parts.headers)
    }
}

fn version_value(version: ProtocolVersion) -> HeaderValue {
    HeaderValue::from_str(&version.to_string()).unwrap_or(HeaderValue::from_static("1.0"))
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, A2aError> {
    a2a_types::json::to_vec(value).map_err(|e| A2aError::internal(format!("request encoding: {e}")))
}

/// Writes the fields of `request` that `route` carries in the query and
/// its path does not (the tenant travels as the path prefix), each as its
/// ProtoJSON value: fields at their default are absent from the message's
/// JSON, so they are not sent.
fn write_query(
    route: &Route,
    request: &A2aRequest,
    query: &mut QueryBuilder,
) -> Result<(), A2aError> {
    if route.query_fields().is_empty() {
        return Ok(());
    }
    let message = serde_json::to_value(request)
        .map_err(|e| A2aError::internal(format!("request encoding: {e}")))?;
    for field in route.query_fields() {
        if route.path_fields().any(|(_, f)| f == field.name) {
            continue;
        }
        match (field.kind, message.get(field.name)) {
            (_, None) => {}
            (QueryKind::Int32, Some(v)) => {
                if let Some(n) = v.as_i64() {
                    query.push_int(field.name, n);
                }
            }
            #[cfg(feature = "draft-1-1")]
            (QueryKind::Int64, Some(v)) => {
                if let Some(n) = v.as_str().and_then(|t| t.parse::<i64>().ok()) {
                    query.push_int(field.name, n);
                }
            }
            (QueryKind::Bool, Some(v)) => {
                if let Some(b) = v.as_bool() {
                    query.push_bool(field.name, b);
                }
            }
            (QueryKind::String | QueryKind::TaskState | QueryKind::Timestamp, Some(v)) => {
                if let Some(text) = v.as_str() {
                    query.push(field.name, text);
                }
            }
        }
    }
    Ok(())
}

/// A path parameter the request lacks, as the `InvalidParamsError` a
/// server would answer.
fn path_error(op: Operation, e: BuildPathError) -> A2aError {
    let param = match e {
        BuildPathError::MissingParam { param, .. }
        | BuildPathError::UnexpectedParam { param, .. }
        | BuildPathError::EmptyParam { param } => param,
        // Only a 0.3 table lacks a route; the caller's version has no
        // such operation.
        BuildPathError::NoRoute { .. } => {
            return A2aError::new(a2a_types::ErrorKind::MethodNotFound, e.to_string())
        }
        _ => return A2aError::internal(e.to_string()),
    };
    let field = Route::canonical(op)
        .field_name(param)
        .unwrap_or(param.name());
    A2aError::invalid_params(vec![FieldViolation {
        field: field.to_owned(),
        description: "Required field is missing".to_owned(),
    }])
}

/// The error of a call on a transport whose binding this client does not
/// speak (which `new` refuses, so no call reaches it).
fn unspoken(binding: Binding) -> A2aError {
    A2aError::internal(format!(
        "this client does not speak the {} binding",
        binding.as_str()
    ))
}

pub(crate) fn too_large(max: usize) -> A2aError {
    ClientFailure::ResponseTooLarge.error(format!(
        "the response body exceeds the limit of {max} bytes"
    ))
}

/// The media type of `Content-Type`, without parameters.
pub(crate) fn media_type(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    Some(value.split(';').next().unwrap_or_default().trim())
}

/// `application/json`, `application/a2a+json` or any `+json` type: what a
/// client accepts as JSON, a little wider than what a server accepts in a
/// request ([`is_json_media_type`](a2a_wire::is_json_media_type)).
pub(crate) fn is_json(media: &str) -> bool {
    let media = media.to_ascii_lowercase();
    media == APPLICATION_JSON || media.starts_with("application/") && media.ends_with("+json")
}

/// True when the body may be JSON: a JSON type, or no `Content-Type`.
fn json_or_untyped(headers: &HeaderMap) -> bool {
    media_type(headers).is_none_or(is_json)
}

/// A success body must be JSON when it says what it is.
fn check_json(headers: &HeaderMap) -> Result<(), A2aError> {
    match media_type(headers) {
        Some(m) if !is_json(m) => Err(invalid_response(&format!(
            "expected a JSON body, the response is {m}"
        ))),
        _ => Ok(()),
    }
}

/// An HTTP+JSON success body as the result of `op` (an empty body reads as
/// `null`, which only `google.protobuf.Empty` accepts).
fn decode_rest(op: Operation, bytes: &[u8]) -> Result<Reply, A2aError> {
    let input: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"null"
    } else {
        bytes
    };
    Reply::from_json(
        op,
        input,
        &DecodeLimits::new().with_max_input_bytes(usize::MAX),
    )
    .map_err(|e| invalid_response(&e.to_string()))
}

/// The `message` of a `{"message": "..."}` body (at most 1 KiB kept).
fn message_only(bytes: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Body {
        message: String,
    }
    let mut message = serde_json::from_slice::<Body>(bytes).ok()?.message;
    if message.len() > 1024 {
        let mut end = 1024;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
    }
    Some(message)
}

/// `ListTasks` at 0.3: the 0.3 method-not-found error (0.3 has no
/// `tasks/list`; `a2a_types::v0_3::MAPPING`).
fn no_v03_list_tasks() -> A2aError {
    A2aError::new(
        ErrorKind::MethodNotFound,
        "ListTasks has no A2A 0.3 form (0.3 has no tasks/list): not sent",
    )
}

fn is_auth_kind(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::Unauthenticated | ErrorKind::PermissionDenied
    )
}

/// The JSON-RPC error object of a body, if it has one.
pub(crate) fn jsonrpc_error(bytes: &[u8]) -> Option<A2aError> {
    #[derive(Deserialize)]
    struct Envelope {
        error: Option<JsonRpcError>,
    }
    serde_json::from_slice::<Envelope>(bytes)
        .ok()?
        .error
        .map(A2aError::from_jsonrpc_error)
}

/// Every operation over the transport's binding: unary calls answer their
/// decoded result, streaming calls an [`SseStream`] of their events.
impl<C: HttpClient> Forward for HttpTransport<C> {
    fn forward<'a>(
        &'a self,
        cx: &'a CallContext,
        request: A2aRequest,
    ) -> BoxFuture<'a, Result<Reply, A2aError>> {
        Box::pin(async move {
            let op = request.operation();
            if !op.is_streaming() {
                return self.unary(cx, request).await;
            }
            let events: EventStream = Box::pin(self.open_stream(cx, request).await?);
            Reply::stream(op, events)
                .map_err(|_| A2aError::internal(format!("{op} does not stream")))
        })
    }
}
