//! The 0.3 codecs (`a2a_types::v0_3`): generated model values encoded as
//! 0.3 satisfy the 0.3 JSON Schema (Python `jsonschema`, an independent
//! referee), decode back stably, and the rows of `MAPPING` hold.

use a2a_schema_v03::{assert_valid, Case};
use a2a_types::testing::{Gen, Generate};
use a2a_types::v0_3::{self, Codec, V03};
use a2a_types::*;
use serde_json::{json, Value};

const PER_TYPE: u64 = 60;

/// Encodes `value` as 0.3; `None` for what 0.3 cannot spell (a message
/// without a role, which validation rejects anyway).
fn encode<T: Codec>(value: &T) -> Option<Vec<u8>> {
    v0_3::to_vec(value).ok()
}

/// Generated values of `T`, their 0.3 JSON checked against `definition`
/// (wrapped in a JSON-RPC success response when `rpc`), and their decoding
/// stable: decode(encode(x)) encodes to the same bytes.
fn cases<T: Codec + Generate>(name: &str, definition: &str, rpc: bool) -> Vec<Case> {
    let mut out = Vec::new();
    let mut refused = 0;
    for seed in 0..PER_TYPE {
        let value = T::generate(&mut Gen::new(seed));
        let Some(bytes) = encode(&value) else {
            refused += 1;
            continue;
        };
        let back: T = v0_3::from_slice(&bytes).unwrap_or_else(|e| {
            panic!(
                "{name} {seed}: our 0.3 output does not decode: {e}\n{}",
                String::from_utf8_lossy(&bytes)
            )
        });
        assert_eq!(
            encode(&back).as_deref(),
            Some(&bytes[..]),
            "{name} {seed}: 0.3 encoding is not stable"
        );
        let case = if rpc {
            let result: Value = serde_json::from_slice(&bytes).unwrap();
            let doc = json!({"jsonrpc": "2.0", "id": seed, "result": result});
            Case::new(
                format!("{name} {seed}"),
                definition,
                doc.to_string().as_bytes(),
            )
        } else {
            Case::new(format!("{name} {seed}"), definition, &bytes)
        };
        out.push(case);
    }
    assert!(
        refused * 2 < PER_TYPE,
        "{name}: {refused} of {PER_TYPE} refused"
    );
    out
}

#[test]
fn generated_values_encoded_as_0_3_satisfy_the_0_3_schema() {
    let mut all = Vec::new();
    all.extend(cases::<Message>("Message", "Message", false));
    all.extend(cases::<Task>("Task", "Task", false));
    all.extend(cases::<TaskStatusUpdateEvent>(
        "StatusUpdate",
        "TaskStatusUpdateEvent",
        false,
    ));
    all.extend(cases::<TaskArtifactUpdateEvent>(
        "ArtifactUpdate",
        "TaskArtifactUpdateEvent",
        false,
    ));
    all.extend(cases::<TaskPushNotificationConfig>(
        "PushConfig",
        "TaskPushNotificationConfig",
        false,
    ));
    all.extend(cases::<AgentCard>("AgentCard", "AgentCard", false));
    all.extend(cases::<SendMessageRequest>(
        "SendParams",
        "MessageSendParams",
        false,
    ));
    all.extend(cases::<GetTaskRequest>("GetTask", "TaskQueryParams", false));
    all.extend(cases::<CancelTaskRequest>(
        "CancelTask",
        "TaskIdParams",
        false,
    ));
    all.extend(cases::<SubscribeToTaskRequest>(
        "Resubscribe",
        "TaskIdParams",
        false,
    ));
    all.extend(cases::<GetTaskPushNotificationConfigRequest>(
        "GetPushConfig",
        "GetTaskPushNotificationConfigParams",
        false,
    ));
    all.extend(cases::<DeleteTaskPushNotificationConfigRequest>(
        "DeletePushConfig",
        "DeleteTaskPushNotificationConfigParams",
        false,
    ));
    all.extend(cases::<ListTaskPushNotificationConfigsRequest>(
        "ListPushConfigs",
        "ListTaskPushNotificationConfigParams",
        false,
    ));
    all.extend(cases::<SendMessageResponse>(
        "SendResult",
        "SendMessageSuccessResponse",
        true,
    ));
    all.extend(cases::<StreamResponse>(
        "StreamResult",
        "SendStreamingMessageSuccessResponse",
        true,
    ));
    all.extend(cases::<ListTaskPushNotificationConfigsResponse>(
        "ListPushResult",
        "ListTaskPushNotificationConfigSuccessResponse",
        true,
    ));
    all.extend(cases::<Empty>(
        "DeleteResult",
        "DeleteTaskPushNotificationConfigSuccessResponse",
        true,
    ));
    assert!(all.len() > 800, "{} cases", all.len());
    assert_valid(&all);
}

