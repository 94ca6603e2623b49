//! A prompt needs a description: a `///` comment or `description = "…"`.

use mcp_toolbelt::prompt;

#[prompt]
async fn undocumented() -> &'static str {
    "nothing to say"
}

/// An empty description is no description
#[prompt(description = "  ")]
async fn empty() -> &'static str {
    "empty"
}

fn main() {}
