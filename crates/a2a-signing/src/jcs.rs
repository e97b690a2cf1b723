//! The JSON Canonicalization Scheme, RFC 8785 (spec 8.4.1 rule 2).
//!
//! Written here rather than taken from a crate so that the input side is
//! ours too: duplicate member names are refused (RFC 8785 section 3.1
//! requires I-JSON, RFC 7493 section 2.3), nesting and size are bounded, and
//! numbers are read as IEEE 754 doubles exactly as an ECMAScript `JSON.parse`
//! reads them. The output rules:
//!
//! - **Objects**: members sorted by their names as arrays of UTF-16 code
//!   units (section 3.2.3), not by UTF-8 bytes or code points: the two differ
//!   for names holding characters above U+FFFF next to U+E000..U+FFFF.
//! - **Strings** (section 3.2.2.2): `"` and `\` escaped, U+0008, U+0009,
//!   U+000A, U+000C and U+000D as `\b \t \n \f \r`, the other C0 controls as
//!   `\u00xx` with lowercase hex digits; everything else, non-ASCII included,
//!   as literal UTF-8.
//! - **Numbers** (section 3.2.2.3): ECMAScript's `Number::toString` of the
//!   double (ECMA-262 7.1.12.1): the shortest digits that read back as the
//!   same double, plain notation for exponents from -6 to 20, `e+N`/`e-N`
//!   beyond, `-0` as `0`. NaN and infinities have no JSON form.
//! - **Literals** `true`, `false`, `null`; no whitespace anywhere.
//!
//! The vectors in `tests/vectors/` (RFC 8785's own examples, Appendix B's
//! numbers, and sets of our own for escaping, ordering and nesting, checked
//! against an ECMAScript engine when written) are driven by
//! `tests/jcs_vectors.rs`.

/// Inputs larger than this are refused before parsing: 1 MiB, the default
/// card size limit of the transport's card resolver.
pub const MAX_INPUT_BYTES: usize = 1024 * 1024;

/// Deepest nesting of arrays and objects accepted: 128, the recursion limit
/// serde_json applies, so a text one of them reads the other reads too.
pub const MAX_DEPTH: usize = 128;

/// Why a text or value has no canonical form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JcsError {
    /// The input is larger than [`MAX_INPUT_BYTES`] (or the caller's limit).
    #[error("the JSON text is {size} bytes, over the limit of {limit}")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The input is not JSON (RFC 8259), or holds a lone surrogate escape
    /// (not I-JSON, RFC 7493 section 2.1).
    #[error("not JSON: {0}")]
    Syntax(String),
    /// An object names a member twice (RFC 7493 section 2.3).
    #[error("the member name {0:?} appears twice in one object (RFC 7493 section 2.3)")]
    DuplicateMember(String),
    /// Arrays and objects nest deeper than [`MAX_DEPTH`].
    #[error("arrays and objects nest deeper than {MAX_DEPTH}")]
    TooDeep,
    /// A number that is not a finite double (RFC 8785 section 3.2.2.3).
    #[error("{0} is not a finite IEEE 754 double (RFC 8785 section 3.2.2.3)")]
    NotFinite(String),
}

