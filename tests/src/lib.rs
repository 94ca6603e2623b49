//! Helpers shared by the integration tests in `tests/tests/`.

use std::path::{Path, PathBuf};
use std::process::Command;

pub mod stdio;

/// The path of example `name` (`catalog`, `conformance`), built if needed.
///
/// `cargo test --workspace` builds every example before any test runs; a test run of this
/// package alone builds the one it needs here.
#[must_use]
pub fn example_binary(name: &str) -> PathBuf {
    let target_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.to_path_buf()))
        .expect("test binaries live in target/<profile>/deps");
    let binary = target_dir.join("examples").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if !binary.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--example", name, "-p", "mcp-toolbelt-examples"])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building example {name} failed");
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
