//! `a2a-reference-agent`: the reference agent on HTTP. See `--help` and
//! the crate README.

use a2a_reference_agent::cli::{Options, Parsed, USAGE};

#[tokio::main]
async fn main() {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(Parsed::Run(options)) => options,
        Ok(Parsed::Help) => {
            println!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("a2a-reference-agent: {e}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    if options.trace {
        // Each span is printed when it closes, with its fields.
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
            .init();
    }
    // Every connection is a file descriptor; the soft limit is often 1024,
    // what the default connection cap would use up.
    if let Err(e) = a2a_hyper::raise_fd_limit() {
        eprintln!("a2a-reference-agent: cannot raise the open-file limit: {e}");
    }
    let listener = match tokio::net::TcpListener::bind(options.listen).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "a2a-reference-agent: cannot listen on {}: {e}",
                options.listen
            );
            std::process::exit(1);
        }
    };
    let bound = listener.local_addr().unwrap_or(options.listen);
    let store = match options.connect_store().await {
        Ok(store) => store,
        Err(e) => {
            eprintln!("a2a-reference-agent: {e}");
            std::process::exit(1);
        }
    };
    let durable = store.is_some();
    let server = match options.server_on(bound, store) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("a2a-reference-agent: {e}");
            std::process::exit(1);
        }
    };
    // Expired tasks go even when no new task arrives to push them out.
    let swept = std::sync::Arc::clone(&server);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(a2a_reference_agent::SWEEP_INTERVAL);
        loop {
            every.tick().await;
            if durable {
                // A database's sweep waits for its DELETE: off the workers.
                let swept = std::sync::Arc::clone(&swept);
                let _ = tokio::task::spawn_blocking(move || swept.service().sweep()).await;
            } else {
                swept.service().sweep();
            }
        }
    });
    eprintln!(
        "a2a-reference-agent listening on {bound}; card at {}/.well-known/agent-card.json; tasks {}",
        options.base_url(bound),
        if durable { "in PostgreSQL" } else { "in memory" }
    );
    for (i, _) in options.bearer_tokens.iter().enumerate() {
        eprintln!("  bearer token #{} authenticates caller-{}", i + 1, i + 1);
    }
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
        eprintln!("shutting down");
    };
    let serve_options = match options.serve_options_for(&server) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("a2a-reference-agent: {e}");
            std::process::exit(1);
        }
    };
    // A connection cap lowered to the open-file limit is said at start.
    let serve_options = serve_options.with_notice(|line| eprintln!("a2a-reference-agent: {line}"));
    a2a_hyper::serve(listener, server, serve_options, shutdown).await;
}