/// The schema referee is not a rubber stamp: 1.0 shapes fail it.
#[test]
fn the_schema_check_rejects_1_0_shapes() {
    let task = Task::new("t1", "c1", TaskState::Working);
    let v1 = a2a_types::to_vec(&task).unwrap();
    let verdict = a2a_schema_v03::check(&[Case::new("1.0 task", "Task", &v1)]);
    assert!(!verdict.success, "a 1.0 task passed as 0.3");
    let mut doc: Value = serde_json::from_slice(&v0_3::to_vec(&task).unwrap()).unwrap();
    doc.as_object_mut().unwrap().remove("kind");
    let verdict =
        a2a_schema_v03::check(&[Case::new("no kind", "Task", doc.to_string().as_bytes())]);
    assert!(!verdict.success, "a task without kind passed");
}

fn v03<T: Codec>(value: &T) -> Value {
    serde_json::from_slice(&v0_3::to_vec(value).unwrap()).unwrap()
}

#[test]
fn parts_carry_kind_and_the_file_object() {
    let parts = vec![
        Part::text("hi"),
        Part::raw(vec![1, 2, 3])
            .with_filename("a.bin")
            .with_media_type("application/octet-stream"),
        Part::url("https://x/y.png").with_media_type("image/png"),
        Part::data(json!({"k": 1})),
    ];
    let m = Message::new(Role::Agent, "m", parts.clone());
    assert_eq!(
        v03(&m),
        json!({"kind": "message", "messageId": "m", "role": "agent", "parts": [
            {"kind": "text", "text": "hi"},
            {"kind": "file", "file": {"bytes": "AQID", "name": "a.bin", "mimeType": "application/octet-stream"}},
            {"kind": "file", "file": {"uri": "https://x/y.png", "mimeType": "image/png"}},
            {"kind": "data", "data": {"k": 1}},
        ]})
    );
    let back: Message = v0_3::from_slice(&v0_3::to_vec(&m).unwrap()).unwrap();
    assert_eq!(back.parts, parts);
}

