//! The input is deserialized from JSON into owned values: parameters cannot borrow.

use mcp_toolbelt::tool;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Args {
    query: String,
}

/// Shout the message
#[tool]
fn shout(
    /// The message
    message: &str,
    /// The other messages
    others: Vec<&'static str>,
) -> String {
    format!("{message} {others:?}")
}

/// Search by reference
#[tool]
async fn search(args: &Args) -> String {
    args.query.clone()
}

fn main() {}
