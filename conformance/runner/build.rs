//! Tells `tests/html.rs` whether its headless-Chromium test can run here.
//!
//! The test needs Debian's `chromium` (or `$CHROMIUM`) and `playwright-core`
//! (`npm ci` in `tests/html`). Where either is missing and `CI` is not
//! `true`, the test is compiled `#[ignore]`d with the reason, so that
//! `cargo test` lists it as ignored instead of counting a test that did
//! not run as passed. Under `CI=true` it always runs, and fails when the
//! tooling is missing. The cfg is `html_report_tooling`.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(html_report_tooling)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=CHROMIUM");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let chromium = Path::new(&chromium);
    // Installing either tool changes these directories (a directory is
    // scanned for any change), which runs this script again.
    if let Some(dir) = chromium.parent().filter(|d| d.is_dir()) {
        println!("cargo::rerun-if-changed={}", dir.display());
    }
    println!("cargo::rerun-if-changed=tests/html");
    let installed =
        chromium.exists() && Path::new("tests/html/node_modules/playwright-core").exists();
    let ci = std::env::var("CI").as_deref() == Ok("true");
    if installed || ci {
        println!("cargo::rustc-cfg=html_report_tooling");
    }
}
