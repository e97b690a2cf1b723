//! The 0.3 HTTP+JSON bodies (0.3 spec 3.2.3, 3.5.6): the ProtoJSON of
//! the 0.3 proto (`a2a.v1` as the 0.3 SDKs ship it), not the `kind`-tagged
//! JSON-RPC shapes. Both 0.3 SDK REST clients (`a2a-sdk` 0.3.26,
//! `@a2a-js/sdk` 0.3.14) send and read exactly this form, so one form
//! serves both.
//!
//! The 0.3 proto differs from the 1.0 one by a few renames and reshapes
//! (rows of [`MAPPING`](crate::v0_3::MAPPING) marked "HTTP+JSON"): a
//! message's `content` (1.0 `parts`), parts as `text` / `file`
//! (`fileWithBytes` or `fileWithUri`, `mimeType`, `name`) / `data`
//! (`{"data": Struct}`), `TASK_STATE_CANCELLED`, `final` on status
//! updates, push configurations nested as `{name, pushNotificationConfig}`
//! with `authentication.schemes`, and on the card 0.3's `url`,
//! `preferredTransport`, `additionalInterfaces`, `protocolVersion`,
//! `security` and `supportsAuthenticatedExtendedCard`. The codec maps the
//! JSON tree between the two forms and leaves decoding and encoding to the
//! 1.0 ProtoJSON codec, so the model's [`DecodeLimits`] and error paths
//! apply. Output writes only fields the 0.3 proto has: the Python client
//! parses strictly and refuses any other.

use serde_json::{Map, Value};

use crate::decode::{DecodeError, DecodeLimits};
use crate::{A2aError, A2aRequest, Operation, Reply, StreamResponse};

/// Reads the 0.3 HTTP+JSON body of a request to `op` into the model
/// (REQUIRED fields are the caller's to check). Input over
/// `limits.max_input_bytes` is refused before parsing; nesting is bounded
/// by [`RECURSION_LIMIT`](crate::RECURSION_LIMIT).
///
/// Bodies in the JSON-RPC `params` shapes (0.3 spec 7, what a2a-core's
/// own 0.3 client sends) are read too, told apart by their shape: a
/// `SendMessage` body whose `message` has `kind` or `parts` (the proto
/// form has neither: `content`) is decoded by the JSON-RPC codec, `kind`
/// REQUIRED as there. `CreateTaskPushNotificationConfig` takes all three
/// forms: the Python client's `CreateTaskPushNotificationConfigRequest`
/// (`{parent, configId, config}`, told by `config`), the JavaScript
/// client's `TaskPushNotificationConfig` (`{name,
/// pushNotificationConfig}`) and the JSON-RPC one (`{taskId,
/// pushNotificationConfig}`). `CancelTask`'s `name` is not read: the
/// path names the task; the other bodies (`{id}`) read alike in both.
///
/// ```
/// use a2a_types::{v0_3, A2aRequest, DecodeLimits, Operation, Part};
///
/// let body = br#"{"message":{"messageId":"m1","role":"ROLE_USER",
///     "content":[{"text":"hi"}]},"configuration":{"blocking":true}}"#;
/// let request = v0_3::request_from_rest(Operation::SendMessage, body, &DecodeLimits::new())?;
/// let A2aRequest::SendMessage(send) = request else { unreachable!() };
/// assert_eq!(send.message.parts, vec![Part::text("hi")]);
/// # Ok::<(), a2a_types::DecodeError>(())
/// ```
pub fn request_from_rest(
    op: Operation,
    body: &[u8],
    limits: &DecodeLimits,
) -> Result<A2aRequest, DecodeError> {
    let mut tree: Value = crate::decode::from_slice_with_limits(body, limits)?;
    match op {
        Operation::SendMessage | Operation::SendStreamingMessage if is_jsonrpc_send(&tree) => {
            let params = crate::decode::from_slice_with_limits::<
                Option<super::V03<crate::SendMessageRequest>>,
            >(body, limits)?
            .map(|p| p.0)
            .unwrap_or_default();
            return Ok(if op == Operation::SendMessage {
                A2aRequest::SendMessage(params)
            } else {
                A2aRequest::SendStreamingMessage(params)
            });
        }
        Operation::SendMessage | Operation::SendStreamingMessage => send_request_in(&mut tree),
        Operation::CreateTaskPushNotificationConfig => {
            tree = push_request_in(tree);
        }
        _ => {}
    }
    let json = serde_json::to_vec(&tree).map_err(|e| DecodeError::from_json(&e, String::new()))?;
    // The input was within the limit; the rewritten tree differs in
    // length only by renamed members.
    A2aRequest::from_json(op, &json, &limits.with_max_input_bytes(usize::MAX))
}

/// The 0.3 HTTP+JSON body of a unary `reply`. A streaming reply has none
/// (each event is written by [`event_to_rest`]); neither has `ListTasks`,
/// which 0.3 lacks.
pub fn reply_to_rest(reply: &Reply) -> Result<Vec<u8>, crate::json::Error> {
    use serde::ser::Error as _;
    let tree = match reply {
        Reply::SendMessage(r) => stream_out(serde_json::to_value(r)?),
        Reply::GetTask(t) | Reply::CancelTask(t) => task_out(serde_json::to_value(t)?),
        Reply::CreateTaskPushNotificationConfig(c) | Reply::GetTaskPushNotificationConfig(c) => {
            push_out(serde_json::to_value(c)?)
        }
        Reply::ListTaskPushNotificationConfigs(list) => {
            let configs: Vec<Value> = list
                .configs
                .iter()
                .map(|c| serde_json::to_value(c).map(push_out))
                .collect::<Result<_, _>>()?;
            let mut out = Map::new();
            out.insert("configs".to_owned(), Value::Array(configs));
            Value::Object(out)
        }
        Reply::DeleteTaskPushNotificationConfig(_) => Value::Object(Map::new()),
        Reply::GetExtendedAgentCard(card) => card_out(card)?,
        Reply::ListTasks(_) => {
            return Err(crate::json::Error::custom("0.3 has no ListTasks"));
        }
        Reply::SendStreamingMessage(_) | Reply::SubscribeToTask(_) => {
            return Err(crate::json::Error::custom(
                "a stream has no single 0.3 body",
            ));
        }
    };
    crate::json::to_vec(&tree)
}

