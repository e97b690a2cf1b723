//! The JSON number grammar (RFC 8259 section 6), needed with or without
//! the fast reader: the ProtoJSON int32 reader and JSON-RPC ids check
//! numbers' text with it.

/// Whether `text` is exactly one JSON number (RFC 8259 section 6).
pub(super) fn is_number(text: &[u8]) -> bool {
    number_end(text, 0, false) == Some(text.len())
}

/// Where the number starting at `start` ends (RFC 8259 section 6), or
/// `None` if none starts there. With `leading_zeros`, the integer part may
/// also be several digits starting with `0`, as protobuf's parsers accept
/// in quoted integers.
pub fn number_end(input: &[u8], start: usize, leading_zeros: bool) -> Option<usize> {
    let mut i = start;
    if input.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match input.get(i) {
        Some(b'0') if !leading_zeros => i + 1,
        Some(b'0'..=b'9') => digits(input, i + 1),
        _ => return None,
    };
    if input.get(i) == Some(&b'.') {
        let end = digits(input, i + 1);
        if end == i + 1 {
            return None;
        }
        i = end;
    }
    if matches!(input.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(input.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = digits(input, i);
        if end == i {
            return None;
        }
        i = end;
    }
    Some(i)
}

fn digits(input: &[u8], mut i: usize) -> usize {
    while input.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}
