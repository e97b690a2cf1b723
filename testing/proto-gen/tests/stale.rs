//! The checked-in generated code must be what the generator writes today,
//! and the vendored A2A proto must be the normative one.

use std::fs;
use std::path::PathBuf;

#[test]
fn checked_in_code_is_what_the_generator_writes() {
    let tmp = std::env::temp_dir().join(format!("a2a-proto-gen-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    let written = a2a_proto_gen::generate(&tmp).expect("the vendored protos compile");
    for (fresh, name) in written.iter().zip(a2a_proto_gen::OUTPUTS) {
        let checked_in = a2a_proto_gen::gen_dir().join(name);
        let want = fs::read_to_string(fresh).expect("generated file");
        let have = fs::read_to_string(&checked_in).unwrap_or_default();
        assert!(
            want == have,
            "{} is stale: run scripts/gen-proto and commit the result",
            checked_in.display()
        );
    }
    let _ = fs::remove_dir_all(&tmp);
}

#[test]
fn vendored_a2a_proto_is_the_normative_one() {
    let vendored = a2a_proto_gen::proto_dir().join("lf/a2a/v1/a2a.proto");
    let root = a2a_proto_gen::workspace_root();
    // shared/ lies beside the checkout or beside one of its ancestors.
    let spec: Option<PathBuf> = root
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared/spec/a2a-v1.0.proto"))
        .find(|p| p.is_file());
    let Some(spec) = spec else {
        panic!(
            "shared/spec/a2a-v1.0.proto not found beside {}",
            root.display()
        );
    };
    assert_eq!(
        fs::read(&vendored).expect("vendored proto"),
        fs::read(&spec).expect("spec proto"),
        "{} differs from {}: copy the spec's proto and run scripts/gen-proto",
        vendored.display(),
        spec.display()
    );
}
