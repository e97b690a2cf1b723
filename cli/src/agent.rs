//! Reaching an agent: the `--agent-card` reference resolved to a card
//! (a2a-cli spec §10.1: a bare host or origin, a full card URL, a local
//! file, or a catalog entry), the interface chosen (§13.1: the card's
//! order, or `--transport` in the caller's), the protocol version
//! (§13.2), the credentials attached as the card's schemes say (§12.1),
//! service parameters, extensions and the tenant.

use std::path::Path;

use a2a_transport::client::{select_interface, Preferences, SelectionOrder};
use a2a_transport::service_params::ProtocolVersion;
use a2a_transport::{Binding, CallContext, HttpClient, HttpTransport};
use a2a_types::{AgentCard, AgentInterface, SecurityScheme, Validate};
use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue};

use crate::failure::{code, Failure};
use crate::run::Run;
use crate::wire::Wire;

/// The well-known card path (spec 8.2).
pub(crate) const WELL_KNOWN: &str = "/.well-known/agent-card.json";

/// Where a card came from.
#[derive(Debug, Clone)]
pub(crate) enum CardFrom {
    /// Fetched from this URL.
    Url(String),
    /// Read from this file.
    File(String),
}

impl CardFrom {
    /// For the `text` output.
    pub(crate) fn describe(&self) -> String {
        match self {
            CardFrom::Url(u) => u.clone(),
            CardFrom::File(f) => format!("file {f}"),
        }
    }

    /// The origin the stored OAuth tokens are kept under: the card URL's
    /// `scheme://authority`, or for a file, its first interface's.
    pub(crate) fn origin(&self, card: &AgentCard) -> String {
        let url = match self {
            CardFrom::Url(u) => u.clone(),
            CardFrom::File(_) => card
                .supported_interfaces
                .first()
                .map(|i| i.url.clone())
                .unwrap_or_default(),
        };
        match url.parse::<http::Uri>() {
            Ok(u) if u.scheme().is_some() && u.authority().is_some() => {
                format!(
                    "{}://{}",
                    u.scheme_str().unwrap_or("https"),
                    u.authority().map(|a| a.as_str()).unwrap_or("")
                )
            }
            _ => url,
        }
    }
}

/// A resolved card.
#[derive(Debug, Clone)]
pub(crate) struct Card {
    /// The card.
    pub(crate) card: AgentCard,
    /// Its JSON as received (for signature verification).
    pub(crate) json: Bytes,
    /// Where it came from.
    pub(crate) from: CardFrom,
}

/// The URL of the card a reference names (§7.2, §10.1), or the file.
pub(crate) fn card_location(reference: &str) -> CardFrom {
    let r = reference.trim();
    if let Some(path) = r.strip_prefix("file://") {
        return CardFrom::File(path.to_owned());
    }
    if r.starts_with("http://") || r.starts_with("https://") {
        return match r.parse::<http::Uri>() {
            // An origin: the well-known path is appended.
            Ok(u) if matches!(u.path(), "" | "/") && u.query().is_none() => {
                CardFrom::Url(format!("{}{WELL_KNOWN}", r.trim_end_matches('/')))
            }
            _ => CardFrom::Url(r.to_owned()),
        };
    }
    if Path::new(r.split('#').next().unwrap_or(r)).exists()
        || r.starts_with('/')
        || r.starts_with('.')
    {
        return CardFrom::File(r.to_owned());
    }
    // A bare host: https, except on loopback, where agents under
    // development listen on plain HTTP.
    let host = r.split('/').next().unwrap_or(r);
    let name = host.rsplit_once(':').map_or(host, |(h, _)| h);
    let scheme = if matches!(name, "localhost" | "[::1]") || name.starts_with("127.") {
        "http"
    } else {
        "https"
    };
    let rest = &r[host.len()..];
    if rest.is_empty() || rest == "/" {
        CardFrom::Url(format!("{scheme}://{host}{WELL_KNOWN}"))
    } else {
        CardFrom::Url(format!("{scheme}://{r}"))
    }
}

