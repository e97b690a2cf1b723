//! ProtoJSON building blocks shared by every type (spec 5.5-5.7, ADR-001).
//!
//! Output rules live in the `#[serde(skip_serializing_if = ...)]`
//! attributes of each type; this module holds what they call, plus the
//! input side: every field reader treats JSON `null` as an absent field,
//! `int32` accepts a number or a numeric string, enums accept their proto
//! name or number, bytes accept standard or URL-safe base64 with or
//! without padding.
//!
//! Every visitor here also accepts numbers that `serde_json` hands over as
//! its private one-entry map when the `arbitrary_precision` feature is on
//! somewhere in the build: they go through `serde_json::Number`'s own
//! `Deserialize`, which knows that encoding.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::Serializer;

/// `google.protobuf.Struct`: a JSON object (metadata, parameters).
pub type Struct = serde_json::Map<String, serde_json::Value>;

// ---------------------------------------------------------------------------
// Field readers: `null` means absent, whatever the field kind.

/// A `string` field; `null` reads as `""`.
#[inline]
pub(crate) fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    struct StringVisitor;

    impl<'de> Visitor<'de> for StringVisitor {
        type Value = String;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }

        #[inline]
        fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
            Ok(v.to_owned())
        }

        #[inline]
        fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
            Ok(v)
        }

        fn visit_unit<E: de::Error>(self) -> Result<String, E> {
            Ok(String::new())
        }

        fn visit_none<E: de::Error>(self) -> Result<String, E> {
            Ok(String::new())
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
            d.deserialize_any(self)
        }
    }

    d.deserialize_any(StringVisitor)
}

/// A `bool` field; `null` reads as `false`.
#[inline]
pub(crate) fn boolean<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(Option::<bool>::deserialize(d)?.unwrap_or_default())
}

/// A `repeated` field; `null` reads as empty.
#[inline]
pub(crate) fn repeated<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct ListVisitor<T>(PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for ListVisitor<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list")
        }

        fn visit_unit<E: de::Error>(self) -> Result<Vec<T>, E> {
            Ok(Vec::new())
        }

        fn visit_none<E: de::Error>(self) -> Result<Vec<T>, E> {
            Ok(Vec::new())
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
            d.deserialize_seq(self)
        }

        #[inline]
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            // JSON gives no length up front, and most lists here (parts
            // above all) hold one or two large elements: those are read
            // before anything is allocated, and get one buffer of their
            // exact size, not one grown in place (a `realloc` cost ten
            // times a `malloc` in the bench's ~50 KB Task, callgrind).
            // Longer lists start at four and double.
            let Some(first) = seq.next_element()? else {
                return Ok(Vec::new());
            };
            let Some(second) = seq.next_element()? else {
                return Ok(vec![first]);
            };
            let Some(third) = seq.next_element()? else {
                return Ok(vec![first, second]);
            };
            let mut out = Vec::with_capacity(4);
            out.extend([first, second, third]);
            while let Some(item) = seq.next_element()? {
                if out.len() == out.capacity() {
                    out.reserve_exact(out.len());
                }
                out.push(item);
            }
            Ok(out)
        }
    }

    d.deserialize_option(ListVisitor(PhantomData))
}

/// A `map<string, V>` field; `null` reads as empty.
#[inline]
pub(crate) fn map<'de, D, V>(d: D) -> Result<BTreeMap<String, V>, D::Error>
where
    D: Deserializer<'de>,
    V: Deserialize<'de>,
{
    Ok(Option::<BTreeMap<String, V>>::deserialize(d)?.unwrap_or_default())
}

/// A message field held by value (the REQUIRED ones); `null` reads as the
/// default message, which validation then reports as missing.
#[inline]
pub(crate) fn message<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// An `int32` field; `null` reads as `0`.
#[inline]
pub(crate) fn int32<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    Ok(d.deserialize_any(Int32Visitor)?.unwrap_or_default())
}

