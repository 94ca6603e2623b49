//! The tool's name is a key, not a bare literal.

use mcp_toolbelt::tool;

/// Get the weather
#[tool("get_weather")]
async fn weather() -> String {
    String::new()
}

/// Another literal, next to a valid key
#[tool(42, title = "Answer")]
async fn answer() -> String {
    String::new()
}

fn main() {}
