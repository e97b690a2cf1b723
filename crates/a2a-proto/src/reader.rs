//! The protobuf wire format as the reader needs it: a [`Reader`] over the
//! input, the two traits one type's reading is made of ([`Fields`] for the
//! state a message accumulates, [`Build`] for the value it makes), and the
//! merge rules every impl in `read.rs` shares.
//!
//! Decoding rules are those of the protobuf encoding guide
//! (<https://protobuf.dev/programming-guides/encoding/>) as prost applies
//! them, since `decode` must accept and refuse exactly what prost's
//! generated `merge` followed by [`Protobuf::from_message`] does:
//!
//! - a key is a varint `number << 3 | wire type`; number 0, a key past 32
//!   bits and wire types 6 and 7 are errors; a varint is at most 10 bytes,
//!   the tenth 0 or 1;
//! - a known field with another wire type is an error; an unknown field
//!   is skipped, groups (wire types 3 and 4) included;
//! - "last one wins" for a non-repeated scalar or string, a non-repeated
//!   message seen twice is merged, repeated fields concatenate;
//! - nesting is bounded as prost bounds it: a nested message (a map entry
//!   counts) or a skipped field needs one level left of 100.
//!
//! # Why values are built at the end of their message
//!
//! What the model refuses (an unknown enum number, a oneof with no member,
//! a timestamp out of range, a NaN in a `Value`) is an error only for the
//! final value, which a later field may still change: an enum written
//! twice, a oneof whose member a later one replaces, a map key written
//! again. So each type reads into a builder ([`Fields`]) holding such
//! values raw, and makes its value ([`Build::finish`]) when its message
//! can no longer change: at the end of the input for the outermost one,
//! of its element for a repeated field or map value, and with its parent
//! for a non-repeated field, since a second occurrence merges into it. An
//! element that fails is recorded in its parent's builder and reported
//! when that finishes, unless a replacing oneof member or map entry drops
//! the builder first, as it drops prost's message.
//!
//! [`Protobuf::from_message`]: crate::Protobuf::from_message

use std::collections::BTreeMap;

use crate::error::{ProtoError, ProtoErrorKind};

/// A value read from a whole protobuf message.
///
/// Public in a private module, so [`Protobuf`](crate::Protobuf) can
/// require it while only this crate implements it (through [`Build`],
/// whose impls are in `read.rs`): every type with a protobuf form has a reader, checked
/// against prost and [`Protobuf::from_message`](crate::Protobuf::from_message)
/// on every input the tests and the fuzz target make.
pub trait ProtoRead: Sized {
    /// The value whose message's fields are `bytes`, to the end.
    fn read_message(bytes: &[u8]) -> std::result::Result<Self, ProtoError>;
}

/// prost's recursion limit (`prost::RECURSION_LIMIT`).
const RECURSION_LIMIT: u32 = 100;

/// Errors stay boxed while read: a pointer-sized `Err` keeps every
/// field's `Result` small on the hot path.
pub(crate) type Error = Box<ProtoError>;
pub(crate) type Result<T> = std::result::Result<T, Error>;

/// The state one message accumulates while its fields are read.
pub(crate) trait Fields: Default {
    /// Reads the value of field `tag` (its key already read) into `self`;
    /// `depth` is how many more levels may nest (prost's `recurse_count`).
    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: u8,
        r: &mut Reader<'_>,
        depth: u32,
    ) -> Result<()>;
}

/// A type read through a builder.
pub(crate) trait Build: Sized {
    /// What its message's fields are read into.
    type Builder: Fields;

    /// The value, once its message can no longer change; the errors of
    /// [`from_message`](crate::Protobuf::from_message), at the same paths.
    fn finish(builder: Self::Builder) -> Result<Self>;
}

/// Every type read through a builder is readable, so `Protobuf`, which
/// requires [`ProtoRead`], requires a builder of every type it covers.
impl<T: Build> ProtoRead for T {
    fn read_message(bytes: &[u8]) -> std::result::Result<Self, ProtoError> {
        let mut builder = T::Builder::default();
        merge(&mut builder, bytes, RECURSION_LIMIT)
            .and_then(|()| T::finish(builder))
            .map_err(|e| *e)
    }
}

