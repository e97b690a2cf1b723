//! The incremental event-stream decoder.

use std::collections::VecDeque;
use std::ops::Range;
use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};
use memchr::memchr2;

use crate::error::DecodeError;
use crate::event::Event;
use crate::shared_str::SharedStr;

/// The UTF-8 byte-order mark, stripped once at the start of each stream.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// Bytes of a long line searched (and buffered) at a time.
const BLOCK: usize = 4 * 1024;

/// Size of the buffer reused for copies of small slices (and the largest
/// slice copied there): what a decoder keeps for them when idle.
const SPARE: usize = 16 * 1024;

/// Limits of a [`Decoder`]. Every buffer the decoder owns is bounded by one
/// of them; each is checked before the bytes are buffered.
///
/// Build it from [`DecoderConfig::default`] and the `with_*` methods (or
/// assign the public fields): the struct is `#[non_exhaustive]` so that
/// limits can be added without breaking callers.
///
/// ```
/// let config = a2a_sse::DecoderConfig::default()
///     .with_max_line_length(64 * 1024)
///     .with_max_event_data(1024 * 1024);
/// let decoder = a2a_sse::Decoder::with_config(config);
/// # let _ = decoder;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecoderConfig {
    /// Longest line accepted, in bytes, line ending excluded. Default:
    /// 16 MiB (`16 * 1024 * 1024`). A2A puts a whole JSON-RPC message on one
    /// `data` line, so this is also the largest single message. Exceeding it
    /// yields [`DecodeError::LineTooLong`].
    pub max_line_length: usize,
    /// Largest data of one event, in bytes: the `data` values joined by LF,
    /// as delivered in [`Event::data`]. Default: 16 MiB. Exceeding it yields
    /// [`DecodeError::EventDataTooLarge`].
    pub max_event_data: usize,
}

impl DecoderConfig {
    /// The default limits: 16 MiB per line and 16 MiB of data per event.
    pub const DEFAULT: DecoderConfig = DecoderConfig {
        max_line_length: 16 * 1024 * 1024,
        max_event_data: 16 * 1024 * 1024,
    };

    /// Sets [`max_line_length`](Self::max_line_length).
    pub const fn with_max_line_length(mut self, bytes: usize) -> Self {
        self.max_line_length = bytes;
        self
    }

    /// Sets [`max_event_data`](Self::max_event_data).
    pub const fn with_max_event_data(mut self, bytes: usize) -> Self {
        self.max_event_data = bytes;
        self
    }
}

