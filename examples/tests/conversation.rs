//! The examples end to end over real loopback HTTP: `a2a_hyper::serve`
//! with the reference agent behind it on 127.0.0.1:0, discovered through
//! `a2a_hyper::HyperClient`, and the whole conversation on each binding,
//! checked for what came back.

use a2a_examples::server::reference_agent;
use a2a_examples::{converse, Transcript};
use a2a_hyper::{serve, server_config, HyperClient, ServeOptions};
use a2a_transport::{client::Preferences, discover, Binding, CallContext};
use a2a_types::{StreamResponse, TaskState};
use tokio::net::TcpListener;

/// Serves the reference agent on a free loopback port; answers its base URL.
async fn start() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}", listener.local_addr().unwrap());
    let server = reference_agent(&base_url, server_config()).unwrap();
    let forever = std::future::pending();
    tokio::spawn(serve(listener, server, ServeOptions::default(), forever));
    base_url
}

/// Discovers the agent at `base_url` preferring `binding`, runs the
/// conversation, and answers what it saw and printed.
async fn talk(base_url: &str, prefs: &Preferences) -> (Binding, Transcript, Vec<String>) {
    let agent = discover(HyperClient::new(), base_url, prefs).await.unwrap();
    let mut lines = Vec::new();
    let transcript = converse(&agent.transport, &CallContext::new(), &mut |l| {
        lines.push(l)
    })
    .await
    .unwrap();
    (agent.transport.binding(), transcript, lines)
}

fn check(t: &Transcript, lines: &[String]) {
    // send: the echo task, finished (blocking), in a context the agent chose.
    assert!(!t.context_id.is_empty());
    assert_eq!(t.echo.context_id, t.context_id);
    assert_eq!(t.echo.status.state, TaskState::Completed);
    assert_eq!(
        t.echo.artifacts[0].text_content().as_deref(),
        Some("hello from the example")
    );

    // stream: Task, WORKING, three chunks of one artifact, COMPLETED, all
    // about one new task of the same context.
    let kinds: Vec<String> = t
        .stream
        .iter()
        .map(|e| match e {
            StreamResponse::Task(task) => format!("task {}", task.status.state),
            StreamResponse::StatusUpdate(s) => format!("status {}", s.status.state),
            StreamResponse::ArtifactUpdate(a) => format!(
                "artifact {:?} append={} last={}",
                a.artifact.text_content().unwrap_or_default(),
                a.append,
                a.last_chunk
            ),
            StreamResponse::Message(_) => "message".to_owned(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "task TASK_STATE_SUBMITTED",
            "status TASK_STATE_WORKING",
            "artifact \"chunk 1 \" append=false last=false",
            "artifact \"chunk 2 \" append=true last=false",
            "artifact \"chunk 3 \" append=true last=true",
            "status TASK_STATE_COMPLETED",
        ]
    );
    let StreamResponse::Task(streamed) = &t.stream[0] else {
        unreachable!()
    };
    assert_ne!(streamed.id, t.echo.id);
    assert_eq!(streamed.context_id, t.context_id);
    assert!(t.stream.iter().all(|e| e.task_id() == Some(&streamed.id)));

    // get: the echo task again, its history cut to the latest message.
    assert_eq!(t.fetched.id, t.echo.id);
    assert_eq!(t.fetched.status.state, TaskState::Completed);
    assert_eq!(t.fetched.history.len(), 1);
    assert_eq!(t.fetched.artifacts, t.echo.artifacts);

    // cancel: the slow task answered at once, then canceled.
    assert!(matches!(
        t.slow.status.state,
        TaskState::Submitted | TaskState::Working
    ));
    assert_eq!(t.canceled.id, t.slow.id);
    assert_eq!(t.canceled.status.state, TaskState::Canceled);

    // list: the context's three tasks, newest status first, two per page.
    assert_eq!(t.total_size, 3);
    assert_eq!(
        t.pages,
        [
            vec![t.slow.id.clone(), streamed.id.clone()],
            vec![t.echo.id.clone()]
        ]
    );

    // And what was printed says so, one line per step or event.
    assert_eq!(lines.len(), 12, "{lines:#?}");
    assert_eq!(
        lines[0],
        format!(
            "send    echo \"hello from the example\" -> task {} COMPLETED, artifact \"hello from the example\"",
            t.echo.id
        )
    );
    assert_eq!(lines[1], format!("stream  task {} SUBMITTED", streamed.id));
    assert_eq!(
        lines[5],
        "stream  artifact \"stream\" \"chunk 3 \" (append, last chunk)"
    );
    assert_eq!(
        lines[7],
        format!(
            "get     task {} COMPLETED, 1 history message(s), 1 artifact(s)",
            t.echo.id
        )
    );
    assert_eq!(lines[9], format!("cancel  task {} -> CANCELED", t.slow.id));
    assert_eq!(
        lines[11],
        format!("list    page 2: {} COMPLETED (of 3)", t.echo.id)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_conversation_over_json_rpc() {
    let base_url = start().await;
    let prefs = Preferences::new().with_bindings([Binding::JsonRpc]);
    let (binding, transcript, lines) = talk(&base_url, &prefs).await;
    assert_eq!(binding, Binding::JsonRpc);
    check(&transcript, &lines);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_conversation_over_http_json() {
    let base_url = start().await;
    let prefs = Preferences::new().with_bindings([Binding::HttpJson]);
    let (binding, transcript, lines) = talk(&base_url, &prefs).await;
    assert_eq!(binding, Binding::HttpJson);
    check(&transcript, &lines);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_preference_the_cards_first_interface_wins() {
    let base_url = start().await;
    let agent = discover(HyperClient::new(), &base_url, &Preferences::new())
        .await
        .unwrap();
    assert_eq!(agent.interface.protocol_binding, "JSONRPC");
    assert_eq!(agent.interface.url, format!("{base_url}/"));
    assert_eq!(agent.card.name, "A2A reference agent");
    // Two conversations in one server keep their contexts apart.
    let (_, first, _) = talk(&base_url, &Preferences::new()).await;
    let (_, second, _) = talk(&base_url, &Preferences::new()).await;
    assert_ne!(first.context_id, second.context_id);
    assert_eq!(second.total_size, 3);
}
