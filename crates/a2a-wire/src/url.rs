//! URLs both ends read: an interface URL checked as its binding reads it
//! (an absolute `http` or `https` URL; for gRPC also a bare `host:port`),
//! and the agent card's well-known path.

use http::Uri;

use crate::binding::Binding;

/// The well-known path of the public agent card (spec 8.2, RFC 8615).
pub const AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";

/// Why a URL cannot be used: an interface URL by the client's `HttpTransport`, an
/// agent or agent card URL by discovery (the message says which).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} {url:?} cannot be used: {reason}")]
pub struct InterfaceUrlError {
    what: &'static str,
    url: String,
    reason: &'static str,
}

impl InterfaceUrlError {
    /// `url` refused as an interface URL for `reason`.
    pub fn new(url: &str, reason: &'static str) -> InterfaceUrlError {
        // Echo at most 256 bytes of what was refused.
        let mut end = url.len().min(256);
        while !url.is_char_boundary(end) {
            end -= 1;
        }
        InterfaceUrlError {
            what: "interface URL",
            url: url.get(..end).unwrap_or_default().to_owned(),
            reason,
        }
    }

    /// The same error about a URL that is `what` (`agent URL`).
    pub fn naming(mut self, what: &'static str) -> InterfaceUrlError {
        self.what = what;
        self
    }

    /// What the URL was for: `interface URL`, `agent URL` (the base URL
    /// given to discovery) or `agent card URL`.
    pub fn what(&self) -> &'static str {
        self.what
    }

    /// The refused URL (at most its first 256 bytes).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Why it was refused.
    pub fn reason(&self) -> &'static str {
        self.reason
    }
}

/// A gRPC interface URL: an absolute `http` or `https` URL, or a bare
/// `host:port` (the form gRPC targets take), which is read as
/// `https://host:port`: a card fetched over the network never downgrades a
/// call to cleartext by omission (`docs/decisions.md`).
pub fn parse_grpc_url(url: &str) -> Result<Uri, InterfaceUrlError> {
    let trimmed = url.trim();
    if !trimmed.contains("://") {
        let authority: http::uri::Authority = trimmed
            .parse()
            .map_err(|_| InterfaceUrlError::new(url, "not a URL nor a host:port"))?;
        if authority.port().is_none() || authority.as_str().contains('@') {
            return Err(InterfaceUrlError::new(
                url,
                "a gRPC interface URL without a scheme must be host:port",
            ));
        }
        return parse_http_url(&format!("https://{authority}"));
    }
    let uri = parse_http_url(trimmed)?;
    if uri.query().is_some() {
        return Err(InterfaceUrlError::new(
            url,
            "a gRPC interface URL cannot carry a query",
        ));
    }
    Ok(uri)
}

/// The URL of an interface of `binding`, checked as that binding reads it.
pub fn parse_interface_url(binding: Binding, url: &str) -> Result<Uri, InterfaceUrlError> {
    match binding {
        Binding::Grpc => parse_grpc_url(url),
        _ => parse_http_url(url),
    }
}

/// Checks that `url` is an absolute `http` or `https` URL.
pub fn parse_http_url(url: &str) -> Result<Uri, InterfaceUrlError> {
    let uri: Uri = url
        .parse()
        .map_err(|_| InterfaceUrlError::new(url, "not a valid URI"))?;
    match uri.scheme_str() {
        Some(s) if s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https") => {}
        Some(_) => {
            return Err(InterfaceUrlError::new(
                url,
                "the scheme is not http or https",
            ))
        }
        None => {
            return Err(InterfaceUrlError::new(
                url,
                "it has no scheme: write http:// or https:// in front of the host",
            ))
        }
    }
    if uri.authority().is_none() {
        return Err(InterfaceUrlError::new(url, "the URL has no host"));
    }
    Ok(uri)
}
