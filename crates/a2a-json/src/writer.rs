//! A compact JSON writer driven by `serde::Serialize`: [`to_vec`](super::to_vec)
//! and [`to_writer`](super::to_writer) with the `fast-json` feature.
//!
//! It writes exactly the bytes `serde_json::to_vec` writes, for every
//! `Serialize` impl (the crate's own, derived ones, `serde_json::Value`,
//! `RawValue`), in the same cases succeeding or failing. It is faster on
//! this crate's traffic because strings are escaped a word at a time: the
//! [`scan`] finds the next `"`, `\\` or control byte eight bytes per step,
//! the plain run before it is copied with one `extend_from_slice`, and only
//! the special byte is escaped.
//!
//! Escapes are `serde_json`'s: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`,
//! other bytes below 0x20 as `\u00xx` (lowercase hex); DEL and non-ASCII
//! are written raw. Numbers are handed to `serde_json` (itoa and ryu;
//! NaN and infinities become `null`), so they are formatted identically,
//! with or without `arbitrary_precision`. Its private number and raw-value
//! structs ([`NUMBER_TOKEN`], [`RAW_VALUE_TOKEN`]) are written as their raw
//! text, as `serde_json` does.
//!
//! Output goes into a `Vec<u8>` only: the caller owns and reuses the
//! buffer, and writing to memory cannot fail. The only errors are the ones
//! `serde_json` raises too: a `Serialize` impl that fails, or a map key
//! that is not a string, number, bool or char (or is a non-finite float).

use std::fmt::{self, Display};

use serde::ser::{self, Error as _, Impossible, Serialize};

use super::scan::{is_plain, scan};
use super::{Error, NUMBER_TOKEN, RAW_VALUE_TOKEN};

type Result<T, E = Error> = std::result::Result<T, E>;

/// Encodes `value` as compact JSON into a new buffer.
#[inline]
pub(super) fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(128);
    to_writer(&mut out, value)?;
    Ok(out)
}

/// Appends the compact JSON of `value` to `out`.
#[inline]
pub(super) fn to_writer<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<()> {
    value.serialize(&mut Serializer::new(out))
}

/// The `serde::Serializer` behind [`to_writer`]: appends to a `Vec<u8>`.
#[derive(Debug)]
struct Serializer<'a> {
    out: &'a mut Vec<u8>,
}

impl<'a> Serializer<'a> {
    /// A serializer appending to `out`.
    fn new(out: &'a mut Vec<u8>) -> Serializer<'a> {
        Serializer { out }
    }

    /// Hands a number to `serde_json`, so its digits are `serde_json`'s.
    #[inline]
    fn number<N: Serialize>(&mut self, n: N) -> Result<()> {
        serde_json::to_writer(&mut *self.out, &n)
    }
}

/// Writes `s` as a JSON string, quotes included.
#[inline]
fn write_str(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    // Keys, ids and most text need no escape: one check, one copy.
    if is_plain(s.as_bytes()) {
        out.extend_from_slice(s.as_bytes());
    } else {
        write_str_contents(out, s);
    }
    out.push(b'"');
}

/// Writes `s` escaped, without quotes: runs of plain bytes are copied
/// whole, only the byte that ends a run is escaped.
#[inline]
fn write_str_contents(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    let mut start = 0;
    loop {
        let end = scan(bytes, start);
        out.extend_from_slice(&bytes[start..end]);
        match bytes.get(end) {
            Some(&b) => write_escape(out, b),
            None => return,
        }
        start = end + 1;
    }
}

/// The escape of one byte that [`scan`] stopped at.
#[cold]
fn write_escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0c => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

/// Escapes `Display` output piece by piece, for `collect_str`.
struct Escaping<'a>(&'a mut Vec<u8>);

impl fmt::Write for Escaping<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        write_str_contents(self.0, s);
        Ok(())
    }
}

fn collect_str<T: Display + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<()> {
    out.push(b'"');
    fmt::write(&mut Escaping(out), format_args!("{value}"))
        .map_err(|_| Error::custom("a Display impl returned an error"))?;
    out.push(b'"');
    Ok(())
}

fn key_must_be_a_string() -> Error {
    Error::custom("key must be a string")
}