/// Resolves the reference to a card, presenting no credential (A2A's
/// public card needs none; §12.4).
pub(crate) async fn resolve_card(wire: &Wire, reference: &str) -> Result<Card, Failure> {
    let from = card_location(reference);
    let json: Bytes = match &from {
        CardFrom::File(spec) => {
            let (path, entry) = match spec.split_once('#') {
                Some((p, e)) => (p, Some(e)),
                None => (spec.as_str(), None),
            };
            let bytes = std::fs::read(path).map_err(|e| {
                Failure::local(
                    code::CARD_NOT_FOUND,
                    format!("cannot read the agent card {path}: {e}"),
                )
                .with_hint("give a host, a card URL or an existing file with --agent-card")
            })?;
            match catalog_entry(&bytes, entry)? {
                Some(Entry::Reference(r)) => return Box::pin(resolve_card(wire, &r)).await,
                Some(Entry::Inline(card)) => card,
                None => Bytes::from(bytes),
            }
        }
        CardFrom::Url(url) => fetch(wire, url).await?,
    };
    let card = a2a_transport::client::decode_card(&json).map_err(|e| {
        Failure::local(
            code::CARD_INVALID,
            format!("the agent card at {} does not decode: {e}", from.describe()),
        )
    })?;
    Ok(Card { card, json, from })
}

/// A catalog entry: a reference to resolve, or a card given inline.
enum Entry {
    Reference(String),
    Inline(Bytes),
}

/// A catalog (a JSON document with an `agents` array of `{name, url}` or
/// `{name, card}` entries; §10.1 catalog resolution): the entry named
/// after `#`, or the only one. `None` when the document is not a catalog.
fn catalog_entry(bytes: &[u8], entry: Option<&str>) -> Result<Option<Entry>, Failure> {
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return Ok(None);
    };
    let Some(agents) = doc.get("agents").and_then(|a| a.as_array()) else {
        if entry.is_some() {
            return Err(Failure::local(
                code::CARD_NOT_FOUND,
                "a `#entry` reference needs a catalog (a JSON document with an `agents` array)",
            ));
        }
        return Ok(None);
    };
    let found = match entry {
        Some(name) => agents
            .iter()
            .find(|a| a.get("name").and_then(|n| n.as_str()) == Some(name)),
        None if agents.len() == 1 => agents.first(),
        None => {
            let names: Vec<&str> = agents
                .iter()
                .filter_map(|a| a.get("name")?.as_str())
                .collect();
            return Err(Failure::local(
                code::CARD_NOT_FOUND,
                format!("the catalog lists several agents: {}", names.join(", ")),
            )
            .with_hint("name one: --agent-card CATALOG#NAME"));
        }
    };
    let found = found.ok_or_else(|| {
        Failure::local(
            code::CARD_NOT_FOUND,
            format!("the catalog has no agent named {:?}", entry.unwrap_or("")),
        )
    })?;
    if let Some(url) = found.get("url").and_then(|u| u.as_str()) {
        return Ok(Some(Entry::Reference(url.to_owned())));
    }
    if let Some(card) = found.get("card") {
        return Ok(Some(Entry::Inline(Bytes::from(card.to_string()))));
    }
    Err(Failure::local(
        code::CARD_INVALID,
        "a catalog entry needs a `url` or a `card`",
    ))
}

/// GETs a card.
async fn fetch(wire: &Wire, url: &str) -> Result<Bytes, Failure> {
    let request = http::Request::get(url)
        .header(http::header::ACCEPT, "application/json")
        .header("a2a-version", "1.0")
        .body(Bytes::new())
        .map_err(|e| Failure::usage(format!("--agent-card {url}: {e}")))?;
    let response = wire.send(request).await.map_err(|e| {
        Failure::local(code::UNREACHABLE, format!("cannot reach {url}: {e}"))
            .with_hint("check the address and that the agent is running")
    })?;
    let status = response.status();
    let body = read_all(response.into_body())
        .await
        .map_err(|e| Failure::local(code::UNREACHABLE, format!("reading {url} failed: {e}")))?;
    if status == http::StatusCode::NOT_FOUND || status == http::StatusCode::GONE {
        return Err(Failure::local(
            code::CARD_NOT_FOUND,
            format!("no agent card at {url} (HTTP {status})"),
        )
        .with_hint(
            "give the agent's origin (the well-known path is appended) or its card's full URL",
        ));
    }
    if !status.is_success() {
        let mut f = Failure::local(
            code::CARD_NOT_FOUND,
            format!("the agent card at {url} answered HTTP {status}"),
        );
        f.a2a_code = Some(serde_json::json!(status.as_u16()));
        return Err(f);
    }
    Ok(body)
}

