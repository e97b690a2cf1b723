//! The `A2A-Extensions` service parameter (spec 3.2.6, 11.2, 14.2.2): the
//! extension URIs a client asks to use, and the check against the
//! extensions an agent requires (spec 3.3.4).
//!
//! # Decisions
//!
//! - **Sources.** Every `A2A-Extensions` header field counts (spec 11.2:
//!   values SHOULD be comma-separated in one field, but HTTP allows
//!   several), then every query parameter of that name, matched ignoring
//!   case ([`RequestedExtensions::from_request`]); the union is taken.
//! - **Items** are split on `,`, trimmed of spaces and tabs; empty items
//!   are dropped; duplicates are dropped keeping the first occurrence.
//!   URIs are compared exactly (case-sensitive, no normalisation): the
//!   spec identifies an extension by its URI string.
//! - **Syntax.** An item must be visible ASCII with no inner whitespace;
//!   anything else is an error, not a silently different URI. Beyond that
//!   the URI is opaque: whether an agent knows it is the agent's business.
//! - **Limits** ([`ExtensionLimits`]): the number of distinct URIs and the
//!   length of each; exceeding either is an error, never a truncation.

use a2a_types::{A2aError, ErrorKind};
use http::{HeaderMap, HeaderName, HeaderValue};

use crate::query::QueryParams;

/// The `A2A-Extensions` header (spec 14.2.2).
pub const A2A_EXTENSIONS: HeaderName = HeaderName::from_static("a2a-extensions");

/// The name of the `A2A-Extensions` service parameter in a query string.
pub const A2A_EXTENSIONS_PARAM: &str = "A2A-Extensions";

/// Limits for [`RequestedExtensions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtensionLimits {
    max_count: usize,
    max_uri_len: usize,
}

impl Default for ExtensionLimits {
    fn default() -> ExtensionLimits {
        ExtensionLimits::new()
    }
}

impl ExtensionLimits {
    /// Default [`max_count`](ExtensionLimits::max_count): 32 distinct URIs.
    pub const DEFAULT_MAX_COUNT: usize = 32;
    /// Default [`max_uri_len`](ExtensionLimits::max_uri_len): 1024 bytes.
    pub const DEFAULT_MAX_URI_LEN: usize = 1024;

    /// The defaults: 32 URIs of at most 1024 bytes each.
    pub const fn new() -> ExtensionLimits {
        ExtensionLimits {
            max_count: ExtensionLimits::DEFAULT_MAX_COUNT,
            max_uri_len: ExtensionLimits::DEFAULT_MAX_URI_LEN,
        }
    }

    /// Sets the most distinct URIs accepted.
    pub const fn with_max_count(mut self, max: usize) -> ExtensionLimits {
        self.max_count = max;
        self
    }

    /// Sets the longest URI accepted, in bytes.
    pub const fn with_max_uri_len(mut self, max: usize) -> ExtensionLimits {
        self.max_uri_len = max;
        self
    }

    /// The most distinct URIs accepted.
    pub const fn max_count(&self) -> usize {
        self.max_count
    }

    /// The longest URI accepted, in bytes.
    pub const fn max_uri_len(&self) -> usize {
        self.max_uri_len
    }
}

/// Why an `A2A-Extensions` value was refused, or could not be encoded.
/// Every one answers `InvalidRequest` (spec 3.2.6), so the public
/// functions hand out [`A2aError`]; the message is this type's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum ExtensionsError {
    /// More distinct URIs than [`ExtensionLimits::max_count`].
    #[error("A2A-Extensions names more than {max} extensions")]
    TooMany {
        /// The limit.
        max: usize,
    },
    /// A URI longer than [`ExtensionLimits::max_uri_len`].
    #[error("an A2A-Extensions URI is {len} bytes, over the limit of {max}")]
    UriTooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A URI that cannot appear in the list.
    #[error("A2A-Extensions URI {uri:?} {reason}")]
    InvalidUri {
        /// The URI (bounded by the length limit when parsing).
        uri: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A header field value that is not visible ASCII.
    #[error("an A2A-Extensions header value is not visible ASCII")]
    InvalidHeaderValue,
}

