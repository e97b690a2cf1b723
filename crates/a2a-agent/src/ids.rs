//! Server-generated identifiers (spec 3.4.1, 3.4.2).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

/// Generates unique identifiers: `<kind>-<run>-<counter>`, where `run` is
/// 8 random hex digits drawn once per generator and `counter` 12 hex
/// digits counting up, so ids of one run sort in creation order and ids
/// of two runs never collide in practice.
///
/// They are unique, not secret: access to a task is decided by its owner
/// (spec 13.1), never by the id being hard to guess.
#[derive(Debug)]
pub struct IdGenerator {
    run: u32,
    counter: AtomicU64,
}

impl IdGenerator {
    /// A generator with a fresh random run number.
    pub fn new() -> IdGenerator {
        // The standard library keys every `RandomState` afresh (randomly
        // per thread, then counting), so no clock is read for the seed.
        let mut h = RandomState::new().build_hasher();
        h.write_u8(0);
        IdGenerator {
            run: h.finish() as u32,
            counter: AtomicU64::new(0),
        }
    }

    /// The next id of `kind` (`task`, `ctx`, `msg`, `artifact`, `push`).
    pub fn next(&self, kind: &str) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed) + 1;
        // Written by hand: `format!` costs about as much as the rest of a
        // task's creation.
        let mut id = String::with_capacity(kind.len() + 22);
        id.push_str(kind);
        id.push('-');
        push_hex(&mut id, u64::from(self.run), 8);
        id.push('-');
        push_hex(&mut id, n, 12);
        id
    }
}

/// Appends the low `digits` (at most 16) hex digits of `value`,
/// zero-padded: written into a buffer and appended at once, not pushed a
/// `char` at a time.
fn push_hex(out: &mut String, value: u64, digits: usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [b'0'; 16];
    let digits = digits.min(buf.len());
    for (i, b) in buf[..digits].iter_mut().rev().enumerate() {
        *b = HEX[((value >> (4 * i)) & 0xf) as usize];
    }
    // Hex digits are ASCII.
    out.push_str(std::str::from_utf8(&buf[..digits]).unwrap_or_default());
}

impl Default for IdGenerator {
    fn default() -> IdGenerator {
        IdGenerator::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_sort_in_creation_order() {
        let g = IdGenerator::new();
        let ids: Vec<_> = (0..1000).map(|_| g.next("task")).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, ids);
        assert!(ids[0].starts_with("task-") && ids[0].len() == "task-".len() + 8 + 1 + 12);
        assert_ne!(IdGenerator::new().next("t"), IdGenerator::new().next("t"));
        let g = IdGenerator {
            run: 0x0123_abcd,
            counter: AtomicU64::new(0x2f),
        };
        assert_eq!(
            g.next("task"),
            format!("task-{:08x}-{:012x}", 0x0123_abcd, 0x30)
        );
    }
}
