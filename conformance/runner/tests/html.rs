//! The `--html` page in headless Chromium: a real run (the reference agent
//! with one deliberate fault, so that there are failures to show) is
//! rendered, and `tests/html/check.mjs` loads it, reads the counts from
//! the DOM, clicks the status and binding filters and checks which rows
//! stay visible, and writes a screenshot.
//!
//! It needs Debian's `chromium` and `npm ci` in `tests/html`; `.ci/run`
//! installs both. Without them the test is compiled `#[ignore]`d with the
//! reason (the crate's `build.rs` looks, and sets `html_report_tooling`
//! when both are there), so `cargo test` lists it as ignored, not passed;
//! under `CI=true` it always runs and fails without them. `A2A_HTML_SCREENSHOT=<path>` writes the
//! screenshot there (how `docs/conformance-report.png` was made).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use a2a_conformance::faults;
use a2a_conformance::{run, scenarios, Embedded, Outcome, Report, RunOptions, Timing};
use serde_json::json;

async fn faulty_report() -> Report {
    let fault = faults::all()
        .into_iter()
        .find(|f| f.name == "wrong-http-status")
        .expect("the fault exists");
    let mut e = Embedded::default();
    e.timing = Timing::FAST;
    let target = e.in_memory(fault.wrappers()).await;
    let options = RunOptions {
        only: vec![
            "errors.".into(),
            "get.".into(),
            "card.".into(),
            "rest.error-body".into(),
        ],
        ..RunOptions::default()
    };
    run(target, &scenarios::all(), &options).await
}

fn chromium() -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var("CHROMIUM").unwrap_or("/usr/bin/chromium".into()));
    path.exists().then_some(path)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(html_report_tooling),
    ignore = "needs Debian's chromium and playwright-core (npm ci in conformance/runner/tests/html); .ci/run installs both"
)]
async fn the_page_renders_and_filters_in_chromium() {
    let report = faulty_report().await;
    let t = report.totals;
    assert!(t.failed > 0 && t.passed > 0 && t.skipped > 0, "{t:?}");

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/html");
    let missing = match (
        chromium(),
        dir.join("node_modules/playwright-core").exists(),
    ) {
        (None, _) => Some("Debian's chromium is not installed (apt-get install chromium)"),
        (_, false) => {
            Some("playwright-core is not installed (npm ci in conformance/runner/tests/html)")
        }
        _ => None,
    };
    // Run (CI=true, or `--ignored`) without the tooling: a failure, never
    // a silent pass.
    if let Some(why) = missing {
        panic!("the HTML report test cannot run: {why}");
    }

    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("html-report");
    std::fs::create_dir_all(&out).unwrap();
    let page = out.join("report.html");
    std::fs::write(&page, report.to_html()).unwrap();
    let mut by_binding = BTreeMap::new();
    for r in &report.results {
        *by_binding.entry(r.binding.as_str()).or_insert(0usize) += 1;
    }
    let expected = json!({
        "records": report.results.len(),
        "passed": t.passed,
        "failed": t.failed,
        "skipped": t.skipped,
        "byBinding": by_binding,
    });
    let expected_path = out.join("expected.json");
    std::fs::write(&expected_path, expected.to_string()).unwrap();
    let screenshot = std::env::var("A2A_HTML_SCREENSHOT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| out.join("report.png"));
    let _ = std::fs::remove_file(&screenshot);

    let result = tokio::process::Command::new("node")
        .arg(dir.join("check.mjs"))
        .arg(&page)
        .arg(&expected_path)
        .arg(&screenshot)
        .output()
        .await
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(
        result.status.success(),
        "check.mjs: {}\n{stdout}\n{}",
        result.status,
        String::from_utf8_lossy(&result.stderr)
    );
    assert!(stdout.contains("\"ok\":true"), "{stdout}");
    let png = std::fs::read(&screenshot).expect("a screenshot");
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    // The failures the page showed are the report's.
    assert!(report
        .results
        .iter()
        .any(|r| r.outcome == Outcome::Fail && r.expected_got().is_some()));
}
