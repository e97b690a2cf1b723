//! The README's coverage tables are what `--list` prints for the library.

use a2a_conformance::scenarios;

#[test]
fn the_readme_shows_the_library_table() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let table = scenarios::markdown_table(&scenarios::all());
    assert!(
        readme.contains(&table),
        "README.md's coverage tables differ from `a2a-conformance --list`:\n{table}"
    );
}