/// An `optional int32` field; `null` reads as unset.
#[inline]
pub(crate) fn optional_int32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i32>, D::Error> {
    d.deserialize_any(Int32Visitor)
}

/// `skip_serializing_if` for non-`optional` bools (omitted when `false`).
#[inline]
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

/// `skip_serializing_if` for non-`optional`, non-REQUIRED int32s.
#[inline]
pub(crate) fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// An `int64` field (the 1.1 draft's generations); `null` reads as `0`.
#[cfg(feature = "draft-1-1")]
#[inline]
pub(crate) fn int64<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    Ok(d.deserialize_any(Int64Visitor)?.unwrap_or_default())
}

/// An `optional int64` field; `null` reads as unset.
#[cfg(feature = "draft-1-1")]
#[inline]
pub(crate) fn optional_int64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    d.deserialize_any(Int64Visitor)
}

/// Writes an `int64` as ProtoJSON does: a decimal string (spec 5.5,
/// ProtoJSON's rule for 64-bit integers, which JSON numbers cannot carry
/// exactly).
#[cfg(feature = "draft-1-1")]
pub(crate) fn serialize_int64<S: Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// [`serialize_int64`] for an `optional int64` that is set (the
/// attribute's `skip_serializing_if` leaves out `None`).
#[cfg(feature = "draft-1-1")]
pub(crate) fn serialize_optional_int64<S: Serializer>(
    v: &Option<i64>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

/// `skip_serializing_if` for non-`optional` int64s.
#[cfg(feature = "draft-1-1")]
#[inline]
pub(crate) fn is_zero_i64(v: &i64) -> bool {
    *v == 0
}

/// Reads an int64 as ProtoJSON allows: a JSON number with an integral
/// value, or a string holding one.
#[cfg(feature = "draft-1-1")]
struct Int64Visitor;

#[cfg(feature = "draft-1-1")]
impl<'de> Visitor<'de> for Int64Visitor {
    type Value = Option<i64>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an int64 as a JSON number or a numeric string")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<i64>, E> {
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<i64>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<i64>, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<i64>, E> {
        Ok(Some(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<i64>, E> {
        i64::try_from(v)
            .map(Some)
            .map_err(|_| E::custom(format_args!("{v} is out of range for int64")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Option<i64>, E> {
        integral_f64_to_i64(v).map(Some).map_err(E::custom)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<i64>, E> {
        parse_int64_text(v).map(Some).map_err(E::custom)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<i64>, A::Error> {
        let number = serde_json::Number::deserialize(MapAccessDeserializer::new(map))?;
        parse_int64_text(&number.to_string())
            .map(Some)
            .map_err(de::Error::custom)
    }
}

#[cfg(feature = "draft-1-1")]
fn integral_f64_to_i64(v: f64) -> Result<i64, String> {
    // 2^63 is exact in f64; every integral f64 below it fits.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if v.fract() != 0.0 || !v.is_finite() {
        Err(format!("{v} is not an integer"))
    } else if !(-LIMIT..LIMIT).contains(&v) {
        Err(format!("{v} is out of range for int64"))
    } else {
        Ok(v as i64)
    }
}

/// Parses the text of an int64 (quoted or an arbitrary-precision number).
#[cfg(feature = "draft-1-1")]
fn parse_int64_text(s: &str) -> Result<i64, String> {
    if crate::json::number_end(s.as_bytes(), 0, true) != Some(s.len()) {
        return Err(format!("{} is not a number", Preview(s)));
    }
    if s.bytes().all(|c| c.is_ascii_digit() || c == b'-') {
        return s
            .parse::<i64>()
            .map_err(|_| format!("{} is out of range for int64", Preview(s)));
    }
    match s.parse::<f64>() {
        Ok(v) => integral_f64_to_i64(v),
        Err(_) => Err(format!("{} is not a number", Preview(s))),
    }
}

/// Reads an int32 the ways ProtoJSON allows: a JSON number with an
/// integral value, or a string holding one (`"5"`, `"-3"`, `"1e2"`).
struct Int32Visitor;

impl<'de> Visitor<'de> for Int32Visitor {
    type Value = Option<i32>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an int32 as a JSON number or a numeric string")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<i32>, E> {
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<i32>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<i32>, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<i32>, E> {
        i32::try_from(v)
            .map(Some)
            .map_err(|_| E::custom(format_args!("{v} is out of range for int32")))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<i32>, E> {
        i32::try_from(v)
            .map(Some)
            .map_err(|_| E::custom(format_args!("{v} is out of range for int32")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Option<i32>, E> {
        integral_f64_to_i32(v).map(Some).map_err(E::custom)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<i32>, E> {
        parse_int32_text(v).map(Some).map_err(E::custom)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<i32>, A::Error> {
        let number = serde_json::Number::deserialize(MapAccessDeserializer::new(map))?;
        parse_int32_text(&number.to_string())
            .map(Some)
            .map_err(de::Error::custom)
    }
}

fn integral_f64_to_i32(v: f64) -> Result<i32, String> {
    if v.fract() != 0.0 || !v.is_finite() {
        Err(format!("{v} is not an integer"))
    } else if v < f64::from(i32::MIN) || v > f64::from(i32::MAX) {
        Err(format!("{v} is out of range for int32"))
    } else {
        Ok(v as i32)
    }
}

/// The start of a rejected input value, for error messages: long values
/// are cut (at a character boundary) so that an error never carries a
/// copy of a large input.
struct Preview<'a>(&'a str);

impl fmt::Display for Preview<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MAX: usize = 64;
        if self.0.len() <= MAX {
            return write!(f, "{:?}", self.0);
        }
        let mut end = MAX;
        while !self.0.is_char_boundary(end) {
            end -= 1;
        }
        write!(f, "{:?}... ({} bytes)", &self.0[..end], self.0.len())
    }
}

/// Parses the text of an int32 (quoted or an arbitrary-precision number).
fn parse_int32_text(s: &str) -> Result<i32, String> {
    // The JSON number grammar, leading zeros allowed.
    if crate::json::number_end(s.as_bytes(), 0, true) != Some(s.len()) {
        return Err(format!("{} is not a number", Preview(s)));
    }
    if s.bytes().all(|c| c.is_ascii_digit() || c == b'-') {
        return match s.parse::<i64>() {
            Ok(v) => {
                i32::try_from(v).map_err(|_| format!("{} is out of range for int32", Preview(s)))
            }
            Err(_) => Err(format!("{} is out of range for int32", Preview(s))),
        };
    }
    match s.parse::<f64>() {
        Ok(v) => integral_f64_to_i32(v),
        Err(_) => Err(format!("{} is not a number", Preview(s))),
    }
}

// ---------------------------------------------------------------------------
// Enums.

/// A proto enum: its values, names and numbers, for the shared visitor.
pub(crate) trait ProtoEnum: Sized + Copy + Default + 'static {
    /// The proto type name, for error messages.
    const TYPE_NAME: &'static str;
    /// Every value, in number order.
    const VALUES: &'static [Self];
    /// The value's proto name.
    fn proto_name(self) -> &'static str;
    /// The value of a proto name.
    fn from_proto_name(name: &str) -> Option<Self>;
    /// The value of a number.
    fn from_proto_number(number: i32) -> Option<Self>;
}

/// The error for a name or number the enum does not define; it lists the
/// accepted names, as the spec's validation example (section 6.5) does.
fn unknown_enum<T: ProtoEnum>(value: fmt::Arguments<'_>) -> String {
    let mut names = String::new();
    for (i, v) in T::VALUES.iter().enumerate() {
        if i > 0 {
            names.push_str(", ");
        }
        names.push_str(v.proto_name());
    }
    format!(
        "unknown {} value {value}; expected one of {names}",
        T::TYPE_NAME
    )
}

fn enum_from_i64<T: ProtoEnum>(v: i64) -> Result<T, String> {
    i32::try_from(v)
        .ok()
        .and_then(T::from_proto_number)
        .ok_or_else(|| unknown_enum::<T>(format_args!("{v}")))
}

/// Reads an enum: its proto name, its number, or its number as a string;
/// `null` reads as the zero (`*_UNSPECIFIED`) value.
pub(crate) fn deserialize_enum<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: ProtoEnum,
{
    struct EnumVisitor<T>(PhantomData<T>);

    impl<'de, T: ProtoEnum> Visitor<'de> for EnumVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a {} name or number", T::TYPE_NAME)
        }

        fn visit_unit<E: de::Error>(self) -> Result<T, E> {
            Ok(T::default())
        }

        fn visit_none<E: de::Error>(self) -> Result<T, E> {
            Ok(T::default())
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
            d.deserialize_any(self)
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            if let Some(value) = T::from_proto_name(v) {
                return Ok(value);
            }
            match parse_int32_text(v) {
                Ok(n) => enum_from_i64(i64::from(n)).map_err(E::custom),
                Err(_) => Err(E::custom(unknown_enum::<T>(format_args!("{}", Preview(v))))),
            }
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
            enum_from_i64(v).map_err(E::custom)
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
            enum_from_i64(i64::try_from(v).unwrap_or(i64::MAX)).map_err(E::custom)
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
            let n = integral_f64_to_i32(v).map_err(E::custom)?;
            enum_from_i64(i64::from(n)).map_err(E::custom)
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            let number = serde_json::Number::deserialize(MapAccessDeserializer::new(map))?;
            let n = parse_int32_text(&number.to_string()).map_err(de::Error::custom)?;
            enum_from_i64(i64::from(n)).map_err(de::Error::custom)
        }
    }

    d.deserialize_any(EnumVisitor(PhantomData))
}

/// Defines a proto enum with its ProtoJSON form, `Display`, `FromStr` and
/// the integer conversions.
macro_rules! proto_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident ($type_name:literal) {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $number:literal => $proto:literal,
            )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[repr(i32)]
        pub enum $name {
            $(
                $(#[$vmeta])*
                $variant = $number,
            )+
        }

        impl $name {
            /// Every value, in number order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The proto name, as written on the wire (ProtoJSON, spec 5.5).
            pub const fn as_str_name(self) -> &'static str {
                match self {
                    $($name::$variant => $proto,)+
                }
            }

            /// The value with this proto name, if there is one.
            pub fn from_str_name(name: &str) -> Option<$name> {
                match name {
                    $($proto => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// The value with this proto number, if there is one.
            pub const fn from_number(number: i32) -> Option<$name> {
                match number {
                    $($number => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// The proto number.
            pub const fn number(self) -> i32 {
                self as i32
            }
        }

        impl $crate::protojson::ProtoEnum for $name {
            const TYPE_NAME: &'static str = $type_name;
            const VALUES: &'static [$name] = $name::ALL;

            fn proto_name(self) -> &'static str {
                self.as_str_name()
            }

            fn from_proto_name(name: &str) -> Option<$name> {
                $name::from_str_name(name)
            }

            fn from_proto_number(number: i32) -> Option<$name> {
                $name::from_number(number)
            }
        }

        impl ::std::fmt::Display for $name {
            /// Writes the proto name, as on the wire.
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str_name())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::protojson::UnknownEnumValue;

            /// Parses a proto name.
            fn from_str(s: &str) -> Result<$name, Self::Err> {
                $name::from_str_name(s).ok_or_else(|| $crate::protojson::UnknownEnumValue {
                    type_name: $type_name,
                    value: s.to_owned(),
                })
            }
        }

        impl TryFrom<i32> for $name {
            type Error = $crate::protojson::UnknownEnumValue;

            fn try_from(number: i32) -> Result<$name, Self::Error> {
                $name::from_number(number).ok_or_else(|| $crate::protojson::UnknownEnumValue {
                    type_name: $type_name,
                    value: number.to_string(),
                })
            }
        }

        impl From<$name> for i32 {
            fn from(value: $name) -> i32 {
                value.number()
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str_name())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                $crate::protojson::deserialize_enum(d)
            }
        }
    };
}
pub(crate) use proto_enum;

/// A name or number that an enum of this crate does not define.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {type_name} value {value:?}")]
pub struct UnknownEnumValue {
    /// The enum, e.g. `TaskState`.
    pub type_name: &'static str,
    /// The text or number that was given.
    pub value: String,
}

// ---------------------------------------------------------------------------
// Bytes.

const DECODE_CONFIG: GeneralPurposeConfig = GeneralPurposeConfig::new()
    .with_decode_padding_mode(DecodePaddingMode::Indifferent)
    .with_decode_allow_trailing_bits(true);
/// Standard alphabet; padding optional on input, written on output.
const STANDARD_LENIENT: GeneralPurpose =
    GeneralPurpose::new(&base64::alphabet::STANDARD, DECODE_CONFIG);

/// Writes bytes as standard base64 with padding, without an intermediate
/// `String`.
#[inline]
pub(crate) fn serialize_bytes<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&base64::display::Base64Display::new(
        bytes,
        &base64::engine::general_purpose::STANDARD,
    ))
}

/// Decodes standard or URL-safe base64 (or a mix), padded or not.
pub(crate) fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    let bytes = text.as_bytes();
    let result = if bytes.iter().any(|&c| c == b'-' || c == b'_') {
        let translated: Vec<u8> = bytes
            .iter()
            .map(|&c| match c {
                b'-' => b'+',
                b'_' => b'/',
                other => other,
            })
            .collect();
        STANDARD_LENIENT.decode(translated)
    } else {
        STANDARD_LENIENT.decode(bytes)
    };
    result.map_err(|e| format!("invalid base64: {e}"))
}

/// A `bytes` value on its way in.
pub(crate) struct Base64Bytes(pub(crate) Vec<u8>);

impl<'de> Deserialize<'de> for Base64Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Base64Bytes, D::Error> {
        struct BytesVisitor;

        impl Visitor<'_> for BytesVisitor {
            type Value = Base64Bytes;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a base64 string")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Base64Bytes, E> {
                decode_base64(v).map(Base64Bytes).map_err(E::custom)
            }
        }

        d.deserialize_str(BytesVisitor)
    }
}

// ---------------------------------------------------------------------------
// Messages are JSON objects.

/// Wraps a deserializer so that a struct can only be read from a JSON
/// object. `serde`'s derive also accepts a struct written as an array of
/// its fields in order, which is not ProtoJSON; the wrapper turns the
/// struct request into a map request, which `serde_json` refuses for
/// anything but an object. Everything else is forwarded untouched.
pub(crate) struct ObjectOnly<D>(pub(crate) D);

macro_rules! forward {
    ($($method:ident),+ $(,)?) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                self.0.$method(visitor)
            }
        )+
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ObjectOnly<D> {
    type Error = D::Error;

    forward!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    #[inline]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, visitor)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, visitor)
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(KeysAsBytes(visitor))
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// Reads the keys of an object through [`identifier`].
struct KeysAsBytes<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for KeysAsBytes<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(KeyMap(map))
    }
}

struct KeyMap<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for KeyMap<A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(KeySeed(seed))
    }

    #[inline]
    fn next_value_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, A::Error> {
        self.0.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct KeySeed<K>(K);

impl<'de, K: de::DeserializeSeed<'de>> de::DeserializeSeed<'de> for KeySeed<K> {
    type Value = K::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K::Value, D::Error> {
        self.0.deserialize(IdentifierAsBytes(d))
    }
}

