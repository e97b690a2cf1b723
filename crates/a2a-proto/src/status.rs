//! `google.rpc.Status` in protobuf form and its canonical codes: an
//! [`A2aError`] as the gRPC binding carries it in
//! `grpc-status-details-bin` (spec 10.6), and back.

use std::fmt;

use a2a_types::{
    A2aError, BadRequest, ErrorCode, ErrorDetail, ErrorInfo, ErrorKind, FieldViolation, RetryInfo,
    BAD_REQUEST_TYPE, ERROR_INFO_TYPE, RETRY_INFO_TYPE,
};
use base64::Engine as _;
use prost::Message as _;
use serde_json::{Map, Value};

use crate::rpc;

/// A gRPC status code (the canonical codes of `google.rpc.Code`).
///
/// Open, like [`ErrorCode`]: a peer's unknown number survives. The
/// constants are the seventeen canonical codes; [`GrpcCode::from_name`]
/// reads the names the error table uses (spec 5.4), so the mapping of
/// every [`ErrorKind`] comes from that one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GrpcCode(pub i32);

macro_rules! codes {
    ($($name:ident = $n:literal,)+) => {
        impl GrpcCode {
            $(
                #[doc = concat!("`", stringify!($name), "` (", stringify!($n), ").")]
                pub const $name: GrpcCode = GrpcCode($n);
            )+

            /// The code with this canonical name (`NOT_FOUND`), if any.
            pub fn from_name(name: &str) -> Option<GrpcCode> {
                match name {
                    $(stringify!($name) => Some(GrpcCode::$name),)+
                    _ => None,
                }
            }

            /// The canonical name, or `None` for a number outside `0..=16`.
            pub fn name(self) -> Option<&'static str> {
                match self.0 {
                    $($n => Some(stringify!($name)),)+
                    _ => None,
                }
            }
        }
    };
}

codes! {
    OK = 0,
    CANCELLED = 1,
    UNKNOWN = 2,
    INVALID_ARGUMENT = 3,
    DEADLINE_EXCEEDED = 4,
    NOT_FOUND = 5,
    ALREADY_EXISTS = 6,
    PERMISSION_DENIED = 7,
    RESOURCE_EXHAUSTED = 8,
    FAILED_PRECONDITION = 9,
    ABORTED = 10,
    OUT_OF_RANGE = 11,
    UNIMPLEMENTED = 12,
    INTERNAL = 13,
    UNAVAILABLE = 14,
    DATA_LOSS = 15,
    UNAUTHENTICATED = 16,
}

impl GrpcCode {
    /// The code of an error kind, from the error table's gRPC column
    /// (spec 5.4); `UNKNOWN` for a name that is not canonical, which the
    /// table's tests rule out.
    pub fn of_kind(kind: ErrorKind) -> GrpcCode {
        GrpcCode::from_name(kind.grpc_status()).unwrap_or(GrpcCode::UNKNOWN)
    }
}

impl fmt::Display for GrpcCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => write!(f, "code {}", self.0),
        }
    }
}

/// The `google.rpc.Status` of an error (spec 10.6): its gRPC code from the
/// error table, its message, and its details as `Any`s, with the A2A
/// `ErrorInfo` first whenever the kind is known (as on HTTP+JSON, 11.6).
///
/// `ErrorInfo`, `BadRequest` and `RetryInfo` are encoded as their messages. Another
/// detail is carried only if it is the form [`status_from_proto`] gives an
/// unknown `Any` (`{"@type": URL, "value": "<base64>"}`); a detail that
/// arrived as JSON with fields of a message this crate does not know has no
/// protobuf encoding here and is left out.
pub fn status_to_proto(error: &A2aError) -> rpc::Status {
    let details = error
        .to_status()
        .error
        .details
        .iter()
        .filter_map(detail_to_any)
        .collect();
    rpc::Status {
        code: GrpcCode::of_kind(error.kind()).0,
        message: error.message().to_owned(),
        details,
    }
}