/// A parsed JSON value keeping every member (duplicates included) in input
/// order, numbers as doubles.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl Node {
    /// Parses `json` (at most `limit` bytes).
    ///
    /// The parser is this module's own, not serde's data model: a member is
    /// whatever the text says it is, whatever features serde_json was built
    /// with elsewhere in the program (under `arbitrary_precision` a number
    /// and an object named `$serde_json::private::Number` look alike).
    pub(crate) fn parse(json: &[u8], limit: usize) -> Result<Node, JcsError> {
        if json.len() > limit {
            return Err(JcsError::TooLarge {
                size: json.len(),
                limit,
            });
        }
        let text = std::str::from_utf8(json)
            .map_err(|e| JcsError::Syntax(format!("invalid UTF-8 at byte {}", e.valid_up_to())))?;
        let mut parser = Parser {
            text,
            bytes: json,
            pos: 0,
            depth: 0,
        };
        parser.skip_whitespace();
        let node = parser.value()?;
        parser.skip_whitespace();
        if parser.pos != json.len() {
            return Err(parser.error("trailing characters"));
        }
        Ok(node)
    }

    /// The members of an object.
    pub(crate) fn members(&self) -> Option<&[(String, Node)]> {
        match self {
            Node::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The one member named `name` of an object.
    pub(crate) fn member(&self, name: &str) -> Option<&Node> {
        self.members()?
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    /// The canonical form.
    pub(crate) fn canonical(&self) -> Result<Vec<u8>, JcsError> {
        let mut out = Vec::new();
        write_node(self, &mut out, 1)?;
        Ok(out)
    }

    /// The canonical form of an object without the members `skip` names.
    pub(crate) fn canonical_without(&self, skip: &str) -> Result<Vec<u8>, JcsError> {
        match self {
            Node::Object(members) => {
                let kept: Vec<(String, Node)> =
                    members.iter().filter(|(k, _)| k != skip).cloned().collect();
                Node::Object(kept).canonical()
            }
            other => other.canonical(),
        }
    }
}

/// A recursive-descent reader of RFC 8259 JSON text, nesting bounded by
/// [`MAX_DEPTH`].
struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> JcsError {
        JcsError::Syntax(format!("{what} at byte {}", self.pos))
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn eat(&mut self, byte: u8, what: &str) -> Result<(), JcsError> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(what))
        }
    }

    fn literal(&mut self, word: &str, node: Node) -> Result<Node, JcsError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(node)
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn value(&mut self) -> Result<Node, JcsError> {
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Node::String(self.string()?)),
            Some(b't') => self.literal("true", Node::Bool(true)),
            Some(b'f') => self.literal("false", Node::Bool(false)),
            Some(b'n') => self.literal("null", Node::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
            None => Err(self.error("unexpected end of input")),
        }
    }

    /// The elements of an array or the members of an object, each read by
    /// `element`, separated by commas up to `close`.
    fn sequence(
        &mut self,
        close: u8,
        what: &str,
        mut element: impl FnMut(&mut Self) -> Result<(), JcsError>,
    ) -> Result<(), JcsError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(JcsError::TooDeep);
        }
        self.pos += 1;
        self.skip_whitespace();
        if self.peek() != Some(close) {
            loop {
                element(self)?;
                self.skip_whitespace();
                if self.peek() != Some(b',') {
                    break;
                }
                self.pos += 1;
                self.skip_whitespace();
            }
        }
        self.eat(close, what)?;
        self.depth -= 1;
        Ok(())
    }

    fn array(&mut self) -> Result<Node, JcsError> {
        let mut items = Vec::new();
        self.sequence(b']', "expected `,` or `]`", |p| {
            items.push(p.value()?);
            Ok(())
        })?;
        Ok(Node::Array(items))
    }

    fn object(&mut self) -> Result<Node, JcsError> {
        let mut members = Vec::new();
        self.sequence(b'}', "expected `,` or `}`", |p| {
            if p.peek() != Some(b'"') {
                return Err(p.error("expected a member name"));
            }
            let name = p.string()?;
            p.skip_whitespace();
            p.eat(b':', "expected `:`")?;
            p.skip_whitespace();
            members.push((name, p.value()?));
            Ok(())
        })?;
        Ok(Node::Object(members))
    }

    /// A string at `"`, its escapes resolved; a lone surrogate escape is
    /// refused (I-JSON, RFC 7493 section 2.1).
    fn string(&mut self) -> Result<String, JcsError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run = self.bytes[self.pos..]
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .ok_or_else(|| JcsError::Syntax("unterminated string".into()))?;
            // `text` is UTF-8 and the run stops only at ASCII bytes.
            out.push_str(&self.text[self.pos..self.pos + run]);
            self.pos += run;
            match self.bytes[self.pos] {
                b'"' => {
                    self.pos += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.pos += 1;
                    let escape = self
                        .peek()
                        .ok_or_else(|| self.error("unterminated string"))?;
                    self.pos += 1;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => out.push(self.unicode_escape()?),
                        _ => return Err(self.error("invalid escape")),
                    }
                }
                _ => return Err(self.error("control character in a string")),
            }
        }
    }

    /// The code point of `\uXXXX` (after the `u`), a surrogate pair taking
    /// two escapes.
    fn unicode_escape(&mut self) -> Result<char, JcsError> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if !self.bytes[self.pos..].starts_with(b"\\u") {
                    return Err(self.error("lone leading surrogate"));
                }
                self.pos += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error("lone leading surrogate"));
                }
                0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.error("lone trailing surrogate")),
            _ => u32::from(first),
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid code point"))
    }

    fn hex4(&mut self) -> Result<u16, JcsError> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("invalid \\u escape"))?;
        self.pos += 4;
        u16::from_str_radix(digits, 16).map_err(|_| self.error("invalid \\u escape"))
    }

    /// A number (RFC 8259 section 6), read as the nearest double the way
    /// `JSON.parse` reads it; one out of the double range is refused.
    fn number(&mut self) -> Result<Node, JcsError> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let from = p.pos;
            while let Some(b'0'..=b'9') = p.peek() {
                p.pos += 1;
            }
            p.pos - from
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return Err(self.error("invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if digits(self) == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("invalid number"));
            }
        }
        let text = &self.text[start..self.pos];
        // Rust's float parsing rounds to nearest, ties to even: the double
        // ECMAScript reads.
        let v: f64 = text.parse().map_err(|_| self.error("invalid number"))?;
        if !v.is_finite() {
            return Err(JcsError::NotFinite(text.to_owned()));
        }
        Ok(Node::Number(v))
    }
}

