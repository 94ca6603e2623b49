//! A type of the user's named `Context` is taken as the request's `Context` when written bare;
//! the error says to rename it or write its path.

use mcp_toolbelt::tool;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Context {
    query: String,
}

/// Search with an argument struct called `Context`
#[tool]
async fn search(args: Context) -> String {
    args.query
}

/// The same, by reference, next to a property
#[tool]
async fn lookup(
    /// The name
    name: String,
    context: &Context,
) -> String {
    format!("{name} {}", context.query)
}

fn main() {}
