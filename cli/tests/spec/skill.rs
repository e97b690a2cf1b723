//! `SKILL`: the Agent Skill (a2a-cli spec §14).

use std::path::{Path, PathBuf};

fn skills(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() && p.file_name().is_some_and(|n| n != "target") {
            out.extend(skills(&p));
        } else if p.file_name().is_some_and(|n| n == "SKILL.md") {
            out.push(p);
        }
    }
    out
}

fn skill() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("skill/a2a-cli/SKILL.md"))
        .unwrap()
}

/// Exactly one skill ships; it is short, generic, and sends the agent to
/// the runtime help instead of listing the commands.
#[test]
fn a2acli_skill_001() {
    let found = skills(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert_eq!(found.len(), 1, "{found:?}");
    let text = skill();
    assert!(
        text.starts_with("---\nname: a2a-cli\ndescription: "),
        "frontmatter"
    );
    assert!(
        text.contains("\ncompatibility: "),
        "the binary dependency is declared in prose"
    );
    assert!(
        text.len() < 4000 && text.lines().count() < 80,
        "{} bytes",
        text.len()
    );
    assert!(text.contains("a2a help") && text.contains("--help"));
    for rule in [
        "-o json",
        "--stream",
        "--context-id",
        "--task-id",
        "A2ACLI_BEARER",
        "a2a --version",
    ] {
        assert!(text.contains(rule), "{rule}");
    }
    let commands = [
        "card get",
        "task list",
        "task subscribe",
        "task push-config",
        "task download",
        "config show",
        "auth login",
        "chat",
        "demo-server",
        "conformance",
        "completion",
        "webhook serve",
    ];
    let named = commands.iter().filter(|c| text.contains(*c)).count();
    assert!(
        named <= 3,
        "the skill lists {named} commands; it should defer to help"
    );
    let refs = Path::new(env!("CARGO_MANIFEST_DIR")).join("skill/a2a-cli/references/examples.md");
    assert!(
        std::fs::read_to_string(refs).unwrap().contains("a2a send"),
        "worked examples live in references/"
    );
}

/// The skill is usage guidance, not the specification: no normative
/// keywords, requirement ids or section references.
#[test]
fn a2acli_skill_002() {
    let text = skill();
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    for word in [
        "MUST",
        "SHALL",
        "SHOULD",
        "REQUIRED",
        "RECOMMENDED",
        "OPTIONAL",
    ] {
        assert!(
            !words.contains(&word),
            "the skill restates the spec: {word}"
        );
    }
    assert!(
        !text.contains('§')
            && !words
                .iter()
                .any(|w| w.starts_with("A2ACLI_") && w.ends_with(|c: char| c.is_ascii_digit())),
        "no section or requirement references"
    );
}
