//! `#[tool]` goes on a fn, nothing else.

use mcp_toolbelt::tool;

/// A struct is not a tool
#[tool]
struct Weather {
    city: String,
}

/// Neither is a constant
#[tool]
const LIMIT: u32 = 10;

fn main() {}
