//! The constant-answer server `scripts/bench-agent` measures as (b) is a
//! valid server and answers SendMessage with its Task, byte for byte what
//! the reference agent's answer carries (the bench compares the two at the
//! same response size).

use a2a_examples::constant::constant_server;
use a2a_types::{Task, TaskState, TaskStatus};
use bytes::Bytes;
use http::Request;

#[tokio::test]
async fn answers_send_message_with_its_task() {
    let task = Task {
        id: "task-1".into(),
        context_id: "ctx-1".into(),
        status: TaskStatus::new(TaskState::Completed),
        ..Task::default()
    };
    let server = constant_server(task.clone(), "http://127.0.0.1:18181").unwrap();
    let body = r#"{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"echo hi"}]}}}"#;
    let request = Request::post("/")
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Bytes::from(body))
        .unwrap();
    let response = server.handle(request).await;
    assert_eq!(response.status(), 200);
    let bytes = response.into_body().into_bytes().unwrap();
    let answer: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(answer["id"], 7);
    let answered: Task = serde_json::from_value(answer["result"]["task"].clone()).unwrap();
    assert_eq!(answered, task);
}
