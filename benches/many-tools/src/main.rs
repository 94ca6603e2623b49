//! 1,000 tools in a release build (`MANY_TOOLS` at build time; 10 in a debug one), each a
//! `#[tool]` fn with an argument struct of its own, served over stdio: the many-tools bench
//! (`benches/tools.sh`, BENCHMARKS.md "Many tools"). `echo` too, so the usual call load runs
//! against it.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::{Server, tool};
use schemars::JsonSchema;
use serde::Deserialize;

include!(concat!(env!("OUT_DIR"), "/tools.rs"));

/// Echo the message back
#[tool]
async fn echo(
    /// The message to send back
    message: String,
) -> String {
    message
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new("many-tools", "0.1.0").run().await
}
