//! A tool may take any name the generated adapter uses for its own values (`parse`,
//! `input_schema`, …): the adapter's are `__tool_`-prefixed, so the user's fn is the one called.

#![allow(dead_code)]

use mcp_toolbelt::tool;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Text {
    text: String,
}

/// A struct argument
#[tool]
async fn parse(args: Text) -> String {
    args.text
}

/// A lone undocumented parameter (its schema and arguments read through the adapter's pair)
#[tool]
async fn input_schema(text: String) -> String {
    text
}

/// Inline parameters
#[tool]
async fn refused(
    /// The text
    text: String,
) -> String {
    text
}

/// A plain fn
#[tool]
fn tool_future(args: Text) -> String {
    args.text
}

fn main() {}
