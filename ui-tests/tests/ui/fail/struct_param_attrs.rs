//! `serde` and `schemars` attributes shape a property; on the argument struct's parameter they
//! would do nothing, so they are refused there.

use mcp_toolbelt::tool;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Args {
    query: String,
}

/// Search
#[tool]
async fn search(#[serde(default)] args: Args) -> String {
    args.query
}

fn main() {}
