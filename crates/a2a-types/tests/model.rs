//! Constructors, conversions and helpers of the data model.

use a2a_types::*;
use serde_json::json;

#[test]
fn message_and_part_constructors() {
    let m = Message::user_text("m1", "hello").for_task("t1", "c1");
    assert_eq!(
        serde_json::to_value(&m).unwrap(),
        json!({"messageId": "m1", "contextId": "c1", "taskId": "t1", "role": "ROLE_USER",
               "parts": [{"text": "hello"}]})
    );
    assert_eq!(Message::agent_text("m2", "hi").role, Role::Agent);
    let parts = vec![
        Part::from("a"),
        Part::url("https://x/f.pdf")
            .with_filename("f.pdf")
            .with_media_type("application/pdf"),
        Part::from(json!({"k": 1})),
        Part::raw(*b"\x00\x01")
            .with_metadata(serde_json::Map::from_iter([("s".into(), json!(true))])),
        Part::from(String::from("b")),
        Part::from(PartContent::Text("c".into())),
    ];
    let m = Message::new(Role::User, "m3", parts);
    assert_eq!(m.text_content().as_deref(), Some("abc"));
    assert_eq!(
        Message::new(Role::User, "m4", vec![Part::raw(vec![1])]).text_content(),
        None
    );
    assert_eq!(m.parts[0].text_content(), Some("a"));
    assert_eq!(m.parts[1].text_content(), None);
    assert_eq!(m.parts[1].content.field_name(), "url");
    assert_eq!(
        serde_json::to_value(&m.parts[3]).unwrap(),
        json!({"raw": "AAE=", "metadata": {"s": true}})
    );
}

#[test]
fn task_artifact_and_event_constructors() {
    let t = Task::new("t", "c", TaskState::Submitted);
    assert_eq!(t.status, TaskStatus::from(TaskState::Submitted));
    let a = Artifact::text("a", "x").with_name("report");
    assert_eq!(a.text_content().as_deref(), Some("x"));
    let ev = TaskArtifactUpdateEvent::new("t", "c", a.clone())
        .with_append(true)
        .with_last_chunk(true);
    assert_eq!(
        serde_json::to_value(&ev).unwrap(),
        json!({"taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "name": "report",
               "parts": [{"text": "x"}]}, "append": true, "lastChunk": true})
    );
    let st = TaskStatusUpdateEvent::new("t", "c", TaskState::Completed);
    let r = StreamResponse::from(st);
    assert_eq!(r.task_id(), Some("t"));
    assert!(r.is_final());
    assert!(!StreamResponse::from(ev).is_final());
    assert!(StreamResponse::from(Message::agent_text("m", "x")).is_final());
    assert_eq!(
        StreamResponse::from(Message::agent_text("m", "x")).task_id(),
        None
    );
    assert!(!StreamResponse::from(t.clone()).is_final());
    assert!(matches!(
        SendMessageResponse::from(t),
        SendMessageResponse::Task(_)
    ));
    assert!(matches!(
        SendMessageResponse::from(Message::agent_text("m", "x")),
        SendMessageResponse::Message(_)
    ));
}

#[test]
fn request_and_card_constructors() {
    assert_eq!(GetTaskRequest::new("t").id, "t");
    assert_eq!(CancelTaskRequest::new("t").id, "t");
    assert_eq!(
        SendMessageRequest::from(Message::user_text("m", "x"))
            .message
            .message_id,
        "m"
    );
    let push = TaskPushNotificationConfig {
        authentication: Some(AuthenticationInfo::new("Bearer", "secret")),
        ..TaskPushNotificationConfig::new("https://hook")
    };
    assert_eq!(push.validate(), Ok(()));
    let i = AgentInterface::new("https://a", "JSONRPC", "1.0");
    assert_eq!(i.validate(), Ok(()));
    let scopes: StringList = ["openid", "email"].into_iter().collect();
    assert_eq!(scopes.list, ["openid", "email"]);
    let scheme: SecurityScheme = OpenIdConnectSecurityScheme {
        open_id_connect_url: "https://o".into(),
        ..Default::default()
    }
    .into();
    assert!(matches!(scheme, SecurityScheme::OpenIdConnect(_)));
    let flows: OAuthFlows = DeviceCodeOAuthFlow::default().into();
    assert!(matches!(flows, OAuthFlows::DeviceCode(_)));
    for s in [
        SecurityScheme::from(APIKeySecurityScheme::default()),
        HTTPAuthSecurityScheme::default().into(),
        OAuth2SecurityScheme::default().into(),
        MutualTlsSecurityScheme::default().into(),
    ] {
        let back: SecurityScheme = from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
    }
    for f in [
        OAuthFlows::from(AuthorizationCodeOAuthFlow::default()),
        ClientCredentialsOAuthFlow::default().into(),
        ImplicitOAuthFlow::default().into(),
        PasswordOAuthFlow::default().into(),
    ] {
        let back: OAuthFlows = from_str(&serde_json::to_string(&f).unwrap()).unwrap();
        assert_eq!(back, f);
    }
}

#[test]
fn enums_display_parse_and_convert_as_on_the_wire() {
    for &s in TaskState::ALL {
        assert_eq!(s.to_string(), s.as_str_name());
        assert_eq!(s.to_string().parse::<TaskState>(), Ok(s));
        assert_eq!(TaskState::try_from(i32::from(s)), Ok(s));
        assert_eq!(serde_json::to_value(s).unwrap(), json!(s.as_str_name()));
    }
    for &r in Role::ALL {
        assert_eq!(r.to_string(), r.as_str_name());
        assert_eq!(Role::from_number(r.number()), Some(r));
    }
    let err = "ROLE_ROBOT".parse::<Role>().unwrap_err();
    assert_eq!(err.to_string(), "unknown Role value \"ROLE_ROBOT\"");
    assert_eq!(TaskState::default(), TaskState::Unspecified);
    assert_eq!(Role::default(), Role::Unspecified);
}

#[test]
fn decode_error_display_and_accessors() {
    let err = from_str::<Task>(r#"{"status":{"state":"TASK_STATE_NOPE"}}"#).unwrap_err();
    assert_eq!(err.path(), "status.state");
    assert_eq!(err.kind(), DecodeErrorKind::Data);
    assert_eq!(err.line(), 1);
    assert!(err.column() > 0);
    assert!(
        err.to_string().starts_with(
            "status.state: unknown TaskState value \"TASK_STATE_NOPE\"; expected one of"
        ),
        "{err}"
    );
    assert!(format!("{err:?}").contains("path: \"status.state\""));
    let e: Box<dyn std::error::Error> = Box::new(err);
    assert!(e.to_string().ends_with("at line 1 column 36"), "{e}");
}
