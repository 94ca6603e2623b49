//! A server whose `main` allows any `Host` in its `HttpConfig`, run with `--http`: `run()` must
//! keep that setting (`tests/http_deploy.rs` runs it). Also the binary `run()`'s argument tests
//! start with arguments that are not UTF-8.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt::{Server, tool};

/// Says hello
#[tool]
async fn hello() -> &'static str {
    "hello"
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new("any-host", env!("CARGO_PKG_VERSION"))
        .http_config(HttpConfig::new().allow_any_host())
        .run()
        .await
}
