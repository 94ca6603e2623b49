//! `impl Trait` inside the return type (rustc's E0562) is ours to explain.

use mcp_toolbelt::{result::IntoToolResult, tool};

/// Answer or fail
#[tool]
async fn answer() -> Result<impl IntoToolResult, String> {
    Ok("42")
}

fn main() {}
