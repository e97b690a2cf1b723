//! A strict JSON reader that drives `serde` visitors: the first pass of
//! [`try_from_slice`](super::try_from_slice) with the `fast-json` feature.
//!
//! It reads the documents `serde_json` reads, less a few rare forms, and
//! hands visitors the same calls, so every `Deserialize` impl (the crate's
//! own, derived ones, `serde_json::Value`) builds the same value. It is
//! faster on this crate's traffic because it does less per string: one
//! pass ([`scan_text`]) finds the end of a string and, when it is all
//! ASCII, its text without a UTF-8 check (other text gets a check that
//! skips ASCII a word at a time); object keys read as bytes are not UTF-8
//! checked at all.
//!
//! What it does not do is explain. Anything it does not accept comes back
//! as [`Declined`] (the `json` module's documentation lists what
//! it leaves to `serde_json`). The guarantee the tests check (`tests/reader.rs`, the
//! `reader_differential` fuzz target) is one-sided: when this reader
//! returns a value, `serde_json` returns an equal one.

use super::number::number_end;
use super::scan::{scan, scan_text, to_str};
use super::{Declined, RAW_VALUE_TOKEN};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

/// How deep arrays and objects may nest: `serde_json`'s own recursion
/// limit, less one ([`RECURSION_LIMIT`](crate::RECURSION_LIMIT)).
const MAX_DEPTH: usize = crate::limits::RECURSION_LIMIT - 1;

type Result<T> = std::result::Result<T, Declined>;

/// Decodes one JSON document (whitespace around it allowed, nothing else)
/// through a [`DeserializeSeed`].
pub(super) fn from_slice_seed<'de, S: DeserializeSeed<'de>>(
    input: &'de [u8],
    seed: S,
) -> Result<S::Value> {
    let mut reader = Reader::new(input);
    // The result is returned as it came (not unwrapped and rewrapped),
    // which spares a copy of large values; the same below.
    let result = seed.deserialize(&mut reader);
    if reader.peek().is_some() {
        return Err(Declined);
    }
    result
}

/// The reader: a position in the input and a scratch buffer for strings
/// with escapes.
struct Reader<'de> {
    input: &'de [u8],
    pos: usize,
    depth: usize,
    scratch: Vec<u8>,
}

