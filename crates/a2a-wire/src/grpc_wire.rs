//! The gRPC binding's wire format (spec 10) as pure functions over `http`
//! types: what the host's HTTP/2 stack carries, without the HTTP/2.
//!
//! It follows gRPC's "PROTOCOL-HTTP2" description: `POST
//! /lf.a2a.v1.A2AService/{Method}` with `content-type: application/grpc`
//! (or `application/grpc+proto`); each message a 5-byte prefix (a
//! compressed flag and a big-endian 32-bit length) and its protobuf bytes;
//! the status in trailers (`grpc-status`, a percent-encoded
//! `grpc-message`, and `grpc-status-details-bin`, a base64
//! `google.rpc.Status` with the A2A `ErrorInfo`, spec 10.6); an error
//! before any message as a trailers-only response (the status in the
//! headers, no body). Service parameters are metadata, i.e. headers
//! (`a2a-version`, `a2a-extensions`, spec 10.2), which the pipeline reads
//! as on the other bindings.

use std::fmt;
use std::time::Duration;

use a2a_proto::{status_from_proto, status_to_proto, GrpcCode, Protobuf};
use a2a_types::{A2aError, ErrorKind, Operation};
use base64::Engine as _;
use bytes::{Buf, Bytes, BytesMut};
use http::header::CONTENT_TYPE;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Response, StatusCode, Version};

/// `application/grpc`: the content type of gRPC requests and responses.
pub const GRPC_CONTENT_TYPE: &str = "application/grpc";
/// `application/grpc+proto`: the same, naming protobuf explicitly.
pub const GRPC_PROTO_CONTENT_TYPE: &str = "application/grpc+proto";
/// The service of the proto (spec 10.3), as in the method paths.
pub const SERVICE_NAME: &str = "lf.a2a.v1.A2AService";
/// Trailer (or trailers-only header) with the numeric status code.
pub const GRPC_STATUS: &str = "grpc-status";
/// Trailer with the percent-encoded status message.
pub const GRPC_MESSAGE: &str = "grpc-message";
/// Trailer with the base64 `google.rpc.Status` (spec 10.6).
pub const GRPC_STATUS_DETAILS: &str = "grpc-status-details-bin";
/// Request header with the call's deadline.
pub const GRPC_TIMEOUT: &str = "grpc-timeout";
/// Header naming the message compression.
pub const GRPC_ENCODING: &str = "grpc-encoding";
/// Header listing the compressions a peer accepts.
pub const GRPC_ACCEPT_ENCODING: &str = "grpc-accept-encoding";
/// The largest message (after its 5-byte prefix) a [`FrameDecoder`]
/// accepts by default: 16 MiB, the same as a request body on the other
/// bindings (the server's `DEFAULT_MAX_BODY_SIZE`),
/// so the same request fits on every binding (spec 5.1).
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 16 * 1024 * 1024;
/// Length of a message's prefix: the compressed flag and a `u32` length.
pub const PREFIX_LEN: usize = 5;

/// The request path of an operation: `/lf.a2a.v1.A2AService/SendMessage`
/// (the proto's RPC name, which [`Operation::name`] is).
pub fn method_path(operation: Operation) -> String {
    format!("/{SERVICE_NAME}/{}", operation.name())
}

/// The operation a request path names, if it is a method of the service.
pub fn operation_of_path(path: &str) -> Option<Operation> {
    let method = path
        .strip_prefix('/')?
        .strip_prefix(SERVICE_NAME)?
        .strip_prefix('/')?;
    Operation::ALL.into_iter().find(|op| op.name() == method)
}

/// Whether a `content-type` is gRPC with protobuf messages:
/// `application/grpc` or `application/grpc+proto`, ASCII case ignored,
/// parameters allowed. `application/grpc+json` and other codecs are not.
pub fn is_grpc_content_type(value: &HeaderValue) -> bool {
    let Ok(text) = value.to_str() else {
        return false;
    };
    let essence = text.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case(GRPC_CONTENT_TYPE)
        || essence.eq_ignore_ascii_case(GRPC_PROTO_CONTENT_TYPE)
}

// ---------------------------------------------------------------------------
// The request head.

