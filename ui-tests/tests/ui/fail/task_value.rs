//! `task` takes no value, `"optional"` (the same) or `"required"`; anything else is refused at
//! the value, saying what to write.

use mcp_toolbelt::tool;

/// An unknown support
#[tool(task = "always")]
async fn always() -> String {
    String::new()
}

/// Not a string
#[tool(task = true)]
async fn boolean() -> String {
    String::new()
}

/// A list
#[tool(task(required))]
async fn list() -> String {
    String::new()
}

/// Misspelled
#[tool(tsak)]
async fn misspelled() -> String {
    String::new()
}

/// Twice
#[tool(task, task = "required")]
async fn twice() -> String {
    String::new()
}

fn main() {}
