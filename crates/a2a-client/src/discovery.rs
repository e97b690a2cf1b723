//! Agent discovery on the client side (spec 8.2, 8.3, 8.6, 5.2): fetch the
//! agent card, check it, and choose the interface to talk to.
//!
//! - **Where** ([`CardResolver`], [`discover`]): `GET
//!   {base}/.well-known/agent-card.json` (spec 8.2), where `{base}` is the
//!   URL given, its path kept (`https://host/agents/a` reads
//!   `https://host/agents/a/.well-known/agent-card.json`); a card found in
//!   a registry or configured directly is used with
//!   [`CardResolver::for_card_url`] or [`Discovered::from_card`]. The
//!   request carries `Accept: application/json`, `A2A-Version: 1.0` and the
//!   resolver's extra headers.
//! - **Checks**: the body is bounded ([`CardResolver::with_max_card_size`]),
//!   must be JSON when it says what it is, must decode as an `AgentCard`,
//!   and must pass [`Validate`] (every REQUIRED field set): a bad card fails
//!   at discovery, not at the first call.
//! - **0.3 cards** ([`decode_card`]): a card without `supportedInterfaces`
//!   but with 0.3's `url` is read as a 0.3 card (0.3 spec 5.5, through
//!   `a2a_types::v0_3`), its interfaces at its `protocolVersion` (0.3). A
//!   union card (both member sets, as SDKs with a 0.3 layer serve) is read
//!   as 1.0, and the interfaces of its 0.3 members that `supportedInterfaces`
//!   lacks are added at 0.3, after the 1.0 ones.
//! - **Choice** ([`select_interface`], spec 8.3.2): the interfaces whose
//!   `protocolBinding` the caller speaks ([`Preferences::bindings`]) at a
//!   protocol version it speaks ([`Preferences::versions`], `Major.Minor`,
//!   patch ignored, spec 3.6) over that binding (1.0 over all three, 0.3
//!   over JSON-RPC and HTTP+JSON) with a usable URL (for `GRPC` also a bare
//!   `host:port`, read as `https://host:port`). **The order**, decided here
//!   only: first the protocol version, in [`Preferences::versions`] order
//!   (default: 1.0, then 0.3: a 0.3 interface is a fallback, since 0.3
//!   loses what 1.0 added, `a2a_types::v0_3::MAPPING`); then, within a
//!   version, **the card's order**: spec 8.3.2 says clients MUST prefer
//!   earlier entries, the first one being the agent's preferred interface
//!   (8.3.1). A caller that must rank by its own preference instead sets
//!   [`SelectionOrder::Caller`] (then, within a version: binding
//!   preference, then card order). The full ranked list
//!   ([`select_interfaces`]) is there for fallback to an alternative
//!   interface (spec 5.2). [`discover`] considers no version this client
//!   does not speak, whatever the preferences say.
//! - **Tenant**: the selected interface's `tenant` goes with the transport
//!   and into every request (spec 8.3.2 rule 4).
//! - **Nothing usable** is [`DiscoveryError::NoCompatibleInterface`], whose
//!   message lists what the card offered and why each was passed over.
//! - **Caching** (spec 8.6.2, RFC 9111 for a private cache): a
//!   [`CardResolver`] keeps the last card with its `ETag` and
//!   `Last-Modified`; it is fresh for `Cache-Control: max-age` minus `Age`
//!   (no `Cache-Control`: [`CardResolver::with_default_max_age`], default
//!   zero, so every resolution revalidates), `no-cache` makes it stale at
//!   once, `no-store` keeps nothing. A stale card is revalidated with
//!   `If-None-Match` / `If-Modified-Since`, and a `304` keeps it. The core
//!   has no clock: [`CardResolver::resolve`] takes the current instant.

use std::fmt;
use std::time::{Duration, Instant};

use a2a_types::{
    A2aError, AgentCard, AgentInterface, DecodeError, ErrorBody, FieldViolation, Validate,
};
use bytes::Bytes;
use http::header::{
    HeaderValue, ACCEPT, AGE, CACHE_CONTROL, ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED,
};
use http::{HeaderMap, Method, StatusCode, Uri};

use crate::client_error::{invalid_response, status_without_error, with_challenges};
use crate::codec::{is_json, media_type, speaks, speaks_binding, too_large, SPOKEN_VERSIONS};
use crate::http_transport::HttpTransport;
use a2a_wire::service_params::{ProtocolVersion, A2A_VERSION};
use a2a_wire::Binding;
use a2a_wire::BoxFuture;
use a2a_wire::APPLICATION_JSON;
use a2a_wire::{parse_http_url, parse_interface_url, InterfaceUrlError, AGENT_CARD_PATH};
use a2a_wire::{read_body, HttpClient, ReadBody};

/// Whose order decides between usable interfaces (see the module
/// documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SelectionOrder {
    /// The card's order (within a version), as spec 8.3.2 requires. The
    /// default.
    #[default]
    Card,
    /// The caller's (within a version): [`Preferences::bindings`] first,
    /// then the card's order.
    Caller,
}

