//! Server side: bytes in, a typed [`Request`] or the exact error response out.

use std::fmt;

use a2a_types::{A2aError, ErrorKind, FieldViolation, Operation};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::batch::is_batch;
use crate::id::Id;
use crate::method::{params_error_path, Form, MethodTable, ParamsInto, ParamsSeed};
use crate::response::ErrorResponse;
use a2a_types::A2aRequest;

/// Limits and tables the request decoder works with.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct DecodeConfig {
    /// Largest accepted request body in bytes; larger input answers
    /// `-32600` without being parsed. Default: 16 MiB.
    pub max_request_size: usize,
    /// Method names the decoder accepts. Default: [`MethodTable::V1`].
    pub methods: MethodTable,
    /// Whether [`decode_request`] checks REQUIRED params fields (`-32602`
    /// with one violation each). Default true; a server whose pipeline
    /// validates every request itself, whatever the binding, turns it off.
    pub validate: bool,
}

/// Default for [`DecodeConfig::max_request_size`]: 16 MiB.
pub const DEFAULT_MAX_REQUEST_SIZE: usize = 16 * 1024 * 1024;

impl Default for DecodeConfig {
    fn default() -> DecodeConfig {
        DecodeConfig {
            max_request_size: DEFAULT_MAX_REQUEST_SIZE,
            methods: MethodTable::V1,
            validate: true,
        }
    }
}

/// A decoded JSON-RPC request: its id and its typed params.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The id to echo in the response ([`Id::Null`] for a notification).
    pub id: Id,
    /// The method and its params.
    pub request: A2aRequest,
    /// True for a notification, a request without an `id` member: the
    /// server runs it and "MUST NOT reply" (JSON-RPC 2.0 section 4.1).
    pub notification: bool,
}

impl Request {
    /// The operation requested.
    pub fn operation(&self) -> Operation {
        self.request.operation()
    }
}

/// Decodes one JSON-RPC request (spec 9.3) into a typed [`Request`].
///
/// Bytes go straight into the params type of the method named: when
/// `method` precedes `params` (as every SDK writes them) the input is read
/// once; when `params` comes first it is held as raw JSON text and decoded
/// when the method is known. Params are then validated for REQUIRED fields.
/// The pass is made by [`a2a_types::json::try_from_slice_seed`]; what it declines is read
/// again by `serde_json`, which also names the failures.
///
/// Failures come back as the [`ErrorResponse`] to send, with the request id
/// whenever it could be read (spec 9.5, JSON-RPC 2.0 section 5.1):
/// - `-32700` the body is not JSON (id `null`);
/// - `-32600` not a request object: a batch (`[...]`, which A2A does not
///   use: its streaming methods cannot share one response), a missing or
///   wrong `"jsonrpc": "2.0"`, a non-string method, an id that is an
///   object, array or boolean, or a body over
///   [`DecodeConfig::max_request_size`];
/// - `-32601` unknown method;
/// - `-32602` params that do not decode (the `google.rpc.BadRequest` detail
///   names the JSON path), nest deeper than serde_json's recursion limit
///   of 128, or lack REQUIRED fields (one violation each).
///
/// A request without an `id` member is a notification (JSON-RPC 2.0
/// section 4.1): it decodes with [`Request::notification`] set, and an
/// error found after its envelope was read (unknown method, bad params)
/// has [`ErrorResponse::notification`] set, since the server must not
/// answer it either. Invalid UTF-8 in a member the decoder reads is
/// `-32700` (RFC 8259 section 8.1: JSON text is UTF-8); unknown members
/// are skipped unread, as their values are. A batch is split by
/// [`split_batch`](crate::split_batch) and each element decoded here.
///
/// Missing or `null` params decode as the empty params object, so a method
/// with no REQUIRED fields (`GetExtendedAgentCard`) needs none.
pub fn decode_request(input: &[u8], config: &DecodeConfig) -> Result<Request, ErrorResponse> {
    if input.len() > config.max_request_size {
        return Err(ErrorResponse::new(
            Id::Null,
            A2aError::new(
                ErrorKind::InvalidRequest,
                format!(
                    "request body of {} bytes exceeds the limit of {} bytes",
                    input.len(),
                    config.max_request_size
                ),
            ),
        ));
    }
    // The params are decoded into this slot rather than returned through
    // the envelope: a request is hundreds of bytes, and every return on its
    // way out would copy it (40% of a small envelope's time, measured).
    let mut params = None;
    let envelope = EnvelopeVisitor {
        methods: &config.methods,
        typed: Some(&mut params),
    };
    match a2a_types::json::try_from_slice_seed(input, envelope) {
        Ok(envelope) => envelope.into_request(&mut params, config.validate),
        Err(_) => decode_declined(input, config),
    }
}