/// Why a gRPC call could not be read (spec 10): its request head is not a
/// call of this service, its stream of framed messages is malformed, or
/// its `grpc-timeout` does not read. One type for the binding's wire, so
/// that a host matches one enum; each variant says the answer it gets
/// ([`http_status`](GrpcError::http_status),
/// [`grpc_code`](GrpcError::grpc_code)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GrpcError {
    // The request head ([`check_request_head`]).
    /// Not `POST` (HTTP 405, `Allow: POST`).
    #[error("gRPC calls are POST requests, not {0}")]
    Method(Method),
    /// Not a gRPC protobuf content type (HTTP 415, as gRPC servers answer
    /// a request that is not gRPC at all).
    #[error("content-type must be application/grpc or application/grpc+proto")]
    ContentType,
    /// A path that is not a method of `lf.a2a.v1.A2AService`
    /// (`UNIMPLEMENTED`).
    #[error("unknown method {0}")]
    UnknownMethod(String),
    /// A `grpc-encoding` other than `identity` (`UNIMPLEMENTED`, with
    /// `grpc-accept-encoding: identity`): messages are not compressed.
    #[error("grpc-encoding {0:?} is not supported; messages must be uncompressed (identity)")]
    Encoding(String),
    /// A call over HTTP/1.x (HTTP 505, `INTERNAL`): gRPC needs HTTP/2,
    /// whose trailers carry a call's status, which HTTP/1.1 loses. The
    /// host, which knows the connection's version, checks it (`a2a-hyper`'s
    /// `serve` does); `A2aServer::handle` does not, so that in-memory
    /// callers and tests need not say HTTP/2.
    #[error("gRPC needs HTTP/2 (its trailers carry the call's status), not {0:?}")]
    HttpVersion(Version),

    // Framed messages ([`FrameDecoder`], [`decode_unary`]).
    /// A message longer than the limit (`RESOURCE_EXHAUSTED`), refused on
    /// its prefix, before its bytes are buffered.
    #[error("message of {len} bytes is over the limit of {limit} bytes")]
    TooLarge {
        /// The length the prefix declares.
        len: u64,
        /// The decoder's limit.
        limit: usize,
    },
    /// The compressed flag is set, but no compression was negotiated
    /// (`INTERNAL`, as gRPC prescribes).
    #[error("compressed message without a negotiated grpc-encoding")]
    Compressed,
    /// A compressed flag other than 0 or 1 (`INTERNAL`).
    #[error("invalid compressed flag {0}")]
    InvalidFlag(u8),
    /// The stream ended inside a message (`INTERNAL`).
    #[error("the stream ended inside a message: {have} of {want} bytes")]
    Truncated {
        /// Bytes received of the prefix and message.
        have: usize,
        /// Bytes the prefix (or a whole prefix) needs.
        want: usize,
    },
    /// A unary call whose request or response holds no message
    /// (`INTERNAL`).
    #[error("no message where one was expected")]
    Missing,
    /// A unary call whose request or response holds more than one message
    /// (`INTERNAL`).
    #[error("more than one message where one was expected")]
    TooMany,

    // `grpc-timeout` ([`parse_timeout`]).
    /// A `grpc-timeout` that is not 1 to 8 digits and a unit.
    #[error("grpc-timeout must be 1 to 8 digits and a unit (H, M, S, m, u or n)")]
    Timeout,
}

impl GrpcError {
    /// The HTTP status of the answer: 405, 415 and 505 for requests that
    /// are not gRPC, 200 (a trailers-only gRPC error) otherwise.
    pub fn http_status(&self) -> StatusCode {
        match self {
            GrpcError::Method(_) => StatusCode::METHOD_NOT_ALLOWED,
            GrpcError::ContentType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            GrpcError::HttpVersion(_) => StatusCode::HTTP_VERSION_NOT_SUPPORTED,
            _ => StatusCode::OK,
        }
    }

    /// The gRPC status of the answer: `UNIMPLEMENTED` for a method or
    /// encoding this service does not have, `RESOURCE_EXHAUSTED` for a
    /// message over the limit, `INTERNAL` (a protocol violation)
    /// otherwise.
    pub fn grpc_code(&self) -> GrpcCode {
        match self {
            GrpcError::Method(_) | GrpcError::UnknownMethod(_) | GrpcError::Encoding(_) => {
                GrpcCode::UNIMPLEMENTED
            }
            GrpcError::TooLarge { .. } => GrpcCode::RESOURCE_EXHAUSTED,
            _ => GrpcCode::INTERNAL,
        }
    }

    /// The A2A error carried in the answer's details: `MethodNotFoundError`
    /// for an unknown method, `ContentTypeNotSupportedError` for a content
    /// type, `InvalidRequestError` otherwise (a body over the limit
    /// included, as on the other bindings).
    pub fn to_a2a_error(&self) -> A2aError {
        let kind = match self {
            GrpcError::UnknownMethod(_) => ErrorKind::MethodNotFound,
            GrpcError::ContentType => ErrorKind::ContentTypeNotSupported,
            _ => ErrorKind::InvalidRequest,
        };
        A2aError::new(kind, self.to_string())
    }

    /// The whole answer: a trailers-only gRPC error (with
    /// `grpc-accept-encoding` for an encoding), or 405/415.
    pub fn to_response(&self) -> Response<()> {
        let mut response = error_response(self.grpc_code(), &self.to_a2a_error());
        *response.status_mut() = self.http_status();
        let headers = response.headers_mut();
        match self {
            GrpcError::Method(_) => {
                headers.insert(http::header::ALLOW, HeaderValue::from_static("POST"));
            }
            GrpcError::Encoding(_) => {
                headers.insert(GRPC_ACCEPT_ENCODING, HeaderValue::from_static("identity"));
            }
            _ => {}
        }
        response
    }
}

/// Checks the head of a gRPC request and names its operation: `POST`, a
/// gRPC protobuf content type, a method of the service, no compression.
pub fn check_request_head(
    method: &Method,
    path: &str,
    headers: &HeaderMap,
) -> Result<Operation, GrpcError> {
    if method != Method::POST {
        return Err(GrpcError::Method(method.clone()));
    }
    if !headers.get(CONTENT_TYPE).is_some_and(is_grpc_content_type) {
        return Err(GrpcError::ContentType);
    }
    let operation =
        operation_of_path(path).ok_or_else(|| GrpcError::UnknownMethod(path.to_owned()))?;
    if let Some(encoding) = headers.get(GRPC_ENCODING) {
        let text = String::from_utf8_lossy(encoding.as_bytes()).into_owned();
        if !text.trim().eq_ignore_ascii_case("identity") {
            return Err(GrpcError::Encoding(text));
        }
    }
    Ok(operation)
}

// ---------------------------------------------------------------------------
// Messages.

