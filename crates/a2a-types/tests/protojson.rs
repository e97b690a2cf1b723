//! ProtoJSON input and output rules, decode errors and limits.

use a2a_types::*;
use serde_json::{json, Value};

fn enc<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap()
}

fn msg(json: Value) -> Message {
    from_str(&json.to_string()).unwrap()
}

// ---------------------------------------------------------------------------
// Output.

#[test]
fn output_writes_required_always_and_omits_defaults() {
    // Everything default: only REQUIRED fields appear.
    assert_eq!(
        enc(&Message::default()),
        json!({"messageId": "", "role": "ROLE_UNSPECIFIED", "parts": []})
    );
    assert_eq!(
        enc(&Task::default()),
        json!({"id": "", "status": {"state": "TASK_STATE_UNSPECIFIED"}})
    );
    assert_eq!(
        enc(&ListTasksResponse::default()),
        json!({"tasks": [], "nextPageToken": "", "pageSize": 0, "totalSize": 0})
    );
    assert_eq!(
        enc(&AgentCard::default()),
        json!({"name": "", "description": "", "supportedInterfaces": [], "version": "",
               "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []})
    );
    assert_eq!(enc(&ListTasksRequest::default()), json!({}));
    assert_eq!(enc(&SendMessageConfiguration::default()), json!({}));
    assert_eq!(
        enc(&AuthorizationCodeOAuthFlow::default()),
        json!({"authorizationUrl": "", "tokenUrl": "", "scopes": {}})
    );
    assert_eq!(enc(&ImplicitOAuthFlow::default()), json!({}));
}

#[test]
fn output_writes_optional_fields_exactly_when_set() {
    let caps = AgentCapabilities {
        streaming: Some(false),
        push_notifications: None,
        extended_agent_card: Some(true),
        ..Default::default()
    };
    assert_eq!(
        enc(&caps),
        json!({"streaming": false, "extendedAgentCard": true})
    );
    let req = GetTaskRequest {
        history_length: Some(0),
        ..GetTaskRequest::new("t")
    };
    assert_eq!(enc(&req), json!({"id": "t", "historyLength": 0}));
    let card = AgentCard {
        documentation_url: Some(String::new()),
        ..Default::default()
    };
    assert_eq!(enc(&card)["documentationUrl"], json!(""));
    // Non-optional scalars: omitted at their default, written otherwise.
    let cfg = SendMessageConfiguration {
        return_immediately: true,
        ..Default::default()
    };
    assert_eq!(enc(&cfg), json!({"returnImmediately": true}));
    let list = ListTaskPushNotificationConfigsRequest {
        task_id: "t".into(),
        page_size: 5,
        ..Default::default()
    };
    assert_eq!(enc(&list), json!({"taskId": "t", "pageSize": 5}));
}

#[test]
fn output_forms_of_enums_bytes_timestamps_struct_and_value() {
    let mut status = TaskStatus::new(TaskState::InputRequired)
        .with_timestamp(Timestamp::new(1_710_497_100, 123_999_999).unwrap());
    status.message = Some(Message::new(
        Role::Agent,
        "m",
        vec![
            Part::raw(vec![0xfb, 0xff]),
            Part::data(json!({"n": -0.0, "big": u64::MAX, "list": [null, true]})),
        ],
    ));
    assert_eq!(
        enc(&status),
        json!({
            "state": "TASK_STATE_INPUT_REQUIRED",
            "message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [
                {"raw": "+/8="},
                {"data": {"n": -0.0, "big": 18446744073709551615u64, "list": [null, true]}}
            ]},
            "timestamp": "2024-03-15T10:05:00.123Z"
        })
    );
    let text = serde_json::to_string(&status).unwrap();
    assert!(text.contains("\"n\":-0.0"), "{text}");
    assert!(text.contains("\"raw\":\"+/8=\""), "{text}");
}

