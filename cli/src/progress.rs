//! The progress line on standard error while a task works: a spinner, what
//! is awaited and the time so far, redrawn in place. Only on a terminal;
//! elsewhere (a pipe, a test) nothing is drawn, so output stays clean.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const FRAMES: [char; 4] = ['|', '/', '-', '\\'];
const TICK: Duration = Duration::from_millis(120);

/// A progress line; dropping it clears the line.
#[derive(Debug)]
pub(crate) struct Progress {
    label: Arc<Mutex<Option<String>>>,
    ticker: Option<tokio::task::JoinHandle<()>>,
}

impl Progress {
    /// Starts showing progress when standard error is a terminal.
    pub(crate) fn start(label: impl Into<String>) -> Progress {
        let label = Arc::new(Mutex::new(Some(label.into())));
        let ticker = std::io::stderr().is_terminal().then(|| {
            let label = Arc::clone(&label);
            tokio::spawn(async move {
                let started = Instant::now();
                let mut every = tokio::time::interval(TICK);
                for frame in FRAMES.iter().cycle() {
                    every.tick().await;
                    let text = match label.lock() {
                        Ok(l) => l.clone(),
                        Err(_) => None,
                    };
                    let mut err = std::io::stderr().lock();
                    match text {
                        Some(text) => {
                            let secs = started.elapsed().as_secs_f32();
                            let _ = write!(err, "\r\x1b[2K{frame} {text} {secs:.1}s");
                        }
                        None => {
                            let _ = write!(err, "\r\x1b[2K");
                        }
                    }
                    let _ = err.flush();
                }
            })
        });
        Progress { label, ticker }
    }

    /// Changes what the line says; `None` hides it until the next change.
    pub(crate) fn set(&self, label: Option<String>) {
        if let Ok(mut l) = self.label.lock() {
            *l = label;
        }
        self.clear_line();
    }

    /// Prints `line` on standard output with the progress line out of its
    /// way.
    pub(crate) fn println(&self, line: &str) {
        self.clear_line();
        crate::term::say(line);
    }

    fn clear_line(&self) {
        if self.ticker.is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(t) = &self.ticker {
            t.abort();
        }
        self.clear_line();
    }
}
