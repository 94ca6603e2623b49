//! A key given twice is an error at the second one.

use mcp_toolbelt::tool;

/// Echo the message back
#[tool(name = "echo", title = "Echo", name = "echo-again")]
async fn echo(
    /// The message
    message: String,
) -> String {
    message
}

/// Hints can be duplicated too
#[tool(annotations(read_only, read_only = false))]
async fn ping() -> &'static str {
    "pong"
}

fn main() {}
