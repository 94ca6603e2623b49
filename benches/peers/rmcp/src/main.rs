//! The catalog's five tools for rmcp, written as its README teaches: `#[tool_router]`,
//! `Parameters<T>` with schemars, `Json<T>` for structured output.
//!
//! ```text
//! rmcp-catalog                       # stdio
//! rmcp-catalog --http 127.0.0.1:8080 # Streamable HTTP at /mcp, TCP_NODELAY
//! ```

use axum::serve::ListenerExt as _;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt as _, schemars, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};

const PRODUCTS: &[(&str, f64)] = &[
    ("Espresso cup", 12.0),
    ("Travel mug", 24.0),
    ("Mug rack", 36.0),
];

#[derive(Deserialize, schemars::JsonSchema)]
struct SearchArgs {
    /// Substring to match against product names
    query: String,
    /// Maximum number of results (default 10)
    #[schemars(range(max = 50))]
    limit: Option<u32>,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct DetailsArgs {
    /// The product's exact name, as `search` returns it
    name: String,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Product {
    name: String,
    price: f64,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct WeatherArgs {
    /// City name
    location: String,
}

#[derive(Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Weather {
    temperature_c: f64,
    summary: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// The message to send back
    message: String,
}

#[derive(Clone)]
struct Catalog {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Catalog {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    /// Search the product catalog
    #[tool(annotations(read_only_hint = true))]
    async fn search(&self, Parameters(args): Parameters<SearchArgs>) -> String {
        let query = args.query.to_lowercase();
        let limit = args.limit.unwrap_or(10) as usize;
        PRODUCTS
            .iter()
            .filter(|(name, _)| name.to_lowercase().contains(&query))
            .take(limit)
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Look up one product by its exact name
    #[tool(name = "product-details", annotations(read_only_hint = true))]
    async fn product_details(
        &self,
        Parameters(args): Parameters<DetailsArgs>,
    ) -> Result<Json<Product>, String> {
        PRODUCTS
            .iter()
            .find(|(product, _)| *product == args.name)
            .map(|&(name, price)| {
                Json(Product {
                    name: name.to_owned(),
                    price,
                })
            })
            .ok_or_else(|| format!("No product named {:?} in the catalog", args.name))
    }

    /// Get current weather for a location
    #[tool(
        name = "get-weather",
        title = "Get Weather",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn get_weather(&self, Parameters(args): Parameters<WeatherArgs>) -> Json<Weather> {
        Json(Weather {
            temperature_c: 22.0,
            summary: format!("{}: partly cloudy", args.location),
        })
    }

    /// Echo the message back
    #[tool]
    async fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        args.message
    }

    /// Remove every product from the catalog
    #[tool(
        name = "clear-catalog",
        title = "Clear the catalog",
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true
        )
    )]
    async fn clear_catalog(&self) -> String {
        "Catalog cleared".to_owned()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Catalog {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arguments: Vec<String> = std::env::args().collect();
    match arguments.iter().position(|argument| argument == "--http") {
        Some(at) => {
            let address = arguments.get(at + 1).ok_or("--http ADDRESS")?;
            let service: StreamableHttpService<Catalog, LocalSessionManager> =
                StreamableHttpService::new(
                    || Ok(Catalog::new()),
                    Default::default(),
                    StreamableHttpServerConfig::default(),
                );
            let router = axum::Router::new().nest_service("/mcp", service);
            let listener = tokio::net::TcpListener::bind(address)
                .await?
                .tap_io(|stream| {
                    let _ = stream.set_nodelay(true);
                });
            axum::serve(listener, router).await?;
        }
        None => {
            let service = Catalog::new().serve(rmcp::transport::stdio()).await?;
            service.waiting().await?;
        }
    }
    Ok(())
}
