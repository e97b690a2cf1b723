//! REQUIRED-field validation: every missing field, with its JSON path.

use a2a_types::*;
use serde_json::json;

fn violations<T: serde::de::DeserializeOwned + Validate>(
    json: serde_json::Value,
) -> Vec<(String, String)> {
    let value: T = from_str(&json.to_string()).unwrap();
    value
        .validate()
        .err()
        .unwrap_or_default()
        .into_iter()
        .map(|v| (v.field, v.description))
        .collect()
}

fn fields<T: serde::de::DeserializeOwned + Validate>(json: serde_json::Value) -> Vec<String> {
    violations::<T>(json).into_iter().map(|(f, _)| f).collect()
}

#[test]
fn the_spec_example_message_parts() {
    // Spec 9.5 / 10.6: {"field": "message.parts", "description": "At least one part is required"}.
    let v = violations::<SendMessageRequest>(
        json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": []}}),
    );
    assert_eq!(
        v,
        [(
            "message.parts".to_owned(),
            "At least one part is required".to_owned()
        )]
    );
    let as_json = serde_json::to_value(FieldViolation {
        field: "message.parts".into(),
        description: "At least one part is required".into(),
    })
    .unwrap();
    assert_eq!(
        as_json,
        json!({"field": "message.parts", "description": "At least one part is required"})
    );
}

#[test]
fn every_missing_field_is_reported_not_just_the_first() {
    assert_eq!(
        fields::<SendMessageRequest>(json!({"message": {"contextId": "c", "parts": []}})),
        ["message.messageId", "message.role", "message.parts"]
    );
    assert_eq!(
        fields::<TaskArtifactUpdateEvent>(json!({"artifact": {"name": "n"}})),
        [
            "taskId",
            "contextId",
            "artifact.artifactId",
            "artifact.parts"
        ]
    );
    assert_eq!(
        fields::<AgentCard>(json!({
            "name": "n", "description": "d", "version": "1",
            "supportedInterfaces": [{"url": "u"}],
            "provider": {},
            "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "s", "name": "n", "description": "d", "tags": []}],
            "signatures": [{"protected": "p"}]
        })),
        [
            "supportedInterfaces[0].protocolBinding",
            "supportedInterfaces[0].protocolVersion",
            "provider.url",
            "provider.organization",
            "skills[0].tags",
            "signatures[0].signature"
        ]
    );
}

#[test]
fn nested_paths_through_lists_maps_and_oneofs() {
    assert_eq!(
        fields::<ListTasksResponse>(json!({
            "tasks": [
                {"id": "a", "status": {"state": "TASK_STATE_WORKING"}},
                {"id": "b", "status": {"state": "TASK_STATE_WORKING"},
                 "history": [{"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x"}]},
                             {"role": "ROLE_AGENT", "parts": [{"text": "y"}]}],
                 "artifacts": [{"artifactId": "a1", "parts": []}]}
            ],
            "nextPageToken": "", "pageSize": 0, "totalSize": 0
        })),
        [
            "tasks[1].artifacts[0].parts",
            "tasks[1].history[1].messageId"
        ]
    );
    assert_eq!(
        fields::<AgentCard>(json!({
            "name": "n", "description": "d", "version": "1",
            "supportedInterfaces": [{"url": "u", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "defaultInputModes": ["a"], "defaultOutputModes": ["a"],
            "skills": [{"id": "s", "name": "n", "description": "d", "tags": ["t"]}],
            "securitySchemes": {
                "key": {"apiKeySecurityScheme": {"location": "header"}},
                "o\"auth": {"oauth2SecurityScheme": {"flows": {"authorizationCode": {"tokenUrl": "t"}}}},
                "bare": {"oauth2SecurityScheme": {}},
                "dc": {"oauth2SecurityScheme": {"flows": {"deviceCode": {}}}},
                "http": {"httpAuthSecurityScheme": {}},
                "oidc": {"openIdConnectSecurityScheme": {}},
                "mtls": {"mtlsSecurityScheme": {}},
                "cc": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {}}}},
                "imp": {"oauth2SecurityScheme": {"flows": {"implicit": {}}}}
            }
        })),
        [
            r#"securitySchemes["bare"].oauth2SecurityScheme.flows"#,
            r#"securitySchemes["cc"].oauth2SecurityScheme.flows.clientCredentials.tokenUrl"#,
            r#"securitySchemes["dc"].oauth2SecurityScheme.flows.deviceCode.deviceAuthorizationUrl"#,
            r#"securitySchemes["dc"].oauth2SecurityScheme.flows.deviceCode.tokenUrl"#,
            r#"securitySchemes["http"].httpAuthSecurityScheme.scheme"#,
            r#"securitySchemes["key"].apiKeySecurityScheme.name"#,
            r#"securitySchemes["o\"auth"].oauth2SecurityScheme.flows.authorizationCode.authorizationUrl"#,
            r#"securitySchemes["oidc"].openIdConnectSecurityScheme.openIdConnectUrl"#,
        ]
    );
    assert_eq!(
        fields::<StreamResponse>(json!({"statusUpdate": {"taskId": "t", "status": {"state": 0}}})),
        ["statusUpdate.contextId", "statusUpdate.status"]
    );
    assert_eq!(
        fields::<SendMessageResponse>(
            json!({"message": {"messageId": "m", "parts": [{"text": "x"}]}})
        ),
        ["message.role"]
    );
    assert_eq!(
        fields::<SendMessageRequest>(json!({
            "message": {"messageId": "m", "role": 1, "parts": [{"text": "x"}]},
            "configuration": {"taskPushNotificationConfig": {"authentication": {}}}
        })),
        [
            "configuration.taskPushNotificationConfig.url",
            "configuration.taskPushNotificationConfig.authentication.scheme"
        ]
    );
}

