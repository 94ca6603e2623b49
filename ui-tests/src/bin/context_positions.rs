//! `Context` may come first, last, by value or by reference, and is never part of the input.

// The qualified paths are the case under test.
#![allow(unused_qualifications)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Context, Server, tool};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Args {
    query: String,
}

/// Context first, by value, then the argument struct
#[tool]
async fn first(context: Context, args: Args) -> String {
    format!("{} {}", args.query, context.request_id())
}

/// The argument struct, then `&Context` last
#[tool]
async fn last(args: Args, context: &Context) -> String {
    format!("{} {}", args.query, context.is_cancelled())
}

/// Inline parameters around a `Context`
#[tool]
async fn between(
    /// Before
    before: String,
    context: &mcp_toolbelt::Context,
    /// After
    after: String,
) -> String {
    let _ = context.request_id();
    format!("{before} {after}")
}

/// Only a `Context`: no input at all
#[tool]
async fn only(context: Context) -> String {
    context.request_id().to_string()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("context", "0.0.0"));
    let result = client
        .call_tool("last", serde_json::json!({"query": "q"}))
        .await;
    assert_eq!(result.text_content(), "q false");
    let result = client
        .call_tool("between", serde_json::json!({"before": "a", "after": "b"}))
        .await;
    assert_eq!(result.text_content(), "a b");
    let result = client
        .call_tool("first", serde_json::json!({"query": "q"}))
        .await;
    assert!(result.text_content().starts_with("q "));
    let tools = serde_json::to_value(client.list_tools().await).unwrap();
    for tool in tools["tools"].as_array().unwrap() {
        assert!(
            tool["inputSchema"]["properties"].get("context").is_none(),
            "{tool}"
        );
    }
}
