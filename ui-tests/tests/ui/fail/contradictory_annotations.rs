//! A read-only tool changes nothing, so it cannot be destructive.

use mcp_toolbelt::tool;

/// Remove every product
#[tool(annotations(read_only, destructive))]
async fn clear() -> &'static str {
    "cleared"
}

/// Spelled out with `= true`
#[tool(annotations(destructive = true, read_only = true))]
async fn wipe() -> &'static str {
    "wiped"
}

fn main() {}
