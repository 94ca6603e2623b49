//! A resource gives text or bytes; anything else is reported at its type.

use mcp_toolbelt::resource;

#[resource(uri = "test://number")]
static NUMBER: u32 = 7;

#[resource(uri = "test://nothing")]
async fn nothing() -> u32 {
    7
}

fn main() {}
