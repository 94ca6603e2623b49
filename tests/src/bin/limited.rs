//! A server binary for `tests/rate_limit.rs`: `run()`, so `--rate-limit`, `MCP_RATE_LIMIT`
//! and `--trust-proxy` are the real flags, and tools with a limit of their own (one that asks
//! the client before it answers).

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::ask::{AskError, Elicitation};
use mcp_toolbelt::{Context, Server, tool};
use schemars::JsonSchema;
use serde::Deserialize;

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

/// Whether to go ahead
#[derive(Deserialize, JsonSchema)]
struct GoAhead {
    /// Go ahead
    go: bool,
}

/// Asks before it acts: one call a minute for each caller
#[tool(rate_limit = "1/min")]
async fn confirmed(context: Context) -> Result<String, AskError> {
    Ok(match context.elicit::<GoAhead>("Go ahead?").await? {
        Elicitation::Accept(GoAhead { go }) => format!("go={go}"),
        _ => "declined".to_owned(),
    })
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new("limited", env!("CARGO_PKG_VERSION"))
        .run()
        .await
}
