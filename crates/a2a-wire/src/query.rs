//! Query strings of the HTTP+JSON binding (spec 11.5): a parser into a
//! small typed multimap for the server, and an encoder for the client.
//!
//! # Decisions
//!
//! - **`+` is a space** by default, as in `application/x-www-form-urlencoded`
//!   (what browsers, `URLSearchParams`, Go's `url.Values` and Python's
//!   `urlencode` produce, and what most servers read). RFC 3986, which
//!   spec 11.5 cites, gives `+` no meaning, so a client that must send a
//!   literal `+` (a timestamp offset such as `+01:00`) sends `%2B`, as
//!   [`QueryBuilder`] always does. [`QueryConfig::with_plus_as_space`]
//!   switches to the RFC 3986 reading.
//! - **Repeated fields** take both forms of spec 11.5, mixed freely:
//!   `?s=a&s=b` and `?s=a,b`. Values are split on a *raw* `,` before
//!   percent-decoding, so `%2C` is a comma inside a value. Empty items
//!   (`?s=`, `?s=a,,b`) are dropped. A field that is not repeated keeps
//!   its commas (`?contextId=a,b` is the one value `a,b`) and may appear
//!   only once: a second occurrence is an error, not a silent choice.
//! - **Booleans** are exactly `true` or `false` (spec 11.5, ProtoJSON);
//!   `1`, `0`, `True`, and a bare `?flag` are errors that say so.
//! - **Integers** are decimal with an optional `-`, no `+`, no spaces, no
//!   exponent; leading zeros are accepted; out-of-range values are errors
//!   naming the bounds.
//! - **Names** are case-sensitive (`camelCase`, spec 11.5), except through
//!   [`QueryParams::service_param`]: service parameter names are
//!   case-insensitive (spec 3.2.6), e.g. `?a2a-version=1.0`.
//! - **Strictness.** Every name and value is decoded when the query is
//!   parsed: an invalid escape or invalid UTF-8 anywhere is an error that
//!   names the parameter, even for a parameter nobody asks for. An empty
//!   name (`?=x`) is an error; empty pairs (`a=1&&b=2`, a trailing `&`) are
//!   skipped.
//! - **Limits** ([`QueryConfig`]): the query length is checked before
//!   anything is read, the number of parameters while parsing.

use std::borrow::Cow;

use crate::pct::{self, PercentDecodeError};

/// Limits and the `+` rule for [`QueryParams::parse_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryConfig {
    max_len: usize,
    max_params: usize,
    plus_as_space: bool,
}

impl Default for QueryConfig {
    fn default() -> QueryConfig {
        QueryConfig::new()
    }
}

impl QueryConfig {
    /// Default [`max_len`](QueryConfig::max_len): 4096 bytes.
    pub const DEFAULT_MAX_LEN: usize = 4096;
    /// Default [`max_params`](QueryConfig::max_params): 64. The largest
    /// A2A request read from a query (`ListTasks`) has eight fields.
    pub const DEFAULT_MAX_PARAMS: usize = 64;

    /// The defaults: 4096 bytes, 64 parameters, `+` read as a space.
    pub const fn new() -> QueryConfig {
        QueryConfig {
            max_len: QueryConfig::DEFAULT_MAX_LEN,
            max_params: QueryConfig::DEFAULT_MAX_PARAMS,
            plus_as_space: true,
        }
    }

    /// Sets the longest query accepted, in bytes.
    pub const fn with_max_len(mut self, max: usize) -> QueryConfig {
        self.max_len = max;
        self
    }

    /// Sets the most `name=value` pairs accepted (empty pairs do not count).
    pub const fn with_max_params(mut self, max: usize) -> QueryConfig {
        self.max_params = max;
        self
    }

    /// Sets whether `+` decodes to a space (form encoding, the default)
    /// or stays `+` (RFC 3986).
    pub const fn with_plus_as_space(mut self, yes: bool) -> QueryConfig {
        self.plus_as_space = yes;
        self
    }

    /// The longest query accepted, in bytes.
    pub const fn max_len(&self) -> usize {
        self.max_len
    }

    /// The most parameters accepted.
    pub const fn max_params(&self) -> usize {
        self.max_params
    }

