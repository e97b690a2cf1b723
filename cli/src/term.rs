//! Writing lines to standard output and error without panicking: `a2a
//! stream ... | head -3` closes the pipe early, which ends the program
//! quietly (status 0, as the reader chose to stop) instead of the panic
//! `println!` raises.

use std::io::{ErrorKind, Write};

/// Writes `line` and a newline to standard output.
pub(crate) fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        tell(&format!("a2a: cannot write the answer: {e}"));
        std::process::exit(1);
    }
}

/// Writes `line` and a newline to standard error, if it can.
pub(crate) fn tell(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
