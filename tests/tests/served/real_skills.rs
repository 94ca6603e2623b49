//! The official clients, installed by `tests/clients/install.sh`, against the notes example's
//! skills folder (`examples/notes/skills`), over stdio and Streamable HTTP, in both eras: the
//! TypeScript SDK's Skills extension (`SkillsClient` of `@modelcontextprotocol/client` 2.4,
//! `tests/clients/ts_skills.mjs`) lists the skills, gets one, reads and verifies its `SKILL.md`
//! and a reference against the entry's sizes, digests and front matter, reads its directory and
//! is refused an unknown skill; the Python SDK, which has no skills client, does the same with
//! generic requests and checks the digests itself (`tests/clients/py_skills.py`). Each script
//! prints a line per check and exits non-zero when any fails.
//!
//! Without the client installed these tests only say so, unless `CI` is set: then they fail.

use std::ffi::OsStr;
use std::path::PathBuf;

use mcp_toolbelt_tests::clients::{Scripts, Sdk, check_binary};
use mcp_toolbelt_tests::package_binary;

const SCRIPTS: Scripts = Scripts {
    typescript: "ts_skills.mjs",
    python: "py_skills.py",
};

/// The notes server on a database of its own (created on first use), through `sdk`'s script.
fn notes(sdk: Sdk, mode: &str, http: bool) {
    let notes = package_binary("mcp-toolbelt-example-notes", "notes");
    let database: PathBuf = std::env::temp_dir().join(format!(
        "mcp-toolbelt-real-skills-{}-{sdk:?}-{mode}-{http}/notes.db",
        std::process::id()
    ));
    check_binary(sdk, SCRIPTS, &notes, &[OsStr::new(&database)], mode, http);
    if let Some(folder) = database.parent() {
        let _ = std::fs::remove_dir_all(folder);
    }
}

#[test]
fn typescript_skills_stdio_legacy() {
    notes(Sdk::TypeScript, "legacy", false);
}

#[test]
fn typescript_skills_stdio_modern() {
    notes(Sdk::TypeScript, "modern", false);
}

#[test]
fn typescript_skills_http_legacy() {
    notes(Sdk::TypeScript, "legacy", true);
}

#[test]
fn typescript_skills_http_auto() {
    notes(Sdk::TypeScript, "auto", true);
}

#[test]
fn python_skills_stdio_legacy() {
    notes(Sdk::Python, "legacy", false);
}

#[test]
fn python_skills_stdio_modern() {
    notes(Sdk::Python, "modern", false);
}

#[test]
fn python_skills_http_legacy() {
    notes(Sdk::Python, "legacy", true);
}

#[test]
fn python_skills_http_auto() {
    notes(Sdk::Python, "auto", true);
}
