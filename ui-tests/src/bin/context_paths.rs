//! `Context` is resolved as written: the runtime's under its own paths, an alias with
//! `#[context]`, and a type of the user's named `Context` through its path.

// The qualified paths are the case under test.
#![allow(unused_qualifications)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Context as Ctx, Server, tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// The user's own type called `Context`.
#[derive(Deserialize, JsonSchema)]
struct Context {
    query: String,
}

/// An argument struct of the user's named `Context`, through its path
#[tool]
async fn own(args: crate::Context, context: &::mcp_toolbelt::Context) -> String {
    let _ = context.request_id();
    args.query
}

/// The runtime's `Context` under an alias
#[tool]
async fn alias(
    /// The message
    message: String,
    #[context] ctx: &Ctx,
    #[context] owned: Ctx,
) -> String {
    let _ = (ctx.request_id(), owned.request_id());
    message
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("context", "0.0.0"));
    let result = client.call_tool("own", json!({"query": "q"})).await;
    assert_eq!(result.text_content(), "q");
    let result = client.call_tool("alias", json!({"message": "m"})).await;
    assert_eq!(result.text_content(), "m");
}
