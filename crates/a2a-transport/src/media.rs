//! Media types of the HTTP bindings (spec 9.1, 11.1, 14.1).

use http::header::CONTENT_TYPE;
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

pub(crate) const A2A_JSON_VALUE: HeaderValue = HeaderValue::from_static(A2A_JSON);
pub(crate) const APPLICATION_JSON_VALUE: HeaderValue = HeaderValue::from_static(APPLICATION_JSON);
pub(crate) const EVENT_STREAM_VALUE: HeaderValue = HeaderValue::from_static(EVENT_STREAM);

/// True if `content_type` (a `Content-Type` value) names
/// `application/json` or `application/a2a+json` (spec 9.1, 11.1), ignoring
/// case and any parameters (`; charset=utf-8`).
///
/// ```
/// use a2a_transport::is_json_media_type;
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

/// Why a request's `Content-Type` is refused (answered with 415).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ContentTypeError {
    /// No `Content-Type` header.
    Missing,
    /// More than one `Content-Type` header.
    Repeated,
    /// A media type other than the JSON ones, or not text.
    Unsupported(String),
}

impl ContentTypeError {
    pub(crate) fn message(&self) -> String {
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
pub(crate) fn check_json_content_type(headers: &HeaderMap) -> Result<(), ContentTypeError> {
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
}
