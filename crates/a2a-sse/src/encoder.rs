//! The event-stream encoder.

use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};
use memchr::{memchr2, memchr3};

use crate::error::EncodeError;
use crate::event::Event;

/// Writes `text/event-stream` into a growing [`BytesMut`].
///
/// Every method appends complete lines, so the buffer can be flushed (with
/// [`take`](Self::take)) between any two calls. Field values are checked
/// before anything is written: a rejected value leaves the buffer
/// unchanged. Lines end with LF.
///
/// ```
/// use a2a_sse::Encoder;
///
/// let mut encoder = Encoder::new();
/// encoder.event(Some("status-update"), Some("42"), b"{\"a\":1}\n{\"b\":2}")?;
/// encoder.comment("keep-alive");
/// assert_eq!(
///     &encoder.take()[..],
///     &b"event: status-update\nid: 42\ndata: {\"a\":1}\ndata: {\"b\":2}\n\n: keep-alive\n"[..]
/// );
/// # Ok::<(), a2a_sse::EncodeError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Encoder {
    buf: BytesMut,
}

impl Encoder {
    /// An encoder with an empty buffer.
    pub fn new() -> Encoder {
        Encoder::default()
    }

    /// An encoder whose buffer starts with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Encoder {
        Encoder {
            buf: BytesMut::with_capacity(capacity),
        }
    }

    /// An encoder that appends to `buf`.
    pub fn from_buffer(buf: BytesMut) -> Encoder {
        Encoder { buf }
    }

    /// Appends one event: an `event` line (unless `event_type` is `None` or
    /// empty), an `id` line (unless `id` is `None`; `Some("")` resets the
    /// receiver's last event ID), the data, and the blank line that
    /// dispatches it.
    ///
    /// The data is split at every CRLF, CR and LF into several `data:`
    /// lines, so no payload can end the event or inject a field; a decoder
    /// delivers it with each line break turned into LF. Empty data is one
    /// empty `data:` line (the receiver gets an event with empty data).
    ///
    /// # Errors
    ///
    /// [`EncodeError::InvalidEventType`] if the type contains CR or LF;
    /// [`EncodeError::InvalidId`] if the id contains CR, LF or NUL. Nothing
    /// is written then.
    pub fn event(
        &mut self,
        event_type: Option<&str>,
        id: Option<&str>,
        data: &[u8],
    ) -> Result<(), EncodeError> {
        let event_type = event_type.filter(|t| !t.is_empty());
        if let Some(t) = event_type {
            check_event_type(t)?;
        }
        if let Some(id) = id {
            check_id(id)?;
        }
        self.buf.reserve(
            event_type.map_or(0, |t| t.len() + 8)
                + id.map_or(0, |i| i.len() + 5)
                + data.len()
                + 8
                + 1,
        );
        if let Some(t) = event_type {
            self.line(b"event: ", t.as_bytes());
        }
        if let Some(id) = id {
            self.line(b"id: ", id.as_bytes());
        }
        self.data_lines(data);
        self.buf.put_u8(b'\n');
        Ok(())
    }

    /// Appends an event with only data (type `message` on the receiving
    /// side). See [`event`](Self::event) for how data is split into lines.
    pub fn data(&mut self, data: &[u8]) {
        self.buf.reserve(data.len() + 8 + 1);
        self.data_lines(data);
        self.buf.put_u8(b'\n');
    }

    /// Re-encodes a decoded event so that a decoder yields an equal
    /// [`Event`]: the type (omitted when it is `message`), the id (always
    /// written, since an [`Event`] carries the last event ID, which may be
    /// `""`), and the data.
    ///
    /// # Errors
    ///
    /// As [`event`](Self::event).
    pub fn forward(&mut self, event: &Event) -> Result<(), EncodeError> {
        let ty = (event.event_type != "message").then_some(event.event_type.as_str());
        self.event(ty, Some(&event.id), &event.data)
    }

    /// Appends a `retry` line: the reconnection time in whole milliseconds
    /// (sub-millisecond parts are dropped). It takes effect when the
    /// receiver reads it and does not dispatch anything.
    pub fn retry(&mut self, retry: Duration) {
        let ms = retry.as_millis().to_string();
        self.line(b"retry: ", ms.as_bytes());
    }

    /// Appends a comment, which receivers ignore: useful as a keep-alive.
    /// Each line of `text` (split at CRLF, CR and LF) becomes one line
    /// starting with `:`, so a comment cannot inject a field. An empty text
    /// is the single line `:`.
    pub fn comment(&mut self, text: &str) {
        self.buf.reserve(text.len() + 3);
        for_each_line(text.as_bytes(), |line| {
            if line.is_empty() {
                self.buf.put_slice(b":\n");
            } else {
                self.line(b": ", line);
            }
        });
    }

    /// The bytes written so far and not taken.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Number of bytes written so far and not taken.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was written since the last [`take`](Self::take).
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Takes the bytes written so far, leaving the encoder empty (its spare
    /// capacity is kept for the next writes).
    pub fn take(&mut self) -> Bytes {
        self.buf.split().freeze()
    }

    /// The underlying buffer.
    pub fn into_inner(self) -> BytesMut {
        self.buf
    }

    fn line(&mut self, prefix: &[u8], value: &[u8]) {
        self.buf.reserve(prefix.len() + value.len() + 1);
        self.buf.put_slice(prefix);
        self.buf.put_slice(value);
        self.buf.put_u8(b'\n');
    }

    fn data_lines(&mut self, data: &[u8]) {
        for_each_line(data, |line| self.line(b"data: ", line));
    }
}

/// Calls `f` with each line of `text`, split at CRLF, CR and LF; a text
/// ending with a line break has a last, empty line; an empty text is one
/// empty line.
fn for_each_line(text: &[u8], mut f: impl FnMut(&[u8])) {
    let mut rest = text;
    while let Some(i) = memchr2(b'\r', b'\n', rest) {
        f(&rest[..i]);
        let skip = if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        rest = &rest[i + skip..];
    }
    f(rest);
}

fn check_event_type(t: &str) -> Result<(), EncodeError> {
    match memchr2(b'\r', b'\n', t.as_bytes()) {
        Some(index) => Err(EncodeError::InvalidEventType { index }),
        None => Ok(()),
    }
}

fn check_id(id: &str) -> Result<(), EncodeError> {
    match memchr3(b'\r', b'\n', 0, id.as_bytes()) {
        Some(index) => Err(EncodeError::InvalidId { index }),
        None => Ok(()),
    }
}
