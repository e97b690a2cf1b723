//! Distributed tracing: the W3C Trace Context a call carries
//! ([`TraceContext`], `traceparent` and `tracestate`), and the spans a
//! server, the agent kit and push delivery open through a host-supplied
//! [`Tracer`].
//!
//! Every binding carries the trace context as header-named metadata (spec
//! 3.2.6 leaves room for any header; gRPC metadata is headers too, spec
//! 10.2): the server reads it into [`CallContext::trace`](crate::CallContext::trace)
//! and the client writes it from there on every call, so an agent that
//! calls another agent, or a proxy, continues its caller's trace. With a
//! tracer configured
//! (the server's `ServerConfig::with_tracer`) the
//! server opens one [`SpanName::Call`] span per call, a child of the
//! caller's, and puts *its* context in the call's context instead, so the
//! handler's own spans ([`SpanName::Execute`], [`SpanName::Push`] in the
//! agent kit) and its onward calls hang below it.
//!
//! The names and attributes are a closed table ([`SpanName`],
//! [`AttributeKey`]): the OpenTelemetry semantic conventions for RPC where
//! one fits (`rpc.system`, `rpc.service`, `rpc.method`,
//! `rpc.jsonrpc.error_code`, `rpc.grpc.status_code`,
//! `http.response.status_code`, `error.type`), `a2a.*` for what only A2A
//! has. `docs/decisions.md` says why each was chosen.
//!
//! Two tracers come with the crate: behind the `tracing` feature,
//! `TracingTracer` (spans of the `tracing` crate), and behind
//! `opentelemetry-trace`, `OtelTracer` (an OpenTelemetry `Tracer`). Without
//! a tracer nothing is allocated or read beyond the two headers.
//!
//! ```
//! use a2a_wire::trace::TraceContext;
//!
//! let parent = TraceContext::parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")?;
//! assert!(parent.sampled());
//! assert_eq!(parent.trace_id_hex(), "0af7651916cd43dd8448eb211c80319c");
//! assert_eq!(parent.traceparent(), "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
//! # Ok::<(), a2a_wire::trace::TraceParentError>(())
//! ```

use std::fmt;

use http::{HeaderMap, HeaderName, HeaderValue};

#[cfg(feature = "opentelemetry-trace")]
mod otel;
#[cfg(feature = "tracing")]
mod tracing_tracer;

#[cfg(feature = "opentelemetry-trace")]
pub use otel::OtelTracer;
#[cfg(feature = "tracing")]
pub use tracing_tracer::TracingTracer;

/// The `traceparent` header (W3C Trace Context, section 3.2).
pub const TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");
/// The `tracestate` header (W3C Trace Context, section 3.3).
pub const TRACESTATE: HeaderName = HeaderName::from_static("tracestate");

/// The most `tracestate` a context keeps, in bytes: the 512 every
/// participant must propagate (W3C Trace Context, section 3.3.1.5).
pub const MAX_TRACESTATE_LEN: usize = 512;
/// The most list members a `tracestate` has (section 3.3.1.1).
pub const MAX_TRACESTATE_MEMBERS: usize = 32;
/// Members longer than this are the first dropped when a `tracestate`
/// must be cut to [`MAX_TRACESTATE_LEN`] (section 3.3.1.5).
const LONG_MEMBER: usize = 128;

/// The `rpc.service` of every A2A span: the proto's service (spec 10).
pub const RPC_SERVICE: &str = "lf.a2a.v1.A2AService";

/// The trace context of one call: where in which trace it stands (W3C
/// Trace Context Level 1). Read from and written to the `traceparent` and
/// `tracestate` headers.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TraceContext {
    trace_id: [u8; 16],
    span_id: [u8; 8],
    flags: u8,
    state: Option<HeaderValue>,
}