/// A string as read: borrowed from the input when it had no escapes,
/// otherwise in the scratch buffer.
enum Text<'de, 's, T: ?Sized> {
    Borrowed(&'de T),
    Copied(&'s T),
}

impl<'de> Reader<'de> {
    fn new(input: &'de [u8]) -> Reader<'de> {
        Reader {
            input,
            pos: 0,
            depth: 0,
            scratch: Vec::new(),
        }
    }

    /// The next byte that is not JSON whitespace, not consumed.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        loop {
            let b = *self.input.get(self.pos)?;
            if !matches!(b, b' ' | b'\n' | b'\t' | b'\r') {
                return Some(b);
            }
            self.pos += 1;
        }
    }

    #[inline]
    fn expect(&mut self, byte: u8) -> Result<()> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Declined)
        }
    }

    /// Consumes `word` (`null`, `true`, `false`) at the current position.
    #[inline]
    fn literal(&mut self, word: &[u8]) -> Result<()> {
        if self.input[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(Declined)
        }
    }

    #[inline]
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(Declined)
        } else {
            Ok(())
        }
    }

    /// Consumes one number (RFC 8259 section 6) and returns its text.
    fn number(&mut self) -> Result<&'de [u8]> {
        let start = self.pos;
        let end = number_end(self.input, start, false).ok_or(Declined)?;
        // A digit right after the number can only follow a leading zero
        // (`0769`): serde_json refuses it as the number itself, which a
        // caller that stops after this value (`peek_id`) must see.
        if self.input.get(end).is_some_and(u8::is_ascii_digit) {
            return Err(Declined);
        }
        self.pos = end;
        Ok(&self.input[start..end])
    }

    /// Reads a string's content after its opening quote, consuming the
    /// closing one, as bytes: escapes decoded, UTF-8 not checked (as
    /// `serde_json` reads strings as bytes).
    #[inline]
    fn string_bytes<'s>(&'s mut self) -> Result<Text<'de, 's, [u8]>> {
        let input = self.input;
        let start = self.pos;
        let end = scan(input, start);
        match input.get(end) {
            Some(b'"') => {
                self.pos = end + 1;
                Ok(Text::Borrowed(&input[start..end]))
            }
            Some(b'\\') => self.string_escaped(start, end).map(Text::Copied),
            _ => Err(Declined),
        }
    }

    /// The rest of a string that has an escape at `escape`, decoded into
    /// the scratch buffer.
    #[cold]
    fn string_escaped(&mut self, start: usize, mut escape: usize) -> Result<&[u8]> {
        let input = self.input;
        self.scratch.clear();
        self.scratch.extend_from_slice(&input[start..escape]);
        loop {
            let mut i = escape + 1;
            let byte = match input.get(i) {
                Some(b) => *b,
                None => return Err(Declined),
            };
            i += 1;
            match byte {
                b'"' | b'\\' | b'/' => self.scratch.push(byte),
                b'b' => self.scratch.push(0x08),
                b'f' => self.scratch.push(0x0c),
                b'n' => self.scratch.push(b'\n'),
                b'r' => self.scratch.push(b'\r'),
                b't' => self.scratch.push(b'\t'),
                b'u' => {
                    let unit = hex4(input, i)?;
                    i += 4;
                    let c = match unit {
                        0xD800..=0xDBFF => {
                            if input.get(i..i + 2) != Some(b"\\u") {
                                return Err(Declined);
                            }
                            let low = hex4(input, i + 2)?;
                            if !(0xDC00..=0xDFFF).contains(&low) {
                                return Err(Declined);
                            }
                            i += 6;
                            let code = 0x10000
                                + ((u32::from(unit) - 0xD800) << 10)
                                + (u32::from(low) - 0xDC00);
                            char::from_u32(code).ok_or(Declined)?
                        }
                        // A lone trailing surrogate: serde_json refuses it
                        // in text and writes WTF-8 for bytes; leave both
                        // to it.
                        0xDC00..=0xDFFF => return Err(Declined),
                        _ => char::from_u32(u32::from(unit)).ok_or(Declined)?,
                    };
                    let mut buf = [0u8; 4];
                    self.scratch
                        .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                _ => return Err(Declined),
            }
            let end = scan(input, i);
            self.scratch
                .extend_from_slice(&input[i..end.min(input.len())]);
            match input.get(end) {
                Some(b'"') => {
                    self.pos = end + 1;
                    return Ok(&self.scratch);
                }
                Some(b'\\') => escape = end,
                _ => return Err(Declined),
            }
        }
    }

    /// Reads a string as text, after its opening quote.
    #[inline]
    fn string<'s>(&'s mut self) -> Result<Text<'de, 's, str>> {
        let input = self.input;
        let start = self.pos;
        let (end, text) = scan_text(input, start);
        match input.get(end) {
            Some(b'"') => {
                self.pos = end + 1;
                // A run closed by its quote comes back as text unless it
                // is not UTF-8.
                Ok(Text::Borrowed(text.ok_or(Declined)?))
            }
            Some(b'\\') => {
                let bytes = self.string_escaped(start, end)?;
                Ok(Text::Copied(to_str(bytes).ok_or(Declined)?))
            }
            _ => Err(Declined),
        }
    }

    #[inline]
    fn visit_string<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.string()? {
            Text::Borrowed(s) => visitor.visit_borrowed_str(s),
            Text::Copied(s) => visitor.visit_str(s),
        }
    }

    #[inline]
    fn visit_bytes<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.string_bytes()? {
            Text::Borrowed(b) => visitor.visit_borrowed_bytes(b),
            Text::Copied(b) => visitor.visit_bytes(b),
        }
    }

    /// Hands the number at the current position to `serde_json`.
    fn visit_number<V, F>(&mut self, visitor: V, method: F) -> Result<V::Value>
    where
        V: Visitor<'de>,
        F: FnOnce(
            &mut serde_json::Deserializer<serde_json::de::SliceRead<'de>>,
            V,
        ) -> std::result::Result<V::Value, serde_json::Error>,
    {
        let token = self.number()?;
        let mut de = serde_json::Deserializer::from_slice(token);
        let value = method(&mut de, visitor).map_err(|_| Declined)?;
        de.end().map_err(|_| Declined)?;
        Ok(value)
    }

    /// Skips one value, checking it as `serde_json` checks what it ignores
    /// (string escapes but not UTF-8), without recursion.
    fn skip_value(&mut self) -> Result<()> {
        // One bit per open container: 1 for an object.
        let mut stack: u128 = 0;
        let mut depth = 0u32;
        loop {
            // A value.
            match self.peek().ok_or(Declined)? {
                b'"' => {
                    self.pos += 1;
                    self.string_bytes()?;
                }
                b'n' => self.literal(b"null")?,
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'-' | b'0'..=b'9' => {
                    self.number()?;
                }
                open @ (b'[' | b'{') => {
                    self.pos += 1;
                    if depth == 127 {
                        return Err(Declined);
                    }
                    let object = open == b'{';
                    stack = (stack << 1) | u128::from(object);
                    depth += 1;
                    let close = if object { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.pos += 1;
                        stack >>= 1;
                        depth -= 1;
                    } else {
                        if object {
                            self.object_key()?;
                        }
                        continue;
                    }
                }
                _ => return Err(Declined),
            }
            // After a value: close containers or move to the next member.
            loop {
                if depth == 0 {
                    return Ok(());
                }
                let object = stack & 1 == 1;
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        if object {
                            self.object_key()?;
                        }
                        break;
                    }
                    Some(b'}') if object => {}
                    Some(b']') if !object => {}
                    _ => return Err(Declined),
                }
                self.pos += 1;
                stack >>= 1;
                depth -= 1;
            }
        }
    }

    /// Skips an object key and its colon, for [`Reader::skip_value`].
    fn object_key(&mut self) -> Result<()> {
        self.expect(b'"')?;
        self.string_bytes()?;
        self.expect(b':')
    }

    /// Skips one value and returns its text, which must be UTF-8.
    fn raw_value(&mut self) -> Result<&'de str> {
        let first = self.peek().ok_or(Declined)?;
        let start = self.pos;
        // A number (a JSON-RPC id, typically) is one token: no need for the
        // container walk of `skip_value`.
        if matches!(first, b'-' | b'0'..=b'9') {
            self.number()?;
        } else {
            self.skip_value()?;
        }
        to_str(&self.input[start..self.pos]).ok_or(Declined)
    }
}

