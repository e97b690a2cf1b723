//! Property tests: chunking invariance on generated event streams (checked
//! against the reference interpreter), decode(encode(events)) == events,
//! and arbitrary bytes through the fuzz harness (no panic, bounded buffers).

use a2a_sse::{decode_chunks, fuzz_decode, reference_decode, DecoderConfig, Encoder, Event};
use bytes::Bytes;
use proptest::prelude::*;

/// A value: mostly text with the characters that matter to the format,
/// sometimes raw bytes that are not UTF-8.
fn value() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        6 => "[a-z0-9 ]{0,6}".prop_map(String::into_bytes),
        1 => Just(b":".to_vec()),
        1 => Just(b" ".to_vec()),
        1 => Just(b"\t".to_vec()),
        1 => Just(b"\0".to_vec()),
        1 => Just("é€豆".as_bytes().to_vec()),
        1 => Just("\u{FEFF}".as_bytes().to_vec()),
        1 => prop::sample::select(vec![
            vec![0xFF],
            vec![0xE2, 0x82],
            vec![0xED, 0xA0, 0x80],
            vec![0xC0, 0x80],
            vec![0xF0, 0x9F, 0x98],
        ]),
    ];
    prop::collection::vec(piece, 0..5).prop_map(|v| v.concat())
}

fn line() -> impl Strategy<Value = Vec<u8>> {
    let name = prop::sample::select(vec![
        "data", "data", "data", "event", "id", "retry", "Data", "dat", "datas", "foo", "",
    ]);
    let sep = prop::sample::select(vec![":", ": ", ":  ", ""]);
    let retry = prop::sample::select(vec![
        "retry: 10",
        "retry:007",
        "retry: +1",
        "retry: 99999999999999999999",
    ]);
    prop_oneof![
        8 => (name, sep, value()).prop_map(|(n, s, v)| [n.as_bytes(), s.as_bytes(), &v].concat()),
        2 => Just(Vec::new()),
        1 => value().prop_map(|v| [b":".as_slice(), &v].concat()),
        1 => retry.prop_map(|r| r.as_bytes().to_vec()),
    ]
}

/// A line longer than the decoder's 4 KiB search block: a field name and a
/// value repeated to 4-14 KB.
fn long_line() -> impl Strategy<Value = Vec<u8>> {
    let name = prop::sample::select(vec!["data: ", "data:", "event: ", "id: ", ": ", "foo: "]);
    (
        name,
        value().prop_filter("non-empty", |v| !v.is_empty()),
        4000usize..14000,
    )
        .prop_map(|(n, v, len)| {
            let mut line = n.as_bytes().to_vec();
            while line.len() < len {
                line.extend_from_slice(&v);
            }
            line
        })
}

/// A stream: optional BOM, lines with random line endings, optional
/// unterminated tail.
fn stream() -> impl Strategy<Value = Vec<u8>> {
    stream_of(line)
}

/// A stream of mostly short lines with some long ones.
fn long_stream() -> impl Strategy<Value = Vec<u8>> {
    stream_of(|| prop_oneof![6 => line(), 1 => long_line()])
}

fn stream_of<S: Strategy<Value = Vec<u8>>>(line: impl Fn() -> S) -> impl Strategy<Value = Vec<u8>> {
    let ending = prop::sample::select(vec!["\n", "\r", "\r\n"]);
    (
        any::<bool>(),
        prop::collection::vec((line(), ending), 0..40),
        prop::option::of(line()),
    )
        .prop_map(|(bom, lines, tail)| {
            let mut out = Vec::new();
            if bom {
                out.extend_from_slice(b"\xEF\xBB\xBF");
            }
            for (l, e) in lines {
                out.extend_from_slice(&l);
                out.extend_from_slice(e.as_bytes());
            }
            if let Some(t) = tail {
                out.extend_from_slice(&t);
            }
            out
        })
}

/// Cuts `bytes` at the given fractions of its length.
fn cut<'a>(bytes: &'a [u8], cuts: &[f64]) -> Vec<&'a [u8]> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|f| (f * bytes.len() as f64) as usize)
        .collect();
    at.push(bytes.len());
    at.sort_unstable();
    let mut out = Vec::new();
    let mut start = 0;
    for end in at {
        out.push(&bytes[start..end]);
        start = end;
    }
    out
}

