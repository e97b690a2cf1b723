//! The A2A error model (spec 3.3.2, 5.4, 9.5, 11.6).
//!
//! The model is documented on [`A2aError`], the code table on
//! [`ErrorKind`].

use std::collections::BTreeMap;
use std::fmt;

use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::{DecodeError, DecodeErrorKind};

/// `ErrorInfo.domain` for A2A errors (spec 10.6, 11.6).
pub const ERROR_DOMAIN: &str = "a2a-protocol.org";

/// `ErrorInfo.domain` of the details a client adds to errors that no agent
/// produced: a connection refused, a timeout, an HTTP status without an A2A
/// error (`a2a_transport::client::ClientFailure` names the reasons). Such
/// an error travels as an [`A2aError`] of kind [`ErrorKind::Client`]
/// through the service trait, and [`Display`](fmt::Display) shows its
/// message alone, which says what happened: no agent answered
/// `InternalError (-32603)`.
pub const CLIENT_ERROR_DOMAIN: &str = "client.a2a-transport";
/// `@type` of a `google.rpc.ErrorInfo` detail.
pub const ERROR_INFO_TYPE: &str = "type.googleapis.com/google.rpc.ErrorInfo";
/// `@type` of a `google.rpc.BadRequest` detail.
pub const BAD_REQUEST_TYPE: &str = "type.googleapis.com/google.rpc.BadRequest";
/// `@type` of a `google.rpc.RetryInfo` detail: when to try again.
pub const RETRY_INFO_TYPE: &str = "type.googleapis.com/google.rpc.RetryInfo";

/// A JSON-RPC error code (spec 9.5).
///
/// An open type: any integer round-trips, including codes this crate does
/// not know. The associated constants are the codes of spec 5.4 and 9.5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ErrorCode(pub i64);

impl ErrorCode {
    /// `-32700`: the server received invalid JSON.
    pub const JSON_PARSE: ErrorCode = ErrorCode(-32700);
    /// `-32600`: the JSON sent is not a valid Request object.
    pub const INVALID_REQUEST: ErrorCode = ErrorCode(-32600);
    /// `-32601`: the method does not exist or is not available.
    pub const METHOD_NOT_FOUND: ErrorCode = ErrorCode(-32601);
    /// `-32602`: the method parameters are invalid.
    pub const INVALID_PARAMS: ErrorCode = ErrorCode(-32602);
    /// `-32603`: an internal error occurred on the server.
    pub const INTERNAL: ErrorCode = ErrorCode(-32603);
    /// `-32001`: `TaskNotFoundError`.
    pub const TASK_NOT_FOUND: ErrorCode = ErrorCode(-32001);
    /// `-32002`: `TaskNotCancelableError`.
    pub const TASK_NOT_CANCELABLE: ErrorCode = ErrorCode(-32002);
    /// `-32003`: `PushNotificationNotSupportedError`.
    pub const PUSH_NOTIFICATION_NOT_SUPPORTED: ErrorCode = ErrorCode(-32003);
    /// `-32004`: `UnsupportedOperationError`.
    pub const UNSUPPORTED_OPERATION: ErrorCode = ErrorCode(-32004);
    /// `-32005`: `ContentTypeNotSupportedError`.
    pub const CONTENT_TYPE_NOT_SUPPORTED: ErrorCode = ErrorCode(-32005);
    /// `-32006`: `InvalidAgentResponseError`.
    pub const INVALID_AGENT_RESPONSE: ErrorCode = ErrorCode(-32006);
    /// `-32007`: `ExtendedAgentCardNotConfiguredError`.
    pub const EXTENDED_AGENT_CARD_NOT_CONFIGURED: ErrorCode = ErrorCode(-32007);
    /// `-32008`: `ExtensionSupportRequiredError`.
    pub const EXTENSION_SUPPORT_REQUIRED: ErrorCode = ErrorCode(-32008);
    /// `-32009`: `VersionNotSupportedError`.
    pub const VERSION_NOT_SUPPORTED: ErrorCode = ErrorCode(-32009);
    /// `-32010`: `TaskGenerationMismatchError` (1.1 draft, spec 3.2.2).
    #[cfg(feature = "draft-1-1")]
    pub const TASK_GENERATION_MISMATCH: ErrorCode = ErrorCode(-32010);
    /// `-32090`: authentication failed. The spec leaves this a "JSON-RPC
    /// custom error" (3.3.2); this project uses a code in the server range
    /// away from the A2A codes, which grow from `-32001`.
    pub const UNAUTHENTICATED: ErrorCode = ErrorCode(-32090);
    /// `-32091`: the authenticated caller lacks permission (spec 3.3.2);
    /// project-defined like [`ErrorCode::UNAUTHENTICATED`].
    pub const PERMISSION_DENIED: ErrorCode = ErrorCode(-32091);
    /// `-32092`: the caller sent more calls than the agent's rate limit
    /// allows (spec 3.3.2 "System Errors", 13.4); project-defined like
    /// [`ErrorCode::UNAUTHENTICATED`].
    pub const RATE_LIMITED: ErrorCode = ErrorCode(-32092);
    /// `-32100`: client-local, the code of an [`ErrorKind::Client`] error
    /// (the call never completed: no agent answered). Never put on the
    /// wire: a server that forwards such an error answers it as
    /// `InternalError` (`-32603`). JSON-RPC 2.0 reserves `-32768..=-32100`
    /// for pre-defined errors and defines none here, so no conforming peer
    /// sends it; a received `-32100` still reads as [`ErrorKind::Unknown`]
    /// ([`A2aError::kind`] is `Client` only for the client's own errors).
    pub const CLIENT: ErrorCode = ErrorCode(-32100);

