//! The `lines` example binary, driven as a user would: the reference agent
//! on a child process's standard input and output, reached through
//! `LineClient` (and, for what a client would never send, raw lines).

use std::process::Stdio;
use std::time::Duration;

use a2a_examples::lines::{LineClient, LineConfig};
use a2a_transport::{A2aService, CallContext};
use a2a_types::{
    ErrorKind, GetTaskRequest, Message, SendMessageRequest, SendMessageResponse, StreamResponse,
    TaskState,
};
use futures_core::Stream;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

fn agent() -> Child {
    Command::new(env!("CARGO_BIN_EXE_lines"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the lines binary starts")
}

async fn next<S: Stream + Unpin>(s: &mut S) -> Option<S::Item> {
    std::future::poll_fn(|cx| std::pin::Pin::new(&mut *s).poll_next(cx)).await
}

#[tokio::test]
async fn operations_and_streams_over_stdio() {
    let mut child = agent();
    let client = LineClient::connect(
        child.stdout.take().unwrap(),
        child.stdin.take().unwrap(),
        LineConfig::new(),
    );
    let cx = CallContext::new();
    let run = async {
        let sent = client
            .send_message(
                &cx,
                SendMessageRequest::new(Message::user_text("m-1", "echo hi")),
            )
            .await
            .unwrap();
        let SendMessageResponse::Task(task) = sent else {
            panic!("echo answers a task")
        };
        assert_eq!(task.status.state, TaskState::Completed);
        assert_eq!(task.artifacts[0].text_content().as_deref(), Some("hi"));

        let got = client
            .get_task(&cx, GetTaskRequest::new(&task.id))
            .await
            .unwrap();
        assert_eq!(got.id, task.id);

        let missing = client
            .get_task(&cx, GetTaskRequest::new("no-such-task"))
            .await
            .unwrap_err();
        assert_eq!(missing.kind(), ErrorKind::TaskNotFound);

        let request = SendMessageRequest::new(Message::user_text("m-2", "stream 3"));
        let mut events = client.send_streaming_message(&cx, request).await.unwrap();
        let mut kinds = Vec::new();
        while let Some(event) = next(&mut events).await {
            kinds.push(match event.unwrap() {
                StreamResponse::Task(_) => "task",
                StreamResponse::Message(_) => "message",
                StreamResponse::StatusUpdate(_) => "status",
                StreamResponse::ArtifactUpdate(_) => "artifact",
            });
        }
        assert_eq!(
            kinds,
            ["task", "status", "artifact", "artifact", "artifact", "status"]
        );
    };
    tokio::time::timeout(Duration::from_secs(20), run)
        .await
        .unwrap();
}

/// Lines a client would not send get the pipeline's errors, in its order:
/// the version before the body, a parse error with id null.
#[tokio::test]
async fn raw_lines_get_the_pipelines_errors() {
    let mut child = agent();
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap()).lines();
    let run = async {
        let no_version = r#"{"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"x"}}"#;
        to.write_all(format!("{no_version}\n").as_bytes())
            .await
            .unwrap();
        let line = from.next_line().await.unwrap().unwrap();
        assert!(
            line.contains(r#""id":7"#) && line.contains("-32009"),
            "{line}"
        );

        let not_json = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"GetTask\",\"a2a-service-parameters\":{\"A2A-Version\":\"1.0\"},\"params\":{";
        to.write_all(format!("{not_json}\n").as_bytes())
            .await
            .unwrap();
        let line = from.next_line().await.unwrap().unwrap();
        assert!(
            line.contains(r#""id":null"#) && line.contains("-32700"),
            "{line}"
        );

        let bad_params = r#"{"jsonrpc":"2.0","id":9,"method":"SendMessage","params":{},"a2a-service-parameters":{"A2A-Version":"1.0"}}"#;
        to.write_all(format!("{bad_params}\n").as_bytes())
            .await
            .unwrap();
        let line = from.next_line().await.unwrap().unwrap();
        assert!(
            line.contains(r#""id":9"#) && line.contains("-32602"),
            "{line}"
        );
    };
    tokio::time::timeout(Duration::from_secs(20), run)
        .await
        .unwrap();
}
