//! Test support for this workspace's tests and fuzz targets; not part of
//! the API.
//!
//! - [`check_roundtrip`]: value → protobuf bytes → value, by type name,
//!   over the generated values of `a2a_types::testing`.
//! - [`oracle_lines`]: `TYPE<TAB>JSON<TAB>BASE64(protobuf)` cases of the
//!   same value, for the independent check by Google's protobuf library.
//! - [`fuzz_decode`]: the fuzz harness of the protobuf decode.

use std::fmt::Debug;

use a2a_types::testing::{encode as encode_json, line_safe, Gen, Generate};
use a2a_types::*;
use base64::Engine as _;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::convert::number_from_f64;
use crate::{decode, encode, Protobuf};

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

/// The fuzz harness: decodes `data` as a `Task`, `Message`, `AgentCard`,
/// `StreamResponse` and `SendMessageRequest`. Whatever decodes must
/// re-encode to prost's bytes of the same value (the direct writer against
/// `to_message`), bytes that decode to the same value, and encode as JSON.
pub fn fuzz_decode(data: &[u8]) {
    fn one<T: Protobuf + Serialize + PartialEq + Debug>(data: &[u8]) {
        let Ok(value) = decode::<T>(data) else {
            return;
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