    /// The kind this code names, or [`ErrorKind::Unknown`].
    pub fn kind(self) -> ErrorKind {
        ErrorKind::ALL
            .iter()
            .copied()
            .find(|k| k.code() == self)
            .unwrap_or(ErrorKind::Unknown)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What went wrong, in the spec's words (spec 3.3.2, 5.4, 9.5).
///
/// One table ([`ErrorKind::ALL`], read by the accessors below) gives each
/// kind its JSON-RPC code, HTTP status, gRPC status name and
/// `google.rpc.ErrorInfo.reason`; everything else reads that table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `TaskNotFoundError`: no such task, or not visible to the caller.
    TaskNotFound,
    /// `TaskNotCancelableError`: the task is in a state that cannot be canceled.
    TaskNotCancelable,
    /// `PushNotificationNotSupportedError`: the agent declares no push notifications.
    PushNotificationNotSupported,
    /// `UnsupportedOperationError`: the operation or an aspect of it is not supported.
    UnsupportedOperation,
    /// `ContentTypeNotSupportedError`: a media type in the request is not supported.
    ContentTypeNotSupported,
    /// `InvalidAgentResponseError`: an agent's response does not conform.
    InvalidAgentResponse,
    /// `ExtendedAgentCardNotConfiguredError`: no extended card is configured.
    ExtendedAgentCardNotConfigured,
    /// `ExtensionSupportRequiredError`: a required extension was not declared.
    ExtensionSupportRequired,
    /// `VersionNotSupportedError`: the requested `A2A-Version` is not served.
    VersionNotSupported,
    /// `TaskGenerationMismatchError` (1.1 draft, spec 3.2.2): the task is
    /// not at the `ifGenerationMatch` of the request.
    #[cfg(feature = "draft-1-1")]
    TaskGenerationMismatch,
    /// `JSONParseError` (`-32700`): the payload is not JSON.
    JsonParse,
    /// `InvalidRequestError` (`-32600`): not a valid request object.
    InvalidRequest,
    /// `MethodNotFoundError` (`-32601`): no such method.
    MethodNotFound,
    /// `InvalidParamsError` (`-32602`): parameters fail to decode or validate.
    InvalidParams,
    /// `InternalError` (`-32603`).
    Internal,
    /// Missing or invalid credentials (spec 3.3.2, 7.4).
    Unauthenticated,
    /// The authenticated caller lacks permission (spec 3.3.2, 7.5).
    PermissionDenied,
    /// The caller is over the agent's rate limit (spec 3.3.2 "System
    /// Errors", 13.4): HTTP 429, gRPC `RESOURCE_EXHAUSTED`. The error
    /// carries when to try again ([`A2aError::retry_delay`]).
    RateLimited,
    /// `ClientError`: not an agent's answer but the client's own failure,
    /// the call never completed (a connection refused, a timeout, an HTTP
    /// stack that cannot speak to the host, a response over the size
    /// limit, an HTTP error status without an A2A error). Client-local:
    /// its code is [`ErrorCode::CLIENT`], it is not among
    /// [`ErrorKind::ALL`] (the kinds an agent answers), and on the wire it
    /// reads as `InternalError`. `a2a_transport::client::ClientFailure`
    /// says which failure it was.
    Client,
    /// A code this crate does not know; see [`A2aError::code`].
    Unknown,
}

/// One row of the error table.
struct Row {
    kind: ErrorKind,
    name: &'static str,
    code: ErrorCode,
    http: u16,
    grpc: &'static str,
    reason: &'static str,
    message: &'static str,
}

/// The error table of spec 5.4 and 9.5, extended with the authentication
/// rows of 3.3.2. Reasons and default messages match the official Python
/// SDK so errors read the same whichever side produced them.
const TABLE: &[Row] = &[
    row(
        ErrorKind::TaskNotFound,
        "TaskNotFoundError",
        ErrorCode::TASK_NOT_FOUND,
        404,
        "NOT_FOUND",
        "TASK_NOT_FOUND",
        "Task not found",
    ),
    row(
        ErrorKind::TaskNotCancelable,
        "TaskNotCancelableError",
        ErrorCode::TASK_NOT_CANCELABLE,
        400,
        "FAILED_PRECONDITION",
        "TASK_NOT_CANCELABLE",
        "Task cannot be canceled",
    ),
    row(
        ErrorKind::PushNotificationNotSupported,
        "PushNotificationNotSupportedError",
        ErrorCode::PUSH_NOTIFICATION_NOT_SUPPORTED,
        400,
        "FAILED_PRECONDITION",
        "PUSH_NOTIFICATION_NOT_SUPPORTED",
        "Push Notification is not supported",
    ),
    row(
        ErrorKind::UnsupportedOperation,
        "UnsupportedOperationError",
        ErrorCode::UNSUPPORTED_OPERATION,
        400,
        "FAILED_PRECONDITION",
        "UNSUPPORTED_OPERATION",
        "This operation is not supported",
    ),
    row(
        ErrorKind::ContentTypeNotSupported,
        "ContentTypeNotSupportedError",
        ErrorCode::CONTENT_TYPE_NOT_SUPPORTED,
        400,
        "INVALID_ARGUMENT",
        "CONTENT_TYPE_NOT_SUPPORTED",
        "Incompatible content types",
    ),
    row(
        ErrorKind::InvalidAgentResponse,
        "InvalidAgentResponseError",
        ErrorCode::INVALID_AGENT_RESPONSE,
        500,
        "INTERNAL",
        "INVALID_AGENT_RESPONSE",
        "Invalid agent response",
    ),
    row(
        ErrorKind::ExtendedAgentCardNotConfigured,
        "ExtendedAgentCardNotConfiguredError",
        ErrorCode::EXTENDED_AGENT_CARD_NOT_CONFIGURED,
        400,
        "FAILED_PRECONDITION",
        "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
        "Extended agent card is not configured",
    ),
    row(
        ErrorKind::ExtensionSupportRequired,
        "ExtensionSupportRequiredError",
        ErrorCode::EXTENSION_SUPPORT_REQUIRED,
        400,
        "FAILED_PRECONDITION",
        "EXTENSION_SUPPORT_REQUIRED",
        "Extension support required",
    ),
    row(
        ErrorKind::VersionNotSupported,
        "VersionNotSupportedError",
        ErrorCode::VERSION_NOT_SUPPORTED,
        400,
        "FAILED_PRECONDITION",
        "VERSION_NOT_SUPPORTED",
        "Version not supported",
    ),
    #[cfg(feature = "draft-1-1")]
    row(
        ErrorKind::TaskGenerationMismatch,
        "TaskGenerationMismatchError",
        ErrorCode::TASK_GENERATION_MISMATCH,
        409,
        "ABORTED",
        "TASK_GENERATION_MISMATCH",
        "Task generation mismatch",
    ),
    row(
        ErrorKind::JsonParse,
        "JSONParseError",
        ErrorCode::JSON_PARSE,
        400,
        "INVALID_ARGUMENT",
        "JSON_PARSE",
        "Invalid JSON payload",
    ),
    // Also the kind of a 405 (a method the path does not allow): the
    // resource exists and the request is what is wrong, so INVALID_ARGUMENT,
    // not MethodNotFound's NOT_FOUND, which is for 404 (nothing there).
    row(
        ErrorKind::InvalidRequest,
        "InvalidRequestError",
        ErrorCode::INVALID_REQUEST,
        400,
        "INVALID_ARGUMENT",
        "INVALID_REQUEST",
        "Request payload validation error",
    ),
    row(
        ErrorKind::MethodNotFound,
        "MethodNotFoundError",
        ErrorCode::METHOD_NOT_FOUND,
        404,
        "NOT_FOUND",
        "METHOD_NOT_FOUND",
        "Method not found",
    ),
    row(
        ErrorKind::InvalidParams,
        "InvalidParamsError",
        ErrorCode::INVALID_PARAMS,
        400,
        "INVALID_ARGUMENT",
        "INVALID_PARAMS",
        "Invalid parameters",
    ),
    row(
        ErrorKind::Internal,
        "InternalError",
        ErrorCode::INTERNAL,
        500,
        "INTERNAL",
        "INTERNAL_ERROR",
        "Internal error",
    ),
    row(
        ErrorKind::Unauthenticated,
        "UnauthenticatedError",
        ErrorCode::UNAUTHENTICATED,
        401,
        "UNAUTHENTICATED",
        "UNAUTHENTICATED",
        "Authentication required",
    ),
    row(
        ErrorKind::PermissionDenied,
        "PermissionDeniedError",
        ErrorCode::PERMISSION_DENIED,
        403,
        "PERMISSION_DENIED",
        "PERMISSION_DENIED",
        "Permission denied",
    ),
    row(
        ErrorKind::RateLimited,
        "RateLimitedError",
        ErrorCode::RATE_LIMITED,
        429,
        "RESOURCE_EXHAUSTED",
        "RATE_LIMITED",
        "Rate limit exceeded",
    ),
];

/// The row for codes this crate does not know.
/// [`ErrorKind::Client`]: a client-local code; sent (by a server that
/// forwards one) as what it is to the caller, an internal error.
const CLIENT: Row = row(
    ErrorKind::Client,
    "ClientError",
    ErrorCode::CLIENT,
    500,
    "INTERNAL",
    "INTERNAL_ERROR",
    "The call did not complete",
);

const UNKNOWN: Row = row(
    ErrorKind::Unknown,
    "A2AError",
    ErrorCode(0),
    500,
    "UNKNOWN",
    "UNKNOWN_ERROR",
    "Unknown error",
);

#[allow(clippy::too_many_arguments)]
const fn row(
    kind: ErrorKind,
    name: &'static str,
    code: ErrorCode,
    http: u16,
    grpc: &'static str,
    reason: &'static str,
    message: &'static str,
) -> Row {
    Row {
        kind,
        name,
        code,
        http,
        grpc,
        reason,
        message,
    }
}

impl ErrorKind {
    /// Every known kind, in the order of the table (A2A errors first).
    #[cfg(not(feature = "draft-1-1"))]
    pub const ALL: [ErrorKind; 17] = [
        ErrorKind::TaskNotFound,
        ErrorKind::TaskNotCancelable,
        ErrorKind::PushNotificationNotSupported,
        ErrorKind::UnsupportedOperation,
        ErrorKind::ContentTypeNotSupported,
        ErrorKind::InvalidAgentResponse,
        ErrorKind::ExtendedAgentCardNotConfigured,
        ErrorKind::ExtensionSupportRequired,
        ErrorKind::VersionNotSupported,
        ErrorKind::JsonParse,
        ErrorKind::InvalidRequest,
        ErrorKind::MethodNotFound,
        ErrorKind::InvalidParams,
        ErrorKind::Internal,
        ErrorKind::Unauthenticated,
        ErrorKind::PermissionDenied,
        ErrorKind::RateLimited,
    ];

