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
//! `security` and `supportsAuthenticatedExtendedCard`.
//!
//! One technique, as for the JSON-RPC form: each 0.3 proto message is a
//! typed wire struct (`wire`, `card`), bytes are decoded straight into it
//! and it is converted to the model; the model is converted to it and it
//! is written. No `serde_json::Value` tree is built on the way
//! (`docs/design.md`, "Decode once").
//!
//! - **Input** is ProtoJSON-lenient, as the proto3 JSON mapping requires
//!   of a parser: a field under its JSON name or its original proto name
//!   (`configId` or `config_id`, `pushNotificationConfig` or
//!   `push_notification_config`: the official 0.3 TCK writes the
//!   latter), `null` for an absent field, an empty object for a
//!   sub-message at its default (`authentication: {}` is no
//!   authentication). The model's [`DecodeLimits`] apply (size before
//!   parsing, [`RECURSION_LIMIT`](crate::RECURSION_LIMIT) while), and a
//!   decode error names the JSON path as the peer wrote it.
//! - **Output** writes only fields the 0.3 proto has, under their JSON
//!   names: the Python client parses strictly and refuses any other.

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::decode::{DecodeError, DecodeLimits};
use crate::{A2aError, A2aRequest, Operation, Reply, StreamResponse, TaskPushNotificationConfig};

mod card;
mod wire;

use wire::{
    Rest, RestCreatePushIn, RestCreatePushOut, RestPushListIn, RestPushListOut, RestSendRequest,
    RestSendResponse, RestStream, RestTaskPushConfig,
};

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
/// pushNotificationConfig}`, 0.3 spec 7.5). `CancelTask`'s `name` is not
/// read: the path names the task; the other bodies (`{id}`) read alike in
/// both versions, as 1.0 request messages.
///
/// A configuration without `blocking` returns at once (proto3 `false`,
/// as the 0.3 SDK servers read it); a request without configuration
/// blocks (0.3 spec 7.1).
///
/// ```
/// use a2a_types::{v0_3, A2aRequest, DecodeLimits, Operation, Part};
///
/// let body = br#"{"message":{"messageId":"m1","role":"ROLE_USER",
///     "content":[{"text":"hi"}]},"configuration":{"blocking":true}}"#;
/// let request = v0_3::request_from_rest(Operation::SendMessage, body, &DecodeLimits::new())?;
/// let A2aRequest::SendMessage(send) = request else { unreachable!() };
/// assert_eq!(send.message.parts, vec![Part::text("hi")]);
///
/// // The proto's original field names, as the 0.3 TCK writes them.
/// let body = br#"{"parent":"tasks/t1","config_id":"c1","config":{
///     "push_notification_config":{"url":"https://hook","authentication":{}}}}"#;
/// let request = v0_3::request_from_rest(
///     Operation::CreateTaskPushNotificationConfig, body, &DecodeLimits::new())?;
/// let A2aRequest::CreateTaskPushNotificationConfig(config) = request else { unreachable!() };
/// assert_eq!((config.task_id.as_str(), config.id.as_str()), ("t1", "c1"));
/// assert_eq!(config.authentication, None);
/// # Ok::<(), a2a_types::DecodeError>(())
/// ```
pub fn request_from_rest(
    op: Operation,
    body: &[u8],
    limits: &DecodeLimits,
) -> Result<A2aRequest, DecodeError> {
    match op {
        Operation::SendMessage | Operation::SendStreamingMessage => {
            let send = if crate::decode::from_slice_with_limits::<JsonRpcShape>(body, limits)?.0 {
                crate::decode::from_slice_with_limits::<
                    Option<super::V03<crate::SendMessageRequest>>,
                >(body, limits)?
                .map(|p| p.0)
            } else {
                crate::decode::from_slice_with_limits::<Option<RestSendRequest>>(body, limits)?
                    .map(crate::SendMessageRequest::from)
            }
            .unwrap_or_default();
            Ok(if op == Operation::SendMessage {
                A2aRequest::SendMessage(send)
            } else {
                A2aRequest::SendStreamingMessage(send)
            })
        }
        Operation::CreateTaskPushNotificationConfig => {
            let config =
                crate::decode::from_slice_with_limits::<Option<RestCreatePushIn>>(body, limits)?
                    .map(TaskPushNotificationConfig::from)
                    .unwrap_or_default();
            Ok(A2aRequest::CreateTaskPushNotificationConfig(config))
        }
        _ => A2aRequest::from_json(op, body, limits),
    }
}

