//! The official TypeScript client's Skills extension (`SkillsClient` of
//! `@modelcontextprotocol/client` 2.4, installed by `tests/clients/install.sh`) against the
//! notes example's skills folder (`examples/notes/skills`), over stdio and Streamable HTTP, in
//! both eras: `tests/clients/ts_skills.mjs` lists the skills, gets one, reads and verifies its
//! `SKILL.md` and a reference against the entry's sizes, digests and front matter, reads its
//! directory and is refused an unknown skill. It prints a line per check and exits non-zero when
//! any fails.
//!
//! Without the client installed these tests only say so, unless `CI` is set: then they fail.

use std::ffi::OsStr;
use std::path::PathBuf;

use mcp_toolbelt_tests::clients::{Scripts, Sdk, check_binary};
use mcp_toolbelt_tests::package_binary;

/// TypeScript only: the Python SDK (`mcp` 2.3) has no skills client, and the TypeScript one
/// verifies what it reads as a host must.
const SCRIPTS: Scripts = Scripts {
    typescript: "ts_skills.mjs",
    python: "",
};

/// The notes server on a database of its own (created on first use), through `ts_skills.mjs`.
fn notes(mode: &str, http: bool) {
    let notes = package_binary("mcp-toolbelt-example-notes", "notes");
    let database: PathBuf = std::env::temp_dir().join(format!(
        "mcp-toolbelt-real-skills-{}-{mode}-{http}/notes.db",
        std::process::id()
    ));
    check_binary(
        Sdk::TypeScript,
        SCRIPTS,
        &notes,
        &[OsStr::new(&database)],
        mode,
        http,
    );
    if let Some(folder) = database.parent() {
        let _ = std::fs::remove_dir_all(folder);
    }
}

#[test]
fn typescript_skills_stdio_legacy() {
    notes("legacy", false);
}

#[test]
fn typescript_skills_stdio_modern() {
    notes("modern", false);
}

#[test]
fn typescript_skills_http_legacy() {
    notes("legacy", true);
}

#[test]
fn typescript_skills_http_auto() {
    notes("auto", true);
}