    /// Whether `+` decodes to a space.
    pub const fn plus_as_space(&self) -> bool {
        self.plus_as_space
    }
}

/// Why a query string or one of its parameters was refused. Every
/// variant about a parameter names it (see [`QueryError::param`]), so the
/// binding can answer `InvalidParams` with a field violation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// The query is longer than [`QueryConfig::max_len`].
    #[error("query string is {len} bytes, over the limit of {max}")]
    TooLong {
        /// Length of the query in bytes.
        len: usize,
        /// The configured limit.
        max: usize,
    },
    /// The query has more than [`QueryConfig::max_params`] parameters.
    #[error("query string has more than {max} parameters")]
    TooManyParams {
        /// The configured limit.
        max: usize,
    },
    /// A pair has an empty name, as in `?=x`.
    #[error("query parameter at byte {offset} has an empty name")]
    EmptyName {
        /// Byte offset of the pair in the query.
        offset: usize,
    },
    /// A parameter name does not decode.
    #[error("query parameter name {raw:?}: {error}")]
    InvalidName {
        /// The name as it appears in the query (still encoded).
        raw: String,
        /// What is wrong with it.
        error: PercentDecodeError,
    },
    /// A parameter value does not decode.
    #[error("query parameter `{param}`: {error}")]
    InvalidValue {
        /// The parameter.
        param: String,
        /// What is wrong with the value (offsets are within the raw value).
        error: PercentDecodeError,
    },
    /// A parameter that takes one value was given more than once.
    #[error("query parameter `{param}` is given more than once")]
    Repeated {
        /// The parameter.
        param: String,
    },
    /// A boolean parameter is neither `true` nor `false`.
    #[error("query parameter `{param}`: expected `true` or `false`, got {value:?}")]
    InvalidBool {
        /// The parameter.
        param: String,
        /// The decoded value.
        value: String,
    },
    /// An integer parameter is not a decimal integer.
    #[error("query parameter `{param}`: expected a decimal integer, got {value:?}")]
    InvalidInteger {
        /// The parameter.
        param: String,
        /// The decoded value.
        value: String,
    },
    /// An integer parameter is outside the range of its type.
    #[error("query parameter `{param}`: {value} is outside {min}..={max}")]
    OutOfRange {
        /// The parameter.
        param: String,
        /// The decoded value.
        value: String,
        /// Smallest value accepted.
        min: i64,
        /// Largest value accepted.
        max: i64,
    },
}

