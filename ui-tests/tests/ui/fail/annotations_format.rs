//! `annotations` takes a list of hints; a bare word or `annotations = …` says what to write.

use mcp_toolbelt::tool;

/// Echo the message back
#[tool(annotations)]
async fn echo(
    /// The message
    message: String,
) -> String {
    message
}

/// Shout the message back
#[tool(annotations = "read_only")]
async fn shout(
    /// The message
    message: String,
) -> String {
    message.to_uppercase()
}

fn main() {}