/// Whether a send body is in the JSON-RPC shape: its `message` is an
/// object with `kind` or `parts` (the proto's has `content`). Anything
/// else, a body that is not an object included, is left to the proto
/// form's reader to accept or refuse.
struct JsonRpcShape(bool);

impl<'de> Deserialize<'de> for JsonRpcShape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<JsonRpcShape, D::Error> {
        /// The members this looks at.
        enum Key {
            Message,
            Kind,
            Parts,
            Other,
        }

        impl<'de> Deserialize<'de> for Key {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
                struct KeyVisitor;

                impl Visitor<'_> for KeyVisitor {
                    type Value = Key;

                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("a field name")
                    }

                    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
                        self.visit_bytes(v.as_bytes())
                    }

                    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Key, E> {
                        Ok(match v {
                            b"message" => Key::Message,
                            b"kind" => Key::Kind,
                            b"parts" => Key::Parts,
                            _ => Key::Other,
                        })
                    }
                }

                crate::protojson::identifier(d, KeyVisitor)
            }
        }

        /// `true` for an object with `kind` or `parts` (at the message's
        /// level), or with a `message` that has them (at the body's).
        struct Shape {
            body: bool,
        }

        impl<'de> Visitor<'de> for Shape {
            type Value = JsonRpcShape;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JsonRpcShape, A::Error> {
                let mut found = false;
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Message if self.body => {
                            found |= map.next_value_seed(Shape { body: false })?.0;
                        }
                        Key::Kind | Key::Parts if !self.body => {
                            map.next_value::<IgnoredAny>()?;
                            found = true;
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(JsonRpcShape(found))
            }

            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<JsonRpcShape, A::Error> {
                IgnoredAny.visit_seq(seq).map(|_| JsonRpcShape(false))
            }

            fn visit_bool<E: de::Error>(self, _: bool) -> Result<JsonRpcShape, E> {
                Ok(JsonRpcShape(false))
            }

            fn visit_i64<E: de::Error>(self, _: i64) -> Result<JsonRpcShape, E> {
                Ok(JsonRpcShape(false))
            }

            fn visit_u64<E: de::Error>(self, _: u64) -> Result<JsonRpcShape, E> {
                Ok(JsonRpcShape(false))
            }

            fn visit_f64<E: de::Error>(self, _: f64) -> Result<JsonRpcShape, E> {
                Ok(JsonRpcShape(false))
            }

            fn visit_str<E: de::Error>(self, _: &str) -> Result<JsonRpcShape, E> {
                Ok(JsonRpcShape(false))
            }

            fn visit_unit<E: de::Error>(self) -> Result<JsonRpcShape, E> {
                Ok(JsonRpcShape(false))
            }

            fn visit_none<E: de::Error>(self) -> Result<JsonRpcShape, E> {
                Ok(JsonRpcShape(false))
            }

            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<JsonRpcShape, D::Error> {
                d.deserialize_any(self)
            }
        }

        impl<'de> de::DeserializeSeed<'de> for Shape {
            type Value = JsonRpcShape;

            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<JsonRpcShape, D::Error> {
                d.deserialize_any(self)
            }
        }

        d.deserialize_any(Shape { body: true })
    }
}

/// The 0.3 HTTP+JSON body of a unary `reply`. A streaming reply has none
/// (each event is written by [`event_to_rest`]); neither has `ListTasks`,
/// which 0.3 lacks.
pub fn reply_to_rest(reply: &Reply) -> Result<Vec<u8>, crate::json::Error> {
    use serde::ser::Error as _;
    match reply {
        Reply::SendMessage(r) => {
            let wire = RestSendResponse::try_from(r).map_err(crate::json::Error::custom)?;
            crate::json::to_vec(&wire)
        }
        Reply::GetTask(t) | Reply::CancelTask(t) => crate::json::to_vec(&Rest(t)),
        Reply::CreateTaskPushNotificationConfig(c) | Reply::GetTaskPushNotificationConfig(c) => {
            crate::json::to_vec(&Rest(c))
        }
        Reply::ListTaskPushNotificationConfigs(list) => crate::json::to_vec(&RestPushListOut {
            configs: list
                .configs
                .iter()
                .map(RestTaskPushConfig::try_from)
                .collect::<Result<_, _>>()
                .map_err(crate::json::Error::custom)?,
        }),
        // `google.protobuf.Empty` (0.3 spec 7.8).
        Reply::DeleteTaskPushNotificationConfig(_) => Ok(b"{}".to_vec()),
        Reply::GetExtendedAgentCard(card) => crate::json::to_vec(&Rest(card)),
        Reply::ListTasks(_) => Err(crate::json::Error::custom("0.3 has no ListTasks")),
        Reply::SendStreamingMessage(_) | Reply::SubscribeToTask(_) => Err(
            crate::json::Error::custom("a stream has no single 0.3 body"),
        ),
    }
}