impl QueryError {
    /// The parameter the error is about: the decoded name, or for
    /// [`QueryError::InvalidName`] the raw one. `None` for errors about
    /// the whole query.
    pub fn param(&self) -> Option<&str> {
        match self {
            QueryError::TooLong { .. }
            | QueryError::TooManyParams { .. }
            | QueryError::EmptyName { .. } => None,
            QueryError::InvalidName { raw, .. } => Some(raw),
            QueryError::InvalidValue { param, .. }
            | QueryError::Repeated { param }
            | QueryError::InvalidBool { param, .. }
            | QueryError::InvalidInteger { param, .. }
            | QueryError::OutOfRange { param, .. } => Some(param),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Pair<'a> {
    name: Cow<'a, str>,
    raw_value: &'a str,
    value: Cow<'a, str>,
}

/// A parsed query string: decoded `name=value` pairs in order, with typed
/// accessors (spec 11.5). Borrows from the query where nothing needed
/// decoding.
///
/// ```
/// use a2a_wire::http_json::QueryParams;
///
/// let q = QueryParams::parse("contextId=c%201&status=A,B&status=C&pageSize=50&includeArtifacts=true")?;
/// assert_eq!(q.get_str("contextId")?, Some("c 1"));
/// assert_eq!(q.get_all("status")?, ["A", "B", "C"]);
/// assert_eq!(q.get_i32("pageSize")?, Some(50));
/// assert_eq!(q.get_bool("includeArtifacts")?, Some(true));
/// assert_eq!(q.get_i32("historyLength")?, None);
/// # Ok::<(), a2a_wire::http_json::QueryError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryParams<'a> {
    pairs: Vec<Pair<'a>>,
    plus_as_space: bool,
}

impl<'a> QueryParams<'a> {
    /// Parses `query` (the part after `?`, as [`http::Uri::query`] gives
    /// it) with the default [`QueryConfig`].
    pub fn parse(query: &'a str) -> Result<QueryParams<'a>, QueryError> {
        QueryParams::parse_with(query, &QueryConfig::new())
    }

    /// Parses `query` with explicit limits.
    pub fn parse_with(query: &'a str, config: &QueryConfig) -> Result<QueryParams<'a>, QueryError> {
        if query.len() > config.max_len {
            return Err(QueryError::TooLong {
                len: query.len(),
                max: config.max_len,
            });
        }
        let mut pairs = Vec::new();
        let mut offset = 0;
        for chunk in query.split('&') {
            let start = offset;
            offset += chunk.len() + 1;
            if chunk.is_empty() {
                continue;
            }
            if pairs.len() == config.max_params {
                return Err(QueryError::TooManyParams {
                    max: config.max_params,
                });
            }
            let (raw_name, raw_value) = chunk.split_once('=').unwrap_or((chunk, ""));
            if raw_name.is_empty() {
                return Err(QueryError::EmptyName { offset: start });
            }
            let name = pct::decode(raw_name, config.plus_as_space).map_err(|error| {
                QueryError::InvalidName {
                    raw: raw_name.to_owned(),
                    error,
                }
            })?;
            let value = pct::decode(raw_value, config.plus_as_space).map_err(|error| {
                QueryError::InvalidValue {
                    param: name.clone().into_owned(),
                    error,
                }
            })?;
            pairs.push(Pair {
                name,
                raw_value,
                value,
            });
        }
        Ok(QueryParams {
            pairs,
            plus_as_space: config.plus_as_space,
        })
    }

    /// Number of parameters (a repeated name counts each time).
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// True if the query had no parameters.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The decoded `(name, value)` pairs, in query order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.pairs.iter().map(|p| (&*p.name, &*p.value))
    }

    /// True if `name` appears at least once.
    pub fn contains(&self, name: &str) -> bool {
        self.pairs.iter().any(|p| p.name == name)
    }

    fn single(
        &self,
        matches: impl Fn(&str) -> bool,
        name: &str,
    ) -> Result<Option<&Pair<'a>>, QueryError> {
        let mut found = self.pairs.iter().filter(|p| matches(&p.name));
        let first = found.next();
        if first.is_some() && found.next().is_some() {
            return Err(QueryError::Repeated {
                param: name.to_owned(),
            });
        }
        Ok(first)
    }

    /// The value of a parameter that takes one value, or `None` if absent.
    /// Errors with [`QueryError::Repeated`] if it appears more than once.
    pub fn get_str(&self, name: &str) -> Result<Option<&str>, QueryError> {
        Ok(self.single(|n| n == name, name)?.map(|p| &*p.value))
    }

    /// A boolean parameter: `true` or `false` exactly (spec 11.5).
    pub fn get_bool(&self, name: &str) -> Result<Option<bool>, QueryError> {
        match self.get_str(name)? {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(other) => Err(QueryError::InvalidBool {
                param: name.to_owned(),
                value: other.to_owned(),
            }),
        }
    }

    /// A 32-bit integer parameter, in decimal (spec 11.5; proto `int32`).
    pub fn get_i32(&self, name: &str) -> Result<Option<i32>, QueryError> {
        let Some(v) = self.get_int(name, i64::from(i32::MIN), i64::from(i32::MAX))? else {
            return Ok(None);
        };
        // In range by the check above.
        Ok(i32::try_from(v).ok())
    }

    /// A 64-bit integer parameter, in decimal (spec 11.5; proto `int64`).
    pub fn get_i64(&self, name: &str) -> Result<Option<i64>, QueryError> {
        self.get_int(name, i64::MIN, i64::MAX)
    }

