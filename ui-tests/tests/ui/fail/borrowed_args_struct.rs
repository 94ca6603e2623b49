//! An argument struct with a lifetime cannot be deserialized from JSON that is gone after the
//! call: the error points at the type and says to own its fields (issue 22 item 8).

use mcp_toolbelt::tool;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Borrowed<'a> {
    name: &'a str,
}

/// Greets by a borrowed name
#[tool]
async fn greet(args: Borrowed<'_>) -> String {
    args.name.to_owned()
}

fn main() {}