/// Reads every field of `bytes` into `builder`.
#[inline]
fn merge<B: Fields>(builder: &mut B, bytes: &[u8], depth: u32) -> Result<()> {
    let mut r = Reader { buf: bytes };
    while !r.buf.is_empty() {
        let (tag, wire_type) = r.key()?;
        builder.merge_field(tag, wire_type, &mut r, depth)?;
    }
    Ok(())
}

/// Wire type 0: varint.
const VARINT: u8 = 0;
/// Wire type 1: 64-bit little-endian.
const I64: u8 = 1;
/// Wire type 2: length-delimited.
const LEN: u8 = 2;
/// Wire type 3: start of a group (deprecated; skipped).
const SGROUP: u8 = 3;
/// Wire type 4: end of a group.
const EGROUP: u8 = 4;
/// Wire type 5: 32-bit little-endian.
const I32: u8 = 5;

/// A wire error, with no path yet.
#[cold]
#[inline(never)]
fn wire(what: &str) -> Error {
    Box::new(ProtoError::new(ProtoErrorKind::Wire(what.to_owned())))
}

#[cold]
#[inline(never)]
fn wrong_wire_type(actual: u8, expected: u8) -> Error {
    wire(&format!("wire type {actual} where {expected} was expected"))
}

#[cold]
#[inline(never)]
fn bad_key(key: u64) -> Error {
    wire(&format!("invalid field key {key}"))
}

#[cold]
#[inline(never)]
fn truncated() -> Error {
    wire("truncated input")
}

#[cold]
#[inline(never)]
fn too_deep() -> Error {
    wire("nesting past the recursion limit (100)")
}

#[inline(always)]
fn expect(wire_type: u8, expected: u8) -> Result<()> {
    if wire_type == expected {
        Ok(())
    } else {
        Err(wrong_wire_type(wire_type, expected))
    }
}

/// Adds field `name` to the path of an error on its way out.
#[inline]
pub(crate) fn at(name: &'static str) -> impl FnOnce(Error) -> Error {
    move |mut e| {
        e.push_field(name);
        e
    }
}