    fn get_int(&self, name: &str, min: i64, max: i64) -> Result<Option<i64>, QueryError> {
        let Some(value) = self.get_str(name)? else {
            return Ok(None);
        };
        match parse_decimal(value) {
            Some(Decimal::Value(n)) if (min..=max).contains(&n) => Ok(Some(n)),
            Some(_) => Err(QueryError::OutOfRange {
                param: name.to_owned(),
                value: value.to_owned(),
                min,
                max,
            }),
            None => Err(QueryError::InvalidInteger {
                param: name.to_owned(),
                value: value.to_owned(),
            }),
        }
    }

    /// Every value of a repeated parameter, in order: repeated names and
    /// comma-separated values both count (spec 11.5), empty items are
    /// dropped, `%2C` is a comma inside an item. Empty if absent.
    pub fn get_all(&self, name: &str) -> Result<Vec<Cow<'_, str>>, QueryError> {
        let mut out = Vec::new();
        for pair in self.pairs.iter().filter(|p| p.name == name) {
            for raw in pair.raw_value.split(',') {
                let item = pct::decode(raw, self.plus_as_space).map_err(|error| {
                    QueryError::InvalidValue {
                        param: name.to_owned(),
                        error,
                    }
                })?;
                if !item.is_empty() {
                    out.push(item);
                }
            }
        }
        Ok(out)
    }

    /// A service parameter (spec 3.2.6) sent in the query, such as
    /// `?A2A-Version=1.0` (spec 3.6.1): the name matches ignoring ASCII
    /// case. Errors with [`QueryError::Repeated`] if it appears more than
    /// once, in any spelling.
    pub fn service_param(&self, name: &str) -> Result<Option<&str>, QueryError> {
        Ok(self
            .single(|n| n.eq_ignore_ascii_case(name), name)?
            .map(|p| &*p.value))
    }

    /// Every value of a service parameter, matching the name ignoring
    /// ASCII case, in query order (not split on commas).
    pub fn service_param_all<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s str> + 's {
        self.pairs
            .iter()
            .filter(move |p| p.name.eq_ignore_ascii_case(name))
            .map(|p| &*p.value)
    }
}

enum Decimal {
    Value(i64),
    Overflow,
}

