//! JSON-RPC request ids, echoed back exactly as received.

use std::fmt;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;

/// A JSON-RPC 2.0 request id: a string, a number or `null`.
///
/// Numbers are kept as the exact text the peer sent (`-1`, `1.50`,
/// `18446744073709551616`, `1e400`) and written back unchanged: narrowing
/// ids to `u64` or `f64` breaks clients that use large, negative or
/// fractional ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Id {
    /// `null`: what an error response carries when the id could not be read.
    Null,
    /// A JSON number, as its exact source text.
    Number(NumberText),
    /// A JSON string.
    String(String),
}

impl Id {
    /// A numeric id from any integer type up to 64 bits.
    pub fn number(n: impl Into<i128>) -> Id {
        Id::Number(NumberText::from_json(&n.into().to_string()))
    }

    /// A string id.
    pub fn string(s: impl Into<String>) -> Id {
        Id::String(s.into())
    }

    /// A numeric id from its JSON text; `None` unless `text` is exactly one
    /// JSON number (RFC 8259 section 6 grammar).
    pub fn from_number_text(text: &str) -> Option<Id> {
        a2a_types::json::is_number(text.as_bytes()).then(|| Id::Number(NumberText::from_json(text)))
    }

    /// Reads an id from the raw JSON of the `id` member. `None` for
    /// objects, arrays and booleans, which JSON-RPC 2.0 does not allow.
    pub(crate) fn from_raw(raw: &RawValue) -> Option<Id> {
        let text = raw.get();
        match text.as_bytes().first()? {
            b'"' => serde_json::from_str::<String>(text).ok().map(Id::String),
            b'n' => Some(Id::Null),
            // Raw text is one JSON value (serde_json's and the reader's
            // guarantee), so what starts like a number is one.
            b'-' | b'0'..=b'9' => Some(Id::Number(NumberText::from_json(text))),
            _ => None,
        }
    }

    /// Writes the id as JSON.
    pub(crate) fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            Id::Null => out.extend_from_slice(b"null"),
            Id::Number(n) => out.extend_from_slice(n.as_str().as_bytes()),
            Id::String(s) => write_json_string(out, s),
        }
    }
}

/// The exact text of a numeric id (a JSON number, RFC 8259 section 6).
///
/// Texts of up to 22 bytes, which covers every id the SDKs generate, are
/// held inline, so reading a request's id does not allocate; longer ones
/// (`1e400`, a 30-digit counter) on the heap.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct NumberText(NumberRepr);

/// Inline when short. A text is always stored the one way its length
/// calls for, so the derived equality compares texts.
#[derive(Clone, PartialEq, Eq, Hash)]
enum NumberRepr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

/// The longest number text held inline.
const INLINE: usize = 22;

impl NumberText {
    /// Wraps `text`, which the caller has seen to be one JSON number.
    fn from_json(text: &str) -> NumberText {
        let mut bytes = [0; INLINE];
        match bytes.get_mut(..text.len()) {
            Some(head) => {
                head.copy_from_slice(text.as_bytes());
                NumberText(NumberRepr::Inline {
                    len: text.len() as u8,
                    bytes,
                })
            }
            None => NumberText(NumberRepr::Heap(text.into())),
        }
    }

    /// The number's text, as received.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // A JSON number is ASCII, so this cannot fail; `""` keeps the
            // function total without an unchecked conversion.
            NumberRepr::Inline { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            NumberRepr::Heap(text) => text,
        }
    }
}

impl std::ops::Deref for NumberText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for NumberText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for NumberText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Writes `s` as a JSON string literal.
pub(crate) fn write_json_string(out: &mut Vec<u8>, s: &str) {
    // Escaping a string into a Vec cannot fail.
    let _ = a2a_types::json::to_writer(out, s);
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Null => f.write_str("null"),
            Id::Number(n) => f.write_str(n.as_str()),
            Id::String(s) => write!(f, "{s:?}"),
        }
    }
}

impl From<i64> for Id {
    fn from(n: i64) -> Id {
        Id::number(n)
    }
}

impl From<u64> for Id {
    fn from(n: u64) -> Id {
        Id::number(n)
    }
}

impl From<&str> for Id {
    fn from(s: &str) -> Id {
        Id::String(s.to_owned())
    }
}

impl From<String> for Id {
    fn from(s: String) -> Id {
        Id::String(s)
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Id::Null => s.serialize_unit(),
            Id::String(v) => s.serialize_str(v),
            Id::Number(n) => match RawValue::from_string(n.as_str().to_owned()) {
                Ok(raw) => raw.serialize(s),
                Err(e) => Err(serde::ser::Error::custom(e)),
            },
        }
    }
}

impl<'de> Deserialize<'de> for Id {
    /// Reads an id through serde_json's raw-value support, so numbers keep
    /// their exact text. Works only with `serde_json` deserializers.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <Box<RawValue>>::deserialize(d)?;
        Id::from_raw(&raw)
            .ok_or_else(|| de::Error::custom("a JSON-RPC id must be a string, a number or null"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_exact_text() {
        for text in [
            "0",
            "-1",
            "1.50",
            "18446744073709551616",
            "-9223372036854775809",
            "1e400",
            "2.5E-3",
            // Either side of the inline limit, and far beyond it.
            "1234567890123456789012",
            "12345678901234567890123",
            "-1.000000000000000000000000000001e-400",
        ] {
            let id: Id = serde_json::from_str(text).unwrap();
            assert_eq!(id, Id::from_number_text(text).unwrap());
            let Id::Number(n) = &id else {
                panic!("{text} read as {id:?}")
            };
            assert_eq!(n.as_str(), text);
            assert_eq!(serde_json::to_string(&id).unwrap(), text);
            let mut out = Vec::new();
            id.write_json(&mut out);
            assert_eq!(out, text.as_bytes());
        }
    }

    #[test]
    fn strings_and_null() {
        let id: Id = serde_json::from_str(r#""a\"b\u00e9""#).unwrap();
        assert_eq!(id, Id::string("a\"bé"));
        assert_eq!(serde_json::to_string(&id).unwrap(), r#""a\"bé""#);
        assert_eq!(serde_json::from_str::<Id>("null").unwrap(), Id::Null);
        assert_eq!(serde_json::to_string(&Id::Null).unwrap(), "null");
    }

    #[test]
    fn forbidden_types_are_rejected() {
        for text in ["true", "false", "{}", "[1]", r#"{"a":1}"#] {
            assert!(serde_json::from_str::<Id>(text).is_err(), "{text}");
        }
    }

    #[test]
    fn number_grammar() {
        for good in ["0", "-0", "10", "0.0", "1e5", "1E+5", "-1.5e-5"] {
            assert!(Id::from_number_text(good).is_some(), "{good}");
        }
        for bad in [
            "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1 ", "0x10", "NaN", "1.2.3",
        ] {
            assert!(Id::from_number_text(bad).is_none(), "{bad}");
        }
    }
}
