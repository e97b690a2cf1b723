//! Client side: typed requests out, typed results or A2aErrors in.

use a2a_jsonrpc::{
    decode_response, decode_response_as, encode_error, encode_request, encode_result,
    generate_result_json, methods, A2aRequest, Empty, Id,
};
use a2a_types::testing::Gen;
use a2a_types::{
    A2aError, ErrorCode, ErrorKind, GetTaskRequest, Operation, StreamResponse, Task, TaskState,
};
use serde_json::{json, Value};

#[test]
fn request_encoding_names_the_method_and_echoes_the_id() {
    let req = A2aRequest::GetTask(GetTaskRequest {
        id: "t-1".into(),
        history_length: Some(3),
        ..Default::default()
    });
    let body: Value = serde_json::from_slice(&encode_request(&Id::string("abc"), &req)).unwrap();
    assert_eq!(
        body,
        json!({"jsonrpc":"2.0","id":"abc","method":"GetTask","params":{"id":"t-1","historyLength":3}})
    );
}

#[test]
fn results_decode_into_the_method_result_type() {
    let body = br#"{"jsonrpc":"2.0","id":5,"result":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}"#;
    let task: Task = decode_response::<methods::GetTask>(body, &Id::number(5)).unwrap();
    assert_eq!(task.status.state, TaskState::Working);

    // Member order does not matter; result before id.
    let body = br#"{"result":{},"id":5,"jsonrpc":"2.0"}"#;
    assert_eq!(
        decode_response::<methods::DeleteTaskPushNotificationConfig>(body, &Id::number(5)).unwrap(),
        Empty
    );
    let body = br#"{"result":null,"id":5,"jsonrpc":"2.0"}"#;
    assert_eq!(
        decode_response::<methods::DeleteTaskPushNotificationConfig>(body, &Id::number(5)).unwrap(),
        Empty
    );
}

#[test]
fn every_result_type_round_trips() {
    let mut g = Gen::new(11);
    for round in 0..30 {
        for op in Operation::ALL {
            let id = Id::number(round);
            let body = generate_result_json(op, &mut g, &id);
            let ok = match op {
                Operation::SendMessage => {
                    decode_response::<methods::SendMessage>(&body, &id).map(|_| ())
                }
                Operation::SendStreamingMessage => {
                    decode_response::<methods::SendStreamingMessage>(&body, &id).map(|_| ())
                }
                Operation::GetTask => decode_response::<methods::GetTask>(&body, &id).map(|_| ()),
                Operation::ListTasks => {
                    decode_response::<methods::ListTasks>(&body, &id).map(|_| ())
                }
                Operation::CancelTask => {
                    decode_response::<methods::CancelTask>(&body, &id).map(|_| ())
                }
                Operation::SubscribeToTask => {
                    decode_response::<methods::SubscribeToTask>(&body, &id).map(|_| ())
                }
                Operation::CreateTaskPushNotificationConfig => {
                    decode_response::<methods::CreateTaskPushNotificationConfig>(&body, &id)
                        .map(|_| ())
                }
                Operation::GetTaskPushNotificationConfig => {
                    decode_response::<methods::GetTaskPushNotificationConfig>(&body, &id)
                        .map(|_| ())
                }
                Operation::ListTaskPushNotificationConfigs => {
                    decode_response::<methods::ListTaskPushNotificationConfigs>(&body, &id)
                        .map(|_| ())
                }
                Operation::DeleteTaskPushNotificationConfig => {
                    decode_response::<methods::DeleteTaskPushNotificationConfig>(&body, &id)
                        .map(|_| ())
                }
                Operation::GetExtendedAgentCard => {
                    decode_response::<methods::GetExtendedAgentCard>(&body, &id).map(|_| ())
                }
            };
            ok.unwrap_or_else(|e| panic!("{op}: {e}\n{}", String::from_utf8_lossy(&body)));
        }
    }
}

#[test]
fn stream_frames_round_trip() {
    let mut g = Gen::new(3);
    for _ in 0..50 {
        let event: StreamResponse = a2a_types::testing::Generate::generate(&mut g);
        let frame = encode_result(&Id::string("s"), &event);
        let back = decode_response::<methods::SubscribeToTask>(&frame, &Id::string("s")).unwrap();
        assert_eq!(back, event);
    }
}

#[test]
fn errors_keep_code_message_and_data_even_when_unknown() {
    let body = br#"{"jsonrpc":"2.0","id":"x","error":{"code":-31000,"message":"custom","data":[{"@type":"t/x","k":[1,{"z":null}]}]}}"#;
    let err = decode_response::<methods::GetTask>(body, &Id::string("x")).unwrap_err();
    assert_eq!(err.code(), ErrorCode(-31000));
    assert_eq!(err.kind(), ErrorKind::Unknown);
    assert_eq!(err.message(), "custom");
    let again: Value = serde_json::from_slice(&encode_error(&Id::string("x"), &err)).unwrap();
    let original: Value = serde_json::from_slice(body).unwrap();
    assert_eq!(again, original);
}

#[test]
fn every_error_kind_round_trips() {
    for kind in a2a_types::ErrorKind::ALL {
        let err = A2aError::from_kind(kind).with_metadata("taskId", "t");
        let body = encode_error(&Id::number(1), &err);
        let back = decode_response::<methods::GetTask>(&body, &Id::number(1)).unwrap_err();
        assert_eq!(back, err, "{kind}");
    }
}

#[test]
fn error_with_null_id_belongs_to_the_request() {
    let body =
        br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Invalid JSON payload"}}"#;
    let err = decode_response::<methods::GetTask>(body, &Id::number(4)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::JsonParse);
}

#[test]
fn mismatched_or_malformed_responses_are_invalid_agent_responses() {
    let cases: [(&[u8], &str); 8] = [
        (br#"{"jsonrpc":"2.0","id":2,"result":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}"#, "does not match"),
        (br#"{"jsonrpc":"2.0","id":"1","result":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}"#, "does not match"),
        (br#"{"id":1,"result":{}}"#, "jsonrpc"),
        (br#"{"jsonrpc":"2.0","result":{}}"#, "missing \"id\""),
        (br#"{"jsonrpc":"2.0","id":1}"#, "neither"),
        (br#"{"jsonrpc":"2.0","id":1,"result":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}},"error":{"code":1,"message":"m"}}"#, "both"),
        (br#"{"jsonrpc":"2.0","id":1,"result":{"status":{"state":"LOWERCASE"}}}"#, "not a JSON-RPC response"),
        (b"<html>proxy error</html>", "not a JSON-RPC response"),
    ];
    for (body, why) in cases {
        let err = decode_response::<methods::GetTask>(body, &Id::number(1)).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::InvalidAgentResponse,
            "{}",
            String::from_utf8_lossy(body)
        );
        assert!(
            err.message().contains(why),
            "{}: {}",
            String::from_utf8_lossy(body),
            err.message()
        );
    }
}

#[test]
fn decode_response_as_reads_any_type() {
    let v: Value = decode_response_as(
        br#"{"jsonrpc":"2.0","id":1,"result":[1,2]}"#,
        &Id::number(1),
    )
    .unwrap();
    assert_eq!(v, json!([1, 2]));
}