#[test]
fn oneofs_write_one_member_under_its_json_name() {
    let s = SecurityScheme::from(OAuth2SecurityScheme {
        flows: Some(
            ClientCredentialsOAuthFlow {
                token_url: "https://t".into(),
                ..Default::default()
            }
            .into(),
        ),
        ..Default::default()
    });
    assert_eq!(
        enc(&s),
        json!({"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "https://t", "scopes": {}}}}})
    );
    assert_eq!(
        enc(&SecurityScheme::MutualTls(Default::default())),
        json!({"mtlsSecurityScheme": {}})
    );
    let ev = StreamResponse::from(TaskStatusUpdateEvent::new("t", "c", TaskState::Working));
    assert_eq!(
        enc(&ev),
        json!({"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}})
    );
}

// ---------------------------------------------------------------------------
// Input.

#[test]
fn input_accepts_proto_field_names() {
    let m = msg(
        json!({"message_id": "m", "context_id": "c", "task_id": "t", "role": "ROLE_USER",
                        "parts": [{"text": "x", "media_type": "text/plain"}],
                        "reference_task_ids": ["r"]}),
    );
    assert_eq!(
        (
            m.message_id.as_str(),
            m.context_id.as_str(),
            m.task_id.as_str()
        ),
        ("m", "c", "t")
    );
    assert_eq!(m.parts[0].media_type, "text/plain");
    assert_eq!(m.reference_task_ids, ["r"]);
    let ev: StreamResponse =
        from_str(r#"{"status_update":{"task_id":"t","context_id":"c","status":{"state":2}}}"#)
            .unwrap();
    assert_eq!(
        ev,
        TaskStatusUpdateEvent::new("t", "c", TaskState::Working).into()
    );
    let s: SecurityScheme =
        from_str(r#"{"open_id_connect_security_scheme":{"open_id_connect_url":"u"}}"#).unwrap();
    assert!(matches!(s, SecurityScheme::OpenIdConnect(o) if o.open_id_connect_url == "u"));
    // Both spellings of one field is a duplicate.
    assert!(from_str::<Message>(r#"{"messageId":"a","message_id":"b"}"#).is_err());
}

#[test]
fn input_accepts_enum_names_numbers_and_numeric_strings() {
    for role in [json!("ROLE_AGENT"), json!(2), json!("2"), json!(2.0)] {
        let m = msg(json!({"messageId": "m", "role": role, "parts": [{"text": "x"}]}));
        assert_eq!(m.role, Role::Agent);
    }
    let err = from_str::<Message>(r#"{"role":"ROLE_ROBOT"}"#).unwrap_err();
    assert_eq!(err.path(), "role");
    assert!(
        err.message().contains("unknown Role value \"ROLE_ROBOT\""),
        "{err}"
    );
    assert!(err.message().contains("ROLE_USER, ROLE_AGENT"), "{err}");
    assert!(from_str::<Message>(r#"{"role":7}"#).is_err());
    assert!(from_str::<Message>(r#"{"role":"user"}"#).is_err());
    assert!(from_str::<Message>(r#"{"role":1.5}"#).is_err());
    let err = from_str::<ListTasksRequest>(r#"{"status":"TASK_STATE_RUNNING"}"#).unwrap_err();
    assert!(err.message().contains("TASK_STATE_AUTH_REQUIRED"), "{err}");
}

#[test]
fn input_accepts_int32_as_number_or_string() {
    for v in [json!(7), json!("7"), json!(7.0), json!("7e0"), json!("007")] {
        let r: GetTaskRequest =
            from_str(&json!({"id": "t", "historyLength": v}).to_string()).unwrap();
        assert_eq!(r.history_length, Some(7), "{v}");
    }
    let r: ListTasksResponse =
        from_str(r#"{"pageSize":"-2147483648","totalSize":2147483647}"#).unwrap();
    assert_eq!((r.page_size, r.total_size), (i32::MIN, i32::MAX));
    for bad in [
        json!(2147483648u64),
        json!("1.5"),
        json!(1.5),
        json!(" 1"),
        json!(true),
        json!("x"),
        json!([1]),
    ] {
        let err =
            from_str::<GetTaskRequest>(&json!({"historyLength": bad}).to_string()).unwrap_err();
        assert_eq!(err.path(), "historyLength", "{bad}: {err}");
    }
}

#[test]
fn input_accepts_both_base64_alphabets_padded_or_not() {
    for raw in ["+/8=", "+/8", "-_8=", "-_8"] {
        let p: Part = from_str(&json!({ "raw": raw }).to_string()).unwrap();
        assert_eq!(p.content, PartContent::Raw(vec![0xfb, 0xff]), "{raw}");
    }
    let err = from_str::<Part>(r#"{"raw":"not base64!"}"#).unwrap_err();
    assert_eq!(err.path(), "raw");
    assert!(err.message().contains("invalid base64"), "{err}");
}

#[test]
fn input_normalizes_timestamp_offsets_to_utc() {
    let s: TaskStatus =
        from_str(r#"{"state":"TASK_STATE_WORKING","timestamp":"2024-03-15T05:05:00.5-05:00"}"#)
            .unwrap();
    assert_eq!(enc(&s)["timestamp"], "2024-03-15T10:05:00.500Z");
    let err = from_str::<Task>(r#"{"status":{"timestamp":"2024-03-15T10:05:00"}}"#).unwrap_err();
    assert_eq!(err.path(), "status.timestamp");
    assert!(
        err.message().contains("expected 'Z' or a '+HH:MM'"),
        "{err}"
    );
    let err = from_str::<ListTasksRequest>(r#"{"statusTimestampAfter":"10000-01-01T00:00:00Z"}"#)
        .unwrap_err();
    assert_eq!(err.path(), "statusTimestampAfter");
}

#[test]
fn keys_may_use_json_escapes_and_unknown_keys_are_not_inspected() {
    let m: Message =
        from_str(r#"{"message\u0049d":"m","r\u006fle":1,"p\u0061rts":[{"te\u0078t":"x"}]}"#)
            .unwrap();
    assert_eq!(m, Message::user_text("m", "x"));
    let m: Message = from_slice(b"{\"messageId\":\"m\",\"\xff\xfe\":1}").unwrap();
    assert_eq!(m.message_id, "m");
    // Error paths still name the keys.
    let err = from_str::<Message>(r#"{"p\u0061rts":[{"media_type":5,"text":"x"}]}"#).unwrap_err();
    assert_eq!(err.path(), "parts[0].media_type");
}

#[test]
fn input_ignores_unknown_fields_everywhere() {
    let t: Task = from_str(
        r#"{"id":"t","kind":"task","status":{"state":"TASK_STATE_COMPLETED","extra":[1,{"a":2}]},
            "artifacts":[{"artifactId":"a","parts":[{"text":"x","kind":"text","future":{}}]}],
            "future":{"deep":[[[]]]}}"#,
    )
    .unwrap();
    assert_eq!(t.status.state, TaskState::Completed);
    assert_eq!(t.artifacts[0].parts[0], Part::text("x"));
    let r: StreamResponse =
        from_str(r#"{"kind":"x","message":{"messageId":"m","parts":[{"url":"u"}]}}"#).unwrap();
    assert!(matches!(r, StreamResponse::Message(_)));
}

#[test]
fn input_reads_null_as_absent_for_every_field_kind() {
    let t: Task = from_str(
        r#"{"id":null,"contextId":null,"status":null,"artifacts":null,"history":null,"metadata":null}"#,
    )
    .unwrap();
    assert_eq!(t, Task::default());
    let r: ListTasksRequest = from_str(
        r#"{"tenant":null,"status":null,"pageSize":null,"historyLength":null,
            "statusTimestampAfter":null,"includeArtifacts":null}"#,
    )
    .unwrap();
    assert_eq!(r, ListTasksRequest::default());
    let e: TaskArtifactUpdateEvent =
        from_str(r#"{"append":null,"lastChunk":null,"artifact":null}"#).unwrap();
    assert_eq!(e, TaskArtifactUpdateEvent::default());
    let f: AuthorizationCodeOAuthFlow = from_str(r#"{"scopes":null,"pkceRequired":null}"#).unwrap();
    assert_eq!(f, AuthorizationCodeOAuthFlow::default());
    let c: AgentCapabilities = from_str(r#"{"streaming":null,"extensions":null}"#).unwrap();
    assert_eq!(c, AgentCapabilities::default());
    // A null oneof member is absent: the other member decides.
    let p: Part =
        from_str(r#"{"text":null,"url":"u","filename":null,"mediaType":null,"metadata":null}"#)
            .unwrap();
    assert_eq!(p, Part::url("u"));
    let s: StreamResponse = from_str(r#"{"task":null,"message":{"messageId":"m"}}"#).unwrap();
    assert!(matches!(s, StreamResponse::Message(_)));
    let o: OAuth2SecurityScheme = from_str(r#"{"flows":null}"#).unwrap();
    assert_eq!(o.flows, None);
    // `Part.data` is a google.protobuf.Value: null is a value there, as
    // in protobuf's own parsers.
    let p: Part = from_str(r#"{"data":null}"#).unwrap();
    assert_eq!(p, Part::data(Value::Null));
}

// ---------------------------------------------------------------------------
// Errors say where.

#[test]
fn part_with_zero_or_several_members_is_an_error_at_its_path() {
    let err = from_str::<SendMessageRequest>(
        r#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a"},{"text":"b"},{"metadata":{}}]}}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "message.parts[2]");
    assert_eq!(err.kind(), DecodeErrorKind::Data);
    assert!(
        err.message()
            .contains("exactly one of `text`, `raw`, `url` or `data`; found none"),
        "{err}"
    );
    assert_eq!((err.line(), err.column()), (1, 97));
    assert!(
        err.to_string()
            .starts_with("message.parts[2]: a Part must have exactly one"),
        "{err}"
    );

    let err = from_str::<Message>(r#"{"parts":[{"text":"a","data":{"x":1}}]}"#).unwrap_err();
    assert_eq!(err.path(), "parts[0]");
    assert!(
        err.message().contains("found both `text` and `data`"),
        "{err}"
    );

    let err = from_str::<Message>(r#"{"parts":[{"text":"a","text":"b"}]}"#).unwrap_err();
    assert!(err.message().contains("duplicate field `text`"), "{err}");
}

#[test]
fn other_oneofs_with_zero_or_several_members_are_errors_at_their_path() {
    let err =
        from_str::<AgentCard>(r#"{"securitySchemes":{"a":{"mtlsSecurityScheme":{}},"b":{}}}"#)
            .unwrap_err();
    assert_eq!(err.path(), "securitySchemes.b");
    assert!(
        err.message()
            .contains("a SecurityScheme must have exactly one"),
        "{err}"
    );
    let err = from_str::<SecurityScheme>(
        r#"{"oauth2SecurityScheme":{"flows":{"implicit":{},"password":{}}}}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "oauth2SecurityScheme.flows");
    assert!(
        err.message()
            .contains("found both `implicit` and `password`"),
        "{err}"
    );
    let err = from_str::<StreamResponse>(r#"{"task":{"id":"t"},"message":{"messageId":"m"}}"#)
        .unwrap_err();
    assert_eq!(err.path(), "");
    assert!(
        err.message().contains("found both `task` and `message`"),
        "{err}"
    );
    let err = from_str::<SendMessageResponse>("{}").unwrap_err();
    assert!(err.message().contains("found none"), "{err}");
}

#[test]
fn type_errors_name_the_path_with_keys_as_written() {
    let err = from_str::<ListTasksResponse>(
        r#"{"tasks":[{"id":"a"},{"id":"b","history":[{"message_id":"m","parts":[{"text":5}]}]}]}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "tasks[1].history[0].parts[0].text");
    assert_eq!(err.kind(), DecodeErrorKind::Data);
    assert!(
        err.message()
            .starts_with("invalid type: integer `5`, expected a string"),
        "{err}"
    );
}

#[test]
fn syntax_and_eof_errors_have_positions() {
    let err = from_str::<Task>("{\"id\": \"t\",\n \"status\": {").unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::Eof);
    assert_eq!(err.line(), 2);
    let err = from_str::<Task>(r#"{"id":"t"} trailing"#).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::Syntax);
    assert_eq!(err.path(), "");
    assert_eq!((err.line(), err.column()), (1, 12));
    let err = from_str::<Task>(r#"{"id":"t",}"#).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::Syntax);
    assert!(from_str::<Task>("").is_err());
    // A message is a JSON object, never an array of its fields.
    let err = from_str::<Task>(r#"["t"]"#).unwrap_err();
    assert!(err.message().contains("invalid type: sequence"), "{err}");
    assert!(from_str::<ListTasksResponse>(r#"{"tasks":[[]]}"#).is_err());
    assert!(from_str::<Part>("[]").is_err());
    assert!(from_slice::<Task>(b"{\"id\":\"\xff\"}").is_err());
}

// ---------------------------------------------------------------------------
// Limits.

#[test]
fn input_larger_than_the_limit_is_rejected_before_parsing() {
    assert_eq!(DecodeLimits::default().max_input_bytes, 16 * 1024 * 1024);
    let doc = r#"{"id":"t","status":{"state":"TASK_STATE_WORKING"}}"#;
    let limits = DecodeLimits::new().with_max_input_bytes(doc.len());
    assert!(from_str_with_limits::<Task>(doc, &limits).is_ok());
    let limits = DecodeLimits::new().with_max_input_bytes(doc.len() - 1);
    let err = from_str_with_limits::<Task>(doc, &limits).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::TooLarge);
    assert_eq!(
        err.to_string(),
        format!(
            "input of {} bytes exceeds the limit of {} bytes",
            doc.len(),
            doc.len() - 1
        )
    );
    // The default limit applies to from_slice / from_str.
    let big = format!(r#"{{"id":"{}"}}"#, "x".repeat(DEFAULT_MAX_INPUT_BYTES));
    assert_eq!(
        from_str::<Task>(&big).unwrap_err().kind(),
        DecodeErrorKind::TooLarge
    );
}

#[test]
fn nesting_deeper_than_the_recursion_limit_is_an_error_not_a_crash() {
    let nest = |depth: usize| format!(r#"{{"data":{}1{}}}"#, "[".repeat(depth), "]".repeat(depth));
    // The Part object is one level; with `data` the document may nest
    // RECURSION_LIMIT - 1 levels, and not one more.
    assert!(from_str::<Part>(&nest(RECURSION_LIMIT - 2)).is_ok());
    let err = from_str::<Part>(&nest(RECURSION_LIMIT - 1)).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::Syntax);
    assert!(err.message().contains("recursion limit exceeded"), "{err}");
    // Far deeper input, and deep metadata objects, fail the same way.
    assert!(from_str::<Part>(&nest(100_000)).is_err());
    let deep_meta = format!(
        r#"{{"metadata":{}1{}}}"#,
        r#"{"a":"#.repeat(5_000),
        "}".repeat(5_000)
    );
    assert!(from_str::<Task>(&deep_meta).is_err());
}
