//! JSON in and out for the A2A codecs: `a2a-types` (as `a2a_types::json`),
//! `a2a-jsonrpc` and the bindings built on them.
//!
//! - [`to_vec`] and [`to_writer`] encode any `Serialize` value as compact
//!   JSON: exactly the bytes `serde_json::to_vec` writes, succeeding and
//!   failing in the same cases.
//! - [`try_from_slice`] and [`try_from_slice_seed`] are the first pass of
//!   a decoder: they return a value or [`Declined`], and a declined input
//!   is then read with `serde_json`, which either reads it (the same value)
//!   or says what is wrong and where. `a2a_types::from_slice` works this
//!   way, and so does the JSON-RPC crate's one-pass decoder.
//! - [`is_number`]: the JSON number grammar, for number text held raw, and
//!   [`number_end`], where a number ends (optionally with the leading
//!   zeros protobuf's parsers accept in quoted integers).
//! - [`RECURSION_LIMIT`]: the nesting depth every decoder of the
//!   workspace stops at.
//!
//! # The `fast-json` feature
//!
//! On by default, it gives this crate its own JSON reader and writer,
//! about twice as fast as `serde_json` on A2A traffic. Both do less per
//! string: one pass, a `u64` word at a time, finds where a string ends and
//! whether it is all ASCII (which then needs no UTF-8 check), and the
//! writer copies a plain run with one `extend_from_slice`. Numbers are
//! handed to `serde_json` token by token in both directions, so integer
//! and float conversion, `float_roundtrip` and `arbitrary_precision`
//! behave exactly as there.
//!
//! The reader only takes the common forms: anything else (structs written
//! as arrays, enums written as objects, byte arrays, lone surrogates,
//! nesting deeper than 127 levels, one less than [`RECURSION_LIMIT`]) is
//! [`Declined`], with no detail and at no cost, and `serde_json` decides.
//! Its guarantee is one-sided: when it returns a value, `serde_json`
//! returns an equal one from the same bytes. `a2a-types`' differential
//! tests and the workspace's fuzz targets check that, and that the
//! writer's bytes are `serde_json`'s.
//!
//! Without the feature, [`to_vec`] and [`to_writer`] are `serde_json`'s,
//! and the first pass declines every input, so decoders go straight to
//! `serde_json`. What is accepted, what is written, the errors and the
//! limits are the same either way; only the speed differs.
//!
//! ```
//! use serde_json::{json, Value};
//!
//! let message = json!({"messageId": "m-1", "parts": [{"text": "say \"hi\"\n"}]});
//! let bytes = a2a_json::to_vec(&message)?;
//! assert_eq!(bytes, serde_json::to_vec(&message)?);
//!
//! // A first pass: a value, or declined (then serde_json decides).
//! match a2a_json::try_from_slice::<Value>(&bytes) {
//!     Ok(read) => assert_eq!(read, message),
//!     Err(a2a_json::Declined) => assert_eq!(serde_json::from_slice::<Value>(&bytes)?, message),
//! }
//! assert!(a2a_json::try_from_slice::<String>(b"[]").is_err());
//!
//! assert!(a2a_json::is_number(b"-1.5e3"));
//! assert!(!a2a_json::is_number(b"01"));
//! # Ok::<(), serde_json::Error>(())
//! ```

#![deny(missing_docs)]

use std::fmt;

use serde::de::{self, DeserializeSeed};
use serde::{Deserialize, Serialize};

mod limits;
mod number;
#[cfg(feature = "fast-json")]
mod reader;
#[cfg(feature = "fast-json")]
mod scan;
#[cfg(feature = "fast-json")]
mod writer;

pub use limits::RECURSION_LIMIT;
pub use number::number_end;

/// The error of [`to_vec`] and [`to_writer`]: `serde_json`'s, since they
/// fail exactly where `serde_json` does.
pub type Error = serde_json::Error;

/// Encodes `value` as compact JSON into a new buffer, as
/// `serde_json::to_vec` does.
///
/// # Errors
///
/// When `value`'s `Serialize` impl fails, or a map key is not a string,
/// number, bool or char (or is a non-finite float). Never for this crate's
/// types.
#[inline]
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    #[cfg(feature = "fast-json")]
    {
        writer::to_vec(value)
    }
    #[cfg(not(feature = "fast-json"))]
    {
        serde_json::to_vec(value)
    }
}