/// A key deserializer whose `deserialize_identifier` goes through
/// [`identifier`]; everything else is forwarded.
struct IdentifierAsBytes<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for IdentifierAsBytes<D> {
    type Error = D::Error;

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        identifier(self.0, visitor)
    }

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum ignored_any
    }
}

thread_local! {
    /// Set while `decode::locate` decodes a failed input again to find
    /// where it failed.
    static TRACKING_PATHS: Cell<bool> = const { Cell::new(false) };
}

/// Marks the current thread as re-decoding for the error path, until
/// dropped.
pub(crate) struct TrackingPaths(bool);

impl TrackingPaths {
    pub(crate) fn start() -> TrackingPaths {
        TrackingPaths(TRACKING_PATHS.with(|t| t.replace(true)))
    }
}

impl Drop for TrackingPaths {
    fn drop(&mut self) {
        TRACKING_PATHS.with(|t| t.set(self.0));
    }
}

/// Reads an object key for a field-name visitor (which must accept both
/// `visit_str` and `visit_bytes`).
///
/// On the fast path the key is read as bytes: `serde_json` then skips the
/// UTF-8 validation of the key (field names are ASCII; an unknown key is
/// ignored, as unknown values are, whose strings `serde_json` does not
/// validate either). Profiling put that validation at a fifth of the
/// instructions of a small message's decode, keys a good part of it.
/// While the error path is being recovered the key is read as text,
/// because `serde_path_to_error` records only keys it sees as text.
#[inline]
pub(crate) fn identifier<'de, D: Deserializer<'de>, V: Visitor<'de>>(
    d: D,
    visitor: V,
) -> Result<V::Value, D::Error> {
    if TRACKING_PATHS.with(Cell::get) {
        d.deserialize_identifier(visitor)
    } else {
        d.deserialize_bytes(visitor)
    }
}

