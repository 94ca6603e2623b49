//! `description = ""` is refused as an empty `///` is.

use mcp_toolbelt::tool;

#[tool(description = "")]
async fn empty() -> String {
    String::new()
}

/// Documented, but the key overrides it with blanks
#[tool(description = "   ")]
async fn blank() -> String {
    String::new()
}

fn main() {}
