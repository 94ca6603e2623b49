//! `output_schema` takes a bool: `output_schema = false` turns the output schema off.

use mcp_toolbelt::{Json, tool};

/// The price
#[tool(output_schema = "no")]
async fn price() -> Json<f64> {
    Json(24.0)
}

fn main() {}
