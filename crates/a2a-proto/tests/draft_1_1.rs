//! The 1.1 draft's fields in protobuf (`--features draft-1-1`): they
//! survive the trip through bytes, and they travel under the draft proto's
//! field numbers (checked on the bytes themselves, not only through the
//! generated code).

#![cfg(feature = "draft-1-1")]

use a2a_proto::pb;
use a2a_proto::prost::Message as _;
use a2a_types::draft_1_1::TimelineEntry;
use a2a_types::{
    Artifact, GetTaskRequest, ListTasksRequest, Message, SendMessageConfiguration, Task,
    TaskArtifactUpdateEvent, TaskState, TaskStatus, TaskStatusUpdateEvent,
};

/// The top-level fields of a protobuf message: (number, wire type, the
/// varint's value or the length-delimited payload).
fn fields(mut bytes: &[u8]) -> Vec<(u64, u64, u64, Vec<u8>)> {
    fn varint(bytes: &mut &[u8]) -> u64 {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let (&b, rest) = bytes.split_first().expect("truncated varint");
            *bytes = rest;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                break;
            }
        }
        value
    }
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let key = varint(&mut bytes);
        let (number, wire) = (key >> 3, key & 7);
        match wire {
            0 => out.push((number, wire, varint(&mut bytes), Vec::new())),
            2 => {
                let len = varint(&mut bytes) as usize;
                let (payload, rest) = bytes.split_at(len);
                out.push((number, wire, 0, payload.to_vec()));
                bytes = rest;
            }
            _ => panic!("unexpected wire type {wire} for field {number}"),
        }
    }
    out
}

fn task() -> Task {
    let mut status_message = Message::agent_text("m-2", "working on it");
    status_message.task_id = "t-1".into();
    Task {
        id: "t-1".into(),
        context_id: "c-1".into(),
        status: TaskStatus::new(TaskState::Working),
        artifacts: vec![Artifact {
            start_generation: 5,
            end_generation: 6,
            ..Artifact::text("a-1", "result")
        }],
        history: vec![Message::user_text("m-1", "hello")],
        timeline: vec![
            TimelineEntry::message(Message::user_text("m-1", "hello"), 2),
            TimelineEntry::status(
                TaskStatus::new(TaskState::Working).with_message(status_message),
                3,
            ),
            // A kind a later version adds: no member this crate knows.
            TimelineEntry {
                entry: None,
                generation: 4,
            },
        ],
        generation: 7,
        ..Default::default()
    }
}

#[test]
fn a_task_with_generation_timeline_and_artifact_generations_round_trips() {
    let task = task();
    let bytes = a2a_proto::encode(&task);
    let back: Task = a2a_proto::decode(&bytes).expect("our bytes decode");
    assert_eq!(back, task);

    // The generated draft message sees the fields where the draft puts them.
    let message = pb::Task::decode(bytes.as_slice()).expect("a pb::Task");
    assert_eq!(message.generation, 7);
    assert_eq!(message.timeline.len(), 3);
    assert!(matches!(
        &message.timeline[0].entry,
        Some(pb::timeline_entry::Entry::Message(m)) if m.message_id == "m-1"
    ));
    assert!(matches!(
        &message.timeline[1].entry,
        Some(pb::timeline_entry::Entry::Status(s)) if s.message.as_ref().is_some_and(|m| m.message_id == "m-2")
    ));
    assert_eq!(message.timeline[2].entry, None);
    let generations: Vec<i64> = message.timeline.iter().map(|e| e.generation).collect();
    assert_eq!(generations, [2, 3, 4]);
    assert_eq!(message.artifacts[0].start_generation, 5);
    assert_eq!(message.artifacts[0].end_generation, 6);

    // And on the bytes: Task.generation is field 7 (varint), Task.timeline
    // field 8, TimelineEntry.message 1, .status 2, .generation 3,
    // Artifact.start_generation 7 and .end_generation 8.
    let top = fields(&bytes);
    assert!(top.contains(&(7, 0, 7, Vec::new())), "{top:?}");
    let timeline: Vec<&Vec<u8>> = top
        .iter()
        .filter(|f| f.0 == 8 && f.1 == 2)
        .map(|f| &f.3)
        .collect();
    assert_eq!(timeline.len(), 3);
    let numbers =
        |entry: &[u8]| -> Vec<(u64, u64)> { fields(entry).iter().map(|f| (f.0, f.1)).collect() };
    assert_eq!(numbers(timeline[0]), [(1, 2), (3, 0)]);
    assert_eq!(numbers(timeline[1]), [(2, 2), (3, 0)]);
    // The unknown-kind entry is its generation alone: tag 3 varint, 4.
    assert_eq!(timeline[2].as_slice(), [0x18, 0x04]);
    let artifact = top.iter().find(|f| f.0 == 4).expect("an artifact");
    let artifact = fields(&artifact.3);
    assert!(artifact.contains(&(7, 0, 5, Vec::new())), "{artifact:?}");
    assert!(artifact.contains(&(8, 0, 6, Vec::new())), "{artifact:?}");
}