impl Default for DecoderConfig {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A push decoder for `text/event-stream`, following the HTML standard's
/// "interpreting an event stream" exactly.
///
/// Feed it bytes as they arrive ([`feed`](Self::feed) or
/// [`feed_slice`](Self::feed_slice)), take events with
/// [`next_event`](Self::next_event) until it returns `Ok(None)` ("need more
/// data", not an error), and call [`finish`](Self::finish) at the end of the
/// stream. Chunk boundaries never change the result: any split of the same
/// bytes yields the same events and errors.
///
/// Decoding is lazy: `feed` only queues the chunk (a cheap reference-count
/// increment for [`Bytes`]), and `next_event` parses just far enough to
/// produce the next event. Each byte is scanned once (for CR and LF, with
/// `memchr`); only a line that spans chunks, or is longer than 4 KiB, is
/// copied into the line buffer, so decoding is linear in the input whatever
/// the chunking. When the single `data` line of an event lies inside one
/// chunk, [`Event::data`] is a slice of that chunk, without a copy (it keeps
/// the chunk alive). A longer or chunk-spanning line is copied 4 KiB at a
/// time as it is searched, while in L1 cache (which for long lines is faster
/// than searching alone and copying after), and its data handed over from
/// the line buffer without another copy.
///
/// # Memory
///
/// Besides the input fed and not yet decoded (queued chunks, and slices
/// appended to the partial line by `feed_slice`), the decoder holds at most
/// one partial line ([`DecoderConfig::max_line_length`]), the data of one
/// event ([`DecoderConfig::max_event_data`]), and the event type and id
/// strings, each at most three times the line limit (an invalid byte
/// becomes the three-byte U+FFFD). [`buffered`](Self::buffered) reports the
/// first two. The buffers keep their allocations for the next lines and
/// events (at most about twice their limits, as they grow by doubling); the
/// type and id are copied out of the input, so they never keep an input
/// chunk alive.
///
/// # After a limit error
///
/// A [`DecodeError`] is reported once, in stream order (every event completed
/// before the offending byte is returned first). The decoder then discards
/// the whole event being built — its data and type, and an `id` it set,
/// which reverts to the last event ID of the previous event — skips the rest
/// of the stream up to and including the blank line that ends that event,
/// and carries on with the event after it. A `retry` field read before the
/// offending line stays in effect, as the standard applies `retry` when it is
/// read. A caller that prefers to give up simply stops using the decoder (for
/// A2A, drops the connection).
///
/// # Reconnection
///
/// [`last_event_id`](Self::last_event_id) is the value to send as
/// `Last-Event-ID` when reconnecting, and [`retry`](Self::retry) the
/// reconnection time the server asked for. After [`finish`](Self::finish)
/// the same decoder can decode the next connection's stream: the last event
/// ID and the retry value are kept; everything else (byte-order mark
/// handling, stream offsets, partial line and event) starts afresh.
///
/// ```
/// use a2a_sse::Decoder;
///
/// let mut decoder = Decoder::new();
/// decoder.feed_slice(b"id: 7\nevent: status\ndata: {\"ok\":");
/// assert_eq!(decoder.next_event(), Ok(None)); // needs more data
/// decoder.feed_slice(b"true}\r\n\r\n");
/// let event = decoder.next_event().unwrap().unwrap();
/// assert_eq!(event.event_type, "status");
/// assert_eq!(&event.data[..], b"{\"ok\":true}");
/// assert_eq!(event.id, "7");
/// assert_eq!(decoder.last_event_id(), "7");
/// decoder.finish();
/// assert_eq!(decoder.next_event(), Ok(None));
/// ```
#[derive(Debug)]
pub struct Decoder {
    /// Queued input, decoded front to back.
    input: VecDeque<Input>,
    /// Position of the next undecoded byte in the front chunk.
    pos: usize,
    parser: Parser,
}

#[derive(Debug)]
enum Input {
    Chunk(Bytes),
    End,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder with the default limits ([`DecoderConfig::DEFAULT`]).
    pub fn new() -> Decoder {
        Decoder::with_config(DecoderConfig::DEFAULT)
    }

    /// A decoder with the given limits.
    pub fn with_config(config: DecoderConfig) -> Decoder {
        Decoder {
            input: VecDeque::new(),
            pos: 0,
            parser: Parser::new(config),
        }
    }

    /// Starts from a known last event ID, as a client resuming a stream with
    /// `Last-Event-ID: id` does: events carry this id until the stream sets
    /// another.
    pub fn with_last_event_id(mut self, id: impl Into<SharedStr>) -> Decoder {
        let id = id.into();
        self.parser.id_buffer.clone_from(&id);
        self.parser.last_event_id = id;
        self
    }

    /// The limits of this decoder.
    pub fn config(&self) -> &DecoderConfig {
        &self.parser.config
    }

    /// Queues a chunk of the stream. Nothing is decoded until
    /// [`next_event`](Self::next_event) is called. Empty chunks are ignored.
    pub fn feed(&mut self, chunk: Bytes) {
        if !chunk.is_empty() {
            self.input.push_back(Input::Chunk(chunk));
        }
    }

    /// Queues a copy of a chunk of the stream (see [`feed`](Self::feed)).
    ///
    /// When the chunk continues a line that the decoder holds the start of
    /// (the previous chunk ended mid-line and everything before was
    /// decoded), the part of it up to the line end (or all of it) is copied
    /// straight after that start, as long as the line fits in
    /// [`max_line_length`](DecoderConfig::max_line_length): a long line fed
    /// in many slices is copied once, and its data handed over without
    /// another copy. The rest, if at most 16 KiB, is copied into a 16 KiB
    /// buffer that the decoder reuses once the chunks and event data cut
    /// from it are dropped (an event's data may keep that buffer alive, as a
    /// slice of a chunk keeps the chunk alive); a larger rest is copied into
    /// a chunk of its own.
    pub fn feed_slice(&mut self, chunk: &[u8]) {
        if chunk.is_empty() {
            return;
        }
        let mut rest = chunk;
        if self.input.is_empty() && self.parser.line_continues(chunk.len()) {
            rest = self.parser.append(chunk);
        }
        if !rest.is_empty() {
            let copy = self.parser.copy_input(rest);
            self.input.push_back(Input::Chunk(copy));
        }
    }

