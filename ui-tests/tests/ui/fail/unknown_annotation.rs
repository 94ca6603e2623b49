//! Keys inside `annotations(...)` are checked like the attribute's own.

use mcp_toolbelt::tool;

/// Echo the message back
#[tool(annotations(read_onyl, open_wrold = false, idempotent))]
async fn echo(
    /// The message
    message: String,
) -> String {
    message
}

fn main() {}
