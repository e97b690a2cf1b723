//! Table test over the vector files in `tests/vectors/*.txt`.
//!
//! Each case is decoded with the input as written (one chunk per `input`
//! line), as one chunk, split in two at every index, byte by byte and in
//! 2-byte chunks; every run must give exactly the expected items. Cases
//! without limits are also checked against the reference interpreter. The
//! file format is described in `tests/vectors/README.md`.

use std::path::Path;
use std::time::Duration;

use a2a_sse::{DecodeError, Decoder, DecoderConfig, Event};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Event(Event),
    Error(DecodeError),
}

#[derive(Debug, Default)]
struct Case {
    file: String,
    name: String,
    source: String,
    config: Option<DecoderConfig>,
    resume_from: Option<String>,
    /// Streams (split by `reconnect`), each a list of chunks.
    streams: Vec<Vec<Vec<u8>>>,
    expected: Vec<Item>,
    final_last_event_id: Option<String>,
    final_retry: Option<Option<Duration>>,
}

/// Parses a quoted string with escapes `\n \r \t \0 \\ \" \xHH`.
fn quoted(s: &str) -> Result<(Vec<u8>, &str), String> {
    let s = s.trim_start();
    let body = s
        .strip_prefix('"')
        .ok_or_else(|| format!("expected a quoted string at {s:?}"))?;
    let mut out = Vec::new();
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Ok((out, &body[i + 1..])),
            b'\\' => {
                let c = *bytes.get(i + 1).ok_or("dangling backslash")?;
                i += 2;
                match c {
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'0' => out.push(0),
                    b'\\' => out.push(b'\\'),
                    b'"' => out.push(b'"'),
                    b'x' => {
                        let hex = body.get(i..i + 2).ok_or("short \\x escape")?;
                        out.push(u8::from_str_radix(hex, 16).map_err(|e| e.to_string())?);
                        i += 2;
                    }
                    other => return Err(format!("unknown escape \\{}", other as char)),
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    Err(format!("unterminated string {s:?}"))
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("expected strings are UTF-8")
}

fn parse_file(path: &Path) -> Vec<Case> {
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let content = std::fs::read_to_string(path).unwrap();
    let mut cases: Vec<Case> = Vec::new();
    for (n, raw) in content.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |msg: String| -> ! { panic!("{file}:{}: {msg}", n + 1) };
        let (key, rest) = line
            .split_once(':')
            .map_or((line, ""), |(k, r)| (k, r.trim()));
        if key == "case" {
            cases.push(Case {
                file: file.clone(),
                name: rest.to_owned(),
                streams: vec![Vec::new()],
                ..Case::default()
            });
            continue;
        }
        let case = cases
            .last_mut()
            .unwrap_or_else(|| fail("line before the first `case:`".into()));
        match key {
            "source" => case.source = rest.to_owned(),
            "config" => {
                let mut config = DecoderConfig::default();
                for part in rest.split_whitespace() {
                    let (k, v) = part
                        .split_once('=')
                        .unwrap_or_else(|| fail(format!("bad config {part}")));
                    let v: usize = v
                        .parse()
                        .unwrap_or_else(|_| fail(format!("bad number {v}")));
                    config = match k {
                        "max-line-length" => config.with_max_line_length(v),
                        "max-event-data" => config.with_max_event_data(v),
                        _ => fail(format!("unknown config {k}")),
                    };
                }
                case.config = Some(config);
            }
            "resume-from" => {
                case.resume_from = Some(text(quoted(rest).unwrap_or_else(|e| fail(e)).0))
            }
            "input" => {
                let (bytes, _) = quoted(rest).unwrap_or_else(|e| fail(e));
                case.streams.last_mut().unwrap().push(bytes);
            }
            "input-repeat" => {
                let (count, s) = rest
                    .split_once(' ')
                    .unwrap_or_else(|| fail("input-repeat N \"s\"".into()));
                let count: usize = count
                    .parse()
                    .unwrap_or_else(|_| fail(format!("bad count {count}")));
                let (bytes, _) = quoted(s).unwrap_or_else(|e| fail(e));
                case.streams.last_mut().unwrap().push(bytes.repeat(count));
            }
            "reconnect" => case.streams.push(Vec::new()),
            "event" => {
                let (ty, r) = quoted(rest).unwrap_or_else(|e| fail(e));
                let (id, r) = quoted(r).unwrap_or_else(|e| fail(e));
                let (data, r) = quoted(r).unwrap_or_else(|e| fail(e));
                if !r.trim().is_empty() {
                    fail(format!("trailing text {r:?}"));
                }
                case.expected.push(Item::Event(Event {
                    event_type: text(ty).into(),
                    id: text(id).into(),
                    data: data.into(),
                }));
            }
            "error" => {
                let mut parts = rest.split_whitespace();
                let kind = parts.next().unwrap_or_default();
                let offset: u64 = parts
                    .next()
                    .and_then(|o| o.parse().ok())
                    .unwrap_or_else(|| fail("error KIND OFFSET".into()));
                let config = case
                    .config
                    .unwrap_or_else(|| fail("error without config".into()));
                case.expected.push(Item::Error(match kind {
                    "line-too-long" => DecodeError::LineTooLong {
                        limit: config.max_line_length,
                        offset,
                    },
                    "event-data-too-large" => DecodeError::EventDataTooLarge {
                        limit: config.max_event_data,
                        offset,
                    },
                    _ => fail(format!("unknown error kind {kind}")),
                }));
            }
            "final-last-event-id" => {
                case.final_last_event_id = Some(text(quoted(rest).unwrap_or_else(|e| fail(e)).0))
            }
            "final-retry" => {
                case.final_retry = Some(match rest {
                    "none" => None,
                    ms => Some(Duration::from_millis(
                        ms.parse()
                            .unwrap_or_else(|_| fail(format!("bad retry {ms}"))),
                    )),
                })
            }
            _ => fail(format!("unknown key {key:?}")),
        }
    }
    cases
}

/// How chunks are handed to the decoder: the two take different paths (a
/// slice can be appended to the buffered partial line).
#[derive(Clone, Copy, Debug)]
enum Feed {
    Slice,
    Bytes,
}

/// Runs `case` with each stream cut into chunks by `chunking`.
fn run(
    case: &Case,
    feed: Feed,
    chunking: &dyn Fn(&[u8]) -> Vec<Vec<u8>>,
) -> (Vec<Item>, String, Option<Duration>) {
    let mut decoder = Decoder::with_config(case.config.unwrap_or_default());
    if let Some(id) = &case.resume_from {
        decoder = decoder.with_last_event_id(id.clone());
    }
    let mut items = Vec::new();
    for stream in &case.streams {
        let bytes = stream.concat();
        for chunk in chunking(&bytes) {
            match feed {
                Feed::Slice => decoder.feed_slice(&chunk),
                Feed::Bytes => decoder.feed(chunk.into()),
            }
            for item in decoder.events() {
                items.push(item.map_or_else(Item::Error, Item::Event));
            }
        }
        decoder.finish();
        for item in decoder.events() {
            items.push(item.map_or_else(Item::Error, Item::Event));
        }
    }
    (items, decoder.last_event_id().to_owned(), decoder.retry())
}

fn check(case: &Case, how: &str, got: (Vec<Item>, String, Option<Duration>)) {
    let what = format!("{} / {} [{}] ({how})", case.file, case.name, case.source);
    assert_eq!(got.0, case.expected, "{what}: items");
    if let Some(id) = &case.final_last_event_id {
        assert_eq!(&got.1, id, "{what}: last event id");
    }
    if let Some(retry) = case.final_retry {
        assert_eq!(got.2, retry, "{what}: retry");
    }
}

#[test]
fn vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    let (mut cases, mut runs) = (0, 0);
    for path in &paths {
        for case in parse_file(path) {
            assert!(
                !case.source.is_empty(),
                "{} / {}: no source",
                case.file,
                case.name
            );
            cases += 1;

            // As written: one chunk per `input` line.
            let streams = case.streams.clone();
            let mut as_written = Decoder::with_config(case.config.unwrap_or_default());
            if let Some(id) = &case.resume_from {
                as_written = as_written.with_last_event_id(id.clone());
            }
            let mut items = Vec::new();
            for stream in &streams {
                for chunk in stream {
                    as_written.feed_slice(chunk);
                    items.extend(
                        as_written
                            .events()
                            .map(|i| i.map_or_else(Item::Error, Item::Event)),
                    );
                }
                as_written.finish();
                items.extend(
                    as_written
                        .events()
                        .map(|i| i.map_or_else(Item::Error, Item::Event)),
                );
            }
            check(
                &case,
                "as written",
                (
                    items,
                    as_written.last_event_id().to_owned(),
                    as_written.retry(),
                ),
            );

            runs += 1;
            for feed in [Feed::Slice, Feed::Bytes] {
                check(
                    &case,
                    &format!("whole, {feed:?}"),
                    run(&case, feed, &|b| vec![b.to_vec()]),
                );
                check(
                    &case,
                    &format!("1-byte chunks, {feed:?}"),
                    run(&case, feed, &|b| b.chunks(1).map(<[u8]>::to_vec).collect()),
                );
                check(
                    &case,
                    &format!("2-byte chunks, {feed:?}"),
                    run(&case, feed, &|b| b.chunks(2).map(<[u8]>::to_vec).collect()),
                );
                runs += 3;
                let longest = case
                    .streams
                    .iter()
                    .map(|s| s.concat().len())
                    .max()
                    .unwrap_or(0);
                for at in 0..=longest {
                    let split = |b: &[u8]| {
                        let (x, y) = b.split_at(at.min(b.len()));
                        vec![x.to_vec(), y.to_vec()]
                    };
                    check(
                        &case,
                        &format!("split at {at}, {feed:?}"),
                        run(&case, feed, &split),
                    );
                    runs += 1;
                }
            }

            // Single-stream cases without limits: the reference agrees.
            if case.config.is_none() && case.resume_from.is_none() && case.streams.len() == 1 {
                let (events, last, retry) = a2a_sse::reference_decode(&case.streams[0].concat());
                let events: Vec<Item> = events.into_iter().map(Item::Event).collect();
                check(&case, "reference interpreter", (events, last, retry));
            }
        }
    }
    println!(
        "{cases} vector cases, {runs} chunkings, from {} files",
        paths.len()
    );
    assert!(cases >= 80, "only {cases} vector cases found");
}
