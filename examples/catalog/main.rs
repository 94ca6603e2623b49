//! The reference tool set: a tiny product catalog, the weather, an echo.
//!
//! ```text
//! cargo run --example catalog                  # serve over stdio
//! cargo run --example catalog -- --http 127.0.0.1:8080
//! cargo run --example catalog -- --list-tools  # print the tools/list result
//! ```
//!
//! With `CATALOG_MAX_CLIENTS=N` (for `benches/sessions.sh`), served over HTTP it takes N
//! clients at once, each with a session and a stream, where the defaults stop at 512
//! connections, 256 streams and 1,024 sessions.

use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt::{CallToolResult, Context, Json, Server, ToolError, tool, tool::Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The catalog: name and price.
const PRODUCTS: &[(&str, f64)] = &[
    ("Espresso cup", 12.0),
    ("Travel mug", 24.0),
    ("Mug rack", 36.0),
];

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
    let total = f64::from(u32::try_from(PRODUCTS.len()).unwrap_or(u32::MAX));
    let mut found = Vec::new();
    let mut scanned = 0.0;
    for (name, _) in PRODUCTS {
        if name.to_lowercase().contains(&query) && found.len() < limit {
            found.push(*name);
        }
        scanned += 1.0;
        context.progress(scanned, Some(total), Some(&format!("scanned {name}")));
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
        .map(|&(name, price)| {
            Json(Product {
                name: name.to_owned(),
                price,
            })
        })
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
#[tool(
    name = "get-weather",
    title = "Get Weather",
    annotations(read_only, open_world = false),
    icons(src = "https://example.com/icons/weather.png", mime_type = "image/png", sizes = ["48x48"]),
    icons(data = include_bytes!("weather.svg"), mime_type = "image/svg+xml", sizes = ["any"], theme = "light")
)]
async fn get_weather(args: WeatherArgs) -> Json<Weather> {
    Json(Weather {
        temperature_c: 22.0,
        summary: format!("{}: partly cloudy", args.location),
    })
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

/// With `CATALOG_TEST_TOOLS=1` the catalog also serves `wait`, a tool added at run time that takes
/// as long as it is told: the client tests cancel it. It is not part of the reference set.
fn wait_tool() -> Tool {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {"seconds": {"type": "number", "minimum": 0, "description": "How long to wait"}},
        "required": ["seconds"],
    });
    Tool::new("wait", "Wait, then say so (for cancellation tests)", schema, |arguments, context: Context| async move {
        let seconds = arguments["seconds"].as_f64().unwrap_or_default();
        // Tells a client that asked for progress that the wait has begun.
        context.progress(0.0, None, Some("waiting"));
        tokio::select! {
            () = tokio::time::sleep(std::time::Duration::from_secs_f64(seconds)) => CallToolResult::text("done waiting"),
            () = context.cancelled() => CallToolResult::error("cancelled"),
        }
    })
    .expect("the wait tool's schema is an object")
}

/// The catalog's server, its tools those above.
fn server() -> Server {
    Server::new("catalog", env!("CARGO_PKG_VERSION")).instructions(
        "A small product catalog: search it, look up a product, check the weather, echo a message.",
    )
}

/// The HTTP caps raised to take `CATALOG_MAX_CLIENTS` clients at once (and a few more, for the
/// fresh client the benchmark times with them open).
fn max_clients(server: Server) -> Result<Server, String> {
    let Some(value) = std::env::var_os("CATALOG_MAX_CLIENTS") else {
        return Ok(server);
    };
    let clients: usize = value
        .to_str()
        .and_then(|value| value.parse().ok())
        .ok_or_else(|| {
            format!(
                "CATALOG_MAX_CLIENTS: not a number: {}",
                value.to_string_lossy()
            )
        })?;
    let room = clients + 64;
    Ok(server.http_config(
        HttpConfig::new()
            .max_connections(room)
            .max_streams(room)
            .max_subscriptions(room)
            .max_sessions(room),
    ))
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let server = match max_clients(server()) {
        Ok(server) => server,
        Err(error) => {
            eprintln!("Error: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    if std::env::var_os("CATALOG_TEST_TOOLS").is_some_and(|value| value == "1")
        && let Err(error) = server.tools().add(wait_tool())
    {
        eprintln!("Error: {error}");
        return std::process::ExitCode::FAILURE;
    }
    server.run().await
}

#[cfg(test)]
mod tests {
    use mcp_toolbelt::testing::{
        TestClient, assert_portable, assert_result_portable, assert_tools_snapshot,
    };
    use serde_json::json;

    /// No host profile refuses a catalog tool (`cargo run --example catalog -- --lint`).
    #[test]
    fn portable_to_every_host() {
        assert_portable(&super::server());
    }

    /// What the tools return is what their output schemas declare, for every host.
    #[tokio::test]
    async fn results_portable_to_every_host() {
        let client = TestClient::new(super::server());
        let tools = client.list_tools().await.tools;
        for (name, arguments) in [
            ("product-details", json!({"name": "Travel mug"})),
            ("product-details", json!({"name": "Teapot"})),
            ("get-weather", json!({"location": "Paris"})),
            ("search", json!({"query": "mug"})),
        ] {
            let tool = tools.iter().find(|tool| tool.name == name).unwrap();
            assert_result_portable(tool, &client.call_tool(name, arguments).await, &[]);
        }
    }

    /// `UPDATE_SNAPSHOTS=1 cargo test -p mcp-toolbelt-examples --example catalog` rewrites it;
    /// `tests/tests/served/catalog_snapshot.rs` checks the binary's `--list-tools` against it too.
    #[test]
    fn tools_list_matches_the_snapshot() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/snapshots/catalog-tools.json"
        );
        assert_tools_snapshot(&super::server(), path);
    }
}
