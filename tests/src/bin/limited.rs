//! A server binary for `tests/rate_limit.rs`: `run()`, so `--rate-limit`, `MCP_RATE_LIMIT`
//! and `--trust-proxy` are the real flags, and a tool with a limit of its own.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::{Server, tool};

/// Echo the text back
#[tool]
async fn echo(
    /// What to echo
    text: String,
) -> String {
    text
}

/// A tool whose calls are scarce: two a minute for each caller
#[tool(rate_limit = "2/min")]
async fn scarce() -> &'static str {
    "granted"
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new("limited", env!("CARGO_PKG_VERSION"))
        .run()
        .await
}