#[test]
fn an_entry_of_a_later_kind_reads_as_unknown_with_its_generation() {
    // TimelineEntry with field 9 (length-delimited, not in the draft) and
    // generation 4.
    let entry = [0x4a, 0x01, 0x00, 0x18, 0x04];
    // Task { timeline: [entry] }: field 8, length 5.
    let mut bytes = vec![0x42, entry.len() as u8];
    bytes.extend_from_slice(&entry);
    let task: Task = a2a_proto::decode(&bytes).expect("an unknown kind is kept");
    assert_eq!(
        task.timeline,
        [TimelineEntry {
            entry: None,
            generation: 4,
        }]
    );
    // A known member with a bad value is still an error, with its path.
    let entry = pb::TimelineEntry {
        entry: Some(pb::timeline_entry::Entry::Status(pb::TaskStatus {
            state: 99,
            ..Default::default()
        })),
        generation: 1,
    };
    let bytes = pb::Task {
        timeline: vec![entry],
        ..Default::default()
    }
    .encode_to_vec();
    let err = a2a_proto::decode::<Task>(&bytes).unwrap_err();
    assert_eq!(err.path(), "timeline[0].status.state");
}

/// The other draft fields, each alone, encode to exactly the draft's tag
/// and value (explicit presence: an `optional` set to 0 is written).
#[test]
fn the_other_draft_fields_have_the_draft_numbers() {
    let cases: Vec<(&str, Vec<u8>, Vec<u8>)> = vec![
        (
            "SendMessageConfiguration.if_generation_match = 5",
            a2a_proto::encode(&SendMessageConfiguration {
                if_generation_match: Some(0),
                ..Default::default()
            }),
            vec![0x28, 0x00],
        ),
        (
            "SendMessageConfiguration.timeline_length = 6",
            a2a_proto::encode(&SendMessageConfiguration {
                timeline_length: Some(2),
                ..Default::default()
            }),
            vec![0x30, 0x02],
        ),
        (
            "GetTaskRequest.current_generation = 4",
            a2a_proto::encode(&GetTaskRequest {
                current_generation: Some(3),
                ..Default::default()
            }),
            vec![0x20, 0x03],
        ),
        (
            "GetTaskRequest.timeline_length = 5",
            a2a_proto::encode(&GetTaskRequest {
                timeline_length: Some(0),
                ..Default::default()
            }),
            vec![0x28, 0x00],
        ),
        (
            "ListTasksRequest.timeline_length = 9",
            a2a_proto::encode(&ListTasksRequest {
                timeline_length: Some(1),
                ..Default::default()
            }),
            vec![0x48, 0x01],
        ),
    ];
    for (what, have, want) in cases {
        assert_eq!(have, want, "{what}");
    }
    // Events: REQUIRED status/artifact are written too (field 3 / 3, empty
    // message), then the generation.
    let status_event = a2a_proto::encode(&TaskStatusUpdateEvent {
        generation: 2,
        ..Default::default()
    });
    assert_eq!(
        status_event,
        [0x1a, 0x00, 0x28, 0x02],
        "TaskStatusUpdateEvent.generation = 5"
    );
    let artifact_event = a2a_proto::encode(&TaskArtifactUpdateEvent {
        generation: 2,
        ..Default::default()
    });
    assert_eq!(
        artifact_event,
        [0x1a, 0x00, 0x38, 0x02],
        "TaskArtifactUpdateEvent.generation = 7"
    );
    // A negative int64 is ten varint bytes, and comes back.
    let back: GetTaskRequest = a2a_proto::decode(&a2a_proto::encode(&GetTaskRequest {
        current_generation: Some(i64::MIN),
        ..Default::default()
    }))
    .unwrap();
    assert_eq!(back.current_generation, Some(i64::MIN));
}
