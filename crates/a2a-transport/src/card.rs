//! Serving the public agent card at its well-known path (spec 8.2), with
//! HTTP caching (spec 8.6).
//!
//! # Decisions
//!
//! - **Strong `ETag` from the bytes.** The card is serialized once, when
//!   the resource is built, and the tag is a hash of exactly those bytes:
//!   `"<FNV-1a 64 of the bytes, 16 hex digits>-<length in hex>"`. The
//!   bytes never change while the resource lives, so the tag is strong
//!   (RFC 9110 section 8.8.1). FNV-1a is not collision resistant against
//!   an adversary, but the only inputs are cards this server serializes,
//!   and two versions of a card colliding in 64 bits *and* in length is not
//!   a practical concern; it needs no crypto dependency. A host that signs
//!   the card (spec 8.4) signs it before building the resource, so the
//!   signature is part of the hashed bytes.
//! - **`If-None-Match`** is read as RFC 9110 section 13.1.2 says: `*`
//!   matches, otherwise a comma-separated list of entity tags compared
//!   with the *weak* comparison (`W/"x"` matches `"x"`), over every
//!   `If-None-Match` field. A list that stops parsing (no quotes, say) is
//!   read up to the error: what was read still counts, the rest is
//!   ignored. A match answers 304 with the `ETag` and `Cache-Control` and
//!   no body.
//! - **`Cache-Control`** defaults to `public, max-age=300`
//!   ([`DEFAULT_CARD_CACHE_CONTROL`]): five minutes, a compromise between
//!   the card changing rarely (spec 8.6) and a deployment seeing its
//!   change soon. Set another with [`AgentCardResource::with_cache_control`].
//! - **Methods**: `GET` and `HEAD` (headers only); anything else is 405
//!   with `Allow: GET, HEAD`. No authentication: the card is public.

use bytes::Bytes;
use http::header::{ALLOW, CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use http::{HeaderMap, HeaderValue, Method, Response, StatusCode};

use a2a_types::{A2aError, AgentCard, ErrorKind};

use crate::body::Body;
use crate::media::APPLICATION_JSON_VALUE;

/// The well-known path of the public agent card (spec 8.2, RFC 8615).
pub const AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";

/// The default `Cache-Control` of the agent card: `public, max-age=300`.
pub const DEFAULT_CARD_CACHE_CONTROL: &str = "public, max-age=300";

/// The public agent card, serialized once, with its `ETag`: what answers
/// `GET /.well-known/agent-card.json` (spec 8.2, 8.6).
///
/// ```
/// use a2a_transport::server::AgentCardResource;
/// use a2a_types::AgentCard;
/// use http::{HeaderMap, Method, StatusCode};
///
/// let card = AgentCard { name: "Echo".into(), ..Default::default() };
/// let resource = AgentCardResource::new(&card)?;
/// let ok = resource.respond(&Method::GET, &HeaderMap::new());
/// assert_eq!(ok.status(), StatusCode::OK);
///
/// let mut conditional = HeaderMap::new();
/// conditional.insert(http::header::IF_NONE_MATCH, resource.etag().clone());
/// let not_modified = resource.respond(&Method::GET, &conditional);
/// assert_eq!(not_modified.status(), StatusCode::NOT_MODIFIED);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct AgentCardResource {
    json: Bytes,
    etag: HeaderValue,
    cache_control: HeaderValue,
}

impl AgentCardResource {
    /// Serializes `card` (ProtoJSON) and computes its `ETag`.
    ///
    /// # Errors
    ///
    /// Only if serialization fails, which the `a2a-types` card does not.
    pub fn new(card: &AgentCard) -> Result<AgentCardResource, serde_json::Error> {
        let json = Bytes::from(a2a_types::json::to_vec(card)?);
        let etag = HeaderValue::from_str(&strong_etag(&json))
            .unwrap_or_else(|_| HeaderValue::from_static("\"0\""));
        Ok(AgentCardResource {
            json,
            etag,
            cache_control: HeaderValue::from_static(DEFAULT_CARD_CACHE_CONTROL),
        })
    }

    /// The same resource answering with `cache_control` as its
    /// `Cache-Control` (for example `public, max-age=3600`, or `no-cache`
    /// to make clients revalidate every time).
    pub fn with_cache_control(mut self, cache_control: HeaderValue) -> AgentCardResource {
        self.cache_control = cache_control;
        self
    }

    /// The serialized card.
    pub fn json(&self) -> &Bytes {
        &self.json
    }

    /// The strong `ETag`, quotes included.
    pub fn etag(&self) -> &HeaderValue {
        &self.etag
    }

    /// The `Cache-Control` value.
    pub fn cache_control(&self) -> &HeaderValue {
        &self.cache_control
    }

    /// True if `headers` hold an `If-None-Match` that matches this card
    /// (`*`, or a tag equal under the weak comparison).
    pub fn is_not_modified(&self, headers: &HeaderMap) -> bool {
        let ours = opaque_tag(self.etag.as_bytes());
        headers
            .get_all(IF_NONE_MATCH)
            .iter()
            .any(|v| if_none_match_hits(v.as_bytes(), ours))
    }

