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
//! - **`Last-Modified`** (spec 8.6.1 MAY) is sent when the host gives the
//!   time the card changed ([`AgentCardResource::with_last_modified`]; the
//!   crate reads no clock), as an IMF-fixdate. `If-Modified-Since` (in any
//!   of the three HTTP date formats, RFC 9110 section 5.6.7) answers 304
//!   when the card is not newer, to the second; it is ignored when
//!   `If-None-Match` is present (RFC 9110 section 13.1.3), when it does not
//!   parse, and when no `Last-Modified` is known.
//! - **The extended card** (`GET /extendedAgentCard`, spec 3.1.11) gets an
//!   `ETag` of its bytes, `Cache-Control`
//!   ([`DEFAULT_EXTENDED_CARD_CACHE_CONTROL`], `private`: it depends on
//!   the caller) and `Vary: Authorization`, and `If-None-Match` answers 304.
//!   On JSON-RPC it is the result of a `POST`, which HTTP caches do not
//!   reuse, so it has none.
//! - **`Cache-Control`** defaults to `public, max-age=300`
//!   ([`DEFAULT_CARD_CACHE_CONTROL`]): five minutes, a compromise between
//!   the card changing rarely (spec 8.6) and a deployment seeing its
//!   change soon. Set another with [`AgentCardResource::with_cache_control`].
//! - **Methods**: `GET` and `HEAD` (headers only); anything else is 405
//!   with `Allow: GET, HEAD` and `InvalidRequestError` (`INVALID_ARGUMENT`:
//!   the card is there, the method is wrong). No authentication: the card
//!   is public.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http::header::{
    ALLOW, CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED, VARY,
};
use http::{HeaderMap, HeaderValue, Method, Response, StatusCode};

use a2a_types::calendar::{civil_from_days, days_from_civil};
use a2a_types::{A2aError, AgentCard, ErrorKind};

use crate::body::Body;
use a2a_wire::APPLICATION_JSON_VALUE;

/// The default `Cache-Control` of the agent card: `public, max-age=300`.
pub const DEFAULT_CARD_CACHE_CONTROL: &str = "public, max-age=300";

/// The default `Cache-Control` of the extended agent card:
/// `private, max-age=300` (the card depends on the caller, so shared
/// caches must not keep it).
pub const DEFAULT_EXTENDED_CARD_CACHE_CONTROL: &str = "private, max-age=300";

/// The public agent card, serialized once, with its `ETag`: what answers
/// `GET /.well-known/agent-card.json` (spec 8.2, 8.6).
///
/// ```
/// use a2a_server::AgentCardResource;
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
    /// `Last-Modified`, in whole seconds since the epoch and as sent.
    last_modified: Option<(u64, HeaderValue)>,
}

impl AgentCardResource {
    /// Serializes `card` (ProtoJSON) and computes its `ETag`.
    ///
    /// # Errors
    ///
    /// Only if serialization fails, which the `a2a-types` card does not.
    pub fn new(card: &AgentCard) -> Result<AgentCardResource, serde_json::Error> {
        Ok(AgentCardResource::from_json(Bytes::from(
            a2a_types::json::to_vec(card)?,
        )))
    }

    /// The resource serving `card` readable by 0.3 clients too: the union
    /// card of [`a2a_types::v0_3::union_card`], the 1.0 members with the
    /// 0.3 ones beside them (what a server that also serves 0.3 publishes,
    /// spec 3.6.2).
    pub fn new_with_v0_3(card: &AgentCard) -> Result<AgentCardResource, serde_json::Error> {
        let union = a2a_types::v0_3::union_card(card)?;
        Ok(AgentCardResource::from_json(Bytes::from(
            a2a_types::json::to_vec(&union)?,
        )))
    }

    fn from_json(json: Bytes) -> AgentCardResource {
        let etag = HeaderValue::from_str(&strong_etag(&json))
            .unwrap_or_else(|_| HeaderValue::from_static("\"0\""));
        AgentCardResource {
            json,
            etag,
            cache_control: HeaderValue::from_static(DEFAULT_CARD_CACHE_CONTROL),
            last_modified: None,
        }
    }

    /// The same resource sending `Last-Modified: at` and answering
    /// `If-Modified-Since` (spec 8.6.1). Times before 1970 count as 1970.
    pub fn with_last_modified(mut self, at: SystemTime) -> AgentCardResource {
        let secs = at
            .duration_since(UNIX_EPOCH)
            .unwrap_or(Duration::ZERO)
            .as_secs();
        self.last_modified = HeaderValue::from_str(&http_date(secs))
            .ok()
            .map(|v| (secs, v));
        self
    }

