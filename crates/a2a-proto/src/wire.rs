//! The protobuf wire format as the writer needs it: varints, field keys,
//! and the two [`Sink`]s one [`ProtoWrite`] impl writes its fields into,
//! first to measure, then to write.
//!
//! Encoding rules are those of the protobuf encoding guide
//! (<https://protobuf.dev/programming-guides/encoding/>): a field is a key
//! (`number << 3 | wire type`) then its value; a varint is 7 bits per
//! byte, low first; a negative `int32`/`int64` is its two's complement as
//! a 64-bit varint (10 bytes); length-delimited values (strings, bytes,
//! messages) are a varint length then the bytes.
//!
//! # Why two passes, and why a bounded record of lengths
//!
//! A nested message is written after its length, which is known only once
//! the message is. prost answers by calling `encoded_len` on each nested
//! message as it writes it, so a field at depth `d` is measured `d + 1`
//! times. Here a first pass ([`Measure`]) measures the whole value once,
//! for the exact size of the buffer, and records the lengths of the first
//! [`RECORDED`] nested messages in the order they will be written (a
//! message before the messages inside it); the second pass ([`Writer`])
//! takes them in that order. Past the record, the writer measures the
//! next nested message just before writing it, recording its own nested
//! messages the same way.
//!
//! The bound keeps the record on the stack: no allocation, however large
//! the value; and a large document (a task of thousands of messages) is
//! written one small subtree at a time, each still in cache from being
//! measured. Both passes run the same `write_fields` code, so they cannot
//! disagree on which fields exist.

/// A value that writes itself as the fields of a protobuf message.
///
/// Public in a private module, so [`Protobuf`](crate::Protobuf) can require it while only
/// this crate implements it (the impls are in `write.rs`): every type with a protobuf form has a writer,
/// and the writer's bytes are checked against prost's for every one.
pub trait ProtoWrite {
    /// Writes this message's fields (not its own key or length) into `sink`.
    fn write_fields<S: Sink>(&self, sink: &mut S);
}

/// Wire type 0: varint (`int32`, `int64`, `bool`, enums).
const VARINT: u32 = 0;
/// Wire type 1: 64-bit little-endian (`double`).
const I64: u32 = 1;
/// Wire type 2: length-delimited (`string`, `bytes`, messages).
const LEN: u32 = 2;

/// The encoded length of `value` as a varint: 1 to 10 bytes.
#[inline]
const fn varint_len(value: u64) -> usize {
    // 7 bits a byte: (highest set bit / 7) + 1, computed without a branch
    // (`| 1` makes zero count as one byte).
    ((value | 1).ilog2() as usize * 9 + 73) / 64
}

/// The length of a field key: one byte for numbers up to 15.
#[inline]
const fn key_len(number: u32) -> usize {
    varint_len((number as u64) << 3)
}

/// Appends `value` as a varint.
#[inline]
fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        // Truncation intended: the low 7 bits, with the continuation bit.
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends a field key.
#[inline]
fn put_key(out: &mut Vec<u8>, number: u32, wire_type: u32) {
    put_varint(out, u64::from(number << 3 | wire_type));
}

/// Where a message's fields go: [`Measure`] counts them, [`Writer`]
/// writes them. The four required methods write a field unconditionally
/// (oneof members and repeated elements, which are written even when
/// default); the provided ones apply proto3's presence rules as prost's
/// generated code does: a plain scalar or string is skipped when it is
/// the default, an `optional` one or a message is written when set.
///
/// Public in a private module: a bound of [`ProtoWrite`], which this
/// crate alone implements.
pub trait Sink: Sized {
    /// A varint field, written even when zero.
    fn varint_field(&mut self, number: u32, value: u64);

    /// A 64-bit field (`double` bits), written even when zero.
    fn fixed64_field(&mut self, number: u32, bits: u64);

    /// A length-delimited field of raw bytes, written even when empty.
    fn bytes_field(&mut self, number: u32, bytes: &[u8]);

    /// A message field, written even when the message is empty.
    fn message_field<M: ProtoWrite + ?Sized>(&mut self, number: u32, message: &M);

    /// A proto3 `string` (or `bytes`): skipped when empty.
    #[inline]
    fn string(&mut self, number: u32, value: &str) {
        if !value.is_empty() {
            self.bytes_field(number, value.as_bytes());
        }
    }