    /// Marks the end of the stream. Events completed by the input fed so far
    /// are still returned by [`next_event`](Self::next_event); after them, an
    /// incomplete line and an event without its closing blank line are
    /// discarded, as the standard requires. Bytes fed afterwards are decoded
    /// as a new stream (a reconnection), keeping the last event ID and the
    /// retry value.
    pub fn finish(&mut self) {
        self.input.push_back(Input::End);
    }

    /// Decodes until the next event is complete.
    ///
    /// Returns `Ok(Some(event))` for an event, `Ok(None)` when the input fed
    /// so far holds no further complete event, and `Err` when a limit of
    /// [`DecoderConfig`] was exceeded; decoding can go on after an error
    /// (see [After a limit error](Self#after-a-limit-error)).
    pub fn next_event(&mut self) -> Result<Option<Event>, DecodeError> {
        loop {
            if self.parser.unscanned > 0 {
                // Input appended to the partial line by `feed_slice` comes
                // before anything queued since (the queue was empty then).
                self.parser.take_appended();
            }
            let done = match self.input.front() {
                None => return Ok(None),
                Some(Input::End) => {
                    self.parser.end_stream();
                    true
                }
                Some(Input::Chunk(chunk)) => {
                    let result = self.parser.run(chunk, &mut self.pos);
                    let done = self.pos >= chunk.len();
                    if done {
                        self.input.pop_front();
                        self.pos = 0;
                    }
                    match result {
                        Ok(false) => continue,
                        // Built here, straight into the caller's memory:
                        // passing a whole event back through the parsing
                        // functions cost more than building it.
                        Ok(true) => return Ok(Some(self.parser.take_event())),
                        Err(e) => return Err(e),
                    }
                }
            };
            if done {
                self.input.pop_front();
            }
        }
    }

    /// An iterator over the events (and limit errors) of the input fed so
    /// far; it ends where [`next_event`](Self::next_event) would return
    /// `Ok(None)`.
    pub fn events(&mut self) -> Events<'_> {
        Events { decoder: self }
    }

    /// The last event ID: the id of the last dispatched event, to send as
    /// `Last-Event-ID` when reconnecting (`""` means send none). An `id`
    /// field counts once the blank line that ends its event has been decoded,
    /// whether or not that event had data; an `id` in an event cut off by the
    /// end of the stream does not count.
    pub fn last_event_id(&self) -> &str {
        &self.parser.last_event_id
    }

    /// The reconnection time set by the last valid `retry` field (whole
    /// milliseconds; values beyond `u64::MAX` ms saturate), or `None` if the
    /// server sent none. As the standard says, it applies when read, even in
    /// an event that is never dispatched.
    pub fn retry(&self) -> Option<Duration> {
        self.parser.retry
    }

    /// Bytes held in the decoder's own buffers: the partial line and the data
    /// of the event being built. At most
    /// [`max_line_length`](DecoderConfig::max_line_length) `+`
    /// [`max_event_data`](DecoderConfig::max_event_data). Queued input that
    /// was not decoded yet is not counted.
    pub fn buffered(&self) -> usize {
        self.parser.line.len() - self.parser.unscanned + self.parser.data_len
    }

    /// Offset in the current stream of the next byte to decode.
    pub fn offset(&self) -> u64 {
        self.parser.offset
    }

    /// Length of the event type and id buffers (for the fuzz harness).
    #[cfg(feature = "testing")]
    #[doc(hidden)]
    pub fn __string_buffers(&self) -> (usize, usize) {
        (self.parser.event_type.len(), self.parser.id_buffer.len())
    }
}

/// Iterator returned by [`Decoder::events`].
#[derive(Debug)]
pub struct Events<'a> {
    decoder: &'a mut Decoder,
}

impl Iterator for Events<'_> {
    type Item = Result<Event, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.decoder.next_event().transpose()
    }
}

/// What the rest of the stream is being skipped for after a limit error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    /// Not skipping.
    No,
    /// Up to the end of the current (too long) line, then the event.
    Line,
    /// Up to and including the next blank line.
    Event,
}

/// The `data` fields of the event being built so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Data {
    /// None: dispatching produces no event.
    Empty,
    /// One: its value is `Parser::first_data`, usually a slice of an input
    /// chunk.
    One,
    /// Several, joined by LF in `Parser::scratch`.
    Many,
}