/// The 0.3 HTTP+JSON form of a stream event: a 0.3 `StreamResponse`
/// (`task`, `message`, `statusUpdate` with `final`, `artifactUpdate`).
pub fn event_to_rest(event: &StreamResponse) -> Result<Vec<u8>, crate::json::Error> {
    crate::json::to_vec(&stream_out(serde_json::to_value(event)?))
}

/// The 0.3 HTTP+JSON error body: the JSON-RPC error object
/// (`{"code", "message", "data"}`, 0.3 spec 8), which the JavaScript
/// client maps to its typed errors by `code`; the Python client reads the
/// HTTP status.
pub fn error_to_rest(err: &A2aError) -> Vec<u8> {
    crate::json::to_vec(&err.to_jsonrpc_error()).unwrap_or_else(|_| {
        br#"{"code":-32603,"message":"the error could not be serialized"}"#.to_vec()
    })
}

// ---- 0.3 → 1.0 (input) ----

/// Whether a send body is in the JSON-RPC shape: its message is
/// `kind`-tagged or has `parts` (the proto's is `content`).
fn is_jsonrpc_send(tree: &Value) -> bool {
    tree.get("message")
        .and_then(Value::as_object)
        .is_some_and(|m| m.contains_key("kind") || m.contains_key("parts"))
}

fn rename(map: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(v) = map.remove(from) {
        map.insert(to.to_owned(), v);
    }
}

/// The proto's original field names (`config_id`) as their JSON names
/// (`configId`): a ProtoJSON parser accepts both (the proto3 JSON
/// mapping), and the 0.3 TCK writes the original ones. Only the fields
/// this module reads by name are listed; the 1.0 decoders accept the
/// others' original names themselves.
fn original_names(map: &mut Map<String, Value>, names: &[(&str, &str)]) {
    for (original, json) in names {
        if !map.contains_key(*json) {
            rename(map, original, json);
        }
    }
}

fn send_request_in(tree: &mut Value) {
    let Value::Object(map) = tree else { return };
    // proto field `request`, JSON name `message`: ProtoJSON readers accept both.
    rename(map, "request", "message");
    if let Some(message) = map.get_mut("message") {
        message_in(message);
    }
    if let Some(Value::Object(config)) = map.get_mut("configuration") {
        original_names(config, &[("push_notification", "pushNotification")]);
        // proto3 `bool blocking`: absent is false (ProtoJSON omits it).
        let blocking = config.remove("blocking");
        let immediately = match blocking {
            Some(Value::Bool(b)) => Value::Bool(!b),
            None | Some(Value::Null) => Value::Bool(true),
            Some(other) => other,
        };
        config.insert("returnImmediately".to_owned(), immediately);
        if let Some(push) = config.remove("pushNotification") {
            config.insert(
                "taskPushNotificationConfig".to_owned(),
                push_config_in(push, None),
            );
        }
    }
}

fn message_in(message: &mut Value) {
    let Value::Object(map) = message else { return };
    rename(map, "content", "parts");
    if let Some(Value::Array(parts)) = map.get_mut("parts") {
        parts.iter_mut().for_each(part_in);
    }
}

fn part_in(part: &mut Value) {
    let Value::Object(map) = part else { return };
    if let Some(Value::Object(mut file)) = map.remove("file") {
        original_names(
            &mut file,
            &[
                ("file_with_bytes", "fileWithBytes"),
                ("file_with_uri", "fileWithUri"),
                ("mime_type", "mimeType"),
            ],
        );
        rename(&mut file, "fileWithBytes", "raw");
        rename(&mut file, "fileWithUri", "url");
        rename(&mut file, "mimeType", "mediaType");
        rename(&mut file, "name", "filename");
        map.extend(file);
    } else if let Some(Value::Object(mut data)) = map.remove("data") {
        map.insert(
            "data".to_owned(),
            data.remove("data").unwrap_or(Value::Object(Map::new())),
        );
    }
}

/// A 0.3 `PushNotificationConfig` as the flat 1.0 configuration, of
/// `task_id` when known.
fn push_config_in(config: Value, task_id: Option<String>) -> Value {
    let Value::Object(mut map) = config else {
        return config;
    };
    if let Some(Value::Object(auth)) = map.get_mut("authentication") {
        if let Some(Value::Array(schemes)) = auth.remove("schemes") {
            if let Some(first) = schemes.into_iter().next() {
                auth.insert("scheme".to_owned(), first);
            }
        }
    }
    // An empty `authentication: {}` is the proto3 default message, which
    // means no authentication: 0.3 has no required sub-message.
    if map
        .get("authentication")
        .is_some_and(|a| a.as_object().is_some_and(is_default_auth))
    {
        map.remove("authentication");
    }
    if let Some(task_id) = task_id {
        map.insert("taskId".to_owned(), Value::String(task_id));
    }
    Value::Object(map)
}

/// Whether a 0.3 `AuthenticationInfo` (after `schemes` became `scheme`)
/// holds nothing but proto3 defaults.
fn is_default_auth(auth: &Map<String, Value>) -> bool {
    auth.values().all(|v| match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    })
}