/// Implements `Serialize` and `Deserialize` for message structs whose
/// derive is declared with `#[serde(remote = "Self")]` (which turns the
/// derived code into inherent functions): serialization is the derived
/// one, deserialization the derived one behind [`ObjectOnly`].
macro_rules! message_impls {
    ($($ty:ident),+ $(,)?) => {
        $(
            impl ::serde::Serialize for $ty {
                #[inline]
                fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    $ty::serialize(self, s)
                }
            }

            impl<'de> ::serde::Deserialize<'de> for $ty {
                #[inline]
                fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                    $ty::deserialize($crate::protojson::ObjectOnly(d))
                }
            }
        )+
    };
}
pub(crate) use message_impls;

// ---------------------------------------------------------------------------
// Oneof-only messages.

/// Implements `Serialize`, a hand-written `Deserialize` and one `From` per member for an enum that
/// stands for a proto message made of one oneof and nothing else
/// (`SecurityScheme`, `OAuthFlows`, `SendMessageResponse`,
/// `StreamResponse`).
///
/// Input: each member under its JSON name or its proto name; `null` is an
/// absent member; unknown keys are ignored; zero or several members is an
/// error (raised at the message itself, so the decode error's path names
/// it). No intermediate buffering: each member's value is read straight
/// into its type.
macro_rules! oneof_message {
    (
        $name:ident, $what:literal,
        [ $( $variant:ident ( $inner:ty ) = $json:literal $( | $alias:literal )? ),+ $(,)? ]
    ) => {
        $(
            impl From<$inner> for $name {
                fn from(v: $inner) -> $name {
                    $name::$variant(v)
                }
            }
        )+

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use ::serde::ser::SerializeMap as _;
                let mut map = s.serialize_map(Some(1))?;
                match self {
                    $( $name::$variant(inner) => map.serialize_entry($json, inner)?, )+
                }
                map.end()
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                #[allow(non_camel_case_types)]
                enum Field {
                    $( $variant, )+
                    Other,
                }

                impl<'de> ::serde::Deserialize<'de> for Field {
                    fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Field, D::Error> {
                        struct FieldVisitor;

                        impl ::serde::de::Visitor<'_> for FieldVisitor {
                            type Value = Field;

                            fn expecting(
                                &self,
                                f: &mut ::std::fmt::Formatter<'_>,
                            ) -> ::std::fmt::Result {
                                f.write_str("a field name")
                            }

                            fn visit_str<E: ::serde::de::Error>(self, v: &str) -> Result<Field, E> {
                                self.visit_bytes(v.as_bytes())
                            }

                            fn visit_bytes<E: ::serde::de::Error>(self, v: &[u8]) -> Result<Field, E> {
                                $(
                                    if v == $json.as_bytes() $( || v == $alias.as_bytes() )? {
                                        return Ok(Field::$variant);
                                    }
                                )+
                                Ok(Field::Other)
                            }
                        }

                        $crate::protojson::identifier(d, FieldVisitor)
                    }
                }

                struct OneofVisitor;

                impl<'de> ::serde::de::Visitor<'de> for OneofVisitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(concat!("a ", stringify!($name), " object"))
                    }

                    fn visit_map<A: ::serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$name, A::Error> {
                        let mut found: Option<($name, &'static str)> = None;
                        while let Some(field) = map.next_key::<Field>()? {
                            match field {
                                $(
                                    Field::$variant => {
                                        if let Some(inner) = map.next_value::<Option<$inner>>()? {
                                            if let Some((_, first)) = &found {
                                                return Err(::serde::de::Error::custom(
                                                    $crate::protojson::several_members(
                                                        $what, first, $json,
                                                    ),
                                                ));
                                            }
                                            found = Some(($name::$variant(inner), $json));
                                        }
                                    }
                                )+
                                Field::Other => {
                                    map.next_value::<::serde::de::IgnoredAny>()?;
                                }
                            }
                        }
                        match found {
                            Some((value, _)) => Ok(value),
                            None => Err(::serde::de::Error::custom(
                                $crate::protojson::no_member($what),
                            )),
                        }
                    }
                }

                d.deserialize_map(OneofVisitor)
            }
        }
    };
}
pub(crate) use oneof_message;

