//! The skills the suite's `sep-2640-*` scenarios read, served both ways: a folder of skills
//! (`skills/`, read at start-up) and one built in code from files compiled into the binary.
//! The scenarios discover what to read from `skills/list`: the first skill (`code-review`) has
//! a sub-folder, for `resources/directory/read`'s `inode/directory` child.

use mcp_toolbelt::Server;
use mcp_toolbelt::skill::Skill;

/// `server` with the conformance skills.
pub(crate) fn with_skills(server: Server) -> Server {
    let code_review = Skill::new(include_str!("embedded/code-review/SKILL.md")).file(
        "checklists/RUST.md",
        include_str!("embedded/code-review/checklists/RUST.md"),
    );
    server
        .skills_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/conformance/skills"))
        .skill(code_review)
}