/// A field line, classified; ranges index the line.
enum Field {
    Data(Range<usize>),
    Event(Range<usize>),
    Id(Range<usize>),
    Retry(Range<usize>),
    Ignore,
}

#[derive(Debug)]
struct Parser {
    config: DecoderConfig,
    /// Stream offset of the next byte to consume.
    offset: u64,
    /// Stream offset of the first byte of the current line.
    line_start: u64,
    /// True until the first bytes of the stream have been checked for a BOM.
    bom_pending: bool,
    /// BOM bytes matched so far while `bom_pending`.
    bom_matched: usize,
    /// The previous chunk ended with CR: an LF starting the next one belongs
    /// to the same line ending.
    after_cr: bool,
    /// Partial line, when a line spans chunks; then the last `unscanned`
    /// bytes are input appended by `Decoder::feed_slice`, not decoded yet
    /// (with no line end; `unscanned_ascii` if all ASCII).
    line: BytesMut,
    unscanned: usize,
    unscanned_ascii: bool,
    /// Where small slices are copied to become chunks (see `copy_input`).
    spare: BytesMut,
    /// Capacity of `line` when its content was last handed over as event
    /// data (see `reclaim_line_buffer`).
    line_capacity: usize,
    /// `line` is all ASCII (checked as each piece arrives, while it is in
    /// cache, so a long data line needs no second pass at dispatch).
    line_ascii: bool,
    skip: Skip,
    /// While skipping an event: the current line has at least one byte.
    skip_line_nonblank: bool,
    data: Data,
    /// The value of the event's only `data` field (see [`Data::One`]).
    first_data: Option<Bytes>,
    /// Length of the data as it would be delivered.
    data_len: usize,
    /// Joined data when the event has several `data` fields.
    scratch: BytesMut,
    /// The data is known to be ASCII, so valid UTF-8.
    data_ascii: bool,
    /// The decoded value of the last `event` field (kept across events, so
    /// that a repeated type is not decoded again).
    event_type: SharedStr,
    /// Whether the event being built has a non-empty type (`event_type`);
    /// the standard's "event type buffer" is `event_type` if so, else "".
    has_type: bool,
    id_buffer: SharedStr,
    last_event_id: SharedStr,
    retry: Option<Duration>,
}

impl Parser {
    fn new(config: DecoderConfig) -> Parser {
        Parser {
            config,
            offset: 0,
            line_start: 0,
            bom_pending: true,
            bom_matched: 0,
            after_cr: false,
            line: BytesMut::new(),
            unscanned: 0,
            unscanned_ascii: true,
            spare: BytesMut::new(),
            line_capacity: 0,
            line_ascii: true,
            skip: Skip::No,
            skip_line_nonblank: false,
            data: Data::Empty,
            first_data: None,
            data_len: 0,
            scratch: BytesMut::new(),
            data_ascii: true,
            event_type: SharedStr::new(),
            has_type: false,
            id_buffer: SharedStr::new(),
            last_event_id: SharedStr::new(),
            retry: None,
        }
    }

