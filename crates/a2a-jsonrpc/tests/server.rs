//! Server side: bytes in, typed request or the exact error response out.

use a2a_jsonrpc::{
    decode_request, generate_request, is_batch, split_batch, A2aRequest, BatchLimits, DecodeConfig,
    ErrorResponse, Id,
};
use a2a_types::testing::Gen;
use a2a_types::{ErrorCode, ErrorKind, Operation};
use serde_json::{json, Value};

fn decode(body: &str) -> Result<a2a_jsonrpc::Request, ErrorResponse> {
    decode_request(body.as_bytes(), &DecodeConfig::default())
}

fn error_of(body: &str) -> ErrorResponse {
    match decode(body) {
        Ok(r) => panic!("expected an error for {body}, got {r:?}"),
        Err(e) => e,
    }
}

/// The error response as the JSON a client would read.
fn wire(e: &ErrorResponse) -> Value {
    serde_json::from_slice(&e.to_bytes()).unwrap()
}

fn valid_params(op: Operation) -> Value {
    match op {
        Operation::SendMessage | Operation::SendStreamingMessage => json!({
            "message": {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}
        }),
        Operation::GetTask | Operation::CancelTask | Operation::SubscribeToTask => {
            json!({"id": "t1"})
        }
        Operation::ListTasks | Operation::GetExtendedAgentCard => json!({}),
        Operation::CreateTaskPushNotificationConfig => {
            json!({"taskId": "t1", "url": "https://example.com/hook"})
        }
        Operation::GetTaskPushNotificationConfig | Operation::DeleteTaskPushNotificationConfig => {
            json!({"taskId": "t1", "id": "c1"})
        }
        Operation::ListTaskPushNotificationConfigs => json!({"taskId": "t1"}),
    }
}

#[test]
fn every_method_decodes_in_either_member_order() {
    for op in Operation::ALL {
        let params = valid_params(op).to_string();
        let method_first = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"{}","params":{params}}}"#,
            op.name()
        );
        let params_first = format!(
            r#"{{"params":{params},"id":1,"method":"{}","jsonrpc":"2.0"}}"#,
            op.name()
        );
        let a = decode(&method_first).unwrap_or_else(|e| panic!("{op}: {:?}", e.error));
        let b = decode(&params_first).unwrap_or_else(|e| panic!("{op}: {:?}", e.error));
        assert_eq!(a, b, "{op}");
        assert_eq!(a.operation(), op);
        assert_eq!(a.id, Id::number(1));
    }
}

#[test]
fn generated_requests_round_trip_through_the_client_encoder() {
    let mut g = Gen::new(7);
    for round in 0..40 {
        for op in Operation::ALL {
            let request = generate_request(op, &mut g);
            if !request.validate().is_empty() {
                continue;
            }
            let id = Id::string(format!("r{round}"));
            let body = a2a_jsonrpc::encode_request(&id, &request);
            let back = decode_request(&body, &DecodeConfig::default()).unwrap_or_else(|e| {
                panic!("{op}: {:?}\n{}", e.error, String::from_utf8_lossy(&body))
            });
            assert_eq!(back.id, id);
            assert_eq!(back.request, request, "{op}");
        }
    }
}

