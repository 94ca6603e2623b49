//! Tool names must match `^[A-Za-z0-9_.-]{1,64}$`, whether given or taken from the fn.

use mcp_toolbelt::tool;

/// Spaces are not allowed
#[tool(name = "has space")]
async fn spaced() -> &'static str {
    "spaced"
}

/// 65 characters are one too many
#[tool(name = "a-tool-name-that-is-much-too-long-to-be-accepted-by-any-mcp-host-x")]
async fn long_name() -> &'static str {
    "long"
}

/// The empty name
#[tool(name = "")]
async fn empty_name() -> &'static str {
    "empty"
}

/// Slashes are not allowed
#[tool(name = "files/read")]
async fn slashed() -> &'static str {
    "slashed"
}

/// The fn's own name is checked when no `name` is given
#[tool]
async fn a_function_name_that_is_far_too_long_to_be_a_tool_name_on_its_own() -> &'static str {
    "long"
}

fn main() {}
