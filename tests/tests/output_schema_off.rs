//! `#[tool(output_schema = false)]`, the escape hatch for hosts that fail tools declaring an
//! output schema: no `outputSchema` in `tools/list`, no `structuredContent` in the result (the
//! JSON stays the text), and the lint's `claude` profile has nothing left to warn about.

use mcp_toolbelt::testing::{TestClient, assert_portable_for, assert_result_portable};
use mcp_toolbelt::{Json, Server, tool};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

#[derive(Serialize, JsonSchema)]
struct Product {
    name: String,
    price: f64,
}

/// Look up a product
#[tool(name = "product", output_schema = false)]
async fn product(
    /// Its name
    name: String,
) -> Json<Product> {
    Json(Product { name, price: 24.0 })
}

/// The price of a product
#[tool(output_schema = false)]
async fn price() -> Json<f64> {
    Json(24.0)
}

#[tokio::test]
async fn no_output_schema_and_text_only_results() {
    let server = Server::new("shop", "1.0.0");
    let client = TestClient::new(Server::new("shop", "1.0.0"));
    let tools = client.list_tools().await.tools;
    assert!(
        tools.iter().all(|tool| tool.output_schema.is_none()),
        "{tools:?}"
    );

    let result = client
        .call_tool("product", json!({"name": "Travel mug"}))
        .await;
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"content": [{"type": "text", "text": r#"{"name":"Travel mug","price":24.0}"#}]})
    );
    assert_result_portable(&tools[1], &result, &[]);
    let result = client.call_tool("price", json!({})).await;
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"content": [{"type": "text", "text": "24.0"}]})
    );

    let report = mcp_toolbelt::lint::lint(
        "shop",
        &tools,
        &[mcp_toolbelt::lint::profile("claude").unwrap()],
    );
    assert_eq!(report.findings, []);
    assert_portable_for(&server, &["claude", "cursor"]);
}