/// A response body, whole (bounded at 16 MiB).
pub(crate) async fn read_all(
    mut body: a2a_transport::client::ResponseBody,
) -> Result<Bytes, String> {
    use futures_util::StreamExt;
    let mut out = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| e.to_string())?;
        if out.len() + chunk.len() > 16 << 20 {
            return Err("the body is larger than 16 MiB".to_owned());
        }
        out.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(out))
}

/// A binding's name as `--transport` takes it.
pub(crate) fn parse_binding(name: &str) -> Result<Binding, Failure> {
    match name.to_ascii_lowercase().as_str() {
        "jsonrpc" | "json-rpc" => Ok(Binding::JsonRpc),
        "rest" | "http+json" | "httpjson" | "http-json" => Ok(Binding::HttpJson),
        "grpc" => Ok(Binding::Grpc),
        _ => Err(Failure::usage(format!(
            "--transport {name:?}: expected jsonrpc, http+json (rest) or grpc"
        ))),
    }
}

/// A connected agent.
pub(crate) struct Agent {
    /// The card.
    pub(crate) card: Card,
    /// The interface chosen.
    pub(crate) interface: AgentInterface,
    /// The transport to it.
    pub(crate) transport: HttpTransport<Wire>,
    /// Headers, extensions.
    pub(crate) cx: CallContext,
    /// Whether credentials are attached.
    pub(crate) credentials: bool,
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent")
            .field("interface", &self.interface)
            .finish()
    }
}

/// The versions to accept: 1.0 unless `--a2a-version` opts into another
/// (0.3 is legacy: explicit only, §13.2). The second value is the version
/// to signal when it is one this client cannot select by (sent as is, so
/// that the agent's VersionNotSupportedError surfaces).
fn versions(run: &Run) -> Result<(Vec<ProtocolVersion>, Option<ProtocolVersion>), Failure> {
    match run.settings.get("a2a-version") {
        None => Ok((vec![ProtocolVersion::V1_0], None)),
        Some(v) => {
            let parsed = ProtocolVersion::parse(v.trim())
                .map_err(|e| Failure::usage(format!("--a2a-version {v:?}: {e}")))?;
            if parsed == ProtocolVersion::V1_0 || parsed == ProtocolVersion::V0_3 {
                Ok((vec![parsed], None))
            } else {
                Ok((vec![ProtocolVersion::V1_0], Some(parsed)))
            }
        }
    }
}

/// Connects to the agent the settings name.
pub(crate) async fn connect(run: &Run) -> Result<Agent, Failure> {
    let reference = run.agent_card()?;
    let card = resolve_card(&run.wire, &reference).await?;
    connect_to(run, card)
}

