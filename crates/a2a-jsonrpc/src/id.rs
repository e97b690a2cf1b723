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
    Number(Box<str>),
    /// A JSON string.
    String(String),
}

impl Id {
    /// A numeric id.
    pub fn number(n: i64) -> Id {
        Id::Number(n.to_string().into_boxed_str())
    }

    /// A string id.
    pub fn string(s: impl Into<String>) -> Id {
        Id::String(s.into())
    }

    /// A numeric id from its JSON text; `None` unless `text` is exactly one
    /// JSON number (RFC 8259 section 6 grammar).
    pub fn from_number_text(text: &str) -> Option<Id> {
        a2a_types::reader::is_number(text.as_bytes()).then(|| Id::Number(text.into()))
    }

    /// Reads an id from the raw JSON of the `id` member. `None` for
    /// objects, arrays and booleans, which JSON-RPC 2.0 does not allow.
    pub(crate) fn from_raw(raw: &RawValue) -> Option<Id> {
        let text = raw.get();
        match text.as_bytes().first()? {
            b'"' => serde_json::from_str::<String>(text).ok().map(Id::String),
            b'n' => Some(Id::Null),
            b'-' | b'0'..=b'9' => Id::from_number_text(text),
            _ => None,
        }
    }

    /// Writes the id as JSON.
    pub(crate) fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            Id::Null => out.extend_from_slice(b"null"),
            Id::Number(n) => out.extend_from_slice(n.as_bytes()),
            Id::String(s) => write_json_string(out, s),
        }
    }
}

/// Writes `s` as a JSON string literal.
pub(crate) fn write_json_string(out: &mut Vec<u8>, s: &str) {
    // Escaping a string into a Vec cannot fail.
    let _ = a2a_types::writer::to_writer(out, s);
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Null => f.write_str("null"),
            Id::Number(n) => f.write_str(n),
            Id::String(s) => write!(f, "{s:?}"),
        }
    }
}

impl From<i64> for Id {
    fn from(n: i64) -> Id {
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
            Id::Number(n) => match RawValue::from_string(n.to_string()) {
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
        ] {
            let id: Id = serde_json::from_str(text).unwrap();
            assert_eq!(id, Id::Number(text.into()));
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
