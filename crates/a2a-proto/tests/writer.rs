//! The direct writer behind `a2a_proto::encode` (issue 30) against prost:
//! for every message type, over many generated values, and for hand-made
//! edge cases, its bytes are exactly those prost writes for
//! `Protobuf::to_message` of the same value. (The wire oracle,
//! `tests/oracle.rs`, judges the same bytes independently.)

use a2a_proto::prost::Message as _;
use a2a_proto::testing::TYPE_NAMES;
use a2a_proto::{encode, encode_into, Protobuf};
use a2a_types::testing::{Gen, Generate};
use a2a_types::with_message_types;
use a2a_types::*;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Where two byte strings first differ, for a readable failure.
fn first_difference(ours: &[u8], prost: &[u8]) -> String {
    let at = ours
        .iter()
        .zip(prost)
        .position(|(a, b)| a != b)
        .unwrap_or(ours.len().min(prost.len()));
    let window = |b: &[u8]| b[at.saturating_sub(8)..(at + 8).min(b.len())].to_vec();
    format!(
        "{} bytes vs prost's {}; first difference at byte {at}: ours {:02x?}, prost {:02x?}",
        ours.len(),
        prost.len(),
        window(ours),
        window(prost)
    )
}

/// The writer's bytes equal prost's encoding of `to_message`, and
/// `encode_into` appends the same bytes after what a buffer holds.
fn same_as_prost<T: Protobuf + std::fmt::Debug>(value: &T) -> Result<(), String> {
    let ours = encode(value);
    let prost = value.to_message().encode_to_vec();
    if ours != prost {
        return Err(format!("{}\n{value:?}", first_difference(&ours, &prost)));
    }
    let mut framed = b"prefix".to_vec();
    encode_into(value, &mut framed);
    if framed[..6] != *b"prefix" || framed[6..] != ours[..] {
        return Err(format!("encode_into differs from encode\n{value:?}"));
    }
    Ok(())
}

/// [`same_as_prost`] for the value generated from `seed` of the type named
/// `type_name`.
fn check(type_name: &str, seed: u64) -> Result<(), String> {
    fn go<T: Generate + Protobuf + std::fmt::Debug>(seed: u64) -> Result<(), String> {
        same_as_prost(&T::generate(&mut Gen::new(seed)))
    }
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => go::<$t>(seed),)+
                _ => Err(format!("unknown type {type_name:?}")),
            }
        };
    }
    with_message_types!(arms)
}