fn detail_to_any(detail: &ErrorDetail) -> Option<prost_types::Any> {
    match detail {
        ErrorDetail::ErrorInfo(info) => Some(prost_types::Any {
            type_url: ERROR_INFO_TYPE.to_owned(),
            value: rpc::ErrorInfo {
                reason: info.reason.clone(),
                domain: info.domain.clone(),
                metadata: info.metadata.clone(),
            }
            .encode_to_vec(),
        }),
        ErrorDetail::BadRequest(br) => Some(prost_types::Any {
            type_url: BAD_REQUEST_TYPE.to_owned(),
            value: rpc::BadRequest {
                field_violations: br
                    .field_violations
                    .iter()
                    .map(|v| rpc::bad_request::FieldViolation {
                        field: v.field.clone(),
                        description: v.description.clone(),
                        ..Default::default()
                    })
                    .collect(),
            }
            .encode_to_vec(),
        }),
        ErrorDetail::RetryInfo(info) => Some(prost_types::Any {
            type_url: RETRY_INFO_TYPE.to_owned(),
            value: rpc::RetryInfo {
                retry_delay: Some(prost_types::Duration {
                    seconds: i64::try_from(info.retry_delay.as_secs()).unwrap_or(i64::MAX),
                    nanos: info.retry_delay.subsec_nanos() as i32,
                }),
            }
            .encode_to_vec(),
        }),
        ErrorDetail::Other(map) => {
            let type_url = map.get("@type")?.as_str()?;
            let value = map.get("value")?.as_str()?;
            if map.len() != 2 {
                return None;
            }
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(value)
                .ok()?;
            Some(prost_types::Any {
                type_url: type_url.to_owned(),
                value: bytes,
            })
        }
        _ => None,
    }
}

/// The error a `google.rpc.Status` describes.
///
/// The kind comes from the A2A `ErrorInfo` reason (several kinds share a
/// gRPC code, spec 5.4); without one, from the code where it is
/// unambiguous (`UNAUTHENTICATED`, `PERMISSION_DENIED`,
/// `RESOURCE_EXHAUSTED`, `INTERNAL`), else
/// the error is [`ErrorKind::Unknown`]. `ErrorInfo` and `BadRequest`
/// details are decoded; any other `Any` (or one whose bytes do not decode)
/// is kept as `{"@type": URL, "value": "<base64>"}`, which
/// [`status_to_proto`] writes back unchanged.
pub fn status_from_proto(status: rpc::Status) -> A2aError {
    let details: Vec<ErrorDetail> = status.details.into_iter().map(detail_from_any).collect();
    let by_reason = details
        .iter()
        .find_map(|d| d.a2a_reason().and_then(ErrorKind::from_reason));
    let code = GrpcCode(status.code);
    let kind = by_reason.unwrap_or(match code {
        GrpcCode::UNAUTHENTICATED => ErrorKind::Unauthenticated,
        GrpcCode::PERMISSION_DENIED => ErrorKind::PermissionDenied,
        GrpcCode::RESOURCE_EXHAUSTED => ErrorKind::RateLimited,
        GrpcCode::INTERNAL => ErrorKind::Internal,
        _ => ErrorKind::Unknown,
    });
    let message = if status.message.is_empty() {
        match kind {
            ErrorKind::Unknown => format!("gRPC status {code}"),
            k => k.default_message().to_owned(),
        }
    } else {
        status.message
    };
    let code = match kind {
        ErrorKind::Unknown => ErrorCode(-32000),
        k => k.code(),
    };
    details
        .into_iter()
        .fold(A2aError::with_code(code, message), A2aError::with_detail)
}