fn hex4(input: &[u8], at: usize) -> Result<u16> {
    let digits = input.get(at..at + 4).ok_or(Declined)?;
    let mut value = 0u16;
    for &d in digits {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return Err(Declined),
        };
        value = (value << 4) | u16::from(v);
    }
    Ok(value)
}

/// Methods this reader leaves to `serde_json`.
macro_rules! decline {
    ($($method:ident),+ $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
                Err(Declined)
            }
        )+
    };
}

/// Number methods: a number is handed to the same `serde_json` method.
macro_rules! numbers {
    ($($method:ident),+ $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
                match self.peek() {
                    Some(b'-' | b'0'..=b'9') => {
                        self.visit_number(visitor, |de, v| de.$method(v))
                    }
                    _ => Err(Declined),
                }
            }
        )+
    };
}

impl<'de> Deserializer<'de> for &mut Reader<'de> {
    type Error = Declined;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek().ok_or(Declined)? {
            b'"' => {
                self.pos += 1;
                self.visit_string(visitor)
            }
            b'{' => self.deserialize_map(visitor),
            b'[' => self.deserialize_seq(visitor),
            b'n' => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            b't' => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            b'-' | b'0'..=b'9' => self.visit_number(visitor, |de, v| de.deserialize_any(v)),
            _ => Err(Declined),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b't') => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            _ => Err(Declined),
        }
    }

    numbers!(
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
    );

    decline!(deserialize_char);

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'"')?;
        self.visit_string(visitor)
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    /// A string's content as bytes, unchecked for UTF-8 (arrays of numbers,
    /// which `serde_json` also reads as bytes, are declined).
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'"')?;
        self.visit_bytes(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_unit()
        } else {
            Err(Declined)
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    /// `serde_json::value::RawValue` asks for its raw text through a
    /// private newtype name; answered as `serde_json` answers it.
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == RAW_VALUE_TOKEN {
            let raw = self.raw_value()?;
            visitor.visit_map(RawValueAccess { raw: Some(raw) })
        } else {
            visitor.visit_newtype_struct(self)
        }
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'[')?;
        self.enter()?;
        let result = visitor.visit_seq(Seq {
            reader: &mut *self,
            first: true,
        });
        self.depth -= 1;
        self.expect(b']')?;
        result
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'{')?;
        self.enter()?;
        let result = visitor.visit_map(Map {
            reader: &mut *self,
            first: true,
        });
        self.depth -= 1;
        self.expect(b'}')?;
        result
    }

    /// Objects only: a struct written as an array is left to `serde_json`.
    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }

    /// Unit variants written as strings; other forms are left to
    /// `serde_json`. As there, the variant's seed reads the string from
    /// the reader itself: a string deserializer would also answer a seed
    /// asking for a number, which `serde_json` refuses.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if self.peek() != Some(b'"') {
            return Err(Declined);
        }
        visitor.visit_enum(UnitVariant { reader: self })
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_value()?;
        visitor.visit_unit()
    }
}