    /// Every known kind, in the order of the table (A2A errors first).
    #[cfg(feature = "draft-1-1")]
    pub const ALL: [ErrorKind; 18] = [
        ErrorKind::TaskNotFound,
        ErrorKind::TaskNotCancelable,
        ErrorKind::PushNotificationNotSupported,
        ErrorKind::UnsupportedOperation,
        ErrorKind::ContentTypeNotSupported,
        ErrorKind::InvalidAgentResponse,
        ErrorKind::ExtendedAgentCardNotConfigured,
        ErrorKind::ExtensionSupportRequired,
        ErrorKind::VersionNotSupported,
        ErrorKind::TaskGenerationMismatch,
        ErrorKind::JsonParse,
        ErrorKind::InvalidRequest,
        ErrorKind::MethodNotFound,
        ErrorKind::InvalidParams,
        ErrorKind::Internal,
        ErrorKind::Unauthenticated,
        ErrorKind::PermissionDenied,
        ErrorKind::RateLimited,
    ];

    fn row(self) -> &'static Row {
        if self == ErrorKind::Client {
            return &CLIENT;
        }
        TABLE.iter().find(|r| r.kind == self).unwrap_or(&UNKNOWN)
    }

    /// The spec's name, e.g. `TaskNotFoundError`.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// JSON-RPC code (spec 5.4, 9.5); `0` for [`ErrorKind::Unknown`].
    pub fn code(self) -> ErrorCode {
        self.row().code
    }

    /// HTTP status (spec 5.4); 500 for [`ErrorKind::Unknown`].
    pub fn http_status(self) -> u16 {
        self.row().http
    }

    /// gRPC status name (spec 5.4), e.g. `FAILED_PRECONDITION`.
    pub fn grpc_status(self) -> &'static str {
        self.row().grpc
    }

    /// `ErrorInfo.reason`: the name in UPPER_SNAKE_CASE without the
    /// `Error` suffix (spec 10.6, 11.6), e.g. `TASK_NOT_FOUND`.
    pub fn reason(self) -> &'static str {
        self.row().reason
    }

    /// The default human-readable message.
    pub fn default_message(self) -> &'static str {
        self.row().message
    }

    /// The kind whose `ErrorInfo.reason` is `reason`.
    pub fn from_reason(reason: &str) -> Option<ErrorKind> {
        TABLE.iter().find(|r| r.reason == reason).map(|r| r.kind)
    }

    /// True for the A2A-specific errors of spec 3.3.2 (nine; ten with the
    /// 1.1 draft's `TaskGenerationMismatchError`).
    pub fn is_a2a_specific(self) -> bool {
        (-32099..=-32001).contains(&self.code().0)
            && !matches!(
                self,
                ErrorKind::Unauthenticated | ErrorKind::PermissionDenied | ErrorKind::RateLimited
            )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `google.rpc.ErrorInfo`: why an error happened, machine-readably.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorInfo {
    /// UPPER_SNAKE_CASE reason, e.g. `TASK_NOT_FOUND`.
    #[serde(default)]
    pub reason: String,
    /// Error domain; `a2a-protocol.org` for A2A errors.
    #[serde(default)]
    pub domain: String,
    /// Additional context, e.g. `taskId`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
}

/// `google.rpc.BadRequest`: the fields that failed validation.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BadRequest {
    /// One entry per invalid field.
    #[serde(default)]
    pub field_violations: Vec<FieldViolation>,
}

/// One invalid field: the JSON shape of `google.rpc.BadRequest.FieldViolation`
/// (`{"field": "message.parts", "description": "At least one part is required"}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldViolation {
    /// JSON path of the field, e.g. `message.parts` or `tasks[0].status.state`.
    pub field: String,
    /// What is wrong with it.
    pub description: String,
}

/// `google.rpc.RetryInfo`: how long the client should wait before trying
/// again. In ProtoJSON `retryDelay` is a `google.protobuf.Duration`
/// string, seconds with an `s` suffix (`"1.500s"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RetryInfo {
    /// The delay.
    pub retry_delay: std::time::Duration,
}

/// A `google.protobuf.Duration` in ProtoJSON: whole seconds, then 0, 3, 6
/// or 9 fraction digits as the value needs, then `s`.
fn duration_to_json(d: std::time::Duration) -> String {
    let (secs, nanos) = (d.as_secs(), d.subsec_nanos());
    match nanos {
        0 => format!("{secs}s"),
        n if n % 1_000_000 == 0 => format!("{secs}.{:03}s", n / 1_000_000),
        n if n % 1_000 == 0 => format!("{secs}.{:06}s", n / 1_000),
        n => format!("{secs}.{n:09}s"),
    }
}

/// Reads a ProtoJSON `Duration`; `None` for a negative or malformed one
/// (a delay cannot be negative).
fn duration_from_json(s: &str) -> Option<std::time::Duration> {
    let body = s.strip_suffix('s')?;
    let (secs, frac) = match body.split_once('.') {
        Some((_, "")) => return None,
        Some(split) => split,
        None => (body, ""),
    };
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if secs.is_empty() || !digits(secs) || !digits(frac) || frac.len() > 9 {
        return None;
    }
    let secs: u64 = secs.parse().ok()?;
    let nanos = format!("{frac:0<9}").parse::<u32>().ok()?;
    Some(std::time::Duration::new(secs, nanos))
}

/// One entry of an error's details (`data` in JSON-RPC, `details` in
/// HTTP+JSON): a ProtoJSON `Any`, an object with an `@type` key (spec 3.3.2).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ErrorDetail {
    /// `type.googleapis.com/google.rpc.ErrorInfo`.
    ErrorInfo(ErrorInfo),
    /// `type.googleapis.com/google.rpc.BadRequest`.
    BadRequest(BadRequest),
    /// `type.googleapis.com/google.rpc.RetryInfo`.
    RetryInfo(RetryInfo),
    /// Any other detail, kept verbatim (its `@type` key included).
    Other(Map<String, Value>),
}

impl ErrorDetail {
    /// The detail's `@type`.
    pub fn type_url(&self) -> &str {
        match self {
            ErrorDetail::ErrorInfo(_) => ERROR_INFO_TYPE,
            ErrorDetail::BadRequest(_) => BAD_REQUEST_TYPE,
            ErrorDetail::RetryInfo(_) => RETRY_INFO_TYPE,
            ErrorDetail::Other(map) => map.get("@type").and_then(Value::as_str).unwrap_or(""),
        }
    }