fn detail_from_any(any: prost_types::Any) -> ErrorDetail {
    match any.type_url.as_str() {
        ERROR_INFO_TYPE => {
            if let Ok(info) = rpc::ErrorInfo::decode(any.value.as_slice()) {
                return ErrorDetail::ErrorInfo(ErrorInfo {
                    reason: info.reason,
                    domain: info.domain,
                    metadata: info.metadata,
                });
            }
        }
        BAD_REQUEST_TYPE => {
            if let Ok(br) = rpc::BadRequest::decode(any.value.as_slice()) {
                return ErrorDetail::BadRequest(BadRequest {
                    field_violations: br
                        .field_violations
                        .into_iter()
                        .map(|v| FieldViolation {
                            field: v.field,
                            description: v.description,
                        })
                        .collect(),
                });
            }
        }
        RETRY_INFO_TYPE => {
            let delay = rpc::RetryInfo::decode(any.value.as_slice())
                .ok()
                .and_then(|r| r.retry_delay)
                .filter(|d| d.seconds >= 0 && (0..1_000_000_000).contains(&d.nanos));
            if let Some(d) = delay {
                return ErrorDetail::RetryInfo(RetryInfo {
                    retry_delay: std::time::Duration::new(d.seconds as u64, d.nanos as u32),
                });
            }
        }
        _ => {}
    }
    let mut map = Map::new();
    map.insert("@type".to_owned(), Value::String(any.type_url));
    map.insert(
        "value".to_owned(),
        Value::String(base64::engine::general_purpose::STANDARD.encode(any.value)),
    );
    ErrorDetail::Other(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rate-limit refusal is `RESOURCE_EXHAUSTED` (8) with its
    /// `RetryInfo` as a protobuf message, read back exactly.
    #[test]
    fn rate_limited_carries_retry_info() {
        let err = A2aError::rate_limited(std::time::Duration::from_millis(2250));
        let status = status_to_proto(&err);
        assert_eq!(status.code, 8);
        let any = status
            .details
            .iter()
            .find(|a| a.type_url == RETRY_INFO_TYPE)
            .expect("a RetryInfo detail");
        let info = rpc::RetryInfo::decode(any.value.as_slice()).unwrap();
        let delay = info.retry_delay.unwrap();
        assert_eq!((delay.seconds, delay.nanos), (2, 250_000_000));
        let back = status_from_proto(status);
        assert_eq!(back.kind(), ErrorKind::RateLimited);
        assert_eq!(
            back.retry_delay(),
            Some(std::time::Duration::from_millis(2250))
        );
        // Without an ErrorInfo the code alone names the kind.
        let bare = status_from_proto(rpc::Status {
            code: 8,
            message: String::new(),
            details: Vec::new(),
        });
        assert_eq!(bare.kind(), ErrorKind::RateLimited);
    }

    #[test]
    fn every_kind_has_a_canonical_code() {
        for kind in ErrorKind::ALL {
            let code = GrpcCode::from_name(kind.grpc_status());
            assert!(code.is_some(), "{kind}: {}", kind.grpc_status());
            assert_eq!(code.and_then(GrpcCode::name), Some(kind.grpc_status()));
        }
        assert_eq!(
            GrpcCode::of_kind(ErrorKind::TaskNotFound),
            GrpcCode::NOT_FOUND
        );
        assert_eq!(GrpcCode::of_kind(ErrorKind::TaskNotFound).0, 5);
        assert_eq!(GrpcCode::of_kind(ErrorKind::UnsupportedOperation).0, 9);
        assert_eq!(GrpcCode::of_kind(ErrorKind::InvalidParams).0, 3);
        assert_eq!(GrpcCode::of_kind(ErrorKind::Unauthenticated).0, 16);
        assert_eq!(GrpcCode(99).to_string(), "code 99");
    }

    /// The 1.1 draft's `TaskGenerationMismatchError` is `ABORTED` (10) on
    /// gRPC (draft spec 5.4), and comes back by its `ErrorInfo` reason with
    /// its metadata.
    #[cfg(feature = "draft-1-1")]
    #[test]
    fn a_generation_mismatch_is_aborted() {
        assert_eq!(GrpcCode::from_name("ABORTED"), Some(GrpcCode(10)));
        assert_eq!(GrpcCode(10).name(), Some("ABORTED"));
        let kind = ErrorKind::TaskGenerationMismatch;
        assert_eq!(kind.grpc_status(), "ABORTED");
        assert_eq!(GrpcCode::of_kind(kind), GrpcCode::ABORTED);
        let error = A2aError::task_generation_mismatch(3, 5);
        let status = status_to_proto(&error);
        assert_eq!(status.code, 10);
        let info = rpc::ErrorInfo::decode(status.details[0].value.as_slice()).unwrap();
        assert_eq!(info.reason, "TASK_GENERATION_MISMATCH");
        assert_eq!(info.metadata["expectedGeneration"], "3");
        assert_eq!(info.metadata["currentGeneration"], "5");
        let back =
            status_from_proto(rpc::Status::decode(status.encode_to_vec().as_slice()).unwrap());
        assert_eq!(back.kind(), kind);
        assert_eq!(back.code().0, -32010);
        assert_eq!(back.message(), error.message());
        assert_eq!(back.details(), error.details());
    }

    #[test]
    fn errors_round_trip_through_the_status() {
        let errors = [
            A2aError::task_not_found("t-1"),
            A2aError::invalid_params(vec![FieldViolation {
                field: "message.parts".into(),
                description: "At least one part is required".into(),
            }]),
            A2aError::version_not_supported("0.3", &["1.0"]),
            A2aError::from_kind(ErrorKind::Unauthenticated),
        ];
        for error in errors {
            let status = status_to_proto(&error);
            assert_eq!(status.code, GrpcCode::of_kind(error.kind()).0);
            let bytes = status.encode_to_vec();
            let back = status_from_proto(rpc::Status::decode(bytes.as_slice()).unwrap());
            assert_eq!(back.kind(), error.kind());
            assert_eq!(back.code(), error.code());
            assert_eq!(back.message(), error.message());
            assert_eq!(back.details(), error.details());
        }
    }

    #[test]
    fn the_a2a_error_info_comes_first_and_unknown_details_survive() {
        let unknown = prost_types::Any {
            type_url: "type.googleapis.com/google.rpc.RetryInfo".into(),
            value: vec![0x0a, 0x02, 0x08, 0x05],
        };
        let status = rpc::Status {
            code: GrpcCode::NOT_FOUND.0,
            message: "gone".into(),
            details: vec![
                unknown.clone(),
                prost_types::Any {
                    type_url: ERROR_INFO_TYPE.into(),
                    value: rpc::ErrorInfo {
                        reason: "TASK_NOT_FOUND".into(),
                        domain: a2a_types::ERROR_DOMAIN.into(),
                        metadata: Default::default(),
                    }
                    .encode_to_vec(),
                },
            ],
        };
        let error = status_from_proto(status);
        assert_eq!(error.kind(), ErrorKind::TaskNotFound);
        let again = status_to_proto(&error);
        assert_eq!(again.details.len(), 2);
        assert_eq!(again.details[0], unknown);
        // A kind without any ErrorInfo gets one, first.
        let bare = A2aError::with_code(ErrorKind::TaskNotFound.code(), "x");
        let status = status_to_proto(&bare);
        assert_eq!(status.details[0].type_url, ERROR_INFO_TYPE);
    }

    #[test]
    fn without_a_reason_the_code_decides_where_it_can() {
        let e = status_from_proto(rpc::Status {
            code: GrpcCode::UNAUTHENTICATED.0,
            ..Default::default()
        });
        assert_eq!(e.kind(), ErrorKind::Unauthenticated);
        let e = status_from_proto(rpc::Status {
            code: GrpcCode::NOT_FOUND.0,
            ..Default::default()
        });
        assert_eq!(e.kind(), ErrorKind::Unknown);
        assert_eq!(e.message(), "gRPC status NOT_FOUND");
    }
}
