//! Batches (JSON-RPC 2.0 section 6): an array of requests split into its
//! elements, each decoded by [`decode_request`](crate::decode_request), and
//! their responses joined into one array.

use std::fmt;

use a2a_types::{A2aError, ErrorKind};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::id::Id;
use crate::response::ErrorResponse;

/// Default for [`BatchLimits::max_len`]: 32 requests.
pub const DEFAULT_MAX_BATCH_LEN: usize = 32;

/// Default for [`BatchLimits::max_size`]: 1 MiB.
pub const DEFAULT_MAX_BATCH_SIZE: usize = 1024 * 1024;

/// The bounds of a batch, checked before any element is decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct BatchLimits {
    /// Most requests in one batch. Default [`DEFAULT_MAX_BATCH_LEN`].
    pub max_len: usize,
    /// Largest batch body, in bytes. Default [`DEFAULT_MAX_BATCH_SIZE`].
    pub max_size: usize,
}

impl BatchLimits {
    /// The defaults.
    pub const fn new() -> BatchLimits {
        BatchLimits {
            max_len: DEFAULT_MAX_BATCH_LEN,
            max_size: DEFAULT_MAX_BATCH_SIZE,
        }
    }

    /// Sets the most requests in one batch.
    pub const fn with_max_len(mut self, max: usize) -> BatchLimits {
        self.max_len = max;
        self
    }

    /// Sets the largest batch body.
    pub const fn with_max_size(mut self, max: usize) -> BatchLimits {
        self.max_size = max;
        self
    }
}

impl Default for BatchLimits {
    fn default() -> BatchLimits {
        BatchLimits::new()
    }
}

/// True if `input` is a batch: its first byte after whitespace is `[`.
pub fn is_batch(input: &[u8]) -> bool {
    input.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[')
}

/// The elements of a batch, as the bytes of each (JSON-RPC 2.0 section 6).
///
/// The whole batch answers one error response (id `null`) when it is
/// over `limits` (`-32600`, marked [`over_limit`](ErrorResponse::over_limit)), not UTF-8 or not
/// JSON (`-32700`), or empty (`-32600`: "an Array with at least one
/// value"). Elements are not decoded here: one that is not a request
/// object answers its own `-32600` from
/// [`decode_request`](crate::decode_request). An element nested deeper
/// than serde_json's limit of 128 makes the batch unreadable (`-32700`).
///
/// ```
/// use a2a_jsonrpc::{split_batch, BatchLimits};
///
/// let elements = split_batch(br#"[{"a":1}, 2]"#, &BatchLimits::new()).unwrap();
/// assert_eq!(elements, [&br#"{"a":1}"#[..], b"2"]);
/// assert_eq!(split_batch(b"[]", &BatchLimits::new()).unwrap_err().error.code().0, -32600);
/// ```
pub fn split_batch<'a>(
    input: &'a [u8],
    limits: &BatchLimits,
) -> Result<Vec<&'a [u8]>, ErrorResponse> {
    let refuse = |kind, why: String| Err(ErrorResponse::new(Id::Null, A2aError::new(kind, why)));
    if input.len() > limits.max_size {
        return Err(over_limit(format!(
            "Invalid request: batch of {} bytes exceeds the limit of {} bytes",
            input.len(),
            limits.max_size
        )));
    }
    if let Err(e) = std::str::from_utf8(input) {
        return refuse(
            ErrorKind::JsonParse,
            format!(
                "Invalid JSON payload: invalid UTF-8 at byte {}",
                e.valid_up_to()
            ),
        );
    }
    let mut de = serde_json::Deserializer::from_slice(input);
    let mut over = false;
    let parsed = de
        .deserialize_seq(Elements {
            max_len: limits.max_len,
            over: &mut over,
        })
        .and_then(|v| de.end().map(|()| v));
    match parsed {
        Ok(elements) if elements.is_empty() => refuse(
            ErrorKind::InvalidRequest,
            "Invalid request: empty batch: a batch must hold at least one request".to_owned(),
        ),
        Ok(elements) => Ok(elements
            .into_iter()
            .map(|raw| raw.get().as_bytes())
            .collect()),
        Err(_) if over => Err(over_limit(format!(
            "Invalid request: batch of more than {} requests",
            limits.max_len
        ))),
        Err(e) => refuse(ErrorKind::JsonParse, format!("Invalid JSON payload: {e}")),
    }
}

/// A batch refused for its size or length (`-32600`, id `null`).
fn over_limit(why: String) -> ErrorResponse {
    let mut response = ErrorResponse::new(Id::Null, A2aError::new(ErrorKind::InvalidRequest, why));
    response.over_limit = true;
    response
}

/// The body answering a batch: its element responses as one array, or
/// `None` when there are none (every element was a notification), since
/// the server "MUST NOT return an empty Array" (JSON-RPC 2.0 section 6).
///
/// ```
/// let body = a2a_jsonrpc::encode_batch([&b"{\"id\":1}"[..], b"{\"id\":2}"]).unwrap();
/// assert_eq!(body, b"[{\"id\":1},{\"id\":2}]");
/// assert_eq!(a2a_jsonrpc::encode_batch(std::iter::empty::<&[u8]>()), None);
/// ```
pub fn encode_batch<'a>(responses: impl IntoIterator<Item = &'a [u8]>) -> Option<Vec<u8>> {
    let mut out = vec![b'['];
    for response in responses {
        if out.len() > 1 {
            out.push(b',');
        }
        out.extend_from_slice(response);
    }
    out.push(b']');
    (out.len() > 2).then_some(out)
}

/// Collects the raw elements of an array, stopping past `max_len`.
struct Elements<'o> {
    max_len: usize,
    over: &'o mut bool,
}

impl<'de> Visitor<'de> for Elements<'_> {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of requests")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(raw) = seq.next_element::<&'de RawValue>()? {
            if out.len() == self.max_len {
                *self.over = true;
                return Err(de::Error::custom("too many requests"));
            }
            out.push(raw);
        }
        Ok(out)
    }
}
