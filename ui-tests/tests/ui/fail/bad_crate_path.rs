//! `crate = path` must name the runtime crate; a wrong path is reported at the path.

use mcp_toolbelt::tool;

/// Echo the message back
#[tool(crate = not_the_runtime)]
async fn echo(
    /// The message
    message: String,
) -> String {
    message
}

fn main() {}
