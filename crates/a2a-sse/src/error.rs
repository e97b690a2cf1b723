//! The error types of the decoder, the encoder and the stream adapter.

use std::error::Error as StdError;
use std::fmt;

/// A limit of [`DecoderConfig`](crate::DecoderConfig) was exceeded.
///
/// Malformed input is never an error: the event-stream format has a meaning
/// for every byte sequence. Only the configured limits can fail a decode, and
/// each error names the limit and the byte offset in the stream (counted from
/// the first byte of the current stream, byte-order mark included) of the
/// first byte that went over it.
///
/// The error is not fatal: the decoder discards the event it was building
/// and resumes with the event after it (see
/// [`Decoder`](crate::Decoder#after-a-limit-error)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// A line was longer than
    /// [`max_line_length`](crate::DecoderConfig::max_line_length) bytes
    /// (its line ending not counted).
    LineTooLong {
        /// The configured limit, in bytes.
        limit: usize,
        /// Stream offset of the first byte of the line beyond the limit.
        offset: u64,
    },
    /// The data of one event would have been longer than
    /// [`max_event_data`](crate::DecoderConfig::max_event_data) bytes.
    EventDataTooLarge {
        /// The configured limit, in bytes.
        limit: usize,
        /// Stream offset of the first byte of the `data` value that did not
        /// fit (the start of the value when the line feed that joins it to the
        /// previous data line is what overflowed).
        offset: u64,
    },
}

impl DecodeError {
    /// Stream offset at which the limit was exceeded.
    pub fn offset(&self) -> u64 {
        match *self {
            DecodeError::LineTooLong { offset, .. }
            | DecodeError::EventDataTooLarge { offset, .. } => offset,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::LineTooLong { limit, offset } => write!(
                f,
                "event-stream line longer than the limit of {limit} bytes (at byte {offset} of the stream)"
            ),
            DecodeError::EventDataTooLarge { limit, offset } => write!(
                f,
                "event data larger than the limit of {limit} bytes (at byte {offset} of the stream)"
            ),
        }
    }
}

impl StdError for DecodeError {}

/// An item of an [`EventStream`](crate::EventStream) that is not an event.
#[derive(Debug)]
#[non_exhaustive]
pub enum StreamError<E> {
    /// The decoder hit one of its limits; the stream goes on with the next
    /// event.
    Decode(DecodeError),
    /// The underlying byte stream yielded an error; it is passed through
    /// unchanged, and polling again polls the underlying stream again.
    Source(E),
}

impl<E: fmt::Display> fmt::Display for StreamError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Decode(e) => e.fmt(f),
            StreamError::Source(e) => write!(f, "event-stream source failed: {e}"),
        }
    }
}

impl<E: StdError + 'static> StdError for StreamError<E> {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            StreamError::Decode(e) => Some(e),
            StreamError::Source(e) => Some(e),
        }
    }
}

impl<E> From<DecodeError> for StreamError<E> {
    fn from(e: DecodeError) -> Self {
        StreamError::Decode(e)
    }
}

/// A field value the [`Encoder`](crate::Encoder) refuses to write, because a
/// decoder would read it back differently (or as several fields).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The event type contains a CR or LF at byte `index`.
    InvalidEventType {
        /// Byte index of the offending character in the event type.
        index: usize,
    },
    /// The id contains a CR, LF or NUL at byte `index` (a decoder ignores an
    /// id that contains NUL).
    InvalidId {
        /// Byte index of the offending character in the id.
        index: usize,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::InvalidEventType { index } => {
                write!(f, "event type contains a line break at byte {index}")
            }
            EncodeError::InvalidId { index } => {
                write!(f, "event id contains a line break or NUL at byte {index}")
            }
        }
    }
}

impl StdError for EncodeError {}
