//! A prompt returns text, messages or a `GetPromptResult` (or a `Result` of one).

use mcp_toolbelt::prompt;

/// Returns a number
#[prompt]
async fn number() -> u32 {
    3
}

/// Returns nothing
#[prompt]
async fn nothing() {}

fn main() {}