/// An enum value written as a string: a unit variant, named by the
/// string at the reader's position.
struct UnitVariant<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

impl<'de> EnumAccess<'de> for UnitVariant<'_, 'de> {
    type Error = Declined;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let variant = seed.deserialize(&mut *self.reader)?;
        Ok((variant, self))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant<'_, 'de> {
    type Error = Declined;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    // A string names a unit variant only (as in serde_json).
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        Err(Declined)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(Declined)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Declined)
    }
}

struct Seq<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> SeqAccess<'de> for Seq<'_, 'de> {
    type Error = Declined;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        match self.reader.peek() {
            Some(b']') => return Ok(None),
            Some(b',') if !self.first => {
                self.reader.pos += 1;
                // `[1,]` is refused by serde_json whatever the element,
                // even one whose `Deserialize` reads nothing.
                if self.reader.peek() == Some(b']') {
                    return Err(Declined);
                }
            }
            Some(_) if self.first => self.first = false,
            _ => return Err(Declined),
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

struct Map<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> MapAccess<'de> for Map<'_, 'de> {
    type Error = Declined;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.reader.peek() {
            Some(b'}') => return Ok(None),
            Some(b',') if !self.first => {
                self.reader.pos += 1;
                self.reader.expect(b'"')?;
            }
            Some(b'"') if self.first => {
                self.first = false;
                self.reader.pos += 1;
            }
            _ => return Err(Declined),
        }
        // A key whose `Deserialize` reads nothing would leave its text to
        // be read as the colon and the value; serde_json refuses it.
        let start = self.reader.pos;
        let key = seed.deserialize(Key {
            reader: &mut *self.reader,
        })?;
        if self.reader.pos == start {
            return Err(Declined);
        }
        Ok(Some(key))
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.reader.expect(b':')?;
        seed.deserialize(&mut *self.reader)
    }
}

/// An object key, its opening quote already consumed.
struct Key<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

impl<'de> Deserializer<'de> for Key<'_, 'de> {
    type Error = Declined;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.reader.visit_string(visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.reader.visit_string(visitor)
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.reader.visit_string(visitor)
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.reader.visit_string(visitor)
    }

    /// Keys read as bytes are not UTF-8 checked, as in `serde_json`.
    #[inline]
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.reader.visit_bytes(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.reader.visit_bytes(visitor)
    }

    /// Checked as text: `serde_json` reads an ignored key as a string
    /// (unlike an ignored value), so a key that is not UTF-8 fails there.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.reader.string()?;
        visitor.visit_unit()
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == RAW_VALUE_TOKEN {
            return Err(Declined);
        }
        visitor.visit_newtype_struct(self)
    }

    // Keys read as numbers, booleans or containers: left to serde_json.
    decline!(
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
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Declined)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(Declined)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Declined)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Declined)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Declined)
    }
}

