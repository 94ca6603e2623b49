//! A tool without parameters has an empty object as its input schema.

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, tool};

/// Remove every product from the catalog
#[tool(
    name = "clear-catalog",
    title = "Clear the catalog",
    annotations(read_only = false, destructive, idempotent)
)]
async fn clear_catalog() -> &'static str {
    "Catalog cleared"
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("no-args", "0.0.0"));
    let result = client
        .call_tool("clear-catalog", serde_json::json!({}))
        .await;
    assert_eq!(result.text_content(), "Catalog cleared");
    let tools = serde_json::to_value(client.list_tools().await).unwrap();
    let tool = &tools["tools"][0];
    assert_eq!(tool["inputSchema"]["type"], "object");
    assert_eq!(tool["annotations"]["destructiveHint"], true);
    assert_eq!(tool["annotations"]["readOnlyHint"], false);
}