/// The input of one message: the bytes of its fields not read yet.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A varint: up to 10 bytes, 7 bits each, low first.
    #[inline(always)]
    fn varint(&mut self) -> Result<u64> {
        // One byte (keys, small numbers) and two (most lengths) inline.
        match *self.buf {
            [b, ref rest @ ..] if b < 0x80 => {
                self.buf = rest;
                Ok(u64::from(b))
            }
            [b0, b1, ref rest @ ..] if b1 < 0x80 => {
                self.buf = rest;
                Ok(u64::from(b0 & 0x7f) | u64::from(b1) << 7)
            }
            _ => self.varint_slow(),
        }
    }

    #[inline(never)]
    fn varint_slow(&mut self) -> Result<u64> {
        let mut value = 0u64;
        for (i, &byte) in self.buf.iter().take(10).enumerate() {
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                // The tenth byte holds the 64th bit only.
                if i == 9 && byte > 1 {
                    break;
                }
                self.buf = &self.buf[i + 1..];
                return Ok(value);
            }
        }
        Err(wire("invalid varint"))
    }

    /// A field key: the field number and the wire type.
    #[inline(always)]
    fn key(&mut self) -> Result<(u32, u8)> {
        let key = self.varint()?;
        let wire_type = (key & 7) as u8;
        if key > u64::from(u32::MAX) || wire_type > I32 || key < 8 {
            return Err(bad_key(key));
        }
        // Checked above: fits in 32 bits.
        Ok(((key >> 3) as u32, wire_type))
    }

    /// The next `len` bytes.
    #[inline(always)]
    fn take(&mut self, len: u64) -> Result<&'a [u8]> {
        if len > self.buf.len() as u64 {
            return Err(truncated());
        }
        // In range: checked above.
        let (bytes, rest) = self.buf.split_at(len as usize);
        self.buf = rest;
        Ok(bytes)
    }

    /// A length-delimited value's bytes.
    #[inline(always)]
    fn len_delimited(&mut self) -> Result<&'a [u8]> {
        let len = self.varint()?;
        self.take(len)
    }

    /// A `string`: copied once, then checked once. The copy is checked
    /// rather than the input: it starts aligned, which the UTF-8 check's
    /// word-at-a-time ASCII path needs (measured: ~20% fewer instructions
    /// in the check).
    #[inline]
    pub(crate) fn string(&mut self, wire_type: u8) -> Result<String> {
        expect(wire_type, LEN)?;
        let bytes = self.len_delimited()?;
        String::from_utf8(bytes.to_vec()).map_err(|_| wire("invalid UTF-8 in a string"))
    }

    /// A `bytes` field.
    #[inline]
    pub(crate) fn bytes(&mut self, wire_type: u8) -> Result<Vec<u8>> {
        expect(wire_type, LEN)?;
        Ok(self.len_delimited()?.to_vec())
    }

    /// An `int32` or enum: the varint's low 32 bits, as prost reads it.
    #[inline]
    pub(crate) fn int32(&mut self, wire_type: u8) -> Result<i32> {
        expect(wire_type, VARINT)?;
        // Truncation intended: a negative int32 is sign-extended to 64 bits.
        Ok(self.varint()? as i32)
    }

    /// An `int64`.
    #[inline]
    pub(crate) fn int64(&mut self, wire_type: u8) -> Result<i64> {
        expect(wire_type, VARINT)?;
        Ok(self.varint()? as i64)
    }

    /// A `bool`: any nonzero varint is true.
    #[inline]
    pub(crate) fn bool(&mut self, wire_type: u8) -> Result<bool> {
        expect(wire_type, VARINT)?;
        Ok(self.varint()? != 0)
    }

    /// A `double`.
    #[inline]
    pub(crate) fn double(&mut self, wire_type: u8) -> Result<f64> {
        expect(wire_type, I64)?;
        match self.buf.split_first_chunk::<8>() {
            Some((bytes, rest)) => {
                self.buf = rest;
                Ok(f64::from_le_bytes(*bytes))
            }
            None => Err(truncated()),
        }
    }

    /// A nested message, merged into `builder`: a non-repeated field or a
    /// oneof member seen again merges into what was read before.
    #[inline]
    pub(crate) fn message<B: Fields>(
        &mut self,
        wire_type: u8,
        builder: &mut B,
        depth: u32,
    ) -> Result<()> {
        expect(wire_type, LEN)?;
        if depth == 0 {
            return Err(too_deep());
        }
        let bytes = self.len_delimited()?;
        merge(builder, bytes, depth - 1)
    }

    /// An optional (non-repeated) message field, merged into what a former
    /// occurrence read.
    #[inline]
    pub(crate) fn opt_message<B: Fields>(
        &mut self,
        wire_type: u8,
        slot: &mut Option<B>,
        depth: u32,
    ) -> Result<()> {
        self.message(wire_type, slot.get_or_insert_with(B::default), depth)
    }

    /// One element of a repeated message field `name` (`None` for a
    /// `ListValue`'s values, whose path is the index alone): read, then
    /// finished, since nothing later changes it. A value the model refuses
    /// is kept in `error` (the first one), for the parent's `finish`.
    #[inline]
    pub(crate) fn element<T: Build>(
        &mut self,
        wire_type: u8,
        out: &mut Vec<T>,
        error: &mut Option<Error>,
        depth: u32,
        name: Option<&'static str>,
    ) -> Result<()> {
        let place = |mut e: Error, index: usize| {
            e.push_index(index);
            if let Some(name) = name {
                e.push_field(name);
            }
            e
        };
        let mut builder = T::Builder::default();
        if let Err(e) = self.message(wire_type, &mut builder, depth) {
            return Err(place(e, out.len()));
        }
        match T::finish(builder) {
            Ok(value) => out.push(value),
            Err(e) => {
                if error.is_none() {
                    *error = Some(place(e, out.len()));
                }
            }
        }
        Ok(())
    }

    /// One map entry message (key 1, value 2), each left at its default
    /// when absent, as prost reads entries; `value` reads field 2.
    #[inline]
    fn entry<V: Default>(
        &mut self,
        wire_type: u8,
        depth: u32,
        mut value: impl FnMut(&mut Reader<'a>, u8, &mut V, u32) -> Result<()>,
    ) -> Result<(String, V)> {
        expect(wire_type, LEN)?;
        if depth == 0 {
            return Err(too_deep());
        }
        let mut r = Reader {
            buf: self.len_delimited()?,
        };
        let depth = depth - 1;
        let mut key = String::new();
        let mut val = V::default();
        while !r.buf.is_empty() {
            let (tag, wire_type) = r.key()?;
            match tag {
                1 => key = r.string(wire_type)?,
                2 => value(&mut r, wire_type, &mut val, depth)?,
                _ => r.skip(wire_type, tag, depth)?,
            }
        }
        Ok((key, val))
    }

    /// A `map<string, string>` entry.
    #[inline]
    pub(crate) fn string_entry(&mut self, wire_type: u8, depth: u32) -> Result<(String, String)> {
        self.entry(wire_type, depth, |r, wire_type, value: &mut String, _| {
            *value = r.string(wire_type)?;
            Ok(())
        })
    }

    /// A `map<string, Message>` entry, its value read into a builder (a
    /// value seen twice in one entry merges, as a message field does).
    #[inline]
    pub(crate) fn message_entry<B: Fields>(
        &mut self,
        wire_type: u8,
        depth: u32,
    ) -> Result<(String, B)> {
        self.entry(wire_type, depth, |r, wire_type, value: &mut B, depth| {
            r.message(wire_type, value, depth)
        })
    }

    /// Skips an unknown field, as `prost::encoding::skip_field` does: a
    /// group to its matching end, nested groups counting as levels.
    pub(crate) fn skip(&mut self, wire_type: u8, tag: u32, depth: u32) -> Result<()> {
        if depth == 0 {
            return Err(too_deep());
        }
        match wire_type {
            VARINT => {
                self.varint()?;
            }
            I64 => {
                self.take(8)?;
            }
            LEN => {
                self.len_delimited()?;
            }
            SGROUP => loop {
                let (inner, inner_type) = self.key()?;
                if inner_type == EGROUP {
                    if inner != tag {
                        return Err(wire("unmatched end of group"));
                    }
                    break;
                }
                self.skip(inner_type, inner, depth - 1)?;
            },
            EGROUP => return Err(wire("end of group without a start")),
            _ => {
                self.take(4)?;
            }
        }
        Ok(())
    }
}