/// Appends the compact JSON of `value` to `out`: the bytes [`to_vec`]
/// returns.
///
/// # Errors
///
/// As [`to_vec`]; `out` then holds whatever was written before the error.
#[inline]
pub fn to_writer<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    #[cfg(feature = "fast-json")]
    {
        writer::to_writer(out, value)
    }
    #[cfg(not(feature = "fast-json"))]
    {
        serde_json::to_writer(out, value)
    }
}

/// The first pass did not produce a value: read the input with
/// `serde_json` for the value or a precise error. Deliberately empty:
/// building a message nobody reads would cost the fast path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declined;

impl fmt::Display for Declined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("declined by the fast JSON reader")
    }
}

impl std::error::Error for Declined {}

impl de::Error for Declined {
    #[inline]
    fn custom<T: fmt::Display>(_msg: T) -> Declined {
        Declined
    }
}

/// The first pass over one JSON document (whitespace around it allowed,
/// nothing else): the value, or [`Declined`], always [`Declined`] without
/// the `fast-json` feature.
#[inline]
pub fn try_from_slice<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<T, Declined> {
    try_from_slice_seed(input, std::marker::PhantomData)
}

/// [`try_from_slice`] through a [`DeserializeSeed`].
#[inline]
pub fn try_from_slice_seed<'de, S: DeserializeSeed<'de>>(
    input: &'de [u8],
    seed: S,
) -> Result<S::Value, Declined> {
    #[cfg(feature = "fast-json")]
    {
        reader::from_slice_seed(input, seed)
    }
    #[cfg(not(feature = "fast-json"))]
    {
        let _ = (input, seed);
        Err(Declined)
    }
}

/// Whether `text` is exactly one JSON number (RFC 8259 section 6).
pub fn is_number(text: &[u8]) -> bool {
    number::is_number(text)
}

/// The struct and field name under which `serde_json::Number` serializes
/// its text when `serde_json/arbitrary_precision` is on; the writer
/// writes such a struct as the raw text.
#[cfg(feature = "fast-json")]
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// The struct and field name under which `serde_json::value::RawValue`
/// serializes its text, and the newtype name through which it asks a
/// deserializer for raw text (`serde_json::raw::TOKEN`).
#[cfg(feature = "fast-json")]
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The writer and the reader recognize `serde_json`'s number and raw-value
/// forms by names that are private to `serde_json`. These tests record
/// what `serde_json` actually passes to a serializer and a deserializer,
/// so a release of `serde_json` that renames them fails here rather than
/// in a host's output.
#[cfg(test)]
#[cfg(feature = "fast-json")]
mod tokens {
    use serde::de::{self, Deserializer, Visitor};
    use serde::ser::{self, Impossible, Serialize, SerializeStruct};
    use serde_json::value::RawValue;

    use super::{NUMBER_TOKEN, RAW_VALUE_TOKEN};

