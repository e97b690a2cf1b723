//! The `A2A-Version` service parameter (spec 3.2.6, 3.6, 14.2.1): the
//! version type, its parser, and server-side negotiation.
//!
//! # Decisions
//!
//! - **Patch numbers** are accepted and dropped: `1.0.3` reads as `1.0`.
//!   Spec 3.6 says patch numbers SHOULD NOT be sent and MUST NOT be
//!   considered in negotiation, so a client that sends one still gets
//!   `1.0`. The patch must still be a number (`1.0.x` is refused).
//! - **Strict numbers**: each component is `0` or a decimal without
//!   leading zeros that fits a `u32`; no sign, no `v` prefix, no
//!   pre-release suffix, no whitespace inside. `1` alone is refused: the
//!   format is `Major.Minor` (spec 14.2.1).
//! - **Absent or empty means 0.3** (spec 3.6.1, 3.6.2). A server that does
//!   not serve 0.3 answers `VersionNotSupportedError` naming `0.3`, never
//!   silently 1.0.
//! - **Where it is read**: the `A2A-Version` header, else the
//!   `A2A-Version` query parameter (spec 3.6.1; name matched ignoring
//!   case). The header wins when both are present. More than one header
//!   field, or more than one query parameter, is refused: the parameter
//!   holds one version.
//! - **Every bad value is `VersionNotSupportedError`** (spec 3.6.2), with
//!   the requested text (at most [`MAX_ECHO_LEN`] bytes of it) and the
//!   served versions in the error's metadata. Surrounding spaces and tabs
//!   (HTTP optional whitespace) are trimmed first.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use a2a_types::A2aError;
use http::{HeaderMap, HeaderName};

use crate::query::QueryParams;

/// The `A2A-Version` header (spec 14.2.1).
pub const A2A_VERSION: HeaderName = HeaderName::from_static("a2a-version");

/// The name of the `A2A-Version` service parameter, as sent in a query
/// string (spec 3.6.1).
pub const A2A_VERSION_PARAM: &str = "A2A-Version";

/// The longest version text [`ProtocolVersion::parse`] reads: 32 bytes,
/// enough for three `u32` components.
pub const MAX_VERSION_LEN: usize = 32;

/// The most bytes of a refused version that an error repeats.
pub const MAX_ECHO_LEN: usize = 32;

/// An A2A protocol version, `Major.Minor` (spec 3.6). Ordered by major,
/// then minor.
///
/// ```
/// use a2a_wire::ProtocolVersion;
///
/// let v: ProtocolVersion = "1.0.3".parse()?;
/// assert_eq!(v, ProtocolVersion::V1_0);
/// assert_eq!(v.to_string(), "1.0");
/// assert!(ProtocolVersion::V0_3 < ProtocolVersion::V1_0);
/// # Ok::<(), a2a_wire::service_params::VersionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProtocolVersion {
    major: u32,
    minor: u32,
}

/// Why a version text is not `Major.Minor[.Patch]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VersionError {
    /// The text is empty.
    #[error("the version is empty")]
    Empty,
    /// The text is longer than [`MAX_VERSION_LEN`].
    #[error("the version is {len} bytes, over the limit of {max}")]
    TooLong {
        /// Length of the text in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// Only a major number, as in `1`.
    #[error("the version has no minor number; expected Major.Minor")]
    MissingMinor,
    /// More than `Major.Minor.Patch`.
    #[error("the version has more than three components; expected Major.Minor")]
    TooManyComponents,
    /// A component is empty or holds something other than digits.
    #[error("the {component} version is not a decimal number")]
    NotANumber {
        /// `major`, `minor` or `patch`.
        component: &'static str,
    },
    /// A component has a leading zero, as in `01`.
    #[error("the {component} version has a leading zero")]
    LeadingZero {
        /// `major`, `minor` or `patch`.
        component: &'static str,
    },
    /// A component does not fit a `u32`.
    #[error("the {component} version is too large")]
    Overflow {
        /// `major`, `minor` or `patch`.
        component: &'static str,
    },
}

impl ProtocolVersion {
    /// Version 0.3, assumed when a request names none (spec 3.6.2).
    pub const V0_3: ProtocolVersion = ProtocolVersion::new(0, 3);
    /// Version 1.0.
    pub const V1_0: ProtocolVersion = ProtocolVersion::new(1, 0);
    /// Version 1.1, the draft (the `draft-1-1` feature).
    #[cfg(feature = "draft-1-1")]
    pub const V1_1: ProtocolVersion = ProtocolVersion::new(1, 1);

