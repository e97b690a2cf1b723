//! Rewrites `crates/a2a-proto/src/gen/` from the vendored `.proto` files
//! (`scripts/gen-proto` runs this): v1.0 and the 1.1 draft.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for set in a2a_proto_gen::SETS {
        let out = a2a_proto_gen::gen_dir().join(set.out);
        for path in a2a_proto_gen::generate(set, &out)? {
            println!("wrote {}", path.display());
        }
    }
    Ok(())
}