/// One message with its 5-byte prefix (not compressed). A message of
/// 4 GiB or more has no prefix ([`GrpcError::TooLarge`]).
pub fn encode_frame(message: &[u8]) -> Result<Bytes, GrpcError> {
    let len = u32::try_from(message.len()).map_err(|_| GrpcError::TooLarge {
        len: message.len() as u64,
        limit: u32::MAX as usize,
    })?;
    let mut out = BytesMut::with_capacity(PREFIX_LEN + message.len());
    out.extend_from_slice(&[0]);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(message);
    Ok(out.freeze())
}

/// A value's protobuf bytes as one framed message.
pub fn encode_message<T: Protobuf>(value: &T) -> Result<Bytes, GrpcError> {
    encode_frame(&a2a_proto::encode(value))
}

/// A push decoder of framed messages: feed it the body's chunks as they
/// arrive ([`push`](FrameDecoder::push)), take whole messages out
/// ([`next_message`](FrameDecoder::next_message)), and call
/// [`finish`](FrameDecoder::finish) at the end of the body.
///
/// A message's length is checked on its prefix, before its bytes are
/// buffered, so the decoder holds at most the limit plus one chunk. After
/// an error it stays failed: a gRPC stream is not resynchronised.
#[derive(Debug)]
pub struct FrameDecoder {
    buffer: BytesMut,
    max_message_size: usize,
    failed: Option<GrpcError>,
}

impl Default for FrameDecoder {
    fn default() -> Self {
        FrameDecoder::new(DEFAULT_MAX_MESSAGE_SIZE)
    }
}

impl FrameDecoder {
    /// A decoder admitting messages up to `max_message_size` bytes.
    pub fn new(max_message_size: usize) -> FrameDecoder {
        FrameDecoder {
            buffer: BytesMut::new(),
            max_message_size,
            failed: None,
        }
    }

    /// Appends a chunk of the body.
    pub fn push(&mut self, chunk: &[u8]) {
        if self.failed.is_none() {
            self.buffer.extend_from_slice(chunk);
        }
    }

    /// The next whole message, `Ok(None)` when more input is needed.
    pub fn next_message(&mut self) -> Result<Option<Bytes>, GrpcError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let Some(prefix) = self.buffer.get(..PREFIX_LEN) else {
            return Ok(None);
        };
        let flag = prefix[0];
        let len = u32::from_be_bytes([prefix[1], prefix[2], prefix[3], prefix[4]]);
        let error = match flag {
            0 if u64::from(len) > self.max_message_size as u64 => Some(GrpcError::TooLarge {
                len: u64::from(len),
                limit: self.max_message_size,
            }),
            0 => None,
            1 => Some(GrpcError::Compressed),
            other => Some(GrpcError::InvalidFlag(other)),
        };
        if let Some(e) = error {
            self.buffer.clear();
            self.failed = Some(e.clone());
            return Err(e);
        }
        let len = len as usize;
        if self.buffer.len() < PREFIX_LEN + len {
            return Ok(None);
        }
        self.buffer.advance(PREFIX_LEN);
        Ok(Some(self.buffer.split_to(len).freeze()))
    }

    /// The end of the body: an error if it stopped inside a message.
    pub fn finish(&self) -> Result<(), GrpcError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        match self.buffer.len() {
            0 => Ok(()),
            have if have < PREFIX_LEN => Err(GrpcError::Truncated {
                have,
                want: PREFIX_LEN,
            }),
            have => {
                let len = u32::from_be_bytes([
                    self.buffer[1],
                    self.buffer[2],
                    self.buffer[3],
                    self.buffer[4],
                ]) as usize;
                Err(GrpcError::Truncated {
                    have,
                    want: PREFIX_LEN + len,
                })
            }
        }
    }
}

/// The one message of a whole unary body (a request, or a unary
/// response): exactly one frame, up to `max_message_size` bytes.
pub fn decode_unary(body: &[u8], max_message_size: usize) -> Result<Bytes, GrpcError> {
    let mut decoder = FrameDecoder::new(max_message_size);
    decoder.push(body);
    let first = decoder
        .next_message()?
        .ok_or_else(|| match decoder.finish() {
            Err(e) => e,
            Ok(()) => GrpcError::Missing,
        })?;
    if decoder.next_message()?.is_some() {
        return Err(GrpcError::TooMany);
    }
    decoder.finish()?;
    Ok(first)
}

// ---------------------------------------------------------------------------
// Status: grpc-status, grpc-message, grpc-status-details-bin.

