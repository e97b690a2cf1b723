//! The string scan shared by the reader and the writer: where the plain
//! run of a JSON string ends, found eight bytes at a time in a `u64`
//! (portable SWAR).
//!
//! It also holds the workspace's one `unsafe` block. The scan looks at
//! every byte of the run anyway, so it records whether all were ASCII, and
//! such a run becomes a `&str` without a second pass through
//! `std::str::from_utf8` (a quarter of the time of a 1 MB request of ASCII
//! text, a tenth of a small message's); other text goes through
//! `std::str::from_utf8`. The invariant that makes the block sound is
//! established in [`scan_end`] and used in [`checked`] alone.

/// The first index at or after `from` holding `"`, `\\` or a control
/// character, or `input.len()`.
#[inline]
pub(super) fn scan(input: &[u8], from: usize) -> usize {
    scan_end(input, from).0
}

/// [`scan`], and the run from `from` to that index as text when it is
/// UTF-8 and either all ASCII or closed by a quote (`None` otherwise: a
/// run that stops at an escape is checked once decoded, not twice).
///
/// Always inlined: called out of line, its three-word result goes through
/// memory, and decoding the bench's ~50 KB Task took 3% more instructions
/// (callgrind).
#[inline(always)]
pub(super) fn scan_text(input: &[u8], from: usize) -> (usize, Option<&str>) {
    let (end, seen) = scan_end(input, from);
    let ascii = seen & HIGHS == 0;
    let text = match input.get(from..end) {
        Some(run) if ascii || input.get(end) == Some(&b'"') => checked(run, ascii),
        _ => None,
    };
    (end, text)
}

/// `bytes` as text when they are UTF-8: `std::str::from_utf8(bytes).ok()`.
#[inline]
pub(super) fn to_str(bytes: &[u8]) -> Option<&str> {
    checked(bytes, false)
}

/// `run` as text when it is UTF-8. `ascii` must be true only when every
/// byte of `run` is known to be below 0x80 (from [`scan_end`]'s `seen`);
/// other runs are checked by `std::str::from_utf8`, the only UTF-8
/// authority here.
#[inline(always)]
fn checked(run: &[u8], ascii: bool) -> Option<&str> {
    if !ascii {
        return std::str::from_utf8(run).ok();
    }
    debug_assert!(run.is_ascii());
    // SAFETY: `ascii` holds, so every byte of `run` is below 0x80: the run
    // is ASCII, which is valid UTF-8.
    #[allow(unsafe_code)]
    let text = unsafe { std::str::from_utf8_unchecked(run) };
    Some(text)
}

/// The end [`scan`] finds, and every byte from `from` to it OR-ed together
/// (exactly: no byte past the end, so a string followed by non-ASCII text
/// is still seen as ASCII).
///
/// Each step returns as soon as it finds the end: the steps grow with the
/// string so that short ones stop early and long ones take few branches,
/// and the marks of the words that hold the end are kept, so that finding
/// it reads nothing again.
#[inline(always)]
fn scan_end(input: &[u8], from: usize) -> (usize, u64) {
    let mut seen = 0u64;
    let mut i = from;
    // Keys and enum names end in the first two words.
    for _ in 0..2 {
        let Some(word) = input.get(i..).and_then(<[u8]>::first_chunk::<8>) else {
            break;
        };
        let w = u64::from_le_bytes(*word);
        let hits = special_bytes(w);
        if hits != 0 {
            return (i + first_hit(hits), seen | (w & before(hits)));
        }
        seen |= w;
        i += 8;
    }
    // Ids and short text end in the next 32 bytes.
    if let Some(block) = input.get(i..).and_then(<[u8]>::first_chunk::<32>) {
        let words: [u64; 4] = words_of(block);
        if let Some(end) = end_in(&words, &mut seen) {
            return (i + end, seen);
        }
        i += 32;
    }
    // Long text: 64 bytes per branch.
    while let Some(block) = input.get(i..).and_then(<[u8]>::first_chunk::<64>) {
        let words: [u64; 8] = words_of(block);
        if let Some(end) = end_in(&words, &mut seen) {
            return (i + end, seen);
        }
        i += 64;
    }
    // The last bytes of the input: a word, then a byte at a time.
    while let Some(word) = input.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*word);
        let hits = special_bytes(w);
        if hits != 0 {
            return (i + first_hit(hits), seen | (w & before(hits)));
        }
        seen |= w;
        i += 8;
    }
    while let Some(&b) = input.get(i) {
        if is_special(b) {
            break;
        }
        seen |= u64::from(b);
        i += 1;
    }
    (i, seen)
}

