//! A minimal throughput harness for `cargo bench` targets (`harness = false`).
//!
//! Benchmarks here compare each measurement with a baseline taken in the
//! same run (for example `serde_json::Value` parsing of the same bytes), so
//! the interesting number is a ratio, not an absolute time. Each bench
//! binary builds a [`Report`], measures rows with [`Report::measure`],
//! adds ratios with [`Report::ratio`], and calls [`Report::finish`], which
//! prints the table and writes it to `target/bench-results/<name>.txt`;
//! `scripts/bench` runs every bench and prints those files.
//!
//! Time per row defaults to one second; `BENCH_SECONDS` overrides it
//! (e.g. `BENCH_SECONDS=0.1` for a quick look).

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One measured row.
#[derive(Debug, Clone)]
pub struct Measurement {
    /// Row label.
    pub name: String,
    /// Bytes processed per iteration.
    pub bytes: u64,
    /// Items (messages, events) processed per iteration; 0 when not meaningful.
    pub items: u64,
    /// Iterations run.
    pub iterations: u64,
    /// Wall time for all iterations.
    pub elapsed: Duration,
}

impl Measurement {
    /// Throughput in MB/s (10^6 bytes per second).
    pub fn mb_per_s(&self) -> f64 {
        self.bytes as f64 * self.iterations as f64 / self.elapsed.as_secs_f64() / 1e6
    }

    /// Items per second, when the row counts items.
    pub fn items_per_s(&self) -> f64 {
        self.items as f64 * self.iterations as f64 / self.elapsed.as_secs_f64()
    }
}

/// A benchmark report: rows, ratios, and where to write them.
#[derive(Debug)]
pub struct Report {
    name: String,
    budget: Duration,
    rows: Vec<Measurement>,
    out: String,
}

impl Report {
    /// Starts a report named `name` (the results file is `<name>.txt`).
    pub fn new(name: &str) -> Report {
        let secs = std::env::var("BENCH_SECONDS")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| *s > 0.0)
            .unwrap_or(1.0);
        let mut out = String::new();
        let _ = writeln!(out, "# {name} (each row ~{secs} s; MB = 10^6 bytes)");
        let _ = writeln!(
            out,
            "{:<56} {:>12} {:>14} {:>12}",
            "row", "MB/s", "items/s", "iterations"
        );
        Report {
            name: name.to_owned(),
            budget: Duration::from_secs_f64(secs),
            rows: Vec::new(),
            out,
        }
    }

    /// Runs `f` repeatedly for the time budget (after a short warm-up) and
    /// records a row. `bytes` and `items` are what one call of `f` processes.
    /// The value `f` returns is passed through [`black_box`] so the work is
    /// not optimized away.
    pub fn measure<R>(
        &mut self,
        name: &str,
        bytes: u64,
        items: u64,
        mut f: impl FnMut() -> R,
    ) -> Measurement {
        let warm = Instant::now();
        let mut warm_iterations = 0u64;
        while warm.elapsed() < self.budget / 10 {
            black_box(f());
            warm_iterations += 1;
        }
        // Read the clock once per batch of about a millisecond: read on
        // every call, it adds tens of nanoseconds to rows whose call takes a
        // few hundred, and pulls every ratio towards 1.
        let per_ms = warm_iterations as f64 / (warm.elapsed().as_secs_f64() * 1e3);
        let batch = (per_ms as u64).max(1);
        let mut iterations = 0u64;
        let start = Instant::now();
        loop {
            for _ in 0..batch {
                black_box(f());
            }
            iterations += batch;
            if start.elapsed() >= self.budget {
                break;
            }
        }
        let m = Measurement {
            name: name.to_owned(),
            bytes,
            items,
            iterations,
            elapsed: start.elapsed(),
        };
        let items_col = if items > 0 {
            format!("{:.0}", m.items_per_s())
        } else {
            "-".to_owned()
        };
        let line = format!(
            "{:<56} {:>12.1} {:>14} {:>12}",
            m.name,
            m.mb_per_s(),
            items_col,
            m.iterations
        );
        println!("{line}");
        self.out.push_str(&line);
        self.out.push('\n');
        self.rows.push(m.clone());
        m
    }

    /// Records the throughput ratio `a / b` of two measured rows.
    pub fn ratio(&mut self, label: &str, a: &Measurement, b: &Measurement) -> f64 {
        let r = a.mb_per_s() / b.mb_per_s();
        let line = format!("ratio {label}: {r:.2}x  ({} / {})", a.name, b.name);
        println!("{line}");
        self.out.push_str(&line);
        self.out.push('\n');
        r
    }

    /// Adds a free-form note line to the report (goals, sizes, context).
    pub fn note(&mut self, line: &str) {
        println!("{line}");
        self.out.push_str(line);
        self.out.push('\n');
    }

    /// The measured rows so far.
    pub fn rows(&self) -> &[Measurement] {
        &self.rows
    }

    /// Writes the report to `target/bench-results/<name>.txt` and returns
    /// the path.
    pub fn finish(self) -> std::io::Result<PathBuf> {
        let dir = results_dir();
        std::fs::create_dir_all(&dir)?;
        // A run under the allocator's defaults keeps its own file, so both
        // heaps' figures stand side by side.
        let suffix = match std::env::var(HEAP_ENV).as_deref() {
            Ok("default") => "-default-heap",
            _ => "",
        };
        let path = dir.join(format!("{}{suffix}.txt", self.name));
        std::fs::write(&path, &self.out)?;
        println!("results written to {}", path.display());
        Ok(path)
    }
}