    /// The response to a request for the card: 200 with the JSON (`GET`)
    /// or headers only (`HEAD`), 304 when `If-None-Match` matches, 405
    /// with `Allow: GET, HEAD` for any other method.
    pub fn respond(&self, method: &Method, headers: &HeaderMap) -> Response<Body> {
        if method != Method::GET && method != Method::HEAD {
            let err = A2aError::new(
                ErrorKind::MethodNotFound,
                format!("the agent card accepts GET and HEAD, not {method}"),
            );
            // The body's code is the transport's 405, as the response's.
            let mut body = err.to_status();
            body.error.code = StatusCode::METHOD_NOT_ALLOWED.as_u16();
            let json = a2a_types::json::to_vec(&body).unwrap_or_default();
            let mut resp = Response::new(Body::from(json));
            *resp.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
            resp.headers_mut()
                .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
            resp.headers_mut()
                .insert(CONTENT_TYPE, APPLICATION_JSON_VALUE);
            return resp;
        }
        let not_modified = self.is_not_modified(headers);
        let body = if not_modified || method == Method::HEAD {
            Body::empty()
        } else {
            Body::Full(self.json.clone())
        };
        let mut resp = Response::new(body);
        let h = resp.headers_mut();
        h.insert(ETAG, self.etag.clone());
        h.insert(CACHE_CONTROL, self.cache_control.clone());
        if not_modified {
            *resp.status_mut() = StatusCode::NOT_MODIFIED;
        } else {
            h.insert(CONTENT_TYPE, APPLICATION_JSON_VALUE);
        }
        resp
    }
}

/// FNV-1a, 64 bits (Fowler, Noll, Vo): a small, fast, well-known
/// non-cryptographic hash.
fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(PRIME))
}

/// A strong entity tag for `bytes` (spec 8.6.1: "a hash of the card
/// content"; RFC 9110 section 8.8.3), quotes included:
/// `"<FNV-1a 64, 16 hex digits>-<length in hex>"`.
///
/// ```
/// assert_eq!(a2a_transport::server::strong_etag(b""), "\"cbf29ce484222325-0\"");
/// assert_eq!(a2a_transport::server::strong_etag(b"a"), "\"af63dc4c8601ec8c-1\"");
/// ```
pub fn strong_etag(bytes: &[u8]) -> String {
    format!("\"{:016x}-{:x}\"", fnv1a64(bytes), bytes.len())
}

/// The opaque part of an entity tag (`W/` and quotes removed), for the
/// weak comparison.
fn opaque_tag(tag: &[u8]) -> &[u8] {
    let tag = tag.strip_prefix(b"W/").unwrap_or(tag);
    tag.strip_prefix(b"\"")
        .and_then(|t| t.strip_suffix(b"\""))
        .unwrap_or(tag)
}

/// Whether one `If-None-Match` field value selects the entity whose
/// opaque tag is `ours` (RFC 9110 section 13.1.2, weak comparison).
fn if_none_match_hits(value: &[u8], ours: &[u8]) -> bool {
    let mut rest = value;
    loop {
        rest = trim_list_separators(rest);
        if rest.is_empty() {
            return false;
        }
        if let Some(after) = rest.strip_prefix(b"*") {
            if trim_ows(after).is_empty() || trim_ows(after).starts_with(b",") {
                return true;
            }
            return false;
        }
        let tag = rest.strip_prefix(b"W/").unwrap_or(rest);
        let Some(tag) = tag.strip_prefix(b"\"") else {
            return false;
        };
        let Some(end) = tag.iter().position(|&b| b == b'"') else {
            return false;
        };
        let (opaque, after) = tag.split_at(end);
        if opaque == ours {
            return true;
        }
        rest = after.get(1..).unwrap_or_default();
    }
}

fn trim_ows(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(s.len());
    s.get(start..).unwrap_or_default()
}

fn trim_list_separators(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|&b| b != b' ' && b != b'\t' && b != b',')
        .unwrap_or(s.len());
    s.get(start..).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_vectors() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn if_none_match_lists() {
        let ours = b"abc-1";
        for (header, hit) in [
            (&b"\"abc-1\""[..], true),
            (b"W/\"abc-1\"", true),
            (b"\"x\", \"abc-1\"", true),
            (b" , \"x\" ,W/\"abc-1\" ", true),
            (b"*", true),
            (b" * ", true),
            (b"\"x\"", false),
            (b"\"abc-1", false),
            (b"abc-1", false),
            (b"", false),
            (b"\"x,y\", \"abc-1\"", true),
            (b"\"x\" garbage \"abc-1\"", false),
            (b"*x", false),
        ] {
            assert_eq!(
                if_none_match_hits(header, ours),
                hit,
                "{}",
                String::from_utf8_lossy(header)
            );
        }
    }
}
