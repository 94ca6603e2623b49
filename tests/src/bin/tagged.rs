//! A server binary with tagged tools, run by `tests/tags.rs` with `--only-tags`,
//! `--without-tags`, `MCP_ONLY_TAGS` and `MCP_WITHOUT_TAGS`.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::{Server, tool};

/// Deploy the service
#[tool(tags("admin"))]
async fn deploy() -> &'static str {
    "deployed"
}

/// Try the feature in beta
#[tool(tags("beta"))]
async fn try_feature() -> &'static str {
    "tried"
}

/// Answer
#[tool]
async fn ping() -> &'static str {
    "pong"
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new("tagged", env!("CARGO_PKG_VERSION")).run().await
}