/// The value of an optional message field, its name added to an error.
#[inline]
pub(crate) fn finish_opt<T: Build>(
    builder: Option<T::Builder>,
    name: &'static str,
) -> Result<Option<T>> {
    match builder {
        Some(builder) => T::finish(builder).map(Some).map_err(at(name)),
        None => Ok(None),
    }
}

/// The value of a non-repeated message field the model holds plainly (a
/// REQUIRED one): an absent one is the default builder's value, which is
/// the type's default, as `from_message` reads it.
#[inline]
pub(crate) fn finish_in<T: Build>(builder: T::Builder, name: &'static str) -> Result<T> {
    T::finish(builder).map_err(at(name))
}

/// A map being read whose values the model may refuse: a refused value is
/// an error only if no later entry of the same key replaces it.
#[derive(Debug, Default)]
pub(crate) struct Keyed<M> {
    map: M,
    /// The refused entries, by key (rare: empty on the hot path).
    errors: Vec<(String, Error)>,
}

/// The two map types the model uses for protobuf maps.
pub(crate) trait Map<V>: Default {
    fn put(&mut self, key: String, value: V);
    fn take(&mut self, key: &str);
}

impl<V> Map<V> for BTreeMap<String, V> {
    #[inline]
    fn put(&mut self, key: String, value: V) {
        self.insert(key, value);
    }

    fn take(&mut self, key: &str) {
        self.remove(key);
    }
}