/// `tasks/{task}` or `tasks/{task}/pushNotificationConfigs/{id}`: the
/// task id (and config id).
fn resource_ids(name: &str) -> (Option<String>, Option<String>) {
    let mut segs = name.split('/');
    match (segs.next(), segs.next(), segs.next(), segs.next()) {
        (Some("tasks"), Some(task), None, _) => (Some(task.to_owned()), None),
        (Some("tasks"), Some(task), Some("pushNotificationConfigs"), Some(id)) => {
            (Some(task.to_owned()), Some(id.to_owned()))
        }
        _ => (None, None),
    }
}

fn push_request_in(tree: Value) -> Value {
    let Value::Object(mut map) = tree else {
        return tree;
    };
    original_names(
        &mut map,
        &[
            ("config_id", "configId"),
            ("push_notification_config", "pushNotificationConfig"),
        ],
    );
    // Python's CreateTaskPushNotificationConfigRequest wraps the config.
    let (outer_task, config_id) = match map.remove("config") {
        Some(config) => {
            let task = map
                .get("parent")
                .and_then(Value::as_str)
                .and_then(|p| resource_ids(p).0);
            let id = map
                .get("configId")
                .and_then(Value::as_str)
                .map(str::to_owned);
            map = match config {
                Value::Object(inner) => inner,
                other => return other,
            };
            original_names(
                &mut map,
                &[("push_notification_config", "pushNotificationConfig")],
            );
            (task, id.filter(|id| !id.is_empty()))
        }
        None => (None, None),
    };
    let (named_task, named_id) = map
        .get("name")
        .and_then(Value::as_str)
        .map(resource_ids)
        .unwrap_or_default();
    // The JSON-RPC form names the task by `taskId`.
    let task = named_task.or_else(|| map.get("taskId").and_then(Value::as_str).map(str::to_owned));
    let Some(config) = map.remove("pushNotificationConfig") else {
        return Value::Object(map);
    };
    let mut flat = push_config_in(config, outer_task.or(task));
    if let Value::Object(flat) = &mut flat {
        let has_id = flat
            .get("id")
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty());
        if let (false, Some(id)) = (has_id, config_id.or(named_id)) {
            flat.insert("id".to_owned(), Value::String(id));
        }
    }
    flat
}

// ---- 1.0 → 0.3 (output) ----

/// Keeps the members of `map` named in `keep`.
fn only(map: &mut Map<String, Value>, keep: &[&str]) {
    map.retain(|k, _| keep.contains(&k.as_str()));
}

fn message_out(mut message: Value) -> Value {
    if let Value::Object(map) = &mut message {
        rename(map, "parts", "content");
        only(
            map,
            &[
                "messageId",
                "contextId",
                "taskId",
                "role",
                "content",
                "metadata",
                "extensions",
            ],
        );
        if let Some(Value::Array(parts)) = map.get_mut("content") {
            parts.iter_mut().for_each(part_out);
        }
    }
    message
}

fn part_out(part: &mut Value) {
    let Value::Object(map) = part else { return };
    let metadata = map.remove("metadata");
    let mut out = Map::new();
    if let Some(text) = map.remove("text") {
        out.insert("text".to_owned(), text);
    } else if let Some(data) = map.remove("data") {
        // 0.3's DataPart.data is a Struct: other JSON values are wrapped,
        // as in the JSON-RPC form.
        let data = match data {
            Value::Object(_) => data,
            other => {
                let mut wrapped = Map::new();
                wrapped.insert("value".to_owned(), other);
                Value::Object(wrapped)
            }
        };
        let mut inner = Map::new();
        inner.insert("data".to_owned(), data);
        out.insert("data".to_owned(), Value::Object(inner));
    } else {
        let mut file = Map::new();
        if let Some(raw) = map.remove("raw") {
            file.insert("fileWithBytes".to_owned(), raw);
        } else if let Some(url) = map.remove("url") {
            file.insert("fileWithUri".to_owned(), url);
        }
        if let Some(media) = map.remove("mediaType") {
            file.insert("mimeType".to_owned(), media);
        }
        if let Some(name) = map.remove("filename") {
            file.insert("name".to_owned(), name);
        }
        out.insert("file".to_owned(), Value::Object(file));
    }
    if let Some(metadata) = metadata {
        out.insert("metadata".to_owned(), metadata);
    }
    *map = out;
}

fn status_out(status: &mut Value) {
    let Value::Object(map) = status else { return };
    only(map, &["state", "message", "timestamp"]);
    if map.get("state").and_then(Value::as_str) == Some("TASK_STATE_CANCELED") {
        map.insert("state".to_owned(), Value::from("TASK_STATE_CANCELLED"));
    }
    if let Some(message) = map.remove("message") {
        map.insert("message".to_owned(), message_out(message));
    }
}

fn artifact_out(artifact: &mut Value) {
    let Value::Object(map) = artifact else { return };
    only(
        map,
        &[
            "artifactId",
            "name",
            "description",
            "parts",
            "metadata",
            "extensions",
        ],
    );
    if let Some(Value::Array(parts)) = map.get_mut("parts") {
        parts.iter_mut().for_each(part_out);
    }
}

fn task_out(mut task: Value) -> Value {
    if let Value::Object(map) = &mut task {
        only(
            map,
            &[
                "id",
                "contextId",
                "status",
                "artifacts",
                "history",
                "metadata",
            ],
        );
        if let Some(status) = map.get_mut("status") {
            status_out(status);
        }
        if let Some(Value::Array(list)) = map.get_mut("artifacts") {
            list.iter_mut().for_each(artifact_out);
        }
        if let Some(Value::Array(list)) = map.get_mut("history") {
            for m in list.iter_mut() {
                *m = message_out(std::mem::take(m));
            }
        }
    }
    task
}