    /// Reads one detail object. `None` when `value` is not an object with a
    /// string `@type`. A known `@type` whose body does not fit its message
    /// is kept as [`ErrorDetail::Other`], so nothing is lost.
    pub fn from_value(value: Value) -> Option<ErrorDetail> {
        let Value::Object(map) = value else {
            return None;
        };
        let type_url = map.get("@type")?.as_str()?.to_owned();
        let typed = match type_url.as_str() {
            ERROR_INFO_TYPE => serde_json::from_value::<ErrorInfo>(without_type(&map))
                .ok()
                .map(ErrorDetail::ErrorInfo),
            BAD_REQUEST_TYPE => serde_json::from_value::<BadRequest>(without_type(&map))
                .ok()
                .map(ErrorDetail::BadRequest),
            RETRY_INFO_TYPE if map.len() == 2 => map
                .get("retryDelay")
                .and_then(Value::as_str)
                .and_then(duration_from_json)
                .map(|retry_delay| ErrorDetail::RetryInfo(RetryInfo { retry_delay })),
            _ => None,
        };
        Some(typed.unwrap_or(ErrorDetail::Other(map)))
    }

    /// The `reason` of an `ErrorInfo` in the A2A domain. Read also from an
    /// `ErrorInfo` kept verbatim because its `metadata` is not the
    /// `map<string, string>` the message defines (a peer's mistake), since
    /// the reason is what a client keys on (spec 11.6).
    pub fn a2a_reason(&self) -> Option<&str> {
        match self {
            ErrorDetail::ErrorInfo(info) if info.domain == ERROR_DOMAIN => Some(&info.reason),
            ErrorDetail::Other(map)
                if map.get("@type").and_then(Value::as_str) == Some(ERROR_INFO_TYPE)
                    && map.get("domain").and_then(Value::as_str) == Some(ERROR_DOMAIN) =>
            {
                map.get("reason").and_then(Value::as_str)
            }
            _ => None,
        }
    }

    /// The detail as a JSON object with its `@type`.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

fn without_type(map: &Map<String, Value>) -> Value {
    Value::Object(
        map.iter()
            .filter(|(k, _)| k.as_str() != "@type")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

impl Serialize for ErrorDetail {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ErrorDetail::ErrorInfo(info) => {
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("@type", ERROR_INFO_TYPE)?;
                m.serialize_entry("reason", &info.reason)?;
                m.serialize_entry("domain", &info.domain)?;
                if !info.metadata.is_empty() {
                    m.serialize_entry("metadata", &info.metadata)?;
                }
                m.end()
            }
            ErrorDetail::BadRequest(br) => {
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("@type", BAD_REQUEST_TYPE)?;
                m.serialize_entry("fieldViolations", &br.field_violations)?;
                m.end()
            }
            ErrorDetail::RetryInfo(info) => {
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("@type", RETRY_INFO_TYPE)?;
                m.serialize_entry("retryDelay", &duration_to_json(info.retry_delay))?;
                m.end()
            }
            ErrorDetail::Other(map) => map.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ErrorDetail {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ErrorDetail::from_value(Value::deserialize(d)?).ok_or_else(|| {
            D::Error::custom("an error detail must be an object with a string \"@type\"")
        })
    }
}

/// The JSON-RPC 2.0 error object (spec 9.5): what travels in `error`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsonRpcError {
    /// The error code; any integer.
    pub code: ErrorCode,
    /// Human-readable message.
    pub message: String,
    /// Details: for A2A, an array of objects each with `@type`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// `google.rpc.Status` as JSON (spec 11.6): the object under `error` in an
/// HTTP+JSON error body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RpcStatus {
    /// The HTTP status code.
    pub code: u16,
    /// The gRPC status name, e.g. `NOT_FOUND`.
    #[serde(default)]
    pub status: String,
    /// Human-readable message.
    #[serde(default)]
    pub message: String,
    /// Details, each an object with `@type`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<ErrorDetail>,
}

/// The whole HTTP+JSON error body: `{"error": <google.rpc.Status>}` (spec 11.6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The status.
    pub error: RpcStatus,
}

/// An error answered by an A2A operation (spec 3.3.2).
///
/// One type carries every error an operation can answer: the nine
/// A2A-specific errors, the five JSON-RPC standard errors, and
/// authentication and authorization failures, named by [`ErrorKind`]. It
/// has a code (an open [`ErrorCode`], so unknown codes survive), a
/// message, and details (`ErrorInfo`, `BadRequest`, or any other
/// `@type`d object). Boxed inside, so `Result<T, A2aError>` stays one
/// pointer wide.
///
/// The same error travels on both HTTP bindings:
/// - JSON-RPC: [`to_jsonrpc_error`](A2aError::to_jsonrpc_error) /
///   [`from_jsonrpc_error`](A2aError::from_jsonrpc_error) over
///   [`JsonRpcError`] (`code`, `message`, `data`), spec 9.5;
/// - HTTP+JSON: [`to_status`](A2aError::to_status) /
///   [`from_status`](A2aError::from_status) over [`RpcStatus`], the
///   `google.rpc.Status` JSON body (`{"error": {...}}`), spec 11.6.
///
/// Details (`data` / `details`, each an object with `@type`) survive both
/// conversions, including detail types and error codes this crate does
/// not know.
#[derive(Clone, PartialEq)]
pub struct A2aError(Box<Repr>);

#[derive(Debug, Clone, PartialEq)]
struct Repr {
    code: ErrorCode,
    message: String,
    details: Vec<ErrorDetail>,
    /// The HTTP status a client received this error with, if any.
    received_status: Option<u16>,
    /// A JSON-RPC `data` that is not an array of details, kept verbatim.
    raw_data: Option<Value>,
    /// Made by a client for a call that never completed
    /// ([`A2aError::client`], [`A2aError::into_client`]): the kind is
    /// [`ErrorKind::Client`] whatever the code says. Never on the wire.
    client: bool,
}

impl A2aError {
    /// An error of `kind` with `message`, carrying an `ErrorInfo` detail
    /// (reason, domain `a2a-protocol.org`) as spec 10.6 and 11.6 require
    /// for A2A errors.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> A2aError {
        let mut details = Vec::new();
        if kind != ErrorKind::Unknown {
            details.push(ErrorDetail::ErrorInfo(ErrorInfo {
                reason: kind.reason().to_owned(),
                domain: ERROR_DOMAIN.to_owned(),
                metadata: BTreeMap::new(),
            }));
        }
        A2aError(Box::new(Repr {
            code: kind.code(),
            message: message.into(),
            details,
            received_status: None,
            raw_data: None,
            client: false,
        }))
    }

    /// An error of `kind` with its default message.
    pub fn from_kind(kind: ErrorKind) -> A2aError {
        A2aError::new(kind, kind.default_message())
    }

    /// An error with any code, known or not, and no details.
    pub fn with_code(code: ErrorCode, message: impl Into<String>) -> A2aError {
        A2aError(Box::new(Repr {
            code,
            message: message.into(),
            details: Vec::new(),
            received_status: None,
            raw_data: None,
            client: false,
        }))
    }

    /// `TaskNotFoundError` naming the task in the `ErrorInfo` metadata.
    pub fn task_not_found(task_id: &str) -> A2aError {
        A2aError::new(
            ErrorKind::TaskNotFound,
            format!("Task not found: {task_id}"),
        )
        .with_metadata("taskId", task_id)
    }