    /// An `optional string`: written when set, even empty.
    #[inline]
    fn opt_string(&mut self, number: u32, value: Option<&str>) {
        if let Some(value) = value {
            self.bytes_field(number, value.as_bytes());
        }
    }

    /// A `repeated string`: every element, empty ones included.
    #[inline]
    fn strings(&mut self, number: u32, values: &[String]) {
        for value in values {
            self.bytes_field(number, value.as_bytes());
        }
    }

    /// An `int32` or enum: skipped when zero; a negative one is 10 bytes.
    #[inline]
    fn int32(&mut self, number: u32, value: i32) {
        if value != 0 {
            self.opt_int32(number, Some(value));
        }
    }

    /// An `optional int32`: written when set, even zero.
    #[inline]
    fn opt_int32(&mut self, number: u32, value: Option<i32>) {
        if let Some(value) = value {
            // Sign-extended to 64 bits, as the encoding guide says of
            // negative int32s.
            self.varint_field(number, i64::from(value) as u64);
        }
    }

    /// An `int64`: skipped when zero.
    #[inline]
    fn int64(&mut self, number: u32, value: i64) {
        if value != 0 {
            self.opt_int64(number, Some(value));
        }
    }

    /// An `optional int64`: written when set, even zero.
    #[inline]
    fn opt_int64(&mut self, number: u32, value: Option<i64>) {
        if let Some(value) = value {
            self.varint_field(number, value as u64);
        }
    }

    /// A `bool`: skipped when false.
    #[inline]
    fn bool(&mut self, number: u32, value: bool) {
        if value {
            self.varint_field(number, 1);
        }
    }

    /// An `optional bool`: written when set, even false.
    #[inline]
    fn opt_bool(&mut self, number: u32, value: Option<bool>) {
        if let Some(value) = value {
            self.varint_field(number, u64::from(value));
        }
    }

    /// An optional message field: written when set.
    #[inline]
    fn opt_message<M: ProtoWrite + ?Sized>(&mut self, number: u32, message: Option<&M>) {
        if let Some(message) = message {
            self.message_field(number, message);
        }
    }

    /// A `repeated` message field: every element.
    #[inline]
    fn messages<M: ProtoWrite>(&mut self, number: u32, messages: &[M]) {
        for message in messages {
            self.message_field(number, message);
        }
    }
}

/// How many nested messages' lengths one measurement records: 64, half a
/// kilobyte of stack, holds every nested message of a typical request or
/// of one history message.
const RECORDED: usize = 64;

/// The recorded lengths of nested messages, in the order they are
/// written, and how far the writer has taken them.
#[derive(Debug)]
struct Lengths {
    /// `slots[..count]` are recorded; `slots[..next]` taken.
    slots: [usize; RECORDED],
    count: usize,
    next: usize,
}

impl Lengths {
    fn new() -> Lengths {
        Lengths {
            slots: [0; RECORDED],
            count: 0,
            next: 0,
        }
    }

    /// The encoded length of `message`'s fields, recording from scratch
    /// the lengths of the first [`RECORDED`] messages nested in it.
    fn measure<M: ProtoWrite + ?Sized>(&mut self, message: &M) -> usize {
        self.count = 0;
        self.next = 0;
        let mut measure = Measure {
            len: 0,
            lengths: self,
        };
        message.write_fields(&mut measure);
        measure.len
    }
}

/// Appends the encoding of `message` (its fields, without a key or length
/// of its own) to `out`, after `reserve` (`Vec::reserve` or
/// `Vec::reserve_exact`) has made room for its exact length.
#[inline]
pub(crate) fn append<M: ProtoWrite + ?Sized>(
    message: &M,
    out: &mut Vec<u8>,
    reserve: fn(&mut Vec<u8>, usize),
) {
    // One record for both passes, on this frame: nothing is allocated or
    // moved but the output.
    let mut lengths = Lengths::new();
    let len = lengths.measure(message);
    reserve(out, len);
    let start = out.len();
    message.write_fields(&mut Writer {
        out,
        lengths: &mut lengths,
    });
    debug_assert_eq!(out.len() - start, len, "the two passes disagree");
}

