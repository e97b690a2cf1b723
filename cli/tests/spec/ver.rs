//! `VER`: protocol versioning and capabilities (a2a-cli spec §13.2, §13.3).

use serde_json::json;

use crate::common::*;

/// `A2A-Version: 1.0` on every request; an explicit other version is sent
/// as asked and its refusal surfaces; 0.3 is not chosen unless asked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_ver_001() {
    let url = agent(&[]).await;
    for transport in ["jsonrpc", "http+json", "grpc"] {
        let o = a2a(&[
            "send",
            "-a",
            &url,
            "slow 300",
            "--debug",
            "--transport",
            transport,
            "--poll-interval",
            "50ms",
        ])
        .await;
        assert_eq!(o.status.code(), Some(0));
        let log = err(&o);
        let requests =
            log.matches("a2a: debug: > POST ").count() + log.matches("a2a: debug: > GET ").count();
        assert!(requests >= 1, "{log}");
        assert_eq!(
            log.matches("> a2a-version: 1.0").count(),
            requests,
            "{transport}: every request signals 1.0:\n{log}"
        );
    }
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "echo v",
        "--a2a-version",
        "2.0",
        "-o",
        "json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let e: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(at(&e, "/error/code"), "VersionNotSupportedError", "{e}");
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "echo v",
        "--a2a-version",
        "0.3",
        "-o",
        "json",
    ])
    .await;
    assert_eq!(
        o.status.code(),
        Some(1),
        "the agent serves no 0.3: no silent downgrade: {}",
        out(&o)
    );
    assert_eq!(
        at(
            &serde_json::from_str(out(&o).trim()).unwrap(),
            "/error/code"
        ),
        "VersionNotSupportedError"
    );
    // A card offering 0.3 first: 1.0 is still chosen without an opt-in.
    let legacy_first = agent(&["--v0-3"]).await;
    let card = card_file(&legacy_first, |c| {
        let list = c["supportedInterfaces"].as_array_mut().unwrap();
        list.sort_by_key(|i| i["protocolVersion"] != "0.3");
    })
    .await;
    let text = cli()
        .ok(&["card", "get", "-a", card.to_str().unwrap()])
        .await;
    assert!(
        field(&text, "Selected-Transport")
            .unwrap()
            .contains(" 1.0 "),
        "{text}"
    );
}

/// Extensions the caller declares travel in `A2A-Extensions`; a required
/// one the card names is pointed out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_ver_002() {
    let url = agent(&[]).await;
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "echo ext",
        "--extension",
        "https://example.com/ext/a",
        "--extension",
        "https://example.com/ext/b",
        "--debug",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("> a2a-extensions: https://example.com/ext/a, https://example.com/ext/b")
            || err(&o)
                .contains("> a2a-extensions: https://example.com/ext/a,https://example.com/ext/b"),
        "{}",
        err(&o)
    );
    let card = card_file(&url, |c| {
        c["capabilities"]["extensions"] =
            json!([{"uri": "https://example.com/ext/req", "required": true}])
    })
    .await;
    let o = a2a(&["card", "get", "-a", card.to_str().unwrap()]).await;
    assert!(
        out(&o).contains("Extension: https://example.com/ext/req (required)"),
        "{}",
        out(&o)
    );
    let o = a2a(&["send", "-a", card.to_str().unwrap(), "echo r"]).await;
    assert!(
        err(&o).contains("requires the extension https://example.com/ext/req"),
        "{}",
        err(&o)
    );
    let o = a2a(&[
        "send",
        "-a",
        card.to_str().unwrap(),
        "echo r",
        "--extension",
        "https://example.com/ext/req",
        "--debug",
    ])
    .await;
    assert!(!err(&o).contains("requires the extension"), "{}", err(&o));
    assert!(
        err(&o).contains("> a2a-extensions: https://example.com/ext/req"),
        "{}",
        err(&o)
    );
}

/// Capability-gated operations are checked against the card first:
/// streaming, push notifications, the extended card.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_ver_003() {
    let url = agent(&[]).await;
    let card = card_file(&url, |c| {
        c["capabilities"] =
            json!({"streaming": false, "pushNotifications": false, "extendedAgentCard": false});
    })
    .await;
    let c = card.to_str().unwrap();
    let o = a2a(&[
        "send",
        "-a",
        c,
        "echo gated",
        "--stream",
        "-o",
        "json",
        "--debug",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        !err(&o).contains("SendStreamingMessage") && err(&o).contains("\"method\":\"SendMessage\""),
        "{}",
        err(&o)
    );
    assert_eq!(jsonl(&out(&o)).len(), 1);
    let o = a2a(&[
        "task",
        "push-config",
        "create",
        "t-1",
        "--url",
        "http://127.0.0.1:9/h",
        "-a",
        c,
        "--debug",
        "-o",
        "json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        at(
            &serde_json::from_str(out(&o).trim()).unwrap(),
            "/error/code"
        ),
        "PushNotificationNotSupportedError"
    );
    assert!(!err(&o).contains("> POST"), "no call was made: {}", err(&o));
    let o = a2a(&["task", "subscribe", "t-1", "-a", c, "--debug", "-o", "json"]).await;
    assert_eq!(
        at(
            &serde_json::from_str(out(&o).trim()).unwrap(),
            "/error/code"
        ),
        "UnsupportedOperationError"
    );
    assert!(!err(&o).contains("> POST"), "{}", err(&o));
    let o = a2a(&[
        "card",
        "get",
        "-a",
        c,
        "--extended",
        "--bearer",
        "x",
        "-o",
        "json",
    ])
    .await;
    assert_eq!(
        at(
            &serde_json::from_str(out(&o).trim()).unwrap(),
            "/error/code"
        ),
        "ExtendedAgentCardNotConfiguredError"
    );
}
