//! Behaviour of the `Decoder` API that the vector files cannot show: when
//! events become available, zero-copy data, memory, reconnection state and
//! what happens after a limit error.

use std::time::Duration;

use a2a_sse::{DecodeError, Decoder, DecoderConfig, Event};
use bytes::Bytes;

fn event(ty: &str, id: &str, data: &str) -> Event {
    Event {
        event_type: ty.into(),
        data: Bytes::copy_from_slice(data.as_bytes()),
        id: id.into(),
    }
}

#[test]
fn need_more_data_is_not_an_error() {
    let mut d = Decoder::new();
    assert_eq!(d.next_event(), Ok(None));
    d.feed_slice(b"data: par");
    assert_eq!(d.next_event(), Ok(None));
    d.feed_slice(b"tial\n");
    assert_eq!(d.next_event(), Ok(None));
    d.feed_slice(b"\n");
    assert_eq!(d.next_event(), Ok(Some(event("message", "", "partial"))));
    assert_eq!(d.next_event(), Ok(None));
}

#[test]
fn lone_cr_dispatches_without_waiting_for_the_next_byte() {
    // a2a-js #714: the event must come out as soon as the second CR is fed,
    // not when a later byte (or the end of the stream) shows it is no CRLF.
    let mut d = Decoder::new();
    for &b in b"data: x\r" {
        d.feed_slice(&[b]);
        assert_eq!(d.next_event(), Ok(None));
    }
    d.feed_slice(b"\r");
    assert_eq!(d.next_event(), Ok(Some(event("message", "", "x"))));
    // The LF that may follow belongs to that CR and is not another blank line.
    d.feed_slice(b"\ndata: y\r\r");
    assert_eq!(d.next_event(), Ok(Some(event("message", "", "y"))));
}

#[test]
fn several_chunks_can_be_queued_before_draining() {
    let mut d = Decoder::new();
    d.feed_slice(b"data: 1\n\nda");
    d.feed(Bytes::from_static(b"ta: 2\n"));
    d.feed(Bytes::new());
    d.feed_slice(b"\ndata: 3\n\n");
    let got: Vec<_> = d.events().collect();
    assert_eq!(
        got,
        vec![
            Ok(event("message", "", "1")),
            Ok(event("message", "", "2")),
            Ok(event("message", "", "3"))
        ]
    );
}

#[test]
fn single_line_data_is_a_slice_of_the_input_chunk() {
    let chunk = Bytes::from_static(b"event: e\ndata: {\"big\":true}\n\n");
    let mut d = Decoder::new();
    d.feed(chunk.clone());
    let e = d.next_event().unwrap().unwrap();
    let range = chunk.as_ptr_range();
    assert!(range.contains(&e.data.as_ptr()), "data was copied");
    assert_eq!(&e.data[..], b"{\"big\":true}");
}

#[test]
fn long_lines_inside_a_chunk_decode_like_short_ones() {
    // Lines longer than the 4 KiB search block are buffered a block at a
    // time; the result must not depend on where the blocks fall.
    for len in [4090, 4096, 4100, 8191, 8192, 8193, 20_000] {
        let value = "v".repeat(len);
        let stream = format!("id: 1\ndata: {value}\ndata: {value}\n\ndata: {value}\r\n\r\n");
        let chunk = Bytes::from(stream);
        let mut d = Decoder::new();
        d.feed(chunk.clone());
        let events: Vec<Event> = d.events().map(Result::unwrap).collect();
        assert_eq!(
            events,
            vec![
                event("message", "1", &format!("{value}\n{value}")),
                event("message", "1", &value),
            ],
            "length {len}"
        );
        assert_eq!(d.offset(), chunk.len() as u64);
        assert_eq!(d.buffered(), 0);
    }
}

#[test]
fn finish_discards_the_incomplete_event_and_starts_a_new_stream() {
    let mut d = Decoder::new();
    d.feed_slice(b"id: 1\ndata: a\n\nid: 2\ndata: cut");
    d.finish();
    d.feed_slice(b"\xEF\xBB\xBFdata: b\n\n");
    assert_eq!(d.next_event(), Ok(Some(event("message", "1", "a"))));
    assert_eq!(d.last_event_id(), "1");
    // The second stream has its own BOM, and the id of the cut event is lost.
    assert_eq!(d.next_event(), Ok(Some(event("message", "1", "b"))));
    assert_eq!(d.next_event(), Ok(None));
}

