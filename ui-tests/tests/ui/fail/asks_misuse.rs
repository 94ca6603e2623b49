//! `asks(…)` lists the form types a tool elicits: a list of one or more types, never a value.

use mcp_toolbelt::{Context, tool};

/// Not a list
#[tool(asks = Confirm)]
async fn value(context: Context) -> String {
    let _ = context;
    String::new()
}

/// An empty list
#[tool(asks())]
async fn empty(context: Context) -> String {
    let _ = context;
    String::new()
}

/// A string is no type
#[tool(asks("Confirm"))]
async fn text(context: Context) -> String {
    let _ = context;
    String::new()
}

fn main() {}
