//! The code generator behind `crates/a2a-proto/src/gen/`: the vendored
//! `.proto` files of `crates/a2a-proto/proto/` compiled by `protox` (a
//! protobuf compiler in Rust, so no system `protoc` is needed) and turned
//! into prost messages by `prost-build`.
//!
//! The output is checked in, so building `a2a-proto` needs neither crate.
//! `scripts/gen-proto` (this crate's binary) rewrites it; this crate's test
//! regenerates into a temporary folder and fails when the checked-in code
//! differs.

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};

/// The files compiled, relative to [`proto_dir`]; their imports are
/// resolved there or among the compiler's own `google/protobuf` files.
pub const FILES: &[&str] = &[
    "lf/a2a/v1/a2a.proto",
    "google/rpc/status.proto",
    "google/rpc/error_details.proto",
];

/// The generated files, one per proto package, in [`gen_dir`].
pub const OUTPUTS: &[&str] = &["lf.a2a.v1.rs", "google.rpc.rs"];

/// `crates/a2a-proto/proto`, the vendored inputs.
pub fn proto_dir() -> PathBuf {
    workspace_root().join("crates/a2a-proto/proto")
}

/// `crates/a2a-proto/src/gen`, the checked-in output.
pub fn gen_dir() -> PathBuf {
    workspace_root().join("crates/a2a-proto/src/gen")
}

/// The workspace root (this crate lives in `testing/proto-gen`).
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .map(Path::to_path_buf)
        .unwrap_or(manifest)
}

/// Generates the Rust code into `out_dir` (created if missing) and returns
/// the paths written, in the order of [`OUTPUTS`].
///
/// - `google.protobuf` types come from `prost-types` (prost-build's
///   default); `google.protobuf.Empty` is `()`.
/// - Maps are `BTreeMap`s: the encoding of a map is then deterministic
///   (sorted keys), and the data model's maps are `BTreeMap`s too.
/// - Comments are not copied: the proto is the documentation, and its
///   comments hold indented examples that rustdoc would run as Rust.
pub fn generate(out_dir: &Path) -> Result<Vec<PathBuf>, Box<dyn Error>> {
    fs::create_dir_all(out_dir)?;
    // prost-build needs the imported files' messages (their types, for the
    // derives) but writes a file for every package it sees: generate into
    // a scratch folder and keep only the packages of `FILES`.
    let scratch = std::env::temp_dir().join(format!(
        "a2a-proto-gen-scratch-{}-{}",
        std::process::id(),
        out_dir.as_os_str().len()
    ));
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(&scratch)?;
    let mut compiler = protox::Compiler::new([proto_dir()])?;
    compiler.include_imports(true).include_source_info(false);
    compiler.open_files(FILES)?;
    let fds = compiler.file_descriptor_set();
    let mut config = prost_build::Config::new();
    config
        .out_dir(&scratch)
        .btree_map(["."])
        .disable_comments(["."]);
    config.compile_fds(fds)?;
    let mut written = Vec::new();
    for name in OUTPUTS {
        let from = scratch.join(name);
        if !from.is_file() {
            return Err(format!("prost-build did not write {name}").into());
        }
        let to = out_dir.join(name);
        fs::copy(&from, &to)?;
        written.push(to);
    }
    let _ = fs::remove_dir_all(&scratch);
    Ok(written)
}