    /// The `Last-Modified` value, if the host gave one.
    pub fn last_modified(&self) -> Option<&HeaderValue> {
        self.last_modified.as_ref().map(|(_, v)| v)
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

    /// True if `headers` make the request conditional on a card the
    /// client has: an `If-None-Match` that matches (`*`, or a tag equal
    /// under the weak comparison), or, without `If-None-Match`, an
    /// `If-Modified-Since` not older than `Last-Modified`.
    pub fn is_not_modified(&self, headers: &HeaderMap) -> bool {
        if headers.contains_key(IF_NONE_MATCH) {
            return etag_matches(headers, &self.etag);
        }
        let Some((ours, _)) = &self.last_modified else {
            return false;
        };
        let mut values = headers.get_all(IF_MODIFIED_SINCE).iter();
        match (values.next(), values.next()) {
            (Some(value), None) => value
                .to_str()
                .ok()
                .and_then(parse_http_date)
                .is_some_and(|since| *ours <= since),
            _ => false,
        }
    }

    /// The response to a request for the card: 200 with the JSON (`GET`)
    /// or headers only (`HEAD`), 304 when `If-None-Match` matches, 405
    /// with `Allow: GET, HEAD` for any other method.
    pub fn respond(&self, method: &Method, headers: &HeaderMap) -> Response<Body> {
        if method != Method::GET && method != Method::HEAD {
            let err = A2aError::new(
                ErrorKind::InvalidRequest,
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
        if let Some((_, at)) = &self.last_modified {
            h.insert(LAST_MODIFIED, at.clone());
        }
        if not_modified {
            *resp.status_mut() = StatusCode::NOT_MODIFIED;
        } else {
            h.insert(CONTENT_TYPE, APPLICATION_JSON_VALUE);
        }
        resp
    }
}

/// Adds the extended card's caching headers to its 200 answer `resp`
/// (`ETag` of the body, `Cache-Control`, `Vary: Authorization`), and
/// turns it into a 304 without body when the request's `If-None-Match`
/// matches (spec 8.6).
pub(crate) fn cache_extended_card(
    resp: &mut Response<Body>,
    request: &HeaderMap,
    cache_control: &HeaderValue,
) {
    let Some(json) = resp.body().as_bytes() else {
        return;
    };
    let Ok(etag) = HeaderValue::from_str(&strong_etag(json)) else {
        return;
    };
    let not_modified = etag_matches(request, &etag);
    let h = resp.headers_mut();
    h.insert(CACHE_CONTROL, cache_control.clone());
    h.insert(VARY, HeaderValue::from_static("Authorization"));
    h.insert(ETAG, etag);
    if not_modified {
        h.remove(CONTENT_TYPE);
        *resp.body_mut() = Body::empty();
        *resp.status_mut() = StatusCode::NOT_MODIFIED;
    }
}

/// True if an `If-None-Match` of `headers` selects the entity tagged
/// `etag`.
fn etag_matches(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let ours = opaque_tag(etag.as_bytes());
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .any(|v| if_none_match_hits(v.as_bytes(), ours))
}

const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `secs` since the epoch as an IMF-fixdate (RFC 9110 section 5.6.7):
/// `Sun, 06 Nov 1994 08:49:37 GMT`.
fn http_date(secs: u64) -> String {
    let days = secs / 86_400;
    let rem = secs % 86_400;
    // Within i64 for any u64 seconds: u64::MAX / 86_400 < i64::MAX.
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{}, {d:02} {} {y:04} {:02}:{:02}:{:02} GMT",
        DAYS[(days % 7) as usize],
        MONTHS[m as usize - 1],
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Seconds since the epoch of an HTTP date in any of its three formats
/// (RFC 9110 section 5.6.7): IMF-fixdate, RFC 850 (two-digit years read
/// as 19xx above 69, else 20xx) and asctime. The weekday is not checked.
fn parse_http_date(text: &str) -> Option<u64> {
    let text = text.trim();
    if text.len() > 64 {
        return None;
    }
    let fields: Vec<&str> = text
        .split([' ', ',', '-'])
        .filter(|f| !f.is_empty())
        .collect();
    let (day, month, year, time) = match fields.as_slice() {
        // IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT` and RFC 850
        // `Sunday, 06-Nov-94 08:49:37 GMT`.
        [_, day, month, year, time, "GMT"] => (*day, *month, *year, *time),
        // asctime `Sun Nov  6 08:49:37 1994`.
        [_, month, day, time, year] => (*day, *month, *year, *time),
        _ => return None,
    };
    let number = |t: &str, max_len: usize| -> Option<u64> {
        (!t.is_empty() && t.len() <= max_len && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse().ok())
            .flatten()
    };
    let day = number(day, 2)?;
    let month = MONTHS.iter().position(|m| *m == month)? as u32 + 1;
    let year = match year.len() {
        2 => {
            let y = number(year, 2)?;
            if y >= 70 {
                1900 + y
            } else {
                2000 + y
            }
        }
        4 => number(year, 4)?,
        _ => return None,
    };
    let mut hms = time.split(':');
    let (h, m, s) = (
        number(hms.next()?, 2)?,
        number(hms.next()?, 2)?,
        number(hms.next()?, 2)?,
    );
    if hms.next().is_some() || year < 1970 || day == 0 || day > 31 || h > 23 || m > 59 || s > 60 {
        return None;
    }
    // `year` has at most four digits and `day` two: the days fit.
    let days = days_from_civil(year as i64, month, day as u32);
    Some(u64::try_from(days).ok()? * 86_400 + h * 3600 + m * 60 + s)
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
/// assert_eq!(a2a_server::strong_etag(b""), "\"cbf29ce484222325-0\"");
/// assert_eq!(a2a_server::strong_etag(b"a"), "\"af63dc4c8601ec8c-1\"");
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
    fn http_dates() {
        // RFC 9110 section 5.6.7's example, in its three formats.
        let t = 784_111_777;
        assert_eq!(http_date(t), "Sun, 06 Nov 1994 08:49:37 GMT");
        for text in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(parse_http_date(text), Some(t), "{text}");
        }
        assert_eq!(http_date(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(http_date(951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT");
        for secs in [0, 59, 951_782_400, 1_700_000_000, 4_102_444_800] {
            assert_eq!(parse_http_date(&http_date(secs)), Some(secs));
        }
        for bad in [
            "",
            "yesterday",
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1969 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 006 Nov 1994 08:49:37 GMT",
        ] {
            assert_eq!(parse_http_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn if_modified_since() {
        let at = UNIX_EPOCH + Duration::from_secs(784_111_777);
        let card = AgentCard::default();
        let r = AgentCardResource::new(&card)
            .unwrap()
            .with_last_modified(at);
        assert_eq!(r.last_modified().unwrap(), "Sun, 06 Nov 1994 08:49:37 GMT");
        let ims = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(IF_MODIFIED_SINCE, HeaderValue::from_str(v).unwrap());
            h
        };
        let not_modified = r.respond(&Method::GET, &ims("Sun, 06 Nov 1994 08:49:37 GMT"));
        assert_eq!(not_modified.status(), StatusCode::NOT_MODIFIED);
        assert!(not_modified.headers().contains_key(LAST_MODIFIED));
        let later = ims("Mon, 07 Nov 1994 00:00:00 GMT");
        assert_eq!(
            r.respond(&Method::GET, &later).status(),
            StatusCode::NOT_MODIFIED
        );
        let earlier = ims("Sun, 06 Nov 1994 08:49:36 GMT");
        let ok = r.respond(&Method::GET, &earlier);
        assert_eq!(ok.status(), StatusCode::OK);
        assert_eq!(ok.headers()[LAST_MODIFIED], "Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(
            r.respond(&Method::GET, &ims("garbage")).status(),
            StatusCode::OK
        );
        // If-None-Match decides when present.
        let mut both = later.clone();
        both.insert(IF_NONE_MATCH, HeaderValue::from_static("\"other\""));
        assert_eq!(r.respond(&Method::GET, &both).status(), StatusCode::OK);
        // Without Last-Modified, If-Modified-Since is ignored.
        let plain = AgentCardResource::new(&card).unwrap();
        assert_eq!(plain.respond(&Method::GET, &later).status(), StatusCode::OK);
        assert!(plain.last_modified().is_none());
    }

    #[test]
    fn the_etag_covers_the_signatures() {
        // A host signs the card before building the resource (spec 8.4):
        // the signature is part of the bytes served and hashed.
        let plain = AgentCard::default();
        let mut signed = plain.clone();
        signed.signatures.push(a2a_types::AgentCardSignature {
            protected: "eyJhbGciOiJFUzI1NiJ9".into(),
            signature: "c2ln".into(),
            header: None,
        });
        let a = AgentCardResource::new(&plain).unwrap();
        let b = AgentCardResource::new(&signed).unwrap();
        assert_ne!(a.etag(), b.etag());
        assert_eq!(b.etag(), strong_etag(b.json()).as_str());
        assert!(std::str::from_utf8(b.json())
            .unwrap()
            .contains("\"signatures\""));
    }

    #[test]
    fn extended_card_caching() {
        let cc = HeaderValue::from_static(DEFAULT_EXTENDED_CARD_CACHE_CONTROL);
        let mut resp = Response::new(Body::from("{}"));
        resp.headers_mut()
            .insert(CONTENT_TYPE, APPLICATION_JSON_VALUE);
        cache_extended_card(&mut resp, &HeaderMap::new(), &cc);
        assert_eq!(resp.status(), StatusCode::OK);
        let etag = resp.headers()[ETAG].clone();
        assert_eq!(etag, strong_etag(b"{}").as_str());
        assert_eq!(
            resp.headers()[CACHE_CONTROL],
            DEFAULT_EXTENDED_CARD_CACHE_CONTROL
        );
        assert_eq!(resp.headers()[VARY], "Authorization");
        let mut conditional = HeaderMap::new();
        conditional.insert(IF_NONE_MATCH, etag);
        let mut resp = Response::new(Body::from("{}"));
        cache_extended_card(&mut resp, &conditional, &cc);
        assert_eq!(resp.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(resp.body().as_bytes().map(Bytes::len), Some(0));
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
