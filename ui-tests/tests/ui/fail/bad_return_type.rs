//! The return type must be a tool result; the error sits on it.

use mcp_toolbelt::tool;

struct Answer(u32);

/// Compute the answer
#[tool]
async fn answer() -> Answer {
    Answer(42)
}

/// Numbers are not text
#[tool]
async fn number() -> u32 {
    42
}

/// The error type must be `Display`
#[tool]
async fn fallible() -> Result<String, Answer> {
    Ok(String::new())
}

fn main() {}