#[test]
fn reconnection_state_is_exposed() {
    let mut d = Decoder::new().with_last_event_id("task-7:41");
    assert_eq!(d.last_event_id(), "task-7:41");
    assert_eq!(d.retry(), None);
    d.feed_slice(b"retry: 2500\ndata: x\n\nid: task-7:42\n");
    assert_eq!(d.next_event(), Ok(Some(event("message", "task-7:41", "x"))));
    assert_eq!(d.retry(), Some(Duration::from_millis(2500)));
    // The id line is read but its event is not over: not yet the last id.
    assert_eq!(d.next_event(), Ok(None));
    assert_eq!(d.last_event_id(), "task-7:41");
    d.feed_slice(b"\n");
    assert_eq!(d.next_event(), Ok(None));
    assert_eq!(d.last_event_id(), "task-7:42");
}

#[test]
fn offset_counts_bytes_of_the_current_stream() {
    let mut d = Decoder::new();
    d.feed_slice(b"\xEF\xBB\xBFdata: 1\n\ndata");
    assert!(d.next_event().unwrap().is_some());
    assert_eq!(d.offset(), 3 + 8 + 1);
    assert_eq!(d.next_event(), Ok(None));
    assert_eq!(d.offset(), 16);
    d.finish();
    assert_eq!(d.next_event(), Ok(None));
    assert_eq!(d.offset(), 0);
}

#[test]
fn default_limits_are_documented_values() {
    let c = DecoderConfig::default();
    assert_eq!(c.max_line_length, 16 * 1024 * 1024);
    assert_eq!(c.max_event_data, 16 * 1024 * 1024);
    assert_eq!(*Decoder::new().config(), c);
    let mut custom = DecoderConfig::default();
    custom.max_line_length = 10;
    assert_eq!(custom, DecoderConfig::default().with_max_line_length(10));
}

#[test]
fn after_a_line_limit_error_decoding_resumes_with_the_next_event() {
    let config = DecoderConfig::default().with_max_line_length(16);
    let mut d = Decoder::with_config(config);
    d.feed_slice(b"id: 1\ndata: ok\n\nid: 2\ndata: this line is far too long");
    assert_eq!(d.next_event(), Ok(Some(event("message", "1", "ok"))));
    let err = d.next_event().unwrap_err();
    assert_eq!(
        err,
        DecodeError::LineTooLong {
            limit: 16,
            offset: 22 + 16
        }
    );
    assert_eq!(err.offset(), 38);
    assert_eq!(
        err.to_string(),
        "event-stream line longer than the limit of 16 bytes (at byte 38 of the stream)"
    );
    // The rest of the long line is skipped without being buffered.
    d.feed_slice(&[b'x'; 100_000]);
    assert_eq!(d.next_event(), Ok(None));
    assert_eq!(d.buffered(), 0);
    // ...and so is the rest of its event, id included.
    d.feed_slice(b"\ndata: skipped too\nid: 3\n\ndata: next\n\n");
    assert_eq!(d.next_event(), Ok(Some(event("message", "1", "next"))));
    assert_eq!(d.last_event_id(), "1");
}

#[test]
fn after_a_data_limit_error_decoding_resumes_with_the_next_event() {
    let config = DecoderConfig::default().with_max_event_data(8);
    let mut d = Decoder::with_config(config);
    d.feed_slice(b"data: 1234\ndata: 5678\n\ndata: 12345678\n\n");
    let err = d.next_event().unwrap_err();
    assert_eq!(
        err,
        DecodeError::EventDataTooLarge {
            limit: 8,
            offset: 11 + 6 + 3
        }
    );
    assert_eq!(
        err.to_string(),
        "event data larger than the limit of 8 bytes (at byte 20 of the stream)"
    );
    assert_eq!(d.next_event(), Ok(Some(event("message", "", "12345678"))));
}

#[test]
fn buffers_stay_within_the_limits() {
    let config = DecoderConfig::default()
        .with_max_line_length(1000)
        .with_max_event_data(3000);
    let mut d = Decoder::with_config(config);
    let mut errors = 0;
    for i in 0..2000 {
        let piece: &[u8] = match i % 4 {
            0 => b"data: 0123456789012345678901234567890123456789",
            1 => b"0123456789012345678901234567890123456789\n",
            2 => b"data: 0123456789",
            _ => b"\n",
        };
        d.feed_slice(piece);
        loop {
            match d.next_event() {
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(_) => errors += 1,
            }
            assert!(d.buffered() <= 4000, "buffered {}", d.buffered());
        }
    }
    assert!(errors > 0, "the data limit was never hit");
}

#[test]
fn events_iterator_stops_at_need_more_data() {
    let mut d = Decoder::new();
    d.feed_slice(b"data: a\n\ndata: b");
    assert_eq!(d.events().count(), 1);
    d.feed_slice(b"\n\n");
    assert_eq!(d.events().count(), 1);
}

