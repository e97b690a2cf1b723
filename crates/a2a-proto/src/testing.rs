//! Test support for this workspace's tests and fuzz targets; not part of
//! the API.
//!
//! - [`check_roundtrip`]: value → protobuf bytes → value, by type name,
//!   over the generated values of `a2a_types::testing`.
//! - [`oracle_lines`]: `TYPE<TAB>JSON<TAB>BASE64(protobuf)` cases of the
//!   same value, for the independent check by Google's protobuf library.
//! - [`decode_via_prost`]: the decode path before the reader (prost's
//!   generated message, then `from_message`), and [`compare_decoders`],
//!   which holds the reader to it on any input.
//! - [`fuzz_decode`]: the fuzz harness of the protobuf decode.

use std::fmt::Debug;

use a2a_types::testing::{encode as encode_json, line_safe, Gen, Generate};
use a2a_types::*;
use base64::Engine as _;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::convert::number_from_f64;
use crate::{decode, encode, ProtoError, ProtoErrorKind, Protobuf};

use a2a_types::with_message_types;

/// The proto names of the 44 message types this crate converts (the list
/// of `a2a-types`).
pub use a2a_types::testing::TYPE_NAMES;

/// Every JSON number in `value` replaced by what the proto's double makes
/// of it (the nearest double, read back as `convert` reads doubles).
fn through_double(value: &mut Value) {
    match value {
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if let Ok(back) = number_from_f64(f) {
                *n = back;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(through_double),
        Value::Object(map) => map.values_mut().for_each(through_double),
        _ => {}
    }
}

/// `value` as the proto can hold it: its JSON form with every number
/// through a double, decoded again. Numbers appear only in
/// `Struct`/`Value` fields and int32 fields, which doubles hold exactly.
pub fn as_proto_holds<T: Serialize + DeserializeOwned>(value: &T) -> Result<T, String> {
    let mut json = serde_json::to_value(value).map_err(|e| e.to_string())?;
    through_double(&mut json);
    serde_json::from_value(json).map_err(|e| e.to_string())
}

/// Checks decode(encode(x)) == x, numbers taken through the proto's
/// double, for the value generated from `seed` of the type named
/// `type_name`; also that encoding is deterministic.
pub fn check_roundtrip(type_name: &str, seed: u64) -> Result<(), String> {
    fn go<T>(seed: u64) -> Result<(), String>
    where
        T: Generate + Protobuf + Serialize + DeserializeOwned + PartialEq + Debug,
    {
        let value = T::generate(&mut Gen::new(seed));
        let bytes = encode(&value);
        if encode(&value) != bytes {
            return Err("encoding is not deterministic".to_owned());
        }
        let back: T = decode(&bytes).map_err(|e| format!("{e}\n{value:?}"))?;
        let want = as_proto_holds(&value)?;
        if back != want {
            return Err(format!(
                "round trip changed the value\n{}\n{value:?}\n{back:?}",
                encode_json(&value)
            ));
        }
        // What was decoded encodes to the same bytes again.
        if encode(&back) != encode(&want) {
            return Err("re-encoding differs".to_owned());
        }
        Ok(())
    }
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => go::<$t>(seed),)+
                _ => Err(format!("unknown type {type_name:?}")),
            }
        };
    }
    with_message_types!(arms)
}

/// The protobuf bytes of the JSON document `json` of type `type_name`
/// (decoded with the model's ProtoJSON decoder).
pub fn proto_of_json(type_name: &str, json: &str) -> Result<Vec<u8>, String> {
    fn go<T: Protobuf + DeserializeOwned>(json: &str) -> Result<Vec<u8>, String> {
        let value: T = from_str(json).map_err(|e| e.to_string())?;
        Ok(encode(&value))
    }
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => go::<$t>(json),)+
                _ => Err(format!("unknown type {type_name:?}")),
            }
        };
    }
    with_message_types!(arms)
}

/// `n` cases `TYPE<TAB>JSON<TAB>BASE64`, cycling through every type: our
/// ProtoJSON of a generated value and our protobuf bytes of the same value
/// (standard base64), for a referee to parse both and compare.
pub fn oracle_lines(n: usize) -> Result<String, String> {
    let mut out = String::new();
    for (name, json) in a2a_types::testing::corpus(n) {
        let bytes = proto_of_json(name, &json)?;
        out.push_str(name);
        out.push('\t');
        out.push_str(&line_safe(json));
        out.push('\t');
        out.push_str(&base64::engine::general_purpose::STANDARD.encode(bytes));
        out.push('\n');
    }
    Ok(out)
}

/// The decode path before the reader (issue 30): prost decodes the
/// generated message, then [`Protobuf::from_message`] converts it. The
/// referee [`decode`] is held to.
pub fn decode_via_prost<T: Protobuf>(bytes: &[u8]) -> Result<T, ProtoError> {
    let message = <T::Message as prost::Message>::decode(bytes)
        .map_err(|e| ProtoError::new(ProtoErrorKind::Wire(e.to_string())))?;
    T::from_message(message)
}

