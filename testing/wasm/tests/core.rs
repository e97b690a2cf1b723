//! The pure parts of the core, run for real: natively as ordinary tests,
//! and on `wasm32-unknown-unknown` as `wasm-bindgen-test` tests in Node's
//! WebAssembly engine (`scripts/wasm-check`). Each compares bytes or
//! values, so a behaviour that differs on the target (a 32-bit `usize`, no
//! clock, no random keys) fails here.

mod support;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::sync::Arc;

use a2a_jsonrpc::{decode_request, encode_error, encode_result, A2aRequest, DecodeConfig, Id};
use a2a_sse::{Decoder, Encoder, Event};
use a2a_transport::server::Chunk;
use a2a_transport::{A2aService, Binding, CallContext, HttpTransport, StreamNext};
use a2a_types::testing::TYPE_NAMES;
use a2a_types::{
    A2aError, ErrorKind, GetTaskRequest, Message, PartContent, SendMessageRequest,
    SendMessageResponse, StreamResponse, Task, TaskState, Timestamp,
};
use bytes::Bytes;
use http::Request;
use support::{block_on, chunks, data, server, Echo, Loopback};

// ------------------------------------------------------------ a2a-types

/// A task as another implementation may send it (proto field names, an
/// offset timestamp, unpadded base64, unknown members), read and written
/// back in canonical ProtoJSON.
#[test]
fn task_json_decodes_and_encodes_canonically() {
    let input = br#"{"id":"task-1","context_id":"ctx-1","unknown":[1,2],
        "status":{"state":"TASK_STATE_WORKING","timestamp":"2024-03-15T12:05:00.5+02:00"},
        "history":[{"messageId":"m-1","role":1,"parts":[{"text":"h\u00e9"},{"raw":"AAEC/w"},
            {"url":"https://x.example/f.png","media_type":"image/png","filename":"f.png"},
            {"data":{"n":1.5,"big":18446744073709551615,"none":null}}]}],
        "metadata":{"k":"v"}}"#;
    let task: Task = a2a_types::from_slice(input).unwrap();
    // Struct members come out in key order, numbers exactly as read.
    assert_eq!(task.id, "task-1");
    assert_eq!(task.context_id, "ctx-1");
    assert_eq!(task.status.state, TaskState::Working);
    assert_eq!(
        task.status.timestamp,
        Some(Timestamp::new(1_710_497_100, 500_000_000).unwrap())
    );
    let parts = &task.history[0].parts;
    assert_eq!(parts[0].text_content(), Some("hé"));
    assert_eq!(parts[1].content, PartContent::Raw(vec![0, 1, 2, 255]));
    assert_eq!(parts[2].media_type, "image/png");
    let want = concat!(
        r#"{"id":"task-1","contextId":"ctx-1","#,
        r#""status":{"state":"TASK_STATE_WORKING","timestamp":"2024-03-15T10:05:00.500Z"},"#,
        r#""history":[{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hé"},{"raw":"AAEC/w=="},"#,
        r#"{"url":"https://x.example/f.png","filename":"f.png","mediaType":"image/png"},"#,
        r#"{"data":{"big":18446744073709551615,"n":1.5,"none":null}}]}],"#,
        r#""metadata":{"k":"v"}}"#
    );
    assert_eq!(
        String::from_utf8(a2a_types::to_vec(&task).unwrap()).unwrap(),
        want
    );
    // The canonical form reads back as the same task.
    assert_eq!(
        a2a_types::from_slice::<Task>(want.as_bytes()).unwrap(),
        task
    );
}

