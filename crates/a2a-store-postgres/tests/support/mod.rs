//! A throwaway PostgreSQL cluster for one test binary: `scripts/pg-tryout`
//! started once, on first use, on a unix socket in a temporary directory;
//! it stops and deletes itself when this process exits (its stdin, a pipe
//! from here, closes). Each test works in a schema of its own.
//!
//! Without PostgreSQL the tests say so loudly and pass, unless `CI` is
//! set: then they fail.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use a2a_store_postgres::{PgOptions, PgTaskStore};

pub(crate) struct Cluster {
    pub(crate) url: String,
    /// The script, kept alive (and its stdin open) while the tests run.
    _script: Mutex<Child>,
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The cluster, or `None` (after a loud notice) when PostgreSQL is not
/// installed and this is not CI.
pub(crate) fn cluster() -> Option<&'static Cluster> {
    static CLUSTER: OnceLock<Option<Cluster>> = OnceLock::new();
    CLUSTER.get_or_init(start).as_ref()
}

fn start() -> Option<Cluster> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/pg-tryout");
    let mut child = Command::new("bash")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("running scripts/pg-tryout");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("the script's stdout");
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("reading the cluster's URL");
    let url = line.trim().to_owned();
    if url.is_empty() {
        let status = child.wait().expect("the script's exit");
        if status.code() == Some(3) && !in_ci() {
            // Straight to the process's stderr: the test harness captures
            // `eprintln!` of passing tests.
            let _ = writeln!(
                std::io::stderr(),
                "\n*** SKIPPED: PostgreSQL is not installed (no initdb); the a2a-store-postgres \
                 tests did not run. Install it (apt-get install -y postgresql) or set A2A_PG_BIN. ***\n"
            );
            return None;
        }
        panic!(
            "scripts/pg-tryout did not start a cluster ({status}); under CI PostgreSQL is required"
        );
    }
    Some(Cluster {
        url,
        _script: Mutex::new(child),
    })
}

/// A schema name no other test of this binary uses.
pub(crate) fn schema(label: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    format!("{label}_{}", N.fetch_add(1, Ordering::Relaxed))
}

/// A store on the cluster in `schema`.
pub(crate) async fn store(cluster: &Cluster, options: PgOptions) -> PgTaskStore {
    PgTaskStore::connect(&cluster.url, options)
        .await
        .expect("connecting to the test cluster")
}