/// Why a `traceparent` was not taken (W3C Trace Context, section 3.2.2):
/// the context is then ignored, as if absent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TraceParentError {
    /// Not `version-traceid-parentid-flags` in lower-case hex of the
    /// right lengths.
    #[error("traceparent is not version-traceid-parentid-flags in lower-case hex")]
    Malformed,
    /// Version `ff`, which is forbidden.
    #[error("traceparent version ff is invalid")]
    InvalidVersion,
    /// A trace id or parent id of all zeros.
    #[error("traceparent has an all-zero trace id or parent id")]
    ZeroId,
}

impl TraceContext {
    /// A context with `trace_id` and `span_id` (the span this context's
    /// receiver is a child of); `None` when either is all zeros, which
    /// W3C Trace Context forbids.
    pub fn new(trace_id: [u8; 16], span_id: [u8; 8], sampled: bool) -> Option<TraceContext> {
        (trace_id != [0; 16] && span_id != [0; 8]).then_some(TraceContext {
            trace_id,
            span_id,
            flags: u8::from(sampled),
            state: None,
        })
    }

    /// Parses a `traceparent` value (section 3.2). A version above `00` is
    /// read as `00` is, ignoring what follows the flags (section 3.2.4).
    pub fn parse(traceparent: &str) -> Result<TraceContext, TraceParentError> {
        let b = traceparent.as_bytes();
        if b.len() < 55 || b[2] != b'-' || b[35] != b'-' || b[52] != b'-' {
            return Err(TraceParentError::Malformed);
        }
        let mut version = [0u8; 1];
        hex_into(&b[0..2], &mut version)?;
        match version[0] {
            0xff => return Err(TraceParentError::InvalidVersion),
            0 if b.len() != 55 => return Err(TraceParentError::Malformed),
            0 => {}
            _ if b.len() > 55 && b[55] != b'-' => return Err(TraceParentError::Malformed),
            _ => {}
        }
        let mut trace_id = [0u8; 16];
        let mut span_id = [0u8; 8];
        let mut flags = [0u8; 1];
        hex_into(&b[3..35], &mut trace_id)?;
        hex_into(&b[36..52], &mut span_id)?;
        hex_into(&b[53..55], &mut flags)?;
        if trace_id == [0; 16] || span_id == [0; 8] {
            return Err(TraceParentError::ZeroId);
        }
        Ok(TraceContext {
            trace_id,
            span_id,
            flags: flags[0],
            state: None,
        })
    }

    /// The context `headers` carry: `traceparent`, and `tracestate` when
    /// the parent is valid (several `tracestate` fields are one list,
    /// section 3.3.1.1). `None` when `traceparent` is absent, repeated or
    /// invalid: the receiver then starts a trace of its own (section
    /// 3.2.2).
    pub fn from_headers(headers: &HeaderMap) -> Option<TraceContext> {
        let mut parents = headers.get_all(TRACEPARENT).iter();
        let parent = parents.next()?;
        if parents.next().is_some() {
            return None;
        }
        let mut context = TraceContext::parse(parent.to_str().ok()?).ok()?;
        context.state = tracestate(headers);
        Some(context)
    }

    /// Writes `traceparent` and `tracestate` (when there is one) into
    /// `headers`, replacing what they had.
    pub fn write_to(&self, headers: &mut HeaderMap) {
        // Lower-case hex and dashes: always a valid header value.
        if let Ok(value) = HeaderValue::try_from(self.traceparent()) {
            headers.insert(TRACEPARENT, value);
        }
        match &self.state {
            Some(state) => headers.insert(TRACESTATE, state.clone()),
            None => headers.remove(TRACESTATE),
        };
    }

    /// The `traceparent` value, version `00`.
    pub fn traceparent(&self) -> String {
        let mut out = String::with_capacity(55);
        out.push_str("00-");
        push_hex(&mut out, &self.trace_id);
        out.push('-');
        push_hex(&mut out, &self.span_id);
        out.push('-');
        push_hex(&mut out, &[self.flags]);
        out
    }

    /// The trace's id.
    pub fn trace_id(&self) -> [u8; 16] {
        self.trace_id
    }

