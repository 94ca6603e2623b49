//! `complete(…)` completes a URI template's variables: a static resource has none.

use mcp_toolbelt::completion::CompletionContext;
use mcp_toolbelt::resource;

async fn names(_partial: &str, _context: &CompletionContext) -> Vec<String> {
    Vec::new()
}

/// The manual
#[resource(uri = "docs://manual", complete(name = names))]
static MANUAL: &str = "The manual";

fn main() {}
