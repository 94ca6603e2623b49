//! A server whose tokens it verifies itself, run with `--http ADDR --oauth-issuer URL`
//! (`tests/oauth.rs`): `whoami` answers what `Context::auth` gave it.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::{Context, Server, resource, tool};

/// Says who called: the token's client, subject and scopes, and its issuer claim
#[tool]
async fn whoami(context: &Context) -> String {
    caller(context)
}

/// Who reads it: the token's client, subject and scopes, and its issuer claim
#[resource(uri = "oauth://caller", mime_type = "text/plain")]
async fn caller_resource(context: &Context) -> String {
    caller(context)
}

fn caller(context: &Context) -> String {
    context.auth().map_or_else(
        || "anonymous".into(),
        |auth| {
            format!(
                "client={} subject={} scopes={} iss={}",
                auth.client_id,
                auth.subject.as_deref().unwrap_or("-"),
                auth.scopes.join(","),
                auth.extra["iss"].as_str().unwrap_or("-"),
            )
        },
    )
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new("oauth-guarded", env!("CARGO_PKG_VERSION"))
        .run()
        .await
}
