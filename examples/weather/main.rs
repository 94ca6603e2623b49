//! The README's quick start, as it is there: one tool, served over stdio (`--http ADDR` for
//! Streamable HTTP, `--list-tools` to print its tools/list result).
//!
//! ```text
//! cargo run --example weather
//! ```
//!
//! A test keeps this file and the README's first example the same (below these doc lines).

use mcp_toolbelt::{Json, tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
#[tool(title = "Get Weather", annotations(read_only, open_world = false))]
async fn get_weather(args: WeatherArgs) -> Json<Weather> {
    Json(Weather {
        temperature_c: 22.0,
        summary: format!("{}: partly cloudy", args.location),
    })
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    mcp_toolbelt::Server::new("weather", env!("CARGO_PKG_VERSION"))
        .run()
        .await
}