/// `grpc-message` encoding: bytes outside printable ASCII (`0x20..=0x7E`)
/// and `%` itself as `%XX`, as gRPC prescribes.
pub fn encode_grpc_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for &b in message.as_bytes() {
        if (0x20..=0x7e).contains(&b) && b != b'%' {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        }
    }
    out
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Decodes `grpc-message`: `%XX` escapes to bytes, read as UTF-8 with
/// invalid sequences replaced. A `%` without two hex digits is kept as it
/// is (gRPC: a receiver must not fail on a malformed message).
pub fn decode_grpc_message(encoded: &[u8]) -> String {
    let hex = |b: u8| char::from(b).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(encoded.len());
    let mut i = 0;
    while let Some(&b) = encoded.get(i) {
        if b == b'%' {
            let hi = encoded.get(i + 1).copied().and_then(hex);
            let lo = encoded.get(i + 2).copied().and_then(hex);
            if let (Some(hi), Some(lo)) = (hi, lo) {
                out.push(hi << 4 | lo);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

const B64_NO_PAD: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD_NO_PAD;
const B64_LENIENT: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    base64::engine::GeneralPurposeConfig::new()
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
);

/// The most bytes of `grpc-message` (percent-encoded) [`status_fields`]
/// writes: 1 KiB. A longer message is cut at a character and ends `...`.
pub(crate) const MAX_GRPC_MESSAGE_LEN: usize = 1024;
/// The most bytes of `grpc-status-details-bin` (base64) [`status_fields`]
/// writes: 4 KiB, so an error's status fields stay under 6 KiB, within
/// the 8 KiB of metadata many gRPC clients accept (grpc-java's default).
/// Trimming keeps the code, the `ErrorInfo` reason and domain, and a
/// `RetryInfo`; what an error echoes of a request (its message, the
/// `ErrorInfo` metadata, `BadRequest` descriptions) is cut first.
pub(crate) const MAX_STATUS_DETAILS_LEN: usize = 4096;
/// The most bytes of the `google.rpc.Status` message in the details, and
/// of each string of its details once they need trimming.
const MAX_DETAIL_TEXT: usize = 512;
const MAX_DETAIL_FIELD: usize = 128;

/// The status fields of an error with `code`: `grpc-status`, the
/// percent-encoded `grpc-message`, and `grpc-status-details-bin`, the
/// `google.rpc.Status` (with `code` as its code) in base64 without padding.
/// Both texts are bounded, `grpc-message` to 1 KiB and
/// `grpc-status-details-bin` to 4 KiB, so that an error's status fields
/// stay under 6 KiB, within the 8 KiB of metadata many gRPC clients
/// accept: an error that echoes a long request (a 1 MiB task id) must not
/// make trailers that clients refuse. Trimming keeps the code, the
/// `ErrorInfo` reason and domain, and a `RetryInfo`; what an error echoes
/// of a request (its message, the `ErrorInfo` metadata, `BadRequest`
/// descriptions) is cut first.
pub fn status_fields(code: GrpcCode, error: &A2aError) -> HeaderMap {
    let mut status = status_to_proto(error);
    status.code = code.0;
    let details = B64_NO_PAD.encode(bounded_status(status));
    let mut fields = HeaderMap::with_capacity(3);
    fields.insert(GRPC_STATUS, HeaderValue::from(code.0));
    let message = bounded_grpc_message(error.message(), MAX_GRPC_MESSAGE_LEN);
    // Printable ASCII only, so always a valid header value.
    if let Ok(message) = HeaderValue::from_str(&message) {
        fields.insert(GRPC_MESSAGE, message);
    }
    if let Ok(details) = HeaderValue::from_str(&details) {
        fields.insert(GRPC_STATUS_DETAILS, details);
    }
    fields
}

/// `message` percent-encoded in at most `max` bytes: cut at a character,
/// ending `...`, when the whole does not fit.
fn bounded_grpc_message(message: &str, max: usize) -> String {
    let whole = encode_grpc_message(message);
    if whole.len() <= max {
        return whole;
    }
    let mut out = String::with_capacity(max);
    let mut buf = [0; 4];
    for c in message.chars() {
        let piece = encode_grpc_message(c.encode_utf8(&mut buf));
        if out.len() + piece.len() + 3 > max {
            break;
        }
        out.push_str(&piece);
    }
    out.push_str("...");
    out
}

/// At most `max` bytes of `text`, cut at a character, ending `...` when cut.
fn cut(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut end = max.saturating_sub(3);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push_str("...");
}

/// The protobuf bytes of `status`, trimmed until their base64 fits
/// [`MAX_STATUS_DETAILS_LEN`] (see there): first the message, then every
/// string of the known details (others dropped), then everything but the
/// `ErrorInfo` reason and domain and a `RetryInfo`.
fn bounded_status(mut status: a2a_proto::rpc::Status) -> Vec<u8> {
    use a2a_proto::prost::Message as _;
    use a2a_proto::rpc::{BadRequest, ErrorInfo};
    use a2a_types::{BAD_REQUEST_TYPE, ERROR_INFO_TYPE, RETRY_INFO_TYPE};
    // Base64 without padding: 4 characters per 3 bytes, rounded up.
    let fits =
        |s: &a2a_proto::rpc::Status| s.encoded_len().div_ceil(3) * 4 <= MAX_STATUS_DETAILS_LEN;
    if fits(&status) {
        return status.encode_to_vec();
    }
    cut(&mut status.message, MAX_DETAIL_TEXT);
    if fits(&status) {
        return status.encode_to_vec();
    }
    let field = |s: &mut String| cut(s, MAX_DETAIL_FIELD);
    status
        .details
        .retain_mut(|any| match any.type_url.as_str() {
            ERROR_INFO_TYPE => {
                let Ok(mut info) = ErrorInfo::decode(any.value.as_slice()) else {
                    return false;
                };
                field(&mut info.reason);
                field(&mut info.domain);
                info.metadata = std::mem::take(&mut info.metadata)
                    .into_iter()
                    .take(8)
                    .map(|(mut k, mut v)| {
                        field(&mut k);
                        field(&mut v);
                        (k, v)
                    })
                    .collect();
                any.value = info.encode_to_vec();
                true
            }
            BAD_REQUEST_TYPE => {
                let Ok(mut bad) = BadRequest::decode(any.value.as_slice()) else {
                    return false;
                };
                bad.field_violations.truncate(8);
                for v in &mut bad.field_violations {
                    field(&mut v.field);
                    field(&mut v.description);
                    field(&mut v.reason);
                    v.localized_message = None;
                }
                any.value = bad.encode_to_vec();
                true
            }
            RETRY_INFO_TYPE => true,
            _ => false,
        });
    if fits(&status) {
        return status.encode_to_vec();
    }
    status
        .details
        .retain_mut(|any| match any.type_url.as_str() {
            ERROR_INFO_TYPE => {
                if let Ok(mut info) = ErrorInfo::decode(any.value.as_slice()) {
                    info.metadata.clear();
                    any.value = info.encode_to_vec();
                }
                true
            }
            RETRY_INFO_TYPE => any.value.len() <= 64,
            _ => false,
        });
    status.encode_to_vec()
}

/// The trailers of an error: [`status_fields`] with the error's code from
/// the error table (spec 5.4, 10.6).
pub fn error_trailers(error: &A2aError) -> HeaderMap {
    status_fields(GrpcCode::of_kind(error.kind()), error)
}

/// The trailers of a call that succeeded: `grpc-status: 0`.
pub fn ok_trailers() -> HeaderMap {
    let mut fields = HeaderMap::with_capacity(1);
    fields.insert(GRPC_STATUS, HeaderValue::from_static("0"));
    fields
}

/// The head of a gRPC response that will carry messages: `200`,
/// `content-type: application/grpc`; the status follows in trailers.
pub fn response_head() -> Response<()> {
    let mut response = Response::new(());
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(GRPC_CONTENT_TYPE));
    response
}

/// A trailers-only error response (an error before any message): `200`,
/// `content-type: application/grpc` and the [`status_fields`] in the
/// headers, no body.
pub fn error_response(code: GrpcCode, error: &A2aError) -> Response<()> {
    let mut response = response_head();
    response.headers_mut().extend(status_fields(code, error));
    response
}

/// What a status in trailers (or a trailers-only head) says.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum GrpcStatus {
    /// `grpc-status: 0`.
    Ok,
    /// Any other code, with the error it describes.
    Error(GrpcCode, A2aError),
}

/// Reads the status of a response from its trailers (or, for a
/// trailers-only response, its headers); `None` without `grpc-status`.
///
/// The error comes from `grpc-status-details-bin` when it decodes (its
/// `ErrorInfo` names the kind, [`status_from_proto`]), with the message of
/// `grpc-message` when the details have none; otherwise from the code and
/// message alone. A `grpc-status` that is not a number is `UNKNOWN`.
pub fn read_status(fields: &HeaderMap) -> Option<GrpcStatus> {
    let raw = fields.get(GRPC_STATUS)?;
    let code = std::str::from_utf8(raw.as_bytes())
        .ok()
        .and_then(|s| s.trim().parse::<i32>().ok())
        .map_or(GrpcCode::UNKNOWN, GrpcCode);
    if code == GrpcCode::OK {
        return Some(GrpcStatus::Ok);
    }
    let message = fields
        .get(GRPC_MESSAGE)
        .map(|m| decode_grpc_message(m.as_bytes()))
        .unwrap_or_default();
    let details = fields
        .get(GRPC_STATUS_DETAILS)
        .and_then(|v| B64_LENIENT.decode(v.as_bytes()).ok())
        .and_then(|bytes| {
            <a2a_proto::rpc::Status as a2a_proto::prost::Message>::decode(bytes.as_slice()).ok()
        });
    let status = match details {
        Some(mut status) => {
            status.code = code.0;
            if status.message.is_empty() {
                status.message = message;
            }
            status
        }
        None => a2a_proto::rpc::Status {
            code: code.0,
            message,
            details: Vec::new(),
        },
    };
    Some(GrpcStatus::Error(code, status_from_proto(status)))
}

// ---------------------------------------------------------------------------
// grpc-timeout.

/// Reads `grpc-timeout` (1 to 8 ASCII digits, then `H`, `M`, `S`, `m`,
/// `u` or `n`) as a duration: the deadline the host enforces, since the
/// core reads no clock.
pub fn parse_timeout(value: &[u8]) -> Result<Duration, GrpcError> {
    let (&unit, digits) = value.split_last().ok_or(GrpcError::Timeout)?;
    if digits.is_empty() || digits.len() > 8 || !digits.iter().all(u8::is_ascii_digit) {
        return Err(GrpcError::Timeout);
    }
    let n = digits
        .iter()
        .fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    Ok(match unit {
        b'H' => Duration::from_secs(n * 3600),
        b'M' => Duration::from_secs(n * 60),
        b'S' => Duration::from_secs(n),
        b'm' => Duration::from_millis(n),
        b'u' => Duration::from_micros(n),
        b'n' => Duration::from_nanos(n),
        _ => return Err(GrpcError::Timeout),
    })
}

/// The `grpc-timeout` header of a request's deadline, if it has one that
/// reads ([`parse_timeout`]).
pub fn request_timeout(headers: &HeaderMap) -> Option<Result<Duration, GrpcError>> {
    // A `HeaderName` finds the entry without parsing the name each call.
    static NAME: HeaderName = HeaderName::from_static(GRPC_TIMEOUT);
    headers
        .get(&NAME)
        .map(|value| parse_timeout(value.as_bytes()))
}

/// Writes a duration as `grpc-timeout`: the finest unit whose value has
/// at most 8 digits, rounded up so the deadline is never shorter.
pub fn encode_timeout(timeout: Duration) -> HeaderValue {
    const MAX: u128 = 99_999_999;
    let nanos = timeout.as_nanos();
    let units: [(u128, char); 6] = [
        (1, 'n'),
        (1_000, 'u'),
        (1_000_000, 'm'),
        (1_000_000_000, 'S'),
        (60_000_000_000, 'M'),
        (3_600_000_000_000, 'H'),
    ];
    for (per, unit) in units {
        let value = nanos.div_ceil(per);
        if value <= MAX {
            return HeaderValue::from_str(&format!("{value}{unit}"))
                .unwrap_or_else(|_| HeaderValue::from_static("99999999H"));
        }
    }
    HeaderValue::from_static("99999999H")
}

impl fmt::Display for GrpcStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrpcStatus::Ok => f.write_str("OK"),
            GrpcStatus::Error(code, error) => write!(f, "{code}: {error}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::{FieldViolation, GetTaskRequest, ERROR_DOMAIN};

    #[test]
    fn paths_name_operations() {
        for op in Operation::ALL {
            assert_eq!(operation_of_path(&method_path(op)), Some(op));
        }
        assert_eq!(
            method_path(Operation::SendMessage),
            "/lf.a2a.v1.A2AService/SendMessage"
        );
        assert_eq!(operation_of_path("/lf.a2a.v1.A2AService/Nope"), None);
        assert_eq!(operation_of_path("/other.Service/SendMessage"), None);
        assert_eq!(operation_of_path("lf.a2a.v1.A2AService/GetTask"), None);
    }

    #[test]
    fn content_types() {
        let ok = |s: &'static str| is_grpc_content_type(&HeaderValue::from_static(s));
        assert!(ok("application/grpc"));
        assert!(ok("application/grpc+proto"));
        assert!(ok("Application/GRPC; charset=binary"));
        assert!(!ok("application/grpc+json"));
        assert!(!ok("application/json"));
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    http::HeaderName::from_static(k),
                    HeaderValue::from_static(v),
                )
            })
            .collect()
    }

    #[test]
    fn request_heads_are_checked_in_order() {
        let grpc = headers(&[("content-type", "application/grpc")]);
        let path = "/lf.a2a.v1.A2AService/GetTask";
        assert_eq!(
            check_request_head(&Method::POST, path, &grpc),
            Ok(Operation::GetTask)
        );
        let e = check_request_head(&Method::GET, path, &grpc).unwrap_err();
        assert_eq!(e.http_status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(e.to_response().headers()["allow"], "POST");
        let json = headers(&[("content-type", "application/json")]);
        let e = check_request_head(&Method::POST, path, &json).unwrap_err();
        assert_eq!(e.http_status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let e = check_request_head(&Method::POST, "/lf.a2a.v1.A2AService/Nope", &grpc).unwrap_err();
        assert_eq!(e.grpc_code(), GrpcCode::UNIMPLEMENTED);
        let response = e.to_response();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[GRPC_STATUS], "12");
        let gzip = headers(&[
            ("content-type", "application/grpc"),
            ("grpc-encoding", "gzip"),
        ]);
        let e = check_request_head(&Method::POST, path, &gzip).unwrap_err();
        assert_eq!(e.grpc_code(), GrpcCode::UNIMPLEMENTED);
        assert_eq!(e.to_response().headers()[GRPC_ACCEPT_ENCODING], "identity");
        let identity = headers(&[
            ("content-type", "application/grpc+proto"),
            ("grpc-encoding", "identity"),
        ]);
        assert!(check_request_head(&Method::POST, path, &identity).is_ok());
    }

    #[test]
    fn frames_have_a_five_byte_prefix() {
        let frame = encode_frame(b"abc").unwrap();
        assert_eq!(&frame[..], &[0, 0, 0, 0, 3, b'a', b'b', b'c']);
        assert_eq!(&encode_frame(b"").unwrap()[..], &[0, 0, 0, 0, 0]);
        let request = GetTaskRequest {
            tenant: String::new(),
            id: "t-1".into(),
            history_length: None,
            ..Default::default()
        };
        let framed = encode_message(&request).unwrap();
        let one = decode_unary(&framed, 100).unwrap();
        assert_eq!(a2a_proto::decode::<GetTaskRequest>(&one).unwrap(), request);
    }

    #[test]
    fn the_decoder_reassembles_messages_from_any_chunking() {
        let mut body = Vec::new();
        for m in [&b"first"[..], b"", b"third message"] {
            body.extend_from_slice(&encode_frame(m).unwrap());
        }
        for chunk in 1..body.len() {
            let mut decoder = FrameDecoder::new(64);
            let mut got = Vec::new();
            for piece in body.chunks(chunk) {
                decoder.push(piece);
                while let Some(m) = decoder.next_message().unwrap() {
                    got.push(m);
                }
            }
            decoder.finish().unwrap();
            assert_eq!(got, [&b"first"[..], b"", b"third message"], "chunk {chunk}");
        }
    }

    #[test]
    fn over_the_limit_is_refused_on_the_prefix() {
        let mut decoder = FrameDecoder::new(4);
        // Only the prefix has arrived: the length alone decides.
        decoder.push(&[0, 0, 0, 0, 5]);
        let e = decoder.next_message().unwrap_err();
        assert_eq!(e, GrpcError::TooLarge { len: 5, limit: 4 });
        assert_eq!(e.grpc_code(), GrpcCode::RESOURCE_EXHAUSTED);
        // It stays failed, and holds nothing more.
        decoder.push(&[1; 100]);
        assert!(decoder.next_message().is_err());
        assert!(decoder.finish().is_err());
        assert_eq!(
            decode_unary(&encode_frame(b"1234").unwrap(), 4)
                .unwrap()
                .len(),
            4
        );
        assert!(decode_unary(&[0, 0xff, 0xff, 0xff, 0xff], DEFAULT_MAX_MESSAGE_SIZE).is_err());
    }

    #[test]
    fn compressed_truncated_and_unary_counts() {
        assert_eq!(
            decode_unary(&[1, 0, 0, 0, 1, 0], 10),
            Err(GrpcError::Compressed)
        );
        assert_eq!(
            decode_unary(&[2, 0, 0, 0, 1, 0], 10),
            Err(GrpcError::InvalidFlag(2))
        );
        assert_eq!(
            decode_unary(&[0, 0, 0], 10),
            Err(GrpcError::Truncated { have: 3, want: 5 })
        );
        assert_eq!(
            decode_unary(&[0, 0, 0, 0, 4, 1, 2], 10),
            Err(GrpcError::Truncated { have: 7, want: 9 })
        );
        assert_eq!(decode_unary(&[], 10), Err(GrpcError::Missing));
        let mut two = encode_frame(b"a").unwrap().to_vec();
        two.extend_from_slice(&encode_frame(b"b").unwrap());
        assert_eq!(decode_unary(&two, 10), Err(GrpcError::TooMany));
        assert_eq!(GrpcError::Compressed.grpc_code(), GrpcCode::INTERNAL);
        assert_eq!(
            GrpcError::Missing.to_a2a_error().kind(),
            ErrorKind::InvalidRequest
        );
    }

    #[test]
    fn grpc_message_is_percent_encoded() {
        assert_eq!(encode_grpc_message("Task not found"), "Task not found");
        assert_eq!(encode_grpc_message("100% ✓\n"), "100%25 %E2%9C%93%0A");
        assert_eq!(decode_grpc_message(b"100%25 %E2%9C%93%0A"), "100% ✓\n");
        // Malformed escapes are kept, never an error.
        assert_eq!(decode_grpc_message(b"50%"), "50%");
        assert_eq!(decode_grpc_message(b"%zz%4"), "%zz%4");
        assert_eq!(decode_grpc_message(b"%ff"), "\u{fffd}");
    }

    #[test]
    fn error_trailers_carry_code_message_and_details() {
        let error = A2aError::task_not_found("task-123");
        let trailers = error_trailers(&error);
        assert_eq!(trailers[GRPC_STATUS], "5");
        assert_eq!(trailers[GRPC_MESSAGE], "Task not found: task-123");
        let details = trailers[GRPC_STATUS_DETAILS].to_str().unwrap();
        assert!(!details.ends_with('='), "no padding: {details}");
        let bytes = B64_NO_PAD.decode(details).unwrap();
        let status =
            <a2a_proto::rpc::Status as a2a_proto::prost::Message>::decode(bytes.as_slice())
                .unwrap();
        assert_eq!(status.code, 5);
        assert_eq!(status.details[0].type_url, a2a_types::ERROR_INFO_TYPE);
        let info = <a2a_proto::rpc::ErrorInfo as a2a_proto::prost::Message>::decode(
            status.details[0].value.as_slice(),
        )
        .unwrap();
        assert_eq!(info.reason, "TASK_NOT_FOUND");
        assert_eq!(info.domain, ERROR_DOMAIN);
        assert_eq!(info.metadata["taskId"], "task-123");

        let Some(GrpcStatus::Error(code, back)) = read_status(&trailers) else {
            panic!("an error status");
        };
        assert_eq!(code, GrpcCode::NOT_FOUND);
        assert_eq!(back.kind(), ErrorKind::TaskNotFound);
        assert_eq!(back.message(), error.message());
        assert_eq!(back.details(), error.details());
    }

    #[test]
    fn an_error_echoing_a_huge_request_makes_bounded_trailers() {
        // GetTask of a 1 MiB id: its message and ErrorInfo metadata echo it.
        let id = "é".repeat(512 * 1024);
        let error = A2aError::task_not_found(&id)
            .with_retry_delay(Duration::from_secs(2))
            .with_detail(a2a_types::ErrorDetail::BadRequest(a2a_types::BadRequest {
                field_violations: vec![FieldViolation {
                    field: "id".into(),
                    description: id.clone(),
                }],
            }));
        let trailers = error_trailers(&error);
        let message = trailers[GRPC_MESSAGE].as_bytes();
        assert!(message.len() <= MAX_GRPC_MESSAGE_LEN, "{}", message.len());
        assert!(message.ends_with(b"..."));
        let details = trailers[GRPC_STATUS_DETAILS].as_bytes();
        assert!(details.len() <= MAX_STATUS_DETAILS_LEN, "{}", details.len());
        let total: usize = trailers
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len())
            .sum();
        assert!(total < 6 * 1024, "{total} bytes of status fields");
        // The code, the kind, the retry delay and the start of the texts stay.
        let Some(GrpcStatus::Error(code, back)) = read_status(&trailers) else {
            panic!("an error status");
        };
        assert_eq!(code, GrpcCode::NOT_FOUND);
        assert_eq!(back.kind(), ErrorKind::TaskNotFound);
        assert_eq!(back.retry_delay(), Some(Duration::from_secs(2)));
        assert!(
            back.message().starts_with("Task not found: éé"),
            "{}",
            back.message()
        );
        assert!(back.message().len() <= 512);
        // Within the bound nothing is cut.
        let small = A2aError::task_not_found(&"x".repeat(900));
        let Some(GrpcStatus::Error(_, back)) = read_status(&error_trailers(&small)) else {
            panic!("an error status");
        };
        assert_eq!(back, small);
    }

    #[test]
    fn a_call_over_http1_is_refused_with_505_and_a_status() {
        let response = GrpcError::HttpVersion(Version::HTTP_11).to_response();
        assert_eq!(response.status(), StatusCode::HTTP_VERSION_NOT_SUPPORTED);
        assert_eq!(response.headers()[GRPC_STATUS], "13");
        let Some(GrpcStatus::Error(code, error)) = read_status(response.headers()) else {
            panic!("a status in the head");
        };
        assert_eq!(code, GrpcCode::INTERNAL);
        assert!(error.message().contains("HTTP/2"), "{error}");
    }

    #[test]
    fn grpc_messages_are_cut_at_a_character() {
        assert_eq!(bounded_grpc_message("abc", 3), "abc");
        assert_eq!(bounded_grpc_message("abcdef", 5), "ab...");
        // `é` is six bytes encoded (%C3%A9) and is never split.
        assert_eq!(bounded_grpc_message("aéé", 12), "a%C3%A9...");
        assert_eq!(bounded_grpc_message("aéé", 9), "a...");
        let mut text = String::from("aé€");
        cut(&mut text, 5);
        assert_eq!(text, "a...");
    }

    #[test]
    fn bad_request_details_travel_and_every_kind_maps_by_the_table() {
        let error = A2aError::invalid_params(vec![FieldViolation {
            field: "message.parts".into(),
            description: "At least one part is required".into(),
        }]);
        let Some(GrpcStatus::Error(code, back)) = read_status(&error_trailers(&error)) else {
            panic!("an error status");
        };
        assert_eq!(code, GrpcCode::INVALID_ARGUMENT);
        assert_eq!(back.field_violations().count(), 1);
        for kind in ErrorKind::ALL {
            let trailers = error_trailers(&A2aError::from_kind(kind));
            let want = GrpcCode::from_name(kind.grpc_status()).unwrap();
            assert_eq!(trailers[GRPC_STATUS], want.0.to_string().as_str(), "{kind}");
            let Some(GrpcStatus::Error(_, back)) = read_status(&trailers) else {
                panic!("{kind}");
            };
            assert_eq!(back.kind(), kind);
        }
    }

    #[test]
    fn statuses_without_details_or_with_padding_still_read() {
        assert_eq!(read_status(&ok_trailers()), Some(GrpcStatus::Ok));
        assert_eq!(read_status(&HeaderMap::new()), None);
        let bare = headers(&[("grpc-status", "16"), ("grpc-message", "no%20token")]);
        let Some(GrpcStatus::Error(code, e)) = read_status(&bare) else {
            panic!("an error status");
        };
        assert_eq!(code, GrpcCode::UNAUTHENTICATED);
        assert_eq!(e.kind(), ErrorKind::Unauthenticated);
        assert_eq!(e.message(), "no token");
        let garbage = headers(&[("grpc-status", "x")]);
        assert!(matches!(
            read_status(&garbage),
            Some(GrpcStatus::Error(GrpcCode::UNKNOWN, _))
        ));
        // Padded base64 is accepted too.
        let error = A2aError::task_not_found("t");
        let status = status_to_proto(&error);
        let padded = base64::engine::general_purpose::STANDARD
            .encode(a2a_proto::prost::Message::encode_to_vec(&status));
        let mut fields = HeaderMap::new();
        fields.insert(GRPC_STATUS, HeaderValue::from_static("5"));
        fields.insert(GRPC_STATUS_DETAILS, HeaderValue::from_str(&padded).unwrap());
        let Some(GrpcStatus::Error(_, e)) = read_status(&fields) else {
            panic!("an error status");
        };
        assert_eq!(e.kind(), ErrorKind::TaskNotFound);
    }

    #[test]
    fn trailers_only_responses_hold_the_status_in_the_head() {
        let response = error_response(
            GrpcCode::RESOURCE_EXHAUSTED,
            &GrpcError::TooLarge { len: 9, limit: 4 }.to_a2a_error(),
        );
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[CONTENT_TYPE], GRPC_CONTENT_TYPE);
        assert_eq!(response.headers()[GRPC_STATUS], "8");
        assert!(response.headers().contains_key(GRPC_STATUS_DETAILS));
    }

    #[test]
    fn timeouts() {
        assert_eq!(parse_timeout(b"1H"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_timeout(b"2M"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_timeout(b"30S"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_timeout(b"250m"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_timeout(b"7u"), Ok(Duration::from_micros(7)));
        assert_eq!(
            parse_timeout(b"99999999n"),
            Ok(Duration::from_nanos(99_999_999))
        );
        for bad in [
            &b""[..],
            b"S",
            b"123456789S",
            b"1s",
            b"-1S",
            b"1 S",
            b"1.5S",
        ] {
            assert_eq!(parse_timeout(bad), Err(GrpcError::Timeout), "{bad:?}");
        }
        assert_eq!(encode_timeout(Duration::from_millis(250)), "250000u");
        assert_eq!(
            encode_timeout(Duration::from_nanos(99_999_999)),
            "99999999n"
        );
        assert_eq!(encode_timeout(Duration::from_secs(30)), "30000000u");
        assert_eq!(encode_timeout(Duration::from_secs(3600 * 24)), "86400000m");
        assert_eq!(encode_timeout(Duration::from_secs(u64::MAX)), "99999999H");
        for d in [
            Duration::from_nanos(1),
            Duration::from_millis(1500),
            Duration::from_secs(12345),
        ] {
            let back = parse_timeout(encode_timeout(d).as_bytes()).unwrap();
            assert!(back >= d, "{d:?} became {back:?}");
        }
        let h = headers(&[("grpc-timeout", "5S")]);
        assert_eq!(request_timeout(&h), Some(Ok(Duration::from_secs(5))));
        assert_eq!(request_timeout(&HeaderMap::new()), None);
    }
}
