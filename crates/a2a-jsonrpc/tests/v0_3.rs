//! The 0.3 method table (`MethodTable::V0_3`): 0.3 names, params in 0.3
//! form, `tasks/list` unknown.

use a2a_jsonrpc::{
    decode_request, encode_request_with, generate_request, DecodeConfig, Id, MethodTable,
};
use a2a_types::testing::Gen;
use a2a_types::{A2aRequest, ErrorKind, Operation, Part};
use serde_json::Value;

fn config() -> DecodeConfig {
    let mut config = DecodeConfig::default();
    config.methods = MethodTable::V0_3;
    config
}

#[test]
fn generated_requests_round_trip_in_0_3_form() {
    let mut g = Gen::new(11);
    let mut checked = 0;
    for round in 0..30 {
        for op in Operation::ALL {
            if op == Operation::ListTasks {
                continue;
            }
            let request = generate_request(op, &mut g);
            if !request.validate().is_empty() {
                continue;
            }
            let id = Id::string(format!("r{round}"));
            let body = encode_request_with(&id, &request, &MethodTable::V0_3);
            let Ok(back) = decode_request(&body, &config()) else {
                // Only what 0.3 cannot spell fails: a message without a
                // role never validates, so nothing here.
                panic!("{op}: {}", String::from_utf8_lossy(&body));
            };
            let wire: Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(
                wire["method"].as_str(),
                MethodTable::V0_3.name_of(op),
                "{op}"
            );
            assert_eq!(back.operation(), op);
            // What survives one crossing survives the next unchanged.
            assert_eq!(
                encode_request_with(&id, &back.request, &MethodTable::V0_3),
                body,
                "{op}"
            );
            checked += 1;
        }
    }
    assert!(checked > 150, "{checked}");
}

#[test]
fn a_0_3_message_send_decodes_into_the_model() {
    let body = br#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"hi"}]},"configuration":{"blocking":false}}}"#;
    let r = decode_request(body, &config()).unwrap();
    let A2aRequest::SendMessage(send) = r.request else {
        panic!("{:?}", r.request)
    };
    assert_eq!(send.message.parts, vec![Part::text("hi")]);
    assert!(send.configuration.unwrap().return_immediately);
}

#[test]
fn a_1_0_shape_under_a_0_3_method_names_the_field() {
    let body = br#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}"#;
    let e = decode_request(body, &config()).unwrap_err();
    assert_eq!(e.error.kind(), ErrorKind::InvalidParams);
    let text = format!("{:?}", e.error);
    assert!(text.contains("params.message"), "{text}");
}

#[test]
fn list_tasks_and_1_0_names_are_not_0_3_methods() {
    for method in ["tasks/list", "SendMessage", "ListTasks"] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":7,"method":"{method}","params":{{}}}}"#);
        let e = decode_request(body.as_bytes(), &config()).unwrap_err();
        assert_eq!(e.error.kind(), ErrorKind::MethodNotFound, "{method}");
        assert_eq!(e.id, Id::number(7));
    }
}

#[test]
fn replies_decode_in_0_3_form() {
    use a2a_jsonrpc::decode_reply_v0_3;
    use a2a_types::{Reply, TaskState};
    let id = Id::number(3);
    let task = br#"{"jsonrpc":"2.0","id":3,"result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"auth-required"}}}"#;
    let Ok(Reply::GetTask(t)) = decode_reply_v0_3(Operation::GetTask, task, &id) else {
        panic!()
    };
    assert_eq!(t.status.state, TaskState::AuthRequired);
    // The 1.0 form is not a 0.3 result, nor is another id.
    let v1 = br#"{"jsonrpc":"2.0","id":3,"result":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}"#;
    let err = decode_reply_v0_3(Operation::GetTask, v1, &id).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidAgentResponse);
    assert!(decode_reply_v0_3(Operation::GetTask, task, &Id::number(4)).is_err());
    // delete's `null` result, written or (as the Python 0.3 SDK does) left out.
    let op = Operation::DeleteTaskPushNotificationConfig;
    for body in [
        &br#"{"jsonrpc":"2.0","id":3,"result":null}"#[..],
        br#"{"id":3,"jsonrpc":"2.0"}"#,
    ] {
        assert!(matches!(
            decode_reply_v0_3(op, body, &id),
            Ok(Reply::DeleteTaskPushNotificationConfig(_))
        ));
    }
    // Only for delete, and only with the right id.
    assert!(decode_reply_v0_3(op, br#"{"id":4,"jsonrpc":"2.0"}"#, &id).is_err());
    assert!(decode_reply_v0_3(Operation::GetTask, br#"{"id":3,"jsonrpc":"2.0"}"#, &id).is_err());
    // Errors are errors.
    let e = br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32001,"message":"Task not found"}}"#;
    assert_eq!(
        decode_reply_v0_3(Operation::GetTask, e, &id)
            .unwrap_err()
            .kind(),
        ErrorKind::TaskNotFound
    );
}