impl From<ExtensionsError> for A2aError {
    fn from(e: ExtensionsError) -> A2aError {
        A2aError::new(ErrorKind::InvalidRequest, e.to_string())
    }
}

/// The extension URIs a request asks for, in order, without duplicates
/// (spec 3.2.6). Borrows from the header values or query.
///
/// ```
/// use a2a_wire::{service_params::{ExtensionLimits, A2A_EXTENSIONS}, service_params::RequestedExtensions};
/// use http::HeaderMap;
///
/// let mut headers = HeaderMap::new();
/// headers.append(A2A_EXTENSIONS, "https://a.example/geo/v1, https://b.example/cite/v1".parse()?);
/// headers.append(A2A_EXTENSIONS, "https://a.example/geo/v1".parse()?);
/// let ext = RequestedExtensions::from_headers(&headers, &ExtensionLimits::new())?;
/// assert_eq!(ext.as_slice(), ["https://a.example/geo/v1", "https://b.example/cite/v1"]);
///
/// assert!(ext.require_all(["https://b.example/cite/v1"]).is_ok());
/// let err = ext.require_all(["https://c.example/pay/v1"]).unwrap_err();
/// assert_eq!(err.kind(), a2a_types::ErrorKind::ExtensionSupportRequired);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestedExtensions<'a> {
    uris: Vec<&'a str>,
}

impl<'a> RequestedExtensions<'a> {
    /// Parses comma-separated lists of URIs, one string per header field
    /// or query parameter.
    pub fn parse<I>(
        values: I,
        limits: &ExtensionLimits,
    ) -> Result<RequestedExtensions<'a>, A2aError>
    where
        I: IntoIterator<Item = &'a str>,
    {
        let mut out = RequestedExtensions::default();
        for value in values {
            out.add(value, limits)?;
        }
        Ok(out)
    }

    /// Reads every `A2A-Extensions` header field.
    pub fn from_headers(
        headers: &'a HeaderMap,
        limits: &ExtensionLimits,
    ) -> Result<RequestedExtensions<'a>, A2aError> {
        RequestedExtensions::from_request(headers, None, limits)
    }

    /// Reads every `A2A-Extensions` header field, then every
    /// `A2A-Extensions` query parameter (name matched ignoring case).
    pub fn from_request(
        headers: &'a HeaderMap,
        query: Option<&'a QueryParams<'_>>,
        limits: &ExtensionLimits,
    ) -> Result<RequestedExtensions<'a>, A2aError> {
        let mut out = RequestedExtensions::default();
        for value in headers.get_all(&A2A_EXTENSIONS) {
            let text = value
                .to_str()
                .map_err(|_| ExtensionsError::InvalidHeaderValue)?;
            out.add(text, limits)?;
        }
        if let Some(query) = query {
            for text in query.service_param_all(A2A_EXTENSIONS_PARAM) {
                out.add(text, limits)?;
            }
        }
        Ok(out)
    }

    fn add(&mut self, list: &'a str, limits: &ExtensionLimits) -> Result<(), ExtensionsError> {
        for item in list.split(',') {
            let uri = item.trim_matches(|c| c == ' ' || c == '\t');
            if uri.is_empty() {
                continue;
            }
            if uri.len() > limits.max_uri_len {
                return Err(ExtensionsError::UriTooLong {
                    len: uri.len(),
                    max: limits.max_uri_len,
                });
            }
            check_uri(uri)?;
            if self.uris.contains(&uri) {
                continue;
            }
            if self.uris.len() == limits.max_count {
                return Err(ExtensionsError::TooMany {
                    max: limits.max_count,
                });
            }
            self.uris.push(uri);
        }
        Ok(())
    }

    /// The URIs, in order of first appearance.
    pub fn as_slice(&self) -> &[&'a str] {
        &self.uris
    }

    /// The URIs, in order of first appearance.
    pub fn iter(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.uris.iter().copied()
    }

    /// Number of distinct URIs.
    pub fn len(&self) -> usize {
        self.uris.len()
    }

    /// True if no extension was requested.
    pub fn is_empty(&self) -> bool {
        self.uris.is_empty()
    }

    /// True if `uri` was requested (exact comparison).
    pub fn contains(&self, uri: &str) -> bool {
        self.uris.contains(&uri)
    }

    /// Checks that every `required` URI (those the agent card marks
    /// `required`) was requested; the first missing one answers
    /// `ExtensionSupportRequiredError` (spec 3.3.4) naming it.
    pub fn require_all<'r>(
        &self,
        required: impl IntoIterator<Item = &'r str>,
    ) -> Result<(), A2aError> {
        match required.into_iter().find(|uri| !self.contains(uri)) {
            Some(missing) => Err(A2aError::extension_support_required(missing)),
            None => Ok(()),
        }
    }
}

