//! Media types of the HTTP bindings (spec 9.1, 11.1, 14.1).

use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue};

/// `application/a2a+json` (spec 14.1): the media type of HTTP+JSON
/// requests and responses (spec 11.1).
pub const A2A_JSON: &str = "application/a2a+json";

/// `application/json`: the media type of JSON-RPC requests and responses
/// (spec 9.1), also accepted on HTTP+JSON requests.
pub const APPLICATION_JSON: &str = "application/json";

/// `text/event-stream`: the media type of streaming responses (spec
/// 9.4.2, 11.7).
pub const EVENT_STREAM: &str = "text/event-stream";

/// [`A2A_JSON`] as a header value.
pub const A2A_JSON_VALUE: HeaderValue = HeaderValue::from_static(A2A_JSON);
/// [`APPLICATION_JSON`] as a header value.
pub const APPLICATION_JSON_VALUE: HeaderValue = HeaderValue::from_static(APPLICATION_JSON);
/// [`EVENT_STREAM`] as a header value.
pub const EVENT_STREAM_VALUE: HeaderValue = HeaderValue::from_static(EVENT_STREAM);

/// True if `content_type` (a `Content-Type` value) names
/// `application/json` or `application/a2a+json` (spec 9.1, 11.1), ignoring
/// case and any parameters (`; charset=utf-8`).
///
/// ```
/// use a2a_wire::is_json_media_type;
///
/// assert!(is_json_media_type("application/json"));
/// assert!(is_json_media_type("Application/A2A+JSON; charset=utf-8"));
/// assert!(!is_json_media_type("text/plain"));
/// assert!(!is_json_media_type("application/jsonx"));
/// ```
pub fn is_json_media_type(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim_matches(|c| c == ' ' || c == '\t');
    essence.eq_ignore_ascii_case(APPLICATION_JSON) || essence.eq_ignore_ascii_case(A2A_JSON)
}

/// The media type of an HTTP+JSON response to a request with `headers`
/// (spec 11.1, RFC 9110 section 12.5.1): `application/json` when the
/// request's `Accept` rates it above `application/a2a+json` (say, it
/// accepts only `application/json`), else `application/a2a+json`, also
/// when there is no `Accept` or it accepts neither (the answer is then the
/// spec's type rather than a 406).
pub fn response_json_type(headers: &HeaderMap) -> HeaderValue {
    let mut json = 0u16;
    let mut a2a = 0u16;
    let mut any = false;
    for value in headers.get_all(ACCEPT) {
        let Ok(text) = value.to_str() else { continue };
        any = true;
        json = json.max(acceptance(text, APPLICATION_JSON));
        a2a = a2a.max(acceptance(text, A2A_JSON));
    }
    if any && json > a2a {
        APPLICATION_JSON_VALUE
    } else {
        A2A_JSON_VALUE
    }
}

/// The quality (in thousandths) an `Accept` value gives `media_type`: that
/// of the most specific range matching it (RFC 9110 section 12.5.1), 0 if
/// none does. At most 64 ranges are read.
fn acceptance(accept: &str, media_type: &str) -> u16 {
    let mut best: Option<(u8, u16)> = None;
    for range in accept.split(',').take(64) {
        let mut params = range.split(';');
        let essence = params.next().unwrap_or_default().trim();
        let Some(specificity) = range_specificity(essence, media_type) else {
            continue;
        };
        let q = params
            .filter_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
            .map(parse_qvalue)
            .next()
            .unwrap_or(1000);
        if best.is_none_or(|(s, _)| specificity > s) {
            best = Some((specificity, q));
        }
    }
    best.map_or(0, |(_, q)| q)
}

/// How specifically the media `range` names `media_type` (2: exactly,
/// 1: `type/*`, 0: `*/*`), `None` if it does not; case-insensitive.
pub fn range_specificity(range: &str, media_type: &str) -> Option<u8> {
    let (rt, rs) = range.split_once('/')?;
    let (mt, ms) = media_type.split_once('/')?;
    let (rt, rs) = (rt.trim(), rs.trim());
    match (rt, rs) {
        ("*", "*") => Some(0),
        (t, "*") if t.eq_ignore_ascii_case(mt.trim()) => Some(1),
        (t, s) if t.eq_ignore_ascii_case(mt.trim()) && s.eq_ignore_ascii_case(ms.trim()) => Some(2),
        _ => None,
    }
}