#[test]
fn ids_are_echoed_exactly() {
    for id in [
        "\"abc\"",
        "-5",
        "1.25",
        "123456789012345678901234567890",
        "0",
        "\"\"",
        "null",
    ] {
        let body =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"GetTask","params":{{"id":"t"}}}}"#);
        let request = decode(&body).unwrap();
        let reply = a2a_jsonrpc::encode_result(&request.id, &json!({}));
        let text = String::from_utf8(reply).unwrap();
        assert!(text.contains(&format!(r#""id":{id},"#)), "{text}");
        // And on the error path too.
        let bad = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"Nope"}}"#);
        let err = String::from_utf8(error_of(&bad).to_bytes()).unwrap();
        assert!(err.contains(&format!(r#""id":{id},"#)), "{err}");
    }
}

#[test]
fn parse_error_has_null_id() {
    for body in [
        "{",
        "not json",
        r#"{"jsonrpc":"2.0","id":1,"method":"GetTask""#,
        "",
        "{} x",
    ] {
        let e = error_of(body);
        assert_eq!(e.error.kind(), ErrorKind::JsonParse, "{body}");
        assert_eq!(e.id, Id::Null);
        assert_eq!(wire(&e)["error"]["code"], -32700);
        assert_eq!(wire(&e)["id"], Value::Null);
    }
}

#[test]
fn invalid_request_objects() {
    let cases = [
        (
            r#"{"id":1,"method":"GetTask","params":{"id":"t"}}"#,
            Id::number(1),
            "missing \"jsonrpc\"",
        ),
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"GetTask","params":{"id":"t"}}"#,
            Id::number(1),
            "must be \"2.0\"",
        ),
        (
            r#"{"jsonrpc":2.0,"id":1,"method":"GetTask","params":{"id":"t"}}"#,
            Id::number(1),
            "must be \"2.0\"",
        ),
        (
            r#"{"jsonrpc":"2.0","id":"a","method":5}"#,
            Id::string("a"),
            "must be a string",
        ),
        (
            r#"{"jsonrpc":"2.0","id":"a"}"#,
            Id::string("a"),
            "missing \"method\"",
        ),
        (
            r#"{"jsonrpc":"2.0","id":{"x":1},"method":"GetTask"}"#,
            Id::Null,
            "\"id\" must be",
        ),
        (
            r#"{"jsonrpc":"2.0","id":[1],"method":"GetTask"}"#,
            Id::Null,
            "\"id\" must be",
        ),
        (
            r#"{"jsonrpc":"2.0","id":true,"method":"GetTask"}"#,
            Id::Null,
            "\"id\" must be",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"GetTask","method":"ListTasks"}"#,
            Id::number(3),
            "duplicate member \"method\"",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":"a"},"params":{"id":"b"}}"#,
            Id::number(3),
            "duplicate member \"params\"",
        ),
        ("42", Id::Null, "JSON object"),
        ("\"GetTask\"", Id::Null, "JSON object"),
        ("null", Id::Null, "JSON object"),
    ];
    for (body, id, why) in cases {
        let e = error_of(body);
        assert_eq!(
            e.error.kind(),
            ErrorKind::InvalidRequest,
            "{body}: {:?}",
            e.error
        );
        assert_eq!(e.id, id, "{body}");
        assert!(
            e.error.message().contains(why),
            "{body}: {}",
            e.error.message()
        );
        assert_eq!(wire(&e)["error"]["code"], -32600);
    }
}

