//! The task path alone: blocking `echo hi` SendMessage calls (or
//! `stream 20` streams) straight into the reference agent, no HTTP. Its
//! instruction count per call is what a change to the agent kit's task
//! path moves, whatever else the machine is doing:
//!
//! ```text
//! cargo build --release -p a2a-reference-agent --example task_path
//! valgrind --tool=callgrind target/release/examples/task_path 5000 [send|stream]
//! ```
use a2a_reference_agent::{
    A2aService, AgentConfig, CallContext, RecordingPushSender, ReferenceAgent,
};
use a2a_types::{Message, SendMessageRequest};
use std::sync::Arc;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let mode = std::env::args().nth(2).unwrap_or_else(|| "send".into());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let agent =
            ReferenceAgent::new(AgentConfig::default(), Arc::new(RecordingPushSender::new()));
        let cx = CallContext::new();
        let start = std::time::Instant::now();
        for i in 0..n {
            let text = if mode == "stream" {
                "stream 20"
            } else {
                "echo hi"
            };
            let request = SendMessageRequest::new(Message::user_text(format!("m-{i}"), text));
            if mode == "stream" {
                let mut s = agent.send_streaming_message(&cx, request).await.unwrap();
                while let Some(item) = std::future::poll_fn(|c| s.as_mut().poll_next(c)).await {
                    item.unwrap();
                }
            } else {
                agent.send_message(&cx, request).await.unwrap();
            }
        }
        let el = start.elapsed();
        println!(
            "{mode}: {n} calls in {:.3} s = {:.2} us/call",
            el.as_secs_f64(),
            el.as_secs_f64() * 1e6 / n as f64
        );
    });
}