    /// Decodes `chunk[*pos..]` until an event is dispatched (`Ok(true)`: take
    /// it with [`take_event`](Self::take_event)), an error occurs or the
    /// chunk is used up.
    fn run(&mut self, chunk: &Bytes, pos: &mut usize) -> Result<bool, DecodeError> {
        let buf: &[u8] = chunk;
        while *pos < buf.len() {
            if self.bom_pending {
                let b = buf[*pos];
                if b == BOM[self.bom_matched] {
                    self.bom_matched += 1;
                    *pos += 1;
                    self.offset += 1;
                    if self.bom_matched == BOM.len() {
                        self.bom_pending = false;
                        self.bom_matched = 0;
                        self.line_start = self.offset;
                    }
                    continue;
                }
                // Not a BOM: the bytes matched so far start the first line.
                self.bom_pending = false;
                let matched = std::mem::take(&mut self.bom_matched);
                self.partial(&BOM[..matched])?;
            }
            if self.after_cr {
                self.after_cr = false;
                if buf[*pos] == b'\n' {
                    *pos += 1;
                    self.offset += 1;
                    self.line_start = self.offset;
                    continue;
                }
            }
            if self.line.is_empty() && self.skip == Skip::No {
                return self.lines(chunk, pos);
            }
            // The rest of a line begun earlier (or being skipped). Searched a
            // block at a time, each block without the line end buffered at
            // once, while it is in L1 cache: for long lines this runs close
            // to the speed of memchr alone (and 40% faster than with 16 KiB
            // blocks, which with the copy overflow L1).
            let rest = &buf[*pos..];
            let block = &rest[..rest.len().min(BLOCK)];
            match memchr2(b'\n', b'\r', block) {
                None => {
                    *pos += block.len();
                    self.offset += block.len() as u64;
                    self.partial(block)?;
                }
                Some(i) => {
                    let mut consumed = i + 1;
                    if rest[i] == b'\r' {
                        match rest.get(i + 1) {
                            Some(b'\n') => consumed += 1,
                            Some(_) => {}
                            None => self.after_cr = true,
                        }
                    }
                    let line = *pos..*pos + i;
                    let line_off = self.line_start;
                    *pos += consumed;
                    self.offset += consumed as u64;
                    self.line_start = self.offset;
                    if self.complete_line(chunk, line, line_off)? {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// Decodes the lines of `chunk` from `*pos`, the start of a line with
    /// nothing buffered or skipped (the usual state), until an event is
    /// dispatched, an error occurs or the chunk is used up (buffering the
    /// start of a line that ends in a later chunk).
    ///
    /// Only the position is tracked per line; the stream offsets are derived
    /// from it when needed.
    fn lines(&mut self, chunk: &Bytes, pos: &mut usize) -> Result<bool, DecodeError> {
        let buf: &[u8] = chunk;
        // Stream offset of `buf[0]`.
        let base = self.offset - *pos as u64;
        let mut start = *pos;
        let mut buffered = false;
        let result = loop {
            let Some(rest) = buf.get(start..).filter(|r| !r.is_empty()) else {
                break Ok(false);
            };
            // Data lines are the long ones: straight to SIMD, but only over
            // the first block (see `run`).
            let (found, searched) = if rest[0] == b'd' {
                let block = &rest[..rest.len().min(BLOCK)];
                (memchr2(b'\n', b'\r', block), block.len())
            } else {
                (find_line_end(rest), rest.len())
            };
            let Some(len) = found else {
                // A long line, or one that ends in a later chunk: buffer what
                // was searched, and let `run` go on a block at a time.
                self.line_start = base + start as u64;
                start += searched;
                buffered = true;
                break self.partial(&rest[..searched]).map(|()| false);
            };
            let line = start..start + len;
            let line_off = base + start as u64;
            start += len + 1;
            if rest[len] == b'\r' {
                match buf.get(start) {
                    Some(b'\n') => start += 1,
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            match self.whole_line(chunk, line, line_off) {
                Ok(false) => {}
                other => break other,
            }
        };
        *pos = start;
        self.offset = base + start as u64;
        if !buffered {
            self.line_start = self.offset;
        }
        result
    }

    /// Handles the line `chunk[range]`, with nothing buffered or skipped;
    /// `Ok(true)` when it dispatches an event.
    fn whole_line(
        &mut self,
        chunk: &Bytes,
        range: Range<usize>,
        line_off: u64,
    ) -> Result<bool, DecodeError> {
        let line = &chunk[range.clone()];
        if line.is_empty() {
            return Ok(self.dispatch());
        }
        let limit = self.config.max_line_length;
        if line.len() > limit {
            self.start_skip(Skip::Event);
            return Err(DecodeError::LineTooLong {
                limit,
                offset: line_off + limit as u64,
            });
        }
        match classify(line) {
            Field::Data(v) => {
                let value = &line[v.clone()];
                let value_off = line_off + v.start as u64;
                // No copy: the value, if it is the event's first, as a
                // slice of the chunk.
                let shared = range.start + v.start..range.start + v.end;
                self.append_data(value, is_ascii(value), value_off, || chunk.slice(shared))?;
            }
            other => self.field(line, other),
        }
        Ok(false)
    }

    /// Whether `more` bytes of input can be appended to the line buffer:
    /// the decoder is in the middle of a line it keeps (the previous input
    /// ended mid-line), and the buffer stays within the line limit, so that
    /// its allocation is bounded by the limit whatever the input.
    fn line_continues(&self, more: usize) -> bool {
        self.skip == Skip::No
            && !self.line.is_empty()
            && self.line.len().saturating_add(more) <= self.config.max_line_length
    }

    /// Appends input to the partial line (see `line_continues`) up to the
    /// first block holding a line end, and returns the rest, to be queued.
    /// Each block is searched and checked for ASCII, then copied, while in
    /// L1 cache, as `run` does for chunks; nothing is decoded yet: the stream
    /// offset and the line's state change in `take_appended`.
    fn append<'a>(&mut self, mut input: &'a [u8]) -> &'a [u8] {
        while !input.is_empty() {
            let block = &input[..input.len().min(BLOCK)];
            if memchr2(b'\n', b'\r', block).is_some() {
                break;
            }
            self.unscanned_ascii &= is_ascii(block);
            self.line.extend_from_slice(block);
            self.unscanned += block.len();
            input = &input[block.len()..];
        }
        input
    }

    /// Decodes the input `append` added to the partial line (it holds no
    /// line end, and fits the line limit).
    fn take_appended(&mut self) {
        self.offset += std::mem::take(&mut self.unscanned) as u64;
        self.line_ascii &= std::mem::replace(&mut self.unscanned_ascii, true);
    }

    /// A copy of input, to be queued as a chunk. Small ones are copied into
    /// a buffer that is reused once the chunks cut from it are dropped,
    /// instead of an allocation each (two with the shared header).
    fn copy_input(&mut self, input: &[u8]) -> Bytes {
        if input.len() > SPARE {
            return Bytes::copy_from_slice(input);
        }
        if self.spare.capacity() - self.spare.len() < input.len() {
            self.spare.reserve(SPARE);
        }
        self.spare.extend_from_slice(input);
        self.spare.split().freeze()
    }

    /// At the start of a buffered line: takes back the whole allocation of
    /// the line buffer if the data last handed over from it has been
    /// dropped. Otherwise the buffer would go on from the end of that data,
    /// and soon reallocate (for long lines, faulting in fresh pages each
    /// time).
    fn reclaim_line_buffer(&mut self) {
        let capacity = std::mem::take(&mut self.line_capacity);
        if capacity > self.line.capacity() {
            // On failure (the data is still in use) nothing changes, and the
            // next write allocates a new buffer.
            let _reclaimed = self.line.try_reclaim(capacity);
        }
    }

    /// Buffers the start of a line whose end is in a later chunk.
    fn partial(&mut self, bytes: &[u8]) -> Result<(), DecodeError> {
        match self.skip {
            Skip::No => {
                let limit = self.config.max_line_length;
                if self.line.len() + bytes.len() > limit {
                    let offset = self.line_start + limit as u64;
                    self.clear_line();
                    self.start_skip(Skip::Line);
                    return Err(DecodeError::LineTooLong { limit, offset });
                }
                if self.line.is_empty() {
                    self.reclaim_line_buffer();
                }
                self.line_ascii &= is_ascii(bytes);
                self.line.extend_from_slice(bytes);
            }
            Skip::Line => {}
            Skip::Event => self.skip_line_nonblank |= !bytes.is_empty(),
        }
        Ok(())
    }

    /// Handles a line whose last bytes are `chunk[range]`, in the slow
    /// states: skipping, or with the start of the line buffered.
    fn complete_line(
        &mut self,
        chunk: &Bytes,
        range: Range<usize>,
        line_off: u64,
    ) -> Result<bool, DecodeError> {
        match self.skip {
            Skip::No => {}
            Skip::Line => {
                self.skip = Skip::Event;
                self.skip_line_nonblank = false;
                return Ok(false);
            }
            Skip::Event => {
                if !self.skip_line_nonblank && range.is_empty() {
                    self.skip = Skip::No;
                }
                self.skip_line_nonblank = false;
                return Ok(false);
            }
        }
        if self.line.is_empty() {
            return self.whole_line(chunk, range, line_off);
        }
        let limit = self.config.max_line_length;
        if self.line.len() + range.len() > limit {
            self.clear_line();
            self.start_skip(Skip::Event);
            return Err(DecodeError::LineTooLong {
                limit,
                offset: line_off + limit as u64,
            });
        }
        let ascii = self.line_ascii && is_ascii(&chunk[range.clone()]);
        self.line.extend_from_slice(&chunk[range]);
        self.buffered_line(ascii, line_off)
    }

    /// Handles the complete line held in `line` (starting at stream offset
    /// `line_off`; `ascii` if it is known to be ASCII), and empties `line`.
    fn buffered_line(&mut self, ascii: bool, line_off: u64) -> Result<bool, DecodeError> {
        self.line_ascii = true;
        let mut buf = std::mem::take(&mut self.line);
        let result = match classify(&buf) {
            Field::Data(v) => {
                let value_off = line_off + v.start as u64;
                if self.data == Data::Empty {
                    // The event's first value: share the line buffer.
                    self.line_capacity = buf.capacity();
                    let line = buf.split().freeze();
                    self.append_data(&line[v.clone()], ascii, value_off, || line.slice(v))
                } else {
                    self.append_data(&buf[v], ascii, value_off, Bytes::new)
                }
            }
            other => {
                self.field(&buf, other);
                Ok(())
            }
        };
        buf.clear();
        self.line = buf;
        result?;
        Ok(false)
    }

    /// Applies a non-`data` field.
    fn field(&mut self, line: &[u8], field: Field) {
        match field {
            Field::Event(v) => {
                let value = &line[v];
                // Streams repeat the same type: keep the decoded string.
                if self.event_type.as_bytes() != value {
                    self.event_type.set_from_utf8_lossy(value);
                }
                self.has_type = !value.is_empty();
            }
            Field::Id(v) => {
                let value = &line[v];
                if !value.contains(&0) {
                    self.id_buffer.set_from_utf8_lossy(value);
                }
            }
            Field::Retry(v) => {
                let value = &line[v];
                if !value.is_empty() && value.iter().all(u8::is_ascii_digit) {
                    let ms = value.iter().fold(0u64, |acc, d| {
                        acc.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                    });
                    self.retry = Some(Duration::from_millis(ms));
                }
            }
            Field::Data(_) | Field::Ignore => {}
        }
    }

    /// Appends a `data` value (and the LF that precedes it, if any); `ascii`
    /// tells that the value is known to be ASCII. If it is the event's first
    /// value, `shared` gives it as [`Bytes`] (without a copy), built in place.
    fn append_data(
        &mut self,
        bytes: &[u8],
        ascii: bool,
        value_off: u64,
        shared: impl FnOnce() -> Bytes,
    ) -> Result<(), DecodeError> {
        let separator = usize::from(self.data != Data::Empty);
        let limit = self.config.max_event_data;
        let new_len = self
            .data_len
            .saturating_add(separator)
            .saturating_add(bytes.len());
        if new_len > limit {
            let fits = limit.saturating_sub(self.data_len + separator);
            self.start_skip(Skip::Event);
            return Err(DecodeError::EventDataTooLarge {
                limit,
                offset: value_off + fits as u64,
            });
        }
        match self.data {
            Data::Empty => {
                // Empty, so `first_data` is `None`: no old value to drop
                // (an empty `Bytes` is dropped through its vtable).
                self.first_data.get_or_insert_with(shared);
                self.data = Data::One;
            }
            Data::One => {
                let first = self.first_data.take().unwrap_or_default();
                self.data = Data::Many;
                self.scratch.clear();
                self.scratch.reserve(new_len);
                self.scratch.extend_from_slice(&first);
                self.scratch.put_u8(b'\n');
                self.scratch.extend_from_slice(bytes);
            }
            Data::Many => {
                self.scratch.put_u8(b'\n');
                self.scratch.extend_from_slice(bytes);
            }
        }
        self.data_len = new_len;
        self.data_ascii &= ascii;
        Ok(())
    }

    /// The standard's "dispatch the event", at a blank line: `true` if there
    /// is an event, which [`take_event`](Self::take_event) then builds.
    fn dispatch(&mut self) -> bool {
        self.last_event_id.clone_from(&self.id_buffer);
        if self.data == Data::Empty {
            self.has_type = false;
            return false;
        }
        true
    }

    /// The event that [`dispatch`](Self::dispatch) found; resets the data
    /// and type buffers.
    ///
    /// Each part is read from where the parser keeps it, never chosen
    /// between values: merging values made the compiler pass them through
    /// the stack, written and read back in different widths (a
    /// store-forwarding stall per event).
    fn take_event(&mut self) -> Event {
        if std::mem::replace(&mut self.data, Data::Empty) == Data::Many {
            self.first_data = Some(self.scratch.split().freeze());
        }
        self.data_len = 0;
        if !std::mem::replace(&mut self.data_ascii, true) {
            if let Some(data) = &mut self.first_data {
                make_utf8(data);
            }
        }
        let event_type = if std::mem::take(&mut self.has_type) {
            &self.event_type
        } else {
            &MESSAGE
        };
        Event {
            event_type: event_type.clone(),
            data: self.first_data.take().unwrap_or_default(),
            id: self.last_event_id.clone(),
        }
    }

    /// Drops the event being built and starts skipping.
    fn start_skip(&mut self, skip: Skip) {
        self.discard_event();
        self.skip = skip;
        self.skip_line_nonblank = false;
    }

    fn clear_line(&mut self) {
        self.line.clear();
        self.unscanned = 0;
        self.unscanned_ascii = true;
        self.line_ascii = true;
    }

    fn discard_event(&mut self) {
        self.data = Data::Empty;
        self.first_data = None;
        self.data_len = 0;
        self.scratch.clear();
        self.data_ascii = true;
        self.has_type = false;
        self.id_buffer.clone_from(&self.last_event_id);
    }

    /// End of stream: discard what is incomplete, get ready for a new stream.
    fn end_stream(&mut self) {
        self.discard_event();
        self.clear_line();
        self.skip = Skip::No;
        self.skip_line_nonblank = false;
        self.after_cr = false;
        self.bom_pending = true;
        self.bom_matched = 0;
        self.offset = 0;
        self.line_start = 0;
    }
}

/// Splits a non-empty line into field name and value (one leading space
/// removed) and classifies the field.
///
/// Only the four known names matter, so the name is matched as a prefix
/// followed by a colon or the end of the line; anything else (a comment, an
/// unknown name, a known name followed by more name characters) is ignored
/// without looking for the colon.
fn classify(line: &[u8]) -> Field {
    /// The value range if `line` is the field `name`, with or without a
    /// colon.
    fn value(line: &[u8], name: &[u8]) -> Option<Range<usize>> {
        let n = name.len();
        if !line.starts_with(name) {
            return None;
        }
        match line.get(n) {
            None => Some(n..n),
            Some(b':') => {
                let start = if line.get(n + 1) == Some(&b' ') {
                    n + 2
                } else {
                    n + 1
                };
                Some(start..line.len())
            }
            Some(_) => None,
        }
    }
    let field = match line.first() {
        Some(b'd') => value(line, b"data").map(Field::Data),
        Some(b'e') => value(line, b"event").map(Field::Event),
        Some(b'i') => value(line, b"id").map(Field::Id),
        Some(b'r') => value(line, b"retry").map(Field::Retry),
        _ => None,
    };
    field.unwrap_or(Field::Ignore)
}

/// Index of the first CR or LF in `bytes`, for lines that are usually
/// short (field names with short values, comments): the first 32 bytes a
/// word at a time, which beats setting up SIMD for a line of a few bytes,
/// then `memchr2`.
fn find_line_end(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    const LF: u64 = u64::from_le_bytes([b'\n'; 8]);
    const CR: u64 = u64::from_le_bytes([b'\r'; 8]);
    let mut at = 0;
    while at < 32 {
        let Some(word) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) else {
            break;
        };
        let word = u64::from_le_bytes(*word);
        // A byte of `x` is zero where `word` has the byte sought; the lowest
        // flagged byte is exact (borrows only run towards higher bytes).
        let (lf, cr) = (word ^ LF, word ^ CR);
        let found = ((lf.wrapping_sub(ONES) & !lf) | (cr.wrapping_sub(ONES) & !cr)) & HIGH;
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    memchr2(b'\n', b'\r', bytes.get(at..)?).map(|i| at + i)
}

/// The default event type.
static MESSAGE: SharedStr = SharedStr::from_static("message");

/// Replaces invalid UTF-8 sequences in `data` with U+FFFD.
#[cold]
fn make_utf8(data: &mut Bytes) {
    if std::str::from_utf8(data).is_err() {
        *data = Bytes::from(String::from_utf8_lossy(data).into_owned());
    }
}

/// Whether `bytes` is all ASCII. `<[u8]>::is_ascii` checks 64-byte blocks
/// with SIMD but the remaining (up to 63) bytes one at a time, which showed
/// in profiles of ~350-byte data lines; here the tail is the last 64 bytes,
/// checked as one (overlapping) block.
fn is_ascii(bytes: &[u8]) -> bool {
    let len = bytes.len();
    if len < 64 {
        return bytes.is_ascii();
    }
    bytes[..len & !63].is_ascii() && bytes[len - 64..].is_ascii()
}
