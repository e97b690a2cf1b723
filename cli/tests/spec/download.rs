//! `DOWNLOAD`: saving artifacts (a2a-cli spec §7.1).

use crate::common::*;

/// `task download` saves every artifact part: files by name, text and
/// data by kind; an existing file is not overwritten.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_download_001() {
    let url = agent(&[]).await;
    let dir = temp_dir("downloads");
    let d = dir.to_str().unwrap();
    let file = cli()
        .json(&[
            "send",
            "-a",
            &url,
            "x",
            "--message-id",
            "tck-artifact-file-2",
        ])
        .await;
    let text = cli()
        .ok(&["task", "download", &task_id(&file), "-a", &url, "--dir", d])
        .await;
    assert_eq!(field(&text, "Files"), Some("1"), "{text}");
    assert_eq!(std::fs::read(dir.join("output.txt")).unwrap(), b"tck");
    cli()
        .ok(&["task", "download", &task_id(&file), "-a", &url, "--dir", d])
        .await;
    assert_eq!(std::fs::read(dir.join("output.txt")).unwrap(), b"tck");
    assert_eq!(
        std::fs::read(dir.join("2-output.txt")).unwrap(),
        b"tck",
        "not overwritten"
    );
    let data = cli()
        .json(&[
            "send",
            "-a",
            &url,
            "x",
            "--message-id",
            "tck-artifact-data-2",
        ])
        .await;
    cli()
        .ok(&["task", "download", &task_id(&data), "-a", &url, "--dir", d])
        .await;
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("output-1.json")).unwrap()).unwrap();
    assert_eq!(saved["count"], 42);
    let echo = cli().json(&["send", "-a", &url, "echo saved text"]).await;
    let o = a2a(&[
        "task",
        "download",
        &task_id(&echo),
        "-a",
        &url,
        "--dir",
        d,
        "-o",
        "json",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        at(&serde_json::from_str(out(&o).trim()).unwrap(), "/id"),
        task_id(&echo)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("echo-1.txt")).unwrap(),
        "saved text"
    );
}