/// A decode error names the JSON path of the bad member.
#[test]
fn decode_errors_name_the_path() {
    let err = a2a_types::from_slice::<SendMessageRequest>(
        br#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a"},{"raw":"%%"}]}}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "message.parts[1].raw");
}

/// Every one of the proto's 44 message types, generated from several
/// seeds: ProtoJSON and protobuf round trips, and the crate's own JSON
/// writer (whose string scan reads machine words) against `serde_json`.
#[test]
fn every_message_type_round_trips_in_json_and_protobuf() {
    assert_eq!(TYPE_NAMES.len(), 44);
    let mut checked = 0;
    for seed in 0..8 {
        for name in TYPE_NAMES {
            a2a_types::testing::check_roundtrip(name, seed)
                .unwrap_or_else(|e| panic!("{name} (seed {seed}), JSON: {e}"));
            a2a_proto::testing::check_roundtrip(name, seed)
                .unwrap_or_else(|e| panic!("{name} (seed {seed}), protobuf: {e}"));
            let json = a2a_types::testing::generate_json(name, seed).unwrap();
            a2a_types::testing::check_writer(name, &json)
                .unwrap_or_else(|e| panic!("{name} (seed {seed}), writer: {e}"));
            checked += 1;
        }
    }
    assert_eq!(checked, 8 * 44);
}

/// Message ids need no clock and no random-number crate; on this target
/// they are distinct within the instance.
#[test]
fn message_ids_are_distinct() {
    let ids: std::collections::BTreeSet<String> =
        (0..1000).map(|_| a2a_types::new_message_id()).collect();
    assert_eq!(ids.len(), 1000);
    assert!(ids.iter().all(|id| id.len() == 36 && &id[14..15] == "4"));
}

// ------------------------------------------------------------ a2a-proto

/// Known protobuf bytes, both ways.
#[test]
fn protobuf_bytes_are_the_proto_s() {
    let message = Message::user_text("m", "hi");
    // messageId (1) "m", role (4) ROLE_USER, parts (5) [{text (1) "hi"}]
    let want = [
        0x0a, 0x01, b'm', 0x20, 0x01, 0x2a, 0x04, 0x0a, 0x02, b'h', b'i',
    ];
    assert_eq!(a2a_proto::encode(&message), want);
    assert_eq!(a2a_proto::decode::<Message>(&want).unwrap(), message);
    // An unknown role number is refused with its path.
    let mut bad = want;
    bad[4] = 0x07;
    assert_eq!(
        a2a_proto::decode::<Message>(&bad).unwrap_err().path(),
        "role"
    );
    // A whole task, through bytes and back.
    let task = Echo::task_for(&message);
    let bytes = a2a_proto::encode(&task);
    assert_eq!(a2a_proto::decode::<Task>(&bytes).unwrap(), task);
}

// ------------------------------------------------------------ a2a-jsonrpc

/// A request decoded in one pass, its id (past `u64`) echoed exactly in
/// the result and in an error.
#[test]
fn jsonrpc_request_decodes_and_responses_encode() {
    let body = br#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"SendMessage",
        "params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}}"#;
    let request = decode_request(body, &DecodeConfig::default()).unwrap();
    let A2aRequest::SendMessage(params) = &request.request else {
        panic!("not SendMessage: {:?}", request.request)
    };
    assert_eq!(params.message.text_content().as_deref(), Some("hi"));
    let reply = SendMessageResponse::Message(Message::agent_text("r-1", "hello"));
    assert_eq!(
        String::from_utf8(encode_result(&request.id, &reply)).unwrap(),
        concat!(
            r#"{"jsonrpc":"2.0","id":18446744073709551616,"result":{"message":"#,
            r#"{"messageId":"r-1","role":"ROLE_AGENT","parts":[{"text":"hello"}]}}}"#
        )
    );
    let error = A2aError::task_not_found("t-9");
    assert_eq!(
        String::from_utf8(encode_error(&Id::string("x"), &error)).unwrap(),
        concat!(
            r#"{"jsonrpc":"2.0","id":"x","error":{"code":-32001,"message":"Task not found: t-9","#,
            r#""data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","#,
            r#""domain":"a2a-protocol.org","metadata":{"taskId":"t-9"},"reason":"TASK_NOT_FOUND"}]}}"#
        )
    );
    // An unknown method: the error response echoes the id.
    let err = decode_request(
        br#"{"jsonrpc":"2.0","id":"q","method":"Nope"}"#,
        &DecodeConfig::default(),
    )
    .unwrap_err();
    assert_eq!(err.error.code().0, -32601);
    assert_eq!(err.id, Id::string("q"));
}

// ------------------------------------------------------------ a2a-sse

/// Encoded events decode the same however the bytes are split, and the
/// standard's corner cases decode as it says.
#[test]
fn sse_encodes_and_decodes_in_any_chunking() {
    let mut encoder = Encoder::new();
    encoder.retry(std::time::Duration::from_millis(1500));
    encoder
        .event(Some("status"), Some("7"), "é\nsecond line".as_bytes())
        .unwrap();
    encoder.comment("keep-alive");
    encoder.event(None, None, b"{}").unwrap();
    let wire = encoder.take();
    assert_eq!(
        &wire[..],
        "retry: 1500\nevent: status\nid: 7\ndata: é\ndata: second line\n\n: keep-alive\ndata: {}\n\n"
            .as_bytes()
    );
    // An event type the decoder would read back differently is refused.
    assert!(encoder.event(Some("two\nlines"), None, b"x").is_err());

    let decode = |pieces: &[&[u8]]| {
        let mut decoder = Decoder::new();
        let mut events = Vec::new();
        for piece in pieces {
            decoder.feed(Bytes::copy_from_slice(piece));
            while let Some(event) = decoder.next_event().unwrap() {
                events.push(event);
            }
        }
        decoder.finish();
        assert_eq!(decoder.next_event().unwrap(), None);
        (events, decoder.retry())
    };
    let (whole, retry) = decode(&[&wire]);
    assert_eq!(retry, Some(std::time::Duration::from_millis(1500)));
    let summary: Vec<(String, String, String)> = whole.iter().map(summarize).collect();
    assert_eq!(
        summary,
        [
            ("status".into(), "7".into(), "é\nsecond line".into()),
            ("message".into(), "7".into(), "{}".into()),
        ]
    );
    // Every split in two, through the 2-byte "é" too.
    for at in 0..=wire.len() {
        let (events, _) = decode(&[&wire[..at], &wire[at..]]);
        assert_eq!(events, whole, "split at {at}");
    }

    // A byte-order mark, CRLF and lone CR line ends, a field without a
    // colon, an unknown field, and an unfinished event at the end.
    let (events, _) =
        decode(&[b"\xef\xbb\xbfdata: a\r\ndata\rfoo: x\r\n\r\nid: 9\ndata: b\n\ndata: lost"]);
    let summary: Vec<(String, String, String)> = events.iter().map(summarize).collect();
    assert_eq!(
        summary,
        [
            ("message".into(), "".into(), "a\n".into()),
            ("message".into(), "9".into(), "b".into()),
        ]
    );
}

fn summarize(event: &Event) -> (String, String, String) {
    (
        event.event_type.to_string(),
        event.id.to_string(),
        String::from_utf8(event.data.to_vec()).unwrap(),
    )
}

// ------------------------------------------------------------ the server pipeline

fn jsonrpc_post(body: &'static str) -> Request<Bytes> {
    Request::post("/")
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Bytes::from_static(body.as_bytes()))
        .unwrap()
}