/// What the caller speaks, for [`select_interface`] and [`discover`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Preferences {
    /// Bindings the caller accepts, most preferred first. Default:
    /// JSON-RPC, then HTTP+JSON, then gRPC ([`Binding::ALL`]), gRPC only
    /// with the `grpc` feature.
    pub bindings: Vec<Binding>,
    /// Protocol versions the caller accepts, most preferred first: the
    /// first key of the order (see the module documentation). Default:
    /// 1.0, then 0.3.
    pub versions: Vec<ProtocolVersion>,
    /// Whose order decides within a protocol version. Default:
    /// [`SelectionOrder::Card`].
    pub order: SelectionOrder,
}

impl Preferences {
    /// The three bindings (JSON-RPC first; gRPC with the `grpc`
    /// feature), version 1.0 then 0.3, the card's order.
    pub fn new() -> Preferences {
        Preferences {
            bindings: Binding::ALL
                .into_iter()
                .filter(|b| speaks_binding(*b))
                .collect(),
            versions: SPOKEN_VERSIONS.to_vec(),
            order: SelectionOrder::Card,
        }
    }

    /// The same preferences accepting only `bindings`, in that order.
    pub fn with_bindings(mut self, bindings: impl IntoIterator<Item = Binding>) -> Preferences {
        self.bindings = bindings.into_iter().collect();
        self
    }

    /// The same preferences accepting only `versions`, in that order.
    pub fn with_versions(
        mut self,
        versions: impl IntoIterator<Item = ProtocolVersion>,
    ) -> Preferences {
        self.versions = versions.into_iter().collect();
        self
    }

    /// The same preferences with `order`.
    pub fn with_order(mut self, order: SelectionOrder) -> Preferences {
        self.order = order;
        self
    }

    /// Why `interface` is not usable, or its binding, version and rank.
    fn judge(&self, interface: &AgentInterface) -> Result<(Binding, usize, usize), &'static str> {
        let binding = Binding::from_protocol_binding(&interface.protocol_binding)
            .filter(|b| speaks_binding(*b))
            .ok_or("binding not spoken by this client")?;
        let b_rank = self
            .bindings
            .iter()
            .position(|b| *b == binding)
            .ok_or("binding not among the preferred bindings")?;
        let version = ProtocolVersion::parse(interface.protocol_version.trim())
            .map_err(|_| "protocolVersion is not Major.Minor")?;
        let v_rank = self
            .versions
            .iter()
            .position(|v| *v == version)
            .ok_or("protocol version not accepted")?;
        if !speaks(binding, version) {
            return Err("protocol version not spoken over this binding by this client");
        }
        parse_interface_url(binding, &interface.url).map_err(|e| e.reason())?;
        Ok((binding, b_rank, v_rank))
    }
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences::new()
    }
}

/// Every interface of `card` the caller can use, best first (see the
/// module documentation for the order).
pub fn select_interfaces<'c>(card: &'c AgentCard, prefs: &Preferences) -> Vec<&'c AgentInterface> {
    let mut usable: Vec<(usize, usize, usize, &AgentInterface)> = card
        .supported_interfaces
        .iter()
        .enumerate()
        .filter_map(|(pos, i)| prefs.judge(i).ok().map(|(_, b, v)| (b, v, pos, i)))
        .collect();
    match prefs.order {
        SelectionOrder::Card => usable.sort_by_key(|&(_, v, pos, _)| (v, pos)),
        SelectionOrder::Caller => usable.sort_by_key(|&(b, v, pos, _)| (v, b, pos)),
    }
    usable.into_iter().map(|(_, _, _, i)| i).collect()
}

/// The interface of `card` to use (spec 8.3.2), or the error listing what
/// the card offered.
///
/// ```
/// use a2a_client::{select_interface, Binding, Preferences};
/// use a2a_types::{AgentCard, AgentInterface};
///
/// let mut card = AgentCard::default();
/// card.supported_interfaces = vec![
///     AgentInterface::new("grpc.example:443", "GRPC", "1.0"),
///     AgentInterface::new("https://a.example/rest", "HTTP+JSON", "1.0"),
///     AgentInterface::new("https://a.example/rpc", "JSONRPC", "1.0"),
/// ];
/// // The card's order decides: HTTP+JSON before JSON-RPC (and gRPC
/// // before both, where the `grpc` feature is on).
/// let json = Preferences::new().with_bindings(Binding::JSON);
/// assert_eq!(select_interface(&card, &json)?.url, "https://a.example/rest");
///
/// let err = select_interface(&card, &Preferences::new().with_bindings([])).unwrap_err();
/// assert!(err.to_string().contains("GRPC 1.0 at grpc.example:443"));
/// # Ok::<(), a2a_client::DiscoveryError>(())
/// ```
pub fn select_interface<'c>(
    card: &'c AgentCard,
    prefs: &Preferences,
) -> Result<&'c AgentInterface, DiscoveryError> {
    select_interfaces(card, prefs)
        .into_iter()
        .next()
        .ok_or_else(|| {
            DiscoveryError::NoCompatibleInterface(NoCompatibleInterface::new(card, prefs))
        })
}

