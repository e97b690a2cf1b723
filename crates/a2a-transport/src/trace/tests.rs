use std::sync::Mutex;

use a2a_types::{ErrorKind, GetTaskRequest, Task, TaskState};

use super::*;
use crate::service::EventIds;

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

/// What a recording tracer saw of one span.
#[derive(Debug, Clone, Default)]
struct Recorded {
    name: &'static str,
    parent: Option<String>,
    id: String,
    attributes: Vec<(&'static str, String)>,
    error: Option<String>,
    ended: bool,
}

#[derive(Default)]
struct Recorder {
    spans: Mutex<Vec<Recorded>>,
    next: Mutex<u64>,
}

impl Recorder {
    fn spans(&self) -> Vec<Recorded> {
        self.spans.lock().unwrap().clone()
    }
}

struct RecordedSpan {
    tracer: Arc<Recorder>,
    index: usize,
    context: TraceContext,
}

impl Tracer for Arc<Recorder> {
    fn start(
        &self,
        name: SpanName,
        parent: Option<&TraceContext>,
        attributes: &[Attribute<'_>],
    ) -> Box<dyn Span> {
        let mut next = self.next.lock().unwrap();
        *next += 1;
        let base = parent
            .cloned()
            .unwrap_or_else(|| TraceContext::new([7; 16], [7; 8], true).unwrap());
        let context = base.child(next.to_be_bytes()).unwrap();
        let mut spans = self.spans.lock().unwrap();
        spans.push(Recorded {
            name: name.as_str(),
            parent: parent.map(TraceContext::span_id_hex),
            id: context.span_id_hex(),
            ..Recorded::default()
        });
        let mut span = RecordedSpan {
            tracer: Arc::clone(self),
            index: spans.len() - 1,
            context,
        };
        drop(spans);
        for a in attributes {
            span.set_attribute(*a);
        }
        Box::new(span)
    }
}

impl Span for RecordedSpan {
    fn context(&self) -> Option<TraceContext> {
        Some(self.context.clone())
    }
    fn set_attribute(&mut self, attribute: Attribute<'_>) {
        let value = match attribute.value {
            AttributeValue::Str(s) => s.to_owned(),
            AttributeValue::Int(i) => i.to_string(),
        };
        self.tracer.spans.lock().unwrap()[self.index]
            .attributes
            .push((attribute.key.as_str(), value));
    }
    fn set_error(&mut self, message: &str) {
        self.tracer.spans.lock().unwrap()[self.index].error = Some(message.to_owned());
    }
    fn end(&mut self) {
        self.tracer.spans.lock().unwrap()[self.index].ended = true;
    }
}

impl Recorded {
    fn get(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }
}

fn get_task() -> A2aRequest {
    A2aRequest::GetTask(GetTaskRequest {
        id: "task-1".into(),
        tenant: "acme".into(),
        ..Default::default()
    })
}

#[test]
fn a_call_span_is_a_child_of_the_caller_and_names_the_call() {
    let recorder = Arc::new(Recorder::default());
    let tracer: Arc<dyn Tracer> = Arc::new(Arc::clone(&recorder));
    let caller = TraceContext::parse(PARENT).unwrap();
    let span = CallSpan::start(Some(&tracer), Some(Binding::Grpc), Some(caller.clone()));
    span.admitted(ProtocolVersion::V1_0);
    let handler_sees = span.context().unwrap();
    assert_eq!(handler_sees.trace_id(), caller.trace_id());
    assert_ne!(
        handler_sees.span_id(),
        caller.span_id(),
        "the call's span, not the caller's"
    );
    span.decoding(|| Ok(get_task()))().unwrap();
    let _ = span.finish(Err(A2aError::task_not_found("task-1")));
    let spans = recorder.spans();
    assert_eq!(spans.len(), 1);
    let call = &spans[0];
    assert_eq!(call.name, "a2a.call");
    assert_eq!(call.parent.as_deref(), Some("b7ad6b7169203331"));
    assert_eq!(call.id, handler_sees.span_id_hex());
    assert!(call.ended);
    for (key, value) in [
        ("rpc.system", "grpc"),
        ("rpc.service", "lf.a2a.v1.A2AService"),
        ("rpc.method", "GetTask"),
        ("a2a.binding", "GRPC"),
        ("a2a.protocol_version", "1.0"),
        ("a2a.tenant", "acme"),
        ("a2a.task.id", "task-1"),
        ("a2a.outcome", "TaskNotFoundError"),
        ("error.type", "TaskNotFoundError"),
        ("rpc.grpc.status_code", "5"),
    ] {
        assert_eq!(call.get(key), Some(value), "{key}");
    }
    assert!(call.error.is_some());
}

#[test]
fn jsonrpc_and_http_json_errors_carry_their_binding_s_code() {
    for (binding, key, value) in [
        (Binding::JsonRpc, "rpc.jsonrpc.error_code", "-32001"),
        (Binding::HttpJson, "http.response.status_code", "404"),
    ] {
        let recorder = Arc::new(Recorder::default());
        let tracer: Arc<dyn Tracer> = Arc::new(Arc::clone(&recorder));
        let span = CallSpan::start(Some(&tracer), Some(binding), None);
        let _ = span.finish(Err(A2aError::new(ErrorKind::TaskNotFound, "gone")));
        assert_eq!(recorder.spans()[0].get(key), Some(value));
        assert_eq!(recorder.spans()[0].parent, None, "a root without a caller");
    }
}

#[test]
fn a_stream_gets_a_child_span_that_ends_with_its_events() {
    let recorder = Arc::new(Recorder::default());
    let tracer: Arc<dyn Tracer> = Arc::new(Arc::clone(&recorder));
    let span = CallSpan::start(Some(&tracer), Some(Binding::HttpJson), None);
    let first = StreamResponse::Task(Task::new("task-9", "ctx", TaskState::Working));
    let rest: EventStream = Box::pin(Events(vec![Ok(first.clone()), Ok(first.clone())]));
    let answer = span.finish(Ok(Answer::Stream {
        first,
        rest,
        ids: EventIds::default(),
    }));
    let Ok(Answer::Stream { mut rest, .. }) = answer else {
        panic!("not a stream")
    };
    let spans = recorder.spans();
    assert!(spans[0].ended, "the call ends at its first event");
    assert_eq!(spans[1].name, "a2a.stream");
    assert_eq!(spans[1].parent.as_deref(), Some(spans[0].id.as_str()));
    assert_eq!(spans[1].get("a2a.task.id"), Some("task-9"));
    assert!(!spans[1].ended);
    let mut poll = || {
        rest.as_mut()
            .poll_next(&mut Context::from_waker(std::task::Waker::noop()))
    };
    assert!(matches!(poll(), Poll::Ready(Some(Ok(_)))));
    assert!(matches!(poll(), Poll::Ready(Some(Ok(_)))));
    assert!(matches!(poll(), Poll::Ready(None)));
    let stream = &recorder.spans()[1];
    assert!(stream.ended);
    assert_eq!(stream.get("a2a.stream.events"), Some("3"));
    assert_eq!(stream.get("a2a.outcome"), Some("ok"));
}

#[test]
fn a_stream_dropped_early_says_so() {
    let recorder = Arc::new(Recorder::default());
    let tracer: Arc<dyn Tracer> = Arc::new(Arc::clone(&recorder));
    let span = CallSpan::start(Some(&tracer), Some(Binding::JsonRpc), None);
    let first = StreamResponse::Task(Task::new("t", "c", TaskState::Working));
    let rest: EventStream = Box::pin(Events(vec![Ok(first.clone())]));
    drop(span.finish(Ok(Answer::Stream {
        first,
        rest,
        ids: EventIds::default(),
    })));
    let stream = &recorder.spans()[1];
    assert!(stream.ended);
    assert_eq!(stream.get("a2a.outcome"), Some("dropped"));
}

#[test]
fn without_a_tracer_the_caller_s_context_reaches_the_handler() {
    let caller = TraceContext::parse(PARENT).unwrap();
    let span = CallSpan::start(None, Some(Binding::JsonRpc), Some(caller.clone()));
    assert_eq!(span.context(), Some(caller));
    let answer = span.finish(Ok(Answer::EmptyStream));
    assert!(matches!(answer, Ok(Answer::EmptyStream)));
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

struct Events(Vec<Result<StreamResponse, A2aError>>);

impl Stream for Events {
    type Item = Result<StreamResponse, A2aError>;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready((!self.0.is_empty()).then(|| self.0.remove(0)))
    }
}
