//! A server whose tool, resource, template and prompt carry `scopes(…)`, run by
//! `tests/middleware.rs` with `--lint`: with no auth it is warned that the scopes guard nothing;
//! with `SCOPED_BEARER=1` it checks bearer tokens (`HttpConfig::bearer_auth`) and is not.

// Items are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::http::{AuthInfo, HttpConfig, ProtectedResourceMetadata};
use mcp_toolbelt::{Server, prompt, resource, tool};

/// Adds a note
#[tool(scopes("notes:write"))]
async fn add_note() -> &'static str {
    "added"
}

/// Answers: needs no scope
#[tool]
async fn ping() -> &'static str {
    "pong"
}

/// Every note
#[resource(uri = "scoped://notes", scopes("notes:read"))]
static NOTES: &str = "the notes";

/// One note
#[resource(uri = "scoped://notes/{id}", scopes("notes:read", "notes:admin"))]
async fn note(id: String) -> String {
    format!("note {id}")
}

/// Summarise the notes
#[prompt(scopes("notes:read"))]
async fn summarise() -> String {
    "Summarise the notes".into()
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let server = Server::new("scoped", env!("CARGO_PKG_VERSION"));
    let server = if std::env::var_os("SCOPED_BEARER").is_some() {
        let metadata =
            ProtectedResourceMetadata::new("http://localhost:3000/mcp", "https://id.example.com");
        server.http_config(
            HttpConfig::new().bearer_auth(metadata, |_token: String| async { None::<AuthInfo> }),
        )
    } else {
        server
    };
    server.run().await
}