    /// The version `major.minor`.
    pub const fn new(major: u32, minor: u32) -> ProtocolVersion {
        ProtocolVersion { major, minor }
    }

    /// The major number.
    pub const fn major(self) -> u32 {
        self.major
    }

    /// The minor number.
    pub const fn minor(self) -> u32 {
        self.minor
    }

    /// Parses `Major.Minor` or `Major.Minor.Patch` (the patch is dropped,
    /// spec 3.6). No whitespace is accepted; see the module documentation
    /// for the exact rules.
    pub fn parse(text: &str) -> Result<ProtocolVersion, VersionError> {
        // `1.0`, `0.3`: what every request sends, read without splitting
        // (the same answer as the general rules below).
        if let [major @ b'0'..=b'9', b'.', minor @ b'0'..=b'9'] = *text.as_bytes() {
            return Ok(ProtocolVersion {
                major: u32::from(major - b'0'),
                minor: u32::from(minor - b'0'),
            });
        }
        if text.is_empty() {
            return Err(VersionError::Empty);
        }
        if text.len() > MAX_VERSION_LEN {
            return Err(VersionError::TooLong {
                len: text.len(),
                max: MAX_VERSION_LEN,
            });
        }
        let mut parts = text.split('.');
        let major = parse_component(parts.next().unwrap_or_default(), "major")?;
        let minor = parse_component(parts.next().ok_or(VersionError::MissingMinor)?, "minor")?;
        if let Some(patch) = parts.next() {
            parse_component(patch, "patch")?;
        }
        if parts.next().is_some() {
            return Err(VersionError::TooManyComponents);
        }
        Ok(ProtocolVersion { major, minor })
    }

    /// Chooses the version to serve a request with (spec 3.6.2).
    ///
    /// `requested` is the raw `A2A-Version` value, `None` when the request
    /// had none; absent or blank means 0.3. The answer is the served
    /// version with the same `Major.Minor`, or `VersionNotSupportedError`
    /// (for unparsable text too) naming the request and `served`.
    ///
    /// ```
    /// use a2a_wire::ProtocolVersion;
    /// use a2a_types::ErrorKind;
    ///
    /// let served = [ProtocolVersion::V1_0];
    /// assert_eq!(ProtocolVersion::negotiate(&served, Some(" 1.0 ")), Ok(ProtocolVersion::V1_0));
    /// let err = ProtocolVersion::negotiate(&served, None).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::VersionNotSupported);
    /// assert_eq!(err.message(), "A2A version \"0.3\" is not supported; supported: 1.0");
    /// ```
    pub fn negotiate(
        served: &[ProtocolVersion],
        requested: Option<&str>,
    ) -> Result<ProtocolVersion, A2aError> {
        let text = requested.map(trim_ows).unwrap_or_default();
        let wanted = if text.is_empty() {
            Ok(ProtocolVersion::V0_3)
        } else {
            ProtocolVersion::parse(text)
        };
        match wanted {
            Ok(v) if served.contains(&v) => Ok(v),
            Ok(v) if text.is_empty() => Err(not_supported(&v.to_string(), served)),
            _ => Err(not_supported(text, served)),
        }
    }
}

fn parse_component(text: &str, component: &'static str) -> Result<u32, VersionError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VersionError::NotANumber { component });
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(VersionError::LeadingZero { component });
    }
    let mut n: u32 = 0;
    for b in text.bytes() {
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u32::from(b - b'0')))
            .ok_or(VersionError::Overflow { component })?;
    }
    Ok(n)
}

fn trim_ows(s: &str) -> &str {
    s.trim_matches(|c| c == ' ' || c == '\t')
}

/// At most [`MAX_ECHO_LEN`] bytes of `text`, cut at a character boundary,
/// with `…` when cut.
fn echo(text: &str) -> Cow<'_, str> {
    if text.len() <= MAX_ECHO_LEN {
        return Cow::Borrowed(text);
    }
    let cut = text
        .char_indices()
        .map(|(i, _)| i)
        .take_while(|&i| i <= MAX_ECHO_LEN)
        .last()
        .unwrap_or(0);
    Cow::Owned(format!("{}\u{2026}", text.get(..cut).unwrap_or_default()))
}