#[test]
fn an_absent_required_message_is_reported_once() {
    assert_eq!(
        violations::<SendMessageRequest>(json!({})),
        [("message".to_owned(), "Required field is missing".to_owned())]
    );
    assert_eq!(
        violations::<SendMessageRequest>(json!({"message": null})).len(),
        1
    );
    assert_eq!(fields::<Task>(json!({"id": "t"})), ["status"]);
    assert_eq!(fields::<Task>(json!({"id": "t", "status": {}})), ["status"]);
    // Present but incomplete: its own fields are reported.
    assert_eq!(
        fields::<Task>(json!({"id": "t", "status": {"timestamp": "2024-01-01T00:00:00Z"}})),
        ["status.state"]
    );
    // A REQUIRED message with no REQUIRED fields of its own cannot be missing.
    let card = violations::<AgentCard>(json!({
        "name": "n", "description": "d", "version": "1",
        "supportedInterfaces": [{"url": "u", "protocolBinding": "GRPC", "protocolVersion": "1.0"}],
        "defaultInputModes": ["a"], "defaultOutputModes": ["a"],
        "skills": [{"id": "s", "name": "n", "description": "d", "tags": ["t"]}]
    }));
    assert!(card.is_empty(), "{card:?}");
}

/// `required_message` compares a message with its default only when the
/// message has violations: sound because each default has some.
#[test]
fn defaults_of_required_messages_held_by_value_are_invalid() {
    assert!(Message::default().validate().is_err());
    assert!(TaskStatus::default().validate().is_err());
    assert!(Artifact::default().validate().is_err());
}

#[test]
fn empty_strings_and_lists_are_missing_with_the_list_task_exceptions() {
    assert_eq!(fields::<GetTaskRequest>(json!({"id": ""})), ["id"]);
    assert_eq!(
        fields::<GetTaskPushNotificationConfigRequest>(json!({})),
        ["taskId", "id"]
    );
    assert_eq!(
        fields::<DeleteTaskPushNotificationConfigRequest>(json!({"taskId": "t"})),
        ["id"]
    );
    assert_eq!(fields::<CancelTaskRequest>(json!({})), ["id"]);
    assert_eq!(fields::<SubscribeToTaskRequest>(json!({})), ["id"]);
    assert_eq!(
        fields::<ListTaskPushNotificationConfigsRequest>(json!({})),
        ["taskId"]
    );
    assert_eq!(fields::<TaskPushNotificationConfig>(json!({})), ["url"]);
    assert_eq!(
        fields::<AuthenticationInfo>(json!({"scheme": ""})),
        ["scheme"]
    );
    // Spec 3.1.4: an empty last page is valid.
    assert!(fields::<ListTasksResponse>(
        json!({"tasks": [], "nextPageToken": "", "pageSize": 0, "totalSize": 0})
    )
    .is_empty());
    // No REQUIRED fields at all.
    assert!(fields::<ListTasksRequest>(json!({})).is_empty());
    assert!(fields::<GetExtendedAgentCardRequest>(json!({})).is_empty());
    assert!(fields::<ListTaskPushNotificationConfigsResponse>(json!({})).is_empty());
    assert!(fields::<SendMessageConfiguration>(json!({})).is_empty());
    // Scopes maps may be empty.
    assert!(fields::<ClientCredentialsOAuthFlow>(json!({"tokenUrl": "t"})).is_empty());
}

#[test]
fn enum_zero_values_are_missing_with_a_description() {
    let v = violations::<Message>(
        json!({"messageId": "m", "role": "ROLE_UNSPECIFIED", "parts": [{"text": "x"}]}),
    );
    assert_eq!(
        v,
        [(
            "role".to_owned(),
            "Required field is missing (ROLE_UNSPECIFIED is not a role)".to_owned()
        )]
    );
    let v = violations::<TaskStatus>(json!({"state": 0}));
    assert_eq!(v[0].0, "state");
}

#[test]
fn valid_values_built_with_the_constructors_validate() {
    let req = SendMessageRequest::new(Message::user_text("m", "hi"));
    assert_eq!(req.validate(), Ok(()));
    let task = Task {
        artifacts: vec![Artifact::text("a", "out")],
        history: vec![Message::agent_text("m2", "ok").for_task("t", "c")],
        ..Task::new("t", "c", TaskState::Completed)
    };
    assert_eq!(task.validate(), Ok(()));
    let response = SendMessageResponse::from(task.clone());
    assert_eq!(response.validate(), Ok(()));
    // A path prefix composes.
    let mut out = Vec::new();
    let root = FieldPath::root();
    let params = root.field("params");
    SendMessageRequest::default().validate_at(&params, &mut out);
    assert_eq!(out[0].field, "params.message");
    let mut out = Vec::new();
    let list = root.field("items");
    let first = list.index(0);
    Message::default().validate_at(&first, &mut out);
    assert_eq!(out[0].field, "items[0].messageId");
}