    /// What a value asked the serializer for.
    #[derive(Debug, PartialEq)]
    enum Call {
        /// `serialize_struct(name)`, then `serialize_field(key)` of a
        /// string value.
        Struct(&'static str, Vec<(&'static str, String)>),
        /// A plain number or string, as its text.
        Scalar(String),
    }

    #[derive(Debug)]
    struct Error(String);

    impl std::fmt::Display for Error {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl std::error::Error for Error {}

    impl ser::Error for Error {
        fn custom<T: std::fmt::Display>(msg: T) -> Error {
            Error(msg.to_string())
        }
    }

    impl de::Error for Error {
        fn custom<T: std::fmt::Display>(msg: T) -> Error {
            Error(msg.to_string())
        }
    }

    fn unexpected<T>(what: &str) -> Result<T, Error> {
        Err(Error(format!("unexpected {what}")))
    }

    /// Records a scalar, or a struct and its string fields.
    struct Recorder;

    struct Fields(&'static str, Vec<(&'static str, String)>);

    impl SerializeStruct for Fields {
        type Ok = Call;
        type Error = Error;

        fn serialize_field<T: Serialize + ?Sized>(
            &mut self,
            key: &'static str,
            value: &T,
        ) -> Result<(), Error> {
            match value.serialize(Recorder)? {
                Call::Scalar(text) => {
                    self.1.push((key, text));
                    Ok(())
                }
                Call::Struct(..) => unexpected("nested struct"),
            }
        }

        fn end(self) -> Result<Call, Error> {
            Ok(Call::Struct(self.0, self.1))
        }
    }

    macro_rules! scalars {
        ($($method:ident: $t:ty),+) => {
            $(fn $method(self, v: $t) -> Result<Call, Error> {
                Ok(Call::Scalar(v.to_string()))
            })+
        };
    }

    impl ser::Serializer for Recorder {
        type Ok = Call;
        type Error = Error;
        type SerializeSeq = Impossible<Call, Error>;
        type SerializeTuple = Impossible<Call, Error>;
        type SerializeTupleStruct = Impossible<Call, Error>;
        type SerializeTupleVariant = Impossible<Call, Error>;
        type SerializeMap = Impossible<Call, Error>;
        type SerializeStruct = Fields;
        type SerializeStructVariant = Impossible<Call, Error>;

        scalars!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
            serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64,
            serialize_f32: f32, serialize_f64: f64, serialize_str: &str);

        fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Fields, Error> {
            Ok(Fields(name, Vec::new()))
        }

        fn serialize_bool(self, _: bool) -> Result<Call, Error> {
            unexpected("bool")
        }
        fn serialize_char(self, _: char) -> Result<Call, Error> {
            unexpected("char")
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<Call, Error> {
            unexpected("bytes")
        }
        fn serialize_none(self) -> Result<Call, Error> {
            unexpected("none")
        }
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<Call, Error> {
            unexpected("some")
        }
        fn serialize_unit(self) -> Result<Call, Error> {
            unexpected("unit")
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<Call, Error> {
            unexpected("unit struct")
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
        ) -> Result<Call, Error> {
            unexpected("unit variant")
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<Call, Error> {
            unexpected("newtype struct")
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<Call, Error> {
            unexpected("newtype variant")
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
            unexpected("seq")
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
            unexpected("tuple")
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, Error> {
            unexpected("tuple struct")
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, Error> {
            unexpected("tuple variant")
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
            unexpected("map")
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, Error> {
            unexpected("struct variant")
        }
    }

    /// Whether this build's `serde_json` keeps numbers' text
    /// (`arbitrary_precision`, which some crate of a build may turn on):
    /// only then does a `Number` serialize as the private struct.
    fn arbitrary_precision() -> bool {
        serde_json::from_str::<serde_json::Number>("1.50").is_ok_and(|n| n.to_string() == "1.50")
    }

    #[test]
    fn raw_value_serializes_as_the_struct_the_writer_matches() {
        let raw = RawValue::from_string(r#"{"a": 1}"#.to_owned()).unwrap();
        assert_eq!(
            raw.serialize(Recorder).unwrap(),
            Call::Struct(
                RAW_VALUE_TOKEN,
                vec![(RAW_VALUE_TOKEN, r#"{"a": 1}"#.to_owned())]
            )
        );
    }

    /// `.ci/run` also runs this test with `serde_json/arbitrary_precision`,
    /// the configuration in which the token is used.
    #[test]
    fn number_serializes_as_the_struct_the_writer_matches() {
        let n: serde_json::Number = serde_json::from_str("1.50").unwrap();
        let expected = if arbitrary_precision() {
            Call::Struct(NUMBER_TOKEN, vec![(NUMBER_TOKEN, "1.50".to_owned())])
        } else {
            Call::Scalar("1.5".to_owned())
        };
        assert_eq!(n.serialize(Recorder).unwrap(), expected);
    }

    /// Records the newtype name a value asks to deserialize, then
    /// declines.
    struct NewtypeName<'a>(&'a mut Option<&'static str>);

    impl<'de> Deserializer<'de> for NewtypeName<'_> {
        type Error = Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
            unexpected("deserialize_any")
        }

        fn deserialize_newtype_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            _: V,
        ) -> Result<V::Value, Error> {
            *self.0 = Some(name);
            unexpected("newtype struct")
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct seq tuple
            tuple_struct map struct enum identifier ignored_any
        }
    }

    #[test]
    fn raw_value_asks_the_reader_for_the_newtype_it_answers() {
        let mut name = None;
        let _ = <&RawValue as serde::Deserialize>::deserialize(NewtypeName(&mut name));
        assert_eq!(name, Some(RAW_VALUE_TOKEN));
        let mut name = None;
        let _ = <Box<RawValue> as serde::Deserialize>::deserialize(NewtypeName(&mut name));
        assert_eq!(name, Some(RAW_VALUE_TOKEN));
    }
}