/// The little-endian words of a block.
#[inline(always)]
fn words_of<const N: usize, const B: usize>(block: &[u8; B]) -> [u64; N] {
    let mut words = [0; N];
    for (w, bytes) in words.iter_mut().zip(block.chunks_exact(8)) {
        *w = word_at(bytes);
    }
    words
}

/// Where the first special byte of `words` is, if any; OR-s the bytes
/// before it (all of them when there is none) into `seen`. The marks of
/// every word are computed before the one branch that decides whether the
/// end is here (the compiler does them side by side).
#[inline(always)]
fn end_in<const N: usize>(words: &[u64; N], seen: &mut u64) -> Option<usize> {
    let mut marks = [0; N];
    let mut any = 0;
    for (m, &w) in marks.iter_mut().zip(words) {
        *m = special_bytes(w);
        any |= *m;
    }
    if any == 0 {
        *seen |= words.iter().fold(0, |acc, w| acc | w);
        return None;
    }
    for (k, (&m, &w)) in marks.iter().zip(words).enumerate() {
        if m != 0 {
            *seen |= w & before(m);
            return Some(8 * k + first_hit(m));
        }
        *seen |= w;
    }
    None
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

/// The bits of the bytes before the first marked one (and the low seven
/// of that one, which hold no high bit).
#[inline(always)]
fn before(hits: u64) -> u64 {
    (hits & hits.wrapping_neg()) - 1
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
    /// at every offset of it. (One just past the end costs a UTF-8 check
    /// when a quote closes the run, and changes nothing else.)
    #[test]
    fn ends_and_ascii_verdicts_at_every_length_and_offset() {
        for len in 0..150 {
            let plain = "a".repeat(len);
            for tail in ["", "\"", "\\x", "\n", "\"é"] {
                let input = format!("{plain}{tail}");
                let (end, text) = scan_text(input.as_bytes(), 0);
                assert_eq!(end, len, "{input:?}");
                assert_eq!(text, Some(plain.as_str()), "{input:?}");
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

    /// A run with non-ASCII text: text when its quote closes it and it is
    /// UTF-8; `None` when it is not, or when an escape stops it (the
    /// decoded string is checked instead).
    #[test]
    fn non_ascii_runs_are_checked_when_closed() {
        for len in 0..80 {
            let body = format!("{}é{}", "a".repeat(len), "b".repeat(len % 11));
            let n = body.len();
            let closed = format!("{body}\"");
            assert_eq!(scan_text(closed.as_bytes(), 0), (n, Some(body.as_str())));
            let escaped = format!("{body}\\n\"");
            assert_eq!(scan_text(escaped.as_bytes(), 0), (n, None));
            assert_eq!(scan_text(body.as_bytes(), 0), (n, None));
            let mut broken = closed.into_bytes();
            broken[len + 1] = b'x';
            assert_eq!(scan_text(&broken, 0), (n, None), "{len}");
        }
    }

    /// A closed run is text exactly when `std::str::from_utf8` says so, for
    /// every sequence of up to three bytes (the third from every class
    /// boundary) and four-byte ones with every lead from 0xF0 up and every
    /// second byte, at offsets across the word steps, and for every scalar
    /// value: the ASCII shortcut never lets a byte of 0x80 or above by.
    #[test]
    fn closed_runs_are_text_exactly_when_std_says() {
        const EDGES: [u8; 16] = [
            0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xf0,
            0xf4, 0xff,
        ];
        let mut closed = Vec::new();
        let mut agree = |run: &[u8]| {
            let want = std::str::from_utf8(run).ok();
            assert_eq!(to_str(run), want, "{run:x?}");
            if run.iter().any(|&b| is_special(b)) {
                return;
            }
            closed.clear();
            closed.extend_from_slice(run);
            closed.push(b'"');
            assert_eq!(scan_text(&closed, 0), (run.len(), want), "{run:x?}");
        };
        let mut buf = Vec::new();
        let mut check = |seq: &[u8], pad: usize| {
            buf.clear();
            buf.extend(std::iter::repeat_n(b'a', pad));
            buf.extend_from_slice(seq);
            agree(&buf);
            buf.extend_from_slice(b"bcdefghij");
            agree(&buf);
        };
        for a in 0..=255u8 {
            check(&[a], usize::from(a % 10));
            for b in 0..=255u8 {
                let pad = usize::from(b % 10);
                check(&[a, b], pad);
                for c in EDGES {
                    check(&[a, b, c], pad);
                    if a >= 0xf0 {
                        for d in EDGES {
                            check(&[a, b, c, d], pad);
                        }
                    }
                }
            }
        }
        let mut text = [0; 4];
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            let seq = c.encode_utf8(&mut text).as_bytes();
            check(seq, c as usize % 10);
        }
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
