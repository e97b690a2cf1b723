//! The checked-in generated code must be what the generator writes today,
//! and each vendored A2A proto must be its normative one (v1.0 and the 1.1
//! draft).

use std::fs;
use std::path::PathBuf;

#[test]
fn checked_in_code_is_what_the_generator_writes() {
    for set in a2a_proto_gen::SETS {
        let tmp =
            std::env::temp_dir().join(format!("a2a-proto-gen-{}-{}", std::process::id(), set.name));
        let _ = fs::remove_dir_all(&tmp);
        let written = a2a_proto_gen::generate(set, &tmp)
            .unwrap_or_else(|e| panic!("the vendored {} protos compile: {e}", set.name));
        assert_eq!(written.len(), set.outputs.len());
        for (fresh, name) in written.iter().zip(set.outputs) {
            let checked_in = a2a_proto_gen::gen_dir().join(set.out).join(name);
            let want = fs::read_to_string(fresh).expect("generated file");
            let have = fs::read_to_string(&checked_in).unwrap_or_default();
            assert!(
                want == have,
                "{} ({}) is stale: run scripts/gen-proto and commit the result",
                checked_in.display(),
                set.name
            );
        }
        let _ = fs::remove_dir_all(&tmp);
    }
}

#[test]
fn vendored_a2a_protos_are_the_normative_ones() {
    let root = a2a_proto_gen::workspace_root();
    // shared/ lies beside the checkout or beside one of its ancestors.
    let spec_dir: Option<PathBuf> = root
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared/spec"))
        .find(|p| p.join(a2a_proto_gen::V1_0.spec).is_file());
    let Some(spec_dir) = spec_dir else {
        panic!(
            "shared/spec/{} not found beside {}",
            a2a_proto_gen::V1_0.spec,
            root.display()
        );
    };
    for set in a2a_proto_gen::SETS {
        let vendored = a2a_proto_gen::proto_dir().join(set.a2a_proto);
        let spec = spec_dir.join(set.spec);
        assert_eq!(
            fs::read(&vendored).expect("vendored proto"),
            fs::read(&spec).unwrap_or_else(|e| panic!("{}: {e}", spec.display())),
            "{} differs from {}: copy the spec's proto and run scripts/gen-proto",
            vendored.display(),
            spec.display()
        );
    }
}