/// Chooses the interface of `card` and builds the transport.
pub(crate) fn connect_to(run: &Run, card: Card) -> Result<Agent, Failure> {
    card.card.validate().map_err(|v| {
        let what: Vec<String> = v
            .iter()
            .map(|v| format!("{}: {}", v.field, v.description))
            .collect();
        Failure::local(
            code::CARD_INVALID,
            format!("the agent card is invalid: {}", what.join("; ")),
        )
    })?;
    let (versions, signal) = versions(run)?;
    let wanted: Vec<Binding> = run
        .settings
        .all("transport")
        .iter()
        .map(|t| parse_binding(t))
        .collect::<Result<_, _>>()?;
    let base = Preferences::new().with_versions(versions.clone());
    // The caller's order when one of its bindings is on the card, else the
    // card's order (§13.1).
    let mut chosen = None;
    if !wanted.is_empty() {
        let prefs = base
            .clone()
            .with_bindings(wanted.clone())
            .with_order(SelectionOrder::Caller);
        match select_interface(&card.card, &prefs) {
            Ok(i) => chosen = Some(i.clone()),
            Err(_) => run.note(&format!(
                "none of --transport {} is on the card; using the card's order",
                run.settings.all("transport").join(", ")
            )),
        }
    }
    let interface = match chosen {
        Some(i) => i,
        None => match select_interface(&card.card, &base) {
            Ok(i) => i.clone(),
            Err(e) => {
                if versions.first() != Some(&ProtocolVersion::V1_0)
                    || card
                        .card
                        .supported_interfaces
                        .iter()
                        .all(|i| i.protocol_version.trim() != "1.0")
                {
                    let mut f = Failure::local(
                        code::INTERNAL,
                        format!(
                            "no interface of the card speaks A2A {}: {e}",
                            versions
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                    f.code = "VersionNotSupportedError".to_owned();
                    return Err(f.with_hint("pick a version the card lists with --a2a-version (versions before 1.0 need it explicitly)"));
                }
                return Err(Failure::local(
                    code::CARD_INVALID,
                    format!("no interface of the card can be used: {e}"),
                ));
            }
        },
    };
    // A bare `host:port` gRPC interface takes the scheme the card came
    // with: its URL's, or for a file, its first http(s) interface's.
    let base_uri = match &card.from {
        CardFrom::Url(u) => u.parse::<http::Uri>().ok(),
        CardFrom::File(_) => card
            .card
            .supported_interfaces
            .iter()
            .find(|i| i.url.starts_with("http://") || i.url.starts_with("https://"))
            .and_then(|i| i.url.parse::<http::Uri>().ok()),
    };
    let provided = provided_credentials(run, &card)?;
    let (headers, credentials, query) = match &provided {
        // The card's requirement is met by providers: they put each
        // credential where its scheme says, per call.
        Some(_) => (service_params(run)?, true, None),
        None => request_headers(run, &card)?,
    };
    // A query API key goes on the A2A calls' client only.
    let wire = match &query {
        Some((name, key)) => run.wire.with_query(name, key),
        None => run.wire.clone(),
    };
    let transport = match &base_uri {
        Some(u) => HttpTransport::for_card_interface(wire, &interface, u),
        None => HttpTransport::for_interface(wire, &interface),
    };
    let mut transport = match transport {
        Some(Ok(t)) => t,
        Some(Err(e)) => return Err(Failure::local(code::CARD_INVALID, e.to_string())),
        None => {
            return Err(Failure::local(
                code::CARD_INVALID,
                format!(
                    "the binding {} is not spoken here",
                    interface.protocol_binding
                ),
            ))
        }
    };
    if let Some(chosen) = provided {
        transport = transport.with_credentials(chosen);
    }
    if let Some(v) = signal {
        transport = transport.with_version(v);
    }
    if let Some(t) = run.settings.get("tenant") {
        transport = transport.with_tenant(t.to_owned());
    }
    if let Some(t) = run.timeout {
        transport = transport.with_config(a2a_transport::ClientConfig::new().with_timeout(t));
    }
    // One trace per invocation (W3C Trace Context), so an operator can
    // find the calls in the agent's traces; a `--svc-param traceparent:...`
    // joins the caller's trace instead.
    let trace = a2a_transport::trace::TraceContext::from_headers(&headers)
        .map(|parent| parent.new_child())
        .unwrap_or_else(|| a2a_transport::trace::TraceContext::new_root(true));
    run.debug(&format!(
        "trace id {} (traceparent {trace})",
        trace.trace_id_hex()
    ));
    let mut cx = CallContext::new().with_headers(headers).with_trace(trace);
    let extensions = run.settings.all("extension").to_vec();
    for ext in card
        .card
        .capabilities
        .extensions
        .iter()
        .filter(|e| e.required)
    {
        if !extensions.contains(&ext.uri) {
            run.note(&format!("the agent requires the extension {}; declare it with --extension {} if this client should", ext.uri, ext.uri));
        }
    }
    if !extensions.is_empty() {
        cx = cx.with_extensions(extensions);
    }
    run.debug(&format!(
        "card from {}; interface {} {} at {}{} (transport preference: {})",
        card.from.describe(),
        interface.protocol_binding,
        interface.protocol_version,
        interface.url,
        if interface.tenant.is_empty() {
            String::new()
        } else {
            format!(", tenant {}", interface.tenant)
        },
        if wanted.is_empty() {
            "the card's order".to_owned()
        } else {
            run.settings.all("transport").join(" > ")
        }
    ));
    if run.insecure && credentials {
        crate::term::tell("a2a: WARNING: sending credentials over a connection whose TLS certificate is NOT verified (--insecure); anyone in the path can read them");
    }
    Ok(Agent {
        card,
        interface,
        transport,
        cx,
        credentials,
    })
}

/// An API key the card puts in the query: its parameter name and value.
pub(crate) type QueryKey = Option<(String, String)>;

/// The headers of every call: the service parameters, then the
/// credentials where the card's schemes put them; whether any credential
/// is attached; the API key to put in the query, when the card says so.
pub(crate) fn request_headers(
    run: &Run,
    card: &Card,
) -> Result<(HeaderMap, bool, QueryKey), Failure> {
    let mut headers = service_params(run)?;
    let mut query = None;
    let bearer = run
        .settings
        .get("bearer")
        .map(str::to_owned)
        .or_else(|| stored(run, &card.from.origin(&card.card)));
    let credentials = fallback_credentials(run, card, &mut headers, &mut query, bearer)?;
    Ok((headers, credentials, query))
}

/// The `--svc-param` headers.
fn service_params(run: &Run) -> Result<HeaderMap, Failure> {
    let mut headers = HeaderMap::new();
    for p in run.settings.all("svc-param") {
        let (k, v) = p
            .split_once(':')
            .ok_or_else(|| Failure::usage(format!("--svc-param {p:?}: expected key:value")))?;
        let name = HeaderName::try_from(k.trim()).map_err(|_| {
            Failure::usage(format!(
                "--svc-param {p:?}: {k:?} cannot be a parameter name"
            ))
        })?;
        let value = HeaderValue::from_str(v.trim())
            .map_err(|_| Failure::usage(format!("--svc-param {p:?}: the value cannot be sent")))?;
        headers.append(name, value);
    }
    Ok(headers)
}

/// The providers for the card's `securityRequirements` (a2a-cli spec
/// §12.1, A2A §7.3): `--bearer` (or the token `auth login` stored),
/// `--api-key`, and the OAuth 2 client-credentials grant when
/// `client-id` and `client-secret` are configured (`A2ACLI_CLIENT_ID`,
/// `A2ACLI_CLIENT_SECRET`, from the environment or a `.env`; the token
/// URL from `A2ACLI_TOKEN_URL`, else the card's). The first requirement
/// all of whose schemes have one is used; `None` when none is met (or
/// the card has no requirements), and the flags' credentials are then
/// attached as before, by the card's first scheme of their kind.
pub(crate) fn provided_credentials(
    run: &Run,
    card: &Card,
) -> Result<Option<a2a_transport::client::CallCredentials>, Failure> {
    use a2a_transport::client::{
        ClientAuth, ClientCredentials, ClientCredentialsConfig, Credentials,
    };
    let mut creds = Credentials::new();
    let bearer = run
        .settings
        .get("bearer")
        .map(str::to_owned)
        .or_else(|| stored(run, &card.from.origin(&card.card)));
    if let Some(token) = bearer {
        creds = creds.with_bearer(token);
    }
    if let Some(key) = run.settings.get("api-key") {
        creds = creds.with_api_key(key);
    }
    if let (Some(id), Some(secret)) = (
        run.settings.get("client-id"),
        run.settings.get("client-secret"),
    ) {
        let token_url = match run.settings.get("token-url") {
            Some(u) => Some(u.to_owned()),
            None => card.card.security_schemes.values().find_map(|s| match s {
                SecurityScheme::OAuth2(o) => match &o.flows {
                    Some(a2a_types::OAuthFlows::ClientCredentials(c)) => Some(c.token_url.clone()),
                    _ => None,
                },
                _ => None,
            }),
        };
        let Some(token_url) = token_url else {
            return Err(Failure::local(
                code::CREDENTIALS_MISSING,
                "client-id and client-secret are configured, but the card declares no clientCredentials flow and no token-url is set",
            ));
        };
        let loopback = token_url
            .parse::<http::Uri>()
            .ok()
            .and_then(|u| u.host().map(str::to_owned))
            .is_some_and(|h| h == "localhost" || h == "[::1]" || h.starts_with("127."));
        if !token_url.starts_with("https://") && !loopback && !run.insecure {
            return Err(Failure::usage(format!(
                "the token URL {token_url} is not https: the client secret is not sent there (--insecure to allow)"
            )));
        }
        // The token exchange is never logged: it carries the secret.
        let quiet = Wire::new(&crate::wire::WireOptions {
            insecure: run.insecure,
            ..crate::wire::WireOptions::default()
        })
        .map_err(|e| Failure::local(code::INTERNAL, e))?;
        let config = ClientCredentialsConfig::new(id, secret)
            .with_token_url(token_url)
            .with_client_auth(ClientAuth::Body);
        creds = creds.with_oauth2(ClientCredentials::new(
            quiet,
            std::time::SystemTime::now,
            config,
        ));
    }
    if creds.is_empty() {
        return Ok(None);
    }
    match creds.select(&card.card) {
        Ok(chosen) if !chosen.is_empty() => {
            run.debug(&format!(
                "credentials for the card's requirement: {}",
                chosen.scheme_names().collect::<Vec<_>>().join(" + ")
            ));
            Ok(Some(chosen))
        }
        _ => Ok(None),
    }
}

/// The flags' credentials as headers when no requirement of the card is
/// met by providers; whether any is attached.
fn fallback_credentials(
    run: &Run,
    card: &Card,
    headers: &mut HeaderMap,
    query: &mut QueryKey,
    bearer: Option<String>,
) -> Result<bool, Failure> {
    let mut credentials = false;
    if let Some(token) = bearer {
        let v = HeaderValue::from_str(&format!("Bearer {token}"))
            .map_err(|_| Failure::usage("--bearer: the token cannot be sent in a header"))?;
        headers.insert(http::header::AUTHORIZATION, v);
        credentials = true;
    }
    if let Some(key) = run.settings.get("api-key") {
        let scheme = card.card.security_schemes.values().find_map(|s| match s {
            SecurityScheme::ApiKey(k) => Some(k.clone()),
            _ => None,
        });
        let (location, name) = match &scheme {
            Some(s) => (s.location.to_ascii_lowercase(), s.name.clone()),
            None => {
                run.note("the card declares no API key scheme; sending the key as X-API-Key");
                ("header".to_owned(), "X-API-Key".to_owned())
            }
        };
        match location.as_str() {
            "cookie" => {
                let v = HeaderValue::from_str(&format!("{name}={key}"))
                    .map_err(|_| Failure::usage("--api-key: the key cannot be sent in a cookie"))?;
                headers.append(http::header::COOKIE, v);
            }
            "query" => *query = Some((name.clone(), key.to_owned())),
            _ => {
                let n = HeaderName::try_from(name.as_str()).map_err(|_| {
                    Failure::local(
                        code::CARD_INVALID,
                        format!("the card's API key header {name:?} is not a header name"),
                    )
                })?;
                let v = HeaderValue::from_str(key)
                    .map_err(|_| Failure::usage("--api-key: the key cannot be sent in a header"))?;
                headers.insert(n, v);
            }
        }
        credentials = true;
    }
    Ok(credentials)
}

/// Whether the card declares a scheme a bearer token or API key fits.
pub(crate) fn accepts_credentials(card: &AgentCard) -> bool {
    !card.security_schemes.is_empty()
}

/// The stored OAuth token for `origin`, unless an API key was given.
fn stored(run: &Run, origin: &str) -> Option<String> {
    if run.settings.get("api-key").is_some() {
        return None;
    }
    match crate::tokens::stored_token(origin)? {
        crate::tokens::Stored::Token(token, path) => {
            run.debug(&format!(
                "attaching the stored token for {origin} ({})",
                path.display()
            ));
            Some(token)
        }
        crate::tokens::Stored::Expired => {
            run.note(&format!(
                "the stored token for {origin} has expired; run `a2a auth login` again"
            ));
            None
        }
    }
}
