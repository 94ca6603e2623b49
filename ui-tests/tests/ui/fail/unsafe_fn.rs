//! The server calls a tool with whatever a client sends: it cannot be `unsafe`.

use mcp_toolbelt::tool;

/// Read a byte
#[tool]
async unsafe fn peek(
    /// The address
    address: usize,
) -> String {
    format!("{address}")
}

fn main() {}