/// The `id` of a request body, read without decoding anything else: the
/// id a server echoes in an error it answers before decoding the request
/// (authentication, version; spec 9.5), so that an anonymous caller cannot
/// make it decode a large body.
///
/// The members before the first `id` are skipped, not decoded, and the
/// rest of the body is not read. `Id::Null` when the body is not an object,
/// when a syntax error comes before the `id`, when there is none, or when
/// it is not a string, number or null. [`decode_request`] may still find
/// the request invalid after an `id` this returned (a syntax error later in
/// the body); its error then carries the id it decides on.
///
/// ```
/// use a2a_jsonrpc::{peek_id, Id};
///
/// assert_eq!(peek_id(br#"{"jsonrpc":"2.0","id":"r-7","params":{"#), Id::String("r-7".into()));
/// assert_eq!(peek_id(br#"{"params":{"a":[1,2]},"id":3}"#), Id::number(3));
/// assert_eq!(peek_id(b"[1]"), Id::Null);
/// // Not a JSON number (a leading zero), so no id.
/// assert_eq!(peek_id(br#"{"id":0769,"method":"GetTask"}"#), Id::Null);
/// ```
pub fn peek_id(input: &[u8]) -> Id {
    // The visitor stops at the id with an error, so the rest of the body is
    // never read; the id travels out through `found`. The fast reader goes
    // first: its errors cost nothing, where serde_json's allocate and
    // format a message, on every request. A body it finished without an
    // id has none; whatever else it declined, serde_json reads.
    let mut found = None;
    let finished = a2a_types::json::try_from_slice_seed(input, PeekId(&mut found)).is_ok();
    match found {
        Some(id) => id,
        None if finished => Id::Null,
        None => peek_id_serde(input),
    }
}

/// [`peek_id`] by `serde_json` alone: what the fast reader declines, and
/// the fuzz harness's reference for what it reads.
pub(crate) fn peek_id_serde(input: &[u8]) -> Id {
    let mut found = None;
    let mut de = serde_json::Deserializer::from_slice(input);
    let _ = de::Deserializer::deserialize_map(&mut de, PeekId(&mut found));
    found.unwrap_or(Id::Null)
}

struct PeekId<'a>(&'a mut Option<Id>);

impl<'de> DeserializeSeed<'de> for PeekId<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for PeekId<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a request object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Key>()? {
            if matches!(key, Key::Id) {
                let raw: &RawValue = map.next_value()?;
                *self.0 = Id::from_raw(raw);
                return Err(de::Error::custom("id found"));
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

/// What the fast reader declined: `serde_json` reads the forms the reader
/// leaves to it, and otherwise the failure is explained.
#[cold]
#[inline(never)]
fn decode_declined(input: &[u8], config: &DecodeConfig) -> Result<Request, ErrorResponse> {
    let mut de = serde_json::Deserializer::from_slice(input);
    let mut params = None;
    let parsed = EnvelopeVisitor {
        methods: &config.methods,
        typed: Some(&mut params),
    }
    .deserialize(&mut de)
    .and_then(|p| de.end().map(|()| p));
    match parsed {
        Ok(envelope) => envelope.into_request(&mut params, config.validate),
        Err(_) => Err(explain_failure(input, config)),
    }
}

/// The members of an envelope as read so far.
struct Envelope<'de> {
    version: Option<Member<'de>>,
    id: Option<&'de RawValue>,
    method: Option<Member<'de>>,
    op: Option<Operation>,
    params: Params<'de>,
    /// The first member that appeared twice, if any.
    duplicate: Option<&'static str>,
    /// The form of the params, from the method table.
    form: Form,
}

/// A member the single pass checked itself, or its raw text for the
/// checks (and error messages) of [`Envelope::into_request`].
#[derive(Clone, Copy)]
enum Member<'de> {
    /// `"jsonrpc": "2.0"`, or a method name found in the table.
    Valid,
    Raw(&'de RawValue),
}

enum Params<'de> {
    Absent,
    /// Decoded into the visitor's slot.
    Typed,
    Raw(&'de RawValue),
}

impl<'de> Envelope<'de> {
    /// Checks the envelope (spec order: request object, method, params) and
    /// finishes decoding the params if they were held raw.
    /// The params are left in `params` until the request is built: each
    /// move of a request is a copy of hundreds of bytes.
    fn into_request(
        self,
        params: &mut Option<A2aRequest>,
        validate: bool,
    ) -> Result<Request, ErrorResponse> {
        let id = match self.id {
            None => None,
            Some(raw) => match Id::from_raw(raw) {
                Some(id) => Some(id),
                None => {
                    return Err(invalid_request(
                        Id::Null,
                        "\"id\" must be a string, a number or null",
                    ))
                }
            },
        };
        if let Err(why) = self.check_request_object() {
            return Err(invalid_request(id.unwrap_or(Id::Null), &why));
        }
        // A valid request object without an id is a notification: it runs,
        // and neither its result nor its error is answered.
        let notification = id.is_none();
        let id = id.unwrap_or(Id::Null);
        self.into_call(id, params, validate)
            .map(|mut r| {
                r.notification = notification;
                r
            })
            .map_err(|mut e| {
                e.notification = notification;
                e
            })
    }

