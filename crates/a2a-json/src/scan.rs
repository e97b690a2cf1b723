//! The string scan shared by the reader and the writer: where the plain
//! run of a JSON string ends, found eight bytes at a time in a `u64`
//! (portable SWAR).
//!
//! It also holds the workspace's one `unsafe` block. The scan looks at
//! every byte of the run anyway, so it records whether all were ASCII, and
//! such a run becomes a `&str` without a second pass through
//! `std::str::from_utf8` (a quarter of the time of a 1 MB request of ASCII
//! text, a tenth of a small message's). The invariant that makes it sound
//! is established and used in [`scan_text`] alone.

/// The first index at or after `from` holding `"`, `\\` or a control
/// character, or `input.len()`.
#[inline]
pub(super) fn scan(input: &[u8], from: usize) -> usize {
    scan_text(input, from).0
}

/// [`scan`], and the run from `from` to that index as text when every byte
/// of it is ASCII (`None` otherwise: it may still be UTF-8, for the caller
/// to check).
///
/// Always inlined: called out of line, its three-word result goes through
/// memory, and decoding the bench's ~50 KB Task took 3% more instructions
/// (callgrind).
#[inline(always)]
pub(super) fn scan_text(input: &[u8], from: usize) -> (usize, Option<&str>) {
    let (end, seen) = scan_end(input, from);
    let text = match input.get(from..end) {
        Some(run) if seen & HIGHS == 0 => {
            debug_assert!(run.is_ascii());
            // SAFETY: `scan_end` OR-ed every byte from `from` to `end` into
            // `seen`, and no high bit of `seen` is set: each byte is below
            // 0x80, so the run is ASCII, which is valid UTF-8.
            #[allow(unsafe_code)]
            let text = unsafe { std::str::from_utf8_unchecked(run) };
            Some(text)
        }
        _ => None,
    };
    (end, text)
}

/// The end [`scan`] finds, and every byte from `from` to it OR-ed together
/// (with a few past it, from the last word read, which can only make the
/// run look non-ASCII, never the reverse).
///
/// Each step returns as soon as it finds the end: the steps grow with the
/// string so that short ones stop early and long ones take few branches.
#[inline(always)]
fn scan_end(input: &[u8], from: usize) -> (usize, u64) {
    let mut seen = 0u64;
    let mut i = from;
    // Keys and enum names end in the first word.
    if let Some(word) = input.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*word);
        seen |= w;
        let hits = special_bytes(w);
        if hits != 0 {
            return (i + first_hit(hits), seen);
        }
        i += 8;
    }
    // Ids and short text end in the next 64 bytes: four words per branch,
    // their marks kept so the end is found without reading them again.
    for _ in 0..2 {
        let Some(block) = input.get(i..).and_then(<[u8]>::first_chunk::<32>) else {
            break;
        };
        let words = [
            word_at(&block[..8]),
            word_at(&block[8..16]),
            word_at(&block[16..24]),
            word_at(&block[24..]),
        ];
        seen |= words[0] | words[1] | words[2] | words[3];
        let marks = words.map(special_bytes);
        if let Some(k) = marks.iter().position(|&m| m != 0) {
            return (i + 8 * k + first_hit(marks[k]), seen);
        }
        i += 32;
    }
    // Long text: 64 bytes per branch, then the word that ends it.
    while let Some(block) = input.get(i..).and_then(<[u8]>::first_chunk::<64>) {
        let mut any = 0;
        for word in block.chunks_exact(8) {
            let w = word_at(word);
            seen |= w;
            any |= special_bytes(w);
        }
        if any != 0 {
            break;
        }
        i += 64;
    }
    while let Some(word) = input.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*word);
        seen |= w;
        let hits = special_bytes(w);
        if hits != 0 {
            return (i + first_hit(hits), seen);
        }
        i += 8;
    }
    // Fewer than eight bytes left: one at a time.
    while let Some(&b) = input.get(i) {
        if is_special(b) {
            break;
        }
        seen |= u64::from(b);
        i += 1;
    }
    (i, seen)
}

/// Whether no byte of `bytes` is `"`, `\\` or a control character: the
/// writer's check, on a string that has no closing quote to stop at. Eight
/// bytes per step; the last word overlaps the one before it (its bytes
/// were plain, so reading them again changes nothing), so only a string
/// under eight bytes is looked at a byte at a time.
#[inline]
pub(super) fn is_plain(bytes: &[u8]) -> bool {
    let Some(last) = bytes.last_chunk::<8>() else {
        return !bytes.iter().any(|&b| is_special(b));
    };
    let mut hits = special_bytes(u64::from_le_bytes(*last));
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        hits |= special_bytes(word_at(word));
    }
    hits == 0
}

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// The high bit of each byte of `w` that is below 0x20, `"` or `\\`
/// (little-endian order). Borrows can also mark bytes after a true hit,
/// never before one, so the lowest mark is exact.
#[inline(always)]
fn special_bytes(w: u64) -> u64 {
    let control = w.wrapping_sub(ONES * 0x20);
    let quote = (w ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (w ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    // `"` and `\\` have a clear high bit, so `!w` stands for `!(w ^ c)`.
    (control | quote | backslash) & !w & HIGHS
}

#[inline(always)]
fn word_at(bytes: &[u8]) -> u64 {
    bytes
        .first_chunk::<8>()
        .map_or(0, |w| u64::from_le_bytes(*w))
}

#[inline(always)]
fn first_hit(hits: u64) -> usize {
    hits.trailing_zeros() as usize / 8
}

#[inline]
fn is_special(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every run length across the word and block steps, the run ending
    /// at a special byte or at the end of the input, and a non-ASCII byte
    /// at every offset of it. (One just past the end may or may not turn
    /// the verdict to `None`: both are sound.)
    #[test]
    fn ends_and_ascii_verdicts_at_every_length_and_offset() {
        for len in 0..150 {
            let plain = "a".repeat(len);
            for tail in ["", "\"", "\\x", "\n", "\"é"] {
                let input = format!("{plain}{tail}");
                let (end, text) = scan_text(input.as_bytes(), 0);
                assert_eq!(end, len, "{input:?}");
                if !tail.contains('é') {
                    assert_eq!(text, Some(plain.as_str()), "{input:?}");
                }
                assert_eq!(scan(input.as_bytes(), 0), len);
            }
            for at in 0..len {
                let mut bytes = plain.clone().into_bytes();
                bytes[at] = 0xff;
                let (end, text) = scan_text(&bytes, 0);
                assert_eq!((end, text), (len, None), "0xff at {at} of {len}");
            }
            // From an offset inside the input.
            let input = format!("xyz{plain}\"");
            assert_eq!(
                scan_text(input.as_bytes(), 3),
                (len + 3, Some(plain.as_str()))
            );
        }
        assert_eq!(scan_text(b"ab", 5), (5, None));
    }

    /// `is_plain` agrees with a byte-at-a-time check for every length
    /// across the word steps and the overlapping last word, with each
    /// special byte (and a non-ASCII one, which is plain) at every offset.
    #[test]
    fn is_plain_agrees_with_a_byte_check() {
        for len in 0..40 {
            assert!(is_plain("a".repeat(len).as_bytes()), "{len}");
            for at in 0..len {
                for b in [b'"', b'\\', 0x00, 0x1f, b'\n', 0x7f, 0xc3, 0xff] {
                    let mut bytes = "a".repeat(len).into_bytes();
                    bytes[at] = b;
                    let want = !is_special(b);
                    assert_eq!(is_plain(&bytes), want, "{b:#x} at {at} of {len}");
                }
            }
        }
    }
}