/// The details of [`DiscoveryError::NoCompatibleInterface`]: what the card
/// offered, why each was passed over, and what the caller speaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoCompatibleInterface {
    offered: Vec<(AgentInterface, &'static str)>,
    bindings: Vec<Binding>,
    versions: Vec<ProtocolVersion>,
}

impl NoCompatibleInterface {
    fn new(card: &AgentCard, prefs: &Preferences) -> NoCompatibleInterface {
        NoCompatibleInterface {
            offered: card
                .supported_interfaces
                .iter()
                .map(|i| (i.clone(), prefs.judge(i).err().unwrap_or("usable")))
                .collect(),
            bindings: prefs.bindings.clone(),
            versions: prefs.versions.clone(),
        }
    }

    /// The card's interfaces, each with why it was passed over.
    pub fn offered(&self) -> impl Iterator<Item = (&AgentInterface, &'static str)> + '_ {
        self.offered.iter().map(|(i, why)| (i, *why))
    }
}

impl fmt::Display for NoCompatibleInterface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the agent card offers no interface this client can use (it speaks ")?;
        let bindings: Vec<&str> = self.bindings.iter().map(|b| b.as_str()).collect();
        let versions: Vec<String> = self.versions.iter().map(|v| v.to_string()).collect();
        write!(
            f,
            "{} at A2A {}); the card offers: ",
            if bindings.is_empty() {
                "no binding".to_owned()
            } else {
                bindings.join(", ")
            },
            if versions.is_empty() {
                "no version".to_owned()
            } else {
                versions.join(", ")
            },
        )?;
        if self.offered.is_empty() {
            return f.write_str("nothing");
        }
        for (n, (i, why)) in self.offered.iter().enumerate() {
            if n > 0 {
                f.write_str("; ")?;
            }
            write!(
                f,
                "{} {} at {} ({why})",
                i.protocol_binding, i.protocol_version, i.url
            )?;
        }
        Ok(())
    }
}

/// Why discovery failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiscoveryError {
    /// The base or card URL is not an absolute `http(s)` URL.
    #[error(transparent)]
    InvalidUrl(#[from] InterfaceUrlError),
    /// The card could not be fetched: the HTTP client failed
    /// ([`ClientFailure`](crate::ClientFailure)), the body was too large,
    /// or the server answered an error status (`401` keeps its
    /// `WWW-Authenticate` challenges, see
    /// [`www_authenticate`](crate::www_authenticate)).
    #[error("fetching the agent card failed: {0}")]
    Fetch(A2aError),
    /// The body is not an `AgentCard` (the error names the JSON path).
    #[error("the agent card does not decode: {0}")]
    Decode(DecodeError),
    /// The card lacks REQUIRED fields (spec 4.4.1).
    #[error("the agent card is invalid: {}", violations(.0))]
    InvalidCard(Vec<FieldViolation>),
    /// No interface of the card is usable (see [`NoCompatibleInterface`]).
    #[error("{0}")]
    NoCompatibleInterface(NoCompatibleInterface),
}

fn violations(v: &[FieldViolation]) -> String {
    let parts: Vec<String> = v
        .iter()
        .map(|v| format!("{}: {}", v.field, v.description))
        .collect();
    parts.join("; ")
}

/// A discovered agent: its card, the chosen interface, and a transport to
/// it carrying the interface's tenant.
#[non_exhaustive]
pub struct Discovered<C> {
    /// The validated card.
    pub card: AgentCard,
    /// The card's JSON exactly as received, when [`discover`] fetched it
    /// (`None` from [`Discovered::from_card`]): what a signature verifier
    /// needs to cover members this crate's types do not know (spec 8.4.3;
    /// the `a2a-signing` crate's `discover_signed`).
    pub card_json: Option<Bytes>,
    /// The interface chosen (spec 8.3.2).
    pub interface: AgentInterface,
    /// A transport for that interface.
    pub transport: HttpTransport<C>,
}

impl<C> fmt::Debug for Discovered<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Discovered")
            .field("card", &self.card.name)
            .field("interface", &self.interface)
            .field("transport", &self.transport)
            .finish()
    }
}

impl<C: HttpClient> Discovered<C> {
    /// Chooses an interface of a card obtained elsewhere (a registry,
    /// direct configuration; spec 8.2) after validating it.
    pub fn from_card(
        client: C,
        card: AgentCard,
        prefs: &Preferences,
    ) -> Result<Discovered<C>, DiscoveryError> {
        Discovered::choose(client, card, prefs, None)
    }

