//! Misspelled keys are reported, each under its own token, with a suggestion.

use mcp_toolbelt::tool;

#[tool(descripton = "Echo the message back", titel = "Echo")]
async fn echo(
    /// The message
    message: String,
) -> String {
    message
}

fn main() {}
