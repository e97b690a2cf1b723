//! Helpers shared by the integration tests.

use std::sync::OnceLock;

/// Runs the oracle once before any test of this binary uses it, so that
/// tests running in parallel do not all try to create its virtualenv on
/// first use.
pub(crate) fn oracle_ready() {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        let verdict = a2a_wire_oracle::run(&["types"], b"");
        assert!(
            verdict.success,
            "wire oracle unavailable:\n{}",
            verdict.stderr
        );
    });
}