/// A `qvalue` (`0`, `0.5`, `1.000`) in thousandths; an unreadable one is 0.
fn parse_qvalue(text: &str) -> u16 {
    let text = text.trim();
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    let thousandths = frac
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0u16, |n, d| n * 10 + u16::from(d - b'0'));
    match int {
        "0" => thousandths,
        "1" if thousandths == 0 => 1000,
        _ => 0,
    }
}

/// Why a request's `Content-Type` is refused (answered with 415).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContentTypeError {
    /// No `Content-Type` header.
    Missing,
    /// More than one `Content-Type` header.
    Repeated,
    /// A media type other than the JSON ones, or not text.
    Unsupported(String),
}

impl ContentTypeError {
    /// The sentence a 415 answer carries.
    pub fn message(&self) -> String {
        match self {
            ContentTypeError::Missing => format!(
                "the request has a body but no Content-Type; expected {APPLICATION_JSON} or {A2A_JSON}"
            ),
            ContentTypeError::Repeated => "the request has more than one Content-Type".to_owned(),
            ContentTypeError::Unsupported(got) => format!(
                "unsupported Content-Type {got:?}; expected {APPLICATION_JSON} or {A2A_JSON}"
            ),
        }
    }
}

/// Checks that the request's `Content-Type` is one of the JSON types.
pub fn check_json_content_type(headers: &HeaderMap) -> Result<(), ContentTypeError> {
    let mut values = headers.get_all(CONTENT_TYPE).iter();
    let Some(value) = values.next() else {
        return Err(ContentTypeError::Missing);
    };
    if values.next().is_some() {
        return Err(ContentTypeError::Repeated);
    }
    match value.to_str() {
        Ok(text) if is_json_media_type(text) => Ok(()),
        Ok(text) => Err(ContentTypeError::Unsupported(
            text.chars().take(64).collect(),
        )),
        Err(_) => Err(ContentTypeError::Unsupported(
            String::from_utf8_lossy(value.as_bytes())
                .chars()
                .take(64)
                .collect(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_checks() {
        let mut h = HeaderMap::new();
        assert_eq!(check_json_content_type(&h), Err(ContentTypeError::Missing));
        h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        assert_eq!(check_json_content_type(&h), Ok(()));
        h.append(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        assert_eq!(check_json_content_type(&h), Err(ContentTypeError::Repeated));
        h.insert(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        assert!(matches!(
            check_json_content_type(&h),
            Err(ContentTypeError::Unsupported(t)) if t == "text/plain"
        ));
        h.insert(
            CONTENT_TYPE,
            HeaderValue::from_bytes(b"app\xfflication").unwrap(),
        );
        assert!(check_json_content_type(&h).is_err());
        assert!(is_json_media_type(" application/json ;charset=utf-8"));
        assert!(!is_json_media_type(""));
    }

    #[test]
    fn response_type_follows_accept() {
        let pick = |accept: Option<&str>| {
            let mut h = HeaderMap::new();
            if let Some(a) = accept {
                h.insert(ACCEPT, HeaderValue::from_str(a).unwrap());
            }
            response_json_type(&h)
        };
        for (accept, want) in [
            (None, A2A_JSON),
            (Some("application/json"), APPLICATION_JSON),
            (Some("Application/JSON; charset=utf-8"), APPLICATION_JSON),
            (
                Some("application/json, text/event-stream"),
                APPLICATION_JSON,
            ),
            (Some("application/json, application/a2a+json"), A2A_JSON),
            (Some("*/*"), A2A_JSON),
            (Some("application/*"), A2A_JSON),
            (Some("application/json, */*;q=0.1"), APPLICATION_JSON),
            (
                Some("application/a2a+json;q=0.5, application/json"),
                APPLICATION_JSON,
            ),
            (
                Some("application/json;q=0.4, application/a2a+json;q=0.6"),
                A2A_JSON,
            ),
            (Some("text/html"), A2A_JSON),
            (Some("application/json;q=0"), A2A_JSON),
            (Some("application/json;q=2"), A2A_JSON),
            (Some(""), A2A_JSON),
        ] {
            assert_eq!(pick(accept), want, "{accept:?}");
        }
        assert_eq!(parse_qvalue("0.125"), 125);
        assert_eq!(parse_qvalue("1.000"), 1000);
        assert_eq!(parse_qvalue("0.1234"), 0);
        assert_eq!(parse_qvalue("x"), 0);
        assert_eq!(range_specificity("image/*", "image/png"), Some(1));
        assert_eq!(range_specificity("image/png", "image/jpeg"), None);
        assert_eq!(range_specificity("nonsense", "image/png"), None);
    }
}
