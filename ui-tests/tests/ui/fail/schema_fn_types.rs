//! The fn an `input_schema` or `output_schema` names returns a schema (a `serde_json::Value` or
//! a `schemars::Schema`), and a hand-written output schema needs structured content to describe.

use mcp_toolbelt::tool;
use serde_json::{Value, json};

fn text() -> &'static str {
    "{\"type\": \"object\"}"
}

fn schema() -> Value {
    json!({"type": "object", "properties": {}})
}

/// The fn returns text, not a schema
#[tool(input_schema = text)]
async fn as_text(
    /// A
    a: String,
) -> String {
    a
}

/// A `String` result has no structured content
#[tool(output_schema = schema)]
async fn plain(
    /// A
    a: String,
) -> String {
    a
}

fn main() {}