    /// As [`from_card`](Discovered::from_card), for a card fetched from
    /// `card_url`: a gRPC interface at a bare `host:port` is dialled with
    /// the card URL's scheme ([`HttpTransport::for_card_interface`]).
    pub fn from_card_at(
        client: C,
        card: AgentCard,
        prefs: &Preferences,
        card_url: &Uri,
    ) -> Result<Discovered<C>, DiscoveryError> {
        Discovered::choose(client, card, prefs, Some(card_url))
    }

    fn choose(
        client: C,
        card: AgentCard,
        prefs: &Preferences,
        card_url: Option<&Uri>,
    ) -> Result<Discovered<C>, DiscoveryError> {
        card.validate().map_err(DiscoveryError::InvalidCard)?;
        let prefs = speakable(prefs);
        let interface = select_interface(&card, &prefs)?.clone();
        let transport = match card_url {
            Some(url) => HttpTransport::for_card_interface(client, &interface, url),
            None => HttpTransport::for_interface(client, &interface),
        };
        let transport = match transport {
            Some(Ok(t)) => t,
            Some(Err(e)) => return Err(DiscoveryError::InvalidUrl(e)),
            // `select_interface` only picks bindings this client speaks.
            None => {
                return Err(DiscoveryError::NoCompatibleInterface(
                    NoCompatibleInterface::new(&card, &prefs),
                ))
            }
        };
        Ok(Discovered {
            card,
            card_json: None,
            interface,
            transport,
        })
    }
}

/// The preferences reduced to the versions this client can speak.
fn speakable(prefs: &Preferences) -> Preferences {
    let mut prefs = prefs.clone();
    prefs.versions.retain(|v| SPOKEN_VERSIONS.contains(v));
    prefs
}

/// Fetches the card at `{base_url}/.well-known/agent-card.json`, validates
/// it and chooses an interface (spec 8.2, 8.3.2): the whole of discovery
/// in one call, without a cache (see [`CardResolver`] for one).
pub fn discover<'a, C: HttpClient + 'a>(
    client: C,
    base_url: &'a str,
    prefs: &'a Preferences,
) -> BoxFuture<'a, Result<Discovered<C>, DiscoveryError>> {
    Box::pin(async move {
        let resolver = CardResolver::new(base_url)?;
        let fetched = resolver.fetch(&client, None).await?;
        match fetched {
            Fetched::Card(card, _, json) => {
                let mut discovered =
                    Discovered::from_card_at(client, *card, prefs, resolver.url())?;
                discovered.card_json = Some(json);
                Ok(discovered)
            }
            // Never conditional without a cached card.
            Fetched::NotModified(_) => Err(DiscoveryError::Fetch(invalid_response(
                "304 Not Modified to an unconditional request",
            ))),
        }
    })
}

/// Reads an agent card's JSON, in either version's form (see the module
/// documentation): a 1.0 card (`supportedInterfaces`), a 0.3 card (0.3
/// spec 5.5: `url`, `preferredTransport`, `additionalInterfaces`,
/// `protocolVersion`), or a union card of both, whose 0.3 interfaces are
/// kept beside the 1.0 ones. Bounded as [`a2a_types::from_slice`] is
/// (the default [`DecodeLimits`](a2a_types::DecodeLimits)).
///
/// ```
/// use a2a_client::decode_card;
///
/// let card = decode_card(br#"{"name":"a","description":"d","version":"1",
///     "url":"https://a.example/rpc","protocolVersion":"0.3.0",
///     "capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}"#)?;
/// let i = &card.supported_interfaces[0];
/// assert_eq!((i.url.as_str(), i.protocol_binding.as_str(), i.protocol_version.as_str()),
///     ("https://a.example/rpc", "JSONRPC", "0.3"));
/// # Ok::<(), a2a_types::DecodeError>(())
/// ```
pub fn decode_card(bytes: &[u8]) -> Result<AgentCard, DecodeError> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Members {
        #[serde(default)]
        supported_interfaces: Option<serde::de::IgnoredAny>,
        #[serde(default)]
        url: Option<serde::de::IgnoredAny>,
        #[serde(default)]
        additional_interfaces: Option<serde::de::IgnoredAny>,
    }
    // Which member sets the card has; a body that is not even this reads
    // as 1.0, whose decoder names what is wrong.
    let members: Option<Members> = a2a_types::from_slice(bytes).ok();
    let (v10, v03) = members.map_or((true, false), |m| {
        (
            m.supported_interfaces.is_some(),
            m.url.is_some() || m.additional_interfaces.is_some(),
        )
    });
    if !v10 && v03 {
        return a2a_types::v0_3::card_from_v0_3(bytes);
    }
    let mut card: AgentCard = a2a_types::from_slice(bytes)?;
    if v03 {
        // The 1.0 members govern a union card: 0.3 members that do not
        // decode add nothing rather than fail a card 1.0 reads.
        if let Ok(old) = a2a_types::v0_3::card_from_v0_3(bytes) {
            for i in old.supported_interfaces {
                let known = card.supported_interfaces.iter().any(|k| {
                    k.url == i.url
                        && k.protocol_binding.eq_ignore_ascii_case(&i.protocol_binding)
                        && k.protocol_version == i.protocol_version
                });
                if !known {
                    card.supported_interfaces.push(i);
                }
            }
        }
    }
    Ok(card)
}

