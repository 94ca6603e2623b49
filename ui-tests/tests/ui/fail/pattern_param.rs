//! Inline parameters name properties, so they must be plain names.

use mcp_toolbelt::tool;

/// Add two numbers
#[tool]
async fn add(
    /// The operands
    (left, right): (i64, i64),
    /// Ignored
    _: bool,
) -> String {
    (left + right).to_string()
}

fn main() {}