/// The canonical form of the JSON text `json` (RFC 8785), which may be at
/// most [`MAX_INPUT_BYTES`] long.
///
/// ```
/// let canonical = a2a_signing::canonicalize(br#"{"b": 1.50, "a": "\u00e9", "c": [1e21, -0]}"#)?;
/// assert_eq!(canonical, "{\"a\":\"\u{e9}\",\"b\":1.5,\"c\":[1e+21,0]}".as_bytes());
/// # Ok::<(), a2a_signing::JcsError>(())
/// ```
///
/// # Errors
///
/// [`JcsError`]: too large, not JSON, a member named twice, too deep, or a
/// number out of the double range.
pub fn canonicalize(json: &[u8]) -> Result<Vec<u8>, JcsError> {
    Node::parse(json, MAX_INPUT_BYTES)?.canonical()
}

/// The canonical form of a `serde_json` value (RFC 8785).
///
/// # Errors
///
/// [`JcsError::TooDeep`] past [`MAX_DEPTH`]; [`JcsError::NotFinite`] for a
/// number that is not a finite double.
pub fn canonicalize_value(value: &serde_json::Value) -> Result<Vec<u8>, JcsError> {
    let mut out = Vec::new();
    write_value(value, &mut out, 1)?;
    Ok(out)
}

