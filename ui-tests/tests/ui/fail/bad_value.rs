//! Values of the wrong kind are reported at the value.

use mcp_toolbelt::tool;

/// Echo the message back
#[tool(name = echo, title = 5, annotations(read_only = "yes"))]
async fn echo(
    /// The message
    message: String,
) -> String {
    message
}

fn main() {}