impl<'s, 'a> ser::Serializer for &'s mut Serializer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'s, 'a>;
    type SerializeTuple = Compound<'s, 'a>;
    type SerializeTupleStruct = Compound<'s, 'a>;
    type SerializeTupleVariant = Compound<'s, 'a>;
    type SerializeMap = Compound<'s, 'a>;
    type SerializeStruct = StructCompound<'s, 'a>;
    type SerializeStructVariant = Compound<'s, 'a>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<()> {
        self.number(v)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.number(v)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.number(v)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.number(v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.number(v)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.number(v)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.number(v)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.number(v)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.number(v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.number(v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.number(v)
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.number(v)
    }

    fn serialize_char(self, v: char) -> Result<()> {
        write_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        write_str(self.out, v);
        Ok(())
    }

    /// An array of numbers, as `serde_json` writes bytes.
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<()> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    /// `{"Variant":value}`.
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.push(b':');
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }

    #[inline]
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'s, 'a>> {
        self.out.push(b'[');
        Ok(Compound::new(self))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'s, 'a>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'s, 'a>> {
        self.serialize_seq(Some(len))
    }

    /// `{"Variant":[...]}`.
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'s, 'a>> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.extend_from_slice(b":[");
        Ok(Compound::new(self))
    }

    #[inline]
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'s, 'a>> {
        self.out.push(b'{');
        Ok(Compound::new(self))
    }

    #[inline]
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<StructCompound<'s, 'a>> {
        // Compare the cheap first byte before the names.
        if name.starts_with('$') && (name == NUMBER_TOKEN || name == RAW_VALUE_TOKEN) {
            return Ok(StructCompound::Raw(self));
        }
        self.out.push(b'{');
        Ok(StructCompound::Fields(Compound::new(self)))
    }

    /// `{"Variant":{...}}`.
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'s, 'a>> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.extend_from_slice(b":{");
        Ok(Compound::new(self))
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<()> {
        collect_str(self.out, value)
    }
}

/// An array or object being written: its elements or entries so far.
#[derive(Debug)]
struct Compound<'s, 'a> {
    ser: &'s mut Serializer<'a>,
    first: bool,
}

impl<'s, 'a> Compound<'s, 'a> {
    #[inline]
    fn new(ser: &'s mut Serializer<'a>) -> Compound<'s, 'a> {
        Compound { ser, first: true }
    }

    /// The `,` before every element or entry but the first.
    #[inline]
    fn separate(&mut self) {
        if self.first {
            self.first = false;
        } else {
            self.ser.out.push(b',');
        }
    }

    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.separate();
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<()> {
        self.separate();
        write_str(self.ser.out, key);
        self.ser.out.push(b':');
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn close(self, closing: &[u8]) -> Result<()> {
        self.ser.out.extend_from_slice(closing);
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    #[inline]
    fn end(self) -> Result<()> {
        self.close(b"]")
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.close(b"]")
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.close(b"]")
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.close(b"]}")
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.separate();
        key.serialize(MapKey(self.ser.out))
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.ser.out.push(b':');
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn end(self) -> Result<()> {
        self.close(b"}")
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }

    fn end(self) -> Result<()> {
        self.close(b"}}")
    }
}

/// A struct being written: an object of its fields, or, for
/// `serde_json`'s private number and raw-value structs, the raw text of
/// their one field.
#[derive(Debug)]
enum StructCompound<'s, 'a> {
    /// An ordinary struct, written as an object.
    Fields(Compound<'s, 'a>),
    /// `serde_json`'s number or raw-value token struct.
    Raw(&'s mut Serializer<'a>),
}

impl ser::SerializeStruct for StructCompound<'_, '_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        match self {
            StructCompound::Fields(c) => c.field(key, value),
            StructCompound::Raw(ser) if key == NUMBER_TOKEN || key == RAW_VALUE_TOKEN => {
                value.serialize(RawText(ser.out))
            }
            StructCompound::Raw(_) => Err(Error::custom("invalid serde_json private struct")),
        }
    }

    #[inline]
    fn end(self) -> Result<()> {
        match self {
            StructCompound::Fields(c) => c.close(b"}"),
            StructCompound::Raw(_) => Ok(()),
        }
    }
}

/// Writes a map key: strings escaped; integers, finite floats, bools and
/// chars quoted, as `serde_json` does; anything else an error.
struct MapKey<'a>(&'a mut Vec<u8>);

impl MapKey<'_> {
    /// A number or bool, quoted.
    fn quoted<N: Serialize>(self, n: N) -> Result<()> {
        self.0.push(b'"');
        serde_json::to_writer(&mut *self.0, &n)?;
        self.0.push(b'"');
        Ok(())
    }
}

impl ser::Serializer for MapKey<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        write_str(self.0, v);
        Ok(())
    }

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        if !v.is_finite() {
            return Err(Error::custom(
                "float key must be finite (got NaN or +/-inf)",
            ));
        }
        self.quoted(v)
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        if !v.is_finite() {
            return Err(Error::custom(
                "float key must be finite (got NaN or +/-inf)",
            ));
        }
        self.quoted(v)
    }

    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<()> {
        collect_str(self.0, value)
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_must_be_a_string())
    }
}

/// Writes the one string field of `serde_json`'s number and raw-value
/// structs as it is: the text is already JSON.
struct RawText<'a>(&'a mut Vec<u8>);