    /// `TaskNotCancelableError` naming the task and its state.
    pub fn task_not_cancelable(task_id: &str, state: &str) -> A2aError {
        A2aError::new(
            ErrorKind::TaskNotCancelable,
            format!("Task {task_id} cannot be canceled in state {state}"),
        )
        .with_metadata("taskId", task_id)
        .with_metadata("state", state)
    }

    /// `PushNotificationNotSupportedError` with the default message.
    pub fn push_notification_not_supported() -> A2aError {
        A2aError::from_kind(ErrorKind::PushNotificationNotSupported)
    }

    /// `UnsupportedOperationError` saying what is not supported.
    pub fn unsupported_operation(what: impl Into<String>) -> A2aError {
        A2aError::new(ErrorKind::UnsupportedOperation, what)
    }

    /// `VersionNotSupportedError` naming the requested and supported versions.
    pub fn version_not_supported(requested: &str, supported: &[&str]) -> A2aError {
        A2aError::new(
            ErrorKind::VersionNotSupported,
            format!(
                "A2A version {requested:?} is not supported; supported: {}",
                supported.join(", ")
            ),
        )
        .with_metadata("requestedVersion", requested)
        .with_metadata("supportedVersions", &supported.join(","))
    }

    /// `TaskGenerationMismatchError` (1.1 draft, spec 3.2.2) naming the
    /// generation the request expected and the task's, in `ErrorInfo`
    /// metadata as the draft's example does (int64 as strings).
    #[cfg(feature = "draft-1-1")]
    pub fn task_generation_mismatch(expected: i64, current: i64) -> A2aError {
        A2aError::new(
            ErrorKind::TaskGenerationMismatch,
            format!(
                "Task generation mismatch: expected {expected} but current generation is {current}"
            ),
        )
        .with_metadata("expectedGeneration", &expected.to_string())
        .with_metadata("currentGeneration", &current.to_string())
    }

    /// `ExtensionSupportRequiredError` naming the extension URI.
    pub fn extension_support_required(uri: &str) -> A2aError {
        A2aError::new(
            ErrorKind::ExtensionSupportRequired,
            format!("Extension {uri} is required but was not requested"),
        )
        .with_metadata("extension", uri)
    }

    /// `InvalidParamsError` listing every violation as a
    /// `google.rpc.BadRequest` detail (spec 3.3.2, 9.5).
    pub fn invalid_params(violations: Vec<FieldViolation>) -> A2aError {
        let message = match violations.as_slice() {
            [one] => format!("Invalid parameters: {}: {}", one.field, one.description),
            [] => "Invalid parameters".to_owned(),
            many => format!("Invalid parameters: {} fields are invalid", many.len()),
        };
        A2aError::new(ErrorKind::InvalidParams, message).with_detail(ErrorDetail::BadRequest(
            BadRequest {
                field_violations: violations,
            },
        ))
    }

    /// `RateLimitedError` (spec 3.3.2 "System Errors", 13.4): the caller
    /// may try again after `retry_delay`, carried as a
    /// `google.rpc.RetryInfo` detail, which every binding writes
    /// (`Retry-After` on HTTP, the detail in the body and in gRPC's
    /// `grpc-status-details-bin`).
    pub fn rate_limited(retry_delay: std::time::Duration) -> A2aError {
        A2aError::from_kind(ErrorKind::RateLimited).with_retry_delay(retry_delay)
    }

    /// The delay of the first `google.rpc.RetryInfo` detail: when the agent
    /// says to try again.
    pub fn retry_delay(&self) -> Option<std::time::Duration> {
        self.0.details.iter().find_map(|d| match d {
            ErrorDetail::RetryInfo(info) => Some(info.retry_delay),
            _ => None,
        })
    }

    /// The same error with `retry_delay` as its `RetryInfo`, replacing one
    /// it had: what a client records from a `Retry-After` header.
    pub fn with_retry_delay(mut self, retry_delay: std::time::Duration) -> A2aError {
        self.0
            .details
            .retain(|d| !matches!(d, ErrorDetail::RetryInfo(_)));
        self.0
            .details
            .push(ErrorDetail::RetryInfo(RetryInfo { retry_delay }));
        self
    }

    /// `InternalError` with `message`.
    pub fn internal(message: impl Into<String>) -> A2aError {
        A2aError::new(ErrorKind::Internal, message)
    }

    /// Adds a detail.
    pub fn with_detail(mut self, detail: ErrorDetail) -> A2aError {
        self.0.details.push(detail);
        self
    }

    /// Sets `key` in the metadata of the A2A `ErrorInfo` detail, adding
    /// that detail if the error has none.
    pub fn with_metadata(mut self, key: &str, value: &str) -> A2aError {
        let reason = self.kind().reason();
        let info = self.0.details.iter_mut().find_map(|d| match d {
            ErrorDetail::ErrorInfo(info) if info.domain == ERROR_DOMAIN => Some(info),
            _ => None,
        });
        match info {
            Some(info) => {
                info.metadata.insert(key.to_owned(), value.to_owned());
            }
            None => {
                let mut metadata = BTreeMap::new();
                metadata.insert(key.to_owned(), value.to_owned());
                self.0.details.push(ErrorDetail::ErrorInfo(ErrorInfo {
                    reason: reason.to_owned(),
                    domain: ERROR_DOMAIN.to_owned(),
                    metadata,
                }));
            }
        }
        self
    }

    /// The same error, recorded as received with HTTP `status`: what a
    /// client learns beside the body (a 401 whose body says something
    /// else, a 502 from a proxy). A server answers by the error table
    /// (spec 5.4); a transport-level status (405, 413, 414, 415) is the
    /// transport's to set on its response, not the error's.
    pub fn with_received_status(mut self, status: u16) -> A2aError {
        self.0.received_status = Some(status);
        self
    }

    /// The HTTP status this error was received with, if a client recorded
    /// one ([`with_received_status`](A2aError::with_received_status),
    /// [`from_status`](A2aError::from_status)).
    pub fn received_status(&self) -> Option<u16> {
        self.0.received_status
    }

    /// The kind, from the code ([`ErrorKind::Unknown`] for unknown codes).
    pub fn kind(&self) -> ErrorKind {
        match self.0.client {
            true => ErrorKind::Client,
            false => self.0.code.kind(),
        }
    }

    /// The JSON-RPC code: [`ErrorCode::CLIENT`] for a client's own error
    /// ([`ErrorKind::Client`]).
    pub fn code(&self) -> ErrorCode {
        match self.0.client {
            true => ErrorCode::CLIENT,
            false => self.0.code,
        }
    }

    /// A client's own error ([`ErrorKind::Client`]): the call never
    /// completed, so no agent said this. `message` says what happened,
    /// with the cause (and a hint), and is the whole of its `Display`.
    /// The client side of `a2a-transport` makes these
    /// (`ClientFailure::error`), marked with the failure's reason.
    pub fn client(message: impl Into<String>) -> A2aError {
        A2aError::new(ErrorKind::Internal, message).into_client()
    }