#[test]
fn notifications_decode_and_their_errors_are_marked() {
    let config = DecodeConfig::default();
    let r = decode_request(
        br#"{"jsonrpc":"2.0","method":"GetTask","params":{"id":"t"}}"#,
        &config,
    )
    .unwrap();
    assert!(r.notification);
    assert!(matches!(r.request, A2aRequest::GetTask(ref p) if p.id == "t"));
    // `"id": null` is a request (discouraged, JSON-RPC 2.0 section 4), not a
    // notification.
    let r = decode_request(
        br#"{"jsonrpc":"2.0","id":null,"method":"GetTask","params":{"id":"t"}}"#,
        &config,
    )
    .unwrap();
    assert!(!r.notification);
    // Errors after the envelope are the notification's: not answered.
    for body in [
        r#"{"jsonrpc":"2.0","method":"Nope"}"#,
        r#"{"jsonrpc":"2.0","method":"GetTask","params":{"id":7}}"#,
        r#"{"jsonrpc":"2.0","method":"GetTask","params":{}}"#,
    ] {
        let e = decode_request(body.as_bytes(), &config).unwrap_err();
        assert!(e.notification, "{body}");
    }
    // Not a request object: answered, with id null.
    let e = decode_request(br#"{"method":"GetTask"}"#, &config).unwrap_err();
    assert!(!e.notification);
    assert_eq!(e.error.kind(), ErrorKind::InvalidRequest);
}

#[test]
fn invalid_utf8_is_a_parse_error() {
    for body in [
        &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"\xff\"}}"[..],
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"Get\xc3\x28Task\"}",
    ] {
        let e = decode_request(body, &DecodeConfig::default()).unwrap_err();
        assert_eq!(e.error.kind(), ErrorKind::JsonParse, "{:?}", e.error);
        assert!(e.error.message().contains("UTF-8"), "{}", e.error.message());
        assert_eq!(e.id, Id::Null);
    }
}

#[test]
fn batches_split_within_limits() {
    let limits = BatchLimits::new();
    let empty = split_batch(b" [ ] ", &limits).unwrap_err();
    assert_eq!(empty.error.kind(), ErrorKind::InvalidRequest);
    assert!(empty.error.message().contains("empty batch"));
    let parts = split_batch(
        br#"[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}, 1, [] ]"#,
        &limits,
    )
    .unwrap();
    assert_eq!(parts.len(), 3);
    assert!(decode_request(parts[0], &DecodeConfig::default()).is_ok());
    assert_eq!(
        decode_request(parts[1], &DecodeConfig::default())
            .unwrap_err()
            .error
            .kind(),
        ErrorKind::InvalidRequest
    );
    // An element of a batch is not a batch: `[]` inside answers -32600.
    assert_eq!(
        decode_request(parts[2], &DecodeConfig::default())
            .unwrap_err()
            .error
            .kind(),
        ErrorKind::InvalidRequest
    );
    let three = b"[1,2,3]";
    assert_eq!(
        split_batch(three, &limits.with_max_len(3)).unwrap().len(),
        3
    );
    let over = split_batch(three, &limits.with_max_len(2)).unwrap_err();
    assert_eq!(over.error.kind(), ErrorKind::InvalidRequest);
    assert!(over.over_limit);
    let big = split_batch(three, &limits.with_max_size(6)).unwrap_err();
    assert!(big.over_limit);
    for bad in [&b"[1,"[..], b"[\"\xff\"]", b"[1] x"] {
        let e = split_batch(bad, &limits).unwrap_err();
        assert_eq!(e.error.kind(), ErrorKind::JsonParse);
        assert_eq!(e.id, Id::Null);
    }
    assert!(is_batch(b" \n[1]"));
    assert!(!is_batch(b"{}"));
}

/// A JSON string is its value, however it is escaped.
#[test]
fn escaped_version_and_method_are_their_values() {
    let escaped = r#"{"jsonrpc":"2\u002e0","id":1,"method":"Get\u0054ask","params":{"id":"t"}}"#;
    let request = decode(escaped).unwrap_or_else(|e| panic!("{:?}", e.error));
    assert_eq!(request.operation(), Operation::GetTask);
    // With the method unknown, the error is the method's, not the version's.
    let e = error_of(r#"{"jsonrpc":"2\u002e0","id":1,"method":"Nope"}"#);
    assert_eq!(e.error.code(), ErrorCode::METHOD_NOT_FOUND);
    let e = error_of(r#"{"jsonrpc":"2\u002e1","id":1,"method":"GetTask"}"#);
    assert_eq!(e.error.code(), ErrorCode::INVALID_REQUEST);
}

#[test]
fn unknown_method_is_32601_with_id() {
    for name in ["Nope", "message/send", "sendMessage", "getTask", ""] {
        let e = error_of(&format!(
            r#"{{"jsonrpc":"2.0","id":"q","method":"{name}","params":{{}}}}"#
        ));
        assert_eq!(e.error.code(), ErrorCode::METHOD_NOT_FOUND, "{name}");
        assert_eq!(e.id, Id::string("q"));
    }
}

#[test]
fn invalid_params_name_the_path() {
    let e = error_of(
        r#"{"jsonrpc":"2.0","id":9,"method":"SendMessage","params":
           {"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a"},{"text":"b","url":"u"}]}}}"#,
    );
    assert_eq!(e.error.code(), ErrorCode::INVALID_PARAMS);
    assert_eq!(e.id, Id::number(9));
    let v: Vec<_> = e.error.field_violations().collect();
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].field, "params.message.parts[1]");
    let data = &wire(&e)["error"]["data"];
    assert!(data
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["@type"] == "type.googleapis.com/google.rpc.BadRequest"));

    // Same when params come before the method.
    let e2 = error_of(
        r#"{"params":{"message":{"messageId":"m","role":"ROLE_NOPE","parts":[{"text":"a"}]}},
            "jsonrpc":"2.0","id":9,"method":"SendMessage"}"#,
    );
    assert_eq!(e2.error.code(), ErrorCode::INVALID_PARAMS);
    assert_eq!(
        e2.error.field_violations().next().unwrap().field,
        "params.message.role"
    );

    // Params of the wrong JSON type.
    for params in ["[]", "5", "\"x\"", "true"] {
        let e = error_of(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{params}}}"#
        ));
        assert_eq!(e.error.code(), ErrorCode::INVALID_PARAMS, "{params}");
        assert_eq!(e.id, Id::number(1));
    }
}