/// The first pass: adds up a message's encoded length, recording nested
/// messages' lengths while there is room.
#[derive(Debug)]
struct Measure<'a> {
    /// Bytes of the message being measured so far.
    len: usize,
    lengths: &'a mut Lengths,
}

impl Sink for Measure<'_> {
    #[inline]
    fn varint_field(&mut self, number: u32, value: u64) {
        self.len += key_len(number) + varint_len(value);
    }

    #[inline]
    fn fixed64_field(&mut self, number: u32, _bits: u64) {
        self.len += key_len(number) + 8;
    }

    #[inline]
    fn bytes_field(&mut self, number: u32, bytes: &[u8]) {
        self.len += key_len(number) + varint_len(bytes.len() as u64) + bytes.len();
    }

    #[inline]
    fn message_field<M: ProtoWrite + ?Sized>(&mut self, number: u32, message: &M) {
        // The slot is taken before the message's own nested messages, so
        // the record is in writing order, and it is a prefix of that
        // order: once full, no later message is recorded.
        let slot = self.lengths.count;
        if slot < RECORDED {
            self.lengths.count += 1;
        }
        let outer = std::mem::take(&mut self.len);
        message.write_fields(self);
        let len = std::mem::replace(&mut self.len, outer);
        if slot < RECORDED {
            self.lengths.slots[slot] = len;
        }
        self.len += key_len(number) + varint_len(len as u64) + len;
    }
}

/// The second pass: the bytes, each nested message's length taken from
/// the record or, past it, measured just before the message is written.
#[derive(Debug)]
struct Writer<'a> {
    out: &'a mut Vec<u8>,
    lengths: &'a mut Lengths,
}

impl Sink for Writer<'_> {
    #[inline]
    fn varint_field(&mut self, number: u32, value: u64) {
        put_key(self.out, number, VARINT);
        put_varint(self.out, value);
    }

    #[inline]
    fn fixed64_field(&mut self, number: u32, bits: u64) {
        put_key(self.out, number, I64);
        self.out.extend_from_slice(&bits.to_le_bytes());
    }

    #[inline]
    fn bytes_field(&mut self, number: u32, bytes: &[u8]) {
        put_key(self.out, number, LEN);
        put_varint(self.out, bytes.len() as u64);
        self.out.extend_from_slice(bytes);
    }

    #[inline]
    fn message_field<M: ProtoWrite + ?Sized>(&mut self, number: u32, message: &M) {
        let lengths = &mut *self.lengths;
        // The record is a prefix of the writing order, so while it lasts
        // its next length is this message's; once it is used up, no
        // message from here to the end of the current subtree was
        // recorded, and this one starts a new record.
        let len = if lengths.next < lengths.count {
            lengths.next += 1;
            lengths.slots[lengths.next - 1]
        } else {
            lengths.measure(message)
        };
        put_key(self.out, number, LEN);
        put_varint(self.out, len as u64);
        message.write_fields(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_lengths_and_bytes_match_the_encoding_guide() {
        let cases: &[(u64, &[u8])] = &[
            (0, &[0x00]),
            (1, &[0x01]),
            (127, &[0x7f]),
            (128, &[0x80, 0x01]),
            (150, &[0x96, 0x01]),
            (16_383, &[0xff, 0x7f]),
            (16_384, &[0x80, 0x80, 0x01]),
            (
                u64::MAX,
                &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            ),
        ];
        for &(value, bytes) in cases {
            let mut out = Vec::new();
            put_varint(&mut out, value);
            assert_eq!(out, bytes, "{value}");
            assert_eq!(varint_len(value), bytes.len(), "{value}");
            assert_eq!(
                varint_len(value),
                prost::encoding::encoded_len_varint(value),
                "{value}"
            );
        }
        for shift in 0..64 {
            let value = 1u64 << shift;
            for v in [value - 1, value, value | (value - 1)] {
                assert_eq!(varint_len(v), prost::encoding::encoded_len_varint(v));
            }
        }
    }

    #[test]
    fn keys_grow_past_field_15() {
        assert_eq!(key_len(15), 1);
        assert_eq!(key_len(16), 2);
        assert_eq!(key_len(536_870_911), 5);
        let mut out = Vec::new();
        put_key(&mut out, 16, LEN);
        assert_eq!(out, [0x82, 0x01]);
    }
}