#[test]
fn every_type_writes_prosts_bytes_over_many_seeds() {
    assert_eq!(TYPE_NAMES.len(), 44);
    let mut checked = 0;
    for name in TYPE_NAMES {
        for seed in 0..300 {
            if let Err(e) = check(name, seed) {
                panic!("{name} seed {seed}: {e}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 44 * 300);
}

#[test]
fn the_well_known_types_write_prosts_bytes() {
    for seed in 0..500 {
        let g = &mut Gen::new(seed);
        same_as_prost(&g.value(4)).unwrap();
        same_as_prost(&g.object(4)).unwrap();
        same_as_prost(&g.timestamp()).unwrap();
    }
    same_as_prost(&Empty).unwrap();
    assert!(encode(&Empty).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_seed_of_any_type_writes_prosts_bytes(index in 0..TYPE_NAMES.len(), seed in any::<u64>()) {
        let name = TYPE_NAMES[index];
        let result = check(name, seed);
        prop_assert!(result.is_ok(), "{} seed {}: {:?}", name, seed, result);
    }
}

// ---------------------------------------------------------------------------
// Edge cases, each also against prost.

#[test]
fn empty_messages_are_empty_but_required_fields_are_written() {
    for bytes in [
        encode(&GetExtendedAgentCardRequest::default()),
        encode(&StringList::default()),
        encode(&MutualTlsSecurityScheme::default()),
        encode(&Struct::new()),
    ] {
        assert!(bytes.is_empty(), "{bytes:02x?}");
    }
    // `Task.status` is REQUIRED: written (field 3, length 0) even default.
    assert_eq!(encode(&Task::default()), [0x1a, 0x00]);
    same_as_prost(&Task::default()).unwrap();
    same_as_prost(&AgentCard::default()).unwrap();
    same_as_prost(&SendMessageRequest::default()).unwrap();
    same_as_prost(&TaskArtifactUpdateEvent::default()).unwrap();
}

#[test]
fn oneof_members_and_optionals_are_written_even_when_default() {
    // An empty text part is still the `text` member: field 1, length 0.
    assert_eq!(encode(&Part::text("")), [0x0a, 0x00]);
    assert_eq!(encode(&Part::raw(Vec::new())), [0x12, 0x00]);
    // `null` is NULL_VALUE, number 0, written.
    assert_eq!(encode(&Value::Null), [0x08, 0x00]);
    assert_eq!(encode(&json!(false)), [0x20, 0x00]);
    let caps = AgentCapabilities {
        streaming: Some(false),
        push_notifications: None,
        extended_agent_card: Some(true),
        ..Default::default()
    };
    assert_eq!(encode(&caps), [0x08, 0x00, 0x20, 0x01]);
    let card = AgentCard {
        documentation_url: Some(String::new()),
        icon_url: Some(String::new()),
        ..Default::default()
    };
    same_as_prost(&card).unwrap();
    for value in [Part::text(""), Part::raw(Vec::new()), Part::url("")] {
        same_as_prost(&value).unwrap();
    }
    same_as_prost(&caps).unwrap();
}

#[test]
fn negative_int32s_are_ten_byte_varints() {
    let request = GetTaskRequest {
        id: "t".into(),
        history_length: Some(-1),
        ..Default::default()
    };
    let mut want = vec![0x12, 0x01, b't', 0x18];
    want.extend_from_slice(&[0xff; 9]);
    want.push(0x01);
    assert_eq!(encode(&request), want);
    same_as_prost(&request).unwrap();
    let response = ListTasksResponse {
        page_size: i32::MIN,
        total_size: -7,
        ..Default::default()
    };
    same_as_prost(&response).unwrap();
    let list = ListTaskPushNotificationConfigsRequest {
        task_id: "t".into(),
        page_size: -1,
        page_token: "p".into(),
        tenant: "x".into(),
    };
    same_as_prost(&list).unwrap();
    // `tenant` is field 4: written after the others, as prost does.
    assert_eq!(encode(&list).last(), Some(&b'x'));
}

#[test]
fn lengths_past_one_varint_byte() {
    for len in [127, 128, 200, 16_383, 16_384, 70_000] {
        let text: String = "é".repeat(len / 2) + &"a".repeat(len % 2);
        let message = Message::user_text("m", text.clone());
        same_as_prost(&message).unwrap();
        let task = Task {
            id: text.clone(),
            history: vec![message],
            metadata: Some(serde_json::Map::from_iter([(
                text.clone(),
                json!([text, {"k": len}]),
            )])),
            ..Task::new("t", "c", TaskState::Working)
        };
        same_as_prost(&task).unwrap();
    }
}

#[test]
fn a_five_megabyte_part() {
    let bytes: Vec<u8> = (0..5_000_000u32).map(|i| (i * 31 % 251) as u8).collect();
    let mut message = Message::user_text("m", "here");
    message.parts.push(Part::raw(bytes.clone()));
    let task = Task {
        history: vec![message],
        artifacts: vec![Artifact::new("a", vec![Part::raw(bytes)])],
        ..Task::new("t", "c", TaskState::Completed)
    };
    let ours = encode(&task);
    assert!(ours.len() > 10_000_000);
    same_as_prost(&task).unwrap();
    same_as_prost(&StreamResponse::Task(task)).unwrap();
}

/// One measurement records 64 nested messages' lengths; the writer
/// measures what lies past them as it goes. Wide and deep values here nest
/// hundreds.
#[test]
fn more_nested_messages_than_one_measurement_records() {
    let mut task = Task::new("t", "c", TaskState::Working);
    for i in 0..300 {
        let mut message = Message::user_text(format!("m{i}"), "x".repeat(i));
        message
            .parts
            .push(Part::data(json!({"i": i, "l": [1, [2, [3]], {"k": null}]})));
        task.history.push(message);
    }
    same_as_prost(&task).unwrap();
    same_as_prost(&StreamResponse::Task(task.clone())).unwrap();
    same_as_prost(&ListTasksResponse {
        tasks: vec![task.clone(), Task::default(), task],
        ..Default::default()
    })
    .unwrap();
    // 200 levels, each a `Value` holding a `ListValue` holding a `Value`.
    let mut deep = json!("leaf");
    for i in 0..200 {
        deep = json!([deep, {"a": i}]);
    }
    same_as_prost(&Part::data(deep)).unwrap();
}

#[test]
fn map_entries_leave_out_default_keys_and_values_as_prost_does() {
    let requirement = SecurityRequirement {
        schemes: [
            (String::new(), StringList::default()),
            ("oauth".to_owned(), StringList::default()),
            (
                "bearer".to_owned(),
                StringList {
                    list: vec![String::new(), "read".into()],
                },
            ),
        ]
        .into_iter()
        .collect(),
    };
    // The first entry, key "" and an empty list, is an empty entry message.
    assert_eq!(&encode(&requirement)[..2], [0x0a, 0x00]);
    same_as_prost(&requirement).unwrap();
    let flow = AuthorizationCodeOAuthFlow {
        scopes: [
            (String::new(), String::new()),
            ("a".to_owned(), String::new()),
            (String::from("b"), "read b".into()),
        ]
        .into_iter()
        .collect(),
        pkce_required: true,
        ..Default::default()
    };
    same_as_prost(&flow).unwrap();
    let metadata: Struct = serde_json::from_value(json!({
        "": null, "z": 1, "a": {"": []}, "m": [null, -0.0, 1e308, 18446744073709551615u64]
    }))
    .unwrap();
    same_as_prost(&metadata).unwrap();
}

#[test]
fn every_member_of_every_oneof() {
    let stream = [
        StreamResponse::Task(Task::default()),
        StreamResponse::Message(Message::default()),
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent::default()),
        StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent::default()),
    ];
    for value in &stream {
        same_as_prost(value).unwrap();
    }
    same_as_prost(&SendMessageResponse::Task(Task::default())).unwrap();
    same_as_prost(&SendMessageResponse::Message(Message::default())).unwrap();
    for value in [
        json!(null),
        json!(true),
        json!(-2.5),
        json!("s"),
        json!([]),
        json!({}),
    ] {
        same_as_prost(&value).unwrap();
        same_as_prost(&Part::data(value)).unwrap();
    }
}

/// The 1.1 draft's fields: a generation, and a timeline whose entries
/// include one of unknown kind (`entry: None`), written with its
/// generation only.
#[cfg(feature = "draft-1-1")]
#[test]
fn the_drafts_fields_write_prosts_bytes() {
    use a2a_types::draft_1_1::TimelineEntry;
    let task = Task {
        generation: i64::MIN,
        timeline: vec![
            TimelineEntry::message(Message::user_text("m", "hi"), 1),
            TimelineEntry::status(TaskStatus::new(TaskState::Working), -2),
            TimelineEntry {
                entry: None,
                generation: 3,
            },
            TimelineEntry::default(),
        ],
        artifacts: vec![Artifact {
            start_generation: -1,
            end_generation: i64::MAX,
            ..Artifact::text("a", "x")
        }],
        ..Task::new("t", "c", TaskState::Working)
    };
    same_as_prost(&task).unwrap();
    for seed in 0..300 {
        same_as_prost(&TimelineEntry::generate(&mut Gen::new(seed))).unwrap();
    }
}
