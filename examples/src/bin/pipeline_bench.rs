//! The two servers `scripts/bench-agent` measures beside the reference
//! agent, on the same hyper host, to price the library's pipeline:
//!
//! - `--mode floor --body FILE`: hyper (hyper-util's auto builder, as
//!   `a2a_hyper::serve` runs it) answering every request with the bytes of
//!   FILE as `application/json`, after reading the request body; no A2A
//!   work at all (the HTTP floor).
//! - `--mode constant --task FILE`: [`constant_server`] answering the Task
//!   in FILE (ProtoJSON), served by `a2a_hyper::serve`; every other step
//!   is the library's (routing, version, decoding, validation, encoding).
//!
//! ```text
//! pipeline-bench --mode floor --body answer.json --port 18181
//! pipeline-bench --mode constant --task task.json --port 18182
//! ```

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use a2a_examples::constant::constant_server;
use a2a_hyper::{serve, ServeOptions};
use a2a_types::Task;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;

fn usage() -> ! {
    eprintln!("usage: pipeline-bench --mode floor|constant --port N (--body FILE | --task FILE)");
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut mode = String::new();
    let mut port = 0u16;
    let mut file = String::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--mode" => mode = value,
            "--port" => port = value.parse().unwrap_or_else(|_| usage()),
            "--body" | "--task" => file = value,
            _ => usage(),
        }
    }
    let bytes = std::fs::read(&file)?;
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await?;
    match mode.as_str() {
        "floor" => floor(listener, Bytes::from(bytes)).await,
        "constant" => {
            let task: Task = a2a_types::from_slice(&bytes).map_err(std::io::Error::other)?;
            let server = constant_server(task, &format!("http://127.0.0.1:{port}"))
                .map_err(std::io::Error::other)?;
            serve(
                listener,
                Arc::new(server),
                ServeOptions::default(),
                std::future::pending(),
            )
            .await;
            Ok(())
        }
        _ => usage(),
    }
}

async fn floor(listener: TcpListener, body: Bytes) -> std::io::Result<()> {
    loop {
        let (stream, _) = listener.accept().await?;
        let body = body.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request: Request<hyper::body::Incoming>| {
                let body = body.clone();
                async move {
                    // Read the request as the A2A servers do.
                    let _ = request.into_body().collect().await;
                    let mut response = Response::new(Full::new(body));
                    response.headers_mut().insert(
                        http::header::CONTENT_TYPE,
                        http::HeaderValue::from_static("application/json"),
                    );
                    Ok::<_, Infallible>(response)
                }
            });
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
