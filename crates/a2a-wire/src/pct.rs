//! Percent-encoding (RFC 3986 section 2.1), shared by path parameters
//! ([`crate::Router`]) and query strings ([`crate::QueryParams`]).
//!
//! Hand-written rather than pulled in as a dependency: the whole codec is
//! the two functions below, and both callers need the same two decisions
//! made in one place (what is left unescaped on output, what an invalid
//! escape is on input).

use std::borrow::Cow;

/// Why a percent-encoded string could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum PercentDecodeError {
    /// A `%` not followed by two hexadecimal digits (RFC 3986 section 2.1).
    #[error("invalid percent-escape at byte {offset}")]
    InvalidEscape {
        /// Byte offset of the `%` in the encoded input.
        offset: usize,
    },
    /// The decoded bytes are not UTF-8.
    #[error("percent-escapes at byte {offset} do not decode to UTF-8")]
    InvalidUtf8 {
        /// Byte offset in the encoded input where the invalid sequence starts.
        offset: usize,
    },
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes `%XX` escapes, and `+` as a space when `plus_as_space` is set
/// (the `application/x-www-form-urlencoded` convention). Borrows when the
/// input holds nothing to decode.
pub(crate) fn decode(input: &str, plus_as_space: bool) -> Result<Cow<'_, str>, PercentDecodeError> {
    let bytes = input.as_bytes();
    let needs_work = bytes
        .iter()
        .any(|&b| b == b'%' || (plus_as_space && b == b'+'));
    if !needs_work {
        return Ok(Cow::Borrowed(input));
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'%' => {
                let hi = bytes.get(i + 1).copied().and_then(hex_value);
                let lo = bytes.get(i + 2).copied().and_then(hex_value);
                match (hi, lo) {
                    (Some(hi), Some(lo)) => out.push(hi << 4 | lo),
                    _ => return Err(PercentDecodeError::InvalidEscape { offset: i }),
                }
                i += 3;
            }
            b'+' if plus_as_space => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    match String::from_utf8(out) {
        Ok(s) => Ok(Cow::Owned(s)),
        Err(e) => Err(PercentDecodeError::InvalidUtf8 {
            offset: input_offset(bytes, e.utf8_error().valid_up_to()),
        }),
    }
}

/// The offset in `encoded` of the byte that decodes to output byte
/// `decoded_index`. Only called on input that decoded without escape errors.
fn input_offset(encoded: &[u8], decoded_index: usize) -> usize {
    let mut i = 0;
    let mut produced = 0;
    while produced < decoded_index && i < encoded.len() {
        i += if encoded.get(i) == Some(&b'%') { 3 } else { 1 };
        produced += 1;
    }
    i
}

/// True for RFC 3986 `unreserved` bytes: `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
pub(crate) fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// Appends `input` to `out` with every byte except `unreserved` written as
/// `%XX` (uppercase hex). The result means the same under RFC 3986 and
/// under form encoding (a space becomes `%20`, a `+` becomes `%2B`), and
/// holds no `/`, `:`, `,`, `&` or `=` that a parser could split on.
pub(crate) fn encode_into(out: &mut String, input: &str) {
    for &b in input.as_bytes() {
        if is_unreserved(b) {
            out.push(char::from(b));
        } else {
            push_escaped(out, b);
        }
    }
}

/// Appends `b` as `%XX`.
pub(crate) fn push_escaped(out: &mut String, b: u8) {
    out.push('%');
    out.push(hex_digit(b >> 4));
    out.push(hex_digit(b & 0x0f));
}

/// The uppercase hex digit for a nibble (`0..=15`).
fn hex_digit(nibble: u8) -> char {
    match nibble {
        0..=9 => char::from(b'0' + nibble),
        _ => char::from(b'A' + (nibble & 0x0f) - 10),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(s: &str) -> String {
        let mut out = String::new();
        encode_into(&mut out, s);
        out
    }

    #[test]
    fn borrows_when_nothing_to_decode() {
        assert!(matches!(
            decode("abc-._~", false),
            Ok(Cow::Borrowed("abc-._~"))
        ));
        assert!(matches!(decode("a+b", false), Ok(Cow::Borrowed("a+b"))));
        assert!(matches!(decode("a+b", true), Ok(Cow::Owned(s)) if s == "a b"));
    }

    #[test]
    fn decodes_escapes_in_either_case() {
        assert_eq!(decode("a%2Fb%2fc", false).unwrap(), "a/b/c");
        assert_eq!(decode("%20%2B", true).unwrap(), " +");
        assert_eq!(decode("%E2%82%AC", false).unwrap(), "\u{20ac}");
        assert_eq!(decode("", false).unwrap(), "");
    }

    #[test]
    fn invalid_escapes_name_their_offset() {
        for (input, offset) in [("%", 0), ("a%2", 1), ("ab%zz", 2), ("%%41", 0), ("%4G", 0)] {
            assert_eq!(
                decode(input, false),
                Err(PercentDecodeError::InvalidEscape { offset }),
                "{input}"
            );
        }
    }

    #[test]
    fn invalid_utf8_names_the_input_offset() {
        // "ab" then an escaped lone continuation byte.
        assert_eq!(
            decode("ab%80", false),
            Err(PercentDecodeError::InvalidUtf8 { offset: 2 })
        );
        // A truncated three-byte sequence after an escaped ASCII byte.
        assert_eq!(
            decode("%41x%E2%82", false),
            Err(PercentDecodeError::InvalidUtf8 { offset: 4 })
        );
        // Overlong encoding of '/' is not UTF-8.
        assert_eq!(
            decode("%C0%AF", false),
            Err(PercentDecodeError::InvalidUtf8 { offset: 0 })
        );
    }

    #[test]
    fn encode_keeps_only_unreserved() {
        assert_eq!(enc("aZ09-._~"), "aZ09-._~");
        assert_eq!(enc("a b+c/d:e,f&g=h%"), "a%20b%2Bc%2Fd%3Ae%2Cf%26g%3Dh%25");
        assert_eq!(enc("\u{e9}"), "%C3%A9");
    }

    #[test]
    fn encode_then_decode_round_trips() {
        for s in [
            "",
            "plain",
            "a b+c",
            "x/y:z",
            "\u{1f600} emoji",
            "%41",
            "\0\x7f",
        ] {
            let e = enc(s);
            assert_eq!(decode(&e, false).unwrap(), s);
            assert_eq!(decode(&e, true).unwrap(), s);
        }
    }
}
