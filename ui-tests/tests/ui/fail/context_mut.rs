//! The `Context` comes by value or by shared reference, never `&mut`.

use mcp_toolbelt::{Context, tool};

/// Report progress
#[tool]
async fn work(context: &mut Context) -> String {
    context.request_id().to_string()
}

fn main() {}