#[test]
fn lossy_rows_behave_as_the_table_says() {
    // Part.data that is not an object is wrapped.
    assert_eq!(
        v03(&Part::data(json!([1, 2])))["data"],
        json!({"value": [1, 2]})
    );
    // A text part's media type has no 0.3 place.
    assert_eq!(
        v03(&Part::text("a").with_media_type("text/plain")),
        json!({"kind": "text", "text": "a"})
    );
    // final: true on terminal and interrupted states, false otherwise.
    for (state, fin) in [
        (TaskState::Working, false),
        (TaskState::Completed, true),
        (TaskState::InputRequired, true),
        (TaskState::AuthRequired, true),
    ] {
        let e = TaskStatusUpdateEvent::new("t", "c", TaskStatus::new(state));
        let wire = v03(&e);
        assert_eq!(wire["final"], fin, "{state:?}");
        assert_eq!(wire["kind"], "status-update");
        assert_eq!(wire["status"]["state"], v0_3::state_name(state));
    }
    // blocking is the negation of returnImmediately; absent blocks.
    let r: SendMessageRequest = v0_3::from_slice(
        br#"{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"a"}]},"configuration":{}}"#,
    )
    .unwrap();
    assert!(!r.configuration.unwrap().return_immediately);
    let r: SendMessageRequest = v0_3::from_slice(
        br#"{"message":{"kind":"message","messageId":"m","role":"user","parts":[]},"configuration":{"blocking":false}}"#,
    )
    .unwrap();
    assert!(r.configuration.unwrap().return_immediately);
    // Push config get without a config id means the task's default one.
    let g: GetTaskPushNotificationConfigRequest = v0_3::from_slice(br#"{"id":"t1"}"#).unwrap();
    assert_eq!((g.task_id.as_str(), g.id.as_str()), ("t1", "t1"));
    // Authentication schemes: one out, the first in.
    let c: TaskPushNotificationConfig = v0_3::from_slice(
        br#"{"taskId":"t","pushNotificationConfig":{"url":"https://h/","authentication":{"schemes":["Bearer","Basic"]}}}"#,
    )
    .unwrap();
    assert_eq!(c.authentication.as_ref().unwrap().scheme, "Bearer");
    assert_eq!(
        v03(&c)["pushNotificationConfig"]["authentication"]["schemes"],
        json!(["Bearer"])
    );
}

#[test]
fn every_state_has_one_0_3_spelling_and_1_0_spellings_are_refused() {
    for state in [
        TaskState::Unspecified,
        TaskState::Submitted,
        TaskState::Working,
        TaskState::Completed,
        TaskState::Failed,
        TaskState::Canceled,
        TaskState::InputRequired,
        TaskState::Rejected,
        TaskState::AuthRequired,
    ] {
        assert_eq!(v0_3::state_from_str(v0_3::state_name(state)), Some(state));
        assert_eq!(v0_3::state_from_str(state.as_str_name()), None);
    }
    let err = v0_3::from_slice::<Task>(
        br#"{"kind":"task","id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "status.state", "{err}");
    let err = v0_3::from_slice::<Message>(
        br#"{"kind":"message","messageId":"m","role":"ROLE_USER","parts":[]}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains("unknown 0.3 role"), "{err}");
}

#[test]
fn kind_is_required_and_checked() {
    let no_kind = br#"{"messageId":"m","role":"user","parts":[{"kind":"text","text":"a"}]}"#;
    let err = v0_3::from_slice::<Message>(no_kind).unwrap_err();
    assert!(err.to_string().contains("`kind` is missing"), "{err}");
    let part_without_kind =
        br#"{"kind":"message","messageId":"m","role":"user","parts":[{"text":"a"}]}"#;
    let err = v0_3::from_slice::<Message>(part_without_kind).unwrap_err();
    assert!(err.path().starts_with("parts"), "{err}");
    let wrong = br#"{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working"},"final":false}"#;
    assert!(v0_3::from_slice::<SendMessageResponse>(wrong).is_err());
    assert!(matches!(
        v0_3::from_slice::<StreamResponse>(wrong).unwrap(),
        StreamResponse::StatusUpdate(_)
    ));
}

#[test]
fn a_0_3_card_reads_as_interfaces_at_0_3() {
    let card = br#"{"name":"a","description":"d","url":"https://a/rpc","preferredTransport":"JSONRPC",
        "additionalInterfaces":[{"url":"https://a/rpc","transport":"JSONRPC"},{"url":"https://a/rest","transport":"HTTP+JSON"}],
        "protocolVersion":"0.3.0","version":"1","capabilities":{"streaming":true,"stateTransitionHistory":true},
        "securitySchemes":{"k":{"type":"apiKey","in":"header","name":"X-Key"}},"security":[{"k":[]}],
        "defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
        "skills":[{"id":"s","name":"s","description":"d","tags":["t"]}],"supportsAuthenticatedExtendedCard":true}"#;
    let card = v0_3::card_from_v0_3(card).unwrap();
    let got: Vec<(&str, &str, &str)> = card
        .supported_interfaces
        .iter()
        .map(|i| {
            (
                i.url.as_str(),
                i.protocol_binding.as_str(),
                i.protocol_version.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("https://a/rpc", "JSONRPC", "0.3"),
            ("https://a/rest", "HTTP+JSON", "0.3")
        ]
    );
    assert_eq!(card.capabilities.extended_agent_card, Some(true));
    assert!(matches!(
        card.security_schemes["k"],
        SecurityScheme::ApiKey(ref k) if k.location == "header" && k.name == "X-Key"
    ));
    assert!(card.validate().is_ok(), "{:?}", card.validate());
    // And back: the 0.3 interfaces, protocolVersion 0.3.0.
    let out = v03(&card);
    assert_eq!(out["url"], "https://a/rpc");
    assert_eq!(out["preferredTransport"], "JSONRPC");
    assert_eq!(out["protocolVersion"], "0.3.0");
    assert_eq!(
        out["securitySchemes"]["k"],
        json!({"type": "apiKey", "in": "header", "name": "X-Key"})
    );
}

#[test]
fn inside_another_document_v03_nests() {
    let task = Task::new("t", "c", TaskState::Completed);
    let envelope = json!({"result": V03(&task)});
    assert_eq!(envelope["result"]["kind"], "task");
    assert_eq!(envelope["result"]["status"]["state"], "completed");
}

#[test]
fn decoding_keeps_the_model_limits() {
    let limits = DecodeLimits::new().with_max_input_bytes(16);
    let err = v0_3::from_slice_with_limits::<Task>(
        br#"{"kind":"task","id":"t","contextId":"c"}"#,
        &limits,
    )
    .unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::TooLarge);
    let deep = format!(
        r#"{{"kind":"data","data":{}{}}}"#,
        "{\"a\":".repeat(200),
        "1".to_owned() + &"}".repeat(200)
    );
    assert!(v0_3::from_slice::<Part>(deep.as_bytes()).is_err());
}

/// The README's "Versions" section shows the same table as the module
/// docs: `MAPPING`, rendered.
#[test]
fn the_readme_shows_the_mapping_table() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let rows: Vec<String> = readme
        .lines()
        .skip_while(|l| !l.contains("mapping table: rendered from MAPPING"))
        .skip(3)
        .take_while(|l| !l.contains("end of mapping table"))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        rows,
        v0_3::mapping_rows(),
        "re-render the table in README.md"
    );
}