fn not_supported(requested: &str, served: &[ProtocolVersion]) -> A2aError {
    let served: Vec<String> = served.iter().map(ToString::to_string).collect();
    let served: Vec<&str> = served.iter().map(String::as_str).collect();
    A2aError::version_not_supported(&echo(requested), &served)
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl FromStr for ProtocolVersion {
    type Err = VersionError;

    fn from_str(s: &str) -> Result<ProtocolVersion, VersionError> {
        ProtocolVersion::parse(s)
    }
}

/// Why a request's `A2A-Version` could not be read as one value.
/// [`negotiate_version`] answers each with `VersionNotSupportedError`, so
/// this stays inside the crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RequestedVersionError {
    /// More than one `A2A-Version` header field.
    #[error("the A2A-Version header is given more than once: {values}")]
    RepeatedHeader {
        /// The values, joined with `, ` (not visible ASCII replaced).
        values: String,
    },
    /// The header value is not visible ASCII.
    #[error("the A2A-Version header is not visible ASCII: {value:?}")]
    InvalidHeader {
        /// The value, with what is not UTF-8 replaced.
        value: String,
    },
    /// More than one `A2A-Version` query parameter, in any spelling.
    #[error("the A2A-Version query parameter is given more than once: {values}")]
    RepeatedQueryParam {
        /// The values, joined with `, `.
        values: String,
    },
}

impl RequestedVersionError {
    /// What the request asked for, as text for the error answer.
    pub(crate) fn requested(&self) -> &str {
        match self {
            RequestedVersionError::RepeatedHeader { values }
            | RequestedVersionError::RepeatedQueryParam { values } => values,
            RequestedVersionError::InvalidHeader { value } => value,
        }
    }
}

/// The raw `A2A-Version` a request carries (spec 3.6.1): the header, else
/// the query parameter (its name matched ignoring ASCII case), else
/// `None`.
pub(crate) fn requested_version<'a>(
    headers: &'a HeaderMap,
    query: Option<&'a QueryParams<'_>>,
) -> Result<Option<&'a str>, RequestedVersionError> {
    let mut values = headers.get_all(&A2A_VERSION).iter();
    if let Some(first) = values.next() {
        if values.next().is_some() {
            let all: Vec<Cow<'_, str>> = headers
                .get_all(&A2A_VERSION)
                .iter()
                .map(|v| String::from_utf8_lossy(v.as_bytes()))
                .collect();
            return Err(RequestedVersionError::RepeatedHeader {
                values: all.join(", "),
            });
        }
        return first
            .to_str()
            .map(Some)
            .map_err(|_| RequestedVersionError::InvalidHeader {
                value: String::from_utf8_lossy(first.as_bytes()).into_owned(),
            });
    }
    let Some(query) = query else {
        return Ok(None);
    };
    query.service_param(A2A_VERSION_PARAM).map_err(|_| {
        let all: Vec<&str> = query.service_param_all(A2A_VERSION_PARAM).collect();
        RequestedVersionError::RepeatedQueryParam {
            values: all.join(", "),
        }
    })
}