/// The expected answer of the echo agent to `SendMessage` of "hi" as
/// `m-1`, as a JSON-RPC result with id `id`.
fn echo_hi_result(id: &str) -> String {
    format!(
        concat!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"task":{{"id":"task-m-1","contextId":"ctx-1","#,
            r#""status":{{"state":"TASK_STATE_COMPLETED","timestamp":"2025-01-01T00:00:00.000Z"}},"#,
            r#""artifacts":[{{"artifactId":"a-1","parts":[{{"text":"echo: hi"}}]}}],"#,
            r#""history":[{{"messageId":"m-1","role":"ROLE_USER","parts":[{{"text":"hi"}}]}}]}}}}}}"#
        ),
        id
    )
}

/// One JSON-RPC call through `A2aServer::handle`: authentication, version,
/// decoding, validation, the agent, encoding; byte for byte.
#[test]
fn server_answers_a_jsonrpc_call() {
    let server = server("https://agent.example");
    let response = block_on(server.handle(jsonrpc_post(
        r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}}"#,
    )));
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body = String::from_utf8(data(response.into_body())).unwrap();
    assert_eq!(body, echo_hi_result("1"));

    // The task is kept: GetTask finds it, and an unknown one is the
    // spec's TaskNotFoundError.
    let response = block_on(server.handle(jsonrpc_post(
        r#"{"jsonrpc":"2.0","id":"g","method":"GetTask","params":{"id":"task-nope"}}"#,
    )));
    assert_eq!(response.status(), 200);
    let body = String::from_utf8(data(response.into_body())).unwrap();
    assert!(
        body.starts_with(r#"{"jsonrpc":"2.0","id":"g","error":{"code":-32001,"#),
        "{body}"
    );

    // A missing REQUIRED field is refused before the agent sees it.
    let response = block_on(server.handle(jsonrpc_post(
        r#"{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":{"message":{"messageId":"m-2","role":"ROLE_USER","parts":[]}}}"#,
    )));
    let body = String::from_utf8(data(response.into_body())).unwrap();
    assert!(
        body.starts_with(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"#),
        "{body}"
    );
}

/// A streaming call answers Server-Sent Events, one JSON-RPC result per
/// event, in the agent's order.
#[test]
fn server_streams_sse_frames() {
    let server = server("https://agent.example");
    let response = block_on(server.handle(jsonrpc_post(
        r#"{"jsonrpc":"2.0","id":5,"method":"SendStreamingMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}}"#,
    )));
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let frames = chunks(response.into_body());
    assert_eq!(frames.len(), 4, "one frame per event");
    let mut decoder = Decoder::new();
    for frame in frames {
        let Chunk::Data(bytes) = frame else {
            panic!("trailers on an SSE body")
        };
        decoder.feed(bytes);
    }
    decoder.finish();
    let mut kinds = Vec::new();
    let want = Echo::events_for(&Message::user_text("m-1", "hi"));
    while let Some(event) = decoder.next_event().unwrap() {
        let value: serde_json::Value = serde_json::from_slice(&event.data).unwrap();
        assert_eq!(value["jsonrpc"], "2.0");
        assert_eq!(value["id"], 5);
        let got: StreamResponse = serde_json::from_value(value["result"].clone()).unwrap();
        assert_eq!(got, want[kinds.len()]);
        kinds.push(
            value["result"]
                .as_object()
                .unwrap()
                .keys()
                .next()
                .unwrap()
                .clone(),
        );
    }
    assert_eq!(
        kinds,
        ["task", "statusUpdate", "artifactUpdate", "statusUpdate"]
    );
}

/// The HTTP+JSON binding and the agent card, through the same server.
#[test]
fn server_answers_http_json_and_the_card() {
    let server = server("https://agent.example");
    let request = Request::post("/v1/message:send")
        .header("content-type", "application/a2a+json")
        .header("a2a-version", "1.0")
        .body(Bytes::from_static(
            br#"{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#,
        ))
        .unwrap();
    let response = block_on(server.handle(request));
    assert_eq!(response.status(), 200);
    let body = String::from_utf8(data(response.into_body())).unwrap();
    let want = echo_hi_result("1");
    let want = &want[r#"{"jsonrpc":"2.0","id":1,"result":"#.len()..want.len() - 1];
    assert_eq!(body, want);

    let request = Request::get("/v1/tasks/nope").header("a2a-version", "1.0");
    let response = block_on(server.handle(request.body(Bytes::new()).unwrap()));
    assert_eq!(response.status(), 404);

    let card = Request::get("/.well-known/agent-card.json").body(Bytes::new());
    let response = block_on(server.handle(card.unwrap()));
    assert_eq!(response.status(), 200);
    assert!(response.headers().contains_key("etag"));
    let card: a2a_types::AgentCard = a2a_types::from_slice(&data(response.into_body())).unwrap();
    assert_eq!(card.name, "Echo");
}

// ------------------------------------------------------------ the client

/// `HttpTransport` over each binding, against the server in the same
/// instance: typed results, streams and errors make the round trip. Over
/// gRPC, the length-prefixed protobuf messages and the status in the
/// trailers too.
#[test]
fn client_calls_the_server_over_every_binding() {
    let server = Arc::new(server("https://agent.example"));
    for (binding, url) in [
        (Binding::JsonRpc, "https://agent.example/"),
        (Binding::HttpJson, "https://agent.example/v1"),
        (Binding::Grpc, "https://agent.example"),
    ] {
        let client = Loopback {
            server: server.clone(),
        };
        let agent = HttpTransport::new(client, binding, url).unwrap();
        let cx = CallContext::new();
        let message = Message::user_text("m-1", "hi");

        let reply = block_on(agent.send_message(&cx, SendMessageRequest::new(message.clone())));
        assert_eq!(
            reply.unwrap(),
            SendMessageResponse::Task(Echo::task_for(&message)),
            "{binding:?}"
        );

        let events = block_on(async {
            let mut stream = agent
                .send_streaming_message(&cx, SendMessageRequest::new(message.clone()))
                .await
                .unwrap();
            let mut events = Vec::new();
            while let Some(event) = stream.next().await {
                events.push(event.unwrap());
            }
            events
        });
        assert_eq!(events, Echo::events_for(&message), "{binding:?}");

        let err = block_on(agent.get_task(&cx, GetTaskRequest::new("task-nope"))).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TaskNotFound, "{binding:?}: {err}");
    }
}

// ------------------------------------------------------------ a2a-signing

/// Keys drawn from the platform's randomness (on this target, through
/// getrandom's `js` feature: `crypto.getRandomValues`), a card signed and
/// verified, a changed card refused.
#[test]
fn cards_are_signed_and_verified() {
    use a2a_signing::{Algorithm, CardSigner, JwkSet, Policy, SigningKey, Verifier, VerifyError};

    for algorithm in [Algorithm::Es256, Algorithm::EdDsa] {
        let key = SigningKey::generate(algorithm).unwrap();
        let other = SigningKey::generate(algorithm).unwrap();
        assert_ne!(
            key.public_jwk().to_json(),
            other.public_jwk().to_json(),
            "two generated keys are the same: no randomness"
        );
        let card = CardSigner::new(key.clone(), "k-1")
            .sign_card(support::card("https://agent.example"))
            .unwrap();
        let json = a2a_types::to_vec(&card).unwrap();
        let verifier = Verifier::new(
            JwkSet::new([key.public_jwk().with_kid("k-1")]),
            Policy::default(),
        );
        assert!(verifier.verify_json(&json).is_ok(), "{algorithm:?}");
        let changed = String::from_utf8(json).unwrap().replace("Echoes", "Lies");
        assert!(
            matches!(
                verifier.verify_json(changed.as_bytes()),
                Err(VerifyError::Rejected(_))
            ),
            "{algorithm:?}"
        );
    }
}