fn not_raw_text() -> Error {
    Error::custom("expected the raw JSON text of a serde_json number or raw value")
}

impl ser::Serializer for RawText<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<()> {
        self.0.extend_from_slice(v.as_bytes());
        Ok(())
    }

    fn serialize_bool(self, _v: bool) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_i8(self, _v: i8) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_i16(self, _v: i16) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_i32(self, _v: i32) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_i64(self, _v: i64) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_u8(self, _v: u8) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_u16(self, _v: u16) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_u32(self, _v: u32) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_u64(self, _v: u64) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_f32(self, _v: f32) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_f64(self, _v: f64) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_char(self, _v: char) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_none(self) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_unit(self) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
    ) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(not_raw_text())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(not_raw_text())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(not_raw_text())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(not_raw_text())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(not_raw_text())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(not_raw_text())
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(not_raw_text())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(not_raw_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use serde_json::{json, Value};
    use std::collections::BTreeMap;

    /// Both encoders, and the bytes must agree.
    fn same<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
        let ours = to_vec(value).unwrap();
        let theirs = serde_json::to_vec(value).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        );
        assert_eq!(ours, theirs);
        ours
    }

    #[test]
    fn every_ascii_byte_escapes_as_serde_json_does() {
        for b in 0u8..0x80 {
            let s = char::from(b).to_string();
            same(&s);
            same(&format!("ab{s}cd"));
        }
        assert_eq!(same("\u{1}\u{1f}"), br#""\u0001\u001f""#);
        assert_eq!(same("\"\\\u{8}\u{c}\n\r\t"), br#""\"\\\b\f\n\r\t""#);
        assert_eq!(same("\u{7f}/"), "\"\u{7f}/\"".as_bytes());
    }

    #[test]
    fn special_byte_at_every_offset_of_every_run_length() {
        for len in 0..70 {
            same(&"x".repeat(len));
            for at in 0..len {
                for special in ["\"", "\\", "\n", "\u{0}", "\u{1f}"] {
                    let mut s = "p".repeat(len);
                    s.replace_range(at..=at, special);
                    same(&s);
                    // A second special byte later in the same string.
                    s.push_str(special);
                    s.push_str("tail");
                    same(&s);
                }
            }
        }
    }

    #[test]
    fn non_ascii_and_empty_strings_are_raw() {
        assert_eq!(same(""), b"\"\"");
        same("café naïve über 日本語 🎉 \u{85}\u{2028}\u{2029}");
        same(&"é\n".repeat(40));
        same(&'é');
        same(&'\n');
        same(&'\u{0}');
    }

    #[test]
    fn nested_containers() {
        same(&json!([]));
        same(&json!({}));
        same(&json!([[], {}, [[[]]], {"a": {"b": {}}}]));
        same(
            &json!({"k\"ey\n": [1, -2, 3.5, -0.0, 1e300, u64::MAX, i64::MIN, null, true, false, "s"]}),
        );
        same(&(1u8, "two", [3.0f32, f32::NAN], ()));
        same(&vec![Some(1), None]);
        same(&f64::INFINITY);
        same(&1.0e-7f64);
        same(&0.1f32);
        same(&(i128::MIN, u128::MAX));
        same(&serde_bytes_like(&[0, 1, 255]));
        same(&serde_bytes_like(&[]));
    }

    /// `serialize_bytes`, which no std type calls.
    fn serde_bytes_like(b: &[u8]) -> impl Serialize + '_ {
        struct Bytes<'a>(&'a [u8]);
        impl Serialize for Bytes<'_> {
            fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
        Bytes(b)
    }

    #[derive(Serialize)]
    struct Unit;

    #[derive(Serialize)]
    struct Newtype(String);

    #[derive(Serialize)]
    struct Tuple(u8, &'static str);

    #[derive(Serialize)]
    struct Fields {
        a: u8,
        #[serde(rename = "b\"")]
        b: Option<Unit>,
        c: Tuple,
    }

    #[derive(Serialize)]
    struct Empty {}

    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(u32),
        Tuple(u8, String),
        EmptyTuple(),
        Struct { x: i8, y: Vec<u8> },
        EmptyStruct {},
    }

    #[test]
    fn every_shape_of_the_data_model() {
        same(&Unit);
        same(&Newtype("n\u{2}".into()));
        same(&Tuple(7, "t"));
        same(&Fields {
            a: 1,
            b: None,
            c: Tuple(2, "x"),
        });
        same(&Fields {
            a: 1,
            b: Some(Unit),
            c: Tuple(2, "x"),
        });
        same(&Empty {});
        same(&Shape::Unit);
        same(&Shape::Newtype(5));
        same(&Shape::Tuple(1, "a".into()));
        same(&Shape::EmptyTuple());
        same(&Shape::Struct {
            x: -1,
            y: vec![1, 2],
        });
        same(&Shape::EmptyStruct {});
        assert_eq!(same(&Shape::Newtype(5)), br#"{"Newtype":5}"#);
    }

    /// A map of any keys, floats included, in the given order.
    struct Pairs<K, V>(Vec<(K, V)>);

    impl<K: Serialize, V: Serialize> Serialize for Pairs<K, V> {
        fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }

    #[derive(Serialize)]
    enum Key {
        Alpha,
        Beta(u8),
    }

    #[test]
    fn map_keys_as_serde_json_writes_them() {
        same(&Pairs(vec![(1i32, "a"), (-2, "b")]));
        same(&Pairs(vec![(u128::MAX, 0), (0, 1)]));
        same(&Pairs(vec![(i128::MIN, 0)]));
        same(&Pairs(vec![(true, 0), (false, 1)]));
        same(&Pairs(vec![('c', 0), ('\n', 1)]));
        same(&Pairs(vec![(Newtype("k\"".into()), 0)]));
        same(&Pairs(vec![(Some("k"), 0)]));
        same(&Pairs(vec![("\u{0}", 0), ("", 1)]));
        same(&Pairs(vec![(Key::Alpha, 0)]));
        same(&Pairs(vec![(1.5f64, 0), (-0.0, 1), (1e300, 2)]));
        same(&Pairs(vec![(0.1f32, 0)]));
        same(&Pairs(Vec::<(u8, u8)>::new()));
        let mut m = serde_json::Map::new();
        m.insert("z".into(), json!(1));
        m.insert("a".into(), json!(2));
        same(&m);
    }

    #[test]
    fn map_keys_fail_where_serde_json_fails() {
        fn both_fail<T: Serialize>(value: &T) {
            assert!(to_vec(value).is_err());
            assert!(serde_json::to_vec(value).is_err());
        }
        both_fail(&Pairs(vec![((), 0)]));
        both_fail(&Pairs(vec![(Unit, 0)]));
        both_fail(&Pairs(vec![(vec![1], 0)]));
        both_fail(&Pairs(vec![(Option::<u8>::None, 0)]));
        both_fail(&Pairs(vec![((1, 2), 0)]));
        both_fail(&Pairs(vec![(Key::Beta(1), 0)]));
        both_fail(&Pairs(vec![(Tuple(1, "a"), 0)]));
        both_fail(&Pairs(vec![(Empty {}, 0)]));
        both_fail(&Pairs(vec![(BTreeMap::<u8, u8>::new(), 0)]));
        both_fail(&Pairs(vec![(serde_bytes_like(b"k"), 0)]));
        both_fail(&Pairs(vec![(f64::NAN, 0)]));
        both_fail(&Pairs(vec![(f32::INFINITY, 0)]));
    }

    #[test]
    fn numbers_and_raw_values() {
        same(&json!(12345678901234567890u64));
        same(&json!(-9223372036854775808i64));
        same(&json!(0.30000000000000004));
        same(&json!(-0.0));
        let raw = serde_json::value::RawValue::from_string(r#"{"x": [1, 2]}"#.into()).unwrap();
        assert_eq!(same(&raw), br#"{"x": [1, 2]}"#);
        same(&json!({"n": serde_json::Number::from_f64(1e-10).unwrap()}));

        // serde_json::Number's form under `arbitrary_precision`, built by
        // hand so the test runs whatever the features.
        struct Precise(&'static str);
        impl Serialize for Precise {
            fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use ser::SerializeStruct;
                let mut st = s.serialize_struct(NUMBER_TOKEN, 1)?;
                st.serialize_field(NUMBER_TOKEN, self.0)?;
                st.end()
            }
        }
        assert_eq!(
            to_vec(&[Precise("1.50"), Precise("-0")]).unwrap(),
            b"[1.50,-0]"
        );
    }

    #[test]
    fn errors_from_serialize_impls_pass_through() {
        struct Fails;
        impl Serialize for Fails {
            fn serialize<S: ser::Serializer>(&self, _s: S) -> Result<S::Ok, S::Error> {
                Err(ser::Error::custom("nope"))
            }
        }
        let err = to_vec(&vec![Fails]).unwrap_err();
        assert_eq!(err.to_string(), "nope");
    }

    #[test]
    fn collect_str_escapes_display_output() {
        struct Shown;
        impl Display for Shown {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a\"")?;
                write!(f, "{}\n{}", 1, f64::from(2.5f32))
            }
        }
        struct Collected;
        impl Serialize for Collected {
            fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(&Shown)
            }
        }
        same(&Collected);
        same(&Pairs(vec![(Collected, Value::Null)]));
    }
}
