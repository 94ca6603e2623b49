//! `ui` is a view's `ui://` URI; `visibility` names `model`, `app` or both.

use mcp_toolbelt::tool;

/// Not a view's URI
#[tool(ui = "https://example.com/view.html")]
async fn web_view() -> String {
    String::new()
}

/// Nobody may call it
#[tool(visibility())]
async fn hidden() -> String {
    String::new()
}

/// An unknown caller
#[tool(visibility(model, user, model))]
async fn unknown_caller() -> String {
    String::new()
}

/// A bare word
#[tool(visibility)]
async fn bare() -> String {
    String::new()
}

fn main() {}
