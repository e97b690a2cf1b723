//! Rewrites `crates/a2a-proto/src/gen/` from the vendored `.proto` files
//! (`scripts/gen-proto` runs this).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = a2a_proto_gen::gen_dir();
    for path in a2a_proto_gen::generate(&out)? {
        println!("wrote {}", path.display());
    }
    Ok(())
}