#[test]
fn a_long_line_in_small_chunks_is_not_rebuffered_quadratically() {
    // 8 MiB of data in 64-byte chunks: re-scanning or re-copying the partial
    // line on every chunk would touch ~0.5 TB; a linear decoder is instant.
    const LEN: usize = 8 * 1024 * 1024;
    let mut d = Decoder::new();
    let start = std::time::Instant::now();
    d.feed_slice(b"data: ");
    let piece = [b'x'; 64];
    for _ in 0..LEN / 64 {
        d.feed(Bytes::copy_from_slice(&piece));
        assert_eq!(d.next_event(), Ok(None));
    }
    d.feed_slice(b"\n\n");
    let e = d.next_event().unwrap().unwrap();
    assert_eq!(e.data.len(), LEN);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn a_long_line_in_small_slices_is_not_rebuffered_quadratically() {
    // As above, through `feed_slice`, whose slices are appended to the
    // buffered start of the line: only the new bytes may be scanned.
    const LEN: usize = 8 * 1024 * 1024;
    let mut d = Decoder::new();
    let start = std::time::Instant::now();
    d.feed_slice(b"data: ");
    let piece = [b'x'; 64];
    for _ in 0..LEN / 64 {
        d.feed_slice(&piece);
        assert_eq!(d.next_event(), Ok(None));
    }
    d.feed_slice(b"\n\n");
    let e = d.next_event().unwrap().unwrap();
    assert_eq!(e.data.len(), LEN);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn slices_appended_to_a_partial_line_decode_as_queued_chunks() {
    let stream: &[u8] =
        b"id: 1\r\ndata: first line\r\ndata: second\r\r\ndata: \xE2\x82\xAC\n\n: c\nevent: x\ndata\n\n";
    let expected = vec![
        event("message", "1", "first line\nsecond"),
        event("message", "1", "\u{20AC}"),
        event("x", "1", ""),
    ];
    for size in 1..stream.len() {
        // Drained after each slice (slices are appended to the line)...
        let mut d = Decoder::new();
        let mut got = Vec::new();
        for piece in stream.chunks(size) {
            d.feed_slice(piece);
            assert!(d.buffered() <= stream.len());
            got.extend(d.events().map(Result::unwrap));
        }
        assert_eq!(got, expected, "slices of {size}, drained");
        assert_eq!(d.offset(), stream.len() as u64);
        // ...or after a slice that ends mid-line, several appended at once,
        // then a chunk queued behind them.
        let mut d = Decoder::new();
        let (head, tail) = stream.split_at(size);
        d.feed_slice(head);
        let mut got: Vec<Event> = d.events().map(Result::unwrap).collect();
        for piece in tail.chunks(3) {
            d.feed_slice(piece);
        }
        d.feed(Bytes::from_static(b"data: last\n\n"));
        got.extend(d.events().map(Result::unwrap));
        let mut all = expected.clone();
        all.push(event("message", "1", "last"));
        assert_eq!(got, all, "split at {size}, then appended");
    }
}

#[test]
fn the_line_limit_counts_slices_appended_to_a_partial_line() {
    let config = DecoderConfig::default().with_max_line_length(20);
    for size in 1..=12 {
        let mut d = Decoder::with_config(config);
        let mut items = Vec::new();
        let stream = b"data: 0123456789\n\ndata: 0123456789012345678901234\n\ndata: ok\n\n";
        for piece in stream.chunks(size) {
            d.feed_slice(piece);
            items.extend(d.events());
        }
        assert_eq!(
            items,
            vec![
                Ok(event("message", "", "0123456789")),
                Err(DecodeError::LineTooLong {
                    limit: 20,
                    offset: 18 + 20
                }),
                Ok(event("message", "", "ok")),
            ],
            "slices of {size}"
        );
    }
}

#[test]
fn feed_slice_decodes_nothing_until_next_event() {
    // A slice continuing a partial line is appended to it (and searched for
    // the line end as it is copied), but the stream offset, the buffered
    // line and the events move only in `next_event`.
    let mut d = Decoder::new();
    d.feed_slice(b"id: 5\ndata: ");
    assert_eq!(d.next_event(), Ok(None));
    assert_eq!((d.offset(), d.buffered()), (12, 6));
    let long = vec![b'x'; 10_000];
    d.feed_slice(&long);
    assert_eq!((d.offset(), d.buffered()), (12, 6));
    d.feed_slice(b"\xC3\xA9\n\ndata: next");
    assert_eq!((d.offset(), d.buffered()), (12, 6));
    let e = d.next_event().unwrap().unwrap();
    assert_eq!(e.data.len(), 10_002);
    assert_eq!(&e.data[10_000..], "é".as_bytes());
    assert_eq!(e.id, "5");
    assert_eq!(d.next_event(), Ok(None));
    assert_eq!(d.offset(), 12 + 10_000 + 4 + 10);
    assert_eq!(d.buffered(), 10);
}
