//! `tags(…)` misused on each attribute: an empty tag, one given twice, one `--only-tags` could
//! not name, no tag at all, a tag that is not a string literal, and `tags = …`.

use mcp_toolbelt::{prompt, resource, tool};

/// Purge
#[tool(tags("admin", ""))]
async fn purge() -> String {
    String::new()
}

/// Reindex
#[tool(tags("beta", "beta", "two words", "a,b"))]
async fn reindex() -> String {
    String::new()
}

/// Notes
#[resource(uri = "notes://all", tags())]
async fn notes() -> String {
    String::new()
}

const ADMIN: &str = "admin";

/// Greet
#[prompt(tags(ADMIN))]
async fn greet() -> String {
    String::new()
}

/// Audit
#[tool(tags = "admin")]
async fn audit() -> String {
    String::new()
}

fn main() {}
