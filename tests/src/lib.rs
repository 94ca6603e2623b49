//! Helpers shared by the integration tests in `tests/tests/`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

pub mod stdio;

/// The path of example `name` (`catalog`, `conformance`), built first so that a test never
/// runs a stale binary (cheap when it is up to date; once per test process and example).
#[must_use]
pub fn example_binary(name: &str) -> PathBuf {
    static BUILT: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let target_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.to_path_buf()))
        .expect("test binaries live in target/<profile>/deps");
    let binary = target_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let mut built = BUILT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !built.iter().any(|done| done == name) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "--example",
                name,
                "-p",
                "mcp-toolbelt-examples",
            ])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building example {name} failed");
        built.push(name.to_owned());
    }
    binary
}

/// The root of this repository.
#[must_use]
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the repository")
        .to_path_buf()
}

/// Node 22, as `tests/clients/install.sh` installs it (npm's `node@22`, under `.tools/node22`), or
/// `None` when it is not installed. Put its directory first on `PATH` to run `npx` with it.
#[must_use]
pub fn node22() -> Option<PathBuf> {
    let node = repo_root().join(".tools/node22/node_modules/node/bin/node");
    node.exists().then_some(node)
}