    /// The same error as a client's own ([`ErrorKind::Client`]): what a
    /// client records when what it received is not the agent's answer (an
    /// HTTP status with no A2A error in the body, a stream that gave up).
    /// Its details and received status are kept.
    pub fn into_client(mut self) -> A2aError {
        self.0.client = true;
        self
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The details, in order.
    pub fn details(&self) -> &[ErrorDetail] {
        &self.0.details
    }

    /// The first `ErrorInfo` detail of the A2A domain, if any.
    pub fn error_info(&self) -> Option<&ErrorInfo> {
        self.0.details.iter().find_map(|d| match d {
            ErrorDetail::ErrorInfo(info) if info.domain == ERROR_DOMAIN => Some(info),
            _ => None,
        })
    }

    /// Whether this is a client's own error, not an agent's answer
    /// ([`ErrorKind::Client`]).
    pub fn is_client_failure(&self) -> bool {
        self.0.client
    }

    /// Every field violation of every `BadRequest` detail.
    pub fn field_violations(&self) -> impl Iterator<Item = &FieldViolation> {
        self.0.details.iter().flat_map(|d| match d {
            ErrorDetail::BadRequest(br) => br.field_violations.as_slice(),
            _ => &[],
        })
    }

    /// The HTTP status of this error: the one it was received with, else
    /// its kind's (spec 5.4).
    pub fn http_status(&self) -> u16 {
        self.0
            .received_status
            .unwrap_or_else(|| self.kind().http_status())
    }

    /// The gRPC status name (spec 5.4).
    pub fn grpc_status(&self) -> &'static str {
        self.kind().grpc_status()
    }

    /// The JSON-RPC error object for this error (spec 9.5). `data` holds the
    /// details; a non-array `data` received from a peer is echoed as it was.
    pub fn to_jsonrpc_error(&self) -> JsonRpcError {
        let data = match (&self.0.raw_data, self.0.details.is_empty()) {
            (Some(raw), _) => Some(raw.clone()),
            (None, true) => None,
            (None, false) => Some(Value::Array(
                self.0.details.iter().map(ErrorDetail::to_value).collect(),
            )),
        };
        // A client's own error is never sent as such (ErrorCode::CLIENT).
        let code = match self.0.client {
            true => ErrorCode::INTERNAL,
            false => self.0.code,
        };
        JsonRpcError {
            code,
            message: self.0.message.clone(),
            data,
        }
    }

    /// Reads a JSON-RPC error object, keeping the code (known or not), the
    /// message and `data`: an array of `@type`d objects becomes details,
    /// anything else is kept verbatim and echoed by [`Self::to_jsonrpc_error`].
    pub fn from_jsonrpc_error(error: JsonRpcError) -> A2aError {
        let (details, raw_data) = match error.data {
            None | Some(Value::Null) => (Vec::new(), None),
            Some(Value::Array(items)) if items.iter().all(is_detail) => (
                items
                    .into_iter()
                    .filter_map(ErrorDetail::from_value)
                    .collect(),
                None,
            ),
            Some(other) => (Vec::new(), Some(other)),
        };
        A2aError(Box::new(Repr {
            code: error.code,
            message: error.message,
            details,
            received_status: None,
            raw_data,
            client: false,
        }))
    }

    /// The `google.rpc.Status` body for the HTTP+JSON binding (spec 11.6),
    /// with an A2A `ErrorInfo` first whenever the kind is known.
    pub fn to_status(&self) -> ErrorBody {
        let mut details = self.0.details.clone();
        let kind = self.kind();
        if kind != ErrorKind::Unknown && self.error_info().is_none() {
            details.insert(
                0,
                ErrorDetail::ErrorInfo(ErrorInfo {
                    reason: kind.reason().to_owned(),
                    domain: ERROR_DOMAIN.to_owned(),
                    metadata: BTreeMap::new(),
                }),
            );
        }
        ErrorBody {
            error: RpcStatus {
                code: self.http_status(),
                status: self.grpc_status().to_owned(),
                message: self.0.message.clone(),
                details,
            },
        }
    }

    /// Reads an HTTP+JSON error. The kind comes from the A2A `ErrorInfo`
    /// reason (several kinds share a status, spec 11.6); without one, from
    /// the HTTP status where that is unambiguous (401, 403), else the error
    /// keeps the status and is [`ErrorKind::Unknown`] unless the status is a
    /// 5xx ([`ErrorKind::Internal`]).
    pub fn from_status(http_status: u16, status: Option<RpcStatus>) -> A2aError {
        let (message, details) = match status {
            Some(s) => (s.message, s.details),
            None => (String::new(), Vec::new()),
        };
        let by_reason = details
            .iter()
            .find_map(|d| d.a2a_reason().and_then(ErrorKind::from_reason));
        let kind = by_reason.unwrap_or(match http_status {
            401 => ErrorKind::Unauthenticated,
            403 => ErrorKind::PermissionDenied,
            429 => ErrorKind::RateLimited,
            500..=599 => ErrorKind::Internal,
            _ => ErrorKind::Unknown,
        });
        let message = if message.is_empty() {
            match kind {
                ErrorKind::Unknown => format!("HTTP status {http_status}"),
                k => k.default_message().to_owned(),
            }
        } else {
            message
        };
        let code = match kind {
            ErrorKind::Unknown => ErrorCode(-32000),
            k => k.code(),
        };
        A2aError(Box::new(Repr {
            code,
            message,
            details,
            received_status: Some(http_status),
            raw_data: None,
            client: false,
        }))
    }
}

fn is_detail(v: &Value) -> bool {
    v.as_object()
        .and_then(|m| m.get("@type"))
        .is_some_and(Value::is_string)
}

impl fmt::Debug for A2aError {
    /// The fields; for a client's own error, `{:?}` is one readable line
    /// (`ClientError: <message>`), what `?` in `main` prints, and `{:#?}`
    /// the fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.client && !f.alternate() {
            return write!(f, "ClientError: {}", self.0.message);
        }
        f.debug_struct("A2aError")
            .field("kind", &self.kind())
            .field("code", &self.0.code.0)
            .field("message", &self.0.message)
            .field("details", &self.0.details)
            .field("received_status", &self.0.received_status)
            .field("raw_data", &self.0.raw_data)
            .field("client", &self.0.client)
            .finish()
    }
}

impl fmt::Display for A2aError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_client_failure() {
            return f.write_str(&self.0.message);
        }
        match self.kind() {
            ErrorKind::Unknown => write!(f, "error {}: {}", self.0.code, self.0.message),
            k => write!(f, "{k} ({}): {}", self.0.code, self.0.message),
        }
    }
}

impl std::error::Error for A2aError {}

impl From<ErrorKind> for A2aError {
    fn from(kind: ErrorKind) -> A2aError {
        A2aError::from_kind(kind)
    }
}

impl From<Vec<FieldViolation>> for A2aError {
    fn from(violations: Vec<FieldViolation>) -> A2aError {
        A2aError::invalid_params(violations)
    }
}

/// A body that failed to decode: `JSONParseError` when it is not JSON
/// (or is over a limit), else `InvalidParamsError` with one field violation
/// naming the JSON path that failed.
impl From<DecodeError> for A2aError {
    fn from(e: DecodeError) -> A2aError {
        match e.kind() {
            DecodeErrorKind::Syntax | DecodeErrorKind::Eof => {
                A2aError::new(ErrorKind::JsonParse, format!("Invalid JSON payload: {e}"))
            }
            DecodeErrorKind::TooLarge => {
                A2aError::new(ErrorKind::InvalidRequest, e.message().to_owned())
            }
            _ => {
                let field = if e.path().is_empty() {
                    "(body)"
                } else {
                    e.path()
                };
                A2aError::invalid_params(vec![FieldViolation {
                    field: field.to_owned(),
                    description: e.message().to_owned(),
                }])
            }
        }
    }
}

impl From<JsonRpcError> for A2aError {
    fn from(e: JsonRpcError) -> A2aError {
        A2aError::from_jsonrpc_error(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::Duration;

    #[test]
    fn table_is_consistent() {
        for kind in ErrorKind::ALL {
            assert_eq!(kind.code().kind(), kind, "code of {kind} maps back");
            assert_eq!(ErrorKind::from_reason(kind.reason()), Some(kind));
            assert!(kind.name().ends_with("Error"));
        }
        let mut codes: Vec<_> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), ErrorKind::ALL.len(), "codes are unique");
        assert_eq!(TABLE.len(), ErrorKind::ALL.len());
    }

