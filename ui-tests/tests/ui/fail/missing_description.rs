//! The model needs a description: a doc comment or `description = "..."`.

use mcp_toolbelt::tool;

#[tool]
async fn echo(
    /// The message
    message: String,
) -> String {
    message
}

#[tool(title = "Ping")]
async fn ping() -> &'static str {
    "pong"
}

fn main() {}
