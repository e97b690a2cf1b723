//! What a host needs from the server to plug it into a real HTTP stack:
//! it can be shared across threads, its futures and bodies can be spawned
//! on a multi-threaded runtime, and it works over a `dyn` handler.

use std::sync::Arc;

use a2a_server::{A2aServer, A2aService, Body, ServerConfig};
use bytes::Bytes;
use http::Request;

use crate::support::*;

fn assert_send_sync<T: Send + Sync>(_: &T) {}
fn assert_send<T: Send>(_: &T) {}

#[test]
fn the_server_its_futures_and_bodies_are_send() {
    let handler: Arc<dyn A2aService> = Arc::new(Memory::default());
    let server = A2aServer::new(handler, full_card(), ServerConfig::new()).unwrap();
    assert_send_sync(&server);
    let future = server.handle(Request::get("/tasks").body(Bytes::new()).unwrap());
    assert_send(&future);
    let response = block_on(future);
    assert_eq!(response.status(), 400, "no A2A-Version: 0.3 is not served");
    let body: Body = response.into_body();
    assert_send(&body);
}

#[test]
fn one_server_answers_from_many_threads() {
    let server = Arc::new(memory_server());
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let server = Arc::clone(&server);
            std::thread::spawn(move || {
                for j in 0..25 {
                    let params =
                        serde_json::json!({"message": user_message(&format!("m{i}-{j}"), "hi")});
                    let a = rpc(&server, "SendMessage", params, &[]);
                    assert!(result(&a)["task"]["id"].is_string());
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let a = rest(&server, http::Method::GET, "/tasks?pageSize=100", None, &[]);
    assert_eq!(ok(&a)["totalSize"], 100);
}