fn write_node(node: &Node, out: &mut Vec<u8>, depth: usize) -> Result<(), JcsError> {
    match node {
        Node::Null => out.extend_from_slice(b"null"),
        Node::Bool(true) => out.extend_from_slice(b"true"),
        Node::Bool(false) => out.extend_from_slice(b"false"),
        Node::Number(n) => out.extend_from_slice(format_number(*n)?.as_bytes()),
        Node::String(s) => write_string(s, out),
        Node::Array(items) => {
            if depth > MAX_DEPTH {
                return Err(JcsError::TooDeep);
            }
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_node(item, out, depth + 1)?;
            }
            out.push(b']');
        }
        Node::Object(members) => {
            if depth > MAX_DEPTH {
                return Err(JcsError::TooDeep);
            }
            let mut sorted: Vec<&(String, Node)> = members.iter().collect();
            sorted.sort_by(|a, b| utf16_order(&a.0, &b.0));
            if let Some(pair) = sorted.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(JcsError::DuplicateMember(pair[0].0.clone()));
            }
            out.push(b'{');
            for (i, (name, value)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(name, out);
                out.push(b':');
                write_node(value, out, depth + 1)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

fn write_value(value: &serde_json::Value, out: &mut Vec<u8>, depth: usize) -> Result<(), JcsError> {
    use serde_json::Value;
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => {
            let double = n
                .as_f64()
                .ok_or_else(|| JcsError::NotFinite(n.to_string()))?;
            out.extend_from_slice(format_number(double)?.as_bytes());
        }
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            if depth > MAX_DEPTH {
                return Err(JcsError::TooDeep);
            }
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(item, out, depth + 1)?;
            }
            out.push(b']');
        }
        Value::Object(members) => {
            if depth > MAX_DEPTH {
                return Err(JcsError::TooDeep);
            }
            let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
            sorted.sort_by(|a, b| utf16_order(a.0, b.0));
            out.push(b'{');
            for (i, (name, value)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(name, out);
                out.push(b':');
                write_value(value, out, depth + 1)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

/// RFC 8785 section 3.2.3: names compared as arrays of UTF-16 code units.
fn utf16_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// RFC 8785 section 3.2.2.2 (ECMAScript `JSON.stringify`'s escaping).
fn write_string(s: &str, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x09 => b"\\t",
            0x0a => b"\\n",
            0x0c => b"\\f",
            0x0d => b"\\r",
            0x00..=0x1f => &[],
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        if escape.is_empty() {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0xf)]);
        } else {
            out.extend_from_slice(escape);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// ECMAScript's `Number::toString(v)` (ECMA-262 7.1.12.1), as RFC 8785
/// section 3.2.2.3 requires.
///
/// ```
/// use a2a_signing::format_number;
/// assert_eq!(format_number(1e21)?, "1e+21");
/// assert_eq!(format_number(1e20)?, "100000000000000000000");
/// assert_eq!(format_number(0.000001)?, "0.000001");
/// assert_eq!(format_number(1e-7)?, "1e-7");
/// assert_eq!(format_number(-0.0)?, "0");
/// assert!(format_number(f64::NAN).is_err());
/// # Ok::<(), a2a_signing::JcsError>(())
/// ```
///
/// # Errors
///
/// [`JcsError::NotFinite`] for NaN and the infinities.
pub fn format_number(v: f64) -> Result<String, JcsError> {
    if !v.is_finite() {
        return Err(JcsError::NotFinite(v.to_string()));
    }
    if v == 0.0 {
        return Ok("0".to_owned());
    }
    // ECMA-262 7.1.12.1 step 5: the fewest digits k that read back as `v`
    // (Rust's `{:e}` finds k), and among the k-digit strings the one
    // closest to `v`, the even one on a tie. `{:e}` does not promise the
    // latter (1424953923781206.25 has two 17-digit neighbours, and it
    // picks the odd one), so the k digits are written again correctly
    // rounded from the exact value, ties to even; being the closest, they
    // read back as `v` too.
    let shortest = format!("{:e}", v.abs());
    let k = shortest
        .split('e')
        .next()
        .unwrap_or_default()
        .bytes()
        .filter(u8::is_ascii_digit)
        .count()
        .max(1);
    let sci = format!("{:.*e}", k - 1, v.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let k = digits.len() as i64;
    let n = exponent + 1;
    let mut out = String::with_capacity(32);
    if v < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        out.push(if n - 1 < 0 { '-' } else { '+' });
        out.push_str(&(n - 1).abs().to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        String::from_utf8(canonicalize(s.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn duplicates_depth_and_size_are_refused() {
        assert_eq!(
            canonicalize(br#"{"a":1,"b":2,"a":3}"#),
            Err(JcsError::DuplicateMember("a".into()))
        );
        // Nested duplicates too.
        assert!(matches!(
            canonicalize(br#"{"x":{"k":1,"k":1}}"#),
            Err(JcsError::DuplicateMember(_))
        ));
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(canonicalize(deep.as_bytes()), Err(JcsError::TooDeep));
        let ok = "[".repeat(100) + &"]".repeat(100);
        assert!(canonicalize(ok.as_bytes()).is_ok());
        let big = vec![b' '; MAX_INPUT_BYTES + 1];
        assert!(matches!(canonicalize(&big), Err(JcsError::TooLarge { .. })));
        assert!(matches!(
            canonicalize(b"1e400"),
            Err(JcsError::NotFinite(_))
        ));
        assert!(matches!(
            canonicalize(br#""\ud800""#),
            Err(JcsError::Syntax(_))
        ));
        assert!(matches!(canonicalize(b"{} x"), Err(JcsError::Syntax(_))));
    }

    #[test]
    fn the_text_is_read_as_written() {
        // serde_json's private number name is an ordinary member here, in
        // any position, so the canonical form is a fixed point (the fuzz
        // target `signing_verify` found the order dependence).
        let text = br#"{"protected":"!!","$serde_json::private::Number":"??"}"#;
        let once = canonicalize(text).unwrap();
        assert_eq!(
            once,
            br#"{"$serde_json::private::Number":"??","protected":"!!"}"#
        );
        assert_eq!(canonicalize(&once).unwrap(), once);
        assert_eq!(
            canon(r#"{"$serde_json::private::Number":"1.50"}"#),
            r#"{"$serde_json::private::Number":"1.50"}"#
        );
        // Escapes, a surrogate pair, whitespace and every literal.
        assert_eq!(
            canon(" [ \"\\ud83d\\ude00\\u00e9\\/\\b\" , true,false , null,-0.0e+0,1E2 ] "),
            "[\"\u{1f600}\u{e9}/\\b\",true,false,null,0,100]"
        );
        for bad in [
            &b"[1,]"[..],
            b"{\"a\" 1}",
            b"{\"a\":1,}",
            b"{1:1}",
            b"01",
            b"1.",
            b"1e",
            b"-",
            b"tru",
            b"\"\\ude00\"",
            b"\"\\ud800\\u0041\"",
            b"\"\\x\"",
            b"\"a\nb\"",
            b"\"open",
            b"\"\xff\"",
            b"",
        ] {
            assert!(
                matches!(canonicalize(bad), Err(JcsError::Syntax(_))),
                "{:?} was read",
                String::from_utf8_lossy(bad)
            );
        }
        let at_limit = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(canonicalize(at_limit.as_bytes()).is_ok());
        let over = "{\"a\":".repeat(MAX_DEPTH + 1) + "1" + &"}".repeat(MAX_DEPTH + 1);
        assert_eq!(canonicalize(over.as_bytes()), Err(JcsError::TooDeep));
    }

    #[test]
    fn value_and_text_agree() {
        let text = r#"{"z":[1,2.5,"\u0001"],"a":{"\u20ac":true,"\r":null}}"#;
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            canonicalize_value(&v).unwrap(),
            canonicalize(text.as_bytes()).unwrap()
        );
        assert_eq!(
            canon(text),
            "{\"a\":{\"\\r\":null,\"\u{20ac}\":true},\"z\":[1,2.5,\"\\u0001\"]}"
        );
    }

    #[test]
    fn utf16_order_differs_from_code_point_order() {
        // U+1F600 is D83D DE00 in UTF-16, below U+FB33; in code points it
        // is above.
        assert_eq!(
            canon("{\"\u{fb33}\":1,\"\u{1f600}\":2}"),
            "{\"\u{1f600}\":2,\"\u{fb33}\":1}"
        );
    }
}
