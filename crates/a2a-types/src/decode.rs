//! Decoding entry points with input limits and errors that say where; how
//! they read is documented on [`from_slice_with_limits`].

use std::fmt;

use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;

/// Default for [`DecodeLimits::max_input_bytes`]: 16 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// Limits applied before and while decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeLimits {
    /// Largest input accepted, in bytes; larger input is rejected before
    /// parsing with [`DecodeErrorKind::TooLarge`]. Default
    /// [`DEFAULT_MAX_INPUT_BYTES`] (16 MiB).
    pub max_input_bytes: usize,
}

impl DecodeLimits {
    /// The defaults.
    pub const fn new() -> DecodeLimits {
        DecodeLimits {
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
        }
    }

    /// The same limits with another maximum input size.
    pub const fn with_max_input_bytes(mut self, max: usize) -> DecodeLimits {
        self.max_input_bytes = max;
        self
    }
}

impl Default for DecodeLimits {
    fn default() -> DecodeLimits {
        DecodeLimits::new()
    }
}

/// What kind of problem stopped decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// Not JSON (or nested deeper than [`RECURSION_LIMIT`](crate::RECURSION_LIMIT)).
    Syntax,
    /// JSON, but not a valid value of the type: wrong type, bad enum name,
    /// bad base64 or timestamp, a oneof with zero or several members.
    Data,
    /// The input ended in the middle of a value.
    Eof,
    /// The input is larger than [`DecodeLimits::max_input_bytes`].
    TooLarge,
}

/// A decoding failure: what went wrong, and where, as a JSON path
/// (`message.parts[2]`) and a line and column.
///
/// The path uses the keys as they appeared in the input; it is empty when
/// the problem is at the top level (or the input is not JSON at all).
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: DecodeErrorKind,
    path: String,
    line: usize,
    column: usize,
    message: String,
}

impl DecodeError {
    /// What kind of problem it is.
    pub fn kind(&self) -> DecodeErrorKind {
        self.0.kind
    }

    /// The JSON path of the value that failed, e.g. `message.parts[2]`;
    /// empty for the top level.
    pub fn path(&self) -> &str {
        &self.0.path
    }

    /// The 1-based line where the problem was found (0 when not applicable).
    pub fn line(&self) -> usize {
        self.0.line
    }

    /// The 1-based column where the problem was found (0 when not applicable).
    pub fn column(&self) -> usize {
        self.0.column
    }

    /// The description of the problem, without its position.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// A [`DecodeErrorKind::Data`] error at the top level.
    pub(crate) fn data(message: &str) -> DecodeError {
        DecodeError(Box::new(Inner {
            kind: DecodeErrorKind::Data,
            path: String::new(),
            line: 0,
            column: 0,
            message: message.to_owned(),
        }))
    }

    fn too_large(len: usize, max: usize) -> DecodeError {
        DecodeError(Box::new(Inner {
            kind: DecodeErrorKind::TooLarge,
            path: String::new(),
            line: 0,
            column: 0,
            message: format!("input of {len} bytes exceeds the limit of {max} bytes"),
        }))
    }

    pub(crate) fn from_json(err: &serde_json::Error, path: String) -> DecodeError {
        let kind = match err.classify() {
            serde_json::error::Category::Syntax | serde_json::error::Category::Io => {
                DecodeErrorKind::Syntax
            }
            serde_json::error::Category::Data => DecodeErrorKind::Data,
            serde_json::error::Category::Eof => DecodeErrorKind::Eof,
        };
        let mut message = err.to_string();
        let suffix = format!(" at line {} column {}", err.line(), err.column());
        if err.line() != 0 && message.ends_with(&suffix) {
            message.truncate(message.len() - suffix.len());
        }
        DecodeError(Box::new(Inner {
            kind,
            path,
            line: err.line(),
            column: err.column(),
            message,
        }))
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.0;
        if !e.path.is_empty() {
            write!(f, "{}: ", e.path)?;
        }
        f.write_str(&e.message)?;
        if e.line != 0 {
            write!(f, " at line {} column {}", e.line, e.column)?;
        }
        Ok(())
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeError")
            .field("kind", &self.0.kind)
            .field("path", &self.0.path)
            .field("line", &self.0.line)
            .field("column", &self.0.column)
            .field("message", &self.0.message)
            .finish()
    }
}

impl std::error::Error for DecodeError {}

/// Decodes a value from JSON bytes with the default [`DecodeLimits`], as
/// [`from_slice_with_limits`] does.
///
/// ```
/// use a2a_types::{from_slice, Message};
///
/// let m: Message = from_slice(br#"{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}"#)?;
/// assert_eq!(m.message_id, "m");
///
/// let err = from_slice::<Message>(br#"{"messageId":"m","parts":[{"text":"a"},{}]}"#).unwrap_err();
/// assert_eq!(err.path(), "parts[1]");
/// # Ok::<(), a2a_types::DecodeError>(())
/// ```
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    from_slice_with_limits(bytes, &DecodeLimits::new())
}

/// Decodes a value from JSON text with the default [`DecodeLimits`].
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    from_slice_with_limits(text.as_bytes(), &DecodeLimits::new())
}

/// Decodes a value from JSON text with explicit limits.
pub fn from_str_with_limits<T: DeserializeOwned>(
    text: &str,
    limits: &DecodeLimits,
) -> Result<T, DecodeError> {
    from_slice_with_limits(text.as_bytes(), limits)
}

/// Decodes a value from JSON bytes with explicit limits.
///
/// Input over [`DecodeLimits::max_input_bytes`] is refused before it is
/// read. The rest is read by [`json::try_from_slice`](crate::json::try_from_slice)
/// first; what that declines is read again by `serde_json`, which either
/// accepts it or fails; only then is the input decoded a third time,
/// tracking the JSON path, to say where the failure is. Valid input never
/// pays for error reporting. Nesting is limited by [`RECURSION_LIMIT`](crate::RECURSION_LIMIT).
pub fn from_slice_with_limits<T: DeserializeOwned>(
    bytes: &[u8],
    limits: &DecodeLimits,
) -> Result<T, DecodeError> {
    if bytes.len() > limits.max_input_bytes {
        return Err(DecodeError::too_large(bytes.len(), limits.max_input_bytes));
    }
    match crate::json::try_from_slice(bytes) {
        Ok(value) => Ok(value),
        Err(_) => reread(bytes),
    }
}

/// What the fast reader declined: `serde_json` either reads it (the
/// reader leaves some valid forms to it) or says what is wrong.
#[cold]
#[inline(never)]
fn reread<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    match serde_json::from_slice(bytes) {
        Ok(value) => Ok(value),
        Err(err) => Err(locate::<T>(bytes, &err)),
    }
}

/// The slow path: decodes again, tracking the path, to say where `first`
/// happened.
#[cold]
#[inline(never)]
fn locate<T: DeserializeOwned>(bytes: &[u8], first: &serde_json::Error) -> DecodeError {
    let _tracking = crate::protojson::TrackingPaths::start();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Err(err) => DecodeError::from_json(err.inner(), render_path(err.path())),
        // The value itself decoded: the failure was after it (trailing
        // characters), which the first error describes.
        Ok(_) => DecodeError::from_json(first, String::new()),
    }
}

fn render_path(path: &serde_path_to_error::Path) -> String {
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
            }
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Unknown => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push('?');
            }
        }
    }
    out
}