/// A card and its validators, as last fetched.
#[derive(Debug, Clone)]
struct Cached {
    card: AgentCard,
    etag: Option<HeaderValue>,
    last_modified: Option<HeaderValue>,
    fresh_until: Instant,
}

/// What a response said about caching (RFC 9111 section 5.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Freshness {
    no_store: bool,
    /// `max-age` minus `Age`; `None` without `Cache-Control: max-age`.
    lifetime: Option<Duration>,
}

fn freshness(headers: &HeaderMap) -> Freshness {
    let mut out = Freshness::default();
    let mut no_cache = false;
    for value in headers.get_all(CACHE_CONTROL) {
        let Ok(value) = value.to_str() else { continue };
        for directive in value.split(',') {
            let (name, arg) = match directive.split_once('=') {
                Some((n, a)) => (n.trim(), Some(a.trim().trim_matches('"'))),
                None => (directive.trim(), None),
            };
            if name.eq_ignore_ascii_case("no-store") {
                out.no_store = true;
            } else if name.eq_ignore_ascii_case("no-cache") {
                no_cache = true;
            } else if name.eq_ignore_ascii_case("max-age") {
                if let Some(secs) = arg.and_then(|a| a.parse::<u64>().ok()) {
                    out.lifetime = Some(Duration::from_secs(secs));
                }
            }
        }
    }
    if no_cache {
        out.lifetime = Some(Duration::ZERO);
    }
    let age = headers
        .get(AGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    if let (Some(lifetime), Some(age)) = (out.lifetime, age) {
        out.lifetime = Some(lifetime.saturating_sub(age));
    }
    out
}

enum Fetched {
    Card(Box<AgentCard>, HeaderMap, Bytes),
    NotModified(HeaderMap),
}

/// Fetches an agent card, keeping it for as long as HTTP caching allows
/// (see the module documentation).
///
/// ```
/// use a2a_client::CardResolver;
///
/// let resolver = CardResolver::new("https://agent.example/")?;
/// assert_eq!(resolver.url(), "https://agent.example/.well-known/agent-card.json");
/// # Ok::<(), a2a_client::InterfaceUrlError>(())
/// ```
#[derive(Debug, Clone)]
pub struct CardResolver {
    url: Uri,
    headers: HeaderMap,
    max_card_size: usize,
    default_max_age: Duration,
    cached: Option<Cached>,
}

impl CardResolver {
    /// Default [`with_max_card_size`](Self::with_max_card_size): 1 MiB.
    pub const DEFAULT_MAX_CARD_SIZE: usize = 1024 * 1024;

    /// A resolver for the well-known card under `base_url` (spec 8.2).
    pub fn new(base_url: &str) -> Result<CardResolver, InterfaceUrlError> {
        CardResolver::card_url_under(base_url).map_err(|e| e.naming("agent URL"))
    }

    fn card_url_under(base_url: &str) -> Result<CardResolver, InterfaceUrlError> {
        let base = parse_http_url(base_url)?;
        if base.query().is_some() {
            return Err(InterfaceUrlError::new(
                base_url,
                "a base URL cannot carry a query",
            ));
        }
        let path = format!("{}{AGENT_CARD_PATH}", base.path().trim_end_matches('/'));
        let mut parts = base.into_parts();
        parts.path_and_query = Some(
            path.parse()
                .map_err(|_| InterfaceUrlError::new(base_url, "the path cannot be extended"))?,
        );
        let url = Uri::from_parts(parts)
            .map_err(|_| InterfaceUrlError::new(base_url, "the card URL cannot be built"))?;
        Ok(CardResolver::at(url))
    }

    /// A resolver for a card at exactly `card_url` (spec 8.2, "Direct
    /// Configuration").
    pub fn for_card_url(card_url: &str) -> Result<CardResolver, InterfaceUrlError> {
        parse_http_url(card_url)
            .map(CardResolver::at)
            .map_err(|e| e.naming("agent card URL"))
    }

    fn at(url: Uri) -> CardResolver {
        CardResolver {
            url,
            headers: HeaderMap::new(),
            max_card_size: CardResolver::DEFAULT_MAX_CARD_SIZE,
            default_max_age: Duration::ZERO,
            cached: None,
        }
    }

    /// The same resolver sending `headers` too (credentials, say).
    pub fn with_headers(mut self, headers: HeaderMap) -> CardResolver {
        self.headers = headers;
        self
    }

    /// The same resolver refusing cards over `bytes`.
    pub fn with_max_card_size(mut self, bytes: usize) -> CardResolver {
        self.max_card_size = bytes;
        self
    }

    /// The same resolver keeping a card without `Cache-Control` for
    /// `max_age` (spec 8.6.2 lets clients choose; default zero).
    pub fn with_default_max_age(mut self, max_age: Duration) -> CardResolver {
        self.default_max_age = max_age;
        self
    }

    /// The card URL.
    pub fn url(&self) -> &Uri {
        &self.url
    }

    /// The card held, fresh or not.
    pub fn cached(&self) -> Option<&AgentCard> {
        self.cached.as_ref().map(|c| &c.card)
    }

    /// Forgets the card held (for example after an extended card replaced
    /// it, spec 3.1.11).
    pub fn clear(&mut self) {
        self.cached = None;
    }

    /// The card: the one held while fresh at `now`, else fetched
    /// (conditionally when one is held), decoded and validated.
    pub fn resolve<'a, C: HttpClient + ?Sized>(
        &'a mut self,
        client: &'a C,
        now: Instant,
    ) -> BoxFuture<'a, Result<AgentCard, DiscoveryError>> {
        Box::pin(async move {
            if let Some(c) = &self.cached {
                if now < c.fresh_until {
                    return Ok(c.card.clone());
                }
            }
            let held = self.cached.as_ref();
            let fetched = self.fetch(client, held).await?;
            let (card, headers, old) = match fetched {
                Fetched::Card(card, headers, _) => (*card, headers, None),
                Fetched::NotModified(headers) => match self.cached.take() {
                    Some(c) => (c.card.clone(), headers, Some(c)),
                    None => {
                        return Err(DiscoveryError::Fetch(invalid_response(
                            "304 Not Modified to an unconditional request",
                        )))
                    }
                },
            };
            let f = freshness(&headers);
            // A 304 may omit the validators (RFC 9110 section 15.4.5): keep
            // the held ones then.
            let etag = headers
                .get(ETAG)
                .cloned()
                .or_else(|| old.as_ref().and_then(|c| c.etag.clone()));
            let last_modified = headers
                .get(LAST_MODIFIED)
                .cloned()
                .or_else(|| old.as_ref().and_then(|c| c.last_modified.clone()));
            self.cached = (!f.no_store).then(|| Cached {
                card: card.clone(),
                etag,
                last_modified,
                fresh_until: now + f.lifetime.unwrap_or(self.default_max_age),
            });
            Ok(card)
        })
    }

    /// One request for the card, conditional on `held`'s validators.
    async fn fetch<C: HttpClient + ?Sized>(
        &self,
        client: &C,
        held: Option<&Cached>,
    ) -> Result<Fetched, DiscoveryError> {
        let mut headers = self.headers.clone();
        headers.insert(ACCEPT, HeaderValue::from_static(APPLICATION_JSON));
        headers.insert(A2A_VERSION, HeaderValue::from_static("1.0"));
        if let Some(held) = held {
            if let Some(etag) = &held.etag {
                headers.insert(IF_NONE_MATCH, etag.clone());
            }
            if let Some(date) = &held.last_modified {
                headers.insert(IF_MODIFIED_SINCE, date.clone());
            }
        }
        let mut request = http::Request::new(Bytes::new());
        *request.method_mut() = Method::GET;
        *request.uri_mut() = self.url.clone();
        *request.headers_mut() = headers;

        let response = client
            .send(request)
            .await
            .map_err(|e| DiscoveryError::Fetch(e.into()))?;
        let (parts, mut body) = response.into_parts();
        if parts.status == StatusCode::NOT_MODIFIED && held.is_some() {
            return Ok(Fetched::NotModified(parts.headers));
        }
        let limit = if parts.status.is_success() {
            self.max_card_size
        } else {
            crate::ClientConfig::DEFAULT_MAX_ERROR_BODY
        };
        let read = read_body(&parts.headers, &mut body, limit)
            .await
            .map_err(|e| DiscoveryError::Fetch(e.into()))?;
        let json_typed = media_type(&parts.headers).is_none_or(is_json);
        if !parts.status.is_success() {
            let status = match read {
                ReadBody::Complete(b) if json_typed => serde_json::from_slice::<ErrorBody>(&b)
                    .ok()
                    .map(|b| b.error),
                _ => None,
            };
            let error = match status {
                Some(status) => A2aError::from_status(parts.status.as_u16(), Some(status)),
                None => status_without_error(parts.status.as_u16(), &self.url.to_string()),
            };
            return Err(DiscoveryError::Fetch(with_challenges(
                error,
                &parts.headers,
            )));
        }
        let bytes = match read {
            ReadBody::Complete(b) => b,
            ReadBody::TooLarge => return Err(DiscoveryError::Fetch(too_large(limit))),
        };
        if !json_typed {
            return Err(DiscoveryError::Fetch(invalid_response(&format!(
                "the agent card must be JSON, the response is {}",
                media_type(&parts.headers).unwrap_or_default()
            ))));
        }
        let card = decode_card(&bytes).map_err(DiscoveryError::Decode)?;
        card.validate().map_err(DiscoveryError::InvalidCard)?;
        Ok(Fetched::Card(Box::new(card), parts.headers, bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The URLs of the interfaces `p` selects from `c`, in order.
    fn selected_urls(c: &AgentCard, p: &Preferences) -> Vec<String> {
        select_interfaces(c, p)
            .iter()
            .map(|i| i.url.clone())
            .collect()
    }

    fn card(interfaces: &[(&str, &str, &str)]) -> AgentCard {
        AgentCard {
            supported_interfaces: interfaces
                .iter()
                .map(|(u, b, v)| AgentInterface::new(*u, *b, *v))
                .collect(),
            ..AgentCard::default()
        }
    }

    #[test]
    fn card_order_wins_by_default_and_caller_order_on_request() {
        let c = card(&[
            ("https://a/rest", "HTTP+JSON", "1.0"),
            ("https://a/rpc", "JSONRPC", "1.0"),
        ]);
        let urls = |p: &Preferences| selected_urls(&c, p);
        assert_eq!(
            urls(&Preferences::new()),
            ["https://a/rest", "https://a/rpc"]
        );
        let caller = Preferences::new().with_order(SelectionOrder::Caller);
        assert_eq!(urls(&caller), ["https://a/rpc", "https://a/rest"]);
        let rest_only = Preferences::new().with_bindings([Binding::HttpJson]);
        assert_eq!(urls(&rest_only), ["https://a/rest"]);
    }

    #[test]
    #[cfg(not(feature = "grpc"))]
    fn grpc_is_passed_over_without_the_grpc_feature() {
        let c = card(&[
            ("grpc.a:443", "GRPC", "1.0"),
            ("https://a/rpc", "JSONRPC", "1.0"),
        ]);
        assert_eq!(selected_urls(&c, &Preferences::new()), ["https://a/rpc"]);
        let grpc_only = Preferences::new().with_bindings([Binding::Grpc]);
        let err = NoCompatibleInterface::new(&c, &grpc_only);
        assert!(
            err.to_string()
                .contains("GRPC 1.0 at grpc.a:443 (binding not spoken by this client)"),
            "{err}"
        );
        struct Offline;
        impl HttpClient for Offline {
            fn send(
                &self,
                _: http::Request<Bytes>,
            ) -> BoxFuture<'_, Result<http::Response<a2a_wire::ResponseBody>, a2a_wire::HttpError>>
            {
                Box::pin(async { Err(a2a_wire::HttpError::Other("offline".into())) })
            }
        }
        let refused = HttpTransport::new(Offline, Binding::Grpc, "https://grpc.a:443");
        assert!(
            refused.is_err_and(|e| e.reason().contains("`grpc` feature")),
            "gRPC is refused at construction"
        );
    }

    #[test]
    #[cfg(feature = "grpc")]
    fn versions_bindings_and_urls_filter() {
        let c = card(&[
            ("https://a/old", "JSONRPC", "0.3"),
            ("https://a/patch", "jsonrpc", "1.0.2"),
            ("not a url", "JSONRPC", "1.0"),
            ("grpc.a:443", "GRPC", "1.0"),
            (
                "https://a/ws",
                "https://example.com/bindings/websocket/v1",
                "1.0",
            ),
        ]);
        let chosen = select_interfaces(&c, &Preferences::new());
        assert_eq!(chosen.len(), 3);
        assert_eq!(
            chosen[0].url, "https://a/patch",
            "patch ignored, binding case-insensitive"
        );
        assert_eq!(chosen[1].url, "grpc.a:443", "gRPC at a bare host:port");
        assert_eq!(chosen[2].url, "https://a/old", "0.3 last, though first");
        let only_1_0 = Preferences::new().with_versions([ProtocolVersion::V1_0]);
        assert_eq!(select_interfaces(&c, &only_1_0).len(), 2);
        let json = Preferences::new()
            .with_bindings(Binding::JSON)
            .with_versions([ProtocolVersion::V1_0]);
        let mut without = c.clone();
        without.supported_interfaces.remove(1);
        let DiscoveryError::NoCompatibleInterface(e) =
            select_interface(&without, &json).unwrap_err()
        else {
            panic!()
        };
        let text = e.to_string();
        for want in [
            "JSONRPC 0.3 at https://a/old (protocol version not accepted)",
            "not a url (not a valid URI)",
            "GRPC 1.0 at grpc.a:443 (binding not among the preferred bindings)",
            "it speaks JSONRPC, HTTP+JSON at A2A 1.0)",
        ] {
            assert!(text.contains(want), "{want:?} not in {text}");
        }
        assert_eq!(e.offered().count(), 4);
        let none = Preferences::new().with_versions([]).with_bindings([]);
        let text = select_interface(&c, &none).unwrap_err().to_string();
        assert!(
            text.contains("it speaks no binding at A2A no version"),
            "{text}"
        );
    }

    #[test]
    #[cfg(feature = "grpc")]
    fn versions_rank_first_and_0_3_is_not_spoken_over_grpc() {
        let c = card(&[
            ("grpc.a:443", "GRPC", "0.3"),
            ("https://a/rpc03", "JSONRPC", "0.3"),
            ("https://a/rest03", "HTTP+JSON", "0.3"),
            ("https://a/rest", "HTTP+JSON", "1.0"),
        ]);
        let urls = |p: &Preferences| selected_urls(&c, p);
        assert_eq!(
            urls(&Preferences::new()),
            ["https://a/rest", "https://a/rpc03", "https://a/rest03"]
        );
        let caller = Preferences::new()
            .with_order(SelectionOrder::Caller)
            .with_bindings([Binding::HttpJson, Binding::JsonRpc]);
        assert_eq!(
            urls(&caller),
            ["https://a/rest", "https://a/rest03", "https://a/rpc03"]
        );
        let old_first =
            Preferences::new().with_versions([ProtocolVersion::V0_3, ProtocolVersion::V1_0]);
        assert_eq!(urls(&old_first)[0], "https://a/rpc03");
        let err =
            NoCompatibleInterface::new(&c, &Preferences::new().with_bindings([Binding::Grpc]));
        assert!(err
            .to_string()
            .contains("GRPC 0.3 at grpc.a:443 (protocol version not spoken over this binding"));
    }

    #[test]
    fn cards_of_either_version_decode() {
        let v03 = br#"{"name":"a","description":"d","version":"1","protocolVersion":"0.3.0",
            "url":"https://a/rpc","preferredTransport":"JSONRPC",
            "additionalInterfaces":[{"url":"https://a/rpc","transport":"JSONRPC"},
                                    {"url":"https://a/rest","transport":"HTTP+JSON"}],
            "capabilities":{},"defaultInputModes":["text/plain"],
            "defaultOutputModes":["text/plain"],"skills":[]}"#;
        let card = decode_card(v03).unwrap();
        let got: Vec<(&str, &str, &str)> = card
            .supported_interfaces
            .iter()
            .map(|i| {
                (
                    i.url.as_str(),
                    i.protocol_binding.as_str(),
                    i.protocol_version.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("https://a/rpc", "JSONRPC", "0.3"),
                ("https://a/rest", "HTTP+JSON", "0.3")
            ]
        );
        // A union card: the 1.0 interfaces, then the 0.3 ones it lacks.
        let mut union: serde_json::Value = serde_json::from_slice(v03).unwrap();
        union["supportedInterfaces"] = serde_json::json!([
            {"url": "https://a/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "https://a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"},
        ]);
        let card = decode_card(union.to_string().as_bytes()).unwrap();
        let got: Vec<(&str, &str)> = card
            .supported_interfaces
            .iter()
            .map(|i| (i.url.as_str(), i.protocol_version.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("https://a/v1", "1.0"),
                ("https://a/rest", "0.3"),
                ("https://a/rpc", "0.3")
            ]
        );
        // A plain 1.0 card is read as before; garbage still fails.
        let mut plain = union.clone();
        for k in a2a_types::v0_3::V03_CARD_MEMBERS {
            plain.as_object_mut().unwrap().remove(*k);
        }
        assert_eq!(
            decode_card(plain.to_string().as_bytes())
                .unwrap()
                .supported_interfaces
                .len(),
            2
        );
        assert!(decode_card(b"[1]").is_err());
        assert!(decode_card(br#"{"url": 5}"#).is_err());
    }

    #[test]
    fn cache_control_is_read() {
        let mut h = HeaderMap::new();
        assert_eq!(freshness(&h), Freshness::default());
        h.insert(
            CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=\"600\""),
        );
        h.insert(AGE, HeaderValue::from_static("100"));
        assert_eq!(freshness(&h).lifetime, Some(Duration::from_secs(500)));
        h.append(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        assert_eq!(freshness(&h).lifetime, Some(Duration::ZERO));
        let mut h = HeaderMap::new();
        h.insert(CACHE_CONTROL, HeaderValue::from_static("No-Store"));
        assert!(freshness(&h).no_store);
    }

    #[test]
    fn card_urls() {
        let r = CardResolver::new("https://h.example/agents/a/").unwrap();
        assert_eq!(
            r.url(),
            "https://h.example/agents/a/.well-known/agent-card.json"
        );
        let r = CardResolver::new("http://h.example:8080").unwrap();
        assert_eq!(r.url(), "http://h.example:8080/.well-known/agent-card.json");
        let r = CardResolver::for_card_url("https://reg.example/cards/x.json").unwrap();
        assert_eq!(r.url(), "https://reg.example/cards/x.json");
        assert!(CardResolver::new("ftp://h.example").is_err());
        assert!(CardResolver::new("/relative").is_err());
        assert!(CardResolver::new("https://h.example/?q=1").is_err());
    }
}
