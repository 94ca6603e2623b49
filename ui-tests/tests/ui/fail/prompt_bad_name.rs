//! Prompt names follow the tool names' rule, `^[A-Za-z0-9_.-]{1,64}$`, given or from the fn.

use mcp_toolbelt::prompt;

/// Spaces are not allowed
#[prompt(name = "has space")]
async fn spaced() -> &'static str {
    "spaced"
}

/// The fn's own name is checked when no `name` is given
#[prompt]
async fn a_prompt_function_name_that_is_far_too_long_to_be_a_name_on_its_own() -> &'static str {
    "long"
}

fn main() {}