    /// The trace's id in lower-case hex, as `traceparent` writes it.
    pub fn trace_id_hex(&self) -> String {
        let mut out = String::with_capacity(32);
        push_hex(&mut out, &self.trace_id);
        out
    }

    /// The id of the span this context's receiver is a child of (the
    /// `parent-id` field).
    pub fn span_id(&self) -> [u8; 8] {
        self.span_id
    }

    /// The span id in lower-case hex.
    pub fn span_id_hex(&self) -> String {
        let mut out = String::with_capacity(16);
        push_hex(&mut out, &self.span_id);
        out
    }

    /// The trace flags (bit 0: sampled).
    pub fn flags(&self) -> u8 {
        self.flags
    }

    /// Whether the caller may have recorded its span (the `sampled` flag).
    pub fn sampled(&self) -> bool {
        self.flags & 1 == 1
    }

    /// The `tracestate` list, as received (bounded, section 3.3).
    pub fn tracestate(&self) -> Option<&str> {
        self.state.as_ref().and_then(|s| s.to_str().ok())
    }

    /// The same context with `tracestate` (bounded as a received one is;
    /// a value no header can carry is left out).
    pub fn with_tracestate(mut self, state: &str) -> TraceContext {
        self.state = bound_tracestate(std::iter::once(state));
        self
    }

    /// A new trace, with a fresh span id as its first parent. The ids come
    /// from the standard library's per-process random hasher keys and a
    /// counter: unpredictable enough to keep traces apart (W3C Trace
    /// Context, section 3.2.2.3, asks for uniqueness, not secrecy), with no
    /// random number crate in the core.
    pub fn new_root(sampled: bool) -> TraceContext {
        let trace = (u128::from(random_id()) << 64) | u128::from(random_id());
        TraceContext {
            trace_id: trace.to_be_bytes(),
            span_id: random_id().to_be_bytes(),
            flags: u8::from(sampled),
            state: None,
        }
    }

    /// A child in the same trace, with a fresh span id (made as
    /// [`new_root`](Self::new_root) makes them).
    pub fn new_child(&self) -> TraceContext {
        TraceContext {
            span_id: random_id().to_be_bytes(),
            ..self.clone()
        }
    }

    /// A child context: the same trace and state, `span_id` as the parent
    /// a receiver sees. `None` for an all-zero `span_id`.
    pub fn child(&self, span_id: [u8; 8]) -> Option<TraceContext> {
        (span_id != [0; 8]).then(|| TraceContext {
            span_id,
            ..self.clone()
        })
    }
}

impl fmt::Debug for TraceContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TraceContext")
            .field("traceparent", &self.traceparent())
            .field("tracestate", &self.tracestate())
            .finish()
    }
}

impl fmt::Display for TraceContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.traceparent())
    }
}

/// A non-zero id from the process's random hasher keys and a counter.
fn random_id() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    loop {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        let id = hasher.finish();
        if id != 0 {
            return id;
        }
    }
}

fn hex_into(hex: &[u8], out: &mut [u8]) -> Result<(), TraceParentError> {
    fn nibble(c: u8) -> Result<u8, TraceParentError> {
        match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            _ => Err(TraceParentError::Malformed),
        }
    }
    for (byte, pair) in out.iter_mut().zip(hex.chunks_exact(2)) {
        *byte = nibble(pair[0])? << 4 | nibble(pair[1])?;
    }
    Ok(())
}

fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0xf)] as char);
    }
}

/// The `tracestate` fields of `headers` as one bounded list.
fn tracestate(headers: &HeaderMap) -> Option<HeaderValue> {
    let fields: Vec<&str> = headers
        .get_all(TRACESTATE)
        .iter()
        .map(|v| v.to_str())
        .collect::<Result<_, _>>()
        .ok()?;
    bound_tracestate(fields.into_iter())
}

