//! The schema escape hatches, misused: `input_schema` takes a fn's path, excludes `portable`,
//! needs arguments to describe and carries the header marks itself; `portable` needs arguments;
//! `output_schema = path` needs a return type with structured content. Every mistake is told.

use mcp_toolbelt::{Json, tool};
use serde_json::{Value, json};

fn schema() -> Value {
    json!({"type": "object", "properties": {}})
}

/// A string is no fn
#[tool(input_schema = "schema")]
async fn literal(
    /// A
    a: String,
) -> String {
    a
}

/// Both keys about the input schema
#[tool(input_schema = schema, portable = false)]
async fn both(
    /// A
    a: String,
) -> String {
    a
}

/// Nothing to describe
#[tool(input_schema = schema)]
async fn nothing() -> String {
    String::new()
}

/// Nothing to keep
#[tool(portable = false)]
async fn nothing_kept() -> String {
    String::new()
}

/// The header mark belongs in the hand-written schema
#[tool(input_schema = schema)]
async fn routed(
    /// Where
    #[header("Region")]
    region: String,
) -> String {
    region
}

/// `()` has no structured content
#[tool(output_schema = schema)]
async fn unit(
    /// A
    a: String,
) {
    let _ = a;
}

/// `impl …` hides it
#[tool(output_schema = schema)]
async fn hidden(
    /// A
    a: String,
) -> impl mcp_toolbelt::result::IntoToolResult {
    Json(a)
}

fn main() {}