/// Checks that `uri` can be one item of the list: visible ASCII, no comma.
fn check_uri(uri: &str) -> Result<(), ExtensionsError> {
    let reason = if uri.is_empty() {
        "is empty"
    } else if uri.contains(',') {
        "contains a comma"
    } else if !uri.bytes().all(|b| b.is_ascii_graphic()) {
        "contains whitespace, a control character or non-ASCII text"
    } else {
        return Ok(());
    };
    Err(ExtensionsError::InvalidUri {
        uri: uri.to_owned(),
        reason,
    })
}

/// The `A2A-Extensions` header value for the client side: the URIs joined
/// with `,` in order, duplicates dropped; `None` when there are none (send
/// no header). A URI that is empty, holds a comma, whitespace, a control
/// character or non-ASCII text is an error.
///
/// ```
/// use a2a_wire::service_params::encode_extensions;
///
/// let v = encode_extensions(["https://a.example/x", "https://b.example/y"])?;
/// assert_eq!(v.unwrap(), "https://a.example/x,https://b.example/y");
/// assert_eq!(encode_extensions([])?, None);
/// # Ok::<(), a2a_types::A2aError>(())
/// ```
pub fn encode_extensions<'u>(
    uris: impl IntoIterator<Item = &'u str>,
) -> Result<Option<HeaderValue>, A2aError> {
    let mut seen: Vec<&str> = Vec::new();
    let mut text = String::new();
    for uri in uris {
        check_uri(uri)?;
        if seen.contains(&uri) {
            continue;
        }
        if !text.is_empty() {
            text.push(',');
        }
        text.push_str(uri);
        seen.push(uri);
    }
    if text.is_empty() {
        return Ok(None);
    }
    HeaderValue::from_str(&text)
        .map(Some)
        .map_err(|_| ExtensionsError::InvalidHeaderValue.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::ErrorKind;

    const GEO: &str = "https://example.com/extensions/geolocation/v1";
    const CITE: &str = "https://standards.org/extensions/citations/v1";

    fn parse(values: &[&'static str]) -> Result<RequestedExtensions<'static>, A2aError> {
        RequestedExtensions::parse(values.iter().copied(), &ExtensionLimits::new())
    }

    /// The refusal's message, after checking that it is `InvalidRequest`.
    fn why<T: std::fmt::Debug>(result: Result<T, A2aError>) -> String {
        let e = result.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidRequest, "{e}");
        e.message().to_owned()
    }

    #[test]
    fn spec_example() {
        let ext = parse(&["https://example.com/extensions/geolocation/v1,https://standards.org/extensions/citations/v1"]).unwrap();
        assert_eq!(ext.as_slice(), [GEO, CITE]);
        assert_eq!(ext.len(), 2);
        assert!(ext.contains(GEO) && !ext.contains("https://example.com"));
    }

    #[test]
    fn trims_drops_empties_and_dedupes_in_order() {
        let ext = parse(&[" b ,\ta,, ,", "", "c, b", "a"]).unwrap();
        assert_eq!(ext.iter().collect::<Vec<_>>(), ["b", "a", "c"]);
        assert!(parse(&[]).unwrap().is_empty());
        assert!(parse(&[" , ,"]).unwrap().is_empty());
        // Exact comparison.
        assert_eq!(parse(&["A,a"]).unwrap().len(), 2);
    }

    #[test]
    fn refuses_bad_items() {
        for bad in ["a b", "x\u{7f}", "\u{e9}", "a\nb", "a\u{0}"] {
            let e = why(parse(&[bad]));
            assert!(e.starts_with("A2A-Extensions URI "), "{bad:?}: {e}");
        }
        assert_eq!(
            why(parse(&["ok, a b"])),
            "A2A-Extensions URI \"a b\" contains whitespace, a control character or non-ASCII text"
        );
    }

    #[test]
    fn limits() {
        let limits = ExtensionLimits::new().with_max_count(2).with_max_uri_len(5);
        assert_eq!((limits.max_count(), limits.max_uri_len()), (2, 5));
        let p = |v: &'static str| RequestedExtensions::parse([v], &limits);
        assert_eq!(p("a,b,a,b").unwrap().len(), 2, "duplicates do not count");
        assert_eq!(
            why(p("a,b,c")),
            ExtensionsError::TooMany { max: 2 }.to_string()
        );
        assert_eq!(p("12345").unwrap().len(), 1);
        assert_eq!(
            why(p(" 123456 ")),
            "an A2A-Extensions URI is 6 bytes, over the limit of 5"
        );
        assert_eq!(ExtensionLimits::default(), ExtensionLimits::new());
        let many: Vec<String> = (0..=ExtensionLimits::DEFAULT_MAX_COUNT)
            .map(|i| format!("u{i}"))
            .collect();
        let joined = many.join(",");
        assert_eq!(
            why(RequestedExtensions::parse(
                [joined.as_str()],
                &ExtensionLimits::new()
            )),
            "A2A-Extensions names more than 32 extensions"
        );
    }

    #[test]
    fn reads_headers_and_query() {
        let mut headers = HeaderMap::new();
        headers.append(A2A_EXTENSIONS, HeaderValue::from_static("a, b"));
        headers.append(A2A_EXTENSIONS, HeaderValue::from_static("c"));
        let q = QueryParams::parse("a2a-extensions=b,d&A2A-Extensions=e&other=f").unwrap();
        let limits = ExtensionLimits::new();
        let ext = RequestedExtensions::from_request(&headers, Some(&q), &limits).unwrap();
        assert_eq!(ext.as_slice(), ["a", "b", "c", "d", "e"]);
        let ext = RequestedExtensions::from_headers(&headers, &limits).unwrap();
        assert_eq!(ext.as_slice(), ["a", "b", "c"]);
        assert!(
            RequestedExtensions::from_headers(&HeaderMap::new(), &limits)
                .unwrap()
                .is_empty()
        );

        headers.append(A2A_EXTENSIONS, HeaderValue::from_bytes(b"x\xff").unwrap());
        assert_eq!(
            why(RequestedExtensions::from_headers(&headers, &limits)),
            "an A2A-Extensions header value is not visible ASCII"
        );
    }

    #[test]
    fn required_extensions() {
        let ext = parse(&[GEO]).unwrap();
        assert!(ext.require_all([]).is_ok());
        assert!(ext.require_all([GEO]).is_ok());
        let err = ext.require_all([GEO, CITE, "https://x/y"]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ExtensionSupportRequired);
        assert_eq!(
            err.error_info()
                .unwrap()
                .metadata
                .get("extension")
                .map(String::as_str),
            Some(CITE)
        );
        assert!(RequestedExtensions::default().require_all([GEO]).is_err());
    }

    #[test]
    fn encoding() {
        assert_eq!(
            encode_extensions([GEO, CITE, GEO]).unwrap().unwrap(),
            format!("{GEO},{CITE}").as_str()
        );
        assert_eq!(encode_extensions([]).unwrap(), None);
        for bad in ["", "a,b", "a b", "\u{e9}", "a\r\nX-Injected: 1"] {
            let e = why(encode_extensions([bad]));
            assert!(e.starts_with("A2A-Extensions URI "), "{bad:?}: {e}");
        }
        // Encoding then parsing gives the list back.
        let uris = ["https://a/1", "urn:x:y", "https://b/2?q=1&r=%20"];
        let header = encode_extensions(uris).unwrap().unwrap();
        let ext = RequestedExtensions::parse([header.to_str().unwrap()], &ExtensionLimits::new())
            .unwrap();
        assert_eq!(ext.as_slice(), uris);
    }
}
