//! Reads `TYPE<TAB>JSON` lines on stdin and prints, for each, `ok<TAB>`
//! and the re-encoded JSON, or `error<TAB>` and the decode error.
//!
//! With `--corpus N` it instead prints `N` generated documents as
//! `TYPE<TAB>JSON` lines, covering every message type and every oneof
//! member (the input `wire-oracle lines` expects).
//!
//! ```sh
//! cargo run -p a2a-types --example wire -- --corpus 2000 > corpus.tsv
//! ../shared/tools/wire-oracle/wire-oracle lines corpus.tsv
//! cargo run -p a2a-types --example wire < corpus.tsv
//! ```

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use a2a_types::testing;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [] => reencode_stdin(),
        [flag, n] if flag == "--corpus" => match n.parse::<usize>() {
            Ok(n) => print_corpus(n),
            Err(_) => return usage(),
        },
        _ => return usage(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wire: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: wire [--corpus N]   (without arguments: TYPE<TAB>JSON lines on stdin)");
    ExitCode::from(2)
}

fn print_corpus(n: usize) -> io::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    for (name, json) in testing::corpus(n) {
        writeln!(out, "{name}\t{json}")?;
    }
    out.flush()
}

fn reencode_stdin() -> io::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    for line in io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let (name, json) = line.split_once('\t').unwrap_or((line.as_str(), ""));
        match testing::reencode(name.trim(), json) {
            Ok(encoded) => writeln!(out, "ok\t{encoded}")?,
            Err(error) => writeln!(out, "error\t{}", error.replace('\n', " "))?,
        }
    }
    out.flush()
}