/// Parses `-?[0-9]+`; `None` if that is not the shape.
fn parse_decimal(s: &str) -> Option<Decimal> {
    let (negative, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut n: i64 = 0;
    for b in digits.bytes() {
        let d = i64::from(b - b'0');
        let next = n.checked_mul(10).and_then(|n| {
            if negative {
                n.checked_sub(d)
            } else {
                n.checked_add(d)
            }
        });
        match next {
            Some(v) => n = v,
            None => return Some(Decimal::Overflow),
        }
    }
    Some(Decimal::Value(n))
}

/// Builds a query string for the client side (spec 11.5): every name and
/// value percent-encoded so that it reads back the same under RFC 3986
/// and form decoding (spaces as `%20`, `+` as `%2B`, `,` as `%2C`).
///
/// ```
/// use a2a_wire::http_json::QueryBuilder;
///
/// let mut q = QueryBuilder::new();
/// q.push("contextId", "c 1")
///     .push_all("status", ["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"])
///     .push_int("pageSize", 50)
///     .push_bool("includeArtifacts", true)
///     .push("statusTimestampAfter", "2025-11-09T10:30:00+01:00");
/// assert_eq!(
///     q.as_str(),
///     "contextId=c%201&status=TASK_STATE_WORKING&status=TASK_STATE_COMPLETED\
///      &pageSize=50&includeArtifacts=true&statusTimestampAfter=2025-11-09T10%3A30%3A00%2B01%3A00"
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryBuilder {
    buf: String,
}

impl QueryBuilder {
    /// An empty query.
    pub fn new() -> QueryBuilder {
        QueryBuilder::default()
    }

    /// Appends `name=value`.
    pub fn push(&mut self, name: &str, value: &str) -> &mut QueryBuilder {
        if !self.buf.is_empty() {
            self.buf.push('&');
        }
        pct::encode_into(&mut self.buf, name);
        self.buf.push('=');
        pct::encode_into(&mut self.buf, value);
        self
    }

    /// Appends a boolean as `true` or `false`.
    pub fn push_bool(&mut self, name: &str, value: bool) -> &mut QueryBuilder {
        self.push(name, if value { "true" } else { "false" })
    }

    /// Appends an integer in decimal.
    pub fn push_int(&mut self, name: &str, value: i64) -> &mut QueryBuilder {
        self.push(name, &value.to_string())
    }

    /// Appends a repeated field by repeating its name, once per value.
    pub fn push_all<'v>(
        &mut self,
        name: &str,
        values: impl IntoIterator<Item = &'v str>,
    ) -> &mut QueryBuilder {
        for value in values {
            self.push(name, value);
        }
        self
    }

    /// True if nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The query so far, without a leading `?`.
    pub fn as_str(&self) -> &str {
        &self.buf
    }

    /// Appends `?` and the query to `path_and_query`, unless the query is
    /// empty.
    pub fn append_to(&self, path_and_query: &mut String) {
        if !self.buf.is_empty() {
            path_and_query.push('?');
            path_and_query.push_str(&self.buf);
        }
    }

    /// The query, without a leading `?`.
    pub fn finish(self) -> String {
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> QueryParams<'_> {
        QueryParams::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn spec_11_5_examples() {
        let p = q("contextId=uuid&status=TASK_STATE_WORKING&pageSize=50&pageToken=cursor");
        assert_eq!(p.len(), 4);
        assert_eq!(p.get_str("contextId").unwrap(), Some("uuid"));
        assert_eq!(p.get_str("status").unwrap(), Some("TASK_STATE_WORKING"));
        assert_eq!(p.get_i32("pageSize").unwrap(), Some(50));
        assert_eq!(p.get_str("pageToken").unwrap(), Some("cursor"));
        assert_eq!(
            q("historyLength=10").get_i32("historyLength").unwrap(),
            Some(10)
        );
        assert_eq!(
            q("tag=value1&tag=value2").get_all("tag").unwrap(),
            ["value1", "value2"]
        );
        assert_eq!(
            q("tag=value1,value2").get_all("tag").unwrap(),
            ["value1", "value2"]
        );
        assert_eq!(
            q("t=2025-11-09T10%3A30%3A00Z").get_str("t").unwrap(),
            Some("2025-11-09T10:30:00Z")
        );
    }

    #[test]
    fn empty_and_odd_shapes() {
        assert!(q("").is_empty());
        assert!(q("&&&").is_empty());
        let p = q("a=1&&b=&c&");
        assert_eq!(
            p.iter().collect::<Vec<_>>(),
            [("a", "1"), ("b", ""), ("c", "")]
        );
        assert!(p.contains("c") && !p.contains("d") && !p.contains("A"));
        assert_eq!(q("a=b=c").get_str("a").unwrap(), Some("b=c"));
        assert_eq!(
            QueryParams::parse("a=1&=x"),
            Err(QueryError::EmptyName { offset: 4 })
        );
        assert_eq!(QueryParams::parse("=").unwrap_err().param(), None);
        // A leading `?` is not stripped: it is part of the first name.
        assert!(q("?a=1").contains("?a"));
    }

    #[test]
    fn plus_and_percent_decoding() {
        let p = q("s=a+b%2Bc%20d");
        assert_eq!(p.get_str("s").unwrap(), Some("a b+c d"));
        let rfc = QueryConfig::new().with_plus_as_space(false);
        let p = QueryParams::parse_with("s=a+b%2Bc&x+y=1", &rfc).unwrap();
        assert_eq!(p.get_str("s").unwrap(), Some("a+b+c"));
        assert!(p.contains("x+y"));
        assert_eq!(p.get_all("s").unwrap(), ["a+b+c"]);
        assert_eq!(q("a%20b=1").get_str("a b").unwrap(), Some("1"));
        assert_eq!(q("n=%E4%B8%AD").get_str("n").unwrap(), Some("\u{4e2d}"));
        // Borrowed when nothing is escaped.
        let p = q("plain=value");
        assert!(matches!(p.pairs[0].value, Cow::Borrowed("value")));
        assert!(matches!(p.pairs[0].name, Cow::Borrowed("plain")));
    }

    #[test]
    fn invalid_encoding_names_the_parameter() {
        assert_eq!(
            QueryParams::parse("ok=1&contextId=ab%zz"),
            Err(QueryError::InvalidValue {
                param: "contextId".into(),
                error: PercentDecodeError::InvalidEscape { offset: 2 }
            })
        );
        assert_eq!(
            QueryParams::parse("bad%FFname=1"),
            Err(QueryError::InvalidName {
                raw: "bad%FFname".into(),
                error: PercentDecodeError::InvalidUtf8 { offset: 3 }
            })
        );
        let e = QueryParams::parse("a%20b=%C3").unwrap_err();
        assert_eq!(e.param(), Some("a b"));
        assert!(e.to_string().contains("`a b`"), "{e}");
        // Even a parameter nobody reads.
        assert!(QueryParams::parse("unknownThing=%").is_err());
    }

    #[test]
    fn repeated_scalars_are_errors() {
        let p = q("pageSize=1&pageSize=2&flag=true&flag=true");
        let e = p.get_i32("pageSize").unwrap_err();
        assert_eq!(
            e,
            QueryError::Repeated {
                param: "pageSize".into()
            }
        );
        assert_eq!(e.param(), Some("pageSize"));
        assert!(p.get_bool("flag").is_err());
        assert!(p.get_str("flag").is_err());
        // Commas in a scalar are data.
        assert_eq!(
            q("contextId=a,b").get_str("contextId").unwrap(),
            Some("a,b")
        );
    }

    #[test]
    fn booleans() {
        let p = q("t=true&f=false");
        assert_eq!(p.get_bool("t").unwrap(), Some(true));
        assert_eq!(p.get_bool("f").unwrap(), Some(false));
        assert_eq!(p.get_bool("missing").unwrap(), None);
        for bad in [
            "1", "0", "True", "FALSE", "", "yes", "t", "true%20", "%20true",
        ] {
            let query = format!("b={bad}");
            let e = q(&query).get_bool("b").unwrap_err();
            assert!(
                matches!(e, QueryError::InvalidBool { ref param, .. } if param == "b"),
                "{bad}: {e}"
            );
        }
        assert_eq!(
            q("b").get_bool("b").unwrap_err().to_string(),
            "query parameter `b`: expected `true` or `false`, got \"\""
        );
    }

    #[test]
    fn integers() {
        let p = q("a=0&b=-1&c=007&d=2147483647&e=-2147483648&f=2147483648&g=-2147483649&h=9223372036854775807&i=9223372036854775808&j=-9223372036854775808&k=99999999999999999999999");
        assert_eq!(p.get_i32("a").unwrap(), Some(0));
        assert_eq!(p.get_i32("b").unwrap(), Some(-1));
        assert_eq!(p.get_i32("c").unwrap(), Some(7));
        assert_eq!(p.get_i32("d").unwrap(), Some(i32::MAX));
        assert_eq!(p.get_i32("e").unwrap(), Some(i32::MIN));
        assert_eq!(
            p.get_i32("f").unwrap_err(),
            QueryError::OutOfRange {
                param: "f".into(),
                value: "2147483648".into(),
                min: i32::MIN.into(),
                max: i32::MAX.into()
            }
        );
        assert!(matches!(p.get_i32("g"), Err(QueryError::OutOfRange { .. })));
        assert_eq!(p.get_i64("h").unwrap(), Some(i64::MAX));
        assert!(matches!(p.get_i64("i"), Err(QueryError::OutOfRange { .. })));
        assert_eq!(p.get_i64("j").unwrap(), Some(i64::MIN));
        assert!(matches!(p.get_i32("k"), Err(QueryError::OutOfRange { .. })));
        assert!(matches!(p.get_i64("k"), Err(QueryError::OutOfRange { .. })));
        for bad in [
            "", "-", "+1", "%2B1", "1.0", "1e3", "0x10", "%201", "1%20", "--1", "1-", "\u{664}",
        ] {
            let query = format!("n={bad}");
            let p = QueryParams::parse(&query).unwrap();
            assert!(
                matches!(p.get_i32("n"), Err(QueryError::InvalidInteger { .. })),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn repeated_fields() {
        let p = q("s=a,b&x=1&s=c&s=&s=d,,e,&s=f%2Cg");
        assert_eq!(p.get_all("s").unwrap(), ["a", "b", "c", "d", "e", "f,g"]);
        assert!(p.get_all("missing").unwrap().is_empty());
        assert_eq!(q("s=a+b,c%20d").get_all("s").unwrap(), ["a b", "c d"]);
        // Case-sensitive names.
        assert!(q("S=a").get_all("s").unwrap().is_empty());
    }

    #[test]
    fn service_params_ignore_case() {
        let p = q("a2a-version=1.0&A2A-Extensions=x&a2a-extensions=y");
        assert_eq!(p.service_param("A2A-Version").unwrap(), Some("1.0"));
        assert_eq!(p.get_str("A2A-Version").unwrap(), None);
        assert_eq!(
            p.service_param_all("A2A-EXTENSIONS").collect::<Vec<_>>(),
            ["x", "y"]
        );
        assert_eq!(
            p.service_param("A2A-Extensions"),
            Err(QueryError::Repeated {
                param: "A2A-Extensions".into()
            })
        );
    }

    #[test]
    fn limits() {
        let cfg = QueryConfig::new().with_max_len(8).with_max_params(2);
        assert_eq!(
            (cfg.max_len(), cfg.max_params(), cfg.plus_as_space()),
            (8, 2, true)
        );
        assert!(QueryParams::parse_with("a=1&b=2", &cfg).is_ok());
        assert_eq!(
            QueryParams::parse_with("a=1&b=2&", &cfg).map(|p| p.len()),
            Ok(2),
            "empty pairs do not count"
        );
        assert_eq!(
            QueryParams::parse_with("a=1&b=2&c", &cfg),
            Err(QueryError::TooLong { len: 9, max: 8 })
        );
        let cfg = cfg.with_max_len(100);
        assert_eq!(
            QueryParams::parse_with("a&b&c", &cfg),
            Err(QueryError::TooManyParams { max: 2 })
        );
        let long = "a=".to_owned() + &"x".repeat(QueryConfig::DEFAULT_MAX_LEN);
        assert!(matches!(
            QueryParams::parse(&long),
            Err(QueryError::TooLong { .. })
        ));
        let many = vec!["a=1"; QueryConfig::DEFAULT_MAX_PARAMS + 1].join("&");
        assert!(matches!(
            QueryParams::parse(&many),
            Err(QueryError::TooManyParams { max: 64 })
        ));
        assert_eq!(QueryConfig::default(), QueryConfig::new());
    }

    #[test]
    fn builder_round_trips_under_both_plus_rules() {
        let values = [
            "",
            "plain",
            "a b",
            "a+b",
            "a,b",
            "a&b=c",
            "%41",
            "\u{e9}\u{1f600}",
            "2025-11-09T10:30:00+01:00",
        ];
        let mut b = QueryBuilder::new();
        assert!(b.is_empty());
        for (i, v) in values.iter().enumerate() {
            b.push(&format!("k {i}"), v);
        }
        b.push_bool("t", true)
            .push_bool("f", false)
            .push_int("n", -42)
            .push_all("r", ["x,y", "z"]);
        assert!(b.as_str().is_ascii());
        for plus in [true, false] {
            let cfg = QueryConfig::new().with_plus_as_space(plus);
            let p = QueryParams::parse_with(b.as_str(), &cfg).unwrap();
            for (i, v) in values.iter().enumerate() {
                assert_eq!(p.get_str(&format!("k {i}")).unwrap(), Some(*v));
            }
            assert_eq!(p.get_bool("t").unwrap(), Some(true));
            assert_eq!(p.get_bool("f").unwrap(), Some(false));
            assert_eq!(p.get_i64("n").unwrap(), Some(-42));
            assert_eq!(p.get_all("r").unwrap(), ["x,y", "z"]);
        }
        let mut uri = "/tasks".to_owned();
        QueryBuilder::new().append_to(&mut uri);
        assert_eq!(uri, "/tasks");
        let mut b = QueryBuilder::new();
        b.push("pageSize", "5");
        b.append_to(&mut uri);
        assert_eq!(uri, "/tasks?pageSize=5");
        assert_eq!(b.finish(), "pageSize=5");
    }
}
