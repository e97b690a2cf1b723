//! Everything the encoder produces passes the independent wire oracle
//! (`../shared/tools/wire-oracle jsonrpc`: Google's ProtoJSON parser
//! against the real proto, plus the JSON-RPC envelope rules).

use a2a_jsonrpc::{
    encode_error, encode_request, encode_result, generate_request, generate_result_json, Id,
};
use a2a_types::testing::{line_safe, Gen, Generate};
use a2a_types::{A2aError, ErrorKind, FieldViolation, Operation, StreamResponse};

#[test]
fn generated_requests_results_errors_and_frames_pass_the_oracle() {
    let mut g = Gen::new(2024);
    let mut lines = Vec::new();
    // line_safe escapes the characters Python's splitlines() would split on
    // (U+2028, U+0085, ...); the JSON value is unchanged.
    let mut push =
        |bytes: Vec<u8>| lines.push(line_safe(String::from_utf8(bytes).expect("UTF-8 JSON")));
    for round in 0..40i64 {
        let id = if round % 3 == 0 {
            Id::string(format!("req-{round}"))
        } else {
            Id::number(round)
        };
        for op in Operation::ALL {
            let request = generate_request(op, &mut g);
            if request.validate().is_empty() {
                push(encode_request(&id, &request));
            }
            push(generate_result_json(op, &mut g, &id));
        }
        // Stream frames travel as SSE `data:` lines (spec 9.4.2).
        let event = StreamResponse::generate(&mut g);
        let mut frame = b"data: ".to_vec();
        frame.extend_from_slice(&encode_result(&id, &event));
        push(frame);
    }
    for kind in ErrorKind::ALL {
        push(encode_error(
            &Id::number(1),
            &A2aError::from_kind(kind).with_metadata("taskId", "t-1"),
        ));
    }
    push(encode_error(
        &Id::Null,
        &A2aError::invalid_params(vec![FieldViolation {
            field: "message.parts".into(),
            description: "At least one part is required".into(),
        }]),
    ));
    let input = lines.join("\n");
    let verdict = a2a_wire_oracle::jsonrpc(&input);
    let passed = a2a_wire_oracle::assert_all_pass(&verdict);
    assert_eq!(passed, lines.len(), "every line was checked");
    assert!(passed > 800, "a meaningful corpus: {passed}");
}
