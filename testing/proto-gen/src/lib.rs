//! The code generator behind `crates/a2a-proto/src/gen/`: the vendored
//! `.proto` files of `crates/a2a-proto/proto/` compiled by `protox` (a
//! protobuf compiler in Rust, so no system `protoc` is needed) and turned
//! into prost messages by `prost-build`.
//!
//! Two sets are generated ([`SETS`]): A2A v1.0 into `src/gen/`, and the
//! A2A 1.1 draft (`proto/draft-1.1/`, same package `lf.a2a.v1`) into
//! `src/gen/draft_1_1/`, which `a2a-proto` includes instead under its
//! `draft-1-1` feature.
//!
//! The output is checked in, so building `a2a-proto` needs neither crate.
//! `scripts/gen-proto` (this crate's binary) rewrites it; this crate's test
//! regenerates into a temporary folder and fails when the checked-in code
//! differs.

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};

/// One generated set: which vendored files are compiled, against which
/// include folders, and which generated files are kept.
#[derive(Debug, Clone, Copy)]
pub struct ProtoSet {
    /// A short name for messages (`v1.0`, `draft-1.1`).
    pub name: &'static str,
    /// Include folders relative to [`proto_dir`], searched in order; their
    /// imports are resolved there or among the compiler's own
    /// `google/protobuf` files.
    pub includes: &'static [&'static str],
    /// The files compiled, relative to the include folders.
    pub files: &'static [&'static str],
    /// The generated files kept, one per proto package.
    pub outputs: &'static [&'static str],
    /// Where the checked-in output lives, relative to [`gen_dir`] (empty:
    /// `gen_dir` itself).
    pub out: &'static str,
    /// The vendored A2A proto, relative to [`proto_dir`].
    pub a2a_proto: &'static str,
    /// The normative proto it must equal, relative to `shared/spec`.
    pub spec: &'static str,
}

/// A2A v1.0 and `google.rpc`, into `src/gen/`.
pub const V1_0: ProtoSet = ProtoSet {
    name: "v1.0",
    includes: &["."],
    files: &[
        "lf/a2a/v1/a2a.proto",
        "google/rpc/status.proto",
        "google/rpc/error_details.proto",
    ],
    outputs: &["lf.a2a.v1.rs", "google.rpc.rs"],
    out: "",
    a2a_proto: "lf/a2a/v1/a2a.proto",
    spec: "a2a-v1.0.proto",
};

/// The A2A 1.1 draft, into `src/gen/draft_1_1/`. Its `a2a.proto` comes
/// first on the include path, so it stands for `lf/a2a/v1/a2a.proto`; the
/// `google/` imports are v1.0's. `google.rpc` is not part of the draft and
/// stays v1.0's output.
pub const DRAFT_1_1: ProtoSet = ProtoSet {
    name: "draft-1.1",
    includes: &["draft-1.1", "."],
    files: &["lf/a2a/v1/a2a.proto"],
    outputs: &["lf.a2a.v1.rs"],
    out: "draft_1_1",
    a2a_proto: "draft-1.1/lf/a2a/v1/a2a.proto",
    spec: "draft-1.1/a2a.proto",
};

/// Every set generated, in order.
pub const SETS: &[ProtoSet] = &[V1_0, DRAFT_1_1];

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

/// Generates the Rust code of `set` into `out_dir` (created if missing)
/// and returns the paths written, in the order of its `outputs`.
///
/// - `google.protobuf` types come from `prost-types` (prost-build's
///   default); `google.protobuf.Empty` is `()`.
/// - Maps are `BTreeMap`s: the encoding of a map is then deterministic
///   (sorted keys), and the data model's maps are `BTreeMap`s too.
/// - Comments are not copied: the proto is the documentation, and its
///   comments hold indented examples that rustdoc would run as Rust.
pub fn generate(set: &ProtoSet, out_dir: &Path) -> Result<Vec<PathBuf>, Box<dyn Error>> {
    fs::create_dir_all(out_dir)?;
    // prost-build needs the imported files' messages (their types, for the
    // derives) but writes a file for every package it sees: generate into
    // a scratch folder and keep only the packages of `outputs`.
    let scratch = std::env::temp_dir().join(format!(
        "a2a-proto-gen-scratch-{}-{}-{}",
        std::process::id(),
        set.out.len(),
        out_dir.as_os_str().len()
    ));
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(&scratch)?;
    let includes = set.includes.iter().map(|dir| proto_dir().join(dir));
    let mut compiler = protox::Compiler::new(includes)?;
    compiler.include_imports(true).include_source_info(false);
    compiler.open_files(set.files)?;
    let fds = compiler.file_descriptor_set();
    let mut config = prost_build::Config::new();
    config
        .out_dir(&scratch)
        .btree_map(["."])
        .disable_comments(["."]);
    config.compile_fds(fds)?;
    let mut written = Vec::new();
    for name in set.outputs {
        let from = scratch.join(name);
        if !from.is_file() {
            return Err(format!("prost-build did not write {name} for {}", set.name).into());
        }
        let to = out_dir.join(name);
        fs::copy(&from, &to)?;
        written.push(to);
    }
    let _ = fs::remove_dir_all(&scratch);
    Ok(written)
}
