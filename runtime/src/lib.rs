//! Write Model Context Protocol (MCP) tools as annotated `async fn`s and serve every one of them
//! over stdio or Streamable HTTP.
//!
//! ```no_run
//! use mcp_toolbelt::{tool, Json};
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct WeatherArgs {
//!     /// City name
//!     location: String,
//! }
//!
//! #[derive(Serialize, JsonSchema)]
//! #[serde(rename_all = "camelCase")]
//! struct Weather {
//!     temperature_c: f64,
//!     summary: String,
//! }
//!
//! /// Get current weather for a location
//! #[tool(title = "Get Weather", annotations(read_only, open_world = false))]
//! async fn get_weather(args: WeatherArgs) -> Json<Weather> {
//!     Json(Weather { temperature_c: 22.0, summary: format!("{}: partly cloudy", args.location) })
//! }
//!
//! #[tokio::main]
//! async fn main() -> std::io::Result<()> {
//!     mcp_toolbelt::Server::new("weather", env!("CARGO_PKG_VERSION")).serve_stdio().await
//! }
//! ```
//!
//! # How tools are found
//!
//! `#[tool]` leaves your function as it is and submits a [`ToolRegistration`] for it to
//! [`inventory`](https://docs.rs/inventory). The registry collects every registration linked into
//! the binary once, sorts them by name, computes each tool's schemas and validators, and refuses to
//! start when two tools share a name, naming both source locations. There is no list to keep in
//! sync: a tool that compiles is a tool that is served.
//!
//! Tools defined in another crate are collected like local ones as long as that crate is linked.
//! Rust links a library only when the binary uses something from it; when a crate holds nothing
//! but tools, name it once with `use that_crate as _;` … which rustc does not count as a use, so
//! write `that_crate::link();`-style calls or `extern crate that_crate;` (see the README).

mod context;
mod registry;
mod result;
mod schema;
mod server;
mod validate;

pub mod protocol;
pub mod testing;
pub mod transport;

#[doc(hidden)]
pub mod __private;

pub use context::{AuthInfo, Context, LogLevel};
pub use mcp_toolbelt_macros::tool;
pub use registry::{RegistryError, Tool, ToolAnnotations, ToolDefinition};
pub use result::{
    Annotations, CallToolResult, Content, IntoToolResult, Json, ResourceContents, ToolError,
};
pub use server::Server;
pub use transport::http::{HttpConfig, ProtectedResourceMetadata};