/// A 1.0 `SendMessageResponse` or `StreamResponse` (one member named by
/// its payload) in the 0.3 form.
fn stream_out(tree: Value) -> Value {
    let Value::Object(map) = tree else {
        return tree;
    };
    let mut out = Map::new();
    for (key, value) in map {
        let value = match key.as_str() {
            "task" => task_out(value),
            "message" => message_out(value),
            "statusUpdate" => status_update_out(value),
            "artifactUpdate" => {
                let mut value = value;
                if let Value::Object(m) = &mut value {
                    only(
                        m,
                        &[
                            "taskId",
                            "contextId",
                            "artifact",
                            "append",
                            "lastChunk",
                            "metadata",
                        ],
                    );
                    if let Some(a) = m.get_mut("artifact") {
                        artifact_out(a);
                    }
                }
                value
            }
            _ => continue,
        };
        out.insert(key, value);
    }
    Value::Object(out)
}

fn status_update_out(mut value: Value) -> Value {
    if let Value::Object(m) = &mut value {
        only(m, &["taskId", "contextId", "status", "metadata"]);
        let is_final = m
            .get("status")
            .and_then(|s| s.get("state"))
            .and_then(Value::as_str)
            .and_then(|s| s.parse::<crate::TaskState>().ok())
            .is_some_and(super::task::is_final);
        if let Some(status) = m.get_mut("status") {
            status_out(status);
        }
        // The same `final` as the JSON-RPC form (ProtoJSON omits false).
        if is_final {
            m.insert("final".to_owned(), Value::Bool(true));
        }
    }
    value
}

/// A flat 1.0 push configuration as 0.3's `TaskPushNotificationConfig`.
fn push_out(tree: Value) -> Value {
    let Value::Object(mut map) = tree else {
        return tree;
    };
    let task = map
        .get("taskId")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let id = map
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    only(&mut map, &["id", "url", "token", "authentication"]);
    if let Some(Value::Object(auth)) = map.get_mut("authentication") {
        if let Some(scheme) = auth.remove("scheme") {
            auth.insert("schemes".to_owned(), Value::Array(vec![scheme]));
        }
        only(auth, &["schemes", "credentials"]);
    }
    let mut out = Map::new();
    out.insert(
        "name".to_owned(),
        Value::String(format!("tasks/{task}/pushNotificationConfigs/{id}")),
    );
    out.insert("pushNotificationConfig".to_owned(), Value::Object(map));
    Value::Object(out)
}

/// The card in the 0.3 proto's form: the 1.0 ProtoJSON members the 0.3
/// proto shares, and the 0.3 interface members as the JSON-RPC form
/// writes them.
fn card_out(card: &crate::AgentCard) -> Result<Value, crate::json::Error> {
    let Value::Object(mut map) = serde_json::to_value(card)? else {
        return Ok(Value::Null);
    };
    let v03 = serde_json::to_value(crate::v0_3::V03(card))?;
    rename(&mut map, "securityRequirements", "security");
    only(
        &mut map,
        &[
            "name",
            "description",
            "provider",
            "version",
            "documentationUrl",
            "capabilities",
            "securitySchemes",
            "security",
            "defaultInputModes",
            "defaultOutputModes",
            "skills",
            "signatures",
            "iconUrl",
        ],
    );
    if let Some(Value::Object(caps)) = map.get_mut("capabilities") {
        only(caps, &["streaming", "pushNotifications", "extensions"]);
    }
    if let Some(Value::Object(schemes)) = map.get_mut("securitySchemes") {
        for scheme in schemes.values_mut() {
            if let Some(Value::Object(flows)) = scheme
                .get_mut("oauth2SecurityScheme")
                .and_then(|s| s.get_mut("flows"))
            {
                only(
                    flows,
                    &[
                        "authorizationCode",
                        "clientCredentials",
                        "implicit",
                        "password",
                    ],
                );
                for flow in flows.values_mut() {
                    if let Value::Object(f) = flow {
                        f.remove("pkceRequired");
                    }
                }
            }
        }
    }
    if let Some(Value::Array(skills)) = map.get_mut("skills") {
        for skill in skills.iter_mut() {
            if let Value::Object(s) = skill {
                rename(s, "securityRequirements", "security");
                only(
                    s,
                    &[
                        "id",
                        "name",
                        "description",
                        "tags",
                        "examples",
                        "inputModes",
                        "outputModes",
                        "security",
                    ],
                );
            }
        }
    }
    if let Value::Object(v03) = v03 {
        for key in [
            "protocolVersion",
            "url",
            "preferredTransport",
            "additionalInterfaces",
            "supportsAuthenticatedExtendedCard",
        ] {
            if let Some(v) = v03.get(key) {
                map.insert(key.to_owned(), v.clone());
            }
        }
    }
    Ok(Value::Object(map))
}

// ---- the client's direction: requests out, answers in ----

/// The 0.3 HTTP+JSON body of a request, as the 0.3 SDK REST clients send
/// it (the 0.3 proto's ProtoJSON; the Python server parses strictly, so
/// only the proto's fields are written): `SendMessageRequest` for the two
/// sends (`blocking` always written, the negation of
/// `returnImmediately`), `CreateTaskPushNotificationConfigRequest`
/// (`{parent, configId, config}`, the Python client's form, which the
/// reference agent reads too) for a push configuration, `None` for an
/// operation whose 0.3 route carries no body. `ListTasks` is refused.
pub fn request_to_rest(request: &A2aRequest) -> Result<Option<Vec<u8>>, crate::json::Error> {
    use serde::ser::Error as _;
    let tree = match request {
        A2aRequest::SendMessage(r) | A2aRequest::SendStreamingMessage(r) => {
            send_request_out(serde_json::to_value(r)?)
        }
        A2aRequest::CreateTaskPushNotificationConfig(c) => {
            let config = push_out(serde_json::to_value(c)?);
            let mut out = Map::new();
            out.insert(
                "parent".to_owned(),
                Value::String(format!("tasks/{}", c.task_id)),
            );
            out.insert("configId".to_owned(), Value::String(c.id.clone()));
            out.insert("config".to_owned(), config);
            Value::Object(out)
        }
        A2aRequest::ListTasks(_) => return Err(crate::json::Error::custom("0.3 has no ListTasks")),
        _ => return Ok(None),
    };
    crate::json::to_vec(&tree).map(Some)
}