proptest! {
    #[test]
    fn any_chunking_decodes_like_the_reference(
        bytes in stream(),
        cuts in prop::collection::vec(0.0f64..1.0, 0..12),
    ) {
        let config = DecoderConfig::default();
        let whole = decode_chunks(config, [bytes.as_slice()]);
        let chunked = decode_chunks(config, cut(&bytes, &cuts));
        prop_assert_eq!(&whole, &chunked);
        let bytewise = decode_chunks(config, bytes.chunks(1));
        prop_assert_eq!(&whole, &bytewise);
        let (events, last, retry) = reference_decode(&bytes);
        let reference = (events.into_iter().map(Ok).collect::<Vec<_>>(), last, retry);
        prop_assert_eq!(whole, reference);
    }

    #[test]
    fn long_lines_decode_like_the_reference(
        bytes in long_stream(),
        cuts in prop::collection::vec(0.0f64..1.0, 0..12),
        limit in 3000usize..16000,
    ) {
        let config = DecoderConfig::default();
        let whole = decode_chunks(config, [bytes.as_slice()]);
        let chunked = decode_chunks(config, cut(&bytes, &cuts));
        prop_assert_eq!(&whole, &chunked);
        let (events, last, retry) = reference_decode(&bytes);
        let reference = (events.into_iter().map(Ok).collect::<Vec<_>>(), last, retry);
        prop_assert_eq!(whole, reference);
        // With limits that long lines hit: errors and recovery do not depend
        // on the chunking either.
        let config = config.with_max_line_length(limit).with_max_event_data(limit * 2);
        let whole = decode_chunks(config, [bytes.as_slice()]);
        prop_assert_eq!(whole, decode_chunks(config, cut(&bytes, &cuts)));
    }

    #[test]
    fn decode_of_encode_is_identity(
        events in prop::collection::vec(
            (
                prop::option::of("[a-z \u{e9}:-]{0,8}"),
                prop::option::of("[a-z0-9 \u{20ac}:]{0,8}"),
                prop::collection::vec(
                    prop_oneof![
                        4 => "[a-z {}\":,\u{e9}\u{8c46}]{0,12}",
                        1 => prop::sample::select(vec!["\n", "\r", "\r\n", "\u{0}", "\t"]).prop_map(str::to_owned),
                    ],
                    0..6,
                ).prop_map(|v| v.concat()),
                any::<bool>(),
            ),
            0..12,
        ),
        cuts in prop::collection::vec(0.0f64..1.0, 0..8),
    ) {
        let mut encoder = Encoder::new();
        let mut expected = Vec::new();
        let mut last_id = String::new();
        for (ty, id, data, keep_alive) in &events {
            encoder.event(ty.as_deref(), id.as_deref(), data.as_bytes()).unwrap();
            if *keep_alive {
                encoder.comment("keep-alive\nsecond line");
            }
            if let Some(id) = id {
                last_id.clone_from(id);
            }
            expected.push(Event {
                event_type: ty.as_deref().filter(|t| !t.is_empty()).unwrap_or("message").into(),
                data: Bytes::from(data.replace("\r\n", "\n").replace('\r', "\n")),
                id: last_id.as_str().into(),
            });
        }
        let wire = encoder.take();
        let (items, last, _) = decode_chunks(DecoderConfig::default(), cut(&wire, &cuts));
        let decoded: Vec<Event> = items.into_iter().map(Result::unwrap).collect();
        prop_assert_eq!(&decoded, &expected);
        prop_assert_eq!(last, last_id);

        // Forwarding decoded events reproduces them exactly.
        let mut relay = Encoder::new();
        for e in &decoded {
            relay.forward(e).unwrap();
        }
        let (again, _, _) = decode_chunks(DecoderConfig::default(), [&relay.take()[..]]);
        let again: Vec<Event> = again.into_iter().map(Result::unwrap).collect();
        prop_assert_eq!(again, decoded);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_stay_bounded(bytes in prop::collection::vec(any::<u8>(), 0..1024)) {
        fuzz_decode(&bytes);
    }

    #[test]
    fn format_heavy_bytes_never_panic_and_stay_bounded(
        bytes in prop::collection::vec(
            prop::sample::select(vec![
                b'd', b'a', b't', b'a', b':', b' ', b'\r', b'\n', b'\n', b'i', b'e', b'v',
                b'n', b'r', b'y', b'1', 0xEF, 0xBB, 0xBF, 0xFF, 0xE2, 0x82, 0,
            ]),
            0..1024,
        )
    ) {
        fuzz_decode(&bytes);
    }
}
