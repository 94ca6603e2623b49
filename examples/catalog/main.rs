//! The reference tool set: a tiny product catalog, the weather, an echo.
//!
//! ```text
//! cargo run --example catalog                  # serve over stdio
//! cargo run --example catalog -- --http 127.0.0.1:8080
//! cargo run --example catalog -- --list-tools  # print the tools/list result
//! ```

use mcp_toolbelt::{Context, Json, Server, ToolError, tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The catalog: name and price.
const PRODUCTS: &[(&str, f64)] = &[("Espresso cup", 12.0), ("Travel mug", 24.0), ("Mug rack", 36.0)];

#[derive(Deserialize, JsonSchema)]
struct SearchArgs {
    /// Substring to match against product names
    query: String,
    /// Maximum number of results (default 10)
    #[schemars(range(max = 50))]
    limit: Option<u32>,
}

/// Search the product catalog
#[tool(annotations(read_only))]
async fn search(args: SearchArgs, context: &Context) -> String {
    let query = args.query.to_lowercase();
    let limit = args.limit.unwrap_or(10) as usize;
    let total = PRODUCTS.len() as f64;
    let mut found = Vec::new();
    for (scanned, (name, _)) in PRODUCTS.iter().enumerate() {
        if name.to_lowercase().contains(&query) && found.len() < limit {
            found.push(*name);
        }
        context.progress(scanned as f64 + 1.0, Some(total), Some(&format!("scanned {name}")));
    }
    found.join("\n")
}

#[derive(Serialize, JsonSchema)]
struct Product {
    name: String,
    price: f64,
}

/// Look up one product by its exact name
#[tool(name = "product-details", annotations(read_only))]
async fn product_details(
    /// The product's exact name, as `search` returns it
    name: String,
) -> Result<Json<Product>, ToolError> {
    PRODUCTS
        .iter()
        .find(|(product, _)| *product == name)
        .map(|&(name, price)| Json(Product { name: name.to_owned(), price }))
        .ok_or_else(|| ToolError::new(format!("No product named {name:?} in the catalog")))
}

#[derive(Deserialize, JsonSchema)]
struct WeatherArgs {
    /// City name
    location: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Weather {
    temperature_c: f64,
    summary: String,
}

/// Get current weather for a location
#[tool(name = "get-weather", title = "Get Weather", annotations(read_only, open_world = false))]
async fn get_weather(args: WeatherArgs) -> Json<Weather> {
    Json(Weather { temperature_c: 22.0, summary: format!("{}: partly cloudy", args.location) })
}

#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    /// The message to send back
    message: String,
}

/// Echo the message back
#[tool]
async fn echo(args: EchoArgs) -> String {
    args.message
}

/// Remove every product from the catalog
#[tool(
    name = "clear-catalog",
    title = "Clear the catalog",
    annotations(read_only = false, destructive, idempotent)
)]
async fn clear_catalog() -> &'static str {
    // The demo catalog is a constant: clearing it is only said, not done.
    "Catalog cleared"
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    Server::new("catalog", env!("CARGO_PKG_VERSION"))
        .instructions("A small product catalog: search it, look up a product, check the weather, echo a message.")
        .run()
        .await
}