/// Error text for a oneof given two members.
pub(crate) fn several_members(what: &str, first: &str, second: &str) -> String {
    if first == second {
        format!("duplicate field `{first}`")
    } else {
        format!("{what}; found both `{first}` and `{second}`")
    }
}

/// Error text for a oneof given no member.
pub(crate) fn no_member(what: &str) -> String {
    format!("{what}; found none")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int32_text_forms() {
        assert_eq!(parse_int32_text("5"), Ok(5));
        assert_eq!(parse_int32_text("-2147483648"), Ok(i32::MIN));
        assert_eq!(parse_int32_text("007"), Ok(7));
        assert_eq!(parse_int32_text("1e2"), Ok(100));
        assert_eq!(parse_int32_text("2.0"), Ok(2));
        assert!(parse_int32_text("2.5").is_err());
        assert!(parse_int32_text("2147483648").is_err());
        assert!(parse_int32_text("99999999999999999999999").is_err());
        assert!(parse_int32_text(" 5").is_err());
        assert!(parse_int32_text("+5").is_err());
        assert!(parse_int32_text("").is_err());
        assert!(parse_int32_text("-").is_err());
        assert!(parse_int32_text("1e").is_err());
        assert!(parse_int32_text("1e400").is_err());
        let long = "é".repeat(100);
        let msg = parse_int32_text(&long).unwrap_err();
        assert!(msg.ends_with("... (200 bytes) is not a number"), "{msg}");
        assert!(msg.len() < 100, "{msg}");
    }

    #[test]
    fn base64_forms() {
        assert_eq!(decode_base64("+/8=").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(decode_base64("+/8").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(decode_base64("-_8=").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(decode_base64("-_8").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(decode_base64("").unwrap(), Vec::<u8>::new());
        assert!(decode_base64("a").is_err());
        assert!(decode_base64("a b=").is_err());
        assert!(decode_base64("!!!!").is_err());
    }
}
