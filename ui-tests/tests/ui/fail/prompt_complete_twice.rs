//! One completer per argument: two `#[complete]` on one parameter, or a `#[complete]` and a
//! `complete(name = …)` for it, are refused at the second.

use mcp_toolbelt::completion::CompletionContext;
use mcp_toolbelt::prompt;

async fn names(_partial: &str, _context: &CompletionContext) -> Vec<String> {
    Vec::new()
}

/// Two `#[complete]`
#[prompt]
async fn twice(
    /// The name
    #[complete(names)]
    #[complete(names)]
    name: String,
) -> String {
    name
}

/// A `#[complete]` and a `complete(name = …)`
#[prompt(complete(name = names))]
async fn both_ways(
    /// The name
    #[complete(names)]
    name: String,
) -> String {
    name
}

fn main() {}
