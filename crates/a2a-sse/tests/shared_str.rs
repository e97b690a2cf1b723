//! `SharedStr`, the type of `Event::event_type` and `Event::id`: it must
//! behave like a `str` whichever way it is stored (inline up to 39 bytes,
//! shared beyond, static).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use a2a_sse::{Decoder, SharedStr};

const LONG: &str = "a-rather-long-event-id-that-does-not-fit-inline-0123456789";

fn forms(s: &'static str) -> Vec<SharedStr> {
    vec![
        SharedStr::from(s),
        SharedStr::from(s.to_owned()),
        SharedStr::from(&s.to_owned()),
        SharedStr::from(Box::<str>::from(s)),
        SharedStr::from(Arc::<str>::from(s)),
        SharedStr::from_static(s),
        s.parse().unwrap(),
    ]
}

#[test]
fn every_form_behaves_as_its_str() {
    for s in [
        "",
        "1",
        "status-update",
        "ünïcödé ✓",
        &LONG[..39],
        &LONG[..40],
        LONG,
    ] {
        for x in forms(s) {
            assert_eq!(x.as_str(), s);
            assert_eq!(&*x, s);
            assert_eq!(x.as_bytes(), s.as_bytes());
            assert_eq!(x.len(), s.len());
            assert_eq!(x.is_empty(), s.is_empty());
            assert_eq!(x, s);
            assert_eq!(s, x);
            assert_eq!(x, *s);
            assert_eq!(*s, x);
            assert_eq!(x, s.to_owned());
            assert_eq!(s.to_owned(), x);
            assert_eq!(x.to_string(), s);
            assert_eq!(format!("{x:?}"), format!("{s:?}"));
            assert_eq!(String::from(x.clone()), s);
            assert_eq!(x.clone(), x);
            assert_eq!(AsRef::<str>::as_ref(&x), s);
            assert_eq!(AsRef::<[u8]>::as_ref(&x), s.as_bytes());
        }
    }
    assert_eq!(SharedStr::new(), "");
    assert_eq!(SharedStr::default(), SharedStr::new());
    assert_ne!(SharedStr::from("a"), SharedStr::from("b"));
    assert_ne!(SharedStr::from(LONG), "a");
}

#[test]
fn hashes_and_orders_as_str() {
    let mut map = HashMap::new();
    map.insert(SharedStr::from("status-update"), 1);
    map.insert(SharedStr::from(LONG), 2);
    map.insert(SharedStr::from_static("message"), 3);
    assert_eq!(map.get("status-update"), Some(&1));
    assert_eq!(map.get(LONG), Some(&2));
    assert_eq!(map.get("message"), Some(&3));
    assert_eq!(map.get(&SharedStr::from(String::from("message"))), Some(&3));

    let words = ["b", "a", LONG, "", "ä", "ab"];
    let sorted: Vec<String> = words
        .iter()
        .map(|w| SharedStr::from(*w))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(String::from)
        .collect();
    let mut expected: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
    expected.sort();
    assert_eq!(sorted, expected);
}

#[test]
fn the_decoder_stores_long_and_invalid_values_correctly() {
    let long_type = "t".repeat(100);
    let mut d = Decoder::new();
    d.feed_slice(format!("event: {long_type}\nid: {LONG}\ndata: x\n\n").as_bytes());
    d.feed_slice(b"event: \xFFbad\nid: \xE2\x82\n");
    d.feed_slice(b"data: y\n\n");
    let mut third = format!("id: {LONG}").into_bytes();
    third.push(0xFF);
    third.extend_from_slice(format!("\nevent: {long_type}").as_bytes());
    third.push(0xC3);
    third.extend_from_slice(b"\ndata: z\n\n");
    d.feed_slice(&third);
    let events: Vec<_> = d.events().map(Result::unwrap).collect();
    assert_eq!(events.len(), 3);
    assert_eq!(events[0].event_type, long_type);
    assert_eq!(events[0].id, LONG);
    assert_eq!(events[1].event_type, "\u{FFFD}bad");
    assert_eq!(events[1].id, "\u{FFFD}");
    assert_eq!(events[2].id, format!("{LONG}\u{FFFD}"));
    assert_eq!(events[2].event_type, format!("{long_type}\u{FFFD}"));
    assert_eq!(d.last_event_id(), format!("{LONG}\u{FFFD}"));
}
