//! Binary protobuf decode and encode of the model (issue 16), on the same
//! documents as the ProtoJSON rows of `a2a-types` (its
//! `benches/fixtures`), in one run:
//!
//! - **prost alone**: the generated message from and to bytes, the floor
//!   of any protobuf path;
//! - **model**: `a2a_proto::decode`/`encode`: the direct reader (wire
//!   bytes to the model) and writer (model to wire bytes), no prost
//!   message;
//! - **prost + from_message**: the decode path before the reader (issue
//!   30): prost's message, then `Protobuf::from_message` converts it;
//! - **to_message + prost**: the encode path before the writer (issue 30):
//!   `Protobuf::to_message` builds the prost message, every string cloned,
//!   then prost writes it;
//! - **ProtoJSON**: the same value through `a2a_types::from_slice` and
//!   the crate's JSON writer.
//!
//! Encode rows run twice: into one reused buffer (the codec's own cost),
//! and into a new `Vec` per call (`prost::Message::encode_to_vec` against
//! `a2a_proto::encode`, allocation included, as callers use them). The
//! writer's bytes are checked equal to prost's before measuring.
//!
//! Every row of a document counts that document's protobuf size as its
//! bytes, so the MB/s of its rows compare documents per second, and the
//! ratios say how many times faster the model's protobuf path is than
//! the others (issue 30's goals: at least 1x prost alone for encode, 0.9x
//! for decode).
//!
//! `BENCH_SECONDS=0.5 cargo bench -p a2a-proto`; `A2A_BENCH_HEAP=default`
//! for glibc's default heap (see `a2a_bench_harness::steady_heap`).

#[path = "../../a2a-types/benches/fixtures/mod.rs"]
mod fixtures;

use a2a_bench_harness::Report;
use a2a_proto::Protobuf;
use prost::Message as _;

fn bench_type<T>(report: &mut Report, label: &str, value: &T)
where
    T: Protobuf + serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let pb = a2a_proto::encode(value);
    let json = a2a_types::json::to_vec(value).unwrap();
    let len = pb.len() as u64;
    assert_eq!(&a2a_proto::decode::<T>(&pb).unwrap(), value);
    assert_eq!(
        &a2a_proto::testing::decode_via_prost::<T>(&pb).unwrap(),
        value
    );
    report.note(&format!(
        "## {label}: {len} bytes of protobuf, {} of ProtoJSON",
        json.len()
    ));

    let prost_decode = report.measure(&format!("{label} decode prost alone"), len, 1, || {
        T::Message::decode(pb.as_slice()).unwrap()
    });
    let model_decode = report.measure(&format!("{label} decode protobuf to model"), len, 1, || {
        a2a_proto::decode::<T>(&pb).unwrap()
    });
    let from_message_decode = report.measure(
        &format!("{label} decode prost + from_message"),
        len,
        1,
        || a2a_proto::testing::decode_via_prost::<T>(&pb).unwrap(),
    );
    let json_decode = report.measure(
        &format!("{label} decode ProtoJSON to model"),
        len,
        1,
        || a2a_types::from_slice::<T>(&json).unwrap(),
    );
    let message = value.to_message();
    assert_eq!(a2a_proto::encode(value), message.encode_to_vec());
    let mut out = Vec::with_capacity(pb.len().max(json.len()));
    let prost_encode = report.measure(&format!("{label} encode prost alone"), len, 1, || {
        out.clear();
        message.encode(&mut out).unwrap();
        out.len()
    });
    let to_message_encode = report.measure(
        &format!("{label} encode to_message + prost"),
        len,
        1,
        || {
            out.clear();
            value.to_message().encode(&mut out).unwrap();
            out.len()
        },
    );
    let model_encode = report.measure(&format!("{label} encode model to protobuf"), len, 1, || {
        out.clear();
        a2a_proto::encode_into(value, &mut out);
        out.len()
    });
    let json_encode = report.measure(
        &format!("{label} encode model to ProtoJSON"),
        len,
        1,
        || {
            out.clear();
            a2a_types::json::to_writer(&mut out, value).unwrap();
            out.len()
        },
    );
    let prost_vec = report.measure(
        &format!("{label} encode prost alone, encode_to_vec"),
        len,
        1,
        || message.encode_to_vec(),
    );
    let to_message_vec = report.measure(
        &format!("{label} encode to_message + prost, encode_to_vec"),
        len,
        1,
        || value.to_message().encode_to_vec(),
    );
    let model_vec = report.measure(
        &format!("{label} encode model to protobuf, encode"),
        len,
        1,
        || a2a_proto::encode(value),
    );
    report.ratio(
        &format!("{label} decode model/prost alone"),
        &model_decode,
        &prost_decode,
    );
    report.ratio(
        &format!("{label} decode prost + from_message/prost alone"),
        &from_message_decode,
        &prost_decode,
    );
    report.ratio(
        &format!("{label} decode protobuf/ProtoJSON"),
        &model_decode,
        &json_decode,
    );
    report.ratio(
        &format!("{label} encode model/prost alone"),
        &model_encode,
        &prost_encode,
    );
    report.ratio(
        &format!("{label} encode to_message + prost/prost alone"),
        &to_message_encode,
        &prost_encode,
    );
    report.ratio(
        &format!("{label} encode model/prost alone, new Vec"),
        &model_vec,
        &prost_vec,
    );
    report.ratio(
        &format!("{label} encode to_message + prost/prost alone, new Vec"),
        &to_message_vec,
        &prost_vec,
    );
    report.ratio(
        &format!("{label} encode protobuf/ProtoJSON"),
        &model_encode,
        &json_encode,
    );
}

fn main() {
    let heap = a2a_bench_harness::steady_heap();
    let mut report = Report::new("a2a-proto");
    report.note(&heap);
    bench_type(&mut report, "small Message", &fixtures::small_message());
    bench_type(&mut report, "~50 KB Task", &fixtures::task_of_size(50_000));
    bench_type(
        &mut report,
        "~5 MB Task",
        &fixtures::task_of_size(5_000_000),
    );
    if let Err(e) = report.finish() {
        eprintln!("could not write the report: {e}");
    }
}
