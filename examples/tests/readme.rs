//! The README's "Serve an agent" shows `src/hello_agent.rs` whole (less
//! its module docs): this keeps the two equal, and the example as short
//! as the README says.

#[test]
fn the_readme_shows_the_hello_agent_as_it_is() {
    let readme = include_str!("../../README.md");
    let file = include_str!("../src/hello_agent.rs");
    let code: Vec<&str> = file.lines().skip_while(|l| l.starts_with("//!")).collect();
    let code = code.join("\n");
    let code = code.trim_matches('\n');
    assert!(
        readme.contains(&format!("```rust\n{code}\n```")),
        "README.md's \"Serve an agent\" block differs from examples/src/hello_agent.rs"
    );
    let lines = code
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        .count();
    assert!(lines <= 30, "{lines} lines of code");
    assert!(
        readme.contains(&format!("({lines} lines of code;")),
        "the README's count"
    );
}
