//! Test support compiled into the library so that the fuzz target and the
//! tests share it: a deliberately naive reference interpreter of the HTML
//! standard's algorithm, and the fuzz harness. Hidden from the docs; not
//! part of the API.

use std::time::Duration;

use bytes::Bytes;

use crate::{DecodeError, Decoder, DecoderConfig, Event, SharedStr};

/// What a whole stream decodes to: the items in order, then the final last
/// event ID and retry value.
pub type Outcome = (Vec<Result<Event, DecodeError>>, String, Option<Duration>);

/// Decodes one stream written as the standard's algorithm reads, step by
/// step, over a `String`: no chunks, no limits, no cleverness. Used as the
/// oracle for the real decoder.
pub fn reference_decode(input: &[u8]) -> (Vec<Event>, String, Option<Duration>) {
    let text = String::from_utf8_lossy(input);
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                lines.push(std::mem::take(&mut current));
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
            }
            '\n' => lines.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    // `current` is an incomplete line: discarded.

    let mut events = Vec::new();
    let mut data = String::new();
    let mut event_type = String::new();
    let mut id_buffer = String::new();
    let mut last_event_id = String::new();
    let mut retry = None;
    for line in lines {
        if line.is_empty() {
            last_event_id.clone_from(&id_buffer);
            if data.is_empty() {
                event_type.clear();
                continue;
            }
            if data.ends_with('\n') {
                data.pop();
            }
            let ty = if event_type.is_empty() {
                "message".to_owned()
            } else {
                std::mem::take(&mut event_type)
            };
            events.push(Event {
                event_type: ty.into(),
                data: Bytes::from(std::mem::take(&mut data)),
                id: SharedStr::from(&last_event_id),
            });
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = match line.find(':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (line.as_str(), ""),
        };
        match field {
            "event" => event_type = value.to_owned(),
            "data" => {
                data.push_str(value);
                data.push('\n');
            }
            // An id containing NUL is ignored.
            "id" if !value.contains('\0') => id_buffer = value.to_owned(),
            // Only a non-empty string of ASCII digits sets the retry time.
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                let ms = value.bytes().fold(0u64, |a, d| {
                    a.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                });
                retry = Some(Duration::from_millis(ms));
            }
            _ => {}
        }
    }
    (events, last_event_id, retry)
}

/// Decodes one stream fed as `chunks`, then finished, checking after every
/// step that the decoder's buffers stay within `config`. Chunks are fed
/// alternately with [`Decoder::feed_slice`] and [`Decoder::feed`], whose
/// paths differ (a slice can be appended to the buffered partial line).
///
/// # Panics
///
/// If a buffer exceeds its limit (this is a test helper).
pub fn decode_chunks<'a>(
    config: DecoderConfig,
    chunks: impl IntoIterator<Item = &'a [u8]>,
) -> Outcome {
    let mut decoder = Decoder::with_config(config);
    let mut out = Vec::new();
    let check = |d: &Decoder| {
        let (ty, id) = d.__string_buffers();
        let line_cap = config.max_line_length.saturating_mul(3);
        assert!(
            d.buffered() <= config.max_line_length.saturating_add(config.max_event_data),
            "buffered {} over the limits {config:?}",
            d.buffered()
        );
        assert!(
            ty <= line_cap && id <= line_cap,
            "type/id buffers {ty}/{id} over 3x the line limit"
        );
    };
    for (i, chunk) in chunks.into_iter().enumerate() {
        if i % 2 == 0 {
            decoder.feed_slice(chunk);
        } else {
            decoder.feed(Bytes::copy_from_slice(chunk));
        }
        loop {
            match decoder.next_event() {
                Ok(Some(e)) => out.push(Ok(e)),
                Ok(None) => break,
                Err(e) => out.push(Err(e)),
            }
            check(&decoder);
        }
        check(&decoder);
    }
    decoder.finish();
    out.extend(decoder.events());
    let last = decoder.last_event_id().to_owned();
    (out, last, decoder.retry())
}

/// A small deterministic generator for chunk lengths.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// The fuzz harness (`fuzz/fuzz_targets/sse_decode.rs` calls it, and the
/// corpus replay test too).
///
/// The first four bytes choose the run: byte 0 the limits (small ones half
/// of the time, so that limit errors and recovery are exercised), bytes 1-3
/// the seed of the chunk lengths. The rest is the stream. It checks that
///
/// - decoding never panics;
/// - the result is the same whole, in pseudo-random chunks, in 1-byte and
///   2-byte chunks (chunking invariance, errors and offsets included);
/// - the decoder's buffers never exceed the configured limits;
/// - with limits that cannot be reached, the result equals the reference
///   interpreter's.
///
/// # Panics
///
/// When an invariant is broken: that is the finding.
pub fn fuzz_decode(data: &[u8]) {
    let (control, input) = data.split_at(data.len().min(4));
    let mut control = control.to_vec();
    control.resize(4, 0);
    let config = if control[0] & 1 == 1 {
        DecoderConfig::default()
            .with_max_line_length(usize::from(control[0] >> 1) % 48)
            .with_max_event_data(usize::from(control[1]) % 96)
    } else {
        DecoderConfig::default()
    };

    let whole = decode_chunks(config, [input]);

    let mut rng = XorShift(
        0x9E37_79B9_7F4A_7C15
            ^ u64::from(u32::from_le_bytes([control[1], control[2], control[3], 0])),
    );
    let max_chunk = 1 + (control[2] as usize % 32);
    let mut chunks = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        let n = (1 + (rng.next() as usize % max_chunk)).min(rest.len());
        let (a, b) = rest.split_at(n);
        chunks.push(a);
        rest = b;
    }
    let chunked = decode_chunks(config, chunks);
    assert_eq!(whole, chunked, "chunked decode differs from whole decode");

    if input.len() <= 4096 {
        let bytewise = decode_chunks(config, input.chunks(1));
        assert_eq!(
            whole, bytewise,
            "byte-by-byte decode differs from whole decode"
        );
        let pairs = decode_chunks(config, input.chunks(2));
        assert_eq!(
            whole, pairs,
            "2-byte-chunk decode differs from whole decode"
        );
    }

    if input.len() < config.max_line_length.min(config.max_event_data) {
        let (events, last, retry) = reference_decode(input);
        let events: Vec<Result<Event, DecodeError>> = events.into_iter().map(Ok).collect();
        assert_eq!(
            whole,
            (events, last, retry),
            "decoder differs from the reference"
        );
    }
}