/// The list members of `fields` (comma-separated, empty members and
/// surrounding spaces dropped, section 3.3.1.1), at most
/// [`MAX_TRACESTATE_MEMBERS`] and [`MAX_TRACESTATE_LEN`] bytes: over the
/// length, members over 128 bytes go first, then members from the end
/// (section 3.3.1.5). A member that is not `key=value` makes the whole
/// list invalid, and it is dropped (section 3.3.1.3).
fn bound_tracestate<'a>(fields: impl Iterator<Item = &'a str>) -> Option<HeaderValue> {
    let mut members: Vec<&str> = Vec::new();
    for field in fields {
        for member in field.split(',') {
            let member = member.trim_matches([' ', '\t']);
            if member.is_empty() {
                continue;
            }
            let (key, value) = member.split_once('=')?;
            if key.is_empty() || value.is_empty() || key.contains([' ', '\t']) {
                return None;
            }
            members.push(member);
        }
    }
    if members.len() > MAX_TRACESTATE_MEMBERS {
        return None;
    }
    let len = |m: &[&str]| m.iter().map(|s| s.len()).sum::<usize>() + m.len().saturating_sub(1);
    if len(&members) > MAX_TRACESTATE_LEN {
        members.retain(|m| m.len() <= LONG_MEMBER);
        while len(&members) > MAX_TRACESTATE_LEN {
            members.pop();
        }
    }
    if members.is_empty() {
        return None;
    }
    HeaderValue::try_from(members.join(",")).ok()
}

/// The spans a2a-core opens: a closed set, so that a backend's span names
/// stay few.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SpanName {
    /// One call on the server, from its arrival to its answer (a stream:
    /// its first event). Kind [`SpanKind::Server`].
    Call,
    /// A streaming answer after its first event, until it ends or is
    /// dropped; a child of the call. Kind [`SpanKind::Server`].
    Stream,
    /// One run of the agent kit's executor for a task; a child of the
    /// call that started it. Kind [`SpanKind::Internal`].
    Execute,
    /// One push notification, every attempt of it (spec 4.3.3); a child
    /// of the call that set the config. Kind [`SpanKind::Client`].
    Push,
}

impl SpanName {
    /// Every span name.
    pub const ALL: [SpanName; 4] = [
        SpanName::Call,
        SpanName::Stream,
        SpanName::Execute,
        SpanName::Push,
    ];

    /// The name: `a2a.call`, `a2a.stream`, `a2a.execute` or `a2a.push`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SpanName::Call => "a2a.call",
            SpanName::Stream => "a2a.stream",
            SpanName::Execute => "a2a.execute",
            SpanName::Push => "a2a.push",
        }
    }

    /// The span's kind.
    pub const fn kind(self) -> SpanKind {
        match self {
            SpanName::Call | SpanName::Stream => SpanKind::Server,
            SpanName::Execute => SpanKind::Internal,
            SpanName::Push => SpanKind::Client,
        }
    }
}

/// What side of a remote exchange a span is (OpenTelemetry's span kinds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SpanKind {
    /// Serves a remote caller.
    Server,
    /// Calls a remote peer.
    Client,
    /// Neither.
    Internal,
}

/// Declares the attribute table once: the enum, its names, and the list
/// every tracer may rely on.
macro_rules! attribute_keys {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)*) => {
        /// The attributes a2a-core sets on its spans: a closed table.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum AttributeKey {
            $($(#[$doc])* $variant,)*
        }

        impl AttributeKey {
            /// Every key.
            pub const ALL: &'static [AttributeKey] = &[$(AttributeKey::$variant,)*];

            /// The attribute's name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(AttributeKey::$variant => $name,)*
                }
            }
        }
    };
}