/// Reads the 0.3 HTTP+JSON answer to a unary `op` (the 0.3 proto's
/// ProtoJSON, as [`reply_to_rest`] writes it and the 0.3 SDK servers
/// answer) into the model. An empty body reads as `{}`. Bounded as
/// [`request_from_rest`].
pub fn reply_from_rest(
    op: Operation,
    body: &[u8],
    limits: &DecodeLimits,
) -> Result<Reply, DecodeError> {
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        body
    };
    let tree: Value = crate::decode::from_slice_with_limits(body, limits)?;
    let tree = match op {
        Operation::SendMessage => stream_in(tree),
        Operation::GetTask | Operation::CancelTask => task_in(tree),
        Operation::CreateTaskPushNotificationConfig | Operation::GetTaskPushNotificationConfig => {
            push_in(tree)
        }
        Operation::ListTaskPushNotificationConfigs => {
            let mut out = Map::new();
            let configs = match tree {
                // A bare list, or `{configs: [...]}`.
                Value::Array(list) => list,
                Value::Object(mut map) => match map.remove("configs") {
                    Some(Value::Array(list)) => list,
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            };
            out.insert(
                "configs".to_owned(),
                Value::Array(configs.into_iter().map(push_in).collect()),
            );
            Value::Object(out)
        }
        Operation::DeleteTaskPushNotificationConfig => Value::Null,
        Operation::GetExtendedAgentCard => card_in(tree),
        Operation::ListTasks | Operation::SendStreamingMessage | Operation::SubscribeToTask => tree,
    };
    let json = serde_json::to_vec(&tree).map_err(|e| DecodeError::from_json(&e, String::new()))?;
    Reply::from_json(op, &json, &limits.with_max_input_bytes(usize::MAX))
}

/// Reads one 0.3 HTTP+JSON stream event (the 0.3 proto's
/// `StreamResponse`, as [`event_to_rest`] writes it) into the model;
/// `final` is dropped (1.0 ends the stream instead).
pub fn event_from_rest(data: &[u8], limits: &DecodeLimits) -> Result<StreamResponse, DecodeError> {
    let tree: Value = crate::decode::from_slice_with_limits(data, limits)?;
    let json = serde_json::to_vec(&stream_in(tree))
        .map_err(|e| DecodeError::from_json(&e, String::new()))?;
    crate::decode::from_slice_with_limits(&json, &limits.with_max_input_bytes(usize::MAX))
}

fn send_request_out(tree: Value) -> Value {
    let Value::Object(mut map) = tree else {
        return tree;
    };
    only(&mut map, &["message", "configuration", "metadata"]);
    if let Some(message) = map.remove("message") {
        map.insert("message".to_owned(), message_out(message));
    }
    let config = match map.remove("configuration") {
        Some(Value::Object(c)) => c,
        _ => Map::new(),
    };
    let mut out = Map::new();
    if let Some(modes) = config.get("acceptedOutputModes") {
        out.insert("acceptedOutputModes".to_owned(), modes.clone());
    }
    if let Some(push) = config.get("taskPushNotificationConfig") {
        if let Value::Object(mut nested) = push_out(push.clone()) {
            if let Some(inner) = nested.remove("pushNotificationConfig") {
                out.insert("pushNotification".to_owned(), inner);
            }
        }
    }
    if let Some(h) = config.get("historyLength") {
        out.insert("historyLength".to_owned(), h.clone());
    }
    let immediately = config
        .get("returnImmediately")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    out.insert("blocking".to_owned(), Value::Bool(!immediately));
    map.insert("configuration".to_owned(), Value::Object(out));
    Value::Object(map)
}

fn status_in(status: &mut Value) {
    let Value::Object(map) = status else { return };
    if map.get("state").and_then(Value::as_str) == Some("TASK_STATE_CANCELLED") {
        map.insert("state".to_owned(), Value::from("TASK_STATE_CANCELED"));
    }
    if let Some(message) = map.get_mut("message") {
        message_in(message);
    }
}

fn artifact_in(artifact: &mut Value) {
    if let Some(Value::Array(parts)) = artifact.get_mut("parts") {
        parts.iter_mut().for_each(part_in);
    }
}

fn task_in(mut task: Value) -> Value {
    if let Value::Object(map) = &mut task {
        if let Some(status) = map.get_mut("status") {
            status_in(status);
        }
        if let Some(Value::Array(list)) = map.get_mut("artifacts") {
            list.iter_mut().for_each(artifact_in);
        }
        if let Some(Value::Array(list)) = map.get_mut("history") {
            list.iter_mut().for_each(message_in);
        }
    }
    task
}

/// A 0.3 `SendMessageResponse` or `StreamResponse` in the 1.0 form.
fn stream_in(tree: Value) -> Value {
    let Value::Object(map) = tree else {
        return tree;
    };
    let mut out = Map::new();
    for (key, mut value) in map {
        let key = match key.as_str() {
            "task" => {
                value = task_in(value);
                key
            }
            // The proto field is `msg`, its JSON name `message`.
            "message" | "msg" => {
                message_in(&mut value);
                "message".to_owned()
            }
            "statusUpdate" => {
                if let Value::Object(m) = &mut value {
                    m.remove("final");
                    if let Some(status) = m.get_mut("status") {
                        status_in(status);
                    }
                }
                key
            }
            "artifactUpdate" => {
                if let Some(a) = value.get_mut("artifact") {
                    artifact_in(a);
                }
                key
            }
            _ => key,
        };
        out.insert(key, value);
    }
    Value::Object(out)
}

