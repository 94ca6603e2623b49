//! A server binary written as the README shows, with three tools of one name: `run()` must say
//! so in words and exit with status 1 (`tests/duplicate_names.rs` runs it).

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::{Server, tool};

/// Search one way
#[tool(name = "search")]
async fn search_a() -> &'static str {
    "a"
}

/// Search another way
#[tool(name = "search")]
async fn search_b() -> &'static str {
    "b"
}

/// Search a third way
#[tool(name = "search")]
async fn search_c() -> &'static str {
    "c"
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new("twins", env!("CARGO_PKG_VERSION")).run().await
}
