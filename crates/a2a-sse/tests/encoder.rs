//! The encoder: line splitting (no field injection), rejected values, and
//! what a decoder reads back.

use std::time::Duration;

use a2a_sse::{Decoder, EncodeError, Encoder, Event};
use bytes::{Bytes, BytesMut};

fn decode(bytes: &[u8]) -> Vec<Event> {
    let mut d = Decoder::new();
    d.feed_slice(bytes);
    d.finish();
    d.events().map(Result::unwrap).collect()
}

#[test]
fn data_is_split_at_every_line_break() {
    let mut e = Encoder::new();
    e.data(b"a\r\nb\rc\nd");
    assert_eq!(e.as_bytes(), b"data: a\ndata: b\ndata: c\ndata: d\n\n");
    e.data(b"");
    e.data(b"x\n");
    e.data(b"\r\n\r\n");
    assert_eq!(
        &e.take()[..],
        &b"data: a\ndata: b\ndata: c\ndata: d\n\ndata: \n\ndata: x\ndata: \n\ndata: \ndata: \ndata: \n\n"[..]
    );
    assert!(e.is_empty());
}

#[test]
fn data_cannot_inject_fields_or_end_the_event() {
    let payload = b"x\n\nevent: evil\r\nid: 666\rretry: 1\n\ndata: y";
    let mut e = Encoder::new();
    e.event(Some("safe"), Some("1"), payload).unwrap();
    let events = decode(e.as_bytes());
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].event_type, "safe");
    assert_eq!(events[0].id, "1");
    assert_eq!(
        &events[0].data[..],
        b"x\n\nevent: evil\nid: 666\nretry: 1\n\ndata: y"
    );
}

#[test]
fn leading_spaces_and_colons_in_values_survive() {
    let mut e = Encoder::new();
    e.event(Some(" spaced:type"), Some(" id:1"), b" data: x")
        .unwrap();
    let events = decode(e.as_bytes());
    assert_eq!(events[0].event_type, " spaced:type");
    assert_eq!(events[0].id, " id:1");
    assert_eq!(&events[0].data[..], b" data: x");
}

#[test]
fn event_type_with_a_line_break_is_rejected_and_nothing_written() {
    let mut e = Encoder::new();
    assert_eq!(
        e.event(Some("a\nb"), None, b"x"),
        Err(EncodeError::InvalidEventType { index: 1 })
    );
    assert_eq!(
        e.event(Some("ab\r"), None, b"x"),
        Err(EncodeError::InvalidEventType { index: 2 })
    );
    assert!(e.is_empty());
    assert_eq!(
        EncodeError::InvalidEventType { index: 2 }.to_string(),
        "event type contains a line break at byte 2"
    );
}

#[test]
fn id_with_line_break_or_nul_is_rejected_and_nothing_written() {
    let mut e = Encoder::new();
    for (id, index) in [("\n", 0), ("a\r", 1), ("ab\0", 2)] {
        assert_eq!(
            e.event(Some("t"), Some(id), b"x"),
            Err(EncodeError::InvalidId { index })
        );
    }
    assert!(e.is_empty());
    assert_eq!(
        EncodeError::InvalidId { index: 0 }.to_string(),
        "event id contains a line break or NUL at byte 0"
    );
}

#[test]
fn empty_type_is_omitted_and_empty_id_resets() {
    let mut e = Encoder::new();
    e.event(None, Some("5"), b"a").unwrap();
    e.event(Some(""), Some(""), b"b").unwrap();
    assert_eq!(e.as_bytes(), b"id: 5\ndata: a\n\nid: \ndata: b\n\n");
    let events = decode(e.as_bytes());
    assert_eq!(events[0].id, "5");
    assert_eq!(events[1].id, "");
    assert_eq!(events[1].event_type, "message");
}

#[test]
fn retry_is_whole_milliseconds() {
    let mut e = Encoder::new();
    e.retry(Duration::from_millis(3000));
    e.retry(Duration::from_micros(1500));
    assert_eq!(e.as_bytes(), b"retry: 3000\nretry: 1\n");
    let mut d = Decoder::new();
    d.feed(e.take());
    assert_eq!(d.next_event(), Ok(None));
    assert_eq!(d.retry(), Some(Duration::from_millis(1)));
}

#[test]
fn comments_prefix_every_line() {
    let mut e = Encoder::new();
    e.comment("");
    e.comment("keep-alive");
    e.comment("two\nlines\r\nand\rmore\n");
    assert_eq!(
        e.as_bytes(),
        b":\n: keep-alive\n: two\n: lines\n: and\n: more\n:\n"
    );
    assert!(decode(e.as_bytes()).is_empty());
}

#[test]
fn forward_reproduces_a_decoded_event() {
    let original = [
        Event {
            event_type: "status-update".into(),
            data: Bytes::from_static(b"{}\n{}"),
            id: "9".into(),
        },
        Event {
            event_type: "message".into(),
            data: Bytes::new(),
            id: "".into(),
        },
    ];
    let mut e = Encoder::with_capacity(64);
    for ev in &original {
        e.forward(ev).unwrap();
    }
    assert_eq!(decode(e.as_bytes()), original);
}

#[test]
fn encoder_appends_to_a_given_buffer() {
    let mut buf = BytesMut::new();
    buf.extend_from_slice(b": hello\n");
    let mut e = Encoder::from_buffer(buf);
    e.data(b"x");
    assert_eq!(e.len(), 8 + 9);
    assert_eq!(&e.into_inner()[..], b": hello\ndata: x\n\n");
}
