//! A library crate that defines a tool, to prove that tools are found in other crates: a binary
//! that links this crate serves `shout` without naming it (`tests/tests/other_crate.rs`).

use mcp_toolbelt::tool;

/// Shout the message back, in capitals
#[tool(annotations(read_only, open_world = false))]
pub async fn shout(
    /// What to shout
    message: String,
) -> String {
    format!("{}!", message.to_uppercase())
}