/// Reads the requested version (spec 3.6.1: the `A2A-Version` header, else
/// the query parameter of that name matched ignoring ASCII case) and
/// negotiates it against `served` ([`ProtocolVersion::negotiate`]). A
/// header or parameter given more than once, or a header that is not
/// visible ASCII, answers `VersionNotSupportedError` naming what was sent.
///
/// ```
/// use a2a_wire::{http_json::QueryParams, service_params::{negotiate_version, A2A_VERSION}, ProtocolVersion};
/// use http::HeaderMap;
///
/// let served = [ProtocolVersion::V1_0];
/// let mut headers = HeaderMap::new();
/// let query = QueryParams::parse("a2a-version=1.0")?;
/// assert_eq!(negotiate_version(&served, &headers, Some(&query)), Ok(ProtocolVersion::V1_0));
///
/// headers.insert(A2A_VERSION, "0.3".parse()?);
/// assert!(negotiate_version(&served, &headers, Some(&query)).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn negotiate_version(
    served: &[ProtocolVersion],
    headers: &HeaderMap,
    query: Option<&QueryParams<'_>>,
) -> Result<ProtocolVersion, A2aError> {
    let requested =
        requested_version(headers, query).map_err(|e| not_supported(e.requested(), served))?;
    ProtocolVersion::negotiate(served, requested)
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::ErrorKind;
    use http::HeaderValue;

    const V: fn(u32, u32) -> ProtocolVersion = ProtocolVersion::new;

    #[test]
    fn parses_major_minor_and_drops_patch() {
        for (text, v) in [
            ("1.0", V(1, 0)),
            ("0.3", V(0, 3)),
            ("1.0.3", V(1, 0)),
            ("1.0.0", V(1, 0)),
            ("10.20", V(10, 20)),
            ("4294967295.4294967295", V(u32::MAX, u32::MAX)),
            ("0.0", V(0, 0)),
        ] {
            assert_eq!(ProtocolVersion::parse(text), Ok(v), "{text}");
            assert_eq!(text.parse::<ProtocolVersion>(), Ok(v));
        }
        // Every single-digit pair, which the short path reads.
        for major in 0..10 {
            for minor in 0..10 {
                let text = format!("{major}.{minor}");
                assert_eq!(ProtocolVersion::parse(&text), Ok(V(major, minor)), "{text}");
            }
        }
        assert_eq!(V(1, 0).to_string(), "1.0");
        assert_eq!((V(2, 7).major(), V(2, 7).minor()), (2, 7));
    }

    #[test]
    fn refuses_everything_else_precisely() {
        use VersionError::*;
        let cases = [
            ("", Empty),
            ("1", MissingMinor),
            ("1.", NotANumber { component: "minor" }),
            (".1", NotANumber { component: "major" }),
            ("1..0", NotANumber { component: "minor" }),
            ("1.0.", NotANumber { component: "patch" }),
            ("1.0.x", NotANumber { component: "patch" }),
            ("1.0.0.0", TooManyComponents),
            ("v1.0", NotANumber { component: "major" }),
            ("1.0-rc1", NotANumber { component: "minor" }),
            ("+1.0", NotANumber { component: "major" }),
            ("-1.0", NotANumber { component: "major" }),
            (" 1.0", NotANumber { component: "major" }),
            ("1.0 ", NotANumber { component: "minor" }),
            ("1 .0", NotANumber { component: "major" }),
            ("1,0", NotANumber { component: "major" }),
            ("01.0", LeadingZero { component: "major" }),
            ("1.00", LeadingZero { component: "minor" }),
            ("1.0.01", LeadingZero { component: "patch" }),
            ("4294967296.0", Overflow { component: "major" }),
            ("1.99999999999", Overflow { component: "minor" }),
            ("\u{661}.0", NotANumber { component: "major" }),
            ("1.0.99999999999999999999", Overflow { component: "patch" }),
        ];
        for (text, want) in cases {
            assert_eq!(ProtocolVersion::parse(text), Err(want), "{text:?}");
        }
        let long = "1.".to_owned() + &"0".repeat(40);
        assert_eq!(
            ProtocolVersion::parse(&long),
            Err(TooLong { len: 42, max: 32 })
        );
        assert_eq!(
            VersionError::NotANumber { component: "minor" }.to_string(),
            "the minor version is not a decimal number"
        );
    }

    #[test]
    fn orders_by_major_then_minor() {
        let mut vs = [V(1, 10), V(0, 3), V(1, 2), V(2, 0), V(1, 0)];
        vs.sort();
        assert_eq!(vs, [V(0, 3), V(1, 0), V(1, 2), V(1, 10), V(2, 0)]);
    }

    fn assert_not_supported(result: Result<ProtocolVersion, A2aError>, requested: &str) {
        let err = result.expect_err("must be refused");
        assert_eq!(err.kind(), ErrorKind::VersionNotSupported);
        let meta = &err.error_info().expect("ErrorInfo").metadata;
        assert_eq!(
            meta.get("requestedVersion").map(String::as_str),
            Some(requested)
        );
    }

    #[test]
    fn negotiation() {
        let served = [V(0, 3), V(1, 0)];
        let n = |r| ProtocolVersion::negotiate(&served, r);
        assert_eq!(n(Some("1.0")), Ok(V(1, 0)));
        assert_eq!(n(Some("1.0.7")), Ok(V(1, 0)));
        assert_eq!(n(Some("\t1.0 ")), Ok(V(1, 0)));
        assert_eq!(n(Some("0.3")), Ok(V(0, 3)));
        assert_eq!(n(None), Ok(V(0, 3)));
        assert_eq!(n(Some("")), Ok(V(0, 3)));
        assert_eq!(n(Some("  ")), Ok(V(0, 3)));
        assert_not_supported(n(Some("1.1")), "1.1");
        assert_not_supported(n(Some("0.5")), "0.5");
        assert_not_supported(n(Some("2.0")), "2.0");
        assert_not_supported(n(Some("garbage")), "garbage");
        assert_not_supported(n(Some("1.0, 0.3")), "1.0, 0.3");
        assert_not_supported(n(Some("1 .0")), "1 .0");

        let only_1_0 = [V(1, 0)];
        let err = ProtocolVersion::negotiate(&only_1_0, None).unwrap_err();
        assert_eq!(
            err.message(),
            "A2A version \"0.3\" is not supported; supported: 1.0"
        );
        assert_not_supported(ProtocolVersion::negotiate(&only_1_0, Some(" ")), "0.3");
        let meta = &err.error_info().unwrap().metadata;
        assert_eq!(
            meta.get("supportedVersions").map(String::as_str),
            Some("1.0")
        );
        assert_not_supported(ProtocolVersion::negotiate(&[], Some("1.0")), "1.0");
    }

    #[test]
    fn huge_input_is_echoed_truncated() {
        let served = [V(1, 0)];
        let huge = "9".repeat(10_000);
        let err = ProtocolVersion::negotiate(&served, Some(&huge)).unwrap_err();
        let echoed = &err.error_info().unwrap().metadata["requestedVersion"];
        assert_eq!(echoed, &format!("{}\u{2026}", "9".repeat(32)));
        assert!(err.message().len() < 100);
        // Cut at a character boundary.
        let wide = "\u{e9}".repeat(40);
        assert_eq!(echo(&wide), format!("{}\u{2026}", "\u{e9}".repeat(16)));
        let wide = "a".to_owned() + &"\u{e9}".repeat(40);
        assert_eq!(echo(&wide), format!("a{}\u{2026}", "\u{e9}".repeat(15)));
        assert!(matches!(echo("1.0"), Cow::Borrowed("1.0")));
    }

    #[test]
    fn reads_header_then_query() {
        let served = [V(0, 3), V(1, 0)];
        let mut headers = HeaderMap::new();
        let q = QueryParams::parse("A2A-VERSION=1.0").unwrap();
        assert_eq!(requested_version(&headers, None), Ok(None));
        assert_eq!(requested_version(&headers, Some(&q)), Ok(Some("1.0")));
        assert_eq!(negotiate_version(&served, &headers, None), Ok(V(0, 3)));
        assert_eq!(negotiate_version(&served, &headers, Some(&q)), Ok(V(1, 0)));

        headers.insert(A2A_VERSION, HeaderValue::from_static("0.3"));
        assert_eq!(requested_version(&headers, Some(&q)), Ok(Some("0.3")));
        assert_eq!(negotiate_version(&served, &headers, Some(&q)), Ok(V(0, 3)));
        headers.insert(A2A_VERSION, HeaderValue::from_static(""));
        assert_eq!(negotiate_version(&served, &headers, Some(&q)), Ok(V(0, 3)));

        headers.insert(A2A_VERSION, HeaderValue::from_static("1.0"));
        headers.append(A2A_VERSION, HeaderValue::from_static("1.0"));
        assert_eq!(
            requested_version(&headers, None),
            Err(RequestedVersionError::RepeatedHeader {
                values: "1.0, 1.0".into()
            })
        );
        assert_not_supported(negotiate_version(&served, &headers, None), "1.0, 1.0");

        headers.insert(A2A_VERSION, HeaderValue::from_bytes(b"1.0\xff").unwrap());
        assert_not_supported(negotiate_version(&served, &headers, None), "1.0\u{fffd}");
        assert!(matches!(
            requested_version(&headers, None),
            Err(RequestedVersionError::InvalidHeader { .. })
        ));

        let q = QueryParams::parse("a2a-version=1.0&A2A-Version=0.3").unwrap();
        assert_eq!(
            requested_version(&HeaderMap::new(), Some(&q))
                .unwrap_err()
                .requested(),
            "1.0, 0.3"
        );
        assert_not_supported(
            negotiate_version(&served, &HeaderMap::new(), Some(&q)),
            "1.0, 0.3",
        );
        let q = QueryParams::parse("A2A-Version=9.9").unwrap();
        assert_not_supported(
            negotiate_version(&served, &HeaderMap::new(), Some(&q)),
            "9.9",
        );
    }
}