impl Map<serde_json::Value> for serde_json::Map<String, serde_json::Value> {
    #[inline]
    fn put(&mut self, key: String, value: serde_json::Value) {
        self.insert(key, value);
    }

    fn take(&mut self, key: &str) {
        self.remove(key);
    }
}

impl<M> Keyed<M> {
    /// An entry: the latest of a key replaces the earlier one, refused or
    /// not.
    #[inline]
    pub(crate) fn put<V>(&mut self, key: String, value: Result<V>)
    where
        M: Map<V>,
    {
        if !self.errors.is_empty() {
            self.errors.retain(|(k, _)| *k != key);
        }
        match value {
            Ok(value) => self.map.put(key, value),
            Err(e) => {
                self.map.take(&key);
                self.errors.push((key, e));
            }
        }
    }

    /// The map, or the error of the first refused key in key order (the
    /// one `from_message`, walking a `BTreeMap`, meets first), with its key.
    #[inline]
    pub(crate) fn finish(self) -> Result<M> {
        match self.errors.into_iter().min_by(|a, b| a.0.cmp(&b.0)) {
            None => Ok(self.map),
            Some((key, mut e)) => {
                e.push_key(&key);
                Err(e)
            }
        }
    }
}

/// What [`member!`] answers if the oneof it just set does not hold the
/// member, which cannot happen.
#[cold]
#[inline(never)]
pub(crate) fn member_lost() -> Error {
    wire("oneof member not set")
}

/// Sets a oneof to `member` unless it holds it already, and returns the
/// member's builder: a message member seen again merges into the one
/// being read, as prost's generated oneof `merge` does; another member
/// replaces it, dropping what it read (and any error it held).
macro_rules! member {
    ($slot:expr, $variant:path) => {{
        if !matches!($slot, $variant(_)) {
            $slot = $variant(Default::default());
        }
        match &mut $slot {
            $variant(inner) => inner,
            // The member was just set; answered, not panicked, since a
            // decoder never panics.
            _ => return Err($crate::reader::member_lost()),
        }
    }};
}
pub(crate) use member;

#[cfg(test)]
mod tests {
    use super::*;

    fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
        let mut r = Reader { buf: bytes };
        let value = r.varint().ok()?;
        Some((value, bytes.len() - r.buf.len()))
    }

    #[test]
    fn varints_as_prost_reads_them() {
        assert_eq!(varint(&[0x00]), Some((0, 1)));
        assert_eq!(varint(&[0x96, 0x01, 0xff]), Some((150, 2)));
        let mut max = vec![0xff; 9];
        max.push(0x01);
        assert_eq!(varint(&max), Some((u64::MAX, 10)));
        // A tenth byte over 1 overflows 64 bits; an eleventh is too many.
        max[9] = 0x02;
        assert_eq!(varint(&max), None);
        let mut long = vec![0x80; 10];
        long.push(0x00);
        assert_eq!(varint(&long), None);
        assert_eq!(varint(&[0x80]), None);
        assert_eq!(varint(&[]), None);
        for value in [0, 1, 127, 128, 300, 1 << 35, u64::MAX - 1, u64::MAX] {
            let mut bytes = Vec::new();
            prost::encoding::encode_varint(value, &mut bytes);
            assert_eq!(varint(&bytes), Some((value, bytes.len())));
        }
    }

    #[test]
    fn keys_refuse_number_zero_and_unknown_wire_types() {
        let key = |bytes: &[u8]| Reader { buf: bytes }.key().ok();
        assert_eq!(key(&[0x08]), Some((1, VARINT)));
        assert_eq!(key(&[0x82, 0x01]), Some((16, LEN)));
        assert_eq!(key(&[0x02]), None);
        assert_eq!(key(&[0x0e]), None);
        assert_eq!(key(&[0x0f]), None);
        assert_eq!(
            key(&[0xf8, 0xff, 0xff, 0xff, 0x0f]),
            Some((u32::MAX >> 3, 0))
        );
        assert_eq!(key(&[0x80, 0x80, 0x80, 0x80, 0x10]), None);
    }
}
