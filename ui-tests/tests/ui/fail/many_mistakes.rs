//! Several mistakes in one attribute and signature: every one is reported in a single pass.

use mcp_toolbelt::tool;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Args {
    query: String,
}

#[derive(Deserialize, JsonSchema)]
struct More {
    limit: u32,
}

#[tool(
    name = "bad name",
    titel = "Search",
    annotations(read_only, destructive, opne_world)
)]
async fn search<T>(args: Args, more: More, (a, b): (u8, u8)) -> String {
    format!("{} {} {a} {b}", args.query, more.limit)
}

fn main() {}
