//! [`HttpTransport`]: the client side of both HTTP bindings (the `client`
//! module's documentation gives its exact requests).

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use a2a_jsonrpc::Id;
use a2a_types::{
    A2aError, A2aRequest, AgentInterface, FieldViolation, Reply, SendMessageRequest,
    SubscribeToTaskRequest,
};
use bytes::Bytes;
use http::header::HeaderValue;
use http::Uri;

use crate::client_stream::SseStream;
use crate::codec::{Codec, Endpoint, SPOKEN_VERSIONS};
use crate::config::ClientConfig;
use crate::credentials::CallCredentials;
use a2a_wire::http_json::Router;
use a2a_wire::service_params::{encode_extensions, A2A_EXTENSIONS};
use a2a_wire::service_params::{ProtocolVersion, A2A_VERSION};
use a2a_wire::Binding;
use a2a_wire::ResponseBody;
use a2a_wire::{parse_interface_url, InterfaceUrlError};
use a2a_wire::{BoxFuture, CallContext, EventStream, Forward, HttpClient};

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
    endpoint: Endpoint,
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
            .field("url", &self.endpoint.url)
            .field("tenant", &self.tenant)
            .field("version", &self.version)
            .field("config", &self.config)
            .field("credentials", &self.credentials)
            .finish_non_exhaustive()
    }
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
            endpoint: Endpoint { url: uri, router },
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
    /// ([`MethodTable::V0_3`](a2a_jsonrpc::MethodTable::V0_3)) or routes
    /// ([`RouteTable::V0_3`](a2a_wire::http_json::RouteTable::V0_3)), params,
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
        &self.endpoint.url
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

    /// The codec of a call with `cx`, and its HTTP request with, for
    /// JSON-RPC, its id.
    fn build(
        &self,
        cx: &CallContext,
        mut request: A2aRequest,
        streaming: bool,
    ) -> Result<(Codec, http::Request<Bytes>, Id), A2aError> {
        let version = self.version.unwrap_or(cx.version);
        let codec = Codec::for_call(self.binding, version)?;
        // Below 1.1 the request carries no 1.1 field: a 1.0 agent sees a
        // 1.0 request whatever the host set.
        #[cfg(feature = "draft-1-1")]
        if version < ProtocolVersion::V1_1 {
            a2a_types::draft_1_1::DraftFields::clear_draft_fields(&mut request);
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
        let n = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (http_request, id) = codec.encode(
            &self.endpoint,
            &request,
            n,
            headers,
            streaming,
            &self.config,
        )?;
        Ok((codec, http_request, id))
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

    /// Sends `request` with the call's credentials through the host's
    /// client, once more when the agent refuses a credential a provider
    /// may renew, and reads the answer with `read`.
    async fn exchange<T, F>(
        &self,
        codec: Codec,
        request: http::Request<Bytes>,
        read: impl Fn(http::Response<ResponseBody>) -> F,
    ) -> Result<T, A2aError>
    where
        F: std::future::Future<Output = Result<T, A2aError>>,
    {
        let mut retried = false;
        loop {
            let (attempt, sent) = self
                .credentials
                .attach(&request, codec.binding() == Binding::Grpc)
                .await?;
            let response = self
                .client
                .send(attempt)
                .await
                .map_err(|e| codec.send_failed(e))?;
            match read(response).await {
                Err(e) if self.credentials.refused_by(&e, &sent) && !retried => retried = true,
                result => return result,
            }
        }
    }

    /// Sends a unary call and decodes its result.
    async fn unary(&self, cx: &CallContext, request: A2aRequest) -> Result<Reply, A2aError> {
        let op = request.operation();
        let (codec, http_request, id) = self.build(cx, request, false)?;
        self.exchange(codec, http_request, |response| {
            codec.read_unary(op, &id, response, &self.endpoint, &self.config)
        })
        .await
    }

    /// Opens a stream: checks the response and hands its body to an
    /// [`SseStream`]. Only an error opening the stream is retried: once an
    /// event has arrived, the stream is the caller's and is not re-sent.
    async fn open_stream(
        &self,
        cx: &CallContext,
        request: A2aRequest,
    ) -> Result<SseStream, A2aError> {
        let (codec, http_request, id) = self.build(cx, request, true)?;
        self.exchange(codec, http_request, |response| {
            codec.read_stream(id.clone(), response, &self.endpoint, &self.config)
        })
        .await
    }
}

fn version_value(version: ProtocolVersion) -> HeaderValue {
    HeaderValue::from_str(&version.to_string()).unwrap_or(HeaderValue::from_static("1.0"))
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