/// The 0.3 HTTP+JSON form of a stream event: a 0.3 `StreamResponse`
/// (`task`, `message`, `statusUpdate` with `final`, `artifactUpdate`;
/// 0.3 spec 7.2). `final` is true for a terminal or interrupted state,
/// where a 1.0 stream ends.
pub fn event_to_rest(event: &StreamResponse) -> Result<Vec<u8>, crate::json::Error> {
    use serde::ser::Error as _;
    let wire = RestStream::try_from(event).map_err(crate::json::Error::custom)?;
    crate::json::to_vec(&wire)
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
    match request {
        A2aRequest::SendMessage(r) | A2aRequest::SendStreamingMessage(r) => {
            crate::json::to_vec(&RestSendRequest::from(r)).map(Some)
        }
        A2aRequest::CreateTaskPushNotificationConfig(c) => {
            crate::json::to_vec(&RestCreatePushOut::from_model(c)).map(Some)
        }
        A2aRequest::ListTasks(_) => Err(crate::json::Error::custom("0.3 has no ListTasks")),
        _ => Ok(None),
    }
}

/// Reads the 0.3 HTTP+JSON answer to a unary `op` (the 0.3 proto's
/// ProtoJSON, as [`reply_to_rest`] writes it and the 0.3 SDK servers
/// answer) into the model, as leniently as [`request_from_rest`]. An
/// empty body reads as `{}`; the push configuration list may be `{configs}`
/// or a bare list. Bounded as [`request_from_rest`].
pub fn reply_from_rest(
    op: Operation,
    body: &[u8],
    limits: &DecodeLimits,
) -> Result<Reply, DecodeError> {
    use crate::decode::from_slice_with_limits as read;
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        body
    };
    Ok(match op {
        Operation::SendMessage => {
            let wire: RestSendResponse = read(body, limits)?;
            Reply::SendMessage(wire.try_into().map_err(|e: String| DecodeError::data(&e))?)
        }
        Operation::GetTask => Reply::GetTask(read::<Rest<_>>(body, limits)?.0),
        Operation::CancelTask => Reply::CancelTask(read::<Rest<_>>(body, limits)?.0),
        Operation::CreateTaskPushNotificationConfig => {
            Reply::CreateTaskPushNotificationConfig(read::<Rest<_>>(body, limits)?.0)
        }
        Operation::GetTaskPushNotificationConfig => {
            Reply::GetTaskPushNotificationConfig(read::<Rest<_>>(body, limits)?.0)
        }
        Operation::ListTaskPushNotificationConfigs => {
            let list: RestPushListIn = read(body, limits)?;
            Reply::ListTaskPushNotificationConfigs(crate::ListTaskPushNotificationConfigsResponse {
                configs: list.0,
                ..Default::default()
            })
        }
        // `google.protobuf.Empty`: any JSON, nothing read.
        Operation::DeleteTaskPushNotificationConfig => {
            read::<IgnoredAny>(body, limits)?;
            Reply::DeleteTaskPushNotificationConfig(crate::Empty)
        }
        Operation::GetExtendedAgentCard => {
            Reply::GetExtendedAgentCard(read::<Rest<_>>(body, limits)?.0)
        }
        // No 0.3 body: the input is checked against the limits as any
        // other, then left to the 1.0 reader to refuse or read.
        Operation::ListTasks | Operation::SendStreamingMessage | Operation::SubscribeToTask => {
            read::<IgnoredAny>(body, limits)?;
            Reply::from_json(op, body, limits)?
        }
    })
}

/// Reads one 0.3 HTTP+JSON stream event (the 0.3 proto's
/// `StreamResponse`, as [`event_to_rest`] writes it) into the model;
/// `final` is dropped (1.0 ends the stream instead). Bounded as
/// [`request_from_rest`].
pub fn event_from_rest(data: &[u8], limits: &DecodeLimits) -> Result<StreamResponse, DecodeError> {
    let wire: RestStream = crate::decode::from_slice_with_limits(data, limits)?;
    wire.try_into().map_err(|e: String| DecodeError::data(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        DecodeErrorKind, Message, Part, Role, SendMessageResponse, Task, TaskArtifactUpdateEvent,
        TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent,
    };
    use serde_json::{json, Value};

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
