use std::sync::Mutex;

use a2a_types::{ErrorKind, GetTaskRequest, Task, TaskState};

use super::*;
use a2a_wire::trace::AttributeValue;
use a2a_wire::EventIds;

const PARENT: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

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

/// The tracer over a shared [`Recorder`] (a local type: `Tracer` is
/// a2a-wire's and `Arc` the standard library's).
struct Shared(Arc<Recorder>);

impl Tracer for Shared {
    fn start(
        &self,
        name: SpanName,
        parent: Option<&TraceContext>,
        attributes: &[Attribute<'_>],
    ) -> Box<dyn Span> {
        let mut next = self.0.next.lock().unwrap();
        *next += 1;
        let base = parent
            .cloned()
            .unwrap_or_else(|| TraceContext::new([7; 16], [7; 8], true).unwrap());
        let context = base.child(next.to_be_bytes()).unwrap();
        let mut spans = self.0.spans.lock().unwrap();
        spans.push(Recorded {
            name: name.as_str(),
            parent: parent.map(TraceContext::span_id_hex),
            id: context.span_id_hex(),
            ..Recorded::default()
        });
        let mut span = RecordedSpan {
            tracer: Arc::clone(&self.0),
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
            other => format!("{other:?}"),
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
    let tracer: Arc<dyn Tracer> = Arc::new(Shared(Arc::clone(&recorder)));
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
        let tracer: Arc<dyn Tracer> = Arc::new(Shared(Arc::clone(&recorder)));
        let span = CallSpan::start(Some(&tracer), Some(binding), None);
        let _ = span.finish(Err(A2aError::new(ErrorKind::TaskNotFound, "gone")));
        assert_eq!(recorder.spans()[0].get(key), Some(value));
        assert_eq!(recorder.spans()[0].parent, None, "a root without a caller");
    }
}

#[test]
fn a_stream_gets_a_child_span_that_ends_with_its_events() {
    let recorder = Arc::new(Recorder::default());
    let tracer: Arc<dyn Tracer> = Arc::new(Shared(Arc::clone(&recorder)));
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
    let tracer: Arc<dyn Tracer> = Arc::new(Shared(Arc::clone(&recorder)));
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

struct Events(Vec<Result<StreamResponse, A2aError>>);

impl Stream for Events {
    type Item = Result<StreamResponse, A2aError>;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready((!self.0.is_empty()).then(|| self.0.remove(0)))
    }
}
