//! `TX`: transport selection (a2a-cli spec §13.1).

use serde_json::json;

use crate::common::*;

/// The transport comes from the card, in its declared order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_tx_001() {
    let url = agent(&[]).await;
    let text = cli().ok(&["card", "get", "-a", &url]).await;
    assert!(
        field(&text, "Selected-Transport")
            .unwrap()
            .starts_with("JSONRPC"),
        "{text}"
    );
    let rest_first = card_file(&url, |c| {
        let list = c["supportedInterfaces"].as_array_mut().unwrap();
        list.reverse();
        list.swap(0, 1);
    })
    .await;
    let text = cli()
        .ok(&["card", "get", "-a", rest_first.to_str().unwrap()])
        .await;
    assert!(
        field(&text, "Selected-Transport")
            .unwrap()
            .starts_with("HTTP+JSON"),
        "{text}"
    );
    let o = a2a(&[
        "send",
        "-a",
        rest_first.to_str().unwrap(),
        "echo order",
        "--debug",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0));
    assert!(err(&o).contains("interface HTTP+JSON 1.0"), "{}", err(&o));
    assert!(err(&o).contains("/message:stream"), "{}", err(&o));
}

/// Absent a preference the first entry this tool supports is used;
/// `--transport` repeats, most preferred first, skipping bindings the
/// card lacks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_tx_002() {
    let url = agent(&[]).await;
    let odd_first = card_file(&url, |c| {
        let list = c["supportedInterfaces"].as_array_mut().unwrap();
        list.insert(0, json!({"url": "http://127.0.0.1:1/soap", "protocolBinding": "SOAP", "protocolVersion": "1.0"}));
    })
    .await;
    let text = cli()
        .ok(&["card", "get", "-a", odd_first.to_str().unwrap()])
        .await;
    assert!(
        field(&text, "Selected-Transport")
            .unwrap()
            .starts_with("JSONRPC"),
        "{text}"
    );
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "echo pref",
        "--transport",
        "grpc",
        "--transport",
        "jsonrpc",
        "--debug",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("interface GRPC 1.0") && err(&o).contains("grpc > jsonrpc"),
        "{}",
        err(&o)
    );
    let rest_only = card_file(&url, |c| {
        let list = c["supportedInterfaces"].as_array_mut().unwrap();
        list.retain(|i| i["protocolBinding"] == "HTTP+JSON");
    })
    .await;
    let o = a2a(&[
        "send",
        "-a",
        rest_only.to_str().unwrap(),
        "echo skip",
        "--transport",
        "grpc",
        "--transport",
        "http+json",
        "--debug",
    ])
    .await;
    assert!(err(&o).contains("interface HTTP+JSON"), "{}", err(&o));
    let o = a2a(&[
        "send",
        "-a",
        rest_only.to_str().unwrap(),
        "echo fallback",
        "--transport",
        "grpc",
        "--debug",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0));
    assert!(
        err(&o).contains("using the card's order") && err(&o).contains("interface HTTP+JSON"),
        "{}",
        err(&o)
    );
    let o = cli()
        .env("A2ACLI_TRANSPORT", "grpc,jsonrpc")
        .run(&["send", "-a", &url, "echo env", "--debug"])
        .await;
    assert!(err(&o).contains("interface GRPC"), "{}", err(&o));
    let o = a2a(&["send", "-a", &url, "x", "--transport", "soap"]).await;
    assert_eq!(o.status.code(), Some(2));
}

/// The selected interface's tenant goes in every request, exactly as
/// declared; it is absent when the interface declares none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_tx_003() {
    let url = agent(&[]).await;
    let tenanted = card_file(&url, |c| {
        for i in c["supportedInterfaces"].as_array_mut().unwrap() {
            i["tenant"] = json!("acme-7");
        }
    })
    .await;
    let t = tenanted.to_str().unwrap();
    let o = a2a(&[
        "send",
        "-a",
        t,
        "echo tenant",
        "--debug",
        "-o",
        "json",
        "--transport",
        "jsonrpc",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("\"tenant\":\"acme-7\""), "{}", err(&o));
    let id = task_id(&serde_json::from_str(out(&o).trim()).unwrap());
    for transport in ["jsonrpc", "http+json", "grpc"] {
        let got = cli()
            .json(&["task", "get", &id, "-a", t, "--transport", transport])
            .await;
        assert_eq!(at(&got, "/id"), id, "{transport}");
    }
    let o = a2a(&[
        "task",
        "get",
        &id,
        "-a",
        &url,
        "--debug",
        "--transport",
        "jsonrpc",
    ])
    .await;
    assert_eq!(
        o.status.code(),
        Some(1),
        "another tenant's task is not found"
    );
    assert!(
        !err(&o).contains("\"tenant\""),
        "no tenant declared, none sent: {}",
        err(&o)
    );
    let o = a2a(&[
        "task",
        "get",
        &id,
        "-a",
        t,
        "--debug",
        "--transport",
        "http+json",
    ])
    .await;
    assert!(err(&o).contains("/acme-7/tasks/"), "{}", err(&o));
}

/// At least two transports, each selectable and working.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_tx_004() {
    let url = agent(&[]).await;
    for (transport, path) in [
        ("jsonrpc", "\"method\":\"SendStreamingMessage\""),
        ("http+json", "/message:stream"),
        ("rest", "/message:stream"),
    ] {
        let o = a2a(&[
            "send",
            "-a",
            &url,
            "echo both",
            "--transport",
            transport,
            "--debug",
            "-o",
            "json",
        ])
        .await;
        assert_eq!(o.status.code(), Some(0), "{transport}: {}", err(&o));
        assert!(err(&o).contains(path), "{transport}: {}", err(&o));
    }
}

/// gRPC: the binding over HTTP/2, for every command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_tx_005() {
    let url = agent(&[]).await;
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "echo grpc",
        "--transport",
        "grpc",
        "--debug",
        "-o",
        "json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("lf.a2a.v1.A2AService/SendStreamingMessage")
            && err(&o).contains("HTTP/2.0"),
        "{}",
        err(&o)
    );
    // --debug decodes the binary messages: the request and each event.
    assert!(
        err(&o).contains("> [gRPC message] {\"message\":"),
        "{}",
        err(&o)
    );
    assert!(
        err(&o).contains("< [gRPC message] {\"statusUpdate\":"),
        "{}",
        err(&o)
    );
    let id = task_id(&serde_json::from_str(out(&o).trim()).unwrap());
    let got = cli()
        .json(&["task", "get", &id, "-a", &url, "--transport", "grpc"])
        .await;
    assert_eq!(at(&got, "/artifacts/0/parts/0/text"), "grpc");
    let lines = jsonl(
        &cli()
            .ok(&[
                "send",
                "-a",
                &url,
                "stream 2",
                "--stream",
                "-o",
                "json",
                "--transport",
                "grpc",
            ])
            .await,
    );
    assert_eq!(
        at(lines.last().unwrap(), "/statusUpdate/status/state"),
        "TASK_STATE_COMPLETED"
    );
    let listed = cli()
        .json(&["task", "list", "-a", &url, "--transport", "grpc"])
        .await;
    assert!(!listed["tasks"].as_array().unwrap().is_empty());
}
