//! [`SharedStr`], the string type of event types and event ids.

use std::borrow::{Borrow, Cow};
use std::cmp::Ordering;
use std::convert::Infallible;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::str::FromStr;
use std::sync::Arc;

/// Longest string stored inline, without an allocation: enough for the
/// usual event types, counters, ULIDs and UUIDs (36 bytes).
const INLINE: usize = 39;

/// An immutable UTF-8 string that is cheap to clone: the type of
/// [`Event::event_type`](crate::Event::event_type) and
/// [`Event::id`](crate::Event::id).
///
/// Strings of up to 39 bytes are stored inline (no allocation, and a clone
/// is a copy); longer ones are shared by reference count. That matters for
/// the decoder, which hands the same type and the same last event ID to
/// event after event, and for the caller, who can keep them without copying.
///
/// It behaves like a `&str`: it dereferences to [`str`], compares, orders
/// and hashes like one (so a `HashMap<SharedStr, _>` can be searched with a
/// `&str`), and converts from `&str`, `String`, `Box<str>` and `Arc<str>`.
///
/// ```
/// use a2a_sse::SharedStr;
///
/// let ty = SharedStr::from("status-update");
/// assert_eq!(ty, "status-update");
/// assert!(ty.starts_with("status"));
/// let copy = ty.clone();
/// assert_eq!(format!("{copy}"), "status-update");
/// let owned: String = copy.into();
/// assert_eq!(owned, "status-update");
/// ```
///
/// Since this crate has no `unsafe` code, turning the inline bytes back into
/// a `&str` re-checks them as UTF-8 (at most 39 bytes, a few nanoseconds);
/// [`as_bytes`](Self::as_bytes), [`len`](Self::len) and comparisons do not.
#[derive(Clone)]
pub struct SharedStr(Repr);

#[derive(Clone)]
enum Repr {
    Inline(Inline),
    Static(&'static str),
    Shared(Arc<str>),
}

/// `bytes[..len]` is valid UTF-8; `len <= INLINE`.
///
/// Aligned and a multiple of 8 bytes long, so that a copy is a few whole
/// words: with the length next to the enum tag, copies were split at odd
/// offsets into overlapping moves that defeated store-to-load forwarding,
/// which showed as the hottest instructions of the decoder.
#[derive(Clone, Copy)]
#[repr(C, align(8))]
struct Inline {
    bytes: [u8; INLINE],
    len: u8,
}

impl SharedStr {
    /// The empty string.
    pub const fn new() -> SharedStr {
        SharedStr(Repr::Inline(Inline {
            bytes: [0; INLINE],
            len: 0,
        }))
    }

    /// A string borrowed for the life of the program (no copy).
    pub const fn from_static(s: &'static str) -> SharedStr {
        SharedStr(Repr::Static(s))
    }

    /// The string, as a `&str`.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline(Inline { bytes, len }) => {
                let bytes = bytes.get(..usize::from(*len)).unwrap_or_default();
                // Only valid UTF-8 is stored inline, so the check passes;
                // without `unsafe` it is how the bytes become a `str` again.
                std::str::from_utf8(bytes).unwrap_or_default()
            }
            Repr::Static(s) => s,
            Repr::Shared(s) => s,
        }
    }

    /// The UTF-8 bytes of the string.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline(Inline { bytes, len }) => {
                bytes.get(..usize::from(*len)).unwrap_or_default()
            }
            Repr::Static(s) => s.as_bytes(),
            Repr::Shared(s) => s.as_bytes(),
        }
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Inline(inline) => usize::from(inline.len),
            Repr::Static(s) => s.len(),
            Repr::Shared(s) => s.len(),
        }
    }

    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sets the string to `bytes` decoded as UTF-8, with U+FFFD for invalid
    /// sequences. A short string overwrites an inline one in place: building
    /// a new value and moving it in costs a store-forwarding stall.
    pub(crate) fn set_from_utf8_lossy(&mut self, bytes: &[u8]) {
        if let Repr::Inline(inline) = &mut self.0 {
            if let (Some(dst), Ok(len)) = (
                inline.bytes.get_mut(..bytes.len()),
                u8::try_from(bytes.len()),
            ) {
                if bytes.is_ascii() || std::str::from_utf8(bytes).is_ok() {
                    dst.copy_from_slice(bytes);
                    inline.len = len;
                    return;
                }
            }
        }
        *self = SharedStr::from_utf8_lossy(bytes);
    }

    /// `bytes` decoded as UTF-8, with U+FFFD for invalid sequences.
    pub(crate) fn from_utf8_lossy(bytes: &[u8]) -> SharedStr {
        if let Some(inline) = SharedStr::inline(bytes) {
            if bytes.is_ascii() || std::str::from_utf8(bytes).is_ok() {
                return inline;
            }
        }
        match String::from_utf8_lossy(bytes) {
            Cow::Borrowed(s) => SharedStr::from(s),
            Cow::Owned(s) => SharedStr::from(s),
        }
    }

    /// `bytes` stored inline, if they fit; the caller checks UTF-8.
    fn inline(bytes: &[u8]) -> Option<SharedStr> {
        let len = u8::try_from(bytes.len())
            .ok()
            .filter(|&n| usize::from(n) <= INLINE)?;
        let mut buf = [0; INLINE];
        buf.get_mut(..bytes.len())?.copy_from_slice(bytes);
        Some(SharedStr(Repr::Inline(Inline { bytes: buf, len })))
    }
}

impl Default for SharedStr {
    fn default() -> Self {
        SharedStr::new()
    }
}

impl Deref for SharedStr {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for SharedStr {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for SharedStr {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl PartialEq for SharedStr {
    fn eq(&self, other: &SharedStr) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for SharedStr {}

impl PartialOrd for SharedStr {
    fn partial_cmp(&self, other: &SharedStr) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SharedStr {
    /// Byte-wise, which for UTF-8 is the order of `str`.
    fn cmp(&self, other: &SharedStr) -> Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl Hash for SharedStr {
    /// As the `str` (required by `Borrow<str>`).
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

macro_rules! eq_str {
    ($($other:ty),*) => {$(
        impl PartialEq<$other> for SharedStr {
            fn eq(&self, other: &$other) -> bool {
                self.as_bytes() == other.as_bytes()
            }
        }

        impl PartialEq<SharedStr> for $other {
            fn eq(&self, other: &SharedStr) -> bool {
                self.as_bytes() == other.as_bytes()
            }
        }
    )*};
}

eq_str!(str, &str, String);

impl From<&str> for SharedStr {
    fn from(s: &str) -> SharedStr {
        SharedStr::inline(s.as_bytes()).unwrap_or_else(|| SharedStr(Repr::Shared(Arc::from(s))))
    }
}

impl From<&String> for SharedStr {
    fn from(s: &String) -> SharedStr {
        SharedStr::from(s.as_str())
    }
}

impl From<String> for SharedStr {
    fn from(s: String) -> SharedStr {
        SharedStr::from(s.as_str())
    }
}

impl From<Box<str>> for SharedStr {
    fn from(s: Box<str>) -> SharedStr {
        SharedStr::from(&*s)
    }
}

impl From<Arc<str>> for SharedStr {
    /// Keeps sharing `s` (no copy).
    fn from(s: Arc<str>) -> SharedStr {
        SharedStr(Repr::Shared(s))
    }
}

impl From<SharedStr> for String {
    fn from(s: SharedStr) -> String {
        s.as_str().to_owned()
    }
}

impl FromStr for SharedStr {
    type Err = Infallible;

    fn from_str(s: &str) -> Result<SharedStr, Infallible> {
        Ok(SharedStr::from(s))
    }
}
