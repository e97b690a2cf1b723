use super::*;

const PARENT: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

#[test]
fn traceparent_round_trips() {
    let cx = TraceContext::parse(PARENT).unwrap();
    assert_eq!(cx.traceparent(), PARENT);
    assert_eq!(cx.span_id_hex(), "b7ad6b7169203331");
    assert!(cx.sampled());
    let unsampled = TraceContext::parse(&PARENT.replace("-01", "-00")).unwrap();
    assert!(!unsampled.sampled());
}

#[test]
fn invalid_traceparents_are_refused_as_w3c_says() {
    let cases: &[(&str, TraceParentError)] = &[
        ("", TraceParentError::Malformed),
        // Upper-case hex is not lower-case hex (section 3.2.2.3).
        (
            "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
            TraceParentError::Malformed,
        ),
        (
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            TraceParentError::InvalidVersion,
        ),
        (
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
            TraceParentError::ZeroId,
        ),
        (
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            TraceParentError::ZeroId,
        ),
        // Version 00 has exactly four fields.
        (
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-x",
            TraceParentError::Malformed,
        ),
        (
            "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            TraceParentError::Malformed,
        ),
        (
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b71692033-1-01",
            TraceParentError::Malformed,
        ),
        (
            "cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",
            TraceParentError::Malformed,
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(
            TraceContext::parse(input).as_ref(),
            Err(expected),
            "{input:?}"
        );
    }
}

#[test]
fn a_later_version_is_read_as_version_00() {
    let later = "cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-what-comes-next";
    let cx = TraceContext::parse(later).unwrap();
    assert_eq!(cx.traceparent(), PARENT);
}

#[test]
fn headers_give_the_context_with_its_state_or_nothing() {
    let mut headers = HeaderMap::new();
    assert_eq!(TraceContext::from_headers(&headers), None);
    headers.insert(TRACEPARENT, PARENT.parse().unwrap());
    headers.append(TRACESTATE, "congo=t61rcWkgMzE".parse().unwrap());
    headers.append(TRACESTATE, " rojo=00f067aa0ba902b7 ,".parse().unwrap());
    let cx = TraceContext::from_headers(&headers).unwrap();
    assert_eq!(
        cx.tracestate(),
        Some("congo=t61rcWkgMzE,rojo=00f067aa0ba902b7")
    );
    // Two traceparents: which one is the caller's? Neither.
    headers.append(TRACEPARENT, PARENT.parse().unwrap());
    assert_eq!(TraceContext::from_headers(&headers), None);
}

#[test]
fn an_invalid_tracestate_is_dropped_and_the_parent_kept() {
    let mut headers = HeaderMap::new();
    headers.insert(TRACEPARENT, PARENT.parse().unwrap());
    headers.insert(TRACESTATE, "no-equals-sign".parse().unwrap());
    let cx = TraceContext::from_headers(&headers).unwrap();
    assert_eq!(cx.tracestate(), None);
    let too_many: Vec<String> = (0..=MAX_TRACESTATE_MEMBERS)
        .map(|i| format!("k{i}=v"))
        .collect();
    headers.insert(TRACESTATE, too_many.join(",").parse().unwrap());
    assert_eq!(
        TraceContext::from_headers(&headers).unwrap().tracestate(),
        None
    );
}

#[test]
fn a_long_tracestate_loses_long_members_first_then_from_the_end() {
    let long = format!("long={}", "x".repeat(200));
    let short: Vec<String> = (0..30)
        .map(|i| format!("k{i:02}={}", "y".repeat(20)))
        .collect();
    let mut members = vec![short[0].clone(), long];
    members.extend(short[1..].iter().cloned());
    let cx = TraceContext::parse(PARENT)
        .unwrap()
        .with_tracestate(&members.join(","));
    let state = cx.tracestate().unwrap();
    assert!(state.len() <= MAX_TRACESTATE_LEN, "{}", state.len());
    assert!(!state.contains("long="), "the long member goes first");
    assert!(state.starts_with("k00=") && state.contains("k01="));
    assert!(!state.contains("k29="), "then members from the end");
}

#[test]
fn new_roots_and_children_are_valid_and_distinct() {
    let a = TraceContext::new_root(true);
    let b = TraceContext::new_root(false);
    assert_ne!(a.trace_id(), b.trace_id());
    assert!(a.sampled() && !b.sampled());
    let child = a.new_child();
    assert_eq!(child.trace_id(), a.trace_id());
    assert_ne!(child.span_id(), a.span_id());
    // What is written parses back.
    assert_eq!(TraceContext::parse(&child.traceparent()).unwrap(), child);
}

#[test]
fn write_to_replaces_what_the_headers_had() {
    let mut headers = HeaderMap::new();
    headers.insert(TRACEPARENT, "stale".parse().unwrap());
    headers.insert(TRACESTATE, "stale=1".parse().unwrap());
    TraceContext::parse(PARENT).unwrap().write_to(&mut headers);
    assert_eq!(headers[TRACEPARENT], PARENT);
    assert!(!headers.contains_key(TRACESTATE));
}

#[test]
fn span_names_and_attribute_keys_are_distinct() {
    let mut names: Vec<&str> = SpanName::ALL.iter().map(|n| n.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), SpanName::ALL.len());
    let mut keys: Vec<&str> = AttributeKey::ALL.iter().map(|k| k.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), AttributeKey::ALL.len());
}
