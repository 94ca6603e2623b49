//! The argument struct must derive `Deserialize` and `JsonSchema`; rustc says so at the type.

use mcp_toolbelt::tool;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize)]
struct NoSchema {
    query: String,
}

#[derive(JsonSchema)]
struct NoDeserialize {
    query: String,
}

/// Search the catalog
#[tool]
async fn search(args: NoSchema) -> String {
    args.query
}

/// Search again
#[tool]
async fn search_again(args: NoDeserialize) -> String {
    args.query
}

fn main() {}