/// The one-entry map `RawValue` expects: the token as key, the text as a
/// borrowed string value.
struct RawValueAccess<'de> {
    raw: Option<&'de str>,
}

impl<'de> MapAccess<'de> for RawValueAccess<'de> {
    type Error = Declined;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.raw.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(RAW_VALUE_TOKEN))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let raw = self.raw.take().ok_or(Declined)?;
        seed.deserialize(de::value::BorrowedStrDeserializer::new(raw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::Value;

    fn from_slice<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<T> {
        from_slice_seed(input, std::marker::PhantomData)
    }

    fn agree(json: &str) {
        let ours = from_slice::<Value>(json.as_bytes());
        let theirs = serde_json::from_str::<Value>(json);
        match (ours, theirs) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{json}"),
            (Ok(a), Err(e)) => panic!("{json}: reader accepted {a} where serde_json said {e}"),
            (Err(_), _) => {}
        }
    }

    #[test]
    fn reads_what_serde_json_reads() {
        for json in [
            r#"{"a":[1,-2,3.5,-0,1e300,true,false,null,"x\u00e9\n"],"b":{}}"#,
            " [ ] ",
            r#""\ud83d\ude00""#,
            "18446744073709551616",
            "-9223372036854775809",
            "0.1e-2",
        ] {
            agree(json);
            assert!(from_slice::<Value>(json.as_bytes()).is_ok(), "{json}");
        }
        // Out of f64's range: serde_json refuses it, so must the reader.
        agree("1e400");
    }

    #[test]
    fn declines_what_serde_json_refuses() {
        for json in [
            "",
            " ",
            "[1,]",
            r#"{"a":1,}"#,
            "[1 2]",
            "01",
            "1.",
            "-",
            "1e",
            r#""\ud800""#,
            r#""\udc00""#,
            "\"a\u{1}\"",
            "nul",
            "[",
            "{",
            r#"{"a"}"#,
            r#"{1:2}"#,
            "tru",
            "\"\\x\"",
            "[]x",
            "\u{feff}[]",
        ] {
            assert_eq!(
                from_slice::<Value>(json.as_bytes()),
                Err(Declined),
                "{json:?}"
            );
            assert!(serde_json::from_str::<Value>(json).is_err(), "{json:?}");
        }
        assert_eq!(from_slice::<Value>(b"\"\xff\""), Err(Declined));
    }

    #[test]
    fn nesting_stops_at_the_limit() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(from_slice::<Value>(ok.as_bytes()).is_ok());
        assert!(serde_json::from_str::<Value>(&ok).is_ok());
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(from_slice::<Value>(deep.as_bytes()), Err(Declined));
        assert!(serde_json::from_str::<Value>(&deep).is_err());
        // Skipped values are bounded too, without recursion.
        let skipped = format!("{{\"x\":{}1{}}}", "[".repeat(200), "]".repeat(200));
        assert_eq!(
            from_slice::<serde::de::IgnoredAny>(skipped.as_bytes()),
            Err(Declined)
        );
    }

    #[test]
    fn strings_of_every_length_find_their_end() {
        for len in 0..70 {
            for special in ["\"", "\\n", "é", "\u{1}"] {
                let body = format!("{}{special}{}", "a".repeat(len), "b".repeat(len % 17));
                let json = serde_json::to_string(&body).unwrap();
                assert_eq!(
                    from_slice::<String>(json.as_bytes()).unwrap(),
                    body,
                    "{json}"
                );
            }
        }
    }

    #[test]
    fn raw_values_come_back_as_text() {
        #[derive(Deserialize)]
        struct Envelope<'a> {
            #[serde(borrow)]
            id: &'a serde_json::value::RawValue,
        }
        let e: Envelope = from_slice(br#"{"id": -1.50 }"#).unwrap();
        assert_eq!(e.id.get(), "-1.50");
        let e: Envelope = from_slice(br#"{"id":{"a":[1,"\u00e9"]}}"#).unwrap();
        assert_eq!(e.id.get(), r#"{"a":[1,"\u00e9"]}"#);
    }
}