    #[test]
    fn spec_5_4_mapping() {
        let expect = [
            (ErrorKind::TaskNotFound, -32001, 404, "NOT_FOUND"),
            (
                ErrorKind::TaskNotCancelable,
                -32002,
                400,
                "FAILED_PRECONDITION",
            ),
            (
                ErrorKind::PushNotificationNotSupported,
                -32003,
                400,
                "FAILED_PRECONDITION",
            ),
            (
                ErrorKind::UnsupportedOperation,
                -32004,
                400,
                "FAILED_PRECONDITION",
            ),
            (
                ErrorKind::ContentTypeNotSupported,
                -32005,
                400,
                "INVALID_ARGUMENT",
            ),
            (ErrorKind::InvalidAgentResponse, -32006, 500, "INTERNAL"),
            (
                ErrorKind::ExtendedAgentCardNotConfigured,
                -32007,
                400,
                "FAILED_PRECONDITION",
            ),
            (
                ErrorKind::ExtensionSupportRequired,
                -32008,
                400,
                "FAILED_PRECONDITION",
            ),
            (
                ErrorKind::VersionNotSupported,
                -32009,
                400,
                "FAILED_PRECONDITION",
            ),
            (ErrorKind::JsonParse, -32700, 400, "INVALID_ARGUMENT"),
            (ErrorKind::InvalidRequest, -32600, 400, "INVALID_ARGUMENT"),
            (ErrorKind::MethodNotFound, -32601, 404, "NOT_FOUND"),
            (ErrorKind::InvalidParams, -32602, 400, "INVALID_ARGUMENT"),
            (ErrorKind::Internal, -32603, 500, "INTERNAL"),
            (ErrorKind::Unauthenticated, -32090, 401, "UNAUTHENTICATED"),
            (
                ErrorKind::PermissionDenied,
                -32091,
                403,
                "PERMISSION_DENIED",
            ),
            (ErrorKind::RateLimited, -32092, 429, "RESOURCE_EXHAUSTED"),
        ];
        for (kind, code, http, grpc) in expect {
            assert_eq!(kind.code(), ErrorCode(code), "{kind}");
            assert_eq!(kind.http_status(), http, "{kind}");
            assert_eq!(kind.grpc_status(), grpc, "{kind}");
        }
        let a2a: Vec<_> = ErrorKind::ALL
            .into_iter()
            .filter(|k| k.is_a2a_specific())
            .collect();
        assert_eq!(a2a.len(), if cfg!(feature = "draft-1-1") { 10 } else { 9 });
    }

    /// The 1.1 draft's row (draft spec 5.4 table) and its example body
    /// (draft spec 11.6 "Generation Mismatch Error Example").
    #[cfg(feature = "draft-1-1")]
    #[test]
    fn task_generation_mismatch_is_the_drafts_row() {
        let kind = ErrorKind::TaskGenerationMismatch;
        assert_eq!(kind.code(), ErrorCode(-32010));
        assert_eq!(kind.http_status(), 409);
        assert_eq!(kind.grpc_status(), "ABORTED");
        assert_eq!(kind.reason(), "TASK_GENERATION_MISMATCH");
        assert_eq!(ErrorCode(-32010).kind(), kind);
        let err = A2aError::task_generation_mismatch(3, 5);
        assert_eq!(
            err.message(),
            "Task generation mismatch: expected 3 but current generation is 5"
        );
        let body = serde_json::to_value(err.to_status()).unwrap();
        let info = &body["error"]["details"][0];
        assert_eq!(info["reason"], "TASK_GENERATION_MISMATCH");
        assert_eq!(info["metadata"]["expectedGeneration"], "3");
        assert_eq!(info["metadata"]["currentGeneration"], "5");
        assert_eq!(body["error"]["status"], "ABORTED");
        assert_eq!(body["error"]["code"], 409);
    }

    #[test]
    fn jsonrpc_error_matches_spec_example() {
        let err = A2aError::task_not_found("nonexistent-task-id");
        let obj = serde_json::to_value(err.to_jsonrpc_error()).unwrap();
        assert_eq!(
            obj,
            json!({
                "code": -32001,
                "message": "Task not found: nonexistent-task-id",
                "data": [{
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "TASK_NOT_FOUND",
                    "domain": "a2a-protocol.org",
                    "metadata": {"taskId": "nonexistent-task-id"}
                }]
            })
        );
    }

    #[test]
    fn invalid_params_carries_bad_request() {
        let err = A2aError::invalid_params(vec![FieldViolation {
            field: "message.parts".into(),
            description: "At least one part is required".into(),
        }]);
        assert_eq!(err.kind(), ErrorKind::InvalidParams);
        let obj = serde_json::to_value(err.to_jsonrpc_error()).unwrap();
        assert_eq!(
            obj["data"][1],
            json!({
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [{"field": "message.parts", "description": "At least one part is required"}]
            })
        );
        let back = A2aError::from_jsonrpc_error(serde_json::from_value(obj).unwrap());
        assert_eq!(back, err);
        assert_eq!(back.field_violations().count(), 1);
    }

    #[test]
    fn unknown_code_and_details_round_trip() {
        let wire = json!({
            "code": -31999,
            "message": "custom",
            "data": [{"@type": "type.example.com/Thing", "x": [1, 2.5, {"y": null}]}]
        });
        let err = A2aError::from_jsonrpc_error(serde_json::from_value(wire.clone()).unwrap());
        assert_eq!(err.kind(), ErrorKind::Unknown);
        assert_eq!(err.code(), ErrorCode(-31999));
        assert_eq!(err.details()[0].type_url(), "type.example.com/Thing");
        assert_eq!(serde_json::to_value(err.to_jsonrpc_error()).unwrap(), wire);
    }

    #[test]
    fn non_array_data_is_echoed() {
        for data in [
            json!("text"),
            json!({"a": 1}),
            json!([1, 2]),
            json!([{"noType": 1}]),
        ] {
            let wire = json!({"code": -32603, "message": "m", "data": data});
            let err = A2aError::from_jsonrpc_error(serde_json::from_value(wire.clone()).unwrap());
            assert!(err.details().is_empty());
            assert_eq!(serde_json::to_value(err.to_jsonrpc_error()).unwrap(), wire);
        }
    }

    #[test]
    fn malformed_known_detail_is_kept_verbatim() {
        let detail = json!({"@type": ERROR_INFO_TYPE, "reason": 5});
        let parsed = ErrorDetail::from_value(detail.clone()).unwrap();
        assert!(matches!(parsed, ErrorDetail::Other(_)));
        assert_eq!(parsed.to_value(), detail);
    }

    #[test]
    fn status_body_matches_spec_11_6() {
        let err = A2aError::new(
            ErrorKind::TaskNotFound,
            "The specified task ID does not exist or is not accessible",
        )
        .with_metadata("taskId", "task-123");
        let body = serde_json::to_value(err.to_status()).unwrap();
        assert_eq!(
            body,
            json!({"error": {
                "code": 404,
                "status": "NOT_FOUND",
                "message": "The specified task ID does not exist or is not accessible",
                "details": [{
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "TASK_NOT_FOUND",
                    "domain": "a2a-protocol.org",
                    "metadata": {"taskId": "task-123"}
                }]
            }})
        );
    }