    /// The rest of [`into_request`](Envelope::into_request), past the
    /// request object checks: method and params.
    fn into_call(
        self,
        id: Id,
        params: &mut Option<A2aRequest>,
        validate: bool,
    ) -> Result<Request, ErrorResponse> {
        let Some(op) = self.op else {
            let name = match self.method {
                Some(Member::Raw(raw)) => string_value(raw).unwrap_or_default(),
                _ => Default::default(),
            };
            return Err(ErrorResponse::new(
                id,
                A2aError::new(
                    ErrorKind::MethodNotFound,
                    format!("Method not found: {name}"),
                ),
            ));
        };
        match self.params {
            Params::Typed => {}
            Params::Absent => match ParamsSeed(op, self.form).deserialize(RawNull) {
                Ok(r) => *params = Some(r),
                Err(e) => return Err(ErrorResponse::new(id, A2aError::internal(e.to_string()))),
            },
            Params::Raw(raw) => {
                if raw.get().starts_with('[') {
                    return Err(invalid_params(
                        id,
                        vec![violation(
                            "params",
                            "params must be an object, not an array",
                        )],
                    ));
                }
                let mut de = serde_json::Deserializer::from_str(raw.get());
                match ParamsSeed(op, self.form).deserialize(&mut de) {
                    Ok(r) => *params = Some(r),
                    Err(e) => {
                        return Err(params_decode_error(
                            id,
                            op,
                            self.form,
                            raw.get().as_bytes(),
                            e,
                        ))
                    }
                }
            }
        }
        // Validated where it lies, then moved once, into the result.
        let violations = match params {
            Some(request) if validate => request.validate(),
            Some(_) => Vec::new(),
            None => return Err(params_lost(id)),
        };
        if !violations.is_empty() {
            return Err(invalid_params(id, violations));
        }
        match params.take() {
            Some(request) => Ok(Request {
                id,
                request,
                notification: false,
            }),
            None => Err(params_lost(id)),
        }
    }