/// Whether two decode errors agree: both wire errors (whose texts are each
/// decoder's own), or the same kind at the same path.
fn same_error(ours: &ProtoError, theirs: &ProtoError) -> bool {
    match (ours.kind(), theirs.kind()) {
        (ProtoErrorKind::Wire(_), ProtoErrorKind::Wire(_)) => true,
        // Debug, not ==: a NaN in `NonFiniteNumber` is not equal to itself.
        (a, b) => format!("{a:?}") == format!("{b:?}") && ours.path() == theirs.path(),
    }
}

/// Decodes `bytes` as `T` with [`decode`] and with [`decode_via_prost`]:
/// `Ok(Some(value))` when both give that value, `Ok(None)` when both
/// refuse it alike ([`same_error`]), else what differs.
pub fn compare_decoders<T: Protobuf + PartialEq + Debug>(
    bytes: &[u8],
) -> Result<Option<T>, String> {
    match (decode::<T>(bytes), decode_via_prost::<T>(bytes)) {
        (Ok(ours), Ok(theirs)) if ours == theirs => Ok(Some(ours)),
        (Ok(ours), Ok(theirs)) => Err(format!(
            "different values\n reader: {ours:?}\n prost:  {theirs:?}"
        )),
        (Err(ours), Err(theirs)) if same_error(&ours, &theirs) => Ok(None),
        (ours, theirs) => Err(format!(
            "different results\n reader: {:?}\n prost:  {:?}",
            ours.map_err(|e| format!("{e} ({:?})", e.kind())),
            theirs.map_err(|e| format!("{e} ({:?})", e.kind()))
        )),
    }
}

/// What both decoders made of an input, when they agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreed {
    /// The same value.
    Value,
    /// Both found the bytes malformed.
    Wire,
    /// Both refused a value the model cannot hold, alike.
    Refused,
}

/// [`compare_decoders`] for the type named `type_name` (one of
/// [`TYPE_NAMES`], or `Struct`, `Value`, `Timestamp`, `Empty`, and
/// `TimelineEntry` with `draft-1-1`).
pub fn compare_decoders_by_name(type_name: &str, bytes: &[u8]) -> Result<Agreed, String> {
    fn go<T: Protobuf + PartialEq + Debug>(bytes: &[u8]) -> Result<Agreed, String> {
        Ok(match compare_decoders::<T>(bytes)? {
            Some(_) => Agreed::Value,
            None => match decode::<T>(bytes) {
                Err(e) if matches!(e.kind(), ProtoErrorKind::Wire(_)) => Agreed::Wire,
                _ => Agreed::Refused,
            },
        })
    }
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => go::<$t>(bytes),)+
                "Struct" => go::<Struct>(bytes),
                "Value" => go::<Value>(bytes),
                "Timestamp" => go::<Timestamp>(bytes),
                "Empty" => go::<Empty>(bytes),
                #[cfg(feature = "draft-1-1")]
                "TimelineEntry" => go::<a2a_types::draft_1_1::TimelineEntry>(bytes),
                _ => Err(format!("unknown type {type_name:?}")),
            }
        };
    }
    with_message_types!(arms)
}

/// The protobuf bytes of the value generated from `seed` of the type
/// named `type_name` (one of [`TYPE_NAMES`]).
pub fn generated_bytes(type_name: &str, seed: u64) -> Result<Vec<u8>, String> {
    fn go<T: Generate + Protobuf>(seed: u64) -> Result<Vec<u8>, String> {
        Ok(encode(&T::generate(&mut Gen::new(seed))))
    }
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => go::<$t>(seed),)+
                _ => Err(format!("unknown type {type_name:?}")),
            }
        };
    }
    with_message_types!(arms)
}

/// The fuzz harness: decodes `data` as a `Task`, `Message`, `AgentCard`,
/// `StreamResponse` and `SendMessageRequest`, with the reader and with
/// prost + `from_message`, which must agree ([`compare_decoders`]).
/// Whatever decodes must re-encode to prost's bytes of the same value (the
/// direct writer against `to_message`), bytes that decode to the same
/// value, and encode as JSON.
pub fn fuzz_decode(data: &[u8]) {
    fn one<T: Protobuf + Serialize + PartialEq + Debug>(data: &[u8]) {
        let value = match compare_decoders::<T>(data) {
            Ok(Some(value)) => value,
            Ok(None) => return,
            Err(e) => panic!("the reader and prost + from_message disagree: {e}"),
        };
        let bytes = encode(&value);
        assert_eq!(
            bytes,
            prost::Message::encode_to_vec(&value.to_message()),
            "the writer's bytes differ from prost's"
        );
        let again: T = match decode(&bytes) {
            Ok(v) => v,
            Err(e) => panic!("our own encoding does not decode: {e}\n{value:?}"),
        };
        assert_eq!(again, value, "a decoded value changed through encoding");
        assert_eq!(encode(&again), bytes, "encoding is not stable");
        let _ = encode_json(&value);
    }
    one::<Task>(data);
    one::<Message>(data);
    one::<AgentCard>(data);
    one::<StreamResponse>(data);
    one::<SendMessageRequest>(data);
}