/// 0.3's `{name, pushNotificationConfig}` as the flat 1.0 configuration.
fn push_in(tree: Value) -> Value {
    let Value::Object(mut map) = tree else {
        return tree;
    };
    let (task, id) = map
        .get("name")
        .and_then(Value::as_str)
        .map(resource_ids)
        .unwrap_or_default();
    let Some(config) = map.remove("pushNotificationConfig") else {
        return Value::Object(map);
    };
    let mut flat = push_config_in(config, task);
    if let (Value::Object(flat), Some(id)) = (&mut flat, id) {
        flat.entry("id").or_insert(Value::String(id));
    }
    flat
}

/// The 0.3 proto's card as the 1.0 card: `security` is
/// `securityRequirements`, and the interfaces are read from 0.3's `url`,
/// `preferredTransport` and `additionalInterfaces` at its
/// `protocolVersion`, as the JSON-RPC form's are.
fn card_in(tree: Value) -> Value {
    let Value::Object(mut map) = tree else {
        return tree;
    };
    rename(&mut map, "security", "securityRequirements");
    if let Some(Value::Array(skills)) = map.get_mut("skills") {
        for skill in skills.iter_mut() {
            if let Value::Object(s) = skill {
                rename(s, "security", "securityRequirements");
            }
        }
    }
    if !map.contains_key("supportedInterfaces") {
        let mut interfaces = Map::new();
        for key in [
            "url",
            "preferredTransport",
            "additionalInterfaces",
            "protocolVersion",
        ] {
            if let Some(v) = map.get(key) {
                interfaces.insert(key.to_owned(), v.clone());
            }
        }
        if let Ok(bytes) = serde_json::to_vec(&Value::Object(interfaces)) {
            if let Ok(card) = crate::v0_3::card_from_v0_3(&bytes) {
                if let Ok(Value::Array(list)) = serde_json::to_value(&card.supported_interfaces) {
                    map.insert("supportedInterfaces".to_owned(), Value::Array(list));
                }
            }
        }
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        DecodeErrorKind, Message, Part, Role, SendMessageResponse, Task, TaskArtifactUpdateEvent,
        TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent,
    };
    use serde_json::json;

    fn read(op: Operation, body: Value) -> A2aRequest {
        request_from_rest(op, body.to_string().as_bytes(), &DecodeLimits::new()).unwrap()
    }

    fn tree(bytes: Vec<u8>) -> Value {
        serde_json::from_slice(&bytes).unwrap()
    }

    /// The client's direction undoes the server's: what a client writes
    /// the server reads back, what a server writes the client reads back.
    #[test]
    fn the_client_direction_round_trips_through_the_server_direction() {
        let limits = DecodeLimits::new();
        let mut send = crate::SendMessageRequest::new(Message::user_text("m1", "hi"));
        send.configuration = Some(crate::SendMessageConfiguration {
            accepted_output_modes: vec!["text/plain".into()],
            history_length: Some(3),
            return_immediately: true,
            ..Default::default()
        });
        let mut push = TaskPushNotificationConfig::new("https://hook.example/h");
        push.task_id = "t1".into();
        push.id = "p1".into();
        push.token = "tok".into();
        for request in [
            A2aRequest::SendMessage(send.clone()),
            A2aRequest::SendStreamingMessage(send),
            A2aRequest::CreateTaskPushNotificationConfig(push.clone()),
        ] {
            let body = request_to_rest(&request).unwrap().unwrap();
            let back = request_from_rest(request.operation(), &body, &limits).unwrap();
            assert_eq!(back, request, "{}", String::from_utf8_lossy(&body));
        }
        let cancel = A2aRequest::CancelTask(crate::CancelTaskRequest::new("t1"));
        assert_eq!(request_to_rest(&cancel).unwrap(), None);
        assert!(request_to_rest(&A2aRequest::ListTasks(Default::default())).is_err());

        let mut task = Task::new("t1", "c1", TaskState::Canceled);
        task.history = vec![Message::user_text("m1", "hi")];
        let list = crate::ListTaskPushNotificationConfigsResponse {
            configs: vec![push.clone()],
            ..Default::default()
        };
        for reply in [
            Reply::GetTask(task.clone()),
            Reply::CancelTask(task.clone()),
            Reply::SendMessage(SendMessageResponse::Task(task.clone())),
            Reply::SendMessage(SendMessageResponse::Message(Message::user_text("m2", "x"))),
            Reply::CreateTaskPushNotificationConfig(push.clone()),
            Reply::GetTaskPushNotificationConfig(push),
            Reply::ListTaskPushNotificationConfigs(list),
            Reply::DeleteTaskPushNotificationConfig(crate::Empty),
        ] {
            let op = reply.operation();
            let body = reply_to_rest(&reply).unwrap();
            let back = reply_from_rest(op, &body, &limits).unwrap();
            // `Reply` holds streams, so no `==`: its 1.0 JSON compares.
            let json = |r: &Reply| serde_json::to_string(&format!("{r:?}")).unwrap();
            assert_eq!(
                json(&back),
                json(&reply),
                "{}",
                String::from_utf8_lossy(&body)
            );
        }
        let status = TaskStatusUpdateEvent {
            task_id: "t1".into(),
            context_id: "c1".into(),
            status: TaskStatus::new(TaskState::Completed),
            ..Default::default()
        };
        for event in [
            StreamResponse::Task(task),
            StreamResponse::StatusUpdate(status),
        ] {
            let data = event_to_rest(&event).unwrap();
            assert_eq!(event_from_rest(&data, &limits).unwrap(), event);
        }
        assert!(reply_from_rest(Operation::GetTask, b"[1]", &limits).is_err());
        assert!(event_from_rest(br#"{"task": 5}"#, &limits).is_err());
    }

    #[test]
    fn the_proto_send_body_reads_into_the_model() {
        let body = json!({"message": {"messageId": "m1", "role": "ROLE_USER", "content": [
            {"text": "hi"},
            {"file": {"fileWithBytes": "aGk=", "mimeType": "text/plain", "name": "a.txt"}},
            {"file": {"fileWithUri": "https://x/y"}},
            {"data": {"data": {"a": 1}}}]},
            "configuration": {"acceptedOutputModes": ["text/plain"], "historyLength": 2,
                "pushNotification": {"url": "https://h", "authentication": {"schemes": ["Bearer"]}}}});
        let A2aRequest::SendMessage(r) = read(Operation::SendMessage, body) else {
            panic!("not a send")
        };
        let m = r.message;
        assert_eq!(m.role, Role::User);
        assert_eq!(m.parts[0], Part::text("hi"));
        let file = serde_json::to_value(&m.parts[1]).unwrap();
        assert_eq!(
            file,
            json!({"raw": "aGk=", "mediaType": "text/plain", "filename": "a.txt"})
        );
        assert_eq!(
            serde_json::to_value(&m.parts[2]).unwrap(),
            json!({"url": "https://x/y"})
        );
        assert_eq!(
            serde_json::to_value(&m.parts[3]).unwrap(),
            json!({"data": {"a": 1}})
        );
        let c = serde_json::to_value(r.configuration.unwrap()).unwrap();
        // A configuration without `blocking` is proto3 false: return at once.
        assert_eq!(c["returnImmediately"], true);
        assert_eq!(c["historyLength"], 2);
        assert_eq!(
            c["taskPushNotificationConfig"]["authentication"]["scheme"],
            "Bearer"
        );
    }

    #[test]
    fn blocking_true_blocks_and_no_configuration_blocks() {
        let m = json!({"messageId": "m", "role": "ROLE_USER", "content": [{"text": "x"}]});
        let A2aRequest::SendMessage(r) = read(
            Operation::SendMessage,
            json!({"message": m, "configuration": {"blocking": true}}),
        ) else {
            panic!()
        };
        assert!(!r.configuration.unwrap().return_immediately);
        let A2aRequest::SendStreamingMessage(r) =
            read(Operation::SendStreamingMessage, json!({"request": m}))
        else {
            panic!()
        };
        assert!(r.configuration.is_none());
        assert_eq!(r.message.message_id, "m");
    }

    #[test]
    fn the_jsonrpc_send_shape_is_read_too_kind_required() {
        let body = json!({"message": {"kind": "message", "messageId": "m", "role": "user",
            "parts": [{"kind": "text", "text": "hi"}]}});
        let A2aRequest::SendMessage(r) = read(Operation::SendMessage, body) else {
            panic!()
        };
        assert_eq!(r.message.parts, vec![Part::text("hi")]);
        // `parts` without `kind` is the JSON-RPC shape, where kind is REQUIRED.
        let bad = json!({"message": {"messageId": "m", "role": "user", "parts": [{"text": "hi"}]}});
        let e = request_from_rest(
            Operation::SendMessage,
            bad.to_string().as_bytes(),
            &DecodeLimits::new(),
        )
        .unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::Data, "{e}");
    }

    #[test]
    fn the_three_create_push_config_bodies_read_alike() {
        let inner = json!({"url": "https://h", "token": "t",
            "authentication": {"schemes": ["Bearer", "Basic"], "credentials": "c"}});
        let python = json!({"parent": "tasks/t1", "configId": "c1",
            "config": {"name": "tasks/t1/pushNotificationConfigs/c1", "pushNotificationConfig": inner}});
        let js =
            json!({"name": "tasks/t1/pushNotificationConfigs/c1", "pushNotificationConfig": inner});
        let mut with_id = inner.clone();
        with_id["id"] = json!("c1");
        let rpc = json!({"taskId": "t1", "pushNotificationConfig": with_id});
        let want = json!({"id": "c1", "taskId": "t1", "url": "https://h", "token": "t",
            "authentication": {"scheme": "Bearer", "credentials": "c"}});
        for body in [python, js, rpc] {
            let r = read(Operation::CreateTaskPushNotificationConfig, body.clone());
            assert_eq!(serde_json::to_value(&r).unwrap(), want, "{body}");
        }
    }

    /// The proto's original field names and an empty `authentication`,
    /// as the 0.3 TCK writes them (issue 27): ProtoJSON accepts original
    /// names, and proto3 has no required sub-message.
    #[test]
    fn original_field_names_and_empty_authentication_are_read() {
        let inner = json!({"url": "https://h", "token": "t", "authentication": {}});
        let wrapped = json!({"parent": "tasks/t1", "config_id": "c1",
            "config": {"name": "tasks/t1/pushNotificationConfigs/c1",
                "push_notification_config": inner}});
        let flat = json!({"name": "tasks/t1/pushNotificationConfigs/c1",
            "push_notification_config": inner});
        let want = json!({"id": "c1", "taskId": "t1", "url": "https://h", "token": "t"});
        for body in [wrapped, flat] {
            let r = read(Operation::CreateTaskPushNotificationConfig, body.clone());
            assert_eq!(serde_json::to_value(&r).unwrap(), want, "{body}");
        }
        // Credentials without a scheme are not the default message: kept,
        // for the server's validation to refuse.
        let half = json!({"name": "tasks/t1/pushNotificationConfigs/c1",
            "pushNotificationConfig": {"url": "https://h", "authentication": {"credentials": "c"}}});
        let r = read(Operation::CreateTaskPushNotificationConfig, half);
        assert_eq!(
            serde_json::to_value(&r).unwrap()["authentication"]["credentials"],
            "c"
        );
        let send = json!({"request": {"message_id": "m", "role": "ROLE_USER", "content": [
            {"file": {"file_with_uri": "https://x/y", "mime_type": "text/plain"}}]},
            "configuration": {"blocking": true, "push_notification": {"url": "https://h"}}});
        let A2aRequest::SendMessage(r) = read(Operation::SendMessage, send) else {
            panic!("not a send")
        };
        assert_eq!(r.message.message_id, "m");
        assert_eq!(
            serde_json::to_value(&r.message.parts[0]).unwrap(),
            json!({"url": "https://x/y", "mediaType": "text/plain"})
        );
        let c = r.configuration.unwrap();
        assert_eq!(c.task_push_notification_config.unwrap().url, "https://h");
    }

    #[test]
    fn input_limits_are_the_models() {
        let limits = DecodeLimits::new().with_max_input_bytes(16);
        let body = br#"{"message":{"messageId":"m","content":[]}}"#;
        let e = request_from_rest(Operation::SendMessage, body, &limits).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::TooLarge);
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let e = request_from_rest(
            Operation::SendMessage,
            deep.as_bytes(),
            &DecodeLimits::new(),
        )
        .unwrap_err();
        assert_ne!(e.kind(), DecodeErrorKind::TooLarge);
        for junk in [&b"{"[..], b"[1,2", b"\"x\"", b"{\"message\":5}", b"\xff"] {
            assert!(request_from_rest(Operation::SendMessage, junk, &DecodeLimits::new()).is_err());
        }
    }

    fn task() -> Task {
        let mut message = Message::new(Role::User, "m1", vec![Part::text("hi")]);
        message.reference_task_ids = vec!["other".to_owned()];
        let mut task = Task::new("t1", "c1", TaskState::Canceled);
        task.history = vec![message];
        task
    }

    #[test]
    fn a_task_is_written_with_the_0_3_proto_fields_only() {
        let out = tree(reply_to_rest(&Reply::GetTask(task())).unwrap());
        assert_eq!(
            out,
            json!({"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_CANCELLED"},
                "history": [{"messageId": "m1", "role": "ROLE_USER", "content": [{"text": "hi"}]}]})
        );
        let sent =
            tree(reply_to_rest(&Reply::SendMessage(SendMessageResponse::from(task()))).unwrap());
        assert_eq!(sent["task"]["id"], "t1");
    }

    #[test]
    fn parts_are_written_as_0_3_file_and_data_parts() {
        let parts: Vec<Part> = serde_json::from_value(json!([
            {"raw": "aGk=", "mediaType": "text/plain", "filename": "a.txt"},
            {"url": "https://x", "metadata": {"k": 1}},
            {"data": [1, 2]}]))
        .unwrap();
        let message = Message::new(Role::Agent, "m", parts);
        let out =
            tree(reply_to_rest(&Reply::SendMessage(SendMessageResponse::from(message))).unwrap());
        assert_eq!(
            out["message"]["content"],
            json!([
                {"file": {"fileWithBytes": "aGk=", "mimeType": "text/plain", "name": "a.txt"}},
                {"file": {"fileWithUri": "https://x"}, "metadata": {"k": 1}},
                {"data": {"data": {"value": [1, 2]}}}])
        );
    }

    #[test]
    fn status_updates_say_final_where_a_1_0_stream_ends() {
        let working = TaskStatusUpdateEvent::new("t", "c", TaskStatus::new(TaskState::Working));
        let out = tree(event_to_rest(&working.into()).unwrap());
        assert_eq!(
            out,
            json!({"statusUpdate": {"taskId": "t", "contextId": "c",
                "status": {"state": "TASK_STATE_WORKING"}}})
        );
        let done = TaskStatusUpdateEvent::new("t", "c", TaskStatus::new(TaskState::Completed));
        let out = tree(event_to_rest(&done.into()).unwrap());
        assert_eq!(out["statusUpdate"]["final"], true);
        let artifact: TaskArtifactUpdateEvent = serde_json::from_value(json!({
            "taskId": "t", "contextId": "c", "append": true,
            "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}))
        .unwrap();
        let out = tree(event_to_rest(&artifact.into()).unwrap());
        assert_eq!(
            out,
            json!({"artifactUpdate": {"taskId": "t", "contextId": "c", "append": true,
                "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}})
        );
    }

    #[test]
    fn push_configs_are_written_nested_and_named() {
        let config: TaskPushNotificationConfig = serde_json::from_value(json!({
            "tenant": "x", "id": "c1", "taskId": "t1", "url": "https://h",
            "authentication": {"scheme": "Bearer"}}))
        .unwrap();
        let out = tree(reply_to_rest(&Reply::GetTaskPushNotificationConfig(config)).unwrap());
        assert_eq!(
            out,
            json!({"name": "tasks/t1/pushNotificationConfigs/c1", "pushNotificationConfig":
                {"id": "c1", "url": "https://h", "authentication": {"schemes": ["Bearer"]}}})
        );
    }

    #[test]
    fn list_tasks_has_no_0_3_body_and_errors_are_jsonrpc_objects() {
        let list = Reply::ListTasks(crate::ListTasksResponse::default());
        assert!(reply_to_rest(&list).is_err());
        let out = tree(error_to_rest(&A2aError::task_not_found("t")));
        assert_eq!(out["code"], -32001);
        assert!(out["message"].as_str().is_some());
    }
}
