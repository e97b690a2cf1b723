//! Why protobuf bytes did not become a value of the data model.

use std::fmt;

use a2a_types::{A2aError, ErrorKind, FieldViolation, TimestampError, UnknownEnumValue};

/// What went wrong while decoding protobuf into the data model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtoErrorKind {
    /// The input is longer than the limit given to
    /// [`decode_with_limit`](crate::decode_with_limit); nothing was parsed.
    #[error("protobuf message of {len} bytes is over the limit of {limit} bytes")]
    TooLarge {
        /// Length of the input.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// The bytes are not a protobuf encoding of the message: a truncated
    /// field, a wrong wire type, invalid UTF-8 in a string, nesting past
    /// the recursion limit (100, prost's), ... The path names the field
    /// being read, when there is one.
    #[error("invalid protobuf: {0}")]
    Wire(String),
    /// An enum number the proto does not define. The data model's enums
    /// are closed (`docs/decisions.md`), so this is an error, as an unknown
    /// name or number is in ProtoJSON.
    #[error(transparent)]
    UnknownEnum(UnknownEnumValue),
    /// A message that is only a oneof (`Part`'s content, `SecurityScheme`,
    /// `OAuthFlows`, `SendMessageResponse`, `StreamResponse`) with no member
    /// set: it has no meaning, and ProtoJSON decoding refuses it too.
    #[error("{0}")]
    EmptyOneof(&'static str),
    /// A `google.protobuf.Timestamp` outside `0001-01-01` to `9999-12-31`
    /// or with nanoseconds outside `0..1e9` (the range the proto documents).
    #[error(transparent)]
    Timestamp(TimestampError),
    /// A `google.protobuf.Value` number that is NaN or infinite, which a
    /// JSON value cannot hold (ProtoJSON refuses them too).
    #[error("number {0} has no JSON form")]
    NonFiniteNumber(f64),
}

/// One step of the path to the field that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Field(&'static str),
    Index(usize),
    Key(String),
}

/// A protobuf input that did not decode, with the JSON path of the field
/// that failed (`message.parts[1].data`), as [`a2a_types::DecodeError`]
/// names it for ProtoJSON.
#[derive(Debug, Clone, PartialEq)]
pub struct ProtoError {
    kind: ProtoErrorKind,
    /// Innermost segment first: segments are added while unwinding.
    path: Vec<Segment>,
}

impl ProtoError {
    /// An error of `kind` at the top of the message.
    pub fn new(kind: ProtoErrorKind) -> ProtoError {
        ProtoError {
            kind,
            path: Vec::new(),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ProtoErrorKind {
        &self.kind
    }

    /// The JSON path of the field that failed (ProtoJSON names), empty for
    /// the message itself.
    pub fn path(&self) -> String {
        let mut out = String::new();
        for segment in self.path.iter().rev() {
            match segment {
                Segment::Field(name) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(name);
                }
                Segment::Index(i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
                Segment::Key(key) => {
                    out.push('.');
                    out.push_str(key);
                }
            }
        }
        out
    }

    pub(crate) fn in_field(mut self, name: &'static str) -> ProtoError {
        self.push_field(name);
        self
    }

    pub(crate) fn in_index(mut self, index: usize) -> ProtoError {
        self.push_index(index);
        self
    }

    pub(crate) fn in_key(mut self, key: &str) -> ProtoError {
        self.push_key(key);
        self
    }

    // In place, for the reader's boxed errors.
    pub(crate) fn push_field(&mut self, name: &'static str) {
        self.path.push(Segment::Field(name));
    }

    pub(crate) fn push_index(&mut self, index: usize) {
        self.path.push(Segment::Index(index));
    }

    pub(crate) fn push_key(&mut self, key: &str) {
        self.path.push(Segment::Key(key.to_owned()));
    }
}

impl From<ProtoErrorKind> for ProtoError {
    fn from(kind: ProtoErrorKind) -> ProtoError {
        ProtoError::new(kind)
    }
}

impl fmt::Display for ProtoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}: {}", self.path(), self.kind)
        }
    }
}

impl std::error::Error for ProtoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.kind.source()
    }
}

/// A request payload that failed to decode, as the error table names it
/// (spec 3.3.2): bytes that are not the message (or are over the limit)
/// are `InvalidRequestError`; a well-formed message with a value the model
/// refuses (an unknown enum number, an empty oneof, a timestamp out of
/// range) is `InvalidParamsError` with one field violation naming the
/// path, as for ProtoJSON. On gRPC both are `INVALID_ARGUMENT` (spec 5.4).
impl From<ProtoError> for A2aError {
    fn from(e: ProtoError) -> A2aError {
        match e.kind {
            ProtoErrorKind::TooLarge { .. } | ProtoErrorKind::Wire(_) => A2aError::new(
                ErrorKind::InvalidRequest,
                format!("Invalid protobuf payload: {e}"),
            ),
            _ => {
                let path = e.path();
                let field = if path.is_empty() {
                    "(body)".to_owned()
                } else {
                    path
                };
                A2aError::invalid_params(vec![FieldViolation {
                    field,
                    description: e.kind.to_string(),
                }])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_protojson_paths() {
        let e = ProtoError::new(ProtoErrorKind::NonFiniteNumber(f64::NAN))
            .in_field("data")
            .in_index(2)
            .in_field("parts")
            .in_field("message");
        assert_eq!(e.path(), "message.parts[2].data");
        assert!(e
            .to_string()
            .starts_with("message.parts[2].data: number NaN"));
        let keyed = ProtoError::new(ProtoErrorKind::EmptyOneof("x"))
            .in_key("bearer")
            .in_field("securitySchemes");
        assert_eq!(keyed.path(), "securitySchemes.bearer");
    }

    #[test]
    fn maps_to_the_error_table() {
        let wire: A2aError = ProtoError::new(ProtoErrorKind::Wire("bad".into())).into();
        assert_eq!(wire.kind(), ErrorKind::InvalidRequest);
        assert_eq!(wire.grpc_status(), "INVALID_ARGUMENT");
        let field: A2aError = ProtoError::new(ProtoErrorKind::EmptyOneof("empty"))
            .in_index(0)
            .in_field("parts")
            .into();
        assert_eq!(field.kind(), ErrorKind::InvalidParams);
        let v: Vec<_> = field.field_violations().collect();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].field, "parts[0]");
        let top: A2aError = ProtoError::new(ProtoErrorKind::EmptyOneof("empty")).into();
        assert_eq!(
            top.field_violations().next().map(|v| v.field.as_str()),
            Some("(body)")
        );
    }
}
