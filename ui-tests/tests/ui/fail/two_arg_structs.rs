//! An argument struct is the tool's only input.

use mcp_toolbelt::tool;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Query {
    text: String,
}

#[derive(Deserialize, JsonSchema)]
struct Paging {
    limit: u32,
}

/// Search the catalog
#[tool]
async fn search(query: Query, paging: Paging) -> String {
    format!("{} {}", query.text, paging.limit)
}

fn main() {}
