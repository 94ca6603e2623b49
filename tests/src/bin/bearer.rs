//! A server with bearer auth whose metadata follows the address it is served at, run with
//! `--http`: `--print-config` puts the header in each snippet (`tests/print_config.rs`), and the
//! `401`'s `resource_metadata` names the address served, or `--resource` (`tests/http_auth.rs`).

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::http::{AuthInfo, HttpConfig, ProtectedResourceMetadata};
use mcp_toolbelt::{Server, tool};

/// Says hello
#[tool]
async fn hello() -> &'static str {
    "hello"
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let metadata = ProtectedResourceMetadata::at_served_address("https://auth.example.com");
    let config = HttpConfig::new().bearer_auth(metadata, |token: String| async move {
        (token == "let-me-in").then(|| AuthInfo::new("tester"))
    });
    Server::new("guarded", env!("CARGO_PKG_VERSION"))
        .http_config(config)
        .run()
        .await
}
