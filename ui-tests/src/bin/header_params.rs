//! `#[header("Name")]` on an inline parameter marks its property `x-mcp-header`, the same mark
//! `#[schemars(extend("x-mcp-header" = "Name"))]` puts on a struct field; the fn stays callable.

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Context, Server, tool};
use serde_json::json;

/// Runs a query in a region
#[tool]
async fn query(
    /// Where to run it
    #[header("Region")]
    #[serde(rename = "zone")]
    region: String,
    /// How many rows at most
    #[header("Limit")]
    limit: Option<u32>,
    context: &Context,
    /// Not mirrored
    sql: String,
) -> String {
    let _ = context.request_id();
    format!("{sql} in {region} ({limit:?})")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("headers", "0.0.0"));
    let tools = client.list_tools().await.tools;
    assert_eq!(
        tools[0].input_schema["properties"],
        json!({
            "zone": {"type": "string", "description": "Where to run it", "x-mcp-header": "Region"},
            "limit": {"type": "integer", "description": "How many rows at most", "minimum": 0, "maximum": 4_294_967_295_u32, "x-mcp-header": "Limit"},
            "sql": {"type": "string", "description": "Not mirrored"},
        })
    );
    let result = client
        .call_tool("query", json!({"zone": "eu", "sql": "select 1"}))
        .await;
    assert_eq!(result.text_content(), "select 1 in eu (None)");
}