#[test]
fn missing_required_fields_are_each_reported() {
    let e = error_of(
        r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","parts":[]}}}"#,
    );
    assert_eq!(e.error.code(), ErrorCode::INVALID_PARAMS);
    let fields: Vec<_> = e
        .error
        .field_violations()
        .map(|v| v.field.as_str())
        .collect();
    assert!(fields.contains(&"message.messageId"), "{fields:?}");
    assert!(fields.contains(&"message.parts"), "{fields:?}");
    // No params at all for a method with REQUIRED fields.
    let e = error_of(r#"{"jsonrpc":"2.0","id":1,"method":"GetTask"}"#);
    assert_eq!(e.error.code(), ErrorCode::INVALID_PARAMS);
    assert_eq!(e.error.field_violations().next().unwrap().field, "id");
}

#[test]
fn methods_without_required_fields_need_no_params() {
    for body in [
        r#"{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard","params":null}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}"#,
        r#"{"params":null,"jsonrpc":"2.0","id":1,"method":"ListTasks"}"#,
    ] {
        let r = decode(body).unwrap_or_else(|e| panic!("{body}: {:?}", e.error));
        assert!(matches!(
            r.request,
            A2aRequest::GetExtendedAgentCard(_) | A2aRequest::ListTasks(_)
        ));
    }
}

#[test]
fn unknown_members_are_ignored() {
    let r = decode(r#"{"jsonrpc":"2.0","x":{"deep":[1,2,{}]},"id":1,"method":"GetTask","params":{"id":"t","future":1}}"#)
        .unwrap();
    assert!(matches!(r.request, A2aRequest::GetTask(ref p) if p.id == "t"));
}

#[test]
fn escaped_method_names_are_read() {
    let r =
        decode(r#"{"jsonrpc":"2.0","id":1,"method":"Get\u0054ask","params":{"id":"t"}}"#).unwrap();
    assert_eq!(r.operation(), Operation::GetTask);
}

#[test]
fn size_limit_answers_before_parsing() {
    let mut config = DecodeConfig::default();
    config.max_request_size = 64;
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{{"id":"{}"}}}}"#,
        "x".repeat(100)
    );
    let e = decode_request(body.as_bytes(), &config).unwrap_err();
    assert_eq!(e.error.kind(), ErrorKind::InvalidRequest);
    assert_eq!(e.error.received_status(), None);
    assert!(e.error.message().contains("exceeds the limit of 64 bytes"));
}

#[test]
fn nesting_beyond_the_depth_limit_is_invalid_params() {
    // serde_json skips unknown members without recursing, so only nesting
    // inside values that are decoded (here `Part.data`) can hit the limit.
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{{"message":{{"messageId":"m","role":"ROLE_USER","parts":[{{"data":{}1{}}}]}}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let e = error_of(&deep);
    assert_eq!(e.error.kind(), ErrorKind::InvalidParams);
    assert_eq!(e.id, Id::number(1));
    let v = e.error.field_violations().next().unwrap();
    assert!(
        v.field.starts_with("params.message.parts[0].data"),
        "{}",
        v.field
    );
    assert!(
        v.description.contains("recursion limit"),
        "{}",
        v.description
    );
}
