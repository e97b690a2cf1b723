//! `stream-bench`: streamed events per second on one stream.
//!
//! ```text
//! cargo run --release -p a2a-examples --bin stream-bench -- http://127.0.0.1:8080 [--streams 20] [--chunks 10000] [--binding jsonrpc|rest]
//! ```
//!
//! Opens `--streams` streams one after the other (never two at once), each
//! a `SendStreamingMessage` of the reference agent's `stream <chunks>`
//! command, and reads every event as a client does: SSE decoding, JSON
//! decoding into `StreamResponse`. It prints the events received per
//! second of wall time over all streams, and how many of the events were
//! `Task` snapshots the agent sent instead of updates the client fell too
//! far behind to receive (see `Limits::max_events_per_task`). Used by
//! `scripts/bench-agent`.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use a2a_hyper::HyperClient;
use a2a_transport::{client::Preferences, discover, A2aService, Binding, CallContext};
use a2a_types::{Message, SendMessageRequest, StreamResponse, TaskState};
use futures_util::StreamExt;

const USAGE: &str =
    "usage: stream-bench <agent base URL> [--streams N] [--chunks N] [--binding jsonrpc|rest]";

#[tokio::main]
async fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("stream-bench: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stream-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(o: &Options) -> Result<(), String> {
    let prefs = Preferences::new().with_bindings([o.binding]);
    let agent = discover(HyperClient::new(), &o.url, &prefs)
        .await
        .map_err(|e| e.to_string())?;
    let cx = CallContext::new();
    let (mut events, mut snapshots, mut chunks) = (0u64, 0u64, 0u64);
    let mut fastest = Duration::MAX;
    let started = Instant::now();
    for i in 0..o.streams {
        let one = Instant::now();
        let message = Message::user_text(format!("bench-{i}"), format!("stream {}", o.chunks));
        let mut stream = agent
            .transport
            .send_streaming_message(&cx, SendMessageRequest::new(message))
            .await
            .map_err(|e| e.to_string())?;
        let mut last = TaskState::Unspecified;
        let mut first = true;
        while let Some(event) = stream.next().await {
            events += 1;
            match event.map_err(|e| e.to_string())? {
                StreamResponse::Task(t) => {
                    snapshots += u64::from(!first);
                    last = t.status.state;
                }
                StreamResponse::StatusUpdate(s) => last = s.status.state,
                StreamResponse::ArtifactUpdate(_) => chunks += 1,
                StreamResponse::Message(_) => {}
            }
            first = false;
        }
        if last != TaskState::Completed {
            return Err(format!("stream {i} ended in {last}, not COMPLETED"));
        }
        fastest = fastest.min(one.elapsed());
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "stream-bench: {} over {}: {} streams of `stream {}` one after another: \
         {events} events ({chunks} artifact chunks, {snapshots} catch-up snapshots) in {seconds:.3} s \
         = {:.0} events/s (fastest stream {:.0} events/s)",
        o.binding,
        agent.interface.url,
        o.streams,
        o.chunks,
        events as f64 / seconds,
        (events / u64::from(o.streams.max(1))) as f64 / fastest.as_secs_f64(),
    );
    Ok(())
}

struct Options {
    url: String,
    streams: u32,
    chunks: u32,
    binding: Binding,
}

impl Options {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
        let mut o = Options {
            url: String::new(),
            streams: 20,
            chunks: 10_000,
            binding: Binding::JsonRpc,
        };
        while let Some(arg) = args.next() {
            let mut number = |flag: &str| -> Result<u32, String> {
                let v = args.next().ok_or(format!("{flag} needs a value"))?;
                v.parse()
                    .map_err(|_| format!("{flag} {v:?} is not a number"))
            };
            match arg.as_str() {
                "--streams" => o.streams = number("--streams")?.max(1),
                "--chunks" => o.chunks = number("--chunks")?,
                "--binding" => {
                    o.binding = match args.next().as_deref() {
                        Some("jsonrpc") => Binding::JsonRpc,
                        Some("rest") => Binding::HttpJson,
                        other => return Err(format!("--binding {other:?}: say jsonrpc or rest")),
                    }
                }
                "-h" | "--help" => return Ok(None),
                _ if o.url.is_empty() && !arg.starts_with('-') => o.url = arg,
                _ => return Err(format!("unexpected argument {arg:?}")),
            }
        }
        if o.url.is_empty() {
            return Err("the agent's base URL is missing".to_owned());
        }
        Ok(Some(o))
    }
}
