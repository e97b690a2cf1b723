//! The connection cap against the open-file limit: a server whose process
//! may hold only 128 files (soft and hard) lowers its cap of 1,024 to 64
//! at start and says so, so that idle connections are shed and a new
//! caller is served. With the cap above the limit, accepting fails
//! (`EMFILE`) before the cap is reached, nothing is shed, and the new
//! caller waits in the backlog for ever.
//!
//! The server runs in a child process (this test binary again, told so by
//! an environment variable), since a lowered hard limit cannot be raised
//! again and the client's own connections must not count against it.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use a2a_hyper::{serve, server_config, ServeOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CHILD: &str = "A2A_HYPER_FD_LIMIT_CHILD";
const TEST: &str = "a_low_open_file_limit_lowers_the_cap_so_idle_connections_are_shed";
/// The child's open-file limit, soft and hard.
const FILES: u64 = 128;

#[test]
fn a_low_open_file_limit_lowers_the_cap_so_idle_connections_are_shed() {
    if std::env::var_os(CHILD).is_some() {
        return child();
    }
    let mut server = Command::new(std::env::current_exe().unwrap())
        .args([TEST, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let (mut addr, mut notice) = (None, None);
    for line in lines.by_ref() {
        let line = line.unwrap();
        // The harness may have begun the line (`test ... ... `).
        if let Some(at) = line.find("notice: ") {
            notice = Some(line[at + "notice: ".len()..].to_owned());
        }
        if let Some(at) = line.find("listening on ") {
            addr = Some(line[at + "listening on ".len()..].to_owned());
            break;
        }
    }
    let addr = addr.expect("the child serves");
    let notice = notice.expect("the lowered cap is said");
    assert!(
        notice.contains(&format!("open-file limit is {FILES}"))
            && notice.contains("at most 64 connections at once, not 1024"),
        "{notice}"
    );

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let status = runtime.block_on(async {
        // More idle connections than the child has files.
        let mut idle = Vec::new();
        for _ in 0..FILES + 32 {
            idle.push(TcpStream::connect(&addr).await.unwrap());
        }
        let mut caller = TcpStream::connect(&addr).await.unwrap();
        caller
            .write_all(b"GET /.well-known/agent-card.json HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut head = vec![0; 12];
        let read = tokio::time::timeout(Duration::from_secs(5), caller.read_exact(&mut head)).await;
        drop(idle);
        read.map(|_| String::from_utf8_lossy(&head).into_owned())
    });
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(
        status.expect("the new caller is served within 5 s"),
        "HTTP/1.1 200"
    );
}

/// The server side: `FILES` open files at most, the default limits, the
/// notices and the address on stdout; it stops after 30 s at the latest.
fn child() {
    rlimit::setrlimit(rlimit::Resource::NOFILE, FILES, FILES).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::sync::Arc::new(
            a2a_transport::A2aServer::new(support::Agent, support::card(), server_config())
                .unwrap(),
        );
        let options = ServeOptions::default().with_notice(|line| println!("notice: {line}"));
        let stats = options.stats();
        let serving = tokio::spawn(serve(listener, server, options, async {
            tokio::time::sleep(Duration::from_secs(30)).await;
        }));
        while stats.max_connections() == 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(stats.max_connections(), 64);
        println!("listening on {addr}");
        serving.await.unwrap();
    });
}