attribute_keys! {
    /// OpenTelemetry RPC: `jsonrpc`, `grpc`, or `a2a` for HTTP+JSON and
    /// custom transports, which have no value of their own.
    RpcSystem => "rpc.system",
    /// OpenTelemetry RPC: always [`RPC_SERVICE`].
    RpcService => "rpc.service",
    /// OpenTelemetry RPC: the operation's name in the operation table
    /// (`SendMessage`), which is the gRPC method name too.
    RpcMethod => "rpc.method",
    /// OpenTelemetry JSON-RPC: `2.0`.
    RpcJsonrpcVersion => "rpc.jsonrpc.version",
    /// OpenTelemetry JSON-RPC: the error's code (spec 5.4).
    RpcJsonrpcErrorCode => "rpc.jsonrpc.error_code",
    /// OpenTelemetry gRPC: the numeric status code (0 when answered).
    RpcGrpcStatusCode => "rpc.grpc.status_code",
    /// OpenTelemetry HTTP: the HTTP+JSON answer's status.
    HttpResponseStatusCode => "http.response.status_code",
    /// OpenTelemetry: the error kind's name in the error table
    /// (`TaskNotFoundError`); absent when the call succeeded.
    ErrorType => "error.type",
    /// The binding's `protocolBinding` (`JSONRPC`, `HTTP+JSON`, `GRPC`), or
    /// `custom`.
    A2aBinding => "a2a.binding",
    /// The negotiated protocol version (`1.0`, `0.3`).
    A2aProtocolVersion => "a2a.protocol_version",
    /// The tenant, when the call names one.
    A2aTenant => "a2a.tenant",
    /// The task the call, the run or the notification is about.
    A2aTaskId => "a2a.task.id",
    /// The task's context.
    A2aContextId => "a2a.context.id",
    /// How it ended: `ok` or the error kind's name (a call, a stream; a
    /// stream the client left early: `dropped`); `ok` or `failed` (a run of
    /// the executor); `delivered`, `failed`, or `stopped` when its config
    /// was deleted first (a notification).
    A2aOutcome => "a2a.outcome",
    /// The events a stream carried, its first included.
    A2aStreamEvents => "a2a.stream.events",
    /// The calls in a JSON-RPC batch (on the batch's span; each call has a
    /// span of its own below it).
    A2aBatchSize => "a2a.batch.size",
    /// A push notification config's id.
    A2aPushConfigId => "a2a.push.config_id",
    /// The attempts a push notification took.
    A2aPushAttempts => "a2a.push.attempts",
}

/// An attribute's value.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum AttributeValue<'a> {
    /// A string.
    Str(&'a str),
    /// An integer.
    Int(i64),
}

/// One attribute of a span.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Attribute<'a> {
    /// Its key.
    pub key: AttributeKey,
    /// Its value.
    pub value: AttributeValue<'a>,
}

impl<'a> Attribute<'a> {
    /// A string attribute.
    pub fn str(key: AttributeKey, value: &'a str) -> Attribute<'a> {
        Attribute {
            key,
            value: AttributeValue::Str(value),
        }
    }

    /// An integer attribute.
    pub fn int(key: AttributeKey, value: i64) -> Attribute<'a> {
        Attribute {
            key,
            value: AttributeValue::Int(value),
        }
    }
}

/// Where a host's spans are made. Methods are called on the request path
/// and must not block.
pub trait Tracer: Send + Sync {
    /// Starts the span `name`, a child of `parent` (the caller's, or a
    /// span of this process), or the root of a new trace.
    fn start(
        &self,
        name: SpanName,
        parent: Option<&TraceContext>,
        attributes: &[Attribute<'_>],
    ) -> Box<dyn Span>;
}

impl fmt::Debug for dyn Tracer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tracer").finish_non_exhaustive()
    }
}

/// A started span; it ends when [`end`](Span::end) is called or it is
/// dropped.
pub trait Span: Send + Sync {
    /// This span's context, for its children and for the peers it calls;
    /// `None` when the tracer has no W3C ids for it.
    fn context(&self) -> Option<TraceContext>;
    /// Sets `attribute`.
    fn set_attribute(&mut self, attribute: Attribute<'_>);
    /// Marks the span failed, with `message` as its status description.
    fn set_error(&mut self, message: &str);
    /// Ends the span.
    fn end(&mut self);
}

impl fmt::Debug for dyn Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Span")
            .field("context", &self.context())
            .finish()
    }
}

#[cfg(test)]
mod tests;
