//! A deliberately bad tool set: each tool breaks what some host refuses, so that
//! `cargo run --example lint-bad -- --lint` fails with one line per problem (the test
//! `tests/tests/lint.rs` checks every line).
//!
//! ```text
//! cargo run --example lint-bad -- --lint                    # every host profile
//! cargo run --example lint-bad -- --lint --profile cursor   # one host
//! cargo run --example lint-bad -- --lint --format json      # for machines
//! ```

use std::collections::HashMap;

use mcp_toolbelt::{CallToolResult, Server, tool, tool::Tool};
use schemars::JsonSchema;
use serde::Deserialize;

/// A data-carrying enum: schemars makes it a `oneOf`, which Cursor refuses.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Shape {
    /// A circle of a radius
    Circle {
        /// Its radius
        radius: f64,
    },
    /// A square of a side
    Square {
        /// Its side
        side: f64,
    },
}

/// Draw a shape
#[tool]
async fn draw(
    /// What to draw
    #[property]
    shape: Shape,
) -> String {
    match shape {
        Shape::Circle { radius } => format!("circle {radius}"),
        Shape::Square { side } => format!("square {side}"),
    }
}

/// Store a note
#[tool]
async fn store(
    /// The note, up to 5000 characters (more than a llama.cpp grammar compiles)
    #[schemars(length(max = 5000))]
    text: String,
    labels: HashMap<String, serde_json::Value>,
) -> String {
    format!(
        "{} characters, {} labels",
        text.chars().count(),
        labels.len()
    )
}

/// Show a point
#[tool(name = "a_tool_name_so_long_that_no_host_with_a_server_prefix_shows_it")]
async fn long_name(
    /// A point, as a pair
    point: (i32, i32),
) -> String {
    format!("{point:?}")
}

/// Find a product by its SKU
#[tool]
async fn find_sku(
    /// The SKU, in any case: the pattern is Rust's regex syntax (`(?i)`, `\z`), which VS Code's
    /// JavaScript validator cannot compile
    #[schemars(regex(pattern = r"(?i)^[a-z]{3}-\d{4}\z"))]
    sku: String,
) -> String {
    sku
}

/// A tool added at run time, its schema written by hand: no description, a number enum, a
/// nullable type list, an array without `items`, a `$ref`.
fn hand_written() -> Result<Tool, mcp_toolbelt::error::RegistryError> {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {
            "level": {"type": "integer", "enum": [1, 2, 3], "description": "How loud"},
            "note": {"type": ["string", "null"], "description": "A note"},
            "tags": {"type": "array", "description": "Tags"},
            "next": {"$ref": "#", "description": "The same again"}
        }
    });
    Tool::new("ping", "", schema, |_, _| async {
        CallToolResult::text("pong")
    })
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let server = Server::new("lint-bad", env!("CARGO_PKG_VERSION"));
    if let Err(error) = hand_written().and_then(|tool| server.tools().add(tool)) {
        eprintln!("Error: {error}");
        return std::process::ExitCode::FAILURE;
    }
    server.run().await
}
