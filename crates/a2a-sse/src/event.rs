//! The decoded event.

use bytes::Bytes;

use crate::shared_str::SharedStr;

/// One dispatched event, as the HTML standard's `MessageEvent` would carry
/// it.
///
/// Built by [`Decoder`](crate::Decoder); the fields are public so that
/// callers can also build events for tests or for
/// [`Encoder::forward`](crate::Encoder::forward).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Event {
    /// The event type: the value of the last `event` field of the event, or
    /// `"message"` when there was none or it was empty.
    pub event_type: SharedStr,
    /// The data: the values of the event's `data` fields joined by LF
    /// (U+000A). Always valid UTF-8 when it comes from the decoder (invalid
    /// sequences are replaced by U+FFFD), kept as bytes so that it can be
    /// handed to a JSON parser without a copy.
    pub data: Bytes,
    /// The last event ID at dispatch (`MessageEvent.lastEventId`): the value
    /// of the most recent `id` field of the stream, which persists across
    /// events until another `id` field changes it; `""` before any.
    pub id: SharedStr,
}