    /// The `-32600` checks (JSON-RPC 2.0 section 4): one member per name,
    /// `"jsonrpc": "2.0"`, a string `method`. The reason, if one fails.
    fn check_request_object(&self) -> Result<(), String> {
        if let Some(name) = self.duplicate {
            return Err(format!("duplicate member \"{name}\""));
        }
        match self.version {
            Some(Member::Valid) => {}
            Some(Member::Raw(raw)) if string_value(raw).as_deref() == Some("2.0") => {}
            Some(Member::Raw(other)) => {
                return Err(format!("\"jsonrpc\" must be \"2.0\", got {other}"))
            }
            None => return Err("missing \"jsonrpc\": \"2.0\"".to_owned()),
        }
        match self.method {
            None => Err("missing \"method\"".to_owned()),
            Some(Member::Raw(raw)) if string_value(raw).is_none() => {
                Err("\"method\" must be a string".to_owned())
            }
            Some(_) => Ok(()),
        }
    }
}

/// The slow path after a failed single pass: re-read the envelope with the
/// params held raw to find the id and name the right error.
fn explain_failure(input: &[u8], config: &DecodeConfig) -> ErrorResponse {
    // serde_json skips ignored strings without checking their UTF-8, so
    // the check comes first: bytes that are not UTF-8 are not JSON.
    if let Err(e) = std::str::from_utf8(input) {
        return ErrorResponse::new(
            Id::Null,
            A2aError::new(
                ErrorKind::JsonParse,
                format!(
                    "Invalid JSON payload: invalid UTF-8 at byte {}",
                    e.valid_up_to()
                ),
            ),
        );
    }
    if serde_json::from_slice::<IgnoredAny>(input).is_err() {
        let detail = serde_json::from_slice::<IgnoredAny>(input)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        return ErrorResponse::new(
            Id::Null,
            A2aError::new(
                ErrorKind::JsonParse,
                format!("Invalid JSON payload: {detail}"),
            ),
        );
    }
    if is_batch(input) {
        return invalid_request(
            Id::Null,
            "a batch is split by split_batch, not decoded as one request",
        );
    }
    let mut de = serde_json::Deserializer::from_slice(input);
    let raw = EnvelopeVisitor {
        methods: &config.methods,
        typed: None,
    }
    .deserialize(&mut de);
    match raw {
        Ok(envelope) => match envelope.into_request(&mut None, config.validate) {
            Err(response) => response,
            // The typed pass failed but the raw one succeeded: the params
            // decoder must have been the cause; into_request re-decodes
            // them and reports. Reaching Ok here means the two passes
            // disagree, which is a bug worth naming.
            Ok(request) => ErrorResponse::new(
                request.id,
                A2aError::internal("request decoded on the second pass only"),
            ),
        },
        Err(_) => invalid_request(Id::Null, "the request must be a JSON object"),
    }
}

/// The string a raw member holds (escapes decoded), or `None` if it is
/// not a string.
fn string_value(raw: &RawValue) -> Option<std::borrow::Cow<'_, str>> {
    let text = raw.get();
    let inner = text.strip_prefix('"')?;
    // Without escapes (every real name) it is the text between quotes.
    if let Some(name) = inner.strip_suffix('"') {
        if !name.bytes().any(|b| b == b'\\' || b == b'"') {
            return Some(std::borrow::Cow::Borrowed(name));
        }
    }
    serde_json::from_str::<String>(text)
        .ok()
        .map(std::borrow::Cow::Owned)
}

/// A decoder bug, answered rather than panicked on: every branch above
/// fills the params slot or returns.
fn params_lost(id: Id) -> ErrorResponse {
    ErrorResponse::new(id, A2aError::internal("params were decoded but not kept"))
}

fn invalid_request(id: Id, why: &str) -> ErrorResponse {
    ErrorResponse::new(
        id,
        A2aError::new(ErrorKind::InvalidRequest, format!("Invalid request: {why}")),
    )
}

fn violation(field: &str, description: &str) -> FieldViolation {
    FieldViolation {
        field: field.to_owned(),
        description: description.to_owned(),
    }
}

fn invalid_params(id: Id, violations: Vec<FieldViolation>) -> ErrorResponse {
    ErrorResponse::new(id, A2aError::invalid_params(violations))
}

fn params_decode_error(
    id: Id,
    op: Operation,
    form: Form,
    json: &[u8],
    fallback: serde_json::Error,
) -> ErrorResponse {
    let v = match params_error_path(op, form, json) {
        Some(e) => {
            let path = e.path();
            let field = if path.is_empty() || path == "." {
                "params".to_owned()
            } else {
                format!("params.{path}")
            };
            violation(&field, e.message())
        }
        None => violation("params", &fallback.to_string()),
    };
    invalid_params(id, vec![v])
}

/// Deserializes `null`, for absent params.
struct RawNull;