/// The environment variable that selects the heap a bench runs with:
/// unset or `steady` for [`steady_heap`]'s settings, `default` for the
/// allocator's own.
pub const HEAP_ENV: &str = "A2A_BENCH_HEAP";

/// Makes the process run with a heap that keeps freed memory (re-executing
/// itself once with the settings in its environment) and returns a note
/// for the report saying which heap was used.
///
/// glibc gives freed memory at the top of its heap back to the kernel as
/// soon as more than 128 KiB is free there. A loop that decodes and drops a
/// 1 MB document then pays a page fault for every 4 KiB on every
/// iteration, for whichever decoder runs, and the row measures the kernel
/// rather than the decoder (at 1 MB, more than half the time). Long-running
/// servers reach a steady heap that does not do this, and other allocators
/// (jemalloc, mimalloc) keep freed pages by default; the settings here
/// (`MALLOC_TRIM_THRESHOLD_`, `MALLOC_MMAP_THRESHOLD_`) give every row of
/// the run that steady heap. `A2A_BENCH_HEAP=default` measures with glibc's
/// defaults instead.
pub fn steady_heap() -> String {
    const TRIM: &str = "MALLOC_TRIM_THRESHOLD_";
    const MMAP: &str = "MALLOC_MMAP_THRESHOLD_";
    match std::env::var(HEAP_ENV).as_deref() {
        Ok("default") => return "heap: the allocator's defaults (A2A_BENCH_HEAP=default)".into(),
        Ok("steady") => {
            return format!(
                "heap: freed memory kept ({TRIM}={}, {MMAP}={}; A2A_BENCH_HEAP=default for the allocator's defaults)",
                std::env::var(TRIM).unwrap_or_default(),
                std::env::var(MMAP).unwrap_or_default()
            )
        }
        _ => {}
    }
    let Ok(exe) = std::env::current_exe() else {
        return "heap: the allocator's defaults (could not find the bench binary to re-run it)"
            .into();
    };
    let status = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(HEAP_ENV, "steady")
        .env(TRIM, "4294967296")
        // glibc's largest accepted mmap threshold on 64-bit targets: 32 MiB.
        .env(MMAP, "33554432")
        .status();
    match status {
        Ok(status) => std::process::exit(status.code().unwrap_or(1)),
        Err(e) => format!("heap: the allocator's defaults (re-running the bench failed: {e})"),
    }
}

/// `target/bench-results` of this workspace (or `$CARGO_TARGET_DIR/bench-results`).
pub fn results_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("bench-results")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measurement_rates_follow_bytes_items_and_time() {
        let m = Measurement {
            name: "x".into(),
            bytes: 2_000_000,
            items: 10,
            iterations: 3,
            elapsed: Duration::from_secs(2),
        };
        assert!((m.mb_per_s() - 3.0).abs() < 1e-9);
        assert!((m.items_per_s() - 15.0).abs() < 1e-9);
    }

    #[test]
    fn ratio_divides_throughputs() {
        std::env::set_var("BENCH_SECONDS", "0.01");
        let mut r = Report::new("harness-selftest");
        let a = Measurement {
            name: "a".into(),
            bytes: 4,
            items: 0,
            iterations: 1,
            elapsed: Duration::from_secs(1),
        };
        let b = Measurement {
            bytes: 2,
            ..a.clone()
        };
        assert!((r.ratio("a/b", &a, &b) - 2.0).abs() < 1e-9);
        let m = r.measure("sum", 8, 1, || (0..8u64).sum::<u64>());
        assert!(m.iterations >= 1);
        assert_eq!(r.rows().len(), 1);
    }
}
