//! A bounded, incremental Server-Sent Events (`text/event-stream`) codec.
//!
//! Both A2A HTTP bindings stream over SSE (A2A v1.0, sections 9.4.2 and
//! 11.7), but nothing here is A2A-specific: it is a general codec, usable on
//! its own.
//!
//! # What it owns
//!
//! - [`Decoder`]: a push decoder that follows the HTML standard's
//!   "interpreting an event stream" exactly: UTF-8 with U+FFFD for invalid
//!   sequences (also when a character is split across chunks), one leading
//!   byte-order mark ignored, CRLF / LF / lone CR line endings (a CR ends the
//!   line at once; an LF right after it, even in the next chunk, is part of
//!   the same line ending), comments, `event` / `data` / `id` / `retry`
//!   fields, dispatch at blank lines, and an incomplete event discarded at
//!   the end of the stream. The result never depends on how the bytes were
//!   chunked. Memory is bounded by [`DecoderConfig`]; exceeding a limit is a
//!   [`DecodeError`] naming the limit and the stream offset, after which the
//!   decoder skips to the next event. The last event ID and the retry value
//!   are exposed for reconnecting with `Last-Event-ID`.
//! - [`EventStream`]: a `futures_core::Stream` adapter from a stream of byte
//!   chunks (any error type) to a stream of [`Event`]s.
//! - [`Encoder`]: writes events, `retry` lines and comments (keep-alives),
//!   splitting data at every line break so that no payload can inject a
//!   field, and rejecting event types and ids a decoder would read back
//!   differently.
//!
//! # What it does not
//!
//! No I/O, no clock, no async runtime: the host reads the bytes, and waits
//! [`Decoder::retry`] before reconnecting if it wants to. No HTTP either:
//! checking the `Content-Type`, sending `Last-Event-ID` and deciding when to
//! reconnect belong to the caller (for A2A, the transport crate). Event data
//! is handed over as bytes, already valid UTF-8; parsing it (JSON-RPC, A2A
//! stream responses) is the caller's job.
//!
//! # Decisions a reader may question
//!
//! - **Events.** [`Event::data`] is [`Bytes`](bytes::Bytes), already
//!   checked (or made) valid UTF-8, so a JSON parser can take it without a
//!   copy; when an event's single `data` line lies inside one input chunk
//!   (and is at most 4 KiB long) it is a slice of that chunk, otherwise of
//!   the decoder's line buffer. The type and id are [`SharedStr`]s, which
//!   deref to `str` and clone without allocating: short ones (up to 39
//!   bytes, which covers the usual types and ids) are stored inline, longer
//!   ones are reference-counted. They are copied out of the input rather
//!   than sliced from it, so a retained type or id never keeps a whole
//!   input chunk alive. [`Event::id`] is the *last* event ID at dispatch
//!   (`MessageEvent.lastEventId`), not "this event's id field": it persists
//!   across events, as the standard says, and each event carries it.
//! - **Lazy decoding.** [`Decoder::feed`] only queues; [`Decoder::next_event`]
//!   parses up to the next event. So there is no internal queue of decoded
//!   events, and an error arrives exactly in stream order.
//! - **After a limit error** the decoder discards the offending event (up
//!   to its closing blank line) and goes on, rather than poisoning itself:
//!   the caller decides whether one oversized event ends the connection.
//! - **Reconnection.** After [`Decoder::finish`], feeding again decodes a
//!   new stream (new byte-order mark, offsets from 0) but keeps the last
//!   event ID, which later events carry until the server sends another
//!   `id`, as browsers do (web-platform-tests `format-field-id` checks that
//!   an event received after reconnecting reports the previous id).
//! - **`retry`** is exposed as a [`Duration`](std::time::Duration) of whole
//!   milliseconds; digits beyond `u64::MAX` saturate.
//!
//! # Example
//!
//! ```
//! use a2a_sse::{Decoder, Encoder};
//! use bytes::Bytes;
//!
//! // A server writes a stream...
//! let mut encoder = Encoder::new();
//! encoder.retry(std::time::Duration::from_secs(3));
//! encoder.event(Some("status-update"), Some("1"), br#"{"state":"working"}"#)?;
//! encoder.comment("keep-alive");
//! encoder.event(None, Some("2"), b"line one\nline two")?;
//! let wire: Bytes = encoder.take();
//!
//! // ...and a client decodes it, in whatever pieces the network delivers.
//! let mut decoder = Decoder::new();
//! let mut events = Vec::new();
//! for piece in wire.chunks(7) {
//!     decoder.feed(Bytes::copy_from_slice(piece));
//!     while let Some(event) = decoder.next_event()? {
//!         events.push(event);
//!     }
//! }
//! decoder.finish();
//! assert_eq!(decoder.next_event()?, None);
//!
//! assert_eq!(events.len(), 2);
//! assert_eq!(events[0].event_type, "status-update");
//! assert_eq!(&events[0].data[..], br#"{"state":"working"}"#);
//! assert_eq!(events[1].event_type, "message");
//! assert_eq!(&events[1].data[..], b"line one\nline two");
//! // What to resume from after a disconnection:
//! assert_eq!(decoder.last_event_id(), "2");
//! assert_eq!(decoder.retry(), Some(std::time::Duration::from_millis(3000)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod decoder;
mod encoder;
mod error;
mod event;
#[cfg(feature = "testing")]
mod fuzz;
mod shared_str;
mod stream;

pub use decoder::{Decoder, DecoderConfig, Events};
pub use encoder::Encoder;
pub use error::{DecodeError, EncodeError, StreamError};
pub use event::Event;
pub use shared_str::SharedStr;
pub use stream::EventStream;

#[cfg(feature = "testing")]
#[doc(hidden)]
pub use fuzz::{decode_chunks, fuzz_decode, reference_decode, Outcome};