impl<'de> Deserializer<'de> for RawNull {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        v.visit_none()
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        v.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// Member names of the envelope.
enum Key {
    Jsonrpc,
    Id,
    Method,
    Params,
    Other,
}

impl Key {
    const NAMES: [&'static str; 4] = ["jsonrpc", "id", "method", "params"];

    fn slot(&self) -> Option<usize> {
        match self {
            Key::Jsonrpc => Some(0),
            Key::Id => Some(1),
            Key::Method => Some(2),
            Key::Params => Some(3),
            Key::Other => None,
        }
    }
}

impl<'de> de::Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
                self.visit_bytes(s.as_bytes())
            }
            fn visit_bytes<E: de::Error>(self, s: &[u8]) -> Result<Key, E> {
                Ok(match s {
                    b"jsonrpc" => Key::Jsonrpc,
                    b"id" => Key::Id,
                    b"method" => Key::Method,
                    b"params" => Key::Params,
                    _ => Key::Other,
                })
            }
        }
        // As bytes: no UTF-8 check of names that are compared to ASCII
        // anyway (an unknown name is skipped, like its value).
        d.deserialize_bytes(KeyVisitor)
    }
}

/// `"2.0"`, escaped or not: the one `jsonrpc` member the single pass
/// accepts; anything else fails it.
struct Version;

impl<'de> de::Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Version, D::Error> {
        struct VersionVisitor;
        impl Visitor<'_> for VersionVisitor {
            type Value = Version;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"2.0\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Version, E> {
                match s {
                    "2.0" => Ok(Version),
                    _ => Err(E::custom("not version 2.0")),
                }
            }
        }
        d.deserialize_str(VersionVisitor)
    }
}

/// Reads a method name (escaped or not) and looks it up; an unknown name
/// fails the single pass.
struct MethodSeed<'t>(&'t MethodTable);

impl<'de> DeserializeSeed<'de> for MethodSeed<'_> {
    type Value = Operation;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Operation, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for MethodSeed<'_> {
    type Value = Operation;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a method name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Operation, E> {
        self.0
            .lookup(name)
            .ok_or_else(|| E::custom("unknown method"))
    }
}

/// Reads the envelope object; with a `typed` slot, decodes params straight
/// into it as soon as the method is known.
struct EnvelopeVisitor<'t> {
    methods: &'t MethodTable,
    typed: Option<&'t mut Option<A2aRequest>>,
}

impl<'de> DeserializeSeed<'de> for EnvelopeVisitor<'_> {
    type Value = Envelope<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Envelope<'de>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EnvelopeVisitor<'_> {
    type Value = Envelope<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC request object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Envelope<'de>, A::Error> {
        let EnvelopeVisitor { methods, mut typed } = self;
        let mut env = Envelope {
            version: None,
            id: None,
            method: None,
            op: None,
            params: Params::Absent,
            duplicate: None,
            form: methods.form(),
        };
        let mut seen = [false; 4];
        while let Some(key) = map.next_key::<Key>()? {
            if let Some(slot) = key.slot() {
                if seen[slot] {
                    // A repeated member makes the request ambiguous; the
                    // typed pass bails out so the raw pass can report it.
                    if typed.is_some() {
                        return Err(de::Error::custom("duplicate member"));
                    }
                    env.duplicate.get_or_insert(Key::NAMES[slot]);
                }
                seen[slot] = true;
            }
            match key {
                // The single pass takes only the exact forms of the version
                // and of a known method, borrowed; anything else fails it,
                // and the raw pass reads the text to name the problem.
                Key::Jsonrpc if typed.is_some() => {
                    map.next_value::<Version>()?;
                    env.version = Some(Member::Valid);
                }
                Key::Method if typed.is_some() => {
                    let op = map.next_value_seed(MethodSeed(methods))?;
                    env.op = Some(op);
                    env.method = Some(Member::Valid);
                }
                Key::Jsonrpc => env.version = Some(Member::Raw(map.next_value()?)),
                Key::Id => env.id = Some(map.next_value()?),
                Key::Method => {
                    let raw: &'de RawValue = map.next_value()?;
                    env.op = string_value(raw).and_then(|n| methods.lookup(&n));
                    env.method = Some(Member::Raw(raw));
                }
                Key::Params => {
                    env.params = match (env.op, typed.as_deref_mut()) {
                        (Some(op), Some(slot)) => {
                            map.next_value_seed(ParamsInto(op, methods.form(), slot))?;
                            Params::Typed
                        }
                        _ => Params::Raw(map.next_value()?),
                    };
                }
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(env)
    }
}