    #[test]
    fn every_kind_round_trips_through_both_bindings() {
        for kind in ErrorKind::ALL {
            let err = A2aError::from_kind(kind).with_metadata("k", "v");
            let rpc: JsonRpcError =
                serde_json::from_str(&serde_json::to_string(&err.to_jsonrpc_error()).unwrap())
                    .unwrap();
            assert_eq!(
                A2aError::from_jsonrpc_error(rpc),
                err,
                "{kind} via JSON-RPC"
            );

            let body: ErrorBody =
                serde_json::from_str(&serde_json::to_string(&err.to_status()).unwrap()).unwrap();
            let back = A2aError::from_status(kind.http_status(), Some(body.error));
            assert_eq!(back.kind(), kind, "{kind} via HTTP+JSON");
            assert_eq!(back.message(), err.message());
            assert_eq!(back.details(), err.details());
            assert_eq!(back.http_status(), kind.http_status());
        }
    }

    #[test]
    fn reason_is_read_from_an_error_info_with_malformed_metadata() {
        // a2a-sdk 1.3.0 puts a list into ErrorInfo.metadata (interop
        // finding RS-12); the detail is kept verbatim, the reason still counts.
        let body = json!({"code": 400, "status": "INVALID_ARGUMENT", "message": "Validation failed",
            "details": [{"@type": ERROR_INFO_TYPE, "reason": "INVALID_PARAMS", "domain": ERROR_DOMAIN,
                "metadata": {"errors": [{"field": "message.parts", "message": "required"}]}}]});
        let err = A2aError::from_status(400, Some(serde_json::from_value(body.clone()).unwrap()));
        assert_eq!(err.kind(), ErrorKind::InvalidParams);
        assert!(matches!(err.details()[0], ErrorDetail::Other(_)));
        assert_eq!(
            serde_json::to_value(&err.details()[0]).unwrap(),
            body["details"][0]
        );
    }

    /// A rate-limit refusal carries its delay as a `RetryInfo` detail in
    /// ProtoJSON (`"retryDelay": "1.500s"`), which both JSON bindings'
    /// error conversions keep.
    #[test]
    fn rate_limited_carries_its_retry_delay() {
        let err = A2aError::rate_limited(Duration::from_millis(1500));
        assert_eq!(err.kind(), ErrorKind::RateLimited);
        assert_eq!(err.retry_delay(), Some(Duration::from_millis(1500)));
        assert!(!err.kind().is_a2a_specific());
        let body = serde_json::to_value(err.to_status()).unwrap();
        assert_eq!(body["error"]["code"], 429);
        assert_eq!(body["error"]["status"], "RESOURCE_EXHAUSTED");
        assert_eq!(body["error"]["details"][0]["reason"], "RATE_LIMITED");
        assert_eq!(
            body["error"]["details"][1],
            json!({"@type": RETRY_INFO_TYPE, "retryDelay": "1.500s"})
        );
        let back =
            A2aError::from_status(429, serde_json::from_value(body["error"].clone()).unwrap());
        assert_eq!(back.retry_delay(), Some(Duration::from_millis(1500)));
        let rpc = A2aError::from_jsonrpc_error(err.to_jsonrpc_error());
        assert_eq!(rpc.code(), ErrorCode(-32092));
        assert_eq!(rpc.retry_delay(), Some(Duration::from_millis(1500)));
        let replaced = rpc.with_retry_delay(Duration::from_secs(3));
        assert_eq!(replaced.retry_delay(), Some(Duration::from_secs(3)));
        assert_eq!(replaced.details().len(), 2, "the old RetryInfo is replaced");
    }

    #[test]
    fn protojson_durations() {
        for (d, text) in [
            (Duration::ZERO, "0s"),
            (Duration::from_secs(2), "2s"),
            (Duration::from_millis(1500), "1.500s"),
            (Duration::from_micros(1_000_001), "1.000001s"),
            (Duration::new(0, 7), "0.000000007s"),
        ] {
            assert_eq!(duration_to_json(d), text);
            assert_eq!(duration_from_json(text), Some(d), "{text}");
        }
        assert_eq!(
            duration_from_json("1.5s"),
            Some(Duration::from_millis(1500))
        );
        for bad in [
            "",
            "s",
            "1",
            "-1s",
            "1.s",
            ".5s",
            "1.0000000001s",
            "1,5s",
            "+1s",
        ] {
            assert_eq!(duration_from_json(bad), None, "{bad}");
        }
        // A RetryInfo that does not parse is kept verbatim.
        let odd = json!({"@type": RETRY_INFO_TYPE, "retryDelay": "soon"});
        assert!(matches!(
            ErrorDetail::from_value(odd),
            Some(ErrorDetail::Other(_))
        ));
    }

    #[test]
    fn status_without_body_uses_http_status() {
        assert_eq!(
            A2aError::from_status(401, None).kind(),
            ErrorKind::Unauthenticated
        );
        assert_eq!(
            A2aError::from_status(403, None).kind(),
            ErrorKind::PermissionDenied
        );
        assert_eq!(A2aError::from_status(502, None).kind(), ErrorKind::Internal);
        assert_eq!(
            A2aError::from_status(429, None).kind(),
            ErrorKind::RateLimited
        );
        let teapot = A2aError::from_status(418, None);
        assert_eq!(teapot.kind(), ErrorKind::Unknown);
        assert_eq!(teapot.http_status(), 418);
        assert_eq!(teapot.message(), "HTTP status 418");
    }

    #[test]
    fn reason_decides_between_kinds_sharing_a_status() {
        let body = json!({"code": 400, "status": "FAILED_PRECONDITION", "message": "m",
            "details": [{"@type": ERROR_INFO_TYPE, "reason": "TASK_NOT_CANCELABLE", "domain": ERROR_DOMAIN}]});
        let err = A2aError::from_status(400, Some(serde_json::from_value(body).unwrap()));
        assert_eq!(err.kind(), ErrorKind::TaskNotCancelable);
        assert_eq!(err.code(), ErrorCode::TASK_NOT_CANCELABLE);
    }

    #[test]
    fn decode_errors_map_to_parse_or_params() {
        let not_json = crate::from_slice::<crate::Task>(b"{").unwrap_err();
        assert_eq!(A2aError::from(not_json).kind(), ErrorKind::JsonParse);
        let bad_part = crate::from_slice::<crate::Message>(
            br#"{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a","raw":"AA=="}]}"#,
        )
        .unwrap_err();
        let err = A2aError::from(bad_part);
        assert_eq!(err.kind(), ErrorKind::InvalidParams);
        assert_eq!(err.field_violations().next().unwrap().field, "parts[0]");
        let big = crate::from_slice_with_limits::<crate::Task>(
            b"{}",
            &crate::DecodeLimits::new().with_max_input_bytes(1),
        )
        .unwrap_err();
        let big = A2aError::from(big);
        assert_eq!(big.kind(), ErrorKind::InvalidRequest);
        assert!(big.message().contains("exceeds the limit"), "{big}");
    }

    #[test]
    fn received_status_and_display() {
        let err = A2aError::new(ErrorKind::InvalidRequest, "body too large");
        assert_eq!((err.http_status(), err.received_status()), (400, None));
        let err = err.with_received_status(413);
        assert_eq!(err.http_status(), 413);
        assert_eq!(err.received_status(), Some(413));
        assert_eq!(err.to_status().error.code, 413);
        assert_eq!(
            err.to_string(),
            "InvalidRequestError (-32600): body too large"
        );
        assert_eq!(
            A2aError::with_code(ErrorCode(7), "x").to_string(),
            "error 7: x"
        );
        assert_eq!(
            std::mem::size_of::<A2aError>(),
            std::mem::size_of::<usize>()
        );
    }
}
